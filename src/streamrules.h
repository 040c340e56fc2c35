/*
 * Stream's rules as the service applies them (api-map section 5 and the
 * spec): the limits of videos, uploads, live inputs, watermarks, tracks
 * and signed tokens, and the values their fields take. edgetui checks with
 * them before sending, edgemu refuses with them: one copy, so the two
 * agree. Caption languages are captionlang.h's.
 */
#ifndef EDGE_STREAMRULES_H
#define EDGE_STREAMRULES_H

#include <stddef.h>
#include <stdint.h>

/* ---- videos ------------------------------------------------------------ */

#define STREAMRULES_CREATOR_MAX		64	/* characters */
#define STREAMRULES_DURATION_MAX	21600	/* maxDurationSeconds, from 1 */
#define STREAMRULES_LIST_MAX		1000	/* videos in one page */
/* scheduledDeletion: this many days after the video's creation. */
#define STREAMRULES_DELETION_DAYS_MIN	30
#define STREAMRULES_DELETION_DAYS_MAX	1096
/* A direct upload's expiry: this many seconds from now. */
#define STREAMRULES_EXPIRY_MIN		(2 * 60)
#define STREAMRULES_EXPIRY_MAX		(6 * 3600)

/* A video's downloads, NULL-ended: default (MP4), the default, and audio. */
extern const char *const streamrules_download_types[];
/* A video's states and types (filters of a list), NULL-ended. */
extern const char *const streamrules_video_states[];
extern const char *const streamrules_video_types[];

/*
 * Times in microseconds since the epoch, the finest the API's times are:
 * 1 if a deletion at when is in the window after from (the creation), and
 * if an upload URL expiring at when is in the window after now.
 */
#define STREAMRULES_US	1000000LL
int	 streamrules_deletion_ok(int64_t, int64_t);
int	 streamrules_expiry_ok(int64_t, int64_t);

/* ---- uploads ----------------------------------------------------------- */

/*
 * A tus chunk: at most 200 MiB; at least 5 MiB and a multiple of 256 KiB,
 * except the one that completes the upload.
 */
#define STREAMRULES_CHUNK_MIN		5242880LL	/* 5 MiB */
#define STREAMRULES_CHUNK_ALIGN		262144LL	/* 256 KiB */
#define STREAMRULES_CHUNK_MAX		209715200LL	/* 200 MiB */

enum streamrules_chunk {
	STREAMRULES_CHUNK_OK,
	STREAMRULES_CHUNK_TOO_SMALL,
	STREAMRULES_CHUNK_TOO_BIG,
	STREAMRULES_CHUNK_UNALIGNED
};
/* What the rules say of a chunk of that many bytes that is not the last. */
enum streamrules_chunk streamrules_chunk_check(long long);

/* ---- captions, audio tracks, watermarks -------------------------------- */

#define STREAMRULES_CAPTION_FILE_MAX	(10 * 1024 * 1024)	/* bytes */
#define STREAMRULES_AUDIO_LABEL_MAX	256	/* characters */
#define STREAMRULES_WATERMARK_NAME_MAX	1024	/* characters */
/* Where a watermark goes, NULL-ended; the first is the default. */
extern const char *const streamrules_positions[];

/* ---- live inputs and their outputs ------------------------------------- */

/* deleteRecordingAfterDays, recording.timeoutSeconds */
#define STREAMRULES_LIVE_DELETE_DAYS_MIN 30
#define STREAMRULES_LIVE_TIMEOUT_MAX	2147483647L
/* recording.mode: off, automatic; NULL-ended. */
extern const char *const streamrules_recording_modes[];

#define STREAMRULES_OUTPUT_URL_MAX	2048
#define STREAMRULES_OUTPUT_KEY_MAX	1024
/* "rtmp://", "rtmps://", "srt://": how an output's url starts; NULL-ended. */
extern const char *const streamrules_output_schemes[];
/* The length of the scheme s starts with, or 0 when it is none of those. */
size_t	 streamrules_output_scheme(const char *);

/* ---- signed tokens ----------------------------------------------------- */

#define STREAMRULES_TOKEN_EXP_MAX	(24 * 3600)	/* seconds ahead */
#define STREAMRULES_TOKEN_RULES_MAX	5	/* accessRules */

/*
 * An access rule's address: IPv4 or IPv6, with an optional /prefix in
 * range. 0 with the address (16 bytes, IPv4 in the first 4), whether it is
 * IPv6 and the prefix (the whole address without one); -1 if it is none.
 */
int	 streamrules_cidr(const char *, unsigned char[16], int *, int *);
/* 1 if s is a country as an access rule takes it: two ASCII letters. */
int	 streamrules_country_ok(const char *);

#endif
