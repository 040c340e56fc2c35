#!/bin/bash
# Signed URLs from the console against edgemu: S on a private video opens
# the form; the server's token (the default with no key remembered) gives
# URLs shown with the token shortened, y asks which to copy: the HLS URL,
# which opens the manifest that the uid alone does not, the DASH and
# thumbnail URLs, the token alone. A new signing key is offered to be
# remembered (0600, for this server and account); S then signs here with
# it, an allowed address range in the form is what edgemu's delivery
# checks, and a downloadable token offers the MP4 download's URL.
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
# Its MP4 download, for the downloadable token at the end.
e2e_api POST "$STREAM/$cto/downloads" >/dev/null

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

# A key remembered the old way, by id alone (signing-keys/ID.pem): offered
# in the form, never its default, since its account is not known.
OLDKID=00112233445566778899aabbccddeeff
mkdir -p -m 0700 "$XDG_STATE_HOME/edgetui/signing-keys"
printf '%s\n' '-----BEGIN RSA PRIVATE KEY-----' 'AAAA' \
    '-----END RSA PRIVATE KEY-----' \
    >"$XDG_STATE_HOME/edgetui/signing-keys/$OLDKID.pem"
chmod 600 "$XDG_STATE_HOME/edgetui/signing-keys/$OLDKID.pem"

e2e_console_start
e2e_wait_match "^ operations  300$"
open_interview

# ---- K with no key of this account remembered: the server's token
e2e_keys K
e2e_wait_for "signed URLs for this video"
e2e_wait_match "^ key +\* < server >"
# The key's help is whole at 80 columns too, the remembered ids with it.
e2e_resize 80 24
e2e_wait_for "no request (this account's first); one of: server,"
e2e_wait_match "^ $OLDKID *$"
e2e_resize 120 40
e2e_keys Right
e2e_wait_match "^ key +\* < $OLDKID >"
e2e_keys Left
e2e_wait_match "^ key +\* < server >"
e2e_wait_match "^ expires +\* +1h"
e2e_keys Enter
e2e_wait_for "Signed URLs for video $cto, valid 60 min."
e2e_wait_for "Signed by the server (the token call)."
e2e_wait_match "^ HLS +$ROOT/media/eyJ[A-Za-z0-9_-]{9}\.\.\./manifest/video\.m3u8"
e2e_assert_not_contains "download "
# y asks which: the URLs (HLS first), then the token alone.
e2e_keys y
e2e_wait_for "copy to the clipboard"
e2e_wait_for "the DASH URL"
e2e_wait_for "the player URL"
e2e_assert_not_contains "the MP4 download URL"
e2e_keys Enter
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
# copy_pick KEYS WHAT: y, the picker's KEYS, Enter: WHAT is on the clipboard.
copy_pick() {
	e2e_keys y
	e2e_wait_for "copy to the clipboard"
	# shellcheck disable=SC2086
	[ -z "$1" ] || e2e_keys $1
	e2e_keys Enter
	e2e_wait_for "copied $2 to the clipboard (OSC 52)"
	e2e_wait_gone "copy to the clipboard"
}
copy_pick j "the DASH URL"
url=$(e2e_clipboard)
[ "$url" = "$ROOT/media/$token/manifest/video.mpd" ] ||
    e2e_fail "the DASH URL copied is '$url'"
code=$(curl_code "$url")
[ "$code" = 200 ] || e2e_fail "the signed DASH manifest answered $code"
copy_pick "j j" "the thumbnail URL"
url=$(e2e_clipboard)
case $url in
"$ROOT/media/$token/"*) ;;
*)	e2e_fail "the thumbnail URL copied is '$url'" ;;
esac
code=$(curl_code "$url")
[ "$code" = 200 ] || e2e_fail "the signed thumbnail answered $code"
copy_pick G "the token"
[ "$(e2e_clipboard)" = "$token" ] ||
    e2e_fail "the token copied is '$(e2e_clipboard)', not the URLs' '$token'"
e2e_keys q
e2e_wait_gone "Signed URLs for video"

# ---- a new signing key, remembered for signing here
e2e_command signing-keys "^ signing-keys  2$"
e2e_keys n
e2e_wait_for "Create a new signing key? (y/n)"
e2e_keys y
e2e_wait_for "Remember this key's private half (0600, in the state directory)"
e2e_keys y
# Saved as the answer is read, before the screen that no longer asks.
e2e_wait_gone "Remember this key's private half"
kid=$(grep -oE 'New signing key [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}')
# Kept for this server and account: signing-keys/OWNER/ID.pem.
pem=$(find "$XDG_STATE_HOME/edgetui/signing-keys" -mindepth 2 -maxdepth 2 \
    -name "$kid.pem")
[ -f "$pem" ] || e2e_fail "no remembered key under signing-keys/*/"
grep -qx "account $CLOUDFLARE_ACCOUNT_ID" "$(dirname "$pem")/owner" ||
    e2e_fail "the key's owner file does not name the account"
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

# ---- K signs here with the remembered key, an address range allowed
# The videos list comes back as it was left, filtered.
e2e_command videos "^ videos  1 of 1  /Interview with the CTO$"
e2e_keys K
e2e_wait_for "signed URLs for this video"
e2e_wait_match "^ key +\* < $kid >"
e2e_keys Down Down Down
e2e_type "192.0.2.0/24"
e2e_keys Enter
e2e_wait_for "Signed URLs for video $cto, valid 60 min."
e2e_wait_for "Signed here with key $kid, no API request."
copy_pick "" "the HLS URL"
url=$(e2e_clipboard)
code=$(curl_code "$url")
[ "$code" = 403 ] || e2e_fail "a token for 192.0.2.0/24 answered $code here"
grep -q "access rule" "$E2E_DIR/curl.out" ||
    e2e_fail "the refusal does not name the access rule: $(cat "$E2E_DIR/curl.out")"
e2e_keys q
e2e_wait_gone "Signed URLs for video"

# ---- downloadable: the MP4 download is offered, right after HLS
e2e_keys K
e2e_wait_for "signed URLs for this video"
e2e_wait_match "^ key +\* < $kid >"
e2e_keys Down Down Space
e2e_keys Enter
e2e_wait_for "Signed here with key $kid, no API request."
e2e_wait_match "^ download +$ROOT/media/eyJ[A-Za-z0-9_-]{9}\.\.\./downloads/default\.mp4"
copy_pick j "the MP4 download URL"
url=$(e2e_clipboard)
case $url in
"$ROOT/media/eyJ"*"/downloads/default.mp4") ;;
*)	e2e_fail "the MP4 download URL copied is '$url'" ;;
esac
# The MP4 made at the start: served for this token once it is ready.
e2e_wait_api "$STREAM/$cto/downloads" '"status":"ready"' 20
code=$(curl_code "$url")
[ "$code" = 200 ] || e2e_fail "the signed download answered $code"
[ "$(head -c 8 "$E2E_DIR/curl.out" | tail -c 4)" = ftyp ] ||
    e2e_fail "the signed download is not an MP4"
e2e_keys q
e2e_wait_gone "Signed URLs for video"

e2e_quit_and_check_sane : q Enter
