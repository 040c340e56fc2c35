/*
 * A list's column widths: fixed ones as declared, width-0 ones sharing
 * what is left, columns dropped from the right when the screen is narrow.
 */
#include "config.h"

#include "common.h"
#include "kind.h"

#include "layout.h"

static int
layout_grows(const struct kind_column *c)
{
	return (c->width > 0 && c->max > c->width);
}

/* Give the columns with a max their share of the room left over. */
static int
layout_grow(const struct kind_column *const *cols, size_t n, int spare,
    int flex, int *widths)
{
	int	grow = 0, share, extra, given = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		grow += layout_grows(cols[i]);
	if (grow == 0 || spare <= 0)
		return (0);
	share = spare / (grow + flex);
	for (i = 0; i < n; i++) {
		if (!layout_grows(cols[i]))
			continue;
		extra = MINIMUM(share, cols[i]->max - cols[i]->width);
		widths[i] += extra;
		given += extra;
	}
	return (given);
}

void
layout_widths(const struct kind_column *const *cols, size_t ncols, int w,
    int *widths)
{
	int	used = 2, flex = 0, i, n = (int)ncols, width;

	for (i = 0; i < n; i++) {
		width = cols[i]->width;
		if (width == 0)
			flex++;
		else
			used += width + 1;
	}
	/* Drop columns from the right until the flexible ones fit. */
	while (n > 1 && used + flex * (LAYOUT_FLEX_MIN + 1) > w) {
		n--;
		if (cols[n]->width == 0)
			flex--;
		else
			used -= cols[n]->width + 1;
	}
	for (i = 0; i < (int)ncols; i++)
		widths[i] = i < n ? cols[i]->width : 0;
	/*
	 * Only once every column shows: on a narrow screen the few columns
	 * left over are no reason to move the others.
	 */
	if (n == (int)ncols)
		used += layout_grow(cols, ncols,
		    w - used - flex * (LAYOUT_FLEX_MIN + 1), flex, widths);
	for (i = 0; i < n; i++)
		if (cols[i]->width == 0)
			widths[i] = MAXIMUM(LAYOUT_FLEX_MIN,
			    (w - used) / MAXIMUM(flex, 1) - 1);
}
