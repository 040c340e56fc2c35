/*
 * A tiny full-screen curses program that stands in for the console while
 * the e2e harness (tests/e2e/lib.sh) is proved against it.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#define STANDIN_NKEYS	10

/*
 * Values that change on every run, shown so that the harness's screen
 * normalisation has real ids, times and a budget to replace.
 */
struct standin_noise {
	char	id[33];
	char	uuid[37];
	char	created[32];
	char	local[32];
	int	ago;
	int	budget;
};

static const char	*standin_keys[STANDIN_NKEYS];
static int		 standin_nkeys;

static void
standin_hex(char *out, size_t len)
{
	static const char	digits[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < len; i++)
		out[i] = digits[rand() % 16];
	out[len] = '\0';
}

static void
standin_noise_make(struct standin_noise *n)
{
	time_t	now = time(NULL);

	srand((unsigned)now ^ (unsigned)getpid());
	standin_hex(n->id, 32);
	standin_hex(n->uuid, 36);
	n->uuid[8] = n->uuid[13] = n->uuid[18] = n->uuid[23] = '-';
	strftime(n->created, sizeof n->created, "%Y-%m-%dT%H:%M:%SZ",
	    gmtime(&now));
	strftime(n->local, sizeof n->local, "%Y-%m-%d %H:%M",
	    localtime(&now));
	n->ago = 1 + rand() % 59;
	n->budget = rand() % 1201;
}

/* The last keys typed, oldest first; a space gets a visible name. */
static void
standin_key_add(int ch)
{
	const char	*name = ch == ' ' ? "SPACE" : keyname(ch);

	if (name == NULL)
		name = "UNKNOWN";
	if (standin_nkeys == STANDIN_NKEYS) {
		memmove(standin_keys, standin_keys + 1,
		    (STANDIN_NKEYS - 1) * sizeof *standin_keys);
		standin_nkeys--;
	}
	standin_keys[standin_nkeys++] = name;
}

static const char *
standin_env(const char *name)
{
	const char	*v = getenv(name);

	return (v != NULL ? v : "(unset)");
}

static void
standin_draw(const struct standin_noise *n)
{
	int	i;

	erase();
	mvprintw(0, 0, "e2e-standin  budget %d/1200", n->budget);
	mvprintw(2, 0, "READY");
	mvprintw(3, 0, "SIZE:%dx%d", COLS, LINES);
	mvprintw(4, 0, "TERM:%s LANG:%s", standin_env("TERM"),
	    standin_env("LANG"));
	mvprintw(5, 0, "HOME:%s", standin_env("HOME"));
	mvprintw(6, 0, "API:%s", standin_env("CLOUDFLARE_BASE_URL"));
	mvprintw(7, 0, "id %s  uid %s", n->id, n->uuid);
	mvprintw(8, 0, "created %s  at %s  seen %ds ago", n->created,
	    n->local, n->ago);
	if (standin_nkeys > 0)
		mvprintw(10, 0, "KEY:%s", standin_keys[standin_nkeys - 1]);
	move(11, 0);
	printw("KEYS:");
	for (i = 0; i < standin_nkeys; i++)
		printw(" %s", standin_keys[i]);
	mvprintw(LINES - 1, 0, "-- q quits --");
	refresh();
}

int
main(int argc, char **argv)
{
	struct standin_noise	noise;
	int			crash, ch;

	crash = argc > 1 && strcmp(argv[1], "--crash") == 0;
	setlocale(LC_ALL, "");
	standin_noise_make(&noise);

	initscr();
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	standin_draw(&noise);
	/* ERR means the terminal went away: stop rather than spin. */
	while ((ch = getch()) != 'q' && ch != ERR) {
		if (ch != KEY_RESIZE)
			standin_key_add(ch);
		standin_draw(&noise);
	}

	/* --crash leaves the terminal as a crashing console would. */
	if (crash)
		return (0);
	endwin();
	return (ch == 'q' ? 0 : 1);
}
