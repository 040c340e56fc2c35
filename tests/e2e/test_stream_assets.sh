#!/bin/bash
# What hangs off Stream videos, from the console against edgemu: a direct
# upload URL made with U (shown once, y copies it) that takes one POST of
# a file without credentials and refuses a second; D asking for a ready
# video's MP4 until the status line gives its URL, which serves the file;
# a video's audio tracks (a): two copied from URLs with n, one deleted
# with d, q back to the videos. The API is asked what the server holds.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init stream_assets
e2e_edgemu_start --processing-seconds 1
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
ROOT=${CLOUDFLARE_BASE_URL%/client/v4}
stream_mp4 "$E2E_DIR/clip.mp4" 3000 2048

# curl_code ARGS...: the HTTP status of a request without credentials.
curl_code() {
	curl -sS --noproxy '*' --max-time 30 -o "$E2E_DIR/curl.out" \
	    -w '%{http_code}' "$@" || e2e_fail "curl $* failed"
}

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"

# ---- U: a one-time upload URL
e2e_keys U
e2e_wait_for "new direct-upload URL"
e2e_wait_match "^ maxDurationSeconds +\*"
e2e_type 60
e2e_keys Enter
e2e_wait_for "One-time upload URL for video "
e2e_wait_match "^ $ROOT/upload/[0-9a-f]{32}\?token=[0-9a-f]{32}$"
url=$(grep -oE "$ROOT/upload/[0-9a-f]{32}\?token=[0-9a-f]{32}" \
    "$E2E_DIR/screen.now")
uid=$(grep -oE '/upload/[0-9a-f]{32}' <<<"$url" | grep -oE '[0-9a-f]{32}')
e2e_assert_contains "One-time upload URL for video $uid"
e2e_keys y
e2e_wait_for "copied the upload URL to the clipboard"
e2e_keys q
e2e_wait_match "^ videos  51$"

# The video is reserved with its limit and waits for its bytes.
rec=$(e2e_api GET "$STREAM/$uid")
[ "$(stream_field state <<<"$rec")" = pendingupload ] ||
    e2e_fail "video $uid does not wait for its upload: $rec"
[ "$(stream_number maxDurationSeconds <<<"$rec")" = 60 ] ||
    e2e_fail "video $uid has not the limit of 60 s: $rec"

# One POST without credentials takes the file; a second is refused.
code=$(curl_code -F "file=@$E2E_DIR/clip.mp4;type=video/mp4" "$url")
[ "$code" = 200 ] || e2e_fail "the upload URL answered $code: $(cat "$E2E_DIR/curl.out")"
code=$(curl_code -F "file=@$E2E_DIR/clip.mp4;type=video/mp4" "$url")
case $code in
2??)	e2e_fail "the upload URL took a second file ($code)" ;;
esac
cmp "$E2E_DIR/clip.mp4" "$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$uid" ||
    e2e_fail "the stored bytes of $uid differ from the file"
[ "$(e2e_api GET "$STREAM/$uid" | stream_field state)" != pendingupload ] ||
    e2e_fail "video $uid still waits for its upload"

# ---- D: the MP4 of a ready video, by the live filter
e2e_keys /
e2e_type "Interview with the CTO"
e2e_wait_match "^ videos  1 of 51  /Interview with the CTO$"
e2e_wait_match "^[ >] Interview with the CTO\.mp4 +ready "
# Enter keeps the filter, and has the server search with it.
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
cto=$(e2e_api GET "$STREAM?search=Interview%20with%20the%20CTO" |
    stream_field uid)
[ -n "$cto" ] || e2e_fail "the API does not find the interview"
e2e_keys D
# D asks which download: the MP4 is the first choice.
e2e_wait_for "which download"
e2e_keys Enter
e2e_wait_for "download of Interview with the CTO.mp4 requested (T shows transfers)"
# The URL goes whole to a row of its own.
e2e_wait_for "download of Interview with the CTO.mp4 is ready:"
e2e_wait_match "^$ROOT/media/$cto/downloads/default\.mp4\$"
dl=$(e2e_api GET "$STREAM/$cto/downloads" | stream_field url)
[ "$dl" = "$ROOT/media/$cto/downloads/default.mp4" ] ||
    e2e_fail "the download's URL is $dl"
# The interview requires signed URLs: by its uid the download is
# refused, with a downloadable token in the uid's place it is served.
code=$(curl_code "$dl")
[ "$code" = 401 ] || e2e_fail "the download by uid answered $code"
token=$(e2e_api POST "$STREAM/$cto/token" '{"downloadable":true}' |
    stream_field token)
code=$(curl_code "$ROOT/media/$token/downloads/default.mp4")
[ "$code" = 200 ] || e2e_fail "the download answered $code"
[ -s "$E2E_DIR/curl.out" ] && [ "$(head -c 8 "$E2E_DIR/curl.out" | tail -c 4)" = ftyp ] ||
    e2e_fail "the download is not an MP4"

# ---- a: audio tracks copied from URLs, one deleted
e2e_keys a
e2e_wait_match "^ audio-tracks of 'Interview with the CTO\.mp4'  0$"
e2e_keys n
e2e_wait_for "new audio-tracks"
e2e_type "Director commentary"
e2e_keys Tab
e2e_type https://example.com/commentary.m4a
e2e_keys Enter
e2e_wait_match "^created audio-tracks [0-9a-f]{32}$"
e2e_wait_match "^ audio-tracks of 'Interview with the CTO\.mp4'  1$"
e2e_keys n
e2e_wait_for "new audio-tracks"
e2e_type "Described audio"
e2e_keys Tab
e2e_type https://example.com/described.m4a
e2e_keys Enter
e2e_wait_match "^created audio-tracks [0-9a-f]{32}$"
second=$(grep -oE '^created audio-tracks [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}')
e2e_wait_match "^ audio-tracks of 'Interview with the CTO\.mp4'  2$"
tracks=$(e2e_api GET "$STREAM/$cto/audio")
grep -q '"label":"Director commentary"' <<<"$tracks" &&
    grep -q "\"uid\":\"$second\"" <<<"$tracks" ||
    e2e_fail "the API lacks the tracks made: $tracks"

# The second one (the first is the video's default and stays).
e2e_keys G
e2e_wait_match "^[ >] Described audio +no "
e2e_keys d
e2e_wait_for "Delete audio track 'Described audio' (${second:0:8}…)? (y/n)"
e2e_keys y
e2e_wait_for "deleted audio-tracks $second"
e2e_wait_match "^ audio-tracks of 'Interview with the CTO\.mp4'  1$"
tracks=$(e2e_api GET "$STREAM/$cto/audio")
if grep -q "\"uid\":\"$second\"" <<<"$tracks" ||
    ! grep -q '"label":"Director commentary"' <<<"$tracks"; then
	e2e_fail "the API does not show the one track left: $tracks"
fi

e2e_keys q
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
e2e_wait_match "^[ >] Interview with the CTO\.mp4 +ready "
e2e_quit_and_check_sane : q Enter
