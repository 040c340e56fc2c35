#!/bin/bash
# edgetui upload on a terminal, to a server taking 1 MB a second: the bar
# shows the bytes being sent while the first chunk is on its way (none is
# stored yet), and Ctrl-C ends it with status 130 saying where it stopped
# and how to resume; the same command then resumes it.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init upload-progress
e2e_edgemu_start --upload-rate 1000000
head -c $((12 * 1024 * 1024)) /dev/urandom >"$E2E_DIR/twelve.bin"

# Ctrl-C is the terminal's SIGINT to the process group, the pane's shell
# too: here it goes to edgetui alone, whose pid the wrapper leaves.
upload() {
	rm -f "$E2E_DIR/pid"
	e2e_program_start /bin/sh -c 'echo $$ >"$0"; exec "$@"' \
	    "$E2E_DIR/pid" "$EDGETUI" upload "$E2E_DIR/twelve.bin" \
	    --chunk-size 5242880
}
ctrl_c() {
	[ -s "$E2E_DIR/pid" ] || e2e_fail "no pid from the wrapper"
	kill -INT "$(cat "$E2E_DIR/pid")"
}

upload
# Sent goes above 0 while stored is still 0: the first 5 MiB chunk.
e2e_wait_match 'upload: +[0-9.]+%  ([1-9][0-9]*\.[0-9]|0\.[1-9])/12\.0 MiB sent, 0\.0 stored  [0-9.]+ MB/s  ETA '
ctrl_c
# (The line wraps at the pane's width.)
e2e_wait_for "twelve.bin interrupted at 0 MiB of 12; run the same command again"
e2e_wait_for "E2E-EXIT:130"

# The same command resumes it (its bar from where the server is).
upload
e2e_wait_for "edgetui: resuming at "
e2e_wait_match 'upload: +[0-9.]+%  [0-9.]+/12\.0 MiB sent, [0-9.]+ stored'
ctrl_c
e2e_wait_for "E2E-EXIT:130"
