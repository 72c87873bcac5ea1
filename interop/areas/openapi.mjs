// OpenAPI specifications: create from a URL (a root file and a file its
// $ref reaches, served by a small HTTP server of this area) and from text,
// the processing job (polled until complete), list, get, replace by slug
// (200 when it exists, 201 when it creates), visibility and the published
// URL, versions (list, latest, by id) and their content, a specification
// that does not parse, errors, delete.
//
// The seeds' slug pattern allows upper case, where 0.146.0 does not: the
// amendment is declared in lib/seed-additions.mjs. The client names its
// methods ...OpenApi... where the operationIds say ...OpenAPI....
import { createServer } from 'node:http';
import { absent, deepEq, eq, has, ok } from '../lib/assert.mjs';

const ROOT = `openapi: 3.0.3
info:
  title: Interop Pets
  version: "1.0"
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema:
                $ref: "./schemas/pet.yaml#/Pet"
`;
const PET = 'Pet:\n  type: object\n  properties:\n    name: {type: string}\n';
const TEXT = 'openapi: 3.1.0\ninfo: {title: Interop Text, version: "1"}\npaths: {}\n';

// files serves the specification files on loopback (the server is started
// with --openapi-fetch-private so that it may fetch them).
function serveFiles(files) {
	const server = createServer((req, res) => {
		const body = files[req.url];
		if (body === undefined) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'Content-Type': 'application/yaml' }).end(body);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default function openapi(t) {
	const files = { '/specs/openapi.yaml': ROOT, '/specs/schemas/pet.yaml': PET };
	let server; // the files' server
	let base; // its URL
	let spec; // the specification made from the URL
	let version; // its first version
	let slug; // its slug

	// settled polls a specification until its processing is complete.
	const settled = async (ctx, s) => {
		for (let i = 0; i < 100; i++) {
			const { data } = await ctx.call('getOpenAPISpecBySlug', () => ctx.admin.orgs.getOpenApiSpecBySlug(ctx.orgId, s), { status: 200 });
			if (data.processingState === 'complete') return data;
			await sleep(200);
		}
		throw new Error(`${s} was not processed within 20 s`);
	};

	t.step('serve the specification files', async () => {
		server = await serveFiles(files);
		base = `http://127.0.0.1:${server.address().port}`;
		server.unref();
	});

	t.step('createOpenAPISpec from a URL: 201, pending', async (ctx) => {
		ctx.need(base, 'the files server');
		slug = 'Interop-Pets';
		const { data: s } = await ctx.call('createOpenAPISpec', () =>
			ctx.admin.orgs.createOpenApiSpec(ctx.orgId, { slug, source: { url: `${base}/specs/openapi.yaml` } }),
		{ status: 201 });
		eq(s.object, 'openapi-spec', 'object');
		eq(s.slug, slug, 'slug (upper case allowed, as the seeds say)');
		eq(s.sourceURL, `${base}/specs/openapi.yaml`, 'sourceURL');
		eq(s.visibility, 'private', 'visibility of a new specification');
		ok(['pending', 'progress', 'complete'].includes(s.processingState), `processingState ${s.processingState}`);
		eq(s.permissions.view, true, 'permissions.view');
		eq(s.permissions.edit, true, 'permissions.edit');
		eq(s.urls.location, `${ctx.url}/v1/orgs/${ctx.orgId}/openapi/${slug}`, 'urls.location');
		absent(s.urls, 'published', 'urls of a private specification');
		spec = s;
	});

	t.step('getOpenAPISpecBySlug until processed: complete, with a last version', async (ctx) => {
		ctx.need(spec, 'the specification');
		const s = await settled(ctx, slug);
		eq(s.id, spec.id, 'id');
		ok(s.lastVersion, 'lastVersion');
		ok(s.lastProcessedAt, 'lastProcessedAt');
		absent(s, 'lastProcessErrorCode', 'lastProcessErrorCode of a processed specification');
		deepEq(s.lastProcessedErrors, [], 'lastProcessedErrors');
		spec = s;
	});

	t.step('listOpenAPISpecs lists it', async (ctx) => {
		ctx.need(spec, 'the specification');
		const { data } = await ctx.call('listOpenAPISpecs', () => ctx.admin.orgs.listOpenApiSpecs(ctx.orgId), { status: 200 });
		has(data.items, spec.id, 'items');
		ok(data.count >= 1, 'count');
		const { data: page } = await ctx.call('listOpenAPISpecs', () => ctx.admin.orgs.listOpenApiSpecs(ctx.orgId, { limit: 1 }), { status: 200 });
		eq(page.items.length, 1, 'items of a page of 1');
	});

	t.step('versions: list, latest, by id', async (ctx) => {
		ctx.need(spec?.lastVersion, 'the processed specification');
		const { data: list } = await ctx.call('listOpenAPISpecVersions', () => ctx.admin.orgs.listOpenApiSpecVersions(ctx.orgId, slug), { status: 200 });
		eq(list.count, 1, 'count');
		eq(list.items[0].id, spec.lastVersion, 'the version');
		const { data: latest } = await ctx.call('getLatestOpenAPISpecVersion', () => ctx.admin.orgs.getLatestOpenApiSpecVersion(ctx.orgId, slug), { status: 200 });
		eq(latest.object, 'openapi-spec-version', 'object');
		eq(latest.id, spec.lastVersion, 'id');
		eq(latest.urls.location, `${ctx.url}/v1/orgs/${ctx.orgId}/openapi/${slug}/versions/${latest.id}`, 'urls.location');
		const { data: byId } = await ctx.call('getOpenAPISpecVersionById', () => ctx.admin.orgs.getOpenApiSpecVersionById(ctx.orgId, slug, latest.id), {
			status: 200,
		});
		eq(byId.id, latest.id, 'by id');
		version = latest;
	});

	t.step('version content: the root file and the file it references, and the URL serving them', async (ctx) => {
		ctx.need(version, 'the version');
		const { data: c } = await ctx.call('getLatestOpenAPISpecVersionContent', () => ctx.admin.orgs.getLatestOpenApiSpecVersionContent(ctx.orgId, slug), {
			status: 200,
		});
		deepEq(Object.keys(c.filesystem).sort(), ['openapi.yaml', 'schemas/pet.yaml'], 'filesystem paths');
		eq(c.filesystem['openapi.yaml'], ROOT, 'root file');
		eq(c.filesystem['schemas/pet.yaml'], PET, 'referenced file');
		const { data: same } = await ctx.call('getOpenAPISpecVersionContentById', () =>
			ctx.admin.orgs.getOpenApiSpecVersionContentById(ctx.orgId, slug, version.id),
		{ status: 200 });
		deepEq(same.filesystem, c.filesystem, 'content by id');
		// The URL needs no token (a signed link, the specification being private).
		const res = await fetch(c.url, { signal: AbortSignal.timeout(10_000) });
		eq(res.status, 200, `GET ${c.url}`);
		eq(await res.text(), ROOT, 'served root file');
	});

	t.step('createOrUpdateOpenAPISpecBySlug: 200 on an existing slug, and no new version for the same content', async (ctx) => {
		ctx.need(version, 'the version');
		const { data: s } = await ctx.call('createOrUpdateOpenAPISpecBySlug', () =>
			ctx.admin.orgs.createOrUpdateOpenApiSpecBySlug(ctx.orgId, slug, { source: { url: `${base}/specs/openapi.yaml` } }),
		{ status: 200 });
		eq(s.id, spec.id, 'same specification');
		const after = await settled(ctx, slug);
		eq(after.lastVersion, version.id, 'lastVersion (content unchanged)');
	});

	t.step('createOrUpdateOpenAPISpecBySlug: a changed referenced file makes a new version', async (ctx) => {
		ctx.need(version, 'the version');
		files['/specs/schemas/pet.yaml'] = `${PET}    age: {type: integer}\n`;
		await ctx.call('createOrUpdateOpenAPISpecBySlug', () =>
			ctx.admin.orgs.createOrUpdateOpenApiSpecBySlug(ctx.orgId, slug, { source: { url: `${base}/specs/openapi.yaml` } }),
		{ status: 200 });
		const after = await settled(ctx, slug);
		ok(after.lastVersion && after.lastVersion !== version.id, `a new lastVersion (was ${version.id}, now ${after.lastVersion})`);
		const { data: list } = await ctx.call('listOpenAPISpecVersions', () => ctx.admin.orgs.listOpenApiSpecVersions(ctx.orgId, slug), { status: 200 });
		eq(list.count, 2, 'versions');
		eq(list.items[0].id, after.lastVersion, 'newest first');
	});

	t.step('createOrUpdateOpenAPISpecBySlug: 201 on a new slug, from text', async (ctx) => {
		const { data: s } = await ctx.call('createOrUpdateOpenAPISpecBySlug', () =>
			ctx.admin.orgs.createOrUpdateOpenApiSpecBySlug(ctx.orgId, 'interop-text', { source: { text: TEXT } }),
		{ status: 201 });
		eq(s.slug, 'interop-text', 'slug');
		absent(s, 'sourceURL', 'sourceURL of a text specification');
		const done = await settled(ctx, 'interop-text');
		ok(done.lastVersion, 'processed');
		const { data: c } = await ctx.call('getLatestOpenAPISpecVersionContent', () =>
			ctx.admin.orgs.getLatestOpenApiSpecVersionContent(ctx.orgId, 'interop-text'),
		{ status: 200 });
		deepEq(c.filesystem, { 'openapi.yaml': TEXT }, 'filesystem');
	});

	t.step('updateOpenAPISpecBySlug: public, served at urls.published without a token', async (ctx) => {
		ctx.need(spec, 'the specification');
		const { data: s } = await ctx.call('updateOpenAPISpecBySlug', () => ctx.admin.orgs.updateOpenApiSpecBySlug(ctx.orgId, slug, { visibility: 'public' }), {
			status: 200,
		});
		eq(s.visibility, 'public', 'visibility');
		eq(s.urls.published, `${ctx.url}/openapi/${ctx.orgId}/${slug}`, 'urls.published');
		const res = await fetch(s.urls.published, { signal: AbortSignal.timeout(10_000) });
		eq(res.status, 200, `GET ${s.urls.published} (following its redirect)`);
		eq(await res.text(), ROOT, 'published root file');
		const { data: back } = await ctx.call('updateOpenAPISpecBySlug', () => ctx.admin.orgs.updateOpenApiSpecBySlug(ctx.orgId, slug, { visibility: 'private' }), {
			status: 200,
		});
		absent(back.urls, 'published', 'urls of a specification made private again');
		eq((await fetch(s.urls.published, { signal: AbortSignal.timeout(10_000) })).status, 404, 'published URL of a private specification');
	});

	t.step('a specification that does not parse: complete with PARSE_ERROR and where, no version', async (ctx) => {
		await ctx.call('createOpenAPISpec', () =>
			ctx.admin.orgs.createOpenApiSpec(ctx.orgId, { slug: 'interop-broken', source: { text: 'openapi: 3.0.3\ninfo:\n  title: [unclosed\n' } }),
		{ status: 201 });
		const s = await settled(ctx, 'interop-broken');
		eq(s.lastProcessErrorCode, 'PARSE_ERROR', 'lastProcessErrorCode');
		ok(s.lastProcessedErrors.length > 0 && s.lastProcessedErrors[0].message.startsWith('openapi.yaml'), `lastProcessedErrors ${JSON.stringify(s.lastProcessedErrors)}`);
		absent(s, 'lastVersion', 'lastVersion');
		await ctx.fails('getLatestOpenAPISpecVersion', () => ctx.admin.orgs.getLatestOpenApiSpecVersion(ctx.orgId, 'interop-broken'), 404);
		await ctx.fails('getLatestOpenAPISpecVersionContent', () => ctx.admin.orgs.getLatestOpenApiSpecVersionContent(ctx.orgId, 'interop-broken'), 404);
	});

	t.step('errors: a bad slug, two sources, an unknown slug or version, a reader creating', async (ctx) => {
		await ctx.fails('createOpenAPISpec', () => ctx.admin.orgs.createOpenApiSpec(ctx.orgId, { slug: 'bad slug', source: { text: TEXT } }), 400);
		await ctx.fails('createOpenAPISpec', () => ctx.admin.orgs.createOpenApiSpec(ctx.orgId, { slug: 'two', source: { text: TEXT, url: 'https://example.com/a.yaml' } }), 400);
		await ctx.fails('createOpenAPISpec', () => ctx.admin.orgs.createOpenApiSpec(ctx.orgId, { slug: 'ftp', source: { url: 'ftp://example.com/a.yaml' } }), 400);
		await ctx.fails('getOpenAPISpecBySlug', () => ctx.admin.orgs.getOpenApiSpecBySlug(ctx.orgId, 'no-such-spec'), 404);
		await ctx.fails('updateOpenAPISpecBySlug', () => ctx.admin.orgs.updateOpenApiSpecBySlug(ctx.orgId, 'no-such-spec', { visibility: 'public' }), 404);
		await ctx.fails('updateOpenAPISpecBySlug', () => ctx.admin.orgs.updateOpenApiSpecBySlug(ctx.orgId, 'interop-text', { visibility: 'secret' }), 400);
		await ctx.fails('listOpenAPISpecVersions', () => ctx.admin.orgs.listOpenApiSpecVersions(ctx.orgId, 'no-such-spec'), 404);
		await ctx.fails('getOpenAPISpecVersionById', () => ctx.admin.orgs.getOpenApiSpecVersionById(ctx.orgId, 'interop-text', 'no-such-version'), 404);
		await ctx.fails('getOpenAPISpecVersionContentById', () => ctx.admin.orgs.getOpenApiSpecVersionContentById(ctx.orgId, 'interop-text', 'no-such-version'), 404);
		await ctx.fails('createOpenAPISpec', () => ctx.reader.orgs.createOpenApiSpec(ctx.orgId, { slug: 'readers', source: { text: TEXT } }), 403);
		await ctx.fails('listOpenAPISpecs', () => ctx.reader.orgs.listOpenApiSpecs(ctx.org2Id), 404);
		const { data: seen } = await ctx.call('getOpenAPISpecBySlug', () => ctx.reader.orgs.getOpenApiSpecBySlug(ctx.orgId, 'interop-text'), { status: 200 });
		eq(seen.permissions.edit, false, 'a reader may not edit');
	});

	t.step('deleteOpenAPISpecBySlug: 205, then 204; the specification is gone', async (ctx) => {
		ctx.need(spec, 'the specification');
		await ctx.call('deleteOpenAPISpecBySlug', () => ctx.admin.orgs.deleteOpenApiSpecBySlug(ctx.orgId, slug), { status: 205 });
		await ctx.call('deleteOpenAPISpecBySlug', () => ctx.admin.orgs.deleteOpenApiSpecBySlug(ctx.orgId, slug), { status: 204 });
		await ctx.fails('getOpenAPISpecBySlug', () => ctx.admin.orgs.getOpenApiSpecBySlug(ctx.orgId, slug), 404);
		await ctx.fails('listOpenAPISpecVersions', () => ctx.admin.orgs.listOpenApiSpecVersions(ctx.orgId, slug), 404);
		server?.close();
	});
}
