#!/bin/bash
# The request log at 80x24 against a server that cannot be reached: a
# retried request's notes ("(transport failure)  (attempt 2)") do not fit
# past the path; the one that does not fit whole gives way to "…" rather
# than being cut mid-word ("(att"), and Enter still shows the entry whole.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init request_log_down
export CLOUDFLARE_BASE_URL=http://127.0.0.1:9/client/v4
export CLOUDFLARE_API_TOKEN=0123456789abcdef0123456789abcdef
export CLOUDFLARE_ACCOUNT_ID=e1d9a0c6b3f24e7a9c5d8b2f4a6e0c31
export CLOUDFLARE_ZONE_ID=7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40
ROW='^ [0-9:]{8}  GET +- +[0-9]+ ms +[0-9]+  '

e2e_console_start
e2e_wait_match '^ operations  0$'
e2e_wait_for "attempts)"
e2e_command log "^ request log: 3 requests in this session"
e2e_wait_match "${ROW}…/operations\\?page…  \\(transport failure\\)$"
e2e_wait_count "\\(transport failure\\) …$" 2
e2e_wait_match "${ROW}…/operations\\?pa…  \\(transport failure\\) …$"
e2e_assert_not_contains "(att"

# Enter on the newest, the last attempt: its notes whole.
e2e_keys Enter
e2e_wait_for "attempt 3"
e2e_keys q
e2e_wait_match "^ request log: "
e2e_quit_and_check_sane q : q Enter
