/*
 * Running edgetui as a user would in the integration tests: its own
 * environment (token, base URL, account, zone, HOME and XDG dirs in a
 * temporary directory), fork/exec, stdout and stderr captured.
 */
#ifndef CLITEST_H
#define CLITEST_H

#include <sys/types.h>

#include "itest.h"

#define CLI_ARGS_MAX	32

struct fixture {
	struct edgemu	 emu;
	char		*home;		/* HOME, XDG dirs, TMPDIR, files */
};

/* What one run left. */
struct run {
	int	 status;
	char	*out;
	char	*err;
};

#define RUN(f, r, ...) do {						\
	const char *const run_args_[] = { __VA_ARGS__, NULL };		\
	run_cli((f), NULL, run_args_, (r));				\
} while (0)

/* The binary: $EDGETUI, else ui/edgetui. */
const char	*cli_path(void);
char		*slurp(const char *);
void		 spill(const char *, const char *, mode_t);
void		 run_free(struct run *);
/* Start edgetui with args; its stdout and stderr go to those files. */
pid_t		 cli_spawn(struct fixture *, const char *const *,
		     const char *const *, const char *, const char *);
/* Run edgetui to the end; extra_env entries are NAME=value. */
void		 run_cli(struct fixture *, const char *const *,
		     const char *const *, struct run *);
/* A fixture: edgemu with demo data and a temporary home. */
int		 cli_setup(void **);
int		 cli_teardown(void **);
size_t		 count_lines(const char *);

#endif
