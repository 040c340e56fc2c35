#!/bin/bash
# The console's first run, with an empty config dir and no CLOUDFLARE_*: a
# screen says the token is missing and the three ways to set it; q quits
# cleanly, and d starts the demo (its own edgemu) in place.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init first_run
export TMPDIR=$E2E_DIR/tmp
mkdir "$TMPDIR"
[ -z "$(ls -A "$XDG_CONFIG_HOME")" ] || e2e_fail "the config dir is not empty"

# q: nothing else happens, and the terminal is as it was.
e2e_console_start
e2e_wait_for "No API token"
e2e_assert_contains "There is no config file and CLOUDFLARE_API_TOKEN is not set"
e2e_assert_contains "  $XDG_CONFIG_HOME/edgetui/config.yaml"
e2e_assert_contains "export CLOUDFLARE_API_TOKEN="
e2e_assert_contains "token_file: "
e2e_assert_contains "token_command: "
e2e_assert_contains "edgetui config init"
e2e_assert_contains "The account and zone are missing too"
e2e_assert_contains "d  try the console on demo data"
e2e_quit_and_check_sane q
[ -z "$(ls -A "$TMPDIR")" ] || e2e_fail "left in TMPDIR: $(ls -A "$TMPDIR")"

# d without an edgemu to run: why, on the same screen, and q still quits.
emu=$EDGEMU
EDGEMU=$E2E_DIR/no-edgemu
e2e_console_start
e2e_wait_for "No API token"
e2e_keys d
e2e_wait_for "The demo did not start: EDGEMU=$E2E_DIR/no-edgemu: No such file"
e2e_assert_contains "There is no config file"
e2e_quit_and_check_sane q
EDGEMU=$emu

# A profile with a zone but no token: named, and the zone not asked for.
mkdir -p "$XDG_CONFIG_HOME/edgetui"
cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<'EOT'
profiles:
  work:
    zone: 0123456789abcdef0123456789abcdef
EOT
e2e_console_start
e2e_wait_for "No API token"
e2e_assert_contains "Profile work names no token"
e2e_assert_contains "2 and 3 go under profiles: work: in"
e2e_assert_not_contains "missing too"

# d: the demo, as --demo starts it.
e2e_keys d
e2e_wait_match "^ operations  300$"
e2e_wait_match '^ edgetui  profile demo '
e2e_quit_and_check_sane : q Enter
[ -z "$(ls -A "$TMPDIR")" ] || e2e_fail "left in TMPDIR: $(ls -A "$TMPDIR")"
