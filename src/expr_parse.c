/*
 * The Rules language's parser and type checker (api-map-next 12.1, 12.2):
 * text to the compiled tree of expr_ast.h, refusing at parse time what the
 * service refuses, each refusal with the column where it starts. Literals
 * the evaluator needs compiled are in expr_compile.c, function calls'
 * signatures in expr_call.c.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "expr_int.h"
#include "expr_parser.h"
#include "text.h"
#include "xmalloc.h"

/* Growable arrays in the arena (expressions are at most 4096 characters). */
void *
expr_parser_grow(struct parser *p, void *old, size_t n, size_t size)
{
	void	*nw;

	if (n == 0 || (n & (n - 1)) != 0)
		return (old);		/* room left: capacity is a power of 2 */
	nw = expr_arena_alloc(p->e->arena, 2 * n * size);
	if (old != NULL)
		memcpy(nw, old, n * size);
	return (nw);
}

static int
failed(struct parser *p)
{
	return (p->lx.failed);
}

/*
 * Source text safe to quote in a message (messages reach terminals and
 * JSON bodies): whole UTF-8 characters only, control characters and broken
 * bytes as '?', cut with "..." to fit.
 */
static const char *
excerpt(const char *s, size_t n, char *buf, size_t size)
{
	size_t		 i = 0, o = 0, len, need;
	uint32_t	 cp = 0;
	int		 bad;

	while (i < n) {
		len = text_utf8_decode(s + i, n - i, &cp);
		bad = len == 0 || cp < 0x20 || cp == 0x7f ||
		    (cp >= 0x80 && cp < 0xa0);
		if (len == 0)
			len = 1;
		need = bad ? 1 : len;
		if (o + need + 4 > size) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (bad)
			buf[o++] = '?';
		else {
			memcpy(buf + o, s + i, len);
			o += len;
		}
		i += len;
	}
	buf[o] = '\0';
	return (buf);
}

void
expr_parser_set_after(struct parser *p, const char *s, size_t n)
{
	excerpt(s, n, p->after, sizeof p->after);
}

static struct expr_node *
new_node(struct parser *p, enum expr_node_kind kind, size_t off, size_t end)
{
	struct expr_node	*n;

	n = expr_arena_alloc(p->e->arena, sizeof *n);
	n->kind = kind;
	n->column = expr_lex_col(&p->lx, off);
	n->length = expr_lex_col(&p->lx, end) - n->column;
	n->type = EXPR_T_BOOL;
	return (n);
}

/* Byte offset of a node's start and end (columns map back to bytes). */
size_t
expr_parser_col_off(const struct parser *p, int col)
{
	size_t	i;

	for (i = 0; i < p->lx.n; i++)
		if (p->lx.cols[i] >= col)
			return (i);
	return (p->lx.n);
}

static void
span(struct parser *p, struct expr_node *n, size_t off, size_t end)
{
	n->column = expr_lex_col(&p->lx, off);
	n->length = expr_lex_col(&p->lx, end) - n->column;
}

int
expr_parser_ws(struct parser *p)
{
	return (expr_lex_ws(&p->lx));
}

static const char *
typename(unsigned t, char *buf, size_t n)
{
	return (expr_type_name(t, buf, n));
}

static int
plan_ok(struct parser *p, enum expr_plan need)
{
	return (p->opts.plan == EXPR_PLAN_NONE || need <= p->opts.plan);
}

int
expr_parser_depth_in(struct parser *p, size_t off)
{
	if (++p->depth > p->e->depth)
		p->e->depth = p->depth;
	if (p->depth > EXPR_MAX_DEPTH) {
		expr_lex_error(&p->lx, off, 1, "nested more than %d levels deep",
		    EXPR_MAX_DEPTH);
		return (-1);
	}
	return (0);
}

/* ---- words ------------------------------------------------------------- */

/* A keyword or its symbol at pos; consumed when found. */
static int
accept(struct parser *p, const char *word, const char *sym)
{
	struct expr_lex	*lx = &p->lx;
	size_t		 n;

	if (word != NULL && expr_lex_is_word(lx, word)) {
		expr_parser_set_after(p, word, strlen(word));
		lx->pos += strlen(word);
		return (1);
	}
	if (sym == NULL)
		return (0);
	n = strlen(sym);
	if (lx->n - lx->pos >= n && memcmp(lx->s + lx->pos, sym, n) == 0) {
		expr_parser_set_after(p, sym, n);
		lx->pos += n;
		return (1);
	}
	return (0);
}

static const char *const logic_words[] = { "and", "or", "xor", "not" };
static const char *const op_words[] = {
	"eq", "ne", "lt", "le", "gt", "ge", "contains", "matches", "wildcard",
	"strict", "in", "bitwise_and"
};

/* A word that is an operator in the wrong case ("EQ", "And"). */
static const char *
wrong_case(const char *w, size_t n)
{
	size_t	i;

	for (i = 0; i < nitems(logic_words); i++)
		if (strlen(logic_words[i]) == n &&
		    strncasecmp(w, logic_words[i], n) == 0 &&
		    strncmp(w, logic_words[i], n) != 0)
			return (logic_words[i]);
	for (i = 0; i < nitems(op_words); i++)
		if (strlen(op_words[i]) == n &&
		    strncasecmp(w, op_words[i], n) == 0 &&
		    strncmp(w, op_words[i], n) != 0)
			return (op_words[i]);
	return (NULL);
}

static int
is_logic_word(const char *w, size_t n)
{
	size_t	i;

	for (i = 0; i < nitems(logic_words); i++)
		if (strlen(logic_words[i]) == n &&
		    strncmp(w, logic_words[i], n) == 0)
			return (1);
	return (0);
}

static int
is_op_word(const char *w, size_t n)
{
	size_t	i;

	for (i = 0; i < nitems(op_words); i++)
		if (strlen(op_words[i]) == n && strncmp(w, op_words[i], n) == 0)
			return (1);
	return (0);
}

/* ---- logical expressions ----------------------------------------------- */

static struct expr_node	*parse_or(struct parser *);
static struct expr_node	*parse_comparison(struct parser *, int);

static void
add_kid(struct parser *p, struct expr_node *n, struct expr_node *kid)
{
	size_t	i;

	if (kid->kind == n->kind) {
		/* (a and b) and c is a and b and c. */
		for (i = 0; i < kid->nkids; i++)
			add_kid(p, n, kid->kids[i]);
		return;
	}
	PUSH(p, n->kids, n->nkids);
	n->kids[n->nkids - 1] = kid;
}

/* Every operand of one logical operator is a Bool, or every one is an
 * Array<Bool> mapped over the same array inside any()/all(). */
static int
check_logic_kid(struct parser *p, struct expr_node *first,
    struct expr_node *kid, const char *op)
{
	char	t[64];

	if (kid->type != EXPR_T_BOOL) {
		expr_lex_error(&p->lx, expr_parser_col_off(p, kid->column),
		    expr_parser_col_off(p, kid->column + kid->length) -
		    expr_parser_col_off(p, kid->column),
		    "'%s' needs Bool operands; this is %s", op,
		    typename(kid->type, t, sizeof t));
		return (-1);
	}
	if (kid->mapped != first->mapped) {
		expr_lex_error(&p->lx, expr_parser_col_off(p, kid->column),
		    expr_parser_col_off(p, kid->column + kid->length) -
		    expr_parser_col_off(p, kid->column),
		    "'%s' cannot combine a Bool with an Array<Bool> (a [*] "
		    "comparison)", op);
		return (-1);
	}
	return (0);
}

static struct expr_node *
parse_chain(struct parser *p, enum expr_node_kind kind, const char *word,
    const char *sym, struct expr_node *(*sub)(struct parser *))
{
	struct expr_node	*first, *kid, *n = NULL;
	size_t			 off, end;

	if ((first = sub(p)) == NULL)
		return (NULL);
	for (;;) {
		if (expr_parser_ws(p) != 0)
			return (NULL);
		if (!accept(p, word, sym))
			break;
		if (n == NULL) {
			n = new_node(p, kind, 0, 0);
			if (check_logic_kid(p, first, first, word) != 0)
				return (NULL);
			add_kid(p, n, first);
			n->mapped = first->mapped;
		}
		if ((kid = sub(p)) == NULL)
			return (NULL);
		if (check_logic_kid(p, first, kid, word) != 0)
			return (NULL);
		add_kid(p, n, kid);
	}
	if (n == NULL)
		return (first);
	off = expr_parser_col_off(p, n->kids[0]->column);
	kid = n->kids[n->nkids - 1];
	end = expr_parser_col_off(p, kid->column + kid->length);
	span(p, n, off, end);
	return (n);
}

static struct expr_node *
parse_unary(struct parser *p)
{
	struct expr_node	*n, *kid;
	size_t			 off;

	if (expr_parser_ws(p) != 0)
		return (NULL);
	off = p->lx.pos;
	if (expr_lex_is_word(&p->lx, "not") ||
	    (expr_lex_peek(&p->lx) == '!' && expr_lex_peek2(&p->lx) != '=')) {
		accept(p, "not", "!");
		if (expr_parser_depth_in(p, off) != 0)
			return (NULL);
		if ((kid = parse_unary(p)) == NULL)
			return (NULL);
		p->depth--;
		if (check_logic_kid(p, kid, kid, "not") != 0)
			return (NULL);
		n = new_node(p, EXPR_N_NOT, off,
		    expr_parser_col_off(p, kid->column + kid->length));
		n->mapped = kid->mapped;
		PUSH(p, n->kids, n->nkids);
		n->kids[0] = kid;
		return (n);
	}
	return (parse_comparison(p, 0));
}

static struct expr_node *
parse_and(struct parser *p)
{
	return (parse_chain(p, EXPR_N_AND, "and", "&&", parse_unary));
}

static struct expr_node *
parse_xor(struct parser *p)
{
	return (parse_chain(p, EXPR_N_XOR, "xor", "^^", parse_and));
}

static struct expr_node *
parse_or(struct parser *p)
{
	return (parse_chain(p, EXPR_N_OR, "or", "||", parse_xor));
}

/* ---- values ------------------------------------------------------------ */

static const char *const unavailable_funcs[] = {
	"wildcard_replace", "regex_replace", "to_string", "uuidv4",
	"remove_query_args", "join", "split", "has_key", "has_value",
	"encode_base64", "sha256", "bit_slice", "json_lookup_string",
};

/*
 * What was found at off, safe to show: a word, one printable character,
 * or a description (messages reach terminals and JSON bodies).
 */
static size_t
word_len_at(const struct expr_lex *lx, size_t off)
{
	struct expr_lex	tmp = *lx;

	tmp.pos = off;
	return (expr_lex_word_len(&tmp, 1));
}

static const char *
found_text(const struct expr_lex *lx, size_t off, char *buf, size_t size)
{
	size_t		 n = word_len_at(lx, off);
	unsigned char	 c = (unsigned char)lx->s[off];
	uint32_t	 cp;

	if (n > 0 && n < 40) {
		snprintf(buf, size, "'%.*s'", (int)n, lx->s + off);
		return (buf);
	}
	if (n > 0) {
		snprintf(buf, size, "'%.*s...'", 36, lx->s + off);
		return (buf);
	}
	if (c >= 0x20 && c < 0x7f) {
		snprintf(buf, size, "'%c'", c);
		return (buf);
	}
	if (c < 0x80) {
		snprintf(buf, size, "a control character (\\x%02x)", c);
		return (buf);
	}
	/* A whole UTF-8 character, or the byte when it is not one. */
	n = text_utf8_decode(lx->s + off, lx->n - off, &cp);
	if (n > 1 && cp >= 0xa0)
		snprintf(buf, size, "'%.*s'", (int)n, lx->s + off);
	else
		snprintf(buf, size, "the byte \\x%02x", c);
	return (buf);
}

/*
 * A string in single quotes, as other languages write one: the Rules
 * language's strings take double quotes. The text between the quotes is
 * shown requoted when it is short and plain.
 */
static const char *
single_quote_hint(const struct expr_lex *lx, size_t off, char *buf,
    size_t size)
{
	const char	*s = lx->s + off + 1, *end;
	char		 text[64];
	size_t		 n;

	end = memchr(s, '\'', lx->n - off - 1);
	n = end != NULL ? (size_t)(end - s) : 0;
	if (end == NULL || n > 40 || memchr(s, '"', n) != NULL ||
	    memchr(s, '\\', n) != NULL || memchr(s, '\n', n) != NULL) {
		snprintf(buf, size, "strings take double quotes (\"...\")");
		return (buf);
	}
	snprintf(buf, size, "use double quotes (\"%s\")", excerpt(s, n, text,
	    sizeof text));
	return (buf);
}

/* " after 'eq'", " in the set" or nothing: where a thing was expected. */
static const char *
where(const struct parser *p, char *buf, size_t size)
{
	if (strcmp(p->after, "{") == 0)
		snprintf(buf, size, " in the set");
	else if (p->after[0] != '\0')
		snprintf(buf, size, " after '%s'", p->after);
	else
		buf[0] = '\0';
	return (buf);
}

static void
expect_msg(struct parser *p, size_t off, const char *what)
{
	struct expr_lex	*lx = &p->lx;
	char		 found[64], at[48], hint[96];
	size_t		 n;

	where(p, at, sizeof at);
	if (off >= lx->n) {
		expr_lex_error(lx, off, 0, "unexpected end of input: expected "
		    "%s%s", what, at);
		return;
	}
	if ((n = word_len_at(lx, off)) == 0)
		n = 1;
	found_text(lx, off, found, sizeof found);
	if (lx->s[off] == '\'')
		expr_lex_error(lx, off, 1, "expected %s%s, found %s: %s", what,
		    at, found, single_quote_hint(lx, off, hint, sizeof hint));
	else
		expr_lex_error(lx, off, n, "expected %s%s, found %s", what, at,
		    found);
}

static int
field_at(struct parser *p, struct expr_node *n, size_t off, size_t len)
{
	const struct expr_field_info	*fi;
	const char			*name = p->lx.s + off, *alt;

	if ((fi = expr_field_lookup(name, len)) == NULL) {
		if ((len == 10 && strncmp(name, "cf.colo.id", 10) == 0) ||
		    (len == 20 && strncmp(name, "cf.unique_visitor_id", 20) == 0))
			expr_lex_error(&p->lx, off, len, "'%.*s' is a rate "
			    "limiting characteristic, not allowed in an "
			    "expression", (int)len, name);
		else if ((alt = expr_suggest(name, len, 0)) != NULL)
			expr_lex_error(&p->lx, off, len, "unknown field '%.*s' "
			    "(did you mean %s?)", (int)len, name, alt);
		else
			expr_lex_error(&p->lx, off, len, "unknown field '%.*s'",
			    (int)len, name);
		return (-1);
	}
	if (fi->counting_only && !p->opts.counting) {
		expr_lex_error(&p->lx, off, len, "'%s' is only allowed in a "
		    "counting expression", fi->name);
		return (-1);
	}
	if (!plan_ok(p, fi->plan)) {
		expr_lex_error(&p->lx, off, len, "field '%.*s' needs the %s "
		    "plan or above (plan: %s)", (int)len, name,
		    expr_plan_title(fi->plan), expr_plan_name(p->opts.plan));
		return (-1);
	}
	n->field = fi->field;
	n->base_type = fi->type;
	return (0);
}


/* Are two values (up to nidx index steps of a) the same array? */
static int
same_value(const struct expr_node *a, size_t nidx, const struct expr_node *b,
    size_t bidx)
{
	size_t	i;

	if (a->kind != b->kind)
		return (0);
	if (a->kind == EXPR_N_LIT) {
		if (a->lit.kind != b->lit.kind)
			return (0);
		if (a->lit.kind == EXPR_LIT_STRING)
			return (a->lit.len == b->lit.len &&
			    memcmp(a->lit.s, b->lit.s, a->lit.len) == 0);
		return (a->lit.i == b->lit.i);
	}
	if (a->kind != EXPR_N_VALUE || a->field != b->field ||
	    a->func != b->func || a->nkids != b->nkids || nidx != bidx)
		return (0);
	for (i = 0; i < a->nkids; i++)
		if (!same_value(a->kids[i], a->kids[i]->nidx, b->kids[i],
		    b->kids[i]->nidx))
			return (0);
	for (i = 0; i < nidx; i++) {
		if (a->idx[i].kind != b->idx[i].kind)
			return (0);
		if (a->idx[i].kind == EXPR_IDX_POS &&
		    a->idx[i].pos != b->idx[i].pos)
			return (0);
		if (a->idx[i].kind == EXPR_IDX_KEY &&
		    (a->idx[i].keylen != b->idx[i].keylen ||
		    memcmp(a->idx[i].key, b->idx[i].key, a->idx[i].keylen)))
			return (0);
	}
	return (1);
}

static int
parse_index(struct parser *p, struct expr_node *n, int first_arg,
    int *pending_each)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_index	*ix;
	struct expr_lit		 key;
	size_t			 off = lx->pos, ioff;
	int64_t			 v;
	unsigned		 t = n->type;
	char			 tn[64], hint[96];

	lx->pos++;		/* '[' */
	if (expr_parser_ws(p) != 0)
		return (-1);
	ioff = lx->pos;
	PUSH(p, n->idx, n->nidx);
	ix = &n->idx[n->nidx - 1];
	if (expr_lex_peek(lx) == '"') {
		if (expr_lex_string(lx, 0, &key) != 0)
			return (-1);
		ix->kind = EXPR_IDX_KEY;
		ix->key = key.s;
		ix->keylen = key.len;
	} else if (isdigit(expr_lex_peek(lx))) {
		if (expr_lex_int(lx, &v) != 0)
			return (-1);
		if (v > UINT32_MAX) {
			expr_lex_error(lx, ioff, lx->pos - ioff,
			    "array index too large");
			return (-1);
		}
		ix->kind = EXPR_IDX_POS;
		ix->pos = (uint32_t)v;
	} else if (expr_lex_peek(lx) == '*') {
		lx->pos++;
		ix->kind = EXPR_IDX_STAR;
	} else if (expr_lex_peek(lx) == '\'') {
		expr_lex_error(lx, ioff, 1, "expected a quoted string (\"key\"), "
		    "a non-negative integer or * inside [ ]: %s",
		    single_quote_hint(lx, ioff, hint, sizeof hint));
		return (-1);
	} else {
		expr_lex_error(lx, ioff, 1, "expected a quoted string (\"key\"), "
		    "a non-negative integer or * inside [ ]");
		return (-1);
	}
	if (expr_parser_ws(p) != 0)
		return (-1);
	if (expr_lex_peek(lx) != ']') {
		expr_lex_error(lx, lx->pos, 1, "expected ']' to close the '[' "
		    "at column %d", expr_lex_col(lx, off));
		return (-1);
	}
	lx->pos++;
	ix->column = expr_lex_col(lx, off);
	ix->length = expr_lex_col(lx, lx->pos) - ix->column;

	if (ix->kind == EXPR_IDX_STAR && *pending_each) {
		ix->kind = EXPR_IDX_EACH;
		*pending_each = 0;
		return (0);
	}
	if (*pending_each) {
		expr_lex_error(lx, off, lx->pos - off, "this call gives an "
		    "array (its first argument uses [*]): write [*] first");
		return (-1);
	}
	switch (ix->kind) {
	case EXPR_IDX_KEY:
		if (EXPR_TYPE_OUTER(t) != EXPR_T_MAP) {
			expr_lex_error(lx, off, lx->pos - off, "[\"key\"] needs "
			    "a Map; this is %s%s", typename(t, tn, sizeof tn),
			    EXPR_TYPE_OUTER(t) == EXPR_T_ARRAY ?
			    " (index it with a number)" : "");
			return (-1);
		}
		n->type = EXPR_TYPE_ELEM(t);
		break;
	case EXPR_IDX_POS:
		if (EXPR_TYPE_OUTER(t) != EXPR_T_ARRAY) {
			expr_lex_error(lx, off, lx->pos - off, "[%u] needs an "
			    "Array; this is %s%s", ix->pos,
			    typename(t, tn, sizeof tn),
			    EXPR_TYPE_OUTER(t) == EXPR_T_MAP ?
			    " (a map key is a quoted string)" : "");
			return (-1);
		}
		n->type = EXPR_TYPE_ELEM(t);
		break;
	default:
		if (EXPR_TYPE_OUTER(t) != EXPR_T_ARRAY &&
		    EXPR_TYPE_OUTER(t) != EXPR_T_MAP) {
			expr_lex_error(lx, off, lx->pos - off, "[*] needs an "
			    "Array or a Map; this is %s",
			    typename(t, tn, sizeof tn));
			return (-1);
		}
		if (n->mapped) {
			expr_lex_error(lx, off, lx->pos - off, "one [*] per "
			    "value: this one would map over another array");
			return (-1);
		}
		if (!p->in_quant && !first_arg) {
			expr_lex_error(lx, off, lx->pos - off, "[*] is only "
			    "allowed inside any() or all() (or in a function's "
			    "first argument)");
			return (-1);
		}
		n->mapped = 1;
		n->type = EXPR_TYPE_ELEM(t);
		if (!p->in_quant)
			break;
		if (p->qsrc == NULL) {
			p->qsrc = n;
			p->qsrc_at = n->nidx - 1;
			p->qsrc_off = off;
		} else if (!same_value(p->qsrc, p->qsrc_at, n, n->nidx - 1)) {
			expr_lex_error(lx, off, lx->pos - off, "every [*] in one "
			    "any() or all() must be over the same array (the "
			    "first is at column %d)",
			    expr_lex_col(lx, p->qsrc_off));
			return (-1);
		}
		break;
	}
	return (0);
}

/*
 * A field or call and its index chain. first_arg: this is a function's
 * first argument, where [*] may map outside any()/all(). *pending: a mapped
 * call that still needs its [*].
 */
static struct expr_node *
parse_value(struct parser *p, int first_arg, int *pending)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_node	*n;
	size_t			 off = lx->pos, len, save;
	const char		*w = lx->s + off, *alt;
	enum expr_func		 fn;
	size_t			 i;

	*pending = 0;
	len = expr_lex_word_len(lx, 1);
	if (len == 0) {
		expect_msg(p, off, "a field, a function or '('");
		return (NULL);
	}
	if (wrong_case(w, len) != NULL || is_logic_word(w, len) ||
	    is_op_word(w, len)) {
		expect_msg(p, off, "a field, a function or '('");
		return (NULL);
	}
	n = new_node(p, EXPR_N_VALUE, off, off + len);
	lx->pos += len;
	save = lx->pos;
	if (expr_parser_ws(p) != 0)
		return (NULL);
	if (expr_lex_peek(lx) == '(') {
		fn = expr_func_lookup(w, len);
		if (fn == EXPR_FN_NONE) {
			for (i = 0; i < nitems(unavailable_funcs); i++)
				if (strlen(unavailable_funcs[i]) == len &&
				    strncmp(w, unavailable_funcs[i], len) == 0)
					break;
			if (i < nitems(unavailable_funcs))
				expr_lex_error(lx, off, len, "function '%.*s' is "
				    "not available in rate limiting rules",
				    (int)len, w);
			else if ((alt = expr_suggest(w, len, 1)) != NULL)
				expr_lex_error(lx, off, len, "unknown function "
				    "'%.*s' (did you mean %s?)", (int)len, w,
				    alt);
			else
				expr_lex_error(lx, off, len, "unknown function "
				    "'%.*s'", (int)len, w);
			return (NULL);
		}
		if (!plan_ok(p, expr_func_plan(fn))) {
			expr_lex_error(lx, off, len, "function '%.*s' needs the "
			    "%s plan or above (plan: %s)", (int)len, w,
			    expr_plan_title(expr_func_plan(fn)),
			    expr_plan_name(p->opts.plan));
			return (NULL);
		}
		n->func = fn;
		if (expr_call_args(p, n, off, len, pending) != 0)
			return (NULL);
	} else {
		lx->pos = save;
		if (field_at(p, n, off, len) != 0)
			return (NULL);
		n->type = n->base_type;
	}
	for (;;) {
		save = lx->pos;
		if (expr_parser_ws(p) != 0)
			return (NULL);
		if (expr_lex_peek(lx) != '[') {
			lx->pos = save;
			break;
		}
		if (parse_index(p, n, first_arg, pending) != 0)
			return (NULL);
	}
	span(p, n, off, lx->pos);
	return (n);
}

/* ---- function calls ---------------------------------------------------- */

struct expr_node *
expr_parser_arg(struct parser *p, int first)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_node	*n;
	size_t			 off;
	int			 c;

	if (expr_parser_ws(p) != 0)
		return (NULL);
	off = lx->pos;
	c = expr_lex_peek(lx);
	if (expr_lex_at_string(lx)) {
		n = new_node(p, EXPR_N_LIT, off, off);
		if (expr_lex_string(lx, 0, &n->lit) != 0)
			return (NULL);
		n->type = EXPR_T_STRING;
		span(p, n, off, lx->pos);
		return (n);
	}
	if (c == '-' || (c >= 0 && isdigit(c))) {
		n = new_node(p, EXPR_N_LIT, off, off);
		n->lit.kind = EXPR_LIT_INT;
		if (expr_lex_int(lx, &n->lit.i) != 0)
			return (NULL);
		n->type = EXPR_T_INT;
		span(p, n, off, lx->pos);
		n->lit.column = n->column;
		n->lit.length = n->length;
		return (n);
	}
	return (parse_comparison(p, first ? 1 : 2));
}

int
expr_parser_arg_error(struct parser *p, const struct expr_node *a,
    const char *fmt, ...)
{
	char	msg[200];
	va_list	ap;
	size_t	off = expr_parser_col_off(p, a->column);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	expr_lex_error(&p->lx, off,
	    expr_parser_col_off(p, a->column + a->length) - off, "%s", msg);
	return (-1);
}

/* ---- comparisons ------------------------------------------------------- */

struct opdef {
	const char	*word;
	const char	*sym;
	enum expr_op	 op;
};

static const struct opdef opdefs[] = {
	{ "eq", "==", EXPR_OP_EQ },
	{ "ne", "!=", EXPR_OP_NE },
	{ "le", "<=", EXPR_OP_LE },
	{ "lt", "<", EXPR_OP_LT },
	{ "ge", ">=", EXPR_OP_GE },
	{ "gt", ">", EXPR_OP_GT },
	{ "contains", NULL, EXPR_OP_CONTAINS },
	{ "matches", "~", EXPR_OP_MATCHES },
	{ "wildcard", NULL, EXPR_OP_WILDCARD },
	{ "in", NULL, EXPR_OP_IN },
	{ "bitwise_and", NULL, EXPR_OP_BITAND },
};

/* The operator at pos, consumed; EXPR_OP_NONE when there is none. */
static enum expr_op
lex_op(struct parser *p, int *sym)
{
	struct expr_lex	*lx = &p->lx;
	size_t		 i, off = lx->pos;

	*sym = 0;
	if (expr_lex_is_word(lx, "strict")) {
		lx->pos += 6;
		if (expr_parser_ws(p) != 0)
			return (EXPR_OP_NONE);
		if (!expr_lex_is_word(lx, "wildcard")) {
			expr_lex_error(lx, off, 6, "expected 'wildcard' after "
			    "'strict'");
			return (EXPR_OP_NONE);
		}
		lx->pos += 8;
		expr_parser_set_after(p, "strict wildcard", 15);
		return (EXPR_OP_STRICT_WILDCARD);
	}
	if (expr_lex_peek(lx) == '&') {
		if (expr_lex_peek2(lx) == '&')
			return (EXPR_OP_NONE);
		lx->pos++;
		expr_parser_set_after(p, "&", 1);
		*sym = 1;
		return (EXPR_OP_BITAND);
	}
	for (i = 0; i < nitems(opdefs); i++) {
		if (expr_lex_is_word(lx, opdefs[i].word)) {
			accept(p, opdefs[i].word, NULL);
			return (opdefs[i].op);
		}
		if (opdefs[i].sym != NULL && accept(p, NULL, opdefs[i].sym)) {
			*sym = 1;
			return (opdefs[i].op);
		}
	}
	return (EXPR_OP_NONE);
}

static int
op_allowed(enum expr_op op, unsigned t)
{
	switch (t) {
	case EXPR_T_STRING:
		return (op != EXPR_OP_BITAND);
	case EXPR_T_INT:
		return (op <= EXPR_OP_GE || op == EXPR_OP_IN ||
		    op == EXPR_OP_IN_LIST || op == EXPR_OP_BITAND);
	case EXPR_T_IP:
		return (op <= EXPR_OP_GE || op == EXPR_OP_IN ||
		    op == EXPR_OP_IN_LIST);
	default:
		return (0);
	}
}

static const char *
lit_word(unsigned t)
{
	switch (t) {
	case EXPR_T_STRING:
		return ("a string literal");
	case EXPR_T_INT:
		return ("an integer literal");
	default:
		return ("an IP address");
	}
}

#define LIT_REGEX	0x1	/* regex escaping (after matches) */
#define LIT_HEXBYTES	0x2	/* hex byte strings allowed */

/* One literal of type t after the operator. */
static int
parse_lit(struct parser *p, unsigned t, int flags, struct expr_lit *lit)
{
	struct expr_lex	*lx = &p->lx;
	size_t		 off = lx->pos;
	int		 c = expr_lex_peek(lx);
	char		 at[48];

	switch (t) {
	case EXPR_T_STRING:
		/* wirefilter's hex byte strings (41:42) where it takes them;
		 * the formatter writes them quoted. */
		if ((flags & LIT_HEXBYTES) && expr_lex_hexbytes(lx, lit))
			return (0);
		if (!expr_lex_at_string(lx)) {
			expect_msg(p, off, lit_word(t));
			return (-1);
		}
		return (expr_lex_string(lx, flags & LIT_REGEX, lit));
	case EXPR_T_INT:
		if (expr_lex_at_string(lx)) {
			expr_lex_error(lx, off, 1, "expected an integer "
			    "literal%s, not a string", where(p, at, sizeof at));
			return (-1);
		}
		if (c != '-' && !(c >= 0 && isdigit(c))) {
			expect_msg(p, off, lit_word(t));
			return (-1);
		}
		memset(lit, 0, sizeof *lit);
		lit->kind = EXPR_LIT_INT;
		if (expr_lex_int(lx, &lit->i) != 0)
			return (-1);
		lit->column = expr_lex_col(lx, off);
		lit->length = expr_lex_col(lx, lx->pos) - lit->column;
		return (0);
	default:
		if (expr_lex_at_string(lx)) {
			expr_lex_error(lx, off, 1, "expected an IP address%s, "
			    "without quotes", where(p, at, sizeof at));
			return (-1);
		}
		if (!(c >= 0 && (isxdigit(c) || c == ':'))) {
			expect_msg(p, off, lit_word(t));
			return (-1);
		}
		return (expr_lex_ip(lx, 0, lit));
	}
}

static int	parse_set(struct parser *, unsigned, struct expr_set *);

/* Where an operand's value is missing (a mapped call without [*]). */
static int
check_pending(struct parser *p, const struct expr_node *v, int pending)
{
	if (!pending)
		return (0);
	return (expr_parser_arg_error(p, v, "this call gives an array (its "
	    "first argument uses [*]): add [*] to use each element"));
}

/* "( expr )" at pos. */
static struct expr_node *
parse_group(struct parser *p)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_node	*n;
	size_t			 off = lx->pos;
	char			 found[64];

	if (expr_parser_depth_in(p, off) != 0)
		return (NULL);
	lx->pos++;
	expr_parser_set_after(p, "(", 1);
	if ((n = parse_or(p)) == NULL || expr_parser_ws(p) != 0)
		return (NULL);
	if (expr_lex_peek(lx) != ')') {
		if (expr_lex_eof(lx))
			expr_lex_error(lx, lx->pos, 0, "unexpected end of "
			    "input: expected ')' to close the '(' at column %d",
			    expr_lex_col(lx, off));
		else
			expr_lex_error(lx, lx->pos, 1, "expected ')' to close "
			    "the '(' at column %d, found %s",
			    expr_lex_col(lx, off), found_text(lx, lx->pos, found,
			    sizeof found));
		return (NULL);
	}
	lx->pos++;
	expr_parser_set_after(p, ")", 1);
	p->depth--;
	return (n);
}

/*
 * "any( ... )" or "all( ... )" at pos (the '(' already seen after the
 * word). The argument is parsed with its own [*] source.
 */
static struct expr_node *
parse_quant(struct parser *p, size_t off)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_node	*q, *n;
	struct parser		 outer = *p;

	if (expr_parser_depth_in(p, off) != 0)
		return (NULL);
	q = new_node(p, lx->s[off + 1] == 'n' ? EXPR_N_ANY : EXPR_N_ALL, off,
	    off);
	lx->pos++;
	expr_parser_set_after(p, "(", 1);
	p->in_quant = 1;
	p->qsrc = NULL;
	if ((n = parse_or(p)) == NULL || expr_parser_ws(p) != 0)
		return (NULL);
	if (expr_lex_peek(lx) != ')') {
		expect_msg(p, lx->pos, "')' to close any()/all()");
		return (NULL);
	}
	lx->pos++;
	expr_parser_set_after(p, ")", 1);
	p->depth--;
	if (!n->mapped) {
		expr_parser_arg_error(p, n, "%s() needs an Array<Bool>: "
		    "compare each element with [*], as in "
		    "any(http.request.headers.names[*] eq \"x\")",
		    q->kind == EXPR_N_ANY ? "any" : "all");
		return (NULL);
	}
	q->source = p->qsrc;
	q->source_at = p->qsrc_at;
	PUSH(p, q->kids, q->nkids);
	q->kids[0] = n;
	span(p, q, off, lx->pos);
	p->in_quant = outer.in_quant;
	p->qsrc = outer.qsrc;
	p->qsrc_at = outer.qsrc_at;
	p->qsrc_off = outer.qsrc_off;
	return (q);
}

/* A value with no operator after it (the lexer is at its end). */
static struct expr_node *
parse_bare(struct parser *p, struct expr_node *v, int as_arg, size_t off,
    size_t opoff, size_t wl)
{
	struct expr_lex	*lx = &p->lx;
	size_t		 end = lx->pos;
	char		 vtext[64];

	if (as_arg != 0)
		return (v);
	if (v->type != EXPR_T_BOOL) {
		if (wl > 0 && expr_func_lookup(lx->s + opoff, wl) !=
		    EXPR_FN_NONE)
			expr_lex_error(lx, opoff, wl, "'%.*s' is a function, "
			    "not an operator: write %.*s(%s, ...)", (int)wl,
			    lx->s + opoff, (int)wl, lx->s + opoff,
			    excerpt(lx->s + off, end - off, vtext,
			    sizeof vtext));
		else {
			expr_parser_set_after(p, lx->s + off, end - off);
			expect_msg(p, opoff, "an operator (eq, ne, contains, "
			    "in, ...)");
		}
		return (NULL);
	}
	if (v->mapped && !p->in_quant) {
		expr_parser_arg_error(p, v, "this gives an Array<Bool> (from "
		    "[*]): use it inside any() or all()");
		return (NULL);
	}
	return (v);
}

/* Whether op applies to the value v (source text vtext); else refused. */
static int
check_op(struct parser *p, const struct expr_node *v, enum expr_op op,
    const char *opname, size_t opoff, const char *vtext)
{
	struct expr_lex	*lx = &p->lx;
	char		 tn[64];
	unsigned	 outer = EXPR_TYPE_OUTER(v->type);

	if (v->type == EXPR_T_BOOL) {
		expr_lex_error(lx, opoff, strlen(opname), "'%s' is a Bool: use "
		    "it bare, without '%s' (there is no boolean literal: write "
		    "'%s' or 'not %s')", vtext, opname, vtext, vtext);
		return (-1);
	}
	if (outer == EXPR_T_ARRAY || outer == EXPR_T_MAP) {
		expr_lex_error(lx, opoff, strlen(opname), "no operator applies "
		    "to %s '%s': %s", typename(v->type, tn, sizeof tn), vtext,
		    outer == EXPR_T_MAP ? "index it by key ([\"name\"]) or use "
		    "[*] in any()" : "index it ([0]) or use [*] in any()");
		return (-1);
	}
	if (!op_allowed(op, v->type)) {
		expr_lex_error(lx, opoff, strlen(opname), "'%s' is not defined "
		    "for %s (%s)", opname, typename(v->type, tn, sizeof tn),
		    vtext);
		return (-1);
	}
	if (op == EXPR_OP_MATCHES && !plan_ok(p, EXPR_PLAN_BUSINESS)) {
		expr_lex_error(lx, opoff, strlen(opname), "'%s' needs the "
		    "Business plan or above (plan: %s)", opname,
		    expr_plan_name(p->opts.plan));
		return (-1);
	}
	return (0);
}

static int
parse_list_name(struct parser *p, struct expr_node *n)
{
	struct expr_lex	*lx = &p->lx;
	size_t		 start = ++lx->pos;	/* after '$' */

	while (lx->pos < lx->n && (islower((unsigned char)lx->s[lx->pos]) ||
	    isdigit((unsigned char)lx->s[lx->pos]) || lx->s[lx->pos] == '_'))
		lx->pos++;
	if (lx->pos == start || (lx->pos < lx->n &&
	    isalpha((unsigned char)lx->s[lx->pos]))) {
		expr_lex_error(lx, start - 1, lx->pos - start + 1, "a list name "
		    "is '$' and lower-case letters, digits or '_'");
		return (-1);
	}
	n->rhs.list = expr_arena_strndup(p->e->arena, lx->s + start,
	    lx->pos - start);
	return (0);
}

/* The right side of comparison n (op and lhs set), compiled. */
static int
parse_rhs(struct parser *p, struct expr_node *n)
{
	struct expr_lex	*lx = &p->lx;
	size_t		 litoff = lx->pos;
	enum expr_op	 op = n->op;

	switch (op) {
	case EXPR_OP_IN:
		if (expr_lex_peek(lx) != '{') {
			expect_msg(p, lx->pos, "a set '{ ... }' or a list "
			    "'$name'");
			return (-1);
		}
		return (parse_set(p, n->lhs->type, &n->rhs.set));
	case EXPR_OP_IN_LIST:
		return (parse_list_name(p, n));
	case EXPR_OP_BITAND:
		return (parse_lit(p, EXPR_T_INT, 0, &n->rhs.lit));
	case EXPR_OP_CONTAINS:
		return (parse_lit(p, EXPR_T_STRING, LIT_HEXBYTES, &n->rhs.lit));
	case EXPR_OP_MATCHES:
		if (parse_lit(p, EXPR_T_STRING, LIT_REGEX, &n->rhs.lit) != 0)
			return (-1);
		return (expr_compile_regex(p, n, litoff));
	case EXPR_OP_WILDCARD:
	case EXPR_OP_STRICT_WILDCARD:
		if (parse_lit(p, EXPR_T_STRING, 0, &n->rhs.lit) != 0)
			return (-1);
		return (expr_compile_wild(p, n, litoff));
	default:
		return (parse_lit(p, n->lhs->type, LIT_HEXBYTES, &n->rhs.lit));
	}
}

/*
 * A comparison, or a bare Bool value. as_arg: 0 in a logical context, 1 as
 * a function's first argument, 2 as a later argument (values of any type
 * pass).
 */
static struct expr_node *
parse_comparison(struct parser *p, int as_arg)
{
	struct expr_lex		*lx = &p->lx;
	struct expr_node	*v, *n;
	size_t			 off, opoff, save, wl;
	enum expr_op		 op;
	int			 sym, pending;
	char			 opname[32], vtext[64];

	if (expr_parser_ws(p) != 0)
		return (NULL);
	off = lx->pos;
	if (as_arg == 0 && expr_lex_peek(lx) == '(')
		return (parse_group(p));
	wl = expr_lex_word_len(lx, 1);
	if (as_arg == 0 && (expr_lex_is_word(lx, "any") ||
	    expr_lex_is_word(lx, "all"))) {
		lx->pos += 3;
		if (expr_parser_ws(p) != 0)
			return (NULL);
		if (expr_lex_peek(lx) == '(')
			return (parse_quant(p, off));
		lx->pos = off;
	}
	if (as_arg == 0 && expr_lex_is_word(lx, "true") && wl == 4) {
		lx->pos += 4;
		expr_parser_set_after(p, "true", 4);
		return (new_node(p, EXPR_N_TRUE, off, lx->pos));
	}
	if ((v = parse_value(p, as_arg == 1, &pending)) == NULL)
		return (NULL);
	save = lx->pos;
	if (expr_parser_ws(p) != 0)
		return (NULL);
	opoff = lx->pos;
	wl = expr_lex_word_len(lx, 0);
	op = lex_op(p, &sym);
	if (failed(p))
		return (NULL);
	if (op == EXPR_OP_NONE && wl > 0 &&
	    wrong_case(lx->s + opoff, wl) != NULL) {
		expr_lex_error(lx, opoff, wl, "unknown operator '%.*s': English "
		    "operators are lower case ('%s')", (int)wl, lx->s + opoff,
		    wrong_case(lx->s + opoff, wl));
		return (NULL);
	}
	if (check_pending(p, v, pending) != 0)
		return (NULL);
	if (op == EXPR_OP_NONE) {
		lx->pos = save;
		return (parse_bare(p, v, as_arg, off, opoff, wl));
	}
	snprintf(opname, sizeof opname, "%s", p->after);
	excerpt(lx->s + off, save - off, vtext, sizeof vtext);
	if (expr_parser_ws(p) != 0)
		return (NULL);
	if (op == EXPR_OP_IN && expr_lex_peek(lx) == '$')
		op = EXPR_OP_IN_LIST;
	if (check_op(p, v, op, opname, opoff, vtext) != 0)
		return (NULL);
	n = new_node(p, EXPR_N_CMP, off, off);
	n->lhs = v;
	n->op = op;
	n->op_c = sym;
	n->mapped = v->mapped;
	if (parse_rhs(p, n) != 0)
		return (NULL);
	span(p, n, off, lx->pos);
	if (n->mapped && !p->in_quant) {
		expr_parser_arg_error(p, n, "this gives an Array<Bool> (from "
		    "[*]): use it inside any() or all()");
		return (NULL);
	}
	return (n);
}

/* ---- sets -------------------------------------------------------------- */

static int
parse_set(struct parser *p, unsigned t, struct expr_set *set)
{
	struct expr_lex	*lx = &p->lx;
	struct expr_lit	*l;
	size_t		 open = lx->pos, off;
	int		 c;

	memset(set, 0, sizeof *set);
	set->type = (enum expr_tkind)t;
	lx->pos++;		/* '{' */
	expr_parser_set_after(p, "{", 1);
	for (;;) {
		if (expr_parser_ws(p) != 0)
			return (-1);
		off = lx->pos;
		c = expr_lex_peek(lx);
		if (c == '}')
			break;
		if (c == ',') {
			expr_lex_error(lx, off, 1, "a comma is not allowed in a "
			    "set: separate the values with spaces");
			return (-1);
		}
		if (c == -1) {
			expr_lex_error(lx, off, 0, "unexpected end of input: "
			    "expected '}' to close the set at column %d",
			    expr_lex_col(lx, open));
			return (-1);
		}
		PUSH(p, set->elems, set->nelems);
		l = &set->elems[set->nelems - 1];
		if (t == EXPR_T_STRING) {
			if (parse_lit(p, t, LIT_HEXBYTES, l) != 0)
				return (-1);
		} else if (t == EXPR_T_INT) {
			if (parse_lit(p, t, 0, l) != 0)
				return (-1);
			if (lx->n - lx->pos >= 2 && lx->s[lx->pos] == '.' &&
			    lx->s[lx->pos + 1] == '.') {
				lx->pos += 2;
				expr_parser_set_after(p, "..", 2);
				c = expr_lex_peek(lx);
				if (c != '-' && !(c >= 0 && isdigit(c))) {
					expect_msg(p, lx->pos, "the range's "
					    "last integer");
					return (-1);
				}
				if (expr_lex_int(lx, &l->hi) != 0)
					return (-1);
				if (l->hi < l->i) {
					expr_lex_error(lx, off, lx->pos - off,
					    "the range's first integer is "
					    "above its last");
					return (-1);
				}
				l->kind = EXPR_LIT_INT_RANGE;
				l->length = expr_lex_col(lx, lx->pos) -
				    l->column;
			}
		} else {
			if (expr_lex_at_string(lx)) {
				expr_lex_error(lx, off, 1, "expected an IP "
				    "address in the set, without quotes");
				return (-1);
			}
			if (!(c >= 0 && (isxdigit(c) || c == ':'))) {
				expect_msg(p, off, lit_word(t));
				return (-1);
			}
			if (expr_lex_ip(lx, 1, l) != 0)
				return (-1);
		}
		c = expr_lex_peek(lx);
		if (c != ' ' && c != '\r' && c != '\n' && c != '}' &&
		    c != '\t' && c != ',' && c != -1 && c != '"' &&
		    c != 'r') {
			expect_msg(p, lx->pos, "a space or '}' after a set value");
			return (-1);
		}
		expr_parser_set_after(p, "{", 1);
	}
	if (set->nelems == 0) {
		expr_lex_error(lx, open, lx->pos + 1 - open, "an empty set");
		return (-1);
	}
	lx->pos++;		/* '}' */
	expr_parser_set_after(p, "}", 1);
	expr_compile_set(p, set);
	return (0);
}

/* ---- the whole expression ---------------------------------------------- */

static void
number(struct expr_node *n, int *id)
{
	size_t	i;

	n->id = (*id)++;
	if (n->kind == EXPR_N_CMP)
		number(n->lhs, id);
	for (i = 0; i < n->nkids; i++)
		number(n->kids[i], id);
}

static size_t
utf8_chars(const char *s, size_t n)
{
	size_t	i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return (c);
}

/*
 * A word right after a closing quote: the string was most likely meant to
 * close earlier (its '"' left out), and took the text up to the next
 * string's opening quote. The error met there is far from its cause: it
 * is said at the quote that opens the string.
 */
static void
unclosed_hint(struct expr_lex *lx)
{
	struct expr_error	*err = lx->err;
	size_t			 at = lx->str_end;
	char			 found[64];

	if (err == NULL || at == 0 || at >= lx->n ||
	    err->column != expr_lex_col(lx, at) ||
	    !(isalnum((unsigned char)lx->s[at]) || lx->s[at] == '_'))
		return;
	found_text(lx, at, found, sizeof found);
	snprintf(err->message, sizeof err->message, "unclosed string? the "
	    "string that opens here is closed only at column %d, just before "
	    "%s", expr_lex_col(lx, at - 1), found);
	err->column = expr_lex_col(lx, lx->str_start);
	err->length = 1;
}

void
expr_free(struct expr *e)
{
	size_t	i;

	if (e == NULL)
		return;
	if (e->eval_free != NULL)
		e->eval_free(e->eval);
	for (i = 0; i < e->nres; i++)
		pcre2_code_free(e->res[i]);
	free(e->res);
	expr_arena_free(e->arena);
	free(e->text);
	free(e);
}

struct expr *
expr_parse(const char *text, const struct expr_options *opts,
    struct expr_error *errp)
{
	struct parser		 p;
	struct expr_error	 dummy;
	struct expr		*e;
	struct expr_node	*root;
	size_t			 n = strlen(text), chars, i;
	int			 id = 0;
	char			 found[64];

	if (errp == NULL)
		errp = &dummy;
	memset(errp, 0, sizeof *errp);
	memset(&p, 0, sizeof p);
	if (opts != NULL)
		p.opts = *opts;
	chars = utf8_chars(text, n);
	if (chars > EXPR_MAX_LENGTH) {
		errp->column = EXPR_MAX_LENGTH + 1;
		errp->length = 1;
		snprintf(errp->message, sizeof errp->message, "the expression "
		    "is %zu characters long; the limit is %d", chars,
		    EXPR_MAX_LENGTH);
		return (NULL);
	}
	e = xcalloc(1, sizeof *e);
	e->text = xstrdup(text);
	e->arena = expr_arena_new();
	if (opts != NULL)
		e->opts = *opts;
	p.e = e;
	expr_lex_init(&p.lx, e->text, n, errp, e->arena);
	root = NULL;
	if (expr_lex_ws(&p.lx) == 0 && expr_lex_eof(&p.lx))
		expr_lex_error(&p.lx, p.lx.pos, 0, "empty expression");
	else if (!p.lx.failed && (root = parse_or(&p)) != NULL &&
	    expr_lex_ws(&p.lx) == 0 && !expr_lex_eof(&p.lx)) {
		i = expr_lex_word_len(&p.lx, 1);
		if (i > 0 && wrong_case(p.lx.s + p.lx.pos, i) != NULL)
			expr_lex_error(&p.lx, p.lx.pos, i, "unknown operator "
			    "'%.*s': English operators are lower case ('%s')",
			    (int)i, p.lx.s + p.lx.pos,
			    wrong_case(p.lx.s + p.lx.pos, i));
		else if (expr_lex_peek(&p.lx) == ')')
			expr_lex_error(&p.lx, p.lx.pos, 1, "unexpected ')' "
			    "(no '(' to close)");
		else
			expr_lex_error(&p.lx, p.lx.pos, MAXIMUM(i, 1),
			    "expected and, or, xor or the end, found %s",
			    found_text(&p.lx, p.lx.pos, found, sizeof found));
	}
	if (!p.lx.failed && root != NULL && root->type != EXPR_T_BOOL)
		expr_lex_error(&p.lx, 0, n, "the expression must be a Bool");
	if (p.lx.failed)
		unclosed_hint(&p.lx);
	e->res = p.res;
	e->nres = p.nres;
	if (p.lx.failed || root == NULL) {
		expr_lex_done(&p.lx);
		expr_free(e);
		return (NULL);
	}
	expr_lex_done(&p.lx);
	e->root = root;
	number(root, &id);
	e->nnodes = id;
	return (e);
}

int
expr_check(const char *text, const struct expr_options *opts,
    struct expr_error *err)
{
	struct expr	*e;

	if ((e = expr_parse(text, opts, err)) == NULL)
		return (-1);
	expr_free(e);
	return (0);
}

const char *
expr_text(const struct expr *e)
{
	return (e->text);
}

/* The byte where character column col (1-based, as the lexer counts)
 * starts; the text's end past its last character. */
static size_t
render_offset(const char *text, int col)
{
	size_t	i;
	int	c = 0;

	for (i = 0; text[i] != '\0'; i++) {
		if (((unsigned char)text[i] & 0xc0) != 0x80 || c == 0)
			c++;
		if (c == col)
			return (i);
	}
	return (i);
}

void
expr_error_place(const char *text, const struct expr_error *err, int *line,
    int *col)
{
	size_t	at, i, start = 0;

	*line = 1;
	at = render_offset(text, err->column > 0 ? err->column : 1);
	for (i = 0; i < at; i++)
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	/* The characters of the line before the error, plus one. */
	*col = 1;
	for (i = start; i < at; i++)
		if (((unsigned char)text[i] & 0xc0) != 0x80)
			(*col)++;
}

char *
expr_error_where(const char *text, const struct expr_error *err)
{
	int	line, col;

	expr_error_place(text, err, &line, &col);
	if (strchr(text, '\n') == NULL)
		return (xprintf("column %d", col));
	return (xprintf("line %d, column %d", line, col));
}

char *
expr_error_render(const char *text, const struct expr_error *err)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*s, *from, *to;
	int		 line, col, i, len, room;

	expr_error_place(text, err, &line, &col);
	buf_addf(&b, "expression:%d:%d: %s\n", line, col, err->message);
	/* The error's line alone, so the caret stays under its column. */
	for (from = text, i = 1; i < line; from++)
		if (*from == '\n')
			i++;
	to = strchr(from, '\n');
	if (to == NULL)
		to = from + strlen(from);
	for (s = from; s < to; s++)
		buf_addc(&b, *s == '\r' || *s == '\t' ? ' ' :
		    (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
	buf_addc(&b, '\n');
	for (i = 1; i < col; i++)
		buf_addc(&b, ' ');
	len = err->length > 0 ? err->length : 1;
	/* What runs past the line's end is marked to it, at least once. */
	room = (int)utf8_chars(from, (size_t)(to - from)) - col + 1;
	if (len > room)
		len = MAXIMUM(room, 1);
	for (i = 0; i < len; i++)
		buf_addc(&b, '^');
	buf_addc(&b, '\n');
	return (buf_detach(&b, NULL));
}
