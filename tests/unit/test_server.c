/*
 * Unit tests for the envelope writer, the routing table, the transaction
 * of write routes and the store's one-value reads.
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

#include "apirules.h"
#include "server.h"
#include "store.h"
#include "testdir.h"
#include "util.h"
#include "video.h"
#include "xmalloc.h"

static cJSON *
envelope_of(const struct reply *r)
{
	char	*s = reply_envelope(r, NULL);
	cJSON	*v = cJSON_Parse(s);

	assert_non_null(v);
	free(s);
	return (v);
}

static void
test_success_envelope(void **state)
{
	struct reply	 r;
	cJSON		*env, *res;

	(void)state;
	memset(&r, 0, sizeof r);
	res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "id", "x");
	reply_ok(&r, res);
	env = envelope_of(&r);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(env, "success")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(env,
	    "errors")), 0);
	assert_true(cJSON_IsArray(cJSON_GetObjectItem(env, "messages")));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(env,
	    "result"), "id")->valuestring, "x");
	/* Only paged lists carry result_info. */
	assert_null(cJSON_GetObjectItem(env, "result_info"));
	cJSON_Delete(env);
	reply_free(&r);

	/* A null result is written as null, not left out. */
	memset(&r, 0, sizeof r);
	reply_ok(&r, NULL);
	env = envelope_of(&r);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(env, "result")));
	cJSON_Delete(env);
	reply_free(&r);
}

static void
test_error_envelope(void **state)
{
	struct reply	 r;
	cJSON		*env, *e;

	(void)state;
	memset(&r, 0, sizeof r);
	reply_ok(&r, cJSON_CreateString("dropped"));
	reply_error(&r, 400, ERR_VALIDATION, "period: %d is out of range", 5);
	reply_add_error(&r, ERR_VALIDATION, "second");
	env = envelope_of(&r);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(env, "success")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(env, "result")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(env,
	    "errors")), 2);
	e = cJSON_GetArrayItem(cJSON_GetObjectItem(env, "errors"), 0);
	assert_int_equal(cJSON_GetObjectItem(e, "code")->valueint,
	    ERR_VALIDATION);
	assert_string_equal(cJSON_GetObjectItem(e, "message")->valuestring,
	    "period: 5 is out of range");
	assert_int_equal(r.status, 400);
	cJSON_Delete(env);
	reply_free(&r);
}

static void
test_paged_envelope(void **state)
{
	struct reply	 r;
	cJSON		*env, *arr, *info;
	int		 i;

	(void)state;
	memset(&r, 0, sizeof r);
	arr = cJSON_CreateArray();
	for (i = 0; i < 5; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(i));
	reply_page(&r, arr, 3, 20, 45);
	env = envelope_of(&r);
	info = cJSON_GetObjectItem(env, "result_info");
	assert_non_null(info);
	assert_int_equal(cJSON_GetObjectItem(info, "page")->valueint, 3);
	assert_int_equal(cJSON_GetObjectItem(info, "per_page")->valueint, 20);
	assert_int_equal(cJSON_GetObjectItem(info, "count")->valueint, 5);
	assert_int_equal(cJSON_GetObjectItem(info, "total_count")->valueint, 45);
	assert_int_equal(cJSON_GetObjectItem(info, "total_pages")->valueint, 3);
	cJSON_Delete(env);
	reply_free(&r);

	/* An empty list: zero pages, still an array. */
	memset(&r, 0, sizeof r);
	reply_page(&r, cJSON_CreateArray(), 1, 20, 0);
	env = envelope_of(&r);
	info = cJSON_GetObjectItem(env, "result_info");
	assert_int_equal(cJSON_GetObjectItem(info, "total_pages")->valueint, 0);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(env,
	    "result")), 0);
	cJSON_Delete(env);
	reply_free(&r);
}

/* Stream puts total and range beside result. */
static void
test_top_level_members(void **state)
{
	struct reply	 r;
	cJSON		*env;

	(void)state;
	memset(&r, 0, sizeof r);
	reply_ok(&r, cJSON_CreateArray());
	r.top = cJSON_CreateObject();
	cJSON_AddNumberToObject(r.top, "total", 50);
	cJSON_AddNumberToObject(r.top, "range", 10);
	env = envelope_of(&r);
	assert_int_equal(cJSON_GetObjectItem(env, "total")->valueint, 50);
	assert_int_equal(cJSON_GetObjectItem(env, "range")->valueint, 10);
	cJSON_Delete(env);
	reply_free(&r);
}

static void
handler_noop(struct req *req, struct reply *rep)
{
	(void)req;
	(void)rep;
}

static const struct route routes[] = {
	{ HTTP_GET, "/zones/{zone:hex32}/ops", handler_noop, ROUTE_BODY_NONE },
	{ HTTP_POST, "/zones/{zone:hex32}/ops", handler_noop, ROUTE_BODY_JSON },
	{ HTTP_GET, "/zones/{zone:hex32}/ops/{op:uuid}", handler_noop,
	    ROUTE_BODY_NONE },
	{ HTTP_POST, "/zones/{zone:hex32}/ops/item", handler_noop,
	    ROUTE_BODY_JSON },
	{ HTTP_GET, "/accounts/{account:hex32}/stream/keys", handler_noop,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, "/accounts/{account:hex32}/stream/{uid}", handler_noop,
	    ROUTE_BODY_NONE },
};

static const struct route *const table[] = {
	&routes[0], &routes[1], &routes[2], &routes[3], &routes[4], &routes[5]
};

#define Z "0123456789abcdef0123456789abcdef"
#define U "123e4567-e89b-42d3-a456-426614174000"

static enum route_match
lookup(enum http_method m, const char *path, const struct route **rt,
    struct req *req)
{
	return (route_lookup(table, nitems(table), m, path, rt, req));
}

static void
log_cut(const char *path, char *out, size_t size)
{
	(void)path;
	snprintf(out, size, "cut");
}

/*
 * A route's log hook: its own, else that of a route the path starts as
 * (up to the first parameter), else none.
 */
static void
test_route_log_hook(void **state)
{
	static const struct route	 hooked[] = {
		{ HTTP_GET, "/media/{ref}/watch", handler_noop,
		    ROUTE_BODY_NONE, ROUTE_ROOT, .log_path = log_cut },
		{ HTTP_GET, "/files/{name}", handler_noop, ROUTE_BODY_NONE,
		    ROUTE_ROOT },
	};
	const struct route *const	 t[] = { &hooked[0], &hooked[1] };

	(void)state;
	assert_ptr_equal(route_log_hook(&hooked[0], t, 2, "/media/x/watch"),
	    log_cut);
	assert_null(route_log_hook(&hooked[1], t, 2, "/files/x"));
	assert_ptr_equal(route_log_hook(NULL, t, 2, "/media/x/other"),
	    log_cut);
	assert_ptr_equal(route_log_hook(&hooked[1], t, 2, "/media/"),
	    log_cut);
	assert_null(route_log_hook(NULL, t, 2, "/medi"));
	assert_null(route_log_hook(NULL, t, 2, "/files/x"));
	assert_null(route_log_hook(NULL, t, 0, "/media/x/watch"));
}

static void
test_route_captures(void **state)
{
	const struct route	*rt;
	struct req		 req;

	(void)state;
	memset(&req, 0, sizeof req);
	assert_int_equal(lookup(HTTP_GET, "/zones/" Z "/ops/" U, &rt, &req),
	    ROUTE_FOUND);
	assert_ptr_equal(rt, &routes[2]);
	assert_string_equal(req_param(&req, "zone"), Z);
	assert_string_equal(req_param(&req, "op"), U);
	assert_null(req_param(&req, "zon"));
	assert_null(req_param(&req, "opx"));
	req_clear_params(&req);
}

static void
test_route_literal_beats_parameter(void **state)
{
	const struct route	*rt;
	struct req		 req;

	(void)state;
	memset(&req, 0, sizeof req);
	assert_int_equal(lookup(HTTP_POST, "/zones/" Z "/ops/item", &rt,
	    &req), ROUTE_FOUND);
	assert_ptr_equal(rt, &routes[3]);
	assert_int_equal(lookup(HTTP_GET, "/accounts/" Z "/stream/keys", &rt,
	    &req), ROUTE_FOUND);
	assert_ptr_equal(rt, &routes[4]);
	assert_int_equal(lookup(HTTP_GET, "/accounts/" Z "/stream/abc", &rt,
	    &req), ROUTE_FOUND);
	assert_ptr_equal(rt, &routes[5]);
	assert_string_equal(req_param(&req, "uid"), "abc");
	req_clear_params(&req);
}

static void
test_route_refusals(void **state)
{
	const struct route	*rt;
	struct req		 req;

	(void)state;
	memset(&req, 0, sizeof req);
	assert_int_equal(lookup(HTTP_GET, "/zones/" Z "/nothing", &rt, &req),
	    ROUTE_NO_PATH);
	assert_null(rt);
	assert_int_equal(lookup(HTTP_DELETE, "/zones/" Z "/ops", &rt, &req),
	    ROUTE_BAD_METHOD);
	/* HEAD is answered by a GET route. */
	assert_int_equal(lookup(HTTP_HEAD, "/zones/" Z "/ops", &rt, &req),
	    ROUTE_FOUND);
	assert_ptr_equal(rt, &routes[0]);
	assert_int_equal(lookup(HTTP_GET, "/zones/not-hex/ops", &rt, &req),
	    ROUTE_BAD_PARAM);
	assert_int_equal(lookup(HTTP_GET, "/zones/" Z "/ops/not-a-uuid", &rt,
	    &req), ROUTE_BAD_PARAM);
	/* A bad id on a path that exists nowhere is just no route. */
	assert_int_equal(lookup(HTTP_GET, "/zones/bad/elsewhere", &rt, &req),
	    ROUTE_NO_PATH);
	assert_int_equal(lookup(HTTP_GET, "/zones/" Z "/ops/", &rt, &req),
	    ROUTE_NO_PATH);
	assert_int_equal(lookup(HTTP_GET, "/zones//ops", &rt, &req),
	    ROUTE_NO_PATH);
	assert_int_equal(lookup(HTTP_GET, "", &rt, &req), ROUTE_NO_PATH);
	req_clear_params(&req);
}

/*
 * A route that needs a header is passed over when the request lacks it (a
 * request without a connection has no headers); with the header it wins,
 * as the DELETE and HEAD of a tus upload show in test_videos_http.
 */
static void
test_route_header_condition(void **state)
{
	static const struct route	 hr[] = {
		{ .method = HTTP_DELETE, .pattern = "/v/{uid:hex32}",
		    .handler = handler_noop, .header = "Tus-Resumable" },
		{ HTTP_DELETE, "/v/{uid:hex32}", handler_noop,
		    ROUTE_BODY_NONE },
		{ .method = HTTP_HEAD, .pattern = "/v/{uid:hex32}",
		    .handler = handler_noop, .header = "Tus-Resumable" },
		{ HTTP_GET, "/v/{uid:hex32}", handler_noop, ROUTE_BODY_NONE },
		{ .method = HTTP_PATCH, .pattern = "/v/{uid:hex32}",
		    .handler = handler_noop, .header = "Tus-Resumable" },
	};
	const struct route *const	 ht[] = {
		&hr[0], &hr[1], &hr[2], &hr[3], &hr[4]
	};
	const struct route		*rt;
	struct req			 req;

	(void)state;
	memset(&req, 0, sizeof req);
	assert_int_equal(route_lookup(ht, nitems(ht), HTTP_DELETE, "/v/" Z,
	    &rt, &req), ROUTE_FOUND);
	assert_ptr_equal(rt, &hr[1]);
	assert_string_equal(req_param(&req, "uid"), Z);
	/* HEAD without the header is the GET route's. */
	assert_int_equal(route_lookup(ht, nitems(ht), HTTP_HEAD, "/v/" Z,
	    &rt, &req), ROUTE_FOUND);
	assert_ptr_equal(rt, &hr[3]);
	/* No route takes the request as it is: the method is refused. */
	assert_int_equal(route_lookup(ht, nitems(ht), HTTP_PATCH, "/v/" Z,
	    &rt, &req), ROUTE_BAD_METHOD);
	assert_null(rt);
	assert_int_equal(route_lookup(ht, nitems(ht), HTTP_DELETE, "/v/" Z,
	    &rt, NULL), ROUTE_FOUND);
	assert_ptr_equal(rt, &hr[1]);
	req_clear_params(&req);
}

static void
test_method_names(void **state)
{
	(void)state;
	assert_int_equal(http_method_parse("PATCH"), HTTP_PATCH);
	assert_int_equal(http_method_parse("patch"), HTTP_OTHER);
	assert_int_equal(http_method_parse("BREW"), HTTP_OTHER);
	assert_string_equal(http_method_name(HTTP_DELETE), "DELETE");
}

/*
 * edgemu's ids and times have the API's forms (apirules and civil, tested
 * in test_apirules and test_helpers), and a time it writes reads back.
 */
static void
test_ids_and_times(void **state)
{
	char		uuid[UUID_LEN + 1], hex[HEX32_LEN + 1], iso[ISO_TIME_LEN];
	struct timespec	ts;
	int64_t		us;

	(void)state;
	util_uuid(uuid);
	assert_true(apirules_uuid_ok(uuid));
	assert_int_equal(uuid[14], '4');
	util_hex32(hex);
	assert_true(apirules_hex32_ok(hex));
	ts.tv_sec = 1700000000;
	ts.tv_nsec = 123456000;
	util_time_iso(&ts, iso);
	assert_string_equal(iso, "2023-11-14T22:13:20.123456Z");
	assert_int_equal(stream_parse_time(iso, &us), 0);
	assert_int_equal(us, 1700000000123456LL);
}

static void
test_json_parse_messages(void **state)
{
	char	*cause = NULL;
	cJSON	*v;

	(void)state;
	v = util_jparse("{\"a\": [1, 2]}  \n", 16, &cause);
	assert_non_null(v);
	cJSON_Delete(v);
	assert_null(util_jparse("{\"a\": 1,}", 9, &cause));
	assert_non_null(strstr(cause, "at byte"));
	free(cause);
	assert_null(util_jparse("[1, 2", 5, &cause));
	assert_non_null(strstr(cause, "unexpected end"));
	free(cause);
	assert_null(util_jparse("\"\xc3\"", 3, &cause));
	assert_non_null(strstr(cause, "UTF-8"));
	free(cause);
	/* Overlong encodings and surrogates are not UTF-8 either. */
	assert_false(util_utf8_valid("\xc0\xaf", 2));
	assert_false(util_utf8_valid("\xed\xa0\x80", 3));
	assert_true(util_utf8_valid("\xf0\x9f\x98\x80", 4));
}

/* cJSON would cut a string at \u0000 and keep both of two equal keys. */
static void
test_json_nul_and_dup(void **state)
{
	static const char *const refused[] = {
		"\"a\\u0000b\"",
		"{\"k\\u0000x\": 1}",
		"[{\"a\": 1, \"b\": {\"c\": 1, \"c\": 2}}]",
		"{\"a\": 1, \"b\": 2, \"a\": 3}",
	};
	static const char *const accepted[] = {
		"\"a\\\\u0000b\"",		/* a backslash, then u0000 */
		"\"\\u00e4\\u0100\"",
		"[\"\\u0001\"]",
		"{\"a\": {\"a\": 1}, \"b\": [{\"a\": 1}, {\"a\": 2}]}",
	};
	char	*cause;
	cJSON	*v;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		cause = NULL;
		v = util_jparse(refused[i], strlen(refused[i]), &cause);
		if (v != NULL)
			fail_msg("%s accepted", refused[i]);
		assert_true(strstr(cause, "\\u0000") != NULL ||
		    strstr(cause, "duplicate key") != NULL);
		free(cause);
	}
	cause = NULL;
	assert_null(util_jparse(refused[2], strlen(refused[2]), &cause));
	assert_non_null(strstr(cause, "\"c\""));
	free(cause);
	for (i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
		cause = NULL;
		v = util_jparse(accepted[i], strlen(accepted[i]), &cause);
		if (v == NULL)
			fail_msg("%s refused: %s", accepted[i], cause);
		cJSON_Delete(v);
	}
}

/*
 * cJSON keeps raw control bytes in a string and ends it at a raw NUL, so
 * "ab<NUL>cd" would be taken as "ab": the text is refused before parsing.
 */
static void
test_json_raw_control(void **state)
{
	static const struct {
		const char	*text;
		size_t		 len;
		const char	*says;
	} refused[] = {
		{ "{\"e\":\"ab\0cd\"}", 13, "NUL byte at byte 8" },
		{ "{\"k\0x\":1}", 9, "NUL byte at byte 3" },
		{ "{\"a\":1}\0", 8, "NUL byte at byte 7" },
		{ "{\"a\":\0 1}", 9, "NUL byte at byte 5" },
		{ "[\"a\x01" "b\"]", 7, "(0x01) at byte 3" },
		{ "[\"a\tb\"]", 7, "(0x09) at byte 3" },
		{ "[\"a\nb\"]", 7, "(0x0a) at byte 3" },
		{ "[\"a\x1f\"]", 6, "(0x1f) at byte 3" },
		{ "[\"a\\\x01\"]", 7, "(0x01) at byte 4" },
		{ "[1,\x01 2]", 7, "(0x01) at byte 3" },
		{ "[1,\x0c 2]", 7, "(0x0c) at byte 3" },
	};
	static const char *const accepted[] = {
		"{\"a\":\t[1,\r\n 2]}\n",	/* JSON's own white space */
		"[\"a\\tb\\u001f\\\"\\u0001\"]",	/* escaped */
		"[\"\\\\\", \"x\"]",
	};
	char	*cause;
	cJSON	*v;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		cause = NULL;
		v = util_jparse(refused[i].text, refused[i].len, &cause);
		if (v != NULL)
			fail_msg("refused[%zu] accepted", i);
		if (strstr(cause, refused[i].says) == NULL)
			fail_msg("refused[%zu]: %s", i, cause);
		free(cause);
	}
	for (i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
		cause = NULL;
		v = util_jparse(accepted[i], strlen(accepted[i]), &cause);
		if (v == NULL)
			fail_msg("%s refused: %s", accepted[i], cause);
		cJSON_Delete(v);
	}
}

/* ---- write routes and one-value reads --------------------------------- */

static const char store_test_schema[] =
	"CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT, n INTEGER)";

static int
store_setup(void **state)
{
	const char	*schemas[] = { store_test_schema, NULL };
	struct store	*store;
	char		*dir, *cause = NULL;

	if ((dir = testdir_new("server")) == NULL)
		return (-1);
	if ((store = store_open(dir, schemas, &cause)) == NULL) {
		fprintf(stderr, "store_open: %s\n", cause);
		free(cause);
		testdir_remove(dir);
		free(dir);
		return (-1);
	}
	free(dir);
	*state = store;
	return (0);
}

static int
store_teardown(void **state)
{
	struct store	*store = *state;
	char		*dir = xstrdup(store_dir(store));
	int		 rc;

	store_close(store);
	rc = testdir_remove(dir);
	free(dir);
	return (rc);
}

/*
 * Writes a row, then answers with the status the request's path names,
 * as a handler that refuses after writing would. Also notes whether it
 * ran inside a transaction.
 */
static int	write_in_txn;

static void
handler_write(struct req *req, struct reply *rep)
{
	write_in_txn = !sqlite3_get_autocommit(store_db(req->store));
	if (store_exec(req->store, "INSERT INTO t (k, v) VALUES ('a', 'x')")
	    != 0) {
		reply_store_error(req, rep);
		return;
	}
	if (strcmp(req->path, "/404") == 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "not here");
	else if (strcmp(req->path, "/200-error") == 0)
		reply_add_error(rep, ERR_VALIDATION, "refused");
	else if (strcmp(req->path, "/201") == 0)
		reply_status(rep, 201, NULL);
	else
		reply_ok(rep, NULL);
}

static long long
rows_of(struct store *store)
{
	sqlite3_int64	n = -1;

	assert_int_equal(store_get_int(store, "SELECT count(*) FROM t", &n,
	    NULL), 1);
	return ((long long)n);
}

static void
run_write(struct store *store, int flags, const char *path,
    unsigned int status)
{
	struct route	rt = { HTTP_POST, "/x", handler_write,
	    ROUTE_BODY_NONE, flags, NULL, NULL, NULL };
	struct req	req;
	struct reply	rep;

	memset(&req, 0, sizeof req);
	memset(&rep, 0, sizeof rep);
	req.store = store;
	req.path = path;
	write_in_txn = -1;
	route_run(&rt, &req, &rep);
	assert_int_equal(rep.status, status);
	/* Whatever the answer, no transaction is left open. */
	assert_true(sqlite3_get_autocommit(store_db(store)));
	reply_free(&rep);
}

static void
test_write_route_commits_success(void **state)
{
	struct store	*store = *state;

	run_write(store, ROUTE_WRITE, "/200", 200);
	assert_true(write_in_txn);
	assert_int_equal(rows_of(store), 1);
	store_exec(store, "DELETE FROM t");
	run_write(store, ROUTE_WRITE, "/201", 201);
	assert_int_equal(rows_of(store), 1);
}

static void
test_write_route_rolls_back_refusal(void **state)
{
	struct store	*store = *state;

	run_write(store, ROUTE_WRITE, "/404", 404);
	assert_true(write_in_txn);
	assert_int_equal(rows_of(store), 0);
	/* A 200 that carries errors is no success either. */
	run_write(store, ROUTE_WRITE, "/200-error", 200);
	assert_int_equal(rows_of(store), 0);
	/* A failure inside the handler (here a duplicate key) stores none. */
	store_exec(store, "INSERT INTO t (k, v) VALUES ('a', 'old')");
	run_write(store, ROUTE_WRITE, "/200", 500);
	assert_int_equal(rows_of(store), 1);
}

static void
test_plain_route_has_no_transaction(void **state)
{
	struct store	*store = *state;

	/* Without the flag the handler's write stands on its own. */
	run_write(store, 0, "/404", 404);
	assert_false(write_in_txn);
	assert_int_equal(rows_of(store), 1);
}

static void
test_store_get_text(void **state)
{
	static const char	 sql[] = "SELECT v FROM t WHERE k = ?1";
	static const char	 sql2[] =
	    "SELECT v FROM t WHERE k = ?1 AND n = ?2";
	struct store		*store = *state;
	char			*v = (char *)"unset";

	assert_int_equal(store_exec(store, "INSERT INTO t (k, v, n) VALUES"
	    " ('a', 'x', 7), ('b', NULL, 8)"), 0);
	assert_int_equal(store_get_text(store, sql, &v, "a", NULL), 1);
	assert_string_equal(v, "x");
	free(v);
	/* An SQL NULL is a row with a NULL value, unlike no row at all. */
	assert_int_equal(store_get_text(store, sql, &v, "b", NULL), 1);
	assert_null(v);
	v = (char *)"unset";
	assert_int_equal(store_get_text(store, sql, &v, "c", NULL), 0);
	assert_null(v);
	/* Texts bind ?1, ?2, ... in order. */
	assert_int_equal(store_get_text(store, sql2, &v, "a", "7", NULL), 1);
	assert_string_equal(v, "x");
	free(v);
	assert_int_equal(store_get_text(store, sql2, &v, "a", "8", NULL), 0);
	/* A statement that fails as it runs. */
	assert_int_equal(store_get_text(store,
	    "SELECT abs(-9223372036854775807 - 1)", &v, NULL), -1);
	assert_null(v);
	/* Nothing stays open after any of them. */
	assert_true(sqlite3_get_autocommit(store_db(store)));
}

static void
test_store_get_int(void **state)
{
	static const char	 sql[] = "SELECT n FROM t WHERE k = ?1";
	struct store		*store = *state;
	sqlite3_int64		 n = 99;

	assert_int_equal(store_exec(store, "INSERT INTO t (k, v, n) VALUES"
	    " ('a', 'x', 7), ('big', 'y', 5000000000)"), 0);
	assert_int_equal(store_get_int(store, sql, &n, "a", NULL), 1);
	assert_int_equal(n, 7);
	assert_int_equal(store_get_int(store, sql, &n, "big", NULL), 1);
	assert_true(n == 5000000000LL);
	n = 99;
	assert_int_equal(store_get_int(store, sql, &n, "none", NULL), 0);
	assert_int_equal(n, 0);
	assert_int_equal(store_get_int(store,
	    "SELECT abs(-9223372036854775807 - 1)", &n, NULL), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success_envelope),
		cmocka_unit_test(test_error_envelope),
		cmocka_unit_test(test_paged_envelope),
		cmocka_unit_test(test_top_level_members),
		cmocka_unit_test(test_route_captures),
		cmocka_unit_test(test_route_log_hook),
		cmocka_unit_test(test_route_literal_beats_parameter),
		cmocka_unit_test(test_route_refusals),
		cmocka_unit_test(test_route_header_condition),
		cmocka_unit_test(test_method_names),
		cmocka_unit_test(test_ids_and_times),
		cmocka_unit_test(test_json_parse_messages),
		cmocka_unit_test(test_json_nul_and_dup),
		cmocka_unit_test(test_json_raw_control),
		cmocka_unit_test_setup_teardown(test_write_route_commits_success,
		    store_setup, store_teardown),
		cmocka_unit_test_setup_teardown(
		    test_write_route_rolls_back_refusal, store_setup,
		    store_teardown),
		cmocka_unit_test_setup_teardown(
		    test_plain_route_has_no_transaction, store_setup,
		    store_teardown),
		cmocka_unit_test_setup_teardown(test_store_get_text,
		    store_setup, store_teardown),
		cmocka_unit_test_setup_teardown(test_store_get_int,
		    store_setup, store_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
