/*
 * The Rules language's functions (api-map-next 12.4) on evaluated values:
 * the implementations the scheme's rows name (expr_scheme.h). Results
 * live in the request's scratch space, so a warm request evaluates them
 * without allocating; the JSON lookups scan the text in place.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "common.h"
#include "encode.h"
#include "expr_int.h"
#include "expr_value.h"

#define FN_URL_DECODE_ROUNDS	16	/* "r": decode at most this often */

static void
fn_missing(struct expr_val *out)
{
	out->kind = EXPR_V_MISSING;
}

static void
fn_bytes(struct expr_val *out, const char *p, size_t n)
{
	out->kind = EXPR_V_BYTES;
	out->u.s.p = p;
	out->u.s.n = n;
}

static void
fn_int(struct expr_val *out, int64_t i)
{
	out->kind = EXPR_V_INT;
	out->u.i = i;
}

static void
fn_bool(struct expr_val *out, int b)
{
	out->kind = EXPR_V_BOOL;
	out->u.b = b != 0;
}

/* lower() and upper(): ASCII letters only. */
static void
fn_case(struct expr_request *rq, const struct expr_val *s, int upper,
    struct expr_val *out)
{
	char	*d;
	size_t	 i;

	d = expr_request_scratch(rq, s->u.s.n);
	for (i = 0; i < s->u.s.n; i++) {
		d[i] = s->u.s.p[i];
		if (upper && d[i] >= 'a' && d[i] <= 'z')
			d[i] -= 'a' - 'A';
		else if (!upper && d[i] >= 'A' && d[i] <= 'Z')
			d[i] += 'a' - 'A';
	}
	fn_bytes(out, d, s->u.s.n);
}

static void
fn_concat(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	struct expr_val	*v;
	char		*d;
	size_t		 i, total = 0;

	/* Strings or arrays, all of the first's kind. */
	for (i = 0; i < n; i++)
		total += a[i].kind == EXPR_V_ARRAY ? a[i].u.arr.n :
		    a[i].u.s.n;
	if (a[0].kind == EXPR_V_ARRAY) {
		v = expr_request_scratch(rq, total * sizeof *v);
		out->kind = EXPR_V_ARRAY;
		out->u.arr.v = v;
		out->u.arr.n = total;
		for (i = 0; i < n; i++) {
			if (a[i].u.arr.n > 0)
				memcpy(v, a[i].u.arr.v,
				    a[i].u.arr.n * sizeof *v);
			v += a[i].u.arr.n;
		}
		return;
	}
	d = expr_request_scratch(rq, total);
	fn_bytes(out, d, total);
	for (i = 0; i < n; i++) {
		if (a[i].u.s.n > 0)
			memcpy(d, a[i].u.s.p, a[i].u.s.n);
		d += a[i].u.s.n;
	}
}

/* Byte indexes; negative ones count from the end; out of range is cut. */
static void
fn_substring(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	int64_t	len = (int64_t)a[0].u.s.n, start, end;

	(void)rq;
	start = a[1].u.i;
	end = n > 2 ? a[2].u.i : len;
	if (start < 0)
		start += len;
	if (end < 0)
		end += len;
	start = start < 0 ? 0 : start > len ? len : start;
	end = end < 0 ? 0 : end > len ? len : end;
	if (end < start)
		end = start;
	fn_bytes(out, a[0].u.s.p + start, (size_t)(end - start));
}

/* A code point as UTF-8 into d; the bytes written. */
static size_t
fn_utf8(uint32_t c, char *d)
{
	if (c < 0x80) {
		d[0] = (char)c;
		return (1);
	}
	if (c < 0x800) {
		d[0] = (char)(0xc0 | c >> 6);
		d[1] = (char)(0x80 | (c & 0x3f));
		return (2);
	}
	if (c < 0x10000) {
		d[0] = (char)(0xe0 | c >> 12);
		d[1] = (char)(0x80 | (c >> 6 & 0x3f));
		d[2] = (char)(0x80 | (c & 0x3f));
		return (3);
	}
	d[0] = (char)(0xf0 | c >> 18);
	d[1] = (char)(0x80 | (c >> 12 & 0x3f));
	d[2] = (char)(0x80 | (c >> 6 & 0x3f));
	d[3] = (char)(0x80 | (c & 0x3f));
	return (4);
}

static int
fn_hex(const char *p, size_t n, uint32_t *v)
{
	size_t	i;
	int	h;

	*v = 0;
	for (i = 0; i < n; i++) {
		if ((h = encode_hexval((unsigned char)p[i])) < 0)
			return (-1);
		*v = *v << 4 | (uint32_t)h;
	}
	return (0);
}

/* One pass: %XX, '+' as a space, and with u %uXXXX as UTF-8. A '%' that
 * starts no escape stays as it is. d has room for n bytes (no escape
 * grows: %uXXXX is six bytes for at most three). */
static size_t
fn_url_pass(const char *p, size_t n, char *d, int u)
{
	size_t		i, o = 0;
	uint32_t	v;

	for (i = 0; i < n; i++) {
		if (p[i] == '+')
			d[o++] = ' ';
		else if (p[i] == '%' && i + 2 < n && fn_hex(p + i + 1, 2,
		    &v) == 0) {
			d[o++] = (char)v;
			i += 2;
		} else if (p[i] == '%' && u && i + 5 < n &&
		    (p[i + 1] == 'u' || p[i + 1] == 'U') &&
		    fn_hex(p + i + 2, 4, &v) == 0) {
			o += fn_utf8(v, d + o);
			i += 5;
		} else
			d[o++] = p[i];
	}
	return (o);
}

static void
fn_url_decode(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	const char	*p = a[0].u.s.p;
	size_t		 len = a[0].u.s.n, o, round;
	int		 r = 0, u = 0;
	char		*d;

	if (n > 1) {
		r = memchr(a[1].u.s.p, 'r', a[1].u.s.n) != NULL;
		u = memchr(a[1].u.s.p, 'u', a[1].u.s.n) != NULL;
	}
	for (round = 0; round < (r ? FN_URL_DECODE_ROUNDS : 1); round++) {
		d = expr_request_scratch(rq, len);
		o = fn_url_pass(p, len, d, u);
		if (o == len && memcmp(d, p, len) == 0)
			break;
		p = d;
		len = o;
	}
	fn_bytes(out, p, len);
}

static int
fn_b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return (c - 'A');
	if (c >= 'a' && c <= 'z')
		return (c - 'a' + 26);
	if (c >= '0' && c <= '9')
		return (c - '0' + 52);
	if (c == '+')
		return (62);
	if (c == '/')
		return (63);
	return (-1);
}

/* Standard base64, padding optional; anything else is missing. */
static void
fn_decode_base64(struct expr_request *rq, const struct expr_val *a,
    size_t na, struct expr_val *out)
{
	const struct expr_val	*s = &a[0];
	const char		*p = s->u.s.p;
	size_t			 n = s->u.s.n, i, o = 0;
	uint32_t		 acc = 0;
	int			 bits = 0, v;
	char			*d;

	(void)na;
	if (n > 0 && p[n - 1] == '=')
		n--;
	if (n > 0 && p[n - 1] == '=')
		n--;
	/* Padded text comes in whole quads; one character alone is no byte. */
	if (n % 4 == 1 || (n < s->u.s.n && s->u.s.n % 4 != 0))
		return (fn_missing(out));
	d = expr_request_scratch(rq, n);
	for (i = 0; i < n; i++) {
		if ((v = fn_b64val((unsigned char)p[i])) < 0)
			return (fn_missing(out));
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			d[o++] = (char)(acc >> bits & 0xff);
		}
	}
	fn_bytes(out, d, o);
}

/* The bytes of the first argument not among those of the second. */
static void
fn_remove_bytes(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	uint8_t	 drop[256];
	size_t	 i, o = 0;
	char	*d;

	(void)n;
	memset(drop, 0, sizeof drop);
	for (i = 0; i < a[1].u.s.n; i++)
		drop[(unsigned char)a[1].u.s.p[i]] = 1;
	d = expr_request_scratch(rq, a[0].u.s.n);
	for (i = 0; i < a[0].u.s.n; i++)
		if (!drop[(unsigned char)a[0].u.s.p[i]])
			d[o++] = a[0].u.s.p[i];
	fn_bytes(out, d, o);
}

/* The network of an address: bits kept, the rest zero. */
static void
fn_mask(struct expr_ip *ip, int64_t bits)
{
	size_t	len = ip->family == 4 ? 4 : 16, i;
	int64_t	keep;

	for (i = 0; i < len; i++) {
		keep = bits - (int64_t)i * 8;
		if (keep >= 8)
			continue;
		ip->bytes[i] &= keep <= 0 ? 0 : (uint8_t)(0xff << (8 - keep));
	}
}

static void
fn_cidr_mask(const struct expr_val *a, size_t n, int six,
    struct expr_val *out)
{
	int64_t	b4, b6;

	/* cidr6(a, b) is cidr(a, 32, b): an IPv4 address stays whole. */
	b4 = six ? 32 : a[1].u.i;
	b6 = six ? a[1].u.i : (n > 2 ? a[2].u.i : 128);
	*out = a[0];
	if (out->u.ip.family == 4 ? b4 < 1 || b4 > 32 : b6 < 1 || b6 > 128)
		return (fn_missing(out));
	fn_mask(&out->u.ip, out->u.ip.family == 4 ? b4 : b6);
}

static void
fn_cidr(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)rq;
	fn_cidr_mask(a, n, 0, out);
}

/* ---- JSON, scanned in place --------------------------------------------- */

struct fn_json {
	const char	*p, *end;
};

static void
fn_json_ws(struct fn_json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* Past a string (at its opening quote); -1 when unterminated. */
static int
fn_json_skip_string(struct fn_json *j)
{
	for (j->p++; j->p < j->end; j->p++) {
		if (*j->p == '\\')
			j->p++;
		else if (*j->p == '"') {
			j->p++;
			return (0);
		}
	}
	return (-1);
}

/* Past one value, nested ones included (depth counted, not recursed). */
static int
fn_json_skip(struct fn_json *j)
{
	size_t	depth = 0;

	fn_json_ws(j);
	do {
		if (j->p >= j->end)
			return (-1);
		switch (*j->p) {
		case '"':
			if (fn_json_skip_string(j) == -1)
				return (-1);
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return (-1);
			depth--;
			break;
		default:
			if (depth == 0) {
				while (j->p < j->end && strchr(",]} \t\r\n",
				    *j->p) == NULL)
					j->p++;
				return (0);
			}
		}
		j->p++;
	} while (depth > 0);
	return (0);
}

/*
 * The string at j->p decoded into d (room for its raw length); -1 when it
 * is not a well-formed string.
 */
static int
fn_json_string(struct fn_json *j, char *d, size_t *np)
{
	uint32_t	c, lo;
	size_t		o = 0;

	if (j->p >= j->end || *j->p != '"')
		return (-1);
	for (j->p++; j->p < j->end; j->p++) {
		if (*j->p == '"') {
			j->p++;
			*np = o;
			return (0);
		}
		if (*j->p != '\\') {
			d[o++] = *j->p;
			continue;
		}
		if (++j->p >= j->end)
			return (-1);
		switch (*j->p) {
		case 'b':
			d[o++] = '\b';
			break;
		case 'f':
			d[o++] = '\f';
			break;
		case 'n':
			d[o++] = '\n';
			break;
		case 'r':
			d[o++] = '\r';
			break;
		case 't':
			d[o++] = '\t';
			break;
		case '"':
		case '\\':
		case '/':
			d[o++] = *j->p;
			break;
		case 'u':
			if (j->end - j->p < 5 || fn_hex(j->p + 1, 4, &c) == -1)
				return (-1);
			j->p += 4;
			if (c >= 0xd800 && c < 0xdc00 && j->end - j->p >= 7 &&
			    j->p[1] == '\\' && j->p[2] == 'u' &&
			    fn_hex(j->p + 3, 4, &lo) == 0 &&
			    lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				j->p += 6;
			}
			/* \uXXXX is six bytes, its UTF-8 at most four. */
			o += fn_utf8(c, d + o);
			break;
		default:
			return (-1);
		}
	}
	return (-1);
}

/* Into the object member named key, or the array element at key. */
static int
fn_json_step(struct expr_request *rq, struct fn_json *j,
    const struct expr_val *key)
{
	char		*name;
	size_t		 n, at = 0;

	fn_json_ws(j);
	if (j->p >= j->end)
		return (-1);
	if (*j->p == '{' && key->kind == EXPR_V_BYTES) {
		/* One buffer for every member name: none is longer. */
		name = expr_request_scratch(rq, j->end - j->p);
		j->p++;
		for (;;) {
			fn_json_ws(j);
			if (j->p >= j->end || *j->p != '"')
				return (-1);
			if (fn_json_string(j, name, &n) == -1)
				return (-1);
			fn_json_ws(j);
			if (j->p >= j->end || *j->p != ':')
				return (-1);
			j->p++;
			if (n == key->u.s.n &&
			    memcmp(name, key->u.s.p, n) == 0) {
				fn_json_ws(j);
				return (0);
			}
			if (fn_json_skip(j) == -1)
				return (-1);
			fn_json_ws(j);
			if (j->p >= j->end || *j->p != ',')
				return (-1);
			j->p++;
		}
	}
	if (*j->p == '[' && key->kind == EXPR_V_INT && key->u.i >= 0) {
		j->p++;
		fn_json_ws(j);
		if (j->p < j->end && *j->p == ']')
			return (-1);
		for (;;) {
			fn_json_ws(j);
			if ((int64_t)at == key->u.i)
				return (0);
			if (fn_json_skip(j) == -1)
				return (-1);
			fn_json_ws(j);
			if (j->p >= j->end || *j->p != ',')
				return (-1);
			j->p++;
			at++;
		}
	}
	return (-1);
}

/* A JSON integer (no fraction, no exponent) that fits in 64 bits. */
static int
fn_json_int(struct fn_json *j, int64_t *v)
{
	uint64_t	acc = 0, limit;
	int		neg = 0, digits = 0;

	if (j->p < j->end && *j->p == '-') {
		neg = 1;
		j->p++;
	}
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		if (acc > (limit - (uint64_t)(*j->p - '0')) / 10)
			return (-1);
		acc = acc * 10 + (uint64_t)(*j->p - '0');
		j->p++;
		digits++;
	}
	if (digits == 0 || (j->p < j->end && strchr(".eE", *j->p) != NULL))
		return (-1);
	*v = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	return (0);
}

static void
fn_lookup_json(struct expr_request *rq, const struct expr_val *a, size_t n,
    int integer, struct expr_val *out)
{
	struct fn_json	 j;
	size_t		 i, len;
	int64_t		 v;
	char		*d;

	j.p = a[0].u.s.p;
	j.end = j.p + a[0].u.s.n;
	for (i = 1; i < n; i++)
		if (fn_json_step(rq, &j, &a[i]) == -1)
			return (fn_missing(out));
	fn_json_ws(&j);
	if (integer) {
		if (fn_json_int(&j, &v) == -1)
			return (fn_missing(out));
		return (fn_int(out, v));
	}
	d = expr_request_scratch(rq, j.end - j.p);
	if (fn_json_string(&j, d, &len) == -1)
		return (fn_missing(out));
	fn_bytes(out, d, len);
}

/* ---- the functions, as the scheme's rows name them --------------------- */

/*
 * Each is called with arguments of the kinds its parameters take (see
 * expr_func_call), none missing.
 */
typedef void (*expr_fn_cb)(struct expr_request *, const struct expr_val *,
    size_t, struct expr_val *);

static void
fn_lower(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)n;
	fn_case(rq, &a[0], 0, out);
}

static void
fn_upper(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)n;
	fn_case(rq, &a[0], 1, out);
}

static void
fn_len(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)rq;
	(void)n;
	fn_int(out, a[0].kind == EXPR_V_BYTES ? (int64_t)a[0].u.s.n :
	    (int64_t)a[0].u.arr.n);
}

/* starts_with and ends_with: whether the bytes at one end are the text's. */
static void
fn_affix(const struct expr_val *a, int end, struct expr_val *out)
{
	if (a[1].u.s.n > a[0].u.s.n)
		fn_bool(out, 0);
	else
		fn_bool(out, memcmp(end ? a[0].u.s.p + a[0].u.s.n -
		    a[1].u.s.n : a[0].u.s.p, a[1].u.s.p, a[1].u.s.n) == 0);
}

static void
fn_starts_with(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)rq;
	(void)n;
	fn_affix(a, 0, out);
}

static void
fn_ends_with(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)rq;
	(void)n;
	fn_affix(a, 1, out);
}

static void
fn_lookup_json_string(struct expr_request *rq, const struct expr_val *a,
    size_t n, struct expr_val *out)
{
	fn_lookup_json(rq, a, n, 0, out);
}

static void
fn_lookup_json_integer(struct expr_request *rq, const struct expr_val *a,
    size_t n, struct expr_val *out)
{
	fn_lookup_json(rq, a, n, 1, out);
}

static void
fn_cidr6(struct expr_request *rq, const struct expr_val *a, size_t n,
    struct expr_val *out)
{
	(void)rq;
	fn_cidr_mask(a, n, 1, out);
}

/*
 * Checking the token needs the zone's secret key, which a rule only names;
 * without it the honest answer locally is "not valid".
 */
static void
fn_is_timed_hmac_valid_v0(struct expr_request *rq, const struct expr_val *a,
    size_t n, struct expr_val *out)
{
	(void)rq;
	(void)a;
	(void)n;
	fn_bool(out, 0);
}

#define EXPR_FN_IMPL(id, n, r, ph, p, impl, pa, sm)	[EXPR_FN_##id] = impl,
static const expr_fn_cb expr_fn_impls[EXPR_FN__COUNT] = {
	EXPR_FUNCS(EXPR_FN_IMPL, EXPR_FN_IMPL)
};
#undef EXPR_FN_IMPL

/* Whether a value is of a kind the parameter takes. */
static int
fn_takes(const struct expr_param *pa, const struct expr_val *v,
    const struct expr_val *first)
{
	switch (pa->type) {
	case EXPR_PT_STR_OR_ARRAY:
		return (v->kind == EXPR_V_BYTES || v->kind == EXPR_V_ARRAY);
	case EXPR_PT_KEY:
		return (v->kind == EXPR_V_BYTES || v->kind == EXPR_V_INT);
	case EXPR_PT_SAME:
		return (v->kind == first->kind);
	}
	switch (EXPR_TYPE_OUTER(pa->type)) {
	case EXPR_T_STRING:
		return (v->kind == EXPR_V_BYTES);
	case EXPR_T_INT:
		return (v->kind == EXPR_V_INT);
	case EXPR_T_IP:
		return (v->kind == EXPR_V_IP);
	case EXPR_T_BOOL:
		return (v->kind == EXPR_V_BOOL);
	case EXPR_T_ARRAY:
		return (v->kind == EXPR_V_ARRAY);
	case EXPR_T_MAP:
		return (v->kind == EXPR_V_MAP);
	default:
		return (0);
	}
}

/* The kind of a value of a (checked) type. */
static enum expr_vkind
fn_kind(unsigned type)
{
	static const enum expr_vkind	kinds[] = {
		[EXPR_T_NONE] = EXPR_V_MISSING,
		[EXPR_T_STRING] = EXPR_V_BYTES,
		[EXPR_T_INT] = EXPR_V_INT,
		[EXPR_T_IP] = EXPR_V_IP,
		[EXPR_T_BOOL] = EXPR_V_BOOL,
		[EXPR_T_ARRAY] = EXPR_V_ARRAY,
		[EXPR_T_MAP] = EXPR_V_MAP,
	};
	enum expr_tkind			outer = EXPR_TYPE_OUTER(type);

	return ((size_t)outer < nitems(kinds) ? kinds[outer] : EXPR_V_MISSING);
}

/* A value's type as far as its kind tells. */
static unsigned
fn_type(const struct expr_val *v)
{
	static const unsigned	types[] = {
		[EXPR_V_MISSING] = EXPR_T_NONE,
		[EXPR_V_BOOL] = EXPR_T_BOOL,
		[EXPR_V_INT] = EXPR_T_INT,
		[EXPR_V_BYTES] = EXPR_T_STRING,
		[EXPR_V_IP] = EXPR_T_IP,
		[EXPR_V_ARRAY] = EXPR_T_ARRAY,
		[EXPR_V_MAP] = EXPR_T_MAP,
	};

	return (types[v->kind]);
}

/*
 * Call a function on evaluated arguments (none missing: the evaluator
 * passes a missing argument on as a missing result). Arguments the
 * function's parameters do not take (the checker refuses them) give a
 * missing value too.
 */
void
expr_func_call(struct expr_request *rq, enum expr_func fn,
    const struct expr_val *a, size_t n, struct expr_val *out)
{
	const struct expr_func_info	*fi = expr_func_info(fn);
	const struct expr_param		*pa;
	size_t				 min, max, i, at = 0;

	fn_missing(out);
	if (fi == NULL || expr_fn_impls[fn] == NULL)
		return;
	expr_func_arity(fi, &min, &max);
	if (n < min || n > max)
		return;
	for (i = 0; i < n; i++) {
		pa = expr_func_param(fi, &at, i, n, fn_type(&a[i]));
		if (!fn_takes(pa, &a[i], &a[0]))
			return;
	}
	expr_fn_impls[fn](rq, a, n, out);
}

/*
 * The evaluator's call of a checked node: the checker matched each
 * argument's type to its parameter, so arguments of the kinds their types
 * say are what the function takes. Any other (a bug) gives a missing
 * value, as the guard of expr_func_call would, without its work per call.
 */
void
expr_func_eval(struct expr_request *rq, const struct expr_node *call,
    const struct expr_val *a, struct expr_val *out)
{
	size_t	i;

	fn_missing(out);
	if ((int)call->func <= EXPR_FN_NONE || call->func >= EXPR_FN__COUNT ||
	    expr_fn_impls[call->func] == NULL)
		return;
	for (i = 0; i < call->nkids; i++)
		if (a[i].kind != fn_kind(call->kids[i]->type))
			return;
	expr_fn_impls[call->func](rq, a, call->nkids, out);
}
