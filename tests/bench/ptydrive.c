/*
 * console-bench's driver: runs the console on a 120x40 pseudo-terminal,
 * waits for its list to load, then sends keys and measures each burst of
 * output (bytes, time to its first and last byte, CPU). Prints numbers;
 * asserts nothing. Linux only: it reads /proc.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define DRIVE_ROWS		40
#define DRIVE_COLS		120
/* The list's rows: the screen less header, title, column line, status. */
#define DRIVE_LIST_ROWS		(DRIVE_ROWS - 4)
#define DRIVE_FIRST_MS		2000	/* a key's output must start by then */
#define DRIVE_ECHO_ROUNDS	200
#define DRIVE_MAX_SAMPLES	1024

static const char	 drive_down[] = "j";
static const char	 drive_pgdn[] = "\033[6~";

struct drive {
	int		 fd;
	pid_t		 pid;
	int		 quiet_ms;
	int		 gone;		/* the console exited */
	FILE		*dump;
};

struct sample {
	size_t		 bytes;
	double		 first_ms;	/* write to the first byte */
	double		 last_ms;	/* write to the burst's last byte */
	double		 cpu_ms;	/* the console's CPU time meanwhile */
};

struct series {
	const char	*name;
	struct sample	 s[DRIVE_MAX_SAMPLES];
	size_t		 n;
};

static __dead printflike(1, 2) void
drive_fatal(const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "ptydrive: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static double
drive_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

/* CPU time of all the console's threads, in ms, from schedstat (ns). */
static double
drive_cpu(pid_t pid)
{
	char			 path[64], sub[384];
	DIR			*d;
	struct dirent		*de;
	FILE			*f;
	unsigned long long	 ns, total = 0;

	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	if ((d = opendir(path)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(sub, sizeof sub, "%s/%s/schedstat", path, de->d_name);
		if ((f = fopen(sub, "r")) == NULL)
			continue;
		if (fscanf(f, "%llu", &ns) == 1)
			total += ns;
		fclose(f);
	}
	closedir(d);
	return (total / 1e6);
}

/* A line of /proc/PID/status in kB, or -1. */
static long
drive_status_kb(pid_t pid, const char *field)
{
	char	 path[64], line[256];
	FILE	*f;
	size_t	 len = strlen(field);
	long	 kb = -1;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, field, len) == 0 && line[len] == ':') {
			kb = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return (kb);
}

/* Lines of FILE holding PATTERN. */
static long
drive_count_lines(const char *file, const char *pattern)
{
	char	 line[4096];
	FILE	*f;
	long	 n = 0;

	if ((f = fopen(file, "r")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL)
		if (strstr(line, pattern) != NULL)
			n++;
	fclose(f);
	return (n);
}

/* The output in C-string form, for reading where the bytes go. */
static void
drive_dump(FILE *f, const char *what, const char *buf, size_t len)
{
	size_t	i;

	fprintf(f, "--- %s: %zu bytes\n", what, len);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == 033)
			fputs("\\e", f);
		else if (c == '\n')
			fputs("\\n\n", f);
		else if (c < 32 || c == 127)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('\n', f);
}

/*
 * Read until nothing came for quiet_ms (or first_ms before the first
 * byte), or for max_ms in all if that is not 0; times are from t0.
 * Returns the bytes read.
 */
static size_t
drive_read_burst(struct drive *d, double t0, int first_ms, int max_ms,
    double *first, double *last, char *keep, size_t keepsz, size_t *kept)
{
	struct pollfd	 pfd;
	char		 buf[65536];
	double		 mark = t0, t;
	size_t		 total = 0;
	ssize_t		 n;
	int		 wait;

	*first = *last = -1;
	for (;;) {
		wait = (int)((total == 0 ? first_ms : d->quiet_ms) -
		    (drive_now() - mark));
		if (max_ms > 0 && wait > max_ms - (drive_now() - t0))
			wait = (int)(max_ms - (drive_now() - t0));
		if (wait <= 0 || d->gone)
			break;
		pfd.fd = d->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, wait) == -1) {
			if (errno == EINTR)
				continue;
			drive_fatal("poll: %s", strerror(errno));
		}
		if (pfd.revents == 0)
			continue;
		if ((n = read(d->fd, buf, sizeof buf)) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			d->gone = 1;	/* EIO: no process holds the terminal */
			break;
		}
		t = drive_now();
		if (total == 0)
			*first = t - t0;
		*last = t - t0;
		mark = t;
		if (keep != NULL && *kept < keepsz) {
			size_t c = (size_t)n < keepsz - *kept ?
			    (size_t)n : keepsz - *kept;
			memcpy(keep + *kept, buf, c);
			*kept += c;
		}
		total += (size_t)n;
	}
	return (total);
}

static void
drive_key(struct drive *d, const char *key, struct series *sr,
    const char *dump_as)
{
	struct sample	*s = &sr->s[sr->n];
	static char	 keep[65536];
	size_t		 kept = 0;
	double		 t0, cpu0;

	if (sr->n == DRIVE_MAX_SAMPLES)
		drive_fatal("too many samples");
	cpu0 = drive_cpu(d->pid);
	t0 = drive_now();
	if (write(d->fd, key, strlen(key)) != (ssize_t)strlen(key))
		drive_fatal("write: %s", strerror(errno));
	s->bytes = drive_read_burst(d, t0, DRIVE_FIRST_MS, 0, &s->first_ms,
	    &s->last_ms, dump_as != NULL && d->dump != NULL ? keep : NULL,
	    sizeof keep, &kept);
	s->cpu_ms = drive_cpu(d->pid) - cpu0;
	if (d->gone)
		drive_fatal("the console exited");
	if (dump_as != NULL && d->dump != NULL)
		drive_dump(d->dump, dump_as, keep, kept);
	if (d->dump != NULL && sr->name != NULL)
		fprintf(d->dump, "%s %zu: %zu bytes, first %.3f ms, last %.3f "
		    "ms, cpu %.3f ms\n", sr->name, sr->n + 1, s->bytes,
		    s->first_ms, s->last_ms, s->cpu_ms);
	sr->n++;
}

/* Send a key whose output is not measured. */
static void
drive_send(struct drive *d, const char *key)
{
	struct series	*sr;

	sr = calloc(1, sizeof *sr);
	if (sr == NULL)
		drive_fatal("out of memory");
	drive_key(d, key, sr, NULL);
	free(sr);
}

/* ---- statistics -------------------------------------------------------- */

static int
drive_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* Nearest-rank percentile of field OFF of samples FROM..TO-1. */
static double
drive_pct(const struct series *sr, size_t from, size_t to, size_t off,
    double pct)
{
	double	v[DRIVE_MAX_SAMPLES];
	size_t	i, n = 0, rank;

	for (i = from; i < to && i < sr->n; i++) {
		const char *p = (const char *)&sr->s[i] + off;
		if (off == offsetof(struct sample, bytes))
			v[n++] = (double)*(const size_t *)p;
		else
			v[n++] = *(const double *)p;
	}
	if (n == 0)
		return (-1);
	qsort(v, n, sizeof *v, drive_cmp);
	rank = (size_t)(pct / 100.0 * n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (v[rank - 1]);
}

#define DRIVE_BYTES	offsetof(struct sample, bytes)
#define DRIVE_FIRST	offsetof(struct sample, first_ms)
#define DRIVE_LAST	offsetof(struct sample, last_ms)
#define DRIVE_CPU	offsetof(struct sample, cpu_ms)

static void
drive_bytes_line(const char *what, const struct series *sr, size_t from,
    size_t to, const char *target)
{
	printf("console-bench: %s bytes median %.0f (min %.0f, max %.0f; "
	    "%zu keys%s%s)\n", what, drive_pct(sr, from, to, DRIVE_BYTES, 50),
	    drive_pct(sr, from, to, DRIVE_BYTES, 0),
	    drive_pct(sr, from, to, DRIVE_BYTES, 100),
	    (to < sr->n ? to : sr->n) - from, target != NULL ? "; " : "",
	    target != NULL ? target : "");
}

static void
drive_time_line(const char *what, const struct series *sr, size_t from,
    size_t to, const char *target)
{
	printf("console-bench: %s: last byte p50 %.3f ms p99 %.3f ms; first "
	    "byte p50 %.3f p99 %.3f; console CPU p50 %.3f p99 %.3f ms%s%s\n",
	    what, drive_pct(sr, from, to, DRIVE_LAST, 50),
	    drive_pct(sr, from, to, DRIVE_LAST, 99),
	    drive_pct(sr, from, to, DRIVE_FIRST, 50),
	    drive_pct(sr, from, to, DRIVE_FIRST, 99),
	    drive_pct(sr, from, to, DRIVE_CPU, 50),
	    drive_pct(sr, from, to, DRIVE_CPU, 99),
	    target != NULL ? " " : "", target != NULL ? target : "");
}

/* ---- phases ------------------------------------------------------------ */

static void
drive_child(char **argv)
{
	setenv("TERM", "xterm-256color", 1);
	setenv("LANG", "C.UTF-8", 1);
	unsetenv("LC_ALL");
	unsetenv("LC_CTYPE");
	/* curses would take these over the terminal's size. */
	unsetenv("LINES");
	unsetenv("COLUMNS");
	execvp(argv[0], argv);
	fprintf(stderr, "ptydrive: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static pid_t
drive_spawn(int *fd, char **argv)
{
	struct winsize	ws;
	pid_t		pid;

	memset(&ws, 0, sizeof ws);
	ws.ws_row = DRIVE_ROWS;
	ws.ws_col = DRIVE_COLS;
	if ((pid = forkpty(fd, NULL, NULL, &ws)) == -1)
		drive_fatal("forkpty: %s", strerror(errno));
	if (pid == 0)
		drive_child(argv);
	return (pid);
}

/*
 * Loaded: LOG holds COUNT more lines with PATTERN than at the start (the
 * server answered every page), then the terminal was quiet for load_ms.
 * Without a log: quiet for load_ms twice in a row.
 */
static void
drive_wait_loaded(struct drive *d, const char *log, const char *pattern,
    long count, int load_ms, int timeout_s)
{
	double	 t0 = drive_now(), f, l, seen = -1;
	long	 base = log != NULL ? drive_count_lines(log, pattern) : 0;
	int	 saved = d->quiet_ms, quiet = 0;
	size_t	 n;

	while (seen < 0 && log != NULL) {
		drive_read_burst(d, drive_now(), 100, 100, &f, &l, NULL, 0,
		    NULL);
		if (d->gone)
			drive_fatal("the console exited while loading");
		if (drive_count_lines(log, pattern) - base >= count)
			seen = drive_now() - t0;
		if (drive_now() - t0 > timeout_s * 1e3)
			drive_fatal("no %ld requests in %d s", count,
			    timeout_s);
	}
	d->quiet_ms = load_ms;
	while (quiet < (log != NULL ? 1 : 2)) {
		n = drive_read_burst(d, drive_now(), load_ms, 0, &f, &l, NULL,
		    0, NULL);
		if (d->gone)
			drive_fatal("the console exited while loading");
		quiet = n == 0 ? quiet + 1 : 0;
		if (drive_now() - t0 > timeout_s * 1e3)
			drive_fatal("the terminal was never quiet in %d s",
			    timeout_s);
	}
	d->quiet_ms = saved;
	if (seen >= 0)
		printf("console-bench: loaded: the %ld list requests answered "
		    "after %.1f s; terminal quiet %.1f s after start\n", count,
		    seen / 1e3, (drive_now() - t0 - load_ms) / 1e3);
	else
		printf("console-bench: terminal quiet %.1f s after start\n",
		    (drive_now() - t0 - 2.0 * load_ms) / 1e3);
}

static void
drive_rss(struct drive *d, const char *when, int target)
{
	long	hwm = drive_status_kb(d->pid, "VmHWM");
	long	rss = drive_status_kb(d->pid, "VmRSS");

	printf("console-bench: rss %.1f MB %s (VmHWM; VmRSS %.1f MB)",
	    hwm / 1024.0, when, rss / 1024.0);
	if (target)
		printf(" (target <= 64)");
	printf("\n");
}

static void
drive_moves(struct drive *d, int keys)
{
	struct series	*down, *pgdn;
	size_t		 split = DRIVE_LIST_ROWS - 1, i;
	char		 what[64];

	if ((down = calloc(1, sizeof *down)) == NULL ||
	    (pgdn = calloc(1, sizeof *pgdn)) == NULL)
		drive_fatal("out of memory");
	down->name = "down";
	pgdn->name = "pgdn";
	for (i = 0; i < (size_t)keys; i++) {
		snprintf(what, sizeof what, "down %zu", i + 1);
		drive_key(d, drive_down, down, i == 0 || i == split ? what :
		    NULL);
	}
	for (i = 0; i < (size_t)keys; i++)
		drive_key(d, drive_pgdn, pgdn, i == 0 ? "pgdn 1" : NULL);

	drive_bytes_line("down", down, 0, down->n, "target <= 200");
	if (down->n > split) {
		drive_bytes_line("  down, cursor moving on the page", down, 0,
		    split, NULL);
		drive_bytes_line("  down, the list scrolling", down, split,
		    down->n, NULL);
	}
	drive_bytes_line("pgdn", pgdn, 0, pgdn->n, NULL);
	drive_time_line("pgdn, time to draw a page", pgdn, 0, pgdn->n,
	    "(target <= 1 ms)");
	drive_time_line("down, keypress to screen", down, 0, down->n,
	    NULL);
	free(down);
	free(pgdn);
}

static void
drive_filter(struct drive *d, const char *filter, int rounds)
{
	struct series	*typed, *erased, *all;
	size_t		 len = strlen(filter), i;
	int		 r;
	char		 key[2] = { 0, 0 };

	if ((typed = calloc(1, sizeof *typed)) == NULL ||
	    (erased = calloc(1, sizeof *erased)) == NULL ||
	    (all = calloc(1, sizeof *all)) == NULL)
		drive_fatal("out of memory");
	typed->name = "typed";
	erased->name = "backspace";
	for (r = 0; r < rounds; r++) {
		drive_send(d, "/");
		for (i = 0; i < len; i++) {
			key[0] = filter[i];
			drive_key(d, key, typed, r == 0 && i == 0 ?
			    "filter, first character" : NULL);
		}
		for (i = 0; i < len; i++)
			drive_key(d, "\177", erased, NULL);
		drive_send(d, "\033");
	}
	for (i = 0; i < typed->n; i++)
		all->s[all->n++] = typed->s[i];
	for (i = 0; i < erased->n; i++)
		all->s[all->n++] = erased->s[i];
	printf("console-bench: filter \"%s\", %d rounds:\n", filter, rounds);
	drive_time_line("  filter keystroke (typing and backspace)", all, 0,
	    all->n, "(target p99 <= 16 ms)");
	drive_time_line("  typing", typed, 0, typed->n, NULL);
	drive_time_line("  backspace", erased, 0, erased->n, NULL);
	drive_bytes_line("  filter keystroke", all, 0, all->n, NULL);
	free(typed);
	free(erased);
	free(all);
}

/*
 * The floor under every time above: a raw echo child on the same kind of
 * terminal, one byte there and back.
 */
static void
drive_echo_child(void)
{
	struct termios	tio;
	char		buf[256];
	ssize_t		n;

	if (tcgetattr(STDIN_FILENO, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(STDIN_FILENO, TCSANOW, &tio);
	}
	while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0)
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			break;
	_exit(0);
}

static void
drive_echo_baseline(FILE *dump)
{
	struct winsize	 ws;
	struct drive	 d;
	struct series	*sr;
	int		 i, status;

	memset(&ws, 0, sizeof ws);
	ws.ws_row = DRIVE_ROWS;
	ws.ws_col = DRIVE_COLS;
	memset(&d, 0, sizeof d);
	d.dump = dump;
	if ((sr = calloc(1, sizeof *sr)) == NULL)
		drive_fatal("out of memory");
	if ((d.pid = forkpty(&d.fd, NULL, NULL, &ws)) == -1)
		drive_fatal("forkpty: %s", strerror(errno));
	if (d.pid == 0)
		drive_echo_child();
	d.quiet_ms = 20;	/* one byte comes back in one piece */
	usleep(200000);		/* the child in raw mode */
	sr->name = "echo";
	for (i = 0; i < DRIVE_ECHO_ROUNDS; i++)
		drive_key(&d, "x", sr, NULL);
	drive_time_line("pty round trip, raw echo child (the floor)", sr, 0,
	    sr->n, NULL);
	close(d.fd);
	kill(d.pid, SIGTERM);
	waitpid(d.pid, &status, 0);
	free(sr);
}

static void
drive_quit(struct drive *d)
{
	double	 f, l, t0 = drive_now();
	int	 status;

	if (write(d->fd, "q", 1) != 1)
		drive_fatal("write: %s", strerror(errno));
	/* Keep the terminal drained so the console can write and exit. */
	while (!d->gone && drive_now() - t0 < 5000)
		drive_read_burst(d, drive_now(), 100, 100, &f, &l, NULL, 0,
		    NULL);
	if (!d->gone) {
		fprintf(stderr, "ptydrive: the console did not quit; "
		    "SIGTERM\n");
		kill(d->pid, SIGTERM);
	}
	waitpid(d->pid, &status, 0);
	close(d->fd);
}

static __dead void
drive_usage(void)
{
	fprintf(stderr, "usage: ptydrive [-d dumpfile] [-f filter] "
	    "[-k keys] [-r rounds]\n\t[-l log -p pattern -n count] "
	    "[-w load-quiet-ms] -- command [arg ...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct drive	 d;
	const char	*log = NULL, *pattern = NULL, *filter = "items/";
	long		 count = 0;
	int		 ch, keys = 50, rounds = 20, load_ms = 2000;

	memset(&d, 0, sizeof d);
	d.quiet_ms = 200;
	while ((ch = getopt(argc, argv, "d:f:k:l:n:p:r:w:")) != -1) {
		switch (ch) {
		case 'd':
			if ((d.dump = fopen(optarg, "w")) == NULL)
				drive_fatal("%s: %s", optarg, strerror(errno));
			break;
		case 'f': filter = optarg; break;
		case 'k': keys = atoi(optarg); break;
		case 'l': log = optarg; break;
		case 'n': count = atol(optarg); break;
		case 'p': pattern = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'w': load_ms = atoi(optarg); break;
		default: drive_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0 || (log != NULL && (pattern == NULL || count <= 0)) ||
	    keys <= 0 || keys > DRIVE_MAX_SAMPLES || rounds <= 0 ||
	    (size_t)rounds * strlen(filter) > DRIVE_MAX_SAMPLES / 2)
		drive_usage();
	unsetenv("NO_COLOR");
	unsetenv("ESCDELAY");
	signal(SIGPIPE, SIG_IGN);

	d.pid = drive_spawn(&d.fd, argv);
	drive_wait_loaded(&d, log, pattern, count, load_ms, 600);
	drive_rss(&d, "after the list loaded", 1);
	drive_moves(&d, keys);
	drive_filter(&d, filter, rounds);
	drive_rss(&d, "at the end", 0);
	drive_quit(&d);
	drive_echo_baseline(d.dump);
	if (d.dump != NULL)
		fclose(d.dump);
	return (0);
}
