/*
 * The log reader's bytes (src/logread.c): plain and gzip files (several
 * members; damage: a cut, bytes after a member that are not one), and
 * FIFOs: opened with no writer without waiting, what a writer sent
 * returned without waiting for more, and a wait that never ends on its
 * own left when the cancel hook says so.
 */
#include "config.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "logread.h"
#include "testdir.h"

/* Cancelled from its nth question on (0: never); counts the questions. */
struct cancel {
	int	at;
	int	asked;
};

static int
cancel_cb(void *arg)
{
	struct cancel	*c = arg;

	c->asked++;
	return (c->at > 0 && c->asked >= c->at);
}

static char *
path_in(const char *dir, const char *name)
{
	char	*path;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	return (path);
}

/* A gzip member of text at the end of path (mode "wb" or "ab"). */
static void
gz_member(const char *path, const char *mode, const char *text)
{
	gzFile	gz;

	assert_non_null(gz = gzopen(path, mode));
	assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)),
	    (int)strlen(text));
	assert_int_equal(gzclose(gz), Z_OK);
}

static void
append(const char *path, const char *bytes, size_t n)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "ab"));
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* All of path through small reads, or NULL with *cause. */
static char *
read_all(const char *path, char **cause)
{
	struct logread	*r;
	char		*out = NULL, buf[7];
	size_t		 len = 0;
	ssize_t		 n;

	assert_non_null(r = logread_open(path, NULL, NULL, cause));
	while ((n = logread_read(r, buf, sizeof buf, cause)) > 0) {
		out = realloc(out, len + (size_t)n + 1);
		assert_non_null(out);
		memcpy(out + len, buf, (size_t)n);
		len += (size_t)n;
		out[len] = '\0';
	}
	logread_close(r);
	if (n < 0) {
		free(out);
		return (NULL);
	}
	return (out != NULL ? out : strdup(""));
}

static void
test_plain_and_gzip(void **state)
{
	const char	*dir = *state;
	char		*path, *got, *cause = NULL;
	uint64_t	 done, total;
	struct logread	*r;
	char		 buf[64];

	path = path_in(dir, "plain.log");
	append(path, "one\ntwo\n", 8);
	assert_non_null(got = read_all(path, &cause));
	assert_string_equal(got, "one\ntwo\n");
	free(got);
	/* The size, for a bar, and what was read of it. */
	assert_non_null(r = logread_open(path, NULL, NULL, &cause));
	assert_int_equal(logread_read(r, buf, sizeof buf, &cause), 8);
	logread_progress(r, &done, &total);
	assert_int_equal(done, 8);
	assert_int_equal(total, 8);
	logread_close(r);
	free(path);

	/* Two members read as one text, as gzip -d reads them. */
	path = path_in(dir, "two.log.gz");
	gz_member(path, "wb", "first member\n");
	gz_member(path, "ab", "second member\n");
	assert_non_null(got = read_all(path, &cause));
	assert_string_equal(got, "first member\nsecond member\n");
	free(got);
	free(path);

	/* An empty file, a one-byte one. */
	path = path_in(dir, "empty.log");
	append(path, "", 0);
	assert_non_null(got = read_all(path, &cause));
	assert_string_equal(got, "");
	free(got);
	append(path, "x", 1);
	assert_non_null(got = read_all(path, &cause));
	assert_string_equal(got, "x");
	free(got);
	free(path);
}

static void
test_gzip_damage(void **state)
{
	const char	*dir = *state;
	char		*path, *cause = NULL;
	FILE		*f;
	long		 len;

	/* Cut before its end: an error, not a short text. */
	path = path_in(dir, "cut.log.gz");
	gz_member(path, "wb", "a line that will be cut short\n");
	assert_non_null(f = fopen(path, "r+"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_int_equal(ftruncate(fileno(f), (off_t)(len - 10)), 0);
	assert_int_equal(fclose(f), 0);
	assert_null(read_all(path, &cause));
	assert_string_equal(cause, "the gzip data is cut short");
	free(cause);
	cause = NULL;
	free(path);

	/* The magic, then garbage. */
	path = path_in(dir, "bad.log.gz");
	append(path, "\x1f\x8b\x08\x00garbage and more garbage", 28);
	assert_null(read_all(path, &cause));
	assert_non_null(strstr(cause, "gzip"));
	free(cause);
	cause = NULL;
	free(path);

	/*
	 * Bytes after a member that are no gzip: damage (a second member
	 * whose magic was hit, junk), not the end, as gzip -t says.
	 */
	path = path_in(dir, "junk.log.gz");
	gz_member(path, "wb", "first member\n");
	gz_member(path, "ab", "second member\n");
	append(path, "trailing junk", 13);
	assert_null(read_all(path, &cause));
	assert_string_equal(cause, "damaged gzip data: what follows gzip "
	    "member 2 is not gzip (trailing garbage)");
	free(cause);
	cause = NULL;
	free(path);
	path = path_in(dir, "hit.log.gz");
	gz_member(path, "wb", "first member\n");
	append(path, "\x1f\x8c\x08\x00\x00\x00", 6);
	assert_null(read_all(path, &cause));
	assert_non_null(strstr(cause, "member 1 is not gzip"));
	free(cause);
	cause = NULL;
	free(path);
	path = path_in(dir, "one.log.gz");
	gz_member(path, "wb", "first member\n");
	append(path, "x", 1);
	assert_null(read_all(path, &cause));
	assert_non_null(strstr(cause, "trailing garbage"));
	free(cause);
	cause = NULL;
	free(path);

	/* Not there; a directory. */
	path = path_in(dir, "none.log");
	assert_null(logread_open(path, NULL, NULL, &cause));
	assert_non_null(strstr(cause, "No such file"));
	free(cause);
	cause = NULL;
	free(path);
	assert_null(logread_open(dir, NULL, NULL, &cause));
	assert_non_null(strstr(cause, "is a directory"));
	free(cause);
}

static void
test_fifo(void **state)
{
	const char	*dir = *state;
	struct cancel	 c = { 0, 0 };
	struct logread	*r;
	char		*path, *cause = NULL, buf[64];
	int		 w;

	path = path_in(dir, "log.fifo");
	assert_int_equal(mkfifo(path, 0600), 0);

	/* No writer: the open does not wait for one, the read is left. */
	c.at = 2;
	assert_non_null(r = logread_open(path, cancel_cb, &c, &cause));
	assert_int_equal(logread_read(r, buf, sizeof buf, &cause), -1);
	assert_string_equal(cause, "cancelled");
	assert_int_equal(c.asked, 2);
	free(cause);
	cause = NULL;
	logread_close(r);

	/*
	 * A writer that stays: what it sent comes back at once, then the
	 * wait for more ends at the cancel.
	 */
	c.at = 50;
	c.asked = 0;
	assert_non_null(r = logread_open(path, cancel_cb, &c, &cause));
	/* Read-write: the FIFO's writer without waiting for a reader. */
	assert_true((w = open(path, O_RDWR)) >= 0);
	assert_int_equal(write(w, "line 1\nline 2\n", 14), 14);
	assert_int_equal(logread_read(r, buf, sizeof buf, &cause), 14);
	assert_memory_equal(buf, "line 1\nline 2\n", 14);
	c.at = c.asked + 1;
	assert_int_equal(logread_read(r, buf, sizeof buf, &cause), -1);
	assert_string_equal(cause, "cancelled");
	free(cause);
	cause = NULL;
	logread_close(r);

	/* The writer gone: the end of the log, no cancel needed (the hook
	 * bounds the wait should the end not be seen). */
	c.at = 50;
	c.asked = 0;
	assert_non_null(r = logread_open(path, cancel_cb, &c, &cause));
	assert_int_equal(write(w, "last\n", 5), 5);
	assert_int_equal(close(w), 0);
	assert_int_equal(logread_read(r, buf, sizeof buf, &cause), 5);
	assert_int_equal(logread_read(r, buf, sizeof buf, &cause), 0);
	assert_null(cause);
	logread_close(r);
	free(path);
}

static int
setup(void **state)
{
	return (testdir_setup(state, "logread"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain_and_gzip, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_gzip_damage, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_fifo, setup,
		    testdir_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
