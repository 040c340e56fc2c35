/*
 * API Shield's discovery: discovered operations, their review state, and
 * the discovered API as OpenAPI.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "internal.h"
#include "text.h"

#define SHIELD_DISC_COLS						\
	"id, method, host, endpoint, last_updated, state, origin,"	\
	" requests, period_seconds, stats_updated"

static cJSON *
shield_disc_json(sqlite3_stmt *st)
{
	cJSON	*d = cJSON_CreateObject(), *origin, *ts;
	int	 bits = sqlite3_column_int(st, 6);

	cJSON_AddStringToObject(d, "id", shield_col_text(st, 0));
	cJSON_AddStringToObject(d, "method", shield_col_text(st, 1));
	cJSON_AddStringToObject(d, "host", shield_col_text(st, 2));
	cJSON_AddStringToObject(d, "endpoint", shield_col_text(st, 3));
	cJSON_AddStringToObject(d, "last_updated", shield_col_text(st, 4));
	cJSON_AddStringToObject(d, "state", shield_col_text(st, 5));
	origin = cJSON_AddArrayToObject(d, "origin");
	if (bits & SHIELD_ORIGIN_ML)
		cJSON_AddItemToArray(origin, cJSON_CreateString("ML"));
	if (bits & SHIELD_ORIGIN_SESSION)
		cJSON_AddItemToArray(origin,
		    cJSON_CreateString("SessionIdentifier"));
	ts = cJSON_AddObjectToObject(cJSON_AddObjectToObject(d, "features"),
	    "traffic_stats");
	cJSON_AddNumberToObject(ts, "requests", sqlite3_column_double(st, 7));
	cJSON_AddNumberToObject(ts, "period_seconds",
	    (double)sqlite3_column_int64(st, 8));
	cJSON_AddStringToObject(ts, "last_updated", shield_col_text(st, 9));
	return (d);
}

static cJSON *
shield_disc_row(struct req *req, sqlite3_stmt *st, void *arg)
{
	(void)req;
	(void)arg;
	return (shield_disc_json(st));
}

/* ORDER BY for discovered operations: the key, ties by seq. */
static char *
shield_disc_order(const char *order, int desc, char **cause)
{
	const char	*dir = desc ? "DESC" : "ASC";

	if (order == NULL)
		return (xprintf("seq %s", dir));
	if (!apirules_in(shieldrules_disc_orders, order)) {
		util_fail(cause, "order: '%.*s' is not one of host, method, "
		    "endpoint, traffic_stats.requests or "
		    "traffic_stats.last_updated", text_quote_len(order), order);
		return (NULL);
	}
	if (strcmp(order, "traffic_stats.requests") == 0)
		return (xprintf("requests %s, seq %s", dir, dir));
	if (strcmp(order, "traffic_stats.last_updated") == 0)
		return (xprintf("stats_updated %s, seq %s", dir, dir));
	return (xprintf("%s %s, seq %s", order, dir, dir));
}

void
shield_disc_list(struct req *req, struct reply *rep)
{
	struct shield_filter	 f;
	struct shield_binds	 b;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	const char		*state, *origin;
	char			*cause = NULL, *order = NULL;
	cJSON			*list = NULL;
	long			 total = -1;
	int			 desc, diff;

	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELDRULES_PER_PAGE_MIN,
	    SHIELDRULES_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
	    shield_parse_direction(&req->query, &desc, &cause) != 0 ||
	    query_enum(&req->query, "state", shieldrules_disc_states, &state,
	    &cause) != 0 ||
	    query_enum(&req->query, "origin", shieldrules_disc_origins,
	    &origin, &cause) != 0 ||
	    query_bool(&req->query, "diff", 0, &diff, &cause) != 0 ||
	    (order = shield_disc_order(query_get(&req->query, "order"), desc,
	    &cause)) == NULL) {
		shield_bad(rep, cause);
		return;
	}
	if (shield_filter_parse(&req->query, &f, &cause) != 0) {
		free(order);
		shield_bad(rep, cause);
		return;
	}
	b.n = 0;
	buf_addf(&w, "FROM shield_disc WHERE zone = ?%d",
	    shield_bind_text(&b, req_param(req, "zone")));
	shield_filter_where(&f, "", &w, &b);
	if (state != NULL)
		buf_addf(&w, " AND state = ?%d", shield_bind_text(&b, state));
	if (origin != NULL)
		buf_addf(&w, " AND (origin & ?%d) <> 0", shield_bind_num(&b,
		    strcmp(origin, "ML") == 0 ? SHIELD_ORIGIN_ML :
		    SHIELD_ORIGIN_SESSION));
	/* diff: only what is not yet in endpoint management. */
	if (diff)
		buf_adds(&w, " AND state <> 'saved'");
	if (shield_run_page(req, SHIELD_DISC_COLS, buf_str(&w), order, &b, &p,
	    shield_disc_row, NULL, &list, &total) != 0)
		reply_store_error(req, rep);
	else
		reply_page(rep, list, p.page, p.per_page, total);
	buf_free(&w);
	free(order);
	shield_filter_free(&f);
}

/*
 * The state a PATCH may set: review or ignored. saved is refused, since
 * only adding the operation to endpoint management saves it.
 */
static int
shield_disc_parse_state(const cJSON *entry, const char *path,
    const char **state, char **cause)
{
	const cJSON	*v;
	const char	*sep = *path != '\0' ? "." : "";

	if (!cJSON_IsObject(entry))
		return (util_fail(cause, "%s: must be an object with state, "
		    "not %s", *path != '\0' ? path : "the body",
		    shield_type_name(entry)));
	v = cJSON_GetObjectItemCaseSensitive(entry, "state");
	if (v == NULL || cJSON_IsNull(v))
		return (util_fail(cause, "%s%sstate: required, review or "
		    "ignored", path, sep));
	if (cJSON_IsString(v) && strcmp(v->valuestring, "saved") == 0)
		return (util_fail(cause, "%s%sstate: saved cannot be set "
		    "here; adding the operation to endpoint management "
		    "(POST /operations) saves it", path, sep));
	if (!cJSON_IsString(v) ||
	    !apirules_in(shieldrules_disc_settable, v->valuestring))
		return (util_fail(cause, "%s%sstate: must be review or "
		    "ignored", path, sep));
	*state = v->valuestring;
	return (0);
}

/*
 * Set a discovered operation's state. A saved one stays saved while its
 * operation is in endpoint management: 409, with the way out. Returns 0,
 * or -1 after replying. In the route's transaction.
 */
static int
shield_disc_set(struct req *req, struct reply *rep, const char *id,
    const char *state)
{
	static const char	 get_sql[] =
	    "SELECT state FROM shield_disc WHERE zone = ?1 AND id = ?2";
	static const char	 set_sql[] =
	    "UPDATE shield_disc SET state = ?3 WHERE zone = ?1 AND id = ?2";
	const char		*zone = req_param(req, "zone");
	sqlite3_stmt		*st;
	char			*cur;
	int			 rc, saved;

	rc = store_get_text(req->store, get_sql, &cur, zone, id, NULL);
	saved = cur != NULL && strcmp(cur, "saved") == 0;
	free(cur);
	if (rc < 0) {
		reply_store_error(req, rep);
		return (-1);
	}
	if (rc == 0) {
		shield_not_found(rep, "discovered operation", id);
		return (-1);
	}
	if (saved) {
		reply_error(rep, 409, ERR_CONFLICT, "discovered operation %s "
		    "is saved in endpoint management; delete that operation "
		    "to set its state to %s", id, state);
		return (-1);
	}
	st = store_stmt(req->store, set_sql);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, state, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		return (-1);
	}
	return (0);
}

static cJSON *
shield_state_json(const char *state)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "state", state);
	return (o);
}

void
shield_disc_patch_one(struct req *req, struct reply *rep)
{
	const char	*state;
	char		 id[UUID_LEN + 1], *cause = NULL;

	if (shield_disc_parse_state(req->json, "", &state, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	shield_lower_id(req_param(req, "operation_id"), id);
	if (shield_disc_set(req, rep, id, state) != 0)
		return;
	reply_ok(rep, shield_state_json(state));
}

/* {"<id>": {"state": ...}, ...}: all or nothing, answered with the map. */
void
shield_disc_patch_bulk(struct req *req, struct reply *rep)
{
	const cJSON	*entry;
	const char	*state;
	char		 id[UUID_LEN + 1], *cause = NULL;
	cJSON		*result;

	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "the body must be a JSON "
		    "object mapping discovered operation ids to {\"state\"}");
		return;
	}
	cJSON_ArrayForEach(entry, req->json) {
		if (!apirules_uuid_ok(entry->string)) {
			reply_error(rep, 400, ERR_VALIDATION, "'%.*s': not a "
			    "discovered operation id (a UUID)",
			    text_quote_len(entry->string), entry->string);
			return;
		}
		if (shield_disc_parse_state(entry, entry->string, &state,
		    &cause) != 0) {
			shield_bad(rep, cause);
			return;
		}
	}
	if (shield_map_ids_once(req->json, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	result = cJSON_CreateObject();
	cJSON_ArrayForEach(entry, req->json) {
		shield_disc_parse_state(entry, entry->string, &state, &cause);
		shield_lower_id(entry->string, id);
		if (shield_disc_set(req, rep, id, state) != 0) {
			cJSON_Delete(result);
			return;
		}
		cJSON_AddItemToObject(result, id, shield_state_json(state));
	}
	reply_ok(rep, result);
}

/*
 * GET /discovery: what discovery found, as OpenAPI; ignored operations are
 * left out, as the user has said they are noise. The timestamp is that of
 * the last discovery run (kept by whoever ran it), else the newest finding.
 */
void
shield_disc_openapi(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT method, host, endpoint, last_updated FROM shield_disc"
	    " WHERE zone = ?1 AND state <> 'ignored'"
	    " ORDER BY host, endpoint, method";
	struct shield_oa_builder ob;
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	char			 newest[ISO_TIME_LEN] = "", *run;
	int			 rc;

	shield_oa_begin(&ob);
	sqlite3_bind_text(st, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		shield_oa_add(&ob, shield_col_text(st, 0),
		    shield_col_text(st, 1), shield_col_text(st, 2));
		if (strcmp(shield_col_text(st, 3), newest) > 0)
			snprintf(newest, sizeof newest, "%s",
			    shield_col_text(st, 3));
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		cJSON_Delete(shield_oa_end(&ob));
		return;
	}
	run = store_kv_get(req->store, req_param(req, "zone"),
	    "api_gateway.discovery_run");
	reply_ok(rep, shield_oa_result(shield_oa_end(&ob), run != NULL ? run :
	    newest));
	free(run);
}
