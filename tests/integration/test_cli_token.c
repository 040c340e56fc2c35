/*
 * Integration tests for `edgetui token` against edgemu with demo data: a
 * server token when no key is remembered (and -v never logs it), the key
 * `create signing-keys` saves as a PEM file (0600) then used to sign
 * locally, --pem FILE, the access rules and downloadable options seen by
 * edgemu's delivery, and the usage errors that send nothing.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "clitest.h"
#include "itest.h"
#include "jsonget.h"

/* A ready demo video, made private. */
static char *
private_video(struct edgemu *e)
{
	char		*path, *uid = NULL;
	cJSON		*list, *v;
	const cJSON	*item;

	path = itest_printf("/accounts/%s/stream?status=ready", e->account);
	list = api_ok(e, "GET", path, NULL);
	free(path);
	item = cJSON_GetArrayItem(list, 0);
	assert_non_null(item);
	uid = strdup(jstr(item, "uid"));
	cJSON_Delete(list);
	path = itest_printf("/accounts/%s/stream/%s", e->account, uid);
	v = api_ok(e, "POST", path, "{\"requireSignedURLs\":true}");
	cJSON_Delete(v);
	free(path);
	return (uid);
}

static long
fetch_status(struct edgemu *e, const char *url)
{
	struct http_req		q;
	struct http_resp	r;
	long			status;

	memset(&q, 0, sizeof q);
	q.method = "GET";
	q.url = url;
	q.noauth = 1;
	http_send(e, &q, &r);
	status = r.status;
	http_resp_free(&r);
	return (status);
}

static cJSON *
run_json(struct run *r)
{
	cJSON	*o;

	if (r->status != 0)
		fail_msg("exit %d: %s", r->status, r->err);
	assert_non_null(o = cJSON_Parse(r->out));
	return (o);
}

static void
test_token(void **state)
{
	struct fixture	*f = *state;
	struct edgemu	*e = &f->emu;
	struct run	 r;
	struct stat	 sb;
	char		*uid, *id, *pem, *path, *copy;
	cJSON		*o;

	uid = private_video(e);

	/* No key remembered: the server's token, opening the manifest. */
	RUN(f, &r, "-v", "token", uid, "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "server");
	assert_int_equal(fetch_status(e, jstr(o, "hls")), 200);
	assert_int_equal(fetch_status(e, jstr(o, "dash")), 200);
	assert_int_equal(fetch_status(e, jstr(o, "thumbnail")), 200);
	assert_int_equal(fetch_status(e, jstr(o, "player")), 200);
	assert_null(cJSON_GetObjectItem(o, "download"));
	/* A bearer credential: never in -v's log. */
	assert_null(strstr(r.err, jstr(o, "token") + 40));
	cJSON_Delete(o);
	run_free(&r);

	/* A new key is saved decoded, 0600, and remembered. */
	RUN(f, &r, "create", "signing-keys", "-o", "json");
	o = run_json(&r);
	id = strdup(jstr(o, "id"));
	cJSON_Delete(o);
	assert_non_null(strstr(r.err, "saved the private key as a PEM file"));
	run_free(&r);
	path = itest_printf("%s/state/edgetui/signing-keys/%s.pem", f->home,
	    id);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	pem = slurp(path);
	assert_true(strncmp(pem, "-----BEGIN RSA PRIVATE KEY-----", 31) == 0);

	/* Signed locally with it; its access rules hold at delivery. */
	RUN(f, &r, "token", uid, "--allow-ip", "192.0.2.0/24", "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "locally");
	assert_non_null(strstr(r.err, id));
	assert_int_equal(fetch_status(e, jstr(o, "hls")), 403);
	cJSON_Delete(o);
	run_free(&r);

	/* --pem FILE (a copy elsewhere), downloadable. */
	copy = itest_printf("%s/key.pem", f->home);
	spill(copy, pem, 0600);
	RUN(f, &r, "token", uid, "--key-id", id, "--pem", copy,
	    "--downloadable", "--expires", "10m", "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "locally");
	assert_int_equal(fetch_status(e, jstr(o, "hls")), 200);
	assert_non_null(strstr(jstr(o, "download"), "/downloads/default.mp4"));
	cJSON_Delete(o);
	run_free(&r);

	/* Bad input: a clear error, exit 2. */
	spill(copy, "not a key\n", 0600);
	RUN(f, &r, "token", uid, "--key-id", id, "--pem", copy);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "not a signing key"));
	run_free(&r);
	RUN(f, &r, "token", uid, "--pem", copy);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--pem needs --key-id"));
	run_free(&r);
	RUN(f, &r, "token", uid, "--expires", "2d");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "1s to 24h"));
	run_free(&r);
	RUN(f, &r, "token", uid, "--block-country", "Germany");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "two-letter"));
	run_free(&r);

	free(copy);
	free(pem);
	free(path);
	free(id);
	free(uid);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_token, cli_setup,
		    cli_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
