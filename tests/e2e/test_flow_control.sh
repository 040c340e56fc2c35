#!/bin/bash
# Ctrl-S and Ctrl-Q are keys: flow control (IXON) is off while the console
# runs, so C-s and C-q bound in the keymap arrive and a typed XOFF cannot
# stop the screen; $EDITOR gets the terminal's own modes, flow control
# included, and the console takes C-s again after it; quitting restores it.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init flow_control
e2e_edgemu_start

mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'keymap:\n  list:\n    C-s: help\n    C-q: request-log\n' \
    >"$XDG_CONFIG_HOME/edgetui/config.yaml"
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"
# The editor records the terminal's modes it runs with, and changes nothing.
cat >"$E2E_DIR/editor.sh" <<EOF
#!/bin/sh
stty -a >'$E2E_DIR/editor.stty.new'
mv '$E2E_DIR/editor.stty.new' '$E2E_DIR/editor.stty'
EOF
chmod +x "$E2E_DIR/editor.sh"
export EDITOR="$E2E_DIR/editor.sh"

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys C-s
e2e_wait_for "Keys (from the live keymap"
e2e_keys q
e2e_wait_gone "Keys (from the live keymap"
# The screen still follows: C-q (XON) is a key too.
e2e_keys C-q
e2e_wait_for "request log: "
e2e_keys q
e2e_wait_match "^ operations  300$"

# $EDITOR runs with flow control as the terminal had it.
e2e_command rl "^ rate-limits \(legacy, deprecated\)  8$"
e2e_keys E
e2e_wait_for "edit: no change"
[ -s "$E2E_DIR/editor.stty" ] || e2e_fail "the editor did not run"
[ "$(_e2e_stty_flag ixon "$E2E_DIR/editor.stty")" = \
    "$(_e2e_stty_flag ixon "$E2E_DIR/stty.before")" ] ||
    e2e_fail "the editor ran with $(_e2e_stty_flag ixon "$E2E_DIR/editor.stty")"
e2e_keys C-s
e2e_wait_for "Keys (from the live keymap"
e2e_keys q
e2e_wait_gone "Keys (from the live keymap"
e2e_quit_and_check_sane : q Enter
