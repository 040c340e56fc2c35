/* libedge's log lines collected in memory, for tests that scan them. */
#ifndef EDGE_TESTLOG_H
#define EDGE_TESTLOG_H

/* From now on every line at debug level and up is collected. */
void	 testlog_start(void);
/*
 * Back to warnings on stderr. Returns what was collected, a line each
 * (caller frees), or NULL when nothing was logged.
 */
char	*testlog_stop(void);

#endif
