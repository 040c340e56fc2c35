/*
 * The transfers tray: every upload, download request and processing watch
 * is a job of the worker with its bytes, rate, ETA and state. Uploads run
 * tusc_upload on a thread of their own with a client of their own (sharing
 * the budget); they resume from the journal after a crash or a lost link.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "configfile.h"
#include "http.h"
#include "screen.h"
#include "streamx.h"
#include "text.h"
#include "transfers.h"
#include "tui.h"
#include "widgets/listview.h"
#include "xferrate.h"
#include "xmalloc.h"

#define XFER_PROGRESS_S	0.1
#define XFER_STATE_W	11	/* "cancelling", "inprogress" */
#define XFER_WIDE	110	/* columns from which rows have a bar */

struct xfer {
	enum xfer_kind		 kind;
	enum xfer_state		 state;
	char			*title;		/* the video's name, a file's */
	char			*uid;		/* the video, once known */
	char			*url;		/* a download's, when ready */
	char			*error;
	char			*phase;		/* the server's state */
	long long		 done;
	long long		 total;
	double			 pct;		/* processing, downloads */
	const char		*dl_type;	/* downloads: default, audio */
	char			*dl_path;	/* downloads: what is polled */
	struct xferrate		 xr;		/* this run's rate */
	double			 rate;		/* bytes per second */
	unsigned long		 job;
	struct tui_req		*req;

	/* Uploads: what the thread owns while it runs. */
	char			*file;
	char			*name;
	char			*creator;
	int			 require_signed;
	char			*state_dir;
	struct http_client	*http;
	struct tusc_options	 opts;
	struct tusc_result	 res;
	unsigned long		 run_id;	/* set by the thread */
	char			*notice;	/* the thread's, swapped atomically */
	char			*note;		/* shown on the row while running */
	int			 stop;		/* d: the thread ends at once */
	double			 posted;	/* the thread's last report */
	long long		 done_sent;	/* and what it said */
	long long		 total_sent;
	struct jobs		*jobs;
};

static double
xfer_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static void
xfer_free(struct xfer *x)
{
	free(__atomic_exchange_n(&x->notice, NULL, __ATOMIC_ACQ_REL));
	free(x->note);
	free(x->title);
	free(x->uid);
	free(x->url);
	free(x->error);
	free(x->phase);
	free(x->dl_path);
	free(x->file);
	free(x->name);
	free(x->creator);
	free(x->state_dir);
	if (x->http != NULL)
		http_client_free(x->http);
	tusc_result_free(&x->res);
	free(x);
}

static struct xfer *
xfer_add(struct tui *t, enum xfer_kind kind, const char *title)
{
	struct xfer	*x;

	x = xcalloc(1, sizeof *x);
	x->kind = kind;
	x->title = text_clean(title);
	t->xfers = xreallocarray(t->xfers, t->nxfers + 1, sizeof *t->xfers);
	t->xfers[t->nxfers++] = x;
	t->dirty = 1;
	return (x);
}

static void
xfer_fail(struct tui *t, struct xfer *x, const char *why)
{
	x->state = XFER_FAILED;
	free(x->error);
	x->error = xstrdup(why);
	tui_message(t, TUI_MSG_ERROR, "%s: %s", x->title, why);
}

/* ---- uploads ------------------------------------------------------------- */

/*
 * On the upload's thread: curl reports many times a second; the console
 * redraws twice a second at most, so it is woken ten times a second at
 * most (a stop asked for is still seen at each call).
 */
static int
xfer_upload_progress(long long done, long long total, void *arg)
{
	struct xfer	*x = arg;
	unsigned long	 id = __atomic_load_n(&x->run_id, __ATOMIC_ACQUIRE);
	double		 now = xfer_now();

	x->done_sent = done;
	x->total_sent = total;
	if (__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
		/* The row keeps where it stopped. */
		(void)jobs_progress(x->jobs, id, done, total);
		return (1);
	}
	if (done < total && now - x->posted < XFER_PROGRESS_S)
		return (jobs_cancelled(x->jobs, id));
	x->posted = now;
	return (jobs_progress(x->jobs, id, done, total));
}

/*
 * On the upload's thread: what tusc says while it goes on ("the server is
 * still finishing the previous request; trying again in 4 s") is handed to
 * the console through one pointer and a progress event to wake it.
 */
static void
xfer_upload_notice(const char *msg, void *arg)
{
	struct xfer	*x = arg;
	unsigned long	 id = __atomic_load_n(&x->run_id, __ATOMIC_ACQUIRE);
	size_t		 len = strlen(x->file);

	/* The row names the video: the file's path is not repeated. */
	if (strncmp(msg, x->file, len) == 0 && strncmp(msg + len, ": ", 2) == 0)
		msg += len + 2;
	free(__atomic_exchange_n(&x->notice, xstrdup(msg), __ATOMIC_ACQ_REL));
	(void)jobs_progress(x->jobs, id, x->done_sent, x->total_sent);
}

static enum status
xfer_upload_run(struct jobs *j, unsigned long id, void *arg, cJSON **result,
    char **cause)
{
	struct xfer	*x = arg;

	(void)j;
	(void)result;
	__atomic_store_n(&x->run_id, id, __ATOMIC_RELEASE);
	return (tusc_upload(x->http, &x->opts, &x->res, cause));
}

static void
xfer_upload_start(struct tui *t, struct xfer *x)
{
	struct http_options	 ho;
	char			*cause = NULL;

	if (tui_refuse_readonly(t, "upload"))
		return;
	if (x->http == NULL) {
		/* Read-only was refused above; the budget is shared. */
		edge_session_http_options(&t->session, &ho);
		ho.budget = http_client_budget(t->http);
		ho.log_with = t->http;
		if ((x->http = http_client_new(&ho, &cause)) == NULL) {
			xfer_fail(t, x, cause);
			free(cause);
			return;
		}
	}
	tusc_result_free(&x->res);
	memset(&x->res, 0, sizeof x->res);
	x->res.resumed_from = -1;
	memset(&x->opts, 0, sizeof x->opts);
	x->opts.file = x->file;
	x->opts.base_url = t->session.base_url;
	x->opts.account = t->session.scope.account;
	x->opts.creator = x->creator;
	x->opts.meta.name = x->name;
	x->opts.meta.require_signed = x->require_signed;
	x->opts.chunk_size = t->cfg->prefs.chunk_size;
	x->opts.state_dir = x->state_dir;
	x->opts.progress = xfer_upload_progress;
	x->opts.progress_arg = x;
	x->opts.notice = xfer_upload_notice;
	x->opts.notice_arg = x;
	x->done_sent = x->done;
	x->total_sent = x->total;
	x->jobs = t->jobs;
	free(x->note);
	x->note = NULL;
	x->stop = 0;
	x->state = XFER_RUNNING;
	/* Its first count is its base: bytes held before are not sent. */
	xferrate_reset(&x->xr);
	x->rate = 0;
	free(x->error);
	x->error = NULL;

	x->req = tui_submit_job(t, x, xfer_upload_run, x);
	if (x->req == NULL)
		xfer_fail(t, x, "the worker is not running");
	else
		x->job = x->req->job;
}

void
transfers_upload(struct tui *t, const char *file,
    const struct xfer_upload_opts *o)
{
	struct xfer	*x;
	struct stat	 sb;
	char		*copy, *cause = NULL, note[64];

	if (tui_refuse_readonly(t, "upload"))
		return;
	if (t->session.scope.account == NULL) {
		tui_message(t, TUI_MSG_ERROR, "upload: no account (profile, "
		    "CLOUDFLARE_ACCOUNT_ID or --account)");
		return;
	}
	if (stat(file, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		tui_message(t, TUI_MSG_ERROR, "upload: %s: %s", file,
		    errno != 0 && !S_ISREG(sb.st_mode) ? strerror(errno) :
		    "not a regular file");
		return;
	}
	copy = xstrdup(file);
	x = xfer_add(t, XFER_UPLOAD, o != NULL && o->name != NULL &&
	    *o->name != '\0' ? o->name : basename(copy));
	free(copy);
	x->file = realpath(file, NULL);
	if (x->file == NULL)
		x->file = xstrdup(file);
	x->total = (long long)sb.st_size;
	x->name = o != NULL && o->name != NULL && *o->name != '\0' ?
	    xstrdup(o->name) : NULL;
	x->creator = o != NULL && o->creator != NULL && *o->creator != '\0' ?
	    xstrdup(o->creator) : NULL;
	x->require_signed = o != NULL && o->require_signed;
	if ((x->state_dir = edge_session_state_dir(&t->session, &cause)) == NULL) {
		tui_message(t, TUI_MSG_WARN, "no resume journal: %s", cause);
		free(cause);
	}
	xfer_upload_start(t, x);
	if (x->state == XFER_RUNNING) {
		status_key_note(t, KEYMAP_GLOBAL, ACTION_TRANSFERS,
		    "shows transfers", note, sizeof note);
		tui_message(t, TUI_MSG_INFO, "uploading %s%s", x->title, note);
	}
}

void
transfers_init(struct tui *t)
{
	struct tusc_entry	*e = NULL;
	struct xfer		*x;
	char			*dir, *cause = NULL, *copy;
	size_t			 n = 0, i;

	if (t->session.scope.account == NULL ||
	    (dir = edge_session_state_dir(&t->session, &cause)) == NULL) {
		free(cause);
		return;
	}
	if (tusc_journal_list(dir, &e, &n, &cause) != 0) {
		tui_message(t, TUI_MSG_WARN, "upload journal: %s", cause);
		free(cause);
		free(dir);
		return;
	}
	for (i = 0; i < n; i++) {
		if (e[i].base_url == NULL || e[i].account == NULL ||
		    strcmp(e[i].base_url, t->session.base_url) != 0 ||
		    strcmp(e[i].account, t->session.scope.account) != 0)
			continue;
		copy = xstrdup(e[i].file);
		x = xfer_add(t, XFER_UPLOAD, basename(copy));
		free(copy);
		x->state = XFER_PAUSED;
		x->file = xstrdup(e[i].file);
		x->uid = e[i].uid != NULL ? xstrdup(e[i].uid) : NULL;
		x->done = e[i].offset;
		x->total = e[i].size;
		x->state_dir = xstrdup(dir);
	}
	tusc_entries_free(e, n);
	free(dir);
}

/* ---- watches and downloads ------------------------------------------------ */

static int
xfer_video_over(const struct http_response *resp, void *arg)
{
	const cJSON	*r = resp->api.result, *st;

	(void)arg;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "readyToStream")))
		return (1);
	st = kind_json_get(r, "status.state");
	return (cJSON_IsString(st) && (strcmp(st->valuestring, "ready") == 0 ||
	    strcmp(st->valuestring, "error") == 0));
}

/* A download's member of the downloads object: "default.status". */
static const cJSON *
xfer_download_field(const cJSON *result, const char *type, const char *name)
{
	const cJSON	*d;

	d = cJSON_GetObjectItemCaseSensitive(result, type != NULL ? type :
	    "default");
	return (cJSON_GetObjectItemCaseSensitive(d, name));
}

static int
xfer_download_over(const struct http_response *resp, void *arg)
{
	const cJSON	*st;

	st = xfer_download_field(resp->api.result, arg, "status");
	return (cJSON_IsString(st) && (strcmp(st->valuestring, "ready") == 0 ||
	    strcmp(st->valuestring, "error") == 0));
}

static void
xfer_poll(struct tui *t, struct xfer *x, const char *path, jobs_until_cb cb)
{
	struct jobs_poll_options	po;

	/*
	 * The first polls come soon (1, 2, 3... s apart), so a short wait is
	 * seen at once; the waits rise to preferences.poll_interval, which
	 * then paces a long one.
	 */
	memset(&po, 0, sizeof po);
	po.first_ms = JOBS_POLL_FIRST_MS;
	po.max_ms = t->cfg != NULL ? (long)t->cfg->prefs.poll_interval * 1000 :
	    JOBS_POLL_MAX_MS;
	po.until = cb;
	po.until_arg = (void *)(uintptr_t)x->dl_type;
	x->state = XFER_RUNNING;
	x->req = tui_submit_poll(t, x, path, &po);
	if (x->req == NULL)
		xfer_fail(t, x, "the worker is not running");
	else
		x->job = x->req->job;
}

/* A row's name: the video's (cleaned: it is server text), else its uid. */
static const char *
xfer_title(const char *name, const char *uid, char **clean)
{
	*clean = name != NULL && *name != '\0' ? text_clean(name) : NULL;
	return (*clean != NULL ? *clean : uid);
}

void
transfers_watch(struct tui *t, const char *uid, const char *name)
{
	struct api_var	 vars[EDGE_SCOPE_NVARS];
	struct xfer	*x;
	char		*path, *cause = NULL, *clean;

	edge_scope_vars(&t->session.scope, uid, vars);
	if ((path = kind_item_path(&kind_videos, vars, uid, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	x = xfer_add(t, XFER_PROCESSING, xfer_title(name, uid, &clean));
	free(clean);
	x->uid = xstrdup(uid);
	xfer_poll(t, x, path, xfer_video_over);
	free(path);
}

void
transfers_download(struct tui *t, const char *uid, const char *name,
    const char *type)
{
	struct api_var	 vars[EDGE_SCOPE_NVARS];
	struct xfer	*x;
	char		*path, *post, *cause = NULL, *clean, note[64];

	if (tui_refuse_readonly(t, "download request"))
		return;
	if (streamx_download_type(type, &type, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	edge_scope_vars(&t->session.scope, uid, vars);
	if ((path = kind_create_path(&kind_downloads, vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	x = xfer_add(t, XFER_DOWNLOAD, xfer_title(name, uid, &clean));
	free(clean);
	x->uid = xstrdup(uid);
	x->dl_type = type;
	x->state = XFER_RUNNING;
	/*
	 * Ask for it (the default on the path every server knows), then
	 * poll the downloads object, which holds every type, until ready.
	 */
	post = strcmp(type, "default") == 0 ? xstrdup(path) :
	    xprintf("%s/%s", path, type);
	x->dl_path = path;
	x->req = tui_submit_xfer(t, x, "POST", post);
	if (x->req == NULL)
		xfer_fail(t, x, "the worker is not running");
	else
		x->job = x->req->job;
	free(post);
	status_key_note(t, KEYMAP_GLOBAL, ACTION_TRANSFERS, "shows transfers",
	    note, sizeof note);
	tui_message(t, TUI_MSG_INFO, "%s download of %s requested%s",
	    strcmp(type, "audio") == 0 ? "audio (M4A)" : "MP4", x->title, note);
}

/* ---- events ------------------------------------------------------------------ */

static double
xfer_number(const cJSON *v)
{
	if (cJSON_IsNumber(v))
		return (v->valuedouble);
	if (cJSON_IsString(v))
		return (strtod(v->valuestring, NULL));
	return (-1);
}

static void
xfer_phase(struct xfer *x, const char *phase)
{
	free(x->phase);
	x->phase = phase != NULL ? xstrdup(phase) : NULL;
}

/* The videos lists show a new video without waiting for r. */
static void
xfer_videos_reload(struct tui *t)
{
	size_t	i;

	for (i = 0; i < t->npanels; i++)
		if (t->panels[i]->kind == &kind_videos)
			panel_load(t->panels[i]);
}

/* "Enter in the tray (T)": what resumes an upload, from the keymap. */
static void
xfer_resume_where(struct tui *t, char *out, size_t len)
{
	char	tray[KEYMAP_KEY_NAME_MAX], resume[KEYMAP_KEY_NAME_MAX];

	if (status_key_name(t, KEYMAP_TRAY, ACTION_RESUME, resume) == NULL)
		snprintf(out, len, "the transfers tray");
	else if (status_key_name(t, KEYMAP_GLOBAL, ACTION_TRANSFERS,
	    tray) == NULL)
		snprintf(out, len, "%s in the transfers tray", resume);
	else
		snprintf(out, len, "%s in the tray (%s)", resume, tray);
}

static void
xfer_upload_over(struct tui *t, struct xfer *x, struct jobs_event *ev)
{
	char	where[2 * KEYMAP_KEY_NAME_MAX + 32];

	/* The thread is over: its result is the UI thread's now. */
	if (x->res.uid != NULL && *x->res.uid != '\0') {
		free(x->uid);
		x->uid = xstrdup(x->res.uid);
	}
	if (ev->kind == JOBS_EVENT_DONE) {
		x->state = XFER_DONE;
		x->done = x->total = x->res.size;
		tui_message(t, TUI_MSG_OK, "uploaded %s: video %s; watching "
		    "its processing", x->title, x->uid != NULL ? x->uid : "");
		if (x->uid != NULL)
			transfers_watch(t, x->uid, x->title);
		xfer_videos_reload(t);
		return;
	}
	if (x->res.status == STATUS_CANCELLED || ev->status ==
	    STATUS_CANCELLED) {
		x->state = XFER_CANCELLED;
		xfer_resume_where(t, where, sizeof where);
		tui_message(t, TUI_MSG_INFO, "upload of %s cancelled at %d%%; "
		    "%s resumes it", x->title, x->total > 0 ?
		    (int)(x->done * 100 / x->total) : 0, where);
		return;
	}
	xfer_fail(t, x, ev->cause != NULL ? ev->cause :
	    status_message(ev->status));
}

static void
xfer_processing(struct tui *t, struct xfer *x, struct jobs_event *ev)
{
	const cJSON	*r = ev->result, *st, *why, *dur;

	st = kind_json_get(r, "status.state");
	xfer_phase(x, cJSON_IsString(st) ? st->valuestring : NULL);
	x->pct = xfer_number(kind_json_get(r, "status.pctComplete"));
	if (ev->kind != JOBS_EVENT_DONE)
		return;
	if (cJSON_IsString(st) && strcmp(st->valuestring, "error") == 0) {
		why = kind_json_get(r, "status.errorReasonText");
		xfer_fail(t, x, cJSON_IsString(why) ? why->valuestring :
		    "processing failed");
		return;
	}
	x->state = XFER_DONE;
	x->pct = 100;
	dur = cJSON_GetObjectItemCaseSensitive(r, "duration");
	tui_message(t, TUI_MSG_OK, "video %s is ready (duration %.1f s)",
	    x->title, cJSON_IsNumber(dur) ? dur->valuedouble : 0.0);
}

static void
xfer_download(struct tui *t, struct xfer *x, struct tui_req *r,
    struct jobs_event *ev)
{
	const cJSON	*st, *url;

	st = xfer_download_field(ev->result, x->dl_type, "status");
	url = xfer_download_field(ev->result, x->dl_type, "url");
	xfer_phase(x, cJSON_IsString(st) ? st->valuestring : NULL);
	x->pct = xfer_number(xfer_download_field(ev->result, x->dl_type,
	    "percentComplete"));
	if (ev->kind != JOBS_EVENT_DONE)
		return;
	if (cJSON_IsString(st) && strcmp(st->valuestring, "ready") == 0) {
		x->state = XFER_DONE;
		x->pct = 100;
		free(x->url);
		x->url = cJSON_IsString(url) ? xstrdup(url->valuestring) : NULL;
		tui_message(t, TUI_MSG_OK, "download of %s is ready: %s",
		    x->title, x->url != NULL ? x->url : "(no URL)");
		return;
	}
	if (cJSON_IsString(st) && strcmp(st->valuestring, "error") == 0) {
		xfer_fail(t, x, "the server reports an error for the download");
		return;
	}
	/* The POST answered "inprogress": poll the downloads object. */
	if (strcmp(r->method, "POST") == 0) {
		char *path = xstrdup(x->dl_path != NULL ? x->dl_path :
		    r->path);
		xfer_poll(t, x, path, xfer_download_over);
		free(path);
	}
}

int
transfers_event(struct tui *t, struct tui_req *r, struct jobs_event *ev)
{
	struct xfer	*x = r->xfer;
	char		*note;

	switch (ev->kind) {
	case JOBS_EVENT_PROGRESS:
		/*
		 * tusc sets the uid before its first report, and this event
		 * passed the worker's lock after it: it may be read.
		 */
		if (x->kind == XFER_UPLOAD && x->uid == NULL &&
		    x->res.uid != NULL && *x->res.uid != '\0')
			x->uid = xstrdup(x->res.uid);
		if ((note = __atomic_exchange_n(&x->notice, NULL,
		    __ATOMIC_ACQ_REL)) != NULL) {
			free(x->note);
			x->note = note;
			tui_message(t, TUI_MSG_WARN, "%s: %s", x->title, note);
		} else if (ev->done > x->done) {
			free(x->note);	/* going again */
			x->note = NULL;
		}
		x->done = ev->done;
		if (ev->total > 0)
			x->total = ev->total;
		x->rate = xferrate_feed(&x->xr, xfer_now(), x->done);
		return (0);
	case JOBS_EVENT_FAILED:
		if (x->kind == XFER_UPLOAD) {
			xfer_upload_over(t, x, ev);
			break;
		}
		if (ev->status == STATUS_CANCELLED)
			x->state = XFER_CANCELLED;
		else
			xfer_fail(t, x, tui_cause(r, ev));
		break;
	default:
		if (x->kind == XFER_UPLOAD)
			xfer_upload_over(t, x, ev);
		else if (x->kind == XFER_PROCESSING)
			xfer_processing(t, x, ev);
		else
			xfer_download(t, x, r, ev);
		break;
	}
	if (ev->kind == JOBS_EVENT_DONE || ev->kind == JOBS_EVENT_FAILED) {
		if (x->req == r)
			x->req = NULL;
	}
	return (1);
}

void
transfers_free(struct tui *t)
{
	size_t	i;

	/* jobs_free (before this) waited for every upload thread. */
	for (i = 0; i < t->nxfers; i++)
		xfer_free(t->xfers[i]);
	free(t->xfers);
	t->xfers = NULL;
	t->nxfers = 0;
}

size_t
transfers_paused(struct tui *t)
{
	size_t	i, n = 0;

	for (i = 0; i < t->nxfers; i++)
		if (t->xfers[i]->state == XFER_PAUSED)
			n++;
	return (n);
}

int
transfers_uploading(struct tui *t, const char *uid)
{
	size_t	i;

	for (i = 0; i < t->nxfers; i++) {
		struct xfer *x = t->xfers[i];
		if (x->kind == XFER_UPLOAD && x->state == XFER_RUNNING &&
		    x->uid != NULL && strcmp(x->uid, uid) == 0)
			return (1);
	}
	return (0);
}

/* ---- drawing ------------------------------------------------------------------ */

static void
xfer_size(char *out, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(out, len, "%.1f GB", v / 1e9);
	else if (v >= 1e6)
		snprintf(out, len, "%.1f MB", v / 1e6);
	else if (v >= 1e3)
		snprintf(out, len, "%.0f kB", v / 1e3);
	else
		snprintf(out, len, "%.0f B", v);
}

static int
xfer_percent(const struct xfer *x)
{
	if (x->kind == XFER_UPLOAD)
		return (x->total > 0 ? (int)(x->done * 100 / x->total) : 0);
	return (x->pct >= 0 ? (int)x->pct : 0);
}

void
transfers_summary(struct tui *t, struct buf *b)
{
	size_t	 i, up = 0, other = 0;
	double	 rate = 0;
	long long done = 0, total = 0;
	char	 r[32];

	for (i = 0; i < t->nxfers; i++) {
		struct xfer *x = t->xfers[i];
		if (x->state != XFER_RUNNING)
			continue;
		if (x->kind == XFER_UPLOAD) {
			up++;
			done += x->done;
			total += x->total;
			rate += x->rate;
		} else
			other++;
	}
	if (up > 0) {
		xfer_size(r, sizeof r, rate);
		buf_addf(b, "up %zu %d%% %s/s", up, total > 0 ?
		    (int)(done * 100 / total) : 0, r);
	}
	if (other > 0)
		buf_addf(b, "%swatching %zu", up > 0 ? ", " : "", other);
}

static const char *
xfer_state_name(const struct xfer *x)
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
xfer_pad(struct buf *b, const char *s, size_t cols)
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
xfer_amount(struct buf *b, long long done, long long total)
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
xfer_line(const struct xfer *x, struct buf *b, size_t namew, int barw)
{
	static const char *kinds[] = { "upload  ", "download", "process " };
	char		 rate[32];
	int		 pct = xfer_percent(x), i, fill;
	double		 left;

	/* The audio download's row says so where the kind is. */
	buf_addf(b, "%s  ", x->dl_type != NULL && strcmp(x->dl_type,
	    "audio") == 0 ? "audio dl" : kinds[x->kind]);
	xfer_pad(b, x->title, namew);
	buf_adds(b, "  ");
	xfer_pad(b, xfer_state_name(x), XFER_STATE_W);
	buf_addf(b, " %3d%%", pct);
	if (barw > 0) {
		buf_adds(b, " [");
		fill = barw * pct / 100;
		for (i = 0; i < barw; i++)
			buf_addc(b, i < fill ? '#' : '.');
		buf_adds(b, "]");
	}
	if (x->kind == XFER_UPLOAD) {
		xfer_amount(b, x->done, x->total);
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

/* ---- the tray ------------------------------------------------------------------ */

struct tray {
	struct tui	*t;
	char		*empty;		/* what the empty tray says */
};

/* What Enter does to this row: resume (or retry) an upload. */
static int
xfer_resumable(const struct xfer *x)
{
	return (x->kind == XFER_UPLOAD && (x->state == XFER_PAUSED ||
	    x->state == XFER_CANCELLED || x->state == XFER_FAILED));
}

static void
tray_resume(struct tui *t, struct xfer *x)
{
	char	key[KEYMAP_KEY_NAME_MAX];

	if (!xfer_resumable(x) && x->state == XFER_RUNNING && x->stop) {
		if (status_key_name(t, KEYMAP_TRAY, ACTION_RESUME, key) != NULL)
			tui_message(t, TUI_MSG_INFO, "still cancelling: %s "
			    "resumes once it says cancelled", key);
		else
			tui_message(t, TUI_MSG_INFO, "still cancelling");
		return;
	}
	if (!xfer_resumable(x)) {
		tui_message(t, TUI_MSG_INFO, "nothing to resume there");
		return;
	}
	xfer_upload_start(t, x);
	if (x->state == XFER_RUNNING)
		tui_message(t, TUI_MSG_INFO, "resuming %s", x->title);
}

/* Take a row out of the tray (nothing of it runs any more). */
static void
xfer_clear(struct tui *t, struct xfer *x)
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
xfer_journal_key(struct tui *t, const struct xfer *x)
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
	xfer_clear(t, f->x);
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
	if ((key = xfer_journal_key(t, x)) == NULL) {
		xfer_clear(t, x);
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

/* ---- the tray as a list view ----------------------------------------------- */

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
	xfer_line(t->xfers[i], &line, namew, barw);
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
		return (strcmp(xfer_state_name(xa), xfer_state_name(xb)));
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
	if (x != NULL && xfer_resumable(x))
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
transfers_open(struct tui *t)
{
	struct tray	*tr;

	tr = xcalloc(1, sizeof *tr);
	tr->t = t;
	listview_open(t, &tray_ops, tr);
}

/*
 * The uploads and downloads still running, for the question before
 * quitting: "1 upload at 18%", "2 uploads at 40%, 1 download".
 */
size_t
transfers_unfinished(struct tui *t, struct buf *what)
{
	size_t		 i, up = 0, down = 0;
	long long	 done = 0, total = 0;

	for (i = 0; i < t->nxfers; i++) {
		struct xfer *x = t->xfers[i];
		if (x->state != XFER_RUNNING)
			continue;
		if (x->kind == XFER_UPLOAD) {
			up++;
			done += x->done;
			total += x->total;
		} else if (x->kind == XFER_DOWNLOAD)
			down++;
	}
	if (up > 0)
		buf_addf(what, "%zu upload%s at %d%%", up, up == 1 ? "" : "s",
		    total > 0 ? (int)(done * 100 / total) : 0);
	if (down > 0)
		buf_addf(what, "%s%zu download%s", up > 0 ? ", " : "", down,
		    down == 1 ? "" : "s");
	return (up + down);
}
