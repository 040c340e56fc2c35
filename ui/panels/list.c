/*
 * The generic panel's list: the cursor, loading page by page into the row
 * store, sorting and marks, and drawing the panel (title, banner, rows).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "pager.h"
#include "resource.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "xmalloc.h"

/* ---- the cursor ------------------------------------------------------- */

void
panel_remember(struct panel *p)
{
	const char	*id = NULL;

	if (p->cursor < rows_count(p->rows))
		id = rows_id(p->rows, p->cursor);
	free(p->cursor_id);
	p->cursor_id = id != NULL ? xstrdup(id) : NULL;
}

/* Put the cursor back on its record after the rows changed. */
void
panel_restore(struct panel *p)
{
	size_t	n = rows_count(p->rows);
	long	i;

	if (p->cursor_id != NULL &&
	    (i = rows_find(p->rows, p->cursor_id)) >= 0)
		p->cursor = (size_t)i;
	if (n == 0)
		p->cursor = 0;
	else if (p->cursor >= n)
		p->cursor = n - 1;
	if (p->cursor_id == NULL)
		panel_remember(p);
}

static void
panel_move(struct panel *p, long delta)
{
	size_t	n = rows_count(p->rows);
	long	c = (long)p->cursor + delta;

	if (n == 0)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)n)
		c = (long)n - 1;
	p->cursor = (size_t)c;
	panel_remember(p);
	panel_lazy_more(p);
}

const char *
panel_current_id(struct panel *p)
{
	if (p->kind->shape == KIND_SHAPE_OBJECT ||
	    p->cursor >= rows_count(p->rows))
		return (NULL);
	return (rows_id(p->rows, p->cursor));
}

cJSON *
panel_current_record(struct panel *p)
{
	if (p->kind->shape == KIND_SHAPE_OBJECT)
		return (p->record != NULL ? cJSON_Duplicate(p->record, 1) :
		    NULL);
	if (p->cursor >= rows_count(p->rows))
		return (NULL);
	return (rows_record(p->rows, p->cursor));
}

const char **
panel_targets(struct panel *p, size_t *n)
{
	const char	**ids, *id;

	if (rows_mark_count(p->rows) > 0)
		return (rows_marked_ids(p->rows, n));
	*n = 0;
	if ((id = panel_current_id(p)) == NULL)
		return (NULL);
	ids = xcalloc(1, sizeof *ids);
	ids[0] = id;
	*n = 1;
	return (ids);
}

/* ---- loading ------------------------------------------------------------ */

void
panel_next_page(struct panel *p)
{
	struct buf	 q;
	char		*base, *cause = NULL;
	int		 more;

	base = kind_list_path(p->kind, p->vars, &cause);
	if (base == NULL) {
		free(p->error);
		p->error = cause;
		p->loading = 0;
		return;
	}
	buf_init(&q);
	buf_adds(&q, base);
	buf_addc(&q, strchr(base, '?') != NULL ? '&' : '?');
	if (p->query != NULL && *p->query != '\0')
		buf_addf(&q, "%s&", p->query);
	if (p->filter != NULL && *p->filter != '\0' && *p->filter != '!' &&
	    kind_filter_text(p->kind) != NULL &&
	    kind_filter_add(p->kind, kind_filter_text(p->kind)->name,
	    p->filter, &q, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	more = pager_next_query(p->pager, &q);
	if (!more) {
		p->loading = 0;
		buf_free(&q);
		free(base);
		return;
	}
	if (q.len > 0 && (q.data[q.len - 1] == '&' || q.data[q.len - 1] == '?'))
		buf_truncate(&q, q.len - 1);
	if (tui_submit(p->tui, p, TUI_REQ_LIST, "GET", buf_str(&q),
	    NULL) == NULL)
		p->loading = 0;
	buf_free(&q);
	free(base);
}

void
panel_load(struct panel *p)
{
	struct pager_opts	 po;
	char			*path, *cause = NULL;

	p->gen++;
	free(p->error);
	p->error = NULL;
	p->loading = 1;
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		path = kind_item_path(p->kind, p->vars, NULL, &cause);
		if (path == NULL) {
			p->error = cause;
			p->loading = 0;
			return;
		}
		/* Server filters (F) apply to an object too: one creator's. */
		if (p->query != NULL && *p->query != '\0') {
			char *full = xprintf("%s%c%s", path,
			    strchr(path, '?') != NULL ? '&' : '?', p->query);
			free(path);
			path = full;
		}
		if (tui_submit(p->tui, p, TUI_REQ_LIST, "GET", path,
		    NULL) == NULL)
			p->loading = 0;
		free(path);
		return;
	}
	if (p->pager != NULL)
		pager_free(p->pager);
	kind_pager_opts(p->kind, &po);
	p->pager = panel_lazy_pager(p, &po);
	rows_begin(p->rows);
	panel_next_page(p);
}

void
panel_list_done(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	cJSON	**items;
	size_t	  n, i;
	char	 *cause = NULL;

	if (r->gen != p->gen)
		return;
	if (ev->kind == JOBS_EVENT_FAILED && ev->http_status == 404 &&
	    p->kind->absent_empty) {
		/* Nothing to list yet: no rows, and no error. */
		free(p->error);
		p->error = NULL;
		free(p->banner);
		p->banner = NULL;
		p->loaded = 1;
		p->loaded_at = time(NULL);
		rows_end(p->rows);
		p->loading = 0;
		panel_restore(p);
		return;
	}
	if (ev->kind == JOBS_EVENT_FAILED) {
		free(p->error);
		p->error = xstrdup(tui_cause(r, ev));
		p->loading = 0;
		panel_banner(p, r, ev);
		if (p->banner != NULL && ev->http_status == 410) {
			free(p->error);
			p->error = xstrdup("HTTP 410 Gone: this server retired "
			    "the API (see above)");
		}
		tui_message(p->tui, TUI_MSG_ERROR, "%s", p->error);
		return;
	}
	p->loaded = 1;
	p->loaded_at = time(NULL);
	free(p->banner);
	p->banner = NULL;
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		panel_show_record(p, ev->result);
		p->loading = 0;
		return;
	}
	/* The pager reads the whole response: give it its result back. */
	ev->resp.api.result = ev->result;
	ev->result = NULL;
	if (pager_feed(p->pager, &ev->resp.api, &items, &n, &cause) != 0) {
		free(p->error);
		p->error = cause;
		p->loading = 0;
		tui_message(p->tui, TUI_MSG_ERROR, "%s", p->error);
		return;
	}
	for (i = 0; i < n; i++)
		rows_put(p->rows, items[i]);
	if (pager_done(p->pager)) {
		if (p->lazy == PANEL_LAZY_OFF)
			rows_end(p->rows);
		p->loading = 0;
		if (pager_warning(p->pager) != NULL)
			tui_message(p->tui, TUI_MSG_WARN, "%s",
			    pager_warning(p->pager));
		panel_lazy_done(p);
	} else if (!panel_lazy_wait(p, n))
		panel_next_page(p);
	panel_restore(p);
}

/* ---- sorting ------------------------------------------------------------------ */

/* Picker item i: 0 the server's order, then the columns on screen. */
static int
panel_sort_column(struct panel *p, size_t item)
{
	size_t	c, k = 0;

	for (c = 0; c < p->ncols; c++)
		if (p->widths[c] != 0 && ++k == item)
			return ((int)c);
	return (-1);
}

static void
panel_sort_chosen(struct tui *t, void *arg, size_t item, int reverse)
{
	struct panel	*p = arg;

	(void)t;
	p->sort_col = panel_sort_column(p, item);
	p->sort_desc = reverse;
	rows_sort(p->rows, p->sort_col, p->sort_desc);
	panel_restore(p);
}

/* o: the columns on screen to choose from (Enter ascending, O not). */
static void
panel_sort_pick(struct panel *p)
{
	const char	**items;
	char		**texts;
	size_t		  c, n = 1, cur = 0;

	texts = xcalloc(p->ncols + 1, sizeof *texts);
	texts[0] = xstrdup("the server's order");
	for (c = 0; c < p->ncols; c++) {
		if (p->widths[c] == 0)
			continue;
		if ((int)c == p->sort_col) {
			cur = n;
			texts[n++] = xprintf("%s %s", p->cols[c]->header,
			    screen_arrow(p->sort_desc));
		} else
			texts[n++] = xstrdup(p->cols[c]->header);
	}
	items = xcalloc(n, sizeof *items);
	for (c = 0; c < n; c++)
		items[c] = texts[c];
	picker_open(p->tui, "sort by (Enter; O reversed)", items, n, cur,
	    panel_sort_chosen, p);
	for (c = 0; c < n; c++)
		free(texts[c]);
	free(texts);
	free(items);
}

int
panel_list_action(struct panel *p, enum action a)
{
	int	page = MAXIMUM(1, LINES - 6);

	switch (a) {
	case ACTION_UP:		panel_move(p, -1); break;
	case ACTION_DOWN:	panel_move(p, 1); break;
	case ACTION_PAGE_UP:	panel_move(p, -page); break;
	case ACTION_PAGE_DOWN:	panel_move(p, page); break;
	case ACTION_TOP:	panel_move(p, -(long)rows_count(p->rows)); break;
	case ACTION_BOTTOM:
		if (!panel_lazy_bottom(p))
			panel_move(p, (long)rows_count(p->rows));
		break;
	case ACTION_FILTER:	panel_filter_open(p); break;
	case ACTION_SORT:	panel_sort_pick(p); break;
	case ACTION_SORT_REVERSE:
		p->sort_desc = !p->sort_desc;
		rows_sort(p->rows, p->sort_col, p->sort_desc);
		panel_restore(p);
		break;
	case ACTION_DETAILS:	panel_details(p); break;
	case ACTION_MARK:
		if (rows_count(p->rows) == 0 || panel_current_id(p) == NULL)
			break;
		rows_mark_toggle(p->rows, p->cursor);
		panel_move(p, 1);
		break;
	case ACTION_MARK_ALL:	rows_mark_all(p->rows, 1); break;
	case ACTION_UNMARK_ALL:	rows_mark_all(p->rows, 0); break;
	default:
		return (0);
	}
	return (TUI_HANDLED);
}

/* ---- drawing ------------------------------------------------------------------ */

void
panel_layout(struct panel *p, int w)
{
	layout_widths(p->cols, p->ncols, w, p->widths);
}

/*
 * " of 'Launch teaser.mp4'" (a video's captions), from a videos list, or
 * of the parent kind's record (a live input's outputs).
 */
static void
panel_video_name(struct panel *p, struct buf *b)
{
	struct tui	*t = p->tui;
	const struct kind *pk = p->kind->parent != NULL ? p->kind->parent :
			    &kind_videos;
	char		*name = NULL;
	size_t		 i;

	for (i = 0; i < t->npanels && name == NULL; i++)
		if (t->panels[i]->kind == pk)
			name = panel_record_label(t->panels[i], p->video);
	if (name != NULL)
		buf_addf(b, " of '%s'", name);
	else
		buf_addf(b, " of %s %s", pk->noun, p->video);
	free(name);
}

static void
panel_draw_title(struct panel *p, int y, int w)
{
	struct buf	b;
	long		got, total;

	buf_init(&b);
	buf_addf(&b, " %s", p->kind->name);
	if (p->title_note != NULL)
		buf_addf(&b, " (%s)", p->title_note);
	else if (p->kind->deprecated != NULL)
		buf_adds(&b, " (legacy, deprecated)");
	if (p->video != NULL)
		panel_video_name(p, &b);
	if (p->kind->shape != KIND_SHAPE_OBJECT) {
		if (panel_lazy_title(p, &b))
			;	/* "N loaded of M" */
		else if (p->filter != NULL)
			buf_addf(&b, "  %zu of %zu", rows_count(p->rows),
			    rows_total(p->rows));
		else
			buf_addf(&b, "  %zu", rows_total(p->rows));
		if (p->loading && p->pager != NULL &&
		    p->lazy == PANEL_LAZY_OFF) {
			pager_progress(p->pager, &got, &total);
			if (total >= 0)
				buf_addf(&b, " of ~%ld", total);
			buf_adds(&b, "  loading...");
		}
		if (rows_mark_count(p->rows) > 0)
			buf_addf(&b, "  %zu marked", rows_mark_count(p->rows));
		if (p->filter != NULL)
			buf_addf(&b, "  /%s", p->filter);
		if (p->query != NULL)
			buf_addf(&b, "  [%s]", p->query);
		if (p->sort_col >= 0)
			buf_addf(&b, "  sort %s %s",
			    p->cols[p->sort_col]->header,
			    p->sort_desc ? "desc" : "asc");
	} else if (p->loading)
		buf_adds(&b, "  loading...");
	/* A settings object's record is named as its list is: once. */
	if (p->view == PANEL_DETAIL && p->detail.title != NULL &&
	    strcmp(p->detail.title, p->kind->name) != 0)
		buf_addf(&b, "  >  %s", p->detail.title);
	screen_fill(y, 0, w, screen_role(THEME_ROLE_TITLE));
	screen_put(y, 0, w, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_free(&b);
}

/* Text over whole rows of the role, broken at spaces; the rows used. */
static int
panel_draw_banner(const char *s, attr_t role, int y, int w, int maxh)
{
	char		 line[512];
	int		 n = 0;
	size_t		 len;

	while (s != NULL && *s != '\0' && n < maxh) {
		len = strlen(s);
		if (len > (size_t)w - 2)
			len = (size_t)w - 2;
		if (len > sizeof line - 1)
			len = sizeof line - 1;
		/*
		 * Break at a space when the line is cut; best between two
		 * parts set apart by two spaces, which go on one row each.
		 */
		if (len < strlen(s)) {
			size_t k = len;
			while (k > 0 && strncmp(s + k, "  ", 2) != 0)
				k--;
			if (k == 0)
				for (k = len; k > 0 && s[k] != ' '; k--)
					;
			if (k > 0)
				len = k;
		}
		memcpy(line, s, len);
		line[len] = '\0';
		screen_fill(y + n, 0, w, role);
		screen_put(y + n, 1, w - 1, line, role);
		s += len;
		while (*s == ' ')
			s++;
		n++;
	}
	return (n);
}

/* The column after the last cell on screen. */
static int
panel_row_end(const struct panel *p)
{
	int	x = 2, c, end = 2;

	for (c = 0; c < (int)p->ncols; c++) {
		if (p->widths[c] == 0)
			continue;
		end = x + p->widths[c];
		x = end + 1;
	}
	return (end);
}

static void
panel_draw_row(struct panel *p, size_t i, int y, int w)
{
	int	x = 2, c;
	attr_t	a = A_NORMAL;
	int	selected = i == p->cursor, marked = rows_marked(p->rows, i);

	/*
	 * The cursor row is a bar over cells and gaps, to the last cell's
	 * end. Its role is best a background colour: a terminal with bce
	 * erases in it, so a one-row move stays cheap (reverse video cannot
	 * be erased with).
	 */
	if (marked)
		a = screen_role(THEME_ROLE_ROW_MARKED);
	if (selected)
		a = screen_role(THEME_ROLE_ROW_SELECTED);
	if (marked || selected)
		screen_fill(y, 0, MINIMUM(panel_row_end(p), w), a);
	screen_put(y, 0, 2, selected ? (marked ? ">*" : "> ") :
	    marked ? "* " : "  ", a);
	for (c = 0; c < (int)p->ncols && x < w; c++) {
		if (p->widths[c] == 0)
			continue;
		screen_cell(y, x, MINIMUM(p->widths[c], w - x),
		    rows_cell(p->rows, i, (size_t)c), a);
		x += p->widths[c] + 1;
	}
	if (p->ops != NULL && p->ops->row_mark != NULL)
		p->ops->row_mark(p, i, y, a);
}

/* "METHOD ▲", or "METHOD▲" or "METH▲" where the column is narrow. */
static char *
panel_sort_header(const char *header, int width, int desc)
{
	char	*h = xstrdup(header), *out;
	size_t	 hw = text_width(h);

	if ((int)hw + 2 <= width)
		out = xprintf("%s %s", h, screen_arrow(desc));
	else {
		text_cut(h, (size_t)MAXIMUM(width - 1, 0));
		out = xprintf("%s%s", h, screen_arrow(desc));
	}
	free(h);
	return (out);
}

static void
panel_draw_header(struct panel *p, int y, int w)
{
	char	*h;
	int	 x = 2, c;

	for (c = 0; c < (int)p->ncols && x < w; c++) {
		if (p->widths[c] == 0)
			continue;
		/* The sorted column says so, and which way: the arrow shows. */
		h = c == p->sort_col ? panel_sort_header(p->cols[c]->header,
		    p->widths[c], p->sort_desc) : xstrdup(p->cols[c]->header);
		screen_cell(y, x, MINIMUM(p->widths[c], w - x), h,
		    screen_role(THEME_ROLE_COLUMN));
		free(h);
		x += p->widths[c] + 1;
	}
}

/*
 * What stands for the rows (an error, "loading..."), at row y: an error
 * wraps over the rows there are, as a long one ("Couldn't connect to
 * server (Failed to connect to ... )") is read whole.
 */
static void
panel_draw_empty(struct panel *p, int y, int h, const char *text, int w)
{
	char	**rows;
	size_t	  i, n;

	if (p->error == NULL || w <= 2) {
		screen_put(y, 2, w - 2, text, screen_role(THEME_ROLE_DIM));
		return;
	}
	rows = status_wrap_all(text, (size_t)w - 2, &n);
	for (i = 0; i < n; i++) {
		if ((int)i < h)
			screen_put(y + (int)i, 2, w - 2, rows[i],
			    screen_role(THEME_ROLE_ERROR));
		free(rows[i]);
	}
	free(rows);
}

static void
panel_draw_list(struct panel *p, int y, int h, int w)
{
	size_t	n = rows_count(p->rows), i;
	int	rows = h - 1;
	const char *empty;

	panel_layout(p, w);
	panel_draw_header(p, y, w);
	y++;
	if (n == 0) {
		empty = p->error != NULL ? p->error : p->loading ?
		    "loading..." : p->filter != NULL ? "no record matches "
		    "the filter" : "no records";
		panel_draw_empty(p, y + 1, h - 2, empty, w);
		return;
	}
	if (rows <= 0)
		return;
	/* Keep the cursor on screen; draw only the rows that show. */
	if (p->cursor < p->top)
		p->top = p->cursor;
	if (p->cursor >= p->top + (size_t)rows)
		p->top = p->cursor - (size_t)rows + 1;
	if (p->top + (size_t)rows > n)
		p->top = n > (size_t)rows ? n - (size_t)rows : 0;
	for (i = p->top; i < n && i < p->top + (size_t)rows; i++)
		panel_draw_row(p, i, y + (int)(i - p->top), w);
}

/*
 * The first screen, until the first command: which area it shows and
 * where the others are (allocated), or NULL.
 */
static char *
panel_intro(struct panel *p)
{
	struct tui	*t = p->tui;

	if (t->nhistory != 0 || t->npanels > 1 || p->view != PANEL_LIST)
		return (NULL);
	if (p->kind->scope == KIND_SCOPE_ZONE)
		return (xprintf("%s.  :rules rate limiting  :videos Stream",
		    kind_help(p->kind)));
	return (xprintf("%s. API Shield (:operations) and rate limiting rules "
	    "(:rules) need a zone: --zone or CLOUDFLARE_ZONE_ID.",
	    kind_help(p->kind)));
}

void
panel_draw(struct panel *p, int y, int x, int h, int w)
{
	char	*intro;
	int	 b;

	(void)x;
	if (p->ops != NULL && p->ops->shown != NULL)
		p->ops->shown(p);
	panel_filter_flush(p);
	panel_draw_title(p, y, w);
	y++;
	h--;
	b = panel_draw_banner(p->banner, screen_role(THEME_ROLE_BANNER), y, w,
	    MAXIMUM(0, h / 3));
	y += b;
	h -= b;
	if ((intro = panel_intro(p)) != NULL) {
		b = panel_draw_banner(intro, screen_role(THEME_ROLE_DIM), y, w,
		    MAXIMUM(0, h / 4));
		y += b;
		h -= b;
		free(intro);
	}
	if (p->view == PANEL_DETAIL) {
		if (p->record == NULL) {
			panel_draw_empty(p, y + 1, h - 1, p->error != NULL ?
			    p->error : p->loading ? "loading..." :
			    "nothing to show", w);
			return;
		}
		if (p->ops != NULL && p->ops->draw != NULL) {
			b = p->ops->draw(p, y, h, w);
			y += b;
			h -= b;
		}
		textview_draw(p->tui, &p->detail, y, 0, h, w);
		return;
	}
	if (p->ops != NULL && p->ops->draw != NULL) {
		b = p->ops->draw(p, y, h, w);
		y += b;
		h -= b;
	}
	panel_draw_list(p, y, h, w);
}
