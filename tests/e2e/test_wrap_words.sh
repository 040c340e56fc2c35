#!/bin/bash
# Long text wraps between words at 80 columns: the expression editor after
# a space (a field's name is never split over two rows), the signed URLs
# after a '/' (the thumbnail's file name stays whole).
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init wrap_words
e2e_edgemu_start
e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- the expression editor: 78 columns of text a row.
e2e_command rules '^ rate-limit-rules  6$'
e2e_keys n
e2e_wait_for "new rate limiting rule"
e2e_keys Up Enter
e2e_wait_for "expression of a new rate limiting rule"
e2e_type 'http.request.method eq "POST" and http.host eq "shop.example.com" and http.request.uri.path wildcard r"/api/*"'
e2e_wait_for "valid (language only"
e2e_wait_match '^ http\.request\.method eq "POST" and http\.host eq "shop\.example\.com" and *$'
e2e_wait_match '^ http\.request\.uri\.path wildcard r"/api/\*" *$'
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
e2e_keys y
e2e_wait_gone "new rate limiting rule"

# ---- the signed URLs: the thumbnail's URL goes on after "thumbnails/".
e2e_command videos '^ videos  50$'
e2e_keys /
e2e_type "Annual report"
e2e_keys Enter
e2e_wait_match '^> Annual report video\.mp4'
e2e_keys K
e2e_wait_for "signed URLs for this video"
e2e_keys Enter
e2e_wait_for "Signed URLs for video"
e2e_wait_match '^ thumbnail +http://.*/thumbnails/$'
e2e_wait_match '^ +thumbnail\.jpg$'
e2e_keys q
e2e_wait_gone "Signed URLs for video"
e2e_quit_and_check_sane : q Enter
