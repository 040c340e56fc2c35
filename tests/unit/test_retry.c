/*
 * Unit tests for retry.c and budget.c: every decision row, backoff with a
 * fixed jitter, Retry-After in its forms, HTTP dates, the Ratelimit header
 * and the token bucket on a fake clock (and from two threads).
 */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "budget.h"
#include "common.h"
#include "retry.h"

#define NOW	((time_t)1700000000)	/* 2023-11-14T22:13:20Z */

static double
jitter_half(void *arg)
{
	(void)arg;
	return (0.5);
}

static double
jitter_value(void *arg)
{
	return (*(double *)arg);
}

static struct retry_input
input(const char *method, long status, enum retry_net net, int reached,
    int attempt)
{
	struct retry_input	in;

	memset(&in, 0, sizeof in);
	in.method = method;
	in.http_status = status;
	in.net = net;
	in.reached = reached;
	in.attempt = attempt;
	in.max_retries = -1;
	in.now = NOW;
	return (in);
}

/* ---- decision rows ------------------------------------------------------ */

#define N_	RETRY_NO
#define A_	RETRY_AFTER
#define R_	RETRY_REPORT

static void
test_decision_rows(void **state)
{
	static const struct {
		const char	*method;
		long		 status;
		enum retry_net	 net;
		int		 reached;
		enum retry_action want;
	} rows[] = {
		/* Statuses that are worth another try, by method. */
		{ "GET", 408, RETRY_NET_NONE, 1, A_ },
		{ "GET", 429, RETRY_NET_NONE, 1, A_ },
		{ "GET", 500, RETRY_NET_NONE, 1, A_ },
		{ "GET", 502, RETRY_NET_NONE, 1, A_ },
		{ "GET", 503, RETRY_NET_NONE, 1, A_ },
		{ "GET", 504, RETRY_NET_NONE, 1, A_ },
		{ "HEAD", 503, RETRY_NET_NONE, 1, A_ },
		{ "PUT", 500, RETRY_NET_NONE, 1, A_ },
		{ "PATCH", 502, RETRY_NET_NONE, 1, A_ },
		{ "DELETE", 503, RETRY_NET_NONE, 1, A_ },
		{ "DELETE", 429, RETRY_NET_NONE, 1, A_ },
		/* Final statuses, whatever the method. */
		{ "GET", 409, RETRY_NET_NONE, 1, N_ },
		{ "PUT", 409, RETRY_NET_NONE, 1, N_ },
		{ "DELETE", 409, RETRY_NET_NONE, 1, N_ },
		{ "GET", 400, RETRY_NET_NONE, 1, N_ },
		{ "GET", 401, RETRY_NET_NONE, 1, N_ },
		{ "GET", 403, RETRY_NET_NONE, 1, N_ },
		{ "GET", 404, RETRY_NET_NONE, 1, N_ },
		{ "GET", 410, RETRY_NET_NONE, 1, N_ },
		{ "GET", 413, RETRY_NET_NONE, 1, N_ },
		{ "GET", 422, RETRY_NET_NONE, 1, N_ },
		{ "PUT", 400, RETRY_NET_NONE, 1, N_ },
		{ "DELETE", 404, RETRY_NET_NONE, 1, N_ },
		{ "POST", 400, RETRY_NET_NONE, 1, N_ },
		{ "GET", 200, RETRY_NET_NONE, 1, N_ },
		{ "GET", 304, RETRY_NET_NONE, 1, N_ },
		/* A create that reached the server is never sent twice... */
		{ "POST", 500, RETRY_NET_NONE, 1, N_ },
		{ "POST", 502, RETRY_NET_NONE, 1, N_ },
		{ "POST", 503, RETRY_NET_NONE, 0, N_ },
		{ "POST", 408, RETRY_NET_NONE, 1, N_ },
		{ "POST", 409, RETRY_NET_NONE, 1, N_ },
		{ "post", 504, RETRY_NET_NONE, 1, N_ },
		/* ...but 429 says it was not carried out. */
		{ "POST", 429, RETRY_NET_NONE, 1, A_ },
		/* No response: what failed and whether bytes went out. */
		{ "GET", 0, RETRY_NET_RESOLVE, 0, A_ },
		{ "GET", 0, RETRY_NET_CONNECT, 0, A_ },
		{ "GET", 0, RETRY_NET_TLS, 0, A_ },
		{ "GET", 0, RETRY_NET_SEND, 1, A_ },
		{ "GET", 0, RETRY_NET_RECV, 1, A_ },
		{ "GET", 0, RETRY_NET_TIMEOUT, 1, A_ },
		{ "PUT", 0, RETRY_NET_RECV, 1, A_ },
		{ "DELETE", 0, RETRY_NET_TIMEOUT, 1, A_ },
		{ "POST", 0, RETRY_NET_RESOLVE, 0, A_ },
		{ "POST", 0, RETRY_NET_CONNECT, 0, A_ },
		{ "POST", 0, RETRY_NET_TLS, 0, A_ },
		{ "POST", 0, RETRY_NET_CONNECT, 1, N_ },
		{ "POST", 0, RETRY_NET_SEND, 0, N_ },
		{ "POST", 0, RETRY_NET_SEND, 1, N_ },
		{ "POST", 0, RETRY_NET_RECV, 0, N_ },
		{ "POST", 0, RETRY_NET_RECV, 1, N_ },
		{ "POST", 0, RETRY_NET_TIMEOUT, 0, N_ },
		{ "POST", 0, RETRY_NET_TIMEOUT, 1, N_ },
		/* Never: the user's cancel, a failure that stays. */
		{ "GET", 0, RETRY_NET_CANCELLED, 0, N_ },
		{ "GET", 0, RETRY_NET_OTHER, 0, N_ },
		{ "POST", 0, RETRY_NET_CANCELLED, 0, N_ },
		{ "GET", 0, RETRY_NET_NONE, 0, N_ },
	};
	struct retry_input	in;
	struct retry_decision	d;
	size_t			i;

	(void)state;
	for (i = 0; i < nitems(rows); i++) {
		in = input(rows[i].method, rows[i].status, rows[i].net,
		    rows[i].reached, 0);
		retry_decide(&in, &d);
		if (d.action != rows[i].want) {
			fail_msg("row %zu (%s %ld net %d reached %d): action "
			    "%d, want %d (%s)", i, rows[i].method,
			    rows[i].status, rows[i].net, rows[i].reached,
			    d.action, rows[i].want, d.why);
		}
		assert_non_null(d.why);
		if (d.action == RETRY_AFTER)
			assert_true(d.delay_ms > 0);
		else if (d.action == RETRY_NO)
			assert_int_equal(d.until, 0);
	}
}

static void
test_attempts_run_out(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;

	(void)state;
	in = input("GET", 503, RETRY_NET_NONE, 1, 0);
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	in.attempt = 1;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	/* The default is 2 retries: 3 attempts in all. */
	in.attempt = 2;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_NO);
	assert_string_equal(d.why, "retries used up");

	in.attempt = 0;
	in.max_retries = 0;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_NO);
	in.max_retries = 5;
	in.attempt = 4;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	in.attempt = 5;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_NO);
}

static void
test_should_retry_header(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;

	(void)state;
	in = input("GET", 503, RETRY_NET_NONE, 1, 0);
	in.should_retry = "false";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_NO);
	assert_string_equal(d.why, "the server said not to retry");
	/* true makes a final status retryable... */
	in = input("GET", 400, RETRY_NET_NONE, 1, 0);
	in.should_retry = "true";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	/* ...but a create that reached the server stays sent once. */
	in = input("POST", 500, RETRY_NET_NONE, 1, 0);
	in.should_retry = "TRUE";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_NO);
}

/* ---- delays ------------------------------------------------------------- */

static void
test_backoff_values(void **state)
{
	(void)state;
	assert_int_equal(retry_backoff_ms(0, 0), 500);
	assert_int_equal(retry_backoff_ms(1, 0), 1000);
	assert_int_equal(retry_backoff_ms(2, 0), 2000);
	assert_int_equal(retry_backoff_ms(3, 0), 4000);
	assert_int_equal(retry_backoff_ms(4, 0), 8000);
	assert_int_equal(retry_backoff_ms(5, 0), 8000);
	assert_int_equal(retry_backoff_ms(1000, 0), 8000);
	/* Jitter takes up to a quarter off. */
	assert_int_equal(retry_backoff_ms(0, 0.5), 437);
	assert_int_equal(retry_backoff_ms(3, 0.5), 3500);
	assert_int_equal(retry_backoff_ms(4, 0.999), 6002);
	/* Out-of-range jitter counts as none. */
	assert_int_equal(retry_backoff_ms(2, 1.0), 2000);
	assert_int_equal(retry_backoff_ms(2, -3), 2000);
}

static void
test_decision_delays_with_jitter(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;
	double			u = 0.2;

	(void)state;
	in = input("GET", 502, RETRY_NET_NONE, 1, 0);
	in.jitter = jitter_half;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	assert_int_equal(d.delay_ms, 437);
	in.attempt = 1;
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 875);
	in.jitter = jitter_value;
	in.jitter_arg = &u;
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 950);
	/* Without a jitter source, the plain backoff. */
	in.jitter = NULL;
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 1000);
	assert_string_equal(d.why, "backoff");
}

static void
test_retry_after_seconds_and_ms(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;

	(void)state;
	in = input("GET", 429, RETRY_NET_NONE, 1, 0);
	in.jitter = jitter_half;
	in.retry_after = "2";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	assert_int_equal(d.delay_ms, 2000);	/* exact: no jitter */
	assert_string_equal(d.why, "the server asked to wait");
	in.retry_after = "0.1";
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 100);
	in.retry_after = " 60 ";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	assert_int_equal(d.delay_ms, 60000);
	/* retry-after-ms wins over Retry-After. */
	in.retry_after = "5";
	in.retry_after_ms = "150.7";
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 150);
	/* Garbage in either is ignored. */
	in.retry_after_ms = "soon";
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 5000);
	in.retry_after = "-3";
	in.retry_after_ms = NULL;
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 1750);	/* the 429 backoff */
	in.retry_after = "1e3";
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 1750);
	in.retry_after = "inf";
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 1750);
	/* A 503 that says when works the same way. */
	in = input("GET", 503, RETRY_NET_NONE, 1, 0);
	in.retry_after = "3";
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 3000);
}

static void
test_retry_after_date(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;

	(void)state;
	in = input("GET", 503, RETRY_NET_NONE, 1, 0);
	/* NOW + 30 s. */
	in.retry_after = "Tue, 14 Nov 2023 22:13:50 GMT";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	assert_int_equal(d.delay_ms, 30000);
	/* In the past: ignored, plain backoff. */
	in.retry_after = "Tue, 14 Nov 2023 22:13:00 GMT";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	assert_int_equal(d.delay_ms, 500);
	/* NOW + 10 minutes: reported with its time, not slept. */
	in.retry_after = "Tue, 14 Nov 2023 22:23:20 GMT";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + 600);
	assert_int_equal(d.delay_ms, 600000);
}

static void
test_long_waits_reported(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;
	char			text[RETRY_UNTIL_LEN];

	(void)state;
	in = input("GET", 429, RETRY_NET_NONE, 1, 0);
	in.retry_after = "300";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + 300);
	assert_string_equal(retry_until_text(d.until, text), "22:18:20");
	/* Even with attempts left, and from retry-after-ms too. */
	in.retry_after = NULL;
	in.retry_after_ms = "60001";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + 61);
	/* Absurd waits are capped at a day. */
	in.retry_after_ms = NULL;
	in.retry_after = "99999999999999999999999";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + 86400);
	/* A POST rate-limited for long is reported too. */
	in = input("POST", 429, RETRY_NET_NONE, 1, 0);
	in.retry_after = "120";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + 120);
}

static void
test_429_without_retry_after(void **state)
{
	struct retry_input	in;
	struct retry_decision	d;

	(void)state;
	in = input("GET", 429, RETRY_NET_NONE, 1, 0);
	in.jitter = jitter_half;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_AFTER);
	assert_int_equal(d.delay_ms, 1750);	/* 2 s less 12.5 % */
	in.attempt = 1;
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 3500);
	in.max_retries = 10;
	in.attempt = 9;
	retry_decide(&in, &d);
	assert_int_equal(d.delay_ms, 26250);	/* capped at 30 s */
	/* Out of attempts: assume the documented 5-minute block. */
	in.max_retries = -1;
	in.attempt = 2;
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + RETRY_BLOCK_SECONDS);
	/* ...or the short wait it named. */
	in.retry_after = "7";
	retry_decide(&in, &d);
	assert_int_equal(d.action, RETRY_REPORT);
	assert_int_equal(d.until, NOW + 7);
}

static void
test_http_dates(void **state)
{
	static const char *good[] = {
		"Sun, 06 Nov 1994 08:49:37 GMT",
		"Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994",
		"Sun, 6 Nov 1994 08:49:37 GMT",
	};
	static const char *bad[] = {
		"", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nox 1994 08:49:37 GMT",
		"Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
		"Sun, 06 Nov 1994 08:49:37 GMT x", "06 Nov 1994 08:49:37 GMT",
		"Sun, 06-Nov-1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94",
		"Sun, 06 Nov 1994 8:49:37 GMT", "tomorrow",
	};
	time_t	t;
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(good); i++) {
		t = 0;
		if (retry_parse_http_date(good[i], &t) != 0)
			fail_msg("refused %s", good[i]);
		assert_int_equal(t, 784111777);
	}
	for (i = 0; i < nitems(bad); i++) {
		if (retry_parse_http_date(bad[i], &t) == 0)
			fail_msg("accepted %s", bad[i]);
	}
	assert_int_equal(retry_parse_http_date("Thu, 01-Jan-70 00:00:01 GMT",
	    &t), 0);
	assert_int_equal(t, 1);
}

static void
test_until_text(void **state)
{
	char	text[RETRY_UNTIL_LEN];

	(void)state;
	/* The tests run in UTC (main sets TZ). */
	assert_string_equal(retry_until_text(1700000000 + 6710, text),
	    "00:05:10");
	assert_string_equal(retry_until_text(0, text), "00:00:00");
	setenv("TZ", "EST5", 1);
	tzset();
	assert_string_equal(retry_until_text(1700000000, text), "17:13:20");
	setenv("TZ", "UTC", 1);
	tzset();
}

static void
test_ratelimit_header(void **state)
{
	long	r, t;

	(void)state;
	assert_int_equal(retry_parse_ratelimit("\"default\";r=50;t=30", &r,
	    &t), 0);
	assert_int_equal(r, 50);
	assert_int_equal(t, 30);
	/* The most constrained item wins. */
	assert_int_equal(retry_parse_ratelimit("\"burst\";r=90;t=1, "
	    "\"default\";r=3;t=200, \"day\";r=3;t=100", &r, &t), 0);
	assert_int_equal(r, 3);
	assert_int_equal(t, 200);
	/* Order of parameters, spaces, a token name, unknown parameters. */
	assert_int_equal(retry_parse_ratelimit("default; t=12 ;q=100; r=0",
	    &r, &t), 0);
	assert_int_equal(r, 0);
	assert_int_equal(t, 12);
	/* Without t, the reset is unknown. */
	assert_int_equal(retry_parse_ratelimit("\"a;b,c\";r=7", &r, &t), 0);
	assert_int_equal(r, 7);
	assert_int_equal(t, -1);
	assert_int_equal(retry_parse_ratelimit("", &r, &t), -1);
	assert_int_equal(retry_parse_ratelimit("\"default\";t=30", &r, &t), -1);
	assert_int_equal(r, -1);
	assert_int_equal(retry_parse_ratelimit("\"x\";r=abc;t=1", &r, &t), -1);
	assert_int_equal(retry_parse_ratelimit(",,;;=,\"", &r, &t), -1);
	assert_int_equal(retry_parse_ratelimit(NULL, &r, &t), -1);
}

/* ---- budget ------------------------------------------------------------- */

static void
test_budget_refill_and_wait(void **state)
{
	struct budget	*b;
	long		 wait;
	int		 i;

	(void)state;
	b = budget_new(10, 10);			/* 1 token a second */
	assert_int_equal(budget_remaining(b, 0), 10);
	for (i = 0; i < 10; i++) {
		assert_int_equal(budget_take(b, 0, &wait), 0);
		assert_int_equal(wait, 0);
	}
	assert_int_equal(budget_remaining(b, 0), 0);
	assert_int_equal(budget_take(b, 0, &wait), 1);
	assert_int_equal(wait, 1000);
	assert_int_equal(budget_take(b, 0.25, &wait), 1);
	assert_int_equal(wait, 750);
	assert_int_equal(budget_take(b, 1.0, &wait), 0);
	assert_int_equal(budget_remaining(b, 5.0), 4);
	/* Never more than the capacity. */
	assert_int_equal(budget_remaining(b, 1000), 10);
	/* A clock that goes back adds nothing. */
	assert_int_equal(budget_take(b, 1000, &wait), 0);
	assert_int_equal(budget_remaining(b, 500), 9);
	assert_int_equal(budget_remaining(b, 1000), 9);
	assert_int_equal(budget_remaining(b, 1001), 10);
	budget_free(b);
}

static void
test_budget_defaults(void **state)
{
	struct budget	*b;
	long		 wait;
	int		 i;

	(void)state;
	b = budget_new(0, -1);
	assert_int_equal(budget_remaining(b, 100), BUDGET_DEFAULT_CAPACITY);
	for (i = 0; i < BUDGET_DEFAULT_CAPACITY; i++)
		assert_int_equal(budget_take(b, 100, &wait), 0);
	/* 1200 per 300 s: a token every 250 ms. */
	assert_int_equal(budget_take(b, 100, &wait), 1);
	assert_int_equal(wait, 250);
	assert_int_equal(budget_remaining(b, 100 + 75), 300);
	budget_free(b);
}

static void
test_budget_penalize(void **state)
{
	struct budget	*b;
	long		 wait;

	(void)state;
	b = budget_new(0, 0);
	assert_int_equal(budget_take(b, 0, &wait), 0);
	budget_penalize(b, 10, 310);
	assert_int_equal(budget_remaining(b, 10), 0);
	assert_int_equal(budget_take(b, 10, &wait), 1);
	assert_int_equal(wait, 300000);
	assert_int_equal(budget_take(b, 309.5, &wait), 1);
	assert_int_equal(wait, 500);
	assert_int_equal(budget_remaining(b, 200), 0);
	/* A shorter penalty does not shorten a longer one. */
	budget_penalize(b, 20, 30);
	assert_int_equal(budget_take(b, 40, &wait), 1);
	assert_int_equal(wait, 270000);
	/* At the end one token is back, then the refill resumes. */
	assert_int_equal(budget_take(b, 310, &wait), 0);
	assert_int_equal(budget_take(b, 310, &wait), 1);
	assert_int_equal(wait, 250);
	assert_int_equal(budget_remaining(b, 320), 40);
	/* A penalty already over only empties the bucket. */
	budget_penalize(b, 400, 390);
	assert_int_equal(budget_remaining(b, 400), 0);
	assert_int_equal(budget_remaining(b, 401), 4);
	budget_free(b);
}

#define TAKER_CAPACITY	200000

struct taker {
	struct budget		*b;
	pthread_barrier_t	*start;
	int			 taken;
};

static void *
taker_run(void *arg)
{
	struct taker	*t = arg;
	long		 wait;
	int		 i;

	/* Both threads start together so their takes interleave. */
	pthread_barrier_wait(t->start);
	for (i = 0; i < TAKER_CAPACITY; i++) {
		if (budget_take(t->b, 42.0, &wait) == 0)
			t->taken++;
		(void)budget_remaining(t->b, 42.0);
	}
	return (NULL);
}

static void
test_budget_threads(void **state)
{
	struct taker		t[2];
	pthread_t		th[2];
	pthread_barrier_t	start;
	int			i;

	(void)state;
	pthread_barrier_init(&start, NULL, 2);
	t[0].b = t[1].b = budget_new(TAKER_CAPACITY, 300);
	t[0].start = t[1].start = &start;
	t[0].taken = t[1].taken = 0;
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, taker_run, &t[i]),
		    0);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	/* The clock stands still: exactly the capacity, never more. */
	assert_int_equal(t[0].taken + t[1].taken, TAKER_CAPACITY);
	assert_int_equal(budget_remaining(t[0].b, 42.0), 0);
	budget_free(t[0].b);
	pthread_barrier_destroy(&start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decision_rows),
		cmocka_unit_test(test_attempts_run_out),
		cmocka_unit_test(test_should_retry_header),
		cmocka_unit_test(test_backoff_values),
		cmocka_unit_test(test_decision_delays_with_jitter),
		cmocka_unit_test(test_retry_after_seconds_and_ms),
		cmocka_unit_test(test_retry_after_date),
		cmocka_unit_test(test_long_waits_reported),
		cmocka_unit_test(test_429_without_retry_after),
		cmocka_unit_test(test_http_dates),
		cmocka_unit_test(test_until_text),
		cmocka_unit_test(test_ratelimit_header),
		cmocka_unit_test(test_budget_refill_and_wait),
		cmocka_unit_test(test_budget_defaults),
		cmocka_unit_test(test_budget_penalize),
		cmocka_unit_test(test_budget_threads),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
