#!/bin/bash
# d on a running upload in the transfers tray: edgemu reads the tus PATCH
# bodies at a capped rate (--upload-rate) so the upload is midway; d
# stops it (the row says cancelled, the journal keeps it), nothing more is
# sent while edgemu's download clock runs longer than a chunk takes, and
# Enter resumes it from the offset the server holds (a HEAD, then PATCHes
# from there) to the end, the stored bytes hashing as the file does.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

command -v sha256sum >/dev/null 2>&1 || { echo "SKIP: no sha256sum"; exit 77; }

SIZE=41943040		# 40 MiB: eight 5 MiB chunks
RATE=4194304		# 4 MiB a second: a chunk in 1.25 s

e2e_init transfers_cancel
e2e_edgemu_start --processing-seconds 3 --upload-rate "$RATE"
ACC=/accounts/$CLOUDFLARE_ACCOUNT_ID
STREAM=$ACC/stream

stream_chunk_config

stream_mp4 "$E2E_DIR/big-40m.mp4" 60000 "$SIZE"
want=$(sha256sum <"$E2E_DIR/big-40m.mp4" | cut -d' ' -f1)
journal=$XDG_STATE_HOME/edgetui/uploads.json

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type big
e2e_keys Tab
e2e_wait_for "big-40m.mp4"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: big-40m.mp4)"
e2e_keys Enter
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_match "^> upload +big-40m\.mp4 +uploading +([1-9][0-9])% \[#*\.*\] [0-9.]+/41\.9 MB" 20
e2e_wait_for " d cancel "

# d: the upload stops; the row says so, with the keys that apply now.
e2e_keys d
e2e_wait_match "^> upload +big-40m\.mp4 +cancelled +[0-9]+% \[#*\.*\] [0-9.]+/41\.9 MB  [0-9a-f]{16}"
e2e_wait_match "upload of big-40m\.mp4 cancelled at [0-9]+%; Enter in the tray \(T\) resumes it"
# The journal keeps it, with the one uid edgemu made (the row begins it).
stream_journal_uid uid
e2e_assert_contains "cancelled"
grep -qE "MB  ${uid:0:16}" "$E2E_DIR/screen.now" ||
    e2e_fail "the cancelled row does not name video $uid"

# The PATCH the cancel cut short ends on the server when it notices,
# keeping what arrived: then the offset is all the file holds.
stored=$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$uid
stream_tus_settled held "$uid"
[ "$held" -gt 0 ] && [ "$held" -lt "$SIZE" ] ||
    e2e_fail "edgemu holds $held of $SIZE bytes after the cancel"
cut_at=$(wc -l <"$E2E_DIR/edgemu.log")

# A clock longer than a chunk takes: an MP4 download of a ready demo
# video is ready after the processing time (3 s). Nothing is sent meanwhile.
ready=$(e2e_api GET "$STREAM?status=ready" | stream_field uid)
stream_download_ready "$ready" 20
if tail -n +"$((cut_at + 1))" "$E2E_DIR/edgemu.log" |
    grep -E "^edgemu: PATCH $STREAM/$uid "; then
	e2e_fail "the cancelled upload still sent a PATCH"
fi
[ "$(stream_tus_offset "$uid")" = "$held" ] ||
    e2e_fail "the cancelled upload still sends: offset $(stream_tus_offset "$uid"), was $held"
# Once a key has cleared the message, the legend says what applies now.
e2e_keys j
e2e_wait_gone "resumes it"
e2e_wait_for " Enter resume  d clear  y copy id "

# Enter resumes from the server's offset, to the end.
e2e_keys Enter
e2e_wait_match "^> upload +big-40m\.mp4 +uploaded +100% \[#{20}\] 41\.9/41\.9 MB  ${uid:0:16}" 40
tail -n +"$((cut_at + 1))" "$E2E_DIR/edgemu.log" >"$E2E_DIR/resumed.log"
if grep -E "^edgemu: POST $STREAM " "$E2E_DIR/resumed.log"; then
	e2e_fail "the console created a new upload instead of resuming"
fi
head_line=$(grep -nE "^edgemu: HEAD $STREAM/$uid 200 [0-9.]+ms offset $held$" \
    "$E2E_DIR/resumed.log" | head -n 1)
[ -n "$head_line" ] || e2e_fail "no HEAD of $uid answering offset $held"
first=$(grep -E "^edgemu: PATCH $STREAM/$uid " "$E2E_DIR/resumed.log" | head -n 1)
[[ $first =~ \ 204\ [0-9.]+ms\ from\ $held\ offset\ [0-9]+$ ]] ||
    e2e_fail "the first PATCH after the resume is not from offset $held: $first"
[ ! -e "$journal" ] || ! grep -q "$uid" "$journal" ||
    e2e_fail "the journal still holds the finished upload: $(cat "$journal")"
got=$(sha256sum <"$stored" | cut -d' ' -f1)
[ "$got" = "$want" ] || e2e_fail "the stored bytes hash to $got, the file to $want"

e2e_keys q
e2e_wait_match "^ videos  5[01]$"
e2e_quit_and_check_sane : q Enter
