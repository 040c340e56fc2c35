/*
 * The background worker: one thread with one curl multi handle runs every
 * request, poll and timer, so the caller (the console's UI loop, a CLI
 * waiting on several requests) never blocks. Results come back as events
 * on a queue, announced through a file descriptor the caller polls.
 */
#ifndef EDGE_JOBS_H
#define EDGE_JOBS_H

#include <cjson/cJSON.h>

#include "http.h"
#include "status.h"

/* Poll intervals: from JOBS_POLL_FIRST_MS up to JOBS_POLL_MAX_MS. */
#define JOBS_POLL_FIRST_MS	1000L
#define JOBS_POLL_MAX_MS	5000L

enum jobs_event_kind {
	JOBS_EVENT_DONE,	/* success; the job is over */
	JOBS_EVENT_FAILED,	/* failure; the job is over */
	JOBS_EVENT_PROGRESS,	/* jobs_progress from a jobs_run function */
	JOBS_EVENT_POLL_UPDATE	/* a poll's answer that was not yet "until" */
};

/*
 * One event; everything in it is owned by it (jobs_event_free). result is
 * the response's result moved out of resp (take it and set it to NULL to
 * keep it); resp is the rest of the response (result_info, headers, the
 * rate-limit "until") for requests and polls. cause is the text to show on
 * failure: for a request's failure with resp.detail set, that bare reason
 * (without "METHOD /path: "; resp.method and resp.path name the request).
 * done and total are the last progress reported.
 */
struct jobs_event {
	unsigned long		 id;
	void			*tag;
	enum jobs_event_kind	 kind;
	enum status		 status;
	long			 http_status;
	cJSON			*result;
	char			*cause;
	long long		 done;
	long long		 total;
	struct http_response	 resp;
};

/*
 * When a poll stops: until(resp, until_arg) returns non-zero (called on
 * the worker thread, with a successful response), or else the result's
 * field (dotted: "status.state") equals equals (a string compares with
 * its text, anything else with its unformatted JSON: "false", "3"). Zero
 * intervals take the defaults; each interval is the sum of the two before
 * it, up to max_ms (1, 2, 3, 5, 5... seconds by default). The first GET
 * goes at once, or after first_ms with wait_first (a refresh of what was
 * just fetched).
 */
typedef int (*jobs_until_cb)(const struct http_response *, void *);
struct jobs_poll_options {
	long		 first_ms;
	long		 max_ms;
	int		 wait_first;
	jobs_until_cb	 until;
	void		*until_arg;
	const char	*field;
	const char	*equals;
};

struct jobs;

/*
 * A function run by jobs_run on a thread of its own: it may block (a TUS
 * upload). It reports with jobs_progress and stops early when that (or
 * jobs_cancelled) says so. It returns the status; on success it may leave
 * a result, on failure a cause (both allocated, taken by the event). It
 * must not use the client given to jobs_new: that is the worker's (give it
 * a client of its own sharing the budget).
 */
typedef enum status (*jobs_run_cb)(struct jobs *, unsigned long, void *,
		    cJSON **, char **);

/*
 * Start the worker. From then on the client belongs to the worker thread
 * (its log ring and budget may still be read from any thread) until
 * jobs_free. NULL with *cause if a pipe, multi handle or thread cannot be
 * made. curl_global_init must have been called.
 */
struct jobs	*jobs_new(struct http_client *, char **);
/*
 * Cancel everything, wait for jobs_run functions to return (they must heed
 * jobs_progress or jobs_cancelled), stop the worker, drop unread events.
 */
void		 jobs_free(struct jobs *);

/*
 * Queue a request (copied, but for what its callbacks' arguments point
 * to); never blocks. One DONE or FAILED event follows. *id is never 0.
 * STATUS_CANCELLED once jobs_free has begun.
 */
enum status	 jobs_submit(struct jobs *, const struct http_request *,
		     void *, unsigned long *);
/*
 * Issue a GET again and again (each through the budget) until the
 * options' condition holds (DONE with that response), it fails (FAILED),
 * or it is cancelled. Each answer that does not stop it is a POLL_UPDATE.
 */
enum status	 jobs_poll(struct jobs *, const struct http_request *,
		     const struct jobs_poll_options *, void *,
		     unsigned long *);
/* Run fn(jobs, id, arg, ...) on its own thread; DONE or FAILED after. */
enum status	 jobs_run(struct jobs *, jobs_run_cb, void *, void *,
		     unsigned long *);
/*
 * From a jobs_run function, any thread: report progress (coalesced: at
 * most one PROGRESS event waits per job, the newest). Returns non-zero
 * when the job is cancelled and should stop.
 */
int		 jobs_progress(struct jobs *, unsigned long, long long,
		     long long);
int		 jobs_cancelled(struct jobs *, unsigned long);
/*
 * Cancel a job: once this returns, no event for it is queued or waiting
 * (a jobs_run function is only told; it ends in its own time). Returns 0,
 * or -1 for an id that is over or unknown.
 */
int		 jobs_cancel(struct jobs *, unsigned long);

/*
 * Readable (non-blocking) while events wait. Take them with
 * jobs_next_event until it returns 0; free each with jobs_event_free.
 */
int		 jobs_fd(struct jobs *);
int		 jobs_next_event(struct jobs *, struct jobs_event *);
void		 jobs_event_free(struct jobs_event *);
/* Jobs not yet over (queued, in flight, waiting or running). */
size_t		 jobs_pending(struct jobs *);

#endif
