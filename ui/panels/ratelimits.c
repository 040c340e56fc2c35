/*
 * Rate limits (legacy): t enables or disables the rule under the cursor,
 * or sets the marked ones all one way after asking, by PUT, the whole rule
 * as the API wants it, made from the rule as the server has it then
 * (panel_send_update); M moves rules to rate limiting rules (rlmigrate.c).
 * A 410 from the server becomes the generic panel's banner
 * (api_gone_message), which then says where rate limiting rules are.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "panels/rlmigrate.h"
#include "resource.h"
#include "tui.h"
#include "validate.h"
#include "xmalloc.h"

/* Whether rule id is disabled now; -1 when it is no longer listed. */
static int
ratelimits_disabled(struct panel *p, const char *id)
{
	cJSON	*rec;
	long	 i;
	int	 dis;

	if ((i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return (-1);
	dis = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "disabled"));
	cJSON_Delete(rec);
	return (dis);
}

/*
 * Rule id disabled (or enabled): nothing is sent if it already is. The
 * PUT replaces the whole rule: panel_send_update reads it first and
 * changes only disabled in the server's copy.
 */
static void
ratelimits_set(struct panel *p, const char *id, int disable)
{
	cJSON	*rec, *mine;
	long	 i;

	if ((i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "disabled")) ==
	    disable) {
		cJSON_Delete(rec);
		return;
	}
	if ((mine = cJSON_Duplicate(rec, 1)) == NULL)
		fatalx("out of memory");
	cJSON_DeleteItemFromObjectCaseSensitive(mine, "disabled");
	cJSON_AddBoolToObject(mine, "disabled", disable);
	panel_send_update(p, id, rec, mine, NULL);
	cJSON_Delete(mine);
	cJSON_Delete(rec);
}

struct ratelimits_bulk {
	struct panel	*p;
	char		**ids;
	size_t		  n;
	int		  disable;
};

static void
ratelimits_bulk_free(void *arg)
{
	struct ratelimits_bulk	*b = arg;
	size_t			 i;

	for (i = 0; i < b->n; i++)
		free(b->ids[i]);
	free(b->ids);
	free(b);
}

static void
ratelimits_bulk_yes(struct tui *t, void *arg, const char *answer)
{
	struct ratelimits_bulk	*b = arg;
	size_t			 i;

	(void)t;
	(void)answer;
	for (i = 0; i < b->n; i++)
		ratelimits_set(b->p, b->ids[i], b->disable);
	rows_mark_all(b->p->rows, 0);
}

/*
 * The marked rules all one way, not a flip each: disabled if any of them
 * is enabled, else enabled. The question says which and why.
 */
static void
ratelimits_toggle_marked(struct panel *p, const char **ids, size_t n)
{
	struct ratelimits_bulk	*b;
	struct buf		 q;
	size_t			 i;

	b = xcalloc(1, sizeof *b);
	b->p = p;
	b->n = n;
	b->ids = xcalloc(n, sizeof *b->ids);
	for (i = 0; i < n; i++) {
		b->ids[i] = xstrdup(ids[i]);
		if (ratelimits_disabled(p, ids[i]) == 0)
			b->disable = 1;
	}
	buf_init(&q);
	buf_addf(&q, "%s %zu %s%s (%s)?", b->disable ? "Disable" : "Enable",
	    n, panel_noun(p), n == 1 ? "" : "s", panel_marks_note(p));
	panel_name_targets(p, (const char *const *)b->ids, n, &q);
	buf_addf(&q, "\n%s (y/n)", b->disable ? "At least one is enabled: "
	    "all will be disabled." : "All are disabled: all will be "
	    "enabled.");
	dialog_confirm(p->tui, b->disable ? "disable" : "enable",
	    buf_str(&q), ratelimits_bulk_yes, b, ratelimits_bulk_free);
	buf_free(&q);
}

static int
ratelimits_action(struct panel *p, enum action a)
{
	const char	**ids;
	size_t		  n;
	int		  dis;

	if (a == ACTION_MIGRATE && p->view == PANEL_LIST) {
		rlmigrate_start(p);
		return (TUI_HANDLED);
	}
	if (a != ACTION_TOGGLE || p->view != PANEL_LIST)
		return (0);
	if (tui_refuse_readonly(p->tui, "toggle"))
		return (TUI_HANDLED);
	if ((ids = panel_targets(p, &n)) == NULL)
		return (TUI_HANDLED);
	if (rows_mark_count(p->rows) > 0)
		ratelimits_toggle_marked(p, ids, n);
	else if ((dis = ratelimits_disabled(p, ids[0])) >= 0)
		ratelimits_set(p, ids[0], !dis);
	free(ids);
	return (TUI_HANDLED);
}

const struct panel_ops panel_rate_limits_ops = {
	.kind = "rate-limits",
	.action = ratelimits_action,
	.event = rlmigrate_event,
	.shown = rlmigrate_banner,
	.closed = rlmigrate_closed,
	.hints = (const struct panel_hint[]){
		{ ACTION_TOGGLE, "enable/disable" },
		{ ACTION_MIGRATE, "migrate" },
		{ ACTION_NEW, "new" },
		{ ACTION_EDIT, "edit" },
		{ ACTION_EDIT_YAML, "yaml" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_NONE, NULL }
	},
};
