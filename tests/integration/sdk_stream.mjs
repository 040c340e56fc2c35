// The official SDK (npm cloudflare 7.3.0) against edgemu: the Stream
// calls beyond uploads, as a client written for the cloud makes them:
// copy (from a loopback origin this script serves), clip, captions
// (upload, generate, the VTT, get, delete), embed and an audio track's
// edit, and a refusal seen as the SDK's APIError. Run by
// test_sdk_stream.sh; exits non-zero with the reason on failure.
import { createRequire } from 'node:module';
import http from 'node:http';

const env = (name) => {
	const v = process.env[name];
	if (!v) throw new Error(`${name} is not set`);
	return v;
};
const require = createRequire(env('SDK_DIR') + '/');
const sdk = require('cloudflare');
const Cloudflare = sdk.default ?? sdk;
const account_id = env('EDGEMU_ACCOUNT');
const client = new Cloudflare({
	apiToken: env('EDGEMU_TOKEN'),
	baseURL: env('EDGEMU_URL'),
	maxRetries: 0,
});

function check(cond, what) {
	if (!cond) throw new Error(`check failed: ${what}`);
}

// An MP4 in its boxes: ftyp, moov/mvhd with the duration, mdat.
function mp4(ms, n) {
	const b = Buffer.alloc(n);
	let o = 0;
	const be32 = (v) => { b.writeUInt32BE(v, o); o += 4; };
	const str = (s) => { b.write(s, o, 'latin1'); o += s.length; };
	be32(20); str('ftypmp42'); be32(0); str('mp42');
	be32(116); str('moov'); be32(108); str('mvhd');
	o += 12; be32(1000); be32(ms); be32(65536); o += 76;
	be32(n - 136); str('mdat');
	return b;
}

const video = mp4(10000, 4096);
const origin = http.createServer((req, res) => {
	res.writeHead(200, { 'Content-Type': 'video/mp4',
	    'Content-Length': video.length });
	res.end(req.method === 'HEAD' ? undefined : video);
});
await new Promise((ok) => origin.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${origin.address().port}/talk.mp4`;

async function until(what, fn) {
	for (let i = 0; i < 600; i++) {
		const v = await fn();
		if (v) return v;
		await new Promise((ok) => setTimeout(ok, 50));
	}
	throw new Error(`timed out waiting for ${what}`);
}

try {
	// copy
	const v = await client.stream.copy.create({ account_id, url,
	    meta: { name: 'sdk copy' } });
	check(v.status.state === 'downloading', `copy state ${v.status.state}`);
	check(v.meta['downloaded-from'] === url, 'downloaded-from');
	const ready = await until('the copy to be ready', async () => {
		const g = await client.stream.get(v.uid, { account_id });
		return ['ready', 'error'].includes(g.status.state) ? g : null;
	});
	check(ready.status.state === 'ready', `copy ended ${ready.status.state}`);
	check(ready.duration === 10, `copy duration ${ready.duration}`);

	// clip, and a refusal as the SDK reports it
	const c = await client.stream.clip.create({ account_id,
	    clippedFromVideoUID: v.uid, startTimeSeconds: 1,
	    endTimeSeconds: 4 });
	check(c.clippedFrom === v.uid, 'clippedFrom');
	let refused = null;
	try {
		await client.stream.clip.create({ account_id,
		    clippedFromVideoUID: v.uid, startTimeSeconds: 4,
		    endTimeSeconds: 4 });
	} catch (e) {
		refused = e;
	}
	check(refused instanceof Cloudflare.APIError && refused.status === 400,
	    `clip refusal ${refused}`);

	// captions: upload, generate, get, the VTT, delete
	const lang = client.stream.captions.language;
	const up = await lang.update('fr', { account_id, identifier: v.uid,
	    file: 'WEBVTT\n\n00:00.000 --> 00:02.000\nBonjour\n' });
	check(up.language === 'fr' && up.generated === false, 'caption upload');
	const gen = await lang.create('en', { account_id, identifier: v.uid });
	check(gen.generated === true && gen.status === 'inprogress',
	    'caption generate');
	await until('the generated captions', async () =>
	    (await lang.get('en', { account_id, identifier: v.uid })).status ===
	    'ready');
	const vtt = await lang.vtt.get('en', { account_id, identifier: v.uid });
	check(typeof vtt === 'string' && vtt.startsWith('WEBVTT'),
	    `vtt ${String(vtt).slice(0, 40)}`);
	const fr = await lang.vtt.get('fr', { account_id, identifier: v.uid });
	check(fr.includes('Bonjour'), 'uploaded vtt');
	const del = await lang.delete('fr', { account_id, identifier: v.uid });
	check(del === '', `caption delete ${JSON.stringify(del)}`);
	const list = [];
	for await (const cap of client.stream.captions.get(v.uid,
	    { account_id }))
		list.push(cap);
	check(list.length === 1 && list[0].language === 'en' &&
	    list[0].status === 'ready', 'captions list');

	// embed: text/html
	const html = await client.stream.embed.get(v.uid, { account_id });
	check(typeof html === 'string' && html.includes(`<stream src="${v.uid}"`),
	    `embed ${String(html).slice(0, 60)}`);

	// audio: copy two tracks, edit the second to be the default
	const a = client.stream.audioTracks;
	await a.copy(v.uid, { account_id, label: 'Main',
	    url: 'https://example.com/a.m4a' });
	const t2 = await a.copy(v.uid, { account_id, label: 'Commentary',
	    url: 'https://example.com/b.m4a' });
	const e = await a.edit(t2.uid, { account_id, identifier: v.uid,
	    default: true, label: 'Director' });
	check(e.default === true && e.label === 'Director', 'audio edit');
	const tracks = await a.get(v.uid, { account_id });
	check(tracks.filter((t) => t.default).length === 1, 'one default');
	console.log('sdk: every call answered as the SDK expects');
} finally {
	origin.close();
}
