/*
 * Unit tests for validate.c and the kinds' hooks: each rule taken at its
 * edge and refused past it with the field named, several problems at once,
 * unknown fields left alone, and records as edgemu's demo data serves them
 * validating clean.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "common.h"
#include "kind.h"
#include "validate.h"
#include "xmalloc.h"

/* A rate limit from edgemu's demo data, as GET returns it. */
static const char demo_rate_limit[] =
	"{\"id\":\"d1ac3d980b423811a81f5de92dad72c5\",\"disabled\":false,"
	"\"description\":\"Protect the login form from credential stuffing\","
	"\"match\":{\"request\":{\"methods\":[\"POST\"],\"schemes\":"
	"[\"HTTPS\"],\"url\":\"www.example.com/login*\"},\"response\":"
	"{\"origin_traffic\":false},\"headers\":[{\"name\":\"Cf-Cache-Status\","
	"\"op\":\"ne\",\"value\":\"HIT\"}]},\"bypass\":[],\"threshold\":5,"
	"\"period\":60,\"action\":{\"mode\":\"ban\",\"timeout\":900,"
	"\"response\":{\"content_type\":\"application/json\",\"body\":"
	"\"{\\\"error\\\":\\\"too many login attempts, try again in 15 "
	"minutes\\\"}\"}}}";

/* The same service's challenge rule: no timeout, no response. */
static const char demo_challenge[] =
	"{\"id\":\"5111ed6fd291e688f9da09d906511465\",\"disabled\":false,"
	"\"description\":\"Slow down search scrapers\",\"match\":{\"request\":"
	"{\"methods\":[\"GET\"],\"schemes\":[\"_ALL_\"],\"url\":"
	"\"www.example.com/search*\"}},\"bypass\":[],\"threshold\":30,"
	"\"period\":10,\"action\":{\"mode\":\"challenge\"}}";

/* An operation from edgemu's demo data, with its thresholds feature. */
static const char demo_operation[] =
	"{\"operation_id\":\"88a9306c-7246-4c2e-8770-853234dfc849\","
	"\"method\":\"GET\",\"host\":\"api.example.com\",\"endpoint\":"
	"\"/v1/users\",\"last_updated\":\"2026-03-02T13:11:34.333762Z\","
	"\"features\":{\"thresholds\":{\"period_seconds\":3600,"
	"\"suggested_threshold\":86,\"p50\":5,\"p90\":22,\"p99\":54,"
	"\"requests\":538019,\"auth_id_tokens\":25901,\"data_points\":281,"
	"\"last_updated\":\"2026-03-22T12:24:53.172414Z\"}}}";

/* A live input as GET returns it: secrets, nulls, read-only endpoints. */
static const char demo_live_input[] =
	"{\"uid\":\"accf88de1d8215f2c83d3fe35fe96958\",\"rtmps\":{\"url\":"
	"\"rtmps://live.cloudflare.com:443/live/\",\"streamKey\":\"1ff4k38d\"},"
	"\"srt\":{\"url\":\"srt://live.cloudflare.com:778\",\"streamId\":"
	"\"402d3aa6\",\"passphrase\":\"6904k427\"},\"webRTC\":{\"url\":"
	"\"https://customer-e1d9.cloudflarestream.com/accf/webRTC/publish\"},"
	"\"created\":\"2026-03-01T08:07:26.574495Z\",\"modified\":"
	"\"2026-03-01T08:07:26.574495Z\",\"meta\":{\"name\":\"Main stage\"},"
	"\"status\":null,\"recording\":{\"mode\":\"automatic\","
	"\"requireSignedURLs\":false,\"allowedOrigins\":null,"
	"\"timeoutSeconds\":0},\"deleteRecordingAfterDays\":null,"
	"\"defaultCreator\":\"events-team\"}";

/* ---- helpers ------------------------------------------------------------ */

static cJSON *
parse(const char *json)
{
	cJSON	*j = cJSON_Parse(json);

	if (j == NULL)
		fail_msg("bad test JSON: %s", json);
	return (j);
}

static void
dump(struct validate_error *errs, size_t n)
{
	char	*text = validate_errors_text(errs, n, "\n  ");

	print_message("  %s\n", text);
	free(text);
}

static void
clean_json(const struct kind *k, const cJSON *body, enum validate_mode mode)
{
	struct validate_error	*errs;
	size_t			 n;

	if (validate_record(k, body, mode, &errs, &n) != 0) {
		dump(errs, n);
		validate_errors_free(errs, n);
		fail_msg("%s: refused", k->name);
	}
	assert_null(errs);
	assert_int_equal(n, 0);
}

static void
clean(const struct kind *k, const char *json, enum validate_mode mode)
{
	cJSON	*j = parse(json);

	clean_json(k, j, mode);
	cJSON_Delete(j);
}

/* Refused, with a problem at field whose message holds want. */
static void
refused_json(const struct kind *k, const cJSON *body, enum validate_mode mode,
    const char *field, const char *want)
{
	struct validate_error	*errs;
	size_t			 n, i;

	if (validate_record(k, body, mode, &errs, &n) == 0)
		fail_msg("%s: taken, %s expected", k->name, field);
	for (i = 0; i < n; i++) {
		if (strcmp(errs[i].field, field) == 0 &&
		    strstr(errs[i].message, want) != NULL)
			break;
	}
	if (i == n) {
		dump(errs, n);
		validate_errors_free(errs, n);
		fail_msg("%s: no '%s' at %s", k->name, want, field);
	}
	validate_errors_free(errs, n);
}

static void
refused(const struct kind *k, const char *json, enum validate_mode mode,
    const char *field, const char *want)
{
	cJSON	*j = parse(json);

	refused_json(k, j, mode, field, want);
	cJSON_Delete(j);
}

/* Replace (or add) the member at a dotted path of a copy of base. */
static cJSON *
with(const char *base, const char *path, const char *value)
{
	cJSON		*root = parse(base), *o = root, *next;
	char		*copy = xstrdup(path), *key = copy, *dot;

	while ((dot = strchr(key, '.')) != NULL) {
		*dot = '\0';
		if ((next = cJSON_GetObjectItemCaseSensitive(o, key)) == NULL)
			next = cJSON_AddObjectToObject(o, key);
		o = next;
		key = dot + 1;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	if (value != NULL)
		cJSON_AddItemToObject(o, key, parse(value));
	free(copy);
	return (root);
}

static void
rl_ok(const char *path, const char *value)
{
	cJSON	*j = with(demo_rate_limit, path, value);

	clean_json(&kind_rate_limits, j, VALIDATE_CREATE);
	clean_json(&kind_rate_limits, j, VALIDATE_UPDATE);
	cJSON_Delete(j);
}

static void
rl_bad(const char *path, const char *value, const char *field,
    const char *want)
{
	cJSON	*j = with(demo_rate_limit, path, value);

	refused_json(&kind_rate_limits, j, VALIDATE_CREATE, field, want);
	refused_json(&kind_rate_limits, j, VALIDATE_UPDATE, field, want);
	cJSON_Delete(j);
}

static char *
repeat(char c, size_t n)
{
	char	*s = xmalloc(n + 3);

	s[0] = '"';
	memset(s + 1, c, n);
	s[n + 1] = '"';
	s[n + 2] = '\0';
	return (s);
}

/* ---- demo records ------------------------------------------------------- */

static void
test_demo_records(void **state)
{
	(void)state;
	clean(&kind_rate_limits, demo_rate_limit, VALIDATE_CREATE);
	clean(&kind_rate_limits, demo_rate_limit, VALIDATE_UPDATE);
	clean(&kind_rate_limits, demo_challenge, VALIDATE_UPDATE);
	clean(&kind_operations, demo_operation, VALIDATE_CREATE);
	clean(&kind_live_inputs, demo_live_input, VALIDATE_UPDATE);
}

/* ---- rate limits -------------------------------------------------------- */

static void
test_rl_threshold_period(void **state)
{
	cJSON	*j;

	(void)state;
	rl_ok("threshold", "1");
	rl_bad("threshold", "0", "threshold",
	    "0 is less than the minimum of 1");
	rl_bad("threshold", "1.5", "threshold", "must be an integer, not 1.5");
	rl_bad("threshold", "\"5\"", "threshold",
	    "must be an integer, not a string");
	rl_bad("threshold", NULL, "threshold", "required");

	j = with(demo_rate_limit, "period", "10");
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(j, "action"), "timeout",
	    cJSON_CreateNumber(10));
	clean_json(&kind_rate_limits, j, VALIDATE_CREATE);
	cJSON_Delete(j);
	rl_bad("period", "9", "period", "9 is out of range (10 to 86400)");
	rl_bad("period", "86401", "period",
	    "86401 is out of range (10 to 86400)");
	rl_bad("period", "null", "period", "required");
}

static void
test_rl_timeout(void **state)
{
	cJSON	*j;

	(void)state;
	/* The edge: timeout == period; then one below it. */
	j = with(demo_rate_limit, "period", "900");
	clean_json(&kind_rate_limits, j, VALIDATE_CREATE);
	cJSON_Delete(j);
	j = with(demo_rate_limit, "period", "901");
	refused_json(&kind_rate_limits, j, VALIDATE_CREATE, "action.timeout",
	    "900 is less than the period (901)");
	cJSON_Delete(j);

	j = with(demo_rate_limit, "period", "86400");
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(j, "action"), "timeout",
	    cJSON_CreateNumber(86400));
	clean_json(&kind_rate_limits, j, VALIDATE_CREATE);
	cJSON_Delete(j);
	rl_bad("action.timeout", "86401", "action.timeout",
	    "86401 is out of range (1 to 86400)");
	rl_bad("action.timeout", NULL, "action.timeout",
	    "required when action.mode is ban");

	/* Challenge modes go without timeout and response. */
	j = with(demo_rate_limit, "action", "{\"mode\":\"js_challenge\"}");
	clean_json(&kind_rate_limits, j, VALIDATE_CREATE);
	cJSON_Delete(j);
	rl_bad("action.mode", "\"managed_challenge\"", "action.timeout",
	    "must be left out when action.mode is managed_challenge");
	rl_bad("action.mode", "\"challenge\"", "action.response",
	    "must be left out");
	rl_ok("action.mode", "\"simulate\"");
	rl_bad("action.mode", "\"block\"", "action.mode",
	    "'block' is not one of simulate, ban, challenge, js_challenge, "
	    "managed_challenge");
	rl_bad("action.mode", NULL, "action.mode", "required");
}

static void
test_rl_response(void **state)
{
	char	*body;

	(void)state;
	rl_ok("action.response.content_type", "\"text/plain\"");
	rl_ok("action.response.content_type", "\"text/xml\"");
	rl_bad("action.response.content_type", "\"text/html\"",
	    "action.response.content_type", "'text/html' is not one of");
	rl_bad("action.response.body", NULL, "action.response.body",
	    "required");
	body = repeat('x', 10240);
	rl_ok("action.response.body", body);
	free(body);
	body = repeat('x', 10241);
	rl_bad("action.response.body", body, "action.response.body",
	    "10241 characters is over the limit of 10240");
	free(body);
}

static void
test_rl_match(void **state)
{
	(void)state;
	rl_ok("match.request.methods",
	    "[\"GET\",\"POST\",\"PUT\",\"DELETE\",\"PATCH\",\"HEAD\","
	    "\"_ALL_\"]");
	rl_bad("match.request.methods", "[\"GET\",\"OPTIONS\"]",
	    "match.request.methods[1]", "'OPTIONS' is not one of");
	rl_bad("match.request.methods", "[\"get\"]",
	    "match.request.methods[0]", "'get' is not one of");
	rl_bad("match.request.methods", "[]", "match.request.methods",
	    "must not be empty");
	rl_bad("match.request.methods", "\"GET\"", "match.request.methods",
	    "must be an array, not a string");
	rl_ok("match.request.schemes", "[\"HTTP\",\"HTTPS\",\"_ALL_\"]");
	rl_bad("match.request.schemes", "[\"FTP\"]",
	    "match.request.schemes[0]", "'FTP' is not one of HTTP, HTTPS");
	rl_ok("match.request.methods", NULL);
	rl_bad("match.request.url", NULL, "match.request.url", "required");
	rl_bad("match.request.url", "\"\"", "match.request.url",
	    "must not be empty");
	rl_bad("match", NULL, "match", "required");
	rl_bad("match.request", NULL, "match.request", "required");
	rl_bad("match.request", "[]", "match.request",
	    "must be an object, not an array");
	rl_ok("match.headers",
	    "[{\"name\":\"X\",\"op\":\"eq\",\"value\":\"\"}]");
	rl_bad("match.headers",
	    "[{\"name\":\"X\",\"op\":\"eq\",\"value\":\"1\"},"
	    "{\"name\":\"Y\",\"op\":\"lt\",\"value\":\"2\"}]",
	    "match.headers[1].op", "'lt' is not one of eq, ne");
	rl_bad("match.headers", "[{\"name\":\"X\",\"op\":\"eq\"}]",
	    "match.headers[0].value", "required");
	rl_bad("match.headers", "[\"X: 1\"]", "match.headers[0]",
	    "must be an object, not a string");
	rl_bad("match.response.origin_traffic", "\"yes\"",
	    "match.response.origin_traffic", "must be a boolean");
}

static void
test_rl_bypass_description(void **state)
{
	char	*s;

	(void)state;
	rl_ok("bypass", "[{\"name\":\"url\",\"value\":\"example.com/ok\"}]");
	rl_bad("bypass", "[{\"name\":\"host\",\"value\":\"example.com\"}]",
	    "bypass[0].name", "'host' is not one of url");
	rl_bad("bypass", "[{\"name\":\"url\",\"value\":\"\"}]",
	    "bypass[0].value", "must not be empty");
	rl_bad("bypass", "[{\"name\":\"url\"}]", "bypass[0].value", "required");
	s = repeat('d', 1024);
	rl_ok("description", s);
	free(s);
	s = repeat('d', 1025);
	rl_bad("description", s, "description", "1025 characters");
	free(s);
	/* Characters, not bytes: 1024 e-acutes are 2048 bytes. */
	s = xmalloc(2 * 1024 + 3);
	s[0] = '"';
	for (size_t i = 0; i < 1024; i++)
		memcpy(s + 1 + 2 * i, "\xc3\xa9", 2);
	memcpy(s + 1 + 2 * 1024, "\"", 2);
	rl_ok("description", s);
	free(s);
	rl_ok("description", "null");
	rl_bad("disabled", "\"no\"", "disabled", "must be a boolean, not a "
	    "string");
}

/* ---- several at once, unknown fields, the body itself ------------------- */

static void
test_collects_all(void **state)
{
	struct validate_error	*errs;
	size_t			 n;
	cJSON			*j;
	char			*text;

	(void)state;
	j = parse("{\"match\":{\"request\":{\"methods\":[\"FETCH\"]}},"
	    "\"threshold\":0,\"period\":5,\"action\":{\"mode\":\"nope\"},"
	    "\"bypass\":[{\"name\":\"url\",\"value\":\"\"}]}");
	assert_int_equal(validate_record(&kind_rate_limits, j, VALIDATE_CREATE,
	    &errs, &n), -1);
	text = validate_errors_text(errs, n, "\n");
	assert_string_equal(text,
	    "match.request.methods[0]: 'FETCH' is not one of GET, POST, PUT, "
	    "DELETE, PATCH, HEAD, _ALL_\n"
	    "match.request.url: required\n"
	    "bypass[0].value: must not be empty\n"
	    "threshold: 0 is less than the minimum of 1\n"
	    "period: 5 is out of range (10 to 86400)\n"
	    "action.mode: 'nope' is not one of simulate, ban, challenge, "
	    "js_challenge, managed_challenge");
	free(text);
	validate_errors_free(errs, n);
	cJSON_Delete(j);
}

static void
test_unknown_fields(void **state)
{
	cJSON	*j;

	(void)state;
	j = with(demo_rate_limit, "x_console_note", "{\"any\":[1,2]}");
	cJSON_AddNumberToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(j,
	    "match"), "request"), "future", 1);
	clean_json(&kind_rate_limits, j, VALIDATE_CREATE);
	/* Validation reads the record; it never drops what it does not know. */
	assert_non_null(kind_json_get(j, "x_console_note.any"));
	assert_non_null(kind_json_get(j, "match.request.future"));
	cJSON_Delete(j);
	clean(&kind_videos, "{\"newerField\":{\"a\":1},\"meta\":{\"name\":"
	    "\"x\",\"project\":{\"nested\":true}}}", VALIDATE_UPDATE);
}

static void
test_body_shape(void **state)
{
	(void)state;
	refused(&kind_rate_limits, "[]", VALIDATE_CREATE, "",
	    "must be a JSON object, not an array");
	refused(&kind_webhook, "\"https://x.example\"", VALIDATE_UPDATE, "",
	    "must be a JSON object, not a string");
}

/* Read-only fields are the server's: never refused on the way back. */
static void
test_read_only(void **state)
{
	(void)state;
	clean(&kind_rate_limits, "{\"id\":\"not-hex\",\"match\":{\"request\":"
	    "{\"url\":\"*\"}},\"threshold\":1,\"period\":10,\"action\":"
	    "{\"mode\":\"challenge\"}}", VALIDATE_UPDATE);
	clean(&kind_videos, "{\"uid\":7,\"status\":{\"state\":\"odd\"},"
	    "\"duration\":-1}", VALIDATE_UPDATE);
}

/*
 * A video as the service lists it carries maxDurationSeconds -1 ("none"),
 * which no edit may send: an edit of a video sends the fields it changes.
 */
static void
test_fetched_video(void **state)
{
	struct validate_error	*errs;
	size_t			 n;
	cJSON			*j;

	(void)state;
	j = parse("{\"uid\":\"5d31316bd484b45ccd81ab217a47c9d8\",\"creator\":"
	    "\"creator-alice\",\"thumbnailTimestampPct\":0.049,"
	    "\"readyToStream\":true,\"status\":{\"state\":\"ready\","
	    "\"pctComplete\":\"100.000000\",\"errorReasonCode\":\"\"},"
	    "\"meta\":{\"name\":\"Annual report video.mp4\"},\"created\":"
	    "\"2026-10-11T17:55:27.969495Z\",\"scheduledDeletion\":null,"
	    "\"size\":2456202353,\"allowedOrigins\":[],"
	    "\"requireSignedURLs\":true,\"uploadExpiry\":null,"
	    "\"maxSizeBytes\":null,\"maxDurationSeconds\":-1,"
	    "\"duration\":2793.987,\"input\":{\"width\":1920,"
	    "\"height\":1080},\"watermark\":null}");
	assert_int_equal(validate_record(&kind_videos, j, VALIDATE_UPDATE,
	    &errs, &n), -1);
	assert_int_equal(n, 1);
	assert_string_equal(errs[0].field, "maxDurationSeconds");
	validate_errors_free(errs, n);
	cJSON_DeleteItemFromObject(j, "maxDurationSeconds");
	clean_json(&kind_videos, j, VALIDATE_UPDATE);
	cJSON_Delete(j);
}

/* ---- update modes ------------------------------------------------------- */

static void
test_update_modes(void **state)
{
	(void)state;
	/* PUT replaces: required fields stay required. */
	refused(&kind_rate_limits, "{\"threshold\":5}", VALIDATE_UPDATE,
	    "period", "required");
	refused(&kind_webhook, "{}", VALIDATE_UPDATE, "notificationUrl",
	    "required");
	refused(&kind_api_config, "{}", VALIDATE_UPDATE,
	    "auth_id_characteristics", "required");
	/* POST and PATCH edits send only what changes. */
	clean(&kind_videos, "{}", VALIDATE_UPDATE);
	clean(&kind_user_schemas, "{\"validation_enabled\":true}",
	    VALIDATE_UPDATE);
	clean(&kind_discovered_operations, "{\"state\":\"ignored\"}",
	    VALIDATE_UPDATE);
	clean(&kind_live_inputs, "{}", VALIDATE_UPDATE);
}

/* ---- Stream ------------------------------------------------------------- */

static void
test_videos(void **state)
{
	(void)state;
	clean(&kind_videos, "{\"thumbnailTimestampPct\":0}", VALIDATE_UPDATE);
	clean(&kind_videos, "{\"thumbnailTimestampPct\":1}", VALIDATE_UPDATE);
	refused(&kind_videos, "{\"thumbnailTimestampPct\":1.01}",
	    VALIDATE_UPDATE, "thumbnailTimestampPct",
	    "1.01 is out of range (0 to 1)");
	refused(&kind_videos, "{\"thumbnailTimestampPct\":-0.01}",
	    VALIDATE_UPDATE, "thumbnailTimestampPct", "out of range");
	refused(&kind_videos, "{\"maxDurationSeconds\":21601}",
	    VALIDATE_UPDATE, "maxDurationSeconds", "out of range (1 to 21600)");
	refused(&kind_videos, "{\"creator\":\"" "0123456789012345678901234567"
	    "89012345678901234567890123456789xyzzy\"}", VALIDATE_UPDATE,
	    "creator", "65 characters is over the limit of 64");
	/* null clears scheduledDeletion; requireSignedURLs cannot be null. */
	clean(&kind_videos, "{\"scheduledDeletion\":null}", VALIDATE_UPDATE);
	refused(&kind_videos, "{\"requireSignedURLs\":null}", VALIDATE_UPDATE,
	    "requireSignedURLs", "must be a boolean, not null");
	refused(&kind_videos, "{\"scheduledDeletion\":\"next week\"}",
	    VALIDATE_UPDATE, "scheduledDeletion", "RFC 3339");
	/* Counted from the record's creation when the edit carries it. */
	clean(&kind_videos, "{\"created\":\"2026-01-01T00:00:00Z\","
	    "\"scheduledDeletion\":\"2026-01-31T00:00:00Z\"}", VALIDATE_UPDATE);
	refused(&kind_videos, "{\"created\":\"2026-01-01T00:00:00Z\","
	    "\"scheduledDeletion\":\"2026-01-30T23:59:59Z\"}", VALIDATE_UPDATE,
	    "scheduledDeletion", "30 to 1096 days after the video was created");
	clean(&kind_videos, "{\"allowedOrigins\":[\"example.com\","
	    "\"*.example.com\",\"*\"]}", VALIDATE_UPDATE);
	refused(&kind_videos, "{\"allowedOrigins\":[\"example.com\","
	    "\"https://example.com\"]}", VALIDATE_UPDATE, "allowedOrigins[1]",
	    "without a scheme");
	refused(&kind_videos, "{\"allowedOrigins\":[\"\"]}", VALIDATE_UPDATE,
	    "allowedOrigins[0]", "must not be empty");
	refused(&kind_videos, "{\"meta\":[\"name\"]}", VALIDATE_UPDATE, "meta",
	    "must be an object");
	refused(&kind_videos, "{\"meta\":{\"name\":5}}", VALIDATE_UPDATE,
	    "meta.name", "must be a string");
}

static char *
iso_from_now(long seconds)
{
	time_t		t = time(NULL) + seconds;
	struct tm	tm;
	char		buf[64];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "\"%Y-%m-%dT%H:%M:%SZ\"", &tm);
	return (xstrdup(buf));
}

static void
test_direct_uploads(void **state)
{
	char	*json, *when;

	(void)state;
	clean(&kind_direct_uploads, "{\"maxDurationSeconds\":1}",
	    VALIDATE_CREATE);
	clean(&kind_direct_uploads, "{\"maxDurationSeconds\":21600}",
	    VALIDATE_CREATE);
	refused(&kind_direct_uploads, "{\"maxDurationSeconds\":0}",
	    VALIDATE_CREATE, "maxDurationSeconds", "0 is out of range (1 to "
	    "21600)");
	refused(&kind_direct_uploads, "{\"maxDurationSeconds\":21601}",
	    VALIDATE_CREATE, "maxDurationSeconds", "out of range");
	refused(&kind_direct_uploads, "{\"creator\":\"me\"}", VALIDATE_CREATE,
	    "maxDurationSeconds", "required");
	refused(&kind_direct_uploads, "{\"maxDurationSeconds\":60,"
	    "\"watermark\":{\"uid\":\"logo\"}}", VALIDATE_CREATE,
	    "watermark.uid", "32 hexadecimal digits");
	refused(&kind_direct_uploads, "{\"maxDurationSeconds\":60,"
	    "\"watermark\":{}}", VALIDATE_CREATE, "watermark.uid", "required");
	refused(&kind_direct_uploads, "{\"maxDurationSeconds\":60,"
	    "\"thumbnailTimestampPct\":2}", VALIDATE_CREATE,
	    "thumbnailTimestampPct", "out of range (0 to 1)");

	when = iso_from_now(3600);
	xasprintf(&json, "{\"maxDurationSeconds\":60,\"expiry\":%s}", when);
	clean(&kind_direct_uploads, json, VALIDATE_CREATE);
	free(json);
	free(when);
	when = iso_from_now(7 * 3600);
	xasprintf(&json, "{\"maxDurationSeconds\":60,\"expiry\":%s}", when);
	refused(&kind_direct_uploads, json, VALIDATE_CREATE, "expiry",
	    "between 2 minutes and 6 hours");
	free(json);
	free(when);
	refused(&kind_direct_uploads, "{\"maxDurationSeconds\":60,"
	    "\"expiry\":\"2001-01-01T00:00:00Z\"}", VALIDATE_CREATE, "expiry",
	    "between 2 minutes and 6 hours");

	when = iso_from_now(40 * 86400);
	xasprintf(&json, "{\"maxDurationSeconds\":60,\"scheduledDeletion\":"
	    "%s}", when);
	clean(&kind_direct_uploads, json, VALIDATE_CREATE);
	free(json);
	free(when);
	when = iso_from_now(20 * 86400);
	xasprintf(&json, "{\"maxDurationSeconds\":60,\"scheduledDeletion\":"
	    "%s}", when);
	refused(&kind_direct_uploads, json, VALIDATE_CREATE,
	    "scheduledDeletion", "30 to 1096 days after now");
	free(json);
	free(when);
}

static void
test_live_inputs(void **state)
{
	(void)state;
	clean(&kind_live_inputs, "{\"deleteRecordingAfterDays\":30}",
	    VALIDATE_CREATE);
	refused(&kind_live_inputs, "{\"deleteRecordingAfterDays\":29}",
	    VALIDATE_CREATE, "deleteRecordingAfterDays",
	    "29 is less than the minimum of 30");
	clean(&kind_live_inputs, "{\"recording\":{\"mode\":\"off\"}}",
	    VALIDATE_CREATE);
	clean(&kind_live_inputs, "{\"recording\":{\"mode\":\"automatic\","
	    "\"timeoutSeconds\":0,\"allowedOrigins\":[\"*.example.com\"]}}",
	    VALIDATE_UPDATE);
	refused(&kind_live_inputs, "{\"recording\":{\"mode\":\"always\"}}",
	    VALIDATE_UPDATE, "recording.mode", "'always' is not one of off, "
	    "automatic");
	refused(&kind_live_inputs, "{\"recording\":{\"timeoutSeconds\":-1}}",
	    VALIDATE_UPDATE, "recording.timeoutSeconds", "out of range");
	refused(&kind_live_inputs, "{\"recording\":\"off\"}", VALIDATE_UPDATE,
	    "recording", "must be an object, not a string");
}

static void
test_watermarks(void **state)
{
	static const char *const numbers[] = { "opacity", "padding", "scale" };
	char	 path[] = "/tmp/edgetui-test-validate-XXXXXX", *json;
	size_t	 i;
	int	 fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "\x89PNG", 4), 4);
	close(fd);

	for (i = 0; i < nitems(numbers); i++) {
		xasprintf(&json, "{\"file\":\"%s\",\"%s\":0}", path,
		    numbers[i]);
		clean(&kind_watermarks, json, VALIDATE_CREATE);
		free(json);
		xasprintf(&json, "{\"file\":\"%s\",\"%s\":1}", path,
		    numbers[i]);
		clean(&kind_watermarks, json, VALIDATE_CREATE);
		free(json);
		xasprintf(&json, "{\"file\":\"%s\",\"%s\":1.5}", path,
		    numbers[i]);
		refused(&kind_watermarks, json, VALIDATE_CREATE, numbers[i],
		    "1.5 is out of range (0 to 1)");
		free(json);
	}
	xasprintf(&json, "{\"file\":\"%s\",\"position\":\"center\"}", path);
	clean(&kind_watermarks, json, VALIDATE_CREATE);
	free(json);
	xasprintf(&json, "{\"file\":\"%s\",\"position\":\"middle\"}", path);
	refused(&kind_watermarks, json, VALIDATE_CREATE, "position",
	    "'middle' is not one of upperRight, upperLeft, lowerLeft, "
	    "lowerRight, center");
	free(json);
	refused(&kind_watermarks, "{\"name\":\"logo\"}", VALIDATE_CREATE,
	    "file", "required");
	refused(&kind_watermarks, "{\"file\":\"/nonexistent/logo.png\"}",
	    VALIDATE_CREATE, "file", "cannot read '/nonexistent/logo.png'");
	refused(&kind_watermarks, "{\"file\":\"/tmp\"}", VALIDATE_CREATE,
	    "file", "not a regular file");
	unlink(path);
}

static void
test_webhook_audio(void **state)
{
	(void)state;
	clean(&kind_webhook, "{\"notificationUrl\":\"https://hooks.example.com"
	    "/stream\"}", VALIDATE_UPDATE);
	clean(&kind_webhook, "{\"notificationUrl\":\"http://127.0.0.1:8080/"
	    "h?x=1\"}", VALIDATE_UPDATE);
	/* The URL rule is apirules_url_why's (test_apirules). */
	refused(&kind_webhook, "{\"notificationUrl\":\"ftp://x.example\"}",
	    VALIDATE_UPDATE, "notificationUrl", "'ftp://x.example' the scheme "
	    "must be http or https");
	/* A port no server has, refused here as edgemu refuses it. */
	refused(&kind_webhook, "{\"notificationUrl\":\"https://x.example:"
	    "99999/\"}", VALIDATE_UPDATE, "notificationUrl", "port over 65535");

	clean(&kind_audio_tracks, "{\"label\":\"director commentary\","
	    "\"url\":\"https://media.example.com/a.m4a\"}", VALIDATE_CREATE);
	refused(&kind_audio_tracks, "{\"url\":\"https://m.example/a\"}",
	    VALIDATE_CREATE, "label", "required");
	refused(&kind_audio_tracks, "{\"label\":\"\"}", VALIDATE_CREATE,
	    "label", "must not be empty");
	/* Each URL's example is its own: an audio file, not a webhook. */
	refused(&kind_audio_tracks, "{\"label\":\"fr\",\"url\":\"a.m4a\"}",
	    VALIDATE_CREATE, "url", "such as https://example.com/audio/");
	refused(&kind_webhook, "{\"notificationUrl\":\"hooks.example.com\"}",
	    VALIDATE_UPDATE, "notificationUrl",
	    "such as https://example.com/stream-hook");
}

/*
 * An edit is checked where it differs from the record fetched: the
 * server's maxDurationSeconds -1 breaks the local range but is not the
 * user's doing; a change to it, or to another field, is checked.
 */
static void
test_changes(void **state)
{
	struct validate_error	*errs;
	size_t			 n;
	cJSON			*orig, *body;

	(void)state;
	orig = parse("{\"uid\":\"9e0c67e0a2f4e37aa63d36321e7644b1\","
	    "\"creator\":\"a\",\"maxDurationSeconds\":-1}");
	body = parse("{\"uid\":\"9e0c67e0a2f4e37aa63d36321e7644b1\","
	    "\"creator\":\"b\",\"maxDurationSeconds\":-1}");
	assert_int_equal(validate_changes(&kind_videos, body, orig,
	    VALIDATE_UPDATE, &errs, &n), 0);
	assert_null(errs);
	assert_int_equal(n, 0);
	/* Without the original, the whole record is checked. */
	refused_json(&kind_videos, body, VALIDATE_UPDATE, "maxDurationSeconds",
	    "out of range");
	cJSON_Delete(body);
	body = parse("{\"uid\":\"9e0c67e0a2f4e37aa63d36321e7644b1\","
	    "\"creator\":\"c\",\"maxDurationSeconds\":0}");
	assert_int_equal(validate_changes(&kind_videos, body, orig,
	    VALIDATE_UPDATE, &errs, &n), -1);
	assert_int_equal(n, 1);
	assert_string_equal(errs[0].field, "maxDurationSeconds");
	validate_errors_free(errs, n);
	cJSON_Delete(body);
	cJSON_Delete(orig);

	/* Paths into arrays: bypass[0].value changed, bypass[1] as it was. */
	orig = parse("{\"bypass\":[{\"name\":\"url\",\"value\":\"\"},"
	    "{\"name\":\"url\",\"value\":\"\"}]}");
	body = parse("{\"bypass\":[{\"name\":\"nope\",\"value\":\"\"},"
	    "{\"name\":\"url\",\"value\":\"\"}]}");
	if (validate_changes(&kind_rate_limits, body, orig, VALIDATE_UPDATE,
	    &errs, &n) == 0)
		fail_msg("bypass[0].name taken");
	assert_int_equal(n, 1);
	assert_string_equal(errs[0].field, "bypass[0].name");
	validate_errors_free(errs, n);
	cJSON_Delete(body);
	cJSON_Delete(orig);
}

/* ---- API Shield --------------------------------------------------------- */

static void
test_operations(void **state)
{
	static const char *const methods[] = {
		"GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "CONNECT",
		"PATCH", "TRACE", "get"
	};
	char	*json, *host;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(methods); i++) {
		xasprintf(&json, "{\"method\":\"%s\",\"host\":\"api.example.com"
		    "\",\"endpoint\":\"/v1/users/{id}\"}", methods[i]);
		clean(&kind_operations, json, VALIDATE_CREATE);
		free(json);
	}
#define OP(m, h, e) "{\"method\":\"" m "\",\"host\":\"" h "\"," \
	"\"endpoint\":\"" e "\"}"
	refused(&kind_operations, OP("FETCH", "a.example", "/"),
	    VALIDATE_CREATE, "method", "'FETCH' is not one of GET, POST");
	/* The host and endpoint rules are apirules' (test_apirules). */
	refused(&kind_operations, OP("GET", "api.example.com:8443", "/"),
	    VALIDATE_CREATE, "host", "'api.example.com:8443' has a ':'; give "
	    "the host without a port");
	clean(&kind_operations, OP("GET", "[2001:db8::1]", "/"),
	    VALIDATE_CREATE);
	refused(&kind_operations, OP("GET", "", "/"), VALIDATE_CREATE, "host",
	    "must not be empty");
	host = repeat('h', 255);
	xasprintf(&json, "{\"method\":\"GET\",\"host\":%s,\"endpoint\":\"/\"}",
	    host);
	clean(&kind_operations, json, VALIDATE_CREATE);
	free(json);
	free(host);
	host = repeat('h', 256);
	xasprintf(&json, "{\"method\":\"GET\",\"host\":%s,\"endpoint\":\"/\"}",
	    host);
	refused(&kind_operations, json, VALIDATE_CREATE, "host",
	    "256 characters is over the limit of 255");
	free(json);
	free(host);
	refused(&kind_operations, OP("GET", "a.example", "v1/users"),
	    VALIDATE_CREATE, "endpoint", "'v1/users' must start with '/'");
	refused(&kind_operations, OP("GET", "a.example", "/v1/{id"),
	    VALIDATE_CREATE, "endpoint", "no matching '}'");
	refused(&kind_operations, "{\"host\":\"a.example\"}", VALIDATE_CREATE,
	    "endpoint", "required");

	/* A bulk create names the item. */
	clean(&kind_operations, "[" OP("GET", "a.example", "/x") ","
	    OP("POST", "a.example", "/x") "]", VALIDATE_CREATE);
	refused(&kind_operations, "[" OP("GET", "a.example", "/x") ","
	    OP("GET", "a.example:1", "/x") "]", VALIDATE_CREATE, "[1].host",
	    "without a port");
	refused(&kind_operations, "[" OP("GET", "a.example", "/x") ",7]",
	    VALIDATE_CREATE, "[1]", "must be a JSON object, not a number");
	refused(&kind_operations, "[]", VALIDATE_CREATE, "", "is empty");
	/* No bulk for a kind without it. */
	refused(&kind_rate_limits, "[" "{}" "]", VALIDATE_CREATE, "",
	    "must be a JSON object");
#undef OP
}

static void
test_api_config(void **state)
{
	struct buf	 b = BUF_INITIALIZER;
	int		 i;

	(void)state;
	buf_adds(&b, "{\"auth_id_characteristics\":[");
	for (i = 0; i < 10; i++)
		buf_addf(&b, "%s{\"type\":\"header\",\"name\":\"h%d\"}",
		    i == 0 ? "" : ",", i);
	buf_adds(&b, "]}");
	clean(&kind_api_config, buf_str(&b), VALIDATE_UPDATE);
	buf_truncate(&b, b.len - 2);
	buf_adds(&b, ",{\"type\":\"cookie\",\"name\":\"c\"}]}");
	refused(&kind_api_config, buf_str(&b), VALIDATE_UPDATE,
	    "auth_id_characteristics", "at most 10 items, not 11");
	buf_free(&b);

	clean(&kind_api_config, "{\"auth_id_characteristics\":[]}",
	    VALIDATE_UPDATE);
	refused(&kind_api_config, "{\"auth_id_characteristics\":[{\"type\":"
	    "\"query\",\"name\":\"q\"}]}", VALIDATE_UPDATE,
	    "auth_id_characteristics[0].type", "'query' is not one of header, "
	    "cookie, jwt");
	refused(&kind_api_config, "{\"auth_id_characteristics\":[{\"type\":"
	    "\"cookie\",\"name\":\"\"}]}", VALIDATE_UPDATE,
	    "auth_id_characteristics[0].name", "must not be empty");
	refused(&kind_api_config, "{\"auth_id_characteristics\":[{\"type\":"
	    "\"cookie\"}]}", VALIDATE_UPDATE,
	    "auth_id_characteristics[0].name", "required");
	clean(&kind_api_config, "{\"auth_id_characteristics\":[{\"type\":"
	    "\"jwt\",\"name\":"
	    "\"e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub\"}]}",
	    VALIDATE_UPDATE);
	refused(&kind_api_config, "{\"auth_id_characteristics\":[{\"type\":"
	    "\"header\",\"name\":\"a\"},{\"type\":\"jwt\",\"name\":\"sub\"}]}",
	    VALIDATE_UPDATE, "auth_id_characteristics[1].name",
	    "TOKEN_CONFIG_ID:$JSONPATH");
	refused(&kind_api_config, "{\"auth_id_characteristics\":[{\"type\":"
	    "\"header\",\"name\":\"a\"},{\"type\":\"header\",\"name\":\"a\"}]}",
	    VALIDATE_UPDATE, "auth_id_characteristics[1]", "repeats item 0");
}

static void
test_user_schemas(void **state)
{
	char	 path[] = "/tmp/edgetui-test-schema-XXXXXX", *json;
	int	 fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	xasprintf(&json, "{\"file\":\"%s\",\"kind\":\"openapi_v3\"}", path);
	refused(&kind_user_schemas, json, VALIDATE_CREATE, "file", "is empty");
	fd = open(path, O_WRONLY);
	assert_int_equal(write(fd, "openapi: 3.0.0\n", 15), 15);
	close(fd);
	clean(&kind_user_schemas, json, VALIDATE_CREATE);
	free(json);
	xasprintf(&json, "{\"file\":\"%s\",\"kind\":\"swagger_v2\"}", path);
	refused(&kind_user_schemas, json, VALIDATE_CREATE, "kind",
	    "'swagger_v2' is not one of openapi_v3");
	free(json);
	xasprintf(&json, "{\"file\":\"%s\"}", path);
	refused(&kind_user_schemas, json, VALIDATE_CREATE, "kind", "required");
	free(json);
	refused(&kind_user_schemas, "{\"kind\":\"openapi_v3\"}",
	    VALIDATE_CREATE, "file", "required");
	unlink(path);

	/* PATCH only turns validation on; a fetched record passes as is. */
	refused(&kind_user_schemas, "{\"validation_enabled\":false}",
	    VALIDATE_UPDATE, "validation_enabled", "only true can be set");
	clean(&kind_user_schemas, "{\"schema_id\":\"3e2bc566-9b9c-4dc2-856c-"
	    "215f400afeea\",\"name\":\"Shop storefront (JSON)\",\"kind\":"
	    "\"openapi_v3\",\"created_at\":\"2026-03-04T16:18:20.006653Z\","
	    "\"validation_enabled\":true}", VALIDATE_UPDATE);
}

static void
test_discovered(void **state)
{
	(void)state;
	clean(&kind_discovered_operations, "{\"state\":\"review\"}",
	    VALIDATE_UPDATE);
	refused(&kind_discovered_operations, "{\"state\":\"saved\"}",
	    VALIDATE_UPDATE, "state", "'saved' is not one of review, ignored");
}

/* ---- one field at a time (forms) ---------------------------------------- */

static void
test_validate_field(void **state)
{
	const struct kind_field	*f;
	cJSON			*v;
	char			*cause = NULL;

	(void)state;
	f = kind_field_find(&kind_rate_limits, "period");
	v = cJSON_CreateNumber(5);
	assert_int_equal(validate_field(f, v, &cause), -1);
	assert_string_equal(cause, "period: 5 is out of range (10 to 86400)");
	free(cause);
	cJSON_Delete(v);
	v = cJSON_CreateNumber(60);
	assert_int_equal(validate_field(f, v, &cause), 0);
	cJSON_Delete(v);
	assert_int_equal(validate_field(f, NULL, &cause), -1);
	assert_string_equal(cause, "period: required");
	free(cause);

	f = kind_field_find(&kind_rate_limits, "description");
	assert_int_equal(validate_field(f, NULL, &cause), 0);

	f = kind_field_find(&kind_rate_limits, "bypass[0].name");
	v = cJSON_CreateString("host");
	assert_int_equal(validate_field(f, v, &cause), -1);
	assert_string_equal(cause, "bypass[].name: 'host' is not one of url");
	free(cause);
	cJSON_Delete(v);

	f = kind_field_find(&kind_rate_limits, "match.request.methods");
	v = cJSON_Parse("[\"GET\",\"NOPE\",\"ALSO\"]");
	assert_int_equal(validate_field(f, v, &cause), -1);
	assert_string_equal(cause, "match.request.methods[1]: 'NOPE' is not "
	    "one of GET, POST, PUT, DELETE, PATCH, HEAD, _ALL_; "
	    "match.request.methods[2]: 'ALSO' is not one of GET, POST, PUT, "
	    "DELETE, PATCH, HEAD, _ALL_");
	free(cause);
	cJSON_Delete(v);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_demo_records),
		cmocka_unit_test(test_rl_threshold_period),
		cmocka_unit_test(test_rl_timeout),
		cmocka_unit_test(test_rl_response),
		cmocka_unit_test(test_rl_match),
		cmocka_unit_test(test_rl_bypass_description),
		cmocka_unit_test(test_collects_all),
		cmocka_unit_test(test_unknown_fields),
		cmocka_unit_test(test_body_shape),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_fetched_video),
		cmocka_unit_test(test_update_modes),
		cmocka_unit_test(test_videos),
		cmocka_unit_test(test_direct_uploads),
		cmocka_unit_test(test_live_inputs),
		cmocka_unit_test(test_watermarks),
		cmocka_unit_test(test_webhook_audio),
		cmocka_unit_test(test_changes),
		cmocka_unit_test(test_operations),
		cmocka_unit_test(test_api_config),
		cmocka_unit_test(test_user_schemas),
		cmocka_unit_test(test_discovered),
		cmocka_unit_test(test_validate_field),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
