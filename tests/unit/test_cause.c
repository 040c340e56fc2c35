/*
 * Unit tests for how a failed request is told: libedge gives the bare
 * reason with the method and path as fields (of the response, and of a
 * jobs event's response), and the CLI composes "METHOD /path: reason".
 */
#include "config.h"

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "http.h"
#include "jobs.h"
#include "status.h"
#include "xmalloc.h"
#include "cli/cli.h"

#define TOKEN	"cause-test-token-0123456789"

/*
 * A loopback port nothing listens on: bound and held for the whole run
 * (without SO_REUSEADDR), never listened on, so connecting is refused. A
 * port bound then closed could be taken by another test's server.
 */
static int
refusing_port(void)
{
	static int		port;
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	if (port != 0)
		return (port);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	port = ntohs(sin.sin_port);
	return (port);
}

static struct http_client *
client(int readonly)
{
	struct http_options	 o;
	struct http_client	*c;
	char			 url[64], *cause = NULL;

	snprintf(url, sizeof url, "http://127.0.0.1:%d/", refusing_port());
	memset(&o, 0, sizeof o);
	o.base_url = url;
	o.token = TOKEN;
	o.readonly = readonly;
	o.max_retries = 0;
	o.connect_timeout_ms = 5000;
	c = http_client_new(&o, &cause);
	assert_non_null(c);
	assert_null(cause);
	return (c);
}

/* The fields name the request; the detail does not; the CLI's line does. */
static void
check_failure(const struct http_response *resp, const char *cause,
    enum status st, const char *method, const char *path)
{
	char	*want, *line;

	assert_non_null(resp->method);
	assert_non_null(resp->path);
	assert_non_null(resp->detail);
	assert_string_equal(resp->method, method);
	assert_string_equal(resp->path, path);
	assert_false(strncmp(resp->detail, method, strlen(method)) == 0);
	assert_null(strstr(resp->detail, path));
	assert_null(strstr(resp->detail, TOKEN));
	want = xprintf("%s %s: %s", method, path, resp->detail);
	line = cli_cause(resp, cause, st);
	assert_string_equal(line, want);
	free(line);
	free(want);
}

static void
test_refused_before_sending(void **state)
{
	struct http_client	*c = client(0);
	struct http_request	 req = { .method = "GET", .path = "/things",
	    .json = "{}" };
	struct http_response	 resp;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(http_perform(c, &req, &resp, &cause),
	    STATUS_INVALID);
	assert_string_equal(resp.detail, "a body where the method takes none");
	check_failure(&resp, cause, STATUS_INVALID, "GET", "/things");
	/* http_perform's cause is the bare detail; the fields name it. */
	assert_string_equal(cause, "a body where the method takes none");
	free(cause);
	http_response_free(&resp);
	assert_null(resp.method);
	assert_null(resp.detail);
	http_client_free(c);
}

static void
test_transport_failure(void **state)
{
	struct http_client	*c = client(0);
	struct http_request	 req = { .method = "GET",
	    .path = "/echo/" TOKEN };
	struct http_response	 resp;
	char			*cause = NULL, *line;

	(void)state;
	assert_int_equal(http_perform(c, &req, &resp, &cause),
	    STATUS_TRANSPORT);
	/* The path field is redacted as the log and the cause are. */
	check_failure(&resp, cause, STATUS_TRANSPORT, "GET",
	    "/echo/" HTTP_REDACTED);
	assert_string_equal(cause, resp.detail);
	line = cli_cause(&resp, cause, STATUS_TRANSPORT);
	assert_int_equal(strncmp(line, "GET /echo/" HTTP_REDACTED ": ",
	    strlen("GET /echo/" HTTP_REDACTED ": ")), 0);
	assert_string_equal(line + strlen("GET /echo/" HTTP_REDACTED ": "),
	    cause);
	assert_null(strstr(line, TOKEN));
	free(line);
	free(cause);
	http_response_free(&resp);
	http_client_free(c);
}

/* A failure that names the request its own way has no detail. */
static void
test_readonly_has_no_detail(void **state)
{
	struct http_client	*c = client(1);
	struct http_request	 req = { .method = "DELETE", .path = "/x" };
	struct http_response	 resp;
	char			*cause = NULL, *line;

	(void)state;
	assert_int_equal(http_perform(c, &req, &resp, &cause),
	    STATUS_READONLY);
	assert_null(resp.detail);
	assert_string_equal(resp.method, "DELETE");
	assert_string_equal(resp.path, "/x");
	line = cli_cause(&resp, cause, STATUS_READONLY);
	assert_string_equal(line, cause);
	free(line);
	free(cause);
	http_response_free(&resp);
	line = cli_cause(NULL, NULL, STATUS_READONLY);
	assert_string_equal(line, status_message(STATUS_READONLY));
	free(line);
	http_client_free(c);
}

/* A job's failure: the event's cause is bare, its response names it. */
static void
test_job_failure(void **state)
{
	struct http_client	*c = client(0);
	struct http_request	 req = { .method = "PUT", .path = "/zones/z",
	    .json = "{}" };
	struct jobs		*jobs;
	struct jobs_event	 ev;
	struct pollfd		 pfd;
	unsigned long		 id;
	char			*cause = NULL, *line;
	int			 i, got = 0;

	(void)state;
	jobs = jobs_new(c, &cause);
	assert_non_null(jobs);
	assert_int_equal(jobs_submit(jobs, &req, NULL, &id), STATUS_OK);
	pfd.fd = jobs_fd(jobs);
	pfd.events = POLLIN;
	for (i = 0; i < 300 && !got; i++) {
		assert_true(poll(&pfd, 1, 100) >= 0);
		while (!got && jobs_next_event(jobs, &ev)) {
			if (ev.kind != JOBS_EVENT_FAILED) {
				jobs_event_free(&ev);
				continue;
			}
			got = 1;
		}
	}
	assert_true(got);
	assert_int_equal(ev.status, STATUS_TRANSPORT);
	assert_non_null(ev.cause);
	assert_string_equal(ev.cause, ev.resp.detail);
	check_failure(&ev.resp, ev.cause, ev.status, "PUT", "/zones/z");
	line = cli_cause(&ev.resp, ev.cause, ev.status);
	assert_int_equal(strncmp(line, "PUT /zones/z: ", 14), 0);
	assert_string_equal(line + 14, ev.cause);
	free(line);
	jobs_event_free(&ev);
	jobs_free(jobs);
	http_client_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused_before_sending),
		cmocka_unit_test(test_transport_failure),
		cmocka_unit_test(test_readonly_has_no_detail),
		cmocka_unit_test(test_job_failure),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
