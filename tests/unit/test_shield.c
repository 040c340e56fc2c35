/*
 * Unit tests for API Shield's checks: operation normalisation (method,
 * host, endpoint), the configuration rules, and uploaded OpenAPI sources.
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
#include "shield.h"

/* ---- helpers ----------------------------------------------------------- */

typedef char *(*normalize_fn)(const char *, char **);

static void
assert_normal(normalize_fn fn, const char *in, const char *want)
{
	char	*cause = NULL, *out = fn(in, &cause);

	if (out == NULL)
		fail_msg("'%s' refused: %s", in, cause);
	if (strcmp(out, want) != 0)
		fail_msg("'%s' gave '%s', not '%s'", in, out, want);
	assert_null(cause);
	free(out);
}

/* Refused, with a message that names the field and contains want. */
static void
assert_refused(normalize_fn fn, const char *in, const char *field,
    const char *want)
{
	char	*cause = NULL, *out = fn(in, &cause);

	if (out != NULL)
		fail_msg("'%.40s' accepted as '%.40s'", in, out);
	assert_non_null(cause);
	if (strncmp(cause, field, strlen(field)) != 0 ||
	    strstr(cause, want) == NULL)
		fail_msg("'%.40s': message '%s' lacks '%s' or '%s'", in, cause,
		    field, want);
	free(cause);
}

static char *
repeat(char c, size_t n, const char *prefix)
{
	size_t	 p = strlen(prefix);
	char	*s = malloc(p + n + 1);

	memcpy(s, prefix, p);
	memset(s + p, c, n);
	s[p + n] = '\0';
	return (s);
}

static int
config_ok(const char *json, char **cause)
{
	cJSON	*body = cJSON_Parse(json);
	int	 rc;

	if (body == NULL)
		fail_msg("test body is not JSON: %s", json);
	*cause = NULL;
	rc = shield_validate_config(body, cause);
	cJSON_Delete(body);
	return (rc);
}

static void
assert_config_refused(const char *json, const char *want)
{
	char	*cause;

	if (config_ok(json, &cause) == 0)
		fail_msg("accepted: %s", json);
	if (strstr(cause, want) == NULL)
		fail_msg("message '%s' lacks '%s'", cause, want);
	free(cause);
}

/* ---- methods ----------------------------------------------------------- */

static void
test_method(void **state)
{
	static const char *const all[] = {
		"GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "CONNECT",
		"PATCH", "TRACE"
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		assert_normal(shield_normalize_method, all[i], all[i]);
	assert_normal(shield_normalize_method, "get", "GET");
	assert_normal(shield_normalize_method, "Patch", "PATCH");
	assert_refused(shield_normalize_method, "FETCH", "method:",
	    "is not one of GET, POST");
	assert_refused(shield_normalize_method, "", "method:", "not one of");
	assert_refused(shield_normalize_method, "GET ", "method:",
	    "not one of");
}

/* ---- hosts ------------------------------------------------------------- */

static void
test_host_accepted(void **state)
{
	char	*s;

	(void)state;
	assert_normal(shield_normalize_host, "API.Example.COM",
	    "api.example.com");
	assert_normal(shield_normalize_host, "127.0.0.1", "127.0.0.1");
	assert_normal(shield_normalize_host, "[::1]", "[::1]");
	assert_normal(shield_normalize_host, "[2001:DB8::1]", "[2001:db8::1]");
	assert_normal(shield_normalize_host, "my_host~1.example",
	    "my_host~1.example");
	assert_normal(shield_normalize_host, "xn--bcher-kva.example",
	    "xn--bcher-kva.example");
	assert_normal(shield_normalize_host, "a%2Db.example", "a%2db.example");
	/* 255 characters is the limit, inclusive. */
	s = repeat('a', 255, "");
	assert_normal(shield_normalize_host, s, s);
	free(s);
}

/*
 * The rule is apirules_host_why's (test_apirules); edgemu names the field,
 * and quotes the host where the problem is in it.
 */
static void
test_host_refused(void **state)
{
	char	*s;

	(void)state;
	assert_refused(shield_normalize_host, "", "host:", "empty");
	s = repeat('a', 256, "");
	assert_refused(shield_normalize_host, s, "host:",
	    "256 characters is over the limit of 255");
	free(s);
	assert_refused(shield_normalize_host, "api.example.com:8443",
	    "host: 'api.example.com:8443'", "without a port");
	assert_refused(shield_normalize_host, "[::1", "host: '[::1'",
	    "[IPv6]");
}

/* ---- endpoints --------------------------------------------------------- */

static void
test_endpoint_variables(void **state)
{
	(void)state;
	assert_normal(shield_normalize_endpoint, "/users/{id}",
	    "/users/{var1}");
	assert_normal(shield_normalize_endpoint,
	    "/teams/{team}/members/{member_id}/roles/{r}",
	    "/teams/{var1}/members/{var2}/roles/{var3}");
	/* Renamed in order of appearance, whatever the names were. */
	assert_normal(shield_normalize_endpoint, "/a/{var2}/b/{var1}",
	    "/a/{var1}/b/{var2}");
	assert_normal(shield_normalize_endpoint, "/files/{name}.json",
	    "/files/{var1}.json");
	/* Already normal: unchanged, case included. */
	assert_normal(shield_normalize_endpoint, "/api/v1/Users/{var1}",
	    "/api/v1/Users/{var1}");
	assert_normal(shield_normalize_endpoint, "/", "/");
	assert_normal(shield_normalize_endpoint, "/users/", "/users/");
}

static void
test_endpoint_url_normalisation(void **state)
{
	(void)state;
	assert_normal(shield_normalize_endpoint, "//a///b", "/a/b");
	assert_normal(shield_normalize_endpoint, "/a\\b", "/a/b");
	assert_normal(shield_normalize_endpoint, "/a/./b/../c", "/a/c");
	assert_normal(shield_normalize_endpoint, "/a/b/..", "/a/");
	assert_normal(shield_normalize_endpoint, "/../x", "/x");
	assert_normal(shield_normalize_endpoint, "/%7euser/%41", "/~user/A");
	assert_normal(shield_normalize_endpoint, "/a%2fb%3a", "/a%2Fb%3A");
	assert_normal(shield_normalize_endpoint, "/%2E%2E/x", "/x");
}

/*
 * The rule is apirules_endpoint_why's (test_apirules); edgemu names the
 * field, and quotes an endpoint that does not start with '/'.
 */
static void
test_endpoint_refused(void **state)
{
	char	*s;

	(void)state;
	assert_refused(shield_normalize_endpoint, "users", "endpoint: 'users'",
	    "must start with '/'");
	s = repeat('a', 4096, "/");
	assert_refused(shield_normalize_endpoint, s, "endpoint:",
	    "4097 characters is over the limit of 4096");
	free(s);
	assert_refused(shield_normalize_endpoint, "/a/{id", "endpoint:",
	    "no matching '}'");
	assert_refused(shield_normalize_endpoint, "/a%zz", "endpoint:",
	    "percent-escape");
}

static void
test_endpoint_limit(void **state)
{
	char	*s;

	(void)state;
	/* 4096 characters is allowed, counted in characters, not bytes. */
	s = repeat('a', 4095, "/");
	assert_normal(shield_normalize_endpoint, s, s);
	free(s);
}

/* ---- operation bodies -------------------------------------------------- */

static void
test_op_key(void **state)
{
	struct shield_op_key	 key;
	cJSON			*item;
	char			*cause = NULL;

	(void)state;
	item = cJSON_Parse("{\"method\":\"delete\",\"host\":\"Shop.Example\","
	    "\"endpoint\":\"/carts/{cart}/items/{item}\"}");
	assert_int_equal(shield_op_key_parse(item, &key, &cause), 0);
	assert_string_equal(key.method, "DELETE");
	assert_string_equal(key.host, "shop.example");
	assert_string_equal(key.endpoint, "/carts/{var1}/items/{var2}");
	shield_op_key_free(&key);
	cJSON_Delete(item);

	item = cJSON_Parse("{\"method\":\"GET\",\"endpoint\":\"/x\"}");
	assert_int_equal(shield_op_key_parse(item, &key, &cause), -1);
	assert_non_null(strstr(cause, "host: required"));
	free(cause);
	cJSON_Delete(item);

	item = cJSON_Parse("{\"method\":1,\"host\":\"a\",\"endpoint\":\"/\"}");
	assert_int_equal(shield_op_key_parse(item, &key, &cause), -1);
	assert_string_equal(cause, "method: must be a string, not a number");
	free(cause);
	cJSON_Delete(item);

	item = cJSON_Parse("[1]");
	assert_int_equal(shield_op_key_parse(item, &key, &cause), -1);
	assert_non_null(strstr(cause, "must be an object"));
	free(cause);
	cJSON_Delete(item);
}

/* ---- configuration ----------------------------------------------------- */

static char *
config_of(int n, const char *type)
{
	size_t	 size = 64 + (size_t)n * 64;
	char	*s = malloc(size);
	int	 i, off;

	off = snprintf(s, size, "{\"auth_id_characteristics\":[");
	for (i = 0; i < n; i++)
		off += snprintf(s + off, size - (size_t)off,
		    "%s{\"type\":\"%s\",\"name\":\"h%d\"}", i == 0 ? "" : ",",
		    type, i);
	snprintf(s + off, size - (size_t)off, "]}");
	return (s);
}

static void
test_config(void **state)
{
	char	*body, *cause, *name;

	(void)state;
	body = config_of(10, "header");
	assert_int_equal(config_ok(body, &cause), 0);
	free(body);
	body = config_of(11, "cookie");
	assert_config_refused(body, "at most 10 items");
	free(body);
	assert_int_equal(config_ok("{\"auth_id_characteristics\":[]}",
	    &cause), 0);
	assert_config_refused("{\"auth_id_characteristics\":[{\"type\":"
	    "\"query\",\"name\":\"x\"}]}",
	    "auth_id_characteristics[0].type: must be header, cookie or jwt");
	assert_config_refused("{\"auth_id_characteristics\":[{\"type\":"
	    "\"header\",\"name\":\"a\"},{\"type\":\"cookie\",\"name\":\"\"}]}",
	    "auth_id_characteristics[1].name: required");
	assert_config_refused("{\"auth_id_characteristics\":[{\"type\":"
	    "\"header\"}]}", "auth_id_characteristics[0].name: required");
	assert_config_refused("{\"auth_id_characteristics\":[{\"type\":"
	    "\"header\",\"name\":\"a\"},{\"type\":\"header\",\"name\":\"a\"}]}",
	    "auth_id_characteristics[1]: repeats item 0");
	assert_config_refused("{}", "auth_id_characteristics: required");
	assert_config_refused("[]", "must be a JSON object");

	name = repeat('n', 129, "");
	body = malloc(strlen(name) + 80);
	sprintf(body, "{\"auth_id_characteristics\":[{\"type\":\"cookie\","
	    "\"name\":\"%s\"}]}", name);
	assert_config_refused(body, "129 characters is over the limit of 128");
	free(body);
	free(name);
}

static void
test_config_jwt(void **state)
{
	char	*cause;

	(void)state;
	assert_int_equal(config_ok("{\"auth_id_characteristics\":[{\"type\":"
	    "\"jwt\",\"name\":\"e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:"
	    "$.foo.bar[0].baz\"}]}", &cause), 0);
	assert_int_equal(config_ok("{\"auth_id_characteristics\":[{\"type\":"
	    "\"jwt\",\"name\":\"0123456789abcdef0123456789abcdef:$.sub\"}]}",
	    &cause), 0);
	assert_config_refused("{\"auth_id_characteristics\":[{\"type\":"
	    "\"jwt\",\"name\":\"authorization\"}]}",
	    "TOKEN_CONFIG_ID:$JSONPATH");
	assert_config_refused("{\"auth_id_characteristics\":[{\"type\":"
	    "\"jwt\",\"name\":\"e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:sub\"}]}",
	    "TOKEN_CONFIG_ID:$JSONPATH");
}

/* ---- OpenAPI sources --------------------------------------------------- */

static const char valid_json[] =
	"{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Pets\","
	"\"version\":\"1.0\"},\"servers\":[{\"url\":"
	"\"https://Pets.Example.com/v2/\"}],\"paths\":{"
	"\"/pets\":{\"get\":{},\"post\":{}},"
	"\"/pets/{petId}\":{\"parameters\":[],\"get\":{\"responses\":{}}}}}";

static const char valid_yaml[] =
	"openapi: 3.0.1\n"
	"info:\n"
	"  title: Identity\n"
	"  version: \"2\"\n"
	"servers:\n"
	"  - url: \"{scheme}://auth.example.com\"\n"
	"    variables:\n"
	"      scheme:\n"
	"        default: https\n"
	"paths:\n"
	"  /tokens/{token}:\n"
	"    delete: {}\n";

static cJSON *
load(const char *src, cJSON **failure)
{
	return (shield_openapi_load(src, strlen(src), failure));
}

/* The failure has an event of this code at this location. */
static void
assert_event(const cJSON *failure, const char *list, int code,
    const char *location)
{
	const cJSON	*ev, *loc;

	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(failure, list)) {
		if (cJSON_GetObjectItem(ev, "code")->valueint != code)
			continue;
		assert_true(cJSON_IsString(cJSON_GetObjectItem(ev,
		    "message")));
		if (location == NULL)
			return;
		cJSON_ArrayForEach(loc, cJSON_GetObjectItem(ev, "locations")) {
			if (strcmp(loc->valuestring, location) == 0)
				return;
		}
	}
	fail_msg("no %s event %d at %s in %s", list, code,
	    location != NULL ? location : "(any)",
	    cJSON_PrintUnformatted(failure));
}

static void
test_openapi_valid_json(void **state)
{
	cJSON		*doc, *failure, *warnings, *ops;
	const cJSON	*op;

	(void)state;
	doc = load(valid_json, &failure);
	assert_non_null(doc);
	assert_null(failure);
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	assert_int_equal(cJSON_GetArraySize(warnings), 0);
	assert_int_equal(cJSON_GetArraySize(ops), 3);
	/* Host from the server, lower-cased; its path prefixes endpoints. */
	op = cJSON_GetArrayItem(ops, 0);
	assert_string_equal(cJSON_GetObjectItem(op, "method")->valuestring,
	    "GET");
	assert_string_equal(cJSON_GetObjectItem(op, "host")->valuestring,
	    "pets.example.com");
	assert_string_equal(cJSON_GetObjectItem(op, "endpoint")->valuestring,
	    "/v2/pets");
	op = cJSON_GetArrayItem(ops, 2);
	assert_string_equal(cJSON_GetObjectItem(op, "endpoint")->valuestring,
	    "/v2/pets/{var1}");
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);
}

static void
test_openapi_yaml(void **state)
{
	cJSON	*doc, *failure, *warnings, *ops;

	(void)state;
	doc = load(valid_yaml, &failure);
	if (doc == NULL)
		fail_msg("refused: %s", cJSON_PrintUnformatted(failure));
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	assert_int_equal(cJSON_GetArraySize(ops), 1);
	/* The server variable took its default. */
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "host")->valuestring, "auth.example.com");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "endpoint")->valuestring, "/tokens/{var1}");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "method")->valuestring, "DELETE");
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);
}

static void
test_openapi_version(void **state)
{
	cJSON	*failure;

	(void)state;
	assert_null(load("{\"info\":{\"title\":\"t\",\"version\":\"1\"},"
	    "\"paths\":{}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_VERSION, ".openapi");
	cJSON_Delete(failure);

	assert_null(load("{\"swagger\":\"2.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"paths\":{}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_VERSION, ".swagger");
	cJSON_Delete(failure);

	assert_null(load("{\"openapi\":\"2.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"paths\":{}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_VERSION, ".openapi");
	cJSON_Delete(failure);

	assert_null(load("{\"openapi\":3.0,\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"paths\":{}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_VERSION, ".openapi");
	cJSON_Delete(failure);
}

static void
test_openapi_structure(void **state)
{
	cJSON	*failure;

	(void)state;
	assert_null(load("{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"paths\":{\"pets\":{}}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_PATHS, ".paths[\"pets\"]");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(failure,
	    "critical")), 0);
	cJSON_Delete(failure);

	assert_null(load("{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\"},"
	    "\"paths\":{\"/p\":{\"get\":[]}}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_INFO, ".info.version");
	assert_event(failure, "errors", SHIELD_EV_OPERATION,
	    ".paths[\"/p\"].get");
	cJSON_Delete(failure);

	/* A YAML version of 1.0 is a number: refused, with a hint. */
	assert_null(load("openapi: 3.0.0\ninfo:\n  title: t\n  version: 1.0\n"
	    "paths: {}\n", &failure));
	assert_event(failure, "errors", SHIELD_EV_INFO, ".info.version");
	cJSON_Delete(failure);

	assert_null(load("{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_PATHS, ".paths");
	cJSON_Delete(failure);

	assert_null(load("{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"paths\":{},\"servers\":{}}", &failure));
	assert_event(failure, "errors", SHIELD_EV_SERVERS, ".servers");
	cJSON_Delete(failure);
}

static void
test_openapi_unreadable(void **state)
{
	cJSON	*failure;

	(void)state;
	assert_null(load("{\"openapi\": ", &failure));
	assert_event(failure, "critical", SHIELD_EV_PARSE, NULL);
	cJSON_Delete(failure);
	assert_null(load("a: [1,\nb: }", &failure));
	assert_event(failure, "critical", SHIELD_EV_PARSE, NULL);
	cJSON_Delete(failure);
	assert_null(load("  \n", &failure));
	assert_event(failure, "critical", SHIELD_EV_PARSE, NULL);
	cJSON_Delete(failure);
	assert_null(load("[1, 2]", &failure));
	assert_event(failure, "critical", SHIELD_EV_DOCUMENT, ".");
	cJSON_Delete(failure);
	assert_null(load("just text", &failure));
	assert_event(failure, "critical", SHIELD_EV_DOCUMENT, ".");
	cJSON_Delete(failure);
}

static void
test_openapi_hosts(void **state)
{
	cJSON	*doc, *failure, *warnings, *ops;

	(void)state;
	/* No servers: kept, but no operations, and a warning says why. */
	doc = load("{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"paths\":{\"/a\":{\"get\":{}}}}", &failure);
	assert_non_null(doc);
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	assert_int_equal(cJSON_GetArraySize(ops), 0);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(warnings, 0),
	    "code")->valueint, SHIELD_EV_NO_HOST);
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);

	/*
	 * A relative server is skipped with a warning; two servers on one
	 * host give each operation once.
	 */
	doc = load("{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"servers\":[{\"url\":\"/v1\"},"
	    "{\"url\":\"https://a.example\"},"
	    "{\"url\":\"http://A.example:8080/\"},"
	    "{\"url\":\"https://b.example/x\"}],"
	    "\"paths\":{\"/a\":{\"get\":{},\"put\":{}}}}", &failure);
	assert_non_null(doc);
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	assert_int_equal(cJSON_GetArraySize(warnings), 1);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(warnings, 0),
	    "code")->valueint, SHIELD_EV_SERVER_URL);
	assert_int_equal(cJSON_GetArraySize(ops), 4);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 3),
	    "endpoint")->valuestring, "/x/a");
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);
}

static int
op_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * A large document with an operation described many times over (servers
 * on one host, path parameters under other names): each operation once,
 * in the order first described, however many the document holds.
 */
static void
test_openapi_many_duplicates(void **state)
{
	enum { NPATHS = 3000 };
	struct buf	 b = BUF_INITIALIZER;
	cJSON		*doc, *failure, *warnings, *ops;
	const cJSON	*op;
	char		**keys;
	int		 i, n;

	(void)state;
	buf_adds(&b, "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\","
	    "\"version\":\"1\"},\"servers\":[{\"url\":\"https://a.example\"},"
	    "{\"url\":\"https://b.example\"},{\"url\":\"https://A.EXAMPLE/\"}],"
	    "\"paths\":{");
	for (i = 0; i < NPATHS; i++)
		buf_addf(&b, "%s\"/p%d/{id}\":{\"get\":{},\"post\":{}},"
		    "\"/p%d/{other}\":{\"get\":{}}", i == 0 ? "" : ",", i, i);
	buf_adds(&b, "}}");
	doc = shield_openapi_load(b.data, b.len, &failure);
	assert_non_null(doc);
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	/* Two methods on each endpoint, on two hosts. */
	n = cJSON_GetArraySize(ops);
	assert_int_equal(n, NPATHS * 2 * 2);
	op = cJSON_GetArrayItem(ops, 0);
	assert_string_equal(cJSON_GetObjectItem(op, "host")->valuestring,
	    "a.example");
	assert_string_equal(cJSON_GetObjectItem(op, "endpoint")->valuestring,
	    "/p0/{var1}");
	op = cJSON_GetArrayItem(ops, 1);
	assert_string_equal(cJSON_GetObjectItem(op, "method")->valuestring,
	    "POST");
	op = cJSON_GetArrayItem(ops, NPATHS * 2);
	assert_string_equal(cJSON_GetObjectItem(op, "host")->valuestring,
	    "b.example");
	/* And no two alike. */
	keys = calloc((size_t)n, sizeof *keys);
	assert_non_null(keys);
	i = 0;
	cJSON_ArrayForEach(op, ops) {
		if (asprintf(&keys[i++], "%s %s %s",
		    cJSON_GetObjectItem(op, "method")->valuestring,
		    cJSON_GetObjectItem(op, "host")->valuestring,
		    cJSON_GetObjectItem(op, "endpoint")->valuestring) == -1)
			fail();
	}
	qsort(keys, (size_t)n, sizeof *keys, op_cmp);
	for (i = 1; i < n; i++) {
		if (strcmp(keys[i - 1], keys[i]) == 0)
			fail_msg("%s twice", keys[i]);
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_method),
		cmocka_unit_test(test_host_accepted),
		cmocka_unit_test(test_host_refused),
		cmocka_unit_test(test_endpoint_variables),
		cmocka_unit_test(test_endpoint_url_normalisation),
		cmocka_unit_test(test_endpoint_refused),
		cmocka_unit_test(test_endpoint_limit),
		cmocka_unit_test(test_op_key),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_jwt),
		cmocka_unit_test(test_openapi_valid_json),
		cmocka_unit_test(test_openapi_yaml),
		cmocka_unit_test(test_openapi_version),
		cmocka_unit_test(test_openapi_structure),
		cmocka_unit_test(test_openapi_unreadable),
		cmocka_unit_test(test_openapi_hosts),
		cmocka_unit_test(test_openapi_many_duplicates),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
