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
 * cursor, a space after each cell): a column that does not fit is 0,
 * from the right. Once every column fits, what is left is shared between
 * the width-0 columns and those with a max, each of those growing to its
 * max at most.
 */
void	layout_widths(const struct kind_column *const *, size_t, int, int *);

#endif
