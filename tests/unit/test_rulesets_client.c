/*
 * Unit tests of the client side of rate limiting rules (src/rulesets.c):
 * --position, the bodies a write sends, finding rules, the lint before a
 * write; the cursor pager the zone's rulesets are listed with; the
 * profile's plan key.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "api.h"
#include "buf.h"
#include "configfile.h"
#include "pager.h"
#include "rulesets.h"

#define ID_A	"0123456789abcdef0123456789abcdef"
#define ID_B	"fedcba9876543210fedcba9876543210"

static const char rule_text[] =
    "{\"id\":\"" ID_A "\",\"version\":\"3\","
    "\"last_updated\":\"2026-11-24T10:00:00Z\",\"ref\":\"login\","
    "\"position\":{\"index\":1},"
    "\"description\":\"login\",\"action\":\"block\","
    "\"expression\":\"http.request.uri.path eq \\\"/login\\\"\","
    "\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
    "\"period\":60,\"requests_per_period\":5,\"mitigation_timeout\":600}}";

static cJSON *
rule(void)
{
	cJSON	*r = cJSON_Parse(rule_text);

	assert_non_null(r);
	return (r);
}

static char *
json(const cJSON *v)
{
	char	*s = cJSON_PrintUnformatted(v);

	assert_non_null(s);
	return (s);
}

/* ---- positions ---------------------------------------------------------- */

static void
test_position_parse(void **state)
{
	static const struct {
		const char	*arg;
		const char	*want;		/* NULL: refused */
	} cases[] = {
		{ "first", "{\"before\":\"\"}" },
		{ "last", "{\"after\":\"\"}" },
		{ "before:" ID_A, "{\"before\":\"" ID_A "\"}" },
		{ "after:" ID_B, "{\"after\":\"" ID_B "\"}" },
		{ "1", "{\"index\":1}" },
		{ "42", "{\"index\":42}" },
		{ "0", NULL },
		{ "-1", NULL },
		{ "1x", NULL },
		{ "99999999999999999999", NULL },
		{ "", NULL },
		{ "First", NULL },
		{ "before:", NULL },
		{ "before:xyz", NULL },
		{ "after:" ID_A "0", NULL },
		{ "middle", NULL },
	};
	struct rulesets_position	 p;
	cJSON				*o;
	char				*cause, *s;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cause = NULL;
		if (cases[i].want == NULL) {
			if (rulesets_position_parse(cases[i].arg, &p,
			    &cause) == 0)
				fail_msg("'%s' was taken", cases[i].arg);
			assert_non_null(strstr(cause, "--position"));
			free(cause);
			continue;
		}
		if (rulesets_position_parse(cases[i].arg, &p, &cause) != 0)
			fail_msg("'%s': %s", cases[i].arg, cause);
		o = rulesets_position_json(&p);
		s = json(o);
		assert_string_equal(s, cases[i].want);
		free(s);
		cJSON_Delete(o);
	}
	assert_int_equal(rulesets_position_parse(NULL, &p, &cause), -1);
	free(cause);
}

static void
test_position_check(void **state)
{
	struct rulesets_position	 p;
	cJSON				*rules;
	char				*cause = NULL;

	(void)state;
	rules = cJSON_Parse("[{\"id\":\"" ID_A "\"},{\"id\":\"" ID_B "\"}]");
	assert_int_equal(rulesets_position_parse("3", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, rules, &cause), 0);
	assert_int_equal(rulesets_position_parse("4", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, rules, &cause), -1);
	assert_string_equal(cause, "--position 4 is out of range: give a "
	    "number from 1 to 3");
	free(cause);
	/* Ids compare without case, as hex does. */
	assert_int_equal(rulesets_position_parse("before:"
	    "FEDCBA9876543210FEDCBA9876543210", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, rules, &cause), 0);
	assert_int_equal(rulesets_position_parse("after:"
	    "00000000000000000000000000000000", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, rules, &cause), -1);
	free(cause);
	/* No entry point yet: first, last and 1 only. */
	assert_int_equal(rulesets_position_parse("first", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, NULL, &cause), 0);
	assert_int_equal(rulesets_position_parse("1", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, NULL, &cause), 0);
	assert_int_equal(rulesets_position_parse("2", &p, &cause), 0);
	assert_int_equal(rulesets_position_check(&p, NULL, &cause), -1);
	free(cause);
	assert_int_equal(rulesets_position_parse("before:" ID_A, &p, &cause),
	    0);
	assert_int_equal(rulesets_position_check(&p, NULL, &cause), -1);
	free(cause);
	cJSON_Delete(rules);
}

/* ---- bodies and rules --------------------------------------------------- */

static void
test_rule_body(void **state)
{
	cJSON	*r = rule(), *body, *ep;
	char	*s;

	(void)state;
	body = rulesets_rule_body(r);
	/* What the server sets goes; everything the rule keeps stays. */
	assert_null(cJSON_GetObjectItem(body, "id"));
	assert_null(cJSON_GetObjectItem(body, "version"));
	assert_null(cJSON_GetObjectItem(body, "last_updated"));
	assert_null(cJSON_GetObjectItem(body, "position"));
	assert_string_equal(cJSON_GetObjectItem(body, "ref")->valuestring,
	    "login");
	assert_string_equal(cJSON_GetObjectItem(body,
	    "description")->valuestring, "login");
	assert_true(cJSON_Compare(cJSON_GetObjectItem(body, "ratelimit"),
	    cJSON_GetObjectItem(r, "ratelimit"), 1));
	assert_int_equal(cJSON_GetArraySize(body), 5);
	/* The caller's rule is left as it was. */
	assert_non_null(cJSON_GetObjectItem(r, "id"));

	ep = rulesets_entrypoint_body(r);
	s = json(cJSON_GetObjectItem(ep, "name"));
	assert_string_equal(s, "\"default\"");
	free(s);
	assert_string_equal(cJSON_GetObjectItem(ep, "kind")->valuestring,
	    "zone");
	assert_string_equal(cJSON_GetObjectItem(ep, "phase")->valuestring,
	    "http_ratelimit");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ep, "rules")),
	    1);
	assert_true(cJSON_Compare(cJSON_GetArrayItem(cJSON_GetObjectItem(ep,
	    "rules"), 0), body, 1));
	cJSON_Delete(ep);
	cJSON_Delete(body);
	cJSON_Delete(r);
}

static void
test_rule_find(void **state)
{
	cJSON		*before, *after;
	const cJSON	*r;
	int		 pos = 0;

	(void)state;
	before = cJSON_Parse("{\"id\":\"rs\",\"rules\":[{\"id\":\"" ID_A
	    "\"}]}");
	after = cJSON_Parse("{\"id\":\"rs\",\"rules\":[{\"id\":\"" ID_B
	    "\",\"n\":2},{\"id\":\"" ID_A "\"}]}");
	assert_int_equal(cJSON_GetArraySize(rulesets_rules(after)), 2);
	assert_null(rulesets_rules(NULL));
	r = rulesets_rule_find(after, ID_A, &pos);
	assert_non_null(r);
	assert_int_equal(pos, 2);
	assert_null(rulesets_rule_find(after, "nope", &pos));
	assert_null(rulesets_rule_find(NULL, ID_A, NULL));
	/* What a create added: not in the ruleset before. */
	r = rulesets_rule_added(before, after);
	assert_non_null(r);
	assert_int_equal(cJSON_GetObjectItem(r, "n")->valueint, 2);
	/* An entry point that did not exist: its first rule. */
	assert_ptr_equal(rulesets_rule_added(NULL, after),
	    cJSON_GetArrayItem(cJSON_GetObjectItem(after, "rules"), 0));
	assert_null(rulesets_rule_added(after, before));

	/* Numbered in place from 1; a number already there is replaced. */
	cJSON_AddNumberToObject(cJSON_GetArrayItem(rulesets_rules(after), 1),
	    "position", 9);
	rulesets_number(cJSON_GetObjectItem(after, "rules"));
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    rulesets_rules(after), 0), "position")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    rulesets_rules(after), 1), "position")->valueint, 2);
	rulesets_number(NULL);
	cJSON_Delete(before);
	cJSON_Delete(after);
}

/*
 * Versions newest first (the server's list is oldest first): 10 after 9
 * by number, not by text; one that is no number last, ties as they came.
 */
static void
test_versions_newest_first(void **state)
{
	cJSON	*list;
	char	*text;

	(void)state;
	list = cJSON_Parse("[{\"version\":\"1\"},{\"version\":\"2\"},"
	    "{\"version\":\"x\",\"n\":1},{\"version\":\"10\"},"
	    "{\"version\":\"9\"},{\"n\":2}]");
	assert_non_null(list);
	rulesets_versions_newest_first(list);
	text = cJSON_PrintUnformatted(list);
	assert_string_equal(text, "[{\"version\":\"10\"},{\"version\":"
	    "\"9\"},{\"version\":\"2\"},{\"version\":\"1\"},"
	    "{\"version\":\"x\",\"n\":1},{\"n\":2}]");
	cJSON_free(text);
	cJSON_Delete(list);
	rulesets_versions_newest_first(NULL);
}

/* ---- lint --------------------------------------------------------------- */

static void
test_lint(void **state)
{
	struct rulesets_lint	 l;
	cJSON			*r = rule(), *rl;

	(void)state;
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_NONE, &l), 0);
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_FREE, &l), -1);

	/* The expression: its text and column, for the caret. */
	cJSON_ReplaceItemInObject(r, "expression", cJSON_CreateString(
	    "http.request.uri.path eq \"/a\" and http.hostt eq \"b\""));
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_NONE, &l), -1);
	assert_string_equal(l.field, "expression");
	assert_non_null(l.text);
	assert_int_equal(l.err.column, 35);
	assert_non_null(strstr(l.err.message, "http.hostt"));

	/* The plan: matches is Business and above. */
	cJSON_ReplaceItemInObject(r, "expression", cJSON_CreateString(
	    "http.request.uri.path matches \"^/a\""));
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_BUSINESS, &l), 0);
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_PRO, &l), -1);
	assert_string_equal(l.field, "expression");
	assert_int_equal(l.err.column, 23);

	/* A counting expression may use the response; "" is none. */
	rl = cJSON_GetObjectItem(r, "ratelimit");
	cJSON_AddStringToObject(rl, "counting_expression", "");
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_NONE, &l), 0);
	cJSON_ReplaceItemInObject(rl, "counting_expression",
	    cJSON_CreateString("http.response.code eq 429"));
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_NONE, &l), 0);
	cJSON_ReplaceItemInObject(rl, "counting_expression",
	    cJSON_CreateString("http.response.code eq"));
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_NONE, &l), -1);
	assert_string_equal(l.field, "ratelimit.counting_expression");
	assert_non_null(l.text);
	cJSON_DeleteItemFromObject(rl, "counting_expression");

	/* What is not an expression: the field, no text. */
	cJSON_ReplaceItemInObject(rl, "characteristics",
	    cJSON_Parse("[\"ip.src\"]"));
	assert_int_equal(rulesets_lint(r, EXPR_PLAN_NONE, &l), -1);
	assert_string_equal(l.field, "ratelimit.characteristics");
	assert_null(l.text);
	assert_non_null(strstr(l.err.message, "cf.colo.id"));
	cJSON_Delete(r);
}

/* ---- the cursor pager --------------------------------------------------- */

static void
feed(struct pager *p, const char *body, size_t *n)
{
	struct api_response	 r;
	cJSON			**items;
	char			*cause = NULL;

	api_parse(200, body, strlen(body), &r);
	if (pager_feed(p, &r, &items, n, &cause) != 0)
		fail_msg("pager_feed: %s", cause);
	api_response_free(&r);
}

static void
test_pager_cursor(void **state)
{
	struct pager	*p;
	struct buf	 q = BUF_INITIALIZER;
	size_t		 n;

	(void)state;
	p = pager_new(PAGER_CURSOR, 2, NULL);
	assert_int_equal(pager_next_query(p, &q), 1);
	assert_string_equal(buf_str(&q), "per_page=2");
	feed(p, "{\"success\":true,\"result\":[{\"id\":1},{\"id\":2}],"
	    "\"result_info\":{\"cursor\":\"a b&c\"}}", &n);
	assert_int_equal(n, 2);
	buf_reset(&q);
	assert_int_equal(pager_next_query(p, &q), 1);
	/* The cursor is sent back, encoded. */
	assert_string_equal(buf_str(&q), "per_page=2&cursor=a%20b%26c");
	feed(p, "{\"success\":true,\"result\":[{\"id\":3}],"
	    "\"result_info\":{}}", &n);
	assert_int_equal(n, 1);
	assert_true(pager_done(p));
	buf_reset(&q);
	assert_int_equal(pager_next_query(p, &q), 0);
	assert_null(pager_warning(p));
	pager_free(p);

	/* A server repeating its cursor: the list stops with a warning. */
	p = pager_new(PAGER_CURSOR, 0, NULL);
	buf_reset(&q);
	assert_int_equal(pager_next_query(p, &q), 1);
	assert_string_equal(buf_str(&q), "");
	feed(p, "{\"success\":true,\"result\":[{\"id\":1}],"
	    "\"result_info\":{\"cursor\":\"x\"}}", &n);
	feed(p, "{\"success\":true,\"result\":[{\"id\":1}],"
	    "\"result_info\":{\"cursor\":\"x\"}}", &n);
	assert_true(pager_done(p));
	assert_non_null(pager_warning(p));
	pager_free(p);
	buf_free(&q);
}

/* ---- the profile's plan -------------------------------------------------- */

static void
test_profile_plan(void **state)
{
	static const char	 text[] =
	    "profiles:\n"
	    "  shop:\n"
	    "    plan: business\n"
	    "  other:\n"
	    "    zone: " ID_A "\n"
	    "  bad:\n"
	    "    plan: gold\n";
	struct config		*cfg;

	(void)state;
	cfg = config_parse_text("config.yaml", text, strlen(text), 0600,
	    NULL);
	assert_non_null(cfg);
	assert_int_equal(config_profile(cfg, "shop")->plan,
	    EXPR_PLAN_BUSINESS);
	/* Unset: no plan's limits, the language's only. */
	assert_int_equal(config_profile(cfg, "other")->plan, EXPR_PLAN_NONE);
	assert_int_equal(cfg->nproblems, 1);
	assert_non_null(strstr(cfg->problems[0].message, "plan"));
	assert_non_null(strstr(cfg->problems[0].message, "enterprise"));
	config_free(cfg);
}

/* Characteristics as the rule form shows them, and back. */
static void
test_characteristics(void **state)
{
	cJSON	*list;
	char	*text;

	(void)state;
	list = rulesets_characteristics_parse(" cf.colo.id ,ip.src,, "
	    "http.request.headers[\"x-a,b\"] ,");
	assert_int_equal(cJSON_GetArraySize(list), 3);
	assert_string_equal(cJSON_GetArrayItem(list, 0)->valuestring,
	    "cf.colo.id");
	assert_string_equal(cJSON_GetArrayItem(list, 1)->valuestring,
	    "ip.src");
	assert_string_equal(cJSON_GetArrayItem(list, 2)->valuestring,
	    "http.request.headers[\"x-a,b\"]");
	text = rulesets_characteristics_text(list);
	assert_string_equal(text, "cf.colo.id, ip.src, "
	    "http.request.headers[\"x-a,b\"]");
	free(text);
	cJSON_Delete(list);
	/* An unclosed quote keeps the rest, to be refused by the lint. */
	list = rulesets_characteristics_parse("cf.colo.id, a[\"b, c");
	assert_int_equal(cJSON_GetArraySize(list), 2);
	assert_string_equal(cJSON_GetArrayItem(list, 1)->valuestring,
	    "a[\"b, c");
	cJSON_Delete(list);
	list = rulesets_characteristics_parse("");
	assert_int_equal(cJSON_GetArraySize(list), 0);
	text = rulesets_characteristics_text(list);
	assert_string_equal(text, "");
	free(text);
	cJSON_Delete(list);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_position_parse),
		cmocka_unit_test(test_position_check),
		cmocka_unit_test(test_rule_body),
		cmocka_unit_test(test_rule_find),
		cmocka_unit_test(test_lint),
		cmocka_unit_test(test_pager_cursor),
		cmocka_unit_test(test_profile_plan),
		cmocka_unit_test(test_characteristics),
		cmocka_unit_test(test_versions_newest_first),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
