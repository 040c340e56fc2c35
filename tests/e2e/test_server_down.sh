#!/bin/bash
# A server that cannot be reached, at 80x24: the list says why in full
# (curl's reason, longer than the row, wraps under it instead of being
# cut), and the console quits cleanly. Port 9 (discard) on loopback has
# no listener.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init server_down
export CLOUDFLARE_BASE_URL=http://127.0.0.1:9/client/v4
export CLOUDFLARE_API_TOKEN=0123456789abcdef0123456789abcdef
export CLOUDFLARE_ACCOUNT_ID=e1d9a0c6b3f24e7a9c5d8b2f4a6e0c31
export CLOUDFLARE_ZONE_ID=7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40

e2e_console_start
e2e_wait_match '^ operations  0$'
e2e_wait_match "^  Couldn't connect to server"
# The list's rows (under its title and header), not the status line's.
e2e_wait_for "attempts)"
sed -n '4,8p' "$E2E_DIR/screen.now" | grep -q 'attempts)$' ||
    e2e_fail "the list's error is cut: no 'attempts)' under the header"
e2e_quit_and_check_sane q
