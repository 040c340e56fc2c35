/*
 * A picker: a short list view in a box (the columns to sort by); Enter
 * chooses the item under the cursor, the reverse-sort key (O) chooses it
 * the other way, / narrows the items.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/listview.h"
#include "xmalloc.h"

struct picker {
	struct modal	 m;
	struct tui	*t;
	char		*title;
	char		**items;
	size_t		 n;
	picker_cb	 cb;
	void		*arg;
	struct listview	*lv;
};

static void
picker_free(struct modal *m)
{
	struct picker	*pk = (struct picker *)m;
	size_t		 i;

	listview_free(pk->lv);
	for (i = 0; i < pk->n; i++)
		free(pk->items[i]);
	free(pk->items);
	free(pk->title);
	free(pk);
}

/* Closed first: the answer may open another modal. */
static void
picker_choose(struct picker *pk, size_t i, int other)
{
	struct tui	*t = pk->t;
	picker_cb	 cb = pk->cb;
	void		*arg = pk->arg;

	tui_pop(t);
	cb(t, arg, i, other);
}

static size_t
picker_count(struct listview *lv)
{
	return (((struct picker *)listview_arg(lv))->n);
}

/* An item, one column short of the box's edge. */
static attr_t
picker_row(struct listview *lv, size_t i, int cols, struct buf *b)
{
	struct picker	*pk = listview_arg(lv);
	char		*cell;

	cell = text_ellipsize(pk->items[i], (size_t)MAXIMUM(cols - 1, 1),
	    screen_ellipsis());
	buf_adds(b, cell);
	free(cell);
	return (screen_role(THEME_ROLE_NORMAL));
}

static void
picker_enter(struct listview *lv, size_t i)
{
	picker_choose(listview_arg(lv), i, 0);
}

static int
picker_action(struct listview *lv, enum action a)
{
	size_t	i;

	if (a != ACTION_SORT_REVERSE)
		return (0);
	if (listview_current(lv, &i) == 0)
		picker_choose(listview_arg(lv), i, 1);
	return (TUI_HANDLED);
}

static const struct listview_ops picker_ops = {
	.name = "picker",
	.context = KEYMAP_LIST,
	.flags = LISTVIEW_PICK,
	.enter_help = "choose the item",
	.count = picker_count,
	.row = picker_row,
	.enter = picker_enter,
	.action = picker_action,
};

static int
picker_key(struct tui *t, struct modal *m, int key)
{
	struct picker	*pk = (struct picker *)m;
	enum action	 a = keymap_lookup(t->keymap, KEYMAP_LIST, key);

	if (a == ACTION_BACK && listview_back(pk->lv))
		return (TUI_HANDLED);
	if (listview_action(pk->lv, a) != 0)
		return (TUI_HANDLED);
	if (a == ACTION_QUIT || a == ACTION_BACK)
		tui_pop(t);
	return (TUI_HANDLED);
}

static void
picker_draw(struct tui *t, struct modal *m)
{
	struct picker	*pk = (struct picker *)m;
	char		*title;
	size_t		 i;
	int		 w, h, y0, x0;

	(void)t;
	w = (int)text_width(pk->title) + 6;
	for (i = 0; i < pk->n; i++)
		w = MAXIMUM(w, (int)text_width(pk->items[i]) + 6);
	w = MINIMUM(w, COLS - 2);
	h = MINIMUM((int)pk->n + 2, LINES - 2);
	if (h - 2 <= 0 || w < 4)
		return;
	y0 = MAXIMUM(1, (LINES - h) / 2);
	x0 = MAXIMUM(0, (COLS - w) / 2);
	for (i = 0; i < (size_t)h; i++)
		screen_fill(y0 + (int)i, x0, w, screen_role(THEME_ROLE_NORMAL));
	screen_box(y0, x0, h, w, screen_role(THEME_ROLE_BORDER));
	title = xprintf(" %s ", pk->title);
	screen_cell(y0, x0 + 2, w - 4, title, screen_role(THEME_ROLE_TITLE));
	free(title);
	listview_draw(pk->lv, y0 + 1, x0 + 1, h - 2, w - 2);
}

void
picker_open(struct tui *t, const char *title, const char *const *items,
    size_t n, size_t cur, picker_cb cb, void *arg)
{
	struct picker	*pk;
	size_t		 i;

	if (n == 0)
		return;
	pk = xcalloc(1, sizeof *pk);
	pk->m.key = picker_key;
	pk->m.draw = picker_draw;
	pk->m.free = picker_free;
	pk->t = t;
	pk->title = text_clean(title);
	pk->items = xcalloc(n, sizeof *pk->items);
	for (i = 0; i < n; i++)
		pk->items[i] = text_clean(items[i]);
	pk->n = n;
	pk->cb = cb;
	pk->arg = arg;
	pk->lv = listview_new(t, &picker_ops, pk);
	listview_select(pk->lv, cur < n ? cur : 0);
	tui_push(t, &pk->m);
}
