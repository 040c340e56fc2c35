/*
 * The request log: a list over http.c's ring, read again at every draw so
 * uploads that run meanwhile show up. What the ring keeps is already
 * without the token and the records' secrets (src/redact.c).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "http.h"
#include "pathshort.h"
#include "requestlog.h"
#include "screen.h"
#include "status.h"
#include "text.h"
#include "tui.h"
#include "xmalloc.h"

#define REQUESTLOG_PATH_MIN	16	/* the path's least, past the notes */

struct requestlog {
	struct modal		 m;
	struct http_log_entry	*e;		/* oldest first */
	size_t			 n;
	unsigned long		 total;
	unsigned long		 seq;		/* the selected entry's */
	size_t			 sel;		/* rows from the newest */
	size_t			 top;
};

/* One entry's view: its request, its answer; c copies the command. */
struct requestlog_entry {
	struct modal	 m;
	struct textview	 tv;
	char		*curl;
};

static void
requestlog_read(struct tui *t, struct requestlog *l)
{
	size_t	i;

	l->n = http_log_snapshot(t->http, l->e, HTTP_LOG_DEFAULT, &l->total);
	/* The selection stays on its entry while new ones arrive. */
	for (i = 0; i < l->n; i++) {
		if (l->e[l->n - 1 - i].seq == l->seq) {
			l->sel = i;
			return;
		}
	}
	if (l->sel >= l->n)
		l->sel = l->n > 0 ? l->n - 1 : 0;
	l->seq = l->n > 0 ? l->e[l->n - 1 - l->sel].seq : 0;
}

static const struct http_log_entry *
requestlog_selected(struct requestlog *l)
{
	return (l->n > 0 ? &l->e[l->n - 1 - l->sel] : NULL);
}

/*
 * A row in cols columns: the path gives way (its middle) to the rest, down
 * to its least; then a note that does not fit whole gives way to "…"
 * (Enter shows the entry whole), rather than being cut mid-word.
 */
static void
requestlog_line(const struct http_log_entry *e, struct buf *b, int cols)
{
	struct tm	 tm;
	struct buf	 why = BUF_INITIALIZER, tries = BUF_INITIALIZER;
	char		 when[16], *path;
	int		 room, left, wwhy, wtries;

	localtime_r(&e->time, &tm);
	strftime(when, sizeof when, "%H:%M:%S", &tm);
	buf_addf(b, "%s  %-7s ", when, e->method);
	if (e->http_status != 0)
		buf_addf(b, "%3ld", e->http_status);
	else
		buf_adds(b, "  -");
	buf_addf(b, " %6ld ms  %5ld  ", e->latency_ms, e->budget_left);
	if (e->attempt == 0)
		buf_addf(&why, "  (not sent: %s)", status_message(e->status));
	else if (e->http_status == 0)
		buf_addf(&why, "  (%s)", status_message(e->status));
	if (e->attempt > 1)
		buf_addf(&tries, "  (attempt %d)", e->attempt);
	wwhy = (int)text_width(buf_str(&why));
	wtries = (int)text_width(buf_str(&tries));
	room = cols - (int)text_width(buf_str(b)) - wwhy - wtries;
	path = pathshort(e->path, (size_t)MAXIMUM(room, REQUESTLOG_PATH_MIN));
	buf_adds(b, path);
	left = cols - (int)text_width(buf_str(b));
	if (wwhy + wtries <= left) {
		buf_adds(b, buf_str(&why));
		buf_adds(b, buf_str(&tries));
	} else if (wwhy + 2 <= left) {
		buf_adds(b, buf_str(&why));
		buf_adds(b, " …");
	} else if (left >= 3)
		buf_adds(b, "  …");
	free(path);
	buf_free(&why);
	buf_free(&tries);
}

/* ---- one entry -------------------------------------------------------------- */

static int
requestlog_entry_key(struct tui *t, struct modal *m, int key)
{
	struct requestlog_entry	*v = (struct requestlog_entry *)m;
	enum action		 a;

	a = keymap_lookup(t->keymap, KEYMAP_DETAIL, key);
	if (key == 033 || a == ACTION_QUIT) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == 'c' || a == ACTION_COPY) {
		tui_copy(t, "the curl command", v->curl);
		return (TUI_HANDLED);
	}
	textview_action(&v->tv, a, LINES - 4);
	return (TUI_HANDLED);
}

static void
requestlog_entry_draw(struct tui *t, struct modal *m)
{
	struct requestlog_entry	*v = (struct requestlog_entry *)m;
	int			 y;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 1, v->tv.title, screen_role(THEME_ROLE_TITLE));
	textview_draw(t, &v->tv, 2, 0, LINES - 3, COLS);
	if (status_draw_message(t))
		return;
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	screen_put(LINES - 1, 0, COLS, " c copy as curl  arrows scroll  q "
	    "back", screen_role(THEME_ROLE_DIM));
}

static void
requestlog_entry_free(struct modal *m)
{
	struct requestlog_entry	*v = (struct requestlog_entry *)m;

	textview_clear(&v->tv);
	free(v->curl);
	free(v);
}

/*
 * The command on several lines, an option each, as one would type it: a
 * break before each " -" outside quotes (the JSON body keeps its own).
 */
static void
requestlog_add_curl(struct buf *b, const char *curl)
{
	const char	*p;
	int		 single = 0, dbl = 0;

	for (p = curl; *p != '\0'; p++) {
		if (!single && !dbl && p[0] == ' ' && p[1] == '-' &&
		    p - curl > 7)
			buf_adds(b, " \\\n   ");
		if (*p == '\\' && !single && p[1] != '\0') {
			buf_addc(b, *p++);
		} else if (*p == '\'' && !dbl)
			single = !single;
		else if (*p == '"' && !single)
			dbl = !dbl;
		buf_addc(b, *p);
	}
}

static void
requestlog_show(struct tui *t, const struct http_log_entry *e)
{
	struct requestlog_entry	*v;
	struct buf		 b = BUF_INITIALIZER;
	char			*curl, *body, *title;

	if (http_log_detail(t->http, e->seq, &curl, &body) != 0) {
		tui_message(t, TUI_MSG_WARN, "that request has left the log");
		return;
	}
	requestlog_line(e, &b, INT_MAX);	/* the path whole */
	buf_adds(&b, "\n\n");
	requestlog_add_curl(&b, curl);
	buf_adds(&b, "\n\n");
	if (e->attempt == 0)
		buf_adds(&b, "Not sent.\n");
	else if (*body == '\0')
		buf_adds(&b, "No response body.\n");
	else
		buf_addf(&b, "Response (secrets masked, at most %d KiB):\n%s\n",
		    HTTP_LOG_BODY_MAX / 1024, body);
	v = xcalloc(1, sizeof *v);
	v->m.key = requestlog_entry_key;
	v->m.draw = requestlog_entry_draw;
	v->m.free = requestlog_entry_free;
	v->m.flags = MODAL_VIEW;
	v->curl = curl;
	title = xprintf("request %lu: %s %s", e->seq, e->method, e->path);
	textview_set(&v->tv, title, buf_str(&b));
	free(title);
	free(body);
	buf_free(&b);
	tui_push(t, &v->m);
}

/* ---- the list ----------------------------------------------------------------- */

static void
requestlog_copy(struct tui *t, const struct http_log_entry *e)
{
	char	*curl, *body;

	if (http_log_detail(t->http, e->seq, &curl, &body) != 0) {
		tui_message(t, TUI_MSG_WARN, "that request has left the log");
		return;
	}
	tui_copy(t, "the curl command", curl);
	free(curl);
	free(body);
}

static int
requestlog_key(struct tui *t, struct modal *m, int key)
{
	struct requestlog		*l = (struct requestlog *)m;
	const struct http_log_entry	*e = requestlog_selected(l);
	enum action			 a = keymap_lookup(t->keymap,
					     KEYMAP_LIST, key);
	size_t				 page = LINES > 5 ? LINES - 5 : 1;

	if (key == 033 || a == ACTION_QUIT || a == ACTION_LOG) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == 'c' || a == ACTION_COPY) {
		if (e != NULL)
			requestlog_copy(t, e);
		return (TUI_HANDLED);
	}
	switch (a) {
	case ACTION_UP:
		if (l->sel > 0)
			l->sel--;
		break;
	case ACTION_DOWN:
		if (l->sel + 1 < l->n)
			l->sel++;
		break;
	case ACTION_PAGE_UP:
		l->sel = l->sel > page ? l->sel - page : 0;
		break;
	case ACTION_PAGE_DOWN:
		l->sel = l->n > 0 ? MINIMUM(l->sel + page, l->n - 1) : 0;
		break;
	case ACTION_TOP:
		l->sel = 0;
		break;
	case ACTION_BOTTOM:
		l->sel = l->n > 0 ? l->n - 1 : 0;
		break;
	case ACTION_DETAILS:
		if (e != NULL)
			requestlog_show(t, e);
		return (TUI_HANDLED);
	default:
		return (TUI_HANDLED);
	}
	l->seq = l->n > 0 ? l->e[l->n - 1 - l->sel].seq : 0;
	return (TUI_HANDLED);
}

static void
requestlog_draw(struct tui *t, struct modal *m)
{
	struct requestlog	*l = (struct requestlog *)m;
	struct buf		 b = BUF_INITIALIZER;
	size_t			 i, rows = LINES > 5 ? LINES - 5 : 1;
	int			 y;
	attr_t			 a;

	requestlog_read(t, l);
	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	buf_addf(&b, "request log: %lu requests in this session, newest "
	    "first; budget left %ld", l->total, http_budget_left(t->http));
	screen_put(1, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_reset(&b);
	buf_addf(&b, "%-10s%-8s%-4s%9s  %5s  %s", "TIME", "METHOD", "ST",
	    "LATENCY", "LEFT", "PATH");
	screen_put(2, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_COLUMN));
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + rows)
		l->top = l->sel - rows + 1;
	for (i = l->top, y = 3; i < l->n && y < LINES - 1; i++, y++) {
		buf_reset(&b);
		requestlog_line(&l->e[l->n - 1 - i], &b, COLS - 1);
		a = screen_role(i == l->sel ? THEME_ROLE_ROW_SELECTED :
		    THEME_ROLE_NORMAL);
		if (i == l->sel)
			screen_fill(y, 0, COLS, a);
		screen_put(y, 1, COLS - 1, buf_str(&b), a);
	}
	if (l->n == 0)
		screen_put(3, 2, COLS - 2, "No request yet.",
		    screen_role(THEME_ROLE_DIM));
	buf_free(&b);
	if (status_draw_message(t))
		return;
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	screen_put(LINES - 1, 0, COLS, " Enter show  c copy as curl  q close",
	    screen_role(THEME_ROLE_DIM));
}

static void
requestlog_free(struct modal *m)
{
	struct requestlog	*l = (struct requestlog *)m;

	free(l->e);
	free(l);
}

void
requestlog_open(struct tui *t)
{
	struct requestlog	*l;

	l = xcalloc(1, sizeof *l);
	l->m.key = requestlog_key;
	l->m.draw = requestlog_draw;
	l->m.flags = MODAL_VIEW;
	l->m.free = requestlog_free;
	l->e = xcalloc(HTTP_LOG_DEFAULT, sizeof *l->e);
	requestlog_read(t, l);
	tui_push(t, &l->m);
}
