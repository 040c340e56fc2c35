/*
 * A list's column widths: the columns of higher priority kept first and
 * given their room first, width-0 ones sharing what is left, the rest
 * dropped when the screen is narrow.
 */
#include "config.h"

#include "common.h"
#include "kind.h"
#include "rows.h"

#include "layout.h"

/* The narrowest a column is shown. */
static int
layout_min(const struct kind_column *c)
{
	return (c->width > 0 ? c->width : LAYOUT_FLEX_MIN);
}

/* The most it grows to before columns of lower priority get room. */
static int
layout_want(const struct kind_column *c)
{
	return (MAXIMUM(layout_min(c), c->max));
}

/* Column indexes by priority, higher first, equal ones in order. */
static void
layout_order(const struct kind_column *const *cols, size_t n, size_t *order)
{
	size_t	i, j, k;

	for (i = 0; i < n; i++) {
		k = i;
		for (j = i; j > 0 && cols[order[j - 1]]->priority <
		    cols[k]->priority; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
}

/*
 * Give the columns of one priority their share of spare, when all of them
 * show: each one with room to grow (a max) grows toward it, a width-0 one
 * without a max keeps its share for the end. Returns what was given.
 */
static int
layout_grow(const struct kind_column *const *cols, const size_t *order,
    size_t n, int prio, int spare, int *widths)
{
	const struct kind_column	*c;
	int				 grow = 0, flex = 0, share, extra;
	int				 given = 0;
	size_t				 k;

	for (k = 0; k < n; k++) {
		c = cols[order[k]];
		if (c->priority != prio)
			continue;
		/* A column left out is no reason to move those shown. */
		if (widths[order[k]] == 0)
			return (0);
		if (layout_want(c) > widths[order[k]])
			grow++;
		else if (c->width == 0)
			flex++;
	}
	if (grow == 0 || spare <= 0)
		return (0);
	share = spare / (grow + flex);
	for (k = 0; k < n; k++) {
		c = cols[order[k]];
		if (c->priority != prio || widths[order[k]] == 0)
			continue;
		extra = MINIMUM(share, layout_want(c) - widths[order[k]]);
		if (extra > 0) {
			widths[order[k]] += extra;
			given += extra;
		}
	}
	return (given);
}

/*
 * What the kept columns two priorities or more above c (its first k in
 * order) need to grow to their max: c shows only if that room is left too.
 */
static int
layout_reserve(const struct kind_column *const *cols, const size_t *order,
    size_t k, const struct kind_column *c, const int *widths)
{
	const struct kind_column	*above;
	int				 room = 0;
	size_t				 i;

	for (i = 0; i < k; i++) {
		above = cols[order[i]];
		if (widths[order[i]] > 0 && above->priority - c->priority >= 2)
			room += layout_want(above) - layout_min(above);
	}
	return (room);
}

void
layout_widths(const struct kind_column *const *cols, size_t ncols, int w,
    int *widths)
{
	const struct kind_column	*c;
	size_t				 order[ROWS_MAX_COLUMNS], n, k;
	int				 used = 2, flex = 0, prio;

	n = MINIMUM(ncols, (size_t)ROWS_MAX_COLUMNS);
	for (k = 0; k < ncols; k++)
		widths[k] = 0;
	layout_order(cols, n, order);
	/* Kept in that order while they fit, the first whatever the width. */
	for (k = 0; k < n; k++) {
		c = cols[order[k]];
		if (k > 0 && used + layout_min(c) + 1 +
		    layout_reserve(cols, order, k, c, widths) > w)
			break;
		widths[order[k]] = layout_min(c);
		used += layout_min(c) + 1;
		flex += c->width == 0;
	}
	/* The room left, one priority after the other. */
	for (k = 0; k < n && used < w; k++) {
		prio = cols[order[k]]->priority;
		if (k > 0 && cols[order[k - 1]]->priority == prio)
			continue;
		used += layout_grow(cols, order, n, prio, w - used, widths);
	}
	/* What is still left goes to the width-0 columns. */
	for (k = 0; k < n && flex > 0 && used < w; k++) {
		c = cols[order[k]];
		if (c->width == 0 && widths[order[k]] > 0)
			widths[order[k]] += (w - used) / flex;
	}
}
