/*
 * Unit tests for form_model.c: the items a kind's form has and their order,
 * texts parsed and checked as they are typed, cross-field rules placed on
 * their items, and bodies built from records without losing what the form
 * does not know.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "common.h"
#include "form_model.h"
#include "kind.h"
#include "validate.h"
#include "xmalloc.h"

/* A rate limit as GET returns it (edgemu's demo data). */
static const char demo_rate_limit[] =
	"{\"id\":\"d1ac3d980b423811a81f5de92dad72c5\",\"disabled\":false,"
	"\"description\":\"Protect the login form\","
	"\"match\":{\"request\":{\"methods\":[\"POST\"],\"schemes\":"
	"[\"HTTPS\"],\"url\":\"www.example.com/login*\"},\"response\":"
	"{\"origin_traffic\":false},\"headers\":[{\"name\":\"Cf-Cache-Status\","
	"\"op\":\"ne\",\"value\":\"HIT\"}]},\"bypass\":[],\"threshold\":5,"
	"\"period\":60,\"action\":{\"mode\":\"ban\",\"timeout\":900,"
	"\"response\":{\"content_type\":\"application/json\",\"body\":"
	"\"{}\"}},\"x_unknown\":{\"a\":1}}";

/* ---- helpers ------------------------------------------------------------ */

static cJSON *
parse(const char *json)
{
	cJSON	*j = cJSON_Parse(json);

	if (j == NULL)
		fail_msg("bad test JSON: %s", json);
	return (j);
}

static struct form_item *
item(struct form *form, const char *path)
{
	int	i = form_find(form, path);

	if (i == -1)
		fail_msg("no item %s", path);
	return (&form->items[i]);
}

static void
set(struct form *form, const char *path, const char *text)
{
	item(form, path);
	form_set(form, (size_t)form_find(form, path), text);
}

static void
cycle(struct form *form, const char *path, int dir)
{
	item(form, path);
	form_cycle(form, (size_t)form_find(form, path), dir);
}

/* The member at path of body, printed compact ("" when absent). */
static char *
member(const cJSON *body, const char *path)
{
	const cJSON	*v = kind_json_get(body, path);
	char		*s, *copy;

	if (v == NULL)
		return (xstrdup(""));
	s = cJSON_PrintUnformatted(v);
	copy = xstrdup(s);
	cJSON_free(s);
	return (copy);
}

static void
assert_member(const cJSON *body, const char *path, const char *want)
{
	char	*got = member(body, path);

	assert_string_equal(got, want);
	free(got);
}

static cJSON *
result_ok(struct form *form)
{
	cJSON	*body;
	char	*cause = NULL;

	if ((body = form_result(form, &cause)) == NULL)
		fail_msg("form_result: %s", cause);
	return (body);
}

/* form_result refuses; returns the summary. */
static char *
result_refused(struct form *form)
{
	cJSON	*body;
	char	*cause = NULL;

	body = form_result(form, &cause);
	assert_null(body);
	assert_non_null(cause);
	return (cause);
}

static void
fill_rate_limit(struct form *form)
{
	set(form, "description", "Login form");
	set(form, "match.request.methods", "POST, PUT");
	set(form, "match.request.schemes", "HTTPS");
	set(form, "match.request.url", "example.com/login*");
	set(form, "threshold", "5");
	set(form, "period", "60");
	set(form, "action.mode", "ban");
	set(form, "action.timeout", "600");
}

/* ---- items -------------------------------------------------------------- */

static void
test_rate_limit_items(void **state)
{
	static const struct {
		const char	*path;
		int		 depth;
		enum form_input	 input;
	} want[] = {
		{ "description", 0, FORM_TEXT },
		{ "disabled", 0, FORM_TOGGLE },
		{ "match.request.methods", 2, FORM_LIST },
		{ "match.request.schemes", 2, FORM_LIST },
		{ "match.request.url", 2, FORM_TEXT },
		{ "match.response.origin_traffic", 2, FORM_TOGGLE },
		{ "match.headers", 1, FORM_JSON },
		{ "bypass", 0, FORM_JSON },
		{ "threshold", 0, FORM_NUMBER },
		{ "period", 0, FORM_NUMBER },
		{ "action.mode", 1, FORM_ENUM },
		{ "action.timeout", 1, FORM_NUMBER },
		{ "action.response.content_type", 2, FORM_ENUM },
		{ "action.response.body", 2, FORM_TEXT },
	};
	struct form	*form = form_new(&kind_rate_limits, NULL);
	size_t		 i;

	(void)state;
	assert_int_equal(form->mode, VALIDATE_CREATE);
	assert_int_equal(form->nitems, nitems(want));
	for (i = 0; i < nitems(want); i++) {
		assert_string_equal(form->items[i].path, want[i].path);
		assert_int_equal(form->items[i].depth, want[i].depth);
		assert_int_equal(form->items[i].input, want[i].input);
		assert_string_equal(form->items[i].text, "");
		assert_null(form->items[i].error);
		assert_false(form->items[i].changed);
	}
	assert_int_equal(form_find(form, "id"), -1);
	assert_int_equal(form_find(form, "bypass[].name"), -1);
	assert_int_equal(form_find(form, "match"), -1);
	assert_null(form->error);
	assert_false(form_changed(form));
	form_free(form);
}

/* ---- checks as typed ---------------------------------------------------- */

static void
test_bad_number(void **state)
{
	struct form	*form = form_new(&kind_rate_limits, NULL);
	char		*cause;

	(void)state;
	fill_rate_limit(form);
	set(form, "threshold", "abc");
	assert_string_equal(item(form, "threshold")->error,
	    "threshold: 'abc' is not a number");
	set(form, "period", "5");
	assert_string_equal(item(form, "period")->error,
	    "period: 5 is out of range (10 to 86400)");
	set(form, "period", "0x20");
	assert_string_equal(item(form, "period")->error,
	    "period: '0x20' is not a number");
	set(form, "period", "60");
	assert_null(item(form, "period")->error);
	/* Other items keep quiet. */
	assert_null(item(form, "description")->error);

	cause = result_refused(form);
	assert_string_equal(cause, "1 field needs attention: threshold: "
	    "'abc' is not a number");
	free(cause);
	assert_string_equal(item(form, "threshold")->error,
	    "threshold: 'abc' is not a number");

	set(form, "threshold", " 7 ");
	assert_null(item(form, "threshold")->error);
	cJSON_Delete(result_ok(form));
	form_free(form);
}

static void
test_required_shown_on_result(void **state)
{
	struct form	*form = form_new(&kind_rate_limits, NULL);
	char		*cause;

	(void)state;
	set(form, "threshold", "5");
	/* An untouched empty field is not flagged while typing... */
	assert_null(item(form, "match.request.url")->error);
	assert_true(form_required(form,
	    (size_t)form_find(form, "match.request.url")));
	assert_false(form_required(form,
	    (size_t)form_find(form, "action.timeout")));
	/* ...but is on submit. */
	cause = result_refused(form);
	assert_non_null(strstr(cause, "fields need attention"));
	free(cause);
	assert_string_equal(item(form, "match.request.url")->error,
	    "match.request.url: required");
	assert_string_equal(item(form, "period")->error, "period: required");
	assert_string_equal(item(form, "action.mode")->error,
	    "action.mode: required");
	/* Members of an optional object that is not there are not needed. */
	assert_null(item(form, "action.response.content_type")->error);
	assert_null(item(form, "description")->error);
	/* Fixing an item clears its error at once. */
	set(form, "period", "60");
	assert_null(item(form, "period")->error);
	form_free(form);
}

/* ---- bodies ------------------------------------------------------------- */

static void
test_valid_rate_limit(void **state)
{
	struct form		*form = form_new(&kind_rate_limits, NULL);
	struct validate_error	*errs;
	size_t			 n, i;
	cJSON			*body, *want;
	char			*text;

	(void)state;
	fill_rate_limit(form);
	set(form, "bypass", "[{\"name\":\"url\",\"value\":\"example.com/x\"}]");
	set(form, "disabled", "no");
	for (i = 0; i < form->nitems; i++)
		assert_null(form->items[i].error);
	body = result_ok(form);
	want = parse("{\"description\":\"Login form\",\"disabled\":false,"
	    "\"match\":{\"request\":{\"methods\":[\"POST\",\"PUT\"],"
	    "\"schemes\":[\"HTTPS\"],\"url\":\"example.com/login*\"}},"
	    "\"bypass\":[{\"name\":\"url\",\"value\":\"example.com/x\"}],"
	    "\"threshold\":5,\"period\":60,"
	    "\"action\":{\"mode\":\"ban\",\"timeout\":600}}");
	assert_true(cJSON_Compare(body, want, 1));
	/* Members come in the items' order whatever order they were typed. */
	text = cJSON_PrintUnformatted(body);
	assert_string_equal(text, "{\"description\":\"Login form\","
	    "\"disabled\":false,\"match\":{\"request\":{\"methods\":"
	    "[\"POST\",\"PUT\"],\"schemes\":[\"HTTPS\"],\"url\":"
	    "\"example.com/login*\"}},\"bypass\":[{\"name\":\"url\","
	    "\"value\":\"example.com/x\"}],\"threshold\":5,\"period\":60,"
	    "\"action\":{\"mode\":\"ban\",\"timeout\":600}}");
	cJSON_free(text);
	assert_int_equal(validate_record(&kind_rate_limits, body,
	    VALIDATE_CREATE, &errs, &n), 0);
	assert_null(form->error);
	cJSON_Delete(want);
	cJSON_Delete(body);
	form_free(form);
}

static void
test_timeout_below_period(void **state)
{
	struct form	*form = form_new(&kind_rate_limits, NULL);
	char		*cause;

	(void)state;
	fill_rate_limit(form);
	set(form, "action.timeout", "30");
	cause = result_refused(form);
	assert_string_equal(cause, "1 field needs attention: "
	    "action.timeout: 30 is less than the period (60)");
	free(cause);
	assert_string_equal(item(form, "action.timeout")->error,
	    "action.timeout: 30 is less than the period (60)");
	assert_null(item(form, "period")->error);
	assert_null(form->error);

	/* Seen while typing once the item has been touched. */
	set(form, "period", "20");
	assert_null(item(form, "action.timeout")->error);
	set(form, "period", "120");
	assert_string_equal(item(form, "action.timeout")->error,
	    "action.timeout: 30 is less than the period (120)");

	/* A challenge takes no timeout, and no response. */
	set(form, "action.mode", "challenge");
	assert_string_equal(item(form, "action.timeout")->error,
	    "action.timeout: must be left out when action.mode is "
	    "challenge (the zone's Challenge Passage time applies)");
	set(form, "action.response.content_type", "text/plain");
	set(form, "action.response.body", "slow down");
	set(form, "action.timeout", "");
	cause = result_refused(form);
	free(cause);
	assert_null(item(form, "action.timeout")->error);
	assert_non_null(form->error);
	assert_string_equal(form->error, "action.response: must be left out "
	    "when action.mode is challenge (the zone's challenge page is "
	    "served)");
	set(form, "action.response.content_type", "");
	set(form, "action.response.body", "");
	cJSON_Delete(result_ok(form));
	assert_null(form->error);
	form_free(form);
}

static void
test_edit_keeps_unknown(void **state)
{
	cJSON		*record = parse(demo_rate_limit), *body;
	struct form	*form = form_new(&kind_rate_limits, record);

	(void)state;
	assert_int_equal(form->mode, VALIDATE_UPDATE);
	assert_string_equal(item(form, "description")->text,
	    "Protect the login form");
	assert_string_equal(item(form, "disabled")->text, "no");
	assert_string_equal(item(form, "match.request.methods")->text, "POST");
	assert_string_equal(item(form, "match.headers")->text,
	    "[{\"name\":\"Cf-Cache-Status\",\"op\":\"ne\",\"value\":\"HIT\"}]");
	assert_string_equal(item(form, "bypass")->text, "[]");
	assert_string_equal(item(form, "threshold")->text, "5");
	assert_string_equal(item(form, "action.mode")->text, "ban");
	assert_string_equal(item(form, "action.response.body")->text, "{}");

	/* Untouched, the body is the record. */
	body = result_ok(form);
	assert_true(cJSON_Compare(body, record, 1));
	cJSON_Delete(body);

	set(form, "description", "");
	set(form, "threshold", "10");
	set(form, "match.response.origin_traffic", "");
	set(form, "action.response.content_type", "");
	set(form, "action.response.body", "");
	body = result_ok(form);
	assert_member(body, "x_unknown", "{\"a\":1}");
	assert_member(body, "id", "\"d1ac3d980b423811a81f5de92dad72c5\"");
	assert_member(body, "description", "");
	assert_member(body, "threshold", "10");
	/* Objects left empty go too. */
	assert_member(body, "match.response", "");
	assert_member(body, "action", "{\"mode\":\"ban\",\"timeout\":900}");
	assert_member(body, "match.headers",
	    "[{\"name\":\"Cf-Cache-Status\",\"op\":\"ne\",\"value\":\"HIT\"}]");
	assert_member(body, "match.request.url", "\"www.example.com/login*\"");
	cJSON_Delete(body);

	/* Required on an update by PUT. */
	set(form, "period", "");
	assert_string_equal(item(form, "period")->error, "period: required");
	form_free(form);
	cJSON_Delete(record);
}

static void
test_changed(void **state)
{
	cJSON		*record = parse(demo_rate_limit);
	struct form	*form = form_new(&kind_rate_limits, record);
	size_t		 i = (size_t)form_find(form, "description");

	(void)state;
	assert_false(form_changed(form));
	form_set(form, i, "Protect the login form");
	assert_false(form_changed(form));
	assert_false(form->items[i].changed);
	form_set(form, i, "Something else");
	assert_true(form_changed(form));
	assert_true(form->items[i].changed);
	form_set(form, i, "Protect the login form");
	assert_false(form_changed(form));
	cycle(form, "disabled", 1);
	assert_true(form_changed(form));
	form_free(form);
	cJSON_Delete(record);
}

/* ---- cycling ------------------------------------------------------------ */

static void
test_enum_cycle(void **state)
{
	struct form	*form = form_new(&kind_rate_limits, NULL);
	const char	*path = "action.response.content_type";

	(void)state;
	/* Optional here (its object may be left out): unset is a stop. */
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "text/plain");
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "text/xml");
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "application/json");
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "");
	cycle(form, path, -1);
	assert_string_equal(item(form, path)->text, "application/json");
	cycle(form, path, 1);
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "text/plain");

	/* Always required: no unset, wraps from last to first. */
	path = "action.mode";
	cycle(form, path, -1);
	assert_string_equal(item(form, path)->text, "managed_challenge");
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "simulate");
	cycle(form, path, -1);
	assert_string_equal(item(form, path)->text, "managed_challenge");
	set(form, path, "nonsense");
	assert_string_equal(item(form, path)->error, "action.mode: "
	    "'nonsense' is not one of simulate, ban, challenge, js_challenge, "
	    "managed_challenge");
	cycle(form, path, 1);
	assert_string_equal(item(form, path)->text, "simulate");
	assert_null(item(form, path)->error);

	/* Not an enum: nothing happens. */
	cycle(form, "threshold", 1);
	assert_string_equal(item(form, "threshold")->text, "");
	form_free(form);
}

static void
test_toggle(void **state)
{
	struct form	*form = form_new(&kind_rate_limits, NULL);
	cJSON		*body;

	(void)state;
	cycle(form, "disabled", 1);
	assert_string_equal(item(form, "disabled")->text, "yes");
	cycle(form, "disabled", 1);
	assert_string_equal(item(form, "disabled")->text, "no");
	cycle(form, "disabled", 1);
	assert_string_equal(item(form, "disabled")->text, "");
	cycle(form, "disabled", -1);
	assert_string_equal(item(form, "disabled")->text, "no");

	set(form, "disabled", "maybe");
	assert_string_equal(item(form, "disabled")->error,
	    "disabled: 'maybe' is not yes or no");
	set(form, "disabled", "TRUE");
	assert_null(item(form, "disabled")->error);
	cycle(form, "disabled", 1);
	assert_string_equal(item(form, "disabled")->text, "no");
	set(form, "disabled", "yes");
	fill_rate_limit(form);
	body = result_ok(form);
	assert_member(body, "disabled", "true");
	cJSON_Delete(body);
	form_free(form);
}

/* ---- lists and maps ----------------------------------------------------- */

/*
 * form_text_of then form_set gives back the same JSON (want: what the
 * body then holds at path, when more than json).
 */
static void
round_trip(struct form *form, const char *path, const char *json,
    const char *text, const char *want)
{
	struct form_item	*it = item(form, path);
	cJSON			*v = parse(json), *body;
	char			*shown = form_text_of(it->input, v);

	assert_string_equal(shown, text);
	set(form, path, shown);
	assert_null(item(form, path)->error);
	body = result_ok(form);
	assert_member(body, path, want != NULL ? want : json);
	cJSON_Delete(body);
	cJSON_Delete(v);
	free(shown);
}

static void
test_list_and_map(void **state)
{
	cJSON		*record, *body;
	struct form	*form;

	(void)state;
	record = parse("{\"uid\":\"accf88de1d8215f2c83d3fe35fe96958\","
	    "\"meta\":{\"name\":\"Clip\",\"team\":\"a\"},\"creator\":\"c\"}");
	form = form_new(&kind_videos, record);
	assert_int_equal(item(form, "allowedOrigins")->input, FORM_LIST);
	assert_int_equal(item(form, "meta")->input, FORM_MAP);
	assert_int_equal(item(form, "meta.name")->depth, 1);
	/* meta.name has its own item; the map shows the other keys. */
	assert_string_equal(item(form, "meta")->text, "team=a");
	assert_string_equal(item(form, "meta.name")->text, "Clip");

	set(form, "allowedOrigins", " a.example.com ,*.b.example.com,, ");
	body = result_ok(form);
	assert_member(body, "allowedOrigins",
	    "[\"a.example.com\",\"*.b.example.com\"]");
	cJSON_Delete(body);
	set(form, "allowedOrigins", "https://x.example.com");
	assert_non_null(strstr(item(form, "allowedOrigins")->error,
	    "without a scheme"));
	round_trip(form, "allowedOrigins",
	    "[\"a.example.com\",\"b.example.com\"]",
	    "a.example.com, b.example.com", NULL);
	round_trip(form, "allowedOrigins", "[]", "[]", NULL);
	round_trip(form, "allowedOrigins", "[\"a,b\",\"c\"]",
	    "[\"a,b\",\"c\"]", NULL);

	round_trip(form, "meta", "{\"team\":\"b\",\"env\":\"prod\",\"e\":\"\"}",
	    "team=b, env=prod, e=",
	    "{\"team\":\"b\",\"env\":\"prod\",\"e\":\"\",\"name\":\"Clip\"}");
	round_trip(form, "meta", "{\"list\":\"x, y\"}", "{\"list\":\"x, y\"}",
	    "{\"list\":\"x, y\",\"name\":\"Clip\"}");
	set(form, "meta", "team=b, env=prod");
	set(form, "meta.name", "New name");
	body = result_ok(form);
	assert_member(body, "meta",
	    "{\"team\":\"b\",\"env\":\"prod\",\"name\":\"New name\"}");
	cJSON_Delete(body);

	set(form, "meta", "name=x");
	assert_string_equal(item(form, "meta")->error,
	    "meta: meta.name is a field of its own");
	set(form, "meta", "team");
	assert_string_equal(item(form, "meta")->error,
	    "meta: 'team' is not key=value");
	set(form, "meta", "a=1, a=2");
	assert_string_equal(item(form, "meta")->error,
	    "meta: key 'a' is given twice");
	/* Emptied, the other keys go; meta.name stays. */
	set(form, "meta", "");
	set(form, "meta.name", "");
	set(form, "meta.name", "Clip");
	body = result_ok(form);
	assert_member(body, "meta", "{\"name\":\"Clip\"}");
	assert_member(body, "creator", "\"c\"");
	cJSON_Delete(body);
	form_free(form);
	cJSON_Delete(record);

	/* A map with other than strings is edited as JSON. */
	record = parse("{\"meta\":{\"name\":\"Clip\",\"n\":1,\"t\":\"x\"}}");
	form = form_new(&kind_videos, record);
	assert_int_equal(item(form, "meta")->input, FORM_JSON);
	assert_string_equal(item(form, "meta")->text, "{\"n\":1,\"t\":\"x\"}");
	set(form, "meta", "{\"n\":2}");
	body = result_ok(form);
	assert_member(body, "meta", "{\"n\":2,\"name\":\"Clip\"}");
	cJSON_Delete(body);
	form_free(form);
	cJSON_Delete(record);
}

static void
test_text_of(void **state)
{
	static const struct {
		enum form_input	 in;
		const char	*json;
		const char	*text;
	} cases[] = {
		{ FORM_NUMBER, "10", "10" },
		{ FORM_NUMBER, "0.5", "0.5" },
		{ FORM_TOGGLE, "true", "yes" },
		{ FORM_TOGGLE, "false", "no" },
		{ FORM_TOGGLE, "null", "" },
		{ FORM_ENUM, "\"ban\"", "ban" },
		{ FORM_LIST, "[\"a\",\"b\",\"c\"]", "a, b, c" },
		{ FORM_LIST, "[\" a\"]", "[\" a\"]" },
		{ FORM_LIST, "[1]", "[1]" },
		{ FORM_MAP, "{\"k\":\"v\",\"k2\":\"v2\"}", "k=v, k2=v2" },
		{ FORM_MAP, "{\"a=b\":\"v\"}", "{\"a=b\":\"v\"}" },
		{ FORM_JSON, "[{\"a\":[1,2]}]", "[{\"a\":[1,2]}]" },
		{ FORM_TEXT, "7", "7" },
	};
	cJSON	*v;
	char	*text;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		v = parse(cases[i].json);
		text = form_text_of(cases[i].in, v);
		assert_string_equal(text, cases[i].text);
		free(text);
		cJSON_Delete(v);
	}
	text = form_text_of(FORM_TEXT, NULL);
	assert_string_equal(text, "");
	free(text);
}

/* ---- objects as JSON ---------------------------------------------------- */

static void
test_objects_as_json(void **state)
{
	struct form	*form = form_new(&kind_rate_limits, NULL);
	const char	*bypass =
	    "[{\"name\":\"url\",\"value\":\"a.com/x\"}]";
	cJSON		*body;
	char		*cause;

	(void)state;
	fill_rate_limit(form);
	set(form, "bypass", "[{\"name\":\"url\",");
	assert_string_equal(item(form, "bypass")->error,
	    "bypass: JSON syntax error: the text ends too soon");
	set(form, "bypass", "[{\"name\":\"url\" \"value\":\"a\"}]");
	assert_string_equal(item(form, "bypass")->error,
	    "bypass: JSON syntax error at byte 16, near '\"value\":\"a\"}]'");
	cause = result_refused(form);
	assert_non_null(strstr(cause, "bypass: JSON syntax error"));
	free(cause);

	/* The items' members are checked too. */
	set(form, "bypass", "[{\"name\":\"url\"}]");
	assert_string_equal(item(form, "bypass")->error,
	    "bypass[0].value: required");
	set(form, "bypass", "[{\"name\":\"uri\",\"value\":\"a\"}]");
	assert_string_equal(item(form, "bypass")->error,
	    "bypass[0].name: 'uri' is not one of url");
	set(form, "bypass", "{}");
	assert_string_equal(item(form, "bypass")->error,
	    "bypass: must be an array, not an object");

	set(form, "bypass", bypass);
	assert_null(item(form, "bypass")->error);
	body = result_ok(form);
	assert_member(body, "bypass", bypass);
	cJSON_Delete(body);
	form_free(form);
}

static void
test_api_config_limit(void **state)
{
	cJSON		*record, *body;
	struct form	*form;
	struct buf	 b = BUF_INITIALIZER;
	int		 i;

	(void)state;
	record = parse("{\"auth_id_characteristics\":[{\"type\":\"header\","
	    "\"name\":\"authorization\"}]}");
	form = form_new(&kind_api_config, record);
	assert_int_equal(form->nitems, 1);
	assert_int_equal(item(form, "auth_id_characteristics")->input,
	    FORM_JSON);

	buf_adds(&b, "[");
	for (i = 0; i < 11; i++)
		buf_addf(&b, "%s{\"type\":\"cookie\",\"name\":\"c%d\"}",
		    i == 0 ? "" : ",", i);
	buf_adds(&b, "]");
	set(form, "auth_id_characteristics", buf_str(&b));
	assert_string_equal(item(form, "auth_id_characteristics")->error,
	    "auth_id_characteristics: at most 10 items, not 11");

	buf_reset(&b);
	buf_adds(&b, "[");
	for (i = 0; i < 10; i++)
		buf_addf(&b, "%s{\"type\":\"cookie\",\"name\":\"c%d\"}",
		    i == 0 ? "" : ",", i);
	buf_adds(&b, "]");
	set(form, "auth_id_characteristics", buf_str(&b));
	assert_null(item(form, "auth_id_characteristics")->error);
	body = result_ok(form);
	assert_int_equal(cJSON_GetArraySize(kind_json_get(body,
	    "auth_id_characteristics")), 10);
	cJSON_Delete(body);

	/* The kind's own rule: the same item twice. */
	set(form, "auth_id_characteristics", "[{\"type\":\"cookie\","
	    "\"name\":\"s\"},{\"type\":\"cookie\",\"name\":\"s\"}]");
	assert_string_equal(item(form, "auth_id_characteristics")->error,
	    "auth_id_characteristics[1]: repeats item 0");
	/* Required: the update is a PUT. */
	set(form, "auth_id_characteristics", "");
	assert_string_equal(item(form, "auth_id_characteristics")->error,
	    "auth_id_characteristics: required");
	buf_free(&b);
	form_free(form);
	cJSON_Delete(record);
}

/* ---- which fields ------------------------------------------------------- */

static void
assert_paths(struct form *form, const char *const *want, size_t n)
{
	size_t	i;

	assert_int_equal(form->nitems, n);
	for (i = 0; i < n; i++)
		assert_string_equal(form->items[i].path, want[i]);
}

static void
test_left_out(void **state)
{
	static const char *const videos[] = {
		"meta", "meta.name", "creator", "allowedOrigins",
		"requireSignedURLs", "maxDurationSeconds",
		"thumbnailTimestampPct", "scheduledDeletion", "uploadExpiry"
	};
	static const char *const audio_new[] = { "label", "url" };
	static const char *const audio_edit[] = { "label", "default" };
	static const char *const schema_edit[] = {
		"kind", "name", "validation_enabled"
	};
	cJSON		*record, *body;
	struct form	*form;

	(void)state;
	/* A video: read-only fields (uid, status.*, playback...) are out. */
	record = parse("{\"uid\":\"accf88de1d8215f2c83d3fe35fe96958\","
	    "\"created\":\"2026-03-01T08:07:26Z\",\"status\":{\"state\":"
	    "\"ready\"},\"meta\":{\"name\":\"Clip\"},\"requireSignedURLs\":"
	    "false,\"thumbnailTimestampPct\":0.5}");
	form = form_new(&kind_videos, record);
	assert_paths(form, videos, nitems(videos));
	assert_string_equal(item(form, "thumbnailTimestampPct")->text, "0.5");
	assert_string_equal(item(form, "requireSignedURLs")->text, "no");
	/* Updates by POST: nothing is required. */
	set(form, "meta.name", "");
	body = result_ok(form);
	assert_member(body, "meta", "");
	assert_member(body, "status", "{\"state\":\"ready\"}");
	cJSON_Delete(body);
	form_free(form);
	cJSON_Delete(record);

	/* Create-only fields are there for a new record, not an edit. */
	form = form_new(&kind_audio_tracks, NULL);
	assert_paths(form, audio_new, nitems(audio_new));
	form_free(form);
	record = parse("{\"uid\":\"accf88de1d8215f2c83d3fe35fe96958\","
	    "\"label\":\"Director's cut\"}");
	form = form_new(&kind_audio_tracks, record);
	assert_paths(form, audio_edit, nitems(audio_edit));
	form_free(form);
	cJSON_Delete(record);

	/* Files are asked for apart, new or not. */
	form = form_new(&kind_user_schemas, NULL);
	assert_paths(form, schema_edit, nitems(schema_edit));
	form_free(form);
	form = form_new(&kind_watermarks, NULL);
	assert_int_equal(form_find(form, "file"), -1);
	set(form, "name", "Logo");
	set(form, "opacity", "0.5");
	/* The file's "required" is not the form's to report. */
	body = result_ok(form);
	assert_member(body, "opacity", "0.5");
	assert_member(body, "file", "");
	assert_null(form->error);
	cJSON_Delete(body);
	form_free(form);
}

/*
 * A video as the server sends it, maxDurationSeconds -1 (not a value the
 * local range takes): an edit of another field is taken and leaves the
 * -1 as it was; a change to it is checked.
 */
static void
test_server_values(void **state)
{
	cJSON		*record, *body;
	struct form	*form;
	char		*cause;

	(void)state;
	record = parse("{\"uid\":\"9e0c67e0a2f4e37aa63d36321e7644b1\","
	    "\"meta\":{\"name\":\"Keynote\"},\"creator\":\"studio-7\","
	    "\"maxDurationSeconds\":-1,\"requireSignedURLs\":false}");
	form = form_new(&kind_videos, record);
	assert_false(form_changed(form));
	body = result_ok(form);
	cJSON_Delete(body);
	set(form, "creator", "studio-8");
	assert_null(item(form, "maxDurationSeconds")->error);
	body = result_ok(form);
	assert_member(body, "creator", "\"studio-8\"");
	assert_member(body, "maxDurationSeconds", "-1");
	cJSON_Delete(body);
	set(form, "maxDurationSeconds", "0");
	cause = result_refused(form);
	assert_non_null(strstr(cause, "maxDurationSeconds: 0 is out of range"));
	free(cause);
	/* Put back as it was: the server's again, not checked. */
	set(form, "maxDurationSeconds", "-1");
	body = result_ok(form);
	cJSON_Delete(body);
	form_free(form);
	cJSON_Delete(record);
}

/* Lists split on blanks or commas; enum values in the API's spelling. */
static void
test_list_separators(void **state)
{
	cJSON		*body;
	struct form	*form;
	char		*cause;

	(void)state;
	form = form_new(&kind_rate_limits, NULL);
	fill_rate_limit(form);
	set(form, "match.request.methods", "post  put,get");
	set(form, "match.request.schemes", "https http");
	assert_null(item(form, "match.request.schemes")->error);
	body = result_ok(form);
	assert_member(body, "match.request.methods",
	    "[\"POST\",\"PUT\",\"GET\"]");
	assert_member(body, "match.request.schemes", "[\"HTTPS\",\"HTTP\"]");
	cJSON_Delete(body);
	set(form, "match.request.schemes", "gopher");
	assert_non_null(item(form, "match.request.schemes")->error);
	/* An item with a blank in it is shown as JSON, which reads back. */
	body = parse("[\"a b\",\"c\"]");
	cause = form_text_of(FORM_LIST, body);
	assert_string_equal(cause, "[\"a b\",\"c\"]");
	free(cause);
	cJSON_Delete(body);
	form_free(form);
}

static void
test_enum_jump(void **state)
{
	struct form	*form;

	(void)state;
	form = form_new(&kind_rate_limits, NULL);
	assert_int_equal(form_jump(form, (size_t)form_find(form,
	    "action.mode"), 'B'), 1);
	assert_string_equal(item(form, "action.mode")->text, "ban");
	/* c: challenge, then the next value starting with c, and around. */
	form_jump(form, (size_t)form_find(form, "action.mode"), 'c');
	assert_string_equal(item(form, "action.mode")->text, "challenge");
	assert_int_equal(form_jump(form, (size_t)form_find(form,
	    "action.mode"), 'x'), 0);
	assert_string_equal(item(form, "action.mode")->text, "challenge");
	form_jump(form, (size_t)form_find(form, "action.mode"), 'm');
	assert_string_equal(item(form, "action.mode")->text,
	    "managed_challenge");
	form_jump(form, (size_t)form_find(form, "disabled"), 'y');
	assert_string_equal(item(form, "disabled")->text, "yes");
	form_jump(form, (size_t)form_find(form, "disabled"), 'N');
	assert_string_equal(item(form, "disabled")->text, "no");
	form_free(form);
}

/* "+2h" and the like: from now, as RFC 3339 UTC. */
static void
test_time_from_now(void **state)
{
	static const struct {
		const char	*typed;
		const char	*want;	/* from 2026-03-01T08:00:00Z */
	} cases[] = {
		{ "+15m", "2026-03-01T08:15:00Z" },
		{ "+2h", "2026-03-01T10:00:00Z" },
		{ "+30d", "2026-03-31T08:00:00Z" },
		{ "+1w", "2026-03-08T08:00:00Z" },
		{ "+366d", "2027-03-02T08:00:00Z" },
		{ "+2", NULL }, { "+h", NULL }, { "2h", NULL },
		{ "+2hh", NULL },
		{ "+-2h", NULL }, { "+99999999999d", NULL }, { "+2y", NULL }
	};
	cJSON		*record, *body;
	struct form	*form;
	char		*got;
	const cJSON	*v;
	int64_t		 when;
	time_t		 before, after;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		got = form_time_from_now(cases[i].typed, 1772352000);
		if (cases[i].want == NULL)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].want);
		free(got);
	}
	record = parse("{\"uid\":\"9e0c67e0a2f4e37aa63d36321e7644b1\"}");
	form = form_new(&kind_videos, record);
	set(form, "scheduledDeletion", "+2x");
	assert_non_null(strstr(item(form, "scheduledDeletion")->error,
	    "is not a time from now such as +15m"));
	before = time(NULL);
	set(form, "scheduledDeletion", "+30d");
	assert_null(item(form, "scheduledDeletion")->error);
	body = result_ok(form);
	after = time(NULL);
	v = cJSON_GetObjectItemCaseSensitive(body, "scheduledDeletion");
	assert_true(cJSON_IsString(v));
	assert_int_equal(kind_parse_time(v->valuestring, &when), 0);
	assert_true(when >= before + 30 * 86400 && when <= after + 30 * 86400);
	cJSON_Delete(body);
	/* Left, the field shows the date it stands for. */
	assert_int_equal(form_settle(form, (size_t)form_find(form,
	    "scheduledDeletion")), 1);
	assert_int_equal(kind_parse_time(item(form, "scheduledDeletion")->text,
	    &when), 0);
	assert_int_equal(form_settle(form, (size_t)form_find(form,
	    "scheduledDeletion")), 0);
	form_free(form);
	cJSON_Delete(record);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_limit_items),
		cmocka_unit_test(test_bad_number),
		cmocka_unit_test(test_required_shown_on_result),
		cmocka_unit_test(test_valid_rate_limit),
		cmocka_unit_test(test_timeout_below_period),
		cmocka_unit_test(test_edit_keeps_unknown),
		cmocka_unit_test(test_changed),
		cmocka_unit_test(test_enum_cycle),
		cmocka_unit_test(test_toggle),
		cmocka_unit_test(test_list_and_map),
		cmocka_unit_test(test_text_of),
		cmocka_unit_test(test_objects_as_json),
		cmocka_unit_test(test_api_config_limit),
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_server_values),
		cmocka_unit_test(test_list_separators),
		cmocka_unit_test(test_enum_jump),
		cmocka_unit_test(test_time_from_now),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
