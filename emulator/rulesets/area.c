/*
 * The Rulesets API for the zone phase http_ratelimit (rate limiting
 * rules): its tables and routes. Every write runs in the server's
 * transaction, so a refused one leaves nothing behind.
 */
#include "config.h"

#include "internal.h"

/*
 * rs_ruleset: one row per ruleset, naming its newest version; seq is the
 * list order and the cursor's place. rs_version: every version whole, the
 * rules included, so old versions stay readable as they were.
 */
static const char rs_schema[] =
	"CREATE TABLE IF NOT EXISTS rs_ruleset ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" kind TEXT NOT NULL,"
	" phase TEXT NOT NULL,"
	" version INTEGER NOT NULL,"
	" UNIQUE (zone, id),"
	" UNIQUE (zone, kind, phase));"
	"CREATE TABLE IF NOT EXISTS rs_version ("
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" version INTEGER NOT NULL,"
	" body TEXT NOT NULL,"
	" PRIMARY KEY (zone, id, version)) WITHOUT ROWID;";

static const struct route rs_routes[] = {
	{ HTTP_GET, RS_ZONE, rs_ruleset_list, ROUTE_BODY_NONE },
	{ HTTP_POST, RS_ZONE, rs_ruleset_create, ROUTE_BODY_JSON,
	    ROUTE_WRITE },
	{ HTTP_GET, RS_ZONE "/{ruleset_id:hex32}", rs_ruleset_get,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, RS_ENTRY, rs_entry_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, RS_ENTRY, rs_entry_put, ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, RS_ENTRY "/versions", rs_versions_list, ROUTE_BODY_NONE },
	{ HTTP_GET, RS_ENTRY "/versions/{ruleset_version}", rs_version_get,
	    ROUTE_BODY_NONE },
	{ HTTP_POST, RS_ZONE "/{ruleset_id:hex32}/rules", rs_rule_post,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_PATCH, RS_ZONE "/{ruleset_id:hex32}/rules/{rule_id:hex32}",
	    rs_rule_patch, ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_DELETE, RS_ZONE "/{ruleset_id:hex32}/rules/{rule_id:hex32}",
	    rs_rule_delete, ROUTE_BODY_NONE, ROUTE_WRITE },
};

const struct area rulesets_area = {
	.name = "rulesets",
	.routes = rs_routes,
	.nroutes = nitems(rs_routes),
	.schema = rs_schema,
	.demo = rs_demo,
};
