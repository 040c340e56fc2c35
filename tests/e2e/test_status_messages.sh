#!/bin/bash
# A long message at 80x24 is read whole: over a view that fills the screen
# (the request log) it is wrapped over the bottom rows as over a list, not
# cut to its last row; one longer than those rows ends by naming the key
# (!) that shows the last messages, and that view shows it whole.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80
E2E_ROWS=24
e2e_init status_messages
e2e_edgemu_start

# nospace TEXT: TEXT without blanks (a wrap drops the space it breaks at).
nospace() {
	printf '%s' "$1" | tr -d ' \n'
}

# The last N rows of the screen, joined, without blanks.
last_rows() {
	e2e_screen | tail -n "$1" | tr -d ' \n'
}

# A log that is not there, under a path of about LEN characters.
missing_log() {
	local p=$E2E_DIR/no-such-dir

	while [ "${#p}" -lt "$1" ]; do
		p=$p/still-not-there
	done
	printf '%s/access.log' "$p"
}

e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- over the request log: three rows, all of them shown.
path=$(missing_log 130)
msg="simulate $path: No such file or directory; nothing was run"
[ "${#msg}" -gt 160 ] && [ "${#msg}" -lt 220 ] ||
    e2e_fail "the message is ${#msg} characters: not three rows"
e2e_keys L
e2e_wait_for 'Enter show  c copy as curl  q close'
e2e_keys :
e2e_type "simulate $path"
e2e_keys Enter
e2e_wait_for 'nothing was run'
e2e_assert_contains 'request log'
got=$(last_rows 3)
[ "$got" = "$(nospace "$msg")" ] ||
    e2e_fail "the bottom rows are not the whole message: '$got'"
e2e_keys q
e2e_wait_gone 'request log'

# ---- longer than three rows: the key that shows it, and it whole there.
path=$(missing_log 600)
msg="simulate $path: No such file or directory; nothing was run"
e2e_keys :
e2e_type "simulate $path"
e2e_keys Enter
e2e_wait_for '… (!: all of it)'
got=$(last_rows 3)
case $(nospace "$msg") in
"${got%…(!:allofit)}"*) ;;
*) e2e_fail "the bottom rows are not the message's start: '$got'" ;;
esac
e2e_type '!'
e2e_wait_for 'messages (newest last)'
e2e_wait_for 'nothing was run'
got=$(e2e_screen | tr -d ' \n')
case $got in
*"$(nospace "$msg")"*) ;;
*) e2e_fail "the messages view does not show the whole message" ;;
esac
e2e_keys q
e2e_wait_gone 'messages (newest last)'
e2e_quit_and_check_sane q
