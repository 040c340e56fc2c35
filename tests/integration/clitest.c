/* Running edgetui as a user would in the integration tests. */
#include "config.h"

#include <sys/prctl.h>
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

#include "buf.h"
#include "itest.h"
#include "testdir.h"

#include "clitest.h"

const char *
cli_path(void)
{
	const char	*p = getenv("EDGETUI");

	return (p != NULL && *p != '\0' ? p : "../ui/edgetui");
}

char *
slurp(const char *path)
{
	FILE	*f;
	char	*text;
	long	 len;

	if ((f = fopen(path, "rb")) == NULL)
		return (strdup(""));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	text[len] = '\0';
	fclose(f);
	return (text);
}

void
spill(const char *path, const char *text, mode_t mode)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

void
run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static void
env_put(char **env, size_t *n, char *entry)
{
	assert_true(*n < 64);
	env[(*n)++] = entry;
}

/*
 * Run edgetui with args (NULL-terminated) and extra "NAME=value" env
 * entries (NULL-terminated, may override the defaults, "NAME=" unsets).
 */
pid_t
cli_spawn(struct fixture *f, const char *const *extra_env,
    const char *const *args, const char *outp, const char *errp)
{
	char		*env[64], *argv[CLI_ARGS_MAX];
	size_t		 n = 0, i, j, a = 0;
	pid_t		 pid, parent = getpid();
	int		 fd;

	env_put(env, &n, itest_printf("CLOUDFLARE_API_TOKEN=%s",
	    f->emu.token));
	env_put(env, &n, itest_printf("CLOUDFLARE_BASE_URL=%s", f->emu.url));
	env_put(env, &n, itest_printf("CLOUDFLARE_ACCOUNT_ID=%s",
	    f->emu.account));
	env_put(env, &n, itest_printf("CLOUDFLARE_ZONE_ID=%s", f->emu.zone));
	env_put(env, &n, itest_printf("HOME=%s", f->home));
	env_put(env, &n, itest_printf("XDG_CONFIG_HOME=%s/config", f->home));
	env_put(env, &n, itest_printf("XDG_STATE_HOME=%s/state", f->home));
	env_put(env, &n, itest_printf("TMPDIR=%s", f->home));
	env_put(env, &n, strdup("PATH=/usr/local/bin:/usr/bin:/bin"));
	env_put(env, &n, strdup("LC_ALL=C"));
	for (i = 0; extra_env != NULL && extra_env[i] != NULL; i++) {
		size_t	 len = strcspn(extra_env[i], "=") + 1;

		for (j = 0; j < n; j++) {
			if (strncmp(env[j], extra_env[i], len) == 0) {
				free(env[j]);
				env[j] = env[--n];
				break;
			}
		}
		if (extra_env[i][len] != '\0')
			env_put(env, &n, strdup(extra_env[i]));
	}
	env[n] = NULL;
	argv[a++] = (char *)cli_path();
	for (i = 0; args[i] != NULL; i++) {
		assert_true(a < CLI_ARGS_MAX - 1);
		argv[a++] = (char *)args[i];
	}
	argv[a] = NULL;

	fflush(NULL);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		/*
		 * Ends with the test program, even stopped (test_cli's resume
		 * stops it): a failed assertion leaves no client behind.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
		    getppid() != parent)
			_exit(127);
		/* No terminal: edit must not find one to ask on. */
		setsid();
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		dup2(open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
		dup2(open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
		execve(argv[0], argv, env);
		_exit(127);
	}
	for (i = 0; i < n; i++)
		free(env[i]);
	return (pid);
}

void
run_cli(struct fixture *f, const char *const *extra_env,
    const char *const *args, struct run *r)
{
	char	*outp, *errp;
	pid_t	 pid;
	int	 st;

	outp = itest_printf("%s/stdout", f->home);
	errp = itest_printf("%s/stderr", f->home);
	pid = cli_spawn(f, extra_env, args, outp, errp);
	while (waitpid(pid, &st, 0) == -1)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(st));
	r->status = WEXITSTATUS(st);
	r->out = slurp(outp);
	r->err = slurp(errp);
	/* The token never shows, whatever happened. */
	assert_null(strstr(r->out, f->emu.token));
	assert_null(strstr(r->err, f->emu.token));
	free(outp);
	free(errp);
}


int
cli_setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	edgemu_start(&f->emu, NULL, 1, NULL);
	assert_non_null(f->home = testdir_new("cli"));
	*state = f;
	return (0);
}

int
cli_teardown(void **state)
{
	struct fixture	*f = *state;

	edgemu_finish(&f->emu);
	if (testdir_remove(f->home) != 0)
		fprintf(stderr, "could not remove %s\n", f->home);
	free(f->home);
	free(f);
	return (0);
}

size_t
count_lines(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (*s == '\n')
			n++;
	return (n);
}

