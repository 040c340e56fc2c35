/*
 * download: ask for a video's MP4 download and, with --wait, poll until it
 * is ready and print its URL.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "jobs.h"
#include "kind.h"
#include "streamx.h"
#include "xmalloc.h"

#include "cli.h"

/*
 * A table of one download type: the kind's columns read the default MP4,
 * so a row is made of <type>'s object under these.
 */
static const struct kind_column cli_dl_columns[] = {
	{ .header = "TYPE", .path = "type", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "STATUS", .path = "status", .width = 10,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "PCT", .path = "percentComplete", .width = 4,
	  .format = KIND_FMT_PCT, .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "URL", .path = "url", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind cli_dl_kind = {
	.name = "downloads",
	.label = "url",
	.columns = cli_dl_columns,
};

/* The answer's row for type as a table; the whole answer otherwise. */
static void
cli_dl_print(struct cli *c, const cJSON *result, const char *type)
{
	const cJSON	*d = cJSON_GetObjectItemCaseSensitive(result, type);
	cJSON		*row;

	if (c->out != CLI_OUT_TABLE) {
		cli_print_record(c, kind_find("downloads"), result);
		return;
	}
	row = cJSON_IsObject(d) ? cJSON_Duplicate(d, 1) : cJSON_CreateObject();
	cJSON_DeleteItemFromObjectCaseSensitive(row, "type");
	cJSON_AddStringToObject(row, "type", type);
	cli_print_record(c, &cli_dl_kind, row);
	cJSON_Delete(row);
}

/* The download's <type>.status and <type>.url, or NULL. */
static const char *
cli_dl_field(const cJSON *result, const char *type, const char *name)
{
	const cJSON	*d, *v;

	d = cJSON_GetObjectItemCaseSensitive(result, type);
	v = cJSON_GetObjectItemCaseSensitive(d, name);
	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

static void
cli_dl_url(struct cli *c, const cJSON *result, const char *type)
{
	const char	*url = cli_dl_field(result, type, "url");

	if (c->out == CLI_OUT_TABLE)
		printf("%s\n", url != NULL ? url : "");
	else if (c->out == CLI_OUT_JSON)
		cli_print_json(result);
	else
		cli_print_yaml(result);
	fflush(stdout);
}

/* Poll the downloads object until <type>.status is "ready". */
static int
cli_dl_wait(struct cli *c, const char *path, const char *type)
{
	struct jobs_poll_options po;
	struct http_request	 req;
	struct jobs_event	 ev;
	struct pollfd		 pfd;
	struct jobs		*jobs;
	unsigned long		 id;
	const char		*st;
	const cJSON		*pct;
	char			*cause = NULL, *msg, *field, *pct_field;
	int			 rv = -1, tty = isatty(STDERR_FILENO), drawn = 0;

	if ((jobs = jobs_new(c->http, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "%s", cause);
		free(cause);
		return (rv);
	}
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	memset(&po, 0, sizeof po);
	po.first_ms = JOBS_POLL_FIRST_MS;
	po.max_ms = JOBS_POLL_MAX_MS;
	field = xprintf("%s.status", type);
	pct_field = xprintf("%s.percentComplete", type);
	po.field = field;
	po.equals = "ready";
	if (jobs_poll(jobs, &req, &po, NULL, &id) != STATUS_OK) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "download: the worker is "
		    "not running");
		goto out;
	}
	pfd.fd = jobs_fd(jobs);
	pfd.events = POLLIN;
	while (rv < 0) {
		if (poll(&pfd, 1, -1) == -1 && errno != EINTR) {
			rv = cli_error(HTTP_EXIT_TRANSPORT, "poll: %s",
			    strerror(errno));
			break;
		}
		while (rv < 0 && jobs_next_event(jobs, &ev)) {
			switch (ev.kind) {
			case JOBS_EVENT_DONE:
				if (tty && drawn)
					fputs("\r\033[K", stderr);
				cli_dl_url(c, ev.result, type);
				rv = HTTP_EXIT_OK;
				break;
			case JOBS_EVENT_FAILED:
				if (tty && drawn)
					fputc('\n', stderr);
				rv = http_exit_status(ev.status,
				    ev.http_status);
				msg = cli_cause(&ev.resp, ev.cause,
				    ev.status);
				cli_error(rv, "%s", msg);
				free(msg);
				break;
			case JOBS_EVENT_POLL_UPDATE:
				st = cli_dl_field(ev.result, type, "status");
				if (st != NULL && strcmp(st, "error") == 0) {
					rv = cli_error(HTTP_EXIT_REFUSED,
					    "download: the server reports an "
					    "error for %s", path);
					break;
				}
				pct = kind_json_get(ev.result, pct_field);
				if (tty && cJSON_IsNumber(pct)) {
					fprintf(stderr, "\r\033[Kdownload: "
					    "%s %.1f%%", st != NULL ? st : "",
					    pct->valuedouble);
					fflush(stderr);
					drawn = 1;
				}
				break;
			default:
				break;
			}
			jobs_event_free(&ev);
		}
	}
out:
	jobs_free(jobs);
	free(field);
	free(pct_field);
	return (rv);
}

int
cli_cmd_download(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct kind	*vk = kind_find("videos");
	const struct kind	*dk = kind_find("downloads");
	struct http_response	 resp;
	char			*path = NULL, *cause = NULL, *base;
	const char		*st, *type;
	int			 rv;

	(void)unused_k;
	if (argc != 2)
		return (cli_usage_error("usage: edgetui %s",
		    cli_command_find("download")->synopsis));
	if (kind_id_check(vk, argv[1], &cause) != 0 ||
	    streamx_download_type(c->o->dl_type, &type, &cause) != 0) {
		rv = cli_usage_error("download: %s", cause);
		free(cause);
		return (rv);
	}
	if (c->o->dl_delete && (c->o->seen & CLI_OPT_WAIT))
		return (cli_usage_error("download: --wait or --delete, not "
		    "both"));
	c->vars[2].value = argv[1];
	if ((base = kind_create_path(dk, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("download: %s", cause);
		free(cause);
		return (rv);
	}
	/* The typed path; the default keeps the one every client knows. */
	path = strcmp(type, "default") == 0 && !c->o->dl_delete ?
	    xstrdup(base) : xprintf("%s/%s", base, type);
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if (c->o->dl_delete) {
		if ((rv = cli_send_json(c, "DELETE", path, NULL, &resp)) == 0)
			cli_journal(c, "DELETE", path, resp.http_status, NULL,
			    resp.api.result);
		http_response_free(&resp);
		goto out;
	}
	if ((rv = cli_send_json(c, "POST", path, NULL, &resp)) == 0) {
		cli_journal(c, "POST", path, resp.http_status, NULL,
		    resp.api.result);
		st = cli_dl_field(resp.api.result, type, "status");
		if (!(c->o->seen & CLI_OPT_WAIT))
			cli_dl_print(c, resp.api.result, type);
		else if (st != NULL && strcmp(st, "ready") == 0)
			cli_dl_url(c, resp.api.result, type);
		else {
			http_response_free(&resp);
			/* Polled on the untyped path: GET lists every type. */
			rv = cli_dl_wait(c, base, type);
			goto out;
		}
	}
	http_response_free(&resp);
out:
	free(path);
	free(base);
	return (rv);
}
