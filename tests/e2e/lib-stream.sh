# shellcheck shell=bash
# What the Stream end-to-end tests share, sourced after lib.sh: media files
# written byte by byte (no encoder), a field out of edgemu's JSON, the
# pid of the program in the pane, tus uploads and downloads on edgemu.

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

# stream_chunk_config: a config.yaml whose uploads go in 5 MiB chunks (the
# least Stream takes), so an upload's journal moves as it goes.
stream_chunk_config() {
	mkdir -p "$XDG_CONFIG_HOME/edgetui"
	cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<'YAML'
preferences:
  chunk_size: 5242880
YAML
	chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"
}

# stream_journal_uid VAR: sets VAR to the uid of the one upload in the
# console's upload journal; fails when there is no journal or not one uid.
stream_journal_uid() {
	# (the locals' names must not be the caller's VAR)
	local _s_journal=$XDG_STATE_HOME/edgetui/uploads.json _s_uid

	[ -s "$_s_journal" ] || e2e_fail "no upload journal at $_s_journal"
	_s_uid=$(grep -oE '"uid":[[:space:]]*"[0-9a-f]{32}"' "$_s_journal" |
	    grep -oE '[0-9a-f]{32}')
	[ "$(wc -w <<<"$_s_uid")" -eq 1 ] ||
	    e2e_fail "the journal does not hold one uid: $(cat "$_s_journal")"
	printf -v "${1:?stream_journal_uid: VAR}" '%s' "$_s_uid"
}

# stream_tus_head UID: the headers edgemu answers a tus HEAD on video UID
# with (CRs removed).
stream_tus_head() {
	curl -sS --noproxy '*' --max-time 10 -I -H "@$E2E_DIR/curl.headers" \
	    -H 'Tus-Resumable: 1.0.0' \
	    "$CLOUDFLARE_BASE_URL/accounts/$CLOUDFLARE_ACCOUNT_ID/stream/${1:?stream_tus_head: UID}" |
	    tr -d '\r'
}

# stream_tus_offset UID: the offset edgemu answers a tus HEAD on video UID
# with (nothing when it answers none).
stream_tus_offset() {
	stream_tus_head "${1:?stream_tus_offset: UID}" |
	    sed -n 's/^[Uu]pload-[Oo]ffset: *//p'
}

# stream_tus_settled VAR UID: waits until a PATCH cut short has ended on the
# server, keeping what arrived, and sets VAR to the offset then: HEAD no
# longer says a PATCH is in progress (a cut PATCH that has written nothing
# yet leaves the offset equal to the file's size while it still runs), and
# the offset is all the stored file holds.
stream_tus_settled() {
	# (the locals' names must not be the caller's VAR)
	local _s_uid=${2:?stream_tus_settled: UID} _s_stored _s_deadline _s_held
	local _s_head

	_s_stored=$E2E_DIR/edgemu/videos/$CLOUDFLARE_ACCOUNT_ID/$_s_uid
	_s_deadline=$(($(date +%s) + 10 * ${E2E_TIMEOUT_SCALE:-1}))
	until _s_head=$(stream_tus_head "$_s_uid") &&
	    _s_held=$(sed -n 's/^[Uu]pload-[Oo]ffset: *//p' <<<"$_s_head") &&
	    [ -n "$_s_held" ] &&
	    ! grep -qi '^edgemu-patch-in-progress:' <<<"$_s_head" &&
	    [ "$_s_held" = "$(stat -c %s "$_s_stored")" ]; do
		[ "$(date +%s)" -lt "$_s_deadline" ] ||
		    e2e_fail "edgemu holds $(stat -c %s "$_s_stored") bytes of $_s_uid but answers offset '$_s_held'${_s_head:+ (its HEAD: $(tr '\n' ' ' <<<"$_s_head"))}"
		sleep 0.05
	done
	printf -v "${1:?stream_tus_settled: VAR}" '%s' "$_s_held"
}

# stream_download_ready UID SECONDS: asks for the MP4 download of video UID
# and waits (at most SECONDS, scaled) until edgemu has made it ready, after
# its processing time: a clock that runs on edgemu's time.
stream_download_ready() {
	local uid=${1:?stream_download_ready: UID} deadline
	local dl=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream/$uid/downloads

	e2e_api POST "$dl" >/dev/null
	deadline=$(($(date +%s) + ${2:?stream_download_ready: SECONDS} * ${E2E_TIMEOUT_SCALE:-1}))
	until e2e_api GET "$dl" | grep -q '"status":"ready"'; do
		[ "$(date +%s)" -lt "$deadline" ] ||
		    e2e_fail "the download of $uid is not ready"
		sleep 0.1
	done
}

# stream_left_upload UID: an upload left unfinished by an earlier run, as
# its journal has it: $E2E_DIR/left.mp4 (8192 bytes) for video UID, at
# offset 0, the one entry of the console's upload journal.
stream_left_upload() {
	local uid=${1:?stream_left_upload: UID} mtime
	local journal=$XDG_STATE_HOME/edgetui/uploads.json
	local stream=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

	stream_mp4 "$E2E_DIR/left.mp4" 5000 8192
	mkdir -p "$XDG_STATE_HOME/edgetui"
	mtime=$(stat -c %Y "$E2E_DIR/left.mp4")
	cat >"$journal" <<JSON
{"uploads": [{
	"key": "$CLOUDFLARE_BASE_URL|$CLOUDFLARE_ACCOUNT_ID|8192|$mtime|$E2E_DIR/left.mp4",
	"file": "$E2E_DIR/left.mp4",
	"size": 8192,
	"mtime": $mtime,
	"base_url": "$CLOUDFLARE_BASE_URL",
	"account": "$CLOUDFLARE_ACCOUNT_ID",
	"url": "$CLOUDFLARE_BASE_URL$stream/$uid",
	"uid": "$uid",
	"created": $(date +%s),
	"offset": 0
}]}
JSON
	chmod 600 "$journal"
}

# stream_refresh_config SECONDS: the console's videos list refreshes every
# SECONDS while it shows a video in processing (preferences.list_refresh).
stream_refresh_config() {
	mkdir -p "$XDG_CONFIG_HOME/edgetui"
	printf 'preferences:\n  list_refresh: %s\n' "${1:?SECONDS}" \
	    >"$XDG_CONFIG_HOME/edgetui/config.yaml"
	chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"
}

# stream_list_gets FROM: how many GETs of the videos list edgemu's log has
# past line FROM. edgemu logs a request once answered, so a fetch whose
# answer is on screen may still be missing: stream_wait_list_gets.
stream_list_gets() {
	local list=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

	tail -n +"$((${1:?FROM} + 1))" "$E2E_DIR/edgemu.log" |
	    grep -cE "^edgemu: GET $list [0-9]{3} " || true
}

_stream_gets_at_least() { [ "$(stream_list_gets "$1")" -ge "$2" ]; }

# stream_wait_list_gets FROM N: until edgemu's log has N list GETs past FROM.
stream_wait_list_gets() {
	_e2e_poll "$E2E_TIMEOUT" "$2 list GETs in edgemu's log" \
	    _stream_gets_at_least "$1" "$2"
}
