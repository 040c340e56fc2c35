/*
 * API Shield's user schemas: uploaded OpenAPI documents and the operations
 * each describes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "multipart.h"
#include "apirules.h"
#include "internal.h"
#include "text.h"

#define SHIELD_US_COLS							\
	"id, name, kind, source, created_at, validation_enabled"
/* The same columns without the source, which may be megabytes. */
#define SHIELD_US_COLS_NOSOURCE						\
	"id, name, kind, NULL, created_at, validation_enabled"

/* The operation columns of o, for joins of schema operations with it. */
#define SHIELD_OP_COLS_O						\
	"o.id, o.method, o.host, o.endpoint, o.last_updated,"		\
	" o.th_period_seconds, o.th_suggested_threshold, o.th_p50,"	\
	" o.th_p90, o.th_p99, o.th_requests, o.th_auth_id_tokens,"	\
	" o.th_data_points, o.th_last_updated, o.params,"		\
	" o.params_updated, o.mitigation"

static cJSON *
shield_us_json(sqlite3_stmt *st, int omit_source)
{
	cJSON	*s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "schema_id", shield_col_text(st, 0));
	cJSON_AddStringToObject(s, "name", shield_col_text(st, 1));
	cJSON_AddStringToObject(s, "kind", shield_col_text(st, 2));
	if (!omit_source)
		cJSON_AddStringToObject(s, "source", shield_col_text(st, 3));
	cJSON_AddStringToObject(s, "created_at", shield_col_text(st, 4));
	cJSON_AddBoolToObject(s, "validation_enabled",
	    sqlite3_column_int(st, 5));
	return (s);
}

static cJSON *
shield_us_row(struct req *req, sqlite3_stmt *st, void *arg)
{
	(void)req;
	return (shield_us_json(st, *(int *)arg));
}

/* The multipart text fields of an upload, checked. */
struct shield_upload {
	const struct multipart_part	*file;
	char				*name;
	int				 validation_enabled;
};

static int
shield_upload_parse(const struct multipart *mp, struct shield_upload *up,
    char **cause)
{
	char	*kind, *ve;
	int	 rc = -1;

	memset(up, 0, sizeof *up);
	kind = multipart_text(mp, "kind");
	ve = multipart_text(mp, "validation_enabled");
	if ((up->file = multipart_get(mp, "file")) == NULL) {
		util_fail(cause, "file: required, the schema file");
		goto out;
	}
	if (kind == NULL) {
		util_fail(cause, "kind: required, openapi_v3");
		goto out;
	}
	if (!apirules_in(shieldrules_schema_kinds, kind)) {
		util_fail(cause, "kind: '%.*s' is not supported (only "
		    "openapi_v3)", text_quote_len(kind), kind);
		goto out;
	}
	if (ve != NULL && strcmp(ve, "true") != 0 && strcmp(ve, "false") != 0) {
		util_fail(cause, "validation_enabled: '%.*s' is not \"true\" "
		    "or \"false\"", text_quote_len(ve), ve);
		goto out;
	}
	/* Validation is opt-in: it blocks traffic, so it is never implied. */
	up->validation_enabled = ve != NULL && strcmp(ve, "true") == 0;
	/* The name defaults to the file's name, as a browser upload sends. */
	up->name = multipart_text(mp, "name");
	if (up->name == NULL)
		up->name = xstrdup(up->file->filename != NULL &&
		    *up->file->filename != '\0' ? up->file->filename :
		    "schema");
	if (*up->name == '\0' || !util_utf8_valid(up->name,
	    strlen(up->name))) {
		util_fail(cause, "name: must be non-empty UTF-8 text");
		goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		free(up->name);
		up->name = NULL;
	}
	free(kind);
	free(ve);
	return (rc);
}

/*
 * A refused upload: the failure envelope with upload_details{errors,
 * critical}. The spec puts upload_details beside the envelope's members,
 * the API map inside result: both are sent.
 */
void
shield_upload_refused(struct reply *rep, cJSON *failure)
{
	const cJSON	*first;
	cJSON		*result;

	first = cJSON_GetArrayItem(cJSON_GetObjectItem(failure, "critical"),
	    0);
	if (first == NULL)
		first = cJSON_GetArrayItem(cJSON_GetObjectItem(failure,
		    "errors"), 0);
	reply_error(rep, 400, ERR_VALIDATION, "the schema is not a valid "
	    "OpenAPI 3 document: %s",
	    cJSON_GetObjectItem(first, "message")->valuestring);
	/* After reply_error, which clears the result. */
	result = cJSON_CreateObject();
	cJSON_AddItemToObject(result, "upload_details",
	    cJSON_Duplicate(failure, 1));
	rep->result = result;
	if (rep->top == NULL)
		rep->top = cJSON_CreateObject();
	cJSON_AddItemToObject(rep->top, "upload_details", failure);
}

/* Store a schema and its operations; in a transaction. */
int
shield_us_insert(struct store *store, const char *zone, const char *id,
    const char *name, const char *source, const char *created,
    int enabled, const cJSON *ops)
{
	static const char	 sql[] =
	    "INSERT INTO shield_schema (zone, id, name, kind, source,"
	    " created_at, validation_enabled)"
	    " VALUES (?1, ?2, ?3, 'openapi_v3', ?4, ?5, ?6) RETURNING seq";
	static const char	 op_sql[] =
	    "INSERT OR IGNORE INTO shield_schema_op (schema_seq, zone, method,"
	    " host, endpoint) VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	sqlite3_int64		 seq = 0;
	const cJSON		*op;
	int			 rc;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, created, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, enabled);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		seq = sqlite3_column_int64(st, 0);
	store_done(st);
	if (rc != SQLITE_ROW)
		return (-1);
	cJSON_ArrayForEach(op, ops) {
		st = store_stmt(store, op_sql);
		sqlite3_bind_int64(st, 1, seq);
		sqlite3_bind_text(st, 2, zone, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, cJSON_GetObjectItem(op,
		    "method")->valuestring, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, cJSON_GetObjectItem(op,
		    "host")->valuestring, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, cJSON_GetObjectItem(op,
		    "endpoint")->valuestring, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		store_done(st);
		if (rc != SQLITE_DONE)
			return (-1);
	}
	return (0);
}

cJSON *
shield_us_object(const char *id, const char *name, const char *source,
    const char *created, int enabled)
{
	cJSON	*s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "schema_id", id);
	cJSON_AddStringToObject(s, "name", name);
	cJSON_AddStringToObject(s, "kind", "openapi_v3");
	cJSON_AddStringToObject(s, "source", source);
	cJSON_AddStringToObject(s, "created_at", created);
	cJSON_AddBoolToObject(s, "validation_enabled", enabled);
	return (s);
}

void
shield_us_create(struct req *req, struct reply *rep)
{
	struct shield_upload	 up;
	char			 id[UUID_LEN + 1], now[ISO_TIME_LEN];
	char			*cause = NULL, *source;
	cJSON			*doc, *failure, *warnings, *ops, *result, *d;

	if (shield_upload_parse(req->parts, &up, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	if ((doc = shield_openapi_load(up.file->data, up.file->len,
	    &failure)) == NULL) {
		shield_upload_refused(rep, failure);
		free(up.name);
		return;
	}
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	cJSON_Delete(doc);
	source = xstrndup(up.file->data, up.file->len);
	util_uuid(id);
	util_now_iso(now);
	if (shield_us_insert(req->store, req_param(req, "zone"), id, up.name,
	    source, now, up.validation_enabled, ops) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(warnings);
	} else {
		result = cJSON_CreateObject();
		cJSON_AddItemToObject(result, "schema", shield_us_object(id,
		    up.name, source, now, up.validation_enabled));
		d = cJSON_AddObjectToObject(result, "upload_details");
		cJSON_AddItemToObject(d, "warnings", warnings);
		reply_ok(rep, result);
	}
	cJSON_Delete(ops);
	free(source);
	free(up.name);
}

void
shield_us_list(struct req *req, struct reply *rep)
{
	struct shield_binds	 b;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	char			*cause = NULL;
	cJSON			*list = NULL;
	long			 total = -1;
	int			 omit, enabled;

	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELDRULES_PER_PAGE_MIN,
	    SHIELDRULES_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
	    query_bool(&req->query, "omit_source", 0, &omit, &cause) != 0 ||
	    query_bool(&req->query, "validation_enabled", 0, &enabled,
	    &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	b.n = 0;
	buf_addf(&w, "FROM shield_schema WHERE zone = ?%d",
	    shield_bind_text(&b, req_param(req, "zone")));
	if (query_get(&req->query, "validation_enabled") != NULL)
		buf_addf(&w, " AND validation_enabled = ?%d",
		    shield_bind_num(&b, enabled));
	if (shield_run_page(req, omit ? SHIELD_US_COLS_NOSOURCE :
	    SHIELD_US_COLS, buf_str(&w), "seq", &b, &p, shield_us_row, &omit,
	    &list, &total) != 0)
		reply_store_error(req, rep);
	else
		reply_page(rep, list, p.page, p.per_page, total);
	buf_free(&w);
}

/* The schema named in the path, or NULL after replying. */
cJSON *
shield_us_find(struct req *req, struct reply *rep, int omit_source)
{
	static const char	 sql[] =
	    "SELECT " SHIELD_US_COLS " FROM shield_schema"
	    " WHERE zone = ?1 AND id = ?2";
	static const char	 nosource_sql[] =
	    "SELECT " SHIELD_US_COLS_NOSOURCE " FROM shield_schema"
	    " WHERE zone = ?1 AND id = ?2";
	sqlite3_stmt		*st;
	char			 id[UUID_LEN + 1];
	cJSON			*s = NULL;
	int			 rc;

	shield_lower_id(req_param(req, "schema_id"), id);
	st = store_stmt(req->store, omit_source ? nosource_sql : sql);
	sqlite3_bind_text(st, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		s = shield_us_json(st, omit_source);
	else if (rc == SQLITE_DONE)
		shield_not_found(rep, "schema", id);
	else
		reply_store_error(req, rep);
	store_done(st);
	return (s);
}

void
shield_us_get(struct req *req, struct reply *rep)
{
	char	*cause = NULL;
	cJSON	*s;
	int	 omit;

	if (query_bool(&req->query, "omit_source", 0, &omit, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	if ((s = shield_us_find(req, rep, omit)) != NULL)
		reply_ok(rep, s);
}

/*
 * The PATCH of a schema, for both APIs: validation_enabled set to v (a
 * boolean, checked by the caller; NULL changes nothing), then the schema.
 */
void
shield_us_enable(struct req *req, struct reply *rep, const cJSON *v)
{
	static const char	 sql[] =
	    "UPDATE shield_schema SET validation_enabled = ?3"
	    " WHERE zone = ?1 AND id = ?2";
	sqlite3_stmt		*st;
	char			 id[UUID_LEN + 1];
	cJSON			*s;
	int			 rc;

	if (v != NULL) {
		shield_lower_id(req_param(req, "schema_id"), id);
		st = store_stmt(req->store, sql);
		sqlite3_bind_text(st, 1, req_param(req, "zone"), -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, cJSON_IsTrue(v));
		rc = sqlite3_step(st);
		store_done(st);
		if (rc != SQLITE_DONE) {
			reply_store_error(req, rep);
			return;
		}
	}
	if ((s = shield_us_find(req, rep, 0)) != NULL)
		reply_ok(rep, s);
}

/*
 * PATCH takes only validation_enabled: true, as the spec's enum says; a
 * schema stops validating by being deleted. An empty body changes nothing.
 */
void
shield_us_patch(struct req *req, struct reply *rep)
{
	const cJSON		*v;

	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "the body must be a JSON "
		    "object: {\"validation_enabled\": true}");
		return;
	}
	v = cJSON_GetObjectItemCaseSensitive(req->json, "validation_enabled");
	if (v != NULL && !cJSON_IsTrue(v)) {
		reply_error(rep, 400, ERR_VALIDATION, "validation_enabled: "
		    "only true can be set (delete the schema to stop "
		    "validating with it), not %s", cJSON_IsFalse(v) ? "false" :
		    shield_type_name(v));
		return;
	}
	shield_us_enable(req, rep, v);
}

void
shield_us_delete(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "DELETE FROM shield_schema WHERE zone = ?1 AND id = ?2";
	char			 id[UUID_LEN + 1];
	int			 found;

	shield_lower_id(req_param(req, "schema_id"), id);
	if ((found = store_doc_delete(req->store, sql, req_param(req, "zone"),
	    id)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		shield_not_found(rep, "schema", id);
		return;
	}
	reply_ok(rep, NULL);
}

/*
 * A schema operation: the full operation when it is already in endpoint
 * management (existing), else the basic {method, host, endpoint} (new).
 */
static cJSON *
shield_us_op_row(struct req *req, sqlite3_stmt *st, void *arg)
{
	struct shield_op_ctx	*ctx = arg;
	cJSON			*op;

	if (sqlite3_column_type(st, OPC_ID) != SQLITE_NULL)
		return (shield_op_json(req->store, ctx->zone, st,
		    ctx->features));
	op = cJSON_CreateObject();
	cJSON_AddStringToObject(op, "method",
	    shield_col_text(st, OPC_MITIGATION + 1));
	cJSON_AddStringToObject(op, "host",
	    shield_col_text(st, OPC_MITIGATION + 2));
	cJSON_AddStringToObject(op, "endpoint",
	    shield_col_text(st, OPC_MITIGATION + 3));
	return (op);
}

void
shield_us_ops(struct req *req, struct reply *rep)
{
	static const char	 seq_sql[] =
	    "SELECT seq FROM shield_schema WHERE zone = ?1 AND id = ?2";
	static const char *const statuses[] = { "new", "existing", NULL };
	struct shield_filter	 f;
	struct shield_binds	 b;
	struct shield_op_ctx	 ctx;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	const char		*status;
	char			 id[UUID_LEN + 1], *cause = NULL;
	cJSON			*list = NULL;
	sqlite3_int64		 seq;
	long			 total = -1;
	int			 rc;

	ctx.zone = req_param(req, "zone");
	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELDRULES_PER_PAGE_MIN,
	    SHIELDRULES_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
	    query_enum(&req->query, "operation_status", statuses, &status,
	    &cause) != 0 ||
	    shield_parse_features(&req->query, &ctx.features, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	if (shield_filter_parse(&req->query, &f, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	shield_lower_id(req_param(req, "schema_id"), id);
	if ((rc = store_get_int(req->store, seq_sql, &seq, ctx.zone, id,
	    NULL)) != 1) {
		if (rc == 0)
			shield_not_found(rep, "schema", id);
		else
			reply_store_error(req, rep);
		shield_filter_free(&f);
		return;
	}
	b.n = 0;
	buf_addf(&w, "FROM shield_schema_op so LEFT JOIN shield_op o"
	    " ON o.zone = so.zone AND o.method = so.method"
	    " AND o.host = so.host AND o.endpoint = so.endpoint"
	    " WHERE so.schema_seq = ?%d", shield_bind_num(&b, seq));
	shield_filter_where(&f, "so.", &w, &b);
	if (status != NULL)
		buf_addf(&w, " AND o.seq IS %s", strcmp(status, "new") == 0 ?
		    "NULL" : "NOT NULL");
	if (shield_run_page(req, SHIELD_OP_COLS_O ", so.method, so.host,"
	    " so.endpoint", buf_str(&w), "so.seq", &b, &p, shield_us_op_row,
	    &ctx, &list, &total) != 0)
		reply_store_error(req, rep);
	else
		reply_page(rep, list, p.page, p.per_page, total);
	buf_free(&w);
	shield_filter_free(&f);
}
