/*
 * Counters of the rules that share a list of characteristics
 * (simulate_table.h). A slot is one cache line holding the hash, the
 * client and the key's first bytes, so finding a client reads one line
 * (its neighbour on a collision); the rules' states of a client lie side
 * by side; rings are circles of chunks of one line.
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
#define SIMTAB_CHUNK	7	/* times in a chunk of a ring */
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

struct simtab_chunk {
	int64_t		 times[SIMTAB_CHUNK];
	uint32_t	 next;		/* the next chunk of its ring */
	uint32_t	 spare;
};

/* Chunks come in blocks that never move. */
#define SIMTAB_BLOCK_SHIFT	14
#define SIMTAB_BLOCK		(1U << SIMTAB_BLOCK_SHIFT)
#define SIMTAB_CH(t, c)		(&(t)->blocks[(c) >> SIMTAB_BLOCK_SHIFT][ \
				    (c) & (SIMTAB_BLOCK - 1)])

struct simtab {
	struct simtab_rule	*rules;
	size_t			 nrules;
	struct simtab_slot	*slots;
	size_t			 nslots;	/* a power of two */
	struct simtab_client	*clients;
	struct simtab_state	*states;	/* client * nrules + rule */
	size_t			 nclients;
	size_t			 size;		/* of clients, in clients */
	struct buf		 keys;
	struct simtab_chunk	**blocks;	/* of the rings' chunks */
	size_t			 nchunks;
};

/* n bytes on a line of their own, the first old bytes of p copied. */
static void *
simtab_aligned(void *p, size_t old, size_t n)
{
	void	*q;

	if (posix_memalign(&q, SIMTAB_LINE, n) != 0)
		fatalx("simulate: out of memory");
	if (old > 0)
		memcpy(q, p, old);
	free(p);
	return (q);
}

static struct simtab_slot *
simtab_slots_new(size_t n)
{
	void	*p;

	if (n > SIZE_MAX / sizeof (struct simtab_slot))
		fatalx("simulate: out of memory");
	p = simtab_aligned(NULL, 0, n * sizeof (struct simtab_slot));
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
	for (i = 0; i < (t->nchunks + SIMTAB_BLOCK - 1) / SIMTAB_BLOCK; i++)
		free(t->blocks[i]);
	free(t->blocks);
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
	if (size > SIZE_MAX / sizeof *t->states / (t->nrules + 1))
		fatalx("simulate: too many clients");
	/* States on line boundaries: one never straddles two. */
	t->states = simtab_aligned(t->states, t->nclients * t->nrules *
	    sizeof *t->states, size * (t->nrules + 1) * sizeof *t->states);
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

	if (len > SIMTAB_KEY_MAX)
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

size_t
simtab_bytes(const struct simtab *t)
{
	size_t	blocks = (t->nchunks + SIMTAB_BLOCK - 1) / SIMTAB_BLOCK;

	return (sizeof *t + (t->nrules + 1) * sizeof *t->rules +
	    t->nslots * sizeof *t->slots + t->size * sizeof *t->clients +
	    t->size * (t->nrules + 1) * sizeof *t->states + t->keys.size +
	    blocks * (sizeof *t->blocks + SIMTAB_BLOCK * sizeof **t->blocks));
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

/*
 * A ring is a circle of chunks of one cache line, linked: appending takes
 * a new chunk and copies nothing, and reading the oldest time then writing
 * the newest in its place touches one line.
 */
static uint32_t
simtab_chunk_new(struct simtab *t, uint32_t after)
{
	struct simtab_chunk	*ch;
	size_t			 nblocks;
	uint32_t		 c;

	if (t->nchunks == UINT32_MAX)
		fatalx("simulate: too many counted requests to keep");
	if (t->nchunks % SIMTAB_BLOCK == 0) {
		nblocks = t->nchunks / SIMTAB_BLOCK;
		t->blocks = xreallocarray(t->blocks, nblocks + 1,
		    sizeof *t->blocks);
		t->blocks[nblocks] = simtab_aligned(NULL, 0,
		    SIMTAB_BLOCK * sizeof **t->blocks);
	}
	c = (uint32_t)t->nchunks++;
	ch = SIMTAB_CH(t, c);
	if (after == UINT32_MAX)
		ch->next = c;
	else {
		ch->next = SIMTAB_CH(t, after)->next;
		SIMTAB_CH(t, after)->next = c;
	}
	return (c);
}

void
simtab_prefetch_ring(const struct simtab *t, uint32_t c, size_t n)
{
	const struct simtab_state	*st = simtab_state(t, c, n);

	if (st->count != 0)
		__builtin_prefetch(SIMTAB_CH(t, st->chunk), 1);
}

/*
 * A counted request at t: whether the limit counted requests before it
 * all came less than a period ago. The ring keeps the last limit times:
 * while it fills, count is how many and the next goes to count; once full,
 * count - limit is the oldest, which the newest replaces. chunk holds the
 * place of the next time (a new chunk is taken when it is needed).
 */
static int
simtab_window(struct simtab *t, size_t n, struct simtab_state *st, int64_t at)
{
	const struct simtab_rule	*r = &t->rules[n];
	struct simtab_chunk		*ch;
	uint32_t			 pos;
	int64_t				 oldest;

	if (st->count < r->limit) {
		if (st->count == 0)
			st->chunk = simtab_chunk_new(t, UINT32_MAX);
		else if (st->count % SIMTAB_CHUNK == 0)
			st->chunk = simtab_chunk_new(t, st->chunk);
		ch = SIMTAB_CH(t, st->chunk);
		ch->times[st->count % SIMTAB_CHUNK] = at;
		/* Full: the oldest is the first, at the start of the circle. */
		if (++st->count == r->limit)
			st->chunk = ch->next;
		return (0);
	}
	pos = st->count - r->limit;
	ch = SIMTAB_CH(t, st->chunk);
	oldest = ch->times[pos % SIMTAB_CHUNK];
	ch->times[pos % SIMTAB_CHUNK] = at;
	if (++pos == r->limit)
		pos = 0;
	if (pos % SIMTAB_CHUNK == 0)
		st->chunk = ch->next;
	st->count = r->limit + pos;
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
