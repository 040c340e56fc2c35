/*
 * The request log: a ring of the last requests (entry, curl command and
 * body, shared by the clients given log_with) behind the console's request
 * log and its c and Enter; the log lines and -v output of each attempt;
 * and the redaction all of them go through, so no token is ever shown.
 */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "api.h"
#include "buf.h"
#include "http.h"
#include "http_internal.h"
#include "http_log.h"
#include "log.h"
#include "redact.h"
#include "xmalloc.h"

/* ---- text -------------------------------------------------------------- */

/*
 * Whether the token's occurrence at hit (n bytes) in text is one to hide.
 * One that stands as a word of its own, next to no letter, digit, '-' or
 * '_' (what tokens are made of), always is. A long token is hidden inside
 * a word too: glued to other text it is still the secret. A token shorter
 * than HTTP_REDACT_INWORD inside a word is a coincidence (a one-letter
 * token in "entrypoint"), and hiding it there would only garble the
 * message, not keep a secret that short.
 */
#define HTTP_REDACT_INWORD	8

static int
http_redact_word_char(char c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_');
}

static int
http_redact_here(const char *text, const char *hit, size_t n)
{
	if (n >= HTTP_REDACT_INWORD)
		return (1);
	return ((hit == text || !http_redact_word_char(hit[-1])) &&
	    !http_redact_word_char(hit[n]));
}

char *
http_redact(const struct http_client *c, const char *text)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p, *from, *hit;
	size_t		 n;

	if (text == NULL)
		return (xstrdup(""));
	if (c == NULL || c->token == NULL || *c->token == '\0')
		return (xstrdup(text));
	n = strlen(c->token);
	for (p = from = text; (hit = strstr(from, c->token)) != NULL;) {
		if (!http_redact_here(text, hit, n)) {
			from = hit + 1;
			continue;
		}
		buf_add(&b, p, (size_t)(hit - p));
		buf_adds(&b, HTTP_REDACTED);
		p = from = hit + n;
	}
	buf_adds(&b, p);
	return (buf_detach(&b, NULL));
}

/*
 * Server text made safe to show: the token redacted, C0 and C1 controls
 * (escape sequences among them) and DEL as '?'.
 */
char *
http_log_clean(const struct http_client *c, const char *text)
{
	char		*s = http_redact(c, text), *out = s;
	unsigned char	*p = (unsigned char *)s;

	while (*p != '\0') {
		if (*p < 0x20 || *p == 0x7f)
			*out++ = '?', p++;
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			*out++ = '?', p += 2;
		else
			*out++ = (char)*p++;
	}
	*out = '\0';
	return (s);
}

static void	http_log_line(enum log_level, const char *, ...)
		    printflike(2, 3);

static void
http_log_line(enum log_level level, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}

/* A log line with the token redacted. */
void
http_logf(const struct http_client *c, enum log_level level,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*line, *clean;

	if (level > log_get_level())
		return;
	va_start(ap, fmt);
	xvasprintf(&line, fmt, ap);
	va_end(ap);
	clean = http_log_clean(c, line);
	free(line);
	http_log_line(level, "%s", clean);
	free(clean);
}

/* ---- the request-log ring ---------------------------------------------- */

static void
http_ring_slot_clear(struct http_ring *ring, struct http_ring_slot *slot)
{
	if (slot->curl != NULL)
		ring->bytes -= strlen(slot->curl);
	if (slot->body != NULL)
		ring->bytes -= strlen(slot->body);
	free(slot->curl);
	free(slot->body);
	slot->curl = slot->body = NULL;
}

void
http_log_release(struct http_ring *ring)
{
	size_t	i;
	int	last;

	pthread_mutex_lock(&ring->lock);
	last = --ring->refs == 0;
	pthread_mutex_unlock(&ring->lock);
	if (!last)
		return;
	for (i = 0; i < ring->size; i++)
		http_ring_slot_clear(ring, &ring->slots[i]);
	pthread_mutex_destroy(&ring->lock);
	free(ring->slots);
	free(ring);
}

/* The call as a curl command (without secrets: http_curl_command). */
static char *
http_ring_curl(const struct http_client *c, const struct http_call *call)
{
	struct http_request	req;

	memset(&req, 0, sizeof req);
	req.method = call->method;
	req.path = call->path;
	req.headers = (const char *const *)call->headers;
	req.noauth = call->url != NULL && !call->send_token;
	req.json = call->json;
	req.json_len = call->json_len;
	req.parts = call->parts;
	req.nparts = call->nparts;
	req.read = call->read;
	req.content_type = call->content_type;
	return (http_curl_command(c, &req));
}

/* Drop the oldest bodies until the ring holds at most its byte cap. */
static void
http_ring_trim(struct http_ring *ring)
{
	struct http_ring_slot	*slot;
	size_t			 i, first;

	first = (ring->next + ring->size - ring->count) % ring->size;
	for (i = 0; i < ring->count && ring->bytes > HTTP_LOG_BYTES_MAX;
	    i++) {
		slot = &ring->slots[(first + i) % ring->size];
		if (slot->body == NULL)
			continue;
		ring->bytes -= strlen(slot->body);
		free(slot->body);
		slot->body = xstrdup("[dropped: the log keeps the newest "
		    "bodies only]");
		ring->bytes += strlen(slot->body);
	}
}

void
http_log_add(struct http_client *c, const struct http_call *call,
    long http_status, enum status st, long latency_ms)
{
	struct http_ring	*ring = c->ring;
	struct http_ring_slot	*slot;
	struct http_log_entry	*e;
	char			*path, *curl = NULL, *body = NULL, *clean;

	path = http_redact(c, call->path);
	if (ring->entries_only)
		goto add;
	curl = http_ring_curl(c, call);
	if (strlen(curl) > HTTP_LOG_BODY_MAX) {
		/* A bulk body: the log keeps its start, as for answers. */
		clean = redact_body(curl, strlen(curl), HTTP_LOG_BODY_MAX, 0);
		free(curl);
		curl = clean;
	}
	clean = redact_body(call->in.data, call->in.len, HTTP_LOG_BODY_MAX, 0);
	/* Never the token, even where a server echoes it. */
	body = http_redact(c, clean);
	free(clean);
add:
	pthread_mutex_lock(&ring->lock);
	slot = &ring->slots[ring->next];
	http_ring_slot_clear(ring, slot);
	e = &slot->e;
	memset(e, 0, sizeof *e);
	e->seq = ++ring->total;
	e->time = http_wall(c);
	snprintf(e->method, sizeof e->method, "%s", call->method);
	snprintf(e->path, sizeof e->path, "%s", path);
	e->http_status = http_status;
	e->status = st;
	e->latency_ms = latency_ms;
	e->attempt = call->attempt;
	e->budget_left = call->budget_left;
	slot->curl = curl;
	slot->body = body;
	if (curl != NULL)
		ring->bytes += strlen(curl) + strlen(body);
	ring->next = (ring->next + 1) % ring->size;
	if (ring->count < ring->size)
		ring->count++;
	http_ring_trim(ring);
	pthread_mutex_unlock(&ring->lock);
	free(path);
}

size_t
http_log_snapshot(struct http_client *c, struct http_log_entry *out,
    size_t max, unsigned long *total)
{
	struct http_ring	*ring = c->ring;
	size_t			 n, first, i;

	pthread_mutex_lock(&ring->lock);
	n = MINIMUM(max, ring->count);
	/* The newest n, oldest first. */
	first = (ring->next + ring->size - n) % ring->size;
	for (i = 0; i < n; i++)
		out[i] = ring->slots[(first + i) % ring->size].e;
	if (total != NULL)
		*total = ring->total;
	pthread_mutex_unlock(&ring->lock);
	return (n);
}

int
http_log_detail(struct http_client *c, unsigned long seq, char **curl,
    char **body)
{
	struct http_ring	*ring = c->ring;
	struct http_ring_slot	*slot;
	size_t			 i;
	int			 rc = -1;

	*curl = *body = NULL;
	pthread_mutex_lock(&ring->lock);
	for (i = 0; i < ring->count; i++) {
		slot = &ring->slots[(ring->next + ring->size - 1 - i) %
		    ring->size];
		if (slot->e.seq != seq)
			continue;
		*curl = xstrdup(slot->curl != NULL ? slot->curl : "");
		*body = xstrdup(slot->body != NULL ? slot->body : "");
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&ring->lock);
	return (rc);
}

/* ---- -v and the log lines of an attempt ----------------------------- */

void
http_log_attempt(struct http_call *call, const struct http_outcome *o)
{
	struct http_client	*c = call->c;
	const struct curl_slist	*l;
	char			*body;

	if (log_get_level() >= LOG_LEVEL_DEBUG) {
		for (l = call->hlist; l != NULL; l = l->next) {
			http_logf(c, LOG_LEVEL_DEBUG, "%s %s: > %s",
			    call->method, call->path, l->data);
		}
	}
	if (o->rc == CURLE_OK) {
		http_logf(c, LOG_LEVEL_INFO, "%s %s: %ld in %ld ms (attempt "
		    "%d, budget %ld left)", call->method, call->path, o->code,
		    o->latency_ms, call->attempt, call->budget_left);
	} else {
		http_logf(c, LOG_LEVEL_INFO, "%s %s: failed: %s in %ld ms "
		    "(attempt %d, budget %ld left)", call->method, call->path,
		    call->too_big ? "response too large" :
		    curl_easy_strerror(o->rc), o->latency_ms, call->attempt,
		    call->budget_left);
	}
	if (o->text != NULL) {
		http_logf(c, LOG_LEVEL_DEBUG, "%s %s: %s", call->method,
		    call->path, o->text);
	}
	if (log_get_level() >= LOG_LEVEL_DEBUG && call->in.len > 0) {
		body = redact_body(call->in.data, call->in.len,
		    HTTP_VERBOSE_BODY_MAX, REDACT_LINE);
		http_logf(c, LOG_LEVEL_DEBUG, "%s %s: < %s", call->method,
		    call->path, body);
		free(body);
	}
}

/* ---- rendering ---------------------------------------------------------- */

/* s in single quotes for sh; the token becomes "$CLOUDFLARE_API_TOKEN". */
static void
http_sh_quote(struct buf *b, const struct http_client *c, const char *s)
{
	size_t	n = c != NULL && c->token != NULL ? strlen(c->token) : 0;

	buf_addc(b, '\'');
	while (*s != '\0') {
		if (n != 0 && strncmp(s, c->token, n) == 0) {
			buf_adds(b, "'\"$" HTTP_TOKEN_ENV "\"'");
			s += n;
		} else if (*s == '\'') {
			buf_adds(b, "'\\''");
			s++;
		} else
			buf_addc(b, *s++);
	}
	buf_addc(b, '\'');
}

static void
http_render_part(struct buf *b, const struct http_client *c,
    const struct http_part *p)
{
	struct buf	v = BUF_INITIALIZER;

	if (p->value != NULL) {
		buf_addf(&v, "%s=%s", p->name, p->value);
		buf_adds(b, " --form-string ");
	} else {
		buf_addf(&v, "%s=@\"%s\"", p->name, p->file);
		if (p->filename != NULL)
			buf_addf(&v, ";filename=\"%s\"", p->filename);
		if (p->type != NULL)
			buf_addf(&v, ";type=%s", p->type);
		buf_adds(b, " -F ");
	}
	http_sh_quote(b, c, buf_str(&v));
	buf_free(&v);
}

/* A JSON body without its secrets, on one line; other text as it is. */
static char *
http_redact_json(const char *json, size_t len)
{
	cJSON	*j;
	char	*text, *out;

	if ((j = cJSON_ParseWithLength(json, len)) == NULL)
		return (xstrndup(json, len));
	redact_json(j, NULL);
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	if (text == NULL)
		fatalx("http: out of memory");
	out = xstrdup(text);
	cJSON_free(text);
	return (out);
}

char *
http_curl_command(const struct http_client *c, const struct http_request *req)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*method = req->method != NULL ? req->method : "GET";
	const char	*path = req->path != NULL ? req->path : "";
	char		*url, *origin = NULL;
	int		 auth;
	size_t		 i;

	buf_adds(&b, "curl -sS");
	if (strcmp(method, "HEAD") == 0)
		buf_adds(&b, " -I");
	else if (strcmp(method, "GET") != 0)
		buf_addf(&b, " -X %s", method);
	if (http_is_absolute(path)) {
		url = xstrdup(path);
		origin = http_origin(path);
		auth = origin != NULL && strcmp(origin, c->origin) == 0;
		free(origin);
	} else {
		url = xprintf("%s%s", c->base_url, path);
		auth = 1;
	}
	buf_addc(&b, ' ');
	http_sh_quote(&b, c, url);
	free(url);
	if (auth && !req->noauth && c->token != NULL)
		buf_adds(&b, " -H \"Authorization: Bearer $" HTTP_TOKEN_ENV
		    "\"");
	for (i = 0; req->headers != NULL && req->headers[i] != NULL; i++) {
		buf_adds(&b, " -H ");
		http_sh_quote(&b, c, req->headers[i]);
	}
	if (req->json != NULL) {
		buf_adds(&b, " -H 'Content-Type: application/json'");
		buf_adds(&b, " --data-raw ");
		url = http_redact_json(req->json, req->json_len != 0 ?
		    req->json_len : strlen(req->json));
		http_sh_quote(&b, c, url);
		free(url);
	} else if (req->nparts > 0) {
		for (i = 0; i < req->nparts; i++)
			http_render_part(&b, c, &req->parts[i]);
	} else if (req->read != NULL) {
		buf_adds(&b, " -H ");
		url = xprintf("Content-Type: %s", req->content_type != NULL ?
		    req->content_type : "application/octet-stream");
		http_sh_quote(&b, c, url);
		free(url);
		buf_adds(&b, " -T -");
	}
	return (buf_detach(&b, NULL));
}
