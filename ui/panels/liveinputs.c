/*
 * Live inputs: o opens the input's outputs (simulcast destinations), as a
 * video's captions open from the videos list.
 */
#include "config.h"

#include "tui.h"

static int
liveinputs_action(struct panel *p, enum action a)
{
	struct panel	*sub;
	const char	*id;

	if (a != ACTION_OUTPUTS || p->view != PANEL_LIST)
		return (0);
	if ((id = panel_current_id(p)) == NULL)
		return (TUI_HANDLED);
	sub = tui_open_video_kind(p->tui, &kind_live_outputs, id);
	if (sub != p)
		sub->parent = p;
	return (TUI_HANDLED);
}

const struct panel_ops panel_live_inputs_ops = {
	.kind = "live-inputs",
	.action = liveinputs_action,
	.hints = (const struct panel_hint[]){
		{ ACTION_OUTPUTS, "outputs" },
		{ ACTION_NEW, "new" },
		{ ACTION_EDIT, "edit" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_NONE, NULL }
	},
};
