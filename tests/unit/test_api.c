/*
 * Unit tests for api.c: every envelope shape of api-map section 1, bodies
 * that are no envelope at all, the retired rate-limit API and path
 * templates.
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

#include "api.h"
#include "buf.h"
#include "common.h"
#include "xmalloc.h"

/* Parse a NUL-terminated body. */
static enum status
parse(long status, const char *body, struct api_response *r)
{
	return (api_parse(status, body, strlen(body), r));
}

/* The error text of a response, compared and freed. */
static void
assert_text(const struct api_response *r, const char *want)
{
	char	*text;

	api_error_text(r, &text);
	assert_string_equal(text, want);
	free(text);
}

/* The error text contains want. */
static void
assert_text_has(const struct api_response *r, const char *want)
{
	char	*text;

	api_error_text(r, &text);
	if (strstr(text, want) == NULL)
		fail_msg("\"%s\" is not in \"%s\"", want, text);
	free(text);
}

static void
test_list_with_result_info(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(200, "{\"success\":true,\"errors\":[],"
	    "\"messages\":[],\"result\":[{\"id\":\"a\"},{\"id\":\"b\"}],"
	    "\"result_info\":{\"page\":2,\"per_page\":2,\"count\":2,"
	    "\"total_count\":7,\"total_pages\":4}}", &r), STATUS_OK);
	assert_true(r.ok);
	assert_int_equal(r.http_status, 200);
	assert_int_equal(cJSON_GetArraySize(r.result), 2);
	assert_true(r.has_info);
	assert_int_equal(r.page, 2);
	assert_int_equal(r.per_page, 2);
	assert_int_equal(r.count, 2);
	assert_int_equal(r.total_count, 7);
	assert_int_equal(r.total_pages, 4);	/* as sent, not computed */
	assert_false(r.has_stream_counts);
	assert_int_equal(r.nerrors, 0);
	assert_text(&r, "");
	api_response_free(&r);
}

static void
test_total_pages_computed(void **state)
{
	static const struct {
		long	total, per_page, pages;
	} rows[] = {
		{ 41, 20, 3 }, { 40, 20, 2 }, { 1, 20, 1 }, { 0, 20, 0 },
		{ 2000, 1000, 2 },
	};
	struct api_response	r;
	char			body[256];
	size_t			i;

	(void)state;
	for (i = 0; i < nitems(rows); i++) {
		snprintf(body, sizeof body, "{\"success\":true,\"result\":[],"
		    "\"result_info\":{\"page\":1,\"per_page\":%ld,"
		    "\"count\":0,\"total_count\":%ld}}", rows[i].per_page,
		    rows[i].total);
		assert_int_equal(parse(200, body, &r), STATUS_OK);
		assert_int_equal(r.total_pages, rows[i].pages);
		api_response_free(&r);
	}
	/* Without per_page nothing can be computed. */
	parse(200, "{\"success\":true,\"result\":[],\"result_info\":"
	    "{\"total_count\":5}}", &r);
	assert_int_equal(r.total_pages, -1);
	assert_int_equal(r.page, -1);
	api_response_free(&r);
}

static void
test_stream_top_level_counts(void **state)
{
	struct api_response	r;

	(void)state;
	parse(200, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":[{\"uid\":\"u1\",\"created\":\"2024-01-01T00:00:00Z\"}],"
	    "\"total\":35,\"range\":34}", &r);
	assert_true(r.ok);
	assert_true(r.has_stream_counts);
	assert_int_equal(r.total, 35);
	assert_int_equal(r.range, 34);
	assert_false(r.has_info);
	api_response_free(&r);
}

static void
test_live_inputs_wrapped(void **state)
{
	struct api_response	 r;
	const cJSON		*list;

	(void)state;
	parse(200, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":{\"liveInputs\":[{\"uid\":\"l1\"},{\"uid\":\"l2\"}],"
	    "\"range\":0,\"total\":2}}", &r);
	assert_true(r.ok);
	assert_true(cJSON_IsObject(r.result));
	list = cJSON_GetObjectItemCaseSensitive(r.result, "liveInputs");
	assert_int_equal(cJSON_GetArraySize(list), 2);
	/* The counts are inside result here, not at the top level. */
	assert_false(r.has_stream_counts);
	api_response_free(&r);
}

static void
test_delete_forms(void **state)
{
	struct api_response	r;

	(void)state;
	parse(200, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":\"ok\"}", &r);
	assert_true(r.ok);
	assert_string_equal(cJSON_GetStringValue(r.result), "ok");
	api_response_free(&r);

	parse(200, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":\"\"}", &r);
	assert_true(r.ok);
	assert_string_equal(cJSON_GetStringValue(r.result), "");
	api_response_free(&r);

	parse(200, "{\"success\":true,\"errors\":[],\"messages\":[],"
	    "\"result\":{\"id\":\"372e67954025e0ba6aaa6d586b9e0b59\"}}", &r);
	assert_true(r.ok);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r.result,
	    "id")), "372e67954025e0ba6aaa6d586b9e0b59");
	api_response_free(&r);

	/* Stream's common envelope: no result at all. */
	parse(200, "{\"success\":true,\"errors\":[],\"messages\":[]}", &r);
	assert_true(r.ok);
	assert_null(r.result);
	api_response_free(&r);

	/* result: null is a success too. */
	parse(200, "{\"success\":true,\"result\":null}", &r);
	assert_true(r.ok);
	assert_true(cJSON_IsNull(r.result));
	api_response_free(&r);
}

static void
test_no_body(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(api_parse(204, NULL, 0, &r), STATUS_OK);
	assert_true(r.ok);
	assert_null(r.result);
	api_response_free(&r);
	assert_int_equal(api_parse(200, "", 0, &r), STATUS_OK);
	assert_true(r.ok);
	api_response_free(&r);
	/* White space only is no body either. */
	assert_int_equal(parse(200, " \r\n", &r), STATUS_OK);
	api_response_free(&r);
	/* A length of 0 wins over whatever the pointer points at. */
	assert_int_equal(api_parse(200, "<html>", 0, &r), STATUS_OK);
	api_response_free(&r);
}

static void
test_several_errors(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(400, "{\"success\":false,\"errors\":["
	    "{\"code\":10001,\"message\":\"Rate limit period must be at least "
	    "10\"},{\"code\":10002,\"message\":\"threshold must be at least "
	    "1\"}],\"messages\":[],\"result\":null}", &r), STATUS_INVALID);
	assert_false(r.ok);
	assert_int_equal(r.nerrors, 2);
	assert_int_equal(r.errors[0].code, 10001);
	assert_int_equal(r.errors[1].code, 10002);
	assert_text(&r, "Rate limit period must be at least 10 [10001]; "
	    "threshold must be at least 1 [10002]");
	api_response_free(&r);
}

static void
test_unknown_keys_tolerated(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(404, "{\"success\":false,\"errors\":[{"
	    "\"code\":7003,\"message\":\"No route for the URI\","
	    "\"documentation_url\":\"https://developers.cloudflare.com/\","
	    "\"source\":{\"pointer\":\"/id\"},\"error_chain\":[]}],"
	    "\"messages\":[{\"code\":1,\"message\":\"note\",\"x\":1}],"
	    "\"result\":null,\"future\":{\"a\":[1,2]},\"result_info\":null}",
	    &r), STATUS_NOT_FOUND);
	assert_text(&r, "No route for the URI [7003]");
	assert_int_equal(r.nmessages, 1);
	assert_string_equal(r.messages[0].message, "note");
	assert_false(r.has_info);
	api_response_free(&r);

	/* Items of the wrong shape still give an error to show. */
	parse(400, "{\"success\":false,\"errors\":[\"plain text\",{\"code\":"
	    "\"12\"},42]}", &r);
	assert_int_equal(r.nerrors, 3);
	assert_text(&r, "plain text; (no message); (no message)");
	api_response_free(&r);
}

static void
test_success_false_on_200(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(200, "{\"success\":false,\"errors\":[{\"code\":"
	    "1004,\"message\":\"DNS Validation Error\"}],\"result\":null}", &r),
	    STATUS_SERVER);
	assert_false(r.ok);
	assert_text(&r, "DNS Validation Error [1004]");
	api_response_free(&r);

	/* Without any error item, one is made up. */
	parse(200, "{\"success\":false}", &r);
	assert_false(r.ok);
	assert_int_equal(r.nerrors, 1);
	assert_int_equal(r.errors[0].code, 0);
	assert_text(&r, "the server answered success:false without an error "
	    "message (HTTP 200)");
	api_response_free(&r);

	/* Only the JSON false means failure. */
	parse(200, "{\"success\":\"false\",\"result\":1}", &r);
	assert_true(r.ok);
	api_response_free(&r);
}

static void
test_failure_status_with_success_true(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(500, "{\"success\":true,\"result\":{}}", &r),
	    STATUS_SERVER);
	assert_false(r.ok);
	assert_text(&r, "HTTP 500 Internal Server Error without an error "
	    "message");
	api_response_free(&r);
}

static void
test_status_classes(void **state)
{
	static const struct {
		long		code;
		enum status	st;
	} rows[] = {
		{ 400, STATUS_INVALID }, { 401, STATUS_AUTH },
		{ 403, STATUS_AUTH }, { 404, STATUS_NOT_FOUND },
		{ 405, STATUS_UNSUPPORTED }, { 408, STATUS_TIMEOUT },
		{ 409, STATUS_CONFLICT }, { 410, STATUS_GONE },
		{ 413, STATUS_TOO_LARGE }, { 415, STATUS_UNSUPPORTED },
		{ 418, STATUS_SERVER }, { 429, STATUS_RATE_LIMITED },
		{ 500, STATUS_SERVER }, { 503, STATUS_SERVER },
		{ 504, STATUS_TIMEOUT }, { 302, STATUS_SERVER },
	};
	struct api_response	r;
	size_t			i;

	(void)state;
	for (i = 0; i < nitems(rows); i++) {
		assert_int_equal(parse(rows[i].code, "{\"success\":false,"
		    "\"errors\":[{\"code\":1000,\"message\":\"x\"}]}", &r),
		    rows[i].st);
		assert_false(r.ok);
		api_response_free(&r);
	}
}

static void
test_2xx_not_json(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(200, "OK, deleted\n", &r), STATUS_PARSE);
	assert_false(r.ok);
	assert_int_equal(r.nerrors, 1);
	assert_text(&r, "HTTP 200 with a body that is not JSON: "
	    "\"OK, deleted\"");
	api_response_free(&r);

	/* JSON, but not an envelope. */
	assert_int_equal(parse(200, "[1,2]", &r), STATUS_PARSE);
	assert_text(&r, "HTTP 200 with JSON that is not an API envelope "
	    "(an array)");
	api_response_free(&r);
	parse(201, "\"ok\"", &r);
	assert_text(&r, "HTTP 201 with JSON that is not an API envelope "
	    "(a string)");
	api_response_free(&r);

	/* Anything after the envelope makes it invalid. */
	assert_int_equal(parse(200, "{\"success\":true} {\"x\":1}", &r),
	    STATUS_PARSE);
	assert_text_has(&r, "invalid JSON");
	api_response_free(&r);
}

static void
test_502_html(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(502, "<html>\r\n<head><title>502 Bad Gateway"
	    "</title></head>\r\n<body><center><h1>502 Bad Gateway</h1>"
	    "</center><hr><center>cloudflare</center></body></html>", &r),
	    STATUS_SERVER);
	assert_false(r.ok);
	assert_int_equal(r.nerrors, 1);
	assert_text(&r, "HTTP 502 Bad Gateway with a body that is not JSON "
	    "(text/html?: \"502 Bad Gateway\")");
	api_response_free(&r);

	/* HTML without a title. */
	parse(429, "<!DOCTYPE html><p>slow down</p>", &r);
	assert_int_equal(r.status, STATUS_RATE_LIMITED);
	assert_text(&r, "HTTP 429 Too Many Requests with a body that is not "
	    "JSON (text/html?)");
	api_response_free(&r);

	/* An empty 502. */
	assert_int_equal(api_parse(502, "", 0, &r), STATUS_SERVER);
	assert_text(&r, "HTTP 502 Bad Gateway with an empty body");
	api_response_free(&r);
	api_parse(599, NULL, 0, &r);
	assert_text(&r, "HTTP 599 with an empty body");
	api_response_free(&r);
}

static void
test_truncated_and_invalid_json(void **state)
{
	const char		*full = "{\"success\":true,\"result\":"
	    "{\"name\":\"a \\\"quoted\\\" [name\"}}";
	struct api_response	 r;
	size_t			 cut;
	char			*want;

	(void)state;
	/* Cut at every length: never ok, always one error, never a crash. */
	for (cut = 1; cut < strlen(full); cut++) {
		assert_int_equal(api_parse(200, full, cut, &r), STATUS_PARSE);
		assert_false(r.ok);
		assert_int_equal(r.nerrors, 1);
		want = xprintf("HTTP 200 with truncated JSON (%zu bytes)", cut);
		assert_text(&r, want);
		free(want);
		api_response_free(&r);
	}
	assert_int_equal(api_parse(200, full, strlen(full), &r), STATUS_OK);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r.result,
	    "name")), "a \"quoted\" [name");
	api_response_free(&r);

	/* Balanced but wrong: the error's place is given. */
	parse(400, "{\"success\":false,\"errors\":[}]}", &r);
	assert_int_equal(r.status, STATUS_INVALID);
	assert_text_has(&r, "HTTP 400 Bad Request with invalid JSON (error at "
	    "byte ");
	api_response_free(&r);
}

static void
test_invalid_utf8_repaired(void **state)
{
	const char		 body[] = "{\"success\":false,\"errors\":[{"
	    "\"code\":1000,\"message\":\"caf\xe9 \xc0\xaf ok \xe2\x82\xac\"}]}";
	const char		 bad[] = "{\"result\":\"\xed\xa0\x80\xe0\x80\xaf\"}";
	struct api_response	 r;

	(void)state;
	api_parse(400, body, sizeof body - 1, &r);
	assert_true(r.utf8_repaired);
	assert_int_equal(r.nerrors, 1);
	/* Each bad byte is U+FFFD; the valid euro sign stays. */
	assert_string_equal(r.errors[0].message,
	    "caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd ok \xe2\x82\xac");
	api_response_free(&r);

	/* Surrogates and overlong forms are invalid too. */
	api_parse(200, bad, sizeof bad - 1, &r);
	assert_true(r.ok);
	assert_true(r.utf8_repaired);
	assert_string_equal(cJSON_GetStringValue(r.result),
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	    "\xef\xbf\xbd");
	api_response_free(&r);

	parse(200, "{\"result\":\"\xf0\x9f\x98\x80\"}", &r);
	assert_false(r.utf8_repaired);
	api_response_free(&r);
}

static void
test_control_characters_kept(void **state)
{
	const char		 raw[] = "{\"success\":false,\"errors\":[{"
	    "\"code\":1000,\"message\":\"a\x01" "b\x1b[31mred\"}]}";
	const char		 nul[] = "{\"success\":false,\"errors\":[{"
	    "\"code\":1000,\"message\":\"before\\u0000after\"}]}";
	const char		 rawnul[] = "{\"success\":false,\"errors\":[{"
	    "\"code\":1000,\"message\":\"x\0y\"}]}";
	struct api_response	 r;

	(void)state;
	/* Escaped control characters are data: the UI strips them. */
	parse(400, "{\"success\":false,\"errors\":[{\"code\":1000,"
	    "\"message\":\"\\u001b[2Jbell\\u0007\"}]}", &r);
	assert_string_equal(r.errors[0].message, "\x1b[2Jbell\x07");
	api_response_free(&r);

	/* Raw ones, which strict JSON refuses, are kept as well. */
	api_parse(400, raw, sizeof raw - 1, &r);
	assert_int_equal(r.nerrors, 1);
	assert_string_equal(r.errors[0].message, "a\x01" "b\x1b[31mred");
	api_response_free(&r);

	/* An escaped NUL ends the C string: nothing reads past it. */
	api_parse(400, nul, sizeof nul - 1, &r);
	assert_int_equal(r.nerrors, 1);
	assert_string_equal(r.errors[0].message, "before");
	api_response_free(&r);

	/* A message that is empty, or starts with NUL, still shows. */
	parse(400, "{\"success\":false,\"errors\":[{\"code\":5,"
	    "\"message\":\"\\u0000x\"},{\"code\":6,\"message\":\"\"}]}", &r);
	assert_text(&r, "(no message) [5]; (no message) [6]");
	api_response_free(&r);

	/* A raw NUL byte inside the body is no crash either. */
	api_parse(400, rawnul, sizeof rawnul - 1, &r);
	assert_false(r.ok);
	assert_true(r.nerrors >= 1);
	assert_non_null(r.errors[0].message);
	api_response_free(&r);
}

static void
test_huge_garbage_bounded(void **state)
{
	const size_t		 size = 100UL * 1024 * 1024;
	struct api_response	 r;
	char			*big;
	size_t			 i;

	(void)state;
	big = xmalloc(size);
	for (i = 0; i < size; i++)
		big[i] = "{[\"x:,}]\\"[i % 9];
	assert_int_equal(api_parse(200, big, size, &r), STATUS_TOO_LARGE);
	assert_false(r.ok);
	assert_text(&r, "HTTP 200 with a body of 100.0 MiB, over the limit of "
	    "32.0 MiB");
	api_response_free(&r);

	/* Under the size limit, dense JSON hits the value limit first. */
	for (i = 0; i < 4000000; i += 2) {
		big[i] = i == 0 ? '[' : ',';
		big[i + 1] = '1';
	}
	big[i] = ']';
	assert_int_equal(api_parse(200, big, i + 1, &r), STATUS_TOO_LARGE);
	assert_text(&r, "HTTP 200 with JSON of more than 1000000 values, over "
	    "the limit");
	api_response_free(&r);

	/* Deep nesting stops at cJSON's depth limit. */
	memset(big, '[', 500000);
	api_parse(200, big, 500000, &r);
	assert_int_equal(r.status, STATUS_PARSE);
	assert_int_equal(r.nerrors, 1);
	api_response_free(&r);

	/* 20 MB of binary noise under the limit: not JSON. */
	for (i = 0; i < 20000000; i++)
		big[i] = (char)(i * 2654435761U >> 13);
	big[0] = '\x01';
	api_parse(503, big, 20000000, &r);
	assert_text(&r, "HTTP 503 Service Unavailable with a body that is not "
	    "JSON (binary data?)");
	api_response_free(&r);
	free(big);
}

static void
test_numbers_out_of_range(void **state)
{
	struct api_response	r;

	(void)state;
	parse(200, "{\"success\":true,\"result\":[],\"result_info\":{"
	    "\"page\":1e400,\"per_page\":-5,\"count\":\"3\",\"total_count\":"
	    "1e19,\"total_pages\":null},\"total\":-1e400,\"range\":2.5}", &r);
	assert_true(r.ok);
	assert_true(r.has_info);
	assert_int_equal(r.page, -1);
	assert_int_equal(r.per_page, -1);
	assert_int_equal(r.count, -1);
	assert_int_equal(r.total_count, -1);
	assert_int_equal(r.total_pages, -1);
	assert_int_equal(r.total, -1);
	assert_int_equal(r.range, 2);
	api_response_free(&r);

	parse(400, "{\"success\":false,\"errors\":[{\"code\":1e300,"
	    "\"message\":\"m\"}]}", &r);
	assert_text(&r, "m");
	api_response_free(&r);
}

static void
test_many_errors_capped(void **state)
{
	struct buf		 b = BUF_INITIALIZER;
	struct api_response	 r;
	int			 i;

	(void)state;
	buf_adds(&b, "{\"success\":false,\"errors\":[");
	for (i = 0; i < 1000; i++)
		buf_addf(&b, "%s{\"code\":%d,\"message\":\"e\"}",
		    i == 0 ? "" : ",", 1000 + i);
	buf_adds(&b, "]}");
	api_parse(400, b.data, b.len, &r);
	assert_int_equal(r.nerrors, API_ERRORS_MAX + 1);
	assert_string_equal(r.errors[API_ERRORS_MAX].message, "and 936 more");
	api_response_free(&r);
	buf_free(&b);
}

static void
test_byte_order_mark(void **state)
{
	struct api_response	r;

	(void)state;
	assert_int_equal(parse(200, "\xef\xbb\xbf{\"success\":true,"
	    "\"result\":1}", &r), STATUS_OK);
	assert_false(r.utf8_repaired);
	api_response_free(&r);
}

static void
test_free_resets(void **state)
{
	struct api_response	r;

	(void)state;
	parse(400, "{\"success\":false,\"errors\":[{\"code\":1,"
	    "\"message\":\"m\"}],\"result\":{}}", &r);
	api_response_free(&r);
	assert_null(r.result);
	assert_null(r.errors);
	assert_int_equal(r.nerrors, 0);
	api_response_free(&r);		/* twice is harmless */
}

static void
test_gone_rate_limits(void **state)
{
	struct api_response	r;

	(void)state;
	assert_non_null(api_gone_message("/zones/x/rate_limits"));
	assert_non_null(api_gone_message("/zones/x/rate_limits/abc"));
	assert_non_null(api_gone_message("https://api.cloudflare.com/client/"
	    "v4/zones/023e105f4ecef8ad9ca31a8372d0c353/rate_limits?page=2"));
	assert_null(api_gone_message("/zones/x/rate_limits_new"));
	assert_null(api_gone_message("/accounts/x/stream"));
	assert_null(api_gone_message(NULL));
	assert_non_null(strstr(api_gone_message("/zones/x/rate_limits"),
	    "http_ratelimit"));

	parse(410, "{\"success\":false,\"errors\":[{\"code\":10000,"
	    "\"message\":\"Gone\"}]}", &r);
	assert_int_equal(api_explain_gone(&r, "/zones/x/rate_limits"), 1);
	assert_int_equal(r.status, STATUS_GONE);
	assert_int_equal(r.nerrors, 2);
	assert_int_equal(r.errors[0].code, 0);
	assert_string_equal(r.errors[0].message,
	    api_gone_message("/zones/x/rate_limits"));
	assert_text_has(&r, "retired");
	assert_text_has(&r, "Rulesets engine");
	assert_text_has(&r, "; Gone [10000]");
	api_response_free(&r);

	/* An empty 410 gets the explanation too. */
	api_parse(410, NULL, 0, &r);
	assert_int_equal(api_explain_gone(&r, "/zones/x/rate_limits/y"), 1);
	assert_int_equal(r.nerrors, 2);
	api_response_free(&r);

	/* Other paths and other statuses are left alone. */
	parse(410, "{\"success\":false,\"errors\":[{\"code\":1,"
	    "\"message\":\"m\"}]}", &r);
	assert_int_equal(api_explain_gone(&r, "/accounts/x/stream/y"), 0);
	assert_int_equal(r.nerrors, 1);
	api_response_free(&r);
	parse(404, "{\"success\":false,\"errors\":[{\"code\":1,"
	    "\"message\":\"m\"}]}", &r);
	assert_int_equal(api_explain_gone(&r, "/zones/x/rate_limits"), 0);
	assert_int_equal(r.nerrors, 1);
	api_response_free(&r);
}

static void
test_path_templates(void **state)
{
	char	*p, *cause = NULL;

	(void)state;
	p = api_path("/zones/{zone}/rate_limits/{id}", (struct api_var[]){
	    { "zone", "023e105f4ecef8ad9ca31a8372d0c353" },
	    { "id", "372e67954025e0ba6aaa6d586b9e0b59" },
	    { "unused", "" }, { NULL, NULL } }, &cause);
	assert_non_null(p);
	assert_string_equal(p, "/zones/023e105f4ecef8ad9ca31a8372d0c353/"
	    "rate_limits/372e67954025e0ba6aaa6d586b9e0b59");
	free(p);

	/* Every byte outside the unreserved set is percent-encoded. */
	p = api_path("/a/{x}/b", (struct api_var[]){
	    { "x", "a b?c#d%e&f+g\xc3\xa9h~i.j_k-l" }, { NULL, NULL } },
	    &cause);
	assert_string_equal(p, "/a/a%20b%3Fc%23d%25e%26f%2Bg%C3%A9h~i.j_k-l/b");
	free(p);

	/* A variable name that is a prefix of another is not confused. */
	p = api_path("{ab}{a}", (struct api_var[]){ { "a", "1" },
	    { "ab", "2" }, { NULL, NULL } }, &cause);
	assert_string_equal(p, "21");
	free(p);
	p = api_path("/plain", NULL, &cause);
	assert_string_equal(p, "/plain");
	free(p);
}

static void
test_path_refusals(void **state)
{
	static const struct {
		const char	*tmpl;
		const char	*value;
		const char	*cause;
	} rows[] = {
		{ "/s/{id}", NULL, "no value for {id}" },
		{ "/s/{id}", "", "{id} is empty" },
		{ "/s/{id}", "a/b", "{id} may not contain '/'" },
		{ "/s/{id}", "..", "{id} may not be '..'" },
		{ "/s/{id}", ".", "{id} may not be '.'" },
		{ "/s/{other}", "x", "no value for {other}" },
		{ "/s/{id", "x", "template /s/{id: bad variable" },
		{ "/s/{}", "x", "template /s/{}: bad variable" },
		{ "/s/{a{id}", "x", "template /s/{a{id}: bad variable" },
		{ "/s/id}", "x", "template /s/id}: '}' without '{'" },
	};
	struct api_var	vars[2] = { { "id", NULL }, { NULL, NULL } };
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(rows); i++) {
		cause = NULL;
		vars[0].value = rows[i].value;
		assert_null(api_path(rows[i].tmpl, vars, &cause));
		assert_non_null(cause);
		assert_string_equal(cause, rows[i].cause);
		free(cause);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_with_result_info),
		cmocka_unit_test(test_total_pages_computed),
		cmocka_unit_test(test_stream_top_level_counts),
		cmocka_unit_test(test_live_inputs_wrapped),
		cmocka_unit_test(test_delete_forms),
		cmocka_unit_test(test_no_body),
		cmocka_unit_test(test_several_errors),
		cmocka_unit_test(test_unknown_keys_tolerated),
		cmocka_unit_test(test_success_false_on_200),
		cmocka_unit_test(test_failure_status_with_success_true),
		cmocka_unit_test(test_status_classes),
		cmocka_unit_test(test_2xx_not_json),
		cmocka_unit_test(test_502_html),
		cmocka_unit_test(test_truncated_and_invalid_json),
		cmocka_unit_test(test_invalid_utf8_repaired),
		cmocka_unit_test(test_control_characters_kept),
		cmocka_unit_test(test_huge_garbage_bounded),
		cmocka_unit_test(test_numbers_out_of_range),
		cmocka_unit_test(test_many_errors_capped),
		cmocka_unit_test(test_byte_order_mark),
		cmocka_unit_test(test_free_resets),
		cmocka_unit_test(test_gone_rate_limits),
		cmocka_unit_test(test_path_templates),
		cmocka_unit_test(test_path_refusals),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
