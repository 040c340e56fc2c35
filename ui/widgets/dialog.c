/*
 * Dialogs: a y/n confirmation, a confirmation that needs a count or a name
 * typed, a one-line prompt (with path completion for files), and a notice
 * that holds the keys while something is fetched, then says why it failed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/line.h"
#include "xmalloc.h"

enum dialog_type {
	DIALOG_CONFIRM,
	DIALOG_TYPED,
	DIALOG_PROMPT,
	DIALOG_WAIT,		/* Esc cancels; other keys are held */
	DIALOG_NOTICE,		/* Enter, Esc or q closes; others are held */
	DIALOG_CHOICE		/* one of expect's keys; Esc: "" */
};

struct dialog {
	struct modal	 m;
	enum dialog_type type;
	char		*title;
	char		*text;
	char		*expect;
	int		 files;
	struct line	 line;
	char		*hint;
	int		 hint_error;	/* why the last answer was refused */
	int		 answer_no;	/* a confirmation: n is an answer */
	dialog_cb	 cb;
	void		*arg;
	dialog_free_cb	 free_cb;
};

/* Server text is cleaned line by line; the line breaks are ours. */
static char *
dialog_clean(const char *text)
{
	struct buf	 b;
	const char	*s, *nl;
	char		*raw, *clean;

	buf_init(&b);
	for (s = text; *s != '\0'; s = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s);
		raw = xstrndup(s, (size_t)(nl - s));
		clean = text_clean(raw);
		buf_adds(&b, clean);
		if (*nl != '\0')
			buf_addc(&b, '\n');
		free(clean);
		free(raw);
	}
	return (buf_detach(&b, NULL));
}

static void
dialog_free(struct modal *m)
{
	struct dialog	*d = (struct dialog *)m;

	if (d->free_cb != NULL)
		d->free_cb(d->arg);
	free(d->title);
	free(d->text);
	free(d->expect);
	free(d->hint);
	free(d);
}

/* Close the dialog, then answer (the callback may open another). */
static void
dialog_finish(struct tui *t, struct dialog *d, const char *answer)
{
	if (t->modal == &d->m)
		t->modal = d->m.below;
	if (answer != NULL)
		d->cb(t, d->arg, answer);
	dialog_free(&d->m);
	t->dirty = 1;
}

/* Complete the last path in the line to the longest common prefix. */
static void
dialog_complete_path(struct dialog *d)
{
	free(d->hint);
	line_complete_path(&d->line, 0, &d->hint);
}

static int
dialog_key(struct tui *t, struct modal *m, int key)
{
	struct dialog	*d = (struct dialog *)m;

	if (key == 033) {
		/* A wait's answer is that it was cancelled. */
		dialog_finish(t, d, d->type == DIALOG_WAIT ? "cancel" :
		    d->type == DIALOG_CHOICE ? "" : d->answer_no ? "n" : NULL);
		return (TUI_HANDLED);
	}
	switch (d->type) {
	case DIALOG_CONFIRM:
		if (key == 'y' || key == 'Y')
			dialog_finish(t, d, "y");
		else if (key == 'n' || key == 'N' || key == 'q')
			dialog_finish(t, d, d->answer_no ? "n" : NULL);
		return (TUI_HANDLED);
	case DIALOG_WAIT:
		/* Keys typed for what is awaited do not reach the list. */
		return (TUI_HANDLED);
	case DIALOG_NOTICE:
		if (key == '\r' || key == 'q' || key == ' ')
			dialog_finish(t, d, NULL);
		return (TUI_HANDLED);
	case DIALOG_CHOICE:
		if (key > 0 && key < 0x80 && strchr(d->expect, key) != NULL) {
			char answer[2] = { (char)key, '\0' };
			dialog_finish(t, d, answer);
		}
		return (TUI_HANDLED);
	case DIALOG_TYPED:
		if (key == '\r') {
			if (strcmp(d->line.buf, d->expect) == 0)
				dialog_finish(t, d, d->expect);
			else {
				free(d->hint);
				d->hint = xprintf("type %s exactly, or Esc",
				    d->expect);
			}
			return (TUI_HANDLED);
		}
		line_key(&d->line, key);
		return (TUI_HANDLED);
	case DIALOG_PROMPT:
		if (key == '\r') {
			/* Every file prompt takes "~/" for the home. */
			char *answer = d->files ?
			    edit_path_expand(d->line.buf) :
			    xstrdup(d->line.buf);
			dialog_finish(t, d, answer);
			free(answer);
			return (TUI_HANDLED);
		}
		if (key == '\t' && d->files) {
			dialog_complete_path(d);
			return (TUI_HANDLED);
		}
		line_key(&d->line, key);
		return (TUI_HANDLED);
	}
	return (TUI_HANDLED);
}

/*
 * The text as rows of at most cols columns, wrapped at spaces: an array
 * of allocated strings (NULL-terminated), its count in *n.
 */
static char **
dialog_rows(const char *text, int cols, int *n)
{
	const char	*s, *nl;
	char		**rows = NULL, *line;
	size_t		 len, k, cap = 0, indent;

	*n = 0;
	for (s = text; s != NULL && *s != '\0'; s = *nl ? nl + 1 : nl) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s);
		line = xstrndup(s, (size_t)(nl - s));
		/* Continued rows keep the line's indent (a list of names). */
		indent = strspn(line, " ");
		if ((int)indent > cols / 2)
			indent = 0;
		len = 0;
		do {
			k = text_wrap(line + len, (size_t)MAXIMUM(cols -
			    (len > 0 ? (int)indent : 0), 1));
			if ((size_t)*n + 2 > cap) {
				cap = cap == 0 ? 8 : cap * 2;
				rows = xreallocarray(rows, cap, sizeof *rows);
			}
			rows[(*n)++] = xprintf("%*s%.*s", len > 0 ?
			    (int)indent : 0, "", (int)k, line + len);
			len += k;
		} while (line[len] != '\0');
		free(line);
	}
	if (rows == NULL)
		rows = xcalloc(1, sizeof *rows);
	rows[*n] = NULL;
	return (rows);
}

static void
dialog_draw(struct tui *t, struct dialog *d)
{
	const char	*s, *nl;
	char		**rows, **hrows = NULL, *title;
	int		 nrows, nhint = 0, width = 20, h, w, y0, x0, y, i,
			 extra, room;
	attr_t		 a = screen_role(THEME_ROLE_NORMAL);

	(void)t;
	for (s = d->text; s != NULL && *s != '\0'; s = *nl ? nl + 1 : nl) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s);
		width = MAXIMUM(width, (int)(nl - s));
	}
	/* A prompt has its question in the title: it is not cut either. */
	width = MAXIMUM(width, (int)text_width(d->title) + 2);
	w = MINIMUM(COLS - 2, MAXIMUM(width + 4, 50));
	/* Narrow terminals: the question wraps rather than lose its end. */
	rows = dialog_rows(d->text, w - 4, &nrows);
	extra = d->type == DIALOG_CONFIRM || d->type == DIALOG_WAIT ||
	    d->type == DIALOG_NOTICE || d->type == DIALOG_CHOICE ? 3 : 6;
	/* The hint (why an answer was refused) wraps too: rows below. */
	if ((d->type == DIALOG_TYPED || d->type == DIALOG_PROMPT) &&
	    d->hint != NULL) {
		hrows = dialog_rows(d->hint, w - 4, &nhint);
		extra += MAXIMUM(nhint - 1, 0);
	}
	h = MINIMUM(LINES - 2, nrows + extra);
	y0 = MAXIMUM(1, (LINES - h) / 2);
	x0 = MAXIMUM(0, (COLS - w) / 2);
	for (y = y0; y < y0 + h; y++)
		screen_fill(y, x0, w, a);
	/* The title sits on the top border, which stays drawn. */
	screen_box(y0, x0, h, w, screen_role(THEME_ROLE_BORDER));
	title = xprintf(" %s ", d->title);
	screen_cell(y0, x0 + 2, w - 4, title, screen_role(THEME_ROLE_TITLE));
	free(title);
	/* Too little room: the first rows and the last (the answer). */
	room = h - extra;
	for (i = 0, y = y0 + 1; i < nrows && room > 0; i++) {
		if (room == 1 && i < nrows - 1)
			i = nrows - 1;
		screen_put(y++, x0 + 2, w - 4, rows[i], a);
		room--;
	}
	for (i = 0; i < nrows; i++)
		free(rows[i]);
	free(rows);
	if ((d->type == DIALOG_TYPED || d->type == DIALOG_PROMPT) &&
	    y < LINES - 1) {
		y = MINIMUM(y + 1, y0 + h - 2);
		line_draw(&d->line, y, x0 + 2, w - 4,
		    screen_role(THEME_ROLE_INPUT_FOCUS), 1);
		for (i = 0; i < nhint && y + 1 + i < y0 + h - 1; i++)
			screen_put(y + 1 + i, x0 + 2, w - 4, hrows[i],
			    screen_role(d->hint_error ? THEME_ROLE_ERROR :
			    THEME_ROLE_DIM));
	}
	for (i = 0; i < nhint; i++)
		free(hrows[i]);
	free(hrows);
}

/* The dialog's own keys on the last line, in place of the list's. */
static void
dialog_keys(const struct dialog *d, struct buf *b)
{
	const char	*k;

	switch (d->type) {
	case DIALOG_CONFIRM:
		buf_adds(b, "y yes  n no  Esc cancel");
		break;
	case DIALOG_CHOICE:
		for (k = d->expect; *k != '\0'; k++)
			buf_addf(b, "%s%c", k == d->expect ? "" : "/", *k);
		buf_adds(b, " choose (as above)  Esc cancel");
		break;
	case DIALOG_TYPED:
		buf_adds(b, "type the answer  Enter confirm  Esc cancel");
		break;
	case DIALOG_PROMPT:
		buf_adds(b, d->files ? "Enter ok  Tab complete the path  Esc "
		    "cancel" : "Enter ok  Esc cancel");
		break;
	case DIALOG_WAIT:
		buf_adds(b, "Esc cancel");
		break;
	case DIALOG_NOTICE:
		buf_adds(b, "Enter close");
		break;
	}
}

static void
dialog_draw_modal(struct tui *t, struct modal *m)
{
	struct dialog	*d = (struct dialog *)m;
	struct buf	 b;

	dialog_draw(t, d);
	buf_init(&b);
	dialog_keys(d, &b);
	status_draw_keys(t, -1, buf_str(&b));
	buf_free(&b);
}

static struct dialog *
dialog_new(struct tui *t, enum dialog_type type, const char *title,
    const char *text, dialog_cb cb, void *arg, dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = xcalloc(1, sizeof *d);
	d->m.key = dialog_key;
	d->m.draw = dialog_draw_modal;
	d->m.free = dialog_free;
	d->type = type;
	d->title = xstrdup(title);
	d->text = dialog_clean(text != NULL ? text : "");
	d->cb = cb;
	d->arg = arg;
	d->free_cb = free_cb;
	tui_push(t, &d->m);
	return (d);
}

void
dialog_confirm(struct tui *t, const char *title, const char *text,
    dialog_cb cb, void *arg, dialog_free_cb free_cb)
{
	dialog_new(t, DIALOG_CONFIRM, title, text, cb, arg, free_cb);
}

void
dialog_confirm_typed(struct tui *t, const char *title, const char *text,
    const char *expect, dialog_cb cb, void *arg, dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = dialog_new(t, DIALOG_TYPED, title, text, cb, arg, free_cb);
	d->expect = xstrdup(expect);
}

static struct dialog *
dialog_prompt_new(struct tui *t, const char *title, const char *initial,
    int files, dialog_cb cb, void *arg, dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = dialog_new(t, DIALOG_PROMPT, title, "", cb, arg, free_cb);
	d->files = files;
	line_set(&d->line, initial);
	if (files)
		d->hint = xstrdup("Tab completes the path; ~/ is your home");
	return (d);
}

void
dialog_prompt(struct tui *t, const char *title, const char *initial,
    int files, dialog_cb cb, void *arg, dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = dialog_prompt_new(t, title, initial, files, cb, arg, free_cb);
	/* A suggested answer: Enter takes it, typing replaces it. */
	line_select(&d->line);
}

void
dialog_prompt_again(struct tui *t, const char *title, const char *typed,
    const char *why, int files, dialog_cb cb, void *arg,
    dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = dialog_prompt_new(t, title, typed, files, cb, arg, free_cb);
	free(d->hint);
	d->hint = text_clean(why);
	d->hint_error = 1;
}

void
dialog_choose(struct tui *t, const char *title, const char *text,
    const char *keys, dialog_cb cb, void *arg, dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = dialog_new(t, DIALOG_CHOICE, title, text, cb, arg, free_cb);
	d->expect = xstrdup(keys);
}

void
dialog_ask(struct tui *t, const char *title, const char *text, dialog_cb cb,
    void *arg, dialog_free_cb free_cb)
{
	struct dialog	*d;

	d = dialog_new(t, DIALOG_CONFIRM, title, text, cb, arg, free_cb);
	d->answer_no = 1;
}

struct modal *
dialog_wait(struct tui *t, const char *title, const char *text,
    dialog_cb cancel, void *arg)
{
	struct dialog	*d;

	d = dialog_new(t, DIALOG_WAIT, title, text, cancel, arg, NULL);
	return (&d->m);
}

/* Whether m is on the stack of modals (a dialog may sit on top of it). */
static struct modal **
dialog_link(struct tui *t, struct modal *m)
{
	struct modal	**pp;

	for (pp = &t->modal; *pp != NULL; pp = &(*pp)->below) {
		if (*pp == m)
			return (pp);
	}
	return (NULL);
}

void
dialog_wait_done(struct tui *t, struct modal *m)
{
	struct modal	**pp;

	if ((pp = dialog_link(t, m)) == NULL)
		return;
	*pp = m->below;
	dialog_free(m);
	t->dirty = 1;
}

/* text broken at blanks into lines of width columns (a long word is cut). */
static char *
dialog_wrap(const char *text, int width)
{
	struct buf	 b;
	const char	*s, *end, *brk;
	char		*piece;
	int		 col;

	buf_init(&b);
	for (s = text; *s != '\0';) {
		/* The longest run from s that fits, ended at a blank. */
		brk = NULL;
		for (end = s; *end != '\0' && *end != '\n'; end++) {
			piece = xstrndup(s, (size_t)(end - s + 1));
			col = (int)text_width(piece);
			free(piece);
			if (col > width)
				break;
			if (*end == ' ')
				brk = end;
		}
		if (*end != '\0' && *end != '\n' && brk != NULL)
			end = brk;
		if (end == s)
			end = s + 1;
		buf_add(&b, s, (size_t)(end - s));
		buf_addc(&b, '\n');
		s = end;
		if (*s == ' ' || *s == '\n')
			s++;
	}
	return (buf_detach(&b, NULL));
}

void
dialog_wait_failed(struct tui *t, struct modal *m, const char *title,
    const char *why)
{
	struct dialog	*d = (struct dialog *)m;
	char		*clean;

	if (dialog_link(t, m) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", why);
		return;
	}
	d->type = DIALOG_NOTICE;
	free(d->title);
	d->title = xstrdup(title);
	free(d->text);
	clean = dialog_clean(why);
	/* A reason from curl or the server is long: wrapped, not cut. */
	d->text = dialog_wrap(clean, MAXIMUM(20, COLS - 6));
	free(clean);
	t->dirty = 1;
}
