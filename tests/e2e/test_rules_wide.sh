#!/bin/bash
# The rules list's DESCRIPTION grows on a wide screen: at 200 columns the
# demo's descriptions show whole and the expression still has room; at
# 80x24 the columns are as they always were (DESCRIPTION 18, cut).
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=200 E2E_ROWS=50
e2e_init rules_wide
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_wait_match '^> 1   Login form: block credential stuffing +block +5/60s +600 +yes +cf\.colo\.id,ip\.… http\.request\.uri\.path eq "/login" and http\.'
e2e_wait_match '^  6   Password reset: count failures only +block +5/600s +3600 +yes .* [0-9a-f]{32}$'

e2e_resize 80 24
e2e_wait_match '^> 1   Login form: block… block +5/60s +600 +yes$'
e2e_wait_match '^  #   DESCRIPTION        ACTION            RATE      TIMEOUT  ENABLED$'

e2e_resize 200 50
e2e_wait_match '^  5   Version 2 API traffic \(observing\) +log '
e2e_quit_and_check_sane : q Enter
