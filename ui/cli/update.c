/*
 * update, and what edit shares with it: reading the server's copy before a
 * change and sending the change with the method the kind's API defines.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "edit.h"
#include "http.h"
#include "kind.h"
#include "validate.h"

#include "cli.h"

/* The item path of a kind for an id (none for one-object kinds). */
char *
cli_item_path(struct cli *c, const struct kind *k, const char *id, int *rv)
{
	char	*path, *cause = NULL;

	if ((path = kind_item_path(k, c->vars, id, &cause)) == NULL) {
		*rv = cli_usage_error("%s", cause);
		free(cause);
	}
	return (path);
}

/* Send an update; before may be NULL. Prints the result. */
int
cli_apply(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *before, const cJSON *edited)
{
	struct http_response	 resp;
	const char		*method = kind_method_name(k->update_method);
	cJSON			*body;
	int			 rv;

	/* A PUT gets the id; a PATCH sends what changed only. */
	body = edit_update_body(k, before, edited, id);
	rv = cli_send_json(c, method, path, body, &resp);
	if (rv == 0) {
		cli_journal(c, method, path, resp.http_status, before,
		    resp.api.result);
		cli_print_record(c, k, resp.api.result);
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	return (rv);
}

/* The server's copy before a change (NULL when it cannot be read). */
int
cli_fetch(struct cli *c, const struct kind *k, const char *path,
    cJSON **record)
{
	struct http_response	resp;
	int			rv;

	*record = NULL;
	if ((k->verbs & KIND_VERB_GET) == 0 && k->shape != KIND_SHAPE_OBJECT)
		return (0);
	if ((rv = cli_get(c, path, &resp)) == 0 && resp.api.result != NULL)
		*record = cJSON_Duplicate(resp.api.result, 1);
	http_response_free(&resp);
	return (rv);
}

int
cli_cmd_update(struct cli *c, const struct kind *k, int argc, char **argv)
{
	const char	*id = NULL;
	cJSON		*body = NULL;
	char		*path, *cause = NULL;
	int		 rv = 0;

	if (k->shape != KIND_SHAPE_OBJECT) {
		if (argc < 2)
			return (cli_usage_error("update %s: an ID is needed",
			    k->name));
		id = argv[1];
	} else if (argc > 1)
		return (cli_usage_error("%s takes no id", k->name));
	if (c->o->file == NULL)
		return (cli_usage_error("update %s needs -f FILE", k->name));
	if ((path = cli_item_path(c, k, id, &rv)) == NULL)
		return (rv);
	if ((body = cli_read_body(c->o->file, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		goto out;
	}
	if (cli_validate(k, body, VALIDATE_UPDATE) != 0) {
		rv = HTTP_EXIT_USAGE;
		goto out;
	}
	/*
	 * The file is the whole record: it replaces the server's copy, read
	 * now; but when its stamp (version, modified) says that copy changed
	 * since the file was taken from it, the fields that differ are asked.
	 */
	if ((rv = cli_connect(c)) == 0)
		rv = cli_write(c, k, path, id, NULL, body, NULL);
out:
	cJSON_Delete(body);
	free(path);
	return (rv);
}
