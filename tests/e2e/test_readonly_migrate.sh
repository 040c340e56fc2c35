#!/bin/bash
# M in the rate-limits list of a read-only console previews the migration
# but its last line offers no y or d (which read-only refuses), saying it
# is a preview; a console that may change offers them.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init readonly_migrate
e2e_edgemu_start

preview() {
	e2e_wait_match "^ operations  300$"
	e2e_keys :
	e2e_type rl
	e2e_keys Enter
	e2e_wait_match "^ rate-limits \(legacy, deprecated\)  8$"
	e2e_keys M
	e2e_wait_match "^ migrate 1 legacy rate limit"
}

e2e_console_start
preview
e2e_wait_match "^ y add them  d add them, disable the legacy rules  q cancel"
e2e_keys q
e2e_wait_for "migration: nothing was sent"
e2e_quit_and_check_sane q q

e2e_console_start --readonly
preview
e2e_wait_match "^ read-only: a preview, nothing can be added  q close  arrows scroll$"
e2e_assert_not_contains "y add them"
e2e_keys y
e2e_wait_for "read-only: migrate refused (--readonly); nothing was sent"
e2e_quit_and_check_sane q q
