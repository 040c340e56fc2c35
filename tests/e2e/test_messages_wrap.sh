#!/bin/bash
# The messages view (!) at 40 columns wraps a long message at its spaces,
# each continued row under the message's text (column 18, after the time
# and the class), and wraps it again, wider, after the terminal is resized.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=40
E2E_ROWS=24
e2e_init messages_wrap
e2e_edgemu_start

words="alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo"
words="$words lima mike november oscar papa quebec romeo sierra tango"
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_keys :
e2e_type "simulate x/$words"
e2e_keys Enter
e2e_wait_for 'all of it)'
e2e_type '!'
e2e_wait_for 'messages (newest last)'

# check_rows COLS: the message's rows below the title; each continued row
# starts at column 18 and every row ends and starts at a whole word.
check_rows() {
	local cols=$1 rows line n=0 text=

	rows=$(e2e_screen | sed -n '3,$p' | sed '/^ *$/d' | head -n -1)
	while IFS= read -r line; do
		[ "${#line}" -le "$cols" ] || e2e_fail "a row is wider than $cols"
		if [ $n -eq 0 ]; then
			[[ $line =~ ^\ [0-9]{2}:[0-9]{2}:[0-9]{2}\ \ error\ \ (.*)$ ]] ||
			    e2e_fail "not a message row: '$line'"
			text=${BASH_REMATCH[1]}
		else
			[[ $line =~ ^\ {18}[^\ ] ]] ||
			    e2e_fail "a continued row not under the text: '$line'"
			text="$text ${line#"${line%%[! ]*}"}"
		fi
		n=$((n + 1))
	done <<<"$rows"
	# Rows joined by one space give the message back: no word was cut.
	text=$(sed 's/ *$//; s/  */ /g' <<<"$text")
	case $text in
	"simulate x/$words: "*"nothing was run") ;;
	*) e2e_fail "the rows do not join into the message: '$text'" ;;
	esac
	echo "e2e: $n rows at $cols columns"
	nrows=$n
}

check_rows 40
narrow=$nrows
e2e_resize 70 24
e2e_wait_match "error  simulate x/alpha bravo charlie"	# wider rows
check_rows 70
[ "$nrows" -lt "$narrow" ] || e2e_fail "not rewrapped after the resize"
e2e_keys q
e2e_wait_gone 'messages (newest last)'
e2e_quit_and_check_sane q
