#!/bin/bash
# preferences.poll_interval paces the transfers tray's polls: a download
# request is polled 1, 2, 3, 5, 8... s apart, the wait rising to the
# preference (60 s here) rather than staying at 5 s. edgemu makes the
# download ready after 30 s, so the polls that see it are those at 0 (the
# request answered), 1, 3, 6, 11, 19 and 32 s: at most as many GETs as
# those that fit in the time the screen took from the request to "ready"
# (a slow machine makes that time longer, never the count higher), where
# 5 s steps would make nine in 31 s.
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
_e2e_now
t0=$_e2e_t
e2e_keys Enter
e2e_wait_for "MP4 download of Quarterly all-hands.mp4 requested"
e2e_keys T
e2e_wait_match "^ transfers$"
e2e_wait_match "^> download +Quarterly all-hands\.mp4 +ready " 60
_e2e_now
secs=$(((_e2e_t - t0) / 1000))
gets=$(dl_gets "$at")
most=1
sum=0
for wait in 1 2 3 5 8 13 21 34 55 60 60 60; do
	sum=$((sum + wait))
	[ "$sum" -le "$secs" ] || break
	most=$((most + 1))
done
echo "e2e: $gets download GETs in $secs s, at most $most"
[ "$gets" -ge 1 ] || e2e_fail "ready with no GET of the download"
[ "$gets" -le "$most" ] ||
    e2e_fail "$gets download GETs in $secs s, poll_interval 60"

e2e_quit_and_check_sane q : q Enter
