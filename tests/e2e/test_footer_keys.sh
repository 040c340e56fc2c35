#!/bin/bash
# What a list offers is in its footer and help: the rules list names C-t
# (the tester); the videos list tells U's one-time URL apart from L's
# upload from a URL and shows both, with C and S, in 120 columns; the help
# says D asks which download (MP4 or M4A).
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init footer_keys
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'

e2e_command rules '^ rate-limit-rules  [0-9]+$'
e2e_wait_match '^ \? help .*  C-t test'

e2e_command videos '^ videos  [0-9]+'
# The keys only videos have come first: the footer drops what does not fit.
e2e_wait_match '^ \? help .*  f from URL  U one-time URL  D download  C clip  K sign URL'
e2e_assert_not_contains 'U upload URL'

e2e_keys '?'
e2e_wait_for ' help'
e2e_keys /
e2e_type 'D          download'
e2e_keys Enter
e2e_wait_match 'download +request a download \(asks: MP4 or audio M4A\)'
e2e_keys q
e2e_wait_match '^ videos  [0-9]+'

e2e_quit_and_check_sane : q Enter
