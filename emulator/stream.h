/*
 * Stream videos as the other Stream files see them: records, the bytes on
 * disk, the processing clock, and the upload records tus.c drives.
 */
#ifndef EDGEMU_STREAM_H
#define EDGEMU_STREAM_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "util.h"

#define STREAM_ACCOUNT		"/accounts/{account:hex32}"
#define STREAM_CREATOR_MAX	64		/* characters */
#define STREAM_DURATION_MAX	21600		/* maxDurationSeconds */
#define STREAM_UPLOAD_MAX	209715200ULL	/* basic uploads: 200 MiB */
#define STREAM_LIST_MAX		1000

struct req;
struct reply;
struct server;
struct store;

/* The video as the API shows it, or NULL when the account has no such uid. */
cJSON	*stream_video_load(struct store *, const char *, const char *);
/* Where a video's uploaded bytes are kept (caller frees); may not exist. */
char	*stream_video_file(struct store *, const char *, const char *);
/* Seconds that pretend processing takes (--processing-seconds). */
int	 stream_processing_seconds(void);

/*
 * Demo data for the other areas: up to max uids of ready demo videos, oldest
 * first (the count is returned, -1 on a store failure); and a small valid
 * MP4 with the video's duration written as its stored bytes when they are
 * missing (demo videos have their files from the start).
 */
int	 stream_demo_ready_uids(struct store *, const char *, char[][33], int);
int	 stream_video_write_mp4(struct store *, const char *, const char *,
	     char **);

/* Times: microseconds since the epoch, shown as RFC 3339 with microseconds. */
int64_t	 stream_now(void);
void	 stream_time_iso(int64_t, char[ISO_TIME_LEN]);
int	 stream_parse_time(const char *, int64_t *);
/* scheduledDeletion: 30 to 1096 days after the video was created. */
int	 stream_check_deletion(int64_t, int64_t, char **);

/* Checks of body fields shared by edit and direct_upload (value not null). */
int	 stream_check_origins(const cJSON *, char **);
int	 stream_check_creator(const cJSON *, char **);
int	 stream_check_max_duration(const cJSON *, long *, char **);
int	 stream_check_thumb(const cJSON *, double *, char **);
int	 stream_check_date(const cJSON *, const char *, int64_t *, char **);

/* ---- uploads (tus.c) ----------------------------------------------------- */

enum stream_upload_kind {
	STREAM_UPLOAD_NONE,		/* demo videos */
	STREAM_UPLOAD_TUS,		/* authenticated tus */
	STREAM_UPLOAD_TUS_DIRECT,	/* tus to a one-time URL */
	STREAM_UPLOAD_DIRECT		/* one multipart POST, one-time URL */
};

/* A new video waiting for its bytes. */
struct stream_new {
	const char		*creator;	/* NULL: none */
	const cJSON		*meta;		/* object or NULL */
	int			 require_signed;
	const cJSON		*allowed_origins; /* array or NULL */
	double			 thumb_pct;
	const char		*scheduled_deletion;	/* RFC 3339 or NULL */
	long			 max_duration;	/* -1: none */
	const char		*watermark_uid;	/* NULL: none */
	enum stream_upload_kind	 kind;
	int64_t			 length;	/* tus Upload-Length; -1 */
	const char		*metadata;	/* Upload-Metadata as sent */
	int64_t			 expiry;	/* microseconds; 0: none */
	const char		*token;		/* one-time URLs; NULL */
};

/* An upload as tus.c needs it. */
struct stream_upload {
	char			 account[HEX32_LEN + 1];
	char			 uid[HEX32_LEN + 1];
	enum stream_upload_kind	 kind;
	int			 pending;	/* still waiting for bytes */
	int64_t			 length;	/* -1: not known yet */
	int64_t			 offset;
	int64_t			 expiry;	/* 0: none */
	char			 token[HEX32_LEN + 1];
	char			*metadata;	/* NULL: none; caller frees */
};

int	 stream_video_create(struct store *, const char *,
	     const struct stream_new *, char[HEX32_LEN + 1], char **);
/* 1 found, 0 not, -1 store failure; account NULL: any account. */
int	 stream_upload_get(struct store *, const char *, const char *,
	     struct stream_upload *);
void	 stream_upload_free(struct stream_upload *);
/*
 * Record bytes durably on disk: the new offset, and with complete the end of
 * the upload (its length becomes the offset) and the start of processing.
 * 0; 1 with a cause when the upload is gone (deleted, or complete already);
 * -1 with a cause when the store failed.
 */
int	 stream_upload_record(struct store *, const char *, const char *,
	     int64_t, int, char **);
/* Delete a video and its bytes: 1 done, 0 no such video, -1 store failure. */
int	 stream_video_remove(struct store *, const char *, const char *);
/* The GET handler, for HEAD without Tus-Resumable. */
void	 stream_video_reply(struct req *, struct reply *);

#endif
