/*
 * upload: a TUS upload on a worker thread with a progress bar on stderr
 * (the bytes sent, within a chunk too, and those the server stored); a
 * re-run of the same command resumes it, Ctrl-C says where it stopped,
 * and a file uploaded before is not sent again without --again.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "configfile.h"
#include "http.h"
#include "jobs.h"
#include "kind.h"
#include "log.h"
#include "tusc.h"
#include "uploaded.h"
#include "xferrate.h"
#include "xmalloc.h"

#include "cli.h"

/* The progress bar is redrawn at most this often (ms). */
#define CLI_DRAW_MS		250L
#define CLI_MIB			(1024.0 * 1024.0)
/* The shell's status for a command ended by Ctrl-C. */
#define CLI_EXIT_INTERRUPTED	130

/* What the upload thread shares with the main thread. */
struct cli_upload {
	struct jobs		*jobs;
	unsigned long		 id;
	struct http_client	*http;		/* the upload's own client */
	struct tusc_options	 opts;
	struct tusc_result	 res;
	long long		 resumed;	/* atomic; -1 until known */
	long long		 sent;		/* atomic: bytes sent so far */
	long long		 stored;	/* atomic: the server's offset */
};

/* Set by SIGINT: the upload stops, and says where. */
static volatile sig_atomic_t cli_upload_interrupt;

static void
cli_upload_sigint(int sig)
{
	(void)sig;
	cli_upload_interrupt = 1;
}

static double
cli_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* On the upload thread: tusc's progress into a PROGRESS event. */
static int
cli_upload_progress(long long done, long long total, void *arg)
{
	struct cli_upload	*u = arg;

	if (u->res.resumed_from >= 0)
		__atomic_store_n(&u->resumed, u->res.resumed_from,
		    __ATOMIC_RELEASE);
	__atomic_store_n(&u->stored, done, __ATOMIC_RELEASE);
	return (jobs_progress(u->jobs, u->id, done, total));
}

/* On the upload thread: the bytes curl has sent, for the bar. */
static void
cli_upload_sent(long long sent, long long total, void *arg)
{
	struct cli_upload	*u = arg;

	(void)total;
	__atomic_store_n(&u->sent, sent, __ATOMIC_RELEASE);
}

/*
 * On the upload thread: why a resume was refused, a wait for the server.
 * One fprintf is one line (stdio locks the stream); on a terminal it
 * takes the progress bar's line, which the next draw puts back.
 */
static void
cli_upload_notice(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "%sedgetui: %s\n", isatty(STDERR_FILENO) ?
	    "\r\033[K" : "", msg);
	fflush(stderr);
}

/* The jobs_run function: the whole TUS upload, blocking. */
static enum status
cli_upload_run(struct jobs *j, unsigned long id, void *arg, cJSON **result,
    char **cause)
{
	struct cli_upload	*u = arg;
	enum status		 st;

	(void)j;
	(void)id;
	(void)result;
	st = tusc_upload(u->http, &u->opts, &u->res, cause);
	return (st);
}

/*
 * The bar on stderr, over one line: the bytes sent (curl's count, so it
 * moves within a chunk) and those the server stored, and the rate and
 * ETA of this run's sending: what the server held before a resume is not
 * counted in the rate.
 */
struct cli_bar {
	int		 tty;
	int		 drawn;
	double		 last;
	struct xferrate	 xr;		/* from where this run began */
	long long	 done;		/* stored on the server */
	long long	 sent;		/* handed to the connection */
	long long	 total;
};

static void
cli_bar_draw(struct cli_bar *b, int force)
{
	double		 now = cli_now(), rate, pct = 0;
	long long	 left, sent = MAXIMUM(b->sent, b->done);
	char		 eta[32];

	if (!b->tty || b->total <= 0)
		return;
	if (!force && b->drawn && (now - b->last) * 1000 < CLI_DRAW_MS)
		return;
	b->last = now;
	rate = xferrate_feed(&b->xr, now, sent);
	pct = 100.0 * (double)sent / (double)b->total;
	left = b->total - sent;
	if (rate > 0 && left > 0)
		snprintf(eta, sizeof eta, "%lld:%02lld",
		    (long long)(left / rate) / 60,
		    (long long)(left / rate) % 60);
	else
		snprintf(eta, sizeof eta, "--:--");
	fprintf(stderr, "\r\033[Kupload: %5.1f%%  %.1f/%.1f MiB sent, %.1f "
	    "stored  %.2f MB/s  ETA %s", pct, (double)sent / CLI_MIB,
	    (double)b->total / CLI_MIB, (double)b->done / CLI_MIB,
	    rate / 1e6, eta);
	fflush(stderr);
	b->drawn = 1;
}

static void
cli_bar_end(struct cli_bar *b)
{
	if (b->tty && b->drawn) {
		cli_bar_draw(b, 1);
		fputc('\n', stderr);
		fflush(stderr);
	}
}

/* Print "resuming at N MiB" once, when the thread has found the offset. */
static void
cli_upload_resumed(struct cli_upload *u, int *said, long long from)
{
	if (*said || from < 0)
		return;
	*said = 1;
	fprintf(stderr, "%sedgetui: resuming at %lld MiB\n",
	    isatty(STDERR_FILENO) ? "\r\033[K" : "",
	    from / (1024LL * 1024));
	(void)u;
}

/* Wait for the upload's events, drawing progress; the event's status. */
static int
cli_upload_wait(struct cli_upload *u, struct cli_bar *bar, char **cause)
{
	struct jobs_event	 ev;
	struct pollfd		 pfd;
	int			 said = 0, over = 0, rv = HTTP_EXIT_OK;

	pfd.fd = jobs_fd(u->jobs);
	pfd.events = POLLIN;
	while (!over) {
		if (poll(&pfd, 1, (int)CLI_DRAW_MS) == -1 && errno != EINTR) {
			xasprintf(cause, "poll: %s", strerror(errno));
			jobs_cancel(u->jobs, u->id);
			return (HTTP_EXIT_TRANSPORT);
		}
		if (cli_upload_interrupt) {
			/* The thread stops at its next count (jobs_free). */
			jobs_cancel(u->jobs, u->id);
			if (bar->tty && bar->drawn)
				fputc('\n', stderr);
			return (CLI_EXIT_INTERRUPTED);
		}
		while (jobs_next_event(u->jobs, &ev)) {
			cli_upload_resumed(u, &said, __atomic_load_n(
			    &u->resumed, __ATOMIC_ACQUIRE));
			switch (ev.kind) {
			case JOBS_EVENT_PROGRESS:
				/* The first count is where this run begins. */
				if (bar->total == 0)
					(void)xferrate_feed(&bar->xr, cli_now(),
					    ev.done);
				bar->done = ev.done;
				bar->total = ev.total;
				break;
			case JOBS_EVENT_DONE:
				over = 1;
				break;
			case JOBS_EVENT_FAILED:
				over = 1;
				free(*cause);
				*cause = ev.cause;
				ev.cause = NULL;
				break;
			default:
				break;
			}
			jobs_event_free(&ev);
		}
		if (!over) {
			bar->sent = __atomic_load_n(&u->sent, __ATOMIC_ACQUIRE);
			cli_bar_draw(bar, 0);
		}
	}
	/* The thread is over: its result may be read without a lock. */
	cli_upload_resumed(u, &said, u->res.resumed_from);
	if (u->res.status == STATUS_OK) {
		bar->done = bar->total = u->res.size;
		cli_bar_end(bar);
	} else {
		if (bar->tty && bar->drawn)
			fputc('\n', stderr);
		rv = http_exit_status(u->res.status, u->res.http_status);
	}
	return (rv);
}

/* Ctrl-C: where the upload stopped, and how it goes on. */
static void
cli_upload_stopped(struct cli_upload *u, const char *state, const char *file)
{
	long long	stored = __atomic_load_n(&u->stored, __ATOMIC_ACQUIRE);

	if (u->res.uid == NULL || *u->res.uid == '\0')
		fprintf(stderr, "edgetui: upload of %s interrupted before it "
		    "began: nothing was sent\n", file);
	else if (state == NULL)
		fprintf(stderr, "edgetui: upload of %s interrupted at %lld MiB "
		    "of %lld; video %s stays unfinished (no state directory, "
		    "so no resume)\n", file, stored / (1024LL * 1024),
		    u->res.size / (1024LL * 1024), u->res.uid);
	else
		fprintf(stderr, "edgetui: upload of %s interrupted at %lld MiB "
		    "of %lld; run the same command again to resume\n", file,
		    stored / (1024LL * 1024), u->res.size / (1024LL * 1024));
}

/*
 * The same file finished before (the state directory remembers): its
 * video, when the server still has it, rather than a second one. 1 when
 * nothing is to be sent, 0 to upload, or the exit status after a message.
 */
static int
cli_upload_done_before(struct cli *c, const char *file,
    const struct stat *sb, const char *state)
{
	struct uploaded		 up;
	struct http_response	 resp;
	char			*key, *path, *cause = NULL, when[32];
	int			 found, rv, gone = 0;

	key = tusc_journal_key(file, sb->st_size, sb->st_mtime,
	    c->session.base_url, c->vars[0].value);
	found = uploaded_get(state, key, &up, &cause);
	free(key);
	if (found <= 0) {
		if (found < 0)
			log_warn("upload journal: %s", cause);
		free(cause);
		return (0);
	}
	path = xprintf("/accounts/%s/stream/%s", c->vars[0].value, up.uid);
	memset(&resp, 0, sizeof resp);
	if ((rv = cli_connect(c)) == 0)
		rv = cli_get_absent(c, path, &resp, &gone);
	free(path);
	if (rv == 0 && gone) {
		log_warn("%s was uploaded before as %s, which the server no "
		    "longer has: uploading it again", file, up.uid);
		rv = 0;
	} else if (rv == 0) {
		strftime(when, sizeof when, "%Y-%m-%d %H:%M",
		    localtime(&up.when));
		fprintf(stderr, "edgetui: %s was already uploaded as %s (%s); "
		    "nothing sent (--again uploads it once more)\n", file,
		    up.uid, up.when != 0 ? when : "earlier");
		if (c->out == CLI_OUT_TABLE)
			printf("%s\n", up.uid);
		else
			cli_print_record(c, kind_find("videos"),
			    resp.api.result);
		fflush(stdout);
		rv = 1;
	}
	http_response_free(&resp);
	uploaded_free(&up);
	return (rv);
}

/* The new video: its uid, or with -o json|yaml its record. */
static int
cli_upload_print(struct cli *c, const char *uid)
{
	struct http_response	 resp;
	char			*path;
	int			 rv = 0;

	if (c->out == CLI_OUT_TABLE) {
		printf("%s\n", uid);
		fflush(stdout);
		return (0);
	}
	path = xprintf("/accounts/%s/stream/%s", c->vars[0].value, uid);
	if ((rv = cli_get(c, path, &resp)) == 0)
		cli_print_record(c, kind_find("videos"), resp.api.result);
	http_response_free(&resp);
	free(path);
	return (rv);
}

int
cli_cmd_upload(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct cli_opts	*o = c->o;
	struct cli_upload	 u;
	struct cli_bar		 bar;
	struct stat		 sb;
	struct sigaction	 sa, old_sa;
	struct jobs		*jobs = NULL;
	char			*cause = NULL, *state = NULL;
	const char		*file;
	int			 rv, caught = 0;

	(void)unused_k;
	if (o->from_url != NULL)
		return (cli_stream_copy(c, argc));
	if (argc != 2)
		return (cli_usage_error("usage: edgetui %s",
		    cli_command_find("upload")->synopsis));
	file = argv[1];
	memset(&u, 0, sizeof u);
	u.resumed = -1;
	u.res.resumed_from = -1;
	memset(&bar, 0, sizeof bar);

	/* Everything that can be checked is, before anything is sent. */
	if (stat(file, &sb) != 0)
		return (cli_error(HTTP_EXIT_USAGE, "%s: %s", file,
		    strerror(errno)));
	if (!S_ISREG(sb.st_mode))
		return (cli_error(HTTP_EXIT_USAGE, "%s: not a regular file",
		    file));
	if (access(file, R_OK) != 0)
		return (cli_error(HTTP_EXIT_USAGE, "%s: %s", file,
		    strerror(errno)));
	u.opts.chunk_size = o->chunk_size != 0 ? o->chunk_size :
	    c->cfg->prefs.chunk_size;
	if (u.opts.chunk_size != 0 &&
	    tusc_chunk_check(u.opts.chunk_size, &cause) != 0) {
		rv = cli_usage_error("--chunk-size: %s", cause);
		free(cause);
		return (rv);
	}
	if (c->vars[0].value == NULL || *c->vars[0].value == '\0')
		return (cli_usage_error("upload: an account is needed "
		    "(--account, CLOUDFLARE_ACCOUNT_ID or the profile)"));
	if ((state = edge_session_state_dir(&c->session, &cause)) == NULL) {
		log_warn("no resume journal: %s", cause);
		free(cause);
		cause = NULL;
	}
	if (state != NULL && !o->again &&
	    (rv = cli_upload_done_before(c, file, &sb, state)) != 0) {
		if (rv == 1)
			rv = 0;
		goto out;
	}
	if ((rv = cli_connect_upload(c, &u.http)) != 0)
		goto out;

	u.opts.file = file;
	u.opts.base_url = c->session.base_url;
	u.opts.account = c->vars[0].value;
	u.opts.creator = o->creator;
	u.opts.meta.name = o->name;
	u.opts.meta.require_signed = o->require_signed;
	u.opts.state_dir = state;
	u.opts.progress = cli_upload_progress;
	u.opts.progress_arg = &u;
	u.opts.sent = cli_upload_sent;
	u.opts.sent_arg = &u;
	u.opts.notice = cli_upload_notice;

	/* The worker takes c->http; the upload runs on its own client. */
	if ((jobs = jobs_new(c->http, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "%s", cause);
		free(cause);
		goto out;
	}
	u.jobs = jobs;
	bar.tty = isatty(STDERR_FILENO);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cli_upload_sigint;
	sigemptyset(&sa.sa_mask);
	cli_upload_interrupt = 0;
	sigaction(SIGINT, &sa, &old_sa);
	caught = 1;
	if (jobs_run(jobs, cli_upload_run, &u, NULL, &u.id) != STATUS_OK) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "upload: the worker is "
		    "not running");
		goto out;
	}
	rv = cli_upload_wait(&u, &bar, &cause);
	if (rv == CLI_EXIT_INTERRUPTED) {
		/* A second Ctrl-C ends it at once. */
		sigaction(SIGINT, &old_sa, NULL);
		caught = 0;
		jobs_free(jobs);	/* waits for the thread to stop */
		jobs = NULL;
		cli_upload_stopped(&u, state, file);
	} else if (rv == HTTP_EXIT_OK)
		rv = cli_upload_print(c, u.res.uid);
	else {
		cli_error(rv, "upload %s: %s", file, cause != NULL ? cause :
		    status_message(u.res.status));
		if (u.res.uid != NULL && *u.res.uid != '\0' && state != NULL)
			fprintf(stderr, "edgetui: video %s is unfinished; run "
			    "the same command again to resume\n", u.res.uid);
	}
out:
	/* jobs_free waits for the upload thread before its client goes. */
	if (jobs != NULL)
		jobs_free(jobs);
	if (caught)
		sigaction(SIGINT, &old_sa, NULL);
	if (u.http != NULL)
		http_client_free(u.http);
	tusc_result_free(&u.res);
	free(cause);
	free(state);
	return (rv);
}
