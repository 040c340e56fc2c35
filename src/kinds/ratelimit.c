/*
 * Legacy zone rate limits, as data (api-map section 7). The cloud now
 * answers this API with 410 Gone (api_gone_message says so); servers that
 * still serve it are managed as any other kind.
 */
#include "config.h"

#include <string.h>

#include "kind.h"
#include "validate.h"

static const char *const ratelimit_modes[] = {
	"simulate", "ban", "challenge", "js_challenge", "managed_challenge",
	NULL
};
static const char *const ratelimit_methods[] = {
	"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "_ALL_", NULL
};
static const char *const ratelimit_schemes[] = {
	"HTTP", "HTTPS", "_ALL_", NULL
};
static const char *const ratelimit_ops[] = { "eq", "ne", NULL };
static const char *const ratelimit_content_types[] = {
	"text/plain", "text/xml", "application/json", NULL
};
static const char *const ratelimit_bypass_names[] = { "url", NULL };

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
	if (strcmp(m, "ban") != 0 && strcmp(m, "simulate") != 0) {
		if (timeout != NULL)
			validate_add(ctx, "action.timeout", "must be left out "
			    "when action.mode is %s (the zone's Challenge "
			    "Passage time applies)", m);
		if (validate_get(body, "action.response") != NULL)
			validate_add(ctx, "action.response", "must be left "
			    "out when action.mode is %s (the zone's challenge "
			    "page is served)", m);
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
	if (timeout->valuedouble < period->valuedouble)
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
	{ .path = "description", .type = KIND_TYPE_STRING, .max_len = 1024,
	  .help = "What the rule is for (tags are removed)" },
	{ .path = "disabled", .type = KIND_TYPE_BOOL,
	  .help = "The rule is kept but not applied" },
	{ .path = "match", .type = KIND_TYPE_OBJECT, .flags = KIND_F_REQUIRED,
	  .help = "Which requests count" },
	{ .path = "match.request", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_REQUIRED, .help = "Methods, schemes and URL" },
	{ .path = "match.request.methods", .type = KIND_TYPE_ENUMS,
	  .flags = KIND_F_NONEMPTY, .values = ratelimit_methods,
	  .help = "HTTP methods, or _ALL_ (left out: all)" },
	{ .path = "match.request.schemes", .type = KIND_TYPE_ENUMS,
	  .flags = KIND_F_NONEMPTY, .values = ratelimit_schemes,
	  .help = "HTTP, HTTPS or _ALL_ (left out: all)" },
	{ .path = "match.request.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY, .max_len = 1024,
	  .help = "Pattern such as example.com/path*; * matches all" },
	{ .path = "match.response", .type = KIND_TYPE_OBJECT,
	  .help = "Response conditions" },
	{ .path = "match.response.origin_traffic", .type = KIND_TYPE_BOOL,
	  .help = "Count only uncached traffic (deprecated)" },
	{ .path = "match.headers", .type = KIND_TYPE_OBJECTS,
	  .help = "Response headers that must match" },
	{ .path = "match.headers[].name", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY, .max_len = 1024,
	  .help = "Header name" },
	{ .path = "match.headers[].op", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = ratelimit_ops,
	  .help = "eq (equal) or ne (not equal)" },
	{ .path = "match.headers[].value", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED, .max_len = 1024,
	  .help = "Header value, matched exactly" },
	{ .path = "bypass", .type = KIND_TYPE_OBJECTS,
	  .help = "URLs the rule never applies to" },
	{ .path = "bypass[].name", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = ratelimit_bypass_names,
	  .help = "Always url" },
	{ .path = "bypass[].value", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY, .max_len = 1024,
	  .help = "URL pattern to bypass" },
	{ .path = "threshold", .type = KIND_TYPE_INT,
	  .flags = KIND_F_REQUIRED, KIND_AT_LEAST(1),
	  .help = "Requests in a period that trigger the action" },
	{ .path = "period", .type = KIND_TYPE_INT, .flags = KIND_F_REQUIRED,
	  KIND_RANGE(10, 86400),
	  .help = "Seconds over which requests are counted (10 to 86400)" },
	{ .path = "action", .type = KIND_TYPE_OBJECT, .flags = KIND_F_REQUIRED,
	  .help = "What happens above the threshold" },
	{ .path = "action.mode", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = ratelimit_modes,
	  .help = "simulate, ban, challenge, js_challenge, managed_challenge" },
	{ .path = "action.timeout", .type = KIND_TYPE_INT,
	  KIND_RANGE(1, 86400),
	  .help = "Seconds the action lasts, at least the period (ban, "
	  "simulate)" },
	{ .path = "action.response", .type = KIND_TYPE_OBJECT,
	  .help = "Custom response for ban and simulate" },
	{ .path = "action.response.content_type", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_REQUIRED, .values = ratelimit_content_types,
	  .help = "text/plain, text/xml or application/json" },
	{ .path = "action.response.body", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED, .max_len = 10240,
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
	.per_page = { .min = 1, .max = 1000, .def = 20, .step = 5 },
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
