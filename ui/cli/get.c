/*
 * get: one record, or a list streamed page by page so memory does not grow
 * with the list.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "http.h"
#include "kind.h"
#include "log.h"
#include "pager.h"
#include "xmalloc.h"

#include "cli.h"

/* The page size for a list: few requests, but no more than --limit needs. */
static long
cli_per_page(const struct kind *k, long limit)
{
	const struct kind_per_page	*pp = &k->per_page;
	long				 n;

	if (pp->max == 0)
		return (0);
	if (limit <= 0 || limit >= pp->max)
		return (pp->max);
	if (limit <= pp->min)
		return (pp->min);
	n = limit;
	if (pp->step > 1 && n % pp->step != 0)
		n += pp->step - n % pp->step;
	return (MINIMUM(n, pp->max));
}

/* Stream one page's records; first says whether any came before. */
static void
cli_list_print(struct cli *c, const struct cli_table *t, cJSON **items,
    size_t n, size_t *count)
{
	cJSON	*one;
	size_t	 i;

	for (i = 0; i < n; i++, (*count)++) {
		switch (c->out) {
		case CLI_OUT_TABLE:
			cli_table_row(t, items[i]);
			break;
		case CLI_OUT_JSON:
			fputs(*count == 0 ? "[\n" : ",\n", stdout);
			cli_print_json_item(items[i]);
			break;
		case CLI_OUT_YAML:
			/* A one-item sequence each: together, the list. */
			one = cJSON_CreateArray();
			cJSON_AddItemReferenceToArray(one, items[i]);
			cli_print_yaml(one);
			cJSON_Delete(one);
			break;
		}
	}
	fflush(stdout);
}

static int
cli_list_query(struct cli *c, const struct kind *k, struct buf *q)
{
	const struct cli_opts	*o = c->o;
	char			*name, *eq, *cause = NULL;
	size_t			 i;
	int			 rv;

	for (i = 0; i < o->nfilters; i++) {
		if ((eq = strchr(o->filters[i], '=')) == NULL)
			return (cli_usage_error("--filter: '%s' is not "
			    "NAME=VALUE", o->filters[i]));
		name = xstrndup(o->filters[i], (size_t)(eq - o->filters[i]));
		if (kind_filter_find(k, name) == NULL) {
			free(name);
			return (cli_usage_error("--filter: %s has no filter "
			    "'%.*s'", k->name, (int)(eq - o->filters[i]),
			    o->filters[i]));
		}
		rv = kind_filter_add(k, name, eq + 1, q, &cause);
		free(name);
		if (rv != 0) {
			cli_usage_error("--filter: %s", cause);
			free(cause);
			return (HTTP_EXIT_USAGE);
		}
	}
	return (0);
}

static int
cli_list(struct cli *c, const struct kind *k)
{
	struct pager_opts	 po;
	struct pager		*p;
	struct cli_table	 t;
	struct http_response	 resp;
	struct buf		 q = BUF_INITIALIZER;
	cJSON			**items;
	char			*path, *cause = NULL;
	size_t			 n, count = 0, base;
	int			 rv = 0, flags = 0, header = 0;
	long			 per_page;

	if ((path = kind_list_path(k, c->vars, &cause)) == NULL)
		goto usage;
	buf_adds(&q, path);
	buf_addc(&q, '?');
	free(path);
	if ((rv = cli_list_query(c, k, &q)) != 0)
		goto out;
	base = q.len;
	if ((rv = cli_connect(c)) != 0)
		goto out;

	kind_pager_opts(k, &po);
	po.max_items = c->o->limit;
	per_page = k->paging == PAGER_SINGLE ? 0 :
	    cli_per_page(k, c->o->limit);
	if (k->paging == PAGER_CREATED && c->o->limit > 0 &&
	    per_page < PAGER_STREAM_BATCH)
		flags |= PAGER_SEND_LIMIT;
	po.flags |= flags;
	p = pager_new(k->paging, per_page, &po);

	cli_table_init(&t, cli_join_kind(c, k));
	for (;;) {
		buf_truncate(&q, base);
		if (!pager_next_query(p, &q))
			break;
		if (q.len > 0 && q.data[q.len - 1] == '?')
			buf_truncate(&q, q.len - 1);
		if ((rv = cli_get(c, buf_str(&q), &resp)) != 0) {
			http_response_free(&resp);
			break;
		}
		if (pager_feed(p, &resp.api, &items, &n, &cause) != 0) {
			rv = cli_error(HTTP_EXIT_REFUSED, "%s: %s", k->name,
			    cause);
			free(cause);
			http_response_free(&resp);
			break;
		}
		cli_join(c, k, items, n);
		if (c->out == CLI_OUT_TABLE && !header++) {
			cli_table_fit(&t, (const cJSON *const *)items, n);
			cli_table_header(&t);
		}
		cli_list_print(c, &t, items, n, &count);
		http_response_free(&resp);
	}
	if (rv == 0 && pager_bound_hit(p) != NULL)
		rv = cli_error(HTTP_EXIT_REFUSED, "%s: %s", k->name,
		    pager_bound_hit(p));
	else if (rv == 0 && pager_warning(p) != NULL)
		log_warn("%s", pager_warning(p));
	pager_free(p);
	if (c->out == CLI_OUT_TABLE && rv == 0 && !header)
		cli_table_header(&t);
	if (c->out == CLI_OUT_JSON && (rv == 0 || count != 0))
		fputs(count == 0 ? "[]\n" : "\n]\n", stdout);
	else if (c->out == CLI_OUT_YAML && count == 0)
		fputs("[]\n", stdout);
	fflush(stdout);
	goto out;
usage:
	rv = cli_usage_error("%s", cause);
	free(cause);
out:
	buf_free(&q);
	return (rv);
}

int
cli_cmd_get(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct http_response	 resp;
	const char		*id = argc > 1 ? argv[1] : NULL;
	char			*path, *cause = NULL;
	int			 rv;

	if (id == NULL && k->shape != KIND_SHAPE_OBJECT) {
		if ((k->verbs & KIND_VERB_LIST) == 0)
			return (cli_usage_error("%s cannot be listed", k->name));
		if ((rv = cli_classic_list_kind(c, &k)) != 0)
			return (rv);
		return (cli_list(c, k));
	}
	if (c->o->seen & (CLI_OPT_LIMIT | CLI_OPT_FILTER))
		return (cli_usage_error("--limit and --filter are for lists"));
	if ((k->verbs & KIND_VERB_GET) == 0)
		return (cli_usage_error("%s cannot be read one by one: list "
		    "them with 'edgetui get %s'", k->name, k->name));
	if ((path = kind_item_path(k, c->vars, id, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if ((rv = cli_get(c, path, &resp)) == 0) {
		cli_join(c, k, &resp.api.result, resp.api.result != NULL);
		cli_print_record(c, cli_join_kind(c, k), resp.api.result);
	}
	http_response_free(&resp);
out:
	free(path);
	return (rv);
}
