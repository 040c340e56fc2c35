#!/bin/bash
# Uploads from a URL and clips from the console against edgemu: L asks for
# a URL (refusing what is not http or https) and a name offered from the
# URL, the server fetches the MP4 from a loopback origin and the tray
# follows the video from downloading to ready; C opens the start/end form
# on that video, refuses an end before the start, and makes a clip the
# tray follows too; the server holds both, the clip with clippedFrom.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init stream_copy_clip
e2e_edgemu_start --processing-seconds 2
ACC=/accounts/$CLOUDFLARE_ACCOUNT_ID

# The origin: a 12.345 s MP4 on a loopback port of its own.
stream_mp4 "$E2E_DIR/talk.mp4" 12345 4096
"$PWD/tests/e2e/e2e-origin" "$E2E_DIR/talk.mp4" >"$E2E_DIR/origin.port" &
# (bounded as every wait, E2E_TIMEOUT_SCALE included: a loaded sanitizer
# run starts it slowly)
_e2e_now
deadline=$((_e2e_t + $(_e2e_ms "$E2E_TIMEOUT")))
until [ -s "$E2E_DIR/origin.port" ]; do
	_e2e_now
	[ "$_e2e_t" -lt "$deadline" ] || e2e_fail "the origin did not start"
	sleep 0.05
done
port=$(cat "$E2E_DIR/origin.port")
url="http://127.0.0.1:$port/media/talk.mp4"

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"

# ---- f: a URL that is not http(s) is asked again, with why.
e2e_keys f
e2e_wait_for "URL of the video to upload (the server fetches it)"
e2e_type "ftp://127.0.0.1/talk.mp4"
e2e_keys Enter
e2e_wait_for "only http and https"
e2e_wait_for "URLs can be copied"
e2e_keys C-u
e2e_type "$url"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: talk.mp4)"
e2e_keys C-u
e2e_type "From a URL"
e2e_keys Enter
e2e_wait_match "copy from the URL started: video [0-9a-f]{32}"
uid=$(grep -oE 'started: video [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}$')

# The tray follows it to ready.
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_match "^. process +From a URL +ready +100% \[#{20}\]  $uid$"
e2e_keys q
e2e_wait_match "^ videos  51$"
rec=$(e2e_api GET "$ACC/stream/$uid")
[ "$(stream_field state <<<"$rec")" = ready ] ||
    e2e_fail "video $uid is not ready: $rec"
grep -q "\"downloaded-from\":\"$url\"" <<<"$rec" ||
    e2e_fail "video $uid has no downloaded-from: $rec"
[ "$(stream_number duration <<<"$rec")" = 12.345 ] ||
    e2e_fail "video $uid does not last 12.345 s: $rec"

# ---- C on it: the form, an end before the start refused, then a clip.
e2e_keys /
e2e_type "From a URL"
e2e_wait_match "^ videos  1 of 51  /From a URL$"
e2e_wait_match "^> From a URL +ready "
e2e_keys Enter
e2e_wait_match "^ videos  1 of [0-9]+  /From a URL$"
e2e_wait_match "^ \? help "
e2e_keys C
e2e_wait_for "clip of From a URL"
e2e_wait_match "^ startTimeSeconds +0 *$"
e2e_wait_match "^ endTimeSeconds +12\.345 *$"
e2e_keys C-u
e2e_type 6
e2e_keys Down C-u
e2e_type 1.5
e2e_keys Enter
e2e_wait_for "must be after startTimeSeconds"
e2e_keys Up C-u
e2e_type 2
e2e_keys Down C-u
e2e_type 5
e2e_keys Enter
e2e_wait_match "clip made: video [0-9a-f]{32}"
clip=$(grep -oE 'clip made: video [0-9a-f]{32}' "$E2E_DIR/screen.now" |
    grep -oE '[0-9a-f]{32}$')
e2e_wait_gone "clip of From a URL"
e2e_wait_match "^ videos  2 of [0-9]+  /From a URL$"
e2e_keys T
e2e_wait_match "^. process +From a URL \(clip\) +ready +100% \[#{20}\]  $clip$"
e2e_keys q
rec=$(e2e_api GET "$ACC/stream/$clip")
[ "$(stream_field clippedFrom <<<"$rec")" = "$uid" ] ||
    e2e_fail "clip $clip is not from $uid: $rec"
[ "$(stream_number duration <<<"$rec")" = 3 ] ||
    e2e_fail "clip $clip does not last 3 s: $rec"

e2e_quit_and_check_sane : q Enter
