/*
 * A transfer's rate: the bytes moved in this run over the time since its
 * first count, so what the server held before a resume (the first count
 * of a resumed upload) is never taken for bytes sent.
 */
#ifndef EDGE_XFERRATE_H
#define EDGE_XFERRATE_H

/* Below this a run is too young for a rate: none is given. */
#define XFERRATE_MIN_SECONDS	0.2

struct xferrate {
	int		 started;
	double		 start;		/* seconds, of any monotonic clock */
	long long	 base;		/* the run's first count */
};

/* A new run: its next count is where it starts. */
void	 xferrate_reset(struct xferrate *);
/*
 * The count (bytes moved so far, of the whole transfer) at time now:
 * the run's bytes per second, 0 while it is too young to say. A count
 * below the base (the server lost bytes) starts the run again from it.
 */
double	 xferrate_feed(struct xferrate *, double, long long);

#endif
