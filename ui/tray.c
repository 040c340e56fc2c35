/*
 * The transfers tray (T): the transfers (ui/transfers.c) in a list view,
 * a row each with its name, state, percentage, bytes, rate and time left;
 * Enter resumes or retries an upload, d cancels what runs or clears a row
 * that is over, y copies a download's URL or the video id.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"
#include "text.h"
#include "transfers.h"
#include "tray.h"
#include "tui.h"
#include "widgets/listview.h"
#include "xfer.h"
#include "xmalloc.h"

#define XFER_STATE_W	11	/* "cancelling", "inprogress" */
#define XFER_WIDE	110	/* columns from which rows have a bar */

/* ---- a row -------------------------------------------------------------- */

static const char *
tray_state_name(const struct xfer *x)
{
	switch (x->state) {
	case XFER_PAUSED:	return ("unfinished");
	case XFER_RUNNING:	if (x->stop)
					return ("cancelling");
				return (x->phase != NULL ? x->phase :
				    x->kind == XFER_UPLOAD ? "uploading" :
				    "waiting");
	case XFER_DONE:		return (x->kind == XFER_UPLOAD ? "uploaded" :
				    "ready");
	case XFER_FAILED:	return ("failed");
	case XFER_CANCELLED:	return ("cancelled");
	}
	return ("");
}

/* s in exactly cols columns: cut without splitting a character, or padded. */
static void
tray_pad(struct buf *b, const char *s, size_t cols)
{
	char	*copy = xstrdup(s);
	size_t	 w = text_cut(copy, cols);

	buf_adds(b, copy);
	for (; w < cols; w++)
		buf_addc(b, ' ');
	free(copy);
}

/* "94.4/209.7 MB", or "512 kB/209.7 MB" when the units differ. */
static void
tray_amount(struct buf *b, long long done, long long total)
{
	char	d[32], t[32], *du, *tu;

	xfer_size(d, sizeof d, (double)done);
	xfer_size(t, sizeof t, (double)total);
	du = strrchr(d, ' ');
	tu = strrchr(t, ' ');
	if (du != NULL && tu != NULL && strcmp(du, tu) == 0)
		*du = '\0';
	buf_addf(b, " %s/%s", d, t);
}

/*
 * One row: kind, name, state and percentage first, so that they stay on
 * an 80-column screen; then the bar (wide screens), the bytes, the rate
 * and what is left, then the id, URL or error (cut at the edge).
 */
static void
tray_line(const struct xfer *x, struct buf *b, size_t namew, int barw)
{
	static const char *kinds[] = { "upload  ", "download", "process " };
	char		 rate[32];
	int		 pct = xfer_percent(x), i, fill;
	double		 left;

	/* The audio download's row says so where the kind is. */
	buf_addf(b, "%s  ", x->dl_type != NULL && strcmp(x->dl_type,
	    "audio") == 0 ? "audio dl" : kinds[x->kind]);
	tray_pad(b, x->title, namew);
	buf_adds(b, "  ");
	tray_pad(b, tray_state_name(x), XFER_STATE_W);
	buf_addf(b, " %3d%%", pct);
	if (barw > 0) {
		buf_adds(b, " [");
		fill = barw * pct / 100;
		for (i = 0; i < barw; i++)
			buf_addc(b, i < fill ? '#' : '.');
		buf_adds(b, "]");
	}
	if (x->kind == XFER_UPLOAD) {
		tray_amount(b, x->done, x->total);
		if (x->state == XFER_RUNNING && !x->stop && x->rate > 0 &&
		    x->note == NULL) {
			xfer_size(rate, sizeof rate, x->rate);
			left = (double)(x->total - x->done) / x->rate;
			buf_addf(b, " %s/s ETA %d:%02d", rate, (int)left / 60,
			    (int)left % 60);
		}
	}
	if (x->error != NULL)
		buf_addf(b, "  %s", x->error);
	else if (x->note != NULL && x->state == XFER_RUNNING)
		buf_addf(b, "  %s", x->note);
	if (x->url != NULL)
		buf_addf(b, "  %s", x->url);
	else if (x->uid != NULL)
		buf_addf(b, "  %s", x->uid);
}

/* ---- acting on a row ---------------------------------------------------- */

struct tray {
	struct tui	*t;
	char		*empty;		/* what the empty tray says */
};

/* What Enter does to this row: resume (or retry) an upload. */
static int
tray_resumable(const struct xfer *x)
{
	return (x->kind == XFER_UPLOAD && (x->state == XFER_PAUSED ||
	    x->state == XFER_CANCELLED || x->state == XFER_FAILED));
}

static void
tray_resume(struct tui *t, struct xfer *x)
{
	char	key[KEYMAP_KEY_NAME_MAX];

	if (!tray_resumable(x) && x->state == XFER_RUNNING && x->stop) {
		if (status_key_name(t, KEYMAP_TRAY, ACTION_RESUME, key) != NULL)
			tui_message(t, TUI_MSG_INFO, "still cancelling: %s "
			    "resumes once it says cancelled", key);
		else
			tui_message(t, TUI_MSG_INFO, "still cancelling");
		return;
	}
	if (!tray_resumable(x)) {
		tui_message(t, TUI_MSG_INFO, "nothing to resume there");
		return;
	}
	xfer_upload_start(t, x);
	if (x->state == XFER_RUNNING)
		tui_message(t, TUI_MSG_INFO, "resuming %s", x->title);
}

/* Take a row out of the tray (nothing of it runs any more). */
static void
tray_clear(struct tui *t, struct xfer *x)
{
	size_t	i;

	for (i = 0; i < t->nxfers && t->xfers[i] != x; i++)
		;
	if (i == t->nxfers)
		return;
	tui_message(t, TUI_MSG_INFO, "cleared %s from the tray", x->title);
	xfer_free(x);
	memmove(t->xfers + i, t->xfers + i + 1,
	    (t->nxfers - i - 1) * sizeof *t->xfers);
	t->nxfers--;
	t->dirty = 1;
}

/* The resume journal's key for an unfinished upload, or NULL. */
static char *
tray_journal_key(struct tui *t, const struct xfer *x)
{
	struct tusc_entry	*e = NULL;
	char			*cause = NULL, *key = NULL;
	size_t			 n = 0, i;

	if (x->kind != XFER_UPLOAD || x->state_dir == NULL ||
	    x->file == NULL)
		return (NULL);
	if (tusc_journal_list(x->state_dir, &e, &n, &cause) != 0) {
		tui_message(t, TUI_MSG_WARN, "upload journal: %s", cause);
		free(cause);
		return (NULL);
	}
	for (i = 0; i < n && key == NULL; i++) {
		if (e[i].file != NULL && strcmp(e[i].file, x->file) == 0 &&
		    e[i].base_url != NULL && e[i].account != NULL &&
		    strcmp(e[i].base_url, t->session.base_url) == 0 &&
		    strcmp(e[i].account, t->session.scope.account) == 0)
			key = xstrdup(e[i].key);
	}
	tusc_entries_free(e, n);
	return (key);
}

struct tray_forget {
	struct xfer	*x;
	char		*key;
};

static void
tray_forget_free(void *arg)
{
	struct tray_forget	*f = arg;

	free(f->key);
	free(f);
}

static void
tray_forget_yes(struct tui *t, void *arg, const char *answer)
{
	struct tray_forget	*f = arg;
	char			*cause = NULL;
	size_t			 i;

	(void)answer;
	for (i = 0; i < t->nxfers && t->xfers[i] != f->x; i++)
		;
	if (i == t->nxfers || f->x->state == XFER_RUNNING)
		return;
	if (tusc_journal_remove(f->x->state_dir, f->key, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "upload journal: %s; %s stays",
		    cause, f->x->title);
		free(cause);
		return;
	}
	tray_clear(t, f->x);
}

/*
 * d: cancel what runs; clear what is over. An upload stops at its next
 * progress report and keeps its journal entry: Enter resumes it. Clearing
 * an unfinished upload would forget that, so it asks first.
 */
static void
tray_delete(struct tui *t, struct xfer *x)
{
	struct tray_forget	*f;
	char			*key, *q;

	if (x->state == XFER_RUNNING && x->kind == XFER_UPLOAD) {
		if (x->stop) {
			tui_message(t, TUI_MSG_INFO, "the upload of %s is "
			    "already cancelling", x->title);
			return;
		}
		__atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
		tui_message(t, TUI_MSG_INFO, "cancelling the upload of %s",
		    x->title);
		return;
	}
	if (x->state == XFER_RUNNING) {
		if (x->req != NULL)
			tui_cancel_req(t, x->req);
		x->req = NULL;
		x->state = XFER_CANCELLED;
		tui_message(t, TUI_MSG_INFO, "stopped watching %s",
		    x->title);
		return;
	}
	if ((key = tray_journal_key(t, x)) == NULL) {
		tray_clear(t, x);
		return;
	}
	f = xcalloc(1, sizeof *f);
	f->x = x;
	f->key = key;
	q = xprintf("Clear %s and forget its resume?\nIts upload stopped at "
	    "%d%%: once cleared it cannot\ncontinue, not even after a "
	    "restart (the server drops\nthe partial video when it expires). "
	    "(y/n)", x->title, xfer_percent(x));
	dialog_confirm(t, "clear an unfinished upload", q, tray_forget_yes, f,
	    tray_forget_free);
	free(q);
}

/* ---- the list view ------------------------------------------------------ */

static size_t
tray_count(struct listview *lv)
{
	return (((struct tray *)listview_arg(lv))->t->nxfers);
}

/*
 * A row; failed ones in the error role. Errors and phases are the
 * server's text.
 */
static attr_t
tray_row(struct listview *lv, size_t i, int cols, struct buf *b)
{
	struct tui	*t = ((struct tray *)listview_arg(lv))->t;
	struct buf	 line = BUF_INITIALIZER;
	size_t		 namew = COLS >= 140 ? 32 : COLS >= XFER_WIDE ? 24 : 18;
	int		 barw = COLS >= XFER_WIDE ? 20 : 0;
	char		*clean;

	(void)cols;
	tray_line(t->xfers[i], &line, namew, barw);
	clean = text_clean(buf_str(&line));
	buf_adds(b, clean);
	free(clean);
	buf_free(&line);
	return (screen_role(t->xfers[i]->state == XFER_FAILED ?
	    THEME_ROLE_STATE_ERROR : THEME_ROLE_NORMAL));
}

static uint64_t
tray_key(struct listview *lv, size_t i)
{
	struct tui	*t = ((struct tray *)listview_arg(lv))->t;

	return ((uint64_t)(uintptr_t)t->xfers[i]);
}

static const char *const tray_sorts[] = {
	"kind", "name", "state", "percent", NULL
};

static int
tray_compare(struct listview *lv, size_t a, size_t b, int sort)
{
	struct tui	*t = ((struct tray *)listview_arg(lv))->t;
	struct xfer	*xa = t->xfers[a], *xb = t->xfers[b];

	switch (sort) {
	case 0:
		return ((int)xa->kind - (int)xb->kind);
	case 1:
		return (strcmp(xa->title, xb->title));
	case 2:
		return (strcmp(tray_state_name(xa), tray_state_name(xb)));
	default:
		return (xfer_percent(xa) - xfer_percent(xb));
	}
}

/* y: the download URL, else the video id. */
static int
tray_copy(struct listview *lv, size_t i, struct buf *b, const char **what)
{
	struct tui		*t = ((struct tray *)listview_arg(lv))->t;
	const struct xfer	*x = t->xfers[i];

	if (x->url != NULL) {
		buf_adds(b, x->url);
		*what = "the download URL";
	} else if (x->uid != NULL) {
		buf_adds(b, x->uid);
		*what = "the video id";
	} else {
		tui_message(t, TUI_MSG_INFO, "nothing to copy yet: the server "
		    "has not named the video");
		return (-1);
	}
	return (0);
}

static int
tray_action(struct listview *lv, enum action a)
{
	struct tui	*t = ((struct tray *)listview_arg(lv))->t;
	size_t		 i;

	switch (a) {
	case ACTION_RESUME:		/* Enter, r: resume or retry */
		if (listview_current(lv, &i) == 0)
			tray_resume(t, t->xfers[i]);
		return (TUI_HANDLED);
	case ACTION_STOP:		/* d: cancel, or clear */
		if (listview_current(lv, &i) == 0)
			tray_delete(t, t->xfers[i]);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

/* Where transfers come from, with the keys that start them. */
static const char *
tray_empty(struct listview *lv, enum theme_role *role)
{
	struct tray	*tr = listview_arg(lv);
	char		 up[KEYMAP_KEY_NAME_MAX], dl[KEYMAP_KEY_NAME_MAX];
	enum keymap_context ctx = keymap_list_context("videos");

	(void)role;
	free(tr->empty);
	if (status_key_name(tr->t, ctx, ACTION_UPLOAD, up) != NULL &&
	    status_key_name(tr->t, ctx, ACTION_DOWNLOAD, dl) != NULL)
		tr->empty = xprintf("No transfers yet: %s uploads a file from "
		    "the videos list, %s asks for a download.", up, dl);
	else
		tr->empty = xstrdup("No transfers yet: uploads and downloads "
		    "start from the videos list.");
	return (tr->empty);
}

static void
tray_title(struct listview *lv, struct buf *b)
{
	(void)lv;
	buf_adds(b, "transfers");
}

/* The keys that do something on the selected row, as they do it. */
static void
tray_footer(struct listview *lv, struct buf *b)
{
	struct tui	*t = ((struct tray *)listview_arg(lv))->t;
	struct xfer	*x = NULL;
	size_t		 i;

	if (listview_current(lv, &i) == 0)
		x = t->xfers[i];
	/* A resume is an upload: read-only mode refuses it (no hint). */
	if (x != NULL && tray_resumable(x))
		listview_hint(lv, b, ACTION_RESUME, x->state == XFER_FAILED ?
		    "retry" : "resume");
	if (x != NULL && !(x->state == XFER_RUNNING && x->stop))
		listview_hint(lv, b, ACTION_STOP, x->state == XFER_RUNNING ?
		    "cancel" : "clear");
	if (x != NULL && x->url != NULL)
		listview_hint(lv, b, ACTION_COPY, "copy URL");
	else if (x != NULL && x->uid != NULL)
		listview_hint(lv, b, ACTION_COPY, "copy id");
	status_hint_pair(t, b, KEYMAP_TRAY, ACTION_TOP, ACTION_BOTTOM,
	    "first/last");
	listview_hint(lv, b, ACTION_HELP, "help");
	listview_hint(lv, b, ACTION_QUIT, "close");
}

static void
tray_free(void *arg)
{
	struct tray	*tr = arg;

	free(tr->empty);
	free(tr);
}

static const struct listview_ops tray_ops = {
	.name = "transfers",
	.context = KEYMAP_TRAY,
	.flags = LISTVIEW_ARROW,
	.closes = ACTION_TRANSFERS,
	.keys = (const struct listview_key[]){
		{ ACTION_RESUME, NULL },
		{ ACTION_STOP, NULL },
		{ ACTION_TRANSFERS, "close the tray" },
		{ ACTION_NONE, NULL }
	},
	.help = "The transfers tray lists every upload, MP4 download request "
	    "and\nprocessing watch of this session, and the unfinished uploads "
	    "of\nearlier ones. They go on while other lists are shown.\n",
	.sorts = tray_sorts,
	.count = tray_count,
	.row = tray_row,
	.key = tray_key,
	.compare = tray_compare,
	.action = tray_action,
	.copy = tray_copy,
	.empty = tray_empty,
	.title = tray_title,
	.footer = tray_footer,
	.free = tray_free,
};

void
tray_open(struct tui *t)
{
	struct tray	*tr;

	tr = xcalloc(1, sizeof *tr);
	tr->t = t;
	listview_open(t, &tray_ops, tr);
}

