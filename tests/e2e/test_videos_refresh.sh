#!/bin/bash
# The videos list refreshes on its own while it shows videos in processing:
# an upload that ends appears in the list with no r pressed, goes from
# queued (or inprogress) to ready as edgemu's processing clock runs,
# and once nothing listed is pending (the demo's pendingupload videos wait
# for bytes nobody sends) the list is fetched no more: edgemu's log has
# no list GET while a download's clock runs longer than the interval.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init videos_refresh
e2e_edgemu_start --processing-seconds 8
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

# The demo's queued and inprogress videos never move (no clock): gone.
for st in queued inprogress; do
	for uid in $(e2e_api GET "$STREAM?status=$st" |
	    grep -oE '"uid":"[0-9a-f]{32}"' | grep -oE '[0-9a-f]{32}'); do
		e2e_api DELETE "$STREAM/$uid" >/dev/null
	done
done
stream_mp4 "$E2E_DIR/refresh-me.mp4" 4000 8192
# The console's list GETs (the test's own came before).
list_gets() {
	tail -n +"$((console_at + 1))" "$E2E_DIR/edgemu.log" |
	    grep -cE "^edgemu: GET $STREAM [0-9]{3} " || true
}

console_at=$(wc -l <"$E2E_DIR/edgemu.log")
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys :
e2e_type videos
e2e_keys Enter
e2e_wait_match "^ videos  43$"
[ "$(list_gets)" -eq 1 ] || e2e_fail "$(list_gets) list GETs for one load"

e2e_keys u
e2e_wait_for "video file to upload"
e2e_type refresh-me.mp4
e2e_keys Enter
e2e_wait_for "name of the video (Enter: refresh-me.mp4)"
e2e_keys C-u
e2e_type "Refresh me"
e2e_keys Enter
e2e_wait_match "uploaded Refresh me: video [0-9a-f]{32}"
uploaded_at=$(list_gets)
uid=$(grep -oE 'uploaded Refresh me: video [0-9a-f]{32}' \
    "$E2E_DIR/screen.now" | grep -oE '[0-9a-f]{32}$')

# No r: the row comes, then moves on its own, to ready.
e2e_wait_match "^ videos  44$"
e2e_wait_match "^[ >] Refresh me +(queued|inprogress) +[0-9]+% "
e2e_wait_match "^[ >] Refresh me +ready +100% +0:04 " 20
cut_at=$(wc -l <"$E2E_DIR/edgemu.log")
refreshes=$(($(list_gets) - uploaded_at))
echo "e2e: $refreshes list GETs after the upload's end, to ready (8 s of processing)"
# The reload when the upload ended, then one GET per interval.
[ "$refreshes" -ge 2 ] && [ "$refreshes" -le 6 ] ||
    e2e_fail "$refreshes list GETs while the video was processed"

# Nothing pending now: a clock of 8 s (the MP4 download of the new video)
# passes without a list GET.
stream_download_ready "$uid" 30
if tail -n +"$((cut_at + 1))" "$E2E_DIR/edgemu.log" |
    grep -E "^edgemu: GET $STREAM [0-9]{3} "; then
	e2e_fail "the list was fetched again with nothing pending"
fi

e2e_quit_and_check_sane : q Enter
