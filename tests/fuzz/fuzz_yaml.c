/*
 * Fuzz yamljson: any bytes as YAML. What parses must emit, parse back to the
 * same tree and emit the same text again; what fails must say where.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yamljson.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
broken(const char *what, const char *yaml, const char *detail)
{
	fprintf(stderr, "fuzz_yaml: %s\n--- emitted:\n%s--- %s\n", what, yaml,
	    detail != NULL ? detail : "");
	abort();
}

/*
 * Same types, values and key order, in linear time. cJSON_Compare checks
 * an object from both sides, so its cost doubles with each level of nested
 * objects: 128 levels would never finish.
 */
static int
same(const cJSON *a, const cJSON *b)
{
	if ((a->type & 0xff) != (b->type & 0xff))
		return (0);
	if ((a->string == NULL) != (b->string == NULL) ||
	    (a->string != NULL && strcmp(a->string, b->string) != 0))
		return (0);
	if (cJSON_IsNumber(a))
		return (a->valuedouble == b->valuedouble);
	if (cJSON_IsString(a))
		return (strcmp(a->valuestring, b->valuestring) == 0);
	for (a = a->child, b = b->child; a != NULL && b != NULL;
	    a = a->next, b = b->next) {
		if (!same(a, b))
			return (0);
	}
	return (a == NULL && b == NULL);
}

/* Levels of objects within objects, which is what makes cJSON_Compare slow. */
static int
object_depth(const cJSON *v)
{
	const cJSON	*c;
	int		 d, max = 0;

	for (c = v->child; c != NULL; c = c->next) {
		if ((d = object_depth(c)) > max)
			max = d;
	}
	return (max + cJSON_IsObject(v));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON	*first, *second;
	char	*cause = NULL, *y1, *y2, *j;

	first = yamljson_parse((const char *)data, size, &cause);
	if (first == NULL) {
		if (cause == NULL || strncmp(cause, "line ", 5) != 0)
			abort();
		free(cause);
		return (0);
	}
	if (cause != NULL)
		abort();

	y1 = yamljson_emit(first);
	second = yamljson_parse(y1, strlen(y1), &cause);
	if (second == NULL)
		broken("emitted YAML does not parse", y1, cause);
	if (!same(first, second) ||
	    (object_depth(first) <= 12 && !cJSON_Compare(first, second, 1))) {
		j = cJSON_PrintUnformatted(second);
		broken("emitted YAML reads back differently", y1, j);
	}
	y2 = yamljson_emit(second);
	if (strcmp(y1, y2) != 0)
		broken("emitting again gives other text", y1, y2);

	free(y1);
	free(y2);
	cJSON_Delete(first);
	cJSON_Delete(second);
	return (0);
}
