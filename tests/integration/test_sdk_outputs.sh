#!/bin/sh
# The official SDK (npm cloudflare 7.3.0) against edgemu's live input
# outputs: create, list, update (enabled) and delete, and a refused url.
# The SDK is where ./bootstrap check installs it
# (tests/integration/sdk-lib.sh).
emu=${EDGEMU:-emulator/edgemu}
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/integration/sdk-lib.sh"
sdk_need cloudflare
sdk=$sdk_dir
[ -x "$emu" ] || { echo "no edgemu at $emu"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sdk-outputs.XXXXXX") || exit 99
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null
	[ -z "$pid" ] || wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
EDGEMU_TOKEN=sdk-outputs-test "$emu" --listen 127.0.0.1:0 --data "$tmp/data" \
    --demo-data --ready-file "$tmp/ready" >"$tmp/log" 2>&1 &
pid=$!
# The ready file is written once edgemu listens: bounded wait for it.
i=0
while ! grep -q '^EDGEMU_ACCOUNT=' "$tmp/ready" 2>/dev/null; do
	i=$((i + 1))
	if [ "$i" -gt 300 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "edgemu did not start:"; cat "$tmp/log"; exit 99
	fi
	sleep 0.1
done
url=$(sed -n 's/^EDGEMU_URL=//p' "$tmp/ready")
account=$(sed -n 's/^EDGEMU_ACCOUNT=//p' "$tmp/ready")
cat >"$tmp/outputs.cjs" <<'JS'
const [sdk, baseURL, account_id] = process.argv.slice(2);
const Cloudflare = require(sdk + '/node_modules/cloudflare').default;
(async () => {
const cf = new Cloudflare({ apiToken: 'sdk-outputs-test', baseURL });
const fail = (m) => { console.error('FAIL: ' + m); process.exit(1); };
const inputs = await cf.stream.liveInputs.list({ account_id });
const li = inputs.liveInputs[0].uid;
const o = cf.stream.liveInputs.outputs;
const made = await o.create(li, { account_id,
    url: 'rtmp://a.rtmp.youtube.com/live2', streamKey: 'uzya-f19y-g2g9' });
if (!/^[0-9a-f]{32}$/.test(made.uid) || made.enabled !== true ||
    made.streamKey !== 'uzya-f19y-g2g9')
	fail('create answered ' + JSON.stringify(made));
const srt = await o.create(li, { account_id, enabled: false,
    url: 'srt://ingest.example.com:9000', streamKey: 'k2' });
if (srt.enabled !== false) fail('enabled:false was not kept');
const listed = [];
for await (const x of o.list(li, { account_id }))
	listed.push(x.uid);
if (listed.join() !== [made.uid, srt.uid].join())
	fail('list: ' + listed.join());
const off = await o.update(made.uid, { account_id,
    live_input_identifier: li, enabled: false });
if (off.enabled !== false || off.url !== made.url)
	fail('update answered ' + JSON.stringify(off));
try {
	await o.create(li, { account_id, url: 'https://example.com/live',
	    streamKey: 'k' });
	fail('an https url was accepted');
} catch (e) {
	if (e.status !== 400) fail('https url: ' + e);
}
await o.delete(made.uid, { account_id, live_input_identifier: li });
await o.delete(srt.uid, { account_id, live_input_identifier: li });
for await (const x of o.list(li, { account_id }))
	fail('left after delete: ' + x.uid);
console.log('ok: the SDK outputs calls on live input ' + li);
})().catch((e) => { console.error('FAIL: ' + e); process.exit(1); });
JS
node "$tmp/outputs.cjs" "$sdk" "$url" "$account"
