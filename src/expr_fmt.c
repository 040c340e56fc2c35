/*
 * The Rules language's formatter: a compiled expression back to canonical
 * text. One space around operators, English operator words, the fields'
 * current names, parentheses only where the tree needs them; parsing the
 * result gives the same tree, so formatting is stable. The canonical words
 * are longer than the symbols, so where that text would pass the length
 * the service takes, a short form (symbols, the shortest names, no space
 * that is not needed) is written instead, or else the text as it was.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "expr_int.h"
#include "text.h"
#include "xmalloc.h"

/* What is being written, and how. */
struct fmt {
	struct buf	 b;
	int		 brief;		/* the short form */
};

static void	fmt_node(struct fmt *, const struct expr_node *);

static int
prec(const struct expr_node *n)
{
	switch (n->kind) {
	case EXPR_N_OR:
		return (1);
	case EXPR_N_XOR:
		return (2);
	case EXPR_N_AND:
		return (3);
	case EXPR_N_NOT:
		return (4);
	default:
		return (5);
	}
}

/* A raw string r#"..."# with the fewest '#' that keep it whole. */
static void
fmt_raw(struct buf *b, const char *s, size_t len)
{
	size_t	hashes = 0, i, k;

	for (;;) {
		for (i = 0; i < len; i++) {
			if (s[i] != '"')
				continue;
			for (k = 0; k < hashes && i + 1 + k < len; k++)
				if (s[i + 1 + k] != '#')
					break;
			if (k == hashes)
				break;
		}
		if (i == len)
			break;
		hashes++;
	}
	buf_addc(b, 'r');
	for (i = 0; i < hashes; i++)
		buf_addc(b, '#');
	buf_addc(b, '"');
	buf_add(b, s, len);
	buf_addc(b, '"');
	for (i = 0; i < hashes; i++)
		buf_addc(b, '#');
}

/* A quoted string whose escapes decode back to s; a byte that is no
 * part of UTF-8 text is escaped too, as the text must be UTF-8. */
static void
fmt_quoted(struct buf *b, const char *s, size_t len)
{
	size_t		i, n;
	unsigned char	c;
	uint32_t	cp;

	buf_addc(b, '"');
	for (i = 0; i < len; i += n) {
		c = (unsigned char)s[i];
		n = 1;
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c < 0x20 || c == 0x7f)
			buf_addf(b, "\\x%02x", c);
		else if (c < 0x80)
			buf_addc(b, (char)c);
		else if ((n = text_utf8_decode(s + i, len - i, &cp)) == 0) {
			buf_addf(b, "\\x%02x", c);
			n = 1;
		} else
			buf_add(b, s + i, n);
	}
	buf_addc(b, '"');
}

static int
raw_ok(const char *s, size_t len)
{
	/* A raw string holds any bytes, but keep control bytes visible. */
	size_t	i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return (0);
	return (1);
}

static void
fmt_string(struct buf *b, const struct expr_lit *l, int regex)
{
	if (regex) {
		/* Regex escaping keeps backslashes: quoted is exact when
		 * there is no '"' and no control byte. */
		if (!l->raw && memchr(l->s, '"', l->len) == NULL &&
		    raw_ok(l->s, l->len))
			buf_addf(b, "\"%.*s\"", (int)l->len, l->s);
		else
			fmt_raw(b, l->s, l->len);
		return;
	}
	if (l->raw && raw_ok(l->s, l->len))
		fmt_raw(b, l->s, l->len);
	else
		fmt_quoted(b, l->s, l->len);
}

static void
fmt_ip(struct buf *b, const struct expr_ip *ip)
{
	char	tmp[INET6_ADDRSTRLEN];

	if (inet_ntop(ip->family == 4 ? AF_INET : AF_INET6, ip->bytes, tmp,
	    sizeof tmp) == NULL)
		tmp[0] = '\0';
	buf_adds(b, tmp);
}

static void
fmt_lit(struct buf *b, const struct expr_lit *l, int regex)
{
	switch (l->kind) {
	case EXPR_LIT_STRING:
		fmt_string(b, l, regex);
		break;
	case EXPR_LIT_INT:
		buf_addf(b, "%lld", (long long)l->i);
		break;
	case EXPR_LIT_INT_RANGE:
		buf_addf(b, "%lld..%lld", (long long)l->i, (long long)l->hi);
		break;
	case EXPR_LIT_IP:
		fmt_ip(b, &l->ip);
		break;
	case EXPR_LIT_IP_CIDR:
		fmt_ip(b, &l->ip);
		buf_addf(b, "/%d", l->prefix);
		break;
	case EXPR_LIT_IP_RANGE:
		fmt_ip(b, &l->ip);
		buf_adds(b, "..");
		fmt_ip(b, &l->ip_hi);
		break;
	}
}

static void
fmt_value(struct fmt *f, const struct expr_node *n)
{
	struct buf	*b = &f->b;
	size_t		 i;

	if (n->func != EXPR_FN_NONE) {
		buf_adds(b, expr_func_name(n->func));
		buf_addc(b, '(');
		for (i = 0; i < n->nkids; i++) {
			if (i > 0)
				buf_adds(b, f->brief ? "," : ", ");
			fmt_node(f, n->kids[i]);
		}
		buf_addc(b, ')');
	} else
		buf_adds(b, f->brief ? expr_field_short_name(n->field) :
		    expr_field_name(n->field));
	for (i = 0; i < n->nidx; i++) {
		switch (n->idx[i].kind) {
		case EXPR_IDX_KEY:
			buf_addc(b, '[');
			fmt_quoted(b, n->idx[i].key, n->idx[i].keylen);
			buf_addc(b, ']');
			break;
		case EXPR_IDX_POS:
			buf_addf(b, "[%u]", n->idx[i].pos);
			break;
		default:
			buf_adds(b, "[*]");
			break;
		}
	}
}

/* The operator's symbol (==, ~...), which needs no space; else NULL. */
static const char *
fmt_op_symbol(enum expr_op op)
{
	switch (op) {
	case EXPR_OP_EQ:	return ("==");
	case EXPR_OP_NE:	return ("!=");
	case EXPR_OP_LT:	return ("<");
	case EXPR_OP_LE:	return ("<=");
	case EXPR_OP_GT:	return (">");
	case EXPR_OP_GE:	return (">=");
	case EXPR_OP_MATCHES:	return ("~");
	default:		return (NULL);
	}
}

static void
fmt_cmp(struct fmt *f, const struct expr_node *n)
{
	const struct expr_rhs	*r = &n->rhs;
	struct buf		*b = &f->b;
	const char		*sym = f->brief ? fmt_op_symbol(n->op) : NULL;
	size_t			 i;

	fmt_value(f, n->lhs);
	if (sym != NULL)
		buf_adds(b, sym);
	else {
		buf_addc(b, ' ');
		buf_adds(b, expr_op_name(n->op));
		buf_addc(b, ' ');
	}
	switch (n->op) {
	case EXPR_OP_IN:
		buf_addc(b, '{');
		for (i = 0; i < r->set.nelems; i++) {
			if (i > 0)
				buf_addc(b, ' ');
			fmt_lit(b, &r->set.elems[i], 0);
		}
		buf_addc(b, '}');
		break;
	case EXPR_OP_IN_LIST:
		buf_addf(b, "$%s", r->list);
		break;
	default:
		fmt_lit(b, &r->lit, n->op == EXPR_OP_MATCHES);
		break;
	}
}

static void
fmt_kid(struct fmt *f, const struct expr_node *parent,
    const struct expr_node *kid)
{
	int	paren = prec(kid) < prec(parent) ||
		    (prec(kid) == prec(parent) && prec(kid) < 4);

	if (paren)
		buf_addc(&f->b, '(');
	fmt_node(f, kid);
	if (paren)
		buf_addc(&f->b, ')');
}

static const char *
fmt_logic_sep(const struct fmt *f, enum expr_node_kind kind)
{
	if (f->brief)
		return (kind == EXPR_N_OR ? "||" : kind == EXPR_N_XOR ? "^^" :
		    "&&");
	return (kind == EXPR_N_OR ? " or " : kind == EXPR_N_XOR ? " xor " :
	    " and ");
}

static void
fmt_node(struct fmt *f, const struct expr_node *n)
{
	struct buf	*b = &f->b;
	size_t		 i;

	switch (n->kind) {
	case EXPR_N_OR:
	case EXPR_N_XOR:
	case EXPR_N_AND:
		for (i = 0; i < n->nkids; i++) {
			if (i > 0)
				buf_adds(b, fmt_logic_sep(f, n->kind));
			fmt_kid(f, n, n->kids[i]);
		}
		break;
	case EXPR_N_NOT:
		buf_adds(b, f->brief ? "!" : "not ");
		fmt_kid(f, n, n->kids[0]);
		break;
	case EXPR_N_ANY:
	case EXPR_N_ALL:
		buf_adds(b, n->kind == EXPR_N_ANY ? "any(" : "all(");
		fmt_node(f, n->kids[0]);
		buf_addc(b, ')');
		break;
	case EXPR_N_CMP:
		fmt_cmp(f, n);
		break;
	case EXPR_N_VALUE:
		fmt_value(f, n);
		break;
	case EXPR_N_LIT:
		fmt_lit(b, &n->lit, 0);
		break;
	case EXPR_N_TRUE:
		buf_adds(b, "true");
		break;
	}
}

static char *
fmt_tree(const struct expr_node *n, int brief)
{
	struct fmt	f;

	memset(&f, 0, sizeof f);
	f.brief = brief;
	fmt_node(&f, n);
	return (buf_detach(&f.b, NULL));
}

char *
expr_format_node(const struct expr_node *n)
{
	return (fmt_tree(n, 0));
}

char *
expr_format(const struct expr *e)
{
	return (fmt_tree(e->root, 0));
}

char *
expr_format_fit(const struct expr *e, enum expr_fmt_form *form)
{
	enum expr_fmt_form	 dummy;
	char			*s;

	if (form == NULL)
		form = &dummy;
	*form = EXPR_FMT_CANONICAL;
	s = fmt_tree(e->root, 0);
	if (text_chars(s) <= EXPR_MAX_LENGTH)
		return (s);
	free(s);
	*form = EXPR_FMT_SHORT;
	s = fmt_tree(e->root, 1);
	if (text_chars(s) <= EXPR_MAX_LENGTH)
		return (s);
	free(s);
	/* Literals can be written shorter than we write them. */
	*form = EXPR_FMT_AS_WRITTEN;
	return (xstrdup(e->text));
}

const char *
expr_fmt_form_note(enum expr_fmt_form form)
{
	switch (form) {
	case EXPR_FMT_SHORT:
		return ("the canonical form would be longer than the 4096 "
		    "characters the service takes: written short (&& || ! "
		    "== ~, the shortest names)");
	case EXPR_FMT_AS_WRITTEN:
		return ("the canonical form would be longer than the 4096 "
		    "characters the service takes, and so would the short "
		    "one: left as written");
	case EXPR_FMT_CANONICAL:
		break;
	}
	return ("");
}
