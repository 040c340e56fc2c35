/*
 * The Rules language's lexer: scanning primitives the parser calls with
 * what it expects next (api-map-next 12.1), and the arena compiled
 * expressions live in.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "encode.h"
#include "expr_int.h"
#include "text.h"
#include "xmalloc.h"

/* ---- arena -------------------------------------------------------------- */

#define ARENA_CHUNK	8192

struct expr_arena_chunk {
	struct expr_arena_chunk	*next;
	size_t			 size, used;
	max_align_t		 data[];
};

struct expr_arena {
	struct expr_arena_chunk	*head;
};

struct expr_arena *
expr_arena_new(void)
{
	return (xcalloc(1, sizeof (struct expr_arena)));
}

void
expr_arena_free(struct expr_arena *a)
{
	struct expr_arena_chunk	*c, *next;

	if (a == NULL)
		return;
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *
expr_arena_alloc(struct expr_arena *a, size_t size)
{
	struct expr_arena_chunk	*c = a->head;
	size_t			 align = sizeof (max_align_t), want;
	void			*p;

	size = (size + align - 1) / align * align;
	if (size == 0)
		size = align;
	if (c == NULL || c->size - c->used < size) {
		want = MAXIMUM(size, (size_t)ARENA_CHUNK);
		c = xmalloc(sizeof *c + want);
		c->size = want;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return (p);
}

char *
expr_arena_strndup(struct expr_arena *a, const char *s, size_t n)
{
	char	*p = expr_arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

/* ---- positions and errors ------------------------------------------------ */

void
expr_lex_init(struct expr_lex *lx, const char *s, size_t n,
    struct expr_error *err, struct expr_arena *arena)
{
	size_t	i;
	int	col;

	memset(lx, 0, sizeof *lx);
	lx->s = s;
	lx->n = n;
	lx->err = err;
	lx->arena = arena;
	lx->cols = xcalloc(n + 1, sizeof *lx->cols);
	col = 0;
	for (i = 0; i < n; i++) {
		/* A UTF-8 continuation byte belongs to the character before. */
		if (((unsigned char)s[i] & 0xc0) != 0x80 || col == 0)
			col++;
		lx->cols[i] = col;
	}
	lx->cols[n] = col + 1;
}

void
expr_lex_done(struct expr_lex *lx)
{
	free(lx->cols);
	lx->cols = NULL;
}

int
expr_lex_col(const struct expr_lex *lx, size_t off)
{
	if (off > lx->n)
		off = lx->n;
	return (lx->cols[off]);
}

/* A message cut to fit may end inside a UTF-8 character: drop it. */
static void
utf8_trim(char *s)
{
	size_t		 n = strlen(s), i = n, want;
	unsigned char	 c;

	while (i > 0 && n - i < 4 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0)
		return;
	c = (unsigned char)s[i - 1];
	if (c < 0xc0)
		return;
	want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (n - (i - 1) < want)
		s[i - 1] = '\0';
}

void
expr_lex_error(struct expr_lex *lx, size_t off, size_t len, const char *fmt,
    ...)
{
	va_list	ap;
	int	c0, c1;

	if (lx->failed)
		return;
	lx->failed = 1;
	if (lx->err == NULL)
		return;
	if (off > lx->n)
		off = lx->n;
	if (off + len > lx->n)
		len = lx->n - off;
	c0 = expr_lex_col(lx, off);
	c1 = expr_lex_col(lx, off + len);
	lx->err->column = c0;
	lx->err->length = c1 > c0 ? c1 - c0 : 1;
	va_start(ap, fmt);
	vsnprintf(lx->err->message, sizeof lx->err->message, fmt, ap);
	va_end(ap);
	utf8_trim(lx->err->message);
}

/* ---- characters -------------------------------------------------------- */

static int
ident_char(int c)
{
	return (isascii(c) && (isalnum(c) || c == '_'));
}

int
expr_lex_ws(struct expr_lex *lx)
{
	while (lx->pos < lx->n) {
		switch (lx->s[lx->pos]) {
		case ' ':
		case '\r':
		case '\n':
			lx->pos++;
			continue;
		case '\t':
			expr_lex_error(lx, lx->pos, 1,
			    "a tab is not allowed: separate with spaces");
			return (-1);
		}
		break;
	}
	return (0);
}

int
expr_lex_peek(const struct expr_lex *lx)
{
	return (lx->pos < lx->n ? (unsigned char)lx->s[lx->pos] : -1);
}

int
expr_lex_peek2(const struct expr_lex *lx)
{
	return (lx->pos + 1 < lx->n ? (unsigned char)lx->s[lx->pos + 1] : -1);
}

int
expr_lex_eof(const struct expr_lex *lx)
{
	return (lx->pos >= lx->n);
}

size_t
expr_lex_word_len(const struct expr_lex *lx, int dots)
{
	size_t	i = lx->pos;

	while (i < lx->n && (ident_char((unsigned char)lx->s[i]) ||
	    (dots && lx->s[i] == '.')))
		i++;
	return (i - lx->pos);
}

int
expr_lex_is_word(const struct expr_lex *lx, const char *w)
{
	size_t	len = strlen(w);

	if (lx->n - lx->pos < len || memcmp(lx->s + lx->pos, w, len) != 0)
		return (0);
	return (lx->pos + len == lx->n ||
	    !ident_char((unsigned char)lx->s[lx->pos + len]));
}

/* ---- strings ----------------------------------------------------------- */

int
expr_lex_at_string(const struct expr_lex *lx)
{
	int	c = expr_lex_peek(lx), c2 = expr_lex_peek2(lx);

	return (c == '"' || (c == 'r' && (c2 == '"' || c2 == '#')));
}

static int
octal(int c)
{
	return (c >= '0' && c <= '7');
}

/*
 * Decode the quoted string whose opening quote is at off. With out NULL
 * it only measures: *map_src receives the source offset of decoded byte
 * map_at. Returns the offset after the closing quote, or 0 with the error
 * recorded.
 */
static size_t
decode_quoted(struct expr_lex *lx, size_t off, int regex, struct buf *out,
    size_t map_at, size_t *map_src)
{
	const char	*s = lx->s;
	size_t		 i = off + 1, nout = 0;
	int		 inclass = 0, h1, h2;
	char		 c;

#define EMIT(ch, src) do {						\
	if (map_src != NULL && nout == map_at)				\
		*map_src = (src);					\
	if (out != NULL)						\
		buf_addc(out, (ch));					\
	nout++;								\
} while (0)

	for (;;) {
		if (i >= lx->n) {
			expr_lex_error(lx, off, 1,
			    "unterminated string: a closing '\"' is missing");
			return (0);
		}
		c = s[i];
		if (c == '"')
			break;
		if (c != '\\') {
			if (regex) {
				if (c == '[' && !inclass)
					inclass = 1;
				else if (c == ']' && inclass)
					inclass = 0;
			}
			EMIT(c, i);
			i++;
			continue;
		}
		if (i + 1 >= lx->n) {
			expr_lex_error(lx, off, 1,
			    "unterminated string: a closing '\"' is missing");
			return (0);
		}
		if (regex) {
			/* Backslashes pass through to the regex; only \"
			 * outside a class loses its backslash. */
			if (s[i + 1] == '"' && !inclass) {
				EMIT('"', i);
			} else {
				EMIT('\\', i);
				EMIT(s[i + 1], i + 1);
			}
			i += 2;
			continue;
		}
		switch (s[i + 1]) {
		case '"':
		case '\\':
			EMIT(s[i + 1], i);
			i += 2;
			break;
		case 'x':
			h1 = i + 2 < lx->n ? encode_hexval((unsigned char)s[i + 2]) : -1;
			h2 = i + 3 < lx->n ? encode_hexval((unsigned char)s[i + 3]) : -1;
			if (h1 < 0 || h2 < 0) {
				expr_lex_error(lx, i, 2, "'\\x' needs two hex "
				    "digits (\\x41)");
				return (0);
			}
			EMIT((char)(h1 * 16 + h2), i);
			i += 4;
			break;
		default:
			if (i + 3 < lx->n && octal(s[i + 1]) &&
			    octal(s[i + 2]) && octal(s[i + 3]) &&
			    s[i + 1] <= '3') {
				EMIT((char)((s[i + 1] - '0') * 64 +
				    (s[i + 2] - '0') * 8 + (s[i + 3] - '0')),
				    i);
				i += 4;
				break;
			}
			if (octal(s[i + 1])) {
				expr_lex_error(lx, i, 2, "an octal escape is "
				    "three digits from \\000 to \\377");
				return (0);
			}
			expr_lex_error(lx, i, 2, "unknown escape '\\%c' in a "
			    "string: the escapes are \\\" \\\\ \\xHH \\NNN "
			    "(or write a raw string r\"...\")",
			    isprint((unsigned char)s[i + 1]) ? s[i + 1] : '?');
			return (0);
		}
	}
#undef EMIT
	if (map_src != NULL && nout == map_at)
		*map_src = i;
	return (i + 1);
}

/* A raw string r"..." or r#"..."# at off: bytes [*b, *e), returns the
 * offset after it or 0. */
static size_t
scan_raw(struct expr_lex *lx, size_t off, size_t *b, size_t *e)
{
	size_t	i = off + 1, hashes = 0, j;

	while (i < lx->n && lx->s[i] == '#') {
		hashes++;
		i++;
	}
	if (hashes > 255) {
		expr_lex_error(lx, off, i - off,
		    "a raw string takes at most 255 '#'");
		return (0);
	}
	if (i >= lx->n || lx->s[i] != '"') {
		expr_lex_error(lx, off, i - off,
		    "expected '\"' to open the raw string");
		return (0);
	}
	*b = ++i;
	for (; i < lx->n; i++) {
		if (lx->s[i] != '"' || lx->n - i - 1 < hashes)
			continue;
		for (j = 0; j < hashes; j++)
			if (lx->s[i + 1 + j] != '#')
				break;
		if (j == hashes) {
			*e = i;
			return (i + 1 + hashes);
		}
	}
	expr_lex_error(lx, off, 1, "unterminated raw string: expected '\"%.*s'",
	    (int)hashes, "################################");
	return (0);
}

/*
 * The string's text [off, end) as written: UTF-8, as the API takes it
 * (the body of a rule holding other bytes is refused); \xHH writes a byte
 * of any value. 0, or -1 with the error at the first bad byte.
 */
static int
string_utf8(struct expr_lex *lx, size_t off, size_t end)
{
	uint32_t	cp;
	size_t		i, len;

	for (i = off; i < end; i += len)
		if ((len = text_utf8_decode(lx->s + i, end - i, &cp)) == 0) {
			expr_lex_error(lx, i, 1, "a string holds the byte "
			    "\\x%02x, which is not UTF-8 text as the API "
			    "takes it (write \\x%02x for that byte)",
			    (unsigned char)lx->s[i], (unsigned char)lx->s[i]);
			return (-1);
		}
	return (0);
}

int
expr_lex_string(struct expr_lex *lx, int regex, struct expr_lit *lit)
{
	struct buf	 b = BUF_INITIALIZER;
	size_t		 off = lx->pos, end, rb, re;

	memset(lit, 0, sizeof *lit);
	lit->kind = EXPR_LIT_STRING;
	if (expr_lex_peek(lx) == 'r') {
		if ((end = scan_raw(lx, off, &rb, &re)) == 0)
			return (-1);
		lit->s = expr_arena_strndup(lx->arena, lx->s + rb, re - rb);
		lit->len = re - rb;
		lit->raw = (int)(rb - off - 1);	/* '#' count + 1 */
	} else {
		if ((end = decode_quoted(lx, off, regex, &b, 0, NULL)) == 0) {
			buf_free(&b);
			return (-1);
		}
		lit->s = expr_arena_strndup(lx->arena, b.data != NULL ?
		    b.data : "", b.len);
		lit->len = b.len;
		buf_free(&b);
	}
	if (string_utf8(lx, off, end) != 0)
		return (-1);
	lit->column = expr_lex_col(lx, off);
	lit->length = expr_lex_col(lx, end) - lit->column;
	lx->str_start = off;
	lx->str_end = end;
	lx->pos = end;
	return (0);
}

int
expr_lex_hexbytes(struct expr_lex *lx, struct expr_lit *lit)
{
	char	 out[EXPR_MAX_LENGTH];
	size_t	 i = lx->pos, n = 0;
	int	 h1, h2;

	for (;;) {
		h1 = i < lx->n ? encode_hexval((unsigned char)lx->s[i]) : -1;
		h2 = i + 1 < lx->n ? encode_hexval((unsigned char)lx->s[i + 1]) : -1;
		if (h1 < 0 || h2 < 0)
			return (0);
		out[n++] = (char)(h1 * 16 + h2);
		i += 2;
		if (i < lx->n && (lx->s[i] == ':' || lx->s[i] == '-' ||
		    lx->s[i] == '.') && n < sizeof out) {
			i++;
			continue;
		}
		break;
	}
	if (n < 2 || (i < lx->n && ident_char((unsigned char)lx->s[i])))
		return (0);
	memset(lit, 0, sizeof *lit);
	lit->kind = EXPR_LIT_STRING;
	lit->s = expr_arena_strndup(lx->arena, out, n);
	lit->len = n;
	lit->column = expr_lex_col(lx, lx->pos);
	lit->length = expr_lex_col(lx, i) - lit->column;
	lx->pos = i;
	return (1);
}

int
expr_lex_lit_col(const struct expr_lex *lx, const struct expr_lit *lit,
    int regex, size_t start_off, size_t decoded_off)
{
	struct expr_lex	 tmp = *lx;
	size_t		 src = start_off, rb, re;

	tmp.err = NULL;
	if (lit->raw) {
		if (scan_raw(&tmp, start_off, &rb, &re) != 0)
			src = rb + decoded_off;
	} else
		decode_quoted(&tmp, start_off, regex, NULL, decoded_off, &src);
	return (expr_lex_col(lx, src));
}

/* ---- numbers and addresses --------------------------------------------- */

int
expr_lex_int(struct expr_lex *lx, int64_t *v)
{
	size_t		 off = lx->pos, i = off, d0;
	int		 neg = 0, base = 10, dv;
	uint64_t	 acc = 0, lim;

	if (i < lx->n && lx->s[i] == '-') {
		neg = 1;
		i++;
	}
	if (i >= lx->n || !isdigit((unsigned char)lx->s[i])) {
		expr_lex_error(lx, off, 1, "expected an integer");
		return (-1);
	}
	if (lx->s[i] == '0' && i + 1 < lx->n &&
	    (lx->s[i + 1] == 'x' || lx->s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (lx->s[i] == '0' && i + 1 < lx->n &&
	    isdigit((unsigned char)lx->s[i + 1])) {
		base = 8;
		i++;
	}
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	d0 = i;
	while (i < lx->n && ident_char((unsigned char)lx->s[i])) {
		dv = encode_hexval((unsigned char)lx->s[i]);
		if (dv < 0 || dv >= base) {
			while (i < lx->n && ident_char((unsigned char)lx->s[i]))
				i++;
			expr_lex_error(lx, off, i - off, "'%.*s' is not an "
			    "integer%s", (int)(i - off), lx->s + off,
			    base == 8 ? " (a leading 0 means octal)" : "");
			return (-1);
		}
		if (acc > (lim - (uint64_t)dv) / (uint64_t)base) {
			while (i < lx->n && ident_char((unsigned char)lx->s[i]))
				i++;
			expr_lex_error(lx, off, i - off,
			    "integer out of range (64-bit signed)");
			return (-1);
		}
		acc = acc * (uint64_t)base + (uint64_t)dv;
		i++;
	}
	if (i == d0) {
		expr_lex_error(lx, off, i - off, "'0x' needs hex digits");
		return (-1);
	}
	if (neg)
		*v = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
		    -(int64_t)acc;
	else
		*v = (int64_t)acc;
	lx->pos = i;
	return (0);
}

static int
ip_char(int c)
{
	return (c == ':' || c == '.' || (isascii(c) && isxdigit(c)));
}

static int
parse_addr(const char *s, size_t n, struct expr_ip *ip)
{
	char	tmp[64];

	if (n == 0 || n >= sizeof tmp)
		return (-1);
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	memset(ip, 0, sizeof *ip);
	if (memchr(tmp, ':', n) == NULL) {
		ip->family = 4;
		return (inet_pton(AF_INET, tmp, ip->bytes) == 1 ? 0 : -1);
	}
	ip->family = 6;
	return (inet_pton(AF_INET6, tmp, ip->bytes) == 1 ? 0 : -1);
}

int
expr_lex_ip(struct expr_lex *lx, int allow_net, struct expr_lit *lit)
{
	size_t	 off = lx->pos, i = off, e, dd = 0, k, p0;
	int	 prefix, max;
	int64_t	 pv;

	memset(lit, 0, sizeof *lit);
	while (i < lx->n && ip_char((unsigned char)lx->s[i]))
		i++;
	e = i;
	for (k = off; k + 1 < e; k++)
		if (lx->s[k] == '.' && lx->s[k + 1] == '.') {
			dd = k;
			break;
		}
	if (i < lx->n && ident_char((unsigned char)lx->s[i])) {
		while (i < lx->n && (ident_char((unsigned char)lx->s[i]) ||
		    lx->s[i] == '.' || lx->s[i] == ':'))
			i++;
		expr_lex_error(lx, off, i - off, "'%.*s' is not an IP "
		    "address", (int)(i - off), lx->s + off);
		return (-1);
	}
	if (dd != 0) {
		lit->kind = EXPR_LIT_IP_RANGE;
		if (parse_addr(lx->s + off, dd - off, &lit->ip) != 0 ||
		    parse_addr(lx->s + dd + 2, e - dd - 2, &lit->ip_hi) != 0) {
			expr_lex_error(lx, off, e - off, "'%.*s' is not an IP "
			    "range (a..b)", (int)(e - off), lx->s + off);
			return (-1);
		}
		if (lit->ip.family != lit->ip_hi.family) {
			expr_lex_error(lx, off, e - off, "both ends of an IP "
			    "range must be IPv4 or both IPv6");
			return (-1);
		}
		if (memcmp(lit->ip.bytes, lit->ip_hi.bytes, 16) > 0) {
			expr_lex_error(lx, off, e - off, "the IP range's first "
			    "address is above its last");
			return (-1);
		}
	} else {
		lit->kind = EXPR_LIT_IP;
		if (parse_addr(lx->s + off, e - off, &lit->ip) != 0) {
			expr_lex_error(lx, off, MAXIMUM(e - off, 1),
			    e == off ? "expected an IP address" :
			    "'%.*s' is not an IP address", (int)(e - off),
			    lx->s + off);
			return (-1);
		}
		if (e < lx->n && lx->s[e] == '/') {
			lx->pos = e + 1;
			p0 = lx->pos;
			if (!isdigit(expr_lex_peek(lx)) ||
			    expr_lex_int(lx, &pv) != 0) {
				lx->failed = 0;
				expr_lex_error(lx, off, lx->pos - off + 1,
				    "expected a prefix length after '/'");
				return (-1);
			}
			max = lit->ip.family == 4 ? 32 : 128;
			if (pv < 0 || pv > max) {
				expr_lex_error(lx, p0, lx->pos - p0, "a prefix "
				    "length is 0 to %d for IPv%d", max,
				    lit->ip.family);
				return (-1);
			}
			prefix = (int)pv;
			lit->kind = EXPR_LIT_IP_CIDR;
			lit->prefix = prefix;
			e = lx->pos;
		}
	}
	if (!allow_net && lit->kind != EXPR_LIT_IP) {
		expr_lex_error(lx, off, e - off, "%s is only allowed inside a "
		    "set: write 'in {%.*s}'", lit->kind == EXPR_LIT_IP_CIDR ?
		    "a CIDR" : "an IP range", (int)(e - off), lx->s + off);
		return (-1);
	}
	lit->column = expr_lex_col(lx, off);
	lit->length = expr_lex_col(lx, e) - lit->column;
	lx->pos = e;
	return (0);
}
