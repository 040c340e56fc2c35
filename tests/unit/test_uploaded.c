/*
 * Unit tests for src/uploaded.c and src/xferrate.c, what an upload leaves
 * behind and how fast it goes: a finished upload is found again by its
 * file's key (the newest record of a key winning, a torn line skipped),
 * and a resumed run's rate counts only the bytes it sent itself.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testdir.h"
#include "uploaded.h"
#include "xferrate.h"

static void
test_uploaded_found_again(void **state)
{
	struct uploaded	 u;
	char		*dir = testdir_new("uploaded"), *path, *cause = NULL;
	FILE		*f;
	struct stat	 sb;

	(void)state;
	assert_non_null(dir);
	assert_int_equal(uploaded_get(dir, "k1", &u, &cause), 0);
	assert_null(cause);
	assert_int_equal(uploaded_put(dir, "k1", "aaaa", &cause), 0);
	assert_int_equal(uploaded_put(dir, "k2", "bbbb", &cause), 0);
	/* A torn line (a crash mid-write) is no record. */
	path = malloc(strlen(dir) + 32);
	assert_non_null(path);
	sprintf(path, "%s/%s", dir, UPLOADED_FILE);
	assert_non_null(f = fopen(path, "a"));
	fputs("{\"key\":\"k1\",\"uid\":\"torn", f);
	fclose(f);
	assert_int_equal(uploaded_get(dir, "k1", &u, &cause), 1);
	assert_string_equal(u.uid, "aaaa");
	assert_true(u.when > 0);
	uploaded_free(&u);
	/* The file sent again with --again: the newest video is the one. */
	assert_non_null(f = fopen(path, "a"));
	fputc('\n', f);
	fclose(f);
	assert_int_equal(uploaded_put(dir, "k1", "cccc", &cause), 0);
	assert_int_equal(uploaded_get(dir, "k1", &u, &cause), 1);
	assert_string_equal(u.uid, "cccc");
	uploaded_free(&u);
	assert_int_equal(uploaded_get(dir, "k2", &u, &cause), 1);
	assert_string_equal(u.uid, "bbbb");
	uploaded_free(&u);
	assert_int_equal(uploaded_get(dir, "k3", &u, &cause), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	free(path);
	assert_int_equal(testdir_remove(dir), 0);
	free(dir);
}

/* Past its size the file keeps its newest records only. */
static void
test_uploaded_trimmed(void **state)
{
	struct uploaded	 u;
	struct stat	 sb;
	char		*dir = testdir_new("uploaded"), *cause = NULL, key[256];
	char		 path[512], uid[64];
	int		 i;

	(void)state;
	assert_non_null(dir);
	for (i = 0; i < 6000; i++) {
		snprintf(key, sizeof key, "key-%d-%0200d", i, 0);
		snprintf(uid, sizeof uid, "uid-%d", i);
		assert_int_equal(uploaded_put(dir, key, uid, &cause), 0);
	}
	snprintf(path, sizeof path, "%s/%s", dir, UPLOADED_FILE);
	assert_int_equal(stat(path, &sb), 0);
	assert_true(sb.st_size <= 1024 * 1024 + 256);
	snprintf(key, sizeof key, "key-%d-%0200d", 5999, 0);
	assert_int_equal(uploaded_get(dir, key, &u, &cause), 1);
	assert_string_equal(u.uid, "uid-5999");
	uploaded_free(&u);
	snprintf(key, sizeof key, "key-%d-%0200d", 0, 0);
	assert_int_equal(uploaded_get(dir, key, &u, &cause), 0);
	assert_int_equal(testdir_remove(dir), 0);
	free(dir);
}

/*
 * A resumed upload: the server held 90 MB when the run began; the run
 * sends 4 MB a second. The rate is 4 MB/s, not the 90 MB it found.
 */
static void
test_rate_of_a_resumed_run(void **state)
{
	struct xferrate	r;

	(void)state;
	xferrate_reset(&r);
	assert_true(xferrate_feed(&r, 100.0, 90000000) == 0);
	/* Too young for a rate. */
	assert_true(xferrate_feed(&r, 100.1, 90400000) == 0);
	assert_true(xferrate_feed(&r, 101.0, 94000000) == 4000000);
	assert_true(xferrate_feed(&r, 102.0, 98000000) == 4000000);
	/* The server lost bytes: the run starts again from there. */
	assert_true(xferrate_feed(&r, 103.0, 50000000) == 0);
	assert_true(xferrate_feed(&r, 105.0, 58000000) == 4000000);
	/* A new run (the upload resumed again) forgets the old base. */
	xferrate_reset(&r);
	assert_true(xferrate_feed(&r, 200.0, 120000000) == 0);
	assert_true(xferrate_feed(&r, 202.0, 124000000) == 2000000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uploaded_found_again),
		cmocka_unit_test(test_uploaded_trimmed),
		cmocka_unit_test(test_rate_of_a_resumed_run),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
