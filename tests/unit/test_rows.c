/*
 * Unit tests for rows.c, the store behind the console's lists: records put
 * and replaced by id, refreshes, the filter, sorting, the cursor's row,
 * marks, and what the cells may show. Real descriptors, hand-written
 * records.
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

#include "buf.h"
#include "common.h"
#include "kind.h"
#include "rows.h"
#include "text.h"
#include "xmalloc.h"

/* ---- helpers ------------------------------------------------------------ */

/* A store showing every column of the kind. */
static struct rows *
store(const struct kind *k)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	const struct kind_column	*c;
	size_t				 n = 0;

	for (c = k->columns; c->header != NULL; c++)
		cols[n++] = c;
	return (rows_new(k, cols, n));
}

static int
col(const struct kind *k, const char *header)
{
	int	i;

	for (i = 0; k->columns[i].header != NULL; i++) {
		if (strcmp(k->columns[i].header, header) == 0)
			return (i);
	}
	fail_msg("%s has no column %s", k->name, header);
	return (-1);
}

static void
put(struct rows *r, const char *json)
{
	cJSON	*v = cJSON_Parse(json);

	if (v == NULL)
		fail_msg("bad JSON in the test: %s", json);
	rows_put(r, v);
	cJSON_Delete(v);
}

/* An API Shield operation; requests < 0 leaves the thresholds out. */
static void
op(struct rows *r, const char *id, const char *method, const char *host,
    const char *endpoint, const char *updated, long requests)
{
	struct buf	b = BUF_INITIALIZER;

	buf_addf(&b, "{\"operation_id\":\"%s\",\"method\":\"%s\","
	    "\"host\":\"%s\",\"endpoint\":\"%s\",\"last_updated\":\"%s\"",
	    id, method, host, endpoint, updated);
	if (requests >= 0)
		buf_addf(&b, ",\"features\":{\"thresholds\":{"
		    "\"suggested_threshold\":%ld,\"requests\":%ld}}",
		    requests / 100, requests);
	buf_addc(&b, '}');
	put(r, buf_str(&b));
	buf_free(&b);
}

/* The view's ids, space-separated ("-" for a row without one). */
static const char *
ids(const struct rows *r)
{
	static char	out[4096];
	size_t		i, o = 0;
	const char	*id;

	out[0] = '\0';
	for (i = 0; i < rows_count(r); i++) {
		id = rows_id(r, i);
		o += snprintf(out + o, sizeof out - o, "%s%s", i ? " " : "",
		    id != NULL ? id : "-");
		assert_true(o < sizeof out);
	}
	return (out);
}

/* The view's cells of one column, space-separated. */
static const char *
cells(const struct rows *r, int c)
{
	static char	out[4096];
	size_t		i, o = 0;

	out[0] = '\0';
	for (i = 0; i < rows_count(r); i++) {
		o += snprintf(out + o, sizeof out - o, "%s%s", i ? " " : "",
		    rows_cell(r, i, c));
		assert_true(o < sizeof out);
	}
	return (out);
}

#define T0	"2026-03-02T13:00:00Z"

/* Five operations on three hosts, in this server order. */
static struct rows *
five_ops(void)
{
	struct rows	*r = store(&kind_operations);

	op(r, "a", "GET", "api.example.com", "/v1/users", T0, 1200);
	op(r, "b", "POST", "shop.example.com", "/cart", T0, 90);
	op(r, "c", "GET", "api.example.com", "/v1/orders", T0, 30000);
	op(r, "d", "DELETE", "admin.example.com", "/v1/users/{id}", T0, 500);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	return (r);
}

/* ---- put, replace, remove ----------------------------------------------- */

static void
test_put_replace(void **state)
{
	struct rows	*r = five_ops();
	cJSON		*v;

	(void)state;
	assert_int_equal(rows_total(r), 5);
	assert_int_equal(rows_count(r), 5);
	assert_string_equal(ids(r), "a b c d e");
	assert_string_equal(rows_cell(r, 0, col(&kind_operations, "METHOD")),
	    "GET");
	assert_string_equal(rows_cell(r, 0, col(&kind_operations,
	    "LAST UPDATED")), "2026-03-02 13:00");
	assert_string_equal(rows_cell(r, 2, col(&kind_operations,
	    "REQUESTS")), "30,000");
	assert_string_equal(rows_cell(r, 2, col(&kind_operations, "ID")), "c");

	/* The same id again replaces the record where it stands. */
	op(r, "b", "PATCH", "shop.example.com", "/basket", T0, 91);
	assert_int_equal(rows_total(r), 5);
	assert_string_equal(ids(r), "a b c d e");
	assert_string_equal(rows_cell(r, 1, col(&kind_operations,
	    "ENDPOINT")), "/basket");
	assert_non_null(strstr(rows_json(r, 1), "\"/basket\""));
	assert_null(strchr(rows_json(r, 1), '\n'));
	v = rows_record(r, 1);
	assert_string_equal(cJSON_GetObjectItem(v, "method")->valuestring,
	    "PATCH");
	cJSON_Delete(v);

	/* A missing value shows "-". */
	op(r, "f", "GET", "api.example.com", "/ping", T0, -1);
	assert_string_equal(rows_cell(r, 5, col(&kind_operations,
	    "REQUESTS")), "-");

	assert_int_equal(rows_remove(r, "b"), 0);
	assert_int_equal(rows_remove(r, "b"), -1);
	assert_int_equal(rows_remove(r, "nope"), -1);
	assert_string_equal(ids(r), "a c d e f");
	assert_int_equal(rows_total(r), 5);
	assert_true(rows_memory(r) > 0);

	rows_clear(r);
	assert_int_equal(rows_total(r), 0);
	assert_int_equal(rows_count(r), 0);
	assert_int_equal(rows_find(r, "a"), -1);
	op(r, "a", "GET", "api.example.com", "/again", T0, 1);
	assert_string_equal(ids(r), "a");
	rows_free(r);
}

/* ---- refresh ------------------------------------------------------------ */

static void
test_refresh(void **state)
{
	struct rows	*r = five_ops();

	(void)state;
	/* b and d were deleted elsewhere; c changed; g is new. */
	rows_begin(r);
	op(r, "a", "GET", "api.example.com", "/v1/users", T0, 1200);
	op(r, "g", "GET", "new.example.com", "/new", T0, 1);
	op(r, "c", "GET", "api.example.com", "/v2/orders", T0, 30000);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	assert_int_equal(rows_total(r), 6);
	assert_int_equal(rows_end(r), 2);
	assert_int_equal(rows_total(r), 4);
	/* The list follows the answer: g, new, where the server put it. */
	assert_string_equal(ids(r), "a g c e");
	assert_string_equal(rows_cell(r, 2, col(&kind_operations,
	    "ENDPOINT")), "/v2/orders");
	assert_int_equal(rows_find(r, "b"), -1);
	assert_int_equal(rows_find(r, "d"), -1);

	/* Without new records, rows keep their places (no reordering). */
	rows_begin(r);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	op(r, "c", "GET", "api.example.com", "/v2/orders", T0, 30000);
	op(r, "a", "GET", "api.example.com", "/v1/users", T0, 1200);
	op(r, "g", "GET", "new.example.com", "/new", T0, 1);
	assert_int_equal(rows_end(r), 0);
	assert_string_equal(ids(r), "a g c e");

	/* Nothing gone, nothing removed; b can come back. */
	rows_begin(r);
	op(r, "a", "GET", "api.example.com", "/v1/users", T0, 1200);
	op(r, "c", "GET", "api.example.com", "/v2/orders", T0, 30000);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	op(r, "g", "GET", "new.example.com", "/new", T0, 1);
	op(r, "b", "POST", "shop.example.com", "/cart", T0, 90);
	assert_int_equal(rows_end(r), 0);
	assert_string_equal(ids(r), "a c e g b");

	/* An empty answer empties the list. */
	rows_begin(r);
	assert_int_equal(rows_end(r), 5);
	assert_int_equal(rows_total(r), 0);
	rows_free(r);
}

/* ---- filter ------------------------------------------------------------- */

static void
test_filter(void **state)
{
	struct rows	*r = five_ops();

	(void)state;
	assert_string_equal(rows_filter_text(r), "");
	/* Any column, without case. */
	rows_filter(r, "USERS");
	assert_string_equal(ids(r), "a d");
	assert_int_equal(rows_total(r), 5);
	assert_string_equal(rows_filter_text(r), "USERS");
	rows_filter(r, "!users");
	assert_string_equal(ids(r), "b c e");
	rows_filter(r, "delete");
	assert_string_equal(ids(r), "d");
	/* Filtered out, still stored: found by rows_has, not rows_find. */
	assert_int_equal(rows_find(r, "a"), -1);
	assert_true(rows_has(r, "a"));
	assert_false(rows_has(r, "z"));
	assert_false(rows_has(r, NULL));
	/* The cells as shown, not the JSON behind them. */
	rows_filter(r, "30,0");
	assert_string_equal(ids(r), "c");
	rows_filter(r, "operation_id");
	assert_string_equal(ids(r), "");
	/* No match across two cells ("GET" then the host). */
	rows_filter(r, "getapi");
	assert_string_equal(ids(r), "");

	/* Typing on narrows; deleting widens again. */
	rows_filter(r, "s");
	assert_string_equal(ids(r), "a b c d e");
	rows_filter(r, "sh");
	assert_string_equal(ids(r), "b e");
	rows_filter(r, "sho");
	assert_string_equal(ids(r), "b e");
	rows_filter(r, "shop.example.com/");
	assert_string_equal(ids(r), "");
	rows_filter(r, "sh");
	assert_string_equal(ids(r), "b e");
	rows_filter(r, "/v1");
	assert_string_equal(ids(r), "a c d");
	rows_filter(r, "/v1/u");
	assert_string_equal(ids(r), "a d");
	/* "!ab" keeps more than "!a": not a narrowing. */
	rows_filter(r, "!s");
	assert_string_equal(ids(r), "");
	rows_filter(r, "!sh");
	assert_string_equal(ids(r), "a c d");
	rows_filter(r, "!");
	assert_string_equal(ids(r), "a b c d e");

	rows_filter(r, "");
	assert_int_equal(rows_count(r), 5);
	rows_filter(r, "cart");
	rows_filter(r, NULL);
	assert_string_equal(ids(r), "a b c d e");
	assert_string_equal(rows_filter_text(r), "");
	rows_free(r);
}

/*
 * Typing a long filter one character at a time and deleting it again
 * shows at each step what that filter shows when set anew.
 */
static void
test_filter_typing(void **state)
{
	const char	*word =
	    "/v1/users/{id}/settings/notifications/email/x";
	struct rows	*typed = five_ops(), *fresh = five_ops();
	char		 text[64], id[16];
	size_t		 len = strlen(word), k;
	char		*want;

	(void)state;
	/* Rows that stop matching one after the other, past 32 steps. */
	for (k = 30; k <= len; k += 2) {
		snprintf(text, sizeof text, "%.*s", (int)k, word);
		snprintf(id, sizeof id, "f%zu", k);
		op(typed, id, "GET", "api.example.com", text, T0, 1);
		op(fresh, id, "GET", "api.example.com", text, T0, 1);
	}
	for (k = 1; k < 2 * len; k++) {
		snprintf(text, sizeof text, "%.*s",
		    (int)(k <= len ? k : 2 * len - k), word);
		rows_filter(typed, text);
		rows_filter(fresh, NULL);
		rows_filter(fresh, text);
		want = xstrdup(ids(fresh));
		if (strcmp(ids(typed), want) != 0)
			fail_msg("\"%s\": %s, want %s", text, ids(typed), want);
		free(want);
	}
	rows_free(typed);
	rows_free(fresh);
}

/* A change between two keystrokes shows when a character is deleted. */
static void
test_filter_steps_change(void **state)
{
	struct rows	*r = five_ops();

	(void)state;
	rows_filter(r, "c");
	rows_filter(r, "ca");
	assert_string_equal(ids(r), "b e");
	rows_filter(r, "car");
	assert_string_equal(ids(r), "b e");
	op(r, "f", "GET", "api.example.com", "/cat", T0, 1);
	assert_string_equal(ids(r), "b e");
	rows_filter(r, "ca");
	assert_string_equal(ids(r), "b e f");
	rows_filter(r, "car");
	rows_sort(r, col(&kind_operations, "ENDPOINT"), 1);
	assert_string_equal(ids(r), "e b");
	rows_filter(r, "ca");
	assert_string_equal(ids(r), "f e b");
	assert_int_equal(rows_remove(r, "e"), 0);
	rows_filter(r, "c");
	assert_string_equal(ids(r), "d a c f b");
	rows_free(r);
}

/* Records that come in while a filter is on go where they belong. */
static void
test_filter_live(void **state)
{
	struct rows	*r = five_ops();

	(void)state;
	rows_filter(r, "api");
	assert_string_equal(ids(r), "a c");
	op(r, "f", "GET", "api.example.com", "/v1/f", T0, 1);
	op(r, "g", "GET", "other.example.com", "/v1/g", T0, 1);
	assert_string_equal(ids(r), "a c f");
	/* A record that stops matching leaves, one that starts joins. */
	op(r, "c", "GET", "moved.example.com", "/v1/orders", T0, 1);
	op(r, "b", "POST", "api.example.com", "/cart", T0, 90);
	assert_string_equal(ids(r), "a b f");
	assert_int_equal(rows_remove(r, "a"), 0);
	assert_string_equal(ids(r), "b f");
	/* Narrowing still sees them. */
	rows_filter(r, "api.");
	assert_string_equal(ids(r), "b f");
	rows_filter(r, NULL);
	assert_string_equal(ids(r), "b c d e f g");

	/* A refresh under a filter. */
	rows_filter(r, "shop");
	rows_begin(r);
	op(r, "b", "POST", "api.example.com", "/cart", T0, 90);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	op(r, "h", "PUT", "shop.example.com", "/h", T0, 90);
	assert_int_equal(rows_end(r), 4);
	assert_string_equal(ids(r), "e h");
	rows_filter(r, NULL);
	assert_string_equal(ids(r), "b e h");
	rows_free(r);
}

/* ---- sort --------------------------------------------------------------- */

static void
test_sort_text(void **state)
{
	struct rows	*r = store(&kind_operations);
	int		 host = col(&kind_operations, "HOST"), desc;

	(void)state;
	op(r, "1", "GET", "gamma.example.com", "/", T0, 1);
	op(r, "2", "GET", "Beta.example.com", "/", T0, 1);
	op(r, "3", "GET", "alpha.example.com", "/", T0, 1);
	op(r, "4", "GET", "beta.example.com", "/", T0, 1);
	op(r, "5", "GET", "ALPHA.example.com", "/", T0, 1);
	assert_int_equal(rows_sort_column(r, &desc), -1);

	/* Case does not count; equal ones keep the server's order. */
	rows_sort(r, host, 0);
	assert_string_equal(ids(r), "3 5 2 4 1");
	assert_int_equal(rows_sort_column(r, &desc), host);
	assert_int_equal(desc, 0);
	rows_sort(r, host, 1);
	assert_string_equal(ids(r), "1 2 4 3 5");
	assert_int_equal(rows_sort_column(r, &desc), host);
	assert_int_equal(desc, 1);

	/* New and changed records go to their sorted place. */
	op(r, "6", "GET", "delta.example.com", "/", T0, 1);
	op(r, "1", "GET", "aardvark.example.com", "/", T0, 1);
	assert_string_equal(ids(r), "6 2 4 3 5 1");

	rows_sort(r, -1, 0);
	assert_string_equal(ids(r), "1 2 3 4 5 6");
	rows_sort(r, -1, 1);
	assert_string_equal(ids(r), "6 5 4 3 2 1");
	rows_free(r);
}

static void
test_sort_number(void **state)
{
	struct rows	*r = store(&kind_operations);
	int		 req = col(&kind_operations, "REQUESTS");

	(void)state;
	op(r, "1", "GET", "h", "/", T0, 200);
	op(r, "2", "GET", "h", "/", T0, 1000);
	op(r, "3", "GET", "h", "/", T0, -1);
	op(r, "4", "GET", "h", "/", T0, 30);
	op(r, "5", "GET", "h", "/", T0, 200);
	op(r, "6", "GET", "h", "/", T0, 1000000);

	/* By value, not as text ("1,000" < "200" as text); ties stay in
	 * the server's order; no value last, whichever the direction. */
	rows_sort(r, req, 0);
	assert_string_equal(ids(r), "4 1 5 2 6 3");
	rows_sort(r, req, 1);
	assert_string_equal(ids(r), "6 2 1 5 4 3");
	assert_string_equal(cells(r, req), "1,000,000 1,000 200 200 30 -");

	op(r, "7", "GET", "h", "/", T0, 250);
	op(r, "8", "GET", "h", "/", T0, -1);
	op(r, "9", "GET", "h", "/", T0, 200);
	assert_string_equal(ids(r), "6 2 7 1 5 9 4 3 8");
	rows_free(r);
}

static void
test_sort_time(void **state)
{
	struct rows	*r = store(&kind_operations);
	int		 t = col(&kind_operations, "LAST UPDATED");

	(void)state;
	/* 10:00+02:00 is 08:00Z, before 09:00Z though it reads later. */
	op(r, "1", "GET", "h", "/", "2026-01-01T09:00:00Z", 1);
	op(r, "2", "GET", "h", "/", "2026-01-01T10:00:00+02:00", 1);
	op(r, "3", "GET", "h", "/", "2025-12-31T23:59:59.999Z", 1);
	op(r, "4", "GET", "h", "/", "not a time", 1);
	op(r, "5", "GET", "h", "/", "2026-01-01T09:00:00.000Z", 1);
	rows_sort(r, t, 0);
	assert_string_equal(ids(r), "3 2 1 5 4");
	rows_sort(r, t, 1);
	assert_string_equal(ids(r), "1 5 2 3 4");
	rows_free(r);
}

/* Rate limits: a rate by its threshold, counts of arrays, numbers. */
static void
test_sort_rate_limits(void **state)
{
	struct rows	*r = store(&kind_rate_limits);
	int		 rate = col(&kind_rate_limits, "RATE");
	int		 bypass = col(&kind_rate_limits, "BYPASS");
	int		 mode = col(&kind_rate_limits, "MODE");

	(void)state;
	put(r, "{\"id\":\"r1\",\"threshold\":50,\"period\":60,"
	    "\"action\":{\"mode\":\"simulate\"},\"bypass\":[{},{}]}");
	put(r, "{\"id\":\"r2\",\"threshold\":5,\"period\":3600,"
	    "\"action\":{\"mode\":\"ban\"},\"bypass\":[]}");
	put(r, "{\"id\":\"r3\",\"threshold\":\"7\",\"period\":10,"
	    "\"action\":{\"mode\":\"challenge\"},\"bypass\":[{},{},{}]}");
	assert_string_equal(cells(r, rate), "50/1m 5/1h 7/10s");
	rows_sort(r, rate, 0);
	assert_string_equal(ids(r), "r2 r3 r1");
	rows_sort(r, bypass, 1);
	assert_string_equal(ids(r), "r3 r1 r2");
	rows_sort(r, mode, 0);
	assert_string_equal(ids(r), "r2 r3 r1");
	rows_free(r);
}

/* Videos: percentages sent as strings sort as numbers. */
static void
test_sort_videos(void **state)
{
	struct rows	*r = store(&kind_videos);
	int		 pct = col(&kind_videos, "PCT");
	int		 size = col(&kind_videos, "SIZE");

	(void)state;
	put(r, "{\"uid\":\"v1\",\"status\":{\"pctComplete\":\"45.5\"},"
	    "\"size\":2000000}");
	put(r, "{\"uid\":\"v2\",\"status\":{\"pctComplete\":\"100\"},"
	    "\"size\":999}");
	put(r, "{\"uid\":\"v3\",\"status\":{\"pctComplete\":\"9\"},"
	    "\"size\":1500}");
	rows_sort(r, pct, 0);
	assert_string_equal(ids(r), "v3 v1 v2");
	assert_string_equal(cells(r, pct), "9% 46% 100%");
	rows_sort(r, size, 0);
	assert_string_equal(ids(r), "v2 v3 v1");
	rows_free(r);
}

/* ---- the cursor's row --------------------------------------------------- */

static void
test_find(void **state)
{
	struct rows	*r = five_ops();

	(void)state;
	assert_int_equal(rows_find(r, "c"), 2);
	assert_int_equal(rows_find(r, "zz"), -1);
	assert_int_equal(rows_find(r, NULL), -1);
	rows_sort(r, col(&kind_operations, "REQUESTS"), 1);
	assert_string_equal(ids(r), "c a d b e");
	assert_int_equal(rows_find(r, "c"), 0);
	assert_int_equal(rows_find(r, "e"), 4);
	rows_filter(r, "shop");
	assert_int_equal(rows_find(r, "e"), 1);
	assert_int_equal(rows_find(r, "c"), -1);
	rows_begin(r);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	op(r, "x", "PUT", "shop.example.com", "/x", T0, 5000);
	rows_end(r);
	assert_string_equal(ids(r), "x e");
	assert_int_equal(rows_find(r, "e"), 1);
	assert_int_equal(rows_find(r, "b"), -1);
	rows_free(r);
}

/* Discovered operations sort by their traffic per hour, not per period. */
static void
test_sort_per_hour(void **state)
{
	struct rows	*r = store(&kind_discovered_operations);

	(void)state;
	rows_begin(r);
	put(r, "{\"id\":\"a\",\"features\":{\"traffic_stats\":"
	    "{\"requests\":1000,\"period_seconds\":3600}}}");
	put(r, "{\"id\":\"b\",\"features\":{\"traffic_stats\":"
	    "{\"requests\":100,\"period_seconds\":60}}}");
	put(r, "{\"id\":\"c\",\"features\":{\"traffic_stats\":"
	    "{\"requests\":2000,\"period_seconds\":3600}}}");
	put(r, "{\"id\":\"d\"}");
	rows_end(r);
	rows_sort(r, col(&kind_discovered_operations, "REQ/H"), 1);
	assert_string_equal(ids(r), "b c a d");
	assert_string_equal(rows_cell(r, 0, (size_t)col(
	    &kind_discovered_operations, "REQ/H")), "6000");
	rows_free(r);
}

/* ---- marks -------------------------------------------------------------- */

static int
has_id(const char **list, size_t n, const char *id)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(list[i], id) == 0)
			return (1);
	}
	return (0);
}

static void
test_marks(void **state)
{
	struct rows	 *r = five_ops();
	const char	**list;
	size_t		  n;

	(void)state;
	rows_mark(r, 0, 1);
	rows_mark_toggle(r, 2);
	assert_int_equal(rows_mark_count(r), 2);
	assert_true(rows_marked(r, 0));
	assert_false(rows_marked(r, 1));

	/* Sorting moves them with their rows. */
	rows_sort(r, col(&kind_operations, "REQUESTS"), 1);
	assert_true(rows_marked(r, (size_t)rows_find(r, "a")));
	assert_true(rows_marked(r, (size_t)rows_find(r, "c")));
	assert_false(rows_marked(r, (size_t)rows_find(r, "b")));

	/* A hidden row stays marked. */
	rows_filter(r, "users");
	assert_string_equal(ids(r), "a d");
	assert_int_equal(rows_mark_count(r), 2);
	list = rows_marked_ids(r, &n);
	assert_int_equal(n, 2);
	assert_true(has_id(list, n, "a") && has_id(list, n, "c"));
	free(list);

	/* Marking all marks what the view shows. */
	rows_mark_all(r, 1);
	assert_int_equal(rows_mark_count(r), 3);
	rows_filter(r, NULL);
	assert_true(rows_marked(r, (size_t)rows_find(r, "d")));
	assert_false(rows_marked(r, (size_t)rows_find(r, "e")));

	/* A refresh keeps the marks of the records still there. */
	rows_begin(r);
	op(r, "a", "GET", "api.example.com", "/v1/users", T0, 1);
	op(r, "b", "POST", "shop.example.com", "/cart", T0, 90);
	op(r, "c", "GET", "api.example.com", "/v1/orders", T0, 30000);
	op(r, "e", "PUT", "shop.example.com", "/cart/items", T0, 90);
	assert_int_equal(rows_end(r), 1);
	assert_int_equal(rows_mark_count(r), 2);
	assert_true(rows_marked(r, (size_t)rows_find(r, "a")));
	assert_true(rows_marked(r, (size_t)rows_find(r, "c")));
	list = rows_marked_ids(r, &n);
	assert_int_equal(n, 2);
	assert_true(has_id(list, n, "a") && has_id(list, n, "c"));
	free(list);

	rows_mark_toggle(r, (size_t)rows_find(r, "a"));
	assert_int_equal(rows_mark_count(r), 1);
	assert_int_equal(rows_remove(r, "c"), 0);
	assert_int_equal(rows_mark_count(r), 0);
	list = rows_marked_ids(r, &n);
	assert_int_equal(n, 0);
	assert_null(list[0]);
	free(list);
	rows_mark_all(r, 1);
	assert_int_equal(rows_mark_count(r), 3);
	rows_mark_all(r, 0);
	assert_int_equal(rows_mark_count(r), 0);
	rows_free(r);
}

/* ---- what cells show ---------------------------------------------------- */

static void
test_cells_safe(void **state)
{
	struct rows	*r = store(&kind_operations);
	size_t		 i, ncols = 0;

	(void)state;
	put(r, "{\"operation_id\":\"x\\u001b[2J\",\"method\":\"GET\","
	    "\"host\":\"h\\u001b]0;title\\u0007.com\","
	    "\"endpoint\":\"/a\\u001b[2J\\u009b31m\\u202e/b\\r\\n\","
	    "\"last_updated\":\"\\u001b[2J\"}");
	while (kind_operations.columns[ncols].header != NULL)
		ncols++;
	for (i = 0; i < ncols; i++) {
		if (strpbrk(rows_cell(r, 0, i), "\x1b\x07\r\n") != NULL)
			fail_msg("column %zu: \"%s\"", i, rows_cell(r, 0, i));
		assert_null(strstr(rows_cell(r, 0, i), "\xc2\x9b"));
		assert_null(strstr(rows_cell(r, 0, i), "\xe2\x80\xae"));
	}
	assert_string_equal(rows_cell(r, 0, col(&kind_operations,
	    "ENDPOINT")), "/a?[2J?31m?/b??");
	/* The id itself is kept as sent: it goes back into API paths. */
	assert_string_equal(rows_id(r, 0), "x\x1b[2J");
	assert_int_equal(rows_find(r, "x\x1b[2J"), 0);
	rows_free(r);
}

static void
test_secrets(void **state)
{
	const struct kind_column	 pem = { .header = "PEM",
	    .path = "pem" };
	const struct kind_column	*cols[2];
	struct rows			*r;

	(void)state;
	r = store(&kind_webhook);
	put(r, "{\"notificationUrl\":\"https://hook.example.com/\","
	    "\"secret\":\"78d6de2ad9d7\"}");
	assert_string_equal(rows_cell(r, 0, col(&kind_webhook, "SECRET")),
	    "********");
	/* The filter sees the cells: a secret cannot be found by typing. */
	rows_filter(r, "78d6");
	assert_int_equal(rows_count(r), 0);
	rows_filter(r, "hook.example");
	assert_int_equal(rows_count(r), 1);
	rows_free(r);

	/* A column of the caller's own on a secret field. */
	cols[0] = kind_column_find(&kind_signing_keys, "ID");
	cols[1] = &pem;
	r = rows_new(&kind_signing_keys, cols, 2);
	put(r, "{\"id\":\"k1\",\"pem\":\"LS0tLS1CRUdJTg==\"}");
	put(r, "{\"id\":\"k2\",\"pem\":\"AAAA\"}");
	assert_string_equal(rows_cell(r, 0, 1), "********");
	/* Sorting by it tells nothing about the values. */
	rows_sort(r, 1, 1);
	assert_string_equal(ids(r), "k1 k2");
	rows_free(r);
}

/* A kind without ids: every put adds, a refresh replaces them all. */
static void
test_no_id(void **state)
{
	struct rows	*r = store(&kind_webhook);

	(void)state;
	put(r, "{\"notificationUrl\":\"https://a.example.com/\"}");
	put(r, "{\"notificationUrl\":\"https://b.example.com/\"}");
	assert_int_equal(rows_total(r), 2);
	assert_null(rows_id(r, 0));
	assert_int_equal(rows_find(r, NULL), -1);
	assert_int_equal(rows_remove(r, "https://a.example.com/"), -1);

	/* Marks go by id: these rows cannot take one. */
	rows_mark(r, 0, 1);
	rows_mark_all(r, 1);
	assert_false(rows_marked(r, 0));
	assert_int_equal(rows_mark_count(r), 0);

	rows_begin(r);
	put(r, "{\"notificationUrl\":\"https://c.example.com/\"}");
	assert_int_equal(rows_end(r), 2);
	assert_int_equal(rows_total(r), 1);
	assert_string_equal(rows_cell(r, 0, col(&kind_webhook, "URL")),
	    "https://c.example.com/");
	rows_sort(r, col(&kind_webhook, "URL"), 1);
	put(r, "{\"notificationUrl\":\"https://d.example.com/\"}");
	assert_string_equal(cells(r, col(&kind_webhook, "URL")),
	    "https://d.example.com/ https://c.example.com/");
	rows_free(r);
}

/* ---- the view kept up to date equals one built anew --------------------- */

static uint32_t	seed = 1;

static uint32_t
rnd(uint32_t n)
{
	seed = seed * 1103515245 + 12345;
	return ((seed >> 16) % n);
}

static void
random_op(struct rows *r)
{
	static const char *const hosts[] = {
		"api.example.com", "API.example.com", "shop.example.com"
	};
	static const char *const times[] = {
		"2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "bad"
	};
	char	id[16], endpoint[32];
	long	req;

	snprintf(id, sizeof id, "op%u", rnd(60));
	snprintf(endpoint, sizeof endpoint, "/v%u/%s", rnd(3),
	    rnd(2) ? "users" : "Orders");
	req = rnd(5) == 0 ? -1 : (long)rnd(4) * 100;
	op(r, id, rnd(2) ? "GET" : "post", hosts[rnd(3)], endpoint,
	    times[rnd(3)], req);
}

static void
test_incremental(void **state)
{
	static const char *const filters[] = { "", "api", "!users", "v1/u" };
	struct rows	*r;
	char		*kept;
	char		 id[16];
	int		 c, ncols = 0, desc, round;
	size_t		 f;

	(void)state;
	while (kind_operations.columns[ncols].header != NULL)
		ncols++;
	for (c = -1; c < ncols; c++) {
		for (desc = 0; desc < 2; desc++) {
			for (f = 0; f < nitems(filters); f++) {
				r = store(&kind_operations);
				rows_sort(r, c, desc);
				rows_filter(r, filters[f]);
				for (round = 0; round < 300; round++) {
					if (rnd(10) == 0) {
						snprintf(id, sizeof id, "op%u",
						    rnd(60));
						rows_remove(r, id);
					} else
						random_op(r);
					if (round == 150)
						rows_begin(r);
				}
				rows_end(r);
				kept = xstrdup(ids(r));
				/* Built anew: every row, sorted, filtered. */
				rows_filter(r, NULL);
				rows_sort(r, c, desc);
				rows_filter(r, filters[f]);
				if (strcmp(kept, ids(r)) != 0)
					fail_msg("col %d desc %d \"%s\":\n"
					    "%s\n%s", c, desc, filters[f],
					    kept, ids(r));
				free(kept);
				rows_free(r);
			}
		}
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_put_replace),
		cmocka_unit_test(test_refresh),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_filter_typing),
		cmocka_unit_test(test_filter_steps_change),
		cmocka_unit_test(test_filter_live),
		cmocka_unit_test(test_sort_text),
		cmocka_unit_test(test_sort_number),
		cmocka_unit_test(test_sort_time),
		cmocka_unit_test(test_sort_rate_limits),
		cmocka_unit_test(test_sort_videos),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_sort_per_hour),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_cells_safe),
		cmocka_unit_test(test_secrets),
		cmocka_unit_test(test_no_id),
		cmocka_unit_test(test_incremental),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
