#!/bin/bash
# The rules tester at 80x24: a rule's expression, longer than what is left
# of the row, ends with "…" (Enter explains the rule whole) rather than
# being cut mid-word as if it were whole ("starts_wit").
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init rules_tester_narrow
e2e_edgemu_start

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_keys :
e2e_type test
e2e_keys Enter
e2e_wait_for "Enter tests the request"
e2e_type https://example.com/search
e2e_keys Enter
e2e_wait_match '^ +3 +ACTS FIRST +js_challenge +Search scrapers +starts_wi…$'
e2e_wait_match '^ +1 +no match +block +Login form: .* +http\.requ…$'
e2e_assert_not_contains 'starts_wit '
e2e_keys q
e2e_wait_gone "rules tester:"
e2e_quit_and_check_sane q
