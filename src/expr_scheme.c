/*
 * The Rules language's scheme for rate limiting rules (api-map-next 12.3,
 * 12.4): fields and functions with their types, the first plan that has
 * each (11.4's plan table) and which only counting expressions may use.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "expr_int.h"

#define S	EXPR_T_STRING
#define I	EXPR_T_INT
#define IP	EXPR_T_IP
#define B	EXPR_T_BOOL
#define AS	EXPR_TYPE_ARRAY_OF(EXPR_T_STRING)
#define AI	EXPR_TYPE_ARRAY_OF(EXPR_T_INT)
#define MAS	EXPR_TYPE_MAP_OF(EXPR_TYPE_ARRAY_OF(EXPR_T_STRING))

#define FREE	EXPR_PLAN_FREE
#define PRO	EXPR_PLAN_PRO
#define BIZ	EXPR_PLAN_BUSINESS
#define ENT	EXPR_PLAN_ENTERPRISE

/*
 * name, field, type, type name, plan, counting only, alias, summary.
 * The plan column follows 11.4: Free has the path and Verified Bot; Pro
 * adds host, URI, full URI and query; Business method, source IP and user
 * agent, and the response fields of counting expressions; Enterprise the
 * rest.
 */
#define EXPR_FIELDS(X)							\
	X("http.host", EXPR_F_HTTP_HOST, S, "String", PRO, 0, 0,		\
	    "Host of the original request")					\
	X("http.request.uri", EXPR_F_URI, S, "String", PRO, 0, 0,		\
	    "Path plus ?query")						\
	X("http.request.uri.path", EXPR_F_URI_PATH, S, "String", FREE, 0, 0,	\
	    "Path without the query")					\
	X("http.request.uri.path.extension", EXPR_F_URI_PATH_EXTENSION, S,	\
	    "String", ENT, 0, 0, "Path's extension, lower case, no dot")	\
	X("http.request.uri.query", EXPR_F_URI_QUERY, S, "String", PRO, 0, 0, \
	    "Query without the '?'")					\
	X("http.request.uri.args", EXPR_F_URI_ARGS, MAS,			\
	    "Map<Array<String>>", ENT, 0, 0, "Query arguments, not decoded") \
	X("http.request.uri.args.names", EXPR_F_URI_ARGS_NAMES, AS,		\
	    "Array<String>", ENT, 0, 0, "Query argument names")		\
	X("http.request.uri.args.values", EXPR_F_URI_ARGS_VALUES, AS,	\
	    "Array<String>", ENT, 0, 0, "Query argument values")		\
	X("http.request.full_uri", EXPR_F_FULL_URI, S, "String", PRO, 0, 0,	\
	    "scheme://host/path?query")					\
	X("http.request.method", EXPR_F_METHOD, S, "String", BIZ, 0, 0,	\
	    "Method, upper case")						\
	X("http.request.version", EXPR_F_VERSION, S, "String", ENT, 0, 0,	\
	    "HTTP version (HTTP/1.1, HTTP/3)")				\
	X("http.user_agent", EXPR_F_USER_AGENT, S, "String", BIZ, 0, 0,	\
	    "User-Agent header")						\
	X("http.cookie", EXPR_F_COOKIE, S, "String", ENT, 0, 0,		\
	    "Cookie header, whole")						\
	X("http.referer", EXPR_F_REFERER, S, "String", ENT, 0, 0,		\
	    "Referer header")						\
	X("http.x_forwarded_for", EXPR_F_X_FORWARDED_FOR, S, "String", ENT,	\
	    0, 0, "X-Forwarded-For header")					\
	X("http.request.headers", EXPR_F_HEADERS, MAS, "Map<Array<String>>", \
	    ENT, 0, 0, "Request headers by lower-case name")		\
	X("http.request.headers.names", EXPR_F_HEADERS_NAMES, AS,		\
	    "Array<String>", ENT, 0, 0, "Request header names")		\
	X("http.request.headers.values", EXPR_F_HEADERS_VALUES, AS,		\
	    "Array<String>", ENT, 0, 0, "Request header values")		\
	X("http.request.headers.truncated", EXPR_F_HEADERS_TRUNCATED, B,	\
	    "Bool", ENT, 0, 0, "Too many headers to keep them all")	\
	X("http.request.cookies", EXPR_F_COOKIES, MAS, "Map<Array<String>>", \
	    ENT, 0, 0, "Cookies by URL-decoded name")			\
	X("http.request.timestamp.sec", EXPR_F_TIMESTAMP_SEC, I, "Int", ENT,	\
	    0, 0, "Arrival time, Unix seconds")				\
	X("http.request.timestamp.msec", EXPR_F_TIMESTAMP_MSEC, I, "Int",	\
	    ENT, 0, 0, "Arrival time's milliseconds")			\
	X("http.request.body.raw", EXPR_F_BODY_RAW, S, "String", ENT, 0, 0,	\
	    "Request body")							\
	X("http.request.body.size", EXPR_F_BODY_SIZE, I, "Int", ENT, 0, 0,	\
	    "Request body size in bytes")					\
	X("http.request.body.truncated", EXPR_F_BODY_TRUNCATED, B, "Bool",	\
	    ENT, 0, 0, "Body longer than what is kept")			\
	X("http.request.body.mime", EXPR_F_BODY_MIME, S, "String", ENT, 0, 0, \
	    "Body's MIME type as sniffed")					\
	X("http.request.body.form", EXPR_F_BODY_FORM, MAS,			\
	    "Map<Array<String>>", ENT, 0, 0, "Form fields of the body")	\
	X("http.request.body.form.names", EXPR_F_BODY_FORM_NAMES, AS,	\
	    "Array<String>", ENT, 0, 0, "Form field names")		\
	X("http.request.body.form.values", EXPR_F_BODY_FORM_VALUES, AS,	\
	    "Array<String>", ENT, 0, 0, "Form field values")		\
	X("ip.src", EXPR_F_IP_SRC, IP, "IP", BIZ, 0, 0, "Client address")	\
	X("ip.src.country", EXPR_F_IP_COUNTRY, S, "String", ENT, 0, 0,	\
	    "Client's country (ISO 3166-1 alpha-2)")			\
	X("ip.src.asnum", EXPR_F_IP_ASNUM, I, "Int", ENT, 0, 0,		\
	    "Client's autonomous system number")				\
	X("ip.src.continent", EXPR_F_IP_CONTINENT, S, "String", ENT, 0, 0,	\
	    "Client's continent (AF AN AS EU NA OC SA T1)")		\
	X("ip.src.city", EXPR_F_IP_CITY, S, "String", ENT, 0, 0,		\
	    "Client's city")						\
	X("ip.src.region", EXPR_F_IP_REGION, S, "String", ENT, 0, 0,		\
	    "Client's region")						\
	X("ip.src.region_code", EXPR_F_IP_REGION_CODE, S, "String", ENT, 0,	\
	    0, "Client's region code")					\
	X("ip.src.subdivision_1_iso_code", EXPR_F_IP_SUBDIVISION_1, S,	\
	    "String", ENT, 0, 0, "Client's first-level subdivision")	\
	X("ip.src.subdivision_2_iso_code", EXPR_F_IP_SUBDIVISION_2, S,	\
	    "String", ENT, 0, 0, "Client's second-level subdivision")	\
	X("ip.src.postal_code", EXPR_F_IP_POSTAL_CODE, S, "String", ENT, 0,	\
	    0, "Client's postal code")					\
	X("ip.src.metro_code", EXPR_F_IP_METRO_CODE, S, "String", ENT, 0, 0, \
	    "Client's metro code")						\
	X("ip.src.timezone.name", EXPR_F_IP_TIMEZONE, S, "String", ENT, 0,	\
	    0, "Client's time zone")					\
	X("ip.src.is_in_european_union", EXPR_F_IP_IN_EU, B, "Bool", ENT, 0, \
	    0, "Client in the European Union")				\
	X("ip.geoip.country", EXPR_F_IP_COUNTRY, S, "String", ENT, 0, 1,	\
	    "Deprecated: ip.src.country")					\
	X("ip.geoip.asnum", EXPR_F_IP_ASNUM, I, "Int", ENT, 0, 1,		\
	    "Deprecated: ip.src.asnum")					\
	X("ip.geoip.continent", EXPR_F_IP_CONTINENT, S, "String", ENT, 0, 1, \
	    "Deprecated: ip.src.continent")					\
	X("ip.geoip.is_in_european_union", EXPR_F_IP_IN_EU, B, "Bool", ENT,	\
	    0, 1, "Deprecated: ip.src.is_in_european_union")		\
	X("ip.geoip.subdivision_1_iso_code", EXPR_F_IP_SUBDIVISION_1, S,	\
	    "String", ENT, 0, 1, "Deprecated: ip.src.subdivision_1_iso_code") \
	X("ip.geoip.subdivision_2_iso_code", EXPR_F_IP_SUBDIVISION_2, S,	\
	    "String", ENT, 0, 1, "Deprecated: ip.src.subdivision_2_iso_code") \
	X("ssl", EXPR_F_SSL, B, "Bool", ENT, 0, 0,				\
	    "The client connection is encrypted")				\
	X("cf.bot_management.verified_bot", EXPR_F_VERIFIED_BOT, B, "Bool",	\
	    FREE, 0, 0, "A known good bot")					\
	X("cf.client.bot", EXPR_F_VERIFIED_BOT, B, "Bool", FREE, 0, 1,	\
	    "Same as cf.bot_management.verified_bot")			\
	X("cf.bot_management.score", EXPR_F_BOT_SCORE, I, "Int", ENT, 0, 0,	\
	    "Bot score 1-99 (Bot Management)")				\
	X("cf.bot_management.ja3_hash", EXPR_F_BOT_JA3, S, "String", ENT, 0, \
	    0, "JA3 fingerprint (Bot Management)")				\
	X("cf.bot_management.ja4", EXPR_F_BOT_JA4, S, "String", ENT, 0, 0,	\
	    "JA4 fingerprint (Bot Management)")				\
	X("cf.bot_management.static_resource", EXPR_F_BOT_STATIC_RESOURCE, B, \
	    "Bool", ENT, 0, 0, "A static resource (Bot Management)")	\
	X("cf.bot_management.corporate_proxy", EXPR_F_BOT_CORPORATE_PROXY, B, \
	    "Bool", ENT, 0, 0, "From a corporate proxy (Bot Management)")	\
	X("cf.bot_management.js_detection.passed", EXPR_F_BOT_JS_PASSED, B,	\
	    "Bool", ENT, 0, 0, "Passed JavaScript detection")		\
	X("cf.bot_management.detection_ids", EXPR_F_BOT_DETECTION_IDS, AI,	\
	    "Array<Int>", ENT, 0, 0, "Bot detection ids")		\
	X("cf.edge.server_ip", EXPR_F_EDGE_SERVER_IP, IP, "IP", ENT, 0, 0,	\
	    "Edge address the request reached")				\
	X("cf.edge.server_port", EXPR_F_EDGE_SERVER_PORT, I, "Int", ENT, 0,	\
	    0, "Edge port the request reached")				\
	X("http.response.code", EXPR_F_RESPONSE_CODE, I, "Int", BIZ, 1, 0,	\
	    "Response status (counting expressions)")			\
	X("http.response.headers", EXPR_F_RESPONSE_HEADERS, MAS,		\
	    "Map<Array<String>>", BIZ, 1, 0,					\
	    "Response headers by lower-case name (counting expressions)")	\
	X("http.response.headers.names", EXPR_F_RESPONSE_HEADERS_NAMES, AS,	\
	    "Array<String>", BIZ, 1, 0,					\
	    "Response header names (counting expressions)")		\
	X("http.response.headers.values", EXPR_F_RESPONSE_HEADERS_VALUES, AS, \
	    "Array<String>", BIZ, 1, 0,					\
	    "Response header values (counting expressions)")

/* name, func, signature, plan, summary */
#define EXPR_FUNCS(X)							\
	X("any", EXPR_FN_ANY, "any(Array<Bool>) -> Bool", FREE,		\
	    "True when any element is true")				\
	X("all", EXPR_FN_ALL, "all(Array<Bool>) -> Bool", FREE,		\
	    "True when every element is true")				\
	X("lower", EXPR_FN_LOWER, "lower(String) -> String", FREE,		\
	    "ASCII letters to lower case")					\
	X("upper", EXPR_FN_UPPER, "upper(String) -> String", FREE,		\
	    "ASCII letters to upper case")					\
	X("len", EXPR_FN_LEN, "len(String|Array) -> Int", FREE,		\
	    "Byte length, or element count")				\
	X("starts_with", EXPR_FN_STARTS_WITH,					\
	    "starts_with(String field, String) -> Bool", FREE,		\
	    "The field starts with the text")				\
	X("ends_with", EXPR_FN_ENDS_WITH,					\
	    "ends_with(String field, String) -> Bool", FREE,		\
	    "The field ends with the text")					\
	X("concat", EXPR_FN_CONCAT, "concat(String|Array, ...) -> String|Array", \
	    FREE, "Joins strings or arrays")				\
	X("substring", EXPR_FN_SUBSTRING,					\
	    "substring(String, Int start[, Int end]) -> String", FREE,	\
	    "Bytes from start to end; negative counts from the end")	\
	X("url_decode", EXPR_FN_URL_DECODE,					\
	    "url_decode(String field[, String opts]) -> String", FREE,	\
	    "Percent-decodes (opts: r repeatedly, u %uXXXX)")		\
	X("lookup_json_string", EXPR_FN_LOOKUP_JSON_STRING,			\
	    "lookup_json_string(String, key, ...) -> String", FREE,	\
	    "A JSON string at a path of keys/indexes")			\
	X("lookup_json_integer", EXPR_FN_LOOKUP_JSON_INTEGER,			\
	    "lookup_json_integer(String, key, ...) -> Int", FREE,		\
	    "A JSON integer at a path of keys/indexes")			\
	X("decode_base64", EXPR_FN_DECODE_BASE64,				\
	    "decode_base64(String field) -> String", FREE,		\
	    "Decodes base64")						\
	X("cidr", EXPR_FN_CIDR, "cidr(IP field, Int 1..32, Int 1..128) -> IP", \
	    FREE, "The address's network")					\
	X("cidr6", EXPR_FN_CIDR6, "cidr6(IP field, Int 1..128) -> IP", FREE,	\
	    "The address's network (IPv6 prefix only)")			\
	X("remove_bytes", EXPR_FN_REMOVE_BYTES,				\
	    "remove_bytes(String, String) -> String", FREE,		\
	    "Removes every byte listed")					\
	X("is_timed_hmac_valid_v0", EXPR_FN_IS_TIMED_HMAC_VALID_V0,		\
	    "is_timed_hmac_valid_v0(String key, String field, Int ttl, "	\
	    "Int ts[, Int sep_len][, String flags]) -> Bool", PRO,	\
	    "Checks an HMAC token and its age")

static const struct expr_field_info expr_fields[] = {
#define X(n, f, t, tn, p, c, a, sm) { n, f, t, p, c, a },
	EXPR_FIELDS(X)
#undef X
};

static const struct expr_symbol expr_syms[] = {
#define X(n, f, t, tn, p, c, a, sm) { n, tn, sm, p, 0, c },
	EXPR_FIELDS(X)
#undef X
#define X(n, f, sig, p, sm) { n, sig, sm, p, 1, 0 },
	EXPR_FUNCS(X)
#undef X
};

static const struct {
	const char	*name;
	enum expr_func	 func;
} expr_funcs[] = {
#define X(n, f, sig, p, sm) { n, f },
	EXPR_FUNCS(X)
#undef X
};

const struct expr_symbol *
expr_symbols(size_t *n)
{
	*n = nitems(expr_syms);
	return (expr_syms);
}

const struct expr_symbol *
expr_symbol_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(expr_syms); i++)
		if (strcmp(expr_syms[i].name, name) == 0)
			return (&expr_syms[i]);
	return (NULL);
}

const struct expr_field_info *
expr_field_lookup(const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < nitems(expr_fields); i++)
		if (strlen(expr_fields[i].name) == len &&
		    memcmp(expr_fields[i].name, name, len) == 0)
			return (&expr_fields[i]);
	return (NULL);
}

const struct expr_field_info *
expr_field_info(enum expr_field f)
{
	size_t	i;

	for (i = 0; i < nitems(expr_fields); i++)
		if (expr_fields[i].field == f && !expr_fields[i].alias)
			return (&expr_fields[i]);
	return (NULL);
}

const char *
expr_field_name(enum expr_field f)
{
	const struct expr_field_info	*fi = expr_field_info(f);

	return (fi != NULL ? fi->name : "?");
}

const char *
expr_field_short_name(enum expr_field f)
{
	const char	*best = NULL;
	size_t		 i;

	for (i = 0; i < nitems(expr_fields); i++)
		if (expr_fields[i].field == f && (best == NULL ||
		    strlen(expr_fields[i].name) < strlen(best)))
			best = expr_fields[i].name;
	return (best != NULL ? best : "?");
}

enum expr_func
expr_func_lookup(const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < nitems(expr_funcs); i++)
		if (strlen(expr_funcs[i].name) == len &&
		    memcmp(expr_funcs[i].name, name, len) == 0)
			return (expr_funcs[i].func);
	return (EXPR_FN_NONE);
}

const char *
expr_func_name(enum expr_func fn)
{
	size_t	i;

	for (i = 0; i < nitems(expr_funcs); i++)
		if (expr_funcs[i].func == fn)
			return (expr_funcs[i].name);
	return ("?");
}

enum expr_plan
expr_func_plan(enum expr_func fn)
{
	const struct expr_symbol	*sym;

	sym = expr_symbol_find(expr_func_name(fn));
	return (sym != NULL ? sym->plan : EXPR_PLAN_FREE);
}

const char *
expr_op_name(enum expr_op op)
{
	static const char *const names[] = {
		[EXPR_OP_NONE] = "",
		[EXPR_OP_EQ] = "eq",
		[EXPR_OP_NE] = "ne",
		[EXPR_OP_LT] = "lt",
		[EXPR_OP_LE] = "le",
		[EXPR_OP_GT] = "gt",
		[EXPR_OP_GE] = "ge",
		[EXPR_OP_CONTAINS] = "contains",
		[EXPR_OP_MATCHES] = "matches",
		[EXPR_OP_WILDCARD] = "wildcard",
		[EXPR_OP_STRICT_WILDCARD] = "strict wildcard",
		[EXPR_OP_IN] = "in",
		[EXPR_OP_IN_LIST] = "in",
		[EXPR_OP_BITAND] = "bitwise_and",
	};

	if ((size_t)op >= nitems(names))
		return ("?");
	return (names[op]);
}

const char *
expr_type_name(unsigned t, char *buf, size_t n)
{
	char	inner[64];

	switch (EXPR_TYPE_OUTER(t)) {
	case EXPR_T_STRING:
		snprintf(buf, n, "String");
		break;
	case EXPR_T_INT:
		snprintf(buf, n, "Int");
		break;
	case EXPR_T_IP:
		snprintf(buf, n, "IP");
		break;
	case EXPR_T_BOOL:
		snprintf(buf, n, "Bool");
		break;
	case EXPR_T_ARRAY:
		snprintf(buf, n, "Array<%s>", expr_type_name(EXPR_TYPE_ELEM(t),
		    inner, sizeof inner));
		break;
	case EXPR_T_MAP:
		snprintf(buf, n, "Map<%s>", expr_type_name(EXPR_TYPE_ELEM(t),
		    inner, sizeof inner));
		break;
	default:
		snprintf(buf, n, "nothing");
		break;
	}
	return (buf);
}

static const char *const plan_names[] = {
	[EXPR_PLAN_NONE] = "any",
	[EXPR_PLAN_FREE] = "free",
	[EXPR_PLAN_PRO] = "pro",
	[EXPR_PLAN_BUSINESS] = "business",
	[EXPR_PLAN_ENTERPRISE] = "enterprise",
};

int
expr_plan_parse(const char *s, enum expr_plan *p)
{
	size_t	i;

	for (i = EXPR_PLAN_FREE; i < nitems(plan_names); i++)
		if (strcasecmp(s, plan_names[i]) == 0) {
			*p = (enum expr_plan)i;
			return (0);
		}
	return (-1);
}

const char *
expr_plan_name(enum expr_plan p)
{
	if ((size_t)p >= nitems(plan_names))
		return ("?");
	return (plan_names[p]);
}

const char *
expr_plan_title(enum expr_plan plan)
{
	switch (plan) {
	case EXPR_PLAN_FREE:
		return ("Free");
	case EXPR_PLAN_PRO:
		return ("Pro");
	case EXPR_PLAN_BUSINESS:
		return ("Business");
	default:
		return ("Enterprise");
	}
}

/* Levenshtein distance, capped: names are short. */
static size_t
edit_distance(const char *a, size_t la, const char *b)
{
	size_t	lb = strlen(b), i, j, prev, cur, tmp, row[128];

	if (la >= nitems(row) || lb >= nitems(row))
		return ((size_t)-1);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = MINIMUM(row[j] + 1, row[j - 1] + 1);
			tmp = prev + (a[i - 1] == b[j - 1] ? 0 : 1);
			cur = MINIMUM(cur, tmp);
			prev = row[j];
			row[j] = cur;
		}
	}
	return (row[lb]);
}

const char *
expr_suggest(const char *name, size_t len, int functions)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = (size_t)-1, limit;

	limit = len < 6 ? 2 : len / 3;
	for (i = 0; i < nitems(expr_syms); i++) {
		if (expr_syms[i].function != (unsigned)(functions != 0))
			continue;
		d = edit_distance(name, len, expr_syms[i].name);
		if (d < bestd) {
			bestd = d;
			best = expr_syms[i].name;
		}
	}
	return (bestd <= limit ? best : NULL);
}
