/*
 * --demo-data: the demo zone's http_ratelimit entry point, what the --plan
 * allows of six rules that cover every action, one throttle (timeout 0)
 * and one counting expression. Enterprise has all six; a smaller plan
 * gets as many as its quota holds, each within its limits (a lower-plan
 * variant where a rule needs more). The last rule seeded comes with a
 * second version of the entry point.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "log.h"
#include "internal.h"

#define RS_PLAN(p)	(1u << (p))
#define RS_FREE		RS_PLAN(EXPR_PLAN_FREE)
#define RS_PRO		RS_PLAN(EXPR_PLAN_PRO)
#define RS_BUSINESS	RS_PLAN(EXPR_PLAN_BUSINESS)
#define RS_ENTERPRISE	RS_PLAN(EXPR_PLAN_ENTERPRISE)

/* A demo rule and the plans it is seeded on, in the entry point's order. */
static const struct {
	unsigned	 plans;
	const char	*json;
} rs_demo_rules[] = {
	/* Free: one rule, paths only, 10 s at most. */
	{ RS_FREE,
	"{\"description\":\"Login form: slow down brute force\","
	"\"action\":\"block\","
	"\"expression\":\"http.request.uri.path eq \\\"/login\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":10,\"requests_per_period\":5,"
	"\"mitigation_timeout\":10}}" },

	/* Pro has no method field. */
	{ RS_PRO,
	"{\"description\":\"Login form: block credential stuffing\","
	"\"action\":\"block\","
	"\"expression\":\"http.request.uri.path eq \\\"/login\\\"\","
	"\"action_parameters\":{\"response\":{\"status_code\":429,"
	"\"content_type\":\"application/json\",\"content\":"
	"\"{\\\"error\\\":\\\"too many login attempts\\\"}\"}},"
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":5,"
	"\"mitigation_timeout\":600}}" },

	{ RS_BUSINESS | RS_ENTERPRISE,
	"{\"description\":\"Login form: block credential stuffing\","
	"\"action\":\"block\","
	"\"expression\":\"http.request.uri.path eq \\\"/login\\\" and "
	"http.request.method eq \\\"POST\\\"\","
	"\"action_parameters\":{\"response\":{\"status_code\":429,"
	"\"content_type\":\"application/json\",\"content\":"
	"\"{\\\"error\\\":\\\"too many login attempts\\\"}\"}},"
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":5,"
	"\"mitigation_timeout\":600}}" },

	{ RS_PRO | RS_BUSINESS | RS_ENTERPRISE,
	"{\"description\":\"Public API: throttle bursts\","
	"\"action\":\"managed_challenge\","
	"\"expression\":\"http.request.uri.path wildcard r\\\"/api/*\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":10,\"requests_per_period\":100,"
	"\"mitigation_timeout\":0}}" },

	/* Below Enterprise a challenge throttles: timeout 0. */
	{ RS_BUSINESS,
	"{\"description\":\"Search scrapers\","
	"\"action\":\"js_challenge\","
	"\"expression\":\"starts_with(http.request.uri.path, \\\"/search\\\")\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":30,"
	"\"mitigation_timeout\":0}}" },

	{ RS_ENTERPRISE,
	"{\"description\":\"Search scrapers\","
	"\"action\":\"js_challenge\","
	"\"expression\":\"starts_with(http.request.uri.path, \\\"/search\\\")\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":30,"
	"\"mitigation_timeout\":300}}" },

	{ RS_BUSINESS,
	"{\"description\":\"Checkout abuse\",\"action\":\"challenge\","
	"\"expression\":\"http.host eq \\\"shop.example.com\\\" and "
	"http.request.uri.path contains \\\"/checkout\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\","
	"\"cf.unique_visitor_id\"],\"period\":300,"
	"\"requests_per_period\":10,\"mitigation_timeout\":0}}" },

	{ RS_ENTERPRISE,
	"{\"description\":\"Checkout abuse\",\"action\":\"challenge\","
	"\"expression\":\"http.host eq \\\"shop.example.com\\\" and "
	"http.request.uri.path contains \\\"/checkout\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\","
	"\"cf.unique_visitor_id\"],\"period\":300,"
	"\"requests_per_period\":10,\"mitigation_timeout\":600}}" },

	/* log is Enterprise only. */
	{ RS_ENTERPRISE,
	"{\"description\":\"Version 2 API traffic (observing)\","
	"\"action\":\"log\",\"enabled\":false,"
	"\"expression\":\"http.request.uri.path matches r\\\"^/v2/\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":1000,"
	"\"mitigation_timeout\":60,\"requests_to_origin\":true}}" },

	{ RS_BUSINESS | RS_ENTERPRISE,
	"{\"description\":\"Password reset: count failures only\","
	"\"action\":\"block\",\"ref\":\"password-reset\","
	"\"expression\":\"http.request.uri.path eq "
	"\\\"/account/reset-password\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":600,\"requests_per_period\":5,"
	"\"mitigation_timeout\":3600,\"counting_expression\":"
	"\"http.request.uri.path eq \\\"/account/reset-password\\\" and "
	"http.response.code in {401 403 429}\"}}" },
};

static int
rs_demo_version(struct store *store, const char *zone, cJSON *doc)
{
	const char	*v = NULL;
	char		 num[32], now[ISO_TIME_LEN];

	util_jstring(doc, "version", &v);
	snprintf(num, sizeof num, "%d", v != NULL ? atoi(v) + 1 : 1);
	util_now_iso(now);
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "version",
	    cJSON_CreateString(num));
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "last_updated",
	    cJSON_CreateString(now));
	return (rs_save(store, zone, doc));
}

/* The demo rules of the plan (their indexes into plan[]): how many. */
static size_t
rs_demo_pick(enum expr_plan plan, size_t *pick)
{
	size_t	i, n = 0;

	for (i = 0; i < nitems(rs_demo_rules); i++)
		if (rs_demo_rules[i].plans & RS_PLAN(plan))
			pick[n++] = i;
	return (n);
}

/* Runs inside demo_seed's transaction; ids come from a fixed seed. */
int
rs_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct rlrule_problem	 p;
	struct util_rng		 rng;
	enum expr_plan		 plan = (enum expr_plan)demo_plan();
	char			 id[HEX32_LEN + 1], now[ISO_TIME_LEN];
	const char		*ref;
	cJSON			*doc, *body, *rule, *rules;
	size_t			 i, n, pick[nitems(rs_demo_rules)];

	(void)account;
	if (plan < EXPR_PLAN_FREE || plan > EXPR_PLAN_ENTERPRISE)
		plan = EXPR_PLAN_ENTERPRISE;
	n = rs_demo_pick(plan, pick);
	/* What the plan holds, as the service would check it. */
	if (rlrule_quota((int)n, plan, &p) != 0)
		fatalx("demo rate limiting rules: %s", p.message);
	util_rng_seed(&rng, 0x72756c6573657473ULL);
	util_rng_hex32(&rng, id);
	doc = rs_new_ruleset(id, "default", "Rate limiting rules of the "
	    "demo zone");
	rules = cJSON_GetObjectItemCaseSensitive(doc, "rules");
	util_now_iso(now);
	for (i = 0; i < n; i++) {
		if ((body = cJSON_Parse(rs_demo_rules[pick[i]].json)) == NULL)
			fatalx("demo rate limiting rule %zu is not JSON",
			    pick[i]);
		if (rlrule_check(body, plan, &p) != 0)
			fatalx("demo rate limiting rule %zu on %s: %s: %s",
			    pick[i], expr_plan_name(plan), p.field, p.message);
		util_rng_hex32(&rng, id);
		if (util_jstring(body, "ref", &ref) != UTIL_JOK)
			ref = id;
		rule = rs_rule_build(body, id, ref);
		rs_rule_stamp(rule, NULL, now);
		cJSON_Delete(body);
		/* The last rule comes with a second version. */
		if (i + 1 == n && rs_demo_version(store, zone, doc) != 0)
			goto fail;
		cJSON_AddItemToArray(rules, rule);
	}
	if (rs_demo_version(store, zone, doc) != 0)
		goto fail;
	cJSON_Delete(doc);
	return (0);

fail:
	*cause = xprintf("demo rate limiting rules: %s", store_errmsg(store));
	cJSON_Delete(doc);
	return (-1);
}
