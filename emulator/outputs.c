/*
 * The outputs of a Stream live input (simulcast), under
 * /accounts/{account}/stream/live_inputs/{input}/outputs: listed, created
 * (an RTMP(S) or SRT url and its stream key), enabled or disabled (the one
 * field that changes) and deleted; at most OUTPUTS_MAX per input. Deleting
 * the input deletes its outputs. Nothing streams to edgemu, so nothing is
 * ever sent to an output.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "store.h"
#include "streamrules.h"
#include "util.h"
#include "xmalloc.h"

#define OUTPUTS_PATH	"/accounts/{account:hex32}/stream/live_inputs" \
			"/{input:hex32}/outputs"
#define OUTPUTS_MAX	50

static const char outputs_schema[] =
	"CREATE TABLE IF NOT EXISTS live_output ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" account TEXT NOT NULL,"
	" input TEXT NOT NULL,"
	" uid TEXT NOT NULL,"
	" url TEXT NOT NULL,"
	" stream_key TEXT NOT NULL,"
	" enabled INTEGER NOT NULL,"
	" UNIQUE (account, input, uid));"
	"CREATE TRIGGER IF NOT EXISTS live_input_outputs_gone"
	" AFTER DELETE ON live_input BEGIN"
	" DELETE FROM live_output"
	"  WHERE account = old.account AND input = old.uid;"
	" END;";

static cJSON *
outputs_row(sqlite3_stmt *st)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "uid",
	    (const char *)sqlite3_column_text(st, 0));
	cJSON_AddStringToObject(o, "url",
	    (const char *)sqlite3_column_text(st, 1));
	cJSON_AddStringToObject(o, "streamKey",
	    (const char *)sqlite3_column_text(st, 2));
	cJSON_AddBoolToObject(o, "enabled", sqlite3_column_int(st, 3));
	return (o);
}

/* 1 when the live input exists, 0 (with the 404) when not, -1. */
static int
outputs_input(struct req *req, struct reply *rep)
{
	static const char	 sql[] = "SELECT 1 FROM live_input"
	    " WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc == SQLITE_DONE)
		reply_error(rep, 404, ERR_NOT_FOUND, "live input %s was not "
		    "found", req_param(req, "input"));
	else if (rc != SQLITE_ROW) {
		reply_store_error(req, rep);
		return (-1);
	}
	return (rc == SQLITE_ROW);
}

static void
outputs_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] = "SELECT uid, url, stream_key, enabled"
	    " FROM live_output WHERE account = ?1 AND input = ?2 ORDER BY seq";
	sqlite3_stmt		*st;
	cJSON			*list;
	int			 rc;

	if (outputs_input(req, rep) != 1)
		return;
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	list = cJSON_CreateArray();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cJSON_AddItemToArray(list, outputs_row(st));
	store_done(st);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(list);
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, list);
}

/* rtmp://host/..., rtmps://host/... or srt://host:port..., no spaces. */
static int
outputs_check_url(const char *url, char **cause)
{
	const char	*host, *c;
	size_t		 n;

	if ((n = streamrules_output_scheme(url)) == 0)
		return (util_fail(cause, "url: '%.64s' must start with "
		    "rtmp://, rtmps:// or srt://", url));
	host = url + n;
	if (*host == '\0' || *host == '/' || *host == ':')
		return (util_fail(cause, "url: '%.64s' has no host", url));
	for (c = url; *c != '\0'; c++) {
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return (util_fail(cause, "url: must not hold spaces "
			    "or control characters"));
	}
	if (strlen(url) > STREAMRULES_OUTPUT_URL_MAX)
		return (util_fail(cause, "url: over the limit of %d "
		    "characters", STREAMRULES_OUTPUT_URL_MAX));
	return (0);
}

static int
outputs_parse(const cJSON *b, const char **url, const char **key,
    int *enabled, char **cause)
{
	if (!cJSON_IsObject(b))
		return (util_fail(cause, "the body must be a JSON object with "
		    "url and streamKey"));
	switch (util_jstring(b, "url", url)) {
	case UTIL_JABSENT:
		return (util_fail(cause, "url: required, where to send the "
		    "stream, such as rtmp://a.rtmp.youtube.com/live2"));
	case UTIL_JWRONG:
		return (util_fail(cause, "url: must be a string"));
	case UTIL_JOK:
		break;
	}
	switch (util_jstring(b, "streamKey", key)) {
	case UTIL_JABSENT:
		return (util_fail(cause, "streamKey: required, the key the "
		    "destination gave"));
	case UTIL_JWRONG:
		return (util_fail(cause, "streamKey: must be a string"));
	case UTIL_JOK:
		break;
	}
	if (**key == '\0')
		return (util_fail(cause, "streamKey: must not be empty"));
	if (strlen(*key) > STREAMRULES_OUTPUT_KEY_MAX)
		return (util_fail(cause, "streamKey: over the limit of %d "
		    "characters", STREAMRULES_OUTPUT_KEY_MAX));
	*enabled = 1;
	if (util_jbool(b, "enabled", enabled) == UTIL_JWRONG)
		return (util_fail(cause, "enabled: must be true or false"));
	return (outputs_check_url(*url, cause));
}

static void
outputs_create(struct req *req, struct reply *rep)
{
	static const char	 count_sql[] = "SELECT count(*) FROM live_output"
	    " WHERE account = ?1 AND input = ?2";
	static const char	 insert_sql[] = "INSERT INTO live_output"
	    " (account, input, uid, url, stream_key, enabled)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt		*st;
	const char		*url, *key;
	char			*cause = NULL, uid[HEX32_LEN + 1];
	cJSON			*o;
	int			 enabled, n = 0, rc;

	if (outputs_parse(req->json, &url, &key, &enabled, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	if (outputs_input(req, rep) != 1)
		return;
	st = store_stmt(req->store, count_sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	store_done(st);
	if (n >= OUTPUTS_MAX) {
		reply_error(rep, 400, ERR_VALIDATION, "live input %s has %d "
		    "outputs, the most it may have: delete one first",
		    req_param(req, "input"), OUTPUTS_MAX);
		return;
	}
	util_hex32(uid);
	st = store_stmt(req->store, insert_sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, key, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, enabled);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "uid", uid);
	cJSON_AddStringToObject(o, "url", url);
	cJSON_AddStringToObject(o, "streamKey", key);
	cJSON_AddBoolToObject(o, "enabled", enabled);
	reply_ok(rep, o);
}

/* The output's row, or the 404 (NULL). */
static cJSON *
outputs_get(struct req *req, struct reply *rep)
{
	static const char	 sql[] = "SELECT uid, url, stream_key, enabled"
	    " FROM live_output WHERE account = ?1 AND input = ?2 AND uid = ?3";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	cJSON			*o = NULL;
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, req_param(req, "output"), -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		o = outputs_row(st);
	store_done(st);
	if (rc == SQLITE_DONE)
		reply_error(rep, 404, ERR_NOT_FOUND, "output %s of live input "
		    "%s was not found", req_param(req, "output"),
		    req_param(req, "input"));
	else if (rc != SQLITE_ROW)
		reply_store_error(req, rep);
	return (o);
}

/* PUT: enabled, the one field an output changes. */
static void
outputs_update(struct req *req, struct reply *rep)
{
	static const char	 sql[] = "UPDATE live_output SET enabled = ?4"
	    " WHERE account = ?1 AND input = ?2 AND uid = ?3";
	const cJSON		*m;
	sqlite3_stmt		*st;
	cJSON			*o;
	int			 enabled, rc;

	if (!cJSON_IsObject(req->json) ||
	    util_jbool(req->json, "enabled", &enabled) != UTIL_JOK) {
		reply_error(rep, 400, ERR_VALIDATION, "enabled: required, true "
		    "or false (the only field an output changes)");
		return;
	}
	cJSON_ArrayForEach(m, req->json) {
		if (strcmp(m->string, "enabled") != 0 &&
		    strcmp(m->string, "uid") != 0) {
			reply_error(rep, 400, ERR_VALIDATION, "%.64s: an "
			    "output's url and streamKey cannot change; delete "
			    "it and create another", m->string);
			return;
		}
	}
	if (outputs_input(req, rep) != 1 || (o = outputs_get(req, rep)) == NULL)
		return;
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, req_param(req, "output"), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, enabled);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(o);
		reply_store_error(req, rep);
		return;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(o, "enabled",
	    cJSON_CreateBool(enabled));
	reply_ok(rep, o);
}

static void
outputs_delete(struct req *req, struct reply *rep)
{
	static const char	 sql[] = "DELETE FROM live_output"
	    " WHERE account = ?1 AND input = ?2 AND uid = ?3";
	sqlite3_stmt		*st;
	cJSON			*o;
	int			 rc;

	if (outputs_input(req, rep) != 1 || (o = outputs_get(req, rep)) == NULL)
		return;
	cJSON_Delete(o);
	st = store_stmt(req->store, sql);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req_param(req, "input"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, req_param(req, "output"), -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, NULL);
}

static const struct route outputs_routes[] = {
	{ HTTP_GET, OUTPUTS_PATH, outputs_list, ROUTE_BODY_NONE },
	{ HTTP_POST, OUTPUTS_PATH, outputs_create, ROUTE_BODY_JSON,
	    ROUTE_WRITE },
	{ HTTP_PUT, OUTPUTS_PATH "/{output:hex32}", outputs_update,
	    ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_DELETE, OUTPUTS_PATH "/{output:hex32}", outputs_delete,
	    ROUTE_BODY_NONE, ROUTE_WRITE },
};

const struct area outputs_area = {
	.name = "live-outputs",
	.routes = outputs_routes,
	.nroutes = nitems(outputs_routes),
	.schema = outputs_schema,
};
