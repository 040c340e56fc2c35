/*
 * The demo Stream videos (--demo-data), and what the other areas' demo data
 * needs of them.
 */
#ifndef EDGEMU_STREAM_DEMO_H
#define EDGEMU_STREAM_DEMO_H

#include "util.h"

struct store;

/* The stream area's demo hook: fifty videos in every state. */
int	 stream_demo(struct store *, const char *, const char *, char **);
/*
 * Demo data for the other areas: up to max uids of ready demo videos, oldest
 * first (the count is returned, -1 on a store failure); and a small valid
 * MP4 with the video's duration written as its stored bytes when they are
 * missing (demo videos have their files from the start).
 */
int	 stream_demo_ready_uids(struct store *, const char *, char[][33], int);
int	 stream_video_write_mp4(struct store *, const char *, const char *,
	     char **);

#endif
