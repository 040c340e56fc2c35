/* Rules of the API both edgetui and edgemu check (see apirules.h). */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "jsonutil.h"
#include "xmalloc.h"
#include "yamljson.h"

int
apirules_jwt_claim_ok(const char *name)
{
	const char	*colon = strchr(name, ':');
	size_t		 n, i;

	if (colon == NULL)
		return (0);
	n = (size_t)(colon - name);
	if (n < 32 || n > 36)
		return (0);
	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)name[i]) &&
		    !isdigit((unsigned char)name[i]) && name[i] != '-')
			return (0);
	}
	return (colon[1] == '$');
}

/* "3.0.<patch>", digits only. */
static int
apirules_openapi_30(const char *v)
{
	const char	*p = v + 4;

	if (strncmp(v, "3.0.", 4) != 0 || !isdigit((unsigned char)*p))
		return (0);
	while (isdigit((unsigned char)*p))
		p++;
	return (*p == '\0');
}

int
apirules_openapi_version(const cJSON *doc, const char **member, char *msg,
    size_t len)
{
	const cJSON	*v;

	*member = ".swagger";
	v = cJSON_GetObjectItemCaseSensitive(doc, "swagger");
	if (v != NULL) {
		snprintf(msg, len, "swagger %.32s (OpenAPI 2) documents are not "
		    "supported: upload an OpenAPI 3.0.x document",
		    cJSON_IsString(v) ? v->valuestring : "2.0");
		return (-1);
	}
	*member = ".openapi";
	v = cJSON_GetObjectItemCaseSensitive(doc, "openapi");
	if (v == NULL)
		snprintf(msg, len, "openapi: required, the OpenAPI version such "
		    "as \"3.0.3\"");
	else if (!cJSON_IsString(v))
		snprintf(msg, len, "openapi: must be a string such as "
		    "\"3.0.3\", not %s", jsonutil_type_name(v));
	else if (strncmp(v->valuestring, "3.1", 3) == 0 &&
	    (v->valuestring[3] == '.' || v->valuestring[3] == '\0'))
		snprintf(msg, len, "openapi: %.32s is not supported: Schema "
		    "Validation takes OpenAPI 3.0.x documents (3.1 is not "
		    "supported yet)", v->valuestring);
	else if (!apirules_openapi_30(v->valuestring))
		snprintf(msg, len, "openapi: '%.32s' is not a supported version "
		    "(3.0.x, such as \"3.0.3\")", v->valuestring);
	else
		return (0);
	return (-1);
}

int
apirules_openapi_text(const char *text, size_t len, char **cause)
{
	const char	*member;
	char		 msg[256], *why = NULL;
	cJSON		*doc;
	int		 rv = 0;

	if ((doc = cJSON_ParseWithLength(text, len)) == NULL &&
	    (doc = yamljson_parse(text, len, &why)) == NULL) {
		free(why);
		return (0);
	}
	if (cJSON_IsObject(doc) &&
	    apirules_openapi_version(doc, &member, msg, sizeof msg) != 0) {
		*cause = xstrdup(msg);
		rv = -1;
	}
	cJSON_Delete(doc);
	return (rv);
}
