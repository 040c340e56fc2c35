/*
 * Server text made safe for a terminal (cells, titles, messages), its
 * width in columns, and the case-insensitive search the list filter runs
 * over every row on each keystroke.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "text.h"
#include "xmalloc.h"

#define TEXT_BAD	((uint32_t)-1)

size_t
text_utf8_decode(const char *p, size_t n, uint32_t *cp)
{
	const unsigned char	*s = (const unsigned char *)p;
	size_t			 len, i;
	uint32_t		 c;

	if (n == 0)
		return (0);
	if (s[0] < 0x80) {
		*cp = s[0];
		return (1);
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return (0);
	if (len > n)
		return (0);
	c = s[0] & (0x7f >> len);
	/* Each byte is looked at before the next: a NUL ends the reading. */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return (0);
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return (0);
	*cp = c;
	return (len);
}

/*
 * The character at s: its length, and *cp its code point or TEXT_BAD for a
 * byte that starts no valid UTF-8, which is then one byte long.
 */
static size_t
text_decode(const unsigned char *s, uint32_t *cp)
{
	size_t	n;

	if ((n = text_utf8_decode((const char *)s, SIZE_MAX, cp)) == 0) {
		*cp = TEXT_BAD;
		return (1);
	}
	return (n);
}

/*
 * Whether a terminal may act on the character rather than show it: C0,
 * DEL and C1 controls (some terminals take U+009B as CSI), and the bidi
 * embeddings, overrides and isolates that reorder the rest of the line.
 */
static int
text_unsafe(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return (1);
	return ((cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069));
}

/*
 * Past the escape sequence at s (on its ESC): a CSI up to its final byte,
 * a string (OSC, DCS, SOS, PM, APC) up to BEL or ST, or ESC, intermediates
 * and a final byte. A sequence cut short ends where it stops making sense.
 */
static const unsigned char *
text_skip_esc(const unsigned char *s)
{
	switch (*++s) {
	case '\0':
		return (s);
	case '[':
		for (s++; *s >= 0x20 && *s <= 0x3f; s++)
			/* parameters and intermediates */;
		return (*s >= 0x40 && *s <= 0x7e ? s + 1 : s);
	case ']':
	case 'P':
	case 'X':
	case '^':
	case '_':
		for (s++; *s != '\0'; s++) {
			if (*s == 0x07)
				return (s + 1);
			if (*s == 0xc2 && s[1] == 0x9c)
				return (s + 2);
			if (*s == 0x1b)
				return (s[1] == '\\' ? s + 2 : s);
		}
		return (s);
	default:
		while (*s >= 0x20 && *s <= 0x2f)
			s++;
		return (*s >= 0x30 && *s <= 0x7e ? s + 1 : s);
	}
}

size_t
text_sanitize(const char *text, char *out, size_t size, int flags)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 o = 0, n;
	uint32_t		 cp;
	int			 space = 0;

	if (size == 0)
		return (0);
	while (*s != '\0') {
		n = text_decode(s, &cp);
		if (cp == 0x1b && (flags & TEXT_DROP_ESC)) {
			s = text_skip_esc(s);
			continue;
		}
		if ((cp == '\t' || cp == '\r' || cp == '\n') &&
		    (flags & TEXT_SPACE)) {
			s += n;
			if (space)
				continue;
			if (o + 1 >= size)
				break;
			out[o++] = ' ';
			space = 1;
			continue;
		}
		space = 0;
		if (cp == TEXT_BAD || text_unsafe(cp)) {
			if (o + 1 >= size)
				break;
			out[o++] = '?';
		} else {
			if (o + n >= size)
				break;
			memcpy(out + o, s, n);
			o += n;
		}
		s += n;
	}
	out[o] = '\0';
	return (o);
}

char *
text_clean(const char *s)
{
	size_t	 size = strlen(s) + 1;
	char	*out;

	/* Nothing grows: '?' and ' ' each stand for one byte or more. */
	out = xmalloc(size);
	text_sanitize(s, out, size, TEXT_DROP_ESC | TEXT_SPACE);
	return (out);
}

/* ---- width -------------------------------------------------------------- */

/*
 * The columns of the character at s and its length in *n. Characters are
 * UTF-8 whatever the locale, so a cut never splits one; their width is
 * the locale's wcwidth, and what has none (an invalid byte, a character
 * the locale does not know, a control) counts one column.
 */
static size_t
text_char_width(const char *s, size_t *n)
{
	uint32_t	cp;
	int		w;

	*n = text_decode((const unsigned char *)s, &cp);
	if (cp == TEXT_BAD)
		return (1);
	w = wcwidth((wchar_t)cp);
	return (w < 0 ? 1 : (size_t)w);
}

size_t
text_chars(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	}
	return (n);
}

size_t
text_width(const char *s)
{
	size_t	cols = 0, n;

	for (; *s != '\0'; s += n)
		cols += text_char_width(s, &n);
	return (cols);
}

size_t
text_cut(char *s, size_t cols)
{
	size_t	kept = 0, w, n;

	for (; *s != '\0'; s += n) {
		w = text_char_width(s, &n);
		if (kept + w > cols) {
			*s = '\0';
			break;
		}
		kept += w;
	}
	return (kept);
}

size_t
text_wrap(const char *s, size_t cols)
{
	const char	*p, *space = NULL;
	size_t		 kept = 0, w, n;

	for (p = s; *p != '\0'; p += n) {
		w = text_char_width(p, &n);
		if (kept + w > cols)
			break;
		if (*p == ' ')
			space = p;
		kept += w;
	}
	if (*p == '\0')
		return ((size_t)(p - s));
	/* Break after the last space that fits; a long word is cut. */
	if (space != NULL && space > s)
		return ((size_t)(space - s) + 1);
	if (p == s) {
		/* At least one character, however wide. */
		(void)text_char_width(p, &n);
		p += n;
	}
	return ((size_t)(p - s));
}

char *
text_ellipsize(const char *s, size_t cols, const char *ellipsis)
{
	char	*out;
	size_t	 ew = text_width(ellipsis), n;

	if (text_width(s) <= cols)
		return (xstrdup(s));
	out = xmalloc(strlen(s) + strlen(ellipsis) + 1);
	memcpy(out, s, strlen(s) + 1);
	if (cols <= ew) {
		text_cut(out, cols);
		return (out);
	}
	text_cut(out, cols - ew);
	/* "credential…", not "credential …" */
	for (n = strlen(out); n > 0 && out[n - 1] == ' '; n--)
		out[n - 1] = '\0';
	strcat(out, ellipsis);
	return (out);
}

char *
text_cell(const char *s, size_t cols, const char *ellipsis)
{
	char	*clean = text_clean(s), *cut, *cell;
	size_t	 w;

	cut = text_ellipsize(clean, cols, ellipsis != NULL ? ellipsis : "...");
	w = text_width(cut);
	cell = xprintf("%s%*s", cut, (int)(w < cols ? cols - w : 0), "");
	free(cut);
	free(clean);
	return (cell);
}

static inline unsigned char
text_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z' ? c | 0x20 : c);
}

static int
text_is_alpha(unsigned char c)
{
	return (text_lower(c) >= 'a' && text_lower(c) <= 'z');
}

/*
 * How often a byte turns up in list cells (hosts, paths, ids, times),
 * lower being rarer: letters by their frequency in English.
 */
static int
text_anchor_cost(unsigned char c)
{
	static const unsigned char	letters[26] = {
		23, 6, 14, 16, 25, 10, 9, 18, 21, 3, 4, 15, 12,
		20, 22, 7, 1, 17, 19, 24, 13, 5, 11, 2, 8, 0
	};

	if (text_is_alpha(c))
		return (letters[text_lower(c) - 'a']);
	if (c >= '0' && c <= '9')
		return (20);
	if (c == '/' || c == '.' || c == '-' || c == '_' || c == ' ' ||
	    c == ':' || c == ',')
		return (26);
	return (0);
}

static int
text_equal_nocase(const unsigned char *a, const unsigned char *b, size_t n)
{
	while (n-- > 0) {
		if (text_lower(*a++) != text_lower(*b++))
			return (0);
	}
	return (1);
}

#define TEXT_ONES	0x0101010101010101ULL
#define TEXT_HIGHS	0x8080808080808080ULL

/*
 * The first byte in [p, end) that is c, or with fold (c a lowercase
 * letter) c in either case, which differ by 0x20 only; the bytes from lo
 * on can be read. Sixteen bytes are tested at a time with SSE2 (the last
 * sixteen overlapping those before), else eight: a byte of x that
 * matches is a zero byte of v.
 */
static const unsigned char *
text_scan(const unsigned char *lo, const unsigned char *p,
    const unsigned char *end, unsigned char c, unsigned char fold)
{
	uint64_t	x, v, pat = TEXT_ONES * c, mask = TEXT_ONES * fold;
#ifdef __SSE2__
	__m128i		vpat = _mm_set1_epi8((char)c);
	__m128i		vmask = _mm_set1_epi8((char)fold);
	unsigned	m;

	if (end - lo >= 16) {
		while (end - p >= 16) {
			m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_or_si128(_mm_loadu_si128((const void *)p),
			    vmask), vpat));
			if (m != 0)
				return (p + __builtin_ctz(m));
			p += 16;
		}
		if (p == end)
			return (NULL);
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(
		    _mm_loadu_si128((const void *)(end - 16)), vmask), vpat));
		m &= ~0u << (p - (end - 16));
		return (m != 0 ? end - 16 + __builtin_ctz(m) : NULL);
	}
#else
	(void)lo;
#endif
	while (end - p >= 8) {
		memcpy(&x, p, sizeof x);
		v = (x | mask) ^ pat;
		if (((v - TEXT_ONES) & ~v & TEXT_HIGHS) != 0)
			break;
		p += 8;
	}
	for (; p < end; p++) {
		if ((*p | fold) == c)
			return (p);
	}
	return (NULL);
}

void
text_needle_init(struct text_needle *n, const char *s, size_t len)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i;

	n->s = s;
	n->len = len;
	n->anchor = 0;
	for (i = 1; i < len; i++) {
		if (text_anchor_cost(u[i]) < text_anchor_cost(u[n->anchor]))
			n->anchor = i;
	}
	n->c = len != 0 ? text_lower(u[n->anchor]) : 0;
	n->fold = text_is_alpha(n->c) ? 0x20 : 0;
}

/*
 * The search looks for the needle's rarest byte (in both cases for a
 * letter) and compares around each one found: far fewer steps than
 * comparing at every position.
 */
const char *
text_needle_find(const struct text_needle *n, const char *hay, size_t len)
{
	const unsigned char	*h = (const unsigned char *)hay;
	const unsigned char	*nd = (const unsigned char *)n->s;
	const unsigned char	*q, *end;
	size_t			 a = n->anchor;

	if (n->len == 0)
		return (hay);
	if (n->len > len)
		return (NULL);
	/* The anchor's byte lies in [h + a, end). */
	end = h + len - n->len + a + 1;
	for (q = h + a; (q = text_scan(h, q, end, n->c, n->fold)) != NULL;
	    q++) {
		if (text_equal_nocase(q - a, nd, n->len))
			return ((const char *)(q - a));
	}
	return (NULL);
}

const char *
text_find_nocase(const char *hay, size_t len, const char *needle,
    size_t nlen)
{
	struct text_needle	n;

	text_needle_init(&n, needle, nlen);
	return (text_needle_find(&n, hay, len));
}

int
text_contains_nocase(const char *hay, const char *needle)
{
	return (text_find_nocase(hay, strlen(hay), needle,
	    strlen(needle)) != NULL);
}

int
text_casecmp(const char *a, const char *b)
{
	const unsigned char	*s1 = (const unsigned char *)a;
	const unsigned char	*s2 = (const unsigned char *)b;
	unsigned char		 c1, c2;

	do {
		c1 = text_lower(*s1++);
		c2 = text_lower(*s2++);
	} while (c1 == c2 && c1 != '\0');
	return ((c1 > c2) - (c1 < c2));
}

int
text_quote_len(const char *s)
{
	size_t	i, n = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n++ == 64)
			break;
	}
	return ((int)i);
}
