/* Small helpers over cJSON values that both programs share. */
#ifndef EDGE_JSONUTIL_H
#define EDGE_JSONUTIL_H

#include <cjson/cJSON.h>

/*
 * The type of v for messages such as "must be a string, not a number":
 * "a string", "a number", "a boolean", "an array", "an object"; NULL and
 * JSON null read "null".
 */
const char	*jsonutil_type_name(const cJSON *);

#endif
