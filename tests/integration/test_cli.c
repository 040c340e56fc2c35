/*
 * Integration tests for edgetui's one-shot commands against edgemu with
 * the demo data: the binary is run as a user would (fork/exec, its own
 * environment), and what it did is checked on the server.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "clitest.h"
#include "itest.h"
#include "testdir.h"
#include "testmp4.h"
#include "tusc.h"

static const char rule_yaml[] =
	"description: cli test rule\n"
	"match:\n"
	"  request:\n"
	"    url: cli.example.com/*\n"
	"    methods: [GET, POST]\n"
	"threshold: 40\n"
	"period: 60\n"
	"action:\n"
	"  mode: ban\n"
	"  timeout: 600\n";

static int
count_list(struct fixture *f, const char *what, const char *query)
{
	cJSON	*r;
	char	*path;
	int	 n;

	path = itest_printf("/zones/%s/%s?%s", f->emu.zone, what, query);
	r = api_ok(&f->emu, "GET", path, NULL);
	assert_true(cJSON_IsArray(r));
	n = cJSON_GetArraySize(r);
	cJSON_Delete(r);
	free(path);
	return (n);
}

static int
count_rules(struct fixture *f)
{
	return (count_list(f, "rate_limits", "per_page=1000"));
}

/* The id of the demo's first rate limit. */
static char *
first_rule(struct fixture *f)
{
	cJSON	*r;
	char	*path, *id;

	path = itest_printf("/zones/%s/rate_limits", f->emu.zone);
	r = api_ok(&f->emu, "GET", path, NULL);
	id = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(r, 0),
	    "id")->valuestring);
	cJSON_Delete(r);
	free(path);
	return (id);
}

static long
rule_threshold(struct fixture *f, const char *id)
{
	cJSON	*r;
	char	*path;
	long	 n;

	path = itest_printf("/zones/%s/rate_limits/%s", f->emu.zone, id);
	r = api_ok(&f->emu, "GET", path, NULL);
	n = (long)cJSON_GetObjectItem(r, "threshold")->valuedouble;
	cJSON_Delete(r);
	free(path);
	return (n);
}

/* ---- tests -------------------------------------------------------------- */

/*
 * Every line of the kinds table has its aliases and its verbs where the
 * header has ALIASES and VERBS (a blank before each), and is no wider
 * than width (0: any).
 */
static void
kinds_aligned(const char *out, size_t width)
{
	const char	*line, *nl;
	size_t		 aliases, verbs, len;

	nl = strchr(out, '\n');
	assert_non_null(nl);
	aliases = (size_t)(strstr(out, "ALIASES") - out);
	verbs = (size_t)(strstr(out, "VERBS") - out);
	assert_true(aliases < verbs && verbs < (size_t)(nl - out));
	for (line = nl + 1; *line != '\0'; line += len + 1) {
		len = strcspn(line, "\n");
		if (width > 0 && len > width)
			fail_msg("a line of %zu columns: %.*s", len, (int)len,
			    line);
		if (len > aliases && line[aliases] != ' ')
			assert_true(line[aliases - 1] == ' ' &&
			    line[aliases - 2] == ' ');
		if (len > verbs && line[verbs] != ' ' &&
		    (line[verbs - 1] != ' ' || line[verbs - 2] != ' '))
			fail_msg("verbs not in their column: %.*s", (int)len,
			    line);
		/* Nothing starts between the columns. */
		if (len > verbs - 1)
			assert_true(line[verbs - 1] == ' ');
		if (line[len] == '\0')
			break;
	}
}

static void
test_kinds(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;

	RUN(f, &r, "kinds");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 25);
	assert_non_null(strstr(r.out, "rate-limits"));
	assert_non_null(strstr(r.out, "rate-limit-rules"));
	assert_non_null(strstr(r.out, "signing-keys"));
	kinds_aligned(r.out, 0);
	run_free(&r);
	/* At 80 columns the long aliases wrap in their column: no line does. */
	{
		const char *const env[] = { "COLUMNS=80", NULL };
		const char *const args[] = { "kinds", NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	kinds_aligned(r.out, 80);
	assert_non_null(strstr(r.out, "\nlive-outputs "));
	assert_non_null(strstr(r.out, "simulcast"));
	run_free(&r);

	RUN(f, &r, "kinds", "-o", "json");
	assert_int_equal(r.status, 0);
	j = cJSON_Parse(r.out);
	assert_int_equal(cJSON_GetArraySize(j), 24);
	cJSON_Delete(j);
	run_free(&r);
}

static void
test_usage(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;

	RUN(f, &r, "get", "no-such-kind");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--help"));
	run_free(&r);
	RUN(f, &r, "get", "ops", "--filter", "nosuch=1");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "-o", "xml", "get", "ops");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "upload", "no-such-video.mp4");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "no-such-video.mp4"));
	run_free(&r);
	RUN(f, &r, "upload");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "download", "not-an-id");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "download", "0123456789abcdef0123456789abcdef",
	    "--chunk-size", "5242880");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "--version");
	assert_int_equal(r.status, 0);
	run_free(&r);
	{
		const char *const none[] = { NULL };

		run_cli(f, NULL, none, &r);
		assert_int_equal(r.status, 2);
		run_free(&r);
	}
}

/*
 * No core dumps, unless EDGETUI_CORE=1: the token_command, a child of
 * edgetui, inherits the limit and writes it down.
 */
static void
core_limit(struct fixture *f, const char *core_env, char **line)
{
	const char *const	 env[] = { "CLOUDFLARE_API_TOKEN=", core_env,
	    NULL };
	struct run		 r;
	char			*dir, *cfg, *out, *text;

	dir = itest_printf("%s/config/edgetui", f->home);
	text = itest_printf("%s/config", f->home);
	(void)mkdir(text, 0700);
	free(text);
	(void)mkdir(dir, 0700);
	out = itest_printf("%s/limits", f->home);
	cfg = itest_printf("%s/config.yaml", dir);
	text = itest_printf("profiles:\n  t:\n    token_command: \"grep "
	    "'core file' /proc/self/limits > %s; echo %s\"\n", out,
	    f->emu.token);
	spill(cfg, text, 0600);
	{
		const char *const args[] = { "-p", "t", "get", "operations",
		    "--limit", "1", NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	run_free(&r);
	*line = slurp(out);
	assert_non_null(*line);
	unlink(out);
	free(text);
	free(cfg);
	free(out);
	free(dir);
}

static void
test_no_core(void **state)
{
	struct fixture	*f = *state;
	struct rlimit	 rl;
	char		*line, *p, word[32];
	long		 soft, hard;

	/* Allow cores here, as much as the hard limit lets. */
	assert_int_equal(getrlimit(RLIMIT_CORE, &rl), 0);
	if (rl.rlim_max == 0)
		skip();
	rl.rlim_cur = rl.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_CORE, &rl), 0);

	core_limit(f, "EDGETUI_CORE=0", &line);
	p = line + strcspn(line, "0123456789");
	assert_int_equal(sscanf(p, "%ld %ld", &soft, &hard), 2);
	assert_int_equal(soft, 0);
	assert_int_equal(hard, 0);
	free(line);
	/* Asked for: the hard limit stays (a sanitizer may lower the soft). */
	core_limit(f, "EDGETUI_CORE=1", &line);
	p = line + strcspn(line, "0123456789u");
	assert_int_equal(sscanf(p, "%*s %31s", word), 1);
	assert_string_not_equal(word, "0");
	free(line);
}

static void
test_get_operations(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;

	RUN(f, &r, "get", "operations");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 301);
	assert_true(strncmp(r.out, "ID ", 3) == 0);
	run_free(&r);

	RUN(f, &r, "get", "ops", "-o", "json");
	assert_int_equal(r.status, 0);
	j = cJSON_Parse(r.out);
	assert_true(cJSON_IsArray(j));
	assert_int_equal(cJSON_GetArraySize(j), 300);
	cJSON_Delete(j);
	run_free(&r);

	RUN(f, &r, "get", "operations", "--limit", "7");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 8);
	run_free(&r);

	RUN(f, &r, "get", "operations", "--limit", "7", "-o", "json");
	j = cJSON_Parse(r.out);
	assert_int_equal(cJSON_GetArraySize(j), 7);
	cJSON_Delete(j);
	run_free(&r);

	RUN(f, &r, "get", "operations", "-o", "yaml", "--limit", "2");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "- ", 2) == 0);
	run_free(&r);
}

static void
test_get_one_yaml(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id = first_rule(f), *want;

	RUN(f, &r, "get", "rate-limits", id, "-o", "yaml");
	assert_int_equal(r.status, 0);
	want = itest_printf("id: %s\n", id);
	assert_non_null(strstr(r.out, want));
	assert_non_null(strstr(r.out, "threshold: "));
	free(want);
	run_free(&r);

	RUN(f, &r, "get", "rl", "0123456789abcdef0123456789abcdef");
	assert_int_equal(r.status, 1);
	run_free(&r);
	free(id);
}

static void
test_create_get(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *id, *want;
	int		 before = count_rules(f);
	cJSON		*j;

	file = itest_printf("%s/rule.yaml", f->home);
	spill(file, rule_yaml, 0600);
	RUN(f, &r, "create", "rate-limits", "-f", file, "-o", "json");
	assert_int_equal(r.status, 0);
	j = cJSON_Parse(r.out);
	assert_non_null(j);
	id = strdup(cJSON_GetObjectItem(j, "id")->valuestring);
	cJSON_Delete(j);
	run_free(&r);
	assert_int_equal(count_rules(f), before + 1);

	RUN(f, &r, "get", "rl", id);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cli.example.com/*"));
	assert_non_null(strstr(r.out, id));
	run_free(&r);

	/* The journal has the change. */
	want = itest_printf("%s/state/edgetui/journal.jsonl", f->home);
	{
		char *text = slurp(want);

		assert_non_null(strstr(text, id));
		free(text);
	}
	free(want);
	free(id);
	free(file);
}

/*
 * A live input's WebRTC publish URL holds its key: the journal and -v keep
 * the record, never that URL, nor the stream keys and passphrases.
 */
static void
test_live_input_secrets(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;
	char		*file, *journal, *text, *publish, *key, *pass;

	file = itest_printf("%s/live.yaml", f->home);
	spill(file, "meta:\n  name: secret check\n", 0600);
	RUN(f, &r, "-v", "create", "live-inputs", "-f", file, "-o", "json");
	assert_int_equal(r.status, 0);
	j = cJSON_Parse(r.out);
	assert_non_null(j);
	publish = strdup(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "webRTC"),
	    "url")->valuestring);
	key = strdup(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "rtmps"),
	    "streamKey")->valuestring);
	pass = strdup(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "srt"),
	    "passphrase")->valuestring);
	cJSON_Delete(j);
	assert_non_null(strstr(publish, "/webRTC/publish"));

	/* -v shows the answer, redacted. */
	assert_non_null(strstr(r.err, "\"webRTC\":{\"url\":\"[redacted]\"}"));
	assert_null(strstr(r.err, publish));
	assert_null(strstr(r.err, key));
	assert_null(strstr(r.err, pass));
	run_free(&r);

	journal = itest_printf("%s/state/edgetui/journal.jsonl", f->home);
	text = slurp(journal);
	assert_non_null(strstr(text, "secret check"));
	assert_null(strstr(text, publish));
	assert_null(strstr(text, key));
	assert_null(strstr(text, pass));
	free(text);
	free(journal);
	free(publish);
	free(key);
	free(pass);
	free(file);
}

static void
test_create_invalid(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *text;
	int		 before = count_rules(f);

	file = itest_printf("%s/bad.yaml", f->home);
	text = strdup(rule_yaml);
	memcpy(strstr(text, "period: 60"), "period: 5 ", 10);
	spill(file, text, 0600);
	RUN(f, &r, "create", "rate-limits", "-f", file);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "period"));
	run_free(&r);
	assert_int_equal(count_rules(f), before);

	/* From stdin through a file that is not YAML at all. */
	spill(file, "threshold: [oops\n", 0600);
	RUN(f, &r, "create", "rate-limits", "-f", file);
	assert_int_equal(r.status, 2);
	run_free(&r);
	assert_int_equal(count_rules(f), before);
	free(text);
	free(file);
}

static void
test_update_put(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *id = first_rule(f), *text;

	file = itest_printf("%s/update.yaml", f->home);
	text = strdup(rule_yaml);
	memcpy(strstr(text, "threshold: 40"), "threshold: 42", 13);
	spill(file, text, 0600);
	RUN(f, &r, "-v", "update", "rl", id, "-f", file);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "-X PUT"));
	run_free(&r);
	assert_int_equal(rule_threshold(f, id), 42);
	free(text);
	free(file);
	free(id);
}

static void
test_delete(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id = first_rule(f);
	int		 before = count_rules(f);
	cJSON		*list;
	char		*path, *a, *b, *c;

	RUN(f, &r, "delete", "rate-limits", id);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, id));
	run_free(&r);
	assert_int_equal(count_rules(f), before - 1);
	free(id);
	/* -o json: the record as it was, the line on stderr. */
	id = first_rule(f);
	RUN(f, &r, "-o", "json", "delete", "rate-limits", id);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, id));
	assert_non_null(list = cJSON_Parse(r.out));
	assert_int_equal(cJSON_GetArraySize(list), 1);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "id")->valuestring, id);
	assert_non_null(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "threshold"));
	cJSON_Delete(list);
	run_free(&r);
	assert_int_equal(count_rules(f), before - 2);
	free(id);

	/* Several operations: one bulk call. */
	path = itest_printf("/zones/%s/api_gateway/operations?per_page=5",
	    f->emu.zone);
	list = api_ok(&f->emu, "GET", path, NULL);
	free(path);
	a = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "operation_id")->valuestring);
	b = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 1),
	    "operation_id")->valuestring);
	c = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 2),
	    "operation_id")->valuestring);
	cJSON_Delete(list);
	RUN(f, &r, "-v", "delete", "operations", a, b, c);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "operation_ids"));
	/* One DELETE request, not three. */
	{
		const char	*p = r.err;
		int		 n = 0;

		while ((p = strstr(p, "curl -sS -X DELETE")) != NULL) {
			n++;
			p++;
		}
		assert_int_equal(n, 1);
	}
	assert_int_equal(count_lines(r.out), 3);
	run_free(&r);
	RUN(f, &r, "get", "operations", "-o", "json");
	list = cJSON_Parse(r.out);
	assert_int_equal(cJSON_GetArraySize(list), 297);
	cJSON_Delete(list);
	run_free(&r);

	/* A bad id among good ones: nothing is sent. */
	RUN(f, &r, "delete", "operations", "not-a-uuid");
	assert_int_equal(r.status, 2);
	run_free(&r);
	free(a);
	free(b);
	free(c);
}

static void
test_edit(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id = first_rule(f), *script, *editor;
	const char	*env[2];

	script = itest_printf("%s/editor.sh", f->home);
	spill(script, "#!/bin/sh\n"
	    "sed -i 's/^threshold: .*/threshold: 77/' \"$1\"\n", 0700);
	editor = itest_printf("EDITOR=%s", script);
	env[0] = editor;
	env[1] = NULL;
	{
		const char *const args[] = { "edit", "rl", id, "--yes", NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "threshold:"));
	assert_non_null(strstr(r.out, "\xe2\x86\x92 77"));
	run_free(&r);
	assert_int_equal(rule_threshold(f, id), 77);

	/* Again: nothing to change. */
	{
		const char *const args[] = { "edit", "rl", id, "--yes", NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "no change"));
	run_free(&r);

	/* Without --yes and without a terminal: refused, nothing applied. */
	spill(script, "#!/bin/sh\n"
	    "sed -i 's/^threshold: .*/threshold: 78/' \"$1\"\n", 0700);
	{
		const char *const args[] = { "edit", "rl", id, NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 2);
	run_free(&r);
	assert_int_equal(rule_threshold(f, id), 77);
	free(editor);
	free(script);
	free(id);
}

/* Until path exists, or fail after seconds. */
static void
wait_for_file(const char *path, int seconds)
{
	struct timespec	 nap = { 0, 20 * 1000 * 1000 };
	struct stat	 sb;
	time_t		 deadline = time(NULL) + seconds;

	while (stat(path, &sb) != 0) {
		if (time(NULL) > deadline)
			fail_msg("%s did not appear in %d s", path, seconds);
		nanosleep(&nap, NULL);
	}
}

/* Until process pid has ended (gone, or a zombie), or fail. */
static void
wait_process_gone(pid_t pid, int seconds)
{
	struct timespec	 nap = { 0, 20 * 1000 * 1000 };
	time_t		 deadline = time(NULL) + seconds;
	char		*path = itest_printf("/proc/%ld/stat", (long)pid);
	char		*text;

	for (;;) {
		if (access(path, F_OK) != 0)
			break;
		text = slurp(path);
		/* "PID (comm) S ...": Z once it has exited. */
		if (text != NULL && strrchr(text, ')') != NULL &&
		    strncmp(strrchr(text, ')'), ") Z", 3) == 0) {
			free(text);
			break;
		}
		free(text);
		if (time(NULL) > deadline)
			fail_msg("the editor (pid %ld) still runs", (long)pid);
		nanosleep(&nap, NULL);
	}
	free(path);
}

/*
 * The terminal closed (SIGHUP to the process group) or SIGTERM while the
 * editor runs: the temporary YAML is removed and edgetui dies of the
 * signal. Sent to edgetui alone, the signal also ends the editor, which
 * would otherwise be left on the terminal.
 */
static void
test_edit_signalled(void **state)
{
	static const struct {
		int	sig;
		int	group;
	} cases[] = { { SIGHUP, 1 }, { SIGTERM, 1 }, { SIGTERM, 0 },
	    { SIGHUP, 0 } };
	struct fixture	*f = *state;
	char		*id = first_rule(f), *script, *editor, *mark, *pidf;
	char		*body, *outp, *errp, *tmp, *text, *nl, *pidtext;
	const char	*env[2];
	const char	*args[] = { "edit", "rl", id, "--yes", NULL };
	struct stat	 sb;
	size_t		 i;
	pid_t		 pid, epid;
	int		 st;

	script = itest_printf("%s/slow-editor.sh", f->home);
	mark = itest_printf("%s/editing", f->home);
	pidf = itest_printf("%s/editor.pid", f->home);
	body = itest_printf("#!/bin/sh\n"
	    "echo $$ > '%s'\n"
	    "printf '%%s\\n' \"$1\" > '%s.new' && mv '%s.new' '%s'\n"
	    "exec sleep 120\n", pidf, mark, mark, mark);
	spill(script, body, 0700);
	editor = itest_printf("EDITOR=%s", script);
	env[0] = editor;
	env[1] = NULL;
	outp = itest_printf("%s/stdout", f->home);
	errp = itest_printf("%s/stderr", f->home);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unlink(mark);
		pid = cli_spawn(f, env, args, outp, errp);
		wait_for_file(mark, 30);
		text = slurp(mark);
		if ((nl = strchr(text, '\n')) != NULL)
			*nl = '\0';
		tmp = text;
		assert_int_equal(stat(tmp, &sb), 0);
		pidtext = slurp(pidf);
		epid = (pid_t)atol(pidtext);
		free(pidtext);
		/* cli_spawn's child leads a session and group of its own. */
		assert_int_equal(kill(cases[i].group ? -pid : pid,
		    cases[i].sig), 0);
		while (waitpid(pid, &st, 0) == -1)
			assert_int_equal(errno, EINTR);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), cases[i].sig);
		if (stat(tmp, &sb) == 0)
			fail_msg("case %zu: %s was left behind", i, tmp);
		assert_int_equal(errno, ENOENT);
		wait_process_gone(epid, 30);
		free(text);
	}
	free(outp);
	free(errp);
	free(body);
	free(pidf);
	free(mark);
	free(editor);
	free(script);
	free(id);
}

static void
test_edit_reopen(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*id = first_rule(f), *script, *editor, *mark, *body;
	const char	*env[2];
	struct stat	 sb;

	script = itest_printf("%s/editor2.sh", f->home);
	mark = itest_printf("%s/reopened", f->home);
	body = itest_printf("#!/bin/sh\n"
	    "if grep -q '^# edgetui: the change was not applied' \"$1\"; then\n"
	    "  grep '^#' \"$1\" > '%s'\n"
	    "  sed -i 's/^threshold: .*/threshold: 91/' \"$1\"\n"
	    "else\n"
	    "  sed -i 's/^threshold: .*/threshold: [oops/' \"$1\"\n"
	    "fi\n", mark);
	spill(script, body, 0700);
	editor = itest_printf("EDITOR=%s", script);
	env[0] = editor;
	env[1] = NULL;
	{
		const char *const args[] = { "edit", "rl", id, "--yes", NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 0);
	run_free(&r);
	assert_int_equal(stat(mark, &sb), 0);
	{
		char *text = slurp(mark);

		assert_non_null(strstr(text, "YAML"));
		free(text);
	}
	assert_int_equal(rule_threshold(f, id), 91);

	/* A validation error is a comment too; saving it unfixed stops. */
	spill(script, "#!/bin/sh\n"
	    "sed -i 's/^period: .*/period: 5/' \"$1\"\n", 0700);
	{
		const char *const args[] = { "edit", "rl", id, "--yes", NULL };

		run_cli(f, env, args, &r);
	}
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "period"));
	run_free(&r);
	assert_int_equal(rule_threshold(f, id), 91);
	free(body);
	free(mark);
	free(editor);
	free(script);
	free(id);
}

static void
test_readonly(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file;
	int		 before = count_rules(f);

	file = itest_printf("%s/rule-ro.yaml", f->home);
	spill(file, rule_yaml, 0600);
	RUN(f, &r, "--readonly", "create", "rate-limits", "-f", file);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "read-only"));
	run_free(&r);
	assert_int_equal(count_rules(f), before);

	/* Reading is still allowed. */
	RUN(f, &r, "--readonly", "get", "rate-limits");
	assert_int_equal(r.status, 0);
	run_free(&r);
	free(file);
}

static void
test_errors(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	const char	*wrong[] = { "CLOUDFLARE_API_TOKEN=not-the-token", NULL };
	const char	*closed[] = {
		"CLOUDFLARE_BASE_URL=http://127.0.0.1:1/client/v4", NULL };
	const char *const get[] = { "-v", "get", "rate-limits", NULL };

	run_cli(f, wrong, get, &r);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "403"));
	assert_null(strstr(r.err, "not-the-token"));
	run_free(&r);

	run_cli(f, closed, get, &r);
	assert_int_equal(r.status, 3);
	run_free(&r);

	/* -v shows requests, never the token (run_cli checks every run). */
	RUN(f, &r, "-v", "get", "webhook");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "Authorization"));
	run_free(&r);
}

/* ---- upload and download ---------------------------------------------------- */

#define UP_CHUNK	5242880L
#define UP_DEADLINE	30	/* seconds for any bounded wait */

static int
setup_media(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	edgemu_start(&f->emu, NULL, 1, "--processing-seconds", "1", NULL);
	assert_non_null(f->home = testdir_new("cli"));
	*state = f;
	return (0);
}

/* A valid MP4 of 3 s with mdat_len bytes of media that never repeat. */
static void
write_mp4(const char *path, size_t mdat_len, uint32_t seed)
{
	testmp4_write(path, 3000, mdat_len, seed);
}

static int
count_videos(struct fixture *f)
{
	cJSON	*r;
	char	*path;
	int	 n;

	path = itest_printf("/accounts/%s/stream", f->emu.account);
	r = api_ok(&f->emu, "GET", path, NULL);
	assert_true(cJSON_IsArray(r));
	n = cJSON_GetArraySize(r);
	cJSON_Delete(r);
	free(path);
	return (n);
}

/* The uid of the first demo video in that state (allocated). */
static char *
video_in_state(struct fixture *f, const char *state)
{
	cJSON	*r, *v, *st;
	char	*path, *uid = NULL;

	path = itest_printf("/accounts/%s/stream", f->emu.account);
	r = api_ok(&f->emu, "GET", path, NULL);
	cJSON_ArrayForEach(v, r) {
		st = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "status"),
		    "state");
		if (cJSON_IsString(st) && strcmp(st->valuestring, state) == 0) {
			uid = strdup(cJSON_GetObjectItem(v, "uid")->valuestring);
			break;
		}
	}
	assert_non_null(uid);
	cJSON_Delete(r);
	free(path);
	return (uid);
}

static cJSON *
get_video(struct fixture *f, const char *uid)
{
	cJSON	*r;
	char	*path;

	path = itest_printf("/accounts/%s/stream/%s", f->emu.account, uid);
	r = api_ok(&f->emu, "GET", path, NULL);
	free(path);
	return (r);
}

/* Poll (bounded) until the video's state is ready. */
static void
wait_ready(struct fixture *f, const char *uid)
{
	time_t		 deadline = time(NULL) + UP_DEADLINE;
	struct timespec	 ts = { 0, 100 * 1000 * 1000 };
	cJSON		*v, *st;
	int		 ready = 0;

	while (!ready) {
		assert_true(time(NULL) < deadline);
		v = get_video(f, uid);
		st = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "status"),
		    "state");
		ready = cJSON_IsString(st) &&
		    strcmp(st->valuestring, "ready") == 0;
		cJSON_Delete(v);
		if (!ready)
			nanosleep(&ts, NULL);
	}
}

/* The bytes edgemu stored for uid equal the file's. */
static void
assert_stored(struct fixture *f, const char *uid, const char *file)
{
	char	*stored, *a, *b;
	FILE	*fa, *fb;
	size_t	 na, nb;
	int	 same = 1;

	stored = itest_printf("%s/videos/%s/%s", f->emu.dir, f->emu.account,
	    uid);
	fa = fopen(file, "rb");
	fb = fopen(stored, "rb");
	assert_non_null(fa);
	assert_non_null(fb);
	a = malloc(65536);
	b = malloc(65536);
	assert_true(a != NULL && b != NULL);
	do {
		na = fread(a, 1, 65536, fa);
		nb = fread(b, 1, 65536, fb);
		if (na != nb || memcmp(a, b, na) != 0)
			same = 0;
	} while (same && na > 0);
	assert_true(same);
	fclose(fa);
	fclose(fb);
	free(a);
	free(b);
	free(stored);
}

/* A 32-hex uid and a newline, nothing else. */
static void
assert_uid_line(const char *out)
{
	size_t	i;

	assert_int_equal(strlen(out), 33);
	for (i = 0; i < 32; i++)
		assert_non_null(strchr("0123456789abcdef", out[i]));
	assert_int_equal(out[32], '\n');
}

static void
test_upload(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*v, *name;
	char		*file, uid[33];
	int		 before;

	file = itest_printf("%s/clip.mp4", f->home);
	write_mp4(file, 11 * 1024 * 1024, 0x5eed);
	before = count_videos(f);

	/* Invalid chunk sizes are refused before anything is sent. */
	RUN(f, &r, "upload", file, "--chunk-size", "1000");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "chunk"));
	run_free(&r);
	RUN(f, &r, "upload", file, "--chunk-size", "5242881");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "upload", file, "--chunk-size", "lots");
	assert_int_equal(r.status, 2);
	run_free(&r);
	/* So is any upload when read-only. */
	RUN(f, &r, "--readonly", "upload", file);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "read-only"));
	run_free(&r);
	assert_int_equal(count_videos(f), before);

	/* -v: the requests are logged, the token never (run_cli checks). */
	RUN(f, &r, "-v", "upload", file, "--name", "cli clip",
	    "--chunk-size", "5242880");
	assert_int_equal(r.status, 0);
	assert_uid_line(r.out);
	/* No terminal: no progress bar. */
	assert_null(strchr(r.err, '\r'));
	assert_null(strstr(r.err, "resuming"));
	memcpy(uid, r.out, 32);
	uid[32] = '\0';
	run_free(&r);
	assert_int_equal(count_videos(f), before + 1);

	v = get_video(f, uid);
	name = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "meta"), "name");
	assert_true(cJSON_IsString(name));
	assert_string_equal(name->valuestring, "cli clip");
	cJSON_Delete(v);
	assert_stored(f, uid, file);
	wait_ready(f, uid);
	free(file);
}

/* Count the PATCH requests a -v run logged, and whether one began at 0. */
static int
count_patches(const char *err, int *from_zero)
{
	const char	*p = err;
	int		 n = 0;

	*from_zero = strstr(err, "> Upload-Offset: 0\n") != NULL;
	while ((p = strstr(p, "> Upload-Offset: ")) != NULL) {
		n++;
		p++;
	}
	return (n);
}

/* The upload URL the journal in the client's state directory holds. */
static char *
journal_url(struct fixture *f)
{
	cJSON	*j, *e, *url;
	char	*path, *text, *out = NULL;

	path = itest_printf("%s/state/edgetui/uploads.json", f->home);
	text = slurp(path);
	if ((j = cJSON_Parse(text)) != NULL) {
		e = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "uploads"), 0);
		url = cJSON_GetObjectItem(e, "url");
		if (cJSON_IsString(url))
			out = strdup(url->valuestring);
		cJSON_Delete(j);
	}
	free(text);
	free(path);
	return (out);
}

static long long
head_offset(struct fixture *f, const char *url)
{
	const char *const	 hdr[] = { "Tus-Resumable: 1.0.0", NULL };
	struct http_resp	 resp;
	const char		*off;
	long long		 n;

	http_request_with(&f->emu, "HEAD", url, hdr, NULL, 0, NULL, &resp);
	off = http_header(&resp, "upload-offset");
	n = resp.status / 100 == 2 && off != NULL ? atoll(off) : -1;
	http_resp_free(&resp);
	return (n);
}

/*
 * The offset once no PATCH of the upload is under way: a killed client's
 * PATCH ends on the server only when it notices, and until then it holds
 * the upload (the next run would meet 423) and its bytes are unrecorded.
 */
static long long
settled_offset(struct fixture *f, const char *url)
{
	const char *const	 hdr[] = { "Tus-Resumable: 1.0.0", NULL };
	struct http_resp	 resp;
	struct timespec		 ts = { 0, 20 * 1000 * 1000 };
	time_t			 deadline = time(NULL) + UP_DEADLINE;
	const char		*off;
	long long		 n;
	int			 busy;

	for (;;) {
		http_request_with(&f->emu, "HEAD", url, hdr, NULL, 0, NULL,
		    &resp);
		assert_int_equal(resp.status, 200);
		busy = http_header(&resp, "edgemu-patch-in-progress") != NULL;
		off = http_header(&resp, "upload-offset");
		assert_non_null(off);
		n = atoll(off);
		http_resp_free(&resp);
		if (!busy)
			return (n);
		if (time(NULL) >= deadline)
			fail_msg("a PATCH of %s is still under way after %d s",
			    url, UP_DEADLINE);
		nanosleep(&ts, NULL);
	}
}

static void
test_upload_resume(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	struct timespec	 slice = { 0, 1000 * 1000 };
	const size_t	 mdat = 26 * 1024 * 1024;	/* 6 chunks */
	struct stat	 sb;
	char		*file, *outp, *errp, *url = NULL, uid[33];
	const char	*args[8];
	long long	 off = -1, chunks;
	time_t		 deadline;
	pid_t		 pid;
	int		 st, n, from_zero;

	file = itest_printf("%s/long.mp4", f->home);
	write_mp4(file, mdat, 0xbeef);
	assert_int_equal(stat(file, &sb), 0);
	chunks = (sb.st_size + UP_CHUNK - 1) / UP_CHUNK;
	args[0] = "upload";
	args[1] = file;
	args[2] = "--chunk-size";
	args[3] = "5242880";
	args[4] = NULL;

	/*
	 * Run the client a millisecond at a time (SIGCONT, SIGSTOP): while it
	 * is stopped, look for its upload in the journal and ask the server
	 * how far it got; once a whole chunk is stored, kill it.
	 */
	outp = itest_printf("%s/stdout", f->home);
	errp = itest_printf("%s/stderr", f->home);
	pid = cli_spawn(f, NULL, args, outp, errp);
	deadline = time(NULL) + UP_DEADLINE;
	for (;;) {
		assert_true(time(NULL) < deadline);
		nanosleep(&slice, NULL);
		assert_int_equal(kill(pid, SIGSTOP), 0);
		assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
		assert_true(WIFSTOPPED(st));
		if (url == NULL)
			url = journal_url(f);
		if (url != NULL && (off = head_offset(f, url)) >= UP_CHUNK)
			break;
		assert_int_equal(kill(pid, SIGCONT), 0);
	}
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	/* Not finished: the rest is left for the second run. */
	off = settled_offset(f, url);
	assert_true(off >= UP_CHUNK && off < (long long)sb.st_size);

	/* The same command again: resumes, sends only what is missing. */
	{
		const char *const again[] = { "-v", "upload", file,
		    "--chunk-size", "5242880", NULL };

		run_cli(f, NULL, again, &r);
	}
	assert_int_equal(r.status, 0);
	assert_uid_line(r.out);
	assert_non_null(strstr(r.err, "resuming at "));
	n = count_patches(r.err, &from_zero);
	assert_true(n >= 1 && n < chunks);
	assert_false(from_zero);
	memcpy(uid, r.out, 32);
	uid[32] = '\0';
	assert_non_null(strstr(url, uid));
	run_free(&r);
	assert_stored(f, uid, file);
	wait_ready(f, uid);

	/* The journal entry is gone: a third run is a new upload. */
	free(url);
	assert_null(journal_url(f));
	free(outp);
	free(errp);
	free(file);
}

/* edgemu taking at most 2 MB a second of an upload: a run lasts. */
static int
setup_slow_upload(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	edgemu_start(&f->emu, NULL, 1, "--processing-seconds", "1",
	    "--upload-rate", "2000000", NULL);
	assert_non_null(f->home = testdir_new("cli"));
	*state = f;
	return (0);
}

/*
 * Ctrl-C during an upload says where it stopped and how to go on (status
 * 130); the same command then resumes it; once finished, the same file
 * again is said to be there already and sends nothing, unless --again.
 */
static void
test_upload_interrupt_and_again(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	struct timespec	 slice = { 0, 20 * 1000 * 1000 };
	const char	*args[] = { "upload", NULL, "--chunk-size", "5242880",
			    NULL };
	char		*file, *outp, *errp, *url = NULL, *err, uid[33];
	time_t		 deadline;
	pid_t		 pid;
	int		 st, before;

	file = itest_printf("%s/twelve.mp4", f->home);
	write_mp4(file, 12 * 1024 * 1024, 0xcafe);
	args[1] = file;
	before = count_videos(f);
	outp = itest_printf("%s/stdout", f->home);
	errp = itest_printf("%s/stderr", f->home);
	pid = cli_spawn(f, NULL, args, outp, errp);
	/* Once the upload exists (in the journal), Ctrl-C. */
	for (deadline = time(NULL) + UP_DEADLINE; url == NULL;
	    nanosleep(&slice, NULL)) {
		assert_true(time(NULL) < deadline);
		url = journal_url(f);
	}
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	err = slurp(errp);
	assert_non_null(strstr(err, "interrupted at "));
	assert_non_null(strstr(err, " MiB of 12; run the same command again "
	    "to resume"));
	free(err);
	assert_true(settled_offset(f, url) < 12 * 1024 * 1024);

	run_cli(f, NULL, args, &r);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "resuming at "));
	assert_uid_line(r.out);
	memcpy(uid, r.out, 32);
	uid[32] = '\0';
	run_free(&r);
	assert_int_equal(count_videos(f), before + 1);

	/* Again: the video it made, nothing sent. */
	run_cli(f, NULL, args, &r);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "already uploaded as "));
	assert_non_null(strstr(r.err, uid));
	assert_non_null(strstr(r.err, "--again"));
	assert_int_equal(strncmp(r.out, uid, 32), 0);
	run_free(&r);
	assert_int_equal(count_videos(f), before + 1);
	RUN(f, &r, "upload", file, "--again", "--chunk-size", "10485760");
	assert_int_equal(r.status, 0);
	assert_uid_line(r.out);
	assert_true(strncmp(r.out, uid, 32) != 0);
	run_free(&r);
	assert_int_equal(count_videos(f), before + 2);
	free(url);
	free(outp);
	free(errp);
	free(file);
}

/* A journal entry for file whose upload the server never had. */
static void
journal_forgotten(struct fixture *f, const char *file)
{
	struct tusc_entry	 e;
	struct stat		 sb;
	char			*dir, *cause = NULL;

	dir = itest_printf("%s/state", f->home);
	(void)mkdir(dir, 0700);
	free(dir);
	dir = itest_printf("%s/state/edgetui", f->home);
	(void)mkdir(dir, 0700);
	assert_int_equal(stat(file, &sb), 0);
	memset(&e, 0, sizeof e);
	e.key = tusc_journal_key(file, sb.st_size, sb.st_mtime, f->emu.url,
	    f->emu.account);
	e.file = realpath(file, NULL);
	e.size = sb.st_size;
	e.mtime = sb.st_mtime;
	e.base_url = strdup(f->emu.url);
	e.account = strdup(f->emu.account);
	e.url = itest_printf("%s/accounts/%s/stream/%032d", f->emu.url,
	    f->emu.account, 7);
	e.uid = itest_printf("%032d", 7);
	if (tusc_journal_put(dir, &e, &cause) != 0)
		fail_msg("journal: %s", cause);
	tusc_entry_free(&e);
	free(dir);
}

/* A resume the server answers 404: one line, "starting afresh". */
static void
test_upload_forgotten(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *want;

	file = itest_printf("%s/clip.mp4", f->home);
	write_mp4(file, 1024 * 1024, 0x5eed);
	journal_forgotten(f, file);
	RUN(f, &r, "upload", file);
	assert_int_equal(r.status, 0);
	assert_uid_line(r.out);
	want = itest_printf("edgetui: %s: the server no longer has the "
	    "unfinished upload: starting afresh\n", file);
	assert_string_equal(r.err, want);
	free(want);
	run_free(&r);
	assert_null(journal_url(f));
	free(file);
}

static void
test_download(void **state)
{
	struct fixture	*f = *state;
	struct http_req	 req;
	struct http_resp resp;
	struct run	 r;
	char		*ready, *pending, *url, *path;

	ready = video_in_state(f, "ready");
	pending = video_in_state(f, "pendingupload");

	/* Read-only: refused, nothing sent. */
	RUN(f, &r, "--readonly", "download", ready, "--wait");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "read-only"));
	run_free(&r);

	/* Not ready: the server's refusal, exit 1. */
	RUN(f, &r, "download", pending, "--wait");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "ready"));
	assert_non_null(strstr(r.err, pending));
	assert_string_equal(r.out, "");
	run_free(&r);

	/* --wait: polls until ready, prints the URL, which serves the MP4. */
	RUN(f, &r, "download", ready, "--wait");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 1);
	assert_true(strncmp(r.out, "http", 4) == 0);
	url = strndup(r.out, strcspn(r.out, "\n"));
	run_free(&r);
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.url = url;
	req.noauth = 1;
	/* By its uid, only a video without requireSignedURLs downloads. */
	path = itest_printf("/accounts/%s/stream/%s", f->emu.account, ready);
	cJSON_Delete(api_ok(&f->emu, "POST", path,
	    "{\"requireSignedURLs\":false}"));
	free(path);
	assert_int_equal(http_send(&f->emu, &req, &resp), CURLE_OK);
	assert_int_equal(resp.status, 200);
	assert_true(resp.len > 0);
	http_resp_free(&resp);

	/* Without --wait: the downloads object as it is now. */
	RUN(f, &r, "-o", "json", "download", ready);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"status\""));
	assert_non_null(strstr(r.out, url));
	run_free(&r);
	RUN(f, &r, "download", ready);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "STATUS"));
	run_free(&r);

	free(url);
	free(ready);
	free(pending);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kinds, cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_usage, cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_edit_signalled, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_get_operations, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_no_core, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_get_one_yaml, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_create_get, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_live_input_secrets,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_create_invalid, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_update_put, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_delete, cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_edit, cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_edit_reopen, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_readonly, cli_setup,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_errors, cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_upload, setup_media,
		    cli_teardown),
		cmocka_unit_test_setup_teardown(test_upload_forgotten,
		    setup_media, cli_teardown),
		cmocka_unit_test_setup_teardown(test_upload_interrupt_and_again,
		    setup_slow_upload, cli_teardown),
		cmocka_unit_test_setup_teardown(test_upload_resume,
		    setup_media, cli_teardown),
		cmocka_unit_test_setup_teardown(test_download, setup_media,
		    cli_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
