/*
 * Rate limits (legacy): t enables or disables the rule under the cursor
 * (or the marked ones) by PUT, the whole rule as the API wants it. A 410
 * from the server becomes the generic panel's banner (api_gone_message).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "tui.h"
#include "validate.h"
#include "xmalloc.h"

static void
ratelimits_toggle_one(struct panel *p, const char *id)
{
	struct tui_req	*r;
	cJSON		*rec, *body, *dis;
	char		*path;
	long		 i;
	int		 now;

	if ((i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return;
	dis = cJSON_GetObjectItemCaseSensitive(rec, "disabled");
	now = cJSON_IsTrue(dis);
	body = cJSON_Duplicate(rec, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(body, "disabled");
	cJSON_AddBoolToObject(body, "disabled", !now);
	if ((path = panel_item_path(p, id)) != NULL) {
		cJSON *send = edit_update_body(p->kind, rec, body, id);
		r = tui_submit(p->tui, p, TUI_REQ_UPDATE, "PUT", path, send);
		if (r != NULL) {
			r->id = xstrdup(id);
			r->before = rec;
			rec = NULL;
		}
		cJSON_Delete(send);
		free(path);
	}
	cJSON_Delete(body);
	cJSON_Delete(rec);
}

static int
ratelimits_action(struct panel *p, enum action a)
{
	const char	**ids;
	size_t		  n, i;

	if (a != ACTION_TOGGLE || p->view != PANEL_LIST)
		return (0);
	if (tui_refuse_readonly(p->tui, "toggle"))
		return (TUI_HANDLED);
	if ((ids = panel_targets(p, &n)) == NULL)
		return (TUI_HANDLED);
	for (i = 0; i < n; i++)
		ratelimits_toggle_one(p, ids[i]);
	free(ids);
	rows_mark_all(p->rows, 0);
	return (TUI_HANDLED);
}

const struct panel_ops panel_rate_limits_ops = {
	.kind = "rate-limits",
	.action = ratelimits_action,
	.hints = "t enable/disable  n new  e edit  E yaml  d delete",
};
