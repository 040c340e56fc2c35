/*
 * Unit tests for the Rules language front end (expr_lex/parse/scheme/fmt):
 * every construct of api-map-next 12.1, every refusal with its column, the
 * plan and counting-expression rules, and the formatter's round trip.
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
#include "expr.h"
#include "expr_ast.h"

static const struct expr_options any_plan = { EXPR_PLAN_NONE, 0 };
static const struct expr_options counting = { EXPR_PLAN_NONE, 1 };

static struct expr *
parse_ok(const char *text, const struct expr_options *o)
{
	struct expr_error	 err;
	struct expr		*e;

	e = expr_parse(text, o, &err);
	if (e == NULL)
		fail_msg("refused '%s': %d: %s", text, err.column, err.message);
	return (e);
}

/* Refused at col, with a message holding want. */
static void
refused(const char *text, const struct expr_options *o, int col,
    const char *want)
{
	struct expr_error	 err;
	struct expr		*e;

	e = expr_parse(text, o, &err);
	if (e != NULL) {
		expr_free(e);
		fail_msg("accepted '%s'", text);
	}
	if (err.column != col || strstr(err.message, want) == NULL)
		fail_msg("'%s': got %d: %s; want %d: ...%s...", text,
		    err.column, err.message, col, want);
	assert_true(err.length >= 1);
	assert_int_equal(expr_check(text, o, &err), -1);
}

static char *
fmt(const char *text, const struct expr_options *o)
{
	struct expr	*e = parse_ok(text, o);
	char		*s = expr_format(e);

	expr_free(e);
	return (s);
}

#define FMT(in, want) do {						\
	char	*f_ = fmt(in, &any_plan);				\
	assert_string_equal(f_, want);					\
	free(f_);							\
} while (0)

/* ---- the examples of 12.5 ----------------------------------------------- */

static void
test_valid_examples(void **state)
{
	static const char *const ok[] = {
		"http.request.uri.path wildcard \"/api/*\"",
		"(http.host eq \"api.example.com\" and http.request.method in "
		    "{\"POST\" \"PUT\"}) and not ip.src in {192.0.2.0/24 "
		    "2001:db8::/32}",
		"any(http.request.headers[\"x-api-key\"][*] ne \"\")",
		"http.request.uri.path matches r\"^/login(/|$)\"",
		"lower(http.request.uri.path) contains \"/wp-login.php\"",
		"not ssl and starts_with(http.request.uri.path, \"/admin\")",
	};
	struct expr	*e;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(ok); i++) {
		e = parse_ok(ok[i], &any_plan);
		assert_string_equal(expr_text(e), ok[i]);
		expr_free(e);
	}
	e = parse_ok("http.response.code in {401 403 429..431}", &counting);
	expr_free(e);
}

static void
test_invalid_examples(void **state)
{
	(void)state;
	refused("http.request.method in {\"GET\", \"POST\"}", &any_plan, 30,
	    "a comma is not allowed in a set");
	refused("http.request.headers['x-api-key'][0] eq \"k\"", &any_plan, 22,
	    "expected a quoted string (\"key\")");
	refused("ssl eq true", &any_plan, 5, "there is no boolean literal");
	refused("http.response.code eq \"429\"", &counting, 23,
	    "expected an integer literal after 'eq'");
	refused("ip.src eq 10.0.0.0/8", &any_plan, 11,
	    "a CIDR is only allowed inside a set");
	refused("http.request.uri.path wildcard \"/a/**\"", &any_plan, 36,
	    "'**' is not allowed in a wildcard");
	refused("http.request.uri.path EQ \"/\"", &any_plan, 23,
	    "English operators are lower case ('eq')");
	refused("http.request.headers.names[*] == \"accept\"", &any_plan, 27,
	    "[*] is only allowed inside any() or all()");
	refused("starts_with(\"abc\", http.host)", &any_plan, 13,
	    "first argument of starts_with() must be a field");
	refused("http.host eq \"a\" and", &any_plan, 21,
	    "unexpected end of input: expected a field, a function or '(' "
	    "after 'and'");
}

/* ---- logic -------------------------------------------------------------- */

static void
test_precedence(void **state)
{
	struct expr	*e;

	(void)state;
	e = parse_ok("ssl or ssl and ssl", &any_plan);
	assert_int_equal(e->root->kind, EXPR_N_OR);
	assert_int_equal(e->root->nkids, 2);
	assert_int_equal(e->root->kids[1]->kind, EXPR_N_AND);
	expr_free(e);

	e = parse_ok("ssl xor ssl or ssl", &any_plan);
	assert_int_equal(e->root->kind, EXPR_N_OR);
	assert_int_equal(e->root->kids[0]->kind, EXPR_N_XOR);
	expr_free(e);

	e = parse_ok("ssl and ssl xor ssl", &any_plan);
	assert_int_equal(e->root->kind, EXPR_N_XOR);
	assert_int_equal(e->root->kids[0]->kind, EXPR_N_AND);
	expr_free(e);

	e = parse_ok("not ssl and ssl", &any_plan);
	assert_int_equal(e->root->kind, EXPR_N_AND);
	assert_int_equal(e->root->kids[0]->kind, EXPR_N_NOT);
	expr_free(e);

	/* A chain is one node; parentheses of the same operator merge. */
	e = parse_ok("ssl && (ssl && ssl) && ssl", &any_plan);
	assert_int_equal(e->root->kind, EXPR_N_AND);
	assert_int_equal(e->root->nkids, 4);
	assert_int_equal(e->root->column, 1);
	assert_int_equal(e->root->length, 26);
	expr_free(e);

	/* Symbols spell the same operators. */
	FMT("ssl || ssl ^^ ssl && !ssl", "ssl or ssl xor ssl and not ssl");
	FMT("!(ssl or ssl)", "not (ssl or ssl)");
	FMT("not not ssl", "not not ssl");
	FMT("(ssl or ssl) and ssl", "(ssl or ssl) and ssl");
	FMT("((ssl))", "ssl");

	/* Node ids: depth first, in source order. */
	e = parse_ok("ssl and http.host eq \"a\"", &any_plan);
	assert_int_equal(e->nnodes, 4);
	assert_int_equal(e->root->id, 0);
	assert_int_equal(e->root->kids[0]->id, 1);
	assert_int_equal(e->root->kids[1]->id, 2);
	assert_int_equal(e->root->kids[1]->lhs->id, 3);
	expr_free(e);
}

static void
test_comparisons(void **state)
{
	static const struct {
		const char	*in;
		enum expr_op	 op;
	} ops[] = {
		{ "http.host eq \"a\"", EXPR_OP_EQ },
		{ "http.host == \"a\"", EXPR_OP_EQ },
		{ "http.host ne \"a\"", EXPR_OP_NE },
		{ "http.host != \"a\"", EXPR_OP_NE },
		{ "http.host lt \"a\"", EXPR_OP_LT },
		{ "http.host < \"a\"", EXPR_OP_LT },
		{ "http.host le \"a\"", EXPR_OP_LE },
		{ "http.host <= \"a\"", EXPR_OP_LE },
		{ "http.host gt \"a\"", EXPR_OP_GT },
		{ "http.host > \"a\"", EXPR_OP_GT },
		{ "http.host ge \"a\"", EXPR_OP_GE },
		{ "http.host >= \"a\"", EXPR_OP_GE },
		{ "http.host contains \"a\"", EXPR_OP_CONTAINS },
		{ "http.host matches \"a\"", EXPR_OP_MATCHES },
		{ "http.host ~ \"a\"", EXPR_OP_MATCHES },
		{ "http.host wildcard \"a\"", EXPR_OP_WILDCARD },
		{ "http.host strict wildcard \"a\"", EXPR_OP_STRICT_WILDCARD },
		{ "http.host in {\"a\"}", EXPR_OP_IN },
		{ "http.host in $hosts", EXPR_OP_IN_LIST },
		{ "ip.src.asnum & 4", EXPR_OP_BITAND },
		{ "ip.src.asnum bitwise_and 4", EXPR_OP_BITAND },
		{ "ip.src eq 10.0.0.1", EXPR_OP_EQ },
		{ "ip.src.asnum >= 3", EXPR_OP_GE },
	};
	struct expr	*e;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(ops); i++) {
		e = parse_ok(ops[i].in, &any_plan);
		assert_int_equal(e->root->kind, EXPR_N_CMP);
		if (e->root->op != ops[i].op)
			fail_msg("%s: op %d", ops[i].in, e->root->op);
		expr_free(e);
	}
	e = parse_ok("http.host in $my_list_2", &any_plan);
	assert_string_equal(e->root->rhs.list, "my_list_2");
	expr_free(e);

	refused("ip.src.asnum contains \"a\"", &any_plan, 14,
	    "'contains' is not defined for Int");
	refused("ip.src matches \"a\"", &any_plan, 8,
	    "'matches' is not defined for IP");
	refused("http.host & 1", &any_plan, 11, "'&' is not defined for String");
	refused("http.host strict \"a\"", &any_plan, 11,
	    "expected 'wildcard' after 'strict'");
	refused("http.host ends_with \"a\"", &any_plan, 11,
	    "'ends_with' is a function, not an operator");
	refused("http.host", &any_plan, 10, "expected an operator");
	refused("http.host foo \"a\"", &any_plan, 11,
	    "expected an operator (eq, ne, contains, in, ...) after "
	    "'http.host', found 'foo'");
	refused("http.host eq \"a\" AND ssl", &any_plan, 18,
	    "English operators are lower case ('and')");
	refused("http.host Contains \"a\"", &any_plan, 11, "('contains')");
	refused("http.host eq 1", &any_plan, 14,
	    "expected a string literal after 'eq', found '1'");
	refused("ip.src eq \"1.2.3.4\"", &any_plan, 11,
	    "expected an IP address after 'eq', without quotes");
	refused("http.request.headers eq \"a\"", &any_plan, 22,
	    "no operator applies to Map<Array<String>>");
	refused("http.request.headers.names eq \"a\"", &any_plan, 28,
	    "no operator applies to Array<String>");
	refused("http.host in $Bad", &any_plan, 14, "a list name is");
	refused("http.host in \"a\"", &any_plan, 14, "expected a set");
	refused("ssl ssl", &any_plan, 5, "expected and, or, xor or the end");
	refused("ssl)", &any_plan, 4, "unexpected ')'");
	refused("(ssl", &any_plan, 5, "expected ')' to close the '(' at "
	    "column 1");
	refused("ssl and and", &any_plan, 9, "expected a field");
	refused("", &any_plan, 1, "empty expression");
	refused("   ", &any_plan, 4, "empty expression");
	refused("true eq 1", &any_plan, 6, "expected and, or, xor");
}

static void
test_true(void **state)
{
	struct expr	*e;

	(void)state;
	e = parse_ok("true", &any_plan);
	assert_int_equal(e->root->kind, EXPR_N_TRUE);
	expr_free(e);
	FMT("true and ssl", "true and ssl");
}

/* ---- literals ----------------------------------------------------------- */

static void
test_strings(void **state)
{
	struct expr	*e;

	(void)state;
	e = parse_ok("http.host eq \"\\x41\\101\\\"\\\\\\000z\"", &any_plan);
	assert_int_equal(e->root->rhs.lit.len, 6);
	assert_memory_equal(e->root->rhs.lit.s, "AA\"\\\0z", 6);
	expr_free(e);

	e = parse_ok("http.host eq r\"a\\b\"", &any_plan);
	assert_string_equal(e->root->rhs.lit.s, "a\\b");
	expr_free(e);
	e = parse_ok("http.host eq r##\"a\"#b\"##", &any_plan);
	assert_string_equal(e->root->rhs.lit.s, "a\"#b");
	expr_free(e);

	/* After matches, backslashes reach the regex; only \" loses it. */
	e = parse_ok("http.host matches \"\\d+\\\"[\\\"]\\\\\"", &any_plan);
	assert_string_equal(e->root->rhs.lit.s, "\\d+\"[\\\"]\\\\");
	expr_free(e);

	/* wirefilter's hex byte strings read as strings; written quoted. */
	e = parse_ok("http.host in {41:42-43.44 \"x\"} or http.host contains "
	    "0a:0D", &any_plan);
	assert_memory_equal(e->root->kids[0]->rhs.set.elems[0].s, "ABCD", 4);
	assert_int_equal(e->root->kids[1]->rhs.lit.len, 2);
	expr_free(e);
	FMT("http.host eq 41:42", "http.host eq \"AB\"");
	refused("http.host eq 41", &any_plan, 14, "expected a string literal");
	refused("http.host eq 41:4", &any_plan, 14, "expected a string literal");
	refused("http.host wildcard 41:42", &any_plan, 20,
	    "expected a string literal");

	refused("http.host eq \"a", &any_plan, 14, "unterminated string");
	refused("http.host eq \"a\\", &any_plan, 14, "unterminated string");
	refused("http.host eq r#\"a\"", &any_plan, 14,
	    "unterminated raw string: expected '\"#'");
	refused("http.host eq r#a", &any_plan, 14, "expected '\"' to open");
	refused("http.host eq \"\\n\"", &any_plan, 15, "unknown escape '\\n'");
	refused("http.host eq \"ab\\q\"", &any_plan, 17, "unknown escape");
	refused("http.host eq \"\\x4\"", &any_plan, 15, "two hex digits");
	refused("http.host eq \"\\400\"", &any_plan, 15, "three digits");
	refused("http.host eq \"\\12\"", &any_plan, 15, "three digits");
	refused("http.request.headers[r\"a\"][0] eq \"\"", &any_plan, 22,
	    "expected a quoted string");
}

static void
test_integers(void **state)
{
	static const struct {
		const char	*lit;
		int64_t		 v;
	} ints[] = {
		{ "10", 10 }, { "-7", -7 }, { "0x1F", 31 }, { "0xff", 255 },
		{ "010", 8 }, { "0", 0 }, { "9223372036854775807", INT64_MAX },
		{ "-9223372036854775808", INT64_MIN },
	};
	char		 text[80];
	struct expr	*e;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(ints); i++) {
		snprintf(text, sizeof text, "ip.src.asnum eq %s", ints[i].lit);
		e = parse_ok(text, &any_plan);
		assert_true(e->root->rhs.lit.i == ints[i].v);
		expr_free(e);
	}
	refused("ip.src.asnum eq 09", &any_plan, 17, "a leading 0 means octal");
	refused("ip.src.asnum eq 9223372036854775808", &any_plan, 17,
	    "out of range");
	refused("ip.src.asnum eq 0x", &any_plan, 17, "hex digits");
	refused("ip.src.asnum eq 12ab", &any_plan, 17, "not an integer");
	refused("ip.src.asnum eq -", &any_plan, 17, "expected an integer");
}

static void
test_addresses(void **state)
{
	struct expr		*e;
	const struct expr_set	*s;

	(void)state;
	e = parse_ok("ip.src eq 2001:db8::1", &any_plan);
	assert_int_equal(e->root->rhs.lit.ip.family, 6);
	assert_int_equal(e->root->rhs.lit.ip.bytes[15], 1);
	expr_free(e);

	e = parse_ok("ip.src in {10.0.0.0/8 10.1.0.0/16 192.0.2.1 "
	    "192.0.2.2..192.0.2.9 2001:db8::/32 ::1}", &any_plan);
	s = &e->root->rhs.set;
	assert_int_equal(s->type, EXPR_T_IP);
	assert_int_equal(s->nelems, 6);
	/* 10.1/16 merges into 10/8; .1 and .2-.9 merge. */
	assert_int_equal(s->nv4, 2);
	assert_true(s->v4[0].lo == 0x0a000000 && s->v4[0].hi == 0x0affffff);
	assert_true(s->v4[1].lo == 0xc0000201 && s->v4[1].hi == 0xc0000209);
	assert_int_equal(s->nv6, 2);
	assert_int_equal(s->v6[0].hi[15], 1);	/* ::1 sorts first */
	assert_int_equal(s->v6[1].lo[0], 0x20);
	assert_int_equal(s->v6[1].hi[4], 0xff);
	expr_free(e);

	refused("ip.src eq 10.0.0.256", &any_plan, 11, "not an IP address");
	refused("ip.src eq 10.0.0.1..10.0.0.2", &any_plan, 11,
	    "an IP range is only allowed inside a set");
	refused("ip.src in {10.0.0.0/33}", &any_plan, 21,
	    "a prefix length is 0 to 32");
	refused("ip.src in {::/129}", &any_plan, 15, "0 to 128");
	refused("ip.src in {10.0.0.0/}", &any_plan, 12,
	    "expected a prefix length");
	refused("ip.src in {10.0.0.9..10.0.0.1}", &any_plan, 12,
	    "first address is above its last");
	refused("ip.src in {10.0.0.1..::1}", &any_plan, 12,
	    "both ends of an IP range");
	refused("ip.src in {foo}", &any_plan, 12, "'foo' is not an IP address");
	refused("ip.src in {\"a\"}", &any_plan, 12,
	    "expected an IP address in the set, without quotes");
}

static void
test_sets(void **state)
{
	struct expr		*e;
	const struct expr_set	*s;

	(void)state;
	e = parse_ok("ip.src.asnum in {5 1..3 4 010 -2 100..200 150}",
	    &any_plan);
	s = &e->root->rhs.set;
	assert_int_equal(s->nelems, 7);
	assert_int_equal(s->nints, 4);	/* -2, 1..5, 8, 100..200 */
	assert_true(s->ints[0].lo == -2 && s->ints[0].hi == -2);
	assert_true(s->ints[1].lo == 1 && s->ints[1].hi == 5);
	assert_true(s->ints[2].lo == 8 && s->ints[2].hi == 8);
	assert_true(s->ints[3].lo == 100 && s->ints[3].hi == 200);
	expr_free(e);

	e = parse_ok("http.host in {\"b\" \"a\" \"ab\" \"a\"\n\"\"}", &any_plan);
	s = &e->root->rhs.set;
	assert_int_equal(s->nstrs, 4);
	assert_int_equal(s->strs[0].len, 0);
	assert_string_equal(s->strs[1].s, "a");
	assert_string_equal(s->strs[2].s, "ab");
	assert_string_equal(s->strs[3].s, "b");
	expr_free(e);

	refused("http.host in {}", &any_plan, 14, "an empty set");
	refused("http.host in {\"a\"", &any_plan, 18,
	    "expected '}' to close the set at column 14");
	refused("http.host in {\"a\",\"b\"}", &any_plan, 18, "comma");
	refused("http.host in {1}", &any_plan, 15,
	    "expected a string literal in the set, found '1'");
	refused("ip.src.asnum in {1 \"2\"}", &any_plan, 20,
	    "expected an integer literal in the set, not a string");
	refused("ip.src.asnum in {1..}", &any_plan, 21, "range's last integer");
	refused("ip.src.asnum in {5..1}", &any_plan, 18,
	    "first integer is above its last");
	refused("ip.src.asnum in {1.5}", &any_plan, 19, "a space or '}'");
}

/* ---- regexes and wildcards ---------------------------------------------- */

static void
test_regex(void **state)
{
	struct expr	*e;

	(void)state;
	e = parse_ok("http.request.uri.path matches \"^/a(b|c)\\\\d$\"",
	    &any_plan);
	assert_non_null(e->root->rhs.re);
	assert_int_equal(e->max_ovector, 2);
	expr_free(e);
	expr_free(parse_ok("http.host matches \"(?u)\\\\w+\"", &any_plan));
	expr_free(parse_ok("http.host matches \"(?i)a\"", &any_plan));

	refused("http.host matches \"(a\"", &any_plan, 22,
	    "invalid regex: missing closing parenthesis");
	refused("http.host matches \"x(?=a)\"", &any_plan, 21,
	    "look-around is not supported");
	refused("http.host matches \"(?<!a)\"", &any_plan, 20, "look-around");
	refused("http.host matches r\"(a)\\1\"", &any_plan, 24,
	    "a back-reference");
	refused("http.host matches \"(?>a)\"", &any_plan, 20, "atomic group");
	refused("http.host matches \"a++\"", &any_plan, 21, "possessive");
	refused("http.host matches \"\\Ka\"", &any_plan, 20, "\\K");
	expr_free(parse_ok("http.host matches \"\\\\Ka\"", &any_plan));
	refused("http.host matches \"[a&&b]\"", &any_plan, 22, "class set");
	refused("http.host matches \"a(?u)\"", &any_plan, 21,
	    "(?u) other than at the start");
	refused("http.host matches \"(*UTF)a\"", &any_plan, 20, "(*VERB)");
	refused("http.host matches r\"a\\pL\"", &any_plan, 22,
	    "a Unicode class (\\p) needs (?u) at the start");
	refused("http.host matches \"[\xc3\xa9]\"", &any_plan, 21,
	    "a non-ASCII character in a class needs (?u)");
	expr_free(parse_ok("http.host matches r\"(?u)[\xc3\xa9]\\pL\"",
	    &any_plan));
	expr_free(parse_ok("http.host matches \"\xc3\xa9+\"", &any_plan));
}

static void
test_wildcard(void **state)
{
	struct expr		*e;
	const struct expr_wild	*w;

	(void)state;
	e = parse_ok("http.host wildcard \"*.Example.COM/*x\"", &any_plan);
	w = &e->root->rhs.wild;
	assert_true(w->lead && w->trail == 0 && w->nocase);
	assert_int_equal(w->nsegs, 2);
	assert_string_equal(w->segs[0].s, ".example.com/");
	assert_string_equal(w->segs[1].s, "x");
	expr_free(e);

	e = parse_ok("http.host strict wildcard r\"A\\*b\\\\*\"", &any_plan);
	w = &e->root->rhs.wild;
	assert_true(!w->lead && w->trail && !w->nocase);
	assert_int_equal(w->nsegs, 1);
	assert_string_equal(w->segs[0].s, "A*b\\");
	expr_free(e);

	e = parse_ok("http.host wildcard \"\"", &any_plan);
	assert_int_equal(e->root->rhs.wild.nsegs, 0);
	expr_free(e);
	e = parse_ok("http.host wildcard \"*\"", &any_plan);
	assert_true(e->root->rhs.wild.lead && e->root->rhs.wild.trail);
	expr_free(e);

	refused("http.host wildcard \"a**\"", &any_plan, 22, "'**'");
	refused("http.host wildcard r\"\\x\"", &any_plan, 22,
	    "a backslash escapes only");
	/* The column counts the source, escapes included. */
	refused("http.host wildcard \"\\x41**\"", &any_plan, 25, "'**'");
}

/* ---- values -------------------------------------------------------------- */

static void
test_indexes(void **state)
{
	struct expr		*e;
	const struct expr_node	*v, *q;

	(void)state;
	e = parse_ok("http.request.headers[\"x\"][1] eq \"a\"", &any_plan);
	v = e->root->lhs;
	assert_int_equal(v->nidx, 2);
	assert_int_equal(v->idx[0].kind, EXPR_IDX_KEY);
	assert_string_equal(v->idx[0].key, "x");
	assert_int_equal(v->idx[1].kind, EXPR_IDX_POS);
	assert_int_equal(v->idx[1].pos, 1);
	assert_int_equal(v->type, EXPR_T_STRING);
	expr_free(e);

	e = parse_ok("any(http.request.headers[\"x\"][*] eq \"a\")", &any_plan);
	q = e->root;
	assert_int_equal(q->kind, EXPR_N_ANY);
	assert_true(q->kids[0]->mapped);
	assert_ptr_equal(q->source, q->kids[0]->lhs);
	assert_int_equal(q->source_at, 1);
	expr_free(e);

	e = parse_ok("all(lower(http.request.headers.names[*])[*] eq \"a\" or "
	    "http.request.headers.names[*] contains \"b\")", &any_plan);
	q = e->root;
	assert_int_equal(q->kind, EXPR_N_ALL);
	assert_int_equal(q->kids[0]->kind, EXPR_N_OR);
	v = q->kids[0]->kids[0]->lhs;
	assert_int_equal(v->func, EXPR_FN_LOWER);
	assert_int_equal(v->idx[0].kind, EXPR_IDX_EACH);
	assert_ptr_equal(q->source, v->kids[0]);
	expr_free(e);

	e = parse_ok("any(starts_with(http.request.headers.names[*], \"x\"))",
	    &any_plan);
	assert_int_equal(e->root->kids[0]->kind, EXPR_N_VALUE);
	expr_free(e);

	e = parse_ok("any(http.request.headers[*][0] eq \"a\")", &any_plan);
	expr_free(e);

	refused("http.request.headers[\"a\"][\"b\"] eq \"x\"", &any_plan, 26,
	    "[\"key\"] needs a Map");
	refused("http.request.headers[0] eq \"x\"", &any_plan, 21,
	    "needs an Array");
	refused("http.host[*] eq \"x\"", &any_plan, 10, "[*] needs an Array");
	refused("http.request.headers[\"a\" eq \"x\"", &any_plan, 26,
	    "expected ']'");
	refused("http.request.headers[-1] eq \"x\"", &any_plan, 22,
	    "expected a quoted string");
	refused("any(ssl)", &any_plan, 5, "any() needs an Array<Bool>");
	refused("any(http.request.headers.names[*] eq \"a\" and ssl)",
	    &any_plan, 46, "cannot combine a Bool with an Array<Bool>");
	refused("any(http.request.headers.names[*] eq \"a\" and "
	    "http.request.headers.values[*] eq \"b\")", &any_plan, 73,
	    "over the same array (the first is at column 31)");
	refused("any(http.request.headers[*][*] eq \"a\")", &any_plan, 28,
	    "one [*] per value");
	refused("starts_with(http.request.headers.names[*], \"a\")",
	    &any_plan, 1, "use it inside any() or all()");
	refused("lower(http.request.headers.names[*]) eq \"a\"", &any_plan, 1,
	    "add [*]");
	refused("any(lower(http.request.headers.names[*])[0] eq \"a\")",
	    &any_plan, 41, "write [*] first");
	refused("not any(http.request.headers.names[*] eq \"a\") and "
	    "http.request.headers.names[*] eq \"b\"", &any_plan, 77,
	    "[*] is only allowed inside any() or all()");
}

static void
test_functions(void **state)
{
	static const char *const ok[] = {
		"lower(http.host) eq \"a\"",
		"upper(http.host) eq \"A\"",
		"len(http.host) gt 3",
		"len(http.request.headers.names) eq 0",
		"ends_with(http.request.uri.path, \".php\")",
		"concat(http.host, \"/\", http.request.uri.path) eq \"a\"",
		"substring(http.host, 1) eq \"a\"",
		"substring(http.host, 0, -2) eq \"a\"",
		"url_decode(http.request.uri.query) contains \"a\"",
		"url_decode(http.request.uri.query, \"ru\") contains \"a\"",
		"lookup_json_integer(http.request.body.raw, \"a\", 0) eq 1",
		"decode_base64(http.request.headers[\"a\"][0]) eq \"x\"",
		"cidr(ip.src, 24, 64) eq 192.0.2.0",
		"cidr6(ip.src, 64) eq 2001:db8::",
		"remove_bytes(http.host, \"-\") eq \"ab\"",
		"is_timed_hmac_valid_v0(\"k\", http.request.uri, 10, "
		    "http.request.timestamp.sec)",
		"is_timed_hmac_valid_v0(\"k\", http.request.uri, 10, "
		    "http.request.timestamp.sec, 8, \"s\")",
		"lower(upper(http.host)) eq \"a\"",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(ok); i++)
		expr_free(parse_ok(ok[i], &any_plan));

	refused("lowr(http.host) eq \"a\"", &any_plan, 1,
	    "unknown function 'lowr' (did you mean lower?)");
	refused("regex_replace(http.host, \"a\", \"b\") eq \"a\"", &any_plan, 1,
	    "'regex_replace' is not available in rate limiting rules");
	refused("lower(http.host, 1) eq \"a\"", &any_plan, 1,
	    "lower() takes 1 argument, not 2");
	refused("lower() eq \"a\"", &any_plan, 1, "lower() needs arguments");
	refused("substring(http.host) eq \"a\"", &any_plan, 1,
	    "takes 2 to 3 arguments, not 1");
	refused("lookup_json_string(http.host) eq \"a\"", &any_plan, 1,
	    "takes at least 2 arguments");
	refused("lower(ip.src) eq \"a\"", &any_plan, 7,
	    "argument 1 of lower() must be String, not IP");
	refused("len(ip.src) eq 1", &any_plan, 5, "len() takes a String");
	refused("ends_with(http.host, 1)", &any_plan, 22,
	    "argument 2 of ends_with() must be String, not Int");
	refused("url_decode(\"a%20\") eq \"a\"", &any_plan, 12,
	    "first argument of url_decode() must be a field");
	refused("url_decode(http.host, \"x\") eq \"a\"", &any_plan, 23,
	    "options are the letters r and u");
	refused("decode_base64(\"YQ==\") eq \"a\"", &any_plan, 15,
	    "must be a field");
	refused("cidr(ip.src, 33, 64) eq 1.2.3.4", &any_plan, 14,
	    "must be 1 to 32");
	refused("cidr6(ip.src, http.request.body.size) eq ::", &any_plan, 15,
	    "must be a literal");
	refused("concat(http.host, 1) eq \"a\"", &any_plan, 19,
	    "argument 2 of concat() must be String");
	refused("lower(http.host) ~ \"a\" and lower(http.hots) eq \"a\"",
	    &any_plan, 34, "did you mean http.host?");
	refused("starts_with(http.host, \"a\") eq 1", &any_plan, 29,
	    "is a Bool: use it bare");
	refused("starts_with(http.host \"a\")", &any_plan, 23,
	    "expected ',' or ')'");
	refused("lower(http.host", &any_plan, 16, "expected ')' to close");
	refused("lookup_json_string(http.host, -1) eq \"a\"", &any_plan, 31,
	    "an array index is 0 or more");
}

static void
test_fields(void **state)
{
	struct expr	*e;

	(void)state;
	e = parse_ok("ip.geoip.country eq \"FR\"", &any_plan);
	assert_int_equal(e->root->lhs->field, EXPR_F_IP_COUNTRY);
	expr_free(e);
	FMT("cf.client.bot", "cf.bot_management.verified_bot");
	FMT("ip.geoip.asnum eq 1", "ip.src.asnum eq 1");

	refused("http.hostt eq \"a\"", &any_plan, 1,
	    "unknown field 'http.hostt' (did you mean http.host?)");
	refused("foo.bar eq 1", &any_plan, 1, "unknown field 'foo.bar'");
	refused("cf.colo.id eq 1", &any_plan, 1,
	    "'cf.colo.id' is a rate limiting characteristic");
	refused("ssl and cf.unique_visitor_id eq \"a\"", &any_plan, 9,
	    "not allowed in an expression");
	refused("http.request.uri.path eq \"/\" and http.response.code eq 429",
	    &any_plan, 34, "only allowed in a counting expression");
	expr_free(parse_ok("any(http.response.headers[\"x\"][*] eq \"a\")",
	    &counting));
}

/* ---- plans -------------------------------------------------------------- */

static void
plan_case(enum expr_plan plan, const char *text, int ok, const char *want)
{
	struct expr_options	 o = { plan, 1 };
	struct expr_error	 err;
	struct expr		*e;

	e = expr_parse(text, &o, &err);
	if (ok && e == NULL)
		fail_msg("%s on %s: %s", text, expr_plan_name(plan),
		    err.message);
	if (!ok) {
		if (e != NULL)
			fail_msg("%s accepted on %s", text,
			    expr_plan_name(plan));
		if (strstr(err.message, want) == NULL)
			fail_msg("%s on %s: %s", text, expr_plan_name(plan),
			    err.message);
	}
	expr_free(e);
}

static void
test_plans(void **state)
{
	(void)state;
	plan_case(EXPR_PLAN_FREE, "http.request.uri.path eq \"/\"", 1, NULL);
	plan_case(EXPR_PLAN_FREE, "cf.bot_management.verified_bot", 1, NULL);
	plan_case(EXPR_PLAN_FREE, "http.host eq \"a\"", 0,
	    "field 'http.host' needs the Pro plan or above (plan: free)");
	plan_case(EXPR_PLAN_PRO, "http.host eq \"a\" and http.request.uri "
	    "eq \"/\" and http.request.full_uri eq \"a\" and "
	    "http.request.uri.query eq \"\"", 1, NULL);
	plan_case(EXPR_PLAN_PRO, "http.request.method eq \"GET\"", 0,
	    "needs the Business plan or above (plan: pro)");
	plan_case(EXPR_PLAN_PRO, "ip.src eq 1.2.3.4", 0, "Business");
	plan_case(EXPR_PLAN_PRO, "http.user_agent eq \"a\"", 0, "Business");
	plan_case(EXPR_PLAN_PRO, "http.request.uri.path matches \"a\"", 0,
	    "'matches' needs the Business plan or above (plan: pro)");
	plan_case(EXPR_PLAN_PRO, "http.request.uri.path ~ \"a\"", 0,
	    "'~' needs the Business plan or above (plan: pro)");
	plan_case(EXPR_PLAN_FREE, "is_timed_hmac_valid_v0(\"k\", "
	    "http.request.uri.path, 1, 2)", 0,
	    "function 'is_timed_hmac_valid_v0' needs the Pro plan");
	plan_case(EXPR_PLAN_BUSINESS, "http.request.method eq \"GET\" and "
	    "ip.src in {10.0.0.0/8} and http.user_agent contains \"bot\" and "
	    "http.request.uri.path matches \"a\" and http.response.code eq 429",
	    1, NULL);
	plan_case(EXPR_PLAN_BUSINESS, "any(http.request.headers[\"a\"][*] "
	    "eq \"\")", 0, "needs the Enterprise plan or above (plan: "
	    "business)");
	plan_case(EXPR_PLAN_BUSINESS, "http.cookie contains \"a\"", 0,
	    "Enterprise");
	plan_case(EXPR_PLAN_BUSINESS, "ip.src.country eq \"FR\"", 0,
	    "Enterprise");
	plan_case(EXPR_PLAN_ENTERPRISE, "ip.src.country eq \"FR\" and "
	    "http.request.body.size gt 10 and ssl", 1, NULL);
}

/* ---- limits and positions ----------------------------------------------- */

static void
test_limits(void **state)
{
	struct buf	 b = BUF_INITIALIZER;
	struct expr	*e;
	int		 i;

	(void)state;
	/* 4096 characters pass, one more is refused. */
	buf_adds(&b, "http.host eq \"");
	while (b.len < EXPR_MAX_LENGTH - 1)
		buf_addc(&b, 'a');
	buf_addc(&b, '"');
	expr_free(parse_ok(b.data, &any_plan));
	buf_truncate(&b, b.len - 1);
	buf_adds(&b, "a\"");
	refused(b.data, &any_plan, 4097, "the limit is 4096");
	buf_reset(&b);

	/* Characters, not bytes: 2048 two-byte letters are 2048 columns. */
	buf_adds(&b, "http.host eq \"");
	for (i = 0; i < 2000; i++)
		buf_adds(&b, "\xc3\xa9");
	buf_adds(&b, "\"");
	expr_free(parse_ok(b.data, &any_plan));
	buf_reset(&b);

	/* Nesting: 128 levels pass, 129 do not. */
	for (i = 0; i < 128; i++)
		buf_addc(&b, '(');
	buf_adds(&b, "ssl");
	for (i = 0; i < 128; i++)
		buf_addc(&b, ')');
	e = parse_ok(b.data, &any_plan);
	assert_int_equal(e->depth, 128);
	expr_free(e);
	buf_reset(&b);
	for (i = 0; i < 129; i++)
		buf_adds(&b, "not ");
	buf_adds(&b, "ssl");
	refused(b.data, &any_plan, 129 * 4 - 3, "nested more than 128");
	buf_reset(&b);
	for (i = 0; i < 129; i++)
		buf_adds(&b, "lower(");
	buf_adds(&b, "http.host");
	for (i = 0; i < 129; i++)
		buf_addc(&b, ')');
	buf_adds(&b, " eq \"a\"");
	refused(b.data, &any_plan, 128 * 6 + 1, "nested more than 128");
	buf_free(&b);

	refused("\tssl", &any_plan, 1, "a tab is not allowed");
	refused("ssl\tand ssl", &any_plan, 4, "a tab is not allowed");
	expr_free(parse_ok("ssl\r\nand\nssl", &any_plan));
	/* Columns count characters: é is one. */
	refused("http.host eq \"\xc3\xa9\" and x", &any_plan, 22,
	    "unknown field 'x'");
}

static void
test_message_utf8(void **state)
{
	struct buf		 b = BUF_INITIALIZER;
	struct expr_error	 err;
	size_t			 i, n, k;

	(void)state;
	/* A long quoted value is cut in its message at a whole character,
	 * wherever the cut falls. */
	for (k = 0; k < 4; k++) {
		buf_reset(&b);
		buf_adds(&b, "starts_with(http.host, \"");
		for (i = 0; i < k; i++)
			buf_addc(&b, 'a');
		for (i = 0; i < 200; i++)
			buf_adds(&b, "\xc3\xa9");
		buf_adds(&b, "\") eq 1");
		assert_null(expr_parse(b.data, NULL, &err));
		n = strlen(err.message);
		assert_true(n > 0);
		assert_non_null(strstr(err.message, "...'"));
		for (i = 0; i < n; i++)
			if (((unsigned char)err.message[i] & 0xe0) == 0xc0 &&
			    (i + 1 == n || ((unsigned char)err.message[i + 1] &
			    0xc0) != 0x80))
				fail_msg("k %zu: a broken character at %zu", k,
				    i);
	}
	buf_free(&b);
}

static void
test_render(void **state)
{
	struct expr_error	 err;
	char			*r;

	(void)state;
	assert_null(expr_parse("http.host eq \"a\" and", NULL, &err));
	r = expr_error_render("http.host eq \"a\" and", &err);
	assert_string_equal(r, "expression:1:21: unexpected end of input: "
	    "expected a field, a function or '(' after 'and'\n"
	    "http.host eq \"a\" and\n"
	    "                    ^\n");
	free(r);

	assert_null(expr_parse("http.request.uri.path EQ \"/\"", NULL, &err));
	assert_int_equal(err.length, 2);
	r = expr_error_render("http.request.uri.path EQ \"/\"", &err);
	assert_non_null(strstr(r, "\n                      ^^\n"));
	free(r);

	/* Control characters never reach a terminal from a message or the
	 * echoed text; a broken UTF-8 byte is named. */
	refused("ssl \x1b[31m", &any_plan, 5, "a control character (\\x1b)");
	assert_null(expr_parse("ssl \x1b[31m", NULL, &err));
	r = expr_error_render("ssl \x1b[31m", &err);
	assert_string_equal(r, "expression:1:5: expected and, or, xor or the "
	    "end, found a control character (\\x1b)\nssl ?[31m\n    ^\n");
	free(r);
	refused("starts_with(http.host, r\"\x1b]0;x\") eq 1", &any_plan, 34,
	    "'starts_with(http.host, r\"?]0;x\")' is a Bool");
	refused("ssl and \xc3", &any_plan, 9, "found the byte \\xc3");
	refused("ssl and \xe0\x9e\x8b", &any_plan, 9, "found the byte \\xe0");
	refused("ssl and \xc2\x9b", &any_plan, 9, "found the byte \\xc2");
	refused("ssl and \xc3\xa9", &any_plan, 9, "found '\xc3\xa9'");
	/*
	 * Nor in a string: the API takes UTF-8 text only, so a rule holding
	 * it could never be sent. An escape writes any byte.
	 */
	refused("http.host eq \"a\xff\"", &any_plan, 16, "a string holds the "
	    "byte \\xff, which is not UTF-8 text as the API takes it "
	    "(write \\xff for that byte)");
	refused("http.host eq r#\"\xc3\"#", &any_plan, 17, "byte \\xc3");
	refused("http.host matches \"^\xed\xa0\x80\"", &any_plan, 21,
	    "byte \\xed");
	refused("http.host in {\"\xc3\xa9\" \"\xe9\"}", &any_plan, 20,
	    "byte \\xe9");
	expr_free(parse_ok("http.host eq \"\\xff\xc3\xa9\"", &any_plan));
}

/*
 * Strings in single quotes, as other languages write them: the message
 * says to use double quotes. A string left unclosed ends at the next
 * string's opening quote, and the error found past it is said at the
 * quote that opened it.
 */
static void
test_quote_hints(void **state)
{
	(void)state;
	refused("http.host eq 'a.com'", &any_plan, 14,
	    "found ''': use double quotes (\"a.com\")");
	refused("http.request.method in {'GET' 'POST'}", &any_plan, 25,
	    "use double quotes (\"GET\")");
	refused("http.request.headers['x-key'][0] eq \"k\"", &any_plan, 22,
	    "use double quotes (\"x-key\")");
	refused("http.host eq 'it\"s'", &any_plan, 14,
	    "strings take double quotes");
	refused("http.host eq \"a.com and http.request.method eq \"POST\"",
	    &any_plan, 14, "unclosed string? the string that opens here is "
	    "closed only at column 48, just before 'POST'");
	refused("http.host in {\"a \"b\"}", &any_plan, 15, "unclosed string?");
	/* At the end of the text: the opening quote, as before. */
	refused("http.host eq \"a.com", &any_plan, 14, "unterminated string");
	/* A word after a space is not a string closed too late. */
	refused("http.host eq \"a\" nd ssl", &any_plan, 18,
	    "expected and, or, xor or the end, found 'nd'");
}

/* An expression on several lines: its error by line and column. */
static void
test_render_lines(void **state)
{
	const char		*text = "http.host eq \"a.com\"\n"
	    "and http.request.method eqq \"POST\"";
	struct expr_error	 err;
	char			*r;
	int			 line, col;

	(void)state;
	assert_null(expr_parse(text, NULL, &err));
	/* The error's column counts the first line and its newline. */
	assert_int_equal(err.column, 46);
	expr_error_place(text, &err, &line, &col);
	assert_int_equal(line, 2);
	assert_int_equal(col, 25);
	r = expr_error_render(text, &err);
	assert_string_equal(r, "expression:2:25: expected an operator (eq, "
	    "ne, contains, in, ...) after 'http.request.method', found "
	    "'eqq'\n"
	    "and http.request.method eqq \"POST\"\n"
	    "                        ^^^\n");
	free(r);
	r = expr_error_where(text, &err);
	assert_string_equal(r, "line 2, column 25");
	free(r);
	/* One line: the column alone, as before. */
	assert_null(expr_parse("http.host eq", NULL, &err));
	r = expr_error_where("http.host eq", &err);
	assert_string_equal(r, "column 13");
	free(r);
	/* A character of several bytes is one column. */
	text = "http.host eq \"\xc3\xa9\" and\n ss";
	assert_null(expr_parse(text, NULL, &err));
	r = expr_error_render(text, &err);
	assert_string_equal(r, "expression:2:2: unknown field 'ss' (did you "
	    "mean ssl?)\n ss\n ^^\n");
	free(r);
}

/* ---- formatter ---------------------------------------------------------- */

static void
test_format(void **state)
{
	(void)state;
	FMT("  http.host   ==\"a\"&&ssl  ", "http.host eq \"a\" and ssl");
	FMT("http.host strict   wildcard r\"a*\"", "http.host strict wildcard "
	    "r\"a*\"");
	FMT("http.host eq \"\\x01\\\"\\\\\\x7f\\303\\251\"",
	    "http.host eq \"\\x01\\\"\\\\\\x7f\xc3\xa9\"");
	FMT("http.host eq r#\"a\"b\"#", "http.host eq r#\"a\"b\"#");
	FMT("http.host matches \"\\d+\\\"\"", "http.host matches r#\"\\d+\"\"#");
	FMT("http.host ~ \"\\d\"", "http.host matches \"\\d\"");
	FMT("ip.src.asnum in { 0x10   010 1..2 }", "ip.src.asnum in {16 8 1..2}");
	FMT("ip.src in {2001:DB8:0:0::1/64 10.0.0.1..10.0.0.2}",
	    "ip.src in {2001:db8::1/64 10.0.0.1..10.0.0.2}");
	FMT("ip.src.asnum & 3", "ip.src.asnum bitwise_and 3");
	FMT("http.request.headers [ \"a\" ] [ 0 ] eq \"b\"",
	    "http.request.headers[\"a\"][0] eq \"b\"");
	FMT("any( lower( http.request.headers.names[ * ] )[*]==\"x\" )",
	    "any(lower(http.request.headers.names[*])[*] eq \"x\")");
}

static void
test_roundtrip(void **state)
{
	static const char *const texts[] = {
		"http.request.uri.path wildcard \"/api/*\"",
		"(http.host eq \"a\" or ssl) and not (ssl xor ssl)",
		"not (ssl and (ssl or ssl xor ssl))",
		"http.host in {\"a\" \"b\\\"\" r#\"c\"#}",
		"http.request.uri.path matches r\"^/login(/|$)\"",
		"http.request.uri.path matches \"\\\\\\\"[\\\"]\"",
		"http.request.uri.path matches r##\"a\"#\"##",
		"http.host wildcard r\"\\*a\\\\\"",
		"any(http.request.headers[\"x-api-key\"][*] ne \"\")",
		"all(lower(http.request.headers.names[*])[*] in {\"a\"})",
		"ip.src in {192.0.2.0/24 2001:db8::/32 ::ffff:1.2.3.4}",
		"ip.src.asnum in {-5..-1 0x7fffffffffffffff}",
		"cidr(ip.src, 24, 64) eq 192.0.2.0",
		"lookup_json_string(http.request.body.raw, \"a\", 0, \"b\") eq "
		    "\"\"",
		"http.request.uri.args[\"q\"][0] contains \"\\x00\"",
		"true",
		"ssl or not ssl and ssl xor ssl",
		"http.host eq r\"\\x\"",
		"http.request.headers[\"\\xff\"][0] eq \"\\xfe\"",
	};
	char	*f1, *f2;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(texts); i++) {
		f1 = fmt(texts[i], &any_plan);
		f2 = fmt(f1, &any_plan);
		if (strcmp(f1, f2) != 0)
			fail_msg("'%s' -> '%s' -> '%s'", texts[i], f1, f2);
		free(f1);
		free(f2);
	}
}

/*
 * What fmt writes (expr_format_fit) is taken wherever the text was, and
 * formats to itself, and reads as the same tree (the same canonical text).
 */
static void
check_fit(const char *text, const struct expr_options *o)
{
	struct expr_error	 err;
	struct expr		*e, *e2;
	enum expr_fmt_form	 form, form2;
	char			*f1, *f2, *c1, *c2;

	if ((e = expr_parse(text, o, &err)) == NULL)
		return;
	f1 = expr_format_fit(e, &form);
	if ((e2 = expr_parse(f1, o, &err)) == NULL)
		fail_msg("fmt of '%.60s...' (%zu bytes, form %d) refused: %d: "
		    "%s", text, strlen(text), (int)form, err.column,
		    err.message);
	f2 = expr_format_fit(e2, &form2);
	if (strcmp(f1, f2) != 0)
		fail_msg("fmt of '%.60s...' is not stable (form %d then %d)",
		    text, (int)form, (int)form2);
	c1 = expr_format(e);
	c2 = expr_format(e2);
	assert_string_equal(c1, c2);
	free(c1);
	free(c2);
	free(f1);
	free(f2);
	expr_free(e);
	expr_free(e2);
}

/* text joined by joiner, as many times as 4096 characters hold. */
static char *
repeated(const char *text, const char *joiner, int paren)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		n = strlen(text) + strlen(joiner) + (paren ? 2 : 0);

	do {
		if (b.len > 0)
			buf_adds(&b, joiner);
		buf_addf(&b, paren ? "(%s)" : "%s", text);
	} while (b.len + n <= EXPR_MAX_LENGTH);
	return (buf_detach(&b, NULL));
}

/*
 * Over the fuzz target's corpus (its first byte the plan and counting, as
 * there), each text alone and repeated up to the length limit with each
 * joiner, bare and in parentheses: the canonical words then pass the
 * limit, and what fmt writes must still be taken.
 */
static void
test_fmt_fits_corpus(void **state)
{
	static const char *const joiners[] = { "&&", "||", "^^", " and ",
	    " or " };
	const char	*top = getenv("TOP_SRCDIR");
	struct expr_options o;
	char		*path, *data, *x;
	size_t		 i, j, n, seeds = 0;
	FILE		*f;
	int		 paren;

	(void)state;
	if (top == NULL)
		top = TEST_TOP_SRCDIR;
	for (i = 1; i < 100; i++) {
		assert_true(asprintf(&path, "%s/tests/fuzz/corpus/fuzz_expr/"
		    "seed%zu", top, i) > 0);
		f = fopen(path, "rb");
		free(path);
		if (f == NULL)
			continue;
		assert_non_null(data = calloc(1, 8192));
		n = fread(data, 1, 8191, f);
		fclose(f);
		assert_true(n > 0);
		o.plan = (enum expr_plan)((unsigned char)data[0] % 5);
		o.counting = ((unsigned char)data[0] & 0x80) != 0;
		check_fit(data + 1, &o);
		for (j = 0; j < nitems(joiners); j++)
			for (paren = 0; paren < 2; paren++) {
				x = repeated(data + 1, joiners[j], paren);
				check_fit(x, &o);
				free(x);
			}
		free(data);
		seeds++;
	}
	/* A corpus not found is a test that did not run. */
	assert_true(seeds >= 10);
}

/*
 * Where the canonical words pass the limit, fmt writes the short form;
 * where even that would (hexadecimal numbers are longer in decimal), the
 * text as it was.
 */
static void
test_fmt_fits_forms(void **state)
{
	struct expr		*e;
	enum expr_fmt_form	 form;
	char			*x, *f;

	(void)state;
	x = repeated("cf.client.bot", "&&", 0);
	e = parse_ok(x, &any_plan);
	f = expr_format(e);
	assert_true(strlen(f) > EXPR_MAX_LENGTH);
	free(f);
	f = expr_format_fit(e, &form);
	assert_int_equal(form, EXPR_FMT_SHORT);
	assert_string_equal(f, x);
	assert_int_equal(expr_check(f, &any_plan, NULL), 0);
	free(f);
	expr_free(e);
	free(x);

	x = repeated("http.request.method eq \"GET\" and not ssl", " or ", 1);
	e = parse_ok(x, &any_plan);
	f = expr_format_fit(e, &form);
	assert_int_equal(form, EXPR_FMT_CANONICAL);
	free(f);
	expr_free(e);
	free(x);
	x = repeated("ip.geoip.country==\"FR\"&&!ssl", "||", 0);
	e = parse_ok(x, &any_plan);
	f = expr_format_fit(e, &form);
	assert_int_equal(form, EXPR_FMT_SHORT);
	assert_non_null(strstr(f, "ip.src.country==\"FR\"&&!ssl||"
	    "ip.src.country=="));
	free(f);
	expr_free(e);
	free(x);

	x = repeated("ip.src.asnum in {0x7fffffffffffffff}", "||", 0);
	e = parse_ok(x, &any_plan);
	f = expr_format_fit(e, &form);
	assert_int_equal(form, EXPR_FMT_AS_WRITTEN);
	assert_string_equal(f, x);
	free(f);
	expr_free(e);
	free(x);
}

/* ---- scheme ------------------------------------------------------------- */

static void
test_scheme(void **state)
{
	const struct expr_symbol	*s, *all;
	enum expr_plan			 p;
	size_t				 n, i, fields = 0, funcs = 0;

	(void)state;
	all = expr_symbols(&n);
	for (i = 0; i < n; i++) {
		if (all[i].function)
			funcs++;
		else
			fields++;
		assert_non_null(all[i].summary);
	}
	assert_true(fields >= 40);
	assert_true(funcs >= 17);
	s = expr_symbol_find("http.host");
	assert_non_null(s);
	assert_string_equal(s->type, "String");
	assert_int_equal(s->plan, EXPR_PLAN_PRO);
	s = expr_symbol_find("http.request.headers");
	assert_string_equal(s->type, "Map<Array<String>>");
	s = expr_symbol_find("http.response.code");
	assert_true(s->counting_only);
	s = expr_symbol_find("lower");
	assert_true(s->function);
	assert_string_equal(s->type, "lower(String) -> String");
	assert_null(expr_symbol_find("cf.colo.id"));
	assert_null(expr_symbol_find("http.hos"));

	assert_int_equal(expr_plan_parse("Business", &p), 0);
	assert_int_equal(p, EXPR_PLAN_BUSINESS);
	assert_int_equal(expr_plan_parse("gold", &p), -1);
	assert_string_equal(expr_plan_name(EXPR_PLAN_NONE), "any");
	assert_string_equal(expr_plan_name(EXPR_PLAN_ENTERPRISE), "enterprise");
}

/* The plan's title in messages: NONE reads as Enterprise (no limits). */
static void
test_plan_title(void **state)
{
	(void)state;
	assert_string_equal(expr_plan_title(EXPR_PLAN_FREE), "Free");
	assert_string_equal(expr_plan_title(EXPR_PLAN_PRO), "Pro");
	assert_string_equal(expr_plan_title(EXPR_PLAN_BUSINESS), "Business");
	assert_string_equal(expr_plan_title(EXPR_PLAN_ENTERPRISE),
	    "Enterprise");
	assert_string_equal(expr_plan_title(EXPR_PLAN_NONE), "Enterprise");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_examples),
		cmocka_unit_test(test_invalid_examples),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_comparisons),
		cmocka_unit_test(test_true),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_wildcard),
		cmocka_unit_test(test_indexes),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_plan_title),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_message_utf8),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_quote_hints),
		cmocka_unit_test(test_render_lines),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_fmt_fits_corpus),
		cmocka_unit_test(test_fmt_fits_forms),
		cmocka_unit_test(test_scheme),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
