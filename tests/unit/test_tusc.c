/*
 * Unit tests for the TUS client's pure parts: Upload-Metadata text, chunk
 * rules, the retry schedule and the resume journal in a temporary dir.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <ftw.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "streamrules.h"
#include "tusc.h"
#include "testdir.h"
#include "xmalloc.h"

static char *
tmpdir_make(void)
{
	char	*d = testdir_new("tusc");

	assert_non_null(d);
	return (d);
}

static void
tmpdir_remove(char *d)
{
	testdir_remove(d);
	free(d);
}

/* ---- metadata ------------------------------------------------------------ */

static void
test_base64(void **state)
{
	const char	*in[] = { "", "f", "fo", "foo", "foob", "fooba",
	    "foobar" };
	const char	*out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==",
	    "Zm9vYmE=", "Zm9vYmFy" };
	char		*s;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		s = tusc_base64(in[i], strlen(in[i]));
		assert_string_equal(s, out[i]);
		free(s);
	}
}

static void
test_metadata_spec_example(void **state)
{
	struct tusc_meta	 m;
	char			*s;

	(void)state;
	memset(&m, 0, sizeof m);
	m.name = "hello world";
	m.require_signed = 1;
	m.allowed_origins = "example.com,test.com";
	s = tusc_metadata(&m);
	assert_string_equal(s, "name aGVsbG8gd29ybGQ=,requiresignedurls,"
	    "allowedorigins ZXhhbXBsZS5jb20sdGVzdC5jb20=");
	free(s);
}

static void
test_metadata_all(void **state)
{
	struct tusc_meta	 m;
	char			*s;

	(void)state;
	memset(&m, 0, sizeof m);
	m.name = "a.mp4";
	m.thumbnail_pct = "0.5";
	m.watermark = "ab";
	m.scheduled_deletion = "2030-01-01T00:00:00Z";
	m.max_duration = 600;
	m.expiry = "2024-02-27T07:20:50Z";
	s = tusc_metadata(&m);
	assert_string_equal(s, "name YS5tcDQ=,thumbnailtimestamppct MC41,"
	    "watermark YWI=,scheduleddeletion MjAzMC0wMS0wMVQwMDowMDowMFo=,"
	    "maxDurationSeconds NjAw,expiry MjAyNC0wMi0yN1QwNzoyMDo1MFo=");
	free(s);
	/* Only the flag: no leading comma. */
	memset(&m, 0, sizeof m);
	m.require_signed = 1;
	s = tusc_metadata(&m);
	assert_string_equal(s, "requiresignedurls");
	free(s);
	memset(&m, 0, sizeof m);
	assert_null(tusc_metadata(&m));
}

/* ---- chunks -------------------------------------------------------------- */

static void
test_chunk_rules(void **state)
{
	char	*cause = NULL;

	(void)state;
	assert_int_equal(tusc_chunk_check(TUSC_CHUNK_DEFAULT, &cause), 0);
	assert_int_equal(tusc_chunk_check(STREAMRULES_CHUNK_MIN, &cause), 0);
	assert_int_equal(tusc_chunk_check(STREAMRULES_CHUNK_MAX, &cause), 0);
	assert_int_equal(tusc_chunk_check(STREAMRULES_CHUNK_MIN -
	    STREAMRULES_CHUNK_ALIGN, &cause), -1);
	assert_non_null(strstr(cause, "5 MiB"));
	free(cause);
	assert_int_equal(tusc_chunk_check(STREAMRULES_CHUNK_MAX +
	    STREAMRULES_CHUNK_ALIGN, &cause), -1);
	assert_non_null(strstr(cause, "200 MiB"));
	free(cause);
	assert_int_equal(tusc_chunk_check(STREAMRULES_CHUNK_MIN + 1000,
	    &cause), -1);
	assert_non_null(strstr(cause, "256 KiB"));
	free(cause);
	assert_int_equal(tusc_chunk_check(0, &cause), -1);
	free(cause);

	assert_int_equal(tusc_chunk_len(0, 12, 5), 5);
	assert_int_equal(tusc_chunk_len(10, 12, 5), 2);
	assert_int_equal(tusc_chunk_len(12, 12, 5), 0);
	assert_int_equal(tusc_chunk_len(0, 0, 5), 0);
}

/* ---- retries ------------------------------------------------------------- */

static void
test_retry_schedule(void **state)
{
	struct tusc_retry	r;

	(void)state;
	tusc_retry_init(&r, 100);
	assert_int_equal(tusc_retry_next(&r, 100), 0);
	assert_int_equal(tusc_retry_next(&r, 100), 1);
	assert_int_equal(tusc_retry_next(&r, 100), 3);
	/* Progress starts the list again. */
	assert_int_equal(tusc_retry_next(&r, 200), 0);
	assert_int_equal(tusc_retry_next(&r, 200), 1);
	assert_int_equal(tusc_retry_next(&r, 200), 3);
	assert_int_equal(tusc_retry_next(&r, 200), 5);
	assert_int_equal(tusc_retry_next(&r, 200), -1);
	assert_int_equal(tusc_retry_next(&r, 150), -1);	/* not progress */
	assert_int_equal(tusc_retry_next(&r, 201), 0);
}

/* ---- journal ------------------------------------------------------------- */

static void
test_journal_key(void **state)
{
	char	*a, *b, *c, *d;

	(void)state;
	a = tusc_journal_key("/etc/hostname", 10, 20, "http://x", "acct");
	b = tusc_journal_key("/etc/../etc/hostname", 10, 20, "http://x",
	    "acct");
	c = tusc_journal_key("/etc/hostname", 10, 21, "http://x", "acct");
	d = tusc_journal_key("/etc/hostname", 10, 20, "http://y", "acct");
	assert_string_equal(a, b);	/* the same file by another name */
	assert_string_not_equal(a, c);
	assert_string_not_equal(a, d);
	free(a);
	free(b);
	free(c);
	free(d);
}

static void
entry_fill(struct tusc_entry *e, const char *key, const char *url)
{
	memset(e, 0, sizeof *e);
	e->key = (char *)key;
	e->file = (char *)"/v/a.mp4";
	e->size = 12345678901LL;
	e->mtime = 1700000000;
	e->base_url = (char *)"http://127.0.0.1:1/client/v4";
	e->account = (char *)"acct";
	e->url = (char *)url;
	e->uid = (char *)"0123456789abcdef0123456789abcdef";
	e->created = 1700000100;
	e->offset = 5242880;
}

static int
count_files(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*de;
	int		 n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name,
		    "..") != 0)
			n++;
	closedir(d);
	return (n);
}

static void
test_journal_roundtrip(void **state)
{
	char			*dir = tmpdir_make(), *cause = NULL, *path;
	struct tusc_entry	 e, got, *list;
	struct stat		 sb;
	size_t			 n;

	(void)state;
	assert_int_equal(tusc_journal_list(dir, &list, &n, &cause), 0);
	assert_int_equal(n, 0);
	assert_int_equal(tusc_journal_get(dir, "k1", &got, &cause), 0);

	entry_fill(&e, "k1", "http://h/u1");
	assert_int_equal(tusc_journal_put(dir, &e, &cause), 0);
	entry_fill(&e, "k2", "http://h/u2");
	assert_int_equal(tusc_journal_put(dir, &e, &cause), 0);
	/* Replacing keeps one entry per key. */
	e.offset = 10485760;
	assert_int_equal(tusc_journal_put(dir, &e, &cause), 0);

	path = xprintf("%s/%s", dir, TUSC_JOURNAL_FILE);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	free(path);
	/* The journal and its lock: no temporary file left behind. */
	assert_int_equal(count_files(dir), 2);

	assert_int_equal(tusc_journal_get(dir, "k2", &got, &cause), 1);
	assert_string_equal(got.url, "http://h/u2");
	assert_string_equal(got.uid, "0123456789abcdef0123456789abcdef");
	assert_string_equal(got.file, "/v/a.mp4");
	assert_string_equal(got.account, "acct");
	assert_int_equal(got.size, 12345678901LL);
	assert_int_equal(got.mtime, 1700000000);
	assert_int_equal(got.created, 1700000100);
	assert_int_equal(got.offset, 10485760);
	tusc_entry_free(&got);

	assert_int_equal(tusc_journal_list(dir, &list, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].key, "k1");
	assert_string_equal(list[1].key, "k2");
	tusc_entries_free(list, n);

	assert_int_equal(tusc_journal_remove(dir, "k1", &cause), 0);
	assert_int_equal(tusc_journal_remove(dir, "nope", &cause), 0);
	assert_int_equal(tusc_journal_get(dir, "k1", &got, &cause), 0);
	assert_int_equal(tusc_journal_list(dir, &list, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_string_equal(list[0].key, "k2");
	tusc_entries_free(list, n);
	tmpdir_remove(dir);
}

static void
test_journal_damaged(void **state)
{
	char			*dir = tmpdir_make(), *cause = NULL, *path;
	struct tusc_entry	*list, e;
	size_t			 n;
	FILE			*f;

	(void)state;
	path = xprintf("%s/%s", dir, TUSC_JOURNAL_FILE);
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"uploads\": [", f);
	fclose(f);
	assert_int_equal(tusc_journal_list(dir, &list, &n, &cause), -1);
	assert_non_null(strstr(cause, "remove it"));
	free(cause);
	cause = NULL;
	entry_fill(&e, "k1", "http://h/u1");
	assert_int_equal(tusc_journal_put(dir, &e, &cause), -1);
	free(cause);
	free(path);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_metadata_spec_example),
		cmocka_unit_test(test_metadata_all),
		cmocka_unit_test(test_chunk_rules),
		cmocka_unit_test(test_retry_schedule),
		cmocka_unit_test(test_journal_key),
		cmocka_unit_test(test_journal_roundtrip),
		cmocka_unit_test(test_journal_damaged),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
