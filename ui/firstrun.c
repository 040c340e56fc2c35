/*
 * The console's first run: with no API token configured, a screen that
 * says what is missing, the three ways to set it, and offers the demo or
 * to quit (the first-run keys of the keymap) rather than an error on the
 * way out.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "config_env.h"
#include "configfile.h"
#include "keymap.h"
#include "screen.h"
#include "text.h"
#include "xmalloc.h"

#include "firstrun.h"

/* How long a wait for a key lasts before the signal flag is looked at. */
#define FIRSTRUN_POLL_MS	200
/* The least columns a value keeps beside its label ("token_file:"). */
#define FIRSTRUN_VALUE_MIN	16
/* The widest the text runs, so a wide terminal still reads easily. */
#define FIRSTRUN_TEXT_MAX	76

int
firstrun_needed(const struct config *cfg, const char *name)
{
	const struct config_profile	*prof;

	if (config_env_get(NULL, "CLOUDFLARE_API_TOKEN") != NULL)
		return (0);
	if ((prof = config_profile(cfg, name)) == NULL)
		return (0);
	return (prof->token_source == CONFIG_TOKEN_NONE &&
	    prof->token_refusal == NULL);
}

/*
 * Rows short: what goes first. The keys are on the last line too; blank
 * lines next; then the pointers to config init and the manual.
 */
enum firstrun_drop {
	FIRSTRUN_KEEP,
	FIRSTRUN_DROP_KEYS,
	FIRSTRUN_DROP_BLANK,
	FIRSTRUN_DROP_HINT,
	FIRSTRUN_DROP_MAX = FIRSTRUN_DROP_HINT
};

/*
 * One paragraph of the screen: its text, wrapped to the width, the role
 * to draw it with, the columns its first row is indented by and those of
 * the rows after it (a value under its column: "token_command: ...").
 */
struct firstrun_line {
	char			*text;
	enum theme_role		 role;
	int			 indent;
	int			 hang;
	int			 wide;	/* past FIRSTRUN_TEXT_MAX: a path */
	enum firstrun_drop	 drop;
};

struct firstrun_text {
	struct firstrun_line	*lines;
	size_t			 n;
	char			 demo[KEYMAP_KEY_NAME_MAX]; /* or "" */
	char			 quit[KEYMAP_KEY_NAME_MAX];
};

/* The screen's rows for a width: text (to free) and role. */
struct firstrun_row {
	char			*text;
	enum theme_role		 role;
};

static void
firstrun_rows_free(struct firstrun_row *rows, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(rows[i].text);
	free(rows);
}

static struct firstrun_line *
firstrun_add(struct firstrun_text *ft, enum theme_role role, char *text)
{
	struct firstrun_line	*l;

	ft->lines = xreallocarray(ft->lines, ft->n + 1, sizeof *ft->lines);
	l = &ft->lines[ft->n++];
	memset(l, 0, sizeof *l);
	l->text = text;
	l->role = role;
	if (*text == '\0')
		l->drop = FIRSTRUN_DROP_BLANK;
	return (l);
}

/* A way to set the token: label, then the value in a column of its own. */
static void
firstrun_way(struct firstrun_text *ft, const char *label, const char *value)
{
	struct firstrun_line	*l;

	l = firstrun_add(ft, THEME_ROLE_NORMAL, xprintf("%-19s  %s", label,
	    value));
	l->indent = 2;
	l->hang = 23;
}

/* "  d  what it does", under the text: the keys go first when short. */
static void
firstrun_key(struct firstrun_text *ft, const char *key, const char *what)
{
	struct firstrun_line	*l;
	int			 w = MAXIMUM((int)strlen(ft->demo),
				     (int)strlen(ft->quit));

	if (*key == '\0')
		return;
	l = firstrun_add(ft, THEME_ROLE_KEY, xprintf("  %-*s  %s", w, key,
	    what));
	l->drop = FIRSTRUN_DROP_KEYS;
	l->hang = w + 4;
}

/* The first key of each choice, "" when none does it. */
static void
firstrun_keys(struct firstrun_text *ft, const struct keymap *km)
{
	int	k;

	*ft->demo = *ft->quit = '\0';
	if ((k = keymap_key_of(km, KEYMAP_FIRST_RUN, ACTION_DEMO)) != -1)
		keymap_key_name(k, ft->demo, sizeof ft->demo);
	if ((k = keymap_key_of(km, KEYMAP_FIRST_RUN, ACTION_QUIT)) != -1 ||
	    (k = keymap_key_of(km, KEYMAP_FIRST_RUN, ACTION_BACK)) != -1)
		keymap_key_name(k, ft->quit, sizeof ft->quit);
}

static void
firstrun_text(struct firstrun_text *ft, const struct config *cfg,
    const char *name)
{
	const struct config_profile	*prof = config_profile(cfg, name);
	struct firstrun_line		*l;
	char				*file;

	file = cfg->file != NULL ? xstrdup(cfg->file) :
	    config_default_path(NULL);
	firstrun_add(ft, THEME_ROLE_TITLE, xstrdup("No API token"));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	if (cfg->file == NULL)
		firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup("There is no config "
		    "file and CLOUDFLARE_API_TOKEN is not set, so the console "
		    "cannot reach the API. Set the token one of three ways:"));
	else
		firstrun_add(ft, THEME_ROLE_NORMAL, xprintf("Profile %s names "
		    "no token and CLOUDFLARE_API_TOKEN is not set, so the "
		    "console cannot reach the API. Set the token one of three "
		    "ways:", prof->name));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	firstrun_way(ft, "1. the environment", "export "
	    "CLOUDFLARE_API_TOKEN=...");
	firstrun_way(ft, "2. a file, mode 600", "token_file: "
	    "~/.config/edgetui/token");
	firstrun_way(ft, "3. a command", "token_command: pass show "
	    "cloudflare/api-token");
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	firstrun_add(ft, THEME_ROLE_NORMAL, xprintf("2 and 3 go under "
	    "profiles: %s: in", prof->name));
	l = firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(file));
	l->indent = l->hang = 2;
	l->wide = 1;
	l = firstrun_add(ft, THEME_ROLE_DIM, xstrdup("edgetui config init "
	    "asks a few questions and writes that file; man edgetui, section "
	    "CONFIGURATION, describes every key."));
	l->drop = FIRSTRUN_DROP_HINT;
	if (prof->account == NULL && prof->zone == NULL &&
	    config_env_get(NULL, "CLOUDFLARE_ACCOUNT_ID") == NULL &&
	    config_env_get(NULL, "CLOUDFLARE_ZONE_ID") == NULL) {
		firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
		firstrun_add(ft, THEME_ROLE_WARNING, xstrdup("The account and "
		    "zone are missing too: account: and zone: in the profile, "
		    "CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_ZONE_ID, or "
		    "--account/--zone."));
	}
	l = firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	l->drop = FIRSTRUN_DROP_KEYS;
	firstrun_key(ft, ft->demo, "try the console on demo data (--demo: a "
	    "local edgemu)");
	firstrun_key(ft, ft->quit, "quit");
	free(file);
}

static void
firstrun_row(struct firstrun_row **rows, size_t *n, int indent,
    const char *text, size_t len, enum theme_role role)
{
	*rows = xreallocarray(*rows, *n + 1, sizeof **rows);
	(*rows)[*n].text = xprintf("%*s%.*s", indent, "", (int)len, text);
	(*rows)[(*n)++].role = role;
}

/* Append a paragraph's rows, wrapped to cols columns. */
static void
firstrun_wrap(const struct firstrun_line *l, size_t cols,
    struct firstrun_row **rows, size_t *n)
{
	const char	*s = l->text;
	size_t		 len, width, keep;
	int		 hang = l->hang, indent = l->indent;

	/* Too narrow for the value's column: the value goes under it. */
	if (hang > 0 && cols < (size_t)hang + FIRSTRUN_VALUE_MIN)
		hang = MINIMUM(hang, 4);
	if (*s == '\0')
		firstrun_row(rows, n, 0, "", 0, l->role);
	while (*s != '\0') {
		width = cols > (size_t)indent + 1 ? cols - (size_t)indent : 1;
		len = text_wrap(s, width);
		/* No space left at the end of a row. */
		for (keep = len; keep > 0 && s[keep - 1] == ' '; keep--)
			;
		firstrun_row(rows, n, indent, s, keep, l->role);
		for (s += len; *s == ' '; s++)
			;
		indent = hang;
	}
}

/*
 * The screen's rows for cols x nrows: every paragraph wrapped (to at most
 * FIRSTRUN_TEXT_MAX columns but a path or an error), or, when they are
 * too many, without those that go first (enum firstrun_drop).
 */
static struct firstrun_row *
firstrun_layout(const struct firstrun_text *ft, size_t cols, size_t nrows,
    size_t *n)
{
	const struct firstrun_line *l;
	struct firstrun_row	*rows = NULL;
	size_t			 i;
	int			 drop;

	*n = 0;
	for (drop = FIRSTRUN_KEEP; drop <= FIRSTRUN_DROP_MAX; drop++) {
		firstrun_rows_free(rows, *n);
		rows = NULL;
		*n = 0;
		for (i = 0; i < ft->n; i++) {
			l = &ft->lines[i];
			if (l->drop == FIRSTRUN_KEEP || (int)l->drop > drop)
				firstrun_wrap(l, l->wide ? cols :
				    MINIMUM(cols, FIRSTRUN_TEXT_MAX), &rows, n);
		}
		if (*n <= nrows)
			break;
	}
	return (rows);
}

static void
firstrun_draw(const struct firstrun_text *ft)
{
	struct firstrun_row	*rows;
	size_t			 i, n = 0;
	int			 y, x = 0;

	erase();
	screen_put(0, 0, COLS, " edgetui", screen_role(THEME_ROLE_HEADER));
	screen_fill(0, 8, COLS - 8, screen_role(THEME_ROLE_HEADER));
	/* Two columns of margin each side; the rows between the bars. */
	rows = firstrun_layout(ft, (size_t)MAXIMUM(COLS - 4, 1),
	    (size_t)MAXIMUM(LINES - 3, 0), &n);
	for (i = 0, y = 2; i < n && y < LINES - 1; i++, y++)
		screen_put(y, 2, COLS - 2, rows[i].text,
		    screen_role(rows[i].role));
	firstrun_rows_free(rows, n);
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	if (*ft->demo != '\0')
		x = screen_put(LINES - 1, 0, COLS, ft->demo,
		    screen_role(THEME_ROLE_STATUS));
	if (*ft->demo != '\0')
		x += screen_put(LINES - 1, x, COLS - x, ": demo  ",
		    screen_role(THEME_ROLE_STATUS));
	if (*ft->quit != '\0')
		x += screen_put(LINES - 1, x, COLS - x, ft->quit,
		    screen_role(THEME_ROLE_STATUS));
	if (*ft->quit != '\0')
		screen_put(LINES - 1, x, COLS - x, ": quit",
		    screen_role(THEME_ROLE_STATUS));
	wnoutrefresh(stdscr);
	doupdate();
}

/* A key, as the console reads them: a character, or a curses key code. */
static int
firstrun_read(void)
{
	wint_t	wc;
	int	r;

	if ((r = get_wch(&wc)) == ERR)
		return (ERR);
	return (r == OK ? keymap_key_char(wc) : (int)wc);
}

enum firstrun_choice
firstrun_run(const struct config *cfg, const char *name, const char *error,
    const struct keymap *km, volatile sig_atomic_t *signalled)
{
	struct firstrun_text	ft = { NULL, 0, "", "" };
	enum firstrun_choice	choice = FIRSTRUN_QUIT;
	size_t			i;
	int			key, done = 0;

	firstrun_keys(&ft, km);
	firstrun_text(&ft, cfg, name);
	if (error != NULL) {
		firstrun_add(&ft, THEME_ROLE_NORMAL, xstrdup(""));
		firstrun_add(&ft, THEME_ROLE_ERROR, xstrdup(error))->wide = 1;
	}
	timeout(FIRSTRUN_POLL_MS);
	firstrun_draw(&ft);
	while (!done && !*signalled) {
		if ((key = firstrun_read()) == ERR)
			continue;
		if (key == KEY_RESIZE) {
			firstrun_draw(&ft);
			continue;
		}
		switch (keymap_lookup(km, KEYMAP_FIRST_RUN, key)) {
		case ACTION_DEMO:
			choice = FIRSTRUN_DEMO;
			done = 1;
			break;
		case ACTION_QUIT:
		case ACTION_BACK:
			done = 1;
			break;
		default:
			beep();
			break;
		}
	}
	/* The console's loop polls its own way: back to no waiting. */
	nodelay(stdscr, TRUE);
	for (i = 0; i < ft.n; i++)
		free(ft.lines[i].text);
	free(ft.lines);
	return (choice);
}
