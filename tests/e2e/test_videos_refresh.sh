#!/bin/bash
# The videos list refreshes on its own while it shows videos in processing:
# an upload that ends appears in the list with no r pressed, goes from
# queued (or inprogress) to ready as edgemu's processing clock runs, one
# GET per interval (preferences.list_refresh, 1 s here), and once nothing
# listed is pending (the demo's pendingupload videos wait for bytes nobody
# sends) the list is fetched no more. Counts are bounded by what the screen
# showed and by the interval, never by how fast the machine is.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init videos_refresh
e2e_edgemu_start --processing-seconds 8
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
stream_refresh_config 1

# The demo's queued and inprogress videos never move (no clock): gone.
for st in queued inprogress; do
	for uid in $(e2e_api GET "$STREAM?status=$st" |
	    grep -oE '"uid":"[0-9a-f]{32}"' | grep -oE '[0-9a-f]{32}'); do
		e2e_api DELETE "$STREAM/$uid" >/dev/null
	done
done
stream_mp4 "$E2E_DIR/refresh-me.mp4" 4000 8192

# The console's list GETs (the test's own came before).
console_at=$(wc -l <"$E2E_DIR/edgemu.log")
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  43$"
stream_wait_list_gets "$console_at" 1

e2e_keys u
e2e_wait_for "video file to upload"
# Nothing pending: no refresh came while the prompt was asked for.
[ "$(stream_list_gets "$console_at")" -eq 1 ] ||
    e2e_fail "$(stream_list_gets "$console_at") list GETs for one load"
e2e_type refresh-me.mp4
e2e_keys Enter
e2e_wait_for "name of the video (Enter: refresh-me.mp4)"
e2e_keys C-u
e2e_type "Refresh me"
upload_at=$(wc -l <"$E2E_DIR/edgemu.log")
_e2e_now
t0=$_e2e_t
e2e_keys Enter
e2e_wait_match "uploaded Refresh me: video [0-9a-f]{32}"
uid=$(grep -oE 'uploaded Refresh me: video [0-9a-f]{32}' \
    "$E2E_DIR/screen.now" | grep -oE '[0-9a-f]{32}$')

# No r: the row comes, then moves on its own, to ready: at least the
# reload that showed it processing and a refresh that showed it ready.
e2e_wait_match "^ videos  44$"
e2e_wait_match "^[ >] Refresh me +(queued|inprogress) +[0-9]+% "
e2e_wait_match "^[ >] Refresh me +ready +100% +0:04 " 30
stream_wait_list_gets "$upload_at" 2
_e2e_now
refreshes=$(stream_list_gets "$upload_at")
# The reload, then at most one GET per second that passed: a slow machine
# only makes the time longer, never the count higher.
most=$(((_e2e_t - t0) / 1000 + 2))
echo "e2e: $refreshes list GETs from the upload to ready, at most $most"
[ "$refreshes" -le "$most" ] ||
    e2e_fail "$refreshes list GETs in $(((_e2e_t - t0) / 1000)) s, refresh 1 s"

# Nothing pending now: edgemu's clock of 8 s (the MP4 download of the new
# video), eight intervals, passes with no more list GET, but the one that
# brought ready if edgemu logged it after the screen showed it.
cut_at=$(wc -l <"$E2E_DIR/edgemu.log")
stream_download_ready "$uid" 30
after=$(stream_list_gets "$cut_at")
[ "$after" -le 1 ] ||
    e2e_fail "the list was fetched $after times with nothing pending"

e2e_quit_and_check_sane : q Enter
