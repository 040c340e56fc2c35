/*
 * videos-bench's driver: runs the console on a 120x40 pseudo-terminal and
 * prints the time to its first screen of a list (the output shows the
 * text given with -t), the requests the server logged in the first
 * seconds (-l log, -w seconds), the console's peak RSS then, and the time
 * of a search typed in the console (-s text, until the output shows -m).
 * Prints numbers; asserts nothing. Linux only: it reads /proc.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define LAZY_ROWS	40
#define LAZY_COLS	120
#define LAZY_TAIL	4096		/* output kept to find a marker in */

struct lazy {
	int	fd;
	pid_t	pid;
	char	tail[LAZY_TAIL + 1];
	size_t	len;
};

static __dead printflike(1, 2) void
lazy_fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	fputs("lazydrive: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static double
lazy_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

/* Read what comes for up to ms; 1 once marker (if any) has shown. */
static int
lazy_read(struct lazy *l, int ms, const char *marker)
{
	struct pollfd	pfd;
	char		buf[8192];
	ssize_t		n;
	size_t		keep;
	double		end = lazy_now() + ms;

	while (lazy_now() < end) {
		pfd.fd = l->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)(end - lazy_now()) + 1) <= 0)
			continue;
		if ((n = read(l->fd, buf, sizeof buf)) <= 0)
			lazy_fatal("the console exited");
		/* Keep the end of the output: a marker may span two reads. */
		if ((size_t)n >= LAZY_TAIL) {
			memcpy(l->tail, buf + n - LAZY_TAIL, LAZY_TAIL);
			l->len = LAZY_TAIL;
		} else {
			keep = MINIMUM(l->len, LAZY_TAIL - (size_t)n);
			memmove(l->tail, l->tail + l->len - keep, keep);
			memcpy(l->tail + keep, buf, (size_t)n);
			l->len = keep + (size_t)n;
		}
		l->tail[l->len] = '\0';
		if (marker != NULL && memmem(l->tail, l->len, marker,
		    strlen(marker)) != NULL)
			return (1);
	}
	return (0);
}

static long
lazy_lines(const char *path)
{
	FILE	*f;
	long	 n = 0;
	int	 c;

	if (path == NULL || (f = fopen(path, "r")) == NULL)
		return (0);
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return (n);
}

static long
lazy_status_kb(pid_t pid, const char *field)
{
	char	 path[64], line[256];
	FILE	*f;
	long	 kb = -1;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, field, strlen(field)) == 0)
			kb = strtol(line + strlen(field) + 1, NULL, 10);
	}
	fclose(f);
	return (kb);
}

static void
lazy_spawn(struct lazy *l, char **argv)
{
	struct winsize	ws;

	memset(&ws, 0, sizeof ws);
	ws.ws_row = LAZY_ROWS;
	ws.ws_col = LAZY_COLS;
	if ((l->pid = forkpty(&l->fd, NULL, NULL, &ws)) == -1)
		lazy_fatal("forkpty: %s", strerror(errno));
	if (l->pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		unsetenv("LINES");
		unsetenv("COLUMNS");
		execvp(argv[0], argv);
		fprintf(stderr, "lazydrive: %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
}

static __dead void
lazy_usage(void)
{
	fprintf(stderr, "usage: lazydrive -t first-screen-text [-l log] "
	    "[-w seconds] [-s search -m result-text] -- command [arg ...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct lazy	 l;
	const char	*first = NULL, *log = NULL, *search = NULL;
	const char	*result = NULL;
	double		 t0, t;
	long		 base;
	int		 ch, window = 10, status;

	memset(&l, 0, sizeof l);
	while ((ch = getopt(argc, argv, "l:m:s:t:w:")) != -1) {
		switch (ch) {
		case 'l': log = optarg; break;
		case 'm': result = optarg; break;
		case 's': search = optarg; break;
		case 't': first = optarg; break;
		case 'w': window = atoi(optarg); break;
		default: lazy_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0 || first == NULL || window <= 0 ||
	    (search != NULL) != (result != NULL))
		lazy_usage();
	signal(SIGPIPE, SIG_IGN);

	base = lazy_lines(log);
	t0 = lazy_now();
	lazy_spawn(&l, argv);
	if (!lazy_read(&l, window * 1000, first))
		lazy_fatal("no \"%s\" on the screen in %d s", first, window);
	t = lazy_now() - t0;
	printf("videos-bench: first screen (\"%s\" shown) %.0f ms after "
	    "start (target <= 300)\n", first, t);
	lazy_read(&l, (int)(window * 1000 - (lazy_now() - t0)), NULL);
	if (log != NULL)
		printf("videos-bench: %ld requests in the first %d s (target "
		    "<= 60, 5%% of 1200 per 5 minutes)\n", lazy_lines(log) -
		    base, window);
	printf("videos-bench: console peak RSS %.1f MB after %d s (target "
	    "<= 64)\n", lazy_status_kb(l.pid, "VmHWM:") / 1024.0, window);
	if (search != NULL) {
		l.len = 0;
		if (write(l.fd, "/", 1) != 1)
			lazy_fatal("write: %s", strerror(errno));
		lazy_read(&l, 300, NULL);
		l.len = 0;
		t0 = lazy_now();
		if (write(l.fd, search, strlen(search)) < 0 ||
		    write(l.fd, "\r", 1) != 1)
			lazy_fatal("write: %s", strerror(errno));
		if (!lazy_read(&l, 30000, result))
			lazy_fatal("no \"%s\" after the search", result);
		printf("videos-bench: search \"%s\" in the console: %.0f ms "
		    "from Enter to its first row\n", search, lazy_now() - t0);
		printf("videos-bench: console peak RSS %.1f MB at the end\n",
		    lazy_status_kb(l.pid, "VmHWM:") / 1024.0);
	}
	kill(l.pid, SIGTERM);
	waitpid(l.pid, &status, 0);
	return (0);
}
