/*
 * The Rules language's function calls: each function's arity and the kinds
 * and types of its arguments, checked at parse time; sets the call's type.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "expr_int.h"
#include "expr_parser.h"

static int
arg_is_field(const struct expr_node *a)
{
	return (a->kind == EXPR_N_VALUE);
}

/* The argument has type want (one of EXPR_T_*, or ANY for any). */
static int
arg_type(struct parser *p, const struct expr_node *call, size_t i,
    unsigned want)
{
	const struct expr_node	*a = call->kids[i];
	char			 t1[64], t2[64];

	if (a->mapped && i > 0)
		return (expr_parser_arg_error(p, a, "only the first argument "
		    "of %s() may use [*]", expr_func_name(call->func)));
	if (a->type != want)
		return (expr_parser_arg_error(p, a, "argument %zu of %s() must "
		    "be %s, not %s", i + 1, expr_func_name(call->func),
		    expr_type_name(want, t1, sizeof t1),
		    expr_type_name(a->type, t2, sizeof t2)));
	return (0);
}

static int
arg_field(struct parser *p, const struct expr_node *call, size_t i)
{
	if (!arg_is_field(call->kids[i]))
		return (expr_parser_arg_error(p, call->kids[i], "the %s "
		    "argument of %s() must be a field, not a literal",
		    i == 0 ? "first" : "second", expr_func_name(call->func)));
	return (0);
}

static int
arg_lit(struct parser *p, const struct expr_node *call, size_t i)
{
	if (call->kids[i]->kind != EXPR_N_LIT)
		return (expr_parser_arg_error(p, call->kids[i], "argument %zu "
		    "of %s() must be a literal", i + 1,
		    expr_func_name(call->func)));
	return (0);
}

static int
arg_range(struct parser *p, const struct expr_node *call, size_t i,
    int64_t lo, int64_t hi)
{
	const struct expr_node	*a = call->kids[i];

	if (arg_lit(p, call, i) != 0)
		return (-1);
	if (a->lit.i < lo || a->lit.i > hi)
		return (expr_parser_arg_error(p, a, "argument %zu of %s() must "
		    "be %lld to %lld", i + 1, expr_func_name(call->func), (long long)lo,
		    (long long)hi));
	return (0);
}

/* How many arguments a function takes (max SIZE_MAX: variadic). */
static void
arity(enum expr_func fn, size_t *min, size_t *max)
{
	static const struct {
		enum expr_func	 fn;
		size_t		 min, max;
	} tab[] = {
		{ EXPR_FN_STARTS_WITH, 2, 2 },
		{ EXPR_FN_ENDS_WITH, 2, 2 },
		{ EXPR_FN_REMOVE_BYTES, 2, 2 },
		{ EXPR_FN_CIDR6, 2, 2 },
		{ EXPR_FN_CIDR, 3, 3 },
		{ EXPR_FN_SUBSTRING, 2, 3 },
		{ EXPR_FN_URL_DECODE, 1, 2 },
		{ EXPR_FN_CONCAT, 1, SIZE_MAX },
		{ EXPR_FN_LOOKUP_JSON_STRING, 2, SIZE_MAX },
		{ EXPR_FN_LOOKUP_JSON_INTEGER, 2, SIZE_MAX },
		{ EXPR_FN_IS_TIMED_HMAC_VALID_V0, 4, 6 },
	};
	size_t	i;

	*min = *max = 1;
	for (i = 0; i < nitems(tab); i++)
		if (tab[i].fn == fn) {
			*min = tab[i].min;
			*max = tab[i].max;
		}
}

static int	check_call_types(struct parser *, struct expr_node *);

/* Check a call's arguments against its signature; set its type. */
static int
check_call(struct parser *p, struct expr_node *n, size_t off, size_t end)
{
	size_t		 na = n->nkids, min, max;
	const char	*name = expr_func_name(n->func);

	arity(n->func, &min, &max);
	if (na >= min && na <= max)
		return (check_call_types(p, n));
	if (min == max)
		expr_lex_error(&p->lx, off, end - off, "%s() takes %zu "
		    "argument%s, not %zu", name, min, min == 1 ? "" : "s", na);
	else if (max == SIZE_MAX)
		expr_lex_error(&p->lx, off, end - off, "%s() takes at least %zu "
		    "argument%s", name, min, min == 1 ? "" : "s");
	else
		expr_lex_error(&p->lx, off, end - off, "%s() takes %zu to %zu "
		    "arguments, not %zu", name, min, max, na);
	return (-1);
}

/* The arguments' kinds and types (their count is right); sets the type. */
static int
check_call_types(struct parser *p, struct expr_node *n)
{
	size_t			 na = n->nkids, i;
	const struct expr_node	*a0 = n->kids[0];
	unsigned		 t0 = a0->type;
	char			 tn[64];
	const char		*o;

	switch (n->func) {
	case EXPR_FN_LOWER:
	case EXPR_FN_UPPER:
	case EXPR_FN_DECODE_BASE64:
	case EXPR_FN_URL_DECODE:
		if ((n->func == EXPR_FN_DECODE_BASE64 ||
		    n->func == EXPR_FN_URL_DECODE) && arg_field(p, n, 0) != 0)
			return (-1);
		if (arg_type(p, n, 0, EXPR_T_STRING) != 0)
			return (-1);
		if (na == 2) {
			if (arg_lit(p, n, 1) != 0 ||
			    arg_type(p, n, 1, EXPR_T_STRING) != 0)
				return (-1);
			for (o = n->kids[1]->lit.s; *o != '\0'; o++)
				if (*o != 'r' && *o != 'u')
					return (expr_parser_arg_error(p,
					    n->kids[1], "url_decode() options "
					    "are the letters r and u"));
		}
		n->base_type = EXPR_T_STRING;
		break;
	case EXPR_FN_LEN:
		if (t0 != EXPR_T_STRING && EXPR_TYPE_OUTER(t0) != EXPR_T_ARRAY)
			return (expr_parser_arg_error(p, a0, "len() takes a "
			    "String or an Array, not %s",
			    expr_type_name(t0, tn, sizeof tn)));
		n->base_type = EXPR_T_INT;
		break;
	case EXPR_FN_STARTS_WITH:
	case EXPR_FN_ENDS_WITH:
		if (arg_field(p, n, 0) != 0 ||
		    arg_type(p, n, 0, EXPR_T_STRING) != 0 ||
		    arg_type(p, n, 1, EXPR_T_STRING) != 0)
			return (-1);
		n->base_type = EXPR_T_BOOL;
		break;
	case EXPR_FN_CONCAT:
		if (t0 != EXPR_T_STRING && EXPR_TYPE_OUTER(t0) != EXPR_T_ARRAY)
			return (expr_parser_arg_error(p, a0, "concat() takes "
			    "Strings or Arrays, not %s",
			    expr_type_name(t0, tn, sizeof tn)));
		for (i = 1; i < na; i++)
			if (arg_type(p, n, i, t0) != 0)
				return (-1);
		n->base_type = t0;
		break;
	case EXPR_FN_SUBSTRING:
		if (arg_type(p, n, 0, EXPR_T_STRING) != 0)
			return (-1);
		for (i = 1; i < na; i++)
			if (arg_type(p, n, i, EXPR_T_INT) != 0)
				return (-1);
		n->base_type = EXPR_T_STRING;
		break;
	case EXPR_FN_LOOKUP_JSON_STRING:
	case EXPR_FN_LOOKUP_JSON_INTEGER:
		if (arg_type(p, n, 0, EXPR_T_STRING) != 0)
			return (-1);
		for (i = 1; i < na; i++) {
			if (arg_lit(p, n, i) != 0)
				return (-1);
			if (n->kids[i]->lit.kind == EXPR_LIT_INT &&
			    n->kids[i]->lit.i < 0)
				return (expr_parser_arg_error(p, n->kids[i],
				    "an array index is 0 or more"));
		}
		n->base_type = n->func == EXPR_FN_LOOKUP_JSON_STRING ?
		    EXPR_T_STRING : EXPR_T_INT;
		break;
	case EXPR_FN_CIDR:
		if (arg_field(p, n, 0) != 0 ||
		    arg_type(p, n, 0, EXPR_T_IP) != 0 ||
		    arg_range(p, n, 1, 1, 32) != 0 ||
		    arg_range(p, n, 2, 1, 128) != 0)
			return (-1);
		n->base_type = EXPR_T_IP;
		break;
	case EXPR_FN_CIDR6:
		if (arg_field(p, n, 0) != 0 ||
		    arg_type(p, n, 0, EXPR_T_IP) != 0 ||
		    arg_range(p, n, 1, 1, 128) != 0)
			return (-1);
		n->base_type = EXPR_T_IP;
		break;
	case EXPR_FN_REMOVE_BYTES:
		if (arg_type(p, n, 0, EXPR_T_STRING) != 0 ||
		    arg_type(p, n, 1, EXPR_T_STRING) != 0)
			return (-1);
		n->base_type = EXPR_T_STRING;
		break;
	case EXPR_FN_IS_TIMED_HMAC_VALID_V0:
		if (arg_lit(p, n, 0) != 0 ||
		    arg_type(p, n, 0, EXPR_T_STRING) != 0 ||
		    arg_field(p, n, 1) != 0 ||
		    arg_type(p, n, 1, EXPR_T_STRING) != 0 ||
		    arg_type(p, n, 2, EXPR_T_INT) != 0 ||
		    arg_type(p, n, 3, EXPR_T_INT) != 0)
			return (-1);
		/* [, sep_len][, flags]: a lone fifth may be either. */
		if (na == 5 && n->kids[4]->type != EXPR_T_STRING &&
		    arg_type(p, n, 4, EXPR_T_INT) != 0)
			return (-1);
		if (na == 6 && (arg_type(p, n, 4, EXPR_T_INT) != 0 ||
		    arg_type(p, n, 5, EXPR_T_STRING) != 0))
			return (-1);
		n->base_type = EXPR_T_BOOL;
		break;
	default:
		break;
	}
	return (0);
}

int
expr_call_args(struct parser *p, struct expr_node *n, size_t off, size_t len,
    int *pending)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_node	*a;
	size_t			 open;

	(void)len;
	if (expr_parser_depth_in(p, off) != 0)
		return (-1);
	open = lx->pos;
	lx->pos++;		/* '(' */
	expr_parser_set_after(p, "(", 1);
	if (expr_parser_ws(p) != 0)
		return (-1);
	if (expr_lex_peek(lx) != ')') {
		for (;;) {
			if ((a = expr_parser_arg(p, n->nkids == 0)) == NULL)
				return (-1);
			PUSH(p, n->kids, n->nkids);
			n->kids[n->nkids - 1] = a;
			if (expr_parser_ws(p) != 0)
				return (-1);
			if (expr_lex_peek(lx) == ',') {
				lx->pos++;
				expr_parser_set_after(p, ",", 1);
				continue;
			}
			if (expr_lex_peek(lx) == ')')
				break;
			if (expr_lex_eof(lx))
				expr_lex_error(lx, lx->pos, 0, "unexpected end "
				    "of input: expected ')' to close the '(' at "
				    "column %d", expr_lex_col(lx, open));
			else
				expr_lex_error(lx, lx->pos, 1, "expected ',' or "
				    "')' in the arguments of %s()",
				    expr_func_name(n->func));
			return (-1);
		}
	}
	lx->pos++;		/* ')' */
	expr_parser_set_after(p, ")", 1);
	p->depth--;
	if (n->nkids == 0) {
		expr_lex_error(lx, off, lx->pos - off, "%s() needs arguments",
		    expr_func_name(n->func));
		return (-1);
	}
	if (check_call(p, n, off, lx->pos) != 0)
		return (-1);
	n->type = n->base_type;
	if (n->kids[0]->mapped) {
		/* Applied to each element: lower(a[*])[*]. A Bool-valued
		 * call (starts_with(a[*], "x")) is already per element. */
		n->mapped = 1;
		*pending = n->base_type != EXPR_T_BOOL;
	}
	return (0);
}
