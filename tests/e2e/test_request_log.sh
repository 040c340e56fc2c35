#!/bin/bash
# The request log (L, :log): every request of the session newest first,
# the tus HEAD and PATCH of an upload among them; Enter shows one with its
# answer, the live input's keys and WebRTC publish URL masked; c copies it
# as a curl command that names $CLOUDFLARE_API_TOKEN, never the token.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

# Tall enough for a live input's whole answer on one screen.
E2E_ROWS=90 E2E_COLS=160
e2e_init request_log
e2e_edgemu_start
ACC=/accounts/$CLOUDFLARE_ACCOUNT_ID

# A live input with its secrets, made outside the console.
li=$(e2e_api POST "$ACC/stream/live_inputs" '{"meta":{"name":"log check"}}')
uid=$(grep -oE '"uid":"[0-9a-f]{32}"' <<<"$li" | head -n 1 | cut -d'"' -f4)
publish=$(grep -oE '"url":"[^"]*/webRTC/publish"' <<<"$li" | cut -d'"' -f4)
key=$(grep -oE '"streamKey":"[^"]*"' <<<"$li" | head -n 1 | cut -d'"' -f4)
[ -n "$uid" ] && [ -n "$publish" ] && [ -n "$key" ] ||
    e2e_fail "no live input with secrets: $li"
mkdir "$E2E_DIR/clips"
stream_mp4 "$E2E_DIR/clips/clip.mp4" 2000 4096

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command li "^ live-inputs  [0-9]+$"
e2e_wait_for "log check"
e2e_keys G
e2e_wait_match "^>.*log check"
e2e_keys Enter
e2e_wait_for "$uid"

# L: the newest request first, the GET of the record.
e2e_keys L
e2e_wait_match "^ request log: [0-9]+ requests in this session, newest first"
e2e_wait_match "^ TIME +METHOD +ST +LATENCY +LEFT +PATH"
e2e_wait_match "^ [0-9:]{8}  GET +200 +[0-9]+ ms +[0-9]+  $ACC/stream/live_inputs/$uid$"
e2e_keys Enter
e2e_wait_for "Response (secrets masked, at most 64 KiB):"
e2e_assert_contains '"webRTCPlayback"'
e2e_assert_contains '"streamKey": "[redacted]"'
e2e_assert_contains '"url": "[redacted]"'
e2e_assert_not_contains "$publish"
e2e_assert_not_contains "$key"
e2e_assert_not_contains "$CLOUDFLARE_API_TOKEN"
e2e_assert_contains '-H "Authorization: Bearer $CLOUDFLARE_API_TOKEN"'

# c: the curl command to the clipboard.
e2e_keys c
e2e_wait_for "copied the curl command to the clipboard"
clip=$(e2e_clipboard)
case $clip in
"curl -sS '$CLOUDFLARE_BASE_URL$ACC/stream/live_inputs/$uid' -H \"Authorization: Bearer \$CLOUDFLARE_API_TOKEN\""*) ;;
*) e2e_fail "the clipboard holds: $clip" ;;
esac
case $clip in
*"$CLOUDFLARE_API_TOKEN"*) e2e_fail "the copied command holds the token" ;;
esac
e2e_keys q
e2e_wait_gone "Response (secrets masked"
e2e_keys q
e2e_wait_gone "request log: "

# An upload runs on its own client and connection: its tus create (POST)
# and PATCH are in the same log.
e2e_command videos "^ videos  50$"
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type clips/clip.mp4
e2e_keys Enter
e2e_wait_for "name of the video"
e2e_keys Enter
e2e_wait_match "uploaded clip\.mp4: video [0-9a-f]{32}"
e2e_command log "^ request log: "
e2e_wait_match "  PATCH +204 +[0-9]+ ms +[0-9]+  http://127\.0\.0\.1:[0-9]+/"
e2e_wait_match "  POST +201 +[0-9]+ ms +[0-9]+  $ACC/stream$"
e2e_keys q
e2e_wait_gone "request log: "
e2e_quit_and_check_sane : q Enter
