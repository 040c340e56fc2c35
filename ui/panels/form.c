/*
 * The generic panel's forms: n creates (no body, a form, or a file and a
 * form) and e edits a record in a form; what they submit.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "form_model.h"
#include "http.h"
#include "log.h"
#include "resource.h"
#include "tui.h"
#include "xmalloc.h"

static void
panel_form_submit(struct tui *t, struct panel *p, struct modal *m,
    cJSON *body, const char *id, const cJSON *before)
{
	struct tui_req	*r;
	char		*path, *cause = NULL;

	if (id != NULL || p->kind->shape == KIND_SHAPE_OBJECT) {
		panel_send_update(p, id, before, body, m);
		return;
	}
	if ((path = kind_create_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	r = tui_submit(t, p, TUI_REQ_CREATE, "POST", path, body);
	if (r != NULL) {
		r->modal = m;
		tui_message(t, TUI_MSG_INFO, "creating %s...", p->kind->name);
	}
	free(path);
}

void
panel_form_new(struct panel *p, const cJSON *rec, const char *id)
{
	struct form	*f;
	char		*title;

	f = form_new(p->kind, rec);
	if (f->nitems == 0) {
		form_free(f);
		tui_message(p->tui, TUI_MSG_WARN, "%s has no field to edit in "
		    "a form: use E", p->kind->name);
		return;
	}
	title = rec == NULL ? xprintf("new %s", p->kind->name) :
	    id != NULL ? xprintf("edit %s %s", p->kind->name, id) :
	    xprintf("edit %s", p->kind->name);
	formview_open(p->tui, p, f, title, panel_form_submit, id);
	free(title);
}

void
panel_form_reopen(struct panel *p, const cJSON *theirs, const cJSON *mine,
    const char *id)
{
	struct form	*f;
	char		*title;

	/* The server's copy is what the next save merges into. */
	f = form_new(p->kind, theirs);
	form_fill(f, mine);
	title = id != NULL ? xprintf("edit %s %s (the server's copy with "
	    "your changes)", p->kind->name, id) : xprintf("edit %s (the "
	    "server's copy with your changes)", p->kind->name);
	formview_open(p->tui, p, f, title, panel_form_submit, id);
	free(title);
}

/* ---- creating ---------------------------------------------------------------- */

static void
panel_create_plain(struct tui *t, void *arg, const char *answer)
{
	struct panel	*p = arg;
	char		*path, *cause = NULL;

	(void)answer;
	if ((path = kind_create_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if (tui_submit(t, p, TUI_REQ_CREATE, "POST", path, NULL) != NULL)
		tui_message(t, TUI_MSG_INFO, "creating %s...", p->kind->name);
	free(path);
}

/* Multipart: the file chosen first, then a form for the other parts. */
static void
panel_multipart_submit(struct tui *t, struct panel *p, struct modal *m,
    cJSON *body, const char *id, const cJSON *before)
{
	struct http_request	 hr;
	struct http_part	*parts;
	struct tui_req		*r;
	const struct kind_field	*f;
	const cJSON		*v;
	char			*path, *cause = NULL, **texts;
	size_t			 n = 0, i, max = 1;

	(void)id;
	(void)before;
	if ((path = kind_create_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	cJSON_ArrayForEach(v, body)
		max++;
	parts = xcalloc(max, sizeof *parts);
	texts = xcalloc(max, sizeof *texts);
	for (f = p->kind->fields; f->path != NULL; f++) {
		if (f->type == KIND_TYPE_FILE) {
			parts[n].name = f->path;
			parts[n++].file = p->upload_file;
			break;
		}
	}
	cJSON_ArrayForEach(v, body) {
		if (n == max)
			break;
		if (cJSON_IsString(v))
			texts[n] = xstrdup(v->valuestring);
		else if ((texts[n] = cJSON_PrintUnformatted(v)) == NULL)
			fatalx("out of memory");
		parts[n].name = v->string;
		parts[n].value = texts[n];
		n++;
	}
	memset(&hr, 0, sizeof hr);
	hr.method = "POST";
	hr.path = path;
	hr.parts = parts;
	hr.nparts = n;
	if (!tui_refuse_readonly(t, "upload") &&
	    (r = tui_submit_request(t, p, TUI_REQ_CREATE, &hr)) != NULL) {
		r->modal = m;
		tui_message(t, TUI_MSG_INFO, "uploading %s...", p->upload_file);
	}
	for (i = 0; i < n; i++)
		if (texts[i] != NULL)
			free(texts[i]);
	free(texts);
	free(parts);
	free(path);
}

static void
panel_multipart_file(struct tui *t, void *arg, const char *file)
{
	struct panel	*p = arg;
	struct form	*f;
	char		*title;

	if (*file == '\0')
		return;
	if (access(file, R_OK) != 0) {
		tui_message(t, TUI_MSG_ERROR, "%s: %s", file, strerror(errno));
		return;
	}
	free(p->upload_file);
	p->upload_file = xstrdup(file);
	f = form_new(p->kind, NULL);
	title = xprintf("new %s from %s", p->kind->name, file);
	formview_open(t, p, f, title, panel_multipart_submit, NULL);
	free(title);
}

void
panel_create(struct panel *p)
{
	const struct kind_field	*f;
	char			*q;

	switch (p->kind->create_body) {
	case KIND_BODY_NONE:
		q = xprintf("Create a new %s? (y/n)", p->kind->noun != NULL ?
		    p->kind->noun : p->kind->name);
		dialog_confirm(p->tui, "new", q, panel_create_plain, p, NULL);
		free(q);
		return;
	case KIND_BODY_MULTIPART:
		for (f = p->kind->fields; f->path != NULL; f++)
			if (f->type == KIND_TYPE_FILE)
				break;
		dialog_prompt(p->tui, f->help != NULL ? f->help : "file", "",
		    1, panel_multipart_file, p, NULL);
		return;
	default:
		panel_form_new(p, NULL, NULL);
		return;
	}
}
