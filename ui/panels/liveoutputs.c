/*
 * A live input's outputs: t turns the output under the cursor (or every
 * marked one) on or off, by PUT {"enabled": ...}, the one field an output
 * changes; n creates one (url and stream key), d deletes, as in any list.
 * The stream key is a secret: masked in the list and the details until x.
 */
#include "config.h"

#include <stdlib.h>

#include "log.h"
#include "resource.h"
#include "tui.h"
#include "xmalloc.h"

/* 1 enabled, 0 disabled, -1 no such row. */
static int
liveoutputs_enabled(struct panel *p, const char *id)
{
	cJSON	*rec;
	long	 i;
	int	 on;

	if ((i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return (-1);
	/* Absent is the service's default: enabled. */
	on = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rec, "enabled"));
	cJSON_Delete(rec);
	return (on);
}

/*
 * The PUT of enabled, from the output as the server has it now (read
 * first by panel_send_update): one already so is not sent.
 */
static void
liveoutputs_set(struct panel *p, const char *id, int on)
{
	cJSON	*rec, *mine;
	long	 i;

	if (liveoutputs_enabled(p, id) == on || (i = rows_find(p->rows,
	    id)) < 0 || (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return;
	if ((mine = cJSON_Duplicate(rec, 1)) == NULL)
		fatalx("out of memory");
	cJSON_DeleteItemFromObjectCaseSensitive(mine, "enabled");
	cJSON_AddBoolToObject(mine, "enabled", on);
	panel_send_update(p, id, rec, mine, NULL);
	cJSON_Delete(mine);
	cJSON_Delete(rec);
}

/* The targets all one way: off if the first is on, else on. */
static int
liveoutputs_action(struct panel *p, enum action a)
{
	const char	**ids;
	size_t		  n, i;
	int		  on;

	if (a != ACTION_TOGGLE || p->view != PANEL_LIST)
		return (0);
	if (tui_refuse_readonly(p->tui, "toggle"))
		return (TUI_HANDLED);
	if ((ids = panel_targets(p, &n)) == NULL)
		return (TUI_HANDLED);
	if ((on = liveoutputs_enabled(p, ids[0])) >= 0) {
		for (i = 0; i < n; i++)
			liveoutputs_set(p, ids[i], !on);
		tui_message(p->tui, TUI_MSG_INFO, "%s %zu output%s...",
		    on ? "disabling" : "enabling", n, n == 1 ? "" : "s");
	}
	rows_mark_all(p->rows, 0);
	free(ids);
	return (TUI_HANDLED);
}

const struct panel_ops panel_live_outputs_ops = {
	.kind = "live-outputs",
	.action = liveoutputs_action,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "new" },
		{ ACTION_TOGGLE, "enable/disable" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_NONE, NULL }
	},
};
