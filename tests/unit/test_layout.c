/*
 * Unit tests for a list's column widths (ui/panels/layout.c): columns
 * dropped from the right on a narrow screen, the width-0 column taking
 * what is left, and a column with a max (the rules' DESCRIPTION) sharing
 * the room once every column shows, never past its max.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "common.h"
#include "kind.h"
#include "rows.h"
#include "panels/layout.h"

/* The columns the console's rules list shows: the default ones, the id. */
static size_t
rules_columns(const struct kind_column **cols)
{
	const struct kind		*k = &kind_rate_limit_rules;
	const struct kind_column	*c;
	size_t				 n = 0;

	for (c = k->columns; c->header != NULL; c++)
		if (c->flags & KIND_COL_DEFAULT)
			cols[n++] = c;
	cols[n] = kind_column_find(k, k->id_field);
	assert_non_null(cols[n]);
	return (n + 1);
}

static int
column(const struct kind_column **cols, size_t n, const char *header)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(cols[i]->header, header) == 0)
			return ((int)i);
	fail_msg("no column %s", header);
	return (-1);
}

/* Cursor, cells and the space after each but the last: at most w. */
static int
row_width(const int *widths, size_t n)
{
	int	x = 2, end = 2;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (widths[i] == 0)
			continue;
		end = x + widths[i];
		x = end + 1;
	}
	return (end);
}

static void
test_rules_80(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);

	(void)state;
	layout_widths(cols, n, 80, w);
	/* As it always was: the expression and the rest do not fit. */
	assert_int_equal(w[column(cols, n, "#")], 3);
	assert_int_equal(w[column(cols, n, "DESCRIPTION")], 18);
	assert_int_equal(w[column(cols, n, "ACTION")], 17);
	assert_int_equal(w[column(cols, n, "ENABLED")], 7);
	assert_int_equal(w[column(cols, n, "CHARACTERISTICS")], 0);
	assert_int_equal(w[column(cols, n, "EXPRESSION")], 0);
	assert_int_equal(w[column(cols, n, "ID")], 0);
}

static void
test_rules_120(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);

	(void)state;
	/* The id does not fit: DESCRIPTION stays, EXPRESSION takes the rest. */
	layout_widths(cols, n, 120, w);
	assert_int_equal(w[column(cols, n, "DESCRIPTION")], 18);
	assert_int_equal(w[column(cols, n, "EXPRESSION")], 33);
	assert_int_equal(w[column(cols, n, "ID")], 0);
	assert_int_equal(row_width(w, n), 119);
}

static void
test_rules_200(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);
	int				 d, e;

	(void)state;
	layout_widths(cols, n, 200, w);
	d = w[column(cols, n, "DESCRIPTION")];
	e = w[column(cols, n, "EXPRESSION")];
	/* "Login form: block credential stuffing" (37) whole. */
	assert_true(d >= 37);
	assert_true(e >= LAYOUT_FLEX_MIN);
	assert_int_equal(w[column(cols, n, "ID")], 32);
	assert_int_equal(w[column(cols, n, "ACTION")], 17);
	assert_true(row_width(w, n) <= 200);
	assert_true(row_width(w, n) >= 199);
	/* Half and half of the 48 columns left once all fit. */
	assert_int_equal(d, 18 + 24);
	assert_int_equal(e, LAYOUT_FLEX_MIN + 24);
}

static void
test_max_holds(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);
	int				 d;

	(void)state;
	layout_widths(cols, n, 400, w);
	d = column(cols, n, "DESCRIPTION");
	assert_int_equal(w[d], cols[d]->max);
	/* The rest goes to the expression: the row is as wide as the screen. */
	assert_true(row_width(w, n) >= 399 && row_width(w, n) <= 400);
}

static void
test_no_flex(void **state)
{
	static const struct kind_column	a = { .header = "A", .width = 10 };
	static const struct kind_column	b = { .header = "B", .width = 10,
					    .max = 30 };
	static const struct kind_column	c = { .header = "C", .width = 5,
					    .max = 100 };
	const struct kind_column	*cols[] = { &a, &b, &c };
	int				 w[3];

	(void)state;
	/* Without a width-0 column, those with a max share all the room. */
	layout_widths(cols, 3, 60, w);
	assert_int_equal(w[0], 10);
	assert_int_equal(w[1], 10 + 15);
	assert_int_equal(w[2], 5 + 15);
	/* Too narrow for C: dropped, and nothing grows. */
	layout_widths(cols, 3, 25, w);
	assert_int_equal(w[0], 10);
	assert_int_equal(w[1], 10);
	assert_int_equal(w[2], 0);
	/* No max: fixed, whatever the width. */
	cols[1] = &a;
	cols[2] = &a;
	layout_widths(cols, 3, 200, w);
	assert_int_equal(w[0], 10);
	assert_int_equal(w[1], 10);
	assert_int_equal(w[2], 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_80),
		cmocka_unit_test(test_rules_120),
		cmocka_unit_test(test_rules_200),
		cmocka_unit_test(test_max_holds),
		cmocka_unit_test(test_no_flex),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
