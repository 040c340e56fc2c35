/*
 * The zone's schema validation settings (validation-settings): what the
 * default action and the override mean, above the record, and e to choose
 * both, each value with its meaning on its line; then one PUT.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resource.h"
#include "screen.h"
#include "tui.h"
#include "xmalloc.h"

#define VSET_DEFAULT	"validation_default_mitigation_action"
#define VSET_OVERRIDE	"validation_override_mitigation_action"

/* Each value and what it does, as the choices and the notes show them. */
static const struct {
	const char	*value;
	const char	*meaning;
} vset_defaults[] = {
	{ "none", "not checked: requests pass without validation" },
	{ "log", "a request that breaks its schema is logged, and passes" },
	{ "block", "a request that breaks its schema is denied" },
}, vset_overrides[] = {
	{ NULL, "no override: each operation's action, else the default" },
	{ "none", "validation off for the whole zone, whatever the actions" },
};

/* The choice in progress: the default picked before the override. */
struct vset_state {
	size_t	def;
};

static const char *
vset_value(const cJSON *rec, const char *field)
{
	return (cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec,
	    field)));
}

static size_t
vset_default_index(const cJSON *rec)
{
	const char	*v = vset_value(rec, VSET_DEFAULT);
	size_t		 i;

	for (i = 0; v != NULL && i < nitems(vset_defaults); i++)
		if (strcmp(v, vset_defaults[i].value) == 0)
			return (i);
	return (0);
}

static int
vset_draw(struct panel *p, int y, int h, int w)
{
	const char	*o;
	char		 line[256];
	size_t		 d;

	if (p->record == NULL || h < 5)
		return (0);
	d = vset_default_index(p->record);
	o = vset_value(p->record, VSET_OVERRIDE);
	snprintf(line, sizeof line, "Default action: %s (%s)",
	    vset_defaults[d].value, vset_defaults[d].meaning);
	screen_put(y + 1, 2, w - 2, line, screen_role(THEME_ROLE_NORMAL));
	snprintf(line, sizeof line, "Override: %s (%s)", o != NULL ? o :
	    "none set", vset_overrides[o != NULL].meaning);
	screen_put(y + 2, 2, w - 2, line, screen_role(THEME_ROLE_NORMAL));
	/* Short enough for 80 columns. */
	screen_put(y + 3, 2, w - 2, "e chooses both; an operation's own "
	    "action (operations, V) beats the default",
	    screen_role(THEME_ROLE_DIM));
	return (5);
}

static void
vset_override_chosen(struct tui *t, void *arg, size_t i, int other)
{
	struct panel		*p = arg;
	struct vset_state	*st = p->priv;
	cJSON			*body;

	(void)other;
	if (st == NULL || i >= nitems(vset_overrides))
		return;
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, VSET_DEFAULT,
	    vset_defaults[st->def].value);
	if (vset_overrides[i].value != NULL)
		cJSON_AddStringToObject(body, VSET_OVERRIDE,
		    vset_overrides[i].value);
	else
		cJSON_AddNullToObject(body, VSET_OVERRIDE);
	/*
	 * A PUT of both: from the settings as the server has them when it
	 * is sent, so a value left as shown keeps what changed meanwhile.
	 */
	(void)t;
	panel_send_update(p, NULL, p->record, body, NULL);
	cJSON_Delete(body);
}

/* Items "value  meaning", aligned. */
static void
vset_items(char **texts, const char **items, size_t n, int defaults)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		texts[i] = xprintf("%-13s %s", defaults ?
		    vset_defaults[i].value : vset_overrides[i].value != NULL ?
		    vset_overrides[i].value : "(no override)", defaults ?
		    vset_defaults[i].meaning : vset_overrides[i].meaning);
		items[i] = texts[i];
	}
}

static void
vset_default_chosen(struct tui *t, void *arg, size_t i, int other)
{
	struct panel		*p = arg;
	struct vset_state	*st;
	const char		*items[nitems(vset_overrides)];
	char			*texts[nitems(vset_overrides)];
	size_t			 k;

	(void)other;
	if (i >= nitems(vset_defaults))
		return;
	if (p->priv == NULL)
		p->priv = xcalloc(1, sizeof *st);
	st = p->priv;
	st->def = i;
	vset_items(texts, items, nitems(vset_overrides), 0);
	picker_open(t, "zone-wide override (Enter)", items,
	    nitems(vset_overrides), vset_value(p->record, VSET_OVERRIDE) !=
	    NULL, vset_override_chosen, p);
	for (k = 0; k < nitems(vset_overrides); k++)
		free(texts[k]);
}

static int
vset_action(struct panel *p, enum action a)
{
	const char	*items[nitems(vset_defaults)];
	char		*texts[nitems(vset_defaults)];
	size_t		 k;

	if (a != ACTION_EDIT)
		return (0);
	if (tui_refuse_readonly(p->tui, "edit"))
		return (TUI_HANDLED);
	vset_items(texts, items, nitems(vset_defaults), 1);
	picker_open(p->tui, "default action for operations without their "
	    "own (Enter)", items, nitems(vset_defaults),
	    vset_default_index(p->record), vset_default_chosen, p);
	for (k = 0; k < nitems(vset_defaults); k++)
		free(texts[k]);
	return (TUI_HANDLED);
}

const struct panel_ops panel_validation_settings_ops = {
	.kind = "validation-settings",
	.action = vset_action,
	.draw = vset_draw,
	.hints = (const struct panel_hint[]){
		{ ACTION_EDIT, "choose default and override" },
		{ ACTION_REFRESH, "refresh" },
		{ ACTION_NONE, NULL }
	},
};
