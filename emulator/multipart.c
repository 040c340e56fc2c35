/*
 * multipart/form-data request bodies (RFC 7578). The body is already in
 * memory (capped by the server); parts point into it.
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

static const char *
multipart_memmem(const char *h, size_t hlen, const char *n, size_t nlen)
{
	return (memmem(h, hlen, n, nlen));
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
		eol = multipart_memmem(line, (size_t)(h + hlen - line), "\r\n", 2);
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

struct multipart *
multipart_parse(const char *content_type, const char *body, size_t len,
    char **cause)
{
	struct multipart	*mp;
	struct multipart_part	*part;
	char			*boundary, delim[MULTIPART_BOUNDARY_MAX + 5];
	const char		*p, *end = body + len, *hend, *next;
	size_t			 dlen;

	if ((boundary = multipart_boundary(content_type)) == NULL) {
		*cause = xstrdup("multipart/form-data without a valid "
		    "boundary parameter");
		return (NULL);
	}
	/* Every delimiter but the first is preceded by CRLF. */
	dlen = (size_t)snprintf(delim, sizeof delim, "\r\n--%s", boundary);
	free(boundary);
	mp = xcalloc(1, sizeof *mp);

	if (len >= dlen - 2 && memcmp(body, delim + 2, dlen - 2) == 0)
		p = body + dlen - 2;
	else if ((p = multipart_memmem(body, len, delim, dlen)) != NULL)
		p += dlen;
	else {
		*cause = xstrdup("multipart: the body has no boundary line");
		goto fail;
	}
	for (;;) {
		/* p is just past a delimiter: "--" ends, CRLF starts a part. */
		if (end - p >= 2 && p[0] == '-' && p[1] == '-')
			break;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p < 2 || p[0] != '\r' || p[1] != '\n') {
			*cause = xstrdup("multipart: malformed boundary line");
			goto fail;
		}
		p += 2;
		if (mp->nparts == MULTIPART_MAX_PARTS) {
			*cause = xprintf("multipart: more than %d parts",
			    MULTIPART_MAX_PARTS);
			goto fail;
		}
		part = &mp->parts[mp->nparts++];
		if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')
			hend = p;
		else if ((hend = multipart_memmem(p, (size_t)(end - p),
		    "\r\n\r\n", 4)) == NULL) {
			*cause = xstrdup("multipart: a part's headers do not "
			    "end");
			goto fail;
		}
		if (multipart_headers(part, p, (size_t)(hend - p), cause) != 0)
			goto fail;
		p = hend + (hend == p ? 2 : 4);
		next = multipart_memmem(p, (size_t)(end - p), delim, dlen);
		if (next == NULL) {
			*cause = xstrdup("multipart: the body ends inside a "
			    "part (no closing boundary)");
			goto fail;
		}
		part->data = p;
		part->len = (size_t)(next - p);
		p = next + dlen;
	}
	return (mp);

fail:
	multipart_free(mp);
	return (NULL);
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
