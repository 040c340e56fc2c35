/*
 * The commands' requests: one call to the server with the reason on stderr
 * when it fails, and the change journal every change is written to.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "configfile.h"
#include "http.h"
#include "journal.h"
#include "log.h"
#include "xmalloc.h"

#include "cli.h"

/*
 * One request; on failure the reason on stderr and the exit status. The
 * response is the caller's to free either way. An answer with the HTTP
 * status quiet (when not 0) is no failure: *hit says it came, and nothing
 * is printed.
 */
static int
cli_perform(struct cli *c, const struct http_request *req,
    struct http_response *resp, long quiet, int *hit)
{
	enum status	 st;
	char		*cause = NULL, *cmd, *msg;
	int		 exit_status;

	if (log_get_level() >= LOG_LEVEL_DEBUG) {
		cmd = http_curl_command(c->http, req);
		log_debug("%s", cmd);
		free(cmd);
	}
	memset(resp, 0, sizeof *resp);
	st = http_perform(c->http, req, resp, &cause);
	if (hit != NULL)
		*hit = quiet != 0 && st != STATUS_OK &&
		    resp->http_status == quiet;
	if (st == STATUS_OK || (hit != NULL && *hit)) {
		free(cause);
		return (HTTP_EXIT_OK);
	}
	if (st == STATUS_READONLY) {
		cli_error(HTTP_EXIT_USAGE, "read-only: %s %s refused, nothing "
		    "sent (--readonly or a read-only profile)", req->method,
		    req->path);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	exit_status = http_exit_status(st, resp->http_status);
	msg = cli_cause(resp, cause, st);
	cli_error(exit_status, "%s", msg);
	free(msg);
	free(cause);
	return (exit_status);
}

int
cli_send(struct cli *c, const struct http_request *req,
    struct http_response *resp)
{
	return (cli_perform(c, req, resp, 0, NULL));
}

/* A GET where a 404 says the thing is not there yet (*absent), no error. */
int
cli_get_absent(struct cli *c, const char *path, struct http_response *resp,
    int *absent)
{
	struct http_request	req;

	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	return (cli_perform(c, &req, resp, 404, absent));
}

int
cli_get(struct cli *c, const char *path, struct http_response *resp)
{
	struct http_request	req;

	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	return (cli_send(c, &req, resp));
}

int
cli_send_json_quiet(struct cli *c, const char *method, const char *path,
    const cJSON *body, struct http_response *resp, long quiet, int *hit)
{
	struct http_request	 req;
	char			*text = NULL;
	int			 rv;

	memset(&req, 0, sizeof req);
	req.method = method;
	req.path = path;
	if (body != NULL) {
		text = cJSON_PrintUnformatted(body);
		if (text == NULL)
			fatalx("out of memory");
		req.json = text;
	}
	rv = cli_perform(c, &req, resp, quiet, hit);
	cJSON_free(text);
	return (rv);
}

int
cli_send_json(struct cli *c, const char *method, const char *path,
    const cJSON *body, struct http_response *resp)
{
	return (cli_send_json_quiet(c, method, path, body, resp, 0, NULL));
}

/* The change journal, opened on first use; a failure only warns. */
void
cli_journal(struct cli *c, const char *method, const char *path, long status,
    const cJSON *before, const cJSON *after)
{
	char	*dir, *cause = NULL;

	if (!c->journal_tried) {
		c->journal_tried = 1;
		if ((dir = edge_session_state_dir(&c->session, &cause)) != NULL) {
			c->journal = journal_open(dir, &cause);
			free(dir);
		}
		if (c->journal == NULL) {
			log_warn("journal: %s", cause);
			free(cause);
			return;
		}
	}
	if (c->journal == NULL)
		return;
	if (journal_append(c->journal, c->session.profile, method, path,
	    (int)status, before, after, &cause) != 0) {
		log_warn("journal: %s", cause);
		free(cause);
	}
}
