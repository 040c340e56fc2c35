#!/bin/bash
# M in the legacy rate-limits panel: two marked rules previewed as rate
# limiting rules for the profile's plan (Pro: the methods and simulate
# warnings shown), q leaves with nothing sent, y adds both to the entry
# point (checked through the Rulesets API, each change journaled), and M
# again with d skips them (their ref is there) and disables the legacy
# rules.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-140}
e2e_init migrate
e2e_edgemu_start --plan pro
RL=/zones/$CLOUDFLARE_ZONE_ID/rate_limits
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint

# Pro holds two rules: an empty entry point leaves room for both.
e2e_api PUT "$EP" '{"rules":[]}' >/dev/null
mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'profiles:\n  default:\n    plan: pro\n' \
    >"$XDG_CONFIG_HOME/edgetui/config.yaml"

# The refs of the entry point's rules, one per line, sorted.
ep_refs() {
	e2e_api GET "$EP" | grep -oE '"ref":"[^"]*"' | cut -d'"' -f4 | sort
}

# Requests of a method to the rulesets that reached edgemu (its -v log).
rs_sent() {
	grep -c " $1 /zones/[0-9a-f]*/rulesets" "$E2E_DIR/edgemu.log" || true
}

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command rl '^ rate-limits \(legacy, deprecated\)  8$'
id1=$(e2e_screen | grep -F "Protect the login form" | grep -oE '[0-9a-f]{32}')
id2=$(e2e_screen | grep -F "Public API burst limit" | grep -oE '[0-9a-f]{32}')
[ -n "$id1" ] && [ -n "$id2" ] || e2e_fail "the two rules' ids are not shown"

# ---- M on the first two rules, marked: the preview and its warnings.
e2e_keys g Space Space
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8  2 marked$'
e2e_keys M
e2e_wait_for "migrate 2 legacy rate limits to rate limiting rules (plan pro)"
e2e_wait_for "# legacy rate limit $id1: Protect the login form"
e2e_assert_contains 'warning: methods "POST" need the Business plan: dropped'
e2e_assert_contains "warning: timeout 900 s snapped to 600 s"
e2e_assert_contains "ref: legacy-$id1"
e2e_assert_contains 'expression: http.host wildcard "www.example.com" and'
e2e_assert_contains "warning: simulate has no equivalent below Enterprise"
e2e_assert_contains "[was simulate] Public API burst limit"
# The keys line is whole at 80 columns.
wide="$E2E_COLS $E2E_ROWS"
e2e_resize 80 24
e2e_wait_for "q cancel  arrows scroll"
e2e_resize $wide
e2e_wait_match '^ edgetui .{90,}budget'

# q: nothing is sent.
posts=$(rs_sent POST)
e2e_keys q
e2e_wait_for "migration: nothing was sent"
[ "$(rs_sent POST)" = "$posts" ] || e2e_fail "q on the preview sent a POST"
[ -z "$(ep_refs)" ] || e2e_fail "q on the preview added rules: $(ep_refs)"

# ---- y: both added, one POST each, the report says where each is.
e2e_keys M
e2e_wait_for "migrate 2 legacy rate limits"
e2e_keys y
e2e_wait_for "migration to rate limiting rules: done"
e2e_assert_contains "legacy $id1: applied (rule "
e2e_assert_contains "legacy $id2: applied (rule "
e2e_assert_contains "2 applied, 0 skipped"
want=$(printf 'legacy-%s\n' "$id1" "$id2" | sort)
[ "$(ep_refs)" = "$want" ] || e2e_fail "the entry point holds: $(ep_refs)"
e2e_wait_log " POST /zones/[0-9a-f]*/rulesets" $((posts + 2))
[ "$(rs_sent POST)" = $((posts + 2)) ] ||
    e2e_fail "$(( $(rs_sent POST) - posts )) POSTs for two rules"
e2e_api GET "$EP" | grep -q '"enabled":false' ||
    e2e_fail "the simulate rule was not created disabled"
grep -c '"method":"POST"' "$XDG_STATE_HOME/edgetui/journal.jsonl" |
    grep -qx 2 || e2e_fail "the two POSTs are not in the journal"
e2e_keys q
e2e_wait_gone "migration to rate limiting rules"

# ---- M again with d: both skipped, the legacy rules disabled.
e2e_keys M
e2e_wait_for "migrate 2 legacy rate limits"
e2e_keys d
e2e_wait_for "0 applied, 2 skipped (already there)"
e2e_assert_contains "legacy $id1: skipped: already in the entry point (rule "
[ "$(rs_sent POST)" = $((posts + 2)) ] || e2e_fail "a re-run sent a POST"
for id in "$id1" "$id2"; do
	e2e_api GET "$RL/$id" | grep -q '"disabled":true' ||
	    e2e_fail "legacy rule $id is still enabled"
done
e2e_keys q
e2e_wait_gone "0 applied, 2 skipped"
# The list, read again, shows them disabled.
e2e_wait_match "Protect the login form.* yes "
e2e_quit_and_check_sane : q Enter

