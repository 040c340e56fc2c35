/*
 * The MP4 and M4A downloads of a Stream video: requested, "encoded" over
 * the processing time, then served with HTTP ranges (video.c) at a URL
 * like a CDN's, opened by the uid or a signed token (delivery.c); the
 * area's tables, routes and demo data.
 *
 * Progress is computed when read from the times stored at creation (ready =
 * created + processing seconds), so it needs no thread and survives a
 * restart.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apirules.h"
#include "delivery.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "util.h"
#include "xmalloc.h"

#define DOWNLOADS_VIDEO	STREAM_ACCOUNT "/stream/{identifier:hex32}"
/* The URLs handed out, outside API_PREFIX; {ref} is the uid or a token. */
#define DOWNLOADS_MEDIA	VIDEO_MEDIA_ROOT "/{ref}/downloads"

/* Times are Unix seconds (fractional). */
static const char downloads_schema[] =
	"CREATE TABLE IF NOT EXISTS stream_download ("
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" created REAL NOT NULL,"
	" ready REAL NOT NULL,"
	" PRIMARY KEY (account, video)) WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS stream_download_video"
	" ON stream_download (video);"
	/* A deleted video takes its downloads along. */
	"CREATE TRIGGER IF NOT EXISTS stream_video_gone"
	" AFTER DELETE ON stream_video BEGIN"
	" DELETE FROM stream_download"
	"  WHERE account = old.account AND video = old.uid;"
	" END;"
	/* The audio (M4A) download: beside the default one, same columns. */
	"CREATE TABLE IF NOT EXISTS stream_download_audio ("
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" created REAL NOT NULL,"
	" ready REAL NOT NULL,"
	" PRIMARY KEY (account, video)) WITHOUT ROWID;"
	"CREATE TRIGGER IF NOT EXISTS stream_video_gone_audio_download"
	" AFTER DELETE ON stream_video BEGIN"
	" DELETE FROM stream_download_audio"
	"  WHERE account = old.account AND video = old.uid;"
	" END;";

/* The types of download: the JSON key, its table, its file name and type. */
struct downloads_type {
	const char	*name;
	const char	*get_sql;
	const char	*create_sql;
	const char	*delete_sql;
	const char	*ready_sql;
	const char	*file;
	const char	*content_type;
};

#define DOWNLOADS_TYPE_SQL(table) \
	"SELECT created, ready FROM " table " WHERE account = ?1 AND video = ?2", \
	"INSERT INTO " table " (account, video, created, ready)" \
	" VALUES (?1, ?2, ?3, ?4)" \
	" ON CONFLICT (account, video) DO UPDATE SET created = created" \
	" RETURNING created, ready", \
	"DELETE FROM " table " WHERE account = ?1 AND video = ?2", \
	"SELECT account, ready FROM " table " WHERE video = ?1"

static const struct downloads_type downloads_types[] = {
	{ "default", DOWNLOADS_TYPE_SQL("stream_download"), "default.mp4",
	  "video/mp4" },
	{ "audio", DOWNLOADS_TYPE_SQL("stream_download_audio"), "audio.m4a",
	  "audio/mp4" },
};

/* ---- shared pieces ------------------------------------------------------ */

static const char *
downloads_video_state(const cJSON *video)
{
	const cJSON	*status;
	const char	*state;

	status = cJSON_GetObjectItemCaseSensitive(video, "status");
	if (util_jstring(status, "state", &state) != UTIL_JOK)
		return ("unknown");
	return (state);
}

/* Percent of the way from created to ready, one decimal, 0 to 100. */
static double
downloads_percent(double created, double ready, double now)
{
	if (now >= ready || ready <= created)
		return (100);
	if (now <= created)
		return (0);
	return (floor((now - created) / (ready - created) * 1000) / 10);
}

/* ---- downloads ---------------------------------------------------------- */

/* The download URL: on this server, outside API_PREFIX. */
static char *
downloads_url(struct req *req, const char *uid, const char *file)
{
	const char	*base = server_base_url(req->server);
	size_t		 n = strlen(base), p = strlen(API_PREFIX);

	if (n >= p && strcmp(base + n - p, API_PREFIX) == 0)
		n -= p;
	return (xprintf("%.*s" VIDEO_MEDIA_ROOT "/%s/downloads/%s", (int)n,
	    base, uid, file));
}

static void
downloads_add(cJSON *o, struct req *req, const char *uid,
    const struct downloads_type *t, double created, double ready, double now)
{
	cJSON	*d;
	char	*url = downloads_url(req, uid, t->file);

	d = cJSON_AddObjectToObject(o, t->name);
	cJSON_AddStringToObject(d, "status", now >= ready ? "ready" :
	    "inprogress");
	cJSON_AddStringToObject(d, "url", url);
	cJSON_AddNumberToObject(d, "percentComplete",
	    downloads_percent(created, ready, now));
	free(url);
}

/*
 * Every download the video has, keyed by type, as it is at now; NULL on a
 * store failure.
 */
static cJSON *
downloads_json(struct req *req, const char *uid, double now)
{
	const struct downloads_type	*t;
	sqlite3_stmt			*st;
	cJSON				*o = cJSON_CreateObject();
	size_t				 i;
	int				 rc = SQLITE_DONE;

	for (i = 0; i < nitems(downloads_types) && rc == SQLITE_DONE; i++) {
		t = &downloads_types[i];
		st = store_stmt(req->store, t->get_sql);
		sqlite3_bind_text(st, 1, req_param(req, "account"), -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			downloads_add(o, req, uid, t,
			    sqlite3_column_double(st, 0),
			    sqlite3_column_double(st, 1), now);
			rc = SQLITE_DONE;
		}
		store_done(st);
	}
	if (rc != SQLITE_DONE) {
		cJSON_Delete(o);
		return (NULL);
	}
	return (o);
}

/* The path's download type (default without one); NULL after a 400. */
static const struct downloads_type *
downloads_type(struct req *req, struct reply *rep)
{
	const char	*name = req_param(req, "download_type");
	size_t		 i;

	if (name == NULL)
		name = streamrules_download_types[0];
	if (!apirules_in(streamrules_download_types, name)) {
		reply_error(rep, 400, ERR_VALIDATION, "download type '%.32s': "
		    "must be default (MP4) or audio (M4A)", name);
		return (NULL);
	}
	/* Each type the API has, this table stores. */
	for (i = 0; i < nitems(downloads_types); i++) {
		if (strcmp(downloads_types[i].name, name) == 0)
			break;
	}
	if (i == nitems(downloads_types))
		fatalx("downloads: no table for type %s", name);
	return (&downloads_types[i]);
}

/*
 * Asking again for a download that exists returns it as it is: the no-op
 * update makes RETURNING give the stored row instead of nothing.
 */
static void
downloads_create(struct req *req, struct reply *rep)
{
	const struct downloads_type	*t;
	const char		*uid = req_param(req, "identifier"), *state;
	sqlite3_stmt		*st;
	cJSON			*video, *o;
	double			 now;
	int			 rc;

	if ((t = downloads_type(req, rep)) == NULL ||
	    (video = video_of_path(req, rep)) == NULL)
		return;
	state = downloads_video_state(video);
	if (strcmp(state, "ready") != 0) {
		reply_error(rep, 409, ERR_CONFLICT, "video %s is %s: it must "
		    "be ready before a download can be made", uid, state);
		cJSON_Delete(video);
		return;
	}
	cJSON_Delete(video);
	now = video_now_seconds();
	st = store_stmt(req->store, t->create_sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 3, now);
	sqlite3_bind_double(st, 4, now +
	    server_options(req->server)->processing_seconds);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		rc = sqlite3_step(st);
	store_done(st);
	/* Answered as of the request's instant, not after the write: a
	 * slow commit must not let a short processing time pass unseen. */
	if (rc != SQLITE_DONE || (o = downloads_json(req, uid, now)) == NULL) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, o);
}

static void
downloads_get(struct req *req, struct reply *rep)
{
	cJSON	*o;

	if (!video_path_exists(req, rep))
		return;
	if ((o = downloads_json(req, req_param(req, "identifier"),
	    video_now_seconds())) == NULL)
		reply_store_error(req, rep);
	else
		reply_ok(rep, o);
}

static void
downloads_delete(struct req *req, struct reply *rep)
{
	const struct downloads_type	*t;
	const char		*uid = req_param(req, "identifier");
	int			 found;

	if ((t = downloads_type(req, rep)) == NULL ||
	    !video_path_exists(req, rep))
		return;
	found = store_doc_delete(req->store, t->delete_sql,
	    req_param(req, "account"), uid);
	if (found < 0)
		reply_store_error(req, rep);
	else if (!found)
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no %s",
		    uid, t == &downloads_types[0] ? "downloads" :
		    "audio download");
	else
		reply_ok(rep, cJSON_CreateString("ok"));
}

/* ---- the download URL --------------------------------------------------- */

/* The account of a ready download of uid, or NULL after a 404 reply. */
static char *
downloads_ready_account(struct req *req, struct reply *rep, const char *uid,
    const struct downloads_type *t)
{
	sqlite3_stmt		*st = store_stmt(req->store, t->ready_sql);
	char			*account = NULL;
	int			 rc;

	sqlite3_bind_text(st, 1, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_double(st, 1) <=
	    video_now_seconds())
		account = xstrdup((const char *)sqlite3_column_text(st, 0));
	else if (rc == SQLITE_ROW)
		reply_error(rep, 404, ERR_NOT_FOUND, "the download of video "
		    "%s is not ready yet", uid);
	else if (rc == SQLITE_DONE)
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no "
		    "download", uid);
	else
		reply_store_error(req, rep);
	store_done(st);
	return (account);
}

static int
downloads_open(struct req *req, struct reply *rep, const char *uid,
    const struct downloads_type *t, uint64_t *size)
{
	struct stat	 sb;
	char		*account, *path;
	int		 fd;

	if ((account = downloads_ready_account(req, rep, uid, t)) == NULL)
		return (-1);
	path = stream_video_file(req->store, account, uid);
	free(account);
	fd = path != NULL ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd == -1 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		/* The video was deleted after its download was made. */
		if (fd == -1 && path != NULL && errno != ENOENT)
			log_warn("%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no "
		    "download", uid);
		free(path);
		return (-1);
	}
	free(path);
	*size = (uint64_t)sb.st_size;
	return (fd);
}

static void
downloads_serve(struct req *req, struct reply *rep,
    const struct downloads_type *t)
{
	uint64_t	 size;
	char		 account[HEX32_LEN + 1], uid[HEX32_LEN + 1];
	int		 fd;

	if (delivery_resolve(req, rep, DELIVERY_DOWNLOAD, account, uid) != 0 ||
	    (fd = downloads_open(req, rep, uid, t, &size)) == -1)
		return;
	video_send_fd(req, rep, fd, size, t->content_type);
}

static void
downloads_media(struct req *req, struct reply *rep)
{
	downloads_serve(req, rep, &downloads_types[0]);
}

/* The audio download: the same bytes, as the M4A a player would fetch. */
static void
downloads_media_audio(struct req *req, struct reply *rep)
{
	downloads_serve(req, rep, &downloads_types[1]);
}

/* ---- demo data and the area --------------------------------------------- */

/*
 * The first ready demo video has its MP4 download. Runs inside demo_seed's
 * transaction.
 */
static int
downloads_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	static const char	 download_sql[] =
	    "INSERT INTO stream_download (account, video, created, ready)"
	    " VALUES (?1, ?2, ?3, ?3)";
	sqlite3_stmt		*st;
	char			 uids[1][HEX32_LEN + 1];
	int			 n, rc = SQLITE_DONE;

	(void)zone;
	n = stream_demo_ready_uids(store, account, uids, (int)nitems(uids));
	if (n > 0) {
		st = store_stmt(store, download_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, uids[0], -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, video_now_seconds());
		rc = sqlite3_step(st);
		store_done(st);
	}
	if (n < 0 || rc != SQLITE_DONE) {
		*cause = xprintf("demo downloads: %s", store_errmsg(store));
		return (-1);
	}
	return (0);
}

/* A token in a download's URL is logged cut (delivery_log_path). */
static const struct route downloads_routes[] = {
	/* The spec gives POST and DELETE a body; any is read and ignored. */
	{ HTTP_POST, DOWNLOADS_VIDEO "/downloads", downloads_create,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, DOWNLOADS_VIDEO "/downloads", downloads_get,
	    ROUTE_BODY_NONE },
	{ HTTP_DELETE, DOWNLOADS_VIDEO "/downloads", downloads_delete,
	    ROUTE_BODY_NONE },
	{ HTTP_POST, DOWNLOADS_VIDEO "/downloads/{download_type}",
	    downloads_create, ROUTE_BODY_NONE },
	{ HTTP_DELETE, DOWNLOADS_VIDEO "/downloads/{download_type}",
	    downloads_delete, ROUTE_BODY_NONE },
	/* The URL handed out in downloads: like a CDN's, no API token. */
	{ HTTP_GET, DOWNLOADS_MEDIA "/default.mp4", downloads_media,
	    ROUTE_BODY_NONE, ROUTE_ROOT | ROUTE_NOAUTH,
	    .log_path = delivery_log_path },
	{ HTTP_GET, DOWNLOADS_MEDIA "/audio.m4a", downloads_media_audio,
	    ROUTE_BODY_NONE, ROUTE_ROOT | ROUTE_NOAUTH,
	    .log_path = delivery_log_path },
};

const struct area downloads_area = {
	.name = "downloads",
	.routes = downloads_routes,
	.nroutes = nitems(downloads_routes),
	.schema = downloads_schema,
	.demo = downloads_demo,
};
