/*
 * The generic panel's update of a record, never sent from the copy the
 * user started from: the server's copy is read first (the record's GET,
 * or its list when the kind has none), the user's change merged into it
 * (merge_records: base, mine, theirs) and only then sent. A field the
 * server changed too stops it with the question of widgets/conflict.c.
 * Forms, E, t in the lists and undos from the journal all write here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "log.h"
#include "merge.h"
#include "resource.h"
#include "tui.h"
#include "xmalloc.h"
#include "yamljson.h"

/* The update itself, of merged over theirs (the journal's before). */
static void
panel_write_send(struct panel *p, const char *id, const cJSON *theirs,
    const cJSON *merged, struct modal *form)
{
	struct tui_req	*r;
	struct buf	 diff;
	cJSON		*body;
	char		*path;
	const char	*method = kind_method_name(p->kind->update_method);

	buf_init(&diff);
	if (theirs != NULL && merge_diff(&diff, p->kind, theirs, merged) == 0) {
		buf_free(&diff);
		tui_message(p->tui, TUI_MSG_INFO, "%s %s: the server already "
		    "has these values; nothing was sent", p->kind->name,
		    id != NULL ? id : "");
		if (form != NULL)
			formview_close(p->tui, form);
		return;
	}
	buf_free(&diff);
	if ((path = panel_item_path(p, id)) == NULL)
		return;
	body = theirs != NULL ? merge_update_body(p->kind, theirs, merged, id) :
	    edit_update_body(p->kind, NULL, merged, id);
	r = tui_submit(p->tui, p, TUI_REQ_UPDATE, method, path, body);
	if (r != NULL) {
		r->id = id != NULL ? xstrdup(id) : NULL;
		r->before = theirs != NULL ? cJSON_Duplicate(theirs, 1) : NULL;
		r->modal = form;
		tui_message(p->tui, TUI_MSG_INFO, "saving %s...",
		    id != NULL ? id : p->kind->name);
	}
	cJSON_Delete(body);
	free(path);
}

/* Where the server's copy of record id is read: its GET, else its list. */
static char *
panel_write_read_path(struct panel *p, const char *id)
{
	char	*path, *cause = NULL;

	if ((p->kind->verbs & KIND_VERB_GET) != 0 ||
	    p->kind->shape == KIND_SHAPE_OBJECT)
		return (panel_item_path(p, id));
	if ((path = kind_list_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

void
panel_write(struct panel *p, const char *id, const cJSON *base,
    const cJSON *mine, struct modal *form, const char *text)
{
	struct tui_req	*r;
	char		*path;

	/* Nothing to merge with (a first write): as it is. */
	if (base == NULL) {
		panel_write_send(p, id, NULL, mine, form);
		return;
	}
	if (tui_refuse_readonly(p->tui, "save") ||
	    (path = panel_write_read_path(p, id)) == NULL)
		return;
	r = tui_submit(p->tui, p, TUI_REQ_FETCH_SAVE, "GET", path, NULL);
	free(path);
	if (r == NULL)
		return;
	r->id = id != NULL ? xstrdup(id) : NULL;
	r->before = cJSON_Duplicate(base, 1);
	r->data = cJSON_CreateObject();
	if (r->before == NULL || r->data == NULL ||
	    !cJSON_AddItemToObject(r->data, "mine", cJSON_Duplicate(mine, 1)))
		fatalx("out of memory");
	if (text != NULL)
		cJSON_AddStringToObject(r->data, "text", text);
	r->modal = form;
	tui_message(p->tui, TUI_MSG_INFO, "reading %s %s before saving...",
	    p->kind->name, id != NULL ? id : "");
}

void
panel_send_update(struct panel *p, const char *id, const cJSON *before,
    const cJSON *edited, struct modal *form)
{
	panel_write(p, id, before, edited, form, NULL);
}

/* ---- a conflict ----------------------------------------------------------- */

struct panel_conflict {
	struct panel	*p;
	char		*id;
	cJSON		*theirs;
	struct merge	 m;
	struct modal	*form;
	char		*text;		/* E's YAML as saved, or NULL */
};

static void
panel_conflict_free(void *arg)
{
	struct panel_conflict	*c = arg;

	free(c->id);
	cJSON_Delete(c->theirs);
	merge_free(&c->m);
	free(c->text);
	free(c);
}

/* e: the form or the editor again, on the server's copy with yours. */
static void
panel_conflict_edit(struct panel_conflict *c, const cJSON *mine)
{
	struct panel	*p = c->p;
	struct buf	 why;
	char		*yaml, *text;

	if (c->form != NULL) {
		formview_close(p->tui, c->form);
		panel_form_reopen(p, c->theirs, mine, c->id);
		return;
	}
	buf_init(&why);
	buf_adds(&why, "The server changed these since you read it "
	    "(theirs \xe2\x86\x92 yours, which this text has):\n");
	merge_conflicts_text(&c->m, &why);
	yaml = yamljson_emit(mine);
	text = edit_with_comment(yaml, buf_str(&why));
	panel_edit_text(p, c->id, c->theirs, text);
	free(text);
	free(yaml);
	buf_free(&why);
}

static void
panel_conflict_answer(struct tui *t, void *arg, enum conflict_answer a)
{
	struct panel_conflict	*c = arg;
	cJSON			*rec;

	switch (a) {
	case CONFLICT_THEIRS:
	case CONFLICT_MINE:
		rec = merge_resolve(&c->m, a == CONFLICT_MINE ? MERGE_MINE :
		    MERGE_THEIRS);
		panel_write_send(c->p, c->id, c->theirs, rec, c->form);
		cJSON_Delete(rec);
		break;
	case CONFLICT_EDIT:
		rec = merge_resolve(&c->m, MERGE_MINE);
		panel_conflict_edit(c, rec);
		cJSON_Delete(rec);
		break;
	case CONFLICT_CANCEL:
		if (c->form != NULL)
			formview_failed(t, c->form, "not saved: the record "
			    "changed on the server (nothing was sent); save "
			    "again to merge with its new copy");
		tui_message(t, TUI_MSG_INFO, "cancelled: nothing was sent");
		break;
	}
}

/* The server's copy of id in an answer: the record, or in the list. */
static const cJSON *
panel_write_theirs(struct panel *p, const char *id, const cJSON *result)
{
	const cJSON	*r, *list = result;
	const char	*rid;

	if ((p->kind->verbs & KIND_VERB_GET) != 0 ||
	    p->kind->shape == KIND_SHAPE_OBJECT)
		return (cJSON_IsObject(result) ? result : NULL);
	if (p->kind->shape == KIND_SHAPE_WRAPPED)
		list = cJSON_GetObjectItemCaseSensitive(result,
		    p->kind->list_key);
	cJSON_ArrayForEach(r, list) {
		rid = kind_record_id(p->kind, r);
		if (rid != NULL && id != NULL && strcmp(rid, id) == 0)
			return (r);
	}
	return (NULL);
}

/* The save stops before anything is sent: why, in its form if open. */
static void
panel_write_failed(struct panel *p, struct tui_req *r, const char *why)
{
	if (r->modal == NULL || !formview_failed(p->tui, r->modal, why))
		tui_message(p->tui, TUI_MSG_ERROR, "%s %s not saved: %s; "
		    "nothing was sent", p->kind->name, r->id != NULL ? r->id :
		    "", why);
}

/* The server's copy came: merge, then send or ask. */
void
panel_write_read(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct panel_conflict	*c;
	const cJSON		*theirs, *mine, *text;
	struct buf		 what;
	char			*why;

	if (ev->kind == JOBS_EVENT_FAILED) {
		why = ev->http_status == 404 ? xstrdup(tui_cause(r, ev)) :
		    xprintf("its copy on the server could not be read (%s)",
		    tui_cause(r, ev));
		panel_write_failed(p, r, why);
		free(why);
		return;
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return;
	if ((theirs = panel_write_theirs(p, r->id, ev->result)) == NULL) {
		panel_write_failed(p, r, "not found on the server (deleted "
		    "meanwhile?)");
		return;
	}
	mine = cJSON_GetObjectItemCaseSensitive(r->data, "mine");
	c = xcalloc(1, sizeof *c);
	c->p = p;
	c->id = r->id != NULL ? xstrdup(r->id) : NULL;
	c->theirs = cJSON_Duplicate(theirs, 1);
	c->form = r->modal;
	text = cJSON_GetObjectItemCaseSensitive(r->data, "text");
	c->text = cJSON_IsString(text) ? xstrdup(text->valuestring) : NULL;
	merge_records(p->kind, r->before, mine, theirs, &c->m);
	if (c->m.nconflicts == 0) {
		panel_write_send(p, c->id, c->theirs, c->m.merged, c->form);
		panel_conflict_free(c);
		return;
	}
	buf_init(&what);
	buf_addf(&what, "%s ", panel_noun(p));
	panel_name_record(p, c->id, &what);
	conflict_ask(p->tui, buf_str(&what), &c->m, c->form != NULL ||
	    c->text != NULL, panel_conflict_answer, c, panel_conflict_free);
	buf_free(&what);
}
