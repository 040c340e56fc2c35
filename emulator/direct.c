/*
 * Direct creator uploads, as Cloudflare Stream serves them: POST
 * /stream/direct_upload makes a video waiting for its bytes and a one-time
 * URL; one multipart POST of the file to that URL (/upload/<uid>?token=...)
 * brings them. Not tus: tus to a one-time URL is tus.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <microhttpd.h>

#include "apirules.h"
#include "direct.h"
#include "log.h"
#include "processing.h"
#include "server.h"
#include "store.h"
#include "streamrules.h"
#include "text.h"
#include "tus.h"
#include "util.h"
#include "video.h"
#include "xmalloc.h"

/* ---- creation ------------------------------------------------------------ */

/* maxDurationSeconds (required) and expiry: the limits of the upload. */
static int
direct_limits(const cJSON *b, int64_t now, struct stream_new *nv,
    char **cause)
{
	const cJSON	*v;

	v = cJSON_GetObjectItemCaseSensitive(b, "maxDurationSeconds");
	if (v == NULL || cJSON_IsNull(v)) {
		*cause = xprintf("maxDurationSeconds: required, 1 to %d",
		    STREAMRULES_DURATION_MAX);
		return (-1);
	}
	if (stream_check_max_duration(v, &nv->max_duration, cause) != 0)
		return (-1);
	nv->expiry = now + (int64_t)TUS_EXPIRY_DIRECT * 1000000;
	v = cJSON_GetObjectItemCaseSensitive(b, "expiry");
	if (v == NULL || cJSON_IsNull(v))
		return (0);
	if (stream_check_date(v, "expiry", &nv->expiry, cause) != 0)
		return (-1);
	if (!streamrules_expiry_ok(nv->expiry, now)) {
		*cause = xstrdup("expiry: must be between 2 minutes and 6 "
		    "hours from now");
		return (-1);
	}
	return (0);
}

static int
direct_creator(const cJSON *b, struct req *req, struct stream_new *nv,
    char **cause)
{
	const cJSON	*v;

	nv->creator = req_header(req, "Upload-Creator");
	v = cJSON_GetObjectItemCaseSensitive(b, "creator");
	if (v != NULL && !cJSON_IsNull(v)) {
		if (stream_check_creator(v, cause) != 0)
			return (-1);
		nv->creator = v->valuestring;
	}
	if (nv->creator != NULL && (!util_utf8_valid(nv->creator,
	    strlen(nv->creator)) || text_chars(nv->creator) >
	    STREAMRULES_CREATOR_MAX)) {
		*cause = xprintf("Upload-Creator: at most %d characters of "
		    "UTF-8", STREAMRULES_CREATOR_MAX);
		return (-1);
	}
	return (0);
}

static const cJSON *
direct_member(const cJSON *b, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(b, key);

	return (cJSON_IsNull(v) ? NULL : v);
}

/* The body of POST /stream/direct_upload, into a new video's fields. */
static int
direct_body(const cJSON *b, struct req *req, int64_t now,
    struct stream_new *nv, int64_t *deletion, char **cause)
{
	const cJSON	*v;

	if (!cJSON_IsObject(b)) {
		*cause = xstrdup("a JSON object with maxDurationSeconds is "
		    "required");
		return (-1);
	}
	if (direct_limits(b, now, nv, cause) != 0 ||
	    direct_creator(b, req, nv, cause) != 0)
		return (-1);
	if ((v = direct_member(b, "allowedOrigins")) != NULL) {
		if (stream_check_origins(v, cause) != 0)
			return (-1);
		nv->allowed_origins = v;
	}
	if ((v = direct_member(b, "meta")) != NULL && !cJSON_IsObject(v)) {
		*cause = xstrdup("meta: must be an object");
		return (-1);
	}
	nv->meta = v;
	if ((v = direct_member(b, "requireSignedURLs")) != NULL) {
		if (!cJSON_IsBool(v)) {
			*cause = xstrdup("requireSignedURLs: must be a "
			    "boolean");
			return (-1);
		}
		nv->require_signed = cJSON_IsTrue(v);
	}
	if ((v = direct_member(b, "scheduledDeletion")) != NULL &&
	    (stream_check_date(v, "scheduledDeletion", deletion, cause) != 0 ||
	    stream_check_deletion(*deletion, now, cause) != 0))
		return (-1);
	if ((v = direct_member(b, "thumbnailTimestampPct")) != NULL &&
	    stream_check_thumb(v, &nv->thumb_pct, cause) != 0)
		return (-1);
	if ((v = direct_member(b, "watermark")) != NULL) {
		v = cJSON_GetObjectItemCaseSensitive(v, "uid");
		if (!cJSON_IsString(v) || !apirules_hex32_ok(v->valuestring)) {
			*cause = xstrdup("watermark: must be an object whose "
			    "uid is a watermark profile's (32 hex digits)");
			return (-1);
		}
		nv->watermark_uid = v->valuestring;
	}
	return (0);
}

static void
direct_create(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	struct stream_new	 nv;
	char			 uid[HEX32_LEN + 1], token[HEX32_LEN + 1];
	char			 iso[ISO_TIME_LEN], *cause = NULL, *root, *url;
	int64_t			 now = stream_now(), deletion = 0;
	cJSON			*o;

	memset(&nv, 0, sizeof nv);
	nv.max_duration = -1;
	if (direct_body(req->json, req, now, &nv, &deletion,
	    &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	if (deletion != 0) {
		stream_time_iso(deletion, iso);
		nv.scheduled_deletion = iso;
	}
	nv.kind = STREAM_UPLOAD_DIRECT;
	nv.length = -1;
	util_hex32(token);
	nv.token = token;
	if (stream_video_create(req->store, account, &nv, uid, &cause) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		free(cause);
		return;
	}
	root = tus_root_url(req);
	url = xprintf("%s/upload/%s?token=%s", root, uid, token);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uploadURL", url);
	cJSON_AddStringToObject(o, "uid", uid);
	if (nv.watermark_uid != NULL)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "watermark"),
		    "uid", nv.watermark_uid);
	else
		cJSON_AddNullToObject(o, "watermark");
	if (nv.scheduled_deletion != NULL)
		cJSON_AddStringToObject(o, "scheduledDeletion",
		    nv.scheduled_deletion);
	else
		cJSON_AddNullToObject(o, "scheduledDeletion");
	reply_ok(rep, o);
	free(url);
	free(root);
}

/* ---- the POST of the file ------------------------------------------------ */

/* One multipart POST: the file part streams to disk through MHD's parser. */
struct direct_post {
	struct stream_upload	  up;
	int			  fd;
	struct MHD_PostProcessor *pp;
	int64_t			  received;
	int			  parts;	/* a file part was seen */
	int			  last_end;	/* it has bytes so far */
	int			  too_big;
	int			  twice;
	int			  failed;
};

static enum MHD_Result
direct_post_part(void *arg, enum MHD_ValueKind kind, const char *key,
    const char *filename, const char *content_type,
    const char *transfer_encoding, const char *data, uint64_t off,
    size_t size)
{
	struct direct_post	*tp = arg;
	size_t		 done;

	(void)kind;
	(void)filename;
	(void)content_type;
	(void)transfer_encoding;
	if (key == NULL || strcmp(key, "file") != 0)
		return (MHD_YES);
	/* MHD may announce a part with an empty piece at offset 0 first. */
	if (off == 0 && tp->last_end) {
		tp->twice = 1;
		return (MHD_NO);
	}
	tp->parts = 1;
	tp->last_end = off + size > 0;
	if (tp->received + (int64_t)size > (int64_t)DIRECT_UPLOAD_MAX) {
		tp->too_big = 1;
		return (MHD_NO);
	}
	if (tus_write_all(tp->fd, data, size, &done) != 0) {
		tp->failed = errno;
		return (MHD_NO);
	}
	tp->received += (int64_t)size;
	return (MHD_YES);
}

static void
direct_post_free(struct req *req, struct direct_post *tp, int locked)
{
	if (tp->pp != NULL)
		MHD_destroy_post_processor(tp->pp);
	if (tp->fd != -1)
		close(tp->fd);
	if (locked)
		tus_unlock(tp->up.uid);
	stream_upload_free(&tp->up);
	free(tp);
	req->state = NULL;
}

static int
direct_post_begin(struct req *req, struct reply *rep)
{
	struct direct_post	*tp;
	const char	*ct, *cl;
	uint64_t	 len;
	char		*path;
	int		 locked = 0;

	tp = xcalloc(1, sizeof *tp);
	tp->fd = -1;
	req->state = tp;
	if (tus_find(req, rep, TUS_KIND(STREAM_UPLOAD_DIRECT), &tp->up) != 0)
		goto fail;
	if (!tp->up.pending) {
		reply_error(rep, 409, ERR_CONFLICT, "this upload URL has "
		    "already been used: video %s has its bytes", tp->up.uid);
		goto fail;
	}
	if (tus_expired(&tp->up, rep))
		goto fail;
	ct = req_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (ct == NULL || strncasecmp(ct, "multipart/form-data", 19) != 0) {
		reply_error(rep, 415, ERR_MEDIA_TYPE, "expected Content-Type: "
		    "multipart/form-data with a part named file");
		goto fail;
	}
	cl = req_header(req, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl != NULL && tus_parse_size(cl, &len) == 0 &&
	    len > DIRECT_UPLOAD_MAX + 1024 * 1024) {
		reply_error(rep, 413, ERR_TOO_LARGE, "a basic upload is at "
		    "most %llu bytes (200 MiB); use tus for larger videos",
		    DIRECT_UPLOAD_MAX);
		goto fail;
	}
	if (tus_lock(tp->up.uid) != 0) {
		reply_error(rep, 409, ERR_CONFLICT, "an upload to this URL is "
		    "already in progress");
		goto fail;
	}
	locked = 1;
	path = stream_video_file(req->store, tp->up.account, tp->up.uid);
	tp->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (tp->fd == -1) {
		reply_error(rep, 500, ERR_INTERNAL, "%s: %s", path,
		    strerror(errno));
		free(path);
		goto fail;
	}
	free(path);
	if ((tp->pp = MHD_create_post_processor(req->conn, 64 * 1024,
	    direct_post_part, tp)) == NULL) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "the multipart body has "
		    "no usable boundary");
		goto fail;
	}
	return (0);
fail:
	direct_post_free(req, tp, locked);
	return (-1);
}

static void
direct_post_refusal(struct direct_post *tp, struct reply *rep)
{
	if (tp->too_big)
		reply_error(rep, 413, ERR_TOO_LARGE, "the file is over %llu "
		    "bytes (200 MiB); use tus for larger videos",
		    DIRECT_UPLOAD_MAX);
	else if (tp->twice)
		reply_error(rep, 400, ERR_BAD_REQUEST, "one file part only");
	else if (tp->failed != 0)
		reply_error(rep, 500, ERR_INTERNAL, "writing upload %s: %s",
		    tp->up.uid, strerror(tp->failed));
	else
		reply_error(rep, 400, ERR_BAD_REQUEST,
		    "the multipart body is malformed");
}

static int
direct_post_data(struct req *req, const char *data, size_t size,
    struct reply *rep)
{
	struct direct_post	*tp = req->state;

	if (MHD_post_process(tp->pp, data, size) == MHD_YES)
		return (0);
	direct_post_refusal(tp, rep);
	return (-1);
}

/*
 * Only a whole body counts: one cut short leaves the URL unused and the
 * file empty, so the same URL can be tried again.
 */
static void
direct_post_end(struct req *req, struct reply *rep, int complete)
{
	struct direct_post	*tp = req->state;
	int		 ok;

	if (tp == NULL)
		return;
	ok = MHD_destroy_post_processor(tp->pp) == MHD_YES;
	tp->pp = NULL;
	if (!complete)
		goto discard;
	if (!ok) {
		direct_post_refusal(tp, rep);
		goto discard;
	}
	if (tp->parts == 0) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "the body has no part "
		    "named file");
		goto discard;
	}
	if (fsync(tp->fd) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "syncing upload %s: %s",
		    tp->up.uid, strerror(errno));
		goto discard;
	}
	if (tus_record(req, rep, &tp->up, tp->received, 1) != 0)
		goto discard;
	reply_ok(rep, NULL);
	direct_post_free(req, tp, 1);
	return;
discard:
	if (ftruncate(tp->fd, 0) != 0)
		log_warn("upload %s: %s", tp->up.uid, strerror(errno));
	direct_post_free(req, tp, 1);
}

/* ---- the area ------------------------------------------------------------ */

static const struct route direct_routes[] = {
	{ HTTP_POST, STREAM_ACCOUNT "/stream/direct_upload", direct_create,
	    ROUTE_BODY_JSON },
	{ HTTP_POST, "/upload/{uid:hex32}", NULL, ROUTE_BODY_STREAM,
	    ROUTE_ROOT | ROUTE_NOAUTH, direct_post_begin, direct_post_data,
	    direct_post_end },
};

const struct area direct_area = {
	.name = "direct",
	.routes = direct_routes,
	.nroutes = nitems(direct_routes),
};
