#!/bin/bash
# A large videos library loads a page at a time: 100 videos at once and
# "N loaded of M" from include_counts; the next page only when the cursor
# nears the end; G asks first, stating the cost in requests (n: the last
# loaded; y: every page, then the last row); / searches on the server,
# which finds a video not loaded yet.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

# 24 rows: the next page is asked for three screens (72 rows) before the
# end of what is loaded, so one screen down in the first 100 is far from
# it. (At 40 rows three screens are more than 100: any move loads.)
E2E_ROWS=24
e2e_init videos_lazy
e2e_edgemu_start --demo-videos 5000
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream
# The console's list GETs (whatever the query).
list_gets() {
	tail -n +"$((console_at + 1))" "$E2E_DIR/edgemu.log" |
	    grep -cE "^edgemu: GET $STREAM [0-9]{3} " || true
}

console_at=$(wc -l <"$E2E_DIR/edgemu.log")
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command videos "^ videos  100 loaded of 5050$"
e2e_assert_contains "Keynote rehearsal.mp4"

# One screen down is far from the end: nothing more is asked for. The
# decision is made with the move, so the frame that shows the cursor off
# the first row has the title it leaves: not "loading...", nor more rows.
e2e_wait_match "^> Keynote rehearsal\.mp4 "
e2e_keys NPage
e2e_wait_match "^  Keynote rehearsal\.mp4 "
grep -qE "^ videos  100 loaded of 5050$" "$E2E_DIR/screen.now" ||
    e2e_fail "one screen down asked for more: $(head -n 2 "$E2E_DIR/screen.now")"
# Near the end of the 100: the next page, 1000 (one overlaps the first).
e2e_keys NPage NPage
e2e_wait_match "^ videos  1099 loaded of 5050$"
gets=$(list_gets)

# G: the cost first; n goes to the last loaded row without a request.
e2e_keys G
e2e_wait_for "load the other 3951? It takes about 4 requests"
e2e_wait_for "y: load them; n: go to the last loaded"
e2e_keys n
e2e_wait_gone "load the other"
e2e_wait_match "^> .*#1048\.mp4 "
e2e_assert_contains " videos  1099 loaded of 5050"
[ "$(list_gets)" -le "$((gets + 1))" ] ||
    e2e_fail "n on G's question fetched pages"

# G, y: every page, then the cursor on the oldest video.
e2e_keys G
e2e_wait_for "load the other"
e2e_keys y
e2e_wait_match "^ videos  5050$"
e2e_wait_match "^> .*#4999\.mp4 "

# / goes to the server: its one match replaces the list.
e2e_keys gg /
e2e_type "#4321."
e2e_keys Enter
e2e_wait_match "^ videos  1 of 1  /#4321\.$"
e2e_wait_match "^> .*: [a-zA-Z ]+ #4321\.mp4 "
e2e_quit_and_check_sane : q Enter
