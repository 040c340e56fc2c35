/*
 * A transfer's rate from its counts: this run's bytes over this run's
 * time, both measured from the run's first count.
 */
#include "config.h"

#include <string.h>

#include "xferrate.h"

void
xferrate_reset(struct xferrate *r)
{
	memset(r, 0, sizeof *r);
}

double
xferrate_feed(struct xferrate *r, double now, long long count)
{
	double	secs;

	if (!r->started || count < r->base) {
		r->started = 1;
		r->start = now;
		r->base = count;
		return (0);
	}
	secs = now - r->start;
	if (secs < XFERRATE_MIN_SECONDS)
		return (0);
	return ((double)(count - r->base) / secs);
}
