/* Legacy zone rate limits under /zones/{zone}/rate_limits. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ratelimit.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

int
ratelimit_validate(const cJSON *rule, char **cause)
{
	if (!cJSON_IsObject(rule)) {
		*cause = xstrdup("the body must be a JSON object");
		return (-1);
	}
	return (0);
}

static const struct route ratelimit_routes[] = {
	{ HTTP_GET, "/zones/{zone:hex32}/rate_limits", NULL, ROUTE_BODY_NONE },
};

const struct area ratelimit_area = {
	.name = "rate-limits",
	.routes = ratelimit_routes,
	.nroutes = 0,
};
