/* Unit tests for yamljson: scalar typing, refusals, errors and round trips. */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "xmalloc.h"
#include "yamljson.h"

static cJSON *
parse_ok(const char *text)
{
	cJSON	*v;
	char	*cause = NULL;

	v = yamljson_parse(text, strlen(text), &cause);
	if (v == NULL) {
		print_error("parsing <<%s>>: %s\n", text, cause);
		free(cause);
		fail();
	}
	assert_null(cause);
	return (v);
}

/* The error for text of len bytes (which may hold NULs). */
static char *
parse_err_len(const char *text, size_t len)
{
	cJSON	*v;
	char	*cause = NULL, *s;

	v = yamljson_parse(text, len, &cause);
	if (v != NULL) {
		s = cJSON_PrintUnformatted(v);
		print_error("parsing <<%s>> gave %s\n", text, s);
		free(s);
		cJSON_Delete(v);
		fail();
	}
	assert_non_null(cause);
	assert_true(strncmp(cause, "line ", 5) == 0);
	return (cause);
}

static char *
parse_err(const char *text)
{
	return (parse_err_len(text, strlen(text)));
}

static void
assert_error(const char *text, const char *expected)
{
	char	*cause = parse_err(text);

	if (strcmp(cause, expected) != 0) {
		print_error("parsing <<%s>>:\n got: %s\nwant: %s\n", text,
		    cause, expected);
		free(cause);
		fail();
	}
	free(cause);
}

/* Emit t, parse it back and insist on the same tree and a stable text. */
static void
assert_round_trip(const cJSON *t)
{
	char	*y1, *y2, *cause = NULL;
	cJSON	*back;

	y1 = yamljson_emit(t);
	assert_true(strlen(y1) > 0 && y1[strlen(y1) - 1] == '\n');
	back = yamljson_parse(y1, strlen(y1), &cause);
	if (back == NULL) {
		print_error("re-parsing <<%s>>: %s\n", y1, cause);
		free(cause);
		fail();
	}
	if (!cJSON_Compare(t, back, 1)) {
		y2 = cJSON_PrintUnformatted(back);
		print_error("emitted <<%s>> read back as %s\n", y1, y2);
		free(y2);
		fail();
	}
	y2 = yamljson_emit(back);
	assert_string_equal(y1, y2);
	free(y1);
	free(y2);
	cJSON_Delete(back);
}

/* ---- typing -------------------------------------------------------------- */

enum want { W_NULL, W_TRUE, W_FALSE, W_NUMBER, W_STRING };

struct typing {
	const char	*yaml;		/* the value after "v: " */
	enum want	 want;
	double		 number;
	const char	*string;
};

static const struct typing typings[] = {
	/* null */
	{ "", W_NULL, 0, NULL },
	{ "null", W_NULL, 0, NULL },
	{ "Null", W_NULL, 0, NULL },
	{ "NULL", W_NULL, 0, NULL },
	{ "~", W_NULL, 0, NULL },
	{ "!!null \"\"", W_NULL, 0, NULL },
	{ "!!null null", W_NULL, 0, NULL },
	/* bool */
	{ "true", W_TRUE, 0, NULL },
	{ "True", W_TRUE, 0, NULL },
	{ "TRUE", W_TRUE, 0, NULL },
	{ "false", W_FALSE, 0, NULL },
	{ "False", W_FALSE, 0, NULL },
	{ "FALSE", W_FALSE, 0, NULL },
	{ "!!bool \"true\"", W_TRUE, 0, NULL },
	/* integers */
	{ "0", W_NUMBER, 0, NULL },
	{ "-0", W_NUMBER, 0, NULL },
	{ "-12", W_NUMBER, -12, NULL },
	{ "+7", W_NUMBER, 7, NULL },
	{ "8080", W_NUMBER, 8080, NULL },
	{ "0x1F", W_NUMBER, 31, NULL },
	{ "0xff", W_NUMBER, 255, NULL },
	{ "0o17", W_NUMBER, 15, NULL },
	{ "9007199254740992", W_NUMBER, 9007199254740992.0, NULL },
	{ "-9007199254740992", W_NUMBER, -9007199254740992.0, NULL },
	{ "0x20000000000000", W_NUMBER, 9007199254740992.0, NULL },
	{ "!!int \"12\"", W_NUMBER, 12, NULL },
	{ "!!int 0123", W_NUMBER, 123, NULL },
	/* floats */
	{ "1.5", W_NUMBER, 1.5, NULL },
	{ "-2e3", W_NUMBER, -2000, NULL },
	{ ".5", W_NUMBER, 0.5, NULL },
	{ "-.5", W_NUMBER, -0.5, NULL },
	{ "1.", W_NUMBER, 1, NULL },
	{ "+1.5E+2", W_NUMBER, 150, NULL },
	{ "1e-3", W_NUMBER, 0.001, NULL },
	{ "0.1", W_NUMBER, 0.1, NULL },
	{ "0e5", W_NUMBER, 0, NULL },
	{ "!!float 1", W_NUMBER, 1, NULL },
	{ "!!float 12345678901234567890", W_NUMBER, 12345678901234567890.0,
	    NULL },
	/* strings that only look like something else */
	{ "0123", W_STRING, 0, "0123" },
	{ "-012", W_STRING, 0, "-012" },
	{ "+012", W_STRING, 0, "+012" },
	{ "00", W_STRING, 0, "00" },
	{ "01.5", W_STRING, 0, "01.5" },
	{ "0123456789012345678901", W_STRING, 0, "0123456789012345678901" },
	{ "yes", W_STRING, 0, "yes" },
	{ "no", W_STRING, 0, "no" },
	{ "on", W_STRING, 0, "on" },
	{ "off", W_STRING, 0, "off" },
	{ "y", W_STRING, 0, "y" },
	{ "nULL", W_STRING, 0, "nULL" },
	{ "tRUE", W_STRING, 0, "tRUE" },
	{ "0X1F", W_STRING, 0, "0X1F" },
	{ "-0x1F", W_STRING, 0, "-0x1F" },
	{ "0O17", W_STRING, 0, "0O17" },
	{ "0o8", W_STRING, 0, "0o8" },
	{ "0x", W_STRING, 0, "0x" },
	{ "0b101", W_STRING, 0, "0b101" },
	{ "1_000", W_STRING, 0, "1_000" },
	{ "1e", W_STRING, 0, "1e" },
	{ "e5", W_STRING, 0, "e5" },
	{ ".", W_STRING, 0, "." },
	{ ".e3", W_STRING, 0, ".e3" },
	{ "1.2.3", W_STRING, 0, "1.2.3" },
	{ "1:20", W_STRING, 0, "1:20" },
	{ "2024-01-01", W_STRING, 0, "2024-01-01" },
	{ "inf", W_STRING, 0, "inf" },
	{ "nan", W_STRING, 0, "nan" },
	{ ".INf", W_STRING, 0, ".INf" },
	{ "+", W_STRING, 0, "+" },
	{ "a b  c", W_STRING, 0, "a b  c" },
	{ "http://x/y?a=b", W_STRING, 0, "http://x/y?a=b" },
	/* quoted and block scalars are always strings */
	{ "\"123\"", W_STRING, 0, "123" },
	{ "'true'", W_STRING, 0, "true" },
	{ "\"null\"", W_STRING, 0, "null" },
	{ "\"~\"", W_STRING, 0, "~" },
	{ "''", W_STRING, 0, "" },
	{ "\"\"", W_STRING, 0, "" },
	{ "'1.5'", W_STRING, 0, "1.5" },
	{ "\".inf\"", W_STRING, 0, ".inf" },
	{ "\"12345678901234567890\"", W_STRING, 0, "12345678901234567890" },
	{ "|\n  12\n", W_STRING, 0, "12\n" },
	{ ">-\n  true\n", W_STRING, 0, "true" },
	{ "|-\n  null\n", W_STRING, 0, "null" },
	/* tags that make strings */
	{ "!!str 12", W_STRING, 0, "12" },
	{ "!!str true", W_STRING, 0, "true" },
	{ "!!str", W_STRING, 0, "" },
	{ "! 12", W_STRING, 0, "12" },
	{ "!<tag:yaml.org,2002:str> 7", W_STRING, 0, "7" },
	/* escapes */
	{ "\"\\u00e9\\t\\n\"", W_STRING, 0, "\xc3\xa9\t\n" },
	{ "'it''s'", W_STRING, 0, "it's" },
};

static void
test_typing_table(void **state)
{
	const struct typing	*t;
	cJSON			*doc, *v;
	char			*text;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(typings); i++) {
		t = &typings[i];
		text = xprintf("v: %s\n", t->yaml);
		doc = parse_ok(text);
		v = cJSON_GetObjectItemCaseSensitive(doc, "v");
		assert_non_null(v);
		switch (t->want) {
		case W_NULL:
			if (!cJSON_IsNull(v))
				fail_msg("%s: not null", t->yaml);
			break;
		case W_TRUE:
			if (!cJSON_IsTrue(v))
				fail_msg("%s: not true", t->yaml);
			break;
		case W_FALSE:
			if (!cJSON_IsFalse(v))
				fail_msg("%s: not false", t->yaml);
			break;
		case W_NUMBER:
			if (!cJSON_IsNumber(v) || v->valuedouble != t->number)
				fail_msg("%s: not the number %.17g", t->yaml,
				    t->number);
			break;
		case W_STRING:
			if (!cJSON_IsString(v) ||
			    strcmp(v->valuestring, t->string) != 0)
				fail_msg("%s: not the string \"%s\"", t->yaml,
				    t->string);
			break;
		}
		cJSON_Delete(doc);
		free(text);
	}
}

static void
test_top_level_scalars(void **state)
{
	cJSON	*v;

	(void)state;
	v = parse_ok("42");
	assert_true(cJSON_IsNumber(v) && v->valuedouble == 42);
	cJSON_Delete(v);
	v = parse_ok("\"42\"\n");
	assert_true(cJSON_IsString(v));
	assert_string_equal(v->valuestring, "42");
	cJSON_Delete(v);
	v = parse_ok("--- ~\n...\n");
	assert_true(cJSON_IsNull(v));
	cJSON_Delete(v);
	/* A document may be explicitly empty. */
	v = parse_ok("---\n");
	assert_true(cJSON_IsNull(v));
	cJSON_Delete(v);
}

/* ---- refusals ------------------------------------------------------------ */

static void
test_numbers_refused(void **state)
{
	(void)state;
	assert_error("v: 12345678901234567890", "line 1, column 4: "
	    "12345678901234567890 does not fit a JSON number exactly (quote it"
	    " to keep a string)");
	assert_error("a: 1\nb:\n  - 9007199254740993\n", "line 3, column 5: "
	    "9007199254740993 does not fit a JSON number exactly (quote it to"
	    " keep a string)");
	assert_error("-9007199254740993", "line 1, column 1: "
	    "-9007199254740993 does not fit a JSON number exactly (quote it to"
	    " keep a string)");
	assert_error("0x20000000000001", "line 1, column 1: 0x20000000000001"
	    " does not fit a JSON number exactly (quote it to keep a string)");
	assert_error("0xFFFFFFFFFFFFFFFFFFFF", "line 1, column 1: "
	    "0xFFFFFFFFFFFFFFFFFFFF does not fit a JSON number exactly (quote"
	    " it to keep a string)");
	assert_error("!!int 12345678901234567890", "line 1, column 1: "
	    "12345678901234567890 does not fit a JSON number exactly (quote it"
	    " to keep a string)");
	assert_error("v: .inf", "line 1, column 4: .inf is not a JSON number"
	    " (quote it to keep a string)");
	assert_error("v: -.Inf", "line 1, column 4: -.Inf is not a JSON number"
	    " (quote it to keep a string)");
	assert_error("v: .nan", "line 1, column 4: .nan is not a JSON number"
	    " (quote it to keep a string)");
	assert_error("v: !!float .NaN", "line 1, column 4: .NaN is not a JSON"
	    " number (quote it to keep a string)");
	assert_error("v: 1e400", "line 1, column 4: 1e400 is out of range"
	    " (quote it to keep a string)");
}

static void
test_tags(void **state)
{
	(void)state;
	assert_error("v: !foo 1", "line 1, column 4: unsupported tag !foo");
	assert_error("v: !!binary aGk=",
	    "line 1, column 4: unsupported tag !!binary");
	assert_error("v: !!timestamp 2001-01-01",
	    "line 1, column 4: unsupported tag !!timestamp");
	assert_error("v: !!set {a: null}",
	    "line 1, column 4: unsupported tag !!set on a mapping");
	assert_error("v: !!map [1]",
	    "line 1, column 4: unsupported tag !!map on a sequence");
	assert_error("v: !!int abc",
	    "line 1, column 4: \"abc\" is not a valid !!int");
	assert_error("v: !!int 1.5",
	    "line 1, column 4: \"1.5\" is not a valid !!int");
	assert_error("v: !!bool yes",
	    "line 1, column 4: \"yes\" is not a valid !!bool");
	assert_error("v: !!null x",
	    "line 1, column 4: \"x\" is not a valid !!null");
	assert_error("v: !!float abc",
	    "line 1, column 4: \"abc\" is not a valid !!float");
	assert_error("!!int 1: a", "line 1, column 1: keys are strings: tag"
	    " !!int is not allowed on a key");
	cJSON_Delete(parse_ok("!!map {a: !!seq [!!str 1]}"));
	cJSON_Delete(parse_ok("!!str k: v"));
}

static void
test_duplicate_keys(void **state)
{
	struct buf	 b = BUF_INITIALIZER;
	cJSON		*v;
	int		 i;

	(void)state;
	assert_error("a: 1\nb: 2\na: 3\n",
	    "line 3, column 1: duplicate key \"a\" (first at line 1)");
	/* Quoting does not make a key different. */
	assert_error("a: 1\n'a': 2\n",
	    "line 2, column 1: duplicate key \"a\" (first at line 1)");
	assert_error("{\"x\": 1, \"y\": {\"k\": 1, \"k\": 2}}",
	    "line 1, column 24: duplicate key \"k\" (first at line 1)");
	assert_error("x:\n  - a: 1\n    b: 2\n    a: 1\n",
	    "line 4, column 5: duplicate key \"a\" (first at line 2)");
	/* The same key in different mappings is fine. */
	v = parse_ok("- a: 1\n- a: 2\n- {a: 3}\n");
	assert_int_equal(cJSON_GetArraySize(v), 3);
	cJSON_Delete(v);
	/* Many keys, then one repeated: found past the table's growth. */
	for (i = 0; i < 5000; i++)
		buf_addf(&b, "k%d: %d\n", i, i);
	v = parse_ok(buf_str(&b));
	assert_int_equal(cJSON_GetArraySize(v), 5000);
	assert_int_equal(
	    cJSON_GetObjectItemCaseSensitive(v, "k4999")->valuedouble, 4999);
	cJSON_Delete(v);
	buf_adds(&b, "k1234: again\n");
	assert_error(buf_str(&b),
	    "line 5001, column 1: duplicate key \"k1234\" (first at line"
	    " 1235)");
	buf_free(&b);
}

static void
test_non_scalar_keys(void **state)
{
	(void)state;
	assert_error("? [a]\n: 1\n",
	    "line 1, column 3: mapping keys must be scalars");
	assert_error("? {a: 1}\n: 2\n",
	    "line 1, column 3: mapping keys must be scalars");
	assert_error("{[a]: 1}",
	    "line 1, column 2: mapping keys must be scalars");
}

static void
test_deep_nesting(void **state)
{
	struct buf	 b = BUF_INITIALIZER;
	cJSON		*v;
	char		*cause;
	int		 i;

	(void)state;
	/* 128 levels are fine. */
	for (i = 0; i < 128; i++)
		buf_addc(&b, '[');
	for (i = 0; i < 128; i++)
		buf_addc(&b, ']');
	v = parse_ok(buf_str(&b));
	assert_round_trip(v);
	cJSON_Delete(v);

	buf_reset(&b);
	for (i = 0; i < 129; i++)
		buf_addc(&b, '[');
	for (i = 0; i < 129; i++)
		buf_addc(&b, ']');
	assert_error(buf_str(&b),
	    "line 1, column 129: nesting deeper than 128 levels");

	/* Block mappings count the same way. */
	buf_reset(&b);
	for (i = 0; i < 129; i++) {
		buf_addf(&b, "%*sk:\n", i, "");
	}
	buf_addf(&b, "%*sk: 1\n", 129, "");
	assert_error(buf_str(&b),
	    "line 129, column 129: nesting deeper than 128 levels");

	/* Far deeper input is an error, not a stack overflow. */
	buf_reset(&b);
	for (i = 0; i < 100000; i++)
		buf_addc(&b, '[');
	cause = parse_err(buf_str(&b));
	assert_non_null(strstr(cause, "nesting deeper than 128 levels"));
	free(cause);
	buf_free(&b);
}

static void
test_aliases(void **state)
{
	cJSON	*v;

	(void)state;
	assert_error("a: &x 1\nb: *x\n",
	    "line 2, column 4: aliases are not supported");
	/* Billion laughs stops at the first alias. */
	assert_error("a: &a [\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
	    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
	    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
	    "line 2, column 8: aliases are not supported");
	/* An anchor alone changes nothing. */
	v = parse_ok("a: &x 1\n");
	assert_int_equal(cJSON_GetObjectItem(v, "a")->valuedouble, 1);
	cJSON_Delete(v);
}

static void
test_documents(void **state)
{
	cJSON	*v;

	(void)state;
	assert_error("a: 1\n---\nb: 2\n",
	    "line 2, column 1: only one document is allowed");
	assert_error("a: 1\n...\n--- b: 2\n",
	    "line 3, column 1: only one document is allowed");
	/* libyaml wants "---" before a second document. */
	assert_error("a: 1\n...\nb: 2\n",
	    "line 3, column 1: did not find expected <document start>");
	assert_error("", "line 1, column 1: no document");
	assert_error("# only a comment\n", "line 2, column 1: no document");
	v = parse_ok("%YAML 1.2\n---\na: 1\n...\n# trailing comment\n");
	assert_int_equal(cJSON_GetObjectItem(v, "a")->valuedouble, 1);
	cJSON_Delete(v);
}

static void
test_bad_text(void **state)
{
	static const char	nul[] = "a: b\0c\n";
	char			*cause;
	cJSON			*v;

	(void)state;
	assert_error("a: \xff\n", "line 1, column 4: invalid UTF-8");
	assert_error("a: b\nc: \xc0\xaf\n", "line 2, column 4: invalid UTF-8");
	assert_error("a: \xed\xa0\x80\n", "line 1, column 4: invalid UTF-8");
	assert_error("a: \xf4\x90\x80\x80\n",
	    "line 1, column 4: invalid UTF-8");
	assert_error("\xc3\xa9\xc3\xa9: \xe2\x82",
	    "line 1, column 5: invalid UTF-8");
	/* UTF-16 is not read, even with a byte order mark. */
	assert_error("\xff\xfe" "a\0", "line 1, column 1: invalid UTF-8");
	cause = parse_err_len(nul, sizeof nul - 1);
	assert_string_equal(cause,
	    "line 1, column 5: NUL bytes are not allowed");
	free(cause);
	assert_error("a: 1\nb: \"x\\0y\"\n",
	    "line 2, column 4: NUL characters are not allowed in strings");
	assert_error("a: \"\\u0000\"",
	    "line 1, column 4: NUL characters are not allowed in strings");
	assert_error("a: 1\nb: \x01\n",
	    "line 2, column 4: control characters are not allowed");
	assert_error("a: \"x\xc2\x85y\"\n", "line 1, column 6: a raw NEL"
	    " (U+0085) is not allowed (write \\x85 in double quotes)");
	assert_error("\xef\xbb\xbf" "a: \xff\n",
	    "line 1, column 4: invalid UTF-8");
	assert_error("\xef\xbb\xbf" "a: \x01\n",
	    "line 1, column 4: control characters are not allowed");
	/* A UTF-8 byte order mark is fine. */
	v = parse_ok("\xef\xbb\xbf" "a: 1\n");
	assert_int_equal(cJSON_GetObjectItem(v, "a")->valuedouble, 1);
	cJSON_Delete(v);
}

static void
test_syntax_errors(void **state)
{
	(void)state;
	assert_error("a: b: c",
	    "line 1, column 5: mapping values are not allowed in this context");
	assert_error("a:\n  b: c\n d: e\n",
	    "line 3, column 2: did not find expected key (while parsing a block"
	    " mapping at line 1, column 1)");
	assert_error("a: \"abc", "line 1, column 8: found unexpected end of"
	    " stream (while scanning a quoted scalar at line 1, column 4)");
	assert_error("a:\n\tb: 1\n", "line 2, column 1: found character that"
	    " cannot start any token (while scanning for the next token at"
	    " line 2, column 1)");
	assert_error("x: [1,\n  2\n", "line 3, column 1: did not find expected"
	    " ',' or ']' (while parsing a flow sequence at line 1, column 4)");
}

/* ---- JSON is YAML -------------------------------------------------------- */

static void
test_json_is_yaml(void **state)
{
	static const char *const docs[] = {
		"{}",
		"[]",
		"\"just a string\"",
		"-1.25e-3",
		"null",
		"{\"a\": 1, \"b\": [true, false, null, \"x\\/y\"],"
		    " \"c\": 1.5e3, \"d\": \"\\u00e9\\n\\t\\\"q\\\"\\\\\","
		    " \"e\": {\"f\": []}}",
		"{\n\t\"name\": \"web\",\n\t\"ports\": [80, 443],\n\t\"ratio\":"
		    " 0.1,\n\t\"id\": \"0123\",\n\t\"n\": -0\n}",
		"[{\"k\":\"123\"},{\"k\":123},{\"k\":\"true\"},{\"k\":true},"
		    "{\"k\":\"\"},{\"k\":\"null\"},{\"k\":null},{\"k\":1E2}]",
		"{\"unicode\":\"\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x8e\x89\","
		    "\"esc\":\"\\b\\f\\r\\u0001\"}",
		"[[[[1]]],{\"a\":{\"b\":{\"c\":{}}}}]",
	};
	cJSON	*ours, *theirs;
	char	*a, *b;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(docs); i++) {
		ours = parse_ok(docs[i]);
		theirs = cJSON_Parse(docs[i]);
		assert_non_null(theirs);
		assert_true(cJSON_Compare(ours, theirs, 1));
		a = cJSON_PrintUnformatted(ours);
		b = cJSON_PrintUnformatted(theirs);
		assert_string_equal(a, b);
		free(a);
		free(b);
		assert_round_trip(ours);
		cJSON_Delete(ours);
		cJSON_Delete(theirs);
	}
}

/* ---- emit and round trips ------------------------------------------------ */

static const char *const nasty[] = {
	"123", "-12", "1.5", "1e3", "0x10", "0o7", "0123", ".5", "1.",
	"true", "False", "null", "NULL", "~", "", ".inf", "-.Inf", ".nan",
	"12345678901234567890", "yes", "no", "on",
	" x", "x ", " ", "  ", "a: b", "a:", "a:b", "::", "#x", "a #b", "a#b",
	"-", "- x", "-x", "--", "---", "--- x", "...", "... x", "?", "? x",
	":x", ",x", "[x]", "{x}", "]", "}", "&a", "*a", "!a", "|", ">", "'q'",
	"\"q\"", "%x", "@x", "`x", "x'y", "x\"y", "back\\slash", "a, b",
	"\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x8e\x89",
	"\t", "a\tb", "\r", "a\r\nb", "\x01\x1f\x7f", "bell\a",
	"\xc2\x85nel", "\xc2\x80", "ls\xe2\x80\xa8ps\xe2\x80\xa9",
	"\xef\xbb\xbf" "bom", "\xef\xbf\xbe",
	"line1\nline2\n", "line1\nline2", "line1\n\n", "line1\n\n\n",
	"\n", "\n\n", "\nx", "\n\nx\n", "  lead\nx", "x\n  y", " \nx",
	"trail \nx", "x\ntrail ", "tab\n\tx", "#c\n---\n...\n- x\n",
	"a: b\nc: d\n", "\"\n'", "\xc2\xa0nbsp\xc2\xa0",
};

static void
test_round_trip_strings(void **state)
{
	cJSON	*t, *obj, *arr;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(nasty); i++) {
		t = cJSON_CreateString(nasty[i]);
		assert_round_trip(t);
		cJSON_Delete(t);

		obj = cJSON_CreateObject();
		cJSON_AddStringToObject(obj, nasty[i], nasty[i]);
		cJSON_AddStringToObject(obj, "after", nasty[i]);
		assert_round_trip(obj);

		arr = cJSON_CreateArray();
		cJSON_AddItemToArray(arr, cJSON_CreateString(nasty[i]));
		cJSON_AddItemToArray(arr, obj);
		cJSON_AddItemToArray(arr, cJSON_CreateString(nasty[i]));
		t = cJSON_CreateObject();
		cJSON_AddItemToObject(t, nasty[i], arr);
		assert_round_trip(t);
		cJSON_Delete(t);
	}
}

static void
test_round_trip_structures(void **state)
{
	static const char *const docs[] = {
		"{\"a\":[[],[[]],{},[{}],[[1,2],[3,[4,{\"x\":[]}]]]],\"b\":{}}",
		"[{\"a\":{\"b\":[{\"c\":\"line\\n\"},{\"d\":\"  sp\\nx\"}]}},"
		    "[[\"multi\\nline\"]],{\"\":\"\",\" \":\" \"}]",
		"{\"z\":1,\"a\":2,\"m\":3,\"b\":{\"y\":1,\"c\":2}}",
		"[0.1,1e300,-1e-300,9007199254740992,9007199254740994,1e20,"
		    "-0.0,123456.789,5e-324,1.7976931348623157e308,"
		    "0.30000000000000004,-9007199254740994,4.35,100]",
	};
	cJSON	*t;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(docs); i++) {
		t = cJSON_Parse(docs[i]);
		assert_non_null(t);
		assert_round_trip(t);
		cJSON_Delete(t);
	}
}

/* cJSON_Compare forgives a rounding error; numbers must survive exactly. */
static void
test_numbers_exact(void **state)
{
	static const double	 values[] = { 0.1, 1.0 / 3, 2.0 / 3, 1e300,
	    -1e-300, 5e-324, 1.7976931348623157e308, 9007199254740992.0,
	    9007199254740994.0, 18014398509481984.0, 1e20, 123456.789,
	    0.30000000000000004, 4.35, -2.5, 1e15 + 0.5, 3.0e-7, 100 };
	cJSON			*t, *back;
	char			*y, *cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(values); i++) {
		t = cJSON_CreateNumber(values[i]);
		y = yamljson_emit(t);
		back = yamljson_parse(y, strlen(y), &cause);
		if (back == NULL)
			fail_msg("%.17g as <<%s>>: %s", values[i], y, cause);
		if (!cJSON_IsNumber(back) || back->valuedouble != values[i])
			fail_msg("%.17g came back as <<%s>>", values[i], y);
		free(y);
		cJSON_Delete(t);
		cJSON_Delete(back);
	}
}

static void
assert_emits(const cJSON *t, const char *want)
{
	char	*y = yamljson_emit(t);

	if (strcmp(y, want) != 0) {
		print_error("got:\n%s--\nwant:\n%s--\n", y, want);
		free(y);
		fail();
	}
	free(y);
	assert_round_trip(t);
}

static void
test_emit_format(void **state)
{
	cJSON	*t;

	(void)state;
	t = cJSON_Parse("{\"name\":\"web\",\"port\":8080,\"enabled\":true,"
	    "\"ratio\":0.25,\"tags\":[\"a\",\"b c\"],\"owner\":null,"
	    "\"meta\":{},\"list\":[],\"id\":\"0123\",\"code\":\"123\","
	    "\"flag\":\"true\",\"empty\":\"\",\"note\":\"line1\\nline2\\n\","
	    "\"indented\":\"  x\\ny\",\"rules\":[{\"path\":\"/api\","
	    "\"limit\":10},{\"path\":\"/\",\"limit\":null,\"hosts\":[]}],"
	    "\"matrix\":[[1,2],[]],\"big\":1e20,\"tab\":\"a\\tb\","
	    "\"has: colon\":\"#hash\",\"last\":-1.5}");
	assert_non_null(t);
	assert_emits(t,
	    "name: web\n"
	    "port: 8080\n"
	    "enabled: true\n"
	    "ratio: 0.25\n"
	    "tags:\n"
	    "  - a\n"
	    "  - b c\n"
	    "owner: null\n"
	    "meta: {}\n"
	    "list: []\n"
	    "id: \"0123\"\n"
	    "code: \"123\"\n"
	    "flag: \"true\"\n"
	    "empty: \"\"\n"
	    "note: |\n"
	    "  line1\n"
	    "  line2\n"
	    "indented: |2-\n"
	    "    x\n"
	    "  y\n"
	    "rules:\n"
	    "  - path: /api\n"
	    "    limit: 10\n"
	    "  - path: /\n"
	    "    limit: null\n"
	    "    hosts: []\n"
	    "matrix:\n"
	    "  - - 1\n"
	    "    - 2\n"
	    "  - []\n"
	    "big: 1e+20\n"
	    "tab: \"a\\tb\"\n"
	    "\"has: colon\": \"#hash\"\n"
	    "last: -1.5\n");
	cJSON_Delete(t);

	t = cJSON_CreateString("x");
	assert_emits(t, "x\n");
	cJSON_Delete(t);
	t = cJSON_CreateNumber(9007199254740994.0);
	assert_emits(t, "9007199254740994.0\n");
	cJSON_Delete(t);
	t = cJSON_CreateArray();
	assert_emits(t, "[]\n");
	cJSON_Delete(t);
	t = cJSON_CreateObject();
	assert_emits(t, "{}\n");
	cJSON_Delete(t);
	t = cJSON_CreateString("a\nb\n\n");
	assert_emits(t, "|+\n  a\n  b\n\n");
	cJSON_Delete(t);
	t = cJSON_CreateString("ctl\x01\xc2\x85\xe2\x80\xa8\xef\xbb\xbf");
	assert_emits(t, "\"ctl\\x01\\x85\\u2028\\uFEFF\"\n");
	cJSON_Delete(t);
}

/* libyaml reads a simple key up to 1024 characters; longer ones use "? ". */
static void
test_long_keys(void **state)
{
	struct buf	 b = BUF_INITIALIZER;
	cJSON		*t, *inner, *arr;
	char		*y;

	(void)state;
	while (b.len < 2000)
		buf_adds(&b, "key ");
	t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, buf_str(&b), "v");
	inner = cJSON_AddObjectToObject(t, "nested");
	cJSON_AddNumberToObject(inner, buf_str(&b), 1);
	cJSON_AddStringToObject(inner, "after", "x");
	cJSON_AddItemToObject(t, "\x01" "ctl", cJSON_CreateString("y"));
	cJSON_AddItemToObject(inner, "\"quoted\" long", cJSON_CreateObject());
	/* A literal block as the value of a long key. */
	buf_adds(&b, "2");
	cJSON_AddStringToObject(t, buf_str(&b), "line1\n  line2\n");
	/* A long key that needs no quotes. */
	buf_reset(&b);
	while (b.len < 1500)
		buf_adds(&b, "plain");
	cJSON_AddItemToObject(inner, buf_str(&b), cJSON_CreateString(" x\ny"));
	buf_reset(&b);
	while (b.len < 2000)
		buf_adds(&b, "key ");
	y = yamljson_emit(t);
	assert_true(strncmp(y, "? \"key key", 10) == 0);
	assert_non_null(strstr(y, "\n  ? plainplain"));
	assert_non_null(strstr(y, " key 2\n: |\n  line1\n    line2\n"));
	assert_non_null(strstr(y, "\n: v\n"));
	free(y);
	assert_round_trip(t);

	/* First key of a mapping inside a sequence, with nested values. */
	arr = cJSON_CreateArray();
	inner = cJSON_CreateObject();
	cJSON_AddItemToObject(inner, buf_str(&b), cJSON_Duplicate(t, 1));
	cJSON_AddItemToArray(arr, inner);
	cJSON_AddItemToArray(arr, cJSON_Duplicate(t, 1));
	assert_round_trip(arr);
	cJSON_Delete(arr);
	cJSON_Delete(t);
	buf_free(&b);
}

/* Invalid UTF-8 from a server cannot be YAML: it becomes U+FFFD. */
static void
test_emit_invalid_utf8(void **state)
{
	cJSON	*t, *back;
	char	*y;

	(void)state;
	t = cJSON_CreateString("a\xff" "b");
	y = yamljson_emit(t);
	assert_string_equal(y, "\"a\xef\xbf\xbd" "b\"\n");
	back = parse_ok(y);
	assert_string_equal(back->valuestring, "a\xef\xbf\xbd" "b");
	free(y);
	cJSON_Delete(back);
	cJSON_Delete(t);
}

/* A comma decimal point in the locale must not leak into YAML. */
static void
test_locale(void **state)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8",
	    "fr_FR.UTF-8", "fr_FR.utf8", "de_DE", "fr_FR" };
	cJSON	*t, *v;
	char	*y;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(names); i++) {
		if (setlocale(LC_NUMERIC, names[i]) != NULL)
			break;
	}
	if (i == nitems(names) ||
	    strcmp(localeconv()->decimal_point, ".") == 0) {
		setlocale(LC_NUMERIC, "C");
		skip();
	}
	t = cJSON_CreateNumber(1.25);
	y = yamljson_emit(t);
	v = parse_ok("x: 1.5\n");
	setlocale(LC_NUMERIC, "C");
	assert_string_equal(y, "1.25\n");
	assert_true(cJSON_GetObjectItem(v, "x")->valuedouble == 1.5);
	free(y);
	cJSON_Delete(t);
	cJSON_Delete(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typing_table),
		cmocka_unit_test(test_top_level_scalars),
		cmocka_unit_test(test_numbers_refused),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_non_scalar_keys),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_documents),
		cmocka_unit_test(test_bad_text),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_json_is_yaml),
		cmocka_unit_test(test_round_trip_strings),
		cmocka_unit_test(test_round_trip_structures),
		cmocka_unit_test(test_numbers_exact),
		cmocka_unit_test(test_emit_format),
		cmocka_unit_test(test_long_keys),
		cmocka_unit_test(test_emit_invalid_utf8),
		cmocka_unit_test(test_locale),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
