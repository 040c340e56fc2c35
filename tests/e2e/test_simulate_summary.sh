#!/bin/bash
# :simulate's report at 80x24: its summary line, longer than the screen
# is wide with 2000 lines, wraps and is read to its end ("... mitigated by
# at least one rule") instead of being cut.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init simulate_summary
e2e_edgemu_start

log=$E2E_DIR/access.log
line='203.0.113.5 - - [25/Nov/2026:00:10:00 +0000] "POST /login HTTP/1.1" 200 12 "-" "curl"'
for _ in $(seq 2000); do
	printf '%s\n' "$line"
done >"$log"

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command "simulate $log" '^ 2000 lines \(combined\), 0 bad, 2000 requests; [0-9]+'
e2e_wait_match '^   (.* )?rule$'
e2e_keys q
e2e_wait_gone 'lines (combined)'
e2e_wait_match '^ operations  300$'
e2e_quit_and_check_sane q
