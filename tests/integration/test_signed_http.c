/*
 * Signed URLs end to end against edgemu: the token call, tokens signed
 * locally by libedge with a signing key, and the delivery URLs a video's
 * playback, thumbnail and download fields point to, opened by a token in
 * the uid's place and refused (with the status and the reason) when the
 * token is expired, not yet valid, signed by the wrong or a deleted key,
 * blocked by its access rules, not downloadable, or the Origin is not
 * allowed.
 */
#include "config.h"

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
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "itest.h"
#include "jsonget.h"
#include "jwt.h"
#include "streamsign.h"

#define ACCOUNT		"0123456789abcdef0123456789abcdef"
#define DEADLINE	60

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* A small valid MP4 (ftyp, moov with a 5 s mvhd, mdat of a pattern). */
static unsigned char *
make_mp4(size_t payload, size_t *lenp)
{
	static const unsigned char ftyp[24] = {
		0, 0, 0, 24, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm',
		0, 0, 2, 0, 'i', 's', 'o', 'm', 'm', 'p', '4', '2'
	};
	unsigned char	*p, *mvhd;
	size_t		 len = 24 + 116 + 8 + payload, i;

	if ((p = calloc(1, len)) == NULL)
		abort();
	memcpy(p, ftyp, sizeof ftyp);
	put32(p + 24, 116);
	memcpy(p + 28, "moov", 4);
	mvhd = p + 32;
	put32(mvhd, 108);
	memcpy(mvhd + 4, "mvhd", 4);
	put32(mvhd + 20, 1000);
	put32(mvhd + 24, 5000);
	put32(mvhd + 28, 0x00010000);
	mvhd[32] = 1;
	put32(mvhd + 44, 0x00010000);
	put32(mvhd + 60, 0x00010000);
	put32(mvhd + 76, 0x40000000);
	put32(mvhd + 104, 2);
	put32(p + 140, (uint32_t)(8 + payload));
	memcpy(p + 144, "mdat", 4);
	for (i = 0; i < payload; i++)
		p[148 + i] = (unsigned char)(i * 7 + i / 251);
	*lenp = len;
	return (p);
}

static double
now_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static void
pause_briefly(void)
{
	struct timespec	ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Upload mp4 through TUS and wait until the video is ready: its uid. */
static char *
upload_ready(struct edgemu *e, const unsigned char *mp4, size_t len)
{
	struct http_resp	 r;
	const char		*h;
	char			*uid, *hlen, *loc, *path, *origin;
	const char		*create[] = { "Tus-Resumable: 1.0.0", NULL,
	    NULL };
	const char		*patch[] = { "Tus-Resumable: 1.0.0",
	    "Upload-Offset: 0",
	    "Content-Type: application/offset+octet-stream", NULL };
	double			 end = now_mono() + DEADLINE;
	cJSON			*v;

	hlen = itest_printf("Upload-Length: %zu", len);
	create[1] = hlen;
	http_request_with(e, "POST", "/accounts/" ACCOUNT "/stream", create,
	    NULL, 0, NULL, &r);
	assert_int_equal(r.status, 201);
	assert_non_null(h = http_header(&r, "stream-media-id"));
	uid = strdup(h);
	assert_non_null(h = http_header(&r, "location"));
	if (strncmp(h, "http", 4) == 0)
		loc = strdup(h);
	else {
		origin = strdup(e->url);
		*strstr(origin + 8, "/") = '\0';
		loc = itest_printf("%s%s", origin, h);
		free(origin);
	}
	http_resp_free(&r);
	http_request_with(e, "PATCH", loc, patch, mp4, len, NULL, &r);
	assert_int_equal(r.status, 204);
	http_resp_free(&r);
	free(loc);
	free(hlen);
	path = itest_printf("/accounts/" ACCOUNT "/stream/%s", uid);
	for (;;) {
		v = api_ok(e, "GET", path, NULL);
		if (strcmp(jstr(jget(v, "status"), "state"), "ready") == 0) {
			cJSON_Delete(v);
			break;
		}
		cJSON_Delete(v);
		if (now_mono() > end)
			fail_msg("video %s not ready after %d s", uid, DEADLINE);
		pause_briefly();
	}
	free(path);
	return (uid);
}

/* Poll the downloads object until its default download is ready. */
static void
wait_download(struct edgemu *e, const char *path)
{
	double	 end = now_mono() + DEADLINE;
	cJSON	*v;
	int	 ready;

	for (;;) {
		v = api_ok(e, "GET", path, NULL);
		ready = strcmp(jstr(jget(v, "default"), "status"), "ready") == 0;
		cJSON_Delete(v);
		if (ready)
			return;
		if (now_mono() > end)
			fail_msg("%s: not ready after %d s", path, DEADLINE);
		pause_briefly();
	}
}

/* The video as the API shows it (caller frees). */
static cJSON *
video_get(struct edgemu *e, const char *uid)
{
	char	*path = itest_printf("/accounts/" ACCOUNT "/stream/%s", uid);
	cJSON	*v = api_ok(e, "GET", path, NULL);

	free(path);
	return (v);
}

static void
video_edit(struct edgemu *e, const char *uid, const char *body)
{
	char	*path = itest_printf("/accounts/" ACCOUNT "/stream/%s", uid);

	cJSON_Delete(api_ok(e, "POST", path, body));
	free(path);
}

/* One of the video's URLs (a dotted path) with ref in the uid's place. */
static char *
url_of(struct edgemu *e, const char *uid, const char *field, const char *ref)
{
	cJSON		*v = video_get(e, uid);
	const cJSON	*u = jget(v, field);
	char		*url;

	if (!cJSON_IsString(u))
		fail_msg("video %s has no %s", uid, field);
	/* The listener's own URL, not the cloud's. */
	assert_true(strncmp(u->valuestring, "http://127.0.0.1:", 17) == 0);
	url = streamsign_url(u->valuestring, uid, ref);
	assert_non_null(url);
	cJSON_Delete(v);
	return (url);
}

/* The MP4 download's URL, beside the manifests, with ref for the uid. */
static char *
download_of(struct edgemu *e, const char *uid, const char *ref)
{
	char	*hls = url_of(e, uid, "playback.hls", ref), *url;

	*strstr(hls, "/manifest/video.m3u8") = '\0';
	url = itest_printf("%s/downloads/default.mp4", hls);
	free(hls);
	return (url);
}

/* GET url without the API token, with extra headers (NULL-terminated). */
static void
fetch(struct edgemu *e, const char *url, struct http_resp *r, ...)
{
	struct http_req	 q;
	const char	*h;
	va_list		 ap;
	size_t		 n = 0;

	memset(&q, 0, sizeof q);
	q.method = "GET";
	q.url = url;
	q.noauth = 1;
	va_start(ap, r);
	while ((h = va_arg(ap, const char *)) != NULL && n < 11)
		q.headers[n++] = h;
	va_end(ap);
	http_send(e, &q, r);
}

/* The status, and the reason in the error envelope. */
static void
assert_refused(struct edgemu *e, const char *url, long status,
    const char *reason, const char *header)
{
	struct http_resp	 r;
	const cJSON		*m;

	fetch(e, url, &r, header, NULL);
	if (r.status != status)
		fail_msg("%s: %ld, not %ld: %.300s", url, r.status, status,
		    r.body);
	m = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r.json,
	    "errors"), 0), "message");
	if (!cJSON_IsString(m) || strstr(m->valuestring, reason) == NULL)
		fail_msg("%ld: the reason '%s' does not say '%s'", status,
		    cJSON_IsString(m) ? m->valuestring : "(none)", reason);
	http_resp_free(&r);
}

static void
assert_opens(struct edgemu *e, const char *url, const char *type,
    const char *header)
{
	struct http_resp	 r;

	fetch(e, url, &r, header, NULL);
	if (r.status != 200)
		fail_msg("%s: %ld, not 200: %.300s", url, r.status, r.body);
	assert_non_null(strstr(http_header(&r, "content-type"), type));
	http_resp_free(&r);
}

/* The token call's token for body (NULL: none). */
static char *
server_token(struct edgemu *e, const char *uid, const char *body)
{
	char	*path, *token;
	cJSON	*v;

	path = itest_printf("/accounts/" ACCOUNT "/stream/%s/token", uid);
	v = api_ok(e, "POST", path, body);
	token = strdup(jstr(v, "token"));
	cJSON_Delete(v);
	free(path);
	return (token);
}

static char *
private_video(struct edgemu *e, unsigned char **mp4, size_t *len)
{
	char	*uid;

	*mp4 = make_mp4(4096, len);
	uid = upload_ready(e, *mp4, *len);
	video_edit(e, uid, "{\"requireSignedURLs\":true}");
	return (uid);
}

static void
test_server_token(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	unsigned char		*mp4;
	size_t			 len;
	char			*uid, *pub, *token, *url, *path, *msg;
	cJSON			*h, *c;
	time_t			 now, before, after;

	uid = private_video(e, &mp4, &len);
	/* By its uid, a private video opens nothing. */
	url = url_of(e, uid, "playback.hls", uid);
	assert_refused(e, url, 401, "requires a signed URL", NULL);
	free(url);

	before = time(NULL);
	token = server_token(e, uid, NULL);
	after = now = time(NULL);
	assert_int_equal(jwt_decode(token, &h, &c, &msg), 0);
	assert_string_equal(jstr(h, "alg"), "RS256");
	assert_string_equal(jstr(c, "sub"), uid);
	assert_string_equal(jstr(c, "kid"), jstr(h, "kid"));
	/* exp and nbf as decimal strings, as the service writes them: an
	 * hour either side of the moment the server signed it. */
	assert_true(cJSON_IsString(jget(c, "exp")));
	assert_true(atol(jstr(c, "exp")) >= (long)before + 3600 &&
	    atol(jstr(c, "exp")) <= (long)after + 3600);
	assert_true(atol(jstr(c, "nbf")) >= (long)before - 3600 &&
	    atol(jstr(c, "nbf")) <= (long)after - 3600);
	assert_true(cJSON_IsFalse(jget(c, "downloadable")));
	cJSON_Delete(h);
	cJSON_Delete(c);

	url = url_of(e, uid, "playback.hls", token);
	fetch(e, url, &r, NULL);
	assert_int_equal(r.status, 200);
	assert_string_equal(http_header(&r, "content-type"),
	    "application/vnd.apple.mpegurl");
	assert_true(strncmp(r.body, "#EXTM3U\n", 8) == 0);
	assert_non_null(strstr(r.body, "\nstream.mp4\n"));
	http_resp_free(&r);
	/* The segment the manifest names: the uploaded bytes. */
	strcpy(strstr(url, "video.m3u8"), "stream.mp4");
	fetch(e, url, &r, NULL);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.body, mp4, len);
	http_resp_free(&r);
	free(url);
	url = url_of(e, uid, "playback.dash", token);
	assert_opens(e, url, "application/dash+xml", NULL);
	free(url);
	url = url_of(e, uid, "thumbnail", token);
	fetch(e, url, &r, NULL);
	assert_int_equal(r.status, 200);
	assert_string_equal(http_header(&r, "content-type"), "image/jpeg");
	assert_memory_equal(r.body, "\xff\xd8\xff", 3);
	http_resp_free(&r);
	free(url);
	url = url_of(e, uid, "preview", token);
	assert_opens(e, url, "text/html", NULL);
	free(url);

	/* The body's checks. */
	path = itest_printf("/accounts/" ACCOUNT "/stream/%s/token", uid);
	msg = api_fail(e, "POST", path, "{\"id\":\"" ACCOUNT "\"}", 400);
	assert_non_null(strstr(msg, "both"));
	free(msg);
	pub = itest_printf("{\"exp\":%lld}", (long long)now + 25 * 3600);
	msg = api_fail(e, "POST", path, pub, 400);
	assert_non_null(strstr(msg, "24 hours"));
	free(msg);
	free(pub);
	msg = api_fail(e, "POST", path, "{\"accessRules\":[{\"type\":\"any\","
	    "\"action\":\"allow\"},{\"type\":\"any\",\"action\":\"allow\"},"
	    "{\"type\":\"any\",\"action\":\"allow\"},{\"type\":\"any\","
	    "\"action\":\"allow\"},{\"type\":\"any\",\"action\":\"allow\"},"
	    "{\"type\":\"any\",\"action\":\"allow\"}]}", 400);
	assert_non_null(strstr(msg, "at most 5"));
	free(msg);
	msg = api_fail(e, "POST", path, "{\"accessRules\":[{\"type\":"
	    "\"ip.src\",\"action\":\"allow\",\"ip\":[\"300.1.2.3\"]}]}", 400);
	assert_non_null(strstr(msg, "300.1.2.3"));
	free(msg);
	free(path);
	msg = api_fail(e, "POST", "/accounts/" ACCOUNT "/stream/"
	    "00000000000000000000000000000000/token", NULL, 404);
	free(msg);

	/* A public video opens by its uid. */
	free(uid);
	free(mp4);
	mp4 = make_mp4(1024, &len);
	uid = upload_ready(e, mp4, len);
	url = url_of(e, uid, "playback.hls", uid);
	assert_opens(e, url, "mpegurl", NULL);
	free(url);
	url = url_of(e, uid, "thumbnail", uid);
	assert_opens(e, url, "image/jpeg", NULL);
	free(url);
	free(token);
	free(uid);
	free(mp4);
}

/* A new signing key: its id and the API's pem (base64 of a PEM). */
static void
new_key(struct edgemu *e, char **id, char **pem)
{
	cJSON	*k = api_ok(e, "POST", "/accounts/" ACCOUNT "/stream/keys",
	    "{}");

	*id = strdup(jstr(k, "id"));
	*pem = strdup(jstr(k, "pem"));
	cJSON_Delete(k);
}

static char *
local_token(const char *pem, const char *kid, const char *uid, int64_t exp,
    int64_t nbf, int downloadable, const cJSON *rules)
{
	struct streamsign	 s;
	char			*token, *cause = NULL;

	memset(&s, 0, sizeof s);
	s.video = uid;
	s.key_id = kid;
	s.exp = exp;
	s.nbf = nbf;
	s.downloadable = downloadable;
	s.access_rules = rules;
	token = streamsign_token(pem, strlen(pem), &s, &cause);
	if (token == NULL)
		fail_msg("signing: %s", cause);
	return (token);
}

/* A PEM of a fresh RSA key that the server has never seen. */
static char *
stranger_pem(void)
{
	EVP_PKEY	*pk = EVP_RSA_gen(2048);
	BIO		*bio = BIO_new(BIO_s_mem());
	char		*data, *out;
	long		 n;

	assert_non_null(pk);
	PEM_write_bio_PrivateKey(bio, pk, NULL, NULL, 0, NULL, NULL);
	n = BIO_get_mem_data(bio, &data);
	out = strndup(data, (size_t)n);
	BIO_free(bio);
	EVP_PKEY_free(pk);
	return (out);
}

static void
test_local_token(void **state)
{
	struct edgemu	*e = *state;
	unsigned char	*mp4;
	size_t		 len;
	int64_t		 now = (int64_t)time(NULL);
	char		*uid, *kid, *pem, *t, *url, *path, *other, *cause = NULL;
	cJSON		*rules;
	const char	*allow_local[] = { "127.0.0.1/32", "::1/128" };
	const char	*allow_far[] = { "192.0.2.0/24", "2001:db8::/32" };
	const char	*block_de[] = { "de" };

	uid = private_video(e, &mp4, &len);
	new_key(e, &kid, &pem);

	/* Signed here, with no request to the API. */
	t = local_token(pem, kid, uid, now + 600, now - 60, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_opens(e, url, "mpegurl", NULL);
	free(url);
	/* Not downloadable: the MP4 is refused. */
	path = itest_printf("/accounts/" ACCOUNT "/stream/%s/downloads", uid);
	cJSON_Delete(api_ok(e, "POST", path, NULL));
	wait_download(e, path);
	free(path);
	url = download_of(e, uid, t);
	assert_refused(e, url, 403, "downloadable", NULL);
	free(url);
	free(t);
	t = local_token(pem, kid, uid, now + 600, 0, 1, NULL);
	url = download_of(e, uid, t);
	assert_opens(e, url, "video/mp4", NULL);
	free(url);
	free(t);

	/* Expired, not yet valid. */
	t = local_token(pem, kid, uid, now - 10, 0, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "expired", NULL);
	free(url);
	free(t);
	t = local_token(pem, kid, uid, now + 600, now + 300, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "not valid yet", NULL);
	free(url);
	free(t);

	/* The wrong key under the right id; an id that is no key. */
	other = stranger_pem();
	t = local_token(other, kid, uid, now + 600, 0, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "signature", NULL);
	free(url);
	free(t);
	t = local_token(other, "00112233445566778899aabbccddeeff", uid,
	    now + 600, 0, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "not a signing key", NULL);
	free(url);
	free(t);
	free(other);

	/* Access rules: first match wins; the country from loopback. */
	rules = streamsign_rules(allow_far, 2, NULL, 0, &cause);
	t = local_token(pem, kid, uid, now + 600, 0, 0, rules);
	cJSON_Delete(rules);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 403, "access rule 1", NULL);
	assert_opens(e, url, "mpegurl", "X-Edgemu-Client-Ip: 2001:db8::7");
	free(url);
	free(t);
	rules = streamsign_rules(allow_local, 2, block_de, 1, &cause);
	t = local_token(pem, kid, uid, now + 600, 0, 0, rules);
	cJSON_Delete(rules);
	url = url_of(e, uid, "playback.hls", t);
	assert_opens(e, url, "mpegurl", NULL);
	assert_opens(e, url, "mpegurl", "X-Edgemu-Country: FR");
	assert_refused(e, url, 403, "access rule 0", "X-Edgemu-Country: DE");

	/* allowedOrigins against Origin. */
	video_edit(e, uid, "{\"allowedOrigins\":[\"example.com\","
	    "\"*.example.net\"]}");
	assert_opens(e, url, "mpegurl", "Origin: https://example.com");
	assert_opens(e, url, "mpegurl", "Origin: https://www.example.net:8443");
	assert_refused(e, url, 403, "allowedOrigins",
	    "Origin: https://evil.example.org");
	free(url);

	/* Deleting the key revokes what it signed. */
	path = itest_printf("/accounts/" ACCOUNT "/stream/keys/%s", kid);
	cJSON_Delete(api_ok(e, "DELETE", path, NULL));
	free(path);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "deleted", NULL);
	free(url);
	free(t);
	free(kid);
	free(pem);
	free(uid);
	free(mp4);
}

/* The token call with a signing key: signed with it, checked against it. */
static void
test_server_token_with_key(void **state)
{
	struct edgemu	*e = *state;
	unsigned char	*mp4;
	size_t		 len;
	char		*uid, *kid, *pem, *kid2, *pem2, *body, *t, *url, *path;
	char		*msg;
	cJSON		*h, *c;

	uid = private_video(e, &mp4, &len);
	new_key(e, &kid, &pem);
	new_key(e, &kid2, &pem2);
	body = itest_printf("{\"id\":\"%s\",\"pem\":\"%s\",\"downloadable\":"
	    "true}", kid, pem);
	t = server_token(e, uid, body);
	free(body);
	assert_int_equal(jwt_decode(t, &h, &c, &msg), 0);
	assert_string_equal(jstr(h, "kid"), kid);
	assert_true(cJSON_IsTrue(jget(c, "downloadable")));
	cJSON_Delete(h);
	cJSON_Delete(c);
	url = url_of(e, uid, "playback.hls", t);
	assert_opens(e, url, "mpegurl", NULL);
	free(url);
	free(t);
	/* Another key's PEM under this id is refused. */
	body = itest_printf("{\"id\":\"%s\",\"pem\":\"%s\"}", kid, pem2);
	path = itest_printf("/accounts/" ACCOUNT "/stream/%s/token", uid);
	msg = api_fail(e, "POST", path, body, 400);
	assert_non_null(strstr(msg, "not the private key"));
	free(msg);
	free(body);
	free(path);
	free(kid);
	free(pem);
	free(kid2);
	free(pem2);
	free(uid);
	free(mp4);
}

/* A token signed with the key in pem (the API's base64 of one) whose
 * header is header, claims for uid. */
static char *
token_with_header(const char *pem, const cJSON *header, const char *uid,
    int64_t exp)
{
	struct evp_pkey_st	*pk;
	char			*text, *cause = NULL, *token;
	cJSON			*claims;

	text = streamsign_pem(pem, strlen(pem), &cause);
	assert_non_null(text);
	pk = jwt_key_private(text, strlen(text), &cause);
	assert_non_null(pk);
	claims = cJSON_CreateObject();
	cJSON_AddStringToObject(claims, "sub", uid);
	cJSON_AddNumberToObject(claims, "exp", (double)exp);
	token = jwt_sign(pk, header, claims, &cause);
	if (token == NULL)
		fail_msg("signing: %s", cause);
	cJSON_Delete(claims);
	jwt_key_free(pk);
	free(text);
	return (token);
}

/*
 * A token opens only what it says in full: a kid with more than a key's 32
 * digits names no key, even when its start is one; a crit header (RFC 7515
 * 4.1.11) names extensions that must be understood, and none is. Every
 * Origin a request names is checked, not its first.
 */
static void
test_token_header_checks(void **state)
{
	static const char *const origins[][3] = {
		{ "Origin: https://example.com",
		    "Origin: https://evil.example.org", NULL },
		{ "Origin: https://evil.example.org",
		    "Origin: https://example.com", NULL },
		{ "Origin: https://example.com https://evil.example.org",
		    NULL, NULL },
	};
	struct edgemu		*e = *state;
	struct http_resp	 r;
	unsigned char		*mp4;
	size_t			 len, i;
	int64_t			 now = (int64_t)time(NULL);
	char			*uid, *kid, *pem, *longer, *t, *url;
	cJSON			*h;

	uid = private_video(e, &mp4, &len);
	new_key(e, &kid, &pem);

	t = local_token(pem, kid, uid, now + 600, 0, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_opens(e, url, "mpegurl", NULL);
	free(url);
	free(t);
	longer = itest_printf("%sZZZZ", kid);
	t = local_token(pem, longer, uid, now + 600, 0, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "kid is not a signing key's id", NULL);
	free(url);
	free(t);
	free(longer);

	h = cJSON_CreateObject();
	cJSON_AddStringToObject(h, "alg", "RS256");
	cJSON_AddStringToObject(h, "kid", kid);
	t = token_with_header(pem, h, uid, now + 600);
	url = url_of(e, uid, "playback.hls", t);
	assert_opens(e, url, "mpegurl", NULL);
	free(url);
	free(t);
	cJSON_AddItemToObject(h, "crit", cJSON_CreateStringArray(
	    (const char *const[]){ "x-edgemu-test" }, 1));
	cJSON_AddBoolToObject(h, "x-edgemu-test", 1);
	t = token_with_header(pem, h, uid, now + 600);
	url = url_of(e, uid, "playback.hls", t);
	assert_refused(e, url, 401, "crit", NULL);
	free(url);
	free(t);
	cJSON_Delete(h);

	/* Origins: each header, and each origin of a header's list. */
	t = local_token(pem, kid, uid, now + 600, 0, 0, NULL);
	url = url_of(e, uid, "playback.hls", t);
	video_edit(e, uid, "{\"allowedOrigins\":[\"example.com\"]}");
	for (i = 0; i < sizeof origins / sizeof origins[0]; i++) {
		http_request_with(e, "GET", url, origins[i], NULL, 0, "", &r);
		if (r.status != 403 || strstr(r.body, "evil.example.org") ==
		    NULL)
			fail_msg("origins %zu: %ld %.200s", i, r.status,
			    r.body);
		assert_envelope(&r);
		http_resp_free(&r);
	}
	assert_opens(e, url, "mpegurl", "Origin: https://example.com");
	free(url);
	free(t);
	free(kid);
	free(pem);
	free(uid);
	free(mp4);
}

/*
 * The manifests' segment (stream.mp4) answers ranges as the MP4 download
 * does: a Range gets its part, an If-Range (no validators are sent, so
 * none matches) the whole file.
 */
static void
test_segment_ranges(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	unsigned char		*mp4;
	size_t			 len;
	char			*uid, *url, *t;
	const char		*part[] = { "Range: bytes=10-19", NULL };
	const char		*if_range[] = { "Range: bytes=10-19",
	    "If-Range: \"some-etag\"", NULL };

	uid = private_video(e, &mp4, &len);
	t = server_token(e, uid, NULL);
	url = url_of(e, uid, "playback.hls", t);
	strcpy(strstr(url, "video.m3u8"), "stream.mp4");
	http_request_with(e, "GET", url, part, NULL, 0, "", &r);
	assert_int_equal(r.status, 206);
	assert_int_equal(r.len, 10);
	assert_memory_equal(r.body, mp4 + 10, 10);
	http_resp_free(&r);
	http_request_with(e, "GET", url, if_range, NULL, 0, "", &r);
	assert_int_equal(r.status, 200);
	assert_null(http_header(&r, "content-range"));
	assert_int_equal(r.len, len);
	assert_memory_equal(r.body, mp4, len);
	http_resp_free(&r);
	free(url);
	free(t);
	free(uid);
	free(mp4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_server_token,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_local_token,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_server_token_with_key,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_token_header_checks,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_segment_ranges,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
