/*
 * Integration test support: fields of an API result read by path, the one
 * home of the getters the tests share.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "jsonget.h"

const cJSON *
jget(const cJSON *o, const char *path)
{
	const cJSON	*v = o;
	const char	*p = path, *dot;
	char		*key;

	while (v != NULL && (dot = strchr(p, '.')) != NULL) {
		key = strndup(p, (size_t)(dot - p));
		v = cJSON_GetObjectItemCaseSensitive(v, key);
		free(key);
		p = dot + 1;
	}
	if (v != NULL)
		v = cJSON_GetObjectItemCaseSensitive(v, p);
	if (v == NULL)
		fail_msg("no '%s' in %s", path, o != NULL ?
		    cJSON_PrintUnformatted(o) : "nothing");
	return (v);
}

const char *
jstr(const cJSON *o, const char *path)
{
	const cJSON	*v = jget(o, path);

	if (!cJSON_IsString(v))
		fail_msg("'%s' is not a string", path);
	return (v->valuestring);
}

double
jnum(const cJSON *o, const char *path)
{
	const cJSON	*v = jget(o, path);

	if (!cJSON_IsNumber(v))
		fail_msg("'%s' is not a number", path);
	return (v->valuedouble);
}

void
assert_json_equal(const cJSON *a, const cJSON *b)
{
	if (!cJSON_Compare(a, b, 1))
		fail_msg("differ:\n%s\n%s", cJSON_PrintUnformatted(a),
		    cJSON_PrintUnformatted(b));
}
