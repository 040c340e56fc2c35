/*
 * Unit tests for exprtext.c, the model of the console's expression editor:
 * UTF-8 never cut, line moves keeping their column, an error's column
 * found across lines, and which names Tab completes to.
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

#include "common.h"
#include "exprtext.h"

static void
test_utf8_edits(void **state)
{
	struct exprtext	t;

	(void)state;
	exprtext_init(&t, "a\xc3\xa9z");	/* aéz */
	assert_int_equal(t.pos, 4);
	exprtext_left(&t);
	exprtext_left(&t);
	/* Before é, not inside it. */
	assert_int_equal(t.pos, 1);
	assert_int_equal(exprtext_delete(&t), 1);
	assert_string_equal(t.buf, "az");
	assert_int_equal(exprtext_insert_char(&t, 0x20ac), 1);	/* € */
	assert_string_equal(t.buf, "a\xe2\x82\xacz");
	assert_int_equal(t.pos, 4);
	assert_int_equal(exprtext_backspace(&t), 1);
	assert_string_equal(t.buf, "az");
	/* Control characters and tabs are not text. */
	assert_int_equal(exprtext_insert_char(&t, '\t'), 0);
	assert_int_equal(exprtext_insert_char(&t, 0x9b), 0);
	assert_int_equal(exprtext_insert_char(&t, 0xd800), 0);
	assert_string_equal(t.buf, "az");
	/* A set text cut at the limit keeps no half character. */
	exprtext_free(&t);
}

static void
test_limit(void **state)
{
	struct exprtext	 t;
	char		*big;

	(void)state;
	big = malloc(EXPRTEXT_MAX + 8);
	assert_non_null(big);
	memset(big, 'x', EXPRTEXT_MAX - 1);
	memcpy(big + EXPRTEXT_MAX - 1, "\xc3\xa9", 3);
	exprtext_init(&t, big);
	assert_int_equal(t.len, EXPRTEXT_MAX - 1);
	assert_int_equal(exprtext_insert_char(&t, 0xe9), 0);
	assert_int_equal(exprtext_insert_char(&t, 'y'), 1);
	assert_int_equal(exprtext_insert_char(&t, 'y'), 0);
	assert_int_equal(t.len, EXPRTEXT_MAX);
	exprtext_free(&t);
	free(big);
}

static void
test_lines(void **state)
{
	struct exprtext	t;
	size_t		line, col;

	(void)state;
	exprtext_init(&t, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 x\nab\nabcdefgh");
	/* At the end: line 2, column 8. */
	exprtext_where(&t, t.pos, &line, &col);
	assert_int_equal(line, 2);
	assert_int_equal(col, 8);
	exprtext_left(&t);
	exprtext_left(&t);		/* column 6 */
	exprtext_up(&t);		/* "ab" is shorter: its end */
	exprtext_where(&t, t.pos, &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 2);
	exprtext_up(&t);		/* column 6 again, in characters */
	exprtext_where(&t, t.pos, &line, &col);
	assert_int_equal(line, 0);
	assert_int_equal(col, 6);
	assert_int_equal(t.pos, 10);
	exprtext_up(&t);
	assert_int_equal(t.pos, 0);
	exprtext_down(&t);
	exprtext_down(&t);
	exprtext_down(&t);
	assert_int_equal(t.pos, t.len);
	exprtext_home(&t);
	exprtext_where(&t, t.pos, &line, &col);
	assert_int_equal(line, 2);
	assert_int_equal(col, 0);
	/* A newline splits the line; backspace joins it again. */
	exprtext_right(&t);
	assert_int_equal(exprtext_newline(&t), 1);
	exprtext_where(&t, t.pos, &line, &col);
	assert_int_equal(line, 3);
	assert_int_equal(col, 0);
	assert_int_equal(exprtext_backspace(&t), 1);
	assert_string_equal(t.buf + t.len - 8, "abcdefgh");
	exprtext_end(&t);
	exprtext_home(&t);
	assert_int_equal(exprtext_kill_line(&t), 1);
	assert_int_equal(t.buf[t.len - 1], '\n');
	assert_int_equal(exprtext_kill_line(&t), 0);
	exprtext_free(&t);
}

static void
test_kill_word(void **state)
{
	struct exprtext	t;

	(void)state;
	exprtext_init(&t, "ip.src eq 1.2.3.4  ");
	assert_int_equal(exprtext_kill_word(&t), 1);
	assert_string_equal(t.buf, "ip.src eq ");
	exprtext_free(&t);
}

/* The column of struct expr_error counts characters and line breaks. */
static void
test_column(void **state)
{
	const char	*s = "http.host eq \"\xc3\xa9\"\nand ip.srcc eq 1";
	struct exprtext	 t;
	size_t		 off, line, col;

	(void)state;
	assert_int_equal(exprtext_column_offset(s, 1), 0);
	/* Column 22: 'i' of ip.srcc (the é is one character). */
	off = exprtext_column_offset(s, 22);
	assert_int_equal(s[off], 'i');
	exprtext_init(&t, s);
	exprtext_where(&t, off, &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 4);
	assert_int_equal(exprtext_column_offset(s, 999), strlen(s));
	exprtext_free(&t);
}

static void
test_complete(void **state)
{
	const struct expr_symbol	*c[64];
	struct expr_options		 o;
	struct exprtext			 t;
	size_t				 n, i;

	(void)state;
	memset(&o, 0, sizeof o);
	exprtext_init(&t, "http.request.uri.pa");
	n = exprtext_complete(&t, &o, c, nitems(c));
	assert_true(n >= 2);	/* path, path.extension */
	for (i = 0; i < n; i++)
		assert_memory_equal(c[i]->name, "http.request.uri.pa", 19);
	assert_int_equal(exprtext_extend(&t, c, n), 1);
	assert_string_equal(t.buf, "http.request.uri.path");
	/* Nothing more in common: unchanged, the list is shown. */
	n = exprtext_complete(&t, &o, c, nitems(c));
	assert_int_equal(exprtext_extend(&t, c, n), 0);
	assert_non_null(c[0]->type);

	/* A function comes with "("; completion works after an operator. */
	exprtext_set(&t, "a and low");
	n = exprtext_complete(&t, &o, c, nitems(c));
	assert_int_equal(n, 1);
	assert_true(c[0]->function);
	assert_int_equal(exprtext_extend(&t, c, n), 1);
	assert_string_equal(t.buf, "a and lower(");

	/* Response fields only in a counting expression. */
	exprtext_set(&t, "http.response.co");
	assert_int_equal(exprtext_complete(&t, &o, c, nitems(c)), 0);
	o.counting = 1;
	n = exprtext_complete(&t, &o, c, nitems(c));
	assert_int_equal(n, 1);
	assert_string_equal(c[0]->name, "http.response.code");

	/* The plan: ip.src is Business and above. */
	o.counting = 0;
	o.plan = EXPR_PLAN_FREE;
	exprtext_set(&t, "ip.sr");
	assert_int_equal(exprtext_complete(&t, &o, c, nitems(c)), 0);
	o.plan = EXPR_PLAN_BUSINESS;
	n = exprtext_complete(&t, &o, c, nitems(c));
	assert_int_equal(n, 1);
	assert_string_equal(c[0]->name, "ip.src");

	/* The word ends at the cursor, not at the end of the text. */
	exprtext_set(&t, "ip.sr eq 1");
	for (i = 0; i < 5; i++)
		exprtext_left(&t);
	assert_int_equal(exprtext_complete(&t, &o, c, nitems(c)), 1);
	assert_int_equal(exprtext_accept(&t, c[0]), 1);
	assert_string_equal(t.buf, "ip.src eq 1");
	exprtext_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_edits),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_kill_word),
		cmocka_unit_test(test_column),
		cmocka_unit_test(test_complete),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
