/*
 * User schemas: upload an OpenAPI file (Tab completes the path), details
 * without the source unless asked (S), validation turned on with t (the
 * API cannot turn it off: deleting the schema does).
 */
#include "config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "tui.h"
#include "xmalloc.h"

enum {
	USCHEMA_UPLOAD = 1,
	USCHEMA_SOURCE
};

struct uschema_upload {
	struct panel	*p;
	char		*file;
};

static void
uschema_upload_free(void *arg)
{
	struct uschema_upload	*u = arg;

	free(u->file);
	free(u);
}

static void
uschema_send(struct tui *t, void *arg, const char *name)
{
	struct uschema_upload	*u = arg;
	struct http_request	 hr;
	struct http_part	 parts[4];
	struct tui_req		*r;
	char			*path, *cause = NULL, *copy;

	if (tui_refuse_readonly(t, "upload"))
		return;
	if ((path = kind_create_path(u->p->kind, u->p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	copy = xstrdup(u->file);
	memset(parts, 0, sizeof parts);
	parts[0].name = "file";
	parts[0].file = u->file;
	parts[1].name = "kind";
	parts[1].value = "openapi_v3";
	parts[2].name = "name";
	parts[2].value = *name != '\0' ? name : basename(copy);
	parts[3].name = "validation_enabled";
	parts[3].value = "false";
	memset(&hr, 0, sizeof hr);
	hr.method = "POST";
	hr.path = path;
	hr.parts = parts;
	hr.nparts = nitems(parts);
	r = tui_submit_request(t, u->p, TUI_REQ_OTHER, &hr);
	if (r != NULL) {
		r->sub = USCHEMA_UPLOAD;
		tui_message(t, TUI_MSG_INFO, "uploading %s...", u->file);
	}
	free(copy);
	free(path);
}

static void
uschema_file(struct tui *t, void *arg, const char *file)
{
	struct uschema_upload	*u;
	struct panel		*p = arg;
	char			*copy, *q;

	if (*file == '\0')
		return;
	u = xcalloc(1, sizeof *u);
	u->p = p;
	u->file = xstrdup(file);
	copy = xstrdup(file);
	q = xprintf("name for the schema (Enter: %s)", basename(copy));
	dialog_prompt(t, q, "", 0, uschema_send, u, uschema_upload_free);
	free(q);
	free(copy);
}

static void
uschema_get(struct panel *p, int source)
{
	struct tui_req	*r;
	const char	*id = panel_current_id(p);
	char		*path, *full;
	cJSON		*rec;

	if (id == NULL || (path = panel_item_path(p, id)) == NULL)
		return;
	if (!source && (rec = panel_current_record(p)) != NULL) {
		/* The list's copy may hold it: not shown while the GET runs. */
		cJSON_DeleteItemFromObjectCaseSensitive(rec, "source");
		panel_show_record(p, rec);
		p->detail.top = 0;
		cJSON_Delete(rec);
	}
	full = xprintf("%s?omit_source=%s", path, source ? "false" : "true");
	r = tui_submit(p->tui, p, source ? TUI_REQ_OTHER : TUI_REQ_GET, "GET",
	    full, NULL);
	if (r != NULL) {
		r->sub = USCHEMA_SOURCE;
		r->id = xstrdup(id);
	}
	free(full);
	free(path);
}

static void
uschema_validation(struct panel *p)
{
	struct tui_req	*r;
	cJSON		*rec, *body;
	const char	*id = panel_current_id(p);
	char		*path;

	if (tui_refuse_readonly(p->tui, "validation on"))
		return;
	if (id == NULL || (rec = panel_current_record(p)) == NULL)
		return;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec,
	    "validation_enabled"))) {
		tui_message(p->tui, TUI_MSG_WARN, "validation is on; the API "
		    "cannot turn it off: delete the schema (d) to stop "
		    "validating with it");
		cJSON_Delete(rec);
		return;
	}
	body = cJSON_CreateObject();
	cJSON_AddTrueToObject(body, "validation_enabled");
	if ((path = panel_item_path(p, id)) != NULL &&
	    (r = tui_submit(p->tui, p, TUI_REQ_UPDATE, "PATCH", path,
	    body)) != NULL) {
		r->id = xstrdup(id);
		r->before = rec;
		rec = NULL;
	}
	free(path);
	cJSON_Delete(body);
	cJSON_Delete(rec);
}

static int
uschema_action(struct panel *p, enum action a)
{
	switch (a) {
	case ACTION_NEW:
	case ACTION_UPLOAD:
		if (tui_refuse_readonly(p->tui, "upload"))
			return (TUI_HANDLED);
		dialog_prompt(p->tui, "OpenAPI v3 file to upload (JSON or "
		    "YAML)", "", 1, uschema_file, p, NULL);
		return (TUI_HANDLED);
	case ACTION_DETAILS:
		if (p->view != PANEL_LIST)
			return (0);
		uschema_get(p, 0);
		return (TUI_HANDLED);
	case ACTION_SOURCE:
		uschema_get(p, 1);
		return (TUI_HANDLED);
	case ACTION_TOGGLE:
		uschema_validation(p);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static void
uschema_upload_done(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*schema, *warn, *first;

	schema = cJSON_GetObjectItemCaseSensitive(ev->result, "schema");
	tui_journal(p->tui, r, ev->http_status, schema);
	if (cJSON_IsObject(schema))
		rows_put(p->rows, schema);
	panel_after_change(p);
	warn = kind_json_get(ev->result, "upload_details.warnings");
	first = cJSON_GetArrayItem(warn, 0);
	if (first != NULL && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
	    first, "message")))
		tui_message(p->tui, TUI_MSG_WARN, "uploaded, with %d "
		    "warning%s: %s", cJSON_GetArraySize(warn),
		    cJSON_GetArraySize(warn) == 1 ? "" : "s",
		    cJSON_GetObjectItemCaseSensitive(first,
		    "message")->valuestring);
	else
		tui_message(p->tui, TUI_MSG_OK, "uploaded %s",
		    cJSON_IsObject(schema) && kind_record_id(p->kind, schema) ?
		    kind_record_id(p->kind, schema) : "");
}

static int
uschema_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*src;
	char		*title;

	if (r->type != TUI_REQ_OTHER)
		return (0);
	if (ev->kind == JOBS_EVENT_FAILED) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	if (r->sub == USCHEMA_UPLOAD) {
		uschema_upload_done(p, r, ev);
		return (1);
	}
	src = cJSON_GetObjectItemCaseSensitive(ev->result, "source");
	title = xprintf("source of %s", r->id);
	tui_push(p->tui, textview_modal(title, cJSON_IsString(src) ?
	    src->valuestring : "(the server sent no source)"));
	free(title);
	return (1);
}

const struct panel_ops panel_user_schemas_ops = {
	.kind = "user-schemas",
	.action = uschema_action,
	.event = uschema_event,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "upload" },
		{ ACTION_SOURCE, "source" },
		{ ACTION_TOGGLE, "validation on" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_NONE, NULL }
	},
};
