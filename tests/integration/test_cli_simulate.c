/*
 * Integration tests for `edgetui rules simulate`: logs whose outcome is
 * worked out by hand in the comments (one client over the limit with and
 * without a mitigation timeout, a counting expression on 401 responses),
 * malformed lines, each timestamp form, gzip, stdin, the combined log
 * format, the zone's own rules from edgemu, and the JSON report's shape.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "clitest.h"
#include "itest.h"
#include "yamljson.h"

/* 2023-11-14T22:13:20Z */
#define T0	1700000000LL

enum ts_form { TS_SECONDS, TS_NANOSECONDS, TS_RFC3339 };

/* Two rules alike but for the timeout: 2 requests per 10 s per client. */
static const char rules_yaml[] =
	"- id: with-timeout\n"
	"  description: login, 60 s timeout\n"
	"  action: block\n"
	"  expression: http.request.uri.path eq \"/login\"\n"
	"  ratelimit:\n"
	"    characteristics: [cf.colo.id, ip.src]\n"
	"    period: 10\n"
	"    requests_per_period: 2\n"
	"    mitigation_timeout: 60\n"
	"- id: throttle\n"
	"  description: login, throttle\n"
	"  action: block\n"
	"  expression: http.request.uri.path eq \"/login\"\n"
	"  ratelimit:\n"
	"    characteristics: [cf.colo.id, ip.src]\n"
	"    period: 10\n"
	"    requests_per_period: 2\n"
	"    mitigation_timeout: 0\n";

/* One Logpush line at T0 + sec. */
static void
logpush_line(FILE *f, enum ts_form form, const char *ip, const char *path,
    int status, int sec)
{
	char	ts[64];

	switch (form) {
	case TS_SECONDS:
		snprintf(ts, sizeof ts, "%lld", T0 + sec);
		break;
	case TS_NANOSECONDS:
		snprintf(ts, sizeof ts, "%lld000000000", T0 + sec);
		break;
	case TS_RFC3339:
		/* 22:13:20 + sec, written at +02:00: 00:13:20 the next day. */
		snprintf(ts, sizeof ts, "\"2023-11-15T00:%02d:%02d+02:00\"",
		    13 + (20 + sec) / 60, (20 + sec) % 60);
		break;
	}
	fprintf(f, "{\"ClientIP\":\"%s\",\"ClientRequestHost\":\"www.example.com\","
	    "\"ClientRequestMethod\":\"POST\",\"ClientRequestURI\":\"%s\","
	    "\"ClientRequestScheme\":\"https\",\"EdgeColoCode\":\"SJC\","
	    "\"EdgeResponseStatus\":%d,\"EdgeStartTimestamp\":%s}\n",
	    ip, path, status, ts);
}

/*
 * Client A logs in at 0 1 2 3 4 30 70 s, B at 0 and 1, and A fetches
 * /other at 5. For the 2-per-10-s rules, A's requests at 2, 3 and 4 each
 * have two counted requests less than 10 s before them: over the limit.
 * At 30 and 70 the two before are 26 and 27 s, then 40 and 66 s old: not
 * over. With the 60 s timeout, 2 starts a mitigation until 62: 2 3 4 30
 * are mitigated (4); throttled, only 2 3 4 (3). B is never over.
 */
static char *
write_login_log(struct fixture *f, const char *name, enum ts_form form)
{
	static const int	 a[] = { 0, 1, 2, 3, 4, 30, 70 };
	char			*path = itest_printf("%s/%s", f->home, name);
	FILE			*fp = fopen(path, "w");
	size_t			 i;

	assert_non_null(fp);
	logpush_line(fp, form, "192.0.2.2", "/login", 200, 0);
	for (i = 0; i < 2; i++)
		logpush_line(fp, form, "192.0.2.1", "/login", 200, a[i]);
	logpush_line(fp, form, "192.0.2.2", "/login", 200, 1);
	for (i = 2; i < 5; i++)
		logpush_line(fp, form, "192.0.2.1", "/login", 200, a[i]);
	logpush_line(fp, form, "192.0.2.1", "/other", 200, 5);
	for (i = 5; i < 7; i++)
		logpush_line(fp, form, "192.0.2.1", "/login?x=1", 200, a[i]);
	assert_int_equal(fclose(fp), 0);
	return (path);
}

static char *
write_text(struct fixture *f, const char *name, const char *text)
{
	char	*path = itest_printf("%s/%s", f->home, name);

	spill(path, text, 0600);
	return (path);
}

/* The report, checked to have exactly the keys of the documented shape. */
static cJSON *
report(const struct run *r)
{
	static const char *const top[] = { "lines", "bad_lines",
	    "requests_mitigated_by_any", "rules", NULL };
	static const char *const rule[] = { "id", "description", "matched",
	    "counted", "unknown", "clients", "clients_mitigated",
	    "requests_mitigated", "first_mitigation", "top_clients", NULL };
	static const char *const client[] = { "client", "requests",
	    "mitigated", NULL };
	cJSON		*j, *v, *c;
	size_t		 i;

	if (r->status != 0)
		fail_msg("exit %d: %s", r->status, r->err);
	assert_non_null(j = cJSON_Parse(r->out));
	for (v = j->child, i = 0; v != NULL; v = v->next, i++)
		assert_string_equal(v->string, top[i]);
	assert_null(top[i]);
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(j, "rules")) {
		for (c = v->child, i = 0; c != NULL; c = c->next, i++)
			assert_string_equal(c->string, rule[i]);
		assert_null(rule[i]);
		cJSON_ArrayForEach(c, cJSON_GetObjectItem(v, "top_clients")) {
			cJSON	*k;

			for (k = c->child, i = 0; k != NULL; k = k->next, i++)
				assert_string_equal(k->string, client[i]);
			assert_null(client[i]);
		}
	}
	return (j);
}

static double
num(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItem(o, key);

	assert_true(cJSON_IsNumber(v));
	return (v->valuedouble);
}

static const char *
str(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItem(o, key);

	assert_true(cJSON_IsString(v));
	return (v->valuestring);
}

static void
check_client(const cJSON *rule, int i, const char *client, int requests,
    int mitigated)
{
	const cJSON	*c = cJSON_GetArrayItem(cJSON_GetObjectItem(rule,
			    "top_clients"), i);

	assert_non_null(c);
	assert_string_equal(str(c, "client"), client);
	assert_int_equal(num(c, "requests"), requests);
	assert_int_equal(num(c, "mitigated"), mitigated);
}

/* The numbers of the login log (see write_login_log). */
static void
check_login_report(const struct run *r, const char *id1, const char *id2)
{
	cJSON		*j = report(r);
	const cJSON	*rules = cJSON_GetObjectItem(j, "rules"), *r1, *r2;

	assert_int_equal(num(j, "lines"), 10);
	assert_int_equal(num(j, "bad_lines"), 0);
	assert_int_equal(num(j, "requests_mitigated_by_any"), 4);
	assert_int_equal(cJSON_GetArraySize(rules), 2);
	r1 = cJSON_GetArrayItem(rules, 0);
	r2 = cJSON_GetArrayItem(rules, 1);
	assert_string_equal(str(r1, "id"), id1);
	assert_string_equal(str(r2, "id"), id2);
	assert_string_equal(str(r1, "description"), "login, 60 s timeout");
	/* Nine logins matched and counted; /other is neither. */
	assert_int_equal(num(r1, "matched"), 9);
	assert_int_equal(num(r1, "counted"), 9);
	assert_int_equal(num(r1, "clients"), 2);
	assert_int_equal(num(r1, "clients_mitigated"), 1);
	assert_int_equal(num(r1, "requests_mitigated"), 4);
	assert_string_equal(str(r1, "first_mitigation"),
	    "2023-11-14T22:13:22Z");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r1,
	    "top_clients")), 2);
	check_client(r1, 0, "192.0.2.1 (SJC)", 7, 4);
	check_client(r1, 1, "192.0.2.2 (SJC)", 2, 0);
	assert_int_equal(num(r2, "matched"), 9);
	assert_int_equal(num(r2, "clients_mitigated"), 1);
	assert_int_equal(num(r2, "requests_mitigated"), 3);
	assert_string_equal(str(r2, "first_mitigation"),
	    "2023-11-14T22:13:22Z");
	check_client(r2, 0, "192.0.2.1 (SJC)", 7, 3);
	check_client(r2, 1, "192.0.2.2 (SJC)", 2, 0);
	cJSON_Delete(j);
}

/* ---- tests -------------------------------------------------------------- */

static void
test_timeout_and_throttle(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*log, *rules;

	log = write_login_log(f, "login.json", TS_SECONDS);
	rules = write_text(f, "rules.yaml", rules_yaml);
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "json");
	check_login_report(&r, "with-timeout", "throttle");
	run_free(&r);

	/* The table says the same. */
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "table");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "10 lines, 0 bad, 10 requests; 4 "
	    "mitigated by at least one rule"));
	assert_non_null(strstr(r.out, "2023-11-14T22:13:22Z"));
	assert_non_null(strstr(r.out, "192.0.2.1 (SJC)"));
	run_free(&r);
	free(log);
	free(rules);
}

static void
test_timestamp_forms(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*log, *rules;

	rules = write_text(f, "rules.yaml", rules_yaml);
	log = write_login_log(f, "ns.json", TS_NANOSECONDS);
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "json");
	check_login_report(&r, "with-timeout", "throttle");
	run_free(&r);
	free(log);

	log = write_login_log(f, "rfc3339.json", TS_RFC3339);
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "json", "--format", "logpush");
	check_login_report(&r, "with-timeout", "throttle");
	run_free(&r);
	free(log);
	free(rules);
}

/*
 * Count only failed logins (401), 2 per 60 s, mitigate for 120 s. A: 401
 * at 0, 200 at 1, 401 at 2 and 3; 3 is the third counted in 60 s: over,
 * mitigated until 123, so A's login at 4 (200, not counted) is mitigated
 * too; A's 401 on /other at 5 neither matches nor counts. B: 401 at 10 and
 * 11, never over. C only fetches /other: no client of the rule. Matched:
 * 5 of A and 2 of B; counted: 3 and 2; mitigated: 2 of A's.
 */
static void
test_counting_401(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;
	const cJSON	*rule;
	char		*log, *rules;
	FILE		*fp;

	rules = write_text(f, "count.json", "{\"name\": \"zone\", \"rules\": [{"
	    "\"id\": \"failed-logins\", \"action\": \"block\","
	    "\"expression\": \"http.request.uri.path eq \\\"/login\\\"\","
	    "\"ratelimit\": {\"characteristics\": [\"ip.src\", "
	    "\"cf.colo.id\"], \"period\": 60, \"requests_per_period\": 2,"
	    "\"mitigation_timeout\": 120, \"counting_expression\": "
	    "\"http.request.uri.path eq \\\"/login\\\" and "
	    "http.response.code eq 401\"}}]}");
	log = itest_printf("%s/401.json", f->home);
	assert_non_null(fp = fopen(log, "w"));
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/login", 401, 0);
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/login", 200, 1);
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/login", 401, 2);
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/login", 401, 3);
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/login", 200, 4);
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/other", 401, 5);
	logpush_line(fp, TS_SECONDS, "192.0.2.3", "/other", 401, 6);
	logpush_line(fp, TS_SECONDS, "192.0.2.2", "/login", 401, 10);
	logpush_line(fp, TS_SECONDS, "192.0.2.2", "/login", 401, 11);
	assert_int_equal(fclose(fp), 0);

	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "json");
	j = report(&r);
	assert_int_equal(num(j, "lines"), 9);
	assert_int_equal(num(j, "requests_mitigated_by_any"), 2);
	rule = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 0);
	assert_string_equal(str(rule, "id"), "failed-logins");
	assert_string_equal(str(rule, "description"), "");
	assert_int_equal(num(rule, "matched"), 7);
	assert_int_equal(num(rule, "counted"), 5);
	assert_int_equal(num(rule, "clients"), 2);
	assert_int_equal(num(rule, "clients_mitigated"), 1);
	assert_int_equal(num(rule, "requests_mitigated"), 2);
	assert_string_equal(str(rule, "first_mitigation"),
	    "2023-11-14T22:13:23Z");
	/* The characteristics' order: the address, then the colo. */
	check_client(rule, 0, "192.0.2.1 (SJC)", 5, 2);
	check_client(rule, 1, "192.0.2.2 (SJC)", 2, 0);
	cJSON_Delete(j);
	run_free(&r);
	free(log);
	free(rules);
}

/*
 * A regex whose matching reaches PCRE2's limits: on a short path the DFA
 * matcher answers (the 30 a's match the second branch); on paths of 5000
 * a's, where it has tried too many places too, the requests are counted
 * unknown, neither matched nor counted, and the report says so.
 */
static void
test_regex_limits(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;
	const cJSON	*r1, *r2;
	char		*log, *rules, path[5100];
	FILE		*fp;
	int		 i;

	rules = write_text(f, "re.yaml", "- id: anchored\n  action: block\n"
	    "  expression: 'http.request.uri.path matches "
	    "\"^/(?:(a|aa)+b|a+)$\"'\n"
	    "  ratelimit: {characteristics: [cf.colo.id, ip.src], period: 60, "
	    "requests_per_period: 100}\n"
	    "- id: loose\n  action: block\n"
	    "  expression: 'http.request.uri.path matches \"(a|aa)+[bc]\"'\n"
	    "  ratelimit: {characteristics: [cf.colo.id, ip.src], period: 60, "
	    "requests_per_period: 100}\n");
	log = itest_printf("%s/re.json", f->home);
	assert_non_null(fp = fopen(log, "w"));
	path[0] = '/';
	memset(path + 1, 'a', 30);
	path[31] = '\0';
	logpush_line(fp, TS_SECONDS, "192.0.2.1", path, 200, 0);
	memset(path + 1, 'a', 5000);
	path[5001] = '\0';
	for (i = 1; i <= 3; i++)
		logpush_line(fp, TS_SECONDS, "192.0.2.1", path, 200, i);
	logpush_line(fp, TS_SECONDS, "192.0.2.1", "/ab", 200, 4);
	assert_int_equal(fclose(fp), 0);

	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "json");
	j = report(&r);
	r1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 0);
	r2 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 1);
	/* The 30 a's, the 5000 a's (anchored: one place) and /ab. */
	assert_int_equal(num(r1, "matched"), 5);
	assert_int_equal(num(r1, "unknown"), 0);
	assert_int_equal(num(r2, "matched"), 1);
	assert_int_equal(num(r2, "counted"), 1);
	assert_int_equal(num(r2, "unknown"), 3);
	cJSON_Delete(j);
	run_free(&r);

	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nrule 2: 3 requests unknown: a regex "
	    "reached its matching limits (neither matched nor counted)\n"));
	assert_null(strstr(r.out, "rule 1: 0 requests unknown"));
	run_free(&r);
	free(log);
	free(rules);
}

/* Bad lines are counted and named, never fatal. */
static void
test_malformed_lines(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;
	const cJSON	*rule;
	char		*log, *rules;

	rules = write_text(f, "rules.yaml", rules_yaml);
	log = write_text(f, "bad.json",
	    "{\"ClientIP\":\"192.0.2.1\",\"ClientRequestURI\":\"/login\","
	    "\"EdgeStartTimestamp\":1700000000}\n"
	    "this is no JSON\n"
	    "\n"
	    "{\"ClientIP\":\"192.0.2.1\",\"ClientRequestURI\":\"/login\"}\n"
	    "{\"ClientIP\":\"192.0.2.1\",\"ClientRequestURI\":\"/lo\n"
	    "{\"ClientIP\":\"192.0.2.1\",\"ClientRequestURI\":\"/login\","
	    "\"EdgeStartTimestamp\":1700000001}\n");
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules, "-o",
	    "json");
	j = report(&r);
	/* Five lines that are not empty: three of them bad. */
	assert_int_equal(num(j, "lines"), 5);
	assert_int_equal(num(j, "bad_lines"), 3);
	rule = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 0);
	assert_int_equal(num(rule, "matched"), 2);
	assert_int_equal(num(rule, "requests_mitigated"), 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(rule,
	    "first_mitigation")));
	/* Without a colo, the client is the address alone. */
	check_client(rule, 0, "192.0.2.1", 2, 0);
	cJSON_Delete(j);
	assert_non_null(strstr(r.err, "line 2: not a JSON object"));
	assert_non_null(strstr(r.err, "line 4: no EdgeStartTimestamp"));
	assert_non_null(strstr(r.err, "line 5: an unterminated string"));
	run_free(&r);

	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "bad line 2: not a JSON object at "
	    "column 1: this is no JSON"));
	run_free(&r);
	free(log);
	free(rules);
}

/* The byte at off (0x8b, the second of a member's magic) changed. */
static void
damage_magic(const char *gz, long off)
{
	FILE	*fp;

	assert_non_null(fp = fopen(gz, "r+b"));
	assert_int_equal(fseek(fp, off, SEEK_SET), 0);
	assert_int_equal(fgetc(fp), 0x8b);
	assert_int_equal(fseek(fp, off, SEEK_SET), 0);
	assert_int_equal(fputc(0x8c, fp), 0x8c);
	assert_int_equal(fclose(fp), 0);
}

static void
test_gzip(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	struct stat	 sb;
	char		*log, *gz, *rules, *text;
	gzFile		 g;

	rules = write_text(f, "rules.yaml", rules_yaml);
	log = write_login_log(f, "login.json", TS_NANOSECONDS);
	text = slurp(log);
	gz = itest_printf("%s/login.log.gz", f->home);
	assert_non_null(g = gzopen(gz, "wb"));
	assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)),
	    (int)strlen(text));
	assert_int_equal(gzclose(g), Z_OK);
	RUN(f, &r, "rules", "simulate", "--log", gz, "--rules", rules, "-o",
	    "json");
	check_login_report(&r, "with-timeout", "throttle");
	run_free(&r);

	/*
	 * A second member whose magic was hit (0x8b became 0x8c): its lines
	 * are not read, which is said, with status 2, as gzip -t says it.
	 */
	assert_int_equal(stat(gz, &sb), 0);
	assert_non_null(g = gzopen(gz, "ab"));
	assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)),
	    (int)strlen(text));
	assert_int_equal(gzclose(g), Z_OK);
	damage_magic(gz, (long)sb.st_size + 1);
	RUN(f, &r, "rules", "simulate", "--log", gz, "--rules", rules, "-o",
	    "json");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "what follows gzip member 1 is not "
	    "gzip (trailing garbage)"));
	run_free(&r);
	free(text);
	free(gz);
	free(log);
	free(rules);
}

/* edgetui with stdin from a file (the rules from a file, no server). */
static void
run_stdin(struct fixture *f, const char *in, const char *const *args,
    struct run *r)
{
	char		*outp, *errp, *argv[CLI_ARGS_MAX];
	size_t		 a = 0, i;
	pid_t		 pid;
	int		 st;

	outp = itest_printf("%s/stdout", f->home);
	errp = itest_printf("%s/stderr", f->home);
	argv[a++] = (char *)cli_path();
	for (i = 0; args[i] != NULL; i++)
		argv[a++] = (char *)args[i];
	argv[a] = NULL;
	fflush(NULL);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		dup2(open(in, O_RDONLY), 0);
		dup2(open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
		dup2(open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
		setenv("HOME", f->home, 1);
		setenv("XDG_CONFIG_HOME", f->home, 1);
		setenv("XDG_STATE_HOME", f->home, 1);
		unsetenv("CLOUDFLARE_API_TOKEN");
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) == -1)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(st));
	r->status = WEXITSTATUS(st);
	r->out = slurp(outp);
	r->err = slurp(errp);
	free(outp);
	free(errp);
}

static void
test_stdin(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*log, *rules;

	rules = write_text(f, "rules.yaml", rules_yaml);
	log = write_login_log(f, "login.json", TS_RFC3339);
	{
		const char *const args[] = { "rules", "simulate", "--log", "-",
		    "--rules", rules, "-o", "json", NULL };

		run_stdin(f, log, args, &r);
	}
	check_login_report(&r, "with-timeout", "throttle");
	run_free(&r);

	/* Both from stdin cannot be. */
	RUN(f, &r, "rules", "simulate", "--log", "-", "--rules", "-");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "cannot both read stdin"));
	run_free(&r);
	free(log);
	free(rules);
}

/*
 * The combined format: host and scheme from the options. The rule counts
 * logins to www.example.com, 1 per 10 s, throttled: of 192.0.2.9's three
 * logins at 14:13:20, :21 and :35 (-08:00), the second is over the limit
 * (the first came 1 s before); the third is 14 s after the second.
 */
static void
test_combined(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*j;
	const cJSON	*rule;
	char		*log, *rules;

	rules = write_text(f, "host.yaml",
	    "- id: host-login\n"
	    "  action: block\n"
	    "  expression: http.host eq \"www.example.com\" and "
	    "http.request.uri.path eq \"/login\" and ssl\n"
	    "  ratelimit: {characteristics: [cf.colo.id, ip.src], period: 10, "
	    "requests_per_period: 1, mitigation_timeout: 0}\n");
	log = write_text(f, "access.log",
	    "192.0.2.9 - - [14/Nov/2023:14:13:20 -0800] \"POST /login "
	    "HTTP/1.1\" 200 12 \"-\" \"curl/8.5.0\"\n"
	    "192.0.2.9 - - [14/Nov/2023:14:13:21 -0800] \"POST /login?a=b "
	    "HTTP/1.1\" 200 12 \"-\" \"curl/8.5.0\"\n"
	    "192.0.2.9 - - [14/Nov/2023:14:13:35 -0800] \"POST /login "
	    "HTTP/1.1\" 200 12 \"-\" \"curl/8.5.0\"\n"
	    "192.0.2.9 - - [14/Nov/2023:14:13:36 -0800] \"-\" 408 0 \"-\" "
	    "\"-\"\n");
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules,
	    "--format", "combined", "--host", "www.example.com", "-o", "json");
	j = report(&r);
	assert_int_equal(num(j, "lines"), 4);
	assert_int_equal(num(j, "bad_lines"), 1);
	rule = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 0);
	assert_int_equal(num(rule, "matched"), 3);
	assert_int_equal(num(rule, "requests_mitigated"), 1);
	assert_string_equal(str(rule, "first_mitigation"),
	    "2023-11-14T22:13:21Z");
	check_client(rule, 0, "192.0.2.9", 3, 1);
	cJSON_Delete(j);
	run_free(&r);

	/* Another host, or plain http: the rule matches nothing. */
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules,
	    "--host", "api.example.com", "-o", "json");
	j = report(&r);
	rule = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 0);
	assert_int_equal(num(rule, "matched"), 0);
	assert_int_equal(num(rule, "clients"), 0);
	cJSON_Delete(j);
	run_free(&r);
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules,
	    "--host", "www.example.com", "--scheme", "http", "-o", "json");
	j = report(&r);
	rule = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rules"), 0);
	assert_int_equal(num(rule, "matched"), 0);
	cJSON_Delete(j);
	run_free(&r);
	free(log);
	free(rules);
}

/* Without --rules: the zone's entry point, in its order, with its ids. */
static void
test_zone_rules(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*res, *body, *rules, *ids;
	char		*path, *text, *log, *why = NULL;

	/* edgemu's default plan, enterprise, allows both. */
	rules = yamljson_parse(rules_yaml, strlen(rules_yaml), &why);
	assert_non_null(rules);
	cJSON_ArrayForEach(ids, rules)
		cJSON_DeleteItemFromObject(ids, "id");
	body = cJSON_CreateObject();
	cJSON_AddItemToObject(body, "rules", rules);
	text = cJSON_PrintUnformatted(body);
	path = itest_printf("/zones/%s/rulesets/phases/http_ratelimit/"
	    "entrypoint", f->emu.zone);
	res = api_ok(&f->emu, "PUT", path, text);
	ids = cJSON_GetObjectItem(res, "rules");
	assert_int_equal(cJSON_GetArraySize(ids), 2);

	log = write_login_log(f, "login.json", TS_SECONDS);
	RUN(f, &r, "rules", "simulate", "--log", log, "-o", "json");
	check_login_report(&r, str(cJSON_GetArrayItem(ids, 0), "id"),
	    str(cJSON_GetArrayItem(ids, 1), "id"));
	run_free(&r);
	cJSON_Delete(res);
	cJSON_Delete(body);
	free(text);
	free(path);
	free(log);
}

static void
test_refused(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*rules, *log;

	log = write_login_log(f, "login.json", TS_SECONDS);
	RUN(f, &r, "rules", "simulate", "--rules", "x");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--log FILE is needed"));
	run_free(&r);

	RUN(f, &r, "rules", "simulate", "--log", "/nonexistent/log");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "/nonexistent/log: No such file"));
	run_free(&r);

	rules = write_text(f, "bad.yaml", "- id: typo\n  action: block\n"
	    "  expression: http.request.uri.pat eq \"/\"\n"
	    "  ratelimit: {characteristics: [cf.colo.id, ip.src], period: 10, "
	    "requests_per_period: 1}\n");
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "rule 1: expression:"));
	assert_non_null(strstr(r.err, "http.request.uri.pat"));
	assert_string_equal(r.out, "");
	run_free(&r);
	free(rules);

	/* A bad counting expression: one block, no blank line. */
	rules = write_text(f, "bad.yaml", "- id: cnt\n  action: block\n"
	    "  description: logins\n  expression: ssl\n"
	    "  ratelimit: {characteristics: [cf.colo.id, ip.src], period: 10, "
	    "requests_per_period: 1, counting_expression: \"nope eq 1\"}\n");
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "rule 1 (logins): "
	    "counting_expression:1:1: "));
	assert_non_null(strstr(r.err, "\nnope eq 1\n^^^^\n"));
	assert_null(strstr(r.err, "\n\n"));
	run_free(&r);
	free(rules);

	rules = write_text(f, "bad.yaml", "- id: nolimit\n  action: block\n"
	    "  expression: ssl\n"
	    "  ratelimit: {characteristics: [ip.src], period: 10}\n");
	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "rule 1: no ratelimit."
	    "requests_per_period"));
	run_free(&r);

	RUN(f, &r, "rules", "simulate", "--log", log, "--rules", rules,
	    "--format", "csv");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'csv' is not logpush or combined"));
	run_free(&r);
	free(rules);
	free(log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_and_throttle),
		cmocka_unit_test(test_timestamp_forms),
		cmocka_unit_test(test_counting_401),
		cmocka_unit_test(test_regex_limits),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_combined),
		cmocka_unit_test(test_zone_rules),
		cmocka_unit_test(test_refused),
	};

	return (cmocka_run_group_tests(tests, cli_setup, cli_teardown));
}
