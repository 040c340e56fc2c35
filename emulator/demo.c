/*
 * --demo-data: every area seeds the demo account and zone once; the store
 * remembers that it did, so a restart does not seed twice.
 */
#include "config.h"

#include <stdlib.h>

#include "demo.h"
#include "server.h"
#include "store.h"
#include "xmalloc.h"

/* Set for the areas' seeds, which share one signature. */
static int	demo_seed_plan;

int
demo_plan(void)
{
	return (demo_seed_plan);
}

int
demo_seed(struct store *store, int plan, char **cause)
{
	char	*done;
	size_t	 i;

	demo_seed_plan = plan;
	if ((done = store_kv_get(store, "demo", "seeded")) != NULL) {
		free(done);
		return (0);
	}
	if (store_begin(store) != 0) {
		*cause = xprintf("demo data: %s", store_errmsg(store));
		return (-1);
	}
	for (i = 0; server_areas[i] != NULL; i++) {
		if (server_areas[i]->demo == NULL)
			continue;
		if (server_areas[i]->demo(store, DEMO_ACCOUNT, DEMO_ZONE,
		    cause) != 0)
			goto fail;
	}
	if (store_kv_put(store, "demo", "seeded", "1") != 0 ||
	    store_commit(store) != 0) {
		*cause = xprintf("demo data: %s", store_errmsg(store));
		goto fail;
	}
	return (0);

fail:
	store_rollback(store);
	return (-1);
}
