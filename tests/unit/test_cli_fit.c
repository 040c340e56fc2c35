/*
 * A one-shot table's widths for a terminal width: the id and the name are
 * kept, other columns go from the right before the name is cut, what is
 * left grows, and with no width known nothing is cut.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/cli.h"

static const struct kind_column fit_columns[] = {
	{ .header = "ID", .path = "id", .width = 32,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "NAME", .path = "name", .width = 18, .max = 48,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ACTION", .path = "action", .width = 17,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "RATE", .path = "rate", .width = 9,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "EXPRESSION", .path = "expression", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind fit_kind = {
	.name = "things",
	.label = "name",
	.id_field = "id",
	.columns = fit_columns,
};

/* The line a table of these widths prints, at its widest. */
static int
fit_line(const struct cli_table *t)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < t->ncols; i++)
		n += t->widths[i] + (i != 0 ? 2 : 0);
	return (n);
}

static const char *
fit_header(const struct cli_table *t, size_t i)
{
	return (i < t->ncols ? t->cols[i]->header : "(none)");
}

static void
test_fit_wide(void **state)
{
	static const int	 widest[] = { 32, 37, 6, 8, 70 };
	struct cli_table	 t;

	(void)state;
	cli_table_init(&t, &fit_kind);
	assert_int_equal(t.ncols, 5);
	cli_table_fit_widths(&t, widest, 220);
	assert_int_equal(t.ncols, 5);
	assert_true(t.cut);
	/* Each column as wide as its widest cell: nothing cut. */
	assert_int_equal(t.widths[1], 37);
	assert_int_equal(t.widths[2], 6);
	assert_int_equal(t.widths[4], 70);
	assert_true(fit_line(&t) <= 220);
}

static void
test_fit_narrow_keeps_the_name(void **state)
{
	static const int	 widest[] = { 32, 37, 17, 8, 70 };
	struct cli_table	 t;

	(void)state;
	cli_table_init(&t, &fit_kind);
	cli_table_fit_widths(&t, widest, 80);
	/* The rate and the expression went, the action did not fit. */
	assert_int_equal(t.ncols, 2);
	assert_string_equal(fit_header(&t, 0), "ID");
	assert_string_equal(fit_header(&t, 1), "NAME");
	assert_int_equal(t.widths[1], 37);
	assert_true(fit_line(&t) <= 80);

	/* Room for the action and the rate: only the expression went. */
	cli_table_init(&t, &fit_kind);
	cli_table_fit_widths(&t, widest, 100);
	assert_int_equal(t.ncols, 4);
	assert_string_equal(fit_header(&t, 2), "ACTION");
	assert_string_equal(fit_header(&t, 3), "RATE");
	assert_int_equal(t.widths[1], 37);
	assert_true(fit_line(&t) <= 100);
}

static void
test_fit_tiny_cuts_the_name_last(void **state)
{
	static const int	 widest[] = { 32, 37, 17, 8, 70 };
	struct cli_table	 t;

	(void)state;
	cli_table_init(&t, &fit_kind);
	cli_table_fit_widths(&t, widest, 50);
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.widths[0], 32);
	assert_int_equal(t.widths[1], 50 - 32 - 2);
	assert_true(t.cut);
	/* Narrower than the id: the name, then the id, at 8 at least. */
	cli_table_init(&t, &fit_kind);
	cli_table_fit_widths(&t, widest, 30);
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.widths[1], 8);
	assert_int_equal(fit_line(&t), 30);
}

static void
test_fit_no_width_cuts_nothing(void **state)
{
	static const int	 widest[] = { 32, 37, 17, 8, 120 };
	struct cli_table	 t;

	(void)state;
	cli_table_init(&t, &fit_kind);
	cli_table_fit_widths(&t, widest, 0);
	assert_false(t.cut);
	assert_int_equal(t.ncols, 5);
	assert_int_equal(t.widths[1], 37);
	assert_int_equal(t.widths[4], 120);
}

static void
test_fit_no_records(void **state)
{
	static const int	 widest[] = { -1, -1, -1, -1, -1 };
	struct cli_table	 t;

	(void)state;
	cli_table_init(&t, &fit_kind);
	cli_table_fit_widths(&t, widest, 200);
	/* The declared widths, and what is left for the last. */
	assert_int_equal(t.ncols, 5);
	assert_int_equal(t.widths[0], 32);
	assert_int_equal(t.widths[1], 48);
	assert_int_equal(t.widths[2], 17);
	assert_true(fit_line(&t) <= 200);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_wide),
		cmocka_unit_test(test_fit_narrow_keeps_the_name),
		cmocka_unit_test(test_fit_tiny_cuts_the_name_last),
		cmocka_unit_test(test_fit_no_width_cuts_nothing),
		cmocka_unit_test(test_fit_no_records),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
