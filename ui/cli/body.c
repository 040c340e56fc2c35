/*
 * Bodies from -f (a file or stdin, YAML or JSON, bounded in size) and
 * their check against the kind's fields before anything is sent.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "validate.h"
#include "xmalloc.h"
#include "yamljson.h"

#include "cli.h"

/* Bodies read from -f are refused beyond this. */
#define CLI_BODY_MAX		(16L * 1024 * 1024)

static char *
cli_read_fd(int fd, const char *name, size_t *lenp, char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	char		chunk[65536];
	ssize_t		n;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			xasprintf(cause, "%s: %s", name, strerror(errno));
			buf_free(&b);
			return (NULL);
		}
		if (n == 0)
			break;
		buf_add(&b, chunk, (size_t)n);
		if (b.len > (size_t)CLI_BODY_MAX) {
			xasprintf(cause, "%s: larger than %ld bytes", name,
			    CLI_BODY_MAX);
			buf_free(&b);
			return (NULL);
		}
	}
	if (b.data == NULL)
		buf_adds(&b, "");
	return (buf_detach(&b, lenp));
}

/* A file's bytes ('-': stdin), NUL-terminated, at most CLI_BODY_MAX. */
char *
cli_read_text(const char *path, size_t *lenp, char **cause)
{
	char	*text;
	int	 fd;

	if (strcmp(path, "-") == 0)
		return (cli_read_fd(STDIN_FILENO, "stdin", lenp, cause));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	text = cli_read_fd(fd, path, lenp, cause);
	close(fd);
	return (text);
}

/* A body from -f: YAML or JSON (JSON is YAML's flow style). */
cJSON *
cli_read_body(const char *path, char **cause)
{
	cJSON	*body;
	char	*text, *why = NULL;
	size_t	 len;

	if ((text = cli_read_text(path, &len, cause)) == NULL)
		return (NULL);
	body = yamljson_parse(text, len, &why);
	free(text);
	if (body == NULL) {
		xasprintf(cause, "%s: %s", strcmp(path, "-") == 0 ? "stdin" :
		    path, why);
		free(why);
	}
	return (body);
}

/* Every problem on stderr; returns 0 when the body is clean. */
int
cli_validate(const struct kind *k, const cJSON *body, enum validate_mode mode)
{
	struct validate_error	*errs;
	size_t			 n, i;

	if (validate_record(k, body, mode, &errs, &n) == 0)
		return (0);
	for (i = 0; i < n; i++)
		fprintf(stderr, "edgetui: %s: %s\n", *errs[i].field != '\0' ?
		    errs[i].field : "(body)", errs[i].message);
	fprintf(stderr, "edgetui: %zu problem%s; nothing was sent\n", n,
	    n == 1 ? "" : "s");
	validate_errors_free(errs, n);
	return (-1);
}
