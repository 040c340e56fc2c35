/*
 * Secret redaction: the secret fields are read from the kind descriptors
 * once, then every member of a document is judged by its path of keys, so
 * a record is redacted the same inside an envelope, a list or alone.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "kind.h"
#include "log.h"
#include "redact.h"
#include "xmalloc.h"

/*
 * Names that hold secrets wherever they appear, as the last key or its
 * ending: what the API returns outside any described kind (a live input's
 * outputs' streamKey, signed tokens) is covered too.
 */
static const char *const redact_names[] = {
	"secret", "streamKey", "passphrase", "pem", "jwk", "token"
};

/* The KIND_F_SECRET field paths of every kind, "[]" steps removed. */
static char		**redact_marks;
static size_t		  redact_nmarks;
static pthread_once_t	  redact_once = PTHREAD_ONCE_INIT;

static char *
redact_strip_steps(const char *path)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p;

	for (p = path; *p != '\0'; p++) {
		if (p[0] == '[' && p[1] == ']')
			p++;
		else
			buf_addc(&b, *p);
	}
	return (buf_detach(&b, NULL));
}

static void
redact_load(void)
{
	const struct kind *const	*all;
	const struct kind_field		*f;
	size_t				 n, i, size = 0;

	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		for (f = all[i]->fields; f != NULL && f->path != NULL; f++) {
			if ((f->flags & KIND_F_SECRET) == 0)
				continue;
			if (redact_nmarks == size) {
				size = size == 0 ? 16 : size * 2;
				redact_marks = xreallocarray(redact_marks,
				    size, sizeof *redact_marks);
			}
			redact_marks[redact_nmarks++] =
			    redact_strip_steps(f->path);
		}
	}
}

static int
redact_name_is_secret(const char *name, size_t len)
{
	size_t	i, n;

	for (i = 0; i < nitems(redact_names); i++) {
		n = strlen(redact_names[i]);
		if (len >= n && strncasecmp(name + len - n, redact_names[i],
		    n) == 0)
			return (1);
	}
	return (0);
}

int
redact_path_is_secret(const char *path)
{
	const char	*last;
	size_t		 len = strlen(path), n, i;

	pthread_once(&redact_once, redact_load);
	for (i = 0; i < redact_nmarks; i++) {
		n = strlen(redact_marks[i]);
		if (len < n || strcmp(path + len - n, redact_marks[i]) != 0)
			continue;
		/* On a key boundary: "url" is not a mark of "myurl". */
		if (len == n || path[len - n - 1] == '.')
			return (1);
	}
	last = strrchr(path, '.');
	last = last != NULL ? last + 1 : path;
	return (redact_name_is_secret(last, strlen(last)));
}

static size_t
redact_walk(cJSON *v, struct buf *path, const char *mask)
{
	cJSON	*c, *next, *r;
	size_t	 at = path->len, hid = 0;

	for (c = v->child; c != NULL; c = next) {
		next = c->next;
		if (!cJSON_IsObject(v) || c->string == NULL) {
			hid += redact_walk(c, path, mask);
			continue;
		}
		if (at != 0)
			buf_addc(path, '.');
		buf_adds(path, c->string);
		if (cJSON_IsNull(c) || !redact_path_is_secret(buf_str(path))) {
			hid += redact_walk(c, path, mask);
			buf_truncate(path, at);
			continue;
		}
		buf_truncate(path, at);
		if ((r = cJSON_CreateString(mask)) == NULL)
			fatalx("redact: out of memory");
		/* The replacement takes over the key. */
		r->string = c->string;
		r->type |= c->type & cJSON_StringIsConst;
		c->string = NULL;
		c->type &= ~cJSON_StringIsConst;
		cJSON_ReplaceItemViaPointer(v, c, r);
		hid++;
	}
	return (hid);
}

size_t
redact_json(cJSON *v, const char *mask)
{
	struct buf	path = BUF_INITIALIZER;
	size_t		hid;

	if (v == NULL)
		return (0);
	hid = redact_walk(v, &path, mask != NULL ? mask : REDACT_MASK);
	buf_free(&path);
	return (hid);
}

/* Text, not bytes: no NUL and valid-looking UTF-8 (no stray 0xff/0xfe). */
static int
redact_is_text(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\0' || (unsigned char)s[i] >= 0xfe)
			return (0);
	}
	return (1);
}

/* cJSON indents with tabs, which a terminal shows as one blank. */
static void
redact_add_indented(struct buf *b, const char *text)
{
	const char	*start = text;

	for (; *text != '\0'; text++) {
		if (*text == '\t' && text > start && text[-1] == ':')
			buf_addc(b, ' ');
		else if (*text == '\t')
			buf_adds(b, "  ");
		else
			buf_addc(b, *text);
	}
}

char *
redact_body(const char *s, size_t len, size_t max, int flags)
{
	struct buf	 b = BUF_INITIALIZER;
	cJSON		*j;
	char		*text;
	size_t		 cut;

	if (s == NULL || len == 0)
		return (xstrdup(""));
	if (!redact_is_text(s, len))
		return (xprintf("[%zu bytes of binary data]", len));
	j = cJSON_ParseWithLength(s, len);
	if (j != NULL) {
		redact_json(j, NULL);
		text = (flags & REDACT_LINE) ? cJSON_PrintUnformatted(j) :
		    cJSON_Print(j);
		if (text == NULL)
			fatalx("redact: out of memory");
		redact_add_indented(&b, text);
		cJSON_free(text);
		cJSON_Delete(j);
	} else
		buf_add(&b, s, len);
	if (max != 0 && b.len > max) {
		cut = max;
		/* Not inside a UTF-8 character. */
		while (cut > 0 && ((unsigned char)b.data[cut] & 0xc0) == 0x80)
			cut--;
		len = b.len - cut;
		buf_truncate(&b, cut);
		buf_addf(&b, "\n[... %zu more bytes not kept]", len);
	}
	return (buf_detach(&b, NULL));
}
