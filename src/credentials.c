/*
 * A profile's API token: CLOUDFLARE_API_TOKEN, or the profile's token,
 * token_file (its first line, from a private file) or token_command (the
 * first line it prints, within a timeout, its whole process group killed
 * past it or soon after that line). No copy of a token is left behind and
 * no message holds one.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config_env.h"
#include "config_profile.h"
#include "configfile.h"
#include "credentials.h"
#include "log.h"
#include "compat.h"
#include "xmalloc.h"

extern char **environ;

/* A token file or a command's output: only the first line matters. */
#define CONFIG_TOKEN_READ	(64 * 1024)
/* A command's stderr kept for the message, and read at most. */
#define CONFIG_STDERR_KEEP	1024
#define CONFIG_STDERR_READ	(1024 * 1024)
/*
 * A token_command that has not exited by then is killed with its process
 * group (a hung password manager must not hang the program). The
 * environment variable shortens it for tests.
 */
#define CONFIG_COMMAND_TIMEOUT_MS	10000L
/*
 * After its first line, how long a command may take to exit and say it
 * failed, and how often its end is looked for meanwhile.
 */
#define CONFIG_COMMAND_GRACE_MS		1000L
#define CONFIG_COMMAND_TICK_MS		10L
#define CONFIG_COMMAND_TIMEOUT_ENV	"EDGETUI_TOKEN_COMMAND_TIMEOUT_MS"

void
config_secret_free(char *s)
{
	if (s != NULL) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

int
credentials_token_chars(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if (s[i] <= ' ' || s[i] >= 0x7f)
			return (0);
	}
	return (len != 0);
}

/* Who a mode lets in, for messages about files that should be private. */
const char *
credentials_exposure(mode_t mode)
{
	if (mode & S_IROTH)
		return ("readable by others");
	if (mode & S_IRGRP)
		return ("readable by group");
	if (mode & S_IWOTH)
		return ("writable by others");
	if (mode & S_IWGRP)
		return ("writable by group");
	return ("open to group or others");
}

/* ---- tokens ------------------------------------------------------------------ */

/*
 * The first line of data, without surrounding blanks, as a token; what
 * names the source in messages.
 */
static int
config_first_line(const char *data, size_t len, const char *what,
    char **token, char **cause)
{
	size_t	start = 0, end;

	end = 0;
	while (end < len && data[end] != '\n')
		end++;
	while (start < end && strchr(" \t\r", data[start]) != NULL)
		start++;
	while (end > start && strchr(" \t\r", data[end - 1]) != NULL)
		end--;
	if (end == len && len >= CONFIG_TOKEN_READ) {
		xasprintf(cause, "%s: the first line is longer than %d bytes",
		    what, CONFIG_TOKEN_READ);
		return (-1);
	}
	if (end == start) {
		xasprintf(cause, "%s: no token on its first line", what);
		return (-1);
	}
	if (!credentials_token_chars(data + start, end - start)) {
		xasprintf(cause, "%s: the token holds a space or a control"
		    " character", what);
		return (-1);
	}
	*token = xstrndup(data + start, end - start);
	return (0);
}

static int
config_token_file(const struct config_profile *prof, char **token,
    char **cause)
{
	const char	*path = prof->token_file;
	struct stat	 sb;
	char		*data, *what;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd, rc = -1;

	what = xprintf("profiles.%s.token_file %s", prof->name, path);
	if ((fd = open(path, O_RDONLY|O_CLOEXEC|O_NOCTTY)) == -1) {
		xasprintf(cause, "%s: %s", what, strerror(errno));
		free(what);
		return (-1);
	}
	data = xmalloc(CONFIG_TOKEN_READ);
	if (fstat(fd, &sb) != 0) {
		xasprintf(cause, "%s: %s", what, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", what);
		goto out;
	}
	if (sb.st_mode & 077) {
		xasprintf(cause, "%s is %s (mode %04o): run chmod 600 %s", path,
		    credentials_exposure(sb.st_mode),
		    (unsigned int)sb.st_mode & 07777, path);
		goto out;
	}
	while (len < CONFIG_TOKEN_READ) {
		n = read(fd, data + len, CONFIG_TOKEN_READ - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s: %s", what, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += n;
		if (memchr(data, '\n', len) != NULL)
			break;
	}
	rc = config_first_line(data, len, what, token, cause);

out:
	explicit_bzero(data, CONFIG_TOKEN_READ);
	free(data);
	close(fd);
	free(what);
	return (rc);
}

/* What a command wrote, kept in fixed buffers: no copy of a token is left. */
struct config_pipe {
	int		 fd;
	char		*data;
	size_t		 len;
	size_t		 keep;		/* bytes worth keeping */
	size_t		 total;
	size_t		 limit;		/* stop reading past it */
	int		 cut;		/* we closed it early */
};

/* A command run to its end: what it printed and how it ended. */
struct config_run {
	struct config_pipe	 out;
	struct config_pipe	 err;
	int			 status;
	int			 exited;	/* status holds its end */
	int			 timed_out;	/* killed at the deadline */
	int			 line_taken;	/* killed after its line */
	long			 timeout_ms;
};

static void
config_drain(struct config_pipe *o)
{
	char	chunk[4096];
	ssize_t	n;
	size_t	take;

	n = read(o->fd, chunk, sizeof chunk);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		take = MINIMUM((size_t)n, o->keep - o->len);
		memcpy(o->data + o->len, chunk, take);
		o->len += take;
		o->total += n;
		explicit_bzero(chunk, sizeof chunk);
		if (o->total < o->limit)
			return;
		o->cut = 1;
	}
	close(o->fd);
	o->fd = -1;
}

static int
config_spawn(const char *command, char *const *env, int outfd, int errfd,
    pid_t *pid)
{
	posix_spawn_file_actions_t	 fa;
	posix_spawnattr_t		 attr;
	sigset_t			 none, dfl;
	char				 sh[] = "sh", dashc[] = "-c", *argv[4];
	int				 error;

	argv[0] = sh;
	argv[1] = dashc;
	argv[2] = xstrdup(command);
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, outfd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errfd, STDERR_FILENO);
	/* The caller's threads may block signals or ignore SIGPIPE. */
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	/* A group of its own, so a timeout can end all it started. */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr,
	    POSIX_SPAWN_SETSIGMASK|POSIX_SPAWN_SETSIGDEF|POSIX_SPAWN_SETPGROUP);
	error = posix_spawn(pid, "/bin/sh", &fa, &attr, argv,
	    env != NULL ? env : environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(argv[2]);
	return (error);
}

static long
config_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void
config_close_pipes(struct config_run *run)
{
	if (run->out.fd != -1)
		close(run->out.fd);
	if (run->err.fd != -1)
		close(run->err.fd);
	run->out.fd = run->err.fd = -1;
}

/* End the command's whole group, and its pipes. */
static void
config_kill(struct config_run *run, pid_t pid)
{
	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL);
	config_close_pipes(run);
}

/* Whether the first line of output has come, its newline with it. */
static int
config_have_line(const struct config_run *run)
{
	return (memchr(run->out.data, '\n', run->out.len) != NULL);
}

/*
 * Collect both pipes until they close or the deadline passes. Once the
 * first line has come, the command's end is not waited for past it: a
 * background process may hold the pipes open (cmd & echo TOKEN), or the
 * command may go on (echo TOKEN; exec agent). Its exit, when it comes
 * within CONFIG_COMMAND_GRACE_MS of the line, still says whether it failed.
 */
static void
config_collect(struct config_run *run, pid_t pid, long deadline)
{
	struct pollfd	pfd[2];
	long		now, left, grace = -1;
	int		n;

	while (run->out.fd != -1 || run->err.fd != -1) {
		now = config_now_ms();
		if (grace < 0 && config_have_line(run))
			grace = now + CONFIG_COMMAND_GRACE_MS;
		if (grace >= 0 && waitpid(pid, &run->status, WNOHANG) == pid) {
			run->exited = 1;
			return;
		}
		if (grace >= 0 && now >= MINIMUM(grace, deadline)) {
			run->line_taken = 1;
			config_kill(run, pid);
			return;
		}
		if ((left = deadline - now) <= 0) {
			run->timed_out = 1;
			config_kill(run, pid);
			return;
		}
		/* With the line, look for the command's end now and then. */
		if (grace >= 0)
			left = MINIMUM(left, CONFIG_COMMAND_TICK_MS);
		pfd[0].fd = run->out.fd;
		pfd[1].fd = run->err.fd;
		pfd[0].events = pfd[1].events = POLLIN;
		if ((n = poll(pfd, 2, (int)left)) == -1) {
			if (errno == EINTR)
				continue;
			fatal("config: poll");
		}
		if (run->out.fd != -1 && pfd[0].revents != 0)
			config_drain(&run->out);
		if (run->err.fd != -1 && pfd[1].revents != 0)
			config_drain(&run->err);
	}
}

/*
 * The command's end, its pipes closed or left: waited for until the
 * deadline (or the grace after its line), then its group killed.
 */
static int
config_wait(struct config_run *run, pid_t pid, long deadline, char **why)
{
	struct timespec	tick = { 0, CONFIG_COMMAND_TICK_MS * 1000 * 1000 };
	pid_t		w;
	int		killed = run->timed_out || run->line_taken;

	if (!killed && config_have_line(run))
		deadline = MINIMUM(deadline, config_now_ms() +
		    CONFIG_COMMAND_GRACE_MS);
	for (;;) {
		w = waitpid(pid, &run->status, killed ? 0 : WNOHANG);
		if (w == pid)
			break;
		if (w == -1 && errno != EINTR) {
			xasprintf(why, "waitpid: %s", strerror(errno));
			return (-1);
		}
		if (w == 0 && config_now_ms() >= deadline) {
			run->line_taken = config_have_line(run);
			run->timed_out = !run->line_taken;
			config_kill(run, pid);
			killed = 1;
		} else if (w == 0)
			nanosleep(&tick, NULL);
	}
	if (killed)
		(void)kill(-pid, SIGKILL);	/* what it left behind */
	return (0);
}

/*
 * Run command with /bin/sh -c, stdin from /dev/null, and collect its
 * output until it closes both pipes or its first line has come; then wait
 * for it, killing its process group if it is not over by the deadline
 * (run->timed_out) or soon after its line (run->line_taken). Fails only
 * when the command could not be run or waited for (with *why).
 */
static int
config_run(const char *command, char *const *env, struct config_run *run,
    char **why)
{
	const char	*v;
	long		deadline, timeout = CONFIG_COMMAND_TIMEOUT_MS;
	int		outp[2], errp[2], error;
	pid_t		pid;

	if ((v = config_env_get(env, CONFIG_COMMAND_TIMEOUT_ENV)) != NULL &&
	    atol(v) > 0)
		timeout = atol(v);
	memset(run, 0, sizeof *run);
	run->timeout_ms = timeout;
	run->out.keep = run->out.limit = CONFIG_TOKEN_READ;
	run->out.data = xmalloc(run->out.keep);
	run->err.keep = CONFIG_STDERR_KEEP;
	run->err.limit = CONFIG_STDERR_READ;
	run->err.data = xmalloc(run->err.keep);
	if (pipe2(outp, O_CLOEXEC) != 0) {
		xasprintf(why, "pipe: %s", strerror(errno));
		return (-1);
	}
	if (pipe2(errp, O_CLOEXEC) != 0) {
		xasprintf(why, "pipe: %s", strerror(errno));
		close(outp[0]);
		close(outp[1]);
		return (-1);
	}
	error = config_spawn(command, env, outp[1], errp[1], &pid);
	close(outp[1]);
	close(errp[1]);
	run->out.fd = outp[0];
	run->err.fd = errp[0];
	if (error != 0) {
		config_close_pipes(run);
		xasprintf(why, "cannot run /bin/sh: %s", strerror(error));
		return (-1);
	}
	deadline = config_now_ms() + timeout;
	config_collect(run, pid, deadline);
	/* Ended after its line: what it left behind runs on, unread. */
	config_close_pipes(run);
	if (run->exited)
		return (0);
	return (config_wait(run, pid, deadline, why));
}

/* The first line of a command's stderr, made printable, for a message. */
static char *
config_stderr_line(const struct config_pipe *e)
{
	size_t	n = 0, i;
	char	*s;

	while (n < e->len && e->data[n] != '\n' && n < 200)
		n++;
	if (n < e->len && e->data[n] != '\n') {
		while (n > 0 && ((unsigned char)e->data[n] & 0xc0) == 0x80)
			n--;
	}
	while (n > 0 && isspace((unsigned char)e->data[n - 1]))
		n--;
	s = xstrndup(e->data, n);
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = '?';
	}
	return (s);
}

static int
config_token_command(const struct config_profile *prof, char *const *env,
    char **token, char **cause)
{
	struct config_run	 run;
	char			*what, *why = NULL, *line;
	int			 status, rc = -1;

	what = xprintf("profiles.%s.token_command", prof->name);
	if (config_run(prof->token_command, env, &run, &why) != 0) {
		xasprintf(cause, "%s: %s", what, why);
		free(why);
		goto out;
	}
	if (run.timed_out) {
		xasprintf(cause, "%s did not exit within %ld s and was killed "
		    "(with the processes it started)", what,
		    (run.timeout_ms + 999) / 1000);
		goto out;
	}
	/*
	 * A command that kept printing dies when we stop reading: of SIGPIPE,
	 * or with 128 + SIGPIPE from the shell that ran it. One that did not
	 * end soon after its line was ended, as it had done its part.
	 */
	status = run.status;
	if (run.out.cut && ((WIFSIGNALED(status) && WTERMSIG(status) ==
	    SIGPIPE) || (WIFEXITED(status) && WEXITSTATUS(status) ==
	    128 + SIGPIPE)))
		status = 0;
	if (run.line_taken)
		status = 0;
	if (WIFSIGNALED(status)) {
		xasprintf(cause, "%s was killed by signal %d (%s)", what,
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		line = config_stderr_line(&run.err);
		xasprintf(cause, "%s exited with status %d%s%s", what,
		    WEXITSTATUS(status), *line == '\0' ? "" : ": ", line);
		free(line);
	} else if (run.out.len == 0)
		xasprintf(cause, "%s printed nothing", what);
	else {
		rc = config_first_line(run.out.data, run.out.len, what, token,
		    cause);
	}

out:
	explicit_bzero(run.out.data, run.out.keep);
	free(run.out.data);
	free(run.err.data);
	free(what);
	return (rc);
}

int
config_token(const struct config *cfg, const char *name, char *const *env,
    char **token, char **cause)
{
	const struct config_profile	*prof;
	const char			*v;

	*token = NULL;
	if ((v = config_env_get(env, "CLOUDFLARE_API_TOKEN")) != NULL) {
		if (!credentials_token_chars(v, strlen(v))) {
			*cause = xstrdup("CLOUDFLARE_API_TOKEN: the token holds"
			    " a space or a control character");
			return (-1);
		}
		*token = xstrdup(v);
		return (0);
	}
	if ((prof = config_profile_or_cause(cfg, name, cause)) == NULL)
		return (-1);
	if (prof->token_refusal != NULL) {
		*cause = xstrdup(prof->token_refusal);
		return (-1);
	}
	switch (prof->token_source) {
	case CONFIG_TOKEN_INLINE:
		*token = xstrdup(prof->token);
		return (0);
	case CONFIG_TOKEN_FILE:
		return (config_token_file(prof, token, cause));
	case CONFIG_TOKEN_COMMAND:
		return (config_token_command(prof, env, token, cause));
	default:
		break;
	}
	xasprintf(cause, "profile %s has no API token: set CLOUDFLARE_API_TOKEN,"
	    " or token_file, token_command or token under profiles.%s in %s",
	    prof->name, prof->name, cfg->file != NULL ? cfg->file :
	    "the config file");
	return (-1);
}
