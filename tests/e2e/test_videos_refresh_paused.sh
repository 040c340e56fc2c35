#!/bin/bash
# The videos list's own refresh (it shows videos in processing: the demo's
# queued and inprogress ones never move) pauses while another list is
# shown, so a stuck video does not spend the API budget all day, and goes
# on when the videos list is shown again. The refresh runs every 2 s
# (preferences.list_refresh); the clock that bounds the pause is an MP4
# download that edgemu makes ready after 16 s, eight intervals.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init videos_refresh_paused
e2e_edgemu_start --processing-seconds 16
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
stream_refresh_config 2

# A ready video, asked for here: the test's own list GET comes first.
ready=$(e2e_api GET "$STREAM?status=ready" | stream_field uid)
# wait_clock: until the download of that video is ready (16 s).
wait_clock() {
	e2e_api DELETE "$STREAM/$ready/downloads" >/dev/null || true
	stream_download_ready "$ready" 40
}

at=$(wc -l <"$E2E_DIR/edgemu.log")
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_wait_match "^[ >] .* (queued|inprogress) "

# Shown: the list is fetched again and again while videos are pending:
# the load, then two refreshes.
stream_wait_list_gets "$at" 3

# Another list shown: at most the refresh already on its way (and one the
# screen showed before edgemu logged it), then none, where a refresh that
# went on would fetch eight times.
e2e_command rl "^ rate-limits \(legacy, deprecated\)  8$"
at=$(wc -l <"$E2E_DIR/edgemu.log")
wait_clock
hidden=$(stream_list_gets "$at")
echo "e2e: $hidden list GETs in 16 s hidden"
[ "$hidden" -le 2 ] || e2e_fail "$hidden list GETs in 16 s while hidden"

# Shown again: it fetches at once and goes on.
at=$(wc -l <"$E2E_DIR/edgemu.log")
e2e_command videos "^ videos  50$"
stream_wait_list_gets "$at" 2

e2e_quit_and_check_sane : q Enter
