/*
 * multipart/form-data request bodies (RFC 7578), parsed as they arrive: the
 * server feeds each piece of the body and keeps none of it; the parser holds
 * back only what may begin a delimiter or a part's unfinished headers. Each
 * part's contents are collected on their own, the whole bounded by the
 * server's cap on the body.
 *
 * Not libmicrohttpd's post processor (MHD_create_post_processor), which
 * would stream the same way: the one we link (0.9.75) reads parameters only
 * when quoted (name=file is lost), ends a quoted filename at an escaped
 * quote, skips malformed part headers and parts that are not form-data
 * without a word, takes a body with no boundary line at all for an empty
 * form, refuses an epilogue, and needs a live connection to read the
 * boundary from, so neither the unit tests nor the fuzz target could reach
 * it. Clients see the refusals below, which name what is wrong.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "multipart.h"
#include "xmalloc.h"

#define MULTIPART_BOUNDARY_MAX 70

/* The boundary parameter of a Content-Type value, or NULL. */
char *
multipart_boundary(const char *ct)
{
	const char	*p, *end;

	if (ct == NULL)
		return (NULL);
	for (p = ct; (p = strchr(p, ';')) != NULL; ) {
		p++;
		while (isspace((unsigned char)*p))
			p++;
		if (strncasecmp(p, "boundary=", 9) != 0)
			continue;
		p += 9;
		if (*p == '"') {
			p++;
			if ((end = strchr(p, '"')) == NULL)
				return (NULL);
		} else {
			end = p;
			while (*end != '\0' && *end != ';' &&
			    !isspace((unsigned char)*end))
				end++;
		}
		if (end == p || end - p > MULTIPART_BOUNDARY_MAX)
			return (NULL);
		return (xstrndup(p, (size_t)(end - p)));
	}
	return (NULL);
}

/* name="value" (or name=value) from a Content-Disposition header. */
static char *
multipart_disp_param(const char *v, size_t vlen, const char *name)
{
	size_t		 n = strlen(name), i = 0;
	const char	*end;
	struct buf	 b = BUF_INITIALIZER;

	while (i < vlen) {
		while (i < vlen && (v[i] == ';' || isspace((unsigned char)v[i])))
			i++;
		if (vlen - i > n && strncasecmp(v + i, name, n) == 0 &&
		    v[i + n] == '=') {
			i += n + 1;
			if (i < vlen && v[i] == '"') {
				for (i++; i < vlen && v[i] != '"'; i++) {
					if (v[i] == '\\' && i + 1 < vlen)
						i++;
					buf_addc(&b, v[i]);
				}
				return (buf_detach(&b, NULL));
			}
			end = memchr(v + i, ';', vlen - i);
			return (xstrndup(v + i, end != NULL ?
			    (size_t)(end - (v + i)) : vlen - i));
		}
		while (i < vlen && v[i] != ';') {
			if (v[i] == '"') {
				for (i++; i < vlen && v[i] != '"'; i++)
					;
			}
			i++;
		}
	}
	return (NULL);
}

static int
multipart_headers(struct multipart_part *part, const char *h, size_t hlen,
    char **cause)
{
	const char	*line = h, *eol, *colon, *v;
	size_t		 llen, vlen;
	int		 have_disp = 0;

	while (line < h + hlen) {
		eol = memmem(line, (size_t)(h + hlen - line), "\r\n", 2);
		llen = eol != NULL ? (size_t)(eol - line) :
		    (size_t)(h + hlen - line);
		colon = memchr(line, ':', llen);
		if (colon == NULL) {
			*cause = xstrdup("multipart: a part header has no ':'");
			return (-1);
		}
		v = colon + 1;
		while (v < line + llen && isspace((unsigned char)*v))
			v++;
		vlen = (size_t)(line + llen - v);
		if ((size_t)(colon - line) == 19 &&
		    strncasecmp(line, "Content-Disposition", 19) == 0) {
			if (vlen < 9 || strncasecmp(v, "form-data", 9) != 0) {
				*cause = xstrdup("multipart: Content-Disposition"
				    " is not form-data");
				return (-1);
			}
			free(part->name);
			free(part->filename);
			part->name = multipart_disp_param(v + 9, vlen - 9,
			    "name");
			part->filename = multipart_disp_param(v + 9, vlen - 9,
			    "filename");
			have_disp = 1;
		} else if ((size_t)(colon - line) == 12 &&
		    strncasecmp(line, "Content-Type", 12) == 0) {
			free(part->content_type);
			part->content_type = xstrndup(v, vlen);
		}
		if (eol == NULL)
			break;
		line = eol + 2;
	}
	if (!have_disp || part->name == NULL || *part->name == '\0') {
		*cause = xstrdup("multipart: a part has no Content-Disposition "
		    "name");
		return (-1);
	}
	return (0);
}

/*
 * Where the parser stands. START waits for the first bytes (a body may begin
 * with the delimiter without its CRLF); DELIM is just past a delimiter and
 * PAD past its "--" check, skipping transport padding up to the CRLF.
 */
enum multipart_state {
	MULTIPART_START,
	MULTIPART_PREAMBLE,
	MULTIPART_DELIM,
	MULTIPART_PAD,
	MULTIPART_HEADERS,
	MULTIPART_DATA,
	MULTIPART_DONE,
	MULTIPART_FAILED
};

struct multipart_stream {
	struct multipart	*mp;
	enum multipart_state	 state;
	char			 delim[MULTIPART_BOUNDARY_MAX + 5];
	size_t			 dlen;
	struct buf		 pend;	/* received, not yet consumed */
	size_t			 hscan;	/* headers: pend searched this far */
	struct buf		 data;	/* the current part's contents so far */
	char			*cause;	/* the first error, kept for the end */
};

/*
 * A parser fed the body as it arrives. A bad Content-Type is not refused
 * here: like every other error it is kept and given by multipart_stream_end,
 * so the server refuses a body only once it has all arrived (a body over
 * the size limit gets its 413 first).
 */
struct multipart_stream *
multipart_stream_new(const char *content_type)
{
	struct multipart_stream	*s;
	char			*boundary;

	s = xcalloc(1, sizeof *s);
	s->mp = xcalloc(1, sizeof *s->mp);
	buf_init(&s->pend);
	buf_init(&s->data);
	if ((boundary = multipart_boundary(content_type)) == NULL) {
		s->cause = xstrdup("multipart/form-data without a valid "
		    "boundary parameter");
		s->state = MULTIPART_FAILED;
		return (s);
	}
	/* Every delimiter but the first is preceded by CRLF. */
	s->dlen = (size_t)snprintf(s->delim, sizeof s->delim, "\r\n--%s",
	    boundary);
	free(boundary);
	s->state = MULTIPART_START;
	return (s);
}

static void
multipart_fail(struct multipart_stream *s, char *cause)
{
	s->cause = cause;
	s->state = MULTIPART_FAILED;
}

/* The current part's contents are complete: the part owns them. */
static void
multipart_part_end(struct multipart_stream *s)
{
	struct multipart_part	*part = &s->mp->parts[s->mp->nparts - 1];

	part->own = buf_detach(&s->data, &part->len);
	part->data = part->own;
}

/* Past a delimiter: "--" ends the body; else padding, CRLF, a new part. */
static size_t
multipart_pad(struct multipart_stream *s, const char *p, size_t avail,
    int final)
{
	size_t	ws = 0;

	while (ws < avail && (p[ws] == ' ' || p[ws] == '\t'))
		ws++;
	if (avail - ws < 2) {
		if (final)
			multipart_fail(s, xstrdup("multipart: malformed "
			    "boundary line"));
		return (ws);
	}
	if (p[ws] != '\r' || p[ws + 1] != '\n') {
		multipart_fail(s, xstrdup("multipart: malformed boundary "
		    "line"));
		return (0);
	}
	if (s->mp->nparts == MULTIPART_MAX_PARTS) {
		multipart_fail(s, xprintf("multipart: more than %d parts",
		    MULTIPART_MAX_PARTS));
		return (0);
	}
	s->mp->nparts++;
	s->hscan = 0;
	s->state = MULTIPART_HEADERS;
	return (ws + 2);
}

/* A part's header block, once it is whole (or the body has ended). */
static size_t
multipart_head(struct multipart_stream *s, const char *p, size_t avail,
    int final)
{
	struct multipart_part	*part = &s->mp->parts[s->mp->nparts - 1];
	const char		*hend;
	char			*cause = NULL;
	size_t			 from;

	if (avail < 2 && !final)
		return (0);
	/* Not from the start each time: headers may come a byte at a time. */
	from = s->hscan > 3 ? s->hscan - 3 : 0;
	if (avail >= 2 && p[0] == '\r' && p[1] == '\n')
		hend = p;
	else if ((hend = memmem(p + from, avail - from, "\r\n\r\n",
	    4)) == NULL) {
		if (final)
			multipart_fail(s, xstrdup("multipart: a part's "
			    "headers do not end"));
		s->hscan = avail;
		return (0);
	}
	if (multipart_headers(part, p, (size_t)(hend - p), &cause) != 0) {
		multipart_fail(s, cause);
		return (0);
	}
	buf_reset(&s->data);
	s->state = MULTIPART_DATA;
	return ((size_t)(hend - p) + (hend == p ? 2 : 4));
}

/*
 * Part contents up to the next delimiter. Without one in sight, all but
 * the last dlen - 1 bytes (which may begin a delimiter) are the part's.
 */
static size_t
multipart_body(struct multipart_stream *s, const char *p, size_t avail,
    int final)
{
	const char	*next;
	size_t		 n;

	if ((next = memmem(p, avail, s->delim, s->dlen)) != NULL) {
		buf_add(&s->data, p, (size_t)(next - p));
		multipart_part_end(s);
		s->state = MULTIPART_DELIM;
		return ((size_t)(next - p) + s->dlen);
	}
	if (final) {
		multipart_fail(s, xstrdup("multipart: the body ends inside a "
		    "part (no closing boundary)"));
		return (0);
	}
	if (avail < s->dlen)
		return (0);
	n = avail - (s->dlen - 1);
	buf_add(&s->data, p, n);
	return (n);
}

/*
 * Consume what can be decided from the pending bytes; final: no more will
 * come. Returns how many bytes were consumed.
 */
static size_t
multipart_run(struct multipart_stream *s, int final)
{
	const char		*p, *hit;
	size_t			 off = 0, avail, n;
	enum multipart_state	 was;

	if (s->pend.data == NULL)
		buf_reserve(&s->pend, 0);
	for (;;) {
		p = s->pend.data + off;
		avail = s->pend.len - off;
		was = s->state;
		n = 0;
		switch (s->state) {
		case MULTIPART_START:
			if (avail < s->dlen - 2 && !final)
				return (off);
			if (avail >= s->dlen - 2 &&
			    memcmp(p, s->delim + 2, s->dlen - 2) == 0) {
				n = s->dlen - 2;
				s->state = MULTIPART_DELIM;
			} else
				s->state = MULTIPART_PREAMBLE;
			break;
		case MULTIPART_PREAMBLE:
			if ((hit = memmem(p, avail, s->delim,
			    s->dlen)) != NULL) {
				n = (size_t)(hit - p) + s->dlen;
				s->state = MULTIPART_DELIM;
			} else if (final)
				multipart_fail(s, xstrdup("multipart: the body "
				    "has no boundary line"));
			else if (avail >= s->dlen)
				n = avail - (s->dlen - 1);
			break;
		case MULTIPART_DELIM:
			if (avail < 2 && !final)
				return (off);
			if (avail >= 2 && p[0] == '-' && p[1] == '-')
				s->state = MULTIPART_DONE;
			else
				s->state = MULTIPART_PAD;
			break;
		case MULTIPART_PAD:
			n = multipart_pad(s, p, avail, final);
			break;
		case MULTIPART_HEADERS:
			n = multipart_head(s, p, avail, final);
			break;
		case MULTIPART_DATA:
			n = multipart_body(s, p, avail, final);
			break;
		case MULTIPART_DONE:
			/* The epilogue is ignored (RFC 2046, 5.1.1). */
			return (s->pend.len);
		case MULTIPART_FAILED:
			return (s->pend.len);
		}
		off += n;
		if (n == 0 && s->state == was)
			return (off);
	}
}

/* Some more of the body; -1 once it is known to be malformed. */
int
multipart_stream_feed(struct multipart_stream *s, const char *data,
    size_t len)
{
	size_t	used;

	if (s->state == MULTIPART_FAILED)
		return (-1);
	if (s->state == MULTIPART_DONE || len == 0)
		return (0);
	buf_add(&s->pend, data, len);
	used = multipart_run(s, 0);
	if (used == s->pend.len)
		buf_reset(&s->pend);
	else if (used != 0) {
		memmove(s->pend.data, s->pend.data + used, s->pend.len - used);
		s->pend.len -= used;
		s->pend.data[s->pend.len] = '\0';
	}
	return (s->state == MULTIPART_FAILED ? -1 : 0);
}

/* The body has ended: its parts, or NULL with *cause. Frees s. */
struct multipart *
multipart_stream_end(struct multipart_stream *s, char **cause)
{
	struct multipart	*mp = NULL;

	if (s->state != MULTIPART_FAILED && s->state != MULTIPART_DONE)
		multipart_run(s, 1);
	if (s->state == MULTIPART_FAILED) {
		*cause = s->cause;
		s->cause = NULL;
	} else {
		mp = s->mp;
		s->mp = NULL;
	}
	multipart_stream_free(s);
	return (mp);
}

void
multipart_stream_free(struct multipart_stream *s)
{
	if (s == NULL)
		return;
	multipart_free(s->mp);
	buf_free(&s->pend);
	buf_free(&s->data);
	free(s->cause);
	free(s);
}

/* A whole body at once (tests and fuzzing; the server streams). */
struct multipart *
multipart_parse(const char *content_type, const char *body, size_t len,
    char **cause)
{
	struct multipart_stream	*s = multipart_stream_new(content_type);

	multipart_stream_feed(s, body, len);
	return (multipart_stream_end(s, cause));
}

void
multipart_free(struct multipart *mp)
{
	size_t	i;

	if (mp == NULL)
		return;
	for (i = 0; i < mp->nparts; i++) {
		free(mp->parts[i].name);
		free(mp->parts[i].filename);
		free(mp->parts[i].content_type);
		free(mp->parts[i].own);
	}
	free(mp);
}

const struct multipart_part *
multipart_get(const struct multipart *mp, const char *name)
{
	size_t	i;

	for (i = 0; mp != NULL && i < mp->nparts; i++) {
		if (strcmp(mp->parts[i].name, name) == 0)
			return (&mp->parts[i]);
	}
	return (NULL);
}

/* A part's contents as a NUL-terminated string, or NULL if absent. */
char *
multipart_text(const struct multipart *mp, const char *name)
{
	const struct multipart_part	*part = multipart_get(mp, name);

	if (part == NULL)
		return (NULL);
	return (xstrndup(part->data, part->len));
}
