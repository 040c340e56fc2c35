/*
 * edgemu's HTTP side on libmicrohttpd: a thread pool answers requests; each
 * request is matched against the routing table, authenticated, its body
 * read within the cap of its kind, and answered in the API envelope, errors
 * included.
 */
#include "config.h"

#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "apirules.h"
#include "log.h"
#include "multipart.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

struct server {
	struct MHD_Daemon	 *daemon;
	struct store		 *store;
	struct server_options	  opts;
	const struct route	**routes;	/* below API_PREFIX */
	size_t			  nroutes;
	const struct route	**root_routes;	/* ROUTE_ROOT */
	size_t			  nroot_routes;
	char			  base_url[128];
	int			  port;
	size_t			  nstarted;
	unsigned int		  nconns;	/* open connections (atomic) */
};

/*
 * Connection timeouts, in seconds: inactivity in the middle of a request,
 * then between requests (a new or kept-alive connection), and between
 * requests once half the connection slots are taken, so idle sockets give
 * their slots back quickly to the clients waiting for one.
 */
#define SERVER_REQUEST_TIMEOUT	120
#define SERVER_IDLE_TIMEOUT	30
#define SERVER_BUSY_TIMEOUT	2

/* How much of a refused body is read and dropped before hanging up. */
#define SERVER_DISCARD_MAX	((size_t)256 * 1024 * 1024)

struct reqctx {
	struct req		 req;
	struct reply		 reply;
	char			*uri;
	const struct route	*route;
	int			 started;
	int			 decided;	/* the reply is final */
	int			 stream_open;
	int			 responded;
	int			 framing_bad;	/* answered, then closed */
	size_t			 cap;
	size_t			 received;	/* body bytes, for the cap */
	size_t			 discarded;
	struct multipart_stream	*form;		/* ROUTE_BODY_MULTIPART */
	struct timespec		 t0;
	char			*offset_sent;	/* a tus Upload-Offset, for -v */
};

static const char *const http_method_names[] = {
	[HTTP_GET] = "GET",
	[HTTP_HEAD] = "HEAD",
	[HTTP_POST] = "POST",
	[HTTP_PUT] = "PUT",
	[HTTP_PATCH] = "PATCH",
	[HTTP_DELETE] = "DELETE",
	[HTTP_OPTIONS] = "OPTIONS",
	[HTTP_OTHER] = "OTHER"
};

const char *
http_method_name(enum http_method m)
{
	return (http_method_names[m]);
}

enum http_method
http_method_parse(const char *s)
{
	size_t	i;

	for (i = 0; i < HTTP_OTHER; i++) {
		if (strcmp(s, http_method_names[i]) == 0)
			return ((enum http_method)i);
	}
	return (HTTP_OTHER);
}

/* ---- replies ---------------------------------------------------------- */

void
reply_status(struct reply *r, unsigned int status, cJSON *result)
{
	r->status = status;
	if (r->result != NULL)
		cJSON_Delete(r->result);
	r->result = result;
}

void
reply_ok(struct reply *r, cJSON *result)
{
	reply_status(r, 200, result);
}

void
reply_page(struct reply *r, cJSON *array, long page, long per_page,
    long total_count)
{
	reply_status(r, 200, array);
	r->paged = 1;
	r->page = page;
	r->per_page = per_page;
	r->total_count = total_count;
}

static void
reply_verror(struct reply *r, int code, const char *fmt, va_list ap)
{
	cJSON	*e;
	char	*msg;

	xvasprintf(&msg, fmt, ap);
	if (r->errors == NULL)
		r->errors = cJSON_CreateArray();
	e = cJSON_CreateObject();
	cJSON_AddNumberToObject(e, "code", code);
	cJSON_AddStringToObject(e, "message", msg);
	cJSON_AddItemToArray(r->errors, e);
	free(msg);
}

void
reply_error(struct reply *r, unsigned int status, int code, const char *fmt,
    ...)
{
	va_list	ap;

	r->status = status;
	if (r->result != NULL) {
		cJSON_Delete(r->result);
		r->result = NULL;
	}
	va_start(ap, fmt);
	reply_verror(r, code, fmt, ap);
	va_end(ap);
}

void
reply_add_error(struct reply *r, int code, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	reply_verror(r, code, fmt, ap);
	va_end(ap);
}

void
reply_header(struct reply *r, const char *name, const char *value)
{
	r->headers = xreallocarray(r->headers, r->nheaders + 1,
	    sizeof *r->headers);
	r->headers[r->nheaders].name = xstrdup(name);
	r->headers[r->nheaders].value = xstrdup(value);
	r->nheaders++;
}

void
reply_raw(struct reply *r, unsigned int status, const char *body, size_t len,
    const char *content_type)
{
	r->status = status;
	r->raw = 1;
	free(r->raw_body);
	r->raw_body = NULL;
	r->raw_len = len;
	if (len != 0) {
		r->raw_body = xmalloc(len);
		memcpy(r->raw_body, body, len);
	}
	if (content_type != NULL)
		reply_header(r, "Content-Type", content_type);
}

/* The store failed: say so with its message and undo the transaction. */
void
reply_store_error(struct req *req, struct reply *r)
{
	reply_error(r, 500, ERR_INTERNAL, "store: %s", store_errmsg(req->store));
	store_rollback(req->store);
}

void
reply_free(struct reply *r)
{
	size_t	i;

	cJSON_Delete(r->result);
	cJSON_Delete(r->errors);
	cJSON_Delete(r->top);
	for (i = 0; i < r->nheaders; i++) {
		free(r->headers[i].name);
		free(r->headers[i].value);
	}
	free(r->headers);
	free(r->raw_body);
	if (r->response != NULL)
		MHD_destroy_response(r->response);
	memset(r, 0, sizeof *r);
}

/*
 * The envelope: result, success, errors, messages, result_info on paged
 * lists, then any extra top-level members (Stream's total and range).
 */
char *
reply_envelope(const struct reply *r, size_t *lenp)
{
	cJSON		*env, *info;
	const cJSON	*item;
	int		 ok;
	long		 count, pages;
	char		*s;

	ok = r->status < 400 && cJSON_GetArraySize(r->errors) == 0;
	env = cJSON_CreateObject();
	/* References, not copies: a list page is printed once, never copied. */
	if (r->result != NULL)
		cJSON_AddItemReferenceToObject(env, "result", r->result);
	else
		cJSON_AddNullToObject(env, "result");
	cJSON_AddBoolToObject(env, "success", ok);
	if (r->errors != NULL)
		cJSON_AddItemReferenceToObject(env, "errors", r->errors);
	else
		cJSON_AddArrayToObject(env, "errors");
	cJSON_AddItemToObject(env, "messages", cJSON_CreateArray());
	if (r->paged && ok) {
		count = cJSON_GetArraySize(r->result);
		pages = r->per_page > 0 ?
		    (r->total_count + r->per_page - 1) / r->per_page : 0;
		info = cJSON_AddObjectToObject(env, "result_info");
		cJSON_AddNumberToObject(info, "page", (double)r->page);
		cJSON_AddNumberToObject(info, "per_page", (double)r->per_page);
		cJSON_AddNumberToObject(info, "count", (double)count);
		cJSON_AddNumberToObject(info, "total_count",
		    (double)r->total_count);
		cJSON_AddNumberToObject(info, "total_pages", (double)pages);
	}
	cJSON_ArrayForEach(item, r->top) {
		cJSON_DeleteItemFromObjectCaseSensitive(env, item->string);
		cJSON_AddItemReferenceToObject(env, item->string,
		    (cJSON *)item);
	}
	s = util_jprint(env);
	cJSON_Delete(env);
	if (lenp != NULL)
		*lenp = strlen(s);
	return (s);
}

/* ---- routing ---------------------------------------------------------- */

void
req_clear_params(struct req *req)
{
	size_t	i;

	for (i = 0; i < req->nparams; i++)
		free(req->param[i]);
	req->nparams = 0;
}

const char *
req_param(const struct req *req, const char *name)
{
	size_t	i, n = strlen(name);

	for (i = 0; i < req->nparams; i++) {
		if (req->param_len[i] == n &&
		    strncmp(req->param_name[i], name, n) == 0)
			return (req->param[i]);
	}
	return (NULL);
}

const char *
req_header(const struct req *req, const char *name)
{
	if (req->conn == NULL)
		return (NULL);
	return (MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name));
}

struct req_header_walk {
	const char	 *name;
	const char	**out;
	size_t		  max;
	size_t		  n;
};

static enum MHD_Result
req_header_each(void *arg, enum MHD_ValueKind kind, const char *key,
    const char *value)
{
	struct req_header_walk	*w = arg;

	(void)kind;
	if (key == NULL || strcasecmp(key, w->name) != 0)
		return (MHD_YES);
	if (w->n < w->max)
		w->out[w->n] = value != NULL ? value : "";
	w->n++;
	return (MHD_YES);
}

/*
 * Every value of a header the request repeats, in order (up to max in
 * out); returns how many it sent. req_header gives only the first.
 */
size_t
req_header_values(const struct req *req, const char *name,
    const char **out, size_t max)
{
	struct req_header_walk	w = { name, out, max, 0 };

	if (req->conn != NULL)
		MHD_get_connection_values(req->conn, MHD_HEADER_KIND,
		    req_header_each, &w);
	return (w.n);
}

/* Does one pattern segment ({name:type} or literal) accept this one? */
static int
route_segment(const char *pat, size_t plen, const char *seg, size_t slen,
    int *literal, int *badparam)
{
	const char	*colon;
	char		 tmp[UUID_LEN + 1];

	*literal = 0;
	if (plen < 2 || pat[0] != '{' || pat[plen - 1] != '}') {
		*literal = 1;
		return (plen == slen && memcmp(pat, seg, slen) == 0);
	}
	if (slen == 0)
		return (0);
	colon = memchr(pat, ':', plen);
	if (colon == NULL)
		return (1);
	if (strncmp(colon, ":hex32}", 7) == 0) {
		if (slen != HEX32_LEN)
			goto bad;
		memcpy(tmp, seg, slen);
		tmp[slen] = '\0';
		if (!apirules_hex32_ok(tmp))
			goto bad;
	} else if (strncmp(colon, ":uuid}", 6) == 0) {
		if (slen != UUID_LEN)
			goto bad;
		memcpy(tmp, seg, slen);
		tmp[slen] = '\0';
		if (!apirules_uuid_ok(tmp))
			goto bad;
	}
	return (1);
bad:
	*badparam = 1;
	return (0);
}

/*
 * Match one pattern against a path. Returns the number of literal segments
 * matched (the route with the most wins, so /operations/item beats
 * /operations/{id}), or -1.
 */
static int
route_match_one(const char *pattern, const char *path, int *badparam,
    int *paramsonly)
{
	const char	*p = pattern, *s = path, *pe, *se;
	int		 literals = 0, literal, bad = 0, segbad;

	*paramsonly = 0;
	while (*p == '/' && *s == '/') {
		p++;
		s++;
		pe = strchrnul(p, '/');
		se = strchrnul(s, '/');
		segbad = 0;
		if (!route_segment(p, (size_t)(pe - p), s, (size_t)(se - s),
		    &literal, &segbad)) {
			if (!segbad)
				return (-1);
			/* Keep going: only a bad id if the rest fits. */
			bad = 1;
		}
		literals += literal;
		p = pe;
		s = se;
	}
	if (*p != '\0' || *s != '\0')
		return (-1);
	if (bad) {
		*badparam = 1;
		*paramsonly = 1;
		return (-1);
	}
	return (literals);
}

static void
route_capture(const struct route *rt, const char *path, struct req *req)
{
	const char	*p = rt->pattern, *s = path, *pe, *se, *colon;

	req_clear_params(req);
	while (*p == '/' && *s == '/') {
		p++;
		s++;
		pe = strchrnul(p, '/');
		se = strchrnul(s, '/');
		if (*p == '{' && req->nparams < ROUTE_MAX_PARAMS) {
			colon = memchr(p, ':', (size_t)(pe - p));
			req->param_name[req->nparams] = p + 1;
			req->param_len[req->nparams] = (size_t)((colon != NULL ?
			    colon : pe - 1) - (p + 1));
			req->param[req->nparams] = xstrndup(s, (size_t)(se - s));
			/* Hex ids are one namespace whatever the case sent. */
			if (colon != NULL && (strncmp(colon, ":hex32}", 7) == 0 ||
			    strncmp(colon, ":uuid}", 6) == 0))
				util_lower(req->param[req->nparams]);
			req->nparams++;
		}
		p = pe;
		s = se;
	}
}

enum route_match
route_lookup(const struct route *const *routes, size_t nroutes,
    enum http_method method, const char *path, const struct route **found,
    struct req *req)
{
	const struct route	*best = NULL;
	size_t			 i;
	int			 score, best_score = -1, path_known = 0;
	int			 badparam = 0, paramsonly;

	*found = NULL;
	for (i = 0; i < nroutes; i++) {
		score = route_match_one(routes[i]->pattern, path, &badparam,
		    &paramsonly);
		if (score < 0)
			continue;
		path_known = 1;
		if (routes[i]->method != method &&
		    !(method == HTTP_HEAD && routes[i]->method == HTTP_GET))
			continue;
		/* A route for requests with a header beats one without. */
		if (routes[i]->header != NULL) {
			if (req == NULL ||
			    req_header(req, routes[i]->header) == NULL)
				continue;
			score += 500;
		}
		/* An exact method beats GET standing in for HEAD. */
		if (routes[i]->method == method)
			score += 1000;
		if (score > best_score) {
			best = routes[i];
			best_score = score;
		}
	}
	if (best != NULL) {
		*found = best;
		if (req != NULL)
			route_capture(best, path, req);
		return (ROUTE_FOUND);
	}
	if (path_known)
		return (ROUTE_BAD_METHOD);
	if (badparam)
		return (ROUTE_BAD_PARAM);
	return (ROUTE_NO_PATH);
}

/* ---- the request cycle ------------------------------------------------ */

/*
 * edgemu parses the query string itself (query.c: its own bound on the
 * number of parameters, messages that name them). libmicrohttpd would also
 * copy every parameter into the connection's memory pool, and with a few
 * thousand of them it runs out and hangs up without an answer; ending the
 * string after the '?' leaves it nothing to copy. The buffer is the
 * connection's own read buffer, writable; rc->uri keeps the whole URI.
 */
static void
server_truncate_args(const char *uri)
{
	char	*q;

	if (uri != NULL && (q = strchr(uri, '?')) != NULL)
		q[1] = '\0';
}

/* How long a connection may sit idle between requests, given the load. */
static unsigned int
server_idle_timeout(struct server *srv)
{
	unsigned int	n = __atomic_load_n(&srv->nconns, __ATOMIC_RELAXED);

	return (n * 2 > srv->opts.max_connections ? SERVER_BUSY_TIMEOUT :
	    SERVER_IDLE_TIMEOUT);
}

/* Counts connections; a new one has the idle timeout until it asks. */
static void
server_notify_conn(void *cls, struct MHD_Connection *conn, void **socket_ctx,
    enum MHD_ConnectionNotificationCode code)
{
	struct server	*srv = cls;

	(void)socket_ctx;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		__atomic_add_fetch(&srv->nconns, 1, __ATOMIC_RELAXED);
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
		    server_idle_timeout(srv));
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED)
		__atomic_sub_fetch(&srv->nconns, 1, __ATOMIC_RELAXED);
}

static void *
server_uri_log(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct reqctx	*rc;

	(void)cls;
	rc = xcalloc(1, sizeof *rc);
	rc->uri = xstrdup(uri != NULL ? uri : "/");
	server_truncate_args(uri);
	/* A request has begun: it gets the long inactivity timeout. */
	if (conn != NULL)
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
		    (unsigned int)SERVER_REQUEST_TIMEOUT);
	buf_init(&rc->req.body);
	clock_gettime(CLOCK_MONOTONIC, &rc->t0);
	return (rc);
}

/* What the retired legacy rate-limit API answers under --legacy-gone. */
static const char server_gone_text[] =
    "The legacy Rate Limiting API is retired (410 Gone): create rate "
    "limiting rules with the Rulesets API instead (phase http_ratelimit, "
    "/zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint)";

static void
server_reject(struct reqctx *rc, unsigned int status, int code,
    const char *fmt, ...) printflike(4, 5);

static void
server_reject(struct reqctx *rc, unsigned int status, int code,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	reply_error(&rc->reply, status, code, "%s", msg);
	free(msg);
	rc->decided = 1;
}

static void
server_allow_header(struct server *srv, struct reqctx *rc, const char *path)
{
	struct buf	 b = BUF_INITIALIZER;
	size_t		 i;
	int		 bad, only;

	const struct route	**routes = srv->routes;
	size_t			  n = srv->nroutes;

	if (strncmp(rc->uri, API_PREFIX, strlen(API_PREFIX)) != 0) {
		routes = srv->root_routes;
		n = srv->nroot_routes;
	}
	for (i = 0; i < n; i++) {
		if (route_match_one(routes[i]->pattern, path, &bad, &only) < 0)
			continue;
		if (strstr(buf_str(&b), http_method_name(routes[i]->method)) !=
		    NULL)
			continue;
		buf_addf(&b, "%s%s", b.len != 0 ? ", " : "",
		    http_method_name(routes[i]->method));
	}
	reply_header(&rc->reply, "Allow", buf_str(&b));
	buf_free(&b);
}

static int
server_content_type_is(const char *ct, const char *want)
{
	size_t	n = strlen(want);

	if (ct == NULL)
		return (0);
	while (isspace((unsigned char)*ct))
		ct++;
	return (strncasecmp(ct, want, n) == 0 &&
	    (ct[n] == '\0' || ct[n] == ';' || isspace((unsigned char)ct[n])));
}

static void
server_check_auth(struct server *srv, struct reqctx *rc)
{
	const char	*h = req_header(&rc->req, MHD_HTTP_HEADER_AUTHORIZATION);

	if (h == NULL || *h == '\0') {
		server_reject(rc, 401, ERR_AUTH_MISSING,
		    "Authentication error: send Authorization: Bearer TOKEN");
		return;
	}
	if (strncasecmp(h, "Bearer ", 7) != 0 ||
	    !util_streq_ct(h + 7, srv->opts.token)) {
		server_reject(rc, 403, ERR_AUTH_INVALID,
		    "Invalid access token");
		return;
	}
}

/* -v: the Upload-Offset a tus request sends, digits only. */
static void
server_note_offset(struct reqctx *rc)
{
	const char	*v = req_header(&rc->req, "Upload-Offset");
	size_t		 n;

	if (v == NULL)
		return;
	n = strlen(v);
	rc->offset_sent = n > 0 && n <= 20 && strspn(v, "0123456789") == n ?
	    xstrdup(v) : xstrdup("(malformed)");
}

/* -v: " from N" for the offset sent, " offset N" for the one answered. */
static void
server_log_offsets(const struct reqctx *rc, char *out, size_t len)
{
	const struct reply	*r = &rc->reply;
	const char		*answered = NULL;
	size_t			 i;

	for (i = 0; i < r->nheaders; i++) {
		if (strcasecmp(r->headers[i].name, "Upload-Offset") == 0)
			answered = r->headers[i].value;
	}
	snprintf(out, len, "%s%s%s%s", rc->offset_sent != NULL ? " from " : "",
	    rc->offset_sent != NULL ? rc->offset_sent : "",
	    answered != NULL ? " offset " : "",
	    answered != NULL ? answered : "");
}

/*
 * libmicrohttpd decodes the path into a C string, so "<id>%00junk" would
 * reach the routes as "<id>": the raw path is checked first.
 */
static int
server_path_has_nul(const char *uri, const char *end)
{
	const char	*p;

	if (end == NULL)
		end = uri + strlen(uri);
	for (p = uri; p + 2 < end; p++) {
		if (p[0] == '%' && p[1] == '0' && p[2] == '0')
			return (1);
	}
	return (0);
}

/*
 * How the body is framed must be unambiguous (RFC 9112 6.3): one
 * Content-Length, or Transfer-Encoding: chunked alone. libmicrohttpd reads
 * the first Content-Length, lets chunked win over it, and takes any other
 * coding as a body that ends with the connection; such a request is
 * refused here, in the envelope, and its connection closed. (A
 * Content-Length that is no number never gets this far: libmicrohttpd
 * answers it itself.)
 */
static int
server_check_framing(struct reqctx *rc)
{
	const char	*te[2];
	size_t		 ncl, nte;

	ncl = req_header_values(&rc->req, MHD_HTTP_HEADER_CONTENT_LENGTH,
	    NULL, 0);
	nte = req_header_values(&rc->req, MHD_HTTP_HEADER_TRANSFER_ENCODING,
	    te, nitems(te));
	if (ncl > 1)
		server_reject(rc, 400, ERR_BAD_REQUEST, "Content-Length is "
		    "given %zu times: a request gives it once", ncl);
	else if (ncl == 1 && nte > 0)
		server_reject(rc, 400, ERR_BAD_REQUEST, "both Content-Length "
		    "and Transfer-Encoding are given: a request gives one");
	else if (nte > 1)
		server_reject(rc, 400, ERR_BAD_REQUEST, "Transfer-Encoding is "
		    "given %zu times: a request gives it once", nte);
	else if (nte == 1 && strcasecmp(te[0], "chunked") != 0)
		server_reject(rc, 501, ERR_BAD_REQUEST, "a Transfer-Encoding "
		    "other than chunked is not supported");
	else
		return (0);
	rc->framing_bad = 1;
	reply_header(&rc->reply, MHD_HTTP_HEADER_CONNECTION, "close");
	return (-1);
}

/* The first call for a request: route, authenticate, check the body. */
static void
server_begin(struct server *srv, struct reqctx *rc, const char *url,
    const char *method)
{
	struct req		*req = &rc->req;
	const char		*q, *ct, *cl, *override;
	char			*cause = NULL;
	unsigned long long	 len;
	enum route_match	 m;

	req->method = http_method_parse(method);
	if (srv->opts.verbose)
		server_note_offset(rc);
	/* tus: clients that cannot send PATCH or DELETE say so on a POST. */
	override = req_header(req, "X-HTTP-Method-Override");
	if (req->method == HTTP_POST && override != NULL) {
		req->method = http_method_parse(override);
		method = http_method_name(req->method);
	}
	if (server_check_framing(rc) != 0)
		return;
	q = strchr(rc->uri, '?');
	if (server_path_has_nul(rc->uri, q)) {
		server_reject(rc, 400, ERR_BAD_REQUEST, "the path holds a NUL "
		    "byte (%%00): identifiers never do");
		return;
	}
	if (q != NULL && query_parse(&req->query, q + 1, &cause) != 0) {
		server_reject(rc, 400, ERR_BAD_REQUEST, "%s", cause);
		free(cause);
		return;
	}
	if (strncmp(url, API_PREFIX, strlen(API_PREFIX)) == 0 &&
	    (url[strlen(API_PREFIX)] == '/' ||
	    url[strlen(API_PREFIX)] == '\0')) {
		req->path = url + strlen(API_PREFIX);
		m = route_lookup(srv->routes, srv->nroutes, req->method,
		    req->path, &rc->route, req);
	} else {
		req->path = url;
		m = route_lookup(srv->root_routes, srv->nroot_routes,
		    req->method, req->path, &rc->route, req);
	}
	switch (m) {
	case ROUTE_FOUND:
		break;
	case ROUTE_NO_PATH:
		server_reject(rc, 404, ERR_NO_ROUTE, "No route for the URI");
		return;
	case ROUTE_BAD_METHOD:
		server_reject(rc, 405, ERR_METHOD,
		    "Method %s is not allowed for %s", method, req->path);
		server_allow_header(srv, rc, req->path);
		return;
	case ROUTE_BAD_PARAM:
		server_reject(rc, 400, ERR_NO_ROUTE, "Could not route to %s, "
		    "perhaps your object identifier is invalid?", req->path);
		return;
	}
	if (!(rc->route->flags & ROUTE_NOAUTH)) {
		server_check_auth(srv, rc);
		if (rc->decided)
			return;
	}
	/* Before the body is read, so even a malformed one gets the 410. */
	if ((rc->route->flags & ROUTE_LEGACY) && srv->opts.legacy_gone) {
		server_reject(rc, 410, ERR_GONE, "%s", server_gone_text);
		return;
	}

	switch (rc->route->body) {
	case ROUTE_BODY_STREAM:
		rc->cap = SIZE_MAX;
		break;
	case ROUTE_BODY_MULTIPART:
	case ROUTE_BODY_RAW:
		rc->cap = SERVER_MULTIPART_MAX;
		break;
	default:
		rc->cap = SERVER_JSON_MAX;
		break;
	}
	cl = req_header(req, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl != NULL && sscanf(cl, "%llu", &len) == 1 && len > rc->cap) {
		server_reject(rc, 413, ERR_TOO_LARGE,
		    "Request body of %llu bytes is over the limit of %zu bytes",
		    len, rc->cap);
		return;
	}
	ct = req_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (rc->route->body == ROUTE_BODY_MULTIPART &&
	    !server_content_type_is(ct, "multipart/form-data")) {
		server_reject(rc, 415, ERR_MEDIA_TYPE,
		    "Expected Content-Type: multipart/form-data");
		return;
	}
	if (rc->route->body == ROUTE_BODY_MULTIPART)
		rc->form = multipart_stream_new(ct);
	if (rc->route->body == ROUTE_BODY_JSON && ct != NULL && *ct != '\0' &&
	    !server_content_type_is(ct, "application/json") &&
	    !server_content_type_is(ct, "text/plain")) {
		server_reject(rc, 415, ERR_MEDIA_TYPE,
		    "Expected Content-Type: application/json, not %s", ct);
		return;
	}
	if (rc->route->body == ROUTE_BODY_STREAM) {
		if (rc->route->stream_begin(req, &rc->reply) != 0)
			rc->decided = 1;
		else
			rc->stream_open = 1;
	}
}

static void
server_data(struct reqctx *rc, const char *data, size_t size)
{
	if (rc->decided)
		return;
	if (rc->route->body == ROUTE_BODY_STREAM) {
		if (rc->route->stream_data(&rc->req, data, size,
		    &rc->reply) != 0) {
			rc->route->stream_end(&rc->req, &rc->reply, 0);
			rc->stream_open = 0;
			rc->decided = 1;
		}
		return;
	}
	if (rc->received + size > rc->cap) {
		buf_free(&rc->req.body);
		multipart_stream_free(rc->form);
		rc->form = NULL;
		server_reject(rc, 413, ERR_TOO_LARGE,
		    "Request body is over the limit of %zu bytes", rc->cap);
		return;
	}
	rc->received += size;
	/* A form is parsed as it comes, not kept; its errors wait for the end. */
	if (rc->form != NULL)
		multipart_stream_feed(rc->form, data, size);
	else
		buf_add(&rc->req.body, data, size);
}

/* The whole body has arrived: parse it and run the handler. */
static void
server_dispatch(struct reqctx *rc)
{
	struct req	*req = &rc->req;
	char		*cause = NULL;

	if (rc->route->body == ROUTE_BODY_STREAM) {
		rc->stream_open = 0;
		rc->route->stream_end(req, &rc->reply, 1);
		return;
	}
	if (rc->route->body == ROUTE_BODY_JSON && req->body.len != 0) {
		req->json = util_jparse(req->body.data, req->body.len, &cause);
		if (req->json == NULL) {
			reply_error(&rc->reply, 400, ERR_BAD_REQUEST, "%s",
			    cause);
			free(cause);
			return;
		}
	}
	if (rc->route->body == ROUTE_BODY_MULTIPART) {
		req->parts = multipart_stream_end(rc->form, &cause);
		rc->form = NULL;
		if (req->parts == NULL) {
			reply_error(&rc->reply, 400, ERR_BAD_REQUEST, "%s",
			    cause);
			free(cause);
			return;
		}
	}
	route_run(rc->route, req, &rc->reply);
}

/*
 * Run a route's handler; a ROUTE_WRITE one in a transaction, committed if
 * the reply is a success and rolled back if not, so a refused or failed
 * write leaves nothing behind.
 */
void
route_run(const struct route *route, struct req *req, struct reply *rep)
{
	int	write = (route->flags & ROUTE_WRITE) != 0;

	rep->status = 200;
	if (write && store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	route->handler(req, rep);
	if (rep->status == 0)
		rep->status = 200;
	if (!write)
		return;
	if (rep->status >= 300 || cJSON_GetArraySize(rep->errors) != 0)
		store_rollback(req->store);
	else if (store_commit(req->store) != 0) {
		reply_free(rep);
		reply_store_error(req, rep);
	}
}

static enum MHD_Result
server_respond(struct MHD_Connection *conn, struct reqctx *rc)
{
	struct reply		*r = &rc->reply;
	struct MHD_Response	*resp;
	enum MHD_Result		 ret;
	char			*body;
	size_t			 len, i;
	int			 is_json = 0;

	if (rc->responded)
		return (MHD_YES);
	rc->responded = 1;
	if (r->status == 0)
		r->status = 500;
	if (r->response != NULL) {
		resp = r->response;
		r->response = NULL;
	} else if (r->raw) {
		body = r->raw_body;
		r->raw_body = NULL;
		resp = MHD_create_response_from_buffer(r->raw_len, body,
		    body != NULL ? MHD_RESPMEM_MUST_FREE :
		    MHD_RESPMEM_PERSISTENT);
	} else {
		body = reply_envelope(r, &len);
		resp = MHD_create_response_from_buffer(len, body,
		    MHD_RESPMEM_MUST_FREE);
		is_json = 1;
	}
	if (resp == NULL)
		fatalx("MHD_create_response failed");
	if (is_json)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
		    "application/json");
	for (i = 0; i < r->nheaders; i++)
		MHD_add_response_header(resp, r->headers[i].name,
		    r->headers[i].value);
	/* Every slot taken: this one is given to whoever waits for one. */
	if (__atomic_load_n(&rc->req.server->nconns, __ATOMIC_RELAXED) >=
	    rc->req.server->opts.max_connections)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION,
		    "close");
	ret = MHD_queue_response(conn, r->status, resp);
	MHD_destroy_response(resp);
	return (ret);
}

/*
 * Can a refusal go out before the body is read? Only when no body is on its
 * way (none, or the client waits for 100-continue) or it is too large to
 * drop: closing a socket with unread data resets the connection, and the
 * client may lose the answer.
 */
static int
server_answer_early(struct reqctx *rc)
{
	const char		*cl, *te, *expect;
	unsigned long long	 len = 0;

	/* Where such a body ends is unknown: it cannot be read to the end. */
	if (rc->framing_bad)
		return (1);
	expect = req_header(&rc->req, MHD_HTTP_HEADER_EXPECT);
	if (expect != NULL && strcasecmp(expect, "100-continue") == 0)
		return (1);
	cl = req_header(&rc->req, MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = req_header(&rc->req, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (cl != NULL && sscanf(cl, "%llu", &len) == 1)
		return (len == 0 || len > SERVER_DISCARD_MAX);
	return (te == NULL);
}

static enum MHD_Result
server_access(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **req_cls)
{
	struct server	*srv = cls;
	struct reqctx	*rc = *req_cls;

	(void)version;
	if (rc == NULL) {
		/* No URI log call (should not happen): start one now. */
		rc = *req_cls = server_uri_log(NULL, url, conn);
	}
	if (!rc->started) {
		rc->started = 1;
		rc->req.server = srv;
		rc->req.store = srv->store;
		rc->req.conn = conn;
		server_begin(srv, rc, url, method);
		if (rc->decided && server_answer_early(rc))
			return (server_respond(conn, rc));
		return (MHD_YES);
	}
	if (*upload_data_size != 0) {
		/*
		 * Once refused, the rest of the body is read and dropped so the
		 * client still gets its answer (libmicrohttpd cannot answer in
		 * the middle of a body); past a bound the connection is closed.
		 */
		if (rc->decided) {
			rc->discarded += *upload_data_size;
			*upload_data_size = 0;
			return (rc->discarded > SERVER_DISCARD_MAX ? MHD_NO :
			    MHD_YES);
		}
		server_data(rc, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return (MHD_YES);
	}
	if (!rc->decided)
		server_dispatch(rc);
	return (server_respond(conn, rc));
}

route_log_path_cb
route_log_hook(const struct route *found, const struct route *const *routes,
    size_t n, const char *path)
{
	size_t	i, lit;

	if (found != NULL && found->log_path != NULL)
		return (found->log_path);
	for (i = 0; i < n; i++) {
		if (routes[i]->log_path == NULL)
			continue;
		lit = strcspn(routes[i]->pattern, "{");
		if (strncmp(path, routes[i]->pattern, lit) == 0)
			return (routes[i]->log_path);
	}
	return (NULL);
}

/*
 * The request's path as its log line shows it: through its route's hook,
 * or, for a path no route took (refused, or not routed at all), the hook
 * of a route it looks like, so a secret in it is cut all the same.
 */
static void
server_log_path(const struct server *srv, const struct reqctx *rc,
    char *out, size_t size)
{
	const char		*path = rc->req.path != NULL ? rc->req.path :
				    rc->uri;
	route_log_path_cb	 hook;

	hook = route_log_hook(rc->route, srv->root_routes, srv->nroot_routes,
	    path);
	if (hook == NULL)
		hook = route_log_hook(NULL, srv->routes, srv->nroutes, path);
	if (hook != NULL)
		hook(path, out, size);
	else
		snprintf(out, size, "%s", path);
}

static void
server_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct server	*srv = cls;
	struct reqctx	*rc = *req_cls;
	struct reply	 scratch;
	struct timespec	 t1;
	double		 ms;
	char		 offsets[64], logpath[512];

	if (rc == NULL)
		return;
	/* Kept alive: back to the idle timeout until the next request. */
	if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
		    server_idle_timeout(srv));
	if (srv->opts.verbose) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (double)(t1.tv_sec - rc->t0.tv_sec) * 1e3 +
		    (double)(t1.tv_nsec - rc->t0.tv_nsec) / 1e6;
		server_log_offsets(rc, offsets, sizeof offsets);
		server_log_path(srv, rc, logpath, sizeof logpath);
		log_info("%s %s %u %.1fms%s%s",
		    http_method_name(rc->req.method), logpath,
		    rc->reply.status, ms, offsets,
		    toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" :
		    " (connection closed)");
	}
	/*
	 * The client went away in the middle of a streamed body. Ended after
	 * its line is logged: once the end shows (a tus upload's lock gone,
	 * its offset recorded), the log has the request.
	 */
	if (rc->stream_open && rc->route != NULL) {
		memset(&scratch, 0, sizeof scratch);
		rc->route->stream_end(&rc->req, &scratch, 0);
		reply_free(&scratch);
	}
	query_free(&rc->req.query);
	req_clear_params(&rc->req);
	buf_free(&rc->req.body);
	cJSON_Delete(rc->req.json);
	multipart_free(rc->req.parts);
	multipart_stream_free(rc->form);
	reply_free(&rc->reply);
	free(rc->offset_sent);
	free(rc->uri);
	free(rc);
	*req_cls = NULL;
}

static void
server_mhd_log(void *cls, const char *fmt, va_list ap)
{
	char	buf[512];
	size_t	n;

	(void)cls;
	vsnprintf(buf, sizeof buf, fmt, ap);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	log_debug("http: %s", buf);
}

static int
server_parse_addr(const char *addr, int port, struct sockaddr_storage *ss,
    int *v6)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof *ss);
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		*v6 = 0;
		return (0);
	}
	if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		*v6 = 1;
		return (0);
	}
	return (-1);
}

struct server *
server_start(const struct server_options *opts, struct store *store,
    char **cause)
{
	struct server		*srv;
	struct sockaddr_storage	 ss;
	const union MHD_DaemonInfo *info;
	const struct area	*a;
	unsigned int		 flags;
	size_t			 i, j;
	int			 v6;

	if (server_parse_addr(opts->listen_addr, opts->port, &ss, &v6) != 0) {
		*cause = xprintf("%s: not an IPv4 or IPv6 address",
		    opts->listen_addr);
		return (NULL);
	}
	srv = xcalloc(1, sizeof *srv);
	srv->store = store;
	srv->opts = *opts;
	if (srv->opts.max_connections == 0)
		srv->opts.max_connections = SERVER_MAX_CONNECTIONS;
	for (i = 0; srv->opts.areas[i] != NULL; i++) {
		a = srv->opts.areas[i];
		srv->routes = xreallocarray(srv->routes,
		    srv->nroutes + a->nroutes + 1, sizeof *srv->routes);
		srv->root_routes = xreallocarray(srv->root_routes,
		    srv->nroot_routes + a->nroutes + 1, sizeof *srv->routes);
		for (j = 0; j < a->nroutes; j++) {
			if (a->routes[j].flags & ROUTE_ROOT)
				srv->root_routes[srv->nroot_routes++] =
				    &a->routes[j];
			else
				srv->routes[srv->nroutes++] = &a->routes[j];
		}
	}
	for (i = 0; srv->opts.areas[i] != NULL; i++) {
		if (srv->opts.areas[i]->start != NULL &&
		    srv->opts.areas[i]->start(srv, cause) != 0)
			goto fail;
		srv->nstarted = i + 1;
	}

	/*
	 * poll(2), not epoll: with epoll, libmicrohttpd 0.9.75's workers can
	 * stop waking once every connection slot is taken, and then serve
	 * nobody until the connections time out.
	 */
	flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
	    MHD_USE_ERROR_LOG;
	if (v6)
		flags |= MHD_USE_IPv6;
	srv->daemon = MHD_start_daemon(flags, 0, NULL, NULL,
	    server_access, srv,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(opts->threads > 0 ?
	    opts->threads : 2),
	    MHD_OPTION_CONNECTION_LIMIT, srv->opts.max_connections,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVER_REQUEST_TIMEOUT,
	    MHD_OPTION_NOTIFY_CONNECTION, server_notify_conn, srv,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(256 * 1024),
	    MHD_OPTION_URI_LOG_CALLBACK, server_uri_log, srv,
	    MHD_OPTION_NOTIFY_COMPLETED, server_completed, srv,
	    MHD_OPTION_EXTERNAL_LOGGER, server_mhd_log, srv,
	    MHD_OPTION_END);
	if (srv->daemon == NULL) {
		*cause = xprintf("cannot listen on %s port %d",
		    opts->listen_addr, opts->port);
		goto fail;
	}
	info = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
	srv->port = info != NULL ? info->port : opts->port;
	snprintf(srv->base_url, sizeof srv->base_url, v6 ?
	    "http://[%s]:%d%s" : "http://%s:%d%s", opts->listen_addr,
	    srv->port, API_PREFIX);
	return (srv);

fail:
	for (i = srv->nstarted; i > 0; i--) {
		if (srv->opts.areas[i - 1]->stop != NULL)
			srv->opts.areas[i - 1]->stop(srv);
	}
	free(srv->routes);
	free(srv->root_routes);
	free(srv);
	return (NULL);
}

void
server_stop(struct server *srv)
{
	size_t	i;

	if (srv == NULL)
		return;
	MHD_stop_daemon(srv->daemon);
	for (i = srv->nstarted; i > 0; i--) {
		if (srv->opts.areas[i - 1]->stop != NULL)
			srv->opts.areas[i - 1]->stop(srv);
	}
	free(srv->routes);
	free(srv->root_routes);
	free(srv);
}

int
server_port(const struct server *srv)
{
	return (srv->port);
}

const char *
server_base_url(const struct server *srv)
{
	return (srv->base_url);
}

const struct server_options *
server_options(const struct server *srv)
{
	return (&srv->opts);
}

struct store *
server_store(const struct server *srv)
{
	return (srv->store);
}
