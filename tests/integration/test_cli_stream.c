/*
 * Integration tests for the Stream commands beyond the kinds, run as a
 * user would against edgemu: upload --from-url (the origin is faultd on
 * loopback), clip, embed, caption upload|generate|vtt, download --type
 * with --wait and --delete, and an audio track's PATCH through update.
 * Waits poll a state with a deadline.
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "clitest.h"
#include "faultd.h"
#include "itest.h"
#include "jsonget.h"
#include "media.h"
#include "testdir.h"

#define WAIT_SECONDS	60

struct rig {
	struct fixture	 f;
	struct faultd	*origin;
	struct buf	 mp4;
	char		 uid[33];	/* copied from the origin, ready */
};

static void
pause_briefly(void)
{
	struct timespec	ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static char *
video_path(struct rig *g, const char *uid)
{
	return (itest_printf("/accounts/%s/stream/%s", g->f.emu.account, uid));
}

static cJSON *
wait_ready(struct rig *g, const char *uid)
{
	time_t	 deadline = time(NULL) + WAIT_SECONDS;
	char	*p = video_path(g, uid);
	cJSON	*v;

	for (;;) {
		v = api_ok(&g->f.emu, "GET", p, NULL);
		if (strcmp(jstr(v, "status.state"), "ready") == 0 ||
		    strcmp(jstr(v, "status.state"), "error") == 0)
			break;
		cJSON_Delete(v);
		if (time(NULL) > deadline)
			fail_msg("video %s never finished", uid);
		pause_briefly();
	}
	free(p);
	return (v);
}

static int
setup(void **state)
{
	struct faultd_reply	 r;
	struct rig		*g = calloc(1, sizeof *g);
	struct run		 run;
	char			*url;
	size_t			 i;
	cJSON			*v;

	assert_non_null(g);
	edgemu_start(&g->f.emu, NULL, 1, "--processing-seconds", "1", NULL);
	assert_non_null(g->f.home = testdir_new("clistream"));
	buf_init(&g->mp4);
	media_mp4(&g->mp4, 1000, 10000, 640, 360, 2000);
	for (i = 0; i < 2000; i++)
		buf_addc(&g->mp4, (char)i);
	assert_non_null(g->origin = faultd_start(0));
	memset(&r, 0, sizeof r);
	r.body = g->mp4.data;
	r.len = g->mp4.len;
	faultd_script(g->origin, &r, 1);

	/* upload --from-url: the new uid alone on stdout. */
	url = itest_printf("%s/talk.mp4", faultd_url(g->origin));
	RUN(&g->f, &run, "upload", "--from-url", url, "--name", "talk");
	if (run.status != 0 || strlen(run.out) != 33)
		fail_msg("upload --from-url: %d '%s' %s", run.status, run.out,
		    run.err);
	snprintf(g->uid, sizeof g->uid, "%.32s", run.out);
	run_free(&run);
	v = wait_ready(g, g->uid);
	assert_string_equal(jstr(v, "status.state"), "ready");
	assert_string_equal(jstr(v, "meta.downloaded-from"), url);
	assert_string_equal(jstr(v, "meta.name"), "talk");
	cJSON_Delete(v);
	free(url);
	*state = g;
	return (0);
}

static int
teardown(void **state)
{
	struct rig	*g = *state;

	faultd_free(g->origin);
	buf_free(&g->mp4);
	edgemu_finish(&g->f.emu);
	testdir_remove(g->f.home);
	free(g->f.home);
	free(g);
	return (0);
}

static void
expect(struct run *r, int status, const char *out, const char *err)
{
	if (r->status != status || (out != NULL && strstr(r->out,
	    out) == NULL) || (err != NULL && strstr(r->err, err) == NULL))
		fail_msg("status %d (wanted %d), stdout '%s' (wanted '%s'), "
		    "stderr '%s' (wanted '%s')", r->status, status, r->out,
		    out != NULL ? out : "", r->err, err != NULL ? err : "");
}

static void
test_copy_refused(void **state)
{
	struct rig	*g = *state;
	struct run	 r;

	RUN(&g->f, &r, "upload", "--from-url", "ftp://127.0.0.1/v.mp4");
	expect(&r, 2, NULL, "only http and https");
	run_free(&r);
	RUN(&g->f, &r, "upload", "v.mp4", "--from-url",
	    "http://127.0.0.1/v.mp4");
	expect(&r, 2, NULL, "not both");
	run_free(&r);
}

static void
test_clip(void **state)
{
	struct rig	*g = *state;
	struct run	 r;
	char		 clip[33], *p;
	cJSON		*v;

	RUN(&g->f, &r, "clip", g->uid, "--start", "1.5", "--end", "0:04",
	    "--name", "cut");
	expect(&r, 0, NULL, NULL);
	assert_int_equal(strlen(r.out), 33);
	snprintf(clip, sizeof clip, "%.32s", r.out);
	run_free(&r);
	v = wait_ready(g, clip);
	assert_string_equal(jstr(v, "clippedFrom"), g->uid);
	assert_true(jnum(v, "duration") == 2.5);
	assert_string_equal(jstr(v, "meta.name"), "cut");
	cJSON_Delete(v);
	/* Refused before sending, and by the server. */
	RUN(&g->f, &r, "clip", g->uid, "--start", "5", "--end", "1");
	expect(&r, 2, NULL, "--start must be before --end");
	run_free(&r);
	RUN(&g->f, &r, "clip", g->uid, "--start", "1:75", "--end", "2:00");
	expect(&r, 2, NULL, "is not a time");
	run_free(&r);
	RUN(&g->f, &r, "clip", g->uid, "--start", "1");
	expect(&r, 2, NULL, "usage");
	run_free(&r);
	RUN(&g->f, &r, "clip", g->uid, "--start", "1", "--end", "30");
	expect(&r, 1, NULL, "past the end");
	run_free(&r);
	p = video_path(g, clip);
	cJSON_Delete(api_ok(&g->f.emu, "DELETE", p, NULL));
	free(p);
}

static void
test_embed(void **state)
{
	struct rig	*g = *state;
	struct run	 r;
	char		*want;

	want = itest_printf("<stream src=\"%s\">", g->uid);
	RUN(&g->f, &r, "embed", g->uid);
	expect(&r, 0, want, NULL);
	run_free(&r);
	free(want);
	RUN(&g->f, &r, "embed", "00000000000000000000000000000000");
	expect(&r, 1, NULL, "was not found");
	assert_string_equal(r.out, "");
	run_free(&r);
}

static void
test_captions(void **state)
{
	struct rig	*g = *state;
	struct run	 r;
	char		*vtt, *srt;
	time_t		 deadline;

	vtt = itest_printf("%s/fr.vtt", g->f.home);
	srt = itest_printf("%s/de.srt", g->f.home);
	spill(vtt, "WEBVTT\n\n00:00.000 --> 00:02.000\nBonjour\n", 0600);
	spill(srt, "1\n00:00:00,000 --> 00:00:02,000\nHallo\n", 0600);
	RUN(&g->f, &r, "caption", "upload", g->uid, "fr", vtt);
	expect(&r, 0, "Français", NULL);
	run_free(&r);
	/* FR is the same caption, sent as fr: one in the list, not two. */
	RUN(&g->f, &r, "caption", "upload", g->uid, "FR", vtt);
	expect(&r, 0, "Français", NULL);
	run_free(&r);
	RUN(&g->f, &r, "-o", "json", "get", "captions", "--video", g->uid);
	expect(&r, 0, "\"fr\"", NULL);
	assert_null(strstr(r.out, "\"FR\""));
	run_free(&r);
	RUN(&g->f, &r, "caption", "upload", g->uid, "de", srt);
	expect(&r, 2, NULL, "not a WebVTT file");
	run_free(&r);
	RUN(&g->f, &r, "caption", "upload", g->uid, "d3", vtt);
	expect(&r, 2, NULL, "not a language tag");
	run_free(&r);
	RUN(&g->f, &r, "caption", "vtt", g->uid, "fr");
	expect(&r, 0, "Bonjour", NULL);
	assert_true(strncmp(r.out, "WEBVTT", 6) == 0);
	run_free(&r);
	RUN(&g->f, &r, "caption", "generate", g->uid, "en");
	expect(&r, 0, "inprogress", NULL);
	run_free(&r);
	RUN(&g->f, &r, "caption", "generate", g->uid, "en");
	expect(&r, 1, NULL, "delete it first");
	run_free(&r);
	/*
	 * A language Stream does not generate in: refused here, the list
	 * said; the server named is the discard port, so a request sent
	 * would fail otherwise (exit 3).
	 */
	RUN(&g->f, &r, "--base-url", "http://127.0.0.1:9/client/v4",
	    "caption", "generate", g->uid, "zh-Hant");
	expect(&r, 2, NULL, "generates captions in cs, nl, en, fr, de, it, "
	    "ja, ko, pl, pt, ru and es (a region may follow: en-GB), not "
	    "zh-Hant");
	assert_string_equal(r.out, "");
	run_free(&r);
	deadline = time(NULL) + WAIT_SECONDS;
	for (;;) {
		RUN(&g->f, &r, "caption", "vtt", g->uid, "en");
		if (r.status == 0)
			break;
		expect(&r, 1, NULL, "still being generated");
		run_free(&r);
		if (time(NULL) > deadline)
			fail_msg("generated captions never ready");
		pause_briefly();
	}
	expect(&r, 0, "auto-generated", NULL);
	run_free(&r);
	RUN(&g->f, &r, "get", "captions", "--video", g->uid);
	expect(&r, 0, "GENERATED", NULL);
	assert_non_null(strstr(r.out, "English (auto-generated)"));
	run_free(&r);
	RUN(&g->f, &r, "caption", "vtt", g->uid, "ko");
	expect(&r, 1, NULL, "no caption in ko");
	run_free(&r);
	free(vtt);
	free(srt);
}

static void
test_download_types(void **state)
{
	struct rig	*g = *state;
	struct run	 r;

	RUN(&g->f, &r, "download", g->uid, "--type", "audio", "--wait");
	expect(&r, 0, "/downloads/audio.m4a", NULL);
	run_free(&r);
	RUN(&g->f, &r, "download", g->uid, "--type", "flac");
	expect(&r, 2, NULL, "default (MP4) or audio (M4A)");
	run_free(&r);
	RUN(&g->f, &r, "download", g->uid, "--type", "audio", "--delete");
	expect(&r, 0, NULL, NULL);
	run_free(&r);
	RUN(&g->f, &r, "download", g->uid, "--type", "audio", "--delete");
	expect(&r, 1, NULL, "no audio download");
	run_free(&r);
	/* The table is the audio row, not the default MP4's. */
	RUN(&g->f, &r, "download", g->uid, "--type", "audio");
	expect(&r, 0, "/downloads/audio.m4a", NULL);
	assert_non_null(strstr(r.out, "\naudio "));
	assert_null(strstr(r.out, "default.mp4"));
	run_free(&r);
}

static void
test_audio_update(void **state)
{
	struct rig	*g = *state;
	struct run	 r;
	char		*body, *patch, track[33];
	cJSON		*t;

	body = itest_printf("%s/track.json", g->f.home);
	patch = itest_printf("%s/patch.json", g->f.home);
	spill(body, "{\"label\":\"Narration\","
	    "\"url\":\"https://example.com/n.m4a\"}", 0600);
	RUN(&g->f, &r, "create", "audio-tracks", "--video", g->uid, "-f",
	    body, "-o", "json");
	expect(&r, 0, NULL, NULL);
	assert_non_null(t = cJSON_Parse(r.out));
	snprintf(track, sizeof track, "%s", jstr(t, "uid"));
	cJSON_Delete(t);
	run_free(&r);
	spill(body, "{\"label\":\"Commentary\","
	    "\"url\":\"https://example.com/c.m4a\"}", 0600);
	RUN(&g->f, &r, "create", "audio-tracks", "--video", g->uid, "-f",
	    body, "-o", "json");
	expect(&r, 0, NULL, NULL);
	run_free(&r);
	spill(patch, "{\"label\":\"Main\",\"default\":false}", 0600);
	RUN(&g->f, &r, "update", "audio-tracks", track, "--video", g->uid,
	    "-f", patch);
	expect(&r, 1, NULL, "exactly one");
	run_free(&r);
	spill(patch, "{\"label\":\"Main\"}", 0600);
	RUN(&g->f, &r, "update", "audio-tracks", track, "--video", g->uid,
	    "-f", patch);
	expect(&r, 0, NULL, NULL);
	run_free(&r);
	RUN(&g->f, &r, "get", "audio-tracks", "--video", g->uid);
	expect(&r, 0, "Main", NULL);
	run_free(&r);
	free(body);
	free(patch);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_refused),
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_embed),
		cmocka_unit_test(test_captions),
		cmocka_unit_test(test_download_types),
		cmocka_unit_test(test_audio_update),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, setup, teardown));
}
