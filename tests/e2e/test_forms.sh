#!/bin/bash
# Forms, prompts and $EDITOR edits, from the console against edgemu: a
# video as the server sent it (maxDurationSeconds -1) saved from the form
# and from E with only what changed checked and sent, a no-op saying so;
# n to a diff offers the editor again with the text; the upload name
# replacing the file name offered; / and F reopened; list separators,
# letters in choices, +31d dates and labels at 80 columns; and with the
# server gone, e says why no form opened and holds the keys meanwhile.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init forms
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
RL=/zones/$CLOUDFLARE_ZONE_ID/rate_limits

# $EDITOR: editor.mode says what it does; every round is logged.
cat >"$E2E_DIR/editor.sh" <<'EOF'
#!/bin/sh
dir=$(dirname "$0")
f=$1
mode=$(cat "$dir/editor.mode")
echo "$mode" >>"$dir/editor.log"
case $mode in
creator)
	sed -i 's/^creator: .*/creator: edited-in-yaml/' "$f"
	;;
check)
	# Reopened: the text saved the round before is there.
	if grep -q '^creator: edited-in-yaml$' "$f"; then
		echo kept >>"$dir/editor.log"
	fi
	;;
esac
exit 0
EOF
chmod +x "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh
echo noop >"$E2E_DIR/editor.mode"

# The video at the top of the list: the demo's first, unset duration.
uid=$(e2e_api GET "$STREAM?search=Keynote%20rehearsal" | stream_field uid)
[ "${#uid}" -eq 32 ] || e2e_fail "no Keynote rehearsal video: '$uid'"
[ "$(e2e_api GET "$STREAM/$uid" | stream_number maxDurationSeconds)" = -1 ] ||
    e2e_fail "the demo video has a duration limit: the test needs -1"

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_wait_match "^> Keynote rehearsal\.mp4 "

# ---- the form: unchanged, Enter sends nothing; a change is sent alone
e2e_keys e
e2e_wait_for "edit videos $uid"
e2e_wait_match "^ maxDurationSeconds +-1 *$"
e2e_keys Enter
e2e_wait_for "no change: nothing sent"
e2e_wait_gone "edit videos $uid"
e2e_keys e
e2e_wait_for "edit videos $uid"
e2e_keys Down Down C-u
e2e_type "from-the-form"
e2e_keys Enter
e2e_wait_for "saved videos $uid"
e2e_assert_not_contains "out of range"
video=$(e2e_api GET "$STREAM/$uid")
[ "$(stream_field creator <<<"$video")" = from-the-form ] ||
    e2e_fail "the creator was not saved: $video"
[ "$(stream_number maxDurationSeconds <<<"$video")" = -1 ] ||
    e2e_fail "maxDurationSeconds changed: $video"

# ---- E: saved as it was, no change; then an edit, n, and the editor again
e2e_keys E
e2e_wait_for "edit: no change"
echo creator >"$E2E_DIR/editor.mode"
e2e_keys E
e2e_wait_for "Apply 1 change to videos $uid? (y/n)"
e2e_assert_contains 'creator: "from-the-form" → "edited-in-yaml"'
echo check >"$E2E_DIR/editor.mode"
e2e_keys n
e2e_wait_for "Reopen the editor with your text? (y/n)"
e2e_keys y
e2e_wait_for "Apply 1 change to videos $uid? (y/n)"
[ "$(tail -n 1 "$E2E_DIR/editor.log")" = kept ] ||
    e2e_fail "the editor was reopened without the text: $(cat "$E2E_DIR/editor.log")"
e2e_keys y
e2e_wait_for "saved videos $uid"
video=$(e2e_api GET "$STREAM/$uid")
[ "$(stream_field creator <<<"$video")" = edited-in-yaml ] ||
    e2e_fail "the YAML edit was not saved: $video"
[ "$(stream_number maxDurationSeconds <<<"$video")" = -1 ] ||
    e2e_fail "maxDurationSeconds changed: $video"

# ---- a date from now, shown as the date once left
e2e_keys e
e2e_wait_for "edit videos $uid"
e2e_keys Down Down Down Down Down Down Down
e2e_wait_for "or from now: +15m +2h +30d"
e2e_type "+31d"
e2e_keys Tab
e2e_wait_match "^ scheduledDeletion +20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z *$"
e2e_keys Enter
e2e_wait_for "saved videos $uid"
when=$(e2e_api GET "$STREAM/$uid" | stream_field scheduledDeletion)
[ -n "$when" ] || e2e_fail "no scheduledDeletion was saved"
days=$((($(date -d "$when" +%s) - $(date +%s)) / 86400))
[ "$days" -ge 30 ] && [ "$days" -le 31 ] ||
    e2e_fail "scheduledDeletion $when is $days days out, not 31"

# ---- the upload prompt: the name offered is replaced by what is typed
stream_mp4 "$HOME/my big talk.mp4" 3000 4096
e2e_keys u
e2e_wait_for "video file to upload"
e2e_type "~/my big talk.mp4"
e2e_keys Enter
e2e_wait_for "name of the video (Enter: my big talk.mp4)"
e2e_type "Big talk"
e2e_keys Enter
# The upload's end, or already the end of its processing.
e2e_wait_match "uploaded Big talk: video [0-9a-f]{32}|video Big talk is ready"
e2e_api GET "$STREAM?search=talk" | grep -q '"name":"Big talk"' ||
    e2e_fail "no video named 'Big talk': $(e2e_api GET "$STREAM?search=talk")"

# ---- / again: its text selected, typing replaces it
e2e_keys /
e2e_type "Keynote reh"
e2e_keys Enter
e2e_wait_match "^ videos  1 of [0-9]+  /Keynote reh$"
e2e_keys /
e2e_wait_match "^/Keynote reh *$"
e2e_type "Launch teaser"
e2e_wait_match "^/Launch teaser *$"
e2e_keys Enter
e2e_wait_match "^ videos  1 of [0-9]+  /Launch teaser$"
e2e_wait_match "^> Launch teaser\.mp4 "
# An arrow keeps the text to edit it.
e2e_keys /
e2e_keys End BSpace BSpace
e2e_wait_match "^/Launch teas *$"
e2e_keys C-u Enter
e2e_wait_match "^ videos  5[01]$"

# ---- F refused: asked again with what was typed, and why
e2e_keys F
e2e_wait_for "server filters, NAME=VALUE"
e2e_type "bogus=1"
e2e_keys Enter
e2e_wait_for "videos has no filter 'bogus'"
e2e_wait_for "bogus=1"
e2e_keys C-u
e2e_type "creator=edited-in-yaml"
e2e_keys Enter
e2e_wait_match "^ videos  1( of 1)?"
e2e_wait_match "^> Keynote rehearsal\.mp4 "
e2e_keys F
e2e_wait_for "creator=edited-in-yaml"
e2e_keys C-u Enter
e2e_wait_match "^ videos  5[01]$"

# ---- a rate limit's form at 80x24: labels, lists, choices by letter
e2e_resize 80 24
login=$(e2e_api GET "$RL" | grep -oE '"id":"[0-9a-f]{32}","disabled":(true|false),"description":"Protect the login form[^"]*"' |
    grep -oE '[0-9a-f]{32}')
[ -n "$login" ] || e2e_fail "no login rule"
e2e_command rate-limits "^ rate-limits \(legacy, deprecated\)  [0-9]+$"
e2e_keys e
e2e_wait_for "edit rate-limits $login"
e2e_assert_not_contains "match.response.origin_tr "
e2e_wait_match "^ …origin_traffic +< no > *$"
e2e_keys Down Down Down
e2e_wait_for "values with spaces or commas"
e2e_keys C-u
e2e_type "https http"
e2e_keys Down Down Down Down Down Down Down
e2e_wait_match "action\.mode +\* < ban >"
e2e_keys s
e2e_wait_match "action\.mode +\* < simulate >"
e2e_keys Enter
e2e_wait_for "saved rate-limits $login"
rule=$(e2e_api GET "$RL/$login")
grep -q '"schemes":\["HTTPS","HTTP"\]' <<<"$rule" ||
    e2e_fail "the schemes were not saved as typed: $rule"
grep -q '"mode":"simulate"' <<<"$rule" || e2e_fail "the mode is not simulate: $rule"

# ---- an error too long for the row under its field is shown whole
# where the help goes (at 60 columns that row has 38)
e2e_keys n
e2e_wait_for "new rate-limits"
e2e_keys Tab Tab Tab Tab Tab Tab
e2e_wait_for "Response headers that must match"
e2e_type x
e2e_resize 60 24
e2e_wait_for "match.headers: JSON syntax error at byte 1, near 'x'"
e2e_keys Escape
e2e_wait_for "discard"
e2e_keys y
e2e_wait_match "^ rate-limits \(legacy, deprecated\)  [0-9]+$"
e2e_resize 80 24
e2e_wait_match '^ .*profile default .{30,}budget'

# ---- the server gone: e says why, and the keys typed meanwhile wait
_e2e_edgemu_stop || true
e2e_keys e j j d
e2e_wait_for "Could not fetch rate-limits $login:"
e2e_wait_for "So no form was opened."
e2e_assert_not_contains "Delete"
e2e_keys Enter
e2e_wait_gone "So no form was opened."
e2e_wait_match "^> "
e2e_quit_and_check_sane : q Enter
