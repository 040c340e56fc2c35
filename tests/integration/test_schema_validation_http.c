/*
 * Integration tests for the current Schema Validation API over HTTP
 * (/zones/{zone}/schema_validation): schemas uploaded as JSON and read,
 * switched and deleted through either API, paging and filters, the zone
 * settings, each operation's action one at a time and in bulk, every
 * refusal, and the server with the current API switched off.
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

#define ZONE		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define GW		"/zones/" ZONE "/api_gateway"
#define SV		"/zones/" ZONE "/schema_validation"
#define NO_ID		"00000000-0000-4000-8000-000000000000"
#define BOUNDARY	"edgemu-test-sv-4bQ9xZ"

static const char pets_json[] =
	"{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Pets\","
	"\"version\":\"1.0\"},\"servers\":[{\"url\":"
	"\"https://pets.example.com/v2\"}],\"paths\":{"
	"\"/pets\":{\"get\":{},\"post\":{}}}}";

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

/* Not OpenAPI 3: a path without its leading '/'. */
static const char bad_paths[] =
	"{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},"
	"\"paths\":{\"pets\":{\"get\":{}}}}";

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
		fail_msg("'%s' is not a string", key);
	return (v->valuestring);
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

/* The JSON upload body: source as a string, escaped by cJSON. */
static char *
upload_body(const char *name, const char *source, int enabled)
{
	cJSON	*b = cJSON_CreateObject();
	char	*text;

	cJSON_AddStringToObject(b, "kind", "openapi_v3");
	cJSON_AddStringToObject(b, "name", name);
	cJSON_AddStringToObject(b, "source", source);
	cJSON_AddBoolToObject(b, "validation_enabled", enabled);
	text = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return (text);
}

/* Upload through the current API; returns the schema_id (caller frees). */
static char *
upload(struct edgemu *e, const char *name, const char *source, int enabled)
{
	char	*body = upload_body(name, source, enabled), *id;
	cJSON	*s;

	s = api_ok(e, "POST", SV "/schemas", body);
	assert_string_equal(str(s, "name"), name);
	assert_string_equal(str(s, "kind"), "openapi_v3");
	assert_string_equal(str(s, "source"), source);
	assert_true(cJSON_IsBool(get(s, "validation_enabled")));
	assert_int_equal(cJSON_IsTrue(get(s, "validation_enabled")), enabled);
	id = strdup(str(s, "schema_id"));
	cJSON_Delete(s);
	free(body);
	return (id);
}

/* Upload through the classic API, multipart. */
static char *
upload_classic(struct edgemu *e, const char *source)
{
	struct http_resp	 r;
	char			*body, *id;
	int			 n;

	n = asprintf(&body, "--" BOUNDARY "\r\nContent-Disposition: "
	    "form-data; name=\"file\"; filename=\"api.json\"\r\n\r\n%s\r\n"
	    "--" BOUNDARY "\r\nContent-Disposition: form-data; "
	    "name=\"kind\"\r\n\r\nopenapi_v3\r\n--" BOUNDARY "--\r\n", source);
	assert_true(n > 0);
	http_request(e, "POST", GW "/user_schemas",
	    "multipart/form-data; boundary=" BOUNDARY, body, (size_t)n, NULL,
	    &r);
	if (r.status != 200)
		fail_msg("classic upload: %ld %.300s", r.status, r.body);
	id = strdup(str(get(get(r.json, "result"), "schema"), "schema_id"));
	http_resp_free(&r);
	free(body);
	return (id);
}

/* A page of a list: its result (caller frees) and result_info checked. */
static cJSON *
list(struct edgemu *e, const char *path, long *total)
{
	struct http_resp	 r;
	const cJSON		*info;
	cJSON			*result;

	http_json(e, "GET", path, NULL, &r);
	if (r.status != 200)
		fail_msg("GET %s: %ld %.300s", path, r.status, r.body);
	assert_envelope(&r);
	info = get(r.json, "result_info");
	result = cJSON_Duplicate(get(r.json, "result"), 1);
	assert_true(cJSON_IsArray(result));
	assert_int_equal((long)get(info, "count")->valuedouble,
	    cJSON_GetArraySize(result));
	*total = (long)get(info, "total_count")->valuedouble;
	http_resp_free(&r);
	return (result);
}

static char *
create_op(struct edgemu *e, const char *endpoint)
{
	char	*body, *id;
	cJSON	*op;

	body = itest_printf("{\"method\":\"GET\",\"host\":\"api.example.com\","
	    "\"endpoint\":\"%s\"}", endpoint);
	op = api_ok(e, "POST", GW "/operations/item", body);
	id = strdup(str(op, "operation_id"));
	cJSON_Delete(op);
	free(body);
	return (id);
}

/* ---- schemas ----------------------------------------------------------- */

static void
test_schema_cross_path(void **state)
{
	struct edgemu	*e = *state;
	char		*id, *cid, *path, *cpath;
	cJSON		*s, *c;

	/* New upload (YAML text), read and switched through the classic. */
	id = upload(e, "admin", pets_yaml, 0);
	path = itest_printf(SV "/schemas/%s", id);
	cpath = itest_printf(GW "/user_schemas/%s", id);
	s = api_ok(e, "GET", path, NULL);
	c = api_ok(e, "GET", cpath, NULL);
	assert_true(cJSON_Compare(s, c, 1));
	assert_string_equal(str(c, "source"), pets_yaml);
	cJSON_Delete(c);
	cJSON_Delete(s);
	/* Its operations are those of the classic view. */
	free(cpath);
	cpath = itest_printf(GW "/user_schemas/%s/operations", id);
	c = api_ok(e, "GET", cpath, NULL);
	assert_int_equal(cJSON_GetArraySize(c), 1);
	assert_string_equal(str(cJSON_GetArrayItem(c, 0), "endpoint"),
	    "/owners/{var1}");
	cJSON_Delete(c);
	free(cpath);
	cpath = itest_printf(GW "/user_schemas/%s", id);
	c = api_ok(e, "PATCH", cpath, "{\"validation_enabled\":true}");
	cJSON_Delete(c);
	s = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_IsTrue(get(s, "validation_enabled")));
	cJSON_Delete(s);
	/* Off again: only the current API allows it. */
	s = api_ok(e, "PATCH", path, "{\"validation_enabled\":false}");
	assert_true(cJSON_IsFalse(get(s, "validation_enabled")));
	cJSON_Delete(s);
	c = api_ok(e, "GET", cpath, NULL);
	assert_true(cJSON_IsFalse(get(c, "validation_enabled")));
	cJSON_Delete(c);
	/* An empty patch changes nothing. */
	s = api_ok(e, "PATCH", path, "{}");
	assert_true(cJSON_IsFalse(get(s, "validation_enabled")));
	cJSON_Delete(s);
	/* Deleted through the classic: gone from both. */
	s = api_ok(e, "DELETE", cpath, NULL);
	cJSON_Delete(s);
	assert_refused(e, "GET", path, NULL, 404, id);
	free(path);
	free(cpath);
	free(id);

	/* Classic upload, current API read, enable, delete. */
	cid = upload_classic(e, pets_json);
	path = itest_printf(SV "/schemas/%s", cid);
	s = api_ok(e, "GET", path, NULL);
	assert_string_equal(str(s, "source"), pets_json);
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", path, "{\"validation_enabled\":true}");
	assert_true(cJSON_IsTrue(get(s, "validation_enabled")));
	cJSON_Delete(s);
	s = api_ok(e, "DELETE", path, NULL);
	assert_true(s == NULL || cJSON_IsNull(s));
	cJSON_Delete(s);
	assert_refused(e, "DELETE", path, NULL, 404, cid);
	cpath = itest_printf(GW "/user_schemas/%s", cid);
	assert_refused(e, "GET", cpath, NULL, 404, cid);
	free(cpath);
	free(path);
	free(cid);
}

static void
test_schema_get_omit_source(void **state)
{
	struct edgemu	*e = *state;
	char		*id, *path;
	cJSON		*s;

	id = upload(e, "pets", pets_json, 1);
	path = itest_printf(SV "/schemas/%s?omit_source=true", id);
	s = api_ok(e, "GET", path, NULL);
	assert_null(cJSON_GetObjectItem(s, "source"));
	assert_string_equal(str(s, "schema_id"), id);
	assert_true(cJSON_IsTrue(get(s, "validation_enabled")));
	cJSON_Delete(s);
	free(path);
	path = itest_printf(SV "/schemas/%s?omit_source=maybe", id);
	assert_refused(e, "GET", path, NULL, 400, "omit_source");
	free(path);
	assert_refused(e, "GET", SV "/schemas/" NO_ID, NULL, 404, NO_ID);
	free(id);
}

static void
test_schema_list(void **state)
{
	struct edgemu	*e = *state;
	const cJSON	*s;
	cJSON		*l;
	char		*ids[7], name[16];
	long		 total;
	int		 i;

	for (i = 0; i < 7; i++) {
		snprintf(name, sizeof name, "s%d", i);
		ids[i] = upload(e, name, pets_json, i % 3 == 0);
	}
	l = list(e, SV "/schemas?per_page=5", &total);
	assert_int_equal(total, 7);
	assert_int_equal(cJSON_GetArraySize(l), 5);
	assert_string_equal(str(cJSON_GetArrayItem(l, 0), "schema_id"),
	    ids[0]);
	assert_non_null(cJSON_GetObjectItem(cJSON_GetArrayItem(l, 0),
	    "source"));
	cJSON_Delete(l);
	l = list(e, SV "/schemas?per_page=5&page=2&omit_source=true", &total);
	assert_int_equal(cJSON_GetArraySize(l), 2);
	assert_string_equal(str(cJSON_GetArrayItem(l, 1), "schema_id"),
	    ids[6]);
	cJSON_ArrayForEach(s, l)
		assert_null(cJSON_GetObjectItem(s, "source"));
	cJSON_Delete(l);
	l = list(e, SV "/schemas?per_page=5&page=3", &total);
	assert_int_equal(cJSON_GetArraySize(l), 0);
	cJSON_Delete(l);

	l = list(e, SV "/schemas?validation_enabled=true", &total);
	assert_int_equal(total, 3);
	cJSON_ArrayForEach(s, l)
		assert_true(cJSON_IsTrue(get(s, "validation_enabled")));
	cJSON_Delete(l);
	l = list(e, SV "/schemas?validation_enabled=false", &total);
	assert_int_equal(total, 4);
	cJSON_Delete(l);

	assert_refused(e, "GET", SV "/schemas?validation_enabled=1x", NULL,
	    400, "validation_enabled");
	assert_refused(e, "GET", SV "/schemas?per_page=500", NULL, 400,
	    "per_page");
	for (i = 0; i < 7; i++)
		free(ids[i]);
}

static void
test_schema_refused(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r, cr;
	char			*body, *mp;
	long			 total;
	int			 n;
	cJSON			*l;

	assert_refused(e, "POST", SV "/schemas", "[]", 400, "JSON object");
	assert_refused(e, "POST", SV "/schemas", "{\"name\":\"n\","
	    "\"source\":\"x\"}", 400, "kind: required");
	assert_refused(e, "POST", SV "/schemas", "{\"kind\":\"openapi_v2\","
	    "\"name\":\"n\",\"source\":\"x\"}", 400,
	    "kind: 'openapi_v2' is not supported");
	assert_refused(e, "POST", SV "/schemas", "{\"kind\":\"openapi_v3\","
	    "\"source\":\"x\"}", 400, "name: required");
	assert_refused(e, "POST", SV "/schemas", "{\"kind\":\"openapi_v3\","
	    "\"name\":\"\",\"source\":\"x\"}", 400, "name: must be non-empty");
	assert_refused(e, "POST", SV "/schemas", "{\"kind\":\"openapi_v3\","
	    "\"name\":\"n\"}", 400, "source: required");
	assert_refused(e, "POST", SV "/schemas", "{\"kind\":\"openapi_v3\","
	    "\"name\":\"n\",\"source\":{\"openapi\":\"3.0.0\"}}", 400,
	    "source: must be a string");
	body = upload_body("n", pets_json, 0);
	/* validation_enabled as the classic form's string: refused here. */
	mp = strstr(body, "false");
	assert_non_null(mp);
	memcpy(mp, "\"no\" ", 5);
	assert_refused(e, "POST", SV "/schemas", body, 400,
	    "validation_enabled: must be true or false, not a string");
	free(body);

	/* The same upload_details as the classic upload of the same text. */
	body = upload_body("bad", bad_paths, 0);
	http_json(e, "POST", SV "/schemas", body, &r);
	assert_int_equal(r.status, 400);
	assert_envelope(&r);
	assert_non_null(strstr(str(cJSON_GetArrayItem(get(r.json, "errors"),
	    0), "message"), "not a valid OpenAPI 3 document"));
	n = asprintf(&mp, "--" BOUNDARY "\r\nContent-Disposition: form-data; "
	    "name=\"file\"; filename=\"bad.json\"\r\n\r\n%s\r\n--" BOUNDARY
	    "\r\nContent-Disposition: form-data; name=\"kind\"\r\n\r\n"
	    "openapi_v3\r\n--" BOUNDARY "--\r\n", bad_paths);
	assert_true(n > 0);
	http_request(e, "POST", GW "/user_schemas",
	    "multipart/form-data; boundary=" BOUNDARY, mp, (size_t)n, NULL,
	    &cr);
	assert_int_equal(cr.status, 400);
	assert_true(cJSON_Compare(get(get(r.json, "result"), "upload_details"),
	    get(get(cr.json, "result"), "upload_details"), 1));
	assert_true(cJSON_Compare(get(r.json, "errors"), get(cr.json,
	    "errors"), 1));
	assert_non_null(strstr(str(cJSON_GetArrayItem(get(get(get(r.json,
	    "result"), "upload_details"), "errors"), 0), "message"),
	    "must start with '/'"));
	http_resp_free(&cr);
	http_resp_free(&r);
	free(mp);
	free(body);

	/* Not JSON or YAML at all: critical. */
	body = upload_body("junk", "{not: [json or yaml", 0);
	http_json(e, "POST", SV "/schemas", body, &r);
	assert_int_equal(r.status, 400);
	assert_int_equal(cJSON_GetArraySize(get(get(get(r.json, "result"),
	    "upload_details"), "critical")), 1);
	http_resp_free(&r);
	free(body);

	/* A multipart body where JSON is wanted. */
	assert_refused(e, "POST", SV "/schemas", NULL, 400, "JSON object");
	http_request(e, "POST", SV "/schemas", "multipart/form-data; boundary="
	    BOUNDARY, "--" BOUNDARY "--\r\n", strlen("--" BOUNDARY "--\r\n"),
	    NULL, &r);
	assert_int_equal(r.status, 415);
	http_resp_free(&r);

	/* The PATCH: a boolean or nothing. */
	assert_refused(e, "PATCH", SV "/schemas/" NO_ID,
	    "{\"validation_enabled\":\"true\"}", 400,
	    "validation_enabled: must be true or false, not a string");
	assert_refused(e, "PATCH", SV "/schemas/" NO_ID,
	    "{\"validation_enabled\":false}", 404, NO_ID);
	assert_refused(e, "PATCH", SV "/schemas/" NO_ID, "7", 400,
	    "JSON object");

	/* Nothing was stored by any refusal. */
	l = list(e, SV "/schemas", &total);
	assert_int_equal(total, 0);
	cJSON_Delete(l);
}

/* ---- zone settings ----------------------------------------------------- */

static void
assert_settings(const cJSON *s, const char *def, const char *override)
{
	const cJSON	*o;

	assert_string_equal(str(s, "validation_default_mitigation_action"),
	    def);
	o = get(s, "validation_override_mitigation_action");
	if (override == NULL)
		assert_true(cJSON_IsNull(o));
	else
		assert_string_equal(o->valuestring, override);
}

static void
test_settings(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*s;

	s = api_ok(e, "GET", SV "/settings", NULL);
	assert_settings(s, "none", NULL);
	cJSON_Delete(s);
	s = api_ok(e, "PUT", SV "/settings",
	    "{\"validation_default_mitigation_action\":\"log\","
	    "\"validation_override_mitigation_action\":\"none\"}");
	assert_settings(s, "log", "none");
	cJSON_Delete(s);
	/* The classic settings are the same record. */
	s = api_ok(e, "GET", GW "/settings/schema_validation", NULL);
	assert_settings(s, "log", "none");
	cJSON_Delete(s);
	/* PATCH: what is left out stays; a null override goes. */
	s = api_ok(e, "PATCH", SV "/settings",
	    "{\"validation_default_mitigation_action\":\"block\"}");
	assert_settings(s, "block", "none");
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", SV "/settings",
	    "{\"validation_override_mitigation_action\":null}");
	assert_settings(s, "block", NULL);
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", SV "/settings", "{}");
	assert_settings(s, "block", NULL);
	cJSON_Delete(s);
	/* PUT: an override left out is no override. */
	s = api_ok(e, "PATCH", SV "/settings",
	    "{\"validation_override_mitigation_action\":\"none\"}");
	cJSON_Delete(s);
	s = api_ok(e, "PUT", SV "/settings",
	    "{\"validation_default_mitigation_action\":\"none\"}");
	assert_settings(s, "none", NULL);
	cJSON_Delete(s);

	assert_refused(e, "PUT", SV "/settings",
	    "{\"validation_override_mitigation_action\":\"none\"}", 400,
	    "validation_default_mitigation_action: required");
	assert_refused(e, "PUT", SV "/settings",
	    "{\"validation_default_mitigation_action\":\"warn\"}", 400,
	    "validation_default_mitigation_action: 'warn' is not one of");
	assert_refused(e, "PATCH", SV "/settings",
	    "{\"validation_default_mitigation_action\":null}", 400,
	    "validation_default_mitigation_action: must be none, log or block");
	assert_refused(e, "PATCH", SV "/settings",
	    "{\"validation_override_mitigation_action\":\"disable_override\"}",
	    400, "validation_override_mitigation_action: disable_override");
	assert_refused(e, "PUT", SV "/settings",
	    "{\"validation_default_mitigation_action\":\"log\","
	    "\"validation_override_mitigation_action\":\"log\"}", 400,
	    "validation_override_mitigation_action: must be \"none\" or null");
	assert_refused(e, "PATCH", SV "/settings", "[1]", 400, "JSON object");
	s = api_ok(e, "GET", SV "/settings", NULL);
	assert_settings(s, "none", NULL);
	cJSON_Delete(s);

	/* The classic API's disable_override reads here as no override. */
	s = api_ok(e, "PUT", GW "/settings/schema_validation",
	    "{\"validation_default_mitigation_action\":\"log\","
	    "\"validation_override_mitigation_action\":\"none\"}");
	cJSON_Delete(s);
	s = api_ok(e, "PATCH", GW "/settings/schema_validation",
	    "{\"validation_override_mitigation_action\":\"disable_override\"}");
	cJSON_Delete(s);
	s = api_ok(e, "GET", SV "/settings", NULL);
	assert_settings(s, "log", NULL);
	cJSON_Delete(s);
}

/* ---- per-operation settings -------------------------------------------- */

static void
assert_op_action(const cJSON *o, const char *id, const char *action)
{
	const cJSON	*a = get(o, "mitigation_action");

	assert_string_equal(str(o, "operation_id"), id);
	if (action == NULL)
		assert_true(cJSON_IsNull(a));
	else
		assert_string_equal(a->valuestring, action);
}

static void
test_op_settings(void **state)
{
	struct edgemu	*e = *state;
	char		*a, *b, *c, *pa, *pb, *body, *cpa;
	cJSON		*o, *l;
	long		 total;

	a = create_op(e, "/a");
	b = create_op(e, "/b");
	c = create_op(e, "/c");
	pa = itest_printf(SV "/settings/operations/%s", a);
	pb = itest_printf(SV "/settings/operations/%s", b);
	cpa = itest_printf(GW "/operations/%s/schema_validation", a);

	l = list(e, SV "/settings/operations", &total);
	assert_int_equal(total, 0);
	cJSON_Delete(l);
	o = api_ok(e, "GET", pa, NULL);
	assert_op_action(o, a, NULL);
	cJSON_Delete(o);

	o = api_ok(e, "PUT", pa, "{\"mitigation_action\":\"block\"}");
	assert_op_action(o, a, "block");
	cJSON_Delete(o);
	o = api_ok(e, "GET", pa, NULL);
	assert_op_action(o, a, "block");
	cJSON_Delete(o);
	/* The classic per-operation call sees the same setting... */
	o = api_ok(e, "GET", cpa, NULL);
	assert_string_equal(str(o, "mitigation_action"), "block");
	cJSON_Delete(o);
	/* ...and what it sets is seen here. */
	o = api_ok(e, "PUT", cpa, "{\"mitigation_action\":\"log\"}");
	cJSON_Delete(o);
	o = api_ok(e, "GET", pa, NULL);
	assert_op_action(o, a, "log");
	cJSON_Delete(o);

	/* Bulk: the map, null clearing; the answer is the same map. */
	body = itest_printf("{\"%s\":{\"mitigation_action\":null},"
	    "\"%s\":{\"mitigation_action\":\"block\"},"
	    "\"%s\":{\"mitigation_action\":\"none\"}}", a, b, c);
	o = api_ok(e, "PATCH", SV "/settings/operations", body);
	assert_true(cJSON_IsNull(get(get(o, a), "mitigation_action")));
	assert_string_equal(str(get(o, b), "mitigation_action"), "block");
	assert_string_equal(str(get(o, c), "mitigation_action"), "none");
	cJSON_Delete(o);
	free(body);
	l = list(e, SV "/settings/operations", &total);
	assert_int_equal(total, 2);
	assert_op_action(cJSON_GetArrayItem(l, 0), b, "block");
	assert_op_action(cJSON_GetArrayItem(l, 1), c, "none");
	cJSON_Delete(l);
	l = list(e, SV "/settings/operations?per_page=5&page=2", &total);
	assert_int_equal(cJSON_GetArraySize(l), 0);
	assert_int_equal(total, 2);
	cJSON_Delete(l);

	/* A bulk call naming an unknown operation changes nothing. */
	body = itest_printf("{\"%s\":{\"mitigation_action\":\"log\"},"
	    "\"" NO_ID "\":{\"mitigation_action\":\"log\"}}", b);
	assert_refused(e, "PATCH", SV "/settings/operations", body, 404,
	    NO_ID);
	free(body);
	o = api_ok(e, "GET", pb, NULL);
	assert_op_action(o, b, "block");
	cJSON_Delete(o);
	body = itest_printf("{\"%s\":{\"mitigation_action\":\"warn\"}}", b);
	assert_refused(e, "PATCH", SV "/settings/operations", body, 400,
	    "mitigation_action: 'warn' is not one of");
	free(body);
	body = itest_printf("{\"%s\":{}}", b);
	assert_refused(e, "PATCH", SV "/settings/operations", body, 400,
	    "mitigation_action: required");
	free(body);
	assert_refused(e, "PATCH", SV "/settings/operations",
	    "{\"pets\":{\"mitigation_action\":\"log\"}}", 400,
	    "not an operation id");
	assert_refused(e, "PATCH", SV "/settings/operations", "[]", 400,
	    "JSON object");

	/* PUT: the action is required, null clears. */
	assert_refused(e, "PUT", pb, "{}", 400, "mitigation_action: required");
	assert_refused(e, "PUT", pb, "{\"mitigation_action\":7}", 400,
	    "mitigation_action: must be log, block, none or null, "
	    "not a number");
	o = api_ok(e, "PUT", pb, "{\"mitigation_action\":null}");
	assert_op_action(o, b, NULL);
	cJSON_Delete(o);

	/* DELETE: the operation falls back to the default. */
	o = api_ok(e, "DELETE", pb, NULL);
	assert_string_equal(str(o, "operation_id"), b);
	assert_null(cJSON_GetObjectItem(o, "mitigation_action"));
	cJSON_Delete(o);
	l = list(e, SV "/settings/operations", &total);
	assert_int_equal(total, 1);
	cJSON_Delete(l);

	assert_refused(e, "GET", SV "/settings/operations/" NO_ID, NULL, 404,
	    NO_ID);
	assert_refused(e, "PUT", SV "/settings/operations/" NO_ID,
	    "{\"mitigation_action\":\"log\"}", 404, NO_ID);
	assert_refused(e, "DELETE", SV "/settings/operations/" NO_ID, NULL,
	    404, NO_ID);
	assert_refused(e, "GET", SV "/settings/operations/pets", NULL, 400,
	    "identifier");
	assert_refused(e, "GET", SV "/settings/operations?per_page=0", NULL,
	    400, "per_page");
	free(a);
	free(b);
	free(c);
	free(pa);
	free(pb);
	free(cpa);
}

/* ---- the current API switched off -------------------------------------- */

static int
fixture_no_sv(void **state)
{
	struct edgemu	*e = calloc(1, sizeof *e);

	if (e == NULL)
		abort();
	edgemu_start(e, NULL, 0, "--no-schema-validation-api", NULL);
	*state = e;
	return (0);
}

static void
test_api_off(void **state)
{
	struct edgemu	*e = *state;
	char		*id, *body, *path;
	cJSON		*s;

	assert_refused(e, "GET", SV "/schemas", NULL, 404, "No route");
	body = upload_body("n", pets_json, 0);
	assert_refused(e, "POST", SV "/schemas", body, 404, "No route");
	free(body);
	assert_refused(e, "GET", SV "/settings", NULL, 404, "No route");
	assert_refused(e, "PATCH", SV "/settings/operations", "{}", 404,
	    "No route");
	/* The classic API works as ever. */
	id = upload_classic(e, pets_json);
	path = itest_printf(SV "/schemas/%s", id);
	assert_refused(e, "GET", path, NULL, 404, "No route");
	assert_refused(e, "DELETE", path, NULL, 404, "No route");
	free(path);
	path = itest_printf(GW "/user_schemas/%s", id);
	s = api_ok(e, "GET", path, NULL);
	cJSON_Delete(s);
	free(path);
	free(id);
}

/*
 * Schema Validation takes OpenAPI 3.0.x documents: 3.1 is not supported
 * (the docs), on this API as on the classic one.
 */
static void
test_schema_openapi_31(void **state)
{
	struct edgemu	*e = *state;
	char		*body, *doc;

	doc = strdup(pets_json);
	memcpy(strstr(doc, "3.0.3"), "3.1.0", 5);
	body = upload_body("pets", doc, 0);
	assert_refused(e, "POST", SV "/schemas", body, 400, "openapi: 3.1.0 "
	    "is not supported: Schema Validation takes OpenAPI 3.0.x "
	    "documents");
	free(body);
	body = upload_body("pets", pets_json, 0);
	cJSON_Delete(api_ok(e, "POST", SV "/schemas", body));
	free(body);
	/* 3.0 without its patch number is no version. */
	memcpy(strstr(doc, "\"3.1.0\""), "\"3.0\"  ", 7);
	body = upload_body("pets", doc, 0);
	assert_refused(e, "POST", SV "/schemas", body, 400, "openapi: '3.0' "
	    "is not a supported version (3.0.x");
	free(body);
	free(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_schema_cross_path,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_schema_get_omit_source,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_schema_list,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_schema_refused,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_schema_openapi_31,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_settings,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_op_settings,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_api_off, fixture_no_sv,
		    edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
