/*
 * Counters of the rules that share a list of characteristics
 * (simulate_table.h). A slot is one cache line holding the hash, the
 * client and the key's first bytes, so finding a client reads one line
 * (its neighbour on a collision); the rules' states of a client lie side
 * by side; rings come from one array per rule with a free list per size.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "simulate_table.h"
#include "xmalloc.h"

#define SIMTAB_INLINE	48	/* key bytes in a slot */
#define SIMTAB_CLASSES	32	/* ring sizes: 4 << class, the last odd */
#define SIMTAB_LINE	64

struct simtab_slot {
	uint64_t	 hash;
	uint32_t	 client;	/* index + 1; 0: empty */
	uint32_t	 len;
	char		 key[SIMTAB_INLINE];	/* the first bytes */
};

struct simtab_client {
	size_t		 off;		/* of its key in keys */
	size_t		 len;
};

struct simtab_pool {
	int64_t		*times;
	size_t		 used;
	size_t		 size;
	uint32_t	 free[SIMTAB_CLASSES];	/* a free ring + 1; 0 none */
};

struct simtab {
	struct simtab_rule	*rules;
	struct simtab_pool	*pools;
	size_t			 nrules;
	struct simtab_slot	*slots;
	size_t			 nslots;	/* a power of two */
	struct simtab_client	*clients;
	struct simtab_state	*states;	/* client * nrules + rule */
	size_t			 nclients;
	size_t			 size;		/* of clients, in clients */
	struct buf		 keys;
};

static struct simtab_slot *
simtab_slots_new(size_t n)
{
	void	*p;

	if (n > SIZE_MAX / sizeof (struct simtab_slot) ||
	    posix_memalign(&p, SIMTAB_LINE, n * sizeof (struct simtab_slot)) !=
	    0)
		fatalx("simulate: out of memory");
	memset(p, 0, n * sizeof (struct simtab_slot));
	return (p);
}

struct simtab *
simtab_new(const struct simtab_rule *rules, size_t nrules)
{
	struct simtab	*t;
	size_t		 i;

	for (i = 0; i < nrules; i++)
		if (rules[i].limit == 0 || rules[i].limit > INT32_MAX ||
		    rules[i].period <= 0 || rules[i].timeout < 0)
			fatalx("simulate: a rule's numbers out of range");
	t = xcalloc(1, sizeof *t);
	t->nrules = nrules;
	t->rules = xreallocarray(NULL, nrules + 1, sizeof *t->rules);
	if (nrules > 0)
		memcpy(t->rules, rules, nrules * sizeof *rules);
	t->pools = xcalloc(nrules + 1, sizeof *t->pools);
	t->nslots = 64;
	t->slots = simtab_slots_new(t->nslots);
	return (t);
}

void
simtab_free(struct simtab *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrules; i++)
		free(t->pools[i].times);
	free(t->pools);
	free(t->rules);
	free(t->slots);
	free(t->clients);
	free(t->states);
	buf_free(&t->keys);
	free(t);
}

/* ---- clients ----------------------------------------------------------- */

static void
simtab_grow_slots(struct simtab *t)
{
	struct simtab_slot	*old = t->slots, *s;
	size_t			 i, j, mask, n = t->nslots;

	t->nslots *= 2;
	t->slots = simtab_slots_new(t->nslots);
	mask = t->nslots - 1;
	for (i = 0; i < n; i++) {
		s = &old[i];
		if (s->client == 0)
			continue;
		for (j = s->hash & mask; t->slots[j].client != 0;
		    j = (j + 1) & mask)
			;
		t->slots[j] = *s;
	}
	free(old);
}

/* Room for n more clients (their states may move). */
static void
simtab_reserve(struct simtab *t, size_t n)
{
	size_t	size;

	if (t->nclients > UINT32_MAX - 1 - n)
		fatalx("simulate: too many clients");
	if (t->nclients + n <= t->size)
		return;
	size = t->size != 0 ? t->size * 2 : 64;
	if (size < t->nclients + n)
		size = t->nclients + n;
	t->clients = xreallocarray(t->clients, size, sizeof *t->clients);
	if (t->nrules > 0 && size > SIZE_MAX / t->nrules)
		fatalx("simulate: too many clients");
	t->states = xreallocarray(t->states, size * (t->nrules > 0 ?
	    t->nrules : 1), sizeof *t->states);
	t->size = size;
}

void
simtab_prefetch(const struct simtab *t, uint64_t hash)
{
	__builtin_prefetch(&t->slots[hash & (t->nslots - 1)]);
}

static int
simtab_same(const struct simtab *t, const struct simtab_slot *s,
    uint64_t hash, const char *key, size_t len)
{
	if (s->hash != hash || s->len != len)
		return (0);
	if (len <= SIMTAB_INLINE)
		return (memcmp(s->key, key, len) == 0);
	return (memcmp(t->keys.data + t->clients[s->client - 1].off, key,
	    len) == 0);
}

uint32_t
simtab_find(struct simtab *t, uint64_t hash, const char *key, size_t len)
{
	struct simtab_slot	*s;
	struct simtab_state	*st;
	size_t			 i, mask;
	uint32_t		 c;

	if (len > UINT32_MAX)
		fatalx("simulate: a key too long");
	/* At most three quarters full: probes stay short. */
	if ((t->nclients + 1) * 4 > t->nslots * 3)
		simtab_grow_slots(t);
	mask = t->nslots - 1;
	for (i = hash & mask; t->slots[i].client != 0; i = (i + 1) & mask) {
		s = &t->slots[i];
		if (simtab_same(t, s, hash, key, len))
			return (s->client - 1);
	}
	simtab_reserve(t, 1);
	c = (uint32_t)t->nclients++;
	t->clients[c].off = t->keys.len;
	t->clients[c].len = len;
	buf_add(&t->keys, key, len);
	s = &t->slots[i];
	s->hash = hash;
	s->client = c + 1;
	s->len = (uint32_t)len;
	memcpy(s->key, key, len < SIMTAB_INLINE ? len : SIMTAB_INLINE);
	st = &t->states[(size_t)c * t->nrules];
	for (i = 0; i < t->nrules; i++) {
		memset(&st[i], 0, sizeof st[i]);
		st[i].mit_start = INT64_MAX;
	}
	return (c);
}

size_t
simtab_clients(const struct simtab *t)
{
	return (t->nclients);
}

const char *
simtab_key(const struct simtab *t, uint32_t c, size_t *len)
{
	*len = t->clients[c].len;
	return (t->keys.data + t->clients[c].off);
}

const struct simtab_state *
simtab_state(const struct simtab *t, uint32_t c, size_t n)
{
	return (&t->states[(size_t)c * t->nrules + n]);
}

void
simtab_prefetch_state(const struct simtab *t, uint32_t c, size_t n)
{
	__builtin_prefetch(&t->states[(size_t)c * t->nrules + n], 1);
}

/* ---- windows ----------------------------------------------------------- */

/* The ring size that holds n (>= 1) times: 4, 8, 16... up to the limit. */
static uint32_t
simtab_cap(uint32_t limit, uint32_t n)
{
	uint64_t	c = 4;

	while (c < n)
		c *= 2;
	return (c < limit ? (uint32_t)c : limit);
}

static size_t
simtab_class(uint32_t cap)
{
	if (cap < 4 || (cap & (cap - 1)) != 0)
		return (SIMTAB_CLASSES - 1);
	return ((size_t)__builtin_ctz(cap) - 2);
}

static uint32_t
simtab_ring_get(struct simtab_pool *p, uint32_t cap)
{
	size_t		c = simtab_class(cap), size;
	uint32_t	r;

	if (p->free[c] != 0) {
		r = p->free[c] - 1;
		p->free[c] = (uint32_t)p->times[r];
		return (r);
	}
	if (cap > p->size - p->used) {
		size = p->size != 0 ? p->size * 2 : 1024;
		if (size < p->used + cap)
			size = p->used + cap;
		if (size > UINT32_MAX)
			fatalx("simulate: too many counted requests to keep");
		p->times = xreallocarray(p->times, size, sizeof *p->times);
		p->size = size;
	}
	r = (uint32_t)p->used;
	p->used += cap;
	return (r);
}

static void
simtab_ring_put(struct simtab_pool *p, uint32_t r, uint32_t cap)
{
	size_t	c = simtab_class(cap);

	p->times[r] = p->free[c];
	p->free[c] = r + 1;
}

void
simtab_prefetch_ring(const struct simtab *t, uint32_t c, size_t n)
{
	const struct simtab_state	*st = simtab_state(t, c, n);
	const struct simtab_pool	*p = &t->pools[n];
	uint32_t			 limit = t->rules[n].limit, at;

	if (st->count == 0)
		return;
	at = st->count < limit ? st->count : st->count - limit;
	if ((size_t)st->ring + at < p->used)
		__builtin_prefetch(&p->times[st->ring + at], 1);
}

/*
 * A counted request at t: whether the limit counted requests before it
 * all came less than a period ago. The ring keeps the last limit times;
 * once full, count - limit is the oldest.
 */
static int
simtab_window(struct simtab *t, size_t n, struct simtab_state *st, int64_t at)
{
	const struct simtab_rule	*r = &t->rules[n];
	struct simtab_pool		*p = &t->pools[n];
	uint32_t			 cap, ring, head;
	int64_t				 oldest;

	if (st->count < r->limit) {
		if (st->count == 0 || (cap = simtab_cap(r->limit,
		    st->count)) == st->count) {
			cap = simtab_cap(r->limit, st->count + 1);
			ring = simtab_ring_get(p, cap);
			if (st->count > 0) {
				memcpy(&p->times[ring], &p->times[st->ring],
				    st->count * sizeof *p->times);
				simtab_ring_put(p, st->ring, st->count);
			}
			st->ring = ring;
		}
		p->times[st->ring + st->count++] = at;
		return (0);
	}
	head = st->count - r->limit;
	oldest = p->times[st->ring + head];
	p->times[st->ring + head] = at;
	st->count = ++head == r->limit ? r->limit : r->limit + head;
	return (oldest > at - r->period);
}

static int
simtab_in_mitigation(const struct simtab_rule *r,
    const struct simtab_state *st, int64_t at)
{
	int64_t	until;

	until = st->mit_start > INT64_MAX - r->timeout ? INT64_MAX :
	    st->mit_start + r->timeout;
	return (st->mit_start <= at && at < until);
}

int
simtab_apply(struct simtab *t, uint32_t c, size_t n, int matched,
    int counted, int64_t at)
{
	const struct simtab_rule	*r = &t->rules[n];
	struct simtab_state		*st = &t->states[(size_t)c * t->nrules +
					    n];
	int				 over = 0, mitigate, flags = 0;

	if (st->requests++ == 0)
		flags |= SIMTAB_NEW_CLIENT;
	if (counted)
		over = simtab_window(t, n, st, at);
	if (over && r->timeout > 0 && !simtab_in_mitigation(r, st, at))
		st->mit_start = at;
	if (!matched)
		return (flags);
	mitigate = r->timeout > 0 ? simtab_in_mitigation(r, st, at) : over;
	if (!mitigate)
		return (flags);
	if (st->mitigated++ == 0)
		flags |= SIMTAB_NEW_MITIGATED;
	return (flags | SIMTAB_MITIGATED);
}
