/*
 * delete: every id checked before anything is sent, several at once with
 * the bulk call where the kind's API has one; a record deleted alone is
 * read first, so the journal keeps it for an undo.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"
#include "pager.h"
#include "xmalloc.h"

#include "cli.h"

/*
 * One record deleted: a line on stdout for a table; with -o json|yaml the
 * line goes to stderr and the record (as it was; its id alone when it was
 * not read) to the list printed at the end.
 */
void
cli_deleted(struct cli *c, const struct kind *k, const char *id,
    const cJSON *rec, cJSON *list)
{
	cJSON	*one;

	if (id != NULL)
		fprintf(c->out == CLI_OUT_TABLE ? stdout : stderr,
		    "deleted %s %s\n", k->name, id);
	else
		fprintf(c->out == CLI_OUT_TABLE ? stdout : stderr,
		    "deleted %s\n", k->name);
	if (c->out == CLI_OUT_TABLE || list == NULL)
		return;
	if (rec != NULL)
		one = cJSON_Duplicate(rec, 1);
	else {
		one = cJSON_CreateObject();
		if (id != NULL && k->id_field != NULL)
			cJSON_AddStringToObject(one, k->id_field, id);
	}
	cJSON_AddItemToArray(list, one);
}

/* -o json|yaml: the records deleted, one list. */
void
cli_deleted_print(struct cli *c, const cJSON *list)
{
	if (c->out == CLI_OUT_JSON)
		cli_print_json(list);
	else if (c->out == CLI_OUT_YAML && cJSON_GetArraySize(list) == 0)
		fputs("[]\n", stdout);
	else if (c->out == CLI_OUT_YAML)
		cli_print_yaml(list);
}

static int
cli_delete_bulk(struct cli *c, const struct kind *k, int n, char **ids,
    cJSON *deleted)
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
			cli_deleted(c, k, ids[i], NULL, deleted);
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

/*
 * The record as it is before its delete, for the journal (undo re-creates
 * it from this copy): read by id, else found in the list of a kind read
 * only whole. *before stays NULL when the server has no such record: the
 * delete then says so. 0, or the exit status after the message.
 */
static int
cli_delete_before(struct cli *c, const struct kind *k, const char *id,
    const char *path, cJSON **before)
{
	struct http_response	 resp;
	const cJSON		*items, *v;
	char			*list, *cause = NULL;
	int			 rv, absent = 0;

	*before = NULL;
	if ((k->verbs & KIND_VERB_GET) || k->shape == KIND_SHAPE_OBJECT)
		rv = cli_get_absent(c, path, &resp, &absent);
	else if ((k->verbs & KIND_VERB_LIST) && k->paging == PAGER_SINGLE &&
	    id != NULL) {
		if ((list = kind_list_path(k, c->vars, &cause)) == NULL) {
			rv = cli_usage_error("%s", cause);
			free(cause);
			return (rv);
		}
		rv = cli_get_absent(c, list, &resp, &absent);
		free(list);
		items = k->shape == KIND_SHAPE_WRAPPED ?
		    cJSON_GetObjectItemCaseSensitive(resp.api.result,
		    k->list_key) : resp.api.result;
		cJSON_ArrayForEach(v, items)
			if (kind_record_id(k, v) != NULL &&
			    strcmp(kind_record_id(k, v), id) == 0)
				*before = cJSON_Duplicate(v, 1);
		http_response_free(&resp);
		return (rv);
	} else
		return (0);	/* no way to read it: journaled without */
	if (rv == 0 && !absent && resp.api.result != NULL)
		*before = cJSON_Duplicate(resp.api.result, 1);
	http_response_free(&resp);
	return (rv);
}

static int
cli_delete_one(struct cli *c, const struct kind *k, const char *id,
    const char *path, cJSON *deleted)
{
	struct http_response	 resp;
	cJSON			*before;
	int			 rv;

	if ((rv = cli_delete_before(c, k, id, path, &before)) != 0)
		return (rv);
	rv = cli_send_json(c, "DELETE", path, NULL, &resp);
	if (rv == 0) {
		cli_journal(c, "DELETE", path, resp.http_status, before, NULL);
		cli_deleted(c, k, id, before, deleted);
	}
	http_response_free(&resp);
	cJSON_Delete(before);
	return (rv);
}

int
cli_cmd_delete(struct cli *c, const struct kind *k, int argc, char **argv)
{
	char	**paths;
	cJSON	 *deleted;
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
	deleted = cJSON_CreateArray();
	if (n > 1 && (k->verbs & KIND_VERB_BULK_DELETE) &&
	    k->bulk_delete_key != NULL)
		rv = cli_delete_bulk(c, k, n, argv + 1, deleted);
	else {
		for (i = 0; i < n; i++) {
			one = cli_delete_one(c, k, k->shape ==
			    KIND_SHAPE_OBJECT ? NULL : argv[i + 1], paths[i],
			    deleted);
			rv = MAXIMUM(rv, one);
		}
	}
	if (cJSON_GetArraySize(deleted) > 0 || rv == 0)
		cli_deleted_print(c, deleted);
	cJSON_Delete(deleted);
out:
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	fflush(stdout);
	return (rv);
}
