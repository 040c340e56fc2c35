/*
 * Unit tests for what the Rules language takes but cannot know or most
 * likely gets wrong: named lists (expr_unknown.c: their comparisons are
 * unknown, not false, and so is what they decide) and the warnings of
 * expr_warn.c (a method in lower case, a header name with capitals).
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

#include "common.h"
#include "expr.h"

static const struct expr_options counting = { EXPR_PLAN_NONE, 1 };

static struct expr *
parse(const char *text)
{
	struct expr_error	 err;
	struct expr		*e;

	if ((e = expr_parse(text, &counting, &err)) == NULL)
		fail_msg("'%s' refused: %s", text, err.message);
	return (e);
}

static struct expr_request *
request(const char *url, const char *ip)
{
	struct expr_request	*rq = expr_request_new();

	assert_int_equal(expr_request_set(rq, "GET", url), 0);
	if (ip != NULL)
		assert_int_equal(expr_request_set_ip(rq, ip), 0);
	return (rq);
}

static enum expr_value
value(const char *text, struct expr_request *rq)
{
	struct expr	*e = parse(text);
	enum expr_value	 v = expr_eval_lists(e, rq);

	expr_free(e);
	return (v);
}

/* The lists an expression names, each once, in order. */
static void
test_lists_named(void **state)
{
	struct expr	*e;
	const char	*names[2];

	(void)state;
	e = parse("ip.src in $office_ips or (http.host in $hosts and not "
	    "ip.src in $office_ips) or ip.src in $more");
	assert_int_equal(expr_lists(e, names, nitems(names)), 3);
	assert_string_equal(names[0], "office_ips");
	assert_string_equal(names[1], "hosts");
	expr_free(e);
	e = parse("ssl");
	assert_int_equal(expr_lists(e, names, nitems(names)), 0);
	assert_false(expr_reads_response(e));
	expr_free(e);
	e = parse("any(http.response.headers[\"x\"][*] eq \"1\")");
	assert_true(expr_reads_response(e));
	expr_free(e);
}

/* A value that depends on a list is unknown; one that does not is not. */
static void
test_lists_unknown(void **state)
{
	struct expr_request	*rq;

	(void)state;
	rq = request("https://example.com/a", "192.0.2.1");
	assert_int_equal(value("ip.src in $office_ips", rq), EXPR_UNKNOWN);
	assert_int_equal(value("not ip.src in $office_ips", rq), EXPR_UNKNOWN);
	/* Decided without the list either way. */
	assert_int_equal(value("ip.src in $office_ips and not ssl", rq),
	    EXPR_FALSE);
	assert_int_equal(value("ip.src in $office_ips or ssl", rq), EXPR_TRUE);
	/* The same list both ways: true whatever it holds. */
	assert_int_equal(value("ip.src in $ips or not ip.src in $ips", rq),
	    EXPR_TRUE);
	/* Two lists: one in, the other out, is a way too. */
	assert_int_equal(value("ip.src in $a and not ip.src in $b", rq),
	    EXPR_UNKNOWN);
	assert_int_equal(value("http.host eq \"example.com\"", rq), EXPR_TRUE);
	/* The lists are not assumed after: plain eval takes none. */
	assert_int_equal(value("ip.src in $office_ips", rq), EXPR_UNKNOWN);
	expr_request_free(rq);
}

struct steps {
	enum expr_value	 v[8];
	char		 text[8][64];
	size_t		 n;
};

static void
step(const struct expr_step *s, void *arg)
{
	struct steps	*ss = arg;

	if (ss->n < nitems(ss->v)) {
		ss->v[ss->n] = s->value;
		snprintf(ss->text[ss->n], sizeof ss->text[0], "%s", s->text);
	}
	ss->n++;
}

static void
test_lists_explain(void **state)
{
	struct expr_request	*rq;
	struct expr		*e;
	struct steps		 ss;

	(void)state;
	rq = request("https://example.com/a", "192.0.2.1");
	e = parse("ip.src in $office_ips and http.host eq \"example.com\"");
	memset(&ss, 0, sizeof ss);
	assert_int_equal(expr_explain_lists(e, rq, step, &ss), EXPR_UNKNOWN);
	assert_int_equal(ss.n, 3);
	assert_int_equal(ss.v[0], EXPR_UNKNOWN);
	assert_string_equal(ss.text[1], "ip.src in $office_ips");
	assert_int_equal(ss.v[1], EXPR_UNKNOWN);
	assert_int_equal(ss.v[2], EXPR_TRUE);
	expr_free(e);
	/* No list: explain as it was. */
	e = parse("http.host eq \"example.com\"");
	memset(&ss, 0, sizeof ss);
	assert_int_equal(expr_explain_lists(e, rq, step, &ss), EXPR_TRUE);
	assert_int_equal(ss.n, 1);
	expr_free(e);
	expr_request_free(rq);
}

static size_t
warnings(const char *text, struct expr_warning *w, size_t max)
{
	struct expr	*e = parse(text);
	size_t		 n = expr_warnings(e, w, max);

	expr_free(e);
	return (n);
}

/* Methods are upper case; header names are lower case as map keys. */
static void
test_warnings(void **state)
{
	struct expr_warning	w[4];

	(void)state;
	assert_int_equal(warnings("http.request.method eq \"get\"", w, 4), 1);
	assert_int_equal(w[0].column, 24);
	assert_int_equal(w[0].length, 5);
	assert_string_equal(w[0].message, "methods are upper case: this never "
	    "matches http.request.method; write \"GET\"");
	assert_int_equal(warnings("http.request.method in {\"GET\" \"post\"} "
	    "and any(http.request.headers[\"X-Key\"][*] ne \"\")", w, 4), 2);
	assert_non_null(strstr(w[0].message, "write \"POST\""));
	assert_int_equal(w[1].column, 67);
	assert_string_equal(w[1].message, "header names are lower case in "
	    "http.request.headers: this key never matches; write [\"x-key\"]");
	assert_int_equal(warnings("len(http.response.headers[\"Retry-After\"])"
	    " > 0", w, 4), 1);
	assert_non_null(strstr(w[0].message, "http.response.headers"));
	/* Nothing to say: the right case, a case-blind operator, a call. */
	assert_int_equal(warnings("http.request.method eq \"GET\" and "
	    "http.request.method wildcard \"get\" and "
	    "lower(http.request.method) eq \"get\" and "
	    "any(http.request.headers[\"x-key\"][*] ne \"\") and "
	    "http.request.cookies[\"Session\"][0] ne \"\"", w, 4), 0);
	/* More than room: counted all the same. */
	assert_int_equal(warnings("http.request.method in {\"a\" \"b\" \"c\" "
	    "\"d\" \"e\"}", w, 4), 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_named),
		cmocka_unit_test(test_lists_unknown),
		cmocka_unit_test(test_lists_explain),
		cmocka_unit_test(test_warnings),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
