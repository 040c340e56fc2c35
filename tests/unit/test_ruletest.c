/*
 * Unit tests for ruletest.c: the request from typed inputs and which one
 * is refused, each rule's verdict and the first match, the explained tree
 * of a rule that does not match, and an edited rule put in its place.
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
    "[{\"id\":\"r1\",\"description\":\"login\",\"expression\":"
    "\"http.request.uri.path eq \\\"/login\\\" and http.request.method eq "
    "\\\"POST\\\"\"},"
    "{\"id\":\"r2\",\"description\":\"off\",\"enabled\":false,"
    "\"expression\":\"true\"},"
    "{\"id\":\"r3\",\"description\":\"broken\",\"expression\":"
    "\"http.hostt eq \\\"a\\\"\"},"
    "{\"id\":\"r4\",\"description\":\"gb api\",\"expression\":"
    "\"ip.src.country eq \\\"GB\\\" and "
    "any(http.request.headers[\\\"x-api\\\"][*] eq \\\"1\\\")\"},"
    "{\"id\":\"r5\",\"description\":\"all\",\"expression\":\"true\"}]";

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

static void
test_first_match(void **state)
{
	struct ruletest_error	 err;
	struct ruletest_result	*res;
	struct expr_request	*rq;
	cJSON			*rules = cJSON_Parse(rules_json);
	size_t			 n;
	int			 first;

	(void)state;
	assert_non_null(rules);
	rq = request("post", "https://example.com/login", "192.0.2.1", NULL,
	    NULL, &err);
	assert_non_null(rq);
	res = ruletest_run(rules, rq, &n, &first);
	assert_int_equal(n, 5);
	assert_int_equal(first, 0);
	assert_int_equal(res[0].verdict, RULETEST_MATCH);
	assert_int_equal(res[1].verdict, RULETEST_DISABLED);
	assert_int_equal(res[2].verdict, RULETEST_INVALID);
	assert_non_null(strstr(res[2].why, "expression:1:1:"));
	assert_int_equal(res[3].verdict, RULETEST_NO_MATCH);
	assert_int_equal(res[4].verdict, RULETEST_MATCH);
	assert_int_equal(res[4].position, 5);
	assert_string_equal(ruletest_verdict_name(res[3].verdict), "no match");
	free(res);
	expr_request_free(rq);

	/* The country (lower case typed) and a header: rule 4 first. */
	rq = request("GET", "https://example.com/", NULL, "X-Api: 1", "gb",
	    &err);
	assert_non_null(rq);
	res = ruletest_run(rules, rq, &n, &first);
	assert_int_equal(first, 3);
	free(res);
	expr_request_free(rq);

	/* No rules: no match. */
	rq = request("GET", "https://example.com/", NULL, NULL, NULL, &err);
	res = ruletest_run(NULL, rq, &n, &first);
	assert_int_equal(n, 0);
	assert_int_equal(first, -1);
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
	static const char	 json[] = "[{\"id\":\"re\",\"expression\":"
	    "\"http.request.uri.path matches \\\"(a|aa)+[bc]\\\"\"},"
	    "{\"id\":\"all\",\"expression\":\"true\"}]";
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
		cmocka_unit_test(test_first_match),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_rules_with),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
