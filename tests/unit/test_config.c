/*
 * Unit tests for the config file: each option type at its edges, problems
 * collected with file and line, profiles, the environment, and tokens from
 * every source with the permission checks that guard them.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <ftw.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "configfile.h"
#include "testdir.h"
#include "xmalloc.h"

#define HEX_A	"0123456789abcdef0123456789abcdef"
#define HEX_B	"fedcba9876543210fedcba9876543210"

static char *env_plain[] = { "HOME=/home/tester", NULL };

/* ---- helpers -------------------------------------------------------------- */

static int
setup_dir(void **state)
{
	return (testdir_setup(state, "config"));
}

#define teardown_dir testdir_teardown

static char *
write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char	*path;
	FILE	*f;

	path = xprintf("%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
	return (path);
}

static struct config *
parse_env(const char *text, char *const *env)
{
	return (config_parse_text("config.yaml", text, strlen(text), 0600,
	    env));
}

static struct config *
parse(const char *text)
{
	return (parse_env(text, env_plain));
}

static void
print_problems(const struct config *cfg)
{
	size_t	i;

	for (i = 0; i < cfg->nproblems; i++)
		print_error("  problem: %s\n", cfg->problems[i].message);
}

static void
expect_clean(const struct config *cfg)
{
	if (cfg->nproblems != 0) {
		print_problems(cfg);
		fail_msg("%zu unexpected problems", cfg->nproblems);
	}
}

/* The problem whose message is exactly message. */
static const struct config_problem *
expect_problem(const struct config *cfg, const char *message)
{
	size_t	i;

	for (i = 0; i < cfg->nproblems; i++) {
		if (strcmp(cfg->problems[i].message, message) == 0)
			return (&cfg->problems[i]);
	}
	print_problems(cfg);
	fail_msg("no problem reads: %s", message);
	return (NULL);
}

/* A file whose only problem is message. */
static void
expect_only(const char *text, const char *message)
{
	struct config	*cfg = parse(text);

	if (cfg->nproblems != 1)
		print_problems(cfg);
	assert_int_equal(cfg->nproblems, 1);
	expect_problem(cfg, message);
	config_free(cfg);
}

static const struct config_profile *
profile(const struct config *cfg, const char *name)
{
	const struct config_profile	*prof;

	prof = config_profile(cfg, name);
	assert_non_null(prof);
	return (prof);
}

/* ---- files and defaults ------------------------------------------------------ */

static void
test_missing_default_file(void **state)
{
	struct config			*cfg;
	const struct config_profile	*prof;
	char				*env[3], *cause = NULL;

	env[0] = xprintf("XDG_CONFIG_HOME=%s/none", (char *)*state);
	env[1] = "HOME=/nonexistent";
	env[2] = NULL;
	cfg = config_load(NULL, env, &cause);
	assert_non_null(cfg);
	assert_null(cause);
	expect_clean(cfg);
	assert_null(cfg->file);
	assert_int_equal(cfg->nprofiles, 1);
	assert_string_equal(cfg->default_profile, "default");
	prof = profile(cfg, NULL);
	assert_string_equal(prof->name, "default");
	assert_string_equal(prof->base_url, CONFIG_DEFAULT_BASE_URL);
	assert_null(prof->account);
	assert_int_equal(prof->budget, 1200);
	assert_int_equal(prof->readonly, 0);
	assert_string_equal(cfg->prefs.theme, "default");
	assert_int_equal(cfg->prefs.output, CONFIG_OUTPUT_TABLE);
	assert_int_equal(cfg->prefs.chunk_size, 52428800);
	assert_int_equal(cfg->prefs.poll_interval, 5);
	assert_int_equal(cfg->prefs.list_refresh, 5);
	assert_int_equal(cfg->prefs.ascii, 0);
	assert_int_equal(cfg->prefs.mouse, 0);
	config_free(cfg);
	free(env[0]);
}

static void
test_missing_explicit_file(void **state)
{
	struct config	*cfg;
	char		*path, *cause = NULL;

	path = xprintf("%s/nope.yaml", (char *)*state);
	cfg = config_load(path, env_plain, &cause);
	assert_null(cfg);
	assert_non_null(cause);
	assert_non_null(strstr(cause, path));
	assert_non_null(strstr(cause, "No such file"));
	free(cause);
	free(path);
}

static void
test_default_path(void **state)
{
	char	*env1[] = { "XDG_CONFIG_HOME=/xdg", "HOME=/h", NULL };
	char	*env2[] = { "XDG_CONFIG_HOME=relative", "HOME=/h", NULL };
	char	*env3[] = { "XDG_CONFIG_HOME=", "HOME=/h", NULL };
	char	*p;

	(void)state;
	p = config_default_path(env1);
	assert_string_equal(p, "/xdg/edgetui/config.yaml");
	free(p);
	/* The XDG spec says to ignore relative paths; empty is unset. */
	p = config_default_path(env2);
	assert_string_equal(p, "/h/.config/edgetui/config.yaml");
	free(p);
	p = config_default_path(env3);
	assert_string_equal(p, "/h/.config/edgetui/config.yaml");
	free(p);
}

static void
test_load_default_file(void **state)
{
	struct config	*cfg;
	char		*dir, *path, *env[3], *cause = NULL;

	dir = xprintf("%s/edgetui", (char *)*state);
	assert_int_equal(mkdir(dir, 0700), 0);
	path = write_file(dir, "config.yaml", "preferences:\n  output: yaml\n",
	    0600);
	env[0] = xprintf("XDG_CONFIG_HOME=%s", (char *)*state);
	env[1] = "HOME=/nonexistent";
	env[2] = NULL;
	cfg = config_load(NULL, env, &cause);
	assert_non_null(cfg);
	expect_clean(cfg);
	assert_string_equal(cfg->file, path);
	assert_int_equal(cfg->prefs.output, CONFIG_OUTPUT_YAML);
	config_free(cfg);
	free(env[0]);
	free(path);
	free(dir);
}

static void
test_full_example(void **state)
{
	struct config			*cfg;
	const struct config_profile	*prod, *dev;

	(void)state;
	cfg = parse(
	    "default_profile: prod        # optional\n"
	    "profiles:\n"
	    "  prod:\n"
	    "    base_url: https://api.cloudflare.com/client/v4\n"
	    "    account: 0123456789ABCDEF0123456789abcdef\n"
	    "    zone: " HEX_B "\n"
	    "    readonly: true\n"
	    "    token_file: ~/.config/edgetui/prod.token\n"
	    "    budget: 1200\n"
	    "  dev:\n"
	    "    base_url: http://127.0.0.1:8787/client/v4/\n"
	    "    token_command: pass show cloudflare/dev\n"
	    "preferences:\n"
	    "  theme: default\n"
	    "  output: json\n"
	    "  ascii: true\n"
	    "  mouse: false\n"
	    "  chunk_size: 52428800\n"
	    "  poll_interval: 2\n");
	expect_clean(cfg);
	assert_int_equal(cfg->nprofiles, 2);
	assert_string_equal(cfg->default_profile, "prod");
	prod = profile(cfg, NULL);
	assert_string_equal(prod->name, "prod");
	assert_int_equal(prod->line, 3);
	assert_string_equal(prod->account, HEX_A);
	assert_string_equal(prod->zone, HEX_B);
	assert_int_equal(prod->readonly, 1);
	assert_string_equal(prod->token_file,
	    "/home/tester/.config/edgetui/prod.token");
	assert_int_equal(prod->token_source, CONFIG_TOKEN_FILE);
	dev = profile(cfg, "dev");
	assert_string_equal(dev->base_url, "http://127.0.0.1:8787/client/v4");
	assert_string_equal(dev->token_command, "pass show cloudflare/dev");
	assert_int_equal(dev->token_source, CONFIG_TOKEN_COMMAND);
	assert_int_equal(dev->budget, 1200);
	assert_null(dev->account);
	assert_int_equal(cfg->prefs.output, CONFIG_OUTPUT_JSON);
	assert_int_equal(cfg->prefs.ascii, 1);
	assert_int_equal(cfg->prefs.poll_interval, 2);
	assert_null(config_profile(cfg, "nope"));
	config_free(cfg);
}

static void
test_null_keeps_default(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("profiles:\n  p:\n    budget: ~\n    zone:\n"
	    "preferences:\n  theme: null\n");
	expect_clean(cfg);
	assert_int_equal(profile(cfg, "p")->budget, 1200);
	assert_null(profile(cfg, "p")->zone);
	assert_string_equal(cfg->prefs.theme, "default");
	config_free(cfg);
}

/* ---- option types at their edges --------------------------------------------- */

static void
test_bool(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("profiles:\n  a: {readonly: true}\n  b: {readonly: True}\n"
	    "  c: {readonly: FALSE}\npreferences:\n  mouse: true\n");
	expect_clean(cfg);
	assert_int_equal(profile(cfg, "a")->readonly, 1);
	assert_int_equal(profile(cfg, "b")->readonly, 1);
	assert_int_equal(profile(cfg, "c")->readonly, 0);
	assert_int_equal(cfg->prefs.mouse, 1);
	config_free(cfg);

	expect_only("profiles:\n  p:\n    readonly: yes\n",
	    "config.yaml:3: profiles.p.readonly: expected true or false,"
	    " not \"yes\"");
	expect_only("preferences:\n  ascii: \"true\"\n",
	    "config.yaml:2: preferences.ascii: expected true or false without"
	    " quotes, not \"true\"");
	expect_only("preferences:\n  ascii: 1\n",
	    "config.yaml:2: preferences.ascii: expected true or false,"
	    " not \"1\"");
}

static void
test_int(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("profiles:\n  lo: {budget: 1}\n  hi: {budget: 100000}\n"
	    "  plus: {budget: +7}\n");
	expect_clean(cfg);
	assert_int_equal(profile(cfg, "lo")->budget, 1);
	assert_int_equal(profile(cfg, "hi")->budget, 100000);
	assert_int_equal(profile(cfg, "plus")->budget, 7);
	config_free(cfg);

	expect_only("profiles:\n  prod:\n    budget: 0\n",
	    "config.yaml:3: profiles.prod.budget: 0 is out of range"
	    " (1 to 100000)");
	expect_only("profiles:\n  prod:\n    budget: 100001\n",
	    "config.yaml:3: profiles.prod.budget: 100001 is out of range"
	    " (1 to 100000)");
	expect_only("profiles:\n  prod:\n    budget: -1\n",
	    "config.yaml:3: profiles.prod.budget: -1 is out of range"
	    " (1 to 100000)");
	expect_only("profiles:\n  prod:\n    budget: 99999999999999999999\n",
	    "config.yaml:3: profiles.prod.budget: 99999999999999999999 is out"
	    " of range (1 to 100000)");
	expect_only("profiles:\n  prod:\n    budget: 12x\n",
	    "config.yaml:3: profiles.prod.budget: expected a whole number,"
	    " not \"12x\"");
	expect_only("profiles:\n  prod:\n    budget: 1.5\n",
	    "config.yaml:3: profiles.prod.budget: expected a whole number,"
	    " not \"1.5\"");
	expect_only("profiles:\n  prod:\n    budget: '5'\n",
	    "config.yaml:3: profiles.prod.budget: expected a whole number"
	    " without quotes, not \"5\"");
	expect_only("preferences:\n  poll_interval: 3601\n",
	    "config.yaml:2: preferences.poll_interval: 3601 is out of range"
	    " (1 to 3600)");
	expect_only("preferences:\n  list_refresh: 0\n",
	    "config.yaml:2: preferences.list_refresh: 0 is out of range"
	    " (1 to 3600)");
}

static void
test_chunk_size(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("preferences:\n  chunk_size: 5242880\n");
	expect_clean(cfg);
	assert_int_equal(cfg->prefs.chunk_size, 5242880);
	config_free(cfg);
	cfg = parse("preferences:\n  chunk_size: 209715200\n");
	expect_clean(cfg);
	assert_int_equal(cfg->prefs.chunk_size, 209715200);
	config_free(cfg);
	cfg = parse("preferences:\n  chunk_size: 5505024\n");
	expect_clean(cfg);
	config_free(cfg);

	expect_only("preferences:\n  chunk_size: 5242879\n",
	    "config.yaml:2: preferences.chunk_size: 5242879 is out of range"
	    " (5 MiB to 200 MiB)");
	expect_only("preferences:\n  chunk_size: 209977344\n",
	    "config.yaml:2: preferences.chunk_size: 209977344 is out of range"
	    " (5 MiB to 200 MiB)");
	expect_only("preferences:\n  chunk_size: 5300000\n",
	    "config.yaml:2: preferences.chunk_size: 5300000 is not a multiple"
	    " of 256 KiB");
}

static void
test_enum(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("preferences:\n  output: yaml\n");
	expect_clean(cfg);
	assert_int_equal(cfg->prefs.output, CONFIG_OUTPUT_YAML);
	config_free(cfg);
	expect_only("preferences:\n  output: xml\n",
	    "config.yaml:2: preferences.output: \"xml\" is not one of table,"
	    " json, yaml");
	expect_only("preferences:\n  output: JSON\n",
	    "config.yaml:2: preferences.output: \"JSON\" is not one of table,"
	    " json, yaml");
}

static void
test_confirm_quit(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("preferences:\n  theme: default\n");
	assert_int_equal(cfg->prefs.confirm_quit, CONFIG_CONFIRM_TRANSFERS);
	config_free(cfg);
	cfg = parse("preferences:\n  confirm_quit: never\n");
	expect_clean(cfg);
	assert_int_equal(cfg->prefs.confirm_quit, CONFIG_CONFIRM_NEVER);
	config_free(cfg);
	cfg = parse("preferences:\n  confirm_quit: always\n");
	expect_clean(cfg);
	assert_int_equal(cfg->prefs.confirm_quit, CONFIG_CONFIRM_ALWAYS);
	config_free(cfg);
	expect_only("preferences:\n  confirm_quit: sometimes\n",
	    "config.yaml:2: preferences.confirm_quit: \"sometimes\" is not one"
	    " of always, transfers, never");
}

static void
test_keymap_lines(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("preferences:\n  ascii: true\n"
	    "keymap:\n"
	    "  list:\n"
	    "    x: delete\n"
	    "    d: none\n"
	    "  detail: 3\n");
	expect_clean(cfg);
	assert_int_equal(config_key_line(cfg, "keymap"), 3);
	assert_int_equal(config_key_line(cfg, "keymap.list"), 4);
	assert_int_equal(config_key_line(cfg, "keymap.list.x"), 5);
	assert_int_equal(config_key_line(cfg, "keymap.list.d"), 6);
	assert_int_equal(config_key_line(cfg, "keymap.detail"), 7);
	assert_int_equal(config_key_line(cfg, "keymap.list.y"), 0);
	assert_int_equal(config_key_line(cfg, "preferences.ascii"), 0);
	config_free(cfg);
}

static void
test_hex32(void **state)
{
	struct config	*cfg;

	(void)state;
	/* All digits and unquoted: still an id, not a number. */
	cfg = parse("profiles:\n  p:\n    account: "
	    "12345678901234567890123456789012\n    zone: ABCDEFABCDEFABCDEF"
	    "ABCDEFABCDEFAB\n");
	expect_clean(cfg);
	assert_string_equal(profile(cfg, "p")->account,
	    "12345678901234567890123456789012");
	assert_string_equal(profile(cfg, "p")->zone,
	    "abcdefabcdefabcdefabcdefabcdefab");
	config_free(cfg);

	expect_only("profiles:\n  p:\n    account: 0123456789abcdef0123456789abcde\n",
	    "config.yaml:3: profiles.p.account: \"0123456789abcdef0123456789abcde\""
	    " is not 32 hexadecimal digits");
	expect_only("profiles:\n  p:\n    zone: 0123456789abcdef0123456789abcdefa\n",
	    "config.yaml:3: profiles.p.zone: \"0123456789abcdef0123456789abcdefa\""
	    " is not 32 hexadecimal digits");
	expect_only("profiles:\n  p:\n    zone: g123456789abcdef0123456789abcdef\n",
	    "config.yaml:3: profiles.p.zone: \"g123456789abcdef0123456789abcdef\""
	    " is not 32 hexadecimal digits");
}

static void
test_url(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("profiles:\n  p:\n    base_url: HTTPS://example.com//\n");
	expect_clean(cfg);
	assert_string_equal(profile(cfg, "p")->base_url,
	    "HTTPS://example.com");
	config_free(cfg);
	expect_only("profiles:\n  p:\n    base_url: ftp://example.com\n",
	    "config.yaml:3: profiles.p.base_url: \"ftp://example.com\" is not"
	    " an http:// or https:// URL");
	expect_only("profiles:\n  p:\n    base_url: https://\n",
	    "config.yaml:3: profiles.p.base_url: \"https://\" is not an http://"
	    " or https:// URL");
	expect_only("profiles:\n  p:\n    base_url: http:///v4\n",
	    "config.yaml:3: profiles.p.base_url: \"http:///v4\" has no host");
	expect_only("profiles:\n  p:\n    base_url: https://a.example/v4?x=1\n",
	    "config.yaml:3: profiles.p.base_url: \"https://a.example/v4?x=1\""
	    " has a query or fragment; a base URL takes neither");
	expect_only("profiles:\n  p:\n    base_url: \"https://a b\"\n",
	    "config.yaml:3: profiles.p.base_url: \"https://a b\" holds a space"
	    " or control character");
}

static void
test_names_and_text(void **state)
{
	(void)state;
	expect_only("preferences:\n  theme: ../../etc/passwd\n",
	    "config.yaml:2: preferences.theme: \"../../etc/passwd\" is not a"
	    " name (up to 64 letters, digits, '.', '_' and '-', not starting"
	    " with '.')");
	expect_only("profiles:\n  \"a b\": {}\n",
	    "config.yaml:2: profiles: \"a b\" is not a profile name (up to 64"
	    " letters, digits, '.', '_' and '-', not starting with '.')");
	expect_only("profiles:\n  p:\n    token_command: \"echo \\u0001\"\n",
	    "config.yaml:3: profiles.p.token_command: holds a control"
	    " character");
	expect_only("profiles:\n  p:\n    token_command: \"\"\n",
	    "config.yaml:3: profiles.p.token_command: is empty");
	expect_only("profiles:\n  p:\n    token_command: \"a\\0b\"\n",
	    "config.yaml:3: profiles.p.token_command: holds a NUL byte");
}

static void
test_paths(void **state)
{
	struct config	*cfg;
	struct passwd	*pw;
	char		*want;

	(void)state;
	cfg = config_parse_text("/etc/edgetui/config.yaml",
	    "profiles:\n  a: {token_file: ~/t}\n  b: {token_file: \"~\"}\n"
	    "  c: {token_file: prod.token}\n  d: {token_file: /abs/t}\n",
	    strlen("profiles:\n  a: {token_file: ~/t}\n  b: {token_file: \"~\"}\n"
	    "  c: {token_file: prod.token}\n  d: {token_file: /abs/t}\n"),
	    0600, env_plain);
	expect_clean(cfg);
	assert_string_equal(profile(cfg, "a")->token_file, "/home/tester/t");
	assert_string_equal(profile(cfg, "b")->token_file, "/home/tester");
	assert_string_equal(profile(cfg, "c")->token_file,
	    "/etc/edgetui/prod.token");
	assert_string_equal(profile(cfg, "d")->token_file, "/abs/t");
	config_free(cfg);

	if ((pw = getpwnam("root")) != NULL) {
		cfg = parse("profiles:\n  r: {token_file: ~root/t}\n");
		expect_clean(cfg);
		want = xprintf("%s/t", pw->pw_dir);
		assert_string_equal(profile(cfg, "r")->token_file, want);
		free(want);
		config_free(cfg);
	}
	expect_only("profiles:\n  p: {token_file: ~no-such-user-here/t}\n",
	    "config.yaml:2: profiles.p.token_file: names an unknown user"
	    " (~no-such-user-here)");
}

/* ---- problems ------------------------------------------------------------------ */

static void
test_problems_collected(void **state)
{
	struct config			*cfg;
	const struct config_problem	*pr;

	(void)state;
	cfg = parse(
	    "profiles:\n"
	    "  prod:\n"
	    "    budget: 0\n"
	    "    account: " HEX_A "\n"
	    "    readonly: maybe\n"
	    "preferences:\n"
	    "  output: xml\n"
	    "  theme: dark\n"
	    "  chunk_size: 1\n");
	assert_int_equal(cfg->nproblems, 4);
	pr = expect_problem(cfg, "config.yaml:3: profiles.prod.budget: 0 is out"
	    " of range (1 to 100000)");
	assert_int_equal(pr->line, 3);
	assert_int_equal(pr->column, 13);
	assert_string_equal(pr->file, "config.yaml");
	expect_problem(cfg, "config.yaml:5: profiles.prod.readonly: expected"
	    " true or false, not \"maybe\"");
	expect_problem(cfg, "config.yaml:7: preferences.output: \"xml\" is not"
	    " one of table, json, yaml");
	expect_problem(cfg, "config.yaml:9: preferences.chunk_size: 1 is out"
	    " of range (5 MiB to 200 MiB)");
	/* What was right still applies; what was wrong keeps its default. */
	assert_string_equal(profile(cfg, "prod")->account, HEX_A);
	assert_int_equal(profile(cfg, "prod")->budget, 1200);
	assert_string_equal(cfg->prefs.theme, "dark");
	assert_int_equal(cfg->prefs.output, CONFIG_OUTPUT_TABLE);
	config_free(cfg);
}

static void
test_unknown_keys(void **state)
{
	(void)state;
	expect_only("profiles:\n  prod:\n    bugdet: 5\n",
	    "config.yaml:3: profiles.prod.bugdet: unknown option (did you mean"
	    " budget?)");
	expect_only("preferences:\n  thme: x\n",
	    "config.yaml:2: preferences.thme: unknown option (did you mean"
	    " preferences.theme?)");
	expect_only("preferences:\n  colour: x\n",
	    "config.yaml:2: preferences.colour: unknown option");
	expect_only("theme: x\n",
	    "config.yaml:1: theme: unknown option (did you mean"
	    " preferences.theme?)");
	expect_only("budget: 5\n",
	    "config.yaml:1: budget: unknown option (profile keys go under"
	    " profiles.NAME)");
	expect_only("profile:\n  a: {}\n",
	    "config.yaml:1: profile: unknown option (did you mean profiles?)");
	expect_only("\"a\\tb\": {c: 1}\n",
	    "config.yaml:1: \"a\\x09b\": unknown option");
}

static void
test_structure_problems(void **state)
{
	(void)state;
	expect_only("profiles:\n  p:\n    budget: [1]\n",
	    "config.yaml:3: profiles.p.budget: expected a whole number, not a"
	    " list");
	expect_only("profiles: 5\n",
	    "config.yaml:1: profiles: expected a mapping of profile names to"
	    " their settings, not a scalar");
	expect_only("profiles:\n  p: 5\n",
	    "config.yaml:2: profiles.p: expected a mapping of settings, not a"
	    " scalar");
	expect_only("preferences: [1]\n",
	    "config.yaml:1: preferences: expected a mapping, not a list");
	expect_only("- a\n- b\n",
	    "config.yaml:1: expected a mapping of options at the top, not a"
	    " list");
	expect_only("profiles:\n  p:\n    budget: 5\n    budget: 6\n",
	    "config.yaml:4: profiles.p.budget: a duplicate key (first on line"
	    " 3)");
	expect_only("profiles:\n  p: {}\n  p: {}\n",
	    "config.yaml:3: profiles.p: a duplicate key (first on line 2)");
	expect_only("? [a]\n: 1\n",
	    "config.yaml:1: top level: a key must be text, not a list");
	expect_only("preferences: {ascii: true}\n---\nb: 2\n",
	    "config.yaml:3: a second YAML document; a config file holds one");
}

static void
test_syntax_errors(void **state)
{
	struct config			*cfg;
	const struct config_problem	*pr;

	(void)state;
	cfg = parse("profiles:\n  p:\n    budget: [1, 2\n  q: {}\n");
	assert_int_equal(cfg->nproblems, 1);
	pr = &cfg->problems[0];
	assert_int_equal(pr->line, 4);
	assert_true(strncmp(pr->message, "config.yaml:4:", 14) == 0);
	assert_non_null(strstr(pr->message, "YAML syntax error"));
	/* Nothing of a file that does not parse applies. */
	assert_int_equal(cfg->nprofiles, 1);
	assert_string_equal(cfg->default_profile, "default");
	config_free(cfg);

	expect_only("a: b\n  c: d: e\n",
	    "config.yaml:2:4: YAML syntax error: mapping values are not allowed"
	    " in this context");
	cfg = config_parse_text("config.yaml", "a: 1\nb: \xff\n", 10, 0600,
	    env_plain);
	assert_int_equal(cfg->nproblems, 1);
	assert_int_equal(cfg->problems[0].line, 2);
	assert_int_equal(cfg->problems[0].column, 4);
	config_free(cfg);
	cfg = config_parse_text("config.yaml", "a: 1\nb: c\0\n", 11, 0600,
	    env_plain);
	assert_int_equal(cfg->nproblems, 1);
	assert_int_equal(cfg->problems[0].line, 2);
	config_free(cfg);
}

static void
test_too_many_problems(void **state)
{
	struct config	*cfg;
	char		*text, *last;
	size_t		 i, len = 0;

	(void)state;
	text = xmalloc(500 * 16);
	for (i = 0; i < 500; i++)
		len += sprintf(text + len, "k%zu: 1\n", i);
	cfg = parse(text);
	assert_int_equal(cfg->nproblems, CONFIG_MAX_PROBLEMS);
	last = cfg->problems[CONFIG_MAX_PROBLEMS - 1].message;
	assert_non_null(strstr(last, "too many problems"));
	expect_problem(cfg, "config.yaml:1: k0: unknown option");
	config_free(cfg);
	free(text);
}

/* ---- profiles and the environment ----------------------------------------------- */

static void
test_default_profile_choice(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse("default_profile: b\nprofiles:\n  a: {}\n  b: {}\n");
	expect_clean(cfg);
	assert_string_equal(cfg->default_profile, "b");
	assert_string_equal(profile(cfg, NULL)->name, "b");
	config_free(cfg);

	cfg = parse("profiles:\n  x: {}\n  default: {}\n");
	expect_clean(cfg);
	assert_string_equal(cfg->default_profile, "default");
	config_free(cfg);

	cfg = parse("profiles:\n  x: {}\n  y: {}\n");
	expect_clean(cfg);
	assert_string_equal(cfg->default_profile, "x");
	config_free(cfg);

	cfg = parse("default_profile: zz\nprofiles:\n  x: {}\n  y:\n");
	assert_int_equal(cfg->nproblems, 1);
	expect_problem(cfg, "config.yaml:1: default_profile: no profile is"
	    " called \"zz\"");
	assert_string_equal(cfg->default_profile, "x");
	assert_int_equal(cfg->nprofiles, 2);
	config_free(cfg);

	/* Problems found after the walk still come in the file's order. */
	cfg = parse("default_profile: zz\nprofiles:\n  x: {budget: 0}\n");
	assert_int_equal(cfg->nproblems, 2);
	assert_int_equal(cfg->problems[0].line, 1);
	assert_int_equal(cfg->problems[1].line, 3);
	config_free(cfg);

	cfg = parse("preferences: {ascii: true}\n");
	expect_clean(cfg);
	assert_int_equal(cfg->nprofiles, 1);
	assert_string_equal(cfg->default_profile, "default");
	assert_int_equal(profile(cfg, NULL)->line, 0);
	config_free(cfg);
}

static void
test_env_overrides(void **state)
{
	struct config		*cfg;
	struct config_settings	 s;
	char			*cause = NULL;
	char			*env[] = { "HOME=/h",
	    "CLOUDFLARE_ACCOUNT_ID=" HEX_B,
	    "CLOUDFLARE_ZONE_ID=ABCDEFABCDEFABCDEFABCDEFABCDEFAB",
	    "CLOUDFLARE_BASE_URL=http://127.0.0.1:9/client/v4/", NULL };
	char			*bad[] = { "CLOUDFLARE_ACCOUNT_ID=xyz", NULL };
	char			*empty[] = { "CLOUDFLARE_ACCOUNT_ID=",
	    "CLOUDFLARE_API_TOKEN=", NULL };
	char			*tok[] = { "CLOUDFLARE_API_TOKEN=abc", NULL };

	(void)state;
	cfg = parse("profiles:\n  p:\n    account: " HEX_A "\n    budget: 7\n"
	    "    readonly: true\n    token: sekrit\n  q: {}\n");
	expect_clean(cfg);

	assert_int_equal(config_settings(cfg, "p", env_plain, &s, &cause), 0);
	assert_string_equal(s.profile, "p");
	assert_string_equal(s.account, HEX_A);
	assert_null(s.zone);
	assert_string_equal(s.base_url, CONFIG_DEFAULT_BASE_URL);
	assert_int_equal(s.budget, 7);
	assert_int_equal(s.readonly, 1);
	assert_int_equal(s.token_source, CONFIG_TOKEN_INLINE);
	config_settings_free(&s);

	assert_int_equal(config_settings(cfg, NULL, env, &s, &cause), 0);
	assert_string_equal(s.profile, "p");
	assert_string_equal(s.account, HEX_B);
	assert_string_equal(s.zone, "abcdefabcdefabcdefabcdefabcdefab");
	assert_string_equal(s.base_url, "http://127.0.0.1:9/client/v4");
	assert_int_equal(s.budget, 7);
	config_settings_free(&s);

	assert_int_equal(config_settings(cfg, "q", empty, &s, &cause), 0);
	assert_null(s.account);
	assert_int_equal(s.token_source, CONFIG_TOKEN_NONE);
	config_settings_free(&s);

	assert_int_equal(config_settings(cfg, "q", tok, &s, &cause), 0);
	assert_int_equal(s.token_source, CONFIG_TOKEN_ENV);
	config_settings_free(&s);

	assert_int_equal(config_settings(cfg, "p", bad, &s, &cause), -1);
	assert_string_equal(cause, "CLOUDFLARE_ACCOUNT_ID: \"xyz\" is not 32"
	    " hexadecimal digits");
	free(cause);
	cause = NULL;

	assert_int_equal(config_settings(cfg, "nope", env, &s, &cause), -1);
	assert_string_equal(cause, "no profile is called \"nope\" (there is p,"
	    " q)");
	free(cause);
	config_free(cfg);
}

/* ---- tokens ------------------------------------------------------------------------ */

static char *
token_ok(const struct config *cfg, const char *name, char *const *env)
{
	char	*token = NULL, *cause = NULL;

	if (config_token(cfg, name, env, &token, &cause) != 0)
		fail_msg("config_token: %s", cause);
	assert_null(cause);
	assert_non_null(token);
	return (token);
}

static char *
token_err(const struct config *cfg, const char *name, char *const *env)
{
	char	*token = NULL, *cause = NULL;

	assert_int_equal(config_token(cfg, name, env, &token, &cause), -1);
	assert_null(token);
	assert_non_null(cause);
	return (cause);
}

static void
test_token_env_and_inline(void **state)
{
	struct config	*cfg;
	char		*t, *c;
	char		*env[] = { "CLOUDFLARE_API_TOKEN=from-env", NULL };
	char		*badenv[] = { "CLOUDFLARE_API_TOKEN=a b", NULL };

	(void)state;
	cfg = parse("profiles:\n  p: {token: in-file}\n  q: {}\n");
	expect_clean(cfg);
	t = token_ok(cfg, "p", env_plain);
	assert_string_equal(t, "in-file");
	config_secret_free(t);
	t = token_ok(cfg, "p", env);
	assert_string_equal(t, "from-env");
	config_secret_free(t);
	t = token_ok(cfg, "q", env);
	assert_string_equal(t, "from-env");
	config_secret_free(t);
	c = token_err(cfg, "p", badenv);
	assert_null(strstr(c, "a b"));
	free(c);
	c = token_err(cfg, "q", env_plain);
	assert_string_equal(c, "profile q has no API token: set"
	    " CLOUDFLARE_API_TOKEN, or token_file, token_command or token"
	    " under profiles.q in config.yaml");
	free(c);
	c = token_err(cfg, "zz", env_plain);
	assert_non_null(strstr(c, "no profile is called \"zz\""));
	free(c);
	config_free(cfg);

	/* A malformed inline token is refused without being quoted. */
	expect_only("profiles:\n  p: {token: \"abc def\"}\n",
	    "config.yaml:2: profiles.p.token: is not a token: empty, or holds a"
	    " space or a control character");
	expect_only("profiles:\n  p:\n    token: a\n    token_file: /t\n",
	    "config.yaml:4: profiles.p.token_file: only one of token,"
	    " token_file and token_command may be set (token is on line 3)");
}

static void
test_token_config_mode(void **state)
{
	const char	*dir = *state;
	struct config	*cfg;
	char		*path, *want, *c, *t, *cause = NULL;

	path = write_file(dir, "config.yaml",
	    "profiles:\n  p:\n    token: s3cr3t-value\n  q:\n"
	    "    token_file: /t\n", 0644);
	cfg = config_load(path, env_plain, &cause);
	assert_non_null(cfg);
	want = xprintf("%s:3: %s is readable by others (mode 0644) and holds a"
	    " token: run chmod 600 %s", path, path, path);
	assert_int_equal(cfg->nproblems, 1);
	expect_problem(cfg, want);
	free(want);
	assert_null(profile(cfg, "p")->token);
	c = token_err(cfg, "p", env_plain);
	want = xprintf("%s is readable by others (mode 0644) and holds a token:"
	    " run chmod 600 %s", path, path);
	assert_string_equal(c, want);
	assert_null(strstr(c, "s3cr3t"));
	free(want);
	free(c);
	/* Other profiles' settings still apply. */
	assert_string_equal(profile(cfg, "q")->token_file, "/t");
	config_free(cfg);

	assert_int_equal(chmod(path, 0640), 0);
	cfg = config_load(path, env_plain, &cause);
	assert_int_equal(cfg->nproblems, 1);
	assert_non_null(strstr(cfg->problems[0].message,
	    "is readable by group (mode 0640)"));
	config_free(cfg);

	assert_int_equal(chmod(path, 0600), 0);
	cfg = config_load(path, env_plain, &cause);
	expect_clean(cfg);
	t = token_ok(cfg, "p", env_plain);
	assert_string_equal(t, "s3cr3t-value");
	config_secret_free(t);
	config_free(cfg);
	free(path);
}

static void
test_token_file(void **state)
{
	const char	*dir = *state;
	struct config	*cfg;
	char		*tf, *empty, *text, *want, *c, *t, *long_line;

	tf = write_file(dir, "prod.token", "  tok-abc_123 \r\nsecond line\n",
	    0600);
	empty = write_file(dir, "empty.token", "\n", 0600);
	text = xprintf("profiles:\n  p: {token_file: %s}\n"
	    "  rel: {token_file: prod.token}\n  e: {token_file: %s}\n"
	    "  m: {token_file: %s/missing}\n", tf, empty, dir);
	want = xprintf("%s/config.yaml", dir);
	cfg = config_parse_text(want, text, strlen(text), 0644, env_plain);
	expect_clean(cfg);
	free(want);

	t = token_ok(cfg, "p", env_plain);
	assert_string_equal(t, "tok-abc_123");
	config_secret_free(t);
	t = token_ok(cfg, "rel", env_plain);
	assert_string_equal(t, "tok-abc_123");
	config_secret_free(t);

	c = token_err(cfg, "e", env_plain);
	want = xprintf("profiles.e.token_file %s: no token on its first line",
	    empty);
	assert_string_equal(c, want);
	free(want);
	free(c);
	c = token_err(cfg, "m", env_plain);
	assert_non_null(strstr(c, "No such file"));
	free(c);

	/* A first line past what is read is refused, not cut short. */
	long_line = xmalloc(70 * 1024 + 2);
	memset(long_line, 'a', 70 * 1024);
	strcpy(long_line + 70 * 1024, "\n");
	free(write_file(dir, "empty.token", long_line, 0600));
	free(long_line);
	c = token_err(cfg, "e", env_plain);
	assert_non_null(strstr(c, "the first line is longer than 65536"
	    " bytes"));
	free(c);

	assert_int_equal(chmod(tf, 0644), 0);
	c = token_err(cfg, "p", env_plain);
	want = xprintf("%s is readable by others (mode 0644): run chmod 600 %s",
	    tf, tf);
	assert_string_equal(c, want);
	assert_null(strstr(c, "tok-abc"));
	free(want);
	free(c);
	assert_int_equal(chmod(tf, 0620), 0);
	c = token_err(cfg, "p", env_plain);
	assert_non_null(strstr(c, "is writable by group (mode 0620)"));
	free(c);

	config_free(cfg);
	free(text);
	free(tf);
	free(empty);
}

static char *
read_file_text(const char *path)
{
	char	 buf[64];
	size_t	 n;
	FILE	*f;

	assert_non_null(f = fopen(path, "r"));
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (xstrdup(buf));
}

/* Is process pid over (gone, or a zombie nobody has reaped yet)? */
static int
process_over(pid_t pid)
{
	char	*path, state = 0;
	FILE	*f;
	int	 over;

	path = xprintf("/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		over = 1;
	else {
		over = fscanf(f, "%*d (%*[^)]) %c", &state) != 1 ||
		    state == 'Z' || state == 'X';
		fclose(f);
	}
	free(path);
	return (over);
}

/*
 * A token_command that never exits, nor prints a line, is killed at the
 * deadline (shortened here), with what it started; the message says so.
 */
static void
test_token_command_timeout(void **state)
{
	const char	*dir = *state;
	struct config	*cfg;
	char		*hang, *quiet, *text, *c, *pidfile, *pidtext;
	char		*env[] = { "HOME=/h",
	    "EDGETUI_TOKEN_COMMAND_TIMEOUT_MS=200", NULL };
	struct timespec	 tick = { 0, 10 * 1000 * 1000 };
	pid_t		 child;
	int		 i;

	pidfile = xprintf("%s/child.pid", dir);
	text = xprintf("#!/bin/sh\nsleep 60 &\necho $! > %s\nprintf tok\n"
	    "wait\n", pidfile);
	hang = write_file(dir, "hang.sh", text, 0700);
	free(text);
	/* Closes its output, then does not exit. */
	quiet = write_file(dir, "closed.sh", "#!/bin/sh\nexec >&- 2>&-\n"
	    "sleep 60\n", 0700);
	text = xprintf("profiles:\n  hang: {token_command: %s}\n"
	    "  closed: {token_command: %s}\n", hang, quiet);
	cfg = parse_env(text, env);
	expect_clean(cfg);
	c = token_err(cfg, "hang", env);
	assert_string_equal(c, "profiles.hang.token_command did not exit "
	    "within 1 s and was killed (with the processes it started)");
	free(c);
	/*
	 * The child it started went with it. A loaded machine may reach the
	 * deadline before the script has started it or written its pid
	 * (whole, with the newline): then there is no pid to check.
	 */
	pidtext = access(pidfile, F_OK) == 0 ? read_file_text(pidfile) :
	    xstrdup("");
	if (strchr(pidtext, '\n') != NULL) {
		child = (pid_t)atol(pidtext);
		assert_true(child > 0);
		for (i = 0; i < 500 && !process_over(child); i++)
			nanosleep(&tick, NULL);
		assert_true(process_over(child));
	}
	c = token_err(cfg, "closed", env);
	assert_non_null(strstr(c, "did not exit within"));
	free(c);
	config_free(cfg);
	free(pidtext);
	free(pidfile);
	free(text);
	free(hang);
	free(quiet);
}

static void
test_token_command(void **state)
{
	const char	*dir = *state;
	struct config	*cfg;
	char		*ok, *bad, *quiet, *noisy, *text, *c, *t;
	char		*env[] = { "HOME=/h", "SECRET_SUFFIX=zz", NULL };

	ok = write_file(dir, "ok.sh", "#!/bin/sh\necho \"cmd-token-$SECRET_SUFFIX\""
	    "\necho second\n", 0700);
	/* Not a whole line: its exit is waited for, however long it takes. */
	bad = write_file(dir, "bad.sh", "#!/bin/sh\nprintf cmd-token-leak\n"
	    "echo 'vault is locked' >&2\nexit 3\n", 0700);
	quiet = write_file(dir, "quiet.sh", "#!/bin/sh\nexit 0\n", 0700);
	/* Far more output than is read: the reader stops, the token stays. */
	noisy = write_file(dir, "noisy.sh", "#!/bin/sh\necho noisy-token\n"
	    "while :; do echo more; done\n", 0700);
	text = xprintf("profiles:\n  ok: {token_command: %s --flag 'a b'}\n"
	    "  bad: {token_command: %s}\n  quiet: {token_command: %s}\n"
	    "  killed: {token_command: kill -9 $$}\n"
	    "  noisy: {token_command: %s}\n"
	    "  missing: {token_command: %s/nonexistent}\n",
	    ok, bad, quiet, noisy, dir);
	cfg = parse_env(text, env);
	expect_clean(cfg);

	t = token_ok(cfg, "ok", env);
	assert_string_equal(t, "cmd-token-zz");
	config_secret_free(t);
	t = token_ok(cfg, "noisy", env);
	assert_string_equal(t, "noisy-token");
	config_secret_free(t);

	c = token_err(cfg, "bad", env);
	assert_string_equal(c, "profiles.bad.token_command exited with status 3:"
	    " vault is locked");
	assert_null(strstr(c, "cmd-token"));
	free(c);
	c = token_err(cfg, "quiet", env);
	assert_string_equal(c, "profiles.quiet.token_command printed nothing");
	free(c);
	c = token_err(cfg, "killed", env);
	assert_non_null(strstr(c, "profiles.killed.token_command was killed by"
	    " signal 9"));
	free(c);
	c = token_err(cfg, "missing", env);
	assert_non_null(strstr(c, "exited with status 127"));
	free(c);
	config_free(cfg);

	/* A command in a file others may write is theirs to choose. */
	cfg = config_parse_text("config.yaml", text, strlen(text), 0664, env);
	assert_int_equal(cfg->nproblems, 1);
	expect_problem(cfg, "config.yaml:2: config.yaml is writable by group"
	    " (mode 0664) and names a token_command: run chmod go-w"
	    " config.yaml");
	c = token_err(cfg, "ok", env);
	assert_non_null(strstr(c, "chmod go-w"));
	free(c);
	config_free(cfg);

	free(text);
	free(ok);
	free(bad);
	free(quiet);
	free(noisy);
}

/* Wait until process pid is over; 1 when it is. */
static int
wait_over(pid_t pid)
{
	struct timespec	tick = { 0, 10 * 1000 * 1000 };
	int		i;

	for (i = 0; i < 1000 && !process_over(pid); i++)
		nanosleep(&tick, NULL);
	return (process_over(pid));
}

/*
 * A token_command whose line has come is not waited for to close its
 * output (a background process it started keeps it open) nor to exit
 * (it went on as another program): the line is the token. What it left
 * in the background runs on; what goes on in its place is ended.
 */
static void
test_token_command_line_first(void **state)
{
	const char	*dir = *state;
	struct config	*cfg;
	char		*bg, *ex, *text, *t, *bgpid, *expid, *pidtext;
	char		*env[] = { "HOME=/h", NULL };
	pid_t		 pid;

	bgpid = xprintf("%s/bg.pid", dir);
	expid = xprintf("%s/exec.pid", dir);
	text = xprintf("#!/bin/sh\nsleep 60 &\necho $! > %s\n"
	    "echo bg-token\n", bgpid);
	bg = write_file(dir, "bg.sh", text, 0700);
	free(text);
	text = xprintf("#!/bin/sh\necho $$ > %s\necho exec-token\n"
	    "exec sleep 60\n", expid);
	ex = write_file(dir, "exec.sh", text, 0700);
	free(text);
	text = xprintf("profiles:\n  bg: {token_command: %s}\n"
	    "  exec: {token_command: %s}\n", bg, ex);
	cfg = parse_env(text, env);
	expect_clean(cfg);

	t = token_ok(cfg, "bg", env);
	assert_string_equal(t, "bg-token");
	config_secret_free(t);
	pidtext = read_file_text(bgpid);
	assert_true((pid = (pid_t)atol(pidtext)) > 0);
	assert_false(process_over(pid));
	assert_int_equal(kill(pid, SIGKILL), 0);
	free(pidtext);

	t = token_ok(cfg, "exec", env);
	assert_string_equal(t, "exec-token");
	config_secret_free(t);
	pidtext = read_file_text(expid);
	assert_true((pid = (pid_t)atol(pidtext)) > 0);
	assert_true(wait_over(pid));
	free(pidtext);

	config_free(cfg);
	free(text);
	free(bg);
	free(ex);
	free(bgpid);
	free(expid);
}

/* ---- state directory and help ---------------------------------------------------- */

static void
test_state_dir(void **state)
{
	const char	*dir = *state;
	struct stat	 sb;
	char		*env[3], *got, *want, *cause = NULL;

	env[0] = xprintf("XDG_STATE_HOME=%s/a/b", dir);
	env[1] = "HOME=/nonexistent";
	env[2] = NULL;
	got = config_state_dir(env, &cause);
	assert_non_null(got);
	want = xprintf("%s/a/b/edgetui", dir);
	assert_string_equal(got, want);
	assert_int_equal(stat(got, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_int_equal(sb.st_mode & 0777, 0700);
	free(got);
	/* Again: it exists now, which is fine. */
	got = config_state_dir(env, &cause);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(env[0]);

	env[0] = xprintf("HOME=%s/home", dir);
	env[1] = NULL;
	got = config_state_dir(env, &cause);
	want = xprintf("%s/home/.local/state/edgetui", dir);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(env[0]);

	/* A file where a directory should be. */
	free(write_file(dir, "file", "", 0600));
	env[0] = xprintf("XDG_STATE_HOME=%s/file", dir);
	got = config_state_dir(env, &cause);
	assert_null(got);
	assert_non_null(strstr(cause, "cannot create"));
	free(cause);
	free(env[0]);
}

static void
test_help(void **state)
{
	char	*help;

	(void)state;
	help = config_help();
	assert_non_null(strstr(help, "preferences.chunk_size (a whole number, 5"
	    " MiB to 200 MiB, a multiple of 256 KiB; default 52428800)"));
	assert_non_null(strstr(help, "preferences.output (one of its choices:"
	    " table, json, yaml; default table)"));
	assert_non_null(strstr(help, "profiles.NAME.budget"));
	assert_non_null(strstr(help, "profiles.NAME.token_command"));
	assert_non_null(strstr(help, "default_profile"));
	free(help);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_missing_default_file,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_missing_explicit_file,
		    setup_dir, teardown_dir),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test_setup_teardown(test_load_default_file,
		    setup_dir, teardown_dir),
		cmocka_unit_test(test_full_example),
		cmocka_unit_test(test_null_keeps_default),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_chunk_size),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_confirm_quit),
		cmocka_unit_test(test_keymap_lines),
		cmocka_unit_test(test_hex32),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_names_and_text),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_problems_collected),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_structure_problems),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_too_many_problems),
		cmocka_unit_test(test_default_profile_choice),
		cmocka_unit_test(test_env_overrides),
		cmocka_unit_test(test_token_env_and_inline),
		cmocka_unit_test_setup_teardown(test_token_config_mode,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_token_file,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_token_command_line_first,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_token_command,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_token_command_timeout,
		    setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_state_dir,
		    setup_dir, teardown_dir),
		cmocka_unit_test(test_help),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
