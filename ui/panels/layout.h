/*
 * The widths of a list's columns for a screen width: arithmetic only (no
 * terminal), so the unit tests reach it.
 */
#ifndef EDGE_PANELS_LAYOUT_H
#define EDGE_PANELS_LAYOUT_H

#include <stddef.h>

struct kind_column;

/* The narrowest a column of width 0 (it takes what is left) is shown. */
#define LAYOUT_FLEX_MIN		32

/*
 * widths[i] for each of the n columns on a screen w wide (two columns of
 * cursor, a space after each cell); 0 for a column not shown. Columns are
 * kept by priority (struct kind_column), equal ones in order, while their
 * width fits (a width-0 one: LAYOUT_FLEX_MIN) with the max of those two
 * priorities or more above them; the room left goes to the
 * higher priorities first, each column growing to its max at most, equal
 * ones sharing it (none of a priority grows while one of it is left out);
 * the width-0 columns share what is left in the end.
 */
void	layout_widths(const struct kind_column *const *, size_t, int, int *);

#endif
