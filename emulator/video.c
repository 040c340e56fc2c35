/*
 * The Stream video record, as every Stream file uses it: the table, the
 * times, the file that holds a video's bytes, the video as the API shows it
 * (JSON, with the state the processing clock implies), creating a video that
 * waits for its bytes, reading its upload, deleting it, the checks of the
 * fields a client may set, the video a route's path names (what hangs off
 * a video: captions, audio tracks, downloads), and sending a video's bytes
 * with HTTP ranges (delivery and downloads).
 *
 * A video's bytes live in DATA/videos/<account>/<uid>. Times are kept in
 * microseconds; created is unique per account (a new video takes now, or
 * one microsecond after the newest, whichever is later), so the list cursor
 * (end = the oldest created seen, compared strictly) never repeats or skips
 * a video at a page boundary.
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "apirules.h"
#include "civil.h"
#include "jsonutil.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "streamrules.h"
#include "text.h"
#include "util.h"
#include "video.h"
#include "xmalloc.h"

const char video_schema[] =
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
	" ON stream_video (state, process_end);"
	/* The list of one creator, and a search that reads no table row. */
	"CREATE INDEX IF NOT EXISTS stream_video_creator"
	" ON stream_video (account, creator, created);"
	"CREATE INDEX IF NOT EXISTS stream_video_name"
	" ON stream_video (account, name, created);"
	/*
	 * Videos per account, kept by triggers: an unfiltered list's total
	 * without counting a million index entries. A store made before the
	 * table is counted once.
	 */
	"CREATE TABLE IF NOT EXISTS stream_video_count ("
	" account TEXT PRIMARY KEY, n INTEGER NOT NULL);"
	"INSERT OR IGNORE INTO stream_video_count (account, n)"
	" SELECT account, count(*) FROM stream_video"
	" WHERE NOT EXISTS (SELECT 1 FROM stream_video_count)"
	" GROUP BY account;"
	"CREATE TRIGGER IF NOT EXISTS stream_video_counted"
	" AFTER INSERT ON stream_video BEGIN"
	" INSERT INTO stream_video_count (account, n) VALUES (new.account, 1)"
	"  ON CONFLICT (account) DO UPDATE SET n = n + 1;"
	" END;"
	"CREATE TRIGGER IF NOT EXISTS stream_video_uncounted"
	" AFTER DELETE ON stream_video BEGIN"
	" UPDATE stream_video_count SET n = n - 1 WHERE account = old.account;"
	" END;"
	/* What a clip was cut from (clip.c); VIDEO_COLS reads it. */
	"CREATE TABLE IF NOT EXISTS stream_clip ("
	" account TEXT NOT NULL,"
	" uid TEXT NOT NULL,"
	" clipped_from TEXT NOT NULL,"
	" start_time REAL NOT NULL,"
	" end_time REAL NOT NULL,"
	" PRIMARY KEY (account, uid)) WITHOUT ROWID;"
	"CREATE TRIGGER IF NOT EXISTS stream_clip_gone"
	" AFTER DELETE ON stream_video BEGIN"
	" DELETE FROM stream_clip"
	"  WHERE account = old.account AND uid = old.uid;"
	" END;";

/* ---- times --------------------------------------------------------------- */

int64_t
stream_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

double
video_now_seconds(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
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
	int64_t	sec;
	long	nsec;
	int	digits;

	if (civil_parse_rfc3339(s, &sec, &nsec, &digits) != 0)
		return (-1);
	*out = sec * 1000000 + nsec / 1000;
	return (0);
}

int
stream_check_deletion(int64_t when, int64_t created, char **cause)
{
	char	iso[ISO_TIME_LEN];

	if (streamrules_deletion_ok(when, created))
		return (0);
	stream_time_iso(created, iso);
	*cause = xprintf("scheduledDeletion must be %d to %d days after the "
	    "video was created (%s)", STREAMRULES_DELETION_DAYS_MIN,
	    STREAMRULES_DELETION_DAYS_MAX, iso);
	return (-1);
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
int
video_account_dir(struct store *store, const char *account, char **cause)
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
int
video_create_file(struct store *store, const char *account, const char *uid,
    int excl, char **cause)
{
	char	*path, *dir;
	int	 fd, rc = -1;

	if (video_account_dir(store, account, cause) != 0)
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

/*
 * What a video shows now. Stored "queued" with a clock is queued for the
 * first fifth of the processing time, then inprogress with pctComplete
 * rising, then its outcome. Without a clock (demo data) a state stays put.
 */
void
video_view(const char *state, double pct, int64_t start, int64_t end,
    const char *outcome, int64_t now, struct video_view *v)
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

const char *
video_col_text(sqlite3_stmt *st, int col)
{
	return ((const char *)sqlite3_column_text(st, col));
}

int64_t
video_col_time(sqlite3_stmt *st, int col)
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

/* The edgemu whose listener delivers videos (delivery.c); NULL: the cloud. */
static const struct server	*video_server;

void
video_set_server(const struct server *srv)
{
	video_server = srv;
}

static void
stream_add_urls(cJSON *o, const char *account, const char *uid, int ready)
{
	const char	*root;
	char		 code[17], *base, *s;
	size_t		 n, p = strlen(API_PREFIX);
	cJSON		*pb;

	if (!ready)
		return;
	stream_customer_code(account, code);
	root = video_server != NULL ? server_base_url(video_server) : "";
	if (*root != '\0') {
		n = strlen(root);
		if (n >= p && strcmp(root + n - p, API_PREFIX) == 0)
			n -= p;
		base = xprintf("%.*s" VIDEO_MEDIA_ROOT "/%s", (int)n, root,
		    uid);
	} else
		base = xprintf("https://customer-%s.cloudflarestream.com/%s",
		    code, uid);
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
stream_add_status(cJSON *o, sqlite3_stmt *st, const struct video_view *v)
{
	cJSON		*status = cJSON_AddObjectToObject(o, "status");
	const char	*code = NULL, *text = NULL;
	char		 pct[32];

	cJSON_AddStringToObject(status, "state", v->state);
	snprintf(pct, sizeof pct, "%.6f", v->pct);
	cJSON_AddStringToObject(status, "pctComplete", pct);
	if (strcmp(v->state, "error") == 0) {
		code = video_col_text(st, VIDEO_COL_ERROR_CODE);
		text = video_col_text(st, VIDEO_COL_ERROR_TEXT);
	}
	cJSON_AddStringToObject(status, "errorReasonCode",
	    code != NULL ? code : "");
	cJSON_AddStringToObject(status, "errorReasonText",
	    text != NULL ? text : "");
}

/* Duration and picture size: -1 until processing has read them. */
static void
stream_add_media(cJSON *o, sqlite3_stmt *st, const struct video_view *v)
{
	cJSON	*input;

	cJSON_AddNumberToObject(o, "duration", v->known ?
	    sqlite3_column_double(st, VIDEO_COL_DURATION) : -1);
	input = cJSON_AddObjectToObject(o, "input");
	cJSON_AddNumberToObject(input, "width", v->known ?
	    sqlite3_column_int(st, VIDEO_COL_WIDTH) : -1);
	cJSON_AddNumberToObject(input, "height", v->known ?
	    sqlite3_column_int(st, VIDEO_COL_HEIGHT) : -1);
}

/* The row of a SELECT VIDEO_COLS as the API shows it at now. */
cJSON *
video_row_json(sqlite3_stmt *st, int64_t now)
{
	struct video_view	 v;
	const char		*uid = video_col_text(st, VIDEO_COL_UID);
	const char		*text;
	cJSON			*o;
	int			 ready, kind;

	video_view(video_col_text(st, VIDEO_COL_STATE),
	    sqlite3_column_double(st, VIDEO_COL_PCT),
	    video_col_time(st, VIDEO_COL_PROCESS_START),
	    video_col_time(st, VIDEO_COL_PROCESS_END),
	    video_col_text(st, VIDEO_COL_OUTCOME), now, &v);
	ready = strcmp(v.state, "ready") == 0;
	kind = sqlite3_column_int(st, VIDEO_COL_UPLOAD_KIND);

	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uid", uid);
	stream_add_text(o, "creator", video_col_text(st, VIDEO_COL_CREATOR));
	stream_add_urls(o, video_col_text(st, VIDEO_COL_ACCOUNT), uid, ready);
	cJSON_AddNumberToObject(o, "thumbnailTimestampPct",
	    sqlite3_column_double(st, VIDEO_COL_THUMB_PCT));
	cJSON_AddBoolToObject(o, "readyToStream", ready);
	stream_add_time(o, "readyToStreamAt", ready ?
	    video_col_time(st, VIDEO_COL_PROCESS_END) : 0);
	stream_add_status(o, st, &v);
	stream_add_json(o, "meta", video_col_text(st, VIDEO_COL_META), 0);
	stream_add_time(o, "created", video_col_time(st, VIDEO_COL_CREATED));
	stream_add_time(o, "modified", video_col_time(st, VIDEO_COL_MODIFIED));
	stream_add_text(o, "scheduledDeletion",
	    video_col_text(st, VIDEO_COL_DELETION));
	cJSON_AddNumberToObject(o, "size",
	    (double)sqlite3_column_int64(st, VIDEO_COL_SIZE));
	stream_add_json(o, "allowedOrigins",
	    video_col_text(st, VIDEO_COL_ORIGINS), 1);
	cJSON_AddBoolToObject(o, "requireSignedURLs",
	    sqlite3_column_int(st, VIDEO_COL_SIGNED));
	stream_add_time(o, "uploaded", video_col_time(st, VIDEO_COL_UPLOADED));
	stream_add_time(o, "uploadExpiry", (kind == STREAM_UPLOAD_DIRECT ||
	    kind == STREAM_UPLOAD_TUS_DIRECT) ?
	    video_col_time(st, VIDEO_COL_UPLOAD_EXPIRY) : 0);
	cJSON_AddNullToObject(o, "maxSizeBytes");
	cJSON_AddNumberToObject(o, "maxDurationSeconds",
	    sqlite3_column_int64(st, VIDEO_COL_MAX_DURATION));
	stream_add_media(o, st, &v);
	stream_add_json(o, "watermark",
	    video_col_text(st, VIDEO_COL_WATERMARK), 0);
	if ((text = video_col_text(st, VIDEO_COL_LIVE_INPUT)) != NULL)
		cJSON_AddStringToObject(o, "liveInput", text);
	stream_add_text(o, "clippedFrom",
	    video_col_text(st, VIDEO_COL_CLIPPED_FROM));
	return (o);
}

/* 1 with *out set, 0 when there is no such video, -1 on a store failure. */
int
video_lookup(struct store *store, const char *account, const char *uid,
    cJSON **out)
{
	static const char	 sql[] = "SELECT " VIDEO_COLS
	    " FROM stream_video WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	*out = NULL;
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = video_row_json(st, stream_now());
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

cJSON *
stream_video_load(struct store *store, const char *account, const char *uid)
{
	cJSON	*v;

	video_lookup(store, account, uid, &v);
	return (v);
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

char *
video_meta_text(const cJSON *meta, char **name)
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

	meta = video_meta_text(nv->meta, &name);
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
	if (video_create_file(store, account, uid, 1, cause) != 0) {
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
		    video_col_text(st, 0));
		snprintf(up->uid, sizeof up->uid, "%s", video_col_text(st, 1));
		up->kind = (enum stream_upload_kind)sqlite3_column_int(st, 2);
		up->pending = sqlite3_column_int(st, 3);
		up->length = sqlite3_column_int64(st, 4);
		up->offset = sqlite3_column_int64(st, 5);
		up->expiry = video_col_time(st, 6);
		if ((s = video_col_text(st, 7)) != NULL)
			snprintf(up->token, sizeof up->token, "%s", s);
		if ((s = video_col_text(st, 8)) != NULL)
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

/* ---- checks of the fields a client may set ------------------------------- */

/* Fields shared by edit and direct_upload; v is present and not null. */
int
stream_check_origins(const cJSON *v, char **cause)
{
	const cJSON	*item;
	int		 i = 0;

	if (!cJSON_IsArray(v))
		return (util_fail(cause, "allowedOrigins: must be an array "
		    "of strings, not %s", jsonutil_type_name(v)));
	cJSON_ArrayForEach(item, v) {
		if (!cJSON_IsString(item))
			return (util_fail(cause, "allowedOrigins[%d]: must "
			    "be a string, not %s", i, jsonutil_type_name(item)));
		i++;
	}
	return (0);
}

int
stream_check_creator(const cJSON *v, char **cause)
{
	if (!cJSON_IsString(v))
		return (util_fail(cause, "creator: must be a string, not %s",
		    jsonutil_type_name(v)));
	if (text_chars(v->valuestring) > STREAMRULES_CREATOR_MAX)
		return (util_fail(cause, "creator: at most %d characters",
		    STREAMRULES_CREATOR_MAX));
	return (0);
}

int
stream_check_max_duration(const cJSON *v, long *out, char **cause)
{
	if (!util_jis_integer(v))
		return (util_fail(cause, "maxDurationSeconds: must be an "
		    "integer, not %s", jsonutil_type_name(v)));
	if (v->valuedouble < 1 || v->valuedouble > STREAMRULES_DURATION_MAX)
		return (util_fail(cause, "maxDurationSeconds: %.15g is out "
		    "of range (1 to %d)", v->valuedouble,
		    STREAMRULES_DURATION_MAX));
	*out = (long)v->valuedouble;
	return (0);
}

int
stream_check_thumb(const cJSON *v, double *out, char **cause)
{
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return (util_fail(cause, "thumbnailTimestampPct: must be a "
		    "number, not %s", jsonutil_type_name(v)));
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

/* ---- the fields of a new video in a body --------------------------------- */

static const cJSON *
video_member(const cJSON *b, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(b, key);

	return (cJSON_IsNull(v) ? NULL : v);
}

static int
video_new_creator(const cJSON *b, struct req *req, struct stream_new *nv,
    char **cause)
{
	const cJSON	*v;

	nv->creator = req_header(req, "Upload-Creator");
	if ((v = video_member(b, "creator")) != NULL) {
		if (stream_check_creator(v, cause) != 0)
			return (-1);
		nv->creator = v->valuestring;
	}
	if (nv->creator != NULL && (!util_utf8_valid(nv->creator,
	    strlen(nv->creator)) || text_chars(nv->creator) >
	    STREAMRULES_CREATOR_MAX))
		return (util_fail(cause, "Upload-Creator: at most %d "
		    "characters of UTF-8", STREAMRULES_CREATOR_MAX));
	return (0);
}

/* meta, with the legacy top-level name filling in meta.name. */
static int
video_new_meta(const cJSON *b, cJSON **meta, char **cause)
{
	const cJSON	*v, *name;

	if ((v = video_member(b, "meta")) != NULL && !cJSON_IsObject(v))
		return (util_fail(cause, "meta: must be an object, not %s",
		    jsonutil_type_name(v)));
	*meta = v != NULL ? cJSON_Duplicate(v, 1) : cJSON_CreateObject();
	if ((name = video_member(b, "name")) != NULL) {
		if (!cJSON_IsString(name))
			return (util_fail(cause, "name: must be a string, "
			    "not %s", jsonutil_type_name(name)));
		if (cJSON_GetObjectItemCaseSensitive(*meta, "name") == NULL)
			cJSON_AddStringToObject(*meta, "name",
			    name->valuestring);
	}
	return (0);
}

/* A copy's and a clip's: meta, creator and the settings a client gives. */
int
video_new_fields(const cJSON *b, struct req *req, int64_t now,
    struct stream_new *nv, cJSON **meta, int64_t *deletion, char **cause)
{
	const cJSON	*v;

	*meta = NULL;
	*deletion = 0;
	if (video_new_creator(b, req, nv, cause) != 0 ||
	    video_new_meta(b, meta, cause) != 0)
		return (-1);
	nv->meta = *meta;
	if ((v = video_member(b, "allowedOrigins")) != NULL) {
		if (stream_check_origins(v, cause) != 0)
			return (-1);
		nv->allowed_origins = v;
	}
	if ((v = video_member(b, "requireSignedURLs")) != NULL) {
		if (!cJSON_IsBool(v))
			return (util_fail(cause, "requireSignedURLs: must be "
			    "a boolean, not %s", jsonutil_type_name(v)));
		nv->require_signed = cJSON_IsTrue(v);
	}
	if ((v = video_member(b, "scheduledDeletion")) != NULL &&
	    (stream_check_date(v, "scheduledDeletion", deletion, cause) != 0 ||
	    stream_check_deletion(*deletion, now, cause) != 0))
		return (-1);
	if ((v = video_member(b, "thumbnailTimestampPct")) != NULL &&
	    stream_check_thumb(v, &nv->thumb_pct, cause) != 0)
		return (-1);
	if ((v = video_member(b, "watermark")) != NULL) {
		v = cJSON_GetObjectItemCaseSensitive(v, "uid");
		if (!cJSON_IsString(v) || !apirules_hex32_ok(v->valuestring))
			return (util_fail(cause, "watermark: must be an object "
			    "whose uid is a watermark profile's (32 hex "
			    "digits)"));
		nv->watermark_uid = v->valuestring;
	}
	return (0);
}

/* ---- the video in a path ------------------------------------------------- */

/*
 * Routes below a video name its account {account} and its uid
 * {identifier}.
 */

cJSON *
video_of_path(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "identifier");
	cJSON		*video;

	video = stream_video_load(req->store, req_param(req, "account"), uid);
	if (video == NULL)
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found",
		    uid);
	return (video);
}

int
video_path_exists(struct req *req, struct reply *rep)
{
	cJSON	*video = video_of_path(req, rep);

	cJSON_Delete(video);
	return (video != NULL);
}

void
video_path_list(struct req *req, struct reply *rep, const char *sql,
    cJSON *(*row)(sqlite3_stmt *))
{
	sqlite3_stmt	*st;
	cJSON		*list;
	int		 rc;

	if (!video_path_exists(req, rep))
		return;
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "identifier"), -1,
	    SQLITE_STATIC);
	list = cJSON_CreateArray();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cJSON_AddItemToArray(list, row(st));
	if (rc != SQLITE_DONE) {
		cJSON_Delete(list);
		reply_store_error(req, rep);
	} else
		reply_ok(rep, list);
	store_done(st);
}

/* ---- a video's bytes, with HTTP ranges ----------------------------------- */

static const char *
video_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return (p);
}

/* Digits only (no sign, no space): 1 read, 0 none there, -1 overflow. */
static int
video_range_number(const char **pp, uint64_t *out)
{
	const char	*p = *pp;
	uint64_t	 v = 0;

	if (!isdigit((unsigned char)*p))
		return (0);
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return (-1);
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*pp = p;
	*out = v;
	return (1);
}

enum video_range
video_range(const char *h, uint64_t size, uint64_t *first,
    uint64_t *last)
{
	const char	*p;
	uint64_t	 a = 0, b = 0;
	int		 has_a, has_b;

	if (h == NULL)
		return (VIDEO_RANGE_NONE);
	p = video_ows(h);
	if (strncasecmp(p, "bytes", 5) != 0)
		return (VIDEO_RANGE_NONE);
	p = video_ows(p + 5);
	if (*p++ != '=')
		return (VIDEO_RANGE_NONE);
	p = video_ows(p);
	if ((has_a = video_range_number(&p, &a)) < 0 || *p++ != '-' ||
	    (has_b = video_range_number(&p, &b)) < 0)
		return (VIDEO_RANGE_NONE);
	/* A comma here is a second range: ignored with the first. */
	if (*video_ows(p) != '\0' || (!has_a && !has_b))
		return (VIDEO_RANGE_NONE);
	if (!has_a) {
		/* -n: the last n bytes, all of them if the file is shorter. */
		if (b == 0 || size == 0)
			return (VIDEO_RANGE_UNSATISFIABLE);
		*first = b >= size ? 0 : size - b;
		*last = size - 1;
		return (VIDEO_RANGE_OK);
	}
	if (has_b && b < a)
		return (VIDEO_RANGE_NONE);	/* invalid, so ignored */
	if (a >= size)
		return (VIDEO_RANGE_UNSATISFIABLE);
	*first = a;
	*last = !has_b || b >= size ? size - 1 : b;
	return (VIDEO_RANGE_OK);
}

/*
 * Served from the file descriptor, so a large video is never in memory.
 * If-Range is answered with the whole file: edgemu sends no validators, so
 * none can match.
 */
void
video_send_fd(struct req *req, struct reply *rep, int fd, uint64_t size,
    const char *content_type)
{
	struct MHD_Response	*resp;
	uint64_t		 first = 0, last = 0;
	char			 range[96];
	enum video_range	 kind;

	kind = req_header(req, MHD_HTTP_HEADER_IF_RANGE) != NULL ?
	    VIDEO_RANGE_NONE : video_range(req_header(req,
	    MHD_HTTP_HEADER_RANGE), size, &first, &last);
	reply_header(rep, MHD_HTTP_HEADER_ACCEPT_RANGES, "bytes");
	if (kind == VIDEO_RANGE_UNSATISFIABLE) {
		close(fd);
		snprintf(range, sizeof range, "bytes */%llu",
		    (unsigned long long)size);
		reply_header(rep, MHD_HTTP_HEADER_CONTENT_RANGE, range);
		reply_raw(rep, MHD_HTTP_RANGE_NOT_SATISFIABLE, NULL, 0, NULL);
		return;
	}
	if (kind == VIDEO_RANGE_NONE) {
		first = 0;
		last = size - 1;	/* unused when size is 0 */
	}
	if (size == 0) {
		close(fd);
		reply_raw(rep, 200, NULL, 0, content_type);
		return;
	}
	resp = MHD_create_response_from_fd_at_offset64(last - first + 1, fd,
	    first);
	if (resp == NULL) {
		close(fd);
		reply_error(rep, 500, ERR_INTERNAL, "cannot serve the file");
		return;
	}
	rep->response = resp;
	rep->status = kind == VIDEO_RANGE_OK ? MHD_HTTP_PARTIAL_CONTENT :
	    MHD_HTTP_OK;
	reply_header(rep, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	if (kind == VIDEO_RANGE_OK) {
		snprintf(range, sizeof range, "bytes %llu-%llu/%llu",
		    (unsigned long long)first, (unsigned long long)last,
		    (unsigned long long)size);
		reply_header(rep, MHD_HTTP_HEADER_CONTENT_RANGE, range);
	}
}
