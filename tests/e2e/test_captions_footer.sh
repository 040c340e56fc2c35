#!/bin/bash
# The captions list's footer at 80x24 names Enter once, for what it does
# there (the VTT), not also as the lists' "details".
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init captions_footer
e2e_edgemu_start

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command videos '^ videos  50$'
e2e_keys /
e2e_type "Annual report"
e2e_keys Enter
e2e_wait_match '^> Annual report video\.mp4'
e2e_keys c
e2e_wait_for "captions of 'Annual report video.mp4'"
e2e_wait_for "Enter VTT"
e2e_assert_not_contains "Enter details"
e2e_keys q
e2e_wait_match '^> Annual report video\.mp4'
e2e_wait_for "Enter details"
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_quit_and_check_sane q
