/*
 * The rate limiting rules panel: the zone's http_ratelimit entry point,
 * read only. A rule's calls need the entry point's id and the whole rule
 * (the API's PATCH is not a merge), which the commands handle; the keys
 * that would change a rule say so instead of sending a broken request.
 */
#include "config.h"

#include "tui.h"

#include "panels/rlform.h"
#include "panels/rltest.h"

static int
rlrules_action(struct panel *p, enum action a)
{
	cJSON	*rec;

	switch (a) {
	case ACTION_DETAILS:
		/* The list holds the whole rule: no fetch by id. */
		if (p->view != PANEL_LIST)
			return (0);
		if ((rec = panel_current_record(p)) != NULL) {
			panel_show_record(p, rec);
			p->detail.top = 0;
			p->detail.cur = 0;
			cJSON_Delete(rec);
		}
		return (TUI_HANDLED);
	case ACTION_TEST:
		rltest_open(p->tui, NULL);
		return (TUI_HANDLED);
	case ACTION_NEW:
		rlform_new(p);
		return (TUI_HANDLED);
	case ACTION_EDIT:
		rlform_edit(p);
		return (TUI_HANDLED);
	case ACTION_EDIT_YAML:
		rlyaml_edit(p);
		return (TUI_HANDLED);
	case ACTION_DELETE:
		tui_message(p->tui, TUI_MSG_WARN, "rate limiting rules are read "
		    "only here: use edgetui create, edit or delete "
		    "rate-limit-rules (nothing was sent)");
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

const struct panel_ops panel_rate_limit_rules_ops = {
	.kind = "rate-limit-rules",
	.action = rlrules_action,
	.event = rlform_event,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "new" },
		{ ACTION_EDIT, "edit" },
		{ ACTION_EDIT_YAML, "yaml" },
		{ ACTION_TEST, "test" },
		{ ACTION_NONE, NULL }
	},
};
