/* A fake clock for libedge's HTTP hooks: time moves only when it is slept. */
#include "config.h"

#include <time.h>

#include "testclock.h"
#include "common.h"

double
testclock_clock(void *arg)
{
	return (((struct testclock *)arg)->now);
}

time_t
testclock_wall(void *arg)
{
	return (TESTCLOCK_WALL + (time_t)((struct testclock *)arg)->now);
}

void
testclock_sleep(long ms, void *arg)
{
	struct testclock	*f = arg;

	if (f->nsleeps < (int)nitems(f->sleeps))
		f->sleeps[f->nsleeps++] = ms;
	f->now += (double)ms / 1000;
}

/* No jitter: the delays asked for are exactly the ones computed. */
double
testclock_jitter(void *arg)
{
	(void)arg;
	return (0);
}
