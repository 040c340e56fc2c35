/*
 * The panel registry: kinds whose panel does more than the generic one.
 * Adding one is a file exporting its struct panel_ops and a line here.
 */
#include "config.h"

#include <string.h>

#include "tui.h"

extern const struct panel_ops panel_discovered_ops;
extern const struct panel_ops panel_operations_ops;
extern const struct panel_ops panel_user_schemas_ops;
extern const struct panel_ops panel_validation_schemas_ops;
extern const struct panel_ops panel_validation_settings_ops;
extern const struct panel_ops panel_rate_limits_ops;
extern const struct panel_ops panel_rate_limit_rules_ops;
extern const struct panel_ops panel_rule_versions_ops;
extern const struct panel_ops panel_videos_ops;
extern const struct panel_ops panel_captions_ops;
extern const struct panel_ops panel_audio_tracks_ops;
extern const struct panel_ops panel_signing_keys_ops;
extern const struct panel_ops panel_storage_ops;
extern const struct panel_ops panel_live_inputs_ops;
extern const struct panel_ops panel_live_outputs_ops;

static const struct panel_ops *const panel_table[] = {
	&panel_discovered_ops,
	&panel_operations_ops,
	&panel_user_schemas_ops,
	&panel_validation_schemas_ops,
	&panel_validation_settings_ops,
	&panel_rate_limits_ops,
	&panel_rate_limit_rules_ops,
	&panel_rule_versions_ops,
	&panel_videos_ops,
	&panel_captions_ops,
	&panel_audio_tracks_ops,
	&panel_signing_keys_ops,
	&panel_storage_ops,
	&panel_live_inputs_ops,
	&panel_live_outputs_ops,
};

const struct panel_ops *
panel_ops_for(const struct kind *k)
{
	size_t	i;

	for (i = 0; i < nitems(panel_table); i++)
		if (strcmp(panel_table[i]->kind, k->name) == 0)
			return (panel_table[i]);
	return (NULL);
}
