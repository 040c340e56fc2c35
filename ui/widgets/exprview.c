/*
 * The expression editor: src/exprtext.c holds the text and the cursor;
 * this draws it wrapped to the screen with the lint of every change (the
 * error's characters highlighted, a caret row under them, the message
 * below), and the completion list Tab opens.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "exprtext.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/exprview.h"
#include "xmalloc.h"

#define EXPRVIEW_CANDS	96	/* completions kept (the scheme has fewer) */
#define EXPRVIEW_POPUP	8	/* rows of the completion list */
#define EXPRVIEW_MSG_ROWS	2	/* rows of the lint's message */

/* A row on screen: bytes [start, end) of the text, or the caret row. */
struct exprview_row {
	size_t	start;
	size_t	end;
	int	caret;
};

struct exprview {
	struct modal			 m;
	char				*title;
	struct exprtext			 t;
	struct expr_options		 opts;
	int				 optional;
	exprview_cb			 cb;
	void				*arg;
	size_t				 top;	/* first row shown */
	/* The last check. */
	int				 bad;
	struct expr_error		 err;
	char				*note;	/* C-f's refusal, or NULL */
	const struct expr_symbol	*told;	/* the name completed last */
	/* Completion: open when n > 0. */
	const struct expr_symbol	*cands[EXPRVIEW_CANDS];
	size_t				 ncands;
	size_t				 cand;
};

/* ---- measuring as screen_put draws --------------------------------------- */

/* The columns of the character at s (k its bytes), as screen_put has it. */
static int
exprview_char(const char *s, size_t len, size_t *k)
{
	mbstate_t	ps;
	wchar_t		wc;
	int		cw;

	if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) {
		*k = 1;
		return (1);
	}
	memset(&ps, 0, sizeof ps);
	*k = mbrtowc(&wc, s, len, &ps);
	if (*k == (size_t)-1 || *k == (size_t)-2 || *k == 0) {
		*k = 1;
		return (1);
	}
	if (!iswprint((wint_t)wc))
		return (1);
	return ((cw = wcwidth(wc)) < 0 ? 1 : cw);
}

int
exprview_width(const char *s, size_t start, size_t end)
{
	size_t	k;
	int	col = 0;

	while (start < end) {
		col += exprview_char(s + start, end - start, &k);
		start += k;
	}
	return (col);
}

/* One piece of a row, drawn from a copy that ends where it does. */
static int
exprview_piece(int y, int x, int w, const char *s, size_t start, size_t end,
    attr_t attr)
{
	char	*piece;
	int	 col;

	if (start >= end || w <= 0)
		return (0);
	piece = xstrndup(s + start, end - start);
	col = screen_put(y, x, w, piece, attr);
	free(piece);
	return (col);
}

int
exprview_put(int y, int x, int w, const char *s, size_t start, size_t end,
    size_t hl, size_t hlend, attr_t attr, attr_t hlattr)
{
	size_t	a = MINIMUM(MAXIMUM(hl, start), end);
	size_t	b = MINIMUM(MAXIMUM(hlend, a), end);
	int	col = 0;

	col += exprview_piece(y, x + col, w - col, s, start, a, attr);
	col += exprview_piece(y, x + col, w - col, s, a, b, hlattr);
	col += exprview_piece(y, x + col, w - col, s, b, end, attr);
	return (col);
}

/* ---- the check ----------------------------------------------------------- */

int
exprview_lint(const char *text, const struct expr_options *opts,
    int optional, struct expr_error *err)
{
	const char	*s = text;

	memset(err, 0, sizeof *err);
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	if (*s == '\0') {
		if (optional)
			return (0);
		snprintf(err->message, sizeof err->message, "required: which "
		    "requests the rule applies to");
		return (-1);
	}
	return (expr_check(text, opts, err) == 0 ? 0 : -1);
}

/* The first warning of valid text as the editor says it, or NULL. */
static char *
exprview_warning(const char *text, const struct expr_options *opts)
{
	struct expr_warning	 w[4];
	struct expr_error	 err;
	struct expr		*e;
	char			*where, *s = NULL;
	size_t			 n;

	if ((e = expr_parse(text, opts, &err)) == NULL)
		return (NULL);
	if ((n = expr_warnings(e, w, nitems(w))) > 0) {
		err.column = w[0].column;
		where = expr_error_where(text, &err);
		s = xprintf("warning: %s: %s%s", where, w[0].message, n > 1 ?
		    " (and more)" : "");
		free(where);
	}
	expr_free(e);
	return (s);
}

char *
exprview_lint_message(const char *text, const struct expr_options *opts,
    int optional, int *error)
{
	struct expr_error	 err;
	char			*where, *s;

	*error = 0;
	if (exprview_lint(text, opts, optional, &err) == 0)
		return (exprview_warning(text, opts));
	*error = 1;
	if (err.column <= 0)
		return (xstrdup(err.message));
	where = expr_error_where(text, &err);
	s = xprintf("%s: %s", where, err.message);
	free(where);
	return (s);
}

static void
exprview_check(struct exprview *v)
{
	v->bad = exprview_lint(v->t.buf, &v->opts, v->optional, &v->err) != 0;
}

/* The error's bytes, when it is about a place. */
static int
exprview_error_span(const struct exprview *v, size_t *es, size_t *ee)
{
	if (!v->bad || v->err.column <= 0)
		return (0);
	*es = exprtext_column_offset(v->t.buf, v->err.column);
	*ee = exprtext_column_offset(v->t.buf, v->err.column +
	    MAXIMUM(v->err.length, 1));
	return (1);
}

/* ---- layout -------------------------------------------------------------- */

/*
 * The rows of the text wrapped to w columns, after a space or a '/' where
 * the row has one (a word is cut only when longer than a row), with the
 * caret row under the one the error starts in; *cur is the row of the
 * cursor. Caller frees.
 */
static struct exprview_row *
exprview_layout(const struct exprview *v, int w, size_t *n, size_t *cur)
{
	const char		*s = v->t.buf;
	struct exprview_row	*rows = NULL;
	size_t			 nrows = 0, cap = 0, i, k, es = 0, ee = 0;
	size_t			 start = 0, end, after = 0;
	int			 col = 0, cw, span, caret_done = 0;

	span = exprview_error_span(v, &es, &ee);
	*cur = 0;
	for (i = 0;; ) {
		int	 brk = s[i] == '\0' || s[i] == '\n';

		cw = brk ? 0 : exprview_char(s + i, v->t.len - i, &k);
		if (brk || (col + cw > w && i > start)) {
			/* Full: back to after the row's last space or '/'. */
			end = !brk && after > start ? after : i;
			if (nrows + 2 >= cap) {
				cap = cap == 0 ? 16 : cap * 2;
				rows = xreallocarray(rows, cap, sizeof *rows);
			}
			rows[nrows].start = start;
			rows[nrows].end = end;
			rows[nrows++].caret = 0;
			/* The cursor at a wrap belongs to the next row. */
			if (v->t.pos >= start && (v->t.pos < end ||
			    (v->t.pos == end && brk)))
				*cur = nrows - 1;
			if (span && !caret_done && es >= start &&
			    (es < end || (es == end && brk))) {
				rows[nrows].start = start;
				rows[nrows].end = end;
				rows[nrows++].caret = 1;
				caret_done = 1;
			}
			if (s[i] == '\0')
				break;
			i = brk ? i + 1 : end;
			start = after = i;
			col = 0;
			continue;
		}
		col += cw;
		i += k;
		if (s[i - k] == ' ' || s[i - k] == '/')
			after = i;
	}
	*n = nrows;
	return (rows);
}

/* ---- drawing ------------------------------------------------------------- */

/* "^^^" under the error's characters in the row they start in. */
static void
exprview_caret(const struct exprview *v, const struct exprview_row *r,
    int y, int x, int w)
{
	size_t	es, ee;
	int	from, width;
	char	*marks;

	if (!exprview_error_span(v, &es, &ee))
		return;
	from = exprview_width(v->t.buf, r->start, es);
	width = MAXIMUM(1, exprview_width(v->t.buf, es, MINIMUM(ee, r->end)));
	width = MINIMUM(width, w - from);
	if (width <= 0)
		return;
	marks = xmalloc((size_t)width + 1);
	memset(marks, '^', (size_t)width);
	marks[width] = '\0';
	screen_put(y, x + from, width, marks, screen_role(THEME_ROLE_ERROR));
	free(marks);
}

static void
exprview_draw_popup(struct exprview *v, int y, int x)
{
	size_t	i, first = 0;
	int	w = 0, h, rows, y0, x0;
	char	*line;
	attr_t	a;

	for (i = 0; i < v->ncands; i++)
		w = MAXIMUM(w, (int)(strlen(v->cands[i]->name) +
		    text_width(v->cands[i]->type) + 6));
	w = MINIMUM(w, COLS - 2);
	rows = (int)MINIMUM(v->ncands, EXPRVIEW_POPUP);
	h = rows + 2;
	if (w < 8 || LINES < h + 4)
		return;
	y0 = y + 1 + h <= LINES - 2 ? y + 1 : MAXIMUM(1, y - h);
	x0 = MINIMUM(x, COLS - w - 1);
	if (v->cand >= (size_t)rows)
		first = v->cand - (size_t)rows + 1;
	for (i = 0; i < (size_t)h; i++)
		screen_fill(y0 + (int)i, x0, w, screen_role(THEME_ROLE_NORMAL));
	screen_box(y0, x0, h, w, screen_role(THEME_ROLE_BORDER));
	for (i = first; i < v->ncands && i < first + (size_t)rows; i++) {
		a = screen_role(i == v->cand ? THEME_ROLE_ROW_SELECTED :
		    THEME_ROLE_NORMAL);
		line = xprintf("%s  %s", v->cands[i]->name, v->cands[i]->type);
		screen_fill(y0 + 1 + (int)(i - first), x0 + 1, w - 2, a);
		screen_cell(y0 + 1 + (int)(i - first), x0 + 1, w - 2, line, a);
		free(line);
	}
}

/* The lint's problem with the text as it is, or NULL when there is none. */
static char *
exprview_problem(const struct exprview *v)
{
	char	*where, *s;

	if (!v->bad)
		return (NULL);
	if (v->err.column <= 0)
		return (xstrdup(v->err.message));
	where = expr_error_where(v->t.buf, &v->err);
	s = xprintf("%s: %s", where, v->err.message);
	free(where);
	return (s);
}

/*
 * Under the text: the error (two rows, then the key that shows it whole,
 * kept for it when the editor closes), or that it is valid; then, on the
 * third, what the name completed or chosen in the list is.
 */
static void
exprview_draw_message(struct tui *t, struct exprview *v, int y)
{
	const struct expr_symbol	*sym;
	char				*msg, *rows[EXPRVIEW_MSG_ROWS];
	size_t				 n, i;
	attr_t				 a;

	a = screen_role(THEME_ROLE_ERROR);
	if (v->note != NULL)
		msg = xstrdup(v->note);
	else if ((msg = exprview_problem(v)) != NULL)
		;
	else if (*v->t.buf == '\0') {
		msg = xstrdup("empty: the requests the rule's expression "
		    "matches are counted");
		a = screen_role(THEME_ROLE_OK);
	} else if ((msg = exprview_warning(v->t.buf, &v->opts)) != NULL)
		a = screen_role(THEME_ROLE_WARNING);
	else {
		msg = xprintf("valid %s%s%s", v->opts.plan != EXPR_PLAN_NONE ?
		    "on the " : "(language only: no plan: in the profile)",
		    v->opts.plan != EXPR_PLAN_NONE ?
		    expr_plan_title(v->opts.plan) : "",
		    v->opts.plan != EXPR_PLAN_NONE ? " plan" : "");
		a = screen_role(THEME_ROLE_OK);
	}
	n = status_wrap_message(t, msg, (size_t)MAXIMUM(COLS - 2, 1), rows,
	    EXPRVIEW_MSG_ROWS);
	for (i = 0; i < n; i++) {
		screen_put(y + (int)i, 1, COLS - 2, rows[i], a);
		free(rows[i]);
	}
	free(msg);
	sym = v->ncands > 0 ? v->cands[v->cand] : v->told;
	if (sym != NULL) {
		msg = xprintf("%s  %s: %s", sym->name, sym->type, sym->summary);
		screen_put(y + 2, 1, COLS - 2, msg,
		    screen_role(THEME_ROLE_DIM));
		free(msg);
	}
}

static void
exprview_draw(struct tui *t, struct modal *m)
{
	struct exprview		*v = (struct exprview *)m;
	struct exprview_row	*rows;
	size_t			 n, cur, i, hs = 0, he = 0;
	int			 y, y0 = 2, h = LINES - 7, w = COLS - 2, cx, cy;
	attr_t			 na = screen_role(THEME_ROLE_NORMAL);
	attr_t			 in = screen_role(THEME_ROLE_INPUT);

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, na);
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 2, v->title, screen_role(THEME_ROLE_TITLE));
	if (h < 1 || w < 4)
		return;
	rows = exprview_layout(v, w, &n, &cur);
	/* The caret row under the cursor's stays in view with it. */
	if (cur < v->top)
		v->top = cur;
	if (cur >= v->top + (size_t)h)
		v->top = cur - (size_t)h + 1;
	if (cur + 1 < n && rows[cur + 1].caret && cur + 1 >= v->top +
	    (size_t)h)
		v->top++;
	exprview_error_span(v, &hs, &he);
	cx = 1;
	cy = y0;
	for (i = v->top, y = y0; i < n && y < y0 + h; i++, y++) {
		screen_fill(y, 1, w, in);
		if (rows[i].caret) {
			screen_fill(y, 1, w, na);
			exprview_caret(v, &rows[i], y, 1, w);
			continue;
		}
		exprview_put(y, 1, w, v->t.buf, rows[i].start, rows[i].end,
		    hs, he, in, screen_role(THEME_ROLE_ERROR) | A_REVERSE);
		if (i == cur) {
			cy = y;
			cx = 1 + exprview_width(v->t.buf, rows[i].start,
			    v->t.pos);
		}
	}
	for (; y < y0 + h; y++)
		screen_fill(y, 1, w, in);
	free(rows);
	exprview_draw_message(t, v, y0 + h);
	status_draw_keys(t, LINES - 2, v->ncands > 0 ?
	    "Up/Down choose  Tab/Enter take it  Esc close the list" :
	    "Tab complete  C-f format  Enter new line  Esc back to the form");
	if (v->ncands > 0)
		exprview_draw_popup(v, cy, cx);
	else
		screen_want_cursor(cy, MINIMUM(cx, COLS - 1));
}

/* ---- keys ---------------------------------------------------------------- */

static void
exprview_complete(struct exprview *v)
{
	size_t	n;

	/* Nothing typed yet lists every name, to browse. */
	n = exprtext_complete(&v->t, &v->opts, v->cands, EXPRVIEW_CANDS);
	if (n == 0) {
		free(v->note);
		v->note = xstrdup("nothing to complete: no field or function "
		    "name allowed here starts so");
		return;
	}
	if (exprtext_extend(&v->t, v->cands, n) && n == 1) {
		v->told = v->cands[0];
		v->ncands = 0;
		return;
	}
	/* Several: the list, from which Tab or Enter takes one. */
	v->ncands = n;
	v->cand = 0;
}

static void
exprview_format(struct exprview *v)
{
	struct expr_error	 err;
	struct expr		*e;
	enum expr_fmt_form	 form;
	char			*s;

	if ((e = expr_parse(v->t.buf, &v->opts, &err)) == NULL) {
		free(v->note);
		s = expr_error_where(v->t.buf, &err);
		v->note = xprintf("not formatted: %s: %s", s, err.message);
		free(s);
		return;
	}
	s = expr_format_fit(e, &form);
	exprtext_set(&v->t, s);
	free(s);
	expr_free(e);
	if (form != EXPR_FMT_CANONICAL) {
		free(v->note);
		v->note = xstrdup(expr_fmt_form_note(form));
	}
}

/* A key while the completion list is open; 0 when it closes the list. */
static int
exprview_popup_key(struct exprview *v, int key)
{
	switch (key) {
	case KEY_UP:
		if (v->cand > 0)
			v->cand--;
		return (1);
	case KEY_DOWN:
		if (v->cand + 1 < v->ncands)
			v->cand++;
		return (1);
	case '\t':
	case '\r':
		exprtext_accept(&v->t, v->cands[v->cand]);
		v->told = v->cands[v->cand];
		v->ncands = 0;
		exprview_check(v);
		return (1);
	case 033:
		v->ncands = 0;
		return (1);
	default:
		v->ncands = 0;
		return (0);
	}
}

/* Editing keys; 1 when the text changed. */
static int
exprview_edit_key(struct exprview *v, int key)
{
	struct exprtext	*t = &v->t;
	int		 i;

	switch (key) {
	case KEY_LEFT:
		exprtext_left(t);
		return (0);
	case KEY_RIGHT:
		exprtext_right(t);
		return (0);
	case KEY_UP:
		exprtext_up(t);
		return (0);
	case KEY_DOWN:
		exprtext_down(t);
		return (0);
	case KEY_PPAGE:
		for (i = 0; i < LINES / 2; i++)
			exprtext_up(t);
		return (0);
	case KEY_NPAGE:
		for (i = 0; i < LINES / 2; i++)
			exprtext_down(t);
		return (0);
	case KEY_HOME:
	case 'A' & 0x1f:
		exprtext_home(t);
		return (0);
	case KEY_END:
	case 'E' & 0x1f:
		exprtext_end(t);
		return (0);
	case '\r':
		return (exprtext_newline(t));
	case KEY_BACKSPACE:
	case 0x7f:
	case 'H' & 0x1f:
		return (exprtext_backspace(t));
	case KEY_DC:
	case 'D' & 0x1f:
		return (exprtext_delete(t));
	case 'K' & 0x1f:
		return (exprtext_kill_line(t));
	case 'W' & 0x1f:
		return (exprtext_kill_word(t));
	}
	if (key & KEYMAP_META)
		return (0);
	/* U+0100..U+01FF come flagged: curses uses their numbers. */
	if (key & KEYMAP_WIDE)
		return (exprtext_insert_char(t,
		    (uint32_t)(key & ~KEYMAP_WIDE)));
	if (key >= KEY_MIN && key <= KEY_MAX)
		return (0);
	return (exprtext_insert_char(t, (uint32_t)key));
}

static int
exprview_key(struct tui *t, struct modal *m, int key)
{
	struct exprview	*v = (struct exprview *)m;
	exprview_cb	 cb = v->cb;
	void		*arg = v->arg;
	char		*text;

	if (v->ncands > 0 && exprview_popup_key(v, key))
		return (TUI_HANDLED);
	free(v->note);
	v->note = NULL;
	v->told = NULL;
	switch (key) {
	case 033:
		/*
		 * The lint speaks at every key; what it says of the text
		 * left is kept for ! (its rows may have cut it short).
		 */
		if ((text = exprview_problem(v)) != NULL) {
			tui_message_keep(t, TUI_MSG_WARN, text);
			free(text);
		}
		/* Popped first: the answer may reopen or redraw the form. */
		text = xstrdup(v->t.buf);
		tui_pop(t);
		cb(t, arg, text);
		free(text);
		return (TUI_HANDLED);
	case '\t':
		exprview_complete(v);
		break;
	case 'F' & 0x1f:
		exprview_format(v);
		break;
	default:
		exprview_edit_key(v, key);
		break;
	}
	exprview_check(v);
	return (TUI_HANDLED);
}

static void
exprview_free(struct modal *m)
{
	struct exprview	*v = (struct exprview *)m;

	exprtext_free(&v->t);
	free(v->title);
	free(v->note);
	free(v);
}

void
exprview_open(struct tui *t, const char *title, const char *text,
    const struct expr_options *opts, int optional, exprview_cb cb, void *arg)
{
	struct exprview	*v;

	v = xcalloc(1, sizeof *v);
	v->m.key = exprview_key;
	v->m.draw = exprview_draw;
	v->m.free = exprview_free;
	v->title = text_clean(title);
	exprtext_init(&v->t, text);
	if (opts != NULL)
		v->opts = *opts;
	v->optional = optional;
	v->cb = cb;
	v->arg = arg;
	exprview_check(v);
	tui_push(t, &v->m);
}
