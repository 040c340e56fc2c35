/*
 * Videos: u uploads a file (TUS, in the transfers tray), U makes a
 * one-time upload URL, D asks for a download (MP4 or audio), a and c open
 * the video's audio tracks and captions; L, C and the embed snippet are
 * vidops.c's. While the list shows videos still
 * being processed, it is fetched again every few seconds.
 */
#include "config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "configfile.h"
#include "form_model.h"
#include "signurl.h"
#include "transfers.h"
#include "tui.h"
#include "vidops.h"
#include "xmalloc.h"

enum {
	VIDEOS_DIRECT = 1,
	VIDEOS_REFRESH
};

/*
 * The refresh of a list with videos in processing: one GET of the list's
 * first page (the newest videos) every 5 s by default
 * (preferences.list_refresh), 12 requests a minute of the 240 the API
 * allows, until no video there is pending. It pauses while another list
 * is shown (a video stuck in processing would spend the budget all
 * day) and fetches at once when this one is shown again.
 */
#define VIDEOS_REFRESH_MS	5000L

struct videos {
	struct tui_req	*refresh;	/* the poll, while one runs */
	char		*paused;	/* its path, while another list is shown */
	unsigned	 gen;		/* the load whose first page was seen */
};

struct videos_upload {
	struct panel	*p;
	char		*file;
};

static void
videos_upload_free(void *arg)
{
	struct videos_upload	*u = arg;

	free(u->file);
	free(u);
}

static void
videos_upload_name(struct tui *t, void *arg, const char *name)
{
	struct videos_upload	*u = arg;
	struct xfer_upload_opts	 o;

	memset(&o, 0, sizeof o);
	o.name = name;
	transfers_upload(t, u->file, &o);
}

static void
videos_upload_file(struct tui *t, void *arg, const char *file)
{
	struct videos_upload	*u;
	char			*copy, *q;

	if (*file == '\0')
		return;
	u = xcalloc(1, sizeof *u);
	u->p = arg;
	u->file = xstrdup(file);
	copy = xstrdup(file);
	q = xprintf("name of the video (Enter: %s)", basename(copy));
	dialog_prompt(t, q, basename(copy), 0, videos_upload_name, u,
	    videos_upload_free);
	free(q);
	free(copy);
}

static void
videos_direct_submit(struct tui *t, struct panel *p, struct modal *m,
    cJSON *body, const char *id, const cJSON *before)
{
	struct tui_req	*r;
	char		*path, *cause = NULL;

	(void)id;
	(void)before;
	path = kind_create_path(&kind_direct_uploads, p->vars, &cause);
	if (path == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", path, body);
	if (r != NULL) {
		r->sub = VIDEOS_DIRECT;
		r->modal = m;
	}
	free(path);
}

/*
 * Not final yet: queued, inprogress, downloading; pendingupload only while
 * this console uploads it (else it may wait for bytes that never come).
 */
static int
videos_pending(struct tui *t, const cJSON *rec)
{
	const cJSON	*st = kind_json_get(rec, "status.state"), *uid;
	const char	*s;

	if (!cJSON_IsString(st))
		return (0);
	s = st->valuestring;
	if (strcmp(s, "queued") == 0 || strcmp(s, "inprogress") == 0 ||
	    strcmp(s, "downloading") == 0)
		return (1);
	uid = cJSON_GetObjectItemCaseSensitive(rec, "uid");
	return (strcmp(s, "pendingupload") == 0 && cJSON_IsString(uid) &&
	    transfers_uploading(t, uid->valuestring));
}

static int
videos_any_pending(struct tui *t, const cJSON *list)
{
	const cJSON	*rec;

	cJSON_ArrayForEach(rec, list) {
		if (videos_pending(t, rec))
			return (1);
	}
	return (0);
}

/* The refresh ends when the console says so (videos_refreshed). */
static int
videos_never(const struct http_response *resp, void *arg)
{
	(void)resp;
	(void)arg;
	return (0);
}

static void
videos_refresh_stop(struct panel *p)
{
	struct videos	*v = p->priv;

	if (v->refresh != NULL)
		tui_cancel_req(p->tui, v->refresh);
	v->refresh = NULL;
	free(v->paused);
	v->paused = NULL;
}

/* Poll path (the list's first page), now or from the next interval on. */
static void
videos_refresh_start(struct panel *p, const char *path, int now)
{
	struct videos			*v = p->priv;
	struct jobs_poll_options	 po;

	memset(&po, 0, sizeof po);
	po.first_ms = po.max_ms = VIDEOS_REFRESH_MS;
	if (p->tui->cfg != NULL)
		po.first_ms = po.max_ms =
		    (long)p->tui->cfg->prefs.list_refresh * 1000;
	po.wait_first = !now;
	po.until = videos_never;
	/* A poll of the console's, answered to this panel. */
	v->refresh = tui_submit_poll(p->tui, NULL, path, &po);
	if (v->refresh != NULL) {
		v->refresh->panel = p;
		v->refresh->sub = VIDEOS_REFRESH;
	}
}

/*
 * A page of the list as it loads (the generic code then shows it): the
 * first page of each load is what the refresh fetches again, when it
 * holds a video in processing.
 */
static void
videos_list_page(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct videos	*v = p->priv;

	if (ev->kind != JOBS_EVENT_DONE || r->gen != p->gen ||
	    v->gen == r->gen)
		return;
	v->gen = r->gen;
	if (v->refresh != NULL && strcmp(v->refresh->path, r->path) != 0)
		videos_refresh_stop(p);	/* other filters: another list */
	if (v->refresh == NULL && videos_any_pending(p->tui, ev->result)) {
		free(v->paused);
		v->paused = NULL;
		videos_refresh_start(p, r->path, 0);
	}
}

/*
 * A refresh's answer: every video in it replaces its row (a new one is
 * added), the cursor stays on its video; nothing pending ends it.
 */
static void
videos_refreshed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct videos	*v = p->priv;
	const cJSON	*rec;
	const char	*id;
	char		*cursor = NULL, *path;
	long		 i;

	if (ev->kind == JOBS_EVENT_FAILED) {
		v->refresh = NULL;
		tui_message(p->tui, TUI_MSG_WARN, "videos: the automatic "
		    "refresh stopped: %s (r reloads)", tui_cause(r, ev));
		return;
	}
	if (!cJSON_IsArray(ev->result))
		return;
	/* A load under way brings all of it. */
	if (!p->loading) {
		if ((id = panel_current_id(p)) != NULL)
			cursor = xstrdup(id);
		cJSON_ArrayForEach(rec, ev->result) {
			id = kind_record_id(p->kind, rec);
			if (panel_merge(p, id, rec) != 0)
				rows_put(p->rows, rec);
		}
		if (cursor != NULL && (i = rows_find(p->rows, cursor)) >= 0)
			p->cursor = (size_t)i;
		free(cursor);
		p->loaded_at = time(NULL);
	}
	/* After a POLL_UPDATE the loop no longer touches its request. */
	if (!videos_any_pending(p->tui, ev->result))
		videos_refresh_stop(p);
	else if (tui_panel(p->tui) != p) {
		path = xstrdup(v->refresh->path);
		videos_refresh_stop(p);
		v->paused = path;
	}
}

/* Shown again: a paused refresh fetches at once and goes on. */
static void
videos_shown(struct panel *p)
{
	struct videos	*v = p->priv;
	char		*path;

	if (v == NULL || v->paused == NULL || v->refresh != NULL)
		return;
	path = v->paused;
	v->paused = NULL;
	videos_refresh_start(p, path, 1);
	free(path);
}

static void
videos_closed(struct panel *p)
{
	struct videos	*v = p->priv;

	free(v->paused);
}

static void
videos_sub(struct panel *p, const struct kind *k)
{
	struct panel	*sub;
	const char	*id = panel_current_id(p);

	if (id == NULL)
		return;
	sub = tui_open_video_kind(p->tui, k, id);
	if (sub != p)
		sub->parent = p;
}

static int
videos_action(struct panel *p, enum action a)
{
	switch (a) {
	case ACTION_UPLOAD:
	case ACTION_NEW:
		if (tui_refuse_readonly(p->tui, "upload"))
			return (TUI_HANDLED);
		dialog_prompt(p->tui, "video file to upload", "", 1,
		    videos_upload_file, p, NULL);
		return (TUI_HANDLED);
	case ACTION_DIRECT_UPLOAD:
		if (tui_refuse_readonly(p->tui, "direct upload"))
			return (TUI_HANDLED);
		formview_open(p->tui, p, form_new(&kind_direct_uploads, NULL),
		    "new direct-upload URL", videos_direct_submit, NULL);
		return (TUI_HANDLED);
	case ACTION_DOWNLOAD:
		vidops_download(p);
		return (TUI_HANDLED);
	case ACTION_UPLOAD_FROM_URL:
		vidops_copy(p);
		return (TUI_HANDLED);
	case ACTION_CLIP:
		vidops_clip(p);
		return (TUI_HANDLED);
	case ACTION_EMBED:
		vidops_embed(p);
		return (TUI_HANDLED);
	case ACTION_AUDIO:
		videos_sub(p, &kind_audio_tracks);
		return (TUI_HANDLED);
	case ACTION_CAPTIONS:
		videos_sub(p, &kind_captions);
		return (TUI_HANDLED);
	case ACTION_SIGN_URL:
		signurl_open(p);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static int
videos_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*url, *uid;
	char		*text;

	if (r->type == TUI_REQ_LIST) {
		videos_list_page(p, r, ev);
		return (0);
	}
	if (r->type == TUI_REQ_OTHER && r->sub == VIDEOS_REFRESH) {
		videos_refreshed(p, r, ev);
		return (1);
	}
	if (vidops_event(p, r, ev))
		return (1);
	if (r->type == TUI_REQ_OTHER && r->sub == SIGNURL_REQ)
		return (signurl_event(p, r, ev));
	if (r->type != TUI_REQ_OTHER || r->sub != VIDEOS_DIRECT)
		return (0);
	if (ev->kind == JOBS_EVENT_FAILED) {
		if (r->modal == NULL || !formview_failed(p->tui, r->modal,
		    tui_cause(r, ev)))
			tui_message(p->tui, TUI_MSG_ERROR, "%s", tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	tui_journal(p->tui, r, ev->http_status, ev->result);
	if (r->modal != NULL)
		formview_close(p->tui, r->modal);
	url = cJSON_GetObjectItemCaseSensitive(ev->result, "uploadURL");
	uid = cJSON_GetObjectItemCaseSensitive(ev->result, "uid");
	if (!cJSON_IsString(url)) {
		tui_message(p->tui, TUI_MSG_ERROR, "the server sent no "
		    "uploadURL");
		return (1);
	}
	text = xprintf("One-time upload URL for video %s (a POST of the file, "
	    "no credentials needed):\n\n%s\n", cJSON_IsString(uid) ?
	    uid->valuestring : "?", url->valuestring);
	tui_push(p->tui, textview_result("direct upload", text, "the upload "
	    "URL", url->valuestring, 0));
	free(text);
	panel_load(p);	/* the reserved video is listed */
	return (1);
}

static void
videos_opened(struct panel *p)
{
	p->priv = xcalloc(1, sizeof (struct videos));
}

const struct panel_ops panel_videos_ops = {
	.kind = "videos",
	.action = videos_action,
	.event = videos_event,
	.opened = videos_opened,
	.shown = videos_shown,
	.closed = videos_closed,
	.hints = (const struct panel_hint[]){
		{ ACTION_UPLOAD, "upload" },
		{ ACTION_UPLOAD_FROM_URL, "from URL" },
		{ ACTION_DIRECT_UPLOAD, "one-time URL" },
		{ ACTION_DOWNLOAD, "download" },
		{ ACTION_CLIP, "clip" },
		{ ACTION_SIGN_URL, "sign URL" },
		{ ACTION_CAPTIONS, "captions" },
		{ ACTION_AUDIO, "audio" },
		{ ACTION_TRANSFERS, "transfers" },
		{ ACTION_NONE, NULL }
	},
};
