/*
 * Unit tests for the Rules language's scheme as rows (expr_scheme.h): the
 * one checker of function calls (arity, types, field or literal, ranges,
 * letters, optional parameters), the phase and plan refusals of fields and
 * functions, the signatures the listing writes from the parameters, the
 * evaluator's guard, and the characteristics column as the one list the
 * rule checks, the rule form and the simulator read.
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

#include <cjson/cJSON.h>

#include "expr.h"
#include "expr_ast.h"
#include "expr_value.h"
#include "rlrule.h"
#include "simulate.h"

static const struct expr_options any_plan = { EXPR_PLAN_NONE, 0, 0 };
static const struct expr_options counting = { EXPR_PLAN_NONE, 1, 0 };
static const struct expr_options custom = { EXPR_PLAN_NONE, 0,
    EXPR_PHASE_CUSTOM };

static void
accepted(const char *text, const struct expr_options *o)
{
	struct expr_error	err;

	if (expr_check(text, o, &err) != 0)
		fail_msg("refused '%s': %d: %s", text, err.column, err.message);
}

/* Refused at col with exactly the message want. */
static void
refused(const char *text, const struct expr_options *o, int col,
    const char *want)
{
	struct expr_error	err;

	if (expr_check(text, o, &err) == 0)
		fail_msg("accepted '%s'", text);
	if (err.column != col || strcmp(err.message, want) != 0)
		fail_msg("'%s': got %d: %s; want %d: %s", text, err.column,
		    err.message, col, want);
}

/* ---- the checker -------------------------------------------------------- */

static void
test_arity(void **state)
{
	static const struct {
		enum expr_func	 fn;
		size_t		 min, max;
	} want[] = {
		{ EXPR_FN_LOWER, 1, 1 },
		{ EXPR_FN_STARTS_WITH, 2, 2 },
		{ EXPR_FN_CIDR, 3, 3 },
		{ EXPR_FN_SUBSTRING, 2, 3 },
		{ EXPR_FN_URL_DECODE, 1, 2 },
		{ EXPR_FN_CONCAT, 1, SIZE_MAX },
		{ EXPR_FN_LOOKUP_JSON_INTEGER, 2, SIZE_MAX },
		{ EXPR_FN_IS_TIMED_HMAC_VALID_V0, 4, 6 },
	};
	size_t	i, min, max;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		expr_func_arity(expr_func_info(want[i].fn), &min, &max);
		assert_int_equal(min, want[i].min);
		assert_true(max == want[i].max);
	}
	refused("upper(http.host, http.host) eq \"A\"", &any_plan, 1,
	    "upper() takes 1 argument, not 2");
	refused("cidr(ip.src, 24) eq 10.0.0.0", &any_plan, 1,
	    "cidr() takes 3 arguments, not 2");
	refused("url_decode(http.host, \"r\", \"u\") eq \"a\"", &any_plan, 1,
	    "url_decode() takes 1 to 2 arguments, not 3");
	refused("lookup_json_integer(http.request.body.raw) eq 1", &any_plan,
	    1, "lookup_json_integer() takes at least 2 arguments");
	refused("is_timed_hmac_valid_v0(\"k\", http.host, 1, 2, 3, \"s\", 4)",
	    &any_plan, 1, "is_timed_hmac_valid_v0() takes 4 to 6 arguments, "
	    "not 7");
	accepted("concat(http.host) eq \"a\"", &any_plan);
	accepted("lookup_json_integer(http.request.body.raw, \"a\", 0, \"b\") "
	    "eq 1", &any_plan);
}

static void
test_types(void **state)
{
	(void)state;
	refused("upper(ip.src) eq \"A\"", &any_plan, 7,
	    "argument 1 of upper() must be String, not IP");
	refused("substring(http.host, \"1\") eq \"a\"", &any_plan, 22,
	    "argument 2 of substring() must be Int, not String");
	/* The rest of concat() has the first argument's type. */
	refused("concat(http.host, \"a\", 1) eq \"a\"", &any_plan, 24,
	    "argument 3 of concat() must be String, not Int");
	refused("concat(http.request.headers.names, http.host)[0] eq \"a\"",
	    &any_plan, 36,
	    "argument 2 of concat() must be Array<String>, not String");
	accepted("concat(http.request.headers.names, "
	    "http.request.uri.args.names)[0] eq \"a\"", &any_plan);
	refused("concat(http.host, \"a\")[0] eq \"a\"", &any_plan, 23,
	    "[0] needs an Array; this is String");
	refused("len(http.request.headers) eq 1", &any_plan, 5,
	    "len() takes a String or an Array, not Map<Array<String>>");
	refused("concat(ip.src) eq \"a\"", &any_plan, 8,
	    "concat() takes Strings or Arrays, not IP");
	refused("any(concat(http.request.headers.names[*], "
	    "http.request.headers.names[*])[*] eq \"a\")", &any_plan, 43,
	    "only the first argument of concat() may use [*]");
	/* The call's type is the row's. */
	refused("len(http.host) eq \"a\"", &any_plan, 19,
	    "expected an integer literal after 'eq', not a string");
	accepted("cidr6(ip.src, 64) in {2001:db8::/32}", &any_plan);
}

static void
test_field_or_literal(void **state)
{
	(void)state;
	refused("starts_with(\"abc\", \"a\")", &any_plan, 13,
	    "the first argument of starts_with() must be a field, not a "
	    "literal");
	refused("is_timed_hmac_valid_v0(\"k\", \"u\", 1, 2)", &any_plan, 29,
	    "the second argument of is_timed_hmac_valid_v0() must be a "
	    "field, not a literal");
	refused("is_timed_hmac_valid_v0(http.host, http.host, 1, 2)",
	    &any_plan, 24,
	    "argument 1 of is_timed_hmac_valid_v0() must be a literal");
	refused("lookup_json_string(http.request.body.raw, http.host) eq \"a\"",
	    &any_plan, 43, "argument 2 of lookup_json_string() must be a "
	    "literal");
	refused("url_decode(http.host, http.host) eq \"a\"", &any_plan, 23,
	    "argument 2 of url_decode() must be a literal");
	refused("url_decode(http.host, 1) eq \"a\"", &any_plan, 23,
	    "argument 2 of url_decode() must be String, not Int");
	refused("url_decode(http.host, \"rux\") eq \"a\"", &any_plan, 23,
	    "url_decode() options are the letters r and u");
	accepted("url_decode(http.host, \"uru\") eq \"a\"", &any_plan);
	/* A call stands where a field must. */
	accepted("starts_with(lower(http.host), \"a\")", &any_plan);
}

static void
test_ranges(void **state)
{
	(void)state;
	refused("cidr(ip.src, 0, 64) eq 10.0.0.0", &any_plan, 14,
	    "argument 2 of cidr() must be 1 to 32");
	refused("cidr(ip.src, 32, 129) eq 10.0.0.0", &any_plan, 18,
	    "argument 3 of cidr() must be 1 to 128");
	refused("cidr(ip.src, \"8\", 64) eq 10.0.0.0", &any_plan, 14,
	    "argument 2 of cidr() must be 1 to 32");
	refused("cidr6(ip.src, http.request.body.size) eq ::", &any_plan, 15,
	    "argument 2 of cidr6() must be a literal");
	accepted("cidr(ip.src, 1, 128) eq 0.0.0.0", &any_plan);
	accepted("cidr(ip.src, 32, 1) eq 0.0.0.0", &any_plan);
	refused("lookup_json_string(http.request.body.raw, \"a\", -1) eq \"x\"",
	    &any_plan, 48, "an array index is 0 or more");
	accepted("lookup_json_string(http.request.body.raw, 0, \"a\") eq \"x\"",
	    &any_plan);
}

/* A lone fifth argument of is_timed_hmac_valid_v0 is sep_len or flags. */
static void
test_optional(void **state)
{
	const struct expr_func_info	*fi;
	const struct expr_param		*pa;
	size_t				 at;

	(void)state;
	fi = expr_func_info(EXPR_FN_IS_TIMED_HMAC_VALID_V0);
	at = 4;
	pa = expr_func_param(fi, &at, 4, 5, EXPR_T_STRING);
	assert_string_equal(pa->label, "flags");
	at = 4;
	pa = expr_func_param(fi, &at, 4, 5, EXPR_T_INT);
	assert_string_equal(pa->label, "sep_len");
	at = 4;
	pa = expr_func_param(fi, &at, 4, 6, EXPR_T_STRING);
	assert_string_equal(pa->label, "sep_len");

	accepted("is_timed_hmac_valid_v0(\"k\", http.host, 1, 2, \"s\")",
	    &any_plan);
	accepted("is_timed_hmac_valid_v0(\"k\", http.host, 1, 2, 8)",
	    &any_plan);
	accepted("is_timed_hmac_valid_v0(\"k\", http.host, 1, 2, 8, \"s\")",
	    &any_plan);
	refused("is_timed_hmac_valid_v0(\"k\", http.host, 1, 2, ip.src)",
	    &any_plan, 46,
	    "argument 5 of is_timed_hmac_valid_v0() must be Int, not IP");
	refused("is_timed_hmac_valid_v0(\"k\", http.host, 1, 2, \"s\", 8)",
	    &any_plan, 46,
	    "argument 5 of is_timed_hmac_valid_v0() must be Int, not String");
	accepted("substring(http.host, 1) eq \"a\"", &any_plan);
}

/* ---- phases and plans ----------------------------------------------------- */

static void
test_phase_refusals(void **state)
{
	struct expr_options	o = custom;

	(void)state;
	/* Fields. */
	refused("http.response.code eq 429", &any_plan, 1,
	    "'http.response.code' is only allowed in a counting expression");
	accepted("http.response.code eq 429", &counting);
	accepted("http.host eq \"a\"", &counting);
	refused("http.response.code eq 429", &custom, 1,
	    "'http.response.code' is available in counting expressions, not "
	    "in custom rules");
	refused("ssl and http.host eq \"a\"", &custom, 1,
	    "'ssl' is available in rate limiting rules, not in custom rules");
	refused("cf.unique_visitor_id eq \"a\"", &any_plan, 1,
	    "'cf.unique_visitor_id' is a rate limiting characteristic, not "
	    "allowed in an expression");
	/* Functions. */
	refused("join(http.request.headers.names, \",\") eq \"a\"", &any_plan,
	    1, "function 'join' is not available in rate limiting rules");
	refused("join(http.request.headers.names, \",\") eq \"a\"", &counting,
	    1, "function 'join' is not available in rate limiting rules");
	o.counting = 1;
	refused("lower(http.host) eq \"a\"", &o, 1,
	    "function 'lower' is not available in custom rules");
	/* A name of another phase is no operator either. */
	refused("http.host join \"a\"", &any_plan, 11,
	    "expected an operator (eq, ne, contains, in, ...) after "
	    "'http.host', found 'join'");
	refused("http.host lower \"a\"", &any_plan, 11,
	    "'lower' is a function, not an operator: write "
	    "lower(http.host, ...)");
}

static void
test_plan_refusals(void **state)
{
	struct expr_options	o = { EXPR_PLAN_FREE, 0, 0 };

	(void)state;
	refused("is_timed_hmac_valid_v0(\"k\", http.request.uri, 1, 2)", &o, 1,
	    "function 'is_timed_hmac_valid_v0' needs the Pro plan or above "
	    "(plan: free)");
	refused("http.host eq \"a\"", &o, 1,
	    "field 'http.host' needs the Pro plan or above (plan: free)");
	/* A deprecated name has its field's plan. */
	accepted("cf.client.bot", &o);
	o.plan = EXPR_PLAN_PRO;
	accepted("is_timed_hmac_valid_v0(\"k\", http.request.uri, 1, 2)", &o);
	refused("ip.geoip.country eq \"FR\"", &o, 1,
	    "field 'ip.geoip.country' needs the Enterprise plan or above "
	    "(plan: pro)");
}

/* Completion offers what the options allow: the same rules. */
static void
test_symbol_allowed(void **state)
{
	struct expr_options	o = { EXPR_PLAN_PRO, 0, 0 };
	enum expr_func		fn;

	(void)state;
	assert_false(expr_symbol_allowed(expr_symbol_find("http.response.code"),
	    &any_plan));
	assert_true(expr_symbol_allowed(expr_symbol_find("http.response.code"),
	    &counting));
	assert_false(expr_symbol_allowed(expr_symbol_find("http.host"),
	    &custom));
	assert_true(expr_symbol_allowed(expr_symbol_find("http.host"), &o));
	assert_false(expr_symbol_allowed(expr_symbol_find("ip.src"), &o));
	assert_true(expr_symbol_allowed(expr_symbol_find("lower"), NULL));
	/* A name of no phase here (join) is in no listing. */
	for (fn = EXPR_FN_NONE + 1; fn < EXPR_FN__COUNT; fn++)
		if (expr_func_info(fn)->phases == 0)
			assert_null(expr_symbol_find(expr_func_name(fn)));
	assert_null(expr_symbol_find("cf.unique_visitor_id"));
	assert_int_equal(expr_symbol_find("ip.geoip.asnum")->plan,
	    EXPR_PLAN_ENTERPRISE);
}

/* ---- the listing ---------------------------------------------------------- */

static void
test_signatures(void **state)
{
	static const char *const want[] = {
		"any(Array<Bool>) -> Bool",
		"all(Array<Bool>) -> Bool",
		"lower(String) -> String",
		"upper(String) -> String",
		"len(String|Array) -> Int",
		"starts_with(String field, String) -> Bool",
		"ends_with(String field, String) -> Bool",
		"concat(String|Array, ...) -> String|Array",
		"substring(String, Int start[, Int end]) -> String",
		"url_decode(String field[, String opts]) -> String",
		"lookup_json_string(String, key, ...) -> String",
		"lookup_json_integer(String, key, ...) -> Int",
		"decode_base64(String field) -> String",
		"cidr(IP field, Int 1..32, Int 1..128) -> IP",
		"cidr6(IP field, Int 1..128) -> IP",
		"remove_bytes(String, String) -> String",
		"is_timed_hmac_valid_v0(String key, String field, Int ttl, "
		    "Int ts[, Int sep_len][, String flags]) -> Bool",
	};
	const struct expr_symbol	*s;
	char				 name[64];
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(name, sizeof name, "%.*s",
		    (int)strcspn(want[i], "("), want[i]);
		assert_non_null(s = expr_symbol_find(name));
		assert_true(s->function);
		assert_string_equal(s->type, want[i]);
	}
	assert_string_equal(expr_symbol_find("cf.bot_management.detection_ids")
	    ->type, "Array<Int>");
	assert_string_equal(expr_symbol_find("ip.geoip.is_in_european_union")
	    ->type, "Bool");
}

/* ---- the evaluator's guard ------------------------------------------------ */

static void
test_call_guard(void **state)
{
	struct expr_request	*rq = expr_request_new();
	struct expr_val		 a[6], out;
	size_t			 i;

	(void)state;
	for (i = 0; i < 6; i++) {
		a[i].kind = EXPR_V_INT;
		a[i].u.i = 1;
	}
	/* Kinds or counts the parameters do not take: missing. */
	expr_func_call(rq, EXPR_FN_LOWER, a, 1, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	a[0].kind = EXPR_V_BYTES;
	a[0].u.s.p = "AbC";
	a[0].u.s.n = 3;
	expr_func_call(rq, EXPR_FN_LOWER, a, 2, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	expr_func_call(rq, EXPR_FN_CONCAT, a, 2, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	expr_func_call(rq, EXPR_FN_JOIN, a, 1, &out);
	assert_int_equal(out.kind, EXPR_V_MISSING);
	/* What they take. */
	expr_func_call(rq, EXPR_FN_LOWER, a, 1, &out);
	assert_int_equal(out.kind, EXPR_V_BYTES);
	assert_memory_equal(out.u.s.p, "abc", 3);
	expr_func_call(rq, EXPR_FN_SUBSTRING, a, 3, &out);
	assert_int_equal(out.kind, EXPR_V_BYTES);
	assert_int_equal(out.u.s.n, 0);
	/* The lone fifth of is_timed_hmac_valid_v0 may be flags. */
	a[1] = a[0];
	a[4] = a[0];
	expr_func_call(rq, EXPR_FN_IS_TIMED_HMAC_VALID_V0, a, 5, &out);
	assert_int_equal(out.kind, EXPR_V_BOOL);
	expr_request_free(rq);
}

/* ---- characteristics ------------------------------------------------------ */

/* rlrule_check of a rule counting by up to three characteristics. */
static int
rule_check(enum expr_plan plan, struct rlrule_problem *p, const char *c1,
    const char *c2, const char *c3)
{
	const char	*chars[] = { c1, c2, c3 };
	cJSON		*rule, *rl, *list;
	size_t		 i;
	int		 rc;

	rule = cJSON_CreateObject();
	cJSON_AddStringToObject(rule, "action", "block");
	cJSON_AddStringToObject(rule, "expression",
	    "http.request.uri.path eq \"/a\"");
	rl = cJSON_AddObjectToObject(rule, "ratelimit");
	list = cJSON_AddArrayToObject(rl, "characteristics");
	for (i = 0; i < 3 && chars[i] != NULL; i++)
		cJSON_AddItemToArray(list, cJSON_CreateString(chars[i]));
	cJSON_AddNumberToObject(rl, "period", 10);
	cJSON_AddNumberToObject(rl, "requests_per_period", 5);
	cJSON_AddNumberToObject(rl, "mitigation_timeout", 10);
	rc = rlrule_check(rule, plan, p);
	cJSON_Delete(rule);
	return (rc);
}

/* Notes of the simulator on a rule counting by cf.colo.id and c. */
static char **
sim_notes(const char *c)
{
	char		**notes = NULL, *cause = NULL;
	cJSON		*rules, *rule, *rl, *list;
	struct simulate	*sim;

	rules = cJSON_CreateArray();
	rule = cJSON_CreateObject();
	cJSON_AddItemToArray(rules, rule);
	cJSON_AddStringToObject(rule, "id", "r");
	cJSON_AddStringToObject(rule, "expression", "true");
	rl = cJSON_AddObjectToObject(rule, "ratelimit");
	list = cJSON_AddArrayToObject(rl, "characteristics");
	cJSON_AddItemToArray(list, cJSON_CreateString("cf.colo.id"));
	cJSON_AddItemToArray(list, cJSON_CreateString(c));
	cJSON_AddNumberToObject(rl, "period", 10);
	cJSON_AddNumberToObject(rl, "requests_per_period", 5);
	if ((sim = simulate_new(rules, &notes, &cause)) == NULL)
		fail_msg("%s", cause);
	simulate_free(sim);
	cJSON_Delete(rules);
	return (notes);
}

/* A characteristic in one of its forms, as written. */
static void
char_text(const struct expr_char *c, unsigned form, char *buf, size_t n)
{
	if (form == EXPR_CHAR_PLAIN)
		snprintf(buf, n, "%s", c->name);
	else if (form == EXPR_CHAR_KEY)
		snprintf(buf, n, "%s[\"k\"]", c->name);
	else
		snprintf(buf, n, "lookup_json_string(%s, \"a\", 0)", c->name);
}

/* Every characteristic of the scheme, in each of its forms, is one the
 * rule checks take on Enterprise and refuse below its plan. */
static void
test_chars_table(void **state)
{
	struct rlrule_problem	 p;
	struct expr_char	 c, back;
	struct expr_error	 err;
	char			 text[256];
	const char		*second;
	size_t			 i, n = 0;
	unsigned		 form;

	(void)state;
	for (i = 0; expr_char_at(i, &c) == 0; i++, n++) {
		for (form = EXPR_CHAR_PLAIN; form <= EXPR_CHAR_JSON;
		    form <<= 1) {
			if (!(c.role & form))
				continue;
			char_text(&c, form, text, sizeof text);
			assert_int_equal(expr_char_parse(text, &back), 0);
			assert_int_equal(back.field, c.field);
			assert_int_equal(back.form, form);
			second = c.role & EXPR_CHAR_REQUIRED ? NULL : text;
			if (rule_check(EXPR_PLAN_ENTERPRISE, &p, "cf.colo.id",
			    second, NULL) != 0)
				fail_msg("%s refused: %s", text, p.message);
			if (c.plan > EXPR_PLAN_FREE)
				assert_int_not_equal(rule_check(EXPR_PLAN_FREE,
				    &p, "cf.colo.id", second, NULL), 0);
		}
		/* No expression may use a characteristic-only field. */
		if (expr_symbol_find(c.name) == NULL) {
			snprintf(text, sizeof text, "%s eq 1", c.name);
			assert_int_equal(expr_check(text, &any_plan, &err), -1);
			assert_non_null(strstr(err.message, "is a rate "
			    "limiting characteristic"));
		}
	}
	assert_int_equal(n, 15);
	/* Not a characteristic: refused by the checks. */
	assert_int_equal(expr_char_parse("ip.src.continent", &c), -1);
	assert_int_not_equal(rule_check(EXPR_PLAN_ENTERPRISE, &p, "cf.colo.id",
	    "ip.src.continent", NULL), 0);
	assert_non_null(strstr(p.message, "is not a characteristic"));
	/* A key as the service takes it: no quote, headers in lower case. */
	assert_int_equal(expr_char_parse("http.request.headers[\"X\"]", &c), 0);
	assert_false(expr_char_key_ok(&c));
	assert_int_equal(expr_char_parse("http.request.cookies[\"X\"]", &c), 0);
	assert_true(expr_char_key_ok(&c));
	assert_int_equal(expr_char_parse("http.request.cookies[\"\"]", &c), -1);
}

/* The simulator reads the same list: an old name as its field (the
 * service takes only the current one), a field the list lacks not. */
static void
test_chars_simulator(void **state)
{
	struct rlrule_problem	 p;
	char			**notes;

	(void)state;
	assert_null(sim_notes("ip.geoip.country"));
	assert_null(sim_notes("http.request.headers[\"X-Key\"]"));
	assert_int_not_equal(rule_check(EXPR_PLAN_ENTERPRISE, &p, "cf.colo.id",
	    "ip.geoip.country", NULL), 0);
	notes = sim_notes("ip.src.continent");
	assert_non_null(notes);
	assert_non_null(strstr(notes[0], "ip.src.continent is not in access "
	    "logs"));
	simulate_notes_free(notes);
	/* In the list, in no log. */
	notes = sim_notes("http.request.body.size");
	assert_non_null(notes);
	simulate_notes_free(notes);
}

/* The rule form's choices come from the list and the checks take them. */
static void
test_chars_choices(void **state)
{
	static const struct {
		enum expr_plan	 plan;
		size_t		 n;
	} want[] = {
		{ EXPR_PLAN_FREE, 1 }, { EXPR_PLAN_PRO, 1 },
		{ EXPR_PLAN_BUSINESS, 2 }, { EXPR_PLAN_ENTERPRISE, 3 },
		{ EXPR_PLAN_NONE, 3 },
	};
	struct rlrule_chars_choice	 c[8];
	struct rlrule_problem		 p;
	char				 first[64], *s, *comma;
	size_t				 i, j, n;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		n = rlrule_chars_choices(want[i].plan, c, 8);
		assert_int_equal(n, want[i].n);
		assert_string_equal(c[0].value, "cf.colo.id, ip.src");
		assert_string_equal(c[0].label, "per IP: cf.colo.id, ip.src");
		for (j = 0; j < n; j++) {
			if (*c[j].value == '\0') {
				assert_non_null(strstr(c[j].label,
				    "type them"));
				continue;
			}
			s = c[j].value;
			assert_non_null(comma = strstr(s, ", "));
			snprintf(first, sizeof first, "%.*s", (int)(comma - s),
			    s);
			if (rule_check(want[i].plan, &p, first, comma + 2,
			    NULL) != 0)
				fail_msg("%s on %s: %s", s,
				    expr_plan_name(want[i].plan), p.message);
		}
	}
	n = rlrule_chars_choices(EXPR_PLAN_BUSINESS, c, 8);
	assert_string_equal(c[1].label,
	    "per IP with NAT: cf.colo.id, cf.unique_visitor_id");
	/* Room for one: the first. */
	assert_int_equal(rlrule_chars_choices(EXPR_PLAN_NONE, c, 1), 1);
}

/* The plan rules of characteristics, from their rows. */
static void
test_chars_plans(void **state)
{
	struct rlrule_problem	p;

	(void)state;
	assert_int_not_equal(rule_check(EXPR_PLAN_PRO, &p, "cf.colo.id",
	    "cf.unique_visitor_id", NULL), 0);
	assert_string_equal(p.message, "\"cf.unique_visitor_id\" needs the "
	    "Business plan or above (the Pro plan counts by ip.src only)");
	assert_int_not_equal(rule_check(EXPR_PLAN_BUSINESS, &p, "cf.colo.id",
	    "http.host", NULL), 0);
	assert_string_equal(p.message, "\"http.host\" needs Enterprise with "
	    "Advanced Rate Limiting (the Business plan counts by ip.src or "
	    "cf.unique_visitor_id)");
	assert_int_not_equal(rule_check(EXPR_PLAN_BUSINESS, &p, "cf.colo.id",
	    NULL, NULL), 0);
	assert_string_equal(p.message, "must include \"ip.src\" or "
	    "\"cf.unique_visitor_id\" on the Business plan");
	assert_int_not_equal(rule_check(EXPR_PLAN_ENTERPRISE, &p, "cf.colo.id",
	    "cf.unique_visitor_id", "ip.src"), 0);
	assert_string_equal(p.message, "\"ip.src\" and "
	    "\"cf.unique_visitor_id\" cannot both be used: pick one");
	assert_int_not_equal(rule_check(EXPR_PLAN_ENTERPRISE, &p, "ip.src",
	    NULL, NULL), 0);
	assert_string_equal(p.message, "must include \"cf.colo.id\"");
	assert_int_equal(rule_check(EXPR_PLAN_ENTERPRISE, &p, "cf.colo.id",
	    NULL, NULL), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arity),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_field_or_literal),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_optional),
		cmocka_unit_test(test_phase_refusals),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test(test_symbol_allowed),
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_call_guard),
		cmocka_unit_test(test_chars_table),
		cmocka_unit_test(test_chars_simulator),
		cmocka_unit_test(test_chars_choices),
		cmocka_unit_test(test_chars_plans),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
