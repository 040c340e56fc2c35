/*
 * The downloads area: what hangs off a Stream video. Here its MP4 download
 * (requested, "encoded" over the processing time, then served with HTTP
 * ranges), the area's tables, routes and demo data; its captions are in
 * captions.c and its extra audio tracks in audio.c.
 *
 * Progress is computed when read from the times stored at creation (ready =
 * created + processing seconds), so it needs no thread and survives a
 * restart; audio tracks go from queued to ready the same way.
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

#include "audio.h"
#include "captions.h"
#include "delivery.h"
#include "downloads.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "util.h"
#include "xmalloc.h"

#define DOWNLOADS_VIDEO	STREAM_ACCOUNT "/stream/{identifier:hex32}"

/*
 * Times are Unix seconds (fractional). Captions and audio tracks list in the
 * order they were added (seq).
 */
static const char downloads_schema[] =
	"CREATE TABLE IF NOT EXISTS stream_download ("
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" created REAL NOT NULL,"
	" ready REAL NOT NULL,"
	" PRIMARY KEY (account, video)) WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS stream_download_video"
	" ON stream_download (video);"
	"CREATE TABLE IF NOT EXISTS stream_caption ("
	" seq INTEGER PRIMARY KEY,"
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" language TEXT NOT NULL,"
	" label TEXT NOT NULL,"
	" UNIQUE (account, video, language));"
	"CREATE TABLE IF NOT EXISTS stream_audio ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" uid TEXT NOT NULL,"
	" label TEXT NOT NULL,"
	" is_default INTEGER NOT NULL,"
	" url TEXT,"
	" ready REAL NOT NULL,"
	" UNIQUE (account, video, uid));"
	"CREATE INDEX IF NOT EXISTS stream_audio_video"
	" ON stream_audio (account, video, seq);"
	/* A deleted video takes its download, captions and tracks along. */
	"CREATE TRIGGER IF NOT EXISTS stream_video_gone"
	" AFTER DELETE ON stream_video BEGIN"
	" DELETE FROM stream_download"
	"  WHERE account = old.account AND video = old.uid;"
	" DELETE FROM stream_caption"
	"  WHERE account = old.account AND video = old.uid;"
	" DELETE FROM stream_audio"
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

double
downloads_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* ---- Range ------------------------------------------------------------- */

static const char *
downloads_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return (p);
}

/* Digits only (no sign, no space): 1 read, 0 none there, -1 overflow. */
static int
downloads_number(const char **pp, uint64_t *out)
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

enum downloads_range
downloads_range(const char *h, uint64_t size, uint64_t *first,
    uint64_t *last)
{
	const char	*p;
	uint64_t	 a = 0, b = 0;
	int		 has_a, has_b;

	if (h == NULL)
		return (DOWNLOADS_RANGE_NONE);
	p = downloads_ows(h);
	if (strncasecmp(p, "bytes", 5) != 0)
		return (DOWNLOADS_RANGE_NONE);
	p = downloads_ows(p + 5);
	if (*p++ != '=')
		return (DOWNLOADS_RANGE_NONE);
	p = downloads_ows(p);
	if ((has_a = downloads_number(&p, &a)) < 0 || *p++ != '-' ||
	    (has_b = downloads_number(&p, &b)) < 0)
		return (DOWNLOADS_RANGE_NONE);
	/* A comma here is a second range: ignored with the first. */
	if (*downloads_ows(p) != '\0' || (!has_a && !has_b))
		return (DOWNLOADS_RANGE_NONE);
	if (!has_a) {
		/* -n: the last n bytes, all of them if the file is shorter. */
		if (b == 0 || size == 0)
			return (DOWNLOADS_RANGE_UNSATISFIABLE);
		*first = b >= size ? 0 : size - b;
		*last = size - 1;
		return (DOWNLOADS_RANGE_OK);
	}
	if (has_b && b < a)
		return (DOWNLOADS_RANGE_NONE);	/* invalid, so ignored */
	if (a >= size)
		return (DOWNLOADS_RANGE_UNSATISFIABLE);
	*first = a;
	*last = !has_b || b >= size ? size - 1 : b;
	return (DOWNLOADS_RANGE_OK);
}

/* ---- shared pieces ------------------------------------------------------ */

/* The video in the path, or NULL once the reply says it was not found. */
static cJSON *
downloads_video(struct req *req, struct reply *rep)
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
downloads_video_exists(struct req *req, struct reply *rep)
{
	cJSON	*video = downloads_video(req, rep);

	cJSON_Delete(video);
	return (video != NULL);
}

void
downloads_list(struct req *req, struct reply *rep, const char *sql,
    cJSON *(*row)(sqlite3_stmt *))
{
	sqlite3_stmt	*st;
	cJSON		*list;
	int		 rc;

	if (!downloads_video_exists(req, rep))
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
	return (xprintf("%.*s/media/%s/downloads/%s", (int)n, base, uid,
	    file));
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
		return (&downloads_types[0]);
	for (i = 0; i < nitems(downloads_types); i++) {
		if (strcmp(downloads_types[i].name, name) == 0)
			return (&downloads_types[i]);
	}
	reply_error(rep, 400, ERR_VALIDATION, "download type '%.32s': must "
	    "be default (MP4) or audio (M4A)", name);
	return (NULL);
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
	    (video = downloads_video(req, rep)) == NULL)
		return;
	state = downloads_video_state(video);
	if (strcmp(state, "ready") != 0) {
		reply_error(rep, 409, ERR_CONFLICT, "video %s is %s: it must "
		    "be ready before a download can be made", uid, state);
		cJSON_Delete(video);
		return;
	}
	cJSON_Delete(video);
	now = downloads_now();
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

	if (!downloads_video_exists(req, rep))
		return;
	if ((o = downloads_json(req, req_param(req, "identifier"),
	    downloads_now())) == NULL)
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
	    !downloads_video_exists(req, rep))
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
	    downloads_now())
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

/*
 * Served from the file descriptor, so a large video is never in memory.
 * If-Range is answered with the whole file: edgemu sends no validators, so
 * none can match.
 */
void
downloads_send_fd(struct req *req, struct reply *rep, int fd, uint64_t size,
    const char *content_type)
{
	struct MHD_Response	*resp;
	uint64_t		 first = 0, last = 0;
	char			 range[96];
	enum downloads_range	 kind;

	kind = req_header(req, MHD_HTTP_HEADER_IF_RANGE) != NULL ?
	    DOWNLOADS_RANGE_NONE : downloads_range(req_header(req,
	    MHD_HTTP_HEADER_RANGE), size, &first, &last);
	reply_header(rep, MHD_HTTP_HEADER_ACCEPT_RANGES, "bytes");
	if (kind == DOWNLOADS_RANGE_UNSATISFIABLE) {
		close(fd);
		snprintf(range, sizeof range, "bytes */%llu",
		    (unsigned long long)size);
		reply_header(rep, MHD_HTTP_HEADER_CONTENT_RANGE, range);
		reply_raw(rep, MHD_HTTP_RANGE_NOT_SATISFIABLE, NULL, 0, NULL);
		return;
	}
	if (kind == DOWNLOADS_RANGE_NONE) {
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
	rep->status = kind == DOWNLOADS_RANGE_OK ? MHD_HTTP_PARTIAL_CONTENT :
	    MHD_HTTP_OK;
	reply_header(rep, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	if (kind == DOWNLOADS_RANGE_OK) {
		snprintf(range, sizeof range, "bytes %llu-%llu/%llu",
		    (unsigned long long)first, (unsigned long long)last,
		    (unsigned long long)size);
		reply_header(rep, MHD_HTTP_HEADER_CONTENT_RANGE, range);
	}
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
	downloads_send_fd(req, rep, fd, size, t->content_type);
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

/* audio[0] becomes the default track. */
struct downloads_demo_video {
	struct captions_demo		 captions[3];
	const char			*audio[3];
	int				 download;
};

/* Applied in order to the ready demo videos; labels in their own language. */
static const struct downloads_demo_video downloads_demo_videos[] = {
	{ { { "en", "English" }, { "es", "Español" }, { "fr", "Français" } },
	  { "Original mix", "Director commentary", "Audio description" }, 1 },
	{ { { "en", "English" }, { "de", "Deutsch" } },
	  { "English", "Español" }, 0 },
	{ { { "en", "English" }, { "ja", "日本語" },
	    { "pt-BR", "Português (Brasil)" } },
	  { NULL }, 0 },
};

/* Everything demo data hangs on one video, already processed. */
static int
downloads_demo_video(struct store *store, struct util_rng *rng,
    const char *account, const char *video,
    const struct downloads_demo_video *d)
{
	static const char	 download_sql[] =
	    "INSERT INTO stream_download (account, video, created, ready)"
	    " VALUES (?1, ?2, ?3, ?3)";
	sqlite3_stmt		*st;
	double			 now = downloads_now();
	int			 rc;

	if (captions_demo_add(store, account, video, d->captions,
	    nitems(d->captions)) != 0 || audio_demo_add(store, rng, account,
	    video, d->audio, nitems(d->audio), now) != 0)
		return (-1);
	if (!d->download)
		return (0);
	st = store_stmt(store, download_sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 3, now);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* Runs inside demo_seed's transaction; uids come from a fixed seed. */
static int
downloads_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng	 rng;
	char		 uids[nitems(downloads_demo_videos)][HEX32_LEN + 1];
	int		 i, n;

	(void)zone;
	util_rng_seed(&rng, 0x6d65646961646c31ULL);
	n = stream_demo_ready_uids(store, account, uids, (int)nitems(uids));
	for (i = 0; i < n; i++) {
		if (downloads_demo_video(store, &rng, account, uids[i],
		    &downloads_demo_videos[i]) != 0)
			break;
	}
	if (n < 0 || i < n) {
		*cause = xprintf("demo captions, audio and downloads: %s",
		    store_errmsg(store));
		return (-1);
	}
	return (0);
}

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
	{ HTTP_GET, DOWNLOADS_VIDEO "/captions", captions_list,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, DOWNLOADS_VIDEO "/audio", audio_list,
	    ROUTE_BODY_NONE },
	{ HTTP_POST, DOWNLOADS_VIDEO "/audio/copy", audio_copy,
	    ROUTE_BODY_JSON },
	{ HTTP_DELETE, DOWNLOADS_VIDEO "/audio/{audio_identifier:hex32}",
	    audio_delete, ROUTE_BODY_NONE },
	{ HTTP_PATCH, DOWNLOADS_VIDEO "/audio/{audio_identifier:hex32}",
	    audio_edit, ROUTE_BODY_JSON },
	/* The URL handed out in downloads: like a CDN's, no API token. */
	{ HTTP_GET, DOWNLOADS_MEDIA_PATH, downloads_media, ROUTE_BODY_NONE,
	    ROUTE_ROOT | ROUTE_NOAUTH },
	{ HTTP_GET, "/media/{ref}/downloads/audio.m4a",
	    downloads_media_audio, ROUTE_BODY_NONE,
	    ROUTE_ROOT | ROUTE_NOAUTH },
};

const struct area downloads_area = {
	.name = "downloads",
	.routes = downloads_routes,
	.nroutes = nitems(downloads_routes),
	.schema = downloads_schema,
	.demo = downloads_demo,
};
