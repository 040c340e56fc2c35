/*
 * console-bench's driver: runs the console on a 120x40 pseudo-terminal,
 * waits for its list to load, then sends keys and measures each burst of
 * output (bytes, time to its first and last byte, CPU). Prints numbers;
 * asserts nothing. Linux only: it reads /proc.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
/* console-upload-bench: */
#define DRIVE_KEY_QUIET_MS	30	/* a j/k burst ends after this quiet */
#define DRIVE_POLL_MS		2	/* the log is read this often */
#define DRIVE_GAP_MS		50	/* output further apart: two redraws */
#define DRIVE_UPLOAD_MAX_S	600
#define DRIVE_PROBE_MS		20	/* a key this late: look at the console */

/* Where the numbers go: console-bench's lines or console-upload-bench's. */
static const char	*drive_prog = "console-bench";
static const char	 drive_down[] = "j";
static const char	 drive_pgdn[] = "\033[6~";

struct drive {
	int		 fd;
	pid_t		 pid;
	int		 quiet_ms;
	int		 gone;		/* the console exited */
	FILE		*dump;
	int		 probe_ms;	/* look at a late key's console then */
	char		 probe[1024];	/* what it was doing, for the dump */
	long		 csw0;		/* main thread's switches at the key */
	int		 late_unwoken;	/* asleep, not woken since the key */
	int		 late_poll;	/* asleep in poll, woken meanwhile */
	int		 late_run;	/* running or runnable */
	int		 late_other;	/* asleep elsewhere */
};

struct sample {
	size_t		 bytes;
	double		 first_ms;	/* write to the first byte */
	double		 last_ms;	/* write to the burst's last byte */
	double		 cpu_ms;	/* the console's CPU time meanwhile */
	double		 runq_ms;	/* its main thread's wait for a CPU */
	double		 self_ms;	/* this driver's wait for a CPU */
	double		 main_ms;	/* the console's main thread's CPU */
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

/*
 * CPU time of all the console's threads, in ms, from schedstat (ns); the
 * time its main thread (the one that draws) was runnable but waiting for a
 * CPU into *runq.
 */
static double
drive_cpu(pid_t pid, double *runq)
{
	char			 path[64], sub[384];
	DIR			*d;
	struct dirent		*de;
	FILE			*f;
	unsigned long long	 ns, wait, total = 0, waited = 0;

	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	*runq = 0;
	if ((d = opendir(path)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(sub, sizeof sub, "%s/%s/schedstat", path, de->d_name);
		if ((f = fopen(sub, "r")) == NULL)
			continue;
		if (fscanf(f, "%llu %llu", &ns, &wait) == 2) {
			total += ns;
			if (strtol(de->d_name, NULL, 10) == (long)pid)
				waited += wait;
		}
		fclose(f);
	}
	closedir(d);
	*runq = waited / 1e6;
	return (total / 1e6);
}

/*
 * CPU time of the whole console in ms, from /proc/PID/stat: unlike
 * schedstat it keeps the time of threads that have ended (an upload's).
 */
static double
drive_proc_cpu(pid_t pid)
{
	char		 path[64], buf[1024], *p;
	FILE		*f;
	unsigned long	 utime, stime;
	size_t		 n;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* Fields 14 and 15, counted from the state after the name's ')'. */
	if ((p = strrchr(buf, ')')) == NULL || sscanf(p + 1, " %*c %*d %*d "
	    "%*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
		return (0);
	return ((utime + stime) * 1e3 / sysconf(_SC_CLK_TCK));
}

/* The context switches of the console's main thread so far, or -1. */
static long
drive_switches(pid_t pid)
{
	char	 path[96], line[256];
	FILE	*f;
	long	 n = 0, v;
	int	 seen = 0;

	snprintf(path, sizeof path, "/proc/%ld/task/%ld/status", (long)pid,
	    (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1) {
			n += v;
			seen++;
		}
	}
	fclose(f);
	return (seen == 2 ? n : -1);
}

/* This driver's wait for a CPU, in ms: it too may read the output late. */
static double
drive_self_runq(void)
{
	FILE			*f;
	unsigned long long	 ns, wait = 0;

	if ((f = fopen("/proc/thread-self/schedstat", "r")) == NULL)
		return (0);
	if (fscanf(f, "%llu %llu", &ns, &wait) != 2)
		wait = 0;
	fclose(f);
	return (wait / 1e6);
}

/* CPU time of the console's main thread (the one that draws), in ms. */
static double
drive_main_cpu(pid_t pid)
{
	char			 path[96];
	FILE			*f;
	unsigned long long	 ns = 0;

	snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", (long)pid,
	    (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return (ns / 1e6);
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

/* A file's first line into out (newline dropped), or "?". */
static void
drive_first_line(const char *path, char *out, size_t len)
{
	FILE	*f;
	size_t	 n;

	snprintf(out, len, "?");
	if ((f = fopen(path, "r")) == NULL)
		return;
	if (fgets(out, (int)len, f) == NULL)
		snprintf(out, len, "?");
	fclose(f);
	n = strcspn(out, "\n");
	out[n] = '\0';
}

/*
 * A key's output is late: what the console's main thread is doing (its
 * state, the syscall it is in, where the kernel has it sleeping), so the
 * dump tells waiting for a CPU from sleeping on something.
 */
static void
drive_probe(struct drive *d)
{
	char	 base[64], path[96], line[512], sc[128], wchan[64], stack[256];
	char	*p, state = '?';
	FILE	*f;
	size_t	 n = 0, used = 0;
	long	 csw;

	snprintf(base, sizeof base, "/proc/%ld/task/%ld", (long)d->pid,
	    (long)d->pid);
	snprintf(path, sizeof path, "%s/stat", base);
	drive_first_line(path, line, sizeof line);
	if ((p = strrchr(line, ')')) != NULL && p[1] == ' ')
		state = p[2];
	snprintf(path, sizeof path, "%s/syscall", base);
	drive_first_line(path, sc, sizeof sc);
	if ((p = strchr(sc, ' ')) != NULL)
		*p = '\0';		/* the number; the arguments are noise */
	snprintf(path, sizeof path, "%s/wchan", base);
	drive_first_line(path, wchan, sizeof wchan);
	/* The innermost three frames, "[<0>] name+off/len" each. */
	stack[0] = '\0';
	snprintf(path, sizeof path, "%s/stack", base);
	if ((f = fopen(path, "r")) != NULL) {
		while (n < 3 && fgets(line, sizeof line, f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			p = strchr(line, ' ') != NULL ? strchr(line, ' ') + 1 :
			    line;
			used += (size_t)snprintf(stack + used, sizeof stack -
			    used, "%s%s", n > 0 ? " < " : "", p);
			if (used >= sizeof stack)
				break;
			n++;
		}
		fclose(f);
	}
	snprintf(d->probe, sizeof d->probe, "state %c, syscall %s, wchan %s, "
	    "stack %s", state, sc, wchan, stack[0] != '\0' ? stack : "-");
	csw = drive_switches(d->pid);
	if (state == 'R')
		d->late_run++;
	else if (strstr(wchan, "poll") != NULL && csw == d->csw0 && csw != -1)
		d->late_unwoken++;
	else if (strstr(wchan, "poll") != NULL)
		d->late_poll++;
	else
		d->late_other++;
	n = strlen(d->probe);
	if (csw == d->csw0)
		snprintf(d->probe + n, sizeof d->probe - n, "; not woken since "
		    "the key");
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
	int		 wait, probed = 0;

	*first = *last = -1;
	d->probe[0] = '\0';
	for (;;) {
		wait = (int)((total == 0 ? first_ms : d->quiet_ms) -
		    (drive_now() - mark));
		if (max_ms > 0 && wait > max_ms - (drive_now() - t0))
			wait = (int)(max_ms - (drive_now() - t0));
		if (wait <= 0 || d->gone)
			break;
		if (d->probe_ms > 0 && total == 0 && !probed) {
			if (drive_now() - t0 >= d->probe_ms) {
				drive_probe(d);
				probed = 1;
			} else if (wait > d->probe_ms - (drive_now() - t0))
				wait = (int)(d->probe_ms -
				    (drive_now() - t0)) + 1;
		}
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
	double		 t0, cpu0, runq0, runq, self0, main0;

	if (sr->n == DRIVE_MAX_SAMPLES)
		drive_fatal("too many samples");
	cpu0 = drive_cpu(d->pid, &runq0);
	self0 = drive_self_runq();
	main0 = drive_main_cpu(d->pid);
	if (d->probe_ms > 0)
		d->csw0 = drive_switches(d->pid);
	t0 = drive_now();
	if (write(d->fd, key, strlen(key)) != (ssize_t)strlen(key))
		drive_fatal("write: %s", strerror(errno));
	s->bytes = drive_read_burst(d, t0, DRIVE_FIRST_MS, 0, &s->first_ms,
	    &s->last_ms, dump_as != NULL && d->dump != NULL ? keep : NULL,
	    sizeof keep, &kept);
	s->cpu_ms = drive_cpu(d->pid, &runq) - cpu0;
	s->runq_ms = runq - runq0;
	s->self_ms = drive_self_runq() - self0;
	s->main_ms = drive_main_cpu(d->pid) - main0;
	if (d->gone)
		drive_fatal("the console exited");
	if (dump_as != NULL && d->dump != NULL)
		drive_dump(d->dump, dump_as, keep, kept);
	if (d->dump != NULL && sr->name != NULL)
		fprintf(d->dump, "%s %zu: %zu bytes, first %.3f ms, last %.3f "
		    "ms, cpu %.3f ms (main thread %.3f), runq %.3f ms, driver "
		    "runq %.3f ms%s%s\n", sr->name, sr->n + 1, s->bytes,
		    s->first_ms, s->last_ms, s->cpu_ms, s->main_ms, s->runq_ms,
		    s->self_ms, d->probe[0] != '\0' ? "; late, the console: " :
		    "", d->probe);
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
#define DRIVE_RUNQ	offsetof(struct sample, runq_ms)
#define DRIVE_SELF	offsetof(struct sample, self_ms)

static void
drive_bytes_line(const char *what, const struct series *sr, size_t from,
    size_t to, const char *target)
{
	printf("%s: %s bytes median %.0f (min %.0f, max %.0f; %zu keys%s%s)\n",
	    drive_prog, what, drive_pct(sr, from, to, DRIVE_BYTES, 50),
	    drive_pct(sr, from, to, DRIVE_BYTES, 0),
	    drive_pct(sr, from, to, DRIVE_BYTES, 100),
	    (to < sr->n ? to : sr->n) - from, target != NULL ? "; " : "",
	    target != NULL ? target : "");
}

static void
drive_time_line(const char *what, const struct series *sr, size_t from,
    size_t to, const char *target)
{
	printf("%s: %s: last byte p50 %.3f ms p99 %.3f ms; first "
	    "byte p50 %.3f p99 %.3f; console CPU p50 %.3f p99 %.3f ms%s%s\n",
	    drive_prog, what, drive_pct(sr, from, to, DRIVE_LAST, 50),
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
		printf("%s: loaded: the %ld list requests answered "
		    "after %.1f s; terminal quiet %.1f s after start\n",
		    drive_prog, count,
		    seen / 1e3, (drive_now() - t0 - load_ms) / 1e3);
	else
		printf("%s: terminal quiet %.1f s after start\n", drive_prog,
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

/* ---- an upload through the console (console-upload-bench) ------------- */

/* New lines of edgemu's -v log as they come, counting those with pattern. */
struct tail {
	int		 fd;
	const char	*pattern;
	char		 line[4096];
	size_t		 len;
	long		 hits;
};

struct upload {
	const char	*file;
	long long	 size;
	struct tail	 tail;		/* the last PATCH's line ends it */
	pid_t		 pid;		/* the console */
	double		 t0;		/* the final Enter's write */
	double		 done_ms;	/* -1 until that line is logged */
	double		 cpu_ms;	/* the console's, all threads */
	double		 main_ms;	/* its main thread's */
	size_t		 bytes;		/* to the terminal meanwhile */
	size_t		 redraws;
};

static void
drive_tail_open(struct tail *tl, const char *file, const char *pattern)
{
	memset(tl, 0, sizeof *tl);
	tl->pattern = pattern;
	if ((tl->fd = open(file, O_RDONLY)) == -1)
		drive_fatal("%s: %s", file, strerror(errno));
	/* Only what is logged from now on counts. */
	if (lseek(tl->fd, 0, SEEK_END) == -1)
		drive_fatal("%s: %s", file, strerror(errno));
}

static void
drive_tail_read(struct tail *tl)
{
	char	 buf[8192];
	ssize_t	 n, i;

	while ((n = read(tl->fd, buf, sizeof buf)) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (tl->len < sizeof tl->line - 1)
					tl->line[tl->len++] = buf[i];
				continue;
			}
			tl->line[tl->len] = '\0';
			if (strstr(tl->line, tl->pattern) != NULL)
				tl->hits++;
			tl->len = 0;
		}
	}
}

static void
drive_upload_check(struct upload *up)
{
	if (up->done_ms >= 0)
		return;
	drive_tail_read(&up->tail);
	if (up->tail.hits > 0) {
		up->done_ms = drive_now() - up->t0;
		up->cpu_ms += drive_proc_cpu(up->pid);
		up->main_ms += drive_main_cpu(up->pid);
	}
}

/*
 * Drain the terminal for ms (or until the upload is over, if until_done),
 * looking for the upload's end every DRIVE_POLL_MS. Bytes and redraws (reads
 * DRIVE_GAP_MS apart) go to *bytes and *redraws if not NULL, and to the
 * upload's own counts while it runs.
 */
static void
drive_pump(struct drive *d, struct upload *up, double ms, int until_done,
    size_t *bytes, size_t *redraws)
{
	struct pollfd	 pfd;
	char		 buf[65536];
	double		 start = drive_now(), t, last = -1e9;
	ssize_t		 n;

	while (!d->gone) {
		drive_upload_check(up);
		if ((until_done && up->done_ms >= 0) ||
		    (!until_done && drive_now() - start >= ms))
			break;
		pfd.fd = d->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, DRIVE_POLL_MS) == -1) {
			if (errno == EINTR)
				continue;
			drive_fatal("poll: %s", strerror(errno));
		}
		if (pfd.revents == 0)
			continue;
		if ((n = read(d->fd, buf, sizeof buf)) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			d->gone = 1;
			break;
		}
		t = drive_now();
		if (bytes != NULL && d->dump != NULL)
			drive_dump(d->dump, "quiet window", buf, (size_t)n);
		if (bytes != NULL)
			*bytes += (size_t)n;
		if (redraws != NULL && t - last >= DRIVE_GAP_MS)
			(*redraws)++;
		if (up->done_ms < 0) {
			up->bytes += (size_t)n;
			if (t - last >= DRIVE_GAP_MS)
				up->redraws++;
		}
		last = t;
	}
	if (d->gone)
		drive_fatal("the console exited during the upload");
}

/*
 * j and k in turn, one every every_ms while the upload runs, each timed to
 * the last byte of its burst; a burst ends after DRIVE_KEY_QUIET_MS without
 * output (console-bench's 200 ms would not fit between two keys).
 */
static void
drive_upload_keys(struct drive *d, struct upload *up, int keys, int every_ms)
{
	struct series	*sr;
	int		 saved = d->quiet_ms, i;
	double		 t0;
	char		 what[192];

	if ((sr = calloc(1, sizeof *sr)) == NULL)
		drive_fatal("out of memory");
	sr->name = "j/k";
	d->quiet_ms = DRIVE_KEY_QUIET_MS;
	d->probe_ms = DRIVE_PROBE_MS;
	d->late_unwoken = d->late_poll = d->late_run = d->late_other = 0;
	for (i = 0; i < keys && up->done_ms < 0; i++) {
		t0 = drive_now();
		drive_key(d, i % 2 == 0 ? "j" : "k", sr, i == 0 ?
		    "j while uploading" : NULL);
		/* Its burst may hold the redraw of the upload's end. */
		drive_upload_check(up);
		if (up->done_ms >= 0) {
			sr->n--;
			break;
		}
		drive_pump(d, up, every_ms - (drive_now() - t0), 0, NULL,
		    NULL);
	}
	d->quiet_ms = saved;
	d->probe_ms = 0;
	/* The console's CPU there counts the upload's thread too. */
	snprintf(what, sizeof what, "j/k every %d ms while uploading, "
	    "keypress to screen (%zu keys%s; CPU with the upload's thread)",
	    every_ms, sr->n, up->done_ms >= 0 ? ", the upload ended first" :
	    "");
	drive_time_line(what, sr, 0, sr->n, "(target p99 <= 50 ms)");
	drive_bytes_line("  j/k", sr, 0, sr->n, NULL);
	/* A slow key with little CPU: the console waited for a CPU, or not. */
	printf("%s:   j/k, the console's main thread waiting for a CPU: p50 "
	    "%.3f ms p99 %.3f ms max %.3f ms\n", drive_prog,
	    drive_pct(sr, 0, sr->n, DRIVE_RUNQ, 50),
	    drive_pct(sr, 0, sr->n, DRIVE_RUNQ, 99),
	    drive_pct(sr, 0, sr->n, DRIVE_RUNQ, 100));
	printf("%s:   j/k, this driver waiting for a CPU: p50 %.3f ms p99 "
	    "%.3f ms max %.3f ms\n", drive_prog,
	    drive_pct(sr, 0, sr->n, DRIVE_SELF, 50),
	    drive_pct(sr, 0, sr->n, DRIVE_SELF, 99),
	    drive_pct(sr, 0, sr->n, DRIVE_SELF, 100));
	printf("%s:   j/k with no output after %d ms: %d; the console's main "
	    "thread then: asleep in poll, not woken since the key was written "
	    "(the key still in the kernel's pty) %d; asleep in poll, woken "
	    "meanwhile (its output in the pty, or not the key yet) %d; running "
	    "or runnable %d; asleep elsewhere %d\n", drive_prog,
	    DRIVE_PROBE_MS, d->late_unwoken + d->late_poll + d->late_run +
	    d->late_other, d->late_unwoken, d->late_poll, d->late_run,
	    d->late_other);
	free(sr);
}

/* What the terminal gets while no key is pressed, mid-upload. */
static void
drive_upload_window(struct drive *d, struct upload *up, int window_ms)
{
	size_t	bytes = 0, redraws = 0;

	/* The last key's redraw and the progress it held back. */
	drive_pump(d, up, 1000, 0, NULL, NULL);
	if (up->done_ms >= 0) {
		printf("%s: no quiet window: the upload ended first\n",
		    drive_prog);
		return;
	}
	drive_pump(d, up, window_ms, 0, &bytes, &redraws);
	printf("%s: quiet window of %.1f s mid-upload: %zu bytes, %.0f B/s, "
	    "%zu redraws (%.1f a second)%s (target <= 2048 B/s)\n",
	    drive_prog, window_ms / 1e3, bytes, bytes * 1e3 / window_ms,
	    redraws, redraws * 1e3 / window_ms, up->done_ms >= 0 ?
	    "; the upload ended inside it" : "");
}

/* Send keys as one write and wait for their output to end. */
static void
drive_type(struct drive *d, const char *keys)
{
	drive_send(d, keys);
	if (d->gone)
		drive_fatal("the console exited");
}

/*
 * :videos, u, the file's path, Enter, Enter at the name prompt; from that
 * last Enter to edgemu logging the PATCH that ends the upload (done_pattern,
 * its final offset).
 */
static void
drive_upload(struct drive *d, const char *file, const char *log,
    const char *done_pattern, int keys, int every_ms, int window_ms)
{
	struct upload	 up;
	struct stat	 sb;
	char		*path;
	size_t		 len;

	memset(&up, 0, sizeof up);
	if (stat(file, &sb) != 0)
		drive_fatal("%s: %s", file, strerror(errno));
	up.file = file;
	up.size = (long long)sb.st_size;
	up.done_ms = -1;

	drive_type(d, ":");
	drive_type(d, "videos");
	drive_type(d, "\r");
	drive_type(d, "u");
	len = strlen(file) + 2;
	if ((path = malloc(len)) == NULL)
		drive_fatal("out of memory");
	snprintf(path, len, "%s\r", file);
	drive_type(d, path);		/* the name prompt follows */
	free(path);

	drive_tail_open(&up.tail, log, done_pattern);
	up.pid = d->pid;
	up.cpu_ms = -drive_proc_cpu(d->pid);
	up.main_ms = -drive_main_cpu(d->pid);
	up.t0 = drive_now();
	if (write(d->fd, "\r", 1) != 1)
		drive_fatal("write: %s", strerror(errno));
	if (keys > 0)
		drive_upload_keys(d, &up, keys, every_ms);
	if (window_ms > 0)
		drive_upload_window(d, &up, window_ms);
	while (up.done_ms < 0) {
		drive_pump(d, &up, 0, 1, NULL, NULL);
		if (drive_now() - up.t0 > DRIVE_UPLOAD_MAX_S * 1e3)
			drive_fatal("the upload did not end in %d s",
			    DRIVE_UPLOAD_MAX_S);
	}
	close(up.tail.fd);

	printf("%s: upload %.3f s, %.1f MB/s (%lld bytes; the last Enter to "
	    "the last PATCH logged)\n", drive_prog, up.done_ms / 1e3,
	    up.size / (up.done_ms / 1e3) / 1e6, up.size);
	printf("%s: terminal output while it ran: %zu bytes, %.0f B/s, %zu "
	    "redraws (%.1f a second)%s\n", drive_prog, up.bytes,
	    up.bytes / (up.done_ms / 1e3), up.redraws,
	    up.redraws / (up.done_ms / 1e3), keys > 0 ? ", besides the "
	    "keys' bursts" : "");
	printf("%s: console CPU while it ran: %.0f ms (%.0f%% of one core), "
	    "%.0f ms of it on the main thread\n", drive_prog, up.cpu_ms,
	    100 * up.cpu_ms / up.done_ms, up.main_ms);
	printf("%s: console peak RSS %.1f MB (VmHWM; VmRSS %.1f MB)\n",
	    drive_prog, drive_status_kb(d->pid, "VmHWM") / 1024.0,
	    drive_status_kb(d->pid, "VmRSS") / 1024.0);
}

/* q until the console is gone: it may close a panel before it quits. */
static void
drive_quit_all(struct drive *d)
{
	double	 f, l, t0;
	int	 i, status;

	for (i = 0; i < 5 && !d->gone; i++) {
		if (write(d->fd, "q", 1) != 1)
			break;
		t0 = drive_now();
		while (!d->gone && drive_now() - t0 < 1000)
			drive_read_burst(d, drive_now(), 100, 100, &f, &l,
			    NULL, 0, NULL);
	}
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
	    "[-w load-quiet-ms] -- command [arg ...]\n"
	    "       ptydrive -u file -e done-pattern -l log [-p pattern -n "
	    "count]\n\t[-j keys] [-i every-ms] [-W window-ms] [-w "
	    "load-quiet-ms]\n\t[-d dumpfile] -- command [arg ...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct drive	 d;
	const char	*log = NULL, *pattern = NULL, *filter = "items/";
	const char	*upload = NULL, *done = NULL;
	long		 count = 0;
	int		 ch, keys = 50, rounds = 20, load_ms = 2000;
	int		 upkeys = 0, every_ms = 100, window_ms = 0;

	memset(&d, 0, sizeof d);
	d.quiet_ms = 200;
	while ((ch = getopt(argc, argv, "d:e:f:i:j:k:l:n:p:r:u:W:w:")) != -1) {
		switch (ch) {
		case 'd':
			if ((d.dump = fopen(optarg, "w")) == NULL)
				drive_fatal("%s: %s", optarg, strerror(errno));
			break;
		case 'e': done = optarg; break;
		case 'f': filter = optarg; break;
		case 'i': every_ms = atoi(optarg); break;
		case 'j': upkeys = atoi(optarg); break;
		case 'k': keys = atoi(optarg); break;
		case 'l': log = optarg; break;
		case 'n': count = atol(optarg); break;
		case 'p': pattern = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'u': upload = optarg; break;
		case 'W': window_ms = atoi(optarg); break;
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
	if (upload != NULL && (log == NULL || done == NULL || upkeys < 0 ||
	    upkeys > DRIVE_MAX_SAMPLES || every_ms <= 0 || window_ms < 0))
		drive_usage();
	unsetenv("NO_COLOR");
	unsetenv("ESCDELAY");
	signal(SIGPIPE, SIG_IGN);

	d.pid = drive_spawn(&d.fd, argv);
	if (upload != NULL) {
		drive_prog = "console-upload-bench";
		drive_wait_loaded(&d, log, pattern, count, load_ms, 600);
		drive_upload(&d, upload, log, done, upkeys, every_ms,
		    window_ms);
		drive_quit_all(&d);
		if (d.dump != NULL)
			fclose(d.dump);
		return (0);
	}
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
