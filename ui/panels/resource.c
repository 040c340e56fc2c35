/*
 * The generic resource panel: any kind, driven by its descriptor. Lists
 * load page by page in the background into a row store; details, forms,
 * $EDITOR edits with a diff, deletes one or marked. Panels for particular
 * kinds add their keys through struct panel_ops hooks. This file holds the
 * panel's life, its record changes, the answers it gets and its actions;
 * the views and tasks are in the other files that include resource.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "pager.h"
#include "resource.h"
#include "tui.h"
#include "xmalloc.h"

static struct kind_column panel_id_column = {
	.header = "ID", .format = KIND_FMT_TEXT
};

/* ---- setting up -------------------------------------------------------- */

static void
panel_columns(struct panel *p)
{
	const struct kind		*k = p->kind;
	const struct kind_column	*col;
	int				 has_id = 0;

	p->ncols = 0;
	for (col = k->columns; col != NULL && col->header != NULL; col++) {
		if ((col->flags & KIND_COL_DEFAULT) == 0 ||
		    p->ncols == ROWS_MAX_COLUMNS - 1)
			continue;
		if (k->id_field != NULL && strcmp(col->path, k->id_field) == 0)
			has_id = 1;
		p->cols[p->ncols++] = col;
	}
	if (k->id_field != NULL && !has_id) {
		col = kind_column_find(k, k->id_field);
		if (col == NULL) {
			col = &panel_id_column;
			panel_id_column.width = 36;
		}
		p->cols[p->ncols++] = col;
	}
}

struct panel *
panel_new(struct tui *t, const struct kind *k, const char *video)
{
	struct panel	*p;

	p = xcalloc(1, sizeof *p);
	p->tui = t;
	p->kind = k;
	p->video = video != NULL ? xstrdup(video) : NULL;
	edge_scope_vars(&t->session.scope, p->video, p->vars);
	p->ops = panel_ops_for(k);
	panel_columns(p);
	p->rows = rows_new(k, p->cols, p->ncols);
	p->sort_col = -1;
	p->detail.cursor = 1;
	if (k->shape == KIND_SHAPE_OBJECT)
		p->view = PANEL_DETAIL;
	if (p->ops != NULL && p->ops->opened != NULL)
		p->ops->opened(p);
	return (p);
}

void
panel_free(struct panel *p)
{
	if (p == NULL)
		return;
	rows_free(p->rows);
	free(p->video);
	free(p->upload_file);
	free(p->filter_pending);
	if (p->pager != NULL)
		pager_free(p->pager);
	textview_clear(&p->detail);
	cJSON_Delete(p->record);
	free(p->cursor_id);
	free(p->filter);
	free(p->query);
	free(p->error);
	free(p->banner);
	if (p->ops != NULL && p->ops->closed != NULL && p->priv != NULL)
		p->ops->closed(p);
	free(p->priv);
	free(p);
}

char *
panel_item_path(struct panel *p, const char *id)
{
	char	*path, *cause = NULL;

	path = kind_item_path(p->kind, p->vars, id, &cause);
	if (path == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

/* ---- changes -------------------------------------------------------------- */

int
panel_merge(struct panel *p, const char *id, const cJSON *fields)
{
	const cJSON	*f;
	cJSON		*rec;
	long		 i;

	if (id == NULL || !cJSON_IsObject(fields) ||
	    (i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return (-1);
	cJSON_ArrayForEach(f, fields) {
		cJSON_DeleteItemFromObjectCaseSensitive(rec, f->string);
		cJSON_AddItemToObject(rec, f->string, cJSON_Duplicate(f, 1));
	}
	rows_put(p->rows, rec);
	if (p->view == PANEL_DETAIL && p->record != NULL &&
	    kind_record_id(p->kind, p->record) != NULL &&
	    strcmp(kind_record_id(p->kind, p->record), id) == 0)
		panel_show_record(p, rec);
	cJSON_Delete(rec);
	return (0);
}

/*
 * The panel's copy of a record after the server changed it: the whole
 * record, or (an answer without the id, such as a PATCH's {state}) the
 * fields that changed in record id.
 */
static void
panel_changed_record(struct panel *p, const char *id, const cJSON *rec)
{
	if (rec == NULL || !cJSON_IsObject(rec))
		return;
	if (p->kind->shape != KIND_SHAPE_OBJECT &&
	    kind_record_id(p->kind, rec) == NULL) {
		if (panel_merge(p, id, rec) != 0)
			panel_load(p);
		panel_restore(p);
		return;
	}
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		panel_show_record(p, rec);
		return;
	}
	rows_put(p->rows, rec);
	if (p->view == PANEL_DETAIL && p->record != NULL &&
	    kind_record_id(p->kind, rec) != NULL &&
	    kind_record_id(p->kind, p->record) != NULL &&
	    strcmp(kind_record_id(p->kind, rec),
	    kind_record_id(p->kind, p->record)) == 0)
		panel_show_record(p, rec);
	panel_restore(p);
}

void
panel_after_change(struct panel *p)
{
	panel_restore(p);
	p->tui->dirty = 1;
}

int
panel_can(struct panel *p, unsigned verb, const char *what)
{
	if ((p->kind->verbs & verb) == 0) {
		tui_message(p->tui, TUI_MSG_WARN, "%s cannot be %s",
		    p->kind->name, what);
		return (0);
	}
	return (1);
}

/* ---- answers ------------------------------------------------------------------ */

void
panel_banner(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*gone;

	if (ev->http_status != 410 ||
	    (gone = api_gone_message(r->path)) == NULL)
		return;
	free(p->banner);
	p->banner = xstrdup(gone);
}

static void
panel_failed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*why = tui_cause(r, ev);

	panel_banner(p, r, ev);
	if (p->banner != NULL && ev->http_status == 410)
		why = "HTTP 410 Gone: this server retired the API (see above)";
	if (r->modal != NULL && formview_failed(p->tui, r->modal, why))
		return;
	tui_message(p->tui, TUI_MSG_ERROR, "%s", why);
}

void
panel_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct tui	*t = p->tui;
	const char	*name = p->kind->name;

	/* The wait for a record to edit ends first, whoever handles it. */
	if (r->modal != NULL && (r->type == TUI_REQ_FETCH_FORM ||
	    r->type == TUI_REQ_FETCH_EDIT || r->type == TUI_REQ_FETCH_DIFF)) {
		if (ev->kind == JOBS_EVENT_FAILED) {
			panel_fetch_failed(p, r, ev);
			return;
		}
		if (ev->kind == JOBS_EVENT_DONE) {
			dialog_wait_done(t, r->modal);
			r->modal = NULL;
		}
	}
	if (p->ops != NULL && p->ops->event != NULL && p->ops->event(p, r, ev))
		return;
	if (r->type == TUI_REQ_LIST) {
		panel_list_done(p, r, ev);
		return;
	}
	/* A write's read of the server's copy (write.c). */
	if (r->type == TUI_REQ_FETCH_SAVE) {
		panel_write_read(p, r, ev);
		return;
	}
	if (ev->kind == JOBS_EVENT_FAILED) {
		panel_failed(p, r, ev);
		return;
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return;
	switch (r->type) {
	case TUI_REQ_GET:
		if (p->view == PANEL_DETAIL && ev->result != NULL)
			panel_changed_record(p, r->id, ev->result);
		break;
	case TUI_REQ_FETCH_FORM:
		panel_form_new(p, ev->result, r->id);
		break;
	case TUI_REQ_FETCH_EDIT:
		panel_edit_yaml(p, r->id, ev->result);
		break;
	case TUI_REQ_FETCH_DIFF:
		panel_diff_confirm(p, r, ev->result);
		break;
	case TUI_REQ_CREATE:
		tui_journal(t, r, ev->http_status, ev->result);
		if (r->modal != NULL)
			formview_close(t, r->modal);
		panel_changed_record(p, NULL, ev->result);
		if (kind_record_id(p->kind, ev->result) != NULL) {
			free(p->cursor_id);
			p->cursor_id = xstrdup(kind_record_id(p->kind,
			    ev->result));
			panel_restore(p);
		}
		tui_message(t, TUI_MSG_OK, "created %s %s", name,
		    kind_record_id(p->kind, ev->result) != NULL ?
		    kind_record_id(p->kind, ev->result) : "");
		break;
	case TUI_REQ_UPDATE:
		tui_journal(t, r, ev->http_status, ev->result);
		if (r->modal != NULL)
			formview_close(t, r->modal);
		panel_changed_record(p, r->id, ev->result);
		tui_message(t, TUI_MSG_OK, "saved %s %s", name,
		    r->id != NULL ? r->id : "");
		break;
	case TUI_REQ_DELETE:
	case TUI_REQ_BULK_DELETE:
		tui_journal(t, r, ev->http_status, NULL);
		panel_deleted(p, r);
		if (r->type == TUI_REQ_BULK_DELETE)
			rows_mark_all(p->rows, 0);
		else if (r->id != NULL) {
			long i = rows_find(p->rows, r->id);
			if (i >= 0)
				rows_mark(p->rows, (size_t)i, 0);
		}
		/* One message for a batch of single deletes, after the last. */
		if (r->type == TUI_REQ_DELETE && panel_deletes_pending(p, r))
			break;
		if (t->msg != NULL && t->msg_class == TUI_MSG_ERROR)
			break;
		if (r->count > 1)
			tui_message(t, TUI_MSG_OK, "deleted %zu %s", r->count,
			    name);
		else
			tui_message(t, TUI_MSG_OK, "deleted %s %s", name,
			    r->id != NULL ? r->id : "");
		break;
	default:
		break;
	}
}

/* ---- the footer ------------------------------------------------------------ */

/* ---- actions ------------------------------------------------------------------ */

/* y: the marked records' ids, one a line, else the one under the cursor's. */
static void
panel_copy_ids(struct panel *p)
{
	const char	**ids;
	struct buf	  b;
	size_t		  n, i;
	char		  what[64];

	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		return;
	}
	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i > 0 ? "\n" : "", ids[i]);
	if (n == 1)
		snprintf(what, sizeof what, "the id");
	else
		snprintf(what, sizeof what, "the %zu marked ids", n);
	tui_copy(p->tui, what, buf_str(&b));
	buf_free(&b);
	free(ids);
}

int
panel_action(struct panel *p, enum action a)
{
	int	rv;

	if (p->banner != NULL && (a == ACTION_NEW || a == ACTION_EDIT ||
	    a == ACTION_EDIT_YAML || a == ACTION_DELETE ||
	    a == ACTION_TOGGLE)) {
		tui_message(p->tui, TUI_MSG_WARN, "this server retired the "
		    "API (see the notice above): nothing was sent");
		return (TUI_HANDLED);
	}
	if (p->ops != NULL && p->ops->action != NULL &&
	    (rv = p->ops->action(p, a)) != 0)
		return (rv);
	if (p->view == PANEL_DETAIL) {
		if (a == ACTION_QUIT && p->kind->shape != KIND_SHAPE_OBJECT) {
			p->view = PANEL_LIST;
			p->reveal = 0;
			return (TUI_HANDLED);
		}
		if (a == ACTION_JSON) {
			p->detail_json = !p->detail_json;
			panel_detail_text(p);
			return (TUI_HANDLED);
		}
		if (a == ACTION_REVEAL) {
			p->reveal = !p->reveal;
			panel_detail_text(p);
			tui_message(p->tui, TUI_MSG_INFO, p->reveal ?
			    "secrets shown: x hides them" :
			    "secrets hidden");
			return (TUI_HANDLED);
		}
		if (a == ACTION_COPY) {
			panel_detail_copy(p);
			return (TUI_HANDLED);
		}
		if (a == ACTION_SAVE_FILE) {
			dialog_prompt(p->tui, "save the details to the file "
			    "(created 0600; never overwritten)", "", 1,
			    panel_detail_saved, p, NULL);
			return (TUI_HANDLED);
		}
		if (textview_common(p->tui, &p->detail, a) ||
		    textview_action(&p->detail, a, LINES - 4))
			return (TUI_HANDLED);
	} else if (panel_list_action(p, a))
		return (TUI_HANDLED);

	switch (a) {
	case ACTION_REFRESH:
		panel_load(p);
		tui_message(p->tui, TUI_MSG_INFO, "refreshing %s",
		    p->kind->name);
		return (TUI_HANDLED);
	case ACTION_QUERY:
		panel_query(p);
		return (TUI_HANDLED);
	case ACTION_NEW:
		if (tui_refuse_readonly(p->tui, "new"))
			return (TUI_HANDLED);
		if (panel_can(p, KIND_VERB_CREATE, "created here"))
			panel_create(p);
		return (TUI_HANDLED);
	case ACTION_EDIT:
		if (tui_refuse_readonly(p->tui, "edit"))
			return (TUI_HANDLED);
		if (panel_can(p, KIND_VERB_UPDATE, "edited"))
			panel_fetch(p, TUI_REQ_FETCH_FORM);
		return (TUI_HANDLED);
	case ACTION_EDIT_YAML:
		if (tui_refuse_readonly(p->tui, "edit"))
			return (TUI_HANDLED);
		if (panel_can(p, KIND_VERB_UPDATE, "edited"))
			panel_fetch(p, TUI_REQ_FETCH_EDIT);
		return (TUI_HANDLED);
	case ACTION_DELETE:
		panel_delete(p);
		return (TUI_HANDLED);
	case ACTION_COPY:
		panel_copy_ids(p);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}
