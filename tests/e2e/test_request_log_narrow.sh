#!/bin/bash
# The request log at 80x24: a long path loses its ids' digits, then its
# middle, so its tail (what tells one request from another) shows: the
# rules' entry point reads ".../phases/http_ratelimit/entrypoint", not
# "/zones/<32 digits>/rul". Enter still shows the path whole; at 200
# columns the rows are whole again.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init request_log_narrow
e2e_edgemu_start
ZONE=$CLOUDFLARE_ZONE_ID
ACC=$CLOUDFLARE_ACCOUNT_ID
ROW='^ [0-9:]{8}  GET +200 +[0-9]+ ms +[0-9]+  '

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command li '^ live-inputs  [0-9]+$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_command log "^ request log: 4 requests in this session, newest first"
e2e_wait_match "${ROW}…/phases/http_ratelimit/entrypoint$"
e2e_wait_match "${ROW}/accounts/${ACC:0:4}…/stream/live_inputs(\\?|$)"
e2e_wait_match "${ROW}/zones/${ZONE:0:4}…/…/settings/operations\\?per…$"
e2e_wait_match "${ROW}/zones/${ZONE:0:4}…/api_gateway/operations\\?pa…$"
e2e_assert_not_contains "$ZONE"

# Enter on the newest, the entry point's: the request whole.
e2e_keys Enter
e2e_wait_for "request 4: GET /zones/$ZONE/rulesets/phases/http_rat"
# Wrapped after a '/': "entrypoint" whole on the next row.
e2e_wait_match "^ +/zones/$ZONE/rulesets/phases/http_ratelimit/$"
e2e_wait_match "^ +entrypoint$"
e2e_keys q
e2e_wait_match "^ request log: "

e2e_resize 200 50
e2e_wait_match "${ROW}/zones/$ZONE/rulesets/phases/http_ratelimit/entrypoint$"
e2e_quit_and_check_sane q : q Enter
