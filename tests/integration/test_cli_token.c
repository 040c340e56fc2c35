/*
 * Integration tests for `edgetui token` against edgemu with demo data: a
 * server token when no key is remembered (and -v never logs it), the key
 * `create signing-keys` saves as a PEM file (0600) for this server and
 * account, then used to sign locally when it is the only one or when
 * --key-id names it, never by another server's profile; a key kept the
 * old way (by id alone) signing when named; --pem FILE, the access rules
 * and downloadable options seen by edgemu's delivery, and the usage
 * errors that send nothing.
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

/* create signing-keys: the new key's id, and where it was saved. */
static char *
new_key(struct fixture *f, char **path)
{
	struct run	 r;
	const char	*p, *end;
	char		*id;
	cJSON		*o;

	RUN(f, &r, "create", "signing-keys", "-o", "json");
	o = run_json(&r);
	id = strdup(jstr(o, "id"));
	cJSON_Delete(o);
	p = strstr(r.err, "saved the private key as a PEM file, ");
	assert_non_null(p);
	p += strlen("saved the private key as a PEM file, ");
	assert_non_null(end = strstr(p, " (mode 0600)"));
	*path = strndup(p, (size_t)(end - p));
	run_free(&r);
	return (id);
}

static void
test_token(void **state)
{
	struct fixture	*f = *state;
	struct edgemu	*e = &f->emu;
	struct run	 r;
	struct stat	 sb;
	char		*uid, *id, *id2, *pem, *path, *path2, *copy, *dir;
	char		*owner, *text, *want, *other, *old;
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
	id = new_key(f, &path);
	dir = itest_printf("%s/state/edgetui/signing-keys/", f->home);
	/* For this server and account: signing-keys/OWNER/ID.pem. */
	assert_true(strncmp(path, dir, strlen(dir)) == 0);
	assert_non_null(strchr(path + strlen(dir), '/'));
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	pem = slurp(path);
	assert_true(strncmp(pem, "-----BEGIN RSA PRIVATE KEY-----", 31) == 0);
	owner = itest_printf("%.*s/owner", (int)(strrchr(path, '/') - path),
	    path);
	text = slurp(owner);
	want = itest_printf("base_url %s\naccount %s\n", e->url, e->account);
	assert_string_equal(text, want);
	free(want);
	free(text);

	/* The one key of this server and account: taken unasked, said. */
	RUN(f, &r, "token", uid, "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "locally");
	want = itest_printf("signed locally with key ID %s", id);
	assert_non_null(strstr(r.err, want));
	free(want);
	assert_int_equal(fetch_status(e, jstr(o, "hls")), 200);
	/* Neither the PEM nor the token on stderr. */
	assert_null(strstr(r.err, "PRIVATE KEY"));
	assert_null(strstr(r.err, jstr(o, "token") + 40));
	cJSON_Delete(o);
	run_free(&r);

	/*
	 * Another server (the same edgemu by another name): the key is not
	 * its, neither taken unasked nor found by id.
	 */
	other = itest_printf("http://localhost:%s", strrchr(e->url, ':') + 1);
	RUN(f, &r, "--base-url", other, "token", uid, "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "server");
	cJSON_Delete(o);
	run_free(&r);
	RUN(f, &r, "--base-url", other, "token", uid, "--key-id", id);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "remembered for this server and "
	    "account"));
	run_free(&r);

	/* Named, signed locally with it; its access rules hold at delivery. */
	RUN(f, &r, "token", uid, "--key-id", id, "--allow-ip", "192.0.2.0/24",
	    "-o", "json");
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

	/* Two keys of this server and account: named, or the server signs. */
	id2 = new_key(f, &path2);
	RUN(f, &r, "token", uid, "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "server");
	assert_non_null(strstr(r.err, "2 signing keys are remembered"));
	cJSON_Delete(o);
	run_free(&r);

	/*
	 * The first key as remembered before keys were kept per server and
	 * account (signing-keys/ID.pem): signs when named, is not counted.
	 */
	old = itest_printf("%s%s.pem", dir, id);
	assert_int_equal(rename(path, old), 0);
	RUN(f, &r, "token", uid, "--key-id", id, "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "locally");
	assert_int_equal(fetch_status(e, jstr(o, "hls")), 200);
	cJSON_Delete(o);
	run_free(&r);
	RUN(f, &r, "token", uid, "-o", "json");
	o = run_json(&r);
	assert_string_equal(jstr(o, "signed"), "locally");
	assert_non_null(strstr(r.err, id2));
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
	free(path2);
	free(old);
	free(owner);
	free(other);
	free(dir);
	free(id);
	free(id2);
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
