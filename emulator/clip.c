/*
 * Clips (POST /stream/clip): a new video cut from a ready one between two
 * times. Nothing is transcoded: the clip keeps the source's bytes (a hard
 * link, or a copy where links fail), goes through the processing clock as
 * an upload does, and shows the cut's duration and clippedFrom (the table
 * stream_clip is video.c's, beside the videos it describes).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apirules.h"
#include "jsonutil.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "util.h"
#include "xmalloc.h"

struct clip_cut {
	const char	*source;
	double		 start;
	double		 end;
};

static int
clip_time(const cJSON *b, const char *key, double *out, char **cause)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(b, key);

	if (v == NULL || cJSON_IsNull(v))
		return (util_fail(cause, "%s: required, in seconds", key));
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble < 0)
		return (util_fail(cause, "%s: must be a number of seconds, 0 "
		    "or more", key));
	*out = v->valuedouble;
	return (0);
}

static int
clip_parse(const cJSON *b, struct clip_cut *cut, char **cause)
{
	const cJSON	*v;

	v = cJSON_GetObjectItemCaseSensitive(b, "clippedFromVideoUID");
	if (!cJSON_IsString(v) || !apirules_hex32_ok(v->valuestring))
		return (util_fail(cause, "clippedFromVideoUID: required, the "
		    "uid of a ready video (32 hex digits)"));
	cut->source = v->valuestring;
	if (clip_time(b, "startTimeSeconds", &cut->start, cause) != 0 ||
	    clip_time(b, "endTimeSeconds", &cut->end, cause) != 0)
		return (-1);
	if (cut->start >= cut->end)
		return (util_fail(cause, "startTimeSeconds (%g) must be before "
		    "endTimeSeconds (%g)", cut->start, cut->end));
	return (0);
}

/*
 * The source must be ready and the cut inside it: 0, or -1 with the reply
 * made.
 */
static int
clip_check_source(struct req *req, struct reply *rep,
    const struct clip_cut *cut)
{
	const char	*state = "unknown";
	cJSON		*src;
	double		 duration;
	int		 rc = -1;

	switch (video_lookup(req->store, req_param(req, "account"),
	    cut->source, &src)) {
	case 1:
		break;
	case 0:
		reply_error(rep, 404, ERR_NOT_FOUND, "clippedFromVideoUID: "
		    "video %s was not found", cut->source);
		return (-1);
	default:
		reply_store_error(req, rep);
		return (-1);
	}
	util_jstring(cJSON_GetObjectItemCaseSensitive(src, "status"), "state",
	    &state);
	duration = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(src,
	    "duration"));
	if (strcmp(state, "ready") != 0)
		reply_error(rep, 409, ERR_CONFLICT, "video %s is %s: only a "
		    "ready video can be clipped", cut->source, state);
	else if (cut->end > duration)
		reply_error(rep, 400, ERR_VALIDATION, "endTimeSeconds (%g) is "
		    "past the end of video %s (%.3f s)", cut->end, cut->source,
		    duration);
	else
		rc = 0;
	cJSON_Delete(src);
	return (rc);
}

/* The clip's file: the source's bytes, linked or copied over the empty one. */
static int
clip_bytes(struct store *store, const char *account, const char *source,
    const char *uid, int64_t *size, char **cause)
{
	char	*from, *to, buf[65536];
	ssize_t	 n;
	int	 in = -1, out = -1, rc = -1;

	from = stream_video_file(store, account, source);
	to = stream_video_file(store, account, uid);
	*size = 0;
	if (unlink(to) != 0 && errno != ENOENT) {
		*cause = xprintf("%s: %s", to, strerror(errno));
		goto out;
	}
	if (link(from, to) != 0) {
		if ((in = open(from, O_RDONLY | O_CLOEXEC)) == -1 ||
		    (out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0600)) == -1) {
			*cause = xprintf("copying %s: %s", from,
			    strerror(errno));
			goto out;
		}
		while ((n = read(in, buf, sizeof buf)) > 0 ||
		    (n == -1 && errno == EINTR)) {
			if (n > 0 && write(out, buf, (size_t)n) != n) {
				n = -1;
				break;
			}
		}
		if (n != 0 || fsync(out) != 0) {
			*cause = xprintf("copying %s: %s", from,
			    strerror(errno));
			goto out;
		}
	}
	if ((in == -1 && (in = open(to, O_RDONLY | O_CLOEXEC)) == -1) ||
	    (*size = lseek(in, 0, SEEK_END)) < 0) {
		*cause = xprintf("%s: %s", to, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	free(from);
	free(to);
	return (rc);
}

/* After processing has taken the bytes: the cut's duration, the source. */
static int
clip_record(struct store *store, const char *account, const char *uid,
    const struct clip_cut *cut)
{
	static const char	 dur_sql[] =
	    "UPDATE stream_video SET duration = ?3"
	    " WHERE account = ?1 AND uid = ?2";
	static const char	 clip_sql[] =
	    "INSERT INTO stream_clip (account, uid, clipped_from, start_time,"
	    " end_time) VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt		*st;
	int			 rc;

	if (store_begin(store) != 0)
		return (-1);
	st = store_stmt(store, dur_sql);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 3, cut->end - cut->start);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc == SQLITE_DONE) {
		st = store_stmt(store, clip_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, cut->source, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 4, cut->start);
		sqlite3_bind_double(st, 5, cut->end);
		rc = sqlite3_step(st);
		store_done(st);
	}
	if (rc != SQLITE_DONE || store_commit(store) != 0) {
		store_rollback(store);
		return (-1);
	}
	return (0);
}

static void
clip_create(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	struct stream_new	 nv;
	struct clip_cut		 cut;
	cJSON			*meta = NULL, *v;
	char			 uid[HEX32_LEN + 1], iso[ISO_TIME_LEN];
	char			*cause = NULL;
	int64_t			 now = stream_now(), deletion, size;

	memset(&nv, 0, sizeof nv);
	nv.max_duration = -1;
	nv.length = -1;
	nv.kind = STREAM_UPLOAD_NONE;
	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "a JSON object with "
		    "clippedFromVideoUID, startTimeSeconds and endTimeSeconds "
		    "is required");
		return;
	}
	if (clip_parse(req->json, &cut, &cause) != 0 ||
	    video_new_fields(req->json, req, now, &nv, &meta, &deletion,
	    &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		goto out;
	}
	if (clip_check_source(req, rep, &cut) != 0)
		goto out;
	if (deletion != 0) {
		stream_time_iso(deletion, iso);
		nv.scheduled_deletion = iso;
	}
	if (stream_video_create(req->store, account, &nv, uid, &cause) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		goto out;
	}
	if (clip_bytes(req->store, account, cut.source, uid, &size,
	    &cause) != 0 || stream_upload_record(req->store, account, uid,
	    size, 1, &cause) != 0) {
		log_warn("clip %s: %s", uid, cause);
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		stream_video_remove(req->store, account, uid);
		goto out;
	}
	if (clip_record(req->store, account, uid, &cut) != 0 ||
	    video_lookup(req->store, account, uid, &v) != 1) {
		reply_store_error(req, rep);
		goto out;
	}
	reply_ok(rep, v);
out:
	free(cause);
	cJSON_Delete(meta);
}

static const struct route clip_routes[] = {
	{ HTTP_POST, STREAM_ACCOUNT "/stream/clip", clip_create,
	    ROUTE_BODY_JSON },
};

const struct area clip_area = {
	.name = "clip",
	.routes = clip_routes,
	.nroutes = nitems(clip_routes),
};
