/*
 * The extra audio tracks of a Stream video: listed, copied in from a URL
 * (queued, then ready after the processing time, computed when read),
 * edited (label, default) and deleted; the area's table, routes and demo
 * data.
 */
#include "config.h"

#include <stdlib.h>

#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "text.h"
#include "util.h"
#include "webhook.h"
#include "xmalloc.h"

#define AUDIO_VIDEO	STREAM_ACCOUNT "/stream/{identifier:hex32}"

/*
 * Tracks list in the order they were added (seq); a deleted video takes
 * its tracks along. Times are Unix seconds (fractional).
 */
static const char audio_schema[] =
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
	"CREATE TRIGGER IF NOT EXISTS stream_video_gone_audio_track"
	" AFTER DELETE ON stream_video BEGIN"
	" DELETE FROM stream_audio"
	"  WHERE account = old.account AND video = old.uid;"
	" END;";

/* A track as it is at now. */
static cJSON *
audio_json(const char *uid, const char *label, int is_default,
    double ready, double now)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "uid", uid);
	cJSON_AddStringToObject(o, "label", label);
	cJSON_AddBoolToObject(o, "default", is_default);
	cJSON_AddStringToObject(o, "status", now >= ready ? "ready" :
	    "queued");
	return (o);
}

static cJSON *
audio_row(sqlite3_stmt *st)
{
	return (audio_json((const char *)sqlite3_column_text(st, 0),
	    (const char *)sqlite3_column_text(st, 1),
	    sqlite3_column_int(st, 2), sqlite3_column_double(st, 3),
	    video_now_seconds()));
}

static void
audio_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT uid, label, is_default, ready FROM stream_audio"
	    " WHERE account = ?1 AND video = ?2 ORDER BY seq";

	video_path_list(req, rep, sql, audio_row);
}

/* The copy request's label and url (NULL when absent), or -1 and cause. */
static int
audio_body(const cJSON *body, const char **label, const char **url,
    char **cause)
{
	char	*why = NULL;

	if (!cJSON_IsObject(body)) {
		*cause = xstrdup("a JSON object with label is required");
		return (-1);
	}
	switch (util_jstring(body, "label", label)) {
	case UTIL_JABSENT:
		*cause = xstrdup("label: required, a name for the track "
		    "such as \"director commentary\"");
		return (-1);
	case UTIL_JWRONG:
		*cause = xstrdup("label: must be a string");
		return (-1);
	case UTIL_JOK:
		break;
	}
	if (**label == '\0') {
		*cause = xstrdup("label: must not be empty");
		return (-1);
	}
	if (text_chars(*label) > STREAMRULES_AUDIO_LABEL_MAX) {
		*cause = xprintf("label: over the limit of %d characters",
		    STREAMRULES_AUDIO_LABEL_MAX);
		return (-1);
	}
	*url = NULL;
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(body, "url")))
		return (0);
	switch (util_jstring(body, "url", url)) {
	case UTIL_JABSENT:
		return (0);
	case UTIL_JWRONG:
		*cause = xstrdup("url: must be a string");
		return (-1);
	case UTIL_JOK:
		break;
	}
	/* edgemu never fetches it, but a client bug should show here. */
	if (webhook_url_check(*url, &why) != 0) {
		*cause = xprintf("url: %s", why);
		free(why);
		return (-1);
	}
	return (0);
}

/*
 * Labels identify tracks, so a second track with the same label is refused.
 * The first track a video gets becomes its default: every video with tracks
 * has exactly one, as a player needs.
 */
static int
audio_insert(struct req *req, struct reply *rep, const char *uid,
    const char *label, const char *url, double now, int *is_default,
    double *ready)
{
	static const char	 look_sql[] =
	    "SELECT count(*), coalesce(sum(label = ?3), 0) FROM stream_audio"
	    " WHERE account = ?1 AND video = ?2";
	static const char	 add_sql[] =
	    "INSERT INTO stream_audio (account, video, uid, label, is_default,"
	    " url, ready) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	const char		*account = req_param(req, "account");
	const char		*video = req_param(req, "identifier");
	sqlite3_stmt		*st;
	int			 rc, count = 0, same = 0;

	st = store_stmt(req->store, look_sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, label, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		count = sqlite3_column_int(st, 0);
		same = sqlite3_column_int(st, 1);
	}
	store_done(st);
	if (rc != SQLITE_ROW)
		return (-1);
	if (same != 0) {
		reply_error(rep, 409, ERR_CONFLICT, "label: video %s already "
		    "has an audio track labelled \"%s\"", video, label);
		return (1);
	}
	*is_default = count == 0;
	*ready = now + server_options(req->server)->processing_seconds;
	st = store_stmt(req->store, add_sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, *is_default);
	if (url != NULL)
		sqlite3_bind_text(st, 6, url, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 7, *ready);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static void
audio_copy(struct req *req, struct reply *rep)
{
	const char	*label, *url;
	char		 uid[HEX32_LEN + 1], *cause = NULL;
	double		 ready = 0, now = video_now_seconds();
	int		 rc, is_default = 0;

	if (!video_path_exists(req, rep))
		return;
	if (audio_body(req->json, &label, &url, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	util_hex32(uid);
	if (store_begin(req->store) != 0 ||
	    (rc = audio_insert(req, rep, uid, label, url, now,
	    &is_default, &ready)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (rc > 0) {
		store_rollback(req->store);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	/* As created: a slow commit must not let the processing pass. */
	reply_ok(rep, audio_json(uid, label, is_default, ready, now));
}

static void
audio_delete(struct req *req, struct reply *rep)
{
	static const char	 look_sql[] =
	    "SELECT is_default FROM stream_audio"
	    " WHERE account = ?1 AND video = ?2 AND uid = ?3";
	static const char	 del_sql[] =
	    "DELETE FROM stream_audio"
	    " WHERE account = ?1 AND video = ?2 AND uid = ?3";
	const char		*video = req_param(req, "identifier");
	const char		*uid = req_param(req, "audio_identifier");
	sqlite3_stmt		*st;
	int			 rc, is_default = 0;

	if (!video_path_exists(req, rep))
		return;
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	st = store_stmt(req->store, look_sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		is_default = sqlite3_column_int(st, 0);
	store_done(st);
	if (rc == SQLITE_DONE) {
		store_rollback(req->store);
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no audio "
		    "track %s", video, uid);
		return;
	}
	if (rc == SQLITE_ROW && is_default) {
		store_rollback(req->store);
		reply_error(rep, 409, ERR_CONFLICT, "audio track %s is the "
		    "default track of video %s: make another track the "
		    "default first", uid, video);
		return;
	}
	if (rc == SQLITE_ROW) {
		st = store_stmt(req->store, del_sql);
		sqlite3_bind_text(st, 1, req_param(req, "account"), -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		store_done(st);
	}
	if (rc != SQLITE_DONE || store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, cJSON_CreateString("ok"));
}

/* ---- edit: label and default ---------------------------------------------- */

struct audio_edit {
	const char	*label;		/* NULL: unchanged */
	int		 set_default;	/* -1 unchanged, 0 or 1 */
};

static int
audio_edit_body(const cJSON *b, struct audio_edit *e, char **cause)
{
	const cJSON	*v;

	e->label = NULL;
	e->set_default = -1;
	if (!cJSON_IsObject(b))
		return (util_fail(cause, "a JSON object with label or default "
		    "is required"));
	v = cJSON_GetObjectItemCaseSensitive(b, "label");
	if (v != NULL && !cJSON_IsNull(v)) {
		if (!cJSON_IsString(v) || *v->valuestring == '\0')
			return (util_fail(cause, "label: must be a non-empty "
			    "string"));
		if (text_chars(v->valuestring) > STREAMRULES_AUDIO_LABEL_MAX)
			return (util_fail(cause, "label: over the limit of %d "
			    "characters", STREAMRULES_AUDIO_LABEL_MAX));
		e->label = v->valuestring;
	}
	v = cJSON_GetObjectItemCaseSensitive(b, "default");
	if (v != NULL && !cJSON_IsNull(v)) {
		if (!cJSON_IsBool(v))
			return (util_fail(cause, "default: must be a boolean"));
		e->set_default = cJSON_IsTrue(v);
	}
	return (0);
}

/* One UPDATE of the edit: ?1 account, ?2 video, ?3 track, ?4 label. */
static int
audio_update(struct req *req, const char *sql, const char *uid,
    const char *label)
{
	sqlite3_stmt	*st = store_stmt(req->store, sql);
	int		 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "identifier"), -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
	if (label != NULL)
		sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc);
}

/*
 * Apply an edit inside the caller's transaction: 0 done, 1 refused with
 * the reply made, -1 store failure. A video keeps exactly one default: a
 * track made the default takes it from the others, and the default cannot
 * be unset, only moved.
 */
static int
audio_edit_apply(struct req *req, struct reply *rep, const char *uid,
    const struct audio_edit *e, cJSON **out)
{
	static const char	 look_sql[] =
	    "SELECT label, is_default, ready,"
	    " (SELECT count(*) FROM stream_audio o WHERE o.account = ?1"
	    "  AND o.video = ?2 AND o.uid != ?3 AND o.label = ?4)"
	    " FROM stream_audio WHERE account = ?1 AND video = ?2 AND uid = ?3";
	static const char	 label_sql[] =
	    "UPDATE stream_audio SET label = ?4"
	    " WHERE account = ?1 AND video = ?2 AND uid = ?3";
	static const char	 default_sql[] =
	    "UPDATE stream_audio SET is_default = (uid = ?3)"
	    " WHERE account = ?1 AND video = ?2";
	const char		*video = req_param(req, "identifier");
	sqlite3_stmt		*st;
	char			*label = NULL;
	double			 ready = 0;
	int			 rc, is_default = 0, same = 0;

	st = store_stmt(req->store, look_sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
	if (e->label != NULL)
		sqlite3_bind_text(st, 4, e->label, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		label = xstrdup((const char *)sqlite3_column_text(st, 0));
		is_default = sqlite3_column_int(st, 1);
		ready = sqlite3_column_double(st, 2);
		same = sqlite3_column_int(st, 3);
	}
	store_done(st);
	if (rc == SQLITE_DONE) {
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no audio "
		    "track %s", video, uid);
		return (1);
	}
	if (rc != SQLITE_ROW)
		return (-1);
	rc = 1;
	if (same != 0)
		reply_error(rep, 409, ERR_CONFLICT, "label: video %s already "
		    "has an audio track labelled \"%s\"", video, e->label);
	else if (e->set_default == 0 && is_default)
		reply_error(rep, 409, ERR_CONFLICT, "audio track %s is the "
		    "default track of video %s: make another track the default "
		    "instead (a video has exactly one)", uid, video);
	else
		rc = 0;
	if (rc != 0) {
		free(label);
		return (rc);
	}
	rc = SQLITE_DONE;
	if (e->label != NULL)
		rc = audio_update(req, label_sql, uid, e->label);
	if (rc == SQLITE_DONE && e->set_default == 1)
		rc = audio_update(req, default_sql, uid, NULL);
	if (rc != SQLITE_DONE) {
		free(label);
		return (-1);
	}
	*out = audio_json(uid, e->label != NULL ? e->label : label,
	    e->set_default == 1 ? 1 : is_default, ready, video_now_seconds());
	free(label);
	return (0);
}

static void
audio_edit(struct req *req, struct reply *rep)
{
	struct audio_edit	 e;
	char			*cause = NULL;
	cJSON			*o = NULL;
	int			 rc;

	if (!video_path_exists(req, rep))
		return;
	if (audio_edit_body(req->json, &e, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	rc = audio_edit_apply(req, rep, req_param(req, "audio_identifier"),
	    &e, &o);
	if (rc > 0) {
		store_rollback(req->store);
		return;
	}
	if (rc < 0 || store_commit(req->store) != 0) {
		cJSON_Delete(o);
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, o);
}

/* ---- demo data and the area --------------------------------------------- */

/* Applied in order to the ready demo videos. */
static const char *const audio_demo_videos[][3] = {
	{ "Original mix", "Director commentary", "Audio description" },
	{ "English", "Español" },
};

/* A demo video's tracks (NULL after the last); the first is the default. */
static int
audio_demo_add(struct store *store, struct util_rng *rng, const char *account,
    const char *video, const char *const *audio, size_t n, double now)
{
	static const char	 audio_sql[] =
	    "INSERT INTO stream_audio (account, video, uid, label,"
	    " is_default, ready) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	char			 uid[HEX32_LEN + 1];
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc = SQLITE_DONE;

	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		if (audio[i] == NULL)
			break;
		util_rng_hex32(rng, uid);
		st = store_stmt(store, audio_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, audio[i], -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 5, i == 0);
		sqlite3_bind_double(st, 6, now);
		rc = sqlite3_step(st);
		store_done(st);
	}
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* Runs inside demo_seed's transaction; uids come from a fixed seed. */
static int
audio_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng	 rng;
	char		 uids[nitems(audio_demo_videos)][HEX32_LEN + 1];
	int		 i, n;

	(void)zone;
	util_rng_seed(&rng, 0x6d65646961646c31ULL);
	n = stream_demo_ready_uids(store, account, uids, (int)nitems(uids));
	for (i = 0; i < n; i++) {
		if (audio_demo_add(store, &rng, account, uids[i],
		    audio_demo_videos[i], nitems(audio_demo_videos[i]),
		    video_now_seconds()) != 0)
			break;
	}
	if (n < 0 || i < n) {
		*cause = xprintf("demo audio tracks: %s", store_errmsg(store));
		return (-1);
	}
	return (0);
}

static const struct route audio_routes[] = {
	{ HTTP_GET, AUDIO_VIDEO "/audio", audio_list, ROUTE_BODY_NONE },
	{ HTTP_POST, AUDIO_VIDEO "/audio/copy", audio_copy, ROUTE_BODY_JSON },
	{ HTTP_DELETE, AUDIO_VIDEO "/audio/{audio_identifier:hex32}",
	    audio_delete, ROUTE_BODY_NONE },
	{ HTTP_PATCH, AUDIO_VIDEO "/audio/{audio_identifier:hex32}",
	    audio_edit, ROUTE_BODY_JSON },
};

const struct area audio_area = {
	.name = "audio",
	.routes = audio_routes,
	.nroutes = nitems(audio_routes),
	.schema = audio_schema,
	.demo = audio_demo,
};
