/*
 * Integration tests for Stream's account assets over HTTP: live inputs
 * (CRUD in the envelope, the wrapped list without secrets, refusals),
 * watermark uploads as hand-built multipart bodies (sniffed images,
 * defaults, ranges, the 10 MiB cap), signing keys that OpenSSL loads, the
 * demo data, accounts as namespaces, and a restart.
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
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "itest.h"
#include "jsonget.h"
#include "testpng.h"

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

#define ACCT_A		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define ACCT_B		"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"
#define ACCT_C		"ccccccccccccccccccccccccccccccc3"
#define NO_ID		"00000000000000000000000000000000"
#define BOUNDARY	"----edgemuTestBoundary7MA4YWxkTrZu0gW"
#define FORM_TYPE	"multipart/form-data; boundary=" BOUNDARY
#define BODY_MAX	(10 * 1024 * 1024)

/* ---- fixtures and helpers --------------------------------------------- */

static void
assert_json(const cJSON *v, const char *json)
{
	cJSON	*want = cJSON_Parse(json);
	char	*got;

	if (want == NULL)
		fail_msg("test JSON does not parse: %s", json);
	if (!cJSON_Compare(v, want, 1)) {
		got = cJSON_PrintUnformatted(v);
		fail_msg("got %s, wanted %s", got, json);
	}
	cJSON_Delete(want);
}

/* An object's member names, in order, comma-separated. */
static char *
member_names(const cJSON *o)
{
	const cJSON	*item;
	char		*s = strdup(""), *t;

	cJSON_ArrayForEach(item, o) {
		t = itest_printf("%s%s%s", s, *s != '\0' ? "," : "",
		    item->string);
		free(s);
		s = t;
	}
	return (s);
}

static void
assert_refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *want)
{
	char	*msg = api_fail(e, method, path, body, status);

	if (strncmp(msg, want, strlen(want)) != 0)
		fail_msg("%s %s: message '%s' does not start with '%s'", method,
		    path, msg, want);
	free(msg);
}

static char *
live_path(const char *acct, const char *uid)
{
	return (itest_printf("/accounts/%s/stream/live_inputs%s%s", acct,
	    uid != NULL ? "/" : "", uid != NULL ? uid : ""));
}

static char *
wm_path(const char *acct, const char *uid)
{
	return (itest_printf("/accounts/%s/stream/watermarks%s%s", acct,
	    uid != NULL ? "/" : "", uid != NULL ? uid : ""));
}

static char *
keys_path(const char *acct, const char *id)
{
	return (itest_printf("/accounts/%s/stream/keys%s%s", acct,
	    id != NULL ? "/" : "", id != NULL ? id : ""));
}

/* ---- multipart bodies, built by hand ---------------------------------- */

struct form {
	char	*p;
	size_t	 len;
};

static void
form_bytes(struct form *f, const void *p, size_t n)
{
	f->p = realloc(f->p, f->len + n + 1);
	if (f->p == NULL)
		abort();
	memcpy(f->p + f->len, p, n);
	f->len += n;
	f->p[f->len] = '\0';
}

static void
form_str(struct form *f, const char *s)
{
	form_bytes(f, s, strlen(s));
}

static void
form_file(struct form *f, const char *name, const char *filename,
    const char *type, const void *p, size_t n)
{
	char	*h;

	h = itest_printf("--" BOUNDARY "\r\nContent-Disposition: form-data; "
	    "name=\"%s\"; filename=\"%s\"\r\nContent-Type: %s\r\n\r\n", name,
	    filename, type);
	form_str(f, h);
	form_bytes(f, p, n);
	form_str(f, "\r\n");
	free(h);
}

static void
form_field(struct form *f, const char *name, const char *value)
{
	char	*h;

	h = itest_printf("--" BOUNDARY "\r\nContent-Disposition: form-data; "
	    "name=\"%s\"\r\n\r\n%s\r\n", name, value);
	form_str(f, h);
	free(h);
}

static void
form_end(struct form *f)
{
	form_str(f, "--" BOUNDARY "--\r\n");
}

static void
post_form(struct edgemu *e, const char *path, struct form *f,
    struct http_resp *r)
{
	http_request(e, "POST", path, FORM_TYPE, f->p, f->len, NULL, r);
	free(f->p);
	f->p = NULL;
	f->len = 0;
}

/* ---- images ----------------------------------------------------------- */

/* A baseline JPEG: SOI, APP0, DQT, SOF0 with the size, SOS, EOI. */
static size_t
make_jpeg(unsigned char *p, unsigned int w, unsigned int h)
{
	static const unsigned char head[] = {
		0xff, 0xd8,
		0xff, 0xe0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1,
		0, 1, 0, 0,
		0xff, 0xdb, 0x00, 0x05, 0x00, 0x01, 0x02,
		0xff, 0xc0, 0x00, 0x0b, 0x08
	};
	static const unsigned char tail[] = {
		0x01, 0x01, 0x11, 0x00,
		0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
		0x12, 0x34, 0xff, 0xd9
	};
	size_t	n = sizeof head;

	memcpy(p, head, n);
	p[n++] = (unsigned char)(h >> 8);
	p[n++] = (unsigned char)h;
	p[n++] = (unsigned char)(w >> 8);
	p[n++] = (unsigned char)w;
	memcpy(p + n, tail, sizeof tail);
	return (n + sizeof tail);
}

/* ---- base64 and keys -------------------------------------------------- */

static unsigned char *
unbase64(const char *s, size_t *lenp)
{
	size_t		 n = strlen(s);
	unsigned char	*out = malloc(n / 4 * 3 + 1);
	int		 len;

	assert_non_null(out);
	assert_int_equal(n % 4, 0);
	len = EVP_DecodeBlock(out, (const unsigned char *)s, (int)n);
	assert_true(len >= 0);
	if (n > 0 && s[n - 1] == '=')
		len--;
	if (n > 1 && s[n - 2] == '=')
		len--;
	out[len] = '\0';
	*lenp = (size_t)len;
	return (out);
}

static BIGNUM *
unbase64url_bn(const char *v)
{
	char		*s = malloc(strlen(v) + 4), *c;
	unsigned char	*bytes;
	size_t		 len;
	BIGNUM		*bn;

	assert_non_null(s);
	strcpy(s, v);
	for (c = s; *c != '\0'; c++) {
		if (*c == '-')
			*c = '+';
		else if (*c == '_')
			*c = '/';
	}
	while (strlen(s) % 4 != 0)
		strcat(s, "=");
	bytes = unbase64(s, &len);
	bn = BN_bin2bn(bytes, (int)len, NULL);
	free(bytes);
	free(s);
	return (bn);
}

/* ---- live inputs ------------------------------------------------------ */

static const char full_input[] =
	"{\"defaultCreator\":\"creator-1\",\"deleteRecordingAfterDays\":45,"
	"\"meta\":{\"name\":\"Launch event\"},\"unknown\":\"dropped\","
	"\"recording\":{\"mode\":\"automatic\",\"requireSignedURLs\":true,"
	"\"allowedOrigins\":[\"example.com\"],\"timeoutSeconds\":30}}";

/* Every endpoint there, with its secret; the WHIP URL names the input. */
static void
assert_endpoints(const cJSON *in)
{
	const char	*uid = jstr(in, "uid");

	assert_string_equal(jstr(in, "rtmps.url"),
	    "rtmps://live.cloudflare.com:443/live/");
	assert_string_equal(jstr(in, "rtmpsPlayback.url"),
	    "rtmps://live.cloudflare.com:443/live/");
	assert_string_equal(jstr(in, "srt.url"),
	    "srt://live.cloudflare.com:778");
	assert_string_equal(jstr(in, "srtPlayback.url"),
	    "srt://live.cloudflare.com:778");
	assert_int_equal(strlen(jstr(in, "rtmps.streamKey")), 65);
	assert_int_equal(strlen(jstr(in, "rtmpsPlayback.streamKey")), 65);
	assert_int_equal(strlen(jstr(in, "srt.passphrase")), 65);
	assert_int_equal(strlen(jstr(in, "srtPlayback.passphrase")), 65);
	assert_string_not_equal(jstr(in, "rtmps.streamKey"),
	    jstr(in, "rtmpsPlayback.streamKey"));
	assert_int_equal(strlen(jstr(in, "srt.streamId")), 32);
	assert_non_null(strstr(jstr(in, "webRTC.url"), uid));
	assert_true(strncmp(jstr(in, "webRTC.url"), "https://", 8) == 0);
	assert_non_null(strstr(jstr(in, "webRTC.url"), "/webRTC/publish"));
	assert_non_null(strstr(jstr(in, "webRTCPlayback.url"),
	    "/webRTC/play"));
}

static void
test_live_crud(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	cJSON			*made, *got, *list, *put, *body;
	const cJSON		*item, *found = NULL;
	char			*lpath = live_path(ACCT_A, NULL), *path, *names;
	char			*text;

	made = api_ok(e, "POST", lpath, full_input);
	names = member_names(made);
	assert_string_equal(names, "uid,rtmps,rtmpsPlayback,srt,srtPlayback,"
	    "webRTC,webRTCPlayback,created,modified,meta,status,recording,"
	    "deleteRecordingAfterDays,defaultCreator");
	free(names);
	assert_endpoints(made);
	assert_json(jget(made, "recording"), "{\"mode\":\"automatic\","
	    "\"requireSignedURLs\":true,\"allowedOrigins\":[\"example.com\"],"
	    "\"timeoutSeconds\":30}");
	assert_json(jget(made, "meta"), "{\"name\":\"Launch event\"}");
	assert_true(cJSON_IsNull(jget(made, "status")));
	assert_true(jnum(made, "deleteRecordingAfterDays") == 45);
	assert_string_equal(jstr(made, "defaultCreator"), "creator-1");
	assert_string_equal(jstr(made, "created"), jstr(made,
	    "modified"));
	path = live_path(ACCT_A, jstr(made, "uid"));

	/* A get shows the secrets again. */
	got = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_Compare(got, made, 1));
	cJSON_Delete(got);

	/* The list is an object; its items carry no endpoint at all. */
	http_json(e, "GET", lpath, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_envelope(&r);
	assert_null(strstr(r.body, "streamKey"));
	assert_null(strstr(r.body, "passphrase"));
	assert_null(strstr(r.body, jstr(made, "rtmps.streamKey")));
	assert_null(strstr(r.body, "webRTC"));
	list = cJSON_Duplicate(jget(r.json, "result"), 1);
	http_resp_free(&r);
	names = member_names(list);
	assert_string_equal(names, "liveInputs,range,total");
	free(names);
	assert_true(jnum(list, "total") ==
	    cJSON_GetArraySize(jget(list, "liveInputs")));
	assert_true(jnum(list, "range") == 0);
	cJSON_ArrayForEach(item, jget(list, "liveInputs")) {
		names = member_names(item);
		assert_string_equal(names, "uid,created,modified,meta,"
		    "deleteRecordingAfterDays");
		free(names);
		if (strcmp(jstr(item, "uid"), jstr(made, "uid")) == 0)
			found = item;
	}
	assert_non_null(found);
	assert_json(jget(found, "meta"), "{\"name\":\"Launch event\"}");
	cJSON_Delete(list);
	text = itest_printf("%s?include_counts=true", lpath);
	list = api_ok(e, "GET", text, NULL);
	assert_true(jnum(list, "total") >= 1);
	cJSON_Delete(list);
	free(text);

	/* PUT changes what it is given and keeps the rest. */
	put = api_ok(e, "PUT", path, "{\"meta\":{\"name\":\"Renamed\"},"
	    "\"recording\":{\"mode\":\"off\"},"
	    "\"deleteRecordingAfterDays\":null}");
	assert_json(jget(put, "meta"), "{\"name\":\"Renamed\"}");
	assert_json(jget(put, "recording"), "{\"mode\":\"off\","
	    "\"requireSignedURLs\":true,\"allowedOrigins\":[\"example.com\"],"
	    "\"timeoutSeconds\":30}");
	assert_true(cJSON_IsNull(jget(put, "deleteRecordingAfterDays")));
	assert_string_equal(jstr(put, "defaultCreator"), "creator-1");
	assert_string_equal(jstr(put, "uid"), jstr(made, "uid"));
	assert_string_equal(jstr(put, "created"), jstr(made, "created"));
	assert_true(strcmp(jstr(put, "modified"), jstr(made,
	    "modified")) > 0);
	assert_true(cJSON_Compare(jget(put, "rtmps"), jget(made, "rtmps"), 1));
	assert_true(cJSON_Compare(jget(put, "srtPlayback"), jget(made,
	    "srtPlayback"), 1));

	/* A record sent back whole, as an editor does, changes nothing. */
	text = cJSON_PrintUnformatted(put);
	body = api_ok(e, "PUT", path, text);
	cJSON_DeleteItemFromObject(body, "modified");
	cJSON_DeleteItemFromObject(put, "modified");
	assert_true(cJSON_Compare(body, put, 1));
	cJSON_Delete(body);
	free(text);

	/* Delete: a success envelope, then the input is gone. */
	got = api_ok(e, "DELETE", path, NULL);
	assert_true(cJSON_IsNull(got));
	cJSON_Delete(got);
	assert_refused(e, "GET", path, NULL, 404, "live input ");
	assert_refused(e, "PUT", path, "{}", 404, "live input ");
	assert_refused(e, "DELETE", path, NULL, 404, "live input ");
	cJSON_Delete(put);
	cJSON_Delete(made);
	free(path);
	free(lpath);
}

static void
test_live_refusals(void **state)
{
	static const struct {
		const char	*body;
		const char	*message;
	} bad[] = {
		{ "{\"deleteRecordingAfterDays\":29}",
		    "deleteRecordingAfterDays: 29 is less than the minimum "
		    "of 30" },
		{ "{\"deleteRecordingAfterDays\":\"45\"}",
		    "deleteRecordingAfterDays: must be a whole number" },
		{ "{\"recording\":{\"mode\":\"manual\"}}",
		    "recording.mode: 'manual' is not one of off, automatic" },
		{ "{\"recording\":{\"timeoutSeconds\":-1}}",
		    "recording.timeoutSeconds: -1 is out of range" },
		{ "{\"recording\":{\"requireSignedURLs\":\"yes\"}}",
		    "recording.requireSignedURLs: must be a boolean" },
		{ "{\"recording\":{\"allowedOrigins\":\"example.com\"}}",
		    "recording.allowedOrigins: must be an array" },
		{ "{\"meta\":[\"x\"]}", "meta: must be an object" },
		{ "{\"defaultCreator\":false}", "defaultCreator: must be a "
		    "string" },
		{ "[]", "the body must be a JSON object" },
	};
	struct edgemu		*e = *state;
	struct http_resp	 r;
	cJSON			*made, *list;
	char			*lpath = live_path(ACCT_A, NULL), *path;
	size_t			 i;
	double			 before;

	list = api_ok(e, "GET", lpath, NULL);
	before = jnum(list, "total");
	cJSON_Delete(list);
	for (i = 0; i < nitems(bad); i++)
		assert_refused(e, "POST", lpath, bad[i].body, 400,
		    bad[i].message);
	made = api_ok(e, "POST", lpath, NULL);
	path = live_path(ACCT_A, jstr(made, "uid"));
	for (i = 0; i < nitems(bad); i++)
		assert_refused(e, "PUT", path, bad[i].body, 400,
		    bad[i].message);
	assert_refused(e, "POST", lpath, "{\"meta\":", 400, "malformed JSON");
	assert_refused(e, "GET", "/accounts/" ACCT_A "/stream/live_inputs/"
	    NO_ID, NULL, 404, "live input " NO_ID " was not found");
	http_request(e, "POST", lpath, "application/xml", "<x/>", 4, NULL, &r);
	assert_int_equal(r.status, 415);
	assert_envelope(&r);
	http_resp_free(&r);
	http_json(e, "GET", "/accounts/" ACCT_A "/stream/live_inputs/xyz",
	    NULL, &r);
	assert_int_equal(r.status, 400);
	assert_envelope(&r);
	http_resp_free(&r);
	http_json(e, "PATCH", path, "{}", &r);
	assert_int_equal(r.status, 405);
	assert_envelope(&r);
	http_resp_free(&r);
	free(path);
	path = itest_printf("%s?include_counts=maybe", lpath);
	assert_refused(e, "GET", path, NULL, 400, "include_counts: 'maybe' is "
	    "not a boolean");
	free(path);

	/* Nothing refused was stored: only the one made with no body. */
	list = api_ok(e, "GET", lpath, NULL);
	assert_true(jnum(list, "total") == before + 1);
	cJSON_Delete(list);
	assert_json(jget(made, "recording"), "{\"mode\":\"off\","
	    "\"requireSignedURLs\":false,\"allowedOrigins\":null,"
	    "\"timeoutSeconds\":0}");
	cJSON_Delete(made);
	free(lpath);
}

/* ---- watermarks ------------------------------------------------------- */

/* Upload a form; the result on success, or NULL with r kept for checks. */
static cJSON *
upload_ok(struct edgemu *e, const char *acct, struct form *f)
{
	struct http_resp	 r;
	char			*path = wm_path(acct, NULL);
	cJSON			*result;

	post_form(e, path, f, &r);
	if (r.status != 200)
		fail_msg("upload: %ld %.300s", r.status, r.body);
	assert_envelope(&r);
	result = cJSON_Duplicate(jget(r.json, "result"), 1);
	http_resp_free(&r);
	free(path);
	return (result);
}

static void
upload_refused(struct edgemu *e, struct form *f, long status,
    const char *want)
{
	struct http_resp	 r;
	char			*path = wm_path(ACCT_A, NULL);
	const char		*msg;

	post_form(e, path, f, &r);
	if (r.status != status)
		fail_msg("expected %ld, got %ld: %.300s", status, r.status,
		    r.body);
	assert_envelope(&r);
	msg = jstr(cJSON_GetArrayItem(jget(r.json, "errors"), 0), "message");
	if (strncmp(msg, want, strlen(want)) != 0)
		fail_msg("message '%s' does not start with '%s'", msg, want);
	assert_true(cJSON_IsNull(jget(r.json, "result")));
	http_resp_free(&r);
	free(path);
}

/* A body handed to curl a few bytes at a time and sent chunked. */
struct trickle {
	const char	*p;
	size_t		 len;
	size_t		 off;
	size_t		 step;
};

static size_t
trickle_read(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct trickle	*t = arg;
	size_t		 n = size * nmemb;

	if (n > t->step)
		n = t->step;
	if (n > t->len - t->off)
		n = t->len - t->off;
	memcpy(buf, t->p + t->off, n);
	t->off += n;
	return (n);
}

static void
post_trickled(struct edgemu *e, const char *path, struct form *f,
    size_t step, struct http_resp *r)
{
	struct http_req	 t;
	struct trickle	 tr = { f->p, f->len, 0, step };

	memset(&t, 0, sizeof t);
	t.method = "POST";
	t.url = path;
	t.headers[0] = "Content-Type: " FORM_TYPE;
	t.read = trickle_read;
	t.read_arg = &tr;
	t.read_len = -1;
	http_send(e, &t, r);
	free(f->p);
	f->p = NULL;
	f->len = 0;
}

/* A form arriving in pieces cut inside its delimiters: parsed as it comes. */
static void
test_watermark_trickled(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct form		 f = { NULL, 0 };
	unsigned char		 png[128];
	size_t			 pn = testpng_make(png, 8, 8);
	char			*path = wm_path(ACCT_C, NULL), *big;
	const cJSON		*wm;
	cJSON			*list;

	form_field(&f, "name", "trickled");
	form_file(&f, "file", "logo.png", "image/png", png, pn);
	form_field(&f, "position", "center");
	form_end(&f);
	post_trickled(e, path, &f, 3, &r);
	if (r.status != 200)
		fail_msg("expected 200, got %ld: %.300s", r.status, r.body);
	assert_envelope(&r);
	wm = jget(r.json, "result");
	assert_string_equal(jstr(wm, "name"), "trickled");
	assert_string_equal(jstr(wm, "position"), "center");
	assert_true(jnum(wm, "size") == pn);
	assert_true(jnum(wm, "width") == 8);
	http_resp_free(&r);

	/* Without Content-Length the cap is found while reading: 413. */
	big = calloc(1, BODY_MAX);
	assert_non_null(big);
	memcpy(big, png, pn);
	form_file(&f, "file", "big.png", "image/png", big, BODY_MAX);
	form_end(&f);
	free(big);
	post_trickled(e, path, &f, 65536, &r);
	assert_int_equal(r.status, 413);
	assert_envelope(&r);
	assert_int_equal(strncmp(jstr(cJSON_GetArrayItem(jget(r.json,
	    "errors"), 0), "message"), "Request body is over the limit", 30),
	    0);
	http_resp_free(&r);

	/* Only the first was stored. */
	list = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(list), 1);
	cJSON_Delete(list);
	free(path);
}

static void
test_watermarks(void **state)
{
	struct edgemu		*e = *state;
	struct form		 f = { NULL, 0 };
	unsigned char		 png[128], jpeg[128];
	size_t			 pn = testpng_make(png, 120, 45);
	size_t			 jn = make_jpeg(jpeg, 640, 360);
	cJSON			*a, *b, *list, *got;
	char			*want, *path, *names, *pa, *pb;

	/* A PNG with nothing else: the spec's defaults; name stays "". */
	form_file(&f, "file", "logo.png", "image/png", png, pn);
	form_end(&f);
	a = upload_ok(e, ACCT_A, &f);
	names = member_names(a);
	assert_string_equal(names, "uid,size,height,width,created,"
	    "downloadedFrom,name,opacity,padding,scale,position");
	free(names);
	assert_int_equal(strlen(jstr(a, "uid")), 32);
	want = itest_printf("{\"uid\":\"%s\",\"size\":%zu,\"height\":45,"
	    "\"width\":120,\"created\":\"%s\",\"downloadedFrom\":null,"
	    "\"name\":\"\",\"opacity\":1,\"padding\":0.05,\"scale\":0.15,"
	    "\"position\":\"upperRight\"}", jstr(a, "uid"), pn,
	    jstr(a, "created"));
	assert_json(a, want);
	free(want);

	/* A JPEG with every setting, sent as the text fields forms send. */
	form_field(&f, "name", "Marketing Videos");
	form_field(&f, "opacity", "0.75");
	form_field(&f, "padding", "0");
	form_field(&f, "scale", "1");
	form_field(&f, "position", "center");
	form_file(&f, "file", "photo.jpg", "application/octet-stream", jpeg,
	    jn);
	form_end(&f);
	b = upload_ok(e, ACCT_A, &f);
	want = itest_printf("{\"uid\":\"%s\",\"size\":%zu,\"height\":360,"
	    "\"width\":640,\"created\":\"%s\",\"downloadedFrom\":null,"
	    "\"name\":\"Marketing Videos\",\"opacity\":0.75,\"padding\":0,"
	    "\"scale\":1,\"position\":\"center\"}", jstr(b, "uid"), jn,
	    jstr(b, "created"));
	assert_json(b, want);
	free(want);

	/* List (creation order) and get. */
	path = wm_path(ACCT_A, NULL);
	list = api_ok(e, "GET", path, NULL);
	free(path);
	assert_int_equal(cJSON_GetArraySize(list), 2);
	assert_true(cJSON_Compare(cJSON_GetArrayItem(list, 0), a, 1));
	assert_true(cJSON_Compare(cJSON_GetArrayItem(list, 1), b, 1));
	cJSON_Delete(list);
	pa = wm_path(ACCT_A, jstr(a, "uid"));
	pb = wm_path(ACCT_A, jstr(b, "uid"));
	got = api_ok(e, "GET", pb, NULL);
	assert_true(cJSON_Compare(got, b, 1));
	cJSON_Delete(got);

	/* Delete answers "" (not "ok"), then the profile is gone. */
	got = api_ok(e, "DELETE", pa, NULL);
	assert_true(cJSON_IsString(got));
	assert_string_equal(got->valuestring, "");
	cJSON_Delete(got);
	assert_refused(e, "GET", pa, NULL, 404, "watermark profile ");
	assert_refused(e, "DELETE", pa, NULL, 404, "watermark profile ");
	path = wm_path(ACCT_A, NULL);
	list = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(list), 1);
	cJSON_Delete(list);
	free(path);
	got = api_ok(e, "DELETE", pb, NULL);
	cJSON_Delete(got);
	free(pa);
	free(pb);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void
test_watermark_refusals(void **state)
{
	static const struct {
		const char	*field, *value, *message;
	} bad[] = {
		{ "opacity", "abc", "opacity: 'abc' is not a number" },
		{ "opacity", "1.5", "opacity: 1.5 is out of range (0 to 1)" },
		{ "padding", "-0.1", "padding: -0.1 is out of range" },
		{ "scale", "2", "scale: 2 is out of range" },
		{ "scale", "0.5x", "scale: '0.5x' is not a number" },
		{ "position", "top", "position: 'top' is not one of" },
	};
	struct edgemu		*e = *state;
	struct http_resp	 r;
	struct form		 f = { NULL, 0 };
	unsigned char		 png[128];
	char			*big, *path;
	size_t			 pn = testpng_make(png, 8, 8), i, n;
	cJSON			*list;

	for (i = 0; i < nitems(bad); i++) {
		form_file(&f, "file", "logo.png", "image/png", png, pn);
		form_field(&f, bad[i].field, bad[i].value);
		form_end(&f);
		upload_refused(e, &f, 400, bad[i].message);
	}
	form_file(&f, "file", "notes.png", "image/png", "just text", 9);
	form_end(&f);
	upload_refused(e, &f, 400, "file: not a PNG, JPEG, GIF or WebP image");
	form_file(&f, "file", "cut.png", "image/png", png, 20);
	form_end(&f);
	upload_refused(e, &f, 400, "file: the PNG header is cut short");
	form_field(&f, "name", "no file");
	form_end(&f);
	upload_refused(e, &f, 400, "file: required");

	path = wm_path(ACCT_A, NULL);
	http_json(e, "POST", path, "{\"file\":\"logo.png\"}", &r);
	assert_int_equal(r.status, 415);
	assert_envelope(&r);
	http_resp_free(&r);

	/*
	 * The body cap is 10 MiB: an image that brings the body just under
	 * it is taken, one byte over is refused with 413.
	 */
	form_file(&f, "file", "big.png", "image/png", png, 0);
	form_end(&f);
	n = BODY_MAX - f.len;
	free(f.p);
	f.p = NULL;
	f.len = 0;
	big = calloc(1, n + 1);
	assert_non_null(big);
	memcpy(big, png, pn);
	form_file(&f, "file", "big.png", "image/png", big, n);
	form_end(&f);
	assert_int_equal(f.len, BODY_MAX);
	list = upload_ok(e, ACCT_A, &f);
	assert_true(jnum(list, "size") == n);
	assert_true(jnum(list, "width") == 8);
	cJSON_Delete(list);
	form_file(&f, "file", "big.png", "image/png", big, n + 1);
	form_end(&f);
	upload_refused(e, &f, 413, "");
	free(big);

	/* Only the large one was stored. */
	list = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(list), 1);
	cJSON_Delete(list);
	free(path);
}

/* ---- signing keys ----------------------------------------------------- */

static void
test_keys(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	cJSON			*k1, *k2, *list, *jwk, *got;
	const cJSON		*item;
	unsigned char		*pem, *jwktext;
	char			*path = keys_path(ACCT_A, NULL), *item_path;
	char			*names;
	BIO			*bio;
	EVP_PKEY		*pkey;
	BIGNUM			*n1 = NULL, *n2;
	size_t			 len;
	int			 seen = 0;

	/* No body at all, and {} as the spec has it: both make a key. */
	k1 = api_ok(e, "POST", path, NULL);
	k2 = api_ok(e, "POST", path, "{}");
	names = member_names(k1);
	assert_string_equal(names, "id,pem,jwk,created");
	free(names);
	assert_int_equal(strlen(jstr(k1, "id")), 32);
	assert_string_not_equal(jstr(k1, "id"), jstr(k2, "id"));
	assert_string_not_equal(jstr(k1, "pem"), jstr(k2, "pem"));

	/* pem: base64 of a PEM private key that OpenSSL loads. */
	pem = unbase64(jstr(k1, "pem"), &len);
	assert_true(strncmp((char *)pem, "-----BEGIN RSA PRIVATE KEY-----",
	    31) == 0);
	bio = BIO_new_mem_buf(pem, (int)len);
	pkey = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
	BIO_free(bio);
	assert_non_null(pkey);
	assert_int_equal(EVP_PKEY_get_bits(pkey), 2048);

	/* jwk: base64 of the same key as a JWK named by the id. */
	jwktext = unbase64(jstr(k1, "jwk"), &len);
	jwk = cJSON_Parse((char *)jwktext);
	assert_non_null(jwk);
	assert_string_equal(jstr(jwk, "kid"), jstr(k1, "id"));
	assert_string_equal(jstr(jwk, "kty"), "RSA");
	assert_string_equal(jstr(jwk, "alg"), "RS256");
	assert_true(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n1));
	n2 = unbase64url_bn(jstr(jwk, "n"));
	assert_int_equal(BN_cmp(n1, n2), 0);
	BN_free(n1);
	BN_free(n2);

	/* The list: ids and dates, never a private part. */
	http_json(e, "GET", path, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_envelope(&r);
	assert_null(strstr(r.body, "pem"));
	assert_null(strstr(r.body, "jwk"));
	assert_null(strstr(r.body, jstr(k1, "pem")));
	cJSON_ArrayForEach(item, jget(r.json, "result")) {
		names = member_names(item);
		assert_string_equal(names, "id,created");
		free(names);
		if (strcmp(jstr(item, "id"), jstr(k1, "id")) == 0) {
			assert_string_equal(jstr(item, "created"),
			    jstr(k1, "created"));
			seen++;
		}
		seen += strcmp(jstr(item, "id"), jstr(k2, "id")) == 0;
	}
	assert_int_equal(seen, 2);
	http_resp_free(&r);

	/* Delete answers "ok"; the key is gone, the other stays. */
	item_path = keys_path(ACCT_A, jstr(k1, "id"));
	got = api_ok(e, "DELETE", item_path, NULL);
	assert_true(cJSON_IsString(got));
	assert_string_equal(got->valuestring, "ok");
	cJSON_Delete(got);
	assert_refused(e, "DELETE", item_path, NULL, 404, "signing key ");
	list = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(list), 1);
	assert_string_equal(jstr(cJSON_GetArrayItem(list, 0), "id"),
	    jstr(k2, "id"));
	cJSON_Delete(list);
	http_json(e, "DELETE", "/accounts/" ACCT_A "/stream/keys/not-a-key",
	    NULL, &r);
	assert_int_equal(r.status, 400);
	assert_envelope(&r);
	http_resp_free(&r);
	http_json(e, "GET", item_path, NULL, &r);
	assert_int_equal(r.status, 405);
	http_resp_free(&r);

	free(item_path);
	EVP_PKEY_free(pkey);
	cJSON_Delete(jwk);
	free(jwktext);
	free(pem);
	cJSON_Delete(k1);
	cJSON_Delete(k2);
	free(path);
}

/* ---- demo data, accounts, restart ------------------------------------- */

struct counts {
	int	live, watermarks, keys;
};

static void
count(struct edgemu *e, const char *acct, struct counts *c)
{
	char	*path;
	cJSON	*list;

	path = live_path(acct, NULL);
	list = api_ok(e, "GET", path, NULL);
	c->live = cJSON_GetArraySize(jget(list, "liveInputs"));
	assert_true(jnum(list, "total") == c->live);
	cJSON_Delete(list);
	free(path);
	path = wm_path(acct, NULL);
	list = api_ok(e, "GET", path, NULL);
	c->watermarks = cJSON_GetArraySize(list);
	cJSON_Delete(list);
	free(path);
	path = keys_path(acct, NULL);
	list = api_ok(e, "GET", path, NULL);
	c->keys = cJSON_GetArraySize(list);
	cJSON_Delete(list);
	free(path);
}

static void
test_demo(void **state)
{
	struct edgemu	*e = *state;
	struct counts	 c;
	cJSON		*list, *in;
	const cJSON	*item;
	char		*path;
	int		 off = 0, automatic = 0, signed_urls = 0;

	count(e, e->account, &c);
	assert_int_equal(c.live, 3);
	assert_int_equal(c.watermarks, 2);
	assert_int_equal(c.keys, 2);

	path = live_path(e->account, NULL);
	list = api_ok(e, "GET", path, NULL);
	free(path);
	cJSON_ArrayForEach(item, jget(list, "liveInputs")) {
		jstr(item, "meta.name");
		path = live_path(e->account, jstr(item, "uid"));
		in = api_ok(e, "GET", path, NULL);
		assert_endpoints(in);
		off += strcmp(jstr(in, "recording.mode"), "off") == 0;
		automatic += strcmp(jstr(in, "recording.mode"),
		    "automatic") == 0;
		signed_urls += cJSON_IsTrue(jget(in,
		    "recording.requireSignedURLs"));
		cJSON_Delete(in);
		free(path);
	}
	assert_true(off >= 1 && automatic >= 1);
	assert_int_equal(signed_urls, 1);
	cJSON_Delete(list);

	path = wm_path(e->account, NULL);
	list = api_ok(e, "GET", path, NULL);
	cJSON_ArrayForEach(item, list) {
		assert_true(jnum(item, "width") > 0);
		assert_true(jnum(item, "size") > 0);
		assert_true(cJSON_IsNull(jget(item, "downloadedFrom")));
		assert_true(*jstr(item, "name") != '\0');
	}
	cJSON_Delete(list);
	free(path);
}

/* Another account sees none of the demo account's assets. */
static void
test_accounts(void **state)
{
	struct edgemu	*e = *state;
	struct counts	 c;
	cJSON		*list;
	char		*path, *other;

	count(e, ACCT_B, &c);
	assert_int_equal(c.live + c.watermarks + c.keys, 0);

	path = live_path(e->account, NULL);
	list = api_ok(e, "GET", path, NULL);
	free(path);
	other = live_path(ACCT_B, jstr(cJSON_GetArrayItem(jget(list,
	    "liveInputs"), 0), "uid"));
	assert_refused(e, "GET", other, NULL, 404, "live input ");
	assert_refused(e, "PUT", other, "{}", 404, "live input ");
	assert_refused(e, "DELETE", other, NULL, 404, "live input ");
	cJSON_Delete(list);
	free(other);

	path = wm_path(e->account, NULL);
	list = api_ok(e, "GET", path, NULL);
	free(path);
	other = wm_path(ACCT_B, jstr(cJSON_GetArrayItem(list, 0), "uid"));
	assert_refused(e, "GET", other, NULL, 404, "watermark profile ");
	assert_refused(e, "DELETE", other, NULL, 404, "watermark profile ");
	cJSON_Delete(list);
	free(other);

	path = keys_path(e->account, NULL);
	list = api_ok(e, "GET", path, NULL);
	free(path);
	other = keys_path(ACCT_B, jstr(cJSON_GetArrayItem(list, 0), "id"));
	assert_refused(e, "DELETE", other, NULL, 404, "signing key ");
	cJSON_Delete(list);
	free(other);

	/* And the demo account still has everything. */
	count(e, e->account, &c);
	assert_int_equal(c.live, 3);
	assert_int_equal(c.watermarks, 2);
	assert_int_equal(c.keys, 2);
}

/* Everything survives a restart, and the demo is not seeded twice. */
static void
test_restart(void **state)
{
	struct edgemu	*e = *state;
	struct counts	 before, after;
	cJSON		*made, *got;
	char		*path = live_path(ACCT_A, NULL), *item;

	made = api_ok(e, "POST", path, "{\"meta\":{\"name\":\"kept\"}}");
	item = live_path(ACCT_A, jstr(made, "uid"));
	count(e, ACCT_A, &before);
	edgemu_restart(e);
	count(e, ACCT_A, &after);
	assert_memory_equal(&before, &after, sizeof before);
	got = api_ok(e, "GET", item, NULL);
	assert_true(cJSON_Compare(got, made, 1));
	count(e, e->account, &after);
	assert_int_equal(after.live, 3);
	assert_int_equal(after.watermarks, 2);
	assert_int_equal(after.keys, 2);
	cJSON_Delete(got);
	cJSON_Delete(made);
	free(item);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_crud),
		cmocka_unit_test(test_live_refusals),
		cmocka_unit_test(test_watermarks),
		cmocka_unit_test(test_watermark_refusals),
		cmocka_unit_test(test_watermark_trickled),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_accounts),
		cmocka_unit_test(test_restart),
	};

	return (cmocka_run_group_tests(tests, edgemu_fixture_demo,
	    edgemu_fixture_stop));
}
