#!/bin/bash
# Read-only in the Stream panels: with --readonly every key that would
# change something is refused on the status line (videos u U D, audio
# tracks n, live inputs n e d, signing keys n d, webhook e d, watermarks
# n), so is resuming an unfinished upload from the journal in the
# transfers tray, and not one mutating request reaches edgemu.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init stream_readonly
e2e_edgemu_start
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
why=--readonly

# An upload left unfinished by an earlier run, as its journal has it.
stream_left_upload 0123456789abcdef0123456789abcdef

# ro_refused KEY WHAT: KEY is refused with its message. The refresh before
# it changes the status line, so a refusal left there by the key before
# cannot stand in for this one.
ro_refused() {
	e2e_keys r
	e2e_wait_for "refreshing "
	e2e_keys "$1"
	e2e_wait_for "read-only: $2 refused ($why); nothing was sent"
}

# ro_open KIND TITLE-REGEX: KIND through the : command line.
ro_open() {
	e2e_keys :
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait_match "$2"
}

e2e_console_start --readonly
e2e_wait_match '^ edgetui  profile default .* READ-ONLY +budget [0-9]+$'
# The tray opens on the unfinished upload; Enter may not resume it.
e2e_wait_match "^ transfers$"
e2e_wait_match "^> upload +left\.mp4 +unfinished +0% \[\.{20}\] 0 B/8 kB  0123456789abcdef"
e2e_keys Enter
e2e_wait_for "read-only: upload refused ($why); nothing was sent"
e2e_keys q
e2e_wait_match "^ operations  300$"

ro_open videos "^ videos  50$"
ro_refused u upload
ro_refused U "direct upload"
ro_refused D "download request"
e2e_keys a
e2e_wait_match "^ audio-tracks of '[^']+'  0$"
ro_refused n new
e2e_keys q
e2e_wait_match "^ videos  50$"

ro_open live-inputs "^ live-inputs  3$"
ro_refused n new
ro_refused e edit
ro_refused d delete

ro_open signing-keys "^ signing-keys  2$"
ro_refused n new
ro_refused d delete

ro_open webhook "^ webhook$"
ro_refused e edit
ro_refused d delete

ro_open watermarks "^ watermarks  2$"
ro_refused n new

e2e_quit_and_check_sane : q Enter
if grep -E ' (POST|PUT|PATCH|DELETE) /' "$E2E_DIR/edgemu.log"; then
	e2e_fail "edgemu served a request that changes something (above)"
fi
[ "$(grep -c '"uid"' "$XDG_STATE_HOME/edgetui/uploads.json")" = 1 ] ||
    e2e_fail "the journal changed: $(cat "$XDG_STATE_HOME/edgetui/uploads.json")"
