#!/bin/bash
# The rate limiting rules panel (:rules) against edgemu: the header (the
# entry point's version, the plan lint uses) and the numbered columns; K
# and J move a rule and the server's order changes (its other fields do
# not); t on two marked rules disables both after a question naming the
# count; d asks naming the rule's description and deletes it; v lists the
# versions with their rule counts, Enter views one, v diffs one against
# the current rules (a changed field shows old -> new) and B restores it:
# the server's rules are then that version's, and the journal has the PUT.
# A toggle failing half way names the rule left as it was; with the
# profile's plan: the header names it; d on two marked rules deletes both.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init rules_panel
e2e_edgemu_start
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint

# The rules' descriptions as the server lists them, one per line.
rules_order() {
	"$EDGETUI" get rate-limit-rules -o json |
	    sed -n 's/^[[:space:]]*"description":[[:space:]]*"\(.*\)",*$/\1/p'
}

# A rule's member (a number or true/false) as the server has it.
rule_member() {
	"$EDGETUI" get rate-limit-rules -o json | grep -F -A30 "\"$1\"" |
	    grep -m1 -E "^[[:space:]]*\"$2\":" | sed 's/.*:[[:space:]]*//; s/,$//'
}

# What rules hold that a restore must bring back, one member per line, in
# order (ids aside: a rule deleted since comes back as a new one).
rules_fields() {
	grep -E '^[[:space:]]*"(description|action|expression|enabled|period|requests_per_period|mitigation_timeout|ref)":' |
	    sed 's/^[[:space:]]*//; s/,$//'
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_wait_for 'entry point version 2   plan unknown: language-only lint, the server decides'
e2e_wait_match '^  #   DESCRIPTION +ACTION +RATE +ENABLED +EXPRESSION'
e2e_wait_match '^> 1   Login form: block credential stuffing +block +5/60s +yes +http\.request\.uri\.path eq "/login'
e2e_wait_match '^  2   Public API: throttle bursts +managed_challenge 100/10s +yes '
e2e_wait_for 'K up  J down  t on/off  d delete  v versions'

# ---- K: "Search scrapers" from 3 to 2, by a PATCH of only its position.
before=$(rules_order)
[ "$(echo "$before" | sed -n 3p)" = "Search scrapers" ] ||
    e2e_fail "unexpected order: $before"
e2e_keys j j
e2e_wait_match '^> 3   Search scrapers'
e2e_keys K
e2e_wait_for "moved rate limiting rule 'Search scrapers'"
e2e_wait_match '^> 2   Search scrapers'
e2e_wait_match '^  3   Public API'
e2e_wait_for 'entry point version 3'
[ "$(rules_order | sed -n 2,3p | tr '\n' '|')" = "Search scrapers|Public API: throttle bursts|" ] ||
    e2e_fail "K: the server's order is $(rules_order | tr '\n' '|')"
[ "$(rule_member 'Search scrapers' requests_per_period)" = 30 ] ||
    e2e_fail "K changed the moved rule"
# The PATCH sent only the position, before the rule that was above it.
e2e_keys L
e2e_wait_match '^ [0-9:]+  PATCH   200 '
e2e_keys j Enter
e2e_wait_match "^ +--data-raw '\{\"position\":\{\"before\":\"[0-9a-f]{32}\"\}\}'$"
e2e_keys q
e2e_wait_match '^ request log: '
e2e_keys q
e2e_wait_match '^> 2   Search scrapers'
# At the top, K says so and sends nothing.
e2e_keys g
e2e_wait_match '^> 1   Login form'
e2e_keys K
e2e_wait_for 'the rule is already first'
e2e_keys C-l

# ---- J: "Login form" from 1 to 2.
e2e_keys J
e2e_wait_for "moved rate limiting rule 'Login form: block credential stuffing' ("
e2e_wait_match '^> 2   Login form'
e2e_wait_match '^  1   Search scrapers'
[ "$(rules_order | sed -n 1,2p | tr '\n' '|')" = "Search scrapers|Login form: block credential stuffing|" ] ||
    e2e_fail "J: the server's order is $(rules_order | tr '\n' '|')"

# ---- t on two marked rules: both disabled, after a question with the count.
e2e_keys g
e2e_wait_match '^> 1   Search scrapers'
e2e_keys Space Space
e2e_wait_match '^ rate-limit-rules  6  2 marked$'
e2e_keys t
e2e_wait_for 'Disable all 2 rate limiting rules'
e2e_wait_for "'Login form: block credential stuffing'"
e2e_keys y
e2e_wait_for 'disabled 2 rate limiting rules'
e2e_wait_match '^  1   Search scrapers +js_challenge +30/60s +no '
e2e_wait_match '^  2   Login form: block credential stuffing +block +5/60s +no '
[ "$(rule_member 'Search scrapers' enabled)" = false ] ||
    e2e_fail "t: Search scrapers is still enabled on the server"
[ "$(rule_member 'Login form: block credential stuffing' enabled)" = false ] ||
    e2e_fail "t: Login form is still enabled on the server"
# The whole rule was sent: the rest of it is as it was.
[ "$(rule_member 'Login form: block credential stuffing' mitigation_timeout)" = 600 ] ||
    e2e_fail "t lost a field of the rule"

# ---- a toggle that fails half way says which rule is where, and why:
# "Public API" deleted behind the console's back.
e2e_keys g j j
e2e_wait_match '^> 3   Public API'
e2e_keys Space G Space
e2e_wait_match '^ rate-limit-rules  6  2 marked$'
rsid=$(e2e_api GET "$EP" | grep -oE '"id":"[0-9a-f]{32}"' | head -n 1 | cut -d'"' -f4)
pubid=$("$EDGETUI" get rate-limit-rules | grep -F 'Public API' | cut -c1-32)
e2e_api DELETE "/zones/$CLOUDFLARE_ZONE_ID/rulesets/$rsid/rules/$pubid" >/dev/null
e2e_keys t
e2e_wait_for 'Disable all 2 rate limiting rules'
e2e_keys y
e2e_wait_for "1 of 2 not disabled (still enabled): 'Public API: throttle bursts' ("
e2e_wait_for "not found"
e2e_wait_for "; disabled: 'Password"
e2e_wait_match '^ rate-limit-rules  5$'
[ "$(rule_member 'Password reset: count failures only' enabled)" = false ] ||
    e2e_fail "the half-done toggle did not disable Password reset"
e2e_keys C-l

# ---- d names the rule's description.
e2e_keys g j j
e2e_wait_match '^> 3   Checkout abuse'
e2e_keys d
e2e_wait_for "Delete rate limiting rule 'Checkout abuse' ("
e2e_keys y
e2e_wait_for "deleted rate limiting rule 'Checkout abuse'"
e2e_wait_match '^ rate-limit-rules  4$'
[ "$(rules_order | wc -l)" = 4 ] || e2e_fail "d: the server has $(rules_order | wc -l) rules"
rules_order | grep -qx 'Checkout abuse' && e2e_fail "d: Checkout abuse is still there"

# ---- v: the versions, newest first, each with its rule count; the
# current one (the newest) is named in the title and under the cursor.
e2e_keys v
e2e_wait_match '^ rule-versions \(current: 9\)  9$'
e2e_wait_match '^> 9 +[0-9-]+ [0-9:]+ +4 +default '
e2e_wait_match '^  2 +[0-9-]+ [0-9:]+ +6 +default '
e2e_wait_match '^  1 +[0-9-]+ [0-9:]+ +5 +default '
first=$(e2e_screen | grep -E '^[> ] [0-9]+ ' | head -n 1)
[ "${first:0:4}" = "> 9 " ] || e2e_fail "the first row is not version 9: $first"
e2e_wait_for 'v diff  B restore'
# Enter views one: version 1 had five rules, the first the login form.
e2e_keys G
e2e_wait_match '^> 1 +[0-9-]+ [0-9:]+ +5 +default '
e2e_keys Enter
e2e_wait_for 'Login form: block credential stuffing'
e2e_keys q
e2e_wait_match '^> 1 '

# v: from version 1 to now, field by field.
e2e_keys v
e2e_wait_for 'rules of version 1 -> current (version 9): '
e2e_wait_for "changed #2 'Login form: block credential stuffing' ("
e2e_wait_for '    enabled: true -> false'
e2e_wait_for '    position: 1 -> 2'
e2e_wait_for "removed 'Checkout abuse' ("
e2e_keys q
e2e_wait_gone 'rules of version 1 -> current'

# B: restore version 1, after a question saying what changes.
e2e_keys B
e2e_wait_for 'Restore version 1? The entry point'"'"'s rules (version 9 now) become the 5 of version 1'
e2e_wait_for '2 rules deleted since come back with a new id.'
e2e_wait_for '    enabled: false -> true'
e2e_keys y
e2e_wait_for 'restored the rules of version 1 as version 10'
e2e_wait_match '^ rule-versions \(current: 10\)  10$'
e2e_wait_match '^  10 +[0-9-]+ [0-9:]+ +5 +default '
# A version never changes: the reload read only the new one (9 counted on
# opening, 3 reads of version 1: Enter, v and B, then version 10).
e2e_wait_log ' GET /zones/[0-9a-f]+/rulesets/phases/http_ratelimit/entrypoint/versions/[0-9]+ ' 13
reads=$(grep -cE ' GET /zones/[0-9a-f]+/rulesets/phases/http_ratelimit/entrypoint/versions/[0-9]+ ' \
    "$E2E_DIR/edgemu.log" || true)
[ "$reads" = 13 ] || e2e_fail "versions read $reads times, not 13"
want=$("$EDGETUI" get rule-versions 1 -o json | sed -n '/"rules":/,$p' |
    rules_fields)
got=$("$EDGETUI" get rate-limit-rules -o json | rules_fields)
[ "$(echo "$want" | grep -c '^"description"')" = 5 ] ||
    e2e_fail "version 1 read back without its five rules: $want"
[ "$got" = "$want" ] ||
    e2e_fail "after the restore the rules differ from version 1's: $(diff <(echo "$want") <(echo "$got") || true)"

# q back to the rules, which reloaded: version 1's order and states.
e2e_keys q
e2e_wait_match '^ rate-limit-rules  5$'
e2e_wait_for 'entry point version 10'
e2e_wait_match '^  1   Login form: block credential stuffing +block +5/60s +yes '
e2e_wait_match '^. 4   Checkout abuse'

# The journal has the restore.
e2e_command journal 'rate-limit-rule +[0-9a-f]{32} +updated: rules'
e2e_wait_match 'rate-limit-rule +[0-9a-f]{32} +deleted'
# Undo points to the versions: a rule's path needs its ruleset.
e2e_keys u
e2e_wait_for "cannot undo: restore one of the entry point's versions instead (:rate-limit-rules, v, B)"
e2e_keys C-l
e2e_keys q

e2e_quit_and_check_sane : q Enter

# ---- with the profile's plan, the header names it.
mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'profiles:\n  default:\n    plan: business\n' \
    >"$XDG_CONFIG_HOME/edgetui/config.yaml"
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_keys :
e2e_type rules
e2e_keys Enter
e2e_wait_for 'entry point version 10   plan business (lint uses its limits)'
e2e_assert_not_contains 'plan unknown'

# ---- d on two marked rules: their count typed to confirm.
e2e_wait_match '^> 1   Login form'
e2e_keys Space Space
e2e_wait_match '^ rate-limit-rules  5  2 marked$'
e2e_keys d
e2e_wait_for 'Delete 2 rate limiting rules (the marked ones, not the one under the cursor)?'
e2e_wait_for "'Public API: throttle bursts' ("
e2e_type 2
e2e_keys Enter
e2e_wait_for 'deleted 2 rate limiting rules'
e2e_wait_match '^ rate-limit-rules  3$'
[ "$(rules_order | tr '\n' '|')" = "Search scrapers|Checkout abuse|Version 2 API traffic (observing)|" ] ||
    e2e_fail "d on marks: the server has $(rules_order | tr '\n' '|')"
e2e_quit_and_check_sane : q Enter
