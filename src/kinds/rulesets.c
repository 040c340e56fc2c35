/*
 * Rate limiting rules, as data (api-map-next 11): the rules of the zone's
 * http_ratelimit entry point, the zone's rulesets and the entry point's
 * versions. The rules' calls go through the entry point (ui/cli/rules.c):
 * a 404 there means no rules yet, and writes need the ruleset's id.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "apirules.h"
#include "kind.h"
#include "rlrule.h"
#include "rulesets.h"
#include "validate.h"

/*
 * The service's own checks (rlrule.h) once the fields are well typed, so
 * the editor reopens on what the server would refuse. The plan is not
 * known here: the commands lint again with the profile's before sending.
 */
static void
rulesets_rule_check(struct validate_ctx *ctx)
{
	struct rlrule_problem	 p;

	memset(&p, 0, sizeof p);
	if (rlrule_check(validate_body(ctx), EXPR_PLAN_NONE, &p) == 0 ||
	    validate_failed(ctx, p.field))
		return;
	if (p.column > 0)
		validate_add(ctx, p.field, "column %d: %s", p.column,
		    p.message);
	else
		validate_add(ctx, p.field, "%s", p.message);
}

/*
 * Rows come in evaluation order; "position" is not the server's: the
 * table and the console number the rules they list. The expression, the
 * widest, is last so it takes what is left. A narrow screen keeps the
 * description (whole first), then the expression, then the rest; the
 * timeout and characteristics, then the id, only when the expression has
 * room too.
 */
static const struct kind_column rulesets_rule_columns[] = {
	{ .header = "#", .path = "position", .width = 3,
	  .format = KIND_FMT_NUMBER, .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT,
	  .priority = KIND_COL_NAME },
	{ .header = "DESCRIPTION", .path = "description", .width = 18,
	  .max = 40, .flags = KIND_COL_DEFAULT, .priority = KIND_COL_NAME },
	{ .header = "ACTION", .path = "action", .width = 17,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "RATE", .path = "ratelimit.requests_per_period",
	  .path2 = "ratelimit.period", .width = 9,
	  .format = KIND_FMT_RATE_SECONDS,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	/* 0 (or absent: the API may leave a 0 out) throttles. */
	{ .header = "TIMEOUT", .path = "ratelimit.mitigation_timeout",
	  .width = 8, .format = KIND_FMT_NUMBER, .none = "throttle",
	  .zero = "throttle", .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT,
	  .priority = KIND_COL_DETAIL },
	{ .header = "ENABLED", .path = "enabled", .width = 7,
	  .format = KIND_FMT_BOOL, .none = "yes", .flags = KIND_COL_DEFAULT },
	{ .header = "CHARACTERISTICS", .path = "ratelimit.characteristics",
	  .width = 15, .format = KIND_FMT_LIST, .flags = KIND_COL_DEFAULT,
	  .priority = KIND_COL_DETAIL },
	{ .header = "EXPRESSION", .path = "expression", .width = 0, .max = 64,
	  .flags = KIND_COL_DEFAULT, .priority = KIND_COL_TEXT },
	{ .header = "COUNTING", .path = "ratelimit.counting_expression",
	  .width = 0 },
	{ .header = "REF", .path = "ref", .width = 32 },
	{ .header = "VERSION", .path = "version", .width = 7,
	  .flags = KIND_COL_RIGHT },
	{ .header = "UPDATED", .path = "last_updated", .width = 16,
	  .format = KIND_FMT_TIME },
	{ .header = "ID", .path = "id", .width = 32, .priority = KIND_COL_ID },
	{ .header = NULL }
};

static const struct kind_field rulesets_rule_fields[] = {
	{ .path = "id", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the rule" },
	{ .path = "version", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_STAMP,
	  .help = "The rule's version" },
	{ .path = "last_updated", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY | KIND_F_STAMP,
	  .help = "When the rule last changed" },
	{ .path = "position", .type = KIND_TYPE_INT,
	  .flags = KIND_F_READONLY, .help = "Place in evaluation order, 1 "
	  "first (as listed; never sent)" },
	{ .path = "ref", .type = KIND_TYPE_STRING, .flags = KIND_F_NONEMPTY,
	  .help = "Reference kept across versions (default: the id)" },
	{ .path = "description", .type = KIND_TYPE_STRING,
	  .max_len = RLRULE_DESCRIPTION_MAX,
	  .help = "What the rule is for" },
	{ .path = "enabled", .type = KIND_TYPE_BOOL,
	  .help = "Whether the rule applies (default true)" },
	{ .path = "action", .type = KIND_TYPE_ENUM, .flags = KIND_F_REQUIRED,
	  .values = rlrule_actions,
	  .help = "block, challenge, js_challenge, managed_challenge or log" },
	{ .path = "expression", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = EXPR_MAX_LENGTH,
	  .help = "Which requests the rule counts, in the Rules language",
	  .example = "http.request.uri.path eq \"/login\"" },
	{ .path = "logging", .type = KIND_TYPE_OBJECT,
	  .help = "Logging of the rule's matches" },
	{ .path = "logging.enabled", .type = KIND_TYPE_BOOL,
	  .help = "Whether matches are logged" },
	{ .path = "action_parameters", .type = KIND_TYPE_OBJECT,
	  .help = "block only: the response sent" },
	{ .path = "action_parameters.response", .type = KIND_TYPE_OBJECT,
	  .help = "Custom response of a block" },
	{ .path = "action_parameters.response.status_code",
	  .type = KIND_TYPE_INT, .flags = KIND_F_REQUIRED,
	  KIND_RANGE(400, 499), .help = "HTTP status, 400 to 499" },
	{ .path = "action_parameters.response.content_type",
	  .type = KIND_TYPE_ENUM, .flags = KIND_F_REQUIRED,
	  .values = rlrule_content_types,
	  .help = "application/json, text/html, text/xml or text/plain" },
	{ .path = "action_parameters.response.content",
	  .type = KIND_TYPE_STRING, .flags = KIND_F_REQUIRED,
	  .max_len = 30720, .help = "The response body (30 KB at most)" },
	{ .path = "ratelimit", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_REQUIRED, .help = "How requests are counted" },
	{ .path = "ratelimit.characteristics", .type = KIND_TYPE_STRINGS,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .help = "What counters are kept per: cf.colo.id and ip.src, ...",
	  .example = "[cf.colo.id, ip.src]" },
	{ .path = "ratelimit.period", .type = KIND_TYPE_INT,
	  .flags = KIND_F_REQUIRED, KIND_AT_LEAST(1),
	  .help = "Seconds over which requests are counted (10, 60, 120, "
	  "300, 600, 3600)" },
	{ .path = "ratelimit.requests_per_period", .type = KIND_TYPE_INT,
	  KIND_AT_LEAST(1), .help = "Requests in a period that trigger the "
	  "action" },
	{ .path = "ratelimit.mitigation_timeout", .type = KIND_TYPE_INT,
	  KIND_AT_LEAST(0), .help = "Seconds the action lasts; 0 throttles" },
	{ .path = "ratelimit.counting_expression", .type = KIND_TYPE_STRING,
	  .max_len = EXPR_MAX_LENGTH,
	  .help = "Which requests count, when not the expression (may use "
	  "the response)" },
	{ .path = "ratelimit.requests_to_origin", .type = KIND_TYPE_BOOL,
	  .help = "Count only requests that reach the origin" },
	{ .path = "ratelimit.score_per_period", .type = KIND_TYPE_INT,
	  KIND_AT_LEAST(1), .help = "Complexity score in a period that "
	  "triggers the action" },
	{ .path = "ratelimit.score_response_header_name",
	  .type = KIND_TYPE_STRING, .flags = KIND_F_NONEMPTY,
	  .help = "Response header carrying the origin's score" },
	{ .path = NULL }
};

const struct kind kind_rate_limit_rules = {
	.name = "rate-limit-rules",
	.noun = "rate limiting rule",
	.label = "description",
	.aliases = "rules rlr rate-limit-rule",
	.help = "Rate limiting rules: the zone's http_ratelimit entry point, "
	    "in evaluation order",
	.scope = KIND_SCOPE_ZONE,
	.list_path = RULESETS_ENTRYPOINT_PATH,
	.item_path = RULESETS_RULE_PATH,
	.create_path = RULESETS_RULES_PATH,
	.shape = KIND_SHAPE_WRAPPED,
	.list_key = "rules",
	.paging = PAGER_SINGLE,
	.id_field = "id",
	.absent_empty = 1,
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_UPDATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_JSON,
	.update_method = KIND_METHOD_PATCH,
	.columns = rulesets_rule_columns,
	.fields = rulesets_rule_fields,
	.check = rulesets_rule_check,
};

/* ---- the zone's rulesets ------------------------------------------------ */

static const struct kind_column rulesets_columns[] = {
	{ .header = "NAME", .path = "name", .width = 24,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "KIND", .path = "kind", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "PHASE", .path = "phase", .width = 28,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "VERSION", .path = "version", .width = 7,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "UPDATED", .path = "last_updated", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "DESCRIPTION", .path = "description", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ID", .path = "id", .width = 32 },
	{ .header = NULL }
};

static const struct kind_field rulesets_fields[] = {
	{ .path = "id", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the ruleset" },
	{ .path = "name", .type = KIND_TYPE_STRING, .flags = KIND_F_READONLY,
	  .help = "Name, fixed at creation" },
	{ .path = "kind", .type = KIND_TYPE_STRING, .flags = KIND_F_READONLY,
	  .help = "managed, custom, root or zone" },
	{ .path = "phase", .type = KIND_TYPE_STRING, .flags = KIND_F_READONLY,
	  .help = "The phase it runs in" },
	{ .path = "version", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_STAMP,
	  .help = "Goes up on every write" },
	{ .path = "last_updated", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY | KIND_F_STAMP,
	  .help = "When it last changed" },
	{ .path = "description", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "What it is for" },
	{ .path = NULL }
};

const struct kind kind_rulesets = {
	.name = "rulesets",
	.noun = "ruleset",
	.label = "name",
	.aliases = "ruleset",
	.help = "The zone's rulesets (read only; with rules: get rulesets ID)",
	.scope = KIND_SCOPE_ZONE,
	.list_path = RULESETS_LIST_PATH,
	.item_path = RULESETS_ONE_PATH,
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_CURSOR,
	.per_page = { .min = 1, .max = APIRULES_RULESETS_PER_PAGE_MAX,
	    .def = 20 },
	.id_field = "id",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET,
	.update_method = KIND_METHOD_NONE,
	.columns = rulesets_columns,
	.fields = rulesets_fields,
};

/* ---- versions of the entry point ---------------------------------------- */

static const struct kind_column rulesets_version_columns[] = {
	{ .header = "VERSION", .path = "version", .width = 7,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "UPDATED", .path = "last_updated", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	/* A list leaves the rules out: the console reads each version's. */
	{ .header = "RULES", .path = "rules", .width = 5,
	  .format = KIND_FMT_COUNT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT | KIND_COL_PER_RECORD },
	{ .header = "NAME", .path = "name", .width = 24,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "DESCRIPTION", .path = "description", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ID", .path = "id", .width = 32 },
	{ .header = NULL }
};

static const struct kind_field rulesets_version_fields[] = {
	{ .path = "version", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "The version number" },
	{ .path = "id", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "The entry point's id" },
	{ .path = "last_updated", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When this version was made" },
	{ .path = "name", .type = KIND_TYPE_STRING, .flags = KIND_F_READONLY,
	  .help = "The entry point's name" },
	{ .path = "description", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "The entry point's description" },
	{ .path = "rules", .type = KIND_TYPE_OBJECTS,
	  .flags = KIND_F_READONLY, .help = "The rules then (one version's)" },
	{ .path = NULL }
};

const struct kind kind_rule_versions = {
	.name = "rule-versions",
	.noun = "version",
	.label = "version",
	.aliases = "rule-version rlv",
	.help = "Versions of the rate limiting rules' entry point (get "
	    "rule-versions N: its rules then)",
	.scope = KIND_SCOPE_ZONE,
	.list_path = RULESETS_VERSIONS_PATH,
	.item_path = RULESETS_VERSION_PATH,
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_SINGLE,
	.id_field = "version",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET,
	.update_method = KIND_METHOD_NONE,
	.columns = rulesets_version_columns,
	.fields = rulesets_version_fields,
};
