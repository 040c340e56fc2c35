/*
 * Stream live inputs under /accounts/{account}/stream/live_inputs: the
 * settings checks, the input with its ingest and playback endpoints, its
 * storage and the demo inputs.
 *
 * An input is stored as the JSON the service answers with, secrets
 * included, since a get shows them again; the list strips them. Nothing
 * ever streams to edgemu, so status stays null.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "assets.h"
#include "buf.h"
#include "jsonutil.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "text.h"
#include "util.h"
#include "xmalloc.h"

#define LIVE_PATH		STREAM_ACCOUNT "/stream/live_inputs"
#define LIVE_RTMPS_URL		"rtmps://live.cloudflare.com:443/live/"
#define LIVE_SRT_URL		"srt://live.cloudflare.com:778"
#define LIVE_WEBRTC_HOST	"cloudflarestream.com"
#define LIVE_SECRET_LEN		(2 * HEX32_LEN + 1)

static const char live_schema[] =
	"CREATE TABLE IF NOT EXISTS live_input ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" account TEXT NOT NULL,"
	" uid TEXT NOT NULL,"
	" body TEXT NOT NULL,"
	" UNIQUE (account, uid));";

/* Statements on one input's row: ?1 account, ?2 uid, ?3 body. */
static const char live_insert_sql[] =
	"INSERT INTO live_input (account, uid, body) VALUES (?1, ?2, ?3)";
static const char live_replace_sql[] =
	"UPDATE live_input SET body = ?3 WHERE account = ?1 AND uid = ?2";
static const char live_get_sql[] =
	"SELECT body FROM live_input WHERE account = ?1 AND uid = ?2";
static const char live_delete_sql[] =
	"DELETE FROM live_input WHERE account = ?1 AND uid = ?2";

/* ---- checks ------------------------------------------------------------ */

/* A whole number from min to max, or from min up when max is below min. */
static int
live_integer(const cJSON *v, const char *path, double min, double max,
    char **cause)
{
	if (!cJSON_IsNumber(v))
		return (util_fail(cause, "%s: must be a whole number, not %s",
		    path, jsonutil_type_name(v)));
	if (!util_jis_integer(v))
		return (util_fail(cause, "%s: must be a whole number, not %g",
		    path, v->valuedouble));
	if (max < min && v->valuedouble < min)
		return (util_fail(cause, "%s: %.15g is less than the minimum "
		    "of %.15g", path, v->valuedouble, min));
	if (max >= min && (v->valuedouble < min || v->valuedouble > max))
		return (util_fail(cause, "%s: %.15g is out of range (%.15g to "
		    "%.15g)", path, v->valuedouble, min, max));
	return (0);
}

static int
live_check_origins(const cJSON *list, char **cause)
{
	const cJSON	*item;
	int		 i = 0;

	if (!cJSON_IsArray(list))
		return (util_fail(cause, "recording.allowedOrigins: must be an "
		    "array of origins, not %s", jsonutil_type_name(list)));
	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsString(item))
			return (util_fail(cause, "recording.allowedOrigins"
			    "[%d]: must be a string, not %s", i,
			    jsonutil_type_name(item)));
		if (*item->valuestring == '\0')
			return (util_fail(cause, "recording.allowedOrigins"
			    "[%d]: must not be empty", i));
		i++;
	}
	return (0);
}

static int
live_check_recording(const cJSON *r, char **cause)
{
	const cJSON	*v;

	if (!cJSON_IsObject(r))
		return (util_fail(cause, "recording: must be an object, not %s",
		    jsonutil_type_name(r)));
	v = cJSON_GetObjectItemCaseSensitive(r, "mode");
	if (v != NULL && !cJSON_IsNull(v)) {
		if (!cJSON_IsString(v))
			return (util_fail(cause, "recording.mode: must be off "
			    "or automatic, not %s", jsonutil_type_name(v)));
		if (!apirules_in(streamrules_recording_modes, v->valuestring))
			return (util_fail(cause, "recording.mode: '%.64s' is "
			    "not one of off, automatic", v->valuestring));
	}
	v = cJSON_GetObjectItemCaseSensitive(r, "requireSignedURLs");
	if (v != NULL && !cJSON_IsNull(v) && !cJSON_IsBool(v))
		return (util_fail(cause, "recording.requireSignedURLs: must be "
		    "a boolean, not %s", jsonutil_type_name(v)));
	v = cJSON_GetObjectItemCaseSensitive(r, "allowedOrigins");
	if (v != NULL && !cJSON_IsNull(v) && live_check_origins(v, cause) != 0)
		return (-1);
	v = cJSON_GetObjectItemCaseSensitive(r, "timeoutSeconds");
	if (v != NULL && !cJSON_IsNull(v) && live_integer(v,
	    "recording.timeoutSeconds", 0, (double)STREAMRULES_LIVE_TIMEOUT_MAX,
	    cause) != 0)
		return (-1);
	return (0);
}

/*
 * Check a create or update body. Every field is optional, null resets it,
 * and fields the service sets (uid, endpoints, dates, status) are ignored,
 * so a client may send back what it was given.
 */
int
live_validate(const cJSON *body, char **cause)
{
	const cJSON	*v;
	size_t		 n;

	if (!cJSON_IsObject(body))
		return (util_fail(cause, "the body must be a JSON object, not "
		    "%s", jsonutil_type_name(body)));
	v = cJSON_GetObjectItemCaseSensitive(body, "defaultCreator");
	if (v != NULL && !cJSON_IsNull(v)) {
		if (!cJSON_IsString(v))
			return (util_fail(cause, "defaultCreator: must be a "
			    "string, not %s", jsonutil_type_name(v)));
		if ((n = text_chars(v->valuestring)) > STREAMRULES_CREATOR_MAX)
			return (util_fail(cause, "defaultCreator: %zu "
			    "characters is over the limit of %d", n,
			    STREAMRULES_CREATOR_MAX));
	}
	v = cJSON_GetObjectItemCaseSensitive(body, "deleteRecordingAfterDays");
	if (v != NULL && !cJSON_IsNull(v) && live_integer(v,
	    "deleteRecordingAfterDays", STREAMRULES_LIVE_DELETE_DAYS_MIN, 0,
	    cause) != 0)
		return (-1);
	v = cJSON_GetObjectItemCaseSensitive(body, "meta");
	if (v != NULL && !cJSON_IsNull(v) && !cJSON_IsObject(v))
		return (util_fail(cause, "meta: must be an object, not %s",
		    jsonutil_type_name(v)));
	v = cJSON_GetObjectItemCaseSensitive(body, "recording");
	if (v != NULL && !cJSON_IsNull(v) && live_check_recording(v,
	    cause) != 0)
		return (-1);
	return (0);
}

/* ---- the input as the service returns it ------------------------------- */

static void
live_hex32(struct util_rng *rng, char out[HEX32_LEN + 1])
{
	if (rng != NULL)
		util_rng_hex32(rng, out);
	else
		util_hex32(out);
}

/* Keys and passphrases look like the service's: 32 hex, k, 32 hex. */
static void
live_secret(struct util_rng *rng, char out[LIVE_SECRET_LEN + 1])
{
	char	a[HEX32_LEN + 1], b[HEX32_LEN + 1];

	live_hex32(rng, a);
	live_hex32(rng, b);
	snprintf(out, LIVE_SECRET_LEN + 1, "%sk%s", a, b);
}

static cJSON *
live_endpoint(const char *url, const char *key, const char *value)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "url", url);
	if (key != NULL)
		cJSON_AddStringToObject(o, key, value);
	return (o);
}

static cJSON *
live_srt(struct util_rng *rng, const char *prefix)
{
	cJSON	*o = live_endpoint(LIVE_SRT_URL, NULL, NULL);
	char	 id[HEX32_LEN + 1], pass[LIVE_SECRET_LEN + 1], *sid;

	live_hex32(rng, id);
	live_secret(rng, pass);
	sid = xprintf("%s%s", prefix, id);
	cJSON_AddStringToObject(o, "streamId", sid);
	cJSON_AddStringToObject(o, "passphrase", pass);
	free(sid);
	return (o);
}

/*
 * WHIP and WHEP URLs sit on the account's customer subdomain; the service's
 * code is 16 letters and digits, here the account's first 16 hex digits.
 * Publishing needs a secret (the uid, k, 32 random hex); playing names the
 * input by its uid alone, as the service's public WHEP URLs do.
 */
static cJSON *
live_webrtc(const char *account, const char *path, const char *verb)
{
	char	*url;
	cJSON	*o;

	url = xprintf("https://customer-%.16s." LIVE_WEBRTC_HOST
	    "/%s/webRTC/%s", account, path, verb);
	o = live_endpoint(url, NULL, NULL);
	free(url);
	return (o);
}

static cJSON *
live_default_recording(void)
{
	cJSON	*r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "mode", "off");
	cJSON_AddBoolToObject(r, "requireSignedURLs", 0);
	cJSON_AddNullToObject(r, "allowedOrigins");
	cJSON_AddNumberToObject(r, "timeoutSeconds", 0);
	return (r);
}

cJSON *
live_build(const char *account, const char *uid, const char *created,
    struct util_rng *rng)
{
	cJSON	*o = cJSON_CreateObject();
	char	 key[LIVE_SECRET_LEN + 1], half[HEX32_LEN + 1];

	cJSON_AddStringToObject(o, "uid", uid);
	live_secret(rng, key);
	cJSON_AddItemToObject(o, "rtmps", live_endpoint(LIVE_RTMPS_URL,
	    "streamKey", key));
	live_secret(rng, key);
	cJSON_AddItemToObject(o, "rtmpsPlayback", live_endpoint(LIVE_RTMPS_URL,
	    "streamKey", key));
	cJSON_AddItemToObject(o, "srt", live_srt(rng, ""));
	cJSON_AddItemToObject(o, "srtPlayback", live_srt(rng, "play"));
	live_hex32(rng, half);
	snprintf(key, sizeof key, "%sk%s", uid, half);
	cJSON_AddItemToObject(o, "webRTC", live_webrtc(account, key,
	    "publish"));
	cJSON_AddItemToObject(o, "webRTCPlayback", live_webrtc(account, uid,
	    "play"));
	cJSON_AddStringToObject(o, "created", created);
	cJSON_AddStringToObject(o, "modified", created);
	cJSON_AddObjectToObject(o, "meta");
	cJSON_AddNullToObject(o, "status");
	cJSON_AddItemToObject(o, "recording", live_default_recording());
	cJSON_AddNullToObject(o, "deleteRecordingAfterDays");
	cJSON_AddStringToObject(o, "defaultCreator", "");
	return (o);
}

/* Replace a member in place, so the order of the members never changes. */
static void
live_set(cJSON *o, const char *key, cJSON *v)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
	else
		cJSON_AddItemToObject(o, key, v);
}

static void
live_apply_recording(cJSON *to, const cJSON *from)
{
	static const char *const keys[] = {
		"mode", "requireSignedURLs", "allowedOrigins", "timeoutSeconds"
	};
	cJSON		*defaults = live_default_recording();
	const cJSON	*v;
	size_t		 i;

	for (i = 0; i < nitems(keys); i++) {
		v = from == NULL ? NULL :
		    cJSON_GetObjectItemCaseSensitive(from, keys[i]);
		if (from != NULL && v == NULL)
			continue;
		if (v == NULL || cJSON_IsNull(v))
			v = cJSON_GetObjectItemCaseSensitive(defaults, keys[i]);
		live_set(to, keys[i], cJSON_Duplicate(v, 1));
	}
	cJSON_Delete(defaults);
}

/*
 * Fields left out keep their value (the spec: "omit the field to indicate
 * no change"), also inside recording; null puts a field back to its
 * default; meta, when given, replaces the whole object so keys can go.
 */
void
live_apply(cJSON *input, const cJSON *body)
{
	const cJSON	*v;

	if (body == NULL)
		return;
	v = cJSON_GetObjectItemCaseSensitive(body, "defaultCreator");
	if (v != NULL)
		live_set(input, "defaultCreator", cJSON_CreateString(
		    cJSON_IsString(v) ? v->valuestring : ""));
	v = cJSON_GetObjectItemCaseSensitive(body, "deleteRecordingAfterDays");
	if (v != NULL)
		live_set(input, "deleteRecordingAfterDays", cJSON_IsNull(v) ?
		    cJSON_CreateNull() : cJSON_CreateNumber(v->valuedouble));
	v = cJSON_GetObjectItemCaseSensitive(body, "meta");
	if (v != NULL)
		live_set(input, "meta", cJSON_IsNull(v) ?
		    cJSON_CreateObject() : cJSON_Duplicate(v, 1));
	v = cJSON_GetObjectItemCaseSensitive(body, "recording");
	if (v != NULL) {
		live_apply_recording(cJSON_GetObjectItemCaseSensitive(input,
		    "recording"), cJSON_IsNull(v) ? NULL : v);
	}
}

/* The spec's stream_live_input_object_without_url. */
cJSON *
live_summary(const cJSON *input)
{
	static const char *const keys[] = {
		"uid", "created", "modified", "meta", "deleteRecordingAfterDays"
	};
	cJSON		*o = cJSON_CreateObject();
	const cJSON	*v;
	size_t		 i;

	for (i = 0; i < nitems(keys); i++) {
		if ((v = cJSON_GetObjectItemCaseSensitive(input,
		    keys[i])) != NULL)
			cJSON_AddItemToObject(o, keys[i],
			    cJSON_Duplicate(v, 1));
	}
	return (o);
}

/* ---- storage ----------------------------------------------------------- */

static void
live_not_found(struct reply *rep, const char *uid)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "live input %s was not found",
	    uid);
}

/*
 * The stored input, or NULL with the reply saying why (404 or 500). Inside
 * a transaction, a failure rolls it back.
 */
static cJSON *
live_load(struct req *req, struct reply *rep, const char *uid)
{
	cJSON	*input;

	switch (store_doc_get(req->store, live_get_sql, req_param(req,
	    "account"), uid, &input)) {
	case 1:
		return (input);
	case 0:
		live_not_found(rep, uid);
		break;
	case -2:
		reply_error(rep, 500, ERR_INTERNAL, "store: live input %s is "
		    "not JSON", uid);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
	store_rollback(req->store);
	return (NULL);
}

/* ---- handlers ---------------------------------------------------------- */

/*
 * One call returns every input. total and range are always sent, as the
 * spec's schema has them; range (inputs left after this batch) is 0.
 */
static void
live_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT body FROM live_input WHERE account = ?1 ORDER BY seq";
	sqlite3_stmt		*st;
	cJSON			*result, *list, *input;
	char			*cause = NULL;
	int			 counts, rc;

	if (query_bool(&req->query, "include_counts", 0, &counts,
	    &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1,
	    SQLITE_STATIC);
	result = cJSON_CreateObject();
	list = cJSON_AddArrayToObject(result, "liveInputs");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		input = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
		if (input == NULL)
			break;
		cJSON_AddItemToArray(list, live_summary(input));
		cJSON_Delete(input);
	}
	if (rc == SQLITE_ROW)
		reply_error(rep, 500, ERR_INTERNAL, "store: a stored live "
		    "input is not JSON");
	else if (rc != SQLITE_DONE)
		reply_store_error(req, rep);
	store_done(st);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(result);
		return;
	}
	cJSON_AddNumberToObject(result, "range", 0);
	cJSON_AddNumberToObject(result, "total", cJSON_GetArraySize(list));
	reply_ok(rep, result);
}

static void
live_get(struct req *req, struct reply *rep)
{
	cJSON	*input;

	if ((input = live_load(req, rep, req_param(req, "uid"))) != NULL)
		reply_ok(rep, input);
}

/* No body at all means no settings; otherwise it must pass the checks. */
static int
live_body_ok(struct req *req, struct reply *rep)
{
	char	*cause = NULL;

	if (req->json == NULL)
		return (1);
	if (live_validate(req->json, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return (0);
	}
	return (1);
}

static void
live_create(struct req *req, struct reply *rep)
{
	const char	*account = req_param(req, "account");
	char		 uid[HEX32_LEN + 1], now[ISO_TIME_LEN];
	cJSON		*input;

	if (!live_body_ok(req, rep))
		return;
	util_hex32(uid);
	util_now_iso(now);
	input = live_build(account, uid, now, NULL);
	live_apply(input, req->json);
	if (store_begin(req->store) != 0 ||
	    store_doc_put(req->store, live_insert_sql, account, uid,
	    input) < 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(input);
		return;
	}
	reply_ok(rep, input);
}

/* Read, change and write in one transaction, so no update is lost. */
static void
live_update(struct req *req, struct reply *rep)
{
	char	 now[ISO_TIME_LEN];
	cJSON	*input;

	if (!live_body_ok(req, rep))
		return;
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	if ((input = live_load(req, rep, req_param(req, "uid"))) == NULL)
		return;
	live_apply(input, req->json);
	util_now_iso(now);
	live_set(input, "modified", cJSON_CreateString(now));
	if (store_doc_put(req->store, live_replace_sql, req_param(req,
	    "account"), req_param(req, "uid"), input) < 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(input);
		return;
	}
	reply_ok(rep, input);
}

/* The spec gives the answer no schema: an envelope with a null result. */
static void
live_delete(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");
	int		 found;

	if (store_begin(req->store) != 0 ||
	    (found = store_doc_delete(req->store, live_delete_sql,
	    req_param(req, "account"), uid)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		live_not_found(rep, uid);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, NULL);
}

/* ---- demo data --------------------------------------------------------- */

#define LIVE_DEMO_EPOCH	1772323200	/* 2026-03-01T00:00:00Z */
#define LIVE_DEMO_SPAN	(60 * 86400)

/* Both recording modes; one records behind signed URLs for a site. */
static const char *const live_demo_inputs[] = {
	"{\"meta\":{\"name\":\"Main stage\"},"
	"\"defaultCreator\":\"events-team\","
	"\"recording\":{\"mode\":\"automatic\",\"timeoutSeconds\":0}}",

	"{\"meta\":{\"name\":\"Members-only webinar\",\"series\":\"2026-q1\"},"
	"\"deleteRecordingAfterDays\":45,"
	"\"recording\":{\"mode\":\"automatic\",\"requireSignedURLs\":true,"
	"\"allowedOrigins\":[\"example.com\",\"*.example.com\"],"
	"\"timeoutSeconds\":60}}",

	"{\"meta\":{\"name\":\"Lobby camera (not recorded)\"},"
	"\"recording\":{\"mode\":\"off\"}}",
};

/* Runs inside demo_seed's transaction; ids, secrets, times from a seed. */
static int
live_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng	 rng;
	struct timespec	 ts;
	char		 uid[HEX32_LEN + 1], created[ISO_TIME_LEN], *why = NULL;
	cJSON		*body, *input;
	size_t		 i;
	int		 rc;

	(void)zone;
	util_rng_seed(&rng, 0x6c697665696e7075ULL);
	for (i = 0; i < nitems(live_demo_inputs); i++) {
		body = cJSON_Parse(live_demo_inputs[i]);
		if (body == NULL)
			fatalx("demo live input %zu is not JSON", i);
		if (live_validate(body, &why) != 0)
			fatalx("demo live input %zu: %s", i, why);
		util_rng_hex32(&rng, uid);
		ts.tv_sec = LIVE_DEMO_EPOCH + (time_t)(i * LIVE_DEMO_SPAN / 3) +
		    util_rng_below(&rng, 86400);
		ts.tv_nsec = (long)util_rng_below(&rng, 1000000) * 1000;
		util_time_iso(&ts, created);
		input = live_build(account, uid, created, &rng);
		live_apply(input, body);
		rc = store_doc_put(store, live_insert_sql, account, uid, input);
		cJSON_Delete(input);
		cJSON_Delete(body);
		if (rc < 0) {
			*cause = xprintf("demo live inputs: %s",
			    store_errmsg(store));
			return (-1);
		}
	}
	return (0);
}

#define LIVE_ITEM	LIVE_PATH "/{uid:hex32}"

static const struct route live_routes[] = {
	{ HTTP_GET, LIVE_PATH, live_list, ROUTE_BODY_NONE },
	{ HTTP_POST, LIVE_PATH, live_create, ROUTE_BODY_JSON },
	{ HTTP_GET, LIVE_ITEM, live_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, LIVE_ITEM, live_update, ROUTE_BODY_JSON },
	/* The spec gives DELETE a body; whatever comes is read and ignored. */
	{ HTTP_DELETE, LIVE_ITEM, live_delete, ROUTE_BODY_NONE },
};

const struct area live_area = {
	.name = "live",
	.routes = live_routes,
	.nroutes = nitems(live_routes),
	.schema = live_schema,
	.demo = live_demo,
};
