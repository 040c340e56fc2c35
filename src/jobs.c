/*
 * The background worker. One thread owns the curl multi handle and every
 * http_call; it sleeps only in curl_multi_poll, whose timeout is the
 * nearest timer (budget wait, retry backoff, next poll). Callers talk to
 * it through a mutex-protected queue and curl_multi_wakeup; it answers
 * through an event queue and a self-pipe that is readable exactly while
 * events wait. jobs_run functions get threads of their own.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "http.h"
#include "jobs.h"
#include "log.h"
#include "xmalloc.h"

/* The longest curl_multi_poll with no timer due (wakeups end it sooner). */
#define JOBS_IDLE_MS	10000L

enum job_kind {
	JOB_REQUEST,
	JOB_POLL,
	JOB_RUN
};

enum job_state {
	JOB_NEW,		/* not started */
	JOB_SENDING,		/* its easy handle is in the multi */
	JOB_WAITING		/* until deadline: call != NULL, or next poll */
};

struct job {
	unsigned long		 id;
	void			*tag;
	enum job_kind		 kind;

	/* Under jobs->lock. */
	int			 cancelled;
	int			 finished;	/* its last event is posted */
	struct job		*next_all;

	/* The worker's alone (or the caller's before it is queued). */
	struct job		*next;
	int			 over;
	enum job_state		 state;
	long long		 deadline;	/* monotonic ms */
	struct http_call	*call;
	CURL			*easy;

	/* The request, owned. */
	struct http_request	 req;
	char			*method;
	char			*path;
	char			*json;
	char			*content_type;
	char			**headers;
	struct http_part	*parts;

	/* Polls. */
	struct jobs_poll_options poll;
	char			*field;
	char			*equals;
	long			 interval;
	long			 prev_interval;

	/* Runs. */
	pthread_t		 thread;
	jobs_run_cb		 fn;
	void			*arg;
	struct jobs		*jobs;
};

struct jobs_node {
	struct jobs_event	 ev;
	struct jobs_node	*next;
};

struct jobs {
	struct http_client	*client;
	CURLM			*multi;
	pthread_t		 worker;
	int			 pipe[2];

	pthread_mutex_t		 lock;
	int			 stopping;
	unsigned long		 next_id;
	struct job		*all;		/* every job not yet freed */
	struct job		*pending;	/* queued for the worker */
	struct job		**pending_tail;
	struct jobs_node	*events;
	struct jobs_node	**events_tail;

	struct job		*active;	/* the worker's */
};

static long long
jobs_now(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		fatal("clock_gettime");
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void
jobs_lock(struct jobs *jobs)
{
	if (pthread_mutex_lock(&jobs->lock) != 0)
		fatalx("jobs: mutex lock");
}

static void
jobs_unlock(struct jobs *jobs)
{
	if (pthread_mutex_unlock(&jobs->lock) != 0)
		fatalx("jobs: mutex unlock");
}

static char *
jobs_strdup(const char *s)
{
	return (s == NULL ? NULL : xstrdup(s));
}

/* ---- jobs and their requests ------------------------------------------- */

static void
job_copy_request(struct job *job, const struct http_request *r)
{
	struct http_request	*c = &job->req;
	size_t			 i, n;

	*c = *r;
	c->method = job->method = xstrdup(r->method);
	c->path = job->path = xstrdup(r->path);
	if (r->json != NULL) {
		n = r->json_len != 0 ? r->json_len : strlen(r->json);
		job->json = xmalloc(n + 1);
		memcpy(job->json, r->json, n);
		job->json[n] = '\0';
		c->json = job->json;
		c->json_len = n;
	}
	c->content_type = job->content_type = jobs_strdup(r->content_type);
	if (r->headers != NULL) {
		for (n = 0; r->headers[n] != NULL; n++)
			;
		job->headers = xcalloc(n + 1, sizeof *job->headers);
		for (i = 0; i < n; i++)
			job->headers[i] = xstrdup(r->headers[i]);
		c->headers = (const char *const *)job->headers;
	}
	if (r->parts != NULL && r->nparts != 0) {
		job->parts = xcalloc(r->nparts, sizeof *job->parts);
		for (i = 0; i < r->nparts; i++) {
			job->parts[i].name = jobs_strdup(r->parts[i].name);
			job->parts[i].value = jobs_strdup(r->parts[i].value);
			job->parts[i].file = jobs_strdup(r->parts[i].file);
			job->parts[i].filename =
			    jobs_strdup(r->parts[i].filename);
			job->parts[i].type = jobs_strdup(r->parts[i].type);
		}
		c->parts = job->parts;
	}
}

static void
job_free(struct job *job)
{
	size_t	i;

	http_call_free(job->call);
	free(job->method);
	free(job->path);
	free(job->json);
	free(job->content_type);
	if (job->headers != NULL) {
		for (i = 0; job->headers[i] != NULL; i++)
			free(job->headers[i]);
		free(job->headers);
	}
	if (job->parts != NULL) {
		for (i = 0; i < job->req.nparts; i++) {
			free((char *)job->parts[i].name);
			free((char *)job->parts[i].value);
			free((char *)job->parts[i].file);
			free((char *)job->parts[i].filename);
			free((char *)job->parts[i].type);
		}
		free(job->parts);
	}
	free(job->field);
	free(job->equals);
	free(job);
}

/* Under the lock. */
static struct job *
jobs_find(struct jobs *jobs, unsigned long id)
{
	struct job	*job;

	for (job = jobs->all; job != NULL; job = job->next_all) {
		if (job->id == id)
			return (job);
	}
	return (NULL);
}

/* Under the lock. */
static void
jobs_unlink(struct jobs *jobs, struct job *job)
{
	struct job	**jp;

	for (jp = &jobs->all; *jp != NULL; jp = &(*jp)->next_all) {
		if (*jp == job) {
			*jp = job->next_all;
			return;
		}
	}
}

/* Give the job an id and hand it to the worker, or refuse when stopping. */
static enum status
jobs_queue(struct jobs *jobs, struct job *job, unsigned long *id)
{
	jobs_lock(jobs);
	if (jobs->stopping) {
		jobs_unlock(jobs);
		job_free(job);
		return (STATUS_CANCELLED);
	}
	job->id = ++jobs->next_id;
	job->next_all = jobs->all;
	jobs->all = job;
	if (job->kind != JOB_RUN) {
		*jobs->pending_tail = job;
		jobs->pending_tail = &job->next;
	}
	if (id != NULL)
		*id = job->id;
	jobs_unlock(jobs);
	if (job->kind != JOB_RUN)
		curl_multi_wakeup(jobs->multi);
	return (STATUS_OK);
}

/* ---- the event queue --------------------------------------------------- */

static void
jobs_wake(struct jobs *jobs)
{
	ssize_t	n;

	do
		n = write(jobs->pipe[1], "", 1);
	while (n == -1 && errno == EINTR);
}

static void
jobs_drain(struct jobs *jobs)
{
	char	buf[64];
	ssize_t	n;

	do
		n = read(jobs->pipe[0], buf, sizeof buf);
	while (n > 0 || (n == -1 && errno == EINTR));
}

/*
 * Under the lock: queue an event (ev is moved), or drop it for a cancelled
 * job. PROGRESS and POLL_UPDATE replace one of theirs that still waits.
 */
static void
jobs_post_locked(struct jobs *jobs, struct job *job, struct jobs_event *ev)
{
	struct jobs_node	*node;

	if (ev->kind == JOBS_EVENT_DONE || ev->kind == JOBS_EVENT_FAILED)
		job->finished = 1;
	if (job->cancelled) {
		jobs_event_free(ev);
		return;
	}
	if (ev->kind == JOBS_EVENT_PROGRESS ||
	    ev->kind == JOBS_EVENT_POLL_UPDATE) {
		for (node = jobs->events; node != NULL; node = node->next) {
			if (node->ev.id == ev->id && node->ev.kind == ev->kind) {
				jobs_event_free(&node->ev);
				node->ev = *ev;
				return;
			}
		}
	}
	node = xcalloc(1, sizeof *node);
	node->ev = *ev;
	if (jobs->events == NULL)
		jobs_wake(jobs);
	*jobs->events_tail = node;
	jobs->events_tail = &node->next;
}

static void
jobs_post(struct jobs *jobs, struct job *job, struct jobs_event *ev)
{
	jobs_lock(jobs);
	jobs_post_locked(jobs, job, ev);
	jobs_unlock(jobs);
}

/* Under the lock: drop every waiting event of a job. */
static void
jobs_purge_locked(struct jobs *jobs, unsigned long id)
{
	struct jobs_node	**np, *node;

	np = &jobs->events;
	while ((node = *np) != NULL) {
		if (node->ev.id == id) {
			*np = node->next;
			jobs_event_free(&node->ev);
			free(node);
		} else
			np = &node->next;
	}
	jobs->events_tail = np;
	if (jobs->events == NULL)
		jobs_drain(jobs);
}

static void
jobs_event_init(struct jobs_event *ev, struct job *job,
    enum jobs_event_kind kind)
{
	memset(ev, 0, sizeof *ev);
	ev->id = job->id;
	ev->tag = job->tag;
	ev->kind = kind;
	ev->resp.ratelimit_remaining = -1;
}

/* An event carrying a response (moved) and cause (taken). */
static void
jobs_post_response(struct jobs *jobs, struct job *job,
    enum jobs_event_kind kind, struct http_response *resp, char *cause)
{
	struct jobs_event	ev;

	jobs_event_init(&ev, job, kind);
	ev.resp = *resp;
	ev.status = resp->status;
	ev.http_status = resp->http_status;
	ev.result = resp->api.result;
	ev.resp.api.result = NULL;
	ev.cause = cause;
	jobs_post(jobs, job, &ev);
}

int
jobs_fd(struct jobs *jobs)
{
	return (jobs->pipe[0]);
}

int
jobs_next_event(struct jobs *jobs, struct jobs_event *ev)
{
	struct jobs_node	*node;

	jobs_lock(jobs);
	if ((node = jobs->events) == NULL) {
		jobs_drain(jobs);
		jobs_unlock(jobs);
		return (0);
	}
	jobs->events = node->next;
	if (jobs->events == NULL) {
		jobs->events_tail = &jobs->events;
		jobs_drain(jobs);
	}
	jobs_unlock(jobs);
	*ev = node->ev;
	free(node);
	return (1);
}

void
jobs_event_free(struct jobs_event *ev)
{
	if (ev == NULL)
		return;
	cJSON_Delete(ev->result);
	free(ev->cause);
	http_response_free(&ev->resp);
	memset(ev, 0, sizeof *ev);
}

size_t
jobs_pending(struct jobs *jobs)
{
	struct job	*job;
	size_t		 n = 0;

	jobs_lock(jobs);
	for (job = jobs->all; job != NULL; job = job->next_all) {
		if (!job->cancelled && !job->finished)
			n++;
	}
	jobs_unlock(jobs);
	return (n);
}

/* ---- polls ------------------------------------------------------------- */

/* Does result's dotted field read as text? */
static int
jobs_field_equals(const cJSON *result, const char *field, const char *text)
{
	const cJSON	*v = result;
	const char	*p, *dot;
	char		*name, *s;
	int		 eq;

	for (p = field; v != NULL; p = dot + 1) {
		dot = strchr(p, '.');
		name = dot == NULL ? xstrdup(p) : xstrndup(p, dot - p);
		v = cJSON_GetObjectItemCaseSensitive(v, name);
		free(name);
		if (dot == NULL)
			break;
	}
	if (v == NULL)
		return (0);
	if (cJSON_IsString(v))
		return (strcmp(v->valuestring, text) == 0);
	if ((s = cJSON_PrintUnformatted(v)) == NULL)
		return (0);
	eq = strcmp(s, text) == 0;
	cJSON_free(s);
	return (eq);
}

static int
jobs_poll_over(struct job *job, const struct http_response *resp)
{
	if (job->poll.until != NULL)
		return (job->poll.until(resp, job->poll.until_arg) != 0);
	return (jobs_field_equals(resp->api.result, job->field, job->equals));
}

/* Next poll after 1, 2, 3, 5, 5... intervals (sum of the two before). */
static long
jobs_poll_interval(struct job *job)
{
	long	wait = job->interval, next;

	next = job->interval + job->prev_interval;
	if (next > job->poll.max_ms)
		next = job->poll.max_ms;
	job->prev_interval = job->interval;
	job->interval = next;
	return (wait);
}

/* ---- the worker -------------------------------------------------------- */

/* A call is over: post what it says; a poll may go on. */
static void
jobs_call_over(struct jobs *jobs, struct job *job)
{
	struct http_response	 resp;
	char			*cause = NULL;
	enum status		 s;

	s = http_call_result(job->call, &resp, &cause);
	http_call_free(job->call);
	job->call = NULL;
	if (s != STATUS_OK) {
		/* The bare reason: resp says which request it was. */
		jobs_post_response(jobs, job, JOBS_EVENT_FAILED, &resp, cause);
		job->over = 1;
	} else if (job->kind == JOB_REQUEST || jobs_poll_over(job, &resp)) {
		jobs_post_response(jobs, job, JOBS_EVENT_DONE, &resp, NULL);
		job->over = 1;
	} else {
		job->state = JOB_WAITING;
		job->deadline = jobs_now() + jobs_poll_interval(job);
		jobs_post_response(jobs, job, JOBS_EVENT_POLL_UPDATE, &resp,
		    NULL);
	}
}

static void
jobs_step(struct jobs *jobs, struct job *job, enum http_next n, CURL *easy,
    long wait)
{
	CURLMcode	mc;

	switch (n) {
	case HTTP_NEXT_SEND:
		if ((mc = curl_multi_add_handle(jobs->multi, easy)) !=
		    CURLM_OK)
			fatalx("curl_multi_add_handle: %s",
			    curl_multi_strerror(mc));
		job->easy = easy;
		job->state = JOB_SENDING;
		break;
	case HTTP_NEXT_WAIT:
		job->state = JOB_WAITING;
		job->deadline = jobs_now() + wait;
		break;
	case HTTP_NEXT_DONE:
		jobs_call_over(jobs, job);
		break;
	}
}

/* A new job, a timer that is due: make the call if need be and go on. */
static void
jobs_advance(struct jobs *jobs, struct job *job)
{
	enum http_next	 n;
	CURL		*easy;
	long		 wait;

	if (job->call == NULL)
		job->call = http_call_new(jobs->client, &job->req);
	n = http_call_next(job->call, &easy, &wait);
	jobs_step(jobs, job, n, easy, wait);
}

/* Free the jobs that are over, taking their handles out of the multi. */
static void
jobs_sweep(struct jobs *jobs)
{
	struct job	**jp, *job;

	jp = &jobs->active;
	while ((job = *jp) != NULL) {
		if (!job->over) {
			jp = &job->next;
			continue;
		}
		*jp = job->next;
		if (job->state == JOB_SENDING)
			curl_multi_remove_handle(jobs->multi, job->easy);
		jobs_lock(jobs);
		jobs_unlink(jobs, job);
		jobs_unlock(jobs);
		job_free(job);
	}
}

/*
 * Take new jobs and cancellations; hand back the run jobs that finished
 * (to join outside the lock). Returns 1 when stopping.
 */
static int
jobs_intake(struct jobs *jobs, struct job **reaped)
{
	struct job	**tail, *job, **jp;
	int		 stop;

	jobs_lock(jobs);
	for (tail = &jobs->active; *tail != NULL; tail = &(*tail)->next)
		;
	*tail = jobs->pending;
	jobs->pending = NULL;
	jobs->pending_tail = &jobs->pending;
	for (job = jobs->active; job != NULL; job = job->next) {
		if (job->cancelled)
			job->over = 1;
	}
	*reaped = NULL;
	jp = &jobs->all;
	while ((job = *jp) != NULL) {
		if (job->kind == JOB_RUN && job->finished) {
			*jp = job->next_all;
			job->next = *reaped;
			*reaped = job;
		} else
			jp = &job->next_all;
	}
	stop = jobs->stopping;
	jobs_unlock(jobs);
	return (stop);
}

static void
jobs_reap(struct job *list)
{
	struct job	*job, *next;

	for (job = list; job != NULL; job = next) {
		next = job->next;
		if (pthread_join(job->thread, NULL) != 0)
			fatalx("jobs: pthread_join");
		job_free(job);
	}
}

/* Start new jobs, fire due timers; returns ms to the nearest timer. */
static long
jobs_timers(struct jobs *jobs)
{
	struct job	*job;
	long long	 now = jobs_now(), next = now + JOBS_IDLE_MS;

	for (job = jobs->active; job != NULL; job = job->next) {
		if (job->over)
			continue;
		if (job->state == JOB_NEW ||
		    (job->state == JOB_WAITING && job->deadline <= now)) {
			jobs_advance(jobs, job);
			now = jobs_now();
		}
		if (!job->over && job->state == JOB_WAITING &&
		    job->deadline < next)
			next = job->deadline;
	}
	return (next <= now ? 0 : (long)(next - now));
}

static void
jobs_transfers(struct jobs *jobs)
{
	struct http_call	*call;
	struct job		*job;
	enum http_next		 n;
	CURLMsg			*msg;
	long			 wait;
	int			 running, left;

	curl_multi_perform(jobs->multi, &running);
	while ((msg = curl_multi_info_read(jobs->multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &call);
		for (job = jobs->active; job != NULL; job = job->next) {
			if (job->call == call)
				break;
		}
		if (job == NULL)
			fatalx("jobs: a transfer without a job");
		curl_multi_remove_handle(jobs->multi, msg->easy_handle);
		job->easy = NULL;
		job->state = JOB_WAITING;
		n = http_call_done(call, msg->data.result, &wait);
		jobs_step(jobs, job, n, NULL, wait);
	}
}

static void *
jobs_main(void *arg)
{
	struct jobs	*jobs = arg;
	struct job	*reaped, *job;
	long		 timeout;

	for (;;) {
		if (jobs_intake(jobs, &reaped))
			break;
		jobs_reap(reaped);
		jobs_sweep(jobs);
		jobs_timers(jobs);
		jobs_transfers(jobs);
		jobs_sweep(jobs);
		/* Events posted above may have made a retry due at once. */
		timeout = jobs_timers(jobs);
		jobs_sweep(jobs);
		curl_multi_poll(jobs->multi, NULL, 0, (int)timeout, NULL);
	}
	jobs_reap(reaped);
	for (job = jobs->active; job != NULL; job = job->next)
		job->over = 1;
	jobs_sweep(jobs);
	return (NULL);
}

/* ---- runs -------------------------------------------------------------- */

static void *
jobs_run_main(void *arg)
{
	struct job		*job = arg;
	struct jobs		*jobs = job->jobs;
	struct jobs_event	 ev;
	cJSON			*result = NULL;
	char			*cause = NULL;
	enum status		 s;

	s = job->fn(jobs, job->id, job->arg, &result, &cause);
	jobs_event_init(&ev, job, s == STATUS_OK ? JOBS_EVENT_DONE :
	    JOBS_EVENT_FAILED);
	ev.status = s;
	ev.result = result;
	if (s != STATUS_OK && cause == NULL)
		cause = xstrdup(status_message(s));
	else if (s == STATUS_OK) {
		free(cause);
		cause = NULL;
	}
	ev.cause = cause;
	jobs_lock(jobs);
	jobs_post_locked(jobs, job, &ev);
	jobs_unlock(jobs);
	/* The worker joins this thread; the multi outlives every run. */
	curl_multi_wakeup(jobs->multi);
	return (NULL);
}

/* Threads we start take no signals: the caller's loop handles them. */
static int
jobs_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t	all, old;
	int		 error;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	error = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return (error);
}

enum status
jobs_run(struct jobs *jobs, jobs_run_cb fn, void *arg, void *tag,
    unsigned long *id)
{
	struct job	*job;
	enum status	 s;
	unsigned long	 jid;

	job = xcalloc(1, sizeof *job);
	job->kind = JOB_RUN;
	job->tag = tag;
	job->fn = fn;
	job->arg = arg;
	job->jobs = jobs;
	/* Queued before it starts, so fn can find itself by id. */
	jobs_lock(jobs);
	if ((s = jobs->stopping ? STATUS_CANCELLED : STATUS_OK) ==
	    STATUS_OK) {
		job->id = jid = ++jobs->next_id;
		if (jobs_thread(&job->thread, jobs_run_main, job) != 0)
			s = STATUS_INTERNAL;
		else {
			job->next_all = jobs->all;
			jobs->all = job;
		}
	}
	jobs_unlock(jobs);
	if (s != STATUS_OK) {
		job_free(job);
		return (s);
	}
	if (id != NULL)
		*id = jid;
	return (STATUS_OK);
}

int
jobs_progress(struct jobs *jobs, unsigned long id, long long done,
    long long total)
{
	struct jobs_event	 ev;
	struct job		*job;

	jobs_lock(jobs);
	if ((job = jobs_find(jobs, id)) == NULL || job->cancelled) {
		jobs_unlock(jobs);
		return (1);
	}
	jobs_event_init(&ev, job, JOBS_EVENT_PROGRESS);
	ev.done = done;
	ev.total = total;
	jobs_post_locked(jobs, job, &ev);
	jobs_unlock(jobs);
	return (0);
}

int
jobs_cancelled(struct jobs *jobs, unsigned long id)
{
	struct job	*job;
	int		 c;

	jobs_lock(jobs);
	c = (job = jobs_find(jobs, id)) == NULL || job->cancelled;
	jobs_unlock(jobs);
	return (c);
}

/* ---- the public side --------------------------------------------------- */

struct jobs *
jobs_new(struct http_client *client, char **cause)
{
	struct jobs	*jobs;
	int		 i, error;

	jobs = xcalloc(1, sizeof *jobs);
	jobs->client = client;
	jobs->pending_tail = &jobs->pending;
	jobs->events_tail = &jobs->events;
	if (pipe(jobs->pipe) != 0) {
		*cause = xprintf("jobs: pipe: %s", strerror(errno));
		free(jobs);
		return (NULL);
	}
	for (i = 0; i < 2; i++) {
		if (fcntl(jobs->pipe[i], F_SETFL, O_NONBLOCK) == -1 ||
		    fcntl(jobs->pipe[i], F_SETFD, FD_CLOEXEC) == -1)
			fatal("jobs: fcntl");
	}
	if ((jobs->multi = curl_multi_init()) == NULL) {
		*cause = xstrdup("jobs: curl_multi_init failed");
		goto fail;
	}
	if (pthread_mutex_init(&jobs->lock, NULL) != 0)
		fatalx("jobs: pthread_mutex_init");
	if ((error = jobs_thread(&jobs->worker, jobs_main, jobs)) != 0) {
		*cause = xprintf("jobs: pthread_create: %s", strerror(error));
		pthread_mutex_destroy(&jobs->lock);
		goto fail;
	}
	return (jobs);

fail:
	if (jobs->multi != NULL)
		curl_multi_cleanup(jobs->multi);
	close(jobs->pipe[0]);
	close(jobs->pipe[1]);
	free(jobs);
	return (NULL);
}

void
jobs_free(struct jobs *jobs)
{
	struct jobs_node	*node, *nnode;
	struct job		*job, **jp, *run;

	if (jobs == NULL)
		return;
	jobs_lock(jobs);
	for (job = jobs->all; job != NULL; job = job->next_all)
		job->cancelled = 1;
	jobs_unlock(jobs);
	/* Runs first: they wake the worker through the multi on the way out. */
	for (;;) {
		jobs_lock(jobs);
		run = NULL;
		for (jp = &jobs->all; *jp != NULL; jp = &(*jp)->next_all) {
			if ((*jp)->kind == JOB_RUN) {
				run = *jp;
				*jp = run->next_all;
				break;
			}
		}
		jobs_unlock(jobs);
		if (run == NULL)
			break;
		run->next = NULL;
		jobs_reap(run);
	}
	jobs_lock(jobs);
	jobs->stopping = 1;
	jobs_unlock(jobs);
	curl_multi_wakeup(jobs->multi);
	if (pthread_join(jobs->worker, NULL) != 0)
		fatalx("jobs: pthread_join");

	/* Queued after the worker's last intake. */
	while ((job = jobs->pending) != NULL) {
		jobs->pending = job->next;
		job_free(job);
	}
	for (node = jobs->events; node != NULL; node = nnode) {
		nnode = node->next;
		jobs_event_free(&node->ev);
		free(node);
	}
	curl_multi_cleanup(jobs->multi);
	pthread_mutex_destroy(&jobs->lock);
	close(jobs->pipe[0]);
	close(jobs->pipe[1]);
	free(jobs);
}

static struct job *
jobs_request_job(const struct http_request *req, void *tag,
    enum job_kind kind)
{
	struct job	*job;

	if (req == NULL || req->method == NULL || req->path == NULL)
		fatalx("jobs: a request without a method or a path");
	job = xcalloc(1, sizeof *job);
	job->kind = kind;
	job->tag = tag;
	job->state = JOB_NEW;
	job_copy_request(job, req);
	return (job);
}

enum status
jobs_submit(struct jobs *jobs, const struct http_request *req, void *tag,
    unsigned long *id)
{
	return (jobs_queue(jobs, jobs_request_job(req, tag, JOB_REQUEST),
	    id));
}

enum status
jobs_poll(struct jobs *jobs, const struct http_request *req,
    const struct jobs_poll_options *o, void *tag, unsigned long *id)
{
	struct job	*job;

	if (o == NULL || (o->until == NULL && (o->field == NULL ||
	    o->equals == NULL)))
		fatalx("jobs_poll: no condition to stop on");
	if (http_method_mutates(req->method))
		fatalx("jobs_poll: %s is not a read", req->method);
	job = jobs_request_job(req, tag, JOB_POLL);
	job->poll = *o;
	job->poll.field = job->field = jobs_strdup(o->field);
	job->poll.equals = job->equals = jobs_strdup(o->equals);
	if (job->poll.first_ms <= 0)
		job->poll.first_ms = JOBS_POLL_FIRST_MS;
	if (job->poll.max_ms <= 0)
		job->poll.max_ms = JOBS_POLL_MAX_MS;
	if (job->poll.max_ms < job->poll.first_ms)
		job->poll.max_ms = job->poll.first_ms;
	job->interval = job->prev_interval = job->poll.first_ms;
	if (o->wait_first) {
		job->state = JOB_WAITING;
		job->deadline = jobs_now() + jobs_poll_interval(job);
	}
	return (jobs_queue(jobs, job, id));
}

int
jobs_cancel(struct jobs *jobs, unsigned long id)
{
	struct job	*job;
	int		 found;

	jobs_lock(jobs);
	if ((job = jobs_find(jobs, id)) != NULL)
		job->cancelled = 1;
	found = job != NULL && !job->finished;
	jobs_purge_locked(jobs, id);
	jobs_unlock(jobs);
	if (found)
		curl_multi_wakeup(jobs->multi);
	return (found ? 0 : -1);
}
