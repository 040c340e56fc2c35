/*
 * API Shield's current Schema Validation API (/zones/{zone}/schema_validation):
 * schemas uploaded as JSON, the zone's settings and each operation's
 * mitigation action, over the same tables and settings as the classic
 * /api_gateway routes, so an id from one path works on the other.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "internal.h"
#include "text.h"

/*
 * With --no-schema-validation-api the routes answer as if they were not
 * there, as a server with only the classic API does: clients fall back.
 */
static int
shield_sv_off(struct req *req, struct reply *rep)
{
	if (!server_options(req->server)->no_sv_api)
		return (0);
	reply_error(rep, 404, ERR_NO_ROUTE, "No route for the URI");
	return (1);
}

/* ---- schemas ----------------------------------------------------------- */

void
shield_sv_schema_list(struct req *req, struct reply *rep)
{
	if (!shield_sv_off(req, rep))
		shield_us_list(req, rep);
}

void
shield_sv_schema_get(struct req *req, struct reply *rep)
{
	if (!shield_sv_off(req, rep))
		shield_us_get(req, rep);
}

void
shield_sv_schema_delete(struct req *req, struct reply *rep)
{
	if (!shield_sv_off(req, rep))
		shield_us_delete(req, rep);
}

/* A required, non-empty string member of the upload, or NULL with *cause. */
static const char *
shield_sv_string(const cJSON *body, const char *name, const char *what,
    char **cause)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(body, name);

	if (v == NULL || cJSON_IsNull(v)) {
		util_fail(cause, "%s: required, %s", name, what);
		return (NULL);
	}
	if (!cJSON_IsString(v)) {
		util_fail(cause, "%s: must be a string (%s), not %s", name,
		    what, shield_type_name(v));
		return (NULL);
	}
	if (*v->valuestring == '\0' || !util_utf8_valid(v->valuestring,
	    strlen(v->valuestring))) {
		util_fail(cause, "%s: must be non-empty UTF-8 text (%s)", name,
		    what);
		return (NULL);
	}
	return (v->valuestring);
}

/*
 * POST /schemas: {kind, name, source, validation_enabled} in JSON, the
 * source the document's text. Checked as the classic upload checks a file,
 * with the same upload_details on refusal; the result is the schema.
 */
void
shield_sv_schema_create(struct req *req, struct reply *rep)
{
	const char	*kind, *name, *source;
	const cJSON	*ve;
	char		 id[UUID_LEN + 1], now[ISO_TIME_LEN], *cause = NULL;
	cJSON		*doc, *failure, *warnings, *ops;
	int		 enabled;

	if (shield_sv_off(req, rep))
		return;
	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "the body must be a JSON "
		    "object: {\"kind\", \"name\", \"source\", "
		    "\"validation_enabled\"}");
		return;
	}
	if ((kind = shield_sv_string(req->json, "kind", "openapi_v3",
	    &cause)) == NULL ||
	    (name = shield_sv_string(req->json, "name", "the schema's name",
	    &cause)) == NULL ||
	    (source = shield_sv_string(req->json, "source", "the OpenAPI "
	    "document's text, JSON or YAML", &cause)) == NULL) {
		shield_bad(rep, cause);
		return;
	}
	if (!apirules_in(shieldrules_schema_kinds, kind)) {
		reply_error(rep, 400, ERR_VALIDATION, "kind: '%.*s' is not "
		    "supported (only openapi_v3)", text_quote_len(kind), kind);
		return;
	}
	ve = cJSON_GetObjectItemCaseSensitive(req->json, "validation_enabled");
	if (ve != NULL && !cJSON_IsNull(ve) && !cJSON_IsBool(ve)) {
		reply_error(rep, 400, ERR_VALIDATION, "validation_enabled: "
		    "must be true or false, not %s", shield_type_name(ve));
		return;
	}
	/* Validation is opt-in: it blocks traffic, so it is never implied. */
	enabled = cJSON_IsTrue(ve);
	if ((doc = shield_openapi_load(source, strlen(source),
	    &failure)) == NULL) {
		shield_upload_refused(rep, failure);
		return;
	}
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	cJSON_Delete(doc);
	cJSON_Delete(warnings);
	util_uuid(id);
	util_now_iso(now);
	if (shield_us_insert(req->store, req_param(req, "zone"), id, name,
	    source, now, enabled, ops) != 0)
		reply_store_error(req, rep);
	else
		reply_ok(rep, shield_us_object(id, name, source, now,
		    enabled));
	cJSON_Delete(ops);
}

/*
 * PATCH /schemas/{id}: validation_enabled true or false (the classic PATCH
 * takes only true). Without it nothing changes.
 */
void
shield_sv_schema_patch(struct req *req, struct reply *rep)
{
	const cJSON	*v;

	if (shield_sv_off(req, rep))
		return;
	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "the body must be a JSON "
		    "object: {\"validation_enabled\": true or false}");
		return;
	}
	v = cJSON_GetObjectItemCaseSensitive(req->json, "validation_enabled");
	if (v != NULL && !cJSON_IsBool(v)) {
		reply_error(rep, 400, ERR_VALIDATION, "validation_enabled: "
		    "must be true or false, not %s", shield_type_name(v));
		return;
	}
	shield_us_enable(req, rep, v);
}

/* ---- zone settings ----------------------------------------------------- */

void
shield_sv_settings_get(struct req *req, struct reply *rep)
{
	if (!shield_sv_off(req, rep))
		shield_settings_get(req, rep);
}

/*
 * The two fields of a PUT (patch 0) or PATCH (patch 1) into s. PUT needs
 * the default and reads an absent override as none; PATCH leaves what is
 * absent. A null override removes it. disable_override is the classic
 * API's: refused here.
 */
static int
shield_sv_settings_apply(const cJSON *body, int patch, cJSON *s,
    char **cause)
{
	const cJSON	*d, *o;
	size_t		 i;

	if (!cJSON_IsObject(body))
		return (util_fail(cause, "the body must be a JSON object: "
		    "{\"validation_default_mitigation_action\", "
		    "\"validation_override_mitigation_action\"}"));
	d = cJSON_GetObjectItemCaseSensitive(body,
	    "validation_default_mitigation_action");
	o = cJSON_GetObjectItemCaseSensitive(body,
	    "validation_override_mitigation_action");
	if (!patch && d == NULL)
		return (util_fail(cause, "validation_default_mitigation_"
		    "action: required, none, log or block"));
	if (d != NULL) {
		for (i = 0; shieldrules_actions[i] != NULL; i++) {
			if (cJSON_IsString(d) && strcmp(d->valuestring,
			    shieldrules_actions[i]) == 0)
				break;
		}
		if (shieldrules_actions[i] == NULL && cJSON_IsString(d))
			return (util_fail(cause, "validation_default_"
			    "mitigation_action: '%.*s' is not one of none, "
			    "log or block", text_quote_len(d->valuestring),
			    d->valuestring));
		if (shieldrules_actions[i] == NULL)
			return (util_fail(cause, "validation_default_"
			    "mitigation_action: must be none, log or block, "
			    "not %s", shield_type_name(d)));
	}
	if (cJSON_IsString(o) && strcmp(o->valuestring,
	    "disable_override") == 0)
		return (util_fail(cause, "validation_override_mitigation_"
		    "action: disable_override belongs to the classic API; "
		    "here null removes the override"));
	if (o != NULL && !cJSON_IsNull(o) && (!cJSON_IsString(o) ||
	    strcmp(o->valuestring, "none") != 0))
		return (util_fail(cause, "validation_override_mitigation_"
		    "action: must be \"none\" or null"));
	if (d != NULL)
		cJSON_ReplaceItemInObject(s,
		    "validation_default_mitigation_action",
		    cJSON_CreateString(d->valuestring));
	if (o != NULL || !patch)
		cJSON_ReplaceItemInObject(s,
		    "validation_override_mitigation_action",
		    cJSON_IsString(o) ? cJSON_CreateString("none") :
		    cJSON_CreateNull());
	return (0);
}

static void
shield_sv_settings_write(struct req *req, struct reply *rep, int patch)
{
	if (shield_sv_off(req, rep))
		return;
	/* The classic settings' record: both APIs read the same values. */
	shield_settings_write(req, rep, patch, shield_sv_settings_apply);
}

void
shield_sv_settings_put(struct req *req, struct reply *rep)
{
	shield_sv_settings_write(req, rep, 0);
}

void
shield_sv_settings_patch(struct req *req, struct reply *rep)
{
	shield_sv_settings_write(req, rep, 1);
}

/* ---- per-operation settings -------------------------------------------- */

static cJSON *
shield_sv_op_json(const char *id, const char *action)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "operation_id", id);
	if (action != NULL)
		cJSON_AddStringToObject(o, "mitigation_action", action);
	else
		cJSON_AddNullToObject(o, "mitigation_action");
	return (o);
}

static cJSON *
shield_sv_op_row(struct req *req, sqlite3_stmt *st, void *arg)
{
	(void)req;
	(void)arg;
	return (shield_sv_op_json(shield_col_text(st, 0),
	    shield_col_text(st, 1)));
}

/* Only operations with an action of their own, in creation order. */
void
shield_sv_ops_list(struct req *req, struct reply *rep)
{
	struct shield_binds	 b;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	char			*cause = NULL;
	cJSON			*list = NULL;
	long			 total = -1;

	if (shield_sv_off(req, rep))
		return;
	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELDRULES_PER_PAGE_MIN,
	    SHIELDRULES_PER_PAGE_MAX, 0, &p, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	b.n = 0;
	buf_addf(&w, "FROM shield_op WHERE zone = ?%d"
	    " AND mitigation IS NOT NULL",
	    shield_bind_text(&b, req_param(req, "zone")));
	if (shield_run_page(req, "id, mitigation", buf_str(&w), "seq", &b, &p,
	    shield_sv_op_row, NULL, &list, &total) != 0)
		reply_store_error(req, rep);
	else
		reply_page(rep, list, p.page, p.per_page, total);
	buf_free(&w);
}

/* The map {"<id>": {"mitigation_action": ...}}: the classic bulk call's. */
void
shield_sv_ops_bulk(struct req *req, struct reply *rep)
{
	if (!shield_sv_off(req, rep))
		shield_op_sv_bulk(req, rep);
}

void
shield_sv_op_get(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT mitigation FROM shield_op WHERE zone = ?1 AND id = ?2";
	char			 id[UUID_LEN + 1], *action = NULL;
	int			 rc;

	if (shield_sv_off(req, rep))
		return;
	shield_lower_id(req_param(req, "operation_id"), id);
	rc = store_get_text(req->store, sql, &action, req_param(req, "zone"),
	    id, NULL);
	if (rc == 1)
		reply_ok(rep, shield_sv_op_json(id, action));
	else if (rc == 0)
		shield_not_found(rep, "operation", id);
	else
		reply_store_error(req, rep);
	free(action);
}

/* Set (or with null clear) one operation's action; -1 after replying. */
static int
shield_sv_op_write(struct req *req, struct reply *rep, const char *action,
    char id[UUID_LEN + 1])
{
	int	found;

	shield_lower_id(req_param(req, "operation_id"), id);
	if ((found = shield_op_set_mitigation(req->store,
	    req_param(req, "zone"), id, action)) < 0) {
		reply_store_error(req, rep);
		return (-1);
	}
	if (!found) {
		shield_not_found(rep, "operation", id);
		return (-1);
	}
	return (0);
}

/* PUT needs mitigation_action, null included: absent could mean either. */
void
shield_sv_op_put(struct req *req, struct reply *rep)
{
	const char	*action;
	char		 id[UUID_LEN + 1], *cause = NULL;

	if (shield_sv_off(req, rep))
		return;
	if (shield_parse_mitigation(req->json, "", 1, &action,
	    &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	if (shield_sv_op_write(req, rep, action, id) == 0)
		reply_ok(rep, shield_sv_op_json(id, action));
}

void
shield_sv_op_delete(struct req *req, struct reply *rep)
{
	char	 id[UUID_LEN + 1];
	cJSON	*o;

	if (shield_sv_off(req, rep))
		return;
	if (shield_sv_op_write(req, rep, NULL, id) != 0)
		return;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "operation_id", id);
	reply_ok(rep, o);
}
