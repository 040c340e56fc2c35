#!/bin/bash
# A 200 MiB upload resumed after the console is killed: edgemu reads the
# tus PATCH bodies at a capped rate (--upload-rate) so the upload is
# midway when the tray shows 10%; then SIGKILL. The console started again
# opens the tray with the unfinished upload from its journal; Enter
# resumes it from the offset the server holds (a HEAD, then PATCHes from
# there: never a new upload nor bytes from 0), and the stored bytes hash
# as the file does.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

command -v sha256sum >/dev/null 2>&1 || { echo "SKIP: no sha256sum"; exit 77; }
command -v pgrep >/dev/null 2>&1 || { echo "SKIP: no pgrep"; exit 77; }

SIZE=209715200		# 200 MiB
RATE=16777216		# 16 MiB a second: about 13 s for the whole file

e2e_init upload_resume
e2e_edgemu_start --processing-seconds 1 --upload-rate "$RATE"
ACC=/accounts/$CLOUDFLARE_ACCOUNT_ID
STREAM=$ACC/stream

stream_chunk_config

stream_mp4 "$E2E_DIR/big-200m.mp4" 60000 "$SIZE"
want=$(sha256sum <"$E2E_DIR/big-200m.mp4" | cut -d' ' -f1)
journal=$XDG_STATE_HOME/edgetui/uploads.json

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type big
e2e_keys Tab
e2e_wait_for "big-200m.mp4"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: big-200m.mp4)"
e2e_keys Enter
e2e_keys T
e2e_wait_match "^ transfers$"
# Uploading, the header counting it; then at 10% or more, SIGKILL.
e2e_wait_match '^ edgetui .* up 1 [0-9]+% [0-9.]+ [kMG]?B/s +budget [0-9]+$'
e2e_wait_match "^> upload +big-200m\.mp4 +uploading +([1-9][0-9])% \[#*\.*\] [0-9.]+/209\.7 MB [0-9.]+ [kMG]?B/s ETA [0-9]+:[0-9]{2}( |$)" 20
kill -KILL "$(stream_pane_pid)"
# (the marker may wrap after the row the console drew last)
e2e_wait_match "EXIT:137"

# The journal has it, with the one uid edgemu made.
stream_journal_uid uid
journaled=$(grep -oE '"offset":[[:space:]]*[0-9]+' "$journal" |
    grep -oE '[0-9]+$')

# A PATCH the kill cut short ends on the server when it notices, keeping
# what arrived: then the offset it answers is all the file holds.
stored=$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$uid
stream_tus_settled held "$uid"
[ "$held" -gt 0 ] && [ "$held" -ge "$journaled" ] ||
    e2e_fail "edgemu holds $held bytes, the journal says $journaled"
cut_at=$(wc -l <"$E2E_DIR/edgemu.log")

# Started again: the tray opens on its own with the unfinished upload.
e2e_console_start
e2e_wait_match "^ transfers$"
e2e_wait_for "1 unfinished upload from before: Enter resumes the one selected"
# (the line is cut at the pane's width, in the uid)
e2e_wait_match "^> upload +big-200m\.mp4 +unfinished +[1-9][0-9]% \[#*\.*\] [0-9.]+/209\.7 MB  ${uid:0:16}"
e2e_keys Enter
# Uploading again (a kill late in the first run leaves little to send:
# the row may be uploaded by the time the screen is read).
e2e_wait_match "^> upload +big-200m\.mp4 +(uploading +[0-9]+% \[#*\.*\] [0-9.]+/209\.7 MB( [0-9.]+ [kMG]?B/s ETA [0-9:]+)?( |$)|uploaded +100% )"
e2e_wait_match "^> upload +big-200m\.mp4 +uploaded +100% \[#{20}\] 209\.7/209\.7 MB  ${uid:0:8}" 30
e2e_wait_match "^  process +big-200m\.mp4 +ready +100% \[#{20}\]  $uid$"
[ ! -e "$journal" ] || ! grep -q "$uid" "$journal" ||
    e2e_fail "the journal still holds the finished upload: $(cat "$journal")"

# The bytes edgemu stored are the file's.
got=$(sha256sum <"$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$uid" | cut -d' ' -f1)
[ "$got" = "$want" ] || e2e_fail "the stored bytes hash to $got, the file to $want"

# After the restart: no new upload, a HEAD answering the offset held,
# then the first PATCH from that very offset, well past 0.
tail -n +"$((cut_at + 1))" "$E2E_DIR/edgemu.log" >"$E2E_DIR/resumed.log"
if grep -E "^edgemu: POST $STREAM " "$E2E_DIR/resumed.log"; then
	e2e_fail "the console created a new upload instead of resuming"
fi
head_line=$(grep -nE "^edgemu: HEAD $STREAM/$uid 200 [0-9.]+ms offset $held$" \
    "$E2E_DIR/resumed.log" | head -n 1)
[ -n "$head_line" ] ||
    e2e_fail "no HEAD of $uid answering offset $held after the restart"
first=$(tail -n +"${head_line%%:*}" "$E2E_DIR/resumed.log" |
    grep -E "^edgemu: PATCH $STREAM/$uid " | head -n 1)
[[ $first =~ \ 204\ [0-9.]+ms\ from\ $held\ offset\ [0-9]+$ ]] ||
    e2e_fail "the first PATCH after the HEAD is not from offset $held: $first"
if grep -E "^edgemu: PATCH $STREAM/$uid .* from 0( |$)" "$E2E_DIR/resumed.log"; then
	e2e_fail "a PATCH after the restart started from 0"
fi

e2e_keys q
e2e_wait_match "^ operations  300$"
e2e_quit_and_check_sane q
