/*
 * Identifiers, clocks, randomness, text and JSON helpers shared by
 * edgemu's areas.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_GETRANDOM
#include <sys/random.h>
#endif

#include "buf.h"
#include "jsonutil.h"
#include "log.h"
#include "text.h"
#include "util.h"
#include "xmalloc.h"

void
util_lower(char *s)
{
	for (; *s != '\0'; s++)
		*s = (char)tolower((unsigned char)*s);
}

void
util_random_bytes(void *p, size_t n)
{
	unsigned char	*u = p;
	ssize_t		 r;
	int		 fd;

#ifdef HAVE_GETRANDOM
	while (n > 0) {
		r = getrandom(u, n, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		u += r;
		n -= (size_t)r;
	}
	if (n == 0)
		return;
#endif
	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) == -1)
		fatal("open /dev/urandom");
	while (n > 0) {
		r = read(fd, u, n);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			fatal("read /dev/urandom");
		}
		u += r;
		n -= (size_t)r;
	}
	close(fd);
}

void
util_hex(const void *p, size_t n, char *out)
{
	static const char	 digits[] = "0123456789abcdef";
	const unsigned char	*u = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[u[i] >> 4];
		out[2 * i + 1] = digits[u[i] & 0xf];
	}
	out[2 * n] = '\0';
}

static void
util_format_uuid(unsigned char b[16], char out[UUID_LEN + 1])
{
	char	hex[33];

	b[6] = (b[6] & 0x0f) | 0x40;	/* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	util_hex(b, 16, hex);
	snprintf(out, UUID_LEN + 1, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8,
	    hex + 12, hex + 16, hex + 20);
}

void
util_hex32(char out[HEX32_LEN + 1])
{
	unsigned char	b[16];

	util_random_bytes(b, sizeof b);
	util_hex(b, sizeof b, out);
}

void
util_uuid(char out[UUID_LEN + 1])
{
	unsigned char	b[16];

	util_random_bytes(b, sizeof b);
	util_format_uuid(b, out);
}

void
util_rng_seed(struct util_rng *r, uint64_t seed)
{
	r->s = seed != 0 ? seed : 0x9e3779b97f4a7c15ULL;
}

/* splitmix64: tiny, good enough for demo data, same sequence everywhere. */
uint64_t
util_rng_next(struct util_rng *r)
{
	uint64_t	z;

	z = (r->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

uint32_t
util_rng_below(struct util_rng *r, uint32_t n)
{
	return (n == 0 ? 0 : (uint32_t)(util_rng_next(r) % n));
}

static void
util_rng_fill(struct util_rng *r, unsigned char b[16])
{
	uint64_t	a = util_rng_next(r), c = util_rng_next(r);

	memcpy(b, &a, 8);
	memcpy(b + 8, &c, 8);
}

void
util_rng_hex32(struct util_rng *r, char out[HEX32_LEN + 1])
{
	unsigned char	b[16];

	util_rng_fill(r, b);
	util_hex(b, sizeof b, out);
}

void
util_rng_uuid(struct util_rng *r, char out[UUID_LEN + 1])
{
	unsigned char	b[16];

	util_rng_fill(r, b);
	util_format_uuid(b, out);
}

void
util_time_iso(const struct timespec *ts, char out[ISO_TIME_LEN])
{
	struct tm	tm;
	char		tmp[24];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(tmp, sizeof tmp, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, ISO_TIME_LEN, "%.19s.%06uZ", tmp,
	    (unsigned)((ts->tv_nsec / 1000) % 1000000));
}

void
util_now_iso(char out[ISO_TIME_LEN])
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	util_time_iso(&ts, out);
}

/* Accepts YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM). */
int
util_utf8_valid(const char *s, size_t len)
{
	size_t		i = 0, n;
	uint32_t	cp;

	for (; i < len; i += n) {
		if ((n = text_utf8_decode(s + i, len - i, &cp)) == 0)
			return (0);
	}
	return (1);
}

int
util_fail(char **cause, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	xvasprintf(cause, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Removes <...> tags, as the service does with rule descriptions. */
char *
util_strip_tags(const char *s)
{
	struct buf	b = BUF_INITIALIZER;
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if (*p == '<' && strchr(p, '>') != NULL) {
			p = strchr(p, '>');
			continue;
		}
		buf_addc(&b, *p);
	}
	return (buf_detach(&b, NULL));
}

/* Compare secrets without leaking the position of the first difference. */
int
util_streq_ct(const char *a, const char *b)
{
	size_t		la = strlen(a), lb = strlen(b), i;
	unsigned char	d = la != lb;

	for (i = 0; i < la; i++)
		d |= (unsigned char)a[i] ^ (unsigned char)b[i < lb ? i : 0];
	return (d == 0);
}

enum util_jtype
util_jstring(const cJSON *o, const char *key, const char **out)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return (UTIL_JABSENT);
	if (!cJSON_IsString(v))
		return (UTIL_JWRONG);
	*out = v->valuestring;
	return (UTIL_JOK);
}

enum util_jtype
util_jnumber(const cJSON *o, const char *key, double *out)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return (UTIL_JABSENT);
	if (!cJSON_IsNumber(v))
		return (UTIL_JWRONG);
	*out = v->valuedouble;
	return (UTIL_JOK);
}

enum util_jtype
util_jbool(const cJSON *o, const char *key, int *out)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return (UTIL_JABSENT);
	if (!cJSON_IsBool(v))
		return (UTIL_JWRONG);
	*out = cJSON_IsTrue(v);
	return (UTIL_JOK);
}

int
util_jis_integer(const cJSON *v)
{
	return (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    floor(v->valuedouble) == v->valuedouble &&
	    fabs(v->valuedouble) < 9007199254740992.0);
}

char *
util_jprint(const cJSON *v)
{
	char	*s;

	if ((s = cJSON_PrintUnformatted(v)) == NULL)
		fatalx("cJSON_PrintUnformatted: out of memory");
	return (s);
}

/*
 * Does the text end inside a string or an open array or object, with every
 * closer so far matching its opener? Then it was cut short, not malformed.
 */
static int
util_json_truncated(const char *s, size_t len)
{
	char	stack[256];
	size_t	i, depth = 0;
	int	in_str = 0, seen = 0;

	for (i = 0; i < len; i++) {
		if (in_str) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in_str = 0;
			continue;
		}
		switch (s[i]) {
		case '"':
			in_str = seen = 1;
			break;
		case '{':
		case '[':
			if (depth == sizeof stack)
				return (0);
			stack[depth++] = s[i] == '{' ? '}' : ']';
			seen = 1;
			break;
		case '}':
		case ']':
			if (depth == 0 || stack[--depth] != s[i])
				return (0);
			break;
		}
	}
	return (seen && (in_str || depth > 0));
}

/*
 * cJSON turns "\u0000" into a C string's end, silently cutting the string
 * short: find one in the text of a document that parsed.
 */
static int
util_json_has_nul(const char *s, size_t len)
{
	size_t	i;
	int	in_str = 0;

	for (i = 0; i < len; i++) {
		if (!in_str) {
			in_str = s[i] == '"';
			continue;
		}
		if (s[i] == '"')
			in_str = 0;
		else if (s[i] == '\\' && i + 1 < len) {
			if (s[i + 1] == 'u' && len - i >= 6 &&
			    memcmp(s + i + 2, "0000", 4) == 0)
				return (1);
			i++;
		}
	}
	return (0);
}

/*
 * JSON allows no raw control character (U+0000 to U+001F) in a string, and
 * none but tab, line feed and carriage return between tokens. cJSON takes
 * them: any of them between tokens as white space, and in a string it
 * keeps them, cutting the value short at a NUL. So the text is checked
 * with its length before it is parsed. Returns the offset of the first
 * one, or -1.
 */
static ssize_t
util_json_raw_control(const char *s, size_t len)
{
	size_t		i;
	unsigned char	c;
	int		in_str = 0;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		/* An escaped byte ends no string, and is checked too. */
		if (in_str && c == '\\' && i + 1 < len)
			c = (unsigned char)s[++i];
		else if (c == '"')
			in_str = !in_str;
		if (c < 0x20 && (in_str ||
		    (c != '\t' && c != '\n' && c != '\r')))
			return ((ssize_t)i);
	}
	return (-1);
}

static int
util_jname_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * cJSON keeps every member of an object, and lookups find the first: a
 * repeated key would be half ignored. Returns the first repeated key.
 */
static const char *
util_json_dup_key(const cJSON *v)
{
	const cJSON	 *c;
	const char	**names, *dup = NULL;
	size_t		  n = 0, i;

	if (cJSON_IsObject(v)) {
		names = xreallocarray(NULL, (size_t)cJSON_GetArraySize(v) + 1,
		    sizeof *names);
		cJSON_ArrayForEach(c, v)
			names[n++] = c->string;
		qsort(names, n, sizeof *names, util_jname_cmp);
		for (i = 1; i < n && dup == NULL; i++) {
			if (strcmp(names[i - 1], names[i]) == 0)
				dup = names[i];
		}
		free(names);
	}
	for (c = v->child; c != NULL && dup == NULL; c = c->next)
		dup = util_json_dup_key(c);
	return (dup);
}

/*
 * Parse a JSON document; on failure return NULL and say where it went wrong
 * in *cause. Thread-safe: the error position comes from the parse end, not
 * cJSON's global error pointer.
 */
static cJSON *
util_jcheck(cJSON *v, const char *s, size_t len, char **cause)
{
	const char	*dup;

	if (util_json_has_nul(s, len)) {
		*cause = xstrdup("a JSON string holds \\u0000 (a NUL "
		    "character), which no field accepts");
		cJSON_Delete(v);
		return (NULL);
	}
	if ((dup = util_json_dup_key(v)) != NULL) {
		*cause = xprintf("duplicate key \"%.64s\" in a JSON object: "
		    "each key may appear once", dup);
		cJSON_Delete(v);
		return (NULL);
	}
	return (v);
}

cJSON *
util_jparse(const char *s, size_t len, char **cause)
{
	const char	*end = NULL;
	cJSON		*v;
	size_t		 off;
	char		 near[24];
	size_t		 i, n = 0;
	ssize_t		 at;

	if (!util_utf8_valid(s, len)) {
		*cause = xstrdup("request body is not valid UTF-8");
		return (NULL);
	}
	if ((at = util_json_raw_control(s, len)) >= 0) {
		if (s[at] == '\0')
			*cause = xprintf("a NUL byte at byte %zd of the JSON "
			    "text, which no field accepts", at);
		else
			*cause = xprintf("a raw control character (0x%02x) at "
			    "byte %zd of the JSON text: JSON takes one only "
			    "escaped, in a string (\\u%04x)",
			    (unsigned)s[at], at, (unsigned)s[at]);
		return (NULL);
	}
	v = cJSON_ParseWithLengthOpts(s, len, &end, 0);
	if (v != NULL) {
		/* Anything but white space after the value is an error. */
		off = (size_t)(end - s);
		while (off < len && isspace((unsigned char)s[off]))
			off++;
		if (off == len)
			return (util_jcheck(v, s, len, cause));
		cJSON_Delete(v);
	} else
		off = end != NULL && end >= s ? (size_t)(end - s) : 0;
	if (off > len)
		off = len;
	for (i = off; i < len && n < sizeof near - 1; i++) {
		if (s[i] == '\n' || s[i] == '\r')
			break;
		near[n++] = isprint((unsigned char)s[i]) ? s[i] : '?';
	}
	near[n] = '\0';
	if (len == 0)
		*cause = xstrdup("malformed JSON: the request body is empty");
	else if (off >= len || util_json_truncated(s, len))
		*cause = xprintf("malformed JSON: unexpected end of input "
		    "after %zu bytes", len);
	else
		*cause = xprintf("malformed JSON at byte %zu, near '%s'",
		    off, near);
	return (NULL);
}
