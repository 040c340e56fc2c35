/*
 * The list view (widgets/listview.h): the items a view's ops count, in a
 * view of them (filtered, sorted), with a cursor and marks that follow
 * each item by its key while the items change under them (the request
 * log grows at every request, the tray at every upload).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "screen.h"
#include "text.h"
#include "theme.h"
#include "tui.h"
#include "widgets/line.h"
#include "widgets/listview.h"
#include "xmalloc.h"

/* The columns a row has when read whole (filter, y, w). */
#define LISTVIEW_WIDE	4096

struct listview {
	struct modal		 m;		/* listview_open's */
	struct tui		*t;
	const struct listview_ops *ops;
	void			*arg;

	size_t			*view;		/* items, in the view's order */
	size_t			 nview;
	size_t			 total;		/* items, filtered or not */
	size_t			 cur;		/* in the view */
	uint64_t		 cur_key;
	int			 keyed;		/* cur_key is the cursor's */
	size_t			 top;
	int			 page;		/* rows at the last draw */
	int			 nocursor;

	char			*filter;	/* the / text, or NULL */
	int			 sort;		/* in ops->sorts, or -1 */
	int			 desc;
	uint64_t		*marks;		/* keys of the marked items */
	size_t			 nmarks;
	size_t			 marked;	/* of the items there now */
};

/* ---- the view ----------------------------------------------------------- */

static uint64_t
listview_key_of(struct listview *lv, size_t i)
{
	return (lv->ops->key != NULL ? lv->ops->key(lv, i) : (uint64_t)i);
}

static int
listview_marked(struct listview *lv, size_t i)
{
	uint64_t	k = listview_key_of(lv, i);
	size_t		j;

	for (j = 0; j < lv->nmarks; j++)
		if (lv->marks[j] == k)
			return (1);
	return (0);
}

/* Item i's row read whole, blanks at its end dropped (allocated). */
static char *
listview_text(struct listview *lv, size_t i)
{
	struct buf	b = BUF_INITIALIZER;

	lv->ops->row(lv, i, LISTVIEW_WIDE, &b);
	while (b.len > 0 && b.data[b.len - 1] == ' ')
		buf_truncate(&b, b.len - 1);
	return (buf_detach(&b, NULL));
}

/* Whether item i passes the filter: its row holds the text, or (!) not. */
static int
listview_passes(struct listview *lv, size_t i)
{
	const char	*f = lv->filter;
	char		*text;
	int		 not = 0, in;

	if (f == NULL)
		return (1);
	if (*f == '!') {
		not = 1;
		f++;
	}
	if (*f == '\0')
		return (1);
	text = listview_text(lv, i);
	in = text_contains_nocase(text, f);
	free(text);
	return (in != not);
}

/* a before b in the sort, the view's order between equals. */
static int
listview_before(struct listview *lv, size_t a, size_t b)
{
	int	c = lv->ops->compare(lv, a, b, lv->sort);

	if (lv->desc)
		c = -c;
	return (c < 0 || (c == 0 && a < b));
}

/* A merge sort of the view: stable whatever the comparison. */
static void
listview_sort(struct listview *lv, size_t *v, size_t n, size_t *tmp)
{
	size_t	h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	listview_sort(lv, v, h, tmp);
	listview_sort(lv, v + h, n - h, tmp);
	while (i < h && j < n)
		tmp[k++] = listview_before(lv, v[j], v[i]) ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

/* The cursor back on its item, or where it was when that one went. */
static void
listview_place(struct listview *lv)
{
	size_t	i;

	if (lv->keyed) {
		for (i = 0; i < lv->nview; i++)
			if (listview_key_of(lv, lv->view[i]) == lv->cur_key) {
				lv->cur = i;
				return;
			}
	}
	if (lv->cur >= lv->nview)
		lv->cur = lv->nview > 0 ? lv->nview - 1 : 0;
	lv->keyed = lv->nview > 0;
	if (lv->keyed)
		lv->cur_key = listview_key_of(lv, lv->view[lv->cur]);
}

/* The view of the items as they are now. */
static void
listview_build(struct listview *lv)
{
	size_t	n = lv->ops->count(lv), i, *tmp;

	lv->total = n;
	lv->view = xreallocarray(lv->view, n + 1, sizeof *lv->view);
	lv->nview = 0;
	lv->marked = 0;
	for (i = 0; i < n; i++) {
		if (lv->nmarks > 0 && listview_marked(lv, i))
			lv->marked++;
		if (listview_passes(lv, i))
			lv->view[lv->nview++] = i;
	}
	if (lv->sort >= 0 && lv->ops->compare != NULL && lv->nview > 1) {
		tmp = xreallocarray(NULL, lv->nview, sizeof *tmp);
		listview_sort(lv, lv->view, lv->nview, tmp);
		free(tmp);
	}
	listview_place(lv);
}

static void
listview_move(struct listview *lv, long delta)
{
	long	c = (long)lv->cur + delta;

	if (lv->nview == 0)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)lv->nview)
		c = (long)lv->nview - 1;
	lv->cur = (size_t)c;
	lv->cur_key = listview_key_of(lv, lv->view[lv->cur]);
	lv->keyed = 1;
}

/* ---- making one --------------------------------------------------------- */

struct listview *
listview_new(struct tui *t, const struct listview_ops *ops, void *arg)
{
	struct listview	*lv;

	lv = xcalloc(1, sizeof *lv);
	lv->t = t;
	lv->ops = ops;
	lv->arg = arg;
	lv->sort = -1;
	lv->page = 1;
	return (lv);
}

void
listview_free(struct listview *lv)
{
	if (lv == NULL)
		return;
	free(lv->view);
	free(lv->filter);
	free(lv->marks);
	free(lv);
}

void *
listview_arg(struct listview *lv)
{
	return (lv->arg);
}

struct tui *
listview_tui(struct listview *lv)
{
	return (lv->t);
}

int
listview_current(struct listview *lv, size_t *item)
{
	listview_build(lv);
	if (lv->nview == 0)
		return (-1);
	*item = lv->view[lv->cur];
	return (0);
}

void
listview_select(struct listview *lv, size_t item)
{
	size_t	i;

	listview_build(lv);
	for (i = 0; i < lv->nview && lv->view[i] != item; i++)
		continue;
	lv->cur = i < lv->nview ? i : 0;
	lv->keyed = 0;
	lv->top = 0;
	listview_place(lv);
}

void
listview_top(struct listview *lv)
{
	lv->cur = lv->top = 0;
	lv->keyed = 0;
}

void
listview_focus(struct listview *lv, int focus)
{
	lv->nocursor = !focus;
}

/* ---- drawing ------------------------------------------------------------ */

void
listview_title_state(struct listview *lv, struct buf *b)
{
	listview_build(lv);
	if (lv->filter != NULL)
		buf_addf(b, "  %zu of %zu", lv->nview, lv->total);
	if (lv->marked > 0)
		buf_addf(b, "  %zu marked", lv->marked);
	if (lv->filter != NULL)
		buf_addf(b, "  /%s", lv->filter);
	if (lv->sort >= 0)
		buf_addf(b, "  sort %s %s", lv->ops->sorts[lv->sort],
		    lv->desc ? "desc" : "asc");
}

/* The two columns before a row: the cursor's '>' and a mark's '*'. */
static int
listview_gutter(struct listview *lv, int y, int x, int selected,
    int marked, attr_t a)
{
	if (lv->ops->flags & LISTVIEW_ARROW) {
		screen_put(y, x, 2, selected ? (marked ? ">*" : "> ") :
		    marked ? "* " : "  ", a);
		return (2);
	}
	if (marked)
		screen_put(y, x, 1, "*", a);
	return (1);
}

static void
listview_row(struct listview *lv, size_t at, int y, int x, int w)
{
	struct buf	 b = BUF_INITIALIZER;
	size_t		 i = lv->view[at];
	int		 g, selected, marked;
	attr_t		 a;

	selected = at == lv->cur && !lv->nocursor;
	marked = lv->nmarks > 0 && listview_marked(lv, i);
	g = lv->ops->flags & LISTVIEW_ARROW ? 2 : 1;
	a = lv->ops->row(lv, i, w - g, &b);
	if (marked)
		a = screen_role(THEME_ROLE_ROW_MARKED);
	if (selected)
		a = screen_role(THEME_ROLE_ROW_SELECTED);
	if (selected || marked)
		screen_fill(y, x, w, a);
	g = listview_gutter(lv, y, x, selected, marked, a);
	screen_put(y, x + g, w - g, buf_str(&b), a);
	buf_free(&b);
}

static void
listview_draw_empty(struct listview *lv, int y, int x, int w)
{
	enum theme_role	 role = THEME_ROLE_DIM;
	const char	*text = NULL;

	if (lv->total > 0)
		text = "nothing matches the filter";
	else if (lv->ops->empty != NULL)
		text = lv->ops->empty(lv, &role);
	if (text != NULL)
		screen_put(y, x + 2, w - 2, text, screen_role(role));
}

int
listview_draw(struct listview *lv, int y, int x, int h, int w)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;
	int		y0 = y, g = lv->ops->flags & LISTVIEW_ARROW ? 2 : 1;

	listview_build(lv);
	if (h <= 0 || w <= g)
		return (0);
	if (lv->ops->header != NULL)
		lv->ops->header(lv, w - g, &b);
	if (b.len > 0) {
		screen_put(y++, x + g, w - g, buf_str(&b),
		    screen_role(THEME_ROLE_COLUMN));
		h--;
	}
	buf_free(&b);
	if (lv->nview == 0) {
		if (h > 0)
			listview_draw_empty(lv, y == y0 ? y + 1 : y, x, w);
		return (y - y0);
	}
	if (h <= 0)
		return (y - y0);
	lv->page = h;
	if (lv->cur < lv->top)
		lv->top = lv->cur;
	if (lv->cur >= lv->top + (size_t)h)
		lv->top = lv->cur - (size_t)h + 1;
	if (lv->top + (size_t)h > lv->nview)
		lv->top = lv->nview > (size_t)h ? lv->nview - (size_t)h : 0;
	for (i = lv->top; i < lv->nview && i < lv->top + (size_t)h; i++)
		listview_row(lv, i, y++, x, w);
	return (y - y0);
}

void
listview_hint(struct listview *lv, struct buf *b, enum action a,
    const char *label)
{
	status_hint(lv->t, b, lv->ops->context, a, label);
}

/* ---- the filter: / ------------------------------------------------------ */

struct listview_filter {
	struct modal	 m;
	struct listview	*lv;
	struct line	 line;
	char		*orig;
};

static void
listview_filter_set(struct listview *lv, const char *text)
{
	free(lv->filter);
	lv->filter = text != NULL && *text != '\0' ? xstrdup(text) : NULL;
}

/* Typed text, not keys: Esc and Enter end it, the rest edits the line. */
static int
listview_filter_key(struct tui *t, struct modal *m, int key)
{
	struct listview_filter	*f = (struct listview_filter *)m;

	if (key == 033) {
		listview_filter_set(f->lv, f->orig);
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == '\r') {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (line_key(&f->line, key) == LINE_CHANGED)
		listview_filter_set(f->lv, f->line.buf);
	return (TUI_HANDLED);
}

static void
listview_filter_draw(struct tui *t, struct modal *m)
{
	struct listview_filter	*f = (struct listview_filter *)m;

	(void)t;
	line_draw_bottom(&f->line, "/");
}

static void
listview_filter_free(struct modal *m)
{
	struct listview_filter	*f = (struct listview_filter *)m;

	free(f->orig);
	free(f);
}

static void
listview_filter_open(struct listview *lv)
{
	struct listview_filter	*f;

	f = xcalloc(1, sizeof *f);
	f->m.key = listview_filter_key;
	f->m.draw = listview_filter_draw;
	f->m.free = listview_filter_free;
	f->lv = lv;
	f->orig = lv->filter != NULL ? xstrdup(lv->filter) : NULL;
	line_set(&f->line, lv->filter);
	/* Typing starts a new filter; an arrow edits this one. */
	line_select(&f->line);
	tui_push(lv->t, &f->m);
}

int
listview_back(struct listview *lv)
{
	if (lv->filter == NULL)
		return (0);
	listview_filter_set(lv, NULL);
	tui_message(lv->t, TUI_MSG_INFO, "filter cleared");
	return (1);
}

/* ---- sorting: o, O ------------------------------------------------------ */

static void
listview_sort_chosen(struct tui *t, void *arg, size_t item, int reverse)
{
	struct listview	*lv = arg;

	(void)t;
	lv->sort = (int)item - 1;
	lv->desc = reverse;
}

static void
listview_sort_pick(struct listview *lv)
{
	const char	**items;
	char		**texts;
	size_t		  n = 0, i, cur = 0;

	while (lv->ops->sorts[n] != NULL)
		n++;
	texts = xcalloc(n + 1, sizeof *texts);
	items = xcalloc(n + 1, sizeof *items);
	texts[0] = xstrdup("the view's order");
	for (i = 0; i < n; i++) {
		if ((int)i == lv->sort) {
			cur = i + 1;
			texts[i + 1] = xprintf("%s %s", lv->ops->sorts[i],
			    screen_arrow(lv->desc));
		} else
			texts[i + 1] = xstrdup(lv->ops->sorts[i]);
	}
	for (i = 0; i <= n; i++)
		items[i] = texts[i];
	picker_open(lv->t, "sort by (Enter; O reversed)", items, n + 1, cur,
	    listview_sort_chosen, lv);
	for (i = 0; i <= n; i++)
		free(texts[i]);
	free(texts);
	free(items);
}

/* ---- marks: Space, C-a, C-u --------------------------------------------- */

static void
listview_mark(struct listview *lv, size_t i, int on)
{
	uint64_t	k = listview_key_of(lv, i);
	size_t		j;

	for (j = 0; j < lv->nmarks && lv->marks[j] != k; j++)
		continue;
	if (j < lv->nmarks && !on) {
		lv->marks[j] = lv->marks[--lv->nmarks];
	} else if (j == lv->nmarks && on) {
		lv->marks = xreallocarray(lv->marks, lv->nmarks + 1,
		    sizeof *lv->marks);
		lv->marks[lv->nmarks++] = k;
	}
}

/* The items y and w act on: the marked ones shown, else every one shown
 * (all) or the cursor's; *n of them (allocated, NULL for none). */
static size_t *
listview_targets(struct listview *lv, int all, size_t *n)
{
	size_t	*v, i;

	*n = 0;
	listview_build(lv);
	v = xcalloc(lv->nview + 1, sizeof *v);
	for (i = 0; i < lv->nview && lv->marked > 0; i++)
		if (listview_marked(lv, lv->view[i]))
			v[(*n)++] = lv->view[i];
	for (i = 0; i < lv->nview && *n == 0 && all; i++)
		v[i] = lv->view[i];
	if (*n == 0 && all)
		*n = lv->nview;
	if (*n == 0 && !all && lv->nview > 0)
		v[(*n)++] = lv->view[lv->cur];
	if (*n == 0) {
		free(v);
		return (NULL);
	}
	return (v);
}

/* ---- y and w ------------------------------------------------------------ */

static void
listview_copy(struct listview *lv)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*what = "the row";
	char		*text, *label;
	size_t		*v, n, i, got = 0;

	if ((v = listview_targets(lv, 0, &n)) == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (got > 0)
			buf_addc(&b, '\n');
		if (lv->ops->copy == NULL) {
			text = listview_text(lv, v[i]);
			buf_adds(&b, text);
			free(text);
		} else if (lv->ops->copy(lv, v[i], &b, &what) != 0)
			continue;
		got++;
	}
	if (got > 0) {
		label = got == 1 ? xstrdup(what) :
		    xprintf("%zu marked rows", got);
		tui_copy(lv->t, label, buf_str(&b));
		free(label);
	}
	buf_free(&b);
	free(v);
}

static void
listview_write_answer(struct tui *t, void *arg, const char *file)
{
	struct listview	*lv = arg;
	struct buf	 b = BUF_INITIALIZER;
	char		*text, *cause = NULL;
	size_t		*v, n, i;

	if (*file == '\0' || (v = listview_targets(lv, 1, &n)) == NULL)
		return;
	if (lv->ops->header != NULL) {
		lv->ops->header(lv, LISTVIEW_WIDE, &b);
		while (b.len > 0 && b.data[b.len - 1] == ' ')
			buf_truncate(&b, b.len - 1);
		if (b.len > 0)
			buf_addc(&b, '\n');
	}
	for (i = 0; i < n; i++) {
		text = listview_text(lv, v[i]);
		buf_addf(&b, "%s\n", text);
		free(text);
	}
	if (textview_write(file, buf_str(&b), &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "save: %s", cause);
		free(cause);
	} else
		tui_message(t, TUI_MSG_OK, "saved %zu row%s to %s (mode 0600)",
		    n, n == 1 ? "" : "s", file);
	buf_free(&b);
	free(v);
}

/* ---- ?: the view's keys ------------------------------------------------- */

/* The actions every list view has, after the view's own. */
static const enum action listview_generic[] = {
	ACTION_UP, ACTION_DOWN, ACTION_PAGE_UP, ACTION_PAGE_DOWN, ACTION_TOP,
	ACTION_BOTTOM, ACTION_FILTER, ACTION_SORT, ACTION_SORT_REVERSE,
	ACTION_MARK, ACTION_MARK_ALL, ACTION_UNMARK_ALL, ACTION_COPY,
	ACTION_SAVE_FILE, ACTION_HELP, ACTION_QUIT, ACTION_BACK
};

/* Whether the view has a generic action (a picker has fewer). */
static int
listview_offers(struct listview *lv, enum action a)
{
	int	pick = lv->ops->flags & LISTVIEW_PICK;

	switch (a) {
	case ACTION_SORT:
	case ACTION_SORT_REVERSE:
		return (!pick && lv->ops->sorts != NULL);
	case ACTION_MARK:
	case ACTION_MARK_ALL:
	case ACTION_UNMARK_ALL:
	case ACTION_COPY:
	case ACTION_SAVE_FILE:
		return (!pick);
	default:
		return (1);
	}
}

static void
listview_help(struct listview *lv)
{
	enum action	 acts[64];
	const char	*helps[64];
	struct buf	 b = BUF_INITIALIZER;
	const struct listview_key *k;
	struct modal	*m;
	size_t		 n = 0, i, col;
	char		*title;

	for (k = lv->ops->keys; k != NULL && k->action != ACTION_NONE &&
	    n < nitems(acts); k++) {
		acts[n] = k->action;
		helps[n++] = k->help;
	}
	if (lv->ops->enter_help != NULL) {
		acts[n] = ACTION_DETAILS;
		helps[n++] = lv->ops->enter_help;
	}
	for (i = 0; i < nitems(listview_generic) && n < nitems(acts); i++) {
		if (!listview_offers(lv, listview_generic[i]))
			continue;
		acts[n] = listview_generic[i];
		helps[n++] = listview_generic[i] == ACTION_COPY &&
		    lv->ops->copy == NULL ? "copy the row, or the marked "
		    "rows (OSC 52)" : listview_generic[i] == ACTION_SAVE_FILE ?
		    "save the rows shown, or the marked ones, to a new file "
		    "(mode 0600)" : NULL;
	}
	if (lv->ops->help != NULL)
		buf_addf(&b, "%s\n", lv->ops->help);
	buf_addf(&b, "Keys (from the live keymap: keymap: %s: in "
	    "config.yaml)\n\n", keymap_context_name(lv->ops->context));
	col = keymap_help_view(lv->t->keymap, lv->ops->context, acts, helps, n,
	    &b);
	title = xprintf("%s: keys", lv->ops->name);
	m = textview_modal(title, buf_str(&b));
	/* A long help wraps under its own column. */
	textview_modal_hang(m, (int)col);
	tui_push(lv->t, m);
	free(title);
	buf_free(&b);
}

/* ---- actions ------------------------------------------------------------ */

static int
listview_marks(struct listview *lv, enum action a)
{
	size_t	i;

	switch (a) {
	case ACTION_MARK:
		if (lv->nview == 0)
			break;
		i = lv->view[lv->cur];
		listview_mark(lv, i, !listview_marked(lv, i));
		listview_move(lv, 1);
		break;
	case ACTION_MARK_ALL:
	case ACTION_UNMARK_ALL:
		for (i = 0; i < lv->nview; i++)
			listview_mark(lv, lv->view[i], a == ACTION_MARK_ALL);
		break;
	default:
		return (0);
	}
	return (TUI_HANDLED);
}

static int
listview_move_action(struct listview *lv, enum action a)
{
	long	page = MAXIMUM(1, lv->page);

	switch (a) {
	case ACTION_UP:		listview_move(lv, -1); break;
	case ACTION_DOWN:	listview_move(lv, 1); break;
	case ACTION_PAGE_UP:	listview_move(lv, -page); break;
	case ACTION_PAGE_DOWN:	listview_move(lv, page); break;
	case ACTION_TOP:	listview_move(lv, -(long)lv->nview); break;
	case ACTION_BOTTOM:	listview_move(lv, (long)lv->nview); break;
	default:
		return (0);
	}
	return (TUI_HANDLED);
}

int
listview_action(struct listview *lv, enum action a)
{
	int	rv;

	/* The view's own first: it may close the view (no lv after it). */
	if (lv->ops->action != NULL && (rv = lv->ops->action(lv, a)) != 0)
		return (rv);
	if (a == ACTION_NONE || !listview_offers(lv, a))
		return (0);
	listview_build(lv);
	if (listview_move_action(lv, a) || listview_marks(lv, a))
		return (TUI_HANDLED);
	switch (a) {
	case ACTION_DETAILS:
		if (lv->ops->enter == NULL)
			return (0);
		if (lv->nview > 0)
			lv->ops->enter(lv, lv->view[lv->cur]);
		return (TUI_HANDLED);
	case ACTION_FILTER:
		listview_filter_open(lv);
		return (TUI_HANDLED);
	case ACTION_SORT:
		listview_sort_pick(lv);
		return (TUI_HANDLED);
	case ACTION_SORT_REVERSE:
		lv->desc = !lv->desc;
		return (TUI_HANDLED);
	case ACTION_COPY:
		listview_copy(lv);
		return (TUI_HANDLED);
	case ACTION_SAVE_FILE:
		dialog_prompt(lv->t, "save the rows to the file (created 0600; "
		    "never overwritten)", "", 1, listview_write_answer, lv,
		    NULL);
		return (TUI_HANDLED);
	case ACTION_HELP:
		listview_help(lv);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

/* ---- a view of its own -------------------------------------------------- */

static int
listview_modal_key(struct tui *t, struct modal *m, int key)
{
	struct listview	*lv = (struct listview *)m;
	enum action	 a = keymap_lookup(t->keymap, lv->ops->context, key);
	int		 closes;

	if (a == ACTION_BACK && listview_back(lv))
		return (TUI_HANDLED);
	closes = a == ACTION_QUIT || a == ACTION_BACK ||
	    (a != ACTION_NONE && a == lv->ops->closes);
	/*
	 * Another key clears the last message (errors stay), as in the
	 * lists; closing leaves it for the list below.
	 */
	if (!closes && t->msg != NULL && t->msg_class != TUI_MSG_ERROR) {
		free(t->msg);
		t->msg = NULL;
	}
	if (!closes && listview_action(lv, a) != 0)
		return (TUI_HANDLED);
	if (closes)
		listview_close(lv);
	return (TUI_HANDLED);
}

static void
listview_modal_draw(struct tui *t, struct modal *m)
{
	struct listview	*lv = (struct listview *)m;
	struct buf	 b = BUF_INITIALIZER;
	int		 y;

	if (lv->ops->reread != NULL)
		lv->ops->reread(lv);
	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	if (lv->ops->title != NULL)
		lv->ops->title(lv, &b);
	listview_title_state(lv, &b);
	screen_put(1, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_reset(&b);
	listview_draw(lv, 2, 0, LINES - 3, COLS);
	if (!status_draw_message(t)) {
		if (lv->ops->footer != NULL)
			lv->ops->footer(lv, &b);
		status_draw_hints(t, &b, THEME_ROLE_DIM);
	}
	buf_free(&b);
}

static void
listview_modal_free(struct modal *m)
{
	struct listview	*lv = (struct listview *)m;

	if (lv->ops->free != NULL)
		lv->ops->free(lv->arg);
	listview_free(lv);
}

struct listview *
listview_open(struct tui *t, const struct listview_ops *ops, void *arg)
{
	struct listview	*lv = listview_new(t, ops, arg);

	lv->m.key = listview_modal_key;
	lv->m.draw = listview_modal_draw;
	lv->m.free = listview_modal_free;
	/* Nothing is typed in a list: : opens over it. */
	lv->m.flags = MODAL_VIEW;
	tui_push(t, &lv->m);
	return (lv);
}

void
listview_close(struct listview *lv)
{
	struct tui	*t = lv->t;
	struct modal	*m;

	for (m = t->modal; m != NULL && m != &lv->m; m = m->below)
		continue;
	if (m == NULL)
		return;
	while (t->modal != &lv->m)
		tui_pop(t);
	tui_pop(t);
}
