/*
 * The current Schema Validation API's kinds, as data (api-map-next section
 * 14): uploaded schemas, the zone's settings and each operation's
 * mitigation action, all under /zones/{zone}/schema_validation.
 */
#include "config.h"

#include <stddef.h>

#include "kind.h"
#include "shield.h"
#include "shieldrules.h"

#define SV_ZONE	"/zones/{zone}/schema_validation"

static const char *const sv_overrides[] = { "none", NULL };

/* ---- schemas ------------------------------------------------------------ */

static const struct kind_column sv_schema_columns[] = {
	{ .header = "NAME", .path = "name", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "KIND", .path = "kind", .width = 10,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "VALIDATION", .path = "validation_enabled", .width = 10,
	  .format = KIND_FMT_BOOL, .flags = KIND_COL_DEFAULT },
	{ .header = "CREATED", .path = "created_at", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "ID", .path = "schema_id", .width = 36,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field sv_schema_fields[] = {
	{ .path = "source", .type = KIND_TYPE_FILE,
	  .flags = KIND_F_REQUIRED | KIND_F_CREATE,
	  .check = KIND_CHECK_OPENAPI,
	  .help = "The OpenAPI 3.0 document to upload (JSON or YAML)" },
	{ .path = "kind", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED | KIND_F_CREATE,
	  .values = shieldrules_schema_kinds,
	  .help = "Kind of schema: openapi_v3" },
	{ .path = "name", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY | KIND_F_CREATE,
	  .help = "Name of the schema", .option = "name" },
	{ .path = "validation_enabled", .type = KIND_TYPE_BOOL,
	  .help = "Validate requests with it (on or off)",
	  .option = "enable" },
	{ .path = "schema_id", .type = KIND_TYPE_UUID,
	  .flags = KIND_F_READONLY, .help = "Identifier of the schema" },
	{ .path = "created_at", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When it was uploaded" },
	{ .path = NULL }
};

const struct kind kind_validation_schemas = {
	.name = "validation-schemas",
	.noun = "schema",
	.label = "name",
	.aliases = "validation-schema vschemas",
	.help = "OpenAPI schemas for schema validation (current API)",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SV_ZONE "/schemas",
	.item_path = SV_ZONE "/schemas/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_PAGES,
	.per_page = { .min = SHIELDRULES_PER_PAGE_MIN,
	    .max = SHIELDRULES_PER_PAGE_MAX, .def = 20 },
	.id_field = "schema_id",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_UPDATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_JSON_FILE,
	.update_method = KIND_METHOD_PATCH,
	.columns = sv_schema_columns,
	.fields = sv_schema_fields,
	.filters = shield_schema_filters,
};

/* ---- the zone's settings ------------------------------------------------ */

static const struct kind_column sv_settings_columns[] = {
	{ .header = "DEFAULT ACTION",
	  .path = "validation_default_mitigation_action", .width = 14,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "OVERRIDE", .path = "validation_override_mitigation_action",
	  .width = 8, .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field sv_settings_fields[] = {
	{ .path = "validation_default_mitigation_action",
	  .type = KIND_TYPE_ENUM, .flags = KIND_F_REQUIRED,
	  .values = shieldrules_actions,
	  .help = "For operations without their own: none, log or block" },
	{ .path = "validation_override_mitigation_action",
	  .type = KIND_TYPE_ENUM, .values = sv_overrides,
	  .help = "none turns validation off zone-wide; null: no override" },
	{ .path = NULL }
};

const struct kind kind_validation_settings = {
	.name = "validation-settings",
	.aliases = "validation-setting vsettings",
	.help = "The zone's schema validation default and override",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SV_ZONE "/settings",
	.item_path = SV_ZONE "/settings",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE,
	.update_method = KIND_METHOD_PUT,
	.columns = sv_settings_columns,
	.fields = sv_settings_fields,
};

/* ---- each operation's action -------------------------------------------- */

static const struct kind_column sv_op_columns[] = {
	{ .header = "OPERATION", .path = "operation_id", .width = 36,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ACTION", .path = "mitigation_action", .width = 0,
	  .flags = KIND_COL_DEFAULT, .none = "default" },
	{ .header = NULL }
};

static const struct kind_field sv_op_fields[] = {
	{ .path = "operation_id", .type = KIND_TYPE_UUID,
	  .flags = KIND_F_READONLY,
	  .help = "The API Shield operation (edgetui get operations)" },
	{ .path = "mitigation_action", .type = KIND_TYPE_ENUM,
	  .values = shieldrules_actions,
	  .help = "none, log or block; null: the zone's default" },
	{ .path = NULL }
};

const struct kind kind_operation_validation = {
	.name = "operation-validation",
	.noun = "operation's validation",
	.aliases = "opvalidation opval",
	.help = "Each operation's schema validation action (set, clear)",
	.scope = KIND_SCOPE_ZONE,
	.list_path = SV_ZONE "/settings/operations",
	.item_path = SV_ZONE "/settings/operations/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_PAGES,
	.per_page = { .min = SHIELDRULES_PER_PAGE_MIN,
	    .max = SHIELDRULES_PER_PAGE_MAX, .def = 20 },
	.id_field = "operation_id",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_SET |
	    KIND_VERB_CLEAR,
	.set_field = "mitigation_action",
	.columns = sv_op_columns,
	.fields = sv_op_fields,
};
