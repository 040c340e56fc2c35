/*
 * TUS 1.0.0 uploads to Cloudflare Stream. The file is read chunk by chunk
 * through curl's read and seek callbacks with pread, so memory stays
 * constant whatever its size; the journal remembers each unfinished
 * upload's URL so a later run HEADs it and continues from the server's
 * offset instead of sending everything again.
 */
#include "config.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <xxhash.h>

#include "buf.h"
#include "encode.h"
#include "http.h"
#include "log.h"
#include "retry.h"
#include "streamrules.h"
#include "tusc.h"
#include "tusc_journal.h"
#include "uploaded.h"
#include "xmalloc.h"

static const long tusc_delays[TUSC_RETRY_MAX] = TUSC_RETRY_DELAYS;

/* ---- Pure pieces ---------------------------------------------------------- */

int
tusc_chunk_check(long long size, char **cause)
{
	switch (streamrules_chunk_check(size)) {
	case STREAMRULES_CHUNK_OK:
		return (0);
	case STREAMRULES_CHUNK_UNALIGNED:
		xasprintf(cause, "chunk size %lld: Stream needs a multiple "
		    "of %lld (256 KiB), such as %lld", size,
		    STREAMRULES_CHUNK_ALIGN,
		    size / STREAMRULES_CHUNK_ALIGN * STREAMRULES_CHUNK_ALIGN);
		return (-1);
	default:
		xasprintf(cause, "chunk size %lld: Stream takes chunks of "
		    "%lld (5 MiB) to %lld (200 MiB) bytes", size,
		    STREAMRULES_CHUNK_MIN, STREAMRULES_CHUNK_MAX);
		return (-1);
	}
}

long long
tusc_chunk_len(long long offset, long long size, long long chunk)
{
	if (offset >= size)
		return (0);
	return (size - offset < chunk ? size - offset : chunk);
}

/* Upload-Metadata values: standard base64, padded (OpenSSL's). */
char *
tusc_base64(const void *data, size_t len)
{
	return (encode_base64(data, len));
}

static void
tusc_meta_add(struct buf *b, const char *key, const char *value)
{
	char	*enc;

	if (value == NULL)
		return;
	if (b->len != 0)
		buf_addc(b, ',');
	enc = tusc_base64(value, strlen(value));
	buf_addf(b, "%s %s", key, enc);
	free(enc);
}

/* Keys as Cloudflare's docs spell them (they match case-insensitively). */
char *
tusc_metadata(const struct tusc_meta *m)
{
	struct buf	 b = BUF_INITIALIZER;
	char		 num[32];

	tusc_meta_add(&b, "name", m->name);
	if (m->require_signed) {
		if (b.len != 0)
			buf_addc(&b, ',');
		buf_adds(&b, "requiresignedurls");
	}
	tusc_meta_add(&b, "allowedorigins", m->allowed_origins);
	tusc_meta_add(&b, "thumbnailtimestamppct", m->thumbnail_pct);
	tusc_meta_add(&b, "watermark", m->watermark);
	tusc_meta_add(&b, "scheduleddeletion", m->scheduled_deletion);
	if (m->max_duration > 0) {
		snprintf(num, sizeof num, "%ld", m->max_duration);
		tusc_meta_add(&b, "maxDurationSeconds", num);
	}
	tusc_meta_add(&b, "expiry", m->expiry);
	if (b.len == 0) {
		buf_free(&b);
		return (NULL);
	}
	return (buf_detach(&b, NULL));
}

void
tusc_retry_init(struct tusc_retry *r, long long offset)
{
	r->next = 0;
	r->offset = offset;
}

long
tusc_retry_next(struct tusc_retry *r, long long offset)
{
	if (offset > r->offset) {
		r->next = 0;
		r->offset = offset;
	}
	if (r->next >= TUSC_RETRY_MAX)
		return (-1);
	return (tusc_delays[r->next++]);
}

/* ---- Requests ------------------------------------------------------------- */

int
tusc_parse_num(const char *s, long long *out)
{
	char		*end;
	long long	 v;

	if (s == NULL || *s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoll(s, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (errno != 0 || *end != '\0' || v < 0)
		return (-1);
	*out = v;
	return (0);
}

/* Location may be relative: resolve it against the creation URL. */
static char *
tusc_resolve(const char *base, const char *path, const char *loc)
{
	CURLU	*u;
	char	*url, *s = NULL, *full;

	if (strncmp(loc, "http://", 7) == 0 ||
	    strncmp(loc, "https://", 8) == 0)
		return (xstrdup(loc));
	if ((u = curl_url()) == NULL)
		fatalx("curl_url: out of memory");
	full = xprintf("%s%s", base, path);
	if (curl_url_set(u, CURLUPART_URL, full, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_URL, loc, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &s, 0) == CURLUE_OK) {
		url = xstrdup(s);
		curl_free(s);
	} else
		url = NULL;
	curl_url_cleanup(u);
	free(full);
	return (url);
}

/* The last segment of an upload URL's path, or NULL when it has none. */
static char *
tusc_location_id(const char *url)
{
	CURLU		*u;
	char		*path = NULL, *id = NULL;
	const char	*slash;
	size_t		 n;

	if ((u = curl_url()) == NULL)
		fatalx("curl_url: out of memory");
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK) {
		n = strlen(path);
		while (n > 0 && path[n - 1] == '/')
			n--;
		path[n] = '\0';
		slash = strrchr(path, '/');
		if (slash != NULL && slash[1] != '\0')
			id = xstrdup(slash + 1);
		curl_free(path);
	}
	curl_url_cleanup(u);
	return (id);
}

/*
 * One request of an upload. Its callers get the failure as text only, so
 * a failure about the request as sent is named here, "METHOD url: detail",
 * as the upload's other messages are.
 */
static enum status
tusc_perform(struct http_client *c, const struct http_request *req,
    struct http_response *resp, char **cause)
{
	enum status	 st;
	char		*bare;

	st = http_perform(c, req, resp, cause);
	if (st != STATUS_OK && resp->detail != NULL && cause != NULL &&
	    *cause != NULL) {
		bare = *cause;
		*cause = xprintf("%s %s: %s", resp->method, resp->path, bare);
		free(bare);
	}
	return (st);
}

enum status
tusc_create(struct http_client *c, const struct tusc_options *o,
    long long size, char **url, char **uid, long *http_status, char **cause)
{
	struct http_request	 req;
	struct http_response	 resp;
	const char		*headers[5], *loc, *id;
	char			*path, *h_len, *h_meta = NULL, *h_creator = NULL;
	char			*meta;
	enum status		 st;
	size_t			 n = 0;

	*url = *uid = NULL;
	path = xprintf("/accounts/%s/stream", o->account);
	h_len = xprintf("Upload-Length: %lld", size);
	headers[n++] = "Tus-Resumable: " TUSC_VERSION;
	headers[n++] = h_len;
	if ((meta = tusc_metadata(&o->meta)) != NULL) {
		h_meta = xprintf("Upload-Metadata: %s", meta);
		headers[n++] = h_meta;
		free(meta);
	}
	if (o->creator != NULL) {
		h_creator = xprintf("Upload-Creator: %s", o->creator);
		headers[n++] = h_creator;
	}
	headers[n] = NULL;
	memset(&req, 0, sizeof req);
	req.method = "POST";
	req.path = path;
	req.headers = headers;
	req.raw = 1;
	req.no_retry = 1;
	st = tusc_perform(c, &req, &resp, cause);
	*http_status = resp.http_status;
	if (st != STATUS_OK)
		goto out;
	loc = http_response_header(&resp, "Location");
	if (loc == NULL || *loc == '\0' || (*url = tusc_resolve(o->base_url,
	    path, loc)) == NULL) {
		xasprintf(cause, "POST %s: HTTP %ld without a usable Location "
		    "header", path, resp.http_status);
		st = STATUS_PARSE;
		goto out;
	}
	/*
	 * Cloudflare: take the id from stream-media-id, not the URL. A plain
	 * tus server, or a proxy that drops the header, leaves the Location's
	 * last segment.
	 */
	if ((id = http_response_header(&resp, "stream-media-id")) != NULL &&
	    *id != '\0')
		*uid = xstrdup(id);
	else if ((*uid = tusc_location_id(*url)) == NULL) {
		xasprintf(cause, "POST %s: no stream-media-id header, and no "
		    "id at the end of the Location %s", path, *url);
		free(*url);
		*url = NULL;
		st = STATUS_PARSE;
		goto out;
	}
out:
	http_response_free(&resp);
	free(path);
	free(h_len);
	free(h_meta);
	free(h_creator);
	return (st);
}

enum status
tusc_head(struct http_client *c, const char *url, long long *offset,
    long long *length, long *http_status, char **cause)
{
	struct http_request	 req;
	struct http_response	 resp;
	const char		*headers[] = { "Tus-Resumable: " TUSC_VERSION,
	    NULL };
	enum status		 st;

	memset(&req, 0, sizeof req);
	req.method = "HEAD";
	req.path = url;
	req.headers = headers;
	req.raw = 1;
	req.no_retry = 1;
	st = tusc_perform(c, &req, &resp, cause);
	*http_status = resp.http_status;
	if (st == STATUS_OK && tusc_parse_num(http_response_header(&resp,
	    "Upload-Offset"), offset) != 0) {
		xasprintf(cause, "HEAD %s: HTTP %ld without a valid "
		    "Upload-Offset", url, resp.http_status);
		st = STATUS_PARSE;
	}
	if (st == STATUS_OK && length != NULL && tusc_parse_num(
	    http_response_header(&resp, "Upload-Length"), length) != 0)
		*length = -1;
	http_response_free(&resp);
	return (st);
}

int
tusc_terminate(struct http_client *c, const char *url, char **cause)
{
	struct http_request	 req;
	struct http_response	 resp;
	const char		*headers[] = { "Tus-Resumable: " TUSC_VERSION,
	    NULL };
	enum status		 st;
	int			 rc = 0;

	memset(&req, 0, sizeof req);
	req.method = "DELETE";
	req.path = url;
	req.headers = headers;
	req.raw = 1;
	req.no_retry = 1;
	st = tusc_perform(c, &req, &resp, cause);
	if (st != STATUS_OK && resp.http_status != 404 &&
	    resp.http_status != 410)
		rc = -1;
	else if (st != STATUS_OK) {
		free(*cause);
		*cause = NULL;
	}
	http_response_free(&resp);
	return (rc);
}

/* The body of one PATCH: a window of the file. */
struct tusc_body {
	int		 fd;
	long long	 start;
	long long	 len;
	long long	 pos;
	tusc_progress_cb progress;
	void		*progress_arg;
	tusc_sent_cb	 sent;
	void		*sent_arg;
	long long	 total;
	int		 short_read;	/* the file ended before the chunk */
};

static size_t
tusc_read(char *data, size_t len, void *arg)
{
	struct tusc_body	*b = arg;
	ssize_t			 n;

	if ((long long)len > b->len - b->pos)
		len = (size_t)(b->len - b->pos);
	if (len == 0)
		return (0);
	do
		n = pread(b->fd, data, len, (off_t)(b->start + b->pos));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		b->short_read = 1;
		return (HTTP_READ_ABORT);	/* the file shrank or failed */
	}
	b->pos += n;
	return ((size_t)n);
}

static int
tusc_seek(void *arg, long long offset)
{
	struct tusc_body	*b = arg;

	if (offset < 0 || offset > b->len)
		return (-1);
	b->pos = offset;
	return (0);
}

/*
 * Bytes in the socket are not bytes stored: a proxy may buffer them, the
 * server may drop them. Only the offset the server acknowledged (where
 * this PATCH began) is reported as progress; the call is still made so a
 * stop asked for is seen while the chunk is on its way. The bytes sent so
 * far go to the sent callback, for a bar that moves within a chunk.
 */
static int
tusc_xfer(void *arg, long long dltotal, long long dlnow, long long ultotal,
    long long ulnow)
{
	struct tusc_body	*b = arg;

	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	if (b->sent != NULL && ulnow > 0)
		b->sent(b->start + MINIMUM(ulnow, b->len), b->total,
		    b->sent_arg);
	if (b->progress == NULL)
		return (0);
	return (b->progress(b->start, b->total, b->progress_arg));
}

enum status
tusc_patch(struct http_client *c, const char *url, int fd, long long offset,
    long long len, long long total, tusc_progress_cb progress, void *arg,
    tusc_sent_cb sent, void *sent_arg, long long *new_offset,
    long *http_status, char **cause)
{
	struct http_request	 req;
	struct http_response	 resp;
	struct tusc_body	 b;
	const char		*headers[4];
	char			*h_off;
	enum status		 st;

	h_off = xprintf("Upload-Offset: %lld", offset);
	headers[0] = "Tus-Resumable: " TUSC_VERSION;
	headers[1] = h_off;
	headers[2] = "Expect:";		/* no 100-continue round trip */
	headers[3] = NULL;
	memset(&b, 0, sizeof b);
	b.fd = fd;
	b.start = offset;
	b.len = len;
	b.progress = progress;
	b.progress_arg = arg;
	b.sent = sent;
	b.sent_arg = sent_arg;
	b.total = total;
	memset(&req, 0, sizeof req);
	req.method = "PATCH";
	req.path = url;
	req.headers = headers;
	req.read = tusc_read;
	req.seek = tusc_seek;
	req.read_arg = &b;
	req.read_len = len;
	req.content_type = TUSC_CONTENT_TYPE;
	req.raw = 1;
	req.no_retry = 1;
	req.progress = tusc_xfer;
	req.progress_arg = &b;
	st = tusc_perform(c, &req, &resp, cause);
	*http_status = resp.http_status;
	if (st != STATUS_OK && b.short_read) {
		/* Not curl's "aborted by callback": the file is to blame. */
		free(*cause);
		xasprintf(cause, "the file changed during the upload: it ends "
		    "before byte %lld, the end of the chunk being sent",
		    offset + len);
		*http_status = 0;
		st = STATUS_CONFLICT;
	}
	if (st == STATUS_OK && (tusc_parse_num(http_response_header(&resp,
	    "Upload-Offset"), new_offset) != 0 || *new_offset < offset ||
	    *new_offset > offset + len)) {
		xasprintf(cause, "PATCH %s: HTTP %ld without a valid "
		    "Upload-Offset", url, resp.http_status);
		st = STATUS_PARSE;
	}
	http_response_free(&resp);
	free(h_off);
	return (st);
}

/* ---- The blocking upload -------------------------------------------------- */

#define TUSC_HASH_BLOCK		(1024 * 1024)
#define TUSC_NS(ts)		((long long)(ts).tv_sec * 1000000000LL + \
				    (long long)(ts).tv_nsec)

struct tusc_run {
	struct http_client		*c;
	const struct tusc_options	*o;
	struct tusc_result		*r;
	struct tusc_entry		 e;	/* e.key NULL: no journal */
	struct tusc_retry		 retry;
	int				 fd;
	long long			 chunk;
	struct stat			 sb;	/* the file when opened */
	XXH3_state_t			*hash;	/* of the first hashed bytes */
	long long			 hashed;
	int				 locked;	/* 423 waits in a row */
};

static void printflike(2, 3)
tusc_notice(struct tusc_run *u, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (u->o->notice != NULL)
		u->o->notice(msg, u->o->notice_arg);
	else
		log_info("%s", msg);
	free(msg);
}

/* "12345 bytes" or "63.0 MiB", for messages. */
static const char *
tusc_size_text(long long n, char *buf, size_t len)
{
	if (n < 1024 * 1024)
		snprintf(buf, len, "%lld bytes", n);
	else
		snprintf(buf, len, "%.1f MiB", (double)n / (1024.0 * 1024));
	return (buf);
}

/*
 * The resume proof is XXH3-128: it tells changed bytes from the bytes
 * sent, which needs no cryptographic hash, at many times SHA-256's speed
 * (SHA-256 of the bytes acknowledged was most of an upload's CPU).
 */
static void
tusc_hash_reset(struct tusc_run *u)
{
	if (XXH3_128bits_reset(u->hash) != XXH_OK)
		fatalx("XXH3: cannot start a hash");
	u->hashed = 0;
}

/*
 * Move the running hash to the file's first end bytes, reading from the
 * file (from the start again if end is behind it). -1 if the file ends
 * first.
 */
static int
tusc_hash_to(struct tusc_run *u, long long end)
{
	unsigned char	*blk;
	ssize_t		 n;
	size_t		 want;
	int		 rc = 0;

	if (end < u->hashed)
		tusc_hash_reset(u);
	blk = xmalloc(TUSC_HASH_BLOCK);
	while (u->hashed < end) {
		want = end - u->hashed < TUSC_HASH_BLOCK ?
		    (size_t)(end - u->hashed) : TUSC_HASH_BLOCK;
		n = pread(u->fd, blk, want, (off_t)u->hashed);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = -1;
			break;
		}
		if (XXH3_128bits_update(u->hash, blk, (size_t)n) != XXH_OK)
			fatalx("XXH3: hash update failed");
		u->hashed += n;
	}
	free(blk);
	return (rc);
}

/* The running hash's value so far, as hex; the hash goes on. */
static char *
tusc_hash_hex(struct tusc_run *u)
{
	XXH128_canonical_t	 c;
	char			*hex;
	size_t			 i;

	XXH128_canonicalFromHash(&c, XXH3_128bits_digest(u->hash));
	hex = xmalloc(2 * sizeof c.digest + 1);
	for (i = 0; i < sizeof c.digest; i++)
		snprintf(hex + 2 * i, 3, "%02x", c.digest[i]);
	return (hex);
}

/*
 * A journal written before XXH3 holds the SHA-256 of the first len bytes:
 * checked once, reading them again; the run then goes on with XXH3.
 * 1 same, 0 different, -1 when the file is shorter.
 */
static int
tusc_sha256_same(struct tusc_run *u, long long len, const char *want)
{
	EVP_MD_CTX	*md;
	unsigned char	*blk, d[EVP_MAX_MD_SIZE];
	unsigned int	 dlen, i;
	long long	 at = 0;
	ssize_t		 n;
	char		 hex[2 * EVP_MAX_MD_SIZE + 1];
	int		 rc = 1;

	if ((md = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1)
		fatalx("SHA-256: cannot start a digest");
	blk = xmalloc(TUSC_HASH_BLOCK);
	while (at < len && rc == 1) {
		n = pread(u->fd, blk, len - at < TUSC_HASH_BLOCK ?
		    (size_t)(len - at) : TUSC_HASH_BLOCK, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = -1;
		else if (EVP_DigestUpdate(md, blk, (size_t)n) != 1)
			fatalx("SHA-256: digest update failed");
		else
			at += n;
	}
	free(blk);
	if (rc == 1) {
		if (EVP_DigestFinal_ex(md, d, &dlen) != 1)
			fatalx("SHA-256: cannot finish a digest");
		for (i = 0; i < dlen; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
		rc = strcmp(hex, want) == 0;
	}
	EVP_MD_CTX_free(md);
	return (rc);
}

/* The file's identity now, into the entry (for the next resume). */
static void
tusc_entry_stamp(struct tusc_run *u)
{
	u->e.ino = (long long)u->sb.st_ino;
	u->e.mtime_ns = TUSC_NS(u->sb.st_mtim);
	u->e.ctime_ns = TUSC_NS(u->sb.st_ctim);
}

/* A transport failure or a server error that may pass: try again. */
static int
tusc_retryable(enum status st, long http_status)
{
	if (st == STATUS_CANCELLED)
		return (0);
	if (http_status == 0)
		return (st == STATUS_TRANSPORT || st == STATUS_TIMEOUT);
	return (http_status >= 500 || http_status == 408 ||
	    http_status == 423 || http_status == 429);
}

static void
tusc_pause(struct tusc_run *u, long seconds)
{
	if (seconds <= 0)
		return;
	if (u->o->sleep != NULL)
		u->o->sleep(seconds, u->o->sleep_arg);
	else
		sleep((unsigned int)seconds);
}

/* Sleep before the next attempt; -1 once the delays are used up. */
static int
tusc_wait(struct tusc_run *u, long long offset)
{
	long	 d = tusc_retry_next(&u->retry, offset);

	if (d < 0)
		return (-1);
	u->r->retries++;
	tusc_pause(u, d);
	return (0);
}

/*
 * 423: a request of ours the server has not finished holds the upload (a
 * PATCH cut by a crash, until the server's read timeout ends it). That is
 * no failure and it passes: back off as retry.c does, on a count of its
 * own, and say why the upload is waiting.
 */
static int
tusc_wait_locked(struct tusc_run *u)
{
	long	 d;

	if (u->locked >= TUSC_LOCKED_MAX)
		return (-1);
	d = (retry_backoff_ms(u->locked, 0) + 999) / 1000;
	u->locked++;
	u->r->retries++;
	tusc_notice(u, "%s: the server is still finishing the previous "
	    "request; trying again in %ld s", u->o->file, d);
	tusc_pause(u, d);
	return (0);
}

/* Journal failures never stop an upload: they only cost resuming. */
static void
tusc_journal_save(struct tusc_run *u)
{
	char	*cause = NULL;

	if (u->e.key == NULL)
		return;
	if (tusc_journal_put(u->o->state_dir, &u->e, &cause) != 0) {
		log_warn("upload journal: %s", cause);
		free(cause);
	}
}

static void
tusc_journal_drop(struct tusc_run *u)
{
	char	*cause = NULL;

	if (u->e.key == NULL)
		return;
	if (tusc_journal_remove(u->o->state_dir, u->e.key, &cause) != 0) {
		log_warn("upload journal: %s", cause);
		free(cause);
	}
}

/* Forget the upload of the entry (the file, key and identity stay). */
static void
tusc_entry_forget(struct tusc_run *u)
{
	free(u->e.url);
	free(u->e.uid);
	free(u->e.xxh3);
	free(u->e.sha256);
	u->e.url = u->e.uid = u->e.xxh3 = u->e.sha256 = NULL;
	u->e.offset = 0;
}

/* Open the file and work out its journal key. */
static enum status
tusc_open(struct tusc_run *u, char **cause)
{
	const struct tusc_options	*o = u->o;
	struct stat			*sb = &u->sb;
	char				*jcause = NULL, *key;
	int				 found;

	if ((u->fd = open(o->file, O_RDONLY | O_CLOEXEC)) < 0) {
		xasprintf(cause, "%s: %s", o->file, strerror(errno));
		return (errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO);
	}
	if (fstat(u->fd, sb) != 0) {
		xasprintf(cause, "%s: %s", o->file, strerror(errno));
		return (STATUS_IO);
	}
	if (!S_ISREG(sb->st_mode)) {
		xasprintf(cause, "%s: not a regular file", o->file);
		return (STATUS_INVALID);
	}
	u->r->size = sb->st_size;
	if (o->state_dir == NULL)
		return (STATUS_OK);
	key = tusc_journal_key(o->file, sb->st_size, sb->st_mtime,
	    o->base_url, o->account);
	found = tusc_journal_get(o->state_dir, key, &u->e, &jcause);
	if (found < 0) {
		log_warn("upload journal: %s", jcause);
		free(jcause);
	}
	if (found == 1) {
		free(key);
		return (STATUS_OK);
	}
	u->e.key = key;
	if ((u->e.file = realpath(o->file, NULL)) == NULL)
		u->e.file = xstrdup(o->file);
	u->e.size = sb->st_size;
	u->e.mtime = sb->st_mtime;
	u->e.base_url = xstrdup(o->base_url != NULL ? o->base_url : "");
	u->e.account = xstrdup(o->account);
	tusc_entry_stamp(u);
	return (STATUS_OK);
}

/*
 * What to do with an upload no run can resume: a finished one is a video
 * (the client died before it could forget it) and stays; one the server
 * forgot (expired) needs nothing; any other is terminated, so it does not
 * stay a pendingupload video. 0 with *what saying which, or -1 with
 * *cause (then the entry is kept, to try again).
 */
static int
tusc_end_upload(struct tusc_run *u, const struct tusc_entry *e,
    const char **what, char **cause)
{
	long long	 offset, length;
	enum status	 st;
	long		 hs;

	st = tusc_head(u->c, e->url, &offset, &length, &hs, cause);
	if (st != STATUS_OK && (hs == 404 || hs == 410 || hs == 403)) {
		free(*cause);
		*cause = NULL;
		*what = "had expired on the server";
		return (0);
	}
	if (st != STATUS_OK)
		return (-1);
	if (offset == (length >= 0 ? length : e->size)) {
		*what = "had finished: the video is kept";
		return (0);
	}
	if (tusc_terminate(u->c, e->url, cause) != 0)
		return (-1);
	*what = "was deleted";
	return (0);
}

/*
 * Uploads of this server and account whose file is gone or changed (so
 * no run can ever resume them: their key is the file's old size and
 * mtime) are ended and dropped from the journal. One that cannot be
 * ended stays in the journal, and is named.
 */
static void
tusc_sweep(struct tusc_run *u)
{
	const struct tusc_options	*o = u->o;
	struct tusc_entry		*list = NULL, *e;
	struct stat			 sb;
	char				*cause = NULL, *key;
	const char			*why, *what;
	size_t				 n = 0, i;

	if (tusc_journal_list(o->state_dir, &list, &n, &cause) != 0) {
		log_warn("upload journal: %s", cause);
		free(cause);
		return;
	}
	for (i = 0; i < n; i++) {
		e = &list[i];
		if (e->base_url == NULL || e->account == NULL ||
		    strcmp(e->base_url, o->base_url != NULL ? o->base_url :
		    "") != 0 || strcmp(e->account, o->account) != 0 ||
		    strcmp(e->key, u->e.key) == 0 || e->file == NULL)
			continue;
		if (stat(e->file, &sb) != 0) {
			if (errno != ENOENT)
				continue;
			why = "is gone";
		} else {
			key = tusc_journal_key(e->file, sb.st_size,
			    sb.st_mtime, e->base_url, e->account);
			why = strcmp(key, e->key) != 0 ? "changed" : NULL;
			free(key);
			if (why == NULL)
				continue;
		}
		if (tusc_end_upload(u, e, &what, &cause) != 0) {
			tusc_notice(u, "%s %s since its upload began; its "
			    "unfinished video %s stays listed: %s", e->file,
			    why, e->uid, cause);
			free(cause);
			cause = NULL;
			continue;
		}
		if (tusc_journal_remove(o->state_dir, e->key, &cause) != 0) {
			log_warn("upload journal: %s", cause);
			free(cause);
			cause = NULL;
		}
		tusc_notice(u, "%s %s since its upload began: its upload "
		    "(video %s) %s", e->file, why, e->uid, what);
	}
	tusc_entries_free(list, n);
}

/* HEAD the stored URL: its offset, or -1 when the server forgot it. */
static enum status
tusc_resume(struct tusc_run *u, long long *offset, char **cause)
{
	enum status	 st;
	long		 hs;

	for (;;) {
		free(*cause);
		*cause = NULL;
		st = tusc_head(u->c, u->e.url, offset, NULL, &hs, cause);
		u->r->http_status = hs;
		if (st == STATUS_OK)
			return (st);
		if (hs == 404 || hs == 410 || hs == 403) {
			*offset = -1;
			free(*cause);
			*cause = NULL;
			u->r->http_status = 0;
			return (STATUS_OK);
		}
		if (hs == 423) {
			if (tusc_wait_locked(u) != 0)
				return (st);
		} else if (!tusc_retryable(st, hs) || tusc_wait(u, 0) != 0)
			return (st);
	}
}

/*
 * May the upload go on from offset, the server's? Only if the file's
 * first offset bytes are the bytes that were sent; size and whole-second
 * mtime (the key) say nothing of that, since a file can be rewritten and
 * its times set back. The journal holds, for the last offset L the
 * server acknowledged, the XXH3-128 of the file's first L bytes, hashed
 * as each acknowledgement came (the run checks after each one that the
 * file's size and nanosecond mtime did not move since it was opened, so
 * the bytes hashed are the bytes that went out). TUS cannot rewind, so a
 * resume must continue at exactly the server's offset:
 * - offset == L (a stop, a failure answered or seen by HEAD): hash the
 *   file's first L bytes and compare; that is the proof.
 * - offset > L: the run ended (killed) in the middle of a PATCH whose
 *   bytes the server kept without our hearing of it. The first L bytes
 *   are proven by the hash; the rest, at most a chunk, were never
 *   recorded, so the file must also be the same inode with the same size,
 *   mtime and ctime (nanoseconds) as when sent. ctime cannot be set back
 *   by a user (utimensat itself moves it), so any rewrite since shows.
 * - offset < L: the server lost what it acknowledged; nothing to prove.
 * A refusal starts afresh: the local file is whole, the old upload holds
 * only part of other bytes, so nothing is lost but time.
 */
static int
tusc_verify(struct tusc_run *u, long long offset, char **why)
{
	const struct tusc_entry	*e = &u->e;
	char			 a[32], b[32], *hex;
	int			 same;

	if (e->xxh3 == NULL && e->sha256 == NULL) {
		*why = xstrdup("the journal has no checksum of the bytes "
		    "sent");
		return (-1);
	}
	if (offset < e->offset) {
		xasprintf(why, "the server holds %s, less than the %s it "
		    "acknowledged", tusc_size_text(offset, a, sizeof a),
		    tusc_size_text(e->offset, b, sizeof b));
		return (-1);
	}
	if (e->xxh3 == NULL) {
		/* Proven by an older journal's SHA-256, then XXH3 on. */
		same = tusc_sha256_same(u, e->offset, e->sha256);
		if (same == 1 && tusc_hash_to(u, e->offset) != 0)
			same = -1;
		if (same == 1) {
			free(u->e.sha256);
			u->e.sha256 = NULL;
			u->e.xxh3 = tusc_hash_hex(u);
		}
	} else if (tusc_hash_to(u, e->offset) != 0)
		same = -1;
	else {
		hex = tusc_hash_hex(u);
		same = strcmp(hex, e->xxh3) == 0;
		free(hex);
	}
	if (same == -1) {
		xasprintf(why, "it is shorter than the %s sent",
		    tusc_size_text(e->offset, a, sizeof a));
		return (-1);
	}
	if (!same) {
		xasprintf(why, "its first %s differ from the bytes sent",
		    tusc_size_text(e->offset, a, sizeof a));
		return (-1);
	}
	if (offset == e->offset)
		return (0);
	if (e->ino != (long long)u->sb.st_ino || e->size != u->sb.st_size ||
	    e->mtime_ns != TUSC_NS(u->sb.st_mtim) ||
	    e->ctime_ns != TUSC_NS(u->sb.st_ctim)) {
		xasprintf(why, "it was modified, and the server's bytes after "
		    "the first %s cannot be checked", tusc_size_text(e->offset,
		    a, sizeof a));
		return (-1);
	}
	if (tusc_hash_to(u, offset) != 0) {
		*why = xstrdup("it is shorter than the bytes sent");
		return (-1);
	}
	return (0);
}

/*
 * The server forgot the upload (why NULL) or the file is not what was
 * sent. An upload the server has whole (offset at the size) is a video
 * of the earlier contents: it is kept, not deleted.
 */
static void
tusc_refuse(struct tusc_run *u, const char *why, long long offset)
{
	char	*cause = NULL;

	if (why == NULL)
		tusc_notice(u, "%s: the server no longer has the unfinished "
		    "upload: starting afresh", u->o->file);
	else if (offset == u->e.size)
		tusc_notice(u, "%s changed since the upload began (%s): "
		    "starting afresh; video %s, finished with the earlier "
		    "contents, is kept", u->o->file, why, u->e.uid);
	else if (tusc_terminate(u->c, u->e.url, &cause) == 0)
		tusc_notice(u, "%s changed since the upload began (%s): "
		    "starting afresh; the unfinished video %s was deleted",
		    u->o->file, why, u->e.uid);
	else {
		tusc_notice(u, "%s changed since the upload began (%s): "
		    "starting afresh; the unfinished video %s could not be "
		    "deleted: %s", u->o->file, why, u->e.uid, cause);
		free(cause);
	}
	tusc_journal_drop(u);
	tusc_entry_forget(u);
	tusc_entry_stamp(u);
	tusc_hash_reset(u);
	u->r->http_status = 0;
}

static enum status
tusc_start(struct tusc_run *u, char **cause)
{
	enum status	 st;
	long		 hs;

	for (;;) {
		free(*cause);
		*cause = NULL;
		st = tusc_create(u->c, u->o, u->r->size, &u->e.url, &u->e.uid,
		    &hs, cause);
		u->r->http_status = hs;
		if (st == STATUS_OK)
			break;
		if (!tusc_retryable(st, hs) || tusc_wait(u, 0) != 0)
			return (st);
	}
	u->e.created = time(NULL);
	u->e.offset = 0;
	tusc_hash_reset(u);
	free(u->e.xxh3);
	u->e.xxh3 = tusc_hash_hex(u);
	tusc_journal_save(u);
	return (STATUS_OK);
}

/*
 * The server holds the first offset bytes: record their hash, after
 * checking the file did not change since it was opened (any write moves
 * its mtime), so what is hashed now is what was sent.
 */
static enum status
tusc_acked(struct tusc_run *u, long long offset, char **cause)
{
	struct stat	 sb;
	char		 a[32];

	if (fstat(u->fd, &sb) != 0 || sb.st_size != u->sb.st_size ||
	    TUSC_NS(sb.st_mtim) != TUSC_NS(u->sb.st_mtim) ||
	    tusc_hash_to(u, offset) != 0) {
		free(*cause);
		xasprintf(cause, "%s changed during the upload (the server "
		    "holds its first %s as they were); run the upload again "
		    "to start afresh", u->o->file, tusc_size_text(offset, a,
		    sizeof a));
		u->r->http_status = 0;
		return (STATUS_CONFLICT);
	}
	u->e.offset = offset;
	free(u->e.xxh3);
	u->e.xxh3 = tusc_hash_hex(u);
	if (offset < u->r->size)
		tusc_journal_save(u);
	return (STATUS_OK);
}

/* PATCH until done; after a failure HEAD says where to go on from. */
static enum status
tusc_send(struct tusc_run *u, long long offset, char **cause)
{
	const struct tusc_options	*o = u->o;
	long long			 size = u->r->size, len, next;
	enum status			 st = STATUS_OK;
	long				 hs;
	int				 sync = 0;

	tusc_retry_init(&u->retry, offset);
	for (;;) {
		if (sync) {
			free(*cause);
			*cause = NULL;
			st = tusc_head(u->c, u->e.url, &next, NULL, &hs, cause);
			u->r->http_status = hs;
			if (st == STATUS_OK) {
				if ((st = tusc_acked(u, next, cause)) !=
				    STATUS_OK)
					return (st);
				offset = next;
				sync = 0;
			} else if (hs == 404 || hs == 410)
				goto gone;
			else if (hs == 423 ? tusc_wait_locked(u) != 0 :
			    !tusc_retryable(st, hs) || tusc_wait(u, offset) != 0)
				return (st);
			else
				continue;
		}
		if (offset >= size)
			return (STATUS_OK);
		len = tusc_chunk_len(offset, size, u->chunk);
		free(*cause);
		*cause = NULL;
		u->r->patches++;
		st = tusc_patch(u->c, u->e.url, u->fd, offset, len, size,
		    o->progress, o->progress_arg, o->sent, o->sent_arg, &next,
		    &hs, cause);
		u->r->http_status = hs;
		if (st == STATUS_OK && next == offset) {
			/* Nothing stored: a server answering so forever
			 * would keep the loop going; count it a failure. */
			xasprintf(cause, "PATCH %s: the server stored none of "
			    "the %lld bytes sent", u->e.url, len);
			if (tusc_wait(u, offset) != 0)
				return (STATUS_SERVER);
			continue;
		}
		if (st == STATUS_OK) {
			u->locked = 0;
			if ((st = tusc_acked(u, next, cause)) != STATUS_OK)
				return (st);
			offset = next;
			if (o->progress != NULL && o->progress(offset, size,
			    o->progress_arg) != 0 && offset < size) {
				xasprintf(cause, "upload of %s stopped at "
				    "%lld of %lld bytes", o->file, offset,
				    size);
				return (STATUS_CANCELLED);
			}
			continue;
		}
		if (st == STATUS_CONFLICT && hs == 0)
			return (st);		/* the file changed */
		if (hs == 404 || hs == 410)
			goto gone;
		if (hs == 423) {
			if (tusc_wait_locked(u) != 0)
				return (st);
		} else if ((hs != 409 && !tusc_retryable(st, hs)) ||
		    tusc_wait(u, offset) != 0)
			return (st);
		/* 409: our offset is stale; HEAD tells the server's. */
		sync = 1;
	}
gone:
	tusc_journal_drop(u);
	free(*cause);
	xasprintf(cause, "upload %s is gone from the server (HTTP %ld); "
	    "run the upload again to start afresh", u->e.url, hs);
	return (STATUS_GONE);
}

/* A finished upload remembered: the same file again is said to be there. */
static void
tusc_uploaded(struct tusc_run *u)
{
	char	*cause = NULL;

	if (u->e.key == NULL || u->e.uid == NULL || *u->e.uid == '\0')
		return;
	if (uploaded_put(u->o->state_dir, u->e.key, u->e.uid, &cause) != 0) {
		log_warn("upload journal: %s", cause);
		free(cause);
	}
}

/* Continue the journal's upload of the file, or start a new one. */
static enum status
tusc_begin(struct tusc_run *u, long long *offset, char **cause)
{
	enum status	 st;
	char		*why = NULL;

	*offset = -1;
	if (u->e.url != NULL) {
		if ((st = tusc_resume(u, offset, cause)) != STATUS_OK)
			return (st);
		if (*offset < 0)
			tusc_refuse(u, NULL, -1);
		else if (tusc_verify(u, *offset, &why) != 0) {
			tusc_refuse(u, why, *offset);
			free(why);
		} else {
			u->r->resumed_from = *offset;
			tusc_entry_stamp(u);
		}
	}
	if (u->e.url == NULL) {
		if ((st = tusc_start(u, cause)) != STATUS_OK)
			return (st);
		*offset = 0;
	}
	return (STATUS_OK);
}

enum status
tusc_upload(struct http_client *c, const struct tusc_options *o,
    struct tusc_result *r, char **cause)
{
	struct tusc_run	 u;
	long long	 offset = -1;
	enum status	 st;

	*cause = NULL;
	memset(r, 0, sizeof *r);
	r->resumed_from = -1;
	memset(&u, 0, sizeof u);
	u.c = c;
	u.o = o;
	u.r = r;
	u.fd = -1;
	u.chunk = o->chunk_size != 0 ? o->chunk_size : TUSC_CHUNK_DEFAULT;
	if ((u.hash = XXH3_createState()) == NULL)
		fatalx("XXH3: out of memory");
	tusc_hash_reset(&u);
	if (o->account == NULL || *o->account == '\0') {
		*cause = xstrdup("an upload needs an account");
		st = STATUS_USAGE;
		goto out;
	}
	if (tusc_chunk_check(u.chunk, cause) != 0) {
		st = STATUS_INVALID;
		goto out;
	}
	if ((st = tusc_open(&u, cause)) != STATUS_OK)
		goto out;
	if (u.e.key != NULL)
		tusc_sweep(&u);
	tusc_retry_init(&u.retry, 0);
	if ((st = tusc_begin(&u, &offset, cause)) != STATUS_OK)
		goto out;
	r->url = xstrdup(u.e.url);
	r->uid = xstrdup(u.e.uid != NULL ? u.e.uid : "");
	if (o->progress != NULL && offset > 0)
		(void)o->progress(offset, r->size, o->progress_arg);
	if ((st = tusc_send(&u, offset, cause)) == STATUS_OK) {
		tusc_journal_drop(&u);
		tusc_uploaded(&u);
	}
out:
	if (st == STATUS_OK) {
		free(*cause);
		*cause = NULL;
	}
	if (u.fd >= 0)
		close(u.fd);
	XXH3_freeState(u.hash);
	tusc_entry_free(&u.e);
	r->status = st;
	return (st);
}

void
tusc_result_free(struct tusc_result *r)
{
	free(r->uid);
	free(r->url);
	r->uid = r->url = NULL;
}
