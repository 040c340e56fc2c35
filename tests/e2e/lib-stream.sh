# shellcheck shell=bash
# What the Stream end-to-end tests share, sourced after lib.sh: media files
# written byte by byte (no encoder), a field out of edgemu's JSON, and the
# pid of the program in the pane.

# Four bytes, big-endian.
_stream_be32() {
	printf '%b' "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' \
	    $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) \
	    $(($1 & 255)))"
}

# stream_mp4 FILE MILLISECONDS BYTES: an MP4 in its boxes only: ftyp, a
# moov whose mvhd (version 0, timescale 1000) gives the duration, then an
# mdat of random bytes up to BYTES in all (at least 144).
stream_mp4() {
	local f=${1:?stream_mp4: FILE} ms=${2:?stream_mp4: MS} n=${3:?stream_mp4: BYTES}

	[ "$n" -ge 144 ] || e2e_fail "stream_mp4: $n bytes is too small"
	{
		_stream_be32 20
		printf 'ftypmp42\0\0\0\0mp42'
		_stream_be32 116
		printf moov
		_stream_be32 108
		printf mvhd
		head -c 12 /dev/zero		# version, flags, the two times
		_stream_be32 1000
		_stream_be32 "$ms"
		_stream_be32 65536		# rate 1.0
		head -c 76 /dev/zero
		_stream_be32 $((n - 136))
		printf mdat
		head -c $((n - 144)) /dev/urandom
	} >"$f" || e2e_fail "stream_mp4: cannot write $f"
	[ "$(wc -c <"$f")" -eq "$n" ] || e2e_fail "stream_mp4: $f is not $n bytes"
}

# stream_png FILE: a real 4x4 RGBA PNG (75 bytes).
stream_png() {
	printf '%s' 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAEklEQVR42mP438BwAhkzkC4AAOCIJHFGZ8KtAAAAAElFTkSuQmCC' |
	    base64 -d >"${1:?stream_png: FILE}" ||
	    e2e_fail "stream_png: cannot write $1"
}

# stream_field NAME: the first string member NAME in the JSON on stdin
# (edgemu writes it compact: "name":"value").
stream_field() {
	grep -oE "\"$1\":\"[^\"]*\"" | head -n 1 | sed -E 's/^"[^"]*":"//; s/"$//'
}

# stream_number NAME: the first number member NAME in the JSON on stdin.
stream_number() {
	grep -oE "\"$1\":-?[0-9][0-9.eE+-]*" | head -n 1 | sed -E 's/^"[^"]*"://'
}

# stream_pane_pid: the pid of the program the pane runs (the one child of
# the pane's shell, which runs one command at a time).
stream_pane_pid() {
	local sh pid

	sh=$(_e2e_tmux display -p -t "$E2E_SESSION" '#{pane_pid}') ||
	    e2e_fail "tmux display pane_pid failed"
	# Under EDGETUI_WRAPPER (memcheck) the child has the wrapper's name.
	if [ -n "${EDGETUI_WRAPPER:-}" ]; then
		pid=$(pgrep -P "$sh" || true)
	else
		pid=$(pgrep -P "$sh" -x "$(basename "$EDGETUI")" || true)
	fi
	[ -n "$pid" ] && [ "$(wc -w <<<"$pid")" -eq 1 ] ||
	    e2e_fail "no single $(basename "$EDGETUI") under the pane's shell $sh: '$pid'"
	echo "$pid"
}
