/*
 * The console's keymap: the action table, key names both ways, and the
 * bindings of each context, read by one parser from the shipped keys.yaml
 * and then from the user's config, whose mistakes become messages.
 */
#include "config.h"

#include <ctype.h>
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "keymap.h"
#include "log.h"
#include "text.h"
#include "xmalloc.h"
#include "yamljson.h"

/* Only curses' KEY_* constants are used: this file never draws. */
#if KEY_MAX >= KEYMAP_META || KEY_CODE_YES != 0400
#error "curses key codes overlap the keymap's flags"
#endif

/* ui/keys.yaml, turned into ui/keys-default.c by make. */
extern const char	keymap_default_text[];
extern const size_t	keymap_default_size;

struct keymap_binding {
	int		 key;		/* canonical (keymap_canon) */
	enum action	 action;	/* ACTION_NONE: unbound here */
};

/* One context's bindings in the order they were first made. */
struct keymap_table {
	struct keymap_binding	*v;
	size_t			 n;
	size_t			 size;
};

struct keymap {
	struct keymap_table	 tables[KEYMAP_NCONTEXTS];
	char			**problems;
	size_t			 nproblems;
	keymap_line_cb		 line_cb;	/* where a key is in source */
	void			*line_arg;
};

static const struct keymap_action {
	const char		*name;
	enum keymap_context	 context;
	const char		*help;
} keymap_actions[] = {
	[ACTION_NONE] = { "none", KEYMAP_GLOBAL, "unbind the key" },
#define KEYMAP_ACTION_ROW(id, name, context, help) \
	[id] = { name, context, help },
	KEYMAP_ACTIONS(KEYMAP_ACTION_ROW)
#undef KEYMAP_ACTION_ROW
};
_Static_assert(nitems(keymap_actions) == KEYMAP_NACTIONS,
    "one row per action");

/*
 * A context's name in keymap files, its heading in the help and the
 * context a lookup falls back to (global's is itself: none). A kind's
 * context is named after the kind, whose list it serves; a view's after
 * the view (view set), which no kind's list uses.
 */
static const struct {
	const char		*name;
	const char		*heading;
	enum keymap_context	 parent;
	int			 view;
} keymap_contexts[] = {
	[KEYMAP_GLOBAL] = { "global", "everywhere", KEYMAP_GLOBAL },
	[KEYMAP_LIST] = { "list", "in lists (then global)", KEYMAP_GLOBAL },
	[KEYMAP_DETAIL] = { "detail", "in the details view (then global)",
	    KEYMAP_GLOBAL },
	[KEYMAP_RATE_LIMIT_RULES] = { "rate-limit-rules",
	    "in the rate limiting rules list (then list, then global)",
	    KEYMAP_LIST },
	[KEYMAP_VIDEOS] = { "videos",
	    "in the videos list (then list, then global)", KEYMAP_LIST },
	[KEYMAP_LIVE_INPUTS] = { "live-inputs",
	    "in the live inputs list (then list, then global)", KEYMAP_LIST },
	[KEYMAP_CAPTIONS] = { "captions",
	    "in a video's captions list (then list, then global)",
	    KEYMAP_LIST },
	[KEYMAP_RULE_VERSIONS] = { "rule-versions",
	    "in the rule versions list (then list, then global)", KEYMAP_LIST },
	/* The views. */
	[KEYMAP_JOURNAL] = { "journal",
	    "in the journal, :journal (then list, then global)", KEYMAP_LIST,
	    1 },
	[KEYMAP_LOG] = { "log",
	    "in the request log, :log (then list, then global)", KEYMAP_LIST,
	    1 },
	[KEYMAP_TRAY] = { "tray",
	    "in the transfers tray (then list, then global)", KEYMAP_LIST, 1 },
	[KEYMAP_TESTER] = { "tester",
	    "in the rules tester's results and the simulation's report, "
	    ":test and :simulate (then list, then global)", KEYMAP_LIST, 1 },
	[KEYMAP_TEXT] = { "text",
	    "in text views: help, a change, a request, a report (then "
	    "global)", KEYMAP_GLOBAL, 1 },
	[KEYMAP_PREVIEW] = { "preview",
	    "in the migration's preview, M in rate-limits (then text, then "
	    "global)", KEYMAP_TEXT, 1 },
	[KEYMAP_FIRST_RUN] = { "first-run",
	    "on the first-run screen, with no API token (then global)",
	    KEYMAP_GLOBAL, 1 },
};
_Static_assert(nitems(keymap_contexts) == KEYMAP_NCONTEXTS,
    "one row per context");

/* The contexts a lookup in context visits, itself first; returns how many. */
static size_t
keymap_chain(enum keymap_context context,
    enum keymap_context chain[KEYMAP_NCONTEXTS])
{
	size_t	n = 0;

	for (;;) {
		chain[n++] = context;
		if (context == KEYMAP_GLOBAL || n == KEYMAP_NCONTEXTS)
			return (n);
		context = keymap_contexts[context].parent;
	}
}

/* The first name of a key is the one printed; the others are read too. */
static const struct {
	const char	*name;
	int		 key;
} keymap_key_names[] = {
	{ "Space", ' ' },
	{ "Enter", '\r' },
	{ "Esc", 0x1b },
	{ "Tab", '\t' },
	{ "S-Tab", KEY_BTAB },
	{ "Backspace", KEY_BACKSPACE },
	{ "Delete", KEY_DC },
	{ "Insert", KEY_IC },
	{ "Up", KEY_UP },
	{ "Down", KEY_DOWN },
	{ "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT },
	{ "Home", KEY_HOME },
	{ "End", KEY_END },
	{ "PgUp", KEY_PPAGE },
	{ "PgDn", KEY_NPAGE },
	{ "Return", '\r' },
	{ "Escape", 0x1b },
	{ "PageUp", KEY_PPAGE },
	{ "PageDown", KEY_NPAGE },
};

#define KEYMAP_NFKEYS 12

static const char keymap_key_forms[] = "a character, Space, Enter, Esc, "
    "Tab, S-Tab, Backspace, Delete, Insert, Up, Down, Left, Right, Home, "
    "End, PgUp, PgDn, F1..F12, C-a..C-z or M- before a key";

/* ---- actions and contexts ----------------------------------------------- */

const char *
keymap_action_name(enum action action)
{
	if ((unsigned)action >= KEYMAP_NACTIONS)
		return (NULL);
	return (keymap_actions[action].name);
}

int
keymap_action_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(keymap_actions); i++) {
		if (strcmp(keymap_actions[i].name, name) == 0)
			return ((int)i);
	}
	return (-1);
}

const char *
keymap_action_help(enum action action)
{
	if ((unsigned)action >= KEYMAP_NACTIONS)
		return (NULL);
	return (keymap_actions[action].help);
}

enum keymap_context
keymap_action_context(enum action action)
{
	if ((unsigned)action >= KEYMAP_NACTIONS)
		return (KEYMAP_GLOBAL);
	return (keymap_actions[action].context);
}

const char *
keymap_context_name(enum keymap_context context)
{
	if ((unsigned)context >= KEYMAP_NCONTEXTS)
		return (NULL);
	return (keymap_contexts[context].name);
}

enum keymap_context
keymap_list_context(const char *kind)
{
	size_t	i;

	if (kind == NULL)
		return (KEYMAP_LIST);
	for (i = 0; i < nitems(keymap_contexts); i++) {
		if (keymap_context_kind(i) &&
		    strcmp(keymap_contexts[i].name, kind) == 0)
			return ((enum keymap_context)i);
	}
	return (KEYMAP_LIST);
}

int
keymap_context_kind(enum keymap_context context)
{
	if ((unsigned)context >= KEYMAP_NCONTEXTS)
		return (0);
	return (keymap_contexts[context].parent == KEYMAP_LIST &&
	    !keymap_contexts[context].view);
}

static int
keymap_context_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(keymap_contexts); i++) {
		if (strcmp(keymap_contexts[i].name, name) == 0)
			return ((int)i);
	}
	return (-1);
}

/* ---- key names ---------------------------------------------------------- */

/*
 * One code for keys a terminal cannot tell apart: Enter arrives as CR, as
 * LF after nl() or as KEY_ENTER from the keypad; Backspace as DEL, ^H or
 * KEY_BACKSPACE.
 */
static int
keymap_canon(int key)
{
	int	meta = key & KEYMAP_META;

	switch (key & ~KEYMAP_META) {
	case '\n':
	case KEY_ENTER:
		return ('\r' | meta);
	case '\b':
	case 0x7f:
		return (KEY_BACKSPACE | meta);
	}
	return (key);
}

int
keymap_key_char(unsigned int cp)
{
	if (cp >= KEY_CODE_YES && cp <= KEY_MAX)
		return ((int)cp | KEYMAP_WIDE);
	return ((int)cp);
}

/* The one code point that all of s is in UTF-8, or -1. */
static long
keymap_utf8_one(const char *s)
{
	uint32_t	cp;
	size_t		n;

	if (*s == '\0' || (n = text_utf8_decode(s, SIZE_MAX, &cp)) == 0 ||
	    s[n] != '\0')
		return (-1);
	return ((long)cp);
}

static void
keymap_utf8_put(const char *prefix, unsigned long cp, char *out, size_t len)
{
	char	u[5];

	if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		u[2] = '\0';
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		u[3] = '\0';
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		u[4] = '\0';
	}
	snprintf(out, len, "%s%s", prefix, u);
}

/* A character: printable ASCII or any printable code point beyond it. */
static int
keymap_parse_char(const char *s, int *key)
{
	long	cp;

	if ((cp = keymap_utf8_one(s)) == -1)
		return (-1);
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
		return (-1);
	*key = keymap_key_char((unsigned int)cp);
	return (0);
}

/* A key without M-. */
static int
keymap_parse_plain(const char *s, int *key)
{
	size_t	i;
	char	*end;
	long	n;

	if (keymap_parse_char(s, key) == 0)
		return (0);
	if (s[0] == 'C' && s[1] == '-' && s[2] != '\0' && s[3] == '\0') {
		if (!isalpha((unsigned char)s[2]))
			return (-1);
		*key = keymap_canon(tolower((unsigned char)s[2]) - 'a' + 1);
		return (0);
	}
	for (i = 0; i < nitems(keymap_key_names); i++) {
		if (strcasecmp(s, keymap_key_names[i].name) == 0) {
			*key = keymap_key_names[i].key;
			return (0);
		}
	}
	if ((s[0] == 'F' || s[0] == 'f') && s[1] >= '1' && s[1] <= '9') {
		n = strtol(s + 1, &end, 10);
		if (*end == '\0' && n >= 1 && n <= KEYMAP_NFKEYS) {
			*key = KEY_F(n);
			return (0);
		}
	}
	return (-1);
}

int
keymap_key_parse(const char *s, int *key, char **cause)
{
	int	k;

	if (strncmp(s, "M-", 2) == 0 && s[2] != '\0') {
		if (keymap_parse_plain(s + 2, &k) == 0) {
			*key = k | KEYMAP_META;
			return (0);
		}
	} else if (keymap_parse_plain(s, &k) == 0) {
		*key = k;
		return (0);
	}
	if (cause != NULL)
		*cause = xprintf("'%s' is not a key (%s)", s, keymap_key_forms);
	return (-1);
}

void
keymap_key_name(int key, char *out, size_t len)
{
	const char	*prefix = "";
	size_t		 i;

	key = keymap_canon(key);
	if (key & KEYMAP_META) {
		prefix = "M-";
		key &= ~KEYMAP_META;
	}
	if (key & KEYMAP_WIDE) {
		keymap_utf8_put(prefix, key & ~KEYMAP_WIDE, out, len);
		return;
	}
	for (i = 0; i < nitems(keymap_key_names); i++) {
		if (keymap_key_names[i].key == key) {
			snprintf(out, len, "%s%s", prefix,
			    keymap_key_names[i].name);
			return;
		}
	}
	if (key >= 1 && key <= 26)
		snprintf(out, len, "%sC-%c", prefix, 'a' + key - 1);
	else if (key > ' ' && key < 0x7f)
		snprintf(out, len, "%s%c", prefix, key);
	else if (key >= KEY_F(1) && key <= KEY_F(KEYMAP_NFKEYS))
		snprintf(out, len, "%sF%d", prefix, key - KEY_F0);
	else if (key >= 0xa0 && key <= 0x10ffff &&
	    (key < KEY_CODE_YES || key > KEY_MAX) &&
	    (key < 0xd800 || key > 0xdfff))
		keymap_utf8_put(prefix, key, out, len);
	else
		snprintf(out, len, "%s0x%x", prefix, (unsigned)key);
}

/* ---- bindings ----------------------------------------------------------- */

static struct keymap_binding *
keymap_find(const struct keymap_table *t, int key)
{
	size_t	i;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].key == key)
			return (&t->v[i]);
	}
	return (NULL);
}

static void
keymap_bind(struct keymap *km, enum keymap_context context, int key,
    enum action action)
{
	struct keymap_table	*t = &km->tables[context];
	struct keymap_binding	*b;

	if ((b = keymap_find(t, key)) != NULL) {
		b->action = action;
		return;
	}
	if (t->n == t->size) {
		t->size = t->size == 0 ? 32 : t->size * 2;
		t->v = xreallocarray(t->v, t->size, sizeof *t->v);
	}
	t->v[t->n].key = key;
	t->v[t->n].action = action;
	t->n++;
}

enum action
keymap_lookup(const struct keymap *km, enum keymap_context context, int key)
{
	const struct keymap_binding	*b;
	enum keymap_context		 chain[KEYMAP_NCONTEXTS];
	size_t				 i, n;

	if ((unsigned)context >= KEYMAP_NCONTEXTS)
		return (ACTION_NONE);
	key = keymap_canon(key);
	n = keymap_chain(context, chain);
	for (i = 0; i < n; i++) {
		if ((b = keymap_find(&km->tables[chain[i]], key)) != NULL)
			return (b->action);
	}
	return (ACTION_NONE);
}

/* Whether a context before chain[upto] binds the key (and so hides it). */
static int
keymap_shadowed(const struct keymap *km, const enum keymap_context *chain,
    size_t upto, int key)
{
	size_t	i;

	for (i = 0; i < upto; i++) {
		if (keymap_find(&km->tables[chain[i]], key) != NULL)
			return (1);
	}
	return (0);
}

/* Keys bound to action in chain[at]'s own table, ", " between. */
static void
keymap_keys_in(const struct keymap *km, const enum keymap_context *chain,
    size_t at, enum action action, struct buf *b, int *first)
{
	const struct keymap_table	*t = &km->tables[chain[at]];
	char				 name[KEYMAP_KEY_NAME_MAX];
	size_t				 i;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].action != action)
			continue;
		if (keymap_shadowed(km, chain, at, t->v[i].key))
			continue;
		keymap_key_name(t->v[i].key, name, sizeof name);
		if (!*first)
			buf_adds(b, ", ");
		buf_adds(b, name);
		*first = 0;
	}
}

void
keymap_keys_of(const struct keymap *km, enum keymap_context context,
    enum action action, struct buf *b)
{
	enum keymap_context	chain[KEYMAP_NCONTEXTS];
	size_t			i, n;
	int			first = 1;

	if (action == ACTION_NONE || (unsigned)context >= KEYMAP_NCONTEXTS)
		return;
	n = keymap_chain(context, chain);
	for (i = 0; i < n; i++)
		keymap_keys_in(km, chain, i, action, b, &first);
}

int
keymap_key_of(const struct keymap *km, enum keymap_context context,
    enum action action)
{
	const struct keymap_table	*t;
	enum keymap_context		 chain[KEYMAP_NCONTEXTS];
	size_t				 c, i, n;

	if (action == ACTION_NONE || (unsigned)context >= KEYMAP_NCONTEXTS)
		return (-1);
	/* A parent's keys, unless a context nearer binds the key otherwise. */
	n = keymap_chain(context, chain);
	for (c = 0; c < n; c++) {
		t = &km->tables[chain[c]];
		for (i = 0; i < t->n; i++)
			if (t->v[i].action == action &&
			    !keymap_shadowed(km, chain, c, t->v[i].key))
				return (t->v[i].key);
	}
	return (-1);
}

/* ---- reading a keymap --------------------------------------------------- */

void
keymap_set_lines(struct keymap *km, keymap_line_cb cb, void *arg)
{
	km->line_cb = cb;
	km->line_arg = arg;
}

/*
 * A problem "source:line: keymap.context.key: why" (without the line when
 * no keymap_set_lines knows it). Text from the file may hold control
 * characters; they never reach the screen.
 */
static void printflike(5, 6)
keymap_problem(struct keymap *km, const char *source, const char *context,
    const char *key, const char *fmt, ...)
{
	struct buf	 b = BUF_INITIALIZER, path = BUF_INITIALIZER;
	va_list		 ap;
	size_t		 i;
	int		 line = 0;

	buf_adds(&path, "keymap");
	if (context != NULL)
		buf_addf(&path, ".%s", context);
	if (key != NULL)
		buf_addf(&path, ".%s", key);
	if (km->line_cb != NULL)
		line = km->line_cb(buf_str(&path), km->line_arg);
	if (line > 0)
		buf_addf(&b, "%s:%d: %s: ", source, line, buf_str(&path));
	else
		buf_addf(&b, "%s: %s: ", source, buf_str(&path));
	buf_free(&path);
	va_start(ap, fmt);
	buf_addvf(&b, fmt, ap);
	va_end(ap);
	for (i = 0; i < b.len; i++) {
		if ((unsigned char)b.data[i] < 0x20 || b.data[i] == 0x7f)
			b.data[i] = '?';
	}
	km->problems = xreallocarray(km->problems, km->nproblems + 1,
	    sizeof *km->problems);
	km->problems[km->nproblems++] = buf_detach(&b, NULL);
}

static const char *
keymap_json_kind(const cJSON *v)
{
	if (cJSON_IsBool(v))
		return ("a boolean");
	if (cJSON_IsNumber(v))
		return ("a number");
	if (cJSON_IsArray(v))
		return ("a list");
	if (cJSON_IsObject(v))
		return ("a mapping");
	if (cJSON_IsNull(v))
		return ("empty");
	return ("a string");
}

/* One "key: action" line of a context. */
static void
keymap_apply_one(struct keymap *km, enum keymap_context context,
    const cJSON *item, const char *source)
{
	const char	*cname = keymap_contexts[context].name;
	char		*cause;
	int		 key, action = ACTION_NONE;

	if (keymap_key_parse(item->string, &key, &cause) != 0) {
		keymap_problem(km, source, cname, item->string, "%s", cause);
		free(cause);
		return;
	}
	if (cJSON_IsString(item)) {
		action = keymap_action_find(item->valuestring);
		if (action == -1) {
			keymap_problem(km, source, cname, item->string,
			    "'%s' is not an action (see edgetui --help-keys)",
			    item->valuestring);
			return;
		}
	} else if (!cJSON_IsNull(item)) {
		keymap_problem(km, source, cname, item->string,
		    "expected an action or none, not %s",
		    keymap_json_kind(item));
		return;
	}
	keymap_bind(km, context, keymap_canon(key), action);
}

static void
keymap_context_unknown(struct keymap *km, const char *source,
    const char *name)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; i < nitems(keymap_contexts); i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ",
		    keymap_contexts[i].name);
	keymap_problem(km, source, name, NULL, "not a context (%s)",
	    buf_str(&b));
	buf_free(&b);
}

size_t
keymap_apply(struct keymap *km, const cJSON *obj, const char *source)
{
	const cJSON	*c, *item;
	size_t		 before = km->nproblems;
	int		 context;

	if (obj == NULL || cJSON_IsNull(obj))
		return (0);
	if (!cJSON_IsObject(obj)) {
		keymap_problem(km, source, NULL, NULL, "expected a mapping of "
		    "contexts (global, list, detail, a kind or a view), "
		    "not %s",
		    keymap_json_kind(obj));
		return (km->nproblems - before);
	}
	cJSON_ArrayForEach(c, obj) {
		if ((context = keymap_context_find(c->string)) == -1) {
			keymap_context_unknown(km, source, c->string);
		} else if (cJSON_IsObject(c)) {
			cJSON_ArrayForEach(item, c)
				keymap_apply_one(km, context, item, source);
		} else if (!cJSON_IsNull(c)) {
			keymap_problem(km, source, c->string, NULL,
			    "expected a mapping of keys to actions, not %s",
			    keymap_json_kind(c));
		}
	}
	return (km->nproblems - before);
}

const char *const *
keymap_problems(const struct keymap *km, size_t *n)
{
	*n = km->nproblems;
	return ((const char *const *)km->problems);
}

struct keymap *
keymap_new(void)
{
	struct keymap	*km;
	cJSON		*doc;
	char		*cause;

	doc = yamljson_parse(keymap_default_text, keymap_default_size, &cause);
	if (doc == NULL)
		fatalx("keys.yaml: %s", cause);
	km = xcalloc(1, sizeof *km);
	if (keymap_apply(km, cJSON_GetObjectItemCaseSensitive(doc, "keymap"),
	    "keys.yaml") != 0)
		fatalx("%s", km->problems[0]);
	if (km->tables[KEYMAP_GLOBAL].n == 0)
		fatalx("keys.yaml: no keymap: global: bindings");
	cJSON_Delete(doc);
	return (km);
}

void
keymap_free(struct keymap *km)
{
	size_t	i;

	if (km == NULL)
		return;
	for (i = 0; i < KEYMAP_NCONTEXTS; i++)
		free(km->tables[i].v);
	for (i = 0; i < km->nproblems; i++)
		free(km->problems[i]);
	free(km->problems);
	free(km);
}

/* ---- help --------------------------------------------------------------- */

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static size_t
keymap_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	}
	return (n);
}

static void
keymap_pad(struct buf *b, const char *s, size_t width)
{
	size_t	w = keymap_width(s);

	buf_adds(b, s);
	for (; w < width; w++)
		buf_addc(b, ' ');
}

/*
 * The keys column of every (context, action) line, and the widest keys
 * and action name, so every line aligns across the contexts.
 */
static void
keymap_help_keys(const struct keymap *km,
    struct buf keys[KEYMAP_NCONTEXTS][KEYMAP_NACTIONS], size_t *kw,
    size_t *nw)
{
	enum keymap_context	chain[1];
	size_t			c, a;
	int			first;

	*kw = *nw = 0;
	for (c = 0; c < KEYMAP_NCONTEXTS; c++) {
		for (a = 1; a < KEYMAP_NACTIONS; a++) {
			buf_init(&keys[c][a]);
			first = 1;
			chain[0] = c;
			keymap_keys_in(km, chain, 0, a, &keys[c][a], &first);
			if (first)
				continue;
			*kw = MAXIMUM(*kw, keymap_width(buf_str(&keys[c][a])));
			*nw = MAXIMUM(*nw, strlen(keymap_actions[a].name));
		}
	}
}

void
keymap_help(const struct keymap *km, struct buf *b)
{
	struct buf	 keys[KEYMAP_NCONTEXTS][KEYMAP_NACTIONS];
	size_t		 c, a, kw, nw;

	keymap_help_keys(km, keys, &kw, &nw);
	for (c = 0; c < KEYMAP_NCONTEXTS; c++) {
		/* A kind's context only where it has keys. */
		for (a = 1; a < KEYMAP_NACTIONS; a++)
			if (keys[c][a].len != 0)
				break;
		if (c > KEYMAP_DETAIL && a == KEYMAP_NACTIONS)
			continue;
		if (c != 0)
			buf_addc(b, '\n');
		buf_addf(b, "%s: %s\n", keymap_contexts[c].name,
		    keymap_contexts[c].heading);
		for (a = 1; a < KEYMAP_NACTIONS; a++) {
			if (keys[c][a].len == 0)
				continue;
			buf_adds(b, "  ");
			keymap_pad(b, buf_str(&keys[c][a]), kw);
			buf_adds(b, "  ");
			keymap_pad(b, keymap_actions[a].name, nw);
			buf_addf(b, "  %s\n", keymap_actions[a].help);
		}
	}
	for (c = 0; c < KEYMAP_NCONTEXTS; c++) {
		for (a = 1; a < KEYMAP_NACTIONS; a++)
			buf_free(&keys[c][a]);
	}
}

size_t
keymap_help_view(const struct keymap *km, enum keymap_context context,
    const enum action *actions, const char *const *helps, size_t n,
    struct buf *b)
{
	struct buf	*keys;
	const char	*help;
	size_t		 i, kw = 0, nw = 0;

	keys = xcalloc(n, sizeof *keys);
	for (i = 0; i < n; i++) {
		keymap_keys_of(km, context, actions[i], &keys[i]);
		if (keys[i].len == 0)
			continue;
		kw = MAXIMUM(kw, keymap_width(buf_str(&keys[i])));
		nw = MAXIMUM(nw, strlen(keymap_actions[actions[i]].name));
	}
	for (i = 0; i < n; i++) {
		if (keys[i].len != 0) {
			help = helps != NULL && helps[i] != NULL ? helps[i] :
			    keymap_actions[actions[i]].help;
			buf_adds(b, "  ");
			keymap_pad(b, buf_str(&keys[i]), kw);
			buf_adds(b, "  ");
			keymap_pad(b, keymap_actions[actions[i]].name, nw);
			buf_addf(b, "  %s\n", help);
		}
		buf_free(&keys[i]);
	}
	free(keys);
	return (2 + kw + 2 + nw + 2);
}

void
keymap_print_defaults(FILE *f)
{
	struct keymap	*km = keymap_new();
	struct buf	 b = BUF_INITIALIZER;

	keymap_help(km, &b);
	fputs(buf_str(&b), f);
	buf_free(&b);
	keymap_free(km);
}
