/*
 * The form widget: draws a struct form (src/form_model.c holds the model and
 * its checks) and edits it from the keyboard. It stays open while what it
 * sent is on its way, so a refusal from the server loses nothing.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "form_model.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/line.h"
#include "xmalloc.h"

#define FORMVIEW_LABEL		30
#define FORMVIEW_ERROR_ROWS	3	/* past them, ! shows it all */
#define FORMVIEW_HELP_ROWS	4	/* of the focused field's help */

struct formview {
	struct modal	 m;
	struct panel	*p;
	struct form	*f;
	char		*title;
	char		*id;
	formview_cb	 cb;
	size_t		 focus;
	size_t		 top;
	struct line	 line;
	char		*error;		/* the server's, or the summary */
	int		 sending;
};

static void
formview_free(struct modal *m)
{
	struct formview	*v = (struct formview *)m;

	form_free(v->f);
	free(v->title);
	free(v->id);
	free(v->error);
	free(v);
}

static int
formview_is_text(const struct form_item *it)
{
	return (it->input != FORM_TOGGLE && it->input != FORM_ENUM);
}

static void
formview_focus(struct formview *v, size_t i)
{
	if (v->f->nitems == 0)
		return;
	/* A date typed as "+2h" shows as the date it is once left. */
	if (v->focus < v->f->nitems)
		form_settle(v->f, v->focus);
	v->focus = i % v->f->nitems;
	line_set(&v->line, v->f->items[v->focus].text);
}

static void
formview_discard(struct tui *t, void *arg, const char *answer)
{
	struct modal	*m = arg;

	(void)answer;
	if (t->modal == m)
		tui_pop(t);
}

static int
formview_on_stack(struct tui *t, struct modal *m)
{
	struct modal	*x;

	for (x = t->modal; x != NULL; x = x->below)
		if (x == m)
			return (1);
	return (0);
}

/* The form's error: shown on its rows, kept for :messages. */
static void
formview_error(struct tui *t, struct formview *v, char *e)
{
	free(v->error);
	v->error = e;
	if (e != NULL)
		tui_message_keep(t, TUI_MSG_ERROR, e);
}

static void
formview_submit(struct tui *t, struct formview *v)
{
	cJSON	*body;
	char	*cause = NULL;
	size_t	 i;

	free(v->error);
	v->error = NULL;
	if (v->f->mode == VALIDATE_UPDATE && !form_changed(v->f)) {
		tui_message(t, TUI_MSG_INFO, "no change: nothing sent");
		tui_pop(t);
		return;
	}
	if ((body = form_result(v->f, &cause)) == NULL) {
		formview_error(t, v, cause);
		for (i = 0; i < v->f->nitems; i++)
			if (v->f->items[i].error != NULL) {
				formview_focus(v, i);
				break;
			}
		return;
	}
	v->sending = 1;
	v->cb(t, v->p, &v->m, body, v->id, v->f->base);
	cJSON_Delete(body);
}

static int
formview_key(struct tui *t, struct modal *m, int key)
{
	struct formview		*v = (struct formview *)m;
	struct form_item	*it = &v->f->items[v->focus];

	switch (key) {
	case 033:
		if (form_changed(v->f))
			dialog_confirm(t, "discard", "Discard the changes in "
			    "this form? (y/n)", formview_discard, m, NULL);
		else
			tui_pop(t);
		return (TUI_HANDLED);
	case '\t':
	case KEY_DOWN:
		formview_focus(v, v->focus + 1);
		return (TUI_HANDLED);
	case KEY_BTAB:
	case KEY_UP:
		formview_focus(v, v->focus + v->f->nitems - 1);
		return (TUI_HANDLED);
	case '\r':
		if (!v->sending)
			formview_submit(t, v);
		return (TUI_HANDLED);
	}
	if (!formview_is_text(it)) {
		/* Not typed here: the key shows the error cut short whole. */
		if (keymap_lookup(t->keymap, KEYMAP_GLOBAL, key) ==
		    ACTION_MESSAGES) {
			/* What the fields lack as typed: kept when asked. */
			if (v->error == NULL && v->f->error != NULL)
				tui_message_keep(t, TUI_MSG_WARN,
				    v->f->error);
			tui_messages(t);
			return (TUI_HANDLED);
		}
		if (key == KEY_RIGHT || key == ' ')
			form_cycle(v->f, v->focus, 1);
		else if (key == KEY_LEFT)
			form_cycle(v->f, v->focus, -1);
		else if (key > ' ' && key < 0x7f)
			form_jump(v->f, v->focus, key);
		line_set(&v->line, it->text);
		return (TUI_HANDLED);
	}
	if (line_key(&v->line, key) == LINE_CHANGED)
		form_set(v->f, v->focus, v->line.buf);
	return (TUI_HANDLED);
}

/*
 * The label column: wide enough for the longest path, the "*" of a
 * required item and a blank, so neither the path is cut nor the "*"
 * touches it.
 */
static int
formview_label(const struct formview *v)
{
	size_t	i, len, longest = 0;

	for (i = 0; i < v->f->nitems; i++) {
		len = strlen(v->f->items[i].path);
		if (len > longest)
			longest = len;
	}
	return (MAXIMUM(FORMVIEW_LABEL, (int)MINIMUM(longest, 200) + 3));
}

/*
 * A path in width columns: whole, else its last members after an ellipsis
 * ("…origin_traffic"), never a cut word that reads as another field.
 */
static char *
formview_label_text(const char *path, int width)
{
	const char	*ell = screen_ascii() ? ".." : "\xe2\x80\xa6";
	const char	*s;

	if (width <= 0 || (int)text_width(path) <= width)
		return (xstrdup(path));
	for (s = strchr(path, '.'); s != NULL; s = strchr(s + 1, '.')) {
		if ((int)(text_width(s + 1) + text_width(ell)) <= width)
			return (xprintf("%s%s", ell, s + 1));
	}
	/* Even the last member is too long: cut it, and say so. */
	s = strrchr(path, '.') != NULL ? strrchr(path, '.') + 1 : path;
	return (xprintf("%s%s", ell, s + MAXIMUM(0, (int)strlen(s) -
	    MAXIMUM(1, width - (int)text_width(ell)))));
}

/* The focused item's help: the field's, its values, how to type it. */
static void
formview_help(const struct form_item *it, struct buf *b)
{
	if (it->field != NULL && it->field->help != NULL)
		buf_adds(b, it->field->help);
	if (it->field != NULL && it->field->values != NULL) {
		buf_adds(b, b->len > 0 ? "; one of: " : "one of: ");
		kind_values_text(it->field->values, b);
	}
	if (it->input == FORM_LIST)
		buf_adds(b, b->len > 0 ? "; separate values with spaces or "
		    "commas" : "separate values with spaces or commas");
	if (it->input == FORM_TEXT && it->field != NULL &&
	    it->field->type == KIND_TYPE_TIME)
		buf_adds(b, b->len > 0 ? "; or from now: +15m +2h +30d" :
		    "RFC 3339, or from now: +15m +2h +30d");
}

/* A secret field (an output's stream key) is typed without showing. */
static int
formview_secret(const struct form_item *it)
{
	return (it->field != NULL && (it->field->flags & KIND_F_SECRET));
}

/* One '*' per character of the first len bytes; *pos mapped likewise. */
static char *
formview_masked(const char *s, size_t len, size_t *pos)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i, at = 0;

	for (i = 0; i < len; i++) {
		if (pos != NULL && i == *pos)
			at = b.len;
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			buf_addc(&b, '*');
	}
	if (pos != NULL)
		*pos = *pos >= len ? b.len : at;
	buf_addc(&b, '\0');
	b.len--;
	return (buf_detach(&b, NULL));
}

static void
formview_line_draw(struct formview *v, struct form_item *it, int y, int x,
    int w)
{
	struct line	*masked;
	char		*s;
	size_t		 pos = v->line.pos;
	attr_t		 a = screen_role(THEME_ROLE_INPUT_FOCUS);

	if (!formview_secret(it)) {
		line_draw(&v->line, y, x, w, a, 1);
		return;
	}
	masked = xcalloc(1, sizeof *masked);
	s = formview_masked(v->line.buf, v->line.len, &pos);
	line_set(masked, s);
	masked->pos = MINIMUM(pos, masked->len);
	masked->selected = v->line.selected;
	line_draw(masked, y, x, w, a, 1);
	free(s);
	free(masked);
}

/*
 * The form's error (the server's refusal, or what its fields lack) in up
 * to FORMVIEW_ERROR_ROWS rows, fewer when the fields need them (room):
 * the last one then names the key that shows it whole. 0 without one.
 */
static size_t
formview_error_rows(struct tui *t, const struct formview *v, char **rows,
    int room)
{
	const char	*e = v->error != NULL ? v->error : v->f->error;
	size_t		 max = FORMVIEW_ERROR_ROWS;

	if (e == NULL || *e == '\0')
		return (0);
	if (room < (int)max)
		max = (size_t)MAXIMUM(room, 1);
	return (status_wrap_message(t, e, (size_t)COLS - 2, rows, max));
}

/*
 * A line under the title for a kind whose API the cloud has retired (the
 * legacy rate limits): the form would make a record only a server that
 * still serves the API takes.
 */
static const char *
formview_note(const struct formview *v)
{
	if (api_gone_message(v->f->kind->list_path) == NULL)
		return (NULL);
	return ("Legacy API, retired on the cloud (HTTP 410 Gone): :rules "
	    "replaces it.");
}

static void
formview_draw(struct tui *t, struct modal *m)
{
	struct formview		*v = (struct formview *)m;
	struct form_item	*it;
	struct buf		 b;
	int			 y, y0 = 2, h, label, x, bottom, nhelp, nfoot;
	int			 long_error;
	size_t			 i, nerr, nrows;
	char			*shown, **help, *err[FORMVIEW_ERROR_ROWS];
	attr_t			 na = screen_role(THEME_ROLE_NORMAL);

	/* A long status message keeps its rows, as over a list. */
	bottom = LINES - status_height(t);
	if (formview_note(v) != NULL)
		y0++;
	label = MINIMUM(formview_label(v), COLS / 3);
	/*
	 * The focused field's help, on up to FORMVIEW_HELP_ROWS rows (a key
	 * field lists remembered ids); its error instead when the row under
	 * the field cuts it.
	 */
	buf_init(&b);
	it = &v->f->items[v->focus];
	long_error = it->error != NULL &&
	    (int)text_width(it->error) > COLS - label - 2;
	if (long_error)
		buf_adds(&b, it->error);
	else
		formview_help(it, &b);
	help = status_wrap_all(buf_str(&b), (size_t)MAXIMUM(COLS - 2, 1),
	    &nrows);
	nhelp = (int)MINIMUM(MAXIMUM(nrows, 1), FORMVIEW_HELP_ROWS);
	/* Never at the cost of the focused field's own row. */
	nhelp = MAXIMUM(MINIMUM(nhelp, bottom - y0 - 3), 1);
	nerr = formview_error_rows(t, v, err, bottom - y0 - nhelp - 2);
	nfoot = MAXIMUM((int)nerr, 1);
	h = bottom - y0 - nfoot - nhelp;
	for (y = 1; y < bottom; y++)
		screen_fill(y, 0, COLS, na);
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 2, v->title, screen_role(THEME_ROLE_TITLE));
	if (formview_note(v) != NULL)
		screen_put(2, 1, COLS - 2, formview_note(v),
		    screen_role(THEME_ROLE_WARNING));
	if (v->focus < v->top)
		v->top = v->focus;
	if (h > 0 && v->focus >= v->top + (size_t)h)
		v->top = v->focus - (size_t)h + 1;
	for (i = v->top, y = y0; i < v->f->nitems && y < y0 + h; i++, y++) {
		it = &v->f->items[i];
		x = 1;
		shown = formview_label_text(it->path, label - x - 2);
		screen_put(y, x, label - x - 1, shown,
		    i == v->focus ? screen_role(THEME_ROLE_KEY) : na);
		free(shown);
		/*
		 * Not the field's flag: a member of an optional object that
		 * is left out (action.response.body) is not required.
		 */
		if (form_required(v->f, i))
			screen_put(y, label - 1, 1, "*",
			    screen_role(THEME_ROLE_WARNING));
		if (i == v->focus && formview_is_text(it))
			formview_line_draw(v, it, y, label + 1,
			    COLS - label - 2);
		else {
			shown = formview_secret(it) ? formview_masked(it->text,
			    it->text != NULL ? strlen(it->text) : 0, NULL) :
			    it->input == FORM_ENUM ||
			    it->input == FORM_TOGGLE ?
			    xprintf("< %s >", *it->text != '\0' ? it->text :
			    "(unset)") : xstrdup(it->text);
			screen_fill(y, label + 1, COLS - label - 2,
			    screen_role(i == v->focus ?
			    THEME_ROLE_INPUT_FOCUS : THEME_ROLE_INPUT));
			screen_put(y, label + 1, COLS - label - 2, shown,
			    screen_role(i == v->focus ?
			    THEME_ROLE_INPUT_FOCUS : THEME_ROLE_INPUT));
			free(shown);
		}
		if (it->error != NULL && y + 1 < y0 + h) {
			y++;
			screen_put(y, label + 1, COLS - label - 2, it->error,
			    screen_role(THEME_ROLE_ERROR));
		}
	}
	/* The focused field's help and choices, then the form's error. */
	y = bottom - nfoot - nhelp;
	for (i = 0; i < nrows; i++) {
		if ((int)i < nhelp)
			screen_put(y + (int)i, 1, COLS - 2, help[i],
			    screen_role(long_error ? THEME_ROLE_ERROR :
			    THEME_ROLE_DIM));
		free(help[i]);
	}
	free(help);
	buf_free(&b);
	y = bottom - nfoot;
	for (i = 0; i < nerr; i++) {
		screen_put(y + (int)i, 1, COLS - 2, err[i],
		    screen_role(THEME_ROLE_ERROR));
		free(err[i]);
	}
	if (nerr == 0 && v->sending)
		screen_put(y, 1, COLS - 2, "sending...",
		    screen_role(THEME_ROLE_DIM));
	status_draw_keys(t, nerr == 0 && !v->sending ? y : -1,
	    "Tab/S-Tab move  Left/Right/letter pick a choice  Enter submit  "
	    "Esc cancel");
}

void
formview_open(struct tui *t, struct panel *p, struct form *f,
    const char *title, formview_cb cb, const char *id)
{
	struct formview	*v;

	v = xcalloc(1, sizeof *v);
	v->m.key = formview_key;
	v->m.draw = formview_draw;
	v->m.free = formview_free;
	v->p = p;
	v->f = f;
	v->title = xstrdup(title);
	v->id = id != NULL ? xstrdup(id) : NULL;
	v->cb = cb;
	formview_focus(v, 0);
	tui_push(t, &v->m);
}

int
formview_failed(struct tui *t, struct modal *m, const char *why)
{
	struct formview	*v = (struct formview *)m;

	if (!formview_on_stack(t, m))
		return (0);
	v->sending = 0;
	formview_error(t, v, xstrdup(why));
	/* Else "creating..." would stay below a form that was refused. */
	tui_message(t, TUI_MSG_ERROR, "refused by the server: the form "
	    "shows why");
	return (1);
}

void
formview_close(struct tui *t, struct modal *m)
{
	struct modal	**pp;

	/* Unlink it wherever it is (a dialog may sit on top). */
	for (pp = &t->modal; *pp != NULL; pp = &(*pp)->below) {
		if (*pp == m) {
			*pp = m->below;
			m->free(m);
			t->dirty = 1;
			return;
		}
	}
}
