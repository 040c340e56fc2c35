#!/bin/bash
# How lists and details look and act, against edgemu's demo data: a delete
# question names its record and keeps its (y/n) at 50 columns, the modal
# keeps its top border; captions name their video; cut cells end with an
# ellipsis; the selection bar covers the gaps; details wrap long lines,
# find text (/, n, N, highlighted), copy the value under the cursor (OSC
# 52; a secret only once shown), save to a file (w, also in help) and show
# their keys in the footer; the ASCII line mode marks the sorted column and
# cut text in ASCII.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib-stream.sh"

e2e_init lists
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
# tmux keeps what the console copies with OSC 52 in its paste buffer.
echo 'set -g set-clipboard on' >>"$E2E_DIR/tmux.conf"

open_kind() {
	e2e_keys :
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait_match "$2"
}

# The screen with its colours: for what only colour shows (a match, the bar).
screen_sgr() {
	_e2e_tmux capture-pane -e -p -t "$E2E_SESSION"
}

# The selection bar's colour (black on cyan, default theme) up to TEXT.
_bar_reaches() {
	screen_sgr | grep -qE "$1"
}

teaser=$(e2e_api GET "$STREAM?search=Launch%20teaser" | stream_field uid)
[ "${#teaser}" -eq 32 ] || e2e_fail "no uid for the demo's Launch teaser"

e2e_console_start
e2e_wait_match "^ operations  300$"

# ---- the bar: one colour from the first column over the gaps, not only
# the cells' text (the gap after METHOD "GET" is in it).
_e2e_poll "$E2E_TIMEOUT" "the bar over the gap" _bar_reaches \
    $'\e\\[30m\e\\[46m> GET     api\\.example\\.com'

# ---- a delete names the record: the video's name and a short uid.
open_kind videos "^ videos  50$"
e2e_keys /
e2e_type "Launch teaser"
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /Launch teaser$"
e2e_keys d
e2e_wait_for "Delete video 'Launch teaser.mp4' (${teaser:0:8}…)? (y/n)"
# The title sits on the box's top border, which is drawn.
e2e_wait_match "[lq┌─] delete [q─]+[k┐]"
e2e_keys n
e2e_wait_gone "Delete video"

# ---- captions name the video they belong to.
e2e_keys c
e2e_wait_match "^ captions of 'Launch teaser\\.mp4'  [0-9]+"
e2e_keys q
e2e_wait_match "^ videos  1 of 1  /Launch teaser$"
e2e_keys /
e2e_wait_match '^/'
e2e_keys C-u Enter
e2e_wait_match "^ videos  50$"

# ---- details: the footer has their keys; long lines wrap at 50 columns.
e2e_keys /
e2e_type "Interview with the CTO"
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"
e2e_keys Enter
e2e_wait_for "readyToStream: true"
e2e_wait_for " q back  / find  n/N next/prev  y copy  w save  J json"
e2e_resize 50 24
e2e_wait_match '^   hls: http://127\.0\.0\.1:'
# The URL's end is on screen, on a row of its own, not cut off: wrapped
# after a '/', the file's name whole.
e2e_wait_match '^ +([a-z0-9./-]*/)?video\.m3u8$'

# / finds text, highlighted; n and N go to the next and previous match.
e2e_keys /
e2e_wait_match '^/'
e2e_type "manifest"
e2e_keys Enter
e2e_wait_gone "no match"
_e2e_poll "$E2E_TIMEOUT" "the match highlighted" _bar_reaches \
    $'\e\\[30m\e\\[43mmanifest'
# y on the match's line (hls): its value, the whole URL.
e2e_keys y
e2e_wait_for "copied hls to the clipboard"
url=$(_e2e_tmux show-buffer)
[[ $url == http://*/manifest/video.m3u8 ]] || e2e_fail "y copied '$url'"
e2e_keys n y
e2e_wait_for "copied dash to the clipboard"
url=$(_e2e_tmux show-buffer)
[[ $url == http://*/manifest/video.mpd ]] || e2e_fail "n then y copied '$url'"
e2e_keys N y
e2e_wait_for "copied hls to the clipboard"
e2e_keys /
e2e_wait_match '^/'
e2e_keys C-u
e2e_type "no such text"
e2e_keys Enter
e2e_wait_for "no match for 'no such text'"

# w saves what is shown, to a new file of mode 0600.
e2e_keys w
e2e_wait_for "save the details to the file"
e2e_type "$E2E_DIR/details.yaml"
e2e_keys Enter
e2e_wait_for "saved the details to"
grep -q '^  name: Interview with the CTO.mp4$' "$E2E_DIR/details.yaml" ||
    e2e_fail "the saved details lack the name"
[ "$(stat -c %a "$E2E_DIR/details.yaml")" = 600 ] ||
    e2e_fail "the saved details are not mode 0600"
# Help says w saves in its context: it does there too.
e2e_keys '?'
e2e_wait_for " q or Esc closes"
e2e_keys w
e2e_wait_for "save to the file"
e2e_type "$E2E_DIR/help.txt"
e2e_keys Enter
e2e_wait_for "lines to $E2E_DIR/help.txt"
grep -q 'save-file' "$E2E_DIR/help.txt" || e2e_fail "the saved help lacks its keys"
e2e_keys q
e2e_wait_gone "Keys (from the live keymap"
e2e_keys q
e2e_wait_match "^ videos  1 of 1  /Interview with the CTO$"

# ---- the (y/n) stays at 50 columns: the question wraps.
open_kind rl "^ rate-limits \(legacy, deprecated\)  8$"
e2e_keys G
e2e_wait_match "^> Image hotlinking that reaches the origin$"
e2e_wait_match "^  Public API burst limit \(observing before enfor…$"
e2e_keys d
e2e_wait_match "Delete rate limit 'Image hotlinking that"
e2e_wait_for "(y/n)"
e2e_keys n
e2e_wait_gone "(y/n)"
e2e_resize 120 40

# ---- a secret is copied only once shown.
open_kind live-inputs "^ live-inputs  3$"
e2e_keys Enter
e2e_wait_match '^ +streamKey: "\*{8}"$'
# / puts the cursor on the first line that has the text.
e2e_keys /
e2e_wait_match '^/'
e2e_type "streamKey"
e2e_keys Enter
_e2e_poll "$E2E_TIMEOUT" "the cursor on the stream key" _bar_reaches \
    $'\e\\[46m +\e\\[43mstreamKey'
e2e_keys y
e2e_wait_for "a secret: x shows it, then y copies it"
e2e_keys x
e2e_wait_for "secrets shown"
e2e_keys y
e2e_wait_for "copied streamKey to the clipboard"
key=$(_e2e_tmux show-buffer)
[ "${#key}" -ge 32 ] && [ "$key" != '********' ] ||
    e2e_fail "y copied '$key' for the stream key"
e2e_keys q
e2e_wait_match "^ live-inputs  3$"
e2e_quit_and_check_sane : q Enter

# ---- the ASCII line mode: the sort arrow and the ellipsis in ASCII.
mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'preferences:\n  ascii: true\n' >"$XDG_CONFIG_HOME/edgetui/config.yaml"
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"
E2E_COLS=80
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_keys Down O
e2e_wait_match '^  METHODv +HOST'
open_kind rl "^ rate-limits \(legacy, deprecated\)  8$"
e2e_wait_match '^> Protect the login form from credenti\.\.\. '
e2e_quit_and_check_sane : q Enter
