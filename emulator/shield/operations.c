/*
 * API Shield's operations (endpoint management): list, get, create and
 * delete, with their filters, orders and features. Operations keep what
 * lists filter and order on in real columns, so a page of a zone with
 * 100 000 operations never parses stored JSON.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "log.h"
#include "internal.h"
#include "text.h"

/* The thresholds feature's fields, in the order of their th_ columns. */
static const char *const shield_threshold_keys[] = {
	"period_seconds", "suggested_threshold", "p50", "p90", "p99",
	"requests", "auth_id_tokens", "data_points", "last_updated"
};

#define SHIELD_OP_COLS_BASIC						\
	"id, method, host, endpoint, last_updated"
void
shield_not_found(struct reply *rep, const char *what, const char *id)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "%s %s was not found", what, id);
}

/* feature[]: which features to add to each operation. */
int
shield_parse_features(const struct query *q, int *features, char **cause)
{
	const char	*v[8];
	size_t		 n, i, j;

	if (query_enums(q, "feature", shieldrules_features, v, nitems(v), &n,
	    cause) != 0)
		return (-1);
	*features = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; shieldrules_features[j] != NULL; j++) {
			if (strcmp(v[i], shieldrules_features[j]) == 0)
				*features |= 1 << j;
		}
	}
	return (0);
}

/*
 * schema_info: the user schema that covers the operation, preferring one
 * with validation enabled, then the newest; NULL when none does.
 */
static cJSON *
shield_schema_info(struct store *store, const char *zone, sqlite3_stmt *op)
{
	static const char	 sql[] =
	    "SELECT s.id, s.name, s.created_at, s.validation_enabled"
	    " FROM shield_schema_op so"
	    " JOIN shield_schema s ON s.seq = so.schema_seq"
	    " WHERE so.zone = ?1 AND so.method = ?2 AND so.host = ?3"
	    " AND so.endpoint = ?4"
	    " ORDER BY s.validation_enabled DESC, s.seq DESC LIMIT 1";
	sqlite3_stmt		*st = store_stmt(store, sql);
	cJSON			*info = NULL, *active;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, shield_col_text(op, OPC_METHOD), -1,
	    SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, shield_col_text(op, OPC_HOST), -1,
	    SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, shield_col_text(op, OPC_ENDPOINT), -1,
	    SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		info = cJSON_CreateObject();
		active = cJSON_AddObjectToObject(info, "active_schema");
		cJSON_AddStringToObject(active, "id", shield_col_text(st, 0));
		cJSON_AddStringToObject(active, "name", shield_col_text(st, 1));
		cJSON_AddStringToObject(active, "created_at",
		    shield_col_text(st, 2));
		cJSON_AddBoolToObject(active, "is_learned", 0);
		cJSON_AddBoolToObject(info, "learned_available", 0);
		if (sqlite3_column_type(op, OPC_MITIGATION) == SQLITE_NULL)
			cJSON_AddNullToObject(info, "mitigation_action");
		else
			cJSON_AddStringToObject(info, "mitigation_action",
			    shield_col_text(op, OPC_MITIGATION));
	}
	store_done(st);
	return (info);
}

void
shield_op_features(struct store *store, const char *zone, sqlite3_stmt *st,
    int features, cJSON *op)
{
	cJSON	*f = cJSON_CreateObject(), *t, *ps, *v;
	size_t	 i;

	if ((features & SHIELD_F_THRESHOLDS) &&
	    sqlite3_column_type(st, OPC_THRESHOLDS + 8) != SQLITE_NULL) {
		t = cJSON_AddObjectToObject(f, "thresholds");
		for (i = 0; i < 8; i++)
			cJSON_AddNumberToObject(t, shield_threshold_keys[i],
			    (double)sqlite3_column_int64(st,
			    OPC_THRESHOLDS + (int)i));
		cJSON_AddStringToObject(t, "last_updated",
		    shield_col_text(st, OPC_THRESHOLDS + 8));
	}
	if ((features & SHIELD_F_PARAMS) &&
	    sqlite3_column_type(st, OPC_PARAMS) != SQLITE_NULL &&
	    (v = cJSON_Parse(shield_col_text(st, OPC_PARAMS))) != NULL) {
		ps = cJSON_AddObjectToObject(f, "parameter_schemas");
		cJSON_AddItemToObject(ps, "parameter_schemas", v);
		cJSON_AddStringToObject(ps, "last_updated",
		    shield_col_text(st, OPC_PARAMS_UPDATED));
	}
	if ((features & SHIELD_F_SCHEMA_INFO) &&
	    (v = shield_schema_info(store, zone, st)) != NULL)
		cJSON_AddItemToObject(f, "schema_info", v);
	/* features appears only when the operation has one of those asked. */
	if (cJSON_GetArraySize(f) != 0)
		cJSON_AddItemToObject(op, "features", f);
	else
		cJSON_Delete(f);
}

/*
 * A member under a constant key: the key is not copied, here or when the
 * reply is duplicated, which counts on a page of 50 operations.
 */
static void
shield_add_const(cJSON *o, const char *key, const char *value)
{
	cJSON_AddItemToObjectCS(o, key, cJSON_CreateString(value));
}

/* An operation from a row of SHIELD_OP_COLS. */
cJSON *
shield_op_json(struct store *store, const char *zone, sqlite3_stmt *st,
    int features)
{
	cJSON	*op = cJSON_CreateObject();

	shield_add_const(op, "operation_id", shield_col_text(st, OPC_ID));
	shield_add_const(op, "method", shield_col_text(st, OPC_METHOD));
	shield_add_const(op, "host", shield_col_text(st, OPC_HOST));
	shield_add_const(op, "endpoint", shield_col_text(st, OPC_ENDPOINT));
	shield_add_const(op, "last_updated", shield_col_text(st, OPC_UPDATED));
	if (features != 0)
		shield_op_features(store, zone, st, features, op);
	return (op);
}

static cJSON *
shield_op_row(struct req *req, sqlite3_stmt *st, void *arg)
{
	struct shield_op_ctx	*ctx = arg;

	return (shield_op_json(req->store, ctx->zone, st, ctx->features));
}

void
shield_filter_free(struct shield_filter *f)
{
	size_t	i;

	for (i = 0; i < f->nhosts; i++)
		free(f->hosts[i]);
	for (i = 0; i < f->nmethods; i++)
		free(f->methods[i]);
	memset(f, 0, sizeof *f);
}

/*
 * Hosts are compared in lower case, as they are stored; a method that can
 * never match is refused rather than silently matching nothing.
 */
int
shield_filter_parse(const struct query *q, struct shield_filter *f,
    char **cause)
{
	const char	*v[SHIELD_MAX_FILTERS];
	char		*why = NULL;
	size_t		 n, i, j;

	memset(f, 0, sizeof *f);
	if ((n = query_values(q, "host", v, nitems(v))) > nitems(v))
		return (util_fail(cause, "host: at most %d values",
		    SHIELD_MAX_FILTERS));
	for (i = 0; i < n; i++) {
		f->hosts[i] = xstrdup(v[i]);
		for (j = 0; f->hosts[i][j] != '\0'; j++)
			f->hosts[i][j] = (char)tolower(
			    (unsigned char)f->hosts[i][j]);
		f->nhosts++;
	}
	if ((n = query_values(q, "method", v, nitems(v))) > nitems(v)) {
		shield_filter_free(f);
		return (util_fail(cause, "method: at most %d values",
		    SHIELD_MAX_FILTERS));
	}
	for (i = 0; i < n; i++) {
		if ((f->methods[i] = shield_normalize_method(v[i], &why)) ==
		    NULL) {
			shield_filter_free(f);
			*cause = why;
			return (-1);
		}
		f->nmethods++;
	}
	f->endpoint = query_get(q, "endpoint");
	if (f->endpoint != NULL && *f->endpoint == '\0')
		f->endpoint = NULL;
	return (0);
}

static int
shield_filter_empty(const struct shield_filter *f)
{
	return (f->nhosts == 0 && f->nmethods == 0 && f->endpoint == NULL);
}

/* Add the filter to a WHERE clause on table alias prefix (may be ""). */
void
shield_filter_where(const struct shield_filter *f, const char *prefix,
    struct buf *w, struct shield_binds *b)
{
	char	col[32];

	snprintf(col, sizeof col, "%shost", prefix);
	shield_where_in(w, b, col, (const char *const *)f->hosts, f->nhosts);
	snprintf(col, sizeof col, "%smethod", prefix);
	shield_where_in(w, b, col, (const char *const *)f->methods,
	    f->nmethods);
	if (f->endpoint != NULL)
		buf_addf(w, " AND instr(%sendpoint, ?%d) > 0", prefix,
		    shield_bind_text(b, f->endpoint));
}

/* direction: asc (the default) or desc. */
int
shield_parse_direction(const struct query *q, int *desc, char **cause)
{
	const char	*d;

	if (query_enum(q, "direction", shieldrules_directions, &d, cause) != 0)
		return (-1);
	*desc = d != NULL && strcmp(d, "desc") == 0;
	return (0);
}

/*
 * ORDER BY for an operations list: by the key, ties by seq, which the
 * key's index gives without a sort; thresholds.<key> puts operations
 * without thresholds last.
 */
static char *
shield_op_order(const char *order, int desc, char **cause)
{
	const char	*dir = desc ? "DESC" : "ASC", *key;

	if (order == NULL)
		return (xprintf("seq %s", dir));
	if (!apirules_in(shieldrules_op_orders, order)) {
		util_fail(cause, "order: '%.*s' is not one of method, host, "
		    "endpoint or thresholds.KEY, where KEY is period_seconds, "
		    "suggested_threshold, p50, p90, p99, requests, "
		    "auth_id_tokens, data_points or last_updated",
		    text_quote_len(order), order);
		return (NULL);
	}
	if (strncmp(order, "thresholds.", 11) != 0)
		return (xprintf("%s %s, seq %s", order, dir, dir));
	key = order + 11;
	return (xprintf("th_%s IS NULL, th_%s %s, seq %s", key, key, dir,
	    dir));
}

static const char shield_zone_sql[] =
    "SELECT ops, gen FROM shield_zone WHERE zone = ?1";

/*
 * The zone's operation count from shield_zone, or -1 on a failure (then
 * counted by the caller). The statement is left open in *stp, holding the
 * read snapshot, until the caller's store_done().
 */
static long
shield_zone_ops(struct store *store, const char *zone, sqlite3_stmt **stp)
{
	sqlite3_stmt	*st = store_stmt(store, shield_zone_sql);
	int		 rc;

	*stp = st;
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return ((long)sqlite3_column_int64(st, 0));
	return (rc == SQLITE_DONE ? 0 : -1);
}

/*
 * A page of the zone in creation order without filters, the list clients
 * walk: the count and generation come from shield_zone and the page from a
 * seq range, so it costs the same at any depth.
 */
static int
shield_op_page_fast(struct req *req, const struct paging *p, int desc,
    int features, cJSON **listp, long *totalp)
{
	static const char	 asc_sql[] =
	    "SELECT " SHIELD_OP_COLS " FROM shield_op"
	    " WHERE zone = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq";
	static const char	 desc_sql[] =
	    "SELECT " SHIELD_OP_COLS " FROM shield_op"
	    " WHERE zone = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq DESC";
	/* Without features only the first columns are read: fetch no more. */
	static const char	 asc_basic_sql[] =
	    "SELECT " SHIELD_OP_COLS_BASIC " FROM shield_op"
	    " WHERE zone = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq";
	static const char	 desc_basic_sql[] =
	    "SELECT " SHIELD_OP_COLS_BASIC " FROM shield_op"
	    " WHERE zone = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq DESC";
	const char		*zone = req_param(req, "zone");
	sqlite3_stmt		*zst, *st = NULL;
	sqlite3_int64		 gen, total, off, cnt, slo, shi, *seq;
	size_t			 lo, hi, n;
	cJSON			*list = cJSON_CreateArray();
	int			 rc;

	zst = store_stmt(req->store, shield_zone_sql);
	sqlite3_bind_text(zst, 1, zone, -1, SQLITE_STATIC);
	rc = sqlite3_step(zst);
	if (rc != SQLITE_ROW) {
		store_done(zst);
		*totalp = 0;
		*listp = list;
		if (rc == SQLITE_DONE)
			return (0);
		cJSON_Delete(list);
		return (-1);
	}
	total = sqlite3_column_int64(zst, 0);
	gen = sqlite3_column_int64(zst, 1);
	off = (sqlite3_int64)(p->page - 1) * p->per_page;
	if (off >= total)
		goto done;
	cnt = MINIMUM(p->per_page, total - off);
	lo = (size_t)(desc ? total - off - cnt : off);
	hi = lo + (size_t)cnt - 1;

	/* zst is still open: the ranks are read in the same snapshot. */
	if (!shield_rank_get(req->store, zone, gen, lo, hi, &slo, &shi)) {
		if (shield_rank_build(req->store, zone, &seq, &n) != 0)
			goto fail;
		if (n != (size_t)total) {
			free(seq);
			log_warn("shield: zone %s counts %lld operations but "
			    "has %zu", zone, (long long)total, n);
			goto fail;
		}
		slo = seq[lo];
		shi = seq[hi];
		shield_rank_put(req->store, zone, gen, seq, n);
	}
	if (features != 0)
		st = store_stmt(req->store, desc ? desc_sql : asc_sql);
	else
		st = store_stmt(req->store, desc ? desc_basic_sql :
		    asc_basic_sql);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, slo);
	sqlite3_bind_int64(st, 3, shi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cJSON_AddItemToArray(list, shield_op_json(req->store, zone, st,
		    features));
	store_done(st);
	if (rc != SQLITE_DONE)
		goto fail;
done:
	store_done(zst);
	*totalp = (long)total;
	*listp = list;
	return (0);
fail:
	store_done(zst);
	cJSON_Delete(list);
	return (-1);
}

void
shield_op_list(struct req *req, struct reply *rep)
{
	struct shield_filter	 f;
	struct shield_binds	 b;
	struct shield_op_ctx	 ctx;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	sqlite3_stmt		*zst;
	char			*cause = NULL, *order = NULL;
	cJSON			*list = NULL;
	long			 total = -1;
	int			 desc, features, rc;

	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELDRULES_PER_PAGE_MIN,
	    SHIELD_OPS_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
	    shield_parse_direction(&req->query, &desc, &cause) != 0 ||
	    shield_parse_features(&req->query, &features, &cause) != 0 ||
	    (order = shield_op_order(query_get(&req->query, "order"), desc,
	    &cause)) == NULL) {
		shield_bad(rep, cause);
		return;
	}
	if (shield_filter_parse(&req->query, &f, &cause) != 0) {
		free(order);
		shield_bad(rep, cause);
		return;
	}
	ctx.zone = req_param(req, "zone");
	ctx.features = features;
	if (shield_filter_empty(&f) && query_get(&req->query, "order") == NULL)
		rc = shield_op_page_fast(req, &p, desc, features, &list,
		    &total);
	else {
		/* Unfiltered, the zone's count is known: no count(*). */
		zst = NULL;
		if (shield_filter_empty(&f))
			total = shield_zone_ops(req->store, ctx.zone, &zst);
		b.n = 0;
		buf_addf(&w, "FROM shield_op WHERE zone = ?%d",
		    shield_bind_text(&b, ctx.zone));
		shield_filter_where(&f, "", &w, &b);
		rc = shield_run_page(req, SHIELD_OP_COLS, buf_str(&w), order,
		    &b, &p, shield_op_row, &ctx, &list, &total);
		store_done(zst);
	}
	if (rc != 0)
		reply_store_error(req, rep);
	else
		reply_page(rep, list, p.page, p.per_page, total);
	buf_free(&w);
	free(order);
	shield_filter_free(&f);
}

/* Look an operation up by the id in the path; NULL (and a reply) if not. */
static cJSON *
shield_op_find(struct req *req, struct reply *rep, int features)
{
	static const char	 sql[] =
	    "SELECT " SHIELD_OP_COLS " FROM shield_op"
	    " WHERE zone = ?1 AND id = ?2";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	const char		*zone = req_param(req, "zone");
	char			 id[UUID_LEN + 1];
	cJSON			*op = NULL;
	int			 rc;

	shield_lower_id(req_param(req, "operation_id"), id);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		op = shield_op_json(req->store, zone, st, features);
	else if (rc == SQLITE_DONE)
		shield_not_found(rep, "operation", id);
	else
		reply_store_error(req, rep);
	store_done(st);
	return (op);
}

void
shield_op_get(struct req *req, struct reply *rep)
{
	char	*cause = NULL;
	cJSON	*op;
	int	 features;

	if (shield_parse_features(&req->query, &features, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	if ((op = shield_op_find(req, rep, features)) != NULL)
		reply_ok(rep, op);
}

/*
 * Insert an operation, or touch the one with the same normalised key; a
 * discovered operation with that key is now saved. In a transaction.
 */
static cJSON *
shield_op_upsert(struct store *store, const char *zone,
    const struct shield_op_key *key, const char *now)
{
	static const char	 sql[] =
	    "INSERT INTO shield_op (zone, id, method, host, endpoint,"
	    " last_updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
	    " ON CONFLICT (zone, method, host, endpoint) DO UPDATE"
	    " SET last_updated = excluded.last_updated"
	    " RETURNING id, method, host, endpoint, last_updated";
	static const char	 saved_sql[] =
	    "UPDATE shield_disc SET state = 'saved' WHERE zone = ?1"
	    " AND method = ?2 AND host = ?3 AND endpoint = ?4"
	    " AND state <> 'saved'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			 id[UUID_LEN + 1];
	cJSON			*op = NULL;

	util_uuid(id);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key->method, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, key->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, key->endpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		op = cJSON_CreateObject();
		cJSON_AddStringToObject(op, "operation_id",
		    shield_col_text(st, 0));
		cJSON_AddStringToObject(op, "method", shield_col_text(st, 1));
		cJSON_AddStringToObject(op, "host", shield_col_text(st, 2));
		cJSON_AddStringToObject(op, "endpoint", shield_col_text(st, 3));
		cJSON_AddStringToObject(op, "last_updated",
		    shield_col_text(st, 4));
	}
	store_done(st);
	if (op == NULL)
		return (NULL);
	st = store_stmt(store, saved_sql);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key->method, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, key->endpoint, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		cJSON_Delete(op);
		op = NULL;
	}
	store_done(st);
	return (op);
}

/*
 * Create the operations of keys in the route's transaction: all or none.
 * Returns the array of operations, or NULL after replying with the failure.
 */
static cJSON *
shield_op_create(struct req *req, struct reply *rep,
    const struct shield_op_key *keys, size_t n)
{
	char	 now[ISO_TIME_LEN];
	cJSON	*list, *op;
	size_t	 i;

	util_now_iso(now);
	list = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		op = shield_op_upsert(req->store, req_param(req, "zone"),
		    &keys[i], now);
		if (op == NULL) {
			reply_store_error(req, rep);
			cJSON_Delete(list);
			return (NULL);
		}
		cJSON_AddItemToArray(list, op);
	}
	return (list);
}

void
shield_op_create_one(struct req *req, struct reply *rep)
{
	struct shield_op_key	 key;
	char			*cause = NULL;
	cJSON			*list;

	if (req->json == NULL) {
		reply_error(rep, 400, ERR_VALIDATION, "a JSON body is "
		    "required: {\"method\", \"host\", \"endpoint\"}");
		return;
	}
	if (shield_op_key_parse(req->json, &key, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	if ((list = shield_op_create(req, rep, &key, 1)) != NULL) {
		reply_ok(rep, cJSON_DetachItemFromArray(list, 0));
		cJSON_Delete(list);
	}
	shield_op_key_free(&key);
}

/* Every item is checked before any is stored, so a bad one stores none. */
void
shield_op_create_bulk(struct req *req, struct reply *rep)
{
	struct shield_op_key	*keys;
	const cJSON		*item;
	char			*cause = NULL;
	cJSON			*list;
	size_t			 n = 0, i;

	if (!cJSON_IsArray(req->json) || cJSON_GetArraySize(req->json) == 0) {
		reply_error(rep, 400, ERR_VALIDATION, "the body must be a "
		    "non-empty JSON array of {\"method\", \"host\", "
		    "\"endpoint\"}");
		return;
	}
	keys = xcalloc((size_t)cJSON_GetArraySize(req->json), sizeof *keys);
	cJSON_ArrayForEach(item, req->json) {
		if (shield_op_key_parse(item, &keys[n], &cause) != 0) {
			reply_error(rep, 400, ERR_VALIDATION, "[%zu].%s", n,
			    cause);
			free(cause);
			goto out;
		}
		n++;
	}
	if ((list = shield_op_create(req, rep, keys, n)) != NULL)
		reply_ok(rep, list);
out:
	for (i = 0; i < n; i++)
		shield_op_key_free(&keys[i]);
	free(keys);
}

/*
 * Delete one operation; a discovered operation it saved goes back to
 * review. 1 if it was there, 0 if not, -1 on failure. In a transaction.
 */
static int
shield_op_remove(struct store *store, const char *zone, const char *id)
{
	static const char	 sql[] =
	    "DELETE FROM shield_op WHERE zone = ?1 AND id = ?2"
	    " RETURNING method, host, endpoint";
	static const char	 review_sql[] =
	    "UPDATE shield_disc SET state = 'review' WHERE zone = ?1"
	    " AND method = ?2 AND host = ?3 AND endpoint = ?4"
	    " AND state = 'saved'";
	sqlite3_stmt		*st = store_stmt(store, sql), *rst;
	int			 rc, found = 0;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		found = 1;
		rst = store_stmt(store, review_sql);
		sqlite3_bind_text(rst, 1, zone, -1, SQLITE_STATIC);
		sqlite3_bind_text(rst, 2, shield_col_text(st, 0), -1,
		    SQLITE_TRANSIENT);
		sqlite3_bind_text(rst, 3, shield_col_text(st, 1), -1,
		    SQLITE_TRANSIENT);
		sqlite3_bind_text(rst, 4, shield_col_text(st, 2), -1,
		    SQLITE_TRANSIENT);
		rc = sqlite3_step(rst) == SQLITE_DONE ? SQLITE_DONE :
		    SQLITE_ERROR;
		store_done(rst);
	}
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	return (found);
}

void
shield_op_delete_one(struct req *req, struct reply *rep)
{
	char	id[UUID_LEN + 1];
	int	found;

	shield_lower_id(req_param(req, "operation_id"), id);
	if ((found = shield_op_remove(req->store, req_param(req, "zone"),
	    id)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		shield_not_found(rep, "operation", id);
		return;
	}
	reply_ok(rep, NULL);
}

/* 1 if the zone has the operation, 0 if not, -1 on failure. */
static int
shield_op_exists(struct store *store, const char *zone, const char *id)
{
	static const char	 sql[] =
	    "SELECT 1 FROM shield_op WHERE zone = ?1 AND id = ?2";
	sqlite3_int64		 one;

	return (store_get_int(store, sql, &one, zone, id, NULL));
}

/* Check a list of operation ids: UUIDs, lower-cased in place. */
static int
shield_check_ids(const cJSON *list, const char *what, char **cause)
{
	cJSON	*item;
	char	 id[UUID_LEN + 1];
	int	 i = 0;

	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsString(item) ||
		    !apirules_uuid_ok(item->valuestring))
			return (util_fail(cause, "%s[%d]: must be an "
			    "operation id (a UUID)", what, i));
		shield_lower_id(item->valuestring, id);
		memcpy(item->valuestring, id, UUID_LEN);
		i++;
	}
	return (0);
}

/*
 * DELETE /operations {"operation_ids": [...]}: every id must name an
 * operation of the zone, else nothing is deleted and the first missing one
 * is named. A repeated id is deleted once.
 */
void
shield_op_delete_bulk(struct req *req, struct reply *rep)
{
	const char	*zone = req_param(req, "zone");
	cJSON		*ids, *item;
	char		*cause = NULL;
	int		 rc;

	ids = cJSON_GetObjectItemCaseSensitive(req->json, "operation_ids");
	if (!cJSON_IsObject(req->json) || !cJSON_IsArray(ids) ||
	    cJSON_GetArraySize(ids) == 0) {
		reply_error(rep, 400, ERR_VALIDATION, "operation_ids: "
		    "required, a non-empty array of operation ids");
		return;
	}
	if (shield_check_ids(ids, "operation_ids", &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	cJSON_ArrayForEach(item, ids) {
		if ((rc = shield_op_exists(req->store, zone,
		    item->valuestring)) < 0) {
			reply_store_error(req, rep);
			return;
		}
		if (rc == 0) {
			shield_not_found(rep, "operation", item->valuestring);
			return;
		}
	}
	cJSON_ArrayForEach(item, ids) {
		if (shield_op_remove(req->store, zone, item->valuestring) < 0) {
			reply_store_error(req, rep);
			return;
		}
	}
	reply_ok(rep, NULL);
}
