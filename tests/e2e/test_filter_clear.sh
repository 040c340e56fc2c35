#!/bin/bash
# Clearing a filter takes one key: Esc on the filtered list (which stays
# open), or Backspace over the filter's text reopened with /, selected.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init filter_clear
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- Esc on the filtered list.
e2e_keys /
e2e_type "orders"
e2e_keys Enter
e2e_wait_match '^ operations  [0-9]+ of [0-9]+  /orders$'
e2e_keys Escape
e2e_wait_match '^ operations  300$'
e2e_wait_for "filter cleared"
e2e_assert_not_contains "nothing to go back to"

# ---- / reopens it selected: Backspace clears it whole.
e2e_keys /
e2e_type "users"
e2e_keys Enter
e2e_wait_match '^ operations  [0-9]+ of [0-9]+  /users$'
e2e_keys /
e2e_wait_match '^/users'
e2e_keys BSpace
e2e_wait_match '^ operations  [0-9]+$'
e2e_wait_match '^/ *$'
# Enter asks the server again without the filter.
e2e_keys Enter
e2e_wait_match '^ operations  300$'
# Not selected any more: Backspace edits again.
e2e_keys /
e2e_type "sessions"
e2e_keys Left BSpace
e2e_wait_match '^/sessios'
e2e_keys Escape
e2e_wait_match '^ operations  300$'

# ---- Esc on a list whose server filters its text: asked again.
e2e_command videos '^ videos  50$'
e2e_keys /
e2e_type "Interview"
e2e_keys Enter
e2e_wait_match '^ videos  1 of 1  /Interview$'
e2e_keys Escape
e2e_wait_match '^ videos  50$'
e2e_quit_and_check_sane : q Enter
