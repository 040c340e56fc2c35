/*
 * Schemas for schema validation, on the current API (validation-schemas)
 * or the classic one (user-schemas): upload an OpenAPI file (Tab completes
 * the path), details without the source unless asked (S), validation on
 * with t (and off, on the current API), delete naming the operations that
 * lose validation. A server without the current API (404) gets the
 * classic one, and the title says so.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "http.h"
#include "text.h"
#include "tui.h"
#include "validate.h"
#include "xmalloc.h"

#define USCHEMA_CLASSIC_NOTE	"classic API: this server has no current one"
/* Operations named in the delete question; the rest are counted. */
#define USCHEMA_OPS_NAMED	5

enum {
	USCHEMA_UPLOAD = 1,
	USCHEMA_SOURCE,
	USCHEMA_OPS,
	USCHEMA_MARKED		/* validation of marked schemas */
};

/* Whether the panel speaks the classic API (user-schemas). */
static int
uschema_classic(const struct panel *p)
{
	return (p->kind == &kind_user_schemas);
}

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

/* Whether text (len bytes) is UTF-8 without NUL, as a JSON string must be. */
static int
uschema_utf8(const char *text, size_t len)
{
	uint32_t	cp;
	size_t		i, n;

	for (i = 0; i < len; i += n)
		if ((n = text_utf8_decode(text + i, len - i, &cp)) == 0 ||
		    cp == 0)
			return (0);
	return (1);
}

/* The current API's upload: JSON with the file's text as source. */
static void
uschema_send_json(struct tui *t, struct uschema_upload *u, const char *path,
    const char *name)
{
	struct tui_req	*r;
	cJSON		*body;
	char		*text, *cause = NULL;
	size_t		 len;

	if ((text = edit_read_file(u->file, &len, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if (!uschema_utf8(text, len)) {
		tui_message(t, TUI_MSG_ERROR, "%s: not UTF-8 text; nothing was "
		    "sent", u->file);
		free(text);
		return;
	}
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "kind", "openapi_v3");
	cJSON_AddStringToObject(body, "name", name);
	cJSON_AddStringToObject(body, "source", text);
	cJSON_AddFalseToObject(body, "validation_enabled");
	free(text);
	r = tui_submit(t, u->p, TUI_REQ_OTHER, "POST", path, body);
	if (r != NULL) {
		r->sub = USCHEMA_UPLOAD;
		tui_message(t, TUI_MSG_INFO, "uploading %s...", u->file);
	}
	cJSON_Delete(body);
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
	if (!uschema_classic(u->p)) {
		uschema_send_json(t, u, path, *name != '\0' ? name :
		    basename(copy));
		free(copy);
		free(path);
		return;
	}
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

/* What the kind checks of the file to upload (its OpenAPI version). */
static char *
uschema_check(const struct panel *p, const char *file)
{
	const struct kind_field	*f;
	cJSON			*v;
	char			*cause = NULL;

	for (f = p->kind->fields; f->path != NULL; f++)
		if (f->type == KIND_TYPE_FILE)
			break;
	if (f->path == NULL)
		return (NULL);
	v = cJSON_CreateString(file);
	if (validate_field(f, v, &cause) != 0 && cause == NULL)
		cause = xstrdup("refused");
	cJSON_Delete(v);
	return (cause);
}

static void
uschema_file(struct tui *t, void *arg, const char *file)
{
	struct uschema_upload	*u;
	struct panel		*p = arg;
	struct stat		 sb;
	char			*copy, *q;

	if (*file == '\0')
		return;
	/* The file first: no name is asked for a file that cannot be sent. */
	if (stat(file, &sb) != 0) {
		tui_message(t, TUI_MSG_ERROR, "%s: %s; nothing was sent", file,
		    strerror(errno));
		return;
	}
	if (S_ISDIR(sb.st_mode)) {
		tui_message(t, TUI_MSG_ERROR, "%s: a directory, not a file; "
		    "nothing was sent", file);
		return;
	}
	if ((q = uschema_check(p, file)) != NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s; nothing was sent", q);
		free(q);
		return;
	}
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

/*
 * PATCH validation_enabled of schema id; count: of marked schemas, those
 * set at once (their answers make one message), else 0.
 */
static void
uschema_validation_send(struct panel *p, const char *id, int on,
    size_t count)
{
	struct tui_req	*r;
	cJSON		*body;
	char		*path;
	long		 i;

	body = cJSON_CreateObject();
	cJSON_AddBoolToObject(body, "validation_enabled", on);
	if ((path = panel_item_path(p, id)) != NULL &&
	    (r = tui_submit(p->tui, p, TUI_REQ_UPDATE, "PATCH", path,
	    body)) != NULL) {
		r->id = xstrdup(id);
		r->count = count;
		r->sub = count > 0 ? USCHEMA_MARKED : 0;
		if ((i = rows_find(p->rows, id)) >= 0)
			r->before = rows_record(p->rows, (size_t)i);
	}
	free(path);
	cJSON_Delete(body);
}

/* Whether listed schema id validates: 1, 0, or -1 when not listed. */
static int
uschema_enabled(struct panel *p, const char *id)
{
	cJSON	*rec;
	long	 i;
	int	 on;

	if ((i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return (-1);
	on = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec,
	    "validation_enabled"));
	cJSON_Delete(rec);
	return (on);
}

/* The marked schemas, all one way, once the question is answered. */
struct uschema_marked {
	struct panel	*p;
	char		**ids;
	size_t		  n;
	int		  on;
};

static void
uschema_marked_free(void *arg)
{
	struct uschema_marked	*m = arg;
	size_t			 i;

	for (i = 0; i < m->n; i++)
		free(m->ids[i]);
	free(m->ids);
	free(m);
}

static void
uschema_marked_yes(struct tui *t, void *arg, const char *answer)
{
	struct uschema_marked	*m = arg;
	size_t			 i, send = 0;

	(void)t;
	(void)answer;
	for (i = 0; i < m->n; i++)
		if (uschema_enabled(m->p, m->ids[i]) != m->on)
			send++;
	for (i = 0; i < m->n; i++)
		if (uschema_enabled(m->p, m->ids[i]) != m->on)
			uschema_validation_send(m->p, m->ids[i], m->on, send);
	rows_mark_all(m->p->rows, 0);
}

/*
 * t on marked schemas: validation on for all of them when any is off,
 * else off for all (not on the classic API, which cannot), after a
 * question naming them.
 */
static void
uschema_validation_marked(struct panel *p, const char **ids, size_t n)
{
	struct uschema_marked	*m;
	struct buf		 q;
	size_t			 i, on = 0;

	for (i = 0; i < n; i++)
		if (uschema_enabled(p, ids[i]) == 1)
			on++;
	if (on == n && uschema_classic(p)) {
		tui_message(p->tui, TUI_MSG_WARN, "validation is on for all "
		    "of them; the API cannot turn it off: delete a schema (d) "
		    "to stop validating with it");
		return;
	}
	m = xcalloc(1, sizeof *m);
	m->p = p;
	m->on = on < n;
	m->n = n;
	m->ids = xcalloc(n, sizeof *m->ids);
	for (i = 0; i < n; i++)
		m->ids[i] = xstrdup(ids[i]);
	buf_init(&q);
	buf_addf(&q, "Turn validation %s for %zu %s%s (%s)? %zu on, %zu off "
	    "now.", m->on ? "on" : "off", n, panel_noun(p), n == 1 ? "" : "s",
	    panel_marks_note(p), on, n - on);
	panel_name_targets(p, (const char *const *)m->ids, n, &q);
	buf_adds(&q, " (y/n)");
	dialog_confirm(p->tui, m->on ? "validation on" : "validation off",
	    buf_str(&q), uschema_marked_yes, m, uschema_marked_free);
	buf_free(&q);
}

/* t: the marked schemas, else the one under the cursor flipped. */
static void
uschema_validation(struct panel *p)
{
	const char	**ids;
	size_t		  n;
	int		  on;

	if (tui_refuse_readonly(p->tui, "validation on/off"))
		return;
	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		return;
	}
	if (rows_mark_count(p->rows) > 0)
		uschema_validation_marked(p, ids, n);
	else if ((on = uschema_enabled(p, ids[0])) == 1 &&
	    uschema_classic(p))
		tui_message(p->tui, TUI_MSG_WARN, "validation is on; the API "
		    "cannot turn it off: delete the schema (d) to stop "
		    "validating with it");
	else if (on >= 0)
		uschema_validation_send(p, ids[0], !on, 0);
	free(ids);
}

/*
 * The answer for one of the marked schemas: into its row, and one
 * message after the last.
 */
static int
uschema_validation_done(struct panel *p, struct tui_req *r,
    struct jobs_event *ev)
{
	struct tui_req	*o;

	if (r->sub != USCHEMA_MARKED || ev->kind != JOBS_EVENT_DONE)
		return (0);
	tui_journal(p->tui, r, ev->http_status, ev->result);
	if (panel_merge(p, r->id, ev->result) != 0)
		panel_load(p);
	panel_after_change(p);
	for (o = p->tui->reqs; o != NULL; o = o->next)
		if (o != r && o->panel == p && o->type == TUI_REQ_UPDATE &&
		    o->sub == USCHEMA_MARKED)
			return (1);
	tui_message(p->tui, TUI_MSG_OK, "validation %s for %zu %s%s",
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev->result,
	    "validation_enabled")) ? "on" : "off", r->count, panel_noun(p),
	    r->count == 1 ? "" : "s");
	return (1);
}

/* The delete in flight: the schema and what the question says. */
struct uschema_delete {
	struct panel	*p;
	char		*id;
};

static void
uschema_delete_free(void *arg)
{
	struct uschema_delete	*d = arg;

	free(d->id);
	free(d);
}

static void
uschema_delete_yes(struct tui *t, void *arg, const char *answer)
{
	struct uschema_delete	*d = arg;
	struct tui_req		*r;
	char			*path;
	long			 i;

	(void)answer;
	if ((path = panel_item_path(d->p, d->id)) == NULL)
		return;
	r = tui_submit(t, d->p, TUI_REQ_DELETE, "DELETE", path, NULL);
	if (r != NULL) {
		r->id = xstrdup(d->id);
		r->count = 1;
		if ((i = rows_find(d->p->rows, d->id)) >= 0)
			r->before = rows_record(d->p->rows, (size_t)i);
	}
	free(path);
}

/* A string member, or "?" (a question is never short of its words). */
static const char *
uschema_str(const cJSON *o, const char *name)
{
	const char	*s;

	s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, name));
	return (s != NULL ? s : "?");
}

/*
 * The question, once the schema's operations are known (ops NULL: they
 * could not be read, why says so): those in endpoint management lose its
 * validation.
 */
static void
uschema_delete_ask(struct panel *p, const char *id, const cJSON *ops,
    long total, const char *why)
{
	struct uschema_delete	*d;
	const cJSON		*op;
	struct buf		 q;
	int			 n = 0, named = 0;

	buf_init(&q);
	buf_addf(&q, "Delete %s ", panel_noun(p));
	panel_name_record(p, id, &q);
	buf_adds(&q, "?");
	cJSON_ArrayForEach(op, ops)
		if (cJSON_GetObjectItemCaseSensitive(op, "operation_id") !=
		    NULL)
			n++;
	if (ops == NULL)
		buf_addf(&q, "\n(its operations could not be listed: %s)", why);
	else if (n == 0)
		buf_adds(&q, "\nNo saved operation loses validation.");
	else {
		buf_addf(&q, "\n%d operation%s lose%s validation:", n,
		    n == 1 ? "" : "s", n == 1 ? "s" : "");
		cJSON_ArrayForEach(op, ops) {
			if (cJSON_GetObjectItemCaseSensitive(op,
			    "operation_id") == NULL)
				continue;
			if (named++ == USCHEMA_OPS_NAMED) {
				buf_addf(&q, "\n  and %d more", n -
				    USCHEMA_OPS_NAMED);
				break;
			}
			buf_addf(&q, "\n  %s %s%s", uschema_str(op, "method"),
			    uschema_str(op, "host"),
			    uschema_str(op, "endpoint"));
		}
	}
	if (ops != NULL && total > cJSON_GetArraySize(ops))
		buf_addf(&q, "\n(the first %d of its %ld operations)",
		    cJSON_GetArraySize(ops), total);
	buf_adds(&q, " (y/n)");
	d = xcalloc(1, sizeof *d);
	d->p = p;
	d->id = xstrdup(id);
	dialog_confirm(p->tui, "delete", buf_str(&q), uschema_delete_yes, d,
	    uschema_delete_free);
	buf_free(&q);
}

/*
 * d on one schema, on the current API: its operations first (the classic
 * API has the only call that lists them), then the question. Marked
 * schemas, and the classic panel, go the generic way.
 */
static int
uschema_delete(struct panel *p)
{
	struct tui_req	*r;
	const char	**ids;
	char		*item, *path, *cause = NULL;
	size_t		 n;

	if (uschema_classic(p))
		return (0);
	if (tui_refuse_readonly(p->tui, "delete"))
		return (TUI_HANDLED);
	ids = panel_targets(p, &n);
	if (ids == NULL || n != 1) {
		free(ids);
		return (0);
	}
	if ((item = kind_item_path(&kind_user_schemas, p->vars, ids[0],
	    &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		free(ids);
		return (TUI_HANDLED);
	}
	path = xprintf("%s/operations?per_page=50&operation_status=existing",
	    item);
	free(item);
	r = tui_submit(p->tui, p, TUI_REQ_OTHER, "GET", path, NULL);
	if (r != NULL) {
		r->sub = USCHEMA_OPS;
		r->id = xstrdup(ids[0]);
	}
	free(path);
	free(ids);
	return (TUI_HANDLED);
}

static int
uschema_action(struct panel *p, enum action a)
{
	switch (a) {
	case ACTION_DELETE:
		if (p->view != PANEL_LIST)
			return (0);
		return (uschema_delete(p));
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

	/* The classic answer and the docs' wrap it; the SDK's is the schema. */
	schema = cJSON_GetObjectItemCaseSensitive(ev->result, "schema");
	if (!cJSON_IsObject(schema))
		schema = ev->result;
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

/* The current API is not on this server: the classic one, said in the title. */
static void
uschema_fall_back(struct panel *p)
{
	p->kind = &kind_user_schemas;
	p->title_note = USCHEMA_CLASSIC_NOTE;
	rows_free(p->rows);
	p->rows = rows_new(p->kind, p->cols, p->ncols);
	panel_load(p);
	tui_message(p->tui, TUI_MSG_WARN, "no /schema_validation on this "
	    "server (404): using the classic API");
}

static int
uschema_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*src;
	char		*title;

	if (r->type == TUI_REQ_LIST && r->gen == p->gen &&
	    ev->kind == JOBS_EVENT_FAILED && ev->http_status == 404 &&
	    !uschema_classic(p)) {
		uschema_fall_back(p);
		return (1);
	}
	if (r->type == TUI_REQ_UPDATE)
		return (uschema_validation_done(p, r, ev));
	if (r->type != TUI_REQ_OTHER)
		return (0);
	if (r->sub == USCHEMA_OPS) {
		if (ev->kind == JOBS_EVENT_FAILED)
			uschema_delete_ask(p, r->id, NULL, 0,
			    tui_cause(r, ev));
		else if (ev->kind == JOBS_EVENT_DONE)
			uschema_delete_ask(p, r->id, ev->result,
			    ev->resp.api.total_count, NULL);
		return (1);
	}
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

/* The same panel on the current API, falling back to the classic one. */
const struct panel_ops panel_validation_schemas_ops = {
	.kind = "validation-schemas",
	.action = uschema_action,
	.event = uschema_event,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "upload" },
		{ ACTION_SOURCE, "source" },
		{ ACTION_TOGGLE, "validation on/off" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_NONE, NULL }
	},
};
