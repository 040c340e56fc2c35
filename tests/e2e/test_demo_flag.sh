#!/bin/bash
# edgetui --demo with no CLOUDFLARE_* in the environment: it starts its own
# edgemu (EDGEMU names the built one) on a temporary store with the demo
# data and opens the demo zone's operations; after a quit that edgemu is
# gone and so is its store.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init demo_flag
# The demo's store is made under TMPDIR: a private one names this
# session's edgemu (its --data argument) and shows what is left behind.
export TMPDIR=$E2E_DIR/tmp
mkdir "$TMPDIR"
[ -z "$(compgen -e | grep '^CLOUDFLARE_' || true)" ] ||
    e2e_fail "CLOUDFLARE_* is set: $(compgen -e | grep '^CLOUDFLARE_')"

# Processes whose command line names a demo store of this test.
demo_pids() {
	pgrep -f -- "$TMPDIR/edgetui-demo-" || true
}

[ -z "$(demo_pids)" ] || e2e_fail "a demo edgemu runs before the test"
e2e_console_start --demo
e2e_wait_match "^ operations  300$"
e2e_wait_match '^ edgetui  profile demo  account [0-9a-f]+…  zone [0-9a-f]+…'
e2e_assert_contains "METHOD  HOST"
e2e_assert_contains "api.example.com"

# Its edgemu runs, one process, on a store under TMPDIR.
pids=$(demo_pids)
[ "$(printf '%s\n' "$pids" | grep -c .)" = 1 ] ||
    e2e_fail "not one demo edgemu while the console runs: '$pids'"
store=$(compgen -G "$TMPDIR/edgetui-demo-*" || true)
[ -n "$store" ] && [ -d "$store" ] || e2e_fail "no demo store in $TMPDIR"

# The demo data is all there: another list loads too.
e2e_keys :
e2e_type rl
e2e_keys Enter
e2e_wait_for " rate-limits (legacy, deprecated)  8"

e2e_quit_and_check_sane : q Enter
# The console waits for its edgemu before it exits: no poll is needed.
# (By its command line: kill -0 could find another process given the
# freed pid.)
if tr '\0' ' ' <"/proc/$pids/cmdline" 2>/dev/null |
    grep -qF -- "$TMPDIR/edgetui-demo-"; then
	e2e_fail "the demo edgemu (pid $pids) outlived the console"
fi
[ -z "$(demo_pids)" ] || e2e_fail "demo edgemu left running: $(demo_pids)"
[ ! -e "$store" ] || e2e_fail "the demo store $store was left behind"
[ -z "$(ls -A "$TMPDIR")" ] ||
    e2e_fail "left in TMPDIR: $(ls -A "$TMPDIR")"
