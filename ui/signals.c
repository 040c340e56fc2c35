/*
 * The signals that end edgetui, in one table, and what is done before it
 * dies of one: a running editor is stopped and the open edits' files
 * (records unmasked) removed, the terminal restored, and the demo's
 * edgemu stopped and its store removed. The console's loop may take an
 * ending signal itself, to quit as q does.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "common.h"
#include "demo.h"
#include "edit.h"
#include "screen.h"
#include "signals.h"

/*
 * Every signal whose default ends the process and that can be caught:
 * those a user, a terminal or a limit sends, then the faults.
 */
static const int	 signals_ending[] = { SIGHUP, SIGINT, SIGQUIT,
			    SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
			    SIGPROF, SIGPIPE, SIGXCPU, SIGXFSZ };
static const int	 signals_fault[] = { SIGSEGV, SIGBUS, SIGFPE,
			    SIGILL, SIGABRT, SIGSYS, SIGTRAP };

static volatile sig_atomic_t	*signals_flag;

static int
signals_is_fault(int sig)
{
	size_t	i;

	for (i = 0; i < nitems(signals_fault); i++) {
		if (signals_fault[i] == sig)
			return (1);
	}
	return (0);
}

/* Clean up what can be with async-signal-safe calls, then die of sig. */
static void
signals_die(int sig)
{
	struct sigaction	sa;

	edit_signal_cleanup();
	screen_restore_now();
	demo_stop_now();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	/* Blocked in here: it ends the process once the handler returns. */
	raise(sig);
}

static void
signals_on(int sig)
{
	int	saved = errno;

	/*
	 * The loop takes the first one (SIGINT asks first, so it leaves an
	 * edit alone); a second before it has, or a fault, ends at once.
	 */
	if (signals_flag != NULL && *signals_flag == 0 &&
	    !signals_is_fault(sig)) {
		if (sig != SIGINT)
			edit_signal_cleanup();
		*signals_flag = sig;
		errno = saved;
		return;
	}
	signals_die(sig);
	errno = saved;
}

static void
signals_catch(int sig, const sigset_t *mask)
{
	struct sigaction	sa, old;

	/* An ignored signal (nohup, a shell's trap '') stays ignored. */
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = signals_on;
	sa.sa_mask = *mask;
	sigaction(sig, &sa, NULL);
}

void
signals_init(int console)
{
	sigset_t	mask;
	size_t		i;

	sigemptyset(&mask);
	for (i = 0; i < nitems(signals_ending); i++)
		sigaddset(&mask, signals_ending[i]);
	for (i = 0; i < nitems(signals_ending); i++) {
		/* The console writes to sockets only: EPIPE says enough. */
		if (console && signals_ending[i] == SIGPIPE)
			signal(SIGPIPE, SIG_IGN);
		else
			signals_catch(signals_ending[i], &mask);
	}
	for (i = 0; i < nitems(signals_fault); i++)
		signals_catch(signals_fault[i], &mask);
}

void
signals_defer(volatile sig_atomic_t *flag)
{
	signals_flag = flag;
}
