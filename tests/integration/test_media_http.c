/*
 * Integration tests for what hangs off a Stream video, over HTTP: the
 * webhook (configuration, and a signed delivery with a retry received by a
 * listener on loopback), MP4 downloads (refused before the video is ready,
 * encoded, served whole and by ranges, deleted), captions and audio tracks.
 * Videos are uploaded through TUS; waits poll the API with a deadline.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "itest.h"
#include "jsonget.h"

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

#define NO_VIDEO	"00000000000000000000000000000000"
#define OTHER_ACCOUNT	"abcdefabcdefabcdefabcdefabcdef01"
/* How long any wait may take before the test fails instead of hanging. */
#define DEADLINE	60

static double
now_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* A short pause between polls; the deadline, not this, bounds a wait. */
static void
pause_briefly(void)
{
	struct timespec	ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void
assert_refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *want)
{
	char	*msg = api_fail(e, method, path, body, status);

	if (strstr(msg, want) == NULL)
		fail_msg("%s %s: message '%s' does not mention '%s'", method,
		    path, msg, want);
	free(msg);
}

/* ---- requests with headers of our own ---------------------------------- */

/* ---- videos ------------------------------------------------------------- */

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/*
 * A small valid MP4: ftyp, moov holding an mvhd (version 0, 5 s at a
 * timescale of 1000), then an mdat of patterned bytes so that ranges
 * taken from different places differ.
 */
static unsigned char *
make_mp4(size_t payload, size_t *lenp)
{
	static const unsigned char ftyp[24] = {
		0, 0, 0, 24, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm',
		0, 0, 2, 0, 'i', 's', 'o', 'm', 'm', 'p', '4', '2'
	};
	unsigned char	*p, *mvhd;
	size_t		 len = 24 + 116 + 8 + payload, i;

	p = calloc(1, len);
	if (p == NULL)
		abort();
	memcpy(p, ftyp, sizeof ftyp);
	put32(p + 24, 116);
	memcpy(p + 28, "moov", 4);
	mvhd = p + 32;
	put32(mvhd, 108);
	memcpy(mvhd + 4, "mvhd", 4);
	/* version and flags 0, creation and modification times 0 */
	put32(mvhd + 20, 1000);			/* timescale */
	put32(mvhd + 24, 5000);			/* duration */
	put32(mvhd + 28, 0x00010000);		/* rate 1.0 */
	mvhd[32] = 1;				/* volume 1.0 */
	put32(mvhd + 44, 0x00010000);		/* the unity matrix */
	put32(mvhd + 60, 0x00010000);
	put32(mvhd + 76, 0x40000000);
	put32(mvhd + 104, 2);			/* next track id */
	put32(p + 140, (uint32_t)(8 + payload));
	memcpy(p + 144, "mdat", 4);
	for (i = 0; i < payload; i++)
		p[148 + i] = (unsigned char)(i * 7 + i / 251);
	*lenp = len;
	return (p);
}

/* A TUS upload created, its bytes not sent: the video waits for them. */
static char *
tus_create(struct edgemu *e, const char *account, size_t len,
    char **location)
{
	struct http_resp	 r;
	char			*path, *hlen, *uid;
	const char		*h, *loc;
	const char		*headers[] = {
		"Tus-Resumable: 1.0.0", NULL,
		"Upload-Metadata: name dGVzdC5tcDQ=", NULL
	};

	hlen = itest_printf("Upload-Length: %zu", len);
	headers[1] = hlen;
	path = itest_printf("/accounts/%s/stream", account);
	http_request_with(e, "POST", path, headers, NULL, 0, NULL, &r);
	if (r.status != 201)
		fail_msg("TUS POST %s: %ld %.300s", path, r.status, r.body);
	if ((h = http_header(&r, "stream-media-id")) == NULL)
		fail_msg("TUS POST: no stream-media-id");
	uid = strdup(h);
	if ((loc = http_header(&r, "location")) == NULL)
		fail_msg("TUS POST: no Location");
	if (strncmp(loc, "http", 4) == 0)
		*location = strdup(loc);
	else {
		/* A path: on this server, below or outside API_PREFIX. */
		char *origin = strdup(e->url);

		*strstr(origin + 8, "/") = '\0';
		*location = itest_printf("%s%s", origin, loc);
		free(origin);
	}
	http_resp_free(&r);
	free(path);
	free(hlen);
	return (uid);
}

/* The whole file in one final chunk (allowed under 5 MiB). */
static void
tus_send(struct edgemu *e, const char *location, const void *bytes,
    size_t len)
{
	struct http_resp	 r;
	const char		*headers[] = {
		"Tus-Resumable: 1.0.0",
		"Upload-Offset: 0",
		"Content-Type: application/offset+octet-stream",
		NULL
	};

	http_request_with(e, "PATCH", location, headers, bytes, len, NULL, &r);
	if (r.status != 204)
		fail_msg("TUS PATCH %s: %ld %.300s", location, r.status,
		    r.body);
	http_resp_free(&r);
}

static char *
video_path(const char *account, const char *uid, const char *rest)
{
	return (itest_printf("/accounts/%s/stream/%s%s", account, uid, rest));
}

static char *
video_state(struct edgemu *e, const char *account, const char *uid)
{
	char	*path = video_path(account, uid, ""), *state;
	cJSON	*v = api_ok(e, "GET", path, NULL);

	state = strdup(jstr(jget(v, "status"), "state"));
	cJSON_Delete(v);
	free(path);
	return (state);
}

/* Poll until the video is ready; an error or the deadline fails. */
static void
wait_ready(struct edgemu *e, const char *account, const char *uid)
{
	double	 end = now_mono() + DEADLINE;
	char	*state;

	for (;;) {
		state = video_state(e, account, uid);
		if (strcmp(state, "ready") == 0)
			break;
		if (strcmp(state, "error") == 0)
			fail_msg("video %s went to error", uid);
		if (now_mono() > end)
			fail_msg("video %s still %s after %d s", uid, state,
			    DEADLINE);
		free(state);
		pause_briefly();
	}
	free(state);
}

/* Upload a whole video and wait until it is ready. */
static char *
upload_ready(struct edgemu *e, const char *account, const unsigned char *mp4,
    size_t len)
{
	char	*uid, *location;

	uid = tus_create(e, account, len, &location);
	tus_send(e, location, mp4, len);
	free(location);
	wait_ready(e, account, uid);
	return (uid);
}

/* ---- a webhook receiver on loopback ------------------------------------- */

struct hook_req {
	char	*method;
	char	*path;
	char	*content_type;
	char	*signature;
	char	*body;
	size_t	 len;
};

struct listener {
	int		 fd;
	int		 port;
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	int		 stop;
	int		 fail_first;	/* answer 500 to the first n */
	int		 hold;		/* then leave them unanswered */
	int		 held;		/* the one held, or -1 */
	struct hook_req	 reqs[16];
	size_t		 nreqs;
	int		 thread_started;
};

/* The value of a header in a raw request head (names any case), or NULL. */
static char *
head_value(const char *head, const char *name)
{
	const char	*p = head;
	size_t		 n = strlen(name), v;

	while ((p = strstr(p, "\r\n")) != NULL) {
		p += 2;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			v = strcspn(p, "\r\n");
			return (strndup(p, v));
		}
	}
	return (NULL);
}

/* Read one request: the head, then Content-Length bytes of body. */
static int
listener_read(int fd, struct hook_req *hr)
{
	char	*buf = NULL, *end, *cl;
	size_t	 have = 0, size = 0, headlen, want;
	ssize_t	 n;

	for (;;) {
		if (have + 4096 + 1 > size) {
			size = size * 2 + 8192;
			if ((buf = realloc(buf, size)) == NULL)
				abort();
		}
		n = recv(fd, buf + have, size - have - 1, 0);
		if (n <= 0)
			goto fail;
		have += (size_t)n;
		buf[have] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")) != NULL)
			break;
	}
	headlen = (size_t)(end + 4 - buf);
	cl = head_value(buf, "Content-Length");
	want = cl != NULL ? strtoul(cl, NULL, 10) : 0;
	free(cl);
	while (have - headlen < want) {
		if (have + want + 1 > size) {
			size = headlen + want + 1;
			if ((buf = realloc(buf, size)) == NULL)
				abort();
		}
		n = recv(fd, buf + have, size - have - 1, 0);
		if (n <= 0)
			goto fail;
		have += (size_t)n;
	}
	hr->method = strndup(buf, strcspn(buf, " "));
	hr->path = strndup(buf + strlen(hr->method) + 1,
	    strcspn(buf + strlen(hr->method) + 1, " "));
	hr->content_type = head_value(buf, "Content-Type");
	hr->signature = head_value(buf, "Webhook-Signature");
	hr->body = malloc(want + 1);
	memcpy(hr->body, buf + headlen, want);
	hr->body[want] = '\0';
	hr->len = want;
	free(buf);
	return (0);
fail:
	free(buf);
	return (-1);
}

static void *
listener_main(void *arg)
{
	struct listener	*l = arg;
	struct pollfd	 pfd = { .fd = l->fd, .events = POLLIN };
	struct timeval	 tv = { 10, 0 };
	struct hook_req	 hr;
	const char	*answer;
	int		 c, stopping;

	for (;;) {
		pthread_mutex_lock(&l->lock);
		stopping = l->stop;
		pthread_mutex_unlock(&l->lock);
		if (stopping)
			break;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if ((c = accept(l->fd, NULL, NULL)) == -1)
			continue;
		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		memset(&hr, 0, sizeof hr);
		if (listener_read(c, &hr) != 0) {
			close(c);
			continue;
		}
		pthread_mutex_lock(&l->lock);
		if (l->fail_first > 0) {
			l->fail_first--;
			answer = "HTTP/1.1 500 Internal Server Error\r\n"
			    "Content-Length: 0\r\nConnection: close\r\n\r\n";
		} else if (l->hold) {
			/* In flight until released; one timed out goes. */
			if (l->held != -1)
				close(l->held);
			l->held = c;
			answer = NULL;
		} else
			answer = "HTTP/1.1 200 OK\r\n"
			    "Content-Length: 0\r\nConnection: close\r\n\r\n";
		if (l->nreqs < nitems(l->reqs))
			l->reqs[l->nreqs++] = hr;
		pthread_cond_broadcast(&l->cond);
		pthread_mutex_unlock(&l->lock);
		if (answer == NULL)
			continue;
		if (send(c, answer, strlen(answer), MSG_NOSIGNAL) < 0)
			fprintf(stderr, "listener: send: %s\n",
			    strerror(errno));
		close(c);
	}
	return (NULL);
}

static void
listener_listen(struct listener *l)
{
	if (listen(l->fd, 16) != 0)
		fail_msg("listen: %s", strerror(errno));
	if (pthread_create(&l->thread, NULL, listener_main, l) != 0)
		fail_msg("pthread_create failed");
	l->thread_started = 1;
}

/*
 * Bind a loopback port; with listen_now also accept on it. Until then
 * connections to it are refused, as to a receiver that is down.
 */
static void
listener_start(struct listener *l, int fail_first, int listen_now)
{
	struct sockaddr_in	sin;
	socklen_t		slen = sizeof sin;

	memset(l, 0, sizeof *l);
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->cond, NULL);
	l->fail_first = fail_first;
	l->held = -1;
	if ((l->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		fail_msg("socket: %s", strerror(errno));
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(l->fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    getsockname(l->fd, (struct sockaddr *)&sin, &slen) != 0)
		fail_msg("listener: %s", strerror(errno));
	l->port = ntohs(sin.sin_port);
	l->thread_started = 0;
	if (listen_now)
		listener_listen(l);
}

/* Wait until n requests have arrived; the deadline fails the test. */
static void
listener_wait(struct listener *l, size_t n)
{
	struct timespec	ts;
	size_t		got;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += DEADLINE;
	pthread_mutex_lock(&l->lock);
	while (l->nreqs < n) {
		if (pthread_cond_timedwait(&l->cond, &l->lock, &ts) ==
		    ETIMEDOUT)
			break;
	}
	got = l->nreqs;
	pthread_mutex_unlock(&l->lock);
	if (got < n)
		fail_msg("the webhook receiver got %zu requests, expected %zu "
		    "within %d s", got, n, DEADLINE);
}

/* Requests from now on are answered; the one held is dropped. */
static void
listener_release(struct listener *l)
{
	pthread_mutex_lock(&l->lock);
	l->hold = 0;
	if (l->held != -1)
		close(l->held);
	l->held = -1;
	pthread_mutex_unlock(&l->lock);
}

static void
listener_stop(struct listener *l)
{
	size_t	i;

	listener_release(l);
	pthread_mutex_lock(&l->lock);
	l->stop = 1;
	pthread_mutex_unlock(&l->lock);
	if (l->thread_started)
		pthread_join(l->thread, NULL);
	close(l->fd);
	for (i = 0; i < l->nreqs; i++) {
		free(l->reqs[i].method);
		free(l->reqs[i].path);
		free(l->reqs[i].content_type);
		free(l->reqs[i].signature);
		free(l->reqs[i].body);
	}
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->cond);
}

/*
 * Check Webhook-Signature the way a receiver would: split on "," and "=",
 * recompute hex(HMAC-SHA256(secret, time "." body)) with OpenSSL here, and
 * compare.
 */
static void
assert_signed(const struct hook_req *hr, const char *secret)
{
	unsigned char	 md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0, i;
	char		*msg, hex[2 * EVP_MAX_MD_SIZE + 1], *sig = NULL;
	char		*copy, *part, *save = NULL, *end;
	long long	 t = -1;
	size_t		 plen;

	if (hr->signature == NULL)
		fail_msg("no Webhook-Signature header");
	copy = strdup(hr->signature);
	for (part = strtok_r(copy, ",", &save); part != NULL;
	    part = strtok_r(NULL, ",", &save)) {
		if (strncmp(part, "time=", 5) == 0) {
			t = strtoll(part + 5, &end, 10);
			if (*end != '\0' || end == part + 5)
				fail_msg("bad time in '%s'", hr->signature);
		} else if (strncmp(part, "sig1=", 5) == 0)
			sig = part + 5;
	}
	if (t <= 0 || sig == NULL)
		fail_msg("Webhook-Signature '%s' lacks time or sig1",
		    hr->signature);
	msg = itest_printf("%lld.", t);
	plen = strlen(msg);
	msg = realloc(msg, plen + hr->len);
	memcpy(msg + plen, hr->body, hr->len);
	HMAC(EVP_sha256(), secret, (int)strlen(secret),
	    (unsigned char *)msg, plen + hr->len, md, &mdlen);
	assert_int_equal(mdlen, 32);
	for (i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	assert_string_equal(sig, hex);
	free(msg);
	free(copy);
}

/* ---- tests -------------------------------------------------------------- */

#define ACCOUNT		"0123456789abcdef0123456789abcdef"
#define HOOK		"/accounts/" ACCOUNT "/stream/webhook"

static void
test_webhook_config(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*w, *w2;
	char		*secret;

	assert_refused(e, "GET", HOOK, NULL, 404, "no webhook");
	assert_refused(e, "DELETE", HOOK, NULL, 404, "no webhook");
	assert_refused(e, "PUT", HOOK, NULL, 400, "notificationUrl");
	assert_refused(e, "PUT", HOOK, "{}", 400, "notificationUrl");
	assert_refused(e, "PUT", HOOK, "{\"notificationUrl\":null}", 400,
	    "notificationUrl");
	assert_refused(e, "PUT", HOOK, "{\"notificationUrl\":[]}", 400,
	    "must be a string");
	assert_refused(e, "PUT", HOOK, "{\"notificationUrl\":\"/hook\"}",
	    400, "absolute URL");
	assert_refused(e, "PUT", HOOK,
	    "{\"notificationUrl\":\"file:///etc/passwd\"}", 400,
	    "http or https");
	assert_refused(e, "PUT", HOOK, "{\"notificationUrl\":"
	    "\"https://exa mple.com\"}", 400, "notificationUrl");
	assert_refused(e, "GET", HOOK, NULL, 404, "no webhook");

	/* Loopback is accepted: the service would refuse it. */
	w = api_ok(e, "PUT", HOOK,
	    "{\"notificationUrl\":\"http://127.0.0.1:1/hook\"}");
	assert_string_equal(jstr(w, "notificationUrl"),
	    "http://127.0.0.1:1/hook");
	assert_int_equal(strlen(jstr(w, "secret")), 32);
	assert_non_null(jstr(w, "modified"));
	secret = strdup(jstr(w, "secret"));
	w2 = api_ok(e, "GET", HOOK, NULL);
	assert_true(cJSON_Compare(w, w2, 1));
	cJSON_Delete(w);
	cJSON_Delete(w2);

	/* Replace: new URL, same secret. */
	w = api_ok(e, "PUT", HOOK,
	    "{\"notificationUrl\":\"https://example.com/other\"}");
	assert_string_equal(jstr(w, "notificationUrl"),
	    "https://example.com/other");
	assert_string_equal(jstr(w, "secret"), secret);
	cJSON_Delete(w);

	/* Other accounts have none; no token, no webhook. */
	assert_refused(e, "GET", "/accounts/" OTHER_ACCOUNT "/stream/webhook",
	    NULL, 404, "no webhook");
	{
		struct http_resp	r;

		http_request(e, "GET", HOOK, NULL, NULL, 0, "", &r);
		assert_int_equal(r.status, 401);
		http_resp_free(&r);
	}

	w = api_ok(e, "DELETE", HOOK, NULL);
	assert_true(cJSON_IsString(w));
	assert_string_equal(w->valuestring, "ok");
	cJSON_Delete(w);
	assert_refused(e, "GET", HOOK, NULL, 404, "no webhook");
	assert_refused(e, "DELETE", HOOK, NULL, 404, "no webhook");

	/* A new webhook has a new secret. */
	w = api_ok(e, "PUT", HOOK,
	    "{\"notificationUrl\":\"https://example.com/again\"}");
	assert_string_not_equal(jstr(w, "secret"), secret);
	cJSON_Delete(w);
	free(secret);
}

/*
 * A video uploaded and processed is POSTed to the webhook, signed; the
 * receiver refuses the first attempt, so the retry must come, signed too,
 * with the same video.
 */
static void
test_webhook_delivery(void **state)
{
	struct edgemu	*e = *state;
	struct listener	 l;
	unsigned char	*mp4;
	size_t		 len, i;
	char		*body, *uid, *secret;
	cJSON		*w, *v;

	listener_start(&l, 1, 1);
	body = itest_printf("{\"notificationUrl\":"
	    "\"http://127.0.0.1:%d/hooks/stream?x=1\"}", l.port);
	w = api_ok(e, "PUT", HOOK, body);
	free(body);
	cJSON_Delete(w);
	w = api_ok(e, "GET", HOOK, NULL);
	secret = strdup(jstr(w, "secret"));
	cJSON_Delete(w);

	mp4 = make_mp4(2000, &len);
	uid = upload_ready(e, ACCOUNT, mp4, len);
	listener_wait(&l, 2);

	for (i = 0; i < 2; i++) {
		assert_string_equal(l.reqs[i].method, "POST");
		assert_string_equal(l.reqs[i].path, "/hooks/stream?x=1");
		assert_non_null(l.reqs[i].content_type);
		assert_string_equal(l.reqs[i].content_type,
		    "application/json");
		assert_signed(&l.reqs[i], secret);
		v = cJSON_ParseWithLength(l.reqs[i].body, l.reqs[i].len);
		if (v == NULL)
			fail_msg("delivery body is not JSON: %s",
			    l.reqs[i].body);
		assert_string_equal(jstr(v, "uid"), uid);
		assert_string_equal(jstr(jget(v, "status"), "state"), "ready");
		assert_true(cJSON_IsTrue(jget(v, "readyToStream")));
		cJSON_Delete(v);
	}
	/* The retry carries the same video, byte for byte. */
	assert_int_equal(l.reqs[0].len, l.reqs[1].len);
	assert_memory_equal(l.reqs[0].body, l.reqs[1].body, l.reqs[0].len);

	listener_stop(&l);
	free(secret);
	free(uid);
	free(mp4);
}

/*
 * Deliveries wait in the store: one that failed (the receiver answered
 * 500) and is not made before a stop is made after the restart. The
 * receiver holds the retry unanswered until edgemu has stopped, so edgemu
 * cannot use up its attempts however long the test takes to stop it.
 */
static void
test_webhook_restart(void **state)
{
	struct edgemu	*e = *state;
	struct listener	 l;
	unsigned char	*mp4;
	size_t		 len;
	char		*body, *uid, *secret;
	cJSON		*w, *v;

	listener_start(&l, 1, 0);
	l.hold = 1;
	listener_listen(&l);
	body = itest_printf("{\"notificationUrl\":"
	    "\"http://127.0.0.1:%d/later\"}", l.port);
	w = api_ok(e, "PUT", HOOK, body);
	secret = strdup(jstr(w, "secret"));
	free(body);
	cJSON_Delete(w);

	mp4 = make_mp4(100, &len);
	uid = upload_ready(e, ACCOUNT, mp4, len);
	/* The failed attempt, then the retry, in flight while edgemu stops. */
	listener_wait(&l, 2);
	edgemu_kill(e, SIGTERM);
	listener_release(&l);
	edgemu_restart(e);
	listener_wait(&l, 3);

	assert_string_equal(l.reqs[2].path, "/later");
	assert_signed(&l.reqs[2], secret);
	v = cJSON_ParseWithLength(l.reqs[2].body, l.reqs[2].len);
	assert_non_null(v);
	assert_string_equal(jstr(v, "uid"), uid);
	cJSON_Delete(v);
	/* The same delivery, byte for byte, not a new one. */
	assert_int_equal(l.reqs[0].len, l.reqs[2].len);
	assert_memory_equal(l.reqs[0].body, l.reqs[2].body, l.reqs[0].len);

	listener_stop(&l);
	free(secret);
	free(uid);
	free(mp4);
}

static void
test_unknown_video(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	static const char *const rest[][2] = {
		{ "POST", "/downloads" },
		{ "GET", "/downloads" },
		{ "DELETE", "/downloads" },
		{ "GET", "/captions" },
		{ "GET", "/audio" },
		{ "POST", "/audio/copy" },
		{ "DELETE", "/audio/" NO_VIDEO },
	};
	char			*path, *url, *origin;
	size_t			 i;

	for (i = 0; i < nitems(rest); i++) {
		path = video_path(ACCOUNT, NO_VIDEO, rest[i][1]);
		assert_refused(e, rest[i][0], path, strcmp(rest[i][1],
		    "/audio/copy") == 0 ? "{\"label\":\"x\"}" : NULL, 404,
		    "not found");
		free(path);
	}
	origin = strdup(e->url);
	*strstr(origin + 8, "/") = '\0';
	url = itest_printf("%s/media/%s/downloads/default.mp4", origin,
	    NO_VIDEO);
	http_request_with(e, "GET", url, NULL, NULL, 0, "", &r);
	assert_int_equal(r.status, 404);
	http_resp_free(&r);
	free(url);
	free(origin);
}

static const cJSON *
download_of(const cJSON *downloads)
{
	const cJSON	*d = jget(downloads, "default");

	assert_true(cJSON_IsObject(d));
	assert_true(cJSON_IsNumber(jget(d, "percentComplete")));
	assert_true(jget(d, "percentComplete")->valuedouble >= 0 &&
	    jget(d, "percentComplete")->valuedouble <= 100);
	return (d);
}

/* GET url with a Range header (NULL: none), no token. */
static void
fetch(struct edgemu *e, const char *method, const char *url,
    const char *range, struct http_resp *r)
{
	const char	*headers[] = { range, NULL };

	http_request_with(e, method, url, range != NULL ? headers : NULL, NULL, 0, "",
	    r);
}

static void
assert_part(struct edgemu *e, const char *url, const unsigned char *mp4,
    size_t len, const char *range, size_t first, size_t last)
{
	struct http_resp	 r;
	char			*want;

	fetch(e, "GET", url, range, &r);
	if (r.status != 206)
		fail_msg("%s: %ld, not 206", range, r.status);
	want = itest_printf("bytes %zu-%zu/%zu", first, last, len);
	assert_string_equal(http_header(&r, "content-range"), want);
	assert_string_equal(http_header(&r, "content-type"), "video/mp4");
	assert_int_equal(r.len, last - first + 1);
	assert_memory_equal(r.body, mp4 + first, r.len);
	free(want);
	http_resp_free(&r);
}

static void
test_downloads(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	unsigned char		*mp4;
	size_t			 len;
	char			*pend, *loc, *uid, *path, *url, *tail, *cr;
	const cJSON		*d;
	cJSON			*res;
	long			 early;
	double			 end;

	mp4 = make_mp4(5000, &len);

	/* A video still waiting for its bytes cannot have a download. */
	pend = tus_create(e, ACCOUNT, len, &loc);
	path = video_path(ACCOUNT, pend, "/downloads");
	assert_refused(e, "POST", path, NULL, 409, "must be ready");
	res = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_IsObject(res) && cJSON_GetArraySize(res) == 0);
	cJSON_Delete(res);
	free(path);

	uid = upload_ready(e, ACCOUNT, mp4, len);
	path = video_path(ACCOUNT, uid, "/downloads");
	res = api_ok(e, "POST", path, "{}");
	d = download_of(res);
	/* Asked for this instant, with a second of processing ahead. */
	assert_string_equal(jstr(d, "status"), "inprogress");
	assert_true(jget(d, "percentComplete")->valuedouble < 100);
	url = strdup(jstr(d, "url"));
	tail = itest_printf("/media/%s/downloads/default.mp4", uid);
	assert_true(strlen(url) > strlen(tail) &&
	    strcmp(url + strlen(url) - strlen(tail), tail) == 0);
	cJSON_Delete(res);

	/* Not served before it is ready (if it still was not afterwards). */
	fetch(e, "GET", url, NULL, &r);
	early = r.status;
	http_resp_free(&r);
	res = api_ok(e, "GET", path, NULL);
	if (strcmp(jstr(download_of(res), "status"), "inprogress") == 0)
		assert_int_equal(early, 404);
	cJSON_Delete(res);

	for (end = now_mono() + DEADLINE;; pause_briefly()) {
		res = api_ok(e, "GET", path, NULL);
		d = download_of(res);
		if (strcmp(jstr(d, "status"), "ready") == 0)
			break;
		assert_string_equal(jstr(d, "status"), "inprogress");
		if (now_mono() > end)
			fail_msg("the download is not ready after %d s",
			    DEADLINE);
		cJSON_Delete(res);
	}
	assert_true(jget(d, "percentComplete")->valuedouble == 100);
	assert_string_equal(jstr(d, "url"), url);
	cJSON_Delete(res);

	/* Asking again changes nothing. */
	res = api_ok(e, "POST", path, NULL);
	assert_string_equal(jstr(download_of(res), "status"), "ready");
	cJSON_Delete(res);

	/* The whole file, without a token. */
	fetch(e, "GET", url, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(http_header(&r, "content-type"), "video/mp4");
	assert_string_equal(http_header(&r, "accept-ranges"), "bytes");
	assert_null(http_header(&r, "content-range"));
	assert_int_equal(r.len, len);
	assert_memory_equal(r.body, mp4, len);
	http_resp_free(&r);

	fetch(e, "HEAD", url, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(strtoul(http_header(&r, "content-length"), NULL, 10),
	    len);
	http_resp_free(&r);

	assert_part(e, url, mp4, len, "Range: bytes=0-99", 0, 99);
	assert_part(e, url, mp4, len, "Range: bytes=1000-1999", 1000, 1999);
	assert_part(e, url, mp4, len, "Range: bytes=4000-", 4000, len - 1);
	assert_part(e, url, mp4, len, "Range: bytes=-300", len - 300,
	    len - 1);
	assert_part(e, url, mp4, len, "Range: bytes=100-99999999", 100,
	    len - 1);

	free(tail);
	tail = itest_printf("Range: bytes=%zu-", len);
	fetch(e, "GET", url, tail, &r);
	assert_int_equal(r.status, 416);
	cr = itest_printf("bytes */%zu", len);
	assert_string_equal(http_header(&r, "content-range"), cr);
	http_resp_free(&r);
	free(cr);

	/* Several ranges are not served as such: the whole file is. */
	fetch(e, "GET", url, "Range: bytes=0-1,5-6", &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.body, mp4, len);
	http_resp_free(&r);

	/* No validators are sent, so an If-Range never matches. */
	{
		const char *h[] = { "Range: bytes=0-1",
		    "If-Range: \"some-etag\"", NULL };

		http_request_with(e, "GET", url, h, NULL, 0, "", &r);
		assert_int_equal(r.status, 200);
		assert_int_equal(r.len, len);
		http_resp_free(&r);
	}

	res = api_ok(e, "DELETE", path, NULL);
	assert_string_equal(res->valuestring, "ok");
	cJSON_Delete(res);
	res = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_IsObject(res) && cJSON_GetArraySize(res) == 0);
	cJSON_Delete(res);
	fetch(e, "GET", url, NULL, &r);
	assert_int_equal(r.status, 404);
	http_resp_free(&r);
	assert_refused(e, "DELETE", path, NULL, 404, "no downloads");

	free(tail);
	free(path);
	free(url);
	free(uid);
	free(loc);
	free(pend);
	free(mp4);
}

static const cJSON *
track(const cJSON *list, int i)
{
	const cJSON	*t = cJSON_GetArrayItem(list, i);

	if (!cJSON_IsObject(t))
		fail_msg("no audio track %d", i);
	return (t);
}

static void
test_audio_and_captions(void **state)
{
	struct edgemu	*e = *state;
	char		*uid, *loc, *copy, *list, *path, *a, *b;
	cJSON		*res;
	double		 end;
	int		 i, ready;

	/* A video waiting for its bytes still has tracks and captions. */
	uid = tus_create(e, ACCOUNT, 1000, &loc);
	path = video_path(ACCOUNT, uid, "/captions");
	res = api_ok(e, "GET", path, NULL);
	assert_true(cJSON_IsArray(res) && cJSON_GetArraySize(res) == 0);
	cJSON_Delete(res);
	free(path);

	copy = video_path(ACCOUNT, uid, "/audio/copy");
	list = video_path(ACCOUNT, uid, "/audio");
	res = api_ok(e, "GET", list, NULL);
	assert_true(cJSON_IsArray(res) && cJSON_GetArraySize(res) == 0);
	cJSON_Delete(res);

	assert_refused(e, "POST", copy, NULL, 400, "label");
	assert_refused(e, "POST", copy, "{}", 400, "label: required");
	assert_refused(e, "POST", copy, "{\"label\":5}", 400,
	    "label: must be a string");
	assert_refused(e, "POST", copy, "{\"label\":\"\"}", 400,
	    "label: must not be empty");
	assert_refused(e, "POST", copy, "{\"label\":\"x\",\"url\":7}", 400,
	    "url: must be a string");
	assert_refused(e, "POST", copy, "{\"label\":\"x\",\"url\":"
	    "\"audio.mp3\"}", 400, "url:");
	assert_refused(e, "POST", copy, "{\"label\":\"x\",\"url\":"
	    "\"ftp://example.com/a.mp3\"}", 400, "url:");

	/* The first track is the default; later ones are not. */
	res = api_ok(e, "POST", copy, "{\"label\":\"Director commentary\","
	    "\"url\":\"https://example.com/commentary.mp3\"}");
	assert_int_equal(strlen(jstr(res, "uid")), 32);
	assert_string_equal(jstr(res, "label"), "Director commentary");
	assert_true(cJSON_IsTrue(jget(res, "default")));
	assert_string_equal(jstr(res, "status"), "queued");
	a = strdup(jstr(res, "uid"));
	cJSON_Delete(res);
	res = api_ok(e, "POST", copy, "{\"label\":\"Audio description\"}");
	assert_true(cJSON_IsFalse(jget(res, "default")));
	assert_string_equal(jstr(res, "status"), "queued");
	b = strdup(jstr(res, "uid"));
	assert_string_not_equal(a, b);
	cJSON_Delete(res);
	assert_refused(e, "POST", copy, "{\"label\":\"Audio description\"}",
	    409, "already has");

	/* Both listed in order, each becoming ready. */
	for (end = now_mono() + DEADLINE;; pause_briefly()) {
		res = api_ok(e, "GET", list, NULL);
		assert_int_equal(cJSON_GetArraySize(res), 2);
		assert_string_equal(jstr(track(res, 0), "uid"), a);
		assert_string_equal(jstr(track(res, 1), "uid"), b);
		assert_true(cJSON_IsTrue(jget(track(res, 0), "default")));
		assert_true(cJSON_IsFalse(jget(track(res, 1), "default")));
		for (ready = 0, i = 0; i < 2; i++) {
			if (strcmp(jstr(track(res, i), "status"), "ready") == 0)
				ready++;
			else
				assert_string_equal(jstr(track(res, i),
				    "status"), "queued");
		}
		cJSON_Delete(res);
		if (ready == 2)
			break;
		if (now_mono() > end)
			fail_msg("audio tracks not ready after %d s", DEADLINE);
	}

	path = video_path(ACCOUNT, uid, "/audio/");
	free(loc);
	loc = itest_printf("%s%s", path, a);
	assert_refused(e, "DELETE", loc, NULL, 409, "default");
	free(loc);
	loc = itest_printf("%s%s", path, NO_VIDEO);
	assert_refused(e, "DELETE", loc, NULL, 404, "no audio track");
	free(loc);
	loc = itest_printf("%s%s", path, b);
	res = api_ok(e, "DELETE", loc, NULL);
	assert_string_equal(res->valuestring, "ok");
	cJSON_Delete(res);
	assert_refused(e, "DELETE", loc, NULL, 404, "no audio track");
	res = api_ok(e, "GET", list, NULL);
	assert_int_equal(cJSON_GetArraySize(res), 1);
	assert_string_equal(jstr(track(res, 0), "uid"), a);
	cJSON_Delete(res);

	/* Another account does not see the video at all. */
	free(path);
	path = video_path(OTHER_ACCOUNT, uid, "/audio");
	assert_refused(e, "GET", path, NULL, 404, "not found");

	free(path);
	free(loc);
	free(a);
	free(b);
	free(copy);
	free(list);
	free(uid);
}

/*
 * The demo account: a webhook to an unreachable host, captions on some
 * ready videos, audio tracks with one default each, and one ready download
 * that serves the video's bytes.
 */
static void
test_demo(void **state)
{
	struct edgemu		*e = *state;
	struct http_resp	 r;
	const cJSON		*v, *c, *t, *d;
	cJSON			*videos, *res;
	char			*path, *uid, *file;
	int			 captioned = 0, tracked = 0, downloads = 0;
	int			 defaults;

	path = itest_printf("/accounts/%s/stream/webhook", e->account);
	res = api_ok(e, "GET", path, NULL);
	assert_string_equal(jstr(res, "notificationUrl"),
	    "https://127.0.0.1:9/stream");
	assert_int_equal(strlen(jstr(res, "secret")), 32);
	cJSON_Delete(res);
	free(path);

	path = itest_printf("/accounts/%s/stream?status=ready", e->account);
	videos = api_ok(e, "GET", path, NULL);
	free(path);
	assert_true(cJSON_GetArraySize(videos) > 0);
	cJSON_ArrayForEach(v, videos) {
		uid = strdup(jstr(v, "uid"));
		path = video_path(e->account, uid, "/captions");
		res = api_ok(e, "GET", path, NULL);
		cJSON_ArrayForEach(c, res) {
			assert_true(*jstr(c, "label") != '\0');
			assert_true(*jstr(c, "language") != '\0');
		}
		if (cJSON_GetArraySize(res) >= 2)
			captioned++;
		cJSON_Delete(res);
		free(path);

		path = video_path(e->account, uid, "/audio");
		res = api_ok(e, "GET", path, NULL);
		defaults = 0;
		cJSON_ArrayForEach(t, res) {
			assert_string_equal(jstr(t, "status"), "ready");
			if (cJSON_IsTrue(jget(t, "default")))
				defaults++;
		}
		if (cJSON_GetArraySize(res) > 0) {
			assert_int_equal(defaults, 1);
			tracked++;
		}
		cJSON_Delete(res);
		free(path);

		path = video_path(e->account, uid, "/downloads");
		res = api_ok(e, "GET", path, NULL);
		if (cJSON_GetArraySize(res) > 0) {
			d = download_of(res);
			assert_string_equal(jstr(d, "status"), "ready");
			assert_true(jget(d, "percentComplete")->valuedouble ==
			    100);
			fetch(e, "GET", jstr(d, "url"), "Range: bytes=0-7",
			    &r);
			assert_int_equal(r.status, 206);
			assert_int_equal(r.len, 8);
			/* An MP4 starts with a box: size, then its type. */
			file = r.body + 4;
			assert_memory_equal(file, "ftyp", 4);
			http_resp_free(&r);
			downloads++;
		}
		cJSON_Delete(res);
		free(path);
		free(uid);
	}
	assert_true(captioned >= 2);
	assert_true(tracked >= 2);
	assert_int_equal(downloads, 1);
	cJSON_Delete(videos);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_webhook_config,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_unknown_video,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_audio_and_captions,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_downloads,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_webhook_delivery,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_webhook_restart,
		    edgemu_fixture_fast_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_demo,
		    edgemu_fixture_fast_demo, edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
