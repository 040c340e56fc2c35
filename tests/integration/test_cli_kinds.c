/*
 * Integration tests: every KIND and verb of edgetui's one-shot commands,
 * run as a user would against edgemu with the demo data, with the result
 * checked on the server through a follow-up get or the API.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "clitest.h"
#include "itest.h"
#include "testpng.h"


static char *
file_in(struct fixture *f, const char *name, const char *text)
{
	char	*path = itest_printf("%s/%s", f->home, name);

	spill(path, text, 0600);
	return (path);
}

static int
has(const char *s, const char *what)
{
	return (strstr(s, what) != NULL);
}

static char *
acct_path(struct fixture *f, const char *rest)
{
	return (itest_printf("/accounts/%s/%s", f->emu.account, rest));
}

/* The same below one video: /accounts/A/stream/VIDEO/rest. */
static char *
video_path(struct fixture *f, const char *video, const char *rest)
{
	return (itest_printf("/accounts/%s/stream/%s%s%s", f->emu.account,
	    video, *rest != '\0' ? "/" : "", rest));
}

static char *
zone_path(struct fixture *f, const char *rest)
{
	return (itest_printf("/zones/%s/%s", f->emu.zone, rest));
}

/* The string at key of the first item of an API list (caller frees). */
static char *
first_id(struct fixture *f, char *path, const char *key)
{
	cJSON	*r = api_ok(&f->emu, "GET", path, NULL);
	char	*id;

	assert_true(cJSON_GetArraySize(r) > 0);
	id = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(r, 0),
	    key)->valuestring);
	cJSON_Delete(r);
	free(path);
	return (id);
}

static int
api_count(struct fixture *f, char *path)
{
	cJSON	*r = api_ok(&f->emu, "GET", path, NULL);
	int	 n;

	assert_true(cJSON_IsArray(r));
	n = cJSON_GetArraySize(r);
	cJSON_Delete(r);
	free(path);
	return (n);
}

/* A ready demo video with ncaptions captions (the demo gives 3, 2, 3). */
static char *
video_with(struct fixture *f, int ncaptions, int naudio)
{
	cJSON	*list, *v;
	char	*path, *uid = NULL;

	path = acct_path(f, "stream");
	list = api_ok(&f->emu, "GET", path, NULL);
	free(path);
	cJSON_ArrayForEach(v, list) {
		const char *id = cJSON_GetObjectItem(v, "uid")->valuestring;

		if (api_count(f, video_path(f, id, "captions")) == ncaptions &&
		    api_count(f, video_path(f, id, "audio")) == naudio &&
		    strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(v,
		    "status"), "state")->valuestring, "ready") == 0) {
			uid = strdup(id);
			break;
		}
	}
	cJSON_Delete(list);
	assert_non_null(uid);
	return (uid);
}

/* A ready demo video without a download yet. */
static char *
video_ready_plain(struct fixture *f)
{
	return (video_with(f, 0, 0));
}

/* ---- tests -------------------------------------------------------------- */

static void
test_videos(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id, *file, *path;
	cJSON		*v;

	id = first_id(f, acct_path(f, "stream"), "uid");
	RUN(f, &r, "get", "videos");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_int_equal(count_lines(r.out), 51);	/* header + 50 */
	run_free(&r);

	RUN(f, &r, "get", "videos", id, "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	assert_string_equal(cJSON_GetObjectItem(v, "uid")->valuestring, id);
	cJSON_Delete(v);
	run_free(&r);

	file = file_in(f, "video.yaml", "meta:\n  name: renamed by kinds\n");
	RUN(f, &r, "update", "videos", id, "-f", file);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "videos", id);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "renamed by kinds"));
	run_free(&r);

	RUN(f, &r, "create", "videos", "-f", file);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "videos cannot be created"));
	run_free(&r);

	RUN(f, &r, "delete", "videos", id);
	assert_int_equal(r.status, 0);
	run_free(&r);
	path = video_path(f, id, "");
	free(api_fail(&f->emu, "GET", path, NULL, 404));
	RUN(f, &r, "get", "videos", id);
	assert_int_equal(r.status, 1);
	run_free(&r);
	free(path);
	free(file);
	free(id);
}

static void
test_live_inputs(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *upd, *uid;
	cJSON		*v;

	file = file_in(f, "live.yaml", "meta:\n  name: kinds live\n"
	    "recording:\n  mode: automatic\n");
	RUN(f, &r, "create", "live-inputs", "-f", file, "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	uid = strdup(cJSON_GetObjectItem(v, "uid")->valuestring);
	cJSON_Delete(v);
	run_free(&r);

	RUN(f, &r, "get", "live-inputs", uid);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "kinds live"));
	run_free(&r);

	upd = file_in(f, "live2.yaml", "meta:\n  name: kinds live 2\n");
	RUN(f, &r, "update", "live-inputs", uid, "-f", upd);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "live-inputs", uid, "-o", "yaml");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "kinds live 2"));
	run_free(&r);

	/* The list shows no stream keys, in any format. */
	RUN(f, &r, "get", "live-inputs");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "kinds live 2"));
	assert_false(has(r.out, "streamKey"));
	assert_false(has(r.out, "passphrase"));
	run_free(&r);

	RUN(f, &r, "delete", "live-inputs", uid);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "live-inputs", uid);
	assert_int_equal(r.status, 1);
	run_free(&r);
	free(uid);
	free(upd);
	free(file);
}

static void
test_watermarks(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	unsigned char	 tiny_png[TESTPNG_MAX];
	char		*png, *uid;
	FILE		*fp;
	cJSON		*v;
	size_t		 pn;
	int		 before;

	png = itest_printf("%s/logo.png", f->home);
	pn = testpng_make(tiny_png, 1, 1);
	assert_non_null(fp = fopen(png, "wb"));
	assert_int_equal(fwrite(tiny_png, 1, pn, fp), pn);
	assert_int_equal(fclose(fp), 0);
	before = api_count(f, acct_path(f, "stream/watermarks"));

	RUN(f, &r, "create", "watermarks", "-f", png, "--opacity", "0.5",
	    "--name", "kinds mark", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	uid = strdup(cJSON_GetObjectItem(v, "uid")->valuestring);
	assert_true(cJSON_GetObjectItem(v, "opacity")->valuedouble == 0.5);
	cJSON_Delete(v);
	run_free(&r);
	assert_int_equal(api_count(f, acct_path(f, "stream/watermarks")),
	    before + 1);

	RUN(f, &r, "get", "watermarks");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, uid));
	assert_true(has(r.out, "kinds mark"));
	run_free(&r);

	RUN(f, &r, "update", "watermarks", uid, "-f", png);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "watermarks"));
	run_free(&r);

	RUN(f, &r, "delete", "watermarks", uid);
	assert_int_equal(r.status, 0);
	run_free(&r);
	assert_int_equal(api_count(f, acct_path(f, "stream/watermarks")),
	    before);
	free(uid);
	free(png);
}

static void
test_captions(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*vid;

	vid = video_with(f, 3, 3);
	RUN(f, &r, "get", "captions", "--video", vid);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "English"));
	assert_true(has(r.out, "Espa"));
	assert_true(has(r.out, "fr"));
	assert_int_equal(count_lines(r.out), 4);
	run_free(&r);

	RUN(f, &r, "get", "captions", "en", "--video", vid);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "English"));
	assert_int_equal(count_lines(r.out), 2);
	run_free(&r);

	RUN(f, &r, "get", "captions");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--video"));
	run_free(&r);

	RUN(f, &r, "delete", "captions", "en", "--video", vid);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "captions", "--video", vid);
	assert_false(has(r.out, "English"));
	assert_int_equal(count_lines(r.out), 3);
	run_free(&r);
	free(vid);
}

static void
test_audio_tracks(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*vid, *file, *uid;
	cJSON		*v;

	vid = video_with(f, 3, 3);
	RUN(f, &r, "get", "audio-tracks", "--video", vid);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "Director commentary"));
	assert_int_equal(count_lines(r.out), 4);
	run_free(&r);

	file = file_in(f, "audio.yaml", "label: kinds track\n");
	RUN(f, &r, "create", "audio-tracks", "--video", vid, "-f", file,
	    "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	uid = strdup(cJSON_GetObjectItem(v, "uid")->valuestring);
	cJSON_Delete(v);
	run_free(&r);
	RUN(f, &r, "get", "audio-tracks", "--video", vid);
	assert_true(has(r.out, "kinds track"));
	assert_int_equal(count_lines(r.out), 5);
	run_free(&r);

	RUN(f, &r, "delete", "audio-tracks", uid, "--video", vid);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "audio-tracks", "--video", vid);
	assert_false(has(r.out, "kinds track"));
	assert_int_equal(count_lines(r.out), 4);
	run_free(&r);

	/* A PATCH of the track just deleted: the server says it is gone. */
	RUN(f, &r, "update", "audio-tracks", uid, "--video", vid, "-f", file);
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "no audio track"));
	run_free(&r);
	free(uid);
	free(file);
	free(vid);
}

static void
test_webhook(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file;

	file = file_in(f, "hook.yaml",
	    "notificationUrl: https://hooks.example.org/kinds\n");
	RUN(f, &r, "update", "webhook", "-f", file);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "webhook");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "https://hooks.example.org/kinds"));
	run_free(&r);

	RUN(f, &r, "create", "webhook", "-f", file);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "webhook cannot be created"));
	run_free(&r);

	RUN(f, &r, "delete", "webhook");
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "webhook");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "has no webhook"));
	run_free(&r);
	free(file);
}

static void
test_signing_keys(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id, *pem, *line;
	cJSON		*v;

	RUN(f, &r, "create", "signing-keys", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	id = strdup(cJSON_GetObjectItem(v, "id")->valuestring);
	pem = strdup(cJSON_GetObjectItem(v, "pem")->valuestring);
	cJSON_Delete(v);
	assert_true(has(r.err, "shown only this once"));
	run_free(&r);

	RUN(f, &r, "create", "signing-keys");
	assert_int_equal(r.status, 0);
	assert_non_null(line = strstr(r.out, "\npem: "));
	assert_true(strlen(line) > 100);
	assert_true(has(r.err, "shown only this once"));
	run_free(&r);

	RUN(f, &r, "get", "signing-keys");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_false(has(r.out, "pem"));
	assert_false(has(r.out, pem));
	run_free(&r);
	RUN(f, &r, "get", "signing-keys", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_false(has(r.out, pem));
	assert_false(has(r.out, "\"pem\""));
	run_free(&r);

	RUN(f, &r, "delete", "signing-keys", id);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "signing-keys");
	assert_false(has(r.out, id));
	run_free(&r);
	free(pem);
	free(id);
}

static void
test_downloads(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*vid, *path;
	cJSON		*v;

	vid = video_ready_plain(f);
	RUN(f, &r, "create", "downloads", "--video", vid);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "downloads/default.mp4"));
	run_free(&r);
	path = video_path(f, vid, "downloads");
	v = api_ok(&f->emu, "GET", path, NULL);
	assert_non_null(cJSON_GetObjectItem(v, "default"));
	cJSON_Delete(v);

	RUN(f, &r, "get", "downloads", "--video", vid, "-o", "json");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "default.mp4"));
	run_free(&r);

	RUN(f, &r, "delete", "downloads", "--video", vid);
	assert_int_equal(r.status, 0);
	run_free(&r);
	free(path);
	free(vid);
}

static void
test_storage_usage(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*v;

	RUN(f, &r, "get", "storage-usage");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "MINUTES"));
	run_free(&r);
	RUN(f, &r, "get", "storage-usage", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	assert_int_equal((int)cJSON_GetObjectItem(v, "videoCount")->valuedouble,
	    50);
	cJSON_Delete(v);
	run_free(&r);
	RUN(f, &r, "delete", "storage-usage", "x");
	assert_int_equal(r.status, 2);
	run_free(&r);
}

static void
test_direct_uploads(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*ok, *bad;
	int		 before;

	ok = file_in(f, "du.yaml", "maxDurationSeconds: 60\n");
	bad = file_in(f, "du0.yaml", "maxDurationSeconds: 0\n");
	before = api_count(f, acct_path(f, "stream"));
	RUN(f, &r, "create", "direct-uploads", "-f", ok);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "/upload/"));
	assert_true(has(r.out, "http://127.0.0.1:"));
	run_free(&r);
	assert_int_equal(api_count(f, acct_path(f, "stream")), before + 1);

	RUN(f, &r, "create", "direct-uploads", "-f", bad);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "maxDurationSeconds"));
	assert_true(has(r.err, "nothing was sent"));
	run_free(&r);
	assert_int_equal(api_count(f, acct_path(f, "stream")), before + 1);

	RUN(f, &r, "get", "direct-uploads");
	assert_int_equal(r.status, 2);
	run_free(&r);
	free(bad);
	free(ok);
}

static void
test_api_config(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*two, *many, *path;
	cJSON		*v;
	struct buf	 b;
	int		 i;

	RUN(f, &r, "get", "api-config");
	assert_int_equal(r.status, 0);
	run_free(&r);

	two = file_in(f, "ac.yaml", "auth_id_characteristics:\n"
	    "  - {type: header, name: x-kinds-a}\n"
	    "  - {type: cookie, name: kinds_b}\n");
	RUN(f, &r, "update", "api-config", "-f", two);
	assert_int_equal(r.status, 0);
	run_free(&r);
	path = zone_path(f, "api_gateway/configuration");
	v = api_ok(&f->emu, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v,
	    "auth_id_characteristics")), 2);
	cJSON_Delete(v);
	RUN(f, &r, "get", "api-config", "-o", "yaml");
	assert_true(has(r.out, "x-kinds-a"));
	run_free(&r);

	buf_init(&b);
	buf_adds(&b, "auth_id_characteristics:\n");
	for (i = 0; i < 11; i++)
		buf_addf(&b, "  - {type: header, name: x-h%d}\n", i);
	many = file_in(f, "ac11.yaml", buf_str(&b));
	buf_free(&b);
	RUN(f, &r, "update", "api-config", "-f", many);
	assert_int_equal(r.status, 2);
	run_free(&r);
	v = api_ok(&f->emu, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v,
	    "auth_id_characteristics")), 2);
	cJSON_Delete(v);

	RUN(f, &r, "update", "api-config", "x", "-f", two);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "takes no id"));
	run_free(&r);
	free(path);
	free(many);
	free(two);
}

static void
test_discovery_schemas(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;

	RUN(f, &r, "get", "discovery");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "SCHEMAS"));
	run_free(&r);
	RUN(f, &r, "get", "discovery", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_non_null(strchr(r.out, '{'));
	run_free(&r);
	RUN(f, &r, "get", "schemas");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "SCHEMAS"));
	run_free(&r);
	RUN(f, &r, "delete", "schemas", "x");
	assert_int_equal(r.status, 2);
	run_free(&r);
}

static void
test_discovered_operations(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *id;
	const char	*p;

	RUN(f, &r, "get", "discovered-operations", "--filter",
	    "state=review");
	assert_int_equal(r.status, 0);
	assert_true(count_lines(r.out) > 1);
	/* Every row is in review. */
	for (p = strchr(r.out, '\n') + 1; *p != '\0';
	    p = strchr(p, '\n') + 1) {
		size_t	 len = strcspn(p, "\n");
		char	*row = strndup(p, len);

		assert_true(has(row, " review "));
		free(row);
	}
	id = strndup(strchr(r.out, '\n') + 1, 36);
	run_free(&r);

	file = file_in(f, "dop.yaml", "state: ignored\n");
	RUN(f, &r, "update", "discovered-operations", id, "-f", file);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "ignored"));
	run_free(&r);

	RUN(f, &r, "get", "discovered-operations", "--filter",
	    "state=review");
	assert_false(has(r.out, id));
	run_free(&r);
	RUN(f, &r, "get", "discovered-operations", "--filter",
	    "state=ignored");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	run_free(&r);
	free(file);
	free(id);
}

static void
test_operations(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *id;
	cJSON		*v;

	file = file_in(f, "op.yaml", "method: GET\nhost: api.example.com\n"
	    "endpoint: /v9/kinds-test\n");
	RUN(f, &r, "create", "operations", "-f", file, "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	if (cJSON_IsArray(v))
		id = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(v, 0),
		    "operation_id")->valuestring);
	else
		id = strdup(cJSON_GetObjectItem(v,
		    "operation_id")->valuestring);
	cJSON_Delete(v);
	run_free(&r);

	RUN(f, &r, "get", "operations", "--filter", "host=api.example.com");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_true(has(r.out, "/v9/kinds-test"));
	assert_false(has(r.out, "shop.example.com"));
	run_free(&r);

	RUN(f, &r, "get", "operations", id);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "/v9/kinds-test"));
	run_free(&r);

	RUN(f, &r, "delete", "operations", id);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "operations", id);
	assert_int_equal(r.status, 1);
	run_free(&r);
	free(file);
	free(id);
}

static const char openapi_yaml[] =
	"openapi: 3.0.0\n"
	"info:\n"
	"  title: kinds api\n"
	"  version: '1.0'\n"
	"servers:\n"
	"  - url: https://api.example.com\n"
	"paths:\n"
	"  /kinds:\n"
	"    get:\n"
	"      responses:\n"
	"        '200':\n"
	"          description: ok\n";

static void
test_user_schemas(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *bad, *id;
	cJSON		*v;
	int		 before;

	file = file_in(f, "api.yaml", openapi_yaml);
	before = api_count(f, zone_path(f, "api_gateway/user_schemas"));
	RUN(f, &r, "create", "user-schemas", "-f", file, "--name",
	    "kinds schema", "--validation", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	if (cJSON_HasObjectItem(v, "schema"))
		id = strdup(cJSON_GetObjectItem(cJSON_GetObjectItem(v,
		    "schema"), "schema_id")->valuestring);
	else
		id = strdup(cJSON_GetObjectItem(v, "schema_id")->valuestring);
	cJSON_Delete(v);
	run_free(&r);
	assert_int_equal(api_count(f, zone_path(f,
	    "api_gateway/user_schemas")), before + 1);

	RUN(f, &r, "get", "user-schemas");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_true(has(r.out, "kinds schema"));
	run_free(&r);
	RUN(f, &r, "get", "user-schemas", id);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "kinds schema"));
	assert_true(has(r.out, "yes"));
	run_free(&r);

	RUN(f, &r, "delete", "user-schemas", id);
	assert_int_equal(r.status, 0);
	run_free(&r);
	assert_int_equal(api_count(f, zone_path(f,
	    "api_gateway/user_schemas")), before);

	/* OpenAPI 3.0 by its version, but a path without its '/'. */
	bad = file_in(f, "bad.yaml", "openapi: 3.0.3\ninfo: {title: t, "
	    "version: \"1\"}\npaths: {pets: {get: {}}}\n");
	RUN(f, &r, "create", "user-schemas", "-f", bad, "--name", "bad");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "HTTP 4"));
	run_free(&r);
	assert_int_equal(api_count(f, zone_path(f,
	    "api_gateway/user_schemas")), before);
	free(bad);
	free(file);
	free(id);
}

/*
 * The warning after a create comes from the kind: a direct upload's URL
 * is shown once, a live input's keys can be read again (no warning), and
 * neither is a signing key's private key.
 */
static void
test_create_shown_once(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*du, *live;

	du = file_in(f, "once-du.yaml", "maxDurationSeconds: 60\n");
	live = file_in(f, "once-live.yaml", "meta:\n  name: once live\n");
	RUN(f, &r, "create", "direct-uploads", "-f", du);
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "direct-uploads: the upload URL is shown only "
	    "this once"));
	assert_false(has(r.err, "private key"));
	run_free(&r);
	RUN(f, &r, "create", "direct-uploads", "-f", du, "-o", "json");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "upload URL is shown only this once"));
	run_free(&r);

	RUN(f, &r, "create", "live-inputs", "-f", live);
	assert_int_equal(r.status, 0);
	assert_false(has(r.err, "shown only this once"));
	assert_false(has(r.err, "private key"));
	run_free(&r);
	RUN(f, &r, "create", "live-inputs", "-f", live, "-o", "json");
	assert_int_equal(r.status, 0);
	assert_false(has(r.err, "shown only this once"));
	run_free(&r);

	RUN(f, &r, "create", "signing-keys", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "signing-keys: the private key is shown only "
	    "this once"));
	run_free(&r);
	free(live);
	free(du);
}

/*
 * A multipart create takes the options its kind's fields name, and refuses
 * another kind's with the list of its own; nothing is sent.
 */
static void
test_create_form_options(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*png, *schema;
	int		 marks, schemas;

	png = file_in(f, "form.png", "not really a png\n");
	schema = file_in(f, "form.yaml", openapi_yaml);
	marks = api_count(f, acct_path(f, "stream/watermarks"));
	schemas = api_count(f, zone_path(f, "api_gateway/user_schemas"));

	RUN(f, &r, "create", "watermarks", "-f", png, "--validation");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--validation is not one of its fields"));
	assert_true(has(r.err, "--name --opacity --padding --scale "
	    "--position"));
	run_free(&r);
	RUN(f, &r, "create", "user-schemas", "-f", schema, "--opacity", "0.5");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--opacity is not one of its fields"));
	assert_true(has(r.err, "--name --validation"));
	run_free(&r);
	/* Typed as the field is: a number field refuses a word. */
	RUN(f, &r, "create", "watermarks", "-f", png, "--scale", "big");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "scale"));
	run_free(&r);
	RUN(f, &r, "create", "live-inputs", "-f", schema, "--opacity", "0.5");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "creates from a file (watermarks, user-schemas, "
	    "validation-schemas)"));
	run_free(&r);

	assert_int_equal(api_count(f, acct_path(f, "stream/watermarks")),
	    marks);
	assert_int_equal(api_count(f, zone_path(f,
	    "api_gateway/user_schemas")), schemas);
	free(schema);
	free(png);
}

/* No raw ESC (or BEL) from the server reaches the terminal. */
static void
test_control_chars(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*path, *id;
	cJSON		*v;

	path = zone_path(f, "rate_limits");
	v = api_ok(&f->emu, "POST", path, "{"
	    "\"description\": \"evil \\u001b[31mRED\\u0007 \\u001b]0;t\\u0007"
	    "\","
	    "\"match\": {\"request\": {\"url\": \"esc.example.com/*\"}},"
	    "\"threshold\": 40, \"period\": 60,"
	    "\"action\": {\"mode\": \"ban\", \"timeout\": 600}}");
	id = strdup(cJSON_GetObjectItem(v, "id")->valuestring);
	assert_non_null(strchr(cJSON_GetObjectItem(v,
	    "description")->valuestring, 0x1b));
	cJSON_Delete(v);

	/* The table has no description column: the rule must still show. */
	RUN(f, &r, "get", "rate-limits", id);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_null(strchr(r.out, 0x1b));
	assert_null(strchr(r.out, 0x07));
	run_free(&r);

	RUN(f, &r, "get", "rate-limits");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_null(strchr(r.out, 0x1b));
	assert_null(strchr(r.out, 0x07));
	run_free(&r);

	RUN(f, &r, "get", "rate-limits", id, "-o", "json");
	assert_int_equal(r.status, 0);
	assert_null(strchr(r.out, 0x1b));
	assert_null(strchr(r.out, 0x07));
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	assert_non_null(strchr(cJSON_GetObjectItem(v,
	    "description")->valuestring, 0x1b));
	cJSON_Delete(v);
	run_free(&r);

	RUN(f, &r, "get", "rate-limits", id, "-o", "yaml");
	assert_int_equal(r.status, 0);
	assert_null(strchr(r.out, 0x1b));
	assert_null(strchr(r.out, 0x07));
	run_free(&r);
	free(path);
	free(id);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, cli_setup, cli_teardown)
		T(test_videos),
		T(test_live_inputs),
		T(test_watermarks),
		T(test_captions),
		T(test_audio_tracks),
		T(test_webhook),
		T(test_signing_keys),
		T(test_downloads),
		T(test_storage_usage),
		T(test_direct_uploads),
		T(test_api_config),
		T(test_discovery_schemas),
		T(test_discovered_operations),
		T(test_operations),
		T(test_user_schemas),
		T(test_control_chars),
		T(test_create_shown_once),
		T(test_create_form_options),
#undef T
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
