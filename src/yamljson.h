/*
 * JSON <-> YAML that keeps types: a quoted "123" stays a string, a plain 123
 * is a number, and every field survives the round trip.
 */
#ifndef EDGE_YAMLJSON_H
#define EDGE_YAMLJSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * The one document of text as JSON, typed by the YAML 1.2 core schema; on
 * error NULL, with *cause ("line 3, column 5: ...") for the user. Refused:
 * a second document, aliases, nesting deeper than 128, duplicate or
 * non-scalar keys, tags other than !!str !!int !!float !!bool !!null !!seq
 * !!map and !, NUL, invalid UTF-8, a raw NEL, .inf/.nan, and integers
 * beyond 2^53.
 * Decimals with a leading zero (0123) are strings.
 */
cJSON	*yamljson_parse(const char *, size_t, char **);
/*
 * Block-style YAML for a JSON value, ending in a newline, that
 * yamljson_parse reads back as the same value.
 */
char	*yamljson_emit(const cJSON *);

#endif
