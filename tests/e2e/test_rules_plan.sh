#!/bin/bash
# The rules list and the rule form on the profile's plan (Pro: two rules,
# no log, periods up to 60 s, no matches) while the zone holds the demo's
# six rules, taken on Enterprise: the list marks with ! each rule Pro
# forbids and says why for the one under the cursor, and that the zone is
# over Pro's quota; n says at once that a new rule would be refused, and
# V sends nothing. Then :test on other rules: every matching rule counts
# the request, the block acts first, a rule on a list may count it.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init rules_plan
e2e_edgemu_start
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint
mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'profiles:\n  default:\n    plan: pro\n' \
    >"$XDG_CONFIG_HOME/edgetui/config.yaml"

# Requests of a method to the rulesets that reached edgemu (its -v log).
rs_sent() {
	grep -c " $1 /zones/[0-9a-f]*/rulesets" "$E2E_DIR/edgemu.log" || true
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_wait_for "! 6 rules is over the Pro plan's limit of 2: the service refuses a new rule, and any change, until there are 2"
# Five of the six: the method field, a challenge's timeout, the visitor
# id and a 300 s period, log, a counting expression; the API throttle is
# Pro's.
e2e_wait_for "! 5 rules the Pro plan forbids; this one: expression: column 39: field 'http.request.method' needs the Business"
e2e_wait_match '^>!1 +Login form'
e2e_wait_match '^  2 +Public API'
for n in 3 4 5 6; do
	e2e_wait_match "^ !$n "
done
e2e_keys j
e2e_wait_gone '; this one:'
e2e_keys j j j
e2e_wait_for "; this one: action: log needs Enterprise"

# n: the quota is said before anything is typed, and V sends nothing.
posts=$(rs_sent POST)
e2e_keys n
e2e_wait_for 'new rate limiting rule - plan pro'
e2e_wait_for "the zone has 6 rules: with a new one, 7 rules is over the Pro plan's limit of 2"
# Off the description (typed into), to the action: V there validates.
e2e_keys Tab V
e2e_wait_for 'nothing was sent'
[ "$(rs_sent POST)" = "$posts" ] || e2e_fail "V sent a rule over the quota"
e2e_keys Escape
e2e_wait_gone 'new rate limiting rule'

# ---- :test on three rules: log and block count the request, the block
# acts first, the rule on a list may count it.
e2e_api PUT "$EP" '{"rules":[
{"description":"API seen","action":"log",
"expression":"starts_with(http.request.uri.path, \"/api/\")","ratelimit":{
"characteristics":["cf.colo.id","ip.src"],"period":60,
"requests_per_period":100}},
{"description":"API login","action":"block",
"expression":"http.request.uri.path eq \"/api/login\"","ratelimit":{
"characteristics":["cf.colo.id","ip.src"],"period":60,
"requests_per_period":5,"mitigation_timeout":600}},
{"description":"Not the office","action":"challenge",
"expression":"not ip.src in $office_ips","ratelimit":{
"characteristics":["cf.colo.id","ip.src"],"period":10,
"requests_per_period":50}}]}' >/dev/null
e2e_keys r
e2e_wait_match '^ rate-limit-rules  3$'
e2e_keys :
e2e_type test
e2e_keys Enter
e2e_wait_for "Enter tests the request"
e2e_keys Up C-u
e2e_type POST
e2e_keys Down C-u
e2e_type https://example.com/api/login
e2e_keys Down C-u
e2e_type 192.0.2.1
e2e_keys Enter
e2e_wait_for 'api/login from 192.0.2.1: counted by #1, #2 (each in its own counters); #3 may count it (list'
e2e_wait_for '$office_ips is not known here); #2 (block) acts first once over its rate, and evaluation stops there'
e2e_wait_match '^ +1 +COUNTS +log +API seen'
e2e_wait_match '^ +2 +ACTS FIRST +block +API login'
e2e_wait_match '^ +3 +may count +challenge +Not the office +list \$office_ips is not known here'
# The list's rule explained: its comparison is unknown, not false.
e2e_keys j j
e2e_keys Enter
e2e_wait_for 'rule #3 Not the office: may count'
e2e_wait_match '^ unknown +not ip\.src in \$office_ips$'
e2e_wait_match '^ +unknown +ip\.src in \$office_ips +\(left: 192\.0\.2\.1\)$'
e2e_keys q
e2e_wait_gone 'rule #3 Not the office'
e2e_keys Escape
e2e_wait_gone 'rules tester'

e2e_quit_and_check_sane : q Enter
