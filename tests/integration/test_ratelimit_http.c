/*
 * Integration tests for the legacy rate limits over HTTP: CRUD in the API
 * envelope, full replace on PUT, validation refusals, per_page rules and
 * paging edges, the demo rules, zones as namespaces, a restart, and the
 * retired API (--legacy-gone).
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

#define ZONE_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define ZONE_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"
#define NO_ID	"00000000000000000000000000000000"

static const char full_rule[] =
	"{\"description\":\"<i>Login</i> guard\",\"disabled\":true,"
	"\"unknown\":\"dropped\","
	"\"match\":{\"request\":{\"methods\":[\"POST\"],"
	"\"schemes\":[\"HTTPS\"],\"url\":\"example.com/login*\","
	"\"extra\":1},\"response\":{\"origin_traffic\":false},"
	"\"headers\":[{\"name\":\"Cf-Cache-Status\",\"op\":\"ne\","
	"\"value\":\"HIT\"}]},"
	"\"bypass\":[{\"name\":\"url\",\"value\":\"example.com/login/sso\"}],"
	"\"threshold\":5,\"period\":60,"
	"\"action\":{\"mode\":\"ban\",\"timeout\":600,\"response\":{"
	"\"content_type\":\"text/plain\",\"body\":\"slow down\"}}}";

static const char *const all_modes[] = {
	"simulate", "ban", "challenge", "js_challenge", "managed_challenge"
};

static char *
list_path(const char *zone, const char *query)
{
	return (itest_printf("/zones/%s/rate_limits%s%s", zone,
	    query != NULL ? "?" : "", query != NULL ? query : ""));
}

static char *
item_path(const char *zone, const char *id)
{
	return (itest_printf("/zones/%s/rate_limits/%s", zone, id));
}

/* A rule whose description and threshold tell it apart. */
static char *
numbered_rule(int n)
{
	return (itest_printf("{\"description\":\"rule %d\",\"match\":{"
	    "\"request\":{\"url\":\"example.com/r%d*\"}},\"threshold\":%d,"
	    "\"period\":10,\"action\":{\"mode\":\"js_challenge\"}}", n, n,
	    n + 1));
}

static char *
create(struct edgemu *e, const char *zone, const char *body)
{
	char	*path = list_path(zone, NULL), *id;
	cJSON	*r = api_ok(e, "POST", path, body);

	id = strdup(jget(r, "id")->valuestring);
	cJSON_Delete(r);
	free(path);
	return (id);
}

/* A list call: result and result_info checked against the envelope. */
struct page {
	cJSON	*result;
	long	 page, per_page, count, total_count, total_pages;
};

static void
list(struct edgemu *e, const char *zone, const char *query, struct page *p)
{
	struct http_resp	 r;
	const cJSON		*info;
	char			*path = list_path(zone, query);

	http_json(e, "GET", path, NULL, &r);
	if (r.status != 200)
		fail_msg("GET %s: %ld %.300s", path, r.status, r.body);
	assert_envelope(&r);
	assert_true(cJSON_IsTrue(jget(r.json, "success")));
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
	free(path);
}

static void
assert_refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *want)
{
	char	*msg = api_fail(e, method, path, body, status);

	if (strncmp(msg, want, strlen(want)) != 0)
		fail_msg("%s %s: message '%s' does not start with '%s'", method,
		    path, msg, want);
	free(msg);
}

/* ---- tests ------------------------------------------------------------ */

static void
test_crud(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*made, *got, *put, *del, *want;
	const cJSON	*match;
	char		*path, *body;
	struct page	 p;

	path = list_path(ZONE_A, NULL);
	made = api_ok(e, "POST", path, full_rule);
	free(path);

	/* Every known field as sent, defaults and tag stripping applied. */
	want = cJSON_Parse(full_rule);
	cJSON_DeleteItemFromObject(want, "unknown");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    want, "match"), "request"), "extra");
	cJSON_ReplaceItemInObject(want, "description",
	    cJSON_CreateString("Login guard"));
	cJSON_AddStringToObject(want, "id", jget(made, "id")->valuestring);
	assert_json_equal(made, want);
	cJSON_Delete(want);
	assert_int_equal(strlen(jget(made, "id")->valuestring), 32);

	path = item_path(ZONE_A, jget(made, "id")->valuestring);
	got = api_ok(e, "GET", path, NULL);
	assert_json_equal(got, made);

	list(e, ZONE_A, NULL, &p);
	assert_int_equal(p.total_count, 1);
	assert_json_equal(cJSON_GetArrayItem(p.result, 0), made);
	cJSON_Delete(p.result);

	/*
	 * PUT replaces the whole rule: description, bypass, headers and the
	 * custom response are left out, so they are gone afterwards.
	 */
	body = itest_printf("{\"id\":\"%s\",\"match\":{\"request\":{"
	    "\"url\":\"example.com/other*\"}},\"threshold\":7,\"period\":120,"
	    "\"action\":{\"mode\":\"simulate\",\"timeout\":120}}",
	    jget(made, "id")->valuestring);
	put = api_ok(e, "PUT", path, body);
	free(body);
	assert_string_equal(jget(put, "id")->valuestring,
	    jget(made, "id")->valuestring);
	assert_string_equal(jget(put, "description")->valuestring, "");
	assert_true(cJSON_IsFalse(jget(put, "disabled")));
	assert_int_equal(cJSON_GetArraySize(jget(put, "bypass")), 0);
	assert_int_equal(jget(put, "threshold")->valueint, 7);
	match = jget(put, "match");
	assert_null(cJSON_GetObjectItem(match, "headers"));
	assert_null(cJSON_GetObjectItem(match, "response"));
	assert_string_equal(cJSON_GetArrayItem(jget(jget(match, "request"),
	    "methods"), 0)->valuestring, "_ALL_");
	assert_null(cJSON_GetObjectItem(jget(put, "action"), "response"));
	cJSON_Delete(got);
	got = api_ok(e, "GET", path, NULL);
	assert_json_equal(got, put);

	/* Delete answers {id}; then the rule is gone for every verb. */
	del = api_ok(e, "DELETE", path, NULL);
	assert_true(cJSON_IsObject(del));
	assert_int_equal(cJSON_GetArraySize(del), 1);
	assert_string_equal(jget(del, "id")->valuestring,
	    jget(made, "id")->valuestring);
	assert_refused(e, "GET", path, NULL, 404, "rate limit ");
	assert_refused(e, "DELETE", path, NULL, 404, "rate limit ");
	body = itest_printf("{\"id\":\"%s\",\"match\":{\"request\":{"
	    "\"url\":\"*\"}},\"threshold\":1,\"period\":10,"
	    "\"action\":{\"mode\":\"challenge\"}}",
	    jget(made, "id")->valuestring);
	assert_refused(e, "PUT", path, body, 404, "rate limit ");
	free(body);
	list(e, ZONE_A, NULL, &p);
	assert_int_equal(p.total_count, 0);
	cJSON_Delete(p.result);

	cJSON_Delete(made);
	cJSON_Delete(got);
	cJSON_Delete(put);
	cJSON_Delete(del);
	free(path);
}

static void
test_not_found_and_bad_ids(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	char			*path = item_path(ZONE_A, NO_ID);
	char			*msg;

	msg = api_fail(e, "GET", path, NULL, 404);
	assert_non_null(strstr(msg, NO_ID));
	free(msg);
	free(path);

	/* Not 32 hex: the router refuses it before the area sees it. */
	path = item_path(ZONE_A, "not-an-id");
	free(api_fail(e, "GET", path, NULL, 400));
	free(path);
	path = list_path("zone-is-not-hex", NULL);
	free(api_fail(e, "GET", path, NULL, 400));
	free(path);

	/* No PATCH in the legacy API. */
	path = item_path(ZONE_A, NO_ID);
	http_json(e, "PATCH", path, "{}", &r);
	assert_int_equal(r.status, 405);
	assert_envelope(&r);
	http_resp_free(&r);
	free(path);
}

static void
test_put_id(void **state)
{
	struct edgemu	*e = *state;
	char		*id, *path, *body;
	cJSON		*got;

	id = create(e, ZONE_A, full_rule);
	path = item_path(ZONE_A, id);
	assert_refused(e, "PUT", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":10,\"action\":{\"mode\":"
	    "\"challenge\"}}", 400, "id: required");
	body = itest_printf("{\"id\":\"%s\",\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":10,\"action\":{\"mode\":"
	    "\"challenge\"}}", NO_ID);
	assert_refused(e, "PUT", path, body, 400, "id: '" NO_ID "' does not "
	    "match");
	free(body);
	assert_refused(e, "PUT", path, "{\"id\":5,\"match\":{\"request\":{"
	    "\"url\":\"*\"}},\"threshold\":1,\"period\":10,\"action\":{"
	    "\"mode\":\"challenge\"}}", 400, "id: must be a string");
	/* An invalid PUT changes nothing. */
	body = itest_printf("{\"id\":\"%s\",\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":9,\"action\":{\"mode\":"
	    "\"challenge\"}}", id);
	assert_refused(e, "PUT", path, body, 400, "period: 9 is out of range");
	free(body);
	got = api_ok(e, "GET", path, NULL);
	assert_int_equal(jget(got, "threshold")->valueint, 5);
	cJSON_Delete(got);
	free(path);
	free(id);
}

static void
test_validation(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	char			*path = list_path(ZONE_A, NULL);
	struct page		 p;

	assert_refused(e, "POST", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":5,\"action\":{\"mode\":"
	    "\"ban\",\"timeout\":60}}", 400,
	    "period: 5 is out of range (10 to 86400)");
	assert_refused(e, "POST", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":10}", 400, "action: required");
	assert_refused(e, "POST", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1.5,\"period\":10,\"action\":{\"mode\":"
	    "\"challenge\"}}", 400, "threshold: must be an integer");
	assert_refused(e, "POST", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":10,\"action\":{\"mode\":"
	    "\"block\"}}", 400, "action.mode: 'block' is not one of");
	assert_refused(e, "POST", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\",\"methods\":[\"GET\",\"TRACE\"]}},\"threshold\":1,"
	    "\"period\":10,\"action\":{\"mode\":\"challenge\"}}", 400,
	    "match.request.methods[1]: 'TRACE' is not one of");
	assert_refused(e, "POST", path, "{\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":60,\"action\":{\"mode\":"
	    "\"ban\",\"timeout\":30}}", 400,
	    "action.timeout: 30 is less than the period (60)");
	assert_refused(e, "POST", path, "[1,2]", 400,
	    "the body must be a JSON object");
	assert_refused(e, "POST", path, NULL, 400, "a JSON body is required");

	/* Malformed JSON never reaches the area, but is a 400 envelope. */
	http_json(e, "POST", path, "{\"match\":", &r);
	assert_int_equal(r.status, 400);
	assert_envelope(&r);
	http_resp_free(&r);

	/* Nothing refused was stored. */
	list(e, ZONE_A, NULL, &p);
	assert_int_equal(p.total_count, 0);
	cJSON_Delete(p.result);
	free(path);
}

static void
test_per_page(void **state)
{
	static const char *const ok[] = { "1", "5", "10", "1000" };
	static const char *const bad[] = { "3", "1001", "0", "-5", "12",
	    "abc" };
	struct edgemu	*e = *state;
	struct page	 p;
	char		*q, *path;
	size_t		 i;

	for (i = 0; i < nitems(ok); i++) {
		q = itest_printf("per_page=%s", ok[i]);
		list(e, ZONE_A, q, &p);
		assert_int_equal(p.per_page, atol(ok[i]));
		cJSON_Delete(p.result);
		free(q);
	}
	for (i = 0; i < nitems(bad); i++) {
		q = itest_printf("per_page=%s", bad[i]);
		path = list_path(ZONE_A, q);
		assert_refused(e, "GET", path, NULL, 400, "per_page: ");
		free(path);
		free(q);
	}
	path = list_path(ZONE_A, "page=0");
	assert_refused(e, "GET", path, NULL, 400, "page: ");
	free(path);
}

/* The ids of pages 1.. at per_page, one after another. */
static cJSON *
all_pages(struct edgemu *e, const char *zone, int per_page, long total)
{
	cJSON		*ids = cJSON_CreateArray();
	const cJSON	*item;
	struct page	 p;
	char		*q;
	long		 pages = (total + per_page - 1) / per_page, n;

	for (n = 1; n <= pages; n++) {
		q = itest_printf("per_page=%d&page=%ld", per_page, n);
		list(e, zone, q, &p);
		assert_int_equal(p.page, n);
		assert_int_equal(p.per_page, per_page);
		assert_int_equal(p.total_count, total);
		assert_int_equal(p.total_pages, pages);
		assert_int_equal(p.count, n < pages ? per_page :
		    total - (pages - 1) * per_page);
		cJSON_ArrayForEach(item, p.result)
			cJSON_AddItemToArray(ids, cJSON_CreateString(jget(item,
			    "id")->valuestring));
		cJSON_Delete(p.result);
		free(q);
	}
	return (ids);
}

static void
test_paging(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	cJSON		*made, *pages;
	char		*body, *id;
	int		 i;

	/* Empty. */
	list(e, ZONE_B, NULL, &p);
	assert_int_equal(p.page, 1);
	assert_int_equal(p.per_page, 20);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.total_count, 0);
	assert_int_equal(p.total_pages, 0);
	cJSON_Delete(p.result);

	made = cJSON_CreateArray();
	for (i = 0; i < 15; i++) {
		body = numbered_rule(i);
		id = create(e, ZONE_B, body);
		cJSON_AddItemToArray(made, cJSON_CreateString(id));
		free(id);
		free(body);
	}

	/* 15 at 5: an exact multiple; at 10: a short last page; at 1. */
	pages = all_pages(e, ZONE_B, 5, 15);
	assert_json_equal(pages, made);
	cJSON_Delete(pages);
	pages = all_pages(e, ZONE_B, 10, 15);
	assert_json_equal(pages, made);
	cJSON_Delete(pages);
	pages = all_pages(e, ZONE_B, 1, 15);
	assert_json_equal(pages, made);
	cJSON_Delete(pages);

	/* The default page holds them all, in creation order. */
	list(e, ZONE_B, NULL, &p);
	assert_int_equal(p.per_page, 20);
	assert_int_equal(p.count, 15);
	assert_int_equal(p.total_pages, 1);
	assert_string_equal(jget(cJSON_GetArrayItem(p.result, 14),
	    "description")->valuestring, "rule 14");
	cJSON_Delete(p.result);

	/* Past the end: an empty page that still counts the rest. */
	list(e, ZONE_B, "per_page=5&page=4", &p);
	assert_int_equal(p.page, 4);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.total_count, 15);
	assert_int_equal(p.total_pages, 3);
	cJSON_Delete(p.result);
	list(e, ZONE_B, "per_page=1&page=16", &p);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.total_pages, 15);
	cJSON_Delete(p.result);
	cJSON_Delete(made);
}

static void
test_zones_are_namespaces(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	char		*id, *pa, *pb, *body;
	cJSON		*got;

	id = create(e, ZONE_A, full_rule);
	pa = item_path(ZONE_A, id);
	pb = item_path(ZONE_B, id);
	list(e, ZONE_B, NULL, &p);
	assert_int_equal(p.total_count, 0);
	cJSON_Delete(p.result);
	free(api_fail(e, "GET", pb, NULL, 404));
	body = itest_printf("{\"id\":\"%s\",\"match\":{\"request\":{\"url\":"
	    "\"*\"}},\"threshold\":1,\"period\":10,\"action\":{\"mode\":"
	    "\"challenge\"}}", id);
	free(api_fail(e, "PUT", pb, body, 404));
	free(api_fail(e, "DELETE", pb, NULL, 404));
	got = api_ok(e, "GET", pa, NULL);
	assert_int_equal(jget(got, "threshold")->valueint, 5);
	cJSON_Delete(got);
	free(body);
	free(pa);
	free(pb);
	free(id);
}

static void
test_demo(void **state)
{
	struct edgemu	*e = *state;
	struct page	 p;
	const cJSON	*rule, *action;
	char		*path;
	int		 modes = 0, disabled = 0, bypass = 0, headers = 0;
	int		 bodies = 0;
	size_t		 i;

	assert_non_null(e->zone);
	list(e, e->zone, NULL, &p);
	assert_int_equal(p.total_count, 8);
	cJSON_ArrayForEach(rule, p.result) {
		action = jget(rule, "action");
		for (i = 0; i < nitems(all_modes); i++) {
			if (strcmp(jget(action, "mode")->valuestring,
			    all_modes[i]) == 0)
				modes |= 1 << i;
		}
		disabled += cJSON_IsTrue(jget(rule, "disabled"));
		bypass += cJSON_GetArraySize(jget(rule, "bypass")) > 0;
		headers += cJSON_GetObjectItem(jget(rule, "match"),
		    "headers") != NULL;
		bodies += cJSON_GetObjectItem(action, "response") != NULL;
	}
	assert_int_equal(modes, 0x1f);
	assert_true(disabled >= 1 && disabled < 8);
	assert_true(bypass >= 1);
	assert_true(headers >= 1);
	assert_true(bodies >= 1);

	/* Another zone sees none of them, not even by id. */
	path = item_path(ZONE_A, jget(cJSON_GetArrayItem(p.result, 0),
	    "id")->valuestring);
	free(api_fail(e, "GET", path, NULL, 404));
	free(path);
	cJSON_Delete(p.result);
	list(e, ZONE_A, NULL, &p);
	assert_int_equal(p.total_count, 0);
	cJSON_Delete(p.result);
}

/* Everything a client did survives a restart: creates, a PUT, a DELETE. */
static void
test_restart(void **state)
{
	struct edgemu	*e = *state;
	struct page	 before, after, other;
	char		*body, *id, *path, *first = NULL;
	cJSON		*r;
	int		 i;

	for (i = 0; i < 12; i++) {
		body = numbered_rule(i);
		id = create(e, e->zone, body);
		if (i == 3) {
			path = item_path(e->zone, id);
			r = api_ok(e, "DELETE", path, NULL);
			cJSON_Delete(r);
			free(path);
		}
		if (i == 0)
			first = strdup(id);
		free(id);
		free(body);
	}
	path = item_path(e->zone, first);
	body = itest_printf("{\"id\":\"%s\",\"description\":\"edited\","
	    "\"match\":{\"request\":{\"url\":\"*\"}},\"threshold\":99,"
	    "\"period\":30,\"action\":{\"mode\":\"ban\",\"timeout\":30}}",
	    first);
	cJSON_Delete(api_ok(e, "PUT", path, body));
	free(body);
	body = numbered_rule(100);
	free(create(e, ZONE_A, body));
	free(body);

	list(e, e->zone, "per_page=1000", &before);
	assert_int_equal(before.total_count, 8 + 11);
	edgemu_restart(e);
	list(e, e->zone, "per_page=1000", &after);
	assert_json_equal(after.result, before.result);
	list(e, ZONE_A, NULL, &other);
	assert_int_equal(other.total_count, 1);
	r = api_ok(e, "GET", path, NULL);
	assert_string_equal(jget(r, "description")->valuestring, "edited");
	cJSON_Delete(r);
	cJSON_Delete(before.result);
	cJSON_Delete(after.result);
	cJSON_Delete(other.result);
	free(path);
	free(first);
}

/* A 410 in the failure envelope, with the code and the replacement named. */
static void
assert_gone(struct edgemu *e, const char *method, const char *path,
    const char *body)
{
	struct http_resp	 r;
	const cJSON		*err;

	http_json(e, method, path, body, &r);
	if (r.status != 410)
		fail_msg("%s %s: expected 410, got %ld: %.300s", method, path,
		    r.status, r.body);
	assert_envelope(&r);
	assert_true(cJSON_IsFalse(jget(r.json, "success")));
	assert_true(cJSON_IsNull(jget(r.json, "result")));
	err = cJSON_GetArrayItem(jget(r.json, "errors"), 0);
	assert_int_equal(jget(err, "code")->valueint, 10000);
	assert_non_null(strstr(jget(err, "message")->valuestring,
	    "Rate Limiting API is retired"));
	assert_non_null(strstr(jget(err, "message")->valuestring,
	    "http_ratelimit"));
	http_resp_free(&r);
}

/*
 * With --legacy-gone every rate-limit route answers 410 before it reads the
 * store or the body; credentials still come first, other areas still work,
 * and the same store served without the flag shows that nothing changed.
 */
static void
test_legacy_gone(void **state)
{
	struct edgemu		*e = *state;
	struct page		 before, after;
	struct http_resp	 r;
	char			*lp, *ip, *np, *body, *id, *ops;

	list(e, e->zone, "per_page=1000", &before);
	id = strdup(jget(cJSON_GetArrayItem(before.result, 0),
	    "id")->valuestring);
	e->extra[e->nextra++] = strdup("--legacy-gone");
	edgemu_restart(e);

	lp = list_path(e->zone, NULL);
	ip = item_path(e->zone, id);
	np = item_path(ZONE_A, NO_ID);
	body = itest_printf("{\"id\":\"%s\",\"match\":{\"request\":{"
	    "\"url\":\"*\"}},\"threshold\":99,\"period\":30,"
	    "\"action\":{\"mode\":\"ban\",\"timeout\":30}}", id);
	assert_gone(e, "GET", lp, NULL);
	assert_gone(e, "GET", ip, NULL);
	assert_gone(e, "GET", np, NULL);
	assert_gone(e, "POST", lp, full_rule);
	assert_gone(e, "POST", lp, "{not json");
	assert_gone(e, "PUT", ip, body);
	assert_gone(e, "DELETE", ip, NULL);

	http_request(e, "GET", lp, NULL, NULL, 0, "wrong-token", &r);
	assert_int_equal(r.status, 403);
	http_resp_free(&r);
	ops = itest_printf("/zones/%s/api_gateway/operations", e->zone);
	cJSON_Delete(api_ok(e, "GET", ops, NULL));

	free(e->extra[--e->nextra]);
	edgemu_restart(e);
	list(e, e->zone, "per_page=1000", &after);
	assert_json_equal(after.result, before.result);
	cJSON_Delete(before.result);
	cJSON_Delete(after.result);
	free(ops);
	free(body);
	free(np);
	free(ip);
	free(lp);
	free(id);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_crud, edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_not_found_and_bad_ids,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_put_id,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_validation,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_per_page,
		    edgemu_fixture_plain,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_paging,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_zones_are_namespaces,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_demo, edgemu_fixture_demo,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_restart,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_legacy_gone,
		    edgemu_fixture_demo, edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
