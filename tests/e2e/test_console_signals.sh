#!/bin/bash
# Every way out restores the terminal: SIGTERM and SIGHUP (the SSH link
# gone) end the console cleanly, a crash (SIGSEGV) leaves the terminal
# usable too; and NO_COLOR, the ASCII preference and a small window work.
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

# A crash: the handler puts the terminal back before the core.
e2e_console_start
e2e_wait_match "^ operations  300$"
kill -s SEGV "$(stream_pane_pid)"
e2e_wait_match 'E2E-EXIT:[0-9]+'
alt=$(_e2e_tmux display -p -t "$E2E_SESSION" '#{alternate_on}')
[ "$alt" = 0 ] || e2e_fail "a crash left the terminal on the alternate screen"

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
