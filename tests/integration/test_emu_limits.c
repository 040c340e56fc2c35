/*
 * edgemu under load, bad input and faults: more connections than it takes,
 * PATCHes dropped or raced, malformed requests refused with a message, a
 * kill -9 during a bulk create, and what it writes to its store.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "itest.h"
#include "testdir.h"

#define ZONE		"c0ffee00c0ffee00c0ffee00c0ffee01"
#define ACCOUNT		"a1b2c3d4e5f60718293a4b5c6d7e8f90"
#define OPS		"/zones/" ZONE "/api_gateway/operations"
#define TUS		"Tus-Resumable: 1.0.0"
/* A deadline for failure, never a measure: an answer takes milliseconds. */
#define ANSWER_MS	15000
#define CONN_LIMIT	1024	/* edgemu's default --max-connections */
#define CONN_EXTRA	100

#ifndef nitems
#define nitems(a)	(sizeof (a) / sizeof (a)[0])
#endif

/* ---- raw sockets ---------------------------------------------------------- */

static int
emu_port(const struct edgemu *e)
{
	const char	*p = strrchr(e->url, ':');

	assert_non_null(p);
	return (atoi(p + 1));
}

static int
raw_connect(const struct edgemu *e)
{
	struct sockaddr_in	sin;
	int			fd;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)emu_port(e));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		fail_msg("socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
		fail_msg("connect: %s", strerror(errno));
	return (fd);
}

static void
raw_send(int fd, const void *p, size_t len)
{
	const char	*s = p;
	ssize_t		 w;

	while (len > 0) {
		w = send(fd, s, len, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fail_msg("send: %s", strerror(errno));
		s += w;
		len -= (size_t)w;
	}
}

/* The status of the answer on fd, or -1 when none comes by the deadline. */
static int
raw_status(int fd, int ms)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLIN };
	char		buf[4096];
	size_t		have = 0;
	ssize_t		r;
	int		status;

	while (have < sizeof buf - 1) {
		if (poll(&pfd, 1, ms) <= 0)
			return (-1);
		r = recv(fd, buf + have, sizeof buf - 1 - have, 0);
		if (r <= 0)
			return (-1);
		have += (size_t)r;
		buf[have] = '\0';
		if (strstr(buf, "\r\n\r\n") != NULL)
			break;
	}
	if (sscanf(buf, "HTTP/1.1 %d", &status) != 1)
		return (-1);
	return (status);
}

static char *
raw_get(const struct edgemu *e, const char *path, int keepalive)
{
	return (itest_printf("GET /client/v4%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	    "Authorization: Bearer %s\r\n%s\r\n", path, e->token,
	    keepalive ? "" : "Connection: close\r\n"));
}

/* An ordinary request on a new connection: its status, -1 if none. */
static int
ordinary_request(struct edgemu *e)
{
	char	*req = raw_get(e, OPS, 0);
	int	 fd = raw_connect(e), status;

	raw_send(fd, req, strlen(req));
	status = raw_status(fd, ANSWER_MS);
	close(fd);
	free(req);
	return (status);
}

/* Room for CONN_LIMIT + CONN_EXTRA sockets here, or skip. */
static void
need_fds(void)
{
	struct rlimit	rl;
	rlim_t		want = CONN_LIMIT + CONN_EXTRA + 256;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_cur >= want)
		return;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		skip();
	rl.rlim_cur = want;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
}

/* ---- item: more connections than the limit -------------------------------- */

/*
 * Past the limit, with every slot held by a socket that sends nothing or
 * half a request: an ordinary request is still answered, and once those
 * sockets close their slots serve another round.
 */
static void
test_idle_over_limit(void **state)
{
	struct edgemu	*e = *state;
	int		 fds[CONN_LIMIT + CONN_EXTRA], round;
	size_t		 i;

	need_fds();
	for (round = 0; round < 2; round++) {
		for (i = 0; i < nitems(fds); i++) {
			fds[i] = raw_connect(e);
			if (i % 2 == 1)
				raw_send(fds[i], "GET /client/v4", 14);
		}
		if (ordinary_request(e) != 200)
			fail_msg("round %d: no answer with %zu sockets open",
			    round, nitems(fds));
		for (i = 0; i < nitems(fds); i++)
			close(fds[i]);
	}
	assert_int_equal(ordinary_request(e), 200);
}

/*
 * Past the limit with every connection asking (wrk -c1100): the rest keep
 * being served, the ones that wait are served in turn, and a connection
 * whose client has gone is reclaimed (no CLOSE-WAIT until the timeout).
 */
static void
test_busy_over_limit(void **state)
{
	struct edgemu	*e = *state;
	int		 fds[CONN_LIMIT + CONN_EXTRA], round, answered;
	char		*req = raw_get(e, OPS, 1);
	size_t		 i;

	need_fds();
	for (round = 0; round < 2; round++) {
		for (i = 0; i < nitems(fds); i++) {
			fds[i] = raw_connect(e);
			raw_send(fds[i], req, strlen(req));
		}
		if (ordinary_request(e) != 200)
			fail_msg("round %d: no answer with %zu clients asking",
			    round, nitems(fds));
		/* Stops at the first one left waiting: deadlines add up. */
		answered = 0;
		for (i = 0; i < nitems(fds); i++) {
			if (raw_status(fds[i], ANSWER_MS) != 200)
				break;
			answered++;
		}
		/* Each waiting one had its turn. */
		assert_int_equal(answered, (int)nitems(fds));
		for (i = 0; i < nitems(fds); i++)
			close(fds[i]);
	}
	free(req);
	assert_int_equal(ordinary_request(e), 200);
}

/* ---- item: PATCHes dropped or raced ------------------------------------- */

static char *
tus_create(struct edgemu *e, long long length)
{
	struct http_req		 t = { .method = "POST" };
	struct http_resp	 r;
	char			*len, *loc;
	const char		*h;

	t.url = "/accounts/" ACCOUNT "/stream";
	len = itest_printf("Upload-Length: %lld", length);
	t.headers[0] = TUS;
	t.headers[1] = len;
	http_send(e, &t, &r);
	if (r.status != 201)
		fail_msg("tus create: %ld %.300s", r.status, r.body);
	h = http_header(&r, "location");
	assert_non_null(h);
	loc = strdup(h);
	http_resp_free(&r);
	free(len);
	return (loc);
}

static long long
head_offset(struct edgemu *e, const char *loc)
{
	struct http_req		 t = { .method = "HEAD", .url = loc };
	struct http_resp	 r;
	const char		*h;
	long long		 off;

	t.headers[0] = TUS;
	http_send(e, &t, &r);
	assert_int_equal(r.status, 200);
	h = http_header(&r, "upload-offset");
	assert_non_null(h);
	off = atoll(h);
	http_resp_free(&r);
	return (off);
}

static long
tus_patch(struct edgemu *e, const char *loc, long long offset, const void *p,
    size_t len)
{
	struct http_req		 t = { .method = "PATCH", .url = loc,
				    .body = p, .len = len };
	struct http_resp	 r;
	char			*off = itest_printf("Upload-Offset: %lld",
				    offset);
	long			 status;

	t.headers[0] = TUS;
	t.headers[1] = "Content-Type: application/offset+octet-stream";
	t.headers[2] = off;
	if (p == NULL)
		t.body = "";
	http_send(e, &t, &r);
	status = r.status;
	http_resp_free(&r);
	free(off);
	return (status);
}

/* A PATCH's headers and its first bytes on a raw socket, left open. */
static int
raw_patch_start(struct edgemu *e, const char *loc, long long offset,
    long long declared, const void *p, size_t len)
{
	const char	*path = strstr(loc, "/client/v4");
	char		*head;
	int		 fd = raw_connect(e);

	assert_non_null(path);
	head = itest_printf("PATCH %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	    "Authorization: Bearer %s\r\n" TUS "\r\nContent-Type: "
	    "application/offset+octet-stream\r\nUpload-Offset: %lld\r\n"
	    "Content-Length: %lld\r\n\r\n", path, e->token, offset, declared);
	raw_send(fd, head, strlen(head));
	raw_send(fd, p, len);
	free(head);
	return (fd);
}

/* Wait (bounded) until HEAD shows offset; fails past the deadline. */
static void
wait_offset(struct edgemu *e, const char *loc, long long want)
{
	struct timespec	ts = { 0, 50 * 1000 * 1000 };
	int		i;
	long long	off = -1;

	for (i = 0; i < ANSWER_MS / 50; i++) {
		if ((off = head_offset(e, loc)) == want)
			return;
		nanosleep(&ts, NULL);
	}
	fail_msg("the upload's offset is %lld, not %lld", off, want);
}

static unsigned char *
pattern(size_t len, unsigned int seed)
{
	unsigned char	*p = malloc(len);
	size_t		 i;

	assert_non_null(p);
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)((i * 131 + seed) >> 3);
	return (p);
}

static char *
upload_path(struct edgemu *e, const char *loc)
{
	return (itest_printf("%s/videos/%s/%.32s", e->dir, ACCOUNT,
	    strrchr(loc, '/') + 1));
}

/* The size of the upload's file on disk, -1 while there is none. */
static long long
upload_file_size(struct edgemu *e, const char *loc)
{
	char		*path = upload_path(e, loc);
	struct stat	 sb;
	long long	 size;

	size = stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
	free(path);
	return (size);
}

static void
assert_file(struct edgemu *e, const char *loc, const void *src, size_t len)
{
	char		*path = upload_path(e, loc);
	unsigned char	*got = malloc(len + 1);
	FILE		*f = fopen(path, "rb");

	assert_non_null(f);
	assert_non_null(got);
	assert_int_equal(fread(got, 1, len + 1, f), len);
	assert_memory_equal(got, src, len);
	fclose(f);
	free(got);
	free(path);
}

/*
 * A client that goes away in the middle of a PATCH body: the bytes it sent
 * are kept, HEAD says so, and the next PATCH resumes there without a 423.
 */
static void
dropped_patch(struct edgemu *e, size_t total, size_t sent)
{
	unsigned char	*src = pattern(total, 7);
	char		*loc = tus_create(e, (long long)total);
	int		 fd;

	fd = raw_patch_start(e, loc, 0, (long long)total, src, sent);
	close(fd);
	wait_offset(e, loc, (long long)sent);
	assert_int_equal(tus_patch(e, loc, (long long)sent, src + sent,
	    total - sent), 204);
	assert_int_equal(head_offset(e, loc), (long long)total);
	assert_file(e, loc, src, total);
	free(loc);
	free(src);
}

static void
test_dropped_patch(void **state)
{
	dropped_patch(*state, 4 * 1024 * 1024, 100 * 1024);
}

/* edgemu reading PATCH bodies at 32 KiB a second. */
static int
throttled_fixture(void **state)
{
	struct edgemu	*e = calloc(1, sizeof *e);

	assert_non_null(e);
	edgemu_start(e, NULL, 0, "--upload-rate", "32768", NULL);
	*state = e;
	return (0);
}

static void
test_dropped_patch_throttled(void **state)
{
	/* Its bytes would take 20 s to read at the rate, the rest 3 s. */
	dropped_patch(*state, 740 * 1024, 640 * 1024);
}

/*
 * Two PATCHes to one upload at once: the first proceeds, the second is
 * refused with 423, and the bytes on disk are the first one's.
 */
static void
test_concurrent_patches(void **state)
{
	struct edgemu	*e = *state;
	size_t		 total = 1024 * 1024, half = total / 2;
	unsigned char	*src = pattern(total, 3), *other = pattern(total, 99);
	char		*loc = tus_create(e, (long long)total);
	struct timespec	 ts = { 0, 20 * 1000 * 1000 };
	long long	 size = 0;
	int		 fd, i;

	fd = raw_patch_start(e, loc, 0, (long long)total, src, half);
	/*
	 * Only a PATCH holding the lock writes the file, so its first bytes
	 * there show the lock is taken. (A probing PATCH would take the lock
	 * itself for a moment, and the raw one could meet that and get 423.)
	 */
	for (i = 0; i < ANSWER_MS / 20; i++) {
		if ((size = upload_file_size(e, loc)) > 0)
			break;
		nanosleep(&ts, NULL);
	}
	if (size <= 0)
		fail_msg("the first PATCH wrote nothing in %d ms", ANSWER_MS);
	assert_int_equal(tus_patch(e, loc, 0, NULL, 0), 423);
	assert_int_equal(tus_patch(e, loc, 0, other, total), 423);
	raw_send(fd, src + half, total - half);
	assert_int_equal(raw_status(fd, ANSWER_MS), 204);
	close(fd);
	assert_int_equal(head_offset(e, loc), (long long)total);
	assert_file(e, loc, src, total);
	free(loc);
	free(src);
	free(other);
}

/* ---- item: bad input ------------------------------------------------------ */

static char *
refused(struct edgemu *e, const char *method, const char *path,
    const char *body, long status, const char *says)
{
	char	*msg = api_fail(e, method, path, body, status);

	if (says != NULL && strstr(msg, says) == NULL)
		fail_msg("%s %s: '%s' does not say '%s'", method, path, msg,
		    says);
	return (msg);
}

static void
test_many_query_params(void **state)
{
	struct edgemu	*e = *state;
	char		*path, *q = malloc(4500 * 12), *p;
	int		 i;

	assert_non_null(q);
	for (i = 0, p = q; i < 4500; i++)
		p += sprintf(p, "%sa%d=1", i == 0 ? "" : "&", i);
	path = itest_printf(OPS "?%s", q);
	free(refused(e, "GET", path, NULL, 400, "too many query parameters"));
	free(path);
	free(q);
	assert_int_equal(ordinary_request(e), 200);
}

static long
count_ops(struct edgemu *e, const char *zone)
{
	char		*path = itest_printf("/zones/%s/api_gateway/operations"
			    "?per_page=5", zone);
	struct http_resp r;
	const cJSON	*info, *n;
	long		 count;

	http_json(e, "GET", path, NULL, &r);
	assert_int_equal(r.status, 200);
	info = cJSON_GetObjectItem(r.json, "result_info");
	n = cJSON_GetObjectItem(info, "total_count");
	assert_true(cJSON_IsNumber(n));
	count = (long)n->valuedouble;
	http_resp_free(&r);
	free(path);
	return (count);
}

static void
test_json_nul_and_duplicates(void **state)
{
	struct edgemu	*e = *state;
	long		 before = count_ops(e, ZONE);

	free(refused(e, "POST", OPS, "[{\"method\":\"GET\",\"host\":"
	    "\"a.example.com\",\"endpoint\":\"/x\\u0000y\"}]", 400,
	    "\\u0000"));
	free(refused(e, "POST", OPS, "[{\"method\":\"GET\",\"host\":"
	    "\"a.example.com\",\"method\":\"POST\",\"endpoint\":\"/d\"}]", 400,
	    "duplicate key \"method\""));
	assert_int_equal(count_ops(e, ZONE), before);
	/* An escaped backslash before u0000 is no NUL. */
	cJSON_Delete(api_ok(e, "POST", OPS, "[{\"method\":\"GET\",\"host\":"
	    "\"a.example.com\",\"endpoint\":\"/x\\\\u0000y\"}]"));
	assert_int_equal(count_ops(e, ZONE), before + 1);
}

static void
test_path_nul(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*list;
	const cJSON	*id;
	char		*path, *uuid;

	list = api_ok(e, "POST", OPS, "[{\"method\":\"GET\",\"host\":"
	    "\"n.example.com\",\"endpoint\":\"/nul\"}]");
	id = cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0), "operation_id");
	assert_true(cJSON_IsString(id));
	uuid = strdup(id->valuestring);
	cJSON_Delete(list);
	path = itest_printf(OPS "/%s%%00junk", uuid);
	free(refused(e, "DELETE", path, NULL, 400, "%00"));
	free(path);
	path = itest_printf(OPS "/%s", uuid);
	cJSON_Delete(api_ok(e, "GET", path, NULL));
	free(path);
	free(uuid);
}

/* ---- item: raw control bytes in JSON bodies ------------------------------- */

#define ENTRY	"/zones/" ZONE "/rulesets/phases/http_ratelimit/entrypoint"
#define SV_OPS	"/zones/" ZONE "/schema_validation/settings/operations"
#define LIVE	"/accounts/" ACCOUNT "/stream/live_inputs"
#define RULE(path, more)						\
	"{\"action\":\"block\",\"expression\":\"http.request.uri.path eq "	\
	"\\\"" path "\\\"\"" more ",\"ratelimit\":{\"characteristics\":"	\
	"[\"cf.colo.id\",\"ip.src\"],\"period\":60,"			\
	"\"requests_per_period\":5,\"mitigation_timeout\":600}}"

/* A body of len bytes (a NUL may be in it) refused with 400 saying says. */
static void
raw_refused(struct edgemu *e, const char *method, const char *path,
    const char *body, size_t len, const char *says)
{
	struct http_resp	 r;
	const cJSON		*m;

	http_request(e, method, path, "application/json", body, len, NULL,
	    &r);
	if (r.status != 400)
		fail_msg("%s %s: %ld, not 400: %.300s", method, path, r.status,
		    r.body);
	assert_envelope(&r);
	m = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r.json,
	    "errors"), 0), "message");
	if (strstr(m->valuestring, says) == NULL)
		fail_msg("%s %s: '%s' does not say '%s'", method, path,
		    m->valuestring, says);
	http_resp_free(&r);
}

/* A new operation of ZONE: its id (caller frees). */
static char *
new_operation(struct edgemu *e, const char *endpoint)
{
	char	*body, *id;
	cJSON	*list;

	body = itest_printf("[{\"method\":\"GET\",\"host\":\"c.example.com\","
	    "\"endpoint\":\"%s\"}]", endpoint);
	list = api_ok(e, "POST", OPS, body);
	id = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0),
	    "operation_id")->valuestring);
	cJSON_Delete(list);
	free(body);
	return (id);
}

/* The operation's own Schema Validation action, "null" for none. */
static char *
sv_action(struct edgemu *e, const char *id)
{
	char		*path = itest_printf(SV_OPS "/%s", id), *s;
	cJSON		*v = api_ok(e, "GET", path, NULL);
	const cJSON	*a = cJSON_GetObjectItem(v, "mitigation_action");

	s = strdup(cJSON_IsString(a) ? a->valuestring : "null");
	cJSON_Delete(v);
	free(path);
	return (s);
}

/*
 * JSON takes no raw control character in a string: cJSON would keep it,
 * and end the string at a NUL, so "<id>\0junk" named the real id and an
 * expression was stored shorter than sent. Every JSON route refuses such
 * a body, and nothing changes.
 */
static void
test_json_raw_control(void **state)
{
	static const char	 nul_expr[] = RULE("/admin\0 and false", "");
	static const char	 ctl_desc[] = RULE("/c", ",\"description\":\"a\x01"
				    "b\"");
	struct edgemu		*e = *state;
	cJSON			*rs, *now, *live;
	const char		*rsid, *first, *second;
	char			*path, *body, *op, *action;
	size_t			 n;

	rs = api_ok(e, "PUT", ENTRY, "{\"rules\":[" RULE("/a", "") ","
	    RULE("/b", "") "]}");
	rsid = cJSON_GetObjectItem(rs, "id")->valuestring;
	first = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(rs,
	    "rules"), 0), "id")->valuestring;
	second = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(rs,
	    "rules"), 1), "id")->valuestring;
	path = itest_printf("/zones/" ZONE "/rulesets/%s/rules", rsid);
	raw_refused(e, "POST", path, nul_expr, sizeof nul_expr - 1,
	    "NUL byte");
	raw_refused(e, "POST", path, ctl_desc, sizeof ctl_desc - 1,
	    "raw control character (0x01)");
	free(path);
	path = itest_printf("/zones/" ZONE "/rulesets/%s/rules/%s", rsid,
	    second);
	body = itest_printf("{\"position\":{\"before\":\"%s#junk\"}}", first);
	n = strlen(body);
	*strchr(body, '#') = '\0';
	raw_refused(e, "PATCH", path, body, n, "NUL byte");
	free(body);
	free(path);
	now = api_ok(e, "GET", ENTRY, NULL);
	assert_string_equal(cJSON_GetObjectItem(now, "version")->valuestring,
	    cJSON_GetObjectItem(rs, "version")->valuestring);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(now, "rules"), 0), "id")->valuestring, first);
	cJSON_Delete(now);
	cJSON_Delete(rs);

	op = new_operation(e, "/raw");
	body = itest_printf("{\"%s#junk\":{\"mitigation_action\":\"block\"}}",
	    op);
	n = strlen(body);
	*strchr(body, '#') = '\0';
	raw_refused(e, "PATCH", SV_OPS, body, n, "NUL byte");
	free(body);
	action = sv_action(e, op);
	assert_string_equal(action, "null");
	free(action);
	free(op);

	body = strdup("{\"meta\":{\"name\":\"ab#cd\"}}");
	n = strlen(body);
	*strchr(body, '#') = '\0';
	raw_refused(e, "POST", LIVE, body, n, "NUL byte");
	free(body);
	/* A raw NUL between tokens is no white space either. */
	raw_refused(e, "POST", LIVE, "{\"meta\":\0{}}", 12, "NUL byte");
	live = api_ok(e, "GET", LIVE, NULL);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(live,
	    "liveInputs")), 0);
	cJSON_Delete(live);
	/* Escaped, the same characters are no NUL and are taken. */
	cJSON_Delete(api_ok(e, "POST", LIVE, "{\"meta\":{\"name\":"
	    "\"a\\tb\\u0001c\"}}"));
}

/* ---- item: an id twice in a bulk PATCH ------------------------------------ */

/*
 * Ids are the same in any case, so a bulk PATCH's map naming one in two
 * cases names it twice: refused as a key given twice is, nothing applied.
 */
static void
test_bulk_id_twice(void **state)
{
	struct edgemu	*e = *state;
	char		*op, *upper, *body, *action, *p;
	const char	*const paths[] = { SV_OPS, OPS "/schema_validation" };
	size_t		 i;

	op = new_operation(e, "/twice");
	upper = strdup(op);
	for (p = upper; *p != '\0'; p++)
		*p = (char)toupper((unsigned char)*p);
	body = itest_printf("{\"%s\":{\"mitigation_action\":\"block\"},"
	    "\"%s\":{\"mitigation_action\":\"log\"}}", op, upper);
	for (i = 0; i < nitems(paths); i++) {
		free(refused(e, "PATCH", paths[i], body, 400, "given twice"));
		action = sv_action(e, op);
		assert_string_equal(action, "null");
		free(action);
	}
	free(body);
	/* Discovered operations: refused before any is looked up. */
	body = strdup("{\"0123abcd-0000-4000-8000-00000000000a\":{\"state\":"
	    "\"review\"},\"0123ABCD-0000-4000-8000-00000000000A\":{\"state\":"
	    "\"ignored\"}}");
	free(refused(e, "PATCH", "/zones/" ZONE "/api_gateway/discovery/"
	    "operations", body, 400, "given twice"));
	free(body);
	/* Once, in upper case, it applies. */
	body = itest_printf("{\"%s\":{\"mitigation_action\":\"log\"}}", upper);
	cJSON_Delete(api_ok(e, "PATCH", SV_OPS, body));
	action = sv_action(e, op);
	assert_string_equal(action, "log");
	free(action);
	free(body);
	free(upper);
	free(op);
}

/* ---- item: how a body is framed ------------------------------------------- */

/* The whole answer on fd, read until edgemu closes; NULL if none came. */
static char *
raw_answer(int fd)
{
	struct pollfd	 pfd = { .fd = fd, .events = POLLIN };
	char		*buf = NULL;
	size_t		 have = 0;
	ssize_t		 r;

	for (;;) {
		if ((buf = realloc(buf, have + 4097)) == NULL)
			fail_msg("out of memory");
		if (poll(&pfd, 1, ANSWER_MS) <= 0)
			fail_msg("no end to the answer in %d ms", ANSWER_MS);
		if ((r = recv(fd, buf + have, 4096, 0)) <= 0)
			break;
		have += (size_t)r;
	}
	buf[have] = '\0';
	return (have != 0 ? buf : (free(buf), NULL));
}

/*
 * A body framed two ways (two Content-Lengths, or one and chunked) could be
 * read in two ways, and libmicrohttpd picks one silently; another coding
 * than chunked it reads until the connection ends. Each is refused in the
 * envelope and its connection closed, and nothing is written.
 */
static void
test_body_framing(void **state)
{
	/* 62 bytes, the Content-Length written below. */
	static const char	 body[] = "[{\"method\":\"GET\",\"host\":"
				    "\"f.example.com\",\"endpoint\":\"/framed\"}]";
	static const struct {
		const char	*headers;
		int		 chunked;
		int		 status;
		const char	*says;
	} cases[] = {
		{ "Content-Length: 62\r\nContent-Length: 62\r\n", 0, 400,
		    "Content-Length is given 2 times" },
		{ "Content-Length: 62\r\nContent-Length: 5\r\n", 0, 400,
		    "Content-Length is given 2 times" },
		{ "Content-Length: 62\r\nTransfer-Encoding: chunked\r\n", 1,
		    400, "both Content-Length and Transfer-Encoding" },
		{ "Transfer-Encoding: gzip\r\n", 0, 501,
		    "other than chunked" },
	};
	struct edgemu	*e = *state;
	long		 before = count_ops(e, ZONE);
	char		*req, *answer, *json;
	size_t		 i;
	int		 fd, status;
	cJSON		*v;

	assert_int_equal(sizeof body - 1, 62);
	for (i = 0; i < nitems(cases); i++) {
		if (cases[i].chunked)
			req = itest_printf("POST /client/v4" OPS " HTTP/1.1\r\n"
			    "Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
			    "Content-Type: application/json\r\n%s\r\n"
			    "%zx\r\n%s\r\n0\r\n\r\n", e->token,
			    cases[i].headers, sizeof body - 1, body);
		else
			req = itest_printf("POST /client/v4" OPS " HTTP/1.1\r\n"
			    "Host: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
			    "Content-Type: application/json\r\n%s\r\n%s",
			    e->token, cases[i].headers, body);
		fd = raw_connect(e);
		raw_send(fd, req, strlen(req));
		free(req);
		if ((answer = raw_answer(fd)) == NULL)
			fail_msg("case %zu: no answer", i);
		close(fd);
		json = strstr(answer, "\r\n\r\n");
		if (sscanf(answer, "HTTP/1.1 %d", &status) != 1 ||
		    status != cases[i].status || json == NULL ||
		    strstr(answer, "\r\nConnection: close\r\n") == NULL)
			fail_msg("case %zu: %.300s", i, answer);
		v = cJSON_Parse(json + 4);
		if (!cJSON_IsFalse(cJSON_GetObjectItem(v, "success")) ||
		    strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(
		    cJSON_GetObjectItem(v, "errors"), 0), "message")->valuestring,
		    cases[i].says) == NULL)
			fail_msg("case %zu: %s", i, json + 4);
		cJSON_Delete(v);
		free(answer);
	}
	assert_int_equal(count_ops(e, ZONE), before);
	assert_int_equal(ordinary_request(e), 200);
}

/* ---- item: repeated query parameters -------------------------------------- */

/* A parameter that takes one value is refused given twice; lists repeat. */
static void
test_query_repeats(void **state)
{
	struct edgemu	*e = *state;

	free(refused(e, "GET", OPS "?page=1&per_page=5&page=2", NULL, 400,
	    "page: given more than once"));
	free(refused(e, "GET", OPS "?omit_source=true&omit_source[]=false",
	    NULL, 400, "omit_source: given more than once"));
	cJSON_Delete(api_ok(e, "GET", OPS "?host=a.example.com&"
	    "host[]=b.example.com&method=GET&method=POST", NULL));
}

/* Upper-case hex ids name the same account or zone as lower-case ones. */
static void
test_upper_case_ids(void **state)
{
	struct edgemu	*e = *state;
	char		 upper[] = "C0FFEE00C0FFEE00C0FFEE00C0FFEE01";
	cJSON		*v;
	char		*path;

	assert_int_equal(count_ops(e, upper), count_ops(e, ZONE));
	cJSON_Delete(api_ok(e, "POST", "/zones/C0FFEE00C0FFEE00C0FFEE00C0FFEE01"
	    "/api_gateway/operations", "[{\"method\":\"GET\",\"host\":"
	    "\"u.example.com\",\"endpoint\":\"/upper\"}]"));
	assert_int_equal(count_ops(e, upper), count_ops(e, ZONE));
	path = strdup("/accounts/A1B2C3D4E5F60718293A4B5C6D7E8F90/stream");
	free(tus_create(e, 10));
	v = api_ok(e, "GET", path, NULL);
	assert_int_equal(cJSON_GetArraySize(v), 1);
	cJSON_Delete(v);
	free(path);
}

static void
test_stream_list_params(void **state)
{
	struct edgemu	*e = *state;
	const char	*base = "/accounts/" ACCOUNT "/stream";
	char		*path;

	path = itest_printf("%s?limit=-1", base);
	free(refused(e, "GET", path, NULL, 400, "limit"));
	free(path);
	path = itest_printf("%s?limit=ten", base);
	free(refused(e, "GET", path, NULL, 400, "limit"));
	free(path);
	path = itest_printf("%s?before=garbage", base);
	free(refused(e, "GET", path, NULL, 400, "before"));
	free(path);
	path = itest_printf("%s?after=2024-13-45", base);
	free(refused(e, "GET", path, NULL, 400, "after"));
	free(path);
	path = itest_printf("%s?limit=1&before=2099-01-01T00:00:00Z", base);
	cJSON_Delete(api_ok(e, "GET", path, NULL));
	free(path);
}

static void
assert_private(const char *path, int dir)
{
	struct stat	sb;

	if (stat(path, &sb) != 0)
		fail_msg("%s: %s", path, strerror(errno));
	if ((sb.st_mode & 0777) != (dir ? 0700 : 0600))
		fail_msg("%s has mode %o", path, sb.st_mode & 0777);
}

/* --data a/b makes a and b, private. */
static void
test_data_parents(void **state)
{
	struct edgemu	 e;
	char		*tmpl, *dir, *p;

	(void)state;
	assert_non_null(tmpl = testdir_new("edgemu"));
	dir = itest_printf("%s/a/b", tmpl);
	edgemu_start(&e, dir, 0, NULL);
	edgemu_finish(&e);
	p = itest_printf("%s/a", tmpl);
	assert_private(p, 1);
	free(p);
	assert_private(dir, 1);
	assert_int_equal(testdir_remove(tmpl), 0);
	free(tmpl);
	free(dir);
}

/* What edgemu stores is the user's only: the database, its WAL, uploads. */
static void
test_store_private(void **state)
{
	struct edgemu	*e = *state;
	static const char *const files[] = {
		"edgemu.db", "edgemu.db-wal", "edgemu.db-shm"
	};
	char		*loc, *p;
	size_t		 i;

	loc = tus_create(e, 10);
	for (i = 0; i < nitems(files); i++) {
		p = itest_printf("%s/%s", e->dir, files[i]);
		assert_private(p, 0);
		free(p);
	}
	p = itest_printf("%s/videos/%s", e->dir, ACCOUNT);
	assert_private(p, 1);
	free(p);
	p = itest_printf("%s/videos/%s/%.32s", e->dir, ACCOUNT,
	    strrchr(loc, '/') + 1);
	assert_private(p, 0);
	free(p);
	free(loc);
}

/* ---- item: webhooks ------------------------------------------------------- */

static void
test_webhook_hosts(void **state)
{
	struct edgemu	*e = *state;
	static const char *const bad[] = {
		"http://169.254.169.254/latest/meta-data/",
		"http://2852039166/x",
		"http://169.254.169.254./x",
		"http://[fe80::1]/x",
		"http://[fd00:ec2::254]/x",
		"http://[::ffff:169.254.169.254]/x",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://METADATA.google.internal./x",
	};
	const char	*path = "/accounts/" ACCOUNT "/stream/webhook";
	char		*body;
	size_t		 i;

	for (i = 0; i < nitems(bad); i++) {
		body = itest_printf("{\"notificationUrl\":\"%s\"}", bad[i]);
		free(refused(e, "PUT", path, body, 400, "notificationUrl: "
		    "the host"));
		free(body);
	}
	cJSON_Delete(api_ok(e, "PUT", path,
	    "{\"notificationUrl\":\"http://127.0.0.1:9/hook\"}"));
}

/* The demo webhook leads nowhere off this host. */
static void
test_demo_webhook_local(void **state)
{
	struct edgemu	*e = *state;
	cJSON		*res;
	const cJSON	*url;
	char		*path;

	path = itest_printf("/accounts/%s/stream/webhook", e->account);
	res = api_ok(e, "GET", path, NULL);
	url = cJSON_GetObjectItem(res, "notificationUrl");
	assert_true(cJSON_IsString(url));
	if (strstr(url->valuestring, "://127.0.0.1:") == NULL)
		fail_msg("the demo webhook is %s", url->valuestring);
	cJSON_Delete(res);
	free(path);
}

/* ---- item: kill -9 during a bulk create ---------------------------------- */

static void
assert_integrity(const struct edgemu *e)
{
	char		*path = itest_printf("%s/edgemu.db", e->dir);
	sqlite3		*db;
	sqlite3_stmt	*st;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
}

#define BULK_N		1500
#define BULK_ROUNDS	6

static void
test_kill_bulk_create(void **state)
{
	struct edgemu	*e = *state;
	struct timespec	 ts;
	char		*body = malloc(BULK_N * 96 + 16), *p, *head;
	long		 before, after;
	int		 round, i, fd;

	assert_non_null(body);
	for (round = 0; round < BULK_ROUNDS; round++) {
		before = count_ops(e, ZONE);
		p = body;
		p += sprintf(p, "[");
		for (i = 0; i < BULK_N; i++)
			p += sprintf(p, "%s{\"method\":\"GET\",\"host\":"
			    "\"k.example.com\",\"endpoint\":\"/r%d/%d\"}",
			    i == 0 ? "" : ",", round, i);
		p += sprintf(p, "]");
		head = itest_printf("POST /client/v4" OPS " HTTP/1.1\r\nHost: "
		    "127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: "
		    "application/json\r\nContent-Length: %zu\r\n\r\n",
		    e->token, strlen(body));
		fd = raw_connect(e);
		raw_send(fd, head, strlen(head));
		raw_send(fd, body, strlen(body));
		/* A different moment each round: before, during, after. */
		ts.tv_sec = 0;
		ts.tv_nsec = (long)round * 8 * 1000 * 1000;
		nanosleep(&ts, NULL);
		edgemu_kill(e, SIGKILL);
		close(fd);
		free(head);
		assert_integrity(e);
		edgemu_restart(e);
		after = count_ops(e, ZONE);
		if (after != before && after != before + BULK_N)
			fail_msg("round %d: %ld operations became %ld: part of "
			    "a batch of %d", round, before, after, BULK_N);
	}
	free(body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_idle_over_limit,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_busy_over_limit,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_dropped_patch,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_dropped_patch_throttled,
		    throttled_fixture, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_concurrent_patches,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_many_query_params,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_json_nul_and_duplicates,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_path_nul,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_upper_case_ids,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_json_raw_control,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_bulk_id_twice,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_body_framing,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_query_repeats,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_stream_list_params,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test(test_data_parents),
		cmocka_unit_test_setup_teardown(test_store_private,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_webhook_hosts,
		    edgemu_fixture_plain, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_demo_webhook_local,
		    edgemu_fixture_demo, edgemu_fixture_stop),
		cmocka_unit_test_setup_teardown(test_kill_bulk_create,
		    edgemu_fixture_plain, edgemu_fixture_stop),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
