#!/bin/bash
# No lost update in the lists driven by a kind's descriptor: t in
# :rate-limits (a PUT of the whole legacy rule), the form of a kind
# updated by PUT (e, Enter), t in a live input's outputs and M's d (the
# legacy rules disabled) all start from the record as the server has it
# when they write, not from the list's older copy; a field another
# client changed too is asked about first.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init lost_updates_kinds
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

# The id of the legacy rate limit whose description holds $1.
rl_id() {
	"$EDGETUI" get rate-limits -o yaml | awk -v d="$1" '
	    /^- id: / { id = $3 } /^  id: / { id = $2 }
	    /^  description: / && index($0, d) { print id; exit }'
}

rl_member() {
	"$EDGETUI" get rate-limits "$(rl_id "$1")" -o yaml |
	    awk -v m="$2" '$1 == m ":" { sub(/^[^:]*: */, ""); print; exit }'
}

# The other client, one-shot edgetui: a member of the legacy rule ($2,
# a top-level line of its YAML).
colleague() {
	local id key
	id=$(rl_id "$1")
	key=${2%%:*}
	"$EDGETUI" get rate-limits "$id" -o yaml |
	    sed "s/^$key: .*/$2/" >"$E2E_DIR/rl.yaml"
	"$EDGETUI" update rate-limits "$id" -f "$E2E_DIR/rl.yaml" >/dev/null
}

puts() {
	grep -cE " PUT /" "$E2E_DIR/edgemu.log" || true
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rate-limits '^ rate-limits \(legacy, deprecated\)  8$'
e2e_wait_match '^> Protect the login form'

# ---- t: the rule read afresh, only disabled changed ------------------------
colleague 'Protect the login form' 'description: LOGIN BY COLLEAGUE'
e2e_keys t
e2e_wait_for 'saved rate-limits'
e2e_wait_match '^> LOGIN BY COLLEAGUE'
[ "$(rl_member 'LOGIN BY COLLEAGUE' disabled)" = true ] ||
    e2e_fail "t: the legacy rule is not disabled"

# ---- e: the form's save keeps another field changed meanwhile -----------
e2e_keys e
e2e_wait_for 'What the rule is for'
e2e_keys Down Down Down Down Down Down Down Down
e2e_wait_for 'Requests in a period that trigger the action'
colleague 'LOGIN BY COLLEAGUE' 'description: AGAIN BY COLLEAGUE'
e2e_keys C-u
e2e_type 9
e2e_keys Enter
e2e_wait_for 'saved rate-limits'
e2e_wait_match '^> AGAIN BY COLLEAGUE'
[ "$(rl_member 'AGAIN BY COLLEAGUE' threshold)" = 9 ] ||
    e2e_fail "form: the threshold was not saved"

# ---- e: the same field changed meanwhile: asked; y uses yours -----------
e2e_keys e
e2e_wait_for 'What the rule is for'
e2e_keys Down Down Down Down Down Down Down Down
e2e_wait_for 'Requests in a period that trigger the action'
colleague 'AGAIN BY COLLEAGUE' 'threshold: 66'
e2e_keys C-u
e2e_type 77
n=$(puts)
e2e_keys Enter
e2e_wait_for 'threshold: 66 → 77'
[ "$(puts)" = "$n" ] || e2e_fail "form: a PUT went before the answer"
e2e_keys y
e2e_wait_for 'saved rate-limits'
[ "$(rl_member 'AGAIN BY COLLEAGUE' threshold)" = 77 ] ||
    e2e_fail "form: y did not use yours"

# ---- M, d: the legacy rule disabled as the server has it now ------------
e2e_keys j
e2e_wait_match '^> Public API burst limit'
e2e_keys M
e2e_wait_for 'migrate 1 legacy rate limit'
colleague 'Public API burst limit' 'description: API BY COLLEAGUE'
e2e_keys d
e2e_wait_for 'migration to rate limiting rules: done'
[ "$(rl_member 'API BY COLLEAGUE' disabled)" = true ] ||
    e2e_fail "M d: the legacy rule is not disabled, or its change was lost"
e2e_keys q
e2e_wait_gone 'migration to rate limiting rules'

# ---- t in a live input's outputs: one turned off meanwhile -------------
main=$(e2e_api GET "$STREAM/live_inputs" | grep -oE '"uid":"[0-9a-f]{32}"' |
    head -n 1 | grep -oE '[0-9a-f]{32}')
OUT=$STREAM/live_inputs/$main/outputs
oid=$(e2e_api POST "$OUT" '{"url":"rtmp://a.example/live","streamKey":"k1"}' |
    grep -oE '"uid":"[0-9a-f]{32}"' | grep -oE '[0-9a-f]{32}')
e2e_command live-inputs "^[ >] Main stage +not connected +$main "
e2e_keys p
e2e_wait_match "^> rtmp://a\.example/live +yes .*$oid"
"$EDGETUI" disable live-outputs "$oid" --live-input "$main" >/dev/null
n=$(puts)
e2e_keys t
e2e_wait_for "live-outputs $oid: the server already has these values; nothing was sent"
[ "$(puts)" = "$n" ] || e2e_fail "outputs t: a PUT was sent"

e2e_quit_and_check_sane : q Enter
