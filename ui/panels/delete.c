/*
 * The generic panel's deletes: the record under the cursor or the marked
 * ones, the questions that confirm them (naming the records) and the answers.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "resource.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "xmalloc.h"

/* ---- naming records in questions --------------------------------------- */

#define PANEL_LABEL_MAX		40	/* columns of a name in a question */
#define PANEL_SHORT_ID		8
#define PANEL_NAMES_SHOWN	3	/* a bulk question lists this many */

const char *
panel_noun(const struct panel *p)
{
	return (p->kind->noun != NULL ? p->kind->noun : p->kind->name);
}

/*
 * Record id's label ("Launch teaser.mp4", "GET /v1/users": the values of
 * the kind's label fields), cleaned and cut; or NULL.
 */
char *
panel_record_label(struct panel *p, const char *id)
{
	const cJSON	*v;
	cJSON		*rec = NULL;
	struct buf	 b;
	char		*fields, *f, *save = NULL, *clean, *cut = NULL;
	long		 i;

	if (p->kind->label == NULL || id == NULL ||
	    (i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return (NULL);
	buf_init(&b);
	fields = xstrdup(p->kind->label);
	for (f = strtok_r(fields, " ", &save); f != NULL;
	    f = strtok_r(NULL, " ", &save)) {
		v = kind_json_get(rec, f);
		if (cJSON_IsString(v) && *v->valuestring != '\0')
			buf_addf(&b, "%s%s", b.len > 0 ? " " : "",
			    v->valuestring);
	}
	if (b.len > 0) {
		clean = text_clean(buf_str(&b));
		cut = text_ellipsize(clean, PANEL_LABEL_MAX, screen_ellipsis());
		free(clean);
	}
	free(fields);
	buf_free(&b);
	cJSON_Delete(rec);
	return (cut);
}

/* "'Launch teaser.mp4' (7d05ce87…)": the record's label and short id. */
void
panel_name_record(struct panel *p, const char *id, struct buf *b)
{
	char	*label;

	if (id == NULL)
		return;
	if ((label = panel_record_label(p, id)) == NULL) {
		buf_adds(b, id);
		return;
	}
	buf_addf(b, "'%s'", label);
	if (strlen(id) > PANEL_SHORT_ID)
		buf_addf(b, " (%.*s%s)", PANEL_SHORT_ID, id, screen_ellipsis());
	else
		buf_addf(b, " (%s)", id);
	free(label);
}

static int
panel_cursor_marked(struct panel *p)
{
	return (p->cursor < rows_count(p->rows) &&
	    rows_marked(p->rows, p->cursor));
}

const char *
panel_marks_note(struct panel *p)
{
	if (rows_mark_count(p->rows) == 0)
		return ("");
	if (panel_cursor_marked(p))
		return ("the marked ones");
	return ("the marked ones, not the one under the cursor");
}

/* The first few of ids, one per line, and how many more. */
void
panel_name_targets(struct panel *p, const char *const *ids, size_t n,
    struct buf *b)
{
	size_t	i;

	for (i = 0; i < n && i < PANEL_NAMES_SHOWN; i++) {
		buf_adds(b, "\n  ");
		panel_name_record(p, ids[i], b);
	}
	if (n > PANEL_NAMES_SHOWN)
		buf_addf(b, "\n  and %zu more", n - PANEL_NAMES_SHOWN);
}

/* ---- delete ------------------------------------------------------------------ */

struct panel_delete {
	struct panel	*p;
	char		**ids;
	size_t		 n;
};

static void
panel_delete_free(void *arg)
{
	struct panel_delete	*d = arg;
	size_t			 i;

	for (i = 0; i < d->n; i++)
		free(d->ids[i]);
	free(d->ids);
	free(d);
}

static void
panel_delete_yes(struct tui *t, void *arg, const char *answer)
{
	struct panel_delete	*d = arg;
	struct panel		*p = d->p;
	struct tui_req		*r;
	cJSON			*body, *ids;
	char			*path, *cause = NULL;
	size_t			 i;
	long			 j;

	(void)answer;
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		/* The one object of its kind: its path takes no id. */
		if ((path = panel_item_path(p, NULL)) == NULL)
			return;
		r = tui_submit(t, p, TUI_REQ_DELETE, "DELETE", path, NULL);
		if (r != NULL)
			r->before = panel_current_record(p);
		free(path);
		return;
	}
	if (d->n > 1 && (p->kind->verbs & KIND_VERB_BULK_DELETE) &&
	    p->kind->bulk_delete_key != NULL) {
		if ((path = kind_list_path(p->kind, p->vars, &cause)) ==
		    NULL) {
			tui_message(t, TUI_MSG_ERROR, "%s", cause);
			free(cause);
			return;
		}
		body = cJSON_CreateObject();
		ids = cJSON_AddArrayToObject(body, p->kind->bulk_delete_key);
		for (i = 0; i < d->n; i++)
			cJSON_AddItemToArray(ids, cJSON_CreateString(d->ids[i]));
		r = tui_submit(t, p, TUI_REQ_BULK_DELETE, "DELETE", path,
		    body);
		if (r != NULL) {
			r->data = cJSON_Duplicate(ids, 1);
			r->count = d->n;
		}
		cJSON_Delete(body);
		free(path);
		return;
	}
	for (i = 0; i < d->n; i++) {
		if ((path = panel_item_path(p, d->ids[i])) == NULL)
			continue;
		r = tui_submit(t, p, TUI_REQ_DELETE, "DELETE", path, NULL);
		if (r != NULL) {
			r->id = xstrdup(d->ids[i]);
			r->count = d->n;
			if ((j = rows_find(p->rows, d->ids[i])) >= 0)
				r->before = rows_record(p->rows, (size_t)j);
		}
		free(path);
	}
}

void
panel_delete(struct panel *p)
{
	struct panel_delete	*d;
	const char		**ids, *warn;
	char			 count[32];
	struct buf		 q;
	size_t			 n, i;
	int			 marked;

	if (tui_refuse_readonly(p->tui, "delete"))
		return;
	if (!panel_can(p, KIND_VERB_DELETE | KIND_VERB_BULK_DELETE,
	    "deleted"))
		return;
	warn = p->ops != NULL && p->ops->delete_warning != NULL ?
	    p->ops->delete_warning : NULL;
	buf_init(&q);
	if (p->kind->shape == KIND_SHAPE_OBJECT && p->record != NULL) {
		d = xcalloc(1, sizeof *d);
		d->p = p;
		buf_addf(&q, "Delete the %s?%s%s (y/n)", panel_noun(p),
		    warn != NULL ? "\n" : "", warn != NULL ? warn : "");
		dialog_confirm(p->tui, "delete", buf_str(&q), panel_delete_yes,
		    d, panel_delete_free);
		buf_free(&q);
		return;
	}
	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		buf_free(&q);
		tui_message(p->tui, TUI_MSG_WARN, "nothing to delete");
		return;
	}
	d = xcalloc(1, sizeof *d);
	d->p = p;
	d->n = n;
	d->ids = xcalloc(n, sizeof *d->ids);
	for (i = 0; i < n; i++)
		d->ids[i] = xstrdup(ids[i]);
	free(ids);
	if (n == 1) {
		marked = rows_mark_count(p->rows) > 0;
		buf_addf(&q, "Delete %s%s ", marked ? "the marked " : "",
		    panel_noun(p));
		panel_name_record(p, d->ids[0], &q);
		buf_adds(&q, "?");
		if (marked && !panel_cursor_marked(p))
			buf_adds(&q, "\n(not the one under the cursor)");
		if (warn != NULL)
			buf_addf(&q, "\n%s", warn);
		buf_adds(&q, " (y/n)");
		dialog_confirm(p->tui, "delete", buf_str(&q), panel_delete_yes,
		    d, panel_delete_free);
	} else {
		snprintf(count, sizeof count, "%zu", n);
		buf_addf(&q, "Delete %zu %ss (%s)?", n, panel_noun(p),
		    panel_marks_note(p));
		panel_name_targets(p, (const char *const *)d->ids, n, &q);
		buf_addf(&q, "%s%s\nType %zu and Enter to confirm, Esc to "
		    "cancel.", warn != NULL ? "\n" : "", warn != NULL ? warn :
		    "", n);
		dialog_confirm_typed(p->tui, "delete marked", buf_str(&q),
		    count, panel_delete_yes, d, panel_delete_free);
	}
	buf_free(&q);
}

/* Whether other deletes of this panel are still on their way. */
int
panel_deletes_pending(struct panel *p, struct tui_req *r)
{
	struct tui_req	*o;

	for (o = p->tui->reqs; o != NULL; o = o->next)
		if (o != r && o->panel == p && o->type == TUI_REQ_DELETE)
			return (1);
	return (0);
}

void
panel_deleted(struct panel *p, struct tui_req *r)
{
	cJSON	*id;

	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		cJSON_Delete(p->record);
		p->record = NULL;
		textview_set(&p->detail, p->kind->name, "(deleted)");
		return;
	}
	if (r->type == TUI_REQ_DELETE && r->id != NULL)
		rows_remove(p->rows, r->id);
	else if (r->data != NULL) {
		cJSON_ArrayForEach(id, r->data)
			if (cJSON_IsString(id))
				rows_remove(p->rows, id->valuestring);
	}
	if (p->view == PANEL_DETAIL && p->kind->shape != KIND_SHAPE_OBJECT)
		p->view = PANEL_LIST;
	panel_restore(p);
}
