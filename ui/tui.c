/*
 * The console's loop: poll() on the terminal, the worker's wake fd and a
 * one-second timer; keys become actions, answers become panel updates, and
 * the screen is drawn once per cycle with one doupdate.
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
#include "http.h"
#include "journal.h"
#include "journalview.h"
#include "log.h"
#include "requestlog.h"
#include "screen.h"
#include "text.h"
#include "theme.h"
#include "transfers.h"
#include "tui.h"
#include "xmalloc.h"
#include "yamljson.h"

#define TUI_TICK_MS		1000
#define TUI_HISTORY_MAX		100
#define TUI_PROGRESS_S		0.5	/* progress redraws: 2 a second */
#define TUI_MESSAGES_MAX	50	/* kept for :messages */
#define TUI_STATUS_ROWS		3	/* a message wraps to at most these */

static volatile sig_atomic_t	 tui_signalled;

static double
tui_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static void
tui_on_signal(int sig)
{
	tui_signalled = sig;
}

static void
tui_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* fatal() and log messages while curses owns the terminal. */
static void
tui_fatal_hook(void)
{
	screen_end();
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

/* ---- messages, modals, requests --------------------------------------- */

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
	t->msg = text_clean(raw);
	free(raw);
	t->msg_class = class;
	t->msg_time = time(NULL);
	t->dirty = 1;

	if (t->nmsglog == TUI_MESSAGES_MAX) {
		free(t->msglog[0].text);
		memmove(t->msglog, t->msglog + 1,
		    (t->nmsglog - 1) * sizeof *t->msglog);
		t->nmsglog--;
	}
	if (t->msglog == NULL)
		t->msglog = xcalloc(TUI_MESSAGES_MAX, sizeof *t->msglog);
	t->msglog[t->nmsglog].time = t->msg_time;
	t->msglog[t->nmsglog].class = class;
	t->msglog[t->nmsglog++].text = xstrdup(t->msg);
}

/* The views (help, a log, the tray) a command opening a list replaces. */
static void
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

void
tui_req_free(struct tui_req *r)
{
	free(r->id);
	free(r->path);
	cJSON_Delete(r->before);
	cJSON_Delete(r->data);
	free(r);
}

static struct tui_req *
tui_req_started(struct tui *t, struct tui_req *r, enum status st)
{
	if (st != STATUS_OK) {
		tui_req_free(r);
		return (NULL);
	}
	r->next = t->reqs;
	t->reqs = r;
	return (r);
}

struct tui_req *
tui_submit_request(struct tui *t, struct panel *p, enum tui_req_type type,
    const struct http_request *hr)
{
	struct tui_req	*r;
	enum status	 st;

	r = xcalloc(1, sizeof *r);
	r->panel = p;
	r->type = type;
	r->gen = p != NULL ? p->gen : 0;
	r->method = hr->method;
	r->path = xstrdup(hr->path);
	st = jobs_submit(t->jobs, hr, r, &r->job);
	if (st != STATUS_OK)
		tui_message(t, TUI_MSG_ERROR, "%s %s: %s", hr->method,
		    hr->path, status_message(st));
	return (tui_req_started(t, r, st));
}

struct tui_req *
tui_submit(struct tui *t, struct panel *p, enum tui_req_type type,
    const char *method, const char *path, const cJSON *body)
{
	struct http_request	 hr;
	struct tui_req		*r;
	char			*json = NULL;

	if (http_method_mutates(method) && tui_refuse_readonly(t, method))
		return (NULL);
	memset(&hr, 0, sizeof hr);
	hr.method = method;
	hr.path = path;
	if (body != NULL) {
		if ((json = cJSON_PrintUnformatted(body)) == NULL)
			fatalx("out of memory");
		hr.json = json;
	}
	r = tui_submit_request(t, p, type, &hr);
	cJSON_free(json);
	return (r);
}

static struct tui_req *
tui_req_link(struct xfer *x, const char *method, const char *path)
{
	struct tui_req	*r;

	r = xcalloc(1, sizeof *r);
	r->xfer = x;
	r->type = TUI_REQ_OTHER;
	r->method = method;
	r->path = xstrdup(path);
	return (r);
}


struct tui_req *
tui_submit_job(struct tui *t, struct xfer *x, jobs_run_cb fn, void *arg)
{
	struct tui_req	*r;

	r = tui_req_link(x, "PATCH", "(upload)");
	return (tui_req_started(t, r, jobs_run(t->jobs, fn, arg, r, &r->job)));
}

struct tui_req *
tui_submit_poll(struct tui *t, struct xfer *x, const char *path,
    const struct jobs_poll_options *po)
{
	struct http_request	 hr;
	struct tui_req		*r;

	memset(&hr, 0, sizeof hr);
	hr.method = "GET";
	hr.path = path;
	r = tui_req_link(x, "GET", path);
	return (tui_req_started(t, r, jobs_poll(t->jobs, &hr, po, r,
	    &r->job)));
}

struct tui_req *
tui_submit_xfer(struct tui *t, struct xfer *x, const char *method,
    const char *path)
{
	struct http_request	 hr;
	struct tui_req		*r;

	memset(&hr, 0, sizeof hr);
	hr.method = method;
	hr.path = path;
	r = tui_req_link(x, method, path);
	return (tui_req_started(t, r, jobs_submit(t->jobs, &hr, r, &r->job)));
}

/* Unlink the request a job's event belongs to. */
static struct tui_req *
tui_req_take(struct tui *t, void *tag)
{
	struct tui_req	**pp;

	for (pp = &t->reqs; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == tag) {
			struct tui_req *r = *pp;
			*pp = r->next;
			return (r);
		}
	}
	return (NULL);
}

void
tui_cancel_req(struct tui *t, struct tui_req *r)
{
	jobs_cancel(t->jobs, r->job);
	if (tui_req_take(t, r) != NULL)
		tui_req_free(r);
}

static int
tui_req_known(struct tui *t, void *tag)
{
	struct tui_req	*r;

	for (r = t->reqs; r != NULL; r = r->next)
		if (r == tag)
			return (1);
	return (0);
}

void
tui_journal(struct tui *t, struct tui_req *r, long status,
    const cJSON *after)
{
	char	*dir, *cause = NULL;

	if (t->journal == NULL) {
		if ((dir = config_state_dir(NULL, &cause)) != NULL) {
			t->journal = journal_open(dir, &cause);
			free(dir);
		}
		if (t->journal == NULL) {
			tui_message(t, TUI_MSG_WARN, "journal: %s", cause);
			free(cause);
			return;
		}
	}
	if (journal_append(t->journal, t->profile, r->method, r->path,
	    (int)status, r->before, after, &cause) != 0) {
		tui_message(t, TUI_MSG_WARN, "journal: %s", cause);
		free(cause);
	}
}

/*
 * A failure's text without the "METHOD /path: " libedge puts first: the
 * status line is short, and the panel already says what was asked.
 */
const char *
tui_cause(const struct tui_req *r, const struct jobs_event *ev)
{
	const char	*c = ev->cause, *p;
	size_t		 m;

	if (c == NULL)
		return (status_message(ev->status));
	m = r->method != NULL ? strlen(r->method) : 0;
	if (m > 0 && strncmp(c, r->method, m) == 0 && c[m] == ' ' &&
	    (p = strstr(c + m + 1, ": ")) != NULL &&
	    strchr(c + m + 1, ' ') >= p)
		return (p + 2);
	return (c);
}

const char *
tui_readonly(struct tui *t)
{
	return (t->readonly ? t->readonly_why : NULL);
}

int
tui_refuse_readonly(struct tui *t, const char *what)
{
	if (!t->readonly)
		return (0);
	tui_message(t, TUI_MSG_WARN, "read-only: %s refused (%s); nothing "
	    "was sent", what, t->readonly_why);
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

static void
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

/* ---- configuration problems (:problems) -------------------------------- */

static size_t	tui_wrap(const char *, size_t, char **, size_t);

/* A line that may be wider than the screen: the rest indented below it. */
static void
tui_add_wrapped(struct buf *b, const char *text)
{
	char	*rows[8];
	size_t	 i, n;

	n = tui_wrap(text, COLS > 40 ? (size_t)COLS - 6 : 34, rows,
	    nitems(rows));
	for (i = 0; i < n; i++) {
		buf_addf(b, "%s%s\n", i > 0 ? "    " : "", rows[i]);
		free(rows[i]);
	}
}

static void
tui_problems(struct tui *t)
{
	const char	*const *kp;
	struct buf	 b;
	size_t		 i, n;

	buf_init(&b);
	for (i = 0; i < t->cfg->nproblems; i++)
		tui_add_wrapped(&b, t->cfg->problems[i].message);
	kp = keymap_problems(t->keymap, &n);
	for (i = 0; i < n; i++)
		tui_add_wrapped(&b, kp[i]);
	for (i = 0; i < t->nproblems; i++)
		tui_add_wrapped(&b, t->problems[i]);
	if (b.len == 0)
		buf_adds(&b, "No problem in the configuration, keymap or "
		    "theme.\n");
	tui_push(t, textview_modal("configuration problems", buf_str(&b)));
	buf_free(&b);
}

/* ---- the last messages (:messages) ------------------------------------ */

static void
tui_messages(struct tui *t)
{
	static const char *const class_names[] = {
		[TUI_MSG_INFO] = "", [TUI_MSG_OK] = "ok",
		[TUI_MSG_WARN] = "warn", [TUI_MSG_ERROR] = "error"
	};
	struct buf	 b;
	struct tm	 tm;
	char		 when[16], *rows[8];
	size_t		 i, j, n, cols;

	/* Whole messages: wrapped under their text, never cut. */
	cols = COLS > 60 ? (size_t)COLS - 19 : 41;
	buf_init(&b);
	for (i = 0; i < t->nmsglog; i++) {
		localtime_r(&t->msglog[i].time, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
		n = tui_wrap(t->msglog[i].text, cols, rows, nitems(rows));
		for (j = 0; j < n; j++) {
			buf_addf(&b, "%-8s  %-5s  %s\n", j == 0 ? when : "",
			    j == 0 ? class_names[t->msglog[i].class] : "",
			    rows[j]);
			free(rows[j]);
		}
	}
	if (b.len == 0)
		buf_adds(&b, "No message yet.\n");
	tui_push(t, textview_modal("messages (newest last)", buf_str(&b)));
	buf_free(&b);
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
static void
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

/* ---- the : command line ---------------------------------------------- */

static void
tui_history_add(struct tui *t, const char *line)
{
	if (t->nhistory > 0 &&
	    strcmp(t->history[t->nhistory - 1], line) == 0)
		return;
	if (t->nhistory == TUI_HISTORY_MAX) {
		free(t->history[0]);
		memmove(t->history, t->history + 1,
		    (t->nhistory - 1) * sizeof *t->history);
		t->nhistory--;
	}
	t->history = xreallocarray(t->history, t->nhistory + 1,
	    sizeof *t->history);
	t->history[t->nhistory++] = xstrdup(line);
}

static int	tui_connect(struct tui *, const char *, char **);
static void	tui_disconnect(struct tui *);
static void	tui_open_first(struct tui *);

static int
tui_cmd_theme(struct tui *t, const char *name)
{
	struct theme	*th;
	char		*cause = NULL;

	if ((th = tui_theme_load(t, name, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "theme: %s", cause);
		free(cause);
		return (0);
	}
	theme_free(t->theme);
	t->theme = th;
	free(t->theme_name);
	t->theme_name = xstrdup(name);
	screen_theme(th);
	clearok(curscr, TRUE);
	tui_message(t, TUI_MSG_OK, "theme %s", name);
	return (0);
}

static int
tui_cmd_profile(struct tui *t, const char *name)
{
	char	*cause = NULL;

	if (config_profile(t->cfg, name) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "profile: no profile '%s' in "
		    "%s", name, t->cfg->file != NULL ? t->cfg->file :
		    "the configuration");
		return (0);
	}
	tui_close_panels(t);
	tui_disconnect(t);
	if (tui_connect(t, name, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "profile %s: %s", name, cause);
		free(cause);
		if (tui_connect(t, NULL, &cause) != 0)
			fatalx("%s", cause);
	} else
		tui_message(t, TUI_MSG_OK, "profile %s", name);
	tui_open_first(t);
	/* This server's and account's unfinished uploads, if any. */
	transfers_init(t);
	if (transfers_paused(t) > 0)
		tui_message(t, TUI_MSG_WARN, "profile %s: %zu unfinished "
		    "upload%s (T, Enter resumes)", name, transfers_paused(t),
		    transfers_paused(t) == 1 ? "" : "s");
	return (0);
}

int
tui_command(struct tui *t, const char *line)
{
	const struct kind	*k;
	char			*copy, *cmd, *arg, *p;

	while (*line == ' ')
		line++;
	if (*line == '\0')
		return (0);
	copy = xstrdup(line);
	/* Completion and habit leave trailing spaces: they mean nothing. */
	for (p = copy + strlen(copy); p > copy && p[-1] == ' '; p--)
		p[-1] = '\0';
	tui_history_add(t, copy);
	cmd = copy;
	if ((p = strchr(copy, ' ')) != NULL) {
		*p++ = '\0';
		while (*p == ' ')
			p++;
		arg = *p != '\0' ? p : NULL;
	} else
		arg = NULL;

	if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0)
		tui_quit(t, 1);
	else if (strcmp(cmd, "q!") == 0)
		tui_quit(t, 0);
	else if (strcmp(cmd, "theme") == 0 && arg != NULL)
		tui_cmd_theme(t, arg);
	else if (strcmp(cmd, "profile") == 0 && arg != NULL) {
		tui_close_views(t);
		tui_cmd_profile(t, arg);
	} else if (strcmp(cmd, "help") == 0)
		tui_push(t, tui_help_modal(t));
	else if (strcmp(cmd, "log") == 0)
		requestlog_open(t);
	else if (strcmp(cmd, "journal") == 0)
		journalview_open(t);
	else if (strcmp(cmd, "problems") == 0)
		tui_problems(t);
	else if (strcmp(cmd, "messages") == 0)
		tui_messages(t);
	else if ((k = kind_find(cmd)) != NULL) {
		if (k->shape == KIND_SHAPE_NONE)
			tui_message(t, TUI_MSG_WARN, "%s: nothing to list; "
			    "%s", k->name, kind_help(k));
		else if (k->scope == KIND_SCOPE_VIDEO)
			tui_message(t, TUI_MSG_WARN, "%s belong to a video: "
			    "open them from the videos panel", k->name);
		else {
			tui_close_views(t);
			tui_open_kind(t, k);
		}
	} else if (strcmp(cmd, "theme") == 0 || strcmp(cmd, "profile") == 0)
		tui_message(t, TUI_MSG_WARN, ":%s needs a name (Tab lists "
		    "them)", cmd);
	else
		tui_message(t, TUI_MSG_ERROR, "unknown command ':%s' (: then "
		    "Tab lists them all)", cmd);
	free(copy);
	t->dirty = 1;
	return (0);
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
	dirs[n++] = THEMES_SRCDIR;
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

	buf_init(&b);
	buf_adds(&b, "Keys (from the live keymap; change them under keymap: "
	    "in config.yaml)\n\n");
	keymap_help(t->keymap, &b);
	buf_adds(&b, "\nCommands (:)\n\n"
	    "  :KIND             open a list: videos, operations, rl ...\n"
	    "  :profile NAME     switch profile\n"
	    "  :theme NAME       switch theme (default light solarized-dark "
	    "high-contrast mono)\n"
	    "  :log              the request log (Enter shows, c copies)\n"
	    "  :journal          this profile's changes (u undoes one)\n"
	    "  :messages         the last 50 messages, with their times\n"
	    "  :problems         what is wrong in the config, keymap, theme "
	    "(file:line)\n"
	    "  :q, :q!           quit (asks while transfers run, unless "
	    ":q!)\n"
	    "  : then Tab        every command and kind; : works over help,\n"
	    "                    logs and the tray too\n"
	    "\nq and Esc go back: details, then the list it was opened from "
	    "or the one\n  shown before; q in the last list quits (Esc never "
	    "does).\n"
	    "\nIn forms: Tab/S-Tab or Up/Down move, Left/Right change a "
	    "choice,\n  Enter submits, Esc cancels.\n");
	m = textview_modal("help", buf_str(&b));
	buf_free(&b);
	return (m);
}

/* ---- connecting ---------------------------------------------------------- */

static void
tui_disconnect(struct tui *t)
{
	struct tui_req	*r, *next;

	/* Stops every job and waits for uploads' threads to return. */
	if (t->jobs != NULL)
		jobs_free(t->jobs);
	t->jobs = NULL;
	for (r = t->reqs; r != NULL; r = next) {
		next = r->next;
		tui_req_free(r);
	}
	t->reqs = NULL;
	transfers_free(t);
	if (t->token != NULL)
		config_secret_free(t->token);
	t->token = NULL;
	if (t->http != NULL)
		http_client_free(t->http);
	t->http = NULL;
	free(t->profile);
	free(t->base_url);
	free(t->account);
	free(t->zone);
	t->profile = t->base_url = t->account = t->zone = NULL;
}

/*
 * The options given on the command line: where to connect, for the first
 * profile only; --readonly, for every profile of the process.
 */
static const struct cli_opts	*tui_opts;
static struct demo		 tui_demo;
static int			 tui_demo_on;

static int
tui_connect(struct tui *t, const char *profile, char **cause)
{
	struct config_settings	 set;
	struct http_options	 ho;
	char			*token = NULL;
	const char		*o_base = NULL, *o_acc = NULL, *o_zone = NULL;
	int			 o_ro = 0;

	if (tui_opts != NULL && profile == NULL) {
		profile = tui_opts->profile;
		o_base = tui_opts->base_url;
		o_acc = tui_opts->account;
		o_zone = tui_opts->zone;
	}
	if (tui_opts != NULL)
		o_ro = tui_opts->readonly;
	if (tui_demo_on) {
		o_base = tui_demo.url;
		o_acc = tui_demo.account;
		o_zone = tui_demo.zone;
	}
	if (config_settings(t->cfg, profile, NULL, &set, cause) != 0)
		return (-1);
	if (tui_demo_on)
		token = xstrdup(tui_demo.token);
	else if (config_token(t->cfg, profile, NULL, &token, cause) != 0) {
		config_settings_free(&set);
		return (-1);
	}
	t->profile = xstrdup(tui_demo_on ? "demo" : set.profile);
	t->base_url = xstrdup(o_base != NULL ? o_base : set.base_url);
	t->account = o_acc != NULL ? xstrdup(o_acc) : set.account != NULL ?
	    xstrdup(set.account) : NULL;
	t->zone = o_zone != NULL ? xstrdup(o_zone) : set.zone != NULL ?
	    xstrdup(set.zone) : NULL;
	t->readonly = o_ro || set.readonly;
	t->readonly_why = o_ro ? "--readonly" : "read-only profile";

	memset(&ho, 0, sizeof ho);
	ho.base_url = t->base_url;
	ho.token = token;
	ho.readonly = t->readonly;
	ho.max_retries = -1;
	ho.budget_capacity = set.budget;
	config_settings_free(&set);
	t->http = http_client_new(&ho, cause);
	if (t->http == NULL) {
		config_secret_free(token);
		return (-1);
	}
	t->token = token;
	if ((t->jobs = jobs_new(t->http, cause)) == NULL) {
		http_client_free(t->http);
		t->http = NULL;
		return (-1);
	}
	t->vars[0].name = "account";
	t->vars[0].value = t->account;
	t->vars[1].name = "zone";
	t->vars[1].value = t->zone;
	t->vars[2].name = NULL;
	t->vars[2].value = NULL;
	t->budget_shown = -1;
	return (0);
}

static void
tui_open_first(struct tui *t)
{
	if (t->zone != NULL)
		tui_open_kind(t, &kind_operations);
	else if (t->account != NULL)
		tui_open_kind(t, &kind_videos);
	else
		tui_message(t, TUI_MSG_WARN, "no account or zone: set them in "
		    "the profile, CLOUDFLARE_ACCOUNT_ID/CLOUDFLARE_ZONE_ID or "
		    "--account/--zone");
}

/* ---- drawing ------------------------------------------------------------- */

static void
tui_short_id(const char *id, char *out, size_t len)
{
	if (id == NULL)
		snprintf(out, len, "-");
	else if (strlen(id) > 8)
		snprintf(out, len, "%.8s…", id);
	else
		snprintf(out, len, "%s", id);
}

static void
tui_draw_header(struct tui *t)
{
	char	 acc[32], zone[32], *left, right[128];
	struct buf xb;
	attr_t	 a = screen_role(THEME_ROLE_HEADER);
	int	 x, w = COLS;
	long	 budget;

	tui_short_id(t->account, acc, sizeof acc);
	tui_short_id(t->zone, zone, sizeof zone);
	screen_fill(0, 0, w, a);
	left = xprintf(" edgetui  profile %s  account %s  zone %s ",
	    t->profile != NULL ? t->profile : "-", acc, zone);
	x = screen_put(0, 0, w, left, a | A_BOLD);
	free(left);
	if (t->readonly && x + 11 < w)
		x += screen_put(0, x, w - x, " READ-ONLY ",
		    screen_role(THEME_ROLE_BADGE));
	budget = t->http != NULL ? http_budget_left(t->http) : -1;
	t->budget_shown = budget;
	buf_init(&xb);
	transfers_summary(t, &xb);
	snprintf(right, sizeof right, "%s%s budget %ld ", buf_str(&xb),
	    xb.len > 0 ? "  " : "", budget);
	buf_free(&xb);
	if ((int)text_width(right) + x < w)
		screen_put(0, w - (int)text_width(right),
		    (int)text_width(right), right, a);
}

/* What the generic panel can do with this kind. */
static void
tui_verb_hints(struct panel *p, struct buf *b)
{
	const struct kind_field	*f;
	unsigned		 v = p->kind->verbs;

	if (v & KIND_VERB_CREATE)
		buf_adds(b, "  n new");
	if (v & KIND_VERB_UPDATE)
		buf_adds(b, "  e edit  E yaml");
	if (v & (KIND_VERB_DELETE | KIND_VERB_BULK_DELETE))
		buf_adds(b, "  d delete");
	for (f = p->kind->fields; f != NULL && f->path != NULL; f++)
		if (f->flags & KIND_F_SECRET) {
			buf_adds(b, "  x reveal secrets (details)");
			break;
		}
}

/*
 * The message in rows of at most cols columns, broken after a space where
 * one is near; past max rows the last one says where the rest is.
 * Returns the rows used.
 */
static size_t
tui_wrap(const char *s, size_t cols, char **rows, size_t max)
{
	static const char	 more[] = " … :messages";
	char			*row, *sp;
	size_t			 n = 0, len;

	while (*s != '\0' && n < max) {
		row = xstrdup(s);
		text_cut(row, n + 1 == max ? cols - text_width(more) : cols);
		len = strlen(row);
		if (s[len] != '\0' && (sp = strrchr(row, ' ')) != NULL &&
		    sp > row && text_width(sp) < cols / 3)
			*sp = '\0';
		len = strlen(row);
		if (n + 1 == max && s[len] != '\0') {
			rows[n++] = xprintf("%s%s", row, more);
			free(row);
			break;
		}
		rows[n++] = row;
		for (s += len; *s == ' '; s++)
			;
	}
	return (n);
}

/* The rows the status line needs: the message's, else the hints' one. */
static size_t
tui_status_rows(struct tui *t, char **rows)
{
	size_t	max = TUI_STATUS_ROWS;

	if (t->msg == NULL || text_width(t->msg) <= (size_t)COLS)
		return (1);
	if (max > (size_t)LINES / 4)
		max = (size_t)LINES / 4;
	if (max < 1 || COLS < 24)
		return (1);
	return (tui_wrap(t->msg, (size_t)COLS, rows, max));
}

static void
tui_draw_status(struct tui *t, char **rows, size_t nrows)
{
	struct panel	*p = tui_panel(t);
	attr_t		 a = screen_role(THEME_ROLE_STATUS);
	enum theme_role	 role;
	struct buf	 b;
	size_t		 i;
	int		 y = LINES - (int)nrows;

	for (i = 0; i < nrows; i++)
		screen_fill(y + (int)i, 0, COLS, a);
	if (t->msg != NULL) {
		switch (t->msg_class) {
		case TUI_MSG_ERROR: role = THEME_ROLE_ERROR; break;
		case TUI_MSG_WARN: role = THEME_ROLE_WARNING; break;
		case TUI_MSG_OK: role = THEME_ROLE_OK; break;
		default: role = THEME_ROLE_STATUS; break;
		}
		if (nrows == 1 && rows[0] == NULL)
			screen_put(y, 0, COLS, t->msg, screen_role(role));
		for (i = 0; i < nrows && rows[i] != NULL; i++)
			screen_put(y + (int)i, 0, COLS, rows[i],
			    screen_role(role));
		return;
	}
	buf_init(&b);
	if (p != NULL && panel_detail_hints(p, &b)) {
		screen_put(LINES - 1, 0, COLS, buf_str(&b),
		    screen_role(THEME_ROLE_DIM));
		buf_free(&b);
		return;
	}
	/* Until the first command, say how to reach the other lists. */
	if (t->nhistory == 0 && t->npanels <= 1)
		buf_adds(&b, " ? help  :videos :rl …  / filter  Enter "
		    "details");
	else
		buf_adds(&b, " ? help  : command  / filter  Enter details");
	if (p != NULL && p->ops != NULL && p->ops->hints != NULL)
		buf_addf(&b, "  %s", p->ops->hints);
	else if (p != NULL)
		tui_verb_hints(p, &b);
	screen_put(LINES - 1, 0, COLS, buf_str(&b),
	    screen_role(THEME_ROLE_DIM));
	buf_free(&b);
}

static void
tui_draw(struct tui *t)
{
	struct panel	*p = tui_panel(t);
	struct modal	*m, *stack[16];
	char		*rows[TUI_STATUS_ROWS] = { NULL };
	size_t		 n = 0, nrows, i;

	erase();
	if (LINES < 5 || COLS < 20) {
		screen_put(0, 0, COLS, "too small: 20x5 at least", A_NORMAL);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	tui_draw_header(t);
	/* A long message takes rows from the bottom of the list. */
	nrows = tui_status_rows(t, rows);
	if (p != NULL)
		panel_draw(p, 1, 0, LINES - 1 - (int)nrows, COLS);
	tui_draw_status(t, rows, nrows);
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
	case ACTION_TRANSFERS:
		transfers_open(t);
		return (TUI_REDRAW);
	default:
		return (0);
	}
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
		if ((t->modal->flags & MODAL_VIEW) &&
		    keymap_lookup(t->keymap, KEYMAP_GLOBAL, key) ==
		    ACTION_COMMAND)
			cmdline_open(t, "");
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
	    KEYMAP_LIST;
	a = keymap_lookup(t->keymap, ctx, key);
	if (a == ACTION_NONE)
		return;
	/* Esc goes back as q does, but never out of the last list. */
	if (a == ACTION_BACK) {
		if (t->npanels > 1 || (p != NULL && p->view == PANEL_DETAIL &&
		    p->kind->shape != KIND_SHAPE_OBJECT))
			a = ACTION_QUIT;
		else {
			tui_message(t, TUI_MSG_INFO, "nothing to go back to: q "
			    "or :q quits");
			t->dirty = 1;
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
	tui_disconnect(t);
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

static void
tui_demo_stop(void)
{
	if (tui_demo_on) {
		demo_stop(&tui_demo);
		tui_demo_on = 0;
	}
}

int
tui_main(const struct cli_opts *o, int demo, const char *theme)
{
	struct tui	 t;
	char		*cause = NULL;
	size_t		 nprobs;
	int		 sig;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "edgetui: the console needs a terminal; run a "
		    "command instead (edgetui --help)\n");
		return (HTTP_EXIT_USAGE);
	}
	memset(&t, 0, sizeof t);
	tui_opts = o;
	if ((t.cfg = config_load(o->config, NULL, &cause)) == NULL) {
		fprintf(stderr, "edgetui: %s\n", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	if (demo) {
		if (demo_start(&tui_demo, NULL, &cause) != 0) {
			fprintf(stderr, "edgetui: --demo: %s\n", cause);
			free(cause);
			config_free(t.cfg);
			return (HTTP_EXIT_TRANSPORT);
		}
		tui_demo_on = 1;
	}
	if (tui_connect(&t, NULL, &cause) != 0) {
		fprintf(stderr, "edgetui: %s\n", cause);
		free(cause);
		tui_demo_stop();
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

	tui_signals();
	log_set_fatal_hook(tui_fatal_hook);
	screen_init(t.theme, t.ascii);
	tui_log_target = &t;
	log_set_sink(tui_log_sink, NULL);

	keymap_problems(t.keymap, &nprobs);
	nprobs += t.cfg->nproblems + t.nproblems;
	if (nprobs > 0)
		tui_message(&t, TUI_MSG_WARN, "%zu problem%s in the "
		    "configuration (the rest applies): :problems shows them",
		    nprobs, nprobs == 1 ? "" : "s");
	tui_open_first(&t);
	transfers_init(&t);
	if ((nprobs = transfers_paused(&t)) > 0) {
		transfers_open(&t);
		tui_message(&t, TUI_MSG_WARN, "%zu unfinished upload%s from "
		    "before: Enter resumes the one selected, q closes", nprobs,
		    nprobs == 1 ? "" : "s");
	}
	t.dirty = 1;
	tui_loop(&t);

	sig = tui_signalled;
	tui_log_target = NULL;
	screen_end();
	log_set_sink(log_sink_stderr, (void *)"edgetui");
	tui_free(&t);
	tui_demo_stop();
	if (sig != 0) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return (0);
}
