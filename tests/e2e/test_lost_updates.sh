#!/bin/bash
# No lost update in :rules: another client (the one-shot edgetui) changes
# a rule while the console shows an older copy; t, the marked ones' t and
# the rule form's save then keep that change (the console reads the rule
# afresh and changes only its own fields), and a field both changed stops
# the save with a question naming both values, nothing sent until the
# answer.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init lost_updates
e2e_edgemu_start

# The id of the rule whose description holds $1.
rule_id() {
	"$EDGETUI" get rate-limit-rules -o yaml | awk -v d="$1" '
	    /^- id: / { id = $3 } /^  id: / { id = $2 }
	    /^  description: / && index($0, d) { print id; exit }'
}

# A rule's member (a string, number or true/false) as the server has it.
rule_member() {
	"$EDGETUI" get rate-limit-rules "$(rule_id "$1")" -o yaml |
	    awk -v m="$2" '$1 == m ":" { sub(/^[^:]*: */, ""); print; exit }'
}

# The other client: one-shot edgetui sets a rule's member ($2, a line of
# its YAML: "description: X" or "requests_per_period: N").
colleague() {
	local id key
	id=$(rule_id "$1")
	key=${2%%:*}
	"$EDGETUI" get rate-limit-rules "$id" -o yaml |
	    sed "s/^\( *\)$key: .*/\1$2/" >"$E2E_DIR/rule.yaml"
	"$EDGETUI" update rate-limit-rules "$id" -f "$E2E_DIR/rule.yaml" \
	    >/dev/null
}

# Changing requests to the rules that reached edgemu (its -v log).
patches() {
	grep -cE " PATCH /zones/[0-9a-f]*/rulesets/[0-9a-f]*/rules/" \
	    "$E2E_DIR/edgemu.log" || true
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_wait_match '^> 1   Login form'

# ---- t: the rule read afresh, only enabled changed -----------------------
colleague 'Login form' 'description: FIFTH CHANGE BY COLLEAGUE'
e2e_keys t
e2e_wait_for "disabled rate limiting rule 'Login form: block"
e2e_wait_match '^> 1   FIFTH CHANGE BY C'
[ "$(rule_member 'FIFTH CHANGE' enabled)" = false ] ||
    e2e_fail "t: the rule is still enabled on the server"

# ---- the marked ones' t ----------------------------------------------------
e2e_keys j Space Space
e2e_wait_match '^ rate-limit-rules  6  2 marked$'
colleague 'Search scrapers' 'description: SCRAPERS BY COLLEAGUE'
e2e_keys t
e2e_wait_for 'Disable all 2 rate limiting rules'
e2e_keys y
e2e_wait_for 'disabled 2 rate limiting rules'
e2e_wait_match '^  3   SCRAPERS BY COLL'
[ "$(rule_member 'SCRAPERS BY COLLEAGUE' enabled)" = false ] ||
    e2e_fail "marked t: the rule is still enabled on the server"
[ "$(rule_member 'Public API' enabled)" = false ] ||
    e2e_fail "marked t: Public API is still enabled on the server"

# ---- the form's save: another field changed meanwhile is kept -------------
# The focused field is told by its help line; a number is typed into
# as soon as it has the focus.
to_requests() {
	e2e_wait_for 'What the rule is for'
	e2e_keys Down
	e2e_wait_for 'What happens to a client over the rate'
	e2e_keys Down
	e2e_wait_for 'Whether the rule applies'
	e2e_keys Down
	e2e_wait_for 'Requests in a period above which the action applies'
}
e2e_keys g
e2e_wait_match '^> 1   FIFTH'
e2e_keys e
to_requests
colleague 'FIFTH CHANGE' 'description: SIXTH CHANGE BY COLLEAGUE'
e2e_keys C-u
e2e_type 9
e2e_keys Enter S
e2e_wait_for "saved rate limiting rule"
e2e_wait_match '^> 1   SIXTH CHANGE BY C.* 9/60s '
[ "$(rule_member 'SIXTH CHANGE' requests_per_period)" = 9 ] ||
    e2e_fail "S: requests per period not saved"

# ---- the form's save: the same field changed meanwhile asks ---------------
e2e_keys e
to_requests
colleague 'SIXTH CHANGE' 'requests_per_period: 66'
e2e_keys C-u
e2e_type 77
e2e_keys Enter
n=$(patches)
e2e_keys S
e2e_wait_for 'changed on the server since you read it'
e2e_wait_for 'ratelimit.requests_per_period: 66 → 77'
e2e_wait_for 't keep theirs  y use yours  e edit again  Esc cancel (nothing is sent)'
[ "$(patches)" = "$n" ] || e2e_fail "S: a PATCH went before the answer"
e2e_keys t
e2e_wait_for 'the rule on the server already has these values: nothing was sent'
[ "$(patches)" = "$n" ] || e2e_fail "t (keep theirs): a PATCH was sent"
[ "$(rule_member 'SIXTH CHANGE' requests_per_period)" = 66 ] ||
    e2e_fail "keep theirs: requests per period is not the server's"

# ---- e at the question: the form again, on the server's copy with yours --
e2e_keys e
to_requests
colleague 'SIXTH CHANGE' 'requests_per_period: 55'
e2e_keys C-u
e2e_type 88
e2e_keys Enter S
e2e_wait_for 'ratelimit.requests_per_period: 55 → 88'
e2e_keys e
e2e_wait_for 'the server changed (theirs → yours, which the form shows):'
e2e_wait_match '^ *requests per period +88'
e2e_keys S
e2e_wait_for "saved rate limiting rule"
[ "$(rule_member 'SIXTH CHANGE' requests_per_period)" = 88 ] ||
    e2e_fail "edit again: the form's value was not saved"

e2e_quit_and_check_sane : q Enter
