/*
 * API Shield / API Gateway kinds, as data: the zone configuration,
 * discovery, discovered operations, managed operations, the schemas view
 * and user schemas (api-map section 6 and the spec).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "apirules.h"
#include "kind.h"
#include "shield.h"
#include "shieldrules.h"
#include "validate.h"

#define SHIELD_ZONE	"/zones/{zone}/api_gateway"

/* ---- configuration ------------------------------------------------------ */

/* jwt names have a form of their own; the same item twice is refused. */
static void
api_config_check(struct validate_ctx *ctx)
{
	const cJSON	*list, *item, *type, *name;
	char		 path[64], npath[80];
	int		 i = 0, j;

	list = validate_get(validate_body(ctx), "auth_id_characteristics");
	if (!cJSON_IsArray(list))
		return;
	cJSON_ArrayForEach(item, list) {
		snprintf(path, sizeof path, "auth_id_characteristics[%d]", i++);
		snprintf(npath, sizeof npath, "%s.name", path);
		type = validate_get(item, "type");
		name = validate_get(item, "name");
		if (!validate_failed(ctx, npath) && cJSON_IsString(type) &&
		    strcmp(type->valuestring, "jwt") == 0 &&
		    cJSON_IsString(name) &&
		    !apirules_jwt_claim_ok(name->valuestring))
			validate_add(ctx, npath, "a jwt claim is named "
			    "TOKEN_CONFIG_ID:$JSONPATH, such as "
			    "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub");
		if ((j = shieldrules_repeat(list, item)) >= 0)
			validate_add(ctx, path, "repeats item %d", j);
	}
}

static const struct kind_column api_config_columns[] = {
	{ .header = "AUTH ID CHARACTERISTICS",
	  .path = "auth_id_characteristics", .width = 0,
	  .format = KIND_FMT_COUNT, .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field api_config_fields[] = {
	{ .path = "auth_id_characteristics", .type = KIND_TYPE_OBJECTS,
	  .flags = KIND_F_REQUIRED,
	  .max_items = SHIELDRULES_CHARACTERISTICS_MAX,
	  .help = "What identifies a session: headers, cookies, JWT claims" },
	{ .path = "auth_id_characteristics[].type", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = shieldrules_auth_types,
	  .help = "header, cookie or jwt" },
	{ .path = "auth_id_characteristics[].name", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = SHIELDRULES_NAME_MAX,
	  .help = "Header or cookie name, or TOKEN_CONFIG_ID:$JSONPATH" },
	{ .path = NULL }
};

const struct kind kind_api_config = {
	.name = "api-config",
	.aliases = "apiconfig api-configuration",
	.help = "API Shield zone configuration: session identifiers",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SHIELD_ZONE "/configuration",
	.item_path = SHIELD_ZONE "/configuration",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE,
	.update_method = KIND_METHOD_PUT,
	.columns = api_config_columns,
	.fields = api_config_fields,
	.check = api_config_check,
};

/* ---- discovery ---------------------------------------------------------- */

static const struct kind_column discovery_columns[] = {
	{ .header = "LAST RUN", .path = "timestamp", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "SCHEMAS", .path = "schemas", .width = 7,
	  .format = KIND_FMT_COUNT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = NULL }
};

static const struct kind_field discovery_fields[] = {
	{ .path = "schemas", .type = KIND_TYPE_OBJECTS,
	  .flags = KIND_F_READONLY,
	  .help = "Discovered operations as OpenAPI documents" },
	{ .path = "timestamp", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When discovery last ran" },
	{ .path = NULL }
};

const struct kind kind_discovery = {
	.name = "discovery",
	.aliases = "disc",
	.help = "API discovery results as OpenAPI, and when discovery ran",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SHIELD_ZONE "/discovery",
	.item_path = SHIELD_ZONE "/discovery",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET,
	.columns = discovery_columns,
	.fields = discovery_fields,
};

/* ---- discovered operations ---------------------------------------------- */

static const struct kind_column disc_columns[] = {
	{ .header = "METHOD", .path = "method", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "HOST", .path = "host", .width = 20,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ENDPOINT", .path = "endpoint", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "STATE", .path = "state", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	/* The traffic, to triage by: it fits beside the state at 80. */
	{ .header = "REQ/H", .path = "features.traffic_stats.requests",
	  .path2 = "features.traffic_stats.period_seconds", .width = 6,
	  .format = KIND_FMT_PER_HOUR,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	/* Room for both origins, "ML,SessionIdentifier". */
	{ .header = "ORIGIN", .path = "origin", .width = 20,
	  .format = KIND_FMT_LIST, .flags = KIND_COL_DEFAULT },
	{ .header = "REQUESTS", .path = "features.traffic_stats.requests",
	  .width = 8, .format = KIND_FMT_NUMBER, .flags = KIND_COL_RIGHT },
	{ .header = "LAST UPDATED", .path = "last_updated", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "ID", .path = "id", .width = 36 },
	{ .header = NULL }
};

static const struct kind_field disc_fields[] = {
	{ .path = "id", .type = KIND_TYPE_UUID, .flags = KIND_F_READONLY,
	  .help = "Identifier of the discovered operation" },
	{ .path = "method", .type = KIND_TYPE_ENUM, .flags = KIND_F_READONLY,
	  .values = shieldrules_methods, .help = "HTTP method" },
	{ .path = "host", .type = KIND_TYPE_STRING, .flags = KIND_F_READONLY,
	  .help = "Host the traffic was for" },
	{ .path = "endpoint", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "Path, with {var1} templates" },
	{ .path = "last_updated", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When it last changed" },
	{ .path = "state", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_disc_settable,
	  .help = "review or ignored (saving adds it to operations)" },
	{ .path = "origin", .type = KIND_TYPE_ENUMS, .flags = KIND_F_READONLY,
	  .values = shieldrules_disc_origins,
	  .help = "Which engines discovered it" },
	{ .path = "features", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Traffic statistics" },
	{ .path = "features.traffic_stats", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Requests over the period" },
	{ .path = "features.traffic_stats.requests", .type = KIND_TYPE_NUMBER,
	  .flags = KIND_F_READONLY, .help = "Requests per period" },
	{ .path = "features.traffic_stats.period_seconds",
	  .type = KIND_TYPE_INT, .flags = KIND_F_READONLY,
	  .help = "The period, in seconds" },
	{ .path = "features.traffic_stats.last_updated",
	  .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When the statistics were computed" },
	{ .path = NULL }
};

static const struct kind_filter disc_filters[] = {
	{ .name = "endpoint", .type = KIND_TYPE_STRING,
	  .flags = KIND_FILTER_TEXT, .help = "Endpoints containing this" },
	{ .name = "host", .type = KIND_TYPE_STRINGS, .help = "Hosts" },
	{ .name = "method", .type = KIND_TYPE_ENUMS,
	  .values = shieldrules_methods,
	  .help = "HTTP methods" },
	{ .name = "state", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_disc_states,
	  .help = "review, saved or ignored" },
	{ .name = "origin", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_disc_origins,
	  .help = "Discovery engine" },
	{ .name = "diff", .type = KIND_TYPE_BOOL,
	  .help = "Only those not saved to endpoint management" },
	{ .name = "order", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_disc_orders,
	  .help = "Sort by" },
	{ .name = "direction", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_directions, .help = "asc or desc" },
	{ .name = NULL }
};

const struct kind kind_discovered_operations = {
	.name = "discovered-operations",
	.noun = "discovered operation",
	.label = "method endpoint",
	.aliases = "discovered-operation discovered dops",
	.help = "Operations API discovery found: review, ignore",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SHIELD_ZONE "/discovery/operations",
	.item_path = SHIELD_ZONE "/discovery/operations/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_PAGES,
	.per_page = { .min = SHIELDRULES_PER_PAGE_MIN,
	    .max = SHIELDRULES_PER_PAGE_MAX, .def = 20 },
	.id_field = "id",
	.verbs = KIND_VERB_LIST | KIND_VERB_UPDATE | KIND_VERB_BULK_UPDATE,
	.update_method = KIND_METHOD_PATCH,
	.columns = disc_columns,
	.fields = disc_fields,
	.filters = disc_filters,
};

/* ---- operations --------------------------------------------------------- */

static const struct kind_column ops_columns[] = {
	{ .header = "METHOD", .path = "method", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "HOST", .path = "host", .width = 24,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ENDPOINT", .path = "endpoint", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "LAST UPDATED", .path = "last_updated", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "ID", .path = "operation_id", .width = 36 },
	{ .header = "SUGGESTED",
	  .path = "features.thresholds.suggested_threshold", .width = 9,
	  .format = KIND_FMT_COUNT, .flags = KIND_COL_RIGHT },
	{ .header = "REQUESTS", .path = "features.thresholds.requests",
	  .width = 11, .format = KIND_FMT_COUNT, .flags = KIND_COL_RIGHT },
	/* Not in the list's answer: the console's operations panel adds it. */
	{ .header = "VALIDATION", .path = "mitigation_action", .width = 10,
	  .none = "default" },
	{ .header = NULL }
};

#define OPS_THRESHOLD(key, t, text)					\
	{ .path = "features.thresholds." key, .type = (t),		\
	  .flags = KIND_F_READONLY, .help = (text) }

static const struct kind_field ops_fields[] = {
	{ .path = "operation_id", .type = KIND_TYPE_UUID,
	  .flags = KIND_F_READONLY, .help = "Identifier of the operation" },
	{ .path = "method", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED | KIND_F_NOCASE,
	  .values = shieldrules_methods,
	  .help = "HTTP method" },
	{ .path = "host", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = APIRULES_HOST_MAX, .check = KIND_CHECK_HOST,
	  .help = "Host without a port, such as api.example.com" },
	{ .path = "endpoint", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = APIRULES_ENDPOINT_MAX, .check = KIND_CHECK_ENDPOINT,
	  .help = "Path such as /api/v1/users/{id}" },
	{ .path = "last_updated", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When it last changed" },
	{ .path = "features", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Features asked for (feature=)" },
	{ .path = "features.thresholds", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Traffic thresholds" },
	OPS_THRESHOLD("suggested_threshold", KIND_TYPE_INT,
	    "Suggested request threshold per session"),
	OPS_THRESHOLD("requests", KIND_TYPE_INT, "Requests seen"),
	OPS_THRESHOLD("period_seconds", KIND_TYPE_INT, "Period, in seconds"),
	OPS_THRESHOLD("p50", KIND_TYPE_INT, "Median requests per session"),
	OPS_THRESHOLD("p90", KIND_TYPE_INT, "90th percentile"),
	OPS_THRESHOLD("p99", KIND_TYPE_INT, "99th percentile"),
	OPS_THRESHOLD("auth_id_tokens", KIND_TYPE_INT, "Sessions seen"),
	OPS_THRESHOLD("data_points", KIND_TYPE_INT, "Data points used"),
	OPS_THRESHOLD("last_updated", KIND_TYPE_TIME,
	    "When the thresholds were computed"),
	{ .path = "features.parameter_schemas", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Learned parameter schemas" },
	{ .path = "features.schema_info", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Schemas that hold it" },
	{ .path = "mitigation_action", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_READONLY, .values = shieldrules_actions,
	  .help = "Its own schema validation action (operation-validation)" },
	{ .path = NULL }
};

static const struct kind_filter ops_filters[] = {
	{ .name = "endpoint", .type = KIND_TYPE_STRING,
	  .flags = KIND_FILTER_TEXT, .help = "Endpoints containing this" },
	{ .name = "host", .type = KIND_TYPE_STRINGS, .help = "Hosts" },
	{ .name = "method", .type = KIND_TYPE_ENUMS,
	  .values = shieldrules_methods,
	  .help = "HTTP methods" },
	{ .name = "feature", .type = KIND_TYPE_ENUMS,
	  .values = shieldrules_features, .help = "Features to include" },
	{ .name = "order", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_op_orders,
	  .help = "Sort by" },
	{ .name = "direction", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_directions, .help = "asc or desc" },
	{ .name = NULL }
};

const struct kind kind_operations = {
	.name = "operations",
	.noun = "operation",
	.label = "method endpoint",
	.aliases = "operation ops op",
	.help = "API Shield endpoint management: the zone's saved operations",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SHIELD_ZONE "/operations",
	.item_path = SHIELD_ZONE "/operations/{id}",
	.create_path = SHIELD_ZONE "/operations/item",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_PAGES,
	/*
	 * The spec sets a minimum but no maximum for this list (the shared
	 * API Shield parameter's 50 does not apply here); large pages keep a
	 * full listing inside the request budget, and the pager follows
	 * result_info.per_page if a server answers with fewer.
	 */
	.per_page = { .min = SHIELDRULES_PER_PAGE_MIN, .max = 1000,
	    .def = 20 },
	.id_field = "operation_id",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_DELETE | KIND_VERB_BULK_CREATE | KIND_VERB_BULK_DELETE,
	.create_body = KIND_BODY_JSON,
	.bulk_delete_key = "operation_ids",
	.columns = ops_columns,
	.fields = ops_fields,
	.filters = ops_filters,
};

/* ---- schemas ------------------------------------------------------------ */

static const struct kind_column schemas_columns[] = {
	{ .header = "UPDATED", .path = "timestamp", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "SCHEMAS", .path = "schemas", .width = 7,
	  .format = KIND_FMT_COUNT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = NULL }
};

static const struct kind_field schemas_fields[] = {
	{ .path = "schemas", .type = KIND_TYPE_OBJECTS,
	  .flags = KIND_F_READONLY,
	  .help = "Saved operations as OpenAPI documents, one per host" },
	{ .path = "timestamp", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "Newest change" },
	{ .path = NULL }
};

static const struct kind_filter schemas_filters[] = {
	{ .name = "host", .type = KIND_TYPE_STRINGS,
	  .flags = KIND_FILTER_TEXT, .help = "Hosts" },
	{ .name = "feature", .type = KIND_TYPE_ENUMS,
	  .values = shieldrules_features, .help = "Features to include" },
	{ .name = NULL }
};

const struct kind kind_schemas = {
	.name = "schemas",
	.aliases = "schema openapi",
	.help = "The zone's saved operations rendered as OpenAPI",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SHIELD_ZONE "/schemas",
	.item_path = SHIELD_ZONE "/schemas",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET,
	.columns = schemas_columns,
	.fields = schemas_fields,
	.filters = schemas_filters,
};

/* ---- user schemas ------------------------------------------------------- */

/* Validation is turned on by PATCH; only deleting the schema turns it off. */
static void
user_schemas_check(struct validate_ctx *ctx)
{
	const cJSON	*v;

	if (validate_mode(ctx) != VALIDATE_UPDATE ||
	    validate_failed(ctx, "validation_enabled"))
		return;
	v = validate_get(validate_body(ctx), "validation_enabled");
	if (cJSON_IsFalse(v))
		validate_add(ctx, "validation_enabled", "only true can be set "
		    "(delete the schema to stop validating with it)");
}

static const struct kind_column us_columns[] = {
	{ .header = "NAME", .path = "name", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "KIND", .path = "kind", .width = 10,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "VALIDATING", .path = "validation_enabled", .width = 10,
	  .format = KIND_FMT_BOOL, .flags = KIND_COL_DEFAULT },
	{ .header = "CREATED", .path = "created_at", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "ID", .path = "schema_id", .width = 36 },
	{ .header = NULL }
};

static const struct kind_field us_fields[] = {
	{ .path = "file", .type = KIND_TYPE_FILE,
	  .flags = KIND_F_REQUIRED | KIND_F_CREATE,
	  .check = KIND_CHECK_OPENAPI,
	  .help = "The OpenAPI 3.0 document to upload (JSON or YAML)" },
	{ .path = "kind", .type = KIND_TYPE_ENUM, .flags = KIND_F_REQUIRED,
	  .values = shieldrules_schema_kinds,
	  .help = "Kind of schema: openapi_v3" },
	{ .path = "name", .type = KIND_TYPE_STRING, .flags = KIND_F_NONEMPTY,
	  .help = "Name of the schema (default: the file's name)",
	  .option = "name" },
	{ .path = "validation_enabled", .type = KIND_TYPE_BOOL,
	  .help = "Validate requests with it (can only be turned on)",
	  .option = "validation" },
	{ .path = "schema_id", .type = KIND_TYPE_UUID,
	  .flags = KIND_F_READONLY, .help = "Identifier of the schema" },
	{ .path = "source", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "The schema's text" },
	{ .path = "created_at", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When it was uploaded" },
	{ .path = NULL }
};

const struct kind_filter shield_schema_filters[] = {
	{ .name = "omit_source", .type = KIND_TYPE_BOOL,
	  .help = "Leave each schema's text out" },
	{ .name = "validation_enabled", .type = KIND_TYPE_BOOL,
	  .help = "Only schemas that validate (or not)" },
	{ .name = NULL }
};

const struct kind kind_user_schemas = {
	.name = "user-schemas",
	.noun = "user schema",
	.label = "name",
	.aliases = "user-schema uschemas",
	.help = "Deprecated (classic API): use validation-schemas. OpenAPI "
	    "schemas uploaded for schema validation",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SHIELD_ZONE "/user_schemas",
	.item_path = SHIELD_ZONE "/user_schemas/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_PAGES,
	.per_page = { .min = SHIELDRULES_PER_PAGE_MIN,
	    .max = SHIELDRULES_PER_PAGE_MAX, .def = 20 },
	.id_field = "schema_id",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_UPDATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_MULTIPART,
	.update_method = KIND_METHOD_PATCH,
	.columns = us_columns,
	.fields = us_fields,
	.filters = shield_schema_filters,
	.check = user_schemas_check,
	.deprecated = "validation-schemas",
};
