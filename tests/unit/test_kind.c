/*
 * Unit tests for kind.c and the descriptors in src/kinds/: names and
 * aliases, paths against the API map, ids, verbs and update methods,
 * paging, filters, cell formatters (in UTC) and the sanity of every
 * descriptor.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <cmocka.h>

#include "buf.h"
#include "common.h"
#include "kind.h"
#include "xmalloc.h"

#define ACCT	"023e105f4ecef8ad9ca31a8372d0c353"
#define ZONE	"7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40"
#define VIDEO	"5d31316bd484b45ccd81ab217a47c9d8"
#define HEXID	"d1ac3d980b423811a81f5de92dad72c5"
#define UUID	"88a9306c-7246-4c2e-8770-853234dfc849"

static const char *const kind_names[] = {
	"videos", "live-inputs", "live-outputs", "watermarks", "captions",
	"audio-tracks",
	"webhook", "signing-keys", "downloads", "storage-usage",
	"direct-uploads", "api-config", "discovery", "discovered-operations",
	"operations", "schemas", "user-schemas", "validation-schemas",
	"validation-settings", "operation-validation", "rate-limits",
	"rate-limit-rules", "rulesets", "rule-versions"
};

static const struct api_var all_vars[] = {
	{ "account", ACCT }, { "zone", ZONE }, { "video", VIDEO },
	{ NULL, NULL }
};

/* ---- names -------------------------------------------------------------- */

static void
test_names(void **state)
{
	const struct kind *const	*all;
	size_t				 n, i;

	(void)state;
	all = kind_all(&n);
	assert_int_equal(n, nitems(kind_names));
	for (i = 0; i < n; i++) {
		assert_string_equal(all[i]->name, kind_names[i]);
		assert_ptr_equal(kind_find(kind_names[i]), all[i]);
	}
	assert_ptr_equal(kind_find("RATE-LIMITS"), &kind_rate_limits);
	assert_null(kind_find("rate"));
	assert_null(kind_find(""));
	assert_null(kind_find(NULL));
	assert_null(kind_find("rl ratelimits"));
}

static void
test_aliases(void **state)
{
	static const struct {
		const char		*alias;
		const struct kind	*kind;
	} cases[] = {
		{ "rl", &kind_rate_limits },
		{ "rules", &kind_rate_limit_rules },
		{ "rlr", &kind_rate_limit_rules },
		{ "rlv", &kind_rule_versions },
		{ "ratelimits", &kind_rate_limits },
		{ "ops", &kind_operations },
		{ "op", &kind_operations },
		{ "vid", &kind_videos },
		{ "video", &kind_videos },
		{ "live", &kind_live_inputs },
		{ "wm", &kind_watermarks },
		{ "audio", &kind_audio_tracks },
		{ "hook", &kind_webhook },
		{ "keys", &kind_signing_keys },
		{ "dl", &kind_downloads },
		{ "storage", &kind_storage_usage },
		{ "du", &kind_direct_uploads },
		{ "apiconfig", &kind_api_config },
		{ "disc", &kind_discovery },
		{ "dops", &kind_discovered_operations },
		{ "openapi", &kind_schemas },
		{ "user-schema", &kind_user_schemas },
		{ "subtitles", &kind_captions },
		{ "OPS", &kind_operations },
	};
	const struct kind *const	*all;
	size_t				 n, i, len;
	const char			*p;
	char				 word[64];

	(void)state;
	for (i = 0; i < nitems(cases); i++)
		assert_ptr_equal(kind_find(cases[i].alias), cases[i].kind);

	/* Every alias of every kind finds that kind and no other. */
	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		for (p = all[i]->aliases; p != NULL && *p != '\0'; p += len) {
			while (*p == ' ')
				p++;
			len = strcspn(p, " ");
			assert_true(len > 0 && len < sizeof word);
			memcpy(word, p, len);
			word[len] = '\0';
			if (kind_find(word) != all[i])
				fail_msg("alias %s of %s finds %s", word,
				    all[i]->name, kind_find(word) == NULL ?
				    "nothing" : kind_find(word)->name);
		}
	}
}

/* Names and aliases are unique, and none shadows a ':' command. */
static void
test_alias_clashes(void **state)
{
	static const char *const reserved[] = {
		"q", "quit", "profile", "theme", "help", "kinds"
	};
	const struct kind *const	*all;
	char				*words[256];
	size_t				 n, i, j, nw = 0, len;
	const char			*p;

	(void)state;
	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		words[nw++] = xstrdup(all[i]->name);
		for (p = all[i]->aliases; *p != '\0'; p += len) {
			while (*p == ' ')
				p++;
			len = strcspn(p, " ");
			if (len != 0) {
				assert_true(nw < nitems(words));
				words[nw++] = xstrndup(p, len);
			}
		}
	}
	for (i = 0; i < nw; i++) {
		for (j = i + 1; j < nw; j++) {
			if (strcasecmp(words[i], words[j]) == 0)
				fail_msg("'%s' names two kinds", words[i]);
		}
		for (j = 0; j < nitems(reserved); j++) {
			if (strcasecmp(words[i], reserved[j]) == 0)
				fail_msg("'%s' is a console command", words[i]);
		}
	}
	for (i = 0; i < nw; i++)
		free(words[i]);
}

/* ---- the API map, kind by kind ------------------------------------------ */

struct expect {
	const struct kind	*kind;
	const char		*list;		/* expanded; NULL: none */
	const char		*item;		/* with id; NULL: none */
	const char		*create;	/* NULL: none */
	const char		*id_field;
	enum kind_shape		 shape;
	enum pager_style	 paging;
	unsigned		 verbs;
	enum kind_method	 update;
	enum kind_body		 body;
	const char		*id;
};

#define A	"/accounts/" ACCT "/stream"
#define Z	"/zones/" ZONE "/api_gateway"
#define SV	"/zones/" ZONE "/schema_validation"
#define V	KIND_VERB_LIST
#define G	KIND_VERB_GET
#define C	KIND_VERB_CREATE
#define U	KIND_VERB_UPDATE
#define D	KIND_VERB_DELETE

static const struct expect expects[] = {
	{ &kind_videos, A, A "/" HEXID, NULL, "uid", KIND_SHAPE_ARRAY,
	  PAGER_CREATED, V|G|U|D|KIND_VERB_UPLOAD, KIND_METHOD_POST,
	  KIND_BODY_NONE, HEXID },
	{ &kind_live_inputs, A "/live_inputs", A "/live_inputs/" HEXID,
	  A "/live_inputs", "uid", KIND_SHAPE_WRAPPED, PAGER_SINGLE,
	  V|G|C|U|D, KIND_METHOD_PUT, KIND_BODY_JSON, HEXID },
	{ &kind_live_outputs, A "/live_inputs/" VIDEO "/outputs",
	  A "/live_inputs/" VIDEO "/outputs/" HEXID,
	  A "/live_inputs/" VIDEO "/outputs", "uid", KIND_SHAPE_ARRAY,
	  PAGER_SINGLE, V|C|U|D, KIND_METHOD_PUT, KIND_BODY_JSON, HEXID },
	{ &kind_watermarks, A "/watermarks", A "/watermarks/" HEXID,
	  A "/watermarks", "uid", KIND_SHAPE_ARRAY, PAGER_SINGLE, V|G|C|D,
	  KIND_METHOD_NONE, KIND_BODY_MULTIPART, HEXID },
	{ &kind_captions, A "/" VIDEO "/captions", A "/" VIDEO "/captions/en",
	  NULL, "language", KIND_SHAPE_ARRAY, PAGER_SINGLE, V|G|D,
	  KIND_METHOD_NONE, KIND_BODY_JSON, "en" },
	{ &kind_audio_tracks, A "/" VIDEO "/audio",
	  A "/" VIDEO "/audio/" HEXID, A "/" VIDEO "/audio/copy", "uid",
	  KIND_SHAPE_ARRAY, PAGER_SINGLE, V|C|U|D, KIND_METHOD_PATCH,
	  KIND_BODY_JSON, HEXID },
	{ &kind_webhook, A "/webhook", A "/webhook", NULL, NULL,
	  KIND_SHAPE_OBJECT, PAGER_SINGLE, G|U|D, KIND_METHOD_PUT,
	  KIND_BODY_JSON, NULL },
	{ &kind_signing_keys, A "/keys", A "/keys/" HEXID, A "/keys", "id",
	  KIND_SHAPE_ARRAY, PAGER_SINGLE, V|C|D, KIND_METHOD_NONE,
	  KIND_BODY_NONE, HEXID },
	{ &kind_downloads, A "/" VIDEO "/downloads", A "/" VIDEO "/downloads",
	  A "/" VIDEO "/downloads", NULL, KIND_SHAPE_OBJECT, PAGER_SINGLE,
	  G|C|D, KIND_METHOD_NONE, KIND_BODY_NONE, NULL },
	{ &kind_storage_usage, A "/storage-usage", A "/storage-usage", NULL,
	  NULL, KIND_SHAPE_OBJECT, PAGER_SINGLE, G, KIND_METHOD_NONE,
	  KIND_BODY_JSON, NULL },
	{ &kind_direct_uploads, NULL, NULL, A "/direct_upload", "uid",
	  KIND_SHAPE_NONE, PAGER_SINGLE, C, KIND_METHOD_NONE, KIND_BODY_JSON,
	  NULL },
	{ &kind_api_config, Z "/configuration", Z "/configuration", NULL,
	  NULL, KIND_SHAPE_OBJECT, PAGER_SINGLE, G|U, KIND_METHOD_PUT,
	  KIND_BODY_JSON, NULL },
	{ &kind_discovery, Z "/discovery", Z "/discovery", NULL, NULL,
	  KIND_SHAPE_OBJECT, PAGER_SINGLE, G, KIND_METHOD_NONE,
	  KIND_BODY_JSON, NULL },
	{ &kind_discovered_operations, Z "/discovery/operations",
	  Z "/discovery/operations/" UUID, NULL, "id", KIND_SHAPE_ARRAY,
	  PAGER_PAGES, V|U|KIND_VERB_BULK_UPDATE, KIND_METHOD_PATCH,
	  KIND_BODY_JSON, UUID },
	{ &kind_operations, Z "/operations", Z "/operations/" UUID,
	  Z "/operations/item", "operation_id", KIND_SHAPE_ARRAY, PAGER_PAGES,
	  V|G|C|D|KIND_VERB_BULK_CREATE|KIND_VERB_BULK_DELETE,
	  KIND_METHOD_NONE, KIND_BODY_JSON, UUID },
	{ &kind_schemas, Z "/schemas", Z "/schemas", NULL, NULL,
	  KIND_SHAPE_OBJECT, PAGER_SINGLE, G, KIND_METHOD_NONE,
	  KIND_BODY_JSON, NULL },
	{ &kind_user_schemas, Z "/user_schemas", Z "/user_schemas/" UUID,
	  Z "/user_schemas", "schema_id", KIND_SHAPE_ARRAY, PAGER_PAGES,
	  V|G|C|U|D, KIND_METHOD_PATCH, KIND_BODY_MULTIPART, UUID },
	{ &kind_validation_schemas, SV "/schemas", SV "/schemas/" UUID,
	  SV "/schemas", "schema_id", KIND_SHAPE_ARRAY, PAGER_PAGES,
	  V|G|C|U|D, KIND_METHOD_PATCH, KIND_BODY_JSON_FILE, UUID },
	{ &kind_validation_settings, SV "/settings", SV "/settings", NULL,
	  NULL, KIND_SHAPE_OBJECT, PAGER_SINGLE, G|U, KIND_METHOD_PUT,
	  KIND_BODY_JSON, NULL },
	{ &kind_operation_validation, SV "/settings/operations",
	  SV "/settings/operations/" UUID, NULL, "operation_id",
	  KIND_SHAPE_ARRAY, PAGER_PAGES,
	  V|G|KIND_VERB_SET|KIND_VERB_CLEAR, KIND_METHOD_NONE,
	  KIND_BODY_JSON, UUID },
	{ &kind_rate_limits, "/zones/" ZONE "/rate_limits",
	  "/zones/" ZONE "/rate_limits/" HEXID, "/zones/" ZONE "/rate_limits",
	  "id", KIND_SHAPE_ARRAY, PAGER_PAGES, V|G|C|U|D, KIND_METHOD_PUT,
	  KIND_BODY_JSON, HEXID },
	/* One rule and a new one need the entry point's id ({ruleset}). */
	{ &kind_rate_limit_rules, "/zones/" ZONE "/rulesets/phases/"
	  "http_ratelimit/entrypoint", NULL, NULL, "id", KIND_SHAPE_WRAPPED,
	  PAGER_SINGLE, V|G|C|U|D, KIND_METHOD_PATCH, KIND_BODY_JSON, HEXID },
	{ &kind_rulesets, "/zones/" ZONE "/rulesets",
	  "/zones/" ZONE "/rulesets/" HEXID, NULL, "id", KIND_SHAPE_ARRAY,
	  PAGER_CURSOR, V|G, KIND_METHOD_NONE, KIND_BODY_JSON, HEXID },
	{ &kind_rule_versions, "/zones/" ZONE "/rulesets/phases/"
	  "http_ratelimit/entrypoint/versions", "/zones/" ZONE "/rulesets/"
	  "phases/http_ratelimit/entrypoint/versions/3", NULL, "version",
	  KIND_SHAPE_ARRAY, PAGER_SINGLE, V|G, KIND_METHOD_NONE,
	  KIND_BODY_JSON, "3" },
};

static void
check_path(const char *what, const char *kname, char *got, char *cause,
    const char *want)
{
	if (want == NULL) {
		if (got != NULL)
			fail_msg("%s %s: unexpected %s", kname, what, got);
		assert_non_null(cause);
		free(cause);
		return;
	}
	if (got == NULL)
		fail_msg("%s %s: %s", kname, what, cause);
	if (strcmp(got, want) != 0)
		fail_msg("%s %s: %s, not %s", kname, what, got, want);
	free(got);
}

static void
test_api_map(void **state)
{
	const struct expect	*e;
	char			*cause, *p;
	size_t			 i;

	(void)state;
	assert_int_equal(nitems(expects), nitems(kind_names));
	for (i = 0; i < nitems(expects); i++) {
		e = &expects[i];
		assert_string_equal(e->kind->name, kind_names[i]);

		cause = NULL;
		p = kind_list_path(e->kind, all_vars, &cause);
		check_path("list", e->kind->name, p, cause, e->list);
		cause = NULL;
		p = kind_item_path(e->kind, all_vars, e->kind->shape ==
		    KIND_SHAPE_OBJECT ? NULL : e->id, &cause);
		check_path("item", e->kind->name, p, cause, e->item);
		cause = NULL;
		p = kind_create_path(e->kind, all_vars, &cause);
		check_path("create", e->kind->name, p, cause, e->create);

		if ((e->id_field == NULL) != (e->kind->id_field == NULL) ||
		    (e->id_field != NULL &&
		    strcmp(e->id_field, e->kind->id_field) != 0))
			fail_msg("%s: id field %s", e->kind->name,
			    e->kind->id_field);
		if (e->kind->shape != e->shape)
			fail_msg("%s: shape %d", e->kind->name, e->kind->shape);
		if (e->kind->paging != e->paging)
			fail_msg("%s: paging %d", e->kind->name,
			    e->kind->paging);
		if (e->kind->verbs != e->verbs)
			fail_msg("%s: verbs %#x, not %#x", e->kind->name,
			    e->kind->verbs, e->verbs);
		if (e->kind->update_method != e->update)
			fail_msg("%s: update by %s", e->kind->name,
			    kind_method_name(e->kind->update_method));
		if ((e->verbs & (C | KIND_VERB_BULK_CREATE)) &&
		    e->kind->create_body != e->body)
			fail_msg("%s: create body %d", e->kind->name,
			    e->kind->create_body);
	}
	assert_string_equal(kind_live_inputs.list_key, "liveInputs");
	assert_string_equal(kind_operations.bulk_delete_key, "operation_ids");
}

/* ---- paths -------------------------------------------------------------- */

static void
test_paths_need_scope(void **state)
{
	static const struct api_var	no_video[] = {
		{ "account", ACCT }, { "zone", ZONE }, { NULL, NULL }
	};
	static const struct api_var	bad_acct[] = {
		{ "account", "nope" }, { "video", VIDEO }, { NULL, NULL }
	};
	static const struct api_var	only_acct[] = {
		{ "account", ACCT }, { NULL, NULL }
	};
	const struct kind *const	*all;
	char				*cause = NULL, *p;
	size_t				 n, i;

	(void)state;
	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		if (all[i]->scope != KIND_SCOPE_VIDEO)
			continue;
		p = kind_list_path(all[i], no_video, &cause);
		if (p != NULL)
			fail_msg("%s listed without a video: %s", all[i]->name,
			    p);
		assert_non_null(strstr(cause, all[i]->parent != NULL ?
		    "--live-input" : "--video"));
		free(cause);
		cause = NULL;
	}
	assert_null(kind_list_path(&kind_rate_limits, only_acct, &cause));
	assert_non_null(strstr(cause, "--zone"));
	free(cause);
	cause = NULL;
	assert_null(kind_list_path(&kind_videos, NULL, &cause));
	assert_non_null(strstr(cause, "--account"));
	free(cause);
	cause = NULL;
	assert_null(kind_list_path(&kind_captions, bad_acct, &cause));
	assert_non_null(strstr(cause, "32 hex"));
	free(cause);
	cause = NULL;

	/* A zone kind does not need an account. */
	p = kind_list_path(&kind_operations, (const struct api_var[]){
	    { "zone", ZONE }, { NULL, NULL } }, &cause);
	assert_non_null(p);
	free(p);
}

static void
test_paths_ids(void **state)
{
	char	*cause = NULL, *p;

	(void)state;
	/* An id that is not one is refused before any request. */
	assert_null(kind_item_path(&kind_rate_limits, all_vars, "xyz", &cause));
	assert_non_null(strstr(cause, "32 hex"));
	free(cause);
	cause = NULL;
	assert_null(kind_item_path(&kind_operations, all_vars, HEXID, &cause));
	assert_non_null(strstr(cause, "UUID"));
	free(cause);
	cause = NULL;
	assert_null(kind_item_path(&kind_videos, all_vars, NULL, &cause));
	free(cause);
	cause = NULL;
	assert_null(kind_item_path(&kind_webhook, all_vars, HEXID, &cause));
	assert_non_null(strstr(cause, "no id"));
	free(cause);
	cause = NULL;

	/* Upper-case UUIDs are ids too; a caller's "id" var is overridden. */
	p = kind_item_path(&kind_user_schemas, (const struct api_var[]){
	    { "zone", ZONE }, { "id", "other" }, { NULL, NULL } },
	    "3E2BC566-9B9C-4DC2-856C-215F400AFEEA", &cause);
	assert_non_null(p);
	assert_string_equal(p, "/zones/" ZONE "/api_gateway/user_schemas/"
	    "3E2BC566-9B9C-4DC2-856C-215F400AFEEA");
	free(p);

	assert_int_equal(kind_id_check(&kind_videos, HEXID, &cause), 0);
	assert_int_equal(kind_id_check(&kind_videos, HEXID "0", &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(kind_id_check(&kind_operations, UUID, &cause), 0);
	assert_int_equal(kind_id_check(&kind_webhook, "x", &cause), -1);
	free(cause);
}

static void
test_record_id(void **state)
{
	cJSON	*r;

	(void)state;
	r = cJSON_Parse("{\"operation_id\":\"" UUID "\",\"uid\":7,"
	    "\"status\":{\"state\":\"ready\"}}");
	assert_string_equal(kind_record_id(&kind_operations, r), UUID);
	assert_null(kind_record_id(&kind_videos, r));	/* not a string */
	assert_null(kind_record_id(&kind_webhook, r));
	assert_string_equal(kind_json_get(r, "status.state")->valuestring,
	    "ready");
	assert_null(kind_json_get(r, "status.state.x"));
	assert_null(kind_json_get(r, "nope.state"));
	cJSON_Delete(r);
}

/* ---- verbs and paging --------------------------------------------------- */

static void
test_verbs_text(void **state)
{
	struct buf	b = BUF_INITIALIZER;

	(void)state;
	kind_verbs_text(kind_rate_limits.verbs, &b);
	assert_string_equal(buf_str(&b), "list get create update delete");
	buf_reset(&b);
	kind_verbs_text(kind_operations.verbs, &b);
	assert_string_equal(buf_str(&b),
	    "list get create delete bulk-create bulk-delete");
	buf_reset(&b);
	kind_verbs_text(kind_videos.verbs, &b);
	assert_string_equal(buf_str(&b), "list get update delete upload");
	buf_free(&b);
	assert_string_equal(kind_method_name(KIND_METHOD_PATCH), "PATCH");
	assert_string_equal(kind_verb_name(KIND_VERB_BULK_UPDATE),
	    "bulk-update");
	assert_string_equal(kind_scope_name(kind_downloads.scope), "video");
	assert_string_equal(kind_type_name(KIND_TYPE_HEX32), "hex32");
	assert_string_equal(kind_type_name(KIND_TYPE_ENUMS), "enums");
	assert_string_equal(kind_help(&kind_rate_limits),
	    kind_rate_limits.help);
}

static void
test_per_page(void **state)
{
	static const struct {
		const struct kind	*kind;
		long			 n;
		int			 ok;
	} cases[] = {
		{ &kind_rate_limits, 1, 1 },
		{ &kind_rate_limits, 2, 0 },
		{ &kind_rate_limits, 5, 1 },
		{ &kind_rate_limits, 20, 1 },
		{ &kind_rate_limits, 21, 0 },
		{ &kind_rate_limits, 1000, 1 },
		{ &kind_rate_limits, 1005, 0 },
		{ &kind_rate_limits, 0, 0 },
		{ &kind_operations, 4, 0 },
		{ &kind_operations, 5, 1 },
		{ &kind_operations, 50, 1 },
		{ &kind_operations, 1000, 1 },
		{ &kind_operations, 1001, 0 },
		{ &kind_discovered_operations, 5, 1 },
		{ &kind_discovered_operations, 51, 0 },
		{ &kind_user_schemas, 7, 1 },
		{ &kind_user_schemas, 60, 0 },
		{ &kind_videos, 1000, 1 },
		{ &kind_videos, 1001, 0 },
		{ &kind_watermarks, 5, 0 },
	};
	char	*cause;
	size_t	 i;
	int	 rc;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		cause = NULL;
		rc = kind_per_page_check(cases[i].kind, cases[i].n, &cause);
		if ((rc == 0) != cases[i].ok)
			fail_msg("%s per_page %ld: %s", cases[i].kind->name,
			    cases[i].n, rc == 0 ? "taken" : cause);
		free(cause);
	}
	cause = NULL;
	kind_per_page_check(&kind_rate_limits, 2, &cause);
	assert_string_equal(cause,
	    "per_page: 2 must be 1 or a multiple of 5 (up to 1000)");
	free(cause);
}

static void
test_pager_opts(void **state)
{
	struct pager_opts	o;

	(void)state;
	kind_pager_opts(&kind_live_inputs, &o);
	assert_string_equal(o.key, "liveInputs");
	kind_pager_opts(&kind_videos, &o);
	assert_null(o.key);
	assert_string_equal(o.id_field, "uid");
	assert_string_equal(o.time_field, "created");
	kind_pager_opts(&kind_rate_limits, &o);
	assert_null(o.key);
	assert_null(o.id_field);
}

/* ---- filters ------------------------------------------------------------ */

static void
test_filters(void **state)
{
	struct buf	 q = BUF_INITIALIZER;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(kind_filter_add(&kind_videos, "status", "ready", &q,
	    &cause), 0);
	assert_int_equal(kind_filter_add(&kind_videos, "search",
	    "Keynote rehearsal & more", &q, &cause), 0);
	assert_int_equal(kind_filter_add(&kind_videos, "asc", "YES", &q,
	    &cause), 0);
	assert_int_equal(kind_filter_add(&kind_videos, "start",
	    "2026-03-01T00:00:00Z", &q, &cause), 0);
	assert_string_equal(buf_str(&q), "status=ready&search=Keynote%20"
	    "rehearsal%20%26%20more&asc=true&start=2026-03-01T00%3A00%3A00Z");

	assert_int_equal(kind_filter_add(&kind_videos, "status", "done", &q,
	    &cause), -1);
	assert_non_null(strstr(cause, "'done' is not one of pendingupload"));
	free(cause);
	cause = NULL;
	assert_int_equal(kind_filter_add(&kind_videos, "end", "yesterday", &q,
	    &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(kind_filter_add(&kind_videos, "asc", "maybe", &q,
	    &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(kind_filter_add(&kind_videos, "colour", "red", &q,
	    &cause), -1);
	assert_non_null(strstr(cause, "search, creator"));
	free(cause);
	cause = NULL;
	assert_int_equal(kind_filter_add(&kind_watermarks, "name", "x", &q,
	    &cause), -1);
	free(cause);
	cause = NULL;

	/* Lists repeat; methods take their canonical spelling. */
	buf_reset(&q);
	buf_adds(&q, "?page=1");
	assert_int_equal(kind_filter_add(&kind_operations, "host[]",
	    "api.example.com", &q, &cause), 0);
	assert_int_equal(kind_filter_add(&kind_operations, "host",
	    "shop.example.com", &q, &cause), 0);
	assert_int_equal(kind_filter_add(&kind_operations, "method", "get",
	    &q, &cause), 0);
	assert_string_equal(buf_str(&q), "?page=1&host=api.example.com&"
	    "host=shop.example.com&method=GET");
	assert_int_equal(kind_filter_add(&kind_operations, "method", "FETCH",
	    &q, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(kind_filter_add(&kind_discovered_operations, "state",
	    "saved", &q, &cause), 0);
	assert_int_equal(kind_filter_add(&kind_user_schemas, "omit_source",
	    "true", &q, &cause), 0);
	buf_free(&q);

	/* What '/' sends to the server, kind by kind. */
	assert_string_equal(kind_filter_text(&kind_videos)->name, "search");
	assert_string_equal(kind_filter_text(&kind_operations)->name,
	    "endpoint");
	assert_string_equal(kind_filter_text(&kind_discovered_operations)->name,
	    "endpoint");
	assert_string_equal(kind_filter_text(&kind_storage_usage)->name,
	    "creator");
	assert_null(kind_filter_text(&kind_rate_limits));
	assert_null(kind_filter_text(&kind_user_schemas));
}

/* Both Schema Validation APIs list the same schemas with the same values. */
static void
test_schema_tables_shared(void **state)
{
	const struct kind_filter	*f;

	(void)state;
	assert_ptr_equal(kind_user_schemas.filters,
	    kind_validation_schemas.filters);
	f = kind_filter_find(&kind_validation_schemas, "omit_source");
	assert_non_null(f);
	assert_int_equal(f->type, KIND_TYPE_BOOL);
	assert_non_null(kind_filter_find(&kind_user_schemas,
	    "validation_enabled"));
	assert_ptr_equal(kind_field_find(&kind_user_schemas, "kind")->values,
	    kind_field_find(&kind_validation_schemas, "kind")->values);
	assert_ptr_equal(kind_field_find(&kind_validation_settings,
	    "validation_default_mitigation_action")->values,
	    kind_field_find(&kind_operation_validation,
	    "mitigation_action")->values);
	assert_string_equal(kind_field_find(&kind_operation_validation,
	    "mitigation_action")->values[2], "block");
}

/* ---- cells -------------------------------------------------------------- */

static const char *
cell(const struct kind *k, const char *header, const char *json, int *present)
{
	static char			 out[128];
	const struct kind_column	*c = kind_column_find(k, header);
	cJSON				*r = cJSON_Parse(json);

	if (c == NULL)
		fail_msg("%s has no column %s", k->name, header);
	assert_non_null(r);
	*present = kind_column_value(k, c, r, out, sizeof out);
	cJSON_Delete(r);
	return (out);
}

#define CELL(k, h, json, want) do {					\
	int	p_;							\
	assert_string_equal(cell(k, h, json, &p_), want);		\
} while (0)

#define MISSING(k, h, json) do {					\
	int	p_;							\
	assert_string_equal(cell(k, h, json, &p_), "-");		\
	assert_int_equal(p_, 0);					\
} while (0)

static void
test_cell_time(void **state)
{
	(void)state;
	CELL(&kind_videos, "created",
	    "{\"created\":\"2026-11-21T19:52:03.969495Z\"}",
	    "2026-11-21 19:52");
	CELL(&kind_videos, "CREATED",
	    "{\"created\":\"2026-11-21T19:52:03+02:00\"}", "2026-11-21 17:52");
	CELL(&kind_videos, "created", "{\"created\":\"soon\"}", "soon");
	MISSING(&kind_videos, "created", "{\"created\":null}");
	MISSING(&kind_videos, "created", "{}");
}

/* A discovered operation's traffic: requests over a period. */
static const char *
traffic(const char *requests, const char *period)
{
	static char	json[256];

	snprintf(json, sizeof json, "{\"features\":{\"traffic_stats\":"
	    "{\"requests\":%s,\"period_seconds\":%s}}}", requests, period);
	return (json);
}

static void
test_cell_per_hour(void **state)
{
	(void)state;
	/* A discovered operation's traffic, per hour whatever the period. */
	CELL(&kind_discovered_operations, "REQ/H", traffic("2050.22", "3600"),
	    "2050");
	CELL(&kind_discovered_operations, "REQ/H", traffic("500", "600"),
	    "3000");
	CELL(&kind_discovered_operations, "REQ/H", traffic("12345", "3600"),
	    "12.3k");
	CELL(&kind_discovered_operations, "REQ/H", traffic("4.5e6", "3600"),
	    "4.5M");
	MISSING(&kind_discovered_operations, "REQ/H", traffic("10", "0"));
	MISSING(&kind_discovered_operations, "REQ/H", "{}");
}

static void
test_cell_bytes(void **state)
{
	(void)state;
	CELL(&kind_videos, "size", "{\"size\":734003200}", "734.0 MB");
	CELL(&kind_videos, "size", "{\"size\":2456202353}", "2.5 GB");
	CELL(&kind_videos, "size", "{\"size\":999}", "999 B");
	CELL(&kind_videos, "size", "{\"size\":1234}", "1.2 kB");
	CELL(&kind_videos, "size", "{\"size\":999999}", "1.0 MB");
	CELL(&kind_videos, "size", "{\"size\":3e15}", "3.0 PB");
	MISSING(&kind_videos, "size", "{\"size\":null}");
}

static void
test_cell_duration(void **state)
{
	int	present;

	(void)state;
	CELL(&kind_videos, "duration", "{\"duration\":3723}", "1:02:03");
	CELL(&kind_videos, "duration", "{\"duration\":93}", "1:33");
	CELL(&kind_videos, "duration", "{\"duration\":2793.987}", "46:34");
	CELL(&kind_videos, "duration", "{\"duration\":0}", "0:00");
	CELL(&kind_videos, "duration", "{\"duration\":36000}", "10:00:00");
	/* -1 is "not known yet". */
	assert_string_equal(cell(&kind_videos, "duration",
	    "{\"duration\":-1}", &present), "-");
	assert_int_equal(present, 0);
}

static void
test_cell_pct_bool(void **state)
{
	(void)state;
	CELL(&kind_videos, "pct", "{\"status\":{\"pctComplete\":"
	    "\"100.000000\"}}", "100%");
	CELL(&kind_videos, "pct", "{\"status\":{\"pctComplete\":\"45.7\"}}",
	    "46%");
	CELL(&kind_downloads, "pct", "{\"default\":{\"percentComplete\":"
	    "12.2}}", "12%");
	MISSING(&kind_videos, "pct", "{\"status\":{}}");
	CELL(&kind_rate_limits, "disabled", "{\"disabled\":true}", "yes");
	CELL(&kind_rate_limits, "disabled", "{\"disabled\":false}", "no");
	MISSING(&kind_rate_limits, "disabled", "{}");
}

static void
test_cell_count_list_rate(void **state)
{
	(void)state;
	CELL(&kind_storage_usage, "minutes",
	    "{\"totalStorageMinutes\":1622}", "1,622");
	CELL(&kind_storage_usage, "limit",
	    "{\"totalStorageMinutesLimit\":100000}", "100,000");
	CELL(&kind_storage_usage, "videos", "{\"videoCount\":50}", "50");
	CELL(&kind_operations, "requests",
	    "{\"features\":{\"thresholds\":{\"requests\":1538019}}}",
	    "1,538,019");
	CELL(&kind_discovery, "schemas", "{\"schemas\":[{},{},{}]}", "3");
	CELL(&kind_rate_limits, "methods", "{\"match\":{\"request\":"
	    "{\"methods\":[\"GET\",\"POST\"]}}}", "GET,POST");
	CELL(&kind_rate_limits, "rate", "{\"threshold\":5,\"period\":60}",
	    "5/1m");
	CELL(&kind_rate_limits, "rate", "{\"threshold\":30,\"period\":10}",
	    "30/10s");
	CELL(&kind_rate_limits, "rate", "{\"threshold\":3,\"period\":900}",
	    "3/15m");
	CELL(&kind_rate_limits, "rate", "{\"threshold\":20,\"period\":3600}",
	    "20/1h");
	CELL(&kind_rate_limits, "rate", "{\"threshold\":1,\"period\":86400}",
	    "1/1d");
	/* Rules: the period in seconds as the API has it; 0 throttles. */
	CELL(&kind_rate_limit_rules, "rate", "{\"ratelimit\":{"
	    "\"requests_per_period\":100,\"period\":60}}", "100/60s");
	CELL(&kind_rate_limit_rules, "timeout", "{\"ratelimit\":{"
	    "\"mitigation_timeout\":0}}", "throttle");
	CELL(&kind_rate_limit_rules, "timeout", "{\"ratelimit\":{}}",
	    "throttle");
	CELL(&kind_rate_limit_rules, "timeout", "{\"ratelimit\":{"
	    "\"mitigation_timeout\":600}}", "600");
	CELL(&kind_rate_limit_rules, "#", "{\"position\":3}", "3");
	CELL(&kind_rate_limits, "url", "{\"match\":{\"request\":"
	    "{\"url\":\"www.example.com/login*\"}}}", "www.example.com/login*");
	CELL(&kind_watermarks, "opacity", "{\"opacity\":0.465}", "0.465");
	CELL(&kind_discovered_operations, "requests", "{\"features\":"
	    "{\"traffic_stats\":{\"requests\":2050.22}}}", "2050.22");
}

static void
test_cell_safety(void **state)
{
	const struct kind_column	*c;
	char				 out[8];
	cJSON				*r;

	(void)state;
	/* Secrets are masked, whatever their length. */
	CELL(&kind_webhook, "secret", "{\"secret\":\"78d6de2ad9d7\"}",
	    "********");
	MISSING(&kind_webhook, "secret", "{}");
	/* Escape sequences from the server never reach the terminal. */
	CELL(&kind_videos, "name",
	    "{\"meta\":{\"name\":\"a\\u001b[31mb\\u0007\\u009bc\"}}",
	    "a?[31mb??c");
	CELL(&kind_videos, "name", "{\"meta\":{\"name\":\"caf\\u00e9\"}}",
	    "caf\xc3\xa9");

	/* Bytes that are no UTF-8 show as one '?' each. */
	c = kind_column_find(&kind_videos, "name");
	r = cJSON_CreateObject();
	cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "meta"), "name",
	    "\xffok\xc3");
	kind_column_value(&kind_videos, c, r, out, sizeof out);
	assert_string_equal(out, "?ok?");
	cJSON_Delete(r);

	/* Cut to the buffer without halving a character. */
	r = cJSON_Parse("{\"meta\":{\"name\":\"\\u00e9\\u00e9\\u00e9\\u00e9"
	    "\"}}");
	kind_column_value(&kind_videos, c, r, out, 4);
	assert_string_equal(out, "\xc3\xa9");
	kind_column_value(&kind_videos, c, r, out, 5);
	assert_string_equal(out, "\xc3\xa9\xc3\xa9");
	cJSON_Delete(r);
}

/* ---- times -------------------------------------------------------------- */

static void
test_parse_time(void **state)
{
	int64_t	t;

	(void)state;
	assert_int_equal(kind_parse_time("1970-01-01T00:00:00Z", &t), 0);
	assert_int_equal(t, 0);
	assert_int_equal(kind_parse_time("2026-03-01T00:00:00Z", &t), 0);
	assert_int_equal(t, 1772323200);
	assert_int_equal(kind_parse_time("2026-03-01T02:00:00.5+02:00", &t),
	    0);
	assert_int_equal(t, 1772323200);
	assert_int_equal(kind_parse_time("2024-02-29T12:00:00Z", &t), 0);
	assert_int_equal(kind_parse_time("2023-02-29T12:00:00Z", &t), -1);
	assert_int_equal(kind_parse_time("2026-13-01T00:00:00Z", &t), -1);
	assert_int_equal(kind_parse_time("2026-03-01", &t), -1);
	assert_int_equal(kind_parse_time("2026-03-01T00:00:00", &t), -1);
	assert_int_equal(kind_parse_time("2026-03-01T00:00:00Zx", &t), -1);
	assert_int_equal(kind_parse_time("2026-03-01T00:00:00.Z", &t), -1);
}

/* ---- every descriptor --------------------------------------------------- */

static int
is_list_type(enum kind_type t)
{
	return (t == KIND_TYPE_STRINGS || t == KIND_TYPE_ENUMS ||
	    t == KIND_TYPE_OBJECTS);
}

/* The parent of "a.b[].c" is "a.b", an OBJECTS; of "a.b", "a". */
static void
check_parent(const struct kind *k, const struct kind_field *f)
{
	const struct kind_field	*parent;
	char			 path[128], *dot;
	int			 each;

	assert_true(strlen(f->path) < sizeof path);
	snprintf(path, sizeof path, "%s", f->path);
	if ((dot = strrchr(path, '.')) == NULL)
		return;
	*dot = '\0';
	each = dot - path > 2 && strcmp(dot - 2, "[]") == 0;
	if (each)
		dot[-2] = '\0';
	parent = kind_field_find(k, path);
	if (parent == NULL)
		fail_msg("%s: %s has no parent field %s", k->name, f->path,
		    path);
	if (each && parent->type != KIND_TYPE_OBJECTS)
		fail_msg("%s: %s is not a list of objects", k->name, path);
	if (!each && parent->type != KIND_TYPE_OBJECT &&
	    parent->type != KIND_TYPE_MAP)
		fail_msg("%s: %s is not an object", k->name, path);
	if ((parent->flags & KIND_F_READONLY) && !(f->flags & KIND_F_READONLY))
		fail_msg("%s: %s is writable under read-only %s", k->name,
		    f->path, path);
}

static void
check_fields(const struct kind *k)
{
	const struct kind_field	*f, *g;
	int			 files = 0;

	assert_non_null(k->fields);
	for (f = k->fields; f->path != NULL; f++) {
		if (f->help == NULL || *f->help == '\0')
			fail_msg("%s: %s has no help", k->name, f->path);
		for (g = k->fields; g != f; g++) {
			if (strcmp(g->path, f->path) == 0)
				fail_msg("%s: %s twice", k->name, f->path);
		}
		check_parent(k, f);
		if ((f->type == KIND_TYPE_ENUM || f->type == KIND_TYPE_ENUMS) &&
		    (f->values == NULL || f->values[0] == NULL))
			fail_msg("%s: enum %s has no values", k->name, f->path);
		if (f->values != NULL && f->type != KIND_TYPE_ENUM &&
		    f->type != KIND_TYPE_ENUMS)
			fail_msg("%s: %s has values but is no enum", k->name,
			    f->path);
		if ((f->bounds & KIND_MIN) && (f->bounds & KIND_MAX) &&
		    f->min > f->max)
			fail_msg("%s: %s min > max", k->name, f->path);
		if (f->bounds != 0 && f->type != KIND_TYPE_INT &&
		    f->type != KIND_TYPE_NUMBER)
			fail_msg("%s: %s has bounds but is no number", k->name,
			    f->path);
		if (f->max_items != 0 && !is_list_type(f->type))
			fail_msg("%s: %s has max_items but is no list",
			    k->name, f->path);
		/* The user's own secret is given once (an output's key). */
		if ((f->flags & KIND_F_SECRET) &&
		    !(f->flags & (KIND_F_READONLY | KIND_F_CREATE)))
			fail_msg("%s: secret %s is writable", k->name, f->path);
		if ((f->flags & KIND_F_REQUIRED) &&
		    (f->flags & KIND_F_READONLY))
			fail_msg("%s: %s is required and read-only", k->name,
			    f->path);
		/* A file's check is of its document. */
		if (f->check == KIND_CHECK_OPENAPI ?
		    f->type != KIND_TYPE_FILE : f->check != KIND_CHECK_NONE &&
		    f->type != KIND_TYPE_STRING && f->type != KIND_TYPE_STRINGS)
			fail_msg("%s: %s has a check its type does not take",
			    k->name, f->path);
		if (f->type == KIND_TYPE_FILE)
			files++;
	}
	/* A create from a file has its file; nothing else takes one. */
	if ((k->verbs & KIND_VERB_CREATE) &&
	    (k->create_body == KIND_BODY_MULTIPART ||
	    k->create_body == KIND_BODY_JSON_FILE))
		assert_int_equal(files, 1);
	else
		assert_int_equal(files, 0);
	if (k->id_field != NULL) {
		f = kind_field_find(k, k->id_field);
		if (f == NULL || !(f->flags & KIND_F_READONLY))
			fail_msg("%s: id %s is not a read-only field", k->name,
			    k->id_field);
	}
}

static void
check_columns(const struct kind *k)
{
	const struct kind_column	*c, *d;
	int				 defaults = 0;

	assert_non_null(k->columns);
	for (c = k->columns; c->header != NULL; c++) {
		if (kind_field_find(k, c->path) == NULL)
			fail_msg("%s: column %s shows %s, no field", k->name,
			    c->header, c->path);
		if ((c->format == KIND_FMT_RATE ||
		    c->format == KIND_FMT_RATE_SECONDS ||
		    c->format == KIND_FMT_PER_HOUR) != (c->path2 != NULL))
			fail_msg("%s: column %s path2", k->name, c->header);
		if (c->path2 != NULL && kind_field_find(k, c->path2) == NULL)
			fail_msg("%s: column %s path2 %s", k->name, c->header,
			    c->path2);
		assert_true(c->width >= 0 && c->width <= 64);
		for (d = k->columns; d != c; d++) {
			if (strcasecmp(c->header, d->header) == 0)
				fail_msg("%s: column %s twice", k->name,
				    c->header);
		}
		if (c->flags & KIND_COL_DEFAULT)
			defaults++;
	}
	if (defaults == 0)
		fail_msg("%s: no default column", k->name);
}

static void
check_filters(const struct kind *k)
{
	const struct kind_filter	*f, *g;
	int				 text = 0;

	for (f = k->filters; f != NULL && f->name != NULL; f++) {
		if ((f->type == KIND_TYPE_ENUM || f->type == KIND_TYPE_ENUMS) !=
		    (f->values != NULL && f->values[0] != NULL))
			fail_msg("%s: filter %s values", k->name, f->name);
		for (g = k->filters; g != f; g++) {
			if (strcmp(g->name, f->name) == 0)
				fail_msg("%s: filter %s twice", k->name,
				    f->name);
		}
		assert_non_null(f->help);
		if (f->flags & KIND_FILTER_TEXT)
			text++;
	}
	assert_true(text <= 1);
}

static void
check_shape(const struct kind *k)
{
	const char	*prefix;
	const char	*paths[3] = { k->list_path, k->item_path,
			    k->create_path };
	size_t		 i;

	assert_non_null(k->help);
	assert_true(*k->help != '\0');
	if (k->scope == KIND_SCOPE_ZONE)
		prefix = "/zones/{zone}/";
	else if (k->scope == KIND_SCOPE_VIDEO && k->parent != NULL)
		prefix = "/accounts/{account}/stream/live_inputs/{video}/";
	else if (k->scope == KIND_SCOPE_VIDEO)
		prefix = "/accounts/{account}/stream/{video}/";
	else
		prefix = "/accounts/{account}/";
	for (i = 0; i < nitems(paths); i++) {
		if (paths[i] != NULL &&
		    strncmp(paths[i], prefix, strlen(prefix)) != 0)
			fail_msg("%s: %s is not under %s", k->name, paths[i],
			    prefix);
		if (paths[i] != NULL && k->scope != KIND_SCOPE_VIDEO &&
		    strstr(paths[i], "{video}") != NULL)
			fail_msg("%s: %s takes a video", k->name, paths[i]);
	}
	if (k->shape == KIND_SHAPE_OBJECT) {
		assert_false(k->verbs & KIND_VERB_LIST);
		assert_null(k->id_field);
		assert_null(strstr(k->item_path, "{id}"));
		assert_string_equal(k->item_path, k->list_path);
	} else if (k->verbs & (KIND_VERB_GET | KIND_VERB_UPDATE |
	    KIND_VERB_DELETE)) {
		assert_non_null(k->item_path);
		assert_non_null(strstr(k->item_path, "{id}"));
		assert_non_null(k->id_field);
	}
	assert_int_equal(k->shape == KIND_SHAPE_WRAPPED, k->list_key != NULL);
	assert_int_equal(k->shape == KIND_SHAPE_NONE, k->list_path == NULL);
	assert_int_equal((k->verbs & KIND_VERB_LIST) != 0,
	    k->shape == KIND_SHAPE_ARRAY || k->shape == KIND_SHAPE_WRAPPED);
	assert_int_equal((k->verbs & (KIND_VERB_UPDATE |
	    KIND_VERB_BULK_UPDATE)) != 0,
	    k->update_method != KIND_METHOD_NONE);
	assert_int_equal((k->verbs & KIND_VERB_BULK_DELETE) != 0,
	    k->bulk_delete_key != NULL);
	assert_true((k->verbs & ~(unsigned)KIND_VERB_ALL) == 0);
	if (k->paging == PAGER_PAGES || k->paging == PAGER_CREATED ||
	    k->paging == PAGER_CURSOR) {
		assert_true(k->per_page.min >= 1);
		assert_true(k->per_page.min <= k->per_page.def);
		assert_true(k->per_page.def <= k->per_page.max);
	} else
		assert_int_equal(k->per_page.max, 0);
}

static void
test_descriptors(void **state)
{
	const struct kind *const	*all;
	size_t				 n, i;

	(void)state;
	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		check_shape(all[i]);
		check_fields(all[i]);
		check_columns(all[i]);
		check_filters(all[i]);
	}
}

/* The fields the spec marks secret are secret, wherever they are. */
static void
test_secrets(void **state)
{
	static const struct {
		const struct kind	*kind;
		const char		*path;
	} secrets[] = {
		{ &kind_live_inputs, "rtmps.streamKey" },
		{ &kind_live_inputs, "rtmpsPlayback.streamKey" },
		{ &kind_live_inputs, "srt.passphrase" },
		{ &kind_live_inputs, "srtPlayback.passphrase" },
		{ &kind_live_inputs, "webRTC.url" },
		{ &kind_direct_uploads, "uploadURL" },
		{ &kind_signing_keys, "pem" },
		{ &kind_signing_keys, "jwk" },
		{ &kind_webhook, "secret" },
	};
	const struct kind_field	*f;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(secrets); i++) {
		f = kind_field_find(secrets[i].kind, secrets[i].path);
		if (f == NULL || !(f->flags & KIND_F_SECRET))
			fail_msg("%s: %s is not secret",
			    secrets[i].kind->name, secrets[i].path);
	}
	f = kind_field_find(&kind_rate_limits, "bypass[3].value");
	assert_non_null(f);
	assert_string_equal(f->path, "bypass[].value");
	assert_null(kind_field_find(&kind_rate_limits, "bypass[x].value"));
	assert_null(kind_field_find(&kind_rate_limits, "bypass.value"));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_alias_clashes),
		cmocka_unit_test(test_api_map),
		cmocka_unit_test(test_paths_need_scope),
		cmocka_unit_test(test_paths_ids),
		cmocka_unit_test(test_record_id),
		cmocka_unit_test(test_verbs_text),
		cmocka_unit_test(test_per_page),
		cmocka_unit_test(test_pager_opts),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_schema_tables_shared),
		cmocka_unit_test(test_cell_time),
		cmocka_unit_test(test_cell_per_hour),
		cmocka_unit_test(test_cell_bytes),
		cmocka_unit_test(test_cell_duration),
		cmocka_unit_test(test_cell_pct_bool),
		cmocka_unit_test(test_cell_count_list_rate),
		cmocka_unit_test(test_cell_safety),
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_descriptors),
		cmocka_unit_test(test_secrets),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
