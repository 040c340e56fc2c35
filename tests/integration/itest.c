/*
 * Integration test support: start edgemu on a free port with its own data
 * directory, talk to it over HTTP with libcurl, stop or kill it.
 */
#include "config.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <ctype.h>

#include <curl/curl.h>

#include "itest.h"
#include "testdir.h"

#define ITEST_MAX_ARGS 16

char *
itest_printf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return (s);
}

static const char *
edgemu_path(void)
{
	const char	*p = getenv("EDGEMU");

	return (p != NULL && *p != '\0' ? p : "emulator/edgemu");
}

/* Read "KEY=value" lines from fd until every wanted key has arrived. */
static void
edgemu_read_ready(struct edgemu *e, int fd)
{
	char	 buf[4096], *line, *nl;
	size_t	 have = 0;
	ssize_t	 r;
	int	 want = e->demo ? 4 : 2, got = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (got < want) {
		/* A generous bound so a broken build fails instead of hanging. */
		if (poll(&pfd, 1, 60000) <= 0)
			fail_msg("edgemu did not print its start-up lines");
		r = read(fd, buf + have, sizeof buf - have - 1);
		if (r <= 0)
			fail_msg("edgemu exited before it was ready");
		have += (size_t)r;
		buf[have] = '\0';
		while ((nl = strchr(buf, '\n')) != NULL) {
			*nl = '\0';
			line = buf;
			if (strncmp(line, "EDGEMU_URL=", 11) == 0)
				e->url = strdup(line + 11), got++;
			else if (strncmp(line, "EDGEMU_TOKEN=", 13) == 0)
				e->token = strdup(line + 13), got++;
			else if (strncmp(line, "EDGEMU_ACCOUNT=", 15) == 0)
				e->account = strdup(line + 15), got++;
			else if (strncmp(line, "EDGEMU_ZONE=", 12) == 0)
				e->zone = strdup(line + 12), got++;
			have -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, have + 1);
		}
	}
}

/*
 * EDGEMU_WRAPPER (e.g. "valgrind --leak-check=full --error-exitcode=99")
 * runs edgemu under another program; its words go first in argv.
 */
static int
itest_wrapper(char **argv)
{
	static char	*copy, *words[8];
	static int	 nwords = -1;
	char		*w;
	int		 i;

	if (nwords < 0) {
		nwords = 0;
		w = getenv("EDGEMU_WRAPPER");
		copy = strdup(w != NULL ? w : "");
		for (w = strtok(copy, " "); w != NULL && nwords < 8;
		    w = strtok(NULL, " "))
			words[nwords++] = w;
	}
	for (i = 0; i < nwords; i++)
		argv[i] = words[i];
	return (nwords);
}

static void
edgemu_spawn(struct edgemu *e)
{
	char	*argv[ITEST_MAX_ARGS + 20];
	char	*tokenenv = NULL;
	int	 pfd[2], argc = 0;
	pid_t	 parent;
	size_t	 i;

	free(e->url);
	free(e->token);
	free(e->account);
	free(e->zone);
	e->url = e->token = e->account = e->zone = NULL;
	if (pipe(pfd) != 0)
		fail_msg("pipe: %s", strerror(errno));
	argc = itest_wrapper(argv);
	argv[argc++] = (char *)edgemu_path();
	argv[argc++] = (char *)"--listen";
	argv[argc++] = (char *)"127.0.0.1:0";
	argv[argc++] = (char *)"--data";
	argv[argc++] = e->dir;
	if (e->demo)
		argv[argc++] = (char *)"--demo-data";
	for (i = 0; i < e->nextra; i++)
		argv[argc++] = e->extra[i];
	argv[argc] = NULL;
	/* The token goes through the environment, never the arguments. */
	tokenenv = "EDGEMU_TOKEN=itest-token-0123456789";
	parent = getpid();
	e->pid = fork();
	if (e->pid == -1)
		fail_msg("fork: %s", strerror(errno));
	if (e->pid == 0) {
		/*
		 * A test that fails between start and finish skips its
		 * finish: edgemu then ends with the test program, not later
		 * holding its directory and port. (The parent may have gone
		 * before prctl took effect.)
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 ||
		    getppid() != parent)
			_exit(127);
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		putenv(tokenenv);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	edgemu_read_ready(e, pfd[0]);
	close(pfd[0]);
}

void
edgemu_start(struct edgemu *e, const char *dir, int demo, ...)
{
	va_list		 ap;
	const char	*a;
	static int	 curl_ready;

	if (!curl_ready) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		curl_ready = 1;
	}
	memset(e, 0, sizeof *e);
	e->demo = demo;
	if (dir == NULL) {
		if ((e->dir = testdir_new("edgemu")) == NULL)
			fail_msg("cannot make a directory: %s",
			    strerror(errno));
		e->own_dir = 1;
	} else
		e->dir = strdup(dir);
	va_start(ap, demo);
	while ((a = va_arg(ap, const char *)) != NULL &&
	    e->nextra < ITEST_MAX_ARGS)
		e->extra[e->nextra++] = strdup(a);
	va_end(ap);
	edgemu_spawn(e);
}

void
edgemu_restart(struct edgemu *e)
{
	if (e->pid > 0)
		edgemu_kill(e, SIGTERM);
	edgemu_spawn(e);
}

void
edgemu_kill(struct edgemu *e, int sig)
{
	int	status;

	if (e->pid <= 0)
		return;
	kill(e->pid, sig);
	while (waitpid(e->pid, &status, 0) == -1 && errno == EINTR)
		;
	if (sig == SIGTERM && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		fail_msg("edgemu did not exit cleanly on SIGTERM (status %d)",
		    status);
	e->pid = 0;
}

void
edgemu_finish(struct edgemu *e)
{
	edgemu_kill(e, SIGTERM);
	if (e->own_dir && testdir_remove(e->dir) != 0)
		fprintf(stderr, "could not remove %s\n", e->dir);
	free(e->dir);
	free(e->url);
	free(e->token);
	free(e->account);
	free(e->zone);
	while (e->nextra > 0)
		free(e->extra[--e->nextra]);
	memset(e, 0, sizeof *e);
}

/* fast: videos are processed in 1 s, not edgemu's default. */
static int
edgemu_fixture(void **state, int demo, int fast)
{
	struct edgemu	*e = calloc(1, sizeof *e);

	if (e == NULL)
		abort();
	if (fast)
		edgemu_start(e, NULL, demo, "--processing-seconds", "1", NULL);
	else
		edgemu_start(e, NULL, demo, NULL);
	*state = e;
	return (0);
}

int
edgemu_fixture_plain(void **state)
{
	return (edgemu_fixture(state, 0, 0));
}

int
edgemu_fixture_demo(void **state)
{
	return (edgemu_fixture(state, 1, 0));
}

int
edgemu_fixture_fast_plain(void **state)
{
	return (edgemu_fixture(state, 0, 1));
}

int
edgemu_fixture_fast_demo(void **state)
{
	return (edgemu_fixture(state, 1, 1));
}

int
edgemu_fixture_stop(void **state)
{
	struct edgemu	*e = *state;

	edgemu_finish(e);
	free(e);
	return (0);
}

struct growbuf {
	char	*p;
	size_t	 len;
};

static size_t
itest_collect(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct growbuf	*g = arg;
	size_t		 n = size * nmemb;

	g->p = realloc(g->p, g->len + n + 1);
	if (g->p == NULL)
		abort();
	memcpy(g->p + g->len, ptr, n);
	g->len += n;
	g->p[g->len] = '\0';
	return (n);
}

/* Header names lower-cased, as http_header() expects. */
static void
itest_lower_names(char *h)
{
	size_t	i;

	for (i = 0; h[i] != '\0'; i++) {
		if (i != 0 && h[i - 1] != '\n')
			continue;
		for (; h[i] != ':' && h[i] != '\0' && h[i] != '\n'; i++)
			h[i] = (char)tolower((unsigned char)h[i]);
		if (h[i] == '\0')
			break;
	}
}

CURLcode
http_send(struct edgemu *e, const struct http_req *t, struct http_resp *r)
{
	CURL			*c;
	struct curl_slist	*h = NULL;
	struct growbuf		 b = { NULL, 0 }, hb = { NULL, 0 };
	curl_mime		*mime = NULL;
	curl_mimepart		*part;
	char			*url, *line;
	CURLcode		 rc;
	size_t			 i;

	memset(r, 0, sizeof *r);
	c = curl_easy_init();
	url = t->url[0] == '/' ? itest_printf("%s%s", e->url, t->url) :
	    strdup(t->url);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, t->method);
	if (strcmp(t->method, "HEAD") == 0)
		curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	if (!t->noauth) {
		line = itest_printf("Authorization: Bearer %s",
		    t->auth != NULL ? t->auth : e->token);
		h = curl_slist_append(h, line);
		free(line);
	}
	for (i = 0; i < sizeof t->headers / sizeof t->headers[0] &&
	    t->headers[i] != NULL; i++)
		h = curl_slist_append(h, t->headers[i]);
	h = curl_slist_append(h, "Expect:");
	if (t->body != NULL) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, t->body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)t->len);
	} else if (t->read != NULL) {
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READFUNCTION, t->read);
		curl_easy_setopt(c, CURLOPT_READDATA, t->read_arg);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, t->read_len);
	} else if (t->file != NULL || t->field != NULL) {
		mime = curl_mime_init(c);
		if (t->field != NULL) {
			part = curl_mime_addpart(mime);
			curl_mime_name(part, t->field_name != NULL ?
			    t->field_name : "note");
			curl_mime_data(part, t->field, CURL_ZERO_TERMINATED);
		}
		if (t->file != NULL) {
			part = curl_mime_addpart(mime);
			curl_mime_name(part, t->file_field != NULL ?
			    t->file_field : "file");
			curl_mime_filename(part, "clip.mp4");
			curl_mime_type(part, "video/mp4");
			curl_mime_data(part, t->file, t->file_len);
		}
		curl_easy_setopt(c, CURLOPT_MIMEPOST, mime);
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, itest_collect);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, itest_collect);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &hb);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	if (rc != CURLE_OK && !t->may_fail && r->status == 0)
		fail_msg("%s %s: %s", t->method, t->url,
		    curl_easy_strerror(rc));
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	curl_mime_free(mime);
	free(url);
	r->body = b.p != NULL ? b.p : strdup("");
	r->len = b.len;
	r->headers = hb.p != NULL ? hb.p : strdup("");
	itest_lower_names(r->headers);
	r->json = cJSON_ParseWithLength(r->body, r->len);
	return (rc);
}

void
http_request_with(struct edgemu *e, const char *method, const char *url,
    const char *const *headers, const void *body, size_t len,
    const char *auth, struct http_resp *r)
{
	struct http_req	t;
	size_t		i;

	memset(&t, 0, sizeof t);
	t.method = method;
	t.url = url;
	for (i = 0; headers != NULL && headers[i] != NULL &&
	    i < sizeof t.headers / sizeof t.headers[0] - 1; i++)
		t.headers[i] = headers[i];
	t.body = body;
	t.len = len;
	if (auth != NULL && *auth == '\0')
		t.noauth = 1;
	else
		t.auth = auth;
	http_send(e, &t, r);
}

void
http_request(struct edgemu *e, const char *method, const char *path,
    const char *content_type, const void *body, size_t len, const char *auth,
    struct http_resp *r)
{
	char		*ct = NULL;
	const char	*headers[2] = { NULL, NULL };

	if (content_type != NULL) {
		ct = itest_printf("Content-Type: %s", content_type);
		headers[0] = ct;
	}
	http_request_with(e, method, path, headers, body, len, auth, r);
	free(ct);
}

void
http_resp_free(struct http_resp *r)
{
	free(r->body);
	free(r->headers);
	cJSON_Delete(r->json);
	memset(r, 0, sizeof *r);
}

/* The value of a response header (static buffer), or NULL. */
const char *
http_header(const struct http_resp *r, const char *name)
{
	static char	 val[4096];
	char		*want = itest_printf("\n%s:", name), *p;
	size_t		 i, n;

	for (i = 1; want[i] != '\0'; i++)
		want[i] = (char)tolower((unsigned char)want[i]);
	p = strstr(r->headers, want);
	if (p == NULL && strncmp(r->headers, want + 1, strlen(want + 1)) == 0)
		p = r->headers - 1;
	if (p == NULL) {
		free(want);
		return (NULL);
	}
	p += strlen(want);
	free(want);
	while (*p == ' ')
		p++;
	n = strcspn(p, "\r\n");
	if (n >= sizeof val)
		n = sizeof val - 1;
	memcpy(val, p, n);
	val[n] = '\0';
	return (val);
}

void
http_json(struct edgemu *e, const char *method, const char *path,
    const char *body, struct http_resp *r)
{
	http_request(e, method, path, body != NULL ? "application/json" : NULL,
	    body, body != NULL ? strlen(body) : 0, NULL, r);
}

void
assert_envelope(const struct http_resp *r)
{
	const cJSON	*ok, *errors, *messages;

	if (r->json == NULL)
		fail_msg("not JSON (status %ld): %.200s", r->status, r->body);
	ok = cJSON_GetObjectItemCaseSensitive(r->json, "success");
	errors = cJSON_GetObjectItemCaseSensitive(r->json, "errors");
	messages = cJSON_GetObjectItemCaseSensitive(r->json, "messages");
	assert_true(cJSON_IsBool(ok));
	assert_true(cJSON_IsArray(errors));
	assert_true(cJSON_IsArray(messages));
	assert_non_null(cJSON_GetObjectItemCaseSensitive(r->json, "result"));
	if (cJSON_IsTrue(ok)) {
		assert_true(r->status >= 200 && r->status < 300);
		assert_int_equal(cJSON_GetArraySize(errors), 0);
	} else {
		assert_true(r->status >= 400);
		assert_true(cJSON_GetArraySize(errors) >= 1);
		assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetArrayItem(errors, 0), "code")));
		assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetArrayItem(errors, 0), "message")));
	}
}

cJSON *
api_ok(struct edgemu *e, const char *method, const char *path,
    const char *body)
{
	struct http_resp	 r;
	cJSON			*result;

	http_json(e, method, path, body, &r);
	if (r.status < 200 || r.status > 299)
		fail_msg("%s %s: status %ld: %.300s", method, path, r.status,
		    r.body);
	assert_envelope(&r);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r.json,
	    "success")));
	result = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(r.json,
	    "result"), 1);
	http_resp_free(&r);
	return (result);
}

char *
api_fail(struct edgemu *e, const char *method, const char *path,
    const char *body, long status)
{
	struct http_resp	 r;
	char			*msg;

	http_json(e, method, path, body, &r);
	if (r.status != status)
		fail_msg("%s %s: expected status %ld, got %ld: %.300s", method,
		    path, status, r.status, r.body);
	assert_envelope(&r);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r.json,
	    "success")));
	msg = strdup(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(r.json, "errors"), 0),
	    "message")->valuestring);
	http_resp_free(&r);
	return (msg);
}
