/*
 * API Shield and OpenAPI: uploaded documents checked as OpenAPI 3.0 and the
 * operations they describe, and a zone's operations rendered as OpenAPI
 * (GET /schemas).
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apirules.h"
#include "text.h"
#include "yamljson.h"
#include "internal.h"

/* ---- OpenAPI documents ------------------------------------------------- */

static const char *const shield_oa_methods[] = {
	"get", "put", "post", "delete", "options", "head", "patch", "trace",
	NULL
};

static void
shield_event(cJSON *list, int code, const char *location, const char *fmt,
    ...) printflike(4, 5);

/* One upload event: {code, message, locations[]}. */
static void
shield_event(cJSON *list, int code, const char *location, const char *fmt,
    ...)
{
	cJSON	*ev = cJSON_CreateObject(), *locs;
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	cJSON_AddNumberToObject(ev, "code", code);
	cJSON_AddStringToObject(ev, "message", msg);
	locs = cJSON_AddArrayToObject(ev, "locations");
	if (location != NULL)
		cJSON_AddItemToArray(locs, cJSON_CreateString(location));
	cJSON_AddItemToArray(list, ev);
	free(msg);
}

/* The version Schema Validation takes, as the client checks it too. */
static void
shield_oa_check_version(const cJSON *doc, cJSON *errors)
{
	const char	*member;
	char		 msg[256];

	if (apirules_openapi_version(doc, &member, msg, sizeof msg) != 0)
		shield_event(errors, SHIELD_EV_VERSION, member, "%s", msg);
}

static void
shield_oa_check_info(const cJSON *doc, cJSON *errors)
{
	const cJSON	*info, *v;
	static const char *const keys[] = { "title", "version" };
	char		 loc[32];
	size_t		 i;

	info = cJSON_GetObjectItemCaseSensitive(doc, "info");
	if (!cJSON_IsObject(info)) {
		shield_event(errors, SHIELD_EV_INFO, ".info", "info: required, "
		    "an object with title and version, not %s",
		    shield_type_name(info));
		return;
	}
	for (i = 0; i < nitems(keys); i++) {
		v = cJSON_GetObjectItemCaseSensitive(info, keys[i]);
		if (cJSON_IsString(v))
			continue;
		snprintf(loc, sizeof loc, ".info.%s", keys[i]);
		shield_event(errors, SHIELD_EV_INFO, loc, "info.%s: required, "
		    "a string%s, not %s", keys[i], cJSON_IsNumber(v) ?
		    " (quote it)" : "", shield_type_name(v));
	}
}

static void
shield_oa_check_paths(const cJSON *doc, cJSON *errors)
{
	const cJSON	*paths, *item, *op;
	const char	*key;
	char		*loc;
	size_t		 i;

	paths = cJSON_GetObjectItemCaseSensitive(doc, "paths");
	if (!cJSON_IsObject(paths)) {
		shield_event(errors, SHIELD_EV_PATHS, ".paths", "paths: "
		    "required, an object of path items, not %s",
		    shield_type_name(paths));
		return;
	}
	cJSON_ArrayForEach(item, paths) {
		loc = xprintf(".paths[\"%s\"]", item->string);
		key = item->string;
		if (key[0] != '/')
			shield_event(errors, SHIELD_EV_PATHS, loc, "path "
			    "'%.*s' must start with '/'", text_quote_len(key),
			    key);
		else if (!cJSON_IsObject(item))
			shield_event(errors, SHIELD_EV_PATHS, loc, "path "
			    "'%.*s' must be an object (a path item), not %s",
			    text_quote_len(key), key, shield_type_name(item));
		free(loc);
		for (i = 0; shield_oa_methods[i] != NULL; i++) {
			op = cJSON_GetObjectItemCaseSensitive(item,
			    shield_oa_methods[i]);
			if (op == NULL || cJSON_IsObject(op))
				continue;
			loc = xprintf(".paths[\"%s\"].%s", key,
			    shield_oa_methods[i]);
			shield_event(errors, SHIELD_EV_OPERATION, loc,
			    "%s %.*s: an operation must be an object, not %s",
			    shield_oa_methods[i], text_quote_len(key), key,
			    shield_type_name(op));
			free(loc);
		}
	}
}

static void
shield_oa_check_servers(const cJSON *doc, cJSON *errors)
{
	const cJSON	*servers, *s;
	char		 loc[48];
	int		 i = 0;

	servers = cJSON_GetObjectItemCaseSensitive(doc, "servers");
	if (servers == NULL)
		return;
	if (!cJSON_IsArray(servers)) {
		shield_event(errors, SHIELD_EV_SERVERS, ".servers", "servers: "
		    "must be an array of {url}, not %s",
		    shield_type_name(servers));
		return;
	}
	cJSON_ArrayForEach(s, servers) {
		snprintf(loc, sizeof loc, ".servers[%d].url", i);
		if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "url")))
			shield_event(errors, SHIELD_EV_SERVERS, loc,
			    "servers[%d]: must be an object with a url string",
			    i);
		i++;
	}
}

cJSON *
shield_openapi_load(const char *src, size_t len, cJSON **failure)
{
	cJSON		*doc = NULL, *errors, *critical;
	char		*jcause = NULL, *ycause = NULL;
	size_t		 i;

	*failure = NULL;
	errors = cJSON_CreateArray();
	critical = cJSON_CreateArray();
	for (i = 0; i < len && isspace((unsigned char)src[i]); i++)
		;
	if (i == len)
		shield_event(critical, SHIELD_EV_PARSE, NULL, "the schema file "
		    "is empty");
	else if (!util_utf8_valid(src, len) || memchr(src, '\0', len) != NULL)
		shield_event(critical, SHIELD_EV_PARSE, NULL, "the schema file "
		    "is not UTF-8 text");
	else if ((doc = util_jparse(src, len, &jcause)) == NULL &&
	    (doc = yamljson_parse(src, len, &ycause)) == NULL) {
		/* Report the parser the source looks written for. */
		shield_event(critical, SHIELD_EV_PARSE, NULL, "the schema is "
		    "neither JSON nor YAML: %s", src[i] == '{' ? jcause :
		    ycause);
	}
	free(jcause);
	free(ycause);
	if (doc != NULL && !cJSON_IsObject(doc))
		shield_event(critical, SHIELD_EV_DOCUMENT, ".", "the schema "
		    "must be an OpenAPI document (an object), not %s",
		    shield_type_name(doc));
	else if (doc != NULL) {
		shield_oa_check_version(doc, errors);
		shield_oa_check_info(doc, errors);
		shield_oa_check_paths(doc, errors);
		shield_oa_check_servers(doc, errors);
	}
	if (cJSON_GetArraySize(errors) == 0 &&
	    cJSON_GetArraySize(critical) == 0) {
		cJSON_Delete(errors);
		cJSON_Delete(critical);
		return (doc);
	}
	cJSON_Delete(doc);
	*failure = cJSON_CreateObject();
	cJSON_AddItemToObject(*failure, "errors", errors);
	cJSON_AddItemToObject(*failure, "critical", critical);
	return (NULL);
}

/* A server URL with its {variables} replaced by their defaults, or NULL. */
static char *
shield_oa_server_url(const cJSON *server)
{
	const cJSON	*vars, *var, *def;
	const char	*url, *p, *close;
	struct buf	 b = BUF_INITIALIZER;
	char		*name;

	url = cJSON_GetObjectItemCaseSensitive(server, "url")->valuestring;
	vars = cJSON_GetObjectItemCaseSensitive(server, "variables");
	for (p = url; *p != '\0'; p++) {
		if (*p != '{') {
			buf_addc(&b, *p);
			continue;
		}
		if ((close = strchr(p, '}')) == NULL)
			goto fail;
		name = xstrndup(p + 1, (size_t)(close - p - 1));
		var = cJSON_GetObjectItemCaseSensitive(vars, name);
		free(name);
		def = cJSON_GetObjectItemCaseSensitive(var, "default");
		if (!cJSON_IsString(def))
			goto fail;
		buf_adds(&b, def->valuestring);
		p = close;
	}
	return (buf_detach(&b, NULL));
fail:
	buf_free(&b);
	return (NULL);
}

/*
 * Split an absolute URL into its host (normalised) and its path, without a
 * trailing slash, which prefixes every endpoint. -1 when it names no host.
 */
static int
shield_oa_split_url(const char *url, char **host, char **base)
{
	const char	*h, *end, *path;
	char		*raw, *why = NULL;
	size_t		 n;

	if ((h = strstr(url, "://")) == NULL)
		return (-1);
	h += 3;
	path = h + strcspn(h, "/?#");
	end = path;
	if (*h == '[') {
		if ((end = memchr(h, ']', (size_t)(path - h))) == NULL)
			return (-1);
		end++;
	} else if ((end = memchr(h, ':', (size_t)(path - h))) == NULL)
		end = path;
	if (end == h)
		return (-1);
	raw = xstrndup(h, (size_t)(end - h));
	*host = shield_normalize_host(raw, &why);
	free(raw);
	free(why);
	if (*host == NULL)
		return (-1);
	n = strcspn(path, "?#");
	while (n > 0 && path[n - 1] == '/')
		n--;
	*base = xstrndup(path, n);
	return (0);
}

/*
 * The operations collected from a document, as a set hashed on method,
 * host and endpoint: a document may describe tens of thousands, each
 * looked up once (open addressing, kept at most half full).
 */
struct shield_opset {
	struct shield_opkey {
		char	*key;	/* method, host, endpoint, each NUL-ended */
		size_t	 len;
	}	*slots;
	size_t	 cap;	/* a power of two */
	size_t	 n;
};

static uint64_t
shield_opset_hash(const char *key, size_t len)
{
	uint64_t	h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	size_t		i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 0x100000001b3ULL;
	}
	return (h);
}

/* The slot of key, or the empty one where it would go. */
static struct shield_opkey *
shield_opset_slot(struct shield_opkey *slots, size_t cap, const char *key,
    size_t len)
{
	size_t	i = (size_t)shield_opset_hash(key, len) & (cap - 1);

	while (slots[i].key != NULL && (slots[i].len != len ||
	    memcmp(slots[i].key, key, len) != 0))
		i = (i + 1) & (cap - 1);
	return (&slots[i]);
}

static void
shield_opset_grow(struct shield_opset *set)
{
	struct shield_opkey	*old = set->slots, *to;
	size_t			 oldcap = set->cap, i;

	set->cap = oldcap == 0 ? 64 : oldcap * 2;
	set->slots = xcalloc(set->cap, sizeof *set->slots);
	for (i = 0; i < oldcap; i++) {
		if (old[i].key == NULL)
			continue;
		to = shield_opset_slot(set->slots, set->cap, old[i].key,
		    old[i].len);
		*to = old[i];
	}
	free(old);
}

/* Adds the operation; 0 if it was there already. */
static int
shield_opset_add(struct shield_opset *set, const char *method,
    const char *host, const char *endpoint)
{
	struct shield_opkey	*slot;
	struct buf		 b = BUF_INITIALIZER;

	buf_add(&b, method, strlen(method) + 1);
	buf_add(&b, host, strlen(host) + 1);
	buf_add(&b, endpoint, strlen(endpoint) + 1);
	if ((set->n + 1) * 2 > set->cap)
		shield_opset_grow(set);
	slot = shield_opset_slot(set->slots, set->cap, b.data, b.len);
	if (slot->key != NULL) {
		buf_free(&b);
		return (0);
	}
	slot->len = b.len;
	slot->key = buf_detach(&b, NULL);
	set->n++;
	return (1);
}

static void
shield_opset_free(struct shield_opset *set)
{
	size_t	i;

	for (i = 0; i < set->cap; i++)
		free(set->slots[i].key);
	free(set->slots);
}

/* Every operation of the document's paths on one server. */
static void
shield_oa_server_ops(const cJSON *doc, const char *host, const char *base,
    struct shield_opset *seen, cJSON *ops, cJSON *warnings)
{
	const cJSON	*item;
	cJSON		*op;
	char		*path, *endpoint, *why = NULL, *loc, method[16];
	size_t		 i, j;

	cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(doc,
	    "paths")) {
		path = xprintf("%s%s", base, item->string);
		endpoint = shield_normalize_endpoint(path, &why);
		if (endpoint == NULL) {
			loc = xprintf(".paths[\"%s\"]", item->string);
			shield_event(warnings, SHIELD_EV_ENDPOINT, loc, "path "
			    "'%.*s' on %s cannot be an endpoint: %s",
			    text_quote_len(item->string), item->string, host,
			    why);
			free(loc);
			free(why);
			why = NULL;
			free(path);
			continue;
		}
		free(path);
		for (i = 0; shield_oa_methods[i] != NULL; i++) {
			if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
			    item, shield_oa_methods[i])))
				continue;
			for (j = 0; shield_oa_methods[i][j] != '\0'; j++)
				method[j] = (char)toupper(
				    (unsigned char)shield_oa_methods[i][j]);
			method[j] = '\0';
			if (!shield_opset_add(seen, method, host, endpoint))
				continue;
			op = cJSON_CreateObject();
			cJSON_AddStringToObject(op, "method", method);
			cJSON_AddStringToObject(op, "host", host);
			cJSON_AddStringToObject(op, "endpoint", endpoint);
			cJSON_AddItemToArray(ops, op);
		}
		free(endpoint);
	}
}

/*
 * An operation needs a host, and a document says its hosts only in
 * servers[].url (server variables take their defaults; path- and
 * operation-level servers are not read). A document without a usable
 * server yields no operations and a warning rather than a guessed host:
 * it is kept, but validates no traffic until a schema with servers is
 * uploaded.
 */
cJSON *
shield_openapi_operations(const cJSON *doc, cJSON *warnings)
{
	struct shield_opset	 seen = { NULL, 0, 0 };
	const cJSON		*s;
	cJSON			*ops = cJSON_CreateArray();
	const char		*raw;
	char			*url, *host, *base, loc[48];
	int			 i = 0, usable = 0;

	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(doc,
	    "servers")) {
		snprintf(loc, sizeof loc, ".servers[%d].url", i++);
		url = shield_oa_server_url(s);
		if (url == NULL ||
		    shield_oa_split_url(url, &host, &base) != 0) {
			raw = cJSON_GetObjectItemCaseSensitive(s,
			    "url")->valuestring;
			shield_event(warnings, SHIELD_EV_SERVER_URL, loc,
			    "server URL '%.*s' names no host (an absolute URL "
			    "such as https://api.example.com/v1 is needed; "
			    "variables need defaults)", text_quote_len(raw),
			    raw);
			free(url);
			continue;
		}
		usable++;
		shield_oa_server_ops(doc, host, base, &seen, ops, warnings);
		free(host);
		free(base);
		free(url);
	}
	shield_opset_free(&seen);
	if (usable == 0)
		shield_event(warnings, SHIELD_EV_NO_HOST, ".servers", "no "
		    "server URL names a host, so the schema's operations "
		    "cannot be matched to any host");
	return (ops);
}


/* ---- operations rendered as OpenAPI ------------------------------------ */

void
shield_oa_begin(struct shield_oa_builder *ob)
{
	ob->schemas = cJSON_CreateArray();
	ob->paths = NULL;
	ob->host = NULL;
}

cJSON *
shield_oa_end(struct shield_oa_builder *ob)
{
	free(ob->host);
	ob->host = NULL;
	return (ob->schemas);
}

/* {var1}, {var2}, ... of an endpoint as OpenAPI path parameters. */
cJSON *
shield_oa_parameters(const char *endpoint)
{
	cJSON		*list = cJSON_CreateArray(), *p;
	const char	*s, *e;
	char		*name;

	for (s = endpoint; (s = strchr(s, '{')) != NULL; s = e) {
		if ((e = strchr(s, '}')) == NULL)
			break;
		name = xstrndup(s + 1, (size_t)(e - s - 1));
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "in", "path");
		cJSON_AddStringToObject(p, "name", name);
		cJSON_AddBoolToObject(p, "required", 1);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(p, "schema"),
		    "type", "string");
		cJSON_AddItemToArray(list, p);
		free(name);
	}
	return (list);
}

/* Add an operation; returns its OpenAPI operation object to extend. */
cJSON *
shield_oa_add(struct shield_oa_builder *ob, const char *method,
    const char *host, const char *endpoint)
{
	cJSON	*doc, *info, *server, *item, *op;
	char	*title, lower[16];
	size_t	 i;

	if (ob->host == NULL || strcmp(ob->host, host) != 0) {
		free(ob->host);
		ob->host = xstrdup(host);
		doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "openapi", "3.0.0");
		info = cJSON_AddObjectToObject(doc, "info");
		title = xprintf("OpenAPI JSON schema for %s", host);
		cJSON_AddStringToObject(info, "title", title);
		free(title);
		cJSON_AddStringToObject(info, "version", "1.0");
		server = cJSON_CreateObject();
		title = xprintf("https://%s", host);
		cJSON_AddStringToObject(server, "url", title);
		free(title);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "servers"),
		    server);
		ob->paths = cJSON_AddObjectToObject(doc, "paths");
		cJSON_AddItemToArray(ob->schemas, doc);
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(ob->paths,
	    endpoint)) == NULL)
		item = cJSON_AddObjectToObject(ob->paths, endpoint);
	for (i = 0; method[i] != '\0' && i < sizeof lower - 1; i++)
		lower[i] = (char)tolower((unsigned char)method[i]);
	lower[i] = '\0';
	op = cJSON_AddObjectToObject(item, lower);
	cJSON_AddItemToObject(op, "parameters", shield_oa_parameters(endpoint));
	return (op);
}

/* {schemas, timestamp}: timestamp is the newest change, else now. */
cJSON *
shield_oa_result(cJSON *schemas, const char *newest)
{
	cJSON	*r = cJSON_CreateObject();
	char	 now[ISO_TIME_LEN];

	cJSON_AddItemToObject(r, "schemas", schemas);
	if (newest == NULL || *newest == '\0') {
		util_now_iso(now);
		newest = now;
	}
	cJSON_AddStringToObject(r, "timestamp", newest);
	return (r);
}

/*
 * An operation's features in its OpenAPI form: the thresholds as the
 * x-cf-api-shield-thresholds extension, learned parameters in place of the
 * plain path parameters.
 */
static void
shield_oa_features(struct req *req, sqlite3_stmt *st, int features,
    cJSON *op)
{
	cJSON	*holder = cJSON_CreateObject(), *f, *v;

	shield_op_features(req->store, req_param(req, "zone"), st,
	    features & (SHIELD_F_THRESHOLDS | SHIELD_F_PARAMS), holder);
	f = cJSON_GetObjectItemCaseSensitive(holder, "features");
	if ((v = cJSON_DetachItemFromObject(f, "thresholds")) != NULL)
		cJSON_AddItemToObject(op, "x-cf-api-shield-thresholds", v);
	v = cJSON_GetObjectItemCaseSensitive(f, "parameter_schemas");
	v = cJSON_GetObjectItemCaseSensitive(v, "parameter_schemas");
	v = cJSON_GetObjectItemCaseSensitive(v, "parameters");
	if (cJSON_IsArray(v) && cJSON_GetArraySize(v) != 0)
		cJSON_ReplaceItemInObject(op, "parameters",
		    cJSON_Duplicate(v, 1));
	cJSON_Delete(holder);
}

/*
 * GET /schemas: the saved operations as OpenAPI, one document per host;
 * with feature=thresholds each operation carries its thresholds as
 * x-cf-api-shield-thresholds, with parameter_schemas the learned
 * parameters replace the plain path parameters.
 */
void
shield_schemas_get(struct req *req, struct reply *rep)
{
	struct shield_oa_builder ob;
	struct shield_filter	 f;
	struct shield_binds	 b;
	struct buf		 sql = BUF_INITIALIZER;
	sqlite3_stmt		*st = NULL;
	char			*cause = NULL, newest[ISO_TIME_LEN] = "";
	const char		*updated;
	cJSON			*op;
	int			 features, rc;

	if (shield_parse_features(&req->query, &features, &cause) != 0 ||
	    shield_filter_parse(&req->query, &f, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	/* Only host[] applies here. */
	f.endpoint = NULL;
	b.n = 0;
	buf_addf(&sql, "SELECT " SHIELD_OP_COLS " FROM shield_op WHERE zone "
	    "= ?%d", shield_bind_text(&b, req_param(req, "zone")));
	shield_where_in(&sql, &b, "host", (const char *const *)f.hosts,
	    f.nhosts);
	buf_adds(&sql, " ORDER BY host, endpoint, method");
	shield_oa_begin(&ob);
	if (sqlite3_prepare_v2(store_db(req->store), buf_str(&sql), -1, &st,
	    NULL) != SQLITE_OK)
		goto fail;
	shield_bind_all(st, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		op = shield_oa_add(&ob, shield_col_text(st, OPC_METHOD),
		    shield_col_text(st, OPC_HOST),
		    shield_col_text(st, OPC_ENDPOINT));
		cJSON_AddStringToObject(op, "x-cf-api-shield-operation-id",
		    shield_col_text(st, OPC_ID));
		updated = shield_col_text(st, OPC_UPDATED);
		if (strcmp(updated, newest) > 0)
			snprintf(newest, sizeof newest, "%s", updated);
		if (features != 0)
			shield_oa_features(req, st, features, op);
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(st);
	reply_ok(rep, shield_oa_result(shield_oa_end(&ob), newest));
	goto out;
fail:
	reply_store_error(req, rep);
	sqlite3_finalize(st);
	cJSON_Delete(shield_oa_end(&ob));
out:
	buf_free(&sql);
	shield_filter_free(&f);
}
