/*
 * A one-shot table's columns for the terminal it is printed on: the width
 * (COLUMNS, else the terminal's), and the columns' widths from the first
 * records. Names are cut last: other columns are dropped from the right
 * before the name column is cut; with no width known nothing is cut.
 */
#include "config.h"

#include <sys/ioctl.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kind.h"
#include "text.h"
#include "xmalloc.h"

#include "cli.h"

/* Between two cells. */
#define CLI_FIT_GAP		2
/* The least a column that takes what is left (width 0) is given. */
#define CLI_FIT_FLEX_MIN	10
/* What it would like when there are no records to measure. */
#define CLI_FIT_FLEX_WANT	40
/* The least the name and id columns are cut to on a tiny terminal. */
#define CLI_FIT_CUT_MIN		8
#define CLI_FIT_CELL_MAX	4096

int
cli_term_width(void)
{
	struct winsize	 ws;
	const char	*s = getenv("COLUMNS");
	char		*end;
	long		 n;

	if (s != NULL && *s != '\0') {
		errno = 0;
		n = strtol(s, &end, 10);
		if (errno == 0 && *end == '\0' && n > 0 && n <= 100000)
			return ((int)n);
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 0)
		return (ws.ws_col);
	return (0);
}

static int
cli_fit_is(const struct cli_table *t, size_t i, const char *path)
{
	return (path != NULL && strcmp(t->cols[i]->path, path) == 0);
}

/* The columns never dropped: the record's id and its name. */
static int
cli_fit_kept(const struct cli_table *t, size_t i)
{
	return (cli_fit_is(t, i, t->kind->id_field) ||
	    cli_fit_is(t, i, t->kind->label));
}

/*
 * What a column would like: as wide as its widest cell; with no records
 * to measure (widest < 0), its declared width, or the max it grows to.
 */
static int
cli_fit_want(const struct kind_column *col, int widest)
{
	if (widest < 0)
		return (col->width > 0 ? MAXIMUM(col->width, col->max) :
		    CLI_FIT_FLEX_WANT);
	return (widest);
}

/*
 * The least it is shown in while the name is not cut: its declared width
 * (less when its cells are narrower); one of width 0 takes what is left.
 */
static int
cli_fit_least(const struct kind_column *col, int want)
{
	if (col->width == 0)
		return (MINIMUM(want, CLI_FIT_FLEX_MIN));
	return (MINIMUM(want, col->width));
}

static void
cli_fit_drop(struct cli_table *t, size_t at, int *want, int *least)
{
	size_t	i;

	for (i = at; i + 1 < t->ncols; i++) {
		t->cols[i] = t->cols[i + 1];
		t->widths[i] = t->widths[i + 1];
		want[i] = want[i + 1];
		least[i] = least[i + 1];
	}
	t->ncols--;
}

/* The index of the column at path, or -1. */
static long
cli_fit_find(const struct cli_table *t, const char *path)
{
	size_t	i;

	for (i = 0; i < t->ncols; i++)
		if (cli_fit_is(t, i, path))
			return ((long)i);
	return (-1);
}

/* Give column i up to its want out of *spare. */
static void
cli_fit_give(struct cli_table *t, size_t i, const int *want, int *spare)
{
	int	extra = MINIMUM(*spare, want[i] - t->widths[i]);

	if (extra > 0) {
		t->widths[i] += extra;
		*spare -= extra;
	}
}

/* Too narrow even for the kept columns: cut the name, then the id. */
static void
cli_fit_squeeze(struct cli_table *t, int over)
{
	const char	*order[2] = { t->kind->label, t->kind->id_field };
	long		 i;
	size_t		 j;
	int		 less;

	for (j = 0; j < nitems(order) && over > 0; j++) {
		if ((i = cli_fit_find(t, order[j])) < 0)
			continue;
		less = MINIMUM(over, t->widths[i] - CLI_FIT_CUT_MIN);
		if (less > 0) {
			t->widths[i] -= less;
			over -= less;
		}
	}
}

void
cli_table_fit_widths(struct cli_table *t, const int *widest, int w)
{
	int	want[nitems(t->cols)], least[nitems(t->cols)];
	int	used = 0, spare;
	long	name;
	size_t	i;

	for (i = 0; i < t->ncols; i++) {
		want[i] = cli_fit_want(t->cols[i], widest[i]);
		least[i] = cli_fit_least(t->cols[i], want[i]);
	}
	t->fitted = 1;
	t->cut = w > 0;
	if (w <= 0) {
		for (i = 0; i < t->ncols; i++)
			t->widths[i] = want[i];
		return;
	}
	for (i = 0; i < t->ncols; i++)
		used += least[i] + (i != 0 ? CLI_FIT_GAP : 0);
	/* Drop from the right until the name fits whole, or nothing is left. */
	name = cli_fit_find(t, t->kind->label);
	for (i = t->ncols; i-- > 0; ) {
		if (used + (name >= 0 ? want[name] - least[name] : 0) <= w)
			break;
		if (cli_fit_kept(t, i))
			continue;
		used -= least[i] + (t->ncols > 1 ? CLI_FIT_GAP : 0);
		cli_fit_drop(t, i, want, least);
		name = cli_fit_find(t, t->kind->label);
	}
	for (i = 0; i < t->ncols; i++)
		t->widths[i] = least[i];
	spare = w - used;
	if (spare < 0) {
		cli_fit_squeeze(t, -spare);
		return;
	}
	/* The name first, then the other columns, then what is left. */
	if (name >= 0)
		cli_fit_give(t, (size_t)name, want, &spare);
	for (i = 0; i < t->ncols; i++)
		if (t->cols[i]->width > 0)
			cli_fit_give(t, i, want, &spare);
	for (i = 0; i < t->ncols; i++)
		if (t->cols[i]->width == 0)
			cli_fit_give(t, i, want, &spare);
}

/* The widest cell of column i among the sample's, its header included. */
static int
cli_fit_widest(const struct cli_table *t, size_t i, const cJSON *const *items,
    size_t n)
{
	char	cell[CLI_FIT_CELL_MAX];
	size_t	j, widest = text_width(t->cols[i]->header);

	if (n == 0)
		return (-1);
	for (j = 0; j < n; j++) {
		kind_column_value(t->kind, t->cols[i], items[j], cell,
		    sizeof cell);
		widest = MAXIMUM(widest, text_width(cell));
	}
	return ((int)MINIMUM(widest, (size_t)INT_MAX / 4));
}

void
cli_table_fit(struct cli_table *t, const cJSON *const *items, size_t n)
{
	int	widest[nitems(t->cols)];
	size_t	i;

	for (i = 0; i < t->ncols; i++)
		widest[i] = cli_fit_widest(t, i, items, n);
	cli_table_fit_widths(t, widest, cli_term_width());
}

void
cli_table_fit_list(struct cli_table *t, const cJSON *list)
{
	const cJSON	**items, *v;
	size_t		  n = 0;

	items = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *items);
	cJSON_ArrayForEach(v, list)
		items[n++] = v;
	cli_table_fit(t, items, n);
	free(items);
}
