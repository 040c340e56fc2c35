/*
 * Legacy zone rate limits under /zones/{zone}/rate_limits: the rule checks,
 * the rule as the service returns it, its storage and the demo rules.
 *
 * A rule is stored as the JSON the service answers with, built from the
 * known fields only, so unknown fields are dropped and a PUT that leaves a
 * field out removes it. Lists follow creation order (seq), which a PUT keeps.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonutil.h"
#include "legacyrl.h"
#include "log.h"
#include "ratelimit.h"
#include "server.h"
#include "store.h"
#include "text.h"
#include "util.h"
#include "xmalloc.h"

#define RATELIMIT_PATH		"/zones/{zone:hex32}/rate_limits"
#define RATELIMIT_PER_PAGE	20

/*
 * seq is AUTOINCREMENT so a deleted rule's place is never reused; the index
 * serves both the page reads and the counts of a zone with many rules.
 */
static const char ratelimit_schema[] =
	"CREATE TABLE IF NOT EXISTS ratelimit ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" body TEXT NOT NULL,"
	" UNIQUE (zone, id));"
	"CREATE INDEX IF NOT EXISTS ratelimit_zone_seq"
	" ON ratelimit (zone, seq);";

/* Statements on one rule's row: ?1 zone, ?2 id, ?3 body. */
static const char ratelimit_insert_sql[] =
	"INSERT INTO ratelimit (zone, id, body) VALUES (?1, ?2, ?3)";
static const char ratelimit_replace_sql[] =
	"UPDATE ratelimit SET body = ?3 WHERE zone = ?1 AND id = ?2";
static const char ratelimit_get_sql[] =
	"SELECT body FROM ratelimit WHERE zone = ?1 AND id = ?2";
static const char ratelimit_delete_sql[] =
	"DELETE FROM ratelimit WHERE zone = ?1 AND id = ?2";

/* ---- checks ------------------------------------------------------------ */

/*
 * A member, or NULL when it is absent. null counts as absent, as it does for
 * the service's decoder, so clients may send null for an optional field.
 */
static const cJSON *
ratelimit_member(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return (cJSON_IsNull(v) ? NULL : v);
}

static int
ratelimit_need(const cJSON *v, const char *path, const char *what,
    char **cause)
{
	if (v != NULL)
		return (0);
	return (util_fail(cause, "%s: required, %s", path, what));
}

static int
ratelimit_object(const cJSON *v, const char *path, char **cause)
{
	if (cJSON_IsObject(v))
		return (0);
	return (util_fail(cause, "%s: must be an object, not %s", path,
	    jsonutil_type_name(v)));
}

static int
ratelimit_bool(const cJSON *v, const char *path, char **cause)
{
	if (v == NULL || cJSON_IsBool(v))
		return (0);
	return (util_fail(cause, "%s: must be a boolean, not %s", path,
	    jsonutil_type_name(v)));
}

static int
ratelimit_integer(const cJSON *v, const char *path, long min, long max,
    long *out, char **cause)
{
	double	d;

	if (!cJSON_IsNumber(v))
		return (util_fail(cause, "%s: must be an integer, not %s",
		    path, jsonutil_type_name(v)));
	d = v->valuedouble;
	if (!isfinite(d) || floor(d) != d)
		return (util_fail(cause, "%s: must be an integer, not %g",
		    path, d));
	if (d < (double)min || d > (double)max)
		return (util_fail(cause, "%s: %.15g is out of range "
		    "(%ld to %ld)", path, d, min, max));
	*out = (long)d;
	return (0);
}

static int
ratelimit_string(const cJSON *v, const char *path, size_t max, int nonempty,
    char **cause)
{
	size_t	n;

	if (!cJSON_IsString(v))
		return (util_fail(cause, "%s: must be a string, not %s",
		    path, jsonutil_type_name(v)));
	if (nonempty && *v->valuestring == '\0')
		return (util_fail(cause, "%s: must not be empty", path));
	if ((n = text_chars(v->valuestring)) > max)
		return (util_fail(cause, "%s: %zu characters is over the "
		    "limit of %zu", path, n, max));
	return (0);
}

static int
ratelimit_enum(const cJSON *v, const char *path, const char *const *allowed,
    char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; cJSON_IsString(v) && allowed[i] != NULL; i++) {
		if (strcmp(v->valuestring, allowed[i]) == 0)
			return (0);
	}
	for (i = 0; allowed[i] != NULL; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ", allowed[i]);
	if (cJSON_IsString(v))
		util_fail(cause, "%s: '%.*s' is not one of %s", path,
		    text_quote_len(v->valuestring), v->valuestring,
		    buf_str(&b));
	else
		util_fail(cause, "%s: must be one of %s, not %s", path,
		    buf_str(&b), jsonutil_type_name(v));
	buf_free(&b);
	return (-1);
}

/* An optional, non-empty list of enum values (methods, schemes). */
static int
ratelimit_enums(const cJSON *list, const char *path,
    const char *const *allowed, char **cause)
{
	const cJSON	*item;
	char		 ipath[64];
	int		 i = 0;

	if (list == NULL)
		return (0);
	if (!cJSON_IsArray(list))
		return (util_fail(cause, "%s: must be an array, not %s",
		    path, jsonutil_type_name(list)));
	if (cJSON_GetArraySize(list) == 0)
		return (util_fail(cause, "%s: must not be empty (leave it "
		    "out to match all)", path));
	cJSON_ArrayForEach(item, list) {
		snprintf(ipath, sizeof ipath, "%s[%d]", path, i++);
		if (ratelimit_enum(item, ipath, allowed, cause) != 0)
			return (-1);
	}
	return (0);
}

static int
ratelimit_check_request(const cJSON *r, char **cause)
{
	const cJSON	*url;

	if (ratelimit_need(r, "match.request", "an object with url",
	    cause) != 0 || ratelimit_object(r, "match.request", cause) != 0)
		return (-1);
	if (ratelimit_enums(ratelimit_member(r, "methods"),
	    "match.request.methods", legacyrl_methods, cause) != 0 ||
	    ratelimit_enums(ratelimit_member(r, "schemes"),
	    "match.request.schemes", legacyrl_schemes, cause) != 0)
		return (-1);
	url = ratelimit_member(r, "url");
	if (ratelimit_need(url, "match.request.url", "a pattern such as "
	    "example.com/path* (* matches all traffic)", cause) != 0 ||
	    ratelimit_string(url, "match.request.url", LEGACYRL_TEXT_MAX, 1,
	    cause) != 0)
		return (-1);
	return (0);
}

static int
ratelimit_check_headers(const cJSON *list, char **cause)
{
	const cJSON	*h, *v;
	char		 path[64];
	int		 i = 0;

	if (list == NULL)
		return (0);
	if (!cJSON_IsArray(list))
		return (util_fail(cause, "match.headers: must be an "
		    "array, not %s", jsonutil_type_name(list)));
	cJSON_ArrayForEach(h, list) {
		snprintf(path, sizeof path, "match.headers[%d]", i);
		if (ratelimit_object(h, path, cause) != 0)
			return (-1);
		snprintf(path, sizeof path, "match.headers[%d].name", i);
		v = ratelimit_member(h, "name");
		if (ratelimit_need(v, path, "a header name", cause) != 0 ||
		    ratelimit_string(v, path, LEGACYRL_TEXT_MAX, 1, cause) != 0)
			return (-1);
		snprintf(path, sizeof path, "match.headers[%d].op", i);
		v = ratelimit_member(h, "op");
		if (ratelimit_need(v, path, "eq or ne", cause) != 0 ||
		    ratelimit_enum(v, path, legacyrl_ops, cause) != 0)
			return (-1);
		snprintf(path, sizeof path, "match.headers[%d].value", i);
		v = ratelimit_member(h, "value");
		if (ratelimit_need(v, path, "a string", cause) != 0 ||
		    ratelimit_string(v, path, LEGACYRL_TEXT_MAX, 0, cause) != 0)
			return (-1);
		i++;
	}
	return (0);
}

static int
ratelimit_check_match(const cJSON *rule, char **cause)
{
	const cJSON	*m, *r;

	m = ratelimit_member(rule, "match");
	if (ratelimit_need(m, "match", "an object with request", cause) != 0 ||
	    ratelimit_object(m, "match", cause) != 0)
		return (-1);
	if (ratelimit_check_request(ratelimit_member(m, "request"), cause) != 0)
		return (-1);
	if ((r = ratelimit_member(m, "response")) != NULL) {
		if (ratelimit_object(r, "match.response", cause) != 0 ||
		    ratelimit_bool(ratelimit_member(r, "origin_traffic"),
		    "match.response.origin_traffic", cause) != 0)
			return (-1);
	}
	return (ratelimit_check_headers(ratelimit_member(m, "headers"), cause));
}

static int
ratelimit_check_response(const cJSON *r, char **cause)
{
	const cJSON	*v;

	if (ratelimit_object(r, "action.response", cause) != 0)
		return (-1);
	v = ratelimit_member(r, "content_type");
	if (ratelimit_need(v, "action.response.content_type", "text/plain, "
	    "text/xml or application/json", cause) != 0 ||
	    ratelimit_enum(v, "action.response.content_type",
	    legacyrl_content_types, cause) != 0)
		return (-1);
	v = ratelimit_member(r, "body");
	if (ratelimit_need(v, "action.response.body", "a string", cause) != 0 ||
	    ratelimit_string(v, "action.response.body", LEGACYRL_BODY_MAX, 0,
	    cause) != 0)
		return (-1);
	return (0);
}

/*
 * ban and simulate need a timeout (how long the action lasts); the challenge
 * modes use the zone's Challenge Passage time and challenge page instead, so
 * the spec says not to send timeout or response with them: we refuse both.
 */
static int
ratelimit_check_action(const cJSON *rule, long period, char **cause)
{
	const cJSON	*a, *mode, *t, *r;
	long		 timeout;

	a = ratelimit_member(rule, "action");
	if (ratelimit_need(a, "action", "an object with mode", cause) != 0 ||
	    ratelimit_object(a, "action", cause) != 0)
		return (-1);
	mode = ratelimit_member(a, "mode");
	if (ratelimit_need(mode, "action.mode", "simulate, ban, challenge, "
	    "js_challenge or managed_challenge", cause) != 0 ||
	    ratelimit_enum(mode, "action.mode", legacyrl_modes, cause) != 0)
		return (-1);
	t = ratelimit_member(a, "timeout");
	r = ratelimit_member(a, "response");
	if (!legacyrl_mode_lasts(mode->valuestring)) {
		if (t != NULL)
			return (util_fail(cause, "action.timeout: "
			    LEGACYRL_TIMEOUT_LEFT_OUT, mode->valuestring));
		if (r != NULL)
			return (util_fail(cause, "action.response: "
			    LEGACYRL_RESPONSE_LEFT_OUT, mode->valuestring));
		return (0);
	}
	if (ratelimit_need(t, "action.timeout", "seconds from the period to "
	    "86400 when action.mode is ban or simulate", cause) != 0 ||
	    ratelimit_integer(t, "action.timeout", 1, LEGACYRL_TIMEOUT_MAX,
	    &timeout, cause) != 0)
		return (-1);
	if (!legacyrl_timeout_ok(timeout, period))
		return (util_fail(cause, "action.timeout: %ld is less "
		    "than the period (%ld)", timeout, period));
	if (r != NULL && ratelimit_check_response(r, cause) != 0)
		return (-1);
	return (0);
}

static int
ratelimit_check_bypass(const cJSON *list, char **cause)
{
	const cJSON	*b, *v;
	char		 path[64];
	int		 i = 0;

	if (list == NULL)
		return (0);
	if (!cJSON_IsArray(list))
		return (util_fail(cause, "bypass: must be an array, "
		    "not %s", jsonutil_type_name(list)));
	cJSON_ArrayForEach(b, list) {
		snprintf(path, sizeof path, "bypass[%d]", i);
		if (ratelimit_object(b, path, cause) != 0)
			return (-1);
		snprintf(path, sizeof path, "bypass[%d].name", i);
		v = ratelimit_member(b, "name");
		if (ratelimit_need(v, path, "url", cause) != 0 ||
		    ratelimit_enum(v, path, legacyrl_bypass_names, cause) != 0)
			return (-1);
		snprintf(path, sizeof path, "bypass[%d].value", i);
		v = ratelimit_member(b, "value");
		if (ratelimit_need(v, path, "a URL pattern", cause) != 0 ||
		    ratelimit_string(v, path, LEGACYRL_TEXT_MAX, 1, cause) != 0)
			return (-1);
		i++;
	}
	return (0);
}

/*
 * Check a create or update body (id aside); on failure say which field and
 * why. The required fields come first, in the spec's order.
 */
int
ratelimit_validate(const cJSON *rule, char **cause)
{
	const cJSON	*v;
	long		 threshold, period;

	if (!cJSON_IsObject(rule))
		return (util_fail(cause, "the body must be a JSON object, "
		    "not %s", jsonutil_type_name(rule)));
	if (ratelimit_check_match(rule, cause) != 0)
		return (-1);
	v = ratelimit_member(rule, "threshold");
	if (ratelimit_need(v, "threshold", "the number of requests that "
	    "triggers the action", cause) != 0 ||
	    ratelimit_integer(v, "threshold", 1, RATELIMIT_THRESHOLD_MAX,
	    &threshold, cause) != 0)
		return (-1);
	v = ratelimit_member(rule, "period");
	if (ratelimit_need(v, "period", "seconds from 10 to 86400",
	    cause) != 0 ||
	    ratelimit_integer(v, "period", LEGACYRL_PERIOD_MIN,
	    LEGACYRL_PERIOD_MAX, &period, cause) != 0)
		return (-1);
	if (ratelimit_check_action(rule, period, cause) != 0)
		return (-1);
	v = ratelimit_member(rule, "description");
	if (v != NULL && ratelimit_string(v, "description",
	    LEGACYRL_TEXT_MAX, 0, cause) != 0)
		return (-1);
	if (ratelimit_bool(ratelimit_member(rule, "disabled"), "disabled",
	    cause) != 0)
		return (-1);
	return (ratelimit_check_bypass(ratelimit_member(rule, "bypass"),
	    cause));
}

/* ---- the rule as the service returns it -------------------------------- */

static void
ratelimit_copy_string(cJSON *to, const cJSON *from, const char *key)
{
	cJSON_AddStringToObject(to, key,
	    ratelimit_member(from, key)->valuestring);
}

/* A list of strings, or the service's default when it was left out. */
static cJSON *
ratelimit_strings(const cJSON *list, const char *def)
{
	cJSON		*out = cJSON_CreateArray();
	const cJSON	*item;

	if (list == NULL)
		cJSON_AddItemToArray(out, cJSON_CreateString(def));
	cJSON_ArrayForEach(item, list) {
		cJSON_AddItemToArray(out,
		    cJSON_CreateString(item->valuestring));
	}
	return (out);
}

static cJSON *
ratelimit_norm_match(const cJSON *m)
{
	cJSON		*out = cJSON_CreateObject(), *r, *list, *h;
	const cJSON	*src, *v, *item;

	src = ratelimit_member(m, "request");
	r = cJSON_AddObjectToObject(out, "request");
	cJSON_AddItemToObject(r, "methods",
	    ratelimit_strings(ratelimit_member(src, "methods"), "_ALL_"));
	cJSON_AddItemToObject(r, "schemes",
	    ratelimit_strings(ratelimit_member(src, "schemes"), "_ALL_"));
	ratelimit_copy_string(r, src, "url");

	if ((src = ratelimit_member(m, "response")) != NULL) {
		r = cJSON_AddObjectToObject(out, "response");
		if ((v = ratelimit_member(src, "origin_traffic")) != NULL)
			cJSON_AddBoolToObject(r, "origin_traffic",
			    cJSON_IsTrue(v));
	}
	if ((src = ratelimit_member(m, "headers")) != NULL) {
		list = cJSON_AddArrayToObject(out, "headers");
		cJSON_ArrayForEach(item, src) {
			h = cJSON_CreateObject();
			ratelimit_copy_string(h, item, "name");
			ratelimit_copy_string(h, item, "op");
			ratelimit_copy_string(h, item, "value");
			cJSON_AddItemToArray(list, h);
		}
	}
	return (out);
}

static cJSON *
ratelimit_norm_action(const cJSON *a)
{
	cJSON		*out = cJSON_CreateObject(), *r;
	const cJSON	*v;

	ratelimit_copy_string(out, a, "mode");
	if ((v = ratelimit_member(a, "timeout")) != NULL)
		cJSON_AddNumberToObject(out, "timeout", v->valuedouble);
	if ((v = ratelimit_member(a, "response")) != NULL) {
		r = cJSON_AddObjectToObject(out, "response");
		ratelimit_copy_string(r, v, "content_type");
		ratelimit_copy_string(r, v, "body");
	}
	return (out);
}

/*
 * The rule as stored and returned, from a body that passed
 * ratelimit_validate: known fields only, in the service's order, with its
 * defaults filled in and tags stripped from the description.
 */
cJSON *
ratelimit_normalise(const cJSON *rule, const char *id)
{
	cJSON		*out = cJSON_CreateObject(), *list, *b;
	const cJSON	*v, *item;
	char		*desc;

	cJSON_AddStringToObject(out, "id", id);
	cJSON_AddBoolToObject(out, "disabled",
	    cJSON_IsTrue(ratelimit_member(rule, "disabled")));
	v = ratelimit_member(rule, "description");
	desc = util_strip_tags(v != NULL ? v->valuestring : "");
	cJSON_AddStringToObject(out, "description", desc);
	free(desc);
	cJSON_AddItemToObject(out, "match",
	    ratelimit_norm_match(ratelimit_member(rule, "match")));
	list = cJSON_AddArrayToObject(out, "bypass");
	cJSON_ArrayForEach(item, ratelimit_member(rule, "bypass")) {
		b = cJSON_CreateObject();
		ratelimit_copy_string(b, item, "name");
		ratelimit_copy_string(b, item, "value");
		cJSON_AddItemToArray(list, b);
	}
	cJSON_AddNumberToObject(out, "threshold",
	    ratelimit_member(rule, "threshold")->valuedouble);
	cJSON_AddNumberToObject(out, "period",
	    ratelimit_member(rule, "period")->valuedouble);
	cJSON_AddItemToObject(out, "action",
	    ratelimit_norm_action(ratelimit_member(rule, "action")));
	return (out);
}

/* ---- storage ----------------------------------------------------------- */

static void
ratelimit_not_found(struct reply *rep, const char *id)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "rate limit %s was not found",
	    id);
}

/* ---- handlers ---------------------------------------------------------- */

static void
ratelimit_list(struct req *req, struct reply *rep)
{
	static const char	 count_sql[] =
	    "SELECT count(*) FROM ratelimit WHERE zone = ?1";
	static const char	 page_sql[] =
	    "SELECT body FROM ratelimit WHERE zone = ?1"
	    " ORDER BY seq LIMIT ?2 OFFSET ?3";
	sqlite3_stmt		*cst, *pst;
	struct paging		 p;
	cJSON			*list, *rule;
	char			*cause = NULL;
	long			 total;
	int			 rc;

	if (query_paging(&req->query, RATELIMIT_PER_PAGE, 1,
	    LEGACYRL_PER_PAGE_MAX, LEGACYRL_PER_PAGE_STEP, &p, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	cst = store_stmt(req->store, count_sql);
	sqlite3_bind_text(cst, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	if (sqlite3_step(cst) != SQLITE_ROW) {
		reply_store_error(req, rep);
		store_done(cst);
		return;
	}
	total = (long)sqlite3_column_int64(cst, 0);

	/*
	 * The count statement stays open until the page is read, so both run
	 * in one read transaction and total_count matches the page.
	 */
	pst = store_stmt(req->store, page_sql);
	sqlite3_bind_text(pst, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	sqlite3_bind_int64(pst, 2, p.per_page);
	sqlite3_bind_int64(pst, 3, (sqlite3_int64)(p.page - 1) * p.per_page);
	list = cJSON_CreateArray();
	while ((rc = sqlite3_step(pst)) == SQLITE_ROW) {
		rule = cJSON_Parse((const char *)sqlite3_column_text(pst, 0));
		if (rule == NULL)
			break;
		cJSON_AddItemToArray(list, rule);
	}
	if (rc == SQLITE_ROW)
		reply_error(rep, 500, ERR_INTERNAL, "store: a stored rate "
		    "limit is not JSON");
	else if (rc != SQLITE_DONE)
		reply_store_error(req, rep);
	store_done(pst);
	store_done(cst);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(list);
		return;
	}
	reply_page(rep, list, p.page, p.per_page, total);
}

static void
ratelimit_get(struct req *req, struct reply *rep)
{
	const char	*id = req_param(req, "id");
	cJSON		*rule;

	switch (store_doc_get(req->store, ratelimit_get_sql, req_param(req,
	    "zone"), id, &rule)) {
	case 1:
		reply_ok(rep, rule);
		break;
	case 0:
		ratelimit_not_found(rep, id);
		break;
	case -2:
		reply_error(rep, 500, ERR_INTERNAL, "store: rate limit %s is "
		    "not JSON", id);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
}

/* A body is there and passes the checks; otherwise the reply says why. */
static int
ratelimit_body_ok(struct req *req, struct reply *rep)
{
	char	*cause = NULL;

	if (req->json == NULL) {
		reply_error(rep, 400, ERR_VALIDATION,
		    "a JSON body is required");
		return (0);
	}
	if (ratelimit_validate(req->json, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return (0);
	}
	return (1);
}

static void
ratelimit_create(struct req *req, struct reply *rep)
{
	char	 id[HEX32_LEN + 1];
	cJSON	*rule;

	if (!ratelimit_body_ok(req, rep))
		return;
	/* id is read-only: one in the body is ignored, as the service does. */
	util_hex32(id);
	rule = ratelimit_normalise(req->json, id);
	if (store_begin(req->store) != 0 ||
	    store_doc_put(req->store, ratelimit_insert_sql, req_param(req,
	    "zone"), id, rule) < 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(rule);
		return;
	}
	reply_ok(rep, rule);
}

/*
 * The spec lists id among the required fields of an update: it must be there
 * and name the rule in the path, so a body meant for one rule never lands on
 * another.
 */
static int
ratelimit_check_id(const cJSON *body, const char *id, char **cause)
{
	const cJSON	*v = ratelimit_member(body, "id");

	if (ratelimit_need(v, "id", "the id of the rate limit in the path",
	    cause) != 0)
		return (-1);
	if (!cJSON_IsString(v))
		return (util_fail(cause, "id: must be a string, not %s",
		    jsonutil_type_name(v)));
	if (strcmp(v->valuestring, id) != 0)
		return (util_fail(cause, "id: '%.*s' does not match the "
		    "rate limit in the path (%s)",
		    text_quote_len(v->valuestring), v->valuestring, id));
	return (0);
}

static void
ratelimit_update(struct req *req, struct reply *rep)
{
	const char	*id = req_param(req, "id");
	cJSON		*rule;
	char		*cause = NULL;
	int		 found;

	if (!ratelimit_body_ok(req, rep))
		return;
	if (ratelimit_check_id(req->json, id, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	rule = ratelimit_normalise(req->json, id);
	if (store_begin(req->store) != 0 ||
	    (found = store_doc_put(req->store, ratelimit_replace_sql,
	    req_param(req, "zone"), id, rule)) < 0) {
		reply_store_error(req, rep);
		cJSON_Delete(rule);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		ratelimit_not_found(rep, id);
		cJSON_Delete(rule);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(rule);
		return;
	}
	reply_ok(rep, rule);
}

static void
ratelimit_delete(struct req *req, struct reply *rep)
{
	const char	*id = req_param(req, "id");
	cJSON		*result;
	int		 found;

	if (store_begin(req->store) != 0 ||
	    (found = store_doc_delete(req->store, ratelimit_delete_sql,
	    req_param(req, "zone"), id)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		ratelimit_not_found(rep, id);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	result = cJSON_CreateObject();
	cJSON_AddStringToObject(result, "id", id);
	reply_ok(rep, result);
}

/* ---- demo data --------------------------------------------------------- */

/* Eight rules: every action mode, two disabled, bypasses, headers, bodies. */
static const char *const ratelimit_demo_rules[] = {
	"{\"description\":\"Protect the login form from credential stuffing\","
	"\"match\":{\"request\":{\"methods\":[\"POST\"],"
	"\"schemes\":[\"HTTPS\"],"
	"\"url\":\"www.example.com/login*\"},"
	"\"response\":{\"origin_traffic\":false},"
	"\"headers\":[{\"name\":\"Cf-Cache-Status\",\"op\":\"ne\","
	"\"value\":\"HIT\"}]},"
	"\"threshold\":5,\"period\":60,"
	"\"action\":{\"mode\":\"ban\",\"timeout\":900,\"response\":{"
	"\"content_type\":\"application/json\",\"body\":\"{\\\"error\\\":"
	"\\\"too many login attempts, try again in 15 minutes\\\"}\"}}}",

	"{\"description\":\"Public API burst limit (observing before "
	"enforcing)\","
	"\"match\":{\"request\":{\"methods\":[\"GET\",\"POST\",\"PUT\","
	"\"DELETE\"],\"schemes\":[\"HTTPS\"],"
	"\"url\":\"api.example.com/v1/*\"}},"
	"\"bypass\":[{\"name\":\"url\","
	"\"value\":\"api.example.com/v1/health\"},"
	"{\"name\":\"url\",\"value\":\"api.example.com/v1/status*\"}],"
	"\"threshold\":600,\"period\":60,"
	"\"action\":{\"mode\":\"simulate\",\"timeout\":60}}",

	"{\"description\":\"Slow down search scrapers\","
	"\"match\":{\"request\":{\"methods\":[\"GET\"],"
	"\"url\":\"www.example.com/search*\"}},"
	"\"threshold\":30,\"period\":10,"
	"\"action\":{\"mode\":\"challenge\"}}",

	"{\"description\":\"Checkout abuse\","
	"\"match\":{\"request\":{\"methods\":[\"POST\"],"
	"\"schemes\":[\"HTTPS\"],"
	"\"url\":\"shop.example.com/checkout*\"}},"
	"\"threshold\":10,\"period\":300,"
	"\"action\":{\"mode\":\"js_challenge\"}}",

	"{\"description\":\"Password reset requests\",\"disabled\":true,"
	"\"match\":{\"request\":{\"methods\":[\"POST\"],"
	"\"schemes\":[\"HTTPS\"],"
	"\"url\":\"www.example.com/account/reset-password\"}},"
	"\"threshold\":3,\"period\":900,"
	"\"action\":{\"mode\":\"managed_challenge\"}}",

	"{\"description\":\"Block XML-RPC pingback floods\","
	"\"match\":{\"request\":{\"methods\":[\"POST\"],"
	"\"schemes\":[\"HTTP\",\"HTTPS\"],"
	"\"url\":\"blog.example.com/xmlrpc.php\"}},"
	"\"threshold\":20,\"period\":3600,"
	"\"action\":{\"mode\":\"ban\",\"timeout\":86400,\"response\":{"
	"\"content_type\":\"text/xml\",\"body\":\"<error>This request has been "
	"rate-limited.</error>\"}}}",

	"{\"description\":\"Whole-zone flood guard (dry run)\","
	"\"disabled\":true,"
	"\"match\":{\"request\":{\"url\":\"*\"}},"
	"\"bypass\":[{\"name\":\"url\",\"value\":\"www.example.com/static/*\"},"
	"{\"name\":\"url\",\"value\":\"cdn.example.com/*\"}],"
	"\"threshold\":1000,\"period\":10,"
	"\"action\":{\"mode\":\"simulate\",\"timeout\":10}}",

	"{\"description\":\"Image hotlinking that reaches the origin\","
	"\"match\":{\"request\":{\"methods\":[\"GET\",\"HEAD\"],"
	"\"schemes\":[\"HTTP\",\"HTTPS\"],"
	"\"url\":\"cdn.example.com/images/*\"},"
	"\"headers\":[{\"name\":\"Cf-Cache-Status\",\"op\":\"eq\","
	"\"value\":\"MISS\"}]},"
	"\"threshold\":500,\"period\":60,"
	"\"action\":{\"mode\":\"ban\",\"timeout\":300,\"response\":{"
	"\"content_type\":\"text/plain\",\"body\":\"Too many image requests. "
	"Please retry in five minutes.\"}}}",
};

/* Runs inside demo_seed's transaction; ids come from a fixed seed. */
static int
ratelimit_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng	 rng;
	char		 id[HEX32_LEN + 1], *why = NULL;
	cJSON		*body, *rule;
	size_t		 i;
	int		 rc;

	(void)account;
	util_rng_seed(&rng, 0x726174656c696d74ULL);
	for (i = 0; i < nitems(ratelimit_demo_rules); i++) {
		body = cJSON_Parse(ratelimit_demo_rules[i]);
		if (body == NULL)
			fatalx("demo rate limit %zu is not JSON", i);
		if (ratelimit_validate(body, &why) != 0)
			fatalx("demo rate limit %zu: %s", i, why);
		util_rng_hex32(&rng, id);
		rule = ratelimit_normalise(body, id);
		rc = store_doc_put(store, ratelimit_insert_sql, zone, id, rule);
		cJSON_Delete(rule);
		cJSON_Delete(body);
		if (rc < 0) {
			*cause = xprintf("demo rate limits: %s",
			    store_errmsg(store));
			return (-1);
		}
	}
	return (0);
}

/* The cloud retired this API: --legacy-gone makes every route answer 410. */
static const struct route ratelimit_routes[] = {
	{ HTTP_GET, RATELIMIT_PATH, ratelimit_list, ROUTE_BODY_NONE,
	    ROUTE_LEGACY },
	{ HTTP_POST, RATELIMIT_PATH, ratelimit_create, ROUTE_BODY_JSON,
	    ROUTE_LEGACY },
	{ HTTP_GET, RATELIMIT_PATH "/{id:hex32}", ratelimit_get,
	    ROUTE_BODY_NONE, ROUTE_LEGACY },
	{ HTTP_PUT, RATELIMIT_PATH "/{id:hex32}", ratelimit_update,
	    ROUTE_BODY_JSON, ROUTE_LEGACY },
	/* The spec gives DELETE a body; whatever comes is read and ignored. */
	{ HTTP_DELETE, RATELIMIT_PATH "/{id:hex32}", ratelimit_delete,
	    ROUTE_BODY_NONE, ROUTE_LEGACY },
};

const struct area ratelimit_area = {
	.name = "rate-limits",
	.routes = ratelimit_routes,
	.nroutes = nitems(ratelimit_routes),
	.schema = ratelimit_schema,
	.demo = ratelimit_demo,
};
