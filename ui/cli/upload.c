/*
 * upload: a TUS upload on a worker thread with a progress bar on stderr;
 * a re-run of the same command resumes it.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "configfile.h"
#include "http.h"
#include "jobs.h"
#include "log.h"
#include "tusc.h"
#include "xmalloc.h"

#include "cli.h"

/* The progress bar is redrawn at most this often (ms). */
#define CLI_DRAW_MS		250L
#define CLI_MIB			(1024.0 * 1024.0)

/* What the upload thread shares with the main thread. */
struct cli_upload {
	struct jobs		*jobs;
	unsigned long		 id;
	struct http_client	*http;		/* the upload's own client */
	struct tusc_options	 opts;
	struct tusc_result	 res;
	long long		 resumed;	/* atomic; -1 until known */
};

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
	return (jobs_progress(u->jobs, u->id, done, total));
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

/* The bar on stderr: percent, MB/s and ETA, over one line. */
struct cli_bar {
	int		 tty;
	int		 drawn;
	double		 start;
	double		 last;
	long long	 base;		/* done when the rate was first seen */
	long long	 done;
	long long	 total;
};

static void
cli_bar_draw(struct cli_bar *b, int force)
{
	double		 now = cli_now(), secs, rate = 0, pct = 0;
	long long	 left;
	char		 eta[32];

	if (!b->tty || b->total <= 0)
		return;
	if (!force && b->drawn && (now - b->last) * 1000 < CLI_DRAW_MS)
		return;
	b->last = now;
	secs = now - b->start;
	if (secs > 0 && b->done > b->base)
		rate = (double)(b->done - b->base) / secs;
	pct = 100.0 * (double)b->done / (double)b->total;
	left = b->total - b->done;
	if (rate > 0 && left > 0)
		snprintf(eta, sizeof eta, "%lld:%02lld",
		    (long long)(left / rate) / 60,
		    (long long)(left / rate) % 60);
	else
		snprintf(eta, sizeof eta, "--:--");
	fprintf(stderr, "\r\033[Kupload: %5.1f%%  %.1f/%.1f MiB  %.2f MB/s  "
	    "ETA %s", pct, (double)b->done / CLI_MIB,
	    (double)b->total / CLI_MIB, rate / 1e6, eta);
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
		while (jobs_next_event(u->jobs, &ev)) {
			cli_upload_resumed(u, &said, __atomic_load_n(
			    &u->resumed, __ATOMIC_ACQUIRE));
			switch (ev.kind) {
			case JOBS_EVENT_PROGRESS:
				if (bar->total == 0) {
					bar->start = cli_now();
					bar->base = ev.done;
				}
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
		if (!over)
			cli_bar_draw(bar, 0);
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

int
cli_cmd_upload(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct cli_opts	*o = c->o;
	struct cli_upload	 u;
	struct cli_bar		 bar;
	struct stat		 sb;
	struct jobs		*jobs = NULL;
	char			*cause = NULL, *state = NULL;
	const char		*file;
	int			 rv;

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
	u.opts.notice = cli_upload_notice;

	/* The worker takes c->http; the upload runs on its own client. */
	if ((jobs = jobs_new(c->http, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "%s", cause);
		free(cause);
		goto out;
	}
	u.jobs = jobs;
	bar.tty = isatty(STDERR_FILENO);
	if (jobs_run(jobs, cli_upload_run, &u, NULL, &u.id) != STATUS_OK) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "upload: the worker is "
		    "not running");
		goto out;
	}
	rv = cli_upload_wait(&u, &bar, &cause);
	if (rv == HTTP_EXIT_OK) {
		printf("%s\n", u.res.uid);
		fflush(stdout);
	} else {
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
	if (u.http != NULL)
		http_client_free(u.http);
	tusc_result_free(&u.res);
	free(cause);
	free(state);
	return (rv);
}
