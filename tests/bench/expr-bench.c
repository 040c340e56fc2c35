/*
 * The Rules language's speed: 20 typical rate limiting rules evaluated
 * against generated requests, the way a log reader runs them (one request
 * object reused line after line), and parse + lint of a 4 KB expression.
 * Prints numbers; asserts nothing. Times are the thread's CPU time, so a
 * busy machine does not count against the code.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "common.h"
#include "expr.h"

#define BENCH_REQUESTS	20000
#define BENCH_ROUNDS	10
#define BENCH_PARSES	2000

static const char *const bench_rules[] = {
	"http.request.uri.path eq \"/login\" and http.request.method eq \"POST\"",
	"http.request.uri.path wildcard \"/api/*\" and http.host eq "
	    "\"api.example.com\"",
	"starts_with(http.request.uri.path, \"/admin\")",
	"http.request.method in {\"POST\" \"PUT\" \"PATCH\" \"DELETE\"} and "
	    "http.host in {\"shop.example.com\" \"api.example.com\"}",
	"ip.src in {192.0.2.0/24 198.51.100.0/24 203.0.113.0/25 "
	    "2001:db8::/32 10.0.0.0/8}",
	"not ip.src in {10.0.0.0/8 172.16.0.0/12 192.168.0.0/16} and "
	    "http.request.uri.path contains \"/checkout\"",
	"any(http.request.headers[\"x-api-key\"][*] ne \"\")",
	"any(lower(http.request.headers.names[*])[*] == \"x-forwarded-host\")",
	"http.request.uri.path matches \"^/api/v[0-9]+/(users|orders)/\\d+$\"",
	"http.user_agent matches \"(?i)(curl|wget|python-requests|go-http)\"",
	"lower(http.request.uri.path) contains \"/wp-login.php\"",
	"http.request.uri.path strict wildcard \"/static/*.js\"",
	"http.request.uri.path.extension in {\"php\" \"asp\" \"aspx\" \"jsp\"}",
	"ip.src.country in {\"CN\" \"RU\" \"KP\"} and not "
	    "cf.bot_management.verified_bot",
	"http.request.uri.query contains \"token=\" and not ssl",
	"any(http.request.uri.args[\"page\"][*] in {\"1\" \"2\" \"3\"})",
	"http.request.cookies[\"session\"][0] eq \"3f2a9c\" and "
	    "http.request.uri.path wildcard \"/account*\"",
	"len(http.request.uri.query) gt 512 or len(http.user_agent) lt 8",
	"ends_with(http.host, \".example.net\") and http.request.method eq "
	    "\"GET\"",
	"http.request.full_uri wildcard \"https://*.example.com/search?*\"",
};

static const char *const bench_hosts[] = {
	"api.example.com", "shop.example.com", "www.example.com",
	"cdn.example.net", "Partners.Example.com"
};
static const char *const bench_methods[] = {
	"GET", "GET", "GET", "POST", "PUT", "DELETE", "GET", "PATCH"
};
static const char *const bench_paths[] = {
	"/login", "/api/v1/users/1234", "/api/v2/orders/98", "/admin/panel",
	"/static/app.js", "/static/css/site.css", "/checkout/pay",
	"/wp-login.php", "/account/settings", "/search", "/index.php",
	"/products/shoes/running", "/", "/api/v1/carts"
};
static const char *const bench_agents[] = {
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0",
	"curl/8.5.0", "python-requests/2.31", "Go-http-client/2.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)", "okhttp"
};
static const unsigned bench_nets[] = { 192, 198, 203, 10, 81, 172 };
static const char *const bench_countries[] = {
	"US", "DE", "FR", "CN", "BR", "IN", "RU", "GB"
};

struct bench_req {
	char		 url[256];
	char		 ip[48];
	const char	*method, *agent, *country;
	int		 apikey, cookie, xfh;
};

static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static uint32_t
bench_mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	x ^= x >> 16;
	return (x);
}

static void
bench_generate(struct bench_req *r, uint32_t i)
{
	uint32_t	h = bench_mix(i + 1);

	snprintf(r->url, sizeof r->url, "%s://%s%s?page=%u&sort=%s%s",
	    h % 5 ? "https" : "http", bench_hosts[h % nitems(bench_hosts)],
	    bench_paths[(h >> 3) % nitems(bench_paths)], (h >> 7) % 6,
	    (h >> 11) % 2 ? "asc" : "desc", (h >> 13) % 9 ? "" :
	    "&token=abcdef");
	if ((h >> 17) % 4 == 0)
		snprintf(r->ip, sizeof r->ip, "2001:db8:%x::%x",
		    (h >> 5) & 0xffff, h & 0xff);
	else
		snprintf(r->ip, sizeof r->ip, "%u.%u.%u.%u",
		    bench_nets[(h >> 9) % nitems(bench_nets)],
		    (h >> 12) & 0xff, (h >> 20) & 0xff, h & 0xff);
	r->method = bench_methods[(h >> 21) % nitems(bench_methods)];
	r->agent = bench_agents[(h >> 24) % nitems(bench_agents)];
	r->country = bench_countries[(h >> 27) % nitems(bench_countries)];
	r->apikey = (h >> 4) % 3 == 0;
	r->cookie = (h >> 6) % 2 == 0;
	r->xfh = (h >> 8) % 7 == 0;
}

/* A log line into the one request object: what a log reader does. */
static void
bench_load(struct expr_request *rq, const struct bench_req *r)
{
	expr_request_reset(rq);
	if (expr_request_set(rq, r->method, r->url) == -1)
		abort();
	expr_request_set_ip(rq, r->ip);
	expr_request_set_country(rq, r->country);
	expr_request_add_header(rq, "User-Agent", r->agent);
	expr_request_add_header(rq, "Accept", "text/html,application/json");
	expr_request_add_header(rq, "Accept-Encoding", "gzip, br");
	if (r->apikey)
		expr_request_add_header(rq, "X-Api-Key", "k-0123456789");
	if (r->xfh)
		expr_request_add_header(rq, "X-Forwarded-Host", "evil.example");
	if (r->cookie)
		expr_request_add_header(rq, "Cookie",
		    "session=3f2a9c; theme=dark; consent=1");
}

static void
bench_eval(void)
{
	struct expr		*e[nitems(bench_rules)];
	struct expr_error	 err;
	struct expr_options	 opts = { EXPR_PLAN_ENTERPRISE, 0 };
	struct expr_request	*rq = expr_request_new();
	struct bench_req	*reqs;
	size_t			 i, k, round, hits[nitems(bench_rules)];
	size_t			 evals = 0, matched = 0;
	double			 t0, t_load, t_all;

	for (k = 0; k < nitems(bench_rules); k++) {
		if ((e[k] = expr_parse(bench_rules[k], &opts, &err)) == NULL) {
			fprintf(stderr, "expr-bench: rule %zu: column %d: %s\n",
			    k + 1, err.column, err.message);
			exit(1);
		}
		hits[k] = 0;
	}
	reqs = calloc(BENCH_REQUESTS, sizeof *reqs);
	if (reqs == NULL)
		abort();
	for (i = 0; i < BENCH_REQUESTS; i++)
		bench_generate(&reqs[i], (uint32_t)i);

	/* Loading lines alone, then loading and evaluating every rule. */
	t0 = bench_now();
	for (round = 0; round < BENCH_ROUNDS; round++)
		for (i = 0; i < BENCH_REQUESTS; i++) {
			bench_load(rq, &reqs[i]);
			/* Fields are laid out on first use: count that. */
			(void)expr_eval(e[0], rq);
		}
	t_load = bench_now() - t0;
	t0 = bench_now();
	for (round = 0; round < BENCH_ROUNDS; round++)
		for (i = 0; i < BENCH_REQUESTS; i++) {
			bench_load(rq, &reqs[i]);
			for (k = 0; k < nitems(bench_rules); k++) {
				if (expr_eval(e[k], rq) == EXPR_TRUE) {
					hits[k]++;
					matched++;
				}
				evals++;
			}
		}
	t_all = bench_now() - t0;

	printf("expr-bench: %d requests x %d rounds, %zu rules\n",
	    BENCH_REQUESTS, BENCH_ROUNDS, nitems(bench_rules));
	printf("  request load (reset, set, 3-6 headers, ip, first field "
	    "layout): %.0f requests/s\n",
	    BENCH_REQUESTS * BENCH_ROUNDS / t_load);
	printf("  load + 20 rules: %.0f requests/s, %.0f evaluations/s "
	    "overall\n", BENCH_REQUESTS * BENCH_ROUNDS / t_all, evals / t_all);
	printf("  rules alone (load subtracted): %.0f evaluations/s "
	    "(%.0f ns each), %.1f%% true\n", evals / (t_all - t_load),
	    (t_all - t_load) * 1e9 / evals, 100.0 * matched / evals);
	for (k = 0; k < nitems(bench_rules); k++)
		printf("    rule %2zu: %5.1f%% of requests\n", k + 1,
		    100.0 * hits[k] / (BENCH_REQUESTS * BENCH_ROUNDS));
	for (k = 0; k < nitems(bench_rules); k++)
		expr_free(e[k]);
	expr_request_free(rq);
	free(reqs);
}

static int
bench_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* Rules joined with `or` up to just under the 4 096-character limit. */
static char *
bench_big(void)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		k = 0, len;

	for (;;) {
		len = strlen(bench_rules[k % nitems(bench_rules)]);
		if (b.len + len + 6 > EXPR_MAX_LENGTH - 16)
			break;
		if (b.len > 0)
			buf_adds(&b, " or ");
		buf_addc(&b, '(');
		buf_adds(&b, bench_rules[k % nitems(bench_rules)]);
		buf_addc(&b, ')');
		k++;
	}
	return (buf_detach(&b, NULL));
}

static void
bench_parse(void)
{
	struct expr_options	 opts = { EXPR_PLAN_ENTERPRISE, 0 };
	struct expr_error	 err;
	struct expr		*e;
	double			*t, t0, sum = 0;
	char			*text = bench_big();
	size_t			 i;

	t = calloc(BENCH_PARSES, sizeof *t);
	if (t == NULL)
		abort();
	for (i = 0; i < BENCH_PARSES; i++) {
		t0 = bench_now();
		if ((e = expr_parse(text, &opts, &err)) == NULL) {
			fprintf(stderr, "expr-bench: big expression: column "
			    "%d: %s\n", err.column, err.message);
			exit(1);
		}
		expr_free(e);
		t[i] = (bench_now() - t0) * 1e6;
		sum += t[i];
	}
	qsort(t, BENCH_PARSES, sizeof *t, bench_cmp);
	printf("  parse + lint (enterprise plan) of a %zu-character expression, "
	    "%d runs: p50 %.1f us, p99 %.1f us, mean %.1f us\n", strlen(text),
	    BENCH_PARSES, t[BENCH_PARSES / 2], t[BENCH_PARSES * 99 / 100],
	    sum / BENCH_PARSES);
	free(t);
	free(text);
}

int
main(void)
{
	bench_eval();
	bench_parse();
	return (0);
}
