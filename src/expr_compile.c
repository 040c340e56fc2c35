/*
 * Compiling the literals the Rules language's evaluator uses: sets as sorted
 * arrays, wildcard segments, PCRE2 regexes (with the checks that keep them
 * to Rust's regex syntax).
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "expr_int.h"
#include "expr_parser.h"
#include "xmalloc.h"

/* ---- sets -------------------------------------------------------------- */

static int
cmp_int_range(const void *a, const void *b)
{
	const struct expr_int_range	*x = a, *y = b;

	return (x->lo < y->lo ? -1 : x->lo > y->lo);
}

static int
cmp_ip4(const void *a, const void *b)
{
	const struct expr_ip4_range	*x = a, *y = b;

	return (x->lo < y->lo ? -1 : x->lo > y->lo);
}

static int
cmp_ip6(const void *a, const void *b)
{
	const struct expr_ip6_range	*x = a, *y = b;

	return (memcmp(x->lo, y->lo, 16));
}

int
expr_bytes_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int	c = memcmp(a, b, MINIMUM(al, bl));

	if (c != 0)
		return (c);
	return (al < bl ? -1 : al > bl);
}

static int
cmp_bytes(const void *a, const void *b)
{
	const struct expr_bytes	*x = a, *y = b;

	return (expr_bytes_cmp(x->s, x->len, y->s, y->len));
}

static void
ip_to_range(const struct expr_lit *l, uint8_t lo[16], uint8_t hi[16])
{
	int	len = l->ip.family == 4 ? 4 : 16, bits, i;

	memcpy(lo, l->ip.bytes, 16);
	memcpy(hi, l->ip.bytes, 16);
	if (l->kind == EXPR_LIT_IP_RANGE)
		memcpy(hi, l->ip_hi.bytes, 16);
	if (l->kind != EXPR_LIT_IP_CIDR)
		return;
	for (i = 0; i < len; i++) {
		bits = l->prefix - i * 8;
		if (bits >= 8)
			continue;
		if (bits <= 0) {
			lo[i] = 0;
			hi[i] = 0xff;
		} else {
			lo[i] &= (uint8_t)(0xff << (8 - bits));
			hi[i] |= (uint8_t)(0xff >> bits);
		}
	}
}

static uint32_t
be32(const uint8_t *b)
{
	return ((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3]);
}

/* Sort and merge the membership tables of a parsed set. */
void
expr_compile_set(struct parser *p, struct expr_set *set)
{
	struct expr_arena	*a = p->e->arena;
	size_t			 i, k, n = set->nelems;
	uint8_t			 lo[16], hi[16];

	if (set->type == EXPR_T_INT) {
		set->ints = expr_arena_alloc(a, n * sizeof *set->ints);
		for (i = 0; i < n; i++) {
			set->ints[i].lo = set->elems[i].i;
			set->ints[i].hi = set->elems[i].kind ==
			    EXPR_LIT_INT_RANGE ? set->elems[i].hi :
			    set->elems[i].i;
		}
		qsort(set->ints, n, sizeof *set->ints, cmp_int_range);
		for (i = 0, k = 0; i < n; i++) {
			if (k > 0 && (set->ints[k - 1].hi == INT64_MAX ||
			    set->ints[i].lo <= set->ints[k - 1].hi + 1)) {
				set->ints[k - 1].hi = MAXIMUM(set->ints[k - 1].hi,
				    set->ints[i].hi);
				continue;
			}
			set->ints[k++] = set->ints[i];
		}
		set->nints = k;
	} else if (set->type == EXPR_T_STRING) {
		set->strs = expr_arena_alloc(a, n * sizeof *set->strs);
		for (i = 0; i < n; i++) {
			set->strs[i].s = set->elems[i].s;
			set->strs[i].len = set->elems[i].len;
		}
		qsort(set->strs, n, sizeof *set->strs, cmp_bytes);
		for (i = 0, k = 0; i < n; i++) {
			if (k > 0 && cmp_bytes(&set->strs[k - 1],
			    &set->strs[i]) == 0)
				continue;
			set->strs[k++] = set->strs[i];
		}
		set->nstrs = k;
	} else {
		set->v4 = expr_arena_alloc(a, n * sizeof *set->v4);
		set->v6 = expr_arena_alloc(a, n * sizeof *set->v6);
		for (i = 0; i < n; i++) {
			ip_to_range(&set->elems[i], lo, hi);
			if (set->elems[i].ip.family == 4) {
				set->v4[set->nv4].lo = be32(lo);
				set->v4[set->nv4++].hi = be32(hi);
			} else {
				memcpy(set->v6[set->nv6].lo, lo, 16);
				memcpy(set->v6[set->nv6++].hi, hi, 16);
			}
		}
		qsort(set->v4, set->nv4, sizeof *set->v4, cmp_ip4);
		for (i = 0, k = 0; i < set->nv4; i++) {
			if (k > 0 && (set->v4[k - 1].hi == UINT32_MAX ||
			    set->v4[i].lo <= set->v4[k - 1].hi + 1)) {
				set->v4[k - 1].hi = MAXIMUM(set->v4[k - 1].hi,
				    set->v4[i].hi);
				continue;
			}
			set->v4[k++] = set->v4[i];
		}
		set->nv4 = k;
		qsort(set->v6, set->nv6, sizeof *set->v6, cmp_ip6);
		for (i = 0, k = 0; i < set->nv6; i++) {
			/* Merge overlapping (not merely adjacent) ranges. */
			if (k > 0 && memcmp(set->v6[i].lo, set->v6[k - 1].hi,
			    16) <= 0) {
				if (memcmp(set->v6[i].hi, set->v6[k - 1].hi,
				    16) > 0)
					memcpy(set->v6[k - 1].hi,
					    set->v6[i].hi, 16);
				continue;
			}
			set->v6[k++] = set->v6[i];
		}
		set->nv6 = k;
	}
}

static int
wild_error(struct parser *p, struct expr_node *n, size_t litoff, size_t at,
    size_t len, const char *msg)
{
	const struct expr_lit	*l = &n->rhs.lit;
	int			 c0, c1;

	c0 = expr_lex_lit_col(&p->lx, l, 0, litoff, at);
	c1 = expr_lex_lit_col(&p->lx, l, 0, litoff, at + len);
	expr_lex_error(&p->lx, expr_parser_col_off(p, c0),
	    expr_parser_col_off(p, c1) - expr_parser_col_off(p, c0),
	    "%s", msg);
	return (-1);
}

static void
wild_flush(struct parser *p, struct expr_wild *w, size_t *nsegs,
    struct buf *seg)
{
	if (seg->len == 0)
		return;
	PUSH(p, w->segs, *nsegs);
	w->segs[*nsegs - 1].s = expr_arena_strndup(p->e->arena, seg->data,
	    seg->len);
	w->segs[*nsegs - 1].len = seg->len;
	buf_reset(seg);
}

int
expr_compile_wild(struct parser *p, struct expr_node *n, size_t litoff)
{
	const struct expr_lit	*l = &n->rhs.lit;
	struct expr_wild	*w = &n->rhs.wild;
	struct buf		 seg = BUF_INITIALIZER;
	size_t			 i, nsegs = 0;
	int			 c;

	w->nocase = n->op == EXPR_OP_WILDCARD;
	for (i = 0; i < l->len; i++) {
		c = (unsigned char)l->s[i];
		if (c == '*') {
			if (i + 1 < l->len && l->s[i + 1] == '*') {
				buf_free(&seg);
				return (wild_error(p, n, litoff, i, 2, "'**' is "
				    "not allowed in a wildcard (one '*' matches "
				    "any run; \\\\* is a literal star)"));
			}
			if (i == 0)
				w->lead = 1;
			if (i + 1 == l->len)
				w->trail = 1;
			wild_flush(p, w, &nsegs, &seg);
			continue;
		}
		if (c == '\\') {
			if (i + 1 >= l->len || (l->s[i + 1] != '*' &&
			    l->s[i + 1] != '\\')) {
				buf_free(&seg);
				return (wild_error(p, n, litoff, i, 1, "in a "
				    "wildcard a backslash escapes only '*' or "
				    "a backslash"));
			}
			c = (unsigned char)l->s[++i];
		}
		buf_addc(&seg, (char)(w->nocase ? tolower(c) : c));
	}
	wild_flush(p, w, &nsegs, &seg);
	buf_free(&seg);
	w->nsegs = nsegs;
	return (0);
}

/*
 * Regexes are Rust `regex` syntax at Cloudflare; PCRE2 is close. Compiled
 * with PCRE2_DOLLAR_ENDONLY ($ is the end of text, as in Rust, not before
 * a final newline), PCRE2_NEVER_BACKSLASH_C and no PCRE2_UTF: bytes are
 * matched, as Rust's regex::bytes without Unicode. A leading (?u) (Rust's
 * Unicode flag, which PCRE2 lacks) is removed and turns on PCRE2_UTF and
 * PCRE2_UCP with PCRE2_MATCH_INVALID_UTF so any bytes can be matched.
 * Refused because Rust's regex lacks them (PCRE2 would take them):
 * look-around, back-references (\1, \g, \k, (?P=)), atomic groups,
 * possessive quantifiers, recursion and conditionals, \K \G \Q \E \R \X,
 * callouts, and class set operations (&& -- ~~, which PCRE2 would read as
 * literal characters). \v is a vertical tab in Rust, vertical space in
 * PCRE2: rewritten to \x0b. Without (?u) Rust refuses \p classes and
 * non-ASCII characters in a class, which PCRE2 would read as bytes: so do
 * we. Matching limits are the evaluator's.
 */
static int
regex_error(struct parser *p, struct expr_node *n, size_t litoff,
    size_t at, size_t len, const char *what, const char *why)
{
	const struct expr_lit	*l = &n->rhs.lit;
	int			 c0, c1;

	c0 = expr_lex_lit_col(&p->lx, l, 1, litoff, at);
	c1 = expr_lex_lit_col(&p->lx, l, 1, litoff, at + len);
	expr_lex_error(&p->lx, expr_parser_col_off(p, c0),
	    expr_parser_col_off(p, c1) - expr_parser_col_off(p, c0),
	    "invalid regex: %s %s", what, why);
	return (-1);
}

static int
regex_refuse(struct parser *p, struct expr_node *n, size_t litoff,
    size_t at, size_t len, const char *what)
{
	return (regex_error(p, n, litoff, at, len, what, "is not supported "
	    "(the rules use Rust's regex syntax)"));
}

/* Rust's regex without Unicode refuses Unicode classes and non-ASCII
 * characters in a class; PCRE2 would match bytes instead. */
static int
regex_needs_u(struct parser *p, struct expr_node *n, size_t litoff,
    size_t at, size_t len, const char *what)
{
	return (regex_error(p, n, litoff, at, len, what, "needs (?u) at the "
	    "start (Unicode is off unless asked for)"));
}

static int
regex_rewrite(struct parser *p, struct expr_node *n, size_t litoff,
    struct buf *out, uint32_t *opts)
{
	const struct expr_lit	*l = &n->rhs.lit;
	const char		*s = l->s;
	size_t			 i = 0, len = l->len;
	int			 inclass = 0;
	char			 c, g;

	if (len >= 4 && memcmp(s, "(?u)", 4) == 0) {
		*opts |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
		i = 4;
	}
	for (; i < len; i++) {
		c = s[i];
		if (c == '\\' && i + 1 < len) {
			switch (s[i + 1]) {
			case '1': case '2': case '3': case '4': case '5':
			case '6': case '7': case '8': case '9':
			case 'g': case 'k':
				if (!inclass)
					return (regex_refuse(p, n, litoff, i, 2,
					    "a back-reference"));
				break;
			case 'K': case 'G': case 'Q': case 'E': case 'R':
			case 'X': case 'C':
				if (!inclass || s[i + 1] == 'Q' ||
				    s[i + 1] == 'E')
					return (regex_refuse(p, n, litoff, i, 2,
					    s[i + 1] == 'K' ? "\\K" :
					    s[i + 1] == 'G' ? "\\G" :
					    s[i + 1] == 'Q' ? "\\Q" :
					    s[i + 1] == 'E' ? "\\E" :
					    s[i + 1] == 'R' ? "\\R" :
					    s[i + 1] == 'X' ? "\\X" : "\\C"));
				break;
			case 'v':
				buf_adds(out, "\\x0b");
				i++;
				continue;
			case 'p':
			case 'P':
				if (!(*opts & PCRE2_UTF))
					return (regex_needs_u(p, n, litoff, i,
					    2, "a Unicode class (\\p)"));
				break;
			default:
				break;
			}
			buf_addc(out, c);
			buf_addc(out, s[++i]);
			continue;
		}
		if (inclass) {
			if ((unsigned char)c >= 0x80 && !(*opts & PCRE2_UTF))
				return (regex_needs_u(p, n, litoff, i, 1,
				    "a non-ASCII character in a class"));
			if (c == ']')
				inclass = 0;
			else if (i + 1 < len && (c == '&' || c == '~' ||
			    (c == '-' && s[i + 1] == '-')) && s[i + 1] == c)
				return (regex_refuse(p, n, litoff, i, 2,
				    "a class set operation (&&, --, ~~)"));
			else if (c == '[' && i + 1 < len && s[i + 1] != ':')
				return (regex_refuse(p, n, litoff, i, 1,
				    "a nested class"));
		} else if (c == '[') {
			inclass = 1;
			buf_addc(out, c);
			/* A ']' or '^]' first in a class is literal. */
			if (i + 1 < len && s[i + 1] == '^')
				buf_addc(out, s[++i]);
			if (i + 1 < len && s[i + 1] == ']')
				buf_addc(out, s[++i]);
			continue;
		} else if (c == '(' && i + 2 < len && s[i + 1] == '?') {
			g = s[i + 2];
			if (g == '=' || g == '!' || (g == '<' && i + 3 < len &&
			    (s[i + 3] == '=' || s[i + 3] == '!')))
				return (regex_refuse(p, n, litoff, i, 3,
				    "look-around"));
			if (g == '>')
				return (regex_refuse(p, n, litoff, i, 3,
				    "an atomic group"));
			if (g == '(' || g == 'R' || g == 'C' || g == '&' ||
			    g == '+' || g == '|' || isdigit((unsigned char)g) ||
			    (g == 'P' && i + 3 < len && (s[i + 3] == '=' ||
			    s[i + 3] == '>')))
				return (regex_refuse(p, n, litoff, i, 3,
				    "this group kind"));
			if (g == 'u')
				return (regex_refuse(p, n, litoff, i, 4,
				    "(?u) other than at the start"));
		} else if ((c == '+' || c == '*' || c == '?' || c == '}') &&
		    i + 1 < len && s[i + 1] == '+') {
			return (regex_refuse(p, n, litoff, i, 2,
			    "a possessive quantifier"));
		} else if (c == '(' && i + 1 < len && s[i + 1] == '*') {
			return (regex_refuse(p, n, litoff, i, 2,
			    "a (*VERB)"));
		}
		buf_addc(out, c);
	}
	return (0);
}

int
expr_compile_regex(struct parser *p, struct expr_node *n, size_t litoff)
{
	const struct expr_lit	*l = &n->rhs.lit;
	struct buf		 pat = BUF_INITIALIZER;
	uint32_t		 opts = PCRE2_DOLLAR_ENDONLY |
				     PCRE2_NEVER_BACKSLASH_C, cap = 0;
	pcre2_compile_context	*cctx;
	pcre2_code		*re;
	PCRE2_SIZE		 erroff;
	int			 errcode, c0;
	PCRE2_UCHAR		 msg[160];

	if (regex_rewrite(p, n, litoff, &pat, &opts) != 0) {
		buf_free(&pat);
		return (-1);
	}
	cctx = pcre2_compile_context_create(NULL);
	if (cctx == NULL) {
		buf_free(&pat);
		expr_lex_error(&p->lx, litoff, 1, "out of memory");
		return (-1);
	}
	/* Patterns are at most 4096 bytes: keep nesting sane too. */
	pcre2_set_parens_nest_limit(cctx, 250);
	re = pcre2_compile((PCRE2_SPTR)(pat.data != NULL ? pat.data : ""),
	    pat.len, opts, &errcode, &erroff, cctx);
	pcre2_compile_context_free(cctx);
	buf_free(&pat);
	if (re == NULL) {
		pcre2_get_error_message(errcode, msg, sizeof msg);
		if (erroff > l->len)
			erroff = l->len;
		c0 = expr_lex_lit_col(&p->lx, l, 1, litoff, erroff);
		expr_lex_error(&p->lx, expr_parser_col_off(p, c0), 1,
		    "invalid regex: %s", (char *)msg);
		return (-1);
	}
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &cap);
	if (cap + 1 > p->e->max_ovector)
		p->e->max_ovector = cap + 1;
	n->rhs.re = re;
	p->res = xreallocarray(p->res, p->nres + 1, sizeof *p->res);
	p->res[p->nres++] = re;
	return (0);
}
