/*
 * Unit tests for ui/keymap.c: the shipped defaults, key names both ways,
 * a user's keymap over the defaults (rebinding, none, fallback to global,
 * problems that name the file and path) and the help made from it.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <curses.h>

#include "buf.h"
#include "common.h"
#include "keymap.h"
#include "xmalloc.h"
#include "yamljson.h"

extern const char	keymap_default_text[];
extern const size_t	keymap_default_size;

/* ---- helpers ----------------------------------------------------------- */

static cJSON *
yaml(const char *text)
{
	cJSON	*doc;
	char	*cause = NULL;

	if ((doc = yamljson_parse(text, strlen(text), &cause)) == NULL)
		fail_msg("yamljson_parse: %s", cause);
	return (doc);
}

/* The defaults with the keymap: member of a user's config.yaml over them. */
static struct keymap *
user_keymap(const char *config, size_t *nproblems)
{
	struct keymap	*km = keymap_new();
	cJSON		*doc = yaml(config);
	size_t		 n;

	n = keymap_apply(km, cJSON_GetObjectItemCaseSensitive(doc, "keymap"),
	    "config.yaml");
	if (nproblems != NULL)
		*nproblems = n;
	else if (n != 0)
		fail_msg("unexpected problem: %s", keymap_problems(km, &n)[0]);
	cJSON_Delete(doc);
	return (km);
}

static int
key(const char *name)
{
	char	*cause = NULL;
	int	 k;

	if (keymap_key_parse(name, &k, &cause) != 0)
		fail_msg("%s", cause);
	return (k);
}

static void
assert_keys_of(const struct keymap *km, enum keymap_context c,
    enum action a, const char *want)
{
	struct buf	b = BUF_INITIALIZER;

	keymap_keys_of(km, c, a, &b);
	assert_string_equal(buf_str(&b), want);
	buf_free(&b);
}

static void
assert_prefix(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)) != 0)
		fail_msg("'%s' does not start with '%s'", s, prefix);
}

/*
 * The keys column of an action's line in one context's part of the help,
 * into out; 0 if the action has no line there.
 */
static int
help_keys(const char *help, const char *context, const char *action,
    char *out, size_t size)
{
	char		 heading[32];
	const char	*p, *end, *gap, *name;
	size_t		 n;

	snprintf(heading, sizeof heading, "%s: ", context);
	for (p = help; p != NULL; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (strncmp(p, heading, strlen(heading)) == 0)
			break;
	}
	if (p == NULL)
		fail_msg("no heading %s in help", context);
	for (p = strchr(p, '\n') + 1; *p == ' '; p = end + 1) {
		end = strchr(p, '\n');
		gap = strstr(p + 2, "  ");
		if (end == NULL || gap == NULL || gap > end)
			fail_msg("help line without columns");
		for (name = gap; *name == ' '; name++)
			;
		n = strlen(action);
		if (strncmp(name, action, n) == 0 && name[n] == ' ') {
			snprintf(out, size, "%.*s", (int)(gap - p - 2), p + 2);
			return (1);
		}
	}
	return (0);
}

/* ---- the defaults ------------------------------------------------------ */

static void
test_defaults_clean(void **state)
{
	struct keymap	*km;
	size_t		 n = 99;

	(void)state;
	km = keymap_new();
	keymap_problems(km, &n);
	assert_int_equal(n, 0);
	keymap_free(km);
}

/* The keys ARCHITECTURE.md promises, from a list and from the details. */
static void
test_defaults_documented_keys(void **state)
{
	struct keymap	*km = keymap_new();
	static const struct {
		int		key;
		enum action	action;
	} list[] = {
		{ ':', ACTION_COMMAND }, { '/', ACTION_FILTER },
		{ '\r', ACTION_DETAILS }, { '\n', ACTION_DETAILS },
		{ KEY_ENTER, ACTION_DETAILS }, { 'n', ACTION_NEW },
		{ 'e', ACTION_EDIT }, { 'E', ACTION_EDIT_YAML },
		{ 'd', ACTION_DELETE }, { ' ', ACTION_MARK },
		{ 'r', ACTION_REFRESH }, { '?', ACTION_HELP },
		{ '\t', ACTION_NEXT_PANEL }, { 'q', ACTION_QUIT },
		{ KEY_UP, ACTION_UP }, { KEY_DOWN, ACTION_DOWN },
		{ 'k', ACTION_UP }, { 'j', ACTION_DOWN },
		{ 'g', ACTION_TOP }, { 'G', ACTION_BOTTOM },
		{ KEY_PPAGE, ACTION_PAGE_UP }, { KEY_NPAGE, ACTION_PAGE_DOWN },
	}, detail[] = {
		{ 'j', ACTION_DOWN }, { 'k', ACTION_UP },
		{ KEY_NPAGE, ACTION_PAGE_DOWN }, { 'G', ACTION_BOTTOM },
		{ 'e', ACTION_EDIT }, { 'E', ACTION_EDIT_YAML },
		{ 'd', ACTION_DELETE }, { 'q', ACTION_QUIT },
		{ '?', ACTION_HELP }, { ':', ACTION_COMMAND },
		{ '/', ACTION_SEARCH }, { 'n', ACTION_SEARCH_NEXT },
		{ 'N', ACTION_SEARCH_PREV }, { 'w', ACTION_SAVE_FILE },
	};
	size_t		i;

	(void)state;
	for (i = 0; i < nitems(list); i++) {
		assert_int_equal(keymap_lookup(km, KEYMAP_LIST, list[i].key),
		    list[i].action);
	}
	for (i = 0; i < nitems(detail); i++) {
		assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL,
		    detail[i].key), detail[i].action);
	}
	/* List keys stay in lists: j means nothing on a form. */
	assert_int_equal(keymap_lookup(km, KEYMAP_GLOBAL, 'j'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_GLOBAL, 'd'), ACTION_NONE);
	assert_int_not_equal(keymap_lookup(km, KEYMAP_DETAIL, 'n'), ACTION_NEW);
	assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL, 't'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'Z'), ACTION_NONE);
	assert_keys_of(km, KEYMAP_LIST, ACTION_DOWN, "j, Down");
	assert_keys_of(km, KEYMAP_LIST, ACTION_HELP, "?, F1");
	keymap_free(km);
}

static void
test_actions_named_and_helped(void **state)
{
	const char	*name, *help;
	int		 a;

	(void)state;
	for (a = 1; a < KEYMAP_NACTIONS; a++) {
		name = keymap_action_name(a);
		help = keymap_action_help(a);
		assert_non_null(name);
		assert_non_null(help);
		assert_true(strlen(help) > 3);
		/* Names are unique: each finds its own action. */
		assert_int_equal(keymap_action_find(name), a);
	}
	assert_int_equal(keymap_action_find("none"), ACTION_NONE);
	assert_int_equal(keymap_action_find("frobnicate"), -1);
	assert_int_equal(keymap_action_find("Quit"), -1);
	assert_null(keymap_action_name(KEYMAP_NACTIONS));
}

/* Each action has a default key where it belongs, so help shows them all. */
static void
test_defaults_bind_every_action(void **state)
{
	struct keymap	*km = keymap_new();
	struct buf	 b = BUF_INITIALIZER;
	int		 a;

	(void)state;
	for (a = 1; a < KEYMAP_NACTIONS; a++) {
		buf_reset(&b);
		keymap_keys_of(km, keymap_action_context(a), a, &b);
		if (b.len == 0)
			fail_msg("%s has no default key",
			    keymap_action_name(a));
	}
	buf_free(&b);
	keymap_free(km);
}

/*
 * In keys.yaml itself: no two lines of a context are one key (C-m and
 * Enter would be), and no list or detail key hides a global one, so q, ?
 * and r work everywhere.
 */
static void
test_defaults_no_clash(void **state)
{
	cJSON		*doc, *km, *ctx, *item;
	int		 seen[KEYMAP_NCONTEXTS][128], n[KEYMAP_NCONTEXTS];
	int		 c, k, i, j;
	char		*cause = NULL;

	(void)state;
	memset(n, 0, sizeof n);
	doc = yamljson_parse(keymap_default_text, keymap_default_size, &cause);
	assert_non_null(doc);
	km = cJSON_GetObjectItemCaseSensitive(doc, "keymap");
	cJSON_ArrayForEach(ctx, km) {
		for (c = 0; c < KEYMAP_NCONTEXTS; c++) {
			if (strcmp(keymap_context_name(c), ctx->string) == 0)
				break;
		}
		assert_true(c < KEYMAP_NCONTEXTS);
		cJSON_ArrayForEach(item, ctx) {
			k = key(item->string);
			for (i = 0; i < n[c]; i++) {
				if (seen[c][i] == k)
					fail_msg("%s: %s twice", ctx->string,
					    item->string);
			}
			assert_true(n[c] < 128);
			seen[c][n[c]++] = k;
		}
	}
	for (c = KEYMAP_LIST; c <= KEYMAP_DETAIL; c++) {
		for (i = 0; i < n[c]; i++) {
			for (j = 0; j < n[KEYMAP_GLOBAL]; j++)
				assert_int_not_equal(seen[c][i],
				    seen[KEYMAP_GLOBAL][j]);
		}
	}
	assert_true(n[KEYMAP_GLOBAL] > 0 && n[KEYMAP_LIST] > 0 &&
	    n[KEYMAP_DETAIL] > 0);
	cJSON_Delete(doc);
}

/*
 * A kind's own keys may take a list or global key for what only that
 * kind's list does (L uploads from a URL in videos, g generates captions),
 * but never the keys that find the way: moving by a line, opening, going
 * back, help, the : line; and the top and bottom keep a key.
 */
static void
test_defaults_kind_keys_keep_the_way(void **state)
{
	static const enum action way[] = {
		ACTION_QUIT, ACTION_BACK, ACTION_HELP, ACTION_COMMAND,
		ACTION_NEXT_PANEL, ACTION_UP, ACTION_DOWN, ACTION_DETAILS,
		ACTION_FILTER, ACTION_MARK, ACTION_REFRESH,
	};
	struct keymap	*km = keymap_new();
	struct buf	 in_list = BUF_INITIALIZER, in_kind = BUF_INITIALIZER;
	size_t		 i;
	int		 c;

	(void)state;
	for (c = KEYMAP_DETAIL + 1; c < KEYMAP_NCONTEXTS; c++) {
		if (!keymap_context_kind(c))
			continue;
		assert_int_equal(keymap_list_context(keymap_context_name(c)),
		    c);
		for (i = 0; i < nitems(way); i++) {
			buf_reset(&in_list);
			buf_reset(&in_kind);
			keymap_keys_of(km, KEYMAP_LIST, way[i], &in_list);
			keymap_keys_of(km, c, way[i], &in_kind);
			if (strcmp(buf_str(&in_list), buf_str(&in_kind)) != 0)
				fail_msg("%s: %s is '%s', not '%s' as in lists",
				    keymap_context_name(c),
				    keymap_action_name(way[i]),
				    buf_str(&in_kind), buf_str(&in_list));
		}
		assert_int_not_equal(keymap_key_of(km, c, ACTION_TOP), -1);
		assert_int_not_equal(keymap_key_of(km, c, ACTION_BOTTOM), -1);
	}
	buf_free(&in_list);
	buf_free(&in_kind);
	keymap_free(km);
}

/*
 * The shipped keys of a kind's list hide none of the list's or global's:
 * a list key does the same in every list.
 */
static void
test_kind_keys_hide_none(void **state)
{
	static const enum keymap_context kinds[] = {
		KEYMAP_RATE_LIMIT_RULES, KEYMAP_VIDEOS, KEYMAP_LIVE_INPUTS,
		KEYMAP_CAPTIONS, KEYMAP_RULE_VERSIONS
	};
	struct keymap	*km = keymap_new();
	char		 name[KEYMAP_KEY_NAME_MAX];
	size_t		 c;
	int		 a, k;
	enum action	 under;

	(void)state;
	for (c = 0; c < nitems(kinds); c++) {
		for (a = ACTION_NONE + 1; a < KEYMAP_NACTIONS; a++) {
			if ((k = keymap_key_of(km, kinds[c], a)) == -1)
				continue;
			under = keymap_lookup(km, KEYMAP_LIST, k);
			keymap_key_name(k, name, sizeof name);
			if (under != ACTION_NONE && under != (enum action)a)
				fail_msg("%s: %s hides the list's %s",
				    keymap_context_name(kinds[c]), name,
				    keymap_action_name(under));
		}
	}
	keymap_free(km);
}

/* A kind's context: its keys first, then the list's, then global's. */
static void
test_kind_context(void **state)
{
	struct keymap	*km;
	struct buf	 b = BUF_INITIALIZER;
	char		 keys[64];

	(void)state;
	assert_int_equal(keymap_list_context("videos"), KEYMAP_VIDEOS);
	assert_int_equal(keymap_list_context("rate-limit-rules"),
	    KEYMAP_RATE_LIMIT_RULES);
	/* Kinds without keys of their own, and the other contexts' names. */
	assert_int_equal(keymap_list_context("rate-limits"), KEYMAP_LIST);
	assert_int_equal(keymap_list_context("detail"), KEYMAP_LIST);
	assert_int_equal(keymap_list_context("global"), KEYMAP_LIST);
	assert_int_equal(keymap_list_context(NULL), KEYMAP_LIST);

	km = user_keymap("keymap:\n"
	    "  videos:\n    x: delete\n    q: refresh\n    j: none\n"
	    "  list:\n    Z: sort\n", NULL);
	/* Its own binding, hiding the list's and global's. */
	assert_int_equal(keymap_lookup(km, KEYMAP_VIDEOS, 'x'), ACTION_DELETE);
	assert_int_equal(keymap_lookup(km, KEYMAP_VIDEOS, 'q'),
	    ACTION_REFRESH);
	assert_int_equal(keymap_lookup(km, KEYMAP_VIDEOS, 'j'), ACTION_NONE);
	/* Then the list's, then global's. */
	assert_int_equal(keymap_lookup(km, KEYMAP_VIDEOS, 'Z'), ACTION_SORT);
	assert_int_equal(keymap_lookup(km, KEYMAP_VIDEOS, 'k'), ACTION_UP);
	assert_int_equal(keymap_lookup(km, KEYMAP_VIDEOS, '?'), ACTION_HELP);
	/* Other lists are not touched. */
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'x'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'q'), ACTION_QUIT);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIVE_INPUTS, 'j'),
	    ACTION_DOWN);
	/* The keys of an action there skip the hidden ones. */
	assert_keys_of(km, KEYMAP_VIDEOS, ACTION_DELETE, "x, d");
	assert_keys_of(km, KEYMAP_VIDEOS, ACTION_DOWN, "Down");
	assert_keys_of(km, KEYMAP_VIDEOS, ACTION_QUIT, "");
	assert_int_equal(keymap_key_of(km, KEYMAP_VIDEOS, ACTION_REFRESH),
	    'q');
	assert_int_equal(keymap_key_of(km, KEYMAP_VIDEOS, ACTION_QUIT), -1);
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_QUIT), 'q');
	/* The help has the kind's heading and its own lines. */
	keymap_help(km, &b);
	assert_true(help_keys(buf_str(&b), "videos", "delete", keys,
	    sizeof keys));
	assert_string_equal(keys, "x");
	assert_non_null(strstr(buf_str(&b),
	    "videos: in the videos list (then list, then global)\n"));
	buf_free(&b);
	keymap_free(km);
}

/* ---- key names ----------------------------------------------------------- */

static void
assert_round_trip(const char *name)
{
	char	out[KEYMAP_KEY_NAME_MAX];
	int	k, k2;

	k = key(name);
	keymap_key_name(k, out, sizeof out);
	assert_string_equal(out, name);
	k2 = key(out);
	assert_int_equal(k2, k);
}

static void
test_key_names_round_trip(void **state)
{
	static const char *const names[] = {
		"q", "?", "/", ":", "G", "~", "\\", "-", "Space", "Enter",
		"Esc", "Tab", "S-Tab", "Backspace", "Delete", "Insert", "Up",
		"Down", "Left", "Right", "Home", "End", "PgUp", "PgDn",
		"M-x", "M-X", "M-Enter", "M-Up", "M-C-a", "M-é", "M-?",
		"é", "ł", "€", "\xf0\x9f\x98\x80",
	};
	char		 name[8];
	size_t		 i;
	int		 c;

	(void)state;
	for (i = 0; i < nitems(names); i++)
		assert_round_trip(names[i]);
	for (i = 1; i <= 12; i++) {
		snprintf(name, sizeof name, "F%zu", i);
		assert_round_trip(name);
	}
	for (c = 'a'; c <= 'z'; c++) {
		if (c == 'h' || c == 'i' || c == 'j' || c == 'm')
			continue;
		snprintf(name, sizeof name, "C-%c", c);
		assert_round_trip(name);
	}
}

/* The codes the console will pass in. */
static void
test_key_codes(void **state)
{
	char	out[KEYMAP_KEY_NAME_MAX];

	(void)state;
	assert_int_equal(key("q"), 'q');
	assert_int_equal(key("C-x"), 0x18);
	assert_int_equal(key("C-X"), 0x18);
	assert_int_equal(key("M-x"), 'x' | KEYMAP_META);
	assert_int_equal(key("F5"), KEY_F(5));
	assert_int_equal(key("é"), 0xe9);
	assert_int_equal(key("S-Tab"), KEY_BTAB);
	assert_int_equal(key("PgDn"), KEY_NPAGE);
	assert_int_equal(key("Space"), ' ');
	assert_int_equal(key(" "), ' ');
	/* Keys a terminal sends the same bytes for are one key. */
	assert_int_equal(key("C-i"), key("Tab"));
	assert_int_equal(key("C-m"), key("Enter"));
	assert_int_equal(key("C-j"), key("Enter"));
	assert_int_equal(key("C-h"), key("Backspace"));
	assert_int_equal(key("return"), key("Enter"));
	assert_int_equal(key("PageDown"), KEY_NPAGE);
	keymap_key_name('\n', out, sizeof out);
	assert_string_equal(out, "Enter");
	keymap_key_name(KEY_ENTER, out, sizeof out);
	assert_string_equal(out, "Enter");
	keymap_key_name(0x7f, out, sizeof out);
	assert_string_equal(out, "Backspace");
	keymap_key_name(9, out, sizeof out);
	assert_string_equal(out, "Tab");
	/* U+0142 is also a curses key number; the character is flagged. */
	assert_int_equal(key("ł"), keymap_key_char(0x142));
	assert_int_not_equal(key("ł"), 0x142);
	assert_int_equal(keymap_key_char(0xe9), 0xe9);
	keymap_key_name(0x142, out, sizeof out);
	assert_string_not_equal(out, "ł");
}

static void
test_key_parse_refuses(void **state)
{
	static const char *const bad[] = {
		"", "Foo", "ab", "C-", "C-1", "C-ab", "M-", "M-M-x", "F0",
		"F13", "F1x", "S-a", "\x01", "\x7f", "\xc3", "\xc3\xa9x",
		"\xc0\xaf", "\xed\xa0\x80", "\xc2\x85",
	};
	char		*cause;
	size_t		 i;
	int		 k;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		k = -7;
		if (keymap_key_parse(bad[i], &k, &cause) == 0)
			fail_msg("'%s' parsed as %d", bad[i], k);
		assert_non_null(cause);
		assert_non_null(strstr(cause, "is not a key"));
		free(cause);
	}
}

/* ---- a user's keymap --------------------------------------------------- */

static void
test_rebind(void **state)
{
	struct keymap	*km;

	(void)state;
	km = user_keymap("keymap:\n  list:\n    d: copy\n    x: delete\n",
	    NULL);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'd'), ACTION_COPY);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'x'), ACTION_DELETE);
	assert_keys_of(km, KEYMAP_LIST, ACTION_DELETE, "x");
	assert_keys_of(km, KEYMAP_LIST, ACTION_COPY, "d, y");
	/* The other contexts keep their own d. */
	assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL, 'd'),
	    ACTION_DELETE);
	/* The rest of the defaults are still there. */
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'e'), ACTION_EDIT);
	keymap_free(km);
}

static void
test_unbind(void **state)
{
	struct keymap	*km;

	(void)state;
	km = user_keymap("keymap:\n"
	    "  list:\n    d: none\n    r: none\n    e:\n"
	    "  global:\n    q: none\n", NULL);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'd'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'e'), ACTION_NONE);
	assert_keys_of(km, KEYMAP_LIST, ACTION_DELETE, "");
	/* none in list hides global's r there, not elsewhere. */
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'r'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL, 'r'),
	    ACTION_REFRESH);
	assert_keys_of(km, KEYMAP_LIST, ACTION_REFRESH, "");
	assert_keys_of(km, KEYMAP_DETAIL, ACTION_REFRESH, "r");
	/* none in global: q is gone from every context. */
	assert_int_equal(keymap_lookup(km, KEYMAP_GLOBAL, 'q'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'q'), ACTION_NONE);
	assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL, 'q'), ACTION_NONE);
	keymap_free(km);
}

static void
test_fallback_to_global(void **state)
{
	struct keymap	*km;

	(void)state;
	km = user_keymap("keymap:\n"
	    "  global:\n    Q: quit\n    M-l: request-log\n    ł: help\n"
	    "  detail:\n    q: top\n", NULL);
	/* Bound only globally: found from every context. */
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'Q'), ACTION_QUIT);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'l' | KEYMAP_META),
	    ACTION_LOG);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, keymap_key_char(0x142)),
	    ACTION_HELP);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 0x142), ACTION_NONE);
	assert_keys_of(km, KEYMAP_LIST, ACTION_QUIT, "q, Q");
	/* The context's own binding first. */
	assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL, 'q'), ACTION_TOP);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'q'), ACTION_QUIT);
	assert_keys_of(km, KEYMAP_DETAIL, ACTION_QUIT, "Q");
	assert_keys_of(km, KEYMAP_DETAIL, ACTION_TOP, "g, Home, q");
	keymap_free(km);
}

static void
test_problems(void **state)
{
	struct keymap		*km;
	const char *const	*p;
	size_t			 n, total;

	(void)state;
	km = user_keymap("keymap:\n"
	    "  lists:\n    x: quit\n"
	    "  list:\n"
	    "    X: frobnicate\n"
	    "    Foo: quit\n"
	    "    w: [1]\n"
	    "    W: bottom\n"
	    "  detail: 3\n"
	    "  global:\n    Z: help\n", &n);
	assert_int_equal(n, 5);
	p = keymap_problems(km, &total);
	assert_int_equal(total, 5);
	assert_string_equal(p[0], "config.yaml: keymap.lists: not a context "
	    "(global, list, detail, rate-limit-rules, videos, live-inputs, "
	    "captions, rule-versions, journal, log, tray, tester, text, "
	    "preview, first-run)");
	assert_string_equal(p[1], "config.yaml: keymap.list.X: 'frobnicate' "
	    "is not an action (see edgetui --help-keys)");
	assert_prefix(p[2],
	    "config.yaml: keymap.list.Foo: 'Foo' is not a key (");
	assert_string_equal(p[3], "config.yaml: keymap.list.w: expected an "
	    "action or none, not a list");
	assert_string_equal(p[4], "config.yaml: keymap.detail: expected a "
	    "mapping of keys to actions, not a number");
	/* The rest applied. */
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'W'), ACTION_BOTTOM);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'Z'), ACTION_HELP);
	assert_int_equal(keymap_lookup(km, KEYMAP_DETAIL, 'J'), ACTION_JSON);
	assert_int_equal(keymap_lookup(km, KEYMAP_LIST, 'x'), ACTION_NONE);

	/* Problems add up; a control character never reaches the screen. */
	{
		cJSON	*doc = yaml("list:\n  \"\\e[2J\": quit\n");

		assert_int_equal(keymap_apply(km, doc, "other.yaml"), 1);
		cJSON_Delete(doc);
	}
	p = keymap_problems(km, &total);
	assert_int_equal(total, 6);
	assert_prefix(p[5],
	    "other.yaml: keymap.list.?[2J: '?[2J' is not a key");
	assert_null(strchr(p[5], '\x1b'));

	/* No keymap: nothing to do; not a mapping: one problem. */
	assert_int_equal(keymap_apply(km, NULL, "config.yaml"), 0);
	{
		cJSON	*s = cJSON_CreateString("vi");

		assert_int_equal(keymap_apply(km, s, "config.yaml"), 1);
		cJSON_Delete(s);
	}
	p = keymap_problems(km, &total);
	assert_string_equal(p[6], "config.yaml: keymap: expected a mapping "
	    "of contexts (global, list, detail, a kind or a view), not a "
	    "string");
	keymap_free(km);
}

/* The lines config.c would give: keymap.list.X on 4, keymap.detail on 9. */
static int
fake_line(const char *path, void *arg)
{
	(void)arg;
	if (strcmp(path, "keymap.list.X") == 0)
		return (4);
	if (strcmp(path, "keymap.detail") == 0)
		return (9);
	return (0);
}

static void
test_problem_lines(void **state)
{
	struct keymap		*km;
	const char *const	*p;
	cJSON			*doc;
	size_t			 total;

	(void)state;
	km = keymap_new();
	doc = yaml("list:\n  X: frobnicate\n  Foo: quit\ndetail: 3\n");
	keymap_set_lines(km, fake_line, NULL);
	assert_int_equal(keymap_apply(km, doc, "config.yaml"), 3);
	keymap_set_lines(km, NULL, NULL);
	assert_int_equal(keymap_apply(km, doc, "config.yaml"), 3);
	cJSON_Delete(doc);
	p = keymap_problems(km, &total);
	assert_int_equal(total, 6);
	assert_string_equal(p[0], "config.yaml:4: keymap.list.X: 'frobnicate' "
	    "is not an action (see edgetui --help-keys)");
	/* A key the callback does not know keeps the old form. */
	assert_prefix(p[1], "config.yaml: keymap.list.Foo: ");
	assert_string_equal(p[2], "config.yaml:9: keymap.detail: expected a "
	    "mapping of keys to actions, not a number");
	assert_prefix(p[3], "config.yaml: keymap.list.X: ");
	keymap_free(km);
}

/* ---- help -------------------------------------------------------------- */

static void
test_help_defaults(void **state)
{
	struct keymap	*km = keymap_new();
	struct buf	 b = BUF_INITIALIZER;
	char		 keys[64];
	const char	*line, *col = NULL, *end;
	size_t		 at, where = 0;

	(void)state;
	keymap_help(km, &b);
	assert_true(help_keys(buf_str(&b), "list", "down", keys, sizeof keys));
	assert_string_equal(keys, "j, Down");
	assert_true(help_keys(buf_str(&b), "global", "quit", keys,
	    sizeof keys));
	assert_string_equal(keys, "q");
	assert_true(help_keys(buf_str(&b), "detail", "toggle-json", keys,
	    sizeof keys));
	assert_string_equal(keys, "J");
	assert_false(help_keys(buf_str(&b), "global", "down", keys,
	    sizeof keys));
	assert_non_null(strstr(buf_str(&b), "go back; quit from the last list\n"));

	/* Aligned: every action name starts in the same column. */
	for (line = buf_str(&b); *line != '\0'; line = end + 1) {
		end = strchr(line, '\n');
		if (strncmp(line, "  ", 2) != 0)
			continue;
		col = strstr(line + 2, "  ");
		while (*col == ' ')
			col++;
		at = (size_t)(col - line);
		if (where == 0)
			where = at;
		assert_int_equal(at, where);
	}
	assert_true(where > 0);
	buf_free(&b);
	keymap_free(km);
}

static void
test_help_follows_rebinding(void **state)
{
	struct keymap	*km;
	struct buf	 b = BUF_INITIALIZER;
	char		 keys[64];

	(void)state;
	km = user_keymap("keymap:\n"
	    "  list:\n    d: none\n    x: delete\n    o: none\n", NULL);
	keymap_help(km, &b);
	assert_true(help_keys(buf_str(&b), "list", "delete", keys,
	    sizeof keys));
	assert_string_equal(keys, "x");
	/* With no key left, an action has no line. */
	assert_false(help_keys(buf_str(&b), "list", "sort", keys,
	    sizeof keys));
	/* The details view keeps its d. */
	assert_true(help_keys(buf_str(&b), "detail", "delete", keys,
	    sizeof keys));
	assert_string_equal(keys, "d");
	buf_free(&b);
	keymap_free(km);
}

/* edgetui --help-keys prints the defaults' help. */
static void
test_print_defaults(void **state)
{
	struct keymap	*km = keymap_new();
	struct buf	 b = BUF_INITIALIZER;
	FILE		*f;
	char		*text;
	long		 size;

	(void)state;
	keymap_help(km, &b);
	assert_non_null(f = tmpfile());
	keymap_print_defaults(f);
	size = ftell(f);
	assert_int_equal(size, (long)b.len);
	rewind(f);
	text = xcalloc(1, (size_t)size + 1);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	assert_string_equal(text, buf_str(&b));
	free(text);
	fclose(f);
	buf_free(&b);
	keymap_free(km);
}

/* The footer's key for an action: the first bound, following rebinding. */
static void
test_key_of(void **state)
{
	struct keymap	*km;

	(void)state;
	km = keymap_new();
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_DELETE), 'd');
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_HELP), '?');
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_DETAILS),
	    key("Enter"));
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_REVEAL), -1);
	assert_int_equal(keymap_key_of(km, KEYMAP_DETAIL, ACTION_REVEAL), 'x');
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_NONE), -1);
	keymap_free(km);

	km = user_keymap("keymap:\n  list:\n    x: delete\n    d: none\n"
	    "  global:\n    \"?\": none\n    H: help\n    T: refresh\n"
	    "  detail:\n    F1: top\n", NULL);
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_DELETE), 'x');
	/* Only the list was rebound. */
	assert_int_equal(keymap_key_of(km, KEYMAP_DETAIL, ACTION_DELETE), 'd');
	/* Global's key, unless the context takes it for something else. */
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_HELP), key("F1"));
	assert_int_equal(keymap_key_of(km, KEYMAP_GLOBAL, ACTION_HELP),
	    key("F1"));
	assert_int_equal(keymap_key_of(km, KEYMAP_DETAIL, ACTION_HELP), 'H');
	assert_int_equal(keymap_key_of(km, KEYMAP_LIST, ACTION_REFRESH), 'r');
	keymap_free(km);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_clean),
		cmocka_unit_test(test_defaults_documented_keys),
		cmocka_unit_test(test_actions_named_and_helped),
		cmocka_unit_test(test_defaults_bind_every_action),
		cmocka_unit_test(test_defaults_no_clash),
		cmocka_unit_test(test_defaults_kind_keys_keep_the_way),
		cmocka_unit_test(test_kind_context),
		cmocka_unit_test(test_kind_keys_hide_none),
		cmocka_unit_test(test_key_names_round_trip),
		cmocka_unit_test(test_key_codes),
		cmocka_unit_test(test_key_parse_refuses),
		cmocka_unit_test(test_rebind),
		cmocka_unit_test(test_unbind),
		cmocka_unit_test(test_fallback_to_global),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_problem_lines),
		cmocka_unit_test(test_key_of),
		cmocka_unit_test(test_help_defaults),
		cmocka_unit_test(test_help_follows_rebinding),
		cmocka_unit_test(test_print_defaults),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
