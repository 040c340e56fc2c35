/*
 * API Shield's area: its tables, its routes and what it does when the
 * server stops.
 */
#include "config.h"

#include "internal.h"

/*
 * shield_op: seq (the rowid) is creation order, the default order and the
 * tie-breaker. An index ends in the rowid, so (zone) serves pages in that
 * order, and (zone, host) both the host filter in that order and the host
 * order with its ties; likewise method and endpoint.
 * Thresholds are columns so lists can order by them; th_last_updated NULL
 * means the operation has none. mitigation is the operation-level schema
 * validation action (NULL: the zone's default applies).
 *
 * shield_zone holds each zone's operation count (count(*) over 100 000
 * rows costs milliseconds a page) and a generation that changes with every
 * insert and delete, which the rank cache keys on; triggers keep both right
 * whoever writes.
 *
 * shield_disc: discovered operations; origin is a bit set (1 ML,
 * 2 SessionIdentifier). shield_schema: uploaded user schemas, with the
 * operations each describes in shield_schema_op.
 */
static const char shield_schema[] =
	"CREATE TABLE IF NOT EXISTS shield_op ("
	" seq INTEGER PRIMARY KEY,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" method TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" endpoint TEXT NOT NULL,"
	" last_updated TEXT NOT NULL,"
	" mitigation TEXT,"
	" th_period_seconds INTEGER,"
	" th_suggested_threshold INTEGER,"
	" th_p50 INTEGER,"
	" th_p90 INTEGER,"
	" th_p99 INTEGER,"
	" th_requests INTEGER,"
	" th_auth_id_tokens INTEGER,"
	" th_data_points INTEGER,"
	" th_last_updated TEXT,"
	" params TEXT,"
	" params_updated TEXT,"
	" UNIQUE (zone, id),"
	" UNIQUE (zone, method, host, endpoint));"
	"CREATE INDEX IF NOT EXISTS shield_op_zone ON shield_op (zone);"
	"CREATE INDEX IF NOT EXISTS shield_op_host ON shield_op (zone, host);"
	"CREATE INDEX IF NOT EXISTS shield_op_method"
	" ON shield_op (zone, method);"
	"CREATE INDEX IF NOT EXISTS shield_op_endpoint"
	" ON shield_op (zone, endpoint);"
	"CREATE TABLE IF NOT EXISTS shield_zone ("
	" zone TEXT PRIMARY KEY,"
	" ops INTEGER NOT NULL,"
	" gen INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TRIGGER IF NOT EXISTS shield_op_insert"
	" AFTER INSERT ON shield_op"
	" BEGIN"
	"  INSERT INTO shield_zone (zone, ops, gen) VALUES (new.zone, 1, 1)"
	"   ON CONFLICT (zone) DO UPDATE SET ops = ops + 1, gen = gen + 1;"
	" END;"
	"CREATE TRIGGER IF NOT EXISTS shield_op_delete"
	" AFTER DELETE ON shield_op"
	" BEGIN"
	"  UPDATE shield_zone SET ops = ops - 1, gen = gen + 1"
	"   WHERE zone = old.zone;"
	" END;"
	"CREATE TABLE IF NOT EXISTS shield_disc ("
	" seq INTEGER PRIMARY KEY,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" method TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" endpoint TEXT NOT NULL,"
	" last_updated TEXT NOT NULL,"
	" state TEXT NOT NULL,"
	" origin INTEGER NOT NULL,"
	" requests REAL NOT NULL,"
	" period_seconds INTEGER NOT NULL,"
	" stats_updated TEXT NOT NULL,"
	" UNIQUE (zone, id),"
	" UNIQUE (zone, method, host, endpoint));"
	"CREATE INDEX IF NOT EXISTS shield_disc_host"
	" ON shield_disc (zone, host);"
	"CREATE TABLE IF NOT EXISTS shield_schema ("
	" seq INTEGER PRIMARY KEY,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" kind TEXT NOT NULL,"
	" source TEXT NOT NULL,"
	" created_at TEXT NOT NULL,"
	" validation_enabled INTEGER NOT NULL,"
	" UNIQUE (zone, id));"
	"CREATE TABLE IF NOT EXISTS shield_schema_op ("
	" seq INTEGER PRIMARY KEY,"
	" schema_seq INTEGER NOT NULL"
	"  REFERENCES shield_schema (seq) ON DELETE CASCADE,"
	" zone TEXT NOT NULL,"
	" method TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" endpoint TEXT NOT NULL,"
	" UNIQUE (schema_seq, method, host, endpoint));"
	"CREATE INDEX IF NOT EXISTS shield_schema_op_key"
	" ON shield_schema_op (zone, method, host, endpoint);";

#define SV "/zones/{zone:hex32}/schema_validation"

static const struct route shield_routes[] = {
	{ HTTP_GET, ZONE "/configuration", shield_config_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/configuration", shield_config_put, ROUTE_BODY_JSON,
	    ROUTE_WRITE },

	{ HTTP_GET, ZONE "/discovery", shield_disc_openapi, ROUTE_BODY_NONE },
	{ HTTP_GET, ZONE "/discovery/operations", shield_disc_list,
	    ROUTE_BODY_NONE },
	{ HTTP_PATCH, ZONE "/discovery/operations", shield_disc_patch_bulk,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_PATCH, ZONE "/discovery/operations/{operation_id:uuid}",
	    shield_disc_patch_one, ROUTE_BODY_JSON, ROUTE_WRITE },

	{ HTTP_GET, ZONE "/operations", shield_op_list, ROUTE_BODY_NONE },
	{ HTTP_POST, ZONE "/operations", shield_op_create_bulk,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_DELETE, ZONE "/operations", shield_op_delete_bulk,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_POST, ZONE "/operations/item", shield_op_create_one,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, ZONE "/operations/{operation_id:uuid}", shield_op_get,
	    ROUTE_BODY_NONE },
	{ HTTP_DELETE, ZONE "/operations/{operation_id:uuid}",
	    shield_op_delete_one, ROUTE_BODY_NONE, ROUTE_WRITE },
	{ HTTP_PATCH, ZONE "/operations/schema_validation", shield_op_sv_bulk,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, ZONE "/operations/{operation_id:uuid}/schema_validation",
	    shield_op_sv_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/operations/{operation_id:uuid}/schema_validation",
	    shield_op_sv_put, ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, ZONE "/schemas", shield_schemas_get, ROUTE_BODY_NONE },

	{ HTTP_GET, ZONE "/user_schemas", shield_us_list, ROUTE_BODY_NONE },
	{ HTTP_POST, ZONE "/user_schemas", shield_us_create,
	    ROUTE_BODY_MULTIPART, ROUTE_WRITE },
	{ HTTP_GET, ZONE "/user_schemas/{schema_id:uuid}", shield_us_get,
	    ROUTE_BODY_NONE },
	{ HTTP_PATCH, ZONE "/user_schemas/{schema_id:uuid}", shield_us_patch,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_DELETE, ZONE "/user_schemas/{schema_id:uuid}", shield_us_delete,
	    ROUTE_BODY_NONE, ROUTE_WRITE },
	{ HTTP_GET, ZONE "/user_schemas/{schema_id:uuid}/operations",
	    shield_us_ops, ROUTE_BODY_NONE },

	{ HTTP_GET, ZONE "/settings/schema_validation", shield_settings_get,
	    ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/settings/schema_validation", shield_settings_put,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_PATCH, ZONE "/settings/schema_validation",
	    shield_settings_patch, ROUTE_BODY_JSON, ROUTE_WRITE },

	/* The current API over the same tables: schema_validation.c. */
	{ HTTP_GET, SV "/schemas", shield_sv_schema_list, ROUTE_BODY_NONE },
	{ HTTP_POST, SV "/schemas", shield_sv_schema_create, ROUTE_BODY_JSON,
	    ROUTE_WRITE },
	{ HTTP_GET, SV "/schemas/{schema_id:uuid}", shield_sv_schema_get,
	    ROUTE_BODY_NONE },
	{ HTTP_PATCH, SV "/schemas/{schema_id:uuid}", shield_sv_schema_patch,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_DELETE, SV "/schemas/{schema_id:uuid}",
	    shield_sv_schema_delete, ROUTE_BODY_NONE, ROUTE_WRITE },
	{ HTTP_GET, SV "/settings", shield_sv_settings_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, SV "/settings", shield_sv_settings_put, ROUTE_BODY_JSON,
	    ROUTE_WRITE },
	{ HTTP_PATCH, SV "/settings", shield_sv_settings_patch,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, SV "/settings/operations", shield_sv_ops_list,
	    ROUTE_BODY_NONE },
	{ HTTP_PATCH, SV "/settings/operations", shield_sv_ops_bulk,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, SV "/settings/operations/{operation_id:uuid}",
	    shield_sv_op_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, SV "/settings/operations/{operation_id:uuid}",
	    shield_sv_op_put, ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_DELETE, SV "/settings/operations/{operation_id:uuid}",
	    shield_sv_op_delete, ROUTE_BODY_NONE, ROUTE_WRITE },
};

static void
shield_stop(struct server *srv)
{
	shield_rank_clear(server_store(srv));
}

const struct area shield_area = {
	.name = "api-shield",
	.routes = shield_routes,
	.nroutes = nitems(shield_routes),
	.schema = shield_schema,
	.demo = shield_demo,
	.stop = shield_stop,
};
