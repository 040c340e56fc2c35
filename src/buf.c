/* A growable byte buffer, always NUL-terminated so it can be read as text. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "xmalloc.h"

void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = b->size = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

/* Make room for at least n more bytes plus the terminating NUL. */
void
buf_reserve(struct buf *b, size_t n)
{
	size_t	need, size;

	if (n > SIZE_MAX - b->len - 1)
		fatalx("buf_reserve: %zu bytes is too large", n);
	need = b->len + n + 1;
	if (need <= b->size)
		return;
	size = b->size == 0 ? 64 : b->size;
	while (size < need)
		size = size > SIZE_MAX / 2 ? need : size * 2;
	b->data = xrealloc(b->data, size);
	b->size = size;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	if (n != 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addvf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	aq;
	int	n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		fatalx("buf_addvf: bad format");
	buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	buf_addvf(b, fmt, ap);
	va_end(ap);
}

void
buf_truncate(struct buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->data[len] = '\0';
	}
}

/* Hand the bytes to the caller (never NULL) and leave the buffer empty. */
char *
buf_detach(struct buf *b, size_t *lenp)
{
	char	*p;

	if (b->data == NULL)
		buf_reserve(b, 0);
	p = b->data;
	p[b->len] = '\0';
	if (lenp != NULL)
		*lenp = b->len;
	buf_init(b);
	return (p);
}

const char *
buf_str(const struct buf *b)
{
	return (b->data != NULL ? b->data : "");
}
