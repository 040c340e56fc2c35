/*
 * The resume journal: dir/uploads.json, one entry per unfinished upload
 * (its key, the file's identity and the hash of the bytes sent), read and
 * replaced atomically under a lock so several uploads can share it.
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
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "log.h"
#include "tusc.h"
#include "tusc_journal.h"
#include "xmalloc.h"

#define TUSC_JOURNAL_MAX	(16 * 1024 * 1024)

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
	free(e->xxh3);
	free(e->sha256);
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

/* Inodes and nanosecond times pass a double's 53 bits: kept as text. */
static long long
tusc_json_big(const cJSON *o, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, name);
	long long	 n;

	if (!cJSON_IsString(v) || tusc_parse_num(v->valuestring, &n) != 0)
		return (-1);
	return (n);
}

static void
tusc_json_add_big(cJSON *o, const char *name, long long n)
{
	char	num[32];

	snprintf(num, sizeof num, "%lld", n);
	cJSON_AddStringToObject(o, name, num);
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
	e->ino = tusc_json_big(o, "ino");
	e->mtime_ns = tusc_json_big(o, "mtime_ns");
	e->ctime_ns = tusc_json_big(o, "ctime_ns");
	e->xxh3 = tusc_json_str(o, "xxh3_128");
	e->sha256 = tusc_json_str(o, "sha256");
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
	tusc_json_add_big(o, "ino", e->ino);
	tusc_json_add_big(o, "mtime_ns", e->mtime_ns);
	tusc_json_add_big(o, "ctime_ns", e->ctime_ns);
	if (e->xxh3 != NULL)
		cJSON_AddStringToObject(o, "xxh3_128", e->xxh3);
	if (e->sha256 != NULL)
		cJSON_AddStringToObject(o, "sha256", e->sha256);
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
