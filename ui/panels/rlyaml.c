/*
 * E in the rate limiting rules panel: the generic E (ui/panels/yamledit.c)
 * on the listed rule, with the rules' hooks. What the service would refuse
 * on the profile's plan (rulesets_lint) reopens the editor with the message
 * and a caret under the column on top; the fresh copy is the rule in the
 * entry point; the save is the whole-rule PATCH (rlform_write), whose
 * refusal offers the text again.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "resource.h"
#include "rulesets.h"
#include "tui.h"
#include "xmalloc.h"

#include "panels/rlform.h"
#include "panels/rlrules.h"

char *
rlyaml_lint(struct panel *p, const cJSON *rule)
{
	struct rulesets_lint	 l;

	if (rulesets_lint(rule, rlrules_plan(p->tui), &l) == 0)
		return (NULL);
	return (rulesets_lint_comment(&l));
}

/* A rule has no call of its own: the fresh copy is in the entry point. */
char *
rlyaml_fetch_path(struct panel *p, const char *id)
{
	char	*path, *cause = NULL;

	(void)id;
	if ((path = kind_list_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

void
rlyaml_save(struct panel *p, const char *id, const cJSON *fresh,
    const cJSON *edited, const char *text)
{
	if (rlform_write(p, id, edited, fresh, 0, NULL, text) != NULL)
		tui_message(p->tui, TUI_MSG_INFO, "saving %s...", id);
}

void
rlyaml_edit(struct panel *p)
{
	cJSON	*rec;

	if (tui_refuse_readonly(p->tui, "edit"))
		return;
	if ((rec = panel_current_record(p)) != NULL &&
	    panel_current_id(p) != NULL) {
		/* A list may number its rules: a place, not a field of one. */
		cJSON_DeleteItemFromObjectCaseSensitive(rec, "position");
		panel_edit_yaml(p, panel_current_id(p), rec);
	}
	cJSON_Delete(rec);
}

void
rlyaml_refused(struct panel *p, const char *id, const cJSON *orig,
    const char *text, const char *why)
{
	tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", why);
	panel_reedit_offer(p, id, orig, text, why);
}

/* The entry point came: the rule in it is the copy to diff against. */
int
rlyaml_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*fresh;

	if (r->type != TUI_REQ_FETCH_DIFF || ev->kind != JOBS_EVENT_DONE)
		return (0);
	/* Moves are K and J: a position typed is not sent (see the body). */
	cJSON_DeleteItemFromObjectCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(r->data, "record"), "position");
	if ((fresh = rulesets_rule_find(ev->result, r->id, NULL)) != NULL)
		panel_diff_confirm(p, r, fresh);
	else
		panel_reedit_offer(p, r->id, r->before,
		    panel_edit_text_of(r) != NULL ? panel_edit_text_of(r) : "",
		    "The rule is no longer on the server (deleted meanwhile?): "
		    "nothing was sent.");
	return (1);
}
