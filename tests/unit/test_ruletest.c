/*
 * Unit tests for ruletest.c: the request from typed inputs and which one
 * is refused, each rule's verdict, which rules count the request and
 * which acts first, counting expressions and lists that are not known
 * here, the explained tree of a rule that does not match, and an edited
 * rule put in its place.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "ruletest.h"

static const char rules_json[] =
    "[{\"id\":\"r1\",\"description\":\"login\",\"action\":\"log\","
    "\"expression\":"
    "\"http.request.uri.path eq \\\"/login\\\" and http.request.method eq "
    "\\\"POST\\\"\"},"
    "{\"id\":\"r2\",\"description\":\"off\",\"enabled\":false,"
    "\"expression\":\"true\"},"
    "{\"id\":\"r3\",\"description\":\"broken\",\"expression\":"
    "\"http.hostt eq \\\"a\\\"\"},"
    "{\"id\":\"r4\",\"description\":\"gb api\",\"action\":\"block\","
    "\"expression\":"
    "\"ip.src.country eq \\\"GB\\\" and "
    "any(http.request.headers[\\\"x-api\\\"][*] eq \\\"1\\\")\"},"
    "{\"id\":\"r5\",\"description\":\"all\",\"action\":\"challenge\","
    "\"expression\":\"true\"}]";

static struct expr_request *
request(const char *method, const char *url, const char *ip,
    const char *header, const char *country, struct ruletest_error *err)
{
	struct ruletest_input	in;
	const char		*hs[1] = { header };

	memset(&in, 0, sizeof in);
	in.method = method;
	in.url = url;
	in.ip = ip;
	in.headers = hs;
	in.nheaders = header != NULL ? 1 : 0;
	in.country = country;
	return (ruletest_request(&in, err));
}

static void
test_request_refused(void **state)
{
	struct ruletest_error	 err;
	struct expr_request	*rq;

	(void)state;
	assert_null(request("GET", "/login", NULL, NULL, NULL, &err));
	assert_int_equal(err.field, RULETEST_URL);
	assert_non_null(strstr(err.message, "'/login'"));
	assert_null(request("GET", "https://a/", "10.1", NULL, NULL, &err));
	assert_int_equal(err.field, RULETEST_IP);
	assert_non_null(strstr(err.message, "IPv4 or IPv6"));
	assert_null(request("GET", "https://a/", NULL, "no colon", NULL, &err));
	assert_int_equal(err.field, RULETEST_HEADER);
	assert_int_equal(err.header, 0);
	assert_null(request("GET", "https://a/", NULL, NULL, "GBR", &err));
	assert_int_equal(err.field, RULETEST_COUNTRY);
	/* Nothing typed but a URL: GET, no address, no country. */
	rq = request(NULL, "https://a/", "", NULL, "", &err);
	assert_non_null(rq);
	expr_request_free(rq);
}

/*
 * Every rule whose expression matches counts the request; the first of
 * them whose action ends evaluation (not log) is the one that acts.
 */
static void
test_every_match_counts(void **state)
{
	struct ruletest_error	 err;
	struct ruletest_result	*res;
	struct expr_request	*rq;
	cJSON			*rules = cJSON_Parse(rules_json);
	size_t			 n;
	int			 acts;
	char			*sum;

	(void)state;
	assert_non_null(rules);
	rq = request("post", "https://example.com/login", "192.0.2.1", NULL,
	    NULL, &err);
	assert_non_null(rq);
	res = ruletest_run(rules, rq, &n, &acts);
	assert_int_equal(n, 5);
	assert_int_equal(res[0].verdict, RULETEST_MATCH);
	assert_int_equal(res[0].count, RULETEST_COUNTED);
	assert_false(res[0].terminates);
	assert_int_equal(res[1].verdict, RULETEST_DISABLED);
	assert_int_equal(res[1].count, RULETEST_NOT_COUNTED);
	assert_int_equal(res[2].verdict, RULETEST_INVALID);
	assert_non_null(strstr(res[2].why, "expression:1:1:"));
	assert_int_equal(res[3].verdict, RULETEST_NO_MATCH);
	assert_int_equal(res[4].verdict, RULETEST_MATCH);
	assert_int_equal(res[4].count, RULETEST_COUNTED);
	assert_int_equal(res[4].position, 5);
	assert_string_equal(ruletest_verdict_name(res[3].verdict), "no match");
	/* The log rule does not stop evaluation: the challenge acts. */
	assert_int_equal(acts, 4);
	sum = ruletest_summary(res, n, acts);
	assert_string_equal(sum, "counted by #1, #5 (each in its own "
	    "counters); #5 (challenge) acts first once over its rate, and "
	    "evaluation stops there");
	free(sum);
	free(res);
	expr_request_free(rq);

	/* The country (lower case typed) and a header: rule 4 acts. */
	rq = request("GET", "https://example.com/", NULL, "X-Api: 1", "gb",
	    &err);
	assert_non_null(rq);
	res = ruletest_run(rules, rq, &n, &acts);
	assert_int_equal(acts, 3);
	assert_int_equal(res[3].count, RULETEST_COUNTED);
	assert_int_equal(res[4].count, RULETEST_COUNTED);
	free(res);
	expr_request_free(rq);

	/* No rules: none matches. */
	rq = request("GET", "https://example.com/", NULL, NULL, NULL, &err);
	res = ruletest_run(NULL, rq, &n, &acts);
	assert_int_equal(n, 0);
	assert_int_equal(acts, -1);
	sum = ruletest_summary(res, n, acts);
	assert_string_equal(sum, "no rule matches");
	free(sum);
	free(res);
	expr_request_free(rq);
	cJSON_Delete(rules);
}

/*
 * A counting expression decides whether a match counts; one that reads
 * the response may count when the request gives none. A list is not known
 * here: the rule may match, and may count.
 */
static void
test_counting_and_lists(void **state)
{
	struct ruletest_input	 in;
	struct ruletest_error	 err;
	struct ruletest_result	*res;
	struct expr_request	*rq;
	cJSON			*rules;
	size_t			 n;
	int			 acts, status;
	char			*sum;

	(void)state;
	rules = cJSON_Parse("[{\"id\":\"c\",\"action\":\"block\","
	    "\"expression\":\"http.request.uri.path eq \\\"/reset\\\"\","
	    "\"ratelimit\":{\"counting_expression\":"
	    "\"http.response.code in {401 403}\"}},"
	    "{\"id\":\"l\",\"action\":\"block\",\"expression\":"
	    "\"ip.src in $office_ips\"}]");
	assert_non_null(rules);
	for (status = 0; status <= 401; status += 401) {
		memset(&in, 0, sizeof in);
		in.method = "POST";
		in.url = "https://example.com/reset";
		in.ip = "192.0.2.1";
		in.status = status;
		assert_non_null(rq = ruletest_request(&in, &err));
		res = ruletest_run(rules, rq, &n, &acts);
		assert_int_equal(res[0].verdict, RULETEST_MATCH);
		assert_int_equal(res[0].count, status == 0 ?
		    RULETEST_MAY_COUNT : RULETEST_COUNTED);
		assert_int_equal(acts, 0);
		assert_int_equal(res[1].verdict, RULETEST_UNKNOWN);
		assert_int_equal(res[1].count, RULETEST_MAY_COUNT);
		assert_string_equal(res[1].why,
		    "list $office_ips is not known here");
		sum = ruletest_summary(res, n, acts);
		assert_non_null(strstr(sum, "#2 may count it (list $office_ips "
		    "is not known here)"));
		free(sum);
		free(res);
		expr_request_free(rq);
	}
	/* A response the counting expression does not take: not counted. */
	memset(&in, 0, sizeof in);
	in.url = "https://example.com/reset";
	in.status = 200;
	assert_non_null(rq = ruletest_request(&in, &err));
	res = ruletest_run(rules, rq, &n, &acts);
	assert_int_equal(res[0].count, RULETEST_NOT_COUNTED);
	assert_non_null(strstr(res[0].why, "counting expression"));
	/* Still the rule that acts: its expression matches. */
	assert_int_equal(acts, 0);
	free(res);
	expr_request_free(rq);
	cJSON_Delete(rules);
}

/*
 * A rule whose regex reaches PCRE2's limits on the request (its path of
 * 5000 a's) is neither a match nor not one: unknown, said why, and its
 * explained tree says which node.
 */
static void
test_unknown(void **state)
{
	static const char	 json[] = "[{\"id\":\"re\",\"action\":\"block\","
	    "\"expression\":"
	    "\"http.request.uri.path matches \\\"(a|aa)+[bc]\\\"\"},"
	    "{\"id\":\"all\",\"action\":\"block\",\"expression\":\"true\"}]";
	struct ruletest_error	 err;
	struct ruletest_result	*res;
	struct ruletest_step	*steps;
	struct expr_error	 xerr;
	struct expr_request	*rq;
	cJSON			*rules = cJSON_Parse(json);
	char			 url[5100];
	size_t			 n;
	int			 first;

	(void)state;
	assert_non_null(rules);
	snprintf(url, sizeof url, "https://example.com/");
	memset(url + strlen(url), 'a', 5000);
	url[19 + 5000] = '\0';
	assert_non_null(rq = request("GET", url, NULL, NULL, NULL, &err));
	res = ruletest_run(rules, rq, &n, &first);
	assert_int_equal(n, 2);
	assert_int_equal(res[0].verdict, RULETEST_UNKNOWN);
	assert_string_equal(ruletest_verdict_name(res[0].verdict), "unknown");
	assert_non_null(strstr(res[0].why, "matching limits"));
	assert_int_equal(res[0].count, RULETEST_MAY_COUNT);
	/* An unknown rule may count it but is not said to act. */
	assert_int_equal(first, 1);
	steps = ruletest_explain(cJSON_GetArrayItem(rules, 0), rq, &n, &xerr);
	assert_non_null(steps);
	assert_int_equal(n, 1);
	assert_int_equal(steps[0].value, EXPR_UNKNOWN);
	assert_string_equal(ruletest_value_name(steps[0].value), "unknown");
	ruletest_steps_free(steps, n);
	free(res);
	expr_request_free(rq);
	cJSON_Delete(rules);
}

static void
test_explain(void **state)
{
	struct ruletest_error	 err;
	struct ruletest_step	*s;
	struct expr_request	*rq;
	struct expr_error	 xerr;
	cJSON			*rules = cJSON_Parse(rules_json);
	size_t			 n, i;
	int			 found = 0;

	(void)state;
	rq = request("GET", "https://example.com/login", NULL, NULL, NULL,
	    &err);
	assert_non_null(rq);
	s = ruletest_explain(cJSON_GetArrayItem(rules, 0), rq, &n, &xerr);
	assert_non_null(s);
	assert_true(n >= 3);
	assert_int_equal(s[0].depth, 0);
	assert_int_equal(s[0].value, EXPR_FALSE);
	/* The path is true, the method is the false comparison. */
	for (i = 1; i < n; i++) {
		if (strstr(s[i].text, "http.request.method") != NULL) {
			assert_int_equal(s[i].value, EXPR_FALSE);
			assert_string_equal(s[i].seen, "\"GET\"");
			found = 1;
		} else if (strstr(s[i].text, "uri.path") != NULL)
			assert_int_equal(s[i].value, EXPR_TRUE);
	}
	assert_true(found);
	assert_string_equal(ruletest_value_name(s[0].value), "false");
	ruletest_steps_free(s, n);
	/* An expression that does not parse: the parser's column. */
	assert_null(ruletest_explain(cJSON_GetArrayItem(rules, 2), rq, &n,
	    &xerr));
	assert_int_equal(xerr.column, 1);
	expr_request_free(rq);
	cJSON_Delete(rules);
}

/* A list's comparison is unknown in the tree, and what it decides. */
static void
test_explain_list(void **state)
{
	struct ruletest_error	 err;
	struct ruletest_step	*s;
	struct expr_request	*rq;
	struct expr_error	 xerr;
	cJSON			*rule;
	size_t			 n;

	(void)state;
	rule = cJSON_Parse("{\"expression\":\"ip.src in $office_ips and "
	    "ssl\"}");
	rq = request("GET", "https://example.com/", "192.0.2.1", NULL, NULL,
	    &err);
	s = ruletest_explain(rule, rq, &n, &xerr);
	assert_non_null(s);
	assert_int_equal(n, 3);
	assert_int_equal(s[0].value, EXPR_UNKNOWN);
	assert_string_equal(ruletest_value_name(s[0].value), "unknown");
	assert_int_equal(s[1].value, EXPR_UNKNOWN);
	assert_string_equal(s[1].seen, "192.0.2.1");
	assert_int_equal(s[2].value, EXPR_TRUE);
	ruletest_steps_free(s, n);
	expr_request_free(rq);
	/* Plain http: false whatever the list holds. */
	rq = request("GET", "http://example.com/", "192.0.2.1", NULL, NULL,
	    &err);
	s = ruletest_explain(rule, rq, &n, &xerr);
	assert_int_equal(s[0].value, EXPR_FALSE);
	assert_int_equal(s[1].value, EXPR_UNKNOWN);
	ruletest_steps_free(s, n);
	expr_request_free(rq);
	cJSON_Delete(rule);
}

static void
test_rules_with(void **state)
{
	cJSON	*rules = cJSON_Parse(rules_json), *ed, *out;
	int	 at;

	(void)state;
	/* An edited rule with an id takes that rule's place. */
	ed = cJSON_Parse("{\"id\":\"r3\",\"expression\":\"false\"}");
	out = ruletest_rules_with(rules, ed, &at);
	assert_int_equal(at, 2);
	assert_int_equal(cJSON_GetArraySize(out), 5);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(out, 2),
	    "expression")->valuestring, "false");
	cJSON_Delete(out);
	cJSON_Delete(ed);
	/* A new one (no id) comes after the others. */
	ed = cJSON_Parse("{\"expression\":\"false\"}");
	out = ruletest_rules_with(rules, ed, &at);
	assert_int_equal(at, 5);
	assert_int_equal(cJSON_GetArraySize(out), 6);
	cJSON_Delete(out);
	/* The zone has none yet. */
	out = ruletest_rules_with(NULL, ed, &at);
	assert_int_equal(at, 0);
	assert_int_equal(cJSON_GetArraySize(out), 1);
	cJSON_Delete(out);
	/* No edited rule: a copy. */
	out = ruletest_rules_with(rules, NULL, &at);
	assert_int_equal(at, -1);
	assert_true(cJSON_Compare(out, rules, 1));
	cJSON_Delete(out);
	cJSON_Delete(ed);
	cJSON_Delete(rules);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_refused),
		cmocka_unit_test(test_every_match_counts),
		cmocka_unit_test(test_counting_and_lists),
		cmocka_unit_test(test_explain_list),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_rules_with),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
