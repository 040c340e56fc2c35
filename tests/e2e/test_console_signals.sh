#!/bin/bash
# Every way out restores the terminal: SIGTERM and SIGHUP (the SSH link
# gone) end the console cleanly, and so does every other signal that ends
# a process (Ctrl-\, USR1, ALRM...); a crash (SIGSEGV) leaves the terminal
# usable too; --demo leaves no edgemu and no store on any of them; and
# NO_COLOR, the ASCII preference and a small window work.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib-stream.sh"

e2e_init console_signals
e2e_edgemu_start

# 143 = 128 + SIGTERM: the console re-raises it after restoring.
for sig in TERM HUP; do
	e2e_console_start
	e2e_wait_match "^ operations  300$"
	kill -s "$sig" "$(stream_pane_pid)"
	e2e_quit_and_check_sane -s any
	case "$sig:$E2E_EXIT_STATUS" in
	TERM:143|HUP:129) ;;
	*) e2e_fail "SIG$sig: exit status $E2E_EXIT_STATUS" ;;
	esac
done

# The rest of the signals that end a process: the same, each dying of
# its own signal (128 + its number) after restoring.
for sig in QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ; do
	e2e_console_start
	e2e_wait_match "^ operations  300$"
	kill -s "$sig" "$(stream_pane_pid)"
	e2e_quit_and_check_sane -s any
	want=$((128 + $(kill -l "$sig")))
	[ "$E2E_EXIT_STATUS" = "$want" ] ||
	    e2e_fail "SIG$sig: exit status $E2E_EXIT_STATUS, not $want"
done

# Ctrl-\ typed: SIGQUIT from the terminal, to the foreground job, which
# an interactive shell's job control (sh -m) makes the console alone.
e2e_program_start sh -mc '"$0"; exit $?' "$EDGETUI"
e2e_wait_match "^ operations  300$"
e2e_keys 'C-\'
e2e_quit_and_check_sane -s 131

# A crash: the handler puts the terminal back before the core.
e2e_console_start
e2e_wait_match "^ operations  300$"
kill -s SEGV "$(stream_pane_pid)"
e2e_quit_and_check_sane -s 139

# --demo: whatever ends it, its edgemu is stopped and its store removed
# (the store's log holds the demo token).
export TMPDIR=$E2E_DIR/tmp
mkdir "$TMPDIR"
demo_pids() {
	pgrep -f -- "$TMPDIR/edgetui-demo-" || true
}
for sig in QUIT USR1 ALRM TERM SEGV; do
	e2e_console_start --demo
	e2e_wait_match "^ operations  300$"
	[ -n "$(demo_pids)" ] || e2e_fail "no demo edgemu runs"
	kill -s "$sig" "$(stream_pane_pid)"
	e2e_quit_and_check_sane -s any
	[ -z "$(demo_pids)" ] ||
	    e2e_fail "SIG$sig: demo edgemu left running: $(demo_pids)"
	[ -z "$(ls -A "$TMPDIR")" ] ||
	    e2e_fail "SIG$sig: left in TMPDIR: $(ls -A "$TMPDIR")"
done
unset TMPDIR

# No colour, ASCII lines, a tiny window: still a working console.
mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'preferences:\n  ascii: true\n' >"$XDG_CONFIG_HOME/edgetui/config.yaml"
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"
export NO_COLOR=1
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys d
e2e_wait_for "Delete operation '"
e2e_wait_match '\+-{10,}\+'
e2e_keys n
e2e_wait_gone "Delete operation"
e2e_resize 30 8
e2e_wait_for "operations"
e2e_resize 10 3
e2e_wait_for "too small"
e2e_resize 120 40
e2e_wait_match "^ operations  300$"
e2e_quit_and_check_sane q
