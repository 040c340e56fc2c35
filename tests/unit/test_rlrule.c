/*
 * Unit tests for rlrule_check: every field rule at its edge and past it,
 * each plan's limits, and the problem's field and message.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "rlrule.h"
#include "xmalloc.h"

#define NONE	EXPR_PLAN_NONE
#define FREE	EXPR_PLAN_FREE
#define PRO	EXPR_PLAN_PRO
#define BUS	EXPR_PLAN_BUSINESS
#define ENT	EXPR_PLAN_ENTERPRISE

#define CHARS	"\"characteristics\":[\"cf.colo.id\",\"ip.src\"]"
#define RL	CHARS ",\"period\":10,\"requests_per_period\":5," \
		"\"mitigation_timeout\":10"
#define RL0	CHARS ",\"period\":10,\"requests_per_period\":5," \
		"\"mitigation_timeout\":0"
#define EXPR	",\"expression\":\"http.request.uri.path eq \\\"/a\\\"\""
#define RESP(s, t, c) ",\"action_parameters\":{\"response\":{" \
		"\"status_code\":" s ",\"content_type\":\"" t "\"," \
		"\"content\":\"" c "\"}}"

/*
 * One case: plan, action (NULL: none), more top-level members, the
 * ratelimit members (NULL: no ratelimit), the field refused (NULL: valid)
 * and a part of its message.
 */
struct rcase {
	enum expr_plan	 plan;
	const char	*action;
	const char	*top;
	const char	*rl;
	const char	*field;
	const char	*msg;
};

static const struct rcase cases[] = {
	/* requests_to_origin and lists; a '$' in a string is no list */
	{ ENT, "block", ",\"expression\":\"ip.src in $office\"", RL,
	    NULL, NULL },
	{ ENT, "block", ",\"expression\":\"http.host eq \\\"$office\\\" "
	    "and http.request.uri.path matches r#\\\"a\\\"$b\\\"#\"",
	    RL ",\"requests_to_origin\":true", NULL, NULL },
	{ ENT, "block", ",\"expression\":\"ip.src in $office\"",
	    RL ",\"requests_to_origin\":true", "ratelimit.requests_to_origin",
	    "must be false when an expression uses a list ($office)" },
	{ ENT, "block", EXPR, RL ",\"requests_to_origin\":true,"
	    "\"counting_expression\":\"not ip.src in $office\"",
	    "ratelimit.requests_to_origin", "must be false when" },
	{ ENT, "block", EXPR, RL ",\"counting_expression\":"
	    "\"http.response.code eq 429 and ip.src in $office\"",
	    "ratelimit.counting_expression", "response fields and a list" },
	{ ENT, "block", EXPR, RL ",\"counting_expression\":"
	    "\"http.response.code eq 429 and http.host eq \\\"$x\\\"\"",
	    NULL, NULL },
	/* lookup_json_* characteristics take keys, then ")" */
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"lookup_json_integer(http.request.body.raw, \\\"a\\\", 0)\"],"
	    "\"period\":60,\"requests_per_period\":1", NULL, NULL },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"lookup_json_string(http.request.body.raw,\\\")\"],"
	    "\"period\":60,\"requests_per_period\":1",
	    "ratelimit.characteristics[1]", "is not a characteristic" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"lookup_json_string(http.request.body.raw, \\\"a\\\" b)\"],"
	    "\"period\":60,\"requests_per_period\":1",
	    "ratelimit.characteristics[1]", "is not a characteristic" },
	/* valid */
	{ ENT, "block", EXPR, RL, NULL, NULL },
	{ NONE, "log", EXPR, RL, NULL, NULL },
	{ NONE, "challenge", EXPR, RL, NULL, NULL },
	{ NONE, "js_challenge", EXPR, RL, NULL, NULL },
	{ NONE, "managed_challenge", EXPR, RL, NULL, NULL },
	{ FREE, "block", EXPR, RL, NULL, NULL },
	{ FREE, "managed_challenge", EXPR, RL0, NULL, NULL },
	{ ENT, "block", EXPR, RL0, NULL, NULL },
	{ ENT, "challenge", EXPR, RL, NULL, NULL },
	{ ENT, "log", EXPR ",\"enabled\":false,\"ref\":\"r1\","
	    "\"description\":\"d\",\"logging\":{\"enabled\":true}", RL,
	    NULL, NULL },
	{ BUS, "block", EXPR, RL ",\"counting_expression\":"
	    "\"http.request.uri.path eq \\\"/a\\\"\"", NULL, NULL },
	{ PRO, "block", EXPR, RL ",\"counting_expression\":\"\"", NULL, NULL },
	{ BUS, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"cf.unique_visitor_id\"],\"period\":600,"
	    "\"requests_per_period\":1,\"mitigation_timeout\":86400",
	    NULL, NULL },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"http.request.headers[\\\"x-api-key\\\"]\","
	    "\"lookup_json_string(http.request.body.raw, \\\"user\\\")\"],"
	    "\"period\":3600,\"requests_per_period\":1,"
	    "\"requests_to_origin\":true", NULL, NULL },
	{ PRO, "block", EXPR RESP("429", "application/json", "{}"), RL,
	    NULL, NULL },
	{ ENT, "block", EXPR RESP("400", "text/html", "x"), RL, NULL, NULL },
	{ ENT, "block", EXPR RESP("499", "text/xml", "x"), RL, NULL, NULL },
	{ ENT, "block", EXPR RESP("499", "text/plain", ""), RL, NULL, NULL },
	{ ENT, "block", EXPR ",\"id\":\"x\",\"version\":\"3\",\"unknown\":1",
	    RL, NULL, NULL },
	{ PRO, "block", EXPR, CHARS ",\"period\":60,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":3600", NULL, NULL },

	/* action */
	{ ENT, NULL, EXPR, RL, "action", "required" },
	{ ENT, "skip", EXPR, RL, "action", "'skip' is not an action" },
	{ ENT, "Block", EXPR, RL, "action", "is not an action" },
	{ BUS, "log", EXPR, RL, "action", "log needs Enterprise" },
	{ FREE, "log", EXPR, RL0, "action", "log needs Enterprise" },

	/* expression */
	{ ENT, "block", "", RL, "expression", "required" },
	{ ENT, "block", ",\"expression\":\"\"", RL, "expression",
	    "must not be empty" },
	{ ENT, "block", ",\"expression\":7", RL, "expression",
	    "must be a string" },
	{ ENT, "block", ",\"expression\":\"ssl\\tand ssl\"", RL, "expression",
	    "column 4" },

	/* the expression through the Rules language, with the plan */
	{ ENT, "block", ",\"expression\":\"http.hostt eq \\\"a\\\"\"", RL,
	    "expression", "column 1: unknown field 'http.hostt'" },
	{ ENT, "block", ",\"expression\":\"http.host eq \\\"a\\\" and\"",
	    RL, "expression", "column 21: unexpected end of input" },
	{ PRO, "block", ",\"expression\":\"http.request.uri.path matches "
	    "\\\"^/a\\\"\"", RL, "expression", "column 23: 'matches' needs "
	    "the Business plan" },
	{ BUS, "block", ",\"expression\":\"http.request.uri.path matches "
	    "\\\"^/a\\\"\"", RL, NULL, NULL },
	{ PRO, "block", ",\"expression\":\"http.request.method eq "
	    "\\\"POST\\\"\"", RL, "expression", "needs the Business plan" },
	{ FREE, "block", ",\"expression\":\"http.host eq \\\"a\\\"\"", RL,
	    "expression", "needs the Pro plan" },
	{ ENT, "block", ",\"expression\":\"http.response.code eq 429\"", RL,
	    "expression", "only allowed in a counting expression" },
	{ ENT, "block", ",\"expression\":\"cf.colo.id eq 1\"", RL,
	    "expression", "not allowed in an expression" },
	{ ENT, "block", EXPR, RL ",\"counting_expression\":"
	    "\"http.response.code in {401 403}\"", NULL, NULL },
	{ ENT, "block", EXPR, RL ",\"counting_expression\":"
	    "\"http.response.code eq 429 and http.hostt eq \\\"x\\\"\"",
	    "ratelimit.counting_expression", "column 31: unknown field" },

	/* ratelimit */
	{ ENT, "block", EXPR, NULL, "ratelimit", "required" },
	{ BUS, "block", EXPR ",\"counting_expression\":\"http.response.code "
	    "eq 401\"", RL, "counting_expression", "belongs in ratelimit" },
	{ ENT, "block", EXPR ",\"period\":60", RL, "period",
	    "ratelimit.period" },
	{ ENT, "block", EXPR ",\"ratelimit\":[]", NULL, "ratelimit",
	    "must be an object" },
	{ ENT, "block", EXPR, "\"period\":10,\"requests_per_period\":5",
	    "ratelimit.characteristics", "required" },
	{ ENT, "block", EXPR, "\"characteristics\":[],\"period\":10,"
	    "\"requests_per_period\":5", "ratelimit.characteristics",
	    "must not be empty" },
	{ ENT, "block", EXPR, "\"characteristics\":\"ip.src\",\"period\":10,"
	    "\"requests_per_period\":5", "ratelimit.characteristics",
	    "must be an array" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\",1],"
	    "\"period\":10,\"requests_per_period\":5",
	    "ratelimit.characteristics[1]", "must be a string" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\",\"ip.src\","
	    "\"ip.src\"],\"period\":10,\"requests_per_period\":5",
	    "ratelimit.characteristics[2]", "listed twice" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":5", "ratelimit.characteristics",
	    "must include \"cf.colo.id\"" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\",\"ip.src\","
	    "\"cf.unique_visitor_id\"],\"period\":10,"
	    "\"requests_per_period\":5", "ratelimit.characteristics",
	    "cannot both" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"http.hostt\"],\"period\":10,\"requests_per_period\":5",
	    "ratelimit.characteristics[1]", "is not a characteristic" },
	{ ENT, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"http.request.headers[\\\"X-Key\\\"]\"],\"period\":10,"
	    "\"requests_per_period\":5", "ratelimit.characteristics[1]",
	    "lower case" },
	{ FREE, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"cf.unique_visitor_id\"],\"period\":10,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":10",
	    "ratelimit.characteristics[1]", "needs the Business plan" },
	{ BUS, "block", EXPR, "\"characteristics\":[\"cf.colo.id\","
	    "\"ip.src\",\"http.host\"],\"period\":10,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":10",
	    "ratelimit.characteristics[2]", "Advanced Rate Limiting" },
	{ PRO, "block", EXPR, "\"characteristics\":[\"cf.colo.id\"],"
	    "\"period\":10,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":10", "ratelimit.characteristics",
	    "must include \"ip.src\" on the Pro plan" },

	{ ENT, "block", EXPR, CHARS ",\"requests_per_period\":5",
	    "ratelimit.period", "required" },
	{ ENT, "block", EXPR, CHARS ",\"period\":50,\"requests_per_period\":5",
	    "ratelimit.period", "50 is not one of 10, 15, 20, 30, 40, 45, 60, "
	    "90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, "
	    "65535" },
	/* A supported value the API lists do not name, as read back. */
	{ ENT, "block", EXPR, CHARS ",\"period\":900,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":45", NULL, NULL },
	{ BUS, "block", EXPR, CHARS ",\"period\":45,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":7",
	    "ratelimit.mitigation_timeout", "7 is not one of 10, 15, 20" },
	{ ENT, "block", EXPR, CHARS ",\"period\":60.5,"
	    "\"requests_per_period\":5", "ratelimit.period",
	    "must be an integer" },
	{ ENT, "block", EXPR, CHARS ",\"period\":\"60\","
	    "\"requests_per_period\":5", "ratelimit.period",
	    "must be an integer, not a string" },
	{ FREE, "block", EXPR, CHARS ",\"period\":60,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":10",
	    "ratelimit.period", "over the Free plan's longest period (10 s)" },
	{ PRO, "block", EXPR, CHARS ",\"period\":120,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":10",
	    "ratelimit.period", "Pro plan's longest period (60 s)" },
	{ BUS, "block", EXPR, CHARS ",\"period\":3600,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":10",
	    "ratelimit.period", "Business plan's longest period (600 s)" },

	{ ENT, "block", EXPR, CHARS ",\"period\":10",
	    "ratelimit.requests_per_period", "required" },
	{ ENT, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":0",
	    "ratelimit.requests_per_period", "0 is out of range (1 to" },
	{ ENT, "block", EXPR, CHARS ",\"period\":10,"
	    "\"requests_per_period\":1.5", "ratelimit.requests_per_period",
	    "must be an integer" },

	/* Enterprise takes any timeout up to a day; the others a listed one. */
	{ ENT, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":7", NULL, NULL },
	{ PRO, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":7", "ratelimit.mitigation_timeout",
	    "7 is not one of 10, 15, 20, 30, 40, 45, 60, 90, 120" },
	{ ENT, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":-10", "ratelimit.mitigation_timeout",
	    "out of range" },
	{ FREE, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":60", "ratelimit.mitigation_timeout",
	    "Free plan's longest timeout (10 s)" },
	{ PRO, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":86400", "ratelimit.mitigation_timeout",
	    "Pro plan's longest timeout (3600 s)" },
	{ FREE, "challenge", EXPR, RL, "ratelimit.mitigation_timeout",
	    "must be 0 for challenge on the Free plan" },
	{ BUS, "js_challenge", EXPR, RL, "ratelimit.mitigation_timeout",
	    "must be 0 for js_challenge" },
	{ BUS, "block", EXPR, RL0, "ratelimit.mitigation_timeout",
	    "0 (throttle) with block needs Enterprise" },
	{ PRO, "block", EXPR, CHARS ",\"period\":10,\"requests_per_period\":5",
	    "ratelimit.mitigation_timeout", "throttle" },

	{ ENT, "block", EXPR, RL ",\"requests_to_origin\":\"yes\"",
	    "ratelimit.requests_to_origin", "must be true or false" },
	{ PRO, "block", EXPR, RL ",\"counting_expression\":\"ssl\"",
	    "ratelimit.counting_expression", "needs the Business plan" },
	{ ENT, "block", EXPR, RL ",\"counting_expression\":5",
	    "ratelimit.counting_expression", "must be a string" },
	{ ENT, "block", EXPR, RL ",\"counting_expression\":\"ssl\\tand ssl\"",
	    "ratelimit.counting_expression", "column 4" },
	{ PRO, "block", EXPR, RL ",\"score_per_period\":5",
	    "ratelimit.score_per_period", "Advanced Rate Limiting" },
	{ ENT, "block", EXPR, CHARS ",\"period\":10,\"score_per_period\":5",
	    "ratelimit.score_response_header_name", "required" },
	/* score_response_header_name: a header's name, whenever given */
	{ ENT, "block", EXPR, CHARS ",\"period\":10,\"score_per_period\":5,"
	    "\"score_response_header_name\":\"x-score_1.v2\"", NULL, NULL },
	{ ENT, "block", EXPR, RL ",\"score_response_header_name\":"
	    "{\"a\":[1,{\"b\":null}]}", "ratelimit.score_response_header_name",
	    "must be a string (a response header's name), not an object" },
	{ ENT, "block", EXPR, CHARS ",\"period\":10,\"score_per_period\":5,"
	    "\"score_response_header_name\":[\"x-score\"]",
	    "ratelimit.score_response_header_name", "not an array" },
	{ ENT, "block", EXPR, RL ",\"score_response_header_name\":1e308",
	    "ratelimit.score_response_header_name", "not a number" },
	{ ENT, "block", EXPR, RL ",\"score_response_header_name\":true",
	    "ratelimit.score_response_header_name", "must be a string" },
	{ ENT, "block", EXPR, RL ",\"score_response_header_name\":"
	    "\"x score\"", "ratelimit.score_response_header_name",
	    "must be a header name" },
	{ ENT, "block", EXPR, RL ",\"score_response_header_name\":"
	    "\"x-sc\u00f6re\"", "ratelimit.score_response_header_name",
	    "must be a header name" },

	/* action_parameters */
	{ ENT, "challenge", EXPR RESP("429", "text/plain", "x"), RL,
	    "action_parameters.response", "only block rules take a response" },
	{ ENT, "block", EXPR ",\"action_parameters\":{\"response\":{"
	    "\"content_type\":\"text/plain\",\"content\":\"x\"}}", RL,
	    "action_parameters.response.status_code", "required" },
	{ ENT, "block", EXPR RESP("399", "text/plain", "x"), RL,
	    "action_parameters.response.status_code",
	    "399 is out of range (400 to 499)" },
	{ ENT, "block", EXPR RESP("500", "text/plain", "x"), RL,
	    "action_parameters.response.status_code", "out of range" },
	{ ENT, "block", EXPR RESP("429", "text/csv", "x"), RL,
	    "action_parameters.response.content_type",
	    "must be application/json, text/html, text/xml or text/plain" },
	{ ENT, "block", EXPR ",\"action_parameters\":{\"response\":{"
	    "\"status_code\":429,\"content\":\"x\"}}", RL,
	    "action_parameters.response.content_type", "required" },
	{ ENT, "block", EXPR ",\"action_parameters\":{\"response\":{"
	    "\"status_code\":429,\"content_type\":\"text/plain\"}}", RL,
	    "action_parameters.response.content", "required" },
	{ ENT, "block", EXPR ",\"action_parameters\":{\"response\":3}", RL,
	    "action_parameters.response", "must be an object" },
	{ FREE, "block", EXPR RESP("429", "text/plain", "x"), RL,
	    "action_parameters.response", "needs the Pro plan" },
	{ ENT, "block", EXPR ",\"action_parameters\":{\"ruleset\":\"x\"}", RL,
	    "action_parameters", "not a parameter of rate limiting rules" },

	/* the rest */
	{ ENT, "block", EXPR ",\"description\":5", RL, "description",
	    "must be a string" },
	{ ENT, "block", EXPR ",\"enabled\":\"true\"", RL, "enabled",
	    "must be true or false" },
	{ ENT, "block", EXPR ",\"ref\":\"\"", RL, "ref", "non-empty" },
	{ ENT, "block", EXPR ",\"logging\":true", RL, "logging",
	    "must be an object" },
	{ ENT, "block", EXPR ",\"logging\":{\"enabled\":1}", RL,
	    "logging.enabled", "must be true or false" },
};

static char *
build(const struct rcase *c)
{
	char	*s;

	if (c->rl != NULL)
		xasprintf(&s, "{%s%s%s%s%s,\"ratelimit\":{%s}}",
		    c->action != NULL ? "\"action\":\"" : "",
		    c->action != NULL ? c->action : "",
		    c->action != NULL ? "\"" : "\"_\":0",
		    "", c->top, c->rl);
	else
		xasprintf(&s, "{%s%s%s%s}",
		    c->action != NULL ? "\"action\":\"" : "",
		    c->action != NULL ? c->action : "",
		    c->action != NULL ? "\"" : "\"_\":0", c->top);
	return (s);
}

static void
check_case(const struct rcase *c, size_t i)
{
	struct rlrule_problem	 p;
	cJSON			*rule;
	char			*text = build(c), shown[320];
	int			 rc;

	rule = cJSON_Parse(text);
	if (rule == NULL)
		fail_msg("case %zu: not JSON: %s", i, text);
	rc = rlrule_check(rule, c->plan, &p);
	if (c->field == NULL) {
		if (rc != 0)
			fail_msg("case %zu: refused (%s: %s): %s", i, p.field,
			    p.message, text);
	} else {
		if (rc == 0)
			fail_msg("case %zu: accepted, wanted %s: %s", i,
			    c->field, text);
		/* An expression's column as edgemu shows it. */
		if (p.column > 0)
			snprintf(shown, sizeof shown, "column %d: %s",
			    p.column, p.message);
		else
			snprintf(shown, sizeof shown, "%s", p.message);
		if (strcmp(p.field, c->field) != 0 ||
		    strstr(shown, c->msg) == NULL)
			fail_msg("case %zu: got %s: %s, wanted %s: ...%s...",
			    i, p.field, shown, c->field, c->msg);
	}
	cJSON_Delete(rule);
	free(text);
}

static void
test_cases(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(&cases[i], i);
}

/* Something else than an object, and the column of an expression. */
static void
test_shapes(void **state)
{
	struct rlrule_problem	 p;
	cJSON			*v;

	(void)state;
	v = cJSON_Parse("[1]");
	assert_int_equal(rlrule_check(v, ENT, &p), -1);
	assert_string_equal(p.field, "rule");
	cJSON_Delete(v);
	assert_int_equal(rlrule_check(NULL, ENT, &p), -1);
	v = cJSON_Parse("{\"action\":\"block\",\"expression\":\"ssl\\tx\","
	    "\"ratelimit\":{" RL "}}");
	assert_int_equal(rlrule_check(v, ENT, &p), -1);
	assert_string_equal(p.field, "expression");
	assert_int_equal(p.column, 4);
	cJSON_Delete(v);
}

/* Lengths: the expression's 4 096 characters, 500 for the description,
 * 30 KB of response content, 256 for a score header's name. */
static void
test_lengths(void **state)
{
	static const size_t	 names[] = { 256, 257, 5000 };
	struct rlrule_problem	 p;
	cJSON			*v;
	char			*big;
	size_t			 n, i;

	(void)state;
	for (n = 4096; n <= 4097; n++) {
		v = cJSON_Parse("{\"action\":\"block\",\"ratelimit\":{" RL "}}");
		big = xmalloc(n + 1);
		memset(big, ' ', n);
		memcpy(big, "ssl", 3);
		big[n] = '\0';
		cJSON_AddStringToObject(v, "expression", big);
		assert_int_equal(rlrule_check(v, ENT, &p), n == 4096 ? 0 : -1);
		if (n == 4097) {
			assert_string_equal(p.field, "expression");
			assert_non_null(strstr(p.message, "4097 characters"));
		}
		free(big);
		cJSON_Delete(v);
	}
	for (n = 500; n <= 501; n++) {
		v = cJSON_Parse("{\"action\":\"block\",\"expression\":\"ssl\","
		    "\"ratelimit\":{" RL "}}");
		big = xmalloc(2 * n + 1);
		for (i = 0; i < n; i++)
			memcpy(big + 2 * i, "\xc3\xa9", 2);	/* 2 bytes, 1 char */
		big[2 * n] = '\0';
		cJSON_AddStringToObject(v, "description", big);
		assert_int_equal(rlrule_check(v, ENT, &p), n == 500 ? 0 : -1);
		if (n == 501)
			assert_string_equal(p.field, "description");
		free(big);
		cJSON_Delete(v);
	}
	for (n = 30720; n <= 30721; n++) {
		v = cJSON_Parse("{\"action\":\"block\",\"expression\":\"ssl\","
		    "\"ratelimit\":{" RL "},\"action_parameters\":{"
		    "\"response\":{\"status_code\":429,"
		    "\"content_type\":\"text/plain\"}}}");
		big = xmalloc(n + 1);
		memset(big, 'x', n);
		big[n] = '\0';
		cJSON_AddStringToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(
		    v, "action_parameters"), "response"), "content", big);
		assert_int_equal(rlrule_check(v, ENT, &p), n == 30720 ? 0 : -1);
		if (n == 30721) {
			assert_string_equal(p.field,
			    "action_parameters.response.content");
			assert_non_null(strstr(p.message, "30 KB"));
		}
		free(big);
		cJSON_Delete(v);
	}
	/* A score header's name: 256 characters, not 257 nor 5 000. */
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		n = names[i];
		v = cJSON_Parse("{\"action\":\"block\",\"expression\":\"ssl\","
		    "\"ratelimit\":{" RL "}}");
		big = xmalloc(n + 1);
		memset(big, 'h', n);
		big[n] = '\0';
		cJSON_AddStringToObject(cJSON_GetObjectItem(v, "ratelimit"),
		    "score_response_header_name", big);
		assert_int_equal(rlrule_check(v, ENT, &p), n == 256 ? 0 : -1);
		if (n > 256) {
			assert_string_equal(p.field,
			    "ratelimit.score_response_header_name");
			assert_non_null(strstr(p.message, "over the limit of "
			    "256"));
		}
		free(big);
		cJSON_Delete(v);
	}
}

static void
test_limits(void **state)
{
	size_t	i;

	(void)state;
	assert_int_equal(rlrule_max_rules(FREE), 1);
	assert_int_equal(rlrule_max_rules(PRO), 2);
	assert_int_equal(rlrule_max_rules(BUS), 5);
	assert_int_equal(rlrule_max_rules(ENT), 100);
	assert_int_equal(rlrule_max_rules(NONE), 100);
	assert_int_equal(rlrule_nperiods, 6);
	assert_int_equal(rlrule_ntimeouts, 8);
	assert_int_equal(rlrule_timeouts[0], 0);
	for (i = 0; rlrule_actions[i] != NULL; i++)
		;
	assert_int_equal(i, 5);

	assert_true(rlrule_period_ok(10, FREE));
	assert_false(rlrule_period_ok(60, FREE));
	assert_true(rlrule_period_ok(60, PRO));
	assert_false(rlrule_period_ok(120, PRO));
	assert_true(rlrule_period_ok(600, BUS));
	assert_false(rlrule_period_ok(3600, BUS));
	assert_true(rlrule_period_ok(3600, ENT));
	assert_true(rlrule_period_ok(45, NONE));
	assert_true(rlrule_period_ok(65535, ENT));
	assert_false(rlrule_period_ok(50, NONE));
	assert_false(rlrule_period_ok(900, BUS));

	assert_true(rlrule_timeout_ok(10, "block", FREE));
	assert_false(rlrule_timeout_ok(0, "block", FREE));
	assert_false(rlrule_timeout_ok(60, "block", FREE));
	assert_true(rlrule_timeout_ok(0, "challenge", FREE));
	assert_false(rlrule_timeout_ok(10, "managed_challenge", PRO));
	assert_true(rlrule_timeout_ok(3600, "block", PRO));
	assert_false(rlrule_timeout_ok(86400, "block", PRO));
	assert_true(rlrule_timeout_ok(86400, "block", BUS));
	assert_true(rlrule_timeout_ok(0, "block", ENT));
	assert_true(rlrule_timeout_ok(600, "js_challenge", ENT));
	assert_true(rlrule_timeout_ok(7, "block", ENT));
	assert_false(rlrule_timeout_ok(7, "block", BUS));
	assert_true(rlrule_timeout_ok(45, "block", BUS));
}

/* The plan's quota, and what the plan alone forbids in a rule it holds. */
static void
test_quota_and_plan(void **state)
{
	struct rlrule_problem	 p;
	cJSON			*r;

	(void)state;
	assert_int_equal(rlrule_quota(2, PRO, &p), 0);
	assert_int_equal(rlrule_quota(3, PRO, &p), -1);
	assert_string_equal(p.field, "rules");
	assert_string_equal(p.message, "3 rules is over the Pro plan's limit "
	    "of 2");
	assert_int_equal(rlrule_quota(2, FREE, &p), -1);
	assert_int_equal(rlrule_quota(101, ENT, &p), -1);
	/* No plan: the quota is not known here. */
	assert_int_equal(rlrule_quota(1000, NONE, &p), 0);

	/* A log rule is Enterprise's: Pro forbids it. */
	r = cJSON_Parse("{\"action\":\"log\"" EXPR ",\"ratelimit\":{" RL
	    "}}");
	assert_int_equal(rlrule_plan_check(r, PRO, &p), -1);
	assert_string_equal(p.field, "action");
	assert_int_equal(rlrule_plan_check(r, ENT, &p), 0);
	assert_int_equal(rlrule_plan_check(r, NONE, &p), 0);
	cJSON_Delete(r);
	/* A 300 s period is over Pro's 60. */
	r = cJSON_Parse("{\"action\":\"block\"" EXPR ",\"ratelimit\":{" CHARS
	    ",\"period\":300,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":600}}");
	assert_int_equal(rlrule_plan_check(r, PRO, &p), -1);
	assert_string_equal(p.field, "ratelimit.period");
	assert_int_equal(rlrule_plan_check(r, BUS, &p), 0);
	cJSON_Delete(r);
	/* matches needs Business. */
	r = cJSON_Parse("{\"action\":\"block\",\"expression\":"
	    "\"http.request.uri.path matches \\\"^/a\\\"\",\"ratelimit\":{"
	    CHARS ",\"period\":60,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":600}}");
	assert_int_equal(rlrule_plan_check(r, PRO, &p), -1);
	assert_string_equal(p.field, "expression");
	cJSON_Delete(r);
	/* A rule broken on any plan is not the plan's doing. */
	r = cJSON_Parse("{\"action\":\"block\"" EXPR ",\"ratelimit\":{"
	    "\"period\":60}}");
	assert_int_equal(rlrule_plan_check(r, PRO, &p), 0);
	cJSON_Delete(r);

	assert_true(rlrule_action_terminates("block"));
	assert_true(rlrule_action_terminates("managed_challenge"));
	assert_false(rlrule_action_terminates("log"));
	assert_false(rlrule_action_terminates(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_quota_and_plan),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
