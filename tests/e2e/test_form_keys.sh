#!/bin/bash
# While a form is open the last line shows the form's keys, not the list's
# beneath it: the rule form's (and, on a text field, the field's), the
# expression editor's (and its completion list's), a generic form's; the
# list's hints come back when the form closes; a question has its own.
# 80x24.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init form_keys
e2e_edgemu_start

_last_is() { [[ $(tail -n 1 <<<"$_e2e_scr") =~ $1 ]]; }
# last_row REGEX: until the screen's last line matches REGEX.
last_row() {
	_e2e_poll "$E2E_TIMEOUT" "the last line /$1/" _last_is "$1"
}
# once TEXT: TEXT is on one line of the screen only.
once() {
	[ "$(grep -cF -- "$1" "$E2E_DIR/screen.now")" -eq 1 ] ||
	    e2e_fail "'$1' not on exactly one line"
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
last_row '^ \? help  : command  / filter  Enter details  n new'

# n: the rule form's keys where the list's were, on that line alone.
# It opens on the description, typed into at once: the field's keys.
e2e_keys n
e2e_wait_for "new rate limiting rule"
last_row '^ type to edit  Enter/Tab next field  F1 keys  Esc cancel$'
once "type to edit"
e2e_assert_not_contains "? help"
# Enter: the next field, a choice, and the form's keys.
e2e_keys Enter
last_row '^ Enter edit/pick  V validate  S save  T test  L simulate  \? keys  Esc cancel$'
once "Enter edit/pick"

# The expression editor (Up Up: from the action up to the expression),
# then its list of names.
e2e_keys Up Up Enter
e2e_wait_for "required: which requests the rule applies to"
last_row '^ Tab complete  C-f format  Enter new line  Esc back to the form$'
e2e_type http.re
e2e_keys Tab
last_row '^ Up/Down choose  Tab/Enter take it  Esc close the list$'
e2e_keys Escape
last_row '^ Tab complete  C-f format '
e2e_keys Escape
last_row '^ Enter edit/pick  V validate '
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
# The question's keys, not the form's or the list's.
last_row '^ y yes  n no  Esc cancel$'
e2e_assert_not_contains "Enter edit/pick"
e2e_assert_not_contains "n new"
e2e_keys y
last_row '^ \? help  : command  / filter  Enter details  n new'

# A generic form (a legacy rate limit's): its keys, then the list's.
e2e_command rl '^ rate-limits \(legacy, deprecated\)  8$'
e2e_keys n
e2e_wait_for "new rate-limits"
last_row '^ Tab/S-Tab move  Left/Right/letter pick a choice  Enter submit  Esc cancel$'
once "Tab/S-Tab move"
e2e_keys Escape
last_row '^ \? help  : command  / filter  Enter details  t enable/disable'
e2e_quit_and_check_sane : q Enter
