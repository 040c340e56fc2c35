/*
 * The processing clock of Stream videos: an upload's bytes recorded, the
 * outcome decided when the last lands, and the thread that makes it final.
 */
#ifndef EDGEMU_PROCESSING_H
#define EDGEMU_PROCESSING_H

#include <stdint.h>

struct server;
struct store;

/* Seconds that pretend processing takes (--processing-seconds). */
int	 stream_processing_seconds(void);
/*
 * Record bytes durably on disk: the new offset, and with complete the end of
 * the upload (its length becomes the offset) and the start of processing.
 * 0; 1 with a cause when the upload is gone (deleted, or complete already);
 * -1 with a cause when the store failed.
 */
int	 stream_upload_record(struct store *, const char *, const char *,
	     int64_t, int, char **);
/* The stream area's start and stop: reconcile uploads, run the clock. */
int	 processing_start(struct server *, char **);
void	 processing_stop(struct server *);

#endif
