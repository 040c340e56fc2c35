/*
 * The process-wide request budget: a token bucket that keeps the console
 * under the API's global limit (1200 requests per 5 minutes) before the
 * server has to refuse. Thread-safe; the clock is the caller's.
 */
#ifndef EDGE_BUDGET_H
#define EDGE_BUDGET_H

#define BUDGET_DEFAULT_CAPACITY	1200
#define BUDGET_DEFAULT_WINDOW	300.0	/* seconds */

struct budget;

/*
 * capacity requests per window seconds, refilled continuously; the bucket
 * starts full. 0 (or less) for either takes the default. Times passed to
 * the other calls are seconds on one clock of the caller's (monotonic in
 * the program, fake in tests); a clock that goes back adds nothing.
 */
struct budget	*budget_new(double, double);
void		 budget_free(struct budget *);

/*
 * Take one token: 0, or 1 with *wait_ms the time until one is available
 * (nothing is taken then).
 */
int		 budget_take(struct budget *, double, long *);

/* Whole tokens left at now. */
long		 budget_remaining(struct budget *, double);

/*
 * The server says the real budget is gone (429) until the given time on
 * the same clock: empty the bucket and hold it empty until then, when one
 * token is back and refilling resumes.
 */
void		 budget_penalize(struct budget *, double, double);

#endif
