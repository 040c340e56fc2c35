/*
 * Unit tests for a list's column widths (ui/panels/layout.c): columns kept
 * by priority on a narrow screen (the rules' description, then their
 * expression, then the rest; the id last), the room going to the higher
 * priorities first, a column never past its max, the width-0 column
 * taking what is left.
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
	int				 d;

	(void)state;
	layout_widths(cols, n, 80, w);
	/* The name whole ("Login form: block credential stuffing", 37), the
	 * expression, and nothing else. */
	d = column(cols, n, "DESCRIPTION");
	assert_int_equal(w[column(cols, n, "#")], 3);
	assert_int_equal(w[d], cols[d]->max);
	assert_true(w[d] >= 37);
	assert_int_equal(w[column(cols, n, "EXPRESSION")], LAYOUT_FLEX_MIN);
	assert_int_equal(w[column(cols, n, "ACTION")], 0);
	assert_int_equal(w[column(cols, n, "RATE")], 0);
	assert_int_equal(w[column(cols, n, "TIMEOUT")], 0);
	assert_int_equal(w[column(cols, n, "ENABLED")], 0);
	assert_int_equal(w[column(cols, n, "CHARACTERISTICS")], 0);
	assert_int_equal(w[column(cols, n, "ID")], 0);
	assert_true(row_width(w, n) <= 80);
}

static void
test_rules_120(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);
	int				 d;

	(void)state;
	/* Then the action, rate and state; the timeout, characteristics and
	 * id wait for the expression to have its room. */
	layout_widths(cols, n, 120, w);
	d = column(cols, n, "DESCRIPTION");
	assert_int_equal(w[d], cols[d]->max);
	assert_true(w[column(cols, n, "EXPRESSION")] >= LAYOUT_FLEX_MIN);
	assert_int_equal(w[column(cols, n, "ACTION")], 17);
	assert_int_equal(w[column(cols, n, "RATE")], 9);
	assert_int_equal(w[column(cols, n, "ENABLED")], 7);
	assert_int_equal(w[column(cols, n, "TIMEOUT")], 0);
	assert_int_equal(w[column(cols, n, "CHARACTERISTICS")], 0);
	assert_int_equal(w[column(cols, n, "ID")], 0);
	assert_true(row_width(w, n) >= 119 && row_width(w, n) <= 120);
}

static void
test_rules_140(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);
	int				 e;

	(void)state;
	/* The room past the name goes to the expression. */
	layout_widths(cols, n, 140, w);
	e = column(cols, n, "EXPRESSION");
	assert_int_equal(w[column(cols, n, "DESCRIPTION")], 40);
	assert_true(w[e] > LAYOUT_FLEX_MIN && w[e] < cols[e]->max);
	assert_int_equal(w[column(cols, n, "TIMEOUT")], 0);
	assert_int_equal(w[column(cols, n, "ID")], 0);
	assert_true(row_width(w, n) >= 139 && row_width(w, n) <= 140);
}

static void
test_rules_200(void **state)
{
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	int				 w[ROWS_MAX_COLUMNS];
	size_t				 n = rules_columns(cols);
	int				 e;

	(void)state;
	layout_widths(cols, n, 200, w);
	e = column(cols, n, "EXPRESSION");
	assert_int_equal(w[column(cols, n, "DESCRIPTION")], 40);
	assert_int_equal(w[column(cols, n, "TIMEOUT")], 8);
	assert_int_equal(w[column(cols, n, "CHARACTERISTICS")], 15);
	/* No id beside an expression short of its room. */
	assert_int_equal(w[column(cols, n, "ID")], 0);
	assert_true(w[e] >= cols[e]->max);
	assert_true(row_width(w, n) >= 199 && row_width(w, n) <= 200);
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
	/* Room enough for the id; the rest goes to the expression. */
	assert_int_equal(w[column(cols, n, "ID")], 32);
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
	/* Too narrow for C: dropped. */
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

static void
test_priorities(void **state)
{
	static const struct kind_column	a = { .header = "A", .width = 20 };
	static const struct kind_column	b = { .header = "B", .width = 20,
					    .priority = KIND_COL_NAME };
	static const struct kind_column	c = { .header = "C", .width = 0,
					    .max = 40 };
	static const struct kind_column	d = { .header = "D", .width = 10,
					    .priority = KIND_COL_ID };
	const struct kind_column	*cols[] = { &a, &b, &c, &d };
	int				 w[4];

	(void)state;
	/* Narrow: the column of higher priority stays, not the first. */
	layout_widths(cols, 4, 40, w);
	assert_int_equal(w[0], 0);
	assert_int_equal(w[1], 20);
	assert_int_equal(w[2], 0);
	assert_int_equal(w[3], 0);
	/* C at its least, D waits for C to have its 40. */
	layout_widths(cols, 4, 2 + 21 + 21 + 33 + 11, w);
	assert_int_equal(w[0], 20);
	assert_int_equal(w[1], 20);
	assert_int_equal(w[2], LAYOUT_FLEX_MIN + 11);
	assert_int_equal(w[3], 0);
	layout_widths(cols, 4, 2 + 21 + 21 + 41 + 11, w);
	assert_int_equal(w[2], 40);
	assert_int_equal(w[3], 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_80),
		cmocka_unit_test(test_rules_120),
		cmocka_unit_test(test_rules_140),
		cmocka_unit_test(test_rules_200),
		cmocka_unit_test(test_max_holds),
		cmocka_unit_test(test_no_flex),
		cmocka_unit_test(test_priorities),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
