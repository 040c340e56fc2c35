/*
 * Unit tests for http.c without a network: request preparation (URL,
 * headers, where the token goes), refusals before sending (read-only,
 * malformed requests), retries and the budget driven by simulated curl
 * results on a fake clock, redaction in logs and in the rendered curl
 * command, the request-log ring and the exit statuses.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <curl/curl.h>

#include "budget.h"
#include "common.h"
#include "http.h"
#include "log.h"
#include "retry.h"
#include "testclock.h"
#include "testlog.h"

#define TOKEN	"tok-Secret-0123456789abcdef"
#define BASE	"https://api.example.test/client/v4"
#define WALL	TESTCLOCK_WALL

static struct http_client *
client(struct testclock *f, int readonly, long long capacity, size_t log_size)
{
	struct http_hooks	 hooks = {
		.clock = testclock_clock, .wall = testclock_wall,
		.sleep = testclock_sleep, .jitter = testclock_jitter, .arg = f
	};
	struct http_options	 o = {
		.base_url = BASE "/", .token = TOKEN, .readonly = readonly,
		.max_retries = -1, .budget_capacity = capacity,
		.log_size = log_size, .hooks = &hooks
	};
	struct http_client	*c;
	char			*cause = NULL;

	memset(f, 0, sizeof *f);
	c = http_client_new(&o, &cause);
	assert_non_null(c);
	assert_null(cause);
	return (c);
}

static size_t
no_read(char *buf, size_t len, void *arg)
{
	(void)buf;
	(void)len;
	(void)arg;
	fail_msg("a body was read");
	return (0);
}

/* How many of the prepared headers contain s. */
static int
headers_with(const struct http_call *call, const char *s)
{
	const struct curl_slist	*l;
	int			 n = 0;

	for (l = http_call_headers(call); l != NULL; l = l->next)
		n += strstr(l->data, s) != NULL;
	return (n);
}

static int
has_header(const struct http_call *call, const char *line)
{
	const struct curl_slist	*l;

	for (l = http_call_headers(call); l != NULL; l = l->next) {
		if (strcmp(l->data, line) == 0)
			return (1);
	}
	return (0);
}

/* Prepare req and stop where it would be sent. */
static struct http_call *
prepare(struct http_client *c, const struct http_request *req)
{
	struct http_call	*call = http_call_new(c, req);
	CURL			*easy;
	long			 wait;

	assert_int_equal(http_call_next(call, &easy, &wait), HTTP_NEXT_SEND);
	assert_non_null(easy);
	return (call);
}

static void
test_prepare_headers(void **state)
{
	struct testclock	 f;
	struct http_client	*c = client(&f, 0, 0, 0);
	const char *const	 extra[] = { "X-Trace: 1", NULL };
	struct http_request	 req = { .method = "POST",
	    .path = "/zones/abc/rate_limits?page=2", .headers = extra,
	    .json = "{\"a\":1}" };
	struct http_call	*call;

	(void)state;
	call = prepare(c, &req);
	assert_string_equal(http_call_url(call),
	    BASE "/zones/abc/rate_limits?page=2");
	assert_true(has_header(call, "Authorization: Bearer " TOKEN));
	assert_int_equal(headers_with(call, TOKEN), 1);
	assert_null(strstr(http_call_url(call), TOKEN));
	assert_true(has_header(call, "User-Agent: " PACKAGE_NAME "/"
	    PACKAGE_VERSION));
	assert_true(has_header(call, "User-Agent: edgetui/" PACKAGE_VERSION));
	assert_true(has_header(call, "Accept: application/json"));
	assert_true(has_header(call, "Content-Type: application/json"));
	assert_true(has_header(call, "X-Trace: 1"));
	http_call_free(call);

	/* A caller's Content-Type wins over the default. */
	req.headers = (const char *const[]){ "Content-Type: text/x-yaml",
	    NULL };
	call = prepare(c, &req);
	assert_true(has_header(call, "Content-Type: text/x-yaml"));
	assert_int_equal(headers_with(call, "Content-Type"), 1);
	http_call_free(call);
	http_client_free(c);
}

static void
test_prepare_token_goes_home_only(void **state)
{
	struct testclock	 f;
	struct http_client	*c = client(&f, 0, 0, 0);
	struct http_request	 req = { .method = "PATCH",
	    .path = "https://API.example.test:443/client/v4/accounts/a/"
	    "stream/b", .headers = (const char *const[]){
	    "Tus-Resumable: 1.0.0", "Upload-Offset: 0", NULL },
	    .content_type = "application/offset+octet-stream" };
	struct http_call	*call;

	(void)state;
	req.read = no_read;		/* never called: nothing is sent */
	call = prepare(c, &req);
	assert_string_equal(http_call_url(call), req.path);
	assert_int_equal(headers_with(call, TOKEN), 1);
	assert_true(has_header(call, "Content-Type: "
	    "application/offset+octet-stream"));
	assert_true(has_header(call, "Upload-Offset: 0"));
	http_call_free(call);

	/* Another origin (host, port or scheme) never sees the token. */
	req.path = "https://upload.example.test/tus/abc";
	call = prepare(c, &req);
	assert_int_equal(headers_with(call, TOKEN), 0);
	assert_int_equal(headers_with(call, "Authorization"), 0);
	http_call_free(call);
	req.path = "http://api.example.test/client/v4/x";
	call = prepare(c, &req);
	assert_int_equal(headers_with(call, "Authorization"), 0);
	http_call_free(call);
	req.path = "https://api.example.test:8443/client/v4/x";
	call = prepare(c, &req);
	assert_int_equal(headers_with(call, "Authorization"), 0);
	http_call_free(call);

	/* noauth: a one-time upload URL. */
	req.path = "/accounts/a/stream/b";
	req.noauth = 1;
	call = prepare(c, &req);
	assert_int_equal(headers_with(call, "Authorization"), 0);
	http_call_free(call);
	http_client_free(c);
}

static void
test_no_token_no_header(void **state)
{
	struct http_options	 o = { .base_url = BASE, .max_retries = -1 };
	struct http_request	 req = { .method = "GET", .path = "/x" };
	struct http_client	*c;
	struct http_call	*call;
	char			*cause = NULL;

	(void)state;
	c = http_client_new(&o, &cause);
	assert_non_null(c);
	call = prepare(c, &req);
	assert_int_equal(headers_with(call, "Authorization"), 0);
	http_call_free(call);
	http_client_free(c);
}

static void
test_bad_base_url(void **state)
{
	const char *const	 bad[] = { NULL, "", "api.example.test",
	    "ftp://api.example.test/", "file:///etc/passwd", "https://" };
	struct http_options	 o = { .max_retries = -1 };
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		o.base_url = bad[i];
		assert_null(http_client_new(&o, &cause));
		assert_non_null(cause);
		assert_non_null(strstr(cause, "not an http(s) URL"));
		free(cause);
	}
}

static void
test_readonly_refuses_mutations(void **state)
{
	static const char *const mutating[] = { "POST", "PUT", "PATCH",
	    "DELETE" };
	static const char *const safe[] = { "GET", "HEAD", "OPTIONS" };
	struct testclock	 f;
	struct http_client	*c = client(&f, 1, 0, 0);
	struct http_request	 req = { .path = "/zones/z/rate_limits/r" };
	struct http_response	 resp;
	struct http_call	*call;
	char			*cause, *want;
	size_t			 i;
	long			 before = http_budget_left(c);

	(void)state;
	for (i = 0; i < nitems(mutating); i++) {
		req.method = mutating[i];
		req.json = strcmp(mutating[i], "DELETE") == 0 ? NULL : "{}";
		cause = NULL;
		assert_int_equal(http_perform(c, &req, &resp, &cause),
		    STATUS_READONLY);
		assert_int_equal(resp.status, STATUS_READONLY);
		assert_int_equal(resp.attempts, 0);
		assert_int_equal(resp.http_status, 0);
		want = NULL;
		assert_true(asprintf(&want, "%s /zones/z/rate_limits/r",
		    mutating[i]) > 0);
		assert_non_null(strstr(cause, want));
		assert_non_null(strstr(cause, "read-only"));
		assert_int_equal(http_exit_status(resp.status,
		    resp.http_status), HTTP_EXIT_USAGE);
		free(want);
		free(cause);
		http_response_free(&resp);
		assert_true(http_method_mutates(mutating[i]));
	}
	/* Nothing was sent, so nothing was taken from the budget. */
	assert_int_equal(http_budget_left(c), before);
	req.json = NULL;
	for (i = 0; i < nitems(safe); i++) {
		req.method = safe[i];
		call = prepare(c, &req);
		http_call_free(call);
		assert_false(http_method_mutates(safe[i]));
	}
	http_client_free(c);
}

static void
test_invalid_requests(void **state)
{
	static const struct http_part	missing[] = {
		{ .name = "file", .file = "/nonexistent/edgetui/x.png" }
	};
	static const struct http_part	nameless[] = { { .value = "x" } };
	struct testclock		 f;
	struct http_client		*c = client(&f, 0, 0, 0);
	struct {
		struct http_request	 req;
		enum status		 st;
		const char		*says;
	} cases[] = {
		{ { .method = "FETCH", .path = "/x" }, STATUS_INVALID,
		    "unknown HTTP method" },
		{ { .method = NULL, .path = "/x" }, STATUS_INVALID,
		    "unknown HTTP method" },
		{ { .method = "GET", .path = "zones" }, STATUS_INVALID,
		    "neither a path" },
		{ { .method = "GET", .path = NULL }, STATUS_INVALID,
		    "neither a path" },
		{ { .method = "GET", .path = "/a b" }, STATUS_INVALID,
		    "neither a path" },
		{ { .method = "GET", .path = "/a\r\nX-Evil: 1" },
		    STATUS_INVALID, "neither a path" },
		{ { .method = "GET", .path = "/a", .headers =
		    (const char *const[]){ "X-A: 1\r\nX-Evil: 2", NULL } },
		    STATUS_INVALID, "control character" },
		{ { .method = "GET", .path = "/a", .headers =
		    (const char *const[]){ "NoColon", NULL } },
		    STATUS_INVALID, "Name: value" },
		{ { .method = "GET", .path = "/a", .headers =
		    (const char *const[]){ "authorization: Bearer x", NULL } },
		    STATUS_INVALID, "comes from the token" },
		{ { .method = "GET", .path = "/a", .json = "{}" },
		    STATUS_INVALID, "takes none" },
		{ { .method = "POST", .path = "/a", .json = "{}",
		    .parts = nameless, .nparts = 1 }, STATUS_INVALID,
		    "more than one body" },
		{ { .method = "POST", .path = "/a", .parts = nameless,
		    .nparts = 1 }, STATUS_INVALID, "needs a name" },
		{ { .method = "POST", .path = "/a", .parts = missing,
		    .nparts = 1 }, STATUS_IO, "/nonexistent/edgetui/x.png" },
		{ { .method = "GET", .path = "https://" }, STATUS_INVALID,
		    "not an http(s) URL" },
	};
	struct http_response	 resp;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		cause = NULL;
		assert_int_equal(http_perform(c, &cases[i].req, &resp, &cause),
		    cases[i].st);
		assert_int_equal(resp.attempts, 0);
		assert_non_null(cause);
		if (strstr(cause, cases[i].says) == NULL)
			fail_msg("case %zu: \"%s\"", i, cause);
		/* No control character ever reaches a message. */
		assert_null(strpbrk(cause, "\r\n"));
		assert_int_equal(http_exit_status(resp.status,
		    resp.http_status), HTTP_EXIT_USAGE);
		free(cause);
		http_response_free(&resp);
	}
	http_client_free(c);
}

/*
 * Drive a call with simulated curl results (nothing is performed): the
 * delays it asks for go to f->sleeps. Returns the final status.
 */
static enum status
simulate(struct http_client *c, struct testclock *f, const char *method,
    const CURLcode *results, size_t n, struct http_response *resp,
    char **cause)
{
	struct http_request	 req = { .method = method, .path = "/things",
	    .json = strcmp(method, "POST") == 0 ? "{}" : NULL };
	struct http_call	*call = http_call_new(c, &req);
	enum http_next		 next;
	enum status		 st;
	CURL			*easy;
	long			 wait;
	size_t			 i = 0;

	for (;;) {
		next = http_call_next(call, &easy, &wait);
		if (next == HTTP_NEXT_SEND) {
			assert_true(i < n);
			next = http_call_done(call, results[i++], &wait);
		}
		if (next == HTTP_NEXT_DONE)
			break;
		testclock_sleep(wait, f);
	}
	assert_int_equal(i, n);
	st = http_call_result(call, resp, cause);
	http_call_free(call);
	return (st);
}

static void
test_retries_from_curl_results(void **state)
{
	static const CURLcode	 refused[] = { CURLE_COULDNT_CONNECT,
	    CURLE_COULDNT_CONNECT, CURLE_COULDNT_CONNECT };
	static const CURLcode	 recv[] = { CURLE_RECV_ERROR };
	static const CURLcode	 bad_cert[] = {
	    CURLE_PEER_FAILED_VERIFICATION };
	static const CURLcode	 cancelled[] = {
	    CURLE_ABORTED_BY_CALLBACK };
	struct testclock	 f;
	struct http_client	*c = client(&f, 0, 0, 0);
	struct http_response	 resp;
	char			*cause = NULL;

	(void)state;
	/* A GET that cannot connect: 1 + 2 attempts, backoff 500, 1000. */
	assert_int_equal(simulate(c, &f, "GET", refused, 3, &resp, &cause),
	    STATUS_TRANSPORT);
	assert_int_equal(resp.attempts, 3);
	assert_int_equal(f.nsleeps, 2);
	assert_int_equal(f.sleeps[0], 500);
	assert_int_equal(f.sleeps[1], 1000);
	/* The bare detail; the request is in the fields. */
	assert_string_equal(cause, resp.detail);
	assert_string_equal(resp.method, "GET");
	assert_string_equal(resp.path, "/things");
	assert_null(strstr(cause, "/things"));
	assert_non_null(strstr(cause, "(3 attempts)"));
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_TRANSPORT);
	free(cause);
	http_response_free(&resp);

	/* A POST that never reached the server is sent again. */
	f.nsleeps = 0;
	assert_int_equal(simulate(c, &f, "POST", refused, 3, &resp, &cause),
	    STATUS_TRANSPORT);
	assert_int_equal(f.nsleeps, 2);
	free(cause);
	http_response_free(&resp);

	/* A POST whose answer was lost may have created something. */
	f.nsleeps = 0;
	assert_int_equal(simulate(c, &f, "POST", recv, 1, &resp, &cause),
	    STATUS_TRANSPORT);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(f.nsleeps, 0);
	free(cause);
	http_response_free(&resp);

	/* Neither a bad certificate nor a cancel is tried again. */
	assert_int_equal(simulate(c, &f, "GET", bad_cert, 1, &resp, &cause),
	    STATUS_TRANSPORT);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_TRANSPORT);
	free(cause);
	http_response_free(&resp);
	assert_int_equal(simulate(c, &f, "GET", cancelled, 1, &resp, &cause),
	    STATUS_CANCELLED);
	free(cause);
	http_response_free(&resp);
	assert_int_equal(f.nsleeps, 0);
	http_client_free(c);
}

static void
test_budget_wait_and_report(void **state)
{
	static const CURLcode	 lost[] = { CURLE_RECV_ERROR };
	struct testclock	 f;
	struct http_client	*c = client(&f, 0, 2, 0);
	struct http_request	 req = { .method = "GET", .path = "/b" };
	struct http_response	 resp;
	struct http_call	*call;
	CURL			*easy;
	long			 wait;
	char			*cause = NULL;
	char			 until[RETRY_UNTIL_LEN];

	(void)state;
	/* Two tokens, no refill on the fake clock: the third waits. */
	assert_int_equal(http_budget_left(c), 2);
	call = prepare(c, &req);
	http_call_free(call);
	call = prepare(c, &req);
	http_call_free(call);
	assert_int_equal(http_budget_left(c), 0);
	call = http_call_new(c, &req);
	assert_int_equal(http_call_next(call, &easy, &wait), HTTP_NEXT_WAIT);
	assert_null(easy);
	/* 2 per 300 s: one token every 150 s. */
	assert_true(wait >= 149000 && wait <= 150001);
	testclock_sleep(wait, &f);
	assert_int_equal(http_call_next(call, &easy, &wait), HTTP_NEXT_SEND);
	assert_int_equal(http_call_done(call, lost[0], &wait), HTTP_NEXT_WAIT);
	http_call_free(call);

	/* A wait past budget_wait_ms is reported, not slept. */
	http_client_free(c);
	{
		struct http_hooks	 hooks = { .clock = testclock_clock,
		    .wall = testclock_wall, .sleep = testclock_sleep,
		    .arg = &f };
		struct http_options	 o = { .base_url = BASE,
		    .token = TOKEN, .max_retries = -1, .budget_capacity = 1,
		    .budget_wait_ms = 1000, .hooks = &hooks };

		memset(&f, 0, sizeof f);
		c = http_client_new(&o, &cause);
		call = prepare(c, &req);
		http_call_free(call);
		assert_int_equal(http_perform(c, &req, &resp, &cause),
		    STATUS_RATE_LIMITED);
		assert_int_equal(f.nsleeps, 0);
		assert_int_equal(resp.attempts, 0);
		assert_int_equal(resp.until, WALL + 300);
		assert_non_null(strstr(cause, retry_until_text(WALL + 300,
		    until)));
		assert_non_null(strstr(cause, "rate-limited until"));
		assert_int_equal(http_exit_status(resp.status,
		    resp.http_status), HTTP_EXIT_REFUSED);
		free(cause);
		http_response_free(&resp);
	}
	http_client_free(c);
}

/* A shared budget is taken from by every client that holds it. */
static void
test_shared_budget(void **state)
{
	struct testclock	 f;
	struct budget		*b = budget_new(5, 0);
	struct http_hooks	 hooks = {
		.clock = testclock_clock, .arg = &f
	};
	struct http_options	 o = { .base_url = BASE, .max_retries = -1,
	    .budget = b, .hooks = &hooks };
	struct http_request	 req = { .method = "GET", .path = "/s" };
	struct http_client	*c1, *c2;
	char			*cause = NULL;

	(void)state;
	memset(&f, 0, sizeof f);
	c1 = http_client_new(&o, &cause);
	c2 = http_client_new(&o, &cause);
	assert_ptr_equal(http_client_budget(c1), b);
	http_call_free(prepare(c1, &req));
	http_call_free(prepare(c2, &req));
	assert_int_equal(budget_remaining(b, 0), 3);
	http_client_free(c1);
	http_client_free(c2);
	budget_free(b);
}

static void
test_log_lines_redacted(void **state)
{
	static const CURLcode	 refused[] = { CURLE_COULDNT_CONNECT,
	    CURLE_COULDNT_CONNECT, CURLE_COULDNT_CONNECT };
	struct testclock	 f;
	struct http_client	*c;
	struct http_request	 req = { .method = "POST",
	    .path = "/echo/" TOKEN, .json = "{\"token\":\"" TOKEN "\"}" };
	struct http_response	 resp;
	char			*cause = NULL, *s, *logged;

	(void)state;
	testlog_start();
	c = client(&f, 1, 0, 0);
	assert_int_equal(http_perform(c, &req, &resp, &cause),
	    STATUS_READONLY);
	assert_null(strstr(cause, TOKEN));
	assert_non_null(strstr(cause, "/echo/" HTTP_REDACTED));
	free(cause);
	http_response_free(&resp);
	http_client_free(c);

	c = client(&f, 0, 0, 0);
	assert_int_equal(simulate(c, &f, "GET", refused, 3, &resp, &cause),
	    STATUS_TRANSPORT);
	free(cause);
	http_response_free(&resp);
	logged = testlog_stop();

	assert_non_null(logged);
	/* Attempts, retries and the headers sent were all logged... */
	assert_non_null(strstr(logged, "GET /things: failed"));
	assert_non_null(strstr(logged, "(attempt 3, budget"));
	assert_non_null(strstr(logged, "retrying in 500 ms"));
	assert_non_null(strstr(logged, "> Authorization: Bearer "
	    HTTP_REDACTED));
	assert_non_null(strstr(logged, "> User-Agent: edgetui/"));
	/* ...and the token in none of them. */
	assert_null(strstr(logged, TOKEN));
	assert_null(strstr(logged, "Secret"));

	s = http_redact(c, "a " TOKEN " b " TOKEN);
	assert_string_equal(s, "a " HTTP_REDACTED " b " HTTP_REDACTED);
	free(s);
	/* A long token is hidden inside a word too. */
	s = http_redact(c, "x" TOKEN "y/" TOKEN TOKEN);
	assert_string_equal(s, "x" HTTP_REDACTED "y/" HTTP_REDACTED
	    HTTP_REDACTED);
	free(s);
	http_client_free(c);
	free(logged);
}

/* A client whose token is token. */
static struct http_client *
client_token(struct testclock *f, const char *token)
{
	struct http_hooks	 hooks = {
		.clock = testclock_clock, .wall = testclock_wall,
		.sleep = testclock_sleep, .jitter = testclock_jitter, .arg = f
	};
	struct http_options	 o = {
		.base_url = BASE "/", .token = token, .max_retries = -1,
		.hooks = &hooks
	};
	struct http_client	*c;
	char			*cause = NULL;

	memset(f, 0, sizeof *f);
	assert_non_null(c = http_client_new(&o, &cause));
	return (c);
}

static void
check_redact(struct http_client *c, const char *text, const char *want)
{
	char	*s = http_redact(c, text);

	assert_string_equal(s, want);
	free(s);
}

/*
 * A short token is hidden where it stands as a word of its own, not
 * inside words: a one-letter token leaves "entrypoint" whole.
 */
static void
test_redact_short_token(void **state)
{
	struct testclock	 f;
	struct http_client	*c;

	(void)state;
	c = client_token(&f, "y");
	check_redact(c, "GET /zones/z/rulesets/phases/http_ratelimit/"
	    "entrypoint: 404", "GET /zones/z/rulesets/phases/http_ratelimit/"
	    "entrypoint: 404");
	check_redact(c, "Bearer y", "Bearer " HTTP_REDACTED);
	check_redact(c, "y", HTTP_REDACTED);
	check_redact(c, "/y/yy/y", "/" HTTP_REDACTED "/yy/" HTTP_REDACTED);
	check_redact(c, "token \"y\" lacks", "token \"" HTTP_REDACTED
	    "\" lacks");
	http_client_free(c);
	c = client_token(&f, "ab-1");
	check_redact(c, "ab-12 xab-1 ab-1.", "ab-12 xab-1 " HTTP_REDACTED ".");
	http_client_free(c);
}

/* What sh makes of a rendered command, one argument per line. */
static char *
shell_words(const char *cmd)
{
	static char	 out[8192];
	char		*script;
	FILE		*p;
	size_t		 n;

	assert_true(asprintf(&script, "curl() { for a; do printf '%%s\\n' "
	    "\"$a\"; done; }; " HTTP_TOKEN_ENV "=" TOKEN "; %s", cmd) > 0);
	setenv("EDGE_SCRIPT", script, 1);
	p = popen("sh -c \"$EDGE_SCRIPT\"", "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	assert_int_equal(pclose(p), 0);
	unsetenv("EDGE_SCRIPT");
	free(script);
	return (out);
}

static void
test_curl_command(void **state)
{
	static const struct http_part parts[] = {
		{ .name = "name", .value = "it's mine" },
		{ .name = "file", .file = "/tmp/wm.png", .type = "image/png" },
	};
	struct testclock	 f;
	struct http_client	*c = client(&f, 0, 0, 0);
	struct http_request	 req = { .method = "PUT",
	    .path = "/zones/z/rate_limits/r",
	    .json = "{\"description\":\"it's " TOKEN "\"}" };
	char			*cmd, *words;

	(void)state;
	cmd = http_curl_command(c, &req);
	assert_null(strstr(cmd, TOKEN));
	assert_non_null(strstr(cmd,
	    "-H \"Authorization: Bearer $CLOUDFLARE_API_TOKEN\""));
	assert_non_null(strstr(cmd, "-X PUT '" BASE "/zones/z/rate_limits/r'"));
	/* The shell gets back exactly the request, token included. */
	words = shell_words(cmd);
	assert_non_null(strstr(words, "\nAuthorization: Bearer " TOKEN "\n"));
	assert_non_null(strstr(words, "\n{\"description\":\"it's " TOKEN
	    "\"}\n"));
	free(cmd);

	req.method = "POST";
	req.json = NULL;
	req.parts = parts;
	req.nparts = nitems(parts);
	cmd = http_curl_command(c, &req);
	words = shell_words(cmd);
	assert_non_null(strstr(words, "\n--form-string\nname=it's mine\n"));
	assert_non_null(strstr(words, "\n-F\nfile=@\"/tmp/wm.png\";"
	    "type=image/png\n"));
	free(cmd);

	req.method = "GET";
	req.nparts = 0;
	req.parts = NULL;
	req.path = "https://elsewhere.test/x";
	cmd = http_curl_command(c, &req);
	assert_string_equal(cmd, "curl -sS 'https://elsewhere.test/x'");
	free(cmd);
	http_client_free(c);
}

static void
test_log_ring_wraps(void **state)
{
	struct testclock	 f;
	struct http_client	*c = client(&f, 1, 0, 4);
	struct http_log_entry	 e[8];
	struct http_response	 resp;
	struct http_request	 req = { .method = "DELETE" };
	unsigned long		 total;
	char			 path[32], *cause;
	int			 i;

	(void)state;
	assert_int_equal(http_log_snapshot(c, e, nitems(e), &total), 0);
	assert_int_equal(total, 0);
	for (i = 0; i < 10; i++) {
		snprintf(path, sizeof path, "/p%d", i);
		req.path = path;
		f.now = i;
		cause = NULL;
		http_perform(c, &req, &resp, &cause);
		free(cause);
		http_response_free(&resp);
		if (i == 2) {
			assert_int_equal(http_log_snapshot(c, e, nitems(e),
			    &total), 3);
			assert_string_equal(e[0].path, "/p0");
			assert_string_equal(e[2].path, "/p2");
		}
	}
	assert_int_equal(http_log_snapshot(c, e, nitems(e), &total), 4);
	assert_int_equal(total, 10);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "/p%d", 6 + i);
		assert_string_equal(e[i].path, path);
		assert_string_equal(e[i].method, "DELETE");
		assert_int_equal(e[i].status, STATUS_READONLY);
		assert_int_equal(e[i].attempt, 0);
		assert_int_equal(e[i].time, WALL + 6 + i);
	}
	/* A smaller snapshot holds the newest. */
	assert_int_equal(http_log_snapshot(c, e, 2, NULL), 2);
	assert_string_equal(e[0].path, "/p8");
	assert_string_equal(e[1].path, "/p9");
	http_client_free(c);
}

static void
test_log_ring_attempts(void **state)
{
	static const CURLcode	 refused[] = { CURLE_COULDNT_CONNECT,
	    CURLE_COULDNT_CONNECT, CURLE_COULDNT_CONNECT };
	struct testclock	 f;
	struct http_client	*c = client(&f, 0, 0, 0);
	struct http_log_entry	 e[8];
	struct http_response	 resp;
	char			*cause = NULL;

	(void)state;
	simulate(c, &f, "GET", refused, 3, &resp, &cause);
	free(cause);
	http_response_free(&resp);
	assert_int_equal(http_log_snapshot(c, e, nitems(e), NULL), 3);
	assert_int_equal(e[0].attempt, 1);
	assert_int_equal(e[2].attempt, 3);
	assert_int_equal(e[2].status, STATUS_TRANSPORT);
	assert_int_equal(e[2].http_status, 0);
	assert_int_equal(e[0].budget_left, BUDGET_DEFAULT_CAPACITY - 1);
	http_client_free(c);
}

static void
test_exit_status(void **state)
{
	static const struct {
		enum status	 st;
		long		 http;
		int		 exit;
	} rows[] = {
		{ STATUS_OK, 200, HTTP_EXIT_OK },
		{ STATUS_OK, 0, HTTP_EXIT_OK },
		{ STATUS_SERVER, 500, HTTP_EXIT_REFUSED },
		{ STATUS_INVALID, 400, HTTP_EXIT_REFUSED },
		{ STATUS_NOT_FOUND, 404, HTTP_EXIT_REFUSED },
		{ STATUS_AUTH, 403, HTTP_EXIT_REFUSED },
		{ STATUS_GONE, 410, HTTP_EXIT_REFUSED },
		{ STATUS_PARSE, 200, HTTP_EXIT_REFUSED },
		{ STATUS_TOO_LARGE, 200, HTTP_EXIT_REFUSED },
		{ STATUS_RATE_LIMITED, 429, HTTP_EXIT_REFUSED },
		{ STATUS_RATE_LIMITED, 0, HTTP_EXIT_REFUSED },
		{ STATUS_INVALID, 0, HTTP_EXIT_USAGE },
		{ STATUS_USAGE, 0, HTTP_EXIT_USAGE },
		{ STATUS_READONLY, 0, HTTP_EXIT_USAGE },
		{ STATUS_IO, 0, HTTP_EXIT_USAGE },
		{ STATUS_TRANSPORT, 0, HTTP_EXIT_TRANSPORT },
		{ STATUS_TIMEOUT, 0, HTTP_EXIT_TRANSPORT },
		{ STATUS_CANCELLED, 0, HTTP_EXIT_TRANSPORT },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(rows); i++) {
		if (http_exit_status(rows[i].st, rows[i].http) != rows[i].exit)
			fail_msg("row %zu", i);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prepare_headers),
		cmocka_unit_test(test_prepare_token_goes_home_only),
		cmocka_unit_test(test_no_token_no_header),
		cmocka_unit_test(test_bad_base_url),
		cmocka_unit_test(test_readonly_refuses_mutations),
		cmocka_unit_test(test_invalid_requests),
		cmocka_unit_test(test_retries_from_curl_results),
		cmocka_unit_test(test_budget_wait_and_report),
		cmocka_unit_test(test_shared_budget),
		cmocka_unit_test(test_log_lines_redacted),
		cmocka_unit_test(test_redact_short_token),
		cmocka_unit_test(test_curl_command),
		cmocka_unit_test(test_log_ring_wraps),
		cmocka_unit_test(test_log_ring_attempts),
		cmocka_unit_test(test_exit_status),
	};
	int	rc;

	setenv("TZ", "UTC", 1);
	tzset();
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return (rc);
}
