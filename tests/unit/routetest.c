/* In-process requests to edgemu's route table on a scratch store, no socket. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "multipart.h"
#include "query.h"
#include "routetest.h"
#include "server.h"
#include "store.h"
#include "testdir.h"
#include "xmalloc.h"

struct routetest *
routetest_open(const char *name, const struct area *const *areas,
    size_t nareas)
{
	struct routetest	 *rt = xcalloc(1, sizeof *rt);
	const char		**schemas;
	char			 *cause = NULL;
	size_t			  i;

	if ((rt->dir = testdir_new(name)) == NULL)
		fail_msg("cannot make a directory for %s", name);
	schemas = xcalloc(nareas + 1, sizeof *schemas);
	for (i = 0; i < nareas; i++)
		schemas[i] = areas[i]->schema;
	rt->store = store_open(rt->dir, schemas, &cause);
	free(schemas);
	if (rt->store == NULL)
		fail_msg("store_open: %s", cause);
	rt->areas = areas;
	rt->nareas = nareas;
	return (rt);
}

void
routetest_close(struct routetest *rt)
{
	store_close(rt->store);
	if (testdir_remove(rt->dir) != 0)
		fprintf(stderr, "could not remove %s\n", rt->dir);
	free(rt->dir);
	free(rt);
}

void
routetest_call(struct routetest *rt, enum http_method method,
    const char *path, const char *query, const char *body,
    struct multipart *form, struct routetest_call *c)
{
	const struct route	**routes, *r;
	struct req		  req;
	struct reply		  rep;
	char			 *cause = NULL;
	size_t			  i, j, n = 0;

	memset(&req, 0, sizeof req);
	memset(&rep, 0, sizeof rep);
	memset(c, 0, sizeof *c);
	for (i = 0; i < rt->nareas; i++)
		n += rt->areas[i]->nroutes;
	routes = xcalloc(n, sizeof *routes);
	n = 0;
	for (i = 0; i < rt->nareas; i++) {
		for (j = 0; j < rt->areas[i]->nroutes; j++)
			routes[n++] = &rt->areas[i]->routes[j];
	}
	if (route_lookup(routes, n, method, path, &r, &req) != ROUTE_FOUND ||
	    r->handler == NULL)
		fail_msg("no route for %s %s", http_method_name(method), path);
	free(routes);
	req.store = rt->store;
	req.method = method;
	req.path = path;
	if (query != NULL && query_parse(&req.query, query, &cause) != 0)
		fail_msg("query %s: %s", query, cause);
	if (body != NULL && (req.json = cJSON_Parse(body)) == NULL)
		fail_msg("test JSON does not parse: %s", body);
	req.parts = form;
	r->handler(&req, &rep);
	c->status = rep.status != 0 ? rep.status : 200;
	c->result = rep.result;
	c->top = rep.top;
	rep.result = rep.top = NULL;
	if (cJSON_GetArraySize(rep.errors) > 0) {
		c->message = xstrdup(cJSON_GetObjectItem(cJSON_GetArrayItem(
		    rep.errors, 0), "message")->valuestring);
		c->code = cJSON_GetObjectItem(cJSON_GetArrayItem(rep.errors,
		    0), "code")->valueint;
	}
	if (rep.paged) {
		c->page = rep.page;
		c->per_page = rep.per_page;
		c->total_count = rep.total_count;
	}
	/* Every request must leave the store out of any transaction. */
	assert_true(sqlite3_get_autocommit(store_db(rt->store)));
	reply_free(&rep);
	req_clear_params(&req);
	query_free(&req.query);
	cJSON_Delete(req.json);
	multipart_free(form);
}

void
routetest_call_free(struct routetest_call *c)
{
	cJSON_Delete(c->result);
	cJSON_Delete(c->top);
	free(c->message);
	memset(c, 0, sizeof *c);
}
