/*
 * Integration tests for the Rulesets API (phase http_ratelimit) over HTTP:
 * every route, the entry point created by PUT or POST, rule identity and
 * versions, positions, PATCH that is no merge, dry_run, each refusal with
 * its message, the demo entry point, and the limits of --plan.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "itest.h"

#define ZONE	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define ZONE_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"
#define NO_ID	"00000000000000000000000000000000"
#define ENTRY	"/zones/" ZONE "/rulesets/phases/http_ratelimit/entrypoint"
#define SETS	"/zones/" ZONE "/rulesets"

#define CHARS	"\"characteristics\":[\"cf.colo.id\",\"ip.src\"]"

/* A valid rule told apart by its path; extra goes at the top level. */
static char *
rule(const char *path, const char *extra)
{
	return (itest_printf("{\"action\":\"block\",\"expression\":"
	    "\"http.request.uri.path eq \\\"%s\\\"\",\"ratelimit\":{" CHARS
	    ",\"period\":60,\"requests_per_period\":10,"
	    "\"mitigation_timeout\":600}%s%s}", path, extra != NULL ? "," : "",
	    extra != NULL ? extra : ""));
}

static const cJSON *
get(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		fail_msg("no '%s' in %s", key, cJSON_PrintUnformatted(o));
	return (v);
}

static const char *
str(const cJSON *o, const char *key)
{
	const cJSON	*v = get(o, key);

	if (!cJSON_IsString(v))
		fail_msg("'%s' is no string", key);
	return (v->valuestring);
}

static const cJSON *
rules_of(const cJSON *rs)
{
	return (get(rs, "rules"));
}

static const cJSON *
rule_at(const cJSON *rs, int i)
{
	const cJSON	*r = cJSON_GetArrayItem(rules_of(rs), i);

	if (r == NULL)
		fail_msg("no rule %d", i);
	return (r);
}

/* The expressions' paths in order, "/a /b /c". */
static char *
order(const cJSON *rs)
{
	const cJSON	*r;
	char		 buf[512] = "";
	const char	*e, *q;

	cJSON_ArrayForEach(r, rules_of(rs)) {
		e = str(r, "expression");
		q = strchr(e, '"');
		if (q == NULL)
			fail_msg("expression %s", e);
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%.*s",
		    *buf != '\0' ? " " : "", (int)(strchr(q + 1, '"') - q - 1),
		    q + 1);
	}
	return (strdup(buf));
}

static void
assert_order(const cJSON *rs, const char *want)
{
	char	*got = order(rs);

	if (strcmp(got, want) != 0)
		fail_msg("order: got '%s', wanted '%s'", got, want);
	free(got);
}

static int
is_hex32(const char *s)
{
	return (strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32);
}

/* PUT the entry point with rules for these paths; the answer. */
static cJSON *
put_paths(struct edgemu *e, const char *const *paths, size_t n)
{
	char	*body = strdup("{\"rules\":["), *r, *nb;
	cJSON	*rs;
	size_t	 i;

	for (i = 0; i < n; i++) {
		r = rule(paths[i], NULL);
		nb = itest_printf("%s%s%s", body, i > 0 ? "," : "", r);
		free(body);
		free(r);
		body = nb;
	}
	nb = itest_printf("%s]}", body);
	rs = api_ok(e, "PUT", ENTRY, nb);
	free(body);
	free(nb);
	return (rs);
}

static char *
rules_path(const cJSON *rs, const char *rule_id)
{
	return (itest_printf(SETS "/%s/rules%s%s", str(rs, "id"),
	    rule_id != NULL ? "/" : "", rule_id != NULL ? rule_id : ""));
}

static void
assert_has(const char *msg, const char *want)
{
	if (strstr(msg, want) == NULL)
		fail_msg("message '%s' lacks '%s'", msg, want);
}

/* A refusal: status, and a message with want. */
static void
refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *want)
{
	char	*msg = api_fail(e, method, path, body, status);

	assert_has(msg, want);
	free(msg);
}

/* ---- reads before any write ------------------------------------------- */

static void
test_absent(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*r;
	char		*p, *body;

	refused(e, "GET", ENTRY, NULL, 404, "entry point");
	r = api_ok(e, "GET", ENTRY "/versions", NULL);
	assert_true(cJSON_IsArray(r));
	assert_int_equal(cJSON_GetArraySize(r), 0);
	cJSON_Delete(r);
	refused(e, "GET", ENTRY "/versions/1", NULL, 404, "entry point");
	r = api_ok(e, "GET", SETS, NULL);
	assert_int_equal(cJSON_GetArraySize(r), 0);
	cJSON_Delete(r);
	refused(e, "GET", SETS "/" NO_ID, NULL, 404, "ruleset " NO_ID);
	body = rule("/a", NULL);
	p = itest_printf(SETS "/%s/rules", NO_ID);
	refused(e, "POST", p, body, 404, "not found");
	free(p);
	p = itest_printf(SETS "/%s/rules/%s", NO_ID, NO_ID);
	refused(e, "PATCH", p, body, 404, "not found");
	refused(e, "DELETE", p, NULL, 404, "not found");
	free(p);
	free(body);
	/* Another phase is no route here. */
	refused(e, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_request_firewall_custom/entrypoint", NULL, 404, "route");
}

/* ---- PUT: creates, replaces, keeps identity, versions ------------------ */

static void
test_put_entry(void **state)
{
	static const char *const two[] = { "/a", "/b" };
	struct edgemu	*e = *state;
	cJSON		*rs, *again, *v1, *list;
	const cJSON	*r0, *r1, *a0;
	char		*body, *ra, *rb, *rc, *p;
	char		 id0[33], id1[33], t0[64];

	rs = put_paths(e, two, 2);
	assert_string_equal(str(rs, "name"), "default");
	assert_string_equal(str(rs, "kind"), "zone");
	assert_string_equal(str(rs, "phase"), "http_ratelimit");
	assert_string_equal(str(rs, "version"), "1");
	assert_string_equal(str(rs, "description"), "");
	assert_true(is_hex32(str(rs, "id")));
	assert_true(strlen(str(rs, "last_updated")) > 10);
	assert_order(rs, "/a /b");
	r0 = rule_at(rs, 0);
	r1 = rule_at(rs, 1);
	assert_true(is_hex32(str(r0, "id")));
	assert_string_not_equal(str(r0, "id"), str(r1, "id"));
	assert_string_equal(str(r0, "ref"), str(r0, "id"));
	assert_string_equal(str(r0, "version"), "1");
	assert_true(cJSON_IsTrue(get(r0, "enabled")));
	assert_int_equal(get(get(r0, "ratelimit"), "mitigation_timeout")->
	    valueint, 600);
	snprintf(id0, sizeof id0, "%s", str(r0, "id"));
	snprintf(id1, sizeof id1, "%s", str(r1, "id"));
	snprintf(t0, sizeof t0, "%s", str(r0, "last_updated"));

	/* The GETs answer the same object. */
	again = api_ok(e, "GET", ENTRY, NULL);
	assert_true(cJSON_Compare(rs, again, 1));
	cJSON_Delete(again);
	p = itest_printf(SETS "/%s", str(rs, "id"));
	again = api_ok(e, "GET", p, NULL);
	assert_true(cJSON_Compare(rs, again, 1));
	cJSON_Delete(again);
	free(p);

	/* Keep /a unchanged, change /b (same id), add /c, in a new order. */
	p = itest_printf("\"id\":\"%s\"", id0);
	ra = rule("/a", p);
	free(p);
	p = itest_printf("\"id\":\"%s\",\"ref\":\"bee\"", id1);
	rb = rule("/b2", p);
	free(p);
	rc = rule("/c", NULL);
	body = itest_printf("{\"description\":\"mine\",\"rules\":[%s,%s,%s]}",
	    rc, rb, ra);
	again = api_ok(e, "PUT", ENTRY, body);
	free(body);
	assert_string_equal(str(again, "version"), "2");
	assert_string_equal(str(again, "id"), str(rs, "id"));
	assert_string_equal(str(again, "description"), "mine");
	assert_order(again, "/c /b2 /a");
	a0 = rule_at(again, 2);
	assert_string_equal(str(a0, "id"), id0);
	assert_string_equal(str(a0, "version"), "1");
	assert_string_equal(str(a0, "last_updated"), t0);
	a0 = rule_at(again, 1);
	assert_string_equal(str(a0, "id"), id1);
	assert_string_equal(str(a0, "version"), "2");
	assert_string_equal(str(a0, "ref"), "bee");
	a0 = rule_at(again, 0);
	assert_true(is_hex32(str(a0, "id")));
	assert_string_not_equal(str(a0, "id"), id0);
	assert_string_not_equal(str(a0, "id"), id1);
	assert_string_equal(str(a0, "version"), "1");

	/* Versions: both listed without rules; version 1 as it was. */
	list = api_ok(e, "GET", ENTRY "/versions", NULL);
	assert_int_equal(cJSON_GetArraySize(list), 2);
	assert_string_equal(str(cJSON_GetArrayItem(list, 0), "version"), "1");
	assert_string_equal(str(cJSON_GetArrayItem(list, 1), "version"), "2");
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0), "rules"));
	cJSON_Delete(list);
	v1 = api_ok(e, "GET", ENTRY "/versions/1", NULL);
	assert_true(cJSON_Compare(v1, rs, 1));
	cJSON_Delete(v1);
	v1 = api_ok(e, "GET", ENTRY "/versions/2", NULL);
	assert_true(cJSON_Compare(v1, again, 1));
	cJSON_Delete(v1);
	refused(e, "GET", ENTRY "/versions/3", NULL, 404, "version '3'");
	refused(e, "GET", ENTRY "/versions/x", NULL, 404, "version 'x'");

	/* The list: one ruleset, without rules. */
	list = api_ok(e, "GET", SETS, NULL);
	assert_int_equal(cJSON_GetArraySize(list), 1);
	assert_string_equal(str(cJSON_GetArrayItem(list, 0), "id"),
	    str(rs, "id"));
	assert_string_equal(str(cJSON_GetArrayItem(list, 0), "version"), "2");
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0), "rules"));
	cJSON_Delete(list);

	/* Omitted rules are gone; an empty list empties it. */
	cJSON_Delete(again);
	again = api_ok(e, "PUT", ENTRY, "{\"rules\":[]}");
	assert_string_equal(str(again, "version"), "3");
	assert_int_equal(cJSON_GetArraySize(rules_of(again)), 0);
	cJSON_Delete(again);

	/* Identity refusals, and the name that cannot change. */
	body = itest_printf("{\"rules\":[%s]}", ra);
	refused(e, "PUT", ENTRY, body, 400, "rules[0].id: no rule");
	free(body);
	refused(e, "PUT", ENTRY, "{\"name\":\"other\"}", 400,
	    "name: cannot be changed");
	again = api_ok(e, "PUT", ENTRY, "{\"name\":\"default\"}");
	cJSON_Delete(again);
	refused(e, "PUT", ENTRY, "{\"rules\":{}}", 400, "rules: must be an "
	    "array");
	refused(e, "PUT", ENTRY, "{\"kind\":\"custom\"}", 400, "kind");
	refused(e, "PUT", ENTRY, "[]", 400, "JSON object");
	refused(e, "PUT", ENTRY, "{", 400, "");

	/* Other zones see nothing of it. */
	p = itest_printf("/zones/" ZONE_B "/rulesets/%s", str(rs, "id"));
	refused(e, "GET", p, NULL, 404, "not found");
	free(p);
	cJSON_Delete(rs);
	free(ra);
	free(rb);
	free(rc);
}

/* A PUT that keeps a rule id given twice is refused. */
static void
test_put_duplicate_id(void **state)
{
	static const char *const one[] = { "/a" };
	struct edgemu	*e = *state;
	cJSON		*rs;
	char		*idx, *r, *body;

	rs = put_paths(e, one, 1);
	idx = itest_printf("\"id\":\"%s\"", str(rule_at(rs, 0), "id"));
	r = rule("/a", idx);
	body = itest_printf("{\"rules\":[%s,%s]}", r, r);
	refused(e, "PUT", ENTRY, body, 400, "rules[1].id: rule");
	free(body);
	/* Two rules with one ref. */
	body = itest_printf("{\"rules\":[%s,%s]}", "{\"ref\":\"x\","
	    "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{" CHARS
	    ",\"period\":10,\"requests_per_period\":1,"
	    "\"mitigation_timeout\":10}}", "{\"ref\":\"x\",\"action\":\"block\","
	    "\"expression\":\"ssl\",\"ratelimit\":{" CHARS ",\"period\":10,"
	    "\"requests_per_period\":1,\"mitigation_timeout\":10}}");
	refused(e, "PUT", ENTRY, body, 400, "rules[1].ref: 'x' is already");
	free(body);
	free(r);
	free(idx);
	cJSON_Delete(rs);
}

/* ---- POST /rulesets ------------------------------------------------------ */

static void
test_create_ruleset(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*rs, *got;
	char		*r, *body;

	refused(e, "POST", SETS, "{\"kind\":\"zone\",\"phase\":"
	    "\"http_ratelimit\"}", 400, "name: required");
	refused(e, "POST", SETS, "{\"name\":\"n\",\"phase\":"
	    "\"http_ratelimit\"}", 400, "kind: required");
	refused(e, "POST", SETS, "{\"name\":\"n\",\"kind\":\"zone\"}", 400,
	    "phase: required");
	refused(e, "POST", SETS, "{\"name\":\"n\",\"kind\":\"custom\","
	    "\"phase\":\"http_ratelimit\"}", 400, "kind: must be \"zone\"");
	refused(e, "POST", SETS, "{\"name\":\"n\",\"kind\":\"zone\","
	    "\"phase\":\"http_request_firewall_custom\"}", 400,
	    "phase: must be \"http_ratelimit\"");
	refused(e, "POST", SETS, "{\"name\":\"\",\"kind\":\"zone\","
	    "\"phase\":\"http_ratelimit\"}", 400, "name: must be");

	/* dry_run: checked, not stored. */
	got = api_ok(e, "POST", SETS "?dry_run=true", "{\"name\":\"n\","
	    "\"kind\":\"zone\",\"phase\":\"http_ratelimit\"}");
	assert_true(cJSON_IsNull(got));
	cJSON_Delete(got);
	refused(e, "GET", ENTRY, NULL, 404, "entry point");

	r = rule("/a", NULL);
	body = itest_printf("{\"name\":\"rl\",\"description\":\"d\","
	    "\"kind\":\"zone\",\"phase\":\"http_ratelimit\",\"rules\":[%s]}",
	    r);
	rs = api_ok(e, "POST", SETS, body);
	assert_string_equal(str(rs, "name"), "rl");
	assert_string_equal(str(rs, "description"), "d");
	assert_string_equal(str(rs, "version"), "1");
	assert_order(rs, "/a");
	got = api_ok(e, "GET", ENTRY, NULL);
	assert_true(cJSON_Compare(rs, got, 1));
	cJSON_Delete(got);
	refused(e, "POST", SETS, body, 409, "already has an entry point");
	free(body);
	free(r);
	cJSON_Delete(rs);
}

/* ---- positions ----------------------------------------------------------- */

static cJSON *
post_at(struct edgemu *e, const cJSON *rs, const char *path,
    const char *position)
{
	char	*p = rules_path(rs, NULL), *extra, *body;
	cJSON	*out;

	extra = position != NULL ? itest_printf("\"position\":%s", position) :
	    NULL;
	body = rule(path, extra);
	out = api_ok(e, "POST", p, body);
	free(body);
	free(extra);
	free(p);
	return (out);
}

static void
test_positions(void **state)
{
	static const char *const abc[] = { "/a", "/b", "/c" };
	struct edgemu	*e = *state;
	cJSON		*rs, *out;
	char		*pos, *p, *body;
	char		 bid[33];

	rs = put_paths(e, abc, 3);
	snprintf(bid, sizeof bid, "%s", str(rule_at(rs, 1), "id"));

	out = post_at(e, rs, "/d", NULL);			/* default: end */
	assert_order(out, "/a /b /c /d");
	assert_string_equal(str(out, "version"), "2");
	cJSON_Delete(out);
	out = post_at(e, rs, "/e", "{\"before\":\"\"}");
	assert_order(out, "/e /a /b /c /d");
	cJSON_Delete(out);
	out = post_at(e, rs, "/f", "{\"after\":\"\"}");
	assert_order(out, "/e /a /b /c /d /f");
	cJSON_Delete(out);
	pos = itest_printf("{\"before\":\"%s\"}", bid);
	out = post_at(e, rs, "/g", pos);
	assert_order(out, "/e /a /g /b /c /d /f");
	cJSON_Delete(out);
	free(pos);
	pos = itest_printf("{\"after\":\"%s\"}", bid);
	out = post_at(e, rs, "/h", pos);
	assert_order(out, "/e /a /g /b /h /c /d /f");
	cJSON_Delete(out);
	free(pos);
	out = post_at(e, rs, "/i", "{\"index\":1}");
	assert_order(out, "/i /e /a /g /b /h /c /d /f");
	cJSON_Delete(out);
	out = post_at(e, rs, "/j", "{\"index\":3}");
	assert_order(out, "/i /e /j /a /g /b /h /c /d /f");
	cJSON_Delete(out);
	out = post_at(e, rs, "/k", "{\"index\":11}");		/* n + 1: end */
	assert_order(out, "/i /e /j /a /g /b /h /c /d /f /k");
	assert_string_equal(str(out, "version"), "9");
	cJSON_Delete(out);

	p = rules_path(rs, NULL);
	body = rule("/x", "\"position\":{\"index\":13}");
	refused(e, "POST", p, body, 400, "position.index: 13 is out of range "
	    "(1 to 12)");
	free(body);
	body = rule("/x", "\"position\":{\"index\":0}");
	refused(e, "POST", p, body, 400, "position.index: 0 is out of range");
	free(body);
	body = rule("/x", "\"position\":{\"index\":1.5}");
	refused(e, "POST", p, body, 400, "position.index: must be an integer");
	free(body);
	body = rule("/x", "\"position\":{\"before\":\"" NO_ID "\"}");
	refused(e, "POST", p, body, 400, "position.before: no rule '" NO_ID);
	free(body);
	body = rule("/x", "\"position\":{\"after\":5}");
	refused(e, "POST", p, body, 400, "position.after: must be a rule id");
	free(body);
	body = rule("/x", "\"position\":{\"before\":\"\",\"index\":1}");
	refused(e, "POST", p, body, 400, "position: takes exactly one");
	free(body);
	body = rule("/x", "\"position\":{\"top\":true}");
	refused(e, "POST", p, body, 400, "position: takes exactly one");
	free(body);
	body = rule("/x", "\"position\":\"first\"");
	refused(e, "POST", p, body, 400, "position: must be an object");
	free(body);
	free(p);
	/* Nothing refused was stored. */
	out = api_ok(e, "GET", ENTRY, NULL);
	assert_string_equal(str(out, "version"), "9");
	cJSON_Delete(out);
	cJSON_Delete(rs);
}

/*
 * A rule id in a position is found whatever its case, as the rule id in
 * the path is (and as edgetui's --position takes it).
 */
static void
test_position_upper_case(void **state)
{
	static const char *const abc[] = { "/a", "/b", "/c" };
	struct edgemu	*e = *state;
	cJSON		*rs, *out;
	char		*pos, *c;
	char		 bid[33];

	rs = put_paths(e, abc, 3);
	snprintf(bid, sizeof bid, "%s", str(rule_at(rs, 1), "id"));
	for (c = bid; *c != '\0'; c++)
		*c = (char)toupper((unsigned char)*c);
	pos = itest_printf("{\"before\":\"%s\"}", bid);
	out = post_at(e, rs, "/d", pos);
	assert_order(out, "/a /d /b /c");
	cJSON_Delete(out);
	free(pos);
	cJSON_Delete(rs);
}

/* ---- PATCH and DELETE ---------------------------------------------------- */

static void
test_patch(void **state)
{
	static const char *const abc[] = { "/a", "/b", "/c" };
	struct edgemu	*e = *state;
	cJSON		*rs, *out, *tmp;
	const cJSON	*r;
	char		*p, *body, *pos;
	char		 aid[33], cid[33], t[64];

	rs = put_paths(e, abc, 3);
	snprintf(aid, sizeof aid, "%s", str(rule_at(rs, 0), "id"));
	snprintf(cid, sizeof cid, "%s", str(rule_at(rs, 2), "id"));
	p = rules_path(rs, aid);

	/* Give /a a description, a ref and enabled false. */
	body = rule("/a", "\"description\":\"first\",\"enabled\":false,"
	    "\"ref\":\"my-ref\"");
	out = api_ok(e, "PATCH", p, body);
	free(body);
	r = rule_at(out, 0);
	assert_string_equal(str(r, "id"), aid);
	assert_string_equal(str(r, "version"), "2");
	assert_string_equal(str(r, "description"), "first");
	assert_true(cJSON_IsFalse(get(r, "enabled")));
	assert_string_equal(str(r, "ref"), "my-ref");
	assert_string_equal(str(out, "version"), "2");
	cJSON_Delete(out);

	/* Not a merge: left out, description and enabled take defaults; ref
	 * stays. */
	body = rule("/a2", NULL);
	out = api_ok(e, "PATCH", p, body);
	free(body);
	r = rule_at(out, 0);
	assert_string_equal(str(r, "version"), "3");
	assert_string_equal(str(r, "description"), "");
	assert_true(cJSON_IsTrue(get(r, "enabled")));
	assert_string_equal(str(r, "ref"), "my-ref");
	assert_order(out, "/a2 /b /c");
	snprintf(t, sizeof t, "%s", str(r, "last_updated"));
	cJSON_Delete(out);

	/* The same body again: the rule is unchanged, the ruleset moves on. */
	body = rule("/a2", NULL);
	out = api_ok(e, "PATCH", p, body);
	free(body);
	r = rule_at(out, 0);
	assert_string_equal(str(r, "version"), "3");
	assert_string_equal(str(r, "last_updated"), t);
	assert_string_equal(str(out, "version"), "4");
	cJSON_Delete(out);

	/* Only a position: moved, unchanged. */
	out = api_ok(e, "PATCH", p, "{\"position\":{\"after\":\"\"}}");
	assert_order(out, "/b /c /a2");
	r = rule_at(out, 2);
	assert_string_equal(str(r, "id"), aid);
	assert_string_equal(str(r, "version"), "3");
	assert_string_equal(str(r, "last_updated"), t);
	assert_string_equal(str(r, "ref"), "my-ref");
	cJSON_Delete(out);
	pos = itest_printf("{\"id\":\"%s\",\"position\":{\"before\":\"%s\"}}",
	    aid, cid);
	out = api_ok(e, "PATCH", p, pos);
	free(pos);
	assert_order(out, "/b /a2 /c");
	cJSON_Delete(out);
	out = api_ok(e, "PATCH", p, "{\"position\":{\"index\":3}}");
	assert_order(out, "/b /c /a2");
	cJSON_Delete(out);
	/* A whole rule and a position at once. */
	body = rule("/a3", "\"position\":{\"index\":1}");
	out = api_ok(e, "PATCH", p, body);
	free(body);
	assert_order(out, "/a3 /b /c");
	assert_string_equal(str(rule_at(out, 0), "version"), "4");
	cJSON_Delete(out);

	refused(e, "PATCH", p, "{\"position\":{\"index\":4}}", 400,
	    "position.index: 4 is out of range (1 to 3)");
	pos = itest_printf("{\"position\":{\"before\":\"%s\"}}", aid);
	refused(e, "PATCH", p, pos, 400, "relative to itself");
	free(pos);
	refused(e, "PATCH", p, "{\"description\":\"only\"}", 400,
	    "action: required");
	refused(e, "PATCH", p, "{\"id\":\"" NO_ID "\",\"position\":"
	    "{\"index\":1}}", 400, "id: '" NO_ID "' is not the rule");
	refused(e, "PATCH", p, "[1]", 400, "JSON object");
	free(p);
	p = rules_path(rs, NO_ID);
	refused(e, "PATCH", p, "{\"position\":{\"index\":1}}", 404,
	    "rule " NO_ID " not found");
	free(p);

	/* DELETE: the rest, a new version; then 404. */
	p = rules_path(rs, cid);
	out = api_ok(e, "DELETE", p, NULL);
	assert_order(out, "/a3 /b");
	tmp = api_ok(e, "GET", ENTRY, NULL);
	assert_true(cJSON_Compare(out, tmp, 1));
	cJSON_Delete(tmp);
	cJSON_Delete(out);
	refused(e, "DELETE", p, NULL, 404, "rule " );
	free(p);
	/* Version 2 still holds /a with its description. */
	out = api_ok(e, "GET", ENTRY "/versions/2", NULL);
	assert_order(out, "/a /b /c");
	assert_string_equal(str(rule_at(out, 0), "description"), "first");
	cJSON_Delete(out);
	cJSON_Delete(rs);
}

/* ---- dry_run -------------------------------------------------------------- */

static void
dry_ok(struct edgemu *e, const char *method, const char *path,
    const char *body)
{
	cJSON	*r = api_ok(e, method, path, body);

	assert_true(cJSON_IsNull(r));
	cJSON_Delete(r);
}

static void
test_dry_run(void **state)
{
	static const char *const ab[] = { "/a", "/b" };
	struct edgemu	*e = *state;
	cJSON		*rs, *now, *v;
	char		*p, *pr, *body, *q;

	body = rule("/x", NULL);
	q = itest_printf("{\"rules\":[%s]}", body);
	dry_ok(e, "PUT", ENTRY "?dry_run=true", q);
	refused(e, "GET", ENTRY, NULL, 404, "entry point");
	free(q);

	rs = put_paths(e, ab, 2);
	/* Without dry_run, the POST is stored. */
	p = rules_path(rs, NULL);
	now = api_ok(e, "POST", p, body);
	assert_string_equal(str(now, "version"), "2");
	cJSON_Delete(now);
	free(p);
	p = itest_printf(SETS "/%s/rules?dry_run=true", str(rs, "id"));
	pr = itest_printf(SETS "/%s/rules/%s?dry_run=true", str(rs, "id"),
	    str(rule_at(rs, 0), "id"));

	dry_ok(e, "POST", p, body);
	dry_ok(e, "PATCH", pr, body);
	dry_ok(e, "PATCH", pr, "{\"position\":{\"index\":2}}");
	dry_ok(e, "DELETE", pr, NULL);
	dry_ok(e, "PUT", ENTRY "?dry_run=true", "{\"rules\":[]}");
	now = api_ok(e, "GET", ENTRY, NULL);
	assert_string_equal(str(now, "version"), "2");
	assert_order(now, "/a /b /x");
	cJSON_Delete(now);
	v = api_ok(e, "GET", ENTRY "/versions", NULL);
	assert_int_equal(cJSON_GetArraySize(v), 2);
	cJSON_Delete(v);

	/* dry_run still validates everything. */
	refused(e, "POST", p, "{\"action\":\"block\"}", 400,
	    "expression: required");
	refused(e, "PUT", ENTRY "?dry_run=true", "{\"rules\":[{}]}", 400,
	    "rules[0].action: required");
	refused(e, "PATCH", pr, "{\"position\":{\"index\":9}}", 400,
	    "position.index");
	free(p);
	free(pr);

	/* Values other than true and false. */
	refused(e, "PUT", ENTRY "?dry_run=yes", "{\"rules\":[]}", 400,
	    "dry_run: 'yes' must be true or false");
	refused(e, "PUT", ENTRY "?dry_run=1", "{\"rules\":[]}", 400,
	    "dry_run");
	refused(e, "PUT", ENTRY "?dry_run=", "{\"rules\":[]}", 400,
	    "dry_run");
	p = itest_printf(SETS "/%s/rules/%s?dry_run=TRUE", str(rs, "id"),
	    str(rule_at(rs, 0), "id"));
	refused(e, "DELETE", p, NULL, 400, "dry_run");
	free(p);
	/* dry_run=false writes. */
	v = api_ok(e, "PUT", ENTRY "?dry_run=false", "{\"rules\":[]}");
	assert_string_equal(str(v, "version"), "3");
	cJSON_Delete(v);
	free(body);
	cJSON_Delete(rs);
}

/* ---- refusals -------------------------------------------------------------- */

struct refusal {
	const char	*rule;		/* top-level members */
	const char	*message;
	const char	*pointer;
};

#define GOOD_RL	"\"ratelimit\":{" CHARS ",\"period\":60," \
		"\"requests_per_period\":10,\"mitigation_timeout\":60}"
#define GOOD	"\"action\":\"block\",\"expression\":\"ssl\"," GOOD_RL

static const struct refusal refusals[] = {
	{ "\"expression\":\"ssl\"," GOOD_RL, "action: required", "/action" },
	{ "\"action\":\"skip\",\"expression\":\"ssl\"," GOOD_RL,
	    "action: 'skip' is not an action", "/action" },
	{ "\"action\":\"block\"," GOOD_RL, "expression: required",
	    "/expression" },
	{ "\"action\":\"block\",\"expression\":\"ssl\\tand ssl\"," GOOD_RL,
	    "expression: column 4: ", "/expression" },
	{ "\"action\":\"block\",\"expression\":\"http.host eq \\\"a\\\" "
	    "and http.hostt eq \\\"b\\\"\"," GOOD_RL, "expression: column 22: "
	    "unknown field 'http.hostt' (did you mean http.host?)",
	    "/expression" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{"
	    CHARS ",\"period\":60,\"requests_per_period\":10,"
	    "\"counting_expression\":\"http.response.code eq \\\"429\\\"\"}",
	    "ratelimit.counting_expression: column ",
	    "/ratelimit/counting_expression" },
	{ "\"action\":\"block\",\"expression\":\"ssl\"",
	    "ratelimit: required", "/ratelimit" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{"
	    "\"characteristics\":[\"ip.src\"],\"period\":60,"
	    "\"requests_per_period\":10}",
	    "ratelimit.characteristics: must include \"cf.colo.id\"",
	    "/ratelimit/characteristics" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"ip.src\","
	    "\"cf.unique_visitor_id\"],\"period\":60,"
	    "\"requests_per_period\":10}",
	    "ratelimit.characteristics: \"ip.src\" and "
	    "\"cf.unique_visitor_id\" cannot both", "/ratelimit/characteristics" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"ip.src\",\"ip.src\"],"
	    "\"period\":60,\"requests_per_period\":10}",
	    "ratelimit.characteristics[2]: \"ip.src\" is listed twice",
	    "/ratelimit/characteristics/2" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{" CHARS
	    ",\"period\":50,\"requests_per_period\":10}",
	    "ratelimit.period: 50 is not one of 10, 15, 20, 30, 40, 45, 60,",
	    "/ratelimit/period" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{" CHARS
	    ",\"period\":60,\"requests_per_period\":10,"
	    "\"mitigation_timeout\":86401}",
	    "ratelimit.mitigation_timeout: 86401 is out of range",
	    "/ratelimit/mitigation_timeout" },
	{ "\"action\":\"block\",\"expression\":\"ssl\",\"ratelimit\":{" CHARS
	    ",\"period\":60,\"requests_per_period\":0}",
	    "ratelimit.requests_per_period: 0 is out of range",
	    "/ratelimit/requests_per_period" },
	{ "\"action\":\"challenge\",\"expression\":\"ssl\","
	    "\"action_parameters\":{\"response\":{\"status_code\":429,"
	    "\"content_type\":\"text/plain\",\"content\":\"x\"}}," GOOD_RL,
	    "action_parameters.response: only block rules take a response",
	    "/action_parameters/response" },
	{ GOOD ",\"action_parameters\":{\"response\":{\"status_code\":503,"
	    "\"content_type\":\"text/plain\",\"content\":\"x\"}}",
	    "action_parameters.response.status_code: 503 is out of range "
	    "(400 to 499)", "/action_parameters/response/status_code" },
	{ GOOD ",\"action_parameters\":{\"response\":{\"status_code\":429,"
	    "\"content_type\":\"image/png\",\"content\":\"x\"}}",
	    "action_parameters.response.content_type: must be",
	    "/action_parameters/response/content_type" },
	{ GOOD ",\"action_parameters\":{\"response\":{\"status_code\":429,"
	    "\"content_type\":\"text/plain\"}}",
	    "action_parameters.response.content: required",
	    "/action_parameters/response/content" },
	{ GOOD ",\"description\":[]", "description: must be a string",
	    "/description" },
};

static void
test_refusals(void **state)
{
	static const char *const one[] = { "/a" };
	struct edgemu		*e = *state;
	struct http_resp	 r;
	const cJSON		*err;
	cJSON			*rs, *now;
	char			*p, *body, *big;
	size_t			 i;

	rs = put_paths(e, one, 1);
	p = rules_path(rs, NULL);
	for (i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		body = itest_printf("{%s}", refusals[i].rule);
		http_json(e, "POST", p, body, &r);
		if (r.status != 400)
			fail_msg("refusal %zu: status %ld: %s", i, r.status,
			    r.body);
		assert_envelope(&r);
		err = cJSON_GetArrayItem(get(r.json, "errors"), 0);
		assert_int_equal(get(err, "code")->valueint, 20021);
		if (strncmp(str(err, "message"), refusals[i].message,
		    strlen(refusals[i].message)) != 0)
			fail_msg("refusal %zu: message '%s', wanted '%s...'",
			    i, str(err, "message"), refusals[i].message);
		assert_string_equal(str(get(err, "source"), "pointer"),
		    refusals[i].pointer);
		http_resp_free(&r);
		/* The same rule in a PUT names its place in the list. */
		free(body);
		body = itest_printf("{\"rules\":[{" GOOD "},{%s}]}",
		    refusals[i].rule);
		http_json(e, "PUT", ENTRY, body, &r);
		assert_int_equal(r.status, 400);
		err = cJSON_GetArrayItem(get(r.json, "errors"), 0);
		if (strncmp(str(err, "message"), "rules[1].", 9) != 0 ||
		    strstr(str(err, "message"), refusals[i].message) == NULL)
			fail_msg("refusal %zu in a PUT: '%s'", i,
			    str(err, "message"));
		if (strncmp(str(get(err, "source"), "pointer"), "/rules/1/",
		    9) != 0)
			fail_msg("refusal %zu: pointer %s", i,
			    str(get(err, "source"), "pointer"));
		http_resp_free(&r);
		free(body);
	}
	/* A 4 097-character expression. */
	big = malloc(4098);
	memset(big, ' ', 4097);
	memcpy(big, "ssl", 3);
	big[4097] = '\0';
	body = itest_printf("{\"action\":\"block\",\"expression\":\"%s\","
	    GOOD_RL "}", big);
	refused(e, "POST", p, body, 400, "expression: 4097 characters is "
	    "over the limit of 4096");
	free(body);
	free(big);
	refused(e, "POST", p, "not json", 400, "");
	refused(e, "POST", p, "[]", 400, "JSON object");
	free(p);
	/* Nothing refused was stored. */
	now = api_ok(e, "GET", ENTRY, NULL);
	assert_string_equal(str(now, "version"), "1");
	cJSON_Delete(now);
	cJSON_Delete(rs);
}

/* ---- list paging, restart -------------------------------------------------- */

static void
test_list_and_restart(void **state)
{
	static const char *const one[] = { "/a" };
	struct edgemu		*e = *state;
	struct http_resp	 r;
	const cJSON		*info;
	cJSON			*rs, *got;

	rs = put_paths(e, one, 1);
	http_json(e, "GET", SETS "?per_page=1", NULL, &r);
	assert_int_equal(r.status, 200);
	info = get(r.json, "result_info");
	assert_null(cJSON_GetObjectItem(info, "cursor"));
	assert_int_equal(cJSON_GetArraySize(get(r.json, "result")), 1);
	http_resp_free(&r);
	refused(e, "GET", SETS "?per_page=0", NULL, 400, "per_page");
	refused(e, "GET", SETS "?per_page=101", NULL, 400, "per_page");
	refused(e, "GET", SETS "?cursor=nope", NULL, 400, "cursor");
	/* The last id as a cursor: nothing after it. */
	{
		char	*p = itest_printf(SETS "?cursor=%s", str(rs, "id"));

		got = api_ok(e, "GET", p, NULL);
		assert_int_equal(cJSON_GetArraySize(got), 0);
		cJSON_Delete(got);
		free(p);
	}

	edgemu_restart(e);
	got = api_ok(e, "GET", ENTRY, NULL);
	assert_true(cJSON_Compare(rs, got, 1));
	cJSON_Delete(got);
	got = api_ok(e, "GET", ENTRY "/versions/1", NULL);
	assert_true(cJSON_Compare(rs, got, 1));
	cJSON_Delete(got);
	cJSON_Delete(rs);
}

/* ---- demo data --------------------------------------------------------------- */

static void
test_demo(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*rs, *v;
	const cJSON	*r, *rl, *t;
	char		*p;
	int		 throttles = 0, counting = 0, n;
	unsigned	 actions = 0;

	p = itest_printf("/zones/%s/rulesets/phases/http_ratelimit/entrypoint",
	    e->zone);
	rs = api_ok(e, "GET", p, NULL);
	n = cJSON_GetArraySize(rules_of(rs));
	assert_int_equal(n, 6);
	cJSON_ArrayForEach(r, rules_of(rs)) {
		static const char *const acts[] = { "block", "challenge",
		    "js_challenge", "managed_challenge", "log" };
		size_t	i;

		for (i = 0; i < 5; i++) {
			if (strcmp(str(r, "action"), acts[i]) == 0)
				actions |= 1u << i;
		}
		rl = get(r, "ratelimit");
		t = cJSON_GetObjectItem(rl, "mitigation_timeout");
		throttles += t == NULL || t->valueint == 0;
		counting += cJSON_GetObjectItem(rl, "counting_expression") !=
		    NULL;
	}
	assert_int_equal(actions, 0x1f);
	assert_int_equal(throttles, 1);
	assert_int_equal(counting, 1);
	free(p);
	p = itest_printf("/zones/%s/rulesets/phases/http_ratelimit/"
	    "entrypoint/versions", e->zone);
	v = api_ok(e, "GET", p, NULL);
	assert_int_equal(cJSON_GetArraySize(v), 2);
	cJSON_Delete(v);
	free(p);
	cJSON_Delete(rs);
}

/*
 * --demo-data on a smaller plan seeds what the plan holds: as many rules
 * as its quota, each one the service takes on that plan (a write of the
 * same rules back is accepted), so the console starts without a rule the
 * plan forbids.
 */
static void
test_demo_per_plan(void **state)
{
	static const struct {
		const char	*plan;
		int		 rules;
	} plans[] = { { "free", 1 }, { "pro", 2 }, { "business", 5 } };
	struct edgemu	 e;
	cJSON		*rs, *body;
	char		*p, *text;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		memset(&e, 0, sizeof e);
		edgemu_start(&e, NULL, 1, "--plan", plans[i].plan, NULL);
		p = itest_printf("/zones/%s/rulesets/phases/http_ratelimit/"
		    "entrypoint", e.zone);
		rs = api_ok(&e, "GET", p, NULL);
		if (cJSON_GetArraySize(rules_of(rs)) != plans[i].rules)
			fail_msg("%s: %d demo rules, not %d", plans[i].plan,
			    cJSON_GetArraySize(rules_of(rs)), plans[i].rules);
		body = cJSON_CreateObject();
		cJSON_AddItemToObject(body, "rules",
		    cJSON_Duplicate(rules_of(rs), 1));
		text = cJSON_PrintUnformatted(body);
		free(p);
		p = itest_printf("/zones/%s/rulesets/phases/http_ratelimit/"
		    "entrypoint?dry_run=true", e.zone);
		dry_ok(&e, "PUT", p, text);
		free(text);
		free(p);
		cJSON_Delete(body);
		cJSON_Delete(rs);
		edgemu_finish(&e);
	}
}

/* ---- plans -------------------------------------------------------------------- */

static int
fixture_plan(void **state, const char *plan)
{
	struct edgemu	*e = calloc(1, sizeof *e);

	if (e == NULL)
		abort();
	edgemu_start(e, NULL, 0, "--plan", plan, NULL);
	*state = e;
	return (0);
}

static int
fixture_free(void **state)
{
	return (fixture_plan(state, "free"));
}

static int
fixture_pro(void **state)
{
	return (fixture_plan(state, "pro"));
}

static int
fixture_business(void **state)
{
	return (fixture_plan(state, "business"));
}

/* A rule with this action, period, timeout and ratelimit extra. */
static char *
plan_rule(const char *action, int period, int timeout, const char *extra)
{
	return (itest_printf("{\"action\":\"%s\",\"expression\":"
	    "\"http.request.uri.path eq \\\"/login\\\"\",\"ratelimit\":{"
	    CHARS ",\"period\":%d,\"requests_per_period\":5,"
	    "\"mitigation_timeout\":%d%s}}", action, period, timeout,
	    extra != NULL ? extra : ""));
}

static void
put_one(struct edgemu *e, const char *rule_text, const char *want)
{
	char	*body = itest_printf("{\"rules\":[%s]}", rule_text);
	cJSON	*r;

	if (want == NULL) {
		r = api_ok(e, "PUT", ENTRY "?dry_run=true", body);
		cJSON_Delete(r);
	} else
		refused(e, "PUT", ENTRY, body, 400, want);
	free(body);
}

static void
put_rule(struct edgemu *e, const char *action, int period, int timeout,
    const char *extra, const char *want)
{
	char	*r = plan_rule(action, period, timeout, extra);

	put_one(e, r, want);
	free(r);
}

static void
test_plan_free(void **state)
{
	struct edgemu	*e = *state;
	char		*a, *b, *body;
	cJSON		*rs;

	put_rule(e, "block", 10, 10, NULL, NULL);
	put_rule(e, "managed_challenge", 10, 0, NULL, NULL);
	put_rule(e, "block", 60, 10, NULL, "rules[0].ratelimit.period: 60 is "
	    "over the Free plan's longest period (10 s)");
	put_rule(e, "block", 10, 60, NULL, "rules[0].ratelimit."
	    "mitigation_timeout: 60 is over the Free plan's longest timeout");
	put_rule(e, "block", 10, 0, NULL, "rules[0].ratelimit."
	    "mitigation_timeout: 0 (throttle) with block needs Enterprise");
	put_rule(e, "challenge", 10, 10, NULL, "rules[0].ratelimit."
	    "mitigation_timeout: must be 0 for challenge on the Free plan");
	put_rule(e, "log", 10, 10, NULL, "rules[0].action: log needs "
	    "Enterprise");
	put_rule(e, "block", 10, 10, ",\"counting_expression\":\"ssl\"",
	    "rules[0].ratelimit.counting_expression: a counting expression "
	    "needs the Business plan");

	/* Expression fields follow the plan. */
	put_one(e, "{\"action\":\"block\",\"expression\":\"http.host eq "
	    "\\\"a\\\"\",\"ratelimit\":{" CHARS ",\"period\":10,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":10}}",
	    "rules[0].expression: column 1: field 'http.host' needs the Pro "
	    "plan");

	/* One rule: a second is refused, by PUT and by POST. */
	a = plan_rule("block", 10, 10, NULL);
	b = plan_rule("js_challenge", 10, 0, NULL);
	body = itest_printf("{\"rules\":[%s,%s]}", a, b);
	refused(e, "PUT", ENTRY, body, 400, "rules: 2 rules is over the Free "
	    "plan's limit of 1");
	free(body);
	body = itest_printf("{\"rules\":[%s]}", a);
	rs = api_ok(e, "PUT", ENTRY, body);
	free(body);
	body = itest_printf(SETS "/%s/rules", str(rs, "id"));
	refused(e, "POST", body, b, 400, "over the Free plan's limit of 1");
	free(body);
	free(a);
	free(b);
	cJSON_Delete(rs);
}

static void
test_plan_pro(void **state)
{
	struct edgemu	*e = *state;
	char		*a, *body;

	put_rule(e, "block", 60, 3600, NULL, NULL);
	put_rule(e, "block", 120, 60, NULL, "Pro plan's longest period (60 s)");
	put_rule(e, "block", 60, 86400, NULL, "Pro plan's longest timeout "
	    "(3600 s)");
	put_rule(e, "js_challenge", 60, 60, NULL, "must be 0 for "
	    "js_challenge");
	put_rule(e, "block", 60, 60, ",\"counting_expression\":\"ssl\"",
	    "needs the Business plan");
	put_one(e, "{\"action\":\"block\",\"expression\":"
	    "\"http.request.uri.path matches \\\"^/login\\\"\","
	    "\"ratelimit\":{" CHARS ",\"period\":60,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":60}}",
	    "rules[0].expression: column 23: 'matches' needs the Business "
	    "plan");
	a = plan_rule("block", 60, 60, NULL);
	body = itest_printf("{\"rules\":[%s,%s,%s]}", a, a, a);
	refused(e, "PUT", ENTRY, body, 400, "3 rules is over the Pro plan's "
	    "limit of 2");
	free(body);
	body = itest_printf("{\"rules\":[%s,%s]}", a, a);
	dry_ok(e, "PUT", ENTRY "?dry_run=true", body);
	free(body);
	free(a);
}

static void
test_plan_business(void **state)
{
	struct edgemu	*e = *state;
	char		*a, *body;

	put_rule(e, "block", 600, 86400, ",\"counting_expression\":"
	    "\"http.request.uri.path eq \\\"/login\\\"\"", NULL);
	put_rule(e, "block", 3600, 60, NULL, "Business plan's longest period "
	    "(600 s)");
	put_rule(e, "managed_challenge", 600, 0, NULL, NULL);
	put_rule(e, "block", 600, 0, NULL, "0 (throttle) with block needs "
	    "Enterprise");
	put_rule(e, "log", 60, 60, NULL, "log needs Enterprise");
	put_one(e, "{\"action\":\"block\",\"expression\":"
	    "\"http.request.uri.path matches \\\"^/login\\\"\","
	    "\"ratelimit\":{" CHARS ",\"period\":60,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":60}}", NULL);
	put_one(e, "{\"action\":\"block\",\"expression\":\"ssl\","
	    "\"ratelimit\":{" CHARS ",\"period\":60,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":60}}",
	    "rules[0].expression: column 1: field 'ssl' needs the Enterprise "
	    "plan");
	a = plan_rule("block", 60, 60, NULL);
	body = itest_printf("{\"rules\":[%s,%s,%s,%s,%s,%s]}", a, a, a, a, a,
	    a);
	refused(e, "PUT", ENTRY, body, 400, "6 rules is over the Business "
	    "plan's limit of 5");
	free(body);
	free(a);
}

/* Enterprise, the default: what lower plans refuse. */
static void
test_plan_enterprise(void **state)
{
	struct edgemu	*e = *state;

	put_rule(e, "log", 3600, 86400, NULL, NULL);
	put_rule(e, "block", 10, 0, NULL, NULL);
	put_rule(e, "challenge", 10, 600, NULL, NULL);
	put_rule(e, "block", 3600, 0, ",\"counting_expression\":\"ssl\"",
	    NULL);
}

/* --plan takes only the four plans; anything else stops edgemu at once. */
static void
test_plan_option(void **state)
{
	const char	*emu = getenv("EDGEMU");
	char		*cmd, out[512];
	FILE		*f;
	size_t		 n;
	int		 status;

	(void)state;
	if (emu == NULL)
		skip();
	cmd = itest_printf("timeout 20 '%s' --plan gold --listen 127.0.0.1:0 "
	    "--data /nonexistent 2>&1", emu);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	status = pclose(f);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	assert_has(out, "--plan gold: expected free, pro, business or "
	    "enterprise");
	free(cmd);
}

/* A PATCH whose position is null is no move: the rule must be whole. */
static void
test_patch_null_position(void **state)
{
	static const char *const one[] = { "/a" };
	struct edgemu	*e = *state;
	cJSON		*rs;
	char		*p;

	rs = put_paths(e, one, 1);
	p = rules_path(rs, str(rule_at(rs, 0), "id"));
	refused(e, "PATCH", p, "{\"position\":null}", 400, "action: required");
	free(p);
	cJSON_Delete(rs);
}

/*
 * ratelimit.score_response_header_name is a header's name on every write:
 * any other JSON type, or a string no header could have, is refused and
 * nothing is stored.
 */
static void
test_score_header_name(void **state)
{
	static const char *const one[] = { "/a" };
	static const char *const bad[] = {
		"{\"a\":[1,{\"b\":null}]}", "[null]", "1e308", "true",
		"9223372036854775807", "\"x score\"", NULL,	/* 5 000 'h' */
	};
	struct edgemu	*e = *state;
	cJSON		*rs, *now;
	char		*post, *patch, *name, *r, *q, *longname;
	size_t		 i;

	rs = put_paths(e, one, 1);
	post = rules_path(rs, NULL);
	patch = rules_path(rs, str(rule_at(rs, 0), "id"));
	longname = malloc(5003);
	assert_non_null(longname);
	longname[0] = '"';
	memset(longname + 1, 'h', 5000);
	strcpy(longname + 5001, "\"");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		name = itest_printf("\"ratelimit\":{" CHARS ",\"period\":60,"
		    "\"requests_per_period\":10,\"mitigation_timeout\":600,"
		    "\"score_response_header_name\":%s}", bad[i] != NULL ?
		    bad[i] : longname);
		r = itest_printf("{\"action\":\"block\",\"expression\":"
		    "\"http.request.uri.path eq \\\"/s\\\"\",%s}", name);
		q = itest_printf("{\"rules\":[%s]}", r);
		refused(e, "POST", post, r, 400,
		    "ratelimit.score_response_header_name");
		refused(e, "PATCH", patch, r, 400,
		    "ratelimit.score_response_header_name");
		refused(e, "PUT", ENTRY, q, 400,
		    "rules[0].ratelimit.score_response_header_name");
		free(q);
		free(r);
		free(name);
	}
	now = api_ok(e, "GET", ENTRY, NULL);
	assert_string_equal(str(now, "version"), str(rs, "version"));
	cJSON_Delete(now);

	/* A name is stored as sent. */
	r = itest_printf("{\"action\":\"block\",\"expression\":\"ssl\","
	    "\"ratelimit\":{" CHARS ",\"period\":60,\"score_per_period\":"
	    "400,\"mitigation_timeout\":600,\"score_response_header_name\":"
	    "\"x-api-score\"}}");
	now = api_ok(e, "PATCH", patch, r);
	assert_string_equal(str(get(rule_at(now, 0), "ratelimit"),
	    "score_response_header_name"), "x-api-score");
	cJSON_Delete(now);
	free(r);
	free(longname);
	free(patch);
	free(post);
	cJSON_Delete(rs);
}

/*
 * dry_run given twice is refused, whichever comes last: the write it
 * would have made is not made.
 */
static void
test_dry_run_twice(void **state)
{
	static const char *const one[] = { "/a" };
	static const char *const twice[] = {
		"?dry_run=true&dry_run=false", "?dry_run=false&dry_run=true",
		"?dry_run=true&dry_run=true",
	};
	struct edgemu	*e = *state;
	cJSON		*rs, *now;
	char		*p, *body;
	size_t		 i;

	rs = put_paths(e, one, 1);
	body = rule("/b", NULL);
	for (i = 0; i < sizeof twice / sizeof twice[0]; i++) {
		p = itest_printf(SETS "/%s/rules%s", str(rs, "id"), twice[i]);
		refused(e, "POST", p, body, 400, "dry_run: given more than "
		    "once");
		free(p);
	}
	now = api_ok(e, "GET", ENTRY, NULL);
	assert_string_equal(str(now, "version"), str(rs, "version"));
	assert_order(now, "/a");
	cJSON_Delete(now);
	free(body);
	cJSON_Delete(rs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_absent,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_put_entry,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_put_duplicate_id,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_create_ruleset,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_positions,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_position_upper_case,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_patch,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_dry_run,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_refusals,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_list_and_restart,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_demo,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test(test_demo_per_plan),
		cmocka_unit_test_setup_teardown(test_plan_free, fixture_free,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_plan_pro, fixture_pro,
		    edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_plan_business,
		    fixture_business, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_plan_enterprise,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test(test_plan_option),
		cmocka_unit_test_setup_teardown(test_patch_null_position,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_score_header_name,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_dry_run_twice,
		    edgemu_fixture_plain, edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
