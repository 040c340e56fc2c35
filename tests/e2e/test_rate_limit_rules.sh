#!/bin/bash
# The rate-limit-rules panel (:rules): Enter shows a rule from the list
# without a fetch by id (the id alone names no rule: the entry point's id
# is needed too), with nothing sent and no broken path in an error (n, e
# and E: test_rule_form.sh; moves, toggles, deletes and versions:
# test_rules_panel.sh).
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init rate_limit_rules
e2e_edgemu_start

# Changing requests to the rulesets that reached edgemu (its -v log).
rs_changes() {
	grep -cE " (POST|PUT|PATCH|DELETE) /zones/[0-9a-f]*/rulesets" \
	    "$E2E_DIR/edgemu.log" || true
}

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  [0-9]+$'
e2e_wait_match '^> 1   Login form'

e2e_keys Enter
e2e_wait_match '^ id: [0-9a-f]{32}$'
e2e_wait_match '^ description: "Login form'
e2e_assert_not_contains "no value for"
e2e_keys q
e2e_wait_match '^ rate-limit-rules  [0-9]+$'
[ "$(rs_changes)" = 0 ] || e2e_fail "a change reached the rulesets API"

e2e_quit_and_check_sane : q Enter
