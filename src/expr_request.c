/*
 * A request as the Rules language sees it (api-map-next 12.3): what a log
 * line or the user gives (method, URL, headers, address...) and the fields
 * derived from it, laid out as values the evaluator reads without copying.
 * One object is reused line after line: reset keeps every buffer, so a warm
 * object allocates nothing.
 */
#include "config.h"

#include <arpa/inet.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "common.h"
#include "encode.h"
#include "expr.h"
#include "expr_value.h"
#include "log.h"
#include "xmalloc.h"

#define RQ_NONE		UINT32_MAX
#define RQ_BLOCK	65536
#define RQ_MATCH_LIMIT	1000000		/* backtracking steps per match */
#define RQ_HEAP_LIMIT	8192		/* KiB of backtracking frames */
#define RQ_JIT_STACK	(1024 * 1024)	/* bytes, at most */
#define RQ_DFA_STEPS	200000		/* DFA: starts times value bytes */
#define RQ_DFA_SPACE	8192		/* DFA: ints for its states */
#define RQ_DFA_FIRST	16		/* regexes sent to the DFA first */

/* Text in the request's arena: offsets, because the arena moves as it grows. */
struct rq_str {
	uint32_t	 off;
	uint32_t	 len;
};

/* One header, query argument or cookie: key (lower-case name, argument
 * name, decoded cookie name), name as it arrived, value. */
struct rq_pair {
	struct rq_str	 key;
	struct rq_str	 name;
	struct rq_str	 value;
};

/* Pairs, and the map and arrays built from them before evaluation. */
struct rq_pairs {
	struct rq_pair	*v;
	size_t		 n, size;

	struct expr_val	*elems;		/* values grouped by key, sorted */
	struct expr_val	*keys;
	struct expr_val	*vals;		/* one array per key, into elems */
	struct expr_val	*names;		/* arrival order */
	struct expr_val	*values;	/* arrival order */
	size_t		 built;		/* capacity of the five above */
	struct expr_map	 map;
};

struct rq_block {
	struct rq_block	*next;
	char		*data;
	size_t		 size;
	size_t		 used;
};

struct expr_request {
	struct buf	 text;

	struct rq_str	 method, scheme, host, path, query, version, country;
	int		 has_query;
	int64_t		 asnum, timestamp;
	int		 has_asnum, has_timestamp, has_ip, status;
	int		 verified_bot;
	struct expr_ip	 ip;

	struct rq_pairs	 headers, args, cookies, resp;

	int		 dirty;		/* fields[] must be built again */
	unsigned	 ready;		/* 1 << rq_group: built since */
	const char	*base;		/* text.data when they were */
	struct rq_str	 host_seen;	/* host, else the Host header's */
	struct expr_val	 fields[EXPR_F__COUNT];
	uint64_t	 built;		/* times fields[] was built */
	uint64_t	 hash[EXPR_F__COUNT];	/* of fields[], when */
	uint64_t	 hashed[EXPR_F__COUNT];	/* ... this is built */

	uint32_t	*sort, *sort_tmp;	/* merge sort of pair indexes */
	size_t		 sort_size;

	/* Lists assumed to hold a value (expr_request_assume_lists). */
	const char *const *lists;
	size_t		 nlists;
	uint64_t	 lists_in;

	struct rq_block	*blocks, *cur;
	pcre2_general_context *pcre;
	pcre2_match_data *match;
	pcre2_match_context *mctx;
	pcre2_jit_stack	*jit;
	pcre2_match_context *dfa_mctx;
	int		*dfa_space;	/* RQ_DFA_SPACE */
	const pcre2_code *dfa_first[RQ_DFA_FIRST];
	size_t		 ndfa_first;
};

static const struct rq_str rq_none = { RQ_NONE, 0 };

/* Bytes onto the arena: a request adds a few dozen small pieces, most of
 * them into room it already has. */
static inline void
rq_put(struct expr_request *rq, const void *p, size_t n)
{
	struct buf	*b = &rq->text;

	if (b->data == NULL || n >= b->size - b->len) {
		buf_add(b, p, n);
		return;
	}
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static struct rq_str
rq_add(struct expr_request *rq, const char *p, size_t n)
{
	struct rq_str	s;

	s.off = (uint32_t)rq->text.len;
	s.len = (uint32_t)n;
	rq_put(rq, p, n);
	return (s);
}

static struct rq_str
rq_add_lower(struct expr_request *rq, const char *p, size_t n)
{
	struct rq_str	 s = rq_add(rq, p, n);
	char		*d = rq->text.data + s.off;
	size_t		 i;

	for (i = 0; i < n; i++)
		if (d[i] >= 'A' && d[i] <= 'Z')
			d[i] += 'a' - 'A';
	return (s);
}

static struct rq_str
rq_add_upper(struct expr_request *rq, const char *p, size_t n)
{
	struct rq_str	 s = rq_add(rq, p, n);
	char		*d = rq->text.data + s.off;
	size_t		 i;

	for (i = 0; i < n; i++)
		if (d[i] >= 'a' && d[i] <= 'z')
			d[i] -= 'a' - 'A';
	return (s);
}

static struct rq_str
rq_add_urldecoded(struct expr_request *rq, const char *p, size_t n)
{
	struct rq_str	s;
	size_t		i;
	int		hi, lo;

	s.off = (uint32_t)rq->text.len;
	for (i = 0; i < n; i++) {
		if (p[i] == '%' && i + 2 < n &&
		    (hi = encode_hexval((unsigned char)p[i + 1])) >= 0 &&
		    (lo = encode_hexval((unsigned char)p[i + 2])) >= 0) {
			buf_addc(&rq->text, (char)(hi << 4 | lo));
			i += 2;
		} else
			buf_addc(&rq->text, p[i]);
	}
	s.len = (uint32_t)(rq->text.len - s.off);
	return (s);
}

/* Text already in the arena appended again (the arena may move first). */
static void
rq_append(struct expr_request *rq, struct rq_str s)
{
	buf_reserve(&rq->text, s.len);
	rq_put(rq, rq->text.data + s.off, s.len);
}

static int
rq_has(struct rq_str s)
{
	return (s.off != RQ_NONE);
}

static int
rq_eq(const struct expr_request *rq, struct rq_str s, const char *lit)
{
	size_t	n = strlen(lit);

	return (rq_has(s) && s.len == n &&
	    memcmp(rq->text.data + s.off, lit, n) == 0);
}

/* ---- life ---------------------------------------------------------------- */

struct expr_request *
expr_request_new(void)
{
	struct expr_request	*rq;

	rq = xcalloc(1, sizeof *rq);
	buf_init(&rq->text);
	expr_request_reset(rq);
	return (rq);
}

static void
rq_pairs_free(struct rq_pairs *ps)
{
	free(ps->v);
	free(ps->elems);
	free(ps->keys);
	free(ps->vals);
	free(ps->names);
	free(ps->values);
}

void
expr_request_free(struct expr_request *rq)
{
	struct rq_block	*b, *next;

	if (rq == NULL)
		return;
	buf_free(&rq->text);
	rq_pairs_free(&rq->headers);
	rq_pairs_free(&rq->args);
	rq_pairs_free(&rq->cookies);
	rq_pairs_free(&rq->resp);
	free(rq->sort);
	free(rq->sort_tmp);
	for (b = rq->blocks; b != NULL; b = next) {
		next = b->next;
		free(b->data);
		free(b);
	}
	if (rq->match != NULL)
		pcre2_match_data_free(rq->match);
	if (rq->mctx != NULL)
		pcre2_match_context_free(rq->mctx);
	if (rq->jit != NULL)
		pcre2_jit_stack_free(rq->jit);
	if (rq->dfa_mctx != NULL)
		pcre2_match_context_free(rq->dfa_mctx);
	free(rq->dfa_space);
	if (rq->pcre != NULL)
		pcre2_general_context_free(rq->pcre);
	free(rq);
}

void
expr_request_reset(struct expr_request *rq)
{
	buf_reset(&rq->text);
	rq->method = rq->scheme = rq->host = rq->path = rq->query = rq_none;
	rq->version = rq->country = rq_none;
	rq->has_query = rq->has_asnum = rq->has_timestamp = rq->has_ip = 0;
	rq->status = 0;
	rq->verified_bot = 0;
	rq->headers.n = rq->args.n = rq->cookies.n = rq->resp.n = 0;
	rq->dirty = 1;
}

/* ---- lists -------------------------------------------------------------- */

void
expr_request_assume_lists(struct expr_request *rq, const char *const *names,
    size_t n, uint64_t in)
{
	rq->lists = names;
	rq->nlists = MINIMUM(n, 64);
	rq->lists_in = in;
}

int
expr_request_in_list(const struct expr_request *rq, const char *name)
{
	size_t	i;

	for (i = 0; i < rq->nlists; i++)
		if (strcmp(rq->lists[i], name) == 0)
			return ((rq->lists_in >> i) & 1);
	return (0);
}

/* ---- setting ------------------------------------------------------------- */

static int
rq_scheme_ok(const char *p, size_t n)
{
	size_t	i;

	if (n == 0 || !((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z'))
		return (0);
	for (i = 1; i < n; i++)
		if (!((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z') &&
		    !(p[i] >= '0' && p[i] <= '9') && p[i] != '+' &&
		    p[i] != '-' && p[i] != '.')
			return (0);
	return (1);
}

/* No control characters, spaces or DEL: a URL or name we can read. */
static int
rq_clean(const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] <= 0x20 || p[i] == 0x7f)
			return (0);
	return (1);
}

/* The host of an authority: no user info, no port; IPv6 keeps brackets. */
static int
rq_host(const char *p, size_t n, const char **hp, size_t *hn)
{
	const char	*at, *end = p + n, *colon;

	if ((at = memrchr(p, '@', n)) != NULL)
		p = at + 1;
	if (p < end && *p == '[') {
		if ((colon = memchr(p, ']', end - p)) == NULL)
			return (-1);
		*hp = p;
		*hn = colon + 1 - p;
		return (0);
	}
	if ((colon = memchr(p, ':', end - p)) != NULL)
		end = colon;
	if (end == p)
		return (-1);
	*hp = p;
	*hn = end - p;
	return (0);
}

/* A path, "*", or (in a URL, straight after the host) a query. */
static int
rq_uri_ok(const char *p, size_t n, int absolute)
{
	return (rq_clean(p, n) && (n == 0 || p[0] == '/' || p[0] == '#' ||
	    (n == 1 && p[0] == '*') || (absolute && p[0] == '?')));
}

/* path?query#fragment, the fragment dropped; an empty path is "/". */
static void
rq_set_uri(struct expr_request *rq, const char *p, size_t n)
{
	const char	*q, *h;
	size_t		 pathn;

	if ((h = memchr(p, '#', n)) != NULL)
		n = h - p;
	q = memchr(p, '?', n);
	pathn = q != NULL ? (size_t)(q - p) : n;
	rq->path = pathn > 0 ? rq_add(rq, p, pathn) : rq_add(rq, "/", 1);
	rq->has_query = q != NULL;
	rq->query = q != NULL ? rq_add(rq, q + 1, n - pathn - 1) :
	    rq_add(rq, "", 0);
}

static void
rq_set_method(struct expr_request *rq, const char *method)
{
	if (method != NULL)
		rq->method = rq_add_upper(rq, method, strlen(method));
	else
		rq->method = rq_none;
}

/* Everything is checked before anything changes: a refused URL leaves
 * the request as it was. */
int
expr_request_set(struct expr_request *rq, const char *method, const char *url)
{
	const char	*sep, *auth, *rest, *host;
	size_t		 n, authn, hostn;

	if (url == NULL)
		return (-1);
	n = strlen(url);
	if (!rq_clean(url, n) || (sep = strstr(url, "://")) == NULL ||
	    !rq_scheme_ok(url, sep - url))
		return (-1);
	auth = sep + 3;
	authn = strcspn(auth, "/?#");
	rest = auth + authn;
	if (rq_host(auth, authn, &host, &hostn) == -1 ||
	    !rq_uri_ok(rest, strlen(rest), 1))
		return (-1);
	rq->dirty = 1;
	rq->scheme = rq_add_lower(rq, url, sep - url);
	rq->host = rq_add(rq, host, hostn);
	rq_set_uri(rq, rest, strlen(rest));
	rq_set_method(rq, method);
	return (0);
}

/* Whether set_parts takes them; the host without a port in *hp. */
static int
rq_parts_ok(const char **scheme, const char **host, const char **uri,
    const char **hp, size_t *hn)
{
	if (*scheme != NULL && **scheme == '\0')
		*scheme = NULL;
	if (*host != NULL && **host == '\0')
		*host = NULL;
	if (*uri == NULL)
		*uri = "/";
	if (*scheme != NULL && !rq_scheme_ok(*scheme, strlen(*scheme)))
		return (0);
	if (*host != NULL && (!rq_clean(*host, strlen(*host)) ||
	    rq_host(*host, strlen(*host), hp, hn) == -1))
		return (0);
	return (rq_uri_ok(*uri, strlen(*uri), 0));
}

int
expr_request_parts_ok(const char *scheme, const char *host, const char *uri)
{
	const char	*hp = NULL;
	size_t		 hn = 0;

	return (rq_parts_ok(&scheme, &host, &uri, &hp, &hn));
}

int
expr_request_set_parts(struct expr_request *rq, const char *method,
    const char *scheme, const char *host, const char *uri)
{
	const char	*hp = NULL;
	size_t		 hn = 0;

	if (!rq_parts_ok(&scheme, &host, &uri, &hp, &hn))
		return (-1);
	rq->dirty = 1;
	rq->scheme = scheme != NULL ?
	    rq_add_lower(rq, scheme, strlen(scheme)) : rq_none;
	rq->host = host != NULL ? rq_add(rq, hp, hn) : rq_none;
	rq_set_uri(rq, uri, strlen(uri));
	rq_set_method(rq, method);
	return (0);
}

/*
 * A dotted quad as inet_pton reads one (four decimal parts up to 255, no
 * leading zeros), without the copy and the call: most log lines carry
 * IPv4. -1 leaves the text to inet_pton.
 */
static int
rq_ip4(const char *p, size_t n, uint8_t *out)
{
	unsigned	part = 0, parts = 0, digits = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		if (p[i] >= '0' && p[i] <= '9') {
			if (digits > 0 && part == 0)
				return (-1);
			part = part * 10 + (unsigned)(p[i] - '0');
			if (part > 255 || ++digits > 3)
				return (-1);
		} else if (p[i] == '.' && digits > 0 && parts < 3) {
			out[parts++] = (uint8_t)part;
			part = digits = 0;
		} else
			return (-1);
	}
	if (digits == 0 || parts != 3)
		return (-1);
	out[3] = (uint8_t)part;
	return (0);
}

int
expr_ip_parse(const char *p, size_t n, struct expr_ip *ip)
{
	char	tmp[INET6_ADDRSTRLEN + 1];
	uint8_t	quad[4];

	if (n == 0 || n >= sizeof tmp)
		return (-1);
	if (n <= 15 && rq_ip4(p, n, quad) == 0) {
		memset(ip, 0, sizeof *ip);
		memcpy(ip->bytes, quad, 4);
		ip->family = 4;
		return (0);
	}
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	memset(ip, 0, sizeof *ip);
	if (memchr(tmp, ':', n) == NULL) {
		if (inet_pton(AF_INET, tmp, ip->bytes) != 1)
			return (-1);
		ip->family = 4;
		return (0);
	}
	if (inet_pton(AF_INET6, tmp, ip->bytes) != 1)
		return (-1);
	ip->family = 6;
	return (0);
}

int
expr_request_set_ip(struct expr_request *rq, const char *text)
{
	rq->dirty = 1;
	rq->has_ip = 0;
	if (text == NULL || expr_ip_parse(text, strlen(text), &rq->ip) == -1)
		return (-1);
	rq->has_ip = 1;
	return (0);
}

void
expr_request_set_country(struct expr_request *rq, const char *cc)
{
	rq->dirty = 1;
	rq->country = cc != NULL ? rq_add_upper(rq, cc, strlen(cc)) : rq_none;
}

void
expr_request_set_asnum(struct expr_request *rq, int64_t asnum)
{
	rq->dirty = 1;
	rq->asnum = asnum;
	rq->has_asnum = 1;
}

void
expr_request_set_timestamp(struct expr_request *rq, int64_t sec)
{
	rq->dirty = 1;
	rq->timestamp = sec;
	rq->has_timestamp = 1;
}

void
expr_request_set_verified_bot(struct expr_request *rq, int yes)
{
	rq->dirty = 1;
	rq->verified_bot = yes != 0;
}

void
expr_request_set_version(struct expr_request *rq, const char *version)
{
	rq->dirty = 1;
	rq->version = version != NULL ?
	    rq_add(rq, version, strlen(version)) : rq_none;
}

void
expr_request_set_status(struct expr_request *rq, int status)
{
	rq->dirty = 1;
	rq->status = status > 0 ? status : 0;
}

int
expr_request_has_response(const struct expr_request *rq)
{
	return (rq->status != 0 || rq->resp.n > 0);
}

static struct rq_pair *
rq_pair_new(struct rq_pairs *ps)
{
	if (ps->n == ps->size) {
		ps->size = ps->size == 0 ? 16 : ps->size * 2;
		ps->v = xreallocarray(ps->v, ps->size, sizeof *ps->v);
	}
	return (&ps->v[ps->n++]);
}

static void
rq_header(struct expr_request *rq, struct rq_pairs *ps, const char *name,
    const char *value)
{
	struct rq_pair	*p;
	size_t		 n;

	if (name == NULL || *name == '\0')
		return;
	if (value == NULL)
		value = "";
	n = strlen(name);
	p = rq_pair_new(ps);
	p->name = rq_add(rq, name, n);
	p->key = rq_add_lower(rq, name, n);
	p->value = rq_add(rq, value, strlen(value));
}

/* "a=1; b=2": names URL-decoded, values as they are. */
static void
rq_cookies(struct expr_request *rq, const char *v)
{
	struct rq_pair	*p;
	const char	*end, *eq;
	size_t		 n;

	while (*v != '\0') {
		while (*v == ' ' || *v == ';')
			v++;
		n = strcspn(v, ";");
		end = v + n;
		while (end > v && end[-1] == ' ')
			end--;
		if (end > v) {
			if ((eq = memchr(v, '=', end - v)) == NULL)
				eq = end;
			if (eq > v) {
				p = rq_pair_new(&rq->cookies);
				p->key = rq_add_urldecoded(rq, v, eq - v);
				p->name = p->key;
				p->value = eq < end ?
				    rq_add(rq, eq + 1, end - eq - 1) :
				    rq_add(rq, "", 0);
			}
		}
		v += n;
	}
}

void
expr_request_add_header(struct expr_request *rq, const char *name,
    const char *value)
{
	rq->dirty = 1;
	rq_header(rq, &rq->headers, name, value);
	if (name != NULL && value != NULL && strcasecmp(name, "cookie") == 0)
		rq_cookies(rq, value);
}

void
expr_request_add_response_header(struct expr_request *rq, const char *name,
    const char *value)
{
	rq->dirty = 1;
	rq_header(rq, &rq->resp, name, value);
}

/* ---- building the fields ------------------------------------------------- */

static const char *
rq_ptr(const struct expr_request *rq, struct rq_str s)
{
	return (rq->text.data + s.off);
}

static void
rq_bytes(const struct expr_request *rq, struct expr_val *v, struct rq_str s)
{
	if (!rq_has(s)) {
		v->kind = EXPR_V_MISSING;
		return;
	}
	v->kind = EXPR_V_BYTES;
	v->u.s.p = rq->text.data + s.off;
	v->u.s.n = s.len;
}

static int
rq_keycmp(const struct expr_request *rq, const struct rq_pair *a,
    const struct rq_pair *b)
{
	size_t	n = MINIMUM(a->key.len, b->key.len);
	int	c;

	if ((c = memcmp(rq_ptr(rq, a->key), rq_ptr(rq, b->key), n)) != 0)
		return (c);
	return (a->key.len < b->key.len ? -1 : a->key.len > b->key.len);
}

/* Stable bottom-up merge sort of rq->sort[0..n) by key; no allocation once
 * the index arrays are large enough (a log line's headers). */
static void
rq_sort(struct expr_request *rq, const struct rq_pairs *ps)
{
	uint32_t	*a, *b, *t;
	size_t		 n = ps->n, w, lo, mid, hi, i, j, k;

	if (n > rq->sort_size) {
		rq->sort_size = n;
		rq->sort = xreallocarray(rq->sort, n, sizeof *rq->sort);
		rq->sort_tmp = xreallocarray(rq->sort_tmp, n,
		    sizeof *rq->sort_tmp);
	}
	a = rq->sort;
	b = rq->sort_tmp;
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = MINIMUM(lo + w, n);
			hi = MINIMUM(lo + 2 * w, n);
			i = lo;
			j = mid;
			k = lo;
			while (i < mid && j < hi) {
				if (rq_keycmp(rq, &ps->v[a[j]],
				    &ps->v[a[i]]) < 0)
					b[k++] = a[j++];
				else
					b[k++] = a[i++];
			}
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		t = a;
		a = b;
		b = t;
	}
	if (a != rq->sort)
		memcpy(rq->sort, a, n * sizeof *a);
}

static void
rq_build_map(struct expr_request *rq, struct rq_pairs *ps)
{
	struct rq_pair	*p, *prev = NULL;
	size_t		 i, nk = 0, first = 0;

	if (ps->n > ps->built || ps->built == 0) {
		ps->built = MAXIMUM(ps->n, 16);
		ps->elems = xreallocarray(ps->elems, ps->built,
		    sizeof *ps->elems);
		ps->keys = xreallocarray(ps->keys, ps->built, sizeof *ps->keys);
		ps->vals = xreallocarray(ps->vals, ps->built, sizeof *ps->vals);
		ps->names = xreallocarray(ps->names, ps->built,
		    sizeof *ps->names);
		ps->values = xreallocarray(ps->values, ps->built,
		    sizeof *ps->values);
	}
	rq_sort(rq, ps);
	for (i = 0; i < ps->n; i++) {
		p = &ps->v[rq->sort[i]];
		rq_bytes(rq, &ps->elems[i], p->value);
		if (prev == NULL || rq_keycmp(rq, prev, p) != 0) {
			if (prev != NULL)
				ps->vals[nk - 1].u.arr.n = i - first;
			rq_bytes(rq, &ps->keys[nk], p->key);
			ps->vals[nk].kind = EXPR_V_ARRAY;
			ps->vals[nk].u.arr.v = &ps->elems[i];
			nk++;
			first = i;
		}
		prev = p;
	}
	if (nk > 0)
		ps->vals[nk - 1].u.arr.n = ps->n - first;
	for (i = 0; i < ps->n; i++) {
		rq_bytes(rq, &ps->names[i], ps->v[i].name);
		rq_bytes(rq, &ps->values[i], ps->v[i].value);
	}
	ps->map.keys = ps->keys;
	ps->map.vals = ps->vals;
	ps->map.n = nk;
}

static void
rq_array(struct expr_val *v, const struct expr_val *items, size_t n)
{
	v->kind = EXPR_V_ARRAY;
	v->u.arr.v = items;
	v->u.arr.n = n;
}

static void
rq_mapval(struct expr_val *v, const struct rq_pairs *ps)
{
	v->kind = EXPR_V_MAP;
	v->u.map = &ps->map;
}

/* "a=1&b&a=2": keys and values as written, repeated keys in order. */
static void
rq_parse_args(struct expr_request *rq)
{
	struct rq_pair	*p;
	struct rq_str	 q = rq->query;
	uint32_t	 off = q.off, end = q.off + q.len, n;
	const char	*s, *eq;

	if (!rq->has_query)
		return;
	while (off < end) {
		s = rq->text.data + off;
		n = end - off;
		if ((eq = memchr(s, '&', n)) != NULL)
			n = (uint32_t)(eq - s);
		if (n > 0) {
			p = rq_pair_new(&rq->args);
			if ((eq = memchr(s, '=', n)) == NULL) {
				p->key.off = off;
				p->key.len = n;
				p->value.off = off + n;
				p->value.len = 0;
			} else {
				p->key.off = off;
				p->key.len = (uint32_t)(eq - s);
				p->value.off = off + p->key.len + 1;
				p->value.len = n - p->key.len - 1;
			}
			p->name = p->key;
		}
		off += n + 1;
	}
}

/* The value of all headers of one (lower-case) name, joined; "" if none. */
static struct rq_str
rq_joined(struct expr_request *rq, const char *key, const char *sep)
{
	struct rq_str	 s;
	size_t		 i, start = 0;
	int		 found = 0;

	for (i = 0; i < rq->headers.n; i++) {
		if (!rq_eq(rq, rq->headers.v[i].key, key))
			continue;
		if (!found) {
			start = rq->text.len;
			found = 1;
		} else
			rq_put(rq, sep, strlen(sep));
		rq_append(rq, rq->headers.v[i].value);
	}
	if (!found)
		return (rq_add(rq, "", 0));
	s.off = (uint32_t)start;
	s.len = (uint32_t)(rq->text.len - start);
	return (s);
}

static struct rq_str
rq_host_from_header(struct expr_request *rq)
{
	const struct rq_pair	*p;
	const char		*hp;
	size_t			 i, hn;
	struct rq_str		 s = rq_none;

	for (i = 0; i < rq->headers.n; i++) {
		p = &rq->headers.v[i];
		if (!rq_eq(rq, p->key, "host") || p->value.len == 0)
			continue;
		if (rq_host(rq_ptr(rq, p->value), p->value.len, &hp,
		    &hn) == 0) {
			s.off = (uint32_t)(hp - rq->text.data);
			s.len = (uint32_t)hn;
		}
		break;
	}
	return (s);
}

/* The path's extension: after the last dot of the last segment, lower. */
static struct rq_str
rq_extension(struct expr_request *rq)
{
	const char	*p, *slash, *dot;
	size_t		 n;
	char		*d;
	struct rq_str	 s;
	uint32_t	 i;

	if (!rq_has(rq->path))
		return (rq_none);
	p = rq_ptr(rq, rq->path);
	n = rq->path.len;
	slash = memrchr(p, '/', n);
	if (slash != NULL) {
		n -= slash + 1 - p;
		p = slash + 1;
	}
	if ((dot = memrchr(p, '.', n)) == NULL)
		return (rq_add(rq, "", 0));
	s.off = (uint32_t)(dot + 1 - rq->text.data);
	s.len = (uint32_t)(n - (dot + 1 - p));
	/* Lower-cased in a copy: the path keeps its case. */
	i = (uint32_t)rq->text.len;
	rq_append(rq, s);
	s.off = i;
	d = rq->text.data + s.off;
	for (i = 0; i < s.len; i++)
		if (d[i] >= 'A' && d[i] <= 'Z')
			d[i] += 'a' - 'A';
	return (s);
}

/*
 * Fields are derived when first read, in groups: a log replay's rules read
 * a few of them, and building the rest (the full URI, joined headers,
 * sorted maps) would be most of a request's cost. The text they copy is
 * bounded by what the request holds, so room for all of it is made before
 * the first: values already handed out then never move.
 */
enum rq_group {
	RQ_G_NONE = 0,		/* never set: always missing */
	RQ_G_BASE,
	RQ_G_URI,
	RQ_G_FULL_URI,
	RQ_G_EXTENSION,
	RQ_G_USER_AGENT,
	RQ_G_COOKIE,
	RQ_G_REFERER,
	RQ_G_XFF,
	RQ_G_ARGS,
	RQ_G_HEADERS,
	RQ_G_COOKIES,
	RQ_G_RESPONSE
};

static const uint8_t rq_groups[EXPR_F__COUNT] = {
	[EXPR_F_HTTP_HOST] = RQ_G_BASE,
	[EXPR_F_URI_PATH] = RQ_G_BASE,
	[EXPR_F_URI_QUERY] = RQ_G_BASE,
	[EXPR_F_METHOD] = RQ_G_BASE,
	[EXPR_F_VERSION] = RQ_G_BASE,
	[EXPR_F_IP_COUNTRY] = RQ_G_BASE,
	[EXPR_F_HEADERS_TRUNCATED] = RQ_G_BASE,
	[EXPR_F_RESPONSE_CODE] = RQ_G_BASE,
	[EXPR_F_TIMESTAMP_SEC] = RQ_G_BASE,
	[EXPR_F_IP_SRC] = RQ_G_BASE,
	[EXPR_F_IP_ASNUM] = RQ_G_BASE,
	[EXPR_F_SSL] = RQ_G_BASE,
	[EXPR_F_VERIFIED_BOT] = RQ_G_BASE,
	[EXPR_F_URI] = RQ_G_URI,
	[EXPR_F_FULL_URI] = RQ_G_FULL_URI,
	[EXPR_F_URI_PATH_EXTENSION] = RQ_G_EXTENSION,
	[EXPR_F_USER_AGENT] = RQ_G_USER_AGENT,
	[EXPR_F_COOKIE] = RQ_G_COOKIE,
	[EXPR_F_REFERER] = RQ_G_REFERER,
	[EXPR_F_X_FORWARDED_FOR] = RQ_G_XFF,
	[EXPR_F_URI_ARGS] = RQ_G_ARGS,
	[EXPR_F_URI_ARGS_NAMES] = RQ_G_ARGS,
	[EXPR_F_URI_ARGS_VALUES] = RQ_G_ARGS,
	[EXPR_F_HEADERS] = RQ_G_HEADERS,
	[EXPR_F_HEADERS_NAMES] = RQ_G_HEADERS,
	[EXPR_F_HEADERS_VALUES] = RQ_G_HEADERS,
	[EXPR_F_COOKIES] = RQ_G_COOKIES,
	[EXPR_F_RESPONSE_HEADERS] = RQ_G_RESPONSE,
	[EXPR_F_RESPONSE_HEADERS_NAMES] = RQ_G_RESPONSE,
	[EXPR_F_RESPONSE_HEADERS_VALUES] = RQ_G_RESPONSE,
};

/*
 * Room for every group's copies: the URI and the full URI copy the path,
 * query, scheme and host (at most twice the text), the extension part of
 * the path, the joined headers their values and a separator each, and
 * every piece ends with a NUL.
 */
static void
rq_start(struct expr_request *rq)
{
	size_t	len = rq->text.len;

	buf_reserve(&rq->text, 4 * len + 3 * rq->headers.n + 64);
	rq->base = rq->text.data;
	rq->ready = 1U << RQ_G_NONE;
	rq->dirty = 0;
	rq->built++;
}

static void
rq_int(struct expr_val *v, int has, int64_t i)
{
	v->kind = has ? EXPR_V_INT : EXPR_V_MISSING;
	v->u.i = i;
}

static void
rq_bool(struct expr_val *v, int b)
{
	v->kind = EXPR_V_BOOL;
	v->u.b = b;
}

static void
rq_build_base(struct expr_request *rq)
{
	struct expr_val	*f = rq->fields;

	rq->host_seen = rq->host;
	if (!rq_has(rq->host_seen))
		rq->host_seen = rq_host_from_header(rq);
	rq_bytes(rq, &f[EXPR_F_HTTP_HOST], rq->host_seen);
	rq_bytes(rq, &f[EXPR_F_URI_PATH], rq->path);
	rq_bytes(rq, &f[EXPR_F_URI_QUERY], rq->query);
	rq_bytes(rq, &f[EXPR_F_METHOD], rq->method);
	rq_bytes(rq, &f[EXPR_F_VERSION], rq->version);
	rq_bytes(rq, &f[EXPR_F_IP_COUNTRY], rq->country);
	rq_bool(&f[EXPR_F_HEADERS_TRUNCATED], 0);
	rq_int(&f[EXPR_F_RESPONSE_CODE], rq->status > 0, rq->status);
	rq_int(&f[EXPR_F_TIMESTAMP_SEC], rq->has_timestamp, rq->timestamp);
	rq_int(&f[EXPR_F_IP_ASNUM], rq->has_asnum, rq->asnum);
	if (rq->has_ip) {
		f[EXPR_F_IP_SRC].kind = EXPR_V_IP;
		f[EXPR_F_IP_SRC].u.ip = rq->ip;
	} else
		f[EXPR_F_IP_SRC].kind = EXPR_V_MISSING;
	rq_bool(&f[EXPR_F_SSL], rq_eq(rq, rq->scheme, "https"));
	rq_bool(&f[EXPR_F_VERIFIED_BOT], rq->verified_bot);
}

/* path?query, or none without a path. */
static struct rq_str
rq_uri(struct expr_request *rq)
{
	struct rq_str	uri = rq_none;
	size_t		start = rq->text.len;

	if (!rq_has(rq->path))
		return (uri);
	rq_append(rq, rq->path);
	if (rq->has_query) {
		rq_put(rq, "?", 1);
		rq_append(rq, rq->query);
	}
	uri.off = (uint32_t)start;
	uri.len = (uint32_t)(rq->text.len - start);
	return (uri);
}

static struct rq_str
rq_full_uri(struct expr_request *rq)
{
	struct rq_str	full = rq_none, uri;
	size_t		start = rq->text.len;

	if (!rq_has(rq->path) || !rq_has(rq->scheme) ||
	    !rq_has(rq->host_seen))
		return (full);
	rq_append(rq, rq->scheme);
	rq_put(rq, "://", 3);
	rq_append(rq, rq->host_seen);
	uri = rq_uri(rq);
	full.off = (uint32_t)start;
	full.len = (uint32_t)(uri.off + uri.len - start);
	return (full);
}

/* The sorted map of pairs and its two arrays, into f[0], f[1], f[2]:
 * the fields of a map and of its names and values follow each other. */
_Static_assert(EXPR_F_URI_ARGS_VALUES == EXPR_F_URI_ARGS + 2 &&
    EXPR_F_HEADERS_VALUES == EXPR_F_HEADERS + 2 &&
    EXPR_F_RESPONSE_HEADERS_VALUES == EXPR_F_RESPONSE_HEADERS + 2,
    "a map's fields in a row");
static void
rq_map_fields(struct expr_request *rq, struct rq_pairs *ps, struct expr_val *f)
{
	rq_build_map(rq, ps);
	rq_mapval(&f[0], ps);
	rq_array(&f[1], ps->names, ps->n);
	rq_array(&f[2], ps->values, ps->n);
}

static void
rq_build(struct expr_request *rq, enum rq_group g)
{
	struct expr_val	*f = rq->fields;

	if (g != RQ_G_BASE && !(rq->ready & (1U << RQ_G_BASE)))
		rq_build(rq, RQ_G_BASE);
	switch (g) {
	case RQ_G_NONE:
		break;
	case RQ_G_BASE:
		rq_build_base(rq);
		break;
	case RQ_G_URI:
		rq_bytes(rq, &f[EXPR_F_URI], rq_uri(rq));
		break;
	case RQ_G_FULL_URI:
		rq_bytes(rq, &f[EXPR_F_FULL_URI], rq_full_uri(rq));
		break;
	case RQ_G_EXTENSION:
		rq_bytes(rq, &f[EXPR_F_URI_PATH_EXTENSION], rq_extension(rq));
		break;
	case RQ_G_USER_AGENT:
		rq_bytes(rq, &f[EXPR_F_USER_AGENT],
		    rq_joined(rq, "user-agent", ", "));
		break;
	case RQ_G_COOKIE:
		rq_bytes(rq, &f[EXPR_F_COOKIE], rq_joined(rq, "cookie", "; "));
		break;
	case RQ_G_REFERER:
		rq_bytes(rq, &f[EXPR_F_REFERER],
		    rq_joined(rq, "referer", ", "));
		break;
	case RQ_G_XFF:
		rq_bytes(rq, &f[EXPR_F_X_FORWARDED_FOR],
		    rq_joined(rq, "x-forwarded-for", ", "));
		break;
	case RQ_G_ARGS:
		rq->args.n = 0;
		rq_parse_args(rq);
		rq_map_fields(rq, &rq->args, &f[EXPR_F_URI_ARGS]);
		if (!rq_has(rq->path)) {
			f[EXPR_F_URI_ARGS].kind = EXPR_V_MISSING;
			f[EXPR_F_URI_ARGS_NAMES].kind = EXPR_V_MISSING;
			f[EXPR_F_URI_ARGS_VALUES].kind = EXPR_V_MISSING;
		}
		break;
	case RQ_G_HEADERS:
		rq_map_fields(rq, &rq->headers, &f[EXPR_F_HEADERS]);
		break;
	case RQ_G_COOKIES:
		rq_build_map(rq, &rq->cookies);
		rq_mapval(&f[EXPR_F_COOKIES], &rq->cookies);
		break;
	case RQ_G_RESPONSE:
		rq_map_fields(rq, &rq->resp, &f[EXPR_F_RESPONSE_HEADERS]);
		break;
	}
	if (rq->text.data != rq->base)
		fatalx("expr: a request's text moved while it was read");
	rq->ready |= 1U << g;
}

const struct expr_val *
expr_request_field(struct expr_request *rq, enum expr_field field)
{
	static const struct expr_val	missing = { .kind = EXPR_V_MISSING };
	unsigned			g;

	if (rq->dirty)
		rq_start(rq);
	if ((int)field <= EXPR_F_NONE || field >= EXPR_F__COUNT)
		return (&missing);
	g = rq_groups[field];
	if (!(rq->ready & (1U << g)))
		rq_build(rq, g);
	return (&rq->fields[field]);
}

static uint64_t
rq_hash(uint64_t h, const void *data, size_t n)
{
	const char	*p = data;
	uint64_t	 w;

	h ^= n;
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	for (w = 0; n > 0; n--)
		w = w << 8 | (unsigned char)p[n - 1];
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return (h ^ (h >> 29));
}

uint64_t
expr_request_field_hash(struct expr_request *rq, enum expr_field field)
{
	const struct expr_val	*v;
	uint64_t		 h;

	if ((int)field <= EXPR_F_NONE || field >= EXPR_F__COUNT)
		return (0x9e3779b97f4a7c15ULL);
	/* built is never 0 once fields[] exist: hashed[] starts stale. */
	if (!rq->dirty && rq->hashed[field] == rq->built)
		return (rq->hash[field]);
	v = expr_request_field(rq, field);
	h = 0x9e3779b97f4a7c15ULL + (uint64_t)v->kind;
	switch (v->kind) {
	case EXPR_V_BOOL:
		h = rq_hash(h, &v->u.b, sizeof v->u.b);
		break;
	case EXPR_V_INT:
		h = rq_hash(h, &v->u.i, sizeof v->u.i);
		break;
	case EXPR_V_BYTES:
		h = rq_hash(h, v->u.s.p, v->u.s.n);
		break;
	case EXPR_V_IP:
		h = rq_hash(h + v->u.ip.family, v->u.ip.bytes,
		    sizeof v->u.ip.bytes);
		break;
	default:	/* missing, or a map or array: its kind only */
		break;
	}
	rq->hash[field] = h;
	rq->hashed[field] = rq->built;
	return (h);
}

/* ---- scratch ------------------------------------------------------------ */

void *
expr_request_scratch(struct expr_request *rq, size_t n)
{
	struct rq_block	*b;

	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	for (;;) {
		b = rq->cur;
		if (b != NULL && b->size - b->used >= n) {
			b->used += n;
			return (b->data + b->used - n);
		}
		if (b != NULL && b->next != NULL && b->next->size >= n) {
			rq->cur = b->next;
			rq->cur->used = 0;
			continue;
		}
		b = xcalloc(1, sizeof *b);
		b->size = MAXIMUM(n, RQ_BLOCK);
		b->data = xmalloc(b->size);
		if (rq->cur == NULL) {
			b->next = rq->blocks;
			rq->blocks = b;
		} else {
			b->next = rq->cur->next;
			rq->cur->next = b;
		}
		rq->cur = b;
	}
}

void
expr_request_scratch_reset(struct expr_request *rq)
{
	rq->cur = rq->blocks;
	if (rq->cur != NULL)
		rq->cur->used = 0;
}

/*
 * PCRE2 allocates through these for match data, and for the backtracking
 * frames pcre2_match() keeps in it (10.41 and later): the memory is ours
 * to account for, and kept with the request from one match to the next.
 */
static void *
rq_pcre_malloc(size_t n, void *arg)
{
	(void)arg;
	return (malloc(n));
}

static void
rq_pcre_free(void *p, void *arg)
{
	(void)arg;
	free(p);
}

static pcre2_general_context *
rq_pcre(struct expr_request *rq)
{
	if (rq->pcre == NULL)
		rq->pcre = pcre2_general_context_create(rq_pcre_malloc,
		    rq_pcre_free, NULL);
	return (rq->pcre);
}

pcre2_match_data *
expr_request_match_data(struct expr_request *rq, uint32_t pairs)
{
	if (pairs == 0)
		pairs = 1;
	if (rq->match != NULL && pcre2_get_ovector_count(rq->match) >= pairs)
		return (rq->match);
	if (rq_pcre(rq) == NULL)
		return (NULL);
	if (rq->match != NULL)
		pcre2_match_data_free(rq->match);
	rq->match = pcre2_match_data_create(pairs, rq->pcre);
	return (rq->match);
}

/*
 * Limits keep one pathological pattern from stalling a whole log replay;
 * the JIT stack (PCRE2's default is 32 KiB) is grown once, here.
 */
pcre2_match_context *
expr_request_match_context(struct expr_request *rq)
{
	if (rq->mctx != NULL)
		return (rq->mctx);
	if (rq_pcre(rq) == NULL ||
	    (rq->mctx = pcre2_match_context_create(rq->pcre)) == NULL)
		return (NULL);
	pcre2_set_match_limit(rq->mctx, RQ_MATCH_LIMIT);
	pcre2_set_heap_limit(rq->mctx, RQ_HEAP_LIMIT);
	if ((rq->jit = pcre2_jit_stack_create(32 * 1024, RQ_JIT_STACK,
	    rq->pcre)) != NULL)
		pcre2_jit_stack_assign(rq->mctx, NULL, rq->jit);
	return (rq->mctx);
}

/* ---- regexes ------------------------------------------------------------- */

/*
 * PCRE2's JIT (or its interpreter) backtracks: a pattern like (a|aa)+b can
 * take time exponential in the value's length, which the match limits
 * above cut short, and the service's linear engine has no such case. Its
 * DFA matcher (pcre2_dfa_match) tries the alternatives side by side and
 * cannot blow up so; it finds no captures, which the language never needs
 * (its regexes are refused back-references and look-around), but it is
 * slower on ordinary patterns. So the JIT goes first, and the DFA answers
 * when the JIT reaches a limit; a regex that has once is given to the DFA
 * first on this request object. The answer is unknown only when both
 * reach their limits, whichever went first: a log's report does not
 * depend on how its requests were shared among threads.
 */

/* Whether re was sent to the DFA first; with add, from now on. */
static int
rq_dfa_first(struct expr_request *rq, const pcre2_code *re, int add)
{
	size_t	i;

	for (i = 0; i < rq->ndfa_first; i++)
		if (rq->dfa_first[i] == re)
			return (1);
	if (add && rq->ndfa_first < RQ_DFA_FIRST)
		rq->dfa_first[rq->ndfa_first++] = re;
	return (0);
}

/* 1 a match, 0 none, -1 a limit reached (or no memory). */
static int
rq_jit(struct expr_request *rq, const pcre2_code *re, const char *p,
    size_t n, pcre2_match_data *md)
{
	pcre2_match_context	*mc;
	int			 rc;

	if ((mc = expr_request_match_context(rq)) == NULL)
		return (-1);
	/* 0 is a match whose captures did not all fit. */
	rc = pcre2_match(re, (PCRE2_SPTR)p, n, 0, 0, md, mc);
	return (rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1);
}

/*
 * The DFA's limit counts the places a match is tried from, each costing
 * up to the value's length: RQ_DFA_STEPS in all. Its shortest match is
 * enough to say there is one.
 */
static int
rq_dfa(struct expr_request *rq, const pcre2_code *re, const char *p,
    size_t n, pcre2_match_data *md)
{
	int	rc;

	if (rq->dfa_mctx == NULL && (rq_pcre(rq) == NULL ||
	    (rq->dfa_mctx = pcre2_match_context_create(rq->pcre)) == NULL))
		return (-1);
	if (rq->dfa_space == NULL)
		rq->dfa_space = xcalloc(RQ_DFA_SPACE, sizeof *rq->dfa_space);
	pcre2_set_match_limit(rq->dfa_mctx, (uint32_t)MAXIMUM(1,
	    RQ_DFA_STEPS / (n + 1)));
	rc = pcre2_dfa_match(re, (PCRE2_SPTR)p, n, 0, PCRE2_DFA_SHORTEST, md,
	    rq->dfa_mctx, rq->dfa_space, RQ_DFA_SPACE);
	return (rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1);
}

int
expr_request_regex(struct expr_request *rq, const pcre2_code *re,
    const char *p, size_t n, uint32_t pairs)
{
	pcre2_match_data	*md;
	int			 r;

	if ((md = expr_request_match_data(rq, pairs)) == NULL)
		return (-1);
	if (rq_dfa_first(rq, re, 0)) {
		if ((r = rq_dfa(rq, re, p, n, md)) != -1)
			return (r);
		return (rq_jit(rq, re, p, n, md));
	}
	if ((r = rq_jit(rq, re, p, n, md)) != -1)
		return (r);
	(void)rq_dfa_first(rq, re, 1);
	return (rq_dfa(rq, re, p, n, md));
}
