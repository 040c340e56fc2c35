#!/bin/bash
# E's temporary YAML holds the record unmasked: when the console is told to
# end (SIGTERM, SIGHUP) while $EDITOR runs, the file is removed, the editor
# is stopped, and the console ends by that signal with the terminal as it
# was.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib-stream.sh"

e2e_init edit_signals
e2e_edgemu_start

# The editor says which file and which pid it is, then waits to be ended.
cat >"$E2E_DIR/editor.sh" <<EOF
#!/bin/sh
echo \$\$ >'$E2E_DIR/editor.pid'
printf '%s\n' "\$1" >'$E2E_DIR/editing.new'
mv '$E2E_DIR/editing.new' '$E2E_DIR/editing'
exec sleep 120
EOF
chmod +x "$E2E_DIR/editor.sh"
export EDITOR="$E2E_DIR/editor.sh"

# Until a process has ended (gone, or a zombie nobody reaped yet).
wait_ended() {
	local i=0 state

	while state=$(sed -n 's/^[0-9]* (.*) \([A-Z]\) .*/\1/p' \
	    "/proc/$1/stat" 2>/dev/null) && [ "$state" != Z ]; do
		i=$((i + 1))
		[ "$i" -lt 600 ] || e2e_fail "the editor (pid $1) still runs"
		sleep 0.05
	done
}

for sig in TERM HUP; do
	rm -f "$E2E_DIR/editing" "$E2E_DIR/editor.pid"
	e2e_console_start
	e2e_wait_match "^ operations  300$"
	e2e_command rl "^ rate-limits \(legacy, deprecated\)  8$"
	e2e_keys E
	i=0
	while [ ! -s "$E2E_DIR/editing" ]; do
		i=$((i + 1))
		[ "$i" -lt 600 ] || e2e_fail "the editor did not start"
		sleep 0.05
	done
	file=$(cat "$E2E_DIR/editing")
	[ -f "$file" ] || e2e_fail "no temporary file $file while editing"
	kill -s "$sig" "$(stream_pane_pid)"
	e2e_quit_and_check_sane -s $((128 + $(kill -l "$sig")))
	[ ! -e "$file" ] || e2e_fail "SIG$sig: $file was left behind"
	wait_ended "$(cat "$E2E_DIR/editor.pid")"
done
