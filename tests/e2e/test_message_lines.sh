#!/bin/bash
# A message of several lines keeps them at 80x24: E's lint error, given up
# (saved unchanged in the reopened editor), shows on the status line and
# in ! (:messages) with its caret under the column it names, not folded
# into one line where the caret points at nothing.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init message_lines
e2e_edgemu_start

# $EDITOR for E: the first round breaks the expression, the second (the
# file reopened with the lint on top) saves it unchanged: E gives up.
cat >"$E2E_DIR/editor.sh" <<'EOT'
#!/bin/sh
dir=$(dirname "$0")
n=$(($(cat "$dir/editor.rounds" 2>/dev/null || echo 0) + 1))
echo "$n" >"$dir/editor.rounds"
[ "$n" -ne 1 ] ||
    sed -i 's|^expression: .*|expression: http.host eq "a" and foo.bar eq 1|' "$1"
exit 0
EOT
chmod +x "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh

# check_caret: the row after the expression's has its caret under foo.bar.
check_caret() {
	local expr caret

	expr=$(grep -m1 -E 'http\.host eq "a" and foo\.bar eq 1$' \
	    "$E2E_DIR/screen.now") || e2e_fail "no line of the expression"
	caret=$(grep -A1 -m1 -F "$expr" "$E2E_DIR/screen.now" | sed -n 2p)
	expr=${expr%%foo.bar*}
	caret=${caret%%^*}
	[ "${#expr}" -eq "${#caret}" ] ||
	    e2e_fail "the caret is at column ${#caret}, foo.bar at ${#expr}"
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^> 1 +Login form'
e2e_keys E
e2e_wait_match "^edit: expression: column [0-9]+: unknown field 'foo.bar'$"
e2e_wait_match '^ *\^{7}$'
[ "$(cat "$E2E_DIR/editor.rounds")" = 2 ] || e2e_fail "the editor was not reopened"
check_caret

e2e_keys '!'
e2e_wait_for "messages (newest last)"
e2e_wait_match "error  edit: expression: column [0-9]+: unknown field 'foo.bar'$"
e2e_wait_match '^ *\^{7}$'
check_caret
e2e_keys q
e2e_wait_gone "messages (newest last)"
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_quit_and_check_sane q
