// Spaces: createSpace, listSpacesInOrganizationById (paging), getSpaceById,
// updateSpaceById, duplicateSpace, moveSpace, transferSpace, deleteSpaceById,
// restoreSpace.
import { absent, eq, has, ids, lacks, ne, ok } from '../lib/assert.mjs';

export default function spaces(t) {
	const made = []; // spaces created in the first organization
	let a; // the space most steps work on
	let b; // a second space, for positions
	let folder; // a collection to move spaces into
	let copy; // duplicate of a

	const get = (ctx, id) => ctx.call('getSpaceById', () => ctx.admin.spaces.getSpaceById(id), { status: 200 });
	const listOrg = (ctx, orgId, query) =>
		ctx.call('listSpacesInOrganizationById', () => ctx.admin.orgs.listSpacesInOrganizationById(orgId, query), { status: 200 });
	// every space of an organization, following next.page
	const walk = async (ctx, orgId, limit) => {
		const seen = [];
		let page;
		let pages = 0;
		let count;
		for (;;) {
			ok(pages < 100, 'more than 100 pages');
			const { data } = await listOrg(ctx, orgId, { limit, page });
			pages++;
			ok(data.items.length <= limit, `page ${pages} has ${data.items.length} items with limit ${limit}`);
			if (data.next) eq(data.items.length, limit, `items of page ${pages}, which is not the last`);
			if (data.count !== undefined) {
				if (count !== undefined) eq(data.count, count, `count on page ${pages}`);
				count = data.count;
			}
			seen.push(...ids(data.items));
			if (!data.next) break;
			ok(typeof data.next.page === 'string' && data.next.page !== '', 'next.page is a non-empty string');
			ne(data.next.page, page, 'next.page');
			page = data.next.page;
		}
		return { seen, pages, count };
	};

	t.step('createSpace with title and emoji', async ({ admin, call, orgId, url }) => {
		const { data: s, headers } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop A', emoji: '🚀' }), {
			status: 201,
		});
		eq(s.object, 'space', 'object');
		eq(s.title, 'Interop A', 'title');
		eq(s.emoji, '🚀', 'emoji');
		eq(s.organization, orgId, 'organization');
		absent(s, 'parent', 'a space created without parent');
		absent(s, 'deletedAt', 'a new space');
		if (s.editMode !== undefined) eq(s.editMode, 'live', 'editMode of a new space');
		eq(s.urls.location, `${url}/v1/spaces/${s.id}`, 'urls.location');
		eq(headers.get('location'), s.urls.location, 'Location header');
		eq(s.permissions.admin, true, 'permissions.admin');
		eq(s.permissions.edit, true, 'permissions.edit');
		a = s;
		made.push(s.id);
	});

	t.step('createSpace without a body', async ({ admin, call, orgId }) => {
		const { data: s } = await call('createSpace', () => admin.orgs.createSpace(orgId), { status: 201 });
		eq(s.organization, orgId, 'organization');
		b = s;
		made.push(s.id);
	});

	t.step('createSpace with editMode and language', async ({ admin, call, orgId }) => {
		const { data: s } = await call('createSpace', () =>
			admin.orgs.createSpace(orgId, { title: 'Interop C', editMode: 'locked', language: 'fr' }),
		{ status: 201 });
		eq(s.editMode, 'locked', 'editMode');
		eq(s.language, 'fr', 'language');
		made.push(s.id);
	});

	t.step('listSpacesInOrganizationById pages with limit and next.page', async (ctx) => {
		ok(made.length >= 3, 'the spaces were not created');
		const { seen, pages, count } = await walk(ctx, ctx.orgId, 2);
		ok(pages >= 2, `${pages} page(s) for ${seen.length} spaces with limit 2`);
		eq(new Set(seen).size, seen.length, 'no space twice across pages');
		for (const id of made) ok(seen.includes(id), `${id} missing from the pages ${JSON.stringify(seen)}`);
		if (count !== undefined) eq(count, seen.length, 'count (the total)');
		const { data: one } = await listOrg(ctx, ctx.orgId, { limit: 1000 });
		eq(JSON.stringify(ids(one.items)), JSON.stringify(seen), 'pages of 2, concatenated, against one page of 1000');
		absent(one, 'next', 'one page of 1000');
	});

	t.step('getSpaceById returns the space', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: s } = await get(ctx, a.id);
		for (const k of ['id', 'title', 'emoji', 'organization', 'visibility', 'createdAt', 'revision', 'defaultLevel']) {
			eq(s[k], a[k], k);
		}
	});

	t.step('updateSpaceById sets title and emoji', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: s } = await ctx.call('updateSpaceById', () =>
			ctx.admin.spaces.updateSpaceById(a.id, { title: 'Interop A, renamed', emoji: '📘' }),
		{ status: 200 });
		eq(s.title, 'Interop A, renamed', 'title');
		eq(s.emoji, '📘', 'emoji');
		ok(Date.parse(s.updatedAt) >= Date.parse(a.updatedAt), 'updatedAt moved forward');
		const { data: again } = await get(ctx, a.id);
		eq(again.title, 'Interop A, renamed', 'title after a new GET');
		eq(again.emoji, '📘', 'emoji after a new GET');
	});

	t.step('updateSpaceById accepts a 50-character title', async (ctx) => {
		ctx.need(b, 'the second space');
		const title = 'T'.repeat(50);
		const { data: s } = await ctx.call('updateSpaceById', () => ctx.admin.spaces.updateSpaceById(b.id, { title }));
		eq(s.title, title, 'title');
	});

	t.step('updateSpaceById editMode locked, then live', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: locked } = await ctx.call('updateSpaceById', () => ctx.admin.spaces.updateSpaceById(a.id, { editMode: 'locked' }));
		eq(locked.editMode, 'locked', 'editMode');
		eq(locked.title, 'Interop A, renamed', 'title is unchanged');
		eq((await get(ctx, a.id)).data.editMode, 'locked', 'editMode after a new GET');
		const { data: live } = await ctx.call('updateSpaceById', () => ctx.admin.spaces.updateSpaceById(a.id, { editMode: 'live' }));
		eq(live.editMode, 'live', 'editMode');
	});

	t.step('updateSpaceById defaultLevel', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: s } = await ctx.call('updateSpaceById', () => ctx.admin.spaces.updateSpaceById(a.id, { defaultLevel: 'read' }));
		eq(s.defaultLevel, 'read', 'defaultLevel');
		eq((await get(ctx, a.id)).data.defaultLevel, 'read', 'defaultLevel after a new GET');
		const { data: back } = await ctx.call('updateSpaceById', () => ctx.admin.spaces.updateSpaceById(a.id, { defaultLevel: 'inherit' }));
		eq(back.defaultLevel, 'inherit', 'defaultLevel');
	});

	t.step('duplicateSpace makes a new space in the same organization', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: s, headers } = await ctx.call('duplicateSpace', () => ctx.admin.spaces.duplicateSpace(a.id), { status: 201 });
		ne(s.id, a.id, 'id of the duplicate');
		eq(s.organization, ctx.orgId, 'organization');
		eq(headers.get('location'), s.urls.location, 'Location header');
		ok(s.title.length > 0, 'title of the duplicate is empty');
		eq((await get(ctx, a.id)).data.title, 'Interop A, renamed', 'title of the original');
		const { seen } = await walk(ctx, ctx.orgId, 1000);
		ok(seen.includes(s.id), 'the duplicate is listed in the organization');
		copy = s;
	});

	t.step('moveSpace into a collection', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: c } = await ctx.call('createCollection', () => ctx.admin.orgs.createCollection(ctx.orgId, { title: 'Interop folder' }), {
			status: 201,
		});
		folder = c;
		const { data: s } = await ctx.call('moveSpace', () => ctx.admin.spaces.moveSpace(a.id, { parent: c.id }), { status: 200 });
		eq(s.parent, c.id, 'parent');
		eq(s.organization, ctx.orgId, 'organization');
		eq((await get(ctx, a.id)).data.parent, c.id, 'parent after a new GET');
		const { data } = await ctx.call('listSpacesInCollectionById', () => ctx.admin.collections.listSpacesInCollectionById(c.id));
		has(data.items, a.id, 'spaces of the collection');
	});

	t.step('moveSpace with a position before another space', async (ctx) => {
		ctx.need(folder, 'the collection');
		ctx.need(b, 'the second space');
		await ctx.call('moveSpace', () => ctx.admin.spaces.moveSpace(b.id, { parent: folder.id }), { status: 200 });
		let { data } = await ctx.call('listSpacesInCollectionById', () => ctx.admin.collections.listSpacesInCollectionById(folder.id));
		eq(JSON.stringify(ids(data.items)), JSON.stringify([a.id, b.id]), 'order after moving to the end (the default)');
		const position = { before: { type: 'space', space: a.id } };
		const { data: s } = await ctx.call('moveSpace', () => ctx.admin.spaces.moveSpace(b.id, { position }), { status: 200 });
		eq(s.parent, folder.id, 'parent is unchanged');
		({ data } = await ctx.call('listSpacesInCollectionById', () => ctx.admin.collections.listSpacesInCollectionById(folder.id)));
		eq(JSON.stringify(ids(data.items)), JSON.stringify([b.id, a.id]), 'order after moving before');
	});

	t.step('moveSpace back to the organization with parent null', async (ctx) => {
		ctx.need(folder, 'the collection');
		const { data: s } = await ctx.call('moveSpace', () => ctx.admin.spaces.moveSpace(a.id, { parent: null }), { status: 200 });
		absent(s, 'parent', 'moved space');
		absent((await get(ctx, a.id)).data, 'parent', 'space after a new GET');
		const { data } = await ctx.call('listSpacesInCollectionById', () => ctx.admin.collections.listSpacesInCollectionById(folder.id));
		lacks(data.items, a.id, 'spaces of the collection');
	});

	t.step('transferSpace to the second organization', async (ctx) => {
		ctx.need(copy, 'the duplicate');
		const { data: s } = await ctx.call('transferSpace', () => ctx.admin.spaces.transferSpace(copy.id, { organization: ctx.org2Id }), {
			status: 200,
		});
		eq(s.organization, ctx.org2Id, 'organization');
		eq((await get(ctx, copy.id)).data.organization, ctx.org2Id, 'organization after a new GET');
		ok((await walk(ctx, ctx.org2Id, 1000)).seen.includes(copy.id), 'listed in the second organization');
		ok(!(await walk(ctx, ctx.orgId, 1000)).seen.includes(copy.id), 'still listed in the first organization');
	});

	t.step('transferSpace of a space in a collection', async (ctx) => {
		ctx.need(b, 'the second space');
		ctx.need(folder, 'the collection');
		const { data: s } = await ctx.call('transferSpace', () => ctx.admin.spaces.transferSpace(b.id, { organization: ctx.org2Id }), {
			status: 200,
		});
		eq(s.organization, ctx.org2Id, 'organization');
		ne(s.parent, folder.id, 'parent (the collection stayed in the first organization)');
	});

	t.step('deleteSpaceById answers 205 and marks the space deleted', async (ctx) => {
		ctx.need(a, 'the space');
		const { status } = await ctx.call('deleteSpaceById', () => ctx.admin.spaces.deleteSpaceById(a.id), { status: 205 });
		eq(status, 205, 'status');
		// The reference does not say whether a deleted space is still readable;
		// if it is, it must carry deletedAt.
		try {
			const { data: s } = await ctx.admin.spaces.getSpaceById(a.id);
			ok(typeof s.deletedAt === 'string', `a deleted space read back without deletedAt: ${JSON.stringify(s)}`);
		} catch (err) {
			eq(err.code, 404, 'getSpaceById of a deleted space');
		}
		ok(!(await walk(ctx, ctx.orgId, 1000)).seen.includes(a.id), 'a deleted space is still listed');
	});

	t.step('deleteSpaceById of a space that does not exist answers 204', async (ctx) => {
		await ctx.call('deleteSpaceById', () => ctx.admin.spaces.deleteSpaceById('no-such-space'), { status: 204 });
	});

	t.step('restoreSpace brings the deleted space back', async (ctx) => {
		ctx.need(a, 'the space');
		const { data: s } = await ctx.call('restoreSpace', () => ctx.admin.spaces.restoreSpace(a.id), { status: 200 });
		eq(s.id, a.id, 'id');
		absent(s, 'deletedAt', 'restored space');
		eq(s.title, 'Interop A, renamed', 'title');
		const { data: again } = await get(ctx, a.id);
		absent(again, 'deletedAt', 'restored space after a new GET');
		ok((await walk(ctx, ctx.orgId, 1000)).seen.includes(a.id), 'the restored space is listed again');
	});
}
