/*
 * Integration tests for API Shield over HTTP: operations (create, dedupe,
 * bulk, delete, paging, filters, order, features), discovery and its
 * states, user schema uploads, schema-validation settings, the demo zone
 * and zones as namespaces.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "itest.h"
#include "jsonget.h"

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

#define ZONE_A		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define ZONE_B		"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"
#define NO_ID		"00000000-0000-4000-8000-000000000000"
#define BOUNDARY	"edgemu-test-7MA4YWxkTrZu0gW"

/* /zones/ZONE/api_gateway + the rest, printf-style. */
static char *
gw(const char *zone, const char *fmt, ...) __attribute__((format(printf,
    2, 3)));

static char *
gw(const char *zone, const char *fmt, ...)
{
	va_list	 ap;
	char	*rest, *path;

	va_start(ap, fmt);
	if (vasprintf(&rest, fmt, ap) == -1)
		fail_msg("vasprintf");
	va_end(ap);
	path = itest_printf("/zones/%s/api_gateway%s", zone, rest);
	free(rest);
	return (path);
}

/* Percent-encode a value for a query string. */
static char *
encode(const char *s)
{
	char	*out = malloc(strlen(s) * 3 + 1), *o = out;

	for (; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("-._~/", *s) != NULL)
			*o++ = *s;
		else
			o += sprintf(o, "%%%02X", (unsigned char)*s);
	}
	*o = '\0';
	return (out);
}

static void
assert_refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *want)
{
	char	*msg = api_fail(e, method, path, body, status);

	if (strstr(msg, want) == NULL)
		fail_msg("%s %s: message '%s' lacks '%s'", method, path, msg,
		    want);
	free(msg);
}

/* One page of a list, result_info checked against the result. */
struct page {
	cJSON	*result;
	long	 page, per_page, count, total_count, total_pages;
};

static void
list(struct edgemu *e, const char *path, struct page *p)
{
	struct http_resp	 r;
	const cJSON		*info;

	http_json(e, "GET", path, NULL, &r);
	if (r.status != 200)
		fail_msg("GET %s: %ld %.300s", path, r.status, r.body);
	assert_envelope(&r);
	info = jget(r.json, "result_info");
	p->result = cJSON_Duplicate(jget(r.json, "result"), 1);
	assert_true(cJSON_IsArray(p->result));
	p->page = (long)jget(info, "page")->valuedouble;
	p->per_page = (long)jget(info, "per_page")->valuedouble;
	p->count = (long)jget(info, "count")->valuedouble;
	p->total_count = (long)jget(info, "total_count")->valuedouble;
	p->total_pages = (long)jget(info, "total_pages")->valuedouble;
	assert_int_equal(p->count, cJSON_GetArraySize(p->result));
	http_resp_free(&r);
}

static long
total(struct edgemu *e, const char *zone, const char *fmt)
{
	struct page	 p;
	char		*path = gw(zone, "%s", fmt);
	long		 n;

	list(e, path, &p);
	n = p.total_count;
	cJSON_Delete(p.result);
	free(path);
	return (n);
}

static cJSON *
create_op(struct edgemu *e, const char *zone, const char *method,
    const char *host, const char *endpoint)
{
	char	*path = gw(zone, "/operations/item"), *body;
	cJSON	*op;

	body = itest_printf("{\"method\":\"%s\",\"host\":\"%s\","
	    "\"endpoint\":\"%s\"}", method, host, endpoint);
	op = api_ok(e, "POST", path, body);
	free(body);
	free(path);
	return (op);
}

/* A multipart/form-data body built by hand. */
struct part {
	const char	*name;
	const char	*filename;	/* NULL: a plain field */
	const char	*data;
	size_t		 len;		/* 0: strlen(data) */
};

static char *
multipart(const struct part *parts, size_t n, size_t *lenp)
{
	size_t	 size = 256, len = 0, i, dlen;
	char	*b;

	for (i = 0; i < n; i++)
		size += 256 + (parts[i].len != 0 ? parts[i].len :
		    strlen(parts[i].data));
	b = malloc(size);
	for (i = 0; i < n; i++) {
		dlen = parts[i].len != 0 ? parts[i].len : strlen(parts[i].data);
		len += (size_t)snprintf(b + len, size - len, "--" BOUNDARY
		    "\r\nContent-Disposition: form-data; name=\"%s\"",
		    parts[i].name);
		if (parts[i].filename != NULL)
			len += (size_t)snprintf(b + len, size - len,
			    "; filename=\"%s\"\r\nContent-Type: "
			    "application/octet-stream", parts[i].filename);
		len += (size_t)snprintf(b + len, size - len, "\r\n\r\n");
		memcpy(b + len, parts[i].data, dlen);
		len += dlen;
		len += (size_t)snprintf(b + len, size - len, "\r\n");
	}
	len += (size_t)snprintf(b + len, size - len, "--" BOUNDARY "--\r\n");
	*lenp = len;
	return (b);
}

static void
upload(struct edgemu *e, const char *zone, const struct part *parts,
    size_t n, struct http_resp *r)
{
	char	*path = gw(zone, "/user_schemas"), *body;
	size_t	 len;

	body = multipart(parts, n, &len);
	http_request(e, "POST", path, "multipart/form-data; boundary="
	    BOUNDARY, body, len, NULL, r);
	assert_envelope(r);
	free(body);
	free(path);
}

static const char pets_json[] =
	"{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Pets\","
	"\"version\":\"1.0\"},\"servers\":[{\"url\":"
	"\"https://pets.example.com/v2\"}],\"paths\":{"
	"\"/pets\":{\"get\":{},\"post\":{}},"
	"\"/pets/{petId}\":{\"get\":{}}}}";

static const char pets_yaml[] =
	"openapi: 3.0.0\n"
	"info:\n"
	"  title: Pet admin\n"
	"  version: \"3\"\n"
	"servers:\n"
	"  - url: https://admin.example.com\n"
	"paths:\n"
	"  /owners/{ownerId}:\n"
	"    delete: {}\n";

/* ---- operations -------------------------------------------------------- */

static void
test_op_lifecycle(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*op, *got, *del;
	char		*path, *upper, *p;

	op = create_op(e, ZONE_A, "get", "API.Example.com",
	    "/users/{user}/posts/{post}");
	assert_int_equal(strlen(jstr(op, "operation_id")), 36);
	assert_string_equal(jstr(op, "method"), "GET");
	assert_string_equal(jstr(op, "host"), "api.example.com");
	assert_string_equal(jstr(op, "endpoint"), "/users/{var1}/posts/{var2}");
	assert_non_null(strchr(jstr(op, "last_updated"), 'T'));
	assert_null(cJSON_GetObjectItem(op, "features"));

	path = gw(ZONE_A, "/operations/%s", jstr(op, "operation_id"));
	got = api_ok(e, "GET", path, NULL);
	assert_json_equal(got, op);
	cJSON_Delete(got);

	/* UUIDs compare case-insensitively. */
	upper = strdup(path);
	for (p = strstr(upper, "/operations/") + 12; *p != '\0'; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 'a' + 'A');
	got = api_ok(e, "GET", upper, NULL);
	assert_json_equal(got, op);
	cJSON_Delete(got);
	free(upper);

	del = api_ok(e, "DELETE", path, NULL);
	assert_true(cJSON_IsNull(del));
	cJSON_Delete(del);
	assert_refused(e, "GET", path, NULL, 404, jstr(op, "operation_id"));
	assert_refused(e, "DELETE", path, NULL, 404, "was not found");
	assert_int_equal(total(e, ZONE_A, "/operations"), 0);
	free(path);
	cJSON_Delete(op);
}

static void
test_op_duplicate(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*a, *b, *list;
	char		*path;

	a = create_op(e, ZONE_A, "POST", "shop.example.com", "/carts/{id}");
	/* The same once normalised: case, variable names. */
	b = create_op(e, ZONE_A, "post", "SHOP.example.com", "/carts/{cart}");
	assert_string_equal(jstr(a, "operation_id"), jstr(b, "operation_id"));
	assert_string_equal(jstr(b, "endpoint"), "/carts/{var1}");
	assert_true(strcmp(jstr(b, "last_updated"), jstr(a, "last_updated")) >
	    0);
	assert_int_equal(total(e, ZONE_A, "/operations"), 1);

	/* The stored record was touched too. */
	path = gw(ZONE_A, "/operations/%s", jstr(a, "operation_id"));
	cJSON_Delete(a);
	a = api_ok(e, "GET", path, NULL);
	assert_string_equal(jstr(a, "last_updated"), jstr(b, "last_updated"));
	free(path);

	/* In a bulk create as well, next to a new one. */
	path = gw(ZONE_A, "/operations");
	list = api_ok(e, "POST", path, "[{\"method\":\"POST\",\"host\":"
	    "\"shop.example.com\",\"endpoint\":\"/carts/{c}\"},{\"method\":"
	    "\"GET\",\"host\":\"shop.example.com\",\"endpoint\":\"/carts\"}]");
	assert_int_equal(cJSON_GetArraySize(list), 2);
	assert_string_equal(jstr(cJSON_GetArrayItem(list, 0), "operation_id"),
	    jstr(a, "operation_id"));
	assert_string_not_equal(jstr(cJSON_GetArrayItem(list, 1),
	    "operation_id"), jstr(a, "operation_id"));
	assert_int_equal(total(e, ZONE_A, "/operations"), 2);
	cJSON_Delete(list);
	free(path);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void
test_op_bulk_create(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*list;
	char		*path = gw(ZONE_A, "/operations");

	list = api_ok(e, "POST", path, "[{\"method\":\"GET\",\"host\":"
	    "\"a.example\",\"endpoint\":\"/x\"},{\"method\":\"put\",\"host\":"
	    "\"b.example\",\"endpoint\":\"/y/{id}\"},{\"method\":\"TRACE\","
	    "\"host\":\"[::1]\",\"endpoint\":\"/z\"}]");
	assert_int_equal(cJSON_GetArraySize(list), 3);
	assert_string_equal(jstr(cJSON_GetArrayItem(list, 1), "method"), "PUT");
	assert_string_equal(jstr(cJSON_GetArrayItem(list, 1), "endpoint"),
	    "/y/{var1}");
	cJSON_Delete(list);

	/* One bad item: refused by index, and none of the others stored. */
	assert_refused(e, "POST", path, "[{\"method\":\"GET\",\"host\":"
	    "\"c.example\",\"endpoint\":\"/new\"},{\"method\":\"GET\","
	    "\"host\":\"c.example\",\"endpoint\":\"/new2\"},{\"method\":"
	    "\"GET\",\"host\":\"c example\",\"endpoint\":\"/x\"}]", 400,
	    "[2].host: ");
	assert_refused(e, "POST", path, "[{\"method\":\"GET\",\"host\":"
	    "\"c.example\",\"endpoint\":\"/new\"},{\"method\":\"GET\"}]", 400,
	    "[1].host: required");
	assert_int_equal(total(e, ZONE_A, "/operations"), 3);
	assert_int_equal(total(e, ZONE_A, "/operations?host=c.example"), 0);

	assert_refused(e, "POST", path, "[]", 400, "non-empty JSON array");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "\"a.example\",\"endpoint\":\"/x\"}", 400, "non-empty JSON array");
	assert_refused(e, "POST", path, NULL, 400, "non-empty JSON array");
	free(path);
}

static void
test_op_validation(void **state)
{
	struct edgemu	*e = *state;
	char		*path = gw(ZONE_A, "/operations/item"), *body, *big;

	assert_refused(e, "POST", path, "{\"method\":\"FETCH\",\"host\":"
	    "\"a.example\",\"endpoint\":\"/x\"}", 400,
	    "method: 'FETCH' is not one of GET, POST, HEAD, OPTIONS, PUT, "
	    "DELETE, CONNECT, PATCH or TRACE");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "\"a.example:443\",\"endpoint\":\"/x\"}", 400, "host: ");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "\"\",\"endpoint\":\"/x\"}", 400, "host: must not be empty");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "\"a.example\",\"endpoint\":\"x\"}", 400,
	    "endpoint: 'x' must start with '/'");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "\"a.example\",\"endpoint\":\"/a/{b\"}", 400, "endpoint: ");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "\"a.example\"}", 400, "endpoint: required");
	assert_refused(e, "POST", path, "{\"method\":\"GET\",\"host\":"
	    "5,\"endpoint\":\"/\"}", 400, "host: must be a string");
	assert_refused(e, "POST", path, NULL, 400, "a JSON body is required");

	big = malloc(4100);
	memset(big, 'a', 4099);
	big[0] = '/';
	big[4099] = '\0';
	body = itest_printf("{\"method\":\"GET\",\"host\":\"a.example\","
	    "\"endpoint\":\"%s\"}", big);
	assert_refused(e, "POST", path, body, 400, "over the limit of 4096");
	free(body);
	memset(big, 'h', 256);
	big[256] = '\0';
	body = itest_printf("{\"method\":\"GET\",\"host\":\"%s\","
	    "\"endpoint\":\"/\"}", big);
	assert_refused(e, "POST", path, body, 400, "over the limit of 255");
	free(body);
	free(big);

	assert_int_equal(total(e, ZONE_A, "/operations"), 0);
	free(path);
}

static void
test_op_bulk_delete(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*ops[5], *res;
	char		*path = gw(ZONE_A, "/operations"), *body, ep[16];
	size_t		 i;

	for (i = 0; i < nitems(ops); i++) {
		snprintf(ep, sizeof ep, "/item/%zu", i);
		ops[i] = create_op(e, ZONE_A, "GET", "a.example", ep);
	}
	/* One unknown id: 404 naming it, and nothing deleted. */
	body = itest_printf("{\"operation_ids\":[\"%s\",\"%s\"]}",
	    jstr(ops[0], "operation_id"), NO_ID);
	assert_refused(e, "DELETE", path, body, 404, NO_ID);
	free(body);
	assert_int_equal(total(e, ZONE_A, "/operations"), 5);

	body = itest_printf("{\"operation_ids\":[\"%s\",\"%s\",\"%s\"]}",
	    jstr(ops[1], "operation_id"), jstr(ops[3], "operation_id"),
	    jstr(ops[1], "operation_id"));
	res = api_ok(e, "DELETE", path, body);
	cJSON_Delete(res);
	free(body);
	assert_int_equal(total(e, ZONE_A, "/operations"), 3);
	body = gw(ZONE_A, "/operations/%s", jstr(ops[3], "operation_id"));
	free(api_fail(e, "GET", body, NULL, 404));
	free(body);
	body = gw(ZONE_A, "/operations/%s", jstr(ops[4], "operation_id"));
	cJSON_Delete(api_ok(e, "GET", body, NULL));
	free(body);

	assert_refused(e, "DELETE", path, "{\"operation_ids\":[]}", 400,
	    "operation_ids: required");
	assert_refused(e, "DELETE", path, "{}", 400,
	    "operation_ids: required");
	assert_refused(e, "DELETE", path, NULL, 400,
	    "operation_ids: required");
	assert_refused(e, "DELETE", path, "{\"operation_ids\":[\"nope\"]}",
	    400, "operation_ids[0]: must be an operation id");
	assert_int_equal(total(e, ZONE_A, "/operations"), 3);
	for (i = 0; i < nitems(ops); i++)
		cJSON_Delete(ops[i]);
	free(path);
}

/* Create n operations /p/0 .. /p/n-1, bulk, in that order. */
static void
create_many(struct edgemu *e, const char *zone, int from, int n)
{
	char	*path = gw(zone, "/operations"), *body;
	size_t	 size = 64 + (size_t)n * 80, len = 0;
	cJSON	*res;
	int	 i;

	body = malloc(size);
	len += (size_t)snprintf(body + len, size - len, "[");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(body + len, size - len,
		    "%s{\"method\":\"GET\",\"host\":\"many.example\","
		    "\"endpoint\":\"/p/%d\"}", i == 0 ? "" : ",", from + i);
	snprintf(body + len, size - len, "]");
	res = api_ok(e, "POST", path, body);
	assert_int_equal(cJSON_GetArraySize(res), n);
	cJSON_Delete(res);
	free(body);
	free(path);
}

static void
assert_page_endpoints(struct edgemu *e, const char *query, int first,
    int step, long count, long total_count)
{
	struct page	 p;
	char		*path = gw(ZONE_A, "/operations?%s", query), want[32];
	long		 i;

	list(e, path, &p);
	assert_int_equal(p.count, count);
	assert_int_equal(p.total_count, total_count);
	for (i = 0; i < count; i++) {
		snprintf(want, sizeof want, "/p/%ld", first + i * step);
		assert_string_equal(jstr(cJSON_GetArrayItem(p.result, (int)i),
		    "endpoint"), want);
	}
	cJSON_Delete(p.result);
	free(path);
}

static void
test_op_paging(void **state)
{
	static const char *const bad[] = { "4", "0", "-1", "10001", "abc" };
	struct edgemu	*e = *state;
	struct page	 p;
	char		*path;
	size_t		 i;

	/* Empty. */
	path = gw(ZONE_A, "/operations");
	list(e, path, &p);
	assert_int_equal(p.total_count, 0);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.per_page, 20);
	assert_int_equal(p.page, 1);
	cJSON_Delete(p.result);
	free(path);

	for (i = 0; i < nitems(bad); i++) {
		path = gw(ZONE_A, "/operations?per_page=%s", bad[i]);
		assert_refused(e, "GET", path, NULL, 400, "per_page: ");
		free(path);
	}
	path = gw(ZONE_A, "/operations?page=0");
	assert_refused(e, "GET", path, NULL, 400, "page: ");
	free(path);

	/* An exact multiple of per_page, in creation order. */
	create_many(e, ZONE_A, 0, 10);
	assert_page_endpoints(e, "per_page=5", 0, 1, 5, 10);
	assert_page_endpoints(e, "per_page=5&page=2", 5, 1, 5, 10);
	assert_page_endpoints(e, "per_page=5&page=3", 0, 1, 0, 10);
	path = gw(ZONE_A, "/operations?per_page=5&page=2");
	list(e, path, &p);
	assert_int_equal(p.total_pages, 2);
	cJSON_Delete(p.result);
	free(path);

	/* Two more: a short last page; desc walks from the newest. */
	create_many(e, ZONE_A, 10, 2);
	assert_page_endpoints(e, "per_page=5&page=3", 10, 1, 2, 12);
	assert_page_endpoints(e, "per_page=5&direction=desc", 11, -1, 5, 12);
	assert_page_endpoints(e, "per_page=5&page=3&direction=desc", 1, -1, 2,
	    12);
	assert_page_endpoints(e, "per_page=5&page=99", 0, 1, 0, 12);

	/* Deleting one closes the gap in later pages. */
	path = gw(ZONE_A, "/operations?per_page=5");
	list(e, path, &p);
	free(path);
	path = gw(ZONE_A, "/operations/%s", jstr(cJSON_GetArrayItem(p.result,
	    2), "operation_id"));
	cJSON_Delete(api_ok(e, "DELETE", path, NULL));
	free(path);
	cJSON_Delete(p.result);
	assert_page_endpoints(e, "per_page=5&page=3", 11, 1, 1, 11);
	assert_int_equal(total(e, ZONE_A, "/operations?endpoint=/p/1"), 3);

	/* The spec sets no maximum for operations: above 50 is fine. */
	path = gw(ZONE_A, "/operations?per_page=100");
	list(e, path, &p);
	assert_int_equal(p.count, 11);
	assert_int_equal(p.per_page, 100);
	cJSON_Delete(p.result);
	free(path);
}

static void
test_op_filters(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*op;
	char		*path;

	assert_int_equal(total(e, e->zone, "/operations?host=api.example.com"),
	    100);
	assert_int_equal(total(e, e->zone,
	    "/operations?host[]=api.example.com&host[]=SHOP.example.com"), 200);
	assert_int_equal(total(e, e->zone, "/operations?host=none.example"), 0);

	path = gw(e->zone, "/operations?method=delete&per_page=50");
	list(e, path, &p);
	assert_true(p.total_count > 0 && p.total_count < 300);
	cJSON_ArrayForEach(op, p.result)
		assert_string_equal(jstr(op, "method"), "DELETE");
	cJSON_Delete(p.result);
	free(path);

	path = gw(e->zone, "/operations?endpoint=/users&method[]=GET&"
	    "method[]=POST&host=api.example.com&per_page=50");
	list(e, path, &p);
	assert_true(p.total_count > 0);
	cJSON_ArrayForEach(op, p.result) {
		assert_non_null(strstr(jstr(op, "endpoint"), "/users"));
		assert_true(strcmp(jstr(op, "method"), "GET") == 0 ||
		    strcmp(jstr(op, "method"), "POST") == 0);
		assert_string_equal(jstr(op, "host"), "api.example.com");
	}
	cJSON_Delete(p.result);
	free(path);

	path = gw(e->zone, "/operations?method=FETCH");
	assert_refused(e, "GET", path, NULL, 400, "method: 'FETCH'");
	free(path);
	path = gw(e->zone, "/operations?feature=everything");
	assert_refused(e, "GET", path, NULL, 400, "feature: ");
	free(path);
	path = gw(e->zone, "/operations?direction=up");
	assert_refused(e, "GET", path, NULL, 400, "direction: ");
	free(path);
}

static void
test_op_order(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*op, *th;
	char		*path;
	double		 prev;
	int		 i, with = 0;

	path = gw(e->zone, "/operations?order=host&per_page=5");
	list(e, path, &p);
	assert_string_equal(jstr(cJSON_GetArrayItem(p.result, 0), "host"),
	    "api.example.com");
	cJSON_Delete(p.result);
	free(path);
	path = gw(e->zone, "/operations?order=host&direction=desc&per_page=5");
	list(e, path, &p);
	assert_string_equal(jstr(cJSON_GetArrayItem(p.result, 0), "host"),
	    "shop.example.com");
	cJSON_Delete(p.result);
	free(path);
	path = gw(e->zone, "/operations?order=method&per_page=5");
	list(e, path, &p);
	assert_string_equal(jstr(cJSON_GetArrayItem(p.result, 0), "method"),
	    "DELETE");
	cJSON_Delete(p.result);
	free(path);

	/* Largest requests first; those without thresholds come last. */
	prev = 1e18;
	for (i = 1; i <= 6; i++) {
		path = gw(e->zone, "/operations?order=thresholds.requests&"
		    "direction=desc&feature=thresholds&per_page=50&page=%d", i);
		list(e, path, &p);
		free(path);
		cJSON_ArrayForEach(op, p.result) {
			th = cJSON_GetObjectItem(cJSON_GetObjectItem(op,
			    "features"), "thresholds");
			if (th == NULL) {
				prev = -1;
				continue;
			}
			assert_true(prev >= jget(th, "requests")->valuedouble);
			prev = jget(th, "requests")->valuedouble;
			with++;
		}
		cJSON_Delete(p.result);
	}
	/* Most demo operations have thresholds. */
	assert_true(with > 200 && with < 300);

	path = gw(e->zone, "/operations?order=thresholds.p99&per_page=5&"
	    "feature=thresholds");
	list(e, path, &p);
	prev = -1;
	cJSON_ArrayForEach(op, p.result) {
		th = jget(jget(op, "features"), "thresholds");
		assert_true(jget(th, "p99")->valuedouble >= prev);
		prev = jget(th, "p99")->valuedouble;
	}
	cJSON_Delete(p.result);
	free(path);

	path = gw(e->zone, "/operations?order=thresholds.bogus");
	assert_refused(e, "GET", path, NULL, 400, "order: ");
	free(path);
	path = gw(e->zone, "/operations?order=traffic_stats.requests");
	assert_refused(e, "GET", path, NULL, 400, "order: ");
	free(path);
}

static void
test_op_features(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*op, *th;
	cJSON		*got;
	char		*path;
	int		 params = 0, info = 0;

	path = gw(e->zone, "/operations?feature=thresholds&per_page=5");
	list(e, path, &p);
	free(path);
	op = NULL;
	cJSON_ArrayForEach(op, p.result) {
		if (cJSON_GetObjectItem(op, "features") != NULL)
			break;
	}
	assert_non_null(op);
	th = jget(jget(op, "features"), "thresholds");
	assert_true(cJSON_IsNumber(jget(th, "period_seconds")));
	assert_true(cJSON_IsNumber(jget(th, "suggested_threshold")));
	assert_true(cJSON_IsNumber(jget(th, "p50")));
	assert_true(cJSON_IsNumber(jget(th, "p90")));
	assert_true(cJSON_IsNumber(jget(th, "p99")));
	assert_true(cJSON_IsNumber(jget(th, "requests")));
	assert_true(cJSON_IsNumber(jget(th, "auth_id_tokens")));
	assert_true(cJSON_IsNumber(jget(th, "data_points")));
	assert_true(cJSON_IsString(jget(th, "last_updated")));
	assert_true(jget(th, "p50")->valuedouble <=
	    jget(th, "p99")->valuedouble);

	/* The same operation alone: features only when asked for. */
	path = gw(e->zone, "/operations/%s", jstr(op, "operation_id"));
	got = api_ok(e, "GET", path, NULL);
	assert_null(cJSON_GetObjectItem(got, "features"));
	cJSON_Delete(got);
	free(path);
	path = gw(e->zone, "/operations/%s?feature=thresholds",
	    jstr(op, "operation_id"));
	got = api_ok(e, "GET", path, NULL);
	assert_json_equal(got, op);
	cJSON_Delete(got);
	free(path);
	cJSON_Delete(p.result);

	/* Learned parameters and schema info on some demo operations. */
	path = gw(e->zone, "/operations?feature=parameter_schemas&"
	    "feature=schema_info&host=shop.example.com&per_page=100");
	list(e, path, &p);
	cJSON_ArrayForEach(op, p.result) {
		if ((th = cJSON_GetObjectItem(cJSON_GetObjectItem(op,
		    "features"), "parameter_schemas")) != NULL) {
			assert_true(cJSON_IsArray(jget(jget(th,
			    "parameter_schemas"), "parameters")));
			params++;
		}
		if ((th = cJSON_GetObjectItem(cJSON_GetObjectItem(op,
		    "features"), "schema_info")) != NULL) {
			assert_string_equal(jstr(jget(th, "active_schema"),
			    "name"), "Shop storefront (JSON)");
			info++;
		}
		assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(op,
		    "features"), "thresholds"));
	}
	assert_true(params > 0);
	assert_int_equal(info, 6);
	cJSON_Delete(p.result);
	free(path);
}

/* ---- operation-level schema validation --------------------------------- */

static void
test_op_mitigation(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*a, *b, *got;
	char		*pa, *pb, *bulk, *body;

	a = create_op(e, ZONE_A, "GET", "a.example", "/a");
	b = create_op(e, ZONE_A, "GET", "a.example", "/b");
	pa = gw(ZONE_A, "/operations/%s/schema_validation",
	    jstr(a, "operation_id"));
	pb = gw(ZONE_A, "/operations/%s/schema_validation",
	    jstr(b, "operation_id"));
	bulk = gw(ZONE_A, "/operations/schema_validation");

	got = api_ok(e, "GET", pa, NULL);
	assert_true(cJSON_IsNull(jget(got, "mitigation_action")));
	cJSON_Delete(got);
	got = api_ok(e, "PUT", pa, "{\"mitigation_action\":\"block\"}");
	assert_string_equal(jstr(got, "mitigation_action"), "block");
	cJSON_Delete(got);
	got = api_ok(e, "GET", pa, NULL);
	assert_string_equal(jstr(got, "mitigation_action"), "block");
	cJSON_Delete(got);
	assert_refused(e, "PUT", pa, "{\"mitigation_action\":\"deny\"}", 400,
	    "mitigation_action: 'deny' is not one of log, block, none or null");
	/* A PUT replaces: without the field the action is cleared. */
	got = api_ok(e, "PUT", pa, "{}");
	assert_true(cJSON_IsNull(jget(got, "mitigation_action")));
	cJSON_Delete(got);

	body = itest_printf("{\"%s\":{\"mitigation_action\":\"log\"},"
	    "\"%s\":{\"mitigation_action\":\"none\"}}",
	    jstr(a, "operation_id"), jstr(b, "operation_id"));
	got = api_ok(e, "PATCH", bulk, body);
	assert_string_equal(jstr(jget(got, jstr(a, "operation_id")),
	    "mitigation_action"), "log");
	assert_string_equal(jstr(jget(got, jstr(b, "operation_id")),
	    "mitigation_action"), "none");
	assert_int_equal(cJSON_GetArraySize(got), 2);
	cJSON_Delete(got);
	free(body);
	got = api_ok(e, "GET", pb, NULL);
	assert_string_equal(jstr(got, "mitigation_action"), "none");
	cJSON_Delete(got);

	/* All or nothing: an unknown id leaves a as it was. */
	body = itest_printf("{\"%s\":{\"mitigation_action\":null},"
	    "\"%s\":{\"mitigation_action\":\"block\"}}",
	    jstr(a, "operation_id"), NO_ID);
	assert_refused(e, "PATCH", bulk, body, 404, NO_ID);
	free(body);
	got = api_ok(e, "GET", pa, NULL);
	assert_string_equal(jstr(got, "mitigation_action"), "log");
	cJSON_Delete(got);

	assert_refused(e, "PATCH", bulk, "{\"nope\":{\"mitigation_action\":"
	    "\"log\"}}", 400, "'nope': not an operation id");
	body = itest_printf("{\"%s\":{}}", jstr(a, "operation_id"));
	assert_refused(e, "PATCH", bulk, body, 400,
	    "mitigation_action: required");
	free(body);
	assert_refused(e, "PATCH", bulk, "[]", 400, "must be a JSON object");
	free(pb);
	pb = gw(ZONE_A, "/operations/" NO_ID "/schema_validation");
	assert_refused(e, "GET", pb, NULL, 404, NO_ID);
	assert_refused(e, "PUT", pb, "{\"mitigation_action\":\"log\"}", 404,
	    NO_ID);
	free(pa);
	free(pb);
	free(bulk);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* ---- discovery --------------------------------------------------------- */

static cJSON *
first_discovered(struct edgemu *e, const char *query)
{
	struct page	 p;
	char		*path = gw(e->zone, "/discovery/operations?%s", query);
	cJSON		*d;

	list(e, path, &p);
	assert_true(p.count > 0);
	d = cJSON_DetachItemFromArray(p.result, 0);
	cJSON_Delete(p.result);
	free(path);
	return (d);
}

static void
test_discovery_list(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*d, *o;
	char		*path;
	double		 prev;
	int		 ml;

	assert_int_equal(total(e, e->zone, "/discovery/operations"), 40);
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?state=review"), 20);
	assert_int_equal(total(e, e->zone, "/discovery/operations?state=saved"),
	    10);
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?state=ignored"), 10);
	assert_int_equal(total(e, e->zone, "/discovery/operations?diff=true"),
	    30);
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?host=auth.example.com&state=ignored") +
	    total(e, e->zone,
	    "/discovery/operations?host=auth.example.com&state=review") +
	    total(e, e->zone,
	    "/discovery/operations?host=auth.example.com&state=saved"),
	    total(e, e->zone, "/discovery/operations?host=auth.example.com"));

	path = gw(e->zone, "/discovery/operations?origin=ML&per_page=50");
	list(e, path, &p);
	ml = (int)p.total_count;
	assert_true(ml > 0 && ml < 40);
	cJSON_ArrayForEach(d, p.result) {
		int	found = 0;

		cJSON_ArrayForEach(o, jget(d, "origin"))
			found |= strcmp(o->valuestring, "ML") == 0;
		assert_true(found);
	}
	cJSON_Delete(p.result);
	free(path);
	assert_true(total(e, e->zone,
	    "/discovery/operations?origin=SessionIdentifier") > 0);

	path = gw(e->zone, "/discovery/operations?order=traffic_stats.requests"
	    "&direction=desc&per_page=50");
	list(e, path, &p);
	assert_int_equal(p.count, 40);
	prev = 1e18;
	cJSON_ArrayForEach(d, p.result) {
		o = jget(jget(d, "features"), "traffic_stats");
		assert_true(jget(o, "requests")->valuedouble <= prev);
		prev = jget(o, "requests")->valuedouble;
		assert_int_equal(jget(o, "period_seconds")->valueint, 3600);
		assert_true(cJSON_IsString(jget(o, "last_updated")));
		assert_int_equal(strlen(jstr(d, "id")), 36);
		assert_true(cJSON_IsString(jget(d, "last_updated")));
	}
	cJSON_Delete(p.result);
	free(path);

	path = gw(e->zone, "/discovery/operations?per_page=51");
	assert_refused(e, "GET", path, NULL, 400, "per_page: ");
	free(path);
	path = gw(e->zone, "/discovery/operations?state=new");
	assert_refused(e, "GET", path, NULL, 400, "state: ");
	free(path);
	path = gw(e->zone, "/discovery/operations?origin=magic");
	assert_refused(e, "GET", path, NULL, 400, "origin: ");
	free(path);
	path = gw(e->zone, "/discovery/operations?diff=maybe");
	assert_refused(e, "GET", path, NULL, 400, "diff: ");
	free(path);
	path = gw(e->zone, "/discovery/operations?order=thresholds.p50");
	assert_refused(e, "GET", path, NULL, 400, "order: ");
	free(path);
}

static void
test_discovery_states(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*rev, *rev2, *saved, *res;
	char		*path, *bulk, *body;

	rev = first_discovered(e, "state=review");
	rev2 = first_discovered(e, "state=review&direction=desc");
	saved = first_discovered(e, "state=saved");
	bulk = gw(e->zone, "/discovery/operations");

	path = gw(e->zone, "/discovery/operations/%s", jstr(rev, "id"));
	res = api_ok(e, "PATCH", path, "{\"state\":\"ignored\"}");
	assert_string_equal(jstr(res, "state"), "ignored");
	assert_int_equal(cJSON_GetArraySize(res), 1);
	cJSON_Delete(res);
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?state=ignored"), 11);
	assert_refused(e, "PATCH", path, "{\"state\":\"saved\"}", 400,
	    "adding the operation to endpoint management");
	assert_refused(e, "PATCH", path, "{\"state\":\"done\"}", 400,
	    "state: must be review or ignored");
	assert_refused(e, "PATCH", path, "{}", 400, "state: required");
	free(path);

	/* A saved one stays saved while its operation exists. */
	path = gw(e->zone, "/discovery/operations/%s", jstr(saved, "id"));
	assert_refused(e, "PATCH", path, "{\"state\":\"ignored\"}", 409,
	    "endpoint management");
	free(path);
	path = gw(e->zone, "/discovery/operations/" NO_ID);
	assert_refused(e, "PATCH", path, "{\"state\":\"review\"}", 404, NO_ID);
	free(path);

	/* Bulk: the map back; all or nothing. */
	body = itest_printf("{\"%s\":{\"state\":\"review\"},\"%s\":"
	    "{\"state\":\"ignored\"}}", jstr(rev, "id"), jstr(rev2, "id"));
	res = api_ok(e, "PATCH", bulk, body);
	free(body);
	assert_string_equal(jstr(jget(res, jstr(rev, "id")), "state"),
	    "review");
	assert_string_equal(jstr(jget(res, jstr(rev2, "id")), "state"),
	    "ignored");
	cJSON_Delete(res);
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?state=ignored"), 11);
	body = itest_printf("{\"%s\":{\"state\":\"review\"},\"%s\":"
	    "{\"state\":\"ignored\"}}", jstr(rev2, "id"), NO_ID);
	assert_refused(e, "PATCH", bulk, body, 404, NO_ID);
	free(body);
	body = itest_printf("{\"%s\":{\"state\":\"saved\"}}", jstr(rev2, "id"));
	assert_refused(e, "PATCH", bulk, body, 400, "endpoint management");
	free(body);
	assert_refused(e, "PATCH", bulk, "{\"x\":{\"state\":\"review\"}}", 400,
	    "not a discovered operation id");
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?state=ignored"), 11);

	cJSON_Delete(rev);
	cJSON_Delete(rev2);
	cJSON_Delete(saved);
	free(bulk);
}

/* Saving a discovered operation is creating it; deleting it un-saves it. */
static void
test_discovery_saved_by_create(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*d;
	cJSON		*rev, *op;
	char		*path, *endpoint, *s;
	int		 found = 0;

	/* A review one with a path variable, created under another name. */
	rev = first_discovered(e, "state=review&endpoint=%7Bvar1%7D");
	endpoint = strdup(jstr(rev, "endpoint"));
	s = strstr(endpoint, "{var1}");
	memcpy(s, "{abcd}", 6);
	op = create_op(e, e->zone, jstr(rev, "method"), jstr(rev, "host"),
	    endpoint);
	free(endpoint);
	assert_string_equal(jstr(op, "endpoint"), jstr(rev, "endpoint"));
	assert_int_equal(total(e, e->zone, "/discovery/operations?state=saved"),
	    11);
	path = gw(e->zone, "/discovery/operations?state=saved&per_page=50");
	list(e, path, &p);
	cJSON_ArrayForEach(d, p.result)
		found |= strcmp(jstr(d, "id"), jstr(rev, "id")) == 0;
	assert_true(found);
	cJSON_Delete(p.result);
	free(path);

	path = gw(e->zone, "/operations/%s", jstr(op, "operation_id"));
	cJSON_Delete(api_ok(e, "DELETE", path, NULL));
	free(path);
	assert_int_equal(total(e, e->zone, "/discovery/operations?state=saved"),
	    10);
	assert_int_equal(total(e, e->zone,
	    "/discovery/operations?state=review"), 20);
	cJSON_Delete(rev);
	cJSON_Delete(op);
}

static void
test_discovery_openapi(void **state)
{
	struct edgemu	*e = *state;
	const cJSON	*doc, *item;
	cJSON		*res, *ign;
	char		*path = gw(e->zone, "/discovery"), method[16];
	int		 paths = 0, checked = 0, i;

	ign = first_discovered(e, "state=ignored");
	snprintf(method, sizeof method, "%s", jstr(ign, "method"));
	res = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_IsString(jget(res, "timestamp")));
	assert_int_equal(cJSON_GetArraySize(jget(res, "schemas")), 3);
	cJSON_ArrayForEach(doc, jget(res, "schemas")) {
		assert_string_equal(jstr(doc, "openapi"), "3.0.0");
		assert_true(cJSON_IsString(jget(jget(doc, "info"), "title")));
		assert_non_null(strstr(jstr(cJSON_GetArrayItem(jget(doc,
		    "servers"), 0), "url"), "https://"));
		paths += cJSON_GetArraySize(jget(doc, "paths"));
		/* Ignored operations are left out. */
		if (strcmp(jstr(cJSON_GetArrayItem(jget(doc, "servers"), 0),
		    "url") + strlen("https://"), jstr(ign, "host")) == 0) {
			item = cJSON_GetObjectItem(jget(doc, "paths"),
			    jstr(ign, "endpoint"));
			for (i = 0; method[i] != '\0'; i++)
				method[i] = (char)(method[i] - 'A' + 'a');
			assert_null(cJSON_GetObjectItem(item, method));
			checked = 1;
		}
	}
	assert_true(checked);
	assert_true(paths > 0 && paths <= 30);
	cJSON_Delete(res);
	cJSON_Delete(ign);
	free(path);

	/* A zone without discovery has no documents. */
	path = gw(ZONE_B, "/discovery");
	res = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(jget(res, "schemas")), 0);
	cJSON_Delete(res);
	free(path);
}

/* ---- schemas (endpoint management as OpenAPI) -------------------------- */

static void
test_schemas(void **state)
{
	struct edgemu	*e = *state;
	const cJSON	*doc, *item, *op;
	cJSON		*res;
	char		*path;
	int		 ops = 0, th = 0;

	path = gw(e->zone, "/schemas");
	res = api_ok(e, "GET", path, NULL);
	free(path);
	assert_true(cJSON_IsString(jget(res, "timestamp")));
	assert_int_equal(cJSON_GetArraySize(jget(res, "schemas")), 3);
	cJSON_ArrayForEach(doc, jget(res, "schemas")) {
		cJSON_ArrayForEach(item, jget(doc, "paths")) {
			assert_true(item->string[0] == '/');
			cJSON_ArrayForEach(op, item) {
				ops++;
				assert_null(cJSON_GetObjectItem(op,
				    "x-cf-api-shield-thresholds"));
			}
		}
	}
	assert_int_equal(ops, 300);
	cJSON_Delete(res);

	path = gw(e->zone, "/schemas?host=auth.example.com&feature=thresholds");
	res = api_ok(e, "GET", path, NULL);
	free(path);
	assert_int_equal(cJSON_GetArraySize(jget(res, "schemas")), 1);
	doc = cJSON_GetArrayItem(jget(res, "schemas"), 0);
	assert_string_equal(jstr(cJSON_GetArrayItem(jget(doc, "servers"), 0),
	    "url"), "https://auth.example.com");
	cJSON_ArrayForEach(item, jget(doc, "paths")) {
		cJSON_ArrayForEach(op, item) {
			if (cJSON_GetObjectItem(op,
			    "x-cf-api-shield-thresholds") != NULL)
				th++;
		}
	}
	assert_true(th > 50);
	/* Path variables become path parameters. */
	item = jget(jget(doc, "paths"), "/v1/users/{var1}/mfa");
	assert_string_equal(jstr(cJSON_GetArrayItem(jget(jget(item, "get"),
	    "parameters"), 0), "name"), "var1");
	cJSON_Delete(res);

	path = gw(e->zone, "/schemas?feature=bogus");
	assert_refused(e, "GET", path, NULL, 400, "feature: ");
	free(path);
}

/* ---- user schemas ------------------------------------------------------ */

static void
test_user_schema_upload(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct part		 parts[4];
	const cJSON		*s;
	cJSON			*got;
	char			*path, *id;

	parts[0] = (struct part){ "file", "pets.json", pets_json, 0 };
	parts[1] = (struct part){ "kind", NULL, "openapi_v3", 0 };
	parts[2] = (struct part){ "validation_enabled", NULL, "true", 0 };
	upload(e, ZONE_A, parts, 3, &r);
	assert_int_equal(r.status, 200);
	s = jget(jget(r.json, "result"), "schema");
	assert_int_equal(cJSON_GetArraySize(jget(jget(jget(r.json, "result"),
	    "upload_details"), "warnings")), 0);
	assert_int_equal(strlen(jstr(s, "schema_id")), 36);
	assert_string_equal(jstr(s, "name"), "pets.json");
	assert_string_equal(jstr(s, "kind"), "openapi_v3");
	assert_string_equal(jstr(s, "source"), pets_json);
	assert_true(cJSON_IsTrue(jget(s, "validation_enabled")));
	assert_true(cJSON_IsString(jget(s, "created_at")));
	id = strdup(jstr(s, "schema_id"));

	path = gw(ZONE_A, "/user_schemas/%s", id);
	got = api_ok(e, "GET", path, NULL);
	assert_json_equal(got, s);
	cJSON_Delete(got);
	http_resp_free(&r);
	free(path);
	path = gw(ZONE_A, "/user_schemas/%s?omit_source=true", id);
	got = api_ok(e, "GET", path, NULL);
	assert_null(cJSON_GetObjectItem(got, "source"));
	assert_string_equal(jstr(got, "schema_id"), id);
	cJSON_Delete(got);
	free(path);

	/* YAML, with a name and validation left off. */
	parts[0] = (struct part){ "kind", NULL, "openapi_v3", 0 };
	parts[1] = (struct part){ "name", NULL, "admin schema", 0 };
	parts[2] = (struct part){ "file", "admin.yaml", pets_yaml, 0 };
	upload(e, ZONE_A, parts, 3, &r);
	assert_int_equal(r.status, 200);
	s = jget(jget(r.json, "result"), "schema");
	assert_string_equal(jstr(s, "name"), "admin schema");
	assert_string_equal(jstr(s, "source"), pets_yaml);
	assert_true(cJSON_IsFalse(jget(s, "validation_enabled")));
	http_resp_free(&r);

	assert_int_equal(total(e, ZONE_A, "/user_schemas"), 2);
	assert_int_equal(total(e, ZONE_A,
	    "/user_schemas?validation_enabled=true"), 1);
	assert_int_equal(total(e, ZONE_A,
	    "/user_schemas?validation_enabled=false"), 1);
	free(id);
}

static void
test_user_schema_refused(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct part		 parts[3];
	const cJSON		*details, *ev;
	char			*big, *path;
	size_t			 bigsize = 10 * 1024 * 1024 + 16;

	/* Not OpenAPI 3: upload_details.errors say what and where. */
	parts[0] = (struct part){ "file", "bad.json", "{\"openapi\":\"3.0.0\","
	    "\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{"
	    "\"pets\":{\"get\":{}}}}", 0 };
	parts[1] = (struct part){ "kind", NULL, "openapi_v3", 0 };
	upload(e, ZONE_A, parts, 2, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(jstr(cJSON_GetArrayItem(jget(r.json, "errors"),
	    0), "message"), "not a valid OpenAPI 3 document"));
	details = jget(jget(r.json, "result"), "upload_details");
	ev = cJSON_GetArrayItem(jget(details, "errors"), 0);
	assert_true(cJSON_IsNumber(jget(ev, "code")));
	assert_non_null(strstr(jstr(ev, "message"), "must start with '/'"));
	assert_string_equal(cJSON_GetArrayItem(jget(ev, "locations"),
	    0)->valuestring, ".paths[\"pets\"]");
	assert_int_equal(cJSON_GetArraySize(jget(details, "critical")), 0);
	/* As the spec has it too: beside the envelope's members. */
	assert_json_equal(jget(r.json, "upload_details"), details);
	http_resp_free(&r);

	parts[0] = (struct part){ "file", "swagger.yaml", "swagger: \"2.0\"\n"
	    "info: {title: t, version: \"1\"}\npaths: {}\n", 0 };
	upload(e, ZONE_A, parts, 2, &r);
	assert_int_equal(r.status, 400);
	ev = cJSON_GetArrayItem(jget(jget(jget(r.json, "result"),
	    "upload_details"), "errors"), 0);
	assert_non_null(strstr(jstr(ev, "message"), "swagger"));
	http_resp_free(&r);

	parts[0] = (struct part){ "file", "x.txt", "{not: [json or yaml", 0 };
	upload(e, ZONE_A, parts, 2, &r);
	assert_int_equal(r.status, 400);
	assert_int_equal(cJSON_GetArraySize(jget(jget(jget(r.json, "result"),
	    "upload_details"), "critical")), 1);
	http_resp_free(&r);

	parts[0] = (struct part){ "file", "pets.json", pets_json, 0 };
	parts[1] = (struct part){ "kind", NULL, "openapi_v2", 0 };
	upload(e, ZONE_A, parts, 2, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(jstr(cJSON_GetArrayItem(jget(r.json, "errors"),
	    0), "message"), "kind: 'openapi_v2' is not supported"));
	http_resp_free(&r);
	upload(e, ZONE_A, parts, 1, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(jstr(cJSON_GetArrayItem(jget(r.json, "errors"),
	    0), "message"), "kind: required"));
	http_resp_free(&r);
	upload(e, ZONE_A, parts + 1, 1, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(jstr(cJSON_GetArrayItem(jget(r.json, "errors"),
	    0), "message"), "file: required"));
	http_resp_free(&r);
	parts[1] = (struct part){ "kind", NULL, "openapi_v3", 0 };
	parts[2] = (struct part){ "validation_enabled", NULL, "yes", 0 };
	upload(e, ZONE_A, parts, 3, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(jstr(cJSON_GetArrayItem(jget(r.json, "errors"),
	    0), "message"), "validation_enabled: 'yes'"));
	http_resp_free(&r);

	/* Over 10 MiB: 413, in the envelope. */
	big = malloc(bigsize);
	memset(big, ' ', bigsize);
	big[0] = '{';
	big[bigsize - 1] = '}';
	parts[0] = (struct part){ "file", "big.json", big, bigsize };
	parts[1] = (struct part){ "kind", NULL, "openapi_v3", 0 };
	upload(e, ZONE_A, parts, 2, &r);
	assert_int_equal(r.status, 413);
	assert_true(cJSON_IsFalse(jget(r.json, "success")));
	http_resp_free(&r);
	free(big);

	/* A JSON body where multipart is wanted. */
	path = gw(ZONE_A, "/user_schemas");
	http_json(e, "POST", path, "{}", &r);
	assert_int_equal(r.status, 415);
	assert_envelope(&r);
	http_resp_free(&r);
	free(path);

	assert_int_equal(total(e, ZONE_A, "/user_schemas"), 0);
}

static char *
upload_pets(struct edgemu *e, const char *zone)
{
	struct http_resp	 r;
	struct part		 parts[2];
	char			*id;

	parts[0] = (struct part){ "file", "pets.json", pets_json, 0 };
	parts[1] = (struct part){ "kind", NULL, "openapi_v3", 0 };
	upload(e, zone, parts, 2, &r);
	assert_int_equal(r.status, 200);
	id = strdup(jstr(jget(jget(r.json, "result"), "schema"), "schema_id"));
	http_resp_free(&r);
	return (id);
}

static void
test_user_schema_edit(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*got;
	char		*id, *path;

	id = upload_pets(e, ZONE_A);
	path = gw(ZONE_A, "/user_schemas/%s", id);
	got = api_ok(e, "PATCH", path, "{\"validation_enabled\":true}");
	assert_true(cJSON_IsTrue(jget(got, "validation_enabled")));
	assert_string_equal(jstr(got, "source"), pets_json);
	cJSON_Delete(got);
	got = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_IsTrue(jget(got, "validation_enabled")));
	cJSON_Delete(got);
	/* The spec allows only true. */
	assert_refused(e, "PATCH", path, "{\"validation_enabled\":false}", 400,
	    "validation_enabled: only true");
	assert_refused(e, "PATCH", path, "{\"validation_enabled\":\"true\"}",
	    400, "validation_enabled: only true");

	got = api_ok(e, "DELETE", path, NULL);
	assert_true(cJSON_IsNull(got));
	cJSON_Delete(got);
	assert_refused(e, "GET", path, NULL, 404, id);
	assert_refused(e, "DELETE", path, NULL, 404, id);
	assert_refused(e, "PATCH", path, "{\"validation_enabled\":true}", 404,
	    id);
	free(path);
	path = gw(ZONE_A, "/user_schemas/%s/operations", id);
	assert_refused(e, "GET", path, NULL, 404, id);
	free(path);
	free(id);
}

static void
test_user_schema_operations(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*o;
	cJSON		*op;
	char		*id, *path;

	id = upload_pets(e, ZONE_A);
	op = create_op(e, ZONE_A, "GET", "pets.example.com", "/v2/pets/{id}");

	path = gw(ZONE_A, "/user_schemas/%s/operations", id);
	list(e, path, &p);
	assert_int_equal(p.total_count, 3);
	cJSON_Delete(p.result);
	free(path);

	path = gw(ZONE_A, "/user_schemas/%s/operations?operation_status="
	    "existing&feature=schema_info", id);
	list(e, path, &p);
	assert_int_equal(p.total_count, 1);
	o = cJSON_GetArrayItem(p.result, 0);
	assert_string_equal(jstr(o, "operation_id"), jstr(op, "operation_id"));
	assert_string_equal(jstr(o, "endpoint"), "/v2/pets/{var1}");
	assert_string_equal(jstr(jget(jget(jget(o, "features"), "schema_info"),
	    "active_schema"), "id"), id);
	cJSON_Delete(p.result);
	free(path);

	path = gw(ZONE_A, "/user_schemas/%s/operations?operation_status=new",
	    id);
	list(e, path, &p);
	assert_int_equal(p.total_count, 2);
	cJSON_ArrayForEach(o, p.result) {
		assert_null(cJSON_GetObjectItem(o, "operation_id"));
		assert_string_equal(jstr(o, "host"), "pets.example.com");
		assert_string_equal(jstr(o, "endpoint"), "/v2/pets");
	}
	cJSON_Delete(p.result);
	free(path);

	path = gw(ZONE_A, "/user_schemas/%s/operations?method=POST", id);
	list(e, path, &p);
	assert_int_equal(p.total_count, 1);
	assert_string_equal(jstr(cJSON_GetArrayItem(p.result, 0), "method"),
	    "POST");
	cJSON_Delete(p.result);
	free(path);
	assert_int_equal(total(e, ZONE_A, "/operations"), 1);

	path = gw(ZONE_A, "/user_schemas/%s/operations?per_page=4", id);
	assert_refused(e, "GET", path, NULL, 400, "per_page: ");
	free(path);
	path = gw(ZONE_A, "/user_schemas/%s/operations?operation_status=old",
	    id);
	assert_refused(e, "GET", path, NULL, 400, "operation_status: ");
	free(path);
	cJSON_Delete(op);
	free(id);
}

static void
test_user_schema_paging(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*s;
	char		*path, *ids[6];
	int		 i;

	for (i = 0; i < 6; i++)
		ids[i] = upload_pets(e, ZONE_A);
	path = gw(ZONE_A, "/user_schemas?per_page=5&page=2&omit_source=true");
	list(e, path, &p);
	assert_int_equal(p.count, 1);
	assert_int_equal(p.total_count, 6);
	assert_int_equal(p.total_pages, 2);
	s = cJSON_GetArrayItem(p.result, 0);
	assert_string_equal(jstr(s, "schema_id"), ids[5]);
	assert_null(cJSON_GetObjectItem(s, "source"));
	cJSON_Delete(p.result);
	free(path);
	path = gw(ZONE_A, "/user_schemas?per_page=5");
	list(e, path, &p);
	assert_int_equal(p.count, 5);
	assert_string_equal(jstr(cJSON_GetArrayItem(p.result, 0), "source"),
	    pets_json);
	cJSON_Delete(p.result);
	free(path);
	path = gw(ZONE_A, "/user_schemas?per_page=51");
	assert_refused(e, "GET", path, NULL, 400, "per_page: ");
	free(path);
	path = gw(ZONE_A, "/user_schemas?omit_source=perhaps");
	assert_refused(e, "GET", path, NULL, 400, "omit_source: ");
	free(path);
	for (i = 0; i < 6; i++)
		free(ids[i]);
}

/* ---- settings and configuration ---------------------------------------- */

static void
assert_settings(const cJSON *s, const char *def, const char *override)
{
	assert_string_equal(jstr(s, "validation_default_mitigation_action"),
	    def);
	if (override == NULL)
		assert_true(cJSON_IsNull(jget(s,
		    "validation_override_mitigation_action")));
	else
		assert_string_equal(jstr(s,
		    "validation_override_mitigation_action"), override);
}

static void
test_settings(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*s;
	char		*path = gw(ZONE_A, "/settings/schema_validation");

	s = api_ok(e, "GET", path, NULL);
	assert_settings(s, "none", NULL);
	cJSON_Delete(s);

	s = api_ok(e, "PUT", path, "{\"validation_default_mitigation_action\":"
	    "\"block\",\"validation_override_mitigation_action\":\"none\"}");
	assert_settings(s, "block", "none");
	cJSON_Delete(s);
	/* PATCH: absent and null leave things as they are. */
	s = api_ok(e, "PATCH", path, "{}");
	assert_settings(s, "block", "none");
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", path, "{\"validation_default_mitigation_"
	    "action\":null,\"validation_override_mitigation_action\":null}");
	assert_settings(s, "block", "none");
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", path, "{\"validation_default_mitigation_"
	    "action\":\"log\"}");
	assert_settings(s, "log", "none");
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", path, "{\"validation_override_mitigation_"
	    "action\":\"disable_override\"}");
	assert_settings(s, "log", NULL);
	cJSON_Delete(s);
	s = api_ok(e, "GET", path, NULL);
	assert_settings(s, "log", NULL);
	cJSON_Delete(s);

	/* PUT: the override goes when left out; disable_override clears. */
	s = api_ok(e, "PUT", path, "{\"validation_default_mitigation_action\":"
	    "\"none\",\"validation_override_mitigation_action\":\"none\"}");
	assert_settings(s, "none", "none");
	cJSON_Delete(s);
	s = api_ok(e, "PUT", path, "{\"validation_default_mitigation_action\":"
	    "\"block\"}");
	assert_settings(s, "block", NULL);
	cJSON_Delete(s);
	s = api_ok(e, "PUT", path, "{\"validation_default_mitigation_action\":"
	    "\"block\",\"validation_override_mitigation_action\":"
	    "\"disable_override\"}");
	assert_settings(s, "block", NULL);
	cJSON_Delete(s);

	assert_refused(e, "PUT", path, "{\"validation_override_mitigation_"
	    "action\":\"none\"}", 400,
	    "validation_default_mitigation_action: required");
	assert_refused(e, "PUT", path, "{\"validation_default_mitigation_"
	    "action\":\"deny\"}", 400, "must be none, log or block");
	assert_refused(e, "PATCH", path, "{\"validation_default_mitigation_"
	    "action\":\"deny\"}", 400, "must be none, log or block");
	assert_refused(e, "PATCH", path, "{\"validation_override_mitigation_"
	    "action\":\"block\"}", 400, "none, disable_override or null");
	assert_refused(e, "PUT", path, NULL, 400, "must be a JSON object");
	s = api_ok(e, "GET", path, NULL);
	assert_settings(s, "block", NULL);
	cJSON_Delete(s);
	free(path);
}

static void
test_configuration(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*c;
	char		*path = gw(ZONE_A, "/configuration"), *q;

	c = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(jget(c, "auth_id_characteristics")),
	    0);
	cJSON_Delete(c);
	cJSON_Delete(api_ok(e, "PUT", path, "{\"auth_id_characteristics\":["
	    "{\"type\":\"jwt\",\"name\":\"e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:"
	    "$.sub\"},{\"type\":\"header\",\"name\":\"x-user\"}]}"));
	q = gw(ZONE_A, "/configuration?properties[]=auth_id_characteristics");
	c = api_ok(e, "GET", q, NULL);
	assert_int_equal(cJSON_GetArraySize(jget(c, "auth_id_characteristics")),
	    2);
	assert_string_equal(jstr(cJSON_GetArrayItem(jget(c,
	    "auth_id_characteristics"), 1), "name"), "x-user");
	cJSON_Delete(c);
	free(q);
	q = gw(ZONE_A, "/configuration?properties=everything");
	assert_refused(e, "GET", q, NULL, 400, "properties: ");
	free(q);
	assert_refused(e, "PUT", path, "{\"auth_id_characteristics\":["
	    "{\"type\":\"ip\",\"name\":\"x\"}]}", 400,
	    "auth_id_characteristics[0].type");
	free(path);
}

/* ---- ids, zones, demo -------------------------------------------------- */

static void
test_bad_ids(void **state)
{
	struct edgemu	*e = *state;
	char		*path;

	path = gw(ZONE_A, "/operations/not-a-uuid");
	assert_refused(e, "GET", path, NULL, 400, "identifier is invalid");
	free(path);
	path = gw(ZONE_A, "/operations/0000000-0000-4000-8000-000000000000");
	assert_refused(e, "DELETE", path, NULL, 400, "identifier is invalid");
	free(path);
	path = gw(ZONE_A, "/operations/xyz/schema_validation");
	assert_refused(e, "GET", path, NULL, 400, "identifier is invalid");
	free(path);
	path = gw(ZONE_A, "/user_schemas/123");
	assert_refused(e, "GET", path, NULL, 400, "identifier is invalid");
	free(path);
	path = gw(ZONE_A, "/discovery/operations/123");
	assert_refused(e, "PATCH", path, "{\"state\":\"review\"}", 400,
	    "identifier is invalid");
	free(path);
	path = gw(ZONE_A, "/operations/" NO_ID);
	assert_refused(e, "GET", path, NULL, 404, NO_ID);
	free(path);
	path = gw(ZONE_A, "/user_schemas/" NO_ID);
	assert_refused(e, "GET", path, NULL, 404, NO_ID);
	free(path);
}

static void
test_zones_are_namespaces(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	cJSON		*op, *mine, *c;
	char		*path;

	assert_int_equal(total(e, ZONE_B, "/operations"), 0);
	assert_int_equal(total(e, ZONE_B, "/discovery/operations"), 0);
	assert_int_equal(total(e, ZONE_B, "/user_schemas"), 0);

	path = gw(e->zone, "/operations?per_page=5");
	list(e, path, &p);
	free(path);
	op = cJSON_DetachItemFromArray(p.result, 0);
	cJSON_Delete(p.result);
	path = gw(ZONE_B, "/operations/%s", jstr(op, "operation_id"));
	assert_refused(e, "GET", path, NULL, 404, "was not found");
	assert_refused(e, "DELETE", path, NULL, 404, "was not found");
	free(path);

	/* The same operation in another zone is another record. */
	mine = create_op(e, ZONE_B, jstr(op, "method"), jstr(op, "host"),
	    jstr(op, "endpoint"));
	assert_string_not_equal(jstr(mine, "operation_id"),
	    jstr(op, "operation_id"));
	assert_int_equal(total(e, ZONE_B, "/operations"), 1);
	assert_int_equal(total(e, e->zone, "/operations"), 300);

	path = gw(ZONE_B, "/settings/schema_validation");
	c = api_ok(e, "GET", path, NULL);
	assert_settings(c, "none", NULL);
	cJSON_Delete(c);
	free(path);
	path = gw(ZONE_B, "/configuration");
	c = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(jget(c, "auth_id_characteristics")),
	    0);
	cJSON_Delete(c);
	free(path);
	path = gw(ZONE_B, "/schemas");
	c = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(jget(c, "schemas")), 1);
	cJSON_Delete(c);
	free(path);
	cJSON_Delete(mine);
	cJSON_Delete(op);
}

static void
test_demo(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*s;
	cJSON		*c;
	char		*path, *q, *ep;
	int		 enabled = 0, i;

	assert_int_equal(total(e, e->zone, "/operations"), 300);
	assert_int_equal(total(e, e->zone, "/operations?host=api.example.com"),
	    100);
	assert_int_equal(total(e, e->zone, "/operations?host=shop.example.com"),
	    100);
	assert_int_equal(total(e, e->zone, "/operations?host=auth.example.com"),
	    100);
	assert_int_equal(total(e, e->zone, "/discovery/operations"), 40);

	path = gw(e->zone, "/user_schemas");
	list(e, path, &p);
	free(path);
	assert_int_equal(p.total_count, 2);
	cJSON_ArrayForEach(s, p.result) {
		enabled += cJSON_IsTrue(jget(s, "validation_enabled"));
		/* Each describes one operation not in endpoint management. */
		q = itest_printf("/user_schemas/%s/operations?operation_status"
		    "=new", jstr(s, "schema_id"));
		assert_int_equal(total(e, e->zone, q), 1);
		free(q);
	}
	assert_int_equal(enabled, 1);
	/* One source is JSON, the other YAML. */
	i = (jstr(cJSON_GetArrayItem(p.result, 0), "source")[0] == '{') +
	    (jstr(cJSON_GetArrayItem(p.result, 1), "source")[0] == '{');
	assert_int_equal(i, 1);
	cJSON_Delete(p.result);

	/* Every saved discovered operation is in endpoint management. */
	path = gw(e->zone, "/discovery/operations?state=saved&per_page=50");
	list(e, path, &p);
	free(path);
	assert_int_equal(p.count, 10);
	cJSON_ArrayForEach(s, p.result) {
		ep = encode(jstr(s, "endpoint"));
		q = itest_printf("/operations?host=%s&method=%s&endpoint=%s",
		    jstr(s, "host"), jstr(s, "method"), ep);
		assert_true(total(e, e->zone, q) >= 1);
		free(q);
		free(ep);
	}
	cJSON_Delete(p.result);

	path = gw(e->zone, "/configuration");
	c = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(jget(c, "auth_id_characteristics")),
	    2);
	cJSON_Delete(c);
	free(path);
	path = gw(e->zone, "/settings/schema_validation");
	c = api_ok(e, "GET", path, NULL);
	assert_settings(c, "log", NULL);
	cJSON_Delete(c);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_op_lifecycle,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_duplicate,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_bulk_create,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_validation,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_bulk_delete,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_paging,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_filters,
		    edgemu_fixture_demo,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_order,
		    edgemu_fixture_demo,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_features,
		    edgemu_fixture_demo,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_mitigation,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_discovery_list,
		    edgemu_fixture_demo,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_discovery_states,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_discovery_saved_by_create,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_discovery_openapi,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_schemas,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_user_schema_upload,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_user_schema_refused,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_user_schema_edit,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_user_schema_operations,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_user_schema_paging,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_settings,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_configuration,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_bad_ids,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_zones_are_namespaces,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_demo, edgemu_fixture_demo,
		    edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
