/*
 * ui/demo.c against the real edgemu: found by $EDGEMU or beside edgetui,
 * serving demo data with a token that never reaches its arguments, and
 * gone with its directory after demo_stop; a missing or failing edgemu
 * gives a cause that says why.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"
#include "itest.h"
#include "testdir.h"

/* The variables the tests change, put back after each. */
static const char *const saved_names[] = { "EDGEMU", "PATH", "TMPDIR" };
static char *saved[3];

static int
env_save(void **state)
{
	const char	*v;
	size_t		 i;

	(void)state;
	for (i = 0; i < 3; i++) {
		v = getenv(saved_names[i]);
		saved[i] = v != NULL ? strdup(v) : NULL;
	}
	return (0);
}

static int
env_restore(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < 3; i++) {
		if (saved[i] != NULL)
			setenv(saved_names[i], saved[i], 1);
		else
			unsetenv(saved_names[i]);
		free(saved[i]);
		saved[i] = NULL;
	}
	return (0);
}

/* The whole of a small file (/proc's report a size of 0). */
static char *
slurp(const char *path, size_t *lenp)
{
	char	*text = NULL;
	size_t	 len = 0, size = 0;
	ssize_t	 n;
	int	 fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		fail_msg("%s: %s", path, strerror(errno));
	for (;;) {
		if (len + 4096 + 1 > size) {
			size = len + 4096 + 1;
			assert_non_null(text = realloc(text, size));
		}
		if ((n = read(fd, text + len, 4096)) <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return (text);
}

static int
contains(const char *hay, size_t len, const char *needle)
{
	return (memmem(hay, len, needle, strlen(needle)) != NULL);
}

/* GET the demo account's videos with a token (NULL: none). */
static long
get_videos(const struct demo *d, const char *token, struct http_resp *r)
{
	struct edgemu	 e;
	char		*path;

	memset(&e, 0, sizeof e);
	e.url = d->url;
	e.token = d->token;
	path = itest_printf("/accounts/%s/stream", d->account);
	http_request(&e, "GET", path, NULL, NULL, 0, token != NULL ? token :
	    "", r);
	free(path);
	return (r->status);
}

/* A started demo serves, keeps its token out of ps, and stops clean. */
static void
check_demo(struct demo *d)
{
	struct http_resp	 r;
	struct stat		 sb;
	char			*path, *cmdline, *dir;
	size_t			 len;
	pid_t			 pid = d->pid;
	int			 st;

	assert_true(pid > 0);
	assert_non_null(d->url);
	assert_non_null(d->account);
	assert_non_null(d->zone);
	assert_int_equal(strlen(d->token), 64);
	assert_int_equal(strspn(d->token, "0123456789abcdef"), 64);
	assert_int_equal(strncmp(d->url, "http://127.0.0.1:", 17), 0);
	assert_int_equal(stat(d->dir, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);

	assert_int_equal(get_videos(d, d->token, &r), 200);
	assert_non_null(r.json);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r.json,
	    "success")));
	assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    r.json, "result")) > 0);
	http_resp_free(&r);
	/* The token is what lets one in. */
	assert_int_not_equal(get_videos(d, NULL, &r), 200);
	http_resp_free(&r);
	assert_int_not_equal(get_videos(d, "0123456789abcdef", &r), 200);
	http_resp_free(&r);

	path = itest_printf("/proc/%ld/cmdline", (long)pid);
	cmdline = slurp(path, &len);
	assert_true(contains(cmdline, len, "--demo-data"));
	assert_false(contains(cmdline, len, d->token));
	free(cmdline);
	free(path);

	dir = strdup(d->dir);
	demo_stop(d);
	assert_int_equal(d->pid, 0);
	assert_null(d->dir);
	assert_null(d->token);
	/* Reaped, not a zombie: no child of ours has that pid any more
	 * (kill(pid, 0) could find another process given the freed pid). */
	assert_int_equal(waitpid(pid, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(stat(dir, &sb), -1);
	assert_int_equal(errno, ENOENT);
	/* A second stop does nothing. */
	demo_stop(d);
	free(dir);
}

static void
test_edgemu_env(void **state)
{
	struct demo	 d;
	char		*cause = NULL;

	(void)state;
	if (getenv("EDGEMU") == NULL)
		skip();
	if (demo_start(&d, "/nonexistent/edgetui", &cause) != 0)
		fail_msg("demo_start: %s", cause);
	check_demo(&d);
}

static void
test_beside_edgetui(void **state)
{
	const char	*edgetui = getenv("EDGETUI");
	struct demo	 d;
	char		*cause = NULL;

	(void)state;
	if (edgetui == NULL)
		skip();
	/* Neither $EDGEMU nor $PATH: only beside the executable. */
	unsetenv("EDGEMU");
	setenv("PATH", "/nonexistent", 1);
	if (demo_start(&d, edgetui, &cause) != 0)
		fail_msg("demo_start: %s", cause);
	check_demo(&d);
}

static void
test_not_found(void **state)
{
	struct demo	 d;
	char		*cause = NULL;

	(void)state;
	setenv("EDGEMU", "/nonexistent/bin/edgemu", 1);
	assert_int_equal(demo_start(&d, "/nonexistent/edgetui", &cause), -1);
	assert_string_equal(cause,
	    "EDGEMU=/nonexistent/bin/edgemu: No such file or directory");
	assert_int_equal(d.pid, 0);
	assert_null(d.dir);
	free(cause);
	cause = NULL;

	/* Nowhere at all. */
	unsetenv("EDGEMU");
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(demo_start(&d, "/nonexistent/edgetui", &cause), -1);
	assert_non_null(strstr(cause, "edgemu was found neither beside "
	    "edgetui nor on PATH"));
	free(cause);
}

/* An edgemu that dies at once: its exit status and last words. */
static void
test_dies(void **state)
{
	struct demo	 d;
	struct stat	 sb;
	char		*tmp, *script, *cause = NULL;
	FILE		*f;

	(void)state;
	assert_non_null(tmp = testdir_new("demo"));
	script = itest_printf("%s/edgemu", tmp);
	assert_non_null(f = fopen(script, "w"));
	fputs("#!/bin/sh\n"
	    "echo \"token in env: ${EDGEMU_TOKEN:+yes}\"\n"
	    "echo 'edgemu: cannot open the store: disk on fire' >&2\n"
	    "exit 3\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(script, 0700), 0);
	setenv("EDGEMU", script, 1);
	setenv("TMPDIR", tmp, 1);

	assert_int_equal(demo_start(&d, NULL, &cause), -1);
	assert_non_null(strstr(cause, "edgemu exited with status 3 before it "
	    "was ready"));
	assert_non_null(strstr(cause, "\n  token in env: yes\n"));
	assert_non_null(strstr(cause,
	    "\n  edgemu: cannot open the store: disk on fire"));
	assert_int_equal(d.pid, 0);
	assert_null(d.dir);
	free(cause);
	/* Its temporary directory went too: only the script is left. */
	assert_int_equal(unlink(script), 0);
	assert_int_equal(rmdir(tmp), 0);
	assert_int_equal(stat(tmp, &sb), -1);
	free(script);
	free(tmp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_edgemu_env, env_save,
		    env_restore),
		cmocka_unit_test_setup_teardown(test_beside_edgetui, env_save,
		    env_restore),
		cmocka_unit_test_setup_teardown(test_not_found, env_save,
		    env_restore),
		cmocka_unit_test_setup_teardown(test_dies, env_save,
		    env_restore),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
