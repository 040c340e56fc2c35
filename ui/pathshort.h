/*
 * A request's path made to fit a column: ids shortened, then the middle
 * left out, so the part that tells requests apart (the tail) shows.
 */
#ifndef EDGE_PATHSHORT_H
#define EDGE_PATHSHORT_H

#include <stddef.h>

/*
 * path in at most width columns (allocated): whole when it fits; else
 * with each id (16 hex digits or more, a UUID) as its first four and
 * "…"; else the first two segments, "…" and at least two of the last
 * ones ("/zones/7b4c…/…/settings/operations"), or "…" and as many of the
 * last as fit; else "…" and its last columns. A query gets what room the
 * path leaves, cut at its end.
 */
char	*pathshort(const char *, size_t);

#endif
