/*
 * What http.c gives up on, against faultd: a 2xx with an empty body is no
 * answer, and a silent server is left after the idle time of ordinary
 * requests, not the longer one of uploads. Times are shortened through
 * http_options; nothing asserts a duration.
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "faultd.h"
#include "http.h"
#include "itest.h"

#define TOKEN	"limits-Token-0f1e2d3c4b5a"

static struct http_client *
client(struct faultd *fd, const struct http_options *base)
{
	struct http_options	 ho;
	struct http_client	*c;
	char			*cause = NULL;

	if (base != NULL)
		ho = *base;
	else
		memset(&ho, 0, sizeof ho);
	ho.base_url = faultd_url(fd);
	ho.token = TOKEN;
	if ((c = http_client_new(&ho, &cause)) == NULL)
		fail_msg("http_client_new: %s", cause);
	return (c);
}

static enum status
call(struct http_client *c, const char *method, const char *json,
    struct http_response *resp, char **cause)
{
	struct http_request	req;

	memset(&req, 0, sizeof req);
	req.method = method;
	req.path = "/zones/z1/things";
	req.json = json;
	*cause = NULL;
	return (http_perform(c, &req, resp, cause));
}

static void
test_empty_body(void **state)
{
	static const struct faultd_reply script[] = {
		{ .status = 200 },			/* GET */
		{ .status = 200, .body = " \r\n" },	/* POST */
		{ .status = 200 },			/* DELETE */
		{ .status = 204 },			/* GET */
	};
	struct faultd		*fd;
	struct http_client	*c;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	assert_non_null(fd = faultd_start(0));
	faultd_script(fd, script, 4);
	c = client(fd, NULL);

	assert_int_equal(call(c, "GET", NULL, &resp, &cause), STATUS_PARSE);
	assert_non_null(strstr(cause, "HTTP 200 with an empty body, not an "
	    "API answer"));
	assert_null(strstr(cause, "may or may not"));
	assert_false(resp.api.ok);
	assert_int_equal(resp.attempts, 1);
	assert_int_equal(http_exit_status(resp.status, resp.http_status),
	    HTTP_EXIT_REFUSED);
	free(cause);
	http_response_free(&resp);

	assert_int_equal(call(c, "POST", "{}", &resp, &cause), STATUS_PARSE);
	assert_non_null(strstr(cause, "the change may or may not have been "
	    "made"));
	free(cause);
	http_response_free(&resp);

	/* Stream answers a deleted video so; a 204 says it has no body. */
	assert_int_equal(call(c, "DELETE", NULL, &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	assert_int_equal(call(c, "GET", NULL, &resp, &cause), STATUS_OK);
	http_response_free(&resp);
	assert_int_equal(faultd_count(fd), 4);
	http_client_free(c);
	faultd_free(fd);
}

static size_t
no_read(char *data, size_t len, void *arg)
{
	(void)data;
	(void)len;
	(void)arg;
	return (0);
}

/* The defaults: uploads keep the long idle time, the rest a short one. */
static void
test_idle_by_kind(void **state)
{
	struct faultd		*fd;
	struct http_client	*c;
	struct http_request	 get, patch;

	(void)state;
	assert_non_null(fd = faultd_start(0));
	c = client(fd, NULL);
	memset(&get, 0, sizeof get);
	get.method = "GET";
	get.path = "/zones";
	memset(&patch, 0, sizeof patch);
	patch.method = "PATCH";
	patch.path = "/upload";
	patch.read_len = 10;
	patch.read = no_read;
	assert_int_equal(http_idle_seconds(c, &get), HTTP_IDLE_TIME);
	assert_true(HTTP_IDLE_TIME <= 30);
	assert_int_equal(http_idle_seconds(c, &patch), HTTP_LOW_SPEED_TIME);
	http_client_free(c);
	faultd_free(fd);
}

/*
 * A server that answers nothing: an API call gives up after its idle
 * time (1 s here) though the upload idle time is an hour.
 */
static void
test_silent_server(void **state)
{
	static const struct faultd_reply script[] = {
		{ .act = FAULTD_STALL, .status = 200,
		  .headers = "Content-Type: application/json\r\n",
		  .body = "{\"success\":true,\"result\":[]}", .cut = 0 },
	};
	struct http_options	 ho;
	struct faultd		*fd;
	struct http_client	*c;
	struct http_response	 resp;
	char			*cause;

	(void)state;
	assert_non_null(fd = faultd_start(0));
	faultd_script(fd, script, 1);
	memset(&ho, 0, sizeof ho);
	ho.timeout_ms = -1;
	ho.low_speed_time = 3600;
	ho.idle_time = 1;
	ho.max_retries = 0;
	c = client(fd, &ho);
	assert_int_equal(call(c, "GET", NULL, &resp, &cause), STATUS_TIMEOUT);
	assert_non_null(cause);
	free(cause);
	http_response_free(&resp);
	http_client_free(c);
	faultd_free(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_body),
		cmocka_unit_test(test_idle_by_kind),
		cmocka_unit_test(test_silent_server),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
