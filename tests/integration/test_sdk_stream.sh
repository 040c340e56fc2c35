#!/bin/sh
# The official SDK (npm cloudflare 7.3.0) against edgemu for the Stream
# calls beyond uploads (sdk_stream.mjs). Skipped, saying why, without
# node or without the SDK: set CLOUDFLARE_SDK_DIR to a directory whose
# node_modules holds cloudflare (default /tmp/sdk).
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/../..}
sdk=${CLOUDFLARE_SDK_DIR:-/tmp/sdk}
if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: node is not installed: the SDK test needs it"
	exit 77
fi
if [ ! -f "$sdk/node_modules/cloudflare/package.json" ]; then
	echo "SKIP: no SDK in $sdk/node_modules/cloudflare (npm install" \
	    "cloudflare@7.3.0 there, or set CLOUDFLARE_SDK_DIR)"
	exit 77
fi
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
