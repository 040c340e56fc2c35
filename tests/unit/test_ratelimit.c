/*
 * Unit tests for the legacy rate limits: every rule of ratelimit_validate at
 * its edge and past it, the rule as stored (defaults, unknown fields, tags),
 * and the handlers called in process against a scratch store, which is how
 * a failing store (500, never a crash) and thousands of rules are reached.
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

#include "apirules.h"
#include "buf.h"
#include "ratelimit.h"
#include "routetest.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

extern const struct area ratelimit_area;

#define ZONE_A	"0123456789abcdef0123456789abcdef"
#define ZONE_B	"fedcba9876543210fedcba9876543210"

/* A rule that uses every field, in ban mode. */
static const char base_rule[] =
	"{\"description\":\"Login guard\",\"disabled\":false,"
	"\"match\":{\"request\":{\"methods\":[\"POST\",\"PUT\"],"
	"\"schemes\":[\"HTTPS\"],\"url\":\"example.com/login*\"},"
	"\"response\":{\"origin_traffic\":false},"
	"\"headers\":[{\"name\":\"Cf-Cache-Status\",\"op\":\"ne\","
	"\"value\":\"HIT\"}]},"
	"\"bypass\":[{\"name\":\"url\",\"value\":\"example.com/login/sso*\"}],"
	"\"threshold\":10,\"period\":60,"
	"\"action\":{\"mode\":\"ban\",\"timeout\":600,\"response\":{"
	"\"content_type\":\"application/json\",\"body\":\"{}\"}}}";

static const char minimal_rule[] =
	"{\"match\":{\"request\":{\"url\":\"*\"}},\"threshold\":1,"
	"\"period\":10,\"action\":{\"mode\":\"challenge\"}}";

/* ---- helpers for the checks ------------------------------------------- */

static cJSON *
parse(const char *json)
{
	cJSON	*v = cJSON_Parse(json);

	if (v == NULL)
		fail_msg("test JSON does not parse: %s", json);
	return (v);
}

/* The object that holds the last part of a dotted path, made as needed. */
static cJSON *
walk(cJSON *rule, const char *path, char *last, size_t lastsize)
{
	char	*copy = xstrdup(path), *p = copy, *dot;
	cJSON	*o = rule, *next;

	while ((dot = strchr(p, '.')) != NULL) {
		*dot = '\0';
		next = cJSON_GetObjectItemCaseSensitive(o, p);
		if (next == NULL)
			next = cJSON_AddObjectToObject(o, p);
		o = next;
		p = dot + 1;
	}
	snprintf(last, lastsize, "%s", p);
	free(copy);
	return (o);
}

/* Set path (a.b.c) to a JSON value given as text. */
static cJSON *
set(cJSON *rule, const char *path, const char *json)
{
	char	 last[64];
	cJSON	*o = walk(rule, path, last, sizeof last);

	cJSON_DeleteItemFromObjectCaseSensitive(o, last);
	cJSON_AddItemToObject(o, last, parse(json));
	return (rule);
}

static cJSON *
del(cJSON *rule, const char *path)
{
	char	 last[64];
	cJSON	*o = walk(rule, path, last, sizeof last);

	cJSON_DeleteItemFromObjectCaseSensitive(o, last);
	return (rule);
}

/* A string value of n copies of unit, as JSON text. */
static char *
repeat(const char *unit, size_t n)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	buf_addc(&b, '"');
	for (i = 0; i < n; i++)
		buf_adds(&b, unit);
	buf_addc(&b, '"');
	return (buf_detach(&b, NULL));
}

static void
accepted_at(cJSON *rule, int line)
{
	char	*cause = NULL, *text = util_jprint(rule);

	if (ratelimit_validate(rule, &cause) != 0)
		fail_msg("line %d: refused (%s): %.300s", line, cause, text);
	free(text);
	cJSON_Delete(rule);
}

/* Refused, and the message starts with want (which names the field). */
static void
refused_at(cJSON *rule, const char *want, int line)
{
	char	*cause = NULL, *text = util_jprint(rule);

	if (ratelimit_validate(rule, &cause) == 0)
		fail_msg("line %d: accepted: %.300s", line, text);
	if (cause == NULL || strncmp(cause, want, strlen(want)) != 0)
		fail_msg("line %d: message '%s' does not start with '%s'", line,
		    cause != NULL ? cause : "(none)", want);
	free(cause);
	free(text);
	cJSON_Delete(rule);
}

#define ACCEPTED(r)	accepted_at((r), __LINE__)
#define REFUSED(r, w)	refused_at((r), (w), __LINE__)
#define BASE()		parse(base_rule)
#define MINIMAL()	parse(minimal_rule)

/* ---- validation ------------------------------------------------------- */

static void
test_valid_rules(void **state)
{
	(void)state;
	ACCEPTED(BASE());
	ACCEPTED(MINIMAL());
	/* null stands for absent in optional fields. */
	ACCEPTED(set(set(set(MINIMAL(), "description", "null"), "bypass",
	    "null"), "action.timeout", "null"));
}

static void
test_body_not_object(void **state)
{
	(void)state;
	REFUSED(parse("[]"), "the body must be a JSON object, not an array");
	REFUSED(parse("\"rule\""), "the body must be a JSON object");
	REFUSED(parse("null"), "the body must be a JSON object, not null");
	REFUSED(parse("{}"), "match: required");
}

static void
test_required(void **state)
{
	(void)state;
	REFUSED(del(BASE(), "match"), "match: required");
	REFUSED(del(BASE(), "match.request"), "match.request: required");
	REFUSED(del(BASE(), "match.request.url"),
	    "match.request.url: required");
	REFUSED(del(BASE(), "threshold"), "threshold: required");
	REFUSED(del(BASE(), "period"), "period: required");
	REFUSED(del(BASE(), "action"), "action: required");
	REFUSED(del(BASE(), "action.mode"), "action.mode: required");
	REFUSED(set(BASE(), "threshold", "null"), "threshold: required");
	REFUSED(set(BASE(), "match", "\"*\""),
	    "match: must be an object, not a string");
	REFUSED(set(BASE(), "match.request", "[]"),
	    "match.request: must be an object, not an array");
	REFUSED(set(BASE(), "action", "\"ban\""),
	    "action: must be an object, not a string");
}

static void
test_threshold(void **state)
{
	(void)state;
	ACCEPTED(set(BASE(), "threshold", "1"));
	ACCEPTED(set(BASE(), "threshold", "1000000"));
	REFUSED(set(BASE(), "threshold", "0"),
	    "threshold: 0 is out of range (1 to 1000000)");
	REFUSED(set(BASE(), "threshold", "-3"),
	    "threshold: -3 is out of range");
	REFUSED(set(BASE(), "threshold", "1000001"),
	    "threshold: 1000001 is out of range");
	REFUSED(set(BASE(), "threshold", "1.5"),
	    "threshold: must be an integer, not 1.5");
	REFUSED(set(BASE(), "threshold", "\"10\""),
	    "threshold: must be an integer, not a string");
	REFUSED(set(BASE(), "threshold", "true"),
	    "threshold: must be an integer, not a boolean");
	REFUSED(set(BASE(), "threshold", "1e300"),
	    "threshold: 1e+300 is out of range");
}

static void
test_period(void **state)
{
	(void)state;
	ACCEPTED(set(set(BASE(), "period", "10"), "action.timeout", "10"));
	ACCEPTED(set(set(BASE(), "period", "86400"), "action.timeout",
	    "86400"));
	REFUSED(set(BASE(), "period", "9"),
	    "period: 9 is out of range (10 to 86400)");
	REFUSED(set(BASE(), "period", "5"),
	    "period: 5 is out of range (10 to 86400)");
	REFUSED(set(BASE(), "period", "86401"),
	    "period: 86401 is out of range (10 to 86400)");
	REFUSED(set(BASE(), "period", "60.5"),
	    "period: must be an integer, not 60.5");
	REFUSED(set(BASE(), "period", "\"60\""),
	    "period: must be an integer, not a string");
	REFUSED(set(BASE(), "period", "[60]"),
	    "period: must be an integer, not an array");
}

static void
test_timeout(void **state)
{
	(void)state;
	/* base period is 60 */
	ACCEPTED(set(BASE(), "action.timeout", "60"));
	ACCEPTED(set(BASE(), "action.timeout", "86400"));
	REFUSED(set(BASE(), "action.timeout", "59"),
	    "action.timeout: 59 is less than the period (60)");
	REFUSED(set(BASE(), "action.timeout", "86401"),
	    "action.timeout: 86401 is out of range (1 to 86400)");
	REFUSED(set(BASE(), "action.timeout", "0"),
	    "action.timeout: 0 is out of range (1 to 86400)");
	REFUSED(set(BASE(), "action.timeout", "60.5"),
	    "action.timeout: must be an integer, not 60.5");
	REFUSED(set(BASE(), "action.timeout", "\"600\""),
	    "action.timeout: must be an integer, not a string");
	/* ban and simulate need one; the challenge modes must not have one. */
	REFUSED(del(BASE(), "action.timeout"), "action.timeout: required");
	REFUSED(set(del(BASE(), "action.timeout"), "action.mode",
	    "\"simulate\""), "action.timeout: required");
	REFUSED(set(MINIMAL(), "action.timeout", "60"),
	    "action.timeout: must be left out when action.mode is challenge");
	REFUSED(set(set(MINIMAL(), "action.mode", "\"js_challenge\""),
	    "action.timeout", "60"), "action.timeout: must be left out");
	REFUSED(set(set(MINIMAL(), "action.mode", "\"managed_challenge\""),
	    "action.timeout", "60"), "action.timeout: must be left out");
}

static void
test_modes(void **state)
{
	(void)state;
	ACCEPTED(set(BASE(), "action.mode", "\"ban\""));
	ACCEPTED(set(BASE(), "action.mode", "\"simulate\""));
	ACCEPTED(set(MINIMAL(), "action.mode", "\"challenge\""));
	ACCEPTED(set(MINIMAL(), "action.mode", "\"js_challenge\""));
	ACCEPTED(set(MINIMAL(), "action.mode", "\"managed_challenge\""));
	REFUSED(set(BASE(), "action.mode", "\"block\""),
	    "action.mode: 'block' is not one of simulate, ban, challenge, "
	    "js_challenge, managed_challenge");
	REFUSED(set(BASE(), "action.mode", "\"BAN\""),
	    "action.mode: 'BAN' is not one of");
	REFUSED(set(BASE(), "action.mode", "1"),
	    "action.mode: must be one of simulate, ban, challenge, "
	    "js_challenge, managed_challenge, not a number");
}

static void
test_response(void **state)
{
	char	*s;

	(void)state;
	ACCEPTED(set(BASE(), "action.response.content_type",
	    "\"text/plain\""));
	ACCEPTED(set(BASE(), "action.response.content_type", "\"text/xml\""));
	ACCEPTED(set(BASE(), "action.response.content_type",
	    "\"application/json\""));
	ACCEPTED(set(set(BASE(), "action.mode", "\"simulate\""),
	    "action.response.content_type", "\"text/xml\""));
	ACCEPTED(del(BASE(), "action.response"));
	ACCEPTED(set(BASE(), "action.response.body", "\"\""));
	REFUSED(set(BASE(), "action.response.content_type", "\"text/html\""),
	    "action.response.content_type: 'text/html' is not one of "
	    "text/plain, text/xml, application/json");
	REFUSED(del(BASE(), "action.response.content_type"),
	    "action.response.content_type: required");
	REFUSED(del(BASE(), "action.response.body"),
	    "action.response.body: required");
	REFUSED(set(BASE(), "action.response.body", "42"),
	    "action.response.body: must be a string, not a number");
	REFUSED(set(BASE(), "action.response", "\"busy\""),
	    "action.response: must be an object, not a string");

	s = repeat("x", 10240);
	ACCEPTED(set(BASE(), "action.response.body", s));
	free(s);
	s = repeat("x", 10241);
	REFUSED(set(BASE(), "action.response.body", s),
	    "action.response.body: 10241 characters is over the limit of "
	    "10240");
	free(s);
	/* Characters, not bytes: 10240 two-byte characters fit. */
	s = repeat("\xc3\xa9", 10240);
	ACCEPTED(set(BASE(), "action.response.body", s));
	free(s);

	/* The challenge modes serve the zone's challenge page instead. */
	REFUSED(set(MINIMAL(), "action.response", "{\"content_type\":"
	    "\"text/plain\",\"body\":\"slow down\"}"),
	    "action.response: must be left out when action.mode is challenge");
	REFUSED(set(set(MINIMAL(), "action.mode", "\"managed_challenge\""),
	    "action.response", "{\"content_type\":\"text/plain\","
	    "\"body\":\"x\"}"), "action.response: must be left out");
}

static void
test_methods(void **state)
{
	static const char *const ok[] = {
		"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "_ALL_"
	};
	char	*v;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(ok); i++) {
		v = xprintf("[\"%s\"]", ok[i]);
		ACCEPTED(set(BASE(), "match.request.methods", v));
		free(v);
	}
	ACCEPTED(set(BASE(), "match.request.methods", "[\"GET\",\"POST\","
	    "\"PUT\",\"DELETE\",\"PATCH\",\"HEAD\"]"));
	ACCEPTED(del(BASE(), "match.request.methods"));
	REFUSED(set(BASE(), "match.request.methods", "[\"get\"]"),
	    "match.request.methods[0]: 'get' is not one of GET, POST, PUT, "
	    "DELETE, PATCH, HEAD, _ALL_");
	REFUSED(set(BASE(), "match.request.methods",
	    "[\"GET\",\"POST\",\"OPTIONS\"]"),
	    "match.request.methods[2]: 'OPTIONS' is not one of");
	REFUSED(set(BASE(), "match.request.methods", "[\"GET\",7]"),
	    "match.request.methods[1]: must be one of GET");
	REFUSED(set(BASE(), "match.request.methods", "\"GET\""),
	    "match.request.methods: must be an array, not a string");
	REFUSED(set(BASE(), "match.request.methods", "[]"),
	    "match.request.methods: must not be empty");
}

static void
test_schemes(void **state)
{
	(void)state;
	ACCEPTED(set(BASE(), "match.request.schemes", "[\"HTTP\"]"));
	ACCEPTED(set(BASE(), "match.request.schemes", "[\"HTTPS\"]"));
	ACCEPTED(set(BASE(), "match.request.schemes", "[\"HTTP\",\"HTTPS\"]"));
	ACCEPTED(set(BASE(), "match.request.schemes", "[\"_ALL_\"]"));
	ACCEPTED(del(BASE(), "match.request.schemes"));
	REFUSED(set(BASE(), "match.request.schemes", "[\"https\"]"),
	    "match.request.schemes[0]: 'https' is not one of HTTP, HTTPS, "
	    "_ALL_");
	REFUSED(set(BASE(), "match.request.schemes", "[\"HTTP\",\"FTP\"]"),
	    "match.request.schemes[1]: 'FTP' is not one of");
	REFUSED(set(BASE(), "match.request.schemes", "{}"),
	    "match.request.schemes: must be an array, not an object");
	REFUSED(set(BASE(), "match.request.schemes", "[]"),
	    "match.request.schemes: must not be empty");
}

static void
test_url(void **state)
{
	char	*s;

	(void)state;
	ACCEPTED(set(BASE(), "match.request.url", "\"*\""));
	REFUSED(set(BASE(), "match.request.url", "\"\""),
	    "match.request.url: must not be empty");
	REFUSED(set(BASE(), "match.request.url", "[\"a\"]"),
	    "match.request.url: must be a string, not an array");
	s = repeat("u", 1024);
	ACCEPTED(set(BASE(), "match.request.url", s));
	free(s);
	s = repeat("u", 1025);
	REFUSED(set(BASE(), "match.request.url", s),
	    "match.request.url: 1025 characters is over the limit of 1024");
	free(s);
}

static void
test_headers(void **state)
{
	(void)state;
	ACCEPTED(set(BASE(), "match.headers",
	    "[{\"name\":\"X-A\",\"op\":\"eq\",\"value\":\"1\"},"
	    "{\"name\":\"X-B\",\"op\":\"ne\",\"value\":\"\"}]"));
	ACCEPTED(set(BASE(), "match.headers", "[]"));
	ACCEPTED(del(BASE(), "match.headers"));
	REFUSED(set(BASE(), "match.headers",
	    "[{\"name\":\"X-A\",\"op\":\"contains\",\"value\":\"1\"}]"),
	    "match.headers[0].op: 'contains' is not one of eq, ne");
	REFUSED(set(BASE(), "match.headers",
	    "[{\"name\":\"X-A\",\"op\":\"eq\",\"value\":\"1\"},"
	    "{\"name\":\"X-B\",\"op\":\"EQ\",\"value\":\"1\"}]"),
	    "match.headers[1].op: 'EQ' is not one of");
	REFUSED(set(BASE(), "match.headers",
	    "[{\"name\":\"X-A\",\"value\":\"1\"}]"),
	    "match.headers[0].op: required");
	REFUSED(set(BASE(), "match.headers",
	    "[{\"op\":\"eq\",\"value\":\"1\"}]"),
	    "match.headers[0].name: required");
	REFUSED(set(BASE(), "match.headers",
	    "[{\"name\":\"\",\"op\":\"eq\",\"value\":\"1\"}]"),
	    "match.headers[0].name: must not be empty");
	REFUSED(set(BASE(), "match.headers",
	    "[{\"name\":\"X-A\",\"op\":\"eq\"}]"),
	    "match.headers[0].value: required");
	REFUSED(set(BASE(), "match.headers",
	    "[{\"name\":\"X-A\",\"op\":\"eq\",\"value\":1}]"),
	    "match.headers[0].value: must be a string, not a number");
	REFUSED(set(BASE(), "match.headers", "[\"X-A: 1\"]"),
	    "match.headers[0]: must be an object, not a string");
	REFUSED(set(BASE(), "match.headers", "{}"),
	    "match.headers: must be an array, not an object");
}

static void
test_origin_traffic(void **state)
{
	(void)state;
	ACCEPTED(set(BASE(), "match.response.origin_traffic", "true"));
	ACCEPTED(set(BASE(), "match.response", "{}"));
	ACCEPTED(del(BASE(), "match.response"));
	REFUSED(set(BASE(), "match.response.origin_traffic", "\"yes\""),
	    "match.response.origin_traffic: must be a boolean, not a string");
	REFUSED(set(BASE(), "match.response", "true"),
	    "match.response: must be an object, not a boolean");
}

static void
test_bypass(void **state)
{
	char	*s;

	(void)state;
	ACCEPTED(set(BASE(), "bypass", "[]"));
	ACCEPTED(set(BASE(), "bypass", "[{\"name\":\"url\",\"value\":\"a/*\"},"
	    "{\"name\":\"url\",\"value\":\"b/*\"}]"));
	REFUSED(set(BASE(), "bypass", "[{\"name\":\"host\",\"value\":\"a\"}]"),
	    "bypass[0].name: 'host' is not one of url");
	REFUSED(set(BASE(), "bypass", "[{\"name\":\"url\",\"value\":\"a\"},"
	    "{\"name\":\"URL\",\"value\":\"b\"}]"),
	    "bypass[1].name: 'URL' is not one of url");
	REFUSED(set(BASE(), "bypass", "[{\"value\":\"a\"}]"),
	    "bypass[0].name: required");
	REFUSED(set(BASE(), "bypass", "[{\"name\":\"url\"}]"),
	    "bypass[0].value: required");
	REFUSED(set(BASE(), "bypass", "[{\"name\":\"url\",\"value\":3}]"),
	    "bypass[0].value: must be a string, not a number");
	REFUSED(set(BASE(), "bypass", "[\"example.com/*\"]"),
	    "bypass[0]: must be an object, not a string");
	REFUSED(set(BASE(), "bypass", "{\"name\":\"url\"}"),
	    "bypass: must be an array, not an object");
	/* A long value is quoted only in part, and never cut mid-character. */
	{
		char	*name = repeat("\xc3\xa9", 72), *cause = NULL;
		cJSON	*r;

		s = xprintf("[{\"name\":%s,\"value\":\"a\"}]", name);
		r = set(BASE(), "bypass", s);
		assert_int_equal(ratelimit_validate(r, &cause), -1);
		assert_true(util_utf8_valid(cause, strlen(cause)));
		/* 64 of the 72 two-byte characters are quoted. */
		assert_non_null(strstr(cause, "\xc3\xa9' is not one of url"));
		assert_int_equal(strlen(cause), strlen("bypass[0].name: '' is "
		    "not one of url") + 64 * 2);
		free(cause);
		free(name);
		cJSON_Delete(r);
	}
	free(s);
}

static void
test_description(void **state)
{
	char	*s;

	(void)state;
	ACCEPTED(set(BASE(), "description", "\"\""));
	s = repeat("d", 1024);
	ACCEPTED(set(BASE(), "description", s));
	free(s);
	s = repeat("d", 1025);
	REFUSED(set(BASE(), "description", s),
	    "description: 1025 characters is over the limit of 1024");
	free(s);
	s = repeat("\xe2\x82\xac", 1024);	/* three-byte characters */
	ACCEPTED(set(BASE(), "description", s));
	free(s);
	REFUSED(set(BASE(), "description", "12"),
	    "description: must be a string, not a number");
	REFUSED(set(BASE(), "description", "{}"),
	    "description: must be a string, not an object");
}

static void
test_disabled(void **state)
{
	(void)state;
	ACCEPTED(set(BASE(), "disabled", "true"));
	ACCEPTED(set(BASE(), "disabled", "false"));
	ACCEPTED(del(BASE(), "disabled"));
	REFUSED(set(BASE(), "disabled", "\"true\""),
	    "disabled: must be a boolean, not a string");
	REFUSED(set(BASE(), "disabled", "1"),
	    "disabled: must be a boolean, not a number");
}

/* ---- the rule as stored ----------------------------------------------- */

static void
assert_json_equal(const cJSON *got, const char *want_text)
{
	cJSON	*want = parse(want_text);
	char	*g;

	if (!cJSON_Compare(got, want, 1)) {
		g = util_jprint(got);
		fail_msg("got  %s\nwant %s", g, want_text);
	}
	cJSON_Delete(want);
}

static void
test_normalise_defaults(void **state)
{
	cJSON	*in = MINIMAL(), *out;
	char	*cause = NULL;

	(void)state;
	assert_int_equal(ratelimit_validate(in, &cause), 0);
	out = ratelimit_normalise(in, "00000000000000000000000000000001");
	assert_json_equal(out, "{\"id\":\"00000000000000000000000000000001\","
	    "\"disabled\":false,\"description\":\"\","
	    "\"match\":{\"request\":{\"methods\":[\"_ALL_\"],"
	    "\"schemes\":[\"_ALL_\"],\"url\":\"*\"}},"
	    "\"bypass\":[],\"threshold\":1,\"period\":10,"
	    "\"action\":{\"mode\":\"challenge\"}}");
	cJSON_Delete(out);
	cJSON_Delete(in);

	/* null counts as absent here too. */
	in = set(set(MINIMAL(), "disabled", "null"), "match.request.methods",
	    "null");
	assert_int_equal(ratelimit_validate(in, &cause), 0);
	out = ratelimit_normalise(in, "00000000000000000000000000000002");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(out, "disabled")));
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(out, "match"), "request"),
	    "methods"), 0)->valuestring, "_ALL_");
	cJSON_Delete(out);
	cJSON_Delete(in);
}

/* Every known field kept as sent, every unknown one dropped, tags removed. */
static void
test_normalise_fields(void **state)
{
	cJSON	*in, *out;
	char	*cause = NULL;

	(void)state;
	in = BASE();
	set(in, "id", "\"ffffffffffffffffffffffffffffffff\"");
	set(in, "created_on", "\"2020-01-01T00:00:00Z\"");
	set(in, "match.request.query", "\"a=1\"");
	set(in, "match.response.headers", "[]");
	set(in, "match.extra", "1");
	set(in, "action.extra", "{}");
	set(in, "action.response.charset", "\"utf-8\"");
	set(in, "bypass", "[{\"name\":\"url\",\"value\":\"a/*\",\"x\":1}]");
	set(in, "match.headers", "[{\"name\":\"X-A\",\"op\":\"eq\","
	    "\"value\":\"1\",\"x\":true}]");
	set(in, "description", "\"<b>Login</b> guard <script>x()</script>\"");
	set(in, "disabled", "true");
	assert_int_equal(ratelimit_validate(in, &cause), 0);
	out = ratelimit_normalise(in, "0123456789abcdef0123456789abcdef");
	assert_json_equal(out, "{\"id\":\"0123456789abcdef0123456789abcdef\","
	    "\"disabled\":true,\"description\":\"Login guard x()\","
	    "\"match\":{\"request\":{\"methods\":[\"POST\",\"PUT\"],"
	    "\"schemes\":[\"HTTPS\"],\"url\":\"example.com/login*\"},"
	    "\"response\":{\"origin_traffic\":false},"
	    "\"headers\":[{\"name\":\"X-A\",\"op\":\"eq\",\"value\":\"1\"}]},"
	    "\"bypass\":[{\"name\":\"url\",\"value\":\"a/*\"}],"
	    "\"threshold\":10,\"period\":60,"
	    "\"action\":{\"mode\":\"ban\",\"timeout\":600,\"response\":{"
	    "\"content_type\":\"application/json\",\"body\":\"{}\"}}}");
	cJSON_Delete(out);
	cJSON_Delete(in);
}

/* ---- handlers against a scratch store --------------------------------- */

static const struct area *const routed[] = { &ratelimit_area };

static int
setup(void **state)
{
	*state = routetest_open("ratelimit", routed, nitems(routed));
	return (0);
}

static int
teardown(void **state)
{
	routetest_close(*state);
	return (0);
}

/* Route and run one request in process, as the server would. */
static void
call(struct routetest *f, enum http_method method, const char *path,
    const char *query, const char *body, struct routetest_call *c)
{
	routetest_call(f, method, path, query, body, NULL, c);
}

/* Create a rule; returns its id (caller frees). */
static char *
create(struct routetest *f, const char *zone, const char *body)
{
	struct routetest_call	 c;
	char			*path, *id;

	path = xprintf("/zones/%s/rate_limits", zone);
	call(f, HTTP_POST, path, NULL, body, &c);
	if (c.status != 200)
		fail_msg("create: %u %s", c.status, c.message);
	id = xstrdup(cJSON_GetObjectItem(c.result, "id")->valuestring);
	assert_true(apirules_hex32_ok(id));
	routetest_call_free(&c);
	free(path);
	return (id);
}

/* A miss is a 404 for every verb, in its own zone only, and ends cleanly. */
static void
test_not_found(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			*id, *path, *put;

	id = create(f, ZONE_A, base_rule);
	path = xprintf("/zones/%s/rate_limits/%s", ZONE_B, id);
	put = xprintf("{\"id\":\"%s\",\"match\":{\"request\":{"
	    "\"url\":\"*\"}},\"threshold\":2,\"period\":10,"
	    "\"action\":{\"mode\":\"challenge\"}}", id);
	call(f, HTTP_GET, path, NULL, NULL, &c);
	assert_int_equal(c.status, 404);
	assert_int_equal(c.code, ERR_NOT_FOUND);
	assert_non_null(strstr(c.message, id));
	routetest_call_free(&c);
	call(f, HTTP_PUT, path, NULL, put, &c);
	assert_int_equal(c.status, 404);
	assert_int_equal(c.code, ERR_NOT_FOUND);
	routetest_call_free(&c);
	call(f, HTTP_DELETE, path, NULL, NULL, &c);
	assert_int_equal(c.status, 404);
	assert_int_equal(c.code, ERR_NOT_FOUND);
	routetest_call_free(&c);
	free(path);
	path = xprintf("/zones/%s/rate_limits/%s", ZONE_A, id);
	call(f, HTTP_GET, path, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_int_equal(cJSON_GetObjectItem(c.result, "threshold")->valueint,
	    10);
	routetest_call_free(&c);
	free(put);
	free(path);
	free(id);
}

static void
test_store_write_failure(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			*id, *path, *put;

	id = create(f, ZONE_A, base_rule);
	path = xprintf("/zones/%s/rate_limits/%s", ZONE_A, id);
	put = xprintf("{\"id\":\"%s\",\"match\":{\"request\":{"
	    "\"url\":\"*\"}},\"threshold\":2,\"period\":10,"
	    "\"action\":{\"mode\":\"challenge\"}}", id);
	assert_int_equal(store_exec(f->store,
	    "CREATE TRIGGER no_insert BEFORE INSERT ON ratelimit BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"
	    "CREATE TRIGGER no_update BEFORE UPDATE ON ratelimit BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"
	    "CREATE TRIGGER no_delete BEFORE DELETE ON ratelimit BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"), 0);

	call(f, HTTP_POST, "/zones/" ZONE_A "/rate_limits", NULL, base_rule,
	    &c);
	assert_int_equal(c.status, 500);
	assert_int_equal(c.code, ERR_INTERNAL);
	assert_non_null(strstr(c.message, "disk on fire"));
	assert_null(c.result);
	routetest_call_free(&c);
	call(f, HTTP_PUT, path, NULL, put, &c);
	assert_int_equal(c.status, 500);
	assert_non_null(strstr(c.message, "disk on fire"));
	routetest_call_free(&c);
	call(f, HTTP_DELETE, path, NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	routetest_call_free(&c);

	/* Nothing changed, and the store works again once it can write. */
	assert_int_equal(store_exec(f->store, "DROP TRIGGER no_insert;"
	    "DROP TRIGGER no_update; DROP TRIGGER no_delete;"), 0);
	call(f, HTTP_GET, "/zones/" ZONE_A "/rate_limits", NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_int_equal(c.total_count, 1);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(c.result, 0),
	    "threshold")->valueint, 10);
	routetest_call_free(&c);
	call(f, HTTP_PUT, path, NULL, put, &c);
	assert_int_equal(c.status, 200);
	routetest_call_free(&c);
	call(f, HTTP_DELETE, path, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	routetest_call_free(&c);
	free(put);
	free(path);
	free(id);
}

static void
test_store_read_failure(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			*id, *path;

	id = create(f, ZONE_A, base_rule);
	path = xprintf("/zones/%s/rate_limits/%s", ZONE_A, id);

	/* A stored body that is not JSON any more. */
	assert_int_equal(store_exec(f->store,
	    "UPDATE ratelimit SET body = 'not json'"), 0);
	call(f, HTTP_GET, path, NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	assert_int_equal(c.code, ERR_INTERNAL);
	routetest_call_free(&c);
	call(f, HTTP_GET, "/zones/" ZONE_A "/rate_limits", NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	assert_null(c.result);
	routetest_call_free(&c);

	/* Every statement is prepared before the table goes from under it. */
	call(f, HTTP_DELETE, "/zones/" ZONE_A "/rate_limits/"
	    "00000000000000000000000000000000", NULL, NULL, &c);
	assert_int_equal(c.status, 404);
	routetest_call_free(&c);
	assert_int_equal(store_exec(f->store, "DROP TABLE ratelimit"), 0);
	call(f, HTTP_GET, path, NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	assert_non_null(strstr(c.message, "ratelimit"));
	routetest_call_free(&c);
	call(f, HTTP_GET, "/zones/" ZONE_A "/rate_limits", NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	routetest_call_free(&c);
	call(f, HTTP_DELETE, path, NULL, NULL, &c);
	assert_int_equal(c.status, 500);
	routetest_call_free(&c);
	free(path);
	free(id);
}

/* Thousands of rules in one zone: counts, order and deep pages hold. */
static void
test_many_rules(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			**ids, *body, *path, *q;
	const cJSON		*item;
	size_t			 i, n = 3000;

	/* Durability is not under test: skip the fsync per commit. */
	assert_int_equal(store_exec(f->store, "PRAGMA synchronous=OFF"), 0);
	ids = xcalloc(n, sizeof *ids);
	for (i = 0; i < n; i++) {
		body = xprintf("{\"description\":\"rule %zu\",\"match\":{"
		    "\"request\":{\"url\":\"example.com/%zu\"}},\"threshold\":"
		    "%zu,\"period\":10,\"action\":{\"mode\":\"challenge\"}}",
		    i, i, i + 1);
		ids[i] = create(f, i % 2 == 0 ? ZONE_A : ZONE_B, body);
		free(body);
	}
	call(f, HTTP_GET, "/zones/" ZONE_A "/rate_limits", "per_page=1000",
	    NULL, &c);
	assert_int_equal(c.total_count, n / 2);
	assert_int_equal(cJSON_GetArraySize(c.result), 1000);
	i = 0;
	cJSON_ArrayForEach(item, c.result) {
		assert_string_equal(cJSON_GetObjectItem(item,
		    "id")->valuestring, ids[2 * i]);
		i++;
	}
	routetest_call_free(&c);
	call(f, HTTP_GET, "/zones/" ZONE_B "/rate_limits",
	    "per_page=5&page=300", NULL, &c);
	assert_int_equal(c.total_count, n / 2);
	assert_int_equal(cJSON_GetArraySize(c.result), 5);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(c.result,
	    4), "id")->valuestring, ids[n - 1]);
	routetest_call_free(&c);
	call(f, HTTP_GET, "/zones/" ZONE_B "/rate_limits",
	    "per_page=5&page=301", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 0);
	routetest_call_free(&c);

	/* Deleting the first moves every page up by one. */
	path = xprintf("/zones/%s/rate_limits/%s", ZONE_A, ids[0]);
	call(f, HTTP_DELETE, path, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	routetest_call_free(&c);
	q = xprintf("per_page=1&page=%zu", n / 2 - 1);
	call(f, HTTP_GET, "/zones/" ZONE_A "/rate_limits", q, NULL, &c);
	assert_int_equal(c.total_count, n / 2 - 1);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(c.result,
	    0), "id")->valuestring, ids[n - 2]);
	routetest_call_free(&c);
	free(q);
	free(path);
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static void
seed_demo(struct routetest *f, const char *zone)
{
	char	*cause = NULL;

	assert_int_equal(store_begin(f->store), 0);
	if (ratelimit_area.demo(f->store, "acct", zone, &cause) != 0)
		fail_msg("demo: %s", cause);
	assert_int_equal(store_commit(f->store), 0);
}

static void
test_demo(void **state)
{
	static const char *const all_modes[] = {
		"simulate", "ban", "challenge", "js_challenge",
		"managed_challenge"
	};
	struct routetest	*f = *state;
	struct routetest_call	 a, b;
	const cJSON		*rule, *action, *match;
	const char		*mode;
	int			 modes = 0, disabled = 0, bypass = 0;
	int			 headers = 0;
	int			 bodies = 0, i;

	seed_demo(f, ZONE_A);
	seed_demo(f, ZONE_B);
	call(f, HTTP_GET, "/zones/" ZONE_A "/rate_limits", NULL, NULL, &a);
	call(f, HTTP_GET, "/zones/" ZONE_B "/rate_limits", NULL, NULL, &b);
	assert_int_equal(a.total_count, 8);
	assert_int_equal(cJSON_GetArraySize(a.result), 8);
	/* Deterministic: the same rules and ids each time it is seeded. */
	assert_true(cJSON_Compare(a.result, b.result, 1));
	cJSON_ArrayForEach(rule, a.result) {
		action = cJSON_GetObjectItem(rule, "action");
		match = cJSON_GetObjectItem(rule, "match");
		mode = cJSON_GetObjectItem(action, "mode")->valuestring;
		for (i = 0; i < (int)nitems(all_modes); i++) {
			if (strcmp(mode, all_modes[i]) == 0)
				modes |= 1 << i;
		}
		disabled += cJSON_IsTrue(cJSON_GetObjectItem(rule, "disabled"));
		bypass += cJSON_GetArraySize(cJSON_GetObjectItem(rule,
		    "bypass")) > 0;
		headers += cJSON_GetObjectItem(match, "headers") != NULL;
		bodies += cJSON_GetObjectItem(action, "response") != NULL;
	}
	assert_int_equal(modes, 0x1f);
	assert_true(disabled >= 1 && disabled < 8);
	assert_true(bypass >= 1);
	assert_true(headers >= 1);
	assert_true(bodies >= 1);
	routetest_call_free(&a);
	routetest_call_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_rules),
		cmocka_unit_test(test_body_not_object),
		cmocka_unit_test(test_required),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_response),
		cmocka_unit_test(test_methods),
		cmocka_unit_test(test_schemes),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_origin_traffic),
		cmocka_unit_test(test_bypass),
		cmocka_unit_test(test_description),
		cmocka_unit_test(test_disabled),
		cmocka_unit_test(test_normalise_defaults),
		cmocka_unit_test(test_normalise_fields),
		cmocka_unit_test_setup_teardown(test_not_found, setup,
		    teardown),
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
