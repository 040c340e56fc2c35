/*
 * What an expression reads that this program cannot know: the named lists
 * ($name) it compares with, which live in the account, and the response a
 * counting expression reads. A value that depends on a list is neither
 * true nor false here: it is evaluated once for each way the lists could
 * hold the request's values, and is known only when every way agrees.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_ast.h"
#include "expr_value.h"
#include "xmalloc.h"

/* Lists tried every way (2^n evaluations); past that, unknown at once. */
#define EXPR_LISTS_MAX	10

struct unknown_walk {
	const char	**names;
	size_t		  max;
	size_t		  n;
	int		  response;
};

static void
unknown_list(struct unknown_walk *w, const char *name)
{
	size_t	i;

	for (i = 0; i < w->n && i < w->max; i++)
		if (strcmp(w->names[i], name) == 0)
			return;
	if (w->n < w->max)
		w->names[w->n] = name;
	w->n++;
}

static void
unknown_walk(struct unknown_walk *w, const struct expr_node *n)
{
	size_t	i;

	if (n == NULL)
		return;
	if (n->kind == EXPR_N_VALUE && (n->field == EXPR_F_RESPONSE_CODE ||
	    n->field == EXPR_F_RESPONSE_HEADERS ||
	    n->field == EXPR_F_RESPONSE_HEADERS_NAMES ||
	    n->field == EXPR_F_RESPONSE_HEADERS_VALUES))
		w->response = 1;
	if (n->kind == EXPR_N_CMP) {
		unknown_walk(w, n->lhs);
		if (n->op == EXPR_OP_IN_LIST && n->rhs.list != NULL)
			unknown_list(w, n->rhs.list);
	}
	for (i = 0; i < n->nkids; i++)
		unknown_walk(w, n->kids[i]);
}

size_t
expr_lists(const struct expr *e, const char **names, size_t max)
{
	struct unknown_walk	w;

	memset(&w, 0, sizeof w);
	w.names = names;
	w.max = max;
	if (e != NULL)
		unknown_walk(&w, e->root);
	return (w.n);
}

int
expr_reads_response(const struct expr *e)
{
	struct unknown_walk	w;

	memset(&w, 0, sizeof w);
	if (e != NULL)
		unknown_walk(&w, e->root);
	return (w.response);
}

enum expr_value
expr_eval_lists(const struct expr *e, struct expr_request *rq)
{
	const char	*names[EXPR_LISTS_MAX];
	size_t		 n;
	uint64_t	 m;
	int		 v, first = -1;

	n = expr_lists(e, names, EXPR_LISTS_MAX);
	if (n == 0)
		return (expr_eval(e, rq));
	if (n > EXPR_LISTS_MAX)
		return (EXPR_UNKNOWN);
	for (m = 0; m < (UINT64_C(1) << n); m++) {
		expr_request_assume_lists(rq, names, n, m);
		v = expr_eval(e, rq);
		if (first < 0)
			first = v;
		else if (v != first)
			break;
	}
	expr_request_assume_lists(rq, NULL, 0, 0);
	if (m < (UINT64_C(1) << n))
		return (EXPR_UNKNOWN);
	/* Every way agrees; a regex past its limits may still not know. */
	return ((enum expr_value)first);
}

/* ---- explain ------------------------------------------------------------ */

/* The steps of the first way, and whether later ways agree on each. */
struct unknown_steps {
	struct expr_step	*s;
	size_t			 n;
	size_t			 at;	/* the step of this way */
	int			 first;	/* this way is the first */
};

static void
unknown_step(const struct expr_step *step, void *arg)
{
	struct unknown_steps	*us = arg;
	struct expr_step	*s;

	if (!us->first) {
		/* The tree is the same each way: steps come in one order. */
		if (us->at < us->n && us->s[us->at].value != step->value)
			us->s[us->at].value = EXPR_UNKNOWN;
		us->at++;
		return;
	}
	us->s = xreallocarray(us->s, us->n + 1, sizeof *us->s);
	s = &us->s[us->n++];
	*s = *step;
	s->text = xstrdup(step->text != NULL ? step->text : "");
	s->seen = step->seen != NULL ? xstrdup(step->seen) : NULL;
}

enum expr_value
expr_explain_lists(const struct expr *e, struct expr_request *rq,
    expr_step_fn fn, void *arg)
{
	struct unknown_steps	 us;
	const char		*names[EXPR_LISTS_MAX];
	enum expr_value		 v;
	size_t			 n, i;
	uint64_t		 m, ways;
	int			 over = 0;

	n = expr_lists(e, names, EXPR_LISTS_MAX);
	if (n == 0)
		return (expr_explain(e, rq, fn, arg));
	/* Past the limit, two ways only (no list holds it, every one
	 * does), and the whole is unknown. */
	if (n > EXPR_LISTS_MAX) {
		n = EXPR_LISTS_MAX;
		over = 1;
	}
	ways = over ? 2 : UINT64_C(1) << n;
	memset(&us, 0, sizeof us);
	for (m = 0; m < ways; m++) {
		expr_request_assume_lists(rq, names, n, over && m > 0 ?
		    ~UINT64_C(0) : m);
		us.first = m == 0;
		us.at = 0;
		expr_explain(e, rq, unknown_step, &us);
	}
	expr_request_assume_lists(rq, NULL, 0, 0);
	if (over && us.n > 0)
		us.s[0].value = EXPR_UNKNOWN;
	v = us.n > 0 ? us.s[0].value : EXPR_FALSE;
	for (i = 0; i < us.n; i++) {
		if (fn != NULL)
			fn(&us.s[i], arg);
		free((char *)us.s[i].text);
		free((char *)us.s[i].seen);
	}
	free(us.s);
	return (v);
}
