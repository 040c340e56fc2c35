#!/bin/bash
# No lost update in :rules beyond t and the form (test_lost_updates.sh):
# R in the versions restores a version merged with what another client
# changed since the question; u in :journal undoes a rule's change from
# the rule as it is now; E applies only the user's change (1, not the
# server's own fields) and keeps what changed while the editor was open;
# K pressed five times moves five places; { and } move to the top and the
# bottom; a rule another client moved is not moved from where it was.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init lost_updates_rules
e2e_edgemu_start
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint

rule_id() {
	"$EDGETUI" get rate-limit-rules -o yaml | awk -v d="$1" '
	    /^- id: / { id = $3 } /^  id: / { id = $2 }
	    /^  description: / && index($0, d) { print id; exit }'
}

rule_member() {
	"$EDGETUI" get rate-limit-rules "$(rule_id "$1")" -o yaml |
	    awk -v m="$2" '$1 == m ":" { sub(/^[^:]*: */, ""); print; exit }'
}

colleague() {
	local id key
	id=$(rule_id "$1")
	key=${2%%:*}
	"$EDGETUI" get rate-limit-rules "$id" -o yaml |
	    sed "s/^\( *\)$key: .*/\1$2/" >"$E2E_DIR/rule.yaml"
	"$EDGETUI" update rate-limit-rules "$id" -f "$E2E_DIR/rule.yaml" \
	    >/dev/null
}

# The rules' descriptions as the server lists them, one per line.
rules_order() {
	"$EDGETUI" get rate-limit-rules -o yaml |
	    sed -n 's/^  description: "*\([^"]*\)"*$/\1/p'
}

patches() {
	grep -cE " PATCH /zones/[0-9a-f]*/rulesets/[0-9a-f]*/rules/" \
	    "$E2E_DIR/edgemu.log" || true
}

# $EDITOR: sets requests per period to 9 in Login form's rule while
# another client changes its description.
login=$(rule_id 'Login form')
cat >"$E2E_DIR/editor.sh" <<SH
#!/bin/sh
sed -i 's/requests_per_period: .*/requests_per_period: 9/' "\$1"
"$EDGETUI" get rate-limit-rules $login -o yaml |
    sed 's/^description: .*/description: COLLEAGUE WHILE EDITING/' \
    >"$E2E_DIR/editing.yaml"
"$EDGETUI" update rate-limit-rules $login -f "$E2E_DIR/editing.yaml" \
    >/dev/null
SH
chmod 700 "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_wait_for 'entry point version 2 '

# ---- B: a restore keeps what changed since its question ----------------
colleague 'Checkout abuse' 'requests_per_period: 44'
e2e_keys v
e2e_wait_match '^ rule-versions \(current: 3\)  3$'
for _ in 1 2 3; do
	e2e_screen | grep -qE '^> +2 ' && break
	e2e_keys j
	e2e_wait_match '^> +[0-9]+ '
done
e2e_wait_match '^> +2 '
e2e_keys B
e2e_wait_for 'Restore version 2?'
colleague 'Public API' 'description: PUBLIC BY COLLEAGUE'
e2e_keys y
e2e_wait_for 'restored the rules of version 2 as version 5'
[ "$(rule_member 'Checkout abuse' requests_per_period)" = 10 ] ||
    e2e_fail "B: Checkout abuse was not restored"
[ -n "$(rule_id 'PUBLIC BY COLLEAGUE')" ] ||
    e2e_fail "B: the change made since the question was lost"
e2e_keys q
e2e_wait_match '^ rate-limit-rules  6$'

# ---- u in :journal: a rule's change undone from the rule as it is now ----
e2e_keys g
e2e_wait_match '^> 1   Login form'
e2e_keys t
e2e_wait_for "disabled rate limiting rule 'Login form"
colleague 'Login form' 'description: LOGIN BY COLLEAGUE'
e2e_command journal 'journal: '
e2e_wait_for 'updated: enabled'
# The newest is the other client's change; the console's t is next.
e2e_keys j
e2e_keys u
e2e_wait_for 'Apply 1 change to rate-limit-rules'
e2e_wait_for 'enabled: false → true'
e2e_keys y
e2e_wait_for 'saved rate limiting rule'
[ "$(rule_member 'LOGIN BY COLLEAGUE' enabled)" = true ] ||
    e2e_fail "u: the rule is not enabled again"
e2e_keys q
e2e_wait_match '^ rate-limit-rules  6$'

# ---- E: one change applied; the description changed meanwhile kept ------
e2e_keys g
e2e_wait_match '^> 1   LOGIN BY COLLEAGUE'
e2e_keys E
e2e_wait_for 'Apply 1 change to rate-limit-rules'
e2e_wait_for 'ratelimit.requests_per_period: 5 → 9'
e2e_assert_not_contains 'version:'
e2e_keys y
e2e_wait_for 'saved rate limiting rule'
[ "$(rule_member 'COLLEAGUE WHILE EDITING' requests_per_period)" = 9 ] ||
    e2e_fail "E: the edit was not applied, or the other change was lost"

# ---- K five times: five places; } and { ---------------------------------
e2e_keys G
e2e_wait_match '^> 6   Password reset'
e2e_keys K K K K K
e2e_wait_match '^> 1   Password reset'
e2e_wait_for 'moved rate limiting rule'
[ "$(rules_order | head -n 1)" = 'Password reset: count failures only' ] ||
    e2e_fail "K x5: the server's order is $(rules_order | tr '\n' '|')"
e2e_keys '}'
e2e_wait_match '^> 6   Password reset'
[ "$(rules_order | tail -n 1)" = 'Password reset: count failures only' ] ||
    e2e_fail "}: the server's order is $(rules_order | tr '\n' '|')"
e2e_keys '{'
e2e_wait_match '^> 1   Password reset'

# ---- K on a rule another client moved: asked, nothing sent --------------
e2e_keys G
e2e_wait_match '^> 6 '
last=$(rule_id "$(rules_order | tail -n 1)")
rsid=$(e2e_api GET "$EP" | grep -oE '"id":"[0-9a-f]{32}"' | head -n 1 |
    cut -d'"' -f4)
e2e_api PATCH "/zones/$CLOUDFLARE_ZONE_ID/rulesets/$rsid/rules/$last" \
    '{"position":{"before":""}}' >/dev/null
n=$(patches)
e2e_keys K
e2e_wait_for 'position: 1 → 5'
e2e_keys t
e2e_wait_for 'not moved: kept its place on the server, #1'
[ "$(patches)" = "$n" ] || e2e_fail "K on a moved rule sent a PATCH"
[ "$(rule_id "$(rules_order | head -n 1)")" = "$last" ] ||
    e2e_fail "K on a moved rule moved it"

e2e_quit_and_check_sane : q Enter
