#!/bin/bash
# More of a video from the console against edgemu: D asks which download
# and the audio one is a row of its own in the transfers tray until ready;
# Y in the details copies the embed snippet; in the audio tracks list e
# makes another track the default (the old one loses it) and renames it.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init stream_extras
e2e_edgemu_start --processing-seconds 1
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
uid=$(e2e_api GET "$STREAM?search=Quarterly%20all-hands" | stream_field uid)
[ "${#uid}" -eq 32 ] || e2e_fail "no Quarterly all-hands video: '$uid'"

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_keys /
e2e_type "Quarterly all-hands"
e2e_wait_match "^> Quarterly all-hands\.mp4 +ready "
e2e_keys Enter
e2e_wait_match "^ \? help "

# ---- D: which download; the audio one in the tray.
e2e_keys D
e2e_wait_for "which download"
e2e_wait_for "audio: the M4A audio only"
e2e_keys j Enter
e2e_wait_for "audio (M4A) download of Quarterly all-hands.mp4 requested"
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_match "^> audio dl +Quarterly all-hands\.mp4 +ready .*/media/${uid:0:12}"
e2e_keys q
e2e_wait_gone "transfers"

# ---- Y in the details: the embed snippet on the clipboard.
e2e_keys Enter
e2e_wait_match "^ *uid: $uid"
e2e_keys Y
e2e_wait_for "copied the embed snippet"
e2e_clipboard | grep -qF "<stream src=\"$uid\"></stream>" ||
    e2e_fail "the clipboard holds no embed snippet: $(e2e_clipboard)"
e2e_keys q
e2e_wait_match "^> Quarterly all-hands\.mp4 +ready "

# ---- a, then e on the second track: the default moves to it.
e2e_keys a
e2e_wait_match "^> English +yes +ready "
e2e_wait_match "^  Español +no +ready "
e2e_keys j e
e2e_wait_for "edit audio-tracks"
e2e_wait_match "^ label +Español *$"
e2e_keys C-u
e2e_type "Spanish dub"
e2e_keys Down y
e2e_wait_match "^ default +< yes > *$"
e2e_keys Enter
e2e_wait_for "saved audio-tracks"
e2e_wait_match "^  English +no +ready "
e2e_wait_match "^> Spanish dub +yes +ready "
tracks=$(e2e_api GET "$STREAM/$uid/audio")
grep -q '"label":"Spanish dub","default":true' <<<"$tracks" ||
    e2e_fail "the server's tracks: $tracks"
grep -q '"label":"English","default":false' <<<"$tracks" ||
    e2e_fail "the server's tracks: $tracks"

e2e_quit_and_check_sane : q Enter
