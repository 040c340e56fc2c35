/*
 * Evaluation remembered across a stream of requests (expr.h): a compiled
 * expression's result depends only on the values of the fields it reads,
 * and a log repeats them (a few paths, methods, hosts, user agents), so a
 * result is kept in a direct-mapped table keyed by those values, compared
 * byte for byte. An expression that reads a map or an array is always
 * evaluated; so is one whose values rarely repeat (a client address), as
 * the table would only cost time. Expressions that read the same fields
 * (rules on the path) can share one memo: a slot keeps all their results,
 * and a request's values are hashed and looked up once for all.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "expr.h"
#include "expr_ast.h"
#include "expr_value.h"
#include "xmalloc.h"

#define MEMO_SLOTS	512		/* a power of two */
#define MEMO_KEY_MAX	240		/* longer keys: evaluated */
#define MEMO_WINDOW	4096		/* lookups between checks */
#define MEMO_REST	65536		/* evaluations before a retry */

/* A key in its slot: a lookup reads one place, as the tables of a log
 * replay's counters keep pushing everything else out of the caches. */
struct memo_slot {
	uint64_t	 hash;
	uint32_t	 len;
	uint8_t		 used;
	uint64_t	 result;	/* bit i: es[i] */
	uint64_t	 unknown;	/* bit i: es[i]'s is EXPR_UNKNOWN */
	char		 key[MEMO_KEY_MAX];
};

struct expr_memo {
	const struct expr	**es;
	size_t			 nes;
	enum expr_field		*fields;	/* read, each once */
	size_t			 nfields;
	int			 never;		/* reads a map, an array */
	struct memo_slot	*slots;
	char			 key[MEMO_KEY_MAX];
	size_t			 len;
	uint32_t		 lookups;	/* in this window */
	uint32_t		 hits;
	uint32_t		 rest;		/* evaluations not kept */
	uint64_t		 hash;		/* of the request, when */
	int			 hashed;	/* expr_memo_prefetch gave it */
	uint64_t		 unknown;	/* of the last lookup */
};

/* Whether a field's value is one a memo's key can hold. */
static int
memo_plain(enum expr_field field)
{
	const struct expr_field_info	*fi;
	enum expr_tkind			 outer;

	fi = expr_field_info(field);
	outer = fi != NULL ? EXPR_TYPE_OUTER(fi->type) : EXPR_T_NONE;
	return (outer == EXPR_T_STRING || outer == EXPR_T_INT ||
	    outer == EXPR_T_IP || outer == EXPR_T_BOOL);
}

/* The fields a subtree reads; *never when one is not a plain value. */
static void
memo_walk(struct expr_memo *m, const struct expr_node *n)
{
	size_t	i;

	if (n == NULL)
		return;
	if (n->kind == EXPR_N_VALUE && n->field != EXPR_F_NONE) {
		if (!memo_plain(n->field))
			m->never = 1;
		for (i = 0; i < m->nfields; i++)
			if (m->fields[i] == n->field)
				break;
		if (i == m->nfields) {
			m->fields = xreallocarray(m->fields, m->nfields + 1,
			    sizeof *m->fields);
			m->fields[m->nfields++] = n->field;
		}
	}
	for (i = 0; i < n->nkids; i++)
		memo_walk(m, n->kids[i]);
	memo_walk(m, n->lhs);
}

struct expr_memo *
expr_memo_new_set(const struct expr *const *es, size_t n)
{
	struct expr_memo	*m;
	size_t			 i;

	m = xcalloc(1, sizeof *m);
	m->es = xcalloc(n + 1, sizeof *m->es);
	m->nes = n;
	for (i = 0; i < n; i++) {
		m->es[i] = es[i];
		if (es[i] == NULL)
			m->never = 1;
		else
			memo_walk(m, es[i]->root);
	}
	if (!m->never)
		m->slots = xcalloc(MEMO_SLOTS, sizeof *m->slots);
	return (m);
}

struct expr_memo *
expr_memo_new(const struct expr *e)
{
	return (expr_memo_new_set(&e, 1));
}

/* The fields a subtree reads, as a set; *never as memo_walk's. */
struct memo_fields {
	uint64_t	 bits[(EXPR_F__COUNT + 63) / 64];
	int		 never;
};

static void
memo_fields_walk(struct memo_fields *f, const struct expr_node *n)
{
	size_t	i;

	if (n == NULL)
		return;
	if (n->kind == EXPR_N_VALUE && n->field != EXPR_F_NONE) {
		if (!memo_plain(n->field))
			f->never = 1;
		f->bits[n->field / 64] |= (uint64_t)1 << (n->field % 64);
	}
	for (i = 0; i < n->nkids; i++)
		memo_fields_walk(f, n->kids[i]);
	memo_fields_walk(f, n->lhs);
}

/* Asked per rule per group: the fields compared, no memo built. */
int
expr_memo_same_fields(const struct expr *a, const struct expr *b)
{
	struct memo_fields	fa, fb;

	if (a == NULL || b == NULL)
		return (0);
	memset(&fa, 0, sizeof fa);
	memset(&fb, 0, sizeof fb);
	memo_fields_walk(&fa, a->root);
	memo_fields_walk(&fb, b->root);
	return (!fa.never && !fb.never &&
	    memcmp(fa.bits, fb.bits, sizeof fa.bits) == 0);
}

void
expr_memo_free(struct expr_memo *m)
{
	if (m == NULL)
		return;
	free(m->slots);
	free(m->fields);
	free(m->es);
	free(m);
}

/* n bytes more of the key; -1 when it would be too long. */
static int
memo_add(struct expr_memo *m, const void *p, size_t n)
{
	if (n > MEMO_KEY_MAX - m->len)
		return (-1);
	if (n > 0)
		memcpy(m->key + m->len, p, n);
	m->len += n;
	return (0);
}

/*
 * The values of the fields, each as its kind and its bytes (a string with
 * its length first): the fields are the same from one request to the
 * next, so equal keys are equal values.
 */
static int
memo_key(struct expr_memo *m, struct expr_request *rq)
{
	const struct expr_val	*v;
	uint32_t		 len;
	uint8_t			 kind, b;
	size_t			 i;
	int			 rv = 0;

	m->len = 0;
	for (i = 0; i < m->nfields && rv == 0; i++) {
		v = expr_request_field(rq, m->fields[i]);
		kind = (uint8_t)v->kind;
		rv = memo_add(m, &kind, 1);
		switch (v->kind) {
		case EXPR_V_BYTES:
			len = (uint32_t)MINIMUM(v->u.s.n, UINT32_MAX);
			rv |= memo_add(m, &len, sizeof len);
			if (rv == 0)
				rv = memo_add(m, v->u.s.p, v->u.s.n);
			break;
		case EXPR_V_INT:
			rv |= memo_add(m, &v->u.i, sizeof v->u.i);
			break;
		case EXPR_V_IP:
			rv |= memo_add(m, &v->u.ip.family, 1);
			rv |= memo_add(m, v->u.ip.bytes, sizeof v->u.ip.bytes);
			break;
		case EXPR_V_BOOL:
			b = v->u.b != 0;
			rv |= memo_add(m, &b, 1);
			break;
		case EXPR_V_MISSING:
			break;
		default:
			rv = -1;
			break;
		}
	}
	return (rv);
}

/* Whether the slot's key holds the request's values of the fields. */
static int
memo_same(const struct expr_memo *m, struct expr_request *rq,
    const struct memo_slot *s)
{
	const struct expr_val	*v;
	const char		*k = s->key, *end = s->key + s->len;
	uint32_t		 len;
	size_t			 i;

	for (i = 0; i < m->nfields; i++) {
		v = expr_request_field(rq, m->fields[i]);
		if (k == end || (uint8_t)*k++ != (uint8_t)v->kind)
			return (0);
		switch (v->kind) {
		case EXPR_V_BYTES:
			if (end - k < (ptrdiff_t)sizeof len)
				return (0);
			memcpy(&len, k, sizeof len);
			k += sizeof len;
			if (len != v->u.s.n || (size_t)(end - k) < len ||
			    (len > 0 && memcmp(k, v->u.s.p, len) != 0))
				return (0);
			k += len;
			break;
		case EXPR_V_INT:
			if ((size_t)(end - k) < sizeof v->u.i ||
			    memcmp(k, &v->u.i, sizeof v->u.i) != 0)
				return (0);
			k += sizeof v->u.i;
			break;
		case EXPR_V_IP:
			if ((size_t)(end - k) < 1 + sizeof v->u.ip.bytes ||
			    (uint8_t)k[0] != v->u.ip.family ||
			    memcmp(k + 1, v->u.ip.bytes,
			    sizeof v->u.ip.bytes) != 0)
				return (0);
			k += 1 + sizeof v->u.ip.bytes;
			break;
		case EXPR_V_BOOL:
			if (k == end || (uint8_t)*k++ != (v->u.b != 0))
				return (0);
			break;
		default:
			break;
		}
	}
	return (k == end);
}

/* After a window of lookups: rest a while when few of them hit. */
static void
memo_account(struct expr_memo *m, int hit)
{
	m->hits += (uint32_t)hit;
	if (++m->lookups < MEMO_WINDOW)
		return;
	if (m->hits < MEMO_WINDOW / 4)
		m->rest = MEMO_REST;
	m->lookups = m->hits = 0;
}

/* Each expression evaluated: bit i, es[i]'s result; m->unknown too. */
static uint64_t
memo_eval(struct expr_memo *m, struct expr_request *rq)
{
	enum expr_value	v;
	uint64_t	r = 0;
	size_t		i;

	m->unknown = 0;
	for (i = 0; i < m->nes; i++) {
		if ((v = expr_eval(m->es[i], rq)) == EXPR_TRUE)
			r |= (uint64_t)1 << i;
		else if (v == EXPR_UNKNOWN)
			m->unknown |= (uint64_t)1 << i;
	}
	return (r);
}

static uint64_t
memo_hash(const struct expr_memo *m, struct expr_request *rq)
{
	uint64_t	h = 0;
	size_t		i;

	for (i = 0; i < m->nfields; i++) {
		h = (h ^ expr_request_field_hash(rq, m->fields[i])) *
		    0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return (h);
}

void
expr_memo_prefetch(struct expr_memo *m, struct expr_request *rq)
{
	const struct memo_slot	*s;

	if (m->slots == NULL || m->rest > 0)
		return;
	m->hash = memo_hash(m, rq);
	m->hashed = 1;
	s = &m->slots[m->hash & (MEMO_SLOTS - 1)];
	__builtin_prefetch(s);
	__builtin_prefetch(s->key + 40);
}

uint64_t
expr_eval_memo_set(struct expr_memo *m, struct expr_request *rq)
{
	struct memo_slot	*s;
	uint64_t		 h, r;
	int			 hashed = m->hashed;

	m->hashed = 0;
	if (m->slots == NULL)
		return (memo_eval(m, rq));
	if (m->rest > 0) {
		m->rest--;
		return (memo_eval(m, rq));
	}
	h = hashed ? m->hash : memo_hash(m, rq);
	s = &m->slots[h & (MEMO_SLOTS - 1)];
	if (s->used && s->hash == h && memo_same(m, rq, s)) {
		memo_account(m, 1);
		m->unknown = s->unknown;
		return (s->result);
	}
	r = memo_eval(m, rq);
	if (memo_key(m, rq) != 0) {
		memo_account(m, 0);
		return (r);
	}
	memcpy(s->key, m->key, m->len);
	s->len = (uint32_t)m->len;
	s->hash = h;
	s->result = r;
	s->unknown = m->unknown;
	s->used = 1;
	memo_account(m, 0);
	return (r);
}

uint64_t
expr_memo_unknown(const struct expr_memo *m)
{
	return (m->unknown);
}

enum expr_value
expr_eval_memo(struct expr_memo *m, struct expr_request *rq)
{
	if (m->slots == NULL)
		return (expr_eval(m->es[0], rq));
	if (expr_eval_memo_set(m, rq) & 1)
		return (EXPR_TRUE);
	return ((m->unknown & 1) ? EXPR_UNKNOWN : EXPR_FALSE);
}
