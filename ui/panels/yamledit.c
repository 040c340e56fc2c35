/*
 * E, in every panel: a record in $EDITOR as YAML, the diff against a fresh
 * copy to apply or not, and the offer to edit again a text not applied.
 * A panel's ops may lint the record, fetch the copy and save their way.
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

/* ---- edit as YAML ---------------------------------------------------------- */

struct panel_editor {
	struct edit	*e;
	char		*cause;
};

static int
panel_run_editor(void *arg)
{
	struct panel_editor	*pe = arg;

	return (edit_run_editor(pe->e->file, &pe->cause));
}

static char *
panel_edit_lint(const cJSON *rec, void *arg)
{
	struct panel	*p = arg;

	return (p->ops->edit_lint(p, rec));
}

/*
 * The editor on the opened edit until it is valid or given up; then the
 * fresh copy is fetched to diff against, carrying the text as saved so
 * that an edit not applied can be taken up again.
 */
static void
panel_edit_run(struct panel *p, const char *id, struct edit *ep)
{
	struct edit		 e = *ep;
	struct panel_editor	 pe;
	enum edit_status	 st;
	cJSON			*edited = NULL, *data;
	char			*cause = NULL, *text;

	pe.e = &e;
	for (;;) {
		pe.cause = NULL;
		if (tui_suspend_run(p->tui, panel_run_editor, &pe) != 0) {
			tui_message(p->tui, TUI_MSG_ERROR, "edit: %s; nothing "
			    "changed", pe.cause);
			free(pe.cause);
			edit_close(&e);
			return;
		}
		st = edit_next_lint(&e, p->ops != NULL &&
		    p->ops->edit_lint != NULL ? panel_edit_lint : NULL, p,
		    &edited, &cause);
		if (st != EDIT_AGAIN)
			break;
	}
	switch (st) {
	case EDIT_CHANGED:
		break;
	case EDIT_UNCHANGED:
	case EDIT_EMPTY:
		tui_message(p->tui, TUI_MSG_INFO, "edit: no change");
		edit_close(&e);
		return;
	default:
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	data = cJSON_CreateObject();
	if (data == NULL || !cJSON_AddItemToObject(data, "record", edited))
		fatalx("out of memory");
	if ((text = edit_read_file(e.file, NULL, &cause)) != NULL) {
		if (cJSON_AddStringToObject(data, "text", text) == NULL)
			fatalx("out of memory");
		free(text);
	} else
		free(cause);
	/* Diff against a fresh copy: the record may have changed since. */
	panel_fetch_as(p, TUI_REQ_FETCH_DIFF, id, data,
	    cJSON_Duplicate(e.orig, 1));
	edit_close(&e);
}

static enum validate_mode
panel_edit_mode(struct panel *p, const char *id)
{
	return (p->kind->shape == KIND_SHAPE_OBJECT || id != NULL ?
	    VALIDATE_UPDATE : VALIDATE_CREATE);
}

/* The editor on the fetched record. */
void
panel_edit_yaml(struct panel *p, const char *id, const cJSON *rec)
{
	struct edit	 e;
	char		*cause = NULL;

	if (edit_open(&e, p->kind, rec, panel_edit_mode(p, id), &cause) != 0) {
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	panel_edit_run(p, id, &e);
}

/* The editor again on a text not applied, against the original. */
void
panel_edit_text(struct panel *p, const char *id, const cJSON *orig,
    const char *text)
{
	struct edit	 e;
	char		*cause = NULL;

	if (edit_open_text(&e, p->kind, orig, text, panel_edit_mode(p, id),
	    &cause) != 0) {
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	panel_edit_run(p, id, &e);
}

/* An edit not applied: offer the editor again, with the text as saved. */
struct panel_reedit {
	struct panel	*p;
	char		*id;
	cJSON		*orig;
	char		*text;
};

static void
panel_reedit_free(void *arg)
{
	struct panel_reedit	*a = arg;

	free(a->id);
	cJSON_Delete(a->orig);
	free(a->text);
	free(a);
}

static void
panel_reedit_answer(struct tui *t, void *arg, const char *answer)
{
	struct panel_reedit	*a = arg;

	if (strcmp(answer, "y") != 0) {
		tui_message(t, TUI_MSG_INFO, "edit: not applied; your text is "
		    "dropped");
		return;
	}
	panel_edit_text(a->p, a->id, a->orig, a->text);
}

void
panel_reedit_offer(struct panel *p, const char *id, const cJSON *orig,
    const char *text, const char *why)
{
	struct panel_reedit	*a;
	char			*q;

	a = xcalloc(1, sizeof *a);
	a->p = p;
	a->id = id != NULL ? xstrdup(id) : NULL;
	a->orig = orig != NULL ? cJSON_Duplicate(orig, 1) :
	    cJSON_CreateObject();
	if (a->orig == NULL)
		fatalx("out of memory");
	/* The reason rides on top of the text, as a lint's would. */
	a->text = edit_with_comment(text, why);
	q = xprintf("%s\n\nReopen the editor with your text? (y/n)", why);
	dialog_ask(p->tui, "edit not applied", q, panel_reedit_answer, a,
	    panel_reedit_free);
	free(q);
}

struct panel_apply {
	struct panel	*p;
	char		*id;
	cJSON		*fresh;
	cJSON		*edited;	/* merged into fresh */
	cJSON		*orig;		/* as first fetched, to edit again */
	char		*text;		/* as saved, or NULL */
	struct merge	 m;		/* a conflict's */
};

static void
panel_apply_free(void *arg)
{
	struct panel_apply	*a = arg;

	free(a->id);
	cJSON_Delete(a->fresh);
	cJSON_Delete(a->edited);
	cJSON_Delete(a->orig);
	free(a->text);
	merge_free(&a->m);
	free(a);
}

/* Send the edit merged into the fresh copy (read again before it goes). */
static void
panel_apply_send(struct panel_apply *a, const cJSON *rec)
{
	struct panel	*p = a->p;

	if (p->ops != NULL && p->ops->edit_save != NULL)
		p->ops->edit_save(p, a->id, a->fresh, rec, a->text);
	else
		panel_write(p, a->id, a->fresh, rec, NULL, a->text);
}

static void
panel_apply_answer(struct tui *t, void *arg, const char *answer)
{
	struct panel_apply	*a = arg;

	if (strcmp(answer, "y") == 0) {
		panel_apply_send(a, a->edited);
		return;
	}
	if (a->text == NULL) {
		tui_message(t, TUI_MSG_INFO, "edit: not applied");
		return;
	}
	/* n is not the end of the edit: the text can be taken up again. */
	panel_reedit_offer(a->p, a->id, a->orig != NULL ? a->orig : a->fresh,
	    a->text, "Not applied: nothing was sent.");
}

/* A conflict's answer: send one side, or the editor on the merge. */
static void
panel_apply_conflict(struct tui *t, void *arg, enum conflict_answer ans)
{
	struct panel_apply	*a = arg;
	struct buf		 why;
	cJSON			*rec;
	char			*yaml, *text;

	(void)t;
	switch (ans) {
	case CONFLICT_THEIRS:
	case CONFLICT_MINE:
		rec = merge_resolve(&a->m, ans == CONFLICT_MINE ? MERGE_MINE :
		    MERGE_THEIRS);
		panel_apply_send(a, rec);
		cJSON_Delete(rec);
		break;
	case CONFLICT_EDIT:
		/* The server's copy is now what the diff is made against. */
		rec = merge_resolve(&a->m, MERGE_MINE);
		buf_init(&why);
		buf_adds(&why, "The server changed these since you read it "
		    "(theirs \xe2\x86\x92 yours, which this text has):\n");
		merge_conflicts_text(&a->m, &why);
		yaml = yamljson_emit(rec);
		text = edit_with_comment(yaml, buf_str(&why));
		panel_edit_text(a->p, a->id, a->fresh, text);
		free(text);
		free(yaml);
		buf_free(&why);
		cJSON_Delete(rec);
		break;
	case CONFLICT_CANCEL:
		break;
	}
}

static struct panel_apply *
panel_apply_new(struct panel *p, struct tui_req *r, const cJSON *fresh)
{
	struct panel_apply	*a;

	a = xcalloc(1, sizeof *a);
	a->p = p;
	a->id = r->id != NULL ? xstrdup(r->id) : NULL;
	a->fresh = cJSON_Duplicate(fresh, 1);
	a->orig = r->before != NULL ? cJSON_Duplicate(r->before, 1) : NULL;
	a->text = panel_edit_text_of(r) != NULL ?
	    xstrdup(panel_edit_text_of(r)) : NULL;
	return (a);
}

/*
 * The edit against a fresh copy: merged into it (the record as first
 * fetched is the base), the server's changes meanwhile kept. A field both
 * changed asks which to keep; else the diff of what would change (the
 * server's own fields left out) and the question.
 */
void
panel_diff_confirm(struct panel *p, struct tui_req *r, const cJSON *fresh)
{
	struct panel_apply	*a;
	const cJSON		*edited;
	struct buf		 b;
	size_t			 n;

	edited = cJSON_GetObjectItemCaseSensitive(r->data, "record");
	if (edited == NULL)
		return;
	a = panel_apply_new(p, r, fresh);
	merge_records(p->kind, r->before, edited, fresh, &a->m);
	buf_init(&b);
	if (a->m.nconflicts > 0) {
		buf_adds(&b, panel_noun(p));
		buf_addc(&b, ' ');
		panel_name_record(p, a->id, &b);
		conflict_ask(p->tui, buf_str(&b), &a->m, a->text != NULL,
		    panel_apply_conflict, a, panel_apply_free);
		buf_free(&b);
		return;
	}
	if (a->m.theirs_changed)
		buf_adds(&b, "The record changed on the server while you "
		    "edited it: those changes are kept.\n\n");
	a->edited = cJSON_Duplicate(a->m.merged, 1);
	n = merge_diff(&b, p->kind, fresh, a->edited);
	if (n == 0) {
		tui_message(p->tui, TUI_MSG_INFO, "edit: the server copy "
		    "already holds these values; nothing to apply");
		buf_free(&b);
		panel_apply_free(a);
		return;
	}
	buf_addf(&b, "\nApply %zu change%s to %s%s%s? (y/n)", n,
	    n == 1 ? "" : "s", p->kind->name, a->id != NULL ? " " : "",
	    a->id != NULL ? a->id : "");
	dialog_ask(p->tui, "apply the edit", buf_str(&b),
	    panel_apply_answer, a, panel_apply_free);
	buf_free(&b);
}
