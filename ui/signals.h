/*
 * The signals that end edgetui, and what each leaves tidy before it dies:
 * no editor's temporary file, the terminal as it was, no demo edgemu or
 * store.
 */
#ifndef EDGE_SIGNALS_H
#define EDGE_SIGNALS_H

#include <signal.h>

/*
 * Catch every signal that ends the process (HUP INT QUIT TERM USR1 USR2
 * ALRM VTALRM PROF PIPE XCPU XFSZ, and the faults SEGV BUS FPE ILL ABRT
 * SYS TRAP), but those ignored already: each cleans up with
 * async-signal-safe calls (edit_signal_cleanup, screen_restore_now,
 * demo_stop_now) and ends the process by the same signal. The console
 * (non-zero) ignores SIGPIPE instead.
 */
void	signals_init(int);
/*
 * While flag is not NULL, an ending signal that is not a fault is put in
 * *flag for the console's loop (the editor running is stopped and the
 * edits' files removed at once, but on SIGINT); a second one before the
 * loop has cleared it ends the process at once. NULL: at once again.
 */
void	signals_defer(volatile sig_atomic_t *);

#endif
