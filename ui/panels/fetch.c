/*
 * The generic panel's fetch of a record to work on (a form, the editor,
 * an edit's diff): the wait while it comes, its cancel and its failure.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "resource.h"
#include "tui.h"
#include "xmalloc.h"

/* What a fetch is for, as the wait and its failure say it. */
static const char *
panel_fetch_purpose(enum tui_req_type type)
{
	switch (type) {
	case TUI_REQ_FETCH_FORM:
		return ("no form was opened");
	case TUI_REQ_FETCH_EDIT:
		return ("no editor was opened");
	default:
		return ("your edit was not applied");
	}
}

/* The edited text and record a diff's fetch carries (r->data). */
const char *
panel_edit_text_of(const struct tui_req *r)
{
	const cJSON	*text = cJSON_GetObjectItemCaseSensitive(r->data,
			    "text");

	return (cJSON_IsString(text) ? text->valuestring : NULL);
}

static void
panel_wait_cancel(struct tui *t, void *arg, const char *answer)
{
	struct tui_req	*r = arg, *x;

	(void)answer;
	for (x = t->reqs; x != NULL && x != r; x = x->next)
		;
	if (x == NULL)
		return;
	r->modal = NULL;
	if (r->type == TUI_REQ_FETCH_DIFF && panel_edit_text_of(r) != NULL)
		panel_reedit_offer(r->panel, r->id, r->before,
		    panel_edit_text_of(r), "Cancelled: your edit was not "
		    "applied.");
	else
		tui_message(t, TUI_MSG_INFO, "cancelled: %s",
		    panel_fetch_purpose(r->type));
	tui_cancel_req(t, r);
}

/*
 * While a record is fetched to edit, the keys typed for the form or the
 * editor are held rather than acted on by the list; Esc cancels.
 */
static struct modal *
panel_wait(struct panel *p, struct tui_req *r)
{
	struct modal	*m;
	char		*text;

	if (r->type != TUI_REQ_FETCH_FORM && r->type != TUI_REQ_FETCH_EDIT &&
	    r->type != TUI_REQ_FETCH_DIFF)
		return (NULL);
	text = xprintf("Fetching %s%s%s%s...\nEsc cancels.", p->kind->name,
	    r->id != NULL ? " " : "", r->id != NULL ? r->id : "",
	    r->type == TUI_REQ_FETCH_DIFF ? " to compare your edit" : "");
	m = dialog_wait(p->tui, "fetching", text, panel_wait_cancel, r);
	free(text);
	return (m);
}

/* A fetch to edit failed: why, in place of the wait, until a key. */
void
panel_fetch_failed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*why = tui_cause(r, ev);
	char		*text;

	panel_banner(p, r, ev);
	text = xprintf("Could not fetch %s%s%s:\n%s\n\nSo %s.", p->kind->name,
	    r->id != NULL ? " " : "", r->id != NULL ? r->id : "", why,
	    panel_fetch_purpose(r->type));
	tui_message(p->tui, TUI_MSG_ERROR, "%s: %s", panel_fetch_purpose(
	    r->type), why);
	if (r->type == TUI_REQ_FETCH_DIFF && panel_edit_text_of(r) != NULL) {
		dialog_wait_done(p->tui, r->modal);
		panel_reedit_offer(p, r->id, r->before, panel_edit_text_of(r),
		    text);
	} else
		dialog_wait_failed(p->tui, r->modal, "fetch failed", text);
	r->modal = NULL;
	free(text);
}

/*
 * A copy of record id to work on (type says what for; data and before are
 * taken). Kinds with no call for one record use the listed copy, the
 * freshest there is, and are answered at once.
 */
void
panel_fetch_as(struct panel *p, enum tui_req_type type, const char *id,
    cJSON *data, cJSON *before)
{
	struct jobs_event	 ev;
	struct tui_req		*r, local;
	char			*path;
	long			 i;

	if ((p->kind->verbs & KIND_VERB_GET) == 0 &&
	    p->kind->shape != KIND_SHAPE_OBJECT) {
		memset(&ev, 0, sizeof ev);
		memset(&local, 0, sizeof local);
		ev.kind = JOBS_EVENT_DONE;
		if (id != NULL && (i = rows_find(p->rows, id)) >= 0)
			ev.result = rows_record(p->rows, (size_t)i);
		local.panel = p;
		local.type = type;
		local.id = id != NULL ? xstrdup(id) : NULL;
		local.data = data;
		local.before = before;
		if (ev.result != NULL)
			panel_event(p, &local, &ev);
		else
			tui_message(p->tui, TUI_MSG_ERROR, "%s %s is no longer "
			    "listed", p->kind->name, id != NULL ? id : "");
		cJSON_Delete(ev.result);
		free(local.id);
		cJSON_Delete(local.data);
		cJSON_Delete(local.before);
		return;
	}
	r = NULL;
	if (type == TUI_REQ_FETCH_DIFF && p->ops != NULL &&
	    p->ops->edit_fetch_path != NULL)
		path = p->ops->edit_fetch_path(p, id);
	else
		path = panel_item_path(p, id);
	if (path != NULL)
		r = tui_submit(p->tui, p, type, "GET", path, NULL);
	free(path);
	if (r == NULL) {
		cJSON_Delete(data);
		cJSON_Delete(before);
		return;
	}
	r->id = id != NULL ? xstrdup(id) : NULL;
	r->data = data;
	r->before = before;
	r->modal = panel_wait(p, r);
}

void
panel_fetch(struct panel *p, enum tui_req_type type)
{
	const char	*id = panel_current_id(p);

	if (p->kind->shape != KIND_SHAPE_OBJECT && id == NULL)
		return;
	panel_fetch_as(p, type, id, NULL, NULL);
}
