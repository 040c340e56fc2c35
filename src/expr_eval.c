/*
 * Evaluating a compiled Rules language expression against a request
 * (api-map-next 12.2): comparisons, wildcards, regexes, sets, [*] mapping
 * inside any()/all(), missing values; and explain, which evaluates the same
 * way and reports every logical node with its value.
 *
 * The tree is read only; function results and explain's texts live in the
 * request's scratch space, so a warm request evaluates with no allocation.
 */
#include "config.h"

#include <sys/types.h>

#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "expr.h"
#include "expr_ast.h"
#include "expr_value.h"
#include "xmalloc.h"

#define EV_ARGS		8	/* arguments evaluated on the stack */
#define EV_SEEN_MAX	120	/* bytes of a value explain shows */

struct ev_ctx {
	struct expr_request	*rq;
	const struct expr	*e;
	size_t			 elem;		/* element under any()/all() */
	int			 mapping;	/* elem is meaningful */

	/* Explain: each node's value and left value by node id. */
	int			 explain;
	enum expr_value		*vals;
	const char		**seen;
};

static enum expr_value	ev_bool(struct ev_ctx *, const struct expr_node *);
static void	ev_value(struct ev_ctx *, const struct expr_node *,
		    struct expr_val *);

static int
ev_tolower(int c)
{
	return (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
}

/* ---- wildcards ---------------------------------------------------------- */

static int
ev_seg_at(const struct expr_bytes *seg, const char *p, int nocase)
{
	size_t	i;

	if (!nocase)
		return (memcmp(p, seg->s, seg->len) == 0);
	for (i = 0; i < seg->len; i++)
		if (ev_tolower((unsigned char)p[i]) != (unsigned char)seg->s[i])
			return (0);
	return (1);
}

/* The leftmost place of seg in [p, end), or NULL. */
static const char *
ev_seg_find(const struct expr_bytes *seg, const char *p, const char *end,
    int nocase)
{
	if ((size_t)(end - p) < seg->len)
		return (NULL);
	if (seg->len == 0)
		return (p);
	if (!nocase)
		return (memmem(p, end - p, seg->s, seg->len));
	for (; (size_t)(end - p) >= seg->len; p++)
		if (ev_seg_at(seg, p, 1))
			return (p);
	return (NULL);
}

/*
 * The whole value against segments split at stars. The first and last
 * segments are anchored unless a star opens or closes the pattern; the ones
 * between are found leftmost, which is enough when the only metacharacter
 * is a star.
 */
static int
ev_wildcard(const struct expr_wild *w, const char *p, size_t n)
{
	const char	*lo = p, *hi = p + n, *at;
	size_t		 first = 0, last = w->nsegs, k;

	if (w->nsegs == 0)
		return (w->lead || w->trail || n == 0);
	if (!w->lead) {
		if (n < w->segs[0].len || !ev_seg_at(&w->segs[0], p, w->nocase))
			return (0);
		lo += w->segs[0].len;
		first = 1;
	}
	if (!w->trail) {
		if (last == first)	/* one segment, no star at all */
			return (lo == hi);
		if ((size_t)(hi - lo) < w->segs[last - 1].len ||
		    !ev_seg_at(&w->segs[last - 1], hi - w->segs[last - 1].len,
		    w->nocase))
			return (0);
		hi -= w->segs[last - 1].len;
		last--;
	}
	for (k = first; k < last; k++) {
		if ((at = ev_seg_find(&w->segs[k], lo, hi, w->nocase)) == NULL)
			return (0);
		lo = at + w->segs[k].len;
	}
	return (1);
}

/* ---- sets --------------------------------------------------------------- */

static int
ev_bytes_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int	c;

	if ((c = memcmp(a, b, MINIMUM(an, bn))) != 0)
		return (c);
	return (an < bn ? -1 : an > bn);
}

static int
ev_in_strs(const struct expr_set *set, const char *p, size_t n)
{
	size_t	lo = 0, hi = set->nstrs, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = ev_bytes_cmp(p, n, set->strs[mid].s, set->strs[mid].len);
		if (c == 0)
			return (1);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (0);
}

/* Ranges sorted by lo and merged: the last one starting at or before x. */
static int
ev_in_ints(const struct expr_set *set, int64_t x)
{
	size_t	lo = 0, hi = set->nints, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (set->ints[mid].lo <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo > 0 && x <= set->ints[lo - 1].hi);
}

static int
ev_in_ip(const struct expr_set *set, const struct expr_ip *ip)
{
	size_t		lo = 0, hi, mid;
	uint32_t	x;

	if (ip->family == 4) {
		memcpy(&x, ip->bytes, 4);
		x = ntohl(x);
		hi = set->nv4;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (set->v4[mid].lo <= x)
				lo = mid + 1;
			else
				hi = mid;
		}
		return (lo > 0 && x <= set->v4[lo - 1].hi);
	}
	hi = set->nv6;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (memcmp(set->v6[mid].lo, ip->bytes, 16) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo > 0 && memcmp(ip->bytes, set->v6[lo - 1].hi, 16) <= 0);
}

static int
ev_in(const struct expr_set *set, const struct expr_val *v)
{
	switch (v->kind) {
	case EXPR_V_BYTES:
		return (ev_in_strs(set, v->u.s.p, v->u.s.n));
	case EXPR_V_INT:
		return (ev_in_ints(set, v->u.i));
	case EXPR_V_IP:
		return (ev_in_ip(set, &v->u.ip));
	default:
		return (0);
	}
}

/* ---- comparisons -------------------------------------------------------- */

/* <0, 0, >0; *ok = 0 when the two cannot be compared. */
static int
ev_order(const struct expr_val *v, const struct expr_lit *lit, int *ok)
{
	*ok = 1;
	if (v->kind == EXPR_V_BYTES && lit->kind == EXPR_LIT_STRING)
		return (ev_bytes_cmp(v->u.s.p, v->u.s.n, lit->s, lit->len));
	if (v->kind == EXPR_V_INT && lit->kind == EXPR_LIT_INT)
		return (v->u.i < lit->i ? -1 : v->u.i > lit->i);
	/* Addresses of two families differ, and IPv4 sorts first. */
	if (v->kind == EXPR_V_IP && lit->kind == EXPR_LIT_IP)
		return (v->u.ip.family != lit->ip.family ?
		    v->u.ip.family - lit->ip.family :
		    memcmp(v->u.ip.bytes, lit->ip.bytes,
		    v->u.ip.family == 4 ? 4 : 16));
	*ok = 0;
	return (0);
}

/* EXPR_TRUE, EXPR_FALSE, or EXPR_UNKNOWN when matching reached PCRE2's
 * limits (expr_request_regex). */
static enum expr_value
ev_matches(struct ev_ctx *ctx, const pcre2_code *re, const char *p,
    size_t n)
{
	int	r;

	if (re == NULL)
		return (EXPR_FALSE);
	r = expr_request_regex(ctx->rq, re, p, n, ctx->e->max_ovector);
	return (r < 0 ? EXPR_UNKNOWN : r ? EXPR_TRUE : EXPR_FALSE);
}

/* 1 true, 0 false, EXPR_UNKNOWN a regex that reached its limits. */
static int
ev_compare(struct ev_ctx *ctx, const struct expr_node *n,
    const struct expr_val *v)
{
	const struct expr_rhs	*rhs = &n->rhs;
	int			 c, ok;

	switch (n->op) {
	case EXPR_OP_EQ:
	case EXPR_OP_NE:
		c = ev_order(v, &rhs->lit, &ok);
		return (ok && (n->op == EXPR_OP_EQ ? c == 0 : c != 0));
	case EXPR_OP_LT:
		c = ev_order(v, &rhs->lit, &ok);
		return (ok && c < 0);
	case EXPR_OP_LE:
		c = ev_order(v, &rhs->lit, &ok);
		return (ok && c <= 0);
	case EXPR_OP_GT:
		c = ev_order(v, &rhs->lit, &ok);
		return (ok && c > 0);
	case EXPR_OP_GE:
		c = ev_order(v, &rhs->lit, &ok);
		return (ok && c >= 0);
	case EXPR_OP_CONTAINS:
		return (v->kind == EXPR_V_BYTES && (rhs->lit.len == 0 ||
		    memmem(v->u.s.p, v->u.s.n, rhs->lit.s, rhs->lit.len) !=
		    NULL));
	case EXPR_OP_MATCHES:
		return (v->kind == EXPR_V_BYTES ? (int)ev_matches(ctx, rhs->re,
		    v->u.s.p, v->u.s.n) : 0);
	case EXPR_OP_WILDCARD:
	case EXPR_OP_STRICT_WILDCARD:
		return (v->kind == EXPR_V_BYTES &&
		    ev_wildcard(&rhs->wild, v->u.s.p, v->u.s.n));
	case EXPR_OP_IN:
		return (ev_in(&rhs->set, v));
	case EXPR_OP_IN_LIST:
		/* Named lists live in the account and are not read here:
		 * what the caller assumes (expr_unknown.c). */
		return (expr_request_in_list(ctx->rq, rhs->list));
	case EXPR_OP_BITAND:
		return (v->kind == EXPR_V_INT && (v->u.i & rhs->lit.i) != 0);
	default:
		return (0);
	}
}

/* ---- values ------------------------------------------------------------- */

static void
ev_missing(struct expr_val *v)
{
	v->kind = EXPR_V_MISSING;
}

static void
ev_lit(const struct expr_lit *lit, struct expr_val *v)
{
	switch (lit->kind) {
	case EXPR_LIT_STRING:
		v->kind = EXPR_V_BYTES;
		v->u.s.p = lit->s;
		v->u.s.n = lit->len;
		break;
	case EXPR_LIT_INT:
		v->kind = EXPR_V_INT;
		v->u.i = lit->i;
		break;
	case EXPR_LIT_IP:
		v->kind = EXPR_V_IP;
		v->u.ip = lit->ip;
		break;
	default:
		ev_missing(v);
		break;
	}
}

static void
ev_key(const struct expr_map *map, const char *key, size_t n,
    struct expr_val *v)
{
	size_t	lo = 0, hi = map->n, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = ev_bytes_cmp(key, n, map->keys[mid].u.s.p,
		    map->keys[mid].u.s.n);
		if (c == 0) {
			*v = map->vals[mid];
			return;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	ev_missing(v);
}

/* The element at i of an array, or the value at i of a map. */
static void
ev_nth(struct expr_val *v, size_t i)
{
	if (v->kind == EXPR_V_ARRAY && i < v->u.arr.n)
		*v = v->u.arr.v[i];
	else if (v->kind == EXPR_V_MAP && i < v->u.map->n)
		*v = v->u.map->vals[i];
	else
		ev_missing(v);
}

/* Indexes [from, to) of a VALUE node applied to v. */
static void
ev_index(struct ev_ctx *ctx, const struct expr_node *n, size_t from,
    size_t to, struct expr_val *v)
{
	const struct expr_index	*ix;
	size_t			 k;

	for (k = from; k < to && v->kind != EXPR_V_MISSING; k++) {
		ix = &n->idx[k];
		switch (ix->kind) {
		case EXPR_IDX_KEY:
			if (v->kind == EXPR_V_MAP)
				ev_key(v->u.map, ix->key, ix->keylen, v);
			else
				ev_missing(v);
			break;
		case EXPR_IDX_POS:
			if (v->kind == EXPR_V_ARRAY)
				ev_nth(v, ix->pos);
			else
				ev_missing(v);
			break;
		case EXPR_IDX_STAR:
			/* Outside any()/all() the checker refuses [*]. */
			if (ctx->mapping)
				ev_nth(v, ctx->elem);
			else
				ev_missing(v);
			break;
		case EXPR_IDX_EACH:
			break;
		}
	}
}

static void
ev_call(struct ev_ctx *ctx, const struct expr_node *n, struct expr_val *out)
{
	struct expr_val	 stack[EV_ARGS], *args = stack;
	size_t		 i;

	if (n->nkids > EV_ARGS)
		args = expr_request_scratch(ctx->rq, n->nkids * sizeof *args);
	for (i = 0; i < n->nkids; i++) {
		ev_value(ctx, n->kids[i], &args[i]);
		/* Most functions pass a missing value on (12.2). */
		if (args[i].kind == EXPR_V_MISSING) {
			ev_missing(out);
			return;
		}
	}
	expr_func_call(ctx->rq, n->func, args, n->nkids, out);
}

/* The value of a VALUE or LIT node (a Bool for a logical one). */
static void
ev_value(struct ev_ctx *ctx, const struct expr_node *n, struct expr_val *v)
{
	enum expr_value	b;

	switch (n->kind) {
	case EXPR_N_LIT:
		ev_lit(&n->lit, v);
		return;
	case EXPR_N_VALUE:
		if (n->field != EXPR_F_NONE)
			*v = *expr_request_field(ctx->rq, n->field);
		else
			ev_call(ctx, n, v);
		ev_index(ctx, n, 0, n->nidx, v);
		return;
	default:
		/* A value no regex could decide is not one. */
		if ((b = ev_bool(ctx, n)) == EXPR_UNKNOWN) {
			ev_missing(v);
			return;
		}
		v->kind = EXPR_V_BOOL;
		v->u.b = b == EXPR_TRUE;
		return;
	}
}

/* How many elements any()/all() walk: the source before its root [*];
 * -1 when the source itself is missing. */
static ssize_t
ev_count(struct ev_ctx *ctx, const struct expr_node *n)
{
	const struct expr_node	*src = n->source;
	struct expr_val		 v;

	if (src == NULL)
		return (-1);
	if (src->field != EXPR_F_NONE)
		v = *expr_request_field(ctx->rq, src->field);
	else
		ev_call(ctx, src, &v);
	ev_index(ctx, src, 0, MINIMUM(n->source_at, src->nidx), &v);
	if (v.kind == EXPR_V_ARRAY)
		return ((ssize_t)v.u.arr.n);
	if (v.kind == EXPR_V_MAP)
		return ((ssize_t)v.u.map->n);
	return (-1);
}

/* ---- explain's texts ---------------------------------------------------- */

static const char *
ev_seen_text(struct ev_ctx *ctx, const struct expr_val *v)
{
	char		*d, *o;
	const char	*p;
	size_t		 n, i;
	char		 ip[INET6_ADDRSTRLEN];

	switch (v->kind) {
	case EXPR_V_MISSING:
		return ("missing");
	case EXPR_V_BOOL:
		return (v->u.b ? "true" : "false");
	case EXPR_V_INT:
		d = expr_request_scratch(ctx->rq, 24);
		snprintf(d, 24, "%lld", (long long)v->u.i);
		return (d);
	case EXPR_V_IP:
		if (inet_ntop(v->u.ip.family == 4 ? AF_INET : AF_INET6,
		    v->u.ip.bytes, ip, sizeof ip) == NULL)
			return ("?");
		d = expr_request_scratch(ctx->rq, strlen(ip) + 1);
		memcpy(d, ip, strlen(ip) + 1);
		return (d);
	case EXPR_V_BYTES:
		break;
	case EXPR_V_ARRAY:
		d = expr_request_scratch(ctx->rq, 48);
		snprintf(d, 48, "(array of %zu)", v->u.arr.n);
		return (d);
	case EXPR_V_MAP:
		d = expr_request_scratch(ctx->rq, 48);
		snprintf(d, 48, "(map of %zu)", v->u.map->n);
		return (d);
	}
	/* A string as the language writes one, cut when long. */
	p = v->u.s.p;
	n = MINIMUM(v->u.s.n, EV_SEEN_MAX);
	o = d = expr_request_scratch(ctx->rq, n * 4 + 8);
	*o++ = '"';
	for (i = 0; i < n; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = p[i];
		} else if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f) {
			snprintf(o, 5, "\\x%02x", (unsigned char)p[i]);
			o += 4;
		} else
			*o++ = p[i];
	}
	*o++ = '"';
	if (n < v->u.s.n) {
		memcpy(o, "...", 3);
		o += 3;
	}
	*o = '\0';
	return (d);
}

static void
ev_record(struct ev_ctx *ctx, const struct expr_node *n, enum expr_value val,
    const char *seen)
{
	if (!ctx->explain || n->id < 0 || n->id >= ctx->e->nnodes)
		return;
	ctx->vals[n->id] = val;
	ctx->seen[n->id] = seen;
}

/* ---- logic -------------------------------------------------------------- */

/*
 * A node's value is EXPR_TRUE, EXPR_FALSE or EXPR_UNKNOWN (a regex whose
 * matching reached its limits, expr_request_regex). Logic on unknown is
 * Kleene's: false and unknown is false, true or unknown is true, and
 * otherwise unknown stays unknown, so an answer that does not depend on
 * the regex is still given.
 */
static enum expr_value
ev_cmp(struct ev_ctx *ctx, const struct expr_node *n)
{
	struct expr_val		v;
	enum expr_value		r;

	ev_value(ctx, n->lhs, &v);
	r = v.kind == EXPR_V_MISSING ? EXPR_FALSE :
	    (enum expr_value)ev_compare(ctx, n, &v);
	if (ctx->explain)
		ev_record(ctx, n, v.kind == EXPR_V_MISSING ? EXPR_MISSING : r,
		    ev_seen_text(ctx, &v));
	return (r);
}

/* A Bool standing bare: a field (ssl) or a call (starts_with(...)). */
static enum expr_value
ev_bare(struct ev_ctx *ctx, const struct expr_node *n)
{
	struct expr_val	v, first;
	int		r;

	ev_value(ctx, n, &v);
	r = v.kind == EXPR_V_BOOL && v.u.b;
	if (ctx->explain) {
		/* For a call, what a user wants to see is its subject. */
		if (n->field == EXPR_F_NONE && n->nkids > 0)
			ev_value(ctx, n->kids[0], &first);
		else
			first = v;
		ev_record(ctx, n, v.kind == EXPR_V_MISSING ? EXPR_MISSING :
		    r ? EXPR_TRUE : EXPR_FALSE, ev_seen_text(ctx, &first));
	}
	return (r ? EXPR_TRUE : EXPR_FALSE);
}

static enum expr_value
ev_quant(struct ev_ctx *ctx, const struct expr_node *n)
{
	size_t		 i, saved_elem = ctx->elem;
	ssize_t		 count;
	int		 saved_mapping = ctx->mapping;
	enum expr_value	 decides, r, v;

	/* any() is decided by a true element, all() by a false one. */
	decides = n->kind == EXPR_N_ANY ? EXPR_TRUE : EXPR_FALSE;
	r = decides == EXPR_TRUE ? EXPR_FALSE : EXPR_TRUE;
	/* all() is true on an empty array, false when there is none. */
	if ((count = ev_count(ctx, n)) == -1)
		return (EXPR_FALSE);
	ctx->mapping = 1;
	for (i = 0; i < (size_t)count; i++) {
		ctx->elem = i;
		if ((v = ev_bool(ctx, n->kids[0])) == decides) {
			/* Explain keeps the deciding element's values. */
			r = decides;
			break;
		}
		if (v == EXPR_UNKNOWN)
			r = EXPR_UNKNOWN;
	}
	ctx->elem = saved_elem;
	ctx->mapping = saved_mapping;
	return (r);
}

/* and, or: the kids in order, until one decides (all of them, to explain). */
static enum expr_value
ev_chain(struct ev_ctx *ctx, const struct expr_node *n, enum expr_value decides)
{
	enum expr_value	r, v;
	size_t		i;

	r = decides == EXPR_TRUE ? EXPR_FALSE : EXPR_TRUE;
	for (i = 0; i < n->nkids; i++) {
		if ((v = ev_bool(ctx, n->kids[i])) == decides) {
			r = decides;
			if (!ctx->explain)
				break;
		} else if (v == EXPR_UNKNOWN && r != decides)
			r = EXPR_UNKNOWN;
	}
	return (r);
}

static enum expr_value
ev_logic(struct ev_ctx *ctx, const struct expr_node *n)
{
	enum expr_value	r, v;
	size_t		i;

	switch (n->kind) {
	case EXPR_N_OR:
		return (ev_chain(ctx, n, EXPR_TRUE));
	case EXPR_N_AND:
		return (ev_chain(ctx, n, EXPR_FALSE));
	case EXPR_N_XOR:
		for (r = EXPR_FALSE, i = 0; i < n->nkids; i++) {
			v = ev_bool(ctx, n->kids[i]);
			if (v == EXPR_UNKNOWN || r == EXPR_UNKNOWN)
				r = EXPR_UNKNOWN;
			else
				r = r != v ? EXPR_TRUE : EXPR_FALSE;
		}
		return (r);
	case EXPR_N_NOT:
		if (n->nkids == 0)
			return (EXPR_FALSE);
		v = ev_bool(ctx, n->kids[0]);
		return (v == EXPR_UNKNOWN ? v : v == EXPR_TRUE ? EXPR_FALSE :
		    EXPR_TRUE);
	default:
		return (EXPR_FALSE);
	}
}

static enum expr_value
ev_bool(struct ev_ctx *ctx, const struct expr_node *n)
{
	enum expr_value	r;

	switch (n->kind) {
	case EXPR_N_CMP:
		return (ev_cmp(ctx, n));
	case EXPR_N_VALUE:
		return (ev_bare(ctx, n));
	case EXPR_N_TRUE:
		r = EXPR_TRUE;
		break;
	case EXPR_N_ANY:
	case EXPR_N_ALL:
		r = ev_quant(ctx, n);
		break;
	case EXPR_N_OR:
	case EXPR_N_AND:
	case EXPR_N_XOR:
	case EXPR_N_NOT:
		r = ev_logic(ctx, n);
		break;
	default:
		r = EXPR_FALSE;
		break;
	}
	ev_record(ctx, n, r, NULL);
	return (r);
}

enum expr_value
expr_eval(const struct expr *e, struct expr_request *rq)
{
	struct ev_ctx	ctx;

	if (e == NULL || e->root == NULL)
		return (EXPR_FALSE);
	memset(&ctx, 0, sizeof ctx);
	ctx.rq = rq;
	ctx.e = e;
	expr_request_scratch_reset(rq);
	return (ev_bool(&ctx, e->root));
}

/* ---- explain ------------------------------------------------------------ */

/* Is this node one explain reports: a logical node or a Bool value? */
static int
ev_reported(const struct expr_node *n)
{
	return (n->kind != EXPR_N_LIT);
}

static void
ev_steps(struct ev_ctx *ctx, const struct expr_node *n, int depth,
    expr_step_fn fn, void *arg)
{
	struct expr_step	 step;
	char			*text;
	size_t			 i;

	if (!ev_reported(n))
		return;
	text = expr_format_node(n);
	memset(&step, 0, sizeof step);
	step.depth = depth;
	step.column = n->column;
	step.length = n->length;
	step.text = text != NULL ? text : "";
	if (n->id >= 0 && n->id < ctx->e->nnodes) {
		step.value = ctx->vals[n->id];
		step.seen = ctx->seen[n->id];
	}
	if (n->kind != EXPR_N_CMP && n->kind != EXPR_N_VALUE)
		step.seen = NULL;
	else if (step.seen == NULL)
		step.seen = "missing";	/* never reached: no element */
	fn(&step, arg);
	free(text);
	switch (n->kind) {
	case EXPR_N_OR:
	case EXPR_N_XOR:
	case EXPR_N_AND:
	case EXPR_N_NOT:
	case EXPR_N_ANY:
	case EXPR_N_ALL:
		for (i = 0; i < n->nkids; i++)
			ev_steps(ctx, n->kids[i], depth + 1, fn, arg);
		break;
	default:
		break;
	}
}

enum expr_value
expr_explain(const struct expr *e, struct expr_request *rq, expr_step_fn fn,
    void *arg)
{
	struct ev_ctx	ctx;
	enum expr_value	r;
	int		i;

	if (e == NULL || e->root == NULL)
		return (EXPR_FALSE);
	memset(&ctx, 0, sizeof ctx);
	ctx.rq = rq;
	ctx.e = e;
	ctx.explain = 1;
	ctx.vals = xcalloc(e->nnodes > 0 ? e->nnodes : 1, sizeof *ctx.vals);
	ctx.seen = xcalloc(e->nnodes > 0 ? e->nnodes : 1, sizeof *ctx.seen);
	for (i = 0; i < e->nnodes; i++)
		ctx.vals[i] = EXPR_MISSING;
	expr_request_scratch_reset(rq);
	r = ev_bool(&ctx, e->root);
	if (fn != NULL)
		ev_steps(&ctx, e->root, 0, fn, arg);
	free(ctx.vals);
	free(ctx.seen);
	return (r);
}
