/*
 * Live input outputs (simulcast) in edgemu and from the CLI: the routes
 * and their refusals (url scheme and host, streamKey, enabled, at most 50
 * per input, only enabled changes, unknown input or output), outputs gone
 * with their input; edgetui create, get, disable, enable and delete with
 * --live-input, the stream key masked in its tables.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clitest.h"

#define OUT_KEY	"sk-4471-b2c9-outputs"

static char *
out_input(struct edgemu *e)
{
	cJSON	*r, *list;
	char	*uid, *path;

	path = itest_printf("/accounts/%s/stream/live_inputs", e->account);
	r = api_ok(e, "GET", path, NULL);
	free(path);
	list = cJSON_GetObjectItem(r, "liveInputs");
	uid = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "uid")->valuestring);
	cJSON_Delete(r);
	return (uid);
}

static char *
out_path(struct edgemu *e, const char *input, const char *output)
{
	return (itest_printf("/accounts/%s/stream/live_inputs/%s/outputs%s%s",
	    e->account, input, output != NULL ? "/" : "",
	    output != NULL ? output : ""));
}

static void
out_refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *why)
{
	char	*msg = api_fail(e, method, path, body, status);

	if (strstr(msg, why) == NULL)
		fail_msg("%s %s %s: '%s' lacks '%s'", method, path,
		    body != NULL ? body : "", msg, why);
	free(msg);
}

static void
test_routes(void **state)
{
	struct fixture	*f = *state;
	struct edgemu	*e = &f->emu;
	char		*in = out_input(e), *list = out_path(e, in, NULL);
	char		*one, *other, *body, *gone;
	cJSON		*r;
	int		 i;

	r = api_ok(e, "GET", list, NULL);
	assert_int_equal(cJSON_GetArraySize(r), 0);
	cJSON_Delete(r);

	out_refused(e, "POST", list, "[]", 400, "JSON object");
	out_refused(e, "POST", list, "{\"streamKey\":\"k\"}", 400,
	    "url: required");
	out_refused(e, "POST", list, "{\"url\":\"rtmp://h/x\"}", 400,
	    "streamKey: required");
	out_refused(e, "POST", list, "{\"url\":\"rtmp://h/x\","
	    "\"streamKey\":\"\"}", 400, "must not be empty");
	out_refused(e, "POST", list, "{\"url\":\"https://h/x\","
	    "\"streamKey\":\"k\"}", 400, "rtmp://, rtmps:// or srt://");
	out_refused(e, "POST", list, "{\"url\":\"rtmps:///x\","
	    "\"streamKey\":\"k\"}", 400, "has no host");
	out_refused(e, "POST", list, "{\"url\":\"rtmp://h/x y\","
	    "\"streamKey\":\"k\"}", 400, "spaces");
	out_refused(e, "POST", list, "{\"url\":\"rtmp://h/x\","
	    "\"streamKey\":\"k\",\"enabled\":\"yes\"}", 400, "true or false");

	r = api_ok(e, "POST", list, "{\"url\":\"rtmps://live.example.com/app"
	    "\",\"streamKey\":\"" OUT_KEY "\"}");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(r, "enabled")));
	assert_string_equal(cJSON_GetObjectItem(r, "streamKey")->valuestring,
	    OUT_KEY);
	one = out_path(e, in, cJSON_GetObjectItem(r, "uid")->valuestring);
	cJSON_Delete(r);

	/* Only enabled changes. */
	r = api_ok(e, "PUT", one, "{\"enabled\":false}");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(r, "enabled")));
	assert_string_equal(cJSON_GetObjectItem(r, "url")->valuestring,
	    "rtmps://live.example.com/app");
	cJSON_Delete(r);
	out_refused(e, "PUT", one, "{}", 400, "enabled: required");
	out_refused(e, "PUT", one, "{\"enabled\":true,\"url\":\"rtmp://h/y\"}",
	    400, "cannot change");
	other = out_path(e, in, "0123456789abcdef0123456789abcdef");
	out_refused(e, "PUT", other, "{\"enabled\":true}", 404, "not found");
	out_refused(e, "DELETE", other, NULL, 404, "not found");
	gone = out_path(e, "0123456789abcdef0123456789abcdef", NULL);
	out_refused(e, "GET", gone, NULL, 404, "live input");
	out_refused(e, "POST", gone, "{\"url\":\"srt://h:1\",\"streamKey\":"
	    "\"k\"}", 404, "live input");

	/* 50 per input. */
	for (i = 1; i < 50; i++) {
		r = api_ok(e, "POST", list, "{\"url\":\"srt://h.example.com:"
		    "9000\",\"streamKey\":\"k\",\"enabled\":false}");
		cJSON_Delete(r);
	}
	out_refused(e, "POST", list, "{\"url\":\"srt://h:1\",\"streamKey\":"
	    "\"k\"}", 400, "50 outputs");
	r = api_ok(e, "GET", list, NULL);
	assert_int_equal(cJSON_GetArraySize(r), 50);
	cJSON_Delete(r);

	r = api_ok(e, "DELETE", one, NULL);
	cJSON_Delete(r);
	out_refused(e, "DELETE", one, NULL, 404, "not found");

	/* The input's delete takes its outputs along. */
	body = itest_printf("/accounts/%s/stream/live_inputs/%s", e->account,
	    in);
	r = api_ok(e, "DELETE", body, NULL);
	cJSON_Delete(r);
	out_refused(e, "GET", list, NULL, 404, "live input");
	free(body);
	free(gone);
	free(other);
	free(one);
	free(list);
	free(in);
}

static void
test_cli(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*in = out_input(&f->emu), *file, oid[33];
	const char	*s;

	file = itest_printf("%s/out.yaml", f->home);
	spill(file, "url: rtmp://a.rtmp.youtube.com/live2\n"
	    "streamKey: " OUT_KEY "\n", 0600);
	RUN(f, &r, "create", "live-outputs", "-f", file);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--live-input"));
	run_free(&r);
	RUN(f, &r, "get", "live-outputs", "--live-input", "main-stage");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is not a live input id"));
	run_free(&r);
	RUN(f, &r, "create", "live-outputs", "--live-input", in, "-f", file);
	assert_int_equal(r.status, 0);
	/* The key sent is not printed back. */
	assert_null(strstr(r.out, OUT_KEY));
	assert_non_null(strstr(r.out, "********"));
	s = strstr(r.out, "********");
	s += strspn(s, "* ");
	memcpy(oid, s, 32);
	oid[32] = '\0';
	run_free(&r);

	RUN(f, &r, "get", "live-outputs", "--live-input", in);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, oid));
	assert_null(strstr(r.out, OUT_KEY));
	run_free(&r);

	RUN(f, &r, "disable", "live-outputs", oid, "--live-input", in);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, " no "));
	assert_null(strstr(r.out, OUT_KEY));
	run_free(&r);
	RUN(f, &r, "enable", "live-outputs", oid, "--live-input", in);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, " yes "));
	run_free(&r);
	RUN(f, &r, "disable", "videos", oid);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "no enabled flag"));
	run_free(&r);

	spill(file, "url: http://example.com/live\nstreamKey: k\n", 0600);
	RUN(f, &r, "create", "live-outputs", "--live-input", in, "-f", file);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "rtmp://, rtmps:// or srt://"));
	run_free(&r);

	RUN(f, &r, "delete", "live-outputs", oid, "--live-input", in);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "get", "live-outputs", "--live-input", in);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, oid));
	run_free(&r);
	free(file);
	free(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_routes, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_cli, cli_setup,
		    cli_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
