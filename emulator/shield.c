/*
 * API Shield (API Gateway) under /zones/{zone}/api_gateway: configuration,
 * discovery, operations (endpoint management), user schemas and
 * schema-validation settings.
 *
 * Operations keep what lists filter and order on in real columns, so a page
 * of a zone with 100 000 operations never parses stored JSON; the zone's
 * operation count and a rank cache make its pages cheap at any depth.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "log.h"
#include "multipart.h"
#include "server.h"
#include "shield.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"
#include "yamljson.h"

#define ZONE "/zones/{zone:hex32}/api_gateway"

#define SHIELD_PER_PAGE		20
#define SHIELD_PER_PAGE_MIN	5
#define SHIELD_PER_PAGE_MAX	50
/*
 * The spec gives operation lists a minimum of 5 and no maximum; this bound
 * only keeps one answer's size sane and is far above any client's page.
 */
#define SHIELD_OPS_PER_PAGE_MAX	10000
#define SHIELD_MAX_FILTERS	64	/* host[] or method[] values */
#define SHIELD_RANK_SLOTS	8	/* zones whose page ranks are cached */

/*
 * shield_op: seq (the rowid) is creation order, the default order and the
 * tie-breaker. An index ends in the rowid, so (zone) serves pages in that
 * order, and (zone, host) both the host filter in that order and the host
 * order with its ties; likewise method and endpoint.
 * Thresholds are columns so lists can order by them; th_last_updated NULL
 * means the operation has none. mitigation is the operation-level schema
 * validation action (NULL: the zone's default applies).
 *
 * shield_zone holds each zone's operation count (count(*) over 100 000
 * rows costs milliseconds a page) and a generation that changes with every
 * insert and delete, which the rank cache keys on; triggers keep both right
 * whoever writes.
 *
 * shield_disc: discovered operations; origin is a bit set (1 ML,
 * 2 SessionIdentifier). shield_schema: uploaded user schemas, with the
 * operations each describes in shield_schema_op.
 */
static const char shield_schema[] =
	"CREATE TABLE IF NOT EXISTS shield_op ("
	" seq INTEGER PRIMARY KEY,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" method TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" endpoint TEXT NOT NULL,"
	" last_updated TEXT NOT NULL,"
	" mitigation TEXT,"
	" th_period_seconds INTEGER,"
	" th_suggested_threshold INTEGER,"
	" th_p50 INTEGER,"
	" th_p90 INTEGER,"
	" th_p99 INTEGER,"
	" th_requests INTEGER,"
	" th_auth_id_tokens INTEGER,"
	" th_data_points INTEGER,"
	" th_last_updated TEXT,"
	" params TEXT,"
	" params_updated TEXT,"
	" UNIQUE (zone, id),"
	" UNIQUE (zone, method, host, endpoint));"
	"CREATE INDEX IF NOT EXISTS shield_op_zone ON shield_op (zone);"
	"CREATE INDEX IF NOT EXISTS shield_op_host ON shield_op (zone, host);"
	"CREATE INDEX IF NOT EXISTS shield_op_method"
	" ON shield_op (zone, method);"
	"CREATE INDEX IF NOT EXISTS shield_op_endpoint"
	" ON shield_op (zone, endpoint);"
	"CREATE TABLE IF NOT EXISTS shield_zone ("
	" zone TEXT PRIMARY KEY,"
	" ops INTEGER NOT NULL,"
	" gen INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TRIGGER IF NOT EXISTS shield_op_insert"
	" AFTER INSERT ON shield_op"
	" BEGIN"
	"  INSERT INTO shield_zone (zone, ops, gen) VALUES (new.zone, 1, 1)"
	"   ON CONFLICT (zone) DO UPDATE SET ops = ops + 1, gen = gen + 1;"
	" END;"
	"CREATE TRIGGER IF NOT EXISTS shield_op_delete"
	" AFTER DELETE ON shield_op"
	" BEGIN"
	"  UPDATE shield_zone SET ops = ops - 1, gen = gen + 1"
	"   WHERE zone = old.zone;"
	" END;"
	"CREATE TABLE IF NOT EXISTS shield_disc ("
	" seq INTEGER PRIMARY KEY,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" method TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" endpoint TEXT NOT NULL,"
	" last_updated TEXT NOT NULL,"
	" state TEXT NOT NULL,"
	" origin INTEGER NOT NULL,"
	" requests REAL NOT NULL,"
	" period_seconds INTEGER NOT NULL,"
	" stats_updated TEXT NOT NULL,"
	" UNIQUE (zone, id),"
	" UNIQUE (zone, method, host, endpoint));"
	"CREATE INDEX IF NOT EXISTS shield_disc_host"
	" ON shield_disc (zone, host);"
	"CREATE TABLE IF NOT EXISTS shield_schema ("
	" seq INTEGER PRIMARY KEY,"
	" zone TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" kind TEXT NOT NULL,"
	" source TEXT NOT NULL,"
	" created_at TEXT NOT NULL,"
	" validation_enabled INTEGER NOT NULL,"
	" UNIQUE (zone, id));"
	"CREATE TABLE IF NOT EXISTS shield_schema_op ("
	" seq INTEGER PRIMARY KEY,"
	" schema_seq INTEGER NOT NULL"
	"  REFERENCES shield_schema (seq) ON DELETE CASCADE,"
	" zone TEXT NOT NULL,"
	" method TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" endpoint TEXT NOT NULL,"
	" UNIQUE (schema_seq, method, host, endpoint));"
	"CREATE INDEX IF NOT EXISTS shield_schema_op_key"
	" ON shield_schema_op (zone, method, host, endpoint);";

static const char *const shield_methods[] = {
	"GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "CONNECT", "PATCH",
	"TRACE", NULL
};
#define SHIELD_METHODS_TEXT \
	"GET, POST, HEAD, OPTIONS, PUT, DELETE, CONNECT, PATCH or TRACE"

/* ---- checks ------------------------------------------------------------ */

/* Unlike elsewhere, the OpenAPI checks tell an absent member from null. */
static const char *
shield_type_name(const cJSON *v)
{
	return (v == NULL ? "absent" : util_jtype_name(v));
}

static int
shield_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* A JWT claim is "<token configuration id>:$<JSONPath>". */
static int
shield_jwt_name_ok(const char *name)
{
	const char	*colon = strchr(name, ':');
	size_t		 n, i;

	if (colon == NULL)
		return (0);
	n = (size_t)(colon - name);
	if (n < 32 || n > 36)
		return (0);
	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)name[i]) &&
		    !isdigit((unsigned char)name[i]) && name[i] != '-')
			return (0);
	}
	return (colon[1] == '$');
}

static int
shield_check_characteristic(const cJSON *item, int i, char **cause)
{
	const char	*type, *name;

	if (!cJSON_IsObject(item))
		return (util_fail(cause, "auth_id_characteristics[%d]: must "
		    "be an object with type and name", i));
	if (util_jstring(item, "type", &type) != UTIL_JOK ||
	    (strcmp(type, "header") != 0 && strcmp(type, "cookie") != 0 &&
	    strcmp(type, "jwt") != 0))
		return (util_fail(cause, "auth_id_characteristics[%d].type: "
		    "must be header, cookie or jwt", i));
	if (util_jstring(item, "name", &name) != UTIL_JOK || *name == '\0')
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "required, a non-empty string", i));
	if (util_chars(name) > SHIELD_MAX_NAME)
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "%zu characters is over the limit of %d", i,
		    util_chars(name), SHIELD_MAX_NAME));
	if (strcmp(type, "jwt") == 0 && !shield_jwt_name_ok(name))
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "a jwt claim is named TOKEN_CONFIG_ID:$JSONPATH, such as "
		    "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub", i));
	return (0);
}

/*
 * Check a configuration body; on failure say which characteristic and why.
 * The spec wants the items unique, so a repeated one is refused.
 */
int
shield_validate_config(const cJSON *body, char **cause)
{
	const cJSON	*list, *item, *prev;
	int		 i = 0, j;

	if (!cJSON_IsObject(body))
		return (util_fail(cause, "the body must be a JSON object"));
	list = cJSON_GetObjectItemCaseSensitive(body,
	    "auth_id_characteristics");
	if (!cJSON_IsArray(list))
		return (util_fail(cause, "auth_id_characteristics: required, "
		    "an array"));
	if (cJSON_GetArraySize(list) > SHIELD_MAX_CHARACTERISTICS)
		return (util_fail(cause, "auth_id_characteristics: at most "
		    "%d items", SHIELD_MAX_CHARACTERISTICS));
	cJSON_ArrayForEach(item, list) {
		if (shield_check_characteristic(item, i, cause) != 0)
			return (-1);
		j = 0;
		cJSON_ArrayForEach(prev, list) {
			if (prev == item)
				break;
			if (cJSON_Compare(prev, item, 1))
				return (util_fail(cause, "auth_id_"
				    "characteristics[%d]: repeats item %d", i,
				    j));
			j++;
		}
		i++;
	}
	return (0);
}

char *
shield_normalize_method(const char *s, char **cause)
{
	size_t	i;

	for (i = 0; shield_methods[i] != NULL; i++) {
		if (strcasecmp(s, shield_methods[i]) == 0)
			return (xstrdup(shield_methods[i]));
	}
	util_fail(cause, "method: '%.*s' is not one of %s",
	    util_quote_len(s), s, SHIELD_METHODS_TEXT);
	return (NULL);
}

/* An RFC 3986 IP-literal: only IPv6 addresses are taken, not IPvFuture. */
static int
shield_ip_literal_ok(const char *s, size_t len)
{
	struct in6_addr	addr;
	char		tmp[64];

	if (len < 3 || s[len - 1] != ']' || len - 2 >= sizeof tmp)
		return (0);
	memcpy(tmp, s + 1, len - 2);
	tmp[len - 2] = '\0';
	return (inet_pton(AF_INET6, tmp, &addr) == 1);
}

/* An RFC 3986 reg-name: unreserved, sub-delims and %XX escapes. */
static int
shield_reg_name_ok(const char *s, char **cause)
{
	const char	*p;
	int		 c;

	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (isalnum(c) || strchr("-._~!$&'()*+,;=", c) != NULL)
			continue;
		if (c == '%' && shield_hexval((unsigned char)p[1]) >= 0 &&
		    shield_hexval((unsigned char)p[2]) >= 0) {
			p += 2;
			continue;
		}
		if (c == ':')
			util_fail(cause, "host: '%.*s' has a ':'; give the "
			    "host without a port", util_quote_len(s), s);
		else if (c > 0x20 && c < 0x7f)
			util_fail(cause, "host: '%.*s' has '%c', which is "
			    "not allowed in an RFC 3986 host",
			    util_quote_len(s), s, c);
		else
			util_fail(cause, "host: '%.*s' has byte 0x%02x, "
			    "which is not allowed in an RFC 3986 host",
			    util_quote_len(s), s, c);
		return (0);
	}
	return (1);
}

/*
 * A host is an RFC 3986 reg-name (IPv4 addresses are reg-names too) or a
 * bracketed IPv6 address; no port. Stored in lower case.
 */
char *
shield_normalize_host(const char *s, char **cause)
{
	size_t	 len = strlen(s), i;
	char	*out;

	if (len == 0) {
		util_fail(cause, "host: must not be empty");
		return (NULL);
	}
	if (len > SHIELD_MAX_HOST) {
		util_fail(cause, "host: %zu characters is over the limit of "
		    "%d", util_chars(s), SHIELD_MAX_HOST);
		return (NULL);
	}
	if (s[0] == '[') {
		if (!shield_ip_literal_ok(s, len)) {
			util_fail(cause, "host: '%.*s' is not a valid "
			    "[IPv6] address", util_quote_len(s), s);
			return (NULL);
		}
	} else if (!shield_reg_name_ok(s, cause))
		return (NULL);
	out = xstrdup(s);
	for (i = 0; i < len; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
	return (out);
}

/*
 * RFC 3986 5.2.4 on a path that starts with '/': "." and ".." segments
 * go, ".." taking the segment before it along.
 */
static char *
shield_remove_dots(const char *in)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*next;
	char		*last;

	while (*in != '\0') {
		if (strncmp(in, "/./", 3) == 0)
			in += 2;
		else if (strcmp(in, "/.") == 0)
			in = "/";
		else if (strncmp(in, "/../", 4) == 0 ||
		    strcmp(in, "/..") == 0) {
			in = in[3] == '\0' ? "/" : in + 3;
			if (b.len != 0 && (last = strrchr(b.data, '/')) != NULL)
				buf_truncate(&b, (size_t)(last - b.data));
		} else {
			next = strchr(in + 1, '/');
			if (next == NULL)
				next = in + strlen(in);
			buf_add(&b, in, (size_t)(next - in));
			in = next;
		}
	}
	if (b.len == 0)
		buf_addc(&b, '/');
	return (buf_detach(&b, NULL));
}

/* One %XX escape: unreserved characters decoded, the rest upper case. */
static int
shield_percent(struct buf *b, const char *p)
{
	int	hi = shield_hexval((unsigned char)p[1]), lo, d;

	lo = hi >= 0 ? shield_hexval((unsigned char)p[2]) : -1;
	if (hi < 0 || lo < 0)
		return (-1);
	d = hi << 4 | lo;
	if (d != 0 && (isalnum(d) || strchr("-._~", d) != NULL))
		buf_addc(b, (char)d);
	else
		buf_addf(b, "%%%02X", d);
	return (0);
}

/*
 * The service's normal form of an endpoint: each {template} renamed
 * {var1}, {var2}, ... from left to right, then Cloudflare's URL
 * normalisation: backslashes become slashes, runs of slashes merge,
 * unreserved characters are percent-decoded and other escapes upper-cased,
 * and dot segments are removed.
 */
char *
shield_normalize_endpoint(const char *s, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p, *close;
	char		*out;
	int		 var = 0, c;

	if (*s != '/') {
		util_fail(cause, "endpoint: '%.*s' must start with '/'",
		    util_quote_len(s), s);
		return (NULL);
	}
	if (util_chars(s) > SHIELD_MAX_ENDPOINT) {
		util_fail(cause, "endpoint: %zu characters is over the limit "
		    "of %d", util_chars(s), SHIELD_MAX_ENDPOINT);
		return (NULL);
	}
	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (c <= 0x20 || c == 0x7f) {
			util_fail(cause, "endpoint: must not contain spaces "
			    "or control characters");
			goto fail;
		}
		if (c == '?' || c == '#') {
			util_fail(cause, "endpoint: must be a path, "
			    "without a query ('?') or fragment ('#')");
			goto fail;
		}
		if (c == '}') {
			util_fail(cause, "endpoint: '}' at byte %zu has no "
			    "matching '{'", (size_t)(p - s));
			goto fail;
		}
		if (c == '{') {
			close = p + 1;
			while (*close != '\0' && strchr("{}/", *close) == NULL)
				close++;
			if (*close != '}') {
				util_fail(cause, "endpoint: '{' at byte %zu "
				    "has no matching '}' in its segment",
				    (size_t)(p - s));
				goto fail;
			}
			if (close == p + 1) {
				util_fail(cause, "endpoint: '{}' at byte %zu "
				    "names no variable", (size_t)(p - s));
				goto fail;
			}
			buf_addf(&b, "{var%d}", ++var);
			p = close;
			continue;
		}
		if (c == '%') {
			if (shield_percent(&b, p) != 0) {
				util_fail(cause, "endpoint: invalid "
				    "percent-escape at byte %zu",
				    (size_t)(p - s));
				goto fail;
			}
			p += 2;
			continue;
		}
		if (c == '\\')
			c = '/';
		if (c == '/' && b.len != 0 && b.data[b.len - 1] == '/')
			continue;
		buf_addc(&b, (char)c);
	}
	out = shield_remove_dots(buf_str(&b));
	buf_free(&b);
	if (util_chars(out) > SHIELD_MAX_ENDPOINT) {
		util_fail(cause, "endpoint: %zu characters once normalised "
		    "is over the limit of %d", util_chars(out),
		    SHIELD_MAX_ENDPOINT);
		free(out);
		return (NULL);
	}
	return (out);

fail:
	buf_free(&b);
	return (NULL);
}

static const char *
shield_key_field(const cJSON *item, const char *key, char **cause)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(item, key);

	if (v == NULL || cJSON_IsNull(v)) {
		util_fail(cause, "%s: required, %s", key,
		    strcmp(key, "method") == 0 ? "one of " SHIELD_METHODS_TEXT :
		    strcmp(key, "host") == 0 ?
		    "a host such as api.example.com" :
		    "a path such as /api/v1/users/{id}");
		return (NULL);
	}
	if (!cJSON_IsString(v)) {
		util_fail(cause, "%s: must be a string, not %s", key,
		    shield_type_name(v));
		return (NULL);
	}
	return (v->valuestring);
}

int
shield_op_key_parse(const cJSON *item, struct shield_op_key *key,
    char **cause)
{
	const char	*s;

	memset(key, 0, sizeof *key);
	if (!cJSON_IsObject(item))
		return (util_fail(cause, "must be an object with method, "
		    "host and endpoint, not %s", shield_type_name(item)));
	if ((s = shield_key_field(item, "method", cause)) == NULL ||
	    (key->method = shield_normalize_method(s, cause)) == NULL)
		goto fail;
	if ((s = shield_key_field(item, "host", cause)) == NULL ||
	    (key->host = shield_normalize_host(s, cause)) == NULL)
		goto fail;
	if ((s = shield_key_field(item, "endpoint", cause)) == NULL ||
	    (key->endpoint = shield_normalize_endpoint(s, cause)) == NULL)
		goto fail;
	return (0);

fail:
	shield_op_key_free(key);
	return (-1);
}

void
shield_op_key_free(struct shield_op_key *key)
{
	free(key->method);
	free(key->host);
	free(key->endpoint);
	memset(key, 0, sizeof *key);
}

/* ==== SECTIONS BELOW ==== */

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

/* "3.<minor>.<patch>", digits only. */
static int
shield_oa_version_ok(const char *v)
{
	const char	*p = v;
	int		 part;

	if (strncmp(p, "3.", 2) != 0)
		return (0);
	p += 2;
	for (part = 0; part < 2; part++) {
		if (!isdigit((unsigned char)*p))
			return (0);
		while (isdigit((unsigned char)*p))
			p++;
		if (part == 0 && *p++ != '.')
			return (0);
	}
	return (*p == '\0');
}

static void
shield_oa_check_version(const cJSON *doc, cJSON *errors)
{
	const cJSON	*v;

	v = cJSON_GetObjectItemCaseSensitive(doc, "swagger");
	if (v != NULL) {
		shield_event(errors, SHIELD_EV_VERSION, ".swagger",
		    "swagger %s (OpenAPI 2) documents are not supported: "
		    "upload an OpenAPI 3.x document", cJSON_IsString(v) ?
		    v->valuestring : "2.0");
		return;
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "openapi");
	if (v == NULL)
		shield_event(errors, SHIELD_EV_VERSION, ".openapi", "openapi: "
		    "required, the OpenAPI version such as \"3.0.3\"");
	else if (!cJSON_IsString(v))
		shield_event(errors, SHIELD_EV_VERSION, ".openapi", "openapi: "
		    "must be a string such as \"3.0.3\", not %s",
		    shield_type_name(v));
	else if (!shield_oa_version_ok(v->valuestring))
		shield_event(errors, SHIELD_EV_VERSION, ".openapi", "openapi: "
		    "'%.*s' is not a supported version (3.x.y)",
		    util_quote_len(v->valuestring), v->valuestring);
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
			    "'%.*s' must start with '/'", util_quote_len(key),
			    key);
		else if (!cJSON_IsObject(item))
			shield_event(errors, SHIELD_EV_PATHS, loc, "path "
			    "'%.*s' must be an object (a path item), not %s",
			    util_quote_len(key), key, shield_type_name(item));
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
			    shield_oa_methods[i], util_quote_len(key), key,
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

static int
shield_oa_has(const cJSON *ops, const char *method, const char *host,
    const char *endpoint)
{
	const cJSON	*op;

	cJSON_ArrayForEach(op, ops) {
		if (strcmp(cJSON_GetObjectItem(op, "endpoint")->valuestring,
		    endpoint) == 0 &&
		    strcmp(cJSON_GetObjectItem(op, "method")->valuestring,
		    method) == 0 &&
		    strcmp(cJSON_GetObjectItem(op, "host")->valuestring,
		    host) == 0)
			return (1);
	}
	return (0);
}

/* Every operation of the document's paths on one server. */
static void
shield_oa_server_ops(const cJSON *doc, const char *host, const char *base,
    cJSON *ops, cJSON *warnings)
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
			    util_quote_len(item->string), item->string, host,
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
			if (shield_oa_has(ops, method, host, endpoint))
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
	const cJSON	*s;
	cJSON		*ops = cJSON_CreateArray();
	const char	*raw;
	char		*url, *host, *base, loc[48];
	int		 i = 0, usable = 0;

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
			    "variables need defaults)", util_quote_len(raw),
			    raw);
			free(url);
			continue;
		}
		usable++;
		shield_oa_server_ops(doc, host, base, ops, warnings);
		free(host);
		free(base);
		free(url);
	}
	if (usable == 0)
		shield_event(warnings, SHIELD_EV_NO_HOST, ".servers", "no "
		    "server URL names a host, so the schema's operations "
		    "cannot be matched to any host");
	return (ops);
}

/* ---- storage helpers --------------------------------------------------- */

static void
shield_bad(struct reply *rep, char *cause)
{
	reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
	free(cause);
}

/*
 * Ids are stored in lower case as generated; a client may send them in
 * either case, as UUIDs compare case-insensitively.
 */
static void
shield_lower_id(const char *in, char out[UUID_LEN + 1])
{
	size_t	i;

	for (i = 0; i < UUID_LEN && in[i] != '\0'; i++)
		out[i] = (char)tolower((unsigned char)in[i]);
	out[i] = '\0';
}

static const char *
shield_col_text(sqlite3_stmt *st, int col)
{
	const unsigned char	*s = sqlite3_column_text(st, col);

	return (s != NULL ? (const char *)s : "");
}

/* Values bound to a statement built at run time: text or integer. */
struct shield_binds {
	struct {
		const char	*text;
		sqlite3_int64	 num;
	}		 v[8 + 2 * SHIELD_MAX_FILTERS];
	int		 n;
};

/* Add a value and return its parameter number, for "?N" in the SQL. */
static int
shield_bind_text(struct shield_binds *b, const char *s)
{
	if ((size_t)b->n == nitems(b->v))
		fatalx("%s: too many parameters", __func__);
	b->v[b->n].text = s;
	b->v[b->n].num = 0;
	return (++b->n);
}

static int
shield_bind_num(struct shield_binds *b, sqlite3_int64 num)
{
	if ((size_t)b->n == nitems(b->v))
		fatalx("%s: too many parameters", __func__);
	b->v[b->n].text = NULL;
	b->v[b->n].num = num;
	return (++b->n);
}

static void
shield_bind_all(sqlite3_stmt *st, const struct shield_binds *b)
{
	int	i;

	for (i = 0; i < b->n; i++) {
		if (b->v[i].text != NULL)
			sqlite3_bind_text(st, i + 1, b->v[i].text, -1,
			    SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, i + 1, b->v[i].num);
	}
}

/* " AND col IN (?a, ?b, ...)" for a filter with values. */
static void
shield_where_in(struct buf *w, struct shield_binds *b, const char *col,
    const char *const *values, size_t n)
{
	size_t	i;

	if (n == 0)
		return;
	buf_addf(w, " AND %s IN (", col);
	for (i = 0; i < n; i++)
		buf_addf(w, "%s?%d", i == 0 ? "" : ", ",
		    shield_bind_text(b, values[i]));
	buf_addc(w, ')');
}

typedef cJSON *(*shield_row_cb)(struct req *, sqlite3_stmt *, void *);

/*
 * One page of a list whose filters were decided at run time: from_where is
 * "FROM ... WHERE ...", the values it names are in b. The count stays open
 * until the page is read, so both see one snapshot and total_count matches
 * the page; a caller that knows the count (in its own open snapshot) passes
 * it in *totalp, else -1. Returns -1 on a store failure, with SQLite's
 * message kept.
 */
static int
shield_run_page(struct req *req, const char *cols, const char *from_where,
    const char *order, struct shield_binds *b, const struct paging *p,
    shield_row_cb row, void *arg, cJSON **listp, long *totalp)
{
	sqlite3		*db = store_db(req->store);
	sqlite3_stmt	*cst = NULL, *pst = NULL;
	char		*sql;
	cJSON		*list = NULL, *item;
	int		 rc = -1, step, lim, off;

	if (*totalp < 0) {
		sql = xprintf("SELECT count(*) %s", from_where);
		step = sqlite3_prepare_v2(db, sql, -1, &cst, NULL);
		free(sql);
		if (step != SQLITE_OK)
			goto out;
		shield_bind_all(cst, b);
		if (sqlite3_step(cst) != SQLITE_ROW)
			goto out;
		*totalp = (long)sqlite3_column_int64(cst, 0);
	}
	lim = shield_bind_num(b, p->per_page);
	off = shield_bind_num(b, (sqlite3_int64)(p->page - 1) * p->per_page);
	sql = xprintf("SELECT %s %s ORDER BY %s LIMIT ?%d OFFSET ?%d", cols,
	    from_where, order, lim, off);
	step = sqlite3_prepare_v2(db, sql, -1, &pst, NULL);
	free(sql);
	if (step != SQLITE_OK)
		goto out;
	shield_bind_all(pst, b);
	list = cJSON_CreateArray();
	while ((step = sqlite3_step(pst)) == SQLITE_ROW) {
		if ((item = row(req, pst, arg)) != NULL)
			cJSON_AddItemToArray(list, item);
	}
	if (step != SQLITE_DONE)
		goto out;
	*listp = list;
	list = NULL;
	rc = 0;
out:
	cJSON_Delete(list);
	/* Finalizing a failed statement keeps its message on the handle. */
	sqlite3_finalize(pst);
	sqlite3_finalize(cst);
	return (rc);
}

/* ---- the rank cache ---------------------------------------------------- */

/*
 * A page deep in a zone's default order would cost an OFFSET walk over
 * every row before it. Instead the zone's seqs in order are cached per
 * (store, zone, generation): a page is then a seq range read through the
 * index. The generation comes from shield_zone in the reader's own
 * snapshot, so a cache entry is used only for exactly the rows it saw.
 */
struct shield_rank {
	const struct store	*store;
	char			 zone[HEX32_LEN + 1];
	sqlite3_int64		 gen;
	sqlite3_int64		*seq;
	size_t			 n;
	unsigned long		 used;
};

static struct shield_rank	shield_ranks[SHIELD_RANK_SLOTS];
static unsigned long		shield_rank_tick;
static pthread_mutex_t		shield_rank_lock = PTHREAD_MUTEX_INITIALIZER;

/* The seqs at ranks lo and hi (hi < n); 0 when not cached. */
static int
shield_rank_get(const struct store *store, const char *zone,
    sqlite3_int64 gen, size_t lo, size_t hi, sqlite3_int64 *slo,
    sqlite3_int64 *shi)
{
	struct shield_rank	*r;
	size_t			 i;
	int			 found = 0;

	pthread_mutex_lock(&shield_rank_lock);
	for (i = 0; i < SHIELD_RANK_SLOTS; i++) {
		r = &shield_ranks[i];
		if (r->store != store || r->gen != gen || hi >= r->n ||
		    strcmp(r->zone, zone) != 0)
			continue;
		*slo = r->seq[lo];
		*shi = r->seq[hi];
		r->used = ++shield_rank_tick;
		found = 1;
		break;
	}
	pthread_mutex_unlock(&shield_rank_lock);
	return (found);
}

/* Keep seq (taken over) in the zone's slot, else the least recently used. */
static void
shield_rank_put(const struct store *store, const char *zone,
    sqlite3_int64 gen, sqlite3_int64 *seq, size_t n)
{
	struct shield_rank	*r, *victim = &shield_ranks[0];
	size_t			 i;

	pthread_mutex_lock(&shield_rank_lock);
	for (i = 0; i < SHIELD_RANK_SLOTS; i++) {
		r = &shield_ranks[i];
		if (r->store == store && strcmp(r->zone, zone) == 0) {
			victim = r;
			break;
		}
		if (r->used < victim->used)
			victim = r;
	}
	/* Another thread may have cached a newer generation meanwhile. */
	if (victim->store == store && strcmp(victim->zone, zone) == 0 &&
	    victim->gen > gen) {
		pthread_mutex_unlock(&shield_rank_lock);
		free(seq);
		return;
	}
	free(victim->seq);
	victim->store = store;
	snprintf(victim->zone, sizeof victim->zone, "%s", zone);
	victim->gen = gen;
	victim->seq = seq;
	victim->n = n;
	victim->used = ++shield_rank_tick;
	pthread_mutex_unlock(&shield_rank_lock);
}

static void
shield_rank_clear(const struct store *store)
{
	size_t	i;

	pthread_mutex_lock(&shield_rank_lock);
	for (i = 0; i < SHIELD_RANK_SLOTS; i++) {
		if (shield_ranks[i].store != store)
			continue;
		free(shield_ranks[i].seq);
		memset(&shield_ranks[i], 0, sizeof shield_ranks[i]);
	}
	pthread_mutex_unlock(&shield_rank_lock);
}

/* Read every seq of the zone in order, in the caller's transaction. */
static int
shield_rank_build(struct store *store, const char *zone,
    sqlite3_int64 **seqp, size_t *np)
{
	static const char	 sql[] =
	    "SELECT seq FROM shield_op WHERE zone = ?1 ORDER BY seq";
	sqlite3_stmt		*st = store_stmt(store, sql);
	sqlite3_int64		*seq = NULL;
	size_t			 n = 0, size = 0;
	int			 rc;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == size) {
			size = size == 0 ? 1024 : size * 2;
			seq = xreallocarray(seq, size, sizeof *seq);
		}
		seq[n++] = sqlite3_column_int64(st, 0);
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		free(seq);
		return (-1);
	}
	*seqp = seq;
	*np = n;
	return (0);
}

/* ---- operations -------------------------------------------------------- */

#define SHIELD_F_THRESHOLDS	0x1
#define SHIELD_F_PARAMS		0x2
#define SHIELD_F_SCHEMA_INFO	0x4

static const char *const shield_features[] = {
	"thresholds", "parameter_schemas", "schema_info", NULL
};

/* The thresholds feature's fields, in the order of their th_ columns. */
static const char *const shield_threshold_keys[] = {
	"period_seconds", "suggested_threshold", "p50", "p90", "p99",
	"requests", "auth_id_tokens", "data_points", "last_updated"
};

#define SHIELD_OP_COLS							\
	"id, method, host, endpoint, last_updated, th_period_seconds,"	\
	" th_suggested_threshold, th_p50, th_p90, th_p99, th_requests,"	\
	" th_auth_id_tokens, th_data_points, th_last_updated, params,"	\
	" params_updated, mitigation"
#define SHIELD_OP_COLS_BASIC						\
	"id, method, host, endpoint, last_updated"
enum shield_op_col {
	OPC_ID,
	OPC_METHOD,
	OPC_HOST,
	OPC_ENDPOINT,
	OPC_UPDATED,
	OPC_THRESHOLDS,		/* nine columns, shield_threshold_keys */
	OPC_PARAMS = OPC_THRESHOLDS + 9,
	OPC_PARAMS_UPDATED,
	OPC_MITIGATION
};

struct shield_op_ctx {
	const char	*zone;
	int		 features;
};

static void
shield_not_found(struct reply *rep, const char *what, const char *id)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "%s %s was not found", what, id);
}

/* feature[]: which features to add to each operation. */
static int
shield_parse_features(const struct query *q, int *features, char **cause)
{
	const char	*v[8];
	size_t		 n, i, j;

	if (query_enums(q, "feature", shield_features, v, nitems(v), &n,
	    cause) != 0)
		return (-1);
	*features = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; shield_features[j] != NULL; j++) {
			if (strcmp(v[i], shield_features[j]) == 0)
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

static void
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
static cJSON *
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

/* host[], method[] and endpoint, shared by the lists of operations. */
struct shield_filter {
	char		*hosts[SHIELD_MAX_FILTERS];
	size_t		 nhosts;
	char		*methods[SHIELD_MAX_FILTERS];
	size_t		 nmethods;
	const char	*endpoint;
};

static void
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
static int
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
static void
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
static int
shield_parse_direction(const struct query *q, int *desc, char **cause)
{
	static const char *const dirs[] = { "asc", "desc", NULL };
	const char		*d;

	if (query_enum(q, "direction", dirs, &d, cause) != 0)
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
	size_t		 i;

	if (order == NULL)
		return (xprintf("seq %s", dir));
	if (strcmp(order, "method") == 0 || strcmp(order, "host") == 0 ||
	    strcmp(order, "endpoint") == 0)
		return (xprintf("%s %s, seq %s", order, dir, dir));
	if (strncmp(order, "thresholds.", 11) == 0) {
		key = order + 11;
		for (i = 0; i < nitems(shield_threshold_keys); i++) {
			if (strcmp(key, shield_threshold_keys[i]) == 0)
				return (xprintf("th_%s IS NULL, th_%s %s, "
				    "seq %s", key, key, dir, dir));
		}
	}
	util_fail(cause, "order: '%.*s' is not one of method, host, "
	    "endpoint or thresholds.KEY, where KEY is period_seconds, "
	    "suggested_threshold, p50, p90, p99, requests, auth_id_tokens, "
	    "data_points or last_updated", util_quote_len(order), order);
	return (NULL);
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

static void
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

	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELD_PER_PAGE_MIN,
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

static void
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
 * Create the operations of keys in one transaction: all or none. Returns
 * the array of operations, or NULL after replying with the failure.
 */
static cJSON *
shield_op_create(struct req *req, struct reply *rep,
    const struct shield_op_key *keys, size_t n)
{
	char	 now[ISO_TIME_LEN];
	cJSON	*list, *op;
	size_t	 i;

	util_now_iso(now);
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return (NULL);
	}
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
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(list);
		return (NULL);
	}
	return (list);
}

static void
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
static void
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

static void
shield_op_delete_one(struct req *req, struct reply *rep)
{
	char	id[UUID_LEN + 1];
	int	found;

	shield_lower_id(req_param(req, "operation_id"), id);
	if (store_begin(req->store) != 0 ||
	    (found = shield_op_remove(req->store, req_param(req, "zone"),
	    id)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		shield_not_found(rep, "operation", id);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
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
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* Check a list of operation ids: UUIDs, lower-cased in place. */
static int
shield_check_ids(const cJSON *list, const char *what, char **cause)
{
	cJSON	*item;
	char	 id[UUID_LEN + 1];
	int	 i = 0;

	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsString(item) || !util_is_uuid(item->valuestring))
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
static void
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
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	cJSON_ArrayForEach(item, ids) {
		if ((rc = shield_op_exists(req->store, zone,
		    item->valuestring)) < 0) {
			reply_store_error(req, rep);
			return;
		}
		if (rc == 0) {
			store_rollback(req->store);
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
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, NULL);
}

/* ---- operation-level schema validation --------------------------------- */

static const char *const shield_mitigations[] = {
	"log", "block", "none", NULL
};

/*
 * mitigation_action: log, block, none, or null (no operation-level action:
 * the zone's default applies). *out is NULL for null.
 */
static int
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
	for (i = 0; cJSON_IsString(v) && shield_mitigations[i] != NULL; i++) {
		if (strcmp(v->valuestring, shield_mitigations[i]) == 0) {
			*out = shield_mitigations[i];
			return (0);
		}
	}
	if (cJSON_IsString(v))
		return (util_fail(cause, "%s%smitigation_action: '%.*s' is "
		    "not one of log, block, none or null", path, sep,
		    util_quote_len(v->valuestring), v->valuestring));
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
static int
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

static void
shield_op_sv_get(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT mitigation FROM shield_op WHERE zone = ?1 AND id = ?2";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	char			 id[UUID_LEN + 1];
	int			 rc;

	shield_lower_id(req_param(req, "operation_id"), id);
	sqlite3_bind_text(st, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		reply_ok(rep, shield_mitigation_json(
		    sqlite3_column_type(st, 0) == SQLITE_NULL ? NULL :
		    shield_col_text(st, 0)));
	else if (rc == SQLITE_DONE)
		shield_not_found(rep, "operation", id);
	else
		reply_store_error(req, rep);
	store_done(st);
}

/* PUT replaces the setting: a body without mitigation_action clears it. */
static void
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
	if (store_begin(req->store) != 0 ||
	    (found = shield_op_set_mitigation(req->store,
	    req_param(req, "zone"), id, action)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		shield_not_found(rep, "operation", id);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
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
static void
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
		if (!util_is_uuid(entry->string)) {
			reply_error(rep, 400, ERR_VALIDATION, "'%.*s': not an "
			    "operation id (a UUID)",
			    util_quote_len(entry->string), entry->string);
			return;
		}
		if (shield_parse_mitigation(entry, entry->string, 1, &action,
		    &cause) != 0) {
			shield_bad(rep, cause);
			return;
		}
	}
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
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
			else {
				store_rollback(req->store);
				shield_not_found(rep, "operation", id);
			}
			cJSON_Delete(result);
			return;
		}
		cJSON_AddItemToObject(result, id,
		    shield_mitigation_json(action));
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(result);
		return;
	}
	reply_ok(rep, result);
}

/* ---- operations rendered as OpenAPI ------------------------------------ */

/*
 * One OpenAPI 3.0 document per host, filled from rows sorted by host: each
 * operation gets its path variables as parameters, plus what the caller
 * adds (thresholds, ids).
 */
struct shield_oa_builder {
	cJSON	*schemas;	/* the array of documents */
	cJSON	*paths;		/* of the current host's document */
	char	*host;
};

static void
shield_oa_begin(struct shield_oa_builder *ob)
{
	ob->schemas = cJSON_CreateArray();
	ob->paths = NULL;
	ob->host = NULL;
}

static cJSON *
shield_oa_end(struct shield_oa_builder *ob)
{
	free(ob->host);
	ob->host = NULL;
	return (ob->schemas);
}

/* {var1}, {var2}, ... of an endpoint as OpenAPI path parameters. */
static cJSON *
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
static cJSON *
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
static cJSON *
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
static void
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

/* ---- discovery --------------------------------------------------------- */

#define SHIELD_ORIGIN_ML	0x1
#define SHIELD_ORIGIN_SESSION	0x2

#define SHIELD_DISC_COLS						\
	"id, method, host, endpoint, last_updated, state, origin,"	\
	" requests, period_seconds, stats_updated"

static const char *const shield_disc_states[] = {
	"review", "saved", "ignored", NULL
};

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
	if (strcmp(order, "method") == 0 || strcmp(order, "host") == 0 ||
	    strcmp(order, "endpoint") == 0)
		return (xprintf("%s %s, seq %s", order, dir, dir));
	if (strcmp(order, "traffic_stats.requests") == 0)
		return (xprintf("requests %s, seq %s", dir, dir));
	if (strcmp(order, "traffic_stats.last_updated") == 0)
		return (xprintf("stats_updated %s, seq %s", dir, dir));
	util_fail(cause, "order: '%.*s' is not one of host, method, "
	    "endpoint, traffic_stats.requests or traffic_stats.last_updated",
	    util_quote_len(order), order);
	return (NULL);
}

static void
shield_disc_list(struct req *req, struct reply *rep)
{
	static const char *const origins[] = {
		"ML", "SessionIdentifier", NULL
	};
	struct shield_filter	 f;
	struct shield_binds	 b;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	const char		*state, *origin;
	char			*cause = NULL, *order = NULL;
	cJSON			*list = NULL;
	long			 total = -1;
	int			 desc, diff;

	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELD_PER_PAGE_MIN,
	    SHIELD_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
	    shield_parse_direction(&req->query, &desc, &cause) != 0 ||
	    query_enum(&req->query, "state", shield_disc_states, &state,
	    &cause) != 0 ||
	    query_enum(&req->query, "origin", origins, &origin, &cause) != 0 ||
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
	if (!cJSON_IsString(v) || (strcmp(v->valuestring, "review") != 0 &&
	    strcmp(v->valuestring, "ignored") != 0))
		return (util_fail(cause, "%s%sstate: must be review or "
		    "ignored", path, sep));
	*state = v->valuestring;
	return (0);
}

/*
 * Set a discovered operation's state. A saved one stays saved while its
 * operation is in endpoint management: 409, with the way out. Returns 0,
 * or -1 after replying. In a transaction.
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
	int			 rc, saved = 0;

	st = store_stmt(req->store, get_sql);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		saved = strcmp(shield_col_text(st, 0), "saved") == 0;
	store_done(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		return (-1);
	}
	if (rc == SQLITE_DONE) {
		store_rollback(req->store);
		shield_not_found(rep, "discovered operation", id);
		return (-1);
	}
	if (saved) {
		store_rollback(req->store);
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

static void
shield_disc_patch_one(struct req *req, struct reply *rep)
{
	const char	*state;
	char		 id[UUID_LEN + 1], *cause = NULL;

	if (shield_disc_parse_state(req->json, "", &state, &cause) != 0) {
		shield_bad(rep, cause);
		return;
	}
	shield_lower_id(req_param(req, "operation_id"), id);
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	if (shield_disc_set(req, rep, id, state) != 0)
		return;
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, shield_state_json(state));
}

/* {"<id>": {"state": ...}, ...}: all or nothing, answered with the map. */
static void
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
		if (!util_is_uuid(entry->string)) {
			reply_error(rep, 400, ERR_VALIDATION, "'%.*s': not a "
			    "discovered operation id (a UUID)",
			    util_quote_len(entry->string), entry->string);
			return;
		}
		if (shield_disc_parse_state(entry, entry->string, &state,
		    &cause) != 0) {
			shield_bad(rep, cause);
			return;
		}
	}
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
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
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(result);
		return;
	}
	reply_ok(rep, result);
}

/*
 * GET /discovery: what discovery found, as OpenAPI; ignored operations are
 * left out, as the user has said they are noise. The timestamp is that of
 * the last discovery run (kept by whoever ran it), else the newest finding.
 */
static void
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

/* ---- user schemas ------------------------------------------------------ */

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
	if (strcmp(kind, "openapi_v3") != 0) {
		util_fail(cause, "kind: '%.*s' is not supported (only "
		    "openapi_v3)", util_quote_len(kind), kind);
		goto out;
	}
	if (ve != NULL && strcmp(ve, "true") != 0 && strcmp(ve, "false") != 0) {
		util_fail(cause, "validation_enabled: '%.*s' is not \"true\" "
		    "or \"false\"", util_quote_len(ve), ve);
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
static void
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
static int
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

static cJSON *
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

static void
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
	if (store_begin(req->store) != 0 ||
	    shield_us_insert(req->store, req_param(req, "zone"), id, up.name,
	    source, now, up.validation_enabled, ops) != 0 ||
	    store_commit(req->store) != 0) {
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

static void
shield_us_list(struct req *req, struct reply *rep)
{
	struct shield_binds	 b;
	struct paging		 p;
	struct buf		 w = BUF_INITIALIZER;
	char			*cause = NULL;
	cJSON			*list = NULL;
	long			 total = -1;
	int			 omit, enabled;

	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELD_PER_PAGE_MIN,
	    SHIELD_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
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
static cJSON *
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

static void
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
 * PATCH takes only validation_enabled: true, as the spec's enum says; a
 * schema stops validating by being deleted. An empty body changes nothing.
 */
static void
shield_us_patch(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "UPDATE shield_schema SET validation_enabled = 1"
	    " WHERE zone = ?1 AND id = ?2";
	const cJSON		*v;
	sqlite3_stmt		*st;
	char			 id[UUID_LEN + 1];
	cJSON			*s;
	int			 rc;

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
	if (v != NULL) {
		shield_lower_id(req_param(req, "schema_id"), id);
		st = store_stmt(req->store, sql);
		sqlite3_bind_text(st, 1, req_param(req, "zone"), -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
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

static void
shield_us_delete(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "DELETE FROM shield_schema WHERE zone = ?1 AND id = ?2";
	char			 id[UUID_LEN + 1];
	int			 found;

	shield_lower_id(req_param(req, "schema_id"), id);
	if (store_begin(req->store) != 0 ||
	    (found = store_doc_delete(req->store, sql, req_param(req, "zone"),
	    id)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		shield_not_found(rep, "schema", id);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
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

static void
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
	sqlite3_stmt		*st;
	const char		*status;
	char			 id[UUID_LEN + 1], *cause = NULL;
	cJSON			*list = NULL;
	sqlite3_int64		 seq = 0;
	long			 total = -1;
	int			 rc;

	ctx.zone = req_param(req, "zone");
	if (query_paging(&req->query, SHIELD_PER_PAGE, SHIELD_PER_PAGE_MIN,
	    SHIELD_PER_PAGE_MAX, 0, &p, &cause) != 0 ||
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
	st = store_stmt(req->store, seq_sql);
	sqlite3_bind_text(st, 1, ctx.zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		seq = sqlite3_column_int64(st, 0);
	store_done(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
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

/* ---- zone schema-validation settings ----------------------------------- */

#define SHIELD_SV_KEY	"api_gateway.schema_validation"

static const char *const shield_default_actions[] = {
	"none", "log", "block", NULL
};

/* The zone's settings; the service's defaults when never set. */
static cJSON *
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
		for (i = 0; shield_default_actions[i] != NULL; i++) {
			if (cJSON_IsString(d) && strcmp(d->valuestring,
			    shield_default_actions[i]) == 0)
				break;
		}
		if (shield_default_actions[i] == NULL)
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

static void
shield_settings_get(struct req *req, struct reply *rep)
{
	reply_ok(rep, shield_settings_load(req->store, req_param(req, "zone")));
}

static void
shield_settings_write(struct req *req, struct reply *rep, int patch)
{
	const char	*zone = req_param(req, "zone");
	char		*cause = NULL, *text;
	cJSON		*s;

	/* Read and write in one transaction: two PATCHes both land. */
	if (store_begin(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	s = shield_settings_load(req->store, zone);
	if (shield_settings_apply(req->json, patch, s, &cause) != 0) {
		store_rollback(req->store);
		cJSON_Delete(s);
		shield_bad(rep, cause);
		return;
	}
	text = util_jprint(s);
	if (store_kv_put(req->store, zone, SHIELD_SV_KEY, text) != 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		cJSON_Delete(s);
	} else
		reply_ok(rep, s);
	free(text);
}

static void
shield_settings_put(struct req *req, struct reply *rep)
{
	shield_settings_write(req, rep, 0);
}

static void
shield_settings_patch(struct req *req, struct reply *rep)
{
	shield_settings_write(req, rep, 1);
}

/* ---- configuration ----------------------------------------------------- */

/*
 * properties[] may only name auth_id_characteristics, the one property
 * there is, so the answer is the same with or without it.
 */
static void
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

static void
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

/* ---- demo data --------------------------------------------------------- */

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
static int
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

static const struct route shield_routes[] = {
	{ HTTP_GET, ZONE "/configuration", shield_config_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/configuration", shield_config_put, ROUTE_BODY_JSON },

	{ HTTP_GET, ZONE "/discovery", shield_disc_openapi, ROUTE_BODY_NONE },
	{ HTTP_GET, ZONE "/discovery/operations", shield_disc_list,
	    ROUTE_BODY_NONE },
	{ HTTP_PATCH, ZONE "/discovery/operations", shield_disc_patch_bulk,
	    ROUTE_BODY_JSON },
	{ HTTP_PATCH, ZONE "/discovery/operations/{operation_id:uuid}",
	    shield_disc_patch_one, ROUTE_BODY_JSON },

	{ HTTP_GET, ZONE "/operations", shield_op_list, ROUTE_BODY_NONE },
	{ HTTP_POST, ZONE "/operations", shield_op_create_bulk,
	    ROUTE_BODY_JSON },
	{ HTTP_DELETE, ZONE "/operations", shield_op_delete_bulk,
	    ROUTE_BODY_JSON },
	{ HTTP_POST, ZONE "/operations/item", shield_op_create_one,
	    ROUTE_BODY_JSON },
	{ HTTP_GET, ZONE "/operations/{operation_id:uuid}", shield_op_get,
	    ROUTE_BODY_NONE },
	{ HTTP_DELETE, ZONE "/operations/{operation_id:uuid}",
	    shield_op_delete_one, ROUTE_BODY_NONE },
	{ HTTP_PATCH, ZONE "/operations/schema_validation", shield_op_sv_bulk,
	    ROUTE_BODY_JSON },
	{ HTTP_GET, ZONE "/operations/{operation_id:uuid}/schema_validation",
	    shield_op_sv_get, ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/operations/{operation_id:uuid}/schema_validation",
	    shield_op_sv_put, ROUTE_BODY_JSON },
	{ HTTP_GET, ZONE "/schemas", shield_schemas_get, ROUTE_BODY_NONE },

	{ HTTP_GET, ZONE "/user_schemas", shield_us_list, ROUTE_BODY_NONE },
	{ HTTP_POST, ZONE "/user_schemas", shield_us_create,
	    ROUTE_BODY_MULTIPART },
	{ HTTP_GET, ZONE "/user_schemas/{schema_id:uuid}", shield_us_get,
	    ROUTE_BODY_NONE },
	{ HTTP_PATCH, ZONE "/user_schemas/{schema_id:uuid}", shield_us_patch,
	    ROUTE_BODY_JSON },
	{ HTTP_DELETE, ZONE "/user_schemas/{schema_id:uuid}", shield_us_delete,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, ZONE "/user_schemas/{schema_id:uuid}/operations",
	    shield_us_ops, ROUTE_BODY_NONE },

	{ HTTP_GET, ZONE "/settings/schema_validation", shield_settings_get,
	    ROUTE_BODY_NONE },
	{ HTTP_PUT, ZONE "/settings/schema_validation", shield_settings_put,
	    ROUTE_BODY_JSON },
	{ HTTP_PATCH, ZONE "/settings/schema_validation",
	    shield_settings_patch, ROUTE_BODY_JSON },
};

static void
shield_stop(struct server *srv)
{
	shield_rank_clear(server_store(srv));
}

const struct area shield_area = {
	.name = "api-shield",
	.routes = shield_routes,
	.nroutes = nitems(shield_routes),
	.schema = shield_schema,
	.demo = shield_demo,
	.stop = shield_stop,
};
