/*
 * The Rules language's function calls, checked at parse time against the
 * function's row of the scheme (expr_scheme.h): one checker for every
 * function reads its arity and each parameter's kind (field or literal),
 * type, range and letters, and sets the call's type.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "expr_int.h"
#include "expr_parser.h"

/* "the first argument of url_decode()" */
static const char *
ordinal(size_t i)
{
	static const char *const words[] = {
		"first", "second", "third", "fourth", "fifth", "sixth"
	};

	return (i < nitems(words) ? words[i] : "next");
}

/* A value of type want (the first argument's for EXPR_PT_SAME). */
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

/* A String or an Array ("Strings or Arrays" when the rest follow it). */
static int
arg_str_or_array(struct parser *p, const struct expr_node *call, size_t i,
    int more)
{
	const struct expr_node	*a = call->kids[i];
	char			 tn[64];

	if (a->mapped && i > 0)
		return (expr_parser_arg_error(p, a, "only the first argument "
		    "of %s() may use [*]", expr_func_name(call->func)));
	if (a->type == EXPR_T_STRING ||
	    EXPR_TYPE_OUTER(a->type) == EXPR_T_ARRAY)
		return (0);
	return (expr_parser_arg_error(p, a, "%s() takes %s, not %s",
	    expr_func_name(call->func), more ? "Strings or Arrays" :
	    "a String or an Array", expr_type_name(a->type, tn, sizeof tn)));
}

/* "r and u", "a, b and c" */
static void
letters_text(const char *set, char *buf, size_t n)
{
	size_t	i, len = strlen(set), o = 0;

	buf[0] = '\0';
	for (i = 0; i < len && o + 8 < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%c", i == 0 ? "" :
		    i + 1 == len ? " and " : ", ", set[i]);
}

/* A literal's value: in range, of the letters, an index 0 or more. */
static int
arg_literal(struct parser *p, const struct expr_node *call, size_t i,
    const struct expr_param *pa)
{
	const struct expr_node	*a = call->kids[i];
	const char		*o;
	char			 set[64];

	if (pa->lo < pa->hi) {
		if (a->lit.kind != EXPR_LIT_INT || a->lit.i < pa->lo ||
		    a->lit.i > pa->hi)
			return (expr_parser_arg_error(p, a, "argument %zu of "
			    "%s() must be %lld to %lld", i + 1,
			    expr_func_name(call->func), (long long)pa->lo,
			    (long long)pa->hi));
		return (0);
	}
	if (pa->type == EXPR_PT_KEY) {
		if (a->lit.kind == EXPR_LIT_INT && a->lit.i < 0)
			return (expr_parser_arg_error(p, a, "an array index is "
			    "0 or more"));
		return (0);
	}
	if (arg_type(p, call, i, pa->type) != 0)
		return (-1);
	if (pa->letters == NULL)
		return (0);
	for (o = a->lit.s; *o != '\0'; o++)
		if (strchr(pa->letters, *o) == NULL) {
			letters_text(pa->letters, set, sizeof set);
			return (expr_parser_arg_error(p, a, "%s() options are "
			    "the letters %s", expr_func_name(call->func), set));
		}
	return (0);
}

/* One argument against its parameter. */
static int
check_arg(struct parser *p, const struct expr_node *call, size_t i,
    const struct expr_param *pa, int more)
{
	const struct expr_node	*a = call->kids[i];

	if ((pa->flags & EXPR_PARAM_FIELD) && a->kind != EXPR_N_VALUE)
		return (expr_parser_arg_error(p, a, "the %s argument of %s() "
		    "must be a field, not a literal", ordinal(i),
		    expr_func_name(call->func)));
	if (pa->flags & EXPR_PARAM_LITERAL) {
		if (a->kind != EXPR_N_LIT)
			return (expr_parser_arg_error(p, a, "argument %zu of "
			    "%s() must be a literal", i + 1,
			    expr_func_name(call->func)));
		return (arg_literal(p, call, i, pa));
	}
	switch (pa->type) {
	case EXPR_PT_STR_OR_ARRAY:
		return (arg_str_or_array(p, call, i, more));
	case EXPR_PT_SAME:
		return (arg_type(p, call, i, call->kids[0]->type));
	default:
		return (arg_type(p, call, i, pa->type));
	}
}

/* The number of arguments, then each against its parameter; sets the
 * call's type. */
static int
check_call(struct parser *p, struct expr_node *n, size_t off, size_t end)
{
	const struct expr_func_info	*fi = expr_func_info(n->func);
	const struct expr_param		*pa;
	size_t				 na = n->nkids, min, max, i, at = 0;
	const char			*name = fi->name;

	expr_func_arity(fi, &min, &max);
	if (na < min || na > max) {
		if (min == max)
			expr_lex_error(&p->lx, off, end - off, "%s() takes %zu "
			    "argument%s, not %zu", name, min, min == 1 ? "" :
			    "s", na);
		else if (max == SIZE_MAX)
			expr_lex_error(&p->lx, off, end - off, "%s() takes at "
			    "least %zu argument%s", name, min, min == 1 ? "" :
			    "s");
		else
			expr_lex_error(&p->lx, off, end - off, "%s() takes %zu "
			    "to %zu arguments, not %zu", name, min, max, na);
		return (-1);
	}
	/* any()/all() as an argument (the condition is parse_quant's): no
	 * value, which the caller refuses. */
	if (fi->quant) {
		n->base_type = EXPR_T_NONE;
		return (0);
	}
	for (i = 0; i < na; i++) {
		pa = expr_func_param(fi, &at, i, na, n->kids[i]->type);
		if (check_arg(p, n, i, pa, max == SIZE_MAX) != 0)
			return (-1);
	}
	n->base_type = fi->ret == EXPR_PT_SAME ? n->kids[0]->type : fi->ret;
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
