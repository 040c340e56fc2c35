#!/bin/bash
# The rule form's keys as in every form: n and e open on the description,
# where what is typed goes (k, Space and capitals included); Enter moves
# on from a text field; Enter on a yes/no field opens its list rather than
# flipping it unseen, Space and y/n change it on screen; ? shows the
# form's keys. 80x24.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init rule_form_typing
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  6$'

# ---- n: every letter typed lands in the description.
e2e_keys n
e2e_wait_for "new rate limiting rule"
e2e_type "API key brute force"
e2e_wait_match '^ description +API key brute force *$'
e2e_wait_for "type to edit"
e2e_type " Search jklq"
e2e_wait_match '^ description +API key brute force Search jklq *$'
e2e_assert_contains "new rate limiting rule"

# ---- Enter goes on to the action, Down to enabled; Enter there lists
# yes and no, and leaves it as it was.
e2e_keys Enter
e2e_wait_for "What happens to a client over the rate"
e2e_keys Down
e2e_wait_for "Whether the rule applies"
e2e_keys Enter
e2e_wait_match 'x no +x'
e2e_keys Escape
e2e_wait_gone 'x no '
e2e_wait_match '^ enabled +yes *$'
e2e_keys Space
e2e_wait_match '^ enabled +no *$'
e2e_keys y
e2e_wait_match '^ enabled +yes *$'

# ---- ?: the form's keys.
e2e_keys '?'
e2e_wait_for "keys of the rate limiting rule form"
e2e_wait_for "typing edits it"
e2e_keys q
e2e_wait_gone "keys of the rate limiting rule form"
e2e_wait_for "new rate limiting rule"
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
e2e_keys y
e2e_wait_gone "new rate limiting rule"

# ---- e: the same first field, edited at once.
e2e_wait_match '^> 1 +Login form'
e2e_keys e
e2e_wait_for "edit rate limiting rule "
e2e_type " now"
e2e_wait_match '^ description +Login form: block credential stuffing now *$'
e2e_wait_for "type to edit"
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
e2e_keys y
e2e_wait_gone "edit rate limiting rule "
e2e_quit_and_check_sane : q Enter
