/*
 * JSON <-> YAML that keeps types: a quoted "123" stays a string, a plain 123
 * is a number, and every field survives the round trip.
 */
#ifndef EDGE_YAMLJSON_H
#define EDGE_YAMLJSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* The first document of text as JSON; on error *cause names line and column. */
cJSON	*yamljson_parse(const char *, size_t, char **);
/* Block-style YAML for a JSON value, ending in a newline. */
char	*yamljson_emit(const cJSON *);

#endif
