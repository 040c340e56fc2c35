/*
 * Unit tests for the Rules language's evaluation side: the request model
 * (expr_request.c), the evaluator and its functions (expr_eval.c,
 * expr_func.c) and explain, against api-map-next 12.2-12.4. The test is
 * linked with malloc wrapped so it can show a warm request evaluates with
 * no allocation.
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
#include "expr_value.h"

/* ---- counting allocations (the test links with --wrap=malloc...) ------- */

void	*__real_malloc(size_t);
void	*__real_calloc(size_t, size_t);
void	*__real_realloc(void *, size_t);
void	*__wrap_malloc(size_t);
void	*__wrap_calloc(size_t, size_t);
void	*__wrap_realloc(void *, size_t);

static size_t	allocs;

void *
__wrap_malloc(size_t n)
{
	allocs++;
	return (__real_malloc(n));
}

void *
__wrap_calloc(size_t m, size_t n)
{
	allocs++;
	return (__real_calloc(m, n));
}

void *
__wrap_realloc(void *p, size_t n)
{
	allocs++;
	return (__real_realloc(p, n));
}

/* ---- helpers -------------------------------------------------------------- */

static const struct expr_options	counting = { EXPR_PLAN_NONE, 1 };

static struct expr *
parse(const char *text)
{
	struct expr_error	 err;
	struct expr		*e;

	if ((e = expr_parse(text, &counting, &err)) == NULL)
		fail_msg("%s: column %d: %s", text, err.column, err.message);
	return (e);
}

static int
eval(struct expr_request *rq, const char *text)
{
	struct expr	*e = parse(text);
	int		 r;

	r = expr_eval(e, rq);
	/* explain must agree with eval, whatever the expression. */
	assert_int_equal(expr_explain(e, rq, NULL, NULL), r);
	expr_free(e);
	return (r);
}

#define TRUE_(rq, text)		assert_int_equal(eval(rq, text), 1)
#define FALSE_(rq, text)	assert_int_equal(eval(rq, text), 0)

static void
assert_bytes(struct expr_request *rq, enum expr_field f, const char *want)
{
	const struct expr_val	*v = expr_request_field(rq, f);

	if (want == NULL) {
		assert_int_equal(v->kind, EXPR_V_MISSING);
		return;
	}
	assert_int_equal(v->kind, EXPR_V_BYTES);
	if (v->u.s.n != strlen(want) || memcmp(v->u.s.p, want, v->u.s.n) != 0)
		fail_msg("field %d: '%.*s', want '%s'", (int)f,
		    (int)v->u.s.n, v->u.s.p, want);
}

static void
assert_val_bytes(const struct expr_val *v, const char *want)
{
	assert_int_equal(v->kind, EXPR_V_BYTES);
	if (v->u.s.n != strlen(want) || memcmp(v->u.s.p, want, v->u.s.n) != 0)
		fail_msg("'%.*s', want '%s'", (int)v->u.s.n, v->u.s.p, want);
}

/* A browser-like GET with headers, cookies, an address and a country. */
static struct expr_request *
sample(void)
{
	struct expr_request	*rq = expr_request_new();

	assert_int_equal(expr_request_set(rq, "get",
	    "https://Shop.Example.com:8443/Api/V1/Items.JSON?id=7&tag=a&tag=b"
	    "&flag#top"), 0);
	expr_request_add_header(rq, "Host", "Shop.Example.com:8443");
	expr_request_add_header(rq, "User-Agent", "Mozilla/5.0 (X11)");
	expr_request_add_header(rq, "X-Api-Key", "K-123");
	expr_request_add_header(rq, "Accept", "text/html");
	expr_request_add_header(rq, "x-api-key", "second");
	expr_request_add_header(rq, "Cookie", "session=abc; my%20pref=dark");
	expr_request_add_header(rq, "Cookie", "session=def");
	assert_int_equal(expr_request_set_ip(rq, "192.0.2.55"), 0);
	expr_request_set_country(rq, "de");
	expr_request_set_asnum(rq, 64501);
	return (rq);
}

/* ---- the request model ------------------------------------------------- */

static void
test_request_url_fields(void **state)
{
	struct expr_request	*rq = sample();
	const struct expr_val	*v;

	(void)state;
	assert_bytes(rq, EXPR_F_HTTP_HOST, "Shop.Example.com");
	assert_bytes(rq, EXPR_F_URI,
	    "/Api/V1/Items.JSON?id=7&tag=a&tag=b&flag");
	assert_bytes(rq, EXPR_F_URI_PATH, "/Api/V1/Items.JSON");
	assert_bytes(rq, EXPR_F_URI_QUERY, "id=7&tag=a&tag=b&flag");
	assert_bytes(rq, EXPR_F_URI_PATH_EXTENSION, "json");
	/* scheme://host/path?query: the host without its port. */
	assert_bytes(rq, EXPR_F_FULL_URI, "https://Shop.Example.com"
	    "/Api/V1/Items.JSON?id=7&tag=a&tag=b&flag");
	assert_bytes(rq, EXPR_F_METHOD, "GET");
	assert_bytes(rq, EXPR_F_VERSION, NULL);
	assert_bytes(rq, EXPR_F_IP_COUNTRY, "DE");
	v = expr_request_field(rq, EXPR_F_SSL);
	assert_int_equal(v->kind, EXPR_V_BOOL);
	assert_true(v->u.b);
	v = expr_request_field(rq, EXPR_F_IP_SRC);
	assert_int_equal(v->kind, EXPR_V_IP);
	assert_int_equal(v->u.ip.family, 4);
	assert_memory_equal(v->u.ip.bytes, "\xc0\x00\x02\x37", 4);
	v = expr_request_field(rq, EXPR_F_IP_ASNUM);
	assert_int_equal(v->kind, EXPR_V_INT);
	assert_int_equal(v->u.i, 64501);
	assert_int_equal(expr_request_field(rq, EXPR_F_RESPONSE_CODE)->kind,
	    EXPR_V_MISSING);
	assert_int_equal(expr_request_field(rq, EXPR_F_TIMESTAMP_SEC)->kind,
	    EXPR_V_MISSING);

	/* Args: not decoded, repeated keys in order, a bare key is "". */
	v = expr_request_field(rq, EXPR_F_URI_ARGS);
	assert_int_equal(v->kind, EXPR_V_MAP);
	assert_int_equal(v->u.map->n, 3);
	assert_val_bytes(&v->u.map->keys[0], "flag");
	assert_int_equal(v->u.map->vals[0].u.arr.n, 1);
	assert_val_bytes(&v->u.map->vals[0].u.arr.v[0], "");
	assert_val_bytes(&v->u.map->keys[2], "tag");
	assert_int_equal(v->u.map->vals[2].u.arr.n, 2);
	assert_val_bytes(&v->u.map->vals[2].u.arr.v[0], "a");
	assert_val_bytes(&v->u.map->vals[2].u.arr.v[1], "b");
	v = expr_request_field(rq, EXPR_F_URI_ARGS_NAMES);
	assert_int_equal(v->u.arr.n, 4);
	assert_val_bytes(&v->u.arr.v[3], "flag");
	expr_request_free(rq);
}

static void
test_request_headers_cookies(void **state)
{
	struct expr_request	*rq = sample();
	const struct expr_val	*v;

	(void)state;
	/* Names as they arrived, in order; map keys lower case. */
	v = expr_request_field(rq, EXPR_F_HEADERS_NAMES);
	assert_int_equal(v->u.arr.n, 7);
	assert_val_bytes(&v->u.arr.v[2], "X-Api-Key");
	assert_val_bytes(&v->u.arr.v[4], "x-api-key");
	v = expr_request_field(rq, EXPR_F_HEADERS_VALUES);
	assert_val_bytes(&v->u.arr.v[2], "K-123");
	v = expr_request_field(rq, EXPR_F_HEADERS);
	assert_int_equal(v->kind, EXPR_V_MAP);
	assert_int_equal(v->u.map->n, 5);
	assert_val_bytes(&v->u.map->keys[0], "accept");
	assert_val_bytes(&v->u.map->keys[4], "x-api-key");
	assert_int_equal(v->u.map->vals[4].u.arr.n, 2);
	assert_val_bytes(&v->u.map->vals[4].u.arr.v[0], "K-123");
	assert_val_bytes(&v->u.map->vals[4].u.arr.v[1], "second");
	assert_bytes(rq, EXPR_F_USER_AGENT, "Mozilla/5.0 (X11)");
	assert_bytes(rq, EXPR_F_COOKIE, "session=abc; my%20pref=dark; "
	    "session=def");
	assert_bytes(rq, EXPR_F_REFERER, "");

	/* Cookie names decoded, values not; one name from two headers. */
	v = expr_request_field(rq, EXPR_F_COOKIES);
	assert_int_equal(v->u.map->n, 2);
	assert_val_bytes(&v->u.map->keys[0], "my pref");
	assert_val_bytes(&v->u.map->keys[1], "session");
	assert_int_equal(v->u.map->vals[1].u.arr.n, 2);
	assert_val_bytes(&v->u.map->vals[1].u.arr.v[1], "def");
	expr_request_free(rq);
}

static void
test_request_parts_and_refusals(void **state)
{
	struct expr_request	*rq = expr_request_new();
	const struct expr_val	*v;

	(void)state;
	assert_int_equal(expr_request_set_parts(rq, "Post", "http",
	    "api.example.com", "/login"), 0);
	assert_bytes(rq, EXPR_F_URI, "/login");
	assert_bytes(rq, EXPR_F_URI_QUERY, "");
	assert_bytes(rq, EXPR_F_URI_PATH_EXTENSION, "");
	assert_bytes(rq, EXPR_F_FULL_URI, "http://api.example.com/login");
	assert_bytes(rq, EXPR_F_METHOD, "POST");
	v = expr_request_field(rq, EXPR_F_SSL);
	assert_false(v->u.b);

	/* A URL straight from host to query has the path "/". */
	expr_request_reset(rq);
	assert_int_equal(expr_request_set(rq, "GET", "http://h?q=1"), 0);
	assert_bytes(rq, EXPR_F_URI, "/?q=1");
	assert_bytes(rq, EXPR_F_HTTP_HOST, "h");

	/* IPv6, with and without brackets in the URL. */
	assert_int_equal(expr_request_set(rq, "GET", "http://[2001:db8::1]:80/"),
	    0);
	assert_bytes(rq, EXPR_F_HTTP_HOST, "[2001:db8::1]");
	assert_int_equal(expr_request_set_ip(rq, "2001:db8::7"), 0);
	v = expr_request_field(rq, EXPR_F_IP_SRC);
	assert_int_equal(v->u.ip.family, 6);
	assert_int_equal(v->u.ip.bytes[15], 7);

	/* What cannot be read is refused, and leaves the address unset. */
	assert_int_equal(expr_request_set(rq, "GET", "example.com/a"), -1);
	assert_int_equal(expr_request_set(rq, "GET", "http:///a"), -1);
	assert_int_equal(expr_request_set(rq, "GET", "http://h/a b"), -1);
	assert_int_equal(expr_request_set(rq, "GET", "http://h/a\nb"), -1);
	assert_int_equal(expr_request_set_parts(rq, "GET", "http", "h",
	    "no-slash"), -1);
	assert_int_equal(expr_request_set_ip(rq, "300.1.1.1"), -1);
	assert_int_equal(expr_request_field(rq, EXPR_F_IP_SRC)->kind,
	    EXPR_V_MISSING);
	assert_int_equal(expr_request_set_ip(rq, "1.2.3.4/8"), -1);
	/* ...and a refused URL leaves the request as it was. */
	assert_bytes(rq, EXPR_F_HTTP_HOST, "[2001:db8::1]");
	assert_bytes(rq, EXPR_F_URI, "/");
	assert_int_equal(expr_request_set(rq, "GET", "http://x/a\tb"), -1);
	assert_int_equal(expr_request_set(rq, "GET", "http://x:1?#"), 0);
	assert_bytes(rq, EXPR_F_URI, "/?");
	assert_bytes(rq, EXPR_F_URI_QUERY, "");
	assert_int_equal(expr_request_set_parts(rq, "GET", "https", "a b",
	    "/"), -1);
	assert_false(expr_request_field(rq, EXPR_F_SSL)->u.b);
	assert_bytes(rq, EXPR_F_HTTP_HOST, "x");
	expr_request_free(rq);
}

/* What a log line carries besides the URL, and a host from the header. */
static void
test_request_log_fields(void **state)
{
	struct expr_request	*rq = expr_request_new();

	(void)state;
	assert_int_equal(expr_request_set_parts(rq, "GET", "https", NULL,
	    "/x.tar.GZ?a"), 0);
	expr_request_add_header(rq, "Host", "h.example:443");
	expr_request_add_header(rq, "Referer", "https://a.example/");
	expr_request_add_header(rq, "X-Forwarded-For", "192.0.2.1");
	expr_request_add_header(rq, "x-forwarded-for", "198.51.100.2");
	expr_request_set_version(rq, "HTTP/2");
	expr_request_set_timestamp(rq, 1700000000);
	expr_request_set_verified_bot(rq, 1);
	expr_request_set_status(rq, 503);
	expr_request_add_response_header(rq, "Retry-After", "30");
	TRUE_(rq, "http.host eq \"h.example\" and http.request.full_uri eq "
	    "\"https://h.example/x.tar.GZ?a\"");
	TRUE_(rq, "http.request.uri.path.extension eq \"gz\"");
	TRUE_(rq, "http.request.uri.args[\"a\"][0] eq \"\"");
	TRUE_(rq, "http.referer eq \"https://a.example/\"");
	TRUE_(rq, "http.x_forwarded_for eq \"192.0.2.1, 198.51.100.2\"");
	TRUE_(rq, "http.request.version eq \"HTTP/2\"");
	TRUE_(rq, "http.request.timestamp.sec ge 1700000000");
	TRUE_(rq, "cf.bot_management.verified_bot and cf.client.bot and ssl");
	TRUE_(rq, "not http.request.headers.truncated");
	TRUE_(rq, "http.response.code eq 503 and "
	    "http.response.headers[\"retry-after\"][0] eq \"30\" and "
	    "any(http.response.headers.names[*] eq \"Retry-After\")");
	expr_request_set_country(rq, NULL);
	FALSE_(rq, "ip.src.country ne \"DE\"");
	expr_request_free(rq);
}

/* reset forgets everything: nothing of one log line shows in the next. */
static void
test_request_reset(void **state)
{
	struct expr_request	*rq = sample();
	const struct expr_val	*v;

	(void)state;
	expr_request_set_status(rq, 429);
	expr_request_add_response_header(rq, "Retry-After", "30");
	assert_int_equal(expr_request_field(rq, EXPR_F_RESPONSE_CODE)->u.i,
	    429);
	expr_request_reset(rq);
	assert_int_equal(expr_request_set(rq, "GET", "http://b.example/"), 0);
	assert_bytes(rq, EXPR_F_HTTP_HOST, "b.example");
	assert_bytes(rq, EXPR_F_USER_AGENT, "");
	assert_bytes(rq, EXPR_F_IP_COUNTRY, NULL);
	assert_int_equal(expr_request_field(rq, EXPR_F_IP_SRC)->kind,
	    EXPR_V_MISSING);
	assert_int_equal(expr_request_field(rq, EXPR_F_RESPONSE_CODE)->kind,
	    EXPR_V_MISSING);
	v = expr_request_field(rq, EXPR_F_HEADERS);
	assert_int_equal(v->u.map->n, 0);
	v = expr_request_field(rq, EXPR_F_COOKIES);
	assert_int_equal(v->u.map->n, 0);
	v = expr_request_field(rq, EXPR_F_RESPONSE_HEADERS);
	assert_int_equal(v->u.map->n, 0);
	expr_request_free(rq);
}

/*
 * Fields are derived when first read: whatever the order, each has its
 * value, and a value read first still points at it once every other
 * field has been derived (text added later never moves it), request
 * after request, the second one much longer than the first.
 */
static void
test_request_fields_any_order(void **state)
{
	static const enum expr_field	 order[] = {
		EXPR_F_URI_PATH, EXPR_F_HEADERS, EXPR_F_URI, EXPR_F_COOKIE,
		EXPR_F_FULL_URI, EXPR_F_URI_ARGS, EXPR_F_USER_AGENT,
		EXPR_F_URI_PATH_EXTENSION, EXPR_F_COOKIES, EXPR_F_REFERER,
		EXPR_F_X_FORWARDED_FOR, EXPR_F_RESPONSE_HEADERS, EXPR_F_HTTP_HOST,
	};
	struct expr_request	*rq = sample();
	const struct expr_val	*v;
	const char		*first;
	char			 path[3000];
	size_t			 i, k, round;

	(void)state;
	for (round = 0; round < 3; round++) {
		k = round % nitems(order);
		v = expr_request_field(rq, order[k]);
		first = v->kind == EXPR_V_BYTES ? v->u.s.p : NULL;
		for (i = 1; i < nitems(order); i++)
			(void)expr_request_field(rq,
			    order[(k + i) % nitems(order)]);
		if (first != NULL)
			assert_ptr_equal(expr_request_field(rq, order[k])->u.s.p,
			    first);
		if (round == 0) {
			assert_bytes(rq, EXPR_F_FULL_URI, "https://Shop.Example.com"
			    "/Api/V1/Items.JSON?id=7&tag=a&tag=b&flag");
			assert_bytes(rq, EXPR_F_URI_PATH, "/Api/V1/Items.JSON");
			assert_bytes(rq, EXPR_F_COOKIE, "session=abc; my%20pref="
			    "dark; session=def");
			assert_bytes(rq, EXPR_F_USER_AGENT, "Mozilla/5.0 (X11)");
			assert_bytes(rq, EXPR_F_URI_PATH_EXTENSION, "json");
			TRUE_(rq, "http.request.uri.args[\"tag\"][1] eq \"b\" and "
			    "http.request.headers[\"x-api-key\"][1] eq "
			    "\"second\" and http.request.cookies[\"session\"][1]"
			    " eq \"def\"");
		} else {
			assert_bytes(rq, EXPR_F_URI_PATH, path);
			assert_bytes(rq, EXPR_F_X_FORWARDED_FOR, "a, b");
			assert_bytes(rq, EXPR_F_USER_AGENT, "");
		}
		expr_request_reset(rq);
		memset(path, 'p', sizeof path - 1);
		path[0] = '/';
		path[sizeof path - 1] = '\0';
		assert_int_equal(expr_request_set_parts(rq, "GET", "http",
		    "h.example", path), 0);
		expr_request_add_header(rq, "X-Forwarded-For", "a");
		expr_request_add_header(rq, "X-Forwarded-For", "b");
	}
	expr_request_free(rq);
}

/* ---- functions on values (what expressions cannot reach directly) ------ */

static struct expr_val
vbytes(const char *s)
{
	struct expr_val	v;

	v.kind = EXPR_V_BYTES;
	v.u.s.p = s;
	v.u.s.n = strlen(s);
	return (v);
}

static struct expr_val
vint(int64_t i)
{
	struct expr_val	v;

	v.kind = EXPR_V_INT;
	v.u.i = i;
	return (v);
}

static void
test_func_json(void **state)
{
	struct expr_request	*rq = expr_request_new();
	const char		*doc = "{ \"a\": {\"b\" : [1, {\"c\": \"x\\\"y"
	    "\\u00e9\\ud83d\\ude00\"}, -42]}, \"n\": 9223372036854775807, "
	    "\"f\": 1.5, \"e\": \"\" }";
	struct expr_val		 a[5], out;

	(void)state;
	a[0] = vbytes(doc);
	a[1] = vbytes("a");
	a[2] = vbytes("b");
	a[3] = vint(1);
	a[4] = vbytes("c");
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_STRING, a, 5, &out);
	assert_val_bytes(&out, "x\"y\xc3\xa9\xf0\x9f\x98\x80");
	a[3] = vint(2);
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_INTEGER, a, 4, &out);
	assert_int_equal(out.kind, EXPR_V_INT);
	assert_int_equal(out.u.i, -42);
	/* A string is not an integer, an index past the end is missing. */
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_STRING, a, 4, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	a[3] = vint(3);
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_INTEGER, a, 4, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	a[1] = vbytes("n");
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_INTEGER, a, 2, &out);
	assert_int_equal(out.u.i, INT64_MAX);
	a[1] = vbytes("f");
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_INTEGER, a, 2, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	a[1] = vbytes("e");
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_STRING, a, 2, &out);
	assert_val_bytes(&out, "");
	/* Broken JSON gives a missing value, never a read past the end. */
	a[0] = vbytes("{\"a\": \"unterminated");
	a[1] = vbytes("a");
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_STRING, a, 2, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	a[0] = vbytes("{\"z\": [1, 2");
	expr_func_call(rq, EXPR_FN_LOOKUP_JSON_STRING, a, 2, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	expr_request_free(rq);
}

static void
test_func_base64_cidr(void **state)
{
	struct expr_request	*rq = expr_request_new();
	struct expr_val		 a[3], out;

	(void)state;
	a[0] = vbytes("aGVsbG8=");
	expr_func_call(rq, EXPR_FN_DECODE_BASE64, a, 1, &out);
	assert_val_bytes(&out, "hello");
	a[0] = vbytes("aGVsbG8");
	expr_func_call(rq, EXPR_FN_DECODE_BASE64, a, 1, &out);
	assert_val_bytes(&out, "hello");
	a[0] = vbytes("aGVs!G8=");
	expr_func_call(rq, EXPR_FN_DECODE_BASE64, a, 1, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	a[0] = vbytes("a");
	expr_func_call(rq, EXPR_FN_DECODE_BASE64, a, 1, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);

	a[0].kind = EXPR_V_IP;
	assert_int_equal(expr_ip_parse("192.0.2.255", 11, &a[0].u.ip), 0);
	a[1] = vint(20);
	a[2] = vint(64);
	expr_func_call(rq, EXPR_FN_CIDR, a, 3, &out);
	assert_int_equal(out.kind, EXPR_V_IP);
	assert_memory_equal(out.u.ip.bytes, "\xc0\x00\x00\x00", 4);
	a[1] = vint(0);
	expr_func_call(rq, EXPR_FN_CIDR, a, 3, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	expr_request_free(rq);
}

/* ---- semantics (12.2) ------------------------------------------------- */

static void
test_case_rules(void **state)
{
	struct expr_request	*rq = sample();

	(void)state;
	TRUE_(rq, "http.host eq \"Shop.Example.com\"");
	FALSE_(rq, "http.host eq \"shop.example.com\"");
	TRUE_(rq, "lower(http.host) == \"shop.example.com\"");
	FALSE_(rq, "http.request.uri.path contains \"/api/\"");
	TRUE_(rq, "http.request.uri.path contains \"/Api/\"");
	FALSE_(rq, "http.host in {\"shop.example.com\" \"x\"}");
	TRUE_(rq, "http.host in {\"x\" \"Shop.Example.com\"}");
	FALSE_(rq, "http.request.uri.path matches \"^/api\"");
	TRUE_(rq, "http.request.uri.path matches \"(?i)^/api\"");
	TRUE_(rq, "http.request.uri.path wildcard \"/api/*\"");
	FALSE_(rq, "http.request.uri.path strict wildcard \"/api/*\"");
	TRUE_(rq, "http.request.uri.path strict wildcard \"/Api/*\"");
	TRUE_(rq, "http.request.method ne \"get\"");
	expr_request_free(rq);
}

static void
test_wildcard(void **state)
{
	struct expr_request	*rq = expr_request_new();

	(void)state;
	assert_int_equal(expr_request_set(rq, "GET",
	    "http://h/Files/a*b\\c.txt"), 0);
	/* The whole value, not a part of it. */
	TRUE_(rq, "http.request.uri.path wildcard \"/files/*\"");
	FALSE_(rq, "http.request.uri.path wildcard \"files/*\"");
	FALSE_(rq, "http.request.uri.path wildcard \"/files\"");
	TRUE_(rq, "http.request.uri.path wildcard \"*.TXT\"");
	FALSE_(rq, "http.request.uri.path wildcard \"*.tx\"");
	TRUE_(rq, "http.request.uri.path wildcard \"*\"");
	TRUE_(rq, "http.request.uri.path wildcard \"/*/*b*c.txt\"");
	TRUE_(rq, "http.request.uri.path wildcard r\"/files/a*b\\\\c.txt\"");
	FALSE_(rq, "http.request.uri.path wildcard \"/*/x*\"");
	/* \* is a star itself, \\ a backslash. */
	TRUE_(rq, "http.request.uri.path wildcard r\"/files/a\\*b\\\\c.txt\"");
	FALSE_(rq, "http.request.uri.path wildcard r\"/files/a\\*\"");
	TRUE_(rq, "http.request.uri.path wildcard r\"/files/a\\**\"");
	FALSE_(rq, "http.request.uri.path strict wildcard r\"/files/a\\**\"");
	TRUE_(rq, "http.request.uri.path strict wildcard r\"/Files/a\\**\"");
	/* A star matches nothing too: "ab" is a*b. */
	expr_request_reset(rq);
	assert_int_equal(expr_request_set(rq, "GET", "http://h/ab"), 0);
	TRUE_(rq, "http.request.uri.path wildcard \"/a*b\"");
	FALSE_(rq, "http.request.uri.path wildcard \"/ab*ab\"");
	expr_request_free(rq);
}

static void
test_regex(void **state)
{
	struct expr_request	*rq = sample();

	(void)state;
	/* Unanchored unless written so. */
	TRUE_(rq, "http.request.uri.path matches \"V1/It\"");
	FALSE_(rq, "http.request.uri.path matches \"^V1\"");
	TRUE_(rq, "http.request.uri.path ~ r\"\\.JSON$\"");
	TRUE_(rq, "http.request.uri.path matches \"^/Api/(V1|V2)/\"");
	FALSE_(rq, "http.user_agent matches \"^curl/\\d+\"");
	TRUE_(rq, "http.user_agent matches \"Mozilla/\\d\\.\\d\"");
	expr_request_free(rq);
}

#define UNKNOWN_(rq, text)	assert_int_equal(eval(rq, text), EXPR_UNKNOWN)

/* A request for path on example.com. */
static struct expr_request *
request_path(const char *path)
{
	struct expr_request	*rq = expr_request_new();
	char			*url;

	assert_true(asprintf(&url, "https://example.com%s", path) > 0);
	assert_int_equal(expr_request_set(rq, "GET", url), 0);
	free(url);
	return (rq);
}

/* "/" and n times c. */
static char *
path_of(size_t n, char c)
{
	char	*p = malloc(n + 2);

	assert_non_null(p);
	p[0] = '/';
	memset(p + 1, c, n);
	p[n + 1] = '\0';
	return (p);
}

/*
 * A pattern whose backtracking is exponential reaches PCRE2's match limit:
 * the DFA matcher then answers (as the service's linear engine would),
 * and on this request object goes first for that pattern from then on.
 */
static void
test_regex_backtracking(void **state)
{
	struct expr_request	*rq;
	char			*p;
	int			 i;

	(void)state;
	p = path_of(30, 'a');
	rq = request_path(p);
	for (i = 0; i < 2; i++) {
		TRUE_(rq, "http.request.uri.path matches "
		    "\"^/(?:(a|aa)+b|a+)$\"");
		FALSE_(rq, "http.request.uri.path matches "
		    "\"^/(?:(a|aa)+b|x)$\"");
		TRUE_(rq, "not http.request.uri.path matches "
		    "\"^/(?:(a|aa)+b|x)$\"");
	}
	expr_request_free(rq);
	free(p);
	/* Short paths and the one above, in turns, on one request object. */
	rq = expr_request_new();
	for (i = 0; i < 6; i++) {
		p = path_of(i % 2 ? 30 : 3, i % 3 ? 'a' : 'b');
		expr_request_reset(rq);
		assert_int_equal(expr_request_set_parts(rq, "GET", "https",
		    "example.com", p), 0);
		if (i % 3 == 0)
			FALSE_(rq, "http.request.uri.path matches "
			    "\"^/(?:(a|aa)+b|a+)$\"");
		else
			TRUE_(rq, "http.request.uri.path matches "
			    "\"^/(?:(a|aa)+b|a+)$\"");
		free(p);
	}
	expr_request_free(rq);
}

/*
 * When both matchers reach their limits (a backtracking pattern, and a
 * value so long the DFA's tries run out), the comparison is unknown, and
 * so is what depends on it, as Kleene's logic has it: an and with a
 * false is false, an or with a true is true whatever the regex says.
 */
static void
test_regex_unknown(void **state)
{
	static const char	re[] = "http.request.uri.path matches "
				    "\"(a|aa)+[bc]\"";
	struct expr_request	*rq;
	struct expr_memo	*m;
	struct expr		*e;
	char			*p, text[256];

	(void)state;
	p = path_of(100000, 'a');
	rq = request_path(p);
	expr_request_add_header(rq, "X-A", "1");
	expr_request_add_header(rq, "X-B", "2");
	UNKNOWN_(rq, re);
	snprintf(text, sizeof text, "not %s", re);
	UNKNOWN_(rq, text);
	snprintf(text, sizeof text, "%s or http.host eq \"example.com\"", re);
	TRUE_(rq, text);
	snprintf(text, sizeof text, "%s or http.host eq \"x\"", re);
	UNKNOWN_(rq, text);
	snprintf(text, sizeof text, "http.host eq \"x\" and %s", re);
	FALSE_(rq, text);
	snprintf(text, sizeof text, "%s and http.host eq \"example.com\"", re);
	UNKNOWN_(rq, text);
	snprintf(text, sizeof text, "%s xor ssl", re);
	UNKNOWN_(rq, text);
	/* Under any() and all(): an element decides, else unknown. */
	expr_request_add_header(rq, "X-Long", p + 1);
	expr_request_add_header(rq, "X-Ab", "ab");
	TRUE_(rq, "any(http.request.headers.values[*] matches "
	    "\"(a|aa)+[bc]\")");
	UNKNOWN_(rq, "any(http.request.headers.values[*] matches "
	    "\"(a|aa)+[cd]\")");
	UNKNOWN_(rq, "all(http.request.headers.values[*] matches "
	    "\"(a|aa)+[bc]|[12]\")");
	expr_request_add_header(rq, "X-Zz", "zz");
	FALSE_(rq, "all(http.request.headers.values[*] matches "
	    "\"(a|aa)+[bc]|[12]\")");
	/* Anchored, the DFA tries one place only: it answers. */
	FALSE_(rq, "http.request.uri.path matches \"^/(a|aa)+[bc]\"");
	/* Remembered, it stays unknown, and says so. */
	e = parse(re);
	m = expr_memo_new(e);
	assert_int_equal(expr_eval_memo(m, rq), EXPR_UNKNOWN);
	assert_int_equal(expr_eval_memo(m, rq), EXPR_UNKNOWN);
	assert_int_equal(expr_eval_memo_set(m, rq), 0);
	assert_int_equal(expr_memo_unknown(m), 1);
	expr_memo_free(m);
	expr_free(e);
	expr_request_free(rq);
	free(p);
	/* The same pattern on a short value: known again. */
	p = path_of(40, 'a');
	rq = request_path(p);
	FALSE_(rq, re);
	expr_request_free(rq);
	free(p);
}

static void
test_sets_ips_ints(void **state)
{
	struct expr_request	*rq = sample();
	const char		*set = "ip.src in {10.0.0.0/8 192.0.2.0/26 "
	    "198.51.100.10..198.51.100.20 2001:db8::/32 2001:db9::5}";
	char			 buf[256];

	(void)state;
	TRUE_(rq, set);
	assert_int_equal(expr_request_set_ip(rq, "192.0.2.64"), 0);
	FALSE_(rq, set);
	assert_int_equal(expr_request_set_ip(rq, "198.51.100.20"), 0);
	TRUE_(rq, set);
	assert_int_equal(expr_request_set_ip(rq, "198.51.100.21"), 0);
	FALSE_(rq, set);
	assert_int_equal(expr_request_set_ip(rq, "2001:db8:ffff::1"), 0);
	TRUE_(rq, set);
	assert_int_equal(expr_request_set_ip(rq, "2001:db9::5"), 0);
	TRUE_(rq, set);
	assert_int_equal(expr_request_set_ip(rq, "2001:db9::6"), 0);
	FALSE_(rq, set);
	/* An IPv4 address is not in an IPv6 network and back. */
	assert_int_equal(expr_request_set_ip(rq, "32.1.13.184"), 0);
	FALSE_(rq, set);
	TRUE_(rq, "ip.src eq 32.1.13.184 and ip.src ne 10.0.0.1");
	FALSE_(rq, "ip.src eq ::ffff:32.1.13.184 or ip.src ge ::");
	TRUE_(rq, "ip.src ne ::ffff:32.1.13.184 and ip.src lt ::");
	TRUE_(rq, "cidr(ip.src, 24, 64) == 32.1.13.0");
	assert_int_equal(expr_request_set_ip(rq, "2001:db8:1:2:3::9"), 0);
	TRUE_(rq, "cidr(ip.src, 24, 48) == 2001:db8:1::");
	TRUE_(rq, "cidr6(ip.src, 32) == 2001:db8::");
	/* Another family is another address: ne is true, eq false. */
	TRUE_(rq, "ip.src ne 10.0.0.1 and not ip.src eq 10.0.0.1");
	TRUE_(rq, "ip.src gt 255.255.255.255");

	expr_request_set_status(rq, 430);
	snprintf(buf, sizeof buf, "http.response.code in {401 403 429..431}");
	TRUE_(rq, buf);
	expr_request_set_status(rq, 432);
	FALSE_(rq, buf);
	expr_request_set_status(rq, 403);
	TRUE_(rq, buf);
	TRUE_(rq, "http.response.code ge 400 and http.response.code < 404");
	FALSE_(rq, "http.response.code gt 403");
	/* & on integers: any common bit. */
	TRUE_(rq, "http.response.code & 0x3 and ip.src.asnum & 1");
	FALSE_(rq, "http.response.code & 4");
	expr_request_free(rq);
}

static void
test_maps_arrays(void **state)
{
	struct expr_request	*rq = sample();

	(void)state;
	TRUE_(rq, "any(http.request.headers[\"x-api-key\"][*] ne \"\")");
	TRUE_(rq, "any(http.request.headers[\"x-api-key\"][*] == \"second\")");
	FALSE_(rq, "all(http.request.headers[\"x-api-key\"][*] == \"second\")");
	TRUE_(rq, "all(http.request.headers[\"x-api-key\"][*] contains \"e\" "
	    "or http.request.headers[\"x-api-key\"][*] contains \"K\")");
	TRUE_(rq, "http.request.headers[\"x-api-key\"][0] == \"K-123\"");
	TRUE_(rq, "http.request.headers[\"x-api-key\"][1] == \"second\"");
	/* Names keep their case; lower() maps over the array. */
	FALSE_(rq, "any(http.request.headers.names[*] == \"x-api-key\" and "
	    "http.request.headers.names[*] == \"X-Api-Key\")");
	TRUE_(rq, "any(http.request.headers.names[*] == \"X-Api-Key\")");
	TRUE_(rq, "any(lower(http.request.headers.names[*])[*] == "
	    "\"accept\")");
	TRUE_(rq, "all(http.request.headers.names[*] ne \"X-Bad\")");
	TRUE_(rq, "len(http.request.headers.names) == 7");
	TRUE_(rq, "any(len(http.request.headers.values[*])[*] > 16)");
	TRUE_(rq, "any(http.request.headers[*][0] == \"text/html\")");
	/* Cookies and args. */
	TRUE_(rq, "http.request.cookies[\"session\"][0] == \"abc\"");
	TRUE_(rq, "http.request.cookies[\"my pref\"][0] == \"dark\"");
	TRUE_(rq, "any(http.request.cookies[\"session\"][*] == \"def\")");
	TRUE_(rq, "http.request.uri.args[\"tag\"][1] == \"b\"");
	TRUE_(rq, "http.request.uri.args[\"flag\"][0] == \"\"");
	TRUE_(rq, "any(http.request.uri.args.values[*] == \"7\")");
	TRUE_(rq, "any(http.request.uri.args.names[*] == \"flag\")");
	expr_request_free(rq);
}

static void
test_missing_values(void **state)
{
	struct expr_request	*rq = sample();

	(void)state;
	/* An absent key or an index past the end: every comparison false. */
	FALSE_(rq, "http.request.headers[\"nope\"][0] == \"\"");
	FALSE_(rq, "http.request.headers[\"nope\"][0] ne \"x\"");
	FALSE_(rq, "http.request.headers[\"x-api-key\"][2] ne \"x\"");
	TRUE_(rq, "not http.request.headers[\"x-api-key\"][2] eq \"x\"");
	FALSE_(rq, "http.request.cookies[\"x\"][0] contains \"\"");
	FALSE_(rq, "any(http.request.headers[\"nope\"][*] ne \"x\")");
	/* all() over an empty array is true, over a missing one false. */
	FALSE_(rq, "all(http.request.headers[\"nope\"][*] eq \"x\")");
	/* Functions pass the missing value on. */
	FALSE_(rq, "lower(http.request.headers[\"nope\"][0]) ne \"x\"");
	FALSE_(rq, "len(http.request.headers[\"nope\"][0]) ge 0");
	FALSE_(rq, "starts_with(http.request.headers[\"nope\"][0], \"\")");
	/* Unset: version, timestamp, status (not a counting line). */
	FALSE_(rq, "http.request.version ne \"HTTP/1.1\"");
	FALSE_(rq, "http.request.timestamp.sec ge 0");
	FALSE_(rq, "http.response.code ne 200");
	expr_request_reset(rq);
	assert_int_equal(expr_request_set(rq, "GET", "http://h/"), 0);
	FALSE_(rq, "ip.src in {0.0.0.0/0 ::/0}");
	TRUE_(rq, "not ip.src in {0.0.0.0/0 ::/0}");
	FALSE_(rq, "ip.src.country eq \"DE\"");
	TRUE_(rq, "all(http.request.uri.args.names[*] eq \"x\")");
	FALSE_(rq, "any(http.request.uri.args.names[*] ne \"x\")");
	/* An absent header is an empty value, as the service has it. */
	TRUE_(rq, "http.user_agent eq \"\"");
	expr_request_free(rq);
}

static void
test_functions(void **state)
{
	struct expr_request	*rq = sample();

	(void)state;
	TRUE_(rq, "upper(http.request.uri.path) == \"/API/V1/ITEMS.JSON\"");
	TRUE_(rq, "len(http.request.uri.path) == 18");
	TRUE_(rq, "starts_with(http.request.uri.path, \"/Api/\")");
	FALSE_(rq, "starts_with(http.request.uri.path, \"/api/\")");
	TRUE_(rq, "ends_with(http.request.uri.path, \".JSON\")");
	FALSE_(rq, "ends_with(http.host, \"Shop.Example.com.\")");
	TRUE_(rq, "concat(http.request.method, \" \", http.host) == "
	    "\"GET Shop.Example.com\"");
	TRUE_(rq, "len(concat(http.request.headers.names, "
	    "http.request.uri.args.names)) == 11");
	TRUE_(rq, "substring(http.request.uri.path, 1, 4) == \"Api\"");
	TRUE_(rq, "substring(http.request.uri.path, -4) == \"JSON\"");
	TRUE_(rq, "substring(http.request.uri.path, 0, -5) == "
	    "\"/Api/V1/Items\"");
	TRUE_(rq, "substring(http.request.uri.path, 40) == \"\"");
	TRUE_(rq, "substring(http.request.uri.path, -40, 2) == \"/A\"");
	TRUE_(rq, "remove_bytes(http.host, \".e\") == \"ShopExamplcom\"");
	TRUE_(rq, "url_decode(http.request.cookies[\"my pref\"][0]) == "
	    "\"dark\"");
	FALSE_(rq, "is_timed_hmac_valid_v0(\"secret\", "
	    "http.request.uri, 100000, http.request.timestamp.sec, 8)");

	expr_request_reset(rq);
	assert_int_equal(expr_request_set(rq, "GET",
	    "http://h/a%2520b+c%u00e9?q=eyJhIjogMX0="), 0);
	TRUE_(rq, "url_decode(http.request.uri.path) == \"/a%20b c%u00e9\"");
	TRUE_(rq, "url_decode(http.request.uri.path, \"r\") == "
	    "\"/a b c%u00e9\"");
	TRUE_(rq, "url_decode(http.request.uri.path, \"ur\") == "
	    "\"/a b c\\xc3\\xa9\"");
	TRUE_(rq, "lookup_json_integer(decode_base64(http.request.uri.args"
	    "[\"q\"][0]), \"a\") == 1");
	expr_request_free(rq);
}

/* ---- explain ---------------------------------------------------------- */

struct steps {
	char	buf[2048];
	int	n;
};

static void
collect(const struct expr_step *s, void *arg)
{
	struct steps	*st = arg;
	size_t		 len = strlen(st->buf);
	static const char *const vals[] = { "false", "true", "missing",
	    "unknown" };

	snprintf(st->buf + len, sizeof st->buf - len, "%d|%s|%s|%s|%d\n",
	    s->depth, s->text, s->seen != NULL ? s->seen : "-",
	    vals[s->value], s->column);
	st->n++;
}

static void
test_explain(void **state)
{
	struct expr_request	*rq = sample();
	struct expr		*e;
	struct steps		 st;

	(void)state;
	e = parse("http.host eq \"Shop.Example.com\" and "
	    "http.request.method eq \"POST\" and "
	    "http.request.headers[\"nope\"][0] eq \"x\"");
	memset(&st, 0, sizeof st);
	assert_int_equal(expr_explain(e, rq, collect, &st), 0);
	assert_int_equal(st.n, 4);
	/* The whole `and` false, naming the comparison that made it so. */
	if (strstr(st.buf, "0|") != st.buf ||
	    strstr(st.buf, "|-|false|1\n") == NULL ||
	    strstr(st.buf, "1|http.host eq \"Shop.Example.com\"|"
	    "\"Shop.Example.com\"|true|1\n") == NULL ||
	    strstr(st.buf, "1|http.request.method eq \"POST\"|\"GET\"|false|"
	    "37\n") == NULL ||
	    strstr(st.buf, "|missing|missing|") == NULL)
		fail_msg("explain gave:\n%s", st.buf);
	expr_free(e);

	/* A regex that reached its limits: unknown, and so its and. */
	{
		char	*p = path_of(100000, 'a');
		struct expr_request *lrq = request_path(p);

		e = parse("http.request.uri.path matches \"(a|aa)+[bc]\" and "
		    "http.request.method eq \"GET\"");
		memset(&st, 0, sizeof st);
		assert_int_equal(expr_explain(e, lrq, collect, &st),
		    EXPR_UNKNOWN);
		if (strstr(st.buf, "0|") != st.buf ||
		    strstr(st.buf, "|-|unknown|1\n") == NULL ||
		    strstr(st.buf, "\"(a|aa)+[bc]\"|\"/aaaa") == NULL ||
		    strstr(st.buf, "...|unknown|1\n") == NULL ||
		    strstr(st.buf, "|\"GET\"|true|") == NULL)
			fail_msg("explain gave:\n%s", st.buf);
		expr_free(e);
		expr_request_free(lrq);
		free(p);
	}

	/* Under any(): the element that decided. */
	e = parse("any(http.request.headers.names[*] == \"Accept\")");
	memset(&st, 0, sizeof st);
	assert_int_equal(expr_explain(e, rq, collect, &st), 1);
	if (strstr(st.buf, "|\"Accept\"|true|") == NULL)
		fail_msg("explain gave:\n%s", st.buf);
	expr_free(e);
	expr_request_free(rq);
}

/* ---- no allocation once warm ------------------------------------------- */

static void
test_warm_no_alloc(void **state)
{
	static const char *const rules[] = {
		"http.request.uri.path wildcard \"/api/*\" and "
		    "http.request.method in {\"POST\" \"PUT\"}",
		"any(lower(http.request.headers.names[*])[*] == \"x-api-key\")",
		"http.user_agent matches \"(?i)(curl|python|bot)\\d*\"",
		"concat(lower(http.host), http.request.uri.path) contains "
		    "\"example.com/api\"",
		"url_decode(http.request.uri.query, \"ur\") contains \"<script\"",
		"not ip.src in {10.0.0.0/8 2001:db8::/32} and "
		    "lookup_json_string(http.request.cookies[\"s\"][0], \"u\") "
		    "eq \"x\"",
	};
	struct expr		*e[nitems(rules)];
	struct expr_request	*rq = expr_request_new();
	size_t			 i, round, before;
	char			 url[128];

	(void)state;
	for (i = 0; i < nitems(rules); i++)
		e[i] = parse(rules[i]);
	/* Warm up on the largest line, then feed others: nothing new. */
	before = 0;
	for (round = 0; round < 50; round++) {
		/* By now every kind of line below has been seen. */
		if (round == 10)
			before = allocs;
		expr_request_reset(rq);
		snprintf(url, sizeof url, "https://Example.com/api/v%zu/x?a=%03zu"
		    "&q=%%3Cscript%%3E", round % 7, round);
		assert_int_equal(expr_request_set(rq, round % 2 ? "POST" :
		    "GET", url), 0);
		expr_request_add_header(rq, "User-Agent", round % 3 ?
		    "curl/8.1" : "Mozilla/5.0");
		expr_request_add_header(rq, "X-API-Key", "k");
		expr_request_add_header(rq, "Cookie", "s={\"u\": \"x\"}");
		assert_int_equal(expr_request_set_ip(rq, round % 2 ?
		    "10.1.2.3" : "2001:db9::1"), 0);
		for (i = 0; i < nitems(rules); i++)
			(void)expr_eval(e[i], rq);
	}
	assert_int_equal(allocs - before, 0);
	/* And the rules still say what they should on the last line. */
	assert_int_equal(expr_eval(e[0], rq), 1);
	assert_int_equal(expr_eval(e[1], rq), 1);
	assert_int_equal(expr_eval(e[2], rq), 1);
	assert_int_equal(expr_eval(e[3], rq), 1);
	assert_int_equal(expr_eval(e[4], rq), 1);
	assert_int_equal(expr_eval(e[5], rq), 0);
	for (i = 0; i < nitems(rules); i++)
		expr_free(e[i]);
	expr_request_free(rq);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_request_url_fields),
		cmocka_unit_test(test_request_headers_cookies),
		cmocka_unit_test(test_request_parts_and_refusals),
		cmocka_unit_test(test_request_log_fields),
		cmocka_unit_test(test_request_reset),
		cmocka_unit_test(test_request_fields_any_order),
		cmocka_unit_test(test_func_json),
		cmocka_unit_test(test_func_base64_cidr),
		cmocka_unit_test(test_case_rules),
		cmocka_unit_test(test_wildcard),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_regex_backtracking),
		cmocka_unit_test(test_regex_unknown),
		cmocka_unit_test(test_sets_ips_ints),
		cmocka_unit_test(test_maps_arrays),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_warm_no_alloc),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
