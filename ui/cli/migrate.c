/*
 * migrate rate-limits: legacy rate limits printed as rate limiting rules
 * (YAML on stdout, the warnings as comments in it; -o json: each with its
 * warnings as JSON), then with --apply
 * added to the zone's entry point and with --disable-legacy the legacy
 * rules disabled; the report of where each rule is goes to stderr.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"
#include "log.h"
#include "migrate.h"
#include "pager.h"
#include "xmalloc.h"

#include "cli.h"

/* The plan: --plan, else the profile's plan:, else none (Enterprise). */
static int
cli_migrate_plan(struct cli *c, enum expr_plan *plan)
{
	int	rv;

	if (c->o->counting)
		return (cli_usage_error("migrate: --counting is for expr "
		    "check"));
	if ((rv = cli_expr_plan(c, plan)) != 0)
		return (rv);
	if (*plan == EXPR_PLAN_NONE)
		log_warn("migrate: no plan (--plan or the profile's plan:): "
		    "translated as for Enterprise; a smaller plan may refuse "
		    "the rules");
	return (0);
}

/* Every legacy rule of the zone, page by page, into list. */
static int
cli_migrate_list(struct cli *c, const struct kind *k, cJSON *list)
{
	struct pager_opts	 po;
	struct pager		*p;
	struct http_response	 resp;
	struct buf		 q = BUF_INITIALIZER;
	cJSON			**items;
	char			*path, *cause = NULL;
	size_t			 n, i, base;
	int			 rv = 0, gone = 0;

	if ((path = kind_list_path(k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	buf_addf(&q, "%s?", path);
	free(path);
	base = q.len;
	kind_pager_opts(k, &po);
	p = pager_new(k->paging, k->per_page.max, &po);
	for (;;) {
		buf_truncate(&q, base);
		if (!pager_next_query(p, &q))
			break;
		if ((rv = cli_send_json_quiet(c, "GET", buf_str(&q), NULL,
		    &resp, 410, &gone)) != 0 || gone) {
			if (gone)
				rv = cli_error(http_exit_status(resp.status,
				    resp.http_status), "migrate: HTTP 410 Gone: "
				    "this server retired the legacy rate limiting "
				    "API, so its rules cannot be read; use "
				    "edgetui get rate-limit-rules");
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
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(list, cJSON_Duplicate(items[i], 1));
		http_response_free(&resp);
	}
	if (rv == 0 && pager_bound_hit(p) != NULL)
		rv = cli_error(HTTP_EXIT_REFUSED, "%s: %s", k->name,
		    pager_bound_hit(p));
	pager_free(p);
	buf_free(&q);
	return (rv);
}

/* The rules named, one GET each, in the order given. */
static int
cli_migrate_get(struct cli *c, const struct kind *k, int argc, char **argv,
    cJSON *list)
{
	struct http_response	 resp;
	char			*path;
	int			 i, rv = 0;

	for (i = 1; i < argc && rv == 0; i++) {
		if ((path = cli_item_path(c, k, argv[i], &rv)) == NULL)
			break;
		if ((rv = cli_get(c, path, &resp)) == 0 &&
		    cJSON_IsObject(resp.api.result))
			cJSON_AddItemToArray(list,
			    cJSON_Duplicate(resp.api.result, 1));
		http_response_free(&resp);
		free(path);
	}
	return (rv);
}

/*
 * Send the apply's requests one by one; each failure is told to the
 * apply (which stops there), not printed: the report says it all.
 */
static int
cli_migrate_apply(struct cli *c, struct migrate_apply *a)
{
	struct migrate_call	 call;
	struct http_request	 req;
	struct http_response	 resp;
	enum status		 st;
	char			*json, *cause, *why;
	int			 rv = 0;

	while (migrate_apply_next(a, &call)) {
		memset(&req, 0, sizeof req);
		req.method = call.method;
		req.path = call.path;
		json = NULL;
		if (call.body != NULL &&
		    (json = cJSON_PrintUnformatted(call.body)) == NULL)
			fatalx("out of memory");
		req.json = json;
		memset(&resp, 0, sizeof resp);
		cause = NULL;
		st = http_perform(c->http, &req, &resp, &cause);
		if (st == STATUS_OK) {
			if (strcmp(call.method, "GET") != 0)
				cli_journal(c, call.method, call.path,
				    resp.http_status, call.before,
				    resp.api.result);
			migrate_apply_answer(a, resp.http_status,
			    resp.api.result, NULL);
		} else {
			why = st == STATUS_READONLY ? xprintf("read-only: "
			    "%s %s refused, nothing sent", call.method,
			    call.path) : cli_cause(&resp, cause, st);
			migrate_apply_answer(a, resp.http_status, NULL, why);
			if (resp.http_status != 404 ||
			    strcmp(call.method, "GET") != 0)
				rv = http_exit_status(st, resp.http_status);
			free(why);
		}
		free(cause);
		cJSON_free(json);
		http_response_free(&resp);
		migrate_call_clear(&call);
	}
	return (rv);
}

/*
 * -o json: each legacy rule with its translation (null when there is
 * none), why not, and the warnings the YAML gives as comments.
 */
static void
cli_migrate_json(const struct migrate_item *items, size_t n)
{
	cJSON	*list = cJSON_CreateArray(), *o, *w;
	size_t	 i, j;

	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		if (items[i].legacy_id != NULL)
			cJSON_AddStringToObject(o, "legacy_id",
			    items[i].legacy_id);
		else
			cJSON_AddNullToObject(o, "legacy_id");
		cJSON_AddItemToObject(o, "rule", items[i].rule != NULL ?
		    cJSON_Duplicate(items[i].rule, 1) : cJSON_CreateNull());
		if (items[i].error != NULL)
			cJSON_AddStringToObject(o, "error", items[i].error);
		w = cJSON_AddArrayToObject(o, "warnings");
		for (j = 0; j < items[i].nwarnings; j++)
			cJSON_AddItemToArray(w,
			    cJSON_CreateString(items[i].warnings[j]));
		cJSON_AddItemToArray(list, o);
	}
	cli_print_json(list);
	cJSON_Delete(list);
}

int
cli_cmd_migrate(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct migrate_item	*items = NULL;
	struct migrate_apply	*a;
	enum expr_plan		 plan;
	cJSON			*list;
	char			*text;
	size_t			 n = 0;
	int			 rv;

	if (strcmp(k->name, "rate-limits") != 0)
		return (cli_usage_error("migrate: only rate-limits can be "
		    "migrated (to rate limiting rules), not %s", k->name));
	if (c->o->disable_legacy && !c->o->apply)
		return (cli_usage_error("migrate: --disable-legacy needs "
		    "--apply (a legacy rule is disabled once its translation "
		    "is in the entry point)"));
	/* Refused before anything is read, as delete is. */
	if (c->o->apply && c->session.readonly)
		return (cli_error(HTTP_EXIT_USAGE, "read-only: migrate --apply "
		    "refused, nothing read or sent (--readonly or a read-only "
		    "profile); without --apply it only prints the rules"));
	if ((rv = cli_migrate_plan(c, &plan)) != 0)
		return (rv);
	if (c->o->apply && c->session.scope.zone == NULL)
		return (cli_usage_error("migrate --apply: no zone (--zone, "
		    "CLOUDFLARE_ZONE_ID or the profile's zone)"));
	if ((rv = cli_connect(c)) != 0)
		return (rv);
	list = cJSON_CreateArray();
	rv = argc > 1 ? cli_migrate_get(c, k, argc, argv, list) :
	    cli_migrate_list(c, k, list);
	if (rv != 0)
		goto out;
	items = migrate_rules(list, plan, &n);
	if (c->out == CLI_OUT_JSON)
		cli_migrate_json(items, n);
	else {
		text = migrate_preview(items, n, plan);
		fputs(text, stdout);
		free(text);
	}
	fflush(stdout);
	if (!c->o->apply)
		goto out;

	a = migrate_apply_new(items, n, plan, c->session.scope.zone,
	    c->o->disable_legacy);
	rv = cli_migrate_apply(c, a);
	text = migrate_apply_report(a);
	fprintf(stderr, "edgetui: migrate: %s", text);
	free(text);
	if (rv == 0 && migrate_apply_failed(a))
		rv = HTTP_EXIT_REFUSED;
	migrate_apply_free(a);
out:
	migrate_items_free(items, n);
	cJSON_Delete(list);
	return (rv);
}
