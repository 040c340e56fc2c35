#!/bin/bash
# preferences.poll_interval paces the transfers tray's polls: a download
# request is polled 1, 2, 3, 5, 8, 13... s apart, the wait rising to the
# preference (60 s here) rather than staying at 5 s. edgemu makes the
# download ready 30 s after it is asked for; each wait is at least its
# length, so the GETs before it is ready are those at 0, 1, 3, 6, 11 and
# 19 s at most, and the seventh (32 s) sees it ready: seven GETs at most,
# whatever the machine's load (a slow one makes fewer, never more), where
# 5 s steps would make nine. The test waits for "ready", and counts.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/lib-stream.sh"

e2e_init poll_interval
e2e_edgemu_start --processing-seconds 30
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
uid=$(e2e_api GET "$STREAM?search=Quarterly%20all-hands" | stream_field uid)
[ "${#uid}" -eq 32 ] || e2e_fail "no Quarterly all-hands video: '$uid'"
mkdir -p "$XDG_CONFIG_HOME/edgetui"
printf 'preferences:\n  poll_interval: 60\n' \
    >"$XDG_CONFIG_HOME/edgetui/config.yaml"
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"

# dl_gets FROM: the GETs of the video's downloads past edgemu's line FROM.
dl_gets() {
	tail -n +"$(($1 + 1))" "$E2E_DIR/edgemu.log" |
	    grep -cE "^edgemu: GET $STREAM/$uid/downloads [0-9]{3} " || true
}

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  50$"
e2e_keys /
e2e_type "Quarterly all-hands"
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /Quarterly all-hands$"
e2e_wait_match "^> Quarterly all-hands\.mp4 +ready "
e2e_keys D
e2e_wait_for "which download"
at=$(wc -l <"$E2E_DIR/edgemu.log")
e2e_keys Enter
e2e_wait_for "MP4 download of Quarterly all-hands.mp4 requested"
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_match "^> download +Quarterly all-hands\.mp4 +ready " 60
# The GET that saw it ready is logged once its answer is sent.
e2e_wait_log "^edgemu: GET $STREAM/$uid/downloads [0-9]{3} " 1
gets=$(dl_gets "$at")
echo "e2e: $gets download GETs until ready"
[ "$gets" -ge 1 ] || e2e_fail "ready with no GET of the download"
[ "$gets" -le 7 ] ||
    e2e_fail "$gets download GETs until ready: the waits did not rise to poll_interval 60"

e2e_quit_and_check_sane q : q Enter
