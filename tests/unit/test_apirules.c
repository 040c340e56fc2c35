/*
 * Unit tests for the wire rules edgetui and edgemu both apply, kept once
 * in libbase: apirules (ids, hosts, endpoints, URLs, the OpenAPI version
 * Schema Validation takes), shieldrules, streamrules and legacyrl. The
 * programs' own tests check that each calls them and words the refusal
 * its way; the rules themselves are here.
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

#include <cjson/cJSON.h>

#include "apirules.h"
#include "common.h"
#include "legacyrl.h"
#include "shieldrules.h"
#include "streamrules.h"
#include "xmalloc.h"

/* n copies of c after prefix, allocated. */
static char *
repeat(char c, size_t n, const char *prefix)
{
	size_t	 p = strlen(prefix);
	char	*s = xmalloc(p + n + 1);

	memcpy(s, prefix, p);
	memset(s + p, c, n);
	s[p + n] = '\0';
	return (s);
}

/* why is NULL for good, or contains want. */
static void
assert_why(const char *what, const char *why, const char *want)
{
	if (want == NULL && why != NULL)
		fail_msg("'%s' refused: %s", what, why);
	if (want != NULL && (why == NULL || strstr(why, want) == NULL))
		fail_msg("'%s': wanted \"%s\", got \"%s\"", what, want,
		    why != NULL ? why : "(accepted)");
}

/* ---- apirules ---------------------------------------------------------- */

static void
test_ids(void **state)
{
	static const char *const values[] = { "a", "bc", NULL };

	(void)state;
	assert_true(apirules_in(values, "bc"));
	assert_false(apirules_in(values, "b"));
	assert_false(apirules_in(values, "BC"));

	assert_true(apirules_hex32_ok("0123456789abcdef0123456789ABCDEF"));
	assert_false(apirules_hex32_ok("0123456789abcdef0123456789abcde"));
	assert_false(apirules_hex32_ok("0123456789abcdef0123456789abcdef0"));
	assert_false(apirules_hex32_ok("0123456789abcdef0123456789abcdeg"));
	assert_false(apirules_hex32_ok(""));

	assert_true(apirules_uuid_ok("123e4567-e89b-42d3-a456-426614174000"));
	assert_true(apirules_uuid_ok("123E4567-E89B-42D3-A456-426614174000"));
	assert_false(apirules_uuid_ok("123e4567e89b42d3a456426614174000"));
	assert_false(apirules_uuid_ok("123e4567-e89b-42d3-a456-4266141740000"));
	assert_false(apirules_uuid_ok("123e4567-e89b-42d3-a456-42661417400"));
	assert_false(apirules_uuid_ok("123e4567-e89b-42d3-a456_426614174000"));

	assert_true(apirules_jwt_claim_ok(
	    "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub"));
	assert_true(apirules_jwt_claim_ok(
	    "0123456789abcdef0123456789abcdef:$"));
	assert_false(apirules_jwt_claim_ok("sub"));
	assert_false(apirules_jwt_claim_ok(
	    "E0DE1A3A-8C2C-4F90-98D8-CBDF0A3F2CB5:$.sub"));
	assert_false(apirules_jwt_claim_ok(
	    "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:.sub"));
	assert_false(apirules_jwt_claim_ok("short:$.sub"));
}

static void
test_host(void **state)
{
	static const struct {
		const char	*host;
		const char	*want;	/* NULL: good */
	} cases[] = {
		{ "api.example.com", NULL },
		{ "API.Example.COM", NULL },
		{ "127.0.0.1", NULL },
		{ "[::1]", NULL },
		{ "[2001:DB8::1]", NULL },
		{ "my_host~1.example", NULL },
		{ "a%2Db.example", NULL },
		{ "", "must not be empty" },
		{ "api example.com", "has a space: spaces are not allowed in "
		  "a host" },
		{ "caf\xc3\xa9.example", "has byte 0xc3" },
		{ "api.example.com:8443", "has a ':'; give the host without a "
		  "port" },
		{ "api/v1", "has '/', which is not allowed in an RFC 3986 "
		  "host" },
		{ "a@b", "has '@'" },
		{ "bad%zzescape", "has '%'" },
		{ "[::1", "is not a valid [IPv6] address" },
		{ "[not-v6]", "is not a valid [IPv6] address" },
		{ "[]", "is not a valid [IPv6] address" },
	};
	char	 why[APIRULES_WHY_MAX], *s;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++)
		assert_why(cases[i].host, apirules_host_why(cases[i].host, why,
		    sizeof why), cases[i].want);
	/* 255 characters, not bytes, is the limit, inclusive. */
	s = repeat('a', APIRULES_HOST_MAX, "");
	assert_why(s, apirules_host_why(s, why, sizeof why), NULL);
	free(s);
	s = repeat('a', APIRULES_HOST_MAX + 1, "");
	assert_why(s, apirules_host_why(s, why, sizeof why),
	    "256 characters is over the limit of 255");
	free(s);
}

static void
test_endpoint(void **state)
{
	static const struct {
		const char	*endpoint;
		const char	*want;	/* NULL: good */
	} cases[] = {
		{ "/", NULL },
		{ "/users/{id}", NULL },
		{ "/teams/{team}/members/{member_id}", NULL },
		{ "/files/{name}.json", NULL },
		{ "//a\\b/./c/..", NULL },
		{ "/%7euser/%41", NULL },
		{ "users", "must start with '/'" },
		{ "", "must start with '/'" },
		{ "/a/{id", "'{' at byte 3 has no matching '}' in its "
		  "segment" },
		{ "/a/{id/b}", "has no matching '}'" },
		{ "/a/id}", "'}' at byte 5 has no matching '{'" },
		{ "/a/{}", "'{}' at byte 3 names no variable" },
		{ "/a b", "must not contain spaces or control characters" },
		{ "/a\x7f", "must not contain spaces" },
		{ "/a?b=1", "without a query ('?') or fragment ('#')" },
		{ "/a#top", "without a query" },
		{ "/a%zz", "invalid percent-escape at byte 2" },
		{ "/a%4", "invalid percent-escape" },
	};
	char	 why[APIRULES_WHY_MAX], *s;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++)
		assert_why(cases[i].endpoint, apirules_endpoint_why(
		    cases[i].endpoint, why, sizeof why), cases[i].want);
	/* Counted in characters: 4095 two-byte ones after '/' fit. */
	s = xmalloc(1 + 2 * (APIRULES_ENDPOINT_MAX - 1) + 1);
	s[0] = '/';
	for (i = 0; i < APIRULES_ENDPOINT_MAX - 1; i++)
		memcpy(s + 1 + 2 * i, "\xc3\xa9", 2);
	s[1 + 2 * i] = '\0';
	assert_why("4096 characters", apirules_endpoint_why(s, why,
	    sizeof why), NULL);
	free(s);
	s = repeat('a', APIRULES_ENDPOINT_MAX, "/");
	assert_why("4097 characters", apirules_endpoint_why(s, why,
	    sizeof why), "4097 characters is over the limit of 4096");
	free(s);
}

static void
test_url(void **state)
{
	static const struct {
		const char	*url;
		const char	*want;	/* NULL: good */
	} cases[] = {
		{ "https://example.com", NULL },
		{ "https://example.com/hook?x=1#f", NULL },
		{ "HTTPS://Example.COM/Path", NULL },
		{ "http://127.0.0.1:8080/hook", NULL },
		{ "http://[::1]:9000/", NULL },
		{ "http://user:pw@example.com/", NULL },
		{ "https://example.com:65535/", NULL },
		{ "", "must not be empty" },
		{ "example.com/hook", "must be an absolute URL such as "
		  "https://example.com/path" },
		{ "/hook", "must be an absolute URL" },
		{ "ftp://example.com/", "the scheme must be http or https, "
		  "not ftp" },
		{ "javascript:alert(1)", "must be an absolute URL" },
		{ "https://", "must name a host" },
		{ "http:///path", "must name a host" },
		{ "http://user@/path", "must name a host" },
		{ "http://:80/", "must name a host" },
		{ "https://exa mple.com/", "must be ASCII without spaces" },
		{ "https://example.com/\n", "without spaces or control" },
		{ "https://ex\xc3\xa4mple.com/", "must be ASCII" },
		{ "https://example.com:80a/", "has a port that is not a "
		  "number" },
		{ "https://example.com:99999/", "has a port over 65535" },
		{ "https://[::1]:x/", "has a port that is not a number" },
	};
	char	 why[APIRULES_WHY_MAX], *s;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++)
		assert_why(cases[i].url, apirules_url_why(cases[i].url, NULL,
		    why, sizeof why), cases[i].want);
	/* Each field names its own example. */
	assert_why("a.m4a", apirules_url_why("a.m4a",
	    "https://example.com/a.m4a", why, sizeof why),
	    "such as https://example.com/a.m4a");
	/* 2048 bytes is the limit, inclusive. */
	s = repeat('a', APIRULES_URL_MAX - 20, "https://example.com/");
	assert_why("2048 bytes", apirules_url_why(s, NULL, why, sizeof why),
	    NULL);
	free(s);
	s = repeat('a', APIRULES_URL_MAX - 19, "https://example.com/");
	assert_why("2049 bytes", apirules_url_why(s, NULL, why, sizeof why),
	    "2049 bytes is over the limit of 2048");
	free(s);
}

/* ---- shieldrules ------------------------------------------------------- */

static void
test_shield(void **state)
{
	cJSON	*list;

	(void)state;
	/* The methods' text for messages names the list's methods. */
	assert_non_null(strstr(SHIELDRULES_METHODS_TEXT, "GET, POST"));
	assert_true(apirules_in(shieldrules_methods, "TRACE"));
	assert_false(apirules_in(shieldrules_methods, "get"));
	/* saved is a state, but none a client may set. */
	assert_true(apirules_in(shieldrules_disc_states, "saved"));
	assert_false(apirules_in(shieldrules_disc_settable, "saved"));
	assert_true(apirules_in(shieldrules_disc_settable, "ignored"));
	assert_true(apirules_in(shieldrules_op_orders,
	    "thresholds.auth_id_tokens"));
	assert_false(apirules_in(shieldrules_op_orders, "thresholds.x"));
	assert_true(apirules_in(shieldrules_disc_orders,
	    "traffic_stats.requests"));
	assert_string_equal(shieldrules_actions[0], "none");

	list = cJSON_Parse("[{\"type\":\"header\",\"name\":\"a\"},"
	    "{\"type\":\"cookie\",\"name\":\"a\"},"
	    "{\"name\":\"a\",\"type\":\"header\"}]");
	assert_int_equal(shieldrules_repeat(list, cJSON_GetArrayItem(list, 0)),
	    -1);
	assert_int_equal(shieldrules_repeat(list, cJSON_GetArrayItem(list, 1)),
	    -1);
	/* The same members in another order are the same item. */
	assert_int_equal(shieldrules_repeat(list, cJSON_GetArrayItem(list, 2)),
	    0);
	cJSON_Delete(list);
}

/* ---- streamrules ------------------------------------------------------- */

#define DAY_US	(86400 * STREAMRULES_US)

static void
test_stream_windows(void **state)
{
	int64_t	t0 = 1772323200 * STREAMRULES_US;	/* 2026-03-01 */

	(void)state;
	assert_true(streamrules_deletion_ok(t0 + 30 * DAY_US, t0));
	assert_true(streamrules_deletion_ok(t0 + 1096 * DAY_US, t0));
	assert_false(streamrules_deletion_ok(t0 + 30 * DAY_US - 1, t0));
	assert_false(streamrules_deletion_ok(t0 + 1096 * DAY_US + 1, t0));
	assert_false(streamrules_deletion_ok(t0, t0));

	assert_true(streamrules_expiry_ok(t0 + 120 * STREAMRULES_US, t0));
	assert_true(streamrules_expiry_ok(t0 + 6 * 3600 * STREAMRULES_US,
	    t0));
	assert_false(streamrules_expiry_ok(t0 + 120 * STREAMRULES_US - 1,
	    t0));
	assert_false(streamrules_expiry_ok(t0 + 6 * 3600 * STREAMRULES_US +
	    1, t0));
}

static void
test_stream_chunks(void **state)
{
	(void)state;
	assert_int_equal(streamrules_chunk_check(STREAMRULES_CHUNK_MIN),
	    STREAMRULES_CHUNK_OK);
	assert_int_equal(streamrules_chunk_check(STREAMRULES_CHUNK_MAX),
	    STREAMRULES_CHUNK_OK);
	assert_int_equal(streamrules_chunk_check(50LL * 1024 * 1024),
	    STREAMRULES_CHUNK_OK);
	assert_int_equal(streamrules_chunk_check(STREAMRULES_CHUNK_MIN -
	    STREAMRULES_CHUNK_ALIGN), STREAMRULES_CHUNK_TOO_SMALL);
	assert_int_equal(streamrules_chunk_check(0),
	    STREAMRULES_CHUNK_TOO_SMALL);
	assert_int_equal(streamrules_chunk_check(-1),
	    STREAMRULES_CHUNK_TOO_SMALL);
	assert_int_equal(streamrules_chunk_check(STREAMRULES_CHUNK_MAX +
	    STREAMRULES_CHUNK_ALIGN), STREAMRULES_CHUNK_TOO_BIG);
	assert_int_equal(streamrules_chunk_check(STREAMRULES_CHUNK_MAX + 1),
	    STREAMRULES_CHUNK_TOO_BIG);
	assert_int_equal(streamrules_chunk_check(STREAMRULES_CHUNK_MIN + 1000),
	    STREAMRULES_CHUNK_UNALIGNED);
}

static void
test_stream_values(void **state)
{
	unsigned char	addr[16];
	int		v6, bits;

	(void)state;
	assert_true(apirules_in(streamrules_video_states, "live-inprogress"));
	assert_false(apirules_in(streamrules_video_states, "done"));
	assert_true(apirules_in(streamrules_video_types, "vod"));
	assert_string_equal(streamrules_download_types[0], "default");
	assert_true(apirules_in(streamrules_download_types, "audio"));
	assert_false(apirules_in(streamrules_download_types, "mp4"));
	assert_string_equal(streamrules_positions[0], "upperRight");
	assert_true(apirules_in(streamrules_positions, "center"));
	assert_false(apirules_in(streamrules_positions, "middle"));
	assert_true(apirules_in(streamrules_recording_modes, "automatic"));

	assert_int_equal(streamrules_output_scheme("rtmp://a/live"), 7);
	assert_int_equal(streamrules_output_scheme("rtmps://a/live"), 8);
	assert_int_equal(streamrules_output_scheme("srt://a:778"), 6);
	assert_int_equal(streamrules_output_scheme("https://a/live"), 0);
	assert_int_equal(streamrules_output_scheme("RTMP://a/live"), 0);

	assert_int_equal(streamrules_cidr("192.0.2.1", addr, &v6, &bits), 0);
	assert_false(v6);
	assert_int_equal(bits, 32);
	assert_int_equal(addr[0], 192);
	assert_int_equal(streamrules_cidr("192.0.2.0/24", addr, &v6, &bits),
	    0);
	assert_int_equal(bits, 24);
	assert_int_equal(streamrules_cidr("2001:db8::/32", addr, &v6, &bits),
	    0);
	assert_true(v6);
	assert_int_equal(bits, 32);
	assert_int_equal(streamrules_cidr("2001:db8::1/128", addr, &v6,
	    &bits), 0);
	assert_int_equal(streamrules_cidr("192.0.2.0/33", addr, &v6, &bits),
	    -1);
	assert_int_equal(streamrules_cidr("192.0.2.0/", addr, &v6, &bits),
	    -1);
	assert_int_equal(streamrules_cidr("192.0.2.0/-1", addr, &v6, &bits),
	    -1);
	assert_int_equal(streamrules_cidr("192.0.2.0/8x", addr, &v6, &bits),
	    -1);
	assert_int_equal(streamrules_cidr("2001:db8::/129", addr, &v6, &bits),
	    -1);
	assert_int_equal(streamrules_cidr("example.com", addr, &v6, &bits),
	    -1);
	assert_int_equal(streamrules_cidr("", addr, &v6, &bits), -1);

	assert_true(streamrules_country_ok("DE"));
	assert_true(streamrules_country_ok("us"));
	assert_false(streamrules_country_ok("DEU"));
	assert_false(streamrules_country_ok("D1"));
	assert_false(streamrules_country_ok(""));
}

/* ---- legacyrl --------------------------------------------------------- */

static void
test_legacy_rate_limits(void **state)
{
	char	msg[200];

	(void)state;
	assert_true(legacyrl_mode_lasts("ban"));
	assert_true(legacyrl_mode_lasts("simulate"));
	assert_false(legacyrl_mode_lasts("challenge"));
	assert_false(legacyrl_mode_lasts("js_challenge"));
	assert_false(legacyrl_mode_lasts("managed_challenge"));
	assert_true(legacyrl_timeout_ok(60, 60));
	assert_true(legacyrl_timeout_ok(86400, 10));
	assert_false(legacyrl_timeout_ok(59, 60));
	snprintf(msg, sizeof msg, LEGACYRL_TIMEOUT_LEFT_OUT, "challenge");
	assert_string_equal(msg, "must be left out when action.mode is "
	    "challenge (the zone's Challenge Passage time applies)");
	snprintf(msg, sizeof msg, LEGACYRL_RESPONSE_LEFT_OUT, "challenge");
	assert_string_equal(msg, "must be left out when action.mode is "
	    "challenge (the zone's challenge page is served)");

	assert_true(apirules_in(legacyrl_modes, "managed_challenge"));
	assert_false(apirules_in(legacyrl_modes, "block"));
	assert_true(apirules_in(legacyrl_methods, "_ALL_"));
	assert_false(apirules_in(legacyrl_methods, "get"));
	assert_false(apirules_in(legacyrl_methods, "OPTIONS"));
	assert_true(apirules_in(legacyrl_schemes, "HTTPS"));
	assert_true(apirules_in(legacyrl_ops, "ne"));
	assert_true(apirules_in(legacyrl_content_types, "text/xml"));
	assert_false(apirules_in(legacyrl_content_types, "text/html"));
	assert_true(apirules_in(legacyrl_bypass_names, "url"));
	assert_false(apirules_in(legacyrl_bypass_names, "host"));
}

/* The version's verdict on a JSON document; msg holds why. */
static int
version(const char *json, const char **member, char *msg, size_t len)
{
	cJSON	*doc = cJSON_Parse(json);
	int	 rv;

	assert_non_null(doc);
	msg[0] = '\0';
	rv = apirules_openapi_version(doc, member, msg, len);
	cJSON_Delete(doc);
	return (rv);
}

static void
test_openapi_version(void **state)
{
	const char	*member;
	char		 msg[256];

	(void)state;
	assert_int_equal(version("{\"openapi\":\"3.0.0\"}", &member, msg,
	    sizeof msg), 0);
	assert_int_equal(version("{\"openapi\":\"3.0.3\"}", &member, msg,
	    sizeof msg), 0);
	assert_int_equal(version("{\"openapi\":\"3.1.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_string_equal(member, ".openapi");
	assert_string_equal(msg, "openapi: 3.1.0 is not supported: Schema "
	    "Validation takes OpenAPI 3.0.x documents (3.1 is not supported "
	    "yet)");
	assert_int_equal(version("{\"openapi\":\"3.1\"}", &member, msg,
	    sizeof msg), -1);
	assert_non_null(strstr(msg, "3.1 is not supported yet"));
	assert_int_equal(version("{\"openapi\":\"3.10.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_non_null(strstr(msg, "'3.10.0' is not a supported version"));
	assert_int_equal(version("{\"openapi\":\"3.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_int_equal(version("{\"openapi\":\"4.0.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_int_equal(version("{\"openapi\":3.0}", &member, msg,
	    sizeof msg), -1);
	assert_non_null(strstr(msg, "must be a string"));
	assert_int_equal(version("{\"info\":{}}", &member, msg, sizeof msg),
	    -1);
	assert_non_null(strstr(msg, "openapi: required"));
	assert_int_equal(version("{\"swagger\":\"2.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_string_equal(member, ".swagger");
	assert_non_null(strstr(msg, "(OpenAPI 2) documents are not "
	    "supported"));
}

static void
test_openapi_text(void **state)
{
	static const char yaml31[] = "openapi: 3.1.0\ninfo:\n  title: t\n";
	static const char yaml30[] = "openapi: 3.0.3\ninfo:\n  title: t\n";
	static const char json31[] = "{\"openapi\":\"3.1.1\"}";
	char	*cause = NULL;

	(void)state;
	assert_int_equal(apirules_openapi_text(yaml30, strlen(yaml30),
	    &cause), 0);
	assert_null(cause);
	assert_int_equal(apirules_openapi_text(yaml31, strlen(yaml31),
	    &cause), -1);
	assert_non_null(strstr(cause, "3.1.0 is not supported"));
	free(cause);
	cause = NULL;
	assert_int_equal(apirules_openapi_text(json31, strlen(json31),
	    &cause), -1);
	free(cause);
	cause = NULL;
	/* Neither JSON nor YAML: the server says what it makes of it. */
	assert_int_equal(apirules_openapi_text("{not: [json", 11, &cause), 0);
	assert_null(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openapi_version),
		cmocka_unit_test(test_openapi_text),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_endpoint),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_shield),
		cmocka_unit_test(test_stream_windows),
		cmocka_unit_test(test_stream_chunks),
		cmocka_unit_test(test_stream_values),
		cmocka_unit_test(test_legacy_rate_limits),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
