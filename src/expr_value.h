/*
 * The values the Rules language evaluator works on, and what the evaluator
 * asks of a request object (expr_request.c): its fields as values and the
 * scratch space for function results. Internal to libbase's expr_*.c.
 */
#ifndef EDGE_EXPR_VALUE_H
#define EDGE_EXPR_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "expr_ast.h"

enum expr_vkind {
	EXPR_V_MISSING = 0,	/* absent map key, index past the end, unset */
	EXPR_V_BOOL,
	EXPR_V_INT,
	EXPR_V_BYTES,
	EXPR_V_IP,
	EXPR_V_ARRAY,
	EXPR_V_MAP
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

/* The value of a field (EXPR_V_MISSING when the request does not have it).
 * Valid until the request changes. */
const struct expr_val	*expr_request_field(struct expr_request *,
			    enum expr_field);
/* A hash of that value (its kind and, for a plain value, its bytes),
 * computed once until the request changes. */
uint64_t		 expr_request_field_hash(struct expr_request *,
			    enum expr_field);

/*
 * Scratch for one evaluation: bump allocation from blocks the request keeps,
 * so a warm request allocates nothing. expr_request_scratch_reset() at the
 * start of each evaluation forgets the last one's results.
 */
void			*expr_request_scratch(struct expr_request *, size_t);
void			 expr_request_scratch_reset(struct expr_request *);

/* Match data for regexes with room for n ovector pairs, kept by the
 * request; NULL when PCRE2 cannot allocate it. */
pcre2_match_data	*expr_request_match_data(struct expr_request *,
			    uint32_t);
/* The match context: bounded backtracking, a JIT stack; NULL as above. */
pcre2_match_context	*expr_request_match_context(struct expr_request *);
/*
 * Whether a compiled regex (with room for pairs ovector pairs) matches the
 * n bytes at p: 1, 0, or -1 when its matching reached PCRE2's limits and
 * the answer is not known (expr_request.c says how that is kept rare).
 */
int			 expr_request_regex(struct expr_request *,
			    const pcre2_code *, const char *, size_t,
			    uint32_t);

/* A function of 12.4 on evaluated arguments, none missing (expr_func.c). */
void			 expr_func_call(struct expr_request *, enum expr_func,
			    const struct expr_val *, size_t, struct expr_val *);

/*
 * Named lists are not read here: whether a value is in one is what the
 * caller assumes (expr_unknown.c tries each way). List i of names is
 * taken as holding the value when bit i of in is set; any other list,
 * and every list by default, as not holding it. names must outlive the
 * assumption.
 */
void			 expr_request_assume_lists(struct expr_request *,
			    const char *const *, size_t, uint64_t);
int			 expr_request_in_list(const struct expr_request *,
			    const char *);

/* Address text (IPv4 or IPv6) to *ip; -1 when it is not one. */
int			 expr_ip_parse(const char *, size_t, struct expr_ip *);

#endif
