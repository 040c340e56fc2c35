#!/bin/bash
# :simulate at 80x24, Enter on a rule: the top clients' title (the rule's
# description and the log's path), longer than the row, ends with "…"
# instead of being cut mid-word as if it were whole. A disabled rule says
# so there too.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init simulate_top_title
e2e_edgemu_start

log=$E2E_DIR/a-rather-long-access-log-name.log
for i in $(seq 10 29); do
	printf '203.0.113.5 - - [25/Nov/2026:00:10:%s +0000] "POST /login HTTP/1.1" 200 12 "-" "curl"\n' "$i"
done >"$log"

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command "simulate $log" '^ 20 lines \(combined\), 0 bad, 20 requests; '
# Too narrow for the marks at the row's end: they lead the name.
e2e_wait_match '^ 5 +\(disabled\) Version 2 AP'
e2e_keys Enter
e2e_wait_match '^ CLIENT +REQUESTS +MITIGATED$'
e2e_wait_match '^ rule #1 Login form: block credential stuffing: top clients \(.*…$'
e2e_keys q
e2e_wait_match '^ 20 lines \(combined\)'
e2e_quit_and_check_sane q q
