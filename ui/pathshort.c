/*
 * The request log's PATH column: a path of the API is long (an account
 * or a zone id of 32 digits first) and what differs between two requests
 * is mostly at its end, so the middle gives way, never the end.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "text.h"
#include "xmalloc.h"

#include "pathshort.h"

#define PATHSHORT_ID_MIN	16	/* hex digits that make an id */
#define PATHSHORT_ID_KEEP	4	/* of them kept */
#define PATHSHORT_MAX_SEGS	64

struct pathshort {
	char	*prefix;			/* "https://host" or "" */
	char	*seg[PATHSHORT_MAX_SEGS];	/* without their '/' */
	size_t	 n;
};

static int
pathshort_is_id(const char *s, size_t len)
{
	size_t	i, hex = 0;

	for (i = 0; i < len; i++) {
		if (isxdigit((unsigned char)s[i]))
			hex++;
		else if (s[i] != '-')
			return (0);
	}
	/* A UUID is 32 digits and four dashes. */
	return (hex >= PATHSHORT_ID_MIN && (hex == len ||
	    (hex == 32 && len == 36)));
}

/* Split path into its prefix and segments, ids shortened. */
static int
pathshort_split(const char *path, struct pathshort *ps)
{
	const char	*s = path, *end, *q;
	size_t		 len;

	memset(ps, 0, sizeof *ps);
	if ((q = strstr(s, "://")) != NULL && q < s + strcspn(s, "/"))
		s = q + 3 + strcspn(q + 3, "/");
	ps->prefix = xstrndup(path, (size_t)(s - path));
	if (*s == '/')
		s++;
	while (*s != '\0') {
		if (ps->n == PATHSHORT_MAX_SEGS)
			return (-1);
		end = s + strcspn(s, "/");
		len = (size_t)(end - s);
		if (pathshort_is_id(s, len))
			ps->seg[ps->n++] = xprintf("%.*s…", PATHSHORT_ID_KEEP,
			    s);
		else
			ps->seg[ps->n++] = xstrndup(s, len);
		s = *end == '/' ? end + 1 : end;
	}
	return (0);
}

static void
pathshort_free(struct pathshort *ps)
{
	size_t	i;

	for (i = 0; i < ps->n; i++)
		free(ps->seg[i]);
	free(ps->prefix);
}

/*
 * The head (prefix and first nhead segments, or "…" for none), "/…" when
 * segments are left out, then the segments from tail on.
 */
static char *
pathshort_join(const struct pathshort *ps, size_t nhead, size_t tail)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	if (nhead == 0 && tail > 0)
		buf_adds(&b, "…");
	else
		buf_adds(&b, ps->prefix);
	for (i = 0; i < nhead && i < tail; i++)
		buf_addf(&b, "/%s", ps->seg[i]);
	if (nhead > 0 && tail > nhead)
		buf_adds(&b, "/…");
	for (i = tail; i < ps->n; i++)
		buf_addf(&b, "/%s", ps->seg[i]);
	return (buf_detach(&b, NULL));
}

/* The head and most of the last segments that fit, keeping least; NULL. */
static char *
pathshort_tail(const struct pathshort *ps, size_t nhead, size_t least,
    size_t width)
{
	char	*s, *best = NULL;
	size_t	 tail;

	for (tail = ps->n; tail > nhead && ps->n - tail < least; tail--)
		;
	/* From fewest of the last segments to most, while they fit. */
	for (; tail > nhead; tail--) {
		s = pathshort_join(ps, nhead, tail);
		if (text_width(s) > width) {
			free(s);
			break;
		}
		free(best);
		best = s;
	}
	return (best);
}

/* A path without its query in width columns. */
static char *
pathshort_path(const char *path, size_t width)
{
	struct pathshort	 ps;
	char			*s;
	const char		*p;
	size_t			 w;

	if (text_width(path) <= width)
		return (xstrdup(path));
	if (pathshort_split(path, &ps) == -1) {
		pathshort_free(&ps);
		s = NULL;
	} else {
		s = pathshort_join(&ps, ps.n, ps.n);
		if (text_width(s) > width) {
			free(s);
			/* The first two and at least two of the last... */
			s = ps.n > 4 ? pathshort_tail(&ps, 2, 2, width) : NULL;
			/* ...else as many of the last as fit. */
			if (s == NULL)
				s = pathshort_tail(&ps, 0, 1, width);
		}
		pathshort_free(&ps);
	}
	if (s != NULL)
		return (s);
	/* Not even the last segment: its last columns. */
	if (width == 0)
		return (xstrdup(""));
	for (p = path, w = text_width(p); w > width - 1 && *p != '\0';
	    w = text_width(p)) {
		p++;
		while (((unsigned char)*p & 0xc0) == 0x80)
			p++;
	}
	return (xprintf("…%s", p));
}

char *
pathshort(const char *path, size_t width)
{
	const char	*q = strchr(path, '?');
	char		*base, *s, *query, *out;
	size_t		 used;

	if (text_width(path) <= width)
		return (xstrdup(path));
	/* The path first; of the query ("?page=2") what room is left. */
	base = q != NULL ? xstrndup(path, (size_t)(q - path)) : xstrdup(path);
	s = pathshort_path(base, width);
	free(base);
	used = text_width(s);
	if (q == NULL || used + 2 > width)
		return (s);
	query = text_ellipsize(q, width - used, "…");
	out = xprintf("%s%s", s, query);
	free(query);
	free(s);
	return (out);
}
