/*
 * edgetui --demo: find edgemu, start it on a fresh temporary store with
 * demo data and a random token, learn where it listens from its ready
 * file, and at the end stop it and remove the store.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "demo.h"
#include "xmalloc.h"

#define DEMO_TOKEN_BYTES	32
#define DEMO_POLL_NS		(20L * 1000 * 1000)
/* Of edgemu's log, what a failure quotes. */
#define DEMO_LOG_TAIL		4096
#define DEMO_LOG_LINES		8

extern char	**environ;

/*
 * The running demo's edgemu and store, for demo_stop_now in a signal
 * handler: plain data it can read at any moment.
 */
static volatile sig_atomic_t	 demo_live_pid;
static char			 demo_live_dir[PATH_MAX];
static volatile sig_atomic_t	 demo_live_has_dir;

/* ---- finding edgemu ------------------------------------------------------ */

static int
demo_executable(const char *path)
{
	struct stat	sb;

	return (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    access(path, X_OK) == 0);
}

/* An absolute path when it can be had, so a later chdir does not matter. */
static char *
demo_resolved(const char *path)
{
	char	*real;

	if ((real = realpath(path, NULL)) != NULL)
		return (real);
	return (xstrdup(path));
}

/* edgemu beside an edgetui: the build tree's, then the installed one. */
static char *
demo_beside(const char *exe)
{
	static const char *const names[] = { "../emulator/edgemu", "edgemu" };
	const char	*slash;
	char		*path;
	size_t		 i;

	if ((slash = strrchr(exe, '/')) == NULL)
		return (NULL);
	for (i = 0; i < nitems(names); i++) {
		path = xprintf("%.*s/%s", (int)(slash - exe), exe, names[i]);
		if (demo_executable(path))
			return (path);
		free(path);
	}
	return (NULL);
}

static char *
demo_on_path(void)
{
	const char	*env = getenv("PATH"), *p, *end;
	char		*path;
	size_t		 n;

	if (env == NULL)
		return (NULL);
	for (p = env; ; p = end + 1) {
		end = strchr(p, ':');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		/* An empty entry is the current directory. */
		path = n == 0 ? xstrdup("edgemu") :
		    xprintf("%.*s/edgemu", (int)n, p);
		if (demo_executable(path))
			return (path);
		free(path);
		if (end == NULL)
			return (NULL);
	}
}

static char *
demo_find(const char *argv0, char **cause)
{
	const char	*env = getenv("EDGEMU");
	char		 self[PATH_MAX], *found = NULL, *real;
	ssize_t		 n;

	if (env != NULL && *env != '\0') {
		errno = 0;
		if (demo_executable(env))
			return (demo_resolved(env));
		xasprintf(cause, "EDGEMU=%s: %s", env, errno != 0 ?
		    strerror(errno) : "not an executable file");
		return (NULL);
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		found = demo_beside(self);
	}
	if (found == NULL && argv0 != NULL)
		found = demo_beside(argv0);
	if (found == NULL)
		found = demo_on_path();
	if (found == NULL) {
		xasprintf(cause, "edgemu was found neither beside edgetui nor "
		    "on PATH (set EDGEMU to its path)");
		return (NULL);
	}
	real = demo_resolved(found);
	free(found);
	return (real);
}

/* ---- starting it --------------------------------------------------------- */

static int
demo_token(char **token, char **cause)
{
	unsigned char	 raw[DEMO_TOKEN_BYTES];
	char		*hex;
	size_t		 have = 0, i;
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) == -1) {
		xasprintf(cause, "/dev/urandom: %s", strerror(errno));
		return (-1);
	}
	while (have < sizeof raw) {
		n = read(fd, raw + have, sizeof raw - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			xasprintf(cause, "/dev/urandom: %s", n == 0 ?
			    "end of file" : strerror(errno));
			close(fd);
			return (-1);
		}
		have += (size_t)n;
	}
	close(fd);
	hex = xmalloc(2 * sizeof raw + 1);
	for (i = 0; i < sizeof raw; i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	explicit_bzero(raw, sizeof raw);
	*token = hex;
	return (0);
}

/* The caller's environment with EDGEMU_TOKEN set; free with demo_env_free. */
static char **
demo_env(const char *token)
{
	char	**env;
	size_t	  n = 0, i, j = 0;

	while (environ[n] != NULL)
		n++;
	env = xcalloc(n + 2, sizeof *env);
	env[j++] = xprintf("EDGEMU_TOKEN=%s", token);
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], "EDGEMU_TOKEN=", 13) != 0)
			env[j++] = environ[i];
	}
	env[j] = NULL;
	return (env);
}

static void
demo_env_free(char **env)
{
	explicit_bzero(env[0], strlen(env[0]));
	free(env[0]);
	free(env);
}

/* dup2, or when the descriptor is already in place, keep it over exec. */
static int
demo_dup(int from, int to)
{
	if (from == to)
		return (fcntl(to, F_SETFD, 0));
	return (dup2(from, to));
}

/*
 * The child, between fork and exec: only async-signal-safe calls. It dies
 * with the thread that started it, in a session of its own, with the
 * signals edgemu waits for back to their defaults (an ignored SIGTERM
 * would survive the exec). If exec fails, its errno goes up the pipe.
 */
static __dead void
demo_child(char **argv, char **envp, int null, int log, int fd, pid_t parent)
{
	static const int	 sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				     SIGPIPE, SIGCHLD };
	struct sigaction	 sa;
	sigset_t		 none;
	size_t			 i;
	int			 err;

#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0)
		_exit(127);
#endif
	/* The parent may have died before prctl took effect. */
	if (getppid() != parent)
		_exit(127);
	setsid();
	if (demo_dup(null, STDIN_FILENO) == -1 ||
	    demo_dup(log, STDOUT_FILENO) == -1 ||
	    demo_dup(log, STDERR_FILENO) == -1)
		_exit(127);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < nitems(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(argv[0], argv, envp);
	err = errno;
	while (write(fd, &err, sizeof err) == -1 && errno == EINTR)
		;
	_exit(127);
}

/* Fork and exec edgemu; 0, or -1 with *cause. */
static int
demo_spawn(struct demo *d, const char *edgemu, char **cause)
{
	char	*log, *ready, **envp;
	char	*argv[] = { (char *)edgemu, (char *)"--listen",
		    (char *)"127.0.0.1:0", (char *)"--data", d->dir,
		    (char *)"--demo-data", (char *)"--ready-file", NULL, NULL };
	int	 null = -1, logfd = -1, fds[2] = { -1, -1 }, err, rv = -1;
	pid_t	 parent = getpid();
	ssize_t	 n;

	log = xprintf("%s/edgemu.log", d->dir);
	ready = xprintf("%s/ready", d->dir);
	argv[7] = ready;
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (logfd == -1) {
		xasprintf(cause, "%s: %s", log, strerror(errno));
		goto out;
	}
	if ((null = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1 ||
	    pipe2(fds, O_CLOEXEC) == -1) {
		xasprintf(cause, "%s: %s", null == -1 ? "/dev/null" : "pipe",
		    strerror(errno));
		goto out;
	}
	envp = demo_env(d->token);
	if ((d->pid = fork()) == 0)
		demo_child(argv, envp, null, logfd, fds[1], parent);
	if (d->pid > 0)
		demo_live_pid = d->pid;
	demo_env_free(envp);
	close(fds[1]);
	fds[1] = -1;
	if (d->pid == -1) {
		d->pid = 0;
		xasprintf(cause, "fork: %s", strerror(errno));
		goto out;
	}
	while ((n = read(fds[0], &err, sizeof err)) == -1 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof err) {
		xasprintf(cause, "%s: %s", edgemu, strerror(err));
		goto out;
	}
	rv = 0;
out:
	if (fds[0] != -1)
		close(fds[0]);
	if (fds[1] != -1)
		close(fds[1]);
	if (null != -1)
		close(null);
	if (logfd != -1)
		close(logfd);
	free(ready);
	free(log);
	return (rv);
}

/* ---- waiting until it serves --------------------------------------------- */

/* The last lines of edgemu's log, the token's line left out. */
static void
demo_log_tail(const struct demo *d, struct buf *out)
{
	char		 text[DEMO_LOG_TAIL + 1], *path, *line, *next;
	const char	*lines[DEMO_LOG_LINES];
	size_t		 n = 0, i;
	ssize_t		 len;
	off_t		 size;
	int		 fd;

	path = xprintf("%s/edgemu.log", d->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd == -1)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > DEMO_LOG_TAIL)
		lseek(fd, size - DEMO_LOG_TAIL, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	len = read(fd, text, DEMO_LOG_TAIL);
	close(fd);
	if (len <= 0)
		return;
	text[len] = '\0';
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (*line == '\0' || strncmp(line, "EDGEMU_TOKEN=", 13) == 0)
			continue;
		if (n == nitems(lines))
			memmove(lines, lines + 1, (--n) * sizeof *lines);
		lines[n++] = line;
	}
	for (i = 0; i < n; i++)
		buf_addf(out, "\n  %s", lines[i]);
	explicit_bzero(text, sizeof text);
}

static char *
demo_failed(const struct demo *d, const char *fmt, ...) printflike(2, 3);

static char *
demo_failed(const struct demo *d, const char *fmt, ...)
{
	struct buf	b = BUF_INITIALIZER;
	va_list		ap;

	va_start(ap, fmt);
	buf_addvf(&b, fmt, ap);
	va_end(ap);
	demo_log_tail(d, &b);
	return (buf_detach(&b, NULL));
}

/* Take the ready file's lines; 0 when every one is there. */
static int
demo_parse_ready(struct demo *d, char *text, char **cause)
{
	static const char *const keys[] = { "EDGEMU_URL=", "EDGEMU_TOKEN=",
	    "EDGEMU_ACCOUNT=", "EDGEMU_ZONE=" };
	char	*line, *next, *values[nitems(keys)] = { NULL };
	size_t	 i;
	int	 rv = -1;

	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		for (i = 0; i < nitems(keys); i++) {
			if (strncmp(line, keys[i], strlen(keys[i])) == 0)
				values[i] = line + strlen(keys[i]);
		}
	}
	for (i = 0; i < nitems(keys); i++) {
		if (values[i] == NULL || *values[i] == '\0') {
			xasprintf(cause, "edgemu's ready file has no %.*s",
			    (int)strlen(keys[i]) - 1, keys[i]);
			goto out;
		}
	}
	if (strcmp(values[1], d->token) != 0) {
		xasprintf(cause, "edgemu did not take the demo token");
		goto out;
	}
	d->url = xstrdup(values[0]);
	d->account = xstrdup(values[2]);
	d->zone = xstrdup(values[3]);
	rv = 0;
out:
	return (rv);
}

/* The ready file, once edgemu has renamed it into place; NULL until then. */
static char *
demo_read_ready(const char *path, int *error)
{
	struct buf	b = BUF_INITIALIZER;
	char		chunk[1024];
	ssize_t		n;
	int		fd;

	*error = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno != ENOENT)
			*error = errno;
		return (NULL);
	}
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || b.len > 65536) {
			*error = n < 0 ? errno : EFBIG;
			close(fd);
			buf_free(&b);
			return (NULL);
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	explicit_bzero(chunk, sizeof chunk);
	buf_adds(&b, "");
	return (buf_detach(&b, NULL));
}

static int
demo_exited(struct demo *d, char **cause)
{
	int	st;

	if (waitpid(d->pid, &st, WNOHANG) != d->pid)
		return (0);
	d->pid = demo_live_pid = 0;
	if (WIFSIGNALED(st))
		*cause = demo_failed(d, "edgemu was killed by signal %d "
		    "before it was ready; its log ends:", WTERMSIG(st));
	else
		*cause = demo_failed(d, "edgemu exited with status %d before "
		    "it was ready; its log ends:", WEXITSTATUS(st));
	return (1);
}

static int
demo_wait_ready(struct demo *d, char **cause)
{
	struct timespec	 now, end, nap = { 0, DEMO_POLL_NS };
	char		*path, *text;
	int		 error, rv = -1;

	path = xprintf("%s/ready", d->dir);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += DEMO_START_SECONDS;
	for (;;) {
		if ((text = demo_read_ready(path, &error)) != NULL) {
			rv = demo_parse_ready(d, text, cause);
			explicit_bzero(text, strlen(text));
			free(text);
			/* The token stays in memory only. */
			unlink(path);
			break;
		}
		if (error != 0) {
			xasprintf(cause, "%s: %s", path, strerror(error));
			break;
		}
		if (demo_exited(d, cause))
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec &&
		    now.tv_nsec >= end.tv_nsec)) {
			*cause = demo_failed(d, "edgemu was not ready after "
			    "%d seconds; its log ends:", DEMO_START_SECONDS);
			break;
		}
		nanosleep(&nap, NULL);
	}
	free(path);
	return (rv);
}

int
demo_start(struct demo *d, const char *argv0, char **cause)
{
	const char	*tmp = getenv("TMPDIR");
	char		*edgemu;

	memset(d, 0, sizeof *d);
	if ((edgemu = demo_find(argv0, cause)) == NULL)
		return (-1);
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	d->dir = xprintf("%s/edgetui-demo-XXXXXX", tmp);
	if (mkdtemp(d->dir) == NULL) {
		xasprintf(cause, "%s: %s", d->dir, strerror(errno));
		free(d->dir);
		d->dir = NULL;
		goto fail;
	}
	if (strlen(d->dir) < sizeof demo_live_dir) {
		memcpy(demo_live_dir, d->dir, strlen(d->dir) + 1);
		atomic_signal_fence(memory_order_seq_cst);
		demo_live_has_dir = 1;
	}
	if (demo_token(&d->token, cause) != 0 ||
	    demo_spawn(d, edgemu, cause) != 0 ||
	    demo_wait_ready(d, cause) != 0)
		goto fail;
	free(edgemu);
	return (0);
fail:
	free(edgemu);
	demo_stop(d);
	return (-1);
}

/* ---- stopping it ------------------------------------------------------------ */

static void
demo_reap(pid_t pid)
{
	struct timespec	 nap = { 0, DEMO_POLL_NS };
	long		 waited = 0;
	pid_t		 r;
	int		 st;

	kill(pid, SIGTERM);
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid || (r == -1 && errno != EINTR)) {
			demo_live_pid = 0;
			return;
		}
		if (waited >= DEMO_STOP_SECONDS * 1000000000L)
			break;
		nanosleep(&nap, NULL);
		waited += DEMO_POLL_NS;
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	demo_live_pid = 0;
}

static int
demo_remove_one(const char *path, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return (0);
}

void
demo_stop(struct demo *d)
{
	if (d->pid > 0)
		demo_reap(d->pid);
	d->pid = 0;
	if (d->dir != NULL)
		nftw(d->dir, demo_remove_one, 16, FTW_DEPTH | FTW_PHYS);
	demo_live_has_dir = 0;
	if (d->token != NULL)
		explicit_bzero(d->token, strlen(d->token));
	free(d->token);
	free(d->dir);
	free(d->url);
	free(d->account);
	free(d->zone);
	memset(d, 0, sizeof *d);
}

/* ---- stopping it from a signal handler ------------------------------------ */

#define DEMO_RM_DEPTH	8

/*
 * Remove name under dirfd, a directory and all it holds, with
 * async-signal-safe calls alone (no opendir: it allocates). Entries are
 * read again from the start until a pass removes nothing, since removing
 * while reading may skip some.
 */
static void
demo_rmtree_at(int dirfd, const char *name, int depth)
{
#ifdef __linux__
	char			 buf[4096];
	struct dirent64		*de;
	ssize_t			 n, off;
	int			 fd, removed;

	if (depth > DEMO_RM_DEPTH)
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1) {
		(void)unlinkat(dirfd, name, 0);
		return;
	}
	do {
		removed = 0;
		(void)lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf, sizeof buf)) > 0) {
			for (off = 0; off < n; off += de->d_reclen) {
				de = (struct dirent64 *)(buf + off);
				if (strcmp(de->d_name, ".") == 0 ||
				    strcmp(de->d_name, "..") == 0)
					continue;
				if (unlinkat(fd, de->d_name, 0) == -1)
					demo_rmtree_at(fd, de->d_name,
					    depth + 1);
				removed = 1;
			}
		}
	} while (removed);
	close(fd);
#endif
	(void)unlinkat(dirfd, name, AT_REMOVEDIR);
}

void
demo_stop_now(void)
{
	pid_t	pid = (pid_t)demo_live_pid;
	int	st, saved = errno;

	if (pid > 0) {
		/* SIGKILL: nothing written into the store once it is gone. */
		(void)kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		demo_live_pid = 0;
	}
	if (demo_live_has_dir) {
		demo_live_has_dir = 0;
		demo_rmtree_at(AT_FDCWD, demo_live_dir, 0);
	}
	errno = saved;
}
