/*
 * Unit tests for Stream's account assets: image sniffing for every format
 * and every way a header can be cut or damaged; the watermark and live
 * input checks at their edges and past them; the live input as built and
 * changed; signing keys whose PEM and JWK are the same key and sign the
 * way the console will; and the handlers in process against a scratch
 * store (the key limit, failing stores, demo data, accounts).
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
#include <openssl/param_build.h>
#include <openssl/pem.h>

#include "apirules.h"
#include "assets.h"
#include "buf.h"
#include "multipart.h"
#include "routetest.h"
#include "server.h"
#include "store.h"
#include "streamrules.h"
#include "testpng.h"
#include "util.h"
#include "xmalloc.h"

extern const struct area live_area;
extern const struct area watermark_area;
extern const struct area keys_area;

#define ACCT_A	"0123456789abcdef0123456789abcdef"
#define ACCT_B	"fedcba9876543210fedcba9876543210"
#define NO_ID	"00000000000000000000000000000000"

/* ---- image bytes built here ------------------------------------------- */

/*
 * SOI, APP0 (JFIF), DQT, DHT, fill bytes, then the frame header with marker
 * sof, a scan and EOI. *sof_at is where the frame header's marker is.
 */
static size_t
make_jpeg(unsigned char *p, unsigned int sof, unsigned int w, unsigned int h,
    size_t *sof_at)
{
	static const unsigned char head[] = {
		0xff, 0xd8,
		0xff, 0xe0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1,
		0, 1, 0, 0,
		0xff, 0xdb, 0x00, 0x05, 0x00, 0x01, 0x02,
		0xff, 0xc4, 0x00, 0x04, 0x00, 0x00,
		0xff, 0xff
	};
	static const unsigned char tail[] = {
		0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
		0x12, 0x34, 0xff, 0xd9
	};
	size_t	n = sizeof head;

	memcpy(p, head, n);
	*sof_at = n;
	p[n++] = 0xff;
	p[n++] = (unsigned char)sof;
	p[n++] = 0x00;
	p[n++] = 0x0b;
	p[n++] = 8;
	p[n++] = (unsigned char)(h >> 8);
	p[n++] = (unsigned char)h;
	p[n++] = (unsigned char)(w >> 8);
	p[n++] = (unsigned char)w;
	p[n++] = 1;
	p[n++] = 1;
	p[n++] = 0x11;
	p[n++] = 0;
	memcpy(p + n, tail, sizeof tail);
	return (n + sizeof tail);
}

static size_t
make_gif(unsigned char *p, const char *version, unsigned int w,
    unsigned int h)
{
	memcpy(p, version, 6);
	p[6] = w & 0xff;
	p[7] = w >> 8;
	p[8] = h & 0xff;
	p[9] = h >> 8;
	p[10] = 0;
	p[11] = 0;
	p[12] = 0;
	p[13] = ';';
	return (14);
}

/* A RIFF/WEBP file of 40 bytes whose first chunk is kind (VP8 , VP8L, VP8X). */
static size_t
make_webp(unsigned char *p, const char *kind, unsigned int w, unsigned int h)
{
	uint32_t	bits;

	memset(p, 0, 40);
	memcpy(p, "RIFF", 4);
	p[4] = 32;
	memcpy(p + 8, "WEBP", 4);
	memcpy(p + 12, kind, 4);
	p[16] = 20;
	if (strcmp(kind, "VP8 ") == 0) {
		p[20] = 0x10;		/* key frame, version 0, shown */
		p[23] = 0x9d;
		p[24] = 0x01;
		p[25] = 0x2a;
		p[26] = w & 0xff;
		p[27] = (w >> 8) & 0x3f;
		p[28] = h & 0xff;
		p[29] = (h >> 8) & 0x3f;
	} else if (strcmp(kind, "VP8L") == 0) {
		p[20] = 0x2f;
		bits = (w - 1) | (h - 1) << 14;
		p[21] = bits & 0xff;
		p[22] = (bits >> 8) & 0xff;
		p[23] = (bits >> 16) & 0xff;
		p[24] = (bits >> 24) & 0xff;
	} else {
		p[20] = 0x10;		/* alpha */
		p[24] = (w - 1) & 0xff;
		p[25] = ((w - 1) >> 8) & 0xff;
		p[26] = ((w - 1) >> 16) & 0xff;
		p[27] = (h - 1) & 0xff;
		p[28] = ((h - 1) >> 8) & 0xff;
		p[29] = ((h - 1) >> 16) & 0xff;
	}
	return (40);
}

static void
assert_image(const void *p, size_t len, enum watermark_format f, long w,
    long h)
{
	struct watermark_image	 img;
	char			*cause = NULL;

	if (watermark_probe(p, len, &img, &cause) != 0)
		fail_msg("refused: %s", cause);
	assert_int_equal(img.format, f);
	assert_int_equal(img.width, w);
	assert_int_equal(img.height, h);
}

/* Refused, with a message that contains want. */
static void
assert_not_image(const void *p, size_t len, const char *want)
{
	struct watermark_image	 img;
	char			*cause = NULL;

	if (watermark_probe(p, len, &img, &cause) == 0)
		fail_msg("accepted %zu bytes as %s %ldx%ld", len,
		    watermark_format_name(img.format), img.width, img.height);
	if (strstr(cause, want) == NULL)
		fail_msg("'%s' does not say '%s'", cause, want);
	free(cause);
}

/* Every prefix shorter than need is refused (a file cut in its header). */
static void
assert_prefixes_refused(const unsigned char *p, size_t need)
{
	struct watermark_image	 img;
	char			*cause = NULL;
	size_t			 n;

	for (n = 0; n < need; n++) {
		if (watermark_probe(p, n, &img, &cause) == 0)
			fail_msg("accepted the first %zu bytes", n);
		free(cause);
		cause = NULL;
	}
}

/* ---- image sniffing --------------------------------------------------- */

static void
test_png(void **state)
{
	unsigned char	p[128];
	size_t		n;

	(void)state;
	n = testpng_make(p, 16, 9);
	assert_image(p, n, WATERMARK_PNG, 16, 9);
	/* The header alone is enough; the largest size PNG allows. */
	assert_image(p, 33, WATERMARK_PNG, 16, 9);
	n = testpng_make(p, 0x7fffffff, 1);
	assert_image(p, n, WATERMARK_PNG, 0x7fffffff, 1);
	assert_prefixes_refused(p, 33);
	assert_not_image(p, 20, "cut short");

	n = testpng_make(p, 0x80000000U, 1);
	assert_not_image(p, n, "pixels");
	n = testpng_make(p, 16, 0);
	assert_not_image(p, n, "16x0");
	n = testpng_make(p, 16, 16);
	p[17] ^= 1;				/* the CRC no longer matches */
	assert_not_image(p, n, "CRC");
	n = testpng_make(p, 16, 16);
	memcpy(p + 12, "IDAT", 4);
	assert_not_image(p, n, "IHDR");
}

static void
test_jpeg(void **state)
{
	static const unsigned int sofs[] = {
		0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb,
		0xcd, 0xce, 0xcf
	};
	unsigned char	p[128];
	size_t		n, at, i;

	(void)state;
	for (i = 0; i < nitems(sofs); i++) {
		n = make_jpeg(p, sofs[i], 640, 480, &at);
		assert_image(p, n, WATERMARK_JPEG, 640, 480);
	}
	n = make_jpeg(p, 0xc0, 65535, 1, &at);
	assert_image(p, n, WATERMARK_JPEG, 65535, 1);
	/* Cut anywhere before the frame header's size: refused. */
	n = make_jpeg(p, 0xc0, 640, 480, &at);
	assert_image(p, at + 9, WATERMARK_JPEG, 640, 480);
	assert_prefixes_refused(p, at + 9);
	assert_not_image(p, at + 3, "cut short");

	/* DHT, JPG and DAC sit among the SOF codes but are no frame. */
	n = make_jpeg(p, 0xc4, 640, 480, &at);
	assert_not_image(p, n, "no frame header");
	n = make_jpeg(p, 0xcc, 640, 480, &at);
	assert_not_image(p, n, "no frame header");
	n = make_jpeg(p, 0xc0, 0, 480, &at);
	assert_not_image(p, n, "0x480");
	n = make_jpeg(p, 0xc0, 640, 480, &at);
	p[at - 2] = 0x00;			/* not a fill byte (0xff) */
	assert_not_image(p, n, "no marker");
	n = make_jpeg(p, 0xc0, 640, 480, &at);
	p[at + 2] = 0;				/* segment length 0 */
	p[at + 3] = 1;
	assert_not_image(p, n, "segment of 1 bytes");
	n = make_jpeg(p, 0xc0, 640, 480, &at);
	p[at + 3] = 7;				/* a frame header too short */
	assert_not_image(p, n, "frame header is damaged (7 bytes)");
}

static void
test_gif(void **state)
{
	unsigned char	p[32];
	size_t		n;

	(void)state;
	n = make_gif(p, "GIF89a", 300, 2);
	assert_image(p, n, WATERMARK_GIF, 300, 2);
	n = make_gif(p, "GIF87a", 1, 65535);
	assert_image(p, n, WATERMARK_GIF, 1, 65535);
	assert_image(p, 13, WATERMARK_GIF, 1, 65535);
	assert_prefixes_refused(p, 13);
	n = make_gif(p, "GIF89a", 0, 2);
	assert_not_image(p, n, "0x2");
	n = make_gif(p, "GIF88a", 1, 1);
	assert_not_image(p, n, "not a PNG, JPEG, GIF or WebP");
}

static void
test_webp(void **state)
{
	unsigned char	p[64];
	size_t		n;

	(void)state;
	n = make_webp(p, "VP8 ", 320, 200);
	assert_image(p, n, WATERMARK_WEBP, 320, 200);
	n = make_webp(p, "VP8 ", 16383, 1);
	assert_image(p, n, WATERMARK_WEBP, 16383, 1);
	n = make_webp(p, "VP8L", 16384, 7);
	assert_image(p, n, WATERMARK_WEBP, 16384, 7);
	n = make_webp(p, "VP8X", 1 << 24, 3);
	assert_image(p, n, WATERMARK_WEBP, 1 << 24, 3);
	assert_prefixes_refused(p, 30);

	/* The RIFF header says more bytes than came: cut short. */
	n = make_webp(p, "VP8L", 2, 2);
	assert_not_image(p, n - 1, "cut short");
	n = make_webp(p, "VP8 ", 0, 5);
	assert_not_image(p, n, "0x5");
	n = make_webp(p, "VP8 ", 5, 5);
	p[20] |= 1;				/* not a key frame */
	assert_not_image(p, n, "VP8 frame header");
	n = make_webp(p, "VP8 ", 5, 5);
	p[24] = 0;				/* no start code */
	assert_not_image(p, n, "VP8 frame header");
	n = make_webp(p, "VP8L", 5, 5);
	p[20] = 0x2e;
	assert_not_image(p, n, "VP8L");
	n = make_webp(p, "VP8L", 5, 5);
	p[24] |= 0x20;				/* a version other than 0 */
	assert_not_image(p, n, "VP8L");
	n = make_webp(p, "VP8L", 5, 5);
	p[16] = 9;				/* a first chunk too small */
	assert_not_image(p, n, "first chunk of 9 bytes");
	n = make_webp(p, "VP8X", 5, 5);
	p[16] = 21;				/* past the end of the RIFF */
	assert_not_image(p, n, "first chunk of 21 bytes");
	n = make_webp(p, "ALPH", 5, 5);
	assert_not_image(p, n, "unknown chunk");
	n = make_webp(p, "VP8X", 5, 5);
	memcpy(p + 8, "WAVE", 4);
	assert_not_image(p, n, "not a PNG");
}

static void
test_not_images(void **state)
{
	static const char *const junk[] = {
		"", "hello", "GIF8", "\x89PNG", "BM\x36\x00\x00\x00",
		"RIFF\x20\x00\x00\x00WAVEfmt ", "<svg xmlns=\"x\"/>",
		"\xff\xd8", "%PDF-1.7",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(junk); i++)
		assert_not_image(junk[i], strlen(junk[i]), "");
	assert_not_image("hello", 5, "not a PNG, JPEG, GIF or WebP image");
	assert_string_equal(watermark_format_name(WATERMARK_WEBP), "WebP");
}

/* ---- watermark upload checks ------------------------------------------ */

static void
assert_number(const char *text, double def, double want)
{
	double	 d = -42;
	char	*cause = NULL;

	if (watermark_number("scale", text, def, &d, &cause) != 0)
		fail_msg("'%s' refused: %s", text, cause);
	if (d != want)
		fail_msg("'%s' gave %.17g, not %.17g", text, d, want);
}

static void
assert_not_number(const char *text, const char *want)
{
	double	 d;
	char	*cause = NULL;

	if (watermark_number("padding", text, 0.05, &d, &cause) == 0)
		fail_msg("'%s' accepted as %g", text, d);
	if (strncmp(cause, "padding: ", 9) != 0 || strstr(cause, want) == NULL)
		fail_msg("'%s': message '%s' (wanted '%s')", text, cause, want);
	free(cause);
}

static void
test_watermark_numbers(void **state)
{
	static const char *const garbage[] = {
		"abc", "1,5", ".", "-", "+", "1e", "1e+", "e1", "0x1", "0x0p0",
		"nan", "NaN", "inf", "-inf", "1.0.0", "1 2", "0.5abc",
		"--0.5", "\xc3\xa9", "0.\x01",
	};
	static const char *const outside[] = {
		"1.5", "-0.01", "1.0000001", "2", "1e1", "-1e-9", "100",
		"1e400",
	};
	size_t	i;

	(void)state;
	assert_number(NULL, 0.15, 0.15);
	assert_number("", 0.15, 0.15);
	assert_number("  \t", 0.15, 0.15);
	assert_number("0", 0.15, 0);
	assert_number("1", 0.15, 1);
	assert_number("0.0", 0.15, 0);
	assert_number("1.0", 0.15, 1);
	assert_number("-0", 0.15, 0);
	assert_number("+0.25", 0.15, 0.25);
	assert_number(".5", 0.15, 0.5);
	assert_number("0.", 0.15, 0);
	assert_number("1e0", 0.15, 1);
	assert_number("25E-2", 0.15, 0.25);
	assert_number(" 0.75\r\n", 0.15, 0.75);
	assert_number("1e-400", 0.15, 0);
	for (i = 0; i < nitems(garbage); i++)
		assert_not_number(garbage[i], "is not a number");
	for (i = 0; i < nitems(outside); i++)
		assert_not_number(outside[i], "out of range (0 to 1)");
	/* A long value is cut in the message, not quoted whole. */
	assert_not_number("0.5aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaa", "aaa...' is not");
}

/* A form built part by part; text parts point at string literals. */
static struct multipart *
form_new(void)
{
	return (xcalloc(1, sizeof (struct multipart)));
}

static void
form_add(struct multipart *mp, const char *name, const char *filename,
    const void *data, size_t len)
{
	struct multipart_part	*p = &mp->parts[mp->nparts++];

	p->name = xstrdup(name);
	p->filename = filename != NULL ? xstrdup(filename) : NULL;
	p->data = data;
	p->len = len;
}

static void
form_text(struct multipart *mp, const char *name, const char *value)
{
	form_add(mp, name, NULL, value, strlen(value));
}

/* A form with a 16x16 PNG file part and the given name=value pairs. */
static struct multipart *
form_png(const unsigned char *png, size_t len, ...)
{
	struct multipart	*mp = form_new();
	va_list			 ap;
	const char		*k, *v;

	form_add(mp, "file", "logo.png", png, len);
	va_start(ap, len);
	while ((k = va_arg(ap, const char *)) != NULL) {
		v = va_arg(ap, const char *);
		form_text(mp, k, v);
	}
	va_end(ap);
	return (mp);
}

static void
assert_form_refused(struct multipart *mp, const char *want)
{
	struct watermark_upload	 u;
	char			*cause = NULL;

	if (watermark_validate(mp, &u, &cause) == 0)
		fail_msg("accepted (wanted '%s')", want);
	if (strncmp(cause, want, strlen(want)) != 0)
		fail_msg("message '%s' does not start with '%s'", cause, want);
	assert_null(u.name);
	free(cause);
	multipart_free(mp);
}

static void
test_watermark_validate(void **state)
{
	struct watermark_upload	 u;
	struct multipart	*mp;
	unsigned char		 png[128], jpeg[128];
	char			*cause = NULL;
	char			 name[3 * STREAMRULES_WATERMARK_NAME_MAX + 8];
	size_t			 n, jn, at, i;

	(void)state;
	n = testpng_make(png, 16, 16);
	jn = make_jpeg(jpeg, 0xc2, 100, 50, &at);

	/* Nothing but the file: every default the spec gives. */
	mp = form_png(png, n, NULL);
	assert_int_equal(watermark_validate(mp, &u, &cause), 0);
	assert_string_equal(u.name, "");
	assert_true(u.opacity == 1.0);
	assert_true(u.padding == 0.05);
	assert_true(u.scale == 0.15);
	assert_string_equal(u.position, "upperRight");
	assert_int_equal(u.len, n);
	assert_ptr_equal(u.data, png);
	assert_int_equal(u.image.width, 16);
	watermark_upload_free(&u);
	multipart_free(mp);

	/* Every field, at its edges; empty fields mean the default. */
	mp = form_new();
	form_text(mp, "name", "Marketing \xc3\xa9t\xc3\xa9");
	form_text(mp, "opacity", "0");
	form_text(mp, "padding", "1");
	form_text(mp, "scale", "");
	form_text(mp, "position", "lowerLeft");
	form_add(mp, "file", NULL, jpeg, jn);
	form_text(mp, "unknown", "ignored");
	assert_int_equal(watermark_validate(mp, &u, &cause), 0);
	assert_string_equal(u.name, "Marketing \xc3\xa9t\xc3\xa9");
	assert_true(u.opacity == 0 && u.padding == 1 && u.scale == 0.15);
	assert_string_equal(u.position, "lowerLeft");
	assert_int_equal(u.image.format, WATERMARK_JPEG);
	assert_int_equal(u.image.height, 50);
	watermark_upload_free(&u);
	multipart_free(mp);

	for (i = 0; i < 5; i++) {
		static const char *const pos[] = {
			"upperRight", "upperLeft", "lowerLeft", "lowerRight",
			"center"
		};
		mp = form_png(png, n, "position", pos[i], NULL);
		assert_int_equal(watermark_validate(mp, &u, &cause), 0);
		assert_string_equal(u.position, pos[i]);
		watermark_upload_free(&u);
		multipart_free(mp);
	}

	/* A name of the most characters allowed, each two bytes long. */
	for (i = 0; i < STREAMRULES_WATERMARK_NAME_MAX; i++)
		memcpy(name + 2 * i, "\xc3\xa9", 2);
	name[2 * i] = '\0';
	mp = form_png(png, n, "name", name, NULL);
	assert_int_equal(watermark_validate(mp, &u, &cause), 0);
	watermark_upload_free(&u);
	multipart_free(mp);
	strcat(name, "x");
	assert_form_refused(form_png(png, n, "name", name, NULL),
	    "name: 1025 characters is over the limit of 1024");

	/* Refusals name the field. */
	mp = form_new();
	form_text(mp, "name", "no file");
	assert_form_refused(mp, "file: required");
	mp = form_new();
	form_add(mp, "file", "empty.png", "", 0);
	assert_form_refused(mp, "file: is empty");
	mp = form_new();
	form_add(mp, "file", "notes.txt", "just some text", 14);
	assert_form_refused(mp, "file: not a PNG, JPEG, GIF or WebP image");
	assert_form_refused(form_png(png, 20, NULL), "file: the PNG header is "
	    "cut short");
	assert_form_refused(form_png(png, n, "opacity", "abc", NULL),
	    "opacity: 'abc' is not a number");
	assert_form_refused(form_png(png, n, "opacity", "1.5", NULL),
	    "opacity: 1.5 is out of range (0 to 1)");
	assert_form_refused(form_png(png, n, "padding", "-0.1", NULL),
	    "padding: -0.1 is out of range");
	assert_form_refused(form_png(png, n, "scale", "1.01", NULL),
	    "scale: 1.01 is out of range");
	assert_form_refused(form_png(png, n, "position", "top", NULL),
	    "position: 'top' is not one of upperRight, upperLeft, lowerLeft, "
	    "lowerRight, center");
	assert_form_refused(form_png(png, n, "position", "UpperRight", NULL),
	    "position: 'UpperRight' is not one of");
	assert_form_refused(form_png(png, n, "name", "bad \xff byte", NULL),
	    "name: must be UTF-8 text");
	mp = form_png(png, n, NULL);
	form_add(mp, "scale", NULL, "0.5\0" "9", 5);
	assert_form_refused(mp, "scale: must be UTF-8 text");
}

/* ---- live input checks ------------------------------------------------ */

static cJSON *
parse(const char *json)
{
	cJSON	*v = cJSON_Parse(json);

	if (v == NULL)
		fail_msg("test JSON does not parse: %s", json);
	return (v);
}

static void
assert_live_ok(const char *json)
{
	cJSON	*body = parse(json);
	char	*cause = NULL;

	if (live_validate(body, &cause) != 0)
		fail_msg("%s refused: %s", json, cause);
	cJSON_Delete(body);
}

static void
assert_live_refused(const char *json, const char *want)
{
	cJSON	*body = parse(json);
	char	*cause = NULL;

	if (live_validate(body, &cause) == 0)
		fail_msg("%s accepted (wanted '%s')", json, want);
	if (strncmp(cause, want, strlen(want)) != 0)
		fail_msg("%s: message '%s' does not start with '%s'", json,
		    cause, want);
	free(cause);
	cJSON_Delete(body);
}

static void
test_live_validate(void **state)
{
	char	*s, creator[4 * STREAMRULES_CREATOR_MAX + 1];
	size_t	 i;

	(void)state;
	assert_live_ok("{}");
	assert_live_ok("{\"defaultCreator\":\"c1\","
	    "\"deleteRecordingAfterDays\":30,\"meta\":{\"name\":\"x\","
	    "\"n\":[1,{}]},\"recording\":{\"mode\":"
	    "\"automatic\",\"requireSignedURLs\":true,\"allowedOrigins\":["
	    "\"example.com\",\"*.example.com\"],\"timeoutSeconds\":0}}");
	/* Every field may be null; a record sent back as it came is fine. */
	assert_live_ok("{\"defaultCreator\":null,\"deleteRecordingAfterDays\":"
	    "null,\"meta\":null,\"recording\":null}");
	assert_live_ok("{\"recording\":{\"mode\":null,\"requireSignedURLs\":"
	    "null,\"allowedOrigins\":null,\"timeoutSeconds\":null}}");
	assert_live_ok("{\"uid\":7,\"status\":\"connected\",\"rtmps\":1,"
	    "\"created\":false,\"recording\":{\"hideLiveViewerCount\":1}}");
	assert_live_ok("{\"recording\":{\"mode\":\"off\",\"allowedOrigins\":[],"
	    "\"timeoutSeconds\":2147483647}}");
	assert_live_ok("{\"deleteRecordingAfterDays\":30.0}");
	assert_live_ok("{\"deleteRecordingAfterDays\":1096}");

	assert_live_refused("[]", "the body must be a JSON object, not an "
	    "array");
	assert_live_refused("\"x\"", "the body must be a JSON object, not a "
	    "string");
	assert_live_refused("{\"deleteRecordingAfterDays\":29}",
	    "deleteRecordingAfterDays: 29 is less than the minimum of 30");
	assert_live_refused("{\"deleteRecordingAfterDays\":-1}",
	    "deleteRecordingAfterDays: -1 is less than the minimum");
	assert_live_refused("{\"deleteRecordingAfterDays\":1e300}",
	    "deleteRecordingAfterDays: must be a whole number, not 1e+300");
	assert_live_refused("{\"deleteRecordingAfterDays\":30.5}",
	    "deleteRecordingAfterDays: must be a whole number, not 30.5");
	assert_live_refused("{\"deleteRecordingAfterDays\":\"45\"}",
	    "deleteRecordingAfterDays: must be a whole number, not a string");
	assert_live_refused("{\"meta\":[]}", "meta: must be an object, not an "
	    "array");
	assert_live_refused("{\"meta\":\"name\"}", "meta: must be an object");
	assert_live_refused("{\"defaultCreator\":5}", "defaultCreator: must be "
	    "a string, not a number");
	assert_live_refused("{\"recording\":\"automatic\"}", "recording: must "
	    "be an object, not a string");
	assert_live_refused("{\"recording\":{\"mode\":\"manual\"}}",
	    "recording.mode: 'manual' is not one of off, automatic");
	assert_live_refused("{\"recording\":{\"mode\":\"Off\"}}",
	    "recording.mode: 'Off' is not one of");
	assert_live_refused("{\"recording\":{\"mode\":1}}", "recording.mode: "
	    "must be off or automatic, not a number");
	assert_live_refused("{\"recording\":{\"requireSignedURLs\":\"true\"}}",
	    "recording.requireSignedURLs: must be a boolean, not a string");
	assert_live_refused("{\"recording\":{\"requireSignedURLs\":1}}",
	    "recording.requireSignedURLs: must be a boolean, not a number");
	assert_live_refused("{\"recording\":{\"allowedOrigins\":\"a.com\"}}",
	    "recording.allowedOrigins: must be an array");
	assert_live_refused("{\"recording\":{\"allowedOrigins\":[\"a\",2]}}",
	    "recording.allowedOrigins[1]: must be a string, not a number");
	assert_live_refused("{\"recording\":{\"allowedOrigins\":[\"\"]}}",
	    "recording.allowedOrigins[0]: must not be empty");
	assert_live_refused("{\"recording\":{\"timeoutSeconds\":-1}}",
	    "recording.timeoutSeconds: -1 is out of range (0 to 2147483647)");
	assert_live_refused("{\"recording\":{\"timeoutSeconds\":2147483648}}",
	    "recording.timeoutSeconds: 2147483648 is out of range");
	assert_live_refused("{\"recording\":{\"timeoutSeconds\":1.5}}",
	    "recording.timeoutSeconds: must be a whole number, not 1.5");
	assert_live_refused("{\"recording\":{\"timeoutSeconds\":true}}",
	    "recording.timeoutSeconds: must be a whole number, not a boolean");

	/* defaultCreator: 64 characters (of two bytes each here), not 65. */
	for (i = 0; i < STREAMRULES_CREATOR_MAX; i++)
		memcpy(creator + 2 * i, "\xc3\xa9", 2);
	creator[2 * i] = '\0';
	s = xprintf("{\"defaultCreator\":\"%s\"}", creator);
	assert_live_ok(s);
	free(s);
	s = xprintf("{\"defaultCreator\":\"%sx\"}", creator);
	assert_live_refused(s, "defaultCreator: 65 characters is over the "
	    "limit of 64");
	free(s);
}

static const cJSON *
get(const cJSON *o, const char *path)
{
	char		*copy = xstrdup(path), *p = copy, *dot;
	const cJSON	*v = o;

	while (v != NULL && (dot = strchr(p, '.')) != NULL) {
		*dot = '\0';
		v = cJSON_GetObjectItemCaseSensitive(v, p);
		p = dot + 1;
	}
	if (v != NULL)
		v = cJSON_GetObjectItemCaseSensitive(v, p);
	if (v == NULL)
		fail_msg("no %s", path);
	free(copy);
	return (v);
}

static const char *
get_str(const cJSON *o, const char *path)
{
	const cJSON	*v = get(o, path);

	if (!cJSON_IsString(v))
		fail_msg("%s is not a string", path);
	return (v->valuestring);
}

/* 32 hex, k, 32 hex: the shape of the service's keys and passphrases. */
static void
assert_secret(const char *s)
{
	char	half[HEX32_LEN + 1];

	assert_int_equal(strlen(s), 2 * HEX32_LEN + 1);
	assert_int_equal(s[HEX32_LEN], 'k');
	memcpy(half, s, HEX32_LEN);
	half[HEX32_LEN] = '\0';
	assert_true(apirules_hex32_ok(half));
	assert_true(apirules_hex32_ok(s + HEX32_LEN + 1));
}

static void
test_live_build(void **state)
{
	static const char uid[] = "66be4bf738797e01e1fca35a7bdecdcd";
	cJSON		*a, *b, *want, *sum;
	const char	*secrets[] = {
		"rtmps.streamKey", "rtmpsPlayback.streamKey", "srt.passphrase",
		"srtPlayback.passphrase"
	};
	char		*url;
	size_t		 i, j;

	(void)state;
	a = live_build(ACCT_A, uid, "2026-01-02T03:04:05.000000Z", NULL);
	b = live_build(ACCT_A, uid, "2026-01-02T03:04:05.000000Z", NULL);
	assert_string_equal(get_str(a, "uid"), uid);
	assert_string_equal(get_str(a, "rtmps.url"),
	    "rtmps://live.cloudflare.com:443/live/");
	assert_string_equal(get_str(a, "rtmpsPlayback.url"),
	    "rtmps://live.cloudflare.com:443/live/");
	assert_string_equal(get_str(a, "srt.url"),
	    "srt://live.cloudflare.com:778");
	assert_string_equal(get_str(a, "srtPlayback.url"),
	    "srt://live.cloudflare.com:778");
	assert_true(apirules_hex32_ok(get_str(a, "srt.streamId")));
	assert_true(strncmp(get_str(a, "srtPlayback.streamId"), "play",
	    4) == 0);
	assert_true(apirules_hex32_ok(get_str(a, "srtPlayback.streamId") + 4));
	/* Every secret has the service's shape, and no two are alike. */
	for (i = 0; i < nitems(secrets); i++) {
		assert_secret(get_str(a, secrets[i]));
		assert_string_not_equal(get_str(a, secrets[i]),
		    get_str(b, secrets[i]));
		for (j = 0; j < i; j++)
			assert_string_not_equal(get_str(a, secrets[i]),
			    get_str(a, secrets[j]));
	}
	url = xprintf("https://customer-0123456789abcdef.cloudflarestream.com/"
	    "%sk", uid);
	assert_true(strncmp(get_str(a, "webRTC.url"), url, strlen(url)) == 0);
	assert_true(strcmp(get_str(a, "webRTC.url") + strlen(url) + HEX32_LEN,
	    "/webRTC/publish") == 0);
	assert_string_not_equal(get_str(a, "webRTC.url"),
	    get_str(b, "webRTC.url"));
	free(url);
	url = xprintf("https://customer-0123456789abcdef.cloudflarestream.com/"
	    "%s/webRTC/play", uid);
	assert_string_equal(get_str(a, "webRTCPlayback.url"), url);
	free(url);

	/* The settings part: the defaults, in the service's order. */
	want = parse("{\"created\":\"2026-01-02T03:04:05.000000Z\","
	    "\"modified\":\"2026-01-02T03:04:05.000000Z\",\"meta\":{},"
	    "\"status\":null,\"recording\":{\"mode\":\"off\","
	    "\"requireSignedURLs\":false,\"allowedOrigins\":null,"
	    "\"timeoutSeconds\":0},\"deleteRecordingAfterDays\":null,"
	    "\"defaultCreator\":\"\"}");
	for (i = 0; i < 7; i++)
		cJSON_DeleteItemFromArray(b, 0);
	assert_true(cJSON_Compare(b, want, 1));
	cJSON_Delete(want);

	/* The list form: five members, none of them an endpoint. */
	sum = live_summary(a);
	want = parse("{\"uid\":\"66be4bf738797e01e1fca35a7bdecdcd\","
	    "\"created\":\"2026-01-02T03:04:05.000000Z\","
	    "\"modified\":\"2026-01-02T03:04:05.000000Z\",\"meta\":{},"
	    "\"deleteRecordingAfterDays\":null}");
	assert_true(cJSON_Compare(sum, want, 1));
	cJSON_Delete(want);
	cJSON_Delete(sum);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void
apply(cJSON *input, const char *json)
{
	cJSON	*body = parse(json);
	char	*cause = NULL;

	if (live_validate(body, &cause) != 0)
		fail_msg("%s: %s", json, cause);
	live_apply(input, body);
	cJSON_Delete(body);
}

static void
assert_json(const cJSON *v, const char *json)
{
	cJSON	*want = parse(json);
	char	*got;

	if (!cJSON_Compare(v, want, 1)) {
		got = cJSON_PrintUnformatted(v);
		fail_msg("got %s, wanted %s", got, json);
	}
	cJSON_Delete(want);
}

/* Given fields replace, left-out fields stay, null resets. */
static void
test_live_apply(void **state)
{
	cJSON	*in, *before;

	(void)state;
	in = live_build(ACCT_A, NO_ID, "2026-01-02T03:04:05.000000Z", NULL);
	before = cJSON_Duplicate(in, 1);
	apply(in, "{}");
	assert_true(cJSON_Compare(in, before, 1));
	live_apply(in, NULL);
	assert_true(cJSON_Compare(in, before, 1));

	apply(in, "{\"defaultCreator\":\"cr\",\"deleteRecordingAfterDays\":45,"
	    "\"meta\":{\"name\":\"a\",\"k\":1},\"recording\":{\"mode\":"
	    "\"automatic\",\"requireSignedURLs\":true,\"allowedOrigins\":"
	    "[\"a.com\"],\"timeoutSeconds\":10},\"uid\":\"" ACCT_B "\","
	    "\"rtmps\":{},\"status\":\"connected\"}");
	assert_string_equal(get_str(in, "defaultCreator"), "cr");
	assert_int_equal(get(in, "deleteRecordingAfterDays")->valueint, 45);
	assert_json(get(in, "meta"), "{\"name\":\"a\",\"k\":1}");
	assert_json(get(in, "recording"), "{\"mode\":\"automatic\","
	    "\"requireSignedURLs\":true,\"allowedOrigins\":[\"a.com\"],"
	    "\"timeoutSeconds\":10}");
	/* What the service sets is not the client's to change. */
	assert_string_equal(get_str(in, "uid"), NO_ID);
	assert_true(cJSON_Compare(get(in, "rtmps"), get(before, "rtmps"), 1));
	assert_true(cJSON_IsNull(get(in, "status")));

	/* Only the fields given; meta is replaced as a whole. */
	apply(in, "{\"meta\":{\"name\":\"b\"},\"recording\":{"
	    "\"timeoutSeconds\":20}}");
	assert_json(get(in, "meta"), "{\"name\":\"b\"}");
	assert_json(get(in, "recording"), "{\"mode\":\"automatic\","
	    "\"requireSignedURLs\":true,\"allowedOrigins\":[\"a.com\"],"
	    "\"timeoutSeconds\":20}");
	assert_string_equal(get_str(in, "defaultCreator"), "cr");
	assert_int_equal(get(in, "deleteRecordingAfterDays")->valueint, 45);

	apply(in, "{\"recording\":{\"allowedOrigins\":null,\"mode\":null}}");
	assert_json(get(in, "recording"), "{\"mode\":\"off\","
	    "\"requireSignedURLs\":true,\"allowedOrigins\":null,"
	    "\"timeoutSeconds\":20}");
	apply(in, "{\"defaultCreator\":null,\"deleteRecordingAfterDays\":null,"
	    "\"meta\":null,\"recording\":null}");
	assert_true(cJSON_Compare(in, before, 1));
	cJSON_Delete(before);
	cJSON_Delete(in);
}

/* ---- signing keys ----------------------------------------------------- */

/* Standard base64 (with padding) to bytes, NUL-terminated; *lenp its size. */
static unsigned char *
unbase64(const char *s, size_t *lenp)
{
	size_t		 n = strlen(s);
	unsigned char	*out = xmalloc(n / 4 * 3 + 1);
	int		 len;

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

/* A JWK member (base64url, no padding) as a number. */
static BIGNUM *
jwk_bn(const cJSON *jwk, const char *member)
{
	const char	*v = get_str(jwk, member);
	char		*s = xmalloc(strlen(v) + 4), *c;
	unsigned char	*bytes;
	size_t		 len;
	BIGNUM		*bn;

	assert_null(strpbrk(v, "+/="));
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
	/* Minimal big-endian: no leading zero byte. */
	assert_true(len > 0 && bytes[0] != 0);
	bn = BN_bin2bn(bytes, (int)len, NULL);
	free(bytes);
	free(s);
	return (bn);
}

static BIGNUM *
pkey_bn(const EVP_PKEY *pkey, const char *param)
{
	BIGNUM	*bn = NULL;

	assert_true(EVP_PKEY_get_bn_param(pkey, param, &bn));
	return (bn);
}

/* The private key the JWK describes, as a JOSE library would build it. */
static EVP_PKEY *
jwk_private_key(const cJSON *jwk)
{
	static const char *const map[][2] = {
		{ OSSL_PKEY_PARAM_RSA_N, "n" },
		{ OSSL_PKEY_PARAM_RSA_E, "e" },
		{ OSSL_PKEY_PARAM_RSA_D, "d" },
		{ OSSL_PKEY_PARAM_RSA_FACTOR1, "p" },
		{ OSSL_PKEY_PARAM_RSA_FACTOR2, "q" },
		{ OSSL_PKEY_PARAM_RSA_EXPONENT1, "dp" },
		{ OSSL_PKEY_PARAM_RSA_EXPONENT2, "dq" },
		{ OSSL_PKEY_PARAM_RSA_COEFFICIENT1, "qi" },
	};
	OSSL_PARAM_BLD	*bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM	*params;
	EVP_PKEY_CTX	*ctx;
	EVP_PKEY	*pkey = NULL;
	BIGNUM		*bn[nitems(map)];
	size_t		 i;

	for (i = 0; i < nitems(map); i++) {
		bn[i] = jwk_bn(jwk, map[i][1]);
		assert_true(OSSL_PARAM_BLD_push_BN(bld, map[i][0], bn[i]));
	}
	params = OSSL_PARAM_BLD_to_param(bld);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	assert_true(EVP_PKEY_fromdata_init(ctx) == 1);
	assert_true(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEYPAIR,
	    params) == 1);
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	for (i = 0; i < nitems(map); i++)
		BN_free(bn[i]);
	return (pkey);
}

/* RS256: RSASSA-PKCS1-v1_5 with SHA-256, as a Stream token is signed. */
static unsigned char *
rs256_sign(EVP_PKEY *pkey, const char *msg, size_t *siglen)
{
	EVP_MD_CTX	*md = EVP_MD_CTX_new();
	unsigned char	*sig;

	assert_true(EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL,
	    pkey) == 1);
	assert_true(EVP_DigestSign(md, NULL, siglen,
	    (const unsigned char *)msg, strlen(msg)) == 1);
	sig = xmalloc(*siglen);
	assert_true(EVP_DigestSign(md, sig, siglen,
	    (const unsigned char *)msg, strlen(msg)) == 1);
	EVP_MD_CTX_free(md);
	return (sig);
}

static int
rs256_verify(EVP_PKEY *pkey, const char *msg, const unsigned char *sig,
    size_t siglen)
{
	EVP_MD_CTX	*md = EVP_MD_CTX_new();
	int		 rc;

	assert_true(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL,
	    pkey) == 1);
	rc = EVP_DigestVerify(md, sig, siglen, (const unsigned char *)msg,
	    strlen(msg));
	EVP_MD_CTX_free(md);
	return (rc == 1);
}

static EVP_PKEY *
pem_key(const char *pem, int private)
{
	BIO		*bio = BIO_new_mem_buf(pem, -1);
	EVP_PKEY	*pkey;

	pkey = private ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) :
	    PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (pkey == NULL)
		fail_msg("OpenSSL cannot read the PEM:\n%s", pem);
	return (pkey);
}

static void
test_keys_generate(void **state)
{
	static const char	 id[] = "5213cfa121f70b8c1380686ffc371ba3";
	static const char	 msg[] = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjUyMTMi"
	    "fQ.eyJzdWIiOiJlYTk1MTMyYzE1NzMyNDEyZDIyYzE0NzZmYTgzZjI3YSJ9";
	struct keys_material	 m, m2;
	EVP_PKEY		*priv, *pub, *fromjwk;
	unsigned char		*pem, *jwktext, *sig;
	char			*cause = NULL;
	cJSON			*jwk;
	BIGNUM			*a, *b;
	size_t			 len, siglen;

	(void)state;
	if (keys_generate(id, &m, &cause) != 0)
		fail_msg("keys_generate: %s", cause);

	/* pem: base64 of a PKCS#1 PEM that OpenSSL loads, 2048 bits. */
	pem = unbase64(m.pem, &len);
	assert_int_equal(strlen((char *)pem), len);
	assert_true(strncmp((char *)pem, "-----BEGIN RSA PRIVATE KEY-----\n",
	    32) == 0);
	assert_non_null(strstr((char *)pem, "-----END RSA PRIVATE KEY-----"));
	priv = pem_key((char *)pem, 1);
	assert_int_equal(EVP_PKEY_get_bits(priv), KEYS_RSA_BITS);
	assert_true(EVP_PKEY_is_a(priv, "RSA"));

	/* jwk: base64 of the private JWK of the same key. */
	jwktext = unbase64(m.jwk, &len);
	jwk = parse((char *)jwktext);
	assert_string_equal(get_str(jwk, "kty"), "RSA");
	assert_string_equal(get_str(jwk, "kid"), id);
	assert_string_equal(get_str(jwk, "alg"), "RS256");
	assert_string_equal(get_str(jwk, "use"), "sig");
	a = jwk_bn(jwk, "n");
	b = pkey_bn(priv, OSSL_PKEY_PARAM_RSA_N);
	assert_int_equal(BN_cmp(a, b), 0);
	BN_free(a);
	BN_free(b);
	a = jwk_bn(jwk, "e");
	b = pkey_bn(priv, OSSL_PKEY_PARAM_RSA_E);
	assert_int_equal(BN_cmp(a, b), 0);
	assert_true(BN_is_word(a, 65537));
	BN_free(a);
	BN_free(b);

	/*
	 * Sign a token's header.payload with the key from the JWK, check
	 * it with the PEM's and the stored public key; and the other way.
	 */
	fromjwk = jwk_private_key(jwk);
	pub = pem_key(m.public_pem, 0);
	assert_true(EVP_PKEY_eq(pub, priv) == 1);
	sig = rs256_sign(fromjwk, msg, &siglen);
	assert_int_equal(siglen, KEYS_RSA_BITS / 8);
	assert_true(rs256_verify(priv, msg, sig, siglen));
	assert_true(rs256_verify(pub, msg, sig, siglen));
	assert_false(rs256_verify(pub, "eyJhbGciOiJub25lIn0.e30", sig, siglen));
	sig[10] ^= 1;
	assert_false(rs256_verify(pub, msg, sig, siglen));
	free(sig);
	sig = rs256_sign(priv, msg, &siglen);
	assert_true(rs256_verify(fromjwk, msg, sig, siglen));
	free(sig);

	/* Each key is new. */
	if (keys_generate(id, &m2, &cause) != 0)
		fail_msg("keys_generate: %s", cause);
	assert_string_not_equal(m.pem, m2.pem);
	assert_string_not_equal(m.public_pem, m2.public_pem);
	keys_material_free(&m2);

	EVP_PKEY_free(fromjwk);
	EVP_PKEY_free(pub);
	EVP_PKEY_free(priv);
	cJSON_Delete(jwk);
	free(jwktext);
	free(pem);
	keys_material_free(&m);
	assert_null(m.pem);
}

/* ---- handlers against a scratch store --------------------------------- */

static const struct area *const routed[] = {
	&live_area, &watermark_area, &keys_area
};

static int
setup(void **state)
{
	struct routetest	*f = routetest_open("assets", routed,
				    nitems(routed));

	/* Durability is not under test: skip the fsync per commit. */
	assert_int_equal(store_exec(f->store, "PRAGMA synchronous=OFF"), 0);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	routetest_close(*state);
	return (0);
}

/*
 * Route and run one request in process, as the server would: body is JSON
 * text, or form a multipart body (owned by the call).
 */
static void
call_form(struct routetest *f, enum http_method method, const char *path,
    const char *query, const char *body, struct multipart *form,
    struct routetest_call *c)
{
	routetest_call(f, method, path, query, body, form, c);
}

static void
call(struct routetest *f, enum http_method method, const char *path,
    const char *body, struct routetest_call *c)
{
	call_form(f, method, path, NULL, body, NULL, c);
}

static void
assert_status(struct routetest_call *c, unsigned int status, const char *want)
{
	if (c->status != status)
		fail_msg("status %u (%s), wanted %u", c->status,
		    c->message != NULL ? c->message : "", status);
	if (want != NULL && (c->message == NULL ||
	    strstr(c->message, want) == NULL))
		fail_msg("message '%s' does not say '%s'", c->message, want);
}

static char *
live_path(const char *acct, const char *uid)
{
	return (xprintf("/accounts/%s/stream/live_inputs%s%s", acct,
	    uid != NULL ? "/" : "", uid != NULL ? uid : ""));
}

static void
test_live_handlers(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c, g;
	char			*list = live_path(ACCT_A, NULL);
	char			*item, *other, *uid;
	cJSON			*sum;

	call(f, HTTP_POST, list, "{\"meta\":{\"name\":\"one\"},"
	    "\"recording\":{\"mode\":\"automatic\"}}", &c);
	assert_status(&c, 200, NULL);
	uid = xstrdup(get_str(c.result, "uid"));
	assert_true(apirules_hex32_ok(uid));
	item = live_path(ACCT_A, uid);
	other = live_path(ACCT_B, uid);
	call(f, HTTP_GET, item, NULL, &g);
	assert_status(&g, 200, NULL);
	assert_true(cJSON_Compare(c.result, g.result, 1));
	routetest_call_free(&g);

	/* No body at all makes an input with every default. */
	call(f, HTTP_POST, list, NULL, &g);
	assert_status(&g, 200, NULL);
	assert_string_equal(get_str(g.result, "recording.mode"), "off");
	routetest_call_free(&g);

	call_form(f, HTTP_GET, list, "include_counts=true", NULL, NULL, &g);
	assert_status(&g, 200, NULL);
	assert_int_equal(get(g.result, "total")->valueint, 2);
	assert_int_equal(get(g.result, "range")->valueint, 0);
	assert_int_equal(cJSON_GetArraySize(get(g.result, "liveInputs")), 2);
	sum = live_summary(c.result);
	assert_true(cJSON_Compare(cJSON_GetArrayItem(get(g.result,
	    "liveInputs"), 0), sum, 1));
	cJSON_Delete(sum);
	routetest_call_free(&g);
	call_form(f, HTTP_GET, list, "include_counts=maybe", NULL, NULL, &g);
	assert_status(&g, 400, "include_counts: 'maybe' is not a boolean");
	routetest_call_free(&g);

	call(f, HTTP_PUT, item, "{\"recording\":{\"timeoutSeconds\":7}}", &g);
	assert_status(&g, 200, NULL);
	assert_int_equal(get(g.result, "recording.timeoutSeconds")->valueint,
	    7);
	assert_string_equal(get_str(g.result, "recording.mode"), "automatic");
	assert_string_equal(get_str(g.result, "rtmps.streamKey"),
	    get_str(c.result, "rtmps.streamKey"));
	assert_string_equal(get_str(g.result, "created"),
	    get_str(c.result, "created"));
	assert_true(strcmp(get_str(g.result, "modified"),
	    get_str(c.result, "modified")) >= 0);
	routetest_call_free(&g);
	call(f, HTTP_PUT, item, "{\"recording\":{\"timeoutSeconds\":-7}}", &g);
	assert_status(&g, 400, "recording.timeoutSeconds: -7 is out of range");
	routetest_call_free(&g);
	call(f, HTTP_POST, list, "[1]", &g);
	assert_status(&g, 400, "the body must be a JSON object");
	routetest_call_free(&g);

	/* Another account sees nothing of it. */
	call(f, HTTP_GET, other, NULL, &g);
	assert_status(&g, 404, uid);
	assert_int_equal(g.code, ERR_NOT_FOUND);
	routetest_call_free(&g);
	call(f, HTTP_PUT, other, "{}", &g);
	assert_status(&g, 404, "was not found");
	routetest_call_free(&g);
	call(f, HTTP_DELETE, other, NULL, &g);
	assert_status(&g, 404, "was not found");
	routetest_call_free(&g);

	call(f, HTTP_DELETE, item, NULL, &g);
	assert_status(&g, 200, NULL);
	assert_null(g.result);
	routetest_call_free(&g);
	call(f, HTTP_GET, item, NULL, &g);
	assert_status(&g, 404, "live input");
	routetest_call_free(&g);
	call(f, HTTP_DELETE, item, NULL, &g);
	assert_status(&g, 404, "live input");
	routetest_call_free(&g);
	routetest_call_free(&c);
	free(uid);
	free(item);
	free(other);
	free(list);
}

static void
test_watermark_handlers(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c, g;
	unsigned char		 png[128];
	char			*item, *other, *uid, *want;
	cJSON			*wm;
	sqlite3_stmt		*st;
	size_t			 n = testpng_make(png, 40, 30);

	call_form(f, HTTP_POST, "/accounts/" ACCT_A "/stream/watermarks", NULL,
	    NULL, form_png(png, n, "name", "Logo", "scale", "0.3", NULL), &c);
	assert_status(&c, 200, NULL);
	uid = xstrdup(get_str(c.result, "uid"));
	assert_true(apirules_hex32_ok(uid));
	want = xprintf("{\"uid\":\"%s\",\"size\":%zu,\"height\":30,"
	    "\"width\":40,\"created\":\"%s\",\"downloadedFrom\":null,"
	    "\"name\":\"Logo\",\"opacity\":1,\"padding\":0.05,\"scale\":0.3,"
	    "\"position\":\"upperRight\"}", uid, n, get_str(c.result,
	    "created"));
	assert_json(c.result, want);
	free(want);
	item = xprintf("/accounts/%s/stream/watermarks/%s", ACCT_A, uid);
	other = xprintf("/accounts/%s/stream/watermarks/%s", ACCT_B, uid);

	/* The bytes are kept as they came. */
	st = store_stmt(f->store, "SELECT image FROM watermark WHERE uid = ?1");
	sqlite3_bind_text(st, 1, uid, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_bytes(st, 0), n);
	assert_memory_equal(sqlite3_column_blob(st, 0), png, n);
	store_done(st);

	call(f, HTTP_GET, item, NULL, &g);
	assert_status(&g, 200, NULL);
	assert_true(cJSON_Compare(g.result, c.result, 1));
	routetest_call_free(&g);
	wm = watermark_load(f->store, ACCT_A, uid);
	assert_true(cJSON_Compare(wm, c.result, 1));
	cJSON_Delete(wm);
	assert_null(watermark_load(f->store, ACCT_B, uid));
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/watermarks", NULL, &g);
	assert_status(&g, 200, NULL);
	assert_int_equal(cJSON_GetArraySize(g.result), 1);
	assert_true(cJSON_Compare(cJSON_GetArrayItem(g.result, 0), c.result,
	    1));
	routetest_call_free(&g);
	call(f, HTTP_GET, "/accounts/" ACCT_B "/stream/watermarks", NULL, &g);
	assert_int_equal(cJSON_GetArraySize(g.result), 0);
	routetest_call_free(&g);

	call_form(f, HTTP_POST, "/accounts/" ACCT_A "/stream/watermarks", NULL,
	    NULL, form_png(png, n, "opacity", "1.5", NULL), &g);
	assert_status(&g, 400, "opacity: 1.5 is out of range");
	assert_int_equal(g.code, ERR_VALIDATION);
	routetest_call_free(&g);

	call(f, HTTP_GET, other, NULL, &g);
	assert_status(&g, 404, "watermark profile");
	routetest_call_free(&g);
	call(f, HTTP_DELETE, other, NULL, &g);
	assert_status(&g, 404, "watermark profile");
	routetest_call_free(&g);
	call(f, HTTP_DELETE, item, NULL, &g);
	assert_status(&g, 200, NULL);
	assert_true(cJSON_IsString(g.result));
	assert_string_equal(g.result->valuestring, "");
	routetest_call_free(&g);
	call(f, HTTP_GET, item, NULL, &g);
	assert_status(&g, 404, uid);
	routetest_call_free(&g);
	assert_null(watermark_load(f->store, ACCT_A, uid));
	routetest_call_free(&c);
	free(item);
	free(other);
	free(uid);
}

/* The 1000th key is made, the 1001st refused; the limit is per account. */
static void
test_keys_limit(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			*pem, *path;
	const cJSON		*k;
	int			 n = 0;

	assert_int_equal(store_exec(f->store,
	    "WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i"
	    " WHERE n < 999) INSERT INTO signing_key (account, id, created)"
	    " SELECT '" ACCT_A "', printf('%032x', n),"
	    " '2026-01-01T00:00:00.000000Z' FROM i"), 0);
	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	assert_status(&c, 200, NULL);
	pem = keys_public_pem(f->store, ACCT_A, get_str(c.result, "id"));
	assert_non_null(pem);
	assert_true(strncmp(pem, "-----BEGIN PUBLIC KEY-----", 26) == 0);
	free(pem);
	assert_null(keys_public_pem(f->store, ACCT_B, get_str(c.result,
	    "id")));
	routetest_call_free(&c);

	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	assert_status(&c, 409, "already has 1000 signing keys");
	assert_int_equal(c.code, ERR_CONFLICT);
	assert_null(c.result);
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), KEYS_PER_ACCOUNT);
	/* The list: ids and dates only, in creation order. */
	cJSON_ArrayForEach(k, c.result) {
		assert_int_equal(cJSON_GetArraySize(k), 2);
		assert_true(apirules_hex32_ok(get_str(k, "id")));
		get_str(k, "created");
		n++;
	}
	assert_string_equal(get_str(cJSON_GetArrayItem(c.result, 0), "id"),
	    "00000000000000000000000000000001");
	routetest_call_free(&c);

	call(f, HTTP_POST, "/accounts/" ACCT_B "/stream/keys", "{}", &c);
	assert_status(&c, 200, NULL);
	routetest_call_free(&c);
	path = xprintf("/accounts/%s/stream/keys/%032x", ACCT_A, 7);
	call(f, HTTP_DELETE, path, NULL, &c);
	assert_status(&c, 200, NULL);
	assert_string_equal(c.result->valuestring, "ok");
	routetest_call_free(&c);
	call(f, HTTP_DELETE, path, NULL, &c);
	assert_status(&c, 404, "signing key 00000000000000000000000000000007");
	routetest_call_free(&c);
	free(path);
	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	assert_status(&c, 200, NULL);
	routetest_call_free(&c);
}

/* A store that cannot write: 500 in the envelope, nothing half done. */
static void
test_store_write_failure(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	unsigned char		 png[128];
	char			*path;
	size_t			 n = testpng_make(png, 4, 4);

	assert_int_equal(store_exec(f->store,
	    "CREATE TRIGGER t1 BEFORE INSERT ON live_input BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"
	    "CREATE TRIGGER t2 BEFORE INSERT ON watermark BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"
	    "CREATE TRIGGER t3 BEFORE INSERT ON signing_key BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"), 0);
	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/live_inputs", "{}", &c);
	assert_status(&c, 500, "disk on fire");
	assert_int_equal(c.code, ERR_INTERNAL);
	routetest_call_free(&c);
	call_form(f, HTTP_POST, "/accounts/" ACCT_A "/stream/watermarks", NULL,
	    NULL, form_png(png, n, NULL), &c);
	assert_status(&c, 500, "disk on fire");
	routetest_call_free(&c);
	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	assert_status(&c, 500, "disk on fire");
	assert_null(c.result);
	routetest_call_free(&c);
	assert_int_equal(store_exec(f->store, "DROP TRIGGER t1;"
	    "DROP TRIGGER t2; DROP TRIGGER t3;"), 0);

	/* An update or delete that cannot be written changes nothing. */
	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/live_inputs", "{}", &c);
	assert_status(&c, 200, NULL);
	path = live_path(ACCT_A, get_str(c.result, "uid"));
	routetest_call_free(&c);
	assert_int_equal(store_exec(f->store,
	    "CREATE TRIGGER t4 BEFORE UPDATE ON live_input BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"
	    "CREATE TRIGGER t5 BEFORE DELETE ON live_input BEGIN"
	    " SELECT RAISE(ABORT, 'disk on fire'); END;"), 0);
	call(f, HTTP_PUT, path, "{\"meta\":{\"a\":1}}", &c);
	assert_status(&c, 500, "disk on fire");
	routetest_call_free(&c);
	call(f, HTTP_DELETE, path, NULL, &c);
	assert_status(&c, 500, "disk on fire");
	routetest_call_free(&c);
	call(f, HTTP_GET, path, NULL, &c);
	assert_status(&c, 200, NULL);
	assert_json(get(c.result, "meta"), "{}");
	routetest_call_free(&c);
	free(path);
}

/* Stored text that is not JSON, and tables gone: 500, never a crash. */
static void
test_store_read_failure(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	unsigned char		 png[128];
	char			*live, *wm;
	size_t			 n = testpng_make(png, 4, 4);

	call(f, HTTP_POST, "/accounts/" ACCT_A "/stream/live_inputs", "{}", &c);
	live = live_path(ACCT_A, get_str(c.result, "uid"));
	routetest_call_free(&c);
	call_form(f, HTTP_POST, "/accounts/" ACCT_A "/stream/watermarks", NULL,
	    NULL, form_png(png, n, NULL), &c);
	wm = xprintf("/accounts/%s/stream/watermarks/%s", ACCT_A,
	    get_str(c.result, "uid"));
	routetest_call_free(&c);
	assert_int_equal(store_exec(f->store,
	    "UPDATE live_input SET body = 'not json';"
	    "UPDATE watermark SET body = '{';"), 0);
	call(f, HTTP_GET, live, NULL, &c);
	assert_status(&c, 500, "is not JSON");
	routetest_call_free(&c);
	call(f, HTTP_PUT, live, "{}", &c);
	assert_status(&c, 500, "is not JSON");
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/live_inputs", NULL, &c);
	assert_status(&c, 500, "is not JSON");
	assert_null(c.result);
	routetest_call_free(&c);
	call(f, HTTP_GET, wm, NULL, &c);
	assert_status(&c, 500, "is not JSON");
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/watermarks", NULL, &c);
	assert_status(&c, 500, "is not JSON");
	routetest_call_free(&c);

	/* Every statement is prepared before the tables go. */
	call(f, HTTP_DELETE, live, NULL, &c);
	routetest_call_free(&c);
	call(f, HTTP_DELETE, wm, NULL, &c);
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	routetest_call_free(&c);
	call(f, HTTP_DELETE, "/accounts/" ACCT_A "/stream/keys/" NO_ID, NULL,
	    &c);
	routetest_call_free(&c);
	assert_int_equal(store_exec(f->store, "DROP TABLE live_input;"
	    "DROP TABLE watermark; DROP TABLE signing_key;"), 0);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/live_inputs", NULL, &c);
	assert_status(&c, 500, "live_input");
	routetest_call_free(&c);
	call(f, HTTP_GET, live, NULL, &c);
	assert_status(&c, 500, "live_input");
	routetest_call_free(&c);
	call(f, HTTP_PUT, live, "{}", &c);
	assert_status(&c, 500, "live_input");
	routetest_call_free(&c);
	call(f, HTTP_DELETE, live, NULL, &c);
	assert_status(&c, 500, "live_input");
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/watermarks", NULL, &c);
	assert_status(&c, 500, "watermark");
	routetest_call_free(&c);
	call(f, HTTP_DELETE, wm, NULL, &c);
	assert_status(&c, 500, "watermark");
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/keys", NULL, &c);
	assert_status(&c, 500, "signing_key");
	routetest_call_free(&c);
	call(f, HTTP_DELETE, "/accounts/" ACCT_A "/stream/keys/" NO_ID, NULL,
	    &c);
	assert_status(&c, 500, "signing_key");
	routetest_call_free(&c);
	free(live);
	free(wm);
}

static void
seed_demo(struct routetest *f, const char *acct)
{
	const struct area	*areas[] = { &live_area, &watermark_area,
				    &keys_area };
	char			*cause = NULL;
	size_t			 i;

	assert_int_equal(store_begin(f->store), 0);
	for (i = 0; i < nitems(areas); i++) {
		if (areas[i]->demo(f->store, acct, "zone", &cause) != 0)
			fail_msg("%s demo: %s", areas[i]->name, cause);
	}
	assert_int_equal(store_commit(f->store), 0);
}

static void
test_demo(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 a, b;
	const cJSON		*in;
	char			*path, *uid;
	cJSON			*full;
	sqlite3_stmt		*st;
	int			 off = 0, automatic = 0, signed_urls = 0;
	int			 images = 0;
	struct watermark_image img;
	char		*cause = NULL;

	seed_demo(f, ACCT_A);
	seed_demo(f, ACCT_B);

	/* Three inputs: both recording modes, one behind signed URLs. */
	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/live_inputs", NULL, &a);
	call(f, HTTP_GET, "/accounts/" ACCT_B "/stream/live_inputs", NULL, &b);
	assert_int_equal(get(a.result, "total")->valueint, 3);
	/* Deterministic: the same inputs each time the demo is seeded. */
	assert_true(cJSON_Compare(a.result, b.result, 1));
	routetest_call_free(&b);
	cJSON_ArrayForEach(in, get(a.result, "liveInputs")) {
		uid = xstrdup(get_str(in, "uid"));
		path = live_path(ACCT_A, uid);
		call(f, HTTP_GET, path, NULL, &b);
		full = b.result;
		off += strcmp(get_str(full, "recording.mode"), "off") == 0;
		automatic += strcmp(get_str(full, "recording.mode"),
		    "automatic") == 0;
		signed_urls += cJSON_IsTrue(get(full,
		    "recording.requireSignedURLs"));
		assert_secret(get_str(full, "rtmps.streamKey"));
		get_str(full, "meta.name");
		routetest_call_free(&b);
		free(path);
		free(uid);
	}
	assert_true(off >= 1 && automatic >= 1);
	assert_int_equal(signed_urls, 1);
	routetest_call_free(&a);

	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/watermarks", NULL, &a);
	call(f, HTTP_GET, "/accounts/" ACCT_B "/stream/watermarks", NULL, &b);
	assert_int_equal(cJSON_GetArraySize(a.result), 2);
	assert_true(cJSON_Compare(a.result, b.result, 1));
	routetest_call_free(&a);
	routetest_call_free(&b);
	/* Their images are PNGs of the size their profiles give. */
	st = store_stmt(f->store, "SELECT image, body FROM watermark");
	while (sqlite3_step(st) == SQLITE_ROW) {
		full = parse((const char *)sqlite3_column_text(st, 1));
		if (watermark_probe(sqlite3_column_blob(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), &img, &cause) != 0)
			fail_msg("demo image: %s", cause);
		assert_int_equal(img.format, WATERMARK_PNG);
		assert_int_equal(img.width, get(full, "width")->valueint);
		assert_int_equal(img.height, get(full, "height")->valueint);
		assert_int_equal(sqlite3_column_bytes(st, 0),
		    get(full, "size")->valueint);
		cJSON_Delete(full);
		images++;
	}
	store_done(st);
	assert_int_equal(images, 4);

	call(f, HTTP_GET, "/accounts/" ACCT_A "/stream/keys", NULL, &a);
	call(f, HTTP_GET, "/accounts/" ACCT_B "/stream/keys", NULL, &b);
	assert_int_equal(cJSON_GetArraySize(a.result), 2);
	assert_true(cJSON_Compare(a.result, b.result, 1));
	/* Keys made "earlier": no public half, so no token checks out. */
	assert_null(keys_public_pem(f->store, ACCT_A, get_str(
	    cJSON_GetArrayItem(a.result, 0), "id")));
	routetest_call_free(&a);
	routetest_call_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_png),
		cmocka_unit_test(test_jpeg),
		cmocka_unit_test(test_gif),
		cmocka_unit_test(test_webp),
		cmocka_unit_test(test_not_images),
		cmocka_unit_test(test_watermark_numbers),
		cmocka_unit_test(test_watermark_validate),
		cmocka_unit_test(test_live_validate),
		cmocka_unit_test(test_live_build),
		cmocka_unit_test(test_live_apply),
		cmocka_unit_test(test_keys_generate),
		cmocka_unit_test_setup_teardown(test_live_handlers, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_watermark_handlers, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_keys_limit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_write_failure,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_read_failure, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_demo, setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
