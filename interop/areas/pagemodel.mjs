// The page model: the page properties the seeds list beyond 0.146.0
// (linkTitle, icon, createdAt/updatedAt, noIndex, noRobotsIndex, metaLinks),
// a computed page generated from an OpenAPI specification (getPageById with
// computed true and false, getComputedDocument), and reusable content
// (getReusableContentById, a revision's reusableContents, getPageById with
// dereferenced false and reusable-contents).
//
// Content is written through Quire's GraphQL endpoint in a change request,
// then merged with the client (the 0.146.0 REST API writes no page).
import { eq, ok } from '../lib/assert.mjs';
import { graphql } from '../lib/graphql.mjs';

const SPEC = `openapi: 3.0.3
info: {title: Interop Model Pets, version: "2"}
tags: [{name: pets, description: Everything about pets}]
paths:
  /pets/{petId}:
    get:
      tags: [pets]
      summary: Read a pet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The pet
          content:
            application/json:
              schema: {type: object, properties: {name: {type: string}}}
`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (s) => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
const para = (s) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(s)] });

// blockTypes lists the types of a document's blocks, depth first.
function blockTypes(nodes, out = []) {
	for (const n of nodes ?? []) {
		if (n.object === 'block') out.push(n.type);
		blockTypes(n.nodes, out);
	}
	return out;
}

export default function pagemodel(t) {
	let space; // the space of the area
	let cr; // the change request the content is written in
	let fields; // the page with every property
	let computed; // the computed page
	let reusable; // the reusable content
	let embedding; // the page that embeds it
	const slug = 'interop-model-pets';

	t.step('seed: a specification, a change request, pages with properties, a computed page, a reusable content', async (ctx) => {
		({ data: space } = await ctx.call('createSpace', () => ctx.admin.orgs.createSpace(ctx.orgId, { title: 'Interop page model' }), { status: 201 }));
		await ctx.call('createOrUpdateOpenAPISpecBySlug', () =>
			ctx.admin.orgs.createOrUpdateOpenApiSpecBySlug(ctx.orgId, slug, { source: { text: SPEC } }), { status: 201 });
		for (let i = 0; ; i++) {
			const { data } = await ctx.call('getOpenAPISpecBySlug', () => ctx.admin.orgs.getOpenApiSpecBySlug(ctx.orgId, slug), { status: 200 });
			if (data.processingState === 'complete') {
				ok(data.lastVersion, 'the specification has a version');
				break;
			}
			if (i === 100) throw new Error(`${slug} was not processed within 20 s`);
			await sleep(200);
		}
		({ data: cr } = await ctx.call('createChangeRequest', () => ctx.admin.spaces.createChangeRequest(space.id, { subject: 'Model' }), { status: 201 }));
		const page = async (input) => {
			const d = await graphql(ctx.url, 'mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }', { in: { changeRequest: cr.id, ...input } });
			return d.createPage.page.id;
		};
		fields = await page({
			title: 'Installation guide', linkTitle: 'Install', icon: 'download', noIndex: true, noRobotsIndex: true,
			metaLinks: { canonical: { kind: 'url', url: 'https://docs.example.com/install' }, alternates: [{ kind: 'url', url: 'https://docs.example.com/de/install' }] },
			markdown: 'Run the installer.\n',
		});
		computed = await page({
			title: 'API reference',
			computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: slug } } }, props: { doc: 'operations' } },
		});
		const rc = await graphql(ctx.url, 'mutation($in: CreateReusableContentInput!) { createReusableContent(input: $in) { reusableContent { id } } }', {
			in: { changeRequest: cr.id, title: 'Support contact', markdown: 'Write to support@example.com for help.\n' },
		});
		reusable = rc.createReusableContent.reusableContent.id;
		embedding = await page({
			title: 'Help',
			document: {
				object: 'document', data: {},
				nodes: [para('Before you ask:'), { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: reusable } } }],
			},
		});
		await ctx.call('mergeChangeRequest', () => ctx.admin.spaces.mergeChangeRequest(space.id, cr.id), { status: 200 });
	});

	t.step('getPageById serves linkTitle, icon, the indexing flags, metaLinks and the page times', async (ctx) => {
		ctx.need(fields, 'the seeded page');
		const { data: p } = await ctx.call('getPageById', () => ctx.admin.spaces.getPageById(space.id, fields), { status: 200 });
		eq(p.title, 'Installation guide', 'title');
		eq(p.linkTitle, 'Install', 'linkTitle');
		eq(p.icon, 'download', 'icon');
		eq(p.noIndex, true, 'noIndex');
		eq(p.noRobotsIndex, true, 'noRobotsIndex');
		eq(p.metaLinks?.canonical?.url, 'https://docs.example.com/install', 'metaLinks.canonical');
		eq(p.metaLinks?.alternates?.[0]?.url, 'https://docs.example.com/de/install', 'metaLinks.alternates');
		ok(p.createdAt && !Number.isNaN(Date.parse(p.createdAt)), `createdAt ${p.createdAt}`);
		ok(p.updatedAt && Date.parse(p.updatedAt) >= Date.parse(p.createdAt), `updatedAt ${p.updatedAt}`);
	});

	t.step('getPageById of a computed page: the generated API reference, or the page as stored with computed=false', async (ctx) => {
		ctx.need(computed, 'the computed page');
		const { data: p } = await ctx.call('getPageById', () => ctx.admin.spaces.getPageById(space.id, computed), { status: 200 });
		eq(p.computed?.type, 'builtin:openapi', 'computed.type');
		ok(p.computedSeed, 'computedSeed');
		const types = blockTypes(p.document?.nodes);
		ok(types.includes('heading-1'), `a heading per tag in ${types}`);
		const op = (p.document?.nodes ?? []).find((n) => n.type === 'openapi-operation');
		ok(op, `an openapi-operation block in ${types}`);
		eq(op.data.method, 'get', 'operation method');
		eq(op.data.path, '/pets/{petId}', 'operation path');
		eq(op.data.summary, 'Read a pet', 'operation summary');
		const { data: stored } = await ctx.call('getPageById', () => ctx.admin.spaces.getPageById(space.id, computed, { computed: false }), { status: 200 });
		eq(stored.document?.nodes?.length ?? 0, 0, 'nodes of the page as stored');
		const { data: md } = await ctx.call('getPageById', () => ctx.admin.spaces.getPageById(space.id, computed, { format: 'markdown' }), { status: 200 });
		ok(md.markdown.includes('/pets/{petId}'), `the operation's path in the Markdown: ${JSON.stringify(md.markdown.slice(0, 200))}`);
	});

	t.step('getComputedDocument computes a source without a page', async (ctx) => {
		ctx.need(space, 'the space');
		const source = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: slug } } }, props: { doc: 'operations' } };
		const { data: d } = await ctx.call('getComputedDocument', () => ctx.admin.spaces.getComputedDocument(space.id, { source, seed: 'interop' }), { status: 200 });
		eq(d.object, 'document', 'object');
		ok(blockTypes(d.nodes).includes('openapi-operation'), 'an openapi-operation block');
	});

	t.step('reusable content: getReusableContentById, the revision lists it, dereferenced inlines it', async (ctx) => {
		ctx.need(reusable && embedding, 'the reusable content and the page embedding it');
		const { data: rc } = await ctx.call('getReusableContentById', () => ctx.admin.spaces.getReusableContentById(space.id, reusable), { status: 200 });
		eq(rc.id, reusable, 'id');
		eq(rc.title, 'Support contact', 'title');
		const { data: rev } = await ctx.call('getCurrentRevision', () => ctx.admin.spaces.getCurrentRevision(space.id), { status: 200 });
		ok((rev.reusableContents ?? []).some((r) => r.id === reusable), 'the revision lists the reusable content');
		const { data: kept } = await ctx.call('getPageById', () => ctx.admin.spaces.getPageById(space.id, embedding, { dereferenced: false }), { status: 200 });
		ok(blockTypes(kept.document?.nodes).includes('reusable-content'), 'dereferenced=false keeps the reference block');
		const { data: inlined } = await ctx.call('getPageById', () =>
			ctx.admin.spaces.getPageById(space.id, embedding, { dereferenced: 'reusable-contents', format: 'markdown' }), { status: 200 });
		ok(inlined.markdown.includes('support@example.com'), `the inlined text in ${JSON.stringify(inlined.markdown)}`);
	});
}
