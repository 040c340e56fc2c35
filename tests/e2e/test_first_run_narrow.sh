#!/bin/bash
# The first-run screen on a small terminal: at 60x20 its text wraps to the
# width (the token's ways keep their values in a column of their own) and
# every sentence is whole on screen, the key lines and blank lines left
# out for the room (the last line still names d and q); at 80x24 they are
# back; the keys work at either size.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=60 E2E_ROWS=20
e2e_init first_run_narrow
export TMPDIR=$E2E_DIR/tmp
mkdir "$TMPDIR"

# whole TEXT...: the screen's rows, joined by spaces (a path cut at the
# width joined without), hold each TEXT.
whole() {
	local joined

	joined=$(sed -E 's/^ +//; s/ +$//' "$E2E_DIR/screen.now" | tr '\n' ' ')
	for t in "$@"; do
		[[ $joined == *"$t"* ]] || e2e_fail "not whole on screen: '$t'"
	done
}

e2e_console_start
e2e_wait_for "No API token"
e2e_wait_for "d: demo  q: quit"
whole "There is no config file and CLOUDFLARE_API_TOKEN is not set, so the console cannot reach the API. Set the token one of three ways:" \
    "1. the environment   export CLOUDFLARE_API_TOKEN=..." \
    "2. a file, mode 600  token_file: ~/.config/edgetui/token" \
    "3. a command         token_command: pass show cloudflare/api-token" \
    "2 and 3 go under profiles: default: in" \
    "The account and zone are missing too: account: and zone: in the profile, CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_ZONE_ID, or --account/--zone."
# The values stay in their column, under one another.
e2e_wait_match "^    2\. a file, mode 600  token_file:$"
e2e_wait_match "^                         ~/\.config/edgetui/token$"
# The config file's path, cut at the width where it is longer.
path=$XDG_CONFIG_HOME/edgetui/config.yaml
tr -d '\n ' <"$E2E_DIR/screen.now" | grep -qF "$(tr -d ' ' <<<"$path")" ||
    e2e_fail "no $path on screen"
e2e_assert_not_contains "d  try the console"

# Wider: the key lines come back.
e2e_resize 80 24
e2e_wait_for "d  try the console on demo data (--demo: a local edgemu)"
e2e_wait_match "^    2\. a file, mode 600  token_file: ~/\.config/edgetui/token$"
e2e_resize 60 20
e2e_wait_gone "d  try the console"
e2e_quit_and_check_sane q
[ -z "$(ls -A "$TMPDIR")" ] || e2e_fail "left in TMPDIR: $(ls -A "$TMPDIR")"
