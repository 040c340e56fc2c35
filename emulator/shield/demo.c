/*
 * API Shield's demo data: operations of three hosts, discovered operations
 * and two user schemas, the same on every run.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "internal.h"

/*
 * Three hosts of 100 operations, made from each host's resources with the
 * usual REST verbs; most have thresholds, some learned parameters. The
 * demo's times are fixed, from March 2026, so every run seeds the same.
 */
#define SHIELD_DEMO_EPOCH	1772323200	/* 2026-03-01T00:00:00Z */
#define SHIELD_DEMO_SPAN	(30 * 86400)
#define SHIELD_DEMO_PER_HOST	100

static const char *const shield_demo_api[] = {
	"users", "users/{user_id}/addresses", "users/{user_id}/sessions",
	"orders", "orders/{order_id}/items", "products",
	"products/{product_id}/reviews", "invoices", "payments",
	"subscriptions", "teams", "teams/{team_id}/members", "projects",
	"webhooks", "api-keys", "reports", "notifications", NULL
};
static const char *const shield_demo_shop[] = {
	"cart", "cart/items", "catalog/categories", "catalog/products",
	"checkout/sessions", "wishlists", "wishlists/{wishlist_id}/items",
	"coupons", "gift-cards", "stores", "stores/{store_id}/inventory",
	"shipping/rates", "returns", "reviews", "recommendations",
	"search/suggestions", "loyalty/accounts", NULL
};
static const char *const shield_demo_auth[] = {
	"clients", "tokens", "sessions", "users", "users/{user_id}/mfa",
	"users/{user_id}/passkeys", "roles", "roles/{role_id}/permissions",
	"groups", "groups/{group_id}/members", "devices", "audit-logs",
	"password-resets", "invitations", "identity-providers", "scim/Users",
	"scim/Groups", NULL
};

static const struct {
	const char		*host;
	const char		*prefix;
	const char *const	*resources;
} shield_demo_hosts[] = {
	{ "api.example.com", "/v1/", shield_demo_api },
	{ "shop.example.com", "/api/", shield_demo_shop },
	{ "auth.example.com", "/v1/", shield_demo_auth },
};

static const struct {
	const char	*method;
	const char	*suffix;
} shield_demo_verbs[] = {
	{ "GET", "" },
	{ "POST", "" },
	{ "GET", "/{id}" },
	{ "PUT", "/{id}" },
	{ "PATCH", "/{id}" },
	{ "DELETE", "/{id}" },
};

/* What discovery found beyond the saved operations: 30 of them. */
static const char *const shield_demo_found[][3] = {
	{ "GET", "api.example.com", "/v1/internal/metrics" },
	{ "GET", "shop.example.com", "/api/legacy/cart" },
	{ "GET", "auth.example.com", "/.well-known/openid-configuration" },
	{ "GET", "api.example.com", "/v2/users/{id}" },
	{ "POST", "shop.example.com", "/api/legacy/checkout" },
	{ "GET", "auth.example.com", "/.well-known/jwks.json" },
	{ "POST", "api.example.com", "/v2/users" },
	{ "GET", "shop.example.com", "/api/banners" },
	{ "POST", "auth.example.com", "/v1/token/revoke" },
	{ "GET", "api.example.com", "/v1/health" },
	{ "GET", "shop.example.com", "/api/sitemap.xml" },
	{ "POST", "auth.example.com", "/v1/token/introspect" },
	{ "GET", "api.example.com", "/v1/status" },
	{ "POST", "shop.example.com", "/api/newsletter/subscribe" },
	{ "GET", "auth.example.com", "/v1/userinfo" },
	{ "POST", "api.example.com", "/v1/graphql" },
	{ "GET", "shop.example.com", "/api/stores/{id}/hours" },
	{ "POST", "auth.example.com", "/v1/logout" },
	{ "GET", "api.example.com", "/v1/exports/{id}/download" },
	{ "GET", "shop.example.com", "/api/promotions" },
	{ "GET", "auth.example.com", "/v1/authorize" },
	{ "POST", "api.example.com", "/v1/imports" },
	{ "POST", "shop.example.com", "/api/cart/merge" },
	{ "POST", "auth.example.com", "/v1/device/code" },
	{ "GET", "api.example.com", "/v1/search" },
	{ "GET", "shop.example.com", "/api/catalog/brands" },
	{ "GET", "auth.example.com", "/v1/consent/{id}" },
	{ "DELETE", "api.example.com", "/v1/cache/{key}" },
	{ "GET", "shop.example.com", "/api/catalog/brands/{id}" },
	{ "POST", "auth.example.com", "/v1/otp/verify" },
};
#define SHIELD_DEMO_SAVED	10	/* discovered and saved */

/* Stored as JSON text, validation enabled. */
static const char shield_demo_schema_json[] =
	"{\n"
	"  \"openapi\": \"3.0.3\",\n"
	"  \"info\": {\"title\": \"Shop storefront\","
	" \"version\": \"2.4.0\"},\n"
	"  \"servers\": [{\"url\": \"https://shop.example.com/api\"}],\n"
	"  \"paths\": {\n"
	"    \"/cart\": {\n"
	"      \"get\": {\"responses\": {\"200\": "
	"{\"description\": \"The cart\"}}},\n"
	"      \"post\": {\"responses\": {\"201\": "
	"{\"description\": \"Created\"}}}\n"
	"    },\n"
	"    \"/cart/items/{item_id}\": {\n"
	"      \"parameters\": [{\"name\": \"item_id\", \"in\": \"path\", "
	"\"required\": true, \"schema\": {\"type\": \"string\"}}],\n"
	"      \"delete\": {\"responses\": {\"204\": "
	"{\"description\": \"Removed\"}}}\n"
	"    },\n"
	"    \"/catalog/products\": {\n"
	"      \"get\": {\"parameters\": [{\"name\": \"q\", \"in\": \"query\", "
	"\"schema\": {\"type\": \"string\", \"maxLength\": 100}}],\n"
	"        \"responses\": {\"200\": {\"description\": \"Products\"}}}\n"
	"    },\n"
	"    \"/catalog/products/{product_id}\": {\n"
	"      \"get\": {\"responses\": {\"200\": "
	"{\"description\": \"A product\"}}}\n"
	"    },\n"
	"    \"/checkout/sessions\": {\n"
	"      \"post\": {\"requestBody\": {\"content\": {"
	"\"application/json\": {\"schema\": {\"type\": \"object\","
	" \"required\": [\"cart_id\"]}}}},\n"
	"        \"responses\": {\"201\": {\"description\": \"Created\"}}}\n"
	"    },\n"
	"    \"/orders/{order_id}/tracking\": {\n"
	"      \"get\": {\"responses\": {\"200\": "
	"{\"description\": \"Tracking events\"}}}\n"
	"    }\n"
	"  }\n"
	"}\n";

/* Stored as YAML text, validation not enabled. */
static const char shield_demo_schema_yaml[] =
	"openapi: 3.0.3\n"
	"info:\n"
	"  title: Identity service\n"
	"  version: \"1.2\"\n"
	"servers:\n"
	"  - url: https://auth.example.com/v1\n"
	"paths:\n"
	"  /clients:\n"
	"    get:\n"
	"      responses:\n"
	"        \"200\":\n"
	"          description: OAuth clients\n"
	"    post:\n"
	"      responses:\n"
	"        \"201\":\n"
	"          description: Created\n"
	"  /users/{user_id}/mfa:\n"
	"    get:\n"
	"      responses:\n"
	"        \"200\":\n"
	"          description: MFA factors\n"
	"  /sessions/{session_id}:\n"
	"    delete:\n"
	"      responses:\n"
	"        \"204\":\n"
	"          description: Signed out\n"
	"  /token/introspect:\n"
	"    post:\n"
	"      responses:\n"
	"        \"200\":\n"
	"          description: Token state\n";

static void
shield_demo_time(struct util_rng *rng, char out[ISO_TIME_LEN])
{
	struct timespec	ts;

	ts.tv_sec = SHIELD_DEMO_EPOCH + util_rng_below(rng, SHIELD_DEMO_SPAN);
	ts.tv_nsec = (long)util_rng_below(rng, 1000000) * 1000;
	util_time_iso(&ts, out);
}

/* One demo operation's key from its host, resource and verb. */
static void
shield_demo_key(struct shield_op_key *key, size_t h, size_t r, size_t v)
{
	char	*path, *why = NULL;

	path = xprintf("%s%s%s", shield_demo_hosts[h].prefix,
	    shield_demo_hosts[h].resources[r], shield_demo_verbs[v].suffix);
	key->method = xstrdup(shield_demo_verbs[v].method);
	key->host = xstrdup(shield_demo_hosts[h].host);
	if ((key->endpoint = shield_normalize_endpoint(path, &why)) == NULL)
		fatalx("demo endpoint %s: %s", path, why);
	free(path);
}

/* The 300 operations' keys, in the order they are created. */
static struct shield_op_key *
shield_demo_keys(size_t *np)
{
	struct shield_op_key	*keys;
	size_t			 n = 0, h, r, v, count;

	keys = xcalloc(nitems(shield_demo_hosts) * SHIELD_DEMO_PER_HOST,
	    sizeof *keys);
	for (h = 0; h < nitems(shield_demo_hosts); h++) {
		count = 0;
		for (r = 0; shield_demo_hosts[h].resources[r] != NULL; r++) {
			for (v = 0; v < nitems(shield_demo_verbs) &&
			    count < SHIELD_DEMO_PER_HOST; v++) {
				shield_demo_key(&keys[n++], h, r, v);
				count++;
			}
		}
	}
	*np = n;
	return (keys);
}

/* Learned parameter schemas for an operation's path variables. */
static char *
shield_demo_params(const char *endpoint)
{
	cJSON	*ps = cJSON_CreateObject(), *list, *p;
	char	*text;

	list = shield_oa_parameters(endpoint);
	cJSON_ArrayForEach(p, list) {
		cJSON_AddStringToObject(p, "description", "Sufficient requests "
		    "have been observed for this parameter to provide high "
		    "confidence in this parameter schema.");
		cJSON_AddStringToObject(cJSON_GetObjectItem(p, "schema"),
		    "format", "uuid");
	}
	cJSON_AddItemToObject(ps, "parameters", list);
	cJSON_AddNullToObject(ps, "responses");
	text = util_jprint(ps);
	cJSON_Delete(ps);
	return (text);
}

static int
shield_demo_op(struct store *store, struct util_rng *rng, const char *zone,
    const struct shield_op_key *key, size_t i)
{
	static const char	 sql[] =
	    "INSERT INTO shield_op (zone, id, method, host, endpoint,"
	    " last_updated, mitigation, th_period_seconds,"
	    " th_suggested_threshold, th_p50, th_p90, th_p99, th_requests,"
	    " th_auth_id_tokens, th_data_points, th_last_updated, params,"
	    " params_updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			 id[UUID_LEN + 1], updated[ISO_TIME_LEN];
	char			 th_updated[ISO_TIME_LEN], *params = NULL;
	uint32_t		 p50, p90, p99;
	int			 rc;

	util_rng_uuid(rng, id);
	shield_demo_time(rng, updated);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key->method, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, key->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, key->endpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, updated, -1, SQLITE_STATIC);
	if (i % 17 == 3)
		sqlite3_bind_text(st, 7, "block", -1, SQLITE_STATIC);
	else if (i % 11 == 5)
		sqlite3_bind_text(st, 7, "log", -1, SQLITE_STATIC);
	/* Seven in eight have thresholds. */
	if (util_rng_below(rng, 8) != 0) {
		p50 = 1 + util_rng_below(rng, 20);
		p90 = p50 + 1 + util_rng_below(rng, 30);
		p99 = p90 + 1 + util_rng_below(rng, 60);
		shield_demo_time(rng, th_updated);
		sqlite3_bind_int(st, 8, 3600);
		sqlite3_bind_int64(st, 9, (sqlite3_int64)p99 * 3 / 2 + 5);
		sqlite3_bind_int64(st, 10, p50);
		sqlite3_bind_int64(st, 11, p90);
		sqlite3_bind_int64(st, 12, p99);
		sqlite3_bind_int64(st, 13, 1000 + util_rng_below(rng, 900000));
		sqlite3_bind_int64(st, 14, 10 + util_rng_below(rng, 50000));
		sqlite3_bind_int64(st, 15, 24 + util_rng_below(rng, 700));
		sqlite3_bind_text(st, 16, th_updated, -1, SQLITE_TRANSIENT);
	}
	/* Half of those with path variables have learned parameters. */
	if (strchr(key->endpoint, '{') != NULL && util_rng_below(rng, 2)) {
		params = shield_demo_params(key->endpoint);
		sqlite3_bind_text(st, 17, params, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 18, updated, -1, SQLITE_STATIC);
	}
	rc = sqlite3_step(st);
	store_done(st);
	free(params);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static int
shield_demo_disc(struct store *store, struct util_rng *rng, const char *zone,
    const struct shield_op_key *key, const char *state, int origin)
{
	static const char	 sql[] =
	    "INSERT INTO shield_disc (zone, id, method, host, endpoint,"
	    " last_updated, state, origin, requests, period_seconds,"
	    " stats_updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " 3600, ?10)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			 id[UUID_LEN + 1], updated[ISO_TIME_LEN];
	char			 stats[ISO_TIME_LEN];
	int			 rc;

	util_rng_uuid(rng, id);
	shield_demo_time(rng, updated);
	shield_demo_time(rng, stats);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key->method, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, key->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, key->endpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, updated, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, state, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, origin);
	sqlite3_bind_double(st, 9, (double)util_rng_below(rng, 500000) / 100.0);
	sqlite3_bind_text(st, 10, stats, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/*
 * 40 discovered operations: 10 saved (they are operations too), 20 in
 * review and 10 ignored, found by ML, by session identifiers or by both;
 * every host has some of each state.
 */
static int
shield_demo_discovery(struct store *store, struct util_rng *rng,
    const char *zone, const struct shield_op_key *ops, size_t nops)
{
	static const int	 origins[] = {
		SHIELD_ORIGIN_ML, SHIELD_ORIGIN_SESSION,
		SHIELD_ORIGIN_ML | SHIELD_ORIGIN_SESSION
	};
	struct shield_op_key	 key;
	char			*why = NULL;
	size_t			 i;
	int			 rc;

	for (i = 0; i < SHIELD_DEMO_SAVED; i++) {
		key = ops[(i * 29 + 7) % nops];
		if (shield_demo_disc(store, rng, zone, &key, "saved",
		    origins[i % 3]) != 0)
			return (-1);
	}
	for (i = 0; i < nitems(shield_demo_found); i++) {
		key.method = (char *)shield_demo_found[i][0];
		key.host = (char *)shield_demo_found[i][1];
		key.endpoint = shield_normalize_endpoint(
		    shield_demo_found[i][2], &why);
		if (key.endpoint == NULL)
			fatalx("demo discovery %zu: %s", i, why);
		rc = shield_demo_disc(store, rng, zone, &key,
		    (i % 3 + i / 3) % 3 == 2 ? "ignored" : "review",
		    origins[(i / 3) % 3]);
		free(key.endpoint);
		if (rc != 0)
			return (-1);
	}
	return (store_kv_put(store, zone, "api_gateway.discovery_run",
	    "2026-03-31T04:00:00.000000Z"));
}

static int
shield_demo_schema(struct store *store, struct util_rng *rng,
    const char *zone, const char *name, const char *source, int enabled)
{
	char	 id[UUID_LEN + 1], created[ISO_TIME_LEN];
	cJSON	*doc, *failure, *warnings, *ops;
	int	 rc;

	if ((doc = shield_openapi_load(source, strlen(source), &failure)) ==
	    NULL) {
		fatalx("demo schema %s: %s", name,
		    util_jprint(failure));
	}
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	if (cJSON_GetArraySize(warnings) != 0)
		fatalx("demo schema %s has warnings", name);
	util_rng_uuid(rng, id);
	shield_demo_time(rng, created);
	rc = shield_us_insert(store, zone, id, name, source, created, enabled,
	    ops);
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);
	return (rc);
}

/* Runs inside demo_seed's transaction; ids come from a fixed seed. */
int
shield_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng		 rng;
	struct shield_op_key	*keys;
	size_t			 n, i;
	int			 rc = -1;

	(void)account;
	util_rng_seed(&rng, 0x736869656c646f70ULL);
	keys = shield_demo_keys(&n);
	for (i = 0; i < n; i++) {
		if (shield_demo_op(store, &rng, zone, &keys[i], i) != 0)
			goto out;
	}
	if (shield_demo_discovery(store, &rng, zone, keys, n) != 0 ||
	    shield_demo_schema(store, &rng, zone, "Shop storefront (JSON)",
	    shield_demo_schema_json, 1) != 0 ||
	    shield_demo_schema(store, &rng, zone, "Identity service (YAML)",
	    shield_demo_schema_yaml, 0) != 0)
		goto out;
	if (store_kv_put(store, zone, "api_gateway.configuration",
	    "{\"auth_id_characteristics\":[{\"type\":\"header\","
	    "\"name\":\"authorization\"},{\"type\":\"cookie\","
	    "\"name\":\"session_id\"}]}") != 0 ||
	    store_kv_put(store, zone, SHIELD_SV_KEY,
	    "{\"validation_default_mitigation_action\":\"log\","
	    "\"validation_override_mitigation_action\":null}") != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		*cause = xprintf("demo api shield: %s", store_errmsg(store));
	for (i = 0; i < n; i++)
		shield_op_key_free(&keys[i]);
	free(keys);
	return (rc);
}
