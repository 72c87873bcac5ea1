// Drives Quire's /v1 REST API with the official client of the documented API
// (@gitbook/api, version pinned in package.json) and checks statuses, shapes
// (against the OpenAPI document shipped in that package) and values.
//
// Run through interop/run.sh, which builds and seeds a server and sets:
//   QUIRE_URL           base URL of the server (the client appends /v1)
//   QUIRE_TOKEN         token of an admin of QUIRE_ORG_ID and QUIRE_ORG2_ID (QUIRE_USER_ID)
//   QUIRE_READER_TOKEN  token of a member with role "read" in QUIRE_ORG_ID (QUIRE_READER_ID)
//   QUIRE_REVIEWER_TOKEN token of a member with role "review" in QUIRE_ORG_ID (QUIRE_REVIEWER_ID)
//   QUIRE_ORG_ID, QUIRE_ORG2_ID, QUIRE_USER_ID, QUIRE_READER_ID
// Arguments: area names to run only those (e.g. `node test.mjs spaces`); the
// areas share nothing but the seeded organizations, so any subset runs.
//
// Adding an area: write areas/NAME.mjs exporting `default function (t, ctx)`
// that calls t.step('what it checks', async (ctx) => { ... }) for each step,
// using ctx.call / ctx.fails (lib/api.mjs) for every API call, then list NAME
// in AREAS below.
import { Api } from './lib/api.mjs';
import { need, Runner } from './lib/harness.mjs';

const AREAS = ['user', 'organizations', 'collections', 'spaces', 'sites', 'content', 'git', 'transconv', 'discussions', 'orgadmin', 'search', 'openapi', 'pagemodel', 'errors'];

function env(name) {
	const v = process.env[name];
	if (!v) {
		console.error(`interop: ${name} is not set (run interop/run.sh)`);
		process.exit(2);
	}
	return v;
}

const only = process.argv.slice(2);
for (const a of only) {
	if (!AREAS.includes(a)) {
		console.error(`interop: unknown area ${a}; areas: ${AREAS.join(', ')}`);
		process.exit(2);
	}
}

const runner = new Runner();
const api = new Api({ url: env('QUIRE_URL'), note: (text) => runner.note(text) });
const ctx = {
	url: api.url,
	orgId: env('QUIRE_ORG_ID'),
	org2Id: env('QUIRE_ORG2_ID'),
	userId: env('QUIRE_USER_ID'),
	readerId: env('QUIRE_READER_ID'),
	reviewerId: env('QUIRE_REVIEWER_ID'),
	/** admin of both organizations */
	admin: api.client(env('QUIRE_TOKEN')),
	/** member with role "read" in the first organization */
	reader: api.client(env('QUIRE_READER_TOKEN')),
	/** member with role "review" in the first organization */
	reviewer: api.client(env('QUIRE_REVIEWER_TOKEN')),
	/** no token at all */
	anonymous: api.client(undefined),
	call: (op, fn, opts) => api.call(op, fn, opts),
	fails: (op, fn, status) => api.fails(op, fn, status),
	need,
	note: (text) => runner.note(text),
};

for (const name of AREAS) {
	if (only.length && !only.includes(name)) continue;
	const { default: register } = await import(`./areas/${name}.mjs`);
	runner.area(name, (t) => register(t, ctx));
}

let result;
try {
	result = await runner.run(ctx);
} catch (err) {
	console.error('interop: the runner crashed:', err);
	process.exit(1);
}
process.exitCode = result.failed > 0 || result.passed === 0 ? 1 : 0;
