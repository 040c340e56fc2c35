/*
 * Unit tests for edgemu's Rulesets area run in process against a scratch
 * store, through route_run as the server runs them (so writes are in its
 * transaction): a store that fails to write or read answers 500 and leaves
 * nothing half-written, the 100-rule limit, and the demo entry point.
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

#include "buf.h"
#include "routetest.h"
#include "server.h"
#include "store.h"
#include "xmalloc.h"

extern const struct area rulesets_area;

#define ZONE	"0123456789abcdef0123456789abcdef"
#define ENTRY	"/zones/" ZONE "/rulesets/phases/http_ratelimit/entrypoint"

#define RULE	"{\"action\":\"block\",\"expression\":" \
		"\"http.request.uri.path eq \\\"/a\\\"\",\"ratelimit\":{" \
		"\"characteristics\":[\"cf.colo.id\",\"ip.src\"]," \
		"\"period\":60,\"requests_per_period\":5," \
		"\"mitigation_timeout\":60}}"

static const struct area *const routed[] = { &rulesets_area };

struct call {
	unsigned int	 status;
	cJSON		*result;
	char		*message;
};

static int
setup(void **state)
{
	*state = routetest_open("rulesets", routed, nitems(routed));
	return (0);
}

static int
teardown(void **state)
{
	routetest_close(*state);
	return (0);
}

/* Route one request and run it with route_run, as the server does. */
static void
call(struct routetest *f, enum http_method method, const char *path,
    const char *query, const char *body, struct call *c)
{
	const struct route	*routes[16], *r;
	struct req		 req;
	struct reply		 rep;
	char			*cause = NULL;
	size_t			 i;

	memset(&req, 0, sizeof req);
	memset(&rep, 0, sizeof rep);
	memset(c, 0, sizeof *c);
	assert_true(rulesets_area.nroutes <= nitems(routes));
	for (i = 0; i < rulesets_area.nroutes; i++)
		routes[i] = &rulesets_area.routes[i];
	if (route_lookup(routes, rulesets_area.nroutes, method, path, &r,
	    &req) != ROUTE_FOUND)
		fail_msg("no route for %s", path);
	req.store = f->store;
	req.method = method;
	req.path = path;
	if (query != NULL && query_parse(&req.query, query, &cause) != 0)
		fail_msg("query %s: %s", query, cause);
	if (body != NULL && (req.json = cJSON_Parse(body)) == NULL)
		fail_msg("test JSON does not parse: %s", body);
	route_run(r, &req, &rep);
	c->status = rep.status;
	c->result = rep.result;
	rep.result = NULL;
	if (cJSON_GetArraySize(rep.errors) > 0)
		c->message = xstrdup(cJSON_GetObjectItem(cJSON_GetArrayItem(
		    rep.errors, 0), "message")->valuestring);
	assert_true(sqlite3_get_autocommit(store_db(f->store)));
	reply_free(&rep);
	req_clear_params(&req);
	query_free(&req.query);
	cJSON_Delete(req.json);
}

static void
call_free(struct call *c)
{
	cJSON_Delete(c->result);
	free(c->message);
	memset(c, 0, sizeof *c);
}

static const char *
jstr(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	assert_true(cJSON_IsString(v));
	return (v->valuestring);
}

static void
assert_versions(struct routetest *f, int n, const char *latest)
{
	struct call	c;

	call(f, HTTP_GET, ENTRY "/versions", NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_int_equal(cJSON_GetArraySize(c.result), n);
	call_free(&c);
	call(f, HTTP_GET, ENTRY, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_string_equal(jstr(c.result, "version"), latest);
	call_free(&c);
}

/*
 * A version row written and the ruleset row refused (or the reverse):
 * the write answers 500 and neither row stays.
 */
static void
test_store_write_failure(void **state)
{
	static const char *const triggers[] = {
		"CREATE TRIGGER t BEFORE INSERT ON rs_version BEGIN"
		" SELECT RAISE(ABORT, 'disk on fire'); END;",
		"CREATE TRIGGER t BEFORE UPDATE ON rs_ruleset BEGIN"
		" SELECT RAISE(ABORT, 'disk on fire'); END;",
	};
	struct routetest	*f = *state;
	struct call		 c;
	char			*rules, *rule;
	const char		*rid;
	size_t			 i;

	call(f, HTTP_PUT, ENTRY, NULL, "{\"rules\":[" RULE "]}", &c);
	assert_int_equal(c.status, 200);
	rules = xprintf("/zones/" ZONE "/rulesets/%s/rules",
	    jstr(c.result, "id"));
	rid = jstr(cJSON_GetArrayItem(cJSON_GetObjectItem(c.result, "rules"),
	    0), "id");
	rule = xprintf("%s/%s", rules, rid);
	call_free(&c);

	for (i = 0; i < nitems(triggers); i++) {
		assert_int_equal(store_exec(f->store, triggers[i]), 0);
		call(f, HTTP_PUT, ENTRY, NULL, "{\"rules\":[]}", &c);
		assert_int_equal(c.status, 500);
		assert_non_null(strstr(c.message, "disk on fire"));
		assert_null(c.result);
		call_free(&c);
		call(f, HTTP_POST, rules, NULL, RULE, &c);
		assert_int_equal(c.status, 500);
		call_free(&c);
		call(f, HTTP_PATCH, rule, NULL, "{\"position\":{\"index\":1}}",
		    &c);
		assert_int_equal(c.status, 500);
		call_free(&c);
		call(f, HTTP_DELETE, rule, NULL, NULL, &c);
		assert_int_equal(c.status, 500);
		call_free(&c);
		assert_int_equal(store_exec(f->store, "DROP TRIGGER t;"), 0);
		assert_versions(f, 1, "1");
	}
	/* And the store writes again. */
	call(f, HTTP_DELETE, rule, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	call_free(&c);
	assert_versions(f, 2, "2");
	free(rules);
	free(rule);
}

/* A stored version that is no JSON: 500 with a cause, never a crash. */
static void
test_store_read_failure(void **state)
{
	struct routetest	*f = *state;
	struct call		 c;
	char			*path;

	call(f, HTTP_PUT, ENTRY, NULL, "{\"rules\":[" RULE "]}", &c);
	assert_int_equal(c.status, 200);
	path = xprintf("/zones/" ZONE "/rulesets/%s", jstr(c.result, "id"));
	call_free(&c);
	assert_int_equal(store_exec(f->store,
	    "UPDATE rs_version SET body = 'not json'"), 0);
	call(f, HTTP_GET, ENTRY, NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	assert_non_null(strstr(c.message, "not JSON"));
	call_free(&c);
	call(f, HTTP_GET, path, NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	call_free(&c);
	call(f, HTTP_GET, ENTRY "/versions", NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	call_free(&c);
	call(f, HTTP_GET, "/zones/" ZONE "/rulesets", NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	call_free(&c);
	call(f, HTTP_PUT, ENTRY, NULL, "{\"rules\":[]}", &c);
	assert_int_equal(c.status, 500);
	call_free(&c);
	free(path);
}

/* Enterprise holds 100 rules; the 101st is refused. */
static void
test_many_rules(void **state)
{
	struct routetest	*f = *state;
	struct call		 c;
	struct buf		 b = BUF_INITIALIZER;
	char			*rules;
	int			 i;

	buf_addf(&b, "{\"rules\":[");
	for (i = 0; i < 100; i++)
		buf_addf(&b, "%s" RULE, i > 0 ? "," : "");
	buf_addf(&b, "]}");
	call(f, HTTP_PUT, ENTRY, NULL, buf_str(&b), &c);
	assert_int_equal(c.status, 200);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(c.result,
	    "rules")), 100);
	rules = xprintf("/zones/" ZONE "/rulesets/%s/rules",
	    jstr(c.result, "id"));
	call_free(&c);
	call(f, HTTP_POST, rules, "dry_run=true", RULE, &c);
	assert_int_equal(c.status, 400);
	assert_string_equal(c.message, "rules: 101 rules is over the "
	    "Enterprise plan's limit of 100");
	call_free(&c);
	free(rules);
	buf_free(&b);
}

/* The demo entry point passes its own checks and reads back. */
static void
test_demo(void **state)
{
	struct routetest	*f = *state;
	struct call		 c;
	char			*cause = NULL;

	assert_int_equal(store_begin(f->store), 0);
	assert_int_equal(rulesets_area.demo(f->store, "acct", ZONE, &cause),
	    0);
	assert_int_equal(store_commit(f->store), 0);
	call(f, HTTP_GET, ENTRY, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(c.result,
	    "rules")), 6);
	assert_string_equal(jstr(c.result, "version"), "2");
	call_free(&c);
	call(f, HTTP_GET, ENTRY "/versions/1", NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(c.result,
	    "rules")), 5);
	call_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_store_write_failure,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_read_failure,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_rules, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_demo, setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
