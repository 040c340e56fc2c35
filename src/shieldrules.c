/* API Shield's values and limits (see shieldrules.h). */
#include "config.h"

#include <string.h>

#include "shieldrules.h"

const char *const shieldrules_methods[] = {
	"GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "CONNECT", "PATCH",
	"TRACE", NULL
};
const char *const shieldrules_auth_types[] = {
	"header", "cookie", "jwt", NULL
};
const char *const shieldrules_disc_states[] = {
	"review", "saved", "ignored", NULL
};
/* saved comes from adding the operation to endpoint management. */
const char *const shieldrules_disc_settable[] = {
	"review", "ignored", NULL
};
const char *const shieldrules_disc_origins[] = {
	"ML", "SessionIdentifier", NULL
};
const char *const shieldrules_disc_orders[] = {
	"host", "method", "endpoint", "traffic_stats.requests",
	"traffic_stats.last_updated", NULL
};
const char *const shieldrules_op_orders[] = {
	"method", "host", "endpoint", "thresholds.period_seconds",
	"thresholds.suggested_threshold", "thresholds.p50", "thresholds.p90",
	"thresholds.p99", "thresholds.requests", "thresholds.auth_id_tokens",
	"thresholds.data_points", "thresholds.last_updated", NULL
};
const char *const shieldrules_features[] = {
	"thresholds", "parameter_schemas", "schema_info", NULL
};
const char *const shieldrules_directions[] = { "asc", "desc", NULL };
const char *const shieldrules_actions[] = { "none", "log", "block", NULL };
const char *const shieldrules_schema_kinds[] = { "openapi_v3", NULL };

int
shieldrules_repeat(const cJSON *list, const cJSON *item)
{
	const cJSON	*prev;
	int		 j = 0;

	cJSON_ArrayForEach(prev, list) {
		if (prev == item)
			break;
		if (cJSON_Compare(prev, item, 1))
			return (j);
		j++;
	}
	return (-1);
}
