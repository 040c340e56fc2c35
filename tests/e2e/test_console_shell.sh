#!/bin/bash
# The console's shell against edgemu: the first list, the : command line
# with completion and history, help and the footer from the live keymap
# (rebinding a key changes them), themes switched live, server text
# cleaned, :profile, a resize, and a clean quit.
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
default_profile: main
profiles:
  main: {}
  audit:
    readonly: true
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
# Two kinds start so: Tab completes their common part and lists them.
e2e_wait_for "rate-limits rate-limit-rules"
e2e_type s
e2e_wait_for ":rate-limits"
e2e_keys Enter
e2e_wait_for " rate-limits (legacy, deprecated)  8"
e2e_assert_contains "www.example.com/login*"
# The footer shows the keys of the live keymap: x deletes, d does not.
e2e_wait_match "  E yaml  x delete$"
e2e_assert_not_contains "d delete"

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
e2e_wait_for " rate-limits (legacy, deprecated)  8"

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
e2e_wait_for "Delete rate limit '"
e2e_keys n
e2e_wait_gone "Delete rate limit"

# Themes switch live; a missing one is an error, not a crash.
e2e_keys :
e2e_type "theme light"
e2e_keys Enter
e2e_wait_for "theme light"
e2e_keys :
e2e_type "theme nosuch"
e2e_keys Enter
e2e_wait_for "theme: "

# Text from the server reaches the screen cleaned: escape sequences and
# bidi overrides in a rule's description neither clear the screen nor
# reorder it.
rule=$(e2e_api POST "/zones/$CLOUDFLARE_ZONE_ID/rate_limits" \
    '{"description":"evil\u001b[2J\u001b]0;pwned\u0007\u202etxt.exe","match":{"request":{"url":"evil.example.com/*"}},"threshold":5,"period":60,"action":{"mode":"simulate","timeout":60}}' || true)
case $rule in *'"success":true'*) ;; *) e2e_fail "rule: $rule" ;; esac
e2e_keys r
e2e_wait_for "evil.example.com/*"
e2e_keys G Enter
# Shown, escaped, as text: \x1B stays four characters, the override a '?'.
e2e_wait_for 'description: "evil\x1B[2J\x1B]0;pwned\x07?txt.exe"'
e2e_assert_contains "edgetui  profile main"
e2e_assert_contains "rate-limits (legacy, deprecated)  9  >  rate-limits"
e2e_keys q
e2e_wait_gone 'description: "evil'

# :profile switches where and as whom: a read-only profile says so.
e2e_keys :
e2e_type "profile audit"
e2e_keys Enter
e2e_wait_for "profile audit"
e2e_wait_for "READ-ONLY"
e2e_wait_match "^ operations  300$"
e2e_keys :
e2e_type "profile nosuch"
e2e_keys Enter
e2e_wait_for "no profile 'nosuch'"
e2e_command rl "^ rate-limits \(legacy, deprecated\)  9$"

# A resize re-lays out the list.
e2e_resize 80 24
e2e_wait_for " rate-limits (legacy, deprecated)  9"
e2e_assert_contains "MODE"
e2e_resize 120 40

e2e_quit_and_check_sane : q Enter
