/*
 * One API request through libcurl. A request becomes an http_call, a small
 * state machine (budget, send, read the outcome, maybe wait and send again)
 * that a curl-multi loop drives without blocking; http_perform drives the
 * same machine with curl_easy_perform and the hooks' sleep. The decisions
 * are retry.c's and budget.c's; this file supplies the facts.
 *
 * The token lives in the client and in one Authorization header; every
 * log line, error text and rendered command goes through http_redact. The
 * request log, the log lines and -v output are http_log.c's.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "api.h"
#include "buf.h"
#include "budget.h"
#include "configfile.h"
#include "http.h"
#include "http_internal.h"
#include "http_log.h"
#include "log.h"
#include "redact.h"
#include "retry.h"
#include "compat.h"
#include "xmalloc.h"

static const char *const http_safe_methods[] = { "GET", "HEAD", "OPTIONS" };
static const char *const http_methods[] = {
	"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"
};

/* ---- hooks ------------------------------------------------------------- */

static double
http_real_clock(void *arg)
{
	struct timespec	ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static time_t
http_real_wall(void *arg)
{
	(void)arg;
	return (time(NULL));
}

static void
http_real_sleep(long ms, void *arg)
{
	struct timespec	ts;

	(void)arg;
	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		/* nothing */;
}

static double
http_now(const struct http_client *c)
{
	return (c->hooks.clock(c->hooks.arg));
}

time_t
http_wall(const struct http_client *c)
{
	return (c->hooks.wall(c->hooks.arg));
}

/* xorshift64*: jitter needs spread, not secrecy. */
static double
http_jitter(void *arg)
{
	struct http_client	*c = arg;
	uint64_t		 x = c->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->rng = x;
	return ((double)((x * 2685821657736338717ULL) >> 11) /
	    9007199254740992.0);
}

/* ---- the client -------------------------------------------------------- */


/* "scheme://host:port" of an http(s) URL, lowercased; NULL if it is none. */
char *
http_origin(const char *url)
{
	CURLU	*u;
	char	*scheme = NULL, *host = NULL, *port = NULL, *o = NULL, *p;

	if ((u = curl_url()) == NULL)
		fatalx("curl_url: out of memory");
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) !=
	    CURLUE_OK)
		goto out;
	if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0)
		goto out;
	o = xprintf("%s://%s:%s", scheme, host, port);
	for (p = o; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return (o);
}

int
http_is_absolute(const char *path)
{
	return (strncasecmp(path, "http://", 7) == 0 ||
	    strncasecmp(path, "https://", 8) == 0);
}

static int
http_loopback(const char *origin)
{
	const char	*h = strstr(origin, "://") + 3;

	return (strncmp(h, "127.", 4) == 0 ||
	    strncmp(h, "localhost:", 10) == 0 || strncmp(h, "[::1]:", 6) == 0);
}

struct http_client *
http_client_new(const struct http_options *o, char **cause)
{
	struct http_client	*c;
	size_t			 len;
	char			*origin;

	if (o->base_url == NULL || !http_is_absolute(o->base_url) ||
	    (origin = http_origin(o->base_url)) == NULL) {
		*cause = xprintf("base URL \"%s\" is not an http(s) URL",
		    o->base_url != NULL ? o->base_url : "");
		return (NULL);
	}
	c = xcalloc(1, sizeof *c);
	c->origin = origin;
	c->base_url = xstrdup(o->base_url);
	len = strlen(c->base_url);
	while (len > 0 && c->base_url[len - 1] == '/')
		c->base_url[--len] = '\0';
	if (o->token != NULL && *o->token != '\0')
		c->token = xstrdup(o->token);
	c->readonly = o->readonly;
	c->max_retries = o->max_retries < 0 ? RETRY_DEFAULT_MAX :
	    o->max_retries;
	if (o->budget != NULL)
		c->budget = o->budget;
	else {
		c->budget = budget_new((double)o->budget_capacity, 0);
		c->own_budget = 1;
	}
	c->connect_timeout_ms = o->connect_timeout_ms > 0 ?
	    o->connect_timeout_ms : HTTP_CONNECT_TIMEOUT_MS;
	c->timeout_ms = o->timeout_ms == 0 ? HTTP_TIMEOUT_MS : o->timeout_ms;
	c->low_speed_time = o->low_speed_time > 0 ? o->low_speed_time :
	    HTTP_LOW_SPEED_TIME;
	c->idle_time = o->idle_time > 0 ? o->idle_time : HTTP_IDLE_TIME;
	c->budget_wait_ms = o->budget_wait_ms > 0 ? o->budget_wait_ms :
	    HTTP_BUDGET_WAIT_MS;
	if (o->hooks != NULL)
		c->hooks = *o->hooks;
	if (c->hooks.clock == NULL)
		c->hooks.clock = http_real_clock;
	if (c->hooks.wall == NULL)
		c->hooks.wall = http_real_wall;
	if (c->hooks.sleep == NULL)
		c->hooks.sleep = http_real_sleep;
	c->rng = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^
	    (uint64_t)(uintptr_t)c;
	if (c->rng == 0)
		c->rng = 1;
	if (o->log_with != NULL) {
		c->ring = o->log_with->ring;
		pthread_mutex_lock(&c->ring->lock);
		c->ring->refs++;
		pthread_mutex_unlock(&c->ring->lock);
	} else {
		c->ring = xcalloc(1, sizeof *c->ring);
		if (pthread_mutex_init(&c->ring->lock, NULL) != 0)
			fatalx("http_client_new: pthread_mutex_init failed");
		c->ring->refs = 1;
		c->ring->size = o->log_size > 0 ? o->log_size :
		    HTTP_LOG_DEFAULT;
		c->ring->entries_only = o->log_entries_only;
		c->ring->slots = xcalloc(c->ring->size, sizeof *c->ring->slots);
	}
	if (c->token != NULL && strncmp(c->origin, "http:", 5) == 0 &&
	    !http_loopback(c->origin))
		log_warn("%s: the token goes over plain HTTP", c->origin);
	return (c);
}

void
http_client_free(struct http_client *c)
{
	size_t	i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nidle; i++)
		curl_easy_cleanup(c->idle[i]);
	if (c->own_budget)
		budget_free(c->budget);
	config_secret_free(c->token);
	free(c->base_url);
	free(c->origin);
	http_log_release(c->ring);
	free(c);
}

struct budget *
http_client_budget(struct http_client *c)
{
	return (c->budget);
}

long
http_budget_left(struct http_client *c)
{
	return (budget_remaining(c->budget, http_now(c)));
}

/* An easy handle with its connections, reset for a new request. */
static CURL *
http_handle_get(struct http_client *c)
{
	CURL	*easy;

	if (c->nidle > 0) {
		easy = c->idle[--c->nidle];
		curl_easy_reset(easy);
		return (easy);
	}
	if ((easy = curl_easy_init()) == NULL)
		fatalx("curl_easy_init failed");
	return (easy);
}

static void
http_handle_put(struct http_client *c, CURL *easy)
{
	if (easy == NULL)
		return;
	if (c->nidle < HTTP_IDLE_MAX)
		c->idle[c->nidle++] = easy;
	else
		curl_easy_cleanup(easy);
}

/* ---- preparing a call --------------------------------------------------- */

long
http_idle_seconds(const struct http_client *c, const struct http_request *req)
{
	if (req->read != NULL || req->nparts > 0)
		return (c->low_speed_time);
	return (c->idle_time);
}

int
http_method_mutates(const char *method)
{
	size_t	i;

	for (i = 0; i < nitems(http_safe_methods); i++) {
		if (method != NULL && strcmp(method, http_safe_methods[i]) == 0)
			return (0);
	}
	return (1);
}

static int
http_known_method(const char *method)
{
	size_t	i;

	for (i = 0; i < nitems(http_methods); i++) {
		if (strcmp(method, http_methods[i]) == 0)
			return (1);
	}
	return (0);
}

/* Whether s has a control character, or a space when spaces are bad. */
static int
http_has_ctl(const char *s, int space)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f ||
		    (space && *s == ' '))
			return (1);
	}
	return (0);
}

/* "Name: value" with a token name; Authorization is the client's. */
static const char *
http_bad_header(const char *h)
{
	const char	*colon = strchr(h, ':'), *p;

	if (colon == NULL || colon == h)
		return ("is not \"Name: value\"");
	for (p = h; p < colon; p++) {
		if (!isalnum((unsigned char)*p) && strchr("!#$%&'*+-.^_`|~",
		    *p) == NULL)
			return ("has a malformed name");
	}
	if (http_has_ctl(colon, 0))
		return ("holds a control character");
	if ((size_t)(colon - h) == 13 &&
	    strncasecmp(h, "Authorization", 13) == 0)
		return ("sets Authorization, which comes from the token");
	return (NULL);
}

/*
 * A failure about the request as sent: the bare reason, both as the detail
 * and as the cause. The method and path are fields of the response; the
 * caller that shows the failure names the request its own way.
 */
static void
http_set_detail(struct http_call *call, const char *text)
{
	free(call->detail);
	free(call->cause);
	call->detail = http_log_clean(call->c, text);
	call->cause = xstrdup(call->detail);
}

/* The call ends unsent, with its cause already set. */
static void
http_refused(struct http_call *call, enum status st)
{
	struct http_client	*c = call->c;

	call->done = 1;
	call->status = st;
	call->budget_left = budget_remaining(c->budget, http_now(c));
	http_logf(c, LOG_LEVEL_INFO, "%s %s: not sent: %s", call->method,
	    call->path, call->cause);
	http_log_add(c, call, 0, st, 0);
}

static void
http_fail_early(struct http_call *call, enum status st, char *cause)
{
	call->cause = http_log_clean(call->c, cause);
	free(cause);
	http_refused(call, st);
}

static void
http_fail_request(struct http_call *call, enum status st, char *detail)
{
	http_set_detail(call, detail);
	free(detail);
	http_refused(call, st);
}

/* Check the request before anything is sent; 0 or -1 after failing. */
static int
http_check(struct http_call *call, const struct http_request *req)
{
	struct http_client	*c = call->c;
	const struct http_part	*p;
	const char		*why, *h;
	size_t			 i, nbodies;

	if (!http_known_method(call->method)) {
		http_fail_early(call, STATUS_INVALID, xprintf("unknown HTTP "
		    "method \"%s\"", call->method));
		return (-1);
	}
	if (*call->path == '\0' || http_has_ctl(call->path, 1) ||
	    (*call->path != '/' && !http_is_absolute(call->path))) {
		http_fail_early(call, STATUS_INVALID, xprintf("%s: \"%s\" is "
		    "neither a path nor an http(s) URL", call->method,
		    call->path));
		return (-1);
	}
	if (c->readonly && http_method_mutates(call->method)) {
		http_fail_early(call, STATUS_READONLY, xprintf("read-only "
		    "mode: refused to send %s %s", call->method, call->path));
		return (-1);
	}
	for (i = 0; req->headers != NULL && req->headers[i] != NULL; i++) {
		/* Only the name is quoted: the value may be a secret. */
		h = req->headers[i];
		if ((why = http_bad_header(h)) != NULL) {
			http_fail_request(call, STATUS_INVALID, xprintf(
			    "header \"%.*s\" %s",
			    (int)MINIMUM(strcspn(h, ":"), 40), h, why));
			return (-1);
		}
	}
	nbodies = (req->json != NULL) + (req->nparts > 0) + (req->read != NULL);
	if (nbodies > 1 || (nbodies == 1 && (strcmp(call->method, "GET") == 0 ||
	    strcmp(call->method, "HEAD") == 0))) {
		http_fail_request(call, STATUS_INVALID, xstrdup(nbodies > 1 ?
		    "more than one body" :
		    "a body where the method takes none"));
		return (-1);
	}
	for (i = 0; i < req->nparts; i++) {
		p = &req->parts[i];
		if (p->name == NULL || *p->name == '\0' ||
		    (p->value == NULL) == (p->file == NULL)) {
			http_fail_request(call, STATUS_INVALID, xprintf(
			    "form part %zu needs a name and a value or a file",
			    i + 1));
			return (-1);
		}
		if (p->file != NULL && access(p->file, R_OK) != 0) {
			http_fail_early(call, STATUS_IO, xprintf("%s: %s",
			    p->file, strerror(errno)));
			return (-1);
		}
	}
	return (0);
}

static char *
http_strdup0(const char *s)
{
	return (s != NULL ? xstrdup(s) : NULL);
}

static void
http_copy_body(struct http_call *call, const struct http_request *req)
{
	const struct http_part	*p;
	struct http_part	*q;
	size_t			 i;

	if (req->json != NULL) {
		call->body = HTTP_BODY_JSON;
		call->json_len = req->json_len != 0 ? req->json_len :
		    strlen(req->json);
		call->json = xmalloc(call->json_len + 1);
		memcpy(call->json, req->json, call->json_len);
		call->json[call->json_len] = '\0';
	} else if (req->nparts > 0) {
		call->body = HTTP_BODY_PARTS;
		call->nparts = req->nparts;
		call->parts = xcalloc(req->nparts, sizeof *call->parts);
		for (i = 0; i < req->nparts; i++) {
			p = &req->parts[i];
			q = &call->parts[i];
			q->name = http_strdup0(p->name);
			q->value = http_strdup0(p->value);
			q->file = http_strdup0(p->file);
			q->filename = http_strdup0(p->filename);
			q->type = http_strdup0(p->type);
		}
	} else if (req->read != NULL) {
		call->body = HTTP_BODY_READ;
		call->read = req->read;
		call->seek = req->seek;
		call->read_arg = req->read_arg;
		call->read_len = req->read_len;
		call->content_type = http_strdup0(req->content_type);
	}
}

struct http_call *
http_call_new(struct http_client *c, const struct http_request *req)
{
	struct http_call	*call;
	char			*origin;
	size_t			 i;

	call = xcalloc(1, sizeof *call);
	call->c = c;
	buf_init(&call->in);
	call->resp.ratelimit_remaining = -1;
	call->method = xstrdup(req->method != NULL ? req->method : "");
	call->path = xstrdup(req->path != NULL ? req->path : "");
	if (http_check(call, req) != 0)
		return (call);
	for (i = 0; req->headers != NULL && req->headers[i] != NULL; i++)
		/* nothing */;
	call->nheaders = i;
	call->headers = xcalloc(i + 1, sizeof *call->headers);
	for (i = 0; i < call->nheaders; i++)
		call->headers[i] = xstrdup(req->headers[i]);
	http_copy_body(call, req);
	call->raw = req->raw;
	call->no_retry = req->no_retry;
	call->progress = req->progress;
	call->progress_arg = req->progress_arg;
	if (http_is_absolute(call->path)) {
		call->url = xstrdup(call->path);
		origin = http_origin(call->url);
		if (origin == NULL) {
			http_fail_early(call, STATUS_INVALID, xprintf("%s: "
			    "\"%s\" is not an http(s) URL", call->method,
			    call->path));
			return (call);
		}
		/* The token goes nowhere but where base_url points. */
		call->send_token = strcmp(origin, c->origin) == 0;
		free(origin);
	} else {
		call->url = xprintf("%s%s", c->base_url, call->path);
		call->send_token = 1;
	}
	if (req->noauth || c->token == NULL)
		call->send_token = 0;
	return (call);
}

/* ---- one attempt ------------------------------------------------------- */

static void
http_headers_free(struct http_header **v, size_t *n)
{
	size_t	i;

	for (i = 0; i < *n; i++) {
		free((*v)[i].name);
		free((*v)[i].value);
	}
	free(*v);
	*v = NULL;
	*n = 0;
}

static const char *
http_find_header(const struct http_header *v, size_t n, const char *name)
{
	size_t	i;

	for (i = n; i > 0; i--) {
		if (strcasecmp(v[i - 1].name, name) == 0)
			return (v[i - 1].value);
	}
	return (NULL);
}

static size_t
http_write_cb(char *data, size_t size, size_t n, void *arg)
{
	struct http_call	*call = arg;
	size_t			 len = size * n;

	if (len > API_BODY_MAX - call->in.len) {
		call->too_big = 1;
		return (0);	/* curl stops: CURLE_WRITE_ERROR */
	}
	buf_add(&call->in, data, len);
	return (len);
}

/* A Content-Length over the cap: refuse before reading the body. */
static int
http_length_too_big(const struct http_call *call, const char *value)
{
	unsigned long long	 v;
	char			*end;

	if (strcmp(call->method, "HEAD") == 0)
		return (0);
	errno = 0;
	v = strtoull(value, &end, 10);
	return (end != value && (errno == ERANGE || v > API_BODY_MAX));
}

static size_t
http_header_cb(char *data, size_t size, size_t n, void *arg)
{
	struct http_call	*call = arg;
	size_t			 len = size * n, nlen;
	const char		*colon, *v, *end = data + len;
	struct http_header	*h;

	if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		/* A new response (after 100 Continue, say): forget the last. */
		http_headers_free(&call->rh, &call->nrh);
		return (len);
	}
	while (end > data && (end[-1] == '\r' || end[-1] == '\n' ||
	    end[-1] == ' ' || end[-1] == '\t'))
		end--;
	colon = memchr(data, ':', (size_t)(end - data));
	if (colon == NULL || colon == data || *data == ' ' || *data == '\t' ||
	    call->nrh >= HTTP_HEADERS_MAX || len > HTTP_HEADER_LINE_MAX)
		return (len);
	nlen = (size_t)(colon - data);
	for (v = colon + 1; v < end && (*v == ' ' || *v == '\t'); v++)
		/* nothing */;
	call->rh = xreallocarray(call->rh, call->nrh + 1, sizeof *call->rh);
	h = &call->rh[call->nrh++];
	h->name = xstrndup(data, nlen);
	h->value = xstrndup(v, (size_t)(end - v));
	if (strcasecmp(h->name, "Content-Length") == 0 &&
	    http_length_too_big(call, h->value)) {
		call->too_big = 1;
		return (0);
	}
	return (len);
}

static size_t
http_read_trampoline(char *data, size_t size, size_t n, void *arg)
{
	struct http_call	*call = arg;

	call->read_used = 1;
	return (call->read(data, size * n, call->read_arg));
}

static int
http_seek_trampoline(void *arg, curl_off_t offset, int origin)
{
	struct http_call	*call = arg;

	if (call->seek == NULL || origin != SEEK_SET)
		return (CURL_SEEKFUNC_CANTSEEK);
	return (call->seek(call->read_arg, (long long)offset) == 0 ?
	    CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL);
}

static int
http_progress_trampoline(void *arg, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	struct http_call	*call = arg;

	return (call->progress(call->progress_arg, (long long)dltotal,
	    (long long)dlnow, (long long)ultotal, (long long)ulnow) != 0);
}

/* Whether the request's own headers name this one. */
static int
http_has_header(const struct http_call *call, const char *name)
{
	size_t	i, n = strlen(name);

	for (i = 0; i < call->nheaders; i++) {
		if (strncasecmp(call->headers[i], name, n) == 0 &&
		    call->headers[i][n] == ':')
			return (1);
	}
	return (0);
}

static void
http_add_header(struct http_call *call, const char *h)
{
	struct curl_slist	*l;

	if ((l = curl_slist_append(call->hlist, h)) == NULL)
		fatalx("curl_slist_append: out of memory");
	call->hlist = l;
}

static void
http_build_headers(struct http_call *call)
{
	struct http_client	*c = call->c;
	char			*h;
	size_t			 i;

	if (call->send_token) {
		h = xprintf("Authorization: Bearer %s", c->token);
		http_add_header(call, h);
		config_secret_free(h);
	}
	if (!http_has_header(call, "User-Agent"))
		http_add_header(call, "User-Agent: " PACKAGE_NAME "/"
		    PACKAGE_VERSION);
	if (!http_has_header(call, "Accept"))
		http_add_header(call, "Accept: application/json");
	if (!http_has_header(call, "Content-Type")) {
		if (call->body == HTTP_BODY_JSON)
			http_add_header(call, "Content-Type: application/json");
		else if (call->body == HTTP_BODY_READ) {
			h = xprintf("Content-Type: %s", call->content_type !=
			    NULL ? call->content_type :
			    "application/octet-stream");
			http_add_header(call, h);
			free(h);
		} else if (call->body == HTTP_BODY_NONE)
			http_add_header(call, "Content-Type:");
	}
	/* A JSON body is small: no need to wait for 100 Continue. */
	if (call->body == HTTP_BODY_JSON && !http_has_header(call, "Expect"))
		http_add_header(call, "Expect:");
	for (i = 0; i < call->nheaders; i++)
		http_add_header(call, call->headers[i]);
}

static void
http_build_mime(struct http_call *call)
{
	const struct http_part	*p;
	curl_mimepart		*part;
	size_t			 i;
	CURLcode		 rc = CURLE_OK;

	if ((call->mime = curl_mime_init(call->easy)) == NULL)
		fatalx("curl_mime_init: out of memory");
	for (i = 0; i < call->nparts; i++) {
		p = &call->parts[i];
		if ((part = curl_mime_addpart(call->mime)) == NULL)
			fatalx("curl_mime_addpart: out of memory");
		rc = curl_mime_name(part, p->name);
		if (rc == CURLE_OK && p->value != NULL)
			rc = curl_mime_data(part, p->value,
			    CURL_ZERO_TERMINATED);
		else if (rc == CURLE_OK) {
			/* A file gone since the check fails at send time. */
			rc = curl_mime_filedata(part, p->file);
			if (rc == CURLE_READ_ERROR)
				rc = CURLE_OK;
			if (rc == CURLE_OK && p->filename != NULL)
				rc = curl_mime_filename(part, p->filename);
		}
		if (rc == CURLE_OK && p->type != NULL)
			rc = curl_mime_type(part, p->type);
		if (rc != CURLE_OK)
			fatalx("curl_mime: %s", curl_easy_strerror(rc));
	}
}

#define HTTP_SETOPT(easy, opt, val) do {				\
	if (curl_easy_setopt((easy), (opt), (val)) != CURLE_OK)		\
		fatalx("curl_easy_setopt " #opt " failed");		\
} while (0)

static void
http_set_method(struct http_call *call)
{
	CURL		*e = call->easy;
	const char	*m = call->method;
	int		 post = strcmp(m, "POST") == 0;

	switch (call->body) {
	case HTTP_BODY_NONE:
		if (strcmp(m, "GET") == 0)
			HTTP_SETOPT(e, CURLOPT_HTTPGET, 1L);
		else if (strcmp(m, "HEAD") == 0)
			HTTP_SETOPT(e, CURLOPT_NOBODY, 1L);
		else if (post || strcmp(m, "PUT") == 0 ||
		    strcmp(m, "PATCH") == 0) {
			/* An empty body, with Content-Length: 0. */
			HTTP_SETOPT(e, CURLOPT_POSTFIELDS, "");
			HTTP_SETOPT(e, CURLOPT_POSTFIELDSIZE_LARGE,
			    (curl_off_t)0);
		}
		break;
	case HTTP_BODY_JSON:
		HTTP_SETOPT(e, CURLOPT_POSTFIELDS, call->json);
		HTTP_SETOPT(e, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)call->json_len);
		break;
	case HTTP_BODY_PARTS:
		http_build_mime(call);
		HTTP_SETOPT(e, CURLOPT_MIMEPOST, call->mime);
		break;
	case HTTP_BODY_READ:
		HTTP_SETOPT(e, CURLOPT_UPLOAD, 1L);
		HTTP_SETOPT(e, CURLOPT_READFUNCTION, http_read_trampoline);
		HTTP_SETOPT(e, CURLOPT_READDATA, call);
		HTTP_SETOPT(e, CURLOPT_SEEKFUNCTION, http_seek_trampoline);
		HTTP_SETOPT(e, CURLOPT_SEEKDATA, call);
		/*
		 * Uploads stream large files: libcurl's largest upload buffer
		 * (2 MiB instead of 64 KiB) means 32 times fewer reads and
		 * sends per chunk.
		 */
		HTTP_SETOPT(e, CURLOPT_UPLOAD_BUFFERSIZE, 2L * 1024 * 1024);
		HTTP_SETOPT(e, CURLOPT_INFILESIZE_LARGE, (curl_off_t)
		    (call->read_len >= 0 ? call->read_len : -1));
		break;
	}
	if (strcmp(m, "GET") != 0 && strcmp(m, "HEAD") != 0 &&
	    !(post && call->body != HTTP_BODY_READ) &&
	    !(strcmp(m, "PUT") == 0 && call->body == HTTP_BODY_READ))
		HTTP_SETOPT(e, CURLOPT_CUSTOMREQUEST, m);
}

static void
http_setup(struct http_call *call)
{
	struct http_client	*c = call->c;
	CURL			*e;

	if (call->easy == NULL)
		call->easy = http_handle_get(c);
	else
		curl_easy_reset(call->easy);
	e = call->easy;
	http_build_headers(call);
	call->errbuf[0] = '\0';
	HTTP_SETOPT(e, CURLOPT_PRIVATE, call);
	HTTP_SETOPT(e, CURLOPT_URL, call->url);
	HTTP_SETOPT(e, CURLOPT_HTTPHEADER, call->hlist);
	HTTP_SETOPT(e, CURLOPT_ERRORBUFFER, call->errbuf);
	HTTP_SETOPT(e, CURLOPT_NOSIGNAL, 1L);
	/* Belt and braces (URLs are checked): a curl without TLS refuses. */
#if LIBCURL_VERSION_NUM >= 0x075500
	(void)curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	(void)curl_easy_setopt(e, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP |
	    CURLPROTO_HTTPS));
#endif
	/* Verification is always on; there is deliberately no option. */
	HTTP_SETOPT(e, CURLOPT_SSL_VERIFYPEER, 1L);
	HTTP_SETOPT(e, CURLOPT_SSL_VERIFYHOST, 2L);
	HTTP_SETOPT(e, CURLOPT_FOLLOWLOCATION, 0L);
	HTTP_SETOPT(e, CURLOPT_TCP_KEEPALIVE, 1L);
	HTTP_SETOPT(e, CURLOPT_ACCEPT_ENCODING, "");
	HTTP_SETOPT(e, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
	HTTP_SETOPT(e, CURLOPT_LOW_SPEED_LIMIT, HTTP_LOW_SPEED_LIMIT);
	HTTP_SETOPT(e, CURLOPT_LOW_SPEED_TIME, call->body == HTTP_BODY_NONE ||
	    call->body == HTTP_BODY_JSON ? c->idle_time : c->low_speed_time);
	/* Uploads may take long: only the low-speed limit bounds them. */
	if (c->timeout_ms > 0 && (call->body == HTTP_BODY_NONE ||
	    call->body == HTTP_BODY_JSON))
		HTTP_SETOPT(e, CURLOPT_TIMEOUT_MS, c->timeout_ms);
	HTTP_SETOPT(e, CURLOPT_WRITEFUNCTION, http_write_cb);
	HTTP_SETOPT(e, CURLOPT_WRITEDATA, call);
	HTTP_SETOPT(e, CURLOPT_HEADERFUNCTION, http_header_cb);
	HTTP_SETOPT(e, CURLOPT_HEADERDATA, call);
	if (call->progress != NULL) {
		HTTP_SETOPT(e, CURLOPT_NOPROGRESS, 0L);
		HTTP_SETOPT(e, CURLOPT_XFERINFOFUNCTION,
		    http_progress_trampoline);
		HTTP_SETOPT(e, CURLOPT_XFERINFODATA, call);
	}
	http_set_method(call);
}

/* Forget what the last attempt received and built. */
static void
http_attempt_clear(struct http_call *call)
{
	struct curl_slist	*l;

	buf_reset(&call->in);
	call->too_big = 0;
	http_headers_free(&call->rh, &call->nrh);
	/* No copy of the token stays behind in freed memory. */
	for (l = call->hlist; l != NULL; l = l->next) {
		if (strncasecmp(l->data, "Authorization:", 14) == 0)
			explicit_bzero(l->data, strlen(l->data));
	}
	curl_slist_free_all(call->hlist);
	call->hlist = NULL;
	curl_mime_free(call->mime);
	call->mime = NULL;
}

/* ---- the machine -------------------------------------------------------- */

enum http_next
http_call_next(struct http_call *call, CURL **easy, long *wait_ms)
{
	struct http_client	*c = call->c;
	char			 until[RETRY_UNTIL_LEN];
	long			 wait;
	double			 now;
	char			*cause;
	int			 penalty;

	*easy = NULL;
	*wait_ms = 0;
	if (call->done)
		return (HTTP_NEXT_DONE);
	if (call->sending)
		fatalx("http_call_next: %s %s is under way", call->method,
		    call->path);
	now = http_now(c);
	if (budget_take(c->budget, now, &wait) != 0) {
		/* A server's long wait is reported, as retry.c does. */
		penalty = now < c->penalty_until && wait > RETRY_AFTER_CAP_MS;
		if (!penalty && wait <= c->budget_wait_ms) {
			http_logf(c, LOG_LEVEL_INFO, "%s %s: waiting %ld ms "
			    "for the request budget", call->method, call->path,
			    wait);
			*wait_ms = wait;
			return (HTTP_NEXT_WAIT);
		}
		call->resp.until = http_wall(c) + (wait + 999) / 1000;
		cause = xprintf("rate-limited until %s: %s",
		    retry_until_text(call->resp.until, until), penalty ?
		    "the server refused an earlier request (HTTP 429)" :
		    "the request budget is used up");
		http_fail_request(call, STATUS_RATE_LIMITED, cause);
		return (HTTP_NEXT_DONE);
	}
	call->budget_left = budget_remaining(c->budget, now);
	http_attempt_clear(call);
	http_setup(call);
	call->attempt++;
	call->sending = 1;
	*easy = call->easy;
	return (HTTP_NEXT_SEND);
}

const char *
http_call_url(const struct http_call *call)
{
	return (call->url);
}

const struct curl_slist *
http_call_headers(const struct http_call *call)
{
	return (call->hlist);
}

/* curl's failure as retry.c's kind (see retry.h). */
static enum retry_net
http_net(CURLcode rc, int connected)
{
	switch (rc) {
	case CURLE_OK:
		return (RETRY_NET_NONE);
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return (RETRY_NET_RESOLVE);
	case CURLE_COULDNT_CONNECT:
		return (RETRY_NET_CONNECT);
	case CURLE_OPERATION_TIMEDOUT:
		return (connected ? RETRY_NET_TIMEOUT : RETRY_NET_CONNECT);
	case CURLE_SSL_CONNECT_ERROR:
		return (RETRY_NET_TLS);
	case CURLE_SEND_ERROR:
		return (RETRY_NET_SEND);
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
		return (RETRY_NET_RECV);
	case CURLE_ABORTED_BY_CALLBACK:
		return (RETRY_NET_CANCELLED);
	default:
		return (RETRY_NET_OTHER);
	}
}

/* The status of a failure below HTTP. */
static enum status
http_net_status(CURLcode rc)
{
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		return (STATUS_TIMEOUT);
	case CURLE_ABORTED_BY_CALLBACK:
		return (STATUS_CANCELLED);
	case CURLE_URL_MALFORMAT:
	case CURLE_UNSUPPORTED_PROTOCOL:
		return (STATUS_INVALID);
	case CURLE_READ_ERROR:
		return (STATUS_IO);
	default:
		return (STATUS_TRANSPORT);
	}
}

static void
http_read_info(struct http_call *call, CURLcode rc, struct http_outcome *o)
{
	curl_off_t	total = 0, pre = 0, conn = 0;
	long		code = 0, reqsize = 0;

	memset(o, 0, sizeof *o);
	o->rc = rc;
	curl_easy_getinfo(call->easy, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(call->easy, CURLINFO_TOTAL_TIME_T, &total);
	curl_easy_getinfo(call->easy, CURLINFO_PRETRANSFER_TIME_T, &pre);
	curl_easy_getinfo(call->easy, CURLINFO_CONNECT_TIME_T, &conn);
	curl_easy_getinfo(call->easy, CURLINFO_REQUEST_SIZE, &reqsize);
	o->latency_ms = (long)(total / 1000);
	o->connected = conn > 0 || pre > 0 || code > 0;
	o->reached = pre > 0 || reqsize > 0 || code > 0;
	o->code = code;
	o->net = http_net(rc, o->connected);
}

/*
 * The API answers with a JSON envelope; a 200 without a body (but to a
 * DELETE, which Stream answers so) says nothing of whether the call
 * worked: a proxy or a broken server, not success. (204 says there is no
 * body; a TUS 201 answers in its headers.)
 */
static int
http_empty_answer(const struct http_call *call, long code)
{
	size_t	i;

	if (code != 200 || strcmp(call->method, "DELETE") == 0)
		return (0);
	for (i = 0; i < call->in.len; i++) {
		if (!isspace((unsigned char)call->in.data[i]))
			return (0);
	}
	return (1);
}

/* The response was read whole: what does it say? */
static void
http_judge_response(struct http_call *call, struct http_outcome *o)
{
	struct api_response	*api = &call->resp.api;
	char			*text;

	if (call->raw && o->code >= 200 && o->code <= 299) {
		o->status = STATUS_OK;
		return;
	}
	o->status = api_parse(o->code, call->in.data, call->in.len, api);
	if (o->status == STATUS_OK && http_empty_answer(call, o->code)) {
		o->status = api->status = STATUS_PARSE;
		api->ok = 0;
		o->text = xprintf("HTTP %ld with an empty body, not an API "
		    "answer%s", o->code, http_method_mutates(call->method) ?
		    ": the change may or may not have been made" : "");
		api->errors = xcalloc(1, sizeof *api->errors);
		api->errors[0].message = xstrdup(o->text);
		api->nerrors = 1;
		return;
	}
	if (o->code == 410)
		api_explain_gone(api, call->path);
	if (o->status == STATUS_OK)
		return;
	api_error_text(api, &text);
	if (strncmp(text, "HTTP ", 5) == 0)
		o->text = text;
	else {
		o->text = xprintf("HTTP %ld: %s", o->code, text);
		free(text);
	}
}

static void
http_add_size(struct buf *b, unsigned long long n)
{
	if (n >= 1024 * 1024)
		buf_addf(b, "%.1f MiB", (double)n / (1024 * 1024));
	else
		buf_addf(b, "%llu bytes", n);
}

/* Classify the attempt: status and, for a failure, its text. */
static void
http_judge(struct http_call *call, struct http_outcome *o)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*len, *e, *reason;
	size_t		 elen, rlen;

	if (call->too_big) {
		/* The server answered, but with more than is read. */
		o->status = STATUS_TOO_LARGE;
		o->net = RETRY_NET_OTHER;
		buf_addf(&b, "HTTP %ld: the response ", o->code);
		len = http_find_header(call->rh, call->nrh, "Content-Length");
		if (len != NULL && http_length_too_big(call, len)) {
			buf_addf(&b, "announces %s bytes, over the limit of ",
			    len);
			http_add_size(&b, API_BODY_MAX);
			buf_adds(&b, ": not read");
		} else {
			buf_adds(&b, "is larger than the limit of ");
			http_add_size(&b, API_BODY_MAX);
			buf_adds(&b, ": stopped reading");
		}
		o->text = buf_detach(&b, NULL);
		return;
	}
	if (o->rc != CURLE_OK) {
		/* A response cut short is no response. */
		o->code = 0;
		o->status = http_net_status(o->rc);
		reason = curl_easy_strerror(o->rc);
		buf_adds(&b, reason);
		/* The detail, without the reason it may end with again. */
		e = call->errbuf;
		elen = strcspn(e, "\r\n");
		rlen = strlen(reason);
		if (elen > rlen + 2 && strncasecmp(e + elen - rlen, reason,
		    rlen) == 0 && e[elen - rlen - 2] == ':')
			elen -= rlen + 2;
		if (elen > 0 && strncasecmp(e, reason, elen) != 0)
			buf_addf(&b, " (%.*s)", (int)elen, e);
		o->text = buf_detach(&b, NULL);
		return;
	}
	http_judge_response(call, o);
}

/* retry.c's decision, with what only this layer knows applied. */
static void
http_decide(struct http_call *call, const struct http_outcome *o,
    struct retry_decision *d)
{
	struct http_client	*c = call->c;
	struct retry_input	 in;
	double			 now, until;

	memset(&in, 0, sizeof in);
	in.method = call->method;
	in.reached = o->reached;
	in.attempt = call->attempt - 1;
	in.max_retries = call->no_retry ? 0 : c->max_retries;
	in.http_status = o->code;
	in.net = o->net;
	if (o->code != 0) {
		in.retry_after = http_find_header(call->rh, call->nrh,
		    "Retry-After");
		in.retry_after_ms = http_find_header(call->rh, call->nrh,
		    "retry-after-ms");
		in.should_retry = http_find_header(call->rh, call->nrh,
		    "x-should-retry");
	}
	in.now = http_wall(c);
	if (c->hooks.jitter != NULL) {
		in.jitter = c->hooks.jitter;
		in.jitter_arg = c->hooks.arg;
	} else {
		in.jitter = http_jitter;
		in.jitter_arg = c;
	}
	retry_decide(&in, d);
	if (o->code == 429 && d->action != RETRY_NO) {
		/* The server's budget is gone: hold ours empty as long. */
		now = http_now(c);
		until = now + (double)d->delay_ms / 1000;
		budget_penalize(c->budget, now, until);
		if (until > c->penalty_until)
			c->penalty_until = until;
	}
	if (d->action != RETRY_AFTER || call->body != HTTP_BODY_READ ||
	    !call->read_used)
		return;
	if (call->seek == NULL || call->seek(call->read_arg, 0) != 0) {
		d->action = RETRY_NO;
		d->why = "the body cannot be sent again";
	} else
		call->read_used = 0;
}

static void
http_finish(struct http_call *call, struct http_outcome *o,
    const struct retry_decision *d)
{
	struct http_client	*c = call->c;
	struct http_response	*r = &call->resp;
	struct buf		 b = BUF_INITIALIZER;
	const char		*v;
	char			 until[RETRY_UNTIL_LEN];
	long			 reset;

	r->status = o->status;
	r->http_status = o->code;
	r->attempts = call->attempt;
	r->latency_ms = o->latency_ms;
	r->budget_left = call->budget_left;
	r->headers = call->rh;
	r->nheaders = call->nrh;
	call->rh = NULL;
	call->nrh = 0;
	if ((v = http_response_header(r, "Ratelimit")) != NULL)
		retry_parse_ratelimit(v, &r->ratelimit_remaining, &reset);
	if (call->raw && o->status == STATUS_OK)
		r->body = buf_detach(&call->in, &r->len);
	if (o->status != STATUS_OK) {
		buf_adds(&b, o->text);
		if (d != NULL && d->action == RETRY_REPORT) {
			r->until = d->until;
			buf_addf(&b, "; %s until %s", o->code == 429 ?
			    "rate-limited" : "the server asks to wait",
			    retry_until_text(d->until, until));
		}
		if (call->attempt > 1)
			buf_addf(&b, " (%d attempts)", call->attempt);
		http_set_detail(call, buf_str(&b));
		buf_free(&b);
	}
	free(o->text);
	o->text = NULL;
	call->status = o->status;
	call->done = 1;
	http_attempt_clear(call);
	buf_free(&call->in);
	http_handle_put(c, call->easy);
	call->easy = NULL;
}

enum http_next
http_call_done(struct http_call *call, CURLcode rc, long *wait_ms)
{
	struct http_outcome	 o;
	struct retry_decision	 d;

	*wait_ms = 0;
	if (!call->sending)
		fatalx("http_call_done: %s %s was not sent", call->method,
		    call->path);
	call->sending = 0;
	http_read_info(call, rc, &o);
	http_judge(call, &o);
	http_log_attempt(call, &o);
	http_log_add(call->c, call, o.code, o.status, o.latency_ms);
	if (o.status == STATUS_OK) {
		http_finish(call, &o, NULL);
		return (HTTP_NEXT_DONE);
	}
	http_decide(call, &o, &d);
	if (d.action != RETRY_AFTER) {
		http_logf(call->c, LOG_LEVEL_DEBUG, "%s %s: not retried: %s",
		    call->method, call->path, d.why);
		http_finish(call, &o, &d);
		return (HTTP_NEXT_DONE);
	}
	http_logf(call->c, LOG_LEVEL_INFO, "%s %s: retrying in %ld ms: %s",
	    call->method, call->path, d.delay_ms, d.why);
	free(o.text);
	api_response_free(&call->resp.api);
	*wait_ms = d.delay_ms;
	return (HTTP_NEXT_WAIT);
}

enum status
http_call_result(struct http_call *call, struct http_response *resp,
    char **cause)
{
	if (!call->done)
		fatalx("http_call_result: %s %s is not done", call->method,
		    call->path);
	*resp = call->resp;
	resp->status = call->status;
	resp->attempts = call->attempt;
	memset(&call->resp, 0, sizeof call->resp);
	call->resp.ratelimit_remaining = -1;
	resp->method = xstrdup(call->method);
	resp->path = http_log_clean(call->c, call->path);
	resp->detail = call->detail;
	call->detail = NULL;
	if (call->status != STATUS_OK && cause != NULL) {
		*cause = call->cause;
		call->cause = NULL;
	}
	return (resp->status);
}

void
http_call_free(struct http_call *call)
{
	size_t	i;

	if (call == NULL)
		return;
	http_attempt_clear(call);
	buf_free(&call->in);
	http_handle_put(call->c, call->easy);
	http_response_free(&call->resp);
	free(call->cause);
	free(call->detail);
	free(call->method);
	free(call->path);
	free(call->url);
	for (i = 0; i < call->nheaders; i++)
		free(call->headers[i]);
	free(call->headers);
	free(call->json);
	for (i = 0; i < call->nparts; i++) {
		free((char *)call->parts[i].name);
		free((char *)call->parts[i].value);
		free((char *)call->parts[i].file);
		free((char *)call->parts[i].filename);
		free((char *)call->parts[i].type);
	}
	free(call->parts);
	free(call->content_type);
	free(call);
}

/* ---- blocking ------------------------------------------------------------ */

enum status
http_perform(struct http_client *c, const struct http_request *req,
    struct http_response *resp, char **cause)
{
	struct http_call	*call;
	enum http_next		 n;
	enum status		 st;
	CURL			*easy;
	long			 wait;

	call = http_call_new(c, req);
	for (;;) {
		n = http_call_next(call, &easy, &wait);
		if (n == HTTP_NEXT_SEND) {
			n = http_call_done(call, curl_easy_perform(easy),
			    &wait);
		}
		if (n == HTTP_NEXT_DONE)
			break;
		c->hooks.sleep(wait, c->hooks.arg);
	}
	st = http_call_result(call, resp, cause);
	http_call_free(call);
	return (st);
}

void
http_response_free(struct http_response *r)
{
	api_response_free(&r->api);
	free(r->body);
	r->body = NULL;
	r->len = 0;
	http_headers_free(&r->headers, &r->nheaders);
	free(r->method);
	free(r->path);
	free(r->detail);
	r->method = r->path = r->detail = NULL;
}

const char *
http_response_header(const struct http_response *r, const char *name)
{
	return (http_find_header(r->headers, r->nheaders, name));
}

/* ---- exit statuses ---------------------------------------------------- */

int
http_exit_status(enum status st, long http_status)
{
	if (st == STATUS_OK)
		return (HTTP_EXIT_OK);
	if (http_status != 0 || st == STATUS_RATE_LIMITED)
		return (HTTP_EXIT_REFUSED);
	switch (st) {
	case STATUS_TRANSPORT:
	case STATUS_TIMEOUT:
	case STATUS_CANCELLED:
		return (HTTP_EXIT_TRANSPORT);
	default:
		return (HTTP_EXIT_USAGE);
	}
}
