/*
 * The console's first run: with no API token configured, a screen that
 * says what is missing, the three ways to set it, and offers the demo
 * (d) or to quit (q) rather than an error on the way out.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "config_env.h"
#include "configfile.h"
#include "screen.h"
#include "xmalloc.h"

#include "firstrun.h"

/* How long a wait for a key lasts before the signal flag is looked at. */
#define FIRSTRUN_POLL_MS	200

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

/* One line of the screen: text, and the role to draw it with. */
struct firstrun_line {
	char		*text;
	enum theme_role	 role;
};

struct firstrun_text {
	struct firstrun_line	*lines;
	size_t			 n;
};

static void
firstrun_add(struct firstrun_text *ft, enum theme_role role, char *text)
{
	ft->lines = xreallocarray(ft->lines, ft->n + 1, sizeof *ft->lines);
	ft->lines[ft->n].text = text;
	ft->lines[ft->n++].role = role;
}

static void
firstrun_text(struct firstrun_text *ft, const struct config *cfg,
    const char *name)
{
	const struct config_profile	*prof = config_profile(cfg, name);
	char				*file;

	file = cfg->file != NULL ? xstrdup(cfg->file) :
	    config_default_path(NULL);
	firstrun_add(ft, THEME_ROLE_TITLE, xstrdup("No API token"));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	if (cfg->file == NULL)
		firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup("There is no config "
		    "file and CLOUDFLARE_API_TOKEN is not set, so the"));
	else
		firstrun_add(ft, THEME_ROLE_NORMAL, xprintf("Profile %s names "
		    "no token and CLOUDFLARE_API_TOKEN is not set, so the",
		    prof->name));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup("console cannot reach "
	    "the API. Set the token one of three ways:"));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup("  1. the environment   "
	    "export CLOUDFLARE_API_TOKEN=..."));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup("  2. a file, mode 600  "
	    "token_file: ~/.config/edgetui/token"));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup("  3. a command         "
	    "token_command: pass show cloudflare/api-token"));
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	firstrun_add(ft, THEME_ROLE_NORMAL, xprintf("2 and 3 go under "
	    "profiles: %s: in", prof->name));
	firstrun_add(ft, THEME_ROLE_NORMAL, xprintf("  %s", file));
	firstrun_add(ft, THEME_ROLE_DIM, xstrdup("edgetui config init asks "
	    "a few questions and writes that file;"));
	firstrun_add(ft, THEME_ROLE_DIM, xstrdup("man edgetui, section "
	    "CONFIGURATION, describes every key."));
	if (prof->account == NULL && prof->zone == NULL &&
	    config_env_get(NULL, "CLOUDFLARE_ACCOUNT_ID") == NULL &&
	    config_env_get(NULL, "CLOUDFLARE_ZONE_ID") == NULL) {
		firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
		firstrun_add(ft, THEME_ROLE_WARNING, xstrdup("The account and "
		    "zone are missing too: account: and zone: in the"));
		firstrun_add(ft, THEME_ROLE_WARNING, xstrdup("profile, "
		    "CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_ZONE_ID, or "
		    "--account/--zone."));
	}
	firstrun_add(ft, THEME_ROLE_NORMAL, xstrdup(""));
	firstrun_add(ft, THEME_ROLE_KEY, xstrdup("  d  try the console on "
	    "demo data (--demo: a local edgemu)"));
	firstrun_add(ft, THEME_ROLE_KEY, xstrdup("  q  quit"));
	free(file);
}

static void
firstrun_draw(const struct firstrun_text *ft)
{
	size_t	i;
	int	y;

	erase();
	screen_put(0, 0, COLS, " edgetui", screen_role(THEME_ROLE_HEADER));
	screen_fill(0, 8, COLS - 8, screen_role(THEME_ROLE_HEADER));
	for (i = 0, y = 2; i < ft->n && y < LINES - 1; i++, y++)
		screen_put(y, 2, COLS - 2, ft->lines[i].text,
		    screen_role(ft->lines[i].role));
	screen_put(LINES - 1, 0, COLS, "d: demo  q: quit",
	    screen_role(THEME_ROLE_STATUS));
	screen_fill(LINES - 1, 16, COLS - 16, screen_role(THEME_ROLE_STATUS));
	wnoutrefresh(stdscr);
	doupdate();
}

enum firstrun_choice
firstrun_run(const struct config *cfg, const char *name, const char *error,
    volatile sig_atomic_t *signalled)
{
	struct firstrun_text	ft = { NULL, 0 };
	enum firstrun_choice	choice = FIRSTRUN_QUIT;
	size_t			i;
	int			key, done = 0;

	firstrun_text(&ft, cfg, name);
	if (error != NULL) {
		firstrun_add(&ft, THEME_ROLE_NORMAL, xstrdup(""));
		firstrun_add(&ft, THEME_ROLE_ERROR, xstrdup(error));
	}
	timeout(FIRSTRUN_POLL_MS);
	firstrun_draw(&ft);
	while (!done && !*signalled) {
		switch ((key = getch())) {
		case ERR:
			break;
		case KEY_RESIZE:
			firstrun_draw(&ft);
			break;
		case 'd':
		case 'D':
			choice = FIRSTRUN_DEMO;
			done = 1;
			break;
		case 'q':
		case 'Q':
		case 27:	/* Esc */
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
