#!/bin/sh
# The official SDK (npm cloudflare 7.3.0) against edgemu for the Stream
# calls beyond uploads (sdk_stream.mjs). The SDK is where ./bootstrap check
# installs it (tests/integration/sdk-lib.sh).
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/../..}
. "$top/tests/integration/sdk-lib.sh"
sdk_need cloudflare
sdk=$sdk_dir
dir=$(mktemp -d "${TMPDIR:-/tmp}/sdk-stream.XXXXXX")
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	[ -z "$pid" ] || wait "$pid" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
"${EDGEMU:-emulator/edgemu}" --listen 127.0.0.1:0 --data "$dir/data" \
    --token sdk-test-token --demo-data --processing-seconds 1 \
    --ready-file "$dir/ready" >"$dir/edgemu.log" 2>&1 &
pid=$!
i=0
while ! grep -q '^EDGEMU_ACCOUNT=' "$dir/ready" 2>/dev/null; do
	i=$((i + 1))
	# 60 s, as the other tests give edgemu to start (ASan, load).
	if [ "$i" -gt 1200 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "FAIL: edgemu did not start"; cat "$dir/edgemu.log"
		exit 1
	fi
	sleep 0.05
done
EDGEMU_URL=$(sed -n 's/^EDGEMU_URL=//p' "$dir/ready")
EDGEMU_ACCOUNT=$(sed -n 's/^EDGEMU_ACCOUNT=//p' "$dir/ready")
EDGEMU_TOKEN=sdk-test-token
SDK_DIR=$sdk
export EDGEMU_URL EDGEMU_ACCOUNT EDGEMU_TOKEN SDK_DIR
if ! node "$top/tests/integration/sdk_stream.mjs"; then
	echo "---- edgemu log"; tail -40 "$dir/edgemu.log"
	exit 1
fi
