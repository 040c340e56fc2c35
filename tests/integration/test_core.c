/*
 * edgemu's core over HTTP: start-up lines, authentication, the envelope on
 * every kind of refusal, body caps, malformed requests, and durability
 * across SIGTERM and kill -9.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"

#define ZONE_A "0123456789abcdef0123456789abcdef"
#define ZONE_B "fedcba9876543210fedcba9876543210"
#define CONFIG_A "/zones/" ZONE_A "/api_gateway/configuration"

static struct edgemu	emu;

static int
setup(void **state)
{
	(void)state;
	edgemu_start(&emu, NULL, 0, NULL);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	edgemu_finish(&emu);
	return (0);
}

static int
error_code(const struct http_resp *r)
{
	return (cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(r->json, "errors"), 0),
	    "code")->valueint);
}

static void
test_startup_lines(void **state)
{
	struct edgemu	demo;
	unsigned int	port;

	(void)state;
	assert_int_equal(sscanf(emu.url, "http://127.0.0.1:%u/client/v4",
	    &port), 1);
	assert_true(port > 0 && port < 65536);
	assert_string_equal(emu.token, "itest-token-0123456789");
	assert_null(emu.account);

	edgemu_start(&demo, NULL, 1, NULL);
	assert_non_null(demo.account);
	assert_non_null(demo.zone);
	assert_int_equal(strlen(demo.account), 32);
	assert_int_equal(strlen(demo.zone), 32);
	assert_int_equal(strspn(demo.zone, "0123456789abcdef"), 32);
	edgemu_finish(&demo);
}

static void
test_ready_file_matches_stdout(void **state)
{
	struct edgemu	 e;
	struct stat	 st;
	char		*path, buf[512], *want;
	FILE		*f;
	size_t		 n;

	(void)state;
	path = itest_printf("%s/ready", emu.dir);
	edgemu_start(&e, NULL, 1, "--ready-file", path, NULL);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	want = itest_printf("EDGEMU_URL=%s\nEDGEMU_TOKEN=%s\nEDGEMU_ACCOUNT=%s\n"
	    "EDGEMU_ZONE=%s\n", e.url, e.token, e.account, e.zone);
	assert_string_equal(buf, want);
	free(want);
	edgemu_finish(&e);
	unlink(path);
	free(path);
}

static void
test_auth_required(void **state)
{
	struct http_resp	r;

	(void)state;
	http_request(&emu, "GET", CONFIG_A, NULL, NULL, 0, "", &r);
	assert_int_equal(r.status, 401);
	assert_envelope(&r);
	assert_int_equal(error_code(&r), 10000);
	http_resp_free(&r);

	http_request(&emu, "GET", CONFIG_A, NULL, NULL, 0, "wrong-token", &r);
	assert_int_equal(r.status, 403);
	assert_envelope(&r);
	assert_int_equal(error_code(&r), 9109);
	http_resp_free(&r);

	/* The right token as a prefix of a longer one is still wrong. */
	http_request(&emu, "GET", CONFIG_A, NULL, NULL, 0,
	    "itest-token-0123456789x", &r);
	assert_int_equal(r.status, 403);
	http_resp_free(&r);

	http_request(&emu, "GET", CONFIG_A, NULL, NULL, 0, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_envelope(&r);
	http_resp_free(&r);
}

/*
 * The token's verify call: the one token edgemu knows is active, with an
 * id of 32 hex digits that is the same on every call and tells nothing of
 * the token; another token is refused as on every route.
 */
static void
test_token_verify(void **state)
{
	struct http_resp	 r;
	cJSON			*v, *again;
	const char		*id;
	size_t			 i;

	(void)state;
	v = api_ok(&emu, "GET", "/user/tokens/verify", NULL);
	assert_string_equal(cJSON_GetObjectItem(v, "status")->valuestring,
	    "active");
	id = cJSON_GetObjectItem(v, "id")->valuestring;
	assert_int_equal(strlen(id), 32);
	for (i = 0; i < 32; i++)
		assert_non_null(strchr("0123456789abcdef", id[i]));
	assert_null(strstr(emu.token, id));
	again = api_ok(&emu, "GET", "/user/tokens/verify", NULL);
	assert_string_equal(cJSON_GetObjectItem(again, "id")->valuestring, id);
	cJSON_Delete(again);
	cJSON_Delete(v);
	http_request(&emu, "GET", "/user/tokens/verify", NULL, NULL, 0,
	    "wrong-token", &r);
	assert_int_equal(r.status, 403);
	assert_envelope(&r);
	http_resp_free(&r);
}

static void
test_unknown_route(void **state)
{
	struct http_resp	 r;
	char			*url;

	(void)state;
	http_json(&emu, "GET", "/zones/" ZONE_A "/no_such_thing", NULL, &r);
	assert_int_equal(r.status, 404);
	assert_envelope(&r);
	assert_int_equal(error_code(&r), 7003);
	http_resp_free(&r);

	/* Outside the API prefix too. */
	url = strdup(emu.url);
	*strstr(url, "/client/v4") = '\0';
	strcat(url, "/elsewhere");
	http_request(&emu, "GET", url, NULL, NULL, 0, NULL, &r);
	assert_int_equal(r.status, 404);
	assert_envelope(&r);
	assert_int_equal(error_code(&r), 7003);
	http_resp_free(&r);
	free(url);
}

static void
test_wrong_method(void **state)
{
	struct http_resp	 r;
	const char		*allow;

	(void)state;
	http_json(&emu, "DELETE", CONFIG_A, NULL, &r);
	assert_int_equal(r.status, 405);
	assert_envelope(&r);
	allow = http_header(&r, "allow");
	assert_non_null(allow);
	assert_non_null(strstr(allow, "GET"));
	assert_non_null(strstr(allow, "PUT"));
	http_resp_free(&r);
}

/* tus clients that cannot send PUT/PATCH/DELETE use POST and say so. */
static void
test_method_override(void **state)
{
	static const char	*const hdrs[] = {
		"Content-Type: application/json",
		"X-HTTP-Method-Override: PUT", NULL
	};
	static const char	 body[] = "{\"auth_id_characteristics\":"
	    "[{\"type\":\"cookie\",\"name\":\"sid\"}]}";
	struct http_resp	 r;
	cJSON			*got;

	(void)state;
	http_request_with(&emu, "POST", CONFIG_A, hdrs, body, strlen(body),
	    NULL, &r);
	assert_int_equal(r.status, 200);
	http_resp_free(&r);
	got = api_ok(&emu, "GET", CONFIG_A, NULL);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(got, "auth_id_characteristics"),
	    0), "name")->valuestring, "sid");
	cJSON_Delete(got);
}

static void
test_malformed_ids(void **state)
{
	char	*msg;

	(void)state;
	msg = api_fail(&emu, "GET", "/zones/not-a-zone/api_gateway/"
	    "configuration", NULL, 400);
	assert_non_null(strstr(msg, "identifier is invalid"));
	free(msg);
	/* 31 and 33 hex digits, and a non-hex letter. */
	free(api_fail(&emu, "GET", "/zones/0123456789abcdef0123456789abcde/"
	    "api_gateway/configuration", NULL, 400));
	free(api_fail(&emu, "GET", "/zones/0123456789abcdef0123456789abcdef0/"
	    "api_gateway/configuration", NULL, 400));
	free(api_fail(&emu, "GET", "/zones/0123456789abcdef0123456789abcdeg/"
	    "api_gateway/configuration", NULL, 400));
}

static void
test_malformed_json_names_the_problem(void **state)
{
	char	*msg;

	(void)state;
	msg = api_fail(&emu, "PUT", CONFIG_A,
	    "{\"auth_id_characteristics\": [1,}", 400);
	assert_non_null(strstr(msg, "malformed JSON at byte"));
	free(msg);
	msg = api_fail(&emu, "PUT", CONFIG_A, "{\"a\": 1} trailing", 400);
	assert_non_null(strstr(msg, "malformed JSON"));
	free(msg);
	msg = api_fail(&emu, "PUT", CONFIG_A, "{\"a\": ", 400);
	assert_non_null(strstr(msg, "unexpected end"));
	free(msg);
	msg = api_fail(&emu, "PUT", CONFIG_A, "{\"a\": \"\xff\xfe\"}", 400);
	assert_non_null(strstr(msg, "UTF-8"));
	free(msg);
}

static void
test_bad_query_string(void **state)
{
	char	*msg;

	(void)state;
	msg = api_fail(&emu, "GET", CONFIG_A "?x=%zz", NULL, 400);
	assert_non_null(strstr(msg, "percent-escape"));
	free(msg);
	free(api_fail(&emu, "GET", CONFIG_A "?x=%00", NULL, 400));
}

/* A JSON body of exactly n bytes: a valid configuration padded out. */
static char *
padded_config(size_t n)
{
	static const char	 head[] =
	    "{\"auth_id_characteristics\":[],\"pad\":\"";
	char			*s = malloc(n + 1);

	memcpy(s, head, sizeof head - 1);
	memset(s + sizeof head - 1, 'a', n - (sizeof head - 1) - 2);
	memcpy(s + n - 2, "\"}", 3);
	return (s);
}

static void
test_json_body_cap(void **state)
{
	struct http_resp	 r;
	char			*body;
	const size_t		 cap = 1024 * 1024;

	(void)state;
	body = padded_config(cap);
	http_request(&emu, "PUT", CONFIG_A, "application/json", body, cap,
	    NULL, &r);
	assert_int_equal(r.status, 200);
	http_resp_free(&r);
	free(body);

	body = padded_config(cap + 1);
	http_request(&emu, "PUT", CONFIG_A, "application/json", body, cap + 1,
	    NULL, &r);
	assert_int_equal(r.status, 413);
	assert_envelope(&r);
	http_resp_free(&r);
	free(body);
}

/* Without Content-Length the cap is found while reading: still a 413. */
static void
test_chunked_body_over_cap(void **state)
{
	char	*cmd, *out = NULL;
	FILE	*p;
	size_t	 cap = 0;
	char	 line[512];

	(void)state;
	cmd = itest_printf("head -c 3000000 /dev/zero | tr '\\0' a | curl -s "
	    "-X PUT -H 'Authorization: Bearer %s' -H 'Content-Type: "
	    "application/json' -H 'Transfer-Encoding: chunked' -H 'Expect:' "
	    "--data-binary @- -w '\\n%%{http_code}' '%s%s'", emu.token,
	    emu.url, CONFIG_A);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p) != NULL) {
		out = realloc(out, cap + strlen(line) + 1);
		strcpy(out + cap, line);
		cap += strlen(line);
	}
	assert_int_equal(pclose(p), 0);
	assert_non_null(out);
	assert_non_null(strstr(out, "\"success\":false"));
	assert_non_null(strstr(out, "\n413"));
	free(out);
	free(cmd);
	cJSON_Delete(api_ok(&emu, "GET", CONFIG_A, NULL));
}

static int
emu_port(void)
{
	unsigned int	port = 0;

	sscanf(emu.url, "http://127.0.0.1:%u", &port);
	return ((int)port);
}

/* Garbage on the socket gets an error or a closed connection, never a crash. */
static void
test_malformed_http_does_not_hurt(void **state)
{
	static const char *const	 junk[] = {
		"GARBAGE\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
		"POST /client/v4/zones HTTP/1.1\r\nHost: x\r\n"
		    "Transfer-Encoding: chunked\r\n\r\nzz\r\n",
		"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
		"GET /client/v4/%ff%fe/../..%00 HTTP/1.1\r\nHost: x\r\n\r\n",
	};
	struct sockaddr_in		 sin;
	struct timeval			 tv = { 10, 0 };
	char				 buf[256];
	size_t				 i;
	int				 fd;

	(void)state;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)emu_port());
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		assert_true(fd >= 0);
		assert_int_equal(connect(fd, (struct sockaddr *)&sin,
		    sizeof sin), 0);
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		assert_int_equal(write(fd, junk[i], strlen(junk[i])),
		    (ssize_t)strlen(junk[i]));
		shutdown(fd, SHUT_WR);
		while (read(fd, buf, sizeof buf) > 0)
			;
		close(fd);
	}
	cJSON_Delete(api_ok(&emu, "GET", CONFIG_A, NULL));
}

static const char config_body[] =
    "{\"auth_id_characteristics\":[{\"type\":\"header\",\"name\":\"x-id\"},"
    "{\"type\":\"jwt\",\"name\":\"e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub\"}]}";

static void
test_survives_kill9(void **state)
{
	cJSON	*put, *got;

	(void)state;
	put = api_ok(&emu, "PUT", CONFIG_A, config_body);
	edgemu_kill(&emu, SIGKILL);
	edgemu_restart(&emu);
	got = api_ok(&emu, "GET", CONFIG_A, NULL);
	assert_true(cJSON_Compare(put, got, 1));
	cJSON_Delete(put);
	cJSON_Delete(got);
}

static void
test_survives_restart_and_zones_are_separate(void **state)
{
	cJSON		*got;
	const cJSON	*list;

	(void)state;
	cJSON_Delete(api_ok(&emu, "PUT", CONFIG_A, config_body));
	edgemu_restart(&emu);
	got = api_ok(&emu, "GET", CONFIG_A, NULL);
	list = cJSON_GetObjectItemCaseSensitive(got, "auth_id_characteristics");
	assert_int_equal(cJSON_GetArraySize(list), 2);
	cJSON_Delete(got);
	got = api_ok(&emu, "GET", "/zones/" ZONE_B "/api_gateway/configuration",
	    NULL);
	list = cJSON_GetObjectItemCaseSensitive(got, "auth_id_characteristics");
	assert_int_equal(cJSON_GetArraySize(list), 0);
	cJSON_Delete(got);
}

struct worker {
	int	id;
	int	failures;
};

static void *
concurrent_worker(void *arg)
{
	struct worker		*w = arg;
	struct http_resp	 r;
	char			*path, *body;
	int			 i;

	path = itest_printf("/zones/%032x/api_gateway/configuration", w->id);
	for (i = 0; i < 50; i++) {
		body = itest_printf("{\"auth_id_characteristics\":[{\"type\":"
		    "\"header\",\"name\":\"h%d\"}]}", i);
		http_request(&emu, "PUT", path, "application/json", body,
		    strlen(body), NULL, &r);
		w->failures += r.status != 200;
		http_resp_free(&r);
		free(body);
	}
	free(path);
	return (NULL);
}

/* Writers on several connections at once all land, in their own zones. */
static void
test_concurrent_writers(void **state)
{
	struct worker	 w[4];
	pthread_t	 t[4];
	cJSON		*got;
	char		*path;
	int		 i;

	(void)state;
	for (i = 0; i < 4; i++) {
		w[i].id = i + 1;
		w[i].failures = 0;
		assert_int_equal(pthread_create(&t[i], NULL, concurrent_worker,
		    &w[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(w[i].failures, 0);
		path = itest_printf("/zones/%032x/api_gateway/configuration",
		    i + 1);
		got = api_ok(&emu, "GET", path, NULL);
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(got,
		    "auth_id_characteristics"), 0), "name")->valuestring, "h49");
		cJSON_Delete(got);
		free(path);
	}
}

static int
run_edgemu(const char *args, char *err, size_t errlen)
{
	char	*cmd;
	FILE	*p;
	size_t	 n;
	int	 status;

	cmd = itest_printf("'%s' %s 2>&1 >/dev/null", getenv("EDGEMU") ?
	    getenv("EDGEMU") : "emulator/edgemu", args);
	p = popen(cmd, "r");
	n = fread(err, 1, errlen - 1, p);
	err[n] = '\0';
	status = pclose(p);
	free(cmd);
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void
test_usage_errors(void **state)
{
	char	err[1024];

	(void)state;
	assert_int_equal(run_edgemu("--listen nowhere:99999", err, sizeof err),
	    2);
	assert_non_null(strstr(err, "--listen"));
	assert_int_equal(run_edgemu("--processing-seconds -1", err, sizeof err),
	    2);
	assert_non_null(strstr(err, "--processing-seconds"));
	assert_int_equal(run_edgemu("--upload-rate -1", err, sizeof err), 2);
	assert_non_null(strstr(err, "--upload-rate"));
	assert_int_equal(run_edgemu("--upload-rate 16M", err, sizeof err), 2);
	assert_non_null(strstr(err, "--upload-rate"));
	assert_int_equal(run_edgemu("--no-such-option", err, sizeof err), 2);
	assert_int_equal(run_edgemu("--token 'bad token'", err, sizeof err), 2);
	assert_int_equal(run_edgemu("--help", err, sizeof err), 0);
	assert_int_equal(run_edgemu("--data /proc/none/x --listen 127.0.0.1:0",
	    err, sizeof err), 1);
	assert_non_null(strstr(err, "store"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_startup_lines),
		cmocka_unit_test(test_ready_file_matches_stdout),
		cmocka_unit_test(test_auth_required),
		cmocka_unit_test(test_token_verify),
		cmocka_unit_test(test_unknown_route),
		cmocka_unit_test(test_wrong_method),
		cmocka_unit_test(test_method_override),
		cmocka_unit_test(test_malformed_ids),
		cmocka_unit_test(test_malformed_json_names_the_problem),
		cmocka_unit_test(test_bad_query_string),
		cmocka_unit_test(test_json_body_cap),
		cmocka_unit_test(test_chunked_body_over_cap),
		cmocka_unit_test(test_malformed_http_does_not_hurt),
		cmocka_unit_test(test_survives_kill9),
		cmocka_unit_test(test_survives_restart_and_zones_are_separate),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_usage_errors),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
