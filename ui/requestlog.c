/*
 * The request log: a list view over http.c's ring, read again at every
 * draw so uploads that run meanwhile show up. What the ring keeps is
 * already without the token and the records' secrets (src/redact.c).
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
#include "widgets/listview.h"
#include "xmalloc.h"

#define REQUESTLOG_PATH_MIN	16	/* the path's least, past the notes */

/* The list's item i is the entry i rows from the newest. */
struct requestlog {
	struct tui		*t;
	struct http_log_entry	*e;		/* oldest first */
	size_t			 n;
	unsigned long		 total;
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
	l->n = http_log_snapshot(t->http, l->e, HTTP_LOG_DEFAULT, &l->total);
}

static const struct http_log_entry *
requestlog_entry(struct requestlog *l, size_t i)
{
	return (&l->e[l->n - 1 - i]);
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

/* A text view, and the log's key that copies the request. */
static int
requestlog_entry_key(struct tui *t, struct modal *m, int key)
{
	struct requestlog_entry	*v = (struct requestlog_entry *)m;
	enum action		 a;

	a = keymap_lookup(t->keymap, KEYMAP_TEXT, key);
	if (keymap_lookup(t->keymap, KEYMAP_LOG, key) == ACTION_COPY_CURL)
		a = ACTION_COPY_CURL;
	/* The footer shows what the last key did (copied, found), or keys. */
	free(t->msg);
	t->msg = NULL;
	if (a == ACTION_QUIT || a == ACTION_BACK) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (a == ACTION_COPY_CURL || a == ACTION_COPY) {
		tui_copy(t, "the curl command", v->curl);
		return (TUI_HANDLED);
	}
	if (!textview_common(t, &v->tv, a))
		textview_action(&v->tv, a, LINES - 4);
	return (TUI_HANDLED);
}

static void
requestlog_entry_draw(struct tui *t, struct modal *m)
{
	struct requestlog_entry	*v = (struct requestlog_entry *)m;
	struct buf		 b = BUF_INITIALIZER;
	int			 y;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 1, v->tv.title, screen_role(THEME_ROLE_TITLE));
	textview_draw(t, &v->tv, 2, 0, LINES - 3, COLS);
	if (status_draw_message(t))
		return;
	status_hint(t, &b, KEYMAP_LOG, ACTION_COPY_CURL, "copy as curl");
	status_hint_pair(t, &b, KEYMAP_TEXT, ACTION_UP, ACTION_DOWN, "scroll");
	status_hint(t, &b, KEYMAP_TEXT, ACTION_QUIT, "back");
	status_draw_hints(t, &b, THEME_ROLE_DIM);
	buf_free(&b);
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

static size_t
requestlog_count(struct listview *lv)
{
	return (((struct requestlog *)listview_arg(lv))->n);
}

static attr_t
requestlog_row(struct listview *lv, size_t i, int cols, struct buf *b)
{
	requestlog_line(requestlog_entry(listview_arg(lv), i), b, cols);
	return (screen_role(THEME_ROLE_NORMAL));
}

static void
requestlog_header(struct listview *lv, int cols, struct buf *b)
{
	(void)lv;
	(void)cols;
	buf_addf(b, "%-10s%-8s%-4s%9s  %5s  %s", "TIME", "METHOD", "ST",
	    "LATENCY", "LEFT", "PATH");
}

/* An entry is its number: the cursor stays on it as others arrive. */
static uint64_t
requestlog_key(struct listview *lv, size_t i)
{
	return (requestlog_entry(listview_arg(lv), i)->seq);
}

static const char *const requestlog_sorts[] = {
	"time", "method", "status", "latency", "path", NULL
};

static int
requestlog_compare(struct listview *lv, size_t a, size_t b, int sort)
{
	const struct http_log_entry	*ea, *eb;

	ea = requestlog_entry(listview_arg(lv), a);
	eb = requestlog_entry(listview_arg(lv), b);
	switch (sort) {
	case 0:
		return ((ea->seq > eb->seq) - (ea->seq < eb->seq));
	case 1:
		return (strcmp(ea->method, eb->method));
	case 2:
		return ((ea->http_status > eb->http_status) -
		    (ea->http_status < eb->http_status));
	case 3:
		return ((ea->latency_ms > eb->latency_ms) -
		    (ea->latency_ms < eb->latency_ms));
	default:
		return (strcmp(ea->path, eb->path));
	}
}

static void
requestlog_enter(struct listview *lv, size_t i)
{
	struct requestlog	*l = listview_arg(lv);

	requestlog_show(l->t, requestlog_entry(l, i));
}

static int
requestlog_copy(struct listview *lv, size_t i, struct buf *b,
    const char **what)
{
	struct requestlog	*l = listview_arg(lv);
	char			*curl, *body;

	if (http_log_detail(l->t->http, requestlog_entry(l, i)->seq, &curl,
	    &body) != 0) {
		tui_message(l->t, TUI_MSG_WARN, "that request has left the "
		    "log");
		return (-1);
	}
	buf_adds(b, curl);
	*what = "the curl command";
	free(curl);
	free(body);
	return (0);
}

static int
requestlog_action(struct listview *lv, enum action a)
{
	switch (a) {
	case ACTION_COPY_CURL:
		return (listview_action(lv, ACTION_COPY));
	default:
		return (0);
	}
}

static const char *
requestlog_empty(struct listview *lv, enum theme_role *role)
{
	(void)lv;
	(void)role;
	return ("No request yet.");
}

static void
requestlog_title(struct listview *lv, struct buf *b)
{
	struct requestlog	*l = listview_arg(lv);

	buf_addf(b, "request log: %lu requests in this session, newest "
	    "first; budget left %ld", l->total, http_budget_left(l->t->http));
}

static void
requestlog_footer(struct listview *lv, struct buf *b)
{
	listview_hint(lv, b, ACTION_DETAILS, "show");
	listview_hint(lv, b, ACTION_COPY_CURL, "copy as curl");
	listview_hint(lv, b, ACTION_QUIT, "close");
}

static void
requestlog_reread(struct listview *lv)
{
	struct requestlog	*l = listview_arg(lv);

	requestlog_read(l->t, l);
}

static void
requestlog_free(void *arg)
{
	struct requestlog	*l = arg;

	free(l->e);
	free(l);
}

static const struct listview_ops requestlog_ops = {
	.name = "request log",
	.context = KEYMAP_LOG,
	.closes = ACTION_LOG,
	.keys = (const struct listview_key[]){
		{ ACTION_COPY_CURL, NULL },
		{ ACTION_LOG, "close the log" },
		{ ACTION_NONE, NULL }
	},
	.enter_help = "the request with its answer (secrets masked)",
	.sorts = requestlog_sorts,
	.count = requestlog_count,
	.row = requestlog_row,
	.header = requestlog_header,
	.key = requestlog_key,
	.compare = requestlog_compare,
	.enter = requestlog_enter,
	.action = requestlog_action,
	.copy = requestlog_copy,
	.empty = requestlog_empty,
	.title = requestlog_title,
	.footer = requestlog_footer,
	.reread = requestlog_reread,
	.free = requestlog_free,
};

void
requestlog_open(struct tui *t)
{
	struct requestlog	*l;

	l = xcalloc(1, sizeof *l);
	l->t = t;
	l->e = xcalloc(HTTP_LOG_DEFAULT, sizeof *l->e);
	requestlog_read(t, l);
	listview_open(t, &requestlog_ops, l);
}
