/*
 * The captions of a Stream video: listed, and one language at a time a
 * WebVTT file uploaded (multipart PUT), one generated (ready after the
 * processing time, computed when read), its text read, deleted; the area's
 * tables, routes and demo data.
 *
 * The WebVTT text lives in stream_caption_vtt beside the caption's row;
 * a caption without one (demo data) is ready, not generated, and reads as
 * a one-cue file of its label.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "captionlang.h"
#include "multipart.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "util.h"
#include "xmalloc.h"

#define CAPTIONS_VIDEO		STREAM_ACCOUNT "/stream/{identifier:hex32}"
#define CAPTIONS_ONE		CAPTIONS_VIDEO "/captions/{language}"
#define CAPTIONS_CUE_SECONDS	4

/*
 * Captions list in the order they were added (seq). A deleted video takes
 * its captions along, and a deleted caption its text.
 */
static const char captions_schema[] =
	"CREATE TABLE IF NOT EXISTS stream_caption ("
	" seq INTEGER PRIMARY KEY,"
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" language TEXT NOT NULL,"
	" label TEXT NOT NULL,"
	" UNIQUE (account, video, language));"
	"CREATE TRIGGER IF NOT EXISTS stream_video_gone_caption"
	" AFTER DELETE ON stream_video BEGIN"
	" DELETE FROM stream_caption"
	"  WHERE account = old.account AND video = old.uid;"
	" END;"
	"CREATE TABLE IF NOT EXISTS stream_caption_vtt ("
	" account TEXT NOT NULL,"
	" video TEXT NOT NULL,"
	" language TEXT NOT NULL,"
	" generated INTEGER NOT NULL,"
	" ready REAL NOT NULL,"
	" vtt BLOB NOT NULL,"
	" PRIMARY KEY (account, video, language)) WITHOUT ROWID;"
	"CREATE TRIGGER IF NOT EXISTS stream_caption_gone"
	" AFTER DELETE ON stream_caption BEGIN"
	" DELETE FROM stream_caption_vtt WHERE account = old.account"
	"  AND video = old.video AND language = old.language;"
	" END;";

/* The columns a caption is shown from, in this order. */
#define CAPTIONS_COLS \
	"c.label, c.language, coalesce(v.generated, 0), coalesce(v.ready, 0)" \
	" FROM stream_caption c LEFT JOIN stream_caption_vtt v" \
	" ON v.account = c.account AND v.video = c.video" \
	" AND v.language = c.language"

static cJSON *
captions_row(sqlite3_stmt *st)
{
	cJSON	*c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, "label",
	    (const char *)sqlite3_column_text(st, 0));
	cJSON_AddStringToObject(c, "language",
	    (const char *)sqlite3_column_text(st, 1));
	cJSON_AddBoolToObject(c, "generated", sqlite3_column_int(st, 2));
	cJSON_AddStringToObject(c, "status", sqlite3_column_double(st, 3) >
	    video_now_seconds() ? "inprogress" : "ready");
	return (c);
}

static void
captions_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] = "SELECT " CAPTIONS_COLS
	    " WHERE c.account = ?1 AND c.video = ?2 ORDER BY c.seq";

	video_path_list(req, rep, sql, captions_row);
}

/* ---- one language ------------------------------------------------------- */

/* The language's own name if Stream generates it, else NULL. */
static const char *
captions_known(const char *tag)
{
	const struct captionlang	*l = captionlang_find(tag);

	return (l != NULL ? l->name : NULL);
}

static char *
captions_label(const char *tag, int generated)
{
	const char	*name = captions_known(tag);

	if (name == NULL)
		name = tag;
	return (generated ? xprintf("%s (auto-generated)", name) :
	    xstrdup(name));
}

/* The path's language, checked; NULL after a 400 reply. */
static const char *
captions_language(struct req *req, struct reply *rep)
{
	const char	*tag = req_param(req, "language");

	if (!captionlang_tag_ok(tag)) {
		reply_error(rep, 400, ERR_VALIDATION, "language: '%.40s' is not "
		    "a BCP 47 language tag such as en or pt-BR", tag);
		return (NULL);
	}
	return (tag);
}

/* 1 with the caption, 0 when the video has none in tag, -1 on failure. */
static int
captions_lookup(struct req *req, const char *tag, cJSON **out)
{
	static const char	 sql[] = "SELECT " CAPTIONS_COLS
	    " WHERE c.account = ?1 AND c.video = ?2 AND c.language = ?3";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	int			 rc;

	*out = NULL;
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "identifier"), -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(st, 3, tag, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*out = captions_row(st);
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* The caption in the path, or NULL after the reply (404, store failure). */
static cJSON *
captions_one(struct req *req, struct reply *rep, const char **tag)
{
	cJSON	*c;

	if (!video_path_exists(req, rep) ||
	    (*tag = captions_language(req, rep)) == NULL)
		return (NULL);
	switch (captions_lookup(req, *tag, &c)) {
	case 1:
		return (c);
	case 0:
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no caption "
		    "in %s", req_param(req, "identifier"), *tag);
		return (NULL);
	default:
		reply_store_error(req, rep);
		return (NULL);
	}
}

static void
captions_get(struct req *req, struct reply *rep)
{
	const char	*tag;
	cJSON		*c;

	if ((c = captions_one(req, rep, &tag)) != NULL)
		reply_ok(rep, c);
}

/*
 * Write a caption and its text in one transaction; a caption already there
 * in that language is replaced (an upload) or refused before (generate).
 */
static int
captions_store(struct req *req, const char *tag, const char *label,
    int generated, double ready, const char *vtt, size_t len)
{
	static const char	 cap_sql[] =
	    "INSERT INTO stream_caption (account, video, language, label)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (account, video, language)"
	    " DO UPDATE SET label = excluded.label";
	static const char	 vtt_sql[] =
	    "INSERT OR REPLACE INTO stream_caption_vtt (account, video,"
	    " language, generated, ready, vtt) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	const char		*account = req_param(req, "account");
	const char		*video = req_param(req, "identifier");
	sqlite3_stmt		*st;
	int			 rc;

	if (store_begin(req->store) != 0)
		return (-1);
	st = store_stmt(req->store, cap_sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, tag, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc == SQLITE_DONE) {
		st = store_stmt(req->store, vtt_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, tag, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, generated);
		sqlite3_bind_double(st, 5, ready);
		sqlite3_bind_blob(st, 6, vtt, (int)len, SQLITE_STATIC);
		rc = sqlite3_step(st);
		store_done(st);
	}
	if (rc != SQLITE_DONE || store_commit(req->store) != 0) {
		store_rollback(req->store);
		return (-1);
	}
	return (0);
}

/* The caption as stored; status, when not NULL, is its status as made. */
static void
captions_reply_stored(struct req *req, struct reply *rep, const char *tag,
    const char *status)
{
	cJSON	*c;

	if (captions_lookup(req, tag, &c) == 1) {
		if (status != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(c, "status",
			    cJSON_CreateString(status));
		reply_ok(rep, c);
	} else
		reply_store_error(req, rep);
}

/* "WEBVTT" first (after a byte order mark), alone or before a space. */
static int
captions_is_webvtt(const char *p, size_t len)
{
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		len -= 3;
	}
	if (len < 6 || memcmp(p, "WEBVTT", 6) != 0)
		return (0);
	return (len == 6 || p[6] == ' ' || p[6] == '\t' || p[6] == '\n' ||
	    p[6] == '\r');
}

static void
captions_put(struct req *req, struct reply *rep)
{
	const struct multipart_part	*file;
	const char			*tag;
	char				*label;

	if (!video_path_exists(req, rep) ||
	    (tag = captions_language(req, rep)) == NULL)
		return;
	if ((file = multipart_get(req->parts, "file")) == NULL) {
		reply_error(rep, 400, ERR_VALIDATION, "file: required, the "
		    "WebVTT file of the captions");
		return;
	}
	if (file->len > STREAMRULES_CAPTION_FILE_MAX) {
		reply_error(rep, 413, ERR_TOO_LARGE, "file: %zu bytes, over "
		    "the limit of %d bytes", file->len,
		    STREAMRULES_CAPTION_FILE_MAX);
		return;
	}
	if (!captions_is_webvtt(file->data, file->len) ||
	    !util_utf8_valid(file->data, file->len)) {
		reply_error(rep, 400, ERR_VALIDATION, "file: not a WebVTT "
		    "file (UTF-8 text that starts with \"WEBVTT\")");
		return;
	}
	label = captions_label(tag, 0);
	if (captions_store(req, tag, label, 0, 0, file->data,
	    file->len) != 0)
		reply_store_error(req, rep);
	else
		captions_reply_stored(req, rep, tag, NULL);
	free(label);
}

static void
captions_timestamp(struct buf *b, double t)
{
	long long	ms = llround(t * 1000);

	buf_addf(b, "%02lld:%02lld:%02lld.%03lld", ms / 3600000,
	    ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

/* What a generated caption says: a cue every few seconds of the video. */
static void
captions_generated_text(struct buf *b, const char *label, double duration)
{
	double	t, end;
	int	n = 0;

	buf_addf(b, "WEBVTT\n\n");
	if (duration <= 0)
		duration = CAPTIONS_CUE_SECONDS;
	for (t = 0; t < duration && n < 1000; t += CAPTIONS_CUE_SECONDS) {
		end = t + CAPTIONS_CUE_SECONDS < duration ?
		    t + CAPTIONS_CUE_SECONDS : duration;
		buf_addf(b, "%d\n", ++n);
		captions_timestamp(b, t);
		buf_addf(b, " --> ");
		captions_timestamp(b, end);
		buf_addf(b, "\n%s, cue %d\n\n", label, n);
	}
}

static void
captions_generate(struct req *req, struct reply *rep)
{
	const char	*tag, *state = "unknown";
	cJSON		*video, *c;
	struct buf	 text;
	char		*label, *list;
	double		 duration;
	int		 rc, seconds;

	video = stream_video_load(req->store, req_param(req, "account"),
	    req_param(req, "identifier"));
	if (video == NULL) {
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found",
		    req_param(req, "identifier"));
		return;
	}
	util_jstring(cJSON_GetObjectItemCaseSensitive(video, "status"),
	    "state", &state);
	duration = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(video,
	    "duration"));
	if ((tag = captions_language(req, rep)) == NULL)
		goto out;
	if (captions_known(tag) == NULL) {
		list = captionlang_list();
		reply_error(rep, 400, ERR_VALIDATION, "language: captions are "
		    "generated in %s (a region may follow: en-GB), not %s",
		    list, tag);
		free(list);
		goto out;
	}
	if (strcmp(state, "ready") != 0) {
		reply_error(rep, 409, ERR_CONFLICT, "video %s is %s: it must "
		    "be ready before captions can be generated",
		    req_param(req, "identifier"), state);
		goto out;
	}
	if ((rc = captions_lookup(req, tag, &c)) != 0) {
		if (rc < 0)
			reply_store_error(req, rep);
		else
			reply_error(rep, 409, ERR_CONFLICT, "video %s already "
			    "has a caption in %s: delete it first",
			    req_param(req, "identifier"), tag);
		cJSON_Delete(c);
		goto out;
	}
	label = captions_label(tag, 1);
	buf_init(&text);
	captions_generated_text(&text, label, duration);
	/* Answered as created: a slow commit must not let a short
	 * processing time pass unseen. */
	seconds = server_options(req->server)->processing_seconds;
	if (captions_store(req, tag, label, 1, video_now_seconds() + seconds,
	    text.data, text.len) != 0)
		reply_store_error(req, rep);
	else
		captions_reply_stored(req, rep, tag, seconds > 0 ?
		    "inprogress" : "ready");
	buf_free(&text);
	free(label);
out:
	cJSON_Delete(video);
}

/* The WebVTT itself: text/vtt, no envelope; failures are JSON. */
static void
captions_vtt(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT vtt FROM stream_caption_vtt"
	    " WHERE account = ?1 AND video = ?2 AND language = ?3";
	const char		*tag, *status, *label;
	sqlite3_stmt		*st;
	struct buf		 text;
	cJSON			*c;
	int			 rc;

	if ((c = captions_one(req, rep, &tag)) == NULL)
		return;
	status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c,
	    "status"));
	label = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c,
	    "label"));
	if (strcmp(status, "ready") != 0) {
		reply_error(rep, 409, ERR_CONFLICT, "the %s caption of video "
		    "%s is still being generated", tag,
		    req_param(req, "identifier"));
		cJSON_Delete(c);
		return;
	}
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "identifier"), -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(st, 3, tag, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		reply_raw(rep, 200, sqlite3_column_blob(st, 0),
		    (size_t)sqlite3_column_bytes(st, 0), "text/vtt");
	else if (rc == SQLITE_DONE) {
		/* A demo caption: one cue of its label. */
		buf_init(&text);
		buf_addf(&text, "WEBVTT\n\n1\n00:00:00.000 --> "
		    "00:00:04.000\n%s\n", label);
		reply_raw(rep, 200, text.data, text.len, "text/vtt");
		buf_free(&text);
	} else
		reply_store_error(req, rep);
	store_done(st);
	cJSON_Delete(c);
}

static void
captions_delete(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "DELETE FROM stream_caption"
	    " WHERE account = ?1 AND video = ?2 AND language = ?3";
	const char		*tag;
	sqlite3_stmt		*st;
	int			 rc;

	if (!video_path_exists(req, rep) ||
	    (tag = captions_language(req, rep)) == NULL)
		return;
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "identifier"), -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(st, 3, tag, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		reply_store_error(req, rep);
	else if (sqlite3_changes(store_db(req->store)) == 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no caption "
		    "in %s", req_param(req, "identifier"), tag);
	else
		reply_ok(rep, cJSON_CreateString(""));
}

/* ---- demo data and the area --------------------------------------------- */

struct captions_demo {
	const char	*language;
	const char	*label;
};

/* Applied in order to the ready demo videos; labels in their own language. */
static const struct captions_demo captions_demo_videos[][3] = {
	{ { "en", "English" }, { "es", "Español" }, { "fr", "Français" } },
	{ { "en", "English" }, { "de", "Deutsch" } },
	{ { "en", "English" }, { "ja", "日本語" },
	  { "pt-BR", "Português (Brasil)" } },
};

/* A demo video's captions (languages NULL after the last). */
static int
captions_demo_add(struct store *store, const char *account, const char *video,
    const struct captions_demo *c, size_t n)
{
	static const char	 caption_sql[] =
	    "INSERT INTO stream_caption (account, video, language, label)"
	    " VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc = SQLITE_DONE;

	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		if (c[i].language == NULL)
			break;
		st = store_stmt(store, caption_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, c[i].language, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, c[i].label, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		store_done(st);
	}
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* Runs inside demo_seed's transaction. */
static int
captions_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	char	uids[nitems(captions_demo_videos)][HEX32_LEN + 1];
	int	i, n;

	(void)zone;
	n = stream_demo_ready_uids(store, account, uids, (int)nitems(uids));
	for (i = 0; i < n; i++) {
		if (captions_demo_add(store, account, uids[i],
		    captions_demo_videos[i],
		    nitems(captions_demo_videos[i])) != 0)
			break;
	}
	if (n < 0 || i < n) {
		*cause = xprintf("demo captions: %s", store_errmsg(store));
		return (-1);
	}
	return (0);
}

static const struct route captions_routes[] = {
	{ HTTP_GET, CAPTIONS_VIDEO "/captions", captions_list,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, CAPTIONS_ONE, captions_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, CAPTIONS_ONE, captions_put, ROUTE_BODY_MULTIPART },
	{ HTTP_DELETE, CAPTIONS_ONE, captions_delete, ROUTE_BODY_NONE },
	{ HTTP_POST, CAPTIONS_ONE "/generate", captions_generate,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, CAPTIONS_ONE "/vtt", captions_vtt, ROUTE_BODY_NONE },
};

const struct area captions_area = {
	.name = "captions",
	.routes = captions_routes,
	.nroutes = nitems(captions_routes),
	.schema = captions_schema,
	.demo = captions_demo,
};
