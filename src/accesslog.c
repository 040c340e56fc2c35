/*
 * Access logs read as requests (accesslog.h). A Logpush line is scanned in
 * place: strings are decoded into the line itself (decoding only shrinks
 * them), the fields a rule can see are kept and everything else is skipped
 * with its structure checked, so a line costs one pass and no allocation.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "accesslog.h"
#include "civil.h"
#include "common.h"
#include "encode.h"
#include "logread.h"
#include "xmalloc.h"

#define ACCESSLOG_NS		1000000000LL

/*
 * The keys of the last line, in their order: Logpush writes the same
 * members in the same order line after line, so a key whose bytes are the
 * last line's at that place is known without scanning and looking it up.
 * Only keys without escapes are kept (their bytes are their name).
 */
#define ACCESSLOG_KEYS		32
#define ACCESSLOG_KEY_MAX	31

struct accesslog_keys {
	struct {
		uint8_t			 len;	/* 0: none */
		uint8_t			 field;	/* enum accesslog_field */
		char			 text[ACCESSLOG_KEY_MAX + 1];
	} k[ACCESSLOG_KEYS];
};

struct accesslog {
	char			*name;
	struct logread		*rd;
	char			*buf;		/* ACCESSLOG_LINE_MAX + 1 */
	size_t			 start;		/* unread data: buf[start..len) */
	size_t			 len;
	int			 eof;
	int			 skipping;	/* inside an over-long line */
	uint64_t		 lineno;
	uint64_t		 lines;
	uint64_t		 nbad;
	struct accesslog_bad	 bad[ACCESSLOG_BAD_KEPT];
	size_t			 nkept;
	struct accesslog_options opts;
	struct accesslog_record	 rec;
	struct accesslog_keys	 keys;
	char			 head[sizeof ((struct accesslog_bad *)0)->text];
	size_t			 hlen;		/* of the last line, in head */
	const char		*recline;	/* that of rec, as scanned */
	size_t			 reclen;
};

int
accesslog_format_parse(const char *s, enum accesslog_format *f)
{
	if (strcmp(s, "logpush") == 0)
		*f = ACCESSLOG_LOGPUSH;
	else if (strcmp(s, "combined") == 0)
		*f = ACCESSLOG_COMBINED;
	else
		return (-1);
	return (0);
}

/* ---- scanning a Logpush line ------------------------------------------- */

/* The Logpush fields a rule can see. */
enum accesslog_field {
	AF_IP, AF_HOST, AF_METHOD, AF_URI, AF_PATH, AF_SCHEME, AF_UA,
	AF_REFERER, AF_COUNTRY, AF_COLO, AF_VERSION, AF_JA3, AF_JA4,
	AF_STATUS, AF_ASN, AF_TIME, AF_HEADERS, AF_COOKIES,
	AF_NONE
};



struct accesslog_scan {
	char			*line;
	char			*p;
	char			*end;
	char			*why;
	size_t			 whylen;
	struct accesslog_keys	*keys;	/* may be NULL */
};

static int printflike(2, 3)
accesslog_fail(struct accesslog_scan *s, const char *fmt, ...)
{
	va_list	ap;
	char	msg[96];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(s->why, s->whylen, "%s at column %zu", msg,
	    (size_t)(s->p - s->line) + 1);
	return (-1);
}

/* Whitespace; the NUL after the line stops it (a line has one). */
static void
accesslog_ws(struct accesslog_scan *s)
{
	while ((unsigned char)*s->p <= ' ' && (*s->p == ' ' ||
	    *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
		s->p++;
}

static int
accesslog_hex4(const char *p, unsigned *v)
{
	unsigned	x = 0;
	int		i;

	for (i = 0; i < 4; i++) {
		x <<= 4;
		if (p[i] >= '0' && p[i] <= '9')
			x |= (unsigned)(p[i] - '0');
		else if (p[i] >= 'a' && p[i] <= 'f')
			x |= (unsigned)(p[i] - 'a' + 10);
		else if (p[i] >= 'A' && p[i] <= 'F')
			x |= (unsigned)(p[i] - 'A' + 10);
		else
			return (-1);
	}
	*v = x;
	return (0);
}

static char *
accesslog_utf8(char *o, unsigned cp)
{
	if (cp < 0x80)
		*o++ = (char)cp;
	else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return (o);
}

/* A \u escape at s->p (after the backslash and 'u') written at *o. */
static int
accesslog_unicode(struct accesslog_scan *s, char **o)
{
	unsigned	cp, lo;

	if (s->end - s->p < 5 || accesslog_hex4(s->p + 1, &cp) != 0)
		return (accesslog_fail(s, "%s", "a \\u escape without four "
		    "hex digits"));
	s->p += 5;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return (accesslog_fail(s, "%s", "a lone low surrogate"));
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u' ||
		    accesslog_hex4(s->p + 2, &lo) != 0 || lo < 0xdc00 ||
		    lo > 0xdfff)
			return (accesslog_fail(s, "%s", "a high surrogate "
			    "without its low half"));
		s->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return (accesslog_fail(s, "%s", "\\u0000 in a string"));
	*o = accesslog_utf8(*o, cp);
	return (0);
}

/*
 * Where the plain part of a string ends: the first quote, backslash or
 * control character, sixteen bytes at a time with SSE2 (every x86-64 has
 * it), else eight, while they last.
 */
static char *
accesslog_plain(char *p, const char *end)
{
	const uint64_t	ones = 0x0101010101010101ULL;
	const uint64_t	high = 0x8080808080808080ULL;
	uint64_t	v, q, b, m;
#if defined(__SSE2__)
	const __m128i	quote = _mm_set1_epi8('"');
	const __m128i	bslash = _mm_set1_epi8('\\');
	const __m128i	ctl = _mm_set1_epi8(0x1f);
	__m128i		x, hit;
	unsigned	bits;

	while (end - p >= 16) {
		x = _mm_loadu_si128((const __m128i *)(const void *)p);
		/* A control byte is one that max(x, 0x1f) leaves at 0x1f. */
		hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote),
		    _mm_cmpeq_epi8(x, bslash)),
		    _mm_cmpeq_epi8(_mm_max_epu8(x, ctl), ctl));
		if ((bits = (unsigned)_mm_movemask_epi8(hit)) != 0)
			return (p + __builtin_ctz(bits));
		p += 16;
	}
#endif

	while (end - p >= 8) {
		memcpy(&v, p, 8);
		q = v ^ (ones * '"');
		b = v ^ (ones * '\\');
		m = (((q - ones) & ~q) | ((b - ones) & ~b) |
		    ((v - ones * 0x20) & ~v)) & high;
		if (m != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* The lowest flag is exact: borrows only go up. */
			return (p + (__builtin_ctzll(m) >> 3));
#else
			break;
#endif
		}
		p += 8;
	}
	while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
		p++;
	return (p);
}

/*
 * The string at s->p (its opening quote), decoded in place and
 * NUL-terminated; *out is its start, *lenp (may be NULL) its length.
 */
static int
accesslog_string_len(struct accesslog_scan *s, char **out, size_t *lenp)
{
	char	*o, c;

	*out = ++s->p;
	s->p = accesslog_plain(s->p, s->end);
	o = s->p;
	for (;;) {
		if (s->p >= s->end)
			return (accesslog_fail(s, "%s", "an unterminated "
			    "string"));
		c = *s->p;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20)
			return (accesslog_fail(s, "%s", "a control character "
			    "in a string"));
		if (c != '\\') {
			*o++ = c;
			s->p++;
			continue;
		}
		if (++s->p >= s->end)
			return (accesslog_fail(s, "%s", "an unterminated "
			    "string"));
		switch (*s->p) {
		case '"':	*o++ = '"'; break;
		case '\\':	*o++ = '\\'; break;
		case '/':	*o++ = '/'; break;
		case 'b':	*o++ = '\b'; break;
		case 'f':	*o++ = '\f'; break;
		case 'n':	*o++ = '\n'; break;
		case 'r':	*o++ = '\r'; break;
		case 't':	*o++ = '\t'; break;
		case 'u':
			if (accesslog_unicode(s, &o) != 0)
				return (-1);
			continue;
		default:
			return (accesslog_fail(s, "%s", "an unknown escape in "
			    "a string"));
		}
		s->p++;
	}
	s->p++;
	*o = '\0';
	if (lenp != NULL)
		*lenp = (size_t)(o - *out);
	return (0);
}

static int
accesslog_string(struct accesslog_scan *s, char **out)
{
	return (accesslog_string_len(s, out, NULL));
}

/* A number, true, false or null: its characters, checked loosely. */
static int
accesslog_scalar(struct accesslog_scan *s)
{
	const char	*start = s->p;

	while (s->p < s->end && ((*s->p >= '0' && *s->p <= '9') ||
	    (*s->p >= 'a' && *s->p <= 'z') || *s->p == '-' || *s->p == '+' ||
	    *s->p == '.' || *s->p == 'E'))
		s->p++;
	if (s->p == start)
		return (accesslog_fail(s, "%s", "no JSON value"));
	return (0);
}

/* Any value, skipped: nested objects and arrays by their brackets. */
static int
accesslog_skip(struct accesslog_scan *s)
{
	char	*str, open[64];
	size_t	 depth = 0;

	do {
		accesslog_ws(s);
		if (s->p >= s->end)
			return (accesslog_fail(s, "%s", "a line that ends "
			    "inside a value"));
		switch (*s->p) {
		case '"':
			if (accesslog_string(s, &str) != 0)
				return (-1);
			break;
		case '{':
		case '[':
			if (depth == sizeof open)
				return (accesslog_fail(s, "%s", "values nested "
				    "too deep"));
			open[depth++] = *s->p == '{' ? '}' : ']';
			s->p++;
			break;
		case '}':
		case ']':
			if (depth == 0 || open[depth - 1] != *s->p)
				return (accesslog_fail(s, "%s", "a bracket "
				    "that does not match"));
			depth--;
			s->p++;
			break;
		case ',':
		case ':':
			if (depth == 0)
				return (accesslog_fail(s, "%s", "no JSON "
				    "value"));
			s->p++;
			break;
		default:
			if (accesslog_scalar(s) != 0)
				return (-1);
			break;
		}
	} while (depth > 0);
	return (0);
}

static int
accesslog_is_null(struct accesslog_scan *s)
{
	if (s->end - s->p >= 4 && memcmp(s->p, "null", 4) == 0) {
		s->p += 4;
		return (1);
	}
	return (0);
}

/* A string field (null: absent). */
static int
accesslog_text(struct accesslog_scan *s, const char *name, const char **out)
{
	char	*v;

	if (accesslog_is_null(s)) {
		*out = NULL;
		return (0);
	}
	if (*s->p != '"')
		return (accesslog_fail(s, "%s is not a string", name));
	if (accesslog_string(s, &v) != 0)
		return (-1);
	*out = v;
	return (0);
}

/* Digits of a non-negative integer at *pp; -1 when none or too many. */
static int
accesslog_digits(const char **pp, const char *end, int64_t *v)
{
	const char	*p = *pp;
	int64_t		 x = 0;

	if (p >= end || *p < '0' || *p > '9')
		return (-1);
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (x > (INT64_MAX - 9) / 10)
			return (-1);
		x = x * 10 + (*p - '0');
	}
	*v = x;
	*pp = p;
	return (0);
}

/* At most so many digits in a JSON number we read, and places the
 * exponent may move its point: far more than any time or count needs. */
#define ACCESSLOG_NUM_DIGITS	64
#define ACCESSLOG_NUM_SIZE	(4 * ACCESSLOG_NUM_DIGITS + 8)

/*
 * The digits of [i0, i1) and [f0, f1) (the whole part and the fraction)
 * with the point point places from their start, written plainly in out
 * (ACCESSLOG_NUM_SIZE bytes): "-"? whole ("." fraction)?, the whole part
 * without leading zeros.
 */
static void
accesslog_shift(int neg, const char *i0, const char *i1, const char *f0,
    const char *f1, long point, char *out, const char **d, const char **dend)
{
	char	digits[2 * ACCESSLOG_NUM_DIGITS], *o = out;
	size_t	n, k = 0;

	n = (size_t)(i1 - i0);
	memcpy(digits, i0, n);
	memcpy(digits + n, f0, (size_t)(f1 - f0));
	n += (size_t)(f1 - f0);
	/* The whole part's leading zeros, and the point moved with them. */
	while (k < n && (long)k < point - 1 && digits[k] == '0')
		k++;
	if (neg)
		*o++ = '-';
	if (point <= 0) {
		*o++ = '0';
		*o++ = '.';
		for (; point < 0; point++)
			*o++ = '0';
	}
	for (; k < n || (long)k < point; k++) {
		if ((long)k == point && point > 0 && k < n)
			*o++ = '.';
		if (k < n)
			*o++ = digits[k];
		else
			*o++ = '0';
	}
	*d = out;
	*dend = o;
}

/*
 * A JSON number (RFC 8259) at s->p, consumed, as plain decimal text
 * [*d, *dend), its exponent applied (1.7e12 is 1700000000000): its own
 * text when it has none, else written in out (ACCESSLOG_NUM_SIZE bytes).
 * -1 when it is no JSON number, -2 when it has too many digits or too
 * large an exponent for a time or a count.
 */
static int
accesslog_number(struct accesslog_scan *s, char *out, const char **d,
    const char **dend)
{
	const char	*p = s->p, *end = s->end, *i0, *i1, *f0, *f1;
	long		 exp = 0;
	int		 neg = 0, eneg = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	i0 = p;
	if (p < end && *p == '0')
		p++;
	else
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	if ((i1 = f0 = f1 = p) == i0)
		return (-1);
	if (p < end && *p == '.') {
		for (f0 = f1 = ++p; f1 < end && *f1 >= '0' && *f1 <= '9'; f1++)
			continue;
		if (f1 == f0)
			return (-1);
		p = f1;
	}
	if (p >= end || (*p != 'e' && *p != 'E')) {
		*d = s->p;
		*dend = s->p = (char *)p;
		return (0);
	}
	if (++p < end && (*p == '+' || *p == '-'))
		eneg = *p++ == '-';
	if (p >= end || *p < '0' || *p > '9')
		return (-1);
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if (exp <= ACCESSLOG_NUM_DIGITS)
			exp = exp * 10 + (*p - '0');
	s->p = (char *)p;
	if (i1 - i0 > ACCESSLOG_NUM_DIGITS || f1 - f0 > ACCESSLOG_NUM_DIGITS ||
	    exp > ACCESSLOG_NUM_DIGITS)
		return (-2);
	accesslog_shift(neg, i0, i1, f0, f1, (long)(i1 - i0) + (eneg ? -exp :
	    exp), out, d, dend);
	return (0);
}

/* An integer field: a JSON number or a string of digits. */
static int
accesslog_int(struct accesslog_scan *s, const char *name, int64_t *out)
{
	const char	*p, *d, *dend, *start;
	char		*str, num[ACCESSLOG_NUM_SIZE];
	int		 rv;

	if (accesslog_is_null(s))
		return (0);
	if (*s->p == '"') {
		if (accesslog_string(s, &str) != 0)
			return (-1);
		p = str;
		if (accesslog_digits(&p, str + strlen(str), out) != 0 ||
		    *p != '\0')
			return (accesslog_fail(s, "%s is not a whole number",
			    name));
		return (0);
	}
	/* 4.04e2 and 404.0 are whole numbers too, as JSON writes them. */
	start = s->p;
	if ((rv = accesslog_number(s, num, &d, &dend)) == -1)
		return (accesslog_fail(s, "%s is not a JSON number", name));
	p = d;
	if (rv == 0 && accesslog_digits(&p, dend, out) == 0 && p < dend &&
	    *p == '.')
		for (p++; p < dend && *p == '0'; p++)
			continue;
	if (rv == 0 && p == dend)
		return (0);
	s->p = (char *)start;
	if (rv != 0 || p == d)
		return (accesslog_fail(s, "%s is negative or too large", name));
	return (accesslog_fail(s, "%s is not a whole number", name));
}

/*
 * Seconds, milliseconds, microseconds or nanoseconds since the epoch,
 * told apart by size (each covers today for centuries), with an optional
 * fraction; into nanoseconds.
 */
static int
accesslog_epoch(const char *p, const char *end, int64_t *ns)
{
	int64_t	 whole, scale, frac = 0, fscale;
	int	 digits = 0;

	if (accesslog_digits(&p, end, &whole) != 0)
		return (-1);
	if (whole < 10000000000LL)
		scale = ACCESSLOG_NS;
	else if (whole < 10000000000000LL)
		scale = 1000000;
	else if (whole < 10000000000000000LL)
		scale = 1000;
	else
		scale = 1;
	if (p < end && *p == '.') {
		for (p++, fscale = scale; p < end && *p >= '0' && *p <= '9';
		    p++, digits++) {
			if (fscale >= 10) {
				fscale /= 10;
				frac += (*p - '0') * fscale;
			}
		}
		if (digits == 0)
			return (-1);
	}
	if (p != end || whole > (INT64_MAX - frac) / scale)
		return (-1);
	*ns = whole * scale + frac;
	return (0);
}

static int
accesslog_time(struct accesslog_scan *s, int64_t *ns)
{
	const char	*start = s->p, *d, *dend;
	char		*str, num[ACCESSLOG_NUM_SIZE];
	int64_t		 sec;
	long		 frac;
	int		 digits, rv;

	if (*s->p == '"') {
		if (accesslog_string(s, &str) != 0)
			return (-1);
		if (accesslog_epoch(str, str + strlen(str), ns) == 0)
			return (0);
		if (civil_parse_rfc3339(str, &sec, &frac, &digits) != 0 ||
		    sec < 0 || sec > INT64_MAX / ACCESSLOG_NS - 1)
			return (accesslog_fail(s, "%s", "EdgeStartTimestamp is "
			    "no RFC 3339 time"));
		*ns = sec * ACCESSLOG_NS + frac;
		return (0);
	}
	if ((rv = accesslog_number(s, num, &d, &dend)) == -1)
		return (accesslog_fail(s, "%s", "EdgeStartTimestamp is not a "
		    "JSON number"));
	if (rv != 0 || accesslog_epoch(d, dend, ns) != 0) {
		s->p = (char *)start;
		return (accesslog_fail(s, "%s", "EdgeStartTimestamp is no "
		    "time since the epoch"));
	}
	return (0);
}

/* RequestHeaders or Cookies: a flat object of strings (others skipped). */
static int
accesslog_pairs(struct accesslog_scan *s, const char *name,
    struct accesslog_pair *pairs, size_t *n)
{
	char	*k, *v;

	*n = 0;
	if (accesslog_is_null(s))
		return (0);
	if (*s->p != '{')
		return (accesslog_fail(s, "%s is not an object", name));
	s->p++;
	accesslog_ws(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return (0);
	}
	for (;;) {
		accesslog_ws(s);
		if (s->p >= s->end || *s->p != '"')
			return (accesslog_fail(s, "%s", "no key in an object"));
		if (accesslog_string(s, &k) != 0)
			return (-1);
		accesslog_ws(s);
		if (s->p >= s->end || *s->p != ':')
			return (accesslog_fail(s, "%s", "no ':' after a key"));
		s->p++;
		accesslog_ws(s);
		if (s->p < s->end && *s->p == '"') {
			if (accesslog_string(s, &v) != 0)
				return (-1);
			if (*n == ACCESSLOG_PAIRS_MAX)
				return (accesslog_fail(s, "more than 64 entries "
				    "in %s", name));
			pairs[*n].name = k;
			pairs[(*n)++].value = v;
		} else if (accesslog_skip(s) != 0)
			return (-1);
		accesslog_ws(s);
		if (s->p < s->end && *s->p == ',') {
			s->p++;
			continue;
		}
		if (s->p < s->end && *s->p == '}') {
			s->p++;
			return (0);
		}
		return (accesslog_fail(s, "%s", "no ',' or '}' after a value"));
	}
}

/* The field of a key: by its length first, which most keys fail. */
static enum accesslog_field
accesslog_field_find(const char *k, size_t len)
{
	const char		*name;
	enum accesslog_field	 f;

#define F(n, v)	do { name = n; f = v; } while (0)
	switch (len) {
	case 3:	F("JA4", AF_JA4); break;
	case 7:
		if (*k == 'C')
			F("Cookies", AF_COOKIES);
		else
			F("JA3Hash", AF_JA3);
		break;
	case 8:	F("ClientIP", AF_IP); break;
	case 9:	F("ClientASN", AF_ASN); break;
	case 12: F("EdgeColoCode", AF_COLO); break;
	case 13: F("ClientCountry", AF_COUNTRY); break;
	case 14: F("RequestHeaders", AF_HEADERS); break;
	case 16: F("ClientRequestURI", AF_URI); break;
	case 17:
		if (k[13] == 'H')
			F("ClientRequestHost", AF_HOST);
		else
			F("ClientRequestPath", AF_PATH);
		break;
	case 18:
		if (k[4] == 'R')
			F("EdgeResponseStatus", AF_STATUS);
		else
			F("EdgeStartTimestamp", AF_TIME);
		break;
	case 19:
		if (k[13] == 'M')
			F("ClientRequestMethod", AF_METHOD);
		else
			F("ClientRequestScheme", AF_SCHEME);
		break;
	case 20: F("ClientRequestReferer", AF_REFERER); break;
	case 21: F("ClientRequestProtocol", AF_VERSION); break;
	case 22: F("ClientRequestUserAgent", AF_UA); break;
	default:
		return (AF_NONE);
	}
#undef F
	return (memcmp(k, name, len) == 0 ? f : AF_NONE);
}

static int
accesslog_value(struct accesslog_scan *s, enum accesslog_field f,
    struct accesslog_record *r, const char **path, int *have_time)
{
	int64_t	v = -1;

	switch (f) {
	case AF_IP:	 return (accesslog_text(s, "ClientIP", &r->ip));
	case AF_HOST:	 return (accesslog_text(s, "ClientRequestHost",
			     &r->host));
	case AF_METHOD:	 return (accesslog_text(s, "ClientRequestMethod",
			     &r->method));
	case AF_URI:	 return (accesslog_text(s, "ClientRequestURI",
			     &r->uri));
	case AF_PATH:	 return (accesslog_text(s, "ClientRequestPath", path));
	case AF_SCHEME:	 return (accesslog_text(s, "ClientRequestScheme",
			     &r->scheme));
	case AF_UA:	 return (accesslog_text(s, "ClientRequestUserAgent",
			     &r->user_agent));
	case AF_REFERER: return (accesslog_text(s, "ClientRequestReferer",
			     &r->referer));
	case AF_COUNTRY: return (accesslog_text(s, "ClientCountry",
			     &r->country));
	case AF_COLO:	 return (accesslog_text(s, "EdgeColoCode", &r->colo));
	case AF_VERSION: return (accesslog_text(s, "ClientRequestProtocol",
			     &r->version));
	case AF_JA3:	 return (accesslog_text(s, "JA3Hash", &r->ja3));
	case AF_JA4:	 return (accesslog_text(s, "JA4", &r->ja4));
	case AF_STATUS:
		if (accesslog_int(s, "EdgeResponseStatus", &v) != 0)
			return (-1);
		r->status = v >= 0 && v <= 999 ? (int)v : 0;
		return (0);
	case AF_ASN:
		if (accesslog_int(s, "ClientASN", &v) != 0)
			return (-1);
		r->asnum = v;
		return (0);
	case AF_TIME:
		if (accesslog_is_null(s))
			return (0);
		*have_time = 1;
		return (accesslog_time(s, &r->time_ns));
	case AF_HEADERS:
		return (accesslog_pairs(s, "RequestHeaders", r->headers,
		    &r->nheaders));
	case AF_COOKIES:
		return (accesslog_pairs(s, "Cookies", r->cookies,
		    &r->ncookies));
	case AF_NONE:
		break;
	}
	return (accesslog_skip(s));
}

/*
 * Whether the n (at most ACCESSLOG_KEY_MAX) bytes at p are those of text,
 * with p readable that far: eight bytes at a time, the last word masked,
 * not a call for a dozen bytes.
 */
static int
accesslog_same_key(const char *p, const char *end, const char *text, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t	a, b, diff = 0;
	size_t		i;

	if (end - p >= ACCESSLOG_KEY_MAX + 1) {
		for (i = 0; i < n; i += 8) {
			memcpy(&a, p + i, 8);
			memcpy(&b, text + i, 8);
			a ^= b;
			if (n - i < 8)
				a &= (1ULL << ((n - i) * 8)) - 1;
			diff |= a;
		}
		return (diff == 0);
	}
#else
	(void)end;
#endif
	return (memcmp(p, text, n) == 0);
}

/* The key at s->p (its opening quote), the nth of the object, as a field. */
static int
accesslog_key(struct accesslog_scan *s, size_t n, enum accesslog_field *f)
{
	char	*k, *raw = s->p + 1;
	size_t	 klen;

	if (s->keys != NULL && n < ACCESSLOG_KEYS) {
		klen = s->keys->k[n].len;
		if (klen > 0 && (size_t)(s->end - raw) > klen &&
		    raw[klen] == '"' && accesslog_same_key(raw, s->end,
		    s->keys->k[n].text, klen)) {
			s->p = raw + klen + 1;
			*f = (enum accesslog_field)s->keys->k[n].field;
			return (0);
		}
	}
	if (accesslog_string_len(s, &k, &klen) != 0)
		return (-1);
	*f = accesslog_field_find(k, klen);
	if (s->keys != NULL && n < ACCESSLOG_KEYS) {
		/* Decoding kept the length only when there was no escape. */
		if (klen > 0 && klen <= ACCESSLOG_KEY_MAX &&
		    s->p == raw + klen + 1) {
			memcpy(s->keys->k[n].text, k, klen);
			s->keys->k[n].len = (uint8_t)klen;
			s->keys->k[n].field = (uint8_t)*f;
		} else
			s->keys->k[n].len = 0;
	}
	return (0);
}

static int
accesslog_logpush(struct accesslog_scan *s, struct accesslog_record *r)
{
	const char		*path = NULL;
	enum accesslog_field	 f;
	size_t			 n = 0;
	int			 have_time = 0;

	accesslog_ws(s);
	if (s->p >= s->end || *s->p != '{')
		return (accesslog_fail(s, "%s", "not a JSON object"));
	s->p++;
	accesslog_ws(s);
	if (s->p < s->end && *s->p == '}')
		s->p++;
	else {
		for (;;) {
			accesslog_ws(s);
			if (s->p >= s->end || *s->p != '"')
				return (accesslog_fail(s, "%s", "no key in "
				    "the object"));
			if (accesslog_key(s, n++, &f) != 0)
				return (-1);
			accesslog_ws(s);
			if (s->p >= s->end || *s->p != ':')
				return (accesslog_fail(s, "%s", "no ':' after "
				    "a key"));
			s->p++;
			accesslog_ws(s);
			if (s->p >= s->end)
				return (accesslog_fail(s, "%s", "no value "
				    "after a key"));
			if (accesslog_value(s, f, r, &path, &have_time) != 0)
				return (-1);
			accesslog_ws(s);
			if (s->p < s->end && *s->p == ',') {
				s->p++;
				continue;
			}
			if (s->p < s->end && *s->p == '}') {
				s->p++;
				break;
			}
			return (accesslog_fail(s, "%s", "no ',' or '}' after "
			    "a value"));
		}
	}
	accesslog_ws(s);
	if (s->p != s->end)
		return (accesslog_fail(s, "%s", "text after the object"));
	/* A missing field has no column to point at. */
	if (!have_time) {
		snprintf(s->why, s->whylen, "no EdgeStartTimestamp");
		return (-1);
	}
	if (r->uri == NULL)
		r->uri = path;
	return (0);
}

/* ---- the combined log format ------------------------------------------- */

static const char accesslog_months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

static int
accesslog_num(const char *p, int n, int *v)
{
	int	i, x = 0;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return (-1);
		x = x * 10 + (p[i] - '0');
	}
	*v = x;
	return (0);
}

/* "10/Oct/2000:13:55:36 -0700" (exactly so) into nanoseconds. */
static int
accesslog_clf_time(const char *p, size_t len, int64_t *ns)
{
	const char	*m;
	int		 d, y, hh, mm, ss, oh, om, mon;
	int64_t		 sec;

	if (len != 26 || p[2] != '/' || p[6] != '/' || p[11] != ':' ||
	    p[14] != ':' || p[17] != ':' || p[20] != ' ' ||
	    (p[21] != '+' && p[21] != '-'))
		return (-1);
	if (accesslog_num(p, 2, &d) != 0 || accesslog_num(p + 7, 4, &y) != 0 ||
	    accesslog_num(p + 12, 2, &hh) != 0 ||
	    accesslog_num(p + 15, 2, &mm) != 0 ||
	    accesslog_num(p + 18, 2, &ss) != 0 ||
	    accesslog_num(p + 22, 2, &oh) != 0 ||
	    accesslog_num(p + 24, 2, &om) != 0)
		return (-1);
	for (m = accesslog_months; *m != '\0'; m += 3)
		if (memcmp(m, p + 3, 3) == 0)
			break;
	if (*m == '\0' || d < 1 || d > 31 || y < 1970 || hh > 23 || mm > 59 ||
	    ss > 60 || oh > 23 || om > 59)
		return (-1);
	mon = (int)(m - accesslog_months) / 3 + 1;
	sec = civil_days(y, mon, d) * 86400 + hh * 3600 + mm * 60 + ss;
	sec += (p[21] == '+' ? -1 : 1) * (oh * 3600 + om * 60);
	/* Nanoseconds since 1970 hold until 2262. */
	if (sec < 0 || sec > INT64_MAX / ACCESSLOG_NS)
		return (-1);
	*ns = sec * ACCESSLOG_NS;
	return (0);
}

/* A quoted field at *pp, its escapes (\" \\ \xHH) decoded in place. */
static char *
accesslog_quoted(char **pp, char *end)
{
	char	*p = *pp, *start, *o;
	int	 hi, lo;

	if (p >= end || *p != '"')
		return (NULL);
	start = o = ++p;
	while (p < end && *p != '"') {
		if (*p == '\\' && p + 1 < end) {
			p++;
			if (*p == 'x' && p + 2 < end &&
			    (hi = encode_hexval((unsigned char)p[1])) >= 0 &&
			    (lo = encode_hexval((unsigned char)p[2])) >= 0 &&
			    (hi | lo) != 0) {
				*o++ = (char)(hi << 4 | lo);
				p += 3;
				continue;
			}
		}
		*o++ = *p++;
	}
	if (p >= end)
		return (NULL);
	*o = '\0';
	*pp = p + 1;
	return (start);
}

/* The next space-separated token at *pp, NUL-terminated. */
static char *
accesslog_token(char **pp, char *end)
{
	char	*p = *pp, *start = p;

	while (p < end && *p != ' ')
		p++;
	if (p == start)
		return (NULL);
	if (p < end)
		*p++ = '\0';
	else
		*p = '\0';
	while (p < end && *p == ' ')
		p++;
	*pp = p;
	return (start);
}

/* An absolute request target: take its scheme and host. */
static void
accesslog_absolute(struct accesslog_record *r, char *uri)
{
	char	*host, *slash;

	if (strncmp(uri, "http://", 7) != 0 && strncmp(uri, "https://", 8) != 0)
		return;
	host = strchr(uri, ':') + 3;
	uri[host - 3 - uri] = '\0';
	r->scheme = uri;
	if ((slash = strchr(host, '/')) == NULL) {
		r->host = host;
		r->uri = "/";
		return;
	}
	/* The host moves one byte left to end before the path's slash. */
	memmove(host - 1, host, (size_t)(slash - host));
	slash[-1] = '\0';
	r->host = host - 1;
	r->uri = slash;
}

static int
accesslog_is_ip(const char *s)
{
	unsigned char	addr[16];

	return (inet_pton(AF_INET, s, addr) == 1 ||
	    inet_pton(AF_INET6, s, addr) == 1);
}

static int
accesslog_combined(struct accesslog_scan *s, const struct accesslog_options *o,
    struct accesslog_record *r)
{
	const char	*p;
	char		*t, *req, *ref, *ua, *method, *uri, *close;
	int64_t		 v;

	if ((r->ip = accesslog_token(&s->p, s->end)) == NULL ||
	    accesslog_token(&s->p, s->end) == NULL ||
	    accesslog_token(&s->p, s->end) == NULL)
		return (accesslog_fail(s, "%s", "not the combined log format"));
	/* Else a host name or "unix:" would count as a client of its own. */
	if (!accesslog_is_ip(r->ip)) {
		s->p = (char *)r->ip;
		return (accesslog_fail(s, "%s", "a client address that is not "
		    "an IPv4 or IPv6 address"));
	}
	if (s->p >= s->end || *s->p != '[' ||
	    (close = memchr(s->p, ']', (size_t)(s->end - s->p))) == NULL)
		return (accesslog_fail(s, "%s", "no [time]"));
	t = s->p + 1;
	if (accesslog_clf_time(t, (size_t)(close - t), &r->time_ns) != 0)
		return (accesslog_fail(s, "%s", "a time not like "
		    "[10/Oct/2000:13:55:36 -0700] from 1970 to 2262"));
	s->p = close + 1;
	accesslog_ws(s);
	if ((req = accesslog_quoted(&s->p, s->end)) == NULL)
		return (accesslog_fail(s, "%s", "no quoted request line"));
	accesslog_ws(s);
	p = s->p;
	if (accesslog_digits(&p, s->end, &v) != 0 || v < 100 || v > 999)
		return (accesslog_fail(s, "%s", "no status after the request"));
	s->p += p - s->p;
	r->status = (int)v;
	accesslog_ws(s);
	if (accesslog_token(&s->p, s->end) == NULL)
		return (accesslog_fail(s, "%s", "no size after the status"));
	if ((ref = accesslog_quoted(&s->p, s->end)) != NULL) {
		accesslog_ws(s);
		if ((ua = accesslog_quoted(&s->p, s->end)) == NULL)
			return (accesslog_fail(s, "%s", "a referer without a "
			    "user agent"));
		r->referer = strcmp(ref, "-") != 0 ? ref : NULL;
		r->user_agent = strcmp(ua, "-") != 0 ? ua : NULL;
	}

	/* "METHOD TARGET [VERSION]" */
	if ((method = accesslog_token(&req, req + strlen(req))) == NULL ||
	    (uri = accesslog_token(&req, req + strlen(req))) == NULL ||
	    strspn(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(method))
		return (accesslog_fail(s, "%s", "a request line that is not "
		    "METHOD TARGET VERSION"));
	r->method = method;
	r->uri = uri;
	r->version = *req != '\0' ? req : NULL;
	r->host = o->host;
	r->scheme = o->scheme != NULL ? o->scheme : "https";
	accesslog_absolute(r, uri);
	return (0);
}

static void
accesslog_record_reset(struct accesslog_record *r)
{
	r->time_ns = 0;
	r->ip = r->host = r->method = r->uri = r->scheme = NULL;
	r->user_agent = r->referer = r->country = r->colo = NULL;
	r->version = r->ja3 = r->ja4 = NULL;
	r->status = 0;
	r->asnum = -1;
	r->nheaders = r->ncookies = 0;
}

static int
accesslog_parse(enum accesslog_format f, const struct accesslog_options *o,
    char *line, size_t len, struct accesslog_record *r, char *why,
    size_t whylen, struct accesslog_keys *keys)
{
	struct accesslog_scan	s;

	s.line = s.p = line;
	s.end = line + len;
	s.why = why;
	s.whylen = whylen;
	s.keys = keys;
	accesslog_record_reset(r);
	if (f == ACCESSLOG_COMBINED)
		return (accesslog_combined(&s, o, r));
	return (accesslog_logpush(&s, r));
}

int
accesslog_parse_line(enum accesslog_format f, const struct accesslog_options *o,
    char *line, size_t len, struct accesslog_record *r, char *why,
    size_t whylen)
{
	return (accesslog_parse(f, o, line, len, r, why, whylen, NULL));
}

/* ---- reading the file --------------------------------------------------- */

struct accesslog *
accesslog_open(const char *path, const struct accesslog_options *o,
    char **cause)
{
	struct accesslog	*l;
	struct logread		*rd;

	if ((rd = logread_open(path, o->cancelled, o->cancel_arg,
	    cause)) == NULL)
		return (NULL);
	l = xcalloc(1, sizeof *l);
	l->rd = rd;
	l->name = xstrdup(strcmp(path, "-") == 0 ? "stdin" : path);
	l->buf = xmalloc(ACCESSLOG_LINE_MAX + 1);
	l->opts = *o;
	return (l);
}

void
accesslog_close(struct accesslog *l)
{
	if (l == NULL)
		return;
	logread_close(l->rd);
	free(l->buf);
	free(l->name);
	free(l);
}

static void
accesslog_keep_bad(struct accesslog *l, const char *line, size_t len,
    const char *why)
{
	struct accesslog_bad	*b;
	size_t			 i;

	l->nbad++;
	if (l->nkept == ACCESSLOG_BAD_KEPT)
		return;
	b = &l->bad[l->nkept++];
	b->line = l->lineno;
	snprintf(b->why, sizeof b->why, "%s", why);
	for (i = 0; i < len && i < sizeof b->text - 1; i++)
		b->text[i] = (unsigned char)line[i] < 0x20 ||
		    line[i] == 0x7f ? '?' : line[i];
	b->text[i] = '\0';
}

/* More of the file after what is left in the buffer; -1 on an error. */
static int
accesslog_fill(struct accesslog *l, char **cause)
{
	char	*why = NULL;
	ssize_t	 n;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->len - l->start);
		l->len -= l->start;
		l->start = 0;
	}
	n = logread_read(l->rd, l->buf + l->len, ACCESSLOG_LINE_MAX - l->len,
	    &why);
	if (n < 0) {
		xasprintf(cause, "%s: %s after line %llu", l->name, why,
		    (unsigned long long)l->lineno);
		free(why);
		return (-1);
	}
	if (n == 0)
		l->eof = 1;
	l->len += (size_t)n;
	return (0);
}

/* The next line in *line (NUL-terminated in place): 1, 0 at the end. */
static int
accesslog_line(struct accesslog *l, char **line, size_t *len, char **cause)
{
	char	*nl;

	for (;;) {
		nl = memchr(l->buf + l->start, '\n', l->len - l->start);
		if (nl == NULL && l->eof && l->start == l->len)
			return (0);
		if (nl == NULL && !l->eof) {
			if (l->start == 0 && l->len == ACCESSLOG_LINE_MAX) {
				/* Too long: counted once, the rest dropped. */
				if (!l->skipping) {
					l->lineno++;
					l->lines++;
					accesslog_keep_bad(l, l->buf, l->len,
					    "a line longer than 1 MiB");
				}
				l->skipping = 1;
				l->len = 0;
			}
			if (accesslog_fill(l, cause) != 0)
				return (-1);
			continue;
		}
		*line = l->buf + l->start;
		if (nl == NULL)
			nl = l->buf + l->len;
		*len = (size_t)(nl - *line);
		*nl = '\0';
		l->start = (size_t)(nl - l->buf) + (nl < l->buf + l->len);
		if (l->skipping) {
			l->skipping = 0;
			continue;
		}
		l->lineno++;
		if (*len > 0 && (*line)[*len - 1] == '\r')
			(*line)[--*len] = '\0';
		return (1);
	}
}

static enum accesslog_format
accesslog_detect(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return (*line == '{' ? ACCESSLOG_LOGPUSH : ACCESSLOG_COMBINED);
}

int
accesslog_next(struct accesslog *l, const struct accesslog_record **rec,
    char **cause)
{
	enum accesslog_format	 f;
	char			*line, why[192];
	size_t			 len;
	int			 rv;

	while ((rv = accesslog_line(l, &line, &len, cause)) == 1) {
		if (strspn(line, " \t") == len)
			continue;
		l->lines++;
		/* Unsaid, the format is that of the first line that reads. */
		f = l->opts.format;
		if (f == ACCESSLOG_AUTO)
			f = accesslog_detect(line);
		/* The scan writes into the line: keep its start to show. */
		l->hlen = len < sizeof l->head ? len : sizeof l->head;
		memcpy(l->head, line, l->hlen);
		if (accesslog_parse(f, &l->opts, line, len, &l->rec, why,
		    sizeof why, &l->keys) == 0) {
			l->opts.format = f;
			l->rec.line = l->lineno;
			l->recline = line;
			l->reclen = len;
			*rec = &l->rec;
			return (1);
		}
		accesslog_keep_bad(l, l->head, l->hlen, why);
	}
	return (rv);
}

const char *
accesslog_record_line(const struct accesslog *l, size_t *len)
{
	*len = l->reclen;
	return (l->recline);
}

void
accesslog_reject(struct accesslog *l, const char *why)
{
	accesslog_keep_bad(l, l->head, l->hlen, why);
}

uint64_t
accesslog_lines(const struct accesslog *l)
{
	return (l->lines);
}

uint64_t
accesslog_bad_lines(const struct accesslog *l)
{
	return (l->nbad);
}

const struct accesslog_bad *
accesslog_bad(const struct accesslog *l, size_t *n)
{
	*n = l->nkept;
	return (l->bad);
}

enum accesslog_format
accesslog_format(const struct accesslog *l)
{
	return (l->opts.format);
}

void
accesslog_progress(const struct accesslog *l, uint64_t *done, uint64_t *total)
{
	logread_progress(l->rd, done, total);
}
