/*
 * Integration tests for http.c: requests against a real edgemu (a list,
 * a create/update/delete round trip, a multipart upload, a TUS PATCH to an
 * absolute URL) and against faultd, which breaks replies on purpose:
 * Retry-After short and long, 5xx storms, POSTs that may or may not have
 * arrived, bodies that are no envelope, bodies too large, connections cut,
 * refused or stalled, the read-only guard, the budget and keep-alive. The
 * clock is fake: nothing sleeps, and nothing asserts a duration.
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
#include <unistd.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "faultd.h"
#include "http.h"
#include "itest.h"
#include "log.h"
#include "retry.h"
#include "testclock.h"
#include "testlog.h"

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

#define TOKEN	"fault-Token-9f8e7d6c5b4a"
#define WALL	TESTCLOCK_WALL
#define JSON_CT	"Content-Type: application/json\r\n"
#define OK_BODY	"{\"success\":true,\"errors\":[],\"messages\":[]," \
		"\"result\":{\"id\":\"r1\"}}"
#define RULE	"{\"description\":\"http.c test\",\"match\":{\"request\":" \
		"{\"url\":\"example.com/api/*\"}},\"threshold\":10," \
		"\"period\":60,\"action\":{\"mode\":\"simulate\"," \
		"\"timeout\":60}}"

/* The fake clock, and a faultd that listens from its first sleep on. */
struct fake {
	struct testclock  clock;	/* first: the hooks' argument is this */
	/* Reserved (refusing connections) until the first sleep. */
	struct faultd	 *late;
};

static void
fake_sleep(long ms, void *arg)
{
	struct fake	*f = arg;

	testclock_sleep(ms, &f->clock);
	if (f->late != NULL)
		assert_int_equal(faultd_listen(f->late), 0);
}

struct opts {
	int		 readonly;
	long long	 capacity;
	long		 timeout_ms;
};

static struct http_client *
client_for(const char *url, const char *token, struct fake *f,
    const struct opts *o)
{
	struct http_hooks	 hooks = {
		.clock = testclock_clock, .wall = testclock_wall,
		.sleep = fake_sleep, .jitter = testclock_jitter, .arg = f
	};
	struct http_options	 ho = {
		.base_url = url, .token = token, .max_retries = -1,
		.hooks = &hooks
	};
	struct http_client	*c;
	char			*cause = NULL;

	if (o != NULL) {
		ho.readonly = o->readonly;
		ho.budget_capacity = o->capacity;
		ho.timeout_ms = o->timeout_ms;
	}
	c = http_client_new(&ho, &cause);
	if (c == NULL)
		fail_msg("http_client_new: %s", cause);
	return (c);
}

/* A faultd with a script and a client for it. */
struct rig {
	struct fake		 f;
	struct faultd		*fd;
	struct http_client	*c;
};

static void
rig_start(struct rig *r, const struct faultd_reply *script, size_t n,
    const struct opts *o)
{
	memset(r, 0, sizeof *r);
	r->fd = faultd_start(0);
	assert_non_null(r->fd);
	if (n > 0)
		faultd_script(r->fd, script, n);
	r->c = client_for(faultd_url(r->fd), TOKEN, &r->f, o);
}

static void
rig_finish(struct rig *r)
{
	http_client_free(r->c);
	faultd_free(r->fd);
	faultd_free(r->f.late);
}

static enum status
get(struct http_client *c, const char *path, struct http_response *resp,
    char **cause)
{
	struct http_request	req = { .method = "GET", .path = path };

	*cause = NULL;
	return (http_perform(c, &req, resp, cause));
}

static void
assert_printable(const char *s)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fail_msg("control character 0x%02x in \"%s\"", *p, s);
	}
}

/* ---- against edgemu ---------------------------------------------------- */

static void
test_edgemu_get_operations(void **state)
{
	struct edgemu		*e = *state;
	struct fake		 f;
	struct http_client	*c;
	struct http_response	 resp;
	const cJSON		*op;
	char			*path, *cause = NULL;

	memset(&f, 0, sizeof f);
	c = client_for(e->url, e->token, &f, NULL);
	path = itest_printf("/zones/%s/api_gateway/operations?per_page=5",
	    e->zone);
	if (get(c, path, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(resp.http_status, 200);
	assert_int_equal(resp.attempts, 1);
	assert_true(cJSON_IsArray(resp.api.result));
	assert_true(cJSON_GetArraySize(resp.api.result) > 0);
	cJSON_ArrayForEach(op, resp.api.result) {
		assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(op,
		    "operation_id")));
	}
	assert_true(resp.api.has_info);
	assert_true(resp.api.total_count > 0);
	assert_non_null(http_response_header(&resp, "content-type"));
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_OK);
	http_response_free(&resp);

	/* A wrong token: the server's refusal, exit status 1. */
	http_client_free(c);
	c = client_for(e->url, "not-the-token", &f, NULL);
	assert_int_equal(get(c, path, &resp, &cause), STATUS_AUTH);
	assert_true(resp.http_status == 401 || resp.http_status == 403);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	assert_null(strstr(cause, "not-the-token"));
	free(cause);
	http_response_free(&resp);
	http_client_free(c);
	free(path);
}

static void
test_edgemu_round_trip(void **state)
{
	struct edgemu		*e = *state;
	struct fake		 f;
	struct http_client	*c;
	struct http_response	 resp;
	struct http_request	 req = { 0 };
	const cJSON		*v;
	char			*list, *item = NULL, *cause = NULL;
	char			*id, *body;

	memset(&f, 0, sizeof f);
	c = client_for(e->url, e->token, &f, NULL);
	list = itest_printf("/zones/%s/rate_limits", e->zone);

	req.method = "POST";
	req.path = list;
	req.json = RULE;
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("POST: %s", cause);
	v = cJSON_GetObjectItemCaseSensitive(resp.api.result, "id");
	assert_true(cJSON_IsString(v));
	id = strdup(v->valuestring);
	http_response_free(&resp);
	item = itest_printf("%s/%s", list, id);

	req.method = "PUT";
	req.path = item;
	body = itest_printf("{\"id\":\"%s\",\"description\":\"changed\","
	    "\"match\":{\"request\":{\"url\":\"example.com/api/*\"}},"
	    "\"threshold\":20,\"period\":60,\"action\":{\"mode\":"
	    "\"simulate\",\"timeout\":60}}", id);
	req.json = body;
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("PUT: %s", cause);
	http_response_free(&resp);

	assert_int_equal(get(c, item, &resp, &cause), STATUS_OK);
	v = cJSON_GetObjectItemCaseSensitive(resp.api.result, "description");
	assert_string_equal(v->valuestring, "changed");
	v = cJSON_GetObjectItemCaseSensitive(resp.api.result, "threshold");
	assert_int_equal(v->valueint, 20);
	http_response_free(&resp);

	req.method = "DELETE";
	req.json = NULL;
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("DELETE: %s", cause);
	http_response_free(&resp);

	/* Gone: a 404 with the server's message, not retried. */
	assert_int_equal(get(c, item, &resp, &cause), STATUS_NOT_FOUND);
	assert_int_equal(resp.attempts, 1);
	/* The bare detail; the request is in the fields. */
	assert_string_equal(cause, resp.detail);
	assert_int_equal(strncmp(cause, "HTTP 404: ", 10), 0);
	assert_string_equal(resp.method, "GET");
	assert_string_equal(resp.path, item);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	free(cause);
	http_response_free(&resp);

	/* A malformed create: the server's validation message. */
	req.method = "POST";
	req.path = list;
	req.json = "{\"threshold\":0}";
	cause = NULL;
	assert_int_equal(http_perform(c, &req, &resp, &cause),
	    STATUS_INVALID);
	assert_int_equal(resp.http_status, 400);
	assert_true(resp.api.nerrors > 0);
	assert_true(resp.api.errors[0].code >= 1000);
	free(cause);
	http_response_free(&resp);

	free(body);
	free(id);
	free(item);
	free(list);
	http_client_free(c);
}

static const char pets_json[] =
	"{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Pets\","
	"\"version\":\"1.0\"},\"servers\":[{\"url\":"
	"\"https://pets.example.com/v2\"}],\"paths\":{"
	"\"/pets\":{\"get\":{},\"post\":{}}}}";

static char *
write_temp(const char *name, const char *text)
{
	char	*path;
	FILE	*fp;

	path = itest_printf("/tmp/edgetui-http-%d-%s", (int)getpid(), name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return (path);
}

static void
test_edgemu_multipart(void **state)
{
	struct edgemu		*e = *state;
	struct fake		 f;
	struct http_client	*c;
	struct http_response	 resp;
	char			*file = write_temp("pets.json", pets_json);
	struct http_part	 parts[] = {
		{ .name = "file", .file = file, .type = "application/json" },
		{ .name = "kind", .value = "openapi_v3" },
		{ .name = "validation_enabled", .value = "true" },
	};
	struct http_request	 req = { .method = "POST", .parts = parts,
	    .nparts = nitems(parts) };
	const cJSON		*s, *v;
	char			*cause = NULL;

	memset(&f, 0, sizeof f);
	c = client_for(e->url, e->token, &f, NULL);
	req.path = itest_printf("/zones/%s/api_gateway/user_schemas", e->zone);
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	s = cJSON_GetObjectItemCaseSensitive(resp.api.result, "schema");
	v = cJSON_GetObjectItemCaseSensitive(s, "kind");
	assert_true(cJSON_IsString(v));
	assert_string_equal(v->valuestring, "openapi_v3");
	/* The file part's name went with it. */
	v = cJSON_GetObjectItemCaseSensitive(s, "name");
	assert_true(cJSON_IsString(v));
	assert_non_null(strstr(v->valuestring, "pets.json"));
	v = cJSON_GetObjectItemCaseSensitive(s, "source");
	assert_string_equal(v->valuestring, pets_json);
	http_response_free(&resp);
	free((char *)req.path);
	http_client_free(c);
	unlink(file);
	free(file);
}

/* An upload body from memory through the read and seek callbacks. */
struct source {
	const char	*data;
	size_t		 len;
	size_t		 off;
	int		 seeks;
	int		 reads;
};

static size_t
source_read(char *buf, size_t len, void *arg)
{
	struct source	*s = arg;
	size_t		 n = s->len - s->off;

	if (n > len)
		n = len;

	memcpy(buf, s->data + s->off, n);
	s->off += n;
	s->reads++;
	return (n);
}

static int
source_seek(void *arg, long long offset)
{
	struct source	*s = arg;

	if (offset < 0 || (size_t)offset > s->len)
		return (-1);
	s->off = (size_t)offset;
	s->seeks++;
	return (0);
}

static void
test_edgemu_tus_patch(void **state)
{
	static char		 data[300000];
	struct edgemu		*e = *state;
	struct fake		 f;
	struct http_client	*c;
	struct http_response	 resp;
	struct source		 src = { data, sizeof data, 0, 0, 0 };
	const char *const	 create[] = { "Tus-Resumable: 1.0.0",
	    "Upload-Length: 300000", NULL };
	const char *const	 patch[] = { "Tus-Resumable: 1.0.0",
	    "Upload-Offset: 0", NULL };
	struct http_request	 req = { .method = "POST",
	    .headers = create };
	const char		*loc;
	char			*location, *cause = NULL;

	memset(data, 'v', sizeof data);
	memset(&f, 0, sizeof f);
	c = client_for(e->url, e->token, &f, NULL);
	req.path = itest_printf("/accounts/%s/stream", e->account);
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(resp.http_status, 201);
	loc = http_response_header(&resp, "location");
	assert_non_null(loc);
	assert_non_null(http_response_header(&resp, "STREAM-MEDIA-ID"));
	location = strdup(loc);
	http_response_free(&resp);
	free((char *)req.path);

	/* The Location is absolute; the token still goes with it. */
	memset(&req, 0, sizeof req);
	req.method = "PATCH";
	req.path = location;
	req.headers = patch;
	req.read = source_read;
	req.seek = source_seek;
	req.read_arg = &src;
	req.read_len = sizeof data;
	req.content_type = "application/offset+octet-stream";
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(resp.http_status, 204);
	assert_string_equal(http_response_header(&resp, "upload-offset"),
	    "300000");
	http_response_free(&resp);

	memset(&req, 0, sizeof req);
	req.method = "HEAD";
	req.path = location;
	req.headers = patch;	/* Tus-Resumable; the offset is ignored */
	req.raw = 1;
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_string_equal(http_response_header(&resp, "Upload-Offset"),
	    "300000");
	http_response_free(&resp);
	free(location);
	http_client_free(c);
}

/* ---- retries ----------------------------------------------------------- */

static void
test_retry_after_honoured(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 429, .headers = JSON_CT "Retry-After: 1\r\n",
		  .body = "{\"success\":false,\"errors\":[{\"code\":10000,"
		  "\"message\":\"slow down\"}],\"result\":null}" },
		{ .headers = JSON_CT "Ratelimit: \"default\";r=49;t=30\r\n",
		  .body = OK_BODY },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	if (get(r.c, "/things", &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(r.f.clock.nsleeps, 1);
	assert_int_equal(r.f.clock.sleeps[0], 1000);
	assert_int_equal(resp.attempts, 2);
	assert_int_equal(faultd_count(r.fd), 2);
	assert_int_equal(resp.ratelimit_remaining, 49);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_retry_after_ms_preferred(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 503, .headers = "Retry-After: 3\r\n"
		  "retry-after-ms: 250\r\n" },
		{ .headers = JSON_CT, .body = OK_BODY },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause), STATUS_OK);
	assert_int_equal(r.f.clock.nsleeps, 1);
	assert_int_equal(r.f.clock.sleeps[0], 250);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_retry_after_long_reported(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 429, .headers = JSON_CT "Retry-After: 120\r\n",
		  .body = "{\"success\":false,\"errors\":[{\"code\":10000,"
		  "\"message\":\"rate limited\"}],\"result\":null}" },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause, until[RETRY_UNTIL_LEN], *want;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause),
	    STATUS_RATE_LIMITED);
	assert_int_equal(r.f.clock.nsleeps, 0);
	assert_int_equal(faultd_count(r.fd), 1);
	assert_int_equal(resp.until, WALL + 120);
	want = itest_printf("rate-limited until %s",
	    retry_until_text(WALL + 120, until));
	if (strstr(cause, want) == NULL)
		fail_msg("\"%s\" lacks \"%s\"", cause, want);
	assert_non_null(strstr(cause, "rate limited [10000]"));
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	/* Our budget is held empty as long: the next call is reported. */
	assert_int_equal(http_budget_left(r.c), 0);
	free(cause);
	http_response_free(&resp);
	assert_int_equal(get(r.c, "/other", &resp, &cause),
	    STATUS_RATE_LIMITED);
	assert_int_equal(resp.attempts, 0);
	assert_int_equal(r.f.clock.nsleeps, 0);
	assert_int_equal(faultd_count(r.fd), 1);
	assert_non_null(strstr(cause, want));
	assert_non_null(strstr(cause, "HTTP 429"));
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	free(want);
	free(cause);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_5xx_storm(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 503, .headers = JSON_CT,
		  .body = "{\"success\":false,\"errors\":[{\"code\":1234,"
		  "\"message\":\"overloaded\"}],\"result\":null}" },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause), STATUS_SERVER);
	assert_int_equal(faultd_count(r.fd), 3);
	assert_int_equal(resp.attempts, 3);
	assert_int_equal(resp.http_status, 503);
	assert_int_equal(r.f.clock.nsleeps, 2);
	assert_int_equal(r.f.clock.sleeps[0], 500);
	assert_int_equal(r.f.clock.sleeps[1], 1000);
	assert_non_null(strstr(cause, "HTTP 503: overloaded [1234]"));
	assert_non_null(strstr(cause, "(3 attempts)"));
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	free(cause);
	http_response_free(&resp);
	rig_finish(&r);
}

/*
 * A conflict stays until something else changes (a caption still being
 * generated): one attempt, its message without "(3 attempts)".
 */
static void
test_409_not_retried(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 409, .headers = JSON_CT,
		  .body = "{\"success\":false,\"errors\":[{\"code\":10409,"
		  "\"message\":\"still being generated\"}],\"result\":null}" },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause), STATUS_CONFLICT);
	assert_int_equal(faultd_count(r.fd), 1);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(r.f.clock.nsleeps, 0);
	assert_non_null(strstr(cause, "still being generated [10409]"));
	assert_null(strstr(cause, "attempts"));
	free(cause);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_post_503_not_retried(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 503, .headers = JSON_CT,
		  .body = "{\"success\":false,\"errors\":[{\"code\":1,"
		  "\"message\":\"busy\"}]}" },
	};
	struct rig		 r;
	struct http_request	 req = { .method = "POST", .path = "/things",
	    .json = "{\"name\":\"x\"}" };
	struct http_response	 resp;
	char			*cause = NULL;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(http_perform(r.c, &req, &resp, &cause),
	    STATUS_SERVER);
	assert_int_equal(faultd_count(r.fd), 1);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(r.f.clock.nsleeps, 0);
	free(cause);
	http_response_free(&resp);

	/* A PUT may be sent again: it says what to be, not what to add. */
	req.method = "PUT";
	assert_int_equal(http_perform(r.c, &req, &resp, &cause),
	    STATUS_SERVER);
	assert_int_equal(faultd_count(r.fd), 1 + 3);
	free(cause);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_post_refused_is_retried(void **state)
{
	struct fake		 f;
	struct http_client	*c;
	struct http_request	 req = { .method = "POST", .path = "/things",
	    .json = "{\"name\":\"once\"}" };
	struct http_response	 resp;
	struct faultd_request	 fr;
	char			*url, *cause = NULL;

	(void)state;
	memset(&f, 0, sizeof f);
	/* A port held but not listened on (a port freed instead could be
	 * taken by another test's server meanwhile). */
	assert_non_null(f.late = faultd_reserve());
	url = strdup(faultd_url(f.late));
	c = client_for(url, TOKEN, &f, NULL);
	/* Refused: nothing arrived, so the POST goes again after a backoff,
	 * during which faultd starts listening on that port. */
	if (http_perform(c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(resp.attempts, 2);
	assert_int_equal(f.clock.nsleeps, 1);
	assert_non_null(f.late);
	assert_int_equal(faultd_count(f.late), 1);
	assert_int_equal(faultd_request(f.late, 0, &fr), 0);
	assert_string_equal(fr.method, "POST");
	assert_string_equal(fr.body, "{\"name\":\"once\"}");
	faultd_request_free(&fr);
	http_response_free(&resp);
	http_client_free(c);
	faultd_free(f.late);
	free(url);
}

static void
test_connect_refused(void **state)
{
	struct fake		 f;
	struct faultd		*held;
	struct http_client	*c;
	struct http_response	 resp;
	char			*url, *cause;

	(void)state;
	memset(&f, 0, sizeof f);
	/* Held, never listened on: refused on every attempt. */
	assert_non_null(held = faultd_reserve());
	url = itest_printf("%s/client/v4", faultd_url(held));
	c = client_for(url, TOKEN, &f, NULL);
	assert_int_equal(get(c, "/things", &resp, &cause), STATUS_TRANSPORT);
	assert_int_equal(resp.http_status, 0);
	assert_int_equal(resp.attempts, 3);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_TRANSPORT);
	/* The bare detail; the request is in the fields. */
	assert_string_equal(cause, resp.detail);
	assert_string_equal(resp.method, "GET");
	assert_string_equal(resp.path, "/things");
	assert_null(strstr(cause, "/things"));
	assert_non_null(strstr(cause, "connect"));
	assert_null(strstr(cause, TOKEN));
	/* curl's reason once: its detail without the reason again. */
	assert_non_null(strstr(cause, "Couldn't connect to server"));
	assert_null(strstr(strstr(cause, "Couldn't connect to server") + 1,
	    "Couldn't connect to server"));
	assert_int_equal(faultd_count(held), 0);
	free(cause);
	http_response_free(&resp);
	http_client_free(c);
	faultd_free(held);
	free(url);
}

/* ---- bodies that are no envelope --------------------------------------- */

static void
test_bad_bodies(void **state)
{
	static const struct {
		struct faultd_reply	 reply;
		enum status		 st;
		const char		*says;
		int			 attempts;
	} cases[] = {
		{ { .headers = JSON_CT, .body = "{\"success\":true,"
		    "\"result\":{\"id\":\"abc" }, STATUS_PARSE,
		    "HTTP 200 with truncated JSON (35 bytes)", 1 },
		{ { .status = 502, .headers = "Content-Type: text/html\r\n",
		    .body = "<html><head><title>502 Bad Gateway</title></head>"
		    "<body><center><h1>502 Bad Gateway</h1></center>"
		    "<hr><center>nginx</center></body></html>" },
		    STATUS_SERVER, "HTTP 502 Bad Gateway with a body that is "
		    "not JSON (text/html?: \"502 Bad Gateway\")", 3 },
		{ { .status = 400, .headers = JSON_CT,
		    .body = "{\"success\":false,\"errors\":[{\"code\":1001,"
		    "\"message\":\"bad \xff\xfe name\"}],\"result\":null}" },
		    STATUS_INVALID, "bad \xef\xbf\xbd\xef\xbf\xbd name [1001]",
		    1 },
		{ { .status = 400, .headers = JSON_CT,
		    .body = "{\"success\":false,\"errors\":[{\"code\":1002,"
		    "\"message\":\"red \\u001b[31mALERT\\u0007\\u009b "
		    "\\r\\nX\"}],\"result\":null}" },
		    STATUS_INVALID, "red ?[31mALERT?? ??X [1002]", 1 },
		{ { .headers = "Content-Type: application/octet-stream\r\n",
		    .body = "\x01\x02\x1b[2J\x1b]0;pwned\x07", },
		    STATUS_PARSE, "(binary data?)", 1 },
		{ { .headers = JSON_CT, .body = "[1,2,3]" }, STATUS_PARSE,
		    "not an API envelope (an array)", 1 },
		{ { .headers = JSON_CT, .body = "{\"success\":false,"
		    "\"errors\":[],\"result\":null}" }, STATUS_SERVER,
		    "success:false without an error message", 1 },
		{ { .status = 500 }, STATUS_SERVER,
		    "HTTP 500 Internal Server Error with an empty body", 3 },
		{ { .status = 410, .headers = JSON_CT,
		    .body = "{\"success\":false,\"errors\":[{\"code\":1,"
		    "\"message\":\"gone\"}]}" }, STATUS_GONE, "Rulesets", 1 },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		rig_start(&r, &cases[i].reply, 1, NULL);
		if (get(r.c, "/zones/0123/rate_limits", &resp, &cause) !=
		    cases[i].st)
			fail_msg("case %zu: %s", i, cause);
		if (strstr(cause, cases[i].says) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, cause,
			    cases[i].says);
		assert_printable(cause);
		assert_int_equal(faultd_count(r.fd), cases[i].attempts);
		assert_int_equal(http_exit_status(resp.status,
		    resp.http_status), HTTP_EXIT_REFUSED);
		free(cause);
		http_response_free(&resp);
		rig_finish(&r);
	}
}

static void
test_huge_body(void **state)
{
	static const struct faultd_reply script[] = {
		{ .act = FAULTD_HUGE, .huge = 100ULL * 1024 * 1024,
		  .headers = JSON_CT },
		{ .act = FAULTD_HUGE, .huge = 100ULL * 1024 * 1024,
		  .headers = JSON_CT, .chunked = 1 },
	};
	struct rig		 r;
	struct http_response	 resp;
	struct faultd_request	 fr;
	char			*cause;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	/* Announced: refused from the header, the body not read. */
	assert_int_equal(get(r.c, "/big", &resp, &cause), STATUS_TOO_LARGE);
	assert_non_null(strstr(cause, "announces 104857600 bytes, over the "
	    "limit of 32.0 MiB: not read"));
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	free(cause);
	http_response_free(&resp);
	/* Chunked: read up to the cap, then the connection is dropped. */
	assert_int_equal(get(r.c, "/big", &resp, &cause), STATUS_TOO_LARGE);
	assert_non_null(strstr(cause, "larger than the limit of 32.0 MiB: "
	    "stopped reading"));
	assert_int_equal(resp.attempts, 1);
	free(cause);
	http_response_free(&resp);
	faultd_stop(r.fd);
	assert_int_equal(faultd_count(r.fd), 2);
	assert_int_equal(faultd_request(r.fd, 0, &fr), 0);
	assert_true(fr.sent < API_BODY_MAX);
	faultd_request_free(&fr);
	assert_int_equal(faultd_request(r.fd, 1, &fr), 0);
	/* What the socket buffers took past the cap, not the 100 MiB. */
	assert_true(fr.sent < 2 * API_BODY_MAX);
	faultd_request_free(&fr);
	rig_finish(&r);
}

static void
test_cut_mid_body(void **state)
{
	static const struct faultd_reply script[] = {
		{ .act = FAULTD_CUT, .headers = JSON_CT, .body = OK_BODY,
		  .cut = 20 },
		{ .headers = JSON_CT, .body = OK_BODY },
	};
	static const struct faultd_reply always[] = {
		{ .act = FAULTD_CUT, .headers = JSON_CT, .body = OK_BODY,
		  .cut = 20 },
	};
	struct rig		 r;
	struct http_request	 req = { .method = "POST", .path = "/things",
	    .json = "{}" };
	struct http_response	 resp;
	char			*cause;

	(void)state;
	/* A GET cut short is read again. */
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause), STATUS_OK);
	assert_int_equal(resp.attempts, 2);
	assert_int_equal(faultd_count(r.fd), 2);
	http_response_free(&resp);
	rig_finish(&r);

	rig_start(&r, always, nitems(always), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause), STATUS_TRANSPORT);
	assert_int_equal(resp.attempts, 3);
	assert_int_equal(resp.http_status, 0);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_TRANSPORT);
	free(cause);
	http_response_free(&resp);
	/* A POST whose answer was cut may have created something. */
	cause = NULL;
	assert_int_equal(http_perform(r.c, &req, &resp, &cause),
	    STATUS_TRANSPORT);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(faultd_count(r.fd), 3 + 1);
	free(cause);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_closed_without_answer(void **state)
{
	static const struct faultd_reply script[] = {
		{ .act = FAULTD_CLOSE },
		{ .headers = JSON_CT, .body = OK_BODY },
	};
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/things", &resp, &cause), STATUS_OK);
	assert_int_equal(resp.attempts, 2);
	http_response_free(&resp);
	rig_finish(&r);
}

static void
test_stall_and_drip(void **state)
{
	static const struct faultd_reply script[] = {
		{ .act = FAULTD_STALL, .headers = JSON_CT, .body = OK_BODY,
		  .cut = 10 },
		{ .act = FAULTD_DRIP, .headers = JSON_CT, .body = OK_BODY,
		  .drip_ms = 1 },
	};
	struct opts		 o = { .timeout_ms = 300 };
	struct rig		 r;
	struct http_client	*patient;
	struct http_request	 req = { .method = "GET", .path = "/slow",
	    .no_retry = 1 };
	struct http_response	 resp;
	char			*cause = NULL;

	(void)state;
	rig_start(&r, script, nitems(script), &o);
	/* The stall ends at the (short, for the test) total timeout. */
	assert_int_equal(http_perform(r.c, &req, &resp, &cause),
	    STATUS_TIMEOUT);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_TRANSPORT);
	free(cause);
	http_response_free(&resp);
	/* A slow drip is still a whole answer: it trips no idle or speed
	 * limit. Asked by a client without the short total timeout, which a
	 * loaded machine could overrun while the bytes come a millisecond
	 * apart. */
	patient = client_for(faultd_url(r.fd), TOKEN, &r.f, NULL);
	if (http_perform(patient, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(resp.attempts, 1);
	http_response_free(&resp);
	http_client_free(patient);
	rig_finish(&r);
}

/* ---- what is sent ------------------------------------------------------- */

static void
test_request_as_sent(void **state)
{
	struct rig		 r;
	struct http_request	 req = { .method = "PATCH",
	    .path = "/zones/z/things/1?x=1", .json = "{\"a\":\"b\"}",
	    .headers = (const char *const[]){ "X-Extra: yes", NULL } };
	struct http_response	 resp;
	struct faultd_request	 fr;
	char			*cause = NULL, *v, *all;

	(void)state;
	rig_start(&r, NULL, 0, NULL);
	assert_int_equal(http_perform(r.c, &req, &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	assert_int_equal(faultd_request(r.fd, 0, &fr), 0);
	assert_string_equal(fr.method, "PATCH");
	assert_string_equal(fr.path, "/zones/z/things/1?x=1");
	assert_string_equal(fr.body, "{\"a\":\"b\"}");
	v = faultd_header(&fr, "Authorization");
	assert_string_equal(v, "Bearer " TOKEN);
	free(v);
	v = faultd_header(&fr, "User-Agent");
	assert_string_equal(v, "edgetui/" PACKAGE_VERSION);
	free(v);
	v = faultd_header(&fr, "Content-Type");
	assert_string_equal(v, "application/json");
	free(v);
	v = faultd_header(&fr, "X-Extra");
	assert_string_equal(v, "yes");
	free(v);
	/* The token is in the Authorization header and nowhere else. */
	all = itest_printf("%s %s\n%s\n%s", fr.method, fr.path, fr.headers,
	    fr.body);
	assert_non_null(strstr(all, TOKEN));
	assert_null(strstr(strstr(all, TOKEN) + 1, TOKEN));
	free(all);
	faultd_request_free(&fr);
	rig_finish(&r);
}

static void
test_multipart_as_sent(void **state)
{
	struct rig		 r;
	char			*file = write_temp("wm.png", "PNGDATA-123");
	struct http_part	 parts[] = {
		{ .name = "file", .file = file, .filename = "mark.png",
		  .type = "image/png" },
		{ .name = "name", .value = "my mark" },
		{ .name = "opacity", .value = "0.5" },
	};
	struct http_request	 req = { .method = "POST",
	    .path = "/accounts/a/stream/watermarks", .parts = parts,
	    .nparts = nitems(parts) };
	struct http_response	 resp;
	struct faultd_request	 fr;
	char			*cause = NULL, *v;

	(void)state;
	rig_start(&r, NULL, 0, NULL);
	assert_int_equal(http_perform(r.c, &req, &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	assert_int_equal(faultd_request(r.fd, 0, &fr), 0);
	v = faultd_header(&fr, "Content-Type");
	assert_true(strncmp(v, "multipart/form-data; boundary=", 30) == 0);
	free(v);
	assert_non_null(strstr(fr.body,
	    "name=\"file\"; filename=\"mark.png\""));
	assert_non_null(strstr(fr.body, "Content-Type: image/png"));
	assert_non_null(strstr(fr.body, "PNGDATA-123"));
	assert_non_null(strstr(fr.body, "name=\"name\"\r\n\r\nmy mark\r\n"));
	assert_non_null(strstr(fr.body, "name=\"opacity\"\r\n\r\n0.5\r\n"));
	faultd_request_free(&fr);
	rig_finish(&r);
	unlink(file);
	free(file);
}

static void
test_upload_retry_rewinds(void **state)
{
	static char			 data[100000];
	static const struct faultd_reply script[] = {
		{ .status = 503 },
		{ .status = 204, .headers = "Tus-Resumable: 1.0.0\r\n"
		  "Upload-Offset: 100000\r\n" },
	};
	static const struct faultd_reply fail[] = { { .status = 503 } };
	struct rig		 r;
	struct source		 src = { data, sizeof data, 0, 0, 0 };
	const char *const	 tus[] = { "Tus-Resumable: 1.0.0",
	    "Upload-Offset: 0", NULL };
	struct http_request	 req = { .method = "PATCH", .headers = tus,
	    .read = source_read, .seek = source_seek, .read_arg = &src,
	    .read_len = sizeof data,
	    .content_type = "application/offset+octet-stream" };
	struct http_response	 resp;
	struct faultd_request	 fr;
	char			*cause = NULL, *url, *v;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof data; i++)
		data[i] = (char)('a' + i % 26);
	rig_start(&r, script, nitems(script), NULL);
	/* An absolute URL on the client's own origin. */
	url = itest_printf("%s/tus/abc", faultd_url(r.fd));
	req.path = url;
	if (http_perform(r.c, &req, &resp, &cause) != STATUS_OK)
		fail_msg("%s", cause);
	assert_int_equal(resp.attempts, 2);
	assert_true(src.seeks >= 1);
	assert_string_equal(http_response_header(&resp, "upload-offset"),
	    "100000");
	http_response_free(&resp);
	assert_int_equal(faultd_request(r.fd, 1, &fr), 0);
	assert_int_equal(fr.len, sizeof data);
	assert_memory_equal(fr.body, data, sizeof data);
	v = faultd_header(&fr, "Content-Type");
	assert_string_equal(v, "application/offset+octet-stream");
	free(v);
	v = faultd_header(&fr, "Authorization");
	assert_string_equal(v, "Bearer " TOKEN);
	free(v);
	faultd_request_free(&fr);
	rig_finish(&r);

	/* Without a seek callback a body that was sent is not sent again. */
	rig_start(&r, fail, nitems(fail), NULL);
	free(url);
	url = itest_printf("%s/tus/abc", faultd_url(r.fd));
	req.path = url;
	req.seek = NULL;
	src.off = 0;
	assert_int_equal(http_perform(r.c, &req, &resp, &cause),
	    STATUS_SERVER);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(faultd_count(r.fd), 1);
	free(cause);
	http_response_free(&resp);
	rig_finish(&r);
	free(url);
}

static void
test_readonly_sends_nothing(void **state)
{
	static const char *const mutating[] = { "POST", "PUT", "PATCH",
	    "DELETE" };
	struct opts		 o = { .readonly = 1 };
	struct rig		 r;
	struct http_request	 req = { .path = "/zones/z/rate_limits" };
	struct http_response	 resp;
	char			*cause;
	size_t			 i;

	(void)state;
	rig_start(&r, NULL, 0, &o);
	for (i = 0; i < nitems(mutating); i++) {
		req.method = mutating[i];
		cause = NULL;
		assert_int_equal(http_perform(r.c, &req, &resp, &cause),
		    STATUS_READONLY);
		assert_non_null(strstr(cause, mutating[i]));
		assert_non_null(strstr(cause, "/zones/z/rate_limits"));
		free(cause);
		http_response_free(&resp);
	}
	assert_int_equal(faultd_count(r.fd), 0);
	assert_int_equal(faultd_connections(r.fd), 0);
	assert_int_equal(get(r.c, "/zones/z/rate_limits", &resp, &cause),
	    STATUS_OK);
	http_response_free(&resp);
	assert_int_equal(faultd_count(r.fd), 1);
	rig_finish(&r);
}

static void
test_budget_waits(void **state)
{
	struct opts		 o = { .capacity = 3 };
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;
	int			 i;

	(void)state;
	rig_start(&r, NULL, 0, &o);
	for (i = 0; i < 4; i++) {
		if (get(r.c, "/b", &resp, &cause) != STATUS_OK)
			fail_msg("request %d: %s", i + 1, cause);
		assert_int_equal(r.f.clock.nsleeps, i < 3 ? 0 : 1);
		http_response_free(&resp);
	}
	/* 3 per 5 minutes: the 4th waited (on the fake clock) ~100 s. */
	assert_true(r.f.clock.sleeps[0] >= 99000 &&
	    r.f.clock.sleeps[0] <= 100001);
	assert_int_equal(faultd_count(r.fd), 4);
	rig_finish(&r);
}

static void
test_keep_alive(void **state)
{
	struct rig		 r;
	struct http_response	 resp;
	char			*cause;
	int			 i;

	(void)state;
	rig_start(&r, NULL, 0, NULL);
	for (i = 0; i < 5; i++) {
		assert_int_equal(get(r.c, "/k", &resp, &cause), STATUS_OK);
		http_response_free(&resp);
	}
	assert_int_equal(faultd_count(r.fd), 5);
	assert_int_equal(faultd_connections(r.fd), 1);
	rig_finish(&r);
}

/* The non-blocking calls on one curl-multi loop, as the worker runs them. */
static void
test_multi_loop(void **state)
{
	static const char *const paths[] = { "/m/1", "/m/2", "/m/3" };
	static const struct faultd_reply script[] = {
		{ .status = 503 },
		{ .headers = JSON_CT, .body = OK_BODY },
	};
	struct rig		 r;
	struct http_call	*calls[nitems(paths)], *call;
	struct http_request	 req = { .method = "GET" };
	struct http_response	 resp;
	struct faultd_request	 fr;
	CURLM			*multi;
	CURLMsg			*msg;
	CURL			*easy;
	enum http_next		 n;
	long			 wait;
	size_t			 i, done = 0, seen = 0;
	int			 running, left;
	char			*cause = NULL;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	multi = curl_multi_init();
	for (i = 0; i < nitems(paths); i++) {
		req.path = paths[i];
		calls[i] = http_call_new(r.c, &req);
		assert_int_equal(http_call_next(calls[i], &easy, &wait),
		    HTTP_NEXT_SEND);
		curl_multi_add_handle(multi, easy);
	}
	while (done < nitems(paths)) {
		curl_multi_perform(multi, &running);
		while ((msg = curl_multi_info_read(multi, &left)) != NULL) {
			if (msg->msg != CURLMSG_DONE)
				continue;
			easy = msg->easy_handle;
			curl_easy_getinfo(easy, CURLINFO_PRIVATE, &call);
			curl_multi_remove_handle(multi, easy);
			n = http_call_done(call, msg->data.result, &wait);
			/* The worker would set a timer; the fake clock moves. */
			while (n == HTTP_NEXT_WAIT) {
				fake_sleep(wait, &r.f);
				n = http_call_next(call, &easy, &wait);
			}
			if (n == HTTP_NEXT_SEND)
				curl_multi_add_handle(multi, easy);
			else
				done++;
		}
		if (done < nitems(paths))
			curl_multi_poll(multi, NULL, 0, 100, NULL);
	}
	for (i = 0; i < nitems(paths); i++) {
		if (http_call_result(calls[i], &resp, &cause) != STATUS_OK)
			fail_msg("%s: %s", paths[i], cause);
		seen += resp.attempts;
		http_response_free(&resp);
		http_call_free(calls[i]);
	}
	/* The one that met the 503 went again. */
	assert_int_equal(seen, nitems(paths) + 1);
	assert_int_equal(faultd_count(r.fd), nitems(paths) + 1);
	for (i = 0; i < faultd_count(r.fd); i++) {
		assert_int_equal(faultd_request(r.fd, i, &fr), 0);
		assert_true(strncmp(fr.path, "/m/", 3) == 0);
		faultd_request_free(&fr);
	}
	curl_multi_cleanup(multi);
	rig_finish(&r);
}

/* ---- the token stays out of every message ------------------------------ */

static void
test_token_never_shown(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 403, .headers = JSON_CT "X-Echo: " TOKEN "\r\n",
		  .body = "{\"success\":false,\"errors\":[{\"code\":10000,"
		  "\"message\":\"token " TOKEN " lacks permission\"}]}" },
		{ .status = 503, .headers = JSON_CT,
		  .body = "{\"success\":false,\"errors\":[{\"code\":1,"
		  "\"message\":\"" TOKEN "\"}]}" },
	};
	struct rig		 r;
	struct http_response	 resp;
	struct http_log_entry	 e[8];
	char			*cause, *cmd, *logged;
	struct http_request	 req = { .method = "GET", .path = "/t" };
	size_t			 i, n;

	(void)state;
	testlog_start();
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(get(r.c, "/t", &resp, &cause), STATUS_AUTH);
	assert_null(strstr(cause, TOKEN));
	assert_non_null(strstr(cause, "token " HTTP_REDACTED " lacks"));
	free(cause);
	http_response_free(&resp);
	assert_int_equal(get(r.c, "/t", &resp, &cause), STATUS_SERVER);
	assert_null(strstr(cause, TOKEN));
	free(cause);
	http_response_free(&resp);
	cmd = http_curl_command(r.c, &req);
	assert_null(strstr(cmd, TOKEN));
	free(cmd);
	n = http_log_snapshot(r.c, e, nitems(e), NULL);
	for (i = 0; i < n; i++)
		assert_null(strstr(e[i].path, TOKEN));
	rig_finish(&r);
	logged = testlog_stop();
	assert_non_null(logged);
	assert_non_null(strstr(logged, "GET /t: 403 in "));
	assert_non_null(strstr(logged, "Authorization: Bearer " HTTP_REDACTED));
	assert_null(strstr(logged, TOKEN));
	free(logged);
}

/*
 * The request log keeps each answer for Enter and a curl command for c:
 * without the token or the record's secrets, the body capped, and one
 * ring for the console's client and an upload's (log_with).
 */
static void
test_log_detail(void **state)
{
	static char		 big[3 * HTTP_LOG_BODY_MAX];
	static const char	 live[] = "{\"success\":true,\"errors\":[],"
	    "\"messages\":[],\"result\":{\"uid\":\"u1\",\"webRTC\":{"
	    "\"url\":\"https://c.example/PUBLISH-KEY/webRTC/publish\"},"
	    "\"rtmps\":{\"streamKey\":\"STREAM-KEY\"},\"echo\":\""
	    TOKEN "\"}}";
	struct faultd_reply	 script[] = {
		{ .status = 200, .headers = JSON_CT, .body = live },
		{ .status = 200, .headers = JSON_CT, .body = big },
		{ .status = 200, .headers = JSON_CT, .body = OK_BODY },
		{ .status = 200, .headers = JSON_CT, .body = OK_BODY },
	};
	static char		 bulk[2 * HTTP_LOG_BODY_MAX];
	struct http_request	 many = { .method = "POST", .path = "/bulk",
	    .json = bulk };
	struct rig		 r;
	struct http_client	*up;
	struct http_response	 resp;
	struct http_log_entry	 e[8];
	struct http_request	 post = { .method = "POST", .path = "/live",
	    .json = "{\"meta\":{\"name\":\"x\"},\"streamKey\":\"SENT-KEY\"}" };
	struct http_options	 ho;
	char			*cause = NULL, *curl, *body;
	size_t			 n, i;

	(void)state;
	/* A JSON string far over the cap. */
	memset(big, 'a', sizeof big - 1);
	memcpy(big, "{\"success\":true,\"errors\":[],\"result\":\"", 38);
	memcpy(big + sizeof big - 4, "\"}", 2);
	big[sizeof big - 2] = '\0';
	rig_start(&r, script, nitems(script), NULL);
	assert_int_equal(http_perform(r.c, &post, &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	assert_int_equal(get(r.c, "/big", &resp, &cause), STATUS_OK);
	http_response_free(&resp);

	/* An upload's own client records into the same ring. */
	memset(&ho, 0, sizeof ho);
	ho.base_url = faultd_url(r.fd);
	ho.token = TOKEN;
	ho.log_with = r.c;
	up = http_client_new(&ho, &cause);
	assert_non_null(up);
	assert_int_equal(get(up, "/upload", &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	http_client_free(up);

	/* A bulk request's command is kept up to the cap too. */
	bulk[0] = '[';
	for (i = 1; i + 7 < sizeof bulk - 8; i += 7)
		memcpy(bulk + i, "\"item\",", 7);
	memcpy(bulk + i, "\"end\"]", 7);
	assert_int_equal(http_perform(r.c, &many, &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	n = http_log_snapshot(r.c, e, nitems(e), NULL);
	assert_int_equal(n, 4);
	assert_int_equal(http_log_detail(r.c, e[3].seq, &curl, &body), 0);
	assert_true(strlen(curl) < HTTP_LOG_BODY_MAX + 100);
	assert_non_null(strstr(curl, "more bytes not kept"));
	free(curl);
	free(body);

	assert_string_equal(e[2].path, "/upload");
	assert_int_equal(e[2].seq, e[0].seq + 2);

	assert_int_equal(http_log_detail(r.c, e[0].seq, &curl, &body), 0);
	assert_non_null(strstr(curl, "-X POST"));
	assert_non_null(strstr(curl, "$" HTTP_TOKEN_ENV));
	assert_null(strstr(curl, TOKEN));
	assert_null(strstr(curl, "SENT-KEY"));
	assert_non_null(strstr(body, "\"uid\": \"u1\""));
	assert_null(strstr(body, "PUBLISH-KEY"));
	assert_null(strstr(body, "STREAM-KEY"));
	assert_null(strstr(body, TOKEN));
	free(curl);
	free(body);

	assert_int_equal(http_log_detail(r.c, e[1].seq, &curl, &body), 0);
	assert_true(strlen(body) < HTTP_LOG_BODY_MAX + 100);
	assert_non_null(strstr(body, "more bytes not kept"));
	free(curl);
	free(body);

	assert_int_equal(http_log_detail(r.c, e[3].seq + 1, &curl, &body),
	    -1);
	rig_finish(&r);
}

/*
 * A one-shot command's client (log_entries_only) logs each request but
 * keeps neither its answer nor a curl command: a long list is not held
 * on its way to stdout.
 */
static void
test_log_entries_only(void **state)
{
	struct faultd_reply	 script[] = {
		{ .status = 200, .headers = JSON_CT, .body = OK_BODY },
	};
	struct rig		 r;
	struct http_client	*c;
	struct http_response	 resp;
	struct http_log_entry	 e[2];
	struct http_options	 ho;
	char			*cause = NULL, *curl, *body;

	(void)state;
	rig_start(&r, script, nitems(script), NULL);
	memset(&ho, 0, sizeof ho);
	ho.base_url = faultd_url(r.fd);
	ho.token = TOKEN;
	ho.log_entries_only = 1;
	c = http_client_new(&ho, &cause);
	assert_non_null(c);
	assert_int_equal(get(c, "/one", &resp, &cause), STATUS_OK);
	assert_non_null(resp.api.result);
	http_response_free(&resp);
	assert_int_equal(http_log_snapshot(c, e, nitems(e), NULL), 1);
	assert_string_equal(e[0].path, "/one");
	assert_int_equal(e[0].http_status, 200);
	assert_int_equal(http_log_detail(c, e[0].seq, &curl, &body), 0);
	assert_string_equal(curl, "");
	assert_string_equal(body, "");
	free(curl);
	free(body);
	http_client_free(c);
	rig_finish(&r);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_edgemu_get_operations,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test(test_log_detail),
		cmocka_unit_test(test_log_entries_only),
		cmocka_unit_test_setup_teardown(test_edgemu_round_trip,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_edgemu_multipart,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_edgemu_tus_patch,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test(test_retry_after_honoured),
		cmocka_unit_test(test_retry_after_ms_preferred),
		cmocka_unit_test(test_retry_after_long_reported),
		cmocka_unit_test(test_5xx_storm),
		cmocka_unit_test(test_409_not_retried),
		cmocka_unit_test(test_post_503_not_retried),
		cmocka_unit_test(test_post_refused_is_retried),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_huge_body),
		cmocka_unit_test(test_cut_mid_body),
		cmocka_unit_test(test_closed_without_answer),
		cmocka_unit_test(test_stall_and_drip),
		cmocka_unit_test(test_request_as_sent),
		cmocka_unit_test(test_multipart_as_sent),
		cmocka_unit_test(test_upload_retry_rewinds),
		cmocka_unit_test(test_readonly_sends_nothing),
		cmocka_unit_test(test_budget_waits),
		cmocka_unit_test(test_keep_alive),
		cmocka_unit_test(test_multi_loop),
		cmocka_unit_test(test_token_never_shown),
	};
	static const char *const proxies[] = { "http_proxy", "HTTP_PROXY",
	    "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY" };
	size_t	i;
	int	rc;

	/* Loopback servers: a proxy from the environment would be wrong. */
	for (i = 0; i < nitems(proxies); i++)
		unsetenv(proxies[i]);
	setenv("TZ", "UTC", 1);
	tzset();
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return (rc);
}
