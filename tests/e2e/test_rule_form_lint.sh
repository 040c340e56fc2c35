#!/bin/bash
# The expression editor's lint message, longer than its two rows, ends by
# naming the key that shows it whole (!); the lint speaks at every key, and
# only what it said of the text when the editor closed is kept for ! to
# show, once, whole. Valid text that never matches what was meant (a
# method in lower case) gets a warning, in the editor and in the form.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80
E2E_ROWS=24
e2e_init rule_form_lint
e2e_edgemu_start --plan business
# One rule, so the plan's five leave room for the form's.
e2e_api PUT "/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint" \
    '{"rules":[{"description":"Search API","action":"block",
"expression":"http.request.uri.path eq \"/search\"","ratelimit":{
"characteristics":["cf.colo.id","ip.src"],"period":60,
"requests_per_period":50,"mitigation_timeout":600}}]}' >/dev/null

# A name the lint does not know, long enough that its message takes more
# than two rows of 78 columns; typed a key at a time, linted at each.
name=ip.src.nowhere$(printf 'x%.0s' $(seq 150))
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  1$'
e2e_keys n
e2e_wait_for "type to edit  Enter/Tab next field"
e2e_keys Up
e2e_wait_for "Which requests the rule applies to"
e2e_keys Enter
e2e_wait_for "expression of a new rate limiting rule"
e2e_type "ip.src eq 1.2.3.4 and $name eq 1"
e2e_wait_for "… (!: all of it)"
e2e_wait_for "column 23: unknown field"
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_type '!'
e2e_wait_for 'messages (newest last)'
got=$(e2e_screen | tr -d ' \n')
case $got in
*"column23:unknownfield'$name'"*) ;;
*) e2e_fail "the messages view does not show the lint's message whole" ;;
esac
n=$(e2e_screen | grep -c 'unknown field' || true)
[ "$n" -eq 1 ] || e2e_fail "$n lint messages kept, not the last one"
e2e_keys q
e2e_wait_gone 'messages (newest last)'
e2e_keys Escape
e2e_wait_for "Discard the changes"
e2e_type y
e2e_wait_match '^ rate-limit-rules  1$'

# ---- a warning, not an error: the text is valid and may be saved.
e2e_keys n
e2e_wait_for "type to edit  Enter/Tab next field"
e2e_keys Up
e2e_wait_for "Which requests the rule applies to"
e2e_keys Enter
e2e_wait_for "expression of a new rate limiting rule"
e2e_type 'http.request.method eq "post"'
e2e_wait_for 'warning: column 24: methods are upper case: this never matches'
e2e_assert_not_contains 'valid on the Business plan'
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_wait_match '^ +warning: column 24: methods are upper case'
e2e_keys Escape
e2e_wait_for "Discard the changes"
e2e_type y
e2e_wait_match '^ rate-limit-rules  1$'
e2e_quit_and_check_sane : q Enter
