#!/bin/bash
# :rules on a zone whose http_ratelimit entry point is not made yet: the
# API's 404 there means no rules (api-map-next 11.2), so the console shows
# an empty list, not an error; once a rule is added, r lists it.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init rules_absent
e2e_edgemu_start
# Another zone: the demo zone has an entry point.
export CLOUDFLARE_ZONE_ID=0123456789abcdef0123456789abcdef
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint
if e2e_api GET "$EP" >/dev/null 2>&1 ||
    [ "$(cat "$E2E_DIR/api.status")" != 404 ]; then
	e2e_fail "the zone already has an entry point"
fi

e2e_console_start
e2e_command rules '^ rate-limit-rules  0'
e2e_wait_for "no records"
e2e_assert_not_contains "404"

e2e_api PUT "$EP" '{"rules":[{"description":"Login burst","action":"block",
"expression":"http.request.uri.path eq \"/login\"","ratelimit":{
"characteristics":["cf.colo.id","ip.src"],"period":60,
"requests_per_period":5,"mitigation_timeout":60}}]}' >/dev/null
e2e_keys r
e2e_wait_for "Login burst"
e2e_quit_and_check_sane : q Enter
