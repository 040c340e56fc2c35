/*
 * Integration tests for the Stream operations beyond uploads: copies from
 * a URL (served by faultd on loopback: HEAD then GET), clips, captions one
 * language at a time (WebVTT upload, generate, the VTT, delete), downloads
 * by type, the embed snippet and an audio track's PATCH, with every
 * refusal. Waits poll a state with a deadline, never the clock.
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "faultd.h"
#include "itest.h"
#include "jsonget.h"
#include "media.h"

#define ACCOUNT		"a1b2c3d4e5f60718293a4b5c6d7e8f90"
#define NO_UID		"00000000000000000000000000000000"
#define WAIT_SECONDS	60
#define VIDEO_MS	12000
#define VIDEO_MDAT	3000

/* ---- helpers ------------------------------------------------------------- */

static char *
path_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
path_of(const char *fmt, ...)
{
	va_list	 ap;
	char	*tail, *p;

	va_start(ap, fmt);
	if (vasprintf(&tail, fmt, ap) == -1)
		fail_msg("vasprintf");
	va_end(ap);
	p = itest_printf("/accounts/%s/stream%s", ACCOUNT, tail);
	free(tail);
	return (p);
}

static cJSON *
ok(struct edgemu *e, const char *method, const char *body,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static cJSON *
ok(struct edgemu *e, const char *method, const char *body, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*tail, *p;
	cJSON	*r;

	va_start(ap, fmt);
	if (vasprintf(&tail, fmt, ap) == -1)
		fail_msg("vasprintf");
	va_end(ap);
	p = path_of("%s", tail);
	r = api_ok(e, method, p, body);
	free(p);
	free(tail);
	return (r);
}

/* The request fails with this status, and its message says this. */
static void
refused(struct edgemu *e, const char *method, const char *body, long status,
    const char *says, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
refused(struct edgemu *e, const char *method, const char *body, long status,
    const char *says, const char *fmt, ...)
{
	va_list	 ap;
	char	*tail, *p, *msg;

	va_start(ap, fmt);
	if (vasprintf(&tail, fmt, ap) == -1)
		fail_msg("vasprintf");
	va_end(ap);
	p = path_of("%s", tail);
	msg = api_fail(e, method, p, body, status);
	if (says != NULL && strstr(msg, says) == NULL)
		fail_msg("%s %s: '%s' does not say '%s'", method, p, msg, says);
	free(msg);
	free(p);
	free(tail);
}

static void
pause_briefly(void)
{
	struct timespec	ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Poll the video until its state is one of want (space-separated). */
static cJSON *
wait_state(struct edgemu *e, const char *uid, const char *want)
{
	time_t		 deadline = time(NULL) + WAIT_SECONDS;
	const char	*state;
	char		 pad[64], wants[64];
	cJSON		*v;

	snprintf(wants, sizeof wants, " %s ", want);
	for (;;) {
		v = ok(e, "GET", NULL, "/%s", uid);
		state = jstr(v, "status.state");
		snprintf(pad, sizeof pad, " %s ", state);
		if (strstr(wants, pad) != NULL)
			return (v);
		if (time(NULL) > deadline)
			fail_msg("video %s still %s after %d s", uid, state,
			    WAIT_SECONDS);
		cJSON_Delete(v);
		pause_briefly();
	}
}

/* A faultd that answers every request with this body (HEAD: no body). */
static struct faultd *
origin(const char *body, size_t len, int status)
{
	struct faultd_reply	 r;
	struct faultd		*fd;

	assert_non_null(fd = faultd_start(0));
	memset(&r, 0, sizeof r);
	r.status = status;
	r.headers = "Content-Type: video/mp4\r\n";
	r.body = body;
	r.len = len;
	faultd_script(fd, &r, 1);
	return (fd);
}

static void
mp4_bytes(struct buf *b, uint64_t ms)
{
	size_t	i;

	buf_init(b);
	media_mp4(b, 1000, ms, 640, 360, VIDEO_MDAT);
	for (i = 0; i < VIDEO_MDAT; i++)
		buf_addc(b, (char)(i * 7));
}

/* POST /copy of url; the new video's uid (caller frees). */
static char *
copy_of(struct edgemu *e, const char *url, const char *name)
{
	char	*body, *uid;
	cJSON	*v;

	body = itest_printf("{\"input\":\"%s\",\"meta\":{\"name\":\"%s\"}}",
	    url, name);
	v = ok(e, "POST", body, "/copy");
	assert_string_equal(jstr(v, "status.state"), "downloading");
	assert_string_equal(jstr(v, "meta.downloaded-from"), url);
	assert_string_equal(jstr(v, "meta.name"), name);
	uid = strdup(jstr(v, "uid"));
	cJSON_Delete(v);
	free(body);
	return (uid);
}

/* A ready video copied from a loopback origin (uid; caller frees). */
static char *
ready_video(struct edgemu *e)
{
	struct faultd	*fd;
	struct buf	 b;
	char		*url, *uid;
	cJSON		*v;

	mp4_bytes(&b, VIDEO_MS);
	fd = origin(b.data, b.len, 200);
	url = itest_printf("%s/v.mp4", faultd_url(fd));
	uid = copy_of(e, url, "source");
	v = wait_state(e, uid, "ready error");
	assert_string_equal(jstr(v, "status.state"), "ready");
	cJSON_Delete(v);
	faultd_free(fd);
	buf_free(&b);
	free(url);
	return (uid);
}

/* ---- copy ---------------------------------------------------------------- */

/* HEAD for the size, then GET; the video goes to ready with its duration. */
static void
test_copy_ready(void **state)
{
	struct edgemu		*e = *state;
	struct faultd_request	 q;
	struct faultd		*fd;
	struct buf		 b;
	char			*url, *uid, seen[128] = "downloading ";
	const char		*st;
	cJSON			*v;
	time_t			 deadline = time(NULL) + WAIT_SECONDS;

	mp4_bytes(&b, VIDEO_MS);
	fd = origin(b.data, b.len, 200);
	url = itest_printf("%s/talk.mp4", faultd_url(fd));
	/* downloading (the POST's answer), then queued or inprogress, then
	 * ready; polling may see any of the middle ones, or none. */
	uid = copy_of(e, url, "talk");
	for (;;) {
		v = ok(e, "GET", NULL, "/%s", uid);
		st = jstr(v, "status.state");
		if (strstr(seen, st) == NULL) {
			strncat(seen, st, sizeof seen - strlen(seen) - 2);
			strcat(seen, " ");
		}
		if (strcmp(st, "ready") == 0 || strcmp(st, "error") == 0)
			break;
		cJSON_Delete(v);
		if (time(NULL) > deadline)
			fail_msg("copy still %s", st);
		pause_briefly();
	}
	if (strncmp(seen, "downloading ", 12) != 0 ||
	    strstr(seen, "ready") == NULL)
		fail_msg("states seen: %s", seen);
	assert_true(jnum(v, "duration") == VIDEO_MS / 1000);
	assert_true(jnum(v, "size") == (double)b.len);
	assert_string_equal(jstr(v, "meta.downloaded-from"), url);
	assert_true(cJSON_IsNull(jget(v, "clippedFrom")));
	cJSON_Delete(v);
	/* HEAD first, then one GET of the whole file. */
	assert_int_equal(faultd_count(fd), 2);
	assert_int_equal(faultd_request(fd, 0, &q), 0);
	assert_string_equal(q.method, "HEAD");
	assert_string_equal(q.path, "/talk.mp4");
	faultd_request_free(&q);
	assert_int_equal(faultd_request(fd, 1, &q), 0);
	assert_string_equal(q.method, "GET");
	faultd_request_free(&q);
	faultd_free(fd);
	buf_free(&b);
	free(url);
	free(uid);
}

static void
test_copy_refusals(void **state)
{
	struct edgemu	*e = *state;

	refused(e, "POST", "{}", 400, "input: required", "/copy");
	refused(e, "POST", "[1]", 400, "input", "/copy");
	refused(e, "POST", "{\"input\":42}", 400, "input: must be a URL",
	    "/copy");
	refused(e, "POST", "{\"url\":\"ftp://127.0.0.1/v.mp4\"}", 400,
	    "http or https", "/copy");
	refused(e, "POST", "{\"input\":\"not a url\"}", 400,
	    "not an absolute URL", "/copy");
	refused(e, "POST", "{\"input\":\"http://127.0.0.1/v.mp4\","
	    "\"meta\":[]}", 400, "meta: must be an object", "/copy");
	refused(e, "POST", "{\"input\":\"http://127.0.0.1/v.mp4\","
	    "\"thumbnailTimestampPct\":2}", 400, "thumbnailTimestampPct",
	    "/copy");
}

/* The copy ends in error, with errorReasonCode and a text saying why. */
static void
copy_fails(struct edgemu *e, struct faultd *fd, const char *code,
    const char *says)
{
	char	*url, *uid;
	cJSON	*v;

	url = itest_printf("%s/x", faultd_url(fd));
	uid = copy_of(e, url, "bad");
	v = wait_state(e, uid, "ready error");
	assert_string_equal(jstr(v, "status.state"), "error");
	assert_string_equal(jstr(v, "status.errorReasonCode"), code);
	if (strstr(jstr(v, "status.errorReasonText"), says) == NULL)
		fail_msg("errorReasonText '%s' does not say '%s'",
		    jstr(v, "status.errorReasonText"), says);
	assert_false(cJSON_IsTrue(jget(v, "readyToStream")));
	cJSON_Delete(v);
	free(url);
	free(uid);
}

static void
test_copy_errors(void **state)
{
	struct edgemu		*e = *state;
	struct faultd_reply	 r[2];
	struct faultd		*fd;
	struct buf		 b;
	char			*url, *uid;
	cJSON			*v;

	/* The origin answers 404. */
	fd = origin("gone", 0, 404);
	copy_fails(e, fd, "ERR_FETCH_ORIGIN_ERROR", "HTTP 404");
	faultd_free(fd);
	/* It serves text, not a video. */
	fd = origin("<html>hello</html>", 0, 200);
	copy_fails(e, fd, "ERR_NON_VIDEO", "not recognized");
	faultd_free(fd);
	/* HEAD says one size, GET breaks off midway. */
	mp4_bytes(&b, VIDEO_MS);
	assert_non_null(fd = faultd_start(0));
	memset(r, 0, sizeof r);
	r[0].body = b.data;
	r[0].len = b.len;
	r[1] = r[0];
	r[1].act = FAULTD_CUT;
	r[1].cut = b.len / 2;
	faultd_script(fd, r, 2);
	copy_fails(e, fd, "ERR_FETCH_ORIGIN_ERROR", "GET");
	faultd_free(fd);
	buf_free(&b);
	/* Nobody listens (the discard port; a freed ephemeral port could be
	 * taken by another test's server meanwhile). */
	url = strdup("http://127.0.0.1:9/v.mp4");
	uid = copy_of(e, url, "nobody");
	v = wait_state(e, uid, "ready error");
	assert_string_equal(jstr(v, "status.errorReasonCode"),
	    "ERR_FETCH_ORIGIN_ERROR");
	assert_non_null(strstr(jstr(v, "status.errorReasonText"),
	    "could not be reached"));
	cJSON_Delete(v);
	free(uid);
	free(url);
}

/* ---- clips --------------------------------------------------------------- */

static void
test_clip(void **state)
{
	struct edgemu	*e = *state;
	char		*src, *body;
	cJSON		*v;

	src = ready_video(e);
	body = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":2,\"endTimeSeconds\":5,"
	    "\"meta\":{\"name\":\"cut\"}}", src);
	v = ok(e, "POST", body, "/clip");
	assert_string_equal(jstr(v, "clippedFrom"), src);
	assert_string_equal(jstr(v, "meta.name"), "cut");
	assert_string_not_equal(jstr(v, "uid"), src);
	free(body);
	body = strdup(jstr(v, "uid"));
	cJSON_Delete(v);
	v = wait_state(e, body, "ready error");
	assert_string_equal(jstr(v, "status.state"), "ready");
	assert_true(jnum(v, "duration") == 3);
	assert_string_equal(jstr(v, "clippedFrom"), src);
	cJSON_Delete(v);
	/* The clip outlives its source, bytes and all. */
	cJSON_Delete(ok(e, "DELETE", NULL, "/%s", src));
	v = ok(e, "GET", NULL, "/%s", body);
	assert_string_equal(jstr(v, "status.state"), "ready");
	assert_true(jnum(v, "size") > 0);
	cJSON_Delete(v);
	free(body);
	free(src);
}

static void
test_clip_refusals(void **state)
{
	struct edgemu	*e = *state;
	struct faultd	*fd;
	char		*src, *bad, *url, *b;

	src = ready_video(e);
	b = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":5,\"endTimeSeconds\":5}", src);
	refused(e, "POST", b, 400, "must be before", "/clip");
	free(b);
	b = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":6,\"endTimeSeconds\":2}", src);
	refused(e, "POST", b, 400, "must be before", "/clip");
	free(b);
	b = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":1,\"endTimeSeconds\":12.5}", src);
	refused(e, "POST", b, 400, "past the end", "/clip");
	free(b);
	b = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":-1,\"endTimeSeconds\":2}", src);
	refused(e, "POST", b, 400, "startTimeSeconds", "/clip");
	free(b);
	b = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":1}", src);
	refused(e, "POST", b, 400, "endTimeSeconds: required", "/clip");
	free(b);
	refused(e, "POST", "{\"startTimeSeconds\":1,\"endTimeSeconds\":2}",
	    400, "clippedFromVideoUID", "/clip");
	refused(e, "POST", "{\"clippedFromVideoUID\":\"" NO_UID "\","
	    "\"startTimeSeconds\":1,\"endTimeSeconds\":2}", 404,
	    "not found", "/clip");
	/* A source that is not ready: its copy failed. */
	fd = origin("nope", 0, 404);
	url = itest_printf("%s/v.mp4", faultd_url(fd));
	bad = copy_of(e, url, "failed");
	cJSON_Delete(wait_state(e, bad, "error"));
	b = itest_printf("{\"clippedFromVideoUID\":\"%s\","
	    "\"startTimeSeconds\":1,\"endTimeSeconds\":2}", bad);
	refused(e, "POST", b, 409, "only a ready video", "/clip");
	free(b);
	faultd_free(fd);
	free(url);
	free(bad);
	free(src);
}

/* ---- captions ------------------------------------------------------------ */

static void
put_caption(struct edgemu *e, const char *uid, const char *lang,
    const char *text, struct http_resp *r)
{
	struct http_req	 t = { .method = "PUT" };

	t.url = path_of("/%s/captions/%s", uid, lang);
	t.file = text;
	t.file_len = strlen(text);
	http_send(e, &t, r);
	free((char *)t.url);
}

static void
get_raw(struct edgemu *e, const char *path, const char *accept,
    struct http_resp *r)
{
	struct http_req	 t = { .method = "GET" };

	t.url = path;
	t.headers[0] = accept;
	http_send(e, &t, r);
}

static void
test_captions(void **state)
{
	struct edgemu	*e = *state;
	struct http_resp r;
	time_t		 deadline;
	char		*uid, *p;
	const cJSON	*rc;
	cJSON		*c;
	const char	 vtt[] = "WEBVTT\n\n00:00.000 --> 00:02.000\nBonjour\n";

	uid = ready_video(e);
	put_caption(e, uid, "fr", vtt, &r);
	if (r.status != 200)
		fail_msg("PUT fr: %ld %s", r.status, r.body);
	rc = jget(r.json, "result");
	assert_string_equal(jstr(rc, "language"), "fr");
	assert_string_equal(jstr(rc, "label"), "Français");
	assert_false(cJSON_IsTrue(jget(rc, "generated")));
	assert_string_equal(jstr(rc, "status"), "ready");
	http_resp_free(&r);
	/* Not WebVTT; a bad tag. */
	put_caption(e, uid, "de", "1\n00:00:00,000 --> 00:00:02,000\nHi\n",
	    &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(r.body, "not a WebVTT file"));
	http_resp_free(&r);
	put_caption(e, uid, "e1", vtt, &r);
	assert_int_equal(r.status, 400);
	http_resp_free(&r);
	put_caption(e, NO_UID, "fr", vtt, &r);
	assert_int_equal(r.status, 404);
	http_resp_free(&r);

	/* The VTT as uploaded, text/vtt and no envelope. */
	p = path_of("/%s/captions/fr/vtt", uid);
	get_raw(e, p, "Accept: text/vtt", &r);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(http_header(&r, "content-type"), "text/vtt"));
	assert_string_equal(r.body, vtt);
	http_resp_free(&r);
	free(p);

	/* Generate: inprogress, then ready, then its VTT. */
	c = ok(e, "POST", NULL, "/%s/captions/en/generate", uid);
	assert_true(cJSON_IsTrue(jget(c, "generated")));
	assert_string_equal(jstr(c, "status"), "inprogress");
	assert_non_null(strstr(jstr(c, "label"), "auto-generated"));
	cJSON_Delete(c);
	refused(e, "POST", NULL, 409, "delete it first",
	    "/%s/captions/en/generate", uid);
	refused(e, "POST", NULL, 400, "captions are generated in",
	    "/%s/captions/sv/generate", uid);
	refused(e, "POST", NULL, 404, "not found",
	    "/" NO_UID "/captions/en/generate");
	/* Its VTT is refused while it is generated (if it still was after
	 * the GET: with one second of processing it may not be). */
	p = path_of("/%s/captions/en/vtt", uid);
	get_raw(e, p, "Accept: text/vtt", &r);
	free(p);
	c = ok(e, "GET", NULL, "/%s/captions/en", uid);
	if (strcmp(jstr(c, "status"), "inprogress") == 0) {
		assert_int_equal(r.status, 409);
		assert_non_null(strstr(r.body, "still being generated"));
	}
	cJSON_Delete(c);
	http_resp_free(&r);
	deadline = time(NULL) + WAIT_SECONDS;
	for (;;) {
		c = ok(e, "GET", NULL, "/%s/captions/en", uid);
		if (strcmp(jstr(c, "status"), "ready") == 0)
			break;
		cJSON_Delete(c);
		if (time(NULL) > deadline)
			fail_msg("the generated caption never got ready");
		pause_briefly();
	}
	cJSON_Delete(c);
	p = path_of("/%s/captions/en/vtt", uid);
	get_raw(e, p, "Accept: text/vtt", &r);
	assert_int_equal(r.status, 200);
	assert_true(strncmp(r.body, "WEBVTT\n", 7) == 0);
	assert_non_null(strstr(r.body, "00:00:08.000 --> 00:00:12.000"));
	http_resp_free(&r);
	free(p);

	/* The list shows both, with status and generated. */
	c = ok(e, "GET", NULL, "/%s/captions", uid);
	assert_int_equal(cJSON_GetArraySize(c), 2);
	assert_string_equal(jstr(cJSON_GetArrayItem(c, 1), "status"),
	    "ready");
	cJSON_Delete(c);

	/* Delete, then it is gone: JSON failures, not text/vtt. */
	c = ok(e, "DELETE", NULL, "/%s/captions/fr", uid);
	assert_string_equal(c->valuestring, "");
	cJSON_Delete(c);
	refused(e, "DELETE", NULL, 404, "no caption in fr",
	    "/%s/captions/fr", uid);
	refused(e, "GET", NULL, 404, "no caption in fr", "/%s/captions/fr",
	    uid);
	p = path_of("/%s/captions/fr/vtt", uid);
	get_raw(e, p, "Accept: text/vtt", &r);
	assert_int_equal(r.status, 404);
	assert_non_null(strstr(http_header(&r, "content-type"),
	    "application/json"));
	http_resp_free(&r);
	free(p);
	free(uid);
}

/* A demo server whose processing takes an hour: what it starts stays
 * inprogress for the whole test. */
static int
slow_demo(void **state)
{
	struct edgemu	*e = calloc(1, sizeof *e);

	if (e == NULL)
		abort();
	edgemu_start(e, NULL, 1, "--processing-seconds", "3600", NULL);
	*state = e;
	return (0);
}

/* A caption being generated: listed as inprogress, its VTT refused. */
static void
test_captions_generating(void **state)
{
	struct edgemu	*slow = *state;
	struct http_resp r;
	char		*p, *cap;
	cJSON		*v;

	p = itest_printf("/accounts/%s/stream?status=ready", slow->account);
	v = api_ok(slow, "GET", p, NULL);
	free(p);
	assert_true(cJSON_GetArraySize(v) > 0);
	cap = itest_printf("/accounts/%s/stream/%s/captions/ko", slow->account,
	    jstr(cJSON_GetArrayItem(v, 0), "uid"));
	cJSON_Delete(v);
	p = itest_printf("%s/generate", cap);
	v = api_ok(slow, "POST", p, NULL);
	free(p);
	assert_string_equal(jstr(v, "status"), "inprogress");
	cJSON_Delete(v);
	v = api_ok(slow, "GET", cap, NULL);
	assert_string_equal(jstr(v, "status"), "inprogress");
	assert_true(cJSON_IsTrue(jget(v, "generated")));
	cJSON_Delete(v);
	p = itest_printf("%s/vtt", cap);
	get_raw(slow, p, "Accept: text/vtt", &r);
	assert_int_equal(r.status, 409);
	assert_non_null(strstr(r.body, "still being generated"));
	assert_non_null(strstr(http_header(&r, "content-type"),
	    "application/json"));
	http_resp_free(&r);
	free(p);
	free(cap);
}

/* Generating needs a ready video. */
static void
test_captions_not_ready(void **state)
{
	struct edgemu	*e = *state;
	struct faultd	*fd;
	char		*url, *uid;

	fd = origin("nope", 0, 404);
	url = itest_printf("%s/v.mp4", faultd_url(fd));
	uid = copy_of(e, url, "failed");
	cJSON_Delete(wait_state(e, uid, "error"));
	refused(e, "POST", NULL, 409, "must be ready",
	    "/%s/captions/en/generate", uid);
	faultd_free(fd);
	free(url);
	free(uid);
}

/* ---- downloads by type, embed, audio tracks ------------------------------ */

static void
test_downloads_types(void **state)
{
	struct edgemu	*e = *state;
	struct http_resp r;
	time_t		 deadline;
	char		*uid, *url;
	cJSON		*d;

	uid = ready_video(e);
	d = ok(e, "POST", NULL, "/%s/downloads/audio", uid);
	assert_non_null(strstr(jstr(d, "audio.url"), "/audio.m4a"));
	assert_null(cJSON_GetObjectItem(d, "default"));
	cJSON_Delete(d);
	refused(e, "POST", NULL, 400, "default (MP4) or audio (M4A)",
	    "/%s/downloads/flac", uid);
	d = ok(e, "POST", NULL, "/%s/downloads/default", uid);
	assert_non_null(jget(d, "default.status"));
	assert_non_null(jget(d, "audio.status"));
	cJSON_Delete(d);
	deadline = time(NULL) + WAIT_SECONDS;
	for (;;) {
		d = ok(e, "GET", NULL, "/%s/downloads", uid);
		if (strcmp(jstr(d, "audio.status"), "ready") == 0)
			break;
		cJSON_Delete(d);
		if (time(NULL) > deadline)
			fail_msg("the audio download never got ready");
		pause_briefly();
	}
	url = strdup(jstr(d, "audio.url"));
	cJSON_Delete(d);
	get_raw(e, url, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(http_header(&r, "content-type"), "audio/mp4");
	http_resp_free(&r);
	free(url);
	d = ok(e, "DELETE", NULL, "/%s/downloads/audio", uid);
	cJSON_Delete(d);
	refused(e, "DELETE", NULL, 404, "no audio download",
	    "/%s/downloads/audio", uid);
	d = ok(e, "GET", NULL, "/%s/downloads", uid);
	assert_null(cJSON_GetObjectItem(d, "audio"));
	assert_non_null(cJSON_GetObjectItem(d, "default"));
	cJSON_Delete(d);
	free(uid);
}

static void
test_embed(void **state)
{
	struct edgemu	*e = *state;
	struct http_resp r;
	char		*uid, *p;

	uid = ready_video(e);
	p = path_of("/%s/embed", uid);
	get_raw(e, p, "Accept: text/html", &r);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(http_header(&r, "content-type"), "text/html"));
	assert_null(r.json);
	assert_non_null(strstr(r.body, uid));
	assert_non_null(strstr(r.body, "<stream"));
	http_resp_free(&r);
	free(p);
	p = path_of("/" NO_UID "/embed");
	get_raw(e, p, "Accept: text/html", &r);
	assert_int_equal(r.status, 404);
	assert_non_null(strstr(http_header(&r, "content-type"),
	    "application/json"));
	http_resp_free(&r);
	free(p);
	free(uid);
}

static void
test_audio_patch(void **state)
{
	struct edgemu	*e = *state;
	char		*uid, *a, *b;
	cJSON		*t;

	uid = ready_video(e);
	t = ok(e, "POST", "{\"label\":\"Original\","
	    "\"url\":\"https://example.com/a.m4a\"}", "/%s/audio/copy", uid);
	assert_true(cJSON_IsTrue(jget(t, "default")));
	a = strdup(jstr(t, "uid"));
	cJSON_Delete(t);
	t = ok(e, "POST", "{\"label\":\"Commentary\","
	    "\"url\":\"https://example.com/b.m4a\"}", "/%s/audio/copy", uid);
	b = strdup(jstr(t, "uid"));
	cJSON_Delete(t);

	/* The default moves: exactly one afterwards. */
	t = ok(e, "PATCH", "{\"default\":true,\"label\":\"Director\"}",
	    "/%s/audio/%s", uid, b);
	assert_true(cJSON_IsTrue(jget(t, "default")));
	assert_string_equal(jstr(t, "label"), "Director");
	cJSON_Delete(t);
	t = ok(e, "GET", NULL, "/%s/audio", uid);
	assert_false(cJSON_IsTrue(jget(cJSON_GetArrayItem(t, 0), "default")));
	assert_true(cJSON_IsTrue(jget(cJSON_GetArrayItem(t, 1), "default")));
	cJSON_Delete(t);
	/* Label only: the default stays. */
	t = ok(e, "PATCH", "{\"label\":\"Main\"}", "/%s/audio/%s", uid, a);
	assert_false(cJSON_IsTrue(jget(t, "default")));
	assert_string_equal(jstr(t, "label"), "Main");
	cJSON_Delete(t);

	refused(e, "PATCH", "{\"default\":false}", 409, "exactly one",
	    "/%s/audio/%s", uid, b);
	refused(e, "PATCH", "{\"label\":\"Main\"}", 409, "already has",
	    "/%s/audio/%s", uid, b);
	refused(e, "PATCH", "{\"label\":\"\"}", 400, "label",
	    "/%s/audio/%s", uid, b);
	refused(e, "PATCH", "{\"default\":\"yes\"}", 400, "default",
	    "/%s/audio/%s", uid, b);
	refused(e, "PATCH", "{\"label\":\"x\"}", 404, "no audio track",
	    "/%s/audio/" NO_UID, uid);
	free(a);
	free(b);
	free(uid);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_ready),
		cmocka_unit_test(test_copy_refusals),
		cmocka_unit_test(test_copy_errors),
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_clip_refusals),
		cmocka_unit_test(test_captions),
		cmocka_unit_test_setup_teardown(test_captions_generating,
		    slow_demo, edgemu_fixture_stop),
		cmocka_unit_test(test_captions_not_ready),
		cmocka_unit_test(test_downloads_types),
		cmocka_unit_test(test_embed),
		cmocka_unit_test(test_audio_patch),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, edgemu_fixture_fast_plain,
	    edgemu_fixture_stop));
}
