/*
 * The generic panel's filters: the / line over the listed rows (sent to
 * the server too where the kind has a text filter) and F's server filters.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pager.h"
#include "resource.h"
#include "screen.h"
#include "tui.h"
#include "widgets/line.h"
#include "xmalloc.h"

/* ---- the filter line ------------------------------------------------------ */

struct panel_filter {
	struct modal	 m;
	struct panel	*p;
	struct line	 line;
	char		*orig;
};

static void
panel_filter_apply(struct panel *p, const char *text)
{
	free(p->filter);
	p->filter = text != NULL && *text != '\0' ? xstrdup(text) : NULL;
	rows_filter(p->rows, p->filter);
	panel_restore(p);
	if (p->cursor_id == NULL || rows_find(p->rows, p->cursor_id) < 0) {
		p->cursor = 0;
		panel_remember(p);
	}
}

void
panel_filter_flush(struct panel *p)
{
	char	*text;

	if ((text = p->filter_pending) == NULL)
		return;
	p->filter_pending = NULL;
	panel_filter_apply(p, text);
	free(text);
}

/*
 * Whether the list must be asked again for a filter changed from what to
 * text: the kind filters its text on the server, unless the one page it
 * has is all there is.
 */
static int
panel_filter_server(struct panel *p, const char *was, const char *text)
{
	if (kind_filter_text(p->kind) == NULL || (p->pager != NULL &&
	    pager_done(p->pager) && p->kind->paging == PAGER_SINGLE))
		return (0);
	if (was == NULL || *was == '\0')
		return (text != NULL && *text != '\0');
	return (text == NULL || strcmp(was, text) != 0);
}

void
panel_filter_clear(struct panel *p)
{
	char	*was = p->filter;

	p->filter = NULL;
	free(p->filter_pending);
	p->filter_pending = NULL;
	panel_filter_apply(p, NULL);
	if (panel_filter_server(p, was, NULL))
		panel_load(p);
	free(was);
	tui_message(p->tui, TUI_MSG_INFO, "filter cleared");
}

static int
panel_filter_key(struct tui *t, struct modal *m, int key)
{
	struct panel_filter	*f = (struct panel_filter *)m;
	struct panel		*p = f->p;
	int			 server;

	if (key == 033) {
		free(p->filter_pending);
		p->filter_pending = NULL;
		panel_filter_apply(p, f->orig);
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == '\r') {
		panel_filter_flush(p);
		server = panel_filter_server(p, f->orig, f->line.buf);
		tui_pop(t);
		if (server)
			panel_load(p);
		return (TUI_HANDLED);
	}
	/* Applied once before the next draw, however many keys came. */
	if (line_key(&f->line, key) == LINE_CHANGED) {
		free(p->filter_pending);
		p->filter_pending = xstrdup(f->line.buf);
	}
	return (TUI_HANDLED);
}

static void
panel_filter_draw(struct tui *t, struct modal *m)
{
	struct panel_filter	*f = (struct panel_filter *)m;

	(void)t;
	line_draw_bottom(&f->line, "/");
}

static void
panel_filter_free(struct modal *m)
{
	struct panel_filter	*f = (struct panel_filter *)m;

	free(f->orig);
	free(f);
}

void
panel_filter_open(struct panel *p)
{
	struct panel_filter	*f;

	f = xcalloc(1, sizeof *f);
	f->m.key = panel_filter_key;
	f->m.draw = panel_filter_draw;
	f->m.free = panel_filter_free;
	f->p = p;
	f->orig = p->filter != NULL ? xstrdup(p->filter) : NULL;
	line_set(&f->line, p->filter);
	/*
	 * Typing starts a new filter, Backspace clears it; an arrow edits
	 * this one.
	 */
	line_select(&f->line);
	tui_push(p->tui, &f->m);
}

/* ---- server filters (F) -------------------------------------------------- */

/* The prompt's question: the form of the answer and the filters' names. */
static char *
panel_query_title(struct panel *p)
{
	const struct kind_filter	*f;
	struct buf			 b;

	buf_init(&b);
	buf_adds(&b, "server filters, NAME=VALUE ... (");
	for (f = p->kind->filters; f->name != NULL; f++)
		buf_addf(&b, "%s%s", f == p->kind->filters ? "" : " ",
		    f->name);
	buf_adds(&b, ")");
	return (buf_detach(&b, NULL));
}

/* NAME=VALUE words into an encoded query; -1 and *why on the first bad. */
static int
panel_query_parse(struct panel *p, const char *text, struct buf *q,
    char **why)
{
	char	*copy, *word, *save = NULL, *eq;
	int	 rc = -1;

	copy = xstrdup(text);
	for (word = strtok_r(copy, " ", &save); word != NULL;
	    word = strtok_r(NULL, " ", &save)) {
		if ((eq = strchr(word, '=')) == NULL) {
			*why = xprintf("'%s': write NAME=VALUE", word);
			goto out;
		}
		*eq++ = '\0';
		if (kind_filter_find(p->kind, word) == NULL) {
			*why = xprintf("%s has no filter '%s'", p->kind->name,
			    word);
			goto out;
		}
		if (kind_filter_add(p->kind, word, eq, q, why) != 0)
			goto out;
	}
	rc = 0;
out:
	free(copy);
	return (rc);
}

static void
panel_query_set(struct tui *t, void *arg, const char *text)
{
	struct panel	*p = arg;
	struct buf	 q;
	char		*why = NULL, *title;

	buf_init(&q);
	if (panel_query_parse(p, text, &q, &why) != 0) {
		/* Asked again with what was typed, and why it was refused. */
		title = panel_query_title(p);
		dialog_prompt_again(t, title, text, why, 0, panel_query_set,
		    p, NULL);
		tui_message(t, TUI_MSG_ERROR, "%s", why);
		free(title);
		free(why);
		buf_free(&q);
		return;
	}
	free(p->query);
	p->query = q.len > 0 ? xstrdup(buf_str(&q)) : NULL;
	panel_load(p);
	buf_free(&q);
}

/* The query as it is typed: "a=1&b=x%20y" is "a=1 b=x y". */
static char *
panel_query_typed(const char *query)
{
	struct buf	 b;
	const char	*s;
	char		 hex[3];

	buf_init(&b);
	for (s = query; s != NULL && *s != '\0'; s++) {
		if (*s == '&')
			buf_addc(&b, ' ');
		else if (*s == '%' && isxdigit((unsigned char)s[1]) &&
		    isxdigit((unsigned char)s[2])) {
			memcpy(hex, s + 1, 2);
			hex[2] = '\0';
			buf_addc(&b, (char)strtol(hex, NULL, 16));
			s += 2;
		} else
			buf_addc(&b, *s);
	}
	return (buf_detach(&b, NULL));
}

void
panel_query(struct panel *p)
{
	char	*title, *typed;

	if (p->kind->filters == NULL || p->kind->filters[0].name == NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "%s has no server filters",
		    p->kind->name);
		return;
	}
	title = panel_query_title(p);
	typed = panel_query_typed(p->query);
	dialog_prompt(p->tui, title, typed, 0, panel_query_set, p, NULL);
	free(typed);
	free(title);
}
