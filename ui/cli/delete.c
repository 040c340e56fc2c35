/*
 * delete: every id checked before anything is sent, several at once with
 * the bulk call where the kind's API has one.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"
#include "xmalloc.h"

#include "cli.h"

static int
cli_delete_bulk(struct cli *c, const struct kind *k, int n, char **ids)
{
	struct http_response	 resp;
	cJSON			*body, *list;
	char			*path, *cause = NULL;
	int			 i, rv;

	if ((path = kind_list_path(k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	body = cJSON_CreateObject();
	list = cJSON_AddArrayToObject(body, k->bulk_delete_key);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(list, cJSON_CreateString(ids[i]));
	rv = cli_send_json(c, "DELETE", path, body, &resp);
	if (rv == 0) {
		cli_journal(c, "DELETE", path, resp.http_status, body, NULL);
		for (i = 0; i < n; i++)
			printf("deleted %s %s\n", k->name, ids[i]);
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

static int
cli_delete_one(struct cli *c, const struct kind *k, const char *id,
    const char *path)
{
	struct http_response	 resp;
	int			 rv;

	rv = cli_send_json(c, "DELETE", path, NULL, &resp);
	if (rv == 0) {
		cli_journal(c, "DELETE", path, resp.http_status, NULL, NULL);
		if (id != NULL)
			printf("deleted %s %s\n", k->name, id);
		else
			printf("deleted %s\n", k->name);
	}
	http_response_free(&resp);
	return (rv);
}

int
cli_cmd_delete(struct cli *c, const struct kind *k, int argc, char **argv)
{
	char	**paths;
	int	  i, n = argc - 1, rv = 0, one;

	if (k->shape == KIND_SHAPE_OBJECT) {
		if (n != 0)
			return (cli_usage_error("%s takes no id", k->name));
		n = 1;	/* the one object */
	} else if (n == 0)
		return (cli_usage_error("delete %s: at least one ID", k->name));
	/* Every id is checked before anything is sent. */
	paths = xcalloc((size_t)n, sizeof *paths);
	for (i = 0; i < n; i++) {
		paths[i] = cli_item_path(c, k, k->shape == KIND_SHAPE_OBJECT ?
		    NULL : argv[i + 1], &rv);
		if (paths[i] == NULL)
			goto out;
	}
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if (n > 1 && (k->verbs & KIND_VERB_BULK_DELETE) &&
	    k->bulk_delete_key != NULL) {
		rv = cli_delete_bulk(c, k, n, argv + 1);
		goto out;
	}
	for (i = 0; i < n; i++) {
		one = cli_delete_one(c, k, k->shape == KIND_SHAPE_OBJECT ?
		    NULL : argv[i + 1], paths[i]);
		rv = MAXIMUM(rv, one);
	}
out:
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	fflush(stdout);
	return (rv);
}
