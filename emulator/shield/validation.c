/*
 * API Shield's operation-level schema validation: each operation's
 * mitigation action, one at a time or in bulk.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "internal.h"
#include "text.h"

/*
 * mitigation_action: log, block, none, or null (no operation-level action:
 * the zone's default applies). *out is NULL for null.
 */
int
shield_parse_mitigation(const cJSON *entry, const char *path, int required,
    const char **out, char **cause)
{
	const cJSON	*v;
	const char	*sep = *path != '\0' ? "." : "";
	size_t		 i;

	*out = NULL;
	if (!cJSON_IsObject(entry))
		return (util_fail(cause, "%s: must be an object with "
		    "mitigation_action, not %s", *path != '\0' ? path :
		    "the body", shield_type_name(entry)));
	v = cJSON_GetObjectItemCaseSensitive(entry, "mitigation_action");
	if (v == NULL && required)
		return (util_fail(cause, "%s%smitigation_action: required, "
		    "log, block, none or null", path, sep));
	if (v == NULL || cJSON_IsNull(v))
		return (0);
	for (i = 0; cJSON_IsString(v) && shieldrules_actions[i] != NULL; i++) {
		if (strcmp(v->valuestring, shieldrules_actions[i]) == 0) {
			*out = shieldrules_actions[i];
			return (0);
		}
	}
	if (cJSON_IsString(v))
		return (util_fail(cause, "%s%smitigation_action: '%.*s' is "
		    "not one of log, block, none or null", path, sep,
		    text_quote_len(v->valuestring), v->valuestring));
	return (util_fail(cause, "%s%smitigation_action: must be log, "
	    "block, none or null, not %s", path, sep, shield_type_name(v)));
}

static cJSON *
shield_mitigation_json(const char *action)
{
	cJSON	*o = cJSON_CreateObject();

	if (action != NULL)
		cJSON_AddStringToObject(o, "mitigation_action", action);
	else
		cJSON_AddNullToObject(o, "mitigation_action");
	return (o);
}

/* Set an operation's action; 1 if it was there, 0 if not, -1 on failure. */
int
shield_op_set_mitigation(struct store *store, const char *zone,
    const char *id, const char *action)
{
	static const char	 sql[] =
	    "UPDATE shield_op SET mitigation = ?3 WHERE zone = ?1 AND id = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	if (action != NULL)
		sqlite3_bind_text(st, 3, action, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	return (sqlite3_changes(store_db(store)) != 0);
}

void
shield_op_sv_get(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT mitigation FROM shield_op WHERE zone = ?1 AND id = ?2";
	char			 id[UUID_LEN + 1], *action;
	int			 rc;

	shield_lower_id(req_param(req, "operation_id"), id);
	rc = store_get_text(req->store, sql, &action, req_param(req, "zone"),
	    id, NULL);
	if (rc == 1)
		reply_ok(rep, shield_mitigation_json(action));
	else if (rc == 0)
		shield_not_found(rep, "operation", id);
	else
		reply_store_error(req, rep);
	free(action);
}

/* PUT replaces the setting: a body without mitigation_action clears it. */
void
shield_op_sv_put(struct req *req, struct reply *rep)
{
	const char	*action;
	char		 id[UUID_LEN + 1], *cause = NULL;
	int		 found;

	if (shield_parse_mitigation(req->json, "", 0, &action,
	    &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	shield_lower_id(req_param(req, "operation_id"), id);
	if ((found = shield_op_set_mitigation(req->store,
	    req_param(req, "zone"), id, action)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		shield_not_found(rep, "operation", id);
		return;
	}
	reply_ok(rep, shield_mitigation_json(action));
}

/*
 * PATCH /operations/schema_validation: {"<operation id>":
 * {"mitigation_action": ...}}, all or nothing. Each entry must say its
 * action (null included), since an absent one could mean either "clear"
 * or "leave".
 */
void
shield_op_sv_bulk(struct req *req, struct reply *rep)
{
	const char	*zone = req_param(req, "zone"), *action;
	const cJSON	*entry;
	cJSON		*result;
	char		 id[UUID_LEN + 1], *cause = NULL;
	int		 found;

	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_VALIDATION, "the body must be a JSON "
		    "object mapping operation ids to {\"mitigation_action\"}");
		return;
	}
	cJSON_ArrayForEach(entry, req->json) {
		if (!apirules_uuid_ok(entry->string)) {
			reply_error(rep, 400, ERR_VALIDATION, "'%.*s': not an "
			    "operation id (a UUID)",
			    text_quote_len(entry->string), entry->string);
			return;
		}
		if (shield_parse_mitigation(entry, entry->string, 1, &action,
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
		shield_parse_mitigation(entry, entry->string, 1, &action,
		    &cause);
		shield_lower_id(entry->string, id);
		found = shield_op_set_mitigation(req->store, zone, id, action);
		if (found <= 0) {
			if (found < 0)
				reply_store_error(req, rep);
			else
				shield_not_found(rep, "operation", id);
			cJSON_Delete(result);
			return;
		}
		cJSON_AddItemToObject(result, id,
		    shield_mitigation_json(action));
	}
	reply_ok(rep, result);
}
