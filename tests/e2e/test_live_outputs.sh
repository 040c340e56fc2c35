#!/bin/bash
# A live input's outputs (simulcast) from the console: o on a live input
# opens them; n creates one (the stream key typed unseen), t turns it off
# and on, d deletes it. The stream key stays masked in the list and the
# details until x, and never reaches the request log or the journal.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init live_outputs
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
KEY=sk-live-93f1c07e-simulcast-key
main=$(e2e_api GET "$STREAM/live_inputs" | grep -oE '"uid":"[0-9a-f]{32}"' |
    head -n 1 | grep -oE '[0-9a-f]{32}')
OUT=$STREAM/live_inputs/$main/outputs

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command live-inputs "^[ >] Main stage +not connected +$main "
e2e_keys p
e2e_wait_match "^ live-outputs of 'Main stage'  0$"

# n: the key is typed as stars.
e2e_keys n
e2e_wait_for "new live-outputs"
e2e_type rtmp://a.rtmp.youtube.com/live2
e2e_keys Tab
e2e_type "$KEY"
e2e_wait_match "^ streamKey +\* \*{${#KEY}}"
e2e_assert_not_contains "$KEY"
e2e_keys Enter
e2e_wait_match "^created live-outputs [0-9a-f]{32}$"
oid=$(grep -oE '^created live-outputs [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}')
e2e_wait_match "^> rtmp://a\.rtmp\.youtube\.com/live2 +yes +\*{8} +$oid"
e2e_assert_not_contains "$KEY"
e2e_api GET "$OUT" | grep -q "\"streamKey\":\"$KEY\",\"enabled\":true" ||
    e2e_fail "edgemu lacks the output made"

# t: off, then on again.
e2e_keys t
e2e_wait_match "^> rtmp://a\.rtmp\.youtube\.com/live2 +no +\*{8} +$oid"
e2e_api GET "$OUT" | grep -q '"enabled":false' ||
    e2e_fail "edgemu's output is still enabled"
e2e_keys t
e2e_wait_match "^> rtmp://a\.rtmp\.youtube\.com/live2 +yes +\*{8} +$oid"

# Details: masked until x.
e2e_keys Enter
e2e_wait_match '^ streamKey: "\*{8}"$'
e2e_assert_not_contains "$KEY"
e2e_keys q
e2e_wait_match "^ live-outputs of 'Main stage'  1$"

# The request log and the journal hold no key.
e2e_keys L
e2e_wait_match "^ [0-9:]{8}  PUT +200 "
e2e_keys Enter
e2e_wait_for "Response (secrets masked, at most 64 KiB):"
e2e_wait_for "streamKey"
e2e_assert_not_contains "$KEY"
e2e_keys q
e2e_wait_gone "Response (secrets masked"
e2e_keys q
e2e_wait_gone "request log: "
e2e_wait_match "^ live-outputs of 'Main stage'  1$"
if grep -rqF -- "$KEY" "$XDG_STATE_HOME" "$XDG_CONFIG_HOME" \
    "$XDG_CACHE_HOME"; then
	e2e_fail "the stream key is in the console's files"
fi
e2e_keys Enter
e2e_wait_match '^ streamKey: "\*{8}"$'
e2e_keys x
e2e_wait_match "^ streamKey: $KEY$"
e2e_keys q
e2e_wait_match "^ live-outputs of 'Main stage'  1$"

# d: deleted.
e2e_keys d
e2e_wait_for "(y/n)"
e2e_keys y
e2e_wait_for "deleted live-outputs $oid"
e2e_wait_match "^ live-outputs of 'Main stage'  0$"
e2e_api GET "$OUT" | grep -q '"result":\[\]' ||
    e2e_fail "edgemu still has the output"
e2e_quit_and_check_sane : q Enter
