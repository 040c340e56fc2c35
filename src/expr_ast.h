/*
 * The compiled form of a Rules language expression, shared by the parser
 * and checker (expr_parse.c), the formatter (expr_fmt.c) and the evaluator
 * (expr_eval.c). Internal to libbase: callers use expr.h.
 *
 * Everything evaluation needs is computed at parse time and lives in one
 * arena owned by struct expr: literals decoded, sets sorted and merged
 * (membership is a binary search), regexes compiled (PCRE2, JIT when the
 * library has it), wildcard patterns split at their stars. Evaluation reads
 * the tree only and allocates nothing; the request object holds its scratch
 * (e.g. one pcre2_match_data sized by expr->max_ovector).
 *
 * Positions are 1-based character columns (UTF-8 code points) in the text
 * given to expr_parse, and a length in characters.
 *
 * Arrays and [*]. A value whose index chain holds [*] is "mapped": the
 * evaluator walks it once per element of one array, the "source" array
 * (the value before the root [*]), and every mapped value inside the same
 * any()/all() is over that same source, so the evaluator computes the
 * element count once (the any/all node points at the source) and evaluates
 * the child tree at element i for each i. A mapped node's type is the type
 * of one element; node->mapped says it is an array of those.
 */
#ifndef EDGE_EXPR_AST_H
#define EDGE_EXPR_AST_H

#include <stddef.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "expr.h"

#define EXPR_MAX_DEPTH	128	/* nesting: parentheses, not, calls, any/all */

/*
 * Value types, packed: the outer kind in the low 4 bits, the element kind
 * of an Array/Map in the next 4, and so on. Map<Array<String>> is
 * EXPR_T_MAP | EXPR_T_ARRAY << 4 | EXPR_T_STRING << 8.
 */
enum expr_tkind {
	EXPR_T_NONE = 0,
	EXPR_T_STRING,		/* bytes (wirefilter's Bytes) */
	EXPR_T_INT,		/* int64_t */
	EXPR_T_IP,		/* struct expr_ip */
	EXPR_T_BOOL,
	EXPR_T_ARRAY,
	EXPR_T_MAP,		/* string keys */
};
#define EXPR_TYPE_OUTER(t)	((enum expr_tkind)((t) & 0xf))
#define EXPR_TYPE_ELEM(t)	((t) >> 4)
#define EXPR_TYPE_ARRAY_OF(t)	(EXPR_T_ARRAY | ((t) << 4))
#define EXPR_TYPE_MAP_OF(t)	(EXPR_T_MAP | ((t) << 4))

/*
 * Fields. Aliases (ip.geoip.country, cf.client.bot) parse to the field they
 * stand for; the formatter writes the current name.
 */
enum expr_field {
	EXPR_F_NONE = 0,
	EXPR_F_HTTP_HOST,
	EXPR_F_URI,			/* http.request.uri: path?query */
	EXPR_F_URI_PATH,
	EXPR_F_URI_PATH_EXTENSION,	/* lower case, no dot */
	EXPR_F_URI_QUERY,		/* without the '?' */
	EXPR_F_URI_ARGS,		/* Map<Array<String>>, not decoded */
	EXPR_F_URI_ARGS_NAMES,
	EXPR_F_URI_ARGS_VALUES,
	EXPR_F_FULL_URI,
	EXPR_F_METHOD,
	EXPR_F_VERSION,
	EXPR_F_USER_AGENT,
	EXPR_F_COOKIE,			/* http.cookie, the whole header */
	EXPR_F_REFERER,
	EXPR_F_X_FORWARDED_FOR,
	EXPR_F_HEADERS,			/* Map<Array<String>>, lower-case keys */
	EXPR_F_HEADERS_NAMES,
	EXPR_F_HEADERS_VALUES,
	EXPR_F_HEADERS_TRUNCATED,
	EXPR_F_COOKIES,			/* http.request.cookies map */
	EXPR_F_TIMESTAMP_SEC,
	EXPR_F_TIMESTAMP_MSEC,
	EXPR_F_BODY_RAW,
	EXPR_F_BODY_SIZE,
	EXPR_F_BODY_TRUNCATED,
	EXPR_F_BODY_MIME,
	EXPR_F_BODY_FORM,
	EXPR_F_BODY_FORM_NAMES,
	EXPR_F_BODY_FORM_VALUES,
	EXPR_F_IP_SRC,
	EXPR_F_IP_COUNTRY,
	EXPR_F_IP_ASNUM,
	EXPR_F_IP_CONTINENT,
	EXPR_F_IP_CITY,
	EXPR_F_IP_REGION,
	EXPR_F_IP_REGION_CODE,
	EXPR_F_IP_SUBDIVISION_1,
	EXPR_F_IP_SUBDIVISION_2,
	EXPR_F_IP_POSTAL_CODE,
	EXPR_F_IP_METRO_CODE,
	EXPR_F_IP_TIMEZONE,
	EXPR_F_IP_IN_EU,
	EXPR_F_SSL,
	EXPR_F_VERIFIED_BOT,		/* also cf.client.bot */
	EXPR_F_BOT_SCORE,
	EXPR_F_BOT_JA3,
	EXPR_F_BOT_JA4,
	EXPR_F_BOT_STATIC_RESOURCE,
	EXPR_F_BOT_CORPORATE_PROXY,
	EXPR_F_BOT_JS_PASSED,
	EXPR_F_BOT_DETECTION_IDS,	/* Array<Int> */
	EXPR_F_EDGE_SERVER_IP,
	EXPR_F_EDGE_SERVER_PORT,
	EXPR_F_RESPONSE_CODE,		/* counting expressions only */
	EXPR_F_RESPONSE_HEADERS,	/* Map<Array<String>>, lower-case keys */
	EXPR_F_RESPONSE_HEADERS_NAMES,
	EXPR_F_RESPONSE_HEADERS_VALUES,
	EXPR_F__COUNT
};

/* Functions (any/all are node kinds but have symbols too). */
enum expr_func {
	EXPR_FN_NONE = 0,
	EXPR_FN_ANY,
	EXPR_FN_ALL,
	EXPR_FN_LOWER,
	EXPR_FN_UPPER,
	EXPR_FN_LEN,
	EXPR_FN_STARTS_WITH,
	EXPR_FN_ENDS_WITH,
	EXPR_FN_CONCAT,
	EXPR_FN_SUBSTRING,
	EXPR_FN_URL_DECODE,
	EXPR_FN_LOOKUP_JSON_STRING,
	EXPR_FN_LOOKUP_JSON_INTEGER,
	EXPR_FN_DECODE_BASE64,
	EXPR_FN_CIDR,
	EXPR_FN_CIDR6,
	EXPR_FN_REMOVE_BYTES,
	EXPR_FN_IS_TIMED_HMAC_VALID_V0,
	EXPR_FN__COUNT
};

enum expr_op {
	EXPR_OP_NONE = 0,
	EXPR_OP_EQ,
	EXPR_OP_NE,
	EXPR_OP_LT,
	EXPR_OP_LE,
	EXPR_OP_GT,
	EXPR_OP_GE,
	EXPR_OP_CONTAINS,	/* byte substring */
	EXPR_OP_MATCHES,	/* rhs.re, unanchored */
	EXPR_OP_WILDCARD,	/* rhs.wild, ASCII case-insensitive, whole value */
	EXPR_OP_STRICT_WILDCARD, /* rhs.wild, case-sensitive, whole value */
	EXPR_OP_IN,		/* rhs.set */
	EXPR_OP_IN_LIST,	/* rhs.list: a named list ($name) */
	EXPR_OP_BITAND,		/* (lhs & rhs.lit.i) != 0 */
};

/* An address: IPv4 in v4[] (network order), IPv6 in v6[]. */
struct expr_ip {
	uint8_t		 family;	/* 4 or 6 */
	uint8_t		 bytes[16];	/* v4 uses the first 4 */
};

/* One literal as written: string bytes (NUL-terminated too), integer or
 * address. Ranges and CIDRs appear only as set elements. */
enum expr_lit_kind {
	EXPR_LIT_STRING,
	EXPR_LIT_INT,
	EXPR_LIT_IP,
	EXPR_LIT_INT_RANGE,	/* i..hi */
	EXPR_LIT_IP_CIDR,	/* ip/prefix */
	EXPR_LIT_IP_RANGE,	/* ip..ip_hi */
};

struct expr_lit {
	enum expr_lit_kind	 kind;
	int			 column, length;
	const char		*s;	/* STRING: decoded bytes */
	size_t			 len;
	int			 raw;	/* STRING: written as r"..."; hashes */
	int64_t			 i;	/* INT; INT_RANGE low end */
	int64_t			 hi;	/* INT_RANGE high end */
	struct expr_ip		 ip;	/* IP; CIDR base; IP_RANGE low end */
	struct expr_ip		 ip_hi;	/* IP_RANGE high end */
	int			 prefix; /* CIDR prefix length */
};

/* Ranges, sorted by lo, overlaps merged: binary search on lo. */
struct expr_int_range {
	int64_t		 lo, hi;
};
struct expr_ip4_range {
	uint32_t	 lo, hi;	/* host order */
};
struct expr_ip6_range {
	uint8_t		 lo[16], hi[16];	/* compare with memcmp */
};
struct expr_bytes {
	const char	*s;
	size_t		 len;
};

/*
 * A set `{ ... }`: the elements as written (for the formatter and explain)
 * and the compiled membership tables for the set's type.
 */
struct expr_set {
	enum expr_tkind		 type;		/* STRING, INT or IP */
	struct expr_lit		*elems;		/* as written, in order */
	size_t			 nelems;
	struct expr_int_range	*ints;		/* INT */
	size_t			 nints;
	struct expr_bytes	*strs;		/* STRING: sorted (memcmp, then
						   length), no duplicates */
	size_t			 nstrs;
	struct expr_ip4_range	*v4;		/* IP */
	size_t			 nv4;
	struct expr_ip6_range	*v6;
	size_t			 nv6;
};

/*
 * A wildcard pattern split at its unescaped stars into literal segments:
 * "a*b*c" is segs a, b, c; lead/trail say whether a star opens or closes
 * it ("*" alone: nsegs 0, lead 1, trail 1). For `wildcard` (case-insensitive)
 * the segments are already ASCII lower case; compare with tolower on the
 * value. The whole value must match. With no star at all (lead and trail
 * 0, nsegs 0 or 1) the value equals the segment (or is empty).
 */
struct expr_wild {
	struct expr_bytes	*segs;
	size_t			 nsegs;
	unsigned		 lead : 1;
	unsigned		 trail : 1;
	unsigned		 nocase : 1;
};

/* One step of an index chain. */
enum expr_idx_kind {
	EXPR_IDX_KEY,		/* ["key"] on a Map */
	EXPR_IDX_POS,		/* [n] on an Array */
	EXPR_IDX_STAR,		/* [*] on an Array/Map: the root of a mapping
				   (over array elements or map values, in
				   order) */
	EXPR_IDX_EACH,		/* [*] after a mapped call (lower(a[*])[*]):
				   the value is already per element; no-op */
};

struct expr_index {
	enum expr_idx_kind	 kind;
	int			 column, length;
	const char		*key;	/* KEY, NUL-terminated */
	size_t			 keylen;
	uint32_t		 pos;	/* POS */
};

enum expr_node_kind {
	EXPR_N_OR,	/* kids[0..nkids): true when any is true (n >= 2) */
	EXPR_N_XOR,	/* true when an odd number of kids are true */
	EXPR_N_AND,	/* true when all kids are true */
	EXPR_N_NOT,	/* kids[0] negated */
	EXPR_N_ANY,	/* kids[0] is mapped: true when true at any element
			   of the source (false on none) */
	EXPR_N_ALL,	/* the same, true when true at every element
			   (true on an empty array, as wirefilter; false
			   when the source itself is missing) */
	EXPR_N_CMP,	/* lhs op rhs: lhs is a VALUE node, rhs in u.cmp */
	EXPR_N_VALUE,	/* a field or a function call, then an index chain;
			   where a Bool is expected it stands bare (ssl) */
	EXPR_N_LIT,	/* a literal: only as a function argument */
	EXPR_N_TRUE,	/* `true`, accepted as "match everything" */
};

struct expr_node;

/* The right side of a comparison; which member depends on op. */
struct expr_rhs {
	struct expr_lit		 lit;	/* EQ..GE, CONTAINS, BITAND, and the
					   pattern text of MATCHES/WILDCARD */
	pcre2_code		*re;	/* MATCHES */
	struct expr_wild	 wild;	/* WILDCARD, STRICT_WILDCARD */
	struct expr_set		 set;	/* IN */
	const char		*list;	/* IN_LIST: the name without '$' */
};

struct expr_node {
	enum expr_node_kind	 kind;
	int			 id;	/* 0..expr->nnodes-1, depth first in
					   source order (explain, scratch) */
	int			 column, length;
	unsigned		 type;	/* packed type (of one element when
					   mapped); EXPR_T_BOOL for logic */
	unsigned		 mapped : 1; /* an Array of `type` via [*] */
	unsigned		 op_c : 1; /* CMP: written as the C-like
					      symbol (==); kept for reference,
					      the formatter writes English */

	/* OR, XOR, AND (flattened: a kid is never the same kind), NOT, ANY,
	 * ALL, and a CALL's arguments. */
	struct expr_node	**kids;
	size_t			 nkids;

	/* ANY/ALL: the VALUE node holding the root [*] and its place in
	 * that node's index chain: its prefix gives the element count. */
	const struct expr_node	*source;
	size_t			 source_at;

	/* CMP: the left value (a VALUE node), operator, right side. */
	struct expr_node	*lhs;
	enum expr_op		 op;
	struct expr_rhs		 rhs;

	/* VALUE: a field, or a call with kids as arguments, then idx. */
	enum expr_field		 field;
	enum expr_func		 func;
	struct expr_index	*idx;
	size_t			 nidx;
	unsigned		 base_type; /* VALUE: the field's or call's
					       type before indexing */

	/* LIT */
	struct expr_lit		 lit;
};

struct expr_arena;

struct expr {
	char			*text;		/* as given */
	struct expr_node	*root;
	struct expr_options	 opts;
	int			 nnodes;
	int			 depth;		/* deepest nesting reached */
	uint32_t		 max_ovector;	/* largest capture count + 1 */
	struct expr_arena	*arena;		/* every node, literal, set */
	pcre2_code		**res;		/* to free */
	size_t			 nres;

	/* State the evaluator attaches (explain texts, ...); expr_free
	 * calls eval_free(eval) when set. */
	void			*eval;
	void			(*eval_free)(void *);
};

/* Scheme lookups (expr_scheme.c). */
struct expr_field_info {
	const char		*name;
	enum expr_field		 field;
	unsigned		 type;
	enum expr_plan		 plan;		/* first plan that has it */
	unsigned		 counting_only : 1;
	unsigned		 alias : 1;	/* deprecated name */
};
const struct expr_field_info	*expr_field_lookup(const char *, size_t);
const struct expr_field_info	*expr_field_info(enum expr_field);
const char			*expr_field_name(enum expr_field);
/* Its shortest name, a deprecated one perhaps (cf.client.bot). */
const char			*expr_field_short_name(enum expr_field);
const char			*expr_func_name(enum expr_func);
enum expr_func			 expr_func_lookup(const char *, size_t);
const char			*expr_op_name(enum expr_op);
/* "String", "Array<String>", ... into buf of size n. */
const char			*expr_type_name(unsigned, char *, size_t);

/* The order of set strings: memcmp, then the shorter first. */
int				 expr_bytes_cmp(const char *, size_t,
				     const char *, size_t);

/* Canonical text of one node (a subtree), for explain; caller frees. */
char				*expr_format_node(const struct expr_node *);

#endif
