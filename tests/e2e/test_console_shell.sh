#!/bin/bash
# The console's shell against edgemu: the first list, the : command line
# with completion and history, help from the live keymap (rebinding a key
# changes it), themes switched live, a resize, and a clean quit.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init console_shell
e2e_edgemu_start

# A user keymap: 'x' deletes, 'd' does nothing.
mkdir -p "$XDG_CONFIG_HOME/edgetui"
cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<'YAML'
keymap:
  list:
    x: delete
    d: none
YAML
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"

e2e_console_start
# With a zone, the console opens the zone's operations, all 300 loaded.
e2e_wait_match "^ operations  300$"
e2e_assert_contains "METHOD  HOST"
e2e_assert_contains "budget "
e2e_assert_not_contains "READ-ONLY"

# : with Tab completion and Enter.
e2e_keys :
e2e_type rate-l
e2e_keys Tab
e2e_wait_for ":rate-limits"
e2e_keys Enter
e2e_wait_for " rate-limits  8"
e2e_assert_contains "www.example.com/login*"

# An unknown command says so; Up brings back the last command.
e2e_keys :
e2e_type frobnicate
e2e_keys Enter
e2e_wait_for "unknown command ':frobnicate'"
e2e_keys : Up Up
e2e_wait_for ":rate-limits"
e2e_keys Escape
e2e_wait_gone ":rate-limits"

# Tab switches between the lists opened.
e2e_keys Tab
e2e_wait_match "^ operations  300$"
e2e_keys Tab
e2e_wait_for " rate-limits  8"

# Help comes from the live keymap: x deletes, d is unbound.
e2e_keys '?'
e2e_wait_for "Keys (from the live keymap"
e2e_wait_match '^ +x +delete'
if e2e_screen | grep -Eq '^ +d +delete'; then
	e2e_fail "help still shows d as delete after the user unbound it"
fi
e2e_keys q
e2e_wait_gone "Keys (from the live keymap"
# The new key asks before deleting; the answer n keeps the rule.
e2e_keys x
e2e_wait_for "Delete rate-limits"
e2e_keys n
e2e_wait_gone "Delete rate-limits"

# Themes switch live; a missing one is an error, not a crash.
e2e_keys :
e2e_type "theme light"
e2e_keys Enter
e2e_wait_for "theme light"
e2e_keys :
e2e_type "theme nosuch"
e2e_keys Enter
e2e_wait_for "theme: "

# A resize re-lays out the list.
e2e_resize 80 24
e2e_wait_for " rate-limits  8"
e2e_assert_contains "MODE"
e2e_resize 120 40

e2e_quit_and_check_sane q
