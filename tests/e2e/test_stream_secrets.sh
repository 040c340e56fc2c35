#!/bin/bash
# Secrets in the Stream panels, from the console against edgemu: a live
# input's stream key masked in its details until x; a new signing key's
# PEM shown once (closing asks; w saves it 0600 as a PEM file, then the
# JWK), never again in its details nor in the list, and its delete
# warning; the webhook edited, its secret masked, then deleted; the
# storage usage; a watermark made from a PNG. The API is asked what the
# server holds.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init stream_secrets
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
stream_png "$E2E_DIR/stamp.png"

# open_kind KIND TITLE-REGEX: KIND through the : command line.
open_kind() {
	e2e_keys :
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait_match "$2"
}

e2e_console_start
e2e_wait_match "^ operations  300$"

# ---- a live input's stream key: masked, revealed by x, masked again
inputs=$(e2e_api GET "$STREAM/live_inputs")
main=$(grep -oE '"uid":"[0-9a-f]{32}"' <<<"$inputs" | head -n 1 |
    grep -oE '[0-9a-f]{32}')
key=$(e2e_api GET "$STREAM/live_inputs/$main" | stream_field streamKey)
[ "${#key}" -ge 32 ] || e2e_fail "live input $main has no stream key"
open_kind live-inputs "^ live-inputs  3$"
# The connection status shows: none yet on edgemu.
e2e_wait_match "^[ >] Main stage +not connected +$main "
e2e_keys Enter
e2e_wait_match "^ live-inputs  3  >  live-inputs $main$"
e2e_wait_match '^[ >]  streamKey: "\*{8}"$'
e2e_assert_not_contains "$key"
e2e_keys x
e2e_wait_for "   streamKey: $key"
e2e_keys q
e2e_wait_match "^ live-inputs  3$"
e2e_keys Enter
e2e_wait_match "^ live-inputs  3  >  live-inputs $main$"
e2e_wait_match '^[ >]  streamKey: "\*{8}"$'
e2e_assert_not_contains "$key"
e2e_keys q
e2e_wait_match "^ live-inputs  3$"

# ---- signing keys: the PEM shown once
open_kind signing-keys "^ signing-keys  2$"
e2e_keys n
e2e_wait_for "Create a new signing-keys? (y/n)"
e2e_keys y
# Not remembered for signing here (test_sign_url.sh says yes).
e2e_wait_for "Remember this key's private half"
e2e_keys n
e2e_wait_gone "Remember this key's private half"
e2e_wait_match "^ signing key \(shown once\)$"
e2e_wait_match "^ New signing key [0-9a-f]{32}\.$"
kid=$(grep -oE 'New signing key [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}')
e2e_assert_contains "q close: shown only this once"
# q asks first; n keeps it on screen.
e2e_keys q
e2e_wait_for "This will not be shown again. Close it? (y/n)"
e2e_keys n
e2e_wait_gone "This will not be shown again."
# w saves the PEM as a PEM file, 0600, under a name offered (typing
# replaces it; ~/ is the home directory); w again saves the JWK as JSON.
e2e_keys w
e2e_wait_for "save the PEM to the file (created 0600; never overwritten)"
e2e_wait_for "~/signing-key-$kid.pem"
e2e_type "~/signing.pem"
e2e_keys Enter
e2e_wait_for "saved the PEM (mode 0600) to $HOME/signing.pem"
[ "$(stat -c %a "$HOME/signing.pem")" = 600 ] ||
    e2e_fail "the saved PEM is mode $(stat -c %a "$HOME/signing.pem")"
head -n 1 "$HOME/signing.pem" |
    grep -qE -- '^-----BEGIN [A-Z ]*PRIVATE KEY-----$' ||
    e2e_fail "the file saved is not a PEM: $(head -c 80 "$HOME/signing.pem")"
tail -n 1 "$HOME/signing.pem" | grep -qE -- '^-----END [A-Z ]*PRIVATE KEY-----$' ||
    e2e_fail "the PEM saved does not end with its END line"
if command -v openssl >/dev/null 2>&1; then
	openssl pkey -in "$HOME/signing.pem" -noout ||
	    e2e_fail "openssl does not read the PEM saved"
fi
pem=$(sed -n 2p "$HOME/signing.pem")
[ "${#pem}" -eq 64 ] || e2e_fail "the PEM's first base64 line: '$pem'"
e2e_assert_contains " $pem"
e2e_keys j
e2e_wait_for " y copy  w save the JWK (0600)  q close: shown only this once"
e2e_keys w
e2e_wait_for "save the JWK to the file (created 0600; never overwritten)"
e2e_wait_for "~/signing-key-$kid.jwk.json"
e2e_keys Enter
e2e_wait_for "saved the JWK (mode 0600) to $HOME/signing-key-$kid.jwk.json"
grep -q "\"kid\":\"$kid\"" "$HOME/signing-key-$kid.jwk.json" ||
    e2e_fail "the JWK saved is not the key's: $(head -c 80 \
    "$HOME/signing-key-$kid.jwk.json")"
# Saved: q closes without asking.
e2e_keys q
e2e_wait_match "^ signing-keys  3$"
e2e_assert_not_contains "This will not be shown again."

# Its details and the list have no PEM.
e2e_keys G
e2e_wait_match "^[ >] $kid "
e2e_keys Enter
e2e_wait_match "^ signing-keys  3  >  signing-keys $kid$"
e2e_wait_match "^ id: $kid$"
e2e_assert_not_contains "${pem:0:40}"
e2e_assert_not_contains "pem:"
e2e_assert_not_contains "jwk:"
e2e_keys q
e2e_wait_match "^ signing-keys  3$"
keys=$(e2e_api GET "$STREAM/keys")
grep -q "\"id\":\"$kid\"" <<<"$keys" || e2e_fail "the API lacks key $kid: $keys"
if grep -qE '"(pem|jwk)":' <<<"$keys"; then
	e2e_fail "the list of keys holds a private key: $keys"
fi

# A second key: q asks, y closes it unsaved.
e2e_keys n
e2e_wait_for "Create a new signing-keys? (y/n)"
e2e_keys y
e2e_wait_for "Remember this key's private half"
e2e_keys n
e2e_wait_gone "Remember this key's private half"
e2e_wait_match "^ New signing key [0-9a-f]{32}\.$"
e2e_keys q
e2e_wait_for "This will not be shown again. Close it? (y/n)"
e2e_keys y
e2e_wait_match "^ signing-keys  4$"

# Deleting the first new one (picked by the filter) warns about the URLs
# signed with it.
e2e_keys /
e2e_type "$kid"
e2e_wait_match "^ signing-keys  1 of 4  /$kid$"
e2e_keys Enter
e2e_wait_match "^[ >] $kid "
e2e_keys d
e2e_wait_for "Delete signing key $kid?"
e2e_wait_for "Every URL signed with it stops working. (y/n)"
e2e_keys y
e2e_wait_for "deleted signing-keys $kid"
e2e_wait_match "^ signing-keys  0 of 3  /$kid$"
if e2e_api GET "$STREAM/keys" | grep -q "\"id\":\"$kid\""; then
	e2e_fail "key $kid is still on the server"
fi

# ---- the webhook: edited, its secret masked, deleted
secret=$(e2e_api GET "$STREAM/webhook" | stream_field secret)
[ "${#secret}" -ge 16 ] || e2e_fail "the demo webhook has no secret"
open_kind webhook "^ webhook$"
e2e_wait_match "^ notificationUrl: https://"
e2e_wait_match '^ secret: "\*{8}"$'
e2e_assert_not_contains "$secret"
e2e_keys e
e2e_wait_for "edit webhook"
e2e_wait_match "^ notificationUrl +\*"
e2e_keys C-u
e2e_type https://example.com/hook
e2e_keys Enter
e2e_wait_for "saved webhook"
e2e_wait_match "^ notificationUrl: https://example\.com/hook$"
e2e_wait_match '^ secret: "\*{8}"$'
e2e_assert_not_contains "$secret"
[ "$(e2e_api GET "$STREAM/webhook" | stream_field notificationUrl)" = \
    https://example.com/hook ] || e2e_fail "the API has not the new URL"
e2e_keys d
e2e_wait_for "Delete the webhook? (y/n)"
e2e_keys y
e2e_wait_match "^deleted webhook *$"
if body=$(e2e_api GET "$STREAM/webhook" 2>/dev/null) &&
    grep -q '"notificationUrl"' <<<"$body"; then
	e2e_fail "the webhook is still on the server: $body"
fi
[ "$(e2e_api_status)" = 404 ] || [ "$(e2e_api_status)" = 200 ] ||
    e2e_fail "GET webhook after the delete: HTTP $(e2e_api_status)"

# ---- storage usage
videos=$(e2e_api GET "$STREAM/storage-usage" | stream_number videoCount)
open_kind storage-usage "^ storage-usage$"
e2e_wait_match "^[ >] Minutes stored: [0-9]+ of [0-9]+ \([0-9]+%\)$"
e2e_wait_match "^[ >] \[[#.]+\]$"
e2e_wait_match "^[ >] Videos: $videos$"

# ---- a watermark from a PNG, with a name and an opacity
open_kind watermarks "^ watermarks  2$"
e2e_keys n
e2e_wait_for "The image to upload (PNG, JPEG, GIF or WebP)"
e2e_type sta
e2e_keys Tab
e2e_wait_for "stamp.png"
e2e_keys Enter
e2e_wait_for "new watermarks from stamp.png"
e2e_wait_match "^ name$"
e2e_type "Test stamp"
e2e_keys Tab
e2e_wait_match "^ opacity$"
e2e_type 0.5
e2e_keys Enter
e2e_wait_match "^created watermarks [0-9a-f]{32}$"
wid=$(grep -oE '^created watermarks [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}')
e2e_wait_match "^ watermarks  3$"
e2e_wait_match "^[ >] Test stamp +[a-zA-Z]+ +0\.5 .* 75 B "
mark=$(e2e_api GET "$STREAM/watermarks/$wid")
[ "$(stream_field name <<<"$mark")" = "Test stamp" ] &&
    [ "$(stream_number opacity <<<"$mark")" = 0.5 ] &&
    [ "$(stream_number size <<<"$mark")" = 75 ] ||
    e2e_fail "the API's watermark $wid is not the one made: $mark"

e2e_quit_and_check_sane : q Enter
