/*
 * The console's loop: poll() on the terminal, the worker's wake fd and a
 * one-second timer; keys become actions, answers become panel updates, and
 * the screen is drawn once per cycle with one doupdate. The state the loop
 * owns (panels, modals, messages) is changed through here.
 */
#include "config.h"

#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "cli.h"
#include "configfile.h"
#include "demo.h"
#include "firstrun.h"
#include "http.h"
#include "journal.h"
#include "log.h"
#include "requestlog.h"
#include "screen.h"
#include "signals.h"
#include "text.h"
#include "theme.h"
#include "transfers.h"
#include "tray.h"
#include "tui.h"
#include "xmalloc.h"
#include "yamljson.h"

#define TUI_TICK_MS		1000
#define TUI_PROGRESS_S		0.5	/* progress redraws: 2 a second */
#define TUI_MESSAGES_MAX	50	/* kept for :messages */

static volatile sig_atomic_t	 tui_signalled;

static double
tui_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* fatal() and log messages while curses owns the terminal. */
static void
tui_fatal_hook(void)
{
	screen_end();
	demo_stop_now();
}

static struct tui	*tui_log_target;

static void
tui_log_sink(enum log_level level, const char *msg, void *arg)
{
	(void)arg;
	if (tui_log_target == NULL || !screen_active()) {
		log_sink_stderr(level, msg, (void *)"edgetui");
		return;
	}
	if (level <= LOG_LEVEL_WARN)
		tui_message(tui_log_target, level == LOG_LEVEL_ERROR ?
		    TUI_MSG_ERROR : TUI_MSG_WARN, "%s", msg);
}

/* ---- messages and modals ---------------------------------------------- */

/* The last TUI_MESSAGES_MAX messages for :messages; text is taken. */
static void
tui_msglog_add(struct tui *t, enum tui_msg class, time_t when, char *text)
{
	if (t->nmsglog == TUI_MESSAGES_MAX) {
		free(t->msglog[0].text);
		memmove(t->msglog, t->msglog + 1,
		    (t->nmsglog - 1) * sizeof *t->msglog);
		t->nmsglog--;
	}
	if (t->msglog == NULL)
		t->msglog = xcalloc(TUI_MESSAGES_MAX, sizeof *t->msglog);
	t->msglog[t->nmsglog].time = when;
	t->msglog[t->nmsglog].class = class;
	t->msglog[t->nmsglog++].text = text;
}

/*
 * The message cleaned for the screen, each of its lines on its own (a
 * lint error's caret stays under its column); blank lines and trailing
 * spaces dropped.
 */
static char *
tui_message_clean(const char *raw)
{
	struct buf	 b;
	char		*line, *clean;
	size_t		 len;

	buf_init(&b);
	while (*raw != '\0') {
		len = strcspn(raw, "\n");
		line = xstrndup(raw, len);
		clean = text_clean(line);
		free(line);
		len = strlen(clean);
		while (len > 0 && clean[len - 1] == ' ')
			clean[--len] = '\0';
		if (len > 0)
			buf_addf(&b, "%s%s", b.len > 0 ? "\n" : "", clean);
		free(clean);
		raw += strcspn(raw, "\n");
		if (*raw == '\n')
			raw++;
	}
	clean = xstrdup(buf_str(&b));
	buf_free(&b);
	return (clean);
}

void
tui_message(struct tui *t, enum tui_msg class, const char *fmt, ...)
{
	va_list	 ap;
	char	*raw;

	va_start(ap, fmt);
	if (vasprintf(&raw, fmt, ap) == -1)
		fatalx("out of memory");
	va_end(ap);
	free(t->msg);
	t->msg = tui_message_clean(raw);
	free(raw);
	t->msg_class = class;
	t->msg_time = time(NULL);
	t->msg_seq++;
	t->dirty = 1;
	tui_msglog_add(t, class, t->msg_time, xstrdup(t->msg));
}

void
tui_message_keep(struct tui *t, enum tui_msg class, const char *text)
{
	char	*clean = tui_message_clean(text);

	/* Asked again (! twice, the same refusal): once is enough. */
	if (t->nmsglog > 0 &&
	    strcmp(t->msglog[t->nmsglog - 1].text, clean) == 0) {
		free(clean);
		return;
	}
	tui_msglog_add(t, class, time(NULL), clean);
}

/* The views (help, a log, the tray) a command opening a list replaces. */
void
tui_close_views(struct tui *t)
{
	while (t->modal != NULL && (t->modal->flags & MODAL_VIEW))
		tui_pop(t);
}

void
tui_push(struct tui *t, struct modal *m)
{
	m->below = t->modal;
	t->modal = m;
	t->dirty = 1;
}

void
tui_pop(struct tui *t)
{
	struct modal	*m = t->modal;

	if (m == NULL)
		return;
	t->modal = m->below;
	if (m->free != NULL)
		m->free(m);
	t->dirty = 1;
}

struct panel *
tui_panel(struct tui *t)
{
	if (t->npanels == 0)
		return (NULL);
	return (t->panels[t->current]);
}


const char *
tui_readonly(struct tui *t)
{
	return (t->session.readonly ? t->session.readonly_why : NULL);
}

int
tui_refuse_readonly(struct tui *t, const char *what)
{
	if (!t->session.readonly)
		return (0);
	tui_message(t, TUI_MSG_WARN, "read-only: %s refused (%s); nothing "
	    "was sent", what, t->session.readonly_why);
	return (1);
}

/* ---- panels ------------------------------------------------------------ */

struct panel *
tui_open_kind(struct tui *t, const struct kind *k)
{
	return (tui_open_video_kind(t, k, NULL));
}

struct panel *
tui_open_video_kind(struct tui *t, const struct kind *k, const char *video)
{
	struct panel	*p;
	size_t		 i;

	for (i = 0; i < t->npanels; i++) {
		if (t->panels[i]->kind == k && (video == NULL ||
		    (t->panels[i]->video != NULL &&
		    strcmp(t->panels[i]->video, video) == 0))) {
			t->current = i;
			t->dirty = 1;
			if (!t->panels[i]->loaded && !t->panels[i]->loading)
				panel_load(t->panels[i]);
			return (t->panels[i]);
		}
	}
	p = panel_new(t, k, video);
	p->back = tui_panel(t);
	t->panels = xreallocarray(t->panels, t->npanels + 1,
	    sizeof *t->panels);
	t->panels[t->npanels] = p;
	t->current = t->npanels++;
	t->dirty = 1;
	panel_load(p);
	return (p);
}

void
tui_close_panel(struct tui *t, struct panel *p)
{
	struct tui_req	*r, **pp;
	size_t		 i, j;

	for (pp = &t->reqs; (r = *pp) != NULL; ) {
		if (r->panel != p) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		jobs_cancel(t->jobs, r->job);
		tui_req_free(r);
	}
	for (i = 0; i < t->npanels && t->panels[i] != p; i++)
		;
	if (i == t->npanels)
		return;
	memmove(t->panels + i, t->panels + i + 1,
	    (t->npanels - i - 1) * sizeof *t->panels);
	t->npanels--;
	/* Back to where it was opened from, else to the one opened before. */
	t->current = i > 0 ? i - 1 : 0;
	for (j = 0; j < t->npanels; j++)
		if (t->panels[j] == p->back)
			t->current = j;
	for (j = 0; j < t->npanels; j++)
		if (t->panels[j] == p->parent)
			t->current = j;
	for (j = 0; j < t->npanels; j++) {
		if (t->panels[j]->parent == p)
			t->panels[j]->parent = NULL;
		if (t->panels[j]->back == p)
			t->panels[j]->back = p->back;
	}
	panel_free(p);
	t->dirty = 1;
}

void
tui_close_panels(struct tui *t)
{
	struct tui_req	*r, **pp;
	size_t		 i;

	/* The panels' requests; the transfers' go with the worker. */
	for (pp = &t->reqs; (r = *pp) != NULL; ) {
		if (r->panel == NULL) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		jobs_cancel(t->jobs, r->job);
		tui_req_free(r);
	}
	for (i = 0; i < t->npanels; i++)
		panel_free(t->panels[i]);
	free(t->panels);
	t->panels = NULL;
	t->npanels = t->current = 0;
}

/* ---- suspend for $EDITOR and the like -------------------------------- */

int
tui_suspend_run(struct tui *t, int (*fn)(void *), void *arg)
{
	int	rv;

	screen_suspend();
	rv = fn(arg);
	screen_resume();
	t->dirty = 1;
	return (rv);
}

void
tui_copy(struct tui *t, const char *what, const char *text)
{
	if (screen_osc52(text) == 0)
		tui_message(t, TUI_MSG_OK, "copied %s to the clipboard "
		    "(OSC 52)", what);
	else
		tui_message(t, TUI_MSG_ERROR, "could not copy %s", what);
}


/* ---- quitting ---------------------------------------------------------- */

static void
tui_quit_yes(struct tui *t, void *arg, const char *answer)
{
	(void)arg;
	(void)answer;
	t->quit = 1;
}

static void
tui_quit_asked(void *arg)
{
	struct tui	*t = arg;

	t->quit_asking = 0;
}

/*
 * Quit, or ask first (preferences.confirm_quit): by default only while
 * uploads or downloads run, which quitting stops.
 */
void
tui_quit(struct tui *t, int ask)
{
	struct buf	 what;
	size_t		 n;
	char		*q;

	if (t->quit_asking)
		return;
	buf_init(&what);
	n = transfers_unfinished(t, &what);
	if (ask) {
		switch (t->cfg->prefs.confirm_quit) {
		case CONFIG_CONFIRM_ALWAYS:
			break;
		case CONFIG_CONFIRM_NEVER:
			ask = 0;
			break;
		default:
			ask = n > 0;
			break;
		}
	}
	if (!ask) {
		t->quit = 1;
		buf_free(&what);
		return;
	}
	if (n > 0)
		q = xprintf("%s will stop; %s can be resumed later. Quit? "
		    "(y/n)", buf_str(&what), n == 1 ? "it" : "they");
	else
		q = xstrdup("Quit edgetui? (y/n)");
	t->quit_asking = 1;
	dialog_confirm(t, "quit", q, tui_quit_yes, t, tui_quit_asked);
	free(q);
	buf_free(&what);
}

/* ---- themes and help ---------------------------------------------------- */

/* The user's themes, then the installed ones, then the source tree's. */
struct theme *
tui_theme_load(struct tui *t, const char *name, char **cause)
{
	struct theme		*th;
	struct theme_problem	*probs = NULL;
	size_t			 nprobs = 0;
	const char		*dirs[4], *xdg, *home;
	char			*user = NULL;
	size_t			 n = 0, i;

	if (name == NULL || strcmp(name, "default") == 0)
		return (theme_default());
	if ((xdg = getenv("XDG_CONFIG_HOME")) != NULL && *xdg != '\0')
		user = xprintf("%s/edgetui/themes", xdg);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		user = xprintf("%s/.config/edgetui/themes", home);
	if (user != NULL)
		dirs[n++] = user;
	dirs[n++] = THEMES_DIR;
#ifdef THEMES_SRCDIR
	dirs[n++] = THEMES_SRCDIR;
#endif
	dirs[n] = NULL;
	th = theme_load(name, dirs, &probs, &nprobs, cause);
	for (i = 0; th != NULL && t != NULL && i < nprobs; i++) {
		t->problems = xreallocarray(t->problems, t->nproblems + 1,
		    sizeof *t->problems);
		t->problems[t->nproblems++] = xstrdup(probs[i].message);
	}
	theme_problems_free(probs, nprobs);
	free(user);
	return (th);
}

struct modal *
tui_help_modal(struct tui *t)
{
	struct buf	 b;
	struct modal	*m;
	char		 quit[KEYMAP_KEY_NAME_MAX], back[KEYMAP_KEY_NAME_MAX];

	buf_init(&b);
	buf_adds(&b, "Keys (from the live keymap; change them under keymap: "
	    "in config.yaml)\n\n");
	keymap_help(t->keymap, &b);
	buf_adds(&b, "\nCommands (:)\n\n");
	commands_help(&b);
	if (status_key_name(t, KEYMAP_GLOBAL, ACTION_QUIT, quit) != NULL &&
	    status_key_name(t, KEYMAP_GLOBAL, ACTION_BACK, back) != NULL)
		buf_addf(&b, "\n%s and %s go back: details, then the list "
		    "it was opened from or the one\n  shown before; %s in the "
		    "last list quits (%s never does).\n", quit, back, quit,
		    back);
	buf_adds(&b,
	    "\nIn forms: Tab/S-Tab or Up/Down move, Left/Right change a "
	    "choice,\n  Enter submits, Esc cancels.\n" KEYMAP_RULE_FORM_HELP);
	m = textview_modal("help", buf_str(&b));
	buf_free(&b);
	return (m);
}


static void
tui_draw(struct tui *t)
{
	struct panel	*p = tui_panel(t);
	struct modal	*m, *stack[16];
	char		*rows[STATUS_ROWS] = { NULL };
	size_t		 n = 0, nrows, i;

	erase();
	if (LINES < 5 || COLS < 20) {
		screen_put(0, 0, COLS, "too small: 20x5 at least", A_NORMAL);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	status_draw_header(t);
	/* A long message takes rows from the bottom of the list. */
	nrows = status_rows(t, rows);
	if (p != NULL)
		panel_draw(p, 1, 0, LINES - 1 - (int)nrows, COLS);
	status_draw(t, rows, nrows);
	for (i = 0; i < nrows; i++)
		free(rows[i]);
	/* Modals bottom-up, so the top one is drawn last. */
	for (m = t->modal; m != NULL && n < nitems(stack); m = m->below)
		stack[n++] = m;
	while (n > 0) {
		m = stack[--n];
		m->draw(t, m);
	}
	screen_place_cursor();
	wnoutrefresh(stdscr);
	doupdate();
	t->dirty = 0;
}

/* ---- keys and events ----------------------------------------------------- */

static int
tui_global(struct tui *t, enum action a)
{
	struct panel	*p = tui_panel(t);

	switch (a) {
	case ACTION_QUIT:
		/* Back to the list before; quit from the last one. */
		if (p != NULL && t->npanels > 1) {
			tui_close_panel(t, p);
			return (TUI_REDRAW);
		}
		tui_quit(t, 1);
		return (t->quit ? TUI_QUIT : TUI_REDRAW);
	case ACTION_HELP:
		tui_push(t, tui_help_modal(t));
		return (TUI_REDRAW);
	case ACTION_COMMAND:
		cmdline_open(t, "");
		return (TUI_REDRAW);
	case ACTION_NEXT_PANEL:
	case ACTION_PREV_PANEL:
		if (t->npanels > 1) {
			if (a == ACTION_NEXT_PANEL)
				t->current = (t->current + 1) % t->npanels;
			else
				t->current = (t->current + t->npanels - 1) %
				    t->npanels;
		}
		return (TUI_REDRAW);
	case ACTION_REDRAW:
		clearok(curscr, TRUE);
		return (TUI_REDRAW);
	case ACTION_LOG:
		requestlog_open(t);
		return (TUI_REDRAW);
	case ACTION_MESSAGES:
		tui_messages(t);
		return (TUI_REDRAW);
	case ACTION_TRANSFERS:
		tray_open(t);
		return (TUI_REDRAW);
	default:
		return (0);
	}
}

/* Esc in the last list: how to quit instead, with the key that does. */
static void
tui_back_nowhere(struct tui *t, enum keymap_context ctx)
{
	char	key[KEYMAP_KEY_NAME_MAX];

	if (status_key_name(t, ctx, ACTION_QUIT, key) != NULL)
		tui_message(t, TUI_MSG_INFO, "nothing to go back to: %s or :q "
		    "quits", key);
	else
		tui_message(t, TUI_MSG_INFO, "nothing to go back to: :q quits");
	t->dirty = 1;
}

static void
tui_key(struct tui *t, int key)
{
	struct panel		*p = tui_panel(t);
	enum keymap_context	 ctx;
	enum action		 a;
	int			 rv;

	if (key == KEY_RESIZE) {
		t->dirty = 1;
		return;
	}
	if (t->modal != NULL) {
		a = keymap_lookup(t->keymap, KEYMAP_GLOBAL, key);
		/* Over a view, a long message is read whole as in a list. */
		if ((t->modal->flags & MODAL_VIEW) && a == ACTION_COMMAND)
			cmdline_open(t, "");
		else if ((t->modal->flags & MODAL_VIEW) &&
		    a == ACTION_MESSAGES && t->msg != NULL)
			tui_messages(t);
		else
			t->modal->key(t, t->modal, key);
		t->dirty = 1;
		return;
	}
	/* A key clears the last message. */
	if (t->msg != NULL && t->msg_class != TUI_MSG_ERROR) {
		free(t->msg);
		t->msg = NULL;
		t->dirty = 1;
	}
	ctx = p != NULL && p->view == PANEL_DETAIL ? KEYMAP_DETAIL :
	    keymap_list_context(p != NULL ? p->kind->name : NULL);
	a = keymap_lookup(t->keymap, ctx, key);
	if (a == ACTION_NONE)
		return;
	/* Esc on a filtered list clears the filter first. */
	if (a == ACTION_BACK && p != NULL && p->view == PANEL_LIST &&
	    p->filter != NULL) {
		panel_filter_clear(p);
		t->dirty = 1;
		return;
	}
	/* Esc goes back as q does, but never out of the last list. */
	if (a == ACTION_BACK) {
		if (t->npanels > 1 || (p != NULL && p->view == PANEL_DETAIL &&
		    p->kind->shape != KIND_SHAPE_OBJECT))
			a = ACTION_QUIT;
		else {
			tui_back_nowhere(t, ctx);
			return;
		}
	}
	if (t->msg != NULL) {
		free(t->msg);
		t->msg = NULL;
	}
	rv = 0;
	if (p != NULL)
		rv = panel_action(p, a);
	if ((rv & TUI_HANDLED) == 0)
		rv = tui_global(t, a);
	if (rv == 0 && p != NULL) {
		char name[32];
		keymap_key_name(key, name, sizeof name);
		tui_message(t, TUI_MSG_INFO, "%s (%s): not available here",
		    keymap_action_name(a), name);
	}
	t->dirty = 1;
}

static void
tui_read_keys(struct tui *t)
{
	wint_t	wc, nwc;
	int	r, nr, key;

	for (;;) {
		r = get_wch(&wc);
		if (r == ERR)
			break;
		key = r == OK ? keymap_key_char(wc) : (int)wc;
		if (r == OK && wc == 033) {
			/* Esc then a key at once: Meta (Alt) that key. */
			nr = get_wch(&nwc);
			if (nr == OK && nwc != 033)
				key = keymap_key_char(nwc) | KEYMAP_META;
			else if (nr == KEY_CODE_YES && nwc == KEY_RESIZE)
				/* A resize is no key: Esc stays Esc. */
				ungetch(KEY_RESIZE);
			else if (nr == KEY_CODE_YES)
				key = (int)nwc | KEYMAP_META;
			else if (nr == OK)
				unget_wch(nwc);
		}
		if (r == OK && (wc == '\n' || wc == '\r'))
			key = '\r';
		if (r == KEY_CODE_YES && wc == KEY_ENTER)
			key = '\r';
		tui_key(t, key);
		if (t->quit)
			break;
	}
}

static void
tui_events(struct tui *t)
{
	struct jobs_event	 ev;
	struct tui_req		*r;

	while (jobs_next_event(t->jobs, &ev) == 1) {
		if (!tui_req_known(t, ev.tag)) {
			jobs_event_free(&ev);
			continue;
		}
		if (ev.kind == JOBS_EVENT_DONE || ev.kind == JOBS_EVENT_FAILED)
			r = tui_req_take(t, ev.tag);
		else
			r = ev.tag;
		if (r->xfer != NULL) {
			/* Progress redraws are coalesced (tui_loop). */
			if (transfers_event(t, r, &ev) &&
			    ev.kind != JOBS_EVENT_PROGRESS)
				t->dirty = 1;
			else
				t->progress_dirty = 1;
		} else if (r->done != NULL) {
			r->done(t, r, &ev);
			if (ev.kind == JOBS_EVENT_PROGRESS)
				t->progress_dirty = 1;
			else
				t->dirty = 1;
		} else if (r->panel != NULL) {
			panel_event(r->panel, r, &ev);
			t->dirty = 1;
		}
		if (ev.kind == JOBS_EVENT_DONE || ev.kind == JOBS_EVENT_FAILED)
			tui_req_free(r);
		jobs_event_free(&ev);
	}
}

static void
tui_loop(struct tui *t)
{
	struct pollfd	pfd[2];
	int		n, wait;
	double		since;

	while (!t->quit) {
		if (tui_signalled == SIGINT && !t->quit_asking) {
			/* Ctrl-C asks like :q; a second one quits at once. */
			tui_signalled = 0;
			tui_quit(t, 1);
			if (!t->quit)
				t->dirty = 1;
			else
				tui_signalled = SIGINT;
		}
		if (tui_signalled) {
			t->quit = 1;
			break;
		}
		wait = TUI_TICK_MS;
		if (t->progress_dirty && !t->dirty) {
			/* Progress alone redraws at most twice a second. */
			since = tui_now() - t->drawn_at;
			if (since >= TUI_PROGRESS_S)
				t->dirty = 1;
			else
				wait = (int)((TUI_PROGRESS_S - since) * 1000) + 1;
		}
		if (t->dirty) {
			tui_draw(t);
			t->progress_dirty = 0;
			t->drawn_at = tui_now();
		}
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = jobs_fd(t->jobs);
		pfd[1].events = POLLIN;
		n = poll(pfd, 2, wait);
		if (n == -1) {
			if (errno == EINTR) {
				/* SIGWINCH: curses reports KEY_RESIZE. */
				tui_read_keys(t);
				continue;
			}
			fatal("poll");
		}
		if (n == 0) {
			if (t->http != NULL &&
			    http_budget_left(t->http) != t->budget_shown)
				t->dirty = 1;
			continue;
		}
		if (pfd[1].revents & POLLIN)
			tui_events(t);
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (pfd[0].revents & (POLLHUP | POLLERR) &&
			    !(pfd[0].revents & POLLIN)) {
				t->quit = 1;	/* the terminal is gone */
				break;
			}
			tui_read_keys(t);
		}
	}
}

/* ---- start and stop ------------------------------------------------------ */

static int
tui_keymap_line(const char *path, void *arg)
{
	return (config_key_line(arg, path));
}

static void
tui_keymap_user(struct tui *t)
{
	cJSON	*doc, *km;
	char	*text, *cause = NULL;
	FILE	*f;
	long	 len;

	if (t->cfg->file == NULL || (f = fopen(t->cfg->file, "r")) == NULL)
		return;
	text = NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    len < CONFIG_MAX_SIZE && fseek(f, 0, SEEK_SET) == 0) {
		text = xmalloc((size_t)len + 1);
		if (fread(text, 1, (size_t)len, f) != (size_t)len) {
			free(text);
			text = NULL;
		} else
			text[len] = '\0';
	}
	fclose(f);
	if (text == NULL)
		return;
	doc = yamljson_parse(text, strlen(text), &cause);
	free(text);
	free(cause);
	if (doc == NULL)
		return;	/* config.c reports what is wrong with the file */
	km = cJSON_GetObjectItemCaseSensitive(doc, "keymap");
	if (km != NULL) {
		keymap_set_lines(t->keymap, tui_keymap_line, t->cfg);
		keymap_apply(t->keymap, km, t->cfg->file);
		keymap_set_lines(t->keymap, NULL, NULL);
	}
	cJSON_Delete(doc);
}

static void
tui_free(struct tui *t)
{
	size_t	i;

	while (t->modal != NULL)
		tui_pop(t);
	tui_close_panels(t);
	session_disconnect(t);
	if (t->journal != NULL)
		journal_close(t->journal);
	if (t->keymap != NULL)
		keymap_free(t->keymap);
	if (t->theme != NULL)
		theme_free(t->theme);
	free(t->theme_name);
	free(t->msg);
	for (i = 0; i < t->nmsglog; i++)
		free(t->msglog[i].text);
	free(t->msglog);
	for (i = 0; i < t->nhistory; i++)
		free(t->history[i]);
	for (i = 0; i < t->nproblems; i++)
		free(t->problems[i]);
	free(t->problems);
	free(t->history);
	if (t->cfg != NULL)
		config_free(t->cfg);
}

/* Uploads left unfinished by an earlier run: the tray, and its keys. */
static void
tui_paused(struct tui *t, size_t n)
{
	char	resume[KEYMAP_KEY_NAME_MAX], quit[KEYMAP_KEY_NAME_MAX];

	tray_open(t);
	if (status_key_name(t, KEYMAP_TRAY, ACTION_RESUME, resume) != NULL &&
	    status_key_name(t, KEYMAP_TRAY, ACTION_QUIT, quit) != NULL)
		tui_message(t, TUI_MSG_WARN, "%zu unfinished upload%s from "
		    "before: %s resumes the one selected, %s closes", n,
		    n == 1 ? "" : "s", resume, quit);
	else
		tui_message(t, TUI_MSG_WARN, "%zu unfinished upload%s from "
		    "before, in the transfers tray", n, n == 1 ? "" : "s");
}

/*
 * The first-run screen, then the demo's session: 1 to go on to the
 * console, 0 to quit. A demo that does not start says why on the screen.
 */
static int
tui_first_run(struct tui *t, const struct cli_opts *o)
{
	char	*cause = NULL, *error = NULL;

	for (;;) {
		if (firstrun_run(t->cfg, o->profile, error, t->keymap,
		    &tui_signalled) != FIRSTRUN_DEMO) {
			free(error);
			return (0);
		}
		if (session_demo_start(&cause) == 0 &&
		    session_connect(t, NULL, &cause) == 0) {
			free(error);
			return (1);
		}
		session_demo_stop();
		free(error);
		error = xprintf("The demo did not start: %s", cause);
		free(cause);
		cause = NULL;
	}
}

int
tui_main(const struct cli_opts *o, int demo, const char *theme)
{
	struct tui	 t;
	char		*cause = NULL;
	size_t		 nprobs;
	int		 sig, first;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "edgetui: the console needs a terminal; run a "
		    "command instead (edgetui --help)\n");
		return (HTTP_EXIT_USAGE);
	}
	if (screen_usable(&cause) != 0) {
		fprintf(stderr, "edgetui: the console cannot run here: %s; "
		    "one-shot commands work (edgetui --help)\n", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	/* From here on a signal leaves nothing behind (--demo's store). */
	signals_init(1);
	memset(&t, 0, sizeof t);
	session_options(o);
	if ((t.cfg = config_load(o->config, NULL, &cause)) == NULL) {
		fprintf(stderr, "edgetui: %s\n", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	if (demo) {
		if (session_demo_start(&cause) != 0) {
			fprintf(stderr, "edgetui: --demo: %s\n", cause);
			free(cause);
			config_free(t.cfg);
			return (HTTP_EXIT_TRANSPORT);
		}
	}
	/* No token anywhere: the first-run screen instead of an error. */
	first = !demo && firstrun_needed(t.cfg, o->profile);
	if (!first && session_connect(&t, NULL, &cause) != 0) {
		fprintf(stderr, "edgetui: %s\n", cause);
		free(cause);
		session_demo_stop();
		config_free(t.cfg);
		return (HTTP_EXIT_USAGE);
	}
	t.keymap = keymap_new();
	tui_keymap_user(&t);
	if (theme == NULL)
		theme = t.cfg->prefs.theme;
	if ((t.theme = tui_theme_load(&t, theme, &cause)) == NULL) {
		t.theme = theme_default();
		log_warn("theme: %s", cause);
		free(cause);
		cause = NULL;
	}
	if (getenv("NO_COLOR") != NULL && *getenv("NO_COLOR") != '\0')
		theme_apply_no_color(t.theme);
	t.ascii = t.cfg->prefs.ascii;

	log_set_fatal_hook(tui_fatal_hook);
	screen_init(t.theme, t.ascii);
	signals_defer(&tui_signalled);
	tui_log_target = &t;
	log_set_sink(tui_log_sink, NULL);
	if (first && !tui_first_run(&t, o))
		goto out;

	keymap_problems(t.keymap, &nprobs);
	nprobs += t.cfg->nproblems + t.nproblems;
	if (nprobs > 0)
		tui_message(&t, TUI_MSG_WARN, "%zu problem%s in the "
		    "configuration (the rest applies): :problems shows them",
		    nprobs, nprobs == 1 ? "" : "s");
	session_open_first(&t);
	transfers_init(&t);
	if ((nprobs = transfers_paused(&t)) > 0)
		tui_paused(&t, nprobs);
	t.dirty = 1;
	tui_loop(&t);

out:
	/* A signal while it all stops ends at once, cleaning up. */
	signals_defer(NULL);
	sig = tui_signalled;
	tui_log_target = NULL;
	screen_end();
	log_set_sink(log_sink_stderr, (void *)"edgetui");
	tui_free(&t);
	session_demo_stop();
	if (sig != 0) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return (0);
}
