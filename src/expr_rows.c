/*
 * The rows of the scheme (expr_scheme.h) expanded into the tables of
 * fields and functions, and the short words their columns are written
 * with.
 */
#include "config.h"

#include <stddef.h>

#include "expr_int.h"

/* Types: String, Int, IP, Bool, Array<String>, Array<Int>, Array<Bool>,
 * Map<Array<String>>; for parameters also String|Array and "the first
 * argument's". */
#define S		EXPR_T_STRING
#define I		EXPR_T_INT
#define IP		EXPR_T_IP
#define B		EXPR_T_BOOL
#define AS		EXPR_TYPE_ARRAY_OF(EXPR_T_STRING)
#define AI		EXPR_TYPE_ARRAY_OF(EXPR_T_INT)
#define AB		EXPR_TYPE_ARRAY_OF(EXPR_T_BOOL)
#define MAS		EXPR_TYPE_MAP_OF(EXPR_TYPE_ARRAY_OF(EXPR_T_STRING))
#define NONE		EXPR_T_NONE
#define STR_OR_ARRAY	EXPR_PT_STR_OR_ARRAY
#define SAME		EXPR_PT_SAME

/*
 * Phases, api-map-3 22's columns: CR custom rules, RL rate limiting rules
 * (their counting expressions too), RLC counting expressions only, T
 * transform rules' values, RSP response phases; NOPHASE: none described
 * here. Join them with |.
 */
#define CR		EXPR_PHASE_CUSTOM
#define RL		EXPR_PHASE_RATELIMIT
#define RLC		EXPR_PHASE_COUNTING
#define T		EXPR_PHASE_TRANSFORM
#define RSP		EXPR_PHASE_RESPONSE
#define NOPHASE		0

#define FREE		EXPR_PLAN_FREE
#define PRO		EXPR_PLAN_PRO
#define BIZ		EXPR_PLAN_BUSINESS
#define ENT		EXPR_PLAN_ENTERPRISE

#define LOWER_KEYS	EXPR_FIELD_LOWER_KEYS

/*
 * The characteristic column (role bits, first plan, the form's label):
 * NOCHAR, CHAR(plan, PLAIN | KEY | JSON), CLIENT(plan, label) for what
 * tells clients apart, REQUIRED(plan) for what every list holds.
 */
#define PLAIN		EXPR_CHAR_PLAIN
#define KEY		EXPR_CHAR_KEY
#define JSON		EXPR_CHAR_JSON
#define NOCHAR		0, EXPR_PLAN_NONE, NULL
#define CHAR(p, r)	r, p, NULL
#define CLIENT(p, l)	EXPR_CHAR_PLAIN | EXPR_CHAR_CLIENT, p, l
#define REQUIRED(p)	EXPR_CHAR_PLAIN | EXPR_CHAR_REQUIRED, p, NULL

/*
 * Parameters (type, flags, label, range, letters): ARG a value of the
 * type; NAMED the same, shown with a name; FIELD a field (or a call), not
 * a literal; LITERAL a literal; OPTIONAL may be left out; MORE zero or
 * more of the type, last; KEYS one or more literal keys or indexes, last;
 * RANGE a literal Int in lo..hi; LETTERS an optional literal String of
 * those letters. The implementation column is expr_func.c's.
 */
#define ARG(t)		{ t, 0, NULL, 0, 0, NULL }
#define NAMED(t, l)	{ t, 0, l, 0, 0, NULL }
#define FIELD(t)	{ t, EXPR_PARAM_FIELD, "field", 0, 0, NULL }
#define LITERAL(t, l)	{ t, EXPR_PARAM_LITERAL, l, 0, 0, NULL }
#define OPTIONAL(t, l)	{ t, EXPR_PARAM_OPTIONAL, l, 0, 0, NULL }
#define MORE(t)		{ t, EXPR_PARAM_OPTIONAL | EXPR_PARAM_REPEAT, NULL, \
			    0, 0, NULL }
#define KEYS		{ EXPR_PT_KEY, EXPR_PARAM_LITERAL | EXPR_PARAM_REPEAT, \
			    "key", 0, 0, NULL }
#define RANGE(lo, hi)	{ EXPR_T_INT, EXPR_PARAM_LITERAL, NULL, lo, hi, NULL }
#define LETTERS(l, set)	{ EXPR_T_STRING, EXPR_PARAM_LITERAL | \
			    EXPR_PARAM_OPTIONAL, l, 0, 0, set }
#define NOPARAMS	({ 0 })
#define PARAMS(...)	__VA_ARGS__

#define ROW_F(id, n, t, ph, p, fl, ch, sm) \
	{ n, EXPR_F_##id, t, ph, p, fl, ch, sm, 0 },
#define ROW_A(id, n, sm) \
	{ .name = n, .field = EXPR_F_##id, .summary = sm, .alias = 1 },

const struct expr_field_info expr_field_rows[] = {
	EXPR_FIELDS(ROW_F, ROW_A)
};
const size_t expr_nfields = nitems(expr_field_rows);

#define ROW_FN(id, n, r, ph, p, impl, pa, sm) \
	[EXPR_FN_##id] = { n, EXPR_FN_##id, r, ph, p, { PARAMS pa }, sm, 0 },
#define ROW_Q(id, n, r, ph, p, impl, pa, sm) \
	[EXPR_FN_##id] = { n, EXPR_FN_##id, r, ph, p, { PARAMS pa }, sm, 1 },

const struct expr_func_info expr_func_rows[EXPR_FN__COUNT] = {
	EXPR_FUNCS(ROW_FN, ROW_Q)
};
