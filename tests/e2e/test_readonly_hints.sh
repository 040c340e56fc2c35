#!/bin/bash
# Read-only keeps off the last line the keys it refuses: the operations,
# rate-limits and rules lists, a record's details and the change journal
# list none of new, edit, yaml, delete, on/off, up/down or undo, while a
# console that may change shows them on the same screens; a refused key
# still says why.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=200 E2E_ROWS=50
e2e_init readonly_hints
e2e_edgemu_start

# footers: each screen's last line, one per line, into $E2E_DIR/$1.
footers() {
	local out=$E2E_DIR/$1

	: >"$out"
	e2e_wait_match "^ operations  300$"
	e2e_wait_match "^ \? help  :rules :videos …  / filter  Enter details  "
	tail -n 1 "$E2E_DIR/screen.now" >>"$out"
	e2e_keys :
	e2e_type rules
	e2e_keys Enter
	e2e_wait_match "^ rate-limit-rules  6$"
	e2e_wait_match "^ \? help  : command  / filter  Enter details  .*v versions"
	tail -n 1 "$E2E_DIR/screen.now" >>"$out"
	e2e_keys Enter
	e2e_wait_match "^ q back  / find  "
	tail -n 1 "$E2E_DIR/screen.now" >>"$out"
	e2e_keys q
	e2e_wait_match "^ \? help  : command  / filter  Enter details  .*v versions"
	e2e_keys :
	e2e_type rl
	e2e_keys Enter
	e2e_wait_match "^ rate-limits \(legacy, deprecated\)  8$"
	e2e_wait_match "^ \? help  : command  / filter  Enter details  .*M migrate"
	tail -n 1 "$E2E_DIR/screen.now" >>"$out"
	e2e_keys :
	e2e_type journal
	e2e_keys Enter
	e2e_wait_match "^ Enter show  "
	tail -n 1 "$E2E_DIR/screen.now" >>"$out"
	e2e_keys q
	e2e_wait_match "^ rate-limits \(legacy, deprecated\)  8$"
}

# offered HINT FILE: a line of FILE has "  HINT" as a hint of its own.
offered() {
	grep -qE "  $1(  |$)" "$E2E_DIR/$2"
}

# ---- may change: every key is offered.
e2e_console_start
footers rw
e2e_quit_and_check_sane : q Enter
for k in "n new" "b bulk create" "d delete" "e edit" "K up" "J down" \
    "t on/off" "t enable/disable" "E yaml" "u undo"; do
	offered "$k" rw ||
	    e2e_fail "no '$k' on the last lines: $(cat "$E2E_DIR/rw")"
done

# ---- --readonly: none of them; what does not change stays.
e2e_console_start --readonly
footers ro
for k in "n new" "b bulk create" "d delete" "e edit" "K up" "J down" \
    "t on/off" "t enable/disable" "E yaml" "u undo" "V validation"; do
	! offered "$k" ro ||
	    e2e_fail "'$k' offered while read-only: $(cat "$E2E_DIR/ro")"
done
for k in "C-t test" "v versions" "M migrate" "Space mark" "r reload" \
    "y copy" "q close"; do
	offered "$k" ro ||
	    e2e_fail "no '$k' while read-only: $(cat "$E2E_DIR/ro")"
done
# The key is still there: it says why it does nothing.
e2e_keys d
e2e_wait_for "read-only: delete refused (--readonly); nothing was sent"
e2e_quit_and_check_sane : q Enter
