// A LibreTranslate-compatible server for the interop run (run.sh starts it
// on a loopback port and points QUIRE_TRANSLATE_URL at it): POST
// /translate with q a text or an array, format text or html (tags kept,
// <code> kept as is), GET /languages. It translates a few English words
// into French, deterministically. Usage: node fake-libretranslate.mjs PORT
import { createServer } from 'node:http';

const words = { welcome: 'bienvenue', the: 'le', page: 'page', getting: 'démarrage', started: 'commencé', and: 'et', to: 'à', your: 'votre', space: 'espace' };
const languages = ['en', 'fr', 'de', 'es'];

const text = (s) =>
	s.replace(/\p{L}+/gu, (w) => {
		const fr = words[w.toLowerCase()];
		if (!fr) return w;
		return w[0] === w[0].toUpperCase() ? fr[0].toUpperCase() + fr.slice(1) : fr;
	});

function html(s) {
	let code = 0;
	return s
		.split(/(<[^>]*>)/)
		.map((part) => {
			if (part.startsWith('<')) {
				if (/^<code\b/i.test(part)) code++;
				if (/^<\/code>/i.test(part)) code = Math.max(0, code - 1);
				return part;
			}
			return code ? part : text(part);
		})
		.join('');
}

const port = Number(process.argv[2]);
createServer((req, res) => {
	const send = (status, body) => {
		res.writeHead(status, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify(body));
	};
	if (req.method === 'GET' && req.url === '/languages') return send(200, languages.map((code) => ({ code, name: code, targets: languages })));
	if (req.method !== 'POST' || req.url !== '/translate') return send(404, { error: 'Not Found' });
	let raw = '';
	req.on('data', (c) => (raw += c));
	req.on('end', () => {
		let body;
		try {
			body = JSON.parse(raw);
		} catch {
			return send(400, { error: 'Invalid request' });
		}
		if (!languages.includes(body.source) || !languages.includes(body.target)) return send(400, { error: `${body.target} is not supported` });
		const tr = body.format === 'html' ? html : text;
		send(200, { translatedText: Array.isArray(body.q) ? body.q.map(tr) : tr(String(body.q)) });
	});
}).listen(port, '127.0.0.1');
