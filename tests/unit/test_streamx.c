/*
 * Unit tests for the Stream operations' client side (src/streamx.c): clip
 * times in seconds and [h:]m:s, the checks of URLs, language tags, WebVTT
 * files and download types, the request bodies and the paths; and the
 * languages Stream generates captions in (src/captionlang.c).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api.h"
#include "captionlang.h"
#include "streamrules.h"
#include "streamx.h"
#include "testdir.h"
#include "xmalloc.h"

static void
test_seconds(void **state)
{
	static const struct {
		const char	*in;
		double		 out;
	} good[] = {
		{ "0", 0 }, { "90", 90 }, { "12.5", 12.5 }, { "1:30", 90 },
		{ "0:04", 4 }, { "1:02:03.5", 3723.5 }, { "10:00", 600 },
	};
	static const char *const bad[] = {
		"", "-1", "1:", ":30", "1:60", "1:75", "1:2:3:4", "1.5:30",
		"abc", "1 ", " 1", "1:02:60", "2:60:00", "nan", "inf",
	};
	char	*cause = NULL;
	double	 v;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(good); i++) {
		if (streamx_parse_seconds(good[i].in, &v, &cause) != 0)
			fail_msg("'%s': %s", good[i].in, cause);
		if (v != good[i].out)
			fail_msg("'%s' is %g, not %g", good[i].in, v,
			    good[i].out);
	}
	for (i = 0; i < nitems(bad); i++) {
		if (streamx_parse_seconds(bad[i], &v, &cause) == 0)
			fail_msg("'%s' was taken as %g", bad[i], v);
		assert_non_null(strstr(cause, "is not a time"));
		free(cause);
		cause = NULL;
	}
}

static void
test_checks(void **state)
{
	char		*cause = NULL;
	const char	*type;

	(void)state;
	assert_int_equal(streamx_url_check("https://example.com/v.mp4",
	    &cause), 0);
	assert_int_equal(streamx_url_check("HTTP://127.0.0.1:8/v", &cause), 0);
	assert_int_equal(streamx_url_check("ftp://example.com/v.mp4", &cause),
	    -1);
	assert_non_null(strstr(cause, "only http and https"));
	free(cause);
	assert_int_equal(streamx_url_check("v.mp4", &cause), -1);
	assert_non_null(strstr(cause, "not an absolute URL"));
	free(cause);

	assert_int_equal(streamx_language_check("en", &cause), 0);
	assert_int_equal(streamx_language_check("pt-BR", &cause), 0);
	assert_int_equal(streamx_language_check("zh-Hant-TW", &cause), 0);
	assert_int_equal(streamx_language_check("e", &cause), -1);
	free(cause);
	assert_int_equal(streamx_language_check("en-", &cause), -1);
	free(cause);
	assert_int_equal(streamx_language_check("en/../x", &cause), -1);
	free(cause);
	assert_int_equal(streamx_language_check("toolongx", &cause), -1);
	free(cause);

	assert_int_equal(streamx_download_type(NULL, &type, &cause), 0);
	assert_string_equal(type, "default");
	assert_int_equal(streamx_download_type("audio", &type, &cause), 0);
	assert_string_equal(type, "audio");
	assert_int_equal(streamx_download_type("mp3", &type, &cause), -1);
	free(cause);

	assert_true(streamx_content_type_is("text/html; charset=utf-8",
	    "text/html"));
	assert_true(streamx_content_type_is("TEXT/VTT", "text/vtt"));
	assert_false(streamx_content_type_is("text/vtt2", "text/vtt"));
	assert_false(streamx_content_type_is("application/json", "text/vtt"));
	assert_false(streamx_content_type_is(NULL, "text/vtt"));
}

static void
vtt_file(const char *dir, const char *name, const char *text, size_t len,
    char **path)
{
	FILE	*f;

	*path = xprintf("%s/%s", dir, name);
	assert_non_null(f = fopen(*path, "wb"));
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void
test_vtt(void **state)
{
	static const char	 bom[] = "\xef\xbb\xbfWEBVTT\n\n";
	char			*dir, *path, *cause = NULL, *big;
	size_t			 n = STREAMRULES_CAPTION_FILE_MAX + 1;

	(void)state;
	assert_non_null(dir = testdir_new("streamx"));
	vtt_file(dir, "a.vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n", 33,
	    &path);
	assert_int_equal(streamx_vtt_check(path, &cause), 0);
	free(path);
	vtt_file(dir, "b.vtt", bom, sizeof bom - 1, &path);
	assert_int_equal(streamx_vtt_check(path, &cause), 0);
	free(path);
	vtt_file(dir, "c.vtt", "WEBVTT - a title\n", 17, &path);
	assert_int_equal(streamx_vtt_check(path, &cause), 0);
	free(path);
	vtt_file(dir, "d.srt", "1\n00:00:00,000 --> 00:00:01,000\n", 32,
	    &path);
	assert_int_equal(streamx_vtt_check(path, &cause), -1);
	assert_non_null(strstr(cause, "not a WebVTT file"));
	free(cause);
	free(path);
	vtt_file(dir, "e.vtt", "WEBVTTX\n", 8, &path);
	assert_int_equal(streamx_vtt_check(path, &cause), -1);
	free(cause);
	free(path);
	big = xcalloc(1, n);
	memcpy(big, "WEBVTT\n", 7);
	vtt_file(dir, "f.vtt", big, n, &path);
	assert_int_equal(streamx_vtt_check(path, &cause), -1);
	assert_non_null(strstr(cause, "over the 10 MB"));
	free(cause);
	free(path);
	free(big);
	path = xprintf("%s/missing.vtt", dir);
	assert_int_equal(streamx_vtt_check(path, &cause), -1);
	free(cause);
	free(path);
	assert_int_equal(streamx_vtt_check(dir, &cause), -1);
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	testdir_remove(dir);
	free(dir);
}

static void
test_bodies_paths(void **state)
{
	struct api_var	 vars[] = { { "account", "acc" }, { NULL, NULL } };
	struct api_var	 none[] = { { "account", NULL }, { NULL, NULL } };
	char		*path, *cause = NULL, *text;
	cJSON		*b;

	(void)state;
	b = streamx_copy_body("https://e.com/v.mp4", "My video", "alice", 1);
	text = cJSON_PrintUnformatted(b);
	assert_string_equal(text, "{\"input\":\"https://e.com/v.mp4\","
	    "\"meta\":{\"name\":\"My video\"},\"creator\":\"alice\","
	    "\"requireSignedURLs\":true}");
	cJSON_free(text);
	cJSON_Delete(b);
	b = streamx_copy_body("https://e.com/v.mp4", NULL, NULL, 0);
	text = cJSON_PrintUnformatted(b);
	assert_string_equal(text, "{\"input\":\"https://e.com/v.mp4\"}");
	cJSON_free(text);
	cJSON_Delete(b);
	b = streamx_clip_body("uid", 1.5, 4, "cut");
	text = cJSON_PrintUnformatted(b);
	assert_string_equal(text, "{\"clippedFromVideoUID\":\"uid\","
	    "\"startTimeSeconds\":1.5,\"endTimeSeconds\":4,"
	    "\"meta\":{\"name\":\"cut\"}}");
	cJSON_free(text);
	cJSON_Delete(b);

	path = streamx_path(vars, NULL, "/copy", NULL, &cause);
	assert_string_equal(path, "/accounts/acc/stream/copy");
	free(path);
	path = streamx_path(vars, "vid", "/captions/{name}/vtt", "pt-BR",
	    &cause);
	assert_string_equal(path, "/accounts/acc/stream/vid/captions/pt-BR/vtt");
	free(path);
	/* A name that would leave its segment is refused. */
	assert_null(streamx_path(vars, "vid", "/captions/{name}", "..",
	    &cause));
	free(cause);
	cause = NULL;
	assert_null(streamx_path(none, NULL, "/clip", NULL, &cause));
	free(cause);
}

/* The table the CLI, the console and edgemu share. */
static void
test_captionlang(void **state)
{
	const struct captionlang	*l;
	char				*list;

	(void)state;
	assert_non_null(l = captionlang_find("en"));
	assert_string_equal(l->name, "English");
	assert_ptr_equal(captionlang_find("en-GB"), l);
	assert_ptr_equal(captionlang_find("EN"), l);
	assert_string_equal(captionlang_find("pt-BR")->tag, "pt");
	assert_null(captionlang_find("zh"));
	assert_null(captionlang_find("e"));
	assert_null(captionlang_find("eng"));
	assert_null(captionlang_find(""));
	list = captionlang_list();
	assert_string_equal(list, "cs, nl, en, fr, de, it, ja, ko, pl, pt, "
	    "ru and es");
	free(list);
}

/* A tag in BCP 47's usual case: what is sent, so EN and en are one. */
static void
test_captionlang_canon(void **state)
{
	static const char *const cases[][2] = {
		{ "EN", "en" }, { "en", "en" }, { "EN-gb", "en-GB" },
		{ "pt-br", "pt-BR" }, { "ZH-HANT-tw", "zh-Hant-TW" },
		{ "es-419", "es-419" }, { "sl-ROZAJ", "sl-rozaj" },
		{ "en-X-Private-AB", "en-x-private-ab" },
	};
	char	 tag[40];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		strcpy(tag, cases[i][0]);
		captionlang_canon(tag);
		assert_string_equal(tag, cases[i][1]);
	}
	assert_true(captionlang_tag_ok("zh-Hant-TW"));
	assert_true(captionlang_tag_ok("EN"));
	assert_false(captionlang_tag_ok("e1"));
	assert_false(captionlang_tag_ok("english"));
	assert_false(captionlang_tag_ok("en-"));
	assert_false(captionlang_tag_ok("en-toolongsub"));
	assert_false(captionlang_tag_ok(""));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_vtt),
		cmocka_unit_test(test_bodies_paths),
		cmocka_unit_test(test_captionlang),
		cmocka_unit_test(test_captionlang_canon),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
