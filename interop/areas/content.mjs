// Change requests and content: createChangeRequest, getChangeRequestById (id
// and number), updateChangeRequestById, listChangeRequestsForSpace,
// listChangeRequestsForOrganization, mergeChangeRequest, updateChangeRequest
// (clean and with conflicts), getChangeRequestPdf (the link serves a PDF),
// and the content reads of a space and of a change request: revision, page
// tree, page as Markdown and as document, files, links, backlinks.
//
// Pages and files are seeded through Quire's GraphQL endpoint (the 0.146.0
// REST API has no operation that writes a page).
import { eq, has, ids, ok } from '../lib/assert.mjs';
import { graphql } from '../lib/graphql.mjs';

const TOKEN = process.env.QUIRE_TOKEN;

async function createPage(url, changeRequest, input) {
	const data = await graphql(url, 'mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }', {
		in: { changeRequest, ...input },
	});
	return data.createPage.page.id;
}

async function updatePage(url, changeRequest, input) {
	await graphql(url, 'mutation($in: UpdatePageInput!) { updatePage(input: $in) { changed } }', { in: { changeRequest, ...input } });
}

// uploadFile follows the GraphQL multipart request convention.
async function uploadFile(url, changeRequest, name, text) {
	const form = new FormData();
	form.append(
		'operations',
		JSON.stringify({
			query: 'mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }',
			variables: { in: { changeRequest, file: null } },
		}),
	);
	form.append('map', JSON.stringify({ 0: ['variables.in.file'] }));
	form.append('0', new Blob([text], { type: 'text/plain' }), name);
	const res = await fetch(`${url}/graphql`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${TOKEN}` },
		body: form,
		signal: AbortSignal.timeout(15_000),
	});
	const body = await res.json();
	if (body.errors?.length) throw new Error(`GraphQL upload: ${JSON.stringify(body.errors)}`);
	return body.data.uploadFile.file.id;
}

const doc = (...blocks) => ({ object: 'document', data: {}, nodes: blocks });
const text = (t) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const para = (...nodes) => ({ object: 'block', type: 'paragraph', nodes });
const link = (ref, label) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] });

export default function contentArea(t) {
	let space; // the space
	let cr; // the first change request
	let guide; // page ids
	let intro;
	let file; // file id
	let merged; // merge result of cr

	t.step('createChangeRequest returns a draft with Location', async ({ admin, call, orgId }) => {
		({ data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop content' }), { status: 201 }));
		const { data, headers } = await call('createChangeRequest', () => admin.spaces.createChangeRequest(space.id, { subject: 'Seed' }), {
			status: 201,
		});
		eq(data.object, 'change-request', 'object');
		eq(data.subject, 'Seed', 'subject');
		eq(data.number, 1, 'number');
		eq(data.space, space.id, 'space');
		eq(headers.get('location'), data.urls.location, 'Location header');
		cr = data;
	});

	t.step('getChangeRequestById by id and by number', async ({ admin, call, need }) => {
		need(cr, 'the change request');
		for (const ref of [cr.id, '1']) {
			const { data } = await call('getChangeRequestById', () => admin.spaces.getChangeRequestById(space.id, ref), { status: 200 });
			eq(data.id, cr.id, `id read through ${ref}`);
		}
	});

	t.step('seed pages and a file through GraphQL', async ({ need, url }) => {
		need(cr, 'the change request');
		file = await uploadFile(url, cr.id, 'notes.txt', 'hello file');
		guide = await createPage(url, cr.id, { title: 'Guide', markdown: 'Welcome to the guide.\n' });
		intro = await createPage(url, cr.id, {
			title: 'Intro',
			parent: guide,
			document: doc(
				para(text('Read the '), link({ kind: 'page', page: guide }, 'guide'), text(', the '), link({ kind: 'file', file }, 'notes')),
				para(link({ kind: 'url', url: 'https://example.com' }, 'site'), text(' and '), link({ kind: 'page', page: 'gone' }, 'a lost page')),
			),
		});
	});

	t.step('updateChangeRequestById sets subject, description and status', async ({ admin, call, need }) => {
		need(cr, 'the change request');
		const description = doc(para(text('Why this change')));
		const { data } = await call(
			'updateChangeRequestById',
			() => admin.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'Seed the guide', description, status: 'open' }),
			{ status: 200 },
		);
		eq(data.subject, 'Seed the guide', 'subject');
		eq(data.status, 'open', 'status');
		eq(data.description?.nodes?.[0]?.nodes?.[0]?.leaves?.[0]?.text, 'Why this change', 'description text');
		cr = data;
	});

	t.step('listChangeRequestsForSpace and ForOrganization list open ones', async ({ admin, call, need, orgId }) => {
		need(cr?.status === 'open' ? cr : undefined, 'the open change request');
		const { data: l } = await call('listChangeRequestsForSpace', () => admin.spaces.listChangeRequestsForSpace(space.id), { status: 200 });
		has(l.items, cr.id, 'space list');
		const { data: drafts } = await call('listChangeRequestsForSpace', () => admin.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' }), {
			status: 200,
		});
		eq(drafts.items.length, 0, 'drafts');
		const { data: o } = await call('listChangeRequestsForOrganization', () => admin.orgs.listChangeRequestsForOrganization(orgId), { status: 200 });
		has(o.items, cr.id, 'organization list');
	});

	t.step('change request content reads', async ({ admin, call, need }) => {
		need(intro, 'the seeded pages');
		const { data: rev } = await call('getRevisionOfChangeRequestById', () => admin.spaces.getRevisionOfChangeRequestById(space.id, cr.id), {
			status: 200,
		});
		eq(rev.object, 'revision', 'object');
		eq(JSON.stringify(ids(rev.pages)), JSON.stringify([guide]), 'root pages');
		const { data: pages } = await call('listPagesInChangeRequest', () => admin.spaces.listPagesInChangeRequest(space.id, cr.id), { status: 200 });
		eq(pages.pages[0].pages[0].id, intro, 'child page');
		const { data: page } = await call(
			'getPageInChangeRequestById',
			() => admin.spaces.getPageInChangeRequestById(space.id, cr.id, guide, { format: 'markdown' }),
			{ status: 200 },
		);
		ok(page.markdown.includes('Welcome to the guide.'), `markdown ${JSON.stringify(page.markdown)}`);
		const { data: files } = await call('listFilesInChangeRequestById', () => admin.spaces.listFilesInChangeRequestById(space.id, cr.id), {
			status: 200,
		});
		has(files.items, file, 'files');
	});

	t.step('getChangeRequestPdf links to a PDF', async ({ admin, call, need }) => {
		need(intro, 'the seeded pages');
		for (const query of [undefined, { page: intro, only: true }]) {
			const { data } = await call('getChangeRequestPDF', () => admin.spaces.getChangeRequestPdf(space.id, cr.id, query), { status: 200 });
			const res = await fetch(data.url, { signal: AbortSignal.timeout(15_000) });
			eq(res.status, 200, 'PDF fetch status');
			const head = new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5));
			eq(head, '%PDF-', 'PDF header');
		}
	});

	t.step('mergeChangeRequest merges into the space', async ({ admin, call, need }) => {
		need(intro, 'the seeded pages');
		({ data: merged } = await call('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(space.id, cr.id), { status: 200 }));
		eq(merged.result, 'merge', 'result');
		const { data: after } = await call('getChangeRequestById', () => admin.spaces.getChangeRequestById(space.id, cr.id), { status: 200 });
		eq(after.status, 'merged', 'status after merge');
		eq(after.revisionMerged, merged.revision, 'revisionMerged');
	});

	t.step('space content reads after the merge', async ({ admin, call, need }) => {
		need(merged, 'the merge');
		const { data: rev } = await call('getCurrentRevision', () => admin.spaces.getCurrentRevision(space.id), { status: 200 });
		eq(rev.id, merged.revision, 'current revision');
		const { data: pages } = await call('listPages', () => admin.spaces.listPages(space.id), { status: 200 });
		eq(pages.pages[0].id, guide, 'first page');
		const { data: md } = await call('getPageById', () => admin.spaces.getPageById(space.id, intro, { format: 'markdown' }), { status: 200 });
		ok(md.markdown.includes('[site](https://example.com)'), `markdown ${JSON.stringify(md.markdown)}`);
		const { data: d } = await call('getPageById', () => admin.spaces.getPageById(space.id, intro, { format: 'document', evaluated: true }), {
			status: 200,
		});
		eq(d.document?.object, 'document', 'document');
		const { data: files } = await call('listFiles', () => admin.spaces.listFiles(space.id, { limit: 10 }), { status: 200 });
		has(files.items, file, 'files');
		const { data: f } = await call('getFileById', () => admin.spaces.getFileById(space.id, file), { status: 200 });
		eq(f.name, 'notes.txt', 'file name');
		const res = await fetch(f.downloadURL, { signal: AbortSignal.timeout(15_000) });
		eq(await res.text(), 'hello file', 'downloaded bytes');
	});

	t.step('links and backlinks', async ({ admin, call, need }) => {
		need(merged, 'the merge');
		const { data: links } = await call('listPageLinksInSpace', () => admin.spaces.listPageLinksInSpace(space.id, intro), { status: 200 });
		eq(links.stats.total, 4, 'stats.total');
		eq(links.stats.broken.total, 1, 'stats.broken.total');
		eq(links.items.length, 4, 'items');
		const { data: broken } = await call('listPageLinksInSpace', () => admin.spaces.listPageLinksInSpace(space.id, intro, { status: 'broken' }), {
			status: 200,
		});
		eq(broken.items.length, 1, 'broken items');
		const { data: all } = await call('listSpaceLinks', () => admin.spaces.listSpaceLinks(space.id), { status: 200 });
		eq(all.stats.total, 4, 'space stats.total');
		const { data: pb } = await call('listSpacePageBacklinks', () => admin.spaces.listSpacePageBacklinks(space.id, guide), { status: 200 });
		eq(pb.items[0]?.page?.id, intro, 'page backlink');
		const { data: fb } = await call('listSpaceFileBacklinks', () => admin.spaces.listSpaceFileBacklinks(space.id, file), { status: 200 });
		eq(fb.items[0]?.page?.id, intro, 'file backlink');
	});

	t.step('updateChangeRequest brings new space content in, or reports conflicts', async ({ admin, call, need, url }) => {
		need(merged, 'the merge');
		const mk = async (subject) =>
			(await call('createChangeRequest', () => admin.spaces.createChangeRequest(space.id, { subject }), { status: 201 })).data;
		const x = await mk('X');
		const y = await mk('Y');
		const z = await mk('Z');
		await updatePage(url, x.id, { page: guide, markdown: 'Guide by X.\n' });
		await updatePage(url, y.id, { page: guide, markdown: 'Guide by Y.\n' });
		await createPage(url, z.id, { title: 'More', markdown: 'More.\n' });
		const { data: mx } = await call('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(space.id, x.id), { status: 200 });
		eq(mx.result, 'merge', 'merge X');
		const { data: uz } = await call('updateChangeRequest', () => admin.spaces.updateChangeRequest(space.id, z.id), { status: 200 });
		eq(uz.result, 'update', 'update Z');
		const { data: zNow } = await call('getChangeRequestById', () => admin.spaces.getChangeRequestById(space.id, z.id), { status: 200 });
		eq(zNow.revision, uz.revision, 'Z revision after update');
		eq(zNow.outdated, false, 'Z outdated after update');
		const { data: yNow } = await call('getChangeRequestById', () => admin.spaces.getChangeRequestById(space.id, y.id), { status: 200 });
		const { data: my } = await call('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(space.id, y.id), { status: 200 });
		eq(my.result, 'conflicts', 'merge Y');
		eq(my.revision, yNow.revision, 'on conflicts, the change request revision');
	});

	t.step('a reader may not create or merge change requests', async ({ reader, fails, need }) => {
		need(cr, 'the change request');
		await fails('createChangeRequest', () => reader.spaces.createChangeRequest(space.id, { subject: 'No' }), 403);
		await fails('getChangeRequestById', () => reader.spaces.getChangeRequestById(space.id, '999'), 404);
	});
}
