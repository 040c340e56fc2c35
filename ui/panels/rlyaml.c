/*
 * E in the rate limiting rules panel: the rule as YAML in $EDITOR. What
 * the service would refuse on the profile's plan (rulesets_lint) reopens
 * the editor with the message and a caret under the column as a comment
 * on top; then the diff against a fresh copy, the question, the PATCH of
 * the whole rule. A refusal offers the text again.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "log.h"
#include "rulesets.h"
#include "tui.h"
#include "xmalloc.h"
#include "yamljson.h"

#include "panels/rlform.h"
#include "panels/rlrules.h"

#define RLYAML_SUB_FRESH	0x726c10	/* the entry point to diff */

struct rlyaml_editor {
	struct edit	*e;
	char		*cause;
};

static int
rlyaml_run_editor(void *arg)
{
	struct rlyaml_editor	*re = arg;

	return (edit_run_editor(re->e->file, &re->cause));
}

/*
 * The lint's problem as the comment says it: the field and column, then
 * the expression on one line with a caret under the column.
 */
static char *
rlyaml_lint_text(const struct rulesets_lint *l)
{
	char	*render, *nl, *s;

	if (l->text == NULL || l->err.column <= 0)
		return (xprintf("%s: %s", l->field, l->err.message));
	render = expr_error_render(l->text, &l->err);
	nl = strchr(render, '\n');
	s = xprintf("%s: column %d: %s\n%s", l->field, l->err.column,
	    l->err.message, nl != NULL ? nl + 1 : "");
	free(render);
	/* No empty comment line at the end. */
	if (*s != '\0' && s[strlen(s) - 1] == '\n')
		s[strlen(s) - 1] = '\0';
	return (s);
}

/*
 * Before the generic check: a rule the service would refuse on the plan
 * goes back to the editor with why on top. 1: edit again; 0: go on to
 * edit_next; -1 with *cause.
 */
static int
rlyaml_lint_round(struct edit *e, enum expr_plan plan, char **cause)
{
	struct rulesets_lint	 l;
	cJSON			*rec;
	char			*text, *why = NULL, *msg, *marked;
	size_t			 len;
	int			 rv = 0;

	if ((text = edit_read_file(e->file, &len, cause)) == NULL)
		return (-1);
	/* Saved as reopened, unchanged, not YAML: edit_next says so. */
	if ((e->last != NULL && strcmp(text, e->last) == 0) ||
	    (rec = yamljson_parse(text, len, &why)) == NULL) {
		free(why);
		free(text);
		return (0);
	}
	if (!cJSON_IsObject(rec) || cJSON_Compare(rec, e->orig, 1) ||
	    rulesets_lint(rec, plan, &l) == 0)
		goto out;
	msg = rlyaml_lint_text(&l);
	marked = edit_with_comment(text, msg);
	if (edit_write_file(e->file, marked, cause) != 0) {
		free(msg);
		free(marked);
		rv = -1;
		goto out;
	}
	free(e->last);
	e->last = marked;
	free(e->error);
	e->error = msg;
	rv = 1;
	if (++e->rounds >= EDIT_ROUNDS) {
		*cause = xprintf("gave up after %d rounds: %s", EDIT_ROUNDS,
		    e->error);
		rv = -1;
	}
out:
	cJSON_Delete(rec);
	free(text);
	return (rv);
}

/* The editor until the rule is fit to send; then the fresh copy. */
static void
rlyaml_run(struct panel *p, const char *id, struct edit *ep)
{
	struct edit		 e = *ep;
	struct rlyaml_editor	 re;
	struct tui_req		*r;
	enum edit_status	 st;
	cJSON			*edited = NULL;
	char			*cause = NULL, *text, *path;
	int			 lint;

	re.e = &e;
	for (;;) {
		re.cause = NULL;
		if (tui_suspend_run(p->tui, rlyaml_run_editor, &re) != 0) {
			tui_message(p->tui, TUI_MSG_ERROR, "edit: %s; nothing "
			    "changed", re.cause);
			free(re.cause);
			goto out;
		}
		if ((lint = rlyaml_lint_round(&e, rlrules_plan(p->tui),
		    &cause)) < 0) {
			st = EDIT_FAILED;
			break;
		}
		if (lint > 0)
			continue;
		if ((st = edit_next(&e, &edited, &cause)) != EDIT_AGAIN)
			break;
	}
	switch (st) {
	case EDIT_CHANGED:
		break;
	case EDIT_UNCHANGED:
	case EDIT_EMPTY:
		tui_message(p->tui, TUI_MSG_INFO, "edit: no change");
		goto out;
	default:
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s; nothing was "
		    "sent", cause);
		free(cause);
		goto out;
	}
	/* Diff against a fresh copy: the rule may have changed since. */
	if ((text = edit_read_file(e.file, NULL, &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		goto out;
	}
	path = kind_list_path(p->kind, p->vars, &cause);
	r = path != NULL ? tui_submit(p->tui, p, TUI_REQ_OTHER, "GET", path,
	    NULL) : NULL;
	if (path == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	if (r != NULL) {
		r->sub = RLYAML_SUB_FRESH;
		r->id = xstrdup(id);
		r->before = cJSON_Duplicate(e.orig, 1);
		r->data = cJSON_CreateObject();
		cJSON_AddItemToObject(r->data, "record", edited);
		cJSON_AddStringToObject(r->data, "text", text);
		edited = NULL;
		tui_message(p->tui, TUI_MSG_INFO, "fetching the rule to "
		    "compare your edit...");
	}
	free(path);
	free(text);
out:
	cJSON_Delete(edited);
	edit_close(&e);
}

void
rlyaml_edit(struct panel *p)
{
	struct edit	 e;
	cJSON		*rec;
	char		*cause = NULL;

	if (tui_refuse_readonly(p->tui, "edit"))
		return;
	if ((rec = panel_current_record(p)) == NULL ||
	    panel_current_id(p) == NULL) {
		cJSON_Delete(rec);
		return;
	}
	/* A list may number its rules: a place, not a field of the rule. */
	cJSON_DeleteItemFromObjectCaseSensitive(rec, "position");
	if (edit_open(&e, p->kind, rec, VALIDATE_UPDATE, &cause) != 0) {
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
	} else
		rlyaml_run(p, panel_current_id(p), &e);
	cJSON_Delete(rec);
}

/* ---- after the editor: the diff, the question, the text offered again ---- */

struct rlyaml_offer {
	struct panel	*p;
	char		*id;
	cJSON		*orig;		/* as first listed */
	cJSON		*fresh;		/* as the server has it now */
	cJSON		*edited;
	char		*text;
};

static void
rlyaml_offer_free(void *arg)
{
	struct rlyaml_offer	*o = arg;

	free(o->id);
	cJSON_Delete(o->orig);
	cJSON_Delete(o->fresh);
	cJSON_Delete(o->edited);
	free(o->text);
	free(o);
}

static struct rlyaml_offer *
rlyaml_offer_new(struct panel *p, const char *id, const cJSON *orig,
    const char *text)
{
	struct rlyaml_offer	*o;

	o = xcalloc(1, sizeof *o);
	o->p = p;
	o->id = xstrdup(id);
	if ((o->orig = cJSON_Duplicate(orig, 1)) == NULL)
		fatalx("out of memory");
	o->text = xstrdup(text);
	return (o);
}

static void
rlyaml_again(struct tui *t, void *arg, const char *answer)
{
	struct rlyaml_offer	*o = arg;
	struct edit		 e;
	char			*cause = NULL;

	if (strcmp(answer, "y") != 0) {
		tui_message(t, TUI_MSG_INFO, "edit: not applied; your text is "
		    "dropped");
		return;
	}
	if (edit_open_text(&e, o->p->kind, o->orig, o->text, VALIDATE_UPDATE,
	    &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	rlyaml_run(o->p, o->id, &e);
}

static void
rlyaml_offer_again(struct rlyaml_offer *o, const char *why)
{
	char	*q, *text;

	/* The reason rides on top of the text, as a lint's would. */
	text = edit_with_comment(o->text, why);
	free(o->text);
	o->text = text;
	q = xprintf("%s\n\nReopen the editor with your text? (y/n)", why);
	dialog_ask(o->p->tui, "edit not applied", q, rlyaml_again, o,
	    rlyaml_offer_free);
	free(q);
}

void
rlyaml_refused(struct panel *p, const char *id, const cJSON *orig,
    const char *text, const char *why)
{
	struct rlyaml_offer	*o;
	cJSON			*empty = NULL;

	tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", why);
	if (orig == NULL)
		orig = empty = cJSON_CreateObject();
	o = rlyaml_offer_new(p, id, orig, text);
	cJSON_Delete(empty);
	rlyaml_offer_again(o, why);
}

static void
rlyaml_apply(struct tui *t, void *arg, const char *answer)
{
	struct rlyaml_offer	*o = arg;
	struct rlyaml_offer	*again;

	if (strcmp(answer, "y") == 0) {
		if (rlform_write(o->p, o->id, o->edited, o->fresh, 0, NULL,
		    o->text) != NULL)
			tui_message(t, TUI_MSG_INFO, "saving %s...", o->id);
		return;
	}
	/* n is not the end of the edit: the text can be taken up again. */
	again = rlyaml_offer_new(o->p, o->id, o->orig, o->text);
	rlyaml_offer_again(again, "Not applied: nothing was sent.");
}

/* The fresh copy came: the diff, then apply or not. */
static void
rlyaml_diff(struct panel *p, struct tui_req *r, const cJSON *ep)
{
	struct rlyaml_offer	*o;
	const cJSON		*fresh, *text;
	struct buf		 b;
	size_t			 n;

	text = cJSON_GetObjectItemCaseSensitive(r->data, "text");
	o = rlyaml_offer_new(p, r->id, r->before, cJSON_IsString(text) ?
	    text->valuestring : "");
	o->edited = cJSON_DetachItemFromObjectCaseSensitive(r->data,
	    "record");
	/* Moves are K and J: a position typed is not sent (see the body). */
	cJSON_DeleteItemFromObjectCaseSensitive(o->edited, "position");
	if ((fresh = rulesets_rule_find(ep, r->id, NULL)) == NULL) {
		rlyaml_offer_again(o, "The rule is no longer on the server "
		    "(deleted meanwhile?): nothing was sent.");
		return;
	}
	o->fresh = cJSON_Duplicate(fresh, 1);
	buf_init(&b);
	if (r->before != NULL && !cJSON_Compare(r->before, fresh, 1))
		buf_adds(&b, "Warning: the rule changed on the server "
		    "while you edited it;\nthe diff is against its current "
		    "copy.\n\n");
	if ((n = edit_diff(&b, fresh, o->edited)) == 0) {
		tui_message(p->tui, TUI_MSG_INFO, "edit: the server copy "
		    "already holds these values; nothing to apply");
		rlyaml_offer_free(o);
		buf_free(&b);
		return;
	}
	buf_addf(&b, "\nApply %zu change%s to %s %s? (y/n)", n,
	    n == 1 ? "" : "s", p->kind->name, o->id);
	dialog_ask(p->tui, "apply the edit", buf_str(&b), rlyaml_apply, o,
	    rlyaml_offer_free);
	buf_free(&b);
}

int
rlyaml_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*text;
	char		*why;

	if (r->type != TUI_REQ_OTHER || r->sub != RLYAML_SUB_FRESH)
		return (0);
	if (ev->kind == JOBS_EVENT_DONE)
		rlyaml_diff(p, r, ev->result);
	else if (ev->kind == JOBS_EVENT_FAILED) {
		text = cJSON_GetObjectItemCaseSensitive(r->data, "text");
		why = xprintf("Could not fetch the rule to compare: %s",
		    tui_cause(r, ev));
		rlyaml_refused(p, r->id, r->before, cJSON_IsString(text) ?
		    text->valuestring : "", why);
		free(why);
	}
	return (1);
}
