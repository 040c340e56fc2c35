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

#include "log.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "xmalloc.h"

void
textview_clear(struct textview *tv)
{
	size_t	i;

	for (i = 0; i < tv->nlines; i++)
		free(tv->lines[i]);
	free(tv->lines);
	free(tv->title);
	memset(tv, 0, sizeof *tv);
}

void
textview_set(struct textview *tv, const char *title, const char *text)
{
	const char	*s, *nl;
	char		*raw;
	size_t		 n = 0, cap = 0;

	textview_clear(tv);
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
}

void
textview_draw(struct tui *t, struct textview *tv, int y, int x, int h, int w)
{
	size_t	i;

	(void)t;
	if (h <= 0)
		return;
	if (tv->nlines > (size_t)h && tv->top > tv->nlines - (size_t)h)
		tv->top = tv->nlines - (size_t)h;
	if (tv->nlines <= (size_t)h)
		tv->top = 0;
	for (i = tv->top; i < tv->nlines && i < tv->top + (size_t)h; i++)
		screen_put(y + (int)(i - tv->top), x + 1, w - 2, tv->lines[i],
		    screen_role(THEME_ROLE_NORMAL));
}

int
textview_action(struct textview *tv, enum action a, int page)
{
	long	top = (long)tv->top;

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
	if (top > (long)tv->nlines - page)
		top = (long)tv->nlines - page;
	if (top < 0)
		top = 0;
	tv->top = (size_t)top;
	return (1);
}

/* ---- as a modal: help, the request log ------------------------------- */

struct textview_modal {
	struct modal	 m;
	struct textview	 tv;
};

static int
textview_modal_key(struct tui *t, struct modal *m, int key)
{
	struct textview_modal	*v = (struct textview_modal *)m;
	enum action		 a;

	a = keymap_lookup(t->keymap, KEYMAP_DETAIL, key);
	if (key == 033 || a == ACTION_QUIT || a == ACTION_HELP) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	textview_action(&v->tv, a, LINES - 4);
	return (TUI_HANDLED);
}

static void
textview_modal_draw(struct tui *t, struct modal *m)
{
	struct textview_modal	*v = (struct textview_modal *)m;
	int			 y;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 1, v->tv.title,
	    screen_role(THEME_ROLE_TITLE));
	textview_draw(t, &v->tv, 2, 0, LINES - 3, COLS);
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	screen_put(LINES - 1, 0, COLS, " q or Esc closes; arrows, PgUp/PgDn "
	    "scroll", screen_role(THEME_ROLE_DIM));
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

struct textview_secret {
	struct textview_modal	 v;
	char			*copy;		/* y */
	char			*what;
	int			 once;		/* ask before closing */
	int			 saved;
	int			 told;		/* y or w left a message */
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
	char			*cause = NULL;
	int			 fd, nl;
	size_t			 len;

	if (*file == '\0')
		return;
	if (s->nfiles > 0) {
		what = s->files[s->next].what;
		content = s->files[s->next].content;
	}
	len = strlen(content);
	/* A text file ends with a line break; a PEM has its own. */
	nl = len == 0 || content[len - 1] != '\n';
	/* 0600, and never over an existing file. */
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 || write(fd, content, len) != (ssize_t)len ||
	    (nl && write(fd, "\n", 1) != 1) || fsync(fd) != 0) {
		xasprintf(&cause, "%s: %s", file, strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(file);
		}
		tui_message(t, TUI_MSG_ERROR, "save: %s", cause);
		free(cause);
		s->told = 1;
		return;
	}
	close(fd);
	s->saved = 1;
	if (s->nfiles > 0)
		s->next = (s->next + 1) % s->nfiles;
	if (s->nfiles > 1 && s->next != 0)
		tui_message(t, TUI_MSG_OK, "saved %s (mode 0600) to %s; w "
		    "saves %s", what, file, s->files[s->next].what);
	else
		tui_message(t, TUI_MSG_OK, "saved %s (mode 0600) to %s", what,
		    file);
	s->told = 1;
}

static int
textview_secret_key(struct tui *t, struct modal *m, int key)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	enum action		 a;
	char			*q;

	a = keymap_lookup(t->keymap, KEYMAP_DETAIL, key);
	s->told = 0;
	if (key == 033 || a == ACTION_QUIT) {
		if (s->once && !s->saved)
			dialog_confirm(t, "close", "This will not be shown "
			    "again. Close it? (y/n)", textview_secret_close, m,
			    NULL);
		else
			tui_pop(t);
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
	char			*hint;

	textview_modal_draw(t, m);
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	/* What y or w did (copied, saved, failed) stays until a key. */
	if (s->told && t->msg != NULL) {
		screen_put(LINES - 1, 0, COLS, t->msg, screen_role(
		    t->msg_class == TUI_MSG_ERROR ? THEME_ROLE_ERROR :
		    THEME_ROLE_OK));
		return;
	}
	if (s->nfiles > 0) {
		/* Which file w saves now. */
		hint = xprintf(" y copy  w save %s (0600)  q close%s",
		    s->files[s->next].what, s->once ? ": shown only this once" :
		    "");
		screen_put(LINES - 1, 0, COLS, hint, screen_role(s->once ?
		    THEME_ROLE_WARNING : THEME_ROLE_DIM));
		free(hint);
		return;
	}
	screen_put(LINES - 1, 0, COLS, s->once ? " y copy  w save to a file "
	    "(0600)  q close: shown only this once" : " y copy  w save to a "
	    "file (0600)  q close", screen_role(s->once ? THEME_ROLE_WARNING :
	    THEME_ROLE_DIM));
}

static void
textview_secret_free(struct modal *m)
{
	struct textview_secret	*s = (struct textview_secret *)m;
	size_t			 i;

	/* A secret does not stay in freed memory. */
	explicit_bzero(s->copy, strlen(s->copy));
	free(s->copy);
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
