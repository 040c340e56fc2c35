#!/bin/bash
# The retired rate-limit API: edgemu --legacy-gone answers every
# rate-limit route with 410 Gone, as the cloud does. The rate-limits list
# shows the banner that says what replaces the API and where rate
# limiting rules are, and the error, without a crash; M migrates nothing;
# changes are refused before anything is sent; the other panels keep
# working.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init gone
e2e_edgemu_start --legacy-gone

# What edgemu answers, first: the status and its error envelope.
RL=/zones/$CLOUDFLARE_ZONE_ID/rate_limits
if e2e_api GET "$RL" >/dev/null 2>&1; then
	e2e_fail "edgemu --legacy-gone served the rate-limit list"
fi
[ "$(e2e_api_status)" = 410 ] || e2e_fail "not 410: $(e2e_api_status)"
grep -q '"success":false' "$E2E_DIR/api.body" ||
    e2e_fail "the 410 is not a failure envelope: $(cat "$E2E_DIR/api.body")"

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys :
e2e_type rl
e2e_keys Enter
# The stable part of api_gone_message (src/api.c): what is retired and
# what replaces it.
e2e_wait_for "The legacy Rate Limiting API (/zones/{zone}/rate_limits) is retired"
e2e_wait_for "/zones/{zone}/rulesets/phases/http_ratelimit/entrypoint"
e2e_wait_for "HTTP 410"
# ... and where rate limiting rules are: the :rules panel, else the CLI.
e2e_wait_match "Rate limiting rules: (open them with :rules|see edgetui get rate-limit-rules)[.]"
e2e_expect_screen gone-rate-limits.txt
e2e_keys M
e2e_wait_for "there is nothing to migrate here"

# Changes are refused at once, with why: nothing is sent to a retired API.
e2e_keys t
e2e_wait_for "this server retired the API (see the notice above): nothing was sent"
e2e_keys n
e2e_assert_not_contains "new rate-limits"
e2e_keys d
e2e_assert_not_contains "Delete rate limit"

# A refresh gets the same answer; the banner stays.
e2e_keys r
e2e_wait_for "HTTP 410"
e2e_assert_contains "is retired"

# The other areas are served as usual.
e2e_keys Tab
e2e_wait_match "^ operations  300$"
e2e_assert_not_contains "is retired"
e2e_keys Enter
e2e_wait_match '^ operations  300  >  operations '
e2e_keys q
e2e_wait_match "^ operations  300$"
e2e_command discovered-operations '^ discovered-operations  [0-9]+$'
e2e_assert_not_contains "is retired"

if grep -qE ' (POST|PUT|PATCH|DELETE) /zones/[0-9a-f]+/rate_limits' \
    "$E2E_DIR/edgemu.log"; then
	e2e_fail "a change was sent to the retired rate-limit API"
fi
e2e_quit_and_check_sane : q Enter
