/*
 * Unit tests for the Stream webhook and downloads pieces that need no
 * network: the delivery signature against known answers, the retry
 * schedule, URL checks, Range header reading, and the webhook handlers and
 * the delivery queue run in process against a scratch store.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "apirules.h"
#include "routetest.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "video.h"
#include "webhook.h"
#include "xmalloc.h"

extern const struct area webhook_area;

#define ACCOUNT_A	"0123456789abcdef0123456789abcdef"
#define ACCOUNT_B	"fedcba9876543210fedcba9876543210"
#define HOOK_A		"/accounts/" ACCOUNT_A "/stream/webhook"
#define HOOK_B		"/accounts/" ACCOUNT_B "/stream/webhook"

/* ---- signatures --------------------------------------------------------- */

/*
 * Each expected value was computed outside edgemu with OpenSSL, e.g.
 *   printf '%s' '1700000000.{"uid":...}' |
 *       openssl dgst -sha256 -hmac 85011ed3a913c6ad5f9cf6c5573cc0a7
 *   printf '42.a\0b' | openssl dgst -sha256 -hmac secret
 */
static void
test_sign_known_answers(void **state)
{
	static const char	 body[] =
	    "{\"uid\":\"ea95132c15732412d22c1476fa83f27a\","
	    "\"readyToStream\":true}";
	char			 sig[WEBHOOK_SIG_LEN + 1];

	(void)state;
	webhook_sign("85011ed3a913c6ad5f9cf6c5573cc0a7", 1700000000LL, body,
	    strlen(body), sig);
	assert_string_equal(sig, "5c2dc6247f3ba4b39b83260334b8e524"
	    "0ee67cbc6652fb01c659e70f35a388b3");

	/* An empty body still signs "<time>.". */
	webhook_sign("k", 0, "", 0, sig);
	assert_string_equal(sig, "6b4a4b8b3c40f1e8f53a3d36682e5f99"
	    "f7ad2ac1df1c93dfe336f329167641e7");

	/* The body is bytes: a NUL inside is signed, not an end. */
	webhook_sign("secret", 42, "a\0b", 3, sig);
	assert_string_equal(sig, "ca9a4a126a9c38e90159bc4494e4f5fa"
	    "d13ea8662c9478b245b52ff53eaf656d");
}

/* ---- retries ------------------------------------------------------------ */

static void
test_retry_schedule(void **state)
{
	int	i, total = 0;

	(void)state;
	assert_int_equal(webhook_retry_delay(1), 1);
	assert_int_equal(webhook_retry_delay(2), 2);
	assert_int_equal(webhook_retry_delay(3), 4);
	assert_int_equal(webhook_retry_delay(4), 8);
	/* The fifth failure is the last: no more attempts, ever. */
	assert_int_equal(webhook_retry_delay(WEBHOOK_ATTEMPTS), -1);
	assert_int_equal(webhook_retry_delay(WEBHOOK_ATTEMPTS + 1), -1);
	assert_int_equal(webhook_retry_delay(1000), -1);
	for (i = 1; webhook_retry_delay(i) >= 0; i++)
		total += webhook_retry_delay(i);
	assert_int_equal(i, WEBHOOK_ATTEMPTS);
	assert_int_equal(total, 15);
}

/* ---- URLs --------------------------------------------------------------- */

/*
 * A webhook's URL is first an API URL (apirules_url_why, tested in
 * test_apirules); then no host a webhook may not reach.
 */
static void
test_url_check(void **state)
{
	static const char *const good[] = {
		"https://example.com/hook?x=1#f",
		"http://127.0.0.1:8080/hook",
		"http://localhost/hook",	/* loopback is allowed here */
		"http://[::1]:9000/",
		"http://169.253.1.1/",		/* next to link-local */
		"http://[fe00::1]/",
		"http://[fc00::1]/",
		"http://metadata.example.com/",
	};
	static const char *const bad[] = {
		"http://169.254.169.254/latest/meta-data/",
		"http://169.254.0.1./",
		"http://2852039166/",		/* 169.254.169.254 */
		"http://[fe80::1]/",
		"http://[febf::1]/",
		"http://[fe80::1%25eth0]/",
		"http://[fd00:ec2::254]/",
		"http://[::ffff:169.254.169.254]/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://Metadata.Google.Internal./",
		"http://metadata/",
	};
	char	*cause;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(good); i++) {
		cause = NULL;
		if (webhook_url_check(good[i], &cause) != 0)
			fail_msg("%s refused: %s", good[i], cause);
	}
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		if (webhook_url_check(bad[i], &cause) == 0)
			fail_msg("\"%s\" accepted", bad[i]);
		assert_non_null(strstr(cause, "which webhooks may not reach"));
		free(cause);
	}
	assert_int_equal(webhook_url_check("example.com/hook", &cause), -1);
	assert_string_equal(cause, "must be an absolute URL such as "
	    "https://example.com/hook");
	free(cause);
}

/* ---- Range -------------------------------------------------------------- */

struct range_case {
	const char		*header;
	uint64_t		 size;
	enum video_range	 kind;
	uint64_t		 first, last;
};

static void
test_range(void **state)
{
	static const struct range_case cases[] = {
		{ NULL, 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=0-9", 100, VIDEO_RANGE_OK, 0, 9 },
		{ "bytes=10-10", 100, VIDEO_RANGE_OK, 10, 10 },
		{ "bytes=90-99", 100, VIDEO_RANGE_OK, 90, 99 },
		/* The end is clamped to the file. */
		{ "bytes=90-1000", 100, VIDEO_RANGE_OK, 90, 99 },
		{ "bytes=50-", 100, VIDEO_RANGE_OK, 50, 99 },
		{ "bytes=0-", 100, VIDEO_RANGE_OK, 0, 99 },
		{ "bytes=-1", 100, VIDEO_RANGE_OK, 99, 99 },
		{ "bytes=-10", 100, VIDEO_RANGE_OK, 90, 99 },
		/* A suffix longer than the file is the whole file. */
		{ "bytes=-500", 100, VIDEO_RANGE_OK, 0, 99 },
		{ "Bytes = 5-6 ", 100, VIDEO_RANGE_OK, 5, 6 },
		{ "bytes=0-0", 1, VIDEO_RANGE_OK, 0, 0 },
		/* Unsatisfiable: 416. */
		{ "bytes=100-", 100, VIDEO_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=100-200", 100, VIDEO_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=-0", 100, VIDEO_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=0-", 0, VIDEO_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=-5", 0, VIDEO_RANGE_UNSATISFIABLE, 0, 0 },
		/* Ignored, so the whole file goes out: bad syntax... */
		{ "", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=-", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=5", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=9-5", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=a-b", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=+1-2", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=1--2", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=1-2x", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes 1-2", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=99999999999999999999-", 100, VIDEO_RANGE_NONE,
		    0, 0 },
		/* ...another unit... */
		{ "items=0-1", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytesx=0-1", 100, VIDEO_RANGE_NONE, 0, 0 },
		/* ...and several ranges, even if each alone would do. */
		{ "bytes=0-1,5-6", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=0-1, -5", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=0-1,", 100, VIDEO_RANGE_NONE, 0, 0 },
		{ "bytes=200-,300-", 100, VIDEO_RANGE_NONE, 0, 0 },
	};
	const struct range_case	*c;
	enum video_range	 kind;
	uint64_t		 first, last;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		c = &cases[i];
		first = last = 12345;
		kind = video_range(c->header, c->size, &first, &last);
		if (kind != c->kind)
			fail_msg("\"%s\" (size %llu): kind %d, expected %d",
			    c->header != NULL ? c->header : "(none)",
			    (unsigned long long)c->size, kind, c->kind);
		if (kind == VIDEO_RANGE_OK &&
		    (first != c->first || last != c->last))
			fail_msg("\"%s\": %llu-%llu, expected %llu-%llu",
			    c->header, (unsigned long long)first,
			    (unsigned long long)last,
			    (unsigned long long)c->first,
			    (unsigned long long)c->last);
	}
}

/* ---- handlers and the queue, in process --------------------------------- */

static const struct area *const routed[] = { &webhook_area };

static int
setup(void **state)
{
	*state = routetest_open("webhook", routed, nitems(routed));
	return (0);
}

static int
teardown(void **state)
{
	routetest_close(*state);
	return (0);
}

static void
call(struct routetest *f, enum http_method method, const char *path,
    const char *body, struct routetest_call *c)
{
	routetest_call(f, method, path, NULL, body, NULL, c);
}

static const char *
member(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v))
		fail_msg("%s: not a string", key);
	return (v->valuestring);
}

/* A refusal: the status, and a message that names what was wrong. */
static void
refused(struct routetest *f, enum http_method m, const char *path,
    const char *body, unsigned int status, const char *needle)
{
	struct routetest_call	c;

	call(f, m, path, body, &c);
	if (c.status != status)
		fail_msg("%s %s: status %u, expected %u", body, path, c.status,
		    status);
	assert_null(c.result);
	assert_non_null(c.message);
	if (strstr(c.message, needle) == NULL)
		fail_msg("\"%s\" does not mention \"%s\"", c.message, needle);
	routetest_call_free(&c);
}

static void
test_config(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			 secret[HEX32_LEN + 1];

	refused(f, HTTP_GET, HOOK_A, NULL, 404, "no webhook");
	refused(f, HTTP_DELETE, HOOK_A, NULL, 404, "no webhook");
	refused(f, HTTP_PUT, HOOK_A, NULL, 400, "notificationUrl");
	refused(f, HTTP_PUT, HOOK_A, "[]", 400, "notificationUrl");
	refused(f, HTTP_PUT, HOOK_A, "{}", 400, "notificationUrl: required");
	refused(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":7}", 400,
	    "must be a string");
	refused(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":\"example.com\"}",
	    400, "absolute URL");
	refused(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":\"ftp://a.b/\"}",
	    400, "http or https");

	call(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":"
	    "\"http://127.0.0.1:9/a\",\"other\":1}", &c);
	assert_int_equal(c.status, 200);
	assert_string_equal(member(c.result, "notificationUrl"),
	    "http://127.0.0.1:9/a");
	assert_true(apirules_hex32_ok(member(c.result, "secret")));
	assert_non_null(member(c.result, "modified"));
	assert_int_equal(cJSON_GetArraySize(c.result), 3);
	snprintf(secret, sizeof secret, "%s", member(c.result, "secret"));
	routetest_call_free(&c);

	/* A replace moves the URL and keeps the secret. */
	call(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":"
	    "\"https://example.com/b\"}", &c);
	assert_int_equal(c.status, 200);
	assert_string_equal(member(c.result, "notificationUrl"),
	    "https://example.com/b");
	assert_string_equal(member(c.result, "secret"), secret);
	routetest_call_free(&c);
	call(f, HTTP_GET, HOOK_A, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_string_equal(member(c.result, "notificationUrl"),
	    "https://example.com/b");
	assert_string_equal(member(c.result, "secret"), secret);
	routetest_call_free(&c);

	/* Accounts do not share. */
	refused(f, HTTP_GET, HOOK_B, NULL, 404, "no webhook");

	call(f, HTTP_DELETE, HOOK_A, NULL, &c);
	assert_int_equal(c.status, 200);
	assert_true(cJSON_IsString(c.result));
	assert_string_equal(c.result->valuestring, "ok");
	routetest_call_free(&c);
	refused(f, HTTP_GET, HOOK_A, NULL, 404, "no webhook");
	refused(f, HTTP_DELETE, HOOK_A, NULL, 404, "no webhook");

	/* After a delete, a new webhook gets a new secret. */
	call(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":"
	    "\"https://example.com/c\"}", &c);
	assert_int_equal(c.status, 200);
	assert_string_not_equal(member(c.result, "secret"), secret);
	routetest_call_free(&c);
}

static int
pending(struct routetest *f, const char *account, char **body)
{
	static const char	 sql[] =
	    "SELECT count(*), max(body) FROM stream_webhook_delivery"
	    " WHERE account = ?1";
	sqlite3_stmt		*st = store_stmt(f->store, sql);
	int			 n;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	if (body != NULL)
		*body = sqlite3_column_type(st, 1) == SQLITE_NULL ? NULL :
		    xstrdup((const char *)sqlite3_column_text(st, 1));
	store_done(st);
	return (n);
}

static void
test_queue(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	cJSON			*video, *back;
	char			*body;

	video = cJSON_Parse("{\"uid\":\"ea95132c15732412d22c1476fa83f27a\","
	    "\"status\":{\"state\":\"ready\",\"pctComplete\":\"100.000000\"},"
	    "\"meta\":{\"name\":\"caf\xc3\xa9\"}}");
	assert_non_null(video);

	/* No webhook: nothing is queued. */
	webhook_notify(f->store, ACCOUNT_A, video);
	assert_int_equal(pending(f, ACCOUNT_A, NULL), 0);

	call(f, HTTP_PUT, HOOK_A, "{\"notificationUrl\":"
	    "\"http://127.0.0.1:9/\"}", &c);
	routetest_call_free(&c);
	webhook_notify(f->store, ACCOUNT_A, video);
	assert_int_equal(pending(f, ACCOUNT_A, &body), 1);
	back = cJSON_Parse(body);
	assert_true(cJSON_Compare(back, video, 1));
	cJSON_Delete(back);
	free(body);
	assert_int_equal(pending(f, ACCOUNT_B, NULL), 0);

	/* Inside a caller's transaction it goes or stays with the caller. */
	assert_int_equal(store_begin(f->store), 0);
	webhook_notify(f->store, ACCOUNT_A, video);
	store_rollback(f->store);
	assert_int_equal(pending(f, ACCOUNT_A, NULL), 1);
	assert_int_equal(store_begin(f->store), 0);
	webhook_notify(f->store, ACCOUNT_A, video);
	assert_int_equal(store_commit(f->store), 0);
	assert_int_equal(pending(f, ACCOUNT_A, NULL), 2);

	/* Deleting the webhook drops what was waiting for it. */
	call(f, HTTP_DELETE, HOOK_A, NULL, &c);
	assert_int_equal(c.status, 200);
	routetest_call_free(&c);
	assert_int_equal(pending(f, ACCOUNT_A, NULL), 0);
	cJSON_Delete(video);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_known_answers),
		cmocka_unit_test(test_retry_schedule),
		cmocka_unit_test(test_url_check),
		cmocka_unit_test(test_range),
		cmocka_unit_test_setup_teardown(test_config, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue, setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
