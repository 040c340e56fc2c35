/*
 * set and clear: the one field a kind sets by id (an operation's schema
 * validation action). One id goes by PUT (clear: DELETE) on its item, several
 * in one PATCH of the list path, {"<id>": {field: value or null}}, which
 * the service applies all or nothing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "http.h"
#include "kind.h"
#include "xmalloc.h"

#include "cli.h"

/* The value of --action for set; -1 after the message. */
static int
cli_set_value(const struct cli *c, const struct kind *k, int set,
    const char **value)
{
	const struct cli_opts	*o = c->o;
	const struct kind_field	*f = kind_field_find(k, k->set_field);
	struct buf		 vals = BUF_INITIALIZER;
	size_t			 i;
	int			 rv;

	*value = NULL;
	for (i = 0; i < o->nfields; i++) {
		if (!set || strcmp(o->fields[i].option, "action") != 0)
			return (cli_usage_error("%s %s: --%s is not one of its "
			    "options%s", set ? "set" : "clear", k->name,
			    o->fields[i].option, set ? " (--action)" : ""));
		*value = o->fields[i].value;
	}
	if (!set)
		return (0);
	if (f != NULL && f->values != NULL) {
		for (i = 0; *value != NULL && f->values[i] != NULL; i++)
			if (strcmp(*value, f->values[i]) == 0)
				return (0);
		kind_values_text(f->values, &vals);
		if (*value == NULL)
			rv = cli_usage_error("set %s needs --action (%s)",
			    k->name, buf_str(&vals));
		else
			rv = cli_usage_error("set %s: --action '%s' is not "
			    "one of %s", k->name, *value, buf_str(&vals));
		buf_free(&vals);
		return (rv);
	}
	if (*value == NULL)
		return (cli_usage_error("set %s needs --action", k->name));
	return (0);
}

/* The bulk answer {"<id>": {field: v}} as records, for a table. */
static void
cli_set_print(struct cli *c, const struct kind *k, const cJSON *result)
{
	struct cli_table	 t;
	const cJSON		*m;
	cJSON			*rec, *list, **items;
	size_t			 n = 0;

	if (c->out != CLI_OUT_TABLE || !cJSON_IsObject(result)) {
		cli_print_record(c, k, result);
		return;
	}
	/* One record, or the bulk answer's map made records. */
	list = cJSON_CreateArray();
	if (kind_record_id(k, result) != NULL)
		cJSON_AddItemToArray(list, cJSON_Duplicate(result, 1));
	cJSON_ArrayForEach(m, result) {
		if (kind_record_id(k, result) != NULL)
			break;
		rec = cJSON_IsObject(m) ? cJSON_Duplicate(m, 1) :
		    cJSON_CreateObject();
		cJSON_DeleteItemFromObjectCaseSensitive(rec, k->id_field);
		cJSON_AddStringToObject(rec, k->id_field, m->string);
		cJSON_AddItemToArray(list, rec);
	}
	items = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *items);
	cJSON_ArrayForEach(rec, list)
		items[n++] = rec;
	cli_join(c, k, items, n);
	cli_table_init(&t, cli_join_kind(c, k));
	cli_table_fit_list(&t, list);
	cli_table_header(&t);
	cJSON_ArrayForEach(rec, list)
		cli_table_row(&t, rec);
	free(items);
	cJSON_Delete(list);
	fflush(stdout);
}

/* The map a bulk PATCH takes: {"<id>": {field: value or null}}. */
static cJSON *
cli_set_map(const struct kind *k, int argc, char **argv, const char *value)
{
	cJSON	*map = cJSON_CreateObject(), *entry;
	int	 i;

	for (i = 1; i < argc; i++) {
		cJSON_DeleteItemFromObjectCaseSensitive(map, argv[i]);
		entry = cJSON_AddObjectToObject(map, argv[i]);
		if (value != NULL)
			cJSON_AddStringToObject(entry, k->set_field, value);
		else
			cJSON_AddNullToObject(entry, k->set_field);
	}
	return (map);
}

/*
 * One id's value before the change, for the journal's diff and undo; a
 * server without the API says so here (*classic), before any change.
 */
static int
cli_set_before(struct cli *c, const char *path, cJSON **before, int *classic)
{
	struct http_response	 resp;
	int			 rv, absent = 0;

	if ((rv = cli_get_absent(c, path, &resp, &absent)) == 0 && !absent &&
	    resp.api.result != NULL)
		*before = cJSON_Duplicate(resp.api.result, 1);
	*classic = absent && cli_classic_no_route(&resp);
	http_response_free(&resp);
	return (rv);
}

/* A 404 let through quietly that is no missing API after all. */
static int
cli_set_refused(const struct http_response *resp)
{
	char	*msg = cli_cause(resp, NULL, resp->api.status);
	int	 rv;

	rv = cli_error(http_exit_status(resp->api.status, resp->http_status),
	    "%s", msg);
	free(msg);
	return (rv);
}

/*
 * Send the change, and the classic API's bulk PATCH instead when the
 * current one is not on the server (the answer is then the map).
 */
static int
cli_set_send(struct cli *c, const char *method, const char *path,
    const cJSON *body, const cJSON *map, struct http_response *resp,
    int *classic)
{
	int	rv;

	if (!*classic) {
		rv = cli_send_json_quiet(c, method, path, body, resp, 404,
		    classic);
		if (rv != 0 || !*classic)
			return (rv);
		if (!cli_classic_no_route(resp))
			return (cli_set_refused(resp));
		http_response_free(resp);
	}
	return (cli_classic_set(c, map, resp));
}

static int
cli_set_run(struct cli *c, const struct kind *k, int argc, char **argv,
    int set)
{
	struct http_response	 resp;
	const char		*value, *method;
	cJSON			*body = NULL, *map, *before = NULL;
	char			*path = NULL, *cause = NULL;
	int			 i, rv, classic = 0;

	if (argc < 2)
		return (cli_usage_error("%s %s: at least one ID is needed",
		    set ? "set" : "clear", k->name));
	if (cli_set_value(c, k, set, &value) != 0)
		return (HTTP_EXIT_USAGE);
	for (i = 1; i < argc; i++) {
		if (kind_id_check(k, argv[i], &cause) != 0) {
			rv = cli_usage_error("%s", cause);
			free(cause);
			return (rv);
		}
	}
	map = cli_set_map(k, argc, argv, set ? value : NULL);
	if (argc == 2) {
		if ((path = cli_item_path(c, k, argv[1], &rv)) == NULL)
			goto out;
		method = set ? "PUT" : "DELETE";
		if (set) {
			body = cJSON_CreateObject();
			cJSON_AddStringToObject(body, k->set_field, value);
		}
	} else {
		if ((path = kind_list_path(k, c->vars, &cause)) == NULL) {
			rv = cli_usage_error("%s", cause);
			free(cause);
			goto out;
		}
		method = "PATCH";
		body = cJSON_Duplicate(map, 1);
	}
	memset(&resp, 0, sizeof resp);
	if ((rv = cli_connect(c)) == 0 && argc == 2)
		rv = cli_set_before(c, path, &before, &classic);
	if (rv == 0 && (rv = cli_set_send(c, method, path, body, map, &resp,
	    &classic)) == 0) {
		if (!classic)
			cli_journal(c, method, path, resp.http_status, before,
			    resp.api.result);
		cli_set_print(c, k, resp.api.result);
	}
	http_response_free(&resp);
out:
	cJSON_Delete(before);
	cJSON_Delete(body);
	cJSON_Delete(map);
	free(path);
	return (rv);
}

int
cli_cmd_set(struct cli *c, const struct kind *k, int argc, char **argv)
{
	return (cli_set_run(c, k, argc, argv, 1));
}

int
cli_cmd_clear(struct cli *c, const struct kind *k, int argc, char **argv)
{
	return (cli_set_run(c, k, argc, argv, 0));
}
