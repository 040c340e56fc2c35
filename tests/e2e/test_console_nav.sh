#!/bin/bash
# Moving around the console: the first screen names the lists to open; q
# and Esc go back one level (details, a sub-list, the list before); q
# quits from the last list (Esc never does), asking first while an upload
# runs (q, :q, Ctrl-C; a second Ctrl-C and :q! quit at once); : opens the
# command line over help, the tray and the logs, and a list it opens
# replaces them;
# Tab lists every command and completes arguments that the command takes,
# and help lists them too;
# a long message wraps instead of being cut, and :messages keeps it;
# :problems names the line of a wrong keymap entry.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init console_nav
# 1 MiB a second: a 40 MiB upload runs for the whole test.
e2e_edgemu_start --upload-rate 1048576

CONF=$XDG_CONFIG_HOME/edgetui/config.yaml
mkdir -p "$XDG_CONFIG_HOME/edgetui"
cat >"$CONF" <<'YAML'
profiles:
  default: {}
  second: {}
preferences:
  chunk_size: 5242880
keymap:
  list:
    X: frobnicate
YAML
chmod 600 "$CONF"
stream_mp4 "$E2E_DIR/clip.mp4" 60000 41943040

# nav_cmd TEXT: TEXT on the : command line.
nav_cmd() {
	e2e_keys :
	e2e_wait_match '^:'
	e2e_type "$1"
	e2e_keys Enter
}

# nav_esc: Esc, then until the screen changed (Esc and the next key must
# not arrive together as Alt).
nav_esc() {
	local before

	before=$(e2e_screen)
	e2e_keys Escape
	_e2e_poll "$E2E_TIMEOUT" "Esc to change the screen" \
	    eval '[ "$_e2e_scr" != "$before" ]'
}

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_wait_for "1 problem in the configuration"
# The first screen says how to reach the other lists (once a key cleared
# the message).
e2e_keys j
e2e_wait_for " ? help  :rules :videos …  / filter"

# :problems gives file:line for the keymap entry.
nav_cmd problems
e2e_wait_match "/config\.yaml:8:( |\$)"
e2e_wait_for "keymap.list.X: 'frobnicate' is not an action"

# : over a view; the list it opens replaces the view.
nav_cmd videos
e2e_wait_match "^ videos  50$"
e2e_assert_not_contains "configuration problems"

# Esc: details -> list; a sub-list -> its video list; q: -> the list before.
e2e_keys Enter
e2e_wait_for "requireSignedURLs:"
nav_esc
e2e_wait_match "^ videos  50$"
e2e_keys a
e2e_wait_match "^ audio-tracks of "
nav_esc
e2e_wait_match "^ videos  50$"
e2e_keys q
e2e_wait_match "^ operations  300$"
# Esc in the last list does not quit (a second Esc after a dialog's).
nav_esc
e2e_wait_for "nothing to go back to: q or :q quits"

# From the tray and from help, : reaches the command line.
e2e_keys T
e2e_wait_match "^ transfers$"
nav_cmd videos
e2e_wait_match "^ videos  50$"
e2e_assert_not_contains "No transfers yet"
e2e_keys '?'
e2e_wait_for "go back; quit from the last list"
nav_cmd rl
e2e_wait_match "^ rate-limits \(legacy, deprecated\)  8$"
e2e_assert_not_contains "go back; quit from the last list"
e2e_keys q
e2e_wait_match "^ videos  50$"
# And from details.
e2e_keys Enter
e2e_wait_for "requireSignedURLs:"
nav_cmd rl
e2e_wait_match "^ rate-limits \(legacy, deprecated\)  8$"
e2e_keys q
e2e_wait_for "requireSignedURLs:"
nav_esc
e2e_wait_match "^ videos  50$"

# : then Tab lists every command and kind.
e2e_keys : Tab
e2e_wait_for "commands: help journal log messages problems profile"
e2e_wait_for "lists: videos"
e2e_wait_for "rate-limits"
nav_esc
# Every command of the table (ui/commands.c) is in that list and in help.
cmds=$(sed -nE 's/^\t\{ "([^"]+)", COMMAND_ARG_.*/\1/p' \
    "$TOP_SRCDIR/ui/commands.c")
[ "$(wc -w <<<"$cmds")" -ge 10 ] || e2e_fail "no command table in ui/commands.c"
e2e_keys : Tab
e2e_wait_for "lists: videos"
listed=$(e2e_screen | tr '\n' ' ' | sed -E 's/.*commands: (.*) lists: .*/ \1 /')
for c in $cmds; do
	[[ $listed == *" $c "* ]] || e2e_fail ": then Tab does not list :$c"
done
nav_esc
nav_cmd help
e2e_wait_for "Keys (from the live keymap"
e2e_keys G
e2e_wait_for "every command and kind"
for c in $cmds; do
	e2e_screen | grep -qF -- "  :$c " ||
	    e2e_fail "help does not list :$c"
done
e2e_keys q
e2e_wait_gone "every command and kind"
# An argument completed is taken as is (no trailing space refused).
e2e_keys :
e2e_type "theme sol"
e2e_keys Tab
e2e_wait_match "^:theme solarized-dark$"
e2e_keys Enter
e2e_wait_match "^theme solarized-dark$"
nav_cmd "theme default   "
e2e_wait_match "^theme default$"

# A long message wraps: its end is on screen, and :messages keeps it.
long=no-such-command-$(printf 'x%.0s' {1..60})
nav_cmd "$long"
e2e_wait_match "them all\)$|^all\)$"
nav_cmd messages
e2e_wait_match "^ ?[0-9]{2}:[0-9]{2}:[0-9]{2}  error  unknown command ':no-such-command-x+"
e2e_wait_match "them all\)$|^ *all\)$"
e2e_wait_match "^ ?[0-9]{2}:[0-9]{2}:[0-9]{2}  ok     theme default"
nav_esc
e2e_wait_gone "  error  unknown command"

# An upload running: quitting asks; n stays; a second Ctrl-C quits.
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type "$E2E_DIR/clip.mp4"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: clip.mp4)"
e2e_keys Enter
e2e_wait_for "uploading clip.mp4"
e2e_keys q
e2e_wait_match "^ operations  300$"
ask='1 upload at [0-9]+% will stop; it can be resumed later\. Quit\? \(y/n\)'
e2e_keys q
e2e_wait_match "$ask"
e2e_keys n
e2e_wait_gone "resumed later"
nav_cmd q
e2e_wait_match "$ask"
e2e_keys n
e2e_wait_gone "resumed later"
# SIGINT to the console alone (Ctrl-C in the pane reaches its shell too).
kill -INT "$(stream_pane_pid)"
e2e_wait_match "$ask"
kill -INT "$(stream_pane_pid)"
e2e_quit_and_check_sane -s 130

# Started again, the tray has it unfinished: resumed, then :q! quits at
# once.
e2e_console_start
e2e_wait_match "^ transfers$"
e2e_keys Enter
e2e_wait_match "resuming clip\.mp4|clip\.mp4: the server is still finishing"
e2e_quit_and_check_sane : q! Enter

# confirm_quit: always asks even with nothing running; y quits.
printf 'preferences:\n  confirm_quit: always\n' >"$CONF"
e2e_console_start
e2e_wait_match "^ (operations  300|transfers)$"
e2e_keys :
e2e_wait_match '^:'
e2e_type q
e2e_keys Enter
e2e_wait_for "Quit edgetui? (y/n)"
e2e_quit_and_check_sane y
