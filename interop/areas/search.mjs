// Full-text search: searchSpaceContent and searchOrganizationContent, on a
// space whose pages are written through a merged change request (pages are
// seeded through Quire's GraphQL endpoint: the 0.146.0 REST API has no
// operation that writes a page), as the admin and as a reader, paged, with
// the refusals of a missing, empty or too long query and of an unknown
// space.
import { eq, has, lacks, ok } from '../lib/assert.mjs';

const TOKEN = process.env.QUIRE_TOKEN;

async function graphql(url, query, variables) {
	const res = await fetch(`${url}/graphql`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
		body: JSON.stringify({ query, variables }),
		signal: AbortSignal.timeout(15_000),
	});
	const body = await res.json();
	if (body.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
	return body.data;
}

async function createPage(url, changeRequest, input) {
	const data = await graphql(url, 'mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }', {
		in: { changeRequest, ...input },
	});
	return data.createPage.page.id;
}

const SETUP = `Install the agent before anything else.

## Configure the proxy

Set the proxy address in the settings file, then restart the agent.

## Rotate credentials

Rotate the proxy password every month.
`;

export default function searchArea(t) {
	let space; // the searched space
	let other; // a second space of the organization
	let setup; // page ids
	let notes;
	let group;

	t.step('seed two spaces through a merged change request', async ({ admin, call, orgId, url }) => {
		({ data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop search' }), { status: 201 }));
		({ data: other } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop runbooks' }), { status: 201 }));
		const { data: cr } = await call('createChangeRequest', () => admin.spaces.createChangeRequest(space.id, { subject: 'Pages' }), { status: 201 });
		group = await createPage(url, cr.id, { title: 'Operations', type: 'group' });
		setup = await createPage(url, cr.id, { title: 'Proxy setup', parent: group, markdown: SETUP });
		notes = await createPage(url, cr.id, { title: 'Release notes', parent: group, markdown: 'The proxy now starts faster.\n' });
		await call('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(space.id, cr.id), { status: 200 });
		const { data: cr2 } = await call('createChangeRequest', () => admin.spaces.createChangeRequest(other.id, { subject: 'Runbook' }), { status: 201 });
		await createPage(url, cr2.id, { title: 'Proxy outage', markdown: 'When the proxy fails, restart it.\n' });
		await call('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(other.id, cr2.id), { status: 200 });
	});

	t.step('searchSpaceContent finds pages and their sections, words in any form', async ({ admin, call, need, orgId, url }) => {
		need(setup, 'the seeded pages');
		const { data } = await call('searchSpaceContent', () => admin.spaces.searchSpaceContent(space.id, { query: 'configuring proxy' }), {
			status: 200,
		});
		eq(data.count, 1, 'count');
		const [page] = data.items;
		eq(page.id, setup, 'page id');
		eq(page.title, 'Proxy setup', 'title');
		eq(page.path, 'operations/proxy-setup', 'path');
		eq(page.urls.app, `${url}/app/o/${orgId}/s/${space.id}/operations/proxy-setup`, 'urls.app');
		eq(page.ancestors?.[0]?.title, 'Operations', 'ancestors');
		const [section] = page.sections;
		eq(section.id, 'configure-the-proxy', 'section id');
		eq(section.title, 'Configure the proxy', 'section title');
		eq(section.path, 'operations/proxy-setup#configure-the-proxy', 'section path');
		eq(section.urls.app, `${page.urls.app}#configure-the-proxy`, 'section urls.app');
		ok(section.body.includes('proxy address'), `section body ${JSON.stringify(section.body)}`);
	});

	t.step('searchSpaceContent pages its results, title matches first', async ({ admin, call, need }) => {
		need(notes, 'the seeded pages');
		const { data: first } = await call('searchSpaceContent', () => admin.spaces.searchSpaceContent(space.id, { query: 'proxy', limit: 1 }), {
			status: 200,
		});
		eq(first.count, 2, 'count');
		eq(first.items[0].id, setup, 'the page titled so first');
		ok(first.next?.page, 'next.page');
		const { data: second } = await call(
			'searchSpaceContent',
			() => admin.spaces.searchSpaceContent(space.id, { query: 'proxy', limit: 1, page: first.next.page }),
			{ status: 200 },
		);
		eq(second.items[0].id, notes, 'second page');
		eq(second.next, undefined, 'next on the last page');
	});

	t.step('searchOrganizationContent finds spaces the caller may read', async ({ admin, reader, call, need, orgId }) => {
		need(notes, 'the seeded pages');
		const { data } = await call('searchOrganizationContent', () => admin.orgs.searchOrganizationContent(orgId, { query: 'proxy' }), {
			status: 200,
		});
		has(data.items, space.id, 'spaces');
		has(data.items, other.id, 'spaces');
		const found = data.items.find((s) => s.id === space.id);
		eq(found.title, 'Interop search', 'space title');
		has(found.pages, setup, 'pages of the space');
		// The reader may read neither once the runbooks are restricted.
		await call('updateSpaceById', () => admin.spaces.updateSpaceById(other.id, { defaultLevel: null }), { status: 200 });
		const { data: asReader } = await call('searchOrganizationContent', () => reader.orgs.searchOrganizationContent(orgId, { query: 'proxy' }), {
			status: 200,
		});
		has(asReader.items, space.id, 'reader spaces');
		lacks(asReader.items, other.id, 'reader spaces');
	});

	t.step('refusals: no, empty or too long query; unknown space or organization', async ({ admin, fails, need, orgId }) => {
		need(space, 'the space');
		await fails('searchSpaceContent', () => admin.spaces.searchSpaceContent(space.id, {}), 400);
		await fails('searchSpaceContent', () => admin.spaces.searchSpaceContent(space.id, { query: '   ' }), 400);
		await fails('searchSpaceContent', () => admin.spaces.searchSpaceContent(space.id, { query: 'x'.repeat(513) }), 400);
		await fails('searchSpaceContent', () => admin.spaces.searchSpaceContent('no-such-space', { query: 'proxy' }), 404);
		await fails('searchOrganizationContent', () => admin.orgs.searchOrganizationContent('no-such-org', { query: 'proxy' }), 404);
		await fails('searchOrganizationContent', () => admin.orgs.searchOrganizationContent(orgId, {}), 400);
	});
}
