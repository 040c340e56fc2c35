#!/bin/bash
# The console says which area a list is in: the first list names its own
# and where the others are (rate limiting rules first, not the legacy
# API), until the first command; the legacy rate limits list and its
# form say the cloud has retired that API. At 80 columns the discovered
# operations keep a column of their traffic, and their details offer no
# edit.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init areas
e2e_edgemu_start
E2E_COLS=80 E2E_ROWS=24
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_wait_match "^ API Shield endpoint management: the zone's saved operations\.$"
e2e_wait_match '^ :rules rate limiting  :videos Stream$'
e2e_wait_match '^ \? help  :rules :videos …  / filter'
e2e_assert_not_contains ':rl'

# The legacy list: its title, and the form's note.
e2e_command rl '^ rate-limits \(legacy, deprecated\)  8$'
e2e_assert_not_contains "API Shield endpoint management"
e2e_keys n
e2e_wait_for "new rate-limits"
e2e_wait_match '^ Legacy API, retired on the cloud \(HTTP 410 Gone\): :rules replaces it\.$'
e2e_keys Escape
e2e_wait_gone "new rate-limits"

# Back on the first list, after a command: no more introduction.
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_assert_not_contains "API Shield endpoint management"
e2e_wait_match '^ \? help  : command  / filter'

# At 80 columns the discovered operations show their traffic per hour.
e2e_command dops '^ discovered-operations  40$'
e2e_wait_match '^  METHOD  HOST +ENDPOINT +STATE +REQ/H$'
e2e_wait_match '^> POST +api\.example\.com +/v1/users/\{var1\}/addresses +saved +2050$'
# Its details offer no edit: the state changes from the list.
e2e_keys Enter
e2e_wait_match '^ state: saved$'
e2e_wait_match '^ q back  / find '
e2e_assert_not_contains "e edit"
e2e_assert_not_contains "E yaml"
e2e_keys q
e2e_wait_match '^ discovered-operations  40$'
e2e_keys q
e2e_wait_match '^ operations  300$'

# The one-shot kinds list names what replaces the legacy API.
"$EDGETUI" kinds | grep -E '^rate-limits .*\(deprecated: use rate-limit-rules\)$' >/dev/null ||
    e2e_fail "edgetui kinds does not mark rate-limits deprecated"

e2e_quit_and_check_sane q
