/*
 * The Rules language's scheme: lookups in the tables of fields and
 * functions (expr_rows.c), the phase and plan rules every user of them
 * applies, and the listing completion and help show, its signatures
 * written from the functions' parameters.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "expr_int.h"
#include "xmalloc.h"

/* ---- fields and functions ------------------------------------------------ */

const struct expr_field_info *
expr_field_lookup(const char *name, size_t len, int *alias)
{
	size_t	i;

	for (i = 0; i < expr_nfields; i++) {
		if (strlen(expr_field_rows[i].name) != len ||
		    memcmp(expr_field_rows[i].name, name, len) != 0)
			continue;
		if (alias != NULL)
			*alias = expr_field_rows[i].alias;
		return (expr_field_info(expr_field_rows[i].field));
	}
	return (NULL);
}

const struct expr_field_info *
expr_field_info(enum expr_field f)
{
	size_t	i;

	for (i = 0; i < expr_nfields; i++)
		if (expr_field_rows[i].field == f && !expr_field_rows[i].alias)
			return (&expr_field_rows[i]);
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

	for (i = 0; i < expr_nfields; i++)
		if (expr_field_rows[i].field == f && (best == NULL ||
		    strlen(expr_field_rows[i].name) < strlen(best)))
			best = expr_field_rows[i].name;
	return (best != NULL ? best : "?");
}

int
expr_field_of_response(enum expr_field f)
{
	const struct expr_field_info	*fi = expr_field_info(f);
	unsigned			 request = EXPR_PHASE_CUSTOM |
					     EXPR_PHASE_RATELIMIT |
					     EXPR_PHASE_TRANSFORM;

	return (fi != NULL && fi->phases != 0 && (fi->phases & request) == 0);
}

const struct expr_func_info *
expr_func_info(enum expr_func fn)
{
	if ((int)fn <= EXPR_FN_NONE || fn >= EXPR_FN__COUNT)
		return (NULL);
	return (&expr_func_rows[fn]);
}

enum expr_func
expr_func_lookup(const char *name, size_t len)
{
	size_t	i;

	for (i = EXPR_FN_NONE + 1; i < EXPR_FN__COUNT; i++)
		if (strlen(expr_func_rows[i].name) == len &&
		    memcmp(expr_func_rows[i].name, name, len) == 0)
			return (expr_func_rows[i].func);
	return (EXPR_FN_NONE);
}

const char *
expr_func_name(enum expr_func fn)
{
	const struct expr_func_info	*fi = expr_func_info(fn);

	return (fi != NULL ? fi->name : "?");
}

static size_t
func_nparams(const struct expr_func_info *fi)
{
	size_t	n = 0;

	while (n < EXPR_PARAMS_MAX && fi->params[n].type != 0)
		n++;
	return (n);
}

void
expr_func_arity(const struct expr_func_info *fi, size_t *min, size_t *max)
{
	size_t	i, n = func_nparams(fi);

	*min = 0;
	*max = n;
	for (i = 0; i < n; i++) {
		if (!(fi->params[i].flags & EXPR_PARAM_OPTIONAL))
			*min = i + 1;
		if (fi->params[i].flags & EXPR_PARAM_REPEAT)
			*max = SIZE_MAX;
	}
}

/* Whether an argument of type t (its outer kind is enough) can be one for
 * the parameter; the first argument's type is not known here. */
static int
param_takes(const struct expr_param *pa, unsigned t)
{
	enum expr_tkind	outer = EXPR_TYPE_OUTER(t);

	switch (pa->type) {
	case EXPR_PT_STR_OR_ARRAY:
		return (outer == EXPR_T_STRING || outer == EXPR_T_ARRAY);
	case EXPR_PT_KEY:
		return (outer == EXPR_T_STRING || outer == EXPR_T_INT);
	case EXPR_PT_SAME:
		return (0);
	default:
		return (EXPR_TYPE_OUTER(pa->type) == outer);
	}
}

const struct expr_param *
expr_func_param(const struct expr_func_info *fi, size_t *at, size_t i,
    size_t na, unsigned t)
{
	const struct expr_param	*pa;
	size_t			 np = func_nparams(fi);

	if (*at >= np)
		return (NULL);
	pa = &fi->params[*at];
	if ((pa->flags & (EXPR_PARAM_OPTIONAL | EXPR_PARAM_REPEAT)) ==
	    EXPR_PARAM_OPTIONAL && *at + 1 < np && na - i < np - *at &&
	    !param_takes(pa, t) && param_takes(pa + 1, t))
		pa = &fi->params[++*at];
	if (!(pa->flags & EXPR_PARAM_REPEAT))
		(*at)++;
	return (pa);
}

/* ---- phases and plans ---------------------------------------------------- */

unsigned
expr_options_phases(const struct expr_options *o)
{
	unsigned	phase = o != NULL && o->phase != 0 ? o->phase :
			    EXPR_PHASE_RATELIMIT;

	if (phase == EXPR_PHASE_RATELIMIT && o != NULL && o->counting)
		phase |= EXPR_PHASE_COUNTING;
	return (phase);
}

const char *
expr_phase_title(unsigned phase)
{
	if (phase & EXPR_PHASE_CUSTOM)
		return ("custom rules");
	if (phase & EXPR_PHASE_RATELIMIT)
		return ("rate limiting rules");
	if (phase & EXPR_PHASE_COUNTING)
		return ("counting expressions");
	if (phase & EXPR_PHASE_TRANSFORM)
		return ("transform rules");
	if (phase & EXPR_PHASE_RESPONSE)
		return ("response rules");
	return ("no phase");
}

int
expr_scheme_phase_ok(unsigned phases, const struct expr_options *o)
{
	return ((phases & expr_options_phases(o)) != 0);
}

int
expr_scheme_plan_ok(enum expr_plan need, const struct expr_options *o)
{
	return (o == NULL || o->plan == EXPR_PLAN_NONE ||
	    need == EXPR_PLAN_NONE || need <= o->plan);
}

/* "custom rules and transform rules" */
static void
phases_text(unsigned phases, char *buf, size_t n)
{
	unsigned	bit, left = phases;
	size_t		o = 0;

	buf[0] = '\0';
	for (bit = 1; left != 0 && o < n; bit <<= 1) {
		if (!(left & bit))
			continue;
		left &= ~bit;
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o == 0 ? "" :
		    left == 0 ? " and " : ", ", expr_phase_title(bit));
	}
}

void
expr_scheme_phase_why(const struct expr_field_info *fi, const char *name,
    size_t len, const struct expr_options *o, char *buf, size_t n)
{
	char	where[128];

	if (fi->phases == 0 && fi->chars != 0)
		snprintf(buf, n, "'%.*s' is a rate limiting characteristic, "
		    "not allowed in an expression", (int)len, name);
	else if ((fi->phases & EXPR_PHASE_COUNTING) &&
	    (expr_options_phases(o) & EXPR_PHASE_RATELIMIT))
		snprintf(buf, n, "'%s' is only allowed in a counting "
		    "expression", fi->name);
	else {
		phases_text(fi->phases, where, sizeof where);
		snprintf(buf, n, "'%.*s' is available in %s, not in %s",
		    (int)len, name, fi->phases != 0 ? where : "no phase",
		    expr_phase_title(expr_options_phases(o)));
	}
}

/* ---- the listing: completion and help ------------------------------------ */

static struct expr_symbol	*expr_syms;
static size_t			 expr_nsyms;
static pthread_once_t		 expr_syms_once = PTHREAD_ONCE_INIT;

/* A parameter as the signature shows it: "Int start", "IP field". */
static void
sym_param(const struct expr_param *pa, struct buf *b)
{
	char	tn[64];
	size_t	start = b->len;

	if (pa->type == EXPR_PT_STR_OR_ARRAY)
		buf_adds(b, "String|Array");
	else if (pa->type != EXPR_PT_SAME && pa->type != EXPR_PT_KEY)
		buf_adds(b, expr_type_name(pa->type, tn, sizeof tn));
	if (pa->lo < pa->hi)
		buf_addf(b, "%s%lld..%lld", b->len > start ? " " : "",
		    (long long)pa->lo, (long long)pa->hi);
	else if (pa->label != NULL)
		buf_addf(b, "%s%s", b->len > start ? " " : "", pa->label);
}

/* "substring(String, Int start[, Int end]) -> String" */
static char *
sym_signature(const struct expr_func_info *fi)
{
	struct buf			 b = BUF_INITIALIZER, one;
	const struct expr_param		*pa;
	size_t				 i, n = func_nparams(fi);
	char				 tn[64];

	buf_addf(&b, "%s(", fi->name);
	for (i = 0; i < n; i++) {
		pa = &fi->params[i];
		buf_init(&one);
		sym_param(pa, &one);
		if (pa->flags & EXPR_PARAM_REPEAT)
			buf_addf(&b, "%s%s%s...", i > 0 ? ", " : "",
			    buf_str(&one), one.len > 0 ? ", " : "");
		else if (pa->flags & EXPR_PARAM_OPTIONAL)
			buf_addf(&b, "[%s%s]", i > 0 ? ", " : "",
			    buf_str(&one));
		else
			buf_addf(&b, "%s%s", i > 0 ? ", " : "", buf_str(&one));
		buf_free(&one);
	}
	buf_adds(&b, ") -> ");
	if (fi->ret == EXPR_PT_SAME) {
		sym_param(&(struct expr_param){ .type = fi->params[0].type },
		    &b);
	} else
		buf_adds(&b, expr_type_name(fi->ret, tn, sizeof tn));
	return (buf_detach(&b, NULL));
}

static void
sym_add_field(const struct expr_field_info *row)
{
	const struct expr_field_info	*fi = expr_field_info(row->field);
	struct expr_symbol		*s;
	char				 tn[64];

	if (fi == NULL || fi->phases == 0)
		return;
	s = &expr_syms[expr_nsyms++];
	s->name = row->name;
	s->type = xstrdup(expr_type_name(fi->type, tn, sizeof tn));
	s->summary = row->summary;
	s->plan = fi->plan;
	s->phases = fi->phases;
	s->counting_only = (fi->phases & (EXPR_PHASE_RATELIMIT |
	    EXPR_PHASE_COUNTING)) == EXPR_PHASE_COUNTING;
}

/* Built once: signatures and type names are written from the rows. */
static void
sym_build(void)
{
	const struct expr_func_info	*fi;
	struct expr_symbol		*s;
	size_t				 i;

	expr_syms = xcalloc(expr_nfields + EXPR_FN__COUNT,
	    sizeof *expr_syms);
	for (i = 0; i < expr_nfields; i++)
		sym_add_field(&expr_field_rows[i]);
	for (i = EXPR_FN_NONE + 1; i < EXPR_FN__COUNT; i++) {
		fi = &expr_func_rows[i];
		if (fi->phases == 0)
			continue;
		s = &expr_syms[expr_nsyms++];
		s->name = fi->name;
		s->type = sym_signature(fi);
		s->summary = fi->summary;
		s->plan = fi->plan;
		s->phases = fi->phases;
		s->function = 1;
	}
}

const struct expr_symbol *
expr_symbols(size_t *n)
{
	pthread_once(&expr_syms_once, sym_build);
	*n = expr_nsyms;
	return (expr_syms);
}

const struct expr_symbol *
expr_symbol_find(const char *name)
{
	const struct expr_symbol	*syms;
	size_t				 i, n;

	syms = expr_symbols(&n);
	for (i = 0; i < n; i++)
		if (strcmp(syms[i].name, name) == 0)
			return (&syms[i]);
	return (NULL);
}

int
expr_symbol_allowed(const struct expr_symbol *s, const struct expr_options *o)
{
	return (expr_scheme_phase_ok(s->phases, o) &&
	    expr_scheme_plan_ok(s->plan, o));
}

/* ---- names --------------------------------------------------------------- */

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
	const struct expr_symbol	*syms;
	const char			*best = NULL;
	size_t				 i, n, d, bestd = (size_t)-1, limit;

	syms = expr_symbols(&n);
	limit = len < 6 ? 2 : len / 3;
	for (i = 0; i < n; i++) {
		if (syms[i].function != (unsigned)(functions != 0))
			continue;
		d = edit_distance(name, len, syms[i].name);
		if (d < bestd) {
			bestd = d;
			best = syms[i].name;
		}
	}
	return (bestd <= limit ? best : NULL);
}
