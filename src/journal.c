/*
 * The change journal: one JSON object per line, appended with one write()
 * and an fsync each, so a crash leaves at worst a torn last line, which
 * readers skip because it is not a whole record. It is read from the end
 * (the newest changes are the ones wanted) without reading the rest.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "journal.h"
#include "log.h"
#include "redact.h"
#include "xmalloc.h"

/* The first read from the end; it doubles while a line does not fit. */
#define JOURNAL_CHUNK		(64 * 1024)
#define JOURNAL_REDACTED	REDACT_MASK

struct journal {
	int	 fd;
	char	*path;
};

/* Backwards reading: buf holds the file's bytes [pos, pos + len). */
struct journal_tail {
	int	 fd;
	char	*buf;
	off_t	 pos;
	size_t	 len;
	size_t	 chunk;
};

void
journal_redact(cJSON *v)
{
	redact_json(v, JOURNAL_REDACTED);
}

/* Write all of data, retrying short writes (a full disk, a signal). */
static int
journal_write(int fd, const char *data, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		if ((n = write(fd, data, len)) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		data += n;
		len -= n;
	}
	return (0);
}

/* Make the directory entry of a new file durable too. */
static int
journal_sync_dir(const char *dir)
{
	int	fd, rc;

	if ((fd = open(dir, O_RDONLY|O_DIRECTORY|O_CLOEXEC)) == -1)
		return (-1);
	rc = fsync(fd);
	close(fd);
	return (rc);
}

struct journal *
journal_open(const char *dir, char **cause)
{
	struct journal	*j;
	struct stat	 sb;
	char		*path, last;
	int		 fd, created = 0;

	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	for (;;) {
		fd = open(path, O_RDWR|O_APPEND|O_CLOEXEC|O_NOCTTY);
		if (fd != -1 || errno != ENOENT)
			break;
		fd = open(path, O_RDWR|O_APPEND|O_CREAT|O_EXCL|O_CLOEXEC|
		    O_NOCTTY, 0600);
		if (fd != -1) {
			created = 1;
			break;
		}
		if (errno != EEXIST)
			break;
	}
	if (fd == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (created && journal_sync_dir(dir) != 0) {
		xasprintf(cause, "%s: fsync: %s", dir, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		goto fail;
	}
	/* After a crash mid-write: end the torn line, keep the next whole. */
	if (sb.st_size > 0) {
		if (pread(fd, &last, 1, sb.st_size - 1) != 1) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (last != '\n' && journal_write(fd, "\n", 1) != 0) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			goto fail;
		}
	}
	j = xcalloc(1, sizeof *j);
	j->fd = fd;
	j->path = path;
	return (j);

fail:
	if (fd != -1)
		close(fd);
	free(path);
	return (NULL);
}

void
journal_close(struct journal *j)
{
	if (j == NULL)
		return;
	close(j->fd);
	free(j->path);
	free(j);
}

static void
journal_now(char *out, size_t size)
{
	struct timespec	ts;
	struct tm	tm;
	char		base[32];

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		fatal("clock_gettime");
	if (gmtime_r(&ts.tv_sec, &tm) == NULL)
		fatalx("journal: the clock is out of range");
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%s.%03ldZ", base, ts.tv_nsec / 1000000);
}

/* A redacted copy of v, or JSON null for NULL. */
static cJSON *
journal_copy(const cJSON *v)
{
	cJSON	*c;

	c = v != NULL ? cJSON_Duplicate(v, 1) : cJSON_CreateNull();
	if (c == NULL)
		fatalx("journal: out of memory");
	journal_redact(c);
	return (c);
}

int
journal_append(struct journal *j, const char *profile, const char *method,
    const char *path, int status, const cJSON *before, const cJSON *after,
    char **cause)
{
	cJSON	*rec;
	char	 now[64], *text, *line;
	size_t	 len;
	int	 rc = 0;

	if (method == NULL || path == NULL)
		fatalx("journal_append: no method or path");
	journal_now(now, sizeof now);
	if ((rec = cJSON_CreateObject()) == NULL)
		fatalx("journal: out of memory");
	cJSON_AddItemToObject(rec, "time", cJSON_CreateString(now));
	cJSON_AddItemToObject(rec, "profile", profile != NULL ?
	    cJSON_CreateString(profile) : cJSON_CreateNull());
	cJSON_AddItemToObject(rec, "method", cJSON_CreateString(method));
	cJSON_AddItemToObject(rec, "path", cJSON_CreateString(path));
	cJSON_AddItemToObject(rec, "status", cJSON_CreateNumber(status));
	cJSON_AddItemToObject(rec, "before", journal_copy(before));
	cJSON_AddItemToObject(rec, "after", journal_copy(after));
	if ((text = cJSON_PrintUnformatted(rec)) == NULL)
		fatalx("journal: out of memory");
	cJSON_Delete(rec);

	/* cJSON escapes control characters: the text is one line. */
	len = strlen(text);
	line = xmalloc(len + 1);
	memcpy(line, text, len);
	line[len] = '\n';
	cJSON_free(text);
	if (journal_write(j->fd, line, len + 1) != 0) {
		xasprintf(cause, "%s: %s", j->path, strerror(errno));
		/* Whatever part was written must not join the next record. */
		(void)journal_write(j->fd, "\n", 1);
		rc = -1;
	} else if (fsync(j->fd) != 0) {
		xasprintf(cause, "%s: fsync: %s", j->path, strerror(errno));
		rc = -1;
	}
	free(line);
	return (rc);
}

/* ---- reading ------------------------------------------------------------- */

/* Read the chunk before what the tail holds; -1 at the start of the file. */
static int
journal_tail_grow(struct journal_tail *t, char **cause)
{
	char	*buf;
	size_t	 want, got = 0;
	ssize_t	 n;

	want = (size_t)MINIMUM((off_t)t->chunk, t->pos);
	buf = xmalloc(want + t->len);
	while (got < want) {
		n = pread(t->fd, buf + got, want - got, t->pos - want + got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			xasprintf(cause, "%s", n == 0 ? "the journal shrank"
			    " while being read" : strerror(errno));
			free(buf);
			return (-1);
		}
		got += n;
	}
	if (t->len != 0)
		memcpy(buf + want, t->buf, t->len);
	free(t->buf);
	t->buf = buf;
	t->pos -= want;
	t->len += want;
	if (t->chunk < 64 * 1024 * 1024)
		t->chunk *= 2;
	return (0);
}

/*
 * The offset of the last newline before limit (*at, or -1 if there is
 * none); afterwards the tail holds at least the bytes from there to limit.
 */
static int
journal_tail_newline(struct journal_tail *t, off_t limit, off_t *at,
    char **cause)
{
	char	*p;

	t->len = limit - t->pos;
	for (;;) {
		if (t->len != 0 && (p = memrchr(t->buf, '\n', t->len)) != NULL) {
			*at = t->pos + (p - t->buf);
			return (0);
		}
		if (t->pos == 0) {
			*at = -1;
			return (0);
		}
		if (journal_tail_grow(t, cause) != 0)
			return (-1);
	}
}

static const char *
journal_string(const cJSON *rec, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(rec, name);

	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

/* The record text holds, or -1 if it is not one. */
static int
journal_parse(const char *text, size_t len, struct journal_record *r)
{
	cJSON		*rec, *v;
	const char	*time, *method, *path, *profile;
	char		*copy;
	int		 rc = -1;

	copy = xstrndup(text, len);
	rec = cJSON_ParseWithOpts(copy, NULL, 1);
	free(copy);
	if (!cJSON_IsObject(rec))
		goto out;
	time = journal_string(rec, "time");
	method = journal_string(rec, "method");
	path = journal_string(rec, "path");
	profile = journal_string(rec, "profile");
	v = cJSON_GetObjectItemCaseSensitive(rec, "status");
	if (time == NULL || method == NULL || path == NULL ||
	    !cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 999)
		goto out;
	memset(r, 0, sizeof *r);
	r->time = xstrdup(time);
	r->method = xstrdup(method);
	r->path = xstrdup(path);
	r->profile = profile != NULL ? xstrdup(profile) : NULL;
	r->status = (int)v->valuedouble;
	v = cJSON_DetachItemFromObjectCaseSensitive(rec, "before");
	if (v != NULL && cJSON_IsNull(v)) {
		cJSON_Delete(v);
		v = NULL;
	}
	r->before = v;
	v = cJSON_DetachItemFromObjectCaseSensitive(rec, "after");
	if (v != NULL && cJSON_IsNull(v)) {
		cJSON_Delete(v);
		v = NULL;
	}
	r->after = v;
	rc = 0;

out:
	cJSON_Delete(rec);
	return (rc);
}

int
journal_read_last(const char *dir, size_t n, struct journal_record **records,
    size_t *count, char **cause)
{
	struct journal_tail	 t;
	struct journal_record	 r, *out = NULL;
	struct stat		 sb;
	char			*path, *error = NULL;
	off_t			 limit, at;
	size_t			 got = 0, size = 0;
	int			 rc = -1;

	*records = NULL;
	*count = 0;
	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	memset(&t, 0, sizeof t);
	if ((t.fd = open(path, O_RDONLY|O_CLOEXEC|O_NOCTTY)) == -1) {
		if (errno == ENOENT)
			rc = 0;
		else
			xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return (rc);
	}
	if (fstat(t.fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		goto out;
	}
	t.pos = sb.st_size;
	t.chunk = JOURNAL_CHUNK;

	/* Whatever follows the last newline is torn: skip it. */
	if (journal_tail_newline(&t, sb.st_size, &limit, &error) != 0)
		goto fail;
	while (limit >= 0 && got < n) {
		if (journal_tail_newline(&t, limit, &at, &error) != 0)
			goto fail;
		if (journal_parse(t.buf + (at + 1 - t.pos), limit - at - 1,
		    &r) == 0) {
			if (got == size) {
				size = size == 0 ? 16 : size * 2;
				out = xreallocarray(out, size, sizeof *out);
			}
			out[got++] = r;
		}
		limit = at;
	}
	*records = out;
	*count = got;
	out = NULL;
	rc = 0;
	goto out;

fail:
	xasprintf(cause, "%s: %s", path, error);
	free(error);
out:
	journal_records_free(out, got);
	free(t.buf);
	close(t.fd);
	free(path);
	return (rc);
}

void
journal_records_free(struct journal_record *records, size_t n)
{
	size_t	i;

	for (i = 0; records != NULL && i < n; i++) {
		free(records[i].time);
		free(records[i].profile);
		free(records[i].method);
		free(records[i].path);
		cJSON_Delete(records[i].before);
		cJSON_Delete(records[i].after);
	}
	free(records);
}
