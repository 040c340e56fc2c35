/*
 * A log file's bytes for the access log reader: gunzipped when they start
 * as gzip (members one after another, as gzip -d reads them), and, from a
 * pipe, FIFO or terminal, waited for with poll so that the caller's cancel
 * is heard even when no byte ever comes.
 */
#ifndef EDGE_LOGREAD_H
#define EDGE_LOGREAD_H

#include <sys/types.h>

#include <stdint.h>

/* How often a wait for bytes asks whether it is cancelled. */
#define LOGREAD_WAIT_MS		100

/* Non-zero: stop waiting (the read fails with "cancelled"). */
typedef int (*logread_cancelled_cb)(void *);

struct logread;

/*
 * Open path ("-": standard input) without waiting for a FIFO's writer;
 * NULL with *cause ("PATH: reason") when it cannot be read. cancelled may
 * be NULL.
 */
struct logread	*logread_open(const char *, logread_cancelled_cb, void *,
		     char **);
void		 logread_close(struct logread *);
/*
 * Up to n bytes of the log: how many (0 at its end), or -1 with the bare
 * reason in *cause (an I/O error, damaged or cut gzip data, "cancelled").
 */
ssize_t		 logread_read(struct logread *, void *, size_t, char **);
/* Bytes of the file read so far, and its size (0 when unknown). */
void		 logread_progress(const struct logread *, uint64_t *,
		     uint64_t *);

#endif
