/*
 * A token bucket shared by the worker thread (which takes tokens) and the
 * UI (which shows what is left), behind one mutex. Pure arithmetic on the
 * times it is given, so tests drive it with a fake clock.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "budget.h"
#include "log.h"
#include "xmalloc.h"

struct budget {
	pthread_mutex_t	 lock;
	double		 capacity;
	double		 rate;		/* tokens per second */
	double		 tokens;
	int		 started;
	double		 last;		/* time tokens was computed for */
	int		 blocked;
	double		 blocked_until;
};

struct budget *
budget_new(double capacity, double window)
{
	struct budget	*b;

	if (!(capacity > 0))
		capacity = BUDGET_DEFAULT_CAPACITY;
	if (!(window > 0))
		window = BUDGET_DEFAULT_WINDOW;
	b = xcalloc(1, sizeof *b);
	if (pthread_mutex_init(&b->lock, NULL) != 0)
		fatalx("budget_new: pthread_mutex_init failed");
	b->capacity = capacity;
	b->rate = capacity / window;
	b->tokens = capacity;
	return (b);
}

void
budget_free(struct budget *b)
{
	if (b == NULL)
		return;
	pthread_mutex_destroy(&b->lock);
	free(b);
}

/* Bring tokens up to now; called with the lock held. */
static void
budget_refill(struct budget *b, double now)
{
	if (b->blocked) {
		if (now < b->blocked_until)
			return;
		b->tokens = 1;
		b->last = b->blocked_until;
		b->blocked = 0;
	}
	if (!b->started) {
		b->started = 1;
		b->last = now;
		return;
	}
	if (now < b->last)
		return;		/* the clock went back: nothing to add */
	b->tokens += (now - b->last) * b->rate;
	if (b->tokens > b->capacity)
		b->tokens = b->capacity;
	b->last = now;
}

int
budget_take(struct budget *b, double now, long *wait_ms)
{
	double	wait;
	int	rc = 0;

	pthread_mutex_lock(&b->lock);
	budget_refill(b, now);
	if (b->blocked) {
		wait = b->blocked_until - now;
		rc = 1;
	} else if (b->tokens >= 1) {
		b->tokens -= 1;
		wait = 0;
	} else {
		wait = (1 - b->tokens) / b->rate;
		if (now < b->last)
			wait += b->last - now;
		rc = 1;
	}
	pthread_mutex_unlock(&b->lock);
	*wait_ms = rc == 0 ? 0 : (long)ceil(wait * 1000);
	if (rc != 0 && *wait_ms < 1)
		*wait_ms = 1;
	return (rc);
}

long
budget_remaining(struct budget *b, double now)
{
	double	tokens;

	pthread_mutex_lock(&b->lock);
	budget_refill(b, now);
	tokens = b->blocked ? 0 : b->tokens;
	pthread_mutex_unlock(&b->lock);
	return ((long)floor(tokens));
}

void
budget_penalize(struct budget *b, double now, double until)
{
	pthread_mutex_lock(&b->lock);
	budget_refill(b, now);
	b->tokens = 0;
	if (until > now && (!b->blocked || until > b->blocked_until)) {
		b->blocked = 1;
		b->blocked_until = until;
	}
	pthread_mutex_unlock(&b->lock);
}
