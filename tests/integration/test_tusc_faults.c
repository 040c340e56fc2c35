/*
 * The TUS client against faultd, which answers as a script says: a
 * resumed upload the server still holds for an unfinished PATCH (423),
 * and a Location on another origin, which must not get the token. The
 * waits are a fake: nothing sleeps, and nothing asserts a duration.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "faultd.h"
#include "http.h"
#include "itest.h"
#include "testdir.h"
#include "tusc.h"
#include "xmalloc.h"

#define TOKEN		"tusc-Token-0a1b2c3d4e5f"
#define CHUNK		5242880LL
#define SIZE		(CHUNK + 1000)
#define TUS_HDRS	"Tus-Resumable: 1.0.0\r\n"

struct rig {
	struct faultd		*fd;
	struct http_client	*c;
	char			*dir;
	char			*file;
	struct tusc_options	 o;
	long long		 stop_at;
	int			 sleeps;
	struct buf		 notices;
};

static int
on_progress(long long done, long long total, void *arg)
{
	struct rig	*r = arg;

	assert_true(done <= total);
	return (r->stop_at > 0 && done >= r->stop_at);
}

static void
on_sleep(long seconds, void *arg)
{
	struct rig	*r = arg;

	assert_true(seconds > 0);
	r->sleeps++;
}

static void
on_notice(const char *msg, void *arg)
{
	struct rig	*r = arg;

	buf_addf(&r->notices, "%s\n", msg);
}

static void
rig_start(struct rig *r)
{
	struct http_options	 ho;
	char			*cause = NULL, blk[4096];
	long long		 done;
	int			 fd;

	memset(r, 0, sizeof *r);
	assert_non_null(r->fd = faultd_start(0));
	memset(&ho, 0, sizeof ho);
	ho.base_url = faultd_url(r->fd);
	ho.token = TOKEN;
	ho.max_retries = -1;
	if ((r->c = http_client_new(&ho, &cause)) == NULL)
		fail_msg("http_client_new: %s", cause);
	assert_non_null(r->dir = testdir_new("tuscf"));
	r->file = xprintf("%s/talk.mp4", r->dir);
	assert_true((fd = open(r->file, O_WRONLY | O_CREAT, 0600)) >= 0);
	memset(blk, 'v', sizeof blk);
	for (done = 0; done < SIZE; done += (long long)sizeof blk)
		assert_true(write(fd, blk, SIZE - done < (long long)sizeof blk ?
		    (size_t)(SIZE - done) : sizeof blk) > 0);
	assert_int_equal(close(fd), 0);
	r->o.file = r->file;
	r->o.base_url = faultd_url(r->fd);
	r->o.account = "acc";
	r->o.chunk_size = CHUNK;
	r->o.state_dir = r->dir;
	r->o.progress = on_progress;
	r->o.progress_arg = r;
	r->o.sleep = on_sleep;
	r->o.sleep_arg = r;
	r->o.notice = on_notice;
	r->o.notice_arg = r;
}

static void
rig_finish(struct rig *r)
{
	http_client_free(r->c);
	faultd_free(r->fd);
	testdir_remove(r->dir);
	free(r->dir);
	free(r->file);
	buf_free(&r->notices);
}

/* Does request i carry an Authorization header? */
static int
has_auth(struct faultd *fd, size_t i)
{
	struct faultd_request	 q;
	char			*v;
	int			 found;

	assert_int_equal(faultd_request(fd, i, &q), 0);
	v = faultd_header(&q, "Authorization");
	found = v != NULL;
	if (found)
		assert_string_equal(v, "Bearer " TOKEN);
	free(v);
	faultd_request_free(&q);
	return (found);
}

static const char *
method_of(struct faultd *fd, size_t i, char *buf, size_t len)
{
	struct faultd_request	 q;

	assert_int_equal(faultd_request(fd, i, &q), 0);
	snprintf(buf, len, "%s", q.method);
	faultd_request_free(&q);
	return (buf);
}

#define LOCKED_TIMES	6

/*
 * A run stopped after the first chunk; the next run's PATCH meets 423
 * six times (the server still holds the upload for a PATCH of the run
 * before): it waits and goes on, saying why, instead of failing.
 */
static void
test_locked_then_resumes(void **state)
{
	struct faultd_reply	 s[3 + 2 * LOCKED_TIMES + 1];
	struct tusc_result	 res;
	struct rig		 r;
	char			*cause = NULL, m[16];
	size_t			 n = 0, i;

	(void)state;
	rig_start(&r);
	memset(s, 0, sizeof s);
	s[n].status = 201;
	s[n++].headers = TUS_HDRS "Location: /accounts/acc/stream/u1\r\n"
	    "stream-media-id: u1\r\n";
	s[n].status = 204;
	s[n++].headers = TUS_HDRS "Upload-Offset: 5242880\r\n";
	/* The second run: HEAD, then PATCH refused while locked. */
	s[n].status = 200;
	s[n++].headers = TUS_HDRS "Upload-Offset: 5242880\r\n"
	    "Upload-Length: 5243880\r\n";
	for (i = 0; i < LOCKED_TIMES; i++) {
		s[n].status = 423;
		s[n++].headers = TUS_HDRS;
		s[n].status = 200;
		s[n++].headers = TUS_HDRS "Upload-Offset: 5242880\r\n"
		    "Upload-Length: 5243880\r\n";
	}
	s[n - 1].status = 204;
	s[n - 1].headers = TUS_HDRS "Upload-Offset: 5243880\r\n";
	faultd_script(r.fd, s, n);

	r.stop_at = CHUNK;
	assert_int_equal(tusc_upload(r.c, &r.o, &res, &cause),
	    STATUS_CANCELLED);
	free(cause);
	tusc_result_free(&res);
	r.stop_at = 0;

	if (tusc_upload(r.c, &r.o, &res, &cause) != STATUS_OK)
		fail_msg("tusc_upload: %s", cause);
	assert_int_equal(res.resumed_from, CHUNK);
	assert_string_equal(res.uid, "u1");
	assert_int_equal(r.sleeps, LOCKED_TIMES);
	assert_non_null(strstr(r.notices.data, "the server is still "
	    "finishing the previous request"));
	/* POST, PATCH; HEAD, then (PATCH 423, HEAD) six times, PATCH. */
	assert_int_equal(faultd_count(r.fd), 3 + 2 * LOCKED_TIMES);
	assert_string_equal(method_of(r.fd, 3, m, sizeof m), "PATCH");
	assert_string_equal(method_of(r.fd, 4, m, sizeof m), "HEAD");
	tusc_result_free(&res);
	rig_finish(&r);
}

/* Never more than TUSC_LOCKED_MAX waits: then the 423 is the answer. */
static void
test_locked_gives_up(void **state)
{
	struct faultd_reply	 s[3];
	struct tusc_result	 res;
	struct rig		 r;
	char			*cause = NULL;

	(void)state;
	rig_start(&r);
	memset(s, 0, sizeof s);
	s[0].status = 201;
	s[0].headers = TUS_HDRS "Location: /accounts/acc/stream/u1\r\n"
	    "stream-media-id: u1\r\n";
	s[1].status = 423;
	s[1].headers = TUS_HDRS;
	faultd_script(r.fd, s, 2);
	assert_int_not_equal(tusc_upload(r.c, &r.o, &res, &cause), STATUS_OK);
	assert_int_equal(res.http_status, 423);
	/* The upload's message names the request, as its callers show it. */
	if (strncmp(cause, "HEAD http://", 12) != 0 ||
	    strstr(cause, "/accounts/acc/stream/u1: HTTP 423") == NULL)
		fail_msg("cause '%s'", cause);
	assert_int_equal(r.sleeps, TUSC_LOCKED_MAX);
	assert_int_equal(http_exit_status(res.status, res.http_status),
	    HTTP_EXIT_REFUSED);
	free(cause);
	tusc_result_free(&res);
	rig_finish(&r);
}

/* A PATCH answered with no progress, again and again: it ends. */
static void
test_no_progress_ends(void **state)
{
	struct faultd_reply	 s[2];
	struct tusc_result	 res;
	struct rig		 r;
	char			*cause = NULL;

	(void)state;
	rig_start(&r);
	memset(s, 0, sizeof s);
	s[0].status = 201;
	s[0].headers = TUS_HDRS "Location: /accounts/acc/stream/u1\r\n"
	    "stream-media-id: u1\r\n";
	s[1].status = 204;
	s[1].headers = TUS_HDRS "Upload-Offset: 0\r\n";
	faultd_script(r.fd, s, 2);
	assert_int_equal(tusc_upload(r.c, &r.o, &res, &cause), STATUS_SERVER);
	assert_non_null(strstr(cause, "stored none of the"));
	assert_int_equal(faultd_count(r.fd), 1 + 1 + TUSC_RETRY_MAX);
	free(cause);
	tusc_result_free(&res);
	rig_finish(&r);
}

/* The upload URL is on another origin: no token goes there. */
static void
other_origin(const char *host, int same_faultd)
{
	struct faultd_reply	 api[2], up[1];
	struct faultd		*other;
	struct tusc_result	 res;
	struct rig		 r;
	char			*cause = NULL, *hdrs;
	struct faultd		*where;
	size_t			 i;

	rig_start(&r);
	assert_non_null(other = faultd_start(0));
	where = same_faultd ? r.fd : other;
	hdrs = xprintf(TUS_HDRS "Location: http://%s:%d/tus/u2\r\n"
	    "stream-media-id: u2\r\n", host, faultd_port(where));
	memset(api, 0, sizeof api);
	memset(up, 0, sizeof up);
	api[0].status = 201;
	api[0].headers = hdrs;
	api[1].status = 204;
	api[1].headers = TUS_HDRS "Upload-Offset: 5243880\r\n";
	up[0].status = 204;
	up[0].headers = TUS_HDRS "Upload-Offset: 5243880\r\n";
	faultd_script(r.fd, api, 2);
	faultd_script(other, up, 1);
	r.o.state_dir = NULL;
	r.o.chunk_size = 3 * CHUNK;
	/* One PATCH of everything. */
	if (tusc_upload(r.c, &r.o, &res, &cause) != STATUS_OK)
		fail_msg("tusc_upload: %s", cause);
	free(cause);
	tusc_result_free(&res);
	/* The creation went to the API with the token... */
	assert_true(has_auth(r.fd, 0));
	/* ...and nothing sent to the upload URL carries it. */
	if (same_faultd) {
		assert_true(faultd_count(r.fd) >= 2);
		for (i = 1; i < faultd_count(r.fd); i++)
			assert_false(has_auth(r.fd, i));
	} else {
		assert_true(faultd_count(other) >= 1);
		for (i = 0; i < faultd_count(other); i++)
			assert_false(has_auth(other, i));
	}
	free(hdrs);
	faultd_free(other);
	rig_finish(&r);
}

static void
test_other_port_no_token(void **state)
{
	(void)state;
	other_origin("127.0.0.1", 0);
}

static void
test_other_host_no_token(void **state)
{
	(void)state;
	/* The same port and address under another name. */
	other_origin("localhost", 1);
}

/*
 * A plain tus server (or a proxy that drops the header) sends no
 * stream-media-id: the id is the Location's last segment, and the upload
 * goes on to that URL. Without even a segment, the creation fails.
 */
static void
test_no_media_id_header(void **state)
{
	struct faultd_reply	 s[2];
	struct faultd_request	 q;
	struct tusc_result	 res;
	struct rig		 r;
	char			*cause = NULL;

	(void)state;
	rig_start(&r);
	memset(s, 0, sizeof s);
	s[0].status = 201;
	s[0].headers = TUS_HDRS "Location: /files/0f3c9a1b?x=1\r\n";
	s[1].status = 204;
	s[1].headers = TUS_HDRS "Upload-Offset: 5243880\r\n";
	faultd_script(r.fd, s, 2);
	r.o.state_dir = NULL;
	r.o.chunk_size = 3 * CHUNK;
	if (tusc_upload(r.c, &r.o, &res, &cause) != STATUS_OK)
		fail_msg("tusc_upload: %s", cause);
	assert_string_equal(res.uid, "0f3c9a1b");
	assert_int_equal(faultd_request(r.fd, 1, &q), 0);
	assert_string_equal(q.method, "PATCH");
	assert_string_equal(q.path, "/files/0f3c9a1b?x=1");
	faultd_request_free(&q);
	tusc_result_free(&res);
	rig_finish(&r);

	rig_start(&r);
	s[0].headers = TUS_HDRS "Location: /\r\n";
	faultd_script(r.fd, s, 1);
	r.o.state_dir = NULL;
	assert_int_equal(tusc_upload(r.c, &r.o, &res, &cause), STATUS_PARSE);
	assert_non_null(strstr(cause, "no stream-media-id header"));
	free(cause);
	tusc_result_free(&res);
	rig_finish(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locked_then_resumes),
		cmocka_unit_test(test_locked_gives_up),
		cmocka_unit_test(test_no_progress_ends),
		cmocka_unit_test(test_other_port_no_token),
		cmocka_unit_test(test_other_host_no_token),
		cmocka_unit_test(test_no_media_id_header),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
