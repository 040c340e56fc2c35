#!/bin/bash
# A rule saved with E under a description longer than the message shows
# is named cut by columns with an ellipsis: a letter of two bytes astride
# the cut is dropped whole, never shown as a '?'.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init rule_saved_label
e2e_edgemu_start

# 59 letters, then an 'é' on the 60th and 61st bytes.
A59=$(printf 'A%.0s' $(seq 59))
cat >"$E2E_DIR/editor.sh" <<EOT
#!/bin/sh
sed -i 's|^description: .*|description: "${A59}é and more"|' "\$1"
EOT
chmod +x "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^> 1 +Login form'
e2e_keys E
e2e_wait_for "Apply 1 change"
e2e_keys y
e2e_wait_for "saved rate limiting rule"
# The name and the id each whole on a row of their own.
e2e_wait_match "^'A+…'\$"
e2e_wait_match '^[0-9a-f]{32}$'
[[ $(e2e_screen) != *"?'"* ]] || e2e_fail "the name is cut inside a letter"
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_quit_and_check_sane q
