/*
 * The command table is the one source of the commands edgetui knows: every
 * entry is in --help with its synopsis and summary, and an unknown command
 * (`edgetui help`) is answered with the table's names.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

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

#include "buf.h"
#include "cli/cli.h"

struct table_run {
	int		 status;
	struct buf	 out;
	struct buf	 err;
};

static const char *
table_edgetui(void)
{
	const char	*p = getenv("EDGETUI");

	return (p != NULL && *p != '\0' ? p : "../ui/edgetui");
}

static void
table_slurp(FILE *fp, struct buf *b)
{
	char	chunk[4096];
	size_t	n;

	rewind(fp);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(b, chunk, n);
	buf_adds(b, "");
	fclose(fp);
}

/* Run edgetui with args (NULL-terminated), no server, no config. */
static void
table_run(struct table_run *r, ...)
{
	const char	*argv[8];
	FILE		*out, *err;
	va_list		 ap;
	pid_t		 pid;
	int		 n = 0, st;

	memset(r, 0, sizeof *r);
	argv[n++] = table_edgetui();
	va_start(ap, r);
	while ((argv[n] = va_arg(ap, const char *)) != NULL && n < 7)
		n++;
	va_end(ap);
	argv[n] = NULL;
	assert_non_null(out = tmpfile());
	assert_non_null(err = tmpfile());
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	r->status = WEXITSTATUS(st);
	table_slurp(out, &r->out);
	table_slurp(err, &r->err);
}

static void
table_run_free(struct table_run *r)
{
	buf_free(&r->out);
	buf_free(&r->err);
}

/* Whether text holds the words of want in order, however wrapped. */
static int
table_has_words(const char *text, const char *want)
{
	char		*copy = strdup(want), *w, *save = NULL;
	const char	*at = text;

	for (w = strtok_r(copy, " \n", &save); w != NULL && at != NULL;
	    w = strtok_r(NULL, " \n", &save))
		if ((at = strstr(at, w)) != NULL)
			at += strlen(w);
	free(copy);
	return (at != NULL);
}

static void
test_help_lists_every_command(void **state)
{
	const struct cli_command	*cmd;
	struct table_run		 r, u;
	struct buf			 more = BUF_INITIALIZER, line;
	const char			*cmds, *opts;
	size_t				 i;

	(void)state;
	assert_true(cli_ncommands >= 8);
	table_run(&r, "--help", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(cmds = strstr(buf_str(&r.out), "\nCommands:\n"));
	assert_non_null(opts = strstr(cmds, "\nOptions:\n"));
	for (i = 0; i < cli_ncommands; i++) {
		cmd = &cli_commands[i];
		buf_init(&line);
		buf_addf(&line, "\n  %s", cmd->name);
		if (cmd->hidden) {
			assert_null(strstr(cmds, buf_str(&line)));
			buf_free(&line);
			continue;
		}
		assert_non_null(strstr(cmds, buf_str(&line)));
		assert_true(strstr(cmds, buf_str(&line)) < opts);
		buf_free(&line);
		assert_true(table_has_words(cmds, cmd->synopsis));
		assert_true(table_has_words(cmds, cmd->summary));
		if (cmd->more_help != NULL) {
			buf_reset(&more);
			cmd->more_help(&more);
			assert_true(table_has_words(cmds, buf_str(&more)));
		}
		/* Each command's usage error shows its synopsis. */
		if (cmd->max_args >= 0) {
			table_run(&u, cmd->name, "a", "b", "c", NULL);
			assert_int_equal(u.status, 2);
			assert_true(table_has_words(buf_str(&u.err),
			    cmd->synopsis));
			table_run_free(&u);
		}
	}
	/* The create summary names the multipart kinds' form options. */
	assert_true(table_has_words(cmds, "watermarks: --name --opacity "
	    "--padding --scale --position"));
	assert_true(table_has_words(cmds, "user-schemas: --name --validation"));
	buf_free(&more);
	table_run_free(&r);
}

/* expr eval takes --counting: its line in --help says so. */
static void
test_help_eval_counting(void **state)
{
	struct table_run	 r;
	const char		*eval, *end;

	(void)state;
	table_run(&r, "--help", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(eval = strstr(buf_str(&r.out), "\n  expr eval"));
	/* The next command's line starts with two blanks and a letter. */
	for (end = strchr(eval + 1, '\n'); end != NULL &&
	    !(end[1] == ' ' && end[2] == ' ' && end[3] != ' ');
	    end = strchr(end + 1, '\n'))
		;
	assert_non_null(end);
	eval = strstr(eval, "[--counting]");
	assert_non_null(eval);
	assert_true(eval < end);
	buf_free(&r.out);
	buf_free(&r.err);
}

/*
 * Completion offers a command the options of its CLI_OPT_* bits: each bit
 * a command takes has its options in cli_complete_groups (complete.c).
 */
static void
test_completion_knows_every_flag(void **state)
{
	unsigned	known = 0, missing;
	size_t		i;

	(void)state;
	for (i = 0; i < cli_complete_ngroups; i++)
		known |= cli_complete_groups[i].flag;
	for (i = 0; i < cli_ncommands; i++) {
		missing = cli_commands[i].flags & ~known;
		if (missing != 0)
			fail_msg("%s: CLI_OPT_* 0x%x has no line in "
			    "cli_complete_groups (ui/cli/complete.c)",
			    cli_commands[i].name, missing);
	}
}

static void
test_unknown_command_names_the_table(void **state)
{
	const char *const	 unknown[] = { "help", "frobnicate" };
	struct table_run	 r;
	size_t			 i, j;

	(void)state;
	for (j = 0; j < 2; j++) {
		table_run(&r, unknown[j], NULL);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.out.data, "");
		assert_non_null(strstr(buf_str(&r.err), "unknown command"));
		assert_non_null(strstr(buf_str(&r.err), unknown[j]));
		assert_non_null(strstr(buf_str(&r.err), "--help"));
		for (i = 0; i < cli_ncommands; i++)
			assert_true(cli_commands[i].hidden ||
			    table_has_words(buf_str(&r.err),
			    cli_commands[i].name));
		table_run_free(&r);
	}
}

/*
 * Each line of a command's summary fits the 54 columns --help gives it
 * (from column 25 to 79): a longer one wraps, leaving a word alone on a
 * line ("or") that reads as a stray.
 */
static void
test_help_summary_lines_fit(void **state)
{
	const char	*s, *nl;
	size_t		 i, len;

	(void)state;
	for (i = 0; i < cli_ncommands; i++)
		for (s = cli_commands[i].summary; *s != '\0'; s += len) {
			nl = strchr(s, '\n');
			len = nl != NULL ? (size_t)(nl - s) + 1 : strlen(s);
			if (len - (nl != NULL) > 54)
				fail_msg("%s: a summary line of %zu columns: "
				    "%.*s", cli_commands[i].name,
				    len - (nl != NULL), (int)len, s);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_lists_every_command),
		cmocka_unit_test(test_unknown_command_names_the_table),
		cmocka_unit_test(test_completion_knows_every_flag),
		cmocka_unit_test(test_help_eval_counting),
		cmocka_unit_test(test_help_summary_lines_fit),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
