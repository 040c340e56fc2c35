/*
 * Integration tests of `edgetui migrate rate-limits` against edgemu's demo
 * zone: the preview alone sends nothing, --apply adds the rules and a
 * re-run adds none, --disable-legacy disables the legacy rules, and a
 * failure half way (or a plan's quota) is reported rule by rule.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "clitest.h"
#include "itest.h"
#include "testdir.h"
#include "yamljson.h"

#define EP_PATH	"rulesets/phases/http_ratelimit/entrypoint"

static char *
zone_path(struct fixture *f, const char *rest)
{
	return (itest_printf("/zones/%s/%s", f->emu.zone, rest));
}

/* The demo's legacy rules, in the list's order: ids[i] (caller frees). */
static void
legacy_ids(struct fixture *f, char ids[8][33])
{
	cJSON	*list, *r;
	char	*path = zone_path(f, "rate_limits");
	int	 i = 0;

	list = api_ok(&f->emu, "GET", path, NULL);
	cJSON_ArrayForEach(r, list) {
		assert_true(i < 8);
		snprintf(ids[i++], 33, "%s",
		    cJSON_GetObjectItem(r, "id")->valuestring);
	}
	assert_int_equal(i, 8);
	cJSON_Delete(list);
	free(path);
}

static int
legacy_disabled(struct fixture *f, const char *id)
{
	cJSON	*r;
	char	*path = itest_printf("/zones/%s/rate_limits/%s", f->emu.zone,
	    id);
	int	 dis;

	r = api_ok(&f->emu, "GET", path, NULL);
	dis = cJSON_IsTrue(cJSON_GetObjectItem(r, "disabled"));
	cJSON_Delete(r);
	free(path);
	return (dis);
}

/* The entry point emptied (the demo has six rules; plans hold fewer). */
static void
ep_clear(struct fixture *f)
{
	char	*path = zone_path(f, EP_PATH);

	cJSON_Delete(api_ok(&f->emu, "PUT", path, "{\"rules\":[]}"));
	free(path);
}

/* How many of the entry point's rules carry ref; -1: no such rules at all. */
static int
ep_count_ref(struct fixture *f, const char *ref, int *total)
{
	cJSON	*ep, *r, *v;
	char	*path = zone_path(f, EP_PATH);
	int	 n = 0;

	ep = api_ok(&f->emu, "GET", path, NULL);
	*total = cJSON_GetArraySize(cJSON_GetObjectItem(ep, "rules"));
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(ep, "rules")) {
		v = cJSON_GetObjectItem(r, "ref");
		if (ref != NULL && cJSON_IsString(v) &&
		    strcmp(v->valuestring, ref) == 0)
			n++;
	}
	cJSON_Delete(ep);
	free(path);
	return (n);
}

static int
ep_has(struct fixture *f, const char *id)
{
	char	ref[128];
	int	total;

	snprintf(ref, sizeof ref, "legacy-%.32s", id);
	return (ep_count_ref(f, ref, &total));
}

static int
has(const char *s, const char *what)
{
	if (strstr(s, what) == NULL) {
		print_error("missing '%s' in:\n%s\n", what, s);
		return (0);
	}
	return (1);
}

/* ---- tests -------------------------------------------------------------- */

/* Without --apply: YAML of every rule, warnings as comments, nothing sent. */
static void
test_preview(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		 ids[8][33], *cause = NULL;
	cJSON		*rules, *rule;
	int		 total, before, i = 0;

	legacy_ids(f, ids);
	ep_count_ref(f, NULL, &before);
	RUN(f, &r, "migrate", "rate-limits", "--plan", "business");
	assert_int_equal(r.status, 0);
	rules = yamljson_parse(r.out, strlen(r.out), &cause);
	if (rules == NULL)
		fail_msg("stdout is no YAML: %s\n%s", cause, r.out);
	assert_int_equal(cJSON_GetArraySize(rules), 8);
	cJSON_ArrayForEach(rule, rules) {
		char	ref[128];

		snprintf(ref, sizeof ref, "legacy-%.32s", ids[i++]);
		assert_string_equal(cJSON_GetObjectItem(rule,
		    "ref")->valuestring, ref);
	}
	assert_true(has(r.out, "# 8 legacy rate limits as rate limiting rules "
	    "for business"));
	assert_true(has(r.out, "# warning: period 900 s snapped to 600 s "
	    "(allowed on business: 10 60 120 300 600)"));
	assert_true(has(r.out, "# warning: simulate has no equivalent below "
	    "Enterprise"));
	/* Eight do not fit in Business's five: said in the preview. */
	assert_true(has(r.out, "# warning: the Business plan holds 5 rules in "
	    "the entry point and 8 are translated"));
	/* Written as `expr fmt` writes it. */
	assert_false(has(r.out, " == "));
	/* Nothing was added, and the report only comes with --apply. */
	ep_count_ref(f, NULL, &total);
	assert_int_equal(total, before);
	assert_null(strstr(r.err, "applied"));
	cJSON_Delete(rules);
	run_free(&r);

	/* Named rules only, in the order given. */
	RUN(f, &r, "migrate", "rate-limits", ids[2], ids[0], "--plan", "pro");
	assert_int_equal(r.status, 0);
	rules = yamljson_parse(r.out, strlen(r.out), &cause);
	assert_non_null(rules);
	assert_int_equal(cJSON_GetArraySize(rules), 2);
	assert_non_null(strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(rules,
	    0), "ref")->valuestring, ids[2]));
	assert_true(has(r.out, "# warning: methods \"GET\" need the Business "
	    "plan: dropped, the rule now counts every method"));
	/* Two fit in Pro's two: no quota warning. */
	assert_false(has(r.out, "plan holds"));
	cJSON_Delete(rules);
	run_free(&r);
}

/* The profile's plan: is the default; --plan wins over it. */
static void
test_profile_plan(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*dir, *file;

	dir = itest_printf("%s/config", f->home);
	assert_int_equal(mkdir(dir, 0700), 0);
	free(dir);
	dir = itest_printf("%s/config/edgetui", f->home);
	assert_int_equal(mkdir(dir, 0700), 0);
	file = itest_printf("%s/config.yaml", dir);
	spill(file, "profiles:\n  default:\n    plan: pro\n", 0600);
	RUN(f, &r, "migrate", "rate-limits");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "rate limiting rules for pro\n"));
	run_free(&r);
	RUN(f, &r, "migrate", "rate-limits", "--plan", "free");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "rate limiting rules for free\n"));
	run_free(&r);
	free(file);
	free(dir);
}

/* --apply adds; a re-run adds nothing; --disable-legacy disables. */
static void
test_apply_idempotent(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		 ids[8][33];
	int		 total;

	legacy_ids(f, ids);
	ep_clear(f);
	RUN(f, &r, "migrate", "rate-limits", ids[0], ids[1], "--plan",
	    "business", "--apply");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "applied (rule "));
	assert_true(has(r.err, "2 applied, 0 skipped (already there), 0 "
	    "failed"));
	assert_true(has(r.err, "legacy rule unchanged"));
	assert_int_equal(ep_has(f, ids[0]), 1);
	assert_int_equal(ep_has(f, ids[1]), 1);
	assert_false(legacy_disabled(f, ids[0]));
	run_free(&r);

	/* Again, with a third rule and --disable-legacy. */
	RUN(f, &r, "migrate", "rate-limits", ids[0], ids[1], ids[5], "--plan",
	    "business", "--apply", "--disable-legacy");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "1 applied, 2 skipped (already there)"));
	assert_int_equal(ep_has(f, ids[0]), 1);
	assert_int_equal(ep_has(f, ids[1]), 1);
	assert_int_equal(ep_has(f, ids[5]), 1);
	ep_count_ref(f, NULL, &total);
	assert_int_equal(total, 3);
	assert_true(legacy_disabled(f, ids[0]));
	assert_true(legacy_disabled(f, ids[1]));
	assert_true(legacy_disabled(f, ids[5]));
	assert_false(legacy_disabled(f, ids[2]));
	run_free(&r);

	/* A third run changes nothing at all. */
	RUN(f, &r, "migrate", "rate-limits", ids[0], ids[1], ids[5], "--plan",
	    "business", "--apply", "--disable-legacy");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "0 applied, 3 skipped"));
	assert_true(has(r.err, "legacy rule was already disabled"));
	ep_count_ref(f, NULL, &total);
	assert_int_equal(total, 3);
	run_free(&r);
}

/* More rules than the plan holds: those that fit, then a clear refusal. */
static void
test_quota(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		 ids[8][33];
	int		 total;

	legacy_ids(f, ids);
	ep_clear(f);
	RUN(f, &r, "migrate", "rate-limits", ids[0], ids[2], ids[3], "--plan",
	    "pro", "--apply", "--disable-legacy");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "not applied: the entry point would hold too "
	    "many rules (the Pro plan allows 2 rules); legacy rule still "
	    "enabled"));
	assert_true(has(r.err, "2 applied"));
	ep_count_ref(f, NULL, &total);
	assert_int_equal(total, 2);
	assert_true(legacy_disabled(f, ids[0]));
	assert_false(legacy_disabled(f, ids[3]));
	run_free(&r);
}

/* Usage errors: nothing is read or sent. */
static void
test_usage(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;

	RUN(f, &r, "migrate", "rate-limits", "--disable-legacy");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--disable-legacy needs --apply"));
	run_free(&r);
	RUN(f, &r, "migrate", "videos");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "only rate-limits can be migrated"));
	run_free(&r);
	RUN(f, &r, "migrate", "rate-limits", "--plan", "gold");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "'gold' is not free, pro, business or "
	    "enterprise"));
	run_free(&r);
	RUN(f, &r, "get", "rate-limits", "--apply");
	assert_int_equal(r.status, 2);
	run_free(&r);
	/* Read-only: --apply is refused before the rules are read. */
	RUN(f, &r, "--readonly", "migrate", "rate-limits", "--apply", "--plan",
	    "pro");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "read-only: migrate --apply refused"));
	assert_string_equal(r.out, "");
	run_free(&r);
}

/* -o json: each legacy rule, its translation and its warnings. */
static void
test_json(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*v, *one;

	RUN(f, &r, "-o", "json", "migrate", "rate-limits", "--plan",
	    "business");
	assert_int_equal(r.status, 0);
	assert_non_null(v = cJSON_Parse(r.out));
	assert_true(cJSON_GetArraySize(v) > 0);
	one = cJSON_GetArrayItem(v, 0);
	assert_true(cJSON_IsString(cJSON_GetObjectItem(one, "legacy_id")));
	assert_true(cJSON_IsObject(cJSON_GetObjectItem(one, "rule")));
	assert_true(cJSON_IsArray(cJSON_GetObjectItem(one, "warnings")));
	cJSON_Delete(v);
	run_free(&r);
}

/*
 * A server on Business refuses what a translation for Enterprise uses
 * (log, ssl): the first rule (a challenge) is applied, the second (a
 * simulate) fails, the third is not tried, and no legacy rule is disabled.
 */
static int
business_setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	edgemu_start(&f->emu, NULL, 1, "--plan", "business", NULL);
	assert_non_null(f->home = testdir_new("migrate"));
	*state = f;
	return (0);
}

static void
test_failure_half_way(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		 ids[8][33], *line;

	legacy_ids(f, ids);
	ep_clear(f);
	RUN(f, &r, "migrate", "rate-limits", ids[2], ids[1], ids[0], "--plan",
	    "enterprise", "--apply", "--disable-legacy");
	assert_int_equal(r.status, 1);
	line = itest_printf("legacy %s: applied (rule ", ids[2]);
	assert_true(has(r.err, line));
	free(line);
	line = itest_printf("legacy %s: failed: ", ids[1]);
	assert_true(has(r.err, line));
	free(line);
	line = itest_printf("legacy %s: not tried (stopped after a failure); "
	    "legacy rule still enabled", ids[0]);
	assert_true(has(r.err, line));
	free(line);
	assert_true(has(r.err, "1 applied, 0 skipped (already there), 1 "
	    "failed, 1 not tried"));
	assert_int_equal(ep_has(f, ids[2]), 1);
	assert_int_equal(ep_has(f, ids[1]), 0);
	assert_false(legacy_disabled(f, ids[2]));
	run_free(&r);

	/* Run again for the plan the server has: it completes. */
	RUN(f, &r, "migrate", "rate-limits", ids[2], ids[1], ids[0], "--plan",
	    "business", "--apply", "--disable-legacy");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "2 applied, 1 skipped (already there), 0 "
	    "failed, 0 not tried"));
	assert_true(legacy_disabled(f, ids[0]));
	assert_true(legacy_disabled(f, ids[2]));
	run_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, cli_setup, cli_teardown)
		T(test_preview),
		T(test_profile_plan),
		T(test_apply_idempotent),
		T(test_quota),
		T(test_usage),
		T(test_json),
		cmocka_unit_test_setup_teardown(test_failure_half_way,
		    business_setup, cli_teardown),
#undef T
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
