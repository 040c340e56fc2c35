/*
 * API Shield (API Gateway) under /zones/{zone}/api_gateway: configuration,
 * discovery, operations, user schemas and schema-validation settings.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "server.h"
#include "shield.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

#define ZONE "/zones/{zone:hex32}/api_gateway"

static const char shield_schema[] = "";

/*
 * Check a configuration body; on failure say which characteristic and why.
 */
int
shield_validate_config(const cJSON *body, char **cause)
{
	const cJSON	*list, *item;
	const char	*type, *name;
	int		 i = 0;

	if (!cJSON_IsObject(body)) {
		*cause = xstrdup("the body must be a JSON object");
		return (-1);
	}
	list = cJSON_GetObjectItemCaseSensitive(body, "auth_id_characteristics");
	if (!cJSON_IsArray(list)) {
		*cause = xstrdup("auth_id_characteristics: required, an array");
		return (-1);
	}
	if (cJSON_GetArraySize(list) > SHIELD_MAX_CHARACTERISTICS) {
		*cause = xprintf("auth_id_characteristics: at most %d items",
		    SHIELD_MAX_CHARACTERISTICS);
		return (-1);
	}
	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsObject(item)) {
			*cause = xprintf("auth_id_characteristics[%d]: must be "
			    "an object with type and name", i);
			return (-1);
		}
		if (util_jstring(item, "type", &type) != UTIL_JOK ||
		    (strcmp(type, "header") != 0 && strcmp(type, "cookie") != 0 &&
		    strcmp(type, "jwt") != 0)) {
			*cause = xprintf("auth_id_characteristics[%d].type: "
			    "must be header, cookie or jwt", i);
			return (-1);
		}
		if (util_jstring(item, "name", &name) != UTIL_JOK ||
		    *name == '\0') {
			*cause = xprintf("auth_id_characteristics[%d].name: "
			    "required, a non-empty string", i);
			return (-1);
		}
		i++;
	}
	return (0);
}

static void
shield_config_get(struct req *req, struct reply *rep)
{
	char	*v = store_kv_get(req->store, req_param(req, "zone"),
	    "api_gateway.configuration");
	cJSON	*cfg = NULL;

	if (v != NULL)
		cfg = cJSON_Parse(v);
	if (cfg == NULL) {
		cfg = cJSON_CreateObject();
		cJSON_AddArrayToObject(cfg, "auth_id_characteristics");
	}
	free(v);
	reply_ok(rep, cfg);
}

static void
shield_config_put(struct req *req, struct reply *rep)
{
	char	*cause = NULL, *text;
	cJSON	*cfg;

	if (req->json == NULL) {
		reply_error(rep, 400, ERR_VALIDATION, "a JSON body is required");
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

static const struct route shield_routes[] = {
	{ HTTP_GET, ZONE "/configuration", shield_config_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/configuration", shield_config_put, ROUTE_BODY_JSON },
};

static int
shield_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	(void)account;
	if (store_kv_put(store, zone, "api_gateway.configuration",
	    "{\"auth_id_characteristics\":[{\"type\":\"header\","
	    "\"name\":\"authorization\"},{\"type\":\"cookie\","
	    "\"name\":\"session_id\"}]}") != 0) {
		*cause = xprintf("demo configuration: %s", store_errmsg(store));
		return (-1);
	}
	return (0);
}

const struct area shield_area = {
	.name = "api-shield",
	.routes = shield_routes,
	.nroutes = nitems(shield_routes),
	.schema = shield_schema,
	.demo = shield_demo,
};
