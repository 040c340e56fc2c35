#!/bin/bash
# The transfers tray on an 80x24 screen: rows named by the video (not a
# cut uid), g/G/j/k and a short screen that scrolls, y copying what the
# legend says (the id, or a download's URL) through OSC 52 (tmux keeps it
# as a buffer), d clearing a finished row, and d on an unfinished upload
# asking first, since clearing it forgets its resume (n keeps it, y drops
# it from the journal too); ? shows the tray's keys.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

E2E_COLS=80 E2E_ROWS=24
e2e_init transfers_tray
e2e_edgemu_start --processing-seconds 2
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
LEFT=0123456789abcdef0123456789abcdef

# An upload left unfinished by an earlier run, as its journal has it.
stream_left_upload "$LEFT"
stream_mp4 "$E2E_DIR/a.mp4" 3000 4096
stream_mp4 "$E2E_DIR/b.mp4" 3000 4096
journal=$XDG_STATE_HOME/edgetui/uploads.json

e2e_console_start
_e2e_tmux set -g set-clipboard on >/dev/null ||
    e2e_fail "tmux set set-clipboard failed"
e2e_wait_match "^ transfers$"
e2e_wait_match "^> upload +left\.mp4 +unfinished +0% 0 B/8 kB  ${LEFT:0:16}"

# d on the unfinished upload asks; n keeps it (and its journal entry).
e2e_keys d
e2e_wait_for "Clear left.mp4 and forget its resume?"
e2e_keys n
e2e_wait_gone "forget its resume"
e2e_wait_match "^> upload +left\.mp4 +unfinished "
grep -q "$LEFT" "$journal" || e2e_fail "n dropped the journal entry"
e2e_wait_for " Enter resume  d clear  y copy id  g/G first/last  ? help  q close"

# Two uploads and a download request from the videos list.
e2e_keys q
e2e_wait_match "^ operations  300$"
upload() {	# FILE NAME
	e2e_keys u
	e2e_wait_for "video file to upload"
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait_for "name of the video (Enter: $1)"
	e2e_keys C-u
	e2e_type "$2"
	e2e_keys Enter
	e2e_wait_match "uploaded $2: video [0-9a-f]{32}"
	grep -oE "uploaded $2: video [0-9a-f]{32}" "$E2E_DIR/screen.now" |
	    grep -oE '[0-9a-f]{32}$'
}
e2e_command videos "^ videos  50$"
alpha=$(upload a.mp4 "Alpha clip")
beta=$(upload b.mp4 "Beta clip")
e2e_keys /
e2e_type "Interview with the CTO"
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
cto=$(e2e_api GET "$STREAM?search=Interview%20with%20the%20CTO" |
    stream_field uid)
e2e_keys D
# D asks which download: the MP4 is the first choice.
e2e_wait_for "which download"
e2e_keys Enter
e2e_wait_for "download of Interview with the CTO.mp4 requested"

# The rows name the videos; each process and the download end ready.
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_count "^[ >] (upload|process |download) " 6
e2e_wait_match "^  upload +Alpha clip +uploaded +100% 4/4 kB  ${alpha:0:20}"
e2e_wait_match "^  process +Alpha clip +ready +100%  ${alpha:0:20}"
e2e_wait_match "^  upload +Beta clip +uploaded +100% 4/4 kB  ${beta:0:20}"
e2e_wait_match "^  process +Beta clip +ready +100%  ${beta:0:20}"
e2e_wait_match "^  download +Interview with the +ready +100%  http"
e2e_assert_not_contains "${alpha:0:24} "

# g, G, j, k.
e2e_keys G
e2e_wait_match "^> download +Interview with the "
e2e_keys g
e2e_wait_match "^> upload +left\.mp4 "
e2e_keys j j
e2e_wait_match "^> process +Alpha clip "
e2e_keys k
e2e_wait_match "^> upload +Alpha clip "
e2e_keys j
e2e_wait_match "^> process +Alpha clip "

# y copies what the legend says: the video id here, the URL there.
e2e_wait_for " d clear  y copy id  g/G first/last"
e2e_keys y
e2e_wait_for "copied the video id to the clipboard (OSC 52)"
[ "$(_e2e_tmux show-buffer)" = "$alpha" ] ||
    e2e_fail "the clipboard holds '$(_e2e_tmux show-buffer)', not $alpha"
e2e_keys G
e2e_wait_for " d clear  y copy URL  g/G first/last"
e2e_keys y
e2e_wait_for "copied the download URL to the clipboard (OSC 52)"
url=$(e2e_api GET "$STREAM/$cto/downloads" | stream_field url)
[ -n "$url" ] && [ "$(_e2e_tmux show-buffer)" = "$url" ] ||
    e2e_fail "the clipboard holds '$(_e2e_tmux show-buffer)', not '$url'"

# d clears a finished row.
e2e_keys g j j
e2e_wait_match "^> process +Alpha clip "
e2e_keys d
e2e_wait_for "cleared Alpha clip from the tray"
e2e_wait_count "^[ >] (upload|process |download) " 5
e2e_wait_match "^> upload +Beta clip "

# A short screen scrolls to the selected row.
e2e_resize 80 7
e2e_keys G
e2e_wait_match "^> download +Interview with the "
e2e_wait_gone "left.mp4"
e2e_keys g
e2e_wait_match "^> upload +left\.mp4 "
e2e_resize 80 24

# ? lists the tray's keys.
e2e_keys '?'
e2e_wait_for "transfers: keys"
e2e_wait_for "clear a row that is over"
e2e_keys q
e2e_wait_match "^> upload +left\.mp4 "

# y to the question drops the unfinished upload and its journal entry.
e2e_keys d
e2e_wait_for "Clear left.mp4 and forget its resume?"
e2e_keys y
e2e_wait_for "cleared left.mp4 from the tray"
e2e_wait_count "^[ >] (upload|process |download) " 4
! grep -q "$LEFT" "$journal" 2>/dev/null ||
    e2e_fail "the journal still holds the cleared upload: $(cat "$journal")"

e2e_keys q
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
e2e_quit_and_check_sane q q
