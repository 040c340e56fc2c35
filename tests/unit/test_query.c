/* Unit tests for query-string parsing and typed reads. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "query.h"

static struct query
parse_ok(const char *raw)
{
	struct query	 q;
	char		*cause = NULL;

	if (query_parse(&q, raw, &cause) != 0)
		fail_msg("'%s' refused: %s", raw, cause);
	return (q);
}

static char *
parse_fail(const char *raw)
{
	struct query	 q;
	char		*cause = NULL;

	assert_int_equal(query_parse(&q, raw, &cause), -1);
	assert_non_null(cause);
	assert_null(q.v);
	return (cause);
}

static void
test_decoding(void **state)
{
	struct query	q;

	(void)state;
	q = parse_ok("endpoint=%2Fapi%2Fv1%2F%7Bid%7D&name=a+b&empty=&flag");
	assert_int_equal(q.n, 4);
	assert_string_equal(query_get(&q, "endpoint"), "/api/v1/{id}");
	assert_string_equal(query_get(&q, "name"), "a b");
	assert_string_equal(query_get(&q, "empty"), "");
	assert_string_equal(query_get(&q, "flag"), "");
	assert_null(query_get(&q, "missing"));
	query_free(&q);

	/* Keys are decoded too, and empty pieces are skipped. */
	q = parse_ok("&&ho%73t%5B%5D=a.example&&");
	assert_int_equal(q.n, 1);
	assert_string_equal(query_get(&q, "host"), "a.example");
	query_free(&q);

	q = parse_ok("s=%C3%A9t%C3%A9");
	assert_string_equal(query_get(&q, "s"), "\xc3\xa9t\xc3\xa9");
	query_free(&q);
}

static void
test_refusals(void **state)
{
	char	*cause;

	(void)state;
	cause = parse_fail("a=%zz");
	assert_non_null(strstr(cause, "percent-escape"));
	free(cause);
	cause = parse_fail("a=%4");
	assert_non_null(strstr(cause, "truncated"));
	free(cause);
	free(parse_fail("a=%"));
	cause = parse_fail("a=%00b");
	assert_non_null(strstr(cause, "NUL"));
	free(cause);
	cause = parse_fail("a=%ff%fe");
	assert_non_null(strstr(cause, "UTF-8"));
	free(cause);
	/* A refusal after good pairs frees them (checked under ASan). */
	free(parse_fail("a=1&b=2&c=%g1"));
}

static void
test_too_many_parameters(void **state)
{
	char	*raw = malloc(300 * 8 + 1), *cause;
	size_t	 i, n = 0;

	(void)state;
	for (i = 0; i < 300; i++)
		n += (size_t)sprintf(raw + n, "a%zu=%zu&", i, i % 10);
	cause = parse_fail(raw);
	assert_non_null(strstr(cause, "too many"));
	free(cause);
	free(raw);
}

static void
test_repeated_keys(void **state)
{
	struct query	 q;
	const char	*v[4];

	(void)state;
	q = parse_ok("host[]=a&method=GET&host=b&host[]=c&hostx=d");
	assert_int_equal(query_values(&q, "host", v, 4), 3);
	assert_string_equal(v[0], "a");
	assert_string_equal(v[1], "b");
	assert_string_equal(v[2], "c");
	/* The last one wins for a single read. */
	assert_string_equal(query_get(&q, "host"), "c");
	/* More values than room: the count is still right. */
	assert_int_equal(query_values(&q, "host", v, 2), 3);
	query_free(&q);
}

/*
 * A parameter that takes one value, given twice: which one counts would be
 * a guess (dry_run=true&dry_run=false made a real write), so it is refused
 * in any spelling, the same value twice included.
 */
static void
test_repeated_single_keys(void **state)
{
	static const char *const refused[] = {
		"dry_run=true&dry_run=false",
		"page=1&per_page=5&page=2",
		"dry_run=true&dry_run[]=false",
		"dr%79_run=true&dry_run=true",
		"omit_source&omit_source",
	};
	struct query	 q;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		cause = parse_fail(refused[i]);
		if (strstr(cause, "given more than once") == NULL)
			fail_msg("%s: %s", refused[i], cause);
		free(cause);
	}
	cause = parse_fail("per_page=5&page=1&page=2");
	assert_string_equal(cause, "page: given more than once in the query "
	    "string (it takes one value)");
	free(cause);
	/* Lists repeat, in either spelling; similar names are other keys. */
	q = parse_ok("feature=thresholds&feature[]=parameter_schemas&"
	    "properties=a&properties=b&method[]=GET&method=POST&"
	    "dry_run=true&dry_run_x=1&x_dry_run=2");
	assert_int_equal(q.n, 9);
	query_free(&q);
}

static void
test_long_reads(void **state)
{
	struct query	 q;
	long		 v;
	char		*cause = NULL;

	(void)state;
	q = parse_ok("page=3&bad=3x&neg=-2&big=99999999999999999999&sp=%207");
	assert_int_equal(query_long(&q, "page", 1, 10, 1, &v, &cause), 0);
	assert_int_equal(v, 3);
	assert_int_equal(query_long(&q, "absent", 1, 10, 7, &v, &cause), 0);
	assert_int_equal(v, 7);
	assert_int_equal(query_long(&q, "bad", 1, 10, 1, &v, &cause), -1);
	assert_non_null(strstr(cause, "bad: '3x' is not a whole number"));
	free(cause);
	assert_int_equal(query_long(&q, "neg", 1, 10, 1, &v, &cause), -1);
	assert_non_null(strstr(cause, "out of range (1 to 10)"));
	free(cause);
	assert_int_equal(query_long(&q, "big", 1, 10, 1, &v, &cause), -1);
	free(cause);
	assert_int_equal(query_long(&q, "sp", 1, 10, 1, &v, &cause), -1);
	free(cause);
	query_free(&q);
}

static void
test_bool_and_enum(void **state)
{
	static const char *const dirs[] = { "asc", "desc", NULL };
	struct query		 q;
	const char		*s, *many[4];
	size_t			 n;
	int			 b;
	char			*cause = NULL;

	(void)state;
	q = parse_ok("a=true&b=0&c=yes&direction=desc&order=sideways&"
	    "method=GET&method=BREW");
	assert_int_equal(query_bool(&q, "a", 0, &b, &cause), 0);
	assert_true(b);
	assert_int_equal(query_bool(&q, "b", 1, &b, &cause), 0);
	assert_false(b);
	assert_int_equal(query_bool(&q, "none", 1, &b, &cause), 0);
	assert_true(b);
	assert_int_equal(query_bool(&q, "c", 0, &b, &cause), -1);
	assert_non_null(strstr(cause, "not a boolean"));
	free(cause);

	assert_int_equal(query_enum(&q, "direction", dirs, &s, &cause), 0);
	assert_string_equal(s, "desc");
	assert_int_equal(query_enum(&q, "absent", dirs, &s, &cause), 0);
	assert_null(s);
	assert_int_equal(query_enum(&q, "order", dirs, &s, &cause), -1);
	assert_string_equal(cause, "order: 'sideways' is not one of asc, desc");
	free(cause);

	static const char *const methods[] = { "GET", "POST", NULL };
	assert_int_equal(query_enums(&q, "method", methods, many, 4, &n,
	    &cause), -1);
	assert_non_null(strstr(cause, "'BREW'"));
	free(cause);
	query_free(&q);
}

static void
test_paging_rules(void **state)
{
	struct query	 q;
	struct paging	 p;
	char		*cause = NULL;

	(void)state;
	q = parse_ok("");
	assert_int_equal(query_paging(&q, 20, 5, 50, 0, &p, &cause), 0);
	assert_int_equal(p.page, 1);
	assert_int_equal(p.per_page, 20);
	query_free(&q);

	q = parse_ok("page=4&per_page=50");
	assert_int_equal(query_paging(&q, 20, 5, 50, 0, &p, &cause), 0);
	assert_int_equal(p.page, 4);
	assert_int_equal(p.per_page, 50);
	query_free(&q);

	q = parse_ok("per_page=51");
	assert_int_equal(query_paging(&q, 20, 5, 50, 0, &p, &cause), -1);
	assert_non_null(strstr(cause, "per_page"));
	free(cause);
	query_free(&q);

	q = parse_ok("page=0");
	assert_int_equal(query_paging(&q, 20, 5, 50, 0, &p, &cause), -1);
	assert_non_null(strstr(cause, "page"));
	free(cause);
	query_free(&q);

	/* The rate-limit rule: 1 or a multiple of 5. */
	q = parse_ok("per_page=1");
	assert_int_equal(query_paging(&q, 20, 1, 1000, 5, &p, &cause), 0);
	query_free(&q);
	q = parse_ok("per_page=1000");
	assert_int_equal(query_paging(&q, 20, 1, 1000, 5, &p, &cause), 0);
	query_free(&q);
	q = parse_ok("per_page=7");
	assert_int_equal(query_paging(&q, 20, 1, 1000, 5, &p, &cause), -1);
	assert_non_null(strstr(cause, "multiple of 5"));
	free(cause);
	query_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decoding),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_too_many_parameters),
		cmocka_unit_test(test_repeated_keys),
		cmocka_unit_test(test_repeated_single_keys),
		cmocka_unit_test(test_long_reads),
		cmocka_unit_test(test_bool_and_enum),
		cmocka_unit_test(test_paging_rules),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
