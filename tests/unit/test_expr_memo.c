/*
 * Unit tests for remembered evaluation (expr_eval_memo): over streams of
 * requests whose values repeat, differ by kind only (missing, empty), are
 * too long to remember or rarely repeat, it answers as expr_eval does,
 * for one expression and for a set of them (expr_eval_memo_set);
 * and addresses read as inet_pton reads them.
 */
#include "config.h"

#include <arpa/inet.h>

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
#include "expr_value.h"

static const struct expr_options	counting = { EXPR_PLAN_NONE, 1 };

/* Request i of a stream: a few paths, hosts and agents that repeat, an
 * address that mostly does not, some values missing or empty. */
static void
request(struct expr_request *rq, unsigned i)
{
	static const char *paths[] = { "/", "/login", "/api/v1/items",
	    "/static/app.JS", "/search?q=shoes", "/a?page=2&page=3", "" };
	static const char *hosts[] = { "www.example.com", "api.example.com",
	    NULL, "" };
	static const char *agents[] = { "curl/8.5.0", "python-requests/2",
	    "Mozilla/5.0", "" };
	char	 ip[32], uri[600];
	unsigned n = i * 2654435761U;

	expr_request_reset(rq);
	if (n % 11 == 0) {
		/* Longer than a key the memo keeps. */
		memset(uri, 'x', sizeof uri - 1);
		uri[0] = '/';
		uri[sizeof uri - 1] = '\0';
	} else
		snprintf(uri, sizeof uri, "%s", paths[n % 7]);
	assert_int_equal(expr_request_set_parts(rq, n % 5 == 0 ? "POST" :
	    "GET", n % 3 == 0 ? "http" : "https", hosts[(n >> 3) % 4],
	    *uri != '\0' ? uri : NULL), 0);
	if (n % 13 != 0) {
		snprintf(ip, sizeof ip, "10.%u.%u.%u", (n >> 8) % 4,
		    i % 7 == 0 ? i % 250 : 1, (n >> 16) % 3 + 1);
		assert_int_equal(expr_request_set_ip(rq, ip), 0);
	}
	if (n % 4 != 0)
		expr_request_add_header(rq, "User-Agent", agents[(n >> 5) % 4]);
	if (n % 6 != 0)
		expr_request_set_status(rq, n % 2 ? 200 : 401);
	if (n % 9 != 0)
		expr_request_set_asnum(rq, 64500 + (int64_t)((n >> 4) % 3));
	expr_request_set_timestamp(rq, 1700000000 + (int64_t)(i / 100));
}

static void
same_as_eval(const char *text, int count, unsigned nrequests)
{
	struct expr_options	 o = { EXPR_PLAN_NONE, count };
	struct expr_error	 err;
	struct expr		*e;
	struct expr_memo	*m;
	struct expr_request	*rq;
	unsigned		 i, trues = 0;
	int			 want;

	e = expr_parse(text, count ? &counting : &o, &err);
	if (e == NULL)
		fail_msg("%s: %s", text, err.message);
	m = expr_memo_new(e);
	rq = expr_request_new();
	for (i = 0; i < nrequests; i++) {
		request(rq, i);
		want = expr_eval(e, rq);
		/* Twice: the second answer comes from the table when kept. */
		if ((int)expr_eval_memo(m, rq) != want ||
		    (int)expr_eval_memo(m, rq) != want)
			fail_msg("%s: request %u: memo differs from eval (%d)",
			    text, i, want);
		trues += (unsigned)want;
	}
	expr_request_free(rq);
	expr_memo_free(m);
	expr_free(e);
	(void)trues;
}

static void
test_memo_matches_eval(void **state)
{
	static const char *exprs[] = {
		"true",
		"http.request.uri.path eq \"/login\"",
		"starts_with(http.request.uri.path, \"/api/\")",
		"http.request.uri.path.extension in {\"js\" \"css\"}",
		"lower(http.request.uri.path) contains \"xxx\"",
		"http.request.uri matches \"^/search\\\\?q=[a-z]+$\"",
		"http.request.full_uri wildcard \"https://*.example.com/*\"",
		"http.host eq \"\"",
		"not http.host eq \"api.example.com\"",
		"http.user_agent contains \"curl\" or http.user_agent eq \"\"",
		"http.request.method in {\"POST\" \"PUT\"} and not ssl",
		"ip.src in {10.0.0.0/16 10.2.0.0/16}",
		"ip.src eq 10.1.1.2",
		"ip.src.asnum in {64500..64501}",
		"http.request.timestamp.sec ge 1700000050",
		"any(http.request.uri.args[\"page\"][*] eq \"2\")",
		"http.request.headers[\"user-agent\"][0] eq \"curl/8.5.0\"",
		"len(http.request.uri.path) gt 100",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof exprs / sizeof exprs[0]; i++)
		same_as_eval(exprs[i], 0, 20000);
	same_as_eval("http.response.code in {401 403}", 1, 20000);
	same_as_eval("http.request.uri.path eq \"/login\" and "
	    "http.response.code ge 400", 1, 20000);
}

/* One memo for several expressions: each bit is that expression's
 * expr_eval, whether they read the same fields or not. */
static void
same_as_eval_set(const char *const *texts, size_t n, unsigned nrequests)
{
	struct expr_error	 err;
	struct expr		*e[8];
	struct expr_memo	*m;
	struct expr_request	*rq;
	uint64_t		 want, got;
	unsigned		 i;
	size_t			 j;

	assert_true(n <= 8);
	for (j = 0; j < n; j++)
		if ((e[j] = expr_parse(texts[j], NULL, &err)) == NULL)
			fail_msg("%s: %s", texts[j], err.message);
	m = expr_memo_new_set((const struct expr *const *)e, n);
	rq = expr_request_new();
	for (i = 0; i < nrequests; i++) {
		request(rq, i);
		for (want = 0, j = 0; j < n; j++)
			if (expr_eval(e[j], rq) == 1)
				want |= (uint64_t)1 << j;
		got = expr_eval_memo_set(m, rq);
		if (got != want || expr_eval_memo_set(m, rq) != want)
			fail_msg("%s...: request %u: memo %llx, eval %llx",
			    texts[0], i, (unsigned long long)got,
			    (unsigned long long)want);
	}
	expr_request_free(rq);
	expr_memo_free(m);
	for (j = 0; j < n; j++)
		expr_free(e[j]);
}

static void
test_memo_set(void **state)
{
	static const char *paths[] = {
		"http.request.uri.path eq \"/login\"",
		"starts_with(http.request.uri.path, \"/api/\")",
		"http.request.uri.path.extension in {\"js\" \"css\"}",
		"lower(http.request.uri.path) contains \"login\"",
		"http.request.uri.path ne \"/\"",
	};
	static const char *mixed[] = {
		"http.request.uri.path eq \"/login\"",
		"http.user_agent contains \"curl\"",
		"http.request.method in {\"POST\" \"PUT\"} and not ssl",
		"ip.src.asnum in {64500..64501}",
		"true",
	};
	static const char *never[] = {
		"any(http.request.uri.args[\"page\"][*] eq \"2\")",
		"http.request.uri.path eq \"/login\"",
	};
	const char	*a = paths[0], *b = mixed[1], *c = never[0];
	struct expr	*ea, *eb, *ec, *ea2;
	struct expr_error err;

	(void)state;
	same_as_eval_set(paths, 5, 20000);
	same_as_eval_set(mixed, 5, 20000);
	same_as_eval_set(never, 2, 5000);
	ea = expr_parse(a, NULL, &err);
	ea2 = expr_parse(paths[1], NULL, &err);
	eb = expr_parse(b, NULL, &err);
	ec = expr_parse(c, NULL, &err);
	assert_true(ea != NULL && ea2 != NULL && eb != NULL && ec != NULL);
	assert_true(expr_memo_same_fields(ea, ea2));
	assert_false(expr_memo_same_fields(ea, eb));
	/* An argument map is never remembered: not shared either. */
	assert_false(expr_memo_same_fields(ec, ec));
	expr_free(ea);
	expr_free(ea2);
	expr_free(eb);
	expr_free(ec);
}

/* A value and no value, or "" and none, are different keys. */
static void
test_memo_kinds(void **state)
{
	struct expr_error	 err;
	struct expr		*e;
	struct expr_memo	*m;
	struct expr_request	*rq;

	(void)state;
	e = expr_parse("http.host eq \"\"", NULL, &err);
	assert_non_null(e);
	m = expr_memo_new(e);
	rq = expr_request_new();
	assert_int_equal(expr_request_set(rq, "GET", "https://h/"), 0);
	expr_request_add_header(rq, "Host", "");
	assert_int_equal(expr_eval_memo(m, rq), 0);
	expr_request_reset(rq);
	assert_int_equal(expr_request_set_parts(rq, "GET", "https", NULL,
	    "/"), 0);
	assert_int_equal(expr_eval_memo(m, rq), expr_eval(e, rq));
	expr_request_reset(rq);
	assert_int_equal(expr_request_set_parts(rq, "GET", "https", "h",
	    "/"), 0);
	assert_int_equal(expr_eval_memo(m, rq), 0);
	expr_request_free(rq);
	expr_memo_free(m);
	expr_free(e);
	expr_memo_free(NULL);
}

/* Addresses read as inet_pton reads them (IPv4 has a path of its own):
 * every string of up to seven characters of "0125.:" and some more. */
static void
test_ip_as_inet_pton(void **state)
{
	static const char	 alpha[] = "0125.:";
	static const char	*more[] = { "255.255.255.255", "256.1.1.1",
	    "1.2.3.4.", ".1.2.3", "1..2.3", "01.2.3.4", "0.0.0.0",
	    "10.20.30.40", "1.2.3.04", "1.2.3.400", "1.2.3", "1.2.3.4 ",
	    "::1", "2001:db8::1", "::ffff:1.2.3.4", "1.2.3.4:80", "a.b.c.d",
	    "1234.1.1.1", "1.2.3.255", "99.999.9.9" };
	struct expr_ip	 ip;
	uint8_t		 want[16];
	char		 s[8];
	size_t		 len, i, k, total;
	int		 rv, ok;

	(void)state;
	for (len = 1, total = 6; len <= 7; len++, total *= 6) {
		for (i = 0; i < total; i++) {
			for (k = 0, rv = (int)i; k < len; k++, rv /= 6)
				s[k] = alpha[rv % 6];
			s[len] = '\0';
			ok = inet_pton(AF_INET, s, want) == 1 ? 4 :
			    inet_pton(AF_INET6, s, want) == 1 ? 6 : 0;
			rv = expr_ip_parse(s, strlen(s), &ip);
			assert_int_equal(rv, ok != 0 ? 0 : -1);
			if (ok != 0) {
				assert_int_equal(ip.family, ok);
				assert_memory_equal(ip.bytes, want,
				    ok == 4 ? 4 : 16);
			}
		}
	}
	for (i = 0; i < nitems(more); i++) {
		ok = inet_pton(AF_INET, more[i], want) == 1 ? 4 :
		    inet_pton(AF_INET6, more[i], want) == 1 ? 6 : 0;
		rv = expr_ip_parse(more[i], strlen(more[i]), &ip);
		if (rv != (ok != 0 ? 0 : -1))
			fail_msg("%s: %d, inet_pton %d", more[i], rv, ok);
		if (ok != 0)
			assert_memory_equal(ip.bytes, want, ok == 4 ? 4 : 16);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo_matches_eval),
		cmocka_unit_test(test_memo_set),
		cmocka_unit_test(test_memo_kinds),
		cmocka_unit_test(test_ip_as_inet_pton),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
