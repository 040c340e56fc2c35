#!/bin/bash
# The status line at 80 columns: a message wraps at its spaces, so a rule's
# id goes whole to the next row rather than lose its last digit there; a
# lint error too long for its rows keeps its caret, under the column, and
# gives up the expression's start instead.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init status_wrap
e2e_edgemu_start

# $EDITOR for E: an unknown field past the 80th column, every round.
cat >"$E2E_DIR/editor.sh" <<'SH'
#!/bin/sh
sed -i 's|^expression: .*|expression: '\''http.host eq "shop.example.com" and http.request.uri.path contains "/checkout" and ip.srcc eq 1'\''|' "$1"
SH
chmod +x "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'

# ---- a new rule: its id whole on the row after its name.
e2e_keys n
e2e_wait_for "new rate limiting rule"
e2e_type "API key brute force"
e2e_keys Up Enter
e2e_wait_for "expression of a new rate limiting rule"
e2e_type 'http.request.uri.path eq "/api/keys"'
e2e_wait_for "valid (language only"
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_keys S
e2e_wait_match "^created rate limiting rule 'API key brute force'\$"
e2e_wait_match '^[0-9a-f]{32}$'

# ---- E with an unknown field at column 84: the caret stays.
e2e_command rules '^ rate-limit-rules  7$'
e2e_keys g
e2e_wait_match '^> 1 +Login form'
e2e_keys E
e2e_wait_for "unknown field 'ip.srcc'"
e2e_wait_match '^ +\^{7}$'
text_row=$(e2e_screen | grep -n 'and ip.srcc eq 1$' | tail -1 | cut -d: -f1)
[ -n "$text_row" ] || e2e_fail "the expression's end is not on the screen"
line=$(sed -n "${text_row}p" "$E2E_DIR/screen.now")
caret=$(sed -n "$((text_row + 1))p" "$E2E_DIR/screen.now")
prefix=${line%%ip.srcc*}
[ "${caret:${#prefix}:7}" = "^^^^^^^" ] ||
    e2e_fail "the caret is not under ip.srcc: '$line' / '$caret'"
e2e_assert_not_contains "all of it)"
e2e_quit_and_check_sane : q Enter
