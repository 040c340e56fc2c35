/*
 * The console's first run: no API token configured anywhere. Instead of an
 * error and an exit, a screen says what is missing and how to set it, and
 * offers the demo.
 */
#ifndef EDGE_FIRSTRUN_H
#define EDGE_FIRSTRUN_H

#include <signal.h>

struct config;
struct keymap;

enum firstrun_choice {
	FIRSTRUN_QUIT,
	FIRSTRUN_DEMO
};

/*
 * Whether profile (NULL: the default) has no token from any source:
 * CLOUDFLARE_API_TOKEN unset and none of token, token_file, token_command.
 * An unknown profile or a refused token is an error to show, not this.
 */
int	firstrun_needed(const struct config *, const char *);
/*
 * The screen, on a terminal screen_init has set up, until a key chooses
 * (the keymap's first-run keys); a signal (*signalled set) quits. error
 * (or NULL) is why the demo did not start the last time it was chosen.
 */
enum firstrun_choice firstrun_run(const struct config *, const char *,
	    const char *, const struct keymap *, volatile sig_atomic_t *);

#endif
