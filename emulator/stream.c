/*
 * Stream videos under /accounts/{account}/stream: the records, list (the
 * created-date cursor), get, edit, delete, storage usage, the processing
 * clock that takes an upload to ready or error, and the demo library.
 *
 * A video's bytes live in DATA/videos/<account>/<uid>. Times are kept in
 * microseconds; created is unique per account (a new video takes now, or
 * one microsecond after the newest, whichever is later), so the list cursor
 * (end = the oldest created seen, compared strictly) never repeats or skips
 * a video at a page boundary.
 *
 * Processing is a clock, not a job: when the last byte lands, the outcome
 * (ready, or error with its code) is decided from the bytes and stored with
 * the time it becomes visible. Reads derive queued -> inprogress -> final
 * from that clock; a thread makes the final state durable at that moment and
 * sends the webhook, whether or not anyone reads.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "media.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "tus.h"
#include "util.h"
#include "webhook.h"
#include "xmalloc.h"

#define STREAM_PATH		STREAM_ACCOUNT "/stream"
#define STREAM_DAY		(86400LL * 1000000)
#define STREAM_STORAGE_LIMIT	100000	/* minutes */
#define STREAM_RESERVE_DEFAULT	14400	/* seconds held for a direct upload */

static const char stream_schema[] =
	"CREATE TABLE IF NOT EXISTS stream_video ("
	" account TEXT NOT NULL,"
	" uid TEXT NOT NULL,"
	" created INTEGER NOT NULL,"
	" modified INTEGER NOT NULL,"
	" uploaded INTEGER,"
	" creator TEXT,"
	" meta TEXT NOT NULL DEFAULT '{}',"
	" name TEXT NOT NULL DEFAULT '',"
	" size INTEGER NOT NULL DEFAULT 0,"
	" state TEXT NOT NULL DEFAULT 'pendingupload',"
	" pct REAL NOT NULL DEFAULT 0,"
	" process_start INTEGER,"
	" process_end INTEGER,"
	" outcome TEXT,"
	" error_code TEXT,"
	" error_text TEXT,"
	" duration REAL NOT NULL DEFAULT -1,"
	" width INTEGER NOT NULL DEFAULT -1,"
	" height INTEGER NOT NULL DEFAULT -1,"
	" thumb_pct REAL NOT NULL DEFAULT 0,"
	" allowed_origins TEXT NOT NULL DEFAULT '[]',"
	" require_signed INTEGER NOT NULL DEFAULT 0,"
	" scheduled_deletion TEXT,"
	" max_duration INTEGER NOT NULL DEFAULT -1,"
	" watermark TEXT,"
	" upload_kind INTEGER NOT NULL DEFAULT 0,"
	" upload_length INTEGER NOT NULL DEFAULT -1,"
	" upload_offset INTEGER NOT NULL DEFAULT 0,"
	" upload_metadata TEXT,"
	" upload_expiry INTEGER,"
	" upload_token TEXT,"
	" live_input TEXT,"
	" PRIMARY KEY (account, uid),"
	" UNIQUE (account, created));"
	"CREATE INDEX IF NOT EXISTS stream_video_uid ON stream_video (uid);"
	"CREATE INDEX IF NOT EXISTS stream_video_due"
	" ON stream_video (state, process_end);";

/* The columns a video is shown from, in this order. */
#define STREAM_COLS \
	"account, uid, created, modified, uploaded, creator, meta, size," \
	" state, pct, process_start, process_end, outcome, error_code," \
	" error_text, duration, width, height, thumb_pct, allowed_origins," \
	" require_signed, scheduled_deletion, max_duration, watermark," \
	" upload_kind, upload_length, upload_expiry, live_input"
enum {
	COL_ACCOUNT, COL_UID, COL_CREATED, COL_MODIFIED, COL_UPLOADED,
	COL_CREATOR, COL_META, COL_SIZE, COL_STATE, COL_PCT,
	COL_PROCESS_START, COL_PROCESS_END, COL_OUTCOME, COL_ERROR_CODE,
	COL_ERROR_TEXT, COL_DURATION, COL_WIDTH, COL_HEIGHT, COL_THUMB_PCT,
	COL_ORIGINS, COL_SIGNED, COL_DELETION, COL_MAX_DURATION,
	COL_WATERMARK, COL_UPLOAD_KIND, COL_UPLOAD_LENGTH, COL_UPLOAD_EXPIRY,
	COL_LIVE_INPUT
};

/* The processing clock's thread. */
static struct {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	pthread_t	 thread;
	struct store	*store;
	int		 running;
	int		 stopping;
	int		 kicked;
	int		 seconds;
} stream_proc = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.seconds = 5
};

static void	stream_kick(void);

/* ---- times --------------------------------------------------------------- */

int64_t
stream_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

void
stream_time_iso(int64_t us, char out[ISO_TIME_LEN])
{
	struct timespec	ts;

	ts.tv_sec = (time_t)(us / 1000000);
	ts.tv_nsec = (long)(us % 1000000) * 1000;
	util_time_iso(&ts, out);
}

int
stream_parse_time(const char *s, int64_t *out)
{
	struct timespec	ts;

	if (s == NULL || util_parse_iso(s, &ts) != 0)
		return (-1);
	*out = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	return (0);
}

int
stream_check_deletion(int64_t when, int64_t created, char **cause)
{
	char	iso[ISO_TIME_LEN];

	if (when >= created + 30 * STREAM_DAY &&
	    when <= created + 1096 * STREAM_DAY)
		return (0);
	stream_time_iso(created, iso);
	*cause = xprintf("scheduledDeletion must be 30 to 1096 days after "
	    "the video was created (%s)", iso);
	return (-1);
}

int
stream_processing_seconds(void)
{
	return (stream_proc.seconds);
}

/* ---- files --------------------------------------------------------------- */

char *
stream_video_file(struct store *store, const char *account, const char *uid)
{
	return (xprintf("%s/videos/%s/%s", store_dir(store), account, uid));
}

static int
stream_sync_dir(const char *path)
{
	int	fd, rc;

	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (-1);
	rc = fsync(fd);
	close(fd);
	return (rc);
}

/* DATA/videos/<account>, made (and its entry synced) when missing. */
static int
stream_account_dir(struct store *store, const char *account, char **cause)
{
	char	*top, *dir;
	int	 rc = -1;

	top = xprintf("%s/videos", store_dir(store));
	dir = xprintf("%s/%s", top, account);
	if (mkdir(top, 0700) == 0)
		stream_sync_dir(store_dir(store));
	else if (errno != EEXIST)
		goto out;
	if (mkdir(dir, 0700) == 0)
		stream_sync_dir(top);
	else if (errno != EEXIST)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		*cause = xprintf("%s: %s", dir, strerror(errno));
	free(top);
	free(dir);
	return (rc);
}

/*
 * An empty file whose directory entry is on disk before the record is. A
 * new upload's must not exist yet; demo data (fixed uids) may find one left
 * by a seed that was rolled back.
 */
static int
stream_create_file(struct store *store, const char *account, const char *uid,
    int excl, char **cause)
{
	char	*path, *dir;
	int	 fd, rc = -1;

	if (stream_account_dir(store, account, cause) != 0)
		return (-1);
	path = stream_video_file(store, account, uid);
	dir = xprintf("%s/videos/%s", store_dir(store), account);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (excl ? O_EXCL :
	    O_TRUNC), 0600);
	if (fd == -1 || fsync(fd) != 0 || stream_sync_dir(dir) != 0)
		*cause = xprintf("%s: %s", path, strerror(errno));
	else
		rc = 0;
	if (fd != -1)
		close(fd);
	free(path);
	free(dir);
	return (rc);
}

/* ---- the video as the API shows it --------------------------------------- */

struct stream_view {
	const char	*state;
	double		 pct;
	int		 known;		/* duration and size are known */
};

/*
 * What a video shows now. Stored "queued" with a clock is queued for the
 * first fifth of the processing time, then inprogress with pctComplete
 * rising, then its outcome. Without a clock (demo data) a state stays put.
 */
static void
stream_view(const char *state, double pct, int64_t start, int64_t end,
    const char *outcome, int64_t now, struct stream_view *v)
{
	int64_t	q;

	v->state = state;
	v->pct = pct;
	v->known = 0;
	if (strcmp(state, "queued") == 0 && end > 0) {
		q = start + (end - start) / 5;
		if (now >= end)
			v->state = outcome != NULL ? outcome : "ready";
		else if (now < q) {
			v->pct = 0;
			return;
		} else {
			v->state = "inprogress";
			v->pct = floor(100.0 * (double)(now - q) /
			    (double)(end - q));
			v->known = 1;
			return;
		}
	}
	if (strcmp(v->state, "ready") == 0) {
		v->pct = 100;
		v->known = 1;
	} else if (strcmp(v->state, "error") == 0)
		v->known = 1;
	else if (strcmp(v->state, "inprogress") == 0)
		v->known = 1;
	else if (strcmp(v->state, "pendingupload") == 0 ||
	    strcmp(v->state, "queued") == 0)
		v->pct = 0;
}

static const char *
stream_col_text(sqlite3_stmt *st, int col)
{
	return ((const char *)sqlite3_column_text(st, col));
}

static int64_t
stream_col_time(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return (0);
	return (sqlite3_column_int64(st, col));
}

static void
stream_add_time(cJSON *o, const char *key, int64_t us)
{
	char	iso[ISO_TIME_LEN];

	if (us == 0) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	stream_time_iso(us, iso);
	cJSON_AddStringToObject(o, key, iso);
}

static void
stream_add_json(cJSON *o, const char *key, const char *text, int array)
{
	cJSON	*v = text != NULL ? cJSON_Parse(text) : NULL;

	if (v == NULL)
		v = text == NULL ? cJSON_CreateNull() : array ?
		    cJSON_CreateArray() : cJSON_CreateObject();
	cJSON_AddItemToObject(o, key, v);
}

/* customer-<code>: sixteen characters derived from the account. */
static void
stream_customer_code(const char *account, char code[17])
{
	static const char	digits[] =
	    "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned int		v;
	size_t			i;

	for (i = 0; i < 16; i++) {
		sscanf(account + 2 * i, "%2x", &v);
		code[i] = digits[v % 36];
	}
	code[16] = '\0';
}

static void
stream_add_urls(cJSON *o, const char *account, const char *uid, int ready)
{
	char	 code[17], *base, *s;
	cJSON	*pb;

	if (!ready)
		return;
	stream_customer_code(account, code);
	base = xprintf("https://customer-%s.cloudflarestream.com/%s", code,
	    uid);
	s = xprintf("%s/thumbnails/thumbnail.jpg", base);
	cJSON_AddStringToObject(o, "thumbnail", s);
	free(s);
	s = xprintf("%s/watch", base);
	cJSON_AddStringToObject(o, "preview", s);
	free(s);
	pb = cJSON_AddObjectToObject(o, "playback");
	s = xprintf("%s/manifest/video.m3u8", base);
	cJSON_AddStringToObject(pb, "hls", s);
	free(s);
	s = xprintf("%s/manifest/video.mpd", base);
	cJSON_AddStringToObject(pb, "dash", s);
	free(s);
	free(base);
}

static void
stream_add_text(cJSON *o, const char *key, const char *text)
{
	if (text != NULL)
		cJSON_AddStringToObject(o, key, text);
	else
		cJSON_AddNullToObject(o, key);
}

/* status: the error fields are empty strings unless the state is error. */
static void
stream_add_status(cJSON *o, sqlite3_stmt *st, const struct stream_view *v)
{
	cJSON		*status = cJSON_AddObjectToObject(o, "status");
	const char	*code = NULL, *text = NULL;
	char		 pct[32];

	cJSON_AddStringToObject(status, "state", v->state);
	snprintf(pct, sizeof pct, "%.6f", v->pct);
	cJSON_AddStringToObject(status, "pctComplete", pct);
	if (strcmp(v->state, "error") == 0) {
		code = stream_col_text(st, COL_ERROR_CODE);
		text = stream_col_text(st, COL_ERROR_TEXT);
	}
	cJSON_AddStringToObject(status, "errorReasonCode",
	    code != NULL ? code : "");
	cJSON_AddStringToObject(status, "errorReasonText",
	    text != NULL ? text : "");
}

/* Duration and picture size: -1 until processing has read them. */
static void
stream_add_media(cJSON *o, sqlite3_stmt *st, const struct stream_view *v)
{
	cJSON	*input;

	cJSON_AddNumberToObject(o, "duration", v->known ?
	    sqlite3_column_double(st, COL_DURATION) : -1);
	input = cJSON_AddObjectToObject(o, "input");
	cJSON_AddNumberToObject(input, "width", v->known ?
	    sqlite3_column_int(st, COL_WIDTH) : -1);
	cJSON_AddNumberToObject(input, "height", v->known ?
	    sqlite3_column_int(st, COL_HEIGHT) : -1);
}

/* The row of a SELECT STREAM_COLS as the API shows it at now. */
static cJSON *
stream_row_json(sqlite3_stmt *st, int64_t now)
{
	struct stream_view	 v;
	const char		*uid = stream_col_text(st, COL_UID);
	const char		*text;
	cJSON			*o;
	int			 ready, kind;

	stream_view(stream_col_text(st, COL_STATE),
	    sqlite3_column_double(st, COL_PCT),
	    stream_col_time(st, COL_PROCESS_START),
	    stream_col_time(st, COL_PROCESS_END),
	    stream_col_text(st, COL_OUTCOME), now, &v);
	ready = strcmp(v.state, "ready") == 0;
	kind = sqlite3_column_int(st, COL_UPLOAD_KIND);

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uid", uid);
	stream_add_text(o, "creator", stream_col_text(st, COL_CREATOR));
	stream_add_urls(o, stream_col_text(st, COL_ACCOUNT), uid, ready);
	cJSON_AddNumberToObject(o, "thumbnailTimestampPct",
	    sqlite3_column_double(st, COL_THUMB_PCT));
	cJSON_AddBoolToObject(o, "readyToStream", ready);
	stream_add_time(o, "readyToStreamAt", ready ?
	    stream_col_time(st, COL_PROCESS_END) : 0);
	stream_add_status(o, st, &v);
	stream_add_json(o, "meta", stream_col_text(st, COL_META), 0);
	stream_add_time(o, "created", stream_col_time(st, COL_CREATED));
	stream_add_time(o, "modified", stream_col_time(st, COL_MODIFIED));
	stream_add_text(o, "scheduledDeletion",
	    stream_col_text(st, COL_DELETION));
	cJSON_AddNumberToObject(o, "size",
	    (double)sqlite3_column_int64(st, COL_SIZE));
	stream_add_json(o, "allowedOrigins", stream_col_text(st, COL_ORIGINS),
	    1);
	cJSON_AddBoolToObject(o, "requireSignedURLs",
	    sqlite3_column_int(st, COL_SIGNED));
	stream_add_time(o, "uploaded", stream_col_time(st, COL_UPLOADED));
	stream_add_time(o, "uploadExpiry", (kind == STREAM_UPLOAD_DIRECT ||
	    kind == STREAM_UPLOAD_TUS_DIRECT) ?
	    stream_col_time(st, COL_UPLOAD_EXPIRY) : 0);
	cJSON_AddNullToObject(o, "maxSizeBytes");
	cJSON_AddNumberToObject(o, "maxDurationSeconds",
	    sqlite3_column_int64(st, COL_MAX_DURATION));
	stream_add_media(o, st, &v);
	stream_add_json(o, "watermark", stream_col_text(st, COL_WATERMARK), 0);
	if ((text = stream_col_text(st, COL_LIVE_INPUT)) != NULL)
		cJSON_AddStringToObject(o, "liveInput", text);
	return (o);
}

/* 1 with *out set, 0 when there is no such video, -1 on a store failure. */
static int
stream_lookup(struct store *store, const char *account, const char *uid,
    cJSON **out)
{
	static const char	 sql[] = "SELECT " STREAM_COLS
	    " FROM stream_video WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	*out = NULL;
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = stream_row_json(st, stream_now());
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

cJSON *
stream_video_load(struct store *store, const char *account, const char *uid)
{
	cJSON	*v;

	stream_lookup(store, account, uid, &v);
	return (v);
}

static void
stream_not_found(struct reply *rep, const char *uid)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found", uid);
}

void
stream_video_reply(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");
	cJSON		*v;

	switch (stream_lookup(req->store, req_param(req, "account"), uid,
	    &v)) {
	case 1:
		reply_ok(rep, v);
		break;
	case 0:
		stream_not_found(rep, uid);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
}

/* ---- uploads ------------------------------------------------------------- */

/* Call inside a write transaction: now, or just after the newest video. */
static int
stream_next_created(struct store *store, const char *account, int64_t now,
    int64_t *out)
{
	static const char	 sql[] =
	    "SELECT max(created) FROM stream_video WHERE account = ?1";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*out = now;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL &&
	    sqlite3_column_int64(st, 0) >= now)
		*out = sqlite3_column_int64(st, 0) + 1;
	store_done(st);
	return (rc == SQLITE_ROW ? 0 : -1);
}

static char *
stream_meta_text(const cJSON *meta, char **name)
{
	const cJSON	*n;

	n = cJSON_GetObjectItemCaseSensitive(meta, "name");
	*name = xstrdup(cJSON_IsString(n) ? n->valuestring : "");
	return (meta != NULL ? util_jprint(meta) : xstrdup("{}"));
}

static int
stream_insert_new(struct store *store, const char *account, const char *uid,
    int64_t created, const struct stream_new *nv)
{
	static const char	 sql[] =
	    "INSERT INTO stream_video (account, uid, created, modified,"
	    " creator, meta, name, size, require_signed, allowed_origins,"
	    " thumb_pct, scheduled_deletion, max_duration, watermark,"
	    " upload_kind, upload_length, upload_metadata, upload_expiry,"
	    " upload_token) VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			*meta, *name, *origins, *wm = NULL;
	int			 rc;

	meta = stream_meta_text(nv->meta, &name);
	origins = nv->allowed_origins != NULL ?
	    util_jprint(nv->allowed_origins) : xstrdup("[]");
	if (nv->watermark_uid != NULL)
		wm = xprintf("{\"uid\":\"%s\"}", nv->watermark_uid);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, created);
	if (nv->creator != NULL)
		sqlite3_bind_text(st, 4, nv->creator, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, meta, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, nv->length > 0 ? nv->length : 0);
	sqlite3_bind_int(st, 8, nv->require_signed != 0);
	sqlite3_bind_text(st, 9, origins, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 10, nv->thumb_pct);
	if (nv->scheduled_deletion != NULL)
		sqlite3_bind_text(st, 11, nv->scheduled_deletion, -1,
		    SQLITE_STATIC);
	sqlite3_bind_int64(st, 12, nv->max_duration);
	if (wm != NULL)
		sqlite3_bind_text(st, 13, wm, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 14, (int)nv->kind);
	sqlite3_bind_int64(st, 15, nv->length);
	if (nv->metadata != NULL)
		sqlite3_bind_text(st, 16, nv->metadata, -1, SQLITE_STATIC);
	if (nv->expiry != 0)
		sqlite3_bind_int64(st, 17, nv->expiry);
	if (nv->token != NULL)
		sqlite3_bind_text(st, 18, nv->token, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	free(meta);
	free(name);
	free(origins);
	free(wm);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/*
 * A new video waiting for its bytes, with its (empty) file. The file is
 * made before the commit, so a committed record always has one.
 */
int
stream_video_create(struct store *store, const char *account,
    const struct stream_new *nv, char uid[HEX32_LEN + 1], char **cause)
{
	int64_t	created;
	char	*path;

	util_hex32(uid);
	if (store_begin(store) != 0) {
		*cause = xprintf("store: %s", store_errmsg(store));
		return (-1);
	}
	if (stream_next_created(store, account, stream_now(), &created) != 0 ||
	    stream_insert_new(store, account, uid, created, nv) != 0) {
		*cause = xprintf("store: %s", store_errmsg(store));
		store_rollback(store);
		return (-1);
	}
	if (stream_create_file(store, account, uid, 1, cause) != 0) {
		store_rollback(store);
		return (-1);
	}
	if (store_commit(store) != 0) {
		*cause = xprintf("store: %s", store_errmsg(store));
		path = stream_video_file(store, account, uid);
		unlink(path);
		free(path);
		return (-1);
	}
	return (0);
}

int
stream_upload_get(struct store *store, const char *account, const char *uid,
    struct stream_upload *up)
{
	static const char	 sql[] =
	    "SELECT account, uid, upload_kind, state = 'pendingupload',"
	    " upload_length, upload_offset, upload_expiry, upload_token,"
	    " upload_metadata FROM stream_video"
	    " WHERE uid = ?2 AND (?1 IS NULL OR account = ?1)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	const char		*s;
	int			 rc;

	memset(up, 0, sizeof *up);
	if (account != NULL)
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(up->account, sizeof up->account, "%s",
		    stream_col_text(st, 0));
		snprintf(up->uid, sizeof up->uid, "%s", stream_col_text(st, 1));
		up->kind = (enum stream_upload_kind)sqlite3_column_int(st, 2);
		up->pending = sqlite3_column_int(st, 3);
		up->length = sqlite3_column_int64(st, 4);
		up->offset = sqlite3_column_int64(st, 5);
		up->expiry = stream_col_time(st, 6);
		if ((s = stream_col_text(st, 7)) != NULL)
			snprintf(up->token, sizeof up->token, "%s", s);
		if ((s = stream_col_text(st, 8)) != NULL)
			up->metadata = xstrdup(s);
	}
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

void
stream_upload_free(struct stream_upload *up)
{
	free(up->metadata);
	up->metadata = NULL;
}

/* How processing will end, decided from the bytes when the last arrives. */
struct stream_outcome {
	const char	*state;		/* ready or error */
	const char	*code;
	char		*text;
};

static void
stream_decide(enum media_result r, const struct media_info *mi,
    const char *why, long max_duration, struct stream_outcome *o)
{
	o->state = "error";
	o->code = NULL;
	o->text = NULL;
	if (r == MEDIA_NOT_VIDEO) {
		o->code = "ERR_NON_VIDEO";
		o->text = xstrdup("The file was not recognized as a valid "
		    "video file.");
	} else if (r == MEDIA_MALFORMED) {
		o->code = "ERR_MALFORMED_VIDEO";
		o->text = xprintf("The video is a valid file but contains "
		    "corrupt data that cannot be recovered: %s", why);
	} else if (mi->duration >= 0 && max_duration > 0 &&
	    mi->duration > (double)max_duration) {
		o->code = "ERR_DURATION_EXCEED_CONSTRAINT";
		o->text = xprintf("The video's duration (%.3f s) exceeds its "
		    "maxDurationSeconds of %ld s.", mi->duration,
		    max_duration);
	} else if (mi->duration >= 0 && mi->duration < 0.1) {
		o->code = "ERR_DURATION_TOO_SHORT";
		o->text = xprintf("The video's duration (%.3f s) is shorter "
		    "than 0.1 seconds.", mi->duration);
	} else
		o->state = "ready";
}

static int
stream_max_duration(struct store *store, const char *account,
    const char *uid, long *out)
{
	static const char	 sql[] =
	    "SELECT max_duration FROM stream_video WHERE account = ?1"
	    " AND uid = ?2 AND state = 'pendingupload'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = (long)sqlite3_column_int64(st, 0);
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static int
stream_set_offset(struct store *store, const char *account, const char *uid,
    int64_t offset, int64_t now)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET upload_offset = ?3, modified = ?4"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'pendingupload'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, offset);
	sqlite3_bind_int64(st, 4, now);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	return (sqlite3_changes(store_db(store)) != 0);
}

static int
stream_set_processing(struct store *store, const char *account,
    const char *uid, int64_t size, int64_t now, const struct media_info *mi,
    const struct stream_outcome *o)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET upload_offset = ?3, upload_length = ?3,"
	    " size = ?3, uploaded = ?4, modified = ?4, state = 'queued',"
	    " process_start = ?4, process_end = ?5, outcome = ?6,"
	    " error_code = ?7, error_text = ?8, duration = ?9, width = ?10,"
	    " height = ?11"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'pendingupload'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, size);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_int64(st, 5, now +
	    (int64_t)stream_proc.seconds * 1000000);
	sqlite3_bind_text(st, 6, o->state, -1, SQLITE_STATIC);
	if (o->code != NULL) {
		sqlite3_bind_text(st, 7, o->code, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, o->text, -1, SQLITE_STATIC);
	}
	sqlite3_bind_double(st, 9, mi->duration);
	sqlite3_bind_int(st, 10, mi->width);
	sqlite3_bind_int(st, 11, mi->height);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
stream_upload_record(struct store *store, const char *account,
    const char *uid, int64_t offset, int complete, char **cause)
{
	struct media_info	 mi;
	struct stream_outcome	 o = { NULL, NULL, NULL };
	enum media_result	 r = MEDIA_OK;
	char			*path, *why = NULL;
	long			 max = -1;
	int64_t			 now = stream_now();
	int			 found;

	/* The bytes are read before the write lock is taken. */
	if (complete) {
		path = stream_video_file(store, account, uid);
		r = media_probe_file(path, &mi, &why);
		free(path);
	}
	if (store_begin(store) != 0)
		goto fail;
	if (!complete)
		found = stream_set_offset(store, account, uid, offset, now);
	else if ((found = stream_max_duration(store, account, uid,
	    &max)) == 1) {
		stream_decide(r, &mi, why, max, &o);
		if (stream_set_processing(store, account, uid, offset, now, &mi,
		    &o) != 0)
			found = -1;
	}
	if (found < 0)
		goto fail;
	if (found == 0) {
		store_rollback(store);
		*cause = xprintf("video %s was deleted or has finished "
		    "uploading", uid);
		free(o.text);
		free(why);
		return (1);
	}
	if (store_commit(store) != 0)
		goto fail;
	if (complete)
		stream_kick();
	free(o.text);
	free(why);
	return (0);

fail:
	*cause = xprintf("store: %s", store_errmsg(store));
	store_rollback(store);
	free(o.text);
	free(why);
	return (-1);
}

int
stream_video_remove(struct store *store, const char *account,
    const char *uid)
{
	static const char	 sql[] =
	    "DELETE FROM stream_video WHERE account = ?1 AND uid = ?2";
	char			*path;
	int			 found;

	if (store_begin(store) != 0)
		return (-1);
	found = store_doc_delete(store, sql, account, uid);
	if (found < 0 || store_commit(store) != 0) {
		store_rollback(store);
		return (-1);
	}
	if (found) {
		path = stream_video_file(store, account, uid);
		if (unlink(path) != 0 && errno != ENOENT)
			log_warn("%s: %s", path, strerror(errno));
		free(path);
	}
	return (found);
}

/* ---- list ---------------------------------------------------------------- */

static const char *const stream_states[] = {
	"pendingupload", "downloading", "queued", "inprogress", "ready",
	"error", "live-inprogress", NULL
};
static const char *const stream_types[] = { "vod", "live", NULL };

struct stream_filter {
	const char	*creator;
	const char	*search;
	const char	*status;
	const char	*type;
	int		 asc;
	int		 counts;
	int64_t		 start;		/* 0: none */
	int64_t		 end;
	long		 limit;		/* at most this many rows */
};

static int
stream_filter_time(const struct query *q, const char *key, int64_t *out,
    char **cause)
{
	const char	*s = query_get(q, key);

	*out = 0;
	if (s == NULL)
		return (0);
	if (stream_parse_time(s, out) != 0) {
		*cause = xprintf("%s: '%.64s' is not an RFC 3339 date-time "
		    "such as 2014-01-02T02:20:00Z", key, s);
		return (-1);
	}
	return (0);
}

static int
stream_filter_parse(const struct query *q, struct stream_filter *f,
    char **cause)
{
	int64_t	after, before;

	memset(f, 0, sizeof *f);
	f->creator = query_get(q, "creator");
	f->search = query_get(q, "search");
	if (f->search != NULL && *f->search == '\0')
		f->search = NULL;
	if (query_enum(q, "status", stream_states, &f->status, cause) != 0 ||
	    query_enum(q, "type", stream_types, &f->type, cause) != 0 ||
	    query_bool(q, "asc", 0, &f->asc, cause) != 0 ||
	    query_bool(q, "include_counts", 0, &f->counts, cause) != 0 ||
	    stream_filter_time(q, "start", &f->start, cause) != 0 ||
	    stream_filter_time(q, "end", &f->end, cause) != 0 ||
	    stream_filter_time(q, "after", &after, cause) != 0 ||
	    stream_filter_time(q, "before", &before, cause) != 0 ||
	    query_long(q, "limit", 1, STREAM_LIST_MAX, STREAM_LIST_MAX,
	    &f->limit, cause) != 0)
		return (-1);
	/* after and before are the older names of start and end. */
	if (after != 0 && after > f->start)
		f->start = after;
	if (before != 0 && (f->end == 0 || before < f->end))
		f->end = before;
	return (0);
}

/*
 * Everything but the state is filtered in SQL; the state depends on the
 * processing clock, so it is filtered here, as the rows go by in order.
 * start and end are strict: a page's oldest created is the next page's end.
 */
#define STREAM_LIST_WHERE \
	" FROM stream_video WHERE account = ?1" \
	" AND (?2 IS NULL OR creator = ?2)" \
	" AND (?3 IS NULL OR instr(lower(name), lower(?3)) > 0)" \
	" AND (?4 IS NULL OR created > ?4)" \
	" AND (?5 IS NULL OR created < ?5)" \
	" AND (?6 IS NULL OR (live_input IS NOT NULL) = ?6)"

static void
stream_list(struct req *req, struct reply *rep)
{
	static const char	 desc_sql[] = "SELECT " STREAM_COLS
	    STREAM_LIST_WHERE " ORDER BY created DESC";
	static const char	 asc_sql[] = "SELECT " STREAM_COLS
	    STREAM_LIST_WHERE " ORDER BY created ASC";
	struct stream_filter	 f;
	struct stream_view	 v;
	sqlite3_stmt		*st;
	cJSON			*list;
	char			*cause = NULL;
	long			 total = 0, count = 0;
	int64_t			 now = stream_now();
	int			 rc;

	if (stream_filter_parse(&req->query, &f, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	st = store_stmt(req->store, f.asc ? asc_sql : desc_sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	if (f.creator != NULL)
		sqlite3_bind_text(st, 2, f.creator, -1, SQLITE_STATIC);
	if (f.search != NULL)
		sqlite3_bind_text(st, 3, f.search, -1, SQLITE_STATIC);
	if (f.start != 0)
		sqlite3_bind_int64(st, 4, f.start);
	if (f.end != 0)
		sqlite3_bind_int64(st, 5, f.end);
	if (f.type != NULL)
		sqlite3_bind_int(st, 6, strcmp(f.type, "live") == 0);
	list = cJSON_CreateArray();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (f.status != NULL) {
			stream_view(stream_col_text(st, COL_STATE),
			    sqlite3_column_double(st, COL_PCT),
			    stream_col_time(st, COL_PROCESS_START),
			    stream_col_time(st, COL_PROCESS_END),
			    stream_col_text(st, COL_OUTCOME), now, &v);
			if (strcmp(v.state, f.status) != 0)
				continue;
		}
		total++;
		if (count < f.limit) {
			cJSON_AddItemToArray(list, stream_row_json(st, now));
			count++;
		} else if (!f.counts)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		reply_store_error(req, rep);
		store_done(st);
		cJSON_Delete(list);
		return;
	}
	store_done(st);
	reply_ok(rep, list);
	if (f.counts) {
		rep->top = cJSON_CreateObject();
		cJSON_AddNumberToObject(rep->top, "total", (double)total);
		cJSON_AddNumberToObject(rep->top, "range",
		    (double)(total - count));
	}
}

/* ---- edit ---------------------------------------------------------------- */

struct stream_edit {
	int	 origins_set;
	char	*origins;
	int	 creator_set;
	char	*creator;		/* NULL clears */
	int	 max_set;
	long	 max_duration;
	int	 meta_set;
	char	*meta;
	char	*name;
	int	 signed_set;
	int	 require_signed;
	int	 deletion_set;
	int64_t	 deletion;		/* 0 clears */
	int	 thumb_set;
	double	 thumb_pct;
	int	 expiry_set;
	int64_t	 expiry;		/* 0 clears */
};

/* Fields shared by edit and direct_upload; v is present and not null. */
int
stream_check_origins(const cJSON *v, char **cause)
{
	const cJSON	*item;
	int		 i = 0;

	if (!cJSON_IsArray(v))
		return (util_fail(cause, "allowedOrigins: must be an array "
		    "of strings, not %s", util_jtype_name(v)));
	cJSON_ArrayForEach(item, v) {
		if (!cJSON_IsString(item))
			return (util_fail(cause, "allowedOrigins[%d]: must "
			    "be a string, not %s", i, util_jtype_name(item)));
		i++;
	}
	return (0);
}

int
stream_check_creator(const cJSON *v, char **cause)
{
	if (!cJSON_IsString(v))
		return (util_fail(cause, "creator: must be a string, not %s",
		    util_jtype_name(v)));
	if (util_chars(v->valuestring) > STREAM_CREATOR_MAX)
		return (util_fail(cause, "creator: at most %d characters",
		    STREAM_CREATOR_MAX));
	return (0);
}

int
stream_check_max_duration(const cJSON *v, long *out, char **cause)
{
	if (!util_jis_integer(v))
		return (util_fail(cause, "maxDurationSeconds: must be an "
		    "integer, not %s", util_jtype_name(v)));
	if (v->valuedouble < 1 || v->valuedouble > STREAM_DURATION_MAX)
		return (util_fail(cause, "maxDurationSeconds: %.15g is out "
		    "of range (1 to %d)", v->valuedouble, STREAM_DURATION_MAX));
	*out = (long)v->valuedouble;
	return (0);
}

int
stream_check_thumb(const cJSON *v, double *out, char **cause)
{
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return (util_fail(cause, "thumbnailTimestampPct: must be a "
		    "number, not %s", util_jtype_name(v)));
	if (v->valuedouble < 0 || v->valuedouble > 1)
		return (util_fail(cause, "thumbnailTimestampPct: %g is out "
		    "of range (0 to 1)", v->valuedouble));
	*out = v->valuedouble;
	return (0);
}

int
stream_check_date(const cJSON *v, const char *key, int64_t *out,
    char **cause)
{
	if (!cJSON_IsString(v) || stream_parse_time(v->valuestring, out) != 0)
		return (util_fail(cause, "%s: must be an RFC 3339 date-time "
		    "such as 2014-01-02T02:20:00Z", key));
	return (0);
}

static const cJSON *
stream_member(const cJSON *o, const char *key, int *present)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	*present = v != NULL;
	return (cJSON_IsNull(v) ? NULL : v);
}

static int
stream_edit_parse(const cJSON *b, int64_t created, struct stream_edit *e,
    char **cause)
{
	const cJSON	*v;

	memset(e, 0, sizeof *e);
	if (!cJSON_IsObject(b))
		return (util_fail(cause, "the body must be a JSON object, "
		    "not %s", util_jtype_name(b)));
	if ((v = stream_member(b, "allowedOrigins", &e->origins_set)) != NULL) {
		if (stream_check_origins(v, cause) != 0)
			return (-1);
		e->origins = util_jprint(v);
	} else if (e->origins_set)
		e->origins = xstrdup("[]");
	if ((v = stream_member(b, "creator", &e->creator_set)) != NULL) {
		if (stream_check_creator(v, cause) != 0)
			return (-1);
		e->creator = xstrdup(v->valuestring);
	}
	e->max_duration = -1;
	if ((v = stream_member(b, "maxDurationSeconds", &e->max_set)) != NULL &&
	    stream_check_max_duration(v, &e->max_duration, cause) != 0)
		return (-1);
	if ((v = stream_member(b, "meta", &e->meta_set)) != NULL &&
	    !cJSON_IsObject(v))
		return (util_fail(cause, "meta: must be an object, not %s",
		    util_jtype_name(v)));
	if (e->meta_set)
		e->meta = stream_meta_text(v, &e->name);
	if ((v = stream_member(b, "requireSignedURLs", &e->signed_set)) !=
	    NULL) {
		if (!cJSON_IsBool(v))
			return (util_fail(cause, "requireSignedURLs: must be "
			    "a boolean, not %s", util_jtype_name(v)));
		e->require_signed = cJSON_IsTrue(v);
	} else if (e->signed_set)
		return (util_fail(cause, "requireSignedURLs: must be a "
		    "boolean, not null"));
	if ((v = stream_member(b, "scheduledDeletion", &e->deletion_set)) !=
	    NULL && (stream_check_date(v, "scheduledDeletion", &e->deletion,
	    cause) != 0 || stream_check_deletion(e->deletion, created,
	    cause) != 0))
		return (-1);
	if ((v = stream_member(b, "thumbnailTimestampPct", &e->thumb_set)) !=
	    NULL) {
		if (stream_check_thumb(v, &e->thumb_pct, cause) != 0)
			return (-1);
	} else if (e->thumb_set)
		e->thumb_pct = 0;
	if ((v = stream_member(b, "uploadExpiry", &e->expiry_set)) != NULL &&
	    stream_check_date(v, "uploadExpiry", &e->expiry, cause) != 0)
		return (-1);
	return (0);
}

static void
stream_edit_free(struct stream_edit *e)
{
	free(e->origins);
	free(e->creator);
	free(e->meta);
	free(e->name);
}

/* 1 with the created time, 0 when there is no such video, -1 failure. */
static int
stream_created(struct store *store, const char *account, const char *uid,
    int64_t *out)
{
	static const char	 sql[] =
	    "SELECT created FROM stream_video WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static int
stream_edit_apply(struct store *store, const char *account, const char *uid,
    const struct stream_edit *e)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET"
	    " allowed_origins = CASE WHEN ?3 THEN ?4 ELSE allowed_origins END,"
	    " creator = CASE WHEN ?5 THEN ?6 ELSE creator END,"
	    " max_duration = CASE WHEN ?7 THEN ?8 ELSE max_duration END,"
	    " meta = CASE WHEN ?9 THEN ?10 ELSE meta END,"
	    " name = CASE WHEN ?9 THEN ?11 ELSE name END,"
	    " require_signed = CASE WHEN ?12 THEN ?13 ELSE require_signed END,"
	    " scheduled_deletion = CASE WHEN ?14 THEN ?15"
	    "  ELSE scheduled_deletion END,"
	    " thumb_pct = CASE WHEN ?16 THEN ?17 ELSE thumb_pct END,"
	    " upload_expiry = CASE WHEN ?18 THEN ?19 ELSE upload_expiry END,"
	    " modified = ?20"
	    " WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			 iso[ISO_TIME_LEN];
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, e->origins_set);
	sqlite3_bind_text(st, 4, e->origins, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, e->creator_set);
	sqlite3_bind_text(st, 6, e->creator, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, e->max_set);
	sqlite3_bind_int64(st, 8, e->max_duration);
	sqlite3_bind_int(st, 9, e->meta_set);
	sqlite3_bind_text(st, 10, e->meta, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, e->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 12, e->signed_set);
	sqlite3_bind_int(st, 13, e->require_signed);
	sqlite3_bind_int(st, 14, e->deletion_set);
	if (e->deletion != 0) {
		stream_time_iso(e->deletion, iso);
		sqlite3_bind_text(st, 15, iso, -1, SQLITE_TRANSIENT);
	}
	sqlite3_bind_int(st, 16, e->thumb_set);
	sqlite3_bind_double(st, 17, e->thumb_pct);
	sqlite3_bind_int(st, 18, e->expiry_set);
	if (e->expiry != 0)
		sqlite3_bind_int64(st, 19, e->expiry);
	sqlite3_bind_int64(st, 20, stream_now());
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static void
stream_edit(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	const char		*uid = req_param(req, "uid");
	struct stream_edit	 e;
	char			*cause = NULL;
	int64_t			 created;
	int			 found;
	cJSON			*v;

	if (req->json == NULL) {
		reply_error(rep, 400, ERR_VALIDATION,
		    "a JSON body is required");
		return;
	}
	if (store_begin(req->store) != 0 ||
	    (found = stream_created(req->store, account, uid, &created)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (found == 0) {
		store_rollback(req->store);
		stream_not_found(rep, uid);
		return;
	}
	if (stream_edit_parse(req->json, created, &e, &cause) != 0) {
		store_rollback(req->store);
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		stream_edit_free(&e);
		return;
	}
	if (stream_edit_apply(req->store, account, uid, &e) != 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		stream_edit_free(&e);
		return;
	}
	stream_edit_free(&e);
	if (stream_lookup(req->store, account, uid, &v) == 1)
		reply_ok(rep, v);
	else
		stream_not_found(rep, uid);
}

/* ---- delete, storage usage ----------------------------------------------- */

static void
stream_delete(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");

	/* The same URL is a tus upload's: termination. */
	if (req_header(req, "Tus-Resumable") != NULL) {
		tus_terminate(req, rep);
		return;
	}
	switch (stream_video_remove(req->store, req_param(req, "account"),
	    uid)) {
	case 1:
		reply_ok(rep, NULL);
		break;
	case 0:
		stream_not_found(rep, uid);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
}

/*
 * Minutes of stored video: the durations known, and for direct uploads not
 * yet made the time reserved for them (maxDurationSeconds, or Stream's
 * default reservation), as the service counts them.
 */
static void
stream_storage(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT count(*), coalesce(sum(CASE"
	    "  WHEN duration > 0 THEN duration"
	    "  WHEN state = 'pendingupload' AND upload_kind IN (?3, ?4) THEN"
	    "   CASE WHEN max_duration > 0 THEN max_duration ELSE ?5 END"
	    "  ELSE 0 END), 0)"
	    " FROM stream_video WHERE account = ?1"
	    " AND (?2 IS NULL OR creator = ?2)";
	const char		*creator = query_get(&req->query, "creator");
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	cJSON			*o;
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	if (creator != NULL)
		sqlite3_bind_text(st, 2, creator, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, STREAM_UPLOAD_DIRECT);
	sqlite3_bind_int(st, 4, STREAM_UPLOAD_TUS_DIRECT);
	sqlite3_bind_int(st, 5, STREAM_RESERVE_DEFAULT);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		reply_store_error(req, rep);
		store_done(st);
		return;
	}
	o = cJSON_CreateObject();
	if (creator != NULL)
		cJSON_AddStringToObject(o, "creator", creator);
	else
		cJSON_AddNullToObject(o, "creator");
	cJSON_AddNumberToObject(o, "totalStorageMinutes",
	    ceil(sqlite3_column_double(st, 1) / 60.0));
	cJSON_AddNumberToObject(o, "totalStorageMinutesLimit",
	    STREAM_STORAGE_LIMIT);
	cJSON_AddNumberToObject(o, "videoCount",
	    (double)sqlite3_column_int64(st, 0));
	store_done(st);
	reply_ok(rep, o);
}

/* ---- the processing clock ------------------------------------------------ */

#define STREAM_DUE_BATCH	64

struct stream_key {
	char	account[HEX32_LEN + 1];
	char	uid[HEX32_LEN + 1];
};

/* Make one due outcome durable; 1 if this call did it. */
static int
stream_finish_one(struct store *store, const struct stream_key *k)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET state = coalesce(outcome, 'ready'),"
	    " modified = max(modified, process_end)"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'queued'"
	    " AND process_end IS NOT NULL";
	sqlite3_stmt		*st;
	int			 rc, changed;

	if (store_begin(store) != 0)
		return (-1);
	st = store_stmt(store, sql);
	sqlite3_bind_text(st, 1, k->account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	changed = sqlite3_changes(store_db(store)) != 0;
	if (rc != SQLITE_DONE || store_commit(store) != 0) {
		store_rollback(store);
		return (-1);
	}
	return (changed);
}

/*
 * Videos whose processing time is up become ready or error for good, and
 * the webhook hears of each once. Returns how many were due, or -1.
 */
static int
stream_finish_due(struct store *store, int64_t now)
{
	static const char	 sql[] =
	    "SELECT account, uid FROM stream_video WHERE state = 'queued'"
	    " AND process_end IS NOT NULL AND process_end <= ?1"
	    " ORDER BY process_end LIMIT ?2";
	struct stream_key	 due[STREAM_DUE_BATCH];
	sqlite3_stmt		*st = store_stmt(store, sql);
	cJSON			*v;
	int			 n = 0, i, rc;

	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int(st, 2, STREAM_DUE_BATCH);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < STREAM_DUE_BATCH) {
		snprintf(due[n].account, sizeof due[n].account, "%s",
		    stream_col_text(st, 0));
		snprintf(due[n].uid, sizeof due[n].uid, "%s",
		    stream_col_text(st, 1));
		n++;
	}
	store_done(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return (-1);
	for (i = 0; i < n; i++) {
		rc = stream_finish_one(store, &due[i]);
		if (rc < 0)
			return (-1);
		if (rc == 0)
			continue;
		if ((v = stream_video_load(store, due[i].account,
		    due[i].uid)) != NULL) {
			webhook_notify(store, due[i].account, v);
			cJSON_Delete(v);
		}
	}
	return (n);
}

/* When the next video is due, 0 if none is, -1 on a store failure. */
static int64_t
stream_next_due(struct store *store)
{
	static const char	 sql[] =
	    "SELECT min(process_end) FROM stream_video WHERE state = 'queued'"
	    " AND process_end IS NOT NULL";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int64_t			 next = -1;

	if (sqlite3_step(st) == SQLITE_ROW)
		next = stream_col_time(st, 0);
	store_done(st);
	return (next);
}

static void *
stream_proc_main(void *arg)
{
	struct store	*store = arg;
	struct timespec	 ts;
	int64_t		 now, next, wake;
	int		 n;

	pthread_mutex_lock(&stream_proc.mu);
	while (!stream_proc.stopping) {
		stream_proc.kicked = 0;
		pthread_mutex_unlock(&stream_proc.mu);
		now = stream_now();
		while ((n = stream_finish_due(store, now)) == STREAM_DUE_BATCH)
			;
		next = n < 0 ? -1 : stream_next_due(store);
		if (n < 0 || next < 0)
			log_warn("stream processing: %s", store_errmsg(store));
		/* Wake when the next video is due; look again now and then. */
		wake = now + (next < 0 ? 1000000 : 60000000);
		if (next > 0 && next < wake)
			wake = next;
		ts.tv_sec = (time_t)(wake / 1000000);
		ts.tv_nsec = (long)(wake % 1000000) * 1000;
		pthread_mutex_lock(&stream_proc.mu);
		if (stream_proc.stopping || stream_proc.kicked)
			continue;
		pthread_cond_timedwait(&stream_proc.cv, &stream_proc.mu, &ts);
	}
	pthread_mutex_unlock(&stream_proc.mu);
	return (NULL);
}

/* ---- start-up: what the disk holds --------------------------------------- */

struct stream_pending {
	struct stream_key	key;
	int			kind;
	int64_t			length;
	int64_t			offset;
};

/*
 * An upload's bytes after a restart or a kill. A tus upload adopts what its
 * file holds (synced first, so it is durable now; never past its length): a
 * PATCH cut short by a crash keeps what reached the disk, as one cut short
 * by the client does. A multipart body cut short is of no use: emptied.
 */
static void
stream_reconcile_one(struct store *store, const struct stream_pending *p)
{
	struct stat	 sb;
	char		*path, *cause = NULL;
	int64_t		 keep;
	int		 fd;

	path = stream_video_file(store, p->key.account, p->key.uid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT &&
	    stream_create_file(store, p->key.account, p->key.uid, 1,
	    &cause) == 0)
		fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &sb) != 0) {
		log_warn("%s: %s", path, cause != NULL ? cause :
		    strerror(errno));
		goto out;
	}
	keep = p->kind == STREAM_UPLOAD_DIRECT ? 0 :
	    MINIMUM((int64_t)sb.st_size, p->length);
	if ((keep != (int64_t)sb.st_size && ftruncate(fd, keep) != 0) ||
	    fsync(fd) != 0) {
		log_warn("%s: %s", path, strerror(errno));
		goto out;
	}
	if (keep == p->offset)
		goto out;
	log_info("upload %s: %lld bytes on disk, %lld recorded: keeping %lld",
	    p->key.uid, (long long)sb.st_size, (long long)p->offset,
	    (long long)keep);
	if (stream_upload_record(store, p->key.account, p->key.uid, keep,
	    p->kind != STREAM_UPLOAD_DIRECT && keep == p->length,
	    &cause) != 0)
		log_warn("upload %s: %s", p->key.uid, cause);
out:
	if (fd != -1)
		close(fd);
	free(cause);
	free(path);
}

static int
stream_reconcile(struct store *store, char **cause)
{
	static const char	 sql[] =
	    "SELECT account, uid, upload_kind, upload_length, upload_offset"
	    " FROM stream_video WHERE state = 'pendingupload'"
	    " AND upload_kind != 0";
	sqlite3_stmt		*st = store_stmt(store, sql);
	struct stream_pending	*v = NULL;
	size_t			 n = 0, i;
	int			 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xreallocarray(v, n + 1, sizeof *v);
		snprintf(v[n].key.account, sizeof v[n].key.account, "%s",
		    stream_col_text(st, 0));
		snprintf(v[n].key.uid, sizeof v[n].key.uid, "%s",
		    stream_col_text(st, 1));
		v[n].kind = sqlite3_column_int(st, 2);
		v[n].length = sqlite3_column_int64(st, 3);
		v[n].offset = sqlite3_column_int64(st, 4);
		n++;
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		*cause = xprintf("stream uploads: %s", store_errmsg(store));
		free(v);
		return (-1);
	}
	for (i = 0; i < n; i++)
		stream_reconcile_one(store, &v[i]);
	free(v);
	return (0);
}

static int
stream_start(struct server *srv, char **cause)
{
	struct store	*store = server_store(srv);
	int		 rc;

	stream_proc.seconds = server_options(srv)->processing_seconds;
	stream_proc.store = store;
	if (stream_reconcile(store, cause) != 0)
		return (-1);
	stream_proc.stopping = 0;
	stream_proc.kicked = 1;
	if ((rc = pthread_create(&stream_proc.thread, NULL, stream_proc_main,
	    store)) != 0) {
		*cause = xprintf("stream processing thread: %s", strerror(rc));
		return (-1);
	}
	stream_proc.running = 1;
	return (0);
}

static void
stream_stop(struct server *srv)
{
	(void)srv;
	pthread_mutex_lock(&stream_proc.mu);
	stream_proc.stopping = 1;
	pthread_cond_signal(&stream_proc.cv);
	pthread_mutex_unlock(&stream_proc.mu);
	if (stream_proc.running)
		pthread_join(stream_proc.thread, NULL);
	stream_proc.running = 0;
}

/* ---- demo data ----------------------------------------------------------- */

static const char *const stream_demo_names[] = {
	"Product launch keynote.mp4", "Quarterly all-hands.mp4",
	"Onboarding part 1 - welcome.mov", "Onboarding part 2 - tools.mov",
	"Customer story: Acme Logistics.mp4", "Drone flyover, harbour.mp4",
	"Recipe: sourdough in 10 steps.mp4", "Webinar - zero trust basics.mp4",
	"Conference talk: caching at the edge.mp4", "Trailer (final cut).mov",
	"Behind the scenes - day 3.mp4", "Podcast episode 42 (video).mp4",
	"Tutorial: setting up DNS.mp4", "Sales demo - enterprise plan.mp4",
	"Support: resetting your password.mp4", "Holiday greetings 2025.mp4",
	"Intern project showcase.mp4", "Lecture 07 - graph algorithms.mp4",
	"Lecture 08 - dynamic programming.mp4", "Town hall Q&A.mp4",
	"Ad spot 15s - spring sale.mp4", "Ad spot 30s - spring sale.mp4",
	"Unboxing the new headset.mp4", "Timelapse: city at night.mov",
	"Interview with the CTO.mp4", "Release notes walkthrough v4.2.mp4",
	"Warehouse safety training.mp4", "Yoga for developers.mp4",
	"Game stream highlights.mp4", "Wedding film - Ana & Luis.mov",
	"Físchen im Aquarium.mp4", "Hackathon kickoff.mp4",
	"Screen recording 2025-09-14.mov", "Bug repro - upload stalls.mp4",
	"Partner summit opening.mp4", "Brand film - 60s.mp4",
	"Mountain bike descent (GoPro).mp4", "Classroom: intro to SQL.mp4",
	"Annual report video.mp4", "Kids' science show ep. 3.mp4",
	"Live concert - encore.mp4", "Cooking stream VOD.mp4",
	"Security awareness 2026.mp4", "Museum tour (4K).mp4",
	"Vertical short - tips #12.mp4", "Customer webinar recording.mp4",
	"draft_cut_v3.mov", "raw_footage_cam_b.mov",
	"Launch teaser.mp4", "Keynote rehearsal.mp4"
};

static const char *const stream_demo_creators[] = {
	"marketing", "creator-alice", "creator-bob", "support-team",
	"studio-7", NULL
};

static const int stream_demo_sizes[][2] = {
	{ 1920, 1080 }, { 1280, 720 }, { 3840, 2160 }, { 1080, 1920 },
	{ 640, 360 }, { 1920, 1080 }
};

/* One demo video, decided from its index: the newest are still moving. */
struct stream_demo {
	const char	*state;
	double		 pct;
	const char	*code;
	const char	*text;
	int		 kind;
	int		 mp4;		/* its file is an MP4, else text */
	int64_t		 created, modified, uploaded, start, end;
	int64_t		 size, length, expiry;
	const char	*creator;
	char		 token[HEX32_LEN + 1];
	cJSON		*meta;
	cJSON		*origins;
	double		 duration, thumb;
	int		 width, height, require_signed;
	long		 max_duration;
	char		 deletion[ISO_TIME_LEN];
};

static void
stream_demo_state(int i, int n, struct stream_demo *d)
{
	static const int	pending_kinds[] = {
		STREAM_UPLOAD_TUS, STREAM_UPLOAD_TUS_DIRECT,
		STREAM_UPLOAD_DIRECT, STREAM_UPLOAD_TUS
	};
	static const double	pcts[] = { 12, 37, 64, 88 };

	d->state = "ready";
	d->mp4 = 1;
	if (i >= n - 4) {
		d->state = "pendingupload";
		d->kind = pending_kinds[n - 1 - i];
		d->mp4 = 0;
	} else if (i >= n - 7)
		d->state = "queued";
	else if (i >= n - 11) {
		d->state = "inprogress";
		d->pct = pcts[n - 8 - i];
	} else if (i == 5 || i == 17 || i == 29) {
		d->state = "error";
		d->code = "ERR_NON_VIDEO";
		d->text = "The file was not recognized as a valid video file.";
		d->mp4 = 0;
	} else if (i == 11 || i == 23) {
		d->state = "error";
		d->code = "ERR_DURATION_EXCEED_CONSTRAINT";
		d->text = "The video's duration exceeds its "
		    "maxDurationSeconds.";
	}
}

/* A pending upload: nothing known yet, the one-time URL still open. */
static void
stream_demo_pending(struct util_rng *rng, int64_t now, struct stream_demo *d)
{
	d->modified = d->created;
	d->duration = -1;
	d->width = d->height = -1;
	if (d->kind == STREAM_UPLOAD_DIRECT)
		d->max_duration = 600;
	else
		d->size = d->length = 734003200;
	d->expiry = now + (int64_t)(d->kind == STREAM_UPLOAD_TUS ?
	    TUS_EXPIRY_DEFAULT : TUS_EXPIRY_MAX) * 1000000;
	if (d->kind != STREAM_UPLOAD_TUS)
		util_rng_hex32(rng, d->token);
}

static void
stream_demo_fill(struct util_rng *rng, int i, int64_t now,
    struct stream_demo *d)
{
	int	sz;

	d->creator = stream_demo_creators[util_rng_below(rng,
	    nitems(stream_demo_creators))];
	sz = (int)util_rng_below(rng, nitems(stream_demo_sizes));
	d->width = stream_demo_sizes[sz][0];
	d->height = stream_demo_sizes[sz][1];
	d->duration = 8 + util_rng_below(rng, 3600) +
	    util_rng_below(rng, 1000) / 1000.0;
	d->meta = cJSON_CreateObject();
	cJSON_AddStringToObject(d->meta, "name", stream_demo_names[i]);
	if (i % 6 == 1)
		cJSON_AddStringToObject(d->meta, "project", "spring-campaign");
	d->origins = cJSON_CreateArray();
	if (i % 5 == 2) {
		cJSON_AddItemToArray(d->origins,
		    cJSON_CreateString("example.com"));
		cJSON_AddItemToArray(d->origins,
		    cJSON_CreateString("*.example.net"));
	}
	d->require_signed = i % 7 == 3;
	d->thumb = i % 4 == 0 ? 0 : util_rng_below(rng, 1000) / 1000.0;
	if (i % 13 == 4)
		stream_time_iso(d->created + 120 * STREAM_DAY, d->deletion);
	d->max_duration = i % 9 == 0 ? 7200 : -1;
	if (d->code != NULL && strcmp(d->code, "ERR_DURATION_EXCEED_"
	    "CONSTRAINT") == 0)
		d->max_duration = (long)floor(d->duration / 2);
	if (strcmp(d->state, "pendingupload") == 0) {
		stream_demo_pending(rng, now, d);
		return;
	}
	d->uploaded = d->created + 1000000 *
	    (1 + (int64_t)util_rng_below(rng, 60));
	d->start = d->uploaded;
	d->modified = d->uploaded;
	if (strcmp(d->state, "ready") == 0 || strcmp(d->state, "error") == 0)
		d->modified = d->end = d->uploaded + 1000000 *
		    (30 + (int64_t)util_rng_below(rng, 300));
	d->size = (int64_t)(d->duration * (250000 +
	    util_rng_below(rng, 750000)));
	if (!d->mp4) {
		d->size = 35;	/* the text file stream_demo_file writes */
		d->duration = -1;
		d->width = d->height = -1;
	}
}

static void
stream_bind_time(sqlite3_stmt *st, int i, int64_t v)
{
	if (v != 0)
		sqlite3_bind_int64(st, i, v);
}

static void
stream_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v != NULL && *v != '\0')
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

static int
stream_demo_insert(struct store *store, const char *account,
    const char *uid, const struct stream_demo *d)
{
	static const char	 sql[] =
	    "INSERT INTO stream_video (account, uid, created, modified,"
	    " uploaded, creator, meta, name, size, state, pct, process_start,"
	    " process_end, outcome, error_code, error_text, duration, width,"
	    " height, thumb_pct, allowed_origins, require_signed,"
	    " scheduled_deletion, max_duration, upload_kind, upload_length,"
	    " upload_expiry, upload_token) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	    " ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"
	    " ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			*meta, *name, *origins;
	int			 rc, final;

	final = strcmp(d->state, "ready") == 0 ||
	    strcmp(d->state, "error") == 0;
	meta = stream_meta_text(d->meta, &name);
	origins = util_jprint(d->origins);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, d->created);
	sqlite3_bind_int64(st, 4, d->modified);
	stream_bind_time(st, 5, d->uploaded);
	stream_bind_text(st, 6, d->creator);
	sqlite3_bind_text(st, 7, meta, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, d->size);
	sqlite3_bind_text(st, 10, d->state, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 11, d->pct);
	stream_bind_time(st, 12, d->start);
	stream_bind_time(st, 13, d->end);
	stream_bind_text(st, 14, final ? d->state : NULL);
	stream_bind_text(st, 15, d->code);
	stream_bind_text(st, 16, d->text);
	sqlite3_bind_double(st, 17, d->duration);
	sqlite3_bind_int(st, 18, d->width);
	sqlite3_bind_int(st, 19, d->height);
	sqlite3_bind_double(st, 20, d->thumb);
	sqlite3_bind_text(st, 21, origins, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 22, d->require_signed);
	stream_bind_text(st, 23, d->deletion);
	sqlite3_bind_int64(st, 24, d->max_duration);
	sqlite3_bind_int(st, 25, d->kind);
	sqlite3_bind_int64(st, 26, d->length > 0 ? d->length : -1);
	stream_bind_time(st, 27, d->expiry);
	stream_bind_text(st, 28, d->token);
	rc = sqlite3_step(st);
	store_done(st);
	free(meta);
	free(name);
	free(origins);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static int
stream_demo_file(struct store *store, const char *account, const char *uid,
    const struct stream_demo *d, char **cause)
{
	static const char	 text[] = "This is a text file, not a video.\n";
	char			*path;
	int			 fd, rc = -1;

	if (strcmp(d->state, "pendingupload") == 0)
		return (stream_create_file(store, account, uid, 0, cause));
	if (stream_account_dir(store, account, cause) != 0)
		return (-1);
	path = stream_video_file(store, account, uid);
	if (d->mp4)
		rc = media_mp4_write(path, d->duration, d->width, d->height,
		    2048, cause);
	else if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) != -1) {
		if (write(fd, text, sizeof text - 1) == sizeof text - 1)
			rc = 0;
		close(fd);
	}
	if (rc != 0 && !d->mp4)
		*cause = xprintf("%s: %s", path, strerror(errno));
	free(path);
	return (rc);
}

/*
 * Fifty videos spread over half a year up to now, in every state, with their
 * bytes. Runs in demo_seed's transaction; all but the dates comes from a
 * fixed seed.
 */
static int
stream_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng		 rng;
	struct stream_demo	 d;
	char			 uid[HEX32_LEN + 1];
	int64_t			 now = stream_now();
	int			 i, n = (int)nitems(stream_demo_names), rc;

	(void)zone;
	util_rng_seed(&rng, 0x73747265616d3031ULL);
	for (i = 0; i < n; i++) {
		memset(&d, 0, sizeof d);
		util_rng_hex32(&rng, uid);
		stream_demo_state(i, n, &d);
		/* 88 hours apart, less up to 72: strictly increasing. */
		d.created = now - (int64_t)(n - i) * 88 * 3600 * 1000000 +
		    (int64_t)util_rng_below(&rng, 72 * 3600) * 1000000;
		stream_demo_fill(&rng, i, now, &d);
		rc = stream_demo_insert(store, account, uid, &d);
		cJSON_Delete(d.meta);
		cJSON_Delete(d.origins);
		if (rc != 0) {
			*cause = xprintf("demo videos: %s",
			    store_errmsg(store));
			return (-1);
		}
		if (stream_demo_file(store, account, uid, &d, cause) != 0)
			return (-1);
	}
	return (0);
}

int
stream_demo_ready_uids(struct store *store, const char *account,
    char uids[][HEX32_LEN + 1], int max)
{
	static const char	 sql[] =
	    "SELECT uid FROM stream_video WHERE account = ?1"
	    " AND state = 'ready' ORDER BY created LIMIT ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 n = 0, rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
		snprintf(uids[n], HEX32_LEN + 1, "%s", stream_col_text(st, 0));
		n++;
	}
	store_done(st);
	return (rc == SQLITE_DONE || rc == SQLITE_ROW ? n : -1);
}

int
stream_video_write_mp4(struct store *store, const char *account,
    const char *uid, char **cause)
{
	static const char	 sql[] =
	    "SELECT duration, width, height FROM stream_video"
	    " WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	struct stat		 sb;
	char			*path;
	double			 duration = 10;
	int			 w = 1280, h = 720, rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_double(st, 0) > 0) {
		duration = sqlite3_column_double(st, 0);
		if (sqlite3_column_int(st, 1) > 0)
			w = sqlite3_column_int(st, 1);
		if (sqlite3_column_int(st, 2) > 0)
			h = sqlite3_column_int(st, 2);
	}
	store_done(st);
	if (rc != SQLITE_ROW) {
		*cause = xprintf("video %s was not found", uid);
		return (-1);
	}
	path = stream_video_file(store, account, uid);
	rc = 0;
	if (stat(path, &sb) != 0 || sb.st_size == 0) {
		if ((rc = stream_account_dir(store, account, cause)) == 0)
			rc = media_mp4_write(path, duration, w, h, 2048, cause);
	}
	free(path);
	return (rc);
}

/* ---- the area ------------------------------------------------------------ */

static void
stream_kick(void)
{
	pthread_mutex_lock(&stream_proc.mu);
	stream_proc.kicked = 1;
	pthread_cond_signal(&stream_proc.cv);
	pthread_mutex_unlock(&stream_proc.mu);
}

static const struct route stream_routes[] = {
	{ HTTP_GET, STREAM_PATH, stream_list, ROUTE_BODY_NONE },
	{ HTTP_GET, STREAM_PATH "/storage-usage", stream_storage,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, STREAM_PATH "/{uid:hex32}", stream_video_reply,
	    ROUTE_BODY_NONE },
	{ HTTP_POST, STREAM_PATH "/{uid:hex32}", stream_edit, ROUTE_BODY_JSON },
	/* The spec gives DELETE a body; whatever comes is read and ignored. */
	{ HTTP_DELETE, STREAM_PATH "/{uid:hex32}", stream_delete,
	    ROUTE_BODY_NONE },
};

const struct area stream_area = {
	.name = "stream",
	.routes = stream_routes,
	.nroutes = nitems(stream_routes),
	.schema = stream_schema,
	.demo = stream_demo,
	.start = stream_start,
	.stop = stream_stop,
};
