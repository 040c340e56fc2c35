/*
 * Integration tests for jobs.c against a real edgemu with demo data:
 * concurrent requests, failures, polls that hold at once or after other
 * requests change the server, cancels, jobs_run with coalesced progress,
 * and jobs_free with work in flight. Events are waited for on jobs_fd
 * (with a generous bound); nothing sleeps and nothing asserts a duration.
 */
#include "config.h"

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "http.h"
#include "itest.h"
#include "jobs.h"

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

/* A bound on one wait, not a timing assertion. */
#define WAIT_MS		30000
#define RULE		"{\"description\":\"jobs.c test\",\"match\":{\"request\":" \
			"{\"url\":\"example.com/jobs/*\"}},\"threshold\":10," \
			"\"period\":60,\"action\":{\"mode\":\"simulate\"," \
			"\"timeout\":60}}"

struct rig {
	struct edgemu		 e;
	struct http_client	*c;
	struct jobs		*j;
};

static int
setup(void **state)
{
	struct rig		*r = calloc(1, sizeof *r);
	struct http_options	 o = { 0 };
	char			*cause = NULL;

	edgemu_start(&r->e, NULL, 1, NULL);
	o.base_url = r->e.url;
	o.token = r->e.token;
	if ((r->c = http_client_new(&o, &cause)) == NULL)
		fail_msg("http_client_new: %s", cause);
	if ((r->j = jobs_new(r->c, &cause)) == NULL)
		fail_msg("jobs_new: %s", cause);
	*state = r;
	return (0);
}

static int
teardown(void **state)
{
	struct rig	*r = *state;

	jobs_free(r->j);
	http_client_free(r->c);
	edgemu_finish(&r->e);
	free(r);
	return (0);
}

/* The next event, waiting on the fd for it. */
static void
next_event(struct jobs *j, struct jobs_event *ev)
{
	struct pollfd	pfd;
	int		n;

	for (;;) {
		if (jobs_next_event(j, ev))
			return;
		pfd.fd = jobs_fd(j);
		pfd.events = POLLIN;
		pfd.revents = 0;
		n = poll(&pfd, 1, WAIT_MS);
		if (n == 0)
			fail_msg("no event in %d ms", WAIT_MS);
		assert_true(n > 0 || n == -1);
	}
}

/* The fd is readable exactly while events wait. */
static void
assert_fd_idle(struct jobs *j)
{
	struct pollfd	pfd = { .fd = jobs_fd(j), .events = POLLIN };

	assert_int_equal(poll(&pfd, 1, 0), 0);
}

static char *
ops_path(struct rig *r)
{
	return (itest_printf("/zones/%s/api_gateway/operations", r->e.zone));
}

static char *
rl_path(struct rig *r, const char *id)
{
	return (itest_printf("/zones/%s/rate_limits%s%s", r->e.zone,
	    id != NULL ? "/" : "", id != NULL ? id : ""));
}

static unsigned long
submit_get(struct rig *r, const char *path, void *tag)
{
	struct http_request	req = { .method = "GET", .path = path };
	unsigned long		id = 0;

	assert_int_equal(jobs_submit(r->j, &req, tag, &id), STATUS_OK);
	assert_true(id != 0);
	return (id);
}

/* Wait for one job's end, checking no event for not (if not 0) comes. */
static void
wait_end(struct rig *r, unsigned long id, unsigned long not,
    struct jobs_event *out)
{
	struct jobs_event	ev;

	for (;;) {
		next_event(r->j, &ev);
		if (not != 0 && ev.id == not)
			fail_msg("an event (kind %d) for cancelled job %lu",
			    ev.kind, not);
		if (ev.id == id && (ev.kind == JOBS_EVENT_DONE ||
		    ev.kind == JOBS_EVENT_FAILED)) {
			*out = ev;
			return;
		}
		jobs_event_free(&ev);
	}
}

static void
create_operation(struct rig *r, int n)
{
	char	*path, *body;
	cJSON	*op;

	path = itest_printf("/zones/%s/api_gateway/operations/item",
	    r->e.zone);
	body = itest_printf("{\"method\":\"GET\",\"host\":\"jobs.example\","
	    "\"endpoint\":\"/jobs/%d\"}", n);
	op = api_ok(&r->e, "POST", path, body);
	cJSON_Delete(op);
	free(body);
	free(path);
}

/* ---- requests ---------------------------------------------------------- */

static void
test_concurrent_gets(void **state)
{
	struct rig		*r = *state;
	char			*paths[4];
	unsigned long		 ids[nitems(paths)];
	int			 seen[nitems(paths)] = { 0 };
	struct jobs_event	 ev;
	size_t			 i, done = 0;

	paths[0] = ops_path(r);
	paths[1] = rl_path(r, NULL);
	paths[2] = ops_path(r);
	paths[3] = rl_path(r, NULL);
	for (i = 0; i < nitems(paths); i++)
		ids[i] = submit_get(r, paths[i], &seen[i]);
	while (done < nitems(paths)) {
		next_event(r->j, &ev);
		for (i = 0; i < nitems(ids); i++) {
			if (ev.id == ids[i])
				break;
		}
		assert_true(i < nitems(ids));
		assert_ptr_equal(ev.tag, &seen[i]);
		if (ev.kind != JOBS_EVENT_DONE)
			fail_msg("%s: kind %d: %s", paths[i], ev.kind,
			    ev.cause);
		assert_int_equal(ev.status, STATUS_OK);
		assert_int_equal(ev.http_status, 200);
		assert_true(cJSON_IsArray(ev.result));
		assert_true(cJSON_GetArraySize(ev.result) > 0);
		assert_null(ev.resp.api.result);
		assert_true(ev.resp.api.has_info);
		assert_int_equal(seen[i], 0);
		seen[i] = 1;
		done++;
		jobs_event_free(&ev);
	}
	assert_false(jobs_next_event(r->j, &ev));
	assert_fd_idle(r->j);
	assert_int_equal(jobs_pending(r->j), 0);
	for (i = 0; i < nitems(paths); i++)
		free(paths[i]);
}

static void
test_not_found(void **state)
{
	struct rig		*r = *state;
	char			*path, *message;
	struct jobs_event	 ev;
	unsigned long		 id;

	path = rl_path(r, "0123456789abcdef0123456789abcdef");
	message = api_fail(&r->e, "GET", path, NULL, 404);
	id = submit_get(r, path, NULL);
	wait_end(r, id, 0, &ev);
	assert_int_equal(ev.kind, JOBS_EVENT_FAILED);
	assert_int_equal(ev.status, STATUS_NOT_FOUND);
	assert_int_equal(ev.http_status, 404);
	assert_non_null(ev.cause);
	if (strstr(ev.cause, message) == NULL)
		fail_msg("'%s' does not hold '%s'", ev.cause, message);
	assert_false(ev.resp.api.ok);
	jobs_event_free(&ev);
	free(message);
	free(path);
}

/* A request with a body and headers is copied: the caller's goes away. */
static void
test_post_copied(void **state)
{
	struct rig		*r = *state;
	struct http_request	 req = { .method = "POST" };
	const char		*headers[] = { "X-Jobs-Test: 1", NULL };
	char			*path = rl_path(r, NULL), *json = strdup(RULE);
	struct jobs_event	 ev;
	unsigned long		 id;

	req.path = path;
	req.json = json;
	req.headers = headers;
	assert_int_equal(jobs_submit(r->j, &req, NULL, &id), STATUS_OK);
	memset(json, 'x', strlen(json));
	free(json);
	free(path);
	path = NULL;
	wait_end(r, id, 0, &ev);
	if (ev.kind != JOBS_EVENT_DONE)
		fail_msg("POST: %s", ev.cause);
	assert_string_equal(cJSON_GetObjectItem(ev.result,
	    "description")->valuestring, "jobs.c test");
	jobs_event_free(&ev);
}

static void
test_cancel_request(void **state)
{
	struct rig		*r = *state;
	char			*path = ops_path(r);
	struct jobs_event	 ev;
	unsigned long		 id, sentinel;

	id = submit_get(r, path, NULL);
	/* It may be over already (-1); either way its DONE never shows. */
	(void)jobs_cancel(r->j, id);
	sentinel = submit_get(r, path, NULL);
	wait_end(r, sentinel, id, &ev);
	assert_int_equal(ev.kind, JOBS_EVENT_DONE);
	jobs_event_free(&ev);
	/* Over and gone: a second cancel is refused. */
	assert_int_equal(jobs_cancel(r->j, sentinel), -1);
	free(path);
}

/* ---- polls ------------------------------------------------------------- */

static void
test_poll_true_at_once(void **state)
{
	struct rig			*r = *state;
	struct jobs_poll_options	 o = { .field = "disabled",
					     .equals = "false" };
	struct http_request		 req = { .method = "GET" };
	struct jobs_event		 ev;
	char				*list = rl_path(r, NULL), *path;
	cJSON				*rule;
	unsigned long			 id;

	rule = api_ok(&r->e, "POST", list, RULE);
	path = rl_path(r, cJSON_GetObjectItem(rule, "id")->valuestring);
	req.path = path;
	assert_int_equal(jobs_poll(r->j, &req, &o, NULL, &id), STATUS_OK);
	next_event(r->j, &ev);
	assert_int_equal(ev.id, id);
	if (ev.kind != JOBS_EVENT_DONE)
		fail_msg("poll: kind %d: %s", ev.kind, ev.cause);
	assert_string_equal(cJSON_GetObjectItem(ev.result, "id")->valuestring,
	    cJSON_GetObjectItem(rule, "id")->valuestring);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(ev.result, "disabled")));
	jobs_event_free(&ev);
	cJSON_Delete(rule);
	free(path);
	free(list);
}

/* A poll of a nested field that never holds fails when the rule goes. */
static void
test_poll_fails(void **state)
{
	struct rig			*r = *state;
	struct jobs_poll_options	 o = { .field = "action.mode",
					     .equals = "ban", .first_ms = 5,
					     .max_ms = 20 };
	struct http_request		 req = { .method = "GET" };
	struct jobs_event		 ev;
	char				*list = rl_path(r, NULL), *path;
	cJSON				*rule, *gone;
	unsigned long			 id;
	int				 deleted = 0;

	rule = api_ok(&r->e, "POST", list, RULE);
	path = rl_path(r, cJSON_GetObjectItem(rule, "id")->valuestring);
	req.path = path;
	assert_int_equal(jobs_poll(r->j, &req, &o, NULL, &id), STATUS_OK);
	for (;;) {
		next_event(r->j, &ev);
		assert_int_equal(ev.id, id);
		if (ev.kind != JOBS_EVENT_POLL_UPDATE)
			break;
		assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(
		    ev.result, "action"), "mode")->valuestring, "simulate");
		if (!deleted) {
			gone = api_ok(&r->e, "DELETE", path, NULL);
			cJSON_Delete(gone);
			deleted = 1;
		}
		jobs_event_free(&ev);
	}
	assert_true(deleted);
	assert_int_equal(ev.kind, JOBS_EVENT_FAILED);
	assert_int_equal(ev.http_status, 404);
	jobs_event_free(&ev);
	cJSON_Delete(rule);
	free(path);
	free(list);
}

static int
count_at_least(const struct http_response *resp, void *arg)
{
	return (resp->api.total_count >= *(long *)arg);
}

/* The list grows (another connection adds to it) until the poll holds. */
static void
test_poll_flips(void **state)
{
	struct rig			*r = *state;
	struct http_request		 req = { .method = "GET" };
	struct jobs_poll_options	 o = { .until = count_at_least,
					     .first_ms = 5, .max_ms = 20 };
	struct jobs_event		 ev;
	char				*path = ops_path(r);
	cJSON				*list;
	struct http_resp		 hr;
	long				 target;
	unsigned long			 before, after;
	unsigned long			 id;
	int				 created = 0, updates = 0;

	http_json(&r->e, "GET", path, NULL, &hr);
	assert_int_equal(hr.status, 200);
	list = cJSON_GetObjectItem(hr.json, "result_info");
	target = (long)cJSON_GetObjectItem(list, "total_count")->valuedouble
	    + 3;
	http_resp_free(&hr);
	o.until_arg = &target;
	req.path = path;
	http_log_snapshot(r->c, NULL, 0, &before);
	assert_int_equal(jobs_poll(r->j, &req, &o, &target, &id), STATUS_OK);
	for (;;) {
		next_event(r->j, &ev);
		assert_int_equal(ev.id, id);
		assert_ptr_equal(ev.tag, &target);
		if (ev.kind != JOBS_EVENT_POLL_UPDATE)
			break;
		assert_true(ev.resp.api.total_count < target);
		updates++;
		create_operation(r, created++);
		jobs_event_free(&ev);
	}
	if (ev.kind != JOBS_EVENT_DONE)
		fail_msg("poll: kind %d: %s", ev.kind, ev.cause);
	assert_true(ev.resp.api.total_count >= target);
	/* A poll may cross a creation, so there may be more. */
	assert_true(created >= 3);
	assert_true(updates >= 1);
	/* Every poll was a request of its own. */
	http_log_snapshot(r->c, NULL, 0, &after);
	assert_true(after >= before + updates + 1);
	jobs_event_free(&ev);
	free(path);
}

static int
never(const struct http_response *resp, void *arg)
{
	(void)resp;
	(void)arg;
	return (0);
}

static void
test_cancel_poll(void **state)
{
	struct rig			*r = *state;
	struct http_request		 req = { .method = "GET" };
	struct jobs_poll_options	 o = { .until = never, .first_ms = 1,
					     .max_ms = 2 };
	struct jobs_event		 ev;
	char				*path = rl_path(r, NULL);
	unsigned long			 id, sentinel;
	int				 i;

	req.path = path;
	assert_int_equal(jobs_poll(r->j, &req, &o, NULL, &id), STATUS_OK);
	/* In flight: it has answered (at least) twice. */
	for (i = 0; i < 2; i++) {
		next_event(r->j, &ev);
		assert_int_equal(ev.id, id);
		assert_int_equal(ev.kind, JOBS_EVENT_POLL_UPDATE);
		assert_true(cJSON_IsArray(ev.result));
		jobs_event_free(&ev);
	}
	assert_int_equal(jobs_cancel(r->j, id), 0);
	/* Nothing of it waits any more, nor comes before or with these. */
	for (i = 0; i < 3; i++) {
		sentinel = submit_get(r, path, NULL);
		wait_end(r, sentinel, id, &ev);
		assert_int_equal(ev.kind, JOBS_EVENT_DONE);
		jobs_event_free(&ev);
	}
	assert_false(jobs_next_event(r->j, &ev));
	assert_int_equal(jobs_pending(r->j), 0);
	free(path);
}

/*
 * wait_first: nothing is sent before the first interval. Sequential GETs
 * end one after another meanwhile (a poll sent at once would answer
 * within the first), and its first answer comes once the interval ends.
 */
static void
test_poll_wait_first(void **state)
{
	struct rig			*r = *state;
	struct http_request		 req = { .method = "GET" };
	struct jobs_poll_options	 o = { .until = never, .first_ms = 60000,
					     .max_ms = 60000, .wait_first = 1 };
	struct jobs_poll_options	 soon = { .until = never,
					     .first_ms = 50, .max_ms = 50,
					     .wait_first = 1 };
	struct jobs_event		 ev;
	char				*path = rl_path(r, NULL);
	unsigned long			 id, sentinel, before, after;
	int				 i;

	req.path = path;
	http_log_snapshot(r->c, NULL, 0, &before);
	assert_int_equal(jobs_poll(r->j, &req, &o, NULL, &id), STATUS_OK);
	for (i = 0; i < 5; i++) {
		sentinel = submit_get(r, path, NULL);
		/* wait_end fails on any event of the poll. */
		wait_end(r, sentinel, id, &ev);
		assert_int_equal(ev.kind, JOBS_EVENT_DONE);
		jobs_event_free(&ev);
	}
	http_log_snapshot(r->c, NULL, 0, &after);
	assert_int_equal(after - before, 5);
	assert_int_equal(jobs_pending(r->j), 1);
	assert_int_equal(jobs_cancel(r->j, id), 0);

	/* A short first interval: the poll answers after it. */
	assert_int_equal(jobs_poll(r->j, &req, &soon, NULL, &id), STATUS_OK);
	next_event(r->j, &ev);
	assert_int_equal(ev.id, id);
	assert_int_equal(ev.kind, JOBS_EVENT_POLL_UPDATE);
	jobs_event_free(&ev);
	assert_int_equal(jobs_cancel(r->j, id), 0);
	free(path);
}

/* ---- runs -------------------------------------------------------------- */

#define STEPS	1000

struct slow {
	sem_t	half;		/* the run is half-way */
	sem_t	go_on;		/* the consumer has looked */
	sem_t	end;		/* the last progress is reported */
	int	fail;
};

static enum status
run_steps(struct jobs *j, unsigned long id, void *arg, cJSON **result,
    char **cause)
{
	struct slow	*s = arg;
	int		 i;

	for (i = 1; i <= STEPS; i++) {
		if (jobs_progress(j, id, i, STEPS) != 0)
			return (STATUS_CANCELLED);
		if (i == STEPS / 2) {
			sem_post(&s->half);
			while (sem_wait(&s->go_on) != 0)
				;
		}
	}
	sem_post(&s->end);
	if (s->fail) {
		*cause = strdup("the upload broke");
		return (STATUS_TRANSPORT);
	}
	*result = cJSON_CreateNumber(STEPS);
	return (STATUS_OK);
}

static void
run_and_watch(struct rig *r, int fail)
{
	struct slow		 s = { .fail = fail };
	struct jobs_event	 ev;
	unsigned long		 id;
	int			 progress = 0;
	long long		 last = 0;

	sem_init(&s.half, 0, 0);
	sem_init(&s.go_on, 0, 0);
	sem_init(&s.end, 0, 0);
	assert_int_equal(jobs_run(r->j, run_steps, &s, &s, &id), STATUS_OK);
	/* The consumer is slow: it looks only half-way... */
	while (sem_wait(&s.half) != 0)
		;
	assert_int_equal(jobs_next_event(r->j, &ev), 1);
	assert_int_equal(ev.kind, JOBS_EVENT_PROGRESS);
	assert_int_equal(ev.done, STEPS / 2);
	assert_int_equal(ev.total, STEPS);
	jobs_event_free(&ev);
	assert_int_equal(jobs_next_event(r->j, &ev), 0);
	assert_fd_idle(r->j);
	sem_post(&s.go_on);
	/* ...and then at the end: 500 reports became one. */
	while (sem_wait(&s.end) != 0)
		;
	for (;;) {
		next_event(r->j, &ev);
		assert_int_equal(ev.id, id);
		assert_ptr_equal(ev.tag, &s);
		if (ev.kind != JOBS_EVENT_PROGRESS)
			break;
		assert_true(ev.done > last);
		last = ev.done;
		progress++;
		jobs_event_free(&ev);
	}
	assert_int_equal(progress, 1);
	assert_int_equal(last, STEPS);
	if (fail) {
		assert_int_equal(ev.kind, JOBS_EVENT_FAILED);
		assert_int_equal(ev.status, STATUS_TRANSPORT);
		assert_string_equal(ev.cause, "the upload broke");
		assert_null(ev.result);
	} else {
		assert_int_equal(ev.kind, JOBS_EVENT_DONE);
		assert_int_equal(ev.status, STATUS_OK);
		assert_int_equal(ev.result->valuedouble, STEPS);
		assert_null(ev.cause);
	}
	jobs_event_free(&ev);
	sem_destroy(&s.half);
	sem_destroy(&s.go_on);
	sem_destroy(&s.end);
}

static void
test_run_progress(void **state)
{
	run_and_watch(*state, 0);
	run_and_watch(*state, 1);
}

/* Runs until cancelled, telling the test it started. */
static enum status
run_forever(struct jobs *j, unsigned long id, void *arg, cJSON **result,
    char **cause)
{
	long long	n = 0;

	(void)result;
	(void)cause;
	sem_post(arg);
	while (jobs_progress(j, id, ++n, -1) == 0)
		;
	assert_true(jobs_cancelled(j, id));
	return (STATUS_CANCELLED);
}

static void
test_cancel_run(void **state)
{
	struct rig		*r = *state;
	struct jobs_event	 ev;
	char			*path = ops_path(r);
	sem_t			 started;
	unsigned long		 id, sentinel;

	sem_init(&started, 0, 0);
	assert_int_equal(jobs_run(r->j, run_forever, &started, NULL, &id),
	    STATUS_OK);
	while (sem_wait(&started) != 0)
		;
	assert_false(jobs_cancelled(r->j, id));
	assert_int_equal(jobs_cancel(r->j, id), 0);
	assert_true(jobs_cancelled(r->j, id));
	sentinel = submit_get(r, path, NULL);
	wait_end(r, sentinel, id, &ev);
	jobs_event_free(&ev);
	assert_false(jobs_next_event(r->j, &ev));
	sem_destroy(&started);
	free(path);
}

/* ---- the end ----------------------------------------------------------- */

static void
test_free_in_flight(void **state)
{
	struct rig			*r = *state;
	struct http_request		 req = { .method = "GET" };
	struct jobs_poll_options	 o = { .until = never };
	char				*ops = ops_path(r), *rl = rl_path(r, NULL);
	sem_t				 started;
	unsigned long			 id;
	int				 i;

	sem_init(&started, 0, 0);
	for (i = 0; i < 8; i++)
		submit_get(r, i % 2 ? ops : rl, NULL);
	req.path = rl;
	assert_int_equal(jobs_poll(r->j, &req, &o, NULL, &id), STATUS_OK);
	assert_int_equal(jobs_run(r->j, run_forever, &started, NULL, &id),
	    STATUS_OK);
	while (sem_wait(&started) != 0)
		;
	/* Let some requests get under way, some answered and unread. */
	for (i = 0; i < 2; i++) {
		struct jobs_event ev;

		next_event(r->j, &ev);
		jobs_event_free(&ev);
	}
	jobs_free(r->j);
	r->j = NULL;
	sem_destroy(&started);
	free(ops);
	free(rl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_concurrent_gets, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_not_found, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_post_copied, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cancel_request, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_poll_true_at_once, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_poll_fails, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_poll_flips, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cancel_poll, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_poll_wait_first, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_run_progress, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cancel_run, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_free_in_flight, setup,
		    teardown),
	};
	int	rc;

	curl_global_init(CURL_GLOBAL_ALL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return (rc);
}
