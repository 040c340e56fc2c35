/*
 * TUS uploads (1.0.0 core, creation, expiration, termination), as
 * Cloudflare Stream serves them; direct.c shares the one-time URL lookup,
 * the per-upload lock and the recording of bytes.
 *
 * Bytes go to the video's file as they arrive, never buffered whole; an
 * offset is acknowledged (stored, then answered) only after fsync, so a HEAD
 * never reports bytes a crash could lose. One PATCH at a time per upload.
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "apirules.h"
#include "buf.h"
#include "encode.h"
#include "log.h"
#include "processing.h"
#include "server.h"
#include "store.h"
#include "streamrules.h"
#include "text.h"
#include "tus.h"
#include "util.h"
#include "video.h"
#include "xmalloc.h"

/* Envelope codes for the statuses server.h has none for. */
#define TUS_ERR_GONE		10410
#define TUS_ERR_VERSION		10412
#define TUS_ERR_LOCKED		10423

/* Writeback is started every so often, so the final fsync is short. */
#define TUS_WRITEBACK		(8 * 1024 * 1024)

/* ---- headers ------------------------------------------------------------- */

int
tus_version_ok(const char *v)
{
	return (v != NULL && strcmp(v, TUS_VERSION) == 0);
}

/* A non-negative decimal without sign, spaces or leading garbage. */
int
tus_parse_size(const char *s, uint64_t *out)
{
	uint64_t	v = 0;
	size_t		i;

	if (s == NULL || *s == '\0' || strlen(s) > 19)
		return (-1);
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > INT64_MAX)
		return (-1);
	*out = v;
	return (0);
}


/*
 * Standard base64 with its padding, as the tus spec asks. The result is
 * NUL-terminated (it may hold NULs of its own: len tells).
 */
int
tus_base64_decode(const char *s, size_t n, char **out, size_t *lenp)
{
	if ((*out = encode_base64_decode(s, n, lenp)) == NULL)
		return (-1);
	return (0);
}

void
tus_meta_free(struct tus_meta *m)
{
	size_t	i;

	for (i = 0; i < m->npairs; i++) {
		free(m->pairs[i].key);
		free(m->pairs[i].value);
	}
	m->npairs = 0;
}

const struct tus_meta_pair *
tus_meta_get(const struct tus_meta *m, const char *key)
{
	size_t	i;

	for (i = 0; i < m->npairs; i++) {
		if (strcasecmp(m->pairs[i].key, key) == 0)
			return (&m->pairs[i]);
	}
	return (NULL);
}

static int
tus_is_space(char c)
{
	return (c == ' ' || c == '\t');
}

/* One "key base64" pair, spaces around it already trimmed. */
static int
tus_meta_pair(const char *s, size_t n, struct tus_meta *m, char **cause)
{
	struct tus_meta_pair	*p;
	size_t			 k, v;

	for (k = 0; k < n && !tus_is_space(s[k]); k++) {
		if ((unsigned char)s[k] < 0x21 || (unsigned char)s[k] > 0x7e)
			return (util_fail(cause, "Upload-Metadata: key '%.*s' "
			    "holds a character that is not printable ASCII",
			    (int)MINIMUM(k + 1, 64), s));
	}
	if (k > 128)
		return (util_fail(cause, "Upload-Metadata: a key of %zu "
		    "characters is too long", k));
	for (v = k; v < n && tus_is_space(s[v]); v++)
		;
	if (memchr(s + v, ' ', n - v) != NULL ||
	    memchr(s + v, '\t', n - v) != NULL)
		return (util_fail(cause, "Upload-Metadata: the value of '%.*s' "
		    "holds a space; expected one 'key base64value' pair "
		    "between commas", (int)k, s));
	if (m->npairs == TUS_META_MAX_PAIRS)
		return (util_fail(cause, "Upload-Metadata: more than %d pairs",
		    TUS_META_MAX_PAIRS));
	p = &m->pairs[m->npairs];
	p->key = xstrndup(s, k);
	if (tus_meta_get(m, p->key) != NULL) {
		util_fail(cause, "Upload-Metadata: key '%s' appears twice "
		    "(keys are unique, compared without case)", p->key);
		free(p->key);
		return (-1);
	}
	p->flag = v == n;
	if (p->flag) {
		p->value = xstrdup("");
		p->len = 0;
	} else if (tus_base64_decode(s + v, n - v, &p->value, &p->len) != 0) {
		util_fail(cause, "Upload-Metadata: the value of '%s' is not "
		    "valid base64 (standard alphabet, padded)", p->key);
		free(p->key);
		return (-1);
	}
	m->npairs++;
	return (0);
}

/*
 * Upload-Metadata: comma-separated "key base64(value)" pairs; a key alone
 * is a flag. Spaces around a pair are allowed (the spec's own example has
 * them), an empty pair, a bad key or bad base64 is refused.
 */
int
tus_meta_parse(const char *h, struct tus_meta *m, char **cause)
{
	const char	*p, *e, *end;

	memset(m, 0, sizeof *m);
	if (h == NULL)
		return (0);
	for (p = h; tus_is_space(*p); p++)
		;
	if (*p == '\0')
		return (0);
	p = h;
	for (;;) {
		e = strchrnul(p, ',');
		end = e;
		while (p < end && tus_is_space(*p))
			p++;
		while (end > p && tus_is_space(end[-1]))
			end--;
		if (end == p) {
			tus_meta_free(m);
			return (util_fail(cause, "Upload-Metadata: an empty "
			    "pair (a key is required between commas)"));
		}
		if (tus_meta_pair(p, (size_t)(end - p), m, cause) != 0) {
			tus_meta_free(m);
			return (-1);
		}
		if (*e == '\0')
			break;
		p = e + 1;
	}
	return (0);
}

/* ---- what the metadata asks for ------------------------------------------ */

void
tus_fields_free(struct tus_fields *f)
{
	cJSON_Delete(f->meta);
	cJSON_Delete(f->allowed_origins);
	free(f->scheduled_deletion);
	memset(f, 0, sizeof *f);
}

static int
tus_text(const struct tus_meta_pair *p, char **cause)
{
	if (strlen(p->value) != p->len || !util_utf8_valid(p->value, p->len))
		return (util_fail(cause, "Upload-Metadata: the value of '%s' "
		    "is not UTF-8 text", p->key));
	return (0);
}

static int
tus_field_bool(const struct tus_meta_pair *p, int *out, char **cause)
{
	if (p->flag || strcasecmp(p->value, "true") == 0 ||
	    strcmp(p->value, "1") == 0)
		*out = 1;
	else if (strcasecmp(p->value, "false") == 0 ||
	    strcmp(p->value, "0") == 0)
		*out = 0;
	else
		return (util_fail(cause, "Upload-Metadata: %s is a flag: send "
		    "the key alone (or true/false)", p->key));
	return (0);
}

static int
tus_field_origins(const struct tus_meta_pair *p, cJSON **out, char **cause)
{
	const char	*s = p->value, *e, *a, *b;

	*out = cJSON_CreateArray();
	while (*s != '\0') {
		e = strchrnul(s, ',');
		for (a = s; a < e && isspace((unsigned char)*a); a++)
			;
		for (b = e; b > a && isspace((unsigned char)b[-1]); b--)
			;
		if (b > a) {
			char *o = xstrndup(a, (size_t)(b - a));

			cJSON_AddItemToArray(*out, cJSON_CreateString(o));
			free(o);
		}
		s = *e == ',' ? e + 1 : e;
	}
	(void)cause;
	return (0);
}

static int
tus_field_number(const struct tus_meta_pair *p, double min, double max,
    int integer, double *out, char **cause)
{
	char	*end;
	double	 d;

	errno = 0;
	d = strtod(p->value, &end);
	if (p->flag || *p->value == '\0' || *end != '\0' || errno != 0 ||
	    !isfinite(d) || (integer && floor(d) != d))
		return (util_fail(cause, "Upload-Metadata: %s must be %s, not "
		    "'%.32s'", p->key, integer ? "an integer" : "a number",
		    p->value));
	if (d < min || d > max)
		return (util_fail(cause, "Upload-Metadata: %s %g is out of "
		    "range (%g to %g)", p->key, d, min, max));
	*out = d;
	return (0);
}

static int
tus_field_time(const struct tus_meta_pair *p, int64_t *out, char **cause)
{
	if (p->flag || stream_parse_time(p->value, out) != 0)
		return (util_fail(cause, "Upload-Metadata: %s must be an RFC "
		    "3339 date-time such as 2026-02-27T07:20:50Z, not '%.40s'",
		    p->key, p->value));
	return (0);
}

static int
tus_field_expiry(const struct tus_meta_pair *p, int64_t now, int64_t *out,
    char **cause)
{
	if (tus_field_time(p, out, cause) != 0)
		return (-1);
	if (!streamrules_expiry_ok(*out, now))
		return (util_fail(cause, "Upload-Metadata: expiry must be "
		    "between 2 minutes and 6 hours from now"));
	return (0);
}

/* One known key; 1 if the key is not known (it then goes to meta). */
static int
tus_field(const struct tus_meta_pair *p, int64_t now, struct tus_fields *f,
    char **cause)
{
	char	iso[ISO_TIME_LEN];
	double	d;
	int64_t	t;

	if (strcasecmp(p->key, "name") == 0) {
		if (tus_text(p, cause) != 0)
			return (-1);
		cJSON_AddStringToObject(f->meta, "name", p->value);
	} else if (strcasecmp(p->key, "requiresignedurls") == 0)
		return (tus_field_bool(p, &f->require_signed, cause));
	else if (strcasecmp(p->key, "allowedorigins") == 0) {
		if (tus_text(p, cause) != 0)
			return (-1);
		return (tus_field_origins(p, &f->allowed_origins, cause));
	} else if (strcasecmp(p->key, "thumbnailtimestamppct") == 0)
		return (tus_field_number(p, 0, 1, 0, &f->thumb_pct, cause));
	else if (strcasecmp(p->key, "watermark") == 0) {
		if (p->len != HEX32_LEN || !apirules_hex32_ok(p->value))
			return (util_fail(cause, "Upload-Metadata: watermark "
			    "must be the uid of a watermark profile (32 hex "
			    "digits)"));
		memcpy(f->watermark, p->value, HEX32_LEN + 1);
	} else if (strcasecmp(p->key, "scheduleddeletion") == 0) {
		if (tus_field_time(p, &t, cause) != 0 ||
		    stream_check_deletion(t, now, cause) != 0)
			return (-1);
		stream_time_iso(t, iso);
		f->scheduled_deletion = xstrdup(iso);
	} else if (strcasecmp(p->key, "maxdurationseconds") == 0) {
		if (tus_field_number(p, 1, STREAMRULES_DURATION_MAX, 1, &d,
		    cause) != 0)
			return (-1);
		f->max_duration = (long)d;
	} else if (strcasecmp(p->key, "expiry") == 0)
		return (tus_field_expiry(p, now, &f->expiry, cause));
	else
		return (1);
	return (0);
}

/*
 * The video fields the metadata sets, keys compared without case as
 * Cloudflare's docs spell them both ways; any other key is kept in meta
 * under its own spelling.
 */
int
tus_meta_fields(const struct tus_meta *m, int64_t now, struct tus_fields *f,
    char **cause)
{
	size_t	i;
	int	r;

	memset(f, 0, sizeof *f);
	f->meta = cJSON_CreateObject();
	f->thumb_pct = -1;
	f->max_duration = -1;
	for (i = 0; i < m->npairs; i++) {
		r = tus_field(&m->pairs[i], now, f, cause);
		if (r < 0) {
			tus_fields_free(f);
			return (-1);
		}
		if (r == 0)
			continue;
		if (tus_text(&m->pairs[i], cause) != 0) {
			tus_fields_free(f);
			return (-1);
		}
		cJSON_AddStringToObject(f->meta, m->pairs[i].key,
		    m->pairs[i].value);
	}
	return (0);
}

/* ---- chunks -------------------------------------------------------------- */

/*
 * Cloudflare's chunk rules (streamrules): at most 200 MiB; at least 5 MiB
 * and a multiple of 256 KiB, except the chunk that completes the upload.
 * An empty PATCH changes nothing and is allowed, as in tusd.
 */
enum tus_chunk
tus_chunk_check(uint64_t offset, uint64_t len, uint64_t total, char **cause)
{
	enum streamrules_chunk	c;

	if (offset > total || len > total - offset) {
		util_fail(cause, "Upload-Offset %llu plus a chunk of %llu "
		    "bytes is past the Upload-Length of %llu bytes",
		    (unsigned long long)offset, (unsigned long long)len,
		    (unsigned long long)total);
		return (TUS_CHUNK_PAST_END);
	}
	c = streamrules_chunk_check((long long)MINIMUM(len,
	    (uint64_t)LLONG_MAX));
	if (c == STREAMRULES_CHUNK_TOO_BIG) {
		util_fail(cause, "a chunk of %llu bytes is over the maximum of "
		    "%lld bytes (200 MiB)", (unsigned long long)len,
		    STREAMRULES_CHUNK_MAX);
		return (TUS_CHUNK_TOO_BIG);
	}
	if (len == 0 || offset + len == total)
		return (TUS_CHUNK_OK);
	if (c == STREAMRULES_CHUNK_TOO_SMALL) {
		util_fail(cause, "a chunk of %llu bytes is under the minimum "
		    "of %lld bytes (5 MiB); only the final chunk, the one that "
		    "completes the upload, may be smaller",
		    (unsigned long long)len, STREAMRULES_CHUNK_MIN);
		return (TUS_CHUNK_TOO_SMALL);
	}
	if (c == STREAMRULES_CHUNK_UNALIGNED) {
		util_fail(cause, "a chunk of %llu bytes is not a multiple of "
		    "%lld bytes (256 KiB); only the final chunk, the one that "
		    "completes the upload, may be", (unsigned long long)len,
		    STREAMRULES_CHUNK_ALIGN);
		return (TUS_CHUNK_UNALIGNED);
	}
	return (TUS_CHUNK_OK);
}

unsigned int
tus_chunk_status(enum tus_chunk c)
{
	switch (c) {
	case TUS_CHUNK_OK:
		return (204);
	case TUS_CHUNK_PAST_END:
	case TUS_CHUNK_TOO_BIG:
		return (413);
	default:
		return (400);
	}
}

/* RFC 7231 HTTP-date, as Upload-Expires carries it. */
void
tus_http_date(int64_t us, char out[TUS_DATE_LEN])
{
	time_t		t = (time_t)(us / 1000000);
	struct tm	tm;
	static const char *const days[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
		"Oct", "Nov", "Dec"
	};

	gmtime_r(&t, &tm);
	snprintf(out, TUS_DATE_LEN, "%s, %02d %s %04d %02d:%02d:%02d GMT",
	    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900,
	    tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* ---- one request at a time per upload ------------------------------------ */

static pthread_mutex_t	  tus_locks_mu = PTHREAD_MUTEX_INITIALIZER;
static char		(*tus_locks)[HEX32_LEN + 1];
static size_t		  tus_nlocks;

int
tus_lock(const char *uid)
{
	size_t	i;

	pthread_mutex_lock(&tus_locks_mu);
	for (i = 0; i < tus_nlocks; i++) {
		if (strcmp(tus_locks[i], uid) == 0) {
			pthread_mutex_unlock(&tus_locks_mu);
			return (-1);
		}
	}
	tus_locks = xreallocarray(tus_locks, tus_nlocks + 1,
	    sizeof *tus_locks);
	snprintf(tus_locks[tus_nlocks++], HEX32_LEN + 1, "%s", uid);
	pthread_mutex_unlock(&tus_locks_mu);
	return (0);
}

/* The upload's lock goes; the caller holds tus_locks_mu. */
static void
tus_locks_drop(const char *uid)
{
	size_t	i;

	for (i = 0; i < tus_nlocks; i++) {
		if (strcmp(tus_locks[i], uid) != 0)
			continue;
		memmove(&tus_locks[i], &tus_locks[i + 1],
		    (tus_nlocks - i - 1) * sizeof *tus_locks);
		if (--tus_nlocks == 0) {
			free(tus_locks);
			tus_locks = NULL;
		}
		break;
	}
}

/* Whether a request holds the upload; the caller holds tus_locks_mu. */
static int
tus_locks_held(const char *uid)
{
	size_t	i;

	for (i = 0; i < tus_nlocks; i++)
		if (strcmp(tus_locks[i], uid) == 0)
			return (1);
	return (0);
}

void
tus_unlock(const char *uid)
{
	pthread_mutex_lock(&tus_locks_mu);
	tus_locks_drop(uid);
	pthread_mutex_unlock(&tus_locks_mu);
}

/* ---- shared by the handlers ---------------------------------------------- */

static void
tus_header_num(struct reply *rep, const char *name, int64_t v)
{
	char	s[32];

	snprintf(s, sizeof s, "%lld", (long long)v);
	reply_header(rep, name, s);
}

static void
tus_header_expires(struct reply *rep, const struct stream_upload *up)
{
	char	date[TUS_DATE_LEN];

	if (up->pending && up->expiry != 0) {
		tus_http_date(up->expiry, date);
		reply_header(rep, "Upload-Expires", date);
	}
}

static int
tus_check_version(struct req *req, struct reply *rep)
{
	const char	*v = req_header(req, "Tus-Resumable");

	if (tus_version_ok(v))
		return (0);
	if (v == NULL)
		reply_error(rep, 412, TUS_ERR_VERSION, "Tus-Resumable is "
		    "required: this server speaks tus %s", TUS_VERSION);
	else
		reply_error(rep, 412, TUS_ERR_VERSION, "Tus-Resumable: "
		    "version '%.20s' is not supported; this server speaks "
		    "tus %s", v, TUS_VERSION);
	reply_header(rep, "Tus-Version", TUS_VERSION);
	return (-1);
}

/* Where this server is, without the API prefix (one-time URLs live there). */
char *
tus_root_url(struct req *req)
{
	const char	*base = server_base_url(req->server);
	size_t		 n = strlen(base), p = strlen(API_PREFIX);

	if (n >= p && strcmp(base + n - p, API_PREFIX) == 0)
		n -= p;
	return (xstrndup(base, n));
}

/* Root routes carry no account: the uid and its token name the upload. */
static int
tus_onetime(struct req *req)
{
	return (req_param(req, "account") == NULL);
}

#define TUS_KINDS_TUS	(TUS_KIND(STREAM_UPLOAD_TUS) | \
			    TUS_KIND(STREAM_UPLOAD_TUS_DIRECT))
#define TUS_KINDS_ANY	(TUS_KINDS_TUS | TUS_KIND(STREAM_UPLOAD_DIRECT) | \
			    TUS_KIND(STREAM_UPLOAD_NONE))

/*
 * The upload a request names, of one of the kinds wanted; otherwise the
 * reply says why. A one-time URL takes only its own kind, and a wrong token
 * looks like no upload at all.
 */
int
tus_find(struct req *req, struct reply *rep, int kinds,
    struct stream_upload *up)
{
	const char	*uid = req_param(req, "uid"), *token;

	switch (stream_upload_get(req->store, req_param(req, "account"), uid,
	    up)) {
	case -1:
		reply_error(rep, 500, ERR_INTERNAL, "store: %s",
		    store_errmsg(req->store));
		return (-1);
	case 0:
		goto none;
	}
	if (tus_onetime(req)) {
		token = query_get(&req->query, "token");
		if (token == NULL || up->token[0] == '\0' ||
		    !util_streq_ct(token, up->token))
			goto none;
		kinds &= ~TUS_KIND(STREAM_UPLOAD_TUS);
	}
	if (kinds & TUS_KIND(up->kind))
		return (0);
	stream_upload_free(up);
	reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no %s upload", uid,
	    (kinds & TUS_KINDS_TUS) ? "tus" : "direct");
	return (-1);
none:
	stream_upload_free(up);
	reply_error(rep, 404, ERR_NOT_FOUND, "upload %s was not found", uid);
	return (-1);
}

int
tus_expired(const struct stream_upload *up, struct reply *rep)
{
	char	iso[ISO_TIME_LEN];

	if (!up->pending || up->expiry == 0 || stream_now() < up->expiry)
		return (0);
	stream_time_iso(up->expiry, iso);
	reply_error(rep, 410, TUS_ERR_GONE, "upload %s expired at %s", up->uid,
	    iso);
	return (1);
}

static int
tus_used(struct req *req, const struct stream_upload *up, struct reply *rep)
{
	if (up->pending || !tus_onetime(req))
		return (0);
	reply_error(rep, 410, TUS_ERR_GONE, "this one-time upload URL has "
	    "been used: upload %s is complete", up->uid);
	return (1);
}

/* Record durable bytes; otherwise the reply says why (404: gone). */
int
tus_record(struct req *req, struct reply *rep, const struct stream_upload *up,
    int64_t offset, int complete)
{
	char	*cause = NULL;
	int	 rc;

	rc = stream_upload_record(req->store, up->account, up->uid, offset,
	    complete, &cause);
	if (rc > 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "%s", cause);
	else if (rc < 0)
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
	free(cause);
	return (rc);
}

/* ---- OPTIONS, creation, HEAD, termination -------------------------------- */

static void
tus_options(struct req *req, struct reply *rep)
{
	char	max[32];

	(void)req;
	reply_raw(rep, 204, NULL, 0, NULL);
	reply_header(rep, "Tus-Resumable", TUS_VERSION);
	reply_header(rep, "Tus-Version", TUS_VERSION);
	reply_header(rep, "Tus-Extension", TUS_EXTENSIONS);
	snprintf(max, sizeof max, "%llu", (unsigned long long)TUS_MAX_SIZE);
	reply_header(rep, "Tus-Max-Size", max);
}

/* The creation headers; on failure the reply says why. */
static int
tus_create_headers(struct req *req, struct reply *rep, int64_t now,
    uint64_t *length, struct tus_fields *f)
{
	struct tus_meta	 m;
	const char	*creator = req_header(req, "Upload-Creator");
	char		*cause = NULL;

	if (req_header(req, "Upload-Defer-Length") != NULL) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "Upload-Defer-Length is "
		    "not supported: send Upload-Length (Stream needs the size "
		    "of the video up front)");
		return (-1);
	}
	if (tus_parse_size(req_header(req, "Upload-Length"), length) != 0) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "Upload-Length is "
		    "required: the size of the video in bytes");
		return (-1);
	}
	if (*length > TUS_MAX_SIZE) {
		reply_error(rep, 413, ERR_TOO_LARGE, "Upload-Length %llu is "
		    "over the maximum of %llu bytes", (unsigned long long)
		    *length, (unsigned long long)TUS_MAX_SIZE);
		return (-1);
	}
	if (creator != NULL && (!util_utf8_valid(creator, strlen(creator)) ||
	    text_chars(creator) > STREAMRULES_CREATOR_MAX)) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "Upload-Creator: at "
		    "most %d characters of UTF-8", STREAMRULES_CREATOR_MAX);
		return (-1);
	}
	if (tus_meta_parse(req_header(req, "Upload-Metadata"), &m,
	    &cause) != 0 || tus_meta_fields(&m, now, f, &cause) != 0) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "%s", cause);
		free(cause);
		tus_meta_free(&m);
		return (-1);
	}
	tus_meta_free(&m);
	return (0);
}

static void
tus_create(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	struct stream_new	 nv;
	struct stream_upload	 up;
	struct tus_fields	 f;
	uint64_t		 length;
	char			 uid[HEX32_LEN + 1], token[HEX32_LEN + 1];
	char			*cause = NULL, *location, *root;
	int64_t			 now = stream_now();
	int			 direct;

	if (tus_check_version(req, rep) != 0)
		return;
	if (query_bool(&req->query, "direct_user", 0, &direct, &cause) != 0) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "%s", cause);
		free(cause);
		return;
	}
	if (tus_create_headers(req, rep, now, &length, &f) != 0)
		return;
	memset(&nv, 0, sizeof nv);
	nv.creator = req_header(req, "Upload-Creator");
	nv.meta = f.meta;
	nv.require_signed = f.require_signed;
	nv.allowed_origins = f.allowed_origins;
	nv.thumb_pct = f.thumb_pct < 0 ? 0 : f.thumb_pct;
	nv.scheduled_deletion = f.scheduled_deletion;
	nv.max_duration = f.max_duration;
	nv.watermark_uid = f.watermark[0] != '\0' ? f.watermark : NULL;
	nv.kind = direct ? STREAM_UPLOAD_TUS_DIRECT : STREAM_UPLOAD_TUS;
	nv.length = (int64_t)length;
	nv.metadata = req_header(req, "Upload-Metadata");
	nv.expiry = f.expiry != 0 ? f.expiry : now + (int64_t)(direct ?
	    TUS_EXPIRY_DIRECT : TUS_EXPIRY_DEFAULT) * 1000000;
	if (direct) {
		util_hex32(token);
		nv.token = token;
	}
	/* An empty upload is complete as soon as it exists. */
	if (stream_video_create(req->store, account, &nv, uid, &cause) != 0 ||
	    (length == 0 && stream_upload_record(req->store, account, uid, 0,
	    1, &cause) != 0)) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		free(cause);
		tus_fields_free(&f);
		return;
	}
	tus_fields_free(&f);
	if (direct) {
		root = tus_root_url(req);
		location = xprintf("%s/tus/%s?token=%s", root, uid, token);
		free(root);
	} else
		location = xprintf("%s/accounts/%s/stream/%s",
		    server_base_url(req->server), account, uid);
	reply_raw(rep, 201, NULL, 0, NULL);
	reply_header(rep, "Tus-Resumable", TUS_VERSION);
	reply_header(rep, "Location", location);
	reply_header(rep, "stream-media-id", uid);
	memset(&up, 0, sizeof up);
	up.pending = length != 0;
	up.expiry = nv.expiry;
	tus_header_expires(rep, &up);
	free(location);
}

static void
tus_head(struct req *req, struct reply *rep)
{
	struct stream_upload	up;
	int			rc, held;

	if (tus_check_version(req, rep) != 0)
		goto out;
	/*
	 * A PATCH records its offset and drops its lock in one step under
	 * this mutex (tus_patch_end): an offset read here is one the next
	 * PATCH can resume from, never met by a 423 from a lock still held.
	 */
	pthread_mutex_lock(&tus_locks_mu);
	rc = tus_find(req, rep, TUS_KINDS_TUS, &up);
	held = rc == 0 && tus_locks_held(up.uid);
	pthread_mutex_unlock(&tus_locks_mu);
	if (rc != 0)
		goto out;
	if (tus_expired(&up, rep))
		goto done;
	reply_raw(rep, 200, NULL, 0, NULL);
	/* tus has no word for it: whether a cut PATCH has ended yet. */
	if (held)
		reply_header(rep, "Edgemu-Patch-In-Progress", "1");
	tus_header_num(rep, "Upload-Offset", up.offset);
	tus_header_num(rep, "Upload-Length", up.length);
	reply_header(rep, "Cache-Control", "no-store");
	if (up.metadata != NULL)
		reply_header(rep, "Upload-Metadata", up.metadata);
	tus_header_expires(rep, &up);
done:
	stream_upload_free(&up);
out:
	reply_header(rep, "Tus-Resumable", TUS_VERSION);
}

/*
 * On the video's own URL any video can be terminated (that is deleting
 * it); a one-time URL only ends the upload it was made for, before it ends.
 */
static void
tus_terminate(struct req *req, struct reply *rep)
{
	struct stream_upload	up;
	int			rc;

	if (tus_check_version(req, rep) != 0 ||
	    tus_find(req, rep, TUS_KINDS_ANY, &up) != 0)
		goto out;
	if (tus_used(req, &up, rep))
		goto done;
	if (tus_lock(up.uid) != 0) {
		reply_error(rep, 423, TUS_ERR_LOCKED, "upload %s has a PATCH "
		    "in progress; terminate it once that ends", up.uid);
		goto done;
	}
	rc = stream_video_remove(req->store, up.account, up.uid);
	tus_unlock(up.uid);
	if (rc < 0)
		reply_error(rep, 500, ERR_INTERNAL, "store: %s",
		    store_errmsg(req->store));
	else if (rc == 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "upload %s was not found",
		    up.uid);
	else
		reply_raw(rep, 204, NULL, 0, NULL);
done:
	stream_upload_free(&up);
out:
	reply_header(rep, "Tus-Resumable", TUS_VERSION);
}

/* ---- PATCH: bytes to disk as they arrive --------------------------------- */

struct tus_patch {
	struct stream_upload	 up;
	int			 fd;
	int64_t			 start;		/* the offset it began at */
	int64_t			 received;	/* bytes written */
	int64_t			 declared;	/* Content-Length, or -1 */
	int64_t			 hinted;	/* handed to writeback so far */
	struct timespec		 t0;		/* for --upload-rate */
	int			 overflow;	/* more came than fits */
	int			 rollback;	/* refused after writing */
	int			 hung_up;	/* the client closed its side */
};

int
tus_write_all(int fd, const char *p, size_t n, size_t *done)
{
	ssize_t	w;

	*done = 0;
	while (*done < n) {
		w = write(fd, p + *done, n - *done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		*done += (size_t)w;
	}
	return (0);
}

static void
tus_patch_free(struct req *req, struct tus_patch *tp, int locked)
{
	if (tp->fd != -1)
		close(tp->fd);
	if (locked)
		tus_unlock(tp->up.uid);
	stream_upload_free(&tp->up);
	free(tp);
	req->state = NULL;
}

/* A finished upload: an empty PATCH at its end is answered, others not. */
static int
tus_patch_finished(struct req *req, struct reply *rep, struct tus_patch *tp,
    uint64_t offset)
{
	const char	*cl = req_header(req, MHD_HTTP_HEADER_CONTENT_LENGTH);

	if (tus_used(req, &tp->up, rep))
		return (-1);
	if ((int64_t)offset != tp->up.length)
		reply_error(rep, 409, ERR_CONFLICT, "Upload-Offset %llu does "
		    "not match the upload's offset %lld (it is complete)",
		    (unsigned long long)offset, (long long)tp->up.length);
	else if (cl == NULL || strcmp(cl, "0") != 0)
		reply_error(rep, 413, ERR_TOO_LARGE, "upload %s is complete: "
		    "no more bytes fit", tp->up.uid);
	else {
		reply_raw(rep, 204, NULL, 0, NULL);
		tus_header_num(rep, "Upload-Offset", tp->up.length);
	}
	return (-1);
}

/*
 * The file, checked against the record: bytes past the offset were never
 * acknowledged (a record that failed to update) and go; fewer bytes than
 * recorded means some were lost, and the record follows the disk.
 */
static int
tus_patch_open(struct req *req, struct reply *rep, struct tus_patch *tp)
{
	struct stat	 sb;
	char		*path;

	path = stream_video_file(req->store, tp->up.account, tp->up.uid);
	tp->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (tp->fd == -1 || fstat(tp->fd, &sb) != 0 ||
	    (sb.st_size > tp->start && ftruncate(tp->fd, tp->start) != 0)) {
		reply_error(rep, 500, ERR_INTERNAL, "%s: %s", path,
		    strerror(errno));
		free(path);
		return (-1);
	}
	free(path);
	if (sb.st_size >= tp->start)
		return (0);
	if (tus_record(req, rep, &tp->up, sb.st_size, 0) != 0)
		return (-1);
	reply_error(rep, 409, ERR_CONFLICT, "the server holds %lld bytes of "
	    "upload %s: resume from there", (long long)sb.st_size, tp->up.uid);
	tus_header_num(rep, "Upload-Offset", sb.st_size);
	return (-1);
}

static int
tus_patch_begin(struct req *req, struct reply *rep)
{
	struct tus_patch	*tp;
	const char		*ct, *cl;
	uint64_t		 offset, len;
	char			*cause = NULL;
	enum tus_chunk		 c;
	int			 locked = 0;

	reply_header(rep, "Tus-Resumable", TUS_VERSION);
	if (tus_check_version(req, rep) != 0)
		return (-1);
	ct = req_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (ct == NULL || strcasecmp(ct, "application/offset+octet-stream")) {
		reply_error(rep, 415, ERR_MEDIA_TYPE, "a PATCH needs "
		    "Content-Type: application/offset+octet-stream");
		return (-1);
	}
	if (tus_parse_size(req_header(req, "Upload-Offset"), &offset) != 0) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "Upload-Offset is "
		    "required: a non-negative byte offset");
		return (-1);
	}
	tp = xcalloc(1, sizeof *tp);
	tp->fd = -1;
	req->state = tp;
	if (tus_lock(req_param(req, "uid")) != 0) {
		reply_error(rep, 423, TUS_ERR_LOCKED, "upload %s already has a "
		    "PATCH in progress: one at a time", req_param(req, "uid"));
		goto fail;
	}
	locked = 1;
	/* Read after the lock: the offset is this request's to move now. */
	if (tus_find(req, rep, TUS_KINDS_TUS, &tp->up) != 0 ||
	    tus_expired(&tp->up, rep))
		goto fail;
	if (!tp->up.pending) {
		tus_patch_finished(req, rep, tp, offset);
		goto fail;
	}
	if ((int64_t)offset != tp->up.offset) {
		reply_error(rep, 409, ERR_CONFLICT, "Upload-Offset %llu does "
		    "not match the upload's offset %lld: HEAD it and resume "
		    "from there", (unsigned long long)offset,
		    (long long)tp->up.offset);
		goto fail;
	}
	tp->start = tp->up.offset;
	tp->declared = -1;
	cl = req_header(req, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl != NULL && tus_parse_size(cl, &len) == 0) {
		tp->declared = (int64_t)len;
		if ((c = tus_chunk_check(offset, len, (uint64_t)tp->up.length,
		    &cause)) != TUS_CHUNK_OK) {
			reply_error(rep, tus_chunk_status(c), c ==
			    TUS_CHUNK_PAST_END || c == TUS_CHUNK_TOO_BIG ?
			    ERR_TOO_LARGE : ERR_BAD_REQUEST, "%s", cause);
			free(cause);
			goto fail;
		}
	}
	if (tus_patch_open(req, rep, tp) != 0)
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &tp->t0);
	return (0);

fail:
	tus_patch_free(req, tp, locked);
	return (-1);
}

/* Start writing back what has piled up, so the final fsync is short. */
static void
tus_patch_writeback(struct tus_patch *tp)
{
#ifdef SYNC_FILE_RANGE_WRITE
	if (tp->received - tp->hinted < TUS_WRITEBACK)
		return;
	sync_file_range(tp->fd, tp->start + tp->hinted,
	    tp->received - tp->hinted, SYNC_FILE_RANGE_WRITE);
	tp->hinted = tp->received;
#else
	(void)tp;
#endif
}

/*
 * --upload-rate: once the bytes run ahead of the rate, this request's
 * thread pauses until they are on time, which holds the client back too.
 * The pause watches the socket: once the client has hung up, the bytes it
 * sent are read at once, so the request ends and its lock goes with it
 * instead of being held while a dead connection's buffer drains.
 */
static void
tus_patch_throttle(struct req *req, struct tus_patch *tp)
{
	long long			 rate;
	const union MHD_ConnectionInfo	*ci;
	struct pollfd			 pfd = { .fd = -1, .events = POLLRDHUP };
	struct timespec			 now;
	double				 ahead;

	rate = server_options(req->server)->upload_rate;
	if (rate <= 0 || tp->hung_up)
		return;
	ci = MHD_get_connection_info(req->conn,
	    MHD_CONNECTION_INFO_CONNECTION_FD);
	if (ci != NULL)
		pfd.fd = ci->connect_fd;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		ahead = (double)tp->received / (double)rate -
		    ((double)(now.tv_sec - tp->t0.tv_sec) +
		    (double)(now.tv_nsec - tp->t0.tv_nsec) / 1e9);
		if (ahead <= 0)
			return;
		/* Without a socket to watch, poll(2) just sleeps. */
		if (poll(&pfd, 1, ahead > 60 ? 60000 :
		    (int)ceil(ahead * 1000)) > 0 &&
		    (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR))) {
			tp->hung_up = 1;
			return;
		}
	}
}

static int
tus_patch_data(struct req *req, const char *data, size_t size,
    struct reply *rep)
{
	struct tus_patch	*tp = req->state;
	int64_t			 room;
	size_t			 n, done;

	if (tp->declared < 0 && tp->received + (int64_t)size >
	    (int64_t)STREAMRULES_CHUNK_MAX) {
		tp->rollback = 1;
		reply_error(rep, 413, ERR_TOO_LARGE, "a chunk of more than "
		    "%lld bytes is over the maximum (200 MiB)",
		    STREAMRULES_CHUNK_MAX);
		return (-1);
	}
	room = tp->up.length - tp->start - tp->received;
	n = (size_t)MINIMUM((int64_t)size, room);
	if (tus_write_all(tp->fd, data, n, &done) != 0) {
		tp->received += (int64_t)done;
		reply_error(rep, 500, ERR_INTERNAL, "writing upload %s: %s",
		    tp->up.uid, strerror(errno));
		return (-1);
	}
	tp->received += (int64_t)n;
	if (n < size) {
		/* tusd's rule without Content-Length: keep what fits, 413. */
		tp->overflow = 1;
		reply_error(rep, 413, ERR_TOO_LARGE, "the body runs past the "
		    "Upload-Length of %lld bytes; the bytes that fit were "
		    "kept", (long long)tp->up.length);
		return (-1);
	}
	tus_patch_writeback(tp);
	tus_patch_throttle(req, tp);
	return (0);
}

/* A chunked body is checked against the chunk rules once its size is known. */
static void
tus_patch_check_chunked(struct tus_patch *tp, struct reply *rep)
{
	char		*cause = NULL;
	enum tus_chunk	 c;

	c = tus_chunk_check((uint64_t)tp->start, (uint64_t)tp->received,
	    (uint64_t)tp->up.length, &cause);
	if (c == TUS_CHUNK_OK)
		return;
	tp->rollback = 1;
	reply_error(rep, tus_chunk_status(c), ERR_BAD_REQUEST, "%s", cause);
	free(cause);
}

/*
 * The end, complete or cut short: what arrived is synced, then recorded,
 * then acknowledged; a refused chunk is taken back off the file.
 */
static void
tus_patch_end(struct req *req, struct reply *rep, int complete)
{
	struct tus_patch	*tp = req->state;
	int64_t			 offset;
	int			 ok = 1, locked = 1;

	if (tp == NULL)
		return;
	if (complete && tp->declared < 0)
		tus_patch_check_chunked(tp, rep);
	offset = tp->start + (tp->rollback ? 0 : tp->received);
	if (tp->rollback) {
		if (ftruncate(tp->fd, tp->start) != 0)
			log_warn("upload %s: %s", tp->up.uid, strerror(errno));
	} else if (tp->received > 0) {
		if (fsync(tp->fd) != 0) {
			ok = 0;
			reply_error(rep, 500, ERR_INTERNAL, "syncing upload "
			    "%s: %s", tp->up.uid, strerror(errno));
		} else {
			/* Recorded and unlocked at once: see tus_head. */
			pthread_mutex_lock(&tus_locks_mu);
			if (tus_record(req, rep, &tp->up, offset,
			    offset == tp->up.length) != 0)
				ok = 0;
			tus_locks_drop(tp->up.uid);
			locked = 0;
			pthread_mutex_unlock(&tus_locks_mu);
		}
	}
	if (complete && ok && !tp->rollback) {
		reply_raw(rep, 204, NULL, 0, NULL);
		tp->up.pending = offset < tp->up.length;
		tus_header_expires(rep, &tp->up);
	}
	if (ok && !tp->rollback)
		tus_header_num(rep, "Upload-Offset", offset);
	tus_patch_free(req, tp, locked);
}

/* ---- the area ------------------------------------------------------------ */

#define TUS_PATH	STREAM_ACCOUNT "/stream"
#define TUS_ONETIME	(ROUTE_ROOT | ROUTE_NOAUTH)

/*
 * Authenticated uploads use the video's own URL (Cloudflare's Location):
 * PATCH there is tus; HEAD and DELETE are tus when Tus-Resumable is sent
 * (without it they are stream.c's GET and DELETE). One-time URLs live
 * outside the API prefix: /tus/<uid>?token=... (direct.c has
 * /upload/<uid>?token=...).
 */
static const struct route tus_routes[] = {
	{ HTTP_POST, TUS_PATH, tus_create, ROUTE_BODY_NONE },
	{ HTTP_OPTIONS, TUS_PATH, tus_options, ROUTE_BODY_NONE },
	{ HTTP_OPTIONS, TUS_PATH "/{uid:hex32}", tus_options, ROUTE_BODY_NONE },
	{ .method = HTTP_HEAD, .pattern = TUS_PATH "/{uid:hex32}",
	    .handler = tus_head, .body = ROUTE_BODY_NONE,
	    .header = "Tus-Resumable" },
	{ .method = HTTP_DELETE, .pattern = TUS_PATH "/{uid:hex32}",
	    .handler = tus_terminate, .body = ROUTE_BODY_NONE,
	    .header = "Tus-Resumable" },
	{ HTTP_PATCH, TUS_PATH "/{uid:hex32}", NULL, ROUTE_BODY_STREAM, 0,
	    tus_patch_begin, tus_patch_data, tus_patch_end },

	{ HTTP_OPTIONS, "/tus/{uid:hex32}", tus_options, ROUTE_BODY_NONE,
	    TUS_ONETIME },
	{ HTTP_HEAD, "/tus/{uid:hex32}", tus_head, ROUTE_BODY_NONE,
	    TUS_ONETIME },
	{ HTTP_PATCH, "/tus/{uid:hex32}", NULL, ROUTE_BODY_STREAM, TUS_ONETIME,
	    tus_patch_begin, tus_patch_data, tus_patch_end },
	{ HTTP_DELETE, "/tus/{uid:hex32}", tus_terminate, ROUTE_BODY_NONE,
	    TUS_ONETIME },
};

const struct area tus_area = {
	.name = "tus",
	.routes = tus_routes,
	.nroutes = nitems(tus_routes),
};
