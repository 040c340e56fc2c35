/*
 * A picker: a short list in a box (the columns to sort by); Enter chooses
 * the item under the cursor, a second key (O) chooses it the other way.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "screen.h"
#include "text.h"
#include "tui.h"
#include "xmalloc.h"

struct picker {
	struct modal	 m;
	char		*title;
	char		**items;
	size_t		 n;
	size_t		 cur;
	picker_cb	 cb;
	void		*arg;
};

static void
picker_free(struct modal *m)
{
	struct picker	*pk = (struct picker *)m;
	size_t		 i;

	for (i = 0; i < pk->n; i++)
		free(pk->items[i]);
	free(pk->items);
	free(pk->title);
	free(pk);
}

static int
picker_key(struct tui *t, struct modal *m, int key)
{
	struct picker	*pk = (struct picker *)m;
	enum action	 a = keymap_lookup(t->keymap, KEYMAP_LIST, key);
	size_t		 i = pk->cur;
	picker_cb	 cb = pk->cb;
	void		*arg = pk->arg;

	if (key == 033 || a == ACTION_QUIT) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == '\r' || a == ACTION_SORT_REVERSE) {
		/* Closed first: the answer may open another modal. */
		tui_pop(t);
		cb(t, arg, i, a == ACTION_SORT_REVERSE);
		return (TUI_HANDLED);
	}
	switch (a) {
	case ACTION_UP:
		if (pk->cur > 0)
			pk->cur--;
		break;
	case ACTION_DOWN:
		if (pk->cur + 1 < pk->n)
			pk->cur++;
		break;
	case ACTION_TOP:
		pk->cur = 0;
		break;
	case ACTION_BOTTOM:
		pk->cur = pk->n - 1;
		break;
	default:
		break;
	}
	return (TUI_HANDLED);
}

static void
picker_draw(struct tui *t, struct modal *m)
{
	struct picker	*pk = (struct picker *)m;
	char		*title;
	size_t		 i, first = 0;
	int		 w, h, y0, x0, rows;
	attr_t		 a;

	(void)t;
	w = (int)text_width(pk->title) + 6;
	for (i = 0; i < pk->n; i++)
		w = MAXIMUM(w, (int)text_width(pk->items[i]) + 6);
	w = MINIMUM(w, COLS - 2);
	h = MINIMUM((int)pk->n + 2, LINES - 2);
	rows = h - 2;
	if (rows <= 0 || w < 4)
		return;
	if (pk->cur >= (size_t)rows)
		first = pk->cur - (size_t)rows + 1;
	y0 = MAXIMUM(1, (LINES - h) / 2);
	x0 = MAXIMUM(0, (COLS - w) / 2);
	for (i = 0; i < (size_t)h; i++)
		screen_fill(y0 + (int)i, x0, w, screen_role(THEME_ROLE_NORMAL));
	screen_box(y0, x0, h, w, screen_role(THEME_ROLE_BORDER));
	title = xprintf(" %s ", pk->title);
	screen_cell(y0, x0 + 2, w - 4, title, screen_role(THEME_ROLE_TITLE));
	free(title);
	for (i = first; i < pk->n && i < first + (size_t)rows; i++) {
		a = screen_role(i == pk->cur ? THEME_ROLE_ROW_SELECTED :
		    THEME_ROLE_NORMAL);
		screen_fill(y0 + 1 + (int)(i - first), x0 + 1, w - 2, a);
		screen_cell(y0 + 1 + (int)(i - first), x0 + 2, w - 4,
		    pk->items[i], a);
	}
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
	pk->title = text_clean(title);
	pk->items = xcalloc(n, sizeof *pk->items);
	for (i = 0; i < n; i++)
		pk->items[i] = text_clean(items[i]);
	pk->n = n;
	pk->cur = cur < n ? cur : 0;
	pk->cb = cb;
	pk->arg = arg;
	tui_push(t, &pk->m);
}
