/*
 * Integration tests for Stream videos over HTTP: tus creation, HEAD and
 * PATCH with every refusal, uploads driven to ready (duration read from a
 * generated MP4) or error, a 64 MiB upload checked byte for byte, a PATCH
 * interrupted by the client and one by kill -9, one-time URLs (tus and
 * multipart), expiry, termination, the list and its created cursor past
 * 1000 videos, edit, delete and storage usage, and the demo library.
 *
 * Waits are on states (poll until the video's state or the file's size
 * changes, with a deadline), never on the clock.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <ctype.h>
#include <signal.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <sqlite3.h>

#include "itest.h"

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

#define ACCOUNT		"a1b2c3d4e5f60718293a4b5c6d7e8f90"
#define NO_UID		"00000000000000000000000000000000"
#define MIB		(1024 * 1024)
#define CHUNK		(5 * MIB)
#define OCTETS		"Content-Type: application/offset+octet-stream"
#define TUS		"Tus-Resumable: 1.0.0"
#define WAIT_SECONDS	60

/* ---- requests with any headers ------------------------------------------- */

static const char *
must_header(const struct http_resp *r, const char *name)
{
	const char	*v = http_header(r, name);

	if (v == NULL)
		fail_msg("no %s header (status %ld): %.300s", name, r->status,
		    r->headers);
	return (v);
}

static long long
header_num(const struct http_resp *r, const char *name)
{
	return (strtoll(must_header(r, name), NULL, 10));
}

/* A failure envelope with this status whose first message says this. */
static void
assert_refused(const struct http_resp *r, long status, const char *says)
{
	const char	*msg;

	if (r->status != status)
		fail_msg("status %ld, wanted %ld: %.300s", r->status, status,
		    r->body);
	assert_envelope(r);
	msg = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
	    r->json, "errors"), 0), "message")->valuestring;
	if (says != NULL && strstr(msg, says) == NULL)
		fail_msg("'%s' does not say '%s'", msg, says);
}

static char *
stream_path(const char *uid)
{
	return (uid == NULL ? itest_printf("/accounts/%s/stream", ACCOUNT) :
	    itest_printf("/accounts/%s/stream/%s", ACCOUNT, uid));
}

/* A tus upload of length bytes; returns its Location, uid filled in. */
static char *
tus_create(struct edgemu *e, long long length, const char *metadata,
    const char *query, char uid[33])
{
	struct http_req		 t = { .method = "POST" };
	struct http_resp	 r;
	char			*len, *meta = NULL, *loc;
	const char		*id;

	t.url = itest_printf("/accounts/%s/stream%s", ACCOUNT,
	    query != NULL ? query : "");
	len = itest_printf("Upload-Length: %lld", length);
	t.headers[0] = TUS;
	t.headers[1] = len;
	if (metadata != NULL) {
		meta = itest_printf("Upload-Metadata: %s", metadata);
		t.headers[2] = meta;
	}
	http_send(e, &t, &r);
	if (r.status != 201)
		fail_msg("tus create: %ld %.300s", r.status, r.body);
	assert_string_equal(must_header(&r, "tus-resumable"), "1.0.0");
	id = must_header(&r, "stream-media-id");
	assert_int_equal(strlen(id), 32);
	snprintf(uid, 33, "%s", id);
	loc = strdup(must_header(&r, "location"));
	/* Absolute, and it names the video. */
	assert_true(strncmp(loc, "http://127.0.0.1:", 17) == 0);
	assert_non_null(strstr(loc, uid));
	http_resp_free(&r);
	free(len);
	free(meta);
	free((char *)t.url);
	return (loc);
}

static void
tus_head(struct edgemu *e, const char *loc, int noauth, struct http_resp *r)
{
	struct http_req	t = { .method = "HEAD", .url = loc, .noauth = noauth };

	t.headers[0] = TUS;
	http_send(e, &t, r);
}

static long long
head_offset(struct edgemu *e, const char *loc)
{
	struct http_resp	r;
	long long		off;

	tus_head(e, loc, 0, &r);
	if (r.status != 200)
		fail_msg("HEAD %s: %ld", loc, r.status);
	off = header_num(&r, "upload-offset");
	http_resp_free(&r);
	return (off);
}

/* Whether HEAD says a PATCH of the upload is under way. */
static int
head_in_progress(struct edgemu *e, const char *loc)
{
	struct http_resp	r;
	const char		*h;
	int			held;

	tus_head(e, loc, 0, &r);
	if (r.status != 200)
		fail_msg("HEAD %s: %ld", loc, r.status);
	h = http_header(&r, "edgemu-patch-in-progress");
	held = h != NULL && strcmp(h, "1") == 0;
	http_resp_free(&r);
	return (held);
}

/* PATCH len bytes at offset; the status. */
static long
tus_patch(struct edgemu *e, const char *loc, long long offset,
    const void *p, size_t len, int noauth, struct http_resp *r)
{
	struct http_req	t = { .method = "PATCH", .url = loc, .body = p,
			    .len = len, .noauth = noauth };
	char		*off = itest_printf("Upload-Offset: %lld", offset);

	t.headers[0] = TUS;
	t.headers[1] = OCTETS;
	t.headers[2] = off;
	/* An empty body still goes as an empty body. */
	if (p == NULL)
		t.body = "";
	http_send(e, &t, r);
	free(off);
	return (r->status);
}

static void
patch_ok(struct edgemu *e, const char *loc, long long offset, const void *p,
    size_t len)
{
	struct http_resp	r;

	if (tus_patch(e, loc, offset, p, len, 0, &r) != 204)
		fail_msg("PATCH at %lld (%zu bytes): %ld %.300s", offset, len,
		    r.status, r.body);
	assert_int_equal(header_num(&r, "upload-offset"),
	    offset + (long long)len);
	assert_string_equal(must_header(&r, "tus-resumable"), "1.0.0");
	http_resp_free(&r);
}

/* ---- test media ---------------------------------------------------------- */

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/*
 * A small MP4 that is one only in its boxes: ftyp, moov with mvhd
 * (version 0) and a trak/tkhd giving the picture size, then an mdat of
 * deterministic noise up to total bytes. No encoder involved.
 */
static unsigned char *
make_mp4(uint32_t timescale, uint32_t units, int w, int h, size_t total)
{
	unsigned char	*p = calloc(1, total);
	uint64_t	 x = 0x9e3779b97f4a7c15ULL;
	size_t		 at = 0, i, moov;

	if (p == NULL || total < 300)
		abort();
	put32(p, 20);
	memcpy(p + 4, "ftypmp42\0\0\0\0mp42", 16);
	at = 20;
	moov = at;
	memcpy(p + at + 4, "moov", 4);
	at += 8;
	put32(p + at, 108);
	memcpy(p + at + 4, "mvhd", 4);
	put32(p + at + 20, timescale);
	put32(p + at + 24, units);
	put32(p + at + 28, 0x00010000);
	at += 108;
	put32(p + at, 8 + 92);
	memcpy(p + at + 4, "trak", 4);
	put32(p + at + 8, 92);
	memcpy(p + at + 12, "tkhd", 4);
	put32(p + at + 16, 3);
	put32(p + at + 16 + 76, (uint32_t)w << 16);
	put32(p + at + 16 + 80, (uint32_t)h << 16);
	at += 100;
	put32(p + moov, (uint32_t)(at - moov));
	put32(p + at, (uint32_t)(total - at));
	memcpy(p + at + 4, "mdat", 4);
	for (i = at + 8; i < total; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)x;
	}
	return (p);
}

static void
sha256(const void *p, size_t len, unsigned char out[32])
{
	unsigned int	n = 32;

	if (EVP_Digest(p, len, out, &n, EVP_sha256(), NULL) != 1)
		fail_msg("EVP_Digest failed");
}

static char *
video_file(struct edgemu *e, const char *uid)
{
	return (itest_printf("%s/videos/%s/%s", e->dir, ACCOUNT, uid));
}

/* The stored bytes, whole (the caller frees); *len their count. */
static unsigned char *
read_file(const char *path, size_t *len)
{
	FILE		*f = fopen(path, "rb");
	unsigned char	*p;
	struct stat	 sb;

	if (f == NULL || fstat(fileno(f), &sb) != 0)
		fail_msg("%s: %s", path, strerror(errno));
	p = malloc((size_t)sb.st_size + 1);
	*len = fread(p, 1, (size_t)sb.st_size, f);
	fclose(f);
	return (p);
}

static void
assert_stored(struct edgemu *e, const char *uid, const void *src, size_t len)
{
	unsigned char	 a[32], b[32], *p;
	char		*path = video_file(e, uid);
	size_t		 n;

	p = read_file(path, &n);
	assert_int_equal(n, len);
	sha256(src, len, a);
	sha256(p, n, b);
	assert_memory_equal(a, b, 32);
	free(p);
	free(path);
}

/* ---- the video over the API ---------------------------------------------- */

static cJSON *
get_video(struct edgemu *e, const char *uid)
{
	char	*path = stream_path(uid);
	cJSON	*v = api_ok(e, "GET", path, NULL);

	free(path);
	return (v);
}

static const char *
state_of(const cJSON *v)
{
	return (cJSON_GetObjectItem(cJSON_GetObjectItem(v, "status"),
	    "state")->valuestring);
}

static void
pause_briefly(void)
{
	struct timespec	ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * Poll until the video reaches ready or error; every state seen is
 * appended to seen (for the order of the states). A deadline turns a hang
 * into a failure.
 */
static cJSON *
wait_final(struct edgemu *e, const char *uid, char *seen, size_t seensz)
{
	time_t		 deadline = time(NULL) + WAIT_SECONDS;
	cJSON		*v;
	const char	*state, *pct;
	const cJSON	*p;
	char		 last[32] = "";

	for (;;) {
		v = get_video(e, uid);
		state = state_of(v);
		p = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "status"),
		    "pctComplete");
		assert_true(cJSON_IsString(p));
		pct = p->valuestring;
		assert_true(strtod(pct, NULL) >= 0 &&
		    strtod(pct, NULL) <= 100);
		if (seen != NULL && strcmp(state, last) != 0) {
			if (seen[0] != '\0')
				strncat(seen, " ", seensz - strlen(seen) - 1);
			strncat(seen, state, seensz - strlen(seen) - 1);
			snprintf(last, sizeof last, "%s", state);
		}
		if (strcmp(state, "ready") == 0 || strcmp(state, "error") == 0)
			return (v);
		cJSON_Delete(v);
		if (time(NULL) > deadline)
			fail_msg("video %s still %s after %d s", uid, state,
			    WAIT_SECONDS);
		pause_briefly();
	}
}

/* ---- fixtures ------------------------------------------------------------ */

/* ---- discovery and creation ---------------------------------------------- */

static void
test_options(void **state)
{
	struct edgemu		*e = *state;
	struct http_req		 t = { .method = "OPTIONS" };
	struct http_resp	 r;
	char			*path = stream_path(NULL);

	t.url = path;
	http_send(e, &t, &r);
	assert_true(r.status == 204 || r.status == 200);
	assert_string_equal(must_header(&r, "tus-version"), "1.0.0");
	assert_non_null(strstr(must_header(&r, "tus-extension"), "creation"));
	assert_non_null(strstr(must_header(&r, "tus-extension"),
	    "termination"));
	assert_non_null(strstr(must_header(&r, "tus-extension"),
	    "expiration"));
	assert_true(header_num(&r, "tus-max-size") >= 30LL * 1000 * 1000 *
	    1000);
	http_resp_free(&r);
	free(path);
}

static void
create_refused(struct edgemu *e, const char *h1, const char *h2,
    const char *h3, long status, const char *says)
{
	struct http_req		t = { .method = "POST" };
	struct http_resp	r;

	t.url = stream_path(NULL);
	t.headers[0] = h1;
	t.headers[1] = h2;
	t.headers[2] = h3;
	http_send(e, &t, &r);
	assert_refused(&r, status, says);
	if (status == 412)
		assert_string_equal(must_header(&r, "tus-version"), "1.0.0");
	http_resp_free(&r);
	free((char *)t.url);
}

static void
test_create_refused(void **state)
{
	struct edgemu	*e = *state;
	struct http_req	 t = { .method = "POST", .noauth = 1 };
	struct http_resp r;
	cJSON		*list;
	char		*path;

	create_refused(e, "Upload-Length: 10", NULL, NULL, 412,
	    "Tus-Resumable is required");
	create_refused(e, "Tus-Resumable: 0.2.2", "Upload-Length: 10", NULL,
	    412, "not supported");
	create_refused(e, TUS, NULL, NULL, 400, "Upload-Length is required");
	create_refused(e, TUS, "Upload-Length: ten", NULL, 400,
	    "Upload-Length");
	create_refused(e, TUS, "Upload-Length: -1", NULL, 400,
	    "Upload-Length");
	create_refused(e, TUS, "Upload-Defer-Length: 1", NULL, 400,
	    "Upload-Defer-Length is not supported");
	create_refused(e, TUS, "Upload-Length: 40000000000", NULL, 413,
	    "maximum");
	create_refused(e, TUS, "Upload-Length: 10",
	    "Upload-Metadata: name aGVsbG8", 400, "base64");
	create_refused(e, TUS, "Upload-Length: 10",
	    "Upload-Metadata: name YQ==,NAME Yg==", 400, "twice");
	create_refused(e, TUS, "Upload-Length: 10",
	    "Upload-Metadata: name YQ==,,x", 400, "empty pair");
	create_refused(e, TUS, "Upload-Length: 10",
	    "Upload-Metadata: thumbnailtimestamppct Mg==", 400,
	    "out of range");
	create_refused(e, TUS, "Upload-Length: 10", "Upload-Creator: "
	    "01234567890123456789012345678901234567890123456789012345678901234",
	    400, "Upload-Creator");
	/* Credentials are needed on the account's URL. */
	t.url = stream_path(NULL);
	t.headers[0] = TUS;
	t.headers[1] = "Upload-Length: 10";
	http_send(e, &t, &r);
	assert_refused(&r, 401, NULL);
	http_resp_free(&r);
	free((char *)t.url);
	/* None of it made a video. */
	path = stream_path(NULL);
	list = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(list), 0);
	cJSON_Delete(list);
	free(path);
}

/* The metadata lands on the video; HEAD reports it back. */
static void
test_create_metadata(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct http_req		 t = { .method = "POST" };
	char			 uid[33], *loc;
	cJSON			*v, *o;

	/* Keys in any case, with the spec's spaces after commas. */
	t.url = stream_path(NULL);
	t.headers[0] = TUS;
	t.headers[1] = "Upload-Length: 1000";
	t.headers[2] = "Upload-Metadata: Name bXkgdmlkZW8=, requiresignedurls, "
	    "allowedOrigins ZXhhbXBsZS5jb20sdGVzdC5jb20=, "
	    "thumbnailtimestamppct MC4y, filename YS5tcDQ=";
	t.headers[3] = "Upload-Creator: creator-42";
	http_send(e, &t, &r);
	assert_int_equal(r.status, 201);
	snprintf(uid, sizeof uid, "%s", must_header(&r, "stream-media-id"));
	loc = strdup(must_header(&r, "location"));
	must_header(&r, "upload-expires");
	http_resp_free(&r);
	free((char *)t.url);
	/* Cloudflare's shape: the video's own URL, credentials and all. */
	assert_non_null(strstr(loc, "/client/v4/accounts/" ACCOUNT "/stream/"));

	v = get_video(e, uid);
	assert_string_equal(state_of(v), "pendingupload");
	o = cJSON_GetObjectItem(v, "meta");
	assert_string_equal(cJSON_GetObjectItem(o, "name")->valuestring,
	    "my video");
	assert_string_equal(cJSON_GetObjectItem(o, "filename")->valuestring,
	    "a.mp4");
	assert_string_equal(cJSON_GetObjectItem(v, "creator")->valuestring,
	    "creator-42");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "requireSignedURLs")));
	o = cJSON_GetObjectItem(v, "allowedOrigins");
	assert_int_equal(cJSON_GetArraySize(o), 2);
	assert_string_equal(cJSON_GetArrayItem(o, 1)->valuestring, "test.com");
	assert_true(cJSON_GetObjectItem(v, "thumbnailTimestampPct")->
	    valuedouble == 0.2);
	assert_int_equal(cJSON_GetObjectItem(v, "size")->valuedouble, 1000);
	assert_int_equal(cJSON_GetObjectItem(v, "duration")->valuedouble, -1);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(v, "readyToStream")));
	assert_null(cJSON_GetObjectItem(v, "playback"));
	cJSON_Delete(v);

	tus_head(e, loc, 0, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(header_num(&r, "upload-offset"), 0);
	assert_int_equal(header_num(&r, "upload-length"), 1000);
	assert_string_equal(must_header(&r, "cache-control"), "no-store");
	assert_string_equal(must_header(&r, "tus-resumable"), "1.0.0");
	assert_non_null(strstr(must_header(&r, "upload-metadata"),
	    "Name bXkgdmlkZW8="));
	assert_non_null(strstr(must_header(&r, "upload-expires"), " GMT"));
	http_resp_free(&r);
	/* Without Tus-Resumable, HEAD on the video's URL is a GET's head. */
	t.method = "HEAD";
	t.url = loc;
	memset(t.headers, 0, sizeof t.headers);
	http_send(e, &t, &r);
	assert_int_equal(r.status, 200);
	assert_null(http_header(&r, "upload-offset"));
	http_resp_free(&r);
	/* Without credentials, no upload at all. */
	tus_head(e, loc, 1, &r);
	assert_int_equal(r.status, 401);
	http_resp_free(&r);
	free(loc);
}

/* ---- PATCH --------------------------------------------------------------- */

/* Zeros, as many as asked, without holding them: for bodies never stored. */
struct zeros {
	curl_off_t	left;
};

static size_t
read_zeros(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct zeros	*z = arg;
	size_t		 n = size * nmemb;

	if ((curl_off_t)n > z->left)
		n = (size_t)z->left;
	memset(buf, 0, n);
	z->left -= (curl_off_t)n;
	return (n);
}

static void
patch_refused(struct edgemu *e, const char *loc, const char *version,
    const char *type, const char *offset, size_t len, long status,
    const char *says)
{
	struct http_req		 t = { .method = "PATCH", .url = loc };
	struct http_resp	 r;
	struct zeros		 z = { (curl_off_t)len };
	int			 n = 0;

	if (version != NULL)
		t.headers[n++] = version;
	if (type != NULL)
		t.headers[n++] = type;
	if (offset != NULL)
		t.headers[n++] = offset;
	t.read = read_zeros;
	t.read_arg = &z;
	t.read_len = (curl_off_t)len;
	/* Refused before the body is read: the sender may see a reset. */
	t.may_fail = 1;
	http_send(e, &t, &r);
	assert_refused(&r, status, says);
	if (status == 412)
		assert_string_equal(must_header(&r, "tus-version"), "1.0.0");
	http_resp_free(&r);
}

static void
test_patch_refused(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	char			 uid[33], *loc, *other;
	unsigned char		*src = make_mp4(1000, 5000, 640, 360, 11 * MIB);

	loc = tus_create(e, 11 * MIB, NULL, NULL, uid);
	patch_refused(e, loc, NULL, OCTETS, "Upload-Offset: 0", CHUNK, 412,
	    "Tus-Resumable is required");
	patch_refused(e, loc, "Tus-Resumable: 2.0.0", OCTETS,
	    "Upload-Offset: 0", CHUNK, 412, "not supported");
	patch_refused(e, loc, TUS, "Content-Type: application/octet-stream",
	    "Upload-Offset: 0", CHUNK, 415, "application/offset+octet-stream");
	patch_refused(e, loc, TUS, NULL, "Upload-Offset: 0", CHUNK, 415,
	    "offset+octet-stream");
	patch_refused(e, loc, TUS, OCTETS, NULL, CHUNK, 400,
	    "Upload-Offset is required");
	patch_refused(e, loc, TUS, OCTETS, "Upload-Offset: -5", CHUNK, 400,
	    "Upload-Offset");
	patch_refused(e, loc, TUS, OCTETS, "Upload-Offset: 7", CHUNK, 409,
	    "does not match the upload's offset 0");
	/* Cloudflare's chunk rules, each stated in the refusal. */
	patch_refused(e, loc, TUS, OCTETS, "Upload-Offset: 0", CHUNK - 262144,
	    400, "minimum of 5242880 bytes");
	patch_refused(e, loc, TUS, OCTETS, "Upload-Offset: 0", CHUNK + 1000,
	    400, "multiple of 262144 bytes");
	patch_refused(e, loc, TUS, OCTETS, "Upload-Offset: 0", 11 * MIB + 1,
	    413, "past the Upload-Length");
	/* Nothing of it was stored. */
	assert_int_equal(head_offset(e, loc), 0);

	/* One good chunk, then the same offset again conflicts. */
	patch_ok(e, loc, 0, src, CHUNK);
	assert_int_equal(tus_patch(e, loc, 0, src, CHUNK, 0, &r), 409);
	assert_refused(&r, 409, "offset 5242880");
	http_resp_free(&r);
	/* An empty PATCH at the offset is a no-op. */
	patch_ok(e, loc, CHUNK, NULL, 0);
	/* The final chunk may be any size. */
	patch_ok(e, loc, CHUNK, src + CHUNK, 6 * MIB);
	assert_int_equal(head_offset(e, loc), 11 * MIB);
	/* Once complete: more bytes do not fit; an empty PATCH is fine. */
	assert_int_equal(tus_patch(e, loc, 11 * MIB, "x", 1, 0, &r), 413);
	http_resp_free(&r);
	patch_ok(e, loc, 11 * MIB, NULL, 0);
	assert_stored(e, uid, src, 11 * MIB);
	free(loc);

	/* Over the 200 MiB maximum, told by Content-Length up front. */
	loc = tus_create(e, 300LL * MIB, NULL, NULL, uid);
	patch_refused(e, loc, TUS, OCTETS, "Upload-Offset: 0", 200 * MIB +
	    262144, 413, "maximum of 209715200 bytes");
	assert_int_equal(head_offset(e, loc), 0);
	free(loc);

	/* No such upload. */
	other = stream_path(NO_UID);
	patch_refused(e, other, TUS, OCTETS, "Upload-Offset: 0", 10, 404,
	    "not found");
	free(other);
	free(src);
}

/* A chunked body (no Content-Length) is checked once it has all arrived. */
static void
test_patch_chunked(void **state)
{
	struct edgemu		*e = *state;
	struct http_req		 t = { .method = "PATCH" };
	struct http_resp	 r;
	struct zeros		 z;
	char			 uid[33], *loc;

	loc = tus_create(e, 20 * MIB, NULL, NULL, uid);
	t.url = loc;
	t.headers[0] = TUS;
	t.headers[1] = OCTETS;
	t.headers[2] = "Upload-Offset: 0";
	t.read = read_zeros;
	t.read_arg = &z;
	t.read_len = -1;
	z.left = 3 * MIB;
	http_send(e, &t, &r);
	assert_refused(&r, 400, "minimum of 5242880 bytes");
	http_resp_free(&r);
	assert_int_equal(head_offset(e, loc), 0);

	z.left = CHUNK;
	http_send(e, &t, &r);
	assert_int_equal(r.status, 204);
	assert_int_equal(header_num(&r, "upload-offset"), CHUNK);
	http_resp_free(&r);

	/* Past the length: what fits is kept, and the answer is 413. */
	t.headers[2] = "Upload-Offset: 5242880";
	z.left = 16 * MIB;
	t.may_fail = 1;
	http_send(e, &t, &r);
	assert_refused(&r, 413, "past the Upload-Length");
	http_resp_free(&r);
	assert_int_equal(head_offset(e, loc), 20 * MIB);
	free(loc);
}

/* The whole way: bytes in chunks, then queued, inprogress, ready. */
static void
test_upload_to_ready(void **state)
{
	struct edgemu	*e = *state;
	const size_t	 len = 2 * CHUNK + 12345;
	unsigned char	*src = make_mp4(600, 600 * 42 + 300, 1280, 720, len);
	char		 uid[33], seen[256] = "", *loc, *path;
	const char	*s;
	cJSON		*v, *o;

	loc = tus_create(e, (long long)len, "name dHJhaWxlci5tcDQ=", NULL,
	    uid);
	patch_ok(e, loc, 0, src, CHUNK);
	assert_int_equal(head_offset(e, loc), CHUNK);
	v = get_video(e, uid);
	assert_string_equal(state_of(v), "pendingupload");
	cJSON_Delete(v);
	patch_ok(e, loc, CHUNK, src + CHUNK, CHUNK);
	patch_ok(e, loc, 2 * CHUNK, src + 2 * CHUNK, len - 2 * CHUNK);
	assert_stored(e, uid, src, len);

	v = wait_final(e, uid, seen, sizeof seen);
	assert_string_equal(state_of(v), "ready");
	/* Never back to an earlier state. */
	if (strstr(seen, "pendingupload") != NULL ||
	    (strstr(seen, "inprogress") != NULL && strstr(seen, "queued") !=
	    NULL && strstr(seen, "inprogress") < strstr(seen, "queued")))
		fail_msg("states out of order: %s", seen);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(v,
	    "status"), "pctComplete")->valuestring, "100.000000");
	assert_true(cJSON_GetObjectItem(v, "duration")->valuedouble == 42.5);
	o = cJSON_GetObjectItem(v, "input");
	assert_int_equal(cJSON_GetObjectItem(o, "width")->valuedouble, 1280);
	assert_int_equal(cJSON_GetObjectItem(o, "height")->valuedouble, 720);
	assert_int_equal(cJSON_GetObjectItem(v, "size")->valuedouble, len);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "readyToStream")));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(v, "readyToStreamAt")));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(v, "uploaded")));
	s = cJSON_GetObjectItem(v, "thumbnail")->valuestring;
	/* On edgemu's own listener, where its delivery serves them. */
	assert_true(strncmp(s, "http://127.0.0.1:", 17) == 0);
	assert_non_null(strstr(s, uid));
	o = cJSON_GetObjectItem(v, "playback");
	s = cJSON_GetObjectItem(o, "hls")->valuestring;
	assert_non_null(strstr(s, "/media/"));
	assert_non_null(strstr(s, "/manifest/video.m3u8"));
	assert_non_null(strstr(cJSON_GetObjectItem(o, "dash")->valuestring,
	    "/manifest/video.mpd"));
	assert_non_null(strstr(cJSON_GetObjectItem(v, "preview")->valuestring,
	    uid));
	cJSON_Delete(v);

	/* It stays ready, and storage counts its minute. */
	path = itest_printf("/accounts/%s/stream/storage-usage", ACCOUNT);
	v = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetObjectItem(v, "totalStorageMinutes")->
	    valuedouble, 1);
	assert_true(cJSON_GetObjectItem(v, "videoCount")->valuedouble >= 1);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(v, "creator")));
	cJSON_Delete(v);
	free(path);
	free(loc);
	free(src);
}

static cJSON *
upload_whole(struct edgemu *e, const void *src, size_t len,
    const char *metadata, char uid[33])
{
	char	*loc = tus_create(e, (long long)len, metadata, NULL, uid);

	patch_ok(e, loc, 0, src, len);
	free(loc);
	return (wait_final(e, uid, NULL, 0));
}

static void
test_upload_errors(void **state)
{
	struct edgemu	*e = *state;
	static const char text[] = "Dear diary, today I uploaded a text file.";
	unsigned char	*mp4 = make_mp4(1000, 42500, 640, 360, 4096);
	char		 uid[33];
	const cJSON	*st;
	cJSON		*v;

	v = upload_whole(e, text, sizeof text - 1, NULL, uid);
	st = cJSON_GetObjectItem(v, "status");
	assert_string_equal(state_of(v), "error");
	assert_string_equal(cJSON_GetObjectItem(st, "errorReasonCode")->
	    valuestring, "ERR_NON_VIDEO");
	assert_true(strlen(cJSON_GetObjectItem(st, "errorReasonText")->
	    valuestring) > 0);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(v, "readyToStream")));
	assert_null(cJSON_GetObjectItem(v, "playback"));
	cJSON_Delete(v);

	/* maxdurationseconds 10 ("MTA="), the video lasts 42.5 s. */
	v = upload_whole(e, mp4, 4096, "maxdurationseconds MTA=", uid);
	assert_string_equal(state_of(v), "error");
	st = cJSON_GetObjectItem(v, "status");
	assert_string_equal(cJSON_GetObjectItem(st, "errorReasonCode")->
	    valuestring, "ERR_DURATION_EXCEED_CONSTRAINT");
	assert_int_equal(cJSON_GetObjectItem(v, "maxDurationSeconds")->
	    valuedouble, 10);
	assert_true(cJSON_GetObjectItem(v, "duration")->valuedouble == 42.5);
	cJSON_Delete(v);

	/* An empty upload is complete at once: and no video. */
	v = upload_whole(e, NULL, 0, NULL, uid);
	assert_string_equal(state_of(v), "error");
	cJSON_Delete(v);
	free(mp4);
}

/*
 * The stored state of a video, read from the store behind edgemu's back;
 * end, when not NULL, gets its processing clock's end (microseconds).
 */
static char *
stored_state(struct edgemu *e, const char *uid, long long *end)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	char		*path, *state = NULL;

	path = itest_printf("%s/edgemu.db", e->dir);

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		fail_msg("%s: %s", path, sqlite3_errmsg(db));
	sqlite3_busy_timeout(db, 5000);
	if (sqlite3_prepare_v2(db, "SELECT state, process_end FROM"
	    " stream_video WHERE uid = ?", -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, uid, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		state = strdup((const char *)sqlite3_column_text(st, 0));
		if (end != NULL)
			*end = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
	return (state);
}

/*
 * Nobody reads the video, yet it becomes ready for good (the moment the
 * webhook is sent): the store says so without any GET.
 */
static void
test_ready_unread(void **state)
{
	struct edgemu	*e = *state;
	unsigned char	*src = make_mp4(1000, 3000, 320, 240, 4096);
	time_t		 deadline = time(NULL) + WAIT_SECONDS;
	struct timespec	 now;
	long long	 end = 0;
	char		 uid[33], *loc, *s;

	loc = tus_create(e, 4096, NULL, NULL, uid);
	patch_ok(e, loc, 0, src, 4096);
	/*
	 * Queued with a clock; or, when a loaded machine let its second of
	 * processing pass before this read, already ready, but never before
	 * its clock's end.
	 */
	s = stored_state(e, uid, &end);
	assert_non_null(s);
	assert_true(end > 0);
	if (strcmp(s, "ready") == 0) {
		clock_gettime(CLOCK_REALTIME, &now);
		assert_true((long long)now.tv_sec * 1000000 +
		    now.tv_nsec / 1000 >= end);
	} else
		assert_string_equal(s, "queued");
	while (strcmp(s, "ready") != 0) {
		free(s);
		if (time(NULL) > deadline)
			fail_msg("not ready in the store after %d s",
			    WAIT_SECONDS);
		pause_briefly();
		s = stored_state(e, uid, NULL);
		assert_non_null(s);
	}
	free(s);
	free(loc);
	free(src);
}

/* 64 MiB in 5 MiB chunks and a 4 MiB last one, stored byte for byte. */
static void
test_upload_64mib(void **state)
{
	struct edgemu	*e = *state;
	const size_t	 len = 64 * MIB;
	unsigned char	*src = make_mp4(90000, 90000 * 600, 1920, 1080, len);
	char		 uid[33], *loc;
	size_t		 off, n;
	cJSON		*v;

	loc = tus_create(e, (long long)len, "name YmlnLm1wNA==", NULL, uid);
	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? len - off : CHUNK;
		patch_ok(e, loc, (long long)off, src + off, n);
	}
	assert_int_equal(head_offset(e, loc), len);
	assert_stored(e, uid, src, len);
	v = wait_final(e, uid, NULL, 0);
	assert_string_equal(state_of(v), "ready");
	assert_true(cJSON_GetObjectItem(v, "duration")->valuedouble == 600);
	cJSON_Delete(v);
	free(loc);
	free(src);
}

/* ---- PATCHes that pause: the lock, a client going away, kill -9 ---------- */

/*
 * A body sent from memory that stops at pause_at until released (then goes
 * on) or aborted (then the client gives up on the request).
 */
struct slow {
	const unsigned char	*src;
	size_t			 len;
	size_t			 sent;
	size_t			 pause_at;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 released;
	int			 aborted;
};

static size_t
read_slow(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct slow	*s = arg;
	size_t		 n = size * nmemb, left;

	if (s->sent == s->pause_at) {
		pthread_mutex_lock(&s->mu);
		while (!s->released && !s->aborted)
			pthread_cond_wait(&s->cv, &s->mu);
		pthread_mutex_unlock(&s->mu);
		if (s->aborted)
			return (CURL_READFUNC_ABORT);
	}
	left = (s->sent < s->pause_at ? s->pause_at : s->len) - s->sent;
	if (n > left)
		n = left;
	memcpy(buf, s->src + s->sent, n);
	s->sent += n;
	return (n);
}

struct patcher {
	struct edgemu		*e;
	const char		*loc;
	long long		 offset;
	struct slow		 slow;
	struct http_resp	 r;
	CURLcode		 rc;
	pthread_t		 thread;
};

static void *
patcher_main(void *arg)
{
	struct patcher	*p = arg;
	struct http_req	 t = { .method = "PATCH", .url = p->loc };
	char		*off = itest_printf("Upload-Offset: %lld", p->offset);

	t.headers[0] = TUS;
	t.headers[1] = OCTETS;
	t.headers[2] = off;
	t.read = read_slow;
	t.read_arg = &p->slow;
	t.read_len = (curl_off_t)p->slow.len;
	t.may_fail = 1;		/* no cmocka failures off the main thread */
	p->rc = http_send(p->e, &t, &p->r);
	free(off);
	return (NULL);
}

static void
patcher_start(struct patcher *p, struct edgemu *e, const char *loc,
    long long offset, const unsigned char *src, size_t len, size_t pause_at)
{
	memset(p, 0, sizeof *p);
	p->e = e;
	p->loc = loc;
	p->offset = offset;
	p->slow.src = src;
	p->slow.len = len;
	p->slow.pause_at = pause_at;
	pthread_mutex_init(&p->slow.mu, NULL);
	pthread_cond_init(&p->slow.cv, NULL);
	if (pthread_create(&p->thread, NULL, patcher_main, p) != 0)
		fail_msg("pthread_create");
}

static void
patcher_finish(struct patcher *p, int abort_it)
{
	pthread_mutex_lock(&p->slow.mu);
	if (abort_it)
		p->slow.aborted = 1;
	else
		p->slow.released = 1;
	pthread_cond_signal(&p->slow.cv);
	pthread_mutex_unlock(&p->slow.mu);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->slow.mu);
	pthread_cond_destroy(&p->slow.cv);
}

static long long
file_size(const char *path)
{
	struct stat	sb;

	return (stat(path, &sb) == 0 ? (long long)sb.st_size : -1);
}

/* Until the server has written at least size bytes of the upload. */
static void
wait_file_size(const char *path, long long size)
{
	time_t	deadline = time(NULL) + WAIT_SECONDS;

	while (file_size(path) < size) {
		if (time(NULL) > deadline)
			fail_msg("%s has %lld bytes, wanted %lld", path,
			    file_size(path), size);
		pause_briefly();
	}
}

/* Until HEAD reports this offset (the server records a cut-short PATCH). */
static void
wait_offset(struct edgemu *e, const char *loc, long long want)
{
	time_t	deadline = time(NULL) + WAIT_SECONDS;

	while (head_offset(e, loc) != want) {
		if (time(NULL) > deadline)
			fail_msg("offset %lld, wanted %lld", head_offset(e,
			    loc), want);
		pause_briefly();
	}
}

static void
test_one_patch_at_a_time(void **state)
{
	struct edgemu		*e = *state;
	struct patcher		 p;
	struct http_resp	 r;
	struct http_req		 t = { .method = "DELETE" };
	unsigned char		*src = make_mp4(1000, 9000, 320, 240, 20 * MIB);
	char			 uid[33], *loc, *file;

	loc = tus_create(e, 20 * MIB, NULL, NULL, uid);
	file = video_file(e, uid);
	assert_false(head_in_progress(e, loc));
	patcher_start(&p, e, loc, 0, src, 10 * MIB, MIB);
	/* Bytes on disk: the first PATCH holds the upload. */
	wait_file_size(file, 1);
	assert_true(head_in_progress(e, loc));
	assert_int_equal(tus_patch(e, loc, 0, src, CHUNK, 0, &r), 423);
	assert_refused(&r, 423, "already has a PATCH in progress");
	http_resp_free(&r);
	t.url = loc;
	t.headers[0] = TUS;
	http_send(e, &t, &r);
	assert_refused(&r, 423, "in progress");
	http_resp_free(&r);
	patcher_finish(&p, 0);
	assert_int_equal(p.rc, CURLE_OK);
	assert_int_equal(p.r.status, 204);
	assert_int_equal(header_num(&p.r, "upload-offset"), 10 * MIB);
	http_resp_free(&p.r);
	/* The lock went with the request. */
	assert_false(head_in_progress(e, loc));
	patch_ok(e, loc, 10 * MIB, src + 10 * MIB, 10 * MIB);
	assert_stored(e, uid, src, 20 * MIB);
	free(file);
	free(loc);
	free(src);
}

/* The video is deleted while a PATCH is in flight: the PATCH ends in 404. */
static void
test_delete_during_patch(void **state)
{
	struct edgemu	*e = *state;
	struct patcher	 p;
	unsigned char	*src = make_mp4(1000, 9000, 320, 240, 20 * MIB);
	char		 uid[33], *loc, *file, *path;
	cJSON		*v;

	loc = tus_create(e, 20 * MIB, NULL, NULL, uid);
	file = video_file(e, uid);
	patcher_start(&p, e, loc, 0, src, 10 * MIB, MIB);
	wait_file_size(file, 1);
	path = stream_path(uid);
	v = api_ok(e, "DELETE", path, NULL);
	cJSON_Delete(v);
	assert_int_equal(file_size(file), -1);
	patcher_finish(&p, 0);
	assert_int_equal(p.r.status, 404);
	assert_refused(&p.r, 404, "deleted");
	http_resp_free(&p.r);
	free(api_fail(e, "GET", path, NULL, 404));
	assert_int_equal(file_size(file), -1);
	free(path);
	free(file);
	free(loc);
	free(src);
}

/* The client gives up halfway: what reached the server is kept. */
static void
test_patch_cut_short(void **state)
{
	struct edgemu	*e = *state;
	struct patcher	 p;
	unsigned char	*src = make_mp4(1000, 9000, 320, 240, 20 * MIB);
	char		 uid[33], *loc, *file;

	loc = tus_create(e, 20 * MIB, NULL, NULL, uid);
	file = video_file(e, uid);
	patcher_start(&p, e, loc, 0, src, 10 * MIB, 3 * MIB);
	wait_file_size(file, 3 * MIB);
	patcher_finish(&p, 1);
	assert_int_not_equal(p.rc, CURLE_OK);
	http_resp_free(&p.r);
	wait_offset(e, loc, 3 * MIB);
	/* The offset comes with the lock's release. */
	assert_false(head_in_progress(e, loc));
	assert_int_equal(file_size(file), 3 * MIB);
	/* Resume from there. */
	patch_ok(e, loc, 3 * MIB, src + 3 * MIB, CHUNK);
	patch_ok(e, loc, 8 * MIB, src + 8 * MIB, 12 * MIB);
	assert_stored(e, uid, src, 20 * MIB);
	free(file);
	free(loc);
	free(src);
}

/*
 * kill -9 in the middle of a PATCH: after the restart HEAD reports exactly
 * the bytes on disk, they are the source's first bytes, and the upload
 * completes from there to a file equal to the source.
 */
static void
test_kill_mid_patch(void **state)
{
	struct edgemu	*e = *state;
	struct patcher	 p;
	const size_t	 len = 24 * MIB;
	unsigned char	*src = make_mp4(1000, 75000, 640, 480, len);
	unsigned char	*disk;
	char		 uid[33], *loc, *file, *path;
	long long	 off;
	size_t		 n;
	cJSON		*v;

	loc = tus_create(e, (long long)len, NULL, NULL, uid);
	file = video_file(e, uid);
	patch_ok(e, loc, 0, src, CHUNK);
	patcher_start(&p, e, loc, CHUNK, src + CHUNK, 10 * MIB, 3 * MIB);
	wait_file_size(file, CHUNK + 3 * MIB);
	edgemu_kill(e, SIGKILL);
	patcher_finish(&p, 1);
	http_resp_free(&p.r);

	edgemu_restart(e);
	/* A new port: the upload is found again by its path. */
	free(loc);
	path = stream_path(uid);
	loc = itest_printf("%s%s", e->url, path);
	free(path);
	off = head_offset(e, loc);
	assert_int_equal(off, file_size(file));
	assert_int_equal(off, CHUNK + 3 * MIB);
	disk = read_file(file, &n);
	assert_int_equal(n, off);
	assert_memory_equal(disk, src, n);
	free(disk);

	patch_ok(e, loc, off, src + off, CHUNK);
	off += CHUNK;
	patch_ok(e, loc, off, src + off, len - (size_t)off);
	assert_stored(e, uid, src, len);
	v = wait_final(e, uid, NULL, 0);
	assert_string_equal(state_of(v), "ready");
	assert_true(cJSON_GetObjectItem(v, "duration")->valuedouble == 75);
	cJSON_Delete(v);
	free(file);
	free(loc);
	free(src);
}

/* ---- expiry, termination ------------------------------------------------- */

static void
expire(struct edgemu *e, const char *uid)
{
	char	*path = stream_path(uid);
	cJSON	*v;

	v = api_ok(e, "POST", path, "{\"uploadExpiry\":"
	    "\"2001-02-03T04:05:06Z\"}");
	cJSON_Delete(v);
	free(path);
}

static void
test_expired(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	unsigned char		*src = make_mp4(1000, 9000, 320, 240, CHUNK);
	char			 uid[33], *loc;

	loc = tus_create(e, 2 * CHUNK, NULL, NULL, uid);
	patch_ok(e, loc, 0, src, CHUNK);
	expire(e, uid);
	tus_head(e, loc, 0, &r);
	assert_int_equal(r.status, 410);
	assert_null(http_header(&r, "upload-offset"));
	http_resp_free(&r);
	assert_int_equal(tus_patch(e, loc, CHUNK, src, CHUNK, 0, &r), 410);
	assert_refused(&r, 410, "expired at 2001-02-03T04:05:06");
	http_resp_free(&r);
	free(loc);
	free(src);
}

static void
test_terminate(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct http_req		 t = { .method = "DELETE" };
	unsigned char		*src = make_mp4(1000, 9000, 320, 240, CHUNK);
	char			 uid[33], *loc, *file, *path, *msg;
	cJSON			*v;

	loc = tus_create(e, 2 * CHUNK, NULL, NULL, uid);
	file = video_file(e, uid);
	patch_ok(e, loc, 0, src, CHUNK);
	assert_int_equal(file_size(file), CHUNK);
	t.url = loc;
	t.headers[0] = "Tus-Resumable: 0.1.0";
	http_send(e, &t, &r);
	assert_refused(&r, 412, NULL);
	http_resp_free(&r);
	t.headers[0] = TUS;
	http_send(e, &t, &r);
	assert_int_equal(r.status, 204);
	assert_string_equal(must_header(&r, "tus-resumable"), "1.0.0");
	http_resp_free(&r);
	assert_int_equal(file_size(file), -1);
	tus_head(e, loc, 0, &r);
	assert_int_equal(r.status, 404);
	http_resp_free(&r);
	assert_int_equal(tus_patch(e, loc, CHUNK, src, CHUNK, 0, &r), 404);
	http_resp_free(&r);
	path = stream_path(uid);
	msg = api_fail(e, "GET", path, NULL, 404);
	free(msg);
	http_send(e, &t, &r);
	assert_int_equal(r.status, 404);
	http_resp_free(&r);
	free(path);
	free(file);
	free(loc);

	/* On a video's own URL, termination takes any video. */
	v = upload_whole(e, src, 4096, NULL, uid);
	cJSON_Delete(v);
	path = stream_path(uid);
	t.url = path;
	http_send(e, &t, &r);
	assert_int_equal(r.status, 204);
	http_resp_free(&r);
	free(api_fail(e, "GET", path, NULL, 404));
	free(path);
	free(src);
}

/* ---- one-time URLs ------------------------------------------------------- */

static char *
b64(const char *s)
{
	static const char	 d[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n = strlen(s), i, o = 0;
	char			*out = calloc(1, n / 3 * 4 + 8);

	for (i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)u[i] << 16 |
		    (i + 1 < n ? (uint32_t)u[i + 1] << 8 : 0) |
		    (i + 2 < n ? u[i + 2] : 0);

		out[o++] = d[v >> 18 & 63];
		out[o++] = d[v >> 12 & 63];
		out[o++] = i + 1 < n ? d[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? d[v & 63] : '=';
	}
	return (out);
}

static char *
iso_in(long seconds)
{
	time_t		t = time(NULL) + seconds;
	struct tm	tm;
	char		s[32];

	gmtime_r(&t, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return (strdup(s));
}

static void
test_direct_user(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct http_req		 t = { .method = "DELETE", .noauth = 1 };
	unsigned char		*src = make_mp4(1000, 30000, 640, 360, 300000);
	char			 uid[33], *loc, *bad, *meta, *when, *enc, *q;
	cJSON			*v;

	when = iso_in(3600);
	enc = b64(when);
	meta = itest_printf("maxDurationSeconds NjAw,expiry %s", enc);
	loc = tus_create(e, 300000, meta, "?direct_user=true", uid);
	/* Outside the API prefix, a token in the query. */
	assert_null(strstr(loc, "/client/v4"));
	q = itest_printf("/tus/%s?token=", uid);
	assert_non_null(strstr(loc, q));
	free(q);

	v = get_video(e, uid);
	assert_string_equal(state_of(v), "pendingupload");
	assert_int_equal(cJSON_GetObjectItem(v, "maxDurationSeconds")->
	    valuedouble, 600);
	assert_true(strncmp(cJSON_GetObjectItem(v, "uploadExpiry")->valuestring,
	    when, 19) == 0);
	cJSON_Delete(v);

	/* No credentials needed; a wrong token finds nothing. */
	tus_head(e, loc, 1, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(header_num(&r, "upload-offset"), 0);
	http_resp_free(&r);
	bad = strdup(loc);
	bad[strlen(bad) - 1] = bad[strlen(bad) - 1] == '0' ? '1' : '0';
	tus_head(e, bad, 1, &r);
	assert_int_equal(r.status, 404);
	http_resp_free(&r);
	assert_int_equal(tus_patch(e, bad, 0, src, 300000, 1, &r), 404);
	http_resp_free(&r);
	*strstr(bad, "?token=") = '\0';
	assert_int_equal(tus_patch(e, bad, 0, src, 300000, 1, &r), 404);
	http_resp_free(&r);

	assert_int_equal(tus_patch(e, loc, 0, src, 300000, 1, &r), 204);
	assert_int_equal(header_num(&r, "upload-offset"), 300000);
	http_resp_free(&r);
	/* Used once: no more. */
	assert_int_equal(tus_patch(e, loc, 300000, NULL, 0, 1, &r), 410);
	assert_refused(&r, 410, "one-time upload URL has been used");
	http_resp_free(&r);
	assert_int_equal(tus_patch(e, loc, 0, src, 300000, 1, &r), 410);
	http_resp_free(&r);
	t.url = loc;
	t.headers[0] = TUS;
	http_send(e, &t, &r);
	assert_int_equal(r.status, 410);
	http_resp_free(&r);
	/* A resuming client still learns the upload is whole. */
	tus_head(e, loc, 1, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(header_num(&r, "upload-offset"), 300000);
	http_resp_free(&r);

	v = wait_final(e, uid, NULL, 0);
	assert_string_equal(state_of(v), "ready");
	assert_true(cJSON_GetObjectItem(v, "duration")->valuedouble == 30);
	cJSON_Delete(v);
	assert_stored(e, uid, src, 300000);

	/* An expiry outside 2 minutes to 6 hours is refused. */
	free(when);
	free(enc);
	free(meta);
	when = iso_in(60);
	enc = b64(when);
	meta = itest_printf("Upload-Metadata: expiry %s", enc);
	create_refused(e, TUS, "Upload-Length: 10", meta, 400,
	    "between 2 minutes and 6 hours");
	free(when);
	free(enc);
	free(meta);
	free(bad);
	free(loc);
	free(src);
}

static cJSON *
direct_upload(struct edgemu *e, const char *body)
{
	char	*path = itest_printf("/accounts/%s/stream/direct_upload",
		    ACCOUNT);
	cJSON	*v = api_ok(e, "POST", path, body);

	free(path);
	return (v);
}

static void
direct_refused(struct edgemu *e, const char *body, const char *says)
{
	char	*path = itest_printf("/accounts/%s/stream/direct_upload",
		    ACCOUNT);
	char	*msg = api_fail(e, "POST", path, body, 400);

	if (strstr(msg, says) == NULL)
		fail_msg("'%s' does not say '%s'", msg, says);
	free(msg);
	free(path);
}

static void
multipart(struct edgemu *e, const char *url, const void *file, size_t len,
    const char *field, struct http_resp *r)
{
	struct http_req	t = { .method = "POST", .url = url, .noauth = 1 };

	t.file = file;
	t.file_len = len;
	t.field = field;
	t.field_name = "note";
	http_send(e, &t, r);
}

static void
test_direct_upload(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct http_req		 t = { .method = "POST", .noauth = 1 };
	const size_t		 len = 3 * MIB + 77;
	unsigned char		*src = make_mp4(25, 25 * 61, 854, 480, len);
	char			*soon, *later, *body, *url, *bad;
	const char		*uid;
	cJSON			*res, *v;

	direct_refused(e, "{}", "maxDurationSeconds: required");
	direct_refused(e, "{\"maxDurationSeconds\":0}", "out of range");
	direct_refused(e, "{\"maxDurationSeconds\":21601}", "out of range");
	direct_refused(e, "{\"maxDurationSeconds\":60,"
	    "\"thumbnailTimestampPct\":2}", "thumbnailTimestampPct");
	direct_refused(e, "{\"maxDurationSeconds\":60,\"watermark\":"
	    "{\"uid\":\"nope\"}}", "watermark");
	soon = iso_in(60);
	body = itest_printf("{\"maxDurationSeconds\":60,\"expiry\":\"%s\"}",
	    soon);
	direct_refused(e, body, "between 2 minutes and 6 hours");
	free(body);
	free(soon);

	later = iso_in(40 * 86400);
	body = itest_printf("{\"maxDurationSeconds\":3600,"
	    "\"meta\":{\"name\":\"from a browser\"},\"creator\":\"web\","
	    "\"requireSignedURLs\":true,\"allowedOrigins\":[\"a.example\"],"
	    "\"thumbnailTimestampPct\":0.75,\"scheduledDeletion\":\"%s\","
	    "\"watermark\":{\"uid\":\"%s\"}}", later, ACCOUNT);
	res = direct_upload(e, body);
	free(body);
	uid = cJSON_GetObjectItem(res, "uid")->valuestring;
	url = strdup(cJSON_GetObjectItem(res, "uploadURL")->valuestring);
	assert_null(strstr(url, "/client/v4"));
	assert_non_null(strstr(url, uid));
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(res,
	    "watermark"), "uid")->valuestring, ACCOUNT);
	assert_true(strncmp(cJSON_GetObjectItem(res, "scheduledDeletion")->
	    valuestring, later, 19) == 0);
	v = get_video(e, uid);
	assert_string_equal(state_of(v), "pendingupload");
	assert_string_equal(cJSON_GetObjectItem(v, "creator")->valuestring,
	    "web");
	assert_true(cJSON_IsString(cJSON_GetObjectItem(v, "uploadExpiry")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "requireSignedURLs")));
	cJSON_Delete(v);

	/* Not multipart; multipart without a file part; a wrong token. */
	t.url = url;
	t.headers[0] = "Content-Type: application/json";
	t.body = "{}";
	t.len = 2;
	http_send(e, &t, &r);
	assert_refused(&r, 415, "multipart/form-data");
	http_resp_free(&r);
	multipart(e, url, NULL, 0, "just a note", &r);
	assert_refused(&r, 400, "no part named file");
	http_resp_free(&r);
	bad = strdup(url);
	bad[strlen(bad) - 1] = bad[strlen(bad) - 1] == 'a' ? 'b' : 'a';
	multipart(e, bad, src, len, NULL, &r);
	assert_refused(&r, 404, NULL);
	http_resp_free(&r);

	/* Once, without credentials; then never again. */
	multipart(e, url, src, len, "a field before the file", &r);
	if (r.status != 200)
		fail_msg("upload: %ld %.300s", r.status, r.body);
	assert_envelope(&r);
	http_resp_free(&r);
	multipart(e, url, src, len, NULL, &r);
	assert_refused(&r, 409, "already been used");
	http_resp_free(&r);
	assert_stored(e, uid, src, len);
	v = wait_final(e, uid, NULL, 0);
	assert_string_equal(state_of(v), "ready");
	assert_true(cJSON_GetObjectItem(v, "duration")->valuedouble == 61);
	assert_int_equal(cJSON_GetObjectItem(v, "size")->valuedouble, len);
	cJSON_Delete(v);
	cJSON_Delete(res);
	free(url);

	/* An expired URL. */
	res = direct_upload(e, "{\"maxDurationSeconds\":60}");
	url = strdup(cJSON_GetObjectItem(res, "uploadURL")->valuestring);
	expire(e, cJSON_GetObjectItem(res, "uid")->valuestring);
	multipart(e, url, src, 1000, NULL, &r);
	assert_refused(&r, 410, "expired");
	http_resp_free(&r);
	cJSON_Delete(res);
	free(url);
	free(bad);
	free(later);
	free(src);
}

/* ---- the list ------------------------------------------------------------ */

#define LIST_N	1010

static void
test_list(void **state)
{
	struct edgemu	*e = *state;
	char		 uid[33], *loc, *meta, *path, *q, *end;
	char		*name, *enc, **uids, *seen;
	const char	*prev;
	cJSON		*r, *res, *item;
	int		 i, got = 0;
	long		 total;

	uids = calloc(LIST_N, sizeof *uids);
	for (i = 0; i < LIST_N; i++) {
		name = itest_printf(i % 100 == 7 ? "Holiday %04d" :
		    "clip %04d", i);
		enc = b64(name);
		meta = itest_printf("name %s", enc);
		/* One byte never sent: they stay pendingupload. */
		loc = tus_create(e, 1, meta, NULL, uid);
		uids[i] = strdup(uid);
		free(loc);
		free(meta);
		free(enc);
		free(name);
	}
	path = stream_path(NULL);

	/* Newest first, 1000 at most; total and range at the top level. */
	q = itest_printf("%s?include_counts=true", path);
	{
		struct http_resp hr;

		http_json(e, "GET", q, NULL, &hr);
		assert_int_equal(hr.status, 200);
		res = cJSON_GetObjectItem(hr.json, "result");
		assert_int_equal(cJSON_GetArraySize(res), 1000);
		assert_int_equal(cJSON_GetObjectItem(hr.json, "total")->
		    valuedouble, LIST_N);
		assert_int_equal(cJSON_GetObjectItem(hr.json, "range")->
		    valuedouble, LIST_N - 1000);
		assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(res,
		    0), "uid")->valuestring, uids[LIST_N - 1]);
		http_resp_free(&hr);
	}
	free(q);

	/* The created cursor: every video once, none twice. */
	seen = calloc(LIST_N, 34);
	end = NULL;
	for (;;) {
		q = end == NULL ? strdup(path) :
		    itest_printf("%s?end=%s", path, end);
		r = api_ok(e, "GET", q, NULL);
		free(q);
		if (cJSON_GetArraySize(r) == 0) {
			cJSON_Delete(r);
			break;
		}
		prev = NULL;
		cJSON_ArrayForEach(item, r) {
			const char *c = cJSON_GetObjectItem(item,
			    "created")->valuestring;
			const char *u = cJSON_GetObjectItem(item,
			    "uid")->valuestring;

			if (prev != NULL && strcmp(c, prev) >= 0)
				fail_msg("not newest first: %s then %s", prev,
				    c);
			prev = c;
			if (strstr(seen, u) != NULL)
				fail_msg("%s listed twice", u);
			strcat(seen, u);
			strcat(seen, " ");
			got++;
		}
		free(end);
		end = strdup(prev);
		cJSON_Delete(r);
	}
	free(end);
	assert_int_equal(got, LIST_N);
	for (i = 0; i < LIST_N; i++)
		assert_non_null(strstr(seen, uids[i]));
	free(seen);

	/* asc from a start: strictly after it. */
	q = itest_printf("%s?asc=true", path);
	r = api_ok(e, "GET", q, NULL);
	free(q);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(r, 0),
	    "uid")->valuestring, uids[0]);
	q = itest_printf("%s?asc=true&include_counts=true&start=%s", path,
	    cJSON_GetObjectItem(cJSON_GetArrayItem(r, 4),
	    "created")->valuestring);
	cJSON_Delete(r);
	{
		struct http_resp hr;

		http_json(e, "GET", q, NULL, &hr);
		res = cJSON_GetObjectItem(hr.json, "result");
		assert_int_equal(cJSON_GetArraySize(res), 1000);
		assert_int_equal(cJSON_GetObjectItem(hr.json, "total")->
		    valuedouble, LIST_N - 5);
		assert_int_equal(cJSON_GetObjectItem(hr.json, "range")->
		    valuedouble, LIST_N - 5 - 1000);
		assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(res,
		    0), "uid")->valuestring, uids[5]);
		http_resp_free(&hr);
	}
	free(q);

	/* search (meta.name, any case), status, type. */
	q = itest_printf("%s?search=HOLIDAY", path);
	r = api_ok(e, "GET", q, NULL);
	free(q);
	total = 0;
	for (i = 0; i < LIST_N; i++)
		total += i % 100 == 7;
	assert_int_equal(cJSON_GetArraySize(r), total);
	cJSON_Delete(r);
	q = itest_printf("%s?status=ready", path);
	r = api_ok(e, "GET", q, NULL);
	assert_int_equal(cJSON_GetArraySize(r), 0);
	cJSON_Delete(r);
	free(q);
	q = itest_printf("%s?status=pendingupload&type=vod&search=clip", path);
	r = api_ok(e, "GET", q, NULL);
	assert_int_equal(cJSON_GetArraySize(r), LIST_N - total);
	cJSON_Delete(r);
	free(q);
	q = itest_printf("%s?status=finished", path);
	free(api_fail(e, "GET", q, NULL, 400));
	free(q);
	q = itest_printf("%s?end=last-tuesday", path);
	free(api_fail(e, "GET", q, NULL, 400));
	free(q);
	for (i = 0; i < LIST_N; i++)
		free(uids[i]);
	free(uids);
	free(path);
}

static void
test_list_creator(void **state)
{
	struct edgemu		*e = *state;
	struct http_req		 t = { .method = "POST" };
	struct http_resp	 r;
	char			*path = stream_path(NULL), *q;
	cJSON			*v;
	int			 i;

	t.url = path;
	t.headers[0] = TUS;
	t.headers[1] = "Upload-Length: 5";
	for (i = 0; i < 7; i++) {
		t.headers[2] = i % 3 == 0 ? "Upload-Creator: alice" :
		    "Upload-Creator: bob";
		http_send(e, &t, &r);
		assert_int_equal(r.status, 201);
		http_resp_free(&r);
	}
	q = itest_printf("%s?creator=alice&include_counts=true", path);
	http_json(e, "GET", q, NULL, &r);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r.json,
	    "result")), 3);
	assert_int_equal(cJSON_GetObjectItem(r.json, "total")->valuedouble, 3);
	assert_int_equal(cJSON_GetObjectItem(r.json, "range")->valuedouble, 0);
	http_resp_free(&r);
	free(q);
	/* Without include_counts, no counts. */
	q = itest_printf("%s?creator=bob", path);
	http_json(e, "GET", q, NULL, &r);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r.json,
	    "result")), 4);
	assert_null(cJSON_GetObjectItem(r.json, "total"));
	assert_null(cJSON_GetObjectItem(r.json, "range"));
	http_resp_free(&r);
	free(q);
	q = itest_printf("/accounts/%s/stream/storage-usage?creator=bob",
	    ACCOUNT);
	v = api_ok(e, "GET", q, NULL);
	assert_int_equal(cJSON_GetObjectItem(v, "videoCount")->valuedouble, 4);
	assert_string_equal(cJSON_GetObjectItem(v, "creator")->valuestring,
	    "bob");
	cJSON_Delete(v);
	free(q);
	free(path);
}

/* ---- edit, delete, storage ----------------------------------------------- */

static void
test_edit_delete(void **state)
{
	struct edgemu	*e = *state;
	unsigned char	*src = make_mp4(1000, 90000, 640, 360, 5000);
	char		 uid[33], *path, *usage, *msg, *file, *later, *body;
	cJSON		*v;

	v = upload_whole(e, src, 5000, "name b2xk", uid);
	cJSON_Delete(v);
	path = stream_path(uid);
	usage = itest_printf("/accounts/%s/stream/storage-usage", ACCOUNT);
	v = api_ok(e, "GET", usage, NULL);
	assert_int_equal(cJSON_GetObjectItem(v, "totalStorageMinutes")->
	    valuedouble, 2);				/* 90 s, rounded up */
	assert_int_equal(cJSON_GetObjectItem(v, "videoCount")->valuedouble, 1);
	cJSON_Delete(v);

	msg = api_fail(e, "POST", path, "{\"thumbnailTimestampPct\":1.5}",
	    400);
	assert_non_null(strstr(msg, "thumbnailTimestampPct: 1.5 is out of "
	    "range (0 to 1)"));
	free(msg);
	msg = api_fail(e, "POST", path, "{\"allowedOrigins\":[\"a\",2]}", 400);
	assert_non_null(strstr(msg, "allowedOrigins[1]"));
	free(msg);
	msg = api_fail(e, "POST", path, "{\"scheduledDeletion\":\"tomorrow\"}",
	    400);
	free(msg);
	msg = api_fail(e, "POST", path, "not json", 400);
	free(msg);

	later = iso_in(60 * 86400);
	body = itest_printf("{\"meta\":{\"name\":\"new\"},"
	    "\"requireSignedURLs\":true,\"allowedOrigins\":[\"x.example\"],"
	    "\"thumbnailTimestampPct\":0.1,\"creator\":\"carol\","
	    "\"scheduledDeletion\":\"%s\",\"maxDurationSeconds\":120}", later);
	v = api_ok(e, "POST", path, body);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(v, "meta"),
	    "name")->valuestring, "new");
	assert_string_equal(state_of(v), "ready");
	cJSON_Delete(v);
	v = get_video(e, uid);
	assert_string_equal(cJSON_GetObjectItem(v, "creator")->valuestring,
	    "carol");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "requireSignedURLs")));
	assert_true(cJSON_GetObjectItem(v, "thumbnailTimestampPct")->
	    valuedouble == 0.1);
	assert_true(strncmp(cJSON_GetObjectItem(v, "scheduledDeletion")->
	    valuestring, later, 19) == 0);
	cJSON_Delete(v);
	free(body);
	free(later);

	/* Delete takes the bytes too. */
	file = video_file(e, uid);
	assert_int_equal(file_size(file), 5000);
	v = api_ok(e, "DELETE", path, NULL);
	cJSON_Delete(v);
	assert_int_equal(file_size(file), -1);
	free(api_fail(e, "GET", path, NULL, 404));
	free(api_fail(e, "DELETE", path, NULL, 404));
	free(api_fail(e, "POST", path, "{}", 404));
	v = api_ok(e, "GET", usage, NULL);
	assert_int_equal(cJSON_GetObjectItem(v, "videoCount")->valuedouble, 0);
	assert_int_equal(cJSON_GetObjectItem(v, "totalStorageMinutes")->
	    valuedouble, 0);
	cJSON_Delete(v);
	/* Not a uid. */
	free(path);
	path = stream_path("not-a-uid");
	free(api_fail(e, "GET", path, NULL, 400));
	free(file);
	free(usage);
	free(path);
	free(src);
}

/* ---- the demo library ---------------------------------------------------- */

static void
test_demo(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	const cJSON		*v, *st;
	char			*q, *file;
	int			 ready = 0, pending = 0, queued = 0, inprog = 0;
	int			 nonvideo = 0, toolong = 0, signedurls = 0;
	int			 origins = 0;

	q = itest_printf("/accounts/%s/stream?include_counts=true", e->account);
	http_json(e, "GET", q, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(cJSON_GetObjectItem(r.json, "total")->valuedouble, 50);
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(r.json, "result")) {
		const char *s = state_of(v);

		st = cJSON_GetObjectItem(v, "status");
		ready += strcmp(s, "ready") == 0;
		pending += strcmp(s, "pendingupload") == 0;
		queued += strcmp(s, "queued") == 0;
		inprog += strcmp(s, "inprogress") == 0;
		nonvideo += strcmp(cJSON_GetObjectItem(st, "errorReasonCode")->
		    valuestring, "ERR_NON_VIDEO") == 0;
		toolong += strcmp(cJSON_GetObjectItem(st, "errorReasonCode")->
		    valuestring, "ERR_DURATION_EXCEED_CONSTRAINT") == 0;
		signedurls += cJSON_IsTrue(cJSON_GetObjectItem(v,
		    "requireSignedURLs"));
		origins += cJSON_GetArraySize(cJSON_GetObjectItem(v,
		    "allowedOrigins")) > 0;
		if (strcmp(s, "ready") != 0)
			continue;
		assert_true(cJSON_GetObjectItem(v, "duration")->
		    valuedouble > 0);
		assert_non_null(cJSON_GetObjectItem(v, "playback"));
		/* Ready demo videos have bytes to serve. */
		file = itest_printf("%s/videos/%s/%s", e->dir, e->account,
		    cJSON_GetObjectItem(v, "uid")->valuestring);
		assert_true(file_size(file) > 100);
		free(file);
	}
	assert_true(ready >= 30);
	assert_true(pending >= 1 && queued >= 1 && inprog >= 1);
	assert_true(nonvideo >= 1 && toolong >= 1);
	assert_true(signedurls >= 1 && origins >= 1);
	http_resp_free(&r);
	free(q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_options,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_create_refused,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_create_metadata,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_patch_refused,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_patch_chunked,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_upload_to_ready,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_upload_errors,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_ready_unread,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_upload_64mib,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_one_patch_at_a_time,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_delete_during_patch,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_patch_cut_short,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_kill_mid_patch,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_expired,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_terminate,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_direct_user,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_direct_upload,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_list,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_list_creator,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_edit_delete,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_demo,
		    edgemu_fixture_fast_demo, edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
