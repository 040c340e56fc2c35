#!/bin/bash
# :simulate on a FIFO stops at once when cancelled or when the console
# quits: one no writer ever opens (the reader would wait in open), then
# one whose writer stays open and never closes (the reader would wait in
# read); each time the console must still quit within the harness's
# deadline, its worker thread gone.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-100}
E2E_ROWS=${E2E_ROWS:-30}
e2e_init simulate_cancel
e2e_edgemu_start

nobody=$E2E_DIR/nobody.log
never=$E2E_DIR/never.log
mkfifo "$nobody" "$never"
# The writer: held open (read-write never waits) until the test ends.
exec 3<>"$never"
line='{"ClientIP":"198.51.100.7","ClientRequestHost":"example.com","ClientRequestMethod":"POST","ClientRequestURI":"/login","EdgeStartTimestamp":1700000000}'

e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- no writer: Esc cancels, and the reader is gone (see the quit).
e2e_keys :
e2e_type "simulate $nobody"
e2e_keys Enter
e2e_wait_for 'Esc or q cancels the run.'
e2e_wait_for '0 lines read'
e2e_keys Escape
e2e_wait_for 'cancelled; nothing was kept'

# ---- a writer that never closes: lines arrive, then the console quits
# with the run going.
e2e_keys :
e2e_type "simulate $never"
e2e_keys Enter
e2e_wait_for 'Esc or q cancels the run.'
e2e_wait_for 'lines read'
printf '%s\n' "$line" "$line" >&3
# The bar counts them while the reader waits for more.
e2e_wait_for '2 lines read'
e2e_keys :
e2e_type q
e2e_keys Enter
e2e_quit_and_check_sane
exec 3>&-
