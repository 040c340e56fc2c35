/*
 * Legacy zone rate limits, as data (api-map section 7). The cloud now
 * answers this API with 410 Gone (api_gone_message says so); servers that
 * still serve it are managed as any other kind.
 */
#include "config.h"

#include "kind.h"
#include "legacyrl.h"
#include "validate.h"

/*
 * ban and simulate last for a timeout of at least the period; the challenge
 * modes use the zone's Challenge Passage time and challenge page, so
 * timeout and response are left out with them.
 */
static void
ratelimit_check(struct validate_ctx *ctx)
{
	const cJSON	*body = validate_body(ctx), *mode, *timeout, *period;
	const char	*m;

	mode = validate_get(body, "action.mode");
	if (!cJSON_IsString(mode) || validate_failed(ctx, "action.mode"))
		return;
	m = mode->valuestring;
	timeout = validate_get(body, "action.timeout");
	if (!legacyrl_mode_lasts(m)) {
		if (timeout != NULL)
			validate_add(ctx, "action.timeout",
			    LEGACYRL_TIMEOUT_LEFT_OUT, m);
		if (validate_get(body, "action.response") != NULL)
			validate_add(ctx, "action.response",
			    LEGACYRL_RESPONSE_LEFT_OUT, m);
		return;
	}
	if (timeout == NULL) {
		validate_add(ctx, "action.timeout", "required when action.mode "
		    "is %s: seconds from the period to 86400", m);
		return;
	}
	period = validate_get(body, "period");
	if (validate_failed(ctx, "action.timeout") ||
	    validate_failed(ctx, "period") || !cJSON_IsNumber(period) ||
	    !cJSON_IsNumber(timeout))
		return;
	if (!legacyrl_timeout_ok(timeout->valuedouble, period->valuedouble))
		validate_add(ctx, "action.timeout", "%.15g is less than the "
		    "period (%.15g)", timeout->valuedouble,
		    period->valuedouble);
}

/*
 * The description names a rule for people: first, and what '/' matches
 * along with the rest. Columns drop from the right on narrow screens.
 */
static const struct kind_column ratelimit_columns[] = {
	{ .header = "DESCRIPTION", .path = "description", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "MODE", .path = "action.mode", .width = 17,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "RATE", .path = "threshold", .path2 = "period",
	  .width = 10, .format = KIND_FMT_RATE,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "DISABLED", .path = "disabled", .width = 8,
	  .format = KIND_FMT_BOOL, .flags = KIND_COL_DEFAULT },
	{ .header = "URL", .path = "match.request.url", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "METHODS", .path = "match.request.methods", .width = 12,
	  .format = KIND_FMT_LIST },
	{ .header = "TIMEOUT", .path = "action.timeout", .width = 7,
	  .format = KIND_FMT_NUMBER, .flags = KIND_COL_RIGHT },
	{ .header = "BYPASS", .path = "bypass", .width = 6,
	  .format = KIND_FMT_COUNT, .flags = KIND_COL_RIGHT },
	{ .header = "ID", .path = "id", .width = 32 },
	{ .header = NULL }
};

static const struct kind_field ratelimit_fields[] = {
	{ .path = "id", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the rule" },
	{ .path = "description", .type = KIND_TYPE_STRING,
	  .max_len = LEGACYRL_TEXT_MAX,
	  .help = "What the rule is for (tags are removed)" },
	{ .path = "disabled", .type = KIND_TYPE_BOOL,
	  .help = "The rule is kept but not applied" },
	{ .path = "match", .type = KIND_TYPE_OBJECT, .flags = KIND_F_REQUIRED,
	  .help = "Which requests count" },
	{ .path = "match.request", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_REQUIRED, .help = "Methods, schemes and URL" },
	{ .path = "match.request.methods", .type = KIND_TYPE_ENUMS,
	  .flags = KIND_F_NONEMPTY, .values = legacyrl_methods,
	  .help = "HTTP methods, or _ALL_ (left out: all)" },
	{ .path = "match.request.schemes", .type = KIND_TYPE_ENUMS,
	  .flags = KIND_F_NONEMPTY, .values = legacyrl_schemes,
	  .help = "HTTP, HTTPS or _ALL_ (left out: all)" },
	{ .path = "match.request.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = LEGACYRL_TEXT_MAX,
	  .help = "Pattern such as example.com/path*; * matches all" },
	{ .path = "match.response", .type = KIND_TYPE_OBJECT,
	  .help = "Response conditions" },
	{ .path = "match.response.origin_traffic", .type = KIND_TYPE_BOOL,
	  .help = "Count only uncached traffic (deprecated)" },
	{ .path = "match.headers", .type = KIND_TYPE_OBJECTS,
	  .help = "Response headers that must match" },
	{ .path = "match.headers[].name", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = LEGACYRL_TEXT_MAX,
	  .help = "Header name" },
	{ .path = "match.headers[].op", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = legacyrl_ops,
	  .help = "eq (equal) or ne (not equal)" },
	{ .path = "match.headers[].value", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED, .max_len = LEGACYRL_TEXT_MAX,
	  .help = "Header value, matched exactly" },
	{ .path = "bypass", .type = KIND_TYPE_OBJECTS,
	  .help = "URLs the rule never applies to" },
	{ .path = "bypass[].name", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = legacyrl_bypass_names,
	  .help = "Always url" },
	{ .path = "bypass[].value", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = LEGACYRL_TEXT_MAX,
	  .help = "URL pattern to bypass" },
	{ .path = "threshold", .type = KIND_TYPE_INT,
	  .flags = KIND_F_REQUIRED, KIND_AT_LEAST(1),
	  .help = "Requests in a period that trigger the action" },
	{ .path = "period", .type = KIND_TYPE_INT, .flags = KIND_F_REQUIRED,
	  KIND_RANGE(LEGACYRL_PERIOD_MIN, LEGACYRL_PERIOD_MAX),
	  .help = "Seconds over which requests are counted (10 to 86400)" },
	{ .path = "action", .type = KIND_TYPE_OBJECT, .flags = KIND_F_REQUIRED,
	  .help = "What happens above the threshold" },
	{ .path = "action.mode", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = legacyrl_modes,
	  .help = "simulate, ban, challenge, js_challenge, managed_challenge" },
	{ .path = "action.timeout", .type = KIND_TYPE_INT,
	  KIND_RANGE(1, LEGACYRL_TIMEOUT_MAX),
	  .help = "Seconds the action lasts, at least the period (ban, "
	  "simulate)" },
	{ .path = "action.response", .type = KIND_TYPE_OBJECT,
	  .help = "Custom response for ban and simulate" },
	{ .path = "action.response.content_type", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = legacyrl_content_types,
	  .help = "text/plain, text/xml or application/json" },
	{ .path = "action.response.body", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED, .max_len = LEGACYRL_BODY_MAX,
	  .help = "Response body, in that content type" },
	{ .path = NULL }
};

const struct kind kind_rate_limits = {
	.name = "rate-limits",
	.noun = "rate limit",
	.label = "description",
	.aliases = "rate-limit rl ratelimits ratelimit",
	.help = "Legacy zone rate limits (deprecated; the cloud answers 410 "
	    "Gone: use the Rulesets engine)",
	.scope = KIND_SCOPE_ZONE,
	.list_path = "/zones/{zone}/rate_limits",
	.item_path = "/zones/{zone}/rate_limits/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_PAGES,
	.per_page = { .min = 1, .max = LEGACYRL_PER_PAGE_MAX, .def = 20,
	    .step = LEGACYRL_PER_PAGE_STEP },
	.id_field = "id",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_UPDATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_JSON,
	.update_method = KIND_METHOD_PUT,
	.columns = ratelimit_columns,
	.fields = ratelimit_fields,
	.check = ratelimit_check,
	.deprecated = "rate-limit-rules",
};
