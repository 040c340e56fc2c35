/*
 * edgetui --demo: a private edgemu for the session, on a free loopback
 * port with a fresh store of demo data, stopped when the session ends.
 */
#ifndef EDGE_DEMO_H
#define EDGE_DEMO_H

#include <sys/types.h>

/* What the console connects with; every string allocated. */
struct demo {
	pid_t	 pid;		/* edgemu; 0 once stopped */
	char	*dir;		/* its store, log and ready file (0700) */
	char	*url;		/* EDGEMU_URL: the v4 base URL */
	char	*token;		/* the API token it wants */
	char	*account;
	char	*zone;
};

/*
 * Start edgemu and wait (up to DEMO_START_SECONDS) until it serves.
 * Which edgemu: $EDGEMU if set; else beside the edgetui executable (its
 * directory from /proc/self/exe, then from argv0 when that holds a '/'),
 * as ../emulator/edgemu in the build tree or edgemu when installed; else
 * edgemu on $PATH. The token is random and reaches edgemu through its
 * environment (EDGEMU_TOKEN), never its arguments. edgemu runs in a
 * session of its own (the terminal's Ctrl-C is not for it) and is sent
 * SIGTERM if the thread that started it dies, so call this from the thread
 * that lives as long as the session (the main one). Returns 0, or -1 with
 * *cause (with the last lines of edgemu's log when it died), everything
 * already cleaned up.
 */
int	 demo_start(struct demo *, const char *, char **);

/*
 * SIGTERM, wait (SIGKILL after DEMO_STOP_SECONDS), remove the directory
 * and free. Safe to call twice and on a zeroed struct. It waits for the
 * pid itself: the caller must not reap it. It sleeps and frees, so it is
 * for the normal exit path and atexit, not for a signal handler.
 */
void	 demo_stop(struct demo *);
/*
 * From a signal handler, the process about to die: SIGKILL the running
 * demo's edgemu, wait for it, and remove its directory, with
 * async-signal-safe calls only. Nothing is freed.
 */
void	 demo_stop_now(void);

#define DEMO_START_SECONDS	10
#define DEMO_STOP_SECONDS	3

#endif
