/*
 * Rules of the API that the client checks before sending and edgemu checks
 * on receipt: one copy, so both refuse the same things.
 */
#ifndef EDGE_APIRULES_H
#define EDGE_APIRULES_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* An API Shield JWT claim name: "<token configuration id>:$<JSONPath>". */
int	 apirules_jwt_claim_ok(const char *);

/*
 * The OpenAPI version Schema Validation takes: 3.0.x only (the docs:
 * 3.1 is not supported yet, 2.0 never will be). For a parsed document, 0,
 * or -1 with the member at fault (".openapi" or ".swagger") in *member and
 * why in msg.
 */
int	 apirules_openapi_version(const cJSON *, const char **, char *,
	     size_t);
/*
 * The same on a document's text (JSON or YAML): 0, or -1 with *cause
 * saying why. Text that does not parse as either is left to the server
 * (0): only the version is checked here.
 */
int	 apirules_openapi_text(const char *, size_t, char **);

#endif
