/*
 * Unit tests of src/rulediff.c: two versions of the rate limiting rules
 * compared rule by rule (added, removed, changed fields, moves, the API's
 * defaults), the text and summary shown, and the PUT body restoring a
 * version with the ids the entry point still has.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "rulediff.h"

#define ID_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define ID_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define ID_C	"cccccccccccccccccccccccccccccccc"
#define ID_D	"dddddddddddddddddddddddddddddddd"

#define RULE(id, desc, period, extra) \
	"{\"id\":\"" id "\",\"version\":\"1\"," \
	"\"last_updated\":\"2026-11-24T10:00:00Z\",\"ref\":\"" id "\"," \
	"\"description\":\"" desc "\",\"action\":\"block\"," \
	"\"expression\":\"http.request.uri.path eq \\\"/x\\\"\"," \
	"\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"]," \
	"\"period\":" #period ",\"requests_per_period\":5" extra "}}"

static cJSON *
parse(const char *s)
{
	cJSON	*v = cJSON_Parse(s);

	assert_non_null(v);
	return (v);
}

static const struct rulediff_rule *
find(const struct rulediff *d, const char *id)
{
	size_t	i;

	for (i = 0; i < d->n; i++)
		if (d->rules[i].id != NULL && strcmp(d->rules[i].id, id) == 0)
			return (&d->rules[i]);
	return (NULL);
}

static const struct rulediff_field *
field(const struct rulediff_rule *r, const char *path)
{
	size_t	i;

	for (i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].path, path) == 0)
			return (&r->fields[i]);
	return (NULL);
}

/* The same rules, with only what the server sets changed: no difference. */
static void
test_same(void **state)
{
	struct rulediff	 d;
	struct buf	 b;
	cJSON		*a, *c;

	(void)state;
	a = parse("[" RULE(ID_A, "a", 60, "") "," RULE(ID_B, "b", 10, "") "]");
	c = cJSON_Duplicate(a, 1);
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(c, 0), "version",
	    cJSON_CreateString("9"));
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(c, 1), "last_updated",
	    cJSON_CreateString("2026-11-25T10:00:00Z"));
	rulediff_compute(a, c, &d);
	assert_int_equal(d.n, 0);
	buf_init(&b);
	rulediff_text(&d, &b);
	assert_string_equal(buf_str(&b), "no difference\n");
	buf_reset(&b);
	rulediff_summary(&d, &b);
	assert_string_equal(buf_str(&b), "no difference");
	buf_free(&b);
	rulediff_free(&d);
	cJSON_Delete(a);
	cJSON_Delete(c);
}

/* A changed field, an added and a removed rule, and what the text says. */
static void
test_changes(void **state)
{
	const struct rulediff_rule	*r;
	const struct rulediff_field	*f;
	struct rulediff			 d;
	struct buf			 b;
	cJSON				*old, *new;

	(void)state;
	old = parse("[" RULE(ID_A, "Login", 60, "") "," RULE(ID_B, "Old", 10,
	    "") "]");
	new = parse("[" RULE(ID_A, "Login", 10, ",\"mitigation_timeout\":60")
	    "," RULE(ID_C, "New", 10, "") "]");
	rulediff_compute(old, new, &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.changed, 1);
	assert_int_equal(d.added, 1);
	assert_int_equal(d.removed, 1);

	assert_non_null(r = find(&d, ID_A));
	assert_int_equal(r->what, RULEDIFF_CHANGED);
	assert_int_equal(r->nfields, 2);
	assert_non_null(f = field(r, "ratelimit.period"));
	assert_string_equal(f->old, "60");
	assert_string_equal(f->new, "10");
	/* Absent reads as 0 (throttle), as the API means it. */
	assert_non_null(f = field(r, "ratelimit.mitigation_timeout"));
	assert_string_equal(f->old, "0");
	assert_string_equal(f->new, "60");
	assert_non_null(r = find(&d, ID_C));
	assert_int_equal(r->what, RULEDIFF_ADDED);
	assert_int_equal(r->new_pos, 2);
	assert_non_null(r = find(&d, ID_B));
	assert_int_equal(r->what, RULEDIFF_REMOVED);
	assert_int_equal(r->old_pos, 2);

	buf_init(&b);
	rulediff_text(&d, &b);
	assert_string_equal(buf_str(&b),
	    "changed #1 'Login' (aaaaaaaa):\n"
	    "    ratelimit.period: 60 -> 10\n"
	    "    ratelimit.mitigation_timeout: 0 -> 60\n"
	    "added #2 'New' (cccccccc)\n"
	    "removed 'Old' (bbbbbbbb), was #2\n");
	buf_reset(&b);
	rulediff_summary(&d, &b);
	assert_string_equal(buf_str(&b), "1 changed, 1 added, 1 removed");
	buf_free(&b);
	rulediff_free(&d);
	cJSON_Delete(old);
	cJSON_Delete(new);
}

/*
 * Fields that appear or go, enabled absent as true, and a rule deleted and
 * added back with its ref paired with the old one.
 */
static void
test_fields_and_ref(void **state)
{
	const struct rulediff_rule	*r;
	const struct rulediff_field	*f;
	struct rulediff			 d;
	cJSON				*old, *new, *rule;

	(void)state;
	old = parse("[" RULE(ID_A, "a", 60, ",\"counting_expression\":\"x\"")
	    "]");
	new = parse("[" RULE(ID_D, "a", 60, "") "]");
	rule = cJSON_GetArrayItem(new, 0);
	cJSON_ReplaceItemInObject(rule, "ref", cJSON_CreateString(ID_A));
	cJSON_AddFalseToObject(rule, "enabled");
	rulediff_compute(old, new, &d);
	assert_int_equal(d.n, 1);
	assert_non_null(r = find(&d, ID_D));
	assert_int_equal(r->what, RULEDIFF_CHANGED);
	assert_non_null(f = field(r, "ratelimit.counting_expression"));
	assert_string_equal(f->old, "\"x\"");
	assert_null(f->new);
	assert_non_null(f = field(r, "enabled"));
	assert_string_equal(f->old, "true");
	assert_string_equal(f->new, "false");
	assert_int_equal(r->nfields, 2);
	rulediff_free(&d);
	cJSON_Delete(new);

	/* An id pairs before a ref: a new rule with A's ref is added. */
	new = parse("[" RULE(ID_D, "d", 60, "") "," RULE(ID_A, "a", 60,
	    ",\"counting_expression\":\"x\"") "]");
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(new, 0), "ref",
	    cJSON_CreateString(ID_A));
	rulediff_compute(old, new, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.added, 1);
	assert_non_null(r = find(&d, ID_D));
	assert_int_equal(r->what, RULEDIFF_ADDED);
	rulediff_free(&d);
	cJSON_Delete(old);
	cJSON_Delete(new);
}

/* Two rules swapped are moves; a rule added on top shifts, not moves. */
static void
test_positions(void **state)
{
	const struct rulediff_rule	*r;
	const struct rulediff_field	*f;
	struct rulediff			 d;
	cJSON				*old, *new;

	(void)state;
	old = parse("[" RULE(ID_A, "a", 60, "") "," RULE(ID_B, "b", 60, "")
	    "]");
	new = parse("[" RULE(ID_B, "b", 60, "") "," RULE(ID_A, "a", 60, "")
	    "]");
	rulediff_compute(old, new, &d);
	assert_int_equal(d.changed, 2);
	assert_non_null(r = find(&d, ID_A));
	assert_non_null(f = field(r, "position"));
	assert_string_equal(f->old, "1");
	assert_string_equal(f->new, "2");
	rulediff_free(&d);
	cJSON_Delete(new);

	new = parse("[" RULE(ID_C, "c", 60, "") "," RULE(ID_A, "a", 60, "")
	    "," RULE(ID_B, "b", 60, "") "]");
	rulediff_compute(old, new, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.added, 1);
	rulediff_free(&d);
	cJSON_Delete(new);

	/* Nothing on either side. */
	rulediff_compute(NULL, old, &d);
	assert_int_equal(d.added, 2);
	rulediff_free(&d);
	rulediff_compute(old, NULL, &d);
	assert_int_equal(d.removed, 2);
	rulediff_free(&d);
	cJSON_Delete(old);
}

/*
 * The restore body: the version's rules in its order, without what the
 * server sets; ids kept where the entry point still has the rule, a rule
 * deleted since sent without its id but with its ref.
 */
static void
test_restore_body(void **state)
{
	const cJSON	*rules, *r;
	cJSON		*version, *current, *body;
	size_t		 kept, renewed;

	(void)state;
	version = parse("{\"version\":\"1\",\"rules\":[" RULE(ID_B, "b", 60,
	    "") "," RULE(ID_A, "a", 10, "") "]}");
	cJSON_DeleteItemFromObject(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(version, "rules"), 1), "ref");
	current = parse("{\"version\":\"4\",\"rules\":[" RULE(ID_B, "b", 10,
	    "") "," RULE(ID_C, "c", 10, "") "]}");
	body = rulediff_restore_body(version, current, &kept, &renewed);
	assert_int_equal(kept, 1);
	assert_int_equal(renewed, 1);
	assert_int_equal(cJSON_GetArraySize(body), 1);
	rules = cJSON_GetObjectItem(body, "rules");
	assert_int_equal(cJSON_GetArraySize(rules), 2);
	r = cJSON_GetArrayItem(rules, 0);
	assert_string_equal(cJSON_GetObjectItem(r, "id")->valuestring, ID_B);
	assert_null(cJSON_GetObjectItem(r, "version"));
	assert_null(cJSON_GetObjectItem(r, "last_updated"));
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(r,
	    "ratelimit"), "period")->valueint, 60);
	r = cJSON_GetArrayItem(rules, 1);
	assert_null(cJSON_GetObjectItem(r, "id"));
	assert_string_equal(cJSON_GetObjectItem(r, "ref")->valuestring, ID_A);
	assert_string_equal(cJSON_GetObjectItem(r, "description")->valuestring,
	    "a");
	cJSON_Delete(body);

	/* No entry point now: every rule is sent as new. */
	body = rulediff_restore_body(version, NULL, &kept, &renewed);
	assert_int_equal(kept, 0);
	assert_int_equal(renewed, 2);
	cJSON_Delete(body);
	cJSON_Delete(version);
	cJSON_Delete(current);
}

/* The period of rule id in a PUT body; 0 when it is not there. */
static int
body_period(const cJSON *body, const char *desc)
{
	const cJSON	*r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(body, "rules"))
		if (strcmp(cJSON_GetObjectItem(r, "description")->valuestring,
		    desc) == 0)
			return (cJSON_GetObjectItem(cJSON_GetObjectItem(r,
			    "ratelimit"), "period")->valueint);
	return (0);
}

/* Rule i of a ruleset changed on the server: its version goes up. */
static void
bump(cJSON *rs, int i)
{
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(rs,
	    "rules"), i), "version", cJSON_CreateString("2"));
}

/*
 * A restore sent after the rules changed since its question: a rule it
 * leaves alone keeps what was done to it meanwhile; a rule both changed
 * is a conflict, one PUT body per answer.
 */
static void
test_restore_merge(void **state)
{
	struct rulediff_restore	 rm;
	cJSON			*version, *base, *theirs;

	(void)state;
	/* Version: A at 10 s; since then A went to 60 s (base). */
	version = parse("{\"version\":\"2\",\"rules\":[" RULE(ID_A, "a", 10, "")
	    "," RULE(ID_B, "b", 60, "") "]}");
	base = parse("{\"version\":\"3\",\"rules\":[" RULE(ID_A, "a", 60, "")
	    "," RULE(ID_B, "b", 60, "") "]}");
	/* Meanwhile B went to 120 s, and C was added. */
	theirs = parse("{\"version\":\"5\",\"rules\":[" RULE(ID_A, "a", 60, "")
	    "," RULE(ID_B, "b", 120, "") "," RULE(ID_C, "c", 10, "") "]}");
	bump(theirs, 1);
	rulediff_restore_merge(version, base, theirs, &rm);
	assert_int_equal(rm.m.nconflicts, 0);
	assert_int_equal(body_period(rm.theirs_body, "a"), 10);
	assert_int_equal(body_period(rm.theirs_body, "b"), 120);
	assert_int_equal(body_period(rm.theirs_body, "c"), 10);
	rulediff_restore_free(&rm);
	cJSON_Delete(theirs);

	/* Meanwhile A went to 120 s: the restore's 10 s or theirs. */
	theirs = parse("{\"version\":\"5\",\"rules\":[" RULE(ID_A, "a", 120, "")
	    "," RULE(ID_B, "b", 60, "") "]}");
	bump(theirs, 0);
	rulediff_restore_merge(version, base, theirs, &rm);
	assert_int_equal(rm.m.nconflicts, 1);
	assert_string_equal(rm.m.conflicts[0].path, "'a' ratelimit.period");
	assert_int_equal(body_period(rm.theirs_body, "a"), 120);
	assert_int_equal(body_period(rm.mine_body, "a"), 10);
	rulediff_restore_free(&rm);
	cJSON_Delete(theirs);

	/* Meanwhile A was deleted: the restore would bring it back. */
	theirs = parse("{\"version\":\"5\",\"rules\":[" RULE(ID_B, "b", 60, "")
	    "]}");
	rulediff_restore_merge(version, base, theirs, &rm);
	assert_int_equal(rm.m.nconflicts, 1);
	assert_null(rm.m.conflicts[0].theirs);
	assert_int_equal(body_period(rm.theirs_body, "a"), 0);
	assert_int_equal(body_period(rm.mine_body, "a"), 10);
	rulediff_restore_free(&rm);
	cJSON_Delete(theirs);
	cJSON_Delete(base);
	cJSON_Delete(version);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_changes),
		cmocka_unit_test(test_fields_and_ref),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_restore_body),
		cmocka_unit_test(test_restore_merge),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
