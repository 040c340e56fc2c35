/*
 * The videos list's operations beyond the generic panel: L asks for a URL
 * and a name and has the server copy the video (the tray watches it until
 * ready or error), C opens a start/end form and makes a clip, D asks which
 * download (the MP4 or the audio M4A) of the video or of the marked ones,
 * and in the details the embed snippet is fetched and copied.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "form_model.h"
#include "http.h"
#include "streamrules.h"
#include "streamx.h"
#include "transfers.h"
#include "tui.h"
#include "vidops.h"
#include "xmalloc.h"

enum {
	VIDOPS_COPY = VIDOPS_SUB_FIRST,
	VIDOPS_CLIP,
	VIDOPS_EMBED
};

/* ---- L: upload from a URL ------------------------------------------------ */

struct vidops_copy {
	struct panel	*p;
	char		*url;
};

static void
vidops_copy_free(void *arg)
{
	struct vidops_copy	*c = arg;

	free(c->url);
	free(c);
}

/* A name from the URL: its last path segment, without a query. */
static char *
vidops_url_name(const char *url)
{
	const char	*s, *e;

	e = url + strcspn(url, "?#");
	while (e > url && e[-1] == '/')
		e--;
	for (s = e; s > url && s[-1] != '/'; s--)
		;
	if (s == e || (s >= url + 2 && s[-2] == '/'))
		return (xstrdup(""));
	return (xstrndup(s, (size_t)(e - s)));
}

static void
vidops_copy_name(struct tui *t, void *arg, const char *name)
{
	struct vidops_copy	*c = arg;
	struct panel		*p = c->p;
	struct tui_req		*r;
	cJSON			*body;
	char			*path, *cause = NULL;

	if ((path = streamx_path(p->vars, NULL, "/copy", NULL,
	    &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	body = streamx_copy_body(c->url, *name != '\0' ? name : NULL, NULL, 0);
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", path, body);
	if (r != NULL) {
		r->sub = VIDOPS_COPY;
		tui_message(t, TUI_MSG_INFO, "asking the server to fetch %s",
		    c->url);
	}
	cJSON_Delete(body);
	free(path);
}

static void
vidops_copy_url(struct tui *t, void *arg, const char *url)
{
	struct vidops_copy	*c;
	char			*cause = NULL, *name, *q;

	if (*url == '\0')
		return;
	if (streamx_url_check(url, &cause) != 0) {
		dialog_prompt_again(t, "URL of the video to upload (the server "
		    "fetches it)", url, cause, 0, vidops_copy_url, arg, NULL);
		free(cause);
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->p = arg;
	c->url = xstrdup(url);
	name = vidops_url_name(url);
	q = *name != '\0' ? xprintf("name of the video (Enter: %s)", name) :
	    xstrdup("name of the video");
	dialog_prompt(t, q, name, 0, vidops_copy_name, c, vidops_copy_free);
	free(q);
	free(name);
}

void
vidops_copy(struct panel *p)
{
	if (tui_refuse_readonly(p->tui, "upload from a URL"))
		return;
	dialog_prompt(p->tui, "URL of the video to upload (the server fetches "
	    "it)", "", 0, vidops_copy_url, p, NULL);
}

/* ---- C: clip ------------------------------------------------------------- */

static void
vidops_clip_submit(struct tui *t, struct panel *p, struct modal *m,
    cJSON *body, const char *id, const cJSON *before)
{
	struct tui_req	*r;
	char		*path, *cause = NULL;

	(void)id;
	(void)before;
	if ((path = streamx_path(p->vars, NULL, "/clip", NULL,
	    &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", path, body);
	if (r != NULL) {
		r->sub = VIDOPS_CLIP;
		r->modal = m;
	}
	free(path);
}

void
vidops_clip(struct panel *p)
{
	const char	*id = panel_current_id(p);
	const cJSON	*name, *dur;
	cJSON		*rec, *pre;
	char		*title, *n;

	if (id == NULL || tui_refuse_readonly(p->tui, "clip"))
		return;
	rec = panel_current_record(p);
	name = kind_json_get(rec, "meta.name");
	dur = kind_json_get(rec, "duration");
	pre = cJSON_CreateObject();
	cJSON_AddStringToObject(pre, "clippedFromVideoUID", id);
	cJSON_AddNumberToObject(pre, "startTimeSeconds", 0);
	if (cJSON_IsNumber(dur) && dur->valuedouble > 0)
		cJSON_AddNumberToObject(pre, "endTimeSeconds",
		    dur->valuedouble);
	n = xprintf("%s (clip)", cJSON_IsString(name) ? name->valuestring :
	    id);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(pre, "meta"), "name",
	    n);
	title = xprintf("clip of %s", cJSON_IsString(name) ?
	    name->valuestring : id);
	formview_open(p->tui, p, form_new(&kind_clips, pre), title,
	    vidops_clip_submit, NULL);
	free(title);
	free(n);
	cJSON_Delete(pre);
	cJSON_Delete(rec);
}

/* ---- D: which download --------------------------------------------------- */

static const char *const vidops_dl_items[] = {
	"default: the MP4 video", "audio: the M4A audio only"
};

/*
 * The cursor and the marks cannot change while the picker is up: the
 * targets are still the marked videos, else the one under the cursor.
 */
static void
vidops_download_picked(struct tui *t, void *arg, size_t i, int other)
{
	struct panel	*p = arg;
	const char	**ids;
	const cJSON	*name;
	cJSON		*rec;
	size_t		 n, k;
	long		 at;
	char		 note[64];

	(void)other;
	if (i >= nitems(vidops_dl_items) ||
	    (ids = panel_targets(p, &n)) == NULL)
		return;
	for (k = 0; k < n; k++) {
		rec = (at = rows_find(p->rows, ids[k])) >= 0 ?
		    rows_record(p->rows, (size_t)at) : NULL;
		name = kind_json_get(rec, "meta.name");
		transfers_download(t, ids[k], cJSON_IsString(name) ?
		    name->valuestring : NULL, streamrules_download_types[i]);
		cJSON_Delete(rec);
	}
	if (n > 1) {
		status_key_note(t, KEYMAP_GLOBAL, ACTION_TRANSFERS,
		    "shows transfers", note, sizeof note);
		tui_message(t, TUI_MSG_INFO, "%s downloads of %zu videos "
		    "requested%s", i == 0 ? "MP4" : "audio (M4A)", n, note);
		rows_mark_all(p->rows, 0);
	}
	free(ids);
}

/* D: a download of the marked videos, else of the one under the cursor. */
void
vidops_download(struct panel *p)
{
	size_t	n = rows_mark_count(p->rows);
	char	*title;

	if (panel_current_id(p) == NULL ||
	    tui_refuse_readonly(p->tui, "download request"))
		return;
	title = n > 0 ? xprintf("which download of the %zu marked video%s",
	    n, n == 1 ? "" : "s") : xstrdup("which download");
	picker_open(p->tui, title, vidops_dl_items, nitems(vidops_dl_items),
	    0, vidops_download_picked, p);
	free(title);
}

/* ---- the embed snippet --------------------------------------------------- */

void
vidops_embed(struct panel *p)
{
	struct http_request	 hr;
	struct tui_req		*r;
	const char		*id = panel_current_id(p);
	const char		*headers[] = { "Accept: text/html", NULL };
	char			*path, *cause = NULL;

	if (id == NULL)
		return;
	if ((path = streamx_path(p->vars, id, "/embed", NULL,
	    &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	memset(&hr, 0, sizeof hr);
	hr.method = "GET";
	hr.path = path;
	hr.headers = headers;
	hr.raw = 1;
	if ((r = tui_submit_request(p->tui, p, TUI_REQ_OTHER, &hr)) != NULL)
		r->sub = VIDOPS_EMBED;
	free(path);
}

/* ---- answers ------------------------------------------------------------- */

static void
vidops_new_video(struct panel *p, struct tui_req *r, struct jobs_event *ev,
    const char *what)
{
	const cJSON	*uid, *name;

	tui_journal(p->tui, r, ev->http_status, ev->result);
	if (r->modal != NULL)
		formview_close(p->tui, r->modal);
	uid = cJSON_GetObjectItemCaseSensitive(ev->result, "uid");
	name = kind_json_get(ev->result, "meta.name");
	if (!cJSON_IsString(uid)) {
		tui_message(p->tui, TUI_MSG_ERROR, "the server sent no uid");
		return;
	}
	tui_message(p->tui, TUI_MSG_OK, "%s: video %s; watching it in the "
	    "transfers tray (T)", what, uid->valuestring);
	transfers_watch(p->tui, uid->valuestring, cJSON_IsString(name) ?
	    name->valuestring : NULL);
	panel_load(p);
}

static void
vidops_embed_done(struct panel *p, struct jobs_event *ev)
{
	const char	*ct = http_response_header(&ev->resp, "Content-Type");
	char		*html;

	if (!streamx_content_type_is(ct, "text/html") || ev->resp.body ==
	    NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "embed: the answer is %s, "
		    "not text/html", ct != NULL ? ct : "untyped");
		return;
	}
	html = xstrndup(ev->resp.body, ev->resp.len);
	tui_copy(p->tui, "the embed snippet", html);
	free(html);
}

int
vidops_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	if (r->type != TUI_REQ_OTHER || (r->sub != VIDOPS_COPY &&
	    r->sub != VIDOPS_CLIP && r->sub != VIDOPS_EMBED))
		return (0);
	if (ev->kind == JOBS_EVENT_FAILED) {
		if (r->modal == NULL || !formview_failed(p->tui, r->modal,
		    tui_cause(r, ev)))
			tui_message(p->tui, TUI_MSG_ERROR, "%s",
			    tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	switch (r->sub) {
	case VIDOPS_COPY:
		vidops_new_video(p, r, ev, "copy from the URL started");
		break;
	case VIDOPS_CLIP:
		vidops_new_video(p, r, ev, "clip made");
		break;
	default:
		vidops_embed_done(p, ev);
		break;
	}
	return (1);
}
