/*
 * Uploads from a URL (POST /stream/copy): edgemu fetches the video itself
 * on a thread of its own, HEAD for the size then GET into the video's file,
 * and hands the bytes to the processing clock as an upload's. The queue is
 * the table: a video in state "downloading" is one to fetch, so a restart
 * resumes what a stop interrupted.
 *
 * Only loopback addresses are fetched (checked on every connection, after
 * redirects too): edgemu serves tests and demos, never reaches out to the
 * network on a client's say-so.
 */
#include "config.h"

#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "apirules.h"
#include "jsonutil.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "text.h"
#include "util.h"
#include "webhook.h"
#include "xmalloc.h"

#define COPY_PATH		STREAM_ACCOUNT "/stream/copy"
#define COPY_MAX_BYTES		(4LL * 1024 * 1024 * 1024)
#define COPY_URL_MAX		2048
#define COPY_CONNECT_TIMEOUT	10L	/* seconds */
#define COPY_STALL_SECONDS	30L	/* no byte for this long: failed */
#define COPY_ERR_FETCH		"ERR_FETCH_ORIGIN_ERROR"

static struct {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	pthread_t	 thread;
	int		 running;
	int		 stopping;
	int		 kicked;
} copy_worker = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
};

static void
copy_kick(void)
{
	pthread_mutex_lock(&copy_worker.mu);
	copy_worker.kicked = 1;
	pthread_cond_signal(&copy_worker.cv);
	pthread_mutex_unlock(&copy_worker.mu);
}

static int
copy_stopping(void)
{
	int	s;

	pthread_mutex_lock(&copy_worker.mu);
	s = copy_worker.stopping;
	pthread_mutex_unlock(&copy_worker.mu);
	return (s);
}

static const cJSON *
copy_member(const cJSON *b, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(b, key);

	return (cJSON_IsNull(v) ? NULL : v);
}

/* ---- POST /copy ---------------------------------------------------------- */

/* input (or the older url): an absolute http or https URL with a host. */
static int
copy_source(const cJSON *b, const char **out, char **cause)
{
	const cJSON	*v;
	CURLU		*u;
	char		*scheme = NULL, *host = NULL;
	int		 rc = -1;

	if ((v = copy_member(b, "input")) == NULL)
		v = copy_member(b, "url");
	if (v == NULL)
		return (util_fail(cause, "input: required, the URL of the "
		    "video to copy"));
	if (!cJSON_IsString(v) || *v->valuestring == '\0' ||
	    strlen(v->valuestring) > COPY_URL_MAX)
		return (util_fail(cause, "input: must be a URL of at most %d "
		    "characters", COPY_URL_MAX));
	if ((u = curl_url()) == NULL)
		fatalx("curl_url failed");
	if (curl_url_set(u, CURLUPART_URL, v->valuestring, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		util_fail(cause, "input: '%.64s' is not an absolute URL",
		    v->valuestring);
	else if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)
		util_fail(cause, "input: the URL must be http or https, not "
		    "%.16s", scheme);
	else {
		*out = v->valuestring;
		rc = 0;
	}
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return (rc);
}

static int
copy_set_downloading(struct store *store, const char *account,
    const char *uid)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET state = 'downloading'"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'pendingupload'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static void
copy_create(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account"), *url = NULL;
	struct stream_new	 nv;
	cJSON			*meta = NULL, *v;
	char			 uid[HEX32_LEN + 1], iso[ISO_TIME_LEN];
	char			*cause = NULL;
	int64_t			 now = stream_now(), deletion;

	memset(&nv, 0, sizeof nv);
	nv.max_duration = -1;
	nv.length = -1;
	nv.kind = STREAM_UPLOAD_NONE;
	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "a JSON object with "
		    "input, the URL of the video, is required");
		return;
	}
	if (copy_source(req->json, &url, &cause) != 0 ||
	    video_new_fields(req->json, req, now, &nv, &meta, &deletion,
	    &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		goto out;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "downloaded-from");
	cJSON_AddStringToObject(meta, "downloaded-from", url);
	if (deletion != 0) {
		stream_time_iso(deletion, iso);
		nv.scheduled_deletion = iso;
	}
	if (stream_video_create(req->store, account, &nv, uid, &cause) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		goto out;
	}
	/*
	 * Made downloading and read back in one transaction: the worker may
	 * be awake already (its timer, a copy before), and must not fetch
	 * the video and move it on before the answer says downloading.
	 */
	v = NULL;
	if (store_begin(req->store) != 0 ||
	    copy_set_downloading(req->store, account, uid) != 0 ||
	    video_lookup(req->store, account, uid, &v) != 1 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		store_rollback(req->store);
		cJSON_Delete(v);
		stream_video_remove(req->store, account, uid);
		goto out;
	}
	reply_ok(rep, v);
	copy_kick();
out:
	free(cause);
	cJSON_Delete(meta);
}

/* ---- fetching ------------------------------------------------------------ */

/* The address curl is about to send a request to must be this host's. */
static int
copy_prereq(void *arg, char *ip, char *local_ip, int port, int local_port)
{
	struct in_addr	 a4;
	struct in6_addr	 a6;

	(void)arg;
	(void)local_ip;
	(void)port;
	(void)local_port;
	if (inet_pton(AF_INET, ip, &a4) == 1)
		return ((ntohl(a4.s_addr) >> 24) == 127 ? CURL_PREREQFUNC_OK :
		    CURL_PREREQFUNC_ABORT);
	if (inet_pton(AF_INET6, ip, &a6) == 1 &&
	    (IN6_IS_ADDR_LOOPBACK(&a6) || (IN6_IS_ADDR_V4MAPPED(&a6) &&
	    a6.s6_addr[12] == 127)))
		return (CURL_PREREQFUNC_OK);
	return (CURL_PREREQFUNC_ABORT);
}

static int
copy_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	(void)arg;
	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	return (copy_stopping());
}

struct copy_sink {
	int		 fd;
	int64_t		 size;		/* announced by HEAD */
	int64_t		 got;
	int		 err;		/* errno of a failed write */
	int		 over;		/* more than announced */
};

static size_t
copy_write(char *data, size_t size, size_t n, void *arg)
{
	struct copy_sink	*s = arg;
	size_t			 len = size * n, off = 0;
	ssize_t			 w;

	if (s->got + (int64_t)len > s->size) {
		s->over = 1;
		return (0);
	}
	while (off < len) {
		w = write(s->fd, data + off, len - off);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1) {
			s->err = errno;
			return (0);
		}
		off += (size_t)w;
	}
	s->got += (int64_t)len;
	return (len);
}

static CURL *
copy_easy(const char *url)
{
	CURL	*c;

	if ((c = curl_easy_init()) == NULL)
		fatalx("curl_easy_init failed");
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_PREREQFUNCTION, copy_prereq);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "edgemu-copy/" VERSION);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, COPY_CONNECT_TIMEOUT);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, COPY_STALL_SECONDS);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, copy_progress);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	return (c);
}

/* Why curl failed, in the words a video's errorReasonText carries. */
static char *
copy_curl_reason(const char *what, CURLcode rc)
{
	if (rc == CURLE_ABORTED_BY_CALLBACK)
		return (xprintf("%s: the origin is not on this host (edgemu "
		    "fetches from loopback addresses only)", what));
	return (xprintf("%s: the origin could not be reached: %s", what,
	    curl_easy_strerror(rc)));
}

/* HEAD: the size of the video. 0, -1 with a reason, 1 when stopping. */
static int
copy_head(const char *url, int64_t *size, char **why)
{
	CURL		*c = copy_easy(url);
	CURLcode	 rc;
	curl_off_t	 len = -1;
	long		 status = 0;

	curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
		curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &len);
	}
	curl_easy_cleanup(c);
	if (rc != CURLE_OK && copy_stopping())
		return (1);
	if (rc != CURLE_OK)
		*why = copy_curl_reason("HEAD", rc);
	else if (status < 200 || status > 299)
		*why = xprintf("HEAD: the origin answered HTTP %ld", status);
	else if (len < 0)
		*why = xstrdup("HEAD: the origin did not give the video's "
		    "size (Content-Length)");
	else if (len == 0)
		*why = xstrdup("HEAD: the origin's file is empty");
	else if (len > COPY_MAX_BYTES)
		*why = xprintf("HEAD: the video is %lld bytes, more than the "
		    "%lld edgemu copies", (long long)len,
		    (long long)COPY_MAX_BYTES);
	else {
		*size = len;
		return (0);
	}
	return (-1);
}

/* GET into fd: exactly size bytes. 0, -1 with a reason, 1 when stopping. */
static int
copy_get(const char *url, int fd, int64_t size, char **why)
{
	struct copy_sink	 s = { fd, size, 0, 0, 0 };
	CURL			*c = copy_easy(url);
	CURLcode		 rc;
	long			 status = 0;

	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, copy_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	if (rc != CURLE_OK && copy_stopping())
		return (1);
	if (s.err != 0) {
		log_warn("copy: writing the video: %s", strerror(s.err));
		*why = xprintf("GET: storing the video failed: %s",
		    strerror(s.err));
	} else if (s.over)
		*why = xprintf("GET: the origin sent more than the %lld bytes "
		    "HEAD announced", (long long)size);
	else if (rc == CURLE_HTTP_RETURNED_ERROR)
		*why = xprintf("GET: the origin answered HTTP %ld", status);
	else if (rc != CURLE_OK)
		*why = copy_curl_reason("GET", rc);
	else if (s.got != size)
		*why = xprintf("GET: the origin sent %lld of the %lld bytes "
		    "HEAD announced", (long long)s.got, (long long)size);
	else if (fsync(fd) != 0)
		*why = xprintf("GET: storing the video failed: %s",
		    strerror(errno));
	else
		return (0);
	return (-1);
}

/* ---- the worker ---------------------------------------------------------- */

struct copy_job {
	char	 account[HEX32_LEN + 1];
	char	 uid[HEX32_LEN + 1];
	char	*url;			/* NULL: meta lost it */
};

/* The oldest video waiting to be fetched: 1, 0 when none, -1. */
static int
copy_next(struct store *store, struct copy_job *job)
{
	static const char	 sql[] =
	    "SELECT account, uid, meta FROM stream_video"
	    " WHERE state = 'downloading' ORDER BY created LIMIT 1";
	sqlite3_stmt		*st = store_stmt(store, sql);
	const cJSON		*from;
	cJSON			*meta;
	int			 rc;

	memset(job, 0, sizeof *job);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(job->account, sizeof job->account, "%s",
		    video_col_text(st, 0));
		snprintf(job->uid, sizeof job->uid, "%s",
		    video_col_text(st, 1));
		meta = cJSON_Parse(video_col_text(st, 2));
		from = cJSON_GetObjectItemCaseSensitive(meta,
		    "downloaded-from");
		if (cJSON_IsString(from))
			job->url = xstrdup(from->valuestring);
		cJSON_Delete(meta);
	}
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* The fetch failed: the video ends in error, and the webhook hears of it. */
static int
copy_fail(struct store *store, const struct copy_job *job, const char *why)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET state = 'error', error_code = ?3,"
	    " error_text = ?4, modified = ?5"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'downloading'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	cJSON			*v;
	int			 rc;

	log_info("copy %s: %s", job->uid, why);
	sqlite3_bind_text(st, 1, job->account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, job->uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, COPY_ERR_FETCH, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, why, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, stream_now());
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	if ((v = stream_video_load(store, job->account, job->uid)) != NULL) {
		webhook_notify(store, job->account, v);
		cJSON_Delete(v);
	}
	return (0);
}

/* The bytes are in: processing takes over, as after an upload's last byte. */
static int
copy_done(struct store *store, const struct copy_job *job, int64_t size)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET state = 'pendingupload'"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'downloading'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			*cause = NULL;
	int			 rc, changed;

	sqlite3_bind_text(st, 1, job->account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, job->uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	changed = sqlite3_changes(store_db(store)) != 0;
	if (changed && stream_upload_record(store, job->account, job->uid,
	    size, 1, &cause) < 0) {
		log_warn("copy %s: %s", job->uid, cause);
		free(cause);
		return (-1);
	}
	free(cause);
	return (0);
}

/* Fetch one video. 1 if there was one, 0 if not, -1 on a store failure. */
static int
copy_one(struct store *store)
{
	struct copy_job	 job;
	char		*path, *why = NULL;
	int64_t		 size = 0;
	int		 fd, rc;

	if ((rc = copy_next(store, &job)) <= 0)
		return (rc);
	if (job.url == NULL)
		rc = copy_fail(store, &job, "meta[\"downloaded-from\"] was "
		    "removed before the video was fetched");
	else if ((rc = copy_head(job.url, &size, &why)) == 0) {
		path = stream_video_file(store, job.account, job.uid);
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		free(path);
		if (fd == -1) {
			/* Deleted since: its file went with it. */
			rc = copy_fail(store, &job, "the video's file is gone");
		} else {
			rc = copy_get(job.url, fd, size, &why);
			close(fd);
			if (rc == 0)
				rc = copy_done(store, &job, size);
		}
	}
	if (rc == 1) {
		/* Stopping: left downloading, fetched again after a restart. */
		free(job.url);
		return (0);
	}
	if (rc < 0 && why != NULL)
		rc = copy_fail(store, &job, why);
	free(why);
	free(job.url);
	return (rc < 0 ? -1 : 1);
}

static void *
copy_main(void *arg)
{
	struct store	*store = arg;
	struct timespec	 ts;
	int		 rc = 0;

	pthread_mutex_lock(&copy_worker.mu);
	while (!copy_worker.stopping) {
		copy_worker.kicked = 0;
		pthread_mutex_unlock(&copy_worker.mu);
		while (!copy_stopping() && (rc = copy_one(store)) == 1)
			;
		if (rc < 0)
			log_warn("copy: %s", store_errmsg(store));
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 5;
		pthread_mutex_lock(&copy_worker.mu);
		if (copy_worker.stopping || copy_worker.kicked)
			continue;
		pthread_cond_timedwait(&copy_worker.cv, &copy_worker.mu, &ts);
	}
	pthread_mutex_unlock(&copy_worker.mu);
	return (NULL);
}

static int
copy_start(struct server *srv, char **cause)
{
	int	rc;

	copy_worker.stopping = 0;
	copy_worker.kicked = 1;
	if ((rc = pthread_create(&copy_worker.thread, NULL, copy_main,
	    server_store(srv))) != 0) {
		*cause = xprintf("copy thread: %s", strerror(rc));
		return (-1);
	}
	copy_worker.running = 1;
	return (0);
}

static void
copy_stop(struct server *srv)
{
	(void)srv;
	pthread_mutex_lock(&copy_worker.mu);
	copy_worker.stopping = 1;
	pthread_cond_signal(&copy_worker.cv);
	pthread_mutex_unlock(&copy_worker.mu);
	if (copy_worker.running)
		pthread_join(copy_worker.thread, NULL);
	copy_worker.running = 0;
}

/* ---- the area ------------------------------------------------------------ */

static const struct route copy_routes[] = {
	{ HTTP_POST, COPY_PATH, copy_create, ROUTE_BODY_JSON },
};

const struct area copy_area = {
	.name = "copy",
	.routes = copy_routes,
	.nroutes = nitems(copy_routes),
	.start = copy_start,
	.stop = copy_stop,
};
