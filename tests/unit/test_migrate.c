/*
 * Unit tests of the legacy rate limit translation (src/migrate.c), row by
 * row of api-map-next 13: the URL pattern, methods, schemes, bypass,
 * response conditions, period and timeout snapping, actions, responses,
 * what each plan loses (and the warning saying so), the preview, and the
 * apply's requests. The equivalence of translated expressions with the
 * legacy match is in test_migrate_equiv.c.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "migrate.h"
#include "rlrule.h"
#include "xmalloc.h"
#include "yamljson.h"

#define FREE	EXPR_PLAN_FREE
#define PRO	EXPR_PLAN_PRO
#define BUS	EXPR_PLAN_BUSINESS
#define ENT	EXPR_PLAN_ENTERPRISE
#define NONE	EXPR_PLAN_NONE

#define ID	"372e67954025e0ba6aaa6d586b9e0b59"

/*
 * " and not cf.bot_management.verified_bot" (cf.client.bot as `expr fmt`
 * writes it) when the scheme has the field, else "".
 */
static const char *
bots(enum expr_plan plan)
{
	struct expr_options	o = { .plan = plan };
	struct expr_error	e;

	return (expr_check("not cf.client.bot", &o, &e) == 0 ?
	    " and not cf.bot_management.verified_bot" : "");
}

/* A legacy rule from JSON text whose single quotes are double quotes. */
static cJSON *
legacy(const char *text)
{
	char	*s = xstrdup(text), *p;
	cJSON	*j;

	for (p = s; *p != '\0'; p++)
		if (*p == '\'')
			*p = '"';
	j = cJSON_Parse(s);
	if (j == NULL)
		fail_msg("not JSON: %s", s);
	free(s);
	return (j);
}

/* Translate; the rule must pass rlrule_check for the plan. */
static void
translate(const char *text, enum expr_plan plan, struct migrate_item *it)
{
	struct rlrule_problem	 pb;
	cJSON			*l = legacy(text);

	if (migrate_rule(l, plan, it) != 0)
		fail_msg("not translated: %s", it->error);
	if (rlrule_check(it->rule, plan, &pb) != 0)
		fail_msg("refused: %s: %s", pb.field, pb.message);
	cJSON_Delete(l);
}

static const char *
str(const cJSON *o, const char *path)
{
	char		*copy = xstrdup(path), *key, *save = NULL;
	const cJSON	*v = o;

	for (key = strtok_r(copy, ".", &save); key != NULL && v != NULL;
	    key = strtok_r(NULL, ".", &save))
		v = cJSON_GetObjectItemCaseSensitive(v, key);
	free(copy);
	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

static int
num(const cJSON *o, const char *path)
{
	char		*copy = xstrdup(path), *key, *save = NULL;
	const cJSON	*v = o;

	for (key = strtok_r(copy, ".", &save); key != NULL && v != NULL;
	    key = strtok_r(NULL, ".", &save))
		v = cJSON_GetObjectItemCaseSensitive(v, key);
	free(copy);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return (v->valueint);
}

/* Whether a warning contains text. */
static int
warned(const struct migrate_item *it, const char *text)
{
	size_t	i;

	for (i = 0; i < it->nwarnings; i++)
		if (strstr(it->warnings[i], text) != NULL)
			return (1);
	return (0);
}

static void
assert_warned(const struct migrate_item *it, const char *text)
{
	size_t	i;

	if (warned(it, text))
		return;
	for (i = 0; i < it->nwarnings; i++)
		print_error("warning: %s\n", it->warnings[i]);
	fail_msg("no warning says '%s'", text);
}

/*
 * The expression of a rule whose match.request has req and whose top
 * level also has top ("" for none), on a plan: want, and the bot
 * exemption when the scheme has it.
 */
static void
assert_expr2(const char *req, const char *top, enum expr_plan plan,
    const char *want)
{
	struct migrate_item	 it;
	char			*text, *full;

	text = xprintf("{'id':'" ID "','match':{'request':{%s}},%s%s"
	    "'threshold':10,'period':60,'action':{'mode':'challenge'}}",
	    req, top, *top != '\0' ? "," : "");
	translate(text, plan, &it);
	if (*want == '\0' && *bots(plan) != '\0')
		full = xstrdup(bots(plan) + strlen(" and "));
	else if (*want == '\0')
		full = xstrdup("http.request.uri.path wildcard \"*\"");
	else
		full = xprintf("%s%s", want, bots(plan));
	assert_string_equal(str(it.rule, "expression"), full);
	free(full);
	free(text);
	migrate_item_free(&it);
}

static void
assert_expr(const char *req, enum expr_plan plan, const char *want)
{
	assert_expr2(req, "", plan, want);
}

/* ---- 13.2: the example -------------------------------------------------- */

static void
test_example(void **state)
{
	struct migrate_item	 it;
	const cJSON		*chars;
	char			*want;

	(void)state;
	translate("{'id':'" ID "','match':{'request':{'url':"
	    "'*.example.com/api/*','methods':['POST'],'schemes':['HTTPS']}},"
	    "'threshold':100,'period':60,'action':{'mode':'ban',"
	    "'timeout':600}}", BUS, &it);
	want = xprintf("http.host wildcard \"*.example.com\" and "
	    "http.request.uri.path wildcard \"/api/*\" and "
	    "http.request.method in {\"POST\"} and "
	    "http.request.full_uri wildcard \"https://*\"%s", bots(BUS));
	assert_string_equal(str(it.rule, "expression"), want);
	assert_string_equal(str(it.rule, "action"), "block");
	assert_string_equal(str(it.rule, "ref"), "legacy-" ID);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it.rule, "enabled")));
	assert_int_equal(num(it.rule, "ratelimit.period"), 60);
	assert_int_equal(num(it.rule, "ratelimit.requests_per_period"), 100);
	assert_int_equal(num(it.rule, "ratelimit.mitigation_timeout"), 600);
	chars = cJSON_GetObjectItem(cJSON_GetObjectItem(it.rule, "ratelimit"),
	    "characteristics");
	assert_int_equal(cJSON_GetArraySize(chars), 2);
	assert_string_equal(cJSON_GetArrayItem(chars, 0)->valuestring,
	    "cf.colo.id");
	assert_string_equal(cJSON_GetArrayItem(chars, 1)->valuestring,
	    "ip.src");
	assert_null(cJSON_GetObjectItem(it.rule, "action_parameters"));
	assert_null(str(it.rule, "ratelimit.counting_expression"));
	assert_int_equal(it.nwarnings, 0);
	free(want);
	migrate_item_free(&it);
}

/* ---- 13.2: URL patterns -------------------------------------------------- */

static void
test_url(void **state)
{
	(void)state;
	/* Empty or stars: no URL condition. */
	assert_expr("'url':'*'", ENT, "");
	assert_expr("'url':'  ***  '", ENT, "");
	/* A host alone is its home page. */
	assert_expr("'url':'example.com'", ENT, "http.host wildcard "
	    "\"example.com\" and http.request.uri.path eq \"/\"");
	/* Trimmed; a path of one star is any path. */
	assert_expr("'url':'  www.example.com/*  '", ENT, "http.host "
	    "wildcard \"www.example.com\"");
	assert_expr("'url':'*/login*'", ENT, "http.request.uri.path "
	    "wildcard \"/login*\"");
	/* The scheme prefix becomes the scheme condition. */
	assert_expr("'url':'HTTPS://Example.com/x'", ENT, "http.host wildcard "
	    "\"Example.com\" and http.request.uri.path wildcard \"/x\" and "
	    "ssl");
	assert_expr("'url':'http://*/x'", ENT, "http.request.uri.path wildcard "
	    "\"/x\" and not ssl");
	assert_expr("'url':'http://*/x'", BUS, "http.request.uri.path wildcard "
	    "\"/x\" and http.request.full_uri wildcard \"http://*\"");
	/* ** is one star (the language refuses **). */
	assert_expr("'url':'ex**ample.com/api/**'", ENT, "http.host wildcard "
	    "\"ex*ample.com\" and http.request.uri.path wildcard \"/api/*\"");
	assert_expr("'url':'example.com/**'", ENT, "http.host wildcard "
	    "\"example.com\"");
	/* " and \ are escaped; \ is a literal for the wildcard too. */
	assert_expr("'url':'example.com/a\\'b\\\\c*'", ENT, "http.host "
	    "wildcard \"example.com\" and http.request.uri.path wildcard "
	    "\"/a\\\"b\\\\\\\\c*\"");
	/* A slash alone is the root path only. */
	assert_expr("'url':'example.com/'", ENT, "http.host wildcard "
	    "\"example.com\" and http.request.uri.path wildcard \"/\"");
}

/* ---- 13.1: methods and schemes -------------------------------------------- */

static void
test_methods(void **state)
{
	struct migrate_item	it;

	(void)state;
	assert_expr("'url':'*/a','methods':['GET','post']", BUS,
	    "http.request.uri.path wildcard \"/a\" and http.request.method "
	    "in {\"GET\" \"POST\"}");
	assert_expr("'url':'*/a','methods':['_ALL_']", ENT,
	    "http.request.uri.path wildcard \"/a\"");
	assert_expr("'url':'*/a','methods':[]", ENT,
	    "http.request.uri.path wildcard \"/a\"");
	/* Pro and Free: dropped, saying so. */
	translate("{'id':'" ID "','match':{'request':{'url':'*/a','methods':"
	    "['POST']}},'threshold':1,'period':10,'action':{'mode':"
	    "'challenge'}}", PRO, &it);
	assert_null(strstr(str(it.rule, "expression"), "method"));
	assert_warned(&it, "methods \"POST\" need the Business plan: dropped, "
	    "the rule now counts every method");
	migrate_item_free(&it);
}

static void
test_schemes(void **state)
{
	struct migrate_item	 it;
	char			*want;

	(void)state;
	assert_expr("'url':'*/a','schemes':['HTTPS']", ENT,
	    "http.request.uri.path wildcard \"/a\" and ssl");
	assert_expr("'url':'*/a','schemes':['HTTP']", NONE,
	    "http.request.uri.path wildcard \"/a\" and not ssl");
	assert_expr("'url':'*/a','schemes':['HTTPS']", PRO,
	    "http.request.uri.path wildcard \"/a\" and "
	    "http.request.full_uri wildcard \"https://*\"");
	assert_expr("'url':'*/a','schemes':['HTTP','HTTPS']", BUS,
	    "http.request.uri.path wildcard \"/a\"");
	assert_expr("'url':'*/a','schemes':['_ALL_']", BUS,
	    "http.request.uri.path wildcard \"/a\"");
	/* The URL's scheme within the schemes: HTTPS only. */
	assert_expr("'url':'https://*/a','schemes':['HTTP','HTTPS']", ENT,
	    "http.request.uri.path wildcard \"/a\" and ssl");

	/* Free: path only; the host and scheme go, saying so. */
	translate("{'id':'" ID "','match':{'request':{'url':"
	    "'https://example.com/a*','schemes':['HTTPS']}},'threshold':1,"
	    "'period':10,'action':{'mode':'challenge'}}", FREE, &it);
	want = xprintf("http.request.uri.path wildcard \"/a*\"%s",
	    bots(FREE));
	assert_string_equal(str(it.rule, "expression"), want);
	free(want);
	assert_warned(&it, "the host condition 'example.com' is dropped: Free "
	    "rules can only test the path, so the rule now counts requests to "
	    "every host");
	assert_warned(&it, "the HTTPS scheme condition is dropped");
	migrate_item_free(&it);

	/* A URL scheme outside the schemes never matched: nor does this. */
	translate("{'id':'" ID "','match':{'request':{'url':'https://*/a',"
	    "'schemes':['HTTP']}},'threshold':1,'period':10,'action':{'mode':"
	    "'challenge'}}", ENT, &it);
	assert_non_null(strstr(str(it.rule, "expression"), "ssl and not ssl"));
	assert_warned(&it, "never matched");
	migrate_item_free(&it);
}

/* ---- 13.1: bypass --------------------------------------------------------- */

static void
test_bypass(void **state)
{
	struct migrate_item	it;
	char			*want;

	(void)state;
	assert_expr2("'url':'api.example.com/*'", "'bypass':[{'name':'url',"
	    "'value':'api.example.com/health'},{'name':'url','value':"
	    "'*/static/*'}]", ENT, "http.host wildcard "
	    "\"api.example.com\" and not (http.host wildcard "
	    "\"api.example.com\" and http.request.uri.path wildcard "
	    "\"/health\" or http.request.uri.path wildcard \"/static/*\")");
	/* A bypass's scheme is its own. */
	assert_expr2("'url':'*'", "'bypass':[{'name':'url','value':"
	    "'http://*/a'}]", ENT, "not (http.request.uri.path "
	    "wildcard \"/a\" and not ssl)");

	/* Free: a bypass's host goes (widening it); a host-only one goes. */
	translate("{'id':'" ID "','match':{'request':{'url':'*'}},'bypass':["
	    "{'name':'url','value':'www.example.com/static/*'},{'name':'url',"
	    "'value':'cdn.example.com/*'}],'threshold':1,'period':10,'action':{"
	    "'mode':'challenge'}}", FREE, &it);
	want = xprintf("not http.request.uri.path wildcard \"/static/*\"%s",
	    bots(FREE));
	assert_string_equal(str(it.rule, "expression"), want);
	assert_warned(&it, "bypass 1 ('www.example.com/static/*'): the host "
	    "condition 'www.example.com' is dropped: Free rules can only test "
	    "the path, so the bypass now exempts that path on every host");
	assert_warned(&it, "bypass 2 ('cdn.example.com/*'): Free rules can "
	    "only test the path and it has none, so it is dropped: the rule "
	    "now counts what it exempted");
	free(want);
	migrate_item_free(&it);
}

/* ---- 13.1: response conditions -------------------------------------------- */

static void
test_counting(void **state)
{
	struct migrate_item	it;
	const char		*shapes[] = {
		"'match':{'request':{'url':'*/login'},'response':{'status':"
		    "[401,403],'headers':[{'name':'X-Auth','op':'eq','value':"
		    "'bad'},{'name':'Content-Type','op':'ne','value':"
		    "'text/html'}]}}",
		"'match':{'request':{'url':'*/login'},'response':{'status':"
		    "[401,403]},'headers':[{'name':'X-Auth','op':'eq','value':"
		    "'bad'},{'name':'Content-Type','op':'ne','value':"
		    "'text/html'}]}",
	};
	char			*text, *want, *expr;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(shapes); i++) {
		text = xprintf("{'id':'" ID "',%s,'threshold':5,'period':60,"
		    "'action':{'mode':'ban','timeout':600}}", shapes[i]);
		translate(text, BUS, &it);
		expr = xprintf("http.request.uri.path wildcard \"/login\"%s",
		    bots(BUS));
		assert_string_equal(str(it.rule, "expression"), expr);
		/* As `expr fmt` writes it: eq, no needless parentheses. */
		want = xprintf("%s and http.response.code in {401 403} and "
		    "any(http.response.headers[\"x-auth\"][*] eq \"bad\") and "
		    "not any(http.response.headers[\"content-type\"][*] eq "
		    "\"text/html\")", expr);
		assert_string_equal(str(it.rule,
		    "ratelimit.counting_expression"), want);
		assert_false(cJSON_IsTrue(cJSON_GetObjectItem(
		    cJSON_GetObjectItem(it.rule, "ratelimit"),
		    "requests_to_origin")));
		free(want);
		free(expr);
		migrate_item_free(&it);

		/* Pro: lost, saying so. */
		translate(text, PRO, &it);
		assert_null(str(it.rule, "ratelimit.counting_expression"));
		assert_warned(&it, "need a counting expression, which needs "
		    "the Business plan: dropped, the rule now counts every "
		    "matching request");
		migrate_item_free(&it);
		free(text);
	}

	/* The dashboard's default header and origin_traffic: origin only. */
	translate("{'id':'" ID "','match':{'request':{'url':'*'},'headers':["
	    "{'name':'cf-cache-status','op':'ne','value':'HIT'}]},"
	    "'threshold':5,'period':10,'action':{'mode':'challenge'}}", PRO,
	    &it);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    it.rule, "ratelimit"), "requests_to_origin")));
	assert_null(str(it.rule, "ratelimit.counting_expression"));
	assert_int_equal(it.nwarnings, 0);
	migrate_item_free(&it);
	translate("{'id':'" ID "','match':{'request':{'url':'*'},'response':{"
	    "'origin_traffic':true}},'threshold':5,'period':10,'action':{"
	    "'mode':'challenge'}}", FREE, &it);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    it.rule, "ratelimit"), "requests_to_origin")));
	migrate_item_free(&it);
}

/* ---- 13.1: period, timeout, action, response ---------------------------- */

static void
check_period(int legacy_period, enum expr_plan plan, int want,
    const char *warning)
{
	struct migrate_item	 it;
	char			*text;

	text = xprintf("{'id':'" ID "','match':{'request':{'url':'*/a'}},"
	    "'threshold':5,'period':%d,'action':{'mode':'challenge'}}",
	    legacy_period);
	translate(text, plan, &it);
	assert_int_equal(num(it.rule, "ratelimit.period"), want);
	if (warning != NULL)
		assert_warned(&it, warning);
	else
		assert_false(warned(&it, "period"));
	free(text);
	migrate_item_free(&it);
}

static void
test_period(void **state)
{
	(void)state;
	check_period(60, BUS, 60, NULL);
	check_period(45, BUS, 60, "period 45 s snapped to 60 s (allowed on "
	    "business: 10 60 120 300 600)");
	/* A tie goes to the lower value. */
	check_period(90, BUS, 60, "period 90 s snapped to 60 s");
	check_period(900, BUS, 600, "period 900 s snapped to 600 s");
	check_period(86400, ENT, 3600, "period 86400 s snapped to 3600 s");
	check_period(3600, PRO, 60, "period 3600 s snapped to 60 s (allowed "
	    "on pro: 10 60)");
	check_period(60, FREE, 10, "period 60 s snapped to 10 s (allowed on "
	    "free: 10)");
}

static void
check_action(const char *action, enum expr_plan plan, const char *want,
    int timeout, int enabled, const char *warning)
{
	struct migrate_item	 it;
	char			*text;

	text = xprintf("{'id':'" ID "','description':'d','match':{'request':"
	    "{'url':'*/a'}},'threshold':5,'period':60,'action':%s}", action);
	translate(text, plan, &it);
	assert_string_equal(str(it.rule, "action"), want);
	assert_int_equal(num(it.rule, "ratelimit.mitigation_timeout"),
	    timeout);
	assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItem(it.rule,
	    "enabled")), enabled);
	if (warning != NULL)
		assert_warned(&it, warning);
	free(text);
	migrate_item_free(&it);
}

static void
test_action(void **state)
{
	struct migrate_item	it;

	(void)state;
	check_action("{'mode':'ban','timeout':600}", BUS, "block", 600, 1,
	    NULL);
	check_action("{'mode':'ban','timeout':900}", BUS, "block", 600, 1,
	    "timeout 900 s snapped to 600 s");
	check_action("{'mode':'ban','timeout':86400}", PRO, "block", 3600, 1,
	    "timeout 86400 s snapped to 3600 s");
	check_action("{'mode':'ban','timeout':600}", FREE, "block", 10, 1,
	    "timeout 600 s snapped to 10 s (allowed for block on free: 10)");
	check_action("{'mode':'simulate','timeout':60}", ENT, "log", 60, 1,
	    NULL);
	check_action("{'mode':'simulate','timeout':60}", PRO, "block", 60, 0,
	    "simulate has no equivalent below Enterprise (log is Enterprise "
	    "only): created as block, disabled, description prefixed [was "
	    "simulate]");
	check_action("{'mode':'challenge'}", BUS, "challenge", 0, 1, NULL);
	check_action("{'mode':'js_challenge','timeout':0}", FREE,
	    "js_challenge", 0, 1, NULL);
	check_action("{'mode':'managed_challenge','timeout':600}", BUS,
	    "managed_challenge", 0, 1, "timeout 600 s sent as 0: below "
	    "Enterprise a challenge must throttle");
	/* Enterprise may keep a challenge's timeout. */
	check_action("{'mode':'managed_challenge','timeout':600}", ENT,
	    "managed_challenge", 600, 1, NULL);

	/* The simulate rule's description says what it was. */
	translate("{'id':'" ID "','description':'API','match':{'request':{"
	    "'url':'*/a'}},'threshold':5,'period':60,'action':{'mode':"
	    "'simulate','timeout':60}}", BUS, &it);
	assert_string_equal(str(it.rule, "description"),
	    "[was simulate] API");
	migrate_item_free(&it);
	/* disabled: true stays disabled. */
	translate("{'id':'" ID "','disabled':true,'match':{'request':{'url':"
	    "'*/a'}},'threshold':5,'period':60,'action':{'mode':"
	    "'challenge'}}", BUS, &it);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(it.rule, "enabled")));
	migrate_item_free(&it);
}

#define RESPONSE_RULE	"{'id':'" ID "','match':{'request':{'url':'*/a'}}," \
	"'threshold':5,'period':60,'action':{'mode':'%s','timeout':60," \
	"'response':{'content_type':'text/xml','body':'<e/>'}}}"

static void
test_response(void **state)
{
	struct migrate_item	it;
	char			*text;

	(void)state;
	text = xprintf(RESPONSE_RULE, "ban");
	translate(text, PRO, &it);
	assert_int_equal(num(it.rule,
	    "action_parameters.response.status_code"), 429);
	assert_string_equal(str(it.rule,
	    "action_parameters.response.content_type"), "text/xml");
	assert_string_equal(str(it.rule,
	    "action_parameters.response.content"), "<e/>");
	migrate_item_free(&it);
	translate(text, FREE, &it);
	assert_null(cJSON_GetObjectItem(it.rule, "action_parameters"));
	assert_warned(&it, "the custom response (text/xml) needs the Pro "
	    "plan: dropped, blocked clients get the default 429 page");
	migrate_item_free(&it);
	free(text);
	text = xprintf(RESPONSE_RULE, "simulate");
	translate(text, ENT, &it);
	assert_null(cJSON_GetObjectItem(it.rule, "action_parameters"));
	assert_warned(&it, "only block responds, and this rule's action is "
	    "log");
	migrate_item_free(&it);
	free(text);
}

/* ---- refusals ------------------------------------------------------------ */

static void
test_refused(void **state)
{
	static const char *const bad[][2] = {
		{ "[1]", "an object is needed" },
		{ "{'match':{'request':{}},'threshold':1,'period':10,"
		  "'action':{'mode':'ban','timeout':10}}",
		  "match.request.url is missing" },
		{ "{'match':{'request':{'url':'*'}},'threshold':0,'period':10,"
		  "'action':{'mode':'ban','timeout':10}}",
		  "threshold is missing or below 1" },
		{ "{'match':{'request':{'url':'*'}},'threshold':1,"
		  "'action':{'mode':'ban','timeout':10}}",
		  "period is missing" },
		{ "{'match':{'request':{'url':'*'}},'threshold':1,'period':10,"
		  "'action':{'mode':'tarpit'}}",
		  "action.mode 'tarpit' is not a legacy mode" },
		{ "{'id':'../x','match':{'request':{'url':'*'}},'threshold':1,"
		  "'period':10,'action':{'mode':'ban','timeout':10}}",
		  "its id is not an identifier" },
	};
	struct migrate_item	 it;
	cJSON			*l;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		l = legacy(bad[i][0]);
		assert_int_equal(migrate_rule(l, BUS, &it), -1);
		assert_null(it.rule);
		assert_non_null(strstr(it.error, bad[i][1]));
		migrate_item_free(&it);
		cJSON_Delete(l);
	}
}

/* ---- every plan: every rule passes rlrule_check --------------------------- */

static const char *const rules_all[] = {
	"{'id':'a1','description':'login','match':{'request':{'methods':"
	"['POST'],'schemes':['HTTPS'],'url':'www.example.com/login*'},"
	"'response':{'origin_traffic':false},'headers':[{'name':"
	"'Cf-Cache-Status','op':'ne','value':'HIT'}]},'threshold':5,"
	"'period':60,'action':{'mode':'ban','timeout':900,'response':{"
	"'content_type':'application/json','body':'{}'}}}",
	"{'id':'a2','match':{'request':{'methods':['GET','POST','PUT',"
	"'DELETE'],'schemes':['HTTPS'],'url':'api.example.com/v1/*'}},"
	"'bypass':[{'name':'url','value':'api.example.com/v1/health'},"
	"{'name':'url','value':'api.example.com/v1/status*'}],"
	"'threshold':600,'period':60,'action':{'mode':'simulate',"
	"'timeout':60}}",
	"{'id':'a3','match':{'request':{'url':'*'}},'bypass':[{'name':'url',"
	"'value':'cdn.example.com/*'}],'threshold':1000,'period':10,"
	"'action':{'mode':'simulate','timeout':10}}",
	"{'id':'a4','match':{'request':{'url':'https://shop.example.com'},"
	"'response':{'status':[401,403,429]}},'threshold':10,'period':300,"
	"'action':{'mode':'js_challenge'}}",
	"{'id':'a5','match':{'request':{'url':'*'},'response':{'headers':["
	"{'name':'X-A','op':'eq','value':'q\\'\\\\\\\\'}]}},'threshold':3,"
	"'period':86400,'action':{'mode':'managed_challenge','timeout':"
	"600}}",
	"{'id':'a6','match':{'request':{'url':'http://**example.com**/**',"
	"'schemes':['HTTP']}},'threshold':1,'period':10,'action':{'mode':"
	"'ban','timeout':86400}}",
};

static void
test_every_plan(void **state)
{
	static const enum expr_plan plans[] = { NONE, FREE, PRO, BUS, ENT };
	struct migrate_item	it;
	size_t			i, j;

	(void)state;
	for (i = 0; i < nitems(plans); i++)
		for (j = 0; j < nitems(rules_all); j++) {
			translate(rules_all[j], plans[i], &it);
			migrate_item_free(&it);
		}
}

/* ---- the preview ----------------------------------------------------------- */

static void
test_preview(void **state)
{
	struct migrate_item	*items;
	cJSON			*list, *back;
	char			*text, *cause = NULL;
	size_t			 n, i;

	(void)state;
	list = cJSON_CreateArray();
	for (i = 0; i < nitems(rules_all); i++)
		cJSON_AddItemToArray(list, legacy(rules_all[i]));
	cJSON_AddItemToArray(list, legacy("{'id':'bad','description':"
	    "'two\\nlines'}"));
	items = migrate_rules(list, PRO, &n);
	assert_int_equal(n, nitems(rules_all) + 1);
	text = migrate_preview(items, n, PRO);
	/* It reads back as the list of the translated rules. */
	back = yamljson_parse(text, strlen(text), &cause);
	if (back == NULL)
		fail_msg("%s\n%s", cause, text);
	assert_int_equal(cJSON_GetArraySize(back), nitems(rules_all));
	for (i = 0; i < nitems(rules_all); i++)
		assert_true(cJSON_Compare(cJSON_GetArrayItem(back, (int)i),
		    items[i].rule, 1));
	assert_non_null(strstr(text, "# 7 legacy rate limits as rate limiting "
	    "rules for pro\n"));
	assert_non_null(strstr(text, "\n# legacy rate limit a1: login\n"
	    "# warning: "));
	assert_non_null(strstr(text, "# warning: simulate has no equivalent"));
	/* An untranslated rule is a comment; a newline stays in it. */
	assert_non_null(strstr(text, "# legacy rate limit bad: two lines\n"
	    "# not translated: match.request.url is missing\n"));
	cJSON_Delete(back);
	free(text);
	migrate_items_free(items, n);
	cJSON_Delete(list);
}

/*
 * The preview says when the translations are more than the plan holds:
 * once at the top, and on each rule past the quota.
 */
static void
test_preview_quota(void **state)
{
	struct migrate_item	*items;
	cJSON			*list;
	char			*text, *p;
	size_t			 n, i;
	int			 k;

	(void)state;
	list = cJSON_CreateArray();
	for (i = 0; i < nitems(rules_all); i++)
		cJSON_AddItemToArray(list, legacy(rules_all[i]));
	items = migrate_rules(list, PRO, &n);
	text = migrate_preview(items, n, PRO);
	assert_non_null(strstr(text, "# warning: the Pro plan holds 2 rules "
	    "in the entry point and 6 are translated: --apply adds them in "
	    "order while there is room"));
	for (k = 0, p = text; (p = strstr(p, "leaves this one out")) != NULL;
	    p++)
		k++;
	assert_int_equal(k, 4);
	free(text);
	/* Enterprise holds them all: nothing to say. */
	migrate_items_free(items, n);
	items = migrate_rules(list, ENT, &n);
	text = migrate_preview(items, n, ENT);
	assert_null(strstr(text, "plan holds"));
	free(text);
	migrate_items_free(items, n);
	cJSON_Delete(list);
}

/* ---- the apply's requests ---------------------------------------------------- */

#define ZONE	"7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40"
#define EP	"0123456789abcdef0123456789abcdef"

static void
expect_call(struct migrate_apply *a, const char *method, const char *path,
    struct migrate_call *c)
{
	assert_int_equal(migrate_apply_next(a, c), 1);
	assert_string_equal(c->method, method);
	assert_string_equal(c->path, path);
}

static cJSON *
ruleset(const char *refs)
{
	char	*s = xprintf("{'id':'" EP "','rules':[%s]}", refs);
	cJSON	*j = legacy(s);

	free(s);
	return (j);
}

/*
 * A legacy description may hold 1,024 characters, a rule's 500: the rule
 * is translated with its description cut (never inside a character), and
 * a warning says so.
 */
static void
test_long_description(void **state)
{
	struct migrate_item	 it;
	cJSON			*l;
	const char		*d;
	char			*desc;
	size_t			 i, chars = 0;

	(void)state;
	desc = xcalloc(1, 1024 * 2 + 1);
	for (i = 0; i < 1024; i++)
		memcpy(desc + 2 * i, "\xc3\xa9", 2);	/* é */
	l = legacy("{'id':'aa','match':{'request':{'url':'*/a'}},"
	    "'threshold':5,'period':60,'action':{'mode':'simulate',"
	    "'timeout':60}}");
	cJSON_AddStringToObject(l, "description", desc);
	if (migrate_rule(l, BUS, &it) != 0)
		fail_msg("not translated: %s", it.error);
	d = str(it.rule, "description");
	assert_non_null(d);
	assert_memory_equal(d, "[was simulate] \xc3\xa9", 17);
	for (; *d != '\0'; d++)
		if (((unsigned char)*d & 0xc0) != 0x80)
			chars++;
	assert_int_equal(chars, 500);
	assert_warned(&it, "description cut to 500 characters");
	migrate_item_free(&it);
	cJSON_Delete(l);
	free(desc);
}

/*
 * The report goes to a terminal: a rule id the server sends is shown only
 * when it is an identifier, never its escape sequences.
 */
static void
test_apply_server_id(void **state)
{
	struct migrate_item	*items;
	struct migrate_apply	*a;
	struct migrate_call	 c;
	cJSON			*list, *rs, *r;
	char			*report;
	size_t			 n;

	(void)state;
	list = legacy("[{'id':'aa','match':{'request':{'url':'*/a'}},"
	    "'threshold':1,'period':10,'action':{'mode':'challenge'}},"
	    "{'id':'bb','match':{'request':{'url':'*/b'}},"
	    "'threshold':1,'period':10,'action':{'mode':'challenge'}}]");
	items = migrate_rules(list, BUS, &n);
	a = migrate_apply_new(items, n, BUS, ZONE, 0);
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	rs = ruleset("{'id':'x','ref':'legacy-aa'}");
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(rs, "rules"), 0);
	cJSON_ReplaceItemInObject(r, "id",
	    cJSON_CreateString("\x1b]0;title\x07\x1b[2J"));
	migrate_apply_answer(a, 200, rs, NULL);
	expect_call(a, "POST", "/zones/" ZONE "/rulesets/" EP "/rules", &c);
	migrate_call_clear(&c);
	cJSON_AddItemToArray(cJSON_GetObjectItem(rs, "rules"),
	    legacy("{'id':'a\\u001b[31m','ref':'legacy-bb'}"));
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_null(strchr(report, '\x1b'));
	assert_null(strchr(report, '\x07'));
	assert_non_null(strstr(report, "  legacy aa: skipped: already in the "
	    "entry point (rule ?)"));
	assert_non_null(strstr(report, "  legacy bb: applied (rule ?)"));
	free(report);
	migrate_apply_free(a);
	migrate_items_free(items, n);
	cJSON_Delete(list);
}

/*
 * The entry point made by someone else between the GET and the POST that
 * would create it: the 409 is no failure; it is read again, what is in it
 * is skipped, and the rest is added to it.
 */
static void
test_apply_made_meanwhile(void **state)
{
	struct migrate_item	*items;
	struct migrate_apply	*a;
	struct migrate_call	 c;
	cJSON			*list, *rs;
	char			*report;
	size_t			 n;

	(void)state;
	list = legacy("[{'id':'aa','match':{'request':{'url':'*/a'}},"
	    "'threshold':1,'period':10,'action':{'mode':'challenge'}},"
	    "{'id':'bb','match':{'request':{'url':'*/b'}},"
	    "'threshold':1,'period':10,'action':{'mode':'challenge'}}]");
	items = migrate_rules(list, BUS, &n);
	a = migrate_apply_new(items, n, BUS, ZONE, 0);
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 404, NULL, "HTTP 404");
	expect_call(a, "POST", "/zones/" ZONE "/rulesets", &c);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 409, NULL, "HTTP 409: the zone already has "
	    "an entry point");
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	rs = ruleset("{'id':'1','ref':'legacy-aa'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	expect_call(a, "POST", "/zones/" ZONE "/rulesets/" EP "/rules", &c);
	assert_string_equal(str(c.body, "ref"), "legacy-bb");
	migrate_call_clear(&c);
	rs = ruleset("{'id':'1','ref':'legacy-aa'},{'id':'2','ref':"
	    "'legacy-bb'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_non_null(strstr(report, "  legacy aa: skipped: already in the "
	    "entry point (rule 1)"));
	assert_non_null(strstr(report, "  legacy bb: applied (rule 2)"));
	assert_false(migrate_apply_failed(a));
	free(report);
	migrate_apply_free(a);
	migrate_items_free(items, n);
	cJSON_Delete(list);
}

static void
test_apply(void **state)
{
	struct migrate_item	*items;
	struct migrate_apply	*a;
	struct migrate_call	 c;
	cJSON			*list, *rs;
	char			*report;
	size_t			 n;

	(void)state;
	list = legacy("[{'id':'aa','match':{'request':{'url':'*/a'}},"
	    "'threshold':1,'period':10,'action':{'mode':'challenge'}},"
	    "{'id':'bb','disabled':true,'match':{'request':{'url':'*/b'}},"
	    "'threshold':1,'period':10,'action':{'mode':'challenge'}},"
	    "{'id':'cc','match':{'request':{'url':'*/c'}},'threshold':1,"
	    "'period':10,'action':{'mode':'challenge'}},"
	    "{'id':'dd','match':{'request':{}}}]");
	items = migrate_rules(list, BUS, &n);
	a = migrate_apply_new(items, n, BUS, ZONE, 1);

	/* No entry point: it is created with the first rule. */
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 404, NULL, "HTTP 404");
	expect_call(a, "POST", "/zones/" ZONE "/rulesets", &c);
	assert_string_equal(str(c.body, "kind"), "zone");
	assert_string_equal(str(c.body, "phase"), "http_ratelimit");
	assert_string_equal(str(cJSON_GetArrayItem(cJSON_GetObjectItem(c.body,
	    "rules"), 0), "ref"), "legacy-aa");
	migrate_call_clear(&c);
	rs = ruleset("{'id':'11111111111111111111111111111111','ref':"
	    "'legacy-aa'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	/* Then one POST each into it. */
	expect_call(a, "POST", "/zones/" ZONE "/rulesets/" EP "/rules", &c);
	assert_string_equal(str(c.body, "ref"), "legacy-bb");
	migrate_call_clear(&c);
	rs = ruleset("{'id':'2','ref':'legacy-aa'},{'id':'22','ref':"
	    "'legacy-bb'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	expect_call(a, "POST", "/zones/" ZONE "/rulesets/" EP "/rules", &c);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 400, NULL, "HTTP 400: refused");
	/* The failure stops it: no legacy rule is disabled. */
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_non_null(strstr(report, "entry point " EP " (created)\n"));
	/* The entry point it names is not denied on the next line. */
	assert_null(strstr(report, "no entry point"));
	assert_non_null(strstr(report, "  legacy aa: applied (rule "
	    "11111111111111111111111111111111); legacy rule still enabled\n"));
	assert_non_null(strstr(report, "  legacy bb: applied (rule 22); "
	    "legacy rule disabled (as it was)\n"));
	assert_non_null(strstr(report, "  legacy cc: failed: HTTP 400: "
	    "refused; legacy rule still enabled\n"));
	assert_non_null(strstr(report, "  legacy dd: not translated ("
	    "match.request.url is missing)"));
	assert_non_null(strstr(report, "2 applied, 0 skipped (already there), "
	    "1 failed, 0 not tried, 1 not translated"));
	assert_true(migrate_apply_failed(a));
	free(report);
	migrate_apply_free(a);

	/* Again: aa and bb are there; cc is added; then aa is disabled. */
	a = migrate_apply_new(items, n, BUS, ZONE, 1);
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	rs = ruleset("{'id':'2','ref':'legacy-aa'},{'id':'22','ref':"
	    "'legacy-bb'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	expect_call(a, "POST", "/zones/" ZONE "/rulesets/" EP "/rules", &c);
	assert_string_equal(str(c.body, "ref"), "legacy-cc");
	migrate_call_clear(&c);
	rs = ruleset("{'id':'33','ref':'legacy-cc'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	/*
	 * Each legacy rule is read again before its PUT, which replaces it
	 * whole: what sent is the server's copy with disabled set, so a
	 * change made since the list was read is kept.
	 */
	expect_call(a, "GET", "/zones/" ZONE "/rate_limits/aa", &c);
	migrate_call_clear(&c);
	rs = legacy("{'id':'aa','description':'changed meanwhile','match':"
	    "{'request':{'url':'*/a'}},'threshold':7,'period':10,'action':"
	    "{'mode':'challenge'}}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	expect_call(a, "PUT", "/zones/" ZONE "/rate_limits/aa", &c);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(c.body, "disabled")));
	assert_string_equal(str(c.body, "id"), "aa");
	assert_string_equal(str(c.body, "description"), "changed meanwhile");
	assert_int_equal(cJSON_GetObjectItem(c.body, "threshold")->valueint,
	    7);
	assert_non_null(c.before);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 200, NULL, NULL);
	/* bb was disabled already; cc was disabled meanwhile: no PUT. */
	expect_call(a, "GET", "/zones/" ZONE "/rate_limits/cc", &c);
	migrate_call_clear(&c);
	rs = legacy("{'id':'cc','disabled':true,'match':{'request':{'url':"
	    "'*/c'}},'threshold':1,'period':10,'action':{'mode':"
	    "'challenge'}}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_non_null(strstr(report, "  legacy aa: skipped: already in the "
	    "entry point (rule 2); legacy rule disabled\n"));
	assert_non_null(strstr(report, "  legacy bb: skipped: already in the "
	    "entry point (rule 22); legacy rule was already disabled\n"));
	assert_non_null(strstr(report, "  legacy cc: applied (rule 33); "
	    "legacy rule was already disabled\n"));
	free(report);
	migrate_apply_free(a);

	/* A legacy rule that cannot be disabled stops the rest. */
	a = migrate_apply_new(items, n, BUS, ZONE, 1);
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	rs = ruleset("{'id':'2','ref':'legacy-aa'},{'id':'22','ref':"
	    "'legacy-bb'},{'id':'33','ref':'legacy-cc'}");
	cJSON_AddStringToObject(rs, "source", "rate_limit");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	expect_call(a, "GET", "/zones/" ZONE "/rate_limits/aa", &c);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 410, NULL, "HTTP 410 Gone");
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_non_null(strstr(report, "  legacy aa: skipped: already in the "
	    "entry point (rule 2); disabling the legacy rule failed: HTTP 410 "
	    "Gone; it is still enabled\n"));
	assert_non_null(strstr(report, "  legacy cc: skipped: already in the "
	    "entry point (rule 33); legacy rule still enabled\n"));
	assert_non_null(strstr(report, "note: the service converted legacy "
	    "rules into this entry point"));
	assert_true(migrate_apply_failed(a));
	free(report);
	migrate_apply_free(a);

	/* A plan's quota: what does not fit is not sent. */
	a = migrate_apply_new(items, n, FREE, ZONE, 0);
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	rs = ruleset("{'id':'9','ref':'other'}");
	migrate_apply_answer(a, 200, rs, NULL);
	cJSON_Delete(rs);
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_non_null(strstr(report, "entry point " EP "\n"));
	assert_null(strstr(report, "no entry point"));
	assert_non_null(strstr(report, "  legacy aa: not applied: the entry "
	    "point would hold too many rules (the Free plan allows 1 rule); "
	    "legacy rule unchanged\n"));
	assert_true(migrate_apply_failed(a));
	free(report);
	migrate_apply_free(a);

	/* The entry point cannot be read: nothing is tried. */
	a = migrate_apply_new(items, n, BUS, ZONE, 1);
	expect_call(a, "GET", "/zones/" ZONE "/rulesets/phases/"
	    "http_ratelimit/entrypoint", &c);
	migrate_call_clear(&c);
	migrate_apply_answer(a, 0, NULL, "connection refused");
	assert_int_equal(migrate_apply_next(a, &c), 0);
	report = migrate_apply_report(a);
	assert_non_null(strstr(report, "reading the entry point failed: "
	    "connection refused: nothing was changed\n"));
	assert_non_null(strstr(report, "  legacy aa: not tried (reading the "
	    "entry point failed: connection refused)"));
	free(report);
	migrate_apply_free(a);

	migrate_items_free(items, n);
	cJSON_Delete(list);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_methods),
		cmocka_unit_test(test_schemes),
		cmocka_unit_test(test_bypass),
		cmocka_unit_test(test_counting),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_action),
		cmocka_unit_test(test_response),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_every_plan),
		cmocka_unit_test(test_preview),
		cmocka_unit_test(test_preview_quota),
		cmocka_unit_test(test_long_description),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_made_meanwhile),
		cmocka_unit_test(test_apply_server_id),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
