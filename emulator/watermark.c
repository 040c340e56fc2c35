/*
 * Stream watermark profiles under /accounts/{account}/stream/watermarks:
 * the upload's checks (the image is sniffed from its bytes, never trusted
 * from its name or type), the profile with its image kept beside it, and
 * the demo profiles with PNGs drawn in code.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "buf.h"
#include "jsonutil.h"
#include "log.h"
#include "multipart.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "text.h"
#include "util.h"
#include "xmalloc.h"

#define WATERMARK_PATH	STREAM_ACCOUNT "/stream/watermarks"

/* The image goes last so that reading a body never pages it in. */
static const char watermark_schema[] =
	"CREATE TABLE IF NOT EXISTS watermark ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" account TEXT NOT NULL,"
	" uid TEXT NOT NULL,"
	" body TEXT NOT NULL,"
	" image BLOB NOT NULL,"
	" UNIQUE (account, uid));";

/* Statements on one profile's row: ?1 account, ?2 uid. */
static const char watermark_get_sql[] =
	"SELECT body FROM watermark WHERE account = ?1 AND uid = ?2";
static const char watermark_delete_sql[] =
	"DELETE FROM watermark WHERE account = ?1 AND uid = ?2";

static const unsigned char watermark_png_magic[8] = {
	0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
};

/* ---- image sniffing ---------------------------------------------------- */

static uint32_t
watermark_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3]);
}

static uint32_t
watermark_be16(const unsigned char *p)
{
	return ((uint32_t)p[0] << 8 | p[1]);
}

static uint32_t
watermark_le16(const unsigned char *p)
{
	return ((uint32_t)p[1] << 8 | p[0]);
}

static uint32_t
watermark_le24(const unsigned char *p)
{
	return ((uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
}

static uint32_t
watermark_le32(const unsigned char *p)
{
	return ((uint32_t)p[3] << 24 | watermark_le24(p));
}

/* The CRC of PNG chunks (ISO 3309); bitwise, as only headers are checked. */
static uint32_t
watermark_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	size_t	i;
	int	k;

	crc = ~crc;
	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return (~crc);
}

/* The signature, then IHDR first, whole and with a CRC that matches. */
static int
watermark_probe_png(const unsigned char *p, size_t len,
    struct watermark_image *img, char **cause)
{
	uint32_t	w, h;

	if (len < 33)
		return (util_fail(cause, "the PNG header is cut short "
		    "(%zu bytes)", len));
	if (watermark_be32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4) != 0)
		return (util_fail(cause, "a PNG must start with its IHDR "
		    "chunk"));
	if (watermark_crc32(0, p + 12, 17) != watermark_be32(p + 29))
		return (util_fail(cause, "the PNG header is damaged (its "
		    "CRC does not match)"));
	w = watermark_be32(p + 16);
	h = watermark_be32(p + 20);
	if (w == 0 || h == 0 || w > INT32_MAX || h > INT32_MAX)
		return (util_fail(cause, "the PNG is %" PRIu32 "x%" PRIu32
		    " pixels", w, h));
	img->format = WATERMARK_PNG;
	img->width = (long)w;
	img->height = (long)h;
	return (0);
}

/* SOFn markers carry the frame size; C4, C8 and CC share the range. */
static int
watermark_jpeg_sof(unsigned int m)
{
	return (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc);
}

/* Walk the segments up to the first frame header. */
static int
watermark_probe_jpeg(const unsigned char *p, size_t len,
    struct watermark_image *img, char **cause)
{
	size_t		i = 2, seglen;
	unsigned int	m;

	for (;;) {
		if (i >= len)
			break;
		if (p[i] != 0xff)
			return (util_fail(cause, "the JPEG is damaged (no "
			    "marker at byte %zu)", i));
		while (i < len && p[i] == 0xff)
			i++;
		if (i >= len)
			break;
		m = p[i++];
		if (m == 0x01 || (m >= 0xd0 && m <= 0xd8))
			continue;
		if (m == 0xd9 || m == 0xda)
			return (util_fail(cause, "the JPEG has no frame "
			    "header before its image data"));
		if (len - i < 2)
			break;
		seglen = watermark_be16(p + i);
		if (seglen < 2)
			return (util_fail(cause, "the JPEG is damaged (a "
			    "segment of %zu bytes at byte %zu)", seglen, i));
		if (watermark_jpeg_sof(m)) {
			if (seglen < 8)
				return (util_fail(cause, "the JPEG's "
				    "frame header is damaged (%zu bytes)",
				    seglen));
			if (len - i < 7)
				break;
			img->format = WATERMARK_JPEG;
			img->height = (long)watermark_be16(p + i + 3);
			img->width = (long)watermark_be16(p + i + 5);
			if (img->width == 0 || img->height == 0)
				return (util_fail(cause, "the JPEG is "
				    "%ldx%ld pixels", img->width, img->height));
			return (0);
		}
		i += seglen;
	}
	return (util_fail(cause, "the JPEG is cut short before its "
	    "frame header"));
}

static int
watermark_probe_gif(const unsigned char *p, size_t len,
    struct watermark_image *img, char **cause)
{
	if (len < 13)
		return (util_fail(cause, "the GIF header is cut short "
		    "(%zu bytes)", len));
	img->format = WATERMARK_GIF;
	img->width = (long)watermark_le16(p + 6);
	img->height = (long)watermark_le16(p + 8);
	if (img->width == 0 || img->height == 0)
		return (util_fail(cause, "the GIF is %ldx%ld pixels",
		    img->width, img->height));
	return (0);
}

/* A RIFF container whose first chunk is VP8 (lossy), VP8L or VP8X. */
static int
watermark_probe_webp(const unsigned char *p, size_t len,
    struct watermark_image *img, char **cause)
{
	uint32_t	riff, chunk, bits;

	if (len < 30)
		return (util_fail(cause, "the WebP header is cut short "
		    "(%zu bytes)", len));
	riff = watermark_le32(p + 4);
	if (riff < 12 + 10 || riff > len - 8)
		return (util_fail(cause, "the WebP is cut short (it says "
		    "%" PRIu32 " bytes, %zu came)", riff + 8, len));
	/* The first chunk holds at least its header's 10 bytes, within RIFF. */
	chunk = watermark_le32(p + 16);
	if (chunk < 10 || chunk > riff - 12)
		return (util_fail(cause, "the WebP is damaged (a first "
		    "chunk of %" PRIu32 " bytes)", chunk));
	img->format = WATERMARK_WEBP;
	if (memcmp(p + 12, "VP8 ", 4) == 0) {
		if ((p[20] & 1) != 0 || p[23] != 0x9d || p[24] != 0x01 ||
		    p[25] != 0x2a)
			return (util_fail(cause, "the WebP's VP8 frame "
			    "header is damaged"));
		img->width = (long)(watermark_le16(p + 26) & 0x3fff);
		img->height = (long)(watermark_le16(p + 28) & 0x3fff);
	} else if (memcmp(p + 12, "VP8L", 4) == 0) {
		bits = watermark_le32(p + 21);
		if (p[20] != 0x2f || (bits >> 29) != 0)
			return (util_fail(cause, "the WebP's VP8L header "
			    "is damaged"));
		img->width = (long)(bits & 0x3fff) + 1;
		img->height = (long)((bits >> 14) & 0x3fff) + 1;
	} else if (memcmp(p + 12, "VP8X", 4) == 0) {
		img->width = (long)watermark_le24(p + 24) + 1;
		img->height = (long)watermark_le24(p + 27) + 1;
	} else
		return (util_fail(cause, "the WebP starts with an unknown "
		    "chunk (not VP8, VP8L or VP8X)"));
	if (img->width == 0 || img->height == 0)
		return (util_fail(cause, "the WebP is %ldx%ld pixels",
		    img->width, img->height));
	return (0);
}

/*
 * What kind of image and how large, from the header alone: the service
 * takes PNG, JPEG, GIF and WebP. A damaged or cut header is refused, the
 * rest of the file is not decoded.
 */
int
watermark_probe(const void *data, size_t len, struct watermark_image *img,
    char **cause)
{
	const unsigned char	*p = data;

	memset(img, 0, sizeof *img);
	if (len >= sizeof watermark_png_magic &&
	    memcmp(p, watermark_png_magic, sizeof watermark_png_magic) == 0)
		return (watermark_probe_png(p, len, img, cause));
	if (len >= 3 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
		return (watermark_probe_jpeg(p, len, img, cause));
	if (len >= 6 && (memcmp(p, "GIF87a", 6) == 0 ||
	    memcmp(p, "GIF89a", 6) == 0))
		return (watermark_probe_gif(p, len, img, cause));
	if (len >= 16 && memcmp(p, "RIFF", 4) == 0 &&
	    memcmp(p + 8, "WEBP", 4) == 0)
		return (watermark_probe_webp(p, len, img, cause));
	return (util_fail(cause, "not a PNG, JPEG, GIF or WebP image"));
}

const char *
watermark_format_name(enum watermark_format f)
{
	switch (f) {
	case WATERMARK_PNG:
		return ("PNG");
	case WATERMARK_JPEG:
		return ("JPEG");
	case WATERMARK_GIF:
		return ("GIF");
	case WATERMARK_WEBP:
		return ("WebP");
	}
	return ("image");
}

/* ---- upload checks ----------------------------------------------------- */

/* A value to quote in a message: short, and printable ASCII only. */
static void
watermark_quote(const char *s, char *out, size_t size)
{
	size_t	i, n = strlen(s), max = size - 4;

	for (i = 0; i < n && i < max; i++)
		out[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (i < n) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = '\0';
}

/* Plain decimal notation: strtod's hex, inf and nan are not numbers here. */
static int
watermark_decimal(const char *s)
{
	int	digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	}
	if (digits == 0)
		return (0);
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return (0);
		while (isdigit((unsigned char)*s))
			s++;
	}
	return (*s == '\0');
}

/*
 * A form field that holds a number from 0 to 1. Form fields are text:
 * white space around the number is allowed, and an empty field (a form
 * left blank) means the default.
 */
int
watermark_number(const char *field, const char *text, double def,
    double *out, char **cause)
{
	char	*copy, *s, *e, q[40];
	double	 d;

	*out = def;
	if (text == NULL)
		return (0);
	copy = s = xstrdup(text);
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (*s == '\0') {
		free(copy);
		return (0);
	}
	watermark_quote(s, q, sizeof q);
	if (!watermark_decimal(s)) {
		free(copy);
		return (util_fail(cause, "%s: '%s' is not a number from "
		    "0 to 1", field, q));
	}
	d = strtod(s, NULL);
	free(copy);
	if (!isfinite(d) || d < 0 || d > 1)
		return (util_fail(cause, "%s: %s is out of range (0 to 1)",
		    field, q));
	*out = d;
	return (0);
}

/* A text field as a string; refused when it holds a NUL or is not UTF-8. */
static int
watermark_text(const struct multipart *mp, const char *field, char **out,
    char **cause)
{
	const struct multipart_part	*part = multipart_get(mp, field);

	*out = NULL;
	if (part == NULL)
		return (0);
	if (memchr(part->data, '\0', part->len) != NULL ||
	    !util_utf8_valid(part->data, part->len))
		return (util_fail(cause, "%s: must be UTF-8 text", field));
	*out = xstrndup(part->data, part->len);
	return (0);
}

static int
watermark_check_file(const struct multipart *mp, struct watermark_upload *u,
    char **cause)
{
	const struct multipart_part	*part = multipart_get(mp, "file");
	char				*why = NULL;

	if (part == NULL)
		return (util_fail(cause, "file: required, the image (PNG, "
		    "JPEG, GIF or WebP) as a file part"));
	if (part->len == 0)
		return (util_fail(cause, "file: is empty"));
	if (watermark_probe(part->data, part->len, &u->image, &why) != 0) {
		util_fail(cause, "file: %s", why);
		free(why);
		return (-1);
	}
	u->data = part->data;
	u->len = part->len;
	return (0);
}

static int
watermark_check_position(const struct multipart *mp,
    struct watermark_upload *u, char **cause)
{
	char	*s, q[40];
	size_t	 i;
	int	 rc = 0;

	if (watermark_text(mp, "position", &s, cause) != 0)
		return (-1);
	if (s == NULL || *s == '\0') {
		free(s);
		return (0);
	}
	for (i = 0; streamrules_positions[i] != NULL; i++) {
		if (strcmp(s, streamrules_positions[i]) == 0) {
			u->position = streamrules_positions[i];
			break;
		}
	}
	if (streamrules_positions[i] == NULL) {
		watermark_quote(s, q, sizeof q);
		rc = util_fail(cause, "position: '%s' is not one of "
		    "upperRight, upperLeft, lowerLeft, lowerRight, center", q);
	}
	free(s);
	return (rc);
}

/* Each number field, checked and with its default (the spec's). */
static int
watermark_check_numbers(const struct multipart *mp,
    struct watermark_upload *u, char **cause)
{
	static const struct {
		const char	*field;
		double		 def;
		size_t		 offset;
	} fields[] = {
		{ "opacity", 1.0, offsetof(struct watermark_upload, opacity) },
		{ "padding", 0.05, offsetof(struct watermark_upload, padding) },
		{ "scale", 0.15, offsetof(struct watermark_upload, scale) },
	};
	char	*s;
	size_t	 i;
	int	 rc;

	for (i = 0; i < nitems(fields); i++) {
		if (watermark_text(mp, fields[i].field, &s, cause) != 0)
			return (-1);
		rc = watermark_number(fields[i].field, s, fields[i].def,
		    (double *)((char *)u + fields[i].offset), cause);
		free(s);
		if (rc != 0)
			return (-1);
	}
	return (0);
}

/*
 * Check an upload's parts: the image first (the one required field), then
 * the settings. name defaults to "" as in the spec; the filename is not
 * used for it.
 */
int
watermark_validate(const struct multipart *mp, struct watermark_upload *u,
    char **cause)
{
	size_t	n;

	memset(u, 0, sizeof *u);
	u->position = streamrules_positions[0];
	if (watermark_check_file(mp, u, cause) != 0 ||
	    watermark_text(mp, "name", &u->name, cause) != 0)
		goto fail;
	if (u->name == NULL)
		u->name = xstrdup("");
	if ((n = text_chars(u->name)) > STREAMRULES_WATERMARK_NAME_MAX) {
		util_fail(cause, "name: %zu characters is over the limit "
		    "of %d", n, STREAMRULES_WATERMARK_NAME_MAX);
		goto fail;
	}
	if (watermark_check_numbers(mp, u, cause) != 0 ||
	    watermark_check_position(mp, u, cause) != 0)
		goto fail;
	return (0);

fail:
	watermark_upload_free(u);
	return (-1);
}

void
watermark_upload_free(struct watermark_upload *u)
{
	free(u->name);
	u->name = NULL;
}

/* ---- the profile as the service returns it ----------------------------- */

static cJSON *
watermark_profile(const char *uid, const char *created,
    const struct watermark_upload *u)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "uid", uid);
	cJSON_AddNumberToObject(o, "size", (double)u->len);
	cJSON_AddNumberToObject(o, "height", (double)u->image.height);
	cJSON_AddNumberToObject(o, "width", (double)u->image.width);
	cJSON_AddStringToObject(o, "created", created);
	cJSON_AddNullToObject(o, "downloadedFrom");
	cJSON_AddStringToObject(o, "name", u->name);
	cJSON_AddNumberToObject(o, "opacity", u->opacity);
	cJSON_AddNumberToObject(o, "padding", u->padding);
	cJSON_AddNumberToObject(o, "scale", u->scale);
	cJSON_AddStringToObject(o, "position", u->position);
	return (o);
}

/* ---- storage ----------------------------------------------------------- */

/* Call inside a write transaction. */
static int
watermark_insert(struct store *store, const char *account, const cJSON *wm,
    const struct watermark_upload *u)
{
	static const char	 sql[] =
	    "INSERT INTO watermark (account, uid, body, image)"
	    " VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			*text = util_jprint(wm);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, cJSON_GetObjectItemCaseSensitive(wm,
	    "uid")->valuestring, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
	sqlite3_bind_blob64(st, 4, u->data, (sqlite3_uint64)u->len,
	    SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	free(text);
	return (rc == SQLITE_DONE ? 0 : -1);
}

cJSON *
watermark_load(struct store *store, const char *account, const char *uid)
{
	cJSON	*wm;

	if (store_doc_get(store, watermark_get_sql, account, uid, &wm) != 1)
		return (NULL);
	return (wm);
}

static void
watermark_not_found(struct reply *rep, const char *uid)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "watermark profile %s was not "
	    "found", uid);
}

/* ---- handlers ---------------------------------------------------------- */

static void
watermark_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT body FROM watermark WHERE account = ?1 ORDER BY seq";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	cJSON			*list, *wm;
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1,
	    SQLITE_STATIC);
	list = cJSON_CreateArray();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		wm = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
		if (wm == NULL)
			break;
		cJSON_AddItemToArray(list, wm);
	}
	if (rc == SQLITE_ROW)
		reply_error(rep, 500, ERR_INTERNAL, "store: a stored watermark "
		    "profile is not JSON");
	else if (rc != SQLITE_DONE)
		reply_store_error(req, rep);
	store_done(st);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(list);
		return;
	}
	reply_ok(rep, list);
}

static void
watermark_get(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");
	cJSON		*wm;

	switch (store_doc_get(req->store, watermark_get_sql, req_param(req,
	    "account"), uid, &wm)) {
	case 1:
		reply_ok(rep, wm);
		break;
	case 0:
		watermark_not_found(rep, uid);
		break;
	case -2:
		reply_error(rep, 500, ERR_INTERNAL, "store: watermark profile "
		    "%s is not JSON", uid);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
}

static void
watermark_create(struct req *req, struct reply *rep)
{
	struct watermark_upload	 u;
	char			 uid[HEX32_LEN + 1], now[ISO_TIME_LEN];
	char			*cause = NULL;
	cJSON			*wm;

	if (watermark_validate(req->parts, &u, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	util_hex32(uid);
	util_now_iso(now);
	wm = watermark_profile(uid, now, &u);
	if (store_begin(req->store) != 0 ||
	    watermark_insert(req->store, req_param(req, "account"), wm,
	    &u) != 0 || store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(wm);
	} else
		reply_ok(rep, wm);
	watermark_upload_free(&u);
}

/* The spec's answer is an empty string, not "ok". */
static void
watermark_delete(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");
	int		 found;

	if (store_begin(req->store) != 0 ||
	    (found = store_doc_delete(req->store, watermark_delete_sql,
	    req_param(req, "account"), uid)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		watermark_not_found(rep, uid);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, cJSON_CreateString(""));
}

/* ---- demo data --------------------------------------------------------- */

#define WATERMARK_DEMO_EPOCH	1772323200	/* 2026-03-01T00:00:00Z */
#define WATERMARK_STORED_MAX	65535		/* a stored deflate block */

static void
watermark_put_be32(struct buf *b, uint32_t v)
{
	unsigned char	p[4] = { v >> 24, v >> 16, v >> 8, v };

	buf_add(b, p, sizeof p);
}

static void
watermark_png_chunk(struct buf *b, const char *type, const void *data,
    size_t len)
{
	size_t		start;
	uint32_t	crc;

	watermark_put_be32(b, (uint32_t)len);
	start = b->len;
	buf_add(b, type, 4);
	buf_add(b, data, len);
	crc = watermark_crc32(0, (unsigned char *)b->data + start, len + 4);
	watermark_put_be32(b, crc);
}

/* zlib data made of stored (uncompressed) deflate blocks: no zlib needed. */
static void
watermark_zlib_stored(struct buf *out, const unsigned char *p, size_t len)
{
	uint32_t	a = 1, s = 0;
	size_t		i, n;
	unsigned char	hdr[5];

	buf_add(out, "\x78\x01", 2);
	do {
		n = MINIMUM(len, (size_t)WATERMARK_STORED_MAX);
		hdr[0] = n == len;
		hdr[1] = n & 0xff;
		hdr[2] = n >> 8;
		hdr[3] = ~n & 0xff;
		hdr[4] = (~n >> 8) & 0xff;
		buf_add(out, hdr, sizeof hdr);
		buf_add(out, p, n);
		for (i = 0; i < n; i++) {
			a = (a + p[i]) % 65521;
			s = (s + a) % 65521;
		}
		p += n;
		len -= n;
	} while (len > 0);
	watermark_put_be32(out, s << 16 | a);
}

/*
 * An RGBA PNG of w x h: a solid frame one pixel wide around a lighter,
 * half-transparent fill, enough to tell the demo profiles apart.
 */
static void
watermark_demo_png(struct buf *out, uint32_t w, uint32_t h,
    const unsigned char rgba[4])
{
	struct buf	 raw = BUF_INITIALIZER, z = BUF_INITIALIZER;
	unsigned char	 ihdr[13], px[4];
	uint32_t	 x, y;

	for (y = 0; y < h; y++) {
		buf_addc(&raw, 0);	/* filter: none */
		for (x = 0; x < w; x++) {
			memcpy(px, rgba, 4);
			if (x != 0 && y != 0 && x != w - 1 && y != h - 1)
				px[3] = rgba[3] / 2;
			buf_add(&raw, px, 4);
		}
	}
	watermark_zlib_stored(&z, (unsigned char *)raw.data, raw.len);
	buf_add(out, watermark_png_magic, sizeof watermark_png_magic);
	memset(ihdr, 0, sizeof ihdr);
	ihdr[0] = w >> 24;
	ihdr[1] = w >> 16;
	ihdr[2] = w >> 8;
	ihdr[3] = w;
	ihdr[4] = h >> 24;
	ihdr[5] = h >> 16;
	ihdr[6] = h >> 8;
	ihdr[7] = h;
	ihdr[8] = 8;		/* bits per sample */
	ihdr[9] = 6;		/* RGBA */
	watermark_png_chunk(out, "IHDR", ihdr, sizeof ihdr);
	watermark_png_chunk(out, "IDAT", z.data, z.len);
	watermark_png_chunk(out, "IEND", NULL, 0);
	buf_free(&raw);
	buf_free(&z);
}

static const struct {
	const char	*name;
	uint32_t	 width, height;
	unsigned char	 rgba[4];
	double		 opacity, padding, scale;
	const char	*position;
} watermark_demo_profiles[] = {
	{ "Corner logo", 16, 16, { 0xf3, 0x80, 0x20, 0xff },
	    1.0, 0.05, 0.15, "upperRight" },
	{ "Draft stamp (centre)", 32, 8, { 0xd0, 0x20, 0x20, 0xff },
	    0.5, 0.0, 0.4, "center" },
};

/* Runs inside demo_seed's transaction; ids and times from a fixed seed. */
static int
watermark_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng		 rng;
	struct watermark_upload	 u;
	struct timespec		 ts;
	struct buf		 png = BUF_INITIALIZER;
	char			 uid[HEX32_LEN + 1], created[ISO_TIME_LEN];
	char			*why = NULL;
	cJSON			*wm;
	size_t			 i;
	int			 rc;

	(void)zone;
	util_rng_seed(&rng, 0x77617465726d6b31ULL);
	for (i = 0; i < nitems(watermark_demo_profiles); i++) {
		buf_reset(&png);
		watermark_demo_png(&png, watermark_demo_profiles[i].width,
		    watermark_demo_profiles[i].height,
		    watermark_demo_profiles[i].rgba);
		memset(&u, 0, sizeof u);
		if (watermark_probe(png.data, png.len, &u.image, &why) != 0)
			fatalx("demo watermark %zu: %s", i, why);
		u.data = png.data;
		u.len = png.len;
		u.name = (char *)watermark_demo_profiles[i].name;
		u.opacity = watermark_demo_profiles[i].opacity;
		u.padding = watermark_demo_profiles[i].padding;
		u.scale = watermark_demo_profiles[i].scale;
		u.position = watermark_demo_profiles[i].position;
		util_rng_hex32(&rng, uid);
		ts.tv_sec = WATERMARK_DEMO_EPOCH + (time_t)(i * 7 * 86400) +
		    util_rng_below(&rng, 86400);
		ts.tv_nsec = (long)util_rng_below(&rng, 1000000) * 1000;
		util_time_iso(&ts, created);
		wm = watermark_profile(uid, created, &u);
		rc = watermark_insert(store, account, wm, &u);
		cJSON_Delete(wm);
		if (rc != 0) {
			buf_free(&png);
			*cause = xprintf("demo watermarks: %s",
			    store_errmsg(store));
			return (-1);
		}
	}
	buf_free(&png);
	return (0);
}

#define WATERMARK_ITEM	WATERMARK_PATH "/{uid:hex32}"

static const struct route watermark_routes[] = {
	{ HTTP_GET, WATERMARK_PATH, watermark_list, ROUTE_BODY_NONE },
	{ HTTP_POST, WATERMARK_PATH, watermark_create, ROUTE_BODY_MULTIPART },
	{ HTTP_GET, WATERMARK_ITEM, watermark_get, ROUTE_BODY_NONE },
	/* The spec gives DELETE a body; whatever comes is read and ignored. */
	{ HTTP_DELETE, WATERMARK_ITEM, watermark_delete, ROUTE_BODY_NONE },
};

const struct area watermark_area = {
	.name = "watermark",
	.routes = watermark_routes,
	.nroutes = nitems(watermark_routes),
	.schema = watermark_schema,
	.demo = watermark_demo,
};
