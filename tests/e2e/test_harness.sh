#!/bin/bash
# The e2e harness proved against a stand-in curses program (e2e-standin):
# waiting, keys, resizing, normalised screens, edgemu and its API, and the
# exit check catching a program that leaves the terminal broken.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init harness
standin=${E2E_STANDIN:-$PWD/tests/e2e/e2e-standin}
[ -x "$standin" ] || e2e_fail "no stand-in at $standin (make check builds it)"

# What changes between runs is replaced, what does not is kept.
got=$(e2e_normalize <<'EOF'
id 0123456789abcdef0123456789abcdef in zone 0123456789abcdef0123456789abcdeg
uid 123E4567-e89b-12d3-a456-426614174000, cut 01234567…
at 2026-01-02T03:04:05.678+02:00 and 2026-01-02 03:04:05Z, 2026-01-02 03:04
seen 3s ago, 1m30s ago, 2 hours ago; 3s later
url http://127.0.0.1:41234/client/v4 and localhost:8787
EOF
)
want=$(cat <<'EOF'
id <id> in zone 0123456789abcdef0123456789abcdeg
uid <uuid>, cut <id>…
at <time> and <time>, <time>
seen <ago>, <ago>, <ago>; 3s later
url http://127.0.0.1:<port>/client/v4 and localhost:<port>
EOF
)
[ "$got" = "$want" ] || e2e_fail "e2e_normalize gave:
$got"

# edgemu, and e2e_api with the token kept off the command line.
e2e_edgemu_start
body=$(e2e_api GET "/zones/$CLOUDFLARE_ZONE_ID/api_gateway/operations")
case $body in
*'"success":true'*) ;;
*) e2e_fail "e2e_api GET operations: $body" ;;
esac
if e2e_api GET /zones/nonexistent/none >/dev/null 2>&1; then
	e2e_fail "e2e_api succeeded on a path edgemu does not serve"
fi
[ "$(e2e_api_status)" = 404 ] || e2e_fail "e2e_api_status: $(e2e_api_status)"

# The pane: size, environment, keys in order, resize.
e2e_program_start "$standin"
e2e_wait_for READY
e2e_assert_contains "SIZE:120x40"
e2e_assert_contains "TERM:xterm-256color LANG:C.UTF-8"
e2e_assert_contains "API:$CLOUDFLARE_BASE_URL"
e2e_assert_not_contains "KEY:"
e2e_keys a Down NPage Space C-c Enter
e2e_type 'x y'
e2e_wait_for "KEYS: a KEY_DOWN KEY_NPAGE SPACE ^C ^M x SPACE y"
e2e_assert_contains "KEY:y"
e2e_resize 100 30
e2e_wait_for "SIZE:100x30"
e2e_wait_gone "SIZE:120x40"
e2e_wait_match '^-- q quits --$'
e2e_expect_screen harness.txt
e2e_quit_and_check_sane q
[ "$E2E_EXIT_STATUS" = 0 ] || e2e_fail "exit status $E2E_EXIT_STATUS"
e2e_assert_not_contains READY

# A program that exits without endwin must fail the check, for the
# terminal modes and for the alternate screen; so must an exit status
# other than the one expected.
e2e_program_start "$standin" --crash
e2e_wait_for READY
e2e_keys q
if (e2e_quit_and_check_sane -s 3) >"$E2E_DIR/crash.out" 2>&1; then
	cat "$E2E_DIR/crash.out"
	e2e_fail "e2e_quit_and_check_sane passed a program that did not endwin"
fi
for problem in 'exit status 0, not 3' 'stty -icanon (it was icanon)' 'stty -echo (it was echo)' \
    'still on the alternate screen' 'of its last screen still shown'; do
	grep -qF -- "$problem" "$E2E_DIR/crash.out" || {
		cat "$E2E_DIR/crash.out"
		e2e_fail "the check did not report '$problem'"
	}
done
exit 0
