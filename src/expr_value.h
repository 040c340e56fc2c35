/*
 * The values the Rules language evaluator works on, and what the evaluator
 * asks of a request object (expr_request.c): its fields as values and the
 * scratch space for function results. Internal to libbase's expr_*.c.
 */
#ifndef EDGE_EXPR_VALUE_H
#define EDGE_EXPR_VALUE_H

#include <stddef.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "expr.h"

enum expr_vkind {
	EXPR_V_MISSING = 0,	/* absent map key, index past the end, unset */
	EXPR_V_BOOL,
	EXPR_V_INT,
	EXPR_V_BYTES,
	EXPR_V_IP,
	EXPR_V_ARRAY,
	EXPR_V_MAP
};

/* An address in network order; IPv4 in the first four bytes. */
struct expr_ip {
	uint8_t	 a[16];
	uint8_t	 v6;
};

struct expr_map;

/* A value; byte strings and arrays point into the request or its scratch. */
struct expr_val {
	enum expr_vkind	 kind;
	union {
		int		 b;
		int64_t		 i;
		struct {
			const char	*p;	/* not NUL-terminated */
			size_t		 n;
		} s;
		struct expr_ip	 ip;
		struct {
			const struct expr_val	*v;
			size_t			 n;
		} arr;
		const struct expr_map	*map;
	} u;
};

/*
 * A Map<Array<String>>: keys sorted bytewise, each with the array of its
 * values in arrival order. vals[i] is the EXPR_V_ARRAY of keys[i], so the
 * map's values are an array of their own (for `map[*]`).
 */
struct expr_map {
	const struct expr_val	*keys;
	const struct expr_val	*vals;
	size_t			 n;
};

/* The fields a request knows; every other field of the scheme is missing. */
enum expr_field {
	EXPR_F_HOST,
	EXPR_F_URI,
	EXPR_F_URI_PATH,
	EXPR_F_URI_QUERY,
	EXPR_F_URI_PATH_EXT,
	EXPR_F_URI_ARGS,
	EXPR_F_URI_ARGS_NAMES,
	EXPR_F_URI_ARGS_VALUES,
	EXPR_F_FULL_URI,
	EXPR_F_METHOD,
	EXPR_F_VERSION,
	EXPR_F_USER_AGENT,
	EXPR_F_COOKIE,
	EXPR_F_REFERER,
	EXPR_F_XFF,
	EXPR_F_HEADERS,
	EXPR_F_HEADERS_NAMES,
	EXPR_F_HEADERS_VALUES,
	EXPR_F_HEADERS_TRUNCATED,
	EXPR_F_COOKIES,
	EXPR_F_TIMESTAMP,
	EXPR_F_IP_SRC,
	EXPR_F_COUNTRY,
	EXPR_F_ASNUM,
	EXPR_F_CONTINENT,
	EXPR_F_SSL,
	EXPR_F_VERIFIED_BOT,
	EXPR_F_RESP_CODE,
	EXPR_F_RESP_HEADERS,
	EXPR_F_RESP_HEADERS_NAMES,
	EXPR_F_RESP_HEADERS_VALUES,
	EXPR_F_COUNT
};

/* The field of that name (aliases included), or -1: unknown to requests. */
int			 expr_field_lookup(const char *);

/* The value of a field (EXPR_V_MISSING when the request does not have it).
 * Valid until the request changes. */
const struct expr_val	*expr_request_field(struct expr_request *, int);

/*
 * Scratch for one evaluation: bump allocation from blocks the request keeps,
 * so a warm request allocates nothing. expr_request_scratch_reset() at the
 * start of each evaluation forgets the last one's results.
 */
void			*expr_request_scratch(struct expr_request *, size_t);
void			 expr_request_scratch_reset(struct expr_request *);

/* Match data for regexes, kept by the request (one ovector pair). */
pcre2_match_data	*expr_request_match_data(struct expr_request *);

/* Address text (IPv4 or IPv6) to *ip; -1 when it is not one. */
int			 expr_ip_parse(const char *, size_t, struct expr_ip *);

#endif
