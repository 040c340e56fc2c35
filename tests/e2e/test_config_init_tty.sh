#!/bin/bash
# edgetui config init on a terminal: the token for a new token file is
# typed without echo (never on the screen), written to the file (0600) and
# checked with the API; a signal while it is asked for leaves the terminal
# echoing, as it was.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init config-init-tty
e2e_edgemu_start
token=$CLOUDFLARE_API_TOKEN
unset CLOUDFLARE_API_TOKEN CLOUDFLARE_BASE_URL CLOUDFLARE_ACCOUNT_ID \
    CLOUDFLARE_ZONE_ID
url=$(sed -n 's/^EDGEMU_URL=//p' "$E2E_DIR/edgemu.ready")

# config_init CONFIG TOKENFILE: config init in the pane, its pid left for
# a signal to it alone.
config_init() {
	rm -f "$E2E_DIR/pid"
	e2e_program_start /bin/sh -c 'echo $$ >"$0"; exec "$@"' \
	    "$E2E_DIR/pid" "$EDGETUI" --config "$1" config init
	e2e_wait_for "API base URL"
	e2e_type "$url"
	e2e_keys Enter
	e2e_wait_for "Account id"
	e2e_keys Enter
	e2e_wait_for "Zone id"
	e2e_keys Enter
	e2e_wait_for "The zone's plan"
	e2e_type pro
	e2e_keys Enter
	e2e_wait_for "Choice [1]:"
	e2e_type 2
	e2e_keys Enter
	e2e_wait_for "Token file (mode 600):"
	e2e_type "$2"
	e2e_keys Enter
	e2e_wait_for "The token, for the new file (not shown"
}

config_init "$E2E_DIR/one.yaml" "$E2E_DIR/keys/token"
e2e_type "$token"
e2e_keys Enter
e2e_wait_for "the token is active (id "
e2e_wait_for "E2E-EXIT:0"
e2e_assert_not_contains "$token"
[ "$(cat "$E2E_DIR/keys/token")" = "$token" ] ||
    e2e_fail "the token file does not hold the token"
[ "$(stat -c %a "$E2E_DIR/keys/token")" = 600 ] ||
    e2e_fail "the token file is not mode 600"

# A signal while the token is asked for: the terminal echoes again.
config_init "$E2E_DIR/two.yaml" "$E2E_DIR/keys/other"
e2e_type "half a tok"
kill -TERM "$(cat "$E2E_DIR/pid")"
e2e_wait_match "E2E-EXIT:[0-9]+"
echo_before=$(tr -s ' ;' '\n' <"$E2E_DIR/stty.before" | grep -xE -- '-?echo')
echo_after=$(tr -s ' ;' '\n' <"$E2E_DIR/stty.after" | grep -xE -- '-?echo')
[ "$echo_before" = echo ] && [ "$echo_after" = echo ] ||
    e2e_fail "stty $echo_after after the signal (it was $echo_before)"
[ -e "$E2E_DIR/keys/other" ] && e2e_fail "a token file after the signal"
e2e_assert_not_contains "half a tok"
