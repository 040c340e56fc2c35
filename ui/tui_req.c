/*
 * The console's requests in flight: each job the worker runs is tagged
 * with a struct tui_req, kept on the console's list until its last event.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "http.h"
#include "journal.h"
#include "log.h"
#include "tui.h"
#include "xmalloc.h"

void
tui_req_free(struct tui_req *r)
{
	free(r->id);
	free(r->path);
	cJSON_Delete(r->before);
	cJSON_Delete(r->data);
	free(r);
}

static struct tui_req *
tui_req_started(struct tui *t, struct tui_req *r, enum status st)
{
	if (st != STATUS_OK) {
		tui_req_free(r);
		return (NULL);
	}
	r->next = t->reqs;
	t->reqs = r;
	return (r);
}

struct tui_req *
tui_submit_request(struct tui *t, struct panel *p, enum tui_req_type type,
    const struct http_request *hr)
{
	struct tui_req	*r;
	enum status	 st;

	r = xcalloc(1, sizeof *r);
	r->panel = p;
	r->type = type;
	r->gen = p != NULL ? p->gen : 0;
	r->method = hr->method;
	r->path = xstrdup(hr->path);
	st = jobs_submit(t->jobs, hr, r, &r->job);
	if (st != STATUS_OK)
		tui_message(t, TUI_MSG_ERROR, "%s %s: %s", hr->method,
		    hr->path, status_message(st));
	return (tui_req_started(t, r, st));
}

struct tui_req *
tui_submit(struct tui *t, struct panel *p, enum tui_req_type type,
    const char *method, const char *path, const cJSON *body)
{
	struct http_request	 hr;
	struct tui_req		*r;
	char			*json = NULL;

	if (http_method_mutates(method) && tui_refuse_readonly(t, method))
		return (NULL);
	memset(&hr, 0, sizeof hr);
	hr.method = method;
	hr.path = path;
	if (body != NULL) {
		if ((json = cJSON_PrintUnformatted(body)) == NULL)
			fatalx("out of memory");
		hr.json = json;
	}
	r = tui_submit_request(t, p, type, &hr);
	cJSON_free(json);
	return (r);
}

static struct tui_req *
tui_req_link(struct xfer *x, const char *method, const char *path)
{
	struct tui_req	*r;

	r = xcalloc(1, sizeof *r);
	r->xfer = x;
	r->type = TUI_REQ_OTHER;
	r->method = method;
	r->path = xstrdup(path);
	return (r);
}


struct tui_req *
tui_submit_job(struct tui *t, struct xfer *x, jobs_run_cb fn, void *arg)
{
	struct tui_req	*r;

	r = tui_req_link(x, "PATCH", "(upload)");
	return (tui_req_started(t, r, jobs_run(t->jobs, fn, arg, r, &r->job)));
}

struct tui_req *
tui_submit_poll(struct tui *t, struct xfer *x, const char *path,
    const struct jobs_poll_options *po)
{
	struct http_request	 hr;
	struct tui_req		*r;

	memset(&hr, 0, sizeof hr);
	hr.method = "GET";
	hr.path = path;
	r = tui_req_link(x, "GET", path);
	return (tui_req_started(t, r, jobs_poll(t->jobs, &hr, po, r,
	    &r->job)));
}

struct tui_req *
tui_submit_xfer(struct tui *t, struct xfer *x, const char *method,
    const char *path)
{
	struct http_request	 hr;
	struct tui_req		*r;

	memset(&hr, 0, sizeof hr);
	hr.method = method;
	hr.path = path;
	r = tui_req_link(x, method, path);
	return (tui_req_started(t, r, jobs_submit(t->jobs, &hr, r, &r->job)));
}

struct tui_req *
tui_submit_view(struct tui *t, const char *method, const char *path,
    void (*done)(struct tui *, struct tui_req *, struct jobs_event *),
    void *arg)
{
	struct tui_req	*r;

	if ((r = tui_submit(t, NULL, TUI_REQ_OTHER, method, path,
	    NULL)) != NULL) {
		r->done = done;
		r->done_arg = arg;
	}
	return (r);
}

struct tui_req *
tui_submit_view_job(struct tui *t, jobs_run_cb fn, void *fn_arg,
    void (*done)(struct tui *, struct tui_req *, struct jobs_event *),
    void *arg)
{
	struct tui_req	*r;
	enum status	 st;

	r = xcalloc(1, sizeof *r);
	r->type = TUI_REQ_OTHER;
	r->method = "RUN";
	r->path = xstrdup("(job)");
	r->done = done;
	r->done_arg = arg;
	if ((st = jobs_run(t->jobs, fn, fn_arg, r, &r->job)) != STATUS_OK)
		tui_message(t, TUI_MSG_ERROR, "%s", status_message(st));
	return (tui_req_started(t, r, st));
}

/* Unlink the request a job's event belongs to. */
struct tui_req *
tui_req_take(struct tui *t, void *tag)
{
	struct tui_req	**pp;

	for (pp = &t->reqs; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == tag) {
			struct tui_req *r = *pp;
			*pp = r->next;
			return (r);
		}
	}
	return (NULL);
}

void
tui_cancel_req(struct tui *t, struct tui_req *r)
{
	jobs_cancel(t->jobs, r->job);
	if (tui_req_take(t, r) != NULL)
		tui_req_free(r);
}

int
tui_req_known(struct tui *t, void *tag)
{
	struct tui_req	*r;

	for (r = t->reqs; r != NULL; r = r->next)
		if (r == tag)
			return (1);
	return (0);
}

void
tui_journal(struct tui *t, struct tui_req *r, long status,
    const cJSON *after)
{
	char	*dir, *cause = NULL;

	if (t->journal == NULL) {
		if ((dir = edge_session_state_dir(&t->session, &cause)) != NULL) {
			t->journal = journal_open(dir, &cause);
			free(dir);
		}
		if (t->journal == NULL) {
			tui_message(t, TUI_MSG_WARN, "journal: %s", cause);
			free(cause);
			return;
		}
	}
	if (journal_append(t->journal, t->session.profile, r->method, r->path,
	    (int)status, r->before, after, &cause) != 0) {
		tui_message(t, TUI_MSG_WARN, "journal: %s", cause);
		free(cause);
	}
}

/*
 * A failure's text: libedge gives a request's failure as the bare reason
 * (the request is in ev->resp), which suits the short status line; the
 * panel already says what was asked.
 */
const char *
tui_cause(const struct tui_req *r, const struct jobs_event *ev)
{
	(void)r;
	return (ev->cause != NULL ? ev->cause : status_message(ev->status));
}
