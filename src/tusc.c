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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "buf.h"
#include "http.h"
#include "log.h"
#include "tusc.h"
#include "xmalloc.h"

#define TUSC_JOURNAL_MAX	(16 * 1024 * 1024)

static const long tusc_delays[TUSC_RETRY_MAX] = TUSC_RETRY_DELAYS;

/* ---- Pure pieces ---------------------------------------------------------- */

int
tusc_chunk_check(long long size, char **cause)
{
	if (size < TUSC_CHUNK_MIN || size > TUSC_CHUNK_MAX) {
		xasprintf(cause, "chunk size %lld: Stream takes chunks of "
		    "%lld (5 MiB) to %lld (200 MiB) bytes", size,
		    TUSC_CHUNK_MIN, TUSC_CHUNK_MAX);
		return (-1);
	}
	if (size % TUSC_CHUNK_ALIGN != 0) {
		xasprintf(cause, "chunk size %lld: Stream needs a multiple "
		    "of %lld (256 KiB), such as %lld", size, TUSC_CHUNK_ALIGN,
		    size / TUSC_CHUNK_ALIGN * TUSC_CHUNK_ALIGN);
		return (-1);
	}
	return (0);
}

long long
tusc_chunk_len(long long offset, long long size, long long chunk)
{
	if (offset >= size)
		return (0);
	return (size - offset < chunk ? size - offset : chunk);
}

char *
tusc_base64(const void *data, size_t len)
{
	static const char	 a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*p = data;
	char			*out, *o;
	size_t			 i;
	unsigned long		 v;

	out = o = xmalloc((len + 2) / 3 * 4 + 1);
	for (i = 0; i + 2 < len; i += 3) {
		v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 |
		    p[i + 2];
		*o++ = a[v >> 18 & 63];
		*o++ = a[v >> 12 & 63];
		*o++ = a[v >> 6 & 63];
		*o++ = a[v & 63];
	}
	if (i < len) {
		v = (unsigned long)p[i] << 16;
		if (i + 1 < len)
			v |= (unsigned long)p[i + 1] << 8;
		*o++ = a[v >> 18 & 63];
		*o++ = a[v >> 12 & 63];
		*o++ = i + 1 < len ? a[v >> 6 & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return (out);
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

static int
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
	st = http_perform(c, &req, &resp, cause);
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
	/* Cloudflare: take the id from stream-media-id, not the URL. */
	if ((id = http_response_header(&resp, "stream-media-id")) == NULL ||
	    *id == '\0') {
		xasprintf(cause, "POST %s: no stream-media-id header", path);
		free(*url);
		*url = NULL;
		st = STATUS_PARSE;
		goto out;
	}
	*uid = xstrdup(id);
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
	st = http_perform(c, &req, &resp, cause);
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

/* The body of one PATCH: a window of the file. */
struct tusc_body {
	int		 fd;
	long long	 start;
	long long	 len;
	long long	 pos;
	tusc_progress_cb progress;
	void		*progress_arg;
	long long	 total;
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
	if (n <= 0)
		return (HTTP_READ_ABORT);	/* the file shrank or failed */
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

/* The end of a chunk is reported once acknowledged, not once sent. */
static int
tusc_xfer(void *arg, long long dltotal, long long dlnow, long long ultotal,
    long long ulnow)
{
	struct tusc_body	*b = arg;

	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	if (b->progress == NULL || ulnow <= 0 || ulnow >= b->len)
		return (0);
	return (b->progress(b->start + ulnow, b->total, b->progress_arg));
}

enum status
tusc_patch(struct http_client *c, const char *url, int fd, long long offset,
    long long len, long long total, tusc_progress_cb progress, void *arg,
    long long *new_offset, long *http_status, char **cause)
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
	st = http_perform(c, &req, &resp, cause);
	*http_status = resp.http_status;
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

/* ---- The resume journal --------------------------------------------------- */

char *
tusc_journal_key(const char *file, long long size, long long mtime,
    const char *base_url, const char *account)
{
	char	*abs, *key;

	if ((abs = realpath(file, NULL)) == NULL)
		abs = xstrdup(file);
	key = xprintf("%s|%s|%lld|%lld|%s", base_url != NULL ? base_url : "",
	    account != NULL ? account : "", size, mtime, abs);
	free(abs);
	return (key);
}

void
tusc_entry_free(struct tusc_entry *e)
{
	free(e->key);
	free(e->file);
	free(e->base_url);
	free(e->account);
	free(e->url);
	free(e->uid);
	memset(e, 0, sizeof *e);
}

void
tusc_entries_free(struct tusc_entry *e, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		tusc_entry_free(&e[i]);
	free(e);
}

static char *
tusc_json_str(const cJSON *o, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, name);

	return (cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL);
}

static long long
tusc_json_num(const cJSON *o, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, name);

	return (cJSON_IsNumber(v) ? (long long)v->valuedouble : 0);
}

/* An entry from JSON; -1 when a field it cannot do without is missing. */
static int
tusc_entry_from_json(const cJSON *o, struct tusc_entry *e)
{
	memset(e, 0, sizeof *e);
	e->key = tusc_json_str(o, "key");
	e->file = tusc_json_str(o, "file");
	e->base_url = tusc_json_str(o, "base_url");
	e->account = tusc_json_str(o, "account");
	e->url = tusc_json_str(o, "url");
	e->uid = tusc_json_str(o, "uid");
	e->size = tusc_json_num(o, "size");
	e->mtime = tusc_json_num(o, "mtime");
	e->created = (time_t)tusc_json_num(o, "created");
	e->offset = tusc_json_num(o, "offset");
	if (e->key == NULL || e->url == NULL) {
		tusc_entry_free(e);
		return (-1);
	}
	return (0);
}

static cJSON *
tusc_entry_to_json(const struct tusc_entry *e)
{
	cJSON	*o;

	if ((o = cJSON_CreateObject()) == NULL)
		fatalx("cJSON: out of memory");
	cJSON_AddStringToObject(o, "key", e->key);
	cJSON_AddStringToObject(o, "file", e->file != NULL ? e->file : "");
	cJSON_AddNumberToObject(o, "size", (double)e->size);
	cJSON_AddNumberToObject(o, "mtime", (double)e->mtime);
	cJSON_AddStringToObject(o, "base_url", e->base_url != NULL ?
	    e->base_url : "");
	cJSON_AddStringToObject(o, "account", e->account != NULL ?
	    e->account : "");
	cJSON_AddStringToObject(o, "url", e->url);
	cJSON_AddStringToObject(o, "uid", e->uid != NULL ? e->uid : "");
	cJSON_AddNumberToObject(o, "created", (double)e->created);
	cJSON_AddNumberToObject(o, "offset", (double)e->offset);
	return (o);
}

/* Serialise read-modify-write between processes and threads' fds. */
static int
tusc_journal_lock(const char *dir, char **cause)
{
	char	*path = xprintf("%s/%s.lock", dir, TUSC_JOURNAL_FILE);
	int	 fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		xasprintf(cause, "%s: %s", path, strerror(errno));
	else if (flock(fd, LOCK_EX) != 0) {
		xasprintf(cause, "%s: lock: %s", path, strerror(errno));
		close(fd);
		fd = -1;
	}
	free(path);
	return (fd);
}

/* The array of entries; an absent file is an empty one. */
static cJSON *
tusc_journal_read(const char *dir, char **cause)
{
	char		*path = xprintf("%s/%s", dir, TUSC_JOURNAL_FILE);
	struct buf	 b = BUF_INITIALIZER;
	char		 tmp[8192];
	cJSON		*root = NULL, *arr;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			root = cJSON_CreateArray();
		else
			xasprintf(cause, "%s: %s", path, strerror(errno));
		goto out;
	}
	while ((n = read(fd, tmp, sizeof tmp)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || b.len + (size_t)n > TUSC_JOURNAL_MAX) {
			xasprintf(cause, "%s: %s", path, n < 0 ?
			    strerror(errno) : "too large");
			close(fd);
			goto out;
		}
		buf_add(&b, tmp, (size_t)n);
	}
	close(fd);
	root = cJSON_ParseWithLength(b.data != NULL ? b.data : "", b.len);
	arr = cJSON_GetObjectItemCaseSensitive(root, "uploads");
	if (!cJSON_IsArray(arr)) {
		xasprintf(cause, "%s: not an upload journal; remove it to "
		    "start afresh", path);
		cJSON_Delete(root);
		root = NULL;
		goto out;
	}
	cJSON_DetachItemViaPointer(root, arr);
	cJSON_Delete(root);
	root = arr;
out:
	buf_free(&b);
	free(path);
	return (root);
}

static int
tusc_write_all(int fd, const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		if ((n = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/* Temp file, fsync, rename: a crash leaves the old or the new journal. */
static int
tusc_journal_write(const char *dir, cJSON *arr, char **cause)
{
	char	*path = xprintf("%s/%s", dir, TUSC_JOURNAL_FILE);
	char	*tmp = xprintf("%s/.%s.XXXXXX", dir, TUSC_JOURNAL_FILE);
	cJSON	*root;
	char	*text;
	int	 fd, rc = -1, dfd;

	if ((root = cJSON_CreateObject()) == NULL)
		fatalx("cJSON: out of memory");
	cJSON_AddItemReferenceToObject(root, "uploads", arr);
	if ((text = cJSON_Print(root)) == NULL)
		fatalx("cJSON: out of memory");
	cJSON_Delete(root);
	if ((fd = mkstemp(tmp)) < 0) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fchmod(fd, 0600) != 0 || tusc_write_all(fd, text,
	    strlen(text)) != 0 || tusc_write_all(fd, "\n", 1) != 0 ||
	    fsync(fd) != 0) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	if (rename(tmp, path) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	rc = 0;
out:
	free(text);
	free(tmp);
	free(path);
	return (rc);
}

static cJSON *
tusc_journal_find(cJSON *arr, const char *key)
{
	cJSON		*o;
	const cJSON	*k;

	cJSON_ArrayForEach(o, arr) {
		k = cJSON_GetObjectItemCaseSensitive(o, "key");
		if (cJSON_IsString(k) && strcmp(k->valuestring, key) == 0)
			return (o);
	}
	return (NULL);
}

int
tusc_journal_get(const char *dir, const char *key, struct tusc_entry *e,
    char **cause)
{
	cJSON	*arr, *o;
	int	 lock, rc = 0;

	if ((lock = tusc_journal_lock(dir, cause)) < 0)
		return (-1);
	if ((arr = tusc_journal_read(dir, cause)) == NULL)
		rc = -1;
	else if ((o = tusc_journal_find(arr, key)) != NULL)
		rc = tusc_entry_from_json(o, e) == 0 ? 1 : 0;
	cJSON_Delete(arr);
	close(lock);
	return (rc);
}

/* Change the journal under its lock: put e, or remove key if e is NULL. */
static int
tusc_journal_change(const char *dir, const char *key,
    const struct tusc_entry *e, char **cause)
{
	cJSON	*arr, *o;
	int	 lock, rc = -1;

	if ((lock = tusc_journal_lock(dir, cause)) < 0)
		return (-1);
	if ((arr = tusc_journal_read(dir, cause)) == NULL)
		goto out;
	o = tusc_journal_find(arr, key);
	if (e == NULL && o == NULL) {
		rc = 0;
		goto out;
	}
	if (e == NULL)
		cJSON_Delete(cJSON_DetachItemViaPointer(arr, o));
	else if (o != NULL)
		cJSON_ReplaceItemViaPointer(arr, o, tusc_entry_to_json(e));
	else
		cJSON_AddItemToArray(arr, tusc_entry_to_json(e));
	rc = tusc_journal_write(dir, arr, cause);
out:
	cJSON_Delete(arr);
	close(lock);
	return (rc);
}

int
tusc_journal_put(const char *dir, const struct tusc_entry *e, char **cause)
{
	return (tusc_journal_change(dir, e->key, e, cause));
}

int
tusc_journal_remove(const char *dir, const char *key, char **cause)
{
	return (tusc_journal_change(dir, key, NULL, cause));
}

int
tusc_journal_list(const char *dir, struct tusc_entry **out, size_t *n,
    char **cause)
{
	cJSON	*arr, *o;
	int	 lock, count;

	*out = NULL;
	*n = 0;
	if ((lock = tusc_journal_lock(dir, cause)) < 0)
		return (-1);
	if ((arr = tusc_journal_read(dir, cause)) == NULL) {
		close(lock);
		return (-1);
	}
	close(lock);
	count = cJSON_GetArraySize(arr);
	if (count > 0)
		*out = xcalloc((size_t)count, sizeof **out);
	cJSON_ArrayForEach(o, arr) {
		if (tusc_entry_from_json(o, &(*out)[*n]) == 0)
			(*n)++;
	}
	cJSON_Delete(arr);
	return (0);
}

/* ---- The blocking upload -------------------------------------------------- */

struct tusc_run {
	struct http_client		*c;
	const struct tusc_options	*o;
	struct tusc_result		*r;
	struct tusc_entry		 e;	/* e.key NULL: no journal */
	struct tusc_retry		 retry;
	int				 fd;
	long long			 chunk;
};

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

/* Sleep before the next attempt; -1 once the delays are used up. */
static int
tusc_wait(struct tusc_run *u, long long offset)
{
	long	 d = tusc_retry_next(&u->retry, offset);

	if (d < 0)
		return (-1);
	u->r->retries++;
	if (d > 0) {
		if (u->o->sleep != NULL)
			u->o->sleep(d, u->o->sleep_arg);
		else
			sleep((unsigned int)d);
	}
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

/* Open the file and work out its journal key. */
static enum status
tusc_open(struct tusc_run *u, char **cause)
{
	const struct tusc_options	*o = u->o;
	struct stat			 sb;
	char				*jcause = NULL, *key;
	int				 found;

	if ((u->fd = open(o->file, O_RDONLY | O_CLOEXEC)) < 0) {
		xasprintf(cause, "%s: %s", o->file, strerror(errno));
		return (errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO);
	}
	if (fstat(u->fd, &sb) != 0) {
		xasprintf(cause, "%s: %s", o->file, strerror(errno));
		return (STATUS_IO);
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", o->file);
		return (STATUS_INVALID);
	}
	u->r->size = sb.st_size;
	if (o->state_dir == NULL)
		return (STATUS_OK);
	key = tusc_journal_key(o->file, sb.st_size, sb.st_mtime,
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
	u->e.size = sb.st_size;
	u->e.mtime = sb.st_mtime;
	u->e.base_url = xstrdup(o->base_url != NULL ? o->base_url : "");
	u->e.account = xstrdup(o->account);
	return (STATUS_OK);
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
			return (STATUS_OK);
		}
		if (!tusc_retryable(st, hs) || tusc_wait(u, 0) != 0)
			return (st);
	}
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
				offset = next;
				sync = 0;
			} else if (hs == 404 || hs == 410)
				goto gone;
			else if (!tusc_retryable(st, hs) ||
			    tusc_wait(u, offset) != 0)
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
		    o->progress, o->progress_arg, &next, &hs, cause);
		u->r->http_status = hs;
		if (st == STATUS_OK) {
			offset = next;
			u->e.offset = offset;
			if (offset < size)
				tusc_journal_save(u);
			if (o->progress != NULL && o->progress(offset, size,
			    o->progress_arg) != 0 && offset < size) {
				xasprintf(cause, "upload of %s stopped at "
				    "%lld of %lld bytes", o->file, offset,
				    size);
				return (STATUS_CANCELLED);
			}
			continue;
		}
		if (hs == 404 || hs == 410)
			goto gone;
		/* 409: our offset is stale; HEAD tells the server's. */
		if ((hs != 409 && !tusc_retryable(st, hs)) ||
		    tusc_wait(u, offset) != 0)
			return (st);
		sync = 1;
	}
gone:
	tusc_journal_drop(u);
	free(*cause);
	xasprintf(cause, "upload %s is gone from the server (HTTP %ld); "
	    "run the upload again to start afresh", u->e.url, hs);
	return (STATUS_GONE);
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
	tusc_retry_init(&u.retry, 0);
	if (u.e.url != NULL) {
		if ((st = tusc_resume(&u, &offset, cause)) != STATUS_OK)
			goto out;
		if (offset < 0) {
			tusc_journal_drop(&u);
			free(u.e.url);
			free(u.e.uid);
			u.e.url = u.e.uid = NULL;
		} else
			r->resumed_from = offset;
	}
	if (u.e.url == NULL) {
		if ((st = tusc_start(&u, cause)) != STATUS_OK)
			goto out;
		offset = 0;
	}
	r->url = xstrdup(u.e.url);
	r->uid = xstrdup(u.e.uid != NULL ? u.e.uid : "");
	if (o->progress != NULL && offset > 0)
		(void)o->progress(offset, r->size, o->progress_arg);
	if ((st = tusc_send(&u, offset, cause)) == STATUS_OK)
		tusc_journal_drop(&u);
out:
	if (st == STATUS_OK) {
		free(*cause);
		*cause = NULL;
	}
	if (u.fd >= 0)
		close(u.fd);
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
