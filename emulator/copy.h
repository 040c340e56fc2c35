/*
 * Videos made by edgemu itself rather than uploaded: copies from a URL
 * (copy.c) and clips of a ready video (clip.c). Both take the optional
 * fields of a new video from the body the same way.
 */
#ifndef EDGEMU_COPY_H
#define EDGEMU_COPY_H

#include <stdint.h>

#include <cjson/cJSON.h>

struct req;
struct stream_new;

/*
 * The optional fields of a new video in a JSON body: meta (and the legacy
 * name), creator (or Upload-Creator), allowedOrigins, requireSignedURLs,
 * thumbnailTimestampPct, watermark, scheduledDeletion (*deletion, 0: none).
 * *meta is a copy of meta with the name in it (caller frees). 0, or -1
 * with a cause.
 */
int	 copy_new_fields(const cJSON *, struct req *, int64_t,
	     struct stream_new *, cJSON **, int64_t *, char **);

/* clip.c: POST /stream/clip. */
struct reply;
void	 clip_create(struct req *, struct reply *);

#endif
