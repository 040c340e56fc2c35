#!/bin/bash
# Uploading a video from the console against edgemu: the videos list, u
# with the path completed by Tab and a name typed, the upload and then
# the processing in the transfers tray, the status line saying the video
# is ready with the duration its MP4 gives, the new row with no r pressed,
# and what the server holds (its record and the very bytes sent).
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init video_upload
e2e_edgemu_start --processing-seconds 2
ACC=/accounts/$CLOUDFLARE_ACCOUNT_ID

# A 12.345 s MP4 of 4096 bytes, and a neighbour Tab must not pick.
mkdir "$E2E_DIR/clips"
stream_mp4 "$E2E_DIR/clips/twelve-seconds.mp4" 12345 4096
echo notes >"$E2E_DIR/clips/notes.txt"


e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_expect_screen videos-list.txt

# u: the path (the pane's working directory is the work dir), completed.
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type clips/tw
e2e_keys Tab
e2e_wait_for "clips/twelve-seconds.mp4"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: twelve-seconds.mp4)"
e2e_keys C-u
e2e_type "Twelve seconds"
e2e_keys Enter
e2e_wait_match "uploaded Twelve seconds: video [0-9a-f]{32}; watching its processing"
uid=$(grep -oE 'uploaded Twelve seconds: video [0-9a-f]{32}' \
    "$E2E_DIR/screen.now" | grep -oE '[0-9a-f]{32}$')

# The tray: the upload done, then its processing until ready.
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_match "^> upload +Twelve seconds +uploaded +100% \[#{20}\] 4/4 kB  $uid$"
e2e_wait_match "^  process +Twelve seconds +(queued|inprogress|ready) +[0-9]+% \[[#.]{20}\]  $uid$"
e2e_wait_match "^  process +Twelve seconds +ready +100% \[#{20}\]  $uid$"
e2e_keys q
e2e_wait_match "^ videos  51$"
e2e_wait_match "^video Twelve seconds is ready \(duration 12\.[0-9] s\)"

# Once a key has cleared the message, the tray as it stays.
e2e_keys j
e2e_wait_gone "is ready (duration"
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_expect_screen transfers-done.txt
e2e_keys q
e2e_wait_match "^ videos  51$"

# The new row without r (the list reloads when an upload ends), named and
# ready, 0:12 long (found by the live filter; Escape then restores the
# whole list).
e2e_keys /
e2e_type Twelve
e2e_wait_match "^ videos  1 of 51  /Twelve$"
e2e_wait_match "^[ >] Twelve seconds +ready +100% +0:12 +4\.1 kB +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5} -$"
e2e_keys Escape
e2e_wait_match "^ videos  51$"

# The server: the record, and the stored bytes are the file's.
rec=$(e2e_api GET "$ACC/stream/$uid")
[ "$(stream_field state <<<"$rec")" = ready ] ||
    e2e_fail "video $uid is not ready: $rec"
[ "$(stream_field name <<<"$rec")" = "Twelve seconds" ] ||
    e2e_fail "video $uid is not named 'Twelve seconds': $rec"
[ "$(stream_number duration <<<"$rec")" = 12.345 ] ||
    e2e_fail "video $uid does not last 12.345 s: $rec"
[ "$(stream_number size <<<"$rec")" = 4096 ] ||
    e2e_fail "video $uid is not 4096 bytes: $rec"
cmp "$E2E_DIR/clips/twelve-seconds.mp4" \
    "$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$uid" ||
    e2e_fail "the stored bytes of $uid differ from the file"

e2e_quit_and_check_sane : q Enter
