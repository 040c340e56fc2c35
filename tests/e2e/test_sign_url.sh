#!/bin/bash
# Signed URLs from the console against edgemu: S on a private video opens
# the form; the server's token (the default with no key remembered) gives
# URLs shown with the token shortened, y copies the HLS URL, which opens
# the manifest that the uid alone does not. A new signing key is offered
# to be remembered (0600); S then signs here with it, and an allowed
# address range in the form is what edgemu's delivery checks.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init sign_url
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
ROOT=${CLOUDFLARE_BASE_URL%/client/v4}

# curl_code URL: the HTTP status of a GET without credentials.
curl_code() {
	curl -sS --noproxy '*' --max-time 30 -o "$E2E_DIR/curl.out" \
	    -w '%{http_code}' "$1" || e2e_fail "curl $1 failed"
}

cto=$(e2e_api GET "$STREAM?search=Interview%20with%20the%20CTO" |
    stream_field uid)
[ -n "$cto" ] || e2e_fail "the API does not find the interview"
e2e_api POST "$STREAM/$cto" '{"requireSignedURLs":true}' >/dev/null
code=$(curl_code "$ROOT/media/$cto/manifest/video.m3u8")
[ "$code" = 401 ] || e2e_fail "the private video's manifest by uid: $code"

open_interview() {
	e2e_keys :
	e2e_type videos
	e2e_keys Enter
	e2e_wait_match "^ videos  [0-9]+$"
	e2e_keys /
	e2e_type "Interview with the CTO"
	e2e_keys Enter
	e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
}

e2e_console_start
e2e_wait_match "^ operations  300$"
open_interview

# ---- S with no key remembered: the server's token
e2e_keys S
e2e_wait_for "signed URLs for this video"
e2e_wait_match "^ key +\* < server >"
e2e_wait_match "^ expires +\* +1h"
e2e_keys Enter
e2e_wait_for "Signed URLs for video $cto, valid 60 min."
e2e_wait_for "Signed by the server (the token call)."
e2e_wait_match "^ HLS +$ROOT/media/eyJ[A-Za-z0-9_-]{9}\.\.\./manifest/video\.m3u8"
e2e_keys y
e2e_wait_for "copied the HLS URL to the clipboard (OSC 52)"
url=$(e2e_clipboard)
case $url in
"$ROOT/media/eyJ"*"/manifest/video.m3u8") ;;
*)	e2e_fail "the HLS URL copied is '$url'" ;;
esac
# The whole token is on the clipboard, never on the screen.
token=${url#"$ROOT/media/"}
token=${token%/manifest/video.m3u8}
e2e_assert_not_contains "${token:12:40}"
code=$(curl_code "$url")
[ "$code" = 200 ] || e2e_fail "the signed manifest answered $code"
head -n 1 "$E2E_DIR/curl.out" | grep -qx '#EXTM3U' ||
    e2e_fail "the signed manifest is not HLS"
e2e_keys q
e2e_wait_gone "Signed URLs for video"

# ---- a new signing key, remembered for signing here
e2e_keys :
e2e_type signing-keys
e2e_keys Enter
e2e_wait_match "^ signing-keys  2$"
e2e_keys n
e2e_wait_for "Create a new signing-keys? (y/n)"
e2e_keys y
e2e_wait_for "Remember this key's private half (0600, in the state directory)"
e2e_keys y
# Saved as the answer is read, before the screen that no longer asks.
e2e_wait_gone "Remember this key's private half"
kid=$(grep -oE 'New signing key [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}')
pem=$XDG_STATE_HOME/edgetui/signing-keys/$kid.pem
[ -f "$pem" ] || e2e_fail "no remembered key at $pem"
[ "$(stat -c %a "$pem")" = 600 ] ||
    e2e_fail "the remembered key is mode $(stat -c %a "$pem")"
head -n 1 "$pem" | grep -qx -- '-----BEGIN RSA PRIVATE KEY-----' ||
    e2e_fail "the remembered key is not a PEM"
e2e_wait_match "^ New signing key $kid\.$"
e2e_keys q
e2e_wait_for "This will not be shown again. Close it? (y/n)"
e2e_keys y
e2e_wait_match "^ signing-keys  3$"
e2e_keys :
e2e_type messages
e2e_keys Enter
e2e_wait_for "remembered signing key $kid in "
e2e_keys q
e2e_wait_match "^ signing-keys  3$"

# ---- S signs here with the remembered key, an address range allowed
# The videos list comes back as it was left, filtered.
e2e_keys :
e2e_type videos
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
e2e_keys S
e2e_wait_for "signed URLs for this video"
e2e_wait_match "^ key +\* < $kid >"
e2e_keys Down Down Down
e2e_type "192.0.2.0/24"
e2e_keys Enter
e2e_wait_for "Signed URLs for video $cto, valid 60 min."
e2e_wait_for "Signed here with key $kid, no API request."
e2e_keys y
e2e_wait_for "copied the HLS URL to the clipboard (OSC 52)"
url=$(e2e_clipboard)
code=$(curl_code "$url")
[ "$code" = 403 ] || e2e_fail "a token for 192.0.2.0/24 answered $code here"
grep -q "access rule" "$E2E_DIR/curl.out" ||
    e2e_fail "the refusal does not name the access rule: $(cat "$E2E_DIR/curl.out")"
e2e_keys q
e2e_wait_gone "Signed URLs for video"

e2e_quit_and_check_sane : q Enter
