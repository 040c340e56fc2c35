/*
 * Warnings on expressions the language takes but that most likely never
 * match what was meant (api-map-next 12.3): a method compared in lower
 * case (http.request.method is upper case) and a header name with
 * capitals as a key of http.request.headers or http.response.headers
 * (their keys are lower case). Checks would refuse them; a warning says
 * why they will not match and lets them through.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "expr_ast.h"

struct warn_walk {
	struct expr_warning	*w;
	size_t			 max;
	size_t			 n;
};

static void
warn_add(struct warn_walk *ww, int column, int length, const char *fmt, ...)
    __attribute__((__format__(__printf__, 4, 5)));

static void
warn_add(struct warn_walk *ww, int column, int length, const char *fmt, ...)
{
	struct expr_warning	*w;
	va_list			 ap;

	if (ww->n++ >= ww->max)
		return;
	w = &ww->w[ww->n - 1];
	w->column = column;
	w->length = length > 0 ? length : 1;
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof w->message, fmt, ap);
	va_end(ap);
}

/* Whether bytes hold an ASCII letter of that case (0 lower, 1 upper). */
static int
warn_has_case(const char *s, size_t n, int upper)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (upper ? (s[i] >= 'A' && s[i] <= 'Z') :
		    (s[i] >= 'a' && s[i] <= 'z'))
			return (1);
	return (0);
}

/* The bytes in one case, printable, for the message; cut when long. */
static const char *
warn_cased(const char *s, size_t n, int upper, char *buf, size_t size)
{
	size_t	i, o = 0;
	char	c;

	for (i = 0; i < n && o + 4 < size; i++) {
		c = s[i];
		if (upper && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!upper && c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		buf[o++] = (unsigned char)c < 0x20 || c == 0x7f || c == '"' ||
		    c == '\\' ? '?' : c;
	}
	if (i < n) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return (buf);
}

/* A method literal (or set value) with lower-case letters. */
static void
warn_method_lit(struct warn_walk *ww, const struct expr_lit *lit)
{
	char	up[48];

	if (lit->kind != EXPR_LIT_STRING || !warn_has_case(lit->s, lit->len, 0))
		return;
	warn_add(ww, lit->column, lit->length, "methods are upper case: this "
	    "never matches http.request.method; write \"%s\"",
	    warn_cased(lit->s, lit->len, 1, up, sizeof up));
}

static void
warn_method(struct warn_walk *ww, const struct expr_node *n)
{
	const struct expr_node	*l = n->lhs;
	size_t			 i;

	/* lower(http.request.method) and the like are not the field. */
	if (l == NULL || l->kind != EXPR_N_VALUE || l->field != EXPR_F_METHOD ||
	    l->nidx != 0)
		return;
	switch (n->op) {
	case EXPR_OP_EQ:
	case EXPR_OP_NE:
	case EXPR_OP_CONTAINS:
	case EXPR_OP_STRICT_WILDCARD:
		warn_method_lit(ww, &n->rhs.lit);
		break;
	case EXPR_OP_IN:
		for (i = 0; i < n->rhs.set.nelems; i++)
			warn_method_lit(ww, &n->rhs.set.elems[i]);
		break;
	default:
		/* wildcard ignores case; a regex may say (?i). */
		break;
	}
}

/* headers["X-Key"]: the map's keys are the names in lower case. */
static void
warn_header_key(struct warn_walk *ww, const struct expr_node *n)
{
	const struct expr_index	*ix;
	char			 low[48];

	if (n->field != EXPR_F_HEADERS && n->field != EXPR_F_RESPONSE_HEADERS)
		return;
	if (n->nidx == 0 || n->idx[0].kind != EXPR_IDX_KEY)
		return;
	ix = &n->idx[0];
	if (!warn_has_case(ix->key, ix->keylen, 1))
		return;
	warn_add(ww, ix->column, ix->length, "header names are lower case in "
	    "%s: this key never matches; write [\"%s\"]",
	    expr_field_name(n->field),
	    warn_cased(ix->key, ix->keylen, 0, low, sizeof low));
}

static void
warn_walk(struct warn_walk *ww, const struct expr_node *n)
{
	size_t	i;

	if (n == NULL)
		return;
	switch (n->kind) {
	case EXPR_N_CMP:
		warn_walk(ww, n->lhs);
		warn_method(ww, n);
		break;
	case EXPR_N_VALUE:
		warn_header_key(ww, n);
		break;
	default:
		break;
	}
	/* Logical nodes' operands and a call's arguments. */
	for (i = 0; i < n->nkids; i++)
		warn_walk(ww, n->kids[i]);
}

size_t
expr_warnings(const struct expr *e, struct expr_warning *w, size_t max)
{
	struct warn_walk	ww;

	memset(&ww, 0, sizeof ww);
	ww.w = w;
	ww.max = max;
	if (e != NULL)
		warn_walk(&ww, e->root);
	return (ww.n);
}
