/*
 * Unit tests for simulate.c: the sliding window at its edges, mitigation
 * timeouts that end and start again, what each characteristic keys on,
 * the top clients, and the rules it reads, refuses or leaves out. The
 * expected numbers are worked out by hand next to each case. A log of
 * many batches gives the same report on two threads as on one.
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

#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <poll.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "accesslog.h"
#include "simulate.h"
#include "testdir.h"

#define T0	1700000000LL
#define NS	1000000000LL

static struct simulate *
sim_from(const char *json, char ***notes)
{
	struct simulate	*sim;
	cJSON		*rules = cJSON_Parse(json);
	char		*cause = NULL;

	assert_non_null(rules);
	sim = simulate_new(rules, notes, &cause);
	if (sim == NULL)
		fail_msg("%s", cause);
	cJSON_Delete(rules);
	return (sim);
}

/* A rule on every request ("true") with these numbers. */
static struct simulate *
sim_rule(const char *chars, int period, int limit, int timeout)
{
	char	json[512];

	snprintf(json, sizeof json, "[{\"id\":\"r\",\"expression\":\"true\","
	    "\"ratelimit\":{\"characteristics\":%s,\"period\":%d,"
	    "\"requests_per_period\":%d,\"mitigation_timeout\":%d}}]", chars,
	    period, limit, timeout);
	return (sim_from(json, NULL));
}

static void
rec_init(struct accesslog_record *r, const char *ip, int64_t ns)
{
	memset(r, 0, sizeof *r);
	r->ip = ip;
	r->colo = "SJC";
	r->method = "GET";
	r->scheme = "https";
	r->host = "www.example.com";
	r->uri = "/";
	r->asnum = -1;
	r->time_ns = T0 * NS + ns;
}

static void
feed(struct simulate *sim, const char *ip, int64_t ns)
{
	struct accesslog_record	r;

	rec_init(&r, ip, ns);
	assert_int_equal(simulate_request(sim, &r), 0);
}

static void
test_window_edges(void **state)
{
	struct simulate_report	 rep;
	struct simulate		*sim;

	(void)state;
	/* 1 per 10 s: a request exactly 10 s after the last is in time... */
	sim = sim_rule("[\"ip.src\"]", 10, 1, 0);
	feed(sim, "192.0.2.1", 0);
	feed(sim, "192.0.2.1", 10 * NS);
	/* ...one 1 ns short of 10 s is not. */
	feed(sim, "192.0.2.1", 20 * NS - 1);
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.requests, 3);
	assert_int_equal(rep.rules[0].counted, 3);
	assert_int_equal(rep.rules[0].requests_mitigated, 1);
	assert_int_equal(rep.rules[0].first_mitigation, (T0 + 20) * NS - 1);
	simulate_report_free(&rep);
	simulate_free(sim);

	/* 100 per 10 s, 150 requests 1 ms apart: the last 50 are over. */
	sim = sim_rule("[\"ip.src\"]", 10, 100, 0);
	for (int i = 0; i < 150; i++)
		feed(sim, "192.0.2.1", i * 1000000LL);
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.rules[0].requests_mitigated, 50);
	assert_int_equal(rep.rules[0].first_mitigation, T0 * NS + 100000000LL);
	simulate_report_free(&rep);
	simulate_free(sim);
}

/*
 * 1 per 10 s, 20 s timeout: 1 is over (0 came 1 s before) and mitigates
 * until 21, so 5 is mitigated; 25 is not over (5 is 20 s old) and the
 * mitigation is over; 26 is over again and starts a new one; 45 is in it.
 */
static void
test_timeout_ends(void **state)
{
	struct simulate_report	 rep;
	struct simulate		*sim;
	static const int	 at[] = { 0, 1, 5, 25, 26, 45 };
	size_t			 i;

	(void)state;
	sim = sim_rule("[\"cf.colo.id\",\"ip.src\"]", 10, 1, 20);
	for (i = 0; i < sizeof at / sizeof at[0]; i++)
		feed(sim, "192.0.2.1", at[i] * NS);
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.rules[0].requests_mitigated, 4);
	assert_int_equal(rep.rules[0].clients_mitigated, 1);
	assert_int_equal(rep.mitigated_by_any, 4);
	assert_int_equal(rep.rules[0].first_mitigation, (T0 + 1) * NS);
	simulate_report_free(&rep);
	simulate_free(sim);
}

/* Each characteristic keys on its own value; a missing one is a value. */
static void
test_characteristics(void **state)
{
	struct simulate_report	 rep;
	struct simulate		*sim;
	struct accesslog_record	 r;

	(void)state;
	sim = sim_rule("[\"cf.colo.id\",\"http.request.headers[\\\"X-Api-"
	    "Key\\\"]\",\"http.request.uri.args[\\\"page\\\"]\","
	    "\"ip.src.asnum\"]", 60, 100, 0);
	rec_init(&r, "192.0.2.1", 0);
	r.headers[0].name = "x-api-key";
	r.headers[0].value = "k1";
	r.nheaders = 1;
	r.uri = "/list?x=1&page=2&page=3";
	r.asnum = 64500;
	assert_int_equal(simulate_request(sim, &r), 0);
	/* Another address, the same values: the same client. */
	r.ip = "192.0.2.2";
	assert_int_equal(simulate_request(sim, &r), 0);
	/* Another colo: another counter. */
	r.colo = "LHR";
	assert_int_equal(simulate_request(sim, &r), 0);
	/* No header, no page: their own counter. */
	r.nheaders = 0;
	r.uri = "/list";
	r.asnum = -1;
	assert_int_equal(simulate_request(sim, &r), 0);
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.rules[0].clients, 3);
	assert_int_equal(rep.rules[0].ntop, 3);
	assert_string_equal(rep.rules[0].top[0].client, "k1 2 64500 (SJC)");
	assert_int_equal(rep.rules[0].top[0].requests, 2);
	/* Ties: the key's bytes decide, so the order is stable. */
	assert_string_equal(rep.rules[0].top[1].client, "- - - (LHR)");
	assert_string_equal(rep.rules[0].top[2].client, "k1 2 64500 (LHR)");
	simulate_report_free(&rep);
	simulate_free(sim);
}

/* Twelve clients: i sends i + 1 requests; ten kept, most first. */
static void
test_top_clients(void **state)
{
	struct simulate_report	 rep;
	struct simulate		*sim;
	char			 ip[32];
	int			 i, j;

	(void)state;
	sim = sim_rule("[\"ip.src\"]", 10, 5, 0);
	for (i = 0; i < 12; i++) {
		snprintf(ip, sizeof ip, "192.0.2.%d", i);
		for (j = 0; j <= i; j++)
			feed(sim, ip, j * NS);
	}
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.rules[0].clients, 12);
	/* Clients 5..11 send 6..12 in 10 s: 1..7 over, 28 in all. */
	assert_int_equal(rep.rules[0].clients_mitigated, 7);
	assert_int_equal(rep.rules[0].requests_mitigated, 28);
	assert_int_equal(rep.rules[0].ntop, SIMULATE_TOP);
	assert_string_equal(rep.rules[0].top[0].client, "192.0.2.11");
	assert_int_equal(rep.rules[0].top[0].requests, 12);
	assert_int_equal(rep.rules[0].top[0].mitigated, 7);
	assert_string_equal(rep.rules[0].top[9].client, "192.0.2.2");
	assert_int_equal(rep.rules[0].top[9].mitigated, 0);
	simulate_report_free(&rep);
	simulate_free(sim);
}

/* Keys longer than an entry holds, equal in their first bytes, and keys
 * either side of that size, are each their own client. */
static void
test_long_keys(void **state)
{
	static const struct {
		const char	*ip;
		int		 n;
	} c[] = {
		{ "2001:0db8:0000:0000:0000:0000:0000:0001", 3 },
		{ "2001:0db8:0000:0000:0000:0000:0000:0002", 2 },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaa", 4 },	/* a key of 32 bytes */
		{ "aaaaaaaaaaaaaaaaaaaaaaaaab", 1 },	/* and of 33 */
	};
	struct simulate_report	 rep;
	struct simulate		*sim;
	size_t			 i;
	int			 j;

	(void)state;
	sim = sim_rule("[\"cf.colo.id\", \"ip.src\"]", 10, 2, 0);
	for (j = 0; j < 4; j++)
		for (i = 0; i < sizeof c / sizeof c[0]; i++)
			if (j < c[i].n)
				feed(sim, c[i].ip, j * NS);
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.rules[0].clients, 4);
	assert_int_equal(rep.rules[0].clients_mitigated, 2);
	assert_int_equal(rep.rules[0].requests_mitigated, 3);
	assert_int_equal(rep.rules[0].ntop, 4);
	assert_string_equal(rep.rules[0].top[0].client,
	    "aaaaaaaaaaaaaaaaaaaaaaaaa (SJC)");
	assert_int_equal(rep.rules[0].top[0].mitigated, 2);
	assert_string_equal(rep.rules[0].top[1].client,
	    "2001:0db8:0000:0000:0000:0000:0000:0001 (SJC)");
	assert_int_equal(rep.rules[0].top[1].mitigated, 1);
	assert_string_equal(rep.rules[0].top[2].client,
	    "2001:0db8:0000:0000:0000:0000:0000:0002 (SJC)");
	assert_int_equal(rep.rules[0].top[2].requests, 2);
	assert_string_equal(rep.rules[0].top[3].client,
	    "aaaaaaaaaaaaaaaaaaaaaaaaab (SJC)");
	assert_int_equal(rep.rules[0].top[3].requests, 1);
	simulate_report_free(&rep);
	simulate_free(sim);
}

/* A path of n bytes: "/", six digits of i, then fill. */
static char *
long_path(int i, size_t n, const char *fill)
{
	char	*p = malloc(n + 8);
	size_t	 len, f = strlen(fill);

	assert_non_null(p);
	len = (size_t)snprintf(p, n + 8, "/%06d", i);
	while (len + f <= n) {
		memcpy(p + len, fill, f);
		len += f;
	}
	p[len] = '\0';
	return (p);
}

/* Requests of n clients on distinct paths of len bytes; the bytes held. */
static size_t
bytes_for_paths(int n, size_t len)
{
	struct simulate		*sim;
	struct accesslog_record	 r;
	size_t			 bytes;
	char			*path;
	int			 i;

	sim = sim_rule("[\"cf.colo.id\",\"http.request.uri.path\"]", 60, 2,
	    0);
	for (i = 0; i < n; i++) {
		rec_init(&r, "192.0.2.1", i);
		r.uri = path = long_path(i, len, "a");
		assert_int_equal(simulate_request(sim, &r), 0);
		free(path);
	}
	bytes = simulate_bytes(sim);
	simulate_free(sim);
	return (bytes);
}

/*
 * The counters grow with the clients, not with their keys' bytes: a
 * client keyed on a 100 KB path takes little more than one on a short
 * path. It is still told from the others by its whole key, and shown by
 * its first bytes and "..." (a character never cut in two).
 */
static void
test_keys_bounded(void **state)
{
	struct simulate_report	 rep;
	struct simulate		*sim;
	struct accesslog_record	 r;
	size_t			 small, big;
	char			*a, *b, *u, want[128];
	int			 i;

	(void)state;
	small = bytes_for_paths(300, 20);
	big = bytes_for_paths(300, 100000);
	if (big > small + 300 * 200)
		fail_msg("300 clients: %zu bytes on short paths, %zu on 100 KB "
		    "ones", small, big);

	sim = sim_rule("[\"cf.colo.id\",\"http.request.uri.path\"]", 60, 2,
	    0);
	/* Equal but for their last byte: two clients. */
	a = long_path(1, 100000, "a");
	b = strdup(a);
	b[strlen(b) - 1] = 'b';
	u = long_path(2, 100000, "\xc3\xa9");
	for (i = 0; i < 4; i++) {
		rec_init(&r, "192.0.2.1", i * NS);
		r.uri = a;
		assert_int_equal(simulate_request(sim, &r), 0);
		if (i < 3) {
			r.uri = b;
			assert_int_equal(simulate_request(sim, &r), 0);
		}
		if (i < 1) {
			r.uri = u;
			assert_int_equal(simulate_request(sim, &r), 0);
		}
	}
	simulate_report(sim, NULL, &rep);
	assert_int_equal(rep.rules[0].clients, 3);
	assert_int_equal(rep.rules[0].requests_mitigated, 2 + 1);
	assert_int_equal(rep.rules[0].ntop, 3);
	snprintf(want, sizeof want, "%.64s... (SJC)", a);
	assert_string_equal(rep.rules[0].top[0].client, want);
	assert_int_equal(rep.rules[0].top[0].requests, 4);
	assert_int_equal(rep.rules[0].top[0].mitigated, 2);
	assert_string_equal(rep.rules[0].top[1].client, want);
	assert_int_equal(rep.rules[0].top[1].requests, 3);
	/* "/000002" then é: the 64th byte would cut one in two. */
	snprintf(want, sizeof want, "%.63s... (SJC)", u);
	assert_string_equal(rep.rules[0].top[2].client, want);
	simulate_report_free(&rep);
	simulate_free(sim);
	free(a);
	free(b);
	free(u);
}

static void
test_rules_read(void **state)
{
	struct simulate		*sim;
	cJSON			*rules;
	char			*cause = NULL, **notes = NULL;

	(void)state;
	/* A ruleset, a rule left out for its score, a characteristic no log
	 * has; ref stands for a missing id. */
	sim = sim_from("{\"name\":\"x\",\"rules\":[{\"ref\":\"a\","
	    "\"expression\":\"ssl\",\"ratelimit\":{\"characteristics\":"
	    "[\"cf.colo.id\"],\"period\":10,\"score_per_period\":5}},"
	    "{\"ref\":\"b\",\"description\":\"body\",\"expression\":\"ssl\","
	    "\"ratelimit\":{\"characteristics\":[\"cf.colo.id\","
	    "\"http.request.body.raw\"],\"period\":10,"
	    "\"requests_per_period\":5}}]}", &notes);
	assert_int_equal(simulate_nrules(sim), 1);
	assert_non_null(notes);
	assert_non_null(strstr(notes[0], "rule 1: counts a score"));
	assert_non_null(strstr(notes[1], "rule 2 (body): characteristic "
	    "http.request.body.raw is not in access logs"));
	assert_null(notes[2]);
	simulate_notes_free(notes);
	simulate_free(sim);

	/* One rule alone. */
	sim = sim_from("{\"expression\":\"ssl\",\"ratelimit\":"
	    "{\"characteristics\":[\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":5}}", NULL);
	assert_int_equal(simulate_nrules(sim), 1);
	simulate_free(sim);

	/* Refused: the expression's column, a response field outside a
	 * counting expression, a bad number. */
	rules = cJSON_Parse("[{\"expression\":\"ssl and http.hots eq \\\"a\\\"\","
	    "\"ratelimit\":{\"characteristics\":[\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":5}}]");
	assert_null(simulate_new(rules, &notes, &cause));
	assert_null(notes);
	assert_non_null(strstr(cause, "rule 1: expression:1:9: "));
	free(cause);
	cJSON_Delete(rules);
	rules = cJSON_Parse("[{\"expression\":\"http.response.code eq 401\","
	    "\"ratelimit\":{\"characteristics\":[\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":5}}]");
	assert_null(simulate_new(rules, NULL, &cause));
	free(cause);
	cJSON_Delete(rules);
	rules = cJSON_Parse("[{\"expression\":\"ssl\",\"ratelimit\":"
	    "{\"characteristics\":[\"ip.src\"],\"period\":1.5,"
	    "\"requests_per_period\":5}}]");
	assert_null(simulate_new(rules, NULL, &cause));
	assert_non_null(strstr(cause, "ratelimit.period must be a whole "
	    "number"));
	free(cause);
	cJSON_Delete(rules);
	rules = cJSON_Parse("\"rules\"");
	assert_null(simulate_new(rules, NULL, &cause));
	assert_non_null(strstr(cause, "not a string"));
	free(cause);
	cJSON_Delete(rules);
}

static void
test_time_text(void **state)
{
	char	buf[48];

	(void)state;
	simulate_time_text(T0 * NS, buf, sizeof buf);
	assert_string_equal(buf, "2023-11-14T22:13:20Z");
	simulate_time_text(T0 * NS + 500000000, buf, sizeof buf);
	assert_string_equal(buf, "2023-11-14T22:13:20.5Z");
	simulate_time_text(T0 * NS + 1, buf, sizeof buf);
	assert_string_equal(buf, "2023-11-14T22:13:20.000000001Z");
	simulate_time_text(0, buf, sizeof buf);
	assert_string_equal(buf, "1970-01-01T00:00:00Z");
}

struct progress {
	int		calls;
	uint64_t	done;
	uint64_t	total;
	int		stop_at;
};

static int
progress_cb(void *arg, uint64_t done, uint64_t total)
{
	struct progress	*p = arg;

	assert_true(done >= p->done);
	p->done = done;
	p->total = total;
	return (++p->calls == p->stop_at);
}

/* 200 000 lines: the progress is told every 65 536, and may stop it. */
static void
test_progress(void **state)
{
	struct accesslog_options	 o = { ACCESSLOG_AUTO, NULL, NULL };
	struct simulate_report		 rep;
	struct progress			 p;
	struct simulate			*sim;
	struct accesslog		*l;
	char				*path, *cause = NULL;
	FILE				*f;
	int				 i;

	assert_true(asprintf(&path, "%s/log.json", (char *)*state) > 0);
	assert_non_null(f = fopen(path, "w"));
	for (i = 0; i < 200000; i++)
		fprintf(f, "{\"ClientIP\":\"192.0.2.%d\",\"EdgeStartTimestamp\":"
		    "%lld}\n", i % 200, T0 + i / 1000);
	assert_int_equal(fclose(f), 0);

	memset(&p, 0, sizeof p);
	sim = sim_rule("[\"ip.src\"]", 10, 100, 0);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	assert_int_equal(simulate_log(sim, l, progress_cb, &p, &cause), 0);
	/* 65536, 131072 and 196608 lines. */
	assert_int_equal(p.calls, 3);
	assert_true(p.total > 0 && p.done <= p.total);
	simulate_report(sim, l, &rep);
	assert_int_equal(rep.lines, 200000);
	/* Each address sends 5 a second: 50 in a window, never over. */
	assert_int_equal(rep.rules[0].clients, 200);
	assert_int_equal(rep.rules[0].requests_mitigated, 0);
	simulate_report_free(&rep);
	accesslog_close(l);
	simulate_free(sim);

	memset(&p, 0, sizeof p);
	p.stop_at = 2;
	sim = sim_rule("[\"ip.src\"]", 10, 100, 0);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	assert_int_equal(simulate_log(sim, l, progress_cb, &p, &cause), -1);
	assert_string_equal(cause, "cancelled");
	free(cause);
	assert_int_equal(accesslog_lines(l), 131072);
	accesslog_close(l);
	simulate_free(sim);
	free(path);
}

/* The report and the bad lines kept, as one text to compare. */
static char *
report_text(struct simulate *sim, struct accesslog *l)
{
	struct simulate_report	 rep;
	cJSON			*j, *bad;
	char			*text;
	size_t			 i;

	simulate_report(sim, l, &rep);
	j = simulate_report_json(&rep);
	cJSON_AddNumberToObject(j, "requests", (double)rep.requests);
	bad = cJSON_AddArrayToObject(j, "bad");
	for (i = 0; i < rep.nbad; i++) {
		cJSON_AddItemToArray(bad, cJSON_CreateNumber(
		    (double)rep.bad[i].line));
		cJSON_AddItemToArray(bad, cJSON_CreateString(rep.bad[i].why));
		cJSON_AddItemToArray(bad, cJSON_CreateString(rep.bad[i].text));
	}
	text = cJSON_Print(j);
	cJSON_Delete(j);
	simulate_report_free(&rep);
	return (text);
}

static char *
run_threads(const char *path, const char *rules, int threads)
{
	struct accesslog_options	 o = { ACCESSLOG_AUTO, NULL, NULL };
	struct simulate			*sim;
	struct accesslog		*l;
	char				*cause = NULL, *text;

	sim = sim_from(rules, NULL);
	simulate_set_threads(sim, threads);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	assert_int_equal(simulate_log(sim, l, NULL, NULL, &cause), 0);
	text = report_text(sim, l);
	accesslog_close(l);
	simulate_free(sim);
	return (text);
}

/* The report of the log given one request at a time (no batches), an
 * unreadable URI rejected as simulate_log does. */
static char *
run_requests(const char *path, const char *rules)
{
	struct accesslog_options	 o = { ACCESSLOG_AUTO, NULL, NULL };
	const struct accesslog_record	*rec;
	struct simulate			*sim;
	struct accesslog		*l;
	char				*cause = NULL, *text;
	int				 rv;

	sim = sim_from(rules, NULL);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	while ((rv = accesslog_next(l, &rec, &cause)) == 1)
		if (simulate_request(sim, rec) != 0)
			accesslog_reject(l, "a URI the rules cannot read");
	assert_int_equal(rv, 0);
	text = report_text(sim, l);
	accesslog_close(l);
	simulate_free(sim);
	return (text);
}

/*
 * 60 000 lines (some 60 batches) of bursts from a few hundred clients,
 * times that sometimes go back, lines that are no request and URIs the
 * rules cannot read spread over the whole log (the first five of them are
 * kept, in line order): two threads give one thread's report, and one
 * thread that of the requests given one at a time.
 */
static void
test_threads_same(void **state)
{
	static const char *paths[] = { "/", "/login", "/api/v1/items",
	    "/static/app.js", "/search?q=shoes", "/api/v2/orders?page=2" };
	static const char *rules = "["
	    "{\"id\":\"a\",\"expression\":\"http.request.uri.path eq \\\"/login\\\"\","
	    "\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	    "\"period\":10,\"requests_per_period\":3,\"mitigation_timeout\":60}},"
	    "{\"id\":\"b\",\"expression\":\"starts_with(http.request.uri.path, \\\"/api/\\\")\","
	    "\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	    "\"period\":5,\"requests_per_period\":4,\"mitigation_timeout\":0}},"
	    "{\"id\":\"c\",\"expression\":\"true\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"http.request.headers[\\\"x-key\\\"]\"],"
	    "\"period\":60,\"requests_per_period\":5,\"mitigation_timeout\":10,"
	    "\"counting_expression\":\"http.response.code ge 400\"}},"
	    "{\"id\":\"d\",\"expression\":\"http.user_agent contains \\\"curl\\\"\","
	    "\"ratelimit\":{\"characteristics\":[\"http.request.uri.path\"],"
	    "\"period\":1,\"requests_per_period\":1,\"mitigation_timeout\":0}},"
	    "{\"id\":\"e\",\"expression\":\"any(http.request.uri.args[\\\"page\\\"][*] eq \\\"2\\\")\","
	    "\"ratelimit\":{\"characteristics\":[\"ip.src.asnum\"],"
	    "\"period\":30,\"requests_per_period\":10,\"mitigation_timeout\":5}}]";
	char		*path, *one, *two, *each;
	FILE		*f;
	unsigned	 i, c, n;
	long long	 t;

	assert_true(asprintf(&path, "%s/many.json", (char *)*state) > 0);
	assert_non_null(f = fopen(path, "w"));
	for (i = 0; i < 60000; i++) {
		n = i * 2654435761U;
		if (i % 9973 == 7) {
			fprintf(f, "not a request %u\n", i);
			continue;
		}
		c = (n >> 7) % 300;
		/* Bursts of one client; now and then a time a bit back. */
		if ((n >> 3) % 17 == 0)
			c = (i / 64) % 300;
		t = (T0 + i / 40) * NS + (long long)(n % 1000) * 1000 -
		    ((n >> 11) % 23 == 0 ? 3 * NS : 0);
		fprintf(f, "{\"ClientIP\":\"10.0.%u.%u\",\"EdgeColoCode\":\"%s\","
		    "\"ClientRequestHost\":\"www.example.com\","
		    "\"ClientRequestMethod\":\"GET\",\"ClientRequestURI\":\"%s\","
		    "\"ClientRequestUserAgent\":\"%s\",\"ClientASN\":%u,"
		    "\"EdgeResponseStatus\":%d,"
		    "\"RequestHeaders\":{\"x-key\":\"k%u\"},"
		    "\"EdgeStartTimestamp\":%lld}\n", c / 250, c % 250 + 1,
		    c % 3 ? "SJC" : "LHR", i % 12011 == 5 ? "no-slash" :
		    paths[(n >> 13) % 6], c % 4 ? "Mozilla/5.0" : "curl/8",
		    64500 + c % 7, (n >> 17) % 5 ? 200 : 403, c % 40, t);
	}
	assert_int_equal(fclose(f), 0);

	one = run_threads(path, rules, 1);
	two = run_threads(path, rules, 2);
	each = run_requests(path, rules);
	assert_string_equal(two, one);
	assert_string_equal(one, each);
	/* Something to compare: mitigations and both kinds of bad line. */
	assert_non_null(strstr(one, "\"bad_lines\":\t12,"));
	assert_non_null(strstr(one, "a URI the rules cannot read"));
	assert_null(strstr(one, "\"requests_mitigated\":\t0,"));
	free(one);
	free(two);
	free(each);
	free(path);
}

/*
 * Regexes that reach PCRE2's match limits, over a log of several batches:
 * a path of 30 a's the DFA matcher decides, one of 600 a's (and digits,
 * so the memo does not remember it) that stays unknown, among ordinary
 * ones. Each thread sends a regex to the DFA first once it has reached a
 * limit, at a different point of the log: the report is still the same on
 * two threads, on one, and request by request.
 */
static void
test_threads_same_unknown(void **state)
{
	static const char *rules = "["
	    "{\"id\":\"anchored\",\"expression\":\"http.request.uri.path "
	    "matches \\\"^/(?:(a|aa)+b|a+)[0-9]*$\\\"\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":3,\"mitigation_timeout\":0}},"
	    "{\"id\":\"loose\",\"expression\":\"http.request.uri.path "
	    "matches \\\"(a|aa)+[bc]\\\"\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":3,\"mitigation_timeout\":0}}]";
	char		*path, *one, *two, *each, a[700];
	FILE		*f;
	unsigned	 i, n;

	assert_true(asprintf(&path, "%s/re.json", (char *)*state) > 0);
	assert_non_null(f = fopen(path, "w"));
	for (i = 0; i < 4000; i++) {
		n = i % 40 == 3 ? 600 : i % 3 == 0 ? 30 : i % 5;
		memset(a, 'a', n);
		a[n] = '\0';
		fprintf(f, "{\"ClientIP\":\"10.0.0.%u\","
		    "\"EdgeColoCode\":\"SJC\","
		    "\"ClientRequestHost\":\"www.example.com\","
		    "\"ClientRequestURI\":\"/%s%s%u\","
		    "\"EdgeStartTimestamp\":%lld}\n", i % 7, a,
		    i % 11 == 0 ? "b" : "", i, (T0 + i / 10) * NS);
	}
	assert_int_equal(fclose(f), 0);

	one = run_threads(path, rules, 1);
	two = run_threads(path, rules, 2);
	each = run_requests(path, rules);
	assert_string_equal(two, one);
	assert_string_equal(one, each);
	/* 100 lines of 600 a's, of which 9 have a b and match. */
	if (strstr(one, "\"unknown\":\t91,") == NULL)
		fail_msg("%.300s", strstr(one, "\"loose\""));
	free(one);
	free(two);
	free(each);
	free(path);
}

/*
 * Lines of up to near the longest a log may have, among short ones with
 * headers, so that a batch's text grows (its requests' strings moved) to
 * its largest: the report is that of the requests given one at a time.
 */
static void
test_long_lines(void **state)
{
	static const char *rules = "["
	    "{\"id\":\"a\",\"expression\":\"http.user_agent contains \\\"curl\\\"\","
	    "\"ratelimit\":{\"characteristics\":[\"cf.colo.id\","
	    "\"http.request.headers[\\\"x-key\\\"]\"],"
	    "\"period\":10,\"requests_per_period\":3,\"mitigation_timeout\":60}},"
	    "{\"id\":\"b\",\"expression\":\"true\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"ip.src\"],\"period\":5,"
	    "\"requests_per_period\":4,\"mitigation_timeout\":0}}]";
	char		*path, *one, *two, *each, *ua;
	FILE		*f;
	unsigned	 i;
	size_t		 n;

	assert_true(asprintf(&path, "%s/long.json", (char *)*state) > 0);
	assert_non_null(ua = malloc(1000 * 1000 + 1));
	assert_non_null(f = fopen(path, "w"));
	for (i = 0; i < 3000; i++) {
		/* 1 000 000, 300 000, 70 000 bytes; else a short one. */
		n = i % 997 == 3 ? 1000 * 1000 : i % 211 == 5 ? 300 * 1000 :
		    i % 101 == 9 ? 70 * 1000 : 8;
		memset(ua, i % 2 ? 'x' : 'y', n);
		memcpy(ua, i % 3 ? "curl/8" : "Mozilla", i % 3 ? 6 : 7);
		ua[n] = '\0';
		fprintf(f, "{\"ClientIP\":\"10.0.0.%u\","
		    "\"EdgeColoCode\":\"SJC\","
		    "\"ClientRequestUserAgent\":\"%s\","
		    "\"RequestHeaders\":{\"x-key\":\"k%u\"},"
		    "\"EdgeStartTimestamp\":%lld}\n", i % 7, ua, i % 5,
		    (T0 + i / 20) * NS);
	}
	assert_int_equal(fclose(f), 0);
	free(ua);

	one = run_threads(path, rules, 1);
	two = run_threads(path, rules, 2);
	each = run_requests(path, rules);
	assert_string_equal(one, each);
	assert_string_equal(two, each);
	assert_non_null(strstr(one, "\"lines\":\t3000,"));
	assert_null(strstr(one, "\"requests_mitigated\":\t0,"));
	free(one);
	free(two);
	free(each);
	free(path);
}

/* Cancels once the writer has written all and the reader has taken it. */
struct cancel {
	int	done;		/* the writer says so here */
	int	fifo;		/* another reader's end: anything left? */
	int	written;
};

static int
readable(int fd)
{
	struct pollfd	pfd = { fd, POLLIN, 0 };

	return (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN));
}

static int
cancel_cb(void *arg)
{
	struct cancel	*c = arg;
	char		 ch;

	if (!c->written && readable(c->done))
		c->written = read(c->done, &ch, 1) == 1;
	return (c->written && !readable(c->fifo));
}

/*
 * 20 batches and 500 lines from a pipe, then a cancel while the reader
 * waits for more: simulate_log returns without evaluating the batch it
 * was reading (nor, on two threads, any it had read ahead).
 */
static void
test_cancel_stops(void **state)
{
	struct accesslog_options	 o = { ACCESSLOG_AUTO, NULL, NULL };
	struct simulate_report		 rep;
	struct simulate			*sim;
	struct accesslog		*l;
	struct cancel			 c;
	char				*path, *cause = NULL, ch;
	int				 done[2], ctl[2], threads, i, st;
	const int			 lines = 20 * 1024 + 500;
	pid_t				 pid;
	FILE				*f;

	assert_true(asprintf(&path, "%s/fifo", (char *)*state) > 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	for (threads = 1; threads <= 2; threads++) {
		assert_int_equal(pipe(done), 0);
		assert_int_equal(pipe(ctl), 0);
		if ((pid = fork()) == 0) {
			close(done[0]);
			close(ctl[1]);
			if ((f = fopen(path, "w")) == NULL)
				_exit(1);
			for (i = 0; i < lines; i++)
				fprintf(f, "{\"ClientIP\":\"192.0.2.%d\","
				    "\"EdgeStartTimestamp\":%lld}\n", i % 200,
				    T0 + i / 1000);
			fflush(f);
			/* Written; the pipe open until the test is done. */
			if (write(done[1], "w", 1) != 1)
				_exit(1);
			(void)read(ctl[0], &ch, 1);
			_exit(0);
		}
		assert_true(pid > 0);
		close(done[1]);
		close(ctl[0]);
		memset(&c, 0, sizeof c);
		c.done = done[0];
		o.cancelled = cancel_cb;
		o.cancel_arg = &c;
		sim = sim_rule("[\"ip.src\"]", 10, 100, 0);
		simulate_set_threads(sim, threads);
		assert_non_null(l = accesslog_open(path, &o, &cause));
		assert_true((c.fifo = open(path, O_RDONLY | O_NONBLOCK)) != -1);
		assert_int_equal(simulate_log(sim, l, NULL, NULL, &cause), -1);
		assert_non_null(strstr(cause, "cancelled"));
		free(cause);
		cause = NULL;
		assert_int_equal(accesslog_lines(l), lines);
		simulate_report(sim, l, &rep);
		/* The 500 lines of the batch being read: not evaluated. */
		assert_true(rep.requests <= 20 * 1024);
		simulate_report_free(&rep);
		accesslog_close(l);
		simulate_free(sim);
		close(c.fifo);
		close(done[0]);
		close(ctl[1]);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	free(path);
}

static int
setup(void **state)
{
	return (testdir_setup(state, "simulate"));
}

/*
 * A list is not read: the report says the rule's requests are taken as
 * in none of them, so what it counts is unknown, not zero.
 */
static void
test_rules_lists_note(void **state)
{
	struct simulate	*sim;
	char		**notes = NULL;

	(void)state;
	sim = sim_from("[{\"description\":\"office\",\"expression\":"
	    "\"not ip.src in $office_ips\",\"ratelimit\":{\"characteristics\":"
	    "[\"ip.src\"],\"period\":10,\"requests_per_period\":5}}]", &notes);
	assert_int_equal(simulate_nrules(sim), 1);
	assert_non_null(notes);
	assert_string_equal(notes[0], "rule 1 (office): list $office_ips is not "
	    "known here: requests are taken as not in it, so the rule's counts "
	    "are unknown, not zero");
	assert_null(notes[1]);
	simulate_notes_free(notes);
	simulate_free(sim);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_timeout_ends),
		cmocka_unit_test(test_characteristics),
		cmocka_unit_test(test_top_clients),
		cmocka_unit_test(test_long_keys),
		cmocka_unit_test(test_keys_bounded),
		cmocka_unit_test(test_rules_read),
		cmocka_unit_test(test_rules_lists_note),
		cmocka_unit_test(test_time_text),
		cmocka_unit_test_setup_teardown(test_progress, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_threads_same_unknown,
		    setup, testdir_teardown),
		cmocka_unit_test_setup_teardown(test_threads_same, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_long_lines, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_cancel_stops, setup,
		    testdir_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
