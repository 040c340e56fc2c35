/*
 * Unit tests for the change journal: records read back newest first, the
 * file's mode, torn and damaged lines, redaction at any depth, order over
 * many appends and records larger than one read.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <fcntl.h>
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

#include <cjson/cJSON.h>

#include "journal.h"
#include "redact.h"
#include "testdir.h"
#include "xmalloc.h"

/* ---- helpers -------------------------------------------------------------- */

static int
setup_dir(void **state)
{
	return (testdir_setup(state, "journal"));
}

#define teardown_dir testdir_teardown

static struct journal *
open_ok(const char *dir)
{
	struct journal	*j;
	char		*cause = NULL;

	j = journal_open(dir, &cause);
	if (j == NULL)
		fail_msg("journal_open: %s", cause);
	return (j);
}

static void
append_ok(struct journal *j, const char *profile, const char *method,
    const char *path, int status, const char *before, const char *after)
{
	cJSON	*b = NULL, *a = NULL;
	char	*cause = NULL;

	if (before != NULL)
		assert_non_null(b = cJSON_Parse(before));
	if (after != NULL)
		assert_non_null(a = cJSON_Parse(after));
	if (journal_append(j, profile, method, path, status, b, a,
	    &cause) != 0)
		fail_msg("journal_append: %s", cause);
	cJSON_Delete(b);
	cJSON_Delete(a);
}

static struct journal_record *
read_ok(const char *dir, size_t n, size_t *count)
{
	struct journal_record	*r;
	char			*cause = NULL;

	if (journal_read_last(dir, n, &r, count, &cause) != 0)
		fail_msg("journal_read_last: %s", cause);
	assert_null(cause);
	return (r);
}

/* The journal's text, NUL-terminated. */
static char *
slurp(const char *dir, size_t *lenp)
{
	char	*path, *text;
	FILE	*f;
	long	 len;

	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	text = xmalloc(len + 1);
	assert_int_equal(fread(text, 1, len, f), (size_t)len);
	text[len] = '\0';
	fclose(f);
	free(path);
	if (lenp != NULL)
		*lenp = len;
	return (text);
}

static void
append_raw(const char *dir, const char *text)
{
	char	*path;
	int	 fd;

	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	assert_true((fd = open(path, O_WRONLY|O_APPEND|O_CREAT, 0600)) != -1);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	free(path);
}

static void
expect_json(const cJSON *v, const char *json)
{
	char	*s;

	assert_non_null(v);
	s = cJSON_PrintUnformatted(v);
	assert_string_equal(s, json);
	cJSON_free(s);
}

/* ---- tests ------------------------------------------------------------------ */

static void
test_append_and_read(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	size_t			 n, i;

	j = open_ok(dir);
	append_ok(j, "prod", "POST", "/accounts/a/stream/live_inputs", 200,
	    NULL, "{\"uid\":\"L1\",\"meta\":{\"name\":\"x\"}}");
	append_ok(j, "prod", "PUT", "/zones/z/rate_limits/r1", 200,
	    "{\"id\":\"r1\",\"threshold\":10}", "{\"id\":\"r1\",\"threshold\":20}");
	append_ok(j, NULL, "DELETE", "/accounts/a/stream/v1", 200,
	    "{\"uid\":\"v1\"}", NULL);
	journal_close(j);

	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 3);
	assert_string_equal(r[0].method, "DELETE");
	assert_null(r[0].profile);
	expect_json(r[0].before, "{\"uid\":\"v1\"}");
	assert_null(r[0].after);
	assert_string_equal(r[1].method, "PUT");
	assert_string_equal(r[1].path, "/zones/z/rate_limits/r1");
	assert_string_equal(r[1].profile, "prod");
	assert_int_equal(r[1].status, 200);
	expect_json(r[1].before, "{\"id\":\"r1\",\"threshold\":10}");
	expect_json(r[1].after, "{\"id\":\"r1\",\"threshold\":20}");
	assert_string_equal(r[2].method, "POST");
	assert_null(r[2].before);
	expect_json(r[2].after, "{\"uid\":\"L1\",\"meta\":{\"name\":\"x\"}}");

	/* RFC 3339 in UTC: 2024-05-01T12:34:56.789Z */
	for (i = 0; i < n; i++) {
		assert_int_equal(strlen(r[i].time), 24);
		assert_true(isdigit((unsigned char)r[i].time[0]));
		assert_int_equal(r[i].time[4], '-');
		assert_int_equal(r[i].time[10], 'T');
		assert_int_equal(r[i].time[19], '.');
		assert_int_equal(r[i].time[23], 'Z');
	}
	journal_records_free(r, n);

	r = read_ok(dir, 1, &n);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].method, "DELETE");
	journal_records_free(r, n);
	r = read_ok(dir, 0, &n);
	assert_int_equal(n, 0);
	journal_records_free(r, n);
}

static void
test_one_line_per_record(void **state)
{
	const char	*dir = *state;
	struct journal	*j;
	char		*text, *p;
	size_t		 lines = 0;

	j = open_ok(dir);
	append_ok(j, "p", "PATCH", "/x", 200, "{\"a\":\"line\\nbreak\"}",
	    "{\"a\":\"tab\\there\"}");
	append_ok(j, "p", "PATCH", "/y", 200, NULL, NULL);
	journal_close(j);
	text = slurp(dir, NULL);
	for (p = text; *p != '\0'; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	assert_non_null(strstr(text, "\"before\":null,\"after\":null}\n"));
	assert_true(strncmp(text, "{\"time\":\"", 9) == 0);
	free(text);
}

static void
test_mode(void **state)
{
	const char	*dir = *state;
	struct journal	*j;
	struct stat	 sb;
	char		*path;
	mode_t		 old;

	old = umask(0);
	j = open_ok(dir);
	umask(old);
	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	journal_close(j);
	free(path);
}

static void
test_missing_and_errors(void **state)
{
	const char		*dir = *state;
	struct journal_record	*r;
	struct journal		*j;
	size_t			 n = 99;
	char			*sub, *cause = NULL;

	r = read_ok(dir, 5, &n);
	assert_null(r);
	assert_int_equal(n, 0);

	sub = xprintf("%s/no/such/dir", dir);
	j = journal_open(sub, &cause);
	assert_null(j);
	assert_non_null(strstr(cause, sub));
	assert_non_null(strstr(cause, "No such file"));
	free(cause);
	free(sub);
}

static void
test_torn_last_line(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	size_t			 n;
	char			*text;

	j = open_ok(dir);
	append_ok(j, "p", "POST", "/one", 200, NULL, "{\"n\":1}");
	append_ok(j, "p", "POST", "/two", 200, NULL, "{\"n\":2}");
	journal_close(j);
	/* A crash in the middle of the third record's write. */
	append_raw(dir, "{\"time\":\"2024-01-01T00:00:00.000Z\",\"profile\":"
	    "\"p\",\"method\":\"POST\",\"path\":\"/thr");

	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].path, "/two");
	assert_string_equal(r[1].path, "/one");
	journal_records_free(r, n);

	/* The next writer closes the torn line off; it stays unreadable. */
	j = open_ok(dir);
	append_ok(j, "p", "POST", "/four", 201, NULL, "{\"n\":4}");
	journal_close(j);
	text = slurp(dir, NULL);
	assert_non_null(strstr(text, "\"path\":\"/thr\n{\"time\""));
	free(text);
	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 3);
	assert_string_equal(r[0].path, "/four");
	assert_int_equal(r[0].status, 201);
	assert_string_equal(r[1].path, "/two");
	assert_string_equal(r[2].path, "/one");
	journal_records_free(r, n);

	/* A whole object without its newline is not yet a record either. */
	append_raw(dir, "{\"time\":\"t\",\"method\":\"GET\",\"path\":\"/five\","
	    "\"status\":200}");
	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 3);
	assert_string_equal(r[0].path, "/four");
	journal_records_free(r, n);
}

static void
test_damaged_lines_skipped(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	size_t			 n;

	j = open_ok(dir);
	append_ok(j, "p", "POST", "/one", 200, NULL, NULL);
	journal_close(j);
	append_raw(dir, "not json at all\n\n{\"a\":1}\n[1,2]\n"
	    "{\"time\":\"t\",\"method\":\"GET\",\"path\":\"/p\",\"status\":\"x\"}\n"
	    "{\"time\":\"t\",\"method\":\"GET\",\"path\":\"/p\",\"status\":1}"
	    " trailing\n");
	j = open_ok(dir);
	append_ok(j, "p", "POST", "/two", 200, NULL, NULL);
	journal_close(j);

	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].path, "/two");
	assert_string_equal(r[1].path, "/one");
	journal_records_free(r, n);
}

static void
test_redaction(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	cJSON			*before;
	size_t			 n;
	char			*text, *cause = NULL, *orig, *again;

	before = cJSON_Parse("{\"uid\":\"L1\","
	    "\"rtmps\":{\"url\":\"rtmps://x\",\"streamKey\":\"SK-1\"},"
	    "\"srt\":{\"streamId\":\"id\",\"passphrase\":\"PP-1\"},"
	    "\"keys\":[{\"id\":\"k\",\"pem\":\"PEM-1\",\"jwk\":\"JWK-1\"},"
	    "[{\"deep\":{\"Secret\":{\"nested\":\"S-1\"}}}]],"
	    "\"token\":\"T-1\",\"client_secret\":\"CS-1\","
	    "\"refresh_token\":\"RT-1\",\"tokenCount\":5,"
	    "\"secretless\":\"ok\",\"unset\":{\"secret\":null}}");
	assert_non_null(before);
	orig = cJSON_PrintUnformatted(before);

	j = open_ok(dir);
	if (journal_append(j, "p", "PUT", "/live", 200, before, before,
	    &cause) != 0)
		fail_msg("journal_append: %s", cause);
	journal_close(j);

	/* The caller's record is untouched. */
	again = cJSON_PrintUnformatted(before);
	assert_string_equal(orig, again);
	cJSON_free(again);
	cJSON_free(orig);
	cJSON_Delete(before);

	text = slurp(dir, NULL);
	assert_null(strstr(text, "SK-1"));
	assert_null(strstr(text, "PP-1"));
	assert_null(strstr(text, "PEM-1"));
	assert_null(strstr(text, "JWK-1"));
	assert_null(strstr(text, "S-1"));
	assert_null(strstr(text, "T-1"));
	assert_null(strstr(text, "CS-1"));
	assert_null(strstr(text, "RT-1"));
	free(text);

	r = read_ok(dir, 1, &n);
	assert_int_equal(n, 1);
	expect_json(r[0].after, "{\"uid\":\"L1\","
	    "\"rtmps\":{\"url\":\"rtmps://x\",\"streamKey\":\"[redacted]\"},"
	    "\"srt\":{\"streamId\":\"id\",\"passphrase\":\"[redacted]\"},"
	    "\"keys\":[{\"id\":\"k\",\"pem\":\"[redacted]\","
	    "\"jwk\":\"[redacted]\"},"
	    "[{\"deep\":{\"Secret\":\"[redacted]\"}}]],"
	    "\"token\":\"[redacted]\",\"client_secret\":\"[redacted]\","
	    "\"refresh_token\":\"[redacted]\",\"tokenCount\":5,"
	    "\"secretless\":\"ok\",\"unset\":{\"secret\":null}}");
	journal_records_free(r, n);
}

/* The kinds' secret marks: a live input's WebRTC publish URL holds its key. */
static void
test_redaction_by_marks(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	cJSON			*live;
	size_t			 n;
	char			*text, *cause = NULL;

	live = cJSON_Parse("{\"uid\":\"L2\","
	    "\"webRTC\":{\"url\":\"https://c.example/K-PUBLISH/webRTC/"
	    "publish\"},"
	    "\"webRTCPlayback\":{\"url\":\"https://c.example/L2/webRTC/"
	    "play\"},"
	    "\"rtmpsPlayback\":{\"url\":\"rtmps://p\",\"streamKey\":\"PK-1\"},"
	    "\"srtPlayback\":{\"passphrase\":\"SP-1\"},"
	    "\"outputs\":[{\"url\":\"rtmp://o\",\"streamKey\":\"OK-1\"}],"
	    "\"uploadURL\":\"https://u.example/upload/x?token=DU-1\"}");
	assert_non_null(live);
	j = open_ok(dir);
	if (journal_append(j, "p", "POST", "/live_inputs", 200, NULL, live,
	    &cause) != 0)
		fail_msg("journal_append: %s", cause);
	journal_close(j);
	cJSON_Delete(live);

	text = slurp(dir, NULL);
	assert_null(strstr(text, "K-PUBLISH"));
	assert_null(strstr(text, "PK-1"));
	assert_null(strstr(text, "SP-1"));
	assert_null(strstr(text, "OK-1"));
	assert_null(strstr(text, "DU-1"));
	/* What is no secret stays. */
	assert_non_null(strstr(text, "L2/webRTC/play"));
	assert_non_null(strstr(text, "rtmp://o"));
	free(text);

	r = read_ok(dir, 1, &n);
	assert_int_equal(n, 1);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    r[0].after, "webRTC"), "url")->valuestring, "[redacted]");
	journal_records_free(r, n);
}

/* Bodies for the request log and -v: JSON redacted, the rest kept or sized. */
static void
test_redact_body(void **state)
{
	static const char	 live[] = "{\"result\":{\"webRTC\":{\"url\":"
	    "\"https://c/K/webRTC/publish\"},\"name\":\"\xc3\xa9t\xc3\xa9\"}}";
	char			*s;

	(void)state;
	s = redact_body(live, strlen(live), 0, REDACT_LINE);
	assert_string_equal(s, "{\"result\":{\"webRTC\":{\"url\":"
	    "\"[redacted]\"},\"name\":\"\xc3\xa9t\xc3\xa9\"}}");
	free(s);
	s = redact_body(live, strlen(live), 0, 0);
	assert_non_null(strstr(s, "\n    \"webRTC\": {\n"));
	assert_null(strstr(s, "publish"));
	free(s);
	/* Cut within a two-byte character: before it, with a note. */
	s = redact_body("not json \xc3\xa9", 11, 10, 0);
	assert_string_equal(s, "not json \n[... 2 more bytes not kept]");
	free(s);
	s = redact_body("a\0b\xff", 4, 0, 0);
	assert_string_equal(s, "[4 bytes of binary data]");
	free(s);
	s = redact_body(NULL, 0, 0, 0);
	assert_string_equal(s, "");
	free(s);
	assert_true(redact_path_is_secret("result.webRTC.url"));
	assert_true(redact_path_is_secret("webRTC.url"));
	assert_false(redact_path_is_secret("webRTCPlayback.url"));
	assert_false(redact_path_is_secret("mywebRTC.url"));
	assert_true(redact_path_is_secret("outputs.streamKey"));
	assert_false(redact_path_is_secret("tokenCount"));
}

static void
test_many_appends_keep_order(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	char			 path[32];
	size_t			 n, i;

	j = open_ok(dir);
	for (i = 0; i < 600; i++) {
		snprintf(path, sizeof path, "/item/%zu", i);
		append_ok(j, "p", "PATCH", path, 200, "{\"v\":0}", "{\"v\":1}");
	}
	journal_close(j);

	r = read_ok(dir, 1000, &n);
	assert_int_equal(n, 600);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "/item/%zu", 599 - i);
		assert_string_equal(r[i].path, path);
	}
	journal_records_free(r, n);

	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 10);
	assert_string_equal(r[0].path, "/item/599");
	assert_string_equal(r[9].path, "/item/590");
	journal_records_free(r, n);
}

/* Records longer than a read from the end, between short ones. */
static void
test_large_records(void **state)
{
	const char		*dir = *state;
	struct journal		*j;
	struct journal_record	*r;
	cJSON			*big;
	char			*s, *cause = NULL;
	size_t			 n, len = 300 * 1024;

	s = xmalloc(len + 1);
	memset(s, 'x', len);
	s[len] = '\0';
	big = cJSON_CreateObject();
	cJSON_AddStringToObject(big, "schema", s);

	j = open_ok(dir);
	append_ok(j, "p", "POST", "/small1", 200, NULL, NULL);
	if (journal_append(j, "p", "PUT", "/big", 200, NULL, big,
	    &cause) != 0)
		fail_msg("journal_append: %s", cause);
	append_ok(j, "p", "POST", "/small2", 200, NULL, NULL);
	if (journal_append(j, "p", "PUT", "/big2", 200, big, NULL,
	    &cause) != 0)
		fail_msg("journal_append: %s", cause);
	journal_close(j);

	r = read_ok(dir, 10, &n);
	assert_int_equal(n, 4);
	assert_string_equal(r[0].path, "/big2");
	assert_string_equal(cJSON_GetObjectItem(r[0].before,
	    "schema")->valuestring, s);
	assert_string_equal(r[1].path, "/small2");
	assert_string_equal(r[2].path, "/big");
	assert_string_equal(cJSON_GetObjectItem(r[2].after,
	    "schema")->valuestring, s);
	assert_string_equal(r[3].path, "/small1");
	journal_records_free(r, n);
	cJSON_Delete(big);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_append_and_read,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_one_line_per_record,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_mode,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_missing_and_errors,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_torn_last_line,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_damaged_lines_skipped,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_redaction,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_redaction_by_marks,
		    setup_dir, teardown_dir),
		cmocka_unit_test(test_redact_body),
		cmocka_unit_test_setup_teardown(test_many_appends_keep_order,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_large_records,
		    setup_dir, teardown_dir),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
