/*
 * Unit tests for the session resolver: which of --demo, the command line,
 * the environment and the profile wins for each value, read-only and its
 * reason, the token and the path templates' variables.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "api.h"
#include "configfile.h"
#include "edge_session.h"
#include "http.h"
#include "testdir.h"
#include "xmalloc.h"

#define HEX_A	"0123456789abcdef0123456789abcdef"
#define HEX_B	"fedcba9876543210fedcba9876543210"
#define HEX_C	"cccccccccccccccccccccccccccccccc"
#define HEX_D	"dddddddddddddddddddddddddddddddd"

static char *env_plain[] = { "HOME=/h", NULL };
static char *env_cf[] = { "HOME=/h",
    "CLOUDFLARE_ACCOUNT_ID=" HEX_B,
    "CLOUDFLARE_ZONE_ID=" HEX_D,
    "CLOUDFLARE_BASE_URL=http://127.0.0.1:9/client/v4/",
    "CLOUDFLARE_API_TOKEN=envtoken", NULL };

static const char session_config[] =
    "default_profile: w\n"
    "profiles:\n"
    "  w:\n"
    "    account: " HEX_A "\n"
    "    zone: " HEX_A "\n"
    "    token: wtoken\n"
    "  ro:\n"
    "    account: " HEX_C "\n"
    "    readonly: true\n"
    "    budget: 9\n"
    "    token: rotoken\n";

static struct config *
session_cfg(void)
{
	struct config	*cfg;

	cfg = config_parse_text("config.yaml", session_config,
	    strlen(session_config), 0600, env_plain);
	assert_non_null(cfg);
	assert_int_equal(cfg->nproblems, 0);
	return (cfg);
}

/* The profile's values when nothing else is given. */
static void
test_profile(void **state)
{
	struct config		*cfg = session_cfg();
	struct edge_overrides	 o;
	struct edge_session	 s;
	char			*cause = NULL;

	(void)state;
	memset(&o, 0, sizeof o);
	o.env = env_plain;
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_string_equal(s.profile, "w");
	assert_string_equal(s.base_url, CONFIG_DEFAULT_BASE_URL);
	assert_string_equal(s.scope.account, HEX_A);
	assert_string_equal(s.scope.zone, HEX_A);
	assert_null(s.scope.video);
	assert_string_equal(s.token, "wtoken");
	assert_int_equal(s.readonly, 0);
	edge_session_free(&s);
	assert_null(s.profile);
	config_free(cfg);
}

/* Flags over the environment over the profile, value by value. */
static void
test_precedence(void **state)
{
	struct config		*cfg = session_cfg();
	struct edge_overrides	 o;
	struct edge_session	 s;
	char			*cause = NULL;

	(void)state;
	memset(&o, 0, sizeof o);
	o.env = env_cf;
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_string_equal(s.profile, "w");
	assert_string_equal(s.base_url, "http://127.0.0.1:9/client/v4");
	assert_string_equal(s.scope.account, HEX_B);
	assert_string_equal(s.scope.zone, HEX_D);
	assert_string_equal(s.token, "envtoken");
	edge_session_free(&s);

	o.base_url = "http://127.0.0.1:7/client/v4/";
	o.account = HEX_C;
	o.video = "vid";
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_string_equal(s.base_url, "http://127.0.0.1:7/client/v4/");
	assert_string_equal(s.scope.account, HEX_C);
	assert_string_equal(s.scope.zone, HEX_D);	/* no --zone */
	assert_string_equal(s.scope.video, "vid");
	edge_session_free(&s);

	/* A flag without the environment still wins over the profile. */
	o.env = env_plain;
	o.profile = "ro";
	o.zone = HEX_B;
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_string_equal(s.profile, "ro");
	assert_string_equal(s.scope.account, HEX_C);
	assert_string_equal(s.scope.zone, HEX_B);
	assert_string_equal(s.token, "rotoken");
	edge_session_free(&s);
	config_free(cfg);
}

/* --readonly for every profile; a read-only profile's own reason. */
static void
test_readonly(void **state)
{
	struct config		*cfg = session_cfg();
	struct edge_overrides	 o;
	struct edge_session	 s;
	struct http_options	 ho;
	char			*cause = NULL;

	(void)state;
	memset(&o, 0, sizeof o);
	o.env = env_plain;
	o.profile = "ro";
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_int_equal(s.readonly, 1);
	assert_string_equal(s.readonly_why, "read-only profile");
	edge_session_http_options(&s, &ho);
	assert_int_equal(ho.readonly, 1);
	assert_int_equal(ho.budget_capacity, 9);
	assert_int_equal(ho.max_retries, -1);
	assert_ptr_equal(ho.token, s.token);
	assert_ptr_equal(ho.base_url, s.base_url);
	edge_session_free(&s);

	o.readonly = 1;
	o.profile = "w";
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_int_equal(s.readonly, 1);
	assert_string_equal(s.readonly_why, "--readonly");
	edge_session_free(&s);
	o.profile = "ro";
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_int_equal(s.readonly, 1);
	assert_string_equal(s.readonly_why, "--readonly");
	edge_session_free(&s);
	config_free(cfg);
}

/* --demo's emulator wins over flags and the environment, not --readonly. */
static void
test_demo(void **state)
{
	struct config		*cfg = session_cfg();
	struct edge_overrides	 o;
	struct edge_session	 s;
	char			*cause = NULL;

	(void)state;
	memset(&o, 0, sizeof o);
	o.env = env_cf;
	o.base_url = "http://127.0.0.1:7/client/v4/";
	o.account = HEX_C;
	o.zone = HEX_C;
	o.readonly = 1;
	o.demo_url = "http://127.0.0.1:5/client/v4/";
	o.demo_account = HEX_D;
	o.demo_zone = HEX_A;
	o.demo_token = "demotoken";
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_string_equal(s.profile, "demo");
	assert_string_equal(s.base_url, "http://127.0.0.1:5/client/v4/");
	assert_string_equal(s.scope.account, HEX_D);
	assert_string_equal(s.scope.zone, HEX_A);
	assert_string_equal(s.token, "demotoken");
	assert_int_equal(s.readonly, 1);
	assert_string_equal(s.readonly_why, "--readonly");
	edge_session_free(&s);
	config_free(cfg);
}

/* The token later (the one-shot commands' order), and the errors. */
static void
test_token_and_errors(void **state)
{
	struct config		*cfg = session_cfg();
	struct edge_overrides	 o;
	struct edge_session	 s;
	struct config_settings	 set;
	char			*cause = NULL, *want = NULL;
	char			*bad[] = { "CLOUDFLARE_ACCOUNT_ID=xyz",
	    NULL };

	(void)state;
	memset(&o, 0, sizeof o);
	o.env = env_plain;
	o.no_token = 1;
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), 0);
	assert_null(s.token);
	assert_int_equal(edge_session_token(cfg, &o, &s, &cause), 0);
	assert_string_equal(s.token, "wtoken");
	edge_session_free(&s);

	/* The same messages as config_settings's. */
	o.profile = "nope";
	assert_int_equal(config_settings(cfg, "nope", env_plain, &set, &want),
	    -1);
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), -1);
	assert_string_equal(cause, want);
	assert_null(s.profile);
	free(cause);
	free(want);
	cause = want = NULL;
	o.profile = NULL;
	o.env = bad;
	assert_int_equal(config_settings(cfg, NULL, bad, &set, &want), -1);
	assert_int_equal(edge_session_resolve(cfg, &o, &s, &cause), -1);
	assert_string_equal(cause, want);
	free(cause);
	free(want);
	config_free(cfg);
}

/* The path templates' variables, a video in place of the scope's. */
static void
test_scope_vars(void **state)
{
	struct edge_scope	 scope = { HEX_A, NULL, "v1" };
	struct api_var		 vars[EDGE_SCOPE_NVARS];
	char			*path, *cause = NULL;

	(void)state;
	edge_scope_vars(&scope, NULL, vars);
	assert_string_equal(vars[0].name, "account");
	assert_string_equal(vars[1].name, "zone");
	assert_null(vars[1].value);
	assert_null(vars[3].name);
	path = api_path("/accounts/{account}/stream/{video}", vars, &cause);
	assert_string_equal(path, "/accounts/" HEX_A "/stream/v1");
	free(path);
	edge_scope_vars(&scope, "v2", vars);
	path = api_path("/accounts/{account}/stream/{video}", vars, &cause);
	assert_string_equal(path, "/accounts/" HEX_A "/stream/v2");
	free(path);
	assert_null(api_path("/zones/{zone}", vars, &cause));
	assert_non_null(cause);
	free(cause);
}

/* The state directory is looked up and made once per session. */
static void
test_state_dir_once(void **state)
{
	struct edge_session	 s;
	struct stat		 sb;
	char			*top, *a, *b, *want_a, *want_b, *got, *again;
	char			*cause = NULL;

	(void)state;
	top = testdir_new("session");
	a = xprintf("%s/a/state", top);
	b = xprintf("%s/b/state", top);
	want_a = xprintf("%s/edgetui", a);
	want_b = xprintf("%s/edgetui", b);
	memset(&s, 0, sizeof s);
	setenv("XDG_STATE_HOME", a, 1);
	got = edge_session_state_dir(&s, &cause);
	assert_non_null(got);
	assert_string_equal(got, want_a);
	assert_int_equal(stat(want_a, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_int_equal(sb.st_mode & 0777, 0700);
	/* Asked again with another environment: the same, nothing new made. */
	setenv("XDG_STATE_HOME", b, 1);
	again = edge_session_state_dir(&s, &cause);
	assert_non_null(again);
	assert_string_equal(again, want_a);
	assert_int_not_equal(stat(b, &sb), 0);
	free(got);
	free(again);
	edge_session_free(&s);
	/* A new session looks again. */
	got = edge_session_state_dir(&s, &cause);
	assert_non_null(got);
	assert_string_equal(got, want_b);
	free(got);
	edge_session_free(&s);
	unsetenv("XDG_STATE_HOME");
	testdir_remove(top);
	free(top);
	free(a);
	free(b);
	free(want_a);
	free(want_b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_readonly),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_token_and_errors),
		cmocka_unit_test(test_scope_vars),
		cmocka_unit_test(test_state_dir_once),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
