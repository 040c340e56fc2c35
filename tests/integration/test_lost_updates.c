/*
 * Integration tests: no one-shot command loses another client's change.
 * edgetui talks to edgemu through a proxy (faultd with a handler) that
 * lets a second client change the record at a chosen point: just before
 * the request that reads it, or just after a write, so between the read
 * a command started from and the write it sends. The server's state is
 * checked after: the other field kept, or the conflict reported and
 * nothing sent.
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

#define EP_PATH		"rulesets/phases/http_ratelimit/entrypoint"

/* ---- the proxy and the second client ----------------------------------- */

/*
 * The second client acts once, at the nth request of method whose path
 * contains path_has: before it is passed on (before), or after its answer.
 */
struct racer {
	struct fixture	*f;
	const char	*method;
	const char	*path_has;
	int		 nth;
	int		 before;
	void		(*act)(struct racer *);
	const char	*id;		/* what act changes */
	const char	*value;
	int		 seen;
	int		 acted;
	struct faultd	*fd;
	char		*url;		/* CLOUDFLARE_BASE_URL=... */
};

static void
racer_maybe(struct racer *rc, const struct faultd_request *r, int before)
{
	if (rc->acted || rc->before != before ||
	    strcmp(r->method, rc->method) != 0 ||
	    strstr(r->path, rc->path_has) == NULL)
		return;
	/* Counted once per request, on the side it acts. */
	if (++rc->seen != rc->nth)
		return;
	rc->act(rc);
	rc->acted = 1;
}

/* Pass the request on to edgemu; the second client acts around it. */
static void
racer_handle(const struct faultd_request *r, struct faultd_reply *reply,
    char **owned, void *arg)
{
	struct racer	*rc = arg;
	struct http_req	 q;
	struct http_resp resp;
	const char	*emu = rc->f->emu.url, *ct;
	char		*url, *type, *hdr = NULL;
	size_t		 base;

	racer_maybe(rc, r, 1);
	/* edgemu's URL is http://host:port/client/v4; r->path has the rest. */
	base = (size_t)(strstr(emu, "/client/v4") - emu);
	url = itest_printf("%.*s%s", (int)base, emu, r->path);
	memset(&q, 0, sizeof q);
	q.method = r->method;
	q.url = url;
	if ((type = faultd_header(r, "Content-Type")) != NULL) {
		hdr = itest_printf("Content-Type: %s", type);
		q.headers[0] = hdr;
	}
	if (r->len > 0) {
		q.body = r->body;
		q.len = r->len;
	}
	http_send(&rc->f->emu, &q, &resp);
	racer_maybe(rc, r, 0);
	reply->act = FAULTD_REPLY;
	reply->status = (int)resp.status;
	ct = http_header(&resp, "content-type");
	reply->headers = ct != NULL && strstr(ct, "json") != NULL ?
	    "Content-Type: application/json\r\n" : "";
	*owned = malloc(resp.len + 1);
	assert_non_null(*owned);
	memcpy(*owned, resp.body != NULL ? resp.body : "", resp.len);
	(*owned)[resp.len] = '\0';
	reply->body = *owned;
	reply->len = resp.len;
	http_resp_free(&resp);
	free(type);
	free(hdr);
	free(url);
}

static void
racer_start(struct racer *rc, struct fixture *f)
{
	rc->f = f;
	assert_non_null(rc->fd = faultd_start(0));
	faultd_handler(rc->fd, racer_handle, rc);
	assert_int_equal(faultd_listen(rc->fd), 0);
	rc->url = itest_printf("CLOUDFLARE_BASE_URL=%s/client/v4",
	    faultd_url(rc->fd));
}

/* How many requests of method reached the proxy; stops it first. */
static int
racer_stop(struct racer *rc, const char *method)
{
	struct faultd_request	r;
	size_t			i, n;
	int			count = 0;

	faultd_stop(rc->fd);
	n = faultd_count(rc->fd);
	for (i = 0; i < n; i++) {
		assert_int_equal(faultd_request(rc->fd, i, &r), 0);
		if (strcmp(r.method, method) == 0)
			count++;
		faultd_request_free(&r);
	}
	faultd_free(rc->fd);
	free(rc->url);
	return (count);
}

#define RUN_VIA(rc, r, ...) do {					\
	const char *const run_env_[] = { (rc)->url, NULL };		\
	const char *const run_args_[] = { __VA_ARGS__, NULL };		\
	run_cli((rc)->f, run_env_, run_args_, (r));			\
} while (0)

#define RUN_VIA_ENV(rc, env, r, ...) do {				\
	const char *const run_env_[] = { (rc)->url, (env), NULL };	\
	const char *const run_args_[] = { __VA_ARGS__, NULL };		\
	run_cli((rc)->f, run_env_, run_args_, (r));			\
} while (0)

static int
has(const char *s, const char *what)
{
	if (strstr(s, what) == NULL) {
		print_error("missing '%s' in:\n%s\n", what, s);
		return (0);
	}
	return (1);
}

/* ---- rules on the server ------------------------------------------------ */

static cJSON *
entry(struct fixture *f)
{
	char	*path = itest_printf("/zones/%s/" EP_PATH, f->emu.zone);
	cJSON	*ep = api_ok(&f->emu, "GET", path, NULL);

	free(path);
	return (ep);
}

/* The id of the entry point's rule at index i (caller frees). */
static char *
rule_id(struct fixture *f, int i)
{
	cJSON	*ep = entry(f);
	char	*id;

	id = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(ep, "rules"), i), "id")->valuestring);
	cJSON_Delete(ep);
	return (id);
}

/* The rule with id as the server has it now (caller frees). */
static cJSON *
rule_now(struct fixture *f, const char *id)
{
	cJSON	*ep = entry(f), *r, *copy = NULL;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(ep, "rules"))
		if (strcmp(cJSON_GetObjectItem(r, "id")->valuestring, id) == 0)
			copy = cJSON_Duplicate(r, 1);
	cJSON_Delete(ep);
	assert_non_null(copy);
	return (copy);
}

static const char *
str_of(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItem(o, key);

	return (cJSON_IsString(v) ? v->valuestring : "");
}

static int
rpp_of(const cJSON *rule)
{
	return (cJSON_GetObjectItem(cJSON_GetObjectItem(rule, "ratelimit"),
	    "requests_per_period")->valueint);
}

/* The second client: a PATCH of the whole rule with one field changed. */
static void
rule_patch_field(struct fixture *f, const char *id, const char *field,
    cJSON *value)
{
	cJSON	*ep = entry(f), *rule = rule_now(f, id), *rl;
	char	*path, *body;

	cJSON_DeleteItemFromObject(rule, "id");
	cJSON_DeleteItemFromObject(rule, "version");
	cJSON_DeleteItemFromObject(rule, "last_updated");
	if (strcmp(field, "requests_per_period") == 0) {
		rl = cJSON_GetObjectItem(rule, "ratelimit");
		cJSON_ReplaceItemInObject(rl, field, value);
	} else
		cJSON_ReplaceItemInObject(rule, field, value);
	path = itest_printf("/zones/%s/rulesets/%s/rules/%s", f->emu.zone,
	    str_of(ep, "id"), id);
	body = cJSON_PrintUnformatted(rule);
	cJSON_Delete(api_ok(&f->emu, "PATCH", path, body));
	free(body);
	free(path);
	cJSON_Delete(rule);
	cJSON_Delete(ep);
}

static void
act_describe(struct racer *rc)
{
	rule_patch_field(rc->f, rc->id, "description",
	    cJSON_CreateString(rc->value));
}

static void
act_rpp(struct racer *rc)
{
	rule_patch_field(rc->f, rc->id, "requests_per_period",
	    cJSON_CreateNumber(atoi(rc->value)));
}

static char *
file_in(struct fixture *f, const char *name, const char *text, mode_t mode)
{
	char	*path = itest_printf("%s/%s", f->home, name);

	spill(path, text, mode);
	return (path);
}

/* An $EDITOR that sets requests_per_period (or threshold) to 9. */
static char *
editor_rpp(struct fixture *f)
{
	char	*path;

	path = file_in(f, "editor.sh", "#!/bin/sh\n"
	    "sed -i -e 's/requests_per_period: .*/requests_per_period: 9/' "
	    "-e 's/^threshold: .*/threshold: 9/' \"$1\"\n", 0700);
	return (path);
}

/* ---- disable: each rule read just before its PATCH --------------------- */

/*
 * disable A B: another client changes B's description once A is written.
 * B's PATCH, the whole rule, starts from B as the server has it then.
 */
static void
test_disable_two(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	char		*a = rule_id(f, 0), *b = rule_id(f, 1);
	cJSON		*rule;

	rc.method = "PATCH";
	rc.path_has = a;
	rc.nth = 1;
	rc.act = act_describe;
	rc.id = b;
	rc.value = "CHANGED BY A COLLEAGUE";
	racer_start(&rc, f);
	RUN_VIA(&rc, &r, "disable", "rules", a, b);
	assert_int_equal(r.status, 0);
	assert_true(rc.acted);
	racer_stop(&rc, "PATCH");
	run_free(&r);
	rule = rule_now(f, b);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(rule, "enabled")));
	assert_string_equal(str_of(rule, "description"),
	    "CHANGED BY A COLLEAGUE");
	cJSON_Delete(rule);
	free(a);
	free(b);
}

/* ---- update -f: a file taken before a change made since ---------------- */

static void
test_update_stale_file(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	char		*id = rule_id(f, 1), *file, *text, *at, *eol;
	cJSON		*rule;
	int		 rpp;

	RUN(f, &r, "get", "rules", id, "-o", "yaml");
	assert_int_equal(r.status, 0);
	/* The user's change, in the file: requests per period. */
	assert_non_null(at = strstr(r.out, "requests_per_period: "));
	eol = strchr(at, '\n');
	assert_non_null(eol);
	text = itest_printf("%.*srequests_per_period: 8%s",
	    (int)(at - r.out), r.out, eol);
	run_free(&r);
	file = file_in(f, "rule.yaml", text, 0600);
	rule = rule_now(f, id);
	rpp = rpp_of(rule);
	cJSON_Delete(rule);
	assert_int_not_equal(rpp, 8);

	/* Meanwhile another client changed the description. */
	rc.method = "GET";
	rc.path_has = EP_PATH;
	rc.nth = 1;
	rc.before = 1;
	rc.act = act_describe;
	rc.id = id;
	rc.value = "A NEWER DESCRIPTION";
	racer_start(&rc, f);
	RUN_VIA(&rc, &r, "update", "rules", id, "-f", file);
	/* No terminal to ask on: the conflict is said, nothing is sent. */
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "changed on the server since it was read"));
	assert_true(has(r.err, "description: \"A NEWER DESCRIPTION\""));
	assert_true(has(r.err, "nothing was sent"));
	assert_int_equal(racer_stop(&rc, "PATCH"), 0);
	run_free(&r);
	rule = rule_now(f, id);
	assert_string_equal(str_of(rule, "description"),
	    "A NEWER DESCRIPTION");
	assert_int_equal(rpp_of(rule), rpp);
	cJSON_Delete(rule);
	free(text);
	free(file);
	free(id);
}

/* ---- edit: the editor open while another client changes the rule ------- */

/* Another field changed meanwhile: merged, and only 1 change to apply. */
static void
test_edit_merges(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	char		*id = rule_id(f, 2), *ed = editor_rpp(f), *env;
	cJSON		*rule;

	env = itest_printf("EDITOR=%s", ed);
	/* The second read is the one after the editor: the change lands. */
	rc.method = "GET";
	rc.path_has = EP_PATH;
	rc.nth = 2;
	rc.before = 1;
	rc.act = act_describe;
	rc.id = id;
	rc.value = "EDITED BY A COLLEAGUE";
	racer_start(&rc, f);
	RUN_VIA_ENV(&rc, env, &r, "edit", "rules", id, "--yes");
	assert_int_equal(r.status, 0);
	assert_true(rc.acted);
	/* The server's own fields are no change of the user's. */
	assert_true(has(r.out, "rate-limit-rules: 1 field changed:\n"
	    "  ratelimit.requests_per_period: "));
	assert_null(strstr(r.out, "  version: "));
	assert_null(strstr(r.out, "last_updated"));
	racer_stop(&rc, "PATCH");
	run_free(&r);
	rule = rule_now(f, id);
	assert_int_equal(rpp_of(rule), 9);
	assert_string_equal(str_of(rule, "description"),
	    "EDITED BY A COLLEAGUE");
	cJSON_Delete(rule);
	free(env);
	free(ed);
	free(id);
}

/* The same field changed meanwhile: a conflict, nothing sent. */
static void
test_edit_conflict(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	char		*id = rule_id(f, 2), *ed = editor_rpp(f), *env;
	cJSON		*rule;

	env = itest_printf("EDITOR=%s", ed);
	rc.method = "GET";
	rc.path_has = EP_PATH;
	rc.nth = 2;
	rc.before = 1;
	rc.act = act_rpp;
	rc.id = id;
	rc.value = "7";
	racer_start(&rc, f);
	RUN_VIA_ENV(&rc, env, &r, "edit", "rules", id, "--yes");
	/* --yes picks no side: it stops, and says how to go on. */
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "  ratelimit.requests_per_period: 7 "
	    "\xe2\x86\x92 9\n"));
	assert_true(has(r.err, "nothing was sent: run it without --yes"));
	assert_int_equal(racer_stop(&rc, "PATCH"), 0);
	run_free(&r);
	rule = rule_now(f, id);
	assert_int_equal(rpp_of(rule), 7);
	cJSON_Delete(rule);
	free(env);
	free(ed);
	free(id);
}

/* ---- a kind updated by PUT: legacy rate limits ---------------------------- */

static char *
legacy_id(struct fixture *f, int i)
{
	char	*path = itest_printf("/zones/%s/rate_limits", f->emu.zone);
	cJSON	*list = api_ok(&f->emu, "GET", path, NULL);
	char	*id;

	id = strdup(str_of(cJSON_GetArrayItem(list, i), "id"));
	cJSON_Delete(list);
	free(path);
	return (id);
}

static cJSON *
legacy_now(struct fixture *f, const char *id)
{
	char	*path = itest_printf("/zones/%s/rate_limits/%s", f->emu.zone,
	    id);
	cJSON	*r = api_ok(&f->emu, "GET", path, NULL);

	free(path);
	return (r);
}

/* The second client: the legacy rule PUT whole with a new description. */
static void
act_legacy_describe(struct racer *rc)
{
	char	*path = itest_printf("/zones/%s/rate_limits/%s",
	    rc->f->emu.zone, rc->id);
	cJSON	*r = legacy_now(rc->f, rc->id);
	char	*body;

	cJSON_ReplaceItemInObject(r, "description",
	    cJSON_CreateString(rc->value));
	body = cJSON_PrintUnformatted(r);
	cJSON_Delete(api_ok(&rc->f->emu, "PUT", path, body));
	free(body);
	cJSON_Delete(r);
	free(path);
}

static void
test_edit_put_kind(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	char		*id = legacy_id(f, 1), *ed = editor_rpp(f), *env, *item;
	cJSON		*rl;

	env = itest_printf("EDITOR=%s", ed);
	item = itest_printf("rate_limits/%s", id);
	rc.method = "GET";
	rc.path_has = item;
	rc.nth = 2;
	rc.before = 1;
	rc.act = act_legacy_describe;
	rc.id = id;
	rc.value = "LEGACY EDITED BY A COLLEAGUE";
	racer_start(&rc, f);
	RUN_VIA_ENV(&rc, env, &r, "edit", "rate-limits", id, "--yes");
	assert_int_equal(r.status, 0);
	assert_true(rc.acted);
	assert_true(has(r.out, "1 field changed"));
	racer_stop(&rc, "PUT");
	run_free(&r);
	rl = legacy_now(f, id);
	assert_int_equal(cJSON_GetObjectItem(rl, "threshold")->valueint, 9);
	assert_string_equal(str_of(rl, "description"),
	    "LEGACY EDITED BY A COLLEAGUE");
	cJSON_Delete(rl);
	free(item);
	free(env);
	free(ed);
	free(id);
}

/* ---- migrate --disable-legacy ------------------------------------------- */

/*
 * A legacy rule changed after the migration read it and before it is
 * disabled: the PUT (the whole rule) keeps the change.
 */
static void
test_migrate_disable_legacy(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	char		*id = legacy_id(f, 0), *path;
	cJSON		*rl;

	path = itest_printf("/zones/%s/" EP_PATH, f->emu.zone);
	cJSON_Delete(api_ok(&f->emu, "PUT", path, "{\"rules\":[]}"));
	free(path);
	/* Once its translation is added (the POST making the entry point). */
	rc.method = "POST";
	rc.path_has = "/rulesets";
	rc.nth = 1;
	rc.act = act_legacy_describe;
	rc.id = id;
	rc.value = "LEGACY CHANGED DURING THE MIGRATION";
	racer_start(&rc, f);
	RUN_VIA(&rc, &r, "migrate", "rate-limits", id, "--plan", "business",
	    "--apply", "--disable-legacy");
	assert_int_equal(r.status, 0);
	assert_true(rc.acted);
	assert_true(has(r.err, "legacy rule disabled"));
	racer_stop(&rc, "PUT");
	run_free(&r);
	rl = legacy_now(f, id);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(rl, "disabled")));
	assert_string_equal(str_of(rl, "description"),
	    "LEGACY CHANGED DURING THE MIGRATION");
	cJSON_Delete(rl);
	free(id);
}

/* ---- live input outputs: enable and disable ------------------------------ */

static void
act_output_off(struct racer *rc)
{
	char	*path = itest_printf("/accounts/%s/stream/live_inputs/%s/"
	    "outputs/%s", rc->f->emu.account, rc->value, rc->id);

	cJSON_Delete(api_ok(&rc->f->emu, "PUT", path, "{\"enabled\":false}"));
	free(path);
}

/* Disabled by another client meanwhile: nothing to send. */
static void
test_output_disable(void **state)
{
	struct fixture	*f = *state;
	struct racer	 rc = { 0 };
	struct run	 r;
	cJSON		*input, *out;
	char		*path, *input_id, *out_id;

	path = itest_printf("/accounts/%s/stream/live_inputs",
	    f->emu.account);
	input = api_ok(&f->emu, "POST", path, "{\"meta\":{\"name\":\"x\"}}");
	free(path);
	input_id = strdup(str_of(input, "uid"));
	path = itest_printf("/accounts/%s/stream/live_inputs/%s/outputs",
	    f->emu.account, input_id);
	out = api_ok(&f->emu, "POST", path, "{\"url\":\"rtmp://a.example/"
	    "live\",\"streamKey\":\"k\"}");
	free(path);
	out_id = strdup(str_of(out, "uid"));

	rc.method = "GET";
	rc.path_has = "/outputs";
	rc.nth = 1;
	rc.before = 1;
	rc.act = act_output_off;
	rc.id = out_id;
	rc.value = input_id;
	racer_start(&rc, f);
	RUN_VIA(&rc, &r, "disable", "live-outputs", out_id, "--live-input",
	    input_id);
	assert_int_equal(r.status, 0);
	assert_int_equal(racer_stop(&rc, "PUT"), 0);
	assert_true(rc.acted);
	assert_true(has(r.out, "the server already has these values; "
	    "nothing was sent"));
	run_free(&r);
	cJSON_Delete(input);
	cJSON_Delete(out);
	free(input_id);
	free(out_id);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_disable_two, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_update_stale_file,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_edit_merges, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_edit_conflict, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_edit_put_kind, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_migrate_disable_legacy,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_output_disable,
		    cli_setup, cli_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
