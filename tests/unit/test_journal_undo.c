/*
 * Unit tests for src/journal_undo.c: a change's kind and record from its
 * path, and the plan that undoes it (or says why the API cannot).
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

#include <cjson/cJSON.h>

#include "journal.h"
#include "kind.h"

#define ZONE	"7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40"
#define ACCOUNT	"e1d9a0c6b3f24e7a9c5d8b2f4a6e0c31"
#define RL_ID	"0123456789abcdef0123456789abcdef"
#define RULE	"{\"id\":\"" RL_ID "\",\"description\":\"%s\"," \
		"\"disabled\":false,\"match\":{\"request\":{\"url\":" \
		"\"example.com/*\"}},\"threshold\":40,\"period\":60," \
		"\"action\":{\"mode\":\"simulate\",\"timeout\":60}}"

static cJSON *
rule(const char *description)
{
	char	 text[512];
	cJSON	*j;

	snprintf(text, sizeof text, RULE, description);
	j = cJSON_Parse(text);
	assert_non_null(j);
	return (j);
}

static void
record(struct journal_record *r, const char *method, const char *path,
    cJSON *before, cJSON *after)
{
	memset(r, 0, sizeof *r);
	r->method = (char *)method;
	r->path = (char *)path;
	r->status = 200;
	r->before = before;
	r->after = after;
}

static void
test_target(void **state)
{
	struct journal_target	t;

	(void)state;
	assert_int_equal(journal_target("/zones/" ZONE "/rate_limits/" RL_ID
	    "?x=1", &t), 0);
	assert_ptr_equal(t.kind, &kind_rate_limits);
	assert_string_equal(t.id, RL_ID);
	assert_string_equal(t.zone, ZONE);
	assert_false(t.list);
	journal_target_free(&t);

	/* The list's fixed segment wins over a video's id. */
	assert_int_equal(journal_target("/accounts/" ACCOUNT
	    "/stream/live_inputs", &t), 0);
	assert_ptr_equal(t.kind, &kind_live_inputs);
	assert_true(t.list);
	assert_null(t.id);
	journal_target_free(&t);

	assert_int_equal(journal_target("/accounts/" ACCOUNT "/stream/" RL_ID,
	    &t), 0);
	assert_ptr_equal(t.kind, &kind_videos);
	assert_string_equal(t.id, RL_ID);
	journal_target_free(&t);

	/* A rate limiting rule's path names its ruleset too. */
	assert_int_equal(journal_target("/zones/" ZONE "/rulesets/" ACCOUNT
	    "/rules/" RL_ID, &t), 0);
	assert_ptr_equal(t.kind, &kind_rate_limit_rules);
	assert_string_equal(t.id, RL_ID);
	assert_string_equal(t.zone, ZONE);
	journal_target_free(&t);

	assert_int_equal(journal_target("/nowhere/at/all", &t), -1);
	assert_int_equal(journal_target("relative", &t), -1);
	assert_int_equal(journal_target("/zones//rate_limits", &t), -1);
}

static void
test_undo_delete(void **state)
{
	struct journal_record	r;
	struct journal_undo	u;
	cJSON			*before = rule("gone");

	(void)state;
	record(&r, "DELETE", "/zones/" ZONE "/rate_limits/" RL_ID, before,
	    NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_CREATE);
	assert_ptr_equal(u.target.kind, &kind_rate_limits);
	/* The same fields, but not the id the server gives. */
	assert_null(cJSON_GetObjectItem(u.body, "id"));
	assert_string_equal(cJSON_GetObjectItem(u.body,
	    "description")->valuestring, "gone");
	assert_int_equal(cJSON_GetObjectItem(u.body, "threshold")->valueint,
	    40);
	assert_non_null(kind_json_get(u.body, "match.request.url"));
	assert_non_null(strstr(u.note, "new id"));
	journal_undo_free(&u);
	cJSON_Delete(before);
}

static void
test_undo_update(void **state)
{
	struct journal_record	r;
	struct journal_undo	u;
	cJSON			*before = rule("old"), *after = rule("new");
	char			*text;

	(void)state;
	record(&r, "PUT", "/zones/" ZONE "/rate_limits/" RL_ID, before,
	    after);
	text = journal_change_text(&r);
	assert_string_equal(text, "updated: description");
	free(text);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_UPDATE);
	assert_string_equal(u.target.id, RL_ID);
	assert_string_equal(cJSON_GetObjectItem(u.body,
	    "description")->valuestring, "old");
	journal_undo_free(&u);

	/* A change that failed changed nothing. */
	r.status = 400;
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	assert_non_null(strstr(u.why, "failed"));
	journal_undo_free(&u);
	cJSON_Delete(before);
	cJSON_Delete(after);
}

/*
 * A rate limiting rule's change is undone by a PATCH of its fields as
 * they were (through its entry point); a move alone is not.
 */
static void
test_undo_rule(void **state)
{
	struct journal_record	r;
	struct journal_undo	u;
	cJSON			*before, *after;

	(void)state;
	before = cJSON_Parse("{\"id\":\"" RL_ID "\",\"version\":\"1\","
	    "\"position\":2,\"enabled\":true,\"action\":\"block\"}");
	after = cJSON_Parse("{\"id\":\"" RL_ID "\",\"version\":\"2\","
	    "\"position\":2,\"enabled\":false,\"action\":\"block\"}");
	record(&r, "PATCH", "/zones/" ZONE "/rulesets/" ACCOUNT "/rules/"
	    RL_ID, before, after);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_UPDATE);
	assert_ptr_equal(u.target.kind, &kind_rate_limit_rules);
	assert_string_equal(u.target.id, RL_ID);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(u.body, "enabled")));
	journal_undo_free(&u);

	/* Only its place: K and J, or a version, put it back. */
	cJSON_ReplaceItemInObject(after, "enabled", cJSON_CreateTrue());
	cJSON_ReplaceItemInObject(after, "position", cJSON_CreateNumber(1));
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	assert_non_null(strstr(u.why, "only the rule's place changed"));
	journal_undo_free(&u);
	cJSON_Delete(before);
	cJSON_Delete(after);
}

static void
test_undo_create(void **state)
{
	struct journal_record	r;
	struct journal_undo	u;
	cJSON			*after = rule("made");
	char			*text;

	(void)state;
	record(&r, "POST", "/zones/" ZONE "/rate_limits", NULL, after);
	text = journal_change_text(&r);
	assert_string_equal(text, "created");
	free(text);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_DELETE);
	assert_string_equal(u.target.id, RL_ID);
	journal_undo_free(&u);
	cJSON_Delete(after);
}

/*
 * A download of one type, a caption's generate: actions below the record's
 * path are journaled with its kind and id, and none is undone as if it
 * were a change of the record itself.
 */
static void
test_target_below(void **state)
{
	struct journal_target	 t;
	struct journal_record	 r;
	struct journal_undo	 u;
	cJSON			*after = cJSON_Parse("{\"audio\":{\"status\":"
				    "\"inprogress\"}}");
	char			*text;

	(void)state;
	assert_int_equal(journal_target("/accounts/" ACCOUNT "/stream/" RL_ID
	    "/downloads/audio", &t), 0);
	assert_ptr_equal(t.kind, &kind_downloads);
	assert_string_equal(t.video, RL_ID);
	assert_true(t.below);
	journal_target_free(&t);
	assert_int_equal(journal_target("/accounts/" ACCOUNT "/stream/" RL_ID
	    "/captions/de/generate", &t), 0);
	assert_ptr_equal(t.kind, &kind_captions);
	assert_string_equal(t.id, "de");
	assert_true(t.below);
	journal_target_free(&t);
	assert_int_equal(journal_target("/accounts/" ACCOUNT "/stream/" RL_ID
	    "/captions/de", &t), 0);
	assert_false(t.below);
	journal_target_free(&t);

	record(&r, "POST", "/accounts/" ACCOUNT "/stream/" RL_ID
	    "/downloads/audio", NULL, after);
	text = journal_change_text(&r);
	assert_string_equal(text, "created");
	free(text);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	assert_non_null(strstr(u.why, "action on the downloads"));
	journal_undo_free(&u);
	/* A DELETE that answers with what is left is still a delete. */
	record(&r, "DELETE", "/accounts/" ACCOUNT "/stream/" RL_ID
	    "/downloads/audio", NULL, after);
	text = journal_change_text(&r);
	assert_string_equal(text, "deleted");
	free(text);
	cJSON_Delete(after);
}

/* Clearing an operation's override is no create. */
static void
test_change_cleared(void **state)
{
	struct journal_record	 r;
	cJSON			*after = cJSON_Parse("{\"operation_id\":"
				    "\"88a9306c-7246-4c2e-8770-853234dfc849\"}");
	char			*text;

	(void)state;
	record(&r, "DELETE", "/zones/" ZONE "/schema_validation/settings/"
	    "operations/88a9306c-7246-4c2e-8770-853234dfc849", NULL, after);
	text = journal_change_text(&r);
	assert_string_equal(text, "cleared");
	free(text);
	cJSON_Delete(after);
}

/* What the API cannot restore is said, not pretended. */
static void
test_undo_impossible(void **state)
{
	struct journal_record	r;
	struct journal_undo	u;
	cJSON			*video, *key, *live, *hook;

	(void)state;
	video = cJSON_Parse("{\"uid\":\"" RL_ID "\",\"meta\":{\"name\":\"a\"}}");
	record(&r, "DELETE", "/accounts/" ACCOUNT "/stream/" RL_ID, video,
	    NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	assert_non_null(strstr(u.why, "video cannot be restored"));
	journal_undo_free(&u);

	/* A rate limiting rule: by a version of its entry point. */
	record(&r, "DELETE", "/zones/" ZONE "/rulesets/" ACCOUNT "/rules/"
	    RL_ID, video, NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	assert_non_null(strstr(u.why, "entry point's versions"));
	journal_undo_free(&u);

	key = cJSON_Parse("{\"id\":\"" RL_ID "\",\"pem\":\"[redacted]\"}");
	record(&r, "DELETE", "/accounts/" ACCOUNT "/stream/keys/" RL_ID, key,
	    NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	assert_non_null(strstr(u.why, "signing key cannot be restored"));
	journal_undo_free(&u);

	/* A live input comes back without the secrets the journal hid. */
	live = cJSON_Parse("{\"uid\":\"" RL_ID "\",\"meta\":{\"name\":\"l\"},"
	    "\"rtmps\":{\"url\":\"rtmps://x\",\"streamKey\":\"[redacted]\"},"
	    "\"webRTC\":{\"url\":\"[redacted]\"}}");
	record(&r, "DELETE", "/accounts/" ACCOUNT "/stream/live_inputs/" RL_ID,
	    live, NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_CREATE);
	assert_null(cJSON_GetObjectItem(u.body, "rtmps"));
	assert_null(cJSON_GetObjectItem(u.body, "uid"));
	assert_non_null(cJSON_GetObjectItem(u.body, "meta"));
	assert_non_null(strstr(u.note, "new secrets"));
	journal_undo_free(&u);

	/* The webhook is one object: set again, with a new secret. */
	hook = cJSON_Parse("{\"notificationUrl\":\"https://h.example/\","
	    "\"modified\":\"2026-01-01T00:00:00Z\",\"secret\":\"[redacted]\"}");
	record(&r, "DELETE", "/accounts/" ACCOUNT "/stream/webhook", hook,
	    NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_UPDATE);
	assert_ptr_equal(u.target.kind, &kind_webhook);
	assert_null(u.target.id);
	assert_null(cJSON_GetObjectItem(u.body, "secret"));
	assert_null(cJSON_GetObjectItem(u.body, "modified"));
	assert_non_null(cJSON_GetObjectItem(u.body, "notificationUrl"));
	assert_non_null(strstr(u.note, "secrets cannot be restored"));
	journal_undo_free(&u);

	record(&r, "DELETE", "/zones/" ZONE "/rate_limits", NULL, NULL);
	journal_undo_plan(&r, &u);
	assert_int_equal(u.op, JOURNAL_UNDO_NONE);
	journal_undo_free(&u);

	cJSON_Delete(video);
	cJSON_Delete(key);
	cJSON_Delete(live);
	cJSON_Delete(hook);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_undo_delete),
		cmocka_unit_test(test_undo_update),
		cmocka_unit_test(test_undo_rule),
		cmocka_unit_test(test_undo_create),
		cmocka_unit_test(test_undo_impossible),
		cmocka_unit_test(test_target_below),
		cmocka_unit_test(test_change_cleared),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
