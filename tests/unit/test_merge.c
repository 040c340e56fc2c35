/*
 * Unit tests for merge.c: the three-way merge of a record at field level
 * (nested objects, arrays as one value, absent and null alike, the
 * server's fields and stamps, a base not known), the choice at a conflict
 * and the texts that show conflicts and diffs.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "kind.h"
#include "merge.h"

static const struct kind_field test_fields[] = {
	{ .path = "id", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY },
	{ .path = "version", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_STAMP },
	{ .path = "modified", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY },
	{ .path = "status", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY },
	{ .path = "description", .type = KIND_TYPE_STRING },
	{ .path = "enabled", .type = KIND_TYPE_BOOL },
	{ .path = "ratelimit", .type = KIND_TYPE_OBJECT },
	{ .path = "ratelimit.period", .type = KIND_TYPE_INT },
	{ .path = "ratelimit.requests_per_period", .type = KIND_TYPE_INT },
	{ .path = "ratelimit.characteristics", .type = KIND_TYPE_STRINGS },
	{ .path = "streamKey", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_SECRET },
	{ .path = NULL }
};

static const struct kind kind_test = {
	.name = "things",
	.id_field = "id",
	.fields = test_fields,
};

static cJSON *
J(const char *text)
{
	cJSON	*v = cJSON_Parse(text);

	assert_non_null(v);
	return (v);
}

/* m merged from the three texts; the caller merge_frees it. */
static void
merge3(const char *b, const char *mine, const char *t, struct merge *m)
{
	cJSON	*jb = b != NULL ? J(b) : NULL, *jm = J(mine), *jt = J(t);

	merge_records(&kind_test, jb, jm, jt, m);
	cJSON_Delete(jb);
	cJSON_Delete(jm);
	cJSON_Delete(jt);
}

static void
assert_json(const cJSON *v, const char *text)
{
	cJSON	*want = J(text);

	if (!cJSON_Compare(v, want, 1)) {
		char *got = cJSON_PrintUnformatted(v);
		print_error("got %s\nwant %s\n", got, text);
		cJSON_free(got);
		cJSON_Delete(want);
		fail();
	}
	cJSON_Delete(want);
}

/* The other side's change to another field is kept: the lost update. */
static void
test_other_field_kept(void **state)
{
	struct merge	m;

	(void)state;
	merge3("{\"id\":\"a\",\"description\":\"old\",\"enabled\":true}",
	    "{\"id\":\"a\",\"description\":\"old\",\"enabled\":false}",
	    "{\"id\":\"a\",\"description\":\"theirs\",\"enabled\":true}", &m);
	assert_int_equal(m.nconflicts, 0);
	assert_int_equal(m.changed, 1);
	assert_true(m.theirs_changed);
	assert_json(m.merged, "{\"id\":\"a\",\"description\":\"theirs\","
	    "\"enabled\":false}");
	merge_free(&m);
}

static void
test_same_field_conflicts(void **state)
{
	struct merge	 m;
	cJSON		*r;

	(void)state;
	merge3("{\"description\":\"old\",\"enabled\":true}",
	    "{\"description\":\"mine\",\"enabled\":false}",
	    "{\"description\":\"theirs\",\"enabled\":true}", &m);
	assert_int_equal(m.nconflicts, 1);
	assert_string_equal(m.conflicts[0].path, "description");
	assert_json(m.conflicts[0].base, "\"old\"");
	assert_json(m.conflicts[0].theirs, "\"theirs\"");
	assert_json(m.conflicts[0].mine, "\"mine\"");
	/* Theirs stays at the conflict; the rest of mine is in. */
	assert_json(m.merged, "{\"description\":\"theirs\","
	    "\"enabled\":false}");
	r = merge_resolve(&m, MERGE_THEIRS);
	assert_json(r, "{\"description\":\"theirs\",\"enabled\":false}");
	cJSON_Delete(r);
	r = merge_resolve(&m, MERGE_MINE);
	assert_json(r, "{\"description\":\"mine\",\"enabled\":false}");
	cJSON_Delete(r);
	merge_free(&m);
}

/* Both made the same change: no conflict. */
static void
test_same_change_agrees(void **state)
{
	struct merge	m;

	(void)state;
	merge3("{\"enabled\":true}", "{\"enabled\":false}",
	    "{\"enabled\":false}", &m);
	assert_int_equal(m.nconflicts, 0);
	assert_int_equal(m.changed, 1);
	assert_json(m.merged, "{\"enabled\":false}");
	merge_free(&m);
}

/* Objects merge member by member, at any depth. */
static void
test_nested(void **state)
{
	struct merge	m;

	(void)state;
	merge3("{\"ratelimit\":{\"period\":60,\"requests_per_period\":5}}",
	    "{\"ratelimit\":{\"period\":60,\"requests_per_period\":9}}",
	    "{\"ratelimit\":{\"period\":10,\"requests_per_period\":5}}", &m);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"ratelimit\":{\"period\":10,"
	    "\"requests_per_period\":9}}");
	merge_free(&m);

	merge3("{\"ratelimit\":{\"period\":60}}",
	    "{\"ratelimit\":{\"period\":120}}",
	    "{\"ratelimit\":{\"period\":10}}", &m);
	assert_int_equal(m.nconflicts, 1);
	assert_string_equal(m.conflicts[0].path, "ratelimit.period");
	merge_free(&m);
}

/* An array is one value: both changing it is a conflict. */
static void
test_arrays_are_values(void **state)
{
	struct merge	 m;
	cJSON		*r;

	(void)state;
	merge3("{\"ratelimit\":{\"characteristics\":[\"a\",\"b\"]}}",
	    "{\"ratelimit\":{\"characteristics\":[\"a\",\"c\"]}}",
	    "{\"ratelimit\":{\"characteristics\":[\"a\",\"b\",\"d\"]}}", &m);
	assert_int_equal(m.nconflicts, 1);
	assert_string_equal(m.conflicts[0].path,
	    "ratelimit.characteristics");
	r = merge_resolve(&m, MERGE_MINE);
	assert_json(r, "{\"ratelimit\":{\"characteristics\":[\"a\","
	    "\"c\"]}}");
	cJSON_Delete(r);
	merge_free(&m);

	/* Only mine changed it: mine's array whole. */
	merge3("{\"ratelimit\":{\"characteristics\":[\"a\"]}}",
	    "{\"ratelimit\":{\"characteristics\":[\"b\"]}}",
	    "{\"ratelimit\":{\"characteristics\":[\"a\"]},\"enabled\":true}",
	    &m);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"ratelimit\":{\"characteristics\":[\"b\"]},"
	    "\"enabled\":true}");
	merge_free(&m);
}

/*
 * Absent and null are one value; a member mine removes goes, unless
 * theirs changed it (a conflict with "absent" on mine's side).
 */
static void
test_absent_and_null(void **state)
{
	struct merge	m;

	(void)state;
	/* Null for absent is no change, on either side. */
	merge3("{\"description\":null}", "{}",
	    "{\"description\":null,\"enabled\":false}", &m);
	assert_int_equal(m.changed, 0);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"description\":null,\"enabled\":false}");
	merge_free(&m);

	/* Removed by mine, untouched by theirs: removed. */
	merge3("{\"description\":\"x\",\"enabled\":true}",
	    "{\"enabled\":true}",
	    "{\"description\":\"x\",\"enabled\":false}", &m);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"enabled\":false}");
	merge_free(&m);

	/* Removed by mine, changed by theirs: a conflict. */
	merge3("{\"description\":\"x\"}", "{}", "{\"description\":\"y\"}",
	    &m);
	assert_int_equal(m.nconflicts, 1);
	assert_null(m.conflicts[0].mine);
	merge_free(&m);

	/* Set to null by mine: sent as null. */
	merge3("{\"description\":\"x\"}", "{\"description\":null}",
	    "{\"description\":\"x\",\"enabled\":true}", &m);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"description\":null,\"enabled\":true}");
	merge_free(&m);
}

/* The server's fields never count as a change nor conflict. */
static void
test_readonly(void **state)
{
	struct merge	m;

	(void)state;
	merge3("{\"id\":\"a\",\"version\":\"1\",\"modified\":\"t1\","
	    "\"status\":{\"state\":\"x\"},\"enabled\":true}",
	    "{\"id\":\"b\",\"version\":\"7\",\"modified\":\"t9\","
	    "\"status\":{\"state\":\"y\"},\"enabled\":true}",
	    "{\"id\":\"a\",\"version\":\"2\",\"modified\":\"t2\","
	    "\"status\":{\"state\":\"z\"},\"enabled\":true}", &m);
	assert_int_equal(m.changed, 0);
	assert_int_equal(m.nconflicts, 0);
	assert_false(m.theirs_changed);
	/* Theirs' values: what the server has now. */
	assert_json(m.merged, "{\"id\":\"a\",\"version\":\"2\","
	    "\"modified\":\"t2\",\"status\":{\"state\":\"z\"},"
	    "\"enabled\":true}");
	merge_free(&m);
}

/* An equal stamp: theirs is base, so nothing of theirs conflicts. */
static void
test_stamp(void **state)
{
	struct merge	 m;
	cJSON		*a = J("{\"version\":\"3\",\"x\":1}");
	cJSON		*b = J("{\"version\":\"3\",\"x\":2}");
	cJSON		*c = J("{\"version\":\"4\",\"x\":1}");
	cJSON		*d = J("{\"x\":1}");

	(void)state;
	assert_true(merge_unchanged(&kind_test, a, b));
	assert_false(merge_unchanged(&kind_test, a, c));
	assert_false(merge_unchanged(&kind_test, a, d));
	assert_false(merge_unchanged(&kind_test, d, d));
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(c);
	cJSON_Delete(d);

	merge3("{\"version\":\"3\",\"description\":\"old\"}",
	    "{\"version\":\"3\",\"description\":\"mine\"}",
	    "{\"version\":\"3\",\"description\":\"old\",\"enabled\":true}",
	    &m);
	assert_int_equal(m.nconflicts, 0);
	assert_false(m.theirs_changed);
	assert_json(m.merged, "{\"version\":\"3\",\"description\":\"mine\","
	    "\"enabled\":true}");
	merge_free(&m);
}

/*
 * A base not known (a file): mine replaces theirs, unless its stamp says
 * the server's copy changed since; then each difference is a conflict.
 */
static void
test_unknown_base(void **state)
{
	struct merge	m;

	(void)state;
	merge3(NULL, "{\"description\":\"mine\"}",
	    "{\"version\":\"5\",\"description\":\"theirs\",\"enabled\":true}",
	    &m);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"version\":\"5\",\"description\":\"mine\"}");
	merge_free(&m);

	merge3(NULL, "{\"version\":\"5\",\"description\":\"mine\","
	    "\"enabled\":true}",
	    "{\"version\":\"5\",\"description\":\"theirs\",\"enabled\":true}",
	    &m);
	assert_int_equal(m.nconflicts, 0);
	assert_json(m.merged, "{\"version\":\"5\",\"description\":\"mine\","
	    "\"enabled\":true}");
	merge_free(&m);

	merge3(NULL, "{\"version\":\"4\",\"description\":\"mine\","
	    "\"enabled\":true}",
	    "{\"version\":\"5\",\"description\":\"theirs\",\"enabled\":true}",
	    &m);
	assert_int_equal(m.nconflicts, 1);
	assert_string_equal(m.conflicts[0].path, "description");
	assert_true(m.theirs_changed);
	merge_free(&m);
}

static void
test_texts(void **state)
{
	struct merge	 m;
	struct buf	 b;
	cJSON		*x, *y;
	size_t		 n;

	(void)state;
	merge3("{\"description\":\"old\",\"streamKey\":\"k1\"}",
	    "{\"description\":\"mine\",\"streamKey\":\"k2\"}",
	    "{\"description\":\"theirs\",\"streamKey\":\"k3\"}", &m);
	assert_int_equal(m.nconflicts, 2);
	buf_init(&b);
	merge_conflicts_text(&m, &b);
	assert_non_null(strstr(buf_str(&b),
	    "  description: \"theirs\" \xe2\x86\x92 \"mine\"\n"));
	assert_null(strstr(buf_str(&b), "k2"));
	assert_null(strstr(buf_str(&b), "k3"));
	buf_free(&b);
	merge_free(&m);

	/* The server's fields are no part of what a write changes. */
	x = J("{\"id\":\"a\",\"version\":\"1\",\"modified\":\"t1\","
	    "\"ratelimit\":{\"period\":5}}");
	y = J("{\"id\":\"a\",\"version\":\"2\",\"modified\":\"t2\","
	    "\"ratelimit\":{\"period\":7}}");
	buf_init(&b);
	n = merge_diff(&b, &kind_test, x, y);
	assert_int_equal(n, 1);
	assert_string_equal(buf_str(&b), "  ratelimit.period: 5 \xe2\x86\x92 "
	    "7\n");
	buf_free(&b);
	cJSON_Delete(x);
	cJSON_Delete(y);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_other_field_kept),
		cmocka_unit_test(test_same_field_conflicts),
		cmocka_unit_test(test_same_change_agrees),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_arrays_are_values),
		cmocka_unit_test(test_absent_and_null),
		cmocka_unit_test(test_readonly),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_unknown_base),
		cmocka_unit_test(test_texts),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
