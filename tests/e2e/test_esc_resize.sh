#!/bin/bash
# Esc that reaches the console with a resize right behind it is still Esc:
# the console reads a key right after Esc as Meta that key, and a resize
# taken so lost both (a form closed after a resize asked nothing). The
# console is stopped while the Esc and the resize arrive, so both wait
# for it together, Esc first.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init esc_resize
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rate-limits '^ rate-limits \(legacy, deprecated\)  [0-9]+$'

# esc_then_resize COLS ROWS: Esc, then the resize, while the console waits.
esc_then_resize() {
	local pid

	pid=$(stream_pane_pid)
	kill -STOP "$pid"
	e2e_keys Escape
	e2e_resize "$1" "$2"
	kill -CONT "$pid"
}

for size in "100 30" "80 24" "90 28"; do
	e2e_keys n
	e2e_wait_for 'new rate-limits'
	e2e_type 'x'
	# shellcheck disable=SC2086
	esc_then_resize $size
	e2e_wait_for 'Discard the changes in this form? (y/n)'
	e2e_keys y
	e2e_wait_gone 'new rate-limits'
done

e2e_quit_and_check_sane : q Enter
