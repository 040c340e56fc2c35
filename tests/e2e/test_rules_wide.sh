#!/bin/bash
# The rules list's columns by priority: at 200 columns the descriptions
# and the expressions whole, the timeout and characteristics, no id beside
# them; at 80x24 the description whole and the expression, nothing else.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=200 E2E_ROWS=50
e2e_init rules_wide
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_wait_match '^> 1   Login form: block credential stuffing +block +5/60s +600 +yes +cf\.colo\.id,ip\.… http\.request\.uri\.path eq "/login" and http\.'
e2e_wait_match '^  6   Password reset: count failures only +block +5/600s +3600 +yes +cf\.colo\.id,ip\.… http\.request\.uri\.path eq "/account/reset-password"$'
e2e_wait_match '^  #   DESCRIPTION +ACTION +RATE +TIMEOUT +ENABLED +CHARACTERISTICS +EXPRESSION$'

e2e_resize 80 24
e2e_wait_match '^> 1   Login form: block credential stuffing +http\.request\.uri\.path eq "/logi…$'
e2e_wait_match '^  #   DESCRIPTION +EXPRESSION$'

e2e_resize 200 50
e2e_wait_match '^  5   Version 2 API traffic \(observing\) +log '
e2e_quit_and_check_sane : q Enter
