/*
 * The API Shield kinds' tables that the current Schema Validation kinds
 * (schema_validation.c) share: the same API objects, the same values.
 */
#ifndef EDGE_KINDS_SHIELD_H
#define EDGE_KINDS_SHIELD_H

#include "kind.h"

/* A schema's kinds: openapi_v3. */
extern const char *const shield_schema_kinds[];
/* A validation mitigation action: none, log, block. */
extern const char *const shield_sv_actions[];
/* The filters of a list of uploaded schemas. */
extern const struct kind_filter shield_schema_filters[];

#endif
