#!/bin/bash
# The rule form on a zone with no http_ratelimit entry point yet: V asks
# the server with dry_run on the POST that would create it (nothing made),
# and S creates the entry point with the rule, as the CLI does. The
# expression typed holds UTF-8: the lint's column and caret still match.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init rule_form_absent
e2e_edgemu_start
# Another zone: the demo zone has an entry point.
export CLOUDFLARE_ZONE_ID=0123456789abcdef0123456789abcdef
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint
ep_absent() {
	! e2e_api GET "$EP" >/dev/null 2>&1 &&
	    [ "$(cat "$E2E_DIR/api.status")" = 404 ]
}
ep_absent || e2e_fail "the zone already has an entry point"

e2e_console_start
e2e_command rules '^ rate-limit-rules  0'
e2e_keys n
e2e_wait_for "new rate limiting rule"
e2e_type "First rule"
e2e_keys Up Enter
e2e_wait_for "expression of a new rate limiting rule"
# UTF-8: the column counts characters, the caret goes under the cells.
e2e_type 'http.request.uri.path eq "/ünï" and ip.srcc eq 1'
e2e_wait_for "column 37: unknown field 'ip.srcc'"
e2e_wait_match '^ {37}\^{7}$'
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
	e2e_keys BSpace
done
e2e_wait_for "valid (language only"
e2e_wait_match '^ http\.request\.uri\.path eq "/ünï" *$'
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_keys V
e2e_wait_for "the server accepts this rule (dry run: nothing was saved)"
ep_absent || e2e_fail "a dry run made the entry point"
e2e_wait_log " POST /zones/$CLOUDFLARE_ZONE_ID/rulesets " 1
grep -qE " POST /zones/$CLOUDFLARE_ZONE_ID/rulesets " "$E2E_DIR/edgemu.log" ||
    e2e_fail "the dry run was not the POST that makes the entry point"
e2e_keys S
e2e_wait_for "created rate limiting rule 'First rule'"
e2e_wait_match '^ rate-limit-rules  1'
ep=$(e2e_api GET "$EP")
grep -qF '"description":"First rule"' <<<"$ep" ||
    e2e_fail "the entry point does not hold the rule: $ep"
grep -qF 'http.request.uri.path eq \"/ünï\"' <<<"$ep" ||
    e2e_fail "the expression was not saved whole: $ep"
grep -qF '"phase":"http_ratelimit"' <<<"$ep" ||
    e2e_fail "not the http_ratelimit entry point: $ep"
# e from the rule's details: saved, the details show it as saved.
e2e_keys Enter
e2e_wait_match '^ description: First rule$'
e2e_keys e
e2e_wait_for "edit rate limiting rule "
e2e_keys End
e2e_type " 2"
e2e_keys Enter S
e2e_wait_for "saved rate limiting rule 'First rule 2'"
e2e_wait_match '^ description: First rule 2$'
e2e_quit_and_check_sane : q Enter
