// Audits Quire's /graphql against the GraphQL over HTTP specification with
// the server audits of the graphql-http package (version pinned in
// package.json), and fails on any audit that does not pass: errors (MUST)
// and warnings (SHOULD, MAY) alike.
//
// Run through interop/run.sh, which sets QUIRE_URL and QUIRE_TOKEN. Every
// request carries the token: /graphql answers 401 without one, which the
// audits do not expect of a query such as { __typename }.
import { auditServer } from 'graphql-http';

function env(name) {
	const v = process.env[name];
	if (!v) {
		console.error(`graphql-audit: ${name} is not set (run interop/run.sh)`);
		process.exit(2);
	}
	return v;
}

const url = env('QUIRE_URL') + '/graphql';
const token = env('QUIRE_TOKEN');

// fetchFn adds the token to the audits' requests, and bounds each.
function fetchFn(input, init = {}) {
	const headers = new Headers(init.headers);
	headers.set('authorization', `Bearer ${token}`);
	return fetch(input, { ...init, headers, signal: AbortSignal.timeout(15000) });
}

const results = await auditServer({ url, fetchFn });
let failed = 0;
for (const r of results) {
	if (r.status === 'ok') {
		continue;
	}
	failed++;
	let detail = '';
	if (r.response) {
		const body = await r.response.text().catch(() => '');
		detail = ` (HTTP ${r.response.status} ${r.response.headers.get('content-type') ?? ''}: ${body.slice(0, 300)})`;
	}
	console.error(`graphql-audit: ${r.status}: ${r.id} ${r.name}: ${r.reason}${detail}`);
}
const warnings = results.filter((r) => r.status === 'warn').length;
const errors = results.filter((r) => r.status === 'error').length;
console.log(`graphql-http server audit: ${results.length} audits, ${results.length - failed} passed, ${warnings} warnings, ${errors} errors`);
process.exit(failed === 0 ? 0 : 1);
