/* A fake clock for libedge's HTTP hooks: time moves only when it is slept. */
#ifndef EDGE_TESTCLOCK_H
#define EDGE_TESTCLOCK_H

#include <time.h>

/* The wall clock at fake time 0. */
#define TESTCLOCK_WALL	((time_t)1700000000)

/* Zero it to start; each sleep is recorded (the first 16) and moves now. */
struct testclock {
	double	 now;
	long	 sleeps[16];
	int	 nsleeps;
};

/* struct http_hooks members; the argument is the struct testclock. */
double	 testclock_clock(void *);
time_t	 testclock_wall(void *);
void	 testclock_sleep(long, void *);
double	 testclock_jitter(void *);

#endif
