/*
 * A one-line text editor: UTF-8 text, a cursor, the usual keys (arrows,
 * Home/End, Backspace/Delete, C-a C-e C-u C-k C-w), and a selection of
 * the whole text that the first character typed replaces.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "line.h"
#include "screen.h"

void
line_set(struct line *l, const char *s)
{
	size_t	n = s != NULL ? strlen(s) : 0;

	if (n >= sizeof l->buf)
		n = sizeof l->buf - 1;
	/* Do not keep a cut UTF-8 sequence. */
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	if (n > 0)
		memcpy(l->buf, s, n);
	l->buf[n] = '\0';
	l->len = l->pos = n;
	l->selected = 0;
}

void
line_select(struct line *l)
{
	l->selected = l->len > 0;
}

static size_t
line_prev(const struct line *l, size_t pos)
{
	if (pos == 0)
		return (0);
	pos--;
	while (pos > 0 && ((unsigned char)l->buf[pos] & 0xc0) == 0x80)
		pos--;
	return (pos);
}

static size_t
line_next(const struct line *l, size_t pos)
{
	if (pos >= l->len)
		return (l->len);
	pos++;
	while (pos < l->len && ((unsigned char)l->buf[pos] & 0xc0) == 0x80)
		pos++;
	return (pos);
}

static void
line_cut(struct line *l, size_t from, size_t to)
{
	memmove(l->buf + from, l->buf + to, l->len - to + 1);
	l->len -= to - from;
	l->pos = from;
}

static int
line_insert(struct line *l, int key)
{
	char		 mb[8];
	mbstate_t	 ps;
	size_t		 n;

	if (key < 0x20 || key == 0x7f || key > 0x10ffff ||
	    (key >= KEY_MIN && key <= KEY_MAX && key < 0x80))
		return (0);
	memset(&ps, 0, sizeof ps);
	if ((n = wcrtomb(mb, (wchar_t)key, &ps)) == (size_t)-1)
		return (0);
	if (l->len + n >= sizeof l->buf)
		return (LINE_MOVED);
	memmove(l->buf + l->pos + n, l->buf + l->pos, l->len - l->pos + 1);
	memcpy(l->buf + l->pos, mb, n);
	l->len += n;
	l->pos += n;
	return (LINE_CHANGED);
}

/* A character typed; over a selection, it replaces the text. */
static int
line_type(struct line *l, int key, int selected)
{
	struct line	before;
	int		rc;

	if (!selected)
		return (line_insert(l, key));
	before = *l;
	line_cut(l, 0, l->len);
	if ((rc = line_insert(l, key)) != LINE_CHANGED) {
		*l = before;
		l->selected = 1;
	}
	return (rc);
}

int
line_key(struct line *l, int key)
{
	size_t	p;
	int	was = l->selected;

	l->selected = 0;
	switch (key) {
	case KEY_LEFT:
		l->pos = line_prev(l, l->pos);
		return (LINE_MOVED);
	case KEY_RIGHT:
		l->pos = line_next(l, l->pos);
		return (LINE_MOVED);
	case KEY_HOME:
	case 'A' & 0x1f:
		l->pos = 0;
		return (LINE_MOVED);
	case KEY_END:
	case 'E' & 0x1f:
		l->pos = l->len;
		return (LINE_MOVED);
	case KEY_BACKSPACE:
	case 0x7f:
	case 'H' & 0x1f:
		/* Over a selection, it goes whole (a filter cleared). */
		if (was && l->len > 0) {
			line_cut(l, 0, l->len);
			return (LINE_CHANGED);
		}
		if (l->pos == 0)
			return (LINE_MOVED);
		line_cut(l, line_prev(l, l->pos), l->pos);
		return (LINE_CHANGED);
	case KEY_DC:
	case 'D' & 0x1f:
		if (was && l->len > 0) {
			line_cut(l, 0, l->len);
			return (LINE_CHANGED);
		}
		if (l->pos == l->len)
			return (LINE_MOVED);
		line_cut(l, l->pos, line_next(l, l->pos));
		return (LINE_CHANGED);
	case 'U' & 0x1f:
		line_cut(l, 0, l->pos);
		return (LINE_CHANGED);
	case 'K' & 0x1f:
		l->buf[l->pos] = '\0';
		l->len = l->pos;
		return (LINE_CHANGED);
	case 'W' & 0x1f:
		p = l->pos;
		while (p > 0 && l->buf[p - 1] == ' ')
			p--;
		while (p > 0 && l->buf[p - 1] != ' ')
			p--;
		line_cut(l, p, l->pos);
		return (LINE_CHANGED);
	default:
		if (key >= KEY_MIN && key <= KEY_MAX) {
			l->selected = was;
			return (0);
		}
		return (line_type(l, key, was));
	}
}

void
line_draw(const struct line *l, int y, int x, int w, attr_t attr, int focus)
{
	char	tmp[LINE_MAX_BYTES];
	size_t	start = 0;
	int	col;

	if (w <= 1)
		return;
	/* Scroll by whole characters until the cursor fits. */
	for (;;) {
		memcpy(tmp, l->buf + start, l->pos - start);
		tmp[l->pos - start] = '\0';
		if (start >= l->pos || (int)mbstowcs(NULL, tmp, 0) < w - 1)
			break;
		start++;
		while (start < l->pos &&
		    ((unsigned char)l->buf[start] & 0xc0) == 0x80)
			start++;
	}
	screen_fill(y, x, w, attr);
	/* Reversed while selected: typing replaces what shows so. */
	if (l->selected)
		attr ^= A_REVERSE;
	screen_put(y, x, w, l->buf + start, attr);
	if (focus) {
		col = screen_put(y, x, w, tmp, attr);
		screen_want_cursor(y, x + col);
	}
}

/* The line on the screen's last row after a one-column prompt ("/"). */
void
line_draw_bottom(const struct line *l, const char *prompt)
{
	attr_t	a = screen_role(THEME_ROLE_INPUT);

	screen_fill(LINES - 1, 0, COLS, a);
	screen_put(LINES - 1, 0, 1, prompt, a);
	line_draw(l, LINES - 1, 1, COLS - 1, a, 1);
}
