/*
 * The uploads finished from this machine: dir/uploaded.jsonl, one line
 * each (the file's resume journal key, the video's uid, when), so the same
 * file sent again is said to be there already rather than made a second
 * video. Lines are appended whole; the newest line of a key wins.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "log.h"
#include "uploaded.h"
#include "xmalloc.h"

/* Past this the file is rewritten with its newest lines only. */
#define UPLOADED_MAX_BYTES	(1024 * 1024)
#define UPLOADED_KEEP		1000

static char *
uploaded_path(const char *dir)
{
	return (xprintf("%s/%s", dir, UPLOADED_FILE));
}

/* The whole file (NUL-terminated), or NULL when there is none. */
static char *
uploaded_slurp(const char *path, size_t *len, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	char		 chunk[8192];
	ssize_t		 n;
	int		 fd;

	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno != ENOENT)
			xasprintf(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			close(fd);
			buf_free(&b);
			return (NULL);
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	buf_adds(&b, "");
	return (buf_detach(&b, len));
}

/* The record of a line, when it is one whole record of key. */
static cJSON *
uploaded_line(const char *line, size_t len, const char *key)
{
	cJSON	*o = cJSON_ParseWithLength(line, len);
	cJSON	*k = cJSON_GetObjectItemCaseSensitive(o, "key");

	if (!cJSON_IsString(k) || !cJSON_IsString(
	    cJSON_GetObjectItemCaseSensitive(o, "uid")) ||
	    (key != NULL && strcmp(k->valuestring, key) != 0)) {
		cJSON_Delete(o);
		return (NULL);
	}
	return (o);
}

int
uploaded_get(const char *dir, const char *key, struct uploaded *u,
    char **cause)
{
	const cJSON	*v;
	cJSON		*o, *found = NULL;
	char		*path, *data, *line, *nl;
	size_t		 len;

	memset(u, 0, sizeof *u);
	path = uploaded_path(dir);
	data = uploaded_slurp(path, &len, cause);
	free(path);
	if (data == NULL)
		return (*cause != NULL ? -1 : 0);
	for (line = data; *line != '\0'; line = nl + (*nl != '\0')) {
		nl = line + strcspn(line, "\n");
		if ((o = uploaded_line(line, (size_t)(nl - line), key)) !=
		    NULL) {
			cJSON_Delete(found);
			found = o;
		}
	}
	free(data);
	if (found == NULL)
		return (0);
	u->uid = xstrdup(cJSON_GetObjectItemCaseSensitive(found,
	    "uid")->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(found, "time");
	u->when = cJSON_IsNumber(v) ? (time_t)v->valuedouble : 0;
	cJSON_Delete(found);
	return (1);
}

/* The newest UPLOADED_KEEP lines, written over the file atomically. */
static void
uploaded_trim(const char *path)
{
	char	*data, *tmp, *start, *p, *cause = NULL;
	size_t	 len, lines = 0;
	int	 fd, ok;

	if ((data = uploaded_slurp(path, &len, &cause)) == NULL) {
		free(cause);
		return;
	}
	start = data;
	for (p = data + len; p > data; p--)
		if (p[-1] == '\n' && p != data + len &&
		    ++lines == UPLOADED_KEEP) {
			start = p;
			break;
		}
	tmp = xprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) != -1) {
		len -= (size_t)(start - data);
		ok = fchmod(fd, 0600) == 0 &&
		    write(fd, start, len) == (ssize_t)len && fsync(fd) == 0;
		if (close(fd) != 0 || !ok || rename(tmp, path) != 0)
			unlink(tmp);
	}
	free(tmp);
	free(data);
}

int
uploaded_put(const char *dir, const char *key, const char *uid, char **cause)
{
	struct stat	 sb;
	cJSON		*o;
	char		*path, *text, *line;
	size_t		 len;
	int		 fd, rv = -1;

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "key", key);
	cJSON_AddStringToObject(o, "uid", uid);
	cJSON_AddNumberToObject(o, "time", (double)time(NULL));
	if ((text = cJSON_PrintUnformatted(o)) == NULL)
		fatalx("out of memory");
	cJSON_Delete(o);
	line = xprintf("%s\n", text);
	cJSON_free(text);
	len = strlen(line);
	path = uploaded_path(dir);
	/* One write of a whole line: appends do not interleave. */
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0600)) == -1 || write(fd, line, len) != (ssize_t)len)
		xasprintf(cause, "%s: %s", path, strerror(errno));
	else
		rv = 0;
	if (fd != -1 && fstat(fd, &sb) == 0 && sb.st_size > UPLOADED_MAX_BYTES)
		uploaded_trim(path);
	if (fd != -1)
		close(fd);
	free(line);
	free(path);
	return (rv);
}

void
uploaded_free(struct uploaded *u)
{
	free(u->uid);
	memset(u, 0, sizeof *u);
}
