#!/bin/bash
# At 80x24, the answer to a dialog over a view shown once (a new signing
# key, then "remember it?") is read whole: the message that says where the
# key was kept takes the rows it needs, ending with the key that shows it
# all, and the view's own keys come back on the next key; its last row is
# not covered by the view's keys.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init secret_view_message
e2e_edgemu_start

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command signing-keys "^ signing-keys  2$"
e2e_keys n
e2e_wait_for "Create a new signing key? (y/n)"
e2e_keys y
e2e_wait_for "Remember this key's private half"
e2e_keys y
e2e_wait_gone "Remember this key's private half"
e2e_wait_match "^remembered signing key [0-9a-f]{32} in"
# Three rows: the last ends with where the rest is, not the view's keys.
e2e_wait_match ' … \(!: all of it\)$'
_e2e_grab
[[ $(tail -n 1 "$E2E_DIR/screen.now") != *"q close"* ]] ||
    e2e_fail "the view's keys cover the message's last row"
# A key (Down scrolls) puts the view's keys back.
e2e_keys Down
e2e_wait_for "q close: shown only this once"
e2e_keys q
e2e_wait_for "This will not be shown again. Close it? (y/n)"
e2e_keys y
e2e_wait_match "^ signing-keys  3$"
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_quit_and_check_sane q
