/*
 * Unit tests for Stream videos and uploads: the Upload-Metadata parser and
 * what its keys set, the tus header and chunk rules at their edges, the MP4
 * box walk on hand-made files (v0/v1 mvhd, 64-bit and to-the-end sizes, cut
 * short, not a container), and the handlers in process against a scratch
 * store: the created cursor across pages, filters, edit checks, delete.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "media.h"
#include "routetest.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "tus.h"
#include "util.h"
#include "xmalloc.h"

extern const struct area stream_area;
extern const struct area tus_area;

#define NOW	((int64_t)1800000000 * 1000000)	/* 2027-01-15 */
#define MINUTE	((int64_t)60 * 1000000)

/* ---- Upload-Metadata ----------------------------------------------------- */

static int
meta_ok(const char *h, struct tus_meta *m)
{
	char	*cause = NULL;

	if (tus_meta_parse(h, m, &cause) != 0)
		fail_msg("'%s' refused: %s", h, cause);
	return ((int)m->npairs);
}

static void
meta_bad(const char *h, const char *want)
{
	struct tus_meta	 m;
	char		*cause = NULL;

	if (tus_meta_parse(h, &m, &cause) == 0)
		fail_msg("'%s' accepted", h);
	if (strstr(cause, want) == NULL)
		fail_msg("'%s': '%s' does not say '%s'", h, cause, want);
	assert_int_equal(m.npairs, 0);
	free(cause);
}

static void
test_meta_valid(void **state)
{
	struct tus_meta			 m;
	const struct tus_meta_pair	*p;

	(void)state;
	/* The spec's own example, spaces after the commas included. */
	assert_int_equal(meta_ok("name aGVsbG8gd29ybGQ=, requiresignedurls, "
	    "allowedorigins ZXhhbXBsZS5jb20sdGVzdC5jb20=", &m), 3);
	p = tus_meta_get(&m, "name");
	assert_non_null(p);
	assert_string_equal(p->value, "hello world");
	assert_int_equal(p->len, 11);
	assert_false(p->flag);
	p = tus_meta_get(&m, "requiresignedurls");
	assert_true(p->flag);
	assert_string_equal(p->value, "");
	assert_string_equal(tus_meta_get(&m, "allowedorigins")->value,
	    "example.com,test.com");
	tus_meta_free(&m);

	/* Padding of one and two, and an empty value spelled out. */
	assert_int_equal(meta_ok("a YWI=,b YQ==,c YWJj", &m), 3);
	assert_string_equal(tus_meta_get(&m, "a")->value, "ab");
	assert_string_equal(tus_meta_get(&m, "b")->value, "a");
	assert_string_equal(tus_meta_get(&m, "c")->value, "abc");
	tus_meta_free(&m);

	/* A value may hold a NUL: len tells. */
	assert_int_equal(meta_ok("bin AGE=", &m), 1);
	assert_int_equal(tus_meta_get(&m, "bin")->len, 2);
	tus_meta_free(&m);

	/* Keys are looked up without case, kept as spelled. */
	assert_int_equal(meta_ok("maxDurationSeconds NjAw", &m), 1);
	assert_non_null(tus_meta_get(&m, "maxdurationseconds"));
	assert_string_equal(m.pairs[0].key, "maxDurationSeconds");
	tus_meta_free(&m);
}

static void
test_meta_empty(void **state)
{
	struct tus_meta	m;

	(void)state;
	assert_int_equal(meta_ok("", &m), 0);
	assert_int_equal(meta_ok("   ", &m), 0);
	assert_int_equal(tus_meta_parse(NULL, &m, NULL), 0);
	assert_int_equal(m.npairs, 0);
	/* Flags only. */
	assert_int_equal(meta_ok("requiresignedurls", &m), 1);
	tus_meta_free(&m);
	assert_int_equal(meta_ok("a,b,c", &m), 3);
	tus_meta_free(&m);
}

static void
test_meta_refused(void **state)
{
	char	*many;
	size_t	 i;

	(void)state;
	meta_bad("name aGVsbG8", "base64");		/* no padding */
	meta_bad("name aGVsbG8!", "base64");		/* bad character */
	meta_bad("name a===", "base64");
	meta_bad("name YQ=a", "base64");		/* = in the middle */
	meta_bad("name ====", "base64");
	meta_bad("name aGVs bG8=", "space");		/* two values */
	meta_bad("name YQ==,name YQ==", "twice");
	meta_bad("Name YQ==,nAmE YQ==", "twice");	/* without case */
	meta_bad("a,,b", "empty pair");
	meta_bad(",a", "empty pair");
	meta_bad("a,", "empty pair");
	meta_bad("na\xc3\xa9me YQ==", "ASCII");
	meta_bad("na\x01me YQ==", "ASCII");
	many = xstrdup("k0");
	for (i = 1; i <= TUS_META_MAX_PAIRS; i++) {
		char *next = xprintf("%s,k%zu", many, i);

		free(many);
		many = next;
	}
	meta_bad(many, "more than");
	free(many);
}

static void
fields_ok(const char *h, struct tus_fields *f)
{
	struct tus_meta	 m;
	char		*cause = NULL;

	meta_ok(h, &m);
	if (tus_meta_fields(&m, NOW, f, &cause) != 0)
		fail_msg("'%s' refused: %s", h, cause);
	tus_meta_free(&m);
}

static void
fields_bad(const char *h, const char *want)
{
	struct tus_meta		 m;
	struct tus_fields	 f;
	char			*cause = NULL;

	meta_ok(h, &m);
	if (tus_meta_fields(&m, NOW, &f, &cause) == 0)
		fail_msg("'%s' accepted", h);
	if (strstr(cause, want) == NULL)
		fail_msg("'%s': '%s' does not say '%s'", h, cause, want);
	free(cause);
	tus_meta_free(&m);
}

static char *
b64(const char *s)
{
	static const char	 d[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n = strlen(s), i;
	struct buf		 b = BUF_INITIALIZER;

	for (i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)u[i] << 16 |
		    (i + 1 < n ? (uint32_t)u[i + 1] << 8 : 0) |
		    (i + 2 < n ? u[i + 2] : 0);

		buf_addc(&b, d[v >> 18 & 63]);
		buf_addc(&b, d[v >> 12 & 63]);
		buf_addc(&b, i + 1 < n ? d[v >> 6 & 63] : '=');
		buf_addc(&b, i + 2 < n ? d[v & 63] : '=');
	}
	return (buf_detach(&b, NULL));
}

static char *
pair(const char *key, const char *value)
{
	char	*v = b64(value), *s = xprintf("%s %s", key, v);

	free(v);
	return (s);
}

static void
test_meta_fields(void **state)
{
	struct tus_fields	 f;
	char			*h, *v1, *v2, *v3, *v4, *v5, *v6, *v7, *v8;
	char			 iso[ISO_TIME_LEN];

	(void)state;
	stream_time_iso(NOW + 40 * 86400 * 1000000LL, iso);
	v1 = pair("NAME", "Holiday \xc3\xa9t\xc3\xa9.mp4");
	v2 = pair("AllowedOrigins", "example.com, *.test.com ,");
	v3 = pair("thumbnailTimestampPct", "0.25");
	v4 = pair("watermark", "0123456789abcdef0123456789abcdef");
	v5 = pair("scheduledDeletion", iso);
	v6 = pair("maxDurationSeconds", "600");
	v7 = pair("filename", "holiday.mp4");
	stream_time_iso(NOW + 10 * MINUTE, iso);
	v8 = b64(iso);
	h = xprintf("%s,%s,%s,%s,%s,%s,%s,RequireSignedURLs,expiry %s,filetype",
	    v1, v2, v3, v4, v5, v6, v7, v8);
	fields_ok(h, &f);
	assert_string_equal(cJSON_GetObjectItem(f.meta, "name")->valuestring,
	    "Holiday \xc3\xa9t\xc3\xa9.mp4");
	/* Unknown keys land in meta under their own spelling. */
	assert_string_equal(cJSON_GetObjectItem(f.meta,
	    "filename")->valuestring, "holiday.mp4");
	assert_string_equal(cJSON_GetObjectItem(f.meta,
	    "filetype")->valuestring, "");
	assert_true(f.require_signed);
	assert_int_equal(cJSON_GetArraySize(f.allowed_origins), 2);
	assert_string_equal(cJSON_GetArrayItem(f.allowed_origins,
	    1)->valuestring, "*.test.com");
	assert_true(f.thumb_pct == 0.25);
	assert_string_equal(f.watermark, "0123456789abcdef0123456789abcdef");
	assert_non_null(f.scheduled_deletion);
	assert_int_equal(f.max_duration, 600);
	assert_true(f.expiry == NOW + 10 * MINUTE);
	tus_fields_free(&f);
	free(h);
	free(v1);
	free(v2);
	free(v3);
	free(v4);
	free(v5);
	free(v6);
	free(v7);
	free(v8);

	/* Nothing given: the defaults say so. */
	fields_ok("", &f);
	assert_int_equal(cJSON_GetArraySize(f.meta), 0);
	assert_null(f.allowed_origins);
	assert_true(f.thumb_pct < 0);
	assert_int_equal(f.max_duration, -1);
	assert_true(f.expiry == 0);
	assert_false(f.require_signed);
	tus_fields_free(&f);

	fields_ok("requiresignedurls ZmFsc2U=", &f);	/* "false" */
	assert_false(f.require_signed);
	tus_fields_free(&f);
}

static void
test_meta_fields_refused(void **state)
{
	char	iso[ISO_TIME_LEN], *h, *v;

	(void)state;
	fields_bad("thumbnailtimestamppct MS41", "out of range"); /* 1.5 */
	fields_bad("thumbnailtimestamppct YWJj", "a number");
	fields_bad("thumbnailtimestamppct", "a number");
	fields_bad("maxdurationseconds MA==", "out of range");	/* 0 */
	fields_bad("maxdurationseconds MjE2MDE=", "range");	/* 21601 */
	fields_bad("maxdurationseconds MS41", "integer");	/* 1.5 */
	fields_bad("watermark YWJj", "32 hex");
	fields_bad("requiresignedurls bWF5YmU=", "flag");	/* maybe */
	fields_bad("expiry bm90IGEgZGF0ZQ==", "RFC 3339");
	fields_bad("name AA==", "UTF-8");			/* a NUL */
	fields_bad("name /w==", "UTF-8");			/* 0xff */
	fields_bad("other /w==", "UTF-8");
	stream_time_iso(NOW + MINUTE, iso);			/* too soon */
	v = b64(iso);
	h = xprintf("expiry %s", v);
	fields_bad(h, "2 minutes and 6 hours");
	free(h);
	free(v);
	stream_time_iso(NOW + 7 * 60 * MINUTE, iso);		/* too late */
	v = b64(iso);
	h = xprintf("expiry %s", v);
	fields_bad(h, "2 minutes and 6 hours");
	free(h);
	free(v);
	stream_time_iso(NOW + 29 * 24 * 60 * MINUTE, iso);
	v = b64(iso);
	h = xprintf("scheduleddeletion %s", v);
	fields_bad(h, "30 to 1096 days");
	free(h);
	free(v);
}

/* ---- headers and chunks -------------------------------------------------- */

static void
test_sizes(void **state)
{
	uint64_t	v;

	(void)state;
	assert_int_equal(tus_parse_size("0", &v), 0);
	assert_true(v == 0);
	assert_int_equal(tus_parse_size("1073741824", &v), 0);
	assert_true(v == 1073741824ULL);
	assert_int_equal(tus_parse_size("9223372036854775807", &v), 0);
	assert_int_equal(tus_parse_size("9223372036854775808", &v), -1);
	assert_int_equal(tus_parse_size("99999999999999999999", &v), -1);
	assert_int_equal(tus_parse_size("", &v), -1);
	assert_int_equal(tus_parse_size(NULL, &v), -1);
	assert_int_equal(tus_parse_size("-1", &v), -1);
	assert_int_equal(tus_parse_size("+1", &v), -1);
	assert_int_equal(tus_parse_size(" 1", &v), -1);
	assert_int_equal(tus_parse_size("1 ", &v), -1);
	assert_int_equal(tus_parse_size("0x10", &v), -1);
	assert_true(tus_version_ok("1.0.0"));
	assert_false(tus_version_ok("0.2.2"));
	assert_false(tus_version_ok("1.0.0 "));
	assert_false(tus_version_ok(NULL));
}

static void
test_chunks(void **state)
{
	static const struct {
		uint64_t	offset, len, total;
		enum tus_chunk	want;
		const char	*says;
	} cases[] = {
		{ 0, 5242880, 64 << 20, TUS_CHUNK_OK, NULL },
		{ 0, 52428800, 1ULL << 30, TUS_CHUNK_OK, NULL },
		{ 0, 209715200, 1ULL << 30, TUS_CHUNK_OK, NULL },
		{ 0, 209715200 + 262144, 1ULL << 30, TUS_CHUNK_TOO_BIG,
		    "maximum of 209715200" },
		/* The final chunk may be any size up to the maximum... */
		{ 5242880, 1, 5242881, TUS_CHUNK_OK, NULL },
		{ 0, 1000, 1000, TUS_CHUNK_OK, NULL },
		{ 0, 209715201, 209715201, TUS_CHUNK_TOO_BIG, "maximum" },
		/* ...the others follow the rules. */
		{ 0, 5242880 - 262144, 64 << 20, TUS_CHUNK_TOO_SMALL,
		    "minimum of 5242880" },
		{ 0, 1, 64 << 20, TUS_CHUNK_TOO_SMALL, "final chunk" },
		{ 0, 5242880 + 1, 64 << 20, TUS_CHUNK_UNALIGNED,
		    "multiple of 262144" },
		{ 0, 5242880 + 262144, 64 << 20, TUS_CHUNK_OK, NULL },
		{ 10, 5242880, 64 << 20, TUS_CHUNK_OK, NULL },
		/* Past the length, however small. */
		{ 0, 2, 1, TUS_CHUNK_PAST_END, "past the Upload-Length" },
		{ 5, 0, 4, TUS_CHUNK_PAST_END, "past" },
		{ 5242880, 5242881, 10485760, TUS_CHUNK_PAST_END, "past" },
		/* An empty PATCH changes nothing. */
		{ 0, 0, 64 << 20, TUS_CHUNK_OK, NULL },
		{ 100, 0, 100, TUS_CHUNK_OK, NULL },
	};
	size_t		i;
	char		*cause;
	enum tus_chunk	c;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		cause = NULL;
		c = tus_chunk_check(cases[i].offset, cases[i].len,
		    cases[i].total, &cause);
		if (c != cases[i].want)
			fail_msg("case %zu: %d, wanted %d (%s)", i, c,
			    cases[i].want, cause != NULL ? cause : "");
		if (cases[i].says != NULL && (cause == NULL ||
		    strstr(cause, cases[i].says) == NULL))
			fail_msg("case %zu: '%s' does not say '%s'", i, cause,
			    cases[i].says);
		free(cause);
	}
	assert_int_equal(tus_chunk_status(TUS_CHUNK_PAST_END), 413);
	assert_int_equal(tus_chunk_status(TUS_CHUNK_TOO_BIG), 413);
	assert_int_equal(tus_chunk_status(TUS_CHUNK_TOO_SMALL), 400);
	assert_int_equal(tus_chunk_status(TUS_CHUNK_UNALIGNED), 400);
}

static void
test_http_date(void **state)
{
	char	d[TUS_DATE_LEN];

	(void)state;
	tus_http_date((int64_t)784111777 * 1000000 + 999999, d);
	assert_string_equal(d, "Sun, 06 Nov 1994 08:49:37 GMT");
}

/* ---- MP4 boxes, written by hand ------------------------------------------ */

static void
put32(struct buf *b, uint32_t v)
{
	unsigned char	p[4] = { v >> 24, v >> 16, v >> 8, v };

	buf_add(b, p, 4);
}

static void
put64(struct buf *b, uint64_t v)
{
	put32(b, (uint32_t)(v >> 32));
	put32(b, (uint32_t)v);
}

static void
box(struct buf *b, const char *type, const struct buf *payload)
{
	put32(b, (uint32_t)(8 + payload->len));
	buf_add(b, type, 4);
	buf_add(b, payload->data, payload->len);
}

static void
mvhd(struct buf *moov, int version, uint32_t timescale, uint64_t units)
{
	struct buf	p = BUF_INITIALIZER;
	size_t		i;

	put32(&p, (uint32_t)version << 24);
	if (version == 1) {
		put64(&p, 1);
		put64(&p, 2);
		put32(&p, timescale);
		put64(&p, units);
	} else {
		put32(&p, 1);
		put32(&p, 2);
		put32(&p, timescale);
		put32(&p, (uint32_t)units);
	}
	for (i = 0; i < 80; i++)
		buf_addc(&p, 0);
	box(moov, "mvhd", &p);
	buf_free(&p);
}

static void
trak(struct buf *moov, int w, int h)
{
	struct buf	t = BUF_INITIALIZER, k = BUF_INITIALIZER;
	size_t		i;

	put32(&k, 3);
	for (i = 0; i < 72; i++)
		buf_addc(&k, 0);
	put32(&k, (uint32_t)w << 16);
	put32(&k, (uint32_t)h << 16);
	box(&t, "tkhd", &k);
	box(moov, "trak", &t);
	buf_free(&t);
	buf_free(&k);
}

static void
ftyp(struct buf *b)
{
	struct buf	p = BUF_INITIALIZER;

	buf_add(&p, "qt  ", 4);
	put32(&p, 0);
	buf_add(&p, "qt  ", 4);
	box(b, "ftyp", &p);
	buf_free(&p);
}

static enum media_result
probe(const struct buf *b, struct media_info *mi)
{
	char			*cause = NULL;
	enum media_result	 r;

	r = media_probe_buf(b->data, b->len, mi, &cause);
	assert_true((r == MEDIA_OK) == (cause == NULL));
	free(cause);
	return (r);
}

static void
test_mvhd_versions(void **state)
{
	struct buf		f = BUF_INITIALIZER, moov = BUF_INITIALIZER;
	struct media_info	mi;

	(void)state;
	/* Version 0, a QuickTime brand, the track's size. */
	ftyp(&f);
	mvhd(&moov, 0, 600, 600 * 42 + 300);
	trak(&moov, 1920, 1080);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_OK);
	assert_int_equal(mi.kind, MEDIA_KIND_ISOBMFF);
	assert_true(mi.duration == 42.5);
	assert_int_equal(mi.width, 1920);
	assert_int_equal(mi.height, 1080);
	buf_reset(&f);
	buf_reset(&moov);

	/* Version 1: a duration past 32 bits, no track. */
	ftyp(&f);
	mvhd(&moov, 1, 90000, 90000ULL * 100000);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_OK);
	assert_true(mi.duration == 100000);
	assert_int_equal(mi.width, -1);
	buf_reset(&f);
	buf_reset(&moov);

	/* Unknown version, zero timescale, cut-short mvhd: malformed. */
	ftyp(&f);
	mvhd(&moov, 2, 600, 600);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);
	buf_reset(&moov);
	ftyp(&f);
	mvhd(&moov, 0, 0, 600);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);
	buf_reset(&moov);
	ftyp(&f);
	put32(&moov, 8 + 10);
	buf_add(&moov, "mvhd", 4);
	put32(&moov, 0);
	put32(&moov, 0);
	buf_add(&moov, "\0\0", 2);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_free(&f);
	buf_free(&moov);
}

static void
test_box_sizes(void **state)
{
	struct buf		f = BUF_INITIALIZER, moov = BUF_INITIALIZER;
	struct media_info	mi;
	size_t			i;

	(void)state;
	mvhd(&moov, 0, 1000, 5000);

	/* mdat first with a 64-bit size, then moov (not "fast start"). */
	ftyp(&f);
	put32(&f, 1);
	buf_add(&f, "mdat", 4);
	put64(&f, 16 + 100);
	for (i = 0; i < 100; i++)
		buf_addc(&f, (char)i);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_OK);
	assert_true(mi.duration == 5);
	buf_reset(&f);

	/* Size 0: the last box runs to the end of the file. */
	ftyp(&f);
	box(&f, "moov", &moov);
	put32(&f, 0);
	buf_add(&f, "mdat", 4);
	buf_add(&f, "whatever follows", 16);
	assert_int_equal(probe(&f, &mi), MEDIA_OK);
	buf_reset(&f);

	/* A cut-short mdat after the moov still plays. */
	ftyp(&f);
	box(&f, "moov", &moov);
	put32(&f, 1000000);
	buf_add(&f, "mdat", 4);
	buf_add(&f, "only a little", 13);
	assert_int_equal(probe(&f, &mi), MEDIA_OK);
	buf_reset(&f);

	/* A cut-short moov does not. */
	ftyp(&f);
	box(&f, "moov", &moov);
	buf_truncate(&f, f.len - 10);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);

	/* Nor does a mdat cut short before any moov. */
	ftyp(&f);
	put32(&f, 1000000);
	buf_add(&f, "mdat", 4);
	buf_add(&f, "bytes", 5);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);

	/* A box smaller than its header, and a 64-bit size below 16. */
	ftyp(&f);
	put32(&f, 4);
	buf_add(&f, "free", 4);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);
	ftyp(&f);
	put32(&f, 1);
	buf_add(&f, "free", 4);
	put64(&f, 12);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);

	/* A child running out of moov. */
	buf_reset(&moov);
	mvhd(&moov, 0, 1000, 5000);
	put32(&moov, 400);
	buf_add(&moov, "trak", 4);
	ftyp(&f);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);

	/* A moov without mvhd; boxes without any moov. */
	buf_reset(&moov);
	trak(&moov, 640, 360);
	ftyp(&f);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_reset(&f);
	ftyp(&f);
	box(&f, "free", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_MALFORMED);
	buf_free(&f);
	buf_free(&moov);
}

static void
test_fragmented(void **state)
{
	struct buf		f = BUF_INITIALIZER, moov = BUF_INITIALIZER;
	struct buf		mvex = BUF_INITIALIZER, mehd = BUF_INITIALIZER;
	struct media_info	mi;

	(void)state;
	mvhd(&moov, 0, 1000, 0);
	put32(&mehd, 0);
	put32(&mehd, 7500);
	box(&mvex, "mehd", &mehd);
	box(&moov, "mvex", &mvex);
	ftyp(&f);
	box(&f, "moov", &moov);
	assert_int_equal(probe(&f, &mi), MEDIA_OK);
	assert_true(mi.duration == 7.5);
	buf_free(&f);
	buf_free(&moov);
	buf_free(&mvex);
	buf_free(&mehd);
}

static void
test_not_video(void **state)
{
	static const char	 text[] = "This is a text file, not a video.\n";
	static const char	 webm[] = "\x1a\x45\xdf\xa3\x01\x00\x00\x00";
	struct media_info	 mi;
	unsigned char		 ts[400];
	char			*cause = NULL;

	(void)state;
	assert_int_equal(media_probe_buf(text, sizeof text - 1, &mi, &cause),
	    MEDIA_NOT_VIDEO);
	assert_non_null(strstr(cause, "not recognized"));
	free(cause);
	assert_int_equal(media_probe_buf("", 0, &mi, NULL), MEDIA_NOT_VIDEO);
	assert_int_equal(media_probe_buf("\0\0\0\x10junk", 8, &mi, NULL),
	    MEDIA_NOT_VIDEO);
	assert_int_equal(media_probe_buf("\0\0\0\x08", 4, &mi, NULL),
	    MEDIA_NOT_VIDEO);
	/* Other containers are known by their first bytes. */
	assert_int_equal(media_probe_buf(webm, 8, &mi, NULL), MEDIA_OK);
	assert_int_equal(mi.kind, MEDIA_KIND_OTHER);
	assert_true(mi.duration == -1);
	memset(ts, 0xff, sizeof ts);
	ts[0] = ts[188] = ts[376] = 0x47;
	assert_int_equal(media_probe_buf(ts, sizeof ts, &mi, NULL), MEDIA_OK);
	ts[188] = 0;
	assert_int_equal(media_probe_buf(ts, sizeof ts, &mi, NULL),
	    MEDIA_NOT_VIDEO);
}

static void
test_mp4_writer(void **state)
{
	struct buf		 b = BUF_INITIALIZER;
	struct media_info	 mi;
	char			 path[] = "/tmp/test-stream-mp4.XXXXXX";
	char			*cause = NULL;
	int			 fd;

	(void)state;
	media_mp4(&b, 30000, 30000ULL * 95, 1280, 720, 0);
	assert_int_equal(probe(&b, &mi), MEDIA_OK);
	assert_true(mi.duration == 95);
	assert_int_equal(mi.width, 1280);
	buf_reset(&b);
	media_mp4(&b, 1000, (uint64_t)UINT32_MAX + 5000, 320, 240, 0);
	assert_int_equal(probe(&b, &mi), MEDIA_OK);
	assert_true(mi.units == (uint64_t)UINT32_MAX + 5000);
	buf_free(&b);

	if ((fd = mkstemp(path)) == -1)
		fail_msg("mkstemp");
	close(fd);
	if (media_mp4_write(path, 12.25, 640, 360, 10000, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(media_probe_file(path, &mi, &cause), MEDIA_OK);
	assert_true(mi.duration == 12.25);
	assert_int_equal(mi.height, 360);
	unlink(path);
	assert_int_equal(media_probe_file(path, &mi, &cause),
	    MEDIA_MALFORMED);
	free(cause);
}

/* ---- handlers against a scratch store ------------------------------------ */

#define ACCOUNT	"0123456789abcdef0123456789abcdef"
#define OTHER	"fedcba9876543210fedcba9876543210"
#define NO_SUCH	"00000000000000000000000000000000"

static const struct area *const routed[] = { &stream_area };

static int
setup(void **state)
{
	*state = routetest_open("stream", routed, nitems(routed));
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
    const char *query, const char *body, struct routetest_call *c)
{
	routetest_call(f, method, path, query, body, NULL, c);
}

static void
expect_fail(struct routetest *f, enum http_method method, const char *path,
    const char *query, const char *body, unsigned int status,
    const char *says)
{
	struct routetest_call	c;

	call(f, method, path, query, body, &c);
	if (c.status != status || c.message == NULL ||
	    strstr(c.message, says) == NULL)
		fail_msg("%s %s %s: %u '%s', wanted %u '%s'",
		    http_method_name(method), path, body != NULL ? body : "",
		    c.status, c.message != NULL ? c.message : "", status, says);
	routetest_call_free(&c);
}

/* A pending tus upload with a name and a creator. */
static void
new_video(struct routetest *f, const char *account, const char *name,
    const char *creator, char uid[HEX32_LEN + 1])
{
	struct stream_new	 nv;
	cJSON			*meta = cJSON_CreateObject();
	char			*cause = NULL;

	memset(&nv, 0, sizeof nv);
	cJSON_AddStringToObject(meta, "name", name);
	nv.meta = meta;
	nv.creator = creator;
	nv.max_duration = -1;
	nv.kind = STREAM_UPLOAD_TUS;
	nv.length = 100;
	if (stream_video_create(f->store, account, &nv, uid, &cause) != 0)
		fail_msg("stream_video_create: %s", cause);
	cJSON_Delete(meta);
}

static const char *
jstr(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v))
		fail_msg("no string '%s'", key);
	return (v->valuestring);
}

static double
jnum(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v))
		fail_msg("no number '%s'", key);
	return (v->valuedouble);
}

/*
 * Videos made faster than the clock ticks still get distinct created
 * times, so walking back with end = the oldest created seen visits each
 * exactly once, 1000 at most per page, and include_counts agrees.
 */
static void
test_list_cursor(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			 uid[HEX32_LEN + 1], *q, *end = NULL, *seen;
	const char		*created;
	const char		*path = "/accounts/" ACCOUNT "/stream";
	const cJSON		*v;
	int			 i, n = 1205, total = 0, pages = 0;

	for (i = 0; i < n; i++)
		new_video(f, ACCOUNT, "clip", NULL, uid);
	new_video(f, OTHER, "not ours", NULL, uid);
	seen = xcalloc(1, (size_t)n * 33 + 1);
	for (;;) {
		q = end == NULL ? xstrdup("include_counts=true") :
		    xprintf("include_counts=true&end=%s", end);
		call(f, HTTP_GET, path, q, NULL, &c);
		free(q);
		assert_int_equal(c.status, 200);
		pages++;
		assert_true(cJSON_GetArraySize(c.result) <=
		    STREAMRULES_LIST_MAX);
		assert_int_equal(jnum(c.top, "total"), n - total);
		assert_int_equal(jnum(c.top, "range"), n - total -
		    cJSON_GetArraySize(c.result));
		if (cJSON_GetArraySize(c.result) == 0) {
			routetest_call_free(&c);
			break;
		}
		created = NULL;
		cJSON_ArrayForEach(v, c.result) {
			if (created != NULL)
				assert_true(strcmp(jstr(v, "created"),
				    created) < 0);
			created = jstr(v, "created");
			if (strstr(seen, jstr(v, "uid")) != NULL)
				fail_msg("%s listed twice", jstr(v, "uid"));
			strcat(seen, jstr(v, "uid"));
			strcat(seen, " ");
			total++;
		}
		free(end);
		end = xstrdup(created);
		routetest_call_free(&c);
	}
	assert_int_equal(total, n);
	assert_int_equal(pages, 3);
	free(end);
	free(seen);

	/* asc with start walks the other way, also strictly. */
	call(f, HTTP_GET, path, "asc=true", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), STREAMRULES_LIST_MAX);
	q = xprintf("asc=true&include_counts=1&start=%s",
	    jstr(cJSON_GetArrayItem(c.result, STREAMRULES_LIST_MAX - 1),
	    "created"));
	routetest_call_free(&c);
	call(f, HTTP_GET, path, q, NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result),
	    n - STREAMRULES_LIST_MAX);
	assert_int_equal(jnum(c.top, "range"), 0);
	routetest_call_free(&c);
	free(q);
}

static void
test_list_filters(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			 a[HEX32_LEN + 1], b[HEX32_LEN + 1];
	char			 d[HEX32_LEN + 1];
	const char		*path = "/accounts/" ACCOUNT "/stream";

	new_video(f, ACCOUNT, "Summer Holiday.mp4", "alice", a);
	new_video(f, ACCOUNT, "winter holiday.mov", "bob", b);
	new_video(f, ACCOUNT, "Keynote", "alice", d);

	call(f, HTTP_GET, path, "search=HOLIDAY", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 2);
	assert_null(c.top);
	assert_string_equal(jstr(cJSON_GetArrayItem(c.result, 0), "uid"), b);
	routetest_call_free(&c);
	call(f, HTTP_GET, path, "creator=alice&asc=true", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 2);
	assert_string_equal(jstr(cJSON_GetArrayItem(c.result, 0), "uid"), a);
	routetest_call_free(&c);
	call(f, HTTP_GET, path, "status=pendingupload&type=vod", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 3);
	routetest_call_free(&c);
	call(f, HTTP_GET, path, "status=ready", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 0);
	routetest_call_free(&c);
	call(f, HTTP_GET, path, "type=live", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 0);
	routetest_call_free(&c);
	call(f, HTTP_GET, path, "start=2100-01-01T00:00:00Z", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 0);
	routetest_call_free(&c);
	call(f, HTTP_GET, path, "end=2100-01-01T00:00:00%2B02:00", NULL, &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 3);
	routetest_call_free(&c);

	expect_fail(f, HTTP_GET, path, "status=done", NULL, 400, "status");
	expect_fail(f, HTTP_GET, path, "type=film", NULL, 400, "type");
	expect_fail(f, HTTP_GET, path, "asc=yes", NULL, 400, "asc");
	expect_fail(f, HTTP_GET, path, "start=yesterday", NULL, 400, "RFC");
	expect_fail(f, HTTP_GET, path, "end=2020-01-01", NULL, 400, "end");
	expect_fail(f, HTTP_GET, path, "include_counts=2", NULL, 400,
	    "include_counts");
}

static void
test_edit(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	char			 uid[HEX32_LEN + 1], *path, *body;
	char			 iso[ISO_TIME_LEN];
	const cJSON		*v;
	struct tm		 tm;
	time_t			 now;

	new_video(f, ACCOUNT, "before", "alice", uid);
	path = xprintf("/accounts/" ACCOUNT "/stream/%s", uid);
	stream_time_iso(stream_now() + 45 * 86400 * 1000000LL, iso);
	body = xprintf("{\"meta\":{\"name\":\"after\",\"k\":1},"
	    "\"allowedOrigins\":[\"example.com\"],\"creator\":\"bob\","
	    "\"requireSignedURLs\":true,\"thumbnailTimestampPct\":0.5,"
	    "\"maxDurationSeconds\":600,\"scheduledDeletion\":\"%s\","
	    "\"uploadExpiry\":\"2030-01-01T00:00:00Z\",\"uid\":\"ignored\"}",
	    iso);
	call(f, HTTP_POST, path, NULL, body, &c);
	assert_int_equal(c.status, 200);
	assert_string_equal(jstr(c.result, "uid"), uid);
	assert_string_equal(jstr(cJSON_GetObjectItem(c.result, "meta"),
	    "name"), "after");
	assert_string_equal(jstr(c.result, "creator"), "bob");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(c.result,
	    "requireSignedURLs")));
	assert_true(jnum(c.result, "thumbnailTimestampPct") == 0.5);
	assert_int_equal(jnum(c.result, "maxDurationSeconds"), 600);
	assert_string_equal(jstr(c.result, "scheduledDeletion"), iso);
	routetest_call_free(&c);
	free(body);

	/* Fields left out stay; null clears what may be cleared. */
	call(f, HTTP_POST, path, NULL, "{\"scheduledDeletion\":null,"
	    "\"creator\":null,\"maxDurationSeconds\":null}", &c);
	assert_int_equal(c.status, 200);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(c.result,
	    "scheduledDeletion")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(c.result, "creator")));
	assert_int_equal(jnum(c.result, "maxDurationSeconds"), -1);
	v = cJSON_GetObjectItem(c.result, "allowedOrigins");
	assert_int_equal(cJSON_GetArraySize(v), 1);
	routetest_call_free(&c);

	/* The search follows the new name. */
	call(f, HTTP_GET, "/accounts/" ACCOUNT "/stream", "search=after", NULL,
	    &c);
	assert_int_equal(cJSON_GetArraySize(c.result), 1);
	routetest_call_free(&c);

	expect_fail(f, HTTP_POST, path, NULL,
	    "{\"thumbnailTimestampPct\":1.01}", 400,
	    "thumbnailTimestampPct: 1.01 is out of range");
	expect_fail(f, HTTP_POST, path, NULL,
	    "{\"thumbnailTimestampPct\":-0.1}", 400, "out of range");
	expect_fail(f, HTTP_POST, path, NULL,
	    "{\"thumbnailTimestampPct\":\"1\"}", 400, "must be a number");
	expect_fail(f, HTTP_POST, path, NULL, "{\"allowedOrigins\":\"a.com\"}",
	    400, "allowedOrigins: must be an array");
	expect_fail(f, HTTP_POST, path, NULL, "{\"allowedOrigins\":[1]}", 400,
	    "allowedOrigins[0]");
	expect_fail(f, HTTP_POST, path, NULL, "{\"meta\":[]}", 400,
	    "meta: must be an object");
	expect_fail(f, HTTP_POST, path, NULL, "{\"requireSignedURLs\":1}", 400,
	    "requireSignedURLs");
	expect_fail(f, HTTP_POST, path, NULL, "{\"requireSignedURLs\":null}",
	    400, "requireSignedURLs");
	expect_fail(f, HTTP_POST, path, NULL,
	    "{\"scheduledDeletion\":\"soon\"}", 400,
	    "scheduledDeletion: must be an RFC 3339");
	/*
	 * A date the calendar has not, as edgetui refuses it (civil.c): next
	 * year's February 30, which would otherwise be March 2, in range.
	 */
	now = time(NULL);
	gmtime_r(&now, &tm);
	body = xprintf("{\"scheduledDeletion\":\"%04d-02-30T00:00:00Z\"}",
	    tm.tm_year + 1900 + 1);
	expect_fail(f, HTTP_POST, path, NULL, body, 400,
	    "scheduledDeletion: must be an RFC 3339");
	free(body);
	expect_fail(f, HTTP_POST, path, NULL,
	    "{\"scheduledDeletion\":\"2000-01-01T00:00:00Z\"}", 400,
	    "30 to 1096 days");
	expect_fail(f, HTTP_POST, path, NULL, "{\"maxDurationSeconds\":0}", 400,
	    "out of range (1 to 21600)");
	expect_fail(f, HTTP_POST, path, NULL, "{\"maxDurationSeconds\":2.5}",
	    400, "integer");
	expect_fail(f, HTTP_POST, path, NULL, "{\"creator\":\"0123456789"
	    "0123456789012345678901234567890123456789012345678901234\"}", 400,
	    "at most 64");
	expect_fail(f, HTTP_POST, path, NULL, "{\"uploadExpiry\":5}", 400,
	    "uploadExpiry");
	expect_fail(f, HTTP_POST, path, NULL, "[]", 400, "JSON object");
	expect_fail(f, HTTP_POST, path, NULL, NULL, 400, "JSON body");
	free(path);
	expect_fail(f, HTTP_POST, "/accounts/" ACCOUNT
	    "/stream/00000000000000000000000000000000", NULL, "{}", 404,
	    "not found");

	/* Refused edits changed nothing. */
	call(f, HTTP_GET, "/accounts/" ACCOUNT "/stream", "search=after", NULL,
	    &c);
	v = cJSON_GetArrayItem(c.result, 0);
	assert_true(jnum(v, "thumbnailTimestampPct") == 0.5);
	routetest_call_free(&c);
}

static void
test_delete(void **state)
{
	struct routetest	*f = *state;
	struct routetest_call	 c;
	struct stat		 sb;
	char			 uid[HEX32_LEN + 1], *path, *file;

	new_video(f, ACCOUNT, "doomed", NULL, uid);
	file = stream_video_file(f->store, ACCOUNT, uid);
	assert_int_equal(stat(file, &sb), 0);
	path = xprintf("/accounts/" ACCOUNT "/stream/%s", uid);
	/* Another account's namespace does not see it. */
	expect_fail(f, HTTP_DELETE, "/accounts/" OTHER "/stream/"
	    "00000000000000000000000000000000", NULL, NULL, 404, "not found");
	call(f, HTTP_DELETE, path, NULL, NULL, &c);
	assert_int_equal(c.status, 200);
	routetest_call_free(&c);
	assert_int_equal(stat(file, &sb), -1);
	expect_fail(f, HTTP_GET, path, NULL, NULL, 404, "not found");
	expect_fail(f, HTTP_DELETE, path, NULL, NULL, 404, "not found");
	assert_null(stream_video_load(f->store, ACCOUNT, uid));
	free(path);
	free(file);
}

/* The last byte decides: duration from the MP4, or the error code. */
static void
test_upload_outcome(void **state)
{
	struct routetest	*f = *state;
	struct stream_upload up;
	struct buf		 b = BUF_INITIALIZER;
	struct routetest_call	 c;
	char			 uid[HEX32_LEN + 1], *file, *cause = NULL;
	cJSON			*v;
	FILE			*fp;

	new_video(f, ACCOUNT, "movie", "alice", uid);
	assert_int_equal(stream_upload_get(f->store, NULL, uid, &up), 1);
	assert_string_equal(up.account, ACCOUNT);
	assert_true(up.pending);
	assert_int_equal(up.length, 100);
	assert_int_equal(up.offset, 0);
	stream_upload_free(&up);
	assert_int_equal(stream_upload_get(f->store, OTHER, uid, &up), 0);

	media_mp4(&b, 600, 600 * 30, 1280, 720, 0);
	file = stream_video_file(f->store, ACCOUNT, uid);
	fp = fopen(file, "w");
	fwrite(b.data, 1, b.len, fp);
	fclose(fp);
	if (stream_upload_record(f->store, ACCOUNT, uid, 40, 0, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(stream_upload_get(f->store, ACCOUNT, uid, &up), 1);
	assert_int_equal(up.offset, 40);
	stream_upload_free(&up);
	if (stream_upload_record(f->store, ACCOUNT, uid, (int64_t)b.len, 1,
	    &cause) != 0)
		fail_msg("%s", cause);
	/* Once complete, nothing more is recorded: the upload is gone. */
	assert_int_equal(stream_upload_record(f->store, ACCOUNT, uid, 5, 0,
	    &cause), 1);
	assert_non_null(strstr(cause, "finished uploading"));
	free(cause);
	cause = NULL;
	assert_int_equal(stream_upload_record(f->store, ACCOUNT, NO_SUCH, 5, 1,
	    &cause), 1);
	free(cause);
	v = stream_video_load(f->store, ACCOUNT, uid);
	assert_string_equal(jstr(cJSON_GetObjectItem(v, "status"), "state"),
	    "queued");
	assert_int_equal(jnum(v, "size"), b.len);
	assert_true(cJSON_IsString(cJSON_GetObjectItem(v, "uploaded")));
	cJSON_Delete(v);

	call(f, HTTP_GET, "/accounts/" ACCOUNT "/stream/storage-usage",
	    "creator=alice", NULL, &c);
	assert_int_equal(c.status, 200);
	assert_string_equal(jstr(c.result, "creator"), "alice");
	assert_int_equal(jnum(c.result, "videoCount"), 1);
	assert_int_equal(jnum(c.result, "totalStorageMinutes"), 1);
	assert_true(jnum(c.result, "totalStorageMinutesLimit") > 0);
	routetest_call_free(&c);
	call(f, HTTP_GET, "/accounts/" ACCOUNT "/stream/storage-usage",
	    "creator=nobody", NULL, &c);
	assert_int_equal(jnum(c.result, "videoCount"), 0);
	assert_int_equal(jnum(c.result, "totalStorageMinutes"), 0);
	routetest_call_free(&c);
	free(file);
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta_valid),
		cmocka_unit_test(test_meta_empty),
		cmocka_unit_test(test_meta_refused),
		cmocka_unit_test(test_meta_fields),
		cmocka_unit_test(test_meta_fields_refused),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_http_date),
		cmocka_unit_test(test_mvhd_versions),
		cmocka_unit_test(test_box_sizes),
		cmocka_unit_test(test_fragmented),
		cmocka_unit_test(test_not_video),
		cmocka_unit_test(test_mp4_writer),
		cmocka_unit_test_setup_teardown(test_list_cursor, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_filters, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_edit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upload_outcome, setup,
		    teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
