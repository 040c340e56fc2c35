/*
 * Videos: u uploads a file (TUS, in the transfers tray), U makes a
 * one-time upload URL, D asks for the MP4 download, a and c open the
 * video's audio tracks and captions.
 */
#include "config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "form_model.h"
#include "transfers.h"
#include "tui.h"
#include "xmalloc.h"

enum {
	VIDEOS_DIRECT = 1
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
	const char	*id = panel_current_id(p);

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
		if (id != NULL)
			transfers_download(p->tui, id);
		return (TUI_HANDLED);
	case ACTION_AUDIO:
		videos_sub(p, &kind_audio_tracks);
		return (TUI_HANDLED);
	case ACTION_CAPTIONS:
		videos_sub(p, &kind_captions);
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

const struct panel_ops panel_videos_ops = {
	.kind = "videos",
	.action = videos_action,
	.event = videos_event,
	.hints = "u upload  U upload URL  D download  a audio  c captions  "
	    "T transfers",
};
