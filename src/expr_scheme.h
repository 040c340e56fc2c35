/*
 * The Rules language's scheme as data (api-map-next 12.3, 12.4; api-map-3
 * 22): one row per field and per function. The enums below, the parser's
 * checks, completion and help, the characteristics of rate limiting rules
 * and the evaluator's dispatch are all expanded from these rows, so adding
 * a field or a function is adding a row (and, for a function, its
 * implementation in expr_func.c).
 *
 * The columns' short words (S, RL, ENT, ...) are defined where the rows
 * are expanded: expr_rows.c says what each means.
 */
#ifndef EDGE_EXPR_SCHEME_H
#define EDGE_EXPR_SCHEME_H

/*
 * Fields: F(id, name, type, phases, plan, flags, characteristic, summary),
 * and A(id, name, summary) for a deprecated name of field id (it parses
 * to that field; the formatter writes the current name).
 *
 * The plan column follows api-map-next 11.4 (rate limiting): Free has the
 * path and Verified Bot; Pro adds host, URI, full URI and query; Business
 * method, source IP and user agent, and the response fields of counting
 * expressions; Enterprise the rest. The characteristic column says
 * whether ratelimit.characteristics may count requests apart by the
 * field, in which form, and from which plan (11.4's characteristics).
 */
#define EXPR_FIELDS(F, A)						\
	F(HTTP_HOST, "http.host", S, RL, PRO, 0, CHAR(ENT, PLAIN),	\
	    "Host of the original request")				\
	F(URI, "http.request.uri", S, RL, PRO, 0, NOCHAR,		\
	    "Path plus ?query")						\
	F(URI_PATH, "http.request.uri.path", S, RL, FREE, 0,		\
	    CHAR(ENT, PLAIN), "Path without the query")			\
	F(URI_PATH_EXTENSION, "http.request.uri.path.extension", S, RL, ENT, \
	    0, NOCHAR, "Path's extension, lower case, no dot")		\
	F(URI_QUERY, "http.request.uri.query", S, RL, PRO, 0, NOCHAR,	\
	    "Query without the '?'")					\
	F(URI_ARGS, "http.request.uri.args", MAS, RL, ENT, 0,		\
	    CHAR(ENT, KEY), "Query arguments, not decoded")		\
	F(URI_ARGS_NAMES, "http.request.uri.args.names", AS, RL, ENT, 0,	\
	    NOCHAR, "Query argument names")				\
	F(URI_ARGS_VALUES, "http.request.uri.args.values", AS, RL, ENT, 0, \
	    NOCHAR, "Query argument values")				\
	F(FULL_URI, "http.request.full_uri", S, RL, PRO, 0, NOCHAR,	\
	    "scheme://host/path?query")					\
	F(METHOD, "http.request.method", S, RL, BIZ, 0, NOCHAR,		\
	    "Method, upper case")					\
	F(VERSION, "http.request.version", S, RL, ENT, 0, NOCHAR,	\
	    "HTTP version (HTTP/1.1, HTTP/3)")				\
	F(USER_AGENT, "http.user_agent", S, RL, BIZ, 0, NOCHAR,		\
	    "User-Agent header")					\
	F(COOKIE, "http.cookie", S, RL, ENT, 0, NOCHAR,			\
	    "Cookie header, whole")					\
	F(REFERER, "http.referer", S, RL, ENT, 0, NOCHAR,		\
	    "Referer header")						\
	F(X_FORWARDED_FOR, "http.x_forwarded_for", S, RL, ENT, 0, NOCHAR, \
	    "X-Forwarded-For header")					\
	F(HEADERS, "http.request.headers", MAS, RL, ENT, LOWER_KEYS,	\
	    CHAR(ENT, KEY), "Request headers by lower-case name")	\
	F(HEADERS_NAMES, "http.request.headers.names", AS, RL, ENT, 0,	\
	    NOCHAR, "Request header names")				\
	F(HEADERS_VALUES, "http.request.headers.values", AS, RL, ENT, 0, \
	    NOCHAR, "Request header values")				\
	F(HEADERS_TRUNCATED, "http.request.headers.truncated", B, RL, ENT, \
	    0, NOCHAR, "Too many headers to keep them all")		\
	F(COOKIES, "http.request.cookies", MAS, RL, ENT, 0,		\
	    CHAR(ENT, KEY), "Cookies by URL-decoded name")		\
	F(TIMESTAMP_SEC, "http.request.timestamp.sec", I, RL, ENT, 0,	\
	    NOCHAR, "Arrival time, Unix seconds")			\
	F(TIMESTAMP_MSEC, "http.request.timestamp.msec", I, RL, ENT, 0,	\
	    NOCHAR, "Arrival time's milliseconds")			\
	F(BODY_RAW, "http.request.body.raw", S, RL, ENT, 0,		\
	    CHAR(ENT, PLAIN | JSON), "Request body")			\
	F(BODY_SIZE, "http.request.body.size", I, RL, ENT, 0,		\
	    CHAR(ENT, PLAIN), "Request body size in bytes")		\
	F(BODY_TRUNCATED, "http.request.body.truncated", B, RL, ENT, 0,	\
	    NOCHAR, "Body longer than what is kept")			\
	F(BODY_MIME, "http.request.body.mime", S, RL, ENT, 0, NOCHAR,	\
	    "Body's MIME type as sniffed")				\
	F(BODY_FORM, "http.request.body.form", MAS, RL, ENT, 0,		\
	    CHAR(ENT, KEY), "Form fields of the body")			\
	F(BODY_FORM_NAMES, "http.request.body.form.names", AS, RL, ENT, 0, \
	    NOCHAR, "Form field names")					\
	F(BODY_FORM_VALUES, "http.request.body.form.values", AS, RL, ENT, 0, \
	    NOCHAR, "Form field values")				\
	F(IP_SRC, "ip.src", IP, RL, BIZ, 0, CLIENT(FREE, "per IP"),	\
	    "Client address")						\
	F(IP_COUNTRY, "ip.src.country", S, RL, ENT, 0, CHAR(ENT, PLAIN), \
	    "Client's country (ISO 3166-1 alpha-2)")			\
	F(IP_ASNUM, "ip.src.asnum", I, RL, ENT, 0, CHAR(ENT, PLAIN),	\
	    "Client's autonomous system number")			\
	F(IP_CONTINENT, "ip.src.continent", S, RL, ENT, 0, NOCHAR,	\
	    "Client's continent (AF AN AS EU NA OC SA T1)")		\
	F(IP_CITY, "ip.src.city", S, RL, ENT, 0, NOCHAR, "Client's city") \
	F(IP_REGION, "ip.src.region", S, RL, ENT, 0, NOCHAR,		\
	    "Client's region")						\
	F(IP_REGION_CODE, "ip.src.region_code", S, RL, ENT, 0, NOCHAR,	\
	    "Client's region code")					\
	F(IP_SUBDIVISION_1, "ip.src.subdivision_1_iso_code", S, RL, ENT, 0, \
	    NOCHAR, "Client's first-level subdivision")			\
	F(IP_SUBDIVISION_2, "ip.src.subdivision_2_iso_code", S, RL, ENT, 0, \
	    NOCHAR, "Client's second-level subdivision")		\
	F(IP_POSTAL_CODE, "ip.src.postal_code", S, RL, ENT, 0, NOCHAR,	\
	    "Client's postal code")					\
	F(IP_METRO_CODE, "ip.src.metro_code", S, RL, ENT, 0, NOCHAR,	\
	    "Client's metro code")					\
	F(IP_TIMEZONE, "ip.src.timezone.name", S, RL, ENT, 0, NOCHAR,	\
	    "Client's time zone")					\
	F(IP_IN_EU, "ip.src.is_in_european_union", B, RL, ENT, 0, NOCHAR, \
	    "Client in the European Union")				\
	A(IP_COUNTRY, "ip.geoip.country", "Deprecated: ip.src.country")	\
	A(IP_ASNUM, "ip.geoip.asnum", "Deprecated: ip.src.asnum")	\
	A(IP_CONTINENT, "ip.geoip.continent",				\
	    "Deprecated: ip.src.continent")				\
	A(IP_IN_EU, "ip.geoip.is_in_european_union",			\
	    "Deprecated: ip.src.is_in_european_union")			\
	A(IP_SUBDIVISION_1, "ip.geoip.subdivision_1_iso_code",		\
	    "Deprecated: ip.src.subdivision_1_iso_code")		\
	A(IP_SUBDIVISION_2, "ip.geoip.subdivision_2_iso_code",		\
	    "Deprecated: ip.src.subdivision_2_iso_code")		\
	F(SSL, "ssl", B, RL, ENT, 0, NOCHAR,				\
	    "The client connection is encrypted")			\
	F(VERIFIED_BOT, "cf.bot_management.verified_bot", B, RL, FREE, 0, \
	    NOCHAR, "A known good bot")					\
	A(VERIFIED_BOT, "cf.client.bot",				\
	    "Same as cf.bot_management.verified_bot")			\
	F(BOT_SCORE, "cf.bot_management.score", I, RL, ENT, 0, NOCHAR,	\
	    "Bot score 1-99 (Bot Management)")				\
	F(BOT_JA3, "cf.bot_management.ja3_hash", S, RL, ENT, 0,		\
	    CHAR(ENT, PLAIN), "JA3 fingerprint (Bot Management)")	\
	F(BOT_JA4, "cf.bot_management.ja4", S, RL, ENT, 0,		\
	    CHAR(ENT, PLAIN), "JA4 fingerprint (Bot Management)")	\
	F(BOT_STATIC_RESOURCE, "cf.bot_management.static_resource", B, RL, \
	    ENT, 0, NOCHAR, "A static resource (Bot Management)")	\
	F(BOT_CORPORATE_PROXY, "cf.bot_management.corporate_proxy", B, RL, \
	    ENT, 0, NOCHAR, "From a corporate proxy (Bot Management)")	\
	F(BOT_JS_PASSED, "cf.bot_management.js_detection.passed", B, RL,	\
	    ENT, 0, NOCHAR, "Passed JavaScript detection")		\
	F(BOT_DETECTION_IDS, "cf.bot_management.detection_ids", AI, RL,	\
	    ENT, 0, NOCHAR, "Bot detection ids")			\
	F(EDGE_SERVER_IP, "cf.edge.server_ip", IP, RL, ENT, 0, NOCHAR,	\
	    "Edge address the request reached")				\
	F(EDGE_SERVER_PORT, "cf.edge.server_port", I, RL, ENT, 0, NOCHAR, \
	    "Edge port the request reached")				\
	F(COLO_ID, "cf.colo.id", I, NOPHASE, FREE, 0, REQUIRED(FREE),	\
	    "Data center that counts the request")			\
	F(UNIQUE_VISITOR_ID, "cf.unique_visitor_id", S, NOPHASE, BIZ, 0,	\
	    CLIENT(BIZ, "per IP with NAT"), "Client, told apart behind NAT") \
	F(RESPONSE_CODE, "http.response.code", I, RLC, BIZ, 0, NOCHAR,	\
	    "Response status (counting expressions)")			\
	F(RESPONSE_HEADERS, "http.response.headers", MAS, RLC, BIZ,	\
	    LOWER_KEYS, NOCHAR,						\
	    "Response headers by lower-case name (counting expressions)") \
	F(RESPONSE_HEADERS_NAMES, "http.response.headers.names", AS, RLC,	\
	    BIZ, 0, NOCHAR, "Response header names (counting expressions)") \
	F(RESPONSE_HEADERS_VALUES, "http.response.headers.values", AS, RLC, \
	    BIZ, 0, NOCHAR, "Response header values (counting expressions)")

/*
 * Functions: F(id, name, returns, phases, plan, implementation,
 * (parameters), summary), and Q(...) with the same columns for any() and
 * all(), which are conditions (parsed apart) more than calls. The
 * parameters give the arity: MORE and KEYS repeat, OPTIONAL and LETTERS
 * may be left out. A function whose phases are NOPHASE is a name the
 * language has elsewhere: it is refused as "not available" here, and its
 * parameters are not described yet (NOPARAMS).
 */
#define EXPR_FUNCS(F, Q)						\
	Q(ANY, "any", B, RL, FREE, NULL, (ARG(AB)),			\
	    "True when any element is true")				\
	Q(ALL, "all", B, RL, FREE, NULL, (ARG(AB)),			\
	    "True when every element is true")				\
	F(LOWER, "lower", S, RL, FREE, fn_lower, (ARG(S)),		\
	    "ASCII letters to lower case")				\
	F(UPPER, "upper", S, RL, FREE, fn_upper, (ARG(S)),		\
	    "ASCII letters to upper case")				\
	F(LEN, "len", I, RL, FREE, fn_len, (ARG(STR_OR_ARRAY)),		\
	    "Byte length, or element count")				\
	F(STARTS_WITH, "starts_with", B, RL, FREE, fn_starts_with,	\
	    (FIELD(S), ARG(S)), "The field starts with the text")	\
	F(ENDS_WITH, "ends_with", B, RL, FREE, fn_ends_with,		\
	    (FIELD(S), ARG(S)), "The field ends with the text")		\
	F(CONCAT, "concat", SAME, RL, FREE, fn_concat,			\
	    (ARG(STR_OR_ARRAY), MORE(SAME)), "Joins strings or arrays")	\
	F(SUBSTRING, "substring", S, RL, FREE, fn_substring,		\
	    (ARG(S), NAMED(I, "start"), OPTIONAL(I, "end")),		\
	    "Bytes from start to end; negative counts from the end")	\
	F(URL_DECODE, "url_decode", S, RL, FREE, fn_url_decode,		\
	    (FIELD(S), LETTERS("opts", "ru")),				\
	    "Percent-decodes (opts: r repeatedly, u %uXXXX)")		\
	F(LOOKUP_JSON_STRING, "lookup_json_string", S, RL, FREE,		\
	    fn_lookup_json_string, (ARG(S), KEYS),			\
	    "A JSON string at a path of keys/indexes")			\
	F(LOOKUP_JSON_INTEGER, "lookup_json_integer", I, RL, FREE,	\
	    fn_lookup_json_integer, (ARG(S), KEYS),			\
	    "A JSON integer at a path of keys/indexes")			\
	F(DECODE_BASE64, "decode_base64", S, RL, FREE, fn_decode_base64,	\
	    (FIELD(S)), "Decodes base64")				\
	F(CIDR, "cidr", IP, RL, FREE, fn_cidr,				\
	    (FIELD(IP), RANGE(1, 32), RANGE(1, 128)),			\
	    "The address's network")					\
	F(CIDR6, "cidr6", IP, RL, FREE, fn_cidr6, (FIELD(IP), RANGE(1, 128)), \
	    "The address's network (IPv6 prefix only)")			\
	F(REMOVE_BYTES, "remove_bytes", S, RL, FREE, fn_remove_bytes,	\
	    (ARG(S), ARG(S)), "Removes every byte listed")		\
	F(IS_TIMED_HMAC_VALID_V0, "is_timed_hmac_valid_v0", B, RL, PRO,	\
	    fn_is_timed_hmac_valid_v0, (LITERAL(S, "key"), FIELD(S),	\
	    NAMED(I, "ttl"), NAMED(I, "ts"), OPTIONAL(I, "sep_len"),	\
	    OPTIONAL(S, "flags")), "Checks an HMAC token and its age")	\
	F(WILDCARD_REPLACE, "wildcard_replace", NONE, NOPHASE, FREE, NULL, \
	    NOPARAMS, "")						\
	F(REGEX_REPLACE, "regex_replace", NONE, NOPHASE, FREE, NULL,	\
	    NOPARAMS, "")						\
	F(TO_STRING, "to_string", NONE, NOPHASE, FREE, NULL, NOPARAMS, "") \
	F(UUIDV4, "uuidv4", NONE, NOPHASE, FREE, NULL, NOPARAMS, "")	\
	F(REMOVE_QUERY_ARGS, "remove_query_args", NONE, NOPHASE, FREE, NULL, \
	    NOPARAMS, "")						\
	F(JOIN, "join", NONE, NOPHASE, FREE, NULL, NOPARAMS, "")		\
	F(SPLIT, "split", NONE, NOPHASE, FREE, NULL, NOPARAMS, "")	\
	F(HAS_KEY, "has_key", NONE, NOPHASE, FREE, NULL, NOPARAMS, "")	\
	F(HAS_VALUE, "has_value", NONE, NOPHASE, FREE, NULL, NOPARAMS, "") \
	F(ENCODE_BASE64, "encode_base64", NONE, NOPHASE, FREE, NULL,	\
	    NOPARAMS, "")						\
	F(SHA256, "sha256", NONE, NOPHASE, FREE, NULL, NOPARAMS, "")	\
	F(BIT_SLICE, "bit_slice", NONE, NOPHASE, FREE, NULL, NOPARAMS, "") \
	F(JSON_LOOKUP_STRING, "json_lookup_string", NONE, NOPHASE, FREE,	\
	    NULL, NOPARAMS, "")

/* The enums, from the rows: EXPR_F_HTTP_HOST, EXPR_FN_LOWER, ... */
#define EXPR_SCHEME_ENUM_F(id, ...)	EXPR_F_##id,
#define EXPR_SCHEME_ENUM_A(...)
enum expr_field {
	EXPR_F_NONE = 0,
	EXPR_FIELDS(EXPR_SCHEME_ENUM_F, EXPR_SCHEME_ENUM_A)
	EXPR_F__COUNT
};
#undef EXPR_SCHEME_ENUM_F
#undef EXPR_SCHEME_ENUM_A

#define EXPR_SCHEME_ENUM_FN(id, ...)	EXPR_FN_##id,
enum expr_func {
	EXPR_FN_NONE = 0,
	EXPR_FUNCS(EXPR_SCHEME_ENUM_FN, EXPR_SCHEME_ENUM_FN)
	EXPR_FN__COUNT
};
#undef EXPR_SCHEME_ENUM_FN

#endif
