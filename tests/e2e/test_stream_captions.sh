#!/bin/bash
# A video's captions panel from the console against edgemu: the STATUS
# and GENERATED columns, n uploading a WebVTT file (the path completed by
# Tab, a file that is not WebVTT refused before anything is sent, the
# language asked), g generating captions in a language picked from the
# list (inprogress, then ready; a language with a caption marked and
# refused before sending; none left said), Enter showing the WebVTT text,
# and d deleting one; the server holds what the screen says.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init stream_captions
e2e_edgemu_start --processing-seconds 2
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

mkdir "$E2E_DIR/subs"
printf 'WEBVTT\n\n00:00.000 --> 00:02.000\nBuongiorno a tutti\n' \
    >"$E2E_DIR/subs/italiano.vtt"
printf '1\n00:00:00,000 --> 00:00:02,000\nHallo\n' >"$E2E_DIR/subs/old.srt"
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
e2e_keys c
e2e_wait_match "^ +LANGUAGE +LABEL +STATUS +GENERATED"
e2e_wait_match "^> en +English +ready +no *$"
e2e_wait_match "^  de +Deutsch +ready +no *$"

# ---- n: not WebVTT is refused at once; then the file, completed.
e2e_keys n
e2e_wait_for "WebVTT file to upload"
e2e_type subs/old.srt
e2e_keys Enter
e2e_wait_for "not a WebVTT file"
# The reason wraps in the box rather than lose its end.
e2e_wait_for "must be WEBVTT)"
e2e_keys C-u
e2e_type subs/it
e2e_keys Tab
e2e_wait_for "subs/italiano.vtt"
e2e_keys Enter
e2e_wait_for "language of the captions"
e2e_keys C-u
e2e_type it
e2e_keys Enter
e2e_wait_for "captions it: uploaded"
e2e_wait_match "^  it +Italiano +ready +no *$"

# ---- A: the language picker, in Stream's order (cs nl en fr de it ...);
# en, de and it have captions: marked, and refused here. The cursor
# starts on cs, the first free one.
e2e_keys A
e2e_wait_for "generate captions in"
e2e_wait_for "fr  Français"
e2e_wait_for "en  English  (has a caption: delete it first)"
e2e_wait_for "it  Italiano  (has a caption: delete it first)"
e2e_assert_not_contains "fr  Français  (has"
e2e_keys j j Enter
e2e_wait_for "a caption in en exists: delete it first (d)"
e2e_wait_match "^> en +English +ready +no *$"
e2e_keys A
e2e_wait_for "generate captions in"
e2e_keys j j j Enter
e2e_wait_for "captions fr: being generated (r shows when they are ready)"
# The list read again after the POST: inprogress, or already ready when a
# loaded machine let the 2 s of generating pass before it was read.
e2e_wait_match "^  fr +Français \(auto-generated\) +(inprogress|ready) +yes *$"
e2e_wait_api "$STREAM/$uid/captions/fr" '"status":"ready"'
e2e_keys r
e2e_wait_match "^  fr +Français \(auto-generated\) +ready +yes *$"

# ---- Enter: the WebVTT text of it (the third row).
e2e_keys j j
e2e_wait_match "^> it +Italiano "
e2e_keys Enter
e2e_wait_for "captions it of $uid"
e2e_wait_for "Buongiorno a tutti"
e2e_wait_match "^ *WEBVTT *$"
e2e_keys q
e2e_wait_gone "Buongiorno a tutti"

# ---- d: deleted, after the question.
e2e_keys d
e2e_wait_for "(y/n)"
e2e_keys y
e2e_wait_gone "Italiano"
e2e_api GET "$STREAM/$uid/captions/it" >/dev/null 2>&1 || true
[ "$(e2e_api_status)" = 404 ] ||
    e2e_fail "the it captions are still on the server"
[ "$(e2e_api GET "$STREAM/$uid/captions/fr" | stream_field status)" = \
    ready ] || e2e_fail "the fr captions are not ready on the server"

# ---- g with captions in every language Stream generates: said, no picker.
for lang in cs nl it ja ko pl pt ru es; do
	"$EDGETUI" caption upload "$uid" "$lang" "$E2E_DIR/subs/italiano.vtt" \
	    >/dev/null || e2e_fail "caption upload $lang failed"
done
e2e_keys r
e2e_wait_match "^[ >] es +Español +ready +no *$"
e2e_keys A
e2e_wait_for "this video has captions in every language Stream generates"
e2e_assert_not_contains "generate captions in"

e2e_quit_and_check_sane : q Enter
