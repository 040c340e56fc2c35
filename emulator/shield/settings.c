/*
 * API Shield's zone settings: schema-validation defaults and the
 * configuration (auth id characteristics).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- zone schema-validation settings ----------------------------------- */

/* The zone's settings; the service's defaults when never set. */
cJSON *
shield_settings_load(struct store *store, const char *zone)
{
	char	*v = store_kv_get(store, zone, SHIELD_SV_KEY);
	cJSON	*s = NULL;

	if (v != NULL)
		s = cJSON_Parse(v);
	free(v);
	if (cJSON_IsObject(s))
		return (s);
	cJSON_Delete(s);
	s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "validation_default_mitigation_action",
	    "none");
	cJSON_AddNullToObject(s, "validation_override_mitigation_action");
	return (s);
}

/*
 * Read the two fields of a PUT (patch 0) or PATCH (patch 1) body into s.
 * PUT needs the default action and reads an absent override as no
 * override; PATCH leaves what is absent or null as it is. Either way
 * disable_override clears the override.
 */
static int
shield_settings_apply(const cJSON *body, int patch, cJSON *s, char **cause)
{
	const cJSON	*d, *o;
	size_t		 i;

	if (!cJSON_IsObject(body))
		return (util_fail(cause, "the body must be a JSON object"));
	d = cJSON_GetObjectItemCaseSensitive(body,
	    "validation_default_mitigation_action");
	o = cJSON_GetObjectItemCaseSensitive(body,
	    "validation_override_mitigation_action");
	if (!patch && (d == NULL || cJSON_IsNull(d)))
		return (util_fail(cause, "validation_default_mitigation_"
		    "action: required, none, log or block"));
	if (d != NULL && !cJSON_IsNull(d)) {
		for (i = 0; shieldrules_actions[i] != NULL; i++) {
			if (cJSON_IsString(d) && strcmp(d->valuestring,
			    shieldrules_actions[i]) == 0)
				break;
		}
		if (shieldrules_actions[i] == NULL)
			return (util_fail(cause, "validation_default_"
			    "mitigation_action: must be none, log or block%s",
			    patch ? " (or null to leave it)" : ""));
	}
	if (o != NULL && !cJSON_IsNull(o) && (!cJSON_IsString(o) ||
	    (strcmp(o->valuestring, "none") != 0 &&
	    strcmp(o->valuestring, "disable_override") != 0)))
		return (util_fail(cause, "validation_override_mitigation_"
		    "action: must be none, disable_override or null"));
	if (d != NULL && !cJSON_IsNull(d))
		cJSON_ReplaceItemInObject(s,
		    "validation_default_mitigation_action",
		    cJSON_CreateString(d->valuestring));
	if (o != NULL && !cJSON_IsNull(o))
		cJSON_ReplaceItemInObject(s,
		    "validation_override_mitigation_action",
		    strcmp(o->valuestring, "none") == 0 ?
		    cJSON_CreateString("none") : cJSON_CreateNull());
	else if (!patch)
		cJSON_ReplaceItemInObject(s,
		    "validation_override_mitigation_action",
		    cJSON_CreateNull());
	return (0);
}

void
shield_settings_get(struct req *req, struct reply *rep)
{
	reply_ok(rep, shield_settings_load(req->store, req_param(req, "zone")));
}

/*
 * A PUT (patch 0) or PATCH (patch 1) of the zone's settings with apply
 * reading the body into them: for the classic and the current API.
 */
void
shield_settings_write(struct req *req, struct reply *rep, int patch,
    shield_settings_apply_fn apply)
{
	const char	*zone = req_param(req, "zone");
	char		*cause = NULL, *text;
	cJSON		*s;

	/* Read and write in the route's transaction: two PATCHes both land. */
	s = shield_settings_load(req->store, zone);
	if (apply(req->json, patch, s, &cause) != 0) {
		cJSON_Delete(s);
		shield_bad(rep, cause);
		return;
	}
	text = util_jprint(s);
	if (store_kv_put(req->store, zone, SHIELD_SV_KEY, text) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(s);
	} else
		reply_ok(rep, s);
	free(text);
}

void
shield_settings_put(struct req *req, struct reply *rep)
{
	shield_settings_write(req, rep, 0, shield_settings_apply);
}

void
shield_settings_patch(struct req *req, struct reply *rep)
{
	shield_settings_write(req, rep, 1, shield_settings_apply);
}

/* ---- configuration ----------------------------------------------------- */

/*
 * properties[] may only name auth_id_characteristics, the one property
 * there is, so the answer is the same with or without it.
 */
void
shield_config_get(struct req *req, struct reply *rep)
{
	static const char *const props[] = { "auth_id_characteristics", NULL };
	const char	*v_props[4];
	size_t		 n;
	char		*v, *cause = NULL;
	cJSON		*cfg = NULL;

	if (query_enums(&req->query, "properties", props, v_props,
	    nitems(v_props), &n, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	v = store_kv_get(req->store, req_param(req, "zone"),
	    "api_gateway.configuration");
	if (v != NULL)
		cfg = cJSON_Parse(v);
	if (cfg == NULL) {
		cfg = cJSON_CreateObject();
		cJSON_AddArrayToObject(cfg, "auth_id_characteristics");
	}
	free(v);
	reply_ok(rep, cfg);
}

void
shield_config_put(struct req *req, struct reply *rep)
{
	char	*cause = NULL, *text;
	cJSON	*cfg;

	if (req->json == NULL) {
		reply_error(rep, 400, ERR_VALIDATION,
		    "a JSON body is required");
		return;
	}
	if (shield_validate_config(req->json, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	cfg = cJSON_CreateObject();
	cJSON_AddItemToObject(cfg, "auth_id_characteristics", cJSON_Duplicate(
	    cJSON_GetObjectItemCaseSensitive(req->json,
	    "auth_id_characteristics"), 1));
	text = util_jprint(cfg);
	if (store_kv_put(req->store, req_param(req, "zone"),
	    "api_gateway.configuration", text) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "store: %s",
		    store_errmsg(req->store));
		cJSON_Delete(cfg);
	} else
		reply_ok(rep, cfg);
	free(text);
}
