/*
 * The videos list of a large library, as the console's lazy list reads
 * it: --demo-videos seeds once, include_counts' total and range agree with
 * the pages walked by the created cursor (end=, or start= with asc), the
 * counts follow deletes and restarts, and search, creator and status are
 * filtered by the server (search's % and _ are literal).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "itest.h"

#define LAZY_SEEDED	3000
#define LAZY_DEMO	50		/* --demo-data's own videos */
#define LAZY_TOTAL	(LAZY_SEEDED + LAZY_DEMO)

static char *
lazy_path(struct edgemu *e, const char *query)
{
	return (itest_printf("/accounts/%s/stream?include_counts=true%s",
	    e->account, query));
}

/* One page: its videos (a copy), total and range. */
static cJSON *
lazy_page(struct edgemu *e, const char *query, long *total, long *range)
{
	struct http_resp	 hr;
	cJSON			*list;
	char			*path = lazy_path(e, query);

	http_json(e, "GET", path, NULL, &hr);
	assert_int_equal(hr.status, 200);
	*total = (long)cJSON_GetObjectItem(hr.json, "total")->valuedouble;
	*range = (long)cJSON_GetObjectItem(hr.json, "range")->valuedouble;
	list = cJSON_Duplicate(cJSON_GetObjectItem(hr.json, "result"), 1);
	http_resp_free(&hr);
	free(path);
	return (list);
}

static long
lazy_total(struct edgemu *e, const char *query)
{
	cJSON	*list;
	long	 total, range;

	list = lazy_page(e, query, &total, &range);
	cJSON_Delete(list);
	return (total);
}

static int
lazy_start(void **state)
{
	struct edgemu	*e = calloc(1, sizeof *e);

	edgemu_start(e, NULL, 1, "--demo-videos", "3000", NULL);
	*state = e;
	return (0);
}

static int
lazy_stop(void **state)
{
	edgemu_finish(*state);
	free(*state);
	return (0);
}

/*
 * Pages of 500 by end= (or start= with asc): each total is what is left
 * from the window on, range what is left after the page, and the pages
 * hold every video once.
 */
static void
lazy_walk(struct edgemu *e, int asc)
{
	cJSON		*list, *last;
	char		*query = NULL, **seen;
	const char	*uid, *created;
	long		 total, range, left = LAZY_TOTAL, n = 0, i, k;

	seen = calloc(LAZY_TOTAL, sizeof *seen);
	for (k = 0; k < 20 && left > 0; k++) {
		list = lazy_page(e, query != NULL ? query : asc ?
		    "&asc=true&limit=500" : "&limit=500", &total, &range);
		assert_int_equal(total, left);
		assert_int_equal(range, left - cJSON_GetArraySize(list));
		for (i = 0; i < cJSON_GetArraySize(list); i++) {
			uid = cJSON_GetObjectItem(cJSON_GetArrayItem(list, i),
			    "uid")->valuestring;
			for (long j = 0; j < n; j++)
				assert_string_not_equal(seen[j], uid);
			assert_true(n < LAZY_TOTAL);
			seen[n++] = strdup(uid);
		}
		left = range;
		last = cJSON_GetArrayItem(list, cJSON_GetArraySize(list) - 1);
		created = cJSON_GetObjectItem(last, "created")->valuestring;
		free(query);
		query = itest_printf("&limit=500&%s=%s", asc ? "asc=true&start" :
		    "end", created);
		cJSON_Delete(list);
	}
	assert_int_equal(n, LAZY_TOTAL);
	assert_int_equal(left, 0);
	for (i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
	free(query);
}

static void
test_walk(void **state)
{
	lazy_walk(*state, 0);
	lazy_walk(*state, 1);
}

/* A window between start and end counts what lies strictly inside. */
static void
test_window(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*list;
	char		*q;
	const char	*a, *b;
	long		 total, range;

	list = lazy_page(e, "&limit=1000", &total, &range);
	a = cJSON_GetObjectItem(cJSON_GetArrayItem(list, 899),
	    "created")->valuestring;
	b = cJSON_GetObjectItem(cJSON_GetArrayItem(list, 100),
	    "created")->valuestring;
	q = itest_printf("&start=%s&end=%s", a, b);
	assert_int_equal(lazy_total(e, q), 798);
	free(q);
	q = itest_printf("&start=%s&end=%s", b, a);
	assert_int_equal(lazy_total(e, q), 0);
	free(q);
	cJSON_Delete(list);
}

/* Filters are the server's: search, creator, status, and their counts. */
static void
test_filters(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*list;
	long		 total, range;

	/* "#1234.mp4" and "#1234" in names "Topic: subject #N.mp4". */
	list = lazy_page(e, "&search=%231234.MP4", &total, &range);
	assert_int_equal(total, 1);
	assert_int_equal(cJSON_GetArraySize(list), 1);
	cJSON_Delete(list);
	assert_int_equal(lazy_total(e, "&search=%23123"), 11);
	/* % and _ are what they are, not LIKE's wildcards. */
	assert_int_equal(lazy_total(e, "&search=%23123%25"), 0);
	assert_int_equal(lazy_total(e, "&search=%231_3"), 0);
	/* 3000 seeded over eight creators, academy the sixth. */
	assert_int_equal(lazy_total(e, "&creator=academy"), 375);
	assert_int_equal(lazy_total(e, "&creator=academy&search=%23100"),
	    lazy_total(e, "&search=%23100&creator=academy"));
	/* Every seeded video is ready; the demo's are in every state. */
	assert_true(lazy_total(e, "&status=ready") >= LAZY_SEEDED);
	assert_true(lazy_total(e, "&status=ready") < LAZY_TOTAL);
	assert_int_equal(lazy_total(e, "&status=ready") +
	    lazy_total(e, "&status=error") +
	    lazy_total(e, "&status=queued") +
	    lazy_total(e, "&status=inprogress") +
	    lazy_total(e, "&status=pendingupload"), LAZY_TOTAL);
	/* A page is limit videos, newest first, at most 1000. */
	list = lazy_page(e, "&limit=100", &total, &range);
	assert_int_equal(cJSON_GetArraySize(list), 100);
	assert_int_equal(range, LAZY_TOTAL - 100);
	cJSON_Delete(list);
}

/* The unfiltered count follows a delete and survives a restart. */
static void
test_count_kept(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*list, *r;
	char		*path;
	long		 total, range;

	list = lazy_page(e, "&limit=1", &total, &range);
	path = itest_printf("/accounts/%s/stream/%s", e->account,
	    cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "uid")->valuestring);
	r = api_ok(e, "DELETE", path, NULL);
	cJSON_Delete(r);
	assert_int_equal(lazy_total(e, ""), LAZY_TOTAL - 1);
	/* Seeded once per store: the same N again adds nothing. */
	edgemu_kill(e, 15);
	edgemu_restart(e);
	assert_int_equal(lazy_total(e, ""), LAZY_TOTAL - 1);
	/* The seeded names and the demo's "tips #12". */
	assert_int_equal(lazy_total(e, "&search=%23"), LAZY_SEEDED + 1);
	cJSON_Delete(list);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_walk, lazy_start,
		    lazy_stop),
		cmocka_unit_test_setup_teardown(test_window, lazy_start,
		    lazy_stop),
		cmocka_unit_test_setup_teardown(test_filters, lazy_start,
		    lazy_stop),
		cmocka_unit_test_setup_teardown(test_count_kept, lazy_start,
		    lazy_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
