/*
 * The API Shield kinds' table that the current Schema Validation kinds
 * (schema_validation.c) share; the values both take are shieldrules.h's.
 */
#ifndef EDGE_KINDS_SHIELD_H
#define EDGE_KINDS_SHIELD_H

#include "kind.h"

/* The filters of a list of uploaded schemas. */
extern const struct kind_filter shield_schema_filters[];

#endif
