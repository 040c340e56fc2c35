/*
 * --demo-data: the demo zone's http_ratelimit entry point, six rules that
 * cover every action, one throttle (timeout 0) and one counting
 * expression; version 1 has the first five, version 2 adds the sixth.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "internal.h"

static const char *const rs_demo_rules[] = {
	"{\"description\":\"Login form: block credential stuffing\","
	"\"action\":\"block\","
	"\"expression\":\"http.request.uri.path eq \\\"/login\\\" and "
	"http.request.method eq \\\"POST\\\"\","
	"\"action_parameters\":{\"response\":{\"status_code\":429,"
	"\"content_type\":\"application/json\",\"content\":"
	"\"{\\\"error\\\":\\\"too many login attempts\\\"}\"}},"
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":5,"
	"\"mitigation_timeout\":600}}",

	"{\"description\":\"Public API: throttle bursts\","
	"\"action\":\"managed_challenge\","
	"\"expression\":\"http.request.uri.path wildcard r\\\"/api/*\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":10,\"requests_per_period\":100,"
	"\"mitigation_timeout\":0}}",

	"{\"description\":\"Search scrapers\","
	"\"action\":\"js_challenge\","
	"\"expression\":\"starts_with(http.request.uri.path, \\\"/search\\\")\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":30,"
	"\"mitigation_timeout\":300}}",

	"{\"description\":\"Checkout abuse\",\"action\":\"challenge\","
	"\"expression\":\"http.host eq \\\"shop.example.com\\\" and "
	"http.request.uri.path contains \\\"/checkout\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\","
	"\"cf.unique_visitor_id\"],\"period\":300,"
	"\"requests_per_period\":10,\"mitigation_timeout\":600}}",

	"{\"description\":\"Version 2 API traffic (observing)\","
	"\"action\":\"log\",\"enabled\":false,"
	"\"expression\":\"http.request.uri.path matches r\\\"^/v2/\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":60,\"requests_per_period\":1000,"
	"\"mitigation_timeout\":60,\"requests_to_origin\":true}}",

	"{\"description\":\"Password reset: count failures only\","
	"\"action\":\"block\",\"ref\":\"password-reset\","
	"\"expression\":\"http.request.uri.path eq "
	"\\\"/account/reset-password\\\"\","
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	"\"period\":600,\"requests_per_period\":5,"
	"\"mitigation_timeout\":3600,\"counting_expression\":"
	"\"http.request.uri.path eq \\\"/account/reset-password\\\" and "
	"http.response.code in {401 403 429}\"}}",
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

/* Runs inside demo_seed's transaction; ids come from a fixed seed. */
int
rs_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct rlrule_problem	 p;
	struct util_rng		 rng;
	char			 id[HEX32_LEN + 1], now[ISO_TIME_LEN];
	const char		*ref;
	cJSON			*doc, *body, *rule, *rules;
	size_t			 i;

	(void)account;
	util_rng_seed(&rng, 0x72756c6573657473ULL);
	util_rng_hex32(&rng, id);
	doc = rs_new_ruleset(id, "default", "Rate limiting rules of the "
	    "demo zone");
	rules = cJSON_GetObjectItemCaseSensitive(doc, "rules");
	util_now_iso(now);
	for (i = 0; i < nitems(rs_demo_rules); i++) {
		if ((body = cJSON_Parse(rs_demo_rules[i])) == NULL)
			fatalx("demo rate limiting rule %zu is not JSON", i);
		if (rlrule_check(body, EXPR_PLAN_NONE, &p) != 0)
			fatalx("demo rate limiting rule %zu: %s: %s", i,
			    p.field, p.message);
		util_rng_hex32(&rng, id);
		if (util_jstring(body, "ref", &ref) != UTIL_JOK)
			ref = id;
		rule = rs_rule_build(body, id, ref);
		rs_rule_stamp(rule, NULL, now);
		cJSON_Delete(body);
		/* The last rule comes with a second version. */
		if (i + 1 == nitems(rs_demo_rules) &&
		    rs_demo_version(store, zone, doc) != 0)
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
