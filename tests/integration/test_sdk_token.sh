#!/bin/sh
# The official SDK (npm cloudflare 7.3.0) against edgemu's token call: a
# server token, and one signed with a signing key the SDK created (id and
# pem), each opening a private demo video's manifest on edgemu's delivery
# URL. The SDK is where ./bootstrap check installs it
# (tests/integration/sdk-lib.sh).
emu=${EDGEMU:-emulator/edgemu}
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/integration/sdk-lib.sh"
sdk_need cloudflare
sdk=$sdk_dir
[ -x "$emu" ] || { echo "no edgemu at $emu"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sdk-token.XXXXXX") || exit 99
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null
	[ -z "$pid" ] || wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
EDGEMU_TOKEN=sdk-token-test "$emu" --listen 127.0.0.1:0 --data "$tmp/data" \
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
cat >"$tmp/token.cjs" <<'JS'
const [sdk, baseURL, account_id] = process.argv.slice(2);
const Cloudflare = require(sdk + '/node_modules/cloudflare').default;
(async () => {
const cf = new Cloudflare({ apiToken: 'sdk-token-test', baseURL });
const fail = (m) => { console.error('FAIL: ' + m); process.exit(1); };
let video;
for await (const v of cf.stream.list({ account_id, status: 'ready' }))
	if (v.playback && v.playback.hls) { video = v; break; }
if (!video) fail('no ready video');
await cf.stream.edit(video.uid, { account_id, requireSignedURLs: true });
const hls = video.playback.hls;
const open = async (ref) => (await fetch(hls.replace(video.uid, ref))).status;
if (await open(video.uid) !== 401) fail('the private manifest opened by uid');
const t1 = await cf.stream.token.create(video.uid, { account_id });
const claims = JSON.parse(Buffer.from(t1.token.split('.')[1], 'base64url'));
if (claims.sub !== video.uid || typeof claims.exp !== 'string')
	fail('server token claims: ' + JSON.stringify(claims));
if (await open(t1.token) !== 200) fail('the server token did not open it');
const key = await cf.stream.keys.create({ account_id, body: {} });
const t2 = await cf.stream.token.create(video.uid, { account_id, id: key.id,
    pem: key.pem, downloadable: true,
    accessRules: [{ type: 'ip.src', action: 'allow', ip: ['127.0.0.1/32'] },
    { type: 'any', action: 'block' }] });
const h2 = JSON.parse(Buffer.from(t2.token.split('.')[0], 'base64url'));
if (h2.kid !== key.id) fail('the keyed token names kid ' + h2.kid);
if (await open(t2.token) !== 200) fail('the keyed token did not open it');
try {
	await cf.stream.token.create(video.uid, { account_id, id: key.id });
	fail('id without pem was accepted');
} catch (e) {
	if (e.status !== 400) fail('id without pem: ' + e);
}
console.log('ok: the SDK token call, server and keyed, opens ' + video.uid);
})().catch((e) => { console.error('FAIL: ' + e); process.exit(1); });
JS
node "$tmp/token.cjs" "$sdk" "$url" "$account"
