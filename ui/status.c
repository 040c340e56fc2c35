/*
 * The console's header (profile, account, zone, budget, transfers) and
 * status line (the last message, else the footer's hints).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "http.h"
#include "screen.h"
#include "text.h"
#include "theme.h"
#include "transfers.h"
#include "tui.h"
#include "xmalloc.h"

/* The first len digits of an id and an ellipsis, or "-". */
static void
status_short_id(const char *id, size_t len, char *out, size_t size)
{
	if (id == NULL)
		snprintf(out, size, "-");
	else if (strlen(id) > len)
		snprintf(out, size, "%.*s%s", (int)len, id, screen_ellipsis());
	else
		snprintf(out, size, "%s", id);
}

/*
 * The host (and port) of the server when the environment or an option
 * sends the session elsewhere than its profile says; else NULL. Never a
 * user or password the URL may hold.
 */
static char *
status_server(struct tui *t)
{
	const struct config_profile	*prof;
	const char			*u = t->session.base_url, *at, *end;
	char				*host, *clean;

	if (u == NULL || t->cfg == NULL || t->session.profile == NULL ||
	    (prof = config_profile(t->cfg, t->session.profile)) == NULL ||
	    prof->base_url == NULL || strcmp(prof->base_url, u) == 0)
		return (NULL);
	if ((at = strstr(u, "://")) != NULL)
		u = at + 3;
	end = u + strcspn(u, "/?#");
	for (at = u; at < end; at++)
		if (*at == '@')
			u = at + 1;
	host = xstrndup(u, (size_t)(end - u));
	clean = text_clean(host);
	free(host);
	return (clean);
}

#define STATUS_HEADER_LEVELS	4

/*
 * The header's left part at a level of detail, 0 the most: the program's
 * name goes first, then the ids' length and the word "server", then the
 * other words.
 */
static char *
status_header_left(struct tui *t, const char *server, int level)
{
	struct buf	 b;
	char		 acc[32], zone[32];
	const char	*profile = t->session.profile != NULL ?
			    t->session.profile : "-";
	size_t		 idlen = level >= 2 ? 4 : 8;

	status_short_id(t->session.scope.account, idlen, acc, sizeof acc);
	status_short_id(t->session.scope.zone, idlen, zone, sizeof zone);
	buf_init(&b);
	if (level == 0)
		buf_adds(&b, " edgetui ");
	if (level < 3)
		buf_addf(&b, " profile %s ", profile);
	else
		buf_addf(&b, " %s ", profile);
	if (server != NULL)
		buf_addf(&b, " %s%s ", level < 2 ? "server " : "", server);
	if (level < 3)
		buf_addf(&b, " account %s  zone %s ", acc, zone);
	else
		buf_addf(&b, " %s  %s ", acc, zone);
	return (buf_detach(&b, NULL));
}

/*
 * The header: where (profile, a server the profile does not name,
 * account, zone), READ-ONLY, the transfers and the budget left. A narrow
 * screen keeps the budget and the badge whole: the transfers' summary
 * goes first, then the left part says less, then it is cut.
 */
void
status_draw_header(struct tui *t)
{
	struct buf	 xb;
	char		*left = NULL, *server, *cut, right[128];
	const char	*badge = t->session.readonly ? " READ-ONLY " : "";
	attr_t		 a = screen_role(THEME_ROLE_HEADER);
	int		 x, w = COLS, level, xfers, rw;
	long		 budget;

	budget = t->http != NULL ? http_budget_left(t->http) : -1;
	t->budget_shown = budget;
	buf_init(&xb);
	transfers_summary(t, &xb);
	server = status_server(t);
	for (xfers = xb.len > 0; xfers >= 0; xfers--) {
		snprintf(right, sizeof right, "%s%s budget %ld ", xfers ?
		    buf_str(&xb) : "", xfers ? "  " : "", budget);
		rw = (int)text_width(right) + (int)text_width(badge);
		for (level = 0; level < STATUS_HEADER_LEVELS; level++) {
			free(left);
			left = status_header_left(t, server, level);
			if ((int)text_width(left) + rw <= w)
				break;
		}
		if (level < STATUS_HEADER_LEVELS)
			break;
	}
	if ((int)text_width(left) + rw > w) {
		cut = text_ellipsize(left, (size_t)MAXIMUM(w - rw, 0),
		    screen_ellipsis());
		free(left);
		left = cut;
	}
	screen_fill(0, 0, w, a);
	x = screen_put(0, 0, w, left, a | A_BOLD);
	if (*badge != '\0' && x + (int)text_width(badge) <= w)
		x += screen_put(0, x, w - x, badge,
		    screen_role(THEME_ROLE_BADGE));
	if ((int)text_width(right) + x <= w)
		screen_put(0, w - (int)text_width(right),
		    (int)text_width(right), right, a);
	free(left);
	free(server);
	buf_free(&xb);
}

/* ---- the footer's hints: actions, with the keys the keymap binds ------ */

/*
 * The actions read-only mode refuses in every panel that offers them (M
 * is not here: it shows its plan before it is refused).
 */
static const enum action status_changes[] = {
	ACTION_NEW, ACTION_EDIT, ACTION_EDIT_YAML, ACTION_DELETE,
	ACTION_TOGGLE, ACTION_REVIEW, ACTION_IGNORE, ACTION_SAVE,
	ACTION_SET_VALIDATION, ACTION_BULK_CREATE, ACTION_UPLOAD,
	ACTION_DIRECT_UPLOAD, ACTION_DOWNLOAD, ACTION_UPLOAD_FROM_URL,
	ACTION_CLIP, ACTION_GENERATE, ACTION_MOVE_UP, ACTION_MOVE_DOWN,
	ACTION_VERSION_RESTORE, ACTION_UNDO, ACTION_RESUME, ACTION_APPLY,
	ACTION_APPLY_DISABLE
};

static int
status_refused(struct tui *t, enum action a)
{
	size_t	i;

	if (tui_readonly(t) == NULL)
		return (0);
	for (i = 0; i < nitems(status_changes); i++)
		if (status_changes[i] == a)
			return (1);
	return (0);
}

/*
 * "  KEY label", or nothing when no key does the action there or when
 * read-only mode refuses it (the key still says so).
 */
void
status_hint(struct tui *t, struct buf *b, enum keymap_context ctx,
    enum action a, const char *label)
{
	char	name[KEYMAP_KEY_NAME_MAX];

	if (status_refused(t, a) ||
	    status_key_name(t, ctx, a, name) == NULL)
		return;
	buf_addf(b, "  %s %s", name, label);
}

const char *
status_key_name(struct tui *t, enum keymap_context ctx, enum action a,
    char *name)
{
	int	key;

	if ((key = keymap_key_of(t->keymap, ctx, a)) == -1)
		return (NULL);
	keymap_key_name(key, name, KEYMAP_KEY_NAME_MAX);
	return (name);
}

/*
 * "  K1/K2 label" for two actions that go together (g/G first/last), or
 * "  arrows label" where the arrow keys move up and down; nothing unless
 * both have a key.
 */
void
status_hint_pair(struct tui *t, struct buf *b, enum keymap_context ctx,
    enum action a1, enum action a2, const char *label)
{
	char	keys[2 * KEYMAP_KEY_NAME_MAX];

	if (status_key_pair(t, ctx, a1, a2, keys) != NULL)
		buf_addf(b, "  %s %s", keys, label);
}

const char *
status_key_pair(struct tui *t, enum keymap_context ctx, enum action a1,
    enum action a2, char *keys)
{
	char	n1[KEYMAP_KEY_NAME_MAX], n2[KEYMAP_KEY_NAME_MAX];

	if (a1 == ACTION_UP && a2 == ACTION_DOWN &&
	    keymap_lookup(t->keymap, ctx, KEY_UP) == ACTION_UP &&
	    keymap_lookup(t->keymap, ctx, KEY_DOWN) == ACTION_DOWN) {
		snprintf(keys, 2 * KEYMAP_KEY_NAME_MAX, "arrows");
		return (keys);
	}
	if (status_key_name(t, ctx, a1, n1) == NULL ||
	    status_key_name(t, ctx, a2, n2) == NULL)
		return (NULL);
	snprintf(keys, 2 * KEYMAP_KEY_NAME_MAX, "%s/%s", n1, n2);
	return (keys);
}

/* " (KEY what)" when a key does a in ctx, else "": for a message. */
void
status_key_note(struct tui *t, enum keymap_context ctx, enum action a,
    const char *what, char *out, size_t len)
{
	char	name[KEYMAP_KEY_NAME_MAX];

	if (status_key_name(t, ctx, a, name) != NULL)
		snprintf(out, len, " (%s %s)", name, what);
	else if (len > 0)
		*out = '\0';
}

static int
status_has_secrets(const struct kind *k)
{
	const struct kind_field	*f;

	for (f = k->fields; f != NULL && f->path != NULL; f++)
		if (f->flags & KIND_F_SECRET)
			return (1);
	return (0);
}

/* What the generic panel can do with this kind. */
static void
status_verb_hints(struct panel *p, struct buf *b)
{
	struct tui		*t = p->tui;
	unsigned		 v = p->kind->verbs;
	enum keymap_context	 ctx = keymap_list_context(p->kind->name);

	if (v & KIND_VERB_CREATE)
		status_hint(t, b, ctx, ACTION_NEW, "new");
	if (v & KIND_VERB_UPDATE) {
		status_hint(t, b, ctx, ACTION_EDIT, "edit");
		status_hint(t, b, ctx, ACTION_EDIT_YAML, "yaml");
	}
	if (v & (KIND_VERB_DELETE | KIND_VERB_BULK_DELETE))
		status_hint(t, b, ctx, ACTION_DELETE, "delete");
	if (status_has_secrets(p->kind))
		status_hint(t, b, KEYMAP_DETAIL, ACTION_REVEAL,
		    "reveal secrets (details)");
}

/* The details' keys. */
static void
status_detail_hints(struct panel *p, struct buf *b)
{
	struct tui	*t = p->tui;
	unsigned	 v = p->kind->verbs;
	char		 next[KEYMAP_KEY_NAME_MAX], prev[KEYMAP_KEY_NAME_MAX];
	int		 kn, kp;

	if (p->kind->shape != KIND_SHAPE_OBJECT)
		status_hint(t, b, KEYMAP_DETAIL, ACTION_QUIT, "back");
	status_hint(t, b, KEYMAP_DETAIL, ACTION_SEARCH, "find");
	kn = keymap_key_of(t->keymap, KEYMAP_DETAIL, ACTION_SEARCH_NEXT);
	kp = keymap_key_of(t->keymap, KEYMAP_DETAIL, ACTION_SEARCH_PREV);
	if (kn != -1 && kp != -1) {
		keymap_key_name(kn, next, sizeof next);
		keymap_key_name(kp, prev, sizeof prev);
		buf_addf(b, "  %s/%s next/prev", next, prev);
	}
	status_hint(t, b, KEYMAP_DETAIL, ACTION_COPY, "copy");
	status_hint(t, b, KEYMAP_DETAIL, ACTION_SAVE_FILE, "save");
	status_hint(t, b, KEYMAP_DETAIL, ACTION_JSON,
	    p->detail_json ? "yaml" : "json");
	if (status_has_secrets(p->kind))
		status_hint(t, b, KEYMAP_DETAIL, ACTION_REVEAL, p->reveal ?
		    "hide secrets" : "show secrets");
	if (p->ops != NULL && p->ops->readonly)
		v = 0;
	if (v & KIND_VERB_UPDATE) {
		status_hint(t, b, KEYMAP_DETAIL, ACTION_EDIT, "edit");
		status_hint(t, b, KEYMAP_DETAIL, ACTION_EDIT_YAML, "yaml");
	}
	if (v & (KIND_VERB_DELETE | KIND_VERB_BULK_DELETE))
		status_hint(t, b, KEYMAP_DETAIL, ACTION_DELETE, "delete");
	status_hint(t, b, KEYMAP_DETAIL, ACTION_HELP, "help");
}

/* A list's keys: the generic ones, then the panel's or its kind's verbs. */
static void
status_list_hints(struct tui *t, struct panel *p, struct buf *b)
{
	const struct panel_hint	*h;
	char			 cmd[KEYMAP_KEY_NAME_MAX];
	int			 key;

	status_hint(t, b, KEYMAP_LIST, ACTION_HELP, "help");
	/* Until the first command, say how to reach the other lists. */
	key = keymap_key_of(t->keymap, KEYMAP_LIST, ACTION_COMMAND);
	if (key != -1) {
		keymap_key_name(key, cmd, sizeof cmd);
		if (t->nhistory == 0 && t->npanels <= 1)
			buf_addf(b, "  %srules %svideos …", cmd, cmd);
		else
			buf_addf(b, "  %s command", cmd);
	}
	status_hint(t, b, KEYMAP_LIST, ACTION_FILTER, "filter");
	/* A panel naming what Enter does there ("VTT") says it instead. */
	for (h = p != NULL && p->ops != NULL ? p->ops->hints : NULL;
	    h != NULL && h->action != ACTION_NONE; h++)
		if (h->action == ACTION_DETAILS)
			break;
	if (h == NULL || h->action != ACTION_DETAILS)
		status_hint(t, b, KEYMAP_LIST, ACTION_DETAILS, "details");
	if (p != NULL && p->ops != NULL && p->ops->hints != NULL)
		for (h = p->ops->hints; h->action != ACTION_NONE; h++)
			status_hint(t, b, keymap_list_context(p->kind->name),
			    h->action, h->label);
	else if (p != NULL)
		status_verb_hints(p, b);
}

/*
 * Only the hints that fit whole in cols columns: a cut one ("V validat")
 * reads as a wrong key; ? lists them all.
 */
static void
status_fit(struct buf *b, size_t cols)
{
	char	*s = b->data, *end = NULL, *at;
	int	 fits;

	if (b->len == 0 || text_width(s) <= cols)
		return;
	for (at = strstr(s + 1, "  "); at != NULL; at = strstr(at + 2, "  ")) {
		*at = '\0';
		fits = text_width(s) <= cols;
		*at = ' ';
		if (!fits)
			break;
		end = at;
	}
	if (end == NULL)	/* not even the first: it is cut */
		return;
	*end = '\0';
	b->len = (size_t)(end - s);
}

void
status_draw_hints(struct tui *t, struct buf *b, enum theme_role role)
{
	(void)t;
	/* Each hint opens with two spaces: the line with one. */
	status_fit(b, (size_t)COLS + 1);
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	screen_put(LINES - 1, 0, COLS, b->len > 0 ? buf_str(b) + 1 : "",
	    screen_role(role));
}

/* A row of s, its first len bytes without the blanks that end it. */
static char *
status_row(const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	return (xstrndup(s, len));
}

/*
 * The bytes of line on a row of cols columns: after its last space that
 * fits, unless the word after it is wider than a row anyway (a long
 * path): then as much as fits, not a row left short.
 */
static size_t
status_wrap_at(const char *line, size_t cols)
{
	size_t	 k = text_wrap(line, cols);
	char	*word;
	int	 wide;

	if (line[k] == '\0' || k == 0 || line[k - 1] != ' ')
		return (k);
	word = xstrndup(line + k, strcspn(line + k, " "));
	wide = text_width(word) > cols;
	free(word);
	if (!wide)
		return (k);
	word = xstrdup(line);
	text_cut(word, cols);
	k = MAXIMUM(strlen(word), 1);
	free(word);
	return (k);
}

/*
 * The message in rows of at most cols columns, broken after a space where
 * one fits, so a word (an id) is split only when longer than a row, and
 * at each of its own line breaks (a line keeps its indentation: a caret
 * stays under its column); past max rows the last one ends with more
 * (where the rest is). Returns the rows used.
 */
static size_t
status_wrap_more(const char *s, size_t cols, char **rows, size_t max,
    const char *more)
{
	char	*line, *row;
	size_t	 n = 0, eol, k, room;

	if (text_width(more) + 8 > cols)
		more = " …";
	while (*s != '\0' && n < max) {
		eol = strcspn(s, "\n");
		line = xstrndup(s, eol);
		/* The last row: all that is left, else a part and more. */
		room = cols;
		if (n + 1 == max && (text_width(line) > cols ||
		    (s[eol] == '\n' && s[eol + 1] != '\0')))
			room = cols - text_width(more);
		k = status_wrap_at(line, room);
		row = status_row(line, k);
		free(line);
		if (room < cols) {
			rows[n++] = xprintf("%s%s", row, more);
			free(row);
			break;
		}
		rows[n++] = row;
		s += k;
		if (k == eol && *s == '\n')
			s++;
		else
			for (; *s == ' '; s++)
				;
	}
	return (n);
}

/* Whether the len bytes at s are a caret line: blanks, then '^'s. */
static int
status_is_caret(const char *s, size_t len)
{
	size_t	i = strspn(s, " ");

	if (i >= len || s[i] != '^')
		return (0);
	for (; i < len; i++)
		if (s[i] != '^')
			return (0);
	return (1);
}

/* The byte offset of display column col in s (its end when past). */
static size_t
status_column_offset(const char *s, size_t col)
{
	char	*copy = xstrdup(s);
	size_t	 off;

	text_cut(copy, col);
	off = strlen(copy);
	free(copy);
	return (off);
}

/*
 * A line and the caret under it in a row each of cols columns: the part
 * of the line around the caret, an ellipsis where it is cut, the caret
 * moved with it.
 */
static void
status_caret_rows(const char *line, const char *caret, size_t cols,
    char **lrow, char **crow)
{
	size_t	 c0 = strspn(caret, " "), c1 = strlen(caret), ws = 0;
	char	*tail, *row;

	if (c1 + 1 > cols && cols > c1 - c0 + 2) {
		/*
		 * The caret at the middle of the row, after the ellipsis, or
		 * further right when the line's end is near.
		 */
		ws = c0 - MINIMUM(c0 - 1, (cols - (c1 - c0)) / 2);
		if (text_width(line) + 1 - cols < ws)
			ws = MAXIMUM(text_width(line) + 1 - cols, 1);
	}
	tail = ws > 0 ? xprintf("%s%s", screen_ellipsis(), line +
	    status_column_offset(line, ws + 1)) : xstrdup(line);
	row = text_ellipsize(tail, cols, screen_ellipsis());
	*lrow = row;
	*crow = xprintf("%*s%s", (int)(c0 - ws), "", caret + c0);
	text_cut(*crow, cols);
	free(tail);
}

/*
 * A message that ends with a line and the caret under it (a lint error):
 * what comes before wraps in max - 2 rows, the line and its caret take
 * one each, so the caret is never what gives way. Returns the rows used,
 * or 0 when s is not such a message or there is no room.
 */
static size_t
status_wrap_caret(const char *s, size_t cols, char **rows, size_t max,
    const char *more)
{
	const char	*last, *prev;
	size_t		 len = strlen(s), n;
	char		*head, *line, *caret;

	while (len > 0 && s[len - 1] == '\n')
		len--;
	if (max < 3 || cols < 8 || len == 0)
		return (0);
	for (last = s + len; last > s && last[-1] != '\n'; last--)
		;
	if (last == s || !status_is_caret(last, (size_t)(s + len - last)))
		return (0);
	for (prev = last - 1; prev > s && prev[-1] != '\n'; prev--)
		;
	/* Only when the line does not show whole over the caret. */
	line = xstrndup(prev, (size_t)(last - 1 - prev));
	if (text_width(line) <= cols) {
		free(line);
		return (0);
	}
	caret = xstrndup(last, (size_t)(s + len - last));
	head = xstrndup(s, (size_t)(prev - s));
	n = status_wrap_more(head, cols, rows, max - 2, more);
	status_caret_rows(line, caret, cols, &rows[n], &rows[n + 1]);
	free(head);
	free(line);
	free(caret);
	return (n + 2);
}

/* Every row of the text (none cut): *n of them, to free with free(3). */
char **
status_wrap_all(const char *s, size_t cols, size_t *n)
{
	char	**rows;
	size_t	  max = strlen(s) + 1;	/* each row takes a byte at least */

	rows = xcalloc(max, sizeof *rows);
	*n = status_wrap_more(s, cols, rows, max, "");
	return (rows);
}

/*
 * s in at most max rows of cols columns; past them the last row ends by
 * naming the key that shows the messages whole. Returns the rows used.
 */
size_t
status_wrap_message(struct tui *t, const char *s, size_t cols, char **rows,
    size_t max)
{
	char	 more[64], name[KEYMAP_KEY_NAME_MAX];
	size_t	 n;
	int	 key;

	key = keymap_key_of(t->keymap, KEYMAP_GLOBAL, ACTION_MESSAGES);
	if (key != -1) {
		keymap_key_name(key, name, sizeof name);
		snprintf(more, sizeof more, " … (%s: all of it)", name);
	} else
		snprintf(more, sizeof more, " … (:messages)");
	if ((n = status_wrap_caret(s, cols, rows, max, more)) > 0)
		return (n);
	return (status_wrap_more(s, cols, rows, max, more));
}

/*
 * The rows the status line needs: the message's, else the hints' one. A
 * message longer than they are says which key shows it whole.
 */
size_t
status_rows(struct tui *t, char **rows)
{
	size_t	max = STATUS_ROWS;

	if (t->msg == NULL || (text_width(t->msg) <= (size_t)COLS &&
	    strchr(t->msg, '\n') == NULL))
		return (1);
	if (max > (size_t)LINES / 4)
		max = (size_t)LINES / 4;
	if (max < 1 || COLS < 24)
		return (1);
	return (status_wrap_message(t, t->msg, (size_t)COLS, rows, max));
}

/* The rows the status line takes now (a view above leaves them to it). */
int
status_height(struct tui *t)
{
	char	*rows[STATUS_ROWS] = { NULL };
	size_t	 n, i;

	n = status_rows(t, rows);
	for (i = 0; i < n; i++)
		free(rows[i]);
	return ((int)n);
}

/* The message's role on the status line. */
static enum theme_role
status_msg_role(const struct tui *t)
{
	switch (t->msg_class) {
	case TUI_MSG_ERROR:
		return (THEME_ROLE_ERROR);
	case TUI_MSG_WARN:
		return (THEME_ROLE_WARNING);
	case TUI_MSG_OK:
		return (THEME_ROLE_OK);
	default:
		return (THEME_ROLE_STATUS);
	}
}

/*
 * For a view that fills the screen (and so the rows a long message took
 * from the list): the message again, whole, over its bottom rows. 0 when
 * there is none, and the view draws its own footer.
 */
int
status_draw_message(struct tui *t)
{
	char	*rows[STATUS_ROWS] = { NULL };
	size_t	 n, i;
	int	 y;

	if (t->msg == NULL)
		return (0);
	n = status_rows(t, rows);
	y = LINES - (int)n;
	for (i = 0; i < n; i++) {
		screen_fill(y + (int)i, 0, COLS,
		    screen_role(THEME_ROLE_STATUS));
		screen_put(y + (int)i, 0, COLS, rows[i] != NULL ? rows[i] :
		    t->msg, screen_role(status_msg_role(t)));
		free(rows[i]);
	}
	return (1);
}

/*
 * A form's keys: on the last line in the place of the list's (the form is
 * what they act on), unless a message is there; then on the form's row y
 * (none: -1).
 */
void
status_draw_keys(struct tui *t, int y, const char *keys)
{
	if (t->msg == NULL) {
		screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
		screen_put(LINES - 1, 1, COLS - 1, keys,
		    screen_role(THEME_ROLE_DIM));
	} else if (y >= 0)
		screen_put(y, 1, COLS - 2, keys, screen_role(THEME_ROLE_DIM));
}

void
status_draw(struct tui *t, char **rows, size_t nrows)
{
	struct panel	*p = tui_panel(t);
	attr_t		 a = screen_role(THEME_ROLE_STATUS);
	enum theme_role	 role;
	struct buf	 b;
	size_t		 i;
	int		 y = LINES - (int)nrows;

	for (i = 0; i < nrows; i++)
		screen_fill(y + (int)i, 0, COLS, a);
	if (t->msg != NULL) {
		role = status_msg_role(t);
		if (nrows == 1 && rows[0] == NULL)
			screen_put(y, 0, COLS, t->msg, screen_role(role));
		for (i = 0; i < nrows && rows[i] != NULL; i++)
			screen_put(y + (int)i, 0, COLS, rows[i],
			    screen_role(role));
		return;
	}
	buf_init(&b);
	if (p != NULL && p->view == PANEL_DETAIL)
		status_detail_hints(p, &b);
	else
		status_list_hints(t, p, &b);
	/* Each hint opens with two spaces: the line with one. */
	status_fit(&b, (size_t)COLS + 1);
	screen_put(LINES - 1, 0, COLS, b.len > 0 ? buf_str(&b) + 1 : "",
	    screen_role(THEME_ROLE_DIM));
	buf_free(&b);
}
