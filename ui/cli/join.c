/*
 * Tables of records that only name another record: an operation's schema
 * validation action names its operation by id, so the table shows that
 * operation's method, host and endpoint, read by id (only for a table:
 * -o json and yaml print the records as the server sent them).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"
#include "log.h"

#include "cli.h"

/* operation-validation's table: the action, then whose it is. */
static const struct kind_column cli_join_opval_columns[] = {
	{ .header = "OPERATION", .path = "operation_id", .width = 36,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ACTION", .path = "mitigation_action", .width = 7,
	  .flags = KIND_COL_DEFAULT, .none = "default" },
	{ .header = "METHOD", .path = "method", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "HOST", .path = "host", .width = 24,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ENDPOINT", .path = "endpoint", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const char *const cli_join_opval_fields[] = {
	"method", "host", "endpoint"
};

/* The copy of operation-validation with those columns, made once. */
static const struct kind *
cli_join_opval(const struct kind *k)
{
	static struct kind	joined;

	if (joined.name == NULL) {
		joined = *k;
		joined.label = "endpoint";
		joined.columns = cli_join_opval_columns;
	}
	return (&joined);
}

const struct kind *
cli_join_kind(const struct cli *c, const struct kind *k)
{
	if (c->out != CLI_OUT_TABLE || k != kind_find("operation-validation"))
		return (k);
	return (cli_join_opval(k));
}

/* One override's operation, its fields copied in; quiet when it is gone. */
static void
cli_join_one(struct cli *c, const struct kind *ops, cJSON *rec)
{
	struct http_response	 resp;
	const cJSON		*id, *v;
	char			*path, *cause = NULL;
	size_t			 i;
	int			 absent = 0;

	id = cJSON_GetObjectItemCaseSensitive(rec, "operation_id");
	if (!cJSON_IsString(id) || cJSON_HasObjectItem(rec, "endpoint"))
		return;
	if ((path = kind_item_path(ops, c->vars, id->valuestring,
	    &cause)) == NULL) {
		free(cause);
		return;
	}
	if (cli_get_absent(c, path, &resp, &absent) == 0 && !absent) {
		for (i = 0; i < nitems(cli_join_opval_fields); i++) {
			v = cJSON_GetObjectItemCaseSensitive(resp.api.result,
			    cli_join_opval_fields[i]);
			if (cJSON_IsString(v))
				cJSON_AddStringToObject(rec,
				    cli_join_opval_fields[i], v->valuestring);
		}
	}
	http_response_free(&resp);
	free(path);
}

void
cli_join(struct cli *c, const struct kind *k, cJSON *const *items, size_t n)
{
	const struct kind	*ops = kind_find("operations");
	size_t			 i;

	if (cli_join_kind(c, k) == k)
		return;
	for (i = 0; i < n; i++)
		cli_join_one(c, ops, items[i]);
}
