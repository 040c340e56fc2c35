/*
 * The counters of rules simulate (simulate.h) for the rules that share one
 * list of characteristics: one open-addressed table of clients (values of
 * the characteristics), and per client a state for each of those rules,
 * side by side, so a request that several rules count reads one slot and
 * one run of states instead of a table per rule. Each state has a ring of
 * the last requests_per_period counted times: the sliding window exactly,
 * whatever the order of the times.
 */
#ifndef EDGE_SIMULATE_TABLE_H
#define EDGE_SIMULATE_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* The numbers of one rule of a table. */
struct simtab_rule {
	int64_t		 period;	/* ns, > 0 */
	int64_t		 timeout;	/* ns; 0 throttles */
	uint32_t	 limit;		/* requests_per_period, >= 1 */
};

/* One rule's counter for one client. */
struct simtab_state {
	uint64_t	 requests;	/* the rule matched or counted them */
	uint64_t	 mitigated;
	int64_t		 mit_start;	/* the last mitigation; INT64_MAX none */
	uint32_t	 count;		/* times held; full: limit + oldest */
	uint32_t	 chunk;		/* of the ring, where the next goes */
};

/* What simtab_apply did, for the rule's totals. */
#define SIMTAB_NEW_CLIENT	0x1	/* the rule's first request of it */
#define SIMTAB_MITIGATED	0x2
#define SIMTAB_NEW_MITIGATED	0x4	/* its first mitigated request */

/* The longest key a table takes: the caller keeps keys short, so the
 * table grows with its clients, not with what the log's lines hold. */
#define SIMTAB_KEY_MAX	2048

struct simtab;

struct simtab	*simtab_new(const struct simtab_rule *, size_t);
void		 simtab_free(struct simtab *);

/* Start reading the slot of a hash (the key's own, as the caller makes
 * it: equal keys must have equal hashes). */
void		 simtab_prefetch(const struct simtab *, uint64_t);
/* The client of a key (SIMTAB_KEY_MAX bytes at most), made (states
 * empty) when new; its index. A new client may move every state: find
 * first, then read or prefetch them. */
uint32_t	 simtab_find(struct simtab *, uint64_t, const char *, size_t);
/* Start reading rule n's state of a client, then where its ring is
 * written next (after the state has arrived). */
void		 simtab_prefetch_state(const struct simtab *, uint32_t,
		     size_t);
void		 simtab_prefetch_ring(const struct simtab *, uint32_t, size_t);

/*
 * A request of the client at t through rule n: matched by its expression,
 * counted by its counting expression (at least one of them). SIMTAB_*.
 */
int		 simtab_apply(struct simtab *, uint32_t, size_t, int, int,
		     int64_t);

/* Clients, each key (as given) and rule n's state of it. */
size_t		 simtab_clients(const struct simtab *);
/* Bytes the table holds: slots, clients, keys, states and rings. */
size_t		 simtab_bytes(const struct simtab *);
const char	*simtab_key(const struct simtab *, uint32_t, size_t *);
const struct simtab_state *simtab_state(const struct simtab *, uint32_t,
		     size_t);

#endif
