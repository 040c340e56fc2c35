# shellcheck shell=bash
# The end-to-end harness: the console runs in a private tmux server against
# a private edgemu; tests send keys and read the screen. Sourced by
# tests/e2e/test_*.sh, which are bash scripts (this file needs bash >= 4).
#
# A test reads:
#
#	#!/bin/bash
#	set -eu
#	. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
#	e2e_init videos
#	e2e_edgemu_start
#	e2e_console_start
#	e2e_wait_for 'Videos'
#	e2e_keys Down Enter
#	e2e_expect_screen videos-detail.txt
#	e2e_quit_and_check_sane q
#
# Exit status follows automake: 0 pass, 1 fail, 77 skip. Nothing here waits
# by sleeping for a fixed time: every wait polls the screen (every 0.05 s)
# until a deadline, and failing prints the screen and edgemu's log.
#
# Environment read: EDGEMU, EDGETUI, TOP_SRCDIR (set by `make check`;
# defaults suit a run from the top build directory), EDGEMU_WRAPPER,
# E2E_REQUIRED (fail rather than skip without tmux), E2E_COLS/E2E_ROWS
# (120x40), E2E_TIMEOUT (default wait, 10 s), E2E_TIMEOUT_SCALE (integer
# factor on every deadline, for slow builds), E2E_UPDATE=1 (write screen
# expectations), E2E_KEEP=1 (keep the work dir, tmux and edgemu running),
# E2E_NORMALIZE_SED (extra sed -E script for e2e_normalize).

if [ -z "${BASH_VERSION:-}" ] || [ "${BASH_VERSINFO[0]}" -lt 4 ]; then
	echo "tests/e2e/lib.sh needs bash 4 or later" >&2
	exit 1
fi

E2E_SESSION=e2e
_e2e_main=
_e2e_failed=
_e2e_errline=
_e2e_edgemu_pid=
_e2e_nstart=0
_e2e_scr=
_e2e_dir_re=

# ---- set-up and tear-down ---------------------------------------------------

# e2e_init NAME: a private work dir, environment and tmux configuration.
e2e_init() {
	local tmp v

	E2E_NAME=${1:?e2e_init: NAME}
	_e2e_main=$BASHPID
	: "${TOP_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
	: "${EDGEMU:=$PWD/emulator/edgemu}"
	: "${EDGETUI:=$PWD/ui/edgetui}"
	: "${E2E_COLS:=120}" "${E2E_ROWS:=40}" "${E2E_TIMEOUT:=10}"
	export TOP_SRCDIR EDGEMU EDGETUI

	if ! command -v tmux >/dev/null 2>&1; then
		if [ -n "${E2E_REQUIRED:-}" ]; then
			echo "FAIL: tmux is not installed (E2E_REQUIRED is set)" >&2
			exit 1
		fi
		echo "SKIP: tmux is not installed"
		exit 77
	fi

	# A unix socket's path must fit in about 100 bytes.
	tmp=${TMPDIR:-/tmp}
	[ "${#tmp}" -le 60 ] || tmp=/tmp
	E2E_DIR=$(mktemp -d "$tmp/e2e-$E2E_NAME.XXXXXX") ||
	    { echo "FAIL: mktemp -d in $tmp" >&2; exit 1; }
	E2E_DIR=$(cd "$E2E_DIR" && pwd -P)
	E2E_SOCK=$E2E_DIR/tmux.sock
	_e2e_dir_re=$(printf '%s\n' "$E2E_DIR" | sed 's/[][\/.*^$]/\\&/g')
	trap _e2e_exit EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap '_e2e_errline="${BASH_SOURCE[0]##*/}:$LINENO"' ERR

	# Nothing of the user's may reach the console: home, config, tokens,
	# proxies, an enclosing tmux, a fixed terminal size.
	export HOME=$E2E_DIR/home
	export XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state
	export XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache
	mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_DATA_HOME" \
	    "$XDG_CACHE_HOME"
	for v in $(compgen -e); do
		case $v in
		EDGETUI_WRAPPER) ;;	# make check-valgrind's memcheck
		CLOUDFLARE_*|EDGETUI_*|EDGEMU_TOKEN|LC_*) unset "$v" ;;
		esac
	done
	export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
	unset TMUX TMUX_PANE COLUMNS LINES EDITOR VISUAL ESCDELAY NO_COLOR \
	    http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
	export no_proxy=127.0.0.1,localhost,::1 NO_PROXY=127.0.0.1,localhost,::1

	# tmux 3.3a crashes when window-size manual is in the configuration
	# and new-session gets -x/-y: it is set on the window once it exists.
	cat >"$E2E_DIR/tmux.conf" <<-'EOF'
	set -g default-terminal xterm-256color
	set -g default-shell /bin/sh
	set -g status off
	set -g escape-time 0
	set -g focus-events off
	set -g set-titles off
	setw -g remain-on-exit on
	setw -g automatic-rename off
	setw -g alternate-screen on
	set -g set-clipboard on
	EOF
}

_e2e_tmux() {
	tmux -u -S "$E2E_SOCK" -f "$E2E_DIR/tmux.conf" "$@"
}

_e2e_tmux_stop() {
	[ -S "$E2E_SOCK" ] || return 0
	_e2e_tmux kill-server >/dev/null 2>&1 || true
	rm -f "$E2E_SOCK"
}

# Stop edgemu; its exit status (0 when it stopped cleanly on SIGTERM).
_e2e_edgemu_stop() {
	local pid=$_e2e_edgemu_pid deadline st=0

	[ -n "$pid" ] || return 0
	_e2e_edgemu_pid=
	kill -TERM "$pid" 2>/dev/null || true
	_e2e_now
	deadline=$((_e2e_t + $(_e2e_ms 10)))
	while kill -0 "$pid" 2>/dev/null; do
		_e2e_now
		if [ "$_e2e_t" -ge "$deadline" ]; then
			echo "e2e: edgemu did not stop on SIGTERM" >&2
			kill -KILL "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.05
	done
	wait "$pid" 2>/dev/null || st=$?
	return "$st"
}

_e2e_exit() {
	local rc=$? st=0

	# A subshell (an expected failure in a test) leaves all this alone.
	[ "$BASHPID" = "$_e2e_main" ] || return "$rc"
	trap - EXIT ERR
	set +e
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -z "$_e2e_failed" ]; then
		echo "FAIL: exit status $rc${_e2e_errline:+ (last failing command at $_e2e_errline)}" >&2
		_e2e_diagnose >&2
	fi
	if [ -n "${E2E_KEEP:-}" ] && [ "$E2E_KEEP" != 0 ]; then
		echo "e2e: kept $E2E_DIR"
		if [ -S "$E2E_SOCK" ]; then
			echo "e2e: the pane: tmux -S $E2E_SOCK attach -t $E2E_SESSION"
			echo "e2e: then: tmux -S $E2E_SOCK kill-server"
		fi
		if [ -n "$_e2e_edgemu_pid" ]; then
			echo "e2e: edgemu (pid $_e2e_edgemu_pid) serves $CLOUDFLARE_BASE_URL;" \
			    "its token is in $E2E_DIR/curl.headers;" \
			    "kill $_e2e_edgemu_pid stops it"
		fi
		exit "$rc"
	fi
	_e2e_tmux_stop
	_e2e_edgemu_stop || st=$?
	if [ "$st" -ne 0 ] && [ "$rc" -eq 0 ]; then
		echo "FAIL: edgemu exited with status $st" >&2
		tail -n 40 "$E2E_DIR/edgemu.log" >&2
		rc=1
	fi
	rm -rf "$E2E_DIR"
	exit "$rc"
}

# What a failure shows: the screen as it is now, then edgemu's last words.
_e2e_diagnose() {
	local f=$E2E_DIR/screen.fail

	if _e2e_tmux capture-pane -p -t "$E2E_SESSION" >"$f" 2>/dev/null; then
		echo "---- screen ($(_e2e_tmux display -p -t "$E2E_SESSION" \
		    '#{pane_width}x#{pane_height}, alternate #{alternate_on}'))"
		sed 's/^/|/' "$f"
	elif [ -s "$E2E_DIR/screen.now" ]; then
		echo "---- screen (the last one captured; tmux is gone)"
		sed 's/^/|/' "$E2E_DIR/screen.now"
	fi
	if [ -s "$E2E_DIR/edgemu.log" ]; then
		echo "---- edgemu log (last 40 lines of $(wc -l \
		    <"$E2E_DIR/edgemu.log"))"
		tail -n 40 "$E2E_DIR/edgemu.log"
	fi
	echo "----"
}

# e2e_fail MSG: fail the test now, with the screen and edgemu's log.
e2e_fail() {
	echo "FAIL: $*" >&2
	_e2e_diagnose >&2
	_e2e_failed=1
	exit 1
}

# ---- time ---------------------------------------------------------------------

# Milliseconds on the wall clock, in _e2e_t (no subshell: it runs per poll).
_e2e_now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		_e2e_t=${EPOCHREALTIME/[.,]/}
		_e2e_t=$((10#$_e2e_t / 1000))
	else
		_e2e_t=$(date +%s%3N)
	fi
}

# _e2e_ms SECONDS: milliseconds times E2E_TIMEOUT_SCALE ("2", "0.5").
_e2e_ms() {
	local s=$1 i f=

	[[ $s =~ ^[0-9]+(\.[0-9]+)?$ ]] || e2e_fail "bad number of seconds: '$s'"
	i=${s%%.*}
	[[ $s == *.* ]] && f=${s#*.}
	f=${f}000
	echo $(((10#$i * 1000 + 10#${f:0:3}) * ${E2E_TIMEOUT_SCALE:-1}))
}

# ---- edgemu ---------------------------------------------------------------------

# e2e_edgemu_start [EDGEMU-ARGS...]: edgemu with the demo data on a free
# port, and the console's CLOUDFLARE_* environment pointing at it.
# shellcheck disable=SC2120
e2e_edgemu_start() {
	local token ready=$E2E_DIR/edgemu.ready deadline k v

	[ -x "$EDGEMU" ] || e2e_fail "no edgemu at $EDGEMU"
	[ -z "$_e2e_edgemu_pid" ] || e2e_fail "edgemu is already running"
	token=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
	[ "${#token}" -eq 32 ] || e2e_fail "no random token from /dev/urandom"
	rm -f "$ready"
	# The token goes by the environment: never on a command line.
	# shellcheck disable=SC2086
	EDGEMU_TOKEN=$token ${EDGEMU_WRAPPER:-} "$EDGEMU" -v \
	    --listen 127.0.0.1:0 --data "$E2E_DIR/edgemu" --demo-data \
	    --ready-file "$ready" "$@" >/dev/null 2>"$E2E_DIR/edgemu.log" \
	    </dev/null &
	_e2e_edgemu_pid=$!

	_e2e_now
	deadline=$((_e2e_t + $(_e2e_ms "$E2E_TIMEOUT")))
	while [ ! -s "$ready" ]; do
		if ! kill -0 "$_e2e_edgemu_pid" 2>/dev/null; then
			wait "$_e2e_edgemu_pid" || true
			_e2e_edgemu_pid=
			e2e_fail "edgemu exited before it was ready"
		fi
		_e2e_now
		[ "$_e2e_t" -lt "$deadline" ] ||
		    e2e_fail "edgemu was not ready after ${E2E_TIMEOUT}s"
		sleep 0.05
	done
	while IFS='=' read -r k v; do
		case $k in
		EDGEMU_URL)	export CLOUDFLARE_BASE_URL=$v ;;
		EDGEMU_ACCOUNT)	export CLOUDFLARE_ACCOUNT_ID=$v ;;
		EDGEMU_ZONE)	export CLOUDFLARE_ZONE_ID=$v ;;
		esac
	done <"$ready"
	export CLOUDFLARE_API_TOKEN=$token
	if [ -z "${CLOUDFLARE_BASE_URL:-}" ] || [ -z "${CLOUDFLARE_ZONE_ID:-}" ]; then
		e2e_fail "edgemu's ready file lacks the URL or the demo zone"
	fi
	# curl reads the header from this file (-H @file), so the token is
	# never in a process's arguments.
	(umask 077 && printf 'Authorization: Bearer %s\n' "$token" \
	    >"$E2E_DIR/curl.headers")
}

# e2e_api METHOD PATH [JSON]: call edgemu's API (PATH below
# $CLOUDFLARE_BASE_URL, e.g. /zones/$CLOUDFLARE_ZONE_ID/rate_limits) and
# print the body. Non-2xx: a message on stderr and status 1; the HTTP
# status is kept for e2e_api_status either way.
e2e_api() {
	local method=${1:?e2e_api: METHOD} path=${2:?e2e_api: PATH} code
	local -a args

	command -v curl >/dev/null 2>&1 || e2e_fail "e2e_api needs curl"
	[ -s "$E2E_DIR/curl.headers" ] || e2e_fail "e2e_api: no edgemu (e2e_edgemu_start)"
	args=(-sS --noproxy '*' --max-time 30 -X "$method"
	    -H "@$E2E_DIR/curl.headers" -o "$E2E_DIR/api.body"
	    -w '%{http_code}')
	if [ $# -ge 3 ]; then
		args+=(-H 'Content-Type: application/json' --data-binary @-)
		code=$(printf '%s' "$3" |
		    curl "${args[@]}" "$CLOUDFLARE_BASE_URL$path") ||
		    e2e_fail "e2e_api $method $path: curl failed"
	else
		code=$(curl "${args[@]}" "$CLOUDFLARE_BASE_URL$path" </dev/null) ||
		    e2e_fail "e2e_api $method $path: curl failed"
	fi
	echo "$code" >"$E2E_DIR/api.status"
	cat "$E2E_DIR/api.body"
	case $code in
	2??)	return 0 ;;
	esac
	echo "e2e_api: $method $path: HTTP $code" >&2
	return 1
}

# e2e_clipboard: what the program last copied by OSC 52 (tmux keeps it as
# its newest buffer); empty when nothing was.
e2e_clipboard() {
	_e2e_tmux show-buffer 2>/dev/null || true
}

# e2e_api_status: the HTTP status of the last e2e_api call.
e2e_api_status() {
	cat "$E2E_DIR/api.status"
}

# ---- the program in the pane --------------------------------------------------

_e2e_quote() {	# one word for sh, in single quotes
	printf "'%s'" "${1//\'/\'\\\'\'}"
}

# e2e_program_start PROG [ARGS...]: PROG in a fresh detached tmux session
# of E2E_COLSxE2E_ROWS; the terminal settings are recorded before it runs
# (stty.before) and after it exits (stty.after), then E2E-EXIT:STATUS is
# printed and the pane stays open. A fresh tmux server each time, so the
# program gets the environment exported now.
e2e_program_start() {
	local a cmd=

	[ -n "${1:-}" ] || e2e_fail "e2e_program_start: no program"
	_e2e_tmux_stop
	_e2e_nstart=$((_e2e_nstart + 1))
	E2E_SOCK=$E2E_DIR/tmux.$_e2e_nstart.sock
	rm -f "$E2E_DIR"/stty.before "$E2E_DIR"/stty.after \
	    "$E2E_DIR"/screen.now "$E2E_DIR"/screen.last
	for a in "$@"; do
		cmd="$cmd $(_e2e_quote "$a")"
	done
	# stty.after is written before the marker, so the marker on screen
	# means the record is complete.
	cat >"$E2E_DIR/run.sh" <<-EOF
	unset COLUMNS LINES
	stty -a >$(_e2e_quote "$E2E_DIR/stty.before") 2>&1
	$cmd
	status=\$?
	stty -a >$(_e2e_quote "$E2E_DIR/stty.after") 2>&1
	printf 'E2E-EXIT:%s\n' "\$status"
	exec sleep 3600
	EOF
	_e2e_tmux new-session -d -s "$E2E_SESSION" -x "$E2E_COLS" \
	    -y "$E2E_ROWS" -c "$E2E_DIR" /bin/sh "$E2E_DIR/run.sh" ||
	    e2e_fail "tmux new-session failed"
	_e2e_tmux set -w -t "$E2E_SESSION" window-size manual >/dev/null ||
	    e2e_fail "tmux set window-size failed"
}

# e2e_console_start [ARGS...]: the console (edgetui with no command),
# under EDGETUI_WRAPPER when set (make check-valgrind: memcheck, its
# report in a file so the screen stays the console's).
e2e_console_start() {
	[ -x "$EDGETUI" ] || e2e_fail "no edgetui at $EDGETUI"
	if [ -n "${EDGETUI_WRAPPER:-}" ]; then
		# shellcheck disable=SC2086 # the wrapper is words
		e2e_program_start $EDGETUI_WRAPPER "$EDGETUI" "$@"
	else
		e2e_program_start "$EDGETUI" "$@"
	fi
}

# e2e_keys KEY...: tmux send-keys: names (Enter Escape Space Tab BSpace
# Up Down Left Right NPage PPage Home End F1 C-c M-x) or text; "-l TEXT"
# sends TEXT literally.
e2e_keys() {
	_e2e_tmux send-keys -t "$E2E_SESSION" "$@" ||
	    e2e_fail "tmux send-keys $* failed"
}

# e2e_type TEXT: TEXT as typed, no key names.
e2e_type() {
	_e2e_tmux send-keys -t "$E2E_SESSION" -l -- "$1" ||
	    e2e_fail "tmux send-keys -l failed"
}

# e2e_command TEXT REGEX: the console command :TEXT, typed and entered,
# then until a line matches REGEX (what it opens).
e2e_command() {
	e2e_keys :
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait_match "$2"
}

# e2e_resize COLS ROWS
e2e_resize() {
	local size

	_e2e_tmux resize-window -t "$E2E_SESSION" -x "$1" -y "$2" ||
	    e2e_fail "tmux resize-window failed"
	size=$(_e2e_tmux display -p -t "$E2E_SESSION" \
	    '#{pane_width}x#{pane_height}')
	[ "$size" = "$1x$2" ] || e2e_fail "the pane is $size after resizing to $1x$2"
	E2E_COLS=$1 E2E_ROWS=$2
}

# ---- the screen -----------------------------------------------------------------

# The screen into screen.now and _e2e_scr; screen.last keeps the last one
# captured while the program was still running.
_e2e_grab() {
	local alt

	# The screen and, in the same tmux call, whether the program's
	# alternate screen is up: only such a screen is the program's own
	# (after it exits, the pane shows the shell's lines, "Hangup"...).
	_e2e_tmux capture-pane -p -t "$E2E_SESSION" \; \
	    display -p -t "$E2E_SESSION" '#{alternate_on}' \
	    >"$E2E_DIR/screen.raw" 2>&1 ||
	    e2e_fail "tmux capture-pane: $(cat "$E2E_DIR/screen.raw")"
	alt=$(tail -n 1 "$E2E_DIR/screen.raw")
	sed '$d' "$E2E_DIR/screen.raw" >"$E2E_DIR/screen.now"
	_e2e_scr=$(<"$E2E_DIR/screen.now")
	if [ "$alt" = 1 ] && [[ $_e2e_scr != *E2E-EXIT:* ]]; then
		printf '%s\n' "$_e2e_scr" >"$E2E_DIR/screen.last"
	fi
}

_e2e_has() { [[ $_e2e_scr == *"$1"* ]]; }
_e2e_lacks() { [[ $_e2e_scr != *"$1"* ]]; }
_e2e_matches() { grep -qE -- "$1" <<<"$_e2e_scr"; }

# _e2e_poll SECONDS WHAT CHECK [ARGS...]: capture until CHECK holds.
_e2e_poll() {
	local secs=$1 what=$2 deadline

	shift 2
	_e2e_now
	deadline=$((_e2e_t + $(_e2e_ms "$secs")))
	while :; do
		_e2e_grab
		"$@" && return 0
		_e2e_now
		[ "$_e2e_t" -lt "$deadline" ] ||
		    e2e_fail "timed out after ${secs}s waiting for $what"
		sleep 0.05
	done
}

# e2e_wait_for TEXT [SECONDS]: until the screen contains TEXT (a fixed
# string; lines are not joined, so TEXT should fit on one line).
e2e_wait_for() {
	_e2e_poll "${2:-$E2E_TIMEOUT}" "'$1'" _e2e_has "$1"
}

# e2e_wait_gone TEXT [SECONDS]: until TEXT is off the screen.
e2e_wait_gone() {
	_e2e_poll "${2:-$E2E_TIMEOUT}" "'$1' to go" _e2e_lacks "$1"
}

_e2e_count() { [ "$(grep -cE -- "$1" <<<"$_e2e_scr")" -eq "$2" ]; }

# e2e_wait_count REGEX N [SECONDS]: until exactly N lines match REGEX: a
# whole new list on screen, not the first lines of one being drawn.
e2e_wait_count() {
	_e2e_poll "${3:-$E2E_TIMEOUT}" "$2 lines matching /$1/" _e2e_count \
	    "$1" "$2"
}

# e2e_wait_match REGEX [SECONDS]: until a line matches REGEX (grep -E).
e2e_wait_match() {
	_e2e_poll "${2:-$E2E_TIMEOUT}" "/$1/" _e2e_matches "$1"
}

_e2e_log_has() {
	[ "$(grep -cE -- "$1" "$E2E_DIR/edgemu.log" || true)" -ge "$2" ]
}

# e2e_wait_log REGEX N [SECONDS]: until edgemu's log has N lines or more
# matching REGEX. edgemu logs a request once its reply is sent: the console
# can show the answer before the line is there.
e2e_wait_log() {
	_e2e_poll "${3:-$E2E_TIMEOUT}" "$2 lines /$1/ in edgemu's log" \
	    _e2e_log_has "$1" "$2"
}

_e2e_api_has() {
	e2e_api GET "$1" 2>/dev/null | grep -qE -- "$2"
}

# e2e_wait_api PATH REGEX [SECONDS]: until edgemu's answer to GET PATH
# matches REGEX (grep -E): a state the server reaches in its own time
# (a download or captions ready); failing, as the other waits do, when
# it does not come.
e2e_wait_api() {
	local deadline

	_e2e_now
	deadline=$((_e2e_t + $(_e2e_ms "${3:-$E2E_TIMEOUT}")))
	until _e2e_api_has "$1" "$2"; do
		_e2e_now
		[ "$_e2e_t" -lt "$deadline" ] ||
		    e2e_fail "timed out after ${3:-$E2E_TIMEOUT}s waiting for GET $1 to match /$2/"
		sleep 0.05
	done
}

# e2e_screen: the screen now, one line per row.
e2e_screen() {
	_e2e_grab
	cat "$E2E_DIR/screen.now"
}

# e2e_normalize: stdin to stdout with what changes between runs replaced:
# the work dir, 32-hex ids and UUIDs, RFC 3339 and "YYYY-MM-DD HH:MM"
# times, ages ("3s ago", "1m30s ago", "2 hours ago"), loopback ports, and
# the request budget on the first row ("budget 1187", "1187/1200").
e2e_normalize() {
	sed -E \
	    -e "s/$_e2e_dir_re/<workdir>/g" \
	    -e 's/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/<uuid>/g' \
	    -e 's/\b[0-9a-f]{32}\b/<id>/g' \
	    -e 's/\b[0-9a-f]{6,31}…/<id>…/g' \
	    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})/<time>/g' \
	    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?/<time>/g' \
	    -e 's/\b([0-9]+[smhdwy])+ ago\b/<ago>/g' \
	    -e 's/\b[0-9]+ (second|minute|hour|day|week|month|year)s? ago\b/<ago>/g' \
	    -e 's/(127\.0\.0\.1|localhost|\[::1\]):[0-9]+/\1:<port>/g' \
	    -e '1s/\b([Bb]udget:? *)[0-9]+/\1<budget>/g' \
	    -e '1s/\b[0-9]+\/([0-9]+)\b/<budget>\/\1/g' \
	    -e "${E2E_NORMALIZE_SED:-}"
}

# e2e_screen_normalized: the screen through e2e_normalize.
e2e_screen_normalized() {
	_e2e_grab
	e2e_normalize <"$E2E_DIR/screen.now"
}

# Until three captures in a row are the same (for writing expectations).
_e2e_settle() {
	local prev='' same=0 deadline

	_e2e_now
	deadline=$((_e2e_t + $(_e2e_ms 2)))
	while [ "$same" -lt 3 ]; do
		_e2e_grab
		if [ "$_e2e_scr" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$_e2e_scr
		_e2e_now
		[ "$_e2e_t" -lt "$deadline" ] || return 0
		sleep 0.05
	done
}

# e2e_expect_screen FILE [SECONDS]: until the normalised screen is
# tests/e2e/expect/FILE (default 5 s); then a unified diff and failure.
# With E2E_UPDATE=1 the screen, once still, is written to FILE instead.
e2e_expect_screen() {
	local name=${1:?e2e_expect_screen: FILE} exp act deadline

	exp=$TOP_SRCDIR/tests/e2e/expect/$name
	act=$E2E_DIR/actual.${name//\//_}
	if [ -n "${E2E_UPDATE:-}" ] && [ "$E2E_UPDATE" != 0 ]; then
		_e2e_settle
		mkdir -p "$(dirname "$exp")"
		e2e_normalize <"$E2E_DIR/screen.now" >"$exp"
		echo "e2e: wrote $exp"
		return 0
	fi
	[ -f "$exp" ] || e2e_fail "no expectation $exp (E2E_UPDATE=1 writes it)"
	_e2e_now
	deadline=$((_e2e_t + $(_e2e_ms "${2:-5}")))
	while :; do
		_e2e_grab
		e2e_normalize <"$E2E_DIR/screen.now" >"$act"
		cmp -s "$exp" "$act" && return 0
		_e2e_now
		[ "$_e2e_t" -lt "$deadline" ] || break
		sleep 0.05
	done
	diff -u --label "expect/$name" --label "screen" "$exp" "$act" >&2
	e2e_fail "the screen differs from expect/$name (E2E_UPDATE=1 rewrites it)"
}

# e2e_assert_contains TEXT: the screen shows TEXT. It polls like
# e2e_wait_for: a screen captured while a redraw is still arriving (the
# rows above TEXT drawn, TEXT's not yet) must not fail the test.
e2e_assert_contains() {
	_e2e_poll "$E2E_TIMEOUT" "'$1' on the screen" _e2e_has "$1"
}

# e2e_assert_not_contains TEXT: the screen does not show TEXT now (no
# waiting: a secret or a row that must never be drawn fails at once).
e2e_assert_not_contains() {
	_e2e_grab
	_e2e_lacks "$1" || e2e_fail "the screen shows '$1'"
}

# ---- leaving ----------------------------------------------------------------------

# "icanon" or "-icanon" as recorded in an stty -a file.
_e2e_stty_flag() {
	tr -s ' ;' '\n' <"$2" | grep -xE -- "-?$1" | head -n 1
}

# e2e_quit_and_check_sane [-s STATUS] [KEY...]: send the keys, if any,
# wait for the program to exit, and fail unless it exited with STATUS
# (default 0; "any" for any) and left the terminal as it found it: the
# same icanon echo isig icrnl opost ixon, off the alternate screen, the
# cursor shown, the keypad and cursor keys in their normal mode, and none
# of its last screen left on the normal one. Sets E2E_EXIT_STATUS.
e2e_quit_and_check_sane() {
	local want=0 status flag before after alt modes left problems=

	if [ "${1:-}" = -s ]; then
		want=${2:?e2e_quit_and_check_sane: -s STATUS}
		shift 2
	fi
	[ $# -eq 0 ] || e2e_keys "$@"
	e2e_wait_match 'E2E-EXIT:[0-9]+'
	status=$(grep -oE 'E2E-EXIT:[0-9]+' "$E2E_DIR/screen.now" | tail -n 1)
	E2E_EXIT_STATUS=${status#E2E-EXIT:}
	if [ "$want" != any ] && [ "$E2E_EXIT_STATUS" != "$want" ]; then
		problems="$problems; exit status $E2E_EXIT_STATUS, not $want"
	fi
	if [ ! -s "$E2E_DIR/stty.before" ] || [ ! -s "$E2E_DIR/stty.after" ]; then
		e2e_fail "the pane did not record stty -a before and after"
	fi
	for flag in icanon echo isig icrnl opost ixon; do
		before=$(_e2e_stty_flag "$flag" "$E2E_DIR/stty.before")
		after=$(_e2e_stty_flag "$flag" "$E2E_DIR/stty.after")
		[ "$before" = "$after" ] ||
		    problems="$problems; stty $after (it was $before)"
	done
	alt=$(_e2e_tmux display -p -t "$E2E_SESSION" '#{alternate_on}')
	[ "$alt" = 0 ] || problems="$problems; still on the alternate screen"
	modes=$(_e2e_tmux display -p -t "$E2E_SESSION" \
	    '#{cursor_flag} #{keypad_flag} #{keypad_cursor_flag}')
	[ "$modes" = "1 0 0" ] ||
	    problems="$problems; cursor shown, keypad, cursor keys: $modes (not 1 0 0)"
	if [ -s "$E2E_DIR/screen.last" ]; then
		grep -v '^[[:space:]]*$' "$E2E_DIR/screen.last" \
		    >"$E2E_DIR/screen.last.lines" || true
		left=$(grep -cFx -f "$E2E_DIR/screen.last.lines" \
		    "$E2E_DIR/screen.now" || true)
		[ ! -s "$E2E_DIR/screen.last.lines" ] || [ "$left" -eq 0 ] ||
		    problems="$problems; $left line(s) of its last screen still shown"
	fi
	[ -z "$problems" ] ||
	    e2e_fail "the terminal was not restored after exit: ${problems#; }"
}
