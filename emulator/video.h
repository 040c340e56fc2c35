/*
 * The Stream video record as the Stream files use it: the table, the video
 * as the API shows it, its file, creating a video that waits for its bytes,
 * the upload records tus.c and direct.c drive, the field checks, the video
 * a route's path names, and a video's bytes sent with HTTP ranges.
 */
#ifndef EDGEMU_VIDEO_H
#define EDGEMU_VIDEO_H

#include <stdint.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "util.h"

#define STREAM_ACCOUNT		"/accounts/{account:hex32}"
/*
 * Below the listener's root, outside API_PREFIX: a video's URLs are
 * VIDEO_MEDIA_ROOT/{uid}/... (delivery.c and downloads.c serve them).
 */
#define VIDEO_MEDIA_ROOT	"/media"
#define VIDEO_DAY		(86400LL * 1000000)

struct store;

extern const char video_schema[];

/* The columns a video is shown from, in this order. */
#define VIDEO_COLS \
	"account, uid, created, modified, uploaded, creator, meta, size," \
	" state, pct, process_start, process_end, outcome, error_code," \
	" error_text, duration, width, height, thumb_pct, allowed_origins," \
	" require_signed, scheduled_deletion, max_duration, watermark," \
	" upload_kind, upload_length, upload_expiry, live_input," \
	" (SELECT clipped_from FROM stream_clip c" \
	"  WHERE c.account = stream_video.account AND c.uid = stream_video.uid)"
enum {
	VIDEO_COL_ACCOUNT, VIDEO_COL_UID, VIDEO_COL_CREATED,
	VIDEO_COL_MODIFIED, VIDEO_COL_UPLOADED, VIDEO_COL_CREATOR,
	VIDEO_COL_META, VIDEO_COL_SIZE, VIDEO_COL_STATE, VIDEO_COL_PCT,
	VIDEO_COL_PROCESS_START, VIDEO_COL_PROCESS_END, VIDEO_COL_OUTCOME,
	VIDEO_COL_ERROR_CODE, VIDEO_COL_ERROR_TEXT, VIDEO_COL_DURATION,
	VIDEO_COL_WIDTH, VIDEO_COL_HEIGHT, VIDEO_COL_THUMB_PCT,
	VIDEO_COL_ORIGINS, VIDEO_COL_SIGNED, VIDEO_COL_DELETION,
	VIDEO_COL_MAX_DURATION, VIDEO_COL_WATERMARK, VIDEO_COL_UPLOAD_KIND,
	VIDEO_COL_UPLOAD_LENGTH, VIDEO_COL_UPLOAD_EXPIRY, VIDEO_COL_LIVE_INPUT,
	VIDEO_COL_CLIPPED_FROM		/* clip.c's table */
};

/*
 * What a video shows now: a stored "queued" with a processing clock moves
 * through inprogress to its outcome as time passes.
 */
struct video_view {
	const char	*state;
	double		 pct;
	int		 known;		/* duration and size are known */
};
void	 video_view(const char *, double, int64_t, int64_t, const char *,
	     int64_t, struct video_view *);
/* Columns of a SELECT VIDEO_COLS row; a time column NULL is 0. */
const char *video_col_text(sqlite3_stmt *, int);
int64_t	 video_col_time(sqlite3_stmt *, int);
/* The row of a SELECT VIDEO_COLS as the API shows it at the given time. */
cJSON	*video_row_json(sqlite3_stmt *, int64_t);
/* 1 with the video, 0 when there is no such video, -1 on a store failure. */
int	 video_lookup(struct store *, const char *, const char *, cJSON **);
/* The server whose listener a video's URLs name (delivery.c); NULL: none. */
struct server;
void	 video_set_server(const struct server *);
/* meta as stored (caller frees), and its name (caller frees). */
char	*video_meta_text(const cJSON *, char **);

/* The video as the API shows it, or NULL when the account has no such uid. */
cJSON	*stream_video_load(struct store *, const char *, const char *);
/* Where a video's uploaded bytes are kept (caller frees); may not exist. */
char	*stream_video_file(struct store *, const char *, const char *);
/*
 * DATA/videos/<account>, made when missing; and an empty file for a video,
 * on disk before its record (excl: it must not exist yet).
 */
int	 video_account_dir(struct store *, const char *, char **);
int	 video_create_file(struct store *, const char *, const char *, int,
	     char **);

/* Times: microseconds since the epoch, shown as RFC 3339 with microseconds. */
int64_t	 stream_now(void);
/* Unix seconds, fractional: the clock of what hangs off a video. */
double	 video_now_seconds(void);
void	 stream_time_iso(int64_t, char[ISO_TIME_LEN]);
int	 stream_parse_time(const char *, int64_t *);
/* scheduledDeletion: in streamrules' window after the video's creation. */
int	 stream_check_deletion(int64_t, int64_t, char **);

/* Checks of body fields shared by edit and direct_upload (value not null). */
int	 stream_check_origins(const cJSON *, char **);
int	 stream_check_creator(const cJSON *, char **);
int	 stream_check_max_duration(const cJSON *, long *, char **);
int	 stream_check_thumb(const cJSON *, double *, char **);
int	 stream_check_date(const cJSON *, const char *, int64_t *, char **);

/* ---- the video in a route's path: {account} and {identifier} ------------- */

struct req;
struct reply;

/* The video, or NULL once the reply says it was not found (404). */
cJSON	*video_of_path(struct req *, struct reply *);
/* 1 if the video exists, else 0 once the reply says so. */
int	 video_path_exists(struct req *, struct reply *);
/*
 * The reply to a list of the video's rows: sql binds ?1 the account and ?2
 * the video; row makes each row's object.
 */
void	 video_path_list(struct req *, struct reply *, const char *,
	     cJSON *(*)(sqlite3_stmt *));

/* ---- a video's bytes over HTTP ------------------------------------------- */

enum video_range {
	VIDEO_RANGE_NONE,	/* none, or one to ignore: 200, whole */
	VIDEO_RANGE_OK,		/* one satisfiable range: 206 */
	VIDEO_RANGE_UNSATISFIABLE	/* 416 */
};

/*
 * Read a Range header for a file of size bytes. Only a single bytes range is
 * served (a-b, a-, -n); several ranges, another unit or bad syntax are
 * ignored (RFC 9110 14.2 allows that), so the whole file goes out.
 */
enum video_range video_range(const char *, uint64_t, uint64_t *, uint64_t *);
/*
 * Answer with a file's size bytes from fd (which it closes): the range the
 * request asks for (206 or 416), else the whole file; a request with
 * If-Range gets the whole file.
 */
void	 video_send_fd(struct req *, struct reply *, int, uint64_t,
	     const char *);

/* ---- uploads (tus.c, direct.c) ------------------------------------------- */

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
/*
 * The optional fields of a new video in a JSON body (a copy's, a clip's):
 * meta (and the legacy name), creator (or Upload-Creator), allowedOrigins,
 * requireSignedURLs, thumbnailTimestampPct, watermark, scheduledDeletion
 * (*deletion, 0: none). *meta is a copy of meta with the name in it
 * (caller frees). 0, or -1 with a cause.
 */
int	 video_new_fields(const cJSON *, struct req *, int64_t,
	     struct stream_new *, cJSON **, int64_t *, char **);
/* 1 found, 0 not, -1 store failure; account NULL: any account. */
int	 stream_upload_get(struct store *, const char *, const char *,
	     struct stream_upload *);
void	 stream_upload_free(struct stream_upload *);
/* Delete a video and its bytes: 1 done, 0 no such video, -1 store failure. */
int	 stream_video_remove(struct store *, const char *, const char *);

#endif
