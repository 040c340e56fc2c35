/*
 * Discovered operations: set review or ignored on the one under the
 * cursor or on the marked ones (one PATCH, or the bulk PATCH), and save
 * them into endpoint management (creating the operations) the same way.
 */
#include "config.h"

#include <stdlib.h>

#include "tui.h"
#include "xmalloc.h"

enum {
	DISCOVERED_STATE = 1,
	DISCOVERED_SAVE
};

static void
discovered_state(struct panel *p, const char *state)
{
	struct tui_req	*r;
	const char	**ids;
	cJSON		*body, *one;
	char		*path, *cause = NULL;
	size_t		 n, i;

	if (tui_refuse_readonly(p->tui, state))
		return;
	if ((ids = panel_targets(p, &n)) == NULL)
		return;
	body = cJSON_CreateObject();
	if (n == 1) {
		cJSON_AddStringToObject(body, "state", state);
		path = panel_item_path(p, ids[0]);
	} else {
		for (i = 0; i < n; i++) {
			one = cJSON_AddObjectToObject(body, ids[i]);
			cJSON_AddStringToObject(one, "state", state);
		}
		if ((path = kind_list_path(p->kind, p->vars, &cause)) ==
		    NULL) {
			tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
			free(cause);
		}
	}
	if (path != NULL) {
		r = tui_submit(p->tui, p, TUI_REQ_OTHER, "PATCH", path, body);
		if (r != NULL) {
			r->sub = DISCOVERED_STATE;
			r->count = n;
			r->id = n == 1 ? xstrdup(ids[0]) : NULL;
			r->data = cJSON_CreateString(state);
		}
	}
	free(path);
	cJSON_Delete(body);
	free(ids);
}

/* {method, host, endpoint} of listed record id, or NULL. */
static cJSON *
discovered_operation(struct panel *p, const char *id)
{
	static const char *const keys[] = { "method", "host", "endpoint" };
	const cJSON	*v;
	cJSON		*rec, *op;
	size_t		 i;
	long		 at;

	if ((at = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)at)) == NULL)
		return (NULL);
	op = cJSON_CreateObject();
	for (i = 0; i < nitems(keys); i++) {
		v = cJSON_GetObjectItemCaseSensitive(rec, keys[i]);
		if (cJSON_IsString(v))
			cJSON_AddStringToObject(op, keys[i], v->valuestring);
	}
	cJSON_Delete(rec);
	return (op);
}

/*
 * s: the marked ones, else the one under the cursor, into endpoint
 * management: one operation by its own call, several by the bulk create
 * (a JSON array), which answers an existing one as it is.
 */
static void
discovered_save(struct panel *p)
{
	struct tui_req	*r;
	const char	**ids;
	cJSON		*body, *op;
	char		*path, *cause = NULL;
	size_t		 n, i;

	if (tui_refuse_readonly(p->tui, "save"))
		return;
	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		return;
	}
	body = n == 1 ? discovered_operation(p, ids[0]) : cJSON_CreateArray();
	for (i = 0; n > 1 && i < n; i++)
		if ((op = discovered_operation(p, ids[i])) != NULL)
			cJSON_AddItemToArray(body, op);
	free(ids);
	if (body == NULL)
		return;
	path = n == 1 ? kind_create_path(&kind_operations, p->vars, &cause) :
	    kind_list_path(&kind_operations, p->vars, &cause);
	if (path == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	} else if ((r = tui_submit(p->tui, p, TUI_REQ_OTHER, "POST", path,
	    body)) != NULL) {
		r->sub = DISCOVERED_SAVE;
		r->count = n;
		r->data = cJSON_Duplicate(body, 1);
	}
	free(path);
	cJSON_Delete(body);
}

static int
discovered_action(struct panel *p, enum action a)
{
	if (p->view != PANEL_LIST)
		return (0);
	switch (a) {
	case ACTION_REVIEW:
		discovered_state(p, "review");
		return (TUI_HANDLED);
	case ACTION_IGNORE:
		discovered_state(p, "ignored");
		return (TUI_HANDLED);
	case ACTION_SAVE:
		discovered_save(p);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static int
discovered_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*one;
	int		 stale = 0;

	if (r->type != TUI_REQ_OTHER || ev->kind == JOBS_EVENT_PROGRESS ||
	    ev->kind == JOBS_EVENT_POLL_UPDATE)
		return (r->type == TUI_REQ_OTHER);
	if (ev->kind == JOBS_EVENT_FAILED) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", tui_cause(r, ev));
		return (1);
	}
	tui_journal(p->tui, r, ev->http_status, ev->result);
	if (r->sub == DISCOVERED_SAVE) {
		if (r->count > 1)
			tui_message(p->tui, TUI_MSG_OK, "%zu operations saved "
			    "into endpoint management", r->count);
		else
			tui_message(p->tui, TUI_MSG_OK, "saved into endpoint "
			    "management: %s", ev->result != NULL &&
			    kind_record_id(&kind_operations, ev->result) !=
			    NULL ? kind_record_id(&kind_operations,
			    ev->result) : "");
		rows_mark_all(p->rows, 0);
		panel_load(p);	/* their state is now saved */
		return (1);
	}
	/*
	 * One PATCH answers {state}, the bulk one id -> {state}: put that
	 * into the rows rather than spend a request on a reload, unless a
	 * row is out of sight (the filter) or the answer is not that.
	 */
	if (!cJSON_IsObject(ev->result))
		stale = 1;
	else if (r->count == 1 && r->id != NULL)
		stale = panel_merge(p, r->id, ev->result) != 0;
	else {
		cJSON_ArrayForEach(one, ev->result)
			if (panel_merge(p, one->string, one) != 0)
				stale = 1;
	}
	if (stale)
		panel_load(p);
	rows_mark_all(p->rows, 0);
	panel_after_change(p);
	tui_message(p->tui, TUI_MSG_OK, "%zu operation%s set to %s",
	    r->count, r->count == 1 ? "" : "s", r->data != NULL ?
	    r->data->valuestring : "");
	return (1);
}

const struct panel_ops panel_discovered_ops = {
	.kind = "discovered-operations",
	.action = discovered_action,
	.event = discovered_event,
	/*
	 * Its state is what changes, by R, i and s in the list: the details
	 * offer no edit (a saved one's state cannot change at all).
	 */
	.readonly = 1,
	.hints = (const struct panel_hint[]){
		{ ACTION_REVIEW, "review" },
		{ ACTION_IGNORE, "ignore" },
		{ ACTION_SAVE, "save to operations" },
		{ ACTION_MARK, "mark" },
		{ ACTION_NONE, NULL }
	},
};
