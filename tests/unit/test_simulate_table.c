/*
 * Unit tests for simulate_table.c, the counters of rules simulate: the
 * window evicts in log order (times out of order too), rings that grow
 * and are reused keep their times apart, mitigations start and end,
 * clients with one hash or keys alike in their first bytes stay apart,
 * and the table grows without losing a client or its states.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "simulate_table.h"

#define NS	1000000000LL
#define MS	1000000LL

static uint32_t
find(struct simtab *t, uint64_t hash, const char *key)
{
	return (simtab_find(t, hash, key, strlen(key)));
}

/* 3 per 10 s, no timeout: mitigated when the three before are recent. */
static void
test_window_order(void **state)
{
	static const struct {
		int64_t	at;
		int	over;
	} req[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 0 },
		{ 3, 1 },	/* 0 1 2 are less than 10 s old */
		{ 12, 0 },	/* 1 2 3: 1 is not */
		{ 13, 0 },	/* 2 3 12: 2 is not (exactly 10 s is in time) */
		{ 5, 1 },	/* out of order: 3 12 13, all after -5 */
		{ 14, 1 },	/* 12 13 5: in log order 12 is the oldest */
	};
	struct simtab_rule	 r = { 10 * NS, 0, 3 };
	struct simtab		*t;
	uint32_t		 c;
	size_t			 i;
	int			 flags;

	(void)state;
	t = simtab_new(&r, 1);
	c = find(t, 1, "client");
	for (i = 0; i < sizeof req / sizeof req[0]; i++) {
		flags = simtab_apply(t, c, 0, 1, 1, req[i].at * NS);
		assert_int_equal((flags & SIMTAB_MITIGATED) != 0, req[i].over);
		assert_int_equal((flags & SIMTAB_NEW_CLIENT) != 0, i == 0);
		assert_int_equal((flags & SIMTAB_NEW_MITIGATED) != 0, i == 3);
	}
	assert_int_equal(simtab_state(t, c, 0)->requests, 8);
	assert_int_equal(simtab_state(t, c, 0)->mitigated, 3);
	/* Matched but not counted: neither in the window nor mitigated. */
	flags = simtab_apply(t, c, 0, 1, 0, 15 * NS);
	assert_int_equal(flags, 0);
	/* Counted but not matched: in the window, never mitigated. */
	flags = simtab_apply(t, c, 0, 0, 1, 15 * NS);
	assert_int_equal(flags, 0);
	/* 5 14 15 before it: 5 is exactly 10 s old at 15, not before. */
	flags = simtab_apply(t, c, 0, 1, 1, 15 * NS - 1);
	assert_int_equal(flags, SIMTAB_MITIGATED);
	simtab_free(t);
}

/*
 * Two rules, three clients interleaved: their rings of 100 and of 1 time
 * take chunks in turns, each ring keeping its own times.
 */
static void
test_rings_apart(void **state)
{
	struct simtab_rule	 r[2] = {
		{ 10 * NS, 0, 100 },	/* 100 per 10 s */
		{ NS, 0, 1 },		/* 1 per second */
	};
	struct simtab		*t;
	uint32_t		 a, b, c;
	int64_t			 i;

	(void)state;
	t = simtab_new(r, 2);
	a = find(t, 1, "a");
	b = find(t, 2, "b");
	c = find(t, 3, "c");
	for (i = 0; i < 150; i++) {
		/* a: 1 ms apart, the last 50 over 100 in 10 s. */
		(void)simtab_apply(t, a, 0, 1, 1, i * MS);
		/* b: 200 ms apart, 100 take 20 s: never over. */
		if (i < 130)
			(void)simtab_apply(t, b, 0, 1, 1, i * 200 * MS);
		/* c, on both rules: 1.5 s apart, never over either. */
		if (i < 120) {
			(void)simtab_apply(t, c, 0, 1, 1, i * 1500 * MS);
			(void)simtab_apply(t, c, 1, 1, 1, i * 1500 * MS);
		}
	}
	assert_int_equal(simtab_state(t, a, 0)->mitigated, 50);
	assert_int_equal(simtab_state(t, b, 0)->requests, 130);
	assert_int_equal(simtab_state(t, b, 0)->mitigated, 0);
	assert_int_equal(simtab_state(t, c, 0)->mitigated, 0);
	assert_int_equal(simtab_state(t, c, 1)->requests, 120);
	assert_int_equal(simtab_state(t, c, 1)->mitigated, 0);
	/* Rule 1 never saw a or b. */
	assert_int_equal(simtab_state(t, a, 1)->requests, 0);
	/* c at 0.5 s after its last: over 1 per second. */
	assert_int_equal(simtab_apply(t, c, 1, 1, 1, 119 * 1500 * MS +
	    500 * MS) & SIMTAB_MITIGATED, SIMTAB_MITIGATED);
	simtab_free(t);
}

/*
 * Against the window written plainly (every counted time kept; over when
 * the limit-th before it is less than a period old), for limits either
 * side of a ring's chunk, three clients interleaved, times that go back
 * now and then.
 */
static void
test_window_reference(void **state)
{
	static const uint32_t	 limits[] = { 1, 2, 6, 7, 8, 13, 14, 15, 50 };
	struct simtab_rule	 r[sizeof limits / sizeof limits[0]];
	struct simtab		*t;
	int64_t			*seen[3], at[3] = { 0, 0, 0 };
	uint32_t		 c[3], x = 12345;
	size_t			 i, k, n, nr = sizeof limits / sizeof limits[0];
	size_t			 count[3] = { 0, 0, 0 };
	int			 over, flags;

	(void)state;
	for (i = 0; i < nr; i++) {
		r[i].period = 10 * NS;
		r[i].timeout = 0;
		r[i].limit = limits[i];
	}
	t = simtab_new(r, nr);
	for (k = 0; k < 3; k++) {
		c[k] = find(t, k, k == 0 ? "a" : k == 1 ? "b" : "c");
		seen[k] = calloc(3000, sizeof *seen[k]);
	}
	for (i = 0; i < 9000; i++) {
		x = x * 1103515245 + 12345;
		k = (x >> 16) % 3;
		/* Mostly forward by up to 2 s, sometimes back by up to 5 s. */
		at[k] += (x >> 8) % 16 == 0 ? -(int64_t)((x >> 4) % 5000) * MS :
		    (int64_t)((x >> 4) % 2000) * MS;
		if (count[k] == 3000)
			continue;
		seen[k][count[k]] = at[k];
		for (n = 0; n < nr; n++) {
			over = count[k] >= limits[n] &&
			    seen[k][count[k] - limits[n]] > at[k] - 10 * NS;
			flags = simtab_apply(t, c[k], n, 1, 1, at[k]);
			if (((flags & SIMTAB_MITIGATED) != 0) != over)
				fail_msg("limit %u, request %zu of %zu: %d, "
				    "not %d", limits[n], count[k], k, !over,
				    over);
		}
		count[k]++;
	}
	for (k = 0; k < 3; k++)
		free(seen[k]);
	simtab_free(t);
}

/*
 * 1 per 10 s with a 20 s timeout: 1 is over and mitigates until 21, so
 * 5 is mitigated, though not over; 25 is neither; 26 is over and starts
 * again; 45 is in that one, and 56 is after it. A timeout that would pass
 * the end of time stops there.
 */
static void
test_timeout(void **state)
{
	static const struct {
		int64_t	at;
		int	mitigated;
	} req[] = {
		{ 0, 0 }, { 1, 1 }, { 5, 1 }, { 25, 0 }, { 26, 1 }, { 45, 1 },
		{ 56, 0 },
	};
	struct simtab_rule	 r[2] = {
		{ 10 * NS, 20 * NS, 1 },
		{ NS, INT64_MAX, 1 },
	};
	struct simtab		*t;
	uint32_t		 c;
	size_t			 i;
	int			 flags;

	(void)state;
	t = simtab_new(r, 2);
	c = find(t, 7, "k");
	for (i = 0; i < sizeof req / sizeof req[0]; i++) {
		flags = simtab_apply(t, c, 0, 1, 1, req[i].at * NS);
		assert_int_equal((flags & SIMTAB_MITIGATED) != 0,
		    req[i].mitigated);
	}
	assert_int_equal(simtab_state(t, c, 0)->mitigated, 4);
	/* Counted only: starts a mitigation; matched only: mitigated. */
	assert_int_equal(simtab_apply(t, c, 1, 0, 1, INT64_MAX - 2),
	    SIMTAB_NEW_CLIENT);
	assert_int_equal(simtab_apply(t, c, 1, 0, 1, INT64_MAX - 1), 0);
	assert_int_equal(simtab_apply(t, c, 1, 1, 0, INT64_MAX - 1),
	    SIMTAB_MITIGATED | SIMTAB_NEW_MITIGATED);
	simtab_free(t);
}

/* One hash for all: keys apart by length, by their last byte either side
 * of what a slot holds, and long keys alike in all a slot holds. */
static void
test_collisions(void **state)
{
	struct simtab_rule	 r = { NS, 0, 2 };
	struct simtab		*t;
	char			 keys[8][80];
	uint32_t		 c[8];
	const char		*k;
	size_t			 i, j, len;

	(void)state;
	memset(keys, 0, sizeof keys);
	snprintf(keys[0], sizeof keys[0], "a");
	snprintf(keys[1], sizeof keys[1], "ab");
	memset(keys[2], 'x', 48);
	memset(keys[3], 'x', 47);
	keys[3][47] = 'y';
	memset(keys[4], 'x', 49);
	memset(keys[5], 'x', 48);
	keys[5][48] = 'y';
	memset(keys[6], 'x', 70);
	memset(keys[7], 'x', 69);
	keys[7][69] = 'z';
	t = simtab_new(&r, 1);
	for (i = 0; i < 8; i++)
		c[i] = find(t, 42, keys[i]);
	assert_int_equal(simtab_clients(t), 8);
	for (i = 0; i < 8; i++) {
		for (j = 0; j < i; j++)
			assert_int_not_equal(c[i], c[j]);
		/* Found again, whatever the order. */
		assert_int_equal(find(t, 42, keys[7 - i]), c[7 - i]);
		k = simtab_key(t, c[i], &len);
		assert_int_equal(len, strlen(keys[i]));
		assert_memory_equal(k, keys[i], len);
	}
	/* The same key with another hash is another client (the caller
	 * makes equal keys hash alike). */
	assert_int_equal(find(t, 43, keys[0]), 8);
	simtab_free(t);
}

/* Many clients, their hashes in few places: each found again with the
 * requests it had, after every growth of slots and states. */
static void
test_growth(void **state)
{
	struct simtab_rule	 r[3] = {
		{ NS, 0, 4 }, { NS, NS, 1 }, { 60 * NS, 0, 1000 },
	};
	struct simtab		*t;
	char			 key[32];
	uint32_t		 c, n = 20000, i, j;

	(void)state;
	t = simtab_new(r, 3);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof key, "client-%u", i);
		/* Runs of a hundred share a hash: long probe chains. */
		c = find(t, (uint64_t)(i / 100) * 0x9e3779b97f4a7c15ULL, key);
		assert_int_equal(c, i);
		for (j = 0; j <= i % 3; j++)
			(void)simtab_apply(t, c, i % 3, 1, 1, j * NS);
	}
	assert_int_equal(simtab_clients(t), n);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof key, "client-%u", i);
		c = find(t, (uint64_t)(i / 100) * 0x9e3779b97f4a7c15ULL, key);
		assert_int_equal(c, i);
		for (j = 0; j < 3; j++)
			assert_int_equal(simtab_state(t, c, j)->requests,
			    j == i % 3 ? i % 3 + 1 : 0);
	}
	assert_int_equal(simtab_clients(t), n);
	simtab_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_order),
		cmocka_unit_test(test_rings_apart),
		cmocka_unit_test(test_window_reference),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_growth),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
