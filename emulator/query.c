/*
 * Query strings: percent-decoding, list keys and typed reads with
 * messages that name the parameter and the rule it broke.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "encode.h"
#include "query.h"
#include "text.h"
#include "util.h"
#include "xmalloc.h"

#define QUERY_MAX_PARAMS 256

/* Decode one key or value; refuses bad escapes, NUL and invalid UTF-8. */
static char *
query_decode(const char *s, size_t len, char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;
	int		hi, lo;

	buf_reserve(&b, len);
	for (i = 0; i < len; i++) {
		if (s[i] == '+')
			buf_addc(&b, ' ');
		else if (s[i] == '%') {
			if (len - i < 3) {
				*cause = xstrdup("truncated percent-escape in "
				    "the query string");
				goto fail;
			}
			hi = encode_hexval((unsigned char)s[i + 1]);
			lo = encode_hexval((unsigned char)s[i + 2]);
			if (hi < 0 || lo < 0) {
				*cause = xstrdup("invalid percent-escape in "
				    "the query string");
				goto fail;
			}
			if (hi == 0 && lo == 0) {
				*cause = xstrdup("NUL byte in the query string");
				goto fail;
			}
			buf_addc(&b, (char)(hi << 4 | lo));
			i += 2;
		} else
			buf_addc(&b, s[i]);
	}
	if (!util_utf8_valid(buf_str(&b), b.len)) {
		*cause = xstrdup("the query string is not valid UTF-8");
		goto fail;
	}
	return (buf_detach(&b, NULL));

fail:
	buf_free(&b);
	return (NULL);
}

/*
 * The parameters the API takes as lists (host=a&host=b, or host[]=a&...).
 * Any other given twice is refused: which of its two values counts would
 * be a guess (dry_run=true&dry_run=false).
 */
static const char *const query_lists[] = {
	"host", "method", "feature", "properties", NULL
};

/* A key's length without the "[]" that lists may carry. */
static size_t
query_base_len(const char *key)
{
	size_t	n = strlen(key);

	if (n >= 2 && strcmp(key + n - 2, "[]") == 0)
		n -= 2;
	return (n);
}

/* The last parameter parsed repeats an earlier one that is no list. */
static int
query_repeated(const struct query *q, char **cause)
{
	const char	*key = q->v[q->n - 1].key;
	size_t		 n = query_base_len(key), i;

	for (i = 0; query_lists[i] != NULL; i++) {
		if (strlen(query_lists[i]) == n &&
		    strncmp(query_lists[i], key, n) == 0)
			return (0);
	}
	for (i = 0; i + 1 < q->n; i++) {
		if (query_base_len(q->v[i].key) == n &&
		    strncmp(q->v[i].key, key, n) == 0) {
			*cause = xprintf("%.*s: given more than once in the "
			    "query string (it takes one value)",
			    (int)MINIMUM(n, (size_t)text_quote_len(key)), key);
			return (1);
		}
	}
	return (0);
}

int
query_parse(struct query *q, const char *raw, char **cause)
{
	const char	*p = raw, *end, *eq;
	size_t		 len;
	char		*key, *value;

	q->v = NULL;
	q->n = 0;
	if (raw == NULL)
		return (0);
	while (*p != '\0') {
		end = strchr(p, '&');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len != 0) {
			if (q->n == QUERY_MAX_PARAMS) {
				*cause = xprintf("too many query parameters "
				    "(at most %d)", QUERY_MAX_PARAMS);
				goto fail;
			}
			eq = memchr(p, '=', len);
			key = query_decode(p, eq != NULL ? (size_t)(eq - p) :
			    len, cause);
			if (key == NULL)
				goto fail;
			value = eq != NULL ? query_decode(eq + 1,
			    len - (size_t)(eq + 1 - p), cause) : xstrdup("");
			if (value == NULL) {
				free(key);
				goto fail;
			}
			q->v = xreallocarray(q->v, q->n + 1, sizeof *q->v);
			q->v[q->n].key = key;
			q->v[q->n].value = value;
			q->n++;
			if (query_repeated(q, cause))
				goto fail;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	return (0);

fail:
	query_free(q);
	return (-1);
}

void
query_free(struct query *q)
{
	size_t	i;

	for (i = 0; i < q->n; i++) {
		free(q->v[i].key);
		free(q->v[i].value);
	}
	free(q->v);
	q->v = NULL;
	q->n = 0;
}

/* "host" matches "host" and "host[]". */
static int
query_key_matches(const char *have, const char *want)
{
	size_t	n = strlen(want);

	if (strncmp(have, want, n) != 0)
		return (0);
	return (have[n] == '\0' || strcmp(have + n, "[]") == 0);
}

/* The value given for a key; of a list's, the last. */
const char *
query_get(const struct query *q, const char *key)
{
	size_t	i;

	for (i = q->n; i > 0; i--) {
		if (query_key_matches(q->v[i - 1].key, key))
			return (q->v[i - 1].value);
	}
	return (NULL);
}

/* Every value of a repeated key, in order; returns how many there are. */
size_t
query_values(const struct query *q, const char *key, const char **out,
    size_t max)
{
	size_t	i, n = 0;

	for (i = 0; i < q->n; i++) {
		if (!query_key_matches(q->v[i].key, key))
			continue;
		if (n < max)
			out[n] = q->v[i].value;
		n++;
	}
	return (n);
}

int
query_long(const struct query *q, const char *key, long min, long max,
    long def, long *out, char **cause)
{
	const char	*s = query_get(q, key);
	char		*end;
	long		 v;

	if (s == NULL) {
		*out = def;
		return (0);
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || isspace((unsigned char)*s)) {
		*cause = xprintf("%s: '%s' is not a whole number", key, s);
		return (-1);
	}
	if (v < min || v > max) {
		*cause = xprintf("%s: %ld is out of range (%ld to %ld)", key, v,
		    min, max);
		return (-1);
	}
	*out = v;
	return (0);
}

int
query_bool(const struct query *q, const char *key, int def, int *out,
    char **cause)
{
	const char	*s = query_get(q, key);

	if (s == NULL)
		*out = def;
	else if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
		*out = 1;
	else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
		*out = 0;
	else {
		*cause = xprintf("%s: '%s' is not a boolean (true or false)",
		    key, s);
		return (-1);
	}
	return (0);
}

static int
query_check_enum(const char *key, const char *s, const char *const *allowed,
    char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; allowed[i] != NULL; i++) {
		if (strcmp(s, allowed[i]) == 0)
			return (0);
	}
	for (i = 0; allowed[i] != NULL; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ", allowed[i]);
	*cause = xprintf("%s: '%s' is not one of %s", key, s, buf_str(&b));
	buf_free(&b);
	return (-1);
}

/* *out is NULL when the parameter is absent. */
int
query_enum(const struct query *q, const char *key, const char *const *allowed,
    const char **out, char **cause)
{
	const char	*s = query_get(q, key);

	*out = NULL;
	if (s == NULL)
		return (0);
	if (query_check_enum(key, s, allowed, cause) != 0)
		return (-1);
	*out = s;
	return (0);
}

int
query_enums(const struct query *q, const char *key, const char *const *allowed,
    const char **out, size_t max, size_t *n, char **cause)
{
	size_t	i;

	*n = query_values(q, key, out, max);
	if (*n > max) {
		*cause = xprintf("%s: at most %zu values", key, max);
		return (-1);
	}
	for (i = 0; allowed != NULL && i < *n; i++) {
		if (query_check_enum(key, out[i], allowed, cause) != 0)
			return (-1);
	}
	return (0);
}

/*
 * page and per_page. per_page runs from min to max; with a step (not 0) it
 * must also be 1 or a multiple of it (legacy rate limits').
 */
int
query_paging(const struct query *q, long def, long min, long max, long step,
    struct paging *p, char **cause)
{
	if (query_long(q, "page", 1, 1000000000L, 1, &p->page, cause) != 0)
		return (-1);
	if (query_long(q, "per_page", min, max, def, &p->per_page, cause) != 0)
		return (-1);
	if (step != 0 && p->per_page != 1 && p->per_page % step != 0) {
		*cause = xprintf("per_page: %ld must be 1 or a multiple of %ld",
		    p->per_page, step);
		return (-1);
	}
	return (0);
}
