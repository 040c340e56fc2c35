/*
 * The Stream commands beyond the kinds: upload --from-url (the server
 * fetches the file), clip, embed, and captions one language at a time
 * (upload a WebVTT file, generate, print the VTT).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "captionlang.h"
#include "http.h"
#include "kind.h"
#include "streamx.h"
#include "xmalloc.h"

#include "cli.h"

static int
cli_stream_usage(const char *name)
{
	return (cli_usage_error("usage: edgetui %s",
	    cli_command_find(name)->synopsis));
}

/* The video argument, checked; -1 after the usage error. */
static int
cli_stream_video(const char *cmd, const char *uid)
{
	char	*cause = NULL;
	int	 rv;

	if (kind_id_check(kind_find("videos"), uid, &cause) == 0)
		return (0);
	rv = cli_usage_error("%s: %s (usage: edgetui %s)", cmd, cause,
	    cli_command_find(cmd)->synopsis);
	free(cause);
	return (rv);
}

/* A path of streamx_path, or the usage error in *rv. */
static char *
cli_stream_path(struct cli *c, const char *cmd, const char *video,
    const char *rest, const char *name, int *rv)
{
	char	*cause = NULL, *path;

	if (c->vars[0].value == NULL || *c->vars[0].value == '\0') {
		*rv = cli_usage_error("%s: an account is needed (--account, "
		    "CLOUDFLARE_ACCOUNT_ID or the profile)", cmd);
		return (NULL);
	}
	if ((path = streamx_path(c->vars, video, rest, name, &cause)) == NULL) {
		*rv = cli_usage_error("%s: %s", cmd, cause);
		free(cause);
	}
	return (path);
}

/* A new video: its uid as a table, the record as JSON or YAML. */
static void
cli_stream_new_video(struct cli *c, const cJSON *v)
{
	const cJSON	*uid = cJSON_GetObjectItemCaseSensitive(v, "uid");

	if (c->out == CLI_OUT_TABLE)
		printf("%s\n", cJSON_IsString(uid) ? uid->valuestring : "");
	else
		cli_print_record(c, kind_find("videos"), v);
	fflush(stdout);
}

/* POST a JSON body that makes a video; prints it. */
static int
cli_stream_make(struct cli *c, const char *path, const cJSON *body)
{
	struct http_response	 resp;
	int			 rv;

	if ((rv = cli_connect(c)) != 0)
		return (rv);
	if ((rv = cli_send_json(c, "POST", path, body, &resp)) == 0) {
		cli_journal(c, "POST", path, resp.http_status, body,
		    resp.api.result);
		cli_stream_new_video(c, resp.api.result);
	}
	http_response_free(&resp);
	return (rv);
}

/* upload --from-url URL: the server downloads it; prints the new uid. */
int
cli_stream_copy(struct cli *c, int argc)
{
	const struct cli_opts	*o = c->o;
	cJSON			*body;
	char			*cause = NULL, *path;
	int			 rv;

	if (argc != 1)
		return (cli_usage_error("upload: a FILE or --from-url URL, "
		    "not both"));
	if (o->chunk_size != 0)
		return (cli_usage_error("upload: --chunk-size is for a file; "
		    "the server fetches --from-url itself"));
	if (streamx_url_check(o->from_url, &cause) != 0) {
		rv = cli_usage_error("--from-url: %s", cause);
		free(cause);
		return (rv);
	}
	if ((path = cli_stream_path(c, "upload", NULL, "/copy", NULL,
	    &rv)) == NULL)
		return (rv);
	body = streamx_copy_body(o->from_url, o->name, o->creator,
	    o->require_signed);
	rv = cli_stream_make(c, path, body);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

int
cli_cmd_clip(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct cli_opts	*o = c->o;
	cJSON			*body;
	double			 start, end;
	char			*cause = NULL, *path;
	int			 rv;

	(void)unused_k;
	if (argc != 2 || o->clip_start == NULL || o->clip_end == NULL)
		return (cli_stream_usage("clip"));
	if ((rv = cli_stream_video("clip", argv[1])) != 0)
		return (rv);
	if (streamx_parse_seconds(o->clip_start, &start, &cause) != 0 ||
	    streamx_parse_seconds(o->clip_end, &end, &cause) != 0) {
		rv = cli_usage_error("clip: %s", cause);
		free(cause);
		return (rv);
	}
	if (start >= end)
		return (cli_usage_error("clip: --start must be before --end"));
	if ((path = cli_stream_path(c, "clip", NULL, "/clip", NULL,
	    &rv)) == NULL)
		return (rv);
	body = streamx_clip_body(argv[1], start, end, o->name);
	rv = cli_stream_make(c, path, body);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

/*
 * A GET whose answer is no envelope (text/html, text/vtt): the body on
 * stdout. Failures are JSON envelopes, so the Content-Type is checked
 * before anything is printed.
 */
static int
cli_stream_text(struct cli *c, const char *path, const char *type)
{
	struct http_request	 req;
	struct http_response	 resp;
	const char		*headers[2], *ct;
	char			*accept;
	int			 rv;

	if ((rv = cli_connect(c)) != 0)
		return (rv);
	accept = xprintf("Accept: %s", type);
	headers[0] = accept;
	headers[1] = NULL;
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	req.headers = headers;
	req.raw = 1;
	if ((rv = cli_send(c, &req, &resp)) == 0) {
		ct = http_response_header(&resp, "Content-Type");
		if (!streamx_content_type_is(ct, type))
			rv = cli_error(HTTP_EXIT_REFUSED, "GET %s: the answer is "
			    "%s, not %s", path, ct != NULL ? ct : "untyped",
			    type);
		else {
			fwrite(resp.body, 1, resp.len, stdout);
			if (resp.len > 0 && resp.body[resp.len - 1] != '\n')
				putchar('\n');
			fflush(stdout);
		}
	}
	http_response_free(&resp);
	free(accept);
	return (rv);
}

int
cli_cmd_embed(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	char	*path;
	int	 rv;

	(void)unused_k;
	if (argc != 2)
		return (cli_stream_usage("embed"));
	if ((rv = cli_stream_video("embed", argv[1])) != 0)
		return (rv);
	if ((path = cli_stream_path(c, "embed", argv[1], "/embed", NULL,
	    &rv)) == NULL)
		return (rv);
	rv = cli_stream_text(c, path, "text/html");
	free(path);
	return (rv);
}

/* caption upload|generate|vtt VIDEO LANG: the checks they share. */
static char *
cli_caption_path(struct cli *c, const char *cmd, int argc, char **argv,
    int want, const char *rest, int *rv)
{
	char	*cause = NULL;

	if (argc != want) {
		*rv = cli_stream_usage(cmd);
		return (NULL);
	}
	if ((*rv = cli_stream_video(cmd, argv[1])) != 0)
		return (NULL);
	if (streamx_language_check(argv[2], &cause) != 0) {
		*rv = cli_usage_error("%s: %s", cmd, cause);
		free(cause);
		return (NULL);
	}
	captionlang_canon(argv[2]);	/* EN and en are one caption */
	return (cli_stream_path(c, cmd, argv[1], rest, argv[2], rv));
}

static int
cli_caption_print(struct cli *c, const char *method, const char *path,
    const struct http_request *req)
{
	struct http_response	 resp;
	int			 rv;

	if ((rv = cli_connect(c)) != 0)
		return (rv);
	if ((rv = cli_send(c, req, &resp)) == 0) {
		cli_journal(c, method, path, resp.http_status, NULL,
		    resp.api.result);
		cli_print_record(c, kind_find("captions"), resp.api.result);
	}
	http_response_free(&resp);
	return (rv);
}

int
cli_cmd_caption_upload(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct http_request	 req;
	struct http_part	 part;
	char			*path, *cause = NULL;
	int			 rv;

	(void)unused_k;
	if ((path = cli_caption_path(c, "caption upload", argc, argv, 4,
	    "/captions/{name}", &rv)) == NULL)
		return (rv);
	if (streamx_vtt_check(argv[3], &cause) != 0) {
		rv = cli_error(HTTP_EXIT_USAGE, "caption upload: %s", cause);
		free(cause);
		free(path);
		return (rv);
	}
	memset(&part, 0, sizeof part);
	part.name = "file";
	part.file = argv[3];
	part.type = "text/vtt";
	memset(&req, 0, sizeof req);
	req.method = "PUT";
	req.path = path;
	req.parts = &part;
	req.nparts = 1;
	rv = cli_caption_print(c, "PUT", path, &req);
	free(path);
	return (rv);
}

int
cli_cmd_caption_generate(struct cli *c, const struct kind *unused_k,
    int argc, char **argv)
{
	struct http_request	 req;
	char			*path, *list;
	int			 rv;

	(void)unused_k;
	if ((path = cli_caption_path(c, "caption generate", argc, argv, 3,
	    "/captions/{name}/generate", &rv)) == NULL)
		return (rv);
	/* The server would refuse it: say so before anything is sent. */
	if (captionlang_find(argv[2]) == NULL) {
		list = captionlang_list();
		rv = cli_error(HTTP_EXIT_USAGE, "caption generate: Stream "
		    "generates captions in %s (a region may follow: en-GB), "
		    "not %s; 'caption upload' takes a WebVTT file in any "
		    "language", list, argv[2]);
		free(list);
		free(path);
		return (rv);
	}
	memset(&req, 0, sizeof req);
	req.method = "POST";
	req.path = path;
	rv = cli_caption_print(c, "POST", path, &req);
	free(path);
	return (rv);
}

int
cli_cmd_caption_vtt(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	char	*path;
	int	 rv;

	(void)unused_k;
	if ((path = cli_caption_path(c, "caption vtt", argc, argv, 3,
	    "/captions/{name}/vtt", &rv)) == NULL)
		return (rv);
	rv = cli_stream_text(c, path, "text/vtt");
	free(path);
	return (rv);
}
