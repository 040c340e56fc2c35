/*
 * The Stream webhook under /accounts/{account}/stream/webhook: one
 * notification URL and secret per account, and a delivery thread that POSTs
 * each finished video there, signed the way Stream signs it, with retries.
 *
 * Deliveries wait in SQLite, not in memory, so a restart (or a crash)
 * resumes them; the thread reads the account's URL and secret when it sends,
 * so a replaced webhook gets the pending ones and a deleted one drops them.
 */
#include "config.h"

#include <arpa/inet.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "apirules.h"
#include "buf.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "util.h"
#include "webhook.h"
#include "xmalloc.h"

#define WEBHOOK_PATH		STREAM_ACCOUNT "/stream/webhook"
/* Loopback, port 9 (discard): the demo never sends anything off the host. */
#define WEBHOOK_DEMO_URL	"https://127.0.0.1:9/stream"

/* Bounds on one attempt, so a dead receiver never holds the queue long. */
#define WEBHOOK_CONNECT_TIMEOUT	5L	/* seconds */
#define WEBHOOK_TOTAL_TIMEOUT	10L	/* seconds */
/*
 * The longest the thread sleeps without looking at the table: a notification
 * queued inside a caller's transaction is only visible once that commits,
 * after the wake-up it sent.
 */
#define WEBHOOK_POLL		1.0	/* seconds */

/*
 * due is Unix time (seconds, fractional) of the next attempt; attempts counts
 * the failed ones. The body is the video as it was when it finished.
 */
static const char webhook_schema[] =
	"CREATE TABLE IF NOT EXISTS stream_webhook ("
	" account TEXT PRIMARY KEY,"
	" url TEXT NOT NULL,"
	" secret TEXT NOT NULL,"
	" modified TEXT NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS stream_webhook_delivery ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" body TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0,"
	" due REAL NOT NULL);"
	"CREATE INDEX IF NOT EXISTS stream_webhook_delivery_due"
	" ON stream_webhook_delivery (due, id);";

/* The delivery thread and how the rest of edgemu wakes or stops it. */
static struct {
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	pthread_t	 thread;
	struct store	*store;
	int		 running;
	int		 stop;
	int		 kick;
} webhook_q = { .lock = PTHREAD_MUTEX_INITIALIZER };

static double
webhook_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* ---- checks and signatures ---------------------------------------------- */

/*
 * The service also refuses localhost and private addresses; edgemu accepts
 * them on purpose, since its deliveries go to receivers on this machine
 * (the tests' listener, a developer's local endpoint).
 */
/*
 * Link-local and cloud metadata hosts are refused, though: a delivery there
 * would hand the instance's credentials service a signed POST.
 */
static const char *
webhook_host_forbidden(const char *host)
{
	static const char *const names[] = {
		"metadata.google.internal", "metadata.goog", "metadata",
		"instance-data", "instance-data.ec2.internal"
	};
	struct in_addr	 a4;
	struct in6_addr	 a6;
	char		 h[256], *p;
	size_t		 i, n;

	/* [v6] loses its brackets and zone, a name its final dot. */
	n = strlen(host);
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']')
		snprintf(h, sizeof h, "%.*s", (int)(n - 2), host + 1);
	else
		snprintf(h, sizeof h, "%s", host);
	if ((p = strchr(h, '%')) != NULL)
		*p = '\0';
	n = strlen(h);
	if (n > 0 && h[n - 1] == '.')
		h[n - 1] = '\0';
	for (i = 0; i < nitems(names); i++) {
		if (strcasecmp(h, names[i]) == 0)
			return ("a cloud metadata host");
	}
	if (inet_pton(AF_INET, h, &a4) == 1)
		return ((ntohl(a4.s_addr) >> 16) == 0xa9fe ?
		    "a link-local address (169.254.0.0/16)" : NULL);
	if (inet_pton(AF_INET6, h, &a6) != 1)
		return (NULL);
	if (a6.s6_addr[0] == 0xfe && (a6.s6_addr[1] & 0xc0) == 0x80)
		return ("a link-local address (fe80::/10)");
	if (a6.s6_addr[0] == 0xfd)
		return ("a unique local address (fd00::/8)");
	if (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 169 &&
	    a6.s6_addr[13] == 254)
		return ("a link-local address (169.254.0.0/16)");
	return (NULL);
}

int
webhook_url_check(const char *url, char **cause)
{
	CURLU		*u;
	char		*host = NULL, why[APIRULES_WHY_MAX];
	const char	*bad;
	int		 rc = -1;

	/*
	 * The API's form first: libcurl's parser forgives "http:/x" and
	 * "http:///x" the way a browser bar does; an API field should not.
	 */
	if ((bad = apirules_url_why(url, "https://example.com/hook", why,
	    sizeof why)) != NULL) {
		*cause = xstrdup(bad);
		return (-1);
	}
	if ((u = curl_url()) == NULL)
		fatalx("curl_url failed");
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
		*cause = xstrdup("is not a valid URL (check the host and "
		    "port)");
		goto out;
	}
	if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    *host == '\0') {
		*cause = xstrdup("must name a host");
		goto out;
	}
	if ((bad = webhook_host_forbidden(host)) != NULL) {
		*cause = xprintf("the host %.64s is %s, which webhooks may not "
		    "reach", host, bad);
		goto out;
	}
	rc = 0;
out:
	curl_free(host);
	curl_url_cleanup(u);
	return (rc);
}

void
webhook_sign(const char *secret, long long t, const void *body, size_t len,
    char out[WEBHOOK_SIG_LEN + 1])
{
	struct buf	 b = BUF_INITIALIZER;
	unsigned char	 md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0;

	buf_addf(&b, "%lld.", t);
	buf_add(&b, body, len);
	if (HMAC(EVP_sha256(), secret, (int)strlen(secret),
	    (const unsigned char *)b.data, b.len, md, &mdlen) == NULL ||
	    mdlen != WEBHOOK_SIG_LEN / 2)
		fatalx("HMAC-SHA256 failed");
	util_hex(md, mdlen, out);
	buf_free(&b);
}

/* 1, 2, 4, 8 seconds: about 15 s from the first attempt to the last. */
int
webhook_retry_delay(int failed)
{
	if (failed < 1)
		return (0);
	if (failed >= WEBHOOK_ATTEMPTS)
		return (-1);
	return (1 << (failed - 1));
}

/* ---- configuration ------------------------------------------------------ */

static cJSON *
webhook_json(sqlite3_stmt *st)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "notificationUrl",
	    (const char *)sqlite3_column_text(st, 0));
	cJSON_AddStringToObject(o, "modified",
	    (const char *)sqlite3_column_text(st, 1));
	cJSON_AddStringToObject(o, "secret",
	    (const char *)sqlite3_column_text(st, 2));
	return (o);
}

static void
webhook_none(struct req *req, struct reply *rep)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "account %s has no webhook: "
	    "set one with PUT .../stream/webhook", req_param(req, "account"));
}

static void
webhook_get(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT url, modified, secret FROM stream_webhook"
	    " WHERE account = ?1";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1,
	    SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		reply_ok(rep, webhook_json(st));
	else if (rc == SQLITE_DONE)
		webhook_none(req, rep);
	else
		reply_store_error(req, rep);
	store_done(st);
}

/*
 * Creates or replaces. A replace keeps the secret, so receivers that verify
 * signatures keep working when only the URL moves; DELETE then PUT gives a
 * new one.
 */
static int
webhook_put_row(struct store *store, const char *account, const char *url,
    const char *secret, cJSON **out)
{
	static const char	 sql[] =
	    "INSERT INTO stream_webhook (account, url, secret, modified)"
	    " VALUES (?1, ?2, ?3, ?4)"
	    " ON CONFLICT (account) DO UPDATE SET url = excluded.url,"
	    " modified = excluded.modified"
	    " RETURNING url, modified, secret";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			 now[ISO_TIME_LEN];
	int			 rc;

	util_now_iso(now);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, secret, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	*out = NULL;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = webhook_json(st);
		rc = sqlite3_step(st);
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(*out);
		*out = NULL;
		return (-1);
	}
	return (0);
}

static void
webhook_put(struct req *req, struct reply *rep)
{
	const char	*url;
	char		 secret[HEX32_LEN + 1], *cause = NULL;
	cJSON		*result;

	if (req->json == NULL || !cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "a JSON object with "
		    "notificationUrl is required");
		return;
	}
	switch (util_jstring(req->json, "notificationUrl", &url)) {
	case UTIL_JABSENT:
		reply_error(rep, 400, ERR_VALIDATION, "notificationUrl: "
		    "required, the URL that receives the notifications");
		return;
	case UTIL_JWRONG:
		reply_error(rep, 400, ERR_VALIDATION, "notificationUrl: must "
		    "be a string");
		return;
	case UTIL_JOK:
		break;
	}
	if (webhook_url_check(url, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "notificationUrl: %s",
		    cause);
		free(cause);
		return;
	}
	util_hex32(secret);
	if (webhook_put_row(req->store, req_param(req, "account"), url,
	    secret, &result) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, result);
}

/* Pending deliveries go with the webhook: there is nowhere to send them. */
static void
webhook_delete(struct req *req, struct reply *rep)
{
	static const char	 del_sql[] =
	    "DELETE FROM stream_webhook WHERE account = ?1";
	static const char	 drop_sql[] =
	    "DELETE FROM stream_webhook_delivery WHERE account = ?1";
	const char		*account = req_param(req, "account");
	sqlite3_stmt		*st;
	int			 rc, found;

	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	st = store_stmt(req->store, del_sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	found = sqlite3_changes(store_db(req->store)) != 0;
	if (rc == SQLITE_DONE && found) {
		st = store_stmt(req->store, drop_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		store_done(st);
	}
	if (rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		webhook_none(req, rep);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, cJSON_CreateString("ok"));
}

/* ---- deliveries --------------------------------------------------------- */

void
webhook_notify(struct store *store, const char *account, const cJSON *video)
{
	static const char	 sql[] =
	    "INSERT INTO stream_webhook_delivery (account, video, body, due)"
	    " SELECT ?1, ?2, ?3, ?4 WHERE EXISTS"
	    " (SELECT 1 FROM stream_webhook WHERE account = ?1)";
	sqlite3_stmt		*st;
	const char		*uid = "";
	char			*body;
	int			 rc, queued;

	if (video == NULL)
		return;
	if (util_jstring(video, "uid", &uid) != UTIL_JOK)
		uid = "";
	body = util_jprint(video);
	st = store_stmt(store, sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, body, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, webhook_now());
	rc = sqlite3_step(st);
	store_done(st);
	queued = rc == SQLITE_DONE && sqlite3_changes(store_db(store)) != 0;
	free(body);
	if (rc != SQLITE_DONE) {
		log_warn("webhook: cannot queue video %s: %s", uid,
		    store_errmsg(store));
		return;
	}
	if (!queued)
		return;
	pthread_mutex_lock(&webhook_q.lock);
	if (webhook_q.running) {
		webhook_q.kick = 1;
		pthread_cond_signal(&webhook_q.cond);
	}
	pthread_mutex_unlock(&webhook_q.lock);
}

static int
webhook_stopping(void)
{
	int	stop;

	pthread_mutex_lock(&webhook_q.lock);
	stop = webhook_q.stop;
	pthread_mutex_unlock(&webhook_q.lock);
	return (stop);
}

/* Lets a stop interrupt an attempt in the middle of its timeouts. */
static int
webhook_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	(void)arg;
	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	return (webhook_stopping());
}

static size_t
webhook_discard(char *ptr, size_t size, size_t nmemb, void *arg)
{
	(void)ptr;
	(void)arg;
	return (size * nmemb);
}

/* One signed POST; 0 when the receiver answered 2xx, else cause says why. */
static int
webhook_post(const char *url, const char *secret, const char *body,
    char **cause)
{
	CURL			*c;
	struct curl_slist	*h = NULL;
	char			 sig[WEBHOOK_SIG_LEN + 1], *line;
	long long		 t = (long long)time(NULL);
	long			 status = 0;
	size_t			 len = strlen(body);
	CURLcode		 rc;

	webhook_sign(secret, t, body, len, sig);
	line = xprintf("Webhook-Signature: time=%lld,sig1=%s", t, sig);
	h = curl_slist_append(h, "Content-Type: application/json");
	h = curl_slist_append(h, line);
	h = curl_slist_append(h, "Expect:");
	free(line);
	if (h == NULL || (c = curl_easy_init()) == NULL)
		fatalx("libcurl: out of memory");
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "edgemu-webhook/" VERSION);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, WEBHOOK_CONNECT_TIMEOUT);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, WEBHOOK_TOTAL_TIMEOUT);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, webhook_discard);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, webhook_progress);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	curl_slist_free_all(h);
	if (rc != CURLE_OK) {
		*cause = xstrdup(curl_easy_strerror(rc));
		return (-1);
	}
	if (status < 200 || status > 299) {
		*cause = xprintf("HTTP %ld", status);
		return (-1);
	}
	return (0);
}

/* After an attempt: done (delivered, given up, webhook gone) or later. */
static void
webhook_settle(struct store *store, sqlite3_int64 id, int attempts, int ok)
{
	static const char	 del_sql[] =
	    "DELETE FROM stream_webhook_delivery WHERE id = ?1";
	static const char	 upd_sql[] =
	    "UPDATE stream_webhook_delivery SET attempts = ?2, due = ?3"
	    " WHERE id = ?1";
	sqlite3_stmt		*st;
	int			 delay;

	delay = ok ? -1 : webhook_retry_delay(attempts);
	if (delay < 0) {
		st = store_stmt(store, del_sql);
		sqlite3_bind_int64(st, 1, id);
	} else {
		st = store_stmt(store, upd_sql);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, attempts);
		sqlite3_bind_double(st, 3, webhook_now() + delay);
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		log_warn("webhook: delivery %lld: %s", (long long)id,
		    store_errmsg(store));
	store_done(st);
}

/*
 * Send the oldest due delivery. Returns 1 if there was one, 0 if not (next
 * says in how many seconds one falls due), -1 on a store failure.
 */
static int
webhook_send_next(struct store *store, double *next)
{
	static const char	 sql[] =
	    "SELECT d.id, d.video, d.body, d.attempts, w.url, w.secret,"
	    " d.due FROM stream_webhook_delivery d"
	    " LEFT JOIN stream_webhook w ON w.account = d.account"
	    " ORDER BY d.due, d.id LIMIT 1";
	sqlite3_stmt		*st = store_stmt(store, sql);
	sqlite3_int64		 id;
	char			*video, *body, *url = NULL, *secret = NULL;
	char			*cause = NULL;
	double			 due, now = webhook_now();
	int			 rc, attempts, ok;

	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		store_done(st);
		*next = WEBHOOK_POLL;
		return (rc == SQLITE_DONE ? 0 : -1);
	}
	due = sqlite3_column_double(st, 6);
	if (due > now) {
		store_done(st);
		*next = due - now;
		return (0);
	}
	id = sqlite3_column_int64(st, 0);
	video = xstrdup((const char *)sqlite3_column_text(st, 1));
	body = xstrdup((const char *)sqlite3_column_text(st, 2));
	attempts = sqlite3_column_int(st, 3);
	if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
		url = xstrdup((const char *)sqlite3_column_text(st, 4));
		secret = xstrdup((const char *)sqlite3_column_text(st, 5));
	}
	/* No read transaction stays open across the network. */
	store_done(st);

	if (url == NULL)
		webhook_settle(store, id, 0, 1);
	else {
		ok = webhook_post(url, secret, body, &cause) == 0;
		if (ok)
			log_debug("webhook: video %s delivered to %s", video,
			    url);
		else if (webhook_stopping()) {
			/* Interrupted, not failed: resumes after a restart. */
			free(cause);
			goto out;
		} else if (webhook_retry_delay(attempts + 1) < 0)
			log_warn("webhook: giving up on video %s to %s after "
			    "%d attempts: %s", video, url, attempts + 1, cause);
		else
			log_debug("webhook: video %s to %s: %s (will retry)",
			    video, url, cause);
		free(cause);
		webhook_settle(store, id, attempts + 1, ok);
	}
out:
	free(video);
	free(body);
	free(url);
	free(secret);
	return (1);
}

static void *
webhook_main(void *arg)
{
	struct store	*store = arg;
	struct timespec	 ts;
	double		 next = 0, whole;
	int		 rc = 0, stop = 0;

	while (!stop) {
		while (!webhook_stopping() &&
		    (rc = webhook_send_next(store, &next)) == 1)
			;
		if (rc < 0) {
			log_warn("webhook: reading the queue: %s",
			    store_errmsg(store));
			next = WEBHOOK_POLL;
		}
		if (next > WEBHOOK_POLL)
			next = WEBHOOK_POLL;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += (long)(modf(next, &whole) * 1e9);
		ts.tv_sec += (time_t)whole + ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;

		pthread_mutex_lock(&webhook_q.lock);
		while (!webhook_q.stop && !webhook_q.kick) {
			if (pthread_cond_timedwait(&webhook_q.cond,
			    &webhook_q.lock, &ts) == ETIMEDOUT)
				break;
		}
		webhook_q.kick = 0;
		stop = webhook_q.stop;
		pthread_mutex_unlock(&webhook_q.lock);
	}
	return (NULL);
}

/*
 * curl_global_init is not safe beside other threads using libcurl or
 * OpenSSL; areas start before the server takes requests, and none before
 * this one uses either.
 */
static int
webhook_start(struct server *srv, char **cause)
{
	pthread_condattr_t	attr;
	int			error;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		*cause = xstrdup("webhook: libcurl cannot start");
		return (-1);
	}
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&webhook_q.cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_lock(&webhook_q.lock);
	webhook_q.store = server_store(srv);
	webhook_q.stop = webhook_q.kick = 0;
	error = pthread_create(&webhook_q.thread, NULL, webhook_main,
	    webhook_q.store);
	webhook_q.running = error == 0;
	pthread_mutex_unlock(&webhook_q.lock);
	if (error != 0) {
		pthread_cond_destroy(&webhook_q.cond);
		curl_global_cleanup();
		*cause = xprintf("webhook: cannot start a thread: %s",
		    strerror(error));
		return (-1);
	}
	return (0);
}

static void
webhook_stop(struct server *srv)
{
	(void)srv;
	pthread_mutex_lock(&webhook_q.lock);
	if (!webhook_q.running) {
		pthread_mutex_unlock(&webhook_q.lock);
		return;
	}
	webhook_q.stop = 1;
	pthread_cond_signal(&webhook_q.cond);
	pthread_mutex_unlock(&webhook_q.lock);
	pthread_join(webhook_q.thread, NULL);
	pthread_mutex_lock(&webhook_q.lock);
	webhook_q.running = 0;
	webhook_q.store = NULL;
	pthread_mutex_unlock(&webhook_q.lock);
	pthread_cond_destroy(&webhook_q.cond);
	curl_global_cleanup();
}

/* ---- demo data and the area --------------------------------------------- */

/*
 * The demo account's webhook points at a host that never answers, so its
 * deliveries fail: each stops after WEBHOOK_ATTEMPTS, and the console has a
 * webhook to show. The secret is fixed so that screenshots stay the same.
 */
static int
webhook_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng	 rng;
	char		 secret[HEX32_LEN + 1];
	cJSON		*result;

	(void)zone;
	util_rng_seed(&rng, 0x776562686f6f6b31ULL);
	util_rng_hex32(&rng, secret);
	if (webhook_put_row(store, account, WEBHOOK_DEMO_URL, secret,
	    &result) != 0) {
		*cause = xprintf("demo webhook: %s", store_errmsg(store));
		return (-1);
	}
	cJSON_Delete(result);
	return (0);
}

static const struct route webhook_routes[] = {
	{ HTTP_GET, WEBHOOK_PATH, webhook_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, WEBHOOK_PATH, webhook_put, ROUTE_BODY_JSON },
	/* The spec gives DELETE a body; whatever comes is read and ignored. */
	{ HTTP_DELETE, WEBHOOK_PATH, webhook_delete, ROUTE_BODY_NONE },
};

const struct area webhook_area = {
	.name = "webhook",
	.routes = webhook_routes,
	.nroutes = nitems(webhook_routes),
	.schema = webhook_schema,
	.demo = webhook_demo,
	.start = webhook_start,
	.stop = webhook_stop,
};
