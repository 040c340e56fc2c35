/*
 * Unit tests for pager.c: page numbers, Stream's created-date cursor
 * against a fake server over a sorted array (ties at batch boundaries,
 * strict and inclusive end=, asc), wrapped lists, progress and memory.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "api.h"
#include "buf.h"
#include "common.h"
#include "pager.h"
#include "xmalloc.h"

/* ---- helpers ----------------------------------------------------------- */

static void
parse_s(long status, const char *body, struct api_response *r)
{
	api_parse(status, body, strlen(body), r);
}

static void
feed_body(struct pager *p, long status, const char *body, cJSON ***items,
    size_t *n, struct api_response *r)
{
	char	*cause = NULL;

	api_parse(status, body, strlen(body), r);
	if (pager_feed(p, r, items, n, &cause) != 0)
		fail_msg("pager_feed: %s", cause);
}

static char *
next_query(struct pager *p, const char *prefix)
{
	struct buf	q = BUF_INITIALIZER;

	buf_adds(&q, prefix);
	if (!pager_next_query(p, &q)) {
		buf_free(&q);
		return (NULL);
	}
	return (buf_detach(&q, NULL));
}

/* The value of key in a query string, or NULL. */
static const char *
query_value(const char *query, const char *key, char *out, size_t size)
{
	const char	*p = query;
	size_t		 klen = strlen(key), n;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, "&");
			if (n >= size)
				n = size - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return (out);
		}
		p = strchr(p, '&');
		if (p != NULL)
			p++;
	}
	return (NULL);
}

/* ---- page numbers ------------------------------------------------------ */

/* A page-numbered server over n records "r0".."r{n-1}". */
struct pages_server {
	long	n;
	long	max_per_page;		/* the server's cap */
	int	send_total;
	int	send_total_pages;
	int	ignore_page;
	int	calls;
};

static char *
pages_serve(struct pages_server *s, const char *query)
{
	struct buf	b = BUF_INITIALIZER;
	char		v[32];
	long		page = 1, per = 20, i, first, count = 0;

	s->calls++;
	if (query_value(query, "page", v, sizeof v) != NULL)
		page = atol(v);
	if (query_value(query, "per_page", v, sizeof v) != NULL)
		per = atol(v);
	if (per > s->max_per_page)
		per = s->max_per_page;
	if (s->ignore_page)
		page = 1;
	first = (page - 1) * per;
	buf_adds(&b, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":[");
	for (i = first; i < s->n && i < first + per; i++, count++)
		buf_addf(&b, "%s{\"id\":\"r%ld\"}", count ? "," : "", i);
	buf_addf(&b, "],\"result_info\":{\"page\":%ld,\"per_page\":%ld,"
	    "\"count\":%ld", page, per, count);
	if (s->send_total)
		buf_addf(&b, ",\"total_count\":%ld", s->n);
	if (s->send_total_pages)
		buf_addf(&b, ",\"total_pages\":%ld", (s->n + per - 1) / per);
	buf_adds(&b, "}}");
	return (buf_detach(&b, NULL));
}

/* Walk a list; check it comes out as r0..r{n-1}; return the requests. */
static int
pages_walk(struct pages_server *s, long per_page, long expect)
{
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n, i;
	char			*q, *body;
	long			 have = 0, got, total;
	char			 want[32];

	p = pager_new(PAGER_PAGES, per_page, NULL);
	while ((q = next_query(p, "")) != NULL) {
		body = pages_serve(s, q);
		feed_body(p, 200, body, &items, &n, &r);
		for (i = 0; i < n; i++) {
			snprintf(want, sizeof want, "r%ld", have++);
			assert_string_equal(cJSON_GetStringValue(
			    cJSON_GetObjectItem(items[i], "id")), want);
		}
		api_response_free(&r);
		free(body);
		free(q);
		assert_true(s->calls < 1000);
	}
	assert_int_equal(have, expect);
	pager_progress(p, &got, &total);
	assert_int_equal(got, expect);
	assert_int_equal(total, s->send_total ? s->n : -1);
	assert_true(pager_done(p));
	pager_free(p);
	return (s->calls);
}

static void
test_pages_empty(void **state)
{
	struct pages_server	s = { 0, 50, 1, 0, 0, 0 };

	(void)state;
	assert_int_equal(pages_walk(&s, 20, 0), 1);
	s = (struct pages_server){ 0, 50, 0, 0, 0, 0 };
	assert_int_equal(pages_walk(&s, 20, 0), 1);
}

static void
test_pages_exact_multiple(void **state)
{
	struct pages_server	s = { 40, 50, 0, 0, 0, 0 };

	(void)state;
	/* Without total_count, only an empty page ends a full last page. */
	assert_int_equal(pages_walk(&s, 20, 40), 3);
	/* total_count stops it at once: page * per_page >= total. */
	s = (struct pages_server){ 40, 50, 1, 0, 0, 0 };
	assert_int_equal(pages_walk(&s, 20, 40), 2);
	s = (struct pages_server){ 40, 50, 0, 1, 0, 0 };
	assert_int_equal(pages_walk(&s, 20, 40), 2);
}

static void
test_pages_last_short(void **state)
{
	struct pages_server	s = { 45, 50, 0, 0, 0, 0 };

	(void)state;
	assert_int_equal(pages_walk(&s, 20, 45), 3);
	s = (struct pages_server){ 45, 50, 1, 0, 0, 0 };
	assert_int_equal(pages_walk(&s, 20, 45), 3);
	s = (struct pages_server){ 1, 50, 1, 0, 0, 0 };
	assert_int_equal(pages_walk(&s, 5, 1), 1);
}

static void
test_pages_server_caps_per_page(void **state)
{
	struct pages_server	s = { 120, 50, 0, 0, 0, 0 };

	(void)state;
	/* Asked 100, given 50: a page of 50 is full, not short. */
	assert_int_equal(pages_walk(&s, 100, 120), 3);
	/* No per_page sent: the server's default is learned. */
	s = (struct pages_server){ 45, 50, 0, 0, 0, 0 };
	assert_int_equal(pages_walk(&s, 0, 45), 3);
}

static void
test_pages_query_text(void **state)
{
	struct pager	*p;
	char		*q;

	(void)state;
	p = pager_new(PAGER_PAGES, 25, NULL);
	q = next_query(p, "");
	assert_string_equal(q, "page=1&per_page=25");
	free(q);
	q = next_query(p, "status=active");
	assert_string_equal(q, "status=active&page=1&per_page=25");
	free(q);
	q = next_query(p, "/x?");
	assert_string_equal(q, "/x?page=1&per_page=25");
	free(q);
	pager_free(p);
	p = pager_new(PAGER_PAGES, 0, NULL);
	q = next_query(p, "");
	assert_string_equal(q, "page=1");
	free(q);
	pager_free(p);
}

static void
test_pages_repeated_page_stops(void **state)
{
	struct pages_server	 s = { 100, 50, 0, 0, 1, 0 };
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;
	long			 have, total;

	(void)state;
	p = pager_new(PAGER_PAGES, 10, NULL);
	while ((q = next_query(p, "")) != NULL) {
		body = pages_serve(&s, q);
		feed_body(p, 200, body, &items, &n, &r);
		api_response_free(&r);
		free(body);
		free(q);
		assert_true(s.calls < 10);
	}
	assert_int_equal(s.calls, 2);
	pager_progress(p, &have, &total);
	assert_int_equal(have, 10);
	assert_non_null(pager_warning(p));
	assert_non_null(strstr(pager_warning(p), "page 2 repeated page 1"));
	pager_free(p);
}

/* A server claiming pages without end: stopped at the bound, said. */
static void
test_pages_endless(void **state)
{
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;
	long			 calls = 0;

	(void)state;
	p = pager_new(PAGER_PAGES, 1, NULL);
	while ((q = next_query(p, "")) != NULL &&
	    calls < PAGER_MAX_REQUESTS + 10) {
		calls++;
		body = xprintf("{\"success\":true,\"errors\":[],\"result\":"
		    "[{\"id\":\"r%ld\"}],\"result_info\":{\"page\":%ld,"
		    "\"per_page\":1,\"count\":1,\"total_count\":1000000000,"
		    "\"total_pages\":1000000000}}", calls, calls);
		feed_body(p, 200, body, &items, &n, &r);
		assert_int_equal(n, 1);
		api_response_free(&r);
		free(body);
		free(q);
	}
	free(q);
	assert_int_equal(calls, PAGER_MAX_REQUESTS);
	assert_true(pager_done(p));
	assert_non_null(pager_bound_hit(p));
	assert_non_null(strstr(pager_bound_hit(p), "after 1000 requests"));
	pager_free(p);
}

static void
test_pages_max_items(void **state)
{
	struct pages_server	 s = { 100, 50, 1, 0, 0, 0 };
	struct pager_opts	 o = { .max_items = 25 };
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n, total = 0;
	char			*q, *body;

	(void)state;
	p = pager_new(PAGER_PAGES, 10, &o);
	while ((q = next_query(p, "")) != NULL) {
		body = pages_serve(&s, q);
		feed_body(p, 200, body, &items, &n, &r);
		total += n;
		api_response_free(&r);
		free(body);
		free(q);
	}
	assert_int_equal(total, 25);
	assert_int_equal(s.calls, 3);
	pager_free(p);
}

static void
test_pages_progress(void **state)
{
	struct pages_server	 s = { 45, 50, 1, 0, 0, 0 };
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;
	long			 have, total;

	(void)state;
	p = pager_new(PAGER_PAGES, 20, NULL);
	pager_progress(p, &have, &total);
	assert_int_equal(have, 0);
	assert_int_equal(total, -1);
	q = next_query(p, "");
	body = pages_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	pager_progress(p, &have, &total);
	assert_int_equal(have, 20);
	assert_int_equal(total, 45);
	assert_false(pager_done(p));
	api_response_free(&r);
	free(body);
	free(q);
	pager_free(p);
}

/*
 * What a console decides eager or lazy loading by: the requests the rest
 * takes from the first page's total; unknown without a total, none once
 * done.
 */
static void
test_pages_rest_requests(void **state)
{
	struct pages_server	 s = { 5050, 50, 1, 0, 0, 0 };
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;

	(void)state;
	p = pager_new(PAGER_PAGES, 50, NULL);
	assert_int_equal(pager_rest_requests(p, 50), -1);
	q = next_query(p, "");
	body = pages_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	/* 5000 more at 50 a page: 100, the most still loaded at once. */
	assert_int_equal(pager_rest_requests(p, 50), PAGER_EAGER_REQUESTS);
	assert_int_equal(pager_rest_requests(p, 1000), 5);
	assert_int_equal(pager_rest_requests(p, 0), -1);
	api_response_free(&r);
	free(body);
	free(q);
	pager_free(p);

	s.n = 5051;
	p = pager_new(PAGER_PAGES, 50, NULL);
	q = next_query(p, "");
	body = pages_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	assert_true(pager_rest_requests(p, 50) > PAGER_EAGER_REQUESTS);
	api_response_free(&r);
	free(body);
	free(q);
	pager_free(p);

	p = pager_new(PAGER_SINGLE, 0, NULL);
	feed_body(p, 200, "{\"result\":[{\"id\":\"a\"}]}", &items, &n, &r);
	assert_int_equal(pager_rest_requests(p, 50), 0);
	api_response_free(&r);
	pager_free(p);
}

static void
test_feed_refusals(void **state)
{
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*cause = NULL;

	(void)state;
	p = pager_new(PAGER_PAGES, 20, NULL);
	parse_s(400, "{\"success\":false,\"errors\":[{\"code\":1,"
	    "\"message\":\"m\"}]}", &r);
	assert_int_equal(pager_feed(p, &r, &items, &n, &cause), -1);
	assert_string_equal(cause, "a failed response is not a page");
	free(cause);
	api_response_free(&r);

	parse_s(200, "{\"result\":{\"a\":1}}", &r);
	assert_int_equal(pager_feed(p, &r, &items, &n, &cause), -1);
	assert_string_equal(cause, "result is an object, not a list");
	free(cause);
	api_response_free(&r);

	/* result: null is an empty page: the list is done. */
	parse_s(200, "{\"result\":null}", &r);
	assert_int_equal(pager_feed(p, &r, &items, &n, &cause), 0);
	assert_int_equal(n, 0);
	assert_true(pager_done(p));
	assert_int_equal(pager_feed(p, &r, &items, &n, &cause), -1);
	assert_string_equal(cause, "the list is already complete");
	free(cause);
	api_response_free(&r);
	pager_free(p);
}

/* ---- Stream's created-date cursor --------------------------------------- */

struct video {
	char	uid[24];
	int64_t	us;			/* created, µs since the epoch */
};

/* A fake GET /stream over videos sorted newest first. */
struct stream_server {
	struct video	*v;
	size_t		 n;
	long		 limit;
	int		 inclusive;	/* end= and start= include the time */
	int		 counts;	/* honours include_counts */
	int		 digits;	/* of created: 6 or 0 */
	int		 calls;
};

#define T0	1704067200LL		/* 2024-01-01T00:00:00Z */

static void
format_time(struct buf *b, int64_t us, int digits)
{
	time_t		sec = (time_t)(us / 1000000);
	struct tm	tm;
	char		text[32];

	gmtime_r(&sec, &tm);
	strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
	buf_adds(b, text);
	if (digits == 6)
		buf_addf(b, ".%06ld", (long)(us % 1000000));
	buf_addc(b, 'Z');
}

/* The cursor's own format back to µs (UTC, optional fraction). */
static int64_t
parse_time(const char *s)
{
	struct tm	 tm;
	const char	*dot;
	int64_t		 us = 0, scale = 100000;

	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		fail_msg("bad time %s", s);
	tm.tm_year -= 1900;
	tm.tm_mon--;
	if ((dot = strchr(s, '.')) != NULL) {
		for (dot++; *dot >= '0' && *dot <= '9'; dot++) {
			us += (*dot - '0') * scale;
			scale /= 10;
		}
	}
	return ((int64_t)timegm(&tm) * 1000000 + us);
}

static char *
stream_serve(struct stream_server *s, const char *query)
{
	struct buf	 b = BUF_INITIALIZER;
	char		 v[64];
	int		 asc, has_end, has_start;
	int64_t		 end = 0, start = 0;
	long		 limit = s->limit, matched = 0, count = 0;
	size_t		 k;
	struct video	*x;

	s->calls++;
	asc = query_value(query, "asc", v, sizeof v) != NULL &&
	    strcmp(v, "true") == 0;
	if ((has_end = query_value(query, "end", v, sizeof v) != NULL))
		end = parse_time(v);
	if ((has_start = query_value(query, "start", v, sizeof v) != NULL))
		start = parse_time(v);
	if (query_value(query, "limit", v, sizeof v) != NULL)
		limit = atol(v);
	buf_adds(&b, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":[");
	for (k = 0; k < s->n; k++) {
		x = &s->v[asc ? s->n - 1 - k : k];
		if (has_end && (s->inclusive ? x->us > end : x->us >= end))
			continue;
		if (has_start &&
		    (s->inclusive ? x->us < start : x->us <= start))
			continue;
		matched++;
		if (count == limit)
			continue;
		buf_addf(&b, "%s{\"uid\":\"%s\",\"created\":\"",
		    count ? "," : "", x->uid);
		format_time(&b, x->us, s->digits);
		buf_adds(&b, "\",\"meta\":{}}");
		count++;
	}
	buf_addc(&b, ']');
	if (s->counts &&
	    query_value(query, "include_counts", v, sizeof v) != NULL)
		buf_addf(&b, ",\"total\":%ld,\"range\":%ld", matched,
		    matched - count);
	buf_addc(&b, '}');
	return (buf_detach(&b, NULL));
}

/*
 * n videos, newest first, in runs of equal created times whose lengths
 * come from runs[] (cycled); times step by step_us between runs.
 */
static struct video *
make_videos(size_t n, const int *runs, size_t nruns, int64_t step_us)
{
	struct video	*v;
	size_t		 i, r = 0;
	int		 left = runs[0];
	int64_t		 t = (T0 + 86400) * 1000000;

	v = xcalloc(n, sizeof *v);
	for (i = 0; i < n; i++) {
		if (left == 0) {
			r = (r + 1) % nruns;
			left = runs[r];
			t -= step_us;
		}
		snprintf(v[i].uid, sizeof v[i].uid, "v%04zu", i);
		v[i].us = t;
		left--;
	}
	return (v);
}

struct walk {
	int	*hits;			/* per video index */
	long	 emitted;
	size_t	 max_boundary;
	int	 calls;
};

static void
stream_walk(struct stream_server *s, struct pager *p, struct walk *w)
{
	struct api_response	 r;
	cJSON			**items;
	size_t			 n, i;
	char			*q, *body;
	const char		*uid;

	memset(w, 0, sizeof *w);
	w->hits = xcalloc(s->n, sizeof *w->hits);
	while ((q = next_query(p, "")) != NULL) {
		body = stream_serve(s, q);
		feed_body(p, 200, body, &items, &n, &r);
		for (i = 0; i < n; i++) {
			uid = cJSON_GetStringValue(cJSON_GetObjectItem(items[i],
			    "uid"));
			assert_non_null(uid);
			w->hits[atoi(uid + 1)]++;
			w->emitted++;
		}
		if (pager_boundary_size(p) > w->max_boundary)
			w->max_boundary = pager_boundary_size(p);
		api_response_free(&r);
		free(body);
		free(q);
		assert_true(s->calls < 10000);
	}
	w->calls = s->calls;
}

/* Every video exactly once. */
static void
assert_all_once(const struct stream_server *s, const struct walk *w)
{
	size_t	i;

	for (i = 0; i < s->n; i++) {
		if (w->hits[i] != 1)
			fail_msg("video %zu returned %d times", i, w->hits[i]);
	}
	assert_int_equal(w->emitted, (long)s->n);
}

static void
test_cursor_ties_across_boundary(void **state)
{
	static const int	 runs[] = { 2, 3, 1, 4, 1 };
	struct stream_server	 s = { 0 };
	struct pager		*p;
	struct walk		 w;
	int			 inclusive, counts, digits;
	long			 have, total;

	(void)state;
	for (inclusive = 0; inclusive < 2; inclusive++)
	for (counts = 0; counts < 2; counts++)
	for (digits = 0; digits <= 6; digits += 6) {
		s = (struct stream_server){ NULL, 37, 5, inclusive, counts,
		    digits, 0 };
		/* Whole seconds apart, so both precisions show the ties. */
		s.v = make_videos(s.n, runs, nitems(runs), 1000000);
		p = pager_new(PAGER_CREATED, 5, NULL);
		stream_walk(&s, p, &w);
		assert_all_once(&s, &w);
		assert_null(pager_warning(p));
		/* Never more than one run of ties is remembered. */
		assert_true(w.max_boundary <= 4);
		pager_progress(p, &have, &total);
		assert_int_equal(have, 37);
		assert_int_equal(total, counts ? 37 : -1);
		pager_free(p);
		free(w.hits);
		free(s.v);
	}
}

static void
test_cursor_random_ties(void **state)
{
	struct stream_server	 s;
	struct pager		*p;
	struct walk		 w;
	int			 runs[16], seed;
	size_t			 i;
	unsigned int		 x;

	(void)state;
	for (seed = 1; seed <= 60; seed++) {
		x = (unsigned int)seed * 2654435761U;
		for (i = 0; i < nitems(runs); i++) {
			x = x * 1103515245U + 12345U;
			runs[i] = 1 + (int)((x >> 16) % 7);	/* < limit */
		}
		s = (struct stream_server){ NULL, 50 + (size_t)seed * 3, 8,
		    seed % 2, seed % 3 != 0, 6, 0 };
		s.v = make_videos(s.n, runs, nitems(runs), 1 + seed % 5);
		p = pager_new(PAGER_CREATED, 8, NULL);
		stream_walk(&s, p, &w);
		assert_all_once(&s, &w);
		assert_null(pager_warning(p));
		assert_true(w.max_boundary <= 7);
		pager_free(p);
		free(w.hits);
		free(s.v);
	}
}

static void
test_cursor_query_text(void **state)
{
	static const int	 runs[] = { 3 };
	struct stream_server	 s = { NULL, 6, 4, 0, 1, 6, 0 };
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;

	(void)state;
	s.v = make_videos(s.n, runs, 1, 250);
	p = pager_new(PAGER_CREATED, 4, &(struct pager_opts){
	    .flags = PAGER_SEND_LIMIT });
	q = next_query(p, "creator=bob");
	assert_string_equal(q, "creator=bob&include_counts=true&limit=4");
	body = stream_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	assert_int_equal(n, 4);
	/* Oldest seen: the second run, at 2024-01-02T00:00:00 - 250 µs. */
	assert_int_equal(pager_boundary_size(p), 1);
	api_response_free(&r);
	free(body);
	free(q);
	/* One microsecond after it, to get its ties again. */
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&limit=4&"
	    "end=2024-01-01T23:59:59.999751Z");
	/* Asking again before a feed gives the same query (a retry). */
	free(q);
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&limit=4&"
	    "end=2024-01-01T23:59:59.999751Z");
	free(q);
	pager_free(p);
	free(s.v);

	/* Whole-second times: the overlap is one second. */
	s = (struct stream_server){ NULL, 6, 4, 0, 1, 0, 0 };
	s.v = make_videos(s.n, runs, 1, 1000000);
	p = pager_new(PAGER_CREATED, 4, NULL);
	q = next_query(p, "");
	body = stream_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	api_response_free(&r);
	free(body);
	free(q);
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&end=2024-01-02T00:00:00Z");
	free(q);
	pager_free(p);
	free(s.v);
}

static void
test_cursor_asc(void **state)
{
	static const int	 runs[] = { 1, 3, 2 };
	struct stream_server	 s;
	struct pager		*p;
	struct walk		 w;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;
	int			 inclusive;

	(void)state;
	for (inclusive = 0; inclusive < 2; inclusive++) {
		s = (struct stream_server){ NULL, 23, 4, inclusive, 1, 6, 0 };
		s.v = make_videos(s.n, runs, nitems(runs), 7);
		p = pager_new(PAGER_CREATED, 4, &(struct pager_opts){
		    .flags = PAGER_ASC });
		stream_walk(&s, p, &w);
		assert_all_once(&s, &w);
		pager_free(p);
		free(w.hits);
		free(s.v);
	}

	/* The oldest first, then start= one unit before the newest seen. */
	s = (struct stream_server){ NULL, 23, 4, 0, 1, 6, 0 };
	s.v = make_videos(s.n, runs, nitems(runs), 7);
	p = pager_new(PAGER_CREATED, 4, &(struct pager_opts){
	    .flags = PAGER_ASC });
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&asc=true");
	body = stream_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(items[0],
	    "uid")), "v0022");
	api_response_free(&r);
	free(body);
	free(q);
	q = next_query(p, "");
	assert_non_null(strstr(q, "include_counts=true&asc=true&start="));
	assert_null(strstr(q, "end="));
	free(q);
	pager_free(p);
	free(s.v);
}

/* How many videos share the created time of video i. */
static size_t
ties(const struct stream_server *s, size_t i)
{
	size_t	j, n = 0;

	for (j = 0; j < s->n; j++)
		n += s->v[j].us == s->v[i].us;
	return (n);
}

static void
test_cursor_ties_overflow_batch(void **state)
{
	static const int	 runs[] = { 2, 9, 3 };
	struct stream_server	 s;
	struct pager		*p;
	struct walk		 w;
	size_t			 i, missing = 0;
	int			 inclusive;

	(void)state;
	/* 9 videos share one time and a batch holds 4: cannot be exact. */
	for (inclusive = 0; inclusive < 2; inclusive++) {
		s = (struct stream_server){ NULL, 30, 4, inclusive, 1, 6, 0 };
		s.v = make_videos(s.n, runs, nitems(runs), 1000);
		p = pager_new(PAGER_CREATED, 4, NULL);
		stream_walk(&s, p, &w);
		/* It ends, says why, and never repeats a video. */
		assert_true(pager_done(p));
		assert_non_null(pager_warning(p));
		assert_non_null(strstr(pager_warning(p), "more than 4 records "
		    "share the created"));
		for (i = 0; i < s.n; i++) {
			assert_true(w.hits[i] <= 1);
			missing += w.hits[i] == 0;
		}
		/* Only videos of an overflowing run can be missing. */
		for (i = 0; i < s.n; i++) {
			if (ties(&s, i) < 4)
				assert_int_equal(w.hits[i], 1);
		}
		assert_true(w.calls < 40);
		pager_free(p);
		free(w.hits);
		free(s.v);
	}
	assert_true(missing > 0);
}

static void
test_cursor_memory_bounded(void **state)
{
	static const int	 runs[] = { 3, 1 };
	struct stream_server	 s = { NULL, 5000, 100, 0, 1, 6, 0 };
	struct pager		*p;
	struct walk		 w;

	(void)state;
	s.v = make_videos(s.n, runs, nitems(runs), 10);
	p = pager_new(PAGER_CREATED, 100, NULL);
	stream_walk(&s, p, &w);
	assert_all_once(&s, &w);
	/* The boundary set holds one run, not the list. */
	assert_true(w.max_boundary <= 3);
	assert_true(w.max_boundary >= 1);
	assert_true(pager_boundary_size(p) <= 3);
	/* Each batch repeats at most its boundary's ties. */
	assert_true(w.calls >= 51 && w.calls <= 5000 / 97 + 2);
	pager_free(p);
	free(w.hits);
	free(s.v);
}

static void
test_cursor_max_items_and_progress(void **state)
{
	static const int	 runs[] = { 1 };
	struct stream_server	 s = { NULL, 50, 10, 0, 1, 6, 0 };
	struct pager		*p;
	struct walk		 w;
	long			 have, total;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *body;

	(void)state;
	s.v = make_videos(s.n, runs, 1, 1000);
	p = pager_new(PAGER_CREATED, 10, &(struct pager_opts){
	    .max_items = 15 });
	stream_walk(&s, p, &w);
	assert_int_equal(w.emitted, 15);
	assert_int_equal(w.calls, 2);
	pager_free(p);
	free(w.hits);

	/* "10 of ~50" after the first batch. */
	s.calls = 0;
	p = pager_new(PAGER_CREATED, 10, NULL);
	q = next_query(p, "");
	body = stream_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	pager_progress(p, &have, &total);
	assert_int_equal(have, 10);
	assert_int_equal(total, 50);
	api_response_free(&r);
	free(body);
	free(q);
	pager_free(p);
	free(s.v);
}

static void
test_cursor_records_without_time(void **state)
{
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;

	(void)state;
	p = pager_new(PAGER_CREATED, 2, NULL);
	feed_body(p, 200, "{\"result\":[{\"uid\":\"a\"},{\"uid\":\"b\","
	    "\"created\":\"yesterday\"}]}", &items, &n, &r);
	assert_int_equal(n, 2);
	assert_true(pager_done(p));
	assert_non_null(strstr(pager_warning(p), "no created time"));
	api_response_free(&r);
	pager_free(p);

	/* Offsets and odd precision are read; the query is in UTC. */
	p = pager_new(PAGER_CREATED, 2, NULL);
	feed_body(p, 200, "{\"result\":[{\"uid\":\"a\",\"created\":"
	    "\"2024-03-01T01:00:00.5+02:00\"},{\"uid\":\"b\",\"created\":"
	    "\"2024-02-29T23:00:00.25+00:00\"}]}", &items, &n, &r);
	assert_int_equal(n, 2);
	api_response_free(&r);
	items = NULL;
	{
		char	*q = next_query(p, "");

		assert_string_equal(q, "include_counts=true&"
		    "end=2024-02-29T23:00:00.26Z");
		free(q);
	}
	pager_free(p);
}

static void
test_cursor_overlap_only_batch(void **state)
{
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q;

	(void)state;
	p = pager_new(PAGER_CREATED, 2, NULL);
	feed_body(p, 200, "{\"result\":[{\"uid\":\"a\",\"created\":"
	    "\"2024-01-01T00:00:02Z\"},{\"uid\":\"b\",\"created\":"
	    "\"2024-01-01T00:00:01Z\"}]}", &items, &n, &r);
	assert_int_equal(n, 2);
	api_response_free(&r);
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&end=2024-01-01T00:00:02Z");
	free(q);
	/*
	 * An inclusive server answers with the record at 00:00:02 again:
	 * nothing new, the boundary stays, and end= drops the overlap.
	 */
	feed_body(p, 200, "{\"result\":[{\"uid\":\"a\",\"created\":"
	    "\"2024-01-01T00:00:02Z\"},{\"uid\":\"b\",\"created\":"
	    "\"2024-01-01T00:00:01Z\"}]}", &items, &n, &r);
	assert_int_equal(n, 0);
	assert_false(pager_done(p));
	assert_null(pager_warning(p));
	api_response_free(&r);
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&end=2024-01-01T00:00:01Z");
	free(q);
	/* Even a batch of nothing but newer records leaves the boundary. */
	feed_body(p, 200, "{\"result\":[{\"uid\":\"a\",\"created\":"
	    "\"2024-01-01T00:00:02Z\"},{\"uid\":\"z\",\"created\":"
	    "\"2024-01-01T00:00:03Z\"}]}", &items, &n, &r);
	assert_int_equal(n, 0);
	assert_int_equal(pager_boundary_size(p), 1);
	api_response_free(&r);
	/* Nothing new in a full batch: step past 00:00:01, not 00:00:02. */
	assert_non_null(pager_warning(p));
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&end=2024-01-01T00:00:00Z");
	free(q);
	pager_free(p);
}

/*
 * A lazy list: a small first batch, then full ones (pager_set_per_page);
 * every video once, and the limit sent follows. Page numbers would shift,
 * so PAGER_PAGES keeps its size.
 */
static void
test_cursor_first_batch_small(void **state)
{
	const int		 runs[] = { 1 };
	struct stream_server	 s = { NULL, 30, 1000, 0, 1, 6, 0 };
	struct pager		*p;
	struct api_response	 r;
	struct walk		 w;
	cJSON			**items;
	size_t			 n, i;
	char			*q, *body;

	(void)state;
	s.v = make_videos(s.n, runs, 1, 1000);
	p = pager_new(PAGER_CREATED, 4, &(struct pager_opts){
	    .flags = PAGER_SEND_LIMIT });
	q = next_query(p, "");
	assert_string_equal(q, "include_counts=true&limit=4");
	body = stream_serve(&s, q);
	feed_body(p, 200, body, &items, &n, &r);
	assert_int_equal(n, 4);
	api_response_free(&r);
	free(body);
	free(q);
	pager_set_per_page(p, 10);
	assert_int_equal(pager_per_page(p), 10);
	q = next_query(p, "");
	assert_non_null(strstr(q, "&limit=10&"));
	free(q);
	stream_walk(&s, p, &w);
	assert_int_equal(w.emitted, 26);
	for (i = 0; i < s.n; i++)
		assert_int_equal(w.hits[i], i < 4 ? 0 : 1);
	assert_int_equal(w.calls, 4);
	free(w.hits);
	pager_free(p);
	free(s.v);

	p = pager_new(PAGER_PAGES, 20, NULL);
	pager_set_per_page(p, 50);
	assert_int_equal(pager_per_page(p), 20);
	pager_free(p);
}

/* ---- single calls ------------------------------------------------------- */

static void
test_single_wrapped(void **state)
{
	struct pager		*p;
	struct api_response	 r;
	cJSON			**items;
	size_t			 n;
	char			*q, *cause = NULL;
	long			 have, total;

	(void)state;
	p = pager_new(PAGER_SINGLE, 0, &(struct pager_opts){
	    .key = "liveInputs" });
	q = next_query(p, "include_counts=true");
	assert_string_equal(q, "include_counts=true");
	free(q);
	feed_body(p, 200, "{\"success\":true,\"result\":{\"liveInputs\":["
	    "{\"uid\":\"l1\"},{\"uid\":\"l2\"},{\"uid\":\"l3\"}],\"range\":0,"
	    "\"total\":3}}", &items, &n, &r);
	assert_int_equal(n, 3);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(items[2],
	    "uid")), "l3");
	assert_true(pager_done(p));
	assert_null(next_query(p, ""));
	pager_progress(p, &have, &total);
	assert_int_equal(have, 3);
	assert_int_equal(total, 3);
	api_response_free(&r);
	pager_free(p);

	/* A wrapped list whose key is missing is empty. */
	p = pager_new(PAGER_SINGLE, 0, &(struct pager_opts){
	    .key = "liveInputs" });
	feed_body(p, 200, "{\"result\":{}}", &items, &n, &r);
	assert_int_equal(n, 0);
	api_response_free(&r);
	pager_free(p);

	/* Not an object, or the key holds no array: refused. */
	p = pager_new(PAGER_SINGLE, 0, &(struct pager_opts){
	    .key = "liveInputs" });
	parse_s(200, "{\"result\":[]}", &r);
	assert_int_equal(pager_feed(p, &r, &items, &n, &cause), -1);
	assert_string_equal(cause, "result is an array, not an object with "
	    "liveInputs");
	free(cause);
	api_response_free(&r);
	parse_s(200, "{\"result\":{\"liveInputs\":7}}", &r);
	assert_int_equal(pager_feed(p, &r, &items, &n, &cause), -1);
	assert_string_equal(cause, "result.liveInputs is a number, not a list");
	free(cause);
	api_response_free(&r);
	pager_free(p);

	/* A plain array (watermarks, keys). */
	p = pager_new(PAGER_SINGLE, 0, NULL);
	feed_body(p, 200, "{\"result\":[{\"id\":1},{\"id\":2}]}", &items, &n,
	    &r);
	assert_int_equal(n, 2);
	assert_true(pager_done(p));
	api_response_free(&r);
	pager_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_empty),
		cmocka_unit_test(test_pages_exact_multiple),
		cmocka_unit_test(test_pages_last_short),
		cmocka_unit_test(test_pages_server_caps_per_page),
		cmocka_unit_test(test_pages_query_text),
		cmocka_unit_test(test_pages_repeated_page_stops),
		cmocka_unit_test(test_pages_max_items),
		cmocka_unit_test(test_pages_endless),
		cmocka_unit_test(test_pages_progress),
		cmocka_unit_test(test_pages_rest_requests),
		cmocka_unit_test(test_feed_refusals),
		cmocka_unit_test(test_cursor_ties_across_boundary),
		cmocka_unit_test(test_cursor_random_ties),
		cmocka_unit_test(test_cursor_query_text),
		cmocka_unit_test(test_cursor_asc),
		cmocka_unit_test(test_cursor_ties_overflow_batch),
		cmocka_unit_test(test_cursor_memory_bounded),
		cmocka_unit_test(test_cursor_max_items_and_progress),
		cmocka_unit_test(test_cursor_records_without_time),
		cmocka_unit_test(test_cursor_overlap_only_batch),
		cmocka_unit_test(test_cursor_first_batch_small),
		cmocka_unit_test(test_single_wrapped),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
