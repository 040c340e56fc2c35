#!/bin/bash
# Resuming an upload while the server still holds a PATCH of it: edgemu
# answers 423 while another client's PATCH of the same upload is under
# way; the tray says the server is still finishing the previous request
# and tries again, and once that client is gone the upload goes on from
# where the server is and ends with the file's bytes.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

command -v sha256sum >/dev/null 2>&1 || { echo "SKIP: no sha256sum"; exit 77; }

SIZE=20971520		# 20 MiB: four 5 MiB chunks
RATE=4194304		# 4 MiB a second

e2e_init transfers_locked
e2e_edgemu_start --processing-seconds 3 --upload-rate "$RATE"
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

stream_chunk_config

file=$E2E_DIR/held-20m.mp4
stream_mp4 "$file" 60000 "$SIZE"
want=$(sha256sum <"$file" | cut -d' ' -f1)

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type held
e2e_keys Tab
e2e_wait_for "held-20m.mp4"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: held-20m.mp4)"
e2e_keys Enter
e2e_keys T
e2e_wait_match "^> upload +held-20m\.mp4 +uploading +([1-9][0-9]?)% "
e2e_keys d
e2e_wait_match "^> upload +held-20m\.mp4 +cancelled "
stream_journal_uid uid

# Wait for the cut PATCH to end on the server, then hold the upload with
# a PATCH of the file's own next bytes, sent slowly by another client.
# The cut PATCH has ended when the offset is all the stored file holds.
stored=$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$uid
stream_tus_settled held "$uid"
tail -c +"$((held + 1))" "$file" | head -c 5242880 >"$E2E_DIR/next"
curl -sS --noproxy '*' -X PATCH -H "@$E2E_DIR/curl.headers" \
    -H 'Tus-Resumable: 1.0.0' -H "Upload-Offset: $held" \
    -H 'Content-Type: application/offset+octet-stream' --limit-rate 2K \
    --data-binary @"$E2E_DIR/next" "$CLOUDFLARE_BASE_URL$STREAM/$uid" \
    >/dev/null 2>&1 &
holder=$!
# The holder is killed on the way out, before lib.sh's own clean-up.
trap 'rc=$?; kill $holder 2>/dev/null; (exit $rc); _e2e_exit' EXIT
# The holder is in once its first bytes are on disk: only the PATCH that
# holds the upload's lock writes the file. (A probing PATCH would take the
# lock itself when it came first, and write its own byte at $held.)
deadline=$(($(date +%s) + 10 * ${E2E_TIMEOUT_SCALE:-1}))
until [ "$(stat -c %s "$stored")" -gt "$held" ]; do
	[ "$(date +%s)" -lt "$deadline" ] || e2e_fail "the holder's PATCH never began"
	sleep 0.05
done

# Enter resumes: refused while the holder runs, said, and tried again.
e2e_keys Enter
e2e_wait_for "still finishing"
e2e_assert_contains "held-20m.mp4"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
trap _e2e_exit EXIT

# The holder gone, its lock goes with it: the upload ends, whole.
e2e_wait_match "^> upload +held-20m\.mp4 +uploaded +100% " 60
got=$(sha256sum <"$stored" | cut -d' ' -f1)
[ "$got" = "$want" ] || e2e_fail "the stored bytes hash to $got, the file to $want"

e2e_keys q
e2e_wait_match "^ videos  5[01]$"
e2e_quit_and_check_sane : q Enter
