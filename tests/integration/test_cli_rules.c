/*
 * Integration tests: the rate limiting rules commands (rate-limit-rules,
 * rulesets, rule-versions, expr, rules test) run as a user would against
 * edgemu's Rulesets API, the result checked on the server through the API;
 * and a counting server to show that a refused rule sends nothing.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "clitest.h"
#include "faultd.h"
#include "itest.h"

/* A zone without an entry point (edgemu serves any zone id). */
#define FRESH_ZONE	"0123456789abcdef0123456789abcdef"
#define FRESH_ENV	"CLOUDFLARE_ZONE_ID=" FRESH_ZONE
#define ABSENT_ID	"ffffffffffffffffffffffffffffffff"

#define RUN_ENV(f, env, r, ...) do {					\
	const char *const run_env_[] = { (env), NULL };			\
	const char *const run_args_[] = { __VA_ARGS__, NULL };		\
	run_cli((f), run_env_, run_args_, (r));				\
} while (0)

static const char rule_yaml[] =
    "description: %s\n"
    "action: block\n"
    "expression: http.request.uri.path eq \"/%s\"\n"
    "ratelimit:\n"
    "  characteristics: [cf.colo.id, ip.src]\n"
    "  period: 60\n"
    "  requests_per_period: 10\n"
    "  mitigation_timeout: 600\n";

static char *
file_in(struct fixture *f, const char *name, const char *text)
{
	char	*path = itest_printf("%s/%s", f->home, name);

	spill(path, text, 0600);
	return (path);
}

/* A rule file described desc, matching the path /desc. */
static char *
rule_file(struct fixture *f, const char *desc)
{
	char	*text = itest_printf(rule_yaml, desc, desc), *path;

	path = file_in(f, "rule.yaml", text);
	free(text);
	return (path);
}

static int
has(const char *s, const char *what)
{
	return (strstr(s, what) != NULL);
}

static char *
entry_path(const char *zone)
{
	return (itest_printf("/zones/%s/rulesets/phases/http_ratelimit/"
	    "entrypoint", zone));
}

/* The zone's entry point through the API (caller frees). */
static cJSON *
entry(struct fixture *f, const char *zone)
{
	char	*path = entry_path(zone);
	cJSON	*ep = api_ok(&f->emu, "GET", path, NULL);

	free(path);
	return (ep);
}

static cJSON *
rules_of(cJSON *ep)
{
	cJSON	*rules = cJSON_GetObjectItem(ep, "rules");

	assert_true(cJSON_IsArray(rules));
	return (rules);
}

static const char *
str(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItem(o, key);

	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

/* The id of the demo zone's rule at index i (caller frees). */
static char *
rule_id(struct fixture *f, int i)
{
	cJSON	*ep = entry(f, f->emu.zone);
	char	*id;

	id = strdup(str(cJSON_GetArrayItem(rules_of(ep), i), "id"));
	cJSON_Delete(ep);
	return (id);
}

static char *
version_of(struct fixture *f, const char *zone)
{
	cJSON	*ep = entry(f, zone);
	char	*v = strdup(str(ep, "version"));

	cJSON_Delete(ep);
	return (v);
}

/* The index of the rule described desc in the demo zone, or -1. */
static int
index_of(struct fixture *f, const char *desc)
{
	cJSON	*ep = entry(f, f->emu.zone), *r;
	int	 i = 0, at = -1;

	cJSON_ArrayForEach(r, rules_of(ep)) {
		if (str(r, "description") != NULL &&
		    strcmp(str(r, "description"), desc) == 0)
			at = i;
		i++;
	}
	cJSON_Delete(ep);
	return (at);
}

/* ---- lists, reads ------------------------------------------------------- */

static void
test_list_absent_is_empty(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*path = entry_path(FRESH_ZONE);

	/* The API says 404 ... */
	free(api_fail(&f->emu, "GET", path, NULL, 404));
	/* ... which is no rules, not an error. */
	RUN_ENV(f, FRESH_ENV, &r, "get", "rate-limit-rules");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 1);
	assert_true(has(r.out, "EXPRESSION"));
	assert_string_equal(r.err, "");
	run_free(&r);
	RUN_ENV(f, FRESH_ENV, &r, "get", "rules", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "[]\n");
	run_free(&r);
	RUN_ENV(f, FRESH_ENV, &r, "get", "rule-versions", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "[]\n");
	run_free(&r);
	/* One rule of none: refused as not found. */
	RUN_ENV(f, FRESH_ENV, &r, "get", "rlr", ABSENT_ID);
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "no rule " ABSENT_ID));
	run_free(&r);
	free(path);
}

/* The widest line of text. */
static size_t
widest_line(const char *text)
{
	size_t	len, widest = 0;

	for (; *text != '\0'; text += len + (text[len] == '\n')) {
		len = strcspn(text, "\n");
		if (len > widest)
			widest = len;
	}
	return (widest);
}

/*
 * A table fits the terminal's width (COLUMNS here): the lines never wrap,
 * the other columns go before a name is cut, and a wide terminal shows
 * whole what a narrow one cuts.
 */
static void
table_widths(struct fixture *f)
{
	struct run	r;

	RUN_ENV(f, "COLUMNS=80", &r, "get", "rules");
	assert_int_equal(r.status, 0);
	assert_true(widest_line(r.out) <= 80);
	assert_int_equal(count_lines(r.out), 7);
	assert_true(has(r.out, "  Login form: block credential stuffing"));
	assert_true(has(r.out, "  Password reset: count failures only"));
	assert_null(strstr(r.out, "..."));
	run_free(&r);
	RUN_ENV(f, "COLUMNS=220", &r, "get", "rules");
	assert_int_equal(r.status, 0);
	assert_true(widest_line(r.out) <= 220);
	assert_true(has(r.out, "  Login form: block credential stuffing  "));
	assert_true(has(r.out, "  cf.colo.id,cf.unique_visitor_id  "));
	assert_true(has(r.out, "EXPRESSION"));
	run_free(&r);
	/* Too narrow for the names: cut, and saying so, but no wrap. */
	RUN_ENV(f, "COLUMNS=60", &r, "get", "rules");
	assert_int_equal(r.status, 0);
	assert_true(widest_line(r.out) <= 60);
	assert_true(has(r.out, "  Login form: block"));
	assert_true(has(r.out, "..."));
	run_free(&r);
}

static void
test_list_in_order(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*ep, *list, *a;
	char		*id;
	int		 i;

	RUN(f, &r, "get", "rules", "-o", "json");
	assert_int_equal(r.status, 0);
	list = cJSON_Parse(r.out);
	ep = entry(f, f->emu.zone);
	assert_int_equal(cJSON_GetArraySize(list), 6);
	/* The data as the server sent it: the number is the table's. */
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "position"));
	for (i = 0; i < 6; i++)
		assert_string_equal(str(cJSON_GetArrayItem(list, i), "id"),
		    str(cJSON_GetArrayItem(rules_of(ep), i), "id"));
	cJSON_Delete(list);
	run_free(&r);

	/* The table: header, then the rules in order. */
	RUN(f, &r, "get", "rate-limit-rules");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 7);
	assert_true(has(r.out, "ACTION"));
	assert_true(has(r.out, "5/60s"));
	/* Numbered in order; a 0 timeout throttles. */
	assert_true(has(r.out, " #  DESCRIPTION"));
	assert_true(has(r.out, "throttle"));
	/* No terminal and no COLUMNS: nothing is cut. */
	assert_true(has(r.out, "  Public API: throttle bursts  "));
	assert_true(has(r.out, "  cf.colo.id,cf.unique_visitor_id  "));
	assert_null(strstr(r.out, "..."));
	a = cJSON_GetArrayItem(rules_of(ep), 0);
	assert_true(strstr(r.out, str(a, "id")) <
	    strstr(r.out, str(cJSON_GetArrayItem(rules_of(ep), 1), "id")));
	run_free(&r);
	table_widths(f);

	id = rule_id(f, 2);
	RUN(f, &r, "get", "rlr", id, "-o", "json");
	assert_int_equal(r.status, 0);
	a = cJSON_Parse(r.out);
	assert_string_equal(str(a, "id"), id);
	assert_string_equal(str(a, "description"), "Search scrapers");
	cJSON_Delete(a);
	run_free(&r);
	RUN(f, &r, "get", "rules", "not-an-id");
	assert_int_equal(r.status, 2);
	run_free(&r);
	free(id);
	cJSON_Delete(ep);
}

static void
test_rulesets_and_versions(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*v, *ep = entry(f, f->emu.zone);

	RUN(f, &r, "get", "rulesets");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "PHASE"));
	assert_true(has(r.out, "http_ratelimit"));
	assert_true(has(r.out, str(ep, "id")));
	run_free(&r);
	RUN(f, &r, "get", "rulesets", "-o", "json", "--limit", "1");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_int_equal(cJSON_GetArraySize(v), 1);
	/* A list leaves the rules out. */
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(v, 0), "rules"));
	cJSON_Delete(v);
	run_free(&r);
	RUN(f, &r, "get", "rulesets", str(ep, "id"), "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "rules")),
	    6);
	cJSON_Delete(v);
	run_free(&r);

	/*
	 * The demo's two versions; version 1 had five rules. The list's
	 * answer has no rules: no column of "-" for them.
	 */
	RUN(f, &r, "get", "rule-versions");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 3);
	assert_true(has(r.out, "VERSION"));
	assert_false(has(r.out, "RULES"));
	assert_false(has(r.out, " - "));
	/* Newest first, the current one marked. */
	assert_true(has(r.out, "CURRENT"));
	assert_non_null(strstr(r.out, "\n      2  yes "));
	assert_true(strstr(r.out, "\n      2 ") < strstr(r.out, "\n      1 "));
	assert_false(has(strstr(r.out, "\n      1 "), "yes"));
	run_free(&r);
	RUN(f, &r, "get", "rule-versions", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_string_equal(str(cJSON_GetArrayItem(v, 0), "version"), "2");
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(v, 0), "current"));
	cJSON_Delete(v);
	run_free(&r);
	RUN(f, &r, "get", "rule-versions", "1");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "version 1 of ruleset default"));
	assert_true(has(r.out, ", 5 rules\n"));
	/* The version line, the header, five rules. */
	assert_int_equal(count_lines(r.out), 7);
	assert_false(has(r.out, "Password reset"));
	run_free(&r);
	RUN(f, &r, "get", "rule-versions", "2", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_string_equal(str(v, "version"), "2");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(v, "rules")),
	    6);
	cJSON_Delete(v);
	run_free(&r);
	RUN(f, &r, "get", "rule-versions", "two");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "get", "rule-versions", "99");
	assert_int_equal(r.status, 1);
	run_free(&r);
	cJSON_Delete(ep);
}

/* ---- writes ------------------------------------------------------------- */

static void
test_create_if_absent(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file = rule_file(f, "first ever"), *path;
	cJSON		*ep, *list;

	/* A position naming a rule of an absent entry point: refused. */
	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file,
	    "--position", "after:" ABSENT_ID);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "no such rate limiting rule"));
	run_free(&r);
	path = entry_path(FRESH_ZONE);
	free(api_fail(&f->emu, "GET", path, NULL, 404));

	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file, "-o",
	    "json");
	assert_int_equal(r.status, 0);
	list = cJSON_Parse(r.out);
	assert_string_equal(str(list, "description"), "first ever");
	run_free(&r);
	ep = entry(f, FRESH_ZONE);
	assert_string_equal(str(ep, "name"), "default");
	assert_string_equal(str(ep, "phase"), "http_ratelimit");
	assert_int_equal(cJSON_GetArraySize(rules_of(ep)), 1);
	assert_string_equal(str(cJSON_GetArrayItem(rules_of(ep), 0), "id"),
	    str(list, "id"));
	cJSON_Delete(list);
	cJSON_Delete(ep);

	/* The next one goes into it, at the end. */
	free(file);
	file = rule_file(f, "second");
	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 0);
	run_free(&r);
	ep = entry(f, FRESH_ZONE);
	assert_int_equal(cJSON_GetArraySize(rules_of(ep)), 2);
	assert_string_equal(str(cJSON_GetArrayItem(rules_of(ep), 1),
	    "description"), "second");
	cJSON_Delete(ep);
	free(path);
	free(file);
}

/*
 * The entry point made by someone else between edgetui's GET (404) and
 * its POST /rulesets (409): the rule goes into theirs, whose rules stay.
 */
static void
test_create_race(void **state)
{
	static const char json_type[] = "Content-Type: application/json\r\n";
	static const char theirs[] = "{\"success\":true,\"errors\":[],"
	    "\"result\":{\"id\":\"" ABSENT_ID "\",\"name\":\"default\","
	    "\"kind\":\"zone\",\"phase\":\"http_ratelimit\",\"version\":"
	    "\"1\",\"rules\":[{\"id\":\"" FRESH_ZONE "\",\"action\":"
	    "\"log\"}]}}";
	static const char added[] = "{\"success\":true,\"errors\":[],"
	    "\"result\":{\"id\":\"" ABSENT_ID "\",\"version\":\"2\","
	    "\"rules\":[{\"id\":\"" FRESH_ZONE "\",\"action\":\"log\"},"
	    "{\"id\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"action\":"
	    "\"block\",\"description\":\"raced\"}]}}";
	const struct faultd_reply replies[] = {
		{ .status = 404, .headers = json_type, .body = "{\"success\":"
		    "false,\"errors\":[{\"code\":10003,\"message\":\"no "
		    "entry point\"}],\"result\":null}" },
		{ .status = 409, .headers = json_type, .body = "{\"success\":"
		    "false,\"errors\":[{\"code\":20217,\"message\":\"the "
		    "zone already has an entry point\"}],\"result\":null}" },
		{ .status = 200, .headers = json_type, .body = theirs },
		{ .status = 200, .headers = json_type, .body = added },
	};
	static const char *const want[][2] = {
		{ "GET", "/rulesets/phases/http_ratelimit/entrypoint" },
		{ "POST", "/rulesets" },
		{ "GET", "/rulesets/phases/http_ratelimit/entrypoint" },
		{ "POST", "/rulesets/" ABSENT_ID "/rules" },
	};
	struct fixture		*f = *state;
	struct faultd		*fd = faultd_start(0);
	struct faultd_request	 rq;
	struct run		 r;
	char			*file = rule_file(f, "raced"), *url, *path;
	const char		*env[2];
	size_t			 i;

	assert_non_null(fd);
	faultd_script(fd, replies, 4);
	url = itest_printf("CLOUDFLARE_BASE_URL=%s", faultd_url(fd));
	env[0] = url;
	env[1] = NULL;
	{
		const char *const args[] = { "create", "rules", "-f", file,
		    "-o", "json", NULL };

		run_cli(f, env, args, &r);
	}
	faultd_stop(fd);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
	assert_true(has(r.err, "made meanwhile"));
	assert_int_equal(faultd_count(fd), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(faultd_request(fd, i, &rq), 0);
		path = itest_printf("/zones/%s%s", f->emu.zone, want[i][1]);
		assert_string_equal(rq.method, want[i][0]);
		assert_string_equal(rq.path, path);
		free(path);
		/* The entry point is made whole; the rule sent alone. */
		if (i == 1) {
			assert_true(has(rq.body, "\"kind\":\"zone\""));
			assert_true(has(rq.body,
			    "\"phase\":\"http_ratelimit\""));
			assert_true(has(rq.body, "\"name\":\"default\""));
		}
		if (i == 3) {
			assert_true(has(rq.body, "\"description\":\"raced\""));
			assert_false(has(rq.body, "\"rules\""));
		}
		faultd_request_free(&rq);
	}
	run_free(&r);
	faultd_free(fd);
	free(url);
	free(file);
}

/* create --position P with a rule described desc; its index after. */
static int
create_at(struct fixture *f, const char *desc, const char *position)
{
	struct run	 r;
	char		*file = rule_file(f, desc);

	RUN(f, &r, "create", "rules", "-f", file, "--position", position);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, desc));
	run_free(&r);
	free(file);
	return (index_of(f, desc));
}

static void
test_create_positions(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *id0, *id2, *pos, *v;
	cJSON		*ep;

	id0 = rule_id(f, 0);
	id2 = rule_id(f, 2);
	assert_int_equal(create_at(f, "at-first", "first"), 0);
	assert_int_equal(create_at(f, "at-last", "last"), 7);
	/* Now: at-first, demo 0..5, at-last. */
	pos = itest_printf("before:%s", id2);
	assert_int_equal(create_at(f, "before-2", pos), 3);
	free(pos);
	pos = itest_printf("after:%s", id0);
	assert_int_equal(create_at(f, "after-0", pos), 2);
	free(pos);
	assert_int_equal(create_at(f, "index-2", "2"), 1);
	ep = entry(f, f->emu.zone);
	assert_int_equal(cJSON_GetArraySize(rules_of(ep)), 11);
	assert_string_equal(str(cJSON_GetArrayItem(rules_of(ep), 10),
	    "description"), "at-last");
	cJSON_Delete(ep);

	/* Positions that cannot be: refused, nothing changed. */
	v = version_of(f, f->emu.zone);
	file = rule_file(f, "nowhere");
	RUN(f, &r, "create", "rules", "-f", file, "--position", "sideways");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--position"));
	run_free(&r);
	RUN(f, &r, "create", "rules", "-f", file, "--position", "13");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--position 13 is out of range: give a number "
	    "from 1 to 12"));
	run_free(&r);
	RUN(f, &r, "create", "rules", "-f", file, "--position", "before:"
	    ABSENT_ID);
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "create", "rules", "-f", file, "--opacity", "0.5");
	assert_int_equal(r.status, 2);
	run_free(&r);
	pos = version_of(f, f->emu.zone);
	assert_string_equal(pos, v);
	free(pos);
	free(v);
	free(file);
	free(id0);
	free(id2);
}

static void
test_update_is_whole(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*ep, *rule;
	char		*id = rule_id(f, 0), *file;

	/* The demo's first rule has a description and a custom response. */
	ep = entry(f, f->emu.zone);
	rule = cJSON_GetArrayItem(rules_of(ep), 0);
	assert_non_null(cJSON_GetObjectItem(rule, "action_parameters"));
	assert_string_not_equal(str(rule, "description"), "");
	cJSON_Delete(ep);

	/* A file without them: PATCH is not a merge, so they are gone. */
	file = file_in(f, "upd.yaml",
	    "action: managed_challenge\n"
	    "expression: http.request.uri.path eq \"/updated\"\n"
	    "ratelimit:\n"
	    "  characteristics: [cf.colo.id, ip.src]\n"
	    "  period: 10\n"
	    "  requests_per_period: 3\n"
	    "  mitigation_timeout: 0\n");
	RUN(f, &r, "update", "rules", id, "-f", file, "-o", "json");
	assert_int_equal(r.status, 0);
	rule = cJSON_Parse(r.out);
	assert_string_equal(str(rule, "id"), id);
	cJSON_Delete(rule);
	run_free(&r);
	ep = entry(f, f->emu.zone);
	rule = cJSON_GetArrayItem(rules_of(ep), 0);
	assert_string_equal(str(rule, "id"), id);
	assert_string_equal(str(rule, "action"), "managed_challenge");
	assert_string_equal(str(rule, "expression"),
	    "http.request.uri.path eq \"/updated\"");
	assert_null(cJSON_GetObjectItem(rule, "action_parameters"));
	assert_true(str(rule, "description") == NULL ||
	    strcmp(str(rule, "description"), "") == 0);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(rule,
	    "ratelimit"), "period")->valueint, 10);
	cJSON_Delete(ep);

	/* A rule the zone does not have; a file that is not a rule. */
	RUN(f, &r, "update", "rules", ABSENT_ID, "-f", file);
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "no rule"));
	run_free(&r);
	free(file);
	file = file_in(f, "list.yaml", "- 1\n- 2\n");
	RUN(f, &r, "update", "rules", id, "-f", file);
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "update", "rules", id);
	assert_int_equal(r.status, 2);
	run_free(&r);
	free(file);
	free(id);
}

static void
test_edit(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id = rule_id(f, 2), *script, *editor, *v, *w;
	char		*reopened, *text, *script_text = NULL;
	const char	*env[2];
	cJSON		*ep, *rule;

	script = itest_printf("%s/editor.sh", f->home);
	spill(script, "#!/bin/sh\n"
	    "sed -i 's/^  requests_per_period: .*/  requests_per_period: 77/'"
	    " \"$1\"\n", 0700);
	editor = itest_printf("EDITOR=%s", script);
	env[0] = editor;
	env[1] = NULL;
	{
		const char *const args[] = { "edit", "rules", id, "--yes",
		    NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "ratelimit.requests_per_period: 30 "
	    "\xe2\x86\x92 77"));
	run_free(&r);
	ep = entry(f, f->emu.zone);
	rule = cJSON_GetArrayItem(rules_of(ep), 2);
	assert_string_equal(str(rule, "id"), id);
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(rule,
	    "ratelimit"), "requests_per_period")->valueint, 77);
	/* The rest of the rule is kept: the PATCH sent it whole. */
	assert_string_equal(str(rule, "description"), "Search scrapers");
	assert_string_equal(str(rule, "action"), "js_challenge");
	cJSON_Delete(ep);

	/* Again: nothing to change, nothing sent. */
	v = version_of(f, f->emu.zone);
	{
		const char *const args[] = { "edit", "rules", id, "--yes",
		    NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "no change"));
	run_free(&r);

	/* An edit that breaks the rule: refused before anything is sent. */
	spill(script, "#!/bin/sh\n"
	    "grep -q 'edgetui: the change was not applied' \"$1\" && exit 0\n"
	    "sed -i 's/- cf.colo.id/- ip.src.asnum/' \"$1\"\n", 0700);
	{
		const char *const args[] = { "edit", "rules", id, "--yes",
		    NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "cf.colo.id"));
	run_free(&r);

	/*
	 * A bad expression reopens the editor with the problem on top, its
	 * column and a caret; given up, it is shown as create and update
	 * show it.
	 */
	reopened = itest_printf("%s/reopened.yaml", f->home);
	free(script_text);
	script_text = itest_printf("#!/bin/sh\n"
	    "if grep -q 'edgetui: the change was not applied' \"$1\"; then\n"
	    "  cp \"$1\" '%s'; exit 0\nfi\n"
	    "sed -i 's/^expression: .*/expression: http.hostt eq x/' \"$1\"\n",
	    reopened);
	spill(script, script_text, 0700);
	{
		const char *const args[] = { "edit", "rules", id, "--yes",
		    NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expression:1:1: "));
	assert_true(has(r.err, "\nhttp.hostt eq x\n^^^"));
	assert_false(has(r.err, "column"));
	/* Shown once: not again as lines of their own. */
	assert_false(has(r.err, "edgetui: ^"));
	assert_false(has(r.err, "edgetui: http.hostt"));
	assert_null(strstr(strstr(r.err, "^^^"), "http.hostt"));
	run_free(&r);
	text = slurp(reopened);
	assert_non_null(text);
	assert_true(has(text, "#   expression: column 1: "));
	assert_true(has(text, "#   http.hostt eq x\n#   ^^^"));
	assert_true(has(text, "\nexpression: http.hostt eq x\n"));
	free(text);
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);
	free(w);

	/* Fixed in the reopened editor: saved, as the console's E saves. */
	free(script_text);
	script_text = itest_printf("#!/bin/sh\n"
	    "if grep -q 'edgetui: the change was not applied' \"$1\"; then\n"
	    "  sed -i 's/^expression: .*/expression: http.host eq \"x\"/' "
	    "\"$1\"; exit 0\nfi\n"
	    "sed -i 's/^expression: .*/expression: http.hostt eq x/' \"$1\"\n");
	spill(script, script_text, 0700);
	{
		const char *const args[] = { "edit", "rules", id, "--yes",
		    NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	run_free(&r);
	ep = entry(f, f->emu.zone);
	rule = cJSON_GetArrayItem(rules_of(ep), 2);
	assert_string_equal(str(rule, "expression"), "http.host eq \"x\"");
	cJSON_Delete(ep);
	free(script_text);
	free(reopened);
	free(v);
	free(editor);
	free(script);
	free(id);
}

static void
test_delete_several(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*a = rule_id(f, 1), *b = rule_id(f, 4), *v, *w;
	cJSON		*ep;

	/* One id the zone lacks: nothing is deleted. */
	v = version_of(f, f->emu.zone);
	RUN(f, &r, "delete", "rules", a, ABSENT_ID);
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "nothing was deleted"));
	run_free(&r);
	RUN(f, &r, "delete", "rules", a, "zz");
	assert_int_equal(r.status, 2);
	run_free(&r);
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);

	RUN(f, &r, "delete", "rules", a, b);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, a));
	assert_true(has(r.out, b));
	assert_int_equal(count_lines(r.out), 2);
	run_free(&r);
	ep = entry(f, f->emu.zone);
	assert_int_equal(cJSON_GetArraySize(rules_of(ep)), 4);
	assert_int_equal(index_of(f, "Public API: throttle bursts"), -1);
	assert_int_equal(index_of(f, "Search scrapers"), 1);
	cJSON_Delete(ep);
	free(a);
	/* -o yaml: the rule deleted, as it was; the line on stderr. */
	a = rule_id(f, 1);
	RUN(f, &r, "-o", "yaml", "delete", "rules", a);
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, a));
	assert_true(has(r.out, "- id: "));
	assert_true(has(r.out, a));
	assert_true(has(r.out, "description: Search scrapers"));
	run_free(&r);
	free(v);
	free(w);
	free(a);
	free(b);
}

/* ---- enable and disable ------------------------------------------------- */

static int
enabled_at(struct fixture *f, int i)
{
	cJSON	*ep = entry(f, f->emu.zone);
	int	 on;

	on = !cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    rules_of(ep), i), "enabled"));
	cJSON_Delete(ep);
	return (on);
}

static void
test_enable_disable(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*login = rule_id(f, 0), *v2 = rule_id(f, 4), *v, *w;
	char		*line;
	cJSON		*ep, *rule;

	/* The demo's rule 0 is on, rule 4 (Version 2 API) off. */
	assert_true(enabled_at(f, 0));
	assert_false(enabled_at(f, 4));

	/* Off: the rule PATCHed whole, the rest of it kept. */
	RUN(f, &r, "disable", "rules", login);
	assert_int_equal(r.status, 0);
	line = itest_printf("disabled rate-limit-rules %s\n", login);
	assert_string_equal(r.out, line);
	free(line);
	run_free(&r);
	assert_false(enabled_at(f, 0));
	ep = entry(f, f->emu.zone);
	rule = cJSON_GetArrayItem(rules_of(ep), 0);
	assert_string_equal(str(rule, "id"), login);
	assert_string_equal(str(rule, "description"),
	    "Login form: block credential stuffing");
	assert_non_null(cJSON_GetObjectItem(rule, "action_parameters"));
	assert_non_null(cJSON_GetObjectItem(rule, "ratelimit"));
	cJSON_Delete(ep);

	/* Already off: said, nothing sent (the version stays). */
	v = version_of(f, f->emu.zone);
	RUN(f, &r, "disable", "rate-limit-rules", login);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "already"));
	assert_true(has(r.out, "nothing sent"));
	run_free(&r);
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);
	free(w);

	/* An id the zone lacks: nothing is changed; bad usage: 2. */
	RUN(f, &r, "enable", "rules", login, ABSENT_ID);
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "nothing was enabled"));
	run_free(&r);
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);
	free(w);
	free(v);
	assert_false(enabled_at(f, 0));
	RUN(f, &r, "enable", "rules", "zz");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "enable", "rules");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN_ENV(f, "CLOUDFLARE_BASE_URL=http://127.0.0.1:1/client/v4", &r,
	    "enable", "rules", login);
	assert_int_equal(r.status, 3);
	run_free(&r);

	/* Both on, one request each. */
	RUN(f, &r, "enable", "rules", login, v2);
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 2);
	assert_true(has(r.out, login));
	assert_true(has(r.out, v2));
	run_free(&r);
	assert_true(enabled_at(f, 0));
	assert_true(enabled_at(f, 4));

	/* -o json: the rule as the server keeps it; already so, as it is,
	 * the note on stderr. */
	/* An id given twice is sent once: one document, one new version. */
	v = version_of(f, f->emu.zone);
	RUN(f, &r, "-o", "json", "disable", "rules", v2, v2);
	w = version_of(f, f->emu.zone);
	assert_int_equal(atoi(w), atoi(v) + 1);
	free(v);
	free(w);
	assert_int_equal(r.status, 0);
	assert_non_null(rule = cJSON_Parse(r.out));
	assert_string_equal(str(rule, "id"), v2);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(rule, "enabled")));
	assert_non_null(cJSON_GetObjectItem(rule, "ratelimit"));
	cJSON_Delete(rule);
	run_free(&r);
	RUN(f, &r, "-o", "json", "disable", "rules", v2);
	assert_int_equal(r.status, 0);
	assert_non_null(rule = cJSON_Parse(r.out));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(rule, "enabled")));
	cJSON_Delete(rule);
	assert_true(has(r.err, "nothing sent"));
	run_free(&r);
	assert_false(enabled_at(f, 4));
	free(login);
	free(v2);
}

/* ---- lint before sending ------------------------------------------------ */

/* edgetui against a counting server: the requests it received. */
static size_t
run_counted(struct fixture *f, struct run *r, const char *const *args)
{
	static const struct faultd_reply reply = {
		.act = FAULTD_REPLY, .status = 500,
		.headers = "Content-Type: application/json\r\n",
		.body = "{\"success\":false,\"errors\":[{\"code\":1,"
		    "\"message\":\"counted\"}],\"result\":null}"
	};
	struct faultd	*fd = faultd_start(0);
	char		*url;
	const char	*env[2];
	size_t		 n;

	assert_non_null(fd);
	faultd_script(fd, &reply, 1);
	url = itest_printf("CLOUDFLARE_BASE_URL=%s", faultd_url(fd));
	env[0] = url;
	env[1] = NULL;
	run_cli(f, env, args, r);
	faultd_stop(fd);
	n = faultd_count(fd);
	faultd_free(fd);
	free(url);
	return (n);
}

static void
test_lint_sends_nothing(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *line;
	const char	*expr = "http.request.uri.path eq \"/a\" and "
			    "http.hostt eq \"b\"";

	file = file_in(f, "bad.yaml",
	    "action: block\n"
	    "expression: 'http.request.uri.path eq \"/a\" and "
	    "http.hostt eq \"b\"'\n"
	    "ratelimit:\n"
	    "  characteristics: [cf.colo.id, ip.src]\n"
	    "  period: 60\n"
	    "  requests_per_period: 10\n"
	    "  mitigation_timeout: 600\n");
	{
		const char *const args[] = { "create", "rules", "-f", file,
		    NULL };

		assert_int_equal(run_counted(f, &r, args), 0);
	}
	assert_int_equal(r.status, 2);
	/* The column, the expression, a caret under the column. */
	assert_true(strncmp(r.err, "expression:1:35: ", 17) == 0);
	assert_true(has(r.err, "http.hostt"));
	line = itest_printf("\n%s\n%34s^", expr, "");
	assert_true(has(r.err, line));
	free(line);
	assert_true(has(r.err, "nothing was sent"));
	run_free(&r);
	{
		const char *const args[] = { "update", "rules", ABSENT_ID,
		    "-f", file, NULL };

		assert_int_equal(run_counted(f, &r, args), 0);
	}
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expression:1:35: "));
	run_free(&r);
	free(file);

	/* What the service checks besides the expression. */
	file = file_in(f, "bad2.yaml",
	    "action: block\n"
	    "expression: http.request.uri.path eq \"/a\"\n"
	    "ratelimit:\n"
	    "  characteristics: [ip.src]\n"
	    "  period: 60\n"
	    "  requests_per_period: 10\n"
	    "  mitigation_timeout: 600\n");
	{
		const char *const args[] = { "create", "rules", "-f", file,
		    NULL };

		assert_int_equal(run_counted(f, &r, args), 0);
	}
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "ratelimit.characteristics"));
	assert_true(has(r.err, "cf.colo.id"));
	run_free(&r);
	free(file);

	/* The counting server does count: a valid rule reaches it. */
	file = rule_file(f, "counted");
	{
		const char *const args[] = { "create", "rules", "-f", file,
		    NULL };

		assert_true(run_counted(f, &r, args) >= 1);
	}
	assert_int_equal(r.status, 1);
	run_free(&r);
	free(file);
}

/* The profile's plan: what the plan lacks is refused before sending. */
static void
test_lint_plan_from_profile(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*dir, *cfg, *file, *v, *w;

	dir = itest_printf("%s/config", f->home);
	(void)mkdir(dir, 0700);
	free(dir);
	dir = itest_printf("%s/config/edgetui", f->home);
	(void)mkdir(dir, 0700);
	cfg = itest_printf("%s/config.yaml", dir);
	spill(cfg, "default_profile: shop\n"
	    "profiles:\n"
	    "  shop:\n"
	    "    plan: pro\n", 0600);
	/* matches is Business and above. */
	file = file_in(f, "matches.yaml",
	    "action: block\n"
	    "expression: http.request.uri.path matches \"^/api\"\n"
	    "ratelimit:\n"
	    "  characteristics: [cf.colo.id, ip.src]\n"
	    "  period: 60\n"
	    "  requests_per_period: 10\n"
	    "  mitigation_timeout: 600\n");
	v = version_of(f, f->emu.zone);
	RUN(f, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expression:1:"));
	assert_true(has(r.err, "pro"));
	run_free(&r);
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);
	free(w);
	/* expr check takes the profile's plan too; --plan overrides it. */
	RUN(f, &r, "expr", "check", "http.request.uri.path matches \"^/a\"");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "expr", "check", "http.request.uri.path matches \"^/a\"",
	    "--plan", "enterprise");
	assert_int_equal(r.status, 0);
	run_free(&r);
	/* The same on a plan that has it. */
	spill(cfg, "default_profile: shop\n"
	    "profiles:\n"
	    "  shop:\n"
	    "    plan: business\n", 0600);
	/* A zone with room: the demo's six rules are over Business's 5. */
	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 0);
	run_free(&r);
	/* A plan the config does not know is a problem of the file. */
	spill(cfg, "profiles:\n  shop:\n    plan: gold\n", 0600);
	RUN(f, &r, "expr", "check", "http.host eq \"a\"");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "plan"));
	run_free(&r);
	free(v);
	free(file);
	free(cfg);
	free(dir);
}

/* ---- expr --------------------------------------------------------------- */

/*
 * The plan's quota is checked before anything is sent: the profile says
 * Pro (2 rules) and the zone has 6, so a seventh is refused here, even by
 * a server that would take it.
 */
static void
test_create_over_quota(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*dir, *cfg, *file, *v, *w;

	dir = itest_printf("%s/config", f->home);
	(void)mkdir(dir, 0700);
	free(dir);
	dir = itest_printf("%s/config/edgetui", f->home);
	(void)mkdir(dir, 0700);
	cfg = itest_printf("%s/config.yaml", dir);
	spill(cfg, "default_profile: shop\nprofiles:\n  shop:\n"
	    "    plan: pro\n", 0600);
	file = rule_file(f, "quota");
	v = version_of(f, f->emu.zone);
	RUN(f, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "the zone has 6 rules: with this one, 7 rules "
	    "is over the Pro plan's limit of 2"));
	assert_true(has(r.err, "nothing was sent"));
	run_free(&r);
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);
	free(w);
	/* Room on a zone without rules: the first and the second go. */
	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN_ENV(f, FRESH_ENV, &r, "create", "rules", "-f", file);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "3 rules is over the Pro plan's limit of 2"));
	run_free(&r);
	free(v);
	free(file);
	free(cfg);
	free(dir);
}

/*
 * expr check and eval say what a valid expression most likely gets wrong
 * (a warning; the exit status stays 0) and that a list is not known here
 * (unknown, not false); an error on the second line is said there.
 */
static void
test_expr_notes(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;

	RUN(f, &r, "expr", "check", "http.request.method eq \"get\" and "
	    "any(http.request.headers[\"X-Key\"][*] ne \"\")");
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "expression:1:24: warning: methods are upper "
	    "case: this never matches http.request.method; write \"GET\""));
	assert_true(has(r.err, "expression:1:58: warning: header names are "
	    "lower case in http.request.headers"));
	run_free(&r);
	RUN(f, &r, "expr", "check", "http.host eq 'a.com'");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "use double quotes (\"a.com\")"));
	run_free(&r);
	RUN(f, &r, "expr", "check", "http.host eq \"a.com\"\n"
	    "and http.request.method eqq \"POST\"");
	assert_int_equal(r.status, 2);
	assert_true(strncmp(r.err, "expression:2:25: ", 17) == 0);
	assert_true(has(r.err, "\nand http.request.method eqq \"POST\"\n"
	    "                        ^^^\n"));
	run_free(&r);

	RUN(f, &r, "expr", "eval", "ip.src in $office_ips", "--request",
	    "GET https://example.com/", "--ip", "192.0.2.1");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "unknown\n");
	assert_true(has(r.err, "list $office_ips is not known here"));
	run_free(&r);
	RUN(f, &r, "expr", "eval", "ip.src in $office_ips and ssl",
	    "--request", "GET http://example.com/", "--ip", "192.0.2.1",
	    "--explain");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "false   ip.src in $office_ips and ssl\n"));
	assert_true(has(r.out, "  unknown ip.src in $office_ips    (left: "
	    "192.0.2.1)\n"));
	assert_true(has(r.err, "list $office_ips is not known here"));
	run_free(&r);
}


static void
test_expr_check(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;

	RUN(f, &r, "expr", "check", "http.request.uri.path eq \"/login\"");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "");
	run_free(&r);
	RUN(f, &r, "expr", "check", "http.hostt eq \"a\"");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_true(strncmp(r.err, "expression:1:1: ", 16) == 0);
	assert_true(has(r.err, "\nhttp.hostt eq \"a\"\n^"));
	run_free(&r);
	/* The plan: matches is Business and above. */
	RUN(f, &r, "expr", "check", "http.request.uri.path matches \"^/a\"",
	    "--plan", "free");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expression:1:"));
	run_free(&r);
	RUN(f, &r, "expr", "check", "http.request.uri.path matches \"^/a\"",
	    "--plan", "business");
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "expr", "check", "true", "--plan", "gold");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--plan"));
	run_free(&r);
	/* Response fields only in a counting expression. */
	RUN(f, &r, "expr", "check", "http.response.code eq 429");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "expr", "check", "http.response.code eq 429",
	    "--counting");
	assert_int_equal(r.status, 0);
	run_free(&r);
	/* Usage. */
	RUN(f, &r, "expr", "check");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expr check EXPR"));
	run_free(&r);
	RUN(f, &r, "expr", "frobnicate", "x");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expr check, expr fmt, expr eval"));
	run_free(&r);
}

static void
test_expr_fmt(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*once;

	RUN(f, &r, "expr", "fmt", "http.host   ==\"a\"&&(ip.src in "
	    "{10.0.0.0/8   192.0.2.1})");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(count_lines(r.out), 1);
	assert_false(has(r.out, "  "));
	once = strdup(r.out);
	once[strlen(once) - 1] = '\0';
	run_free(&r);
	/* Canonical: formatting it again changes nothing. */
	RUN(f, &r, "expr", "fmt", once);
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, once, strlen(once)) == 0);
	run_free(&r);
	RUN(f, &r, "expr", "fmt", "http.host eq");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "expression:1:"));
	run_free(&r);
	free(once);
}

/*
 * An expression whose canonical words would pass the 4096 characters the
 * service takes is printed short, with a note: check takes what fmt
 * prints, and fmt prints it again unchanged.
 */
static void
test_expr_fmt_long(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		 x[4200], *out;
	size_t		 n = 0;

	while (n + strlen("&&cf.client.bot") < 4096) {
		if (n > 0)
			n += (size_t)snprintf(x + n, sizeof x - n, "&&");
		n += (size_t)snprintf(x + n, sizeof x - n, "cf.client.bot");
	}
	RUN(f, &r, "expr", "fmt", x);
	assert_int_equal(r.status, 0);
	assert_true(has(r.err, "note: the canonical form would be longer "
	    "than the 4096 characters the service takes: written short"));
	assert_true(strlen(r.out) <= 4097);
	out = strdup(r.out);
	out[strlen(out) - 1] = '\0';
	run_free(&r);
	RUN(f, &r, "expr", "check", out);
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "expr", "fmt", out);
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, out, strlen(out)) == 0);
	assert_int_equal(r.out[strlen(out)], '\n');
	run_free(&r);
	free(out);
}

/*
 * A regex whose backtracking reaches PCRE2's limits: on 30 a's the DFA
 * matcher answers (true, as the service's engine says); on 5000 a's,
 * where it too reaches its limits, the answer is unknown, said on
 * standard error, and --explain marks the comparison.
 */
static void
test_expr_eval_regex_limits(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		 req[5100];

	snprintf(req, sizeof req, "GET https://e.com/");
	memset(req + strlen(req), 'a', 30);
	req[18 + 30] = '\0';
	RUN(f, &r, "expr", "eval", "http.request.uri.path matches "
	    "\"^/(?:(a|aa)+b|a+)$\"", "--request", req);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "true\n");
	run_free(&r);
	memset(req + 18, 'a', 5000);
	req[18 + 5000] = '\0';
	RUN(f, &r, "expr", "eval", "http.request.uri.path matches "
	    "\"(a|aa)+[bc]\"", "--request", req);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "unknown\n");
	assert_true(has(r.err, "note: a regex reached its matching limits: "
	    "not known whether it matches"));
	run_free(&r);
	RUN(f, &r, "expr", "eval", "http.request.uri.path matches "
	    "\"(a|aa)+[bc]\" and ssl", "--request", req, "--explain");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "unknown http.request.uri.path matches", 37)
	    == 0);
	assert_true(has(r.out, "\n  unknown http.request.uri.path matches"));
	assert_true(has(r.out, "\n  true    ssl"));
	run_free(&r);
}

static void
test_expr_eval(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	const char	*e = "http.request.uri.path eq \"/login\" and "
			    "ip.src in {10.0.0.0/8}";

	RUN(f, &r, "expr", "eval", e, "--request",
	    "POST https://example.com/login", "--ip", "10.1.2.3");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "true\n");
	run_free(&r);
	RUN(f, &r, "expr", "eval", e, "--request",
	    "POST https://example.com/login", "--ip", "192.0.2.1");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "false\n");
	run_free(&r);
	/* Headers, country and the response status. */
	RUN(f, &r, "expr", "eval", "any(http.request.headers[\"x-test\"][*] "
	    "eq \"1\") and ip.src.country eq \"GB\"", "--request",
	    "GET https://example.com/", "-H", "X-Test: 1", "--country", "gb");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "true\n");
	run_free(&r);
	RUN(f, &r, "expr", "eval", "http.response.code eq 429", "--request",
	    "GET https://example.com/", "--status", "429");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "true\n");
	run_free(&r);

	/* --explain: the tree, each comparison with its value. */
	RUN(f, &r, "expr", "eval", e, "--request",
	    "POST https://example.com/login", "--ip", "192.0.2.1",
	    "--explain");
	assert_int_equal(r.status, 0);
	assert_true(count_lines(r.out) >= 3);
	assert_true(strncmp(r.out, "false", 5) == 0);
	assert_true(has(r.out, "\n  true "));
	assert_true(has(r.out, "\n  false "));
	assert_true(strstr(r.out, "\n  true ") < strstr(r.out, "\n  false "));
	assert_true(has(r.out, "192.0.2.1"));
	run_free(&r);

	/* Refusals. */
	RUN(f, &r, "expr", "eval", "http.hostt eq \"a\"", "--request",
	    "GET https://example.com/");
	assert_int_equal(r.status, 2);
	assert_true(strncmp(r.err, "expression:1:1: ", 16) == 0);
	run_free(&r);
	/* The response's fields without --status: the error says so. */
	RUN(f, &r, "expr", "eval", "http.response.code eq 429", "--request",
	    "GET https://example.com/");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "give --status CODE"));
	run_free(&r);
	RUN(f, &r, "expr", "eval", e);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--request"));
	run_free(&r);
	RUN(f, &r, "expr", "eval", e, "--request", "POST /login");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "expr", "eval", e, "--request", "GET https://a/",
	    "--ip", "10.1");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "expr", "eval", e, "--request", "GET https://a/",
	    "-H", "no colon");
	assert_int_equal(r.status, 2);
	run_free(&r);
}

/* ---- rules test --------------------------------------------------------- */

static void
test_rules_test(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*v, *w, *id0 = rule_id(f, 0);
	cJSON		*o, *m;

	v = version_of(f, f->emu.zone);
	RUN(f, &r, "rules", "test", "--request",
	    "POST https://example.com/login", "--ip", "192.0.2.1");
	assert_int_equal(r.status, 0);
	/* A header, six verdicts, what they come to. */
	assert_int_equal(count_lines(r.out), 8);
	assert_true(has(r.out, "match, counted, acts first"));
	assert_true(has(r.out, "counted by #1; #1 (block) acts first once "
	    "over its rate, and evaluation stops there"));
	assert_true(has(r.out, id0));
	assert_true(has(r.out, "no match"));
	/* The disabled rule is not evaluated. */
	assert_true(has(r.out, "disabled"));
	run_free(&r);

	RUN(f, &r, "rules", "test", "--request",
	    "GET https://example.com/search?q=shoes", "-o", "json");
	assert_int_equal(r.status, 0);
	o = cJSON_Parse(r.out);
	m = cJSON_GetObjectItem(o, "acts_first");
	assert_int_equal(cJSON_GetObjectItem(m, "position")->valueint, 3);
	assert_string_equal(str(m, "description"), "Search scrapers");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o,
	    "counted_by")), 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "rules")),
	    6);
	assert_string_equal(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o,
	    "rules"), 4), "verdict"), "disabled");
	cJSON_Delete(o);
	run_free(&r);

	/* The disabled /v2/ rule would match; no enabled one does. */
	RUN(f, &r, "rules", "test", "--request",
	    "GET https://example.com/v2/items");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "no rule matches"));
	run_free(&r);

	/* An absent entry point: no rules, no error. */
	RUN_ENV(f, FRESH_ENV, &r, "rules", "test", "--request",
	    "GET https://example.com/");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "no rate limiting rules"));
	run_free(&r);
	RUN(f, &r, "rules", "test");
	assert_int_equal(r.status, 2);
	run_free(&r);

	/* Nothing changed on the server. */
	w = version_of(f, f->emu.zone);
	assert_string_equal(v, w);
	free(w);
	free(v);
	free(id0);
}

/* Positions of a rules test's list of rules (o's member key), "1 2". */
static void
positions(const cJSON *o, const char *key, char *buf, size_t size)
{
	const cJSON	*r;
	size_t		 n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(o, key))
		n += (size_t)snprintf(buf + n, size - n, "%s%d", n > 0 ? " " :
		    "", cJSON_GetObjectItem(r, "position")->valueint);
}

/*
 * Every rate limiting rule whose expression matches counts the request,
 * not only the first: a log rule counts it and lets evaluation go on, the
 * block after it counts it too and is the one that acts. A rule on a list
 * may count it (lists are not read here); a counting expression on the
 * response counts with --status.
 */
static void
test_rules_test_every_match(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*path = entry_path(FRESH_ZONE), got[64];
	cJSON		*o;

	cJSON_Delete(api_ok(&f->emu, "PUT", path, "{\"rules\":["
	    "{\"description\":\"API seen\",\"action\":\"log\",\"expression\":"
	    "\"starts_with(http.request.uri.path, \\\"/api/\\\")\","
	    "\"ratelimit\":{\"characteristics\":[\"cf.colo.id\",\"ip.src\"],"
	    "\"period\":60,\"requests_per_period\":100}},"
	    "{\"description\":\"API login\",\"action\":\"block\",\"expression\":"
	    "\"http.request.uri.path eq \\\"/api/login\\\"\",\"ratelimit\":{"
	    "\"characteristics\":[\"cf.colo.id\",\"ip.src\"],\"period\":60,"
	    "\"requests_per_period\":5,\"mitigation_timeout\":600,"
	    "\"counting_expression\":\"http.request.uri.path eq "
	    "\\\"/api/login\\\" and http.response.code eq 401\"}},"
	    "{\"description\":\"Office\",\"action\":\"challenge\",\"expression\":"
	    "\"not ip.src in $office_ips\",\"ratelimit\":{\"characteristics\":"
	    "[\"cf.colo.id\",\"ip.src\"],\"period\":10,"
	    "\"requests_per_period\":50}}]}"));
	RUN_ENV(f, FRESH_ENV, &r, "rules", "test", "--request",
	    "POST https://example.com/api/login", "--ip", "192.0.2.1",
	    "--status", "401", "-o", "json");
	assert_int_equal(r.status, 0);
	o = cJSON_Parse(r.out);
	positions(o, "counted_by", got, sizeof got);
	assert_string_equal(got, "1 2");
	positions(o, "may_count", got, sizeof got);
	assert_string_equal(got, "3");
	assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o,
	    "acts_first"), "position")->valueint, 2);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(o, "rules"), 2), "counted")));
	assert_string_equal(str(cJSON_GetArrayItem(cJSON_GetObjectItem(o,
	    "rules"), 2), "verdict"), "unknown");
	cJSON_Delete(o);
	run_free(&r);

	/* The table says the same; without --status the block may count. */
	RUN_ENV(f, FRESH_ENV, &r, "rules", "test", "--request",
	    "POST https://example.com/api/login", "--ip", "192.0.2.1");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "counted by #1; #2 may count it (its counting "
	    "expression reads the response, which the request does not "
	    "give); #3 may count it (list $office_ips is not known here); #2 "
	    "(block) acts first once over its rate, and evaluation stops "
	    "there"));
	assert_true(has(r.out, "match, counted\n"));
	assert_true(has(r.out, "unknown, may count: list $office_ips is not "
	    "known here"));
	assert_false(has(r.out, "first match"));
	run_free(&r);
	free(path);
}

/*
 * A server that retired the legacy API (edgemu --legacy-gone): one short
 * line, without the console's notice, naming what to use instead.
 */
static void
test_legacy_gone(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;

	f->emu.extra[f->emu.nextra++] = strdup("--legacy-gone");
	edgemu_restart(&f->emu);
	RUN(f, &r, "get", "rate-limits");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "HTTP 410 Gone"));
	assert_true(has(r.err, "edgetui get rate-limit-rules"));
	assert_false(has(r.err, "managed here"));
	assert_int_equal(count_lines(r.err), 1);
	assert_true(strlen(r.err) < 200);
	run_free(&r);
	RUN(f, &r, "migrate", "rate-limits", "--plan", "pro");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "migrate: HTTP 410 Gone"));
	assert_true(has(r.err, "cannot be read"));
	assert_false(has(r.err, "managed here"));
	assert_int_equal(count_lines(r.err), 1);
	run_free(&r);
}

#define T(name) cmocka_unit_test_setup_teardown(name, cli_setup, cli_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_list_absent_is_empty),
		T(test_list_in_order),
		T(test_rulesets_and_versions),
		T(test_create_if_absent),
		T(test_create_race),
		T(test_create_positions),
		T(test_update_is_whole),
		T(test_edit),
		T(test_delete_several),
		T(test_enable_disable),
		T(test_lint_sends_nothing),
		T(test_lint_plan_from_profile),
		T(test_expr_check),
		T(test_expr_fmt),
		T(test_expr_fmt_long),
		T(test_expr_eval),
		T(test_expr_eval_regex_limits),
		T(test_rules_test),
		T(test_rules_test_every_match),
		T(test_create_over_quota),
		T(test_expr_notes),
		T(test_legacy_gone),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
