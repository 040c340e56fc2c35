/*
 * A video's captions (c on a video): n uploads a WebVTT file for a
 * language (the path completes with Tab), g generates captions in a
 * language picked from those Stream generates in (one that has a caption
 * is marked and refused here, as the server would), Enter shows the
 * WebVTT text, d deletes (the generic delete). The list shows each one's
 * status. Also the audio tracks list's reload after an edit.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "captionlang.h"
#include "http.h"
#include "streamx.h"
#include "tui.h"
#include "vidops.h"
#include "xmalloc.h"

enum {
	CAPTIONS_UPLOAD = 1,
	CAPTIONS_GENERATE,
	CAPTIONS_VTT
};

#define CAPTIONS_NLANGS	16	/* at least captionlang_generated's */

struct captions_upload {
	struct panel	*p;
	char		*file;
};

static void
captions_upload_free(void *arg)
{
	struct captions_upload	*u = arg;

	free(u->file);
	free(u);
}

static char *
captions_path(struct panel *p, const char *rest, const char *lang)
{
	char	*path, *cause = NULL;

	if ((path = streamx_path(p->vars, p->video, rest, lang,
	    &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

static void
captions_upload_lang(struct tui *t, void *arg, const char *lang)
{
	struct captions_upload	*u = arg, *again;
	struct http_request	 hr;
	struct http_part	 part;
	struct tui_req		*r;
	char			*path, *tag, *cause = NULL;

	if (*lang == '\0')
		return;
	if (streamx_language_check(lang, &cause) != 0) {
		/* This prompt frees u once answered: the next gets a copy. */
		again = xcalloc(1, sizeof *again);
		again->p = u->p;
		again->file = xstrdup(u->file);
		dialog_prompt_again(t, "language of the captions (en, pt-BR "
		    "...)", lang, cause, 0, captions_upload_lang, again,
		    captions_upload_free);
		free(cause);
		return;
	}
	tag = xstrdup(lang);
	captionlang_canon(tag);		/* EN and en are one caption */
	path = captions_path(u->p, "/captions/{name}", tag);
	if (path == NULL) {
		free(tag);
		return;
	}
	memset(&part, 0, sizeof part);
	part.name = "file";
	part.file = u->file;
	part.type = "text/vtt";
	memset(&hr, 0, sizeof hr);
	hr.method = "PUT";
	hr.path = path;
	hr.parts = &part;
	hr.nparts = 1;
	if ((r = tui_submit_request(t, u->p, TUI_REQ_OTHER, &hr)) != NULL) {
		r->sub = CAPTIONS_UPLOAD;
		tui_message(t, TUI_MSG_INFO, "uploading %s as the %s captions",
		    u->file, tag);
	}
	free(path);
	free(tag);
}

static void
captions_upload_file(struct tui *t, void *arg, const char *file)
{
	struct captions_upload	*u;
	char			*cause = NULL;

	if (*file == '\0')
		return;
	if (streamx_vtt_check(file, &cause) != 0) {
		dialog_prompt_again(t, "WebVTT file to upload", file, cause, 1,
		    captions_upload_file, arg, NULL);
		free(cause);
		return;
	}
	u = xcalloc(1, sizeof *u);
	u->p = arg;
	u->file = xstrdup(file);
	dialog_prompt(t, "language of the captions (en, pt-BR ...)", "en", 0,
	    captions_upload_lang, u, captions_upload_free);
}

/* Whether the list holds a caption in tag: generating it is refused. */
static int
captions_taken(struct panel *p, const char *tag)
{
	return (p->rows != NULL && rows_has(p->rows, tag));
}

static void
captions_generate_picked(struct tui *t, void *arg, size_t i, int other)
{
	struct panel	*p = arg;
	struct tui_req	*r;
	const char	*tag;
	char		*path;

	(void)other;
	if (i >= CAPTIONS_NLANGS || captionlang_generated[i].tag == NULL)
		return;
	tag = captionlang_generated[i].tag;
	/* The server answers 409: delete first, as it would say. */
	if (captions_taken(p, tag)) {
		tui_message(t, TUI_MSG_ERROR, "a caption in %s exists: delete "
		    "it first (d)", tag);
		return;
	}
	if ((path = captions_path(p, "/captions/{name}/generate", tag)) ==
	    NULL)
		return;
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", path, NULL);
	if (r != NULL)
		r->sub = CAPTIONS_GENERATE;
	free(path);
}

/*
 * The picker lists every language Stream generates captions in, those
 * with a caption already marked (picking one says why not), the cursor
 * on the first free one.
 */
static void
captions_generate(struct panel *p)
{
	const struct captionlang	*l = captionlang_generated;
	const char			*items[CAPTIONS_NLANGS];
	char				 labels[CAPTIONS_NLANGS][96], *list;
	size_t				 i, first = CAPTIONS_NLANGS;

	if (tui_refuse_readonly(p->tui, "generate"))
		return;
	if (!p->loaded) {
		tui_message(p->tui, TUI_MSG_WARN, "the captions are not listed "
		    "yet: g once they are");
		return;
	}
	for (i = 0; i < CAPTIONS_NLANGS && l[i].tag != NULL; i++) {
		if (!captions_taken(p, l[i].tag)) {
			snprintf(labels[i], sizeof labels[i], "%s  %s",
			    l[i].tag, l[i].name);
			if (first == CAPTIONS_NLANGS)
				first = i;
		} else
			snprintf(labels[i], sizeof labels[i], "%s  %s  (has "
			    "a caption: delete it first)", l[i].tag,
			    l[i].name);
		items[i] = labels[i];
	}
	if (first == CAPTIONS_NLANGS) {
		list = captionlang_list();
		tui_message(p->tui, TUI_MSG_WARN, "this video has captions in "
		    "every language Stream generates (%s): delete one to "
		    "generate it again", list);
		free(list);
		return;
	}
	picker_open(p->tui, "generate captions in", items, i, first,
	    captions_generate_picked, p);
}

static void
captions_vtt(struct panel *p)
{
	struct http_request	 hr;
	struct tui_req		*r;
	const char		*id = panel_current_id(p);
	const char		*headers[] = { "Accept: text/vtt", NULL };
	char			*path;

	if (id == NULL || (path = captions_path(p, "/captions/{name}/vtt",
	    id)) == NULL)
		return;
	memset(&hr, 0, sizeof hr);
	hr.method = "GET";
	hr.path = path;
	hr.headers = headers;
	hr.raw = 1;
	if ((r = tui_submit_request(p->tui, p, TUI_REQ_OTHER, &hr)) != NULL) {
		r->sub = CAPTIONS_VTT;
		r->id = xstrdup(id);
	}
	free(path);
}

static int
captions_action(struct panel *p, enum action a)
{
	switch (a) {
	case ACTION_NEW:
	case ACTION_UPLOAD:
		if (tui_refuse_readonly(p->tui, "upload"))
			return (TUI_HANDLED);
		dialog_prompt(p->tui, "WebVTT file to upload", "", 1,
		    captions_upload_file, p, NULL);
		return (TUI_HANDLED);
	case ACTION_GENERATE:
		captions_generate(p);
		return (TUI_HANDLED);
	case ACTION_DETAILS:
		if (p->view != PANEL_LIST)
			return (0);
		captions_vtt(p);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static void
captions_vtt_done(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*ct = http_response_header(&ev->resp, "Content-Type");
	char		*text, *title;

	if (!streamx_content_type_is(ct, "text/vtt") || ev->resp.body ==
	    NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "captions: the answer is "
		    "%s, not text/vtt", ct != NULL ? ct : "untyped");
		return;
	}
	text = xstrndup(ev->resp.body, ev->resp.len);
	title = xprintf("captions %s of %s", r->id != NULL ? r->id : "",
	    p->video != NULL ? p->video : "");
	tui_push(p->tui, textview_result(title, text, "the WebVTT", text, 0));
	free(title);
	free(text);
}

static int
captions_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*lang, *status;

	if (r->type != TUI_REQ_OTHER)
		return (0);
	if (ev->kind == JOBS_EVENT_FAILED) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	if (r->sub == CAPTIONS_VTT) {
		captions_vtt_done(p, r, ev);
		return (1);
	}
	tui_journal(p->tui, r, ev->http_status, ev->result);
	lang = cJSON_GetObjectItemCaseSensitive(ev->result, "language");
	status = cJSON_GetObjectItemCaseSensitive(ev->result, "status");
	tui_message(p->tui, TUI_MSG_OK, "captions %s: %s%s",
	    cJSON_IsString(lang) ? lang->valuestring : "?",
	    r->sub == CAPTIONS_GENERATE ? "being generated" : "uploaded",
	    cJSON_IsString(status) && strcmp(status->valuestring,
	    "inprogress") == 0 ? " (r shows when they are ready)" : "");
	panel_load(p);
	return (1);
}

const struct panel_ops panel_captions_ops = {
	.kind = "captions",
	.action = captions_action,
	.event = captions_event,
	.delete_warning = "the captions in this language are deleted",
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "upload" },
		{ ACTION_GENERATE, "generate" },
		{ ACTION_DETAILS, "VTT" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_NONE, NULL }
	},
};

/*
 * A video's audio tracks: e edits the label and the default. Making one
 * track the default takes it from the others, so after a save the whole
 * list is read again (the generic code then shows the saved row at once).
 */
static int
audio_tracks_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	if (r->type == TUI_REQ_UPDATE && ev->kind == JOBS_EVENT_DONE)
		panel_load(p);
	return (0);
}

const struct panel_ops panel_audio_tracks_ops = {
	.kind = "audio-tracks",
	.event = audio_tracks_event,
};
