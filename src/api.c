/*
 * The v4 response envelope, read from whatever arrives: a server's envelope,
 * a proxy's HTML page, an empty 502, a truncated or oversized body. Every
 * failure ends with at least one error the user can read. Also path
 * templates with percent-encoded values.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "buf.h"
#include "jsonutil.h"
#include "percent.h"
#include "text.h"
#include "xmalloc.h"

/* What one pass over a body found before it is parsed. */
struct api_scan {
	size_t	values;		/* upper bound on the JSON values */
	int	bad_utf8;
	int	open;		/* ends inside a string, array or object */
};

/* How far into a non-JSON body to look for something to quote. */
#define API_SNIFF_MAX	4096
#define API_EXCERPT_MAX	60

static const struct {
	long		 code;
	const char	*reason;
} api_reasons[] = {
	{ 400, "Bad Request" },
	{ 401, "Unauthorized" },
	{ 403, "Forbidden" },
	{ 404, "Not Found" },
	{ 405, "Method Not Allowed" },
	{ 408, "Request Timeout" },
	{ 409, "Conflict" },
	{ 410, "Gone" },
	{ 413, "Content Too Large" },
	{ 415, "Unsupported Media Type" },
	{ 422, "Unprocessable Content" },
	{ 429, "Too Many Requests" },
	{ 500, "Internal Server Error" },
	{ 501, "Not Implemented" },
	{ 502, "Bad Gateway" },
	{ 503, "Service Unavailable" },
	{ 504, "Gateway Timeout" },
};

static const char api_gone_text[] =
    "The legacy Rate Limiting API (/zones/{zone}/rate_limits) is retired on "
    "the Cloudflare cloud (HTTP 410 Gone): use rate limiting rules of the "
    "Rulesets engine instead (the http_ratelimit phase, "
    "/zones/{zone}/rulesets/phases/http_ratelimit/entrypoint). Servers that "
    "still serve the legacy API, such as edgemu, can be managed here.";

/* "HTTP 502 Bad Gateway", or "HTTP 299" for a code without a known reason. */
static void
api_add_status(struct buf *b, long code)
{
	size_t	i;

	buf_addf(b, "HTTP %ld", code);
	for (i = 0; i < nitems(api_reasons); i++) {
		if (api_reasons[i].code == code) {
			buf_addf(b, " %s", api_reasons[i].reason);
			break;
		}
	}
}

static void
api_add_error(struct api_error **v, size_t *n, long code, char *message)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[*n].code = code;
	(*v)[*n].message = message;
	(*n)++;
}

/* Replace whatever errors there are with one the client wrote. */
static void
api_synthetic(struct api_response *out, enum status st, struct buf *text)
{
	size_t	i;

	for (i = 0; i < out->nerrors; i++)
		free(out->errors[i].message);
	out->nerrors = 0;
	api_add_error(&out->errors, &out->nerrors, 0, buf_detach(text, NULL));
	out->ok = 0;
	out->status = st;
}

static enum status
api_class(long code)
{
	switch (code) {
	case 400:
	case 422:
		return (STATUS_INVALID);
	case 401:
	case 403:
		return (STATUS_AUTH);
	case 404:
		return (STATUS_NOT_FOUND);
	case 405:
	case 415:
	case 501:
		return (STATUS_UNSUPPORTED);
	case 408:
	case 504:
		return (STATUS_TIMEOUT);
	case 409:
		return (STATUS_CONFLICT);
	case 410:
		return (STATUS_GONE);
	case 413:
		return (STATUS_TOO_LARGE);
	case 429:
		return (STATUS_RATE_LIMITED);
	}
	return (STATUS_SERVER);
}

static int
api_is_2xx(long code)
{
	return (code >= 200 && code <= 299);
}

/*
 * One pass over the body: count the places a JSON value can start (an
 * upper bound on the values cJSON would allocate), find invalid UTF-8 and
 * whether the text stops inside a string or a container (truncation).
 */
static void
api_scan(const char *body, size_t len, struct api_scan *sc)
{
	const unsigned char	*p = (const unsigned char *)body;
	size_t			 i = 0, depth = 0, step;
	uint32_t		 cp;
	int			 in_string = 0;

	memset(sc, 0, sizeof *sc);
	sc->values = 1;
	while (i < len) {
		if (p[i] >= 0x80) {
			step = text_utf8_decode(body + i, len - i, &cp);
			if (step == 0) {
				sc->bad_utf8 = 1;
				step = 1;
			}
			i += step;
			continue;
		}
		if (in_string) {
			if (p[i] == '\\')
				i++;
			else if (p[i] == '"')
				in_string = 0;
		} else if (p[i] == '"')
			in_string = 1;
		else if (p[i] == '[' || p[i] == '{') {
			sc->values++;
			depth++;
		} else if (p[i] == ']' || p[i] == '}') {
			if (depth > 0)
				depth--;
		} else if (p[i] == ',' || p[i] == ':')
			sc->values++;
		i++;
	}
	sc->open = in_string || depth > 0;
}

/* A copy of the body with each byte that is not UTF-8 as U+FFFD. */
static void
api_repair_utf8(const char *body, size_t len, struct buf *b)
{
	const unsigned char	*p = (const unsigned char *)body;
	size_t			 i = 0, step;
	uint32_t		 cp;

	buf_reserve(b, len);
	while (i < len) {
		step = text_utf8_decode(body + i, len - i, &cp);
		if (step == 0) {
			buf_add(b, "\xef\xbf\xbd", 3);
			i++;
		} else {
			buf_add(b, p + i, step);
			i += step;
		}
	}
}

static size_t
api_skip_space(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	return (i);
}

/* Printable ASCII of s (at most max bytes), others as '?', to one line. */
static void
api_add_excerpt(struct buf *b, const char *s, size_t len, size_t max)
{
	size_t	i;

	for (i = 0; i < len && i < max; i++) {
		if (s[i] == '\n' || s[i] == '\r')
			break;
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"')
			buf_addc(b, s[i]);
		else
			buf_addc(b, '?');
	}
}

/* The text of <title> in the first few KiB of an HTML page. */
static int
api_html_title(const char *s, size_t len, const char **start, size_t *n)
{
	size_t	i, j;

	len = MINIMUM(len, API_SNIFF_MAX);
	for (i = 0; i + 7 <= len; i++) {
		if (strncasecmp(s + i, "<title>", 7) != 0)
			continue;
		i += 7;
		for (j = i; j < len && s[j] != '<'; j++)
			/* nothing */;
		while (i < j && (s[i] == ' ' || s[i] == '\n'))
			i++;
		while (j > i && (s[j - 1] == ' ' || s[j - 1] == '\n'))
			j--;
		if (j == i)
			return (0);
		*start = s + i;
		*n = j - i;
		return (1);
	}
	return (0);
}

/* What a body that is not JSON looks like: "text/html?", a quote... */
static void
api_describe_other(struct buf *b, const char *s, size_t len)
{
	const char	*title;
	size_t		 n, i, sniff = MINIMUM(len, API_SNIFF_MAX);
	int		 binary = 0;

	if (len > 0 && s[0] == '<') {
		buf_adds(b, " (text/html?");
		if (api_html_title(s, len, &title, &n)) {
			buf_adds(b, ": \"");
			api_add_excerpt(b, title, n, API_EXCERPT_MAX);
			buf_addc(b, '"');
		}
		buf_addc(b, ')');
		return;
	}
	for (i = 0; i < sniff; i++) {
		if ((unsigned char)s[i] < 0x20 && s[i] != '\n' &&
		    s[i] != '\r' && s[i] != '\t')
			binary = 1;
	}
	if (binary) {
		buf_adds(b, " (binary data?)");
		return;
	}
	buf_adds(b, ": \"");
	api_add_excerpt(b, s, len, API_EXCERPT_MAX);
	if (len > API_EXCERPT_MAX)
		buf_adds(b, "...");
	buf_addc(b, '"');
}

static void
api_add_size(struct buf *b, size_t n)
{
	if (n >= 1024 * 1024)
		buf_addf(b, "%.1f MiB", (double)n / (1024 * 1024));
	else if (n >= 1024)
		buf_addf(b, "%.1f KiB", (double)n / 1024);
	else
		buf_addf(b, "%zu bytes", n);
}

/* A number that fits a long, or -1 (counts are never negative). */
static long
api_jlong(const cJSON *v)
{
	double	d;

	if (!cJSON_IsNumber(v))
		return (-1);
	d = v->valuedouble;
	if (!isfinite(d) || d < 0 || d >= (double)LONG_MAX)
		return (-1);
	return ((long)d);
}

/* An error code; 0 (no code) when it is missing or absurd. */
static long
api_jcode(const cJSON *v)
{
	double	d;

	if (!cJSON_IsNumber(v))
		return (0);
	d = v->valuedouble;
	if (!isfinite(d) || d <= (double)LONG_MIN || d >= (double)LONG_MAX)
		return (0);
	return ((long)d);
}

/* errors[] or messages[]: objects {code, message}; plain strings too. */
static void
api_read_list(const cJSON *list, struct api_error **v, size_t *n)
{
	const cJSON	*item, *m;
	const char	*text;
	size_t		 total = 0;

	if (!cJSON_IsArray(list))
		return;
	cJSON_ArrayForEach(item, list) {
		if (total++ >= API_ERRORS_MAX)
			continue;
		m = cJSON_IsString(item) ? item :
		    cJSON_GetObjectItemCaseSensitive(item, "message");
		/* "" (or "\u0000...") would show as nothing at all. */
		text = cJSON_IsString(m) && *m->valuestring != '\0' ?
		    m->valuestring : "(no message)";
		api_add_error(v, n, api_jcode(cJSON_GetObjectItemCaseSensitive(
		    item, "code")), xstrdup(text));
	}
	if (total > API_ERRORS_MAX) {
		api_add_error(v, n, 0, xprintf("and %zu more",
		    total - API_ERRORS_MAX));
	}
}

static void
api_read_info(const cJSON *info, struct api_response *out)
{
	const cJSON	*v;

	if (!cJSON_IsObject(info))
		return;
	out->has_info = 1;
	out->page = api_jlong(cJSON_GetObjectItemCaseSensitive(info, "page"));
	out->per_page = api_jlong(cJSON_GetObjectItemCaseSensitive(info,
	    "per_page"));
	out->count = api_jlong(cJSON_GetObjectItemCaseSensitive(info, "count"));
	out->total_count = api_jlong(cJSON_GetObjectItemCaseSensitive(info,
	    "total_count"));
	out->total_pages = api_jlong(cJSON_GetObjectItemCaseSensitive(info,
	    "total_pages"));
	v = cJSON_GetObjectItemCaseSensitive(info, "cursor");
	if (cJSON_IsString(v) && *v->valuestring != '\0')
		out->cursor = xstrdup(v->valuestring);
	if (out->total_pages == -1 && out->total_count >= 0 &&
	    out->per_page > 0) {
		out->total_pages = out->total_count / out->per_page +
		    (out->total_count % out->per_page != 0);
	}
}

static void
api_read_envelope(cJSON *root, struct api_response *out)
{
	cJSON	*v;

	v = cJSON_GetObjectItemCaseSensitive(root, "success");
	out->ok = api_is_2xx(out->http_status) && !cJSON_IsFalse(v);
	api_read_list(cJSON_GetObjectItemCaseSensitive(root, "errors"),
	    &out->errors, &out->nerrors);
	api_read_list(cJSON_GetObjectItemCaseSensitive(root, "messages"),
	    &out->messages, &out->nmessages);
	out->result = cJSON_DetachItemFromObjectCaseSensitive(root, "result");
	api_read_info(cJSON_GetObjectItemCaseSensitive(root, "result_info"),
	    out);
	out->total = api_jlong(cJSON_GetObjectItemCaseSensitive(root, "total"));
	out->range = api_jlong(cJSON_GetObjectItemCaseSensitive(root, "range"));
	out->has_stream_counts = out->total != -1 || out->range != -1;
}

/* A failed envelope without errors still needs one to show. */
static void
api_ensure_error(struct api_response *out)
{
	struct buf	b = BUF_INITIALIZER;

	if (out->ok || out->nerrors != 0)
		return;
	if (api_is_2xx(out->http_status)) {
		buf_adds(&b, "the server answered success:false without an "
		    "error message (");
		api_add_status(&b, out->http_status);
		buf_addc(&b, ')');
	} else {
		api_add_status(&b, out->http_status);
		buf_adds(&b, " without an error message");
	}
	api_add_error(&out->errors, &out->nerrors, 0, buf_detach(&b, NULL));
}

/* The body did not parse: say whether it was cut short or never JSON. */
static void
api_not_json(struct api_response *out, const char *s, size_t len,
    size_t start, const char *end, const struct api_scan *sc)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		off;

	api_add_status(&b, out->http_status);
	if (s[start] != '{' && s[start] != '[') {
		buf_adds(&b, " with a body that is not JSON");
		api_describe_other(&b, s + start, len - start);
	} else if (sc->open)
		buf_addf(&b, " with truncated JSON (%zu bytes)", len);
	else {
		off = end != NULL && end >= s && end <= s + len ?
		    (size_t)(end - s) : len;
		buf_addf(&b, " with invalid JSON (error at byte %zu of %zu)",
		    off, len);
	}
	api_synthetic(out, api_is_2xx(out->http_status) ? STATUS_PARSE :
	    api_class(out->http_status), &b);
}

static void
api_parse_json(const char *s, size_t len, const struct api_scan *sc,
    struct api_response *out)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*end = NULL;
	cJSON		*root;
	size_t		 start;

	start = api_skip_space(s, len, 0);
	if (start == len) {
		/* No body: a 2xx delete or 204; anything else is a failure. */
		out->ok = api_is_2xx(out->http_status);
		if (!out->ok) {
			api_add_status(&b, out->http_status);
			buf_adds(&b, " with an empty body");
			api_synthetic(out, api_class(out->http_status), &b);
		}
		return;
	}
	root = cJSON_ParseWithLengthOpts(s + start, len - start, &end, 0);
	if (root != NULL && api_skip_space(s, len, (size_t)(end - s)) != len) {
		cJSON_Delete(root);
		root = NULL;
	}
	if (root == NULL) {
		api_not_json(out, s, len, start, end, sc);
		return;
	}
	if (!cJSON_IsObject(root)) {
		api_add_status(&b, out->http_status);
		buf_addf(&b, " with JSON that is not an API envelope (%s)",
		    jsonutil_type_name(root));
		api_synthetic(out, api_is_2xx(out->http_status) ? STATUS_PARSE :
		    api_class(out->http_status), &b);
		cJSON_Delete(root);
		return;
	}
	api_read_envelope(root, out);
	cJSON_Delete(root);
	api_ensure_error(out);
}

static void
api_response_init(struct api_response *out, long http_status)
{
	memset(out, 0, sizeof *out);
	out->http_status = http_status;
	out->page = out->per_page = out->count = -1;
	out->total_count = out->total_pages = -1;
	out->total = out->range = -1;
}

enum status
api_parse(long http_status, const char *body, size_t len,
    struct api_response *out)
{
	struct buf	 b = BUF_INITIALIZER, fixed = BUF_INITIALIZER;
	struct api_scan	 sc;

	api_response_init(out, http_status);
	if (body == NULL)
		len = 0;
	/* A UTF-8 byte order mark is not part of the JSON text. */
	if (len >= 3 && memcmp(body, "\xef\xbb\xbf", 3) == 0) {
		body += 3;
		len -= 3;
	}
	if (len > API_BODY_MAX) {
		api_add_status(&b, http_status);
		buf_adds(&b, " with a body of ");
		api_add_size(&b, len);
		buf_adds(&b, ", over the limit of ");
		api_add_size(&b, API_BODY_MAX);
		api_synthetic(out, STATUS_TOO_LARGE, &b);
		return (out->status);
	}
	api_scan(body, len, &sc);
	if (sc.values > API_VALUES_MAX) {
		api_add_status(&b, http_status);
		buf_addf(&b, " with JSON of more than %lu values, over the "
		    "limit", API_VALUES_MAX);
		api_synthetic(out, STATUS_TOO_LARGE, &b);
		return (out->status);
	}
	if (sc.bad_utf8) {
		api_repair_utf8(body, len, &fixed);
		body = fixed.data;
		len = fixed.len;
		out->utf8_repaired = 1;
	}
	api_parse_json(len == 0 ? "" : body, len, &sc, out);
	buf_free(&fixed);
	if (out->status == STATUS_OK && !out->ok)
		out->status = api_is_2xx(http_status) ? STATUS_SERVER :
		    api_class(http_status);
	return (out->status);
}

void
api_response_free(struct api_response *r)
{
	size_t	i;

	cJSON_Delete(r->result);
	for (i = 0; i < r->nerrors; i++)
		free(r->errors[i].message);
	free(r->errors);
	for (i = 0; i < r->nmessages; i++)
		free(r->messages[i].message);
	free(r->messages);
	free(r->cursor);
	api_response_init(r, r->http_status);
}

void
api_error_text(const struct api_response *r, char **text)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; i < r->nerrors; i++) {
		if (i != 0)
			buf_adds(&b, "; ");
		buf_adds(&b, r->errors[i].message);
		if (r->errors[i].code != 0)
			buf_addf(&b, " [%ld]", r->errors[i].code);
	}
	*text = buf_detach(&b, NULL);
}

const char *
api_gone_message(const char *path)
{
	static const char	 seg[] = "/rate_limits";
	const char		*p = path;
	char			 c;

	if (path == NULL)
		return (NULL);
	while ((p = strstr(p, seg)) != NULL) {
		c = p[sizeof seg - 1];
		if (c == '\0' || c == '/' || c == '?' || c == '#')
			return (api_gone_text);
		p += sizeof seg - 1;
	}
	return (NULL);
}

int
api_explain_gone(struct api_response *r, const char *path)
{
	const char	*msg;

	if (r->http_status != 410 || (msg = api_gone_message(path)) == NULL)
		return (0);
	r->errors = xreallocarray(r->errors, r->nerrors + 1, sizeof *r->errors);
	memmove(r->errors + 1, r->errors, r->nerrors * sizeof *r->errors);
	r->errors[0].code = 0;
	r->errors[0].message = xstrdup(msg);
	r->nerrors++;
	r->ok = 0;
	r->status = STATUS_GONE;
	return (1);
}

static const char *
api_var_find(const struct api_var *vars, const char *name, size_t n)
{
	for (; vars != NULL && vars->name != NULL; vars++) {
		if (strlen(vars->name) == n && strncmp(vars->name, name, n) == 0)
			return (vars->value);
	}
	return (NULL);
}

/* One value for {name}, or why it cannot go into a path. */
static int
api_var_check(const char *name, size_t n, const char *value, char **cause)
{
	if (value == NULL)
		*cause = xprintf("no value for {%.*s}", (int)n, name);
	else if (*value == '\0')
		*cause = xprintf("{%.*s} is empty", (int)n, name);
	else if (strchr(value, '/') != NULL)
		*cause = xprintf("{%.*s} may not contain '/'", (int)n, name);
	else if (strcmp(value, ".") == 0 || strcmp(value, "..") == 0)
		*cause = xprintf("{%.*s} may not be '%s'", (int)n, name, value);
	else
		return (0);
	return (-1);
}

char *
api_path(const char *tmpl, const struct api_var *vars, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p, *close, *value;
	size_t		 n;

	for (p = tmpl; *p != '\0'; p++) {
		if (*p == '}') {
			*cause = xprintf("template %s: '}' without '{'", tmpl);
			goto fail;
		}
		if (*p != '{') {
			buf_addc(&b, *p);
			continue;
		}
		close = strchr(p + 1, '}');
		n = close == NULL ? 0 : (size_t)(close - p - 1);
		if (close == NULL || n == 0 || memchr(p + 1, '{', n) != NULL) {
			*cause = xprintf("template %s: bad variable", tmpl);
			goto fail;
		}
		value = api_var_find(vars, p + 1, n);
		if (api_var_check(p + 1, n, value, cause) != 0)
			goto fail;
		percent_encode(&b, value);
		p = close;
	}
	return (buf_detach(&b, NULL));

fail:
	buf_free(&b);
	return (NULL);
}
