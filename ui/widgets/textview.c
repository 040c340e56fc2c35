/*
 * Scrolling text: a record's YAML or JSON, the help, the request log.
 * Lines are cleaned of control characters once, when the text is set.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "log.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/line.h"
#include "xmalloc.h"

void
textview_clear(struct textview *tv)
{
	size_t	i;

	for (i = 0; i < tv->nlines; i++)
		free(tv->lines[i]);
	free(tv->lines);
	free(tv->title);
	free(tv->search);
	memset(tv, 0, sizeof *tv);
}

void
textview_set(struct textview *tv, const char *title, const char *text)
{
	const char	*s, *nl;
	char		*raw, *search = tv->search;
	size_t		 n = 0, cap = 0, cur = tv->cur;
	int		 cursor = tv->cursor, hang = tv->hang;

	/* New text (a refresh) keeps the cursor and what was searched. */
	tv->search = NULL;
	textview_clear(tv);
	tv->search = search;
	tv->cursor = cursor;
	tv->hang = hang;
	tv->title = title != NULL ? text_clean(title) : NULL;
	for (s = text != NULL ? text : ""; *s != '\0'; s = nl + 1) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s);
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			tv->lines = xreallocarray(tv->lines, cap,
			    sizeof *tv->lines);
		}
		raw = xstrndup(s, (size_t)(nl - s));
		tv->lines[n++] = text_clean(raw);
		free(raw);
		if (*nl == '\0')
			break;
	}
	tv->nlines = n;
	tv->cur = n > 0 && cur < n ? cur : 0;
}

/*
 * s cut to cols columns, one character at least: its bytes. A word wider
 * than the row (a URL, a path) is cut after a '/' in the row's second
 * half when it has one, so "thumbnail.jpg" stays whole.
 */
static size_t
textview_cut(const char *s, int cols)
{
	char	*cut = xstrdup(s), *slash;
	size_t	 k;

	text_cut(cut, (size_t)cols);
	k = MAXIMUM(strlen(cut), 1);
	if (s[k] != '\0' && s[k] != ' ' && (slash = strrchr(cut, '/')) !=
	    NULL && slash[1] != '\0') {
		slash[1] = '\0';
		if ((int)text_width(cut) * 2 >= cols)
			k = strlen(cut);
	}
	free(cut);
	return (k);
}

/*
 * Prose under a hanging indent (:messages) breaks at spaces; a word wider
 * than a row (a path) is cut anyway, so it starts where the row has room.
 */
static size_t
textview_wrap_words(const char *s, int cols, size_t k)
{
	char	*word;
	int	 wide;

	if (s[k] == '\0')
		return (k);
	word = xstrndup(s + k, strcspn(s + k, " "));
	wide = (int)text_width(word) > cols;
	free(word);
	return (wide ? textview_cut(s, cols) : k);
}

/*
 * The bytes of s on its first row of cols columns: at a space, unless that
 * leaves most of the row empty (a key before a long URL), then cut (after
 * a '/' where it can).
 */
static size_t
textview_wrap(const struct textview *tv, const char *s, int cols)
{
	size_t	k = text_wrap(s, (size_t)cols);
	char	*cut;

	if (tv->hang > 0)
		return (textview_wrap_words(s, cols, k));
	if (s[k] == '\0')
		return (k);
	/* No space in the row: a word longer than it, cut. */
	if (s[k - 1] != ' ')
		return (textview_cut(s, cols));
	cut = xstrndup(s, k);
	if ((int)text_width(cut) * 2 < cols)
		k = textview_cut(s, cols);
	free(cut);
	return (k);
}

/* The columns a row under a hanging indent keeps for text, at least. */
#define TEXTVIEW_HANG_MIN	16

/* Continued rows of a line start under its text, when there is room. */
static int
textview_indent(const struct textview *tv, const char *line, int cols)
{
	int	ind = (int)strspn(line, " ") + 2;

	if (tv->hang > 0)
		return (cols - tv->hang >= TEXTVIEW_HANG_MIN ? tv->hang :
		    (cols > 2 * TEXTVIEW_HANG_MIN ? cols - TEXTVIEW_HANG_MIN :
		    0));
	return (ind * 3 < cols ? ind : 0);
}

/* Screen rows line i takes, wrapped to cols columns. */
static size_t
textview_rows(const struct textview *tv, size_t i, int cols)
{
	const char	*s = tv->lines[i];
	size_t		 n = 0;

	if (cols < 1)
		return (1);
	s += textview_wrap(tv, s, cols);
	n++;
	while (*s != '\0') {
		s += textview_wrap(tv, s,
		    cols - textview_indent(tv, tv->lines[i], cols));
		n++;
	}
	return (n);
}

/* The top line that shows the last ones, and keeps the cursor on screen. */
static void
textview_place(struct textview *tv, int h, int cols)
{
	size_t	i = tv->nlines, rows = 0, r;

	while (i > 0 && rows + (r = textview_rows(tv, i - 1, cols)) <=
	    (size_t)h) {
		rows += r;
		i--;
	}
	if (tv->top > i)
		tv->top = i;
	if (!tv->cursor || tv->nlines == 0)
		return;
	if (tv->cur >= tv->nlines)
		tv->cur = tv->nlines - 1;
	if (tv->cur < tv->top) {
		tv->top = tv->cur;
		return;
	}
	/* Up from the cursor while a screen holds it (h lines at most). */
	i = tv->cur;
	rows = textview_rows(tv, i, cols);
	while (i > tv->top &&
	    rows + (r = textview_rows(tv, i - 1, cols)) <= (size_t)h) {
		rows += r;
		i--;
	}
	tv->top = i;
}

/* One row of text, and what '/' found in it drawn over. */
static void
textview_row(struct textview *tv, int y, int x, int cols, const char *row,
    size_t len, attr_t a)
{
	const char	*m;
	char		*text, *found, *pre;
	size_t		 slen, off = 0;
	int		 at;

	text = xstrndup(row, len);
	screen_put(y, x, cols, text, a);
	slen = tv->search != NULL ? strlen(tv->search) : 0;
	while (slen > 0 && (m = text_find_nocase(text + off, len - off,
	    tv->search, slen)) != NULL) {
		/* The columns before the match, then the match as it reads. */
		pre = xstrndup(text, (size_t)(m - text));
		found = xstrndup(m, slen);
		at = (int)text_width(pre);
		screen_put(y, x + at, cols - at, found,
		    screen_role(THEME_ROLE_MATCH));
		off = (size_t)(m - text) + slen;
		free(found);
		free(pre);
	}
	free(text);
}

void
textview_draw(struct tui *t, struct textview *tv, int y, int x, int h, int w)
{
	const char	*s;
	size_t		 i, k;
	int		 row = 0, cols = w - 2, ind;
	attr_t		 a;

	(void)t;
	if (h <= 0 || cols <= 0)
		return;
	textview_place(tv, h, cols);
	for (i = tv->top; i < tv->nlines && row < h; i++) {
		a = screen_role(tv->cursor && i == tv->cur ?
		    THEME_ROLE_ROW_SELECTED : THEME_ROLE_NORMAL);
		s = tv->lines[i];
		ind = 0;
		/* Long lines wrap: nothing is cut off at the right. */
		do {
			k = textview_wrap(tv, s, cols - ind);
			if (tv->cursor && i == tv->cur)
				screen_fill(y + row, x, w, a);
			textview_row(tv, y + row, x + 1 + ind, cols - ind, s, k,
			    a);
			s += k;
			row++;
			ind = textview_indent(tv, tv->lines[i], cols);
		} while (*s != '\0' && row < h);
	}
}

int
textview_action(struct textview *tv, enum action a, int page)
{
	long	 top = (long)(tv->cursor ? tv->cur : tv->top);

	if (page < 1)
		page = 1;
	switch (a) {
	case ACTION_UP:		top--; break;
	case ACTION_DOWN:	top++; break;
	case ACTION_PAGE_UP:	top -= page; break;
	case ACTION_PAGE_DOWN:	top += page; break;
	case ACTION_TOP:	top = 0; break;
	case ACTION_BOTTOM:	top = (long)tv->nlines; break;
	default:
		return (0);
	}
	if (tv->cursor) {
		/* The cursor moves; drawing scrolls to keep it in sight. */
		if (top >= (long)tv->nlines)
			top = (long)tv->nlines - 1;
		if (top < 0)
			top = 0;
		tv->cur = (size_t)top;
		return (1);
	}
	if (top > (long)tv->nlines - page)
		top = (long)tv->nlines - page;
	if (top < 0)
		top = 0;
	tv->top = (size_t)top;
	return (1);
}

/* ---- '/' in the text ---------------------------------------------------- */

int
textview_search(struct tui *t, struct textview *tv, int dir)
{
	size_t	from, i, k;

	if (tv->search == NULL || *tv->search == '\0') {
		tui_message(t, TUI_MSG_WARN, "nothing to find: / first");
		return (0);
	}
	from = tv->cursor ? tv->cur : tv->top;
	/* From the line after (or before) the current one, round the end. */
	for (k = 0; k < tv->nlines; k++) {
		if (dir > 0)
			i = (from + 1 + k) % tv->nlines;
		else if (dir < 0)
			i = (from + tv->nlines - 1 - k) % tv->nlines;
		else
			i = (from + k) % tv->nlines;
		if (text_contains_nocase(tv->lines[i], tv->search)) {
			if (tv->cursor)
				tv->cur = i;
			else
				tv->top = i;
			return (1);
		}
	}
	tui_message(t, TUI_MSG_WARN, "no match for '%s'", tv->search);
	return (0);
}

struct textview_find {
	struct modal	 m;
	struct textview	*tv;
	struct line	 line;
};

static int
textview_find_key(struct tui *t, struct modal *m, int key)
{
	struct textview_find	*f = (struct textview_find *)m;
	struct textview		*tv = f->tv;

	if (key == 033) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == '\r') {
		free(tv->search);
		tv->search = f->line.len > 0 ? xstrdup(f->line.buf) : NULL;
		tui_pop(t);
		if (tv->search != NULL)
			textview_search(t, tv, 0);
		return (TUI_HANDLED);
	}
	line_key(&f->line, key);
	return (TUI_HANDLED);
}

static void
textview_find_draw(struct tui *t, struct modal *m)
{
	struct textview_find	*f = (struct textview_find *)m;

	(void)t;
	line_draw_bottom(&f->line, "/");
}

static void
textview_find_free(struct modal *m)
{
	free(m);
}

void
textview_search_open(struct tui *t, struct textview *tv)
{
	struct textview_find	*f;

	f = xcalloc(1, sizeof *f);
	f->m.key = textview_find_key;
	f->m.draw = textview_find_draw;
	f->m.free = textview_find_free;
	f->tv = tv;
	line_set(&f->line, tv->search);
	tui_push(t, &f->m);
}

/* ---- saving -------------------------------------------------------------- */

char *
textview_text(const struct textview *tv, size_t from, size_t to)
{
	struct buf	b;
	size_t		i;

	buf_init(&b);
	for (i = from; i < to && i < tv->nlines; i++)
		buf_addf(&b, "%s%s", i > from ? "\n" : "", tv->lines[i]);
	return (buf_detach(&b, NULL));
}

/*
 * text to a new file of mode 0600, never over another; a line break ends
 * it unless it has one (a PEM has its own).
 */
int
textview_write(const char *file, const char *text, char **cause)
{
	size_t	len = strlen(text);
	int	fd, nl = len == 0 || text[len - 1] != '\n';

	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 || write(fd, text, len) != (ssize_t)len ||
	    (nl && write(fd, "\n", 1) != 1) || fsync(fd) != 0) {
		xasprintf(cause, "%s: %s", file, strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(file);
		}
		return (-1);
	}
	close(fd);
	return (0);
}

int
textview_save(const struct textview *tv, const char *file, char **cause)
{
	char	*text = textview_text(tv, 0, tv->nlines);
	int	 rv;

	rv = textview_write(file, text, cause);
	free(text);
	return (rv);
}

/* ---- as a modal: help, the request log ------------------------------- */

struct textview_modal {
	struct modal	 m;
	struct textview	 tv;
};

static void
textview_save_answer(struct tui *t, void *arg, const char *file)
{
	struct textview	*tv = arg;
	char		*cause = NULL;

	if (*file == '\0')
		return;
	if (textview_save(tv, file, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "save: %s", cause);
		free(cause);
		return;
	}
	tui_message(t, TUI_MSG_OK, "saved %zu line%s to %s (mode 0600)",
	    tv->nlines, tv->nlines == 1 ? "" : "s", file);
}

/* The keys every text view has: / n N (find) and w (save). */
int
textview_common(struct tui *t, struct textview *tv, enum action a)
{
	switch (a) {
	case ACTION_SEARCH:
		textview_search_open(t, tv);
		return (1);
	case ACTION_SEARCH_NEXT:
	case ACTION_SEARCH_PREV:
		textview_search(t, tv, a == ACTION_SEARCH_NEXT ? 1 : -1);
		return (1);
	case ACTION_SAVE_FILE:
		dialog_prompt(t, "save to the file (created 0600; never "
		    "overwritten)", "", 1, textview_save_answer, tv, NULL);
		return (1);
	default:
		return (0);
	}
}

static int
textview_modal_key(struct tui *t, struct modal *m, int key)
{
	struct textview_modal	*v = (struct textview_modal *)m;
	enum action		 a;

	a = keymap_lookup(t->keymap, KEYMAP_TEXT, key);
	/* The footer shows what the last key did (found, saved), or keys. */
	free(t->msg);
	t->msg = NULL;
	if (a == ACTION_QUIT || a == ACTION_BACK || a == ACTION_HELP) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (textview_common(t, &v->tv, a))
		return (TUI_HANDLED);
	textview_action(&v->tv, a, LINES - 4);
	return (TUI_HANDLED);
}

/* How the view closes, then how it scrolls ("arrows, PgUp/PgDn"). */
static void
textview_footer_move(struct tui *t, struct buf *b)
{
	char	q[KEYMAP_KEY_NAME_MAX], esc[KEYMAP_KEY_NAME_MAX];
	char	lines[2 * KEYMAP_KEY_NAME_MAX], pages[2 * KEYMAP_KEY_NAME_MAX];
	int	hq, he, hl, hp;

	hq = status_key_name(t, KEYMAP_TEXT, ACTION_QUIT, q) != NULL;
	he = status_key_name(t, KEYMAP_TEXT, ACTION_BACK, esc) != NULL;
	if (hq && he)
		buf_addf(b, "  %s or %s closes;", q, esc);
	else if (hq || he)
		buf_addf(b, "  %s closes;", hq ? q : esc);
	hl = status_key_pair(t, KEYMAP_TEXT, ACTION_UP, ACTION_DOWN,
	    lines) != NULL;
	hp = status_key_pair(t, KEYMAP_TEXT, ACTION_PAGE_UP, ACTION_PAGE_DOWN,
	    pages) != NULL;
	if (hl || hp)
		buf_addf(b, "%s%s%s%s scroll", hq || he ? " " : "  ",
		    hl ? lines : "", hl && hp ? ", " : "", hp ? pages : "");
}

/* The footer of a text view: closing, moving, finding and saving. */
static void
textview_footer(struct tui *t)
{
	struct buf	b = BUF_INITIALIZER;

	textview_footer_move(t, &b);
	status_hint(t, &b, KEYMAP_TEXT, ACTION_SEARCH, "find");
	status_hint_pair(t, &b, KEYMAP_TEXT, ACTION_SEARCH_NEXT,
	    ACTION_SEARCH_PREV, "next/previous");
	status_hint(t, &b, KEYMAP_TEXT, ACTION_SAVE_FILE, "save");
	status_draw_hints(t, &b, THEME_ROLE_DIM);
	buf_free(&b);
}

static void
textview_modal_draw(struct tui *t, struct modal *m)
{
	struct textview_modal	*v = (struct textview_modal *)m;
	int			 y;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_cell(1, 1, COLS - 1, v->tv.title,
	    screen_role(THEME_ROLE_TITLE));
	textview_draw(t, &v->tv, 2, 0, LINES - 3, COLS);
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	if (!status_draw_message(t))
		textview_footer(t);
}

/* Continued rows start at column hang, under the text after a prefix. */
void
textview_modal_hang(struct modal *m, int hang)
{
	struct textview_modal	*v = (struct textview_modal *)m;

	v->tv.hang = hang;
}

static void
textview_modal_free(struct modal *m)
{
	struct textview_modal	*v = (struct textview_modal *)m;

	textview_clear(&v->tv);
	free(v);
}

struct modal *
textview_modal(const char *title, const char *text)
{
	struct textview_modal	*v;

	v = xcalloc(1, sizeof *v);
	v->m.key = textview_modal_key;
	v->m.draw = textview_modal_draw;
	v->m.free = textview_modal_free;
	v->m.flags = MODAL_VIEW;
	textview_set(&v->tv, title, text);
	return (&v->m);
}

/* ---- a result to copy or save: an upload URL, a key shown once ---------- */

/* What w saves (a file name offered), in turn when there are several. */
struct textview_file {
	char			*what;
	char			*content;
	char			*name;
};

#define TEXTVIEW_FILES	4
#define TEXTVIEW_COPIES	8

/* More that y offers to copy: then it asks which. */
struct textview_copy {
	char			*what;
	char			*text;
};

struct textview_secret {
	struct textview_modal	 v;
	char			*copy;		/* y */
	char			*what;
	struct textview_copy	 copies[TEXTVIEW_COPIES];
	size_t			 ncopies;	/* besides copy */
	int			 once;		/* ask before closing */
	int			 saved;
	int			 told;		/* y or w left a message */
	int			 drawn;
	unsigned long		 msg_seq;	/* the last message seen */
	struct textview_file	 files[TEXTVIEW_FILES];
	size_t			 nfiles;	/* 0: w saves copy */
	size_t			 next;		/* the one w saves next */
};

static void
textview_secret_close(struct tui *t, void *arg, const char *answer)
{
	struct modal	*m = arg;

	(void)answer;
	if (t->modal == m)
		tui_pop(t);
}

static void
textview_secret_save(struct tui *t, void *arg, const char *file)
{
	struct textview_secret	*s = arg;
	const char		*what = s->what, *content = s->copy;
	char			*cause = NULL, key[KEYMAP_KEY_NAME_MAX];

	if (*file == '\0')
		return;
	if (s->nfiles > 0) {
		what = s->files[s->next].what;
		content = s->files[s->next].content;
	}
	if (textview_write(file, content, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "save: %s", cause);
		free(cause);
		s->told = 1;
		return;
	}
	s->saved = 1;
	if (s->nfiles > 0)
		s->next = (s->next + 1) % s->nfiles;
	if (s->nfiles > 1 && s->next != 0 && status_key_name(t, KEYMAP_TEXT,
	    ACTION_SAVE_FILE, key) != NULL)
		tui_message(t, TUI_MSG_OK, "saved %s (mode 0600) to %s; %s "
		    "saves %s", what, file, key, s->files[s->next].what);
	else
		tui_message(t, TUI_MSG_OK, "saved %s (mode 0600) to %s", what,
		    file);
	s->told = 1;
}

/* The picker's answer: copy (0) or one of copies. */
static void
textview_secret_copy(struct tui *t, void *arg, size_t i, int other)
{
	struct textview_secret	*s = arg;

	(void)other;
	if (i == 0)
		tui_copy(t, s->what, s->copy);
	else if (i <= s->ncopies)
		tui_copy(t, s->copies[i - 1].what, s->copies[i - 1].text);
	s->told = 1;
}

static void
textview_secret_pick(struct tui *t, struct textview_secret *s)
{
	const char	*items[TEXTVIEW_COPIES + 1];
	size_t		 i;

	items[0] = s->what;
	for (i = 0; i < s->ncopies; i++)
		items[i + 1] = s->copies[i].what;
	picker_open(t, "copy to the clipboard", items, s->ncopies + 1, 0,
	    textview_secret_copy, s);
}

static int
textview_secret_key(struct tui *t, struct modal *m, int key)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	enum action		 a;
	char			*q;

	a = keymap_lookup(t->keymap, KEYMAP_TEXT, key);
	s->told = 0;
	s->msg_seq = t->msg_seq;
	if (a == ACTION_QUIT || a == ACTION_BACK) {
		if (s->once && !s->saved)
			dialog_confirm(t, "close", "This will not be shown "
			    "again. Close it? (y/n)", textview_secret_close, m,
			    NULL);
		else
			tui_pop(t);
		return (TUI_HANDLED);
	}
	if (a == ACTION_COPY && s->ncopies > 0) {
		textview_secret_pick(t, s);
		return (TUI_HANDLED);
	}
	if (a == ACTION_COPY) {
		tui_copy(t, s->what, s->copy);
		s->told = 1;
		return (TUI_HANDLED);
	}
	if (a == ACTION_SAVE_FILE && s->nfiles == 0) {
		dialog_prompt(t, "save to the file (created 0600; never "
		    "overwritten)", "", 1, textview_secret_save, s, NULL);
		return (TUI_HANDLED);
	}
	if (a == ACTION_SAVE_FILE) {
		q = xprintf("save %s to the file (created 0600; never "
		    "overwritten)", s->files[s->next].what);
		dialog_prompt(t, q, s->files[s->next].name, 1,
		    textview_secret_save, s, NULL);
		free(q);
		return (TUI_HANDLED);
	}
	textview_action(&s->v.tv, a, LINES - 4);
	return (TUI_HANDLED);
}

static void
textview_secret_draw(struct tui *t, struct modal *m)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	struct buf		 b = BUF_INITIALIZER;
	char			*save;

	/* The message there was when the view opened is not shown. */
	if (!s->drawn) {
		s->drawn = 1;
		s->msg_seq = t->msg_seq;
	}
	textview_modal_draw(t, m);
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	/*
	 * What y or w did (copied, saved, failed), or a dialog over the view
	 * (the signing key remembered), stays whole until a key.
	 */
	if ((s->told || t->msg_seq != s->msg_seq) && status_draw_message(t))
		return;
	status_hint(t, &b, KEYMAP_TEXT, ACTION_COPY, s->ncopies > 0 ?
	    "copy (choose)" : "copy");
	/* Which file w saves now. */
	save = s->nfiles > 0 ? xprintf("save %s (0600)",
	    s->files[s->next].what) : xstrdup("save to a file (0600)");
	status_hint(t, &b, KEYMAP_TEXT, ACTION_SAVE_FILE, save);
	status_hint(t, &b, KEYMAP_TEXT, ACTION_QUIT, s->once ?
	    "close: shown only this once" : "close");
	status_draw_hints(t, &b, s->once ? THEME_ROLE_WARNING :
	    THEME_ROLE_DIM);
	free(save);
	buf_free(&b);
}

static void
textview_secret_free(struct modal *m)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	size_t			 i;

	/* A secret does not stay in freed memory. */
	explicit_bzero(s->copy, strlen(s->copy));
	free(s->copy);
	for (i = 0; i < s->ncopies; i++) {
		explicit_bzero(s->copies[i].text, strlen(s->copies[i].text));
		free(s->copies[i].text);
		free(s->copies[i].what);
	}
	for (i = 0; i < s->nfiles; i++) {
		explicit_bzero(s->files[i].content,
		    strlen(s->files[i].content));
		free(s->files[i].content);
		free(s->files[i].what);
		free(s->files[i].name);
	}
	free(s->what);
	textview_clear(&s->v.tv);
	free(s);
}

struct modal *
textview_result(const char *title, const char *text, const char *what,
    const char *copy, int once)
{
	struct textview_secret	*s;

	s = xcalloc(1, sizeof *s);
	s->v.m.key = textview_secret_key;
	s->v.m.draw = textview_secret_draw;
	s->v.m.free = textview_secret_free;
	textview_set(&s->v.tv, title, text);
	s->copy = xstrdup(copy);
	s->what = xstrdup(what);
	s->once = once;
	return (&s->v.m);
}

void
textview_result_copy(struct modal *m, const char *what, const char *text)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	struct textview_copy	*c;

	if (s->ncopies == TEXTVIEW_COPIES)
		fatalx("textview_result_copy: too many");
	c = &s->copies[s->ncopies++];
	c->what = xstrdup(what);
	c->text = xstrdup(text);
}

void
textview_result_file(struct modal *m, const char *what, const char *content,
    const char *name)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	struct textview_file	*f;

	if (s->nfiles == TEXTVIEW_FILES)
		fatalx("textview_result_file: too many files");
	f = &s->files[s->nfiles++];
	f->what = xstrdup(what);
	f->content = xstrdup(content);
	f->name = xstrdup(name != NULL ? name : "");
}
