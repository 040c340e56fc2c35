/*
 * The transfers: every upload, download request and processing watch is
 * a job of the worker with its bytes, rate, ETA and state (the tray shows
 * them: ui/tray.c). Uploads run tusc_upload on a thread of their own with
 * a client of their own (sharing the budget); they resume from the
 * journal after a crash or a lost link.
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
#include "xfer.h"
#include "xmalloc.h"

#define XFER_PROGRESS_S	0.1


static double
xfer_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

void
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

void
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

/* ---- sizes, and the header's summary ------------------------------------ */

void
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

int
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
