/*
 * The translation means what the legacy rule meant: for generated
 * requests (hosts, paths with and without a query string, every method and
 * scheme), a translated rule's expression evaluated by expr_eval and the
 * legacy match written here agree, on Enterprise and on Business.
 *
 * The legacy match, as the legacy service described it (api-map-next 13.2):
 * the URL pattern ignores case and the query string, * matches any run of
 * characters, an http:// or https:// prefix fixes the scheme, the part
 * before the first / matches the host and the rest the path (no path: the
 * home page only); methods and schemes are lists, empty or _ALL_ meaning
 * all; a request matching a bypass pattern is never counted.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "expr.h"
#include "migrate.h"
#include "xmalloc.h"

/* ---- the legacy match -------------------------------------------------- */

/* Whole-text glob, ignoring case: * is any run, everything else itself. */
static int
legacy_glob(const char *p, const char *s)
{
	if (*p == '\0')
		return (*s == '\0');
	if (*p == '*') {
		while (*p == '*')
			p++;
		for (;; s++) {
			if (legacy_glob(p, s))
				return (1);
			if (*s == '\0')
				return (0);
		}
	}
	if (*s == '\0' || tolower((unsigned char)*p) !=
	    tolower((unsigned char)*s))
		return (0);
	return (legacy_glob(p + 1, s + 1));
}

static int
legacy_url(const char *pattern, const char *scheme, const char *host,
    const char *path)
{
	char		*pat, *start, *end, *slash;
	int		 ok = 1;

	pat = xstrdup(pattern);
	for (start = pat; isspace((unsigned char)*start); start++)
		;
	for (end = start + strlen(start); end > start &&
	    isspace((unsigned char)end[-1]); end--)
		end[-1] = '\0';
	if (strncasecmp(start, "https://", 8) == 0) {
		ok = strcmp(scheme, "https") == 0;
		start += 8;
	} else if (strncasecmp(start, "http://", 7) == 0) {
		ok = strcmp(scheme, "http") == 0;
		start += 7;
	}
	if (ok && strspn(start, "*") != strlen(start)) {
		if ((slash = strchr(start, '/')) != NULL) {
			ok = legacy_glob(slash, path);
			*slash = '\0';
		} else
			ok = strcmp(path, "/") == 0;
		ok = ok && legacy_glob(start, host);
	}
	free(pat);
	return (ok);
}

/* In a list of words, or the list is empty or holds _ALL_. */
static int
legacy_listed(const cJSON *list, const char *word)
{
	const cJSON	*v;

	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
		return (1);
	cJSON_ArrayForEach(v, list) {
		if (strcmp(v->valuestring, "_ALL_") == 0 ||
		    strcasecmp(v->valuestring, word) == 0)
			return (1);
	}
	return (0);
}

static int
legacy_match(const cJSON *rule, const char *method, const char *scheme,
    const char *host, const char *path)
{
	const cJSON	*req, *b;

	req = cJSON_GetObjectItem(cJSON_GetObjectItem(rule, "match"),
	    "request");
	if (!legacy_url(cJSON_GetObjectItem(req, "url")->valuestring, scheme,
	    host, path) ||
	    !legacy_listed(cJSON_GetObjectItem(req, "methods"), method) ||
	    !legacy_listed(cJSON_GetObjectItem(req, "schemes"), scheme))
		return (0);
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(rule, "bypass")) {
		if (legacy_url(cJSON_GetObjectItem(b, "value")->valuestring,
		    scheme, host, path))
			return (0);
	}
	return (1);
}

/* ---- the requests ---------------------------------------------------- */

static const char *const hosts[] = {
	"example.com", "www.example.com", "WWW.Example.COM", "api.example.com",
	"a.b.example.com", "shop.example.com", "other.org", "example.com.evil",
};
static const char *const paths[] = {
	"/", "/api", "/api/", "/api/v1/users", "/API/V1/x", "/login",
	"/login.php", "/Login/Reset", "/static/a.css", "/a/b/c", "/v1/health",
	"/v1/status/db", "/xmlrpc.php", "/search",
};
static const char *const queries[] = { "", "?a=1", "?next=/api/x&q=*" };
static const char *const methods[] = {
	"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"
};
static const char *const schemes[] = { "http", "https" };

/* Legacy rules as the API returns them (single quotes for double). */
static const char *const rules[] = {
	/* The example of 13.2. */
	"{'id':'e1','match':{'request':{'url':'*.example.com/api/*',"
	"'methods':['POST'],'schemes':['HTTPS']}},'threshold':100,'period':60,"
	"'action':{'mode':'ban','timeout':600}}",
	"{'id':'e2','match':{'request':{'url':'www.example.com/login*',"
	"'methods':['POST','PUT'],'schemes':['HTTP','HTTPS']}},'threshold':5,"
	"'period':60,'action':{'mode':'challenge'}}",
	"{'id':'e3','match':{'request':{'url':'*'}},'bypass':[{'name':'url',"
	"'value':'www.example.com/static/*'},{'name':'url','value':"
	"'api.example.com/*'}],'threshold':1000,'period':10,'action':{"
	"'mode':'simulate','timeout':10}}",
	"{'id':'e4','match':{'request':{'url':'example.com'}},'threshold':5,"
	"'period':60,'action':{'mode':'ban','timeout':60}}",
	"{'id':'e5','match':{'request':{'url':'https://*example.com/**/*.php',"
	"'methods':['_ALL_']}},'threshold':5,'period':60,'action':{'mode':"
	"'js_challenge'}}",
	"{'id':'e6','match':{'request':{'url':'  http://*/a/*  ',"
	"'schemes':['HTTP']}},'threshold':5,'period':60,'action':{'mode':"
	"'managed_challenge'}}",
	"{'id':'e7','match':{'request':{'url':'api.example.com/v1/*',"
	"'methods':['GET','DELETE'],'schemes':['HTTPS']}},'bypass':[{'name':"
	"'url','value':'api.example.com/v1/health'},{'name':'url','value':"
	"'http://api.example.com/v1/status*'}],'threshold':600,'period':60,"
	"'action':{'mode':'ban','timeout':60}}",
	"{'id':'e8','match':{'request':{'url':'*/login*','methods':['HEAD']}},"
	"'threshold':5,'period':60,'action':{'mode':'ban','timeout':60}}",
	"{'id':'e9','match':{'request':{'url':'https://*/*','schemes':"
	"['HTTP']}},'threshold':5,'period':60,'action':{'mode':'ban',"
	"'timeout':60}}",
	"{'id':'e10','match':{'request':{'url':'*.example.*/*/*'}},"
	"'threshold':5,'period':60,'action':{'mode':'ban','timeout':60}}",
};

static cJSON *
legacy(const char *text)
{
	char	*s = xstrdup(text), *p;
	cJSON	*j;

	for (p = s; *p != '\0'; p++)
		if (*p == '\'')
			*p = '"';
	assert_non_null(j = cJSON_Parse(s));
	free(s);
	return (j);
}

/* Every rule against every request on a plan; returns requests compared. */
static long
agree(enum expr_plan plan)
{
	struct expr_options	 o = { .plan = plan };
	struct expr_request	*rq;
	struct migrate_item	 it;
	struct expr_error	 err;
	struct expr		*e;
	cJSON			*l;
	char			 url[256], path[128];
	size_t			 r, h, p, q, m, s;
	long			 n = 0, hits = 0;
	int			 want, got;

	rq = expr_request_new();
	for (r = 0; r < nitems(rules); r++) {
		l = legacy(rules[r]);
		if (migrate_rule(l, plan, &it) != 0)
			fail_msg("%s: %s", rules[r], it.error);
		e = expr_parse(cJSON_GetObjectItem(it.rule,
		    "expression")->valuestring, &o, &err);
		if (e == NULL)
			fail_msg("%s: %s", cJSON_GetObjectItem(it.rule,
			    "expression")->valuestring, err.message);
		for (h = 0; h < nitems(hosts); h++)
		for (p = 0; p < nitems(paths); p++)
		for (q = 0; q < nitems(queries); q++)
		for (m = 0; m < nitems(methods); m++)
		for (s = 0; s < nitems(schemes); s++) {
			snprintf(url, sizeof url, "%s://%s%s%s", schemes[s],
			    hosts[h], paths[p], queries[q]);
			snprintf(path, sizeof path, "%s", paths[p]);
			expr_request_reset(rq);
			assert_int_equal(expr_request_set(rq, methods[m], url),
			    0);
			expr_request_set_verified_bot(rq, 0);
			got = expr_eval(e, rq);
			want = legacy_match(l, methods[m], schemes[s],
			    hosts[h], path);
			if (got != want)
				fail_msg("plan %s, rule %s: %s %s: legacy %d, "
				    "translated %d (%s)", expr_plan_name(plan),
				    cJSON_GetObjectItem(l, "id")->valuestring,
				    methods[m], url, want, got,
				    cJSON_GetObjectItem(it.rule,
				    "expression")->valuestring);
			n++;
			hits += want;
		}
		expr_free(e);
		migrate_item_free(&it);
		cJSON_Delete(l);
	}
	expr_request_free(rq);
	/* Neither all nor none: the requests tell the rules apart. */
	assert_true(hits > 0 && hits < n);
	return (n);
}

static void
test_enterprise(void **state)
{
	(void)state;
	assert_int_equal(agree(EXPR_PLAN_ENTERPRISE), (long)(nitems(rules) *
	    nitems(hosts) * nitems(paths) * nitems(queries) *
	    nitems(methods) * nitems(schemes)));
}

static void
test_business(void **state)
{
	(void)state;
	assert_true(agree(EXPR_PLAN_BUSINESS) > 0);
}

/* The legacy matcher itself, on the cases 13.2 names. */
static void
test_legacy_matcher(void **state)
{
	(void)state;
	assert_true(legacy_url("example.com", "http", "example.com", "/"));
	assert_false(legacy_url("example.com", "http", "example.com", "/a"));
	assert_true(legacy_url("*example.com/*", "http", "example.com", "/a"));
	assert_true(legacy_url("*example.com/*", "http", "www.example.com",
	    "/"));
	assert_false(legacy_url("*.example.com/*", "http", "example.com",
	    "/"));
	assert_true(legacy_url("https://*/A*", "https", "x", "/abc"));
	assert_false(legacy_url("https://*/A*", "http", "x", "/abc"));
	assert_true(legacy_url(" * ", "http", "x", "/y"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_legacy_matcher),
		cmocka_unit_test(test_enterprise),
		cmocka_unit_test(test_business),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
