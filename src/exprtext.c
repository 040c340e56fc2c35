/*
 * The text of an expression being edited: a byte buffer of UTF-8 lines
 * with a cursor that never stops inside a character, and completion of
 * names from the scheme (expr_symbols).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exprtext.h"
#include "text.h"
#include "xmalloc.h"

static int
exprtext_cont(unsigned char c)
{
	return ((c & 0xc0) == 0x80);
}

void
exprtext_init(struct exprtext *t, const char *s)
{
	memset(t, 0, sizeof *t);
	t->buf = xcalloc(1, EXPRTEXT_MAX + 1);
	exprtext_set(t, s);
}

void
exprtext_free(struct exprtext *t)
{
	free(t->buf);
	memset(t, 0, sizeof *t);
}

void
exprtext_set(struct exprtext *t, const char *s)
{
	size_t	n = s != NULL ? strlen(s) : 0;

	if (n > EXPRTEXT_MAX)
		n = EXPRTEXT_MAX;
	/* Never keep a cut character. */
	while (n > 0 && s[n] != '\0' && exprtext_cont((unsigned char)s[n]))
		n--;
	if (n > 0)
		memcpy(t->buf, s, n);
	t->buf[n] = '\0';
	t->len = t->pos = n;
	exprtext_where(t, t->pos, NULL, &t->goal);
}

/* ---- positions ---------------------------------------------------------- */

static size_t
exprtext_prev(const struct exprtext *t, size_t pos)
{
	if (pos == 0)
		return (0);
	pos--;
	while (pos > 0 && exprtext_cont((unsigned char)t->buf[pos]))
		pos--;
	return (pos);
}

static size_t
exprtext_next(const struct exprtext *t, size_t pos)
{
	if (pos >= t->len)
		return (t->len);
	pos++;
	while (pos < t->len && exprtext_cont((unsigned char)t->buf[pos]))
		pos++;
	return (pos);
}

static size_t
exprtext_line_start(const struct exprtext *t, size_t pos)
{
	while (pos > 0 && t->buf[pos - 1] != '\n')
		pos--;
	return (pos);
}

static size_t
exprtext_line_end(const struct exprtext *t, size_t pos)
{
	while (pos < t->len && t->buf[pos] != '\n')
		pos++;
	return (pos);
}

/* The offset of character column col of the line starting at start. */
static size_t
exprtext_at_column(const struct exprtext *t, size_t start, size_t col)
{
	size_t	pos = start, end = exprtext_line_end(t, start);

	while (col-- > 0 && pos < end)
		pos = exprtext_next(t, pos);
	return (pos);
}

void
exprtext_where(const struct exprtext *t, size_t at, size_t *line,
    size_t *col)
{
	size_t	i, l = 0, c = 0;

	for (i = 0; i < at && i < t->len; i++) {
		if (t->buf[i] == '\n') {
			l++;
			c = 0;
		} else if (!exprtext_cont((unsigned char)t->buf[i]))
			c++;
	}
	if (line != NULL)
		*line = l;
	if (col != NULL)
		*col = c;
}

size_t
exprtext_column_offset(const char *s, int column)
{
	size_t	i = 0;
	int	c = 1;

	while (s[i] != '\0' && c < column) {
		i++;
		while (s[i] != '\0' && exprtext_cont((unsigned char)s[i]))
			i++;
		c++;
	}
	return (i);
}

/* ---- edits -------------------------------------------------------------- */

static void
exprtext_moved(struct exprtext *t)
{
	exprtext_where(t, t->pos, NULL, &t->goal);
}

static void
exprtext_cut(struct exprtext *t, size_t from, size_t to)
{
	memmove(t->buf + from, t->buf + to, t->len - to + 1);
	t->len -= to - from;
	t->pos = from;
	exprtext_moved(t);
}

/* n bytes of s at the cursor, if they fit. */
static int
exprtext_put(struct exprtext *t, const char *s, size_t n)
{
	if (n == 0 || t->len + n > EXPRTEXT_MAX)
		return (0);
	memmove(t->buf + t->pos + n, t->buf + t->pos, t->len - t->pos + 1);
	memcpy(t->buf + t->pos, s, n);
	t->len += n;
	t->pos += n;
	exprtext_moved(t);
	return (1);
}

int
exprtext_insert_char(struct exprtext *t, uint32_t cp)
{
	char	mb[4];
	size_t	n;

	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return (0);
	if (cp < 0x80) {
		mb[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		mb[0] = (char)(0xc0 | (cp >> 6));
		mb[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		mb[0] = (char)(0xe0 | (cp >> 12));
		mb[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		mb[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		mb[0] = (char)(0xf0 | (cp >> 18));
		mb[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		mb[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		mb[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return (exprtext_put(t, mb, n));
}

int
exprtext_insert(struct exprtext *t, const char *s)
{
	uint32_t	cp;
	size_t		n;
	int		changed = 0;

	while (*s != '\0') {
		if ((n = text_utf8_decode(s, strlen(s), &cp)) == 0) {
			s++;
			continue;
		}
		if (cp == '\n')
			changed |= exprtext_newline(t);
		else
			changed |= exprtext_insert_char(t, cp);
		s += n;
	}
	return (changed);
}

int
exprtext_newline(struct exprtext *t)
{
	return (exprtext_put(t, "\n", 1));
}

int
exprtext_backspace(struct exprtext *t)
{
	if (t->pos == 0)
		return (0);
	exprtext_cut(t, exprtext_prev(t, t->pos), t->pos);
	return (1);
}

int
exprtext_delete(struct exprtext *t)
{
	if (t->pos >= t->len)
		return (0);
	exprtext_cut(t, t->pos, exprtext_next(t, t->pos));
	return (1);
}

int
exprtext_kill_line(struct exprtext *t)
{
	size_t	end = exprtext_line_end(t, t->pos);

	if (end == t->pos)
		return (exprtext_delete(t));
	exprtext_cut(t, t->pos, end);
	return (1);
}

int
exprtext_kill_word(struct exprtext *t)
{
	size_t	p = t->pos;

	while (p > 0 && (t->buf[p - 1] == ' ' || t->buf[p - 1] == '\n'))
		p--;
	while (p > 0 && t->buf[p - 1] != ' ' && t->buf[p - 1] != '\n')
		p--;
	if (p == t->pos)
		return (0);
	exprtext_cut(t, p, t->pos);
	return (1);
}

/* ---- moves -------------------------------------------------------------- */

void
exprtext_left(struct exprtext *t)
{
	t->pos = exprtext_prev(t, t->pos);
	exprtext_moved(t);
}

void
exprtext_right(struct exprtext *t)
{
	t->pos = exprtext_next(t, t->pos);
	exprtext_moved(t);
}

void
exprtext_up(struct exprtext *t)
{
	size_t	start = exprtext_line_start(t, t->pos);

	if (start == 0) {
		t->pos = 0;
		return;
	}
	start = exprtext_line_start(t, start - 1);
	t->pos = exprtext_at_column(t, start, t->goal);
}

void
exprtext_down(struct exprtext *t)
{
	size_t	end = exprtext_line_end(t, t->pos);

	if (end >= t->len) {
		t->pos = t->len;
		return;
	}
	t->pos = exprtext_at_column(t, end + 1, t->goal);
}

void
exprtext_home(struct exprtext *t)
{
	t->pos = exprtext_line_start(t, t->pos);
	exprtext_moved(t);
}

void
exprtext_end(struct exprtext *t)
{
	t->pos = exprtext_line_end(t, t->pos);
	exprtext_moved(t);
}

/* ---- completion --------------------------------------------------------- */

static int
exprtext_name_char(char c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.');
}

size_t
exprtext_word(const struct exprtext *t, size_t *start)
{
	size_t	p = t->pos;

	while (p > 0 && exprtext_name_char(t->buf[p - 1]))
		p--;
	*start = p;
	return (t->pos - p);
}

size_t
exprtext_complete(const struct exprtext *t, const struct expr_options *o,
    const struct expr_symbol **out, size_t max)
{
	const struct expr_symbol	*syms;
	size_t				 nsyms, i, start, len, n = 0;

	len = exprtext_word(t, &start);
	syms = expr_symbols(&nsyms);
	for (i = 0; i < nsyms && n < max; i++) {
		if (strncmp(syms[i].name, t->buf + start, len) != 0 ||
		    !expr_symbol_allowed(&syms[i], o))
			continue;
		out[n++] = &syms[i];
	}
	return (n);
}

/* Replace the word before the cursor with n bytes of s. */
static int
exprtext_replace_word(struct exprtext *t, const char *s, size_t n)
{
	size_t	start, len = exprtext_word(t, &start);

	if (len == n && strncmp(t->buf + start, s, n) == 0)
		return (0);
	if (t->len - len + n > EXPRTEXT_MAX)
		return (0);
	exprtext_cut(t, start, t->pos);
	return (exprtext_put(t, s, n));
}

int
exprtext_accept(struct exprtext *t, const struct expr_symbol *s)
{
	char	*name;
	int	 rv;

	/* A function comes with its "(", unless one follows already. */
	name = s->function && t->buf[t->pos] != '(' ?
	    xprintf("%s(", s->name) : xstrdup(s->name);
	rv = exprtext_replace_word(t, name, strlen(name));
	free(name);
	return (rv);
}

int
exprtext_extend(struct exprtext *t, const struct expr_symbol *const *c,
    size_t n)
{
	size_t	i, common;

	if (n == 0)
		return (0);
	if (n == 1)
		return (exprtext_accept(t, c[0]));
	common = strlen(c[0]->name);
	for (i = 1; i < n; i++) {
		size_t	k = 0;

		while (k < common && c[i]->name[k] == c[0]->name[k])
			k++;
		common = k;
	}
	return (exprtext_replace_word(t, c[0]->name, common));
}
