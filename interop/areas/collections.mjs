// Collections: createCollection, getCollectionById, updateCollectionById,
// listSpacesInCollectionById, listCollectionsInOrganizationById (nested),
// moveCollection (parent, position), transferCollection, deleteCollectionById.
import { absent, eq, has, ids, lacks, ok } from '../lib/assert.mjs';

export default function collections(t) {
	// made by earlier steps
	let guides; // top-level collection, later updated, moved, transferred
	let child; // collection inside guides
	let other; // second top-level collection, for positions
	let inner; // space inside guides

	const list = (ctx, orgId, query) =>
		ctx.call('listCollectionsInOrganizationById', () => ctx.admin.orgs.listCollectionsInOrganizationById(orgId, query), {
			status: 200,
		});
	const get = (ctx, id) => ctx.call('getCollectionById', () => ctx.admin.collections.getCollectionById(id), { status: 200 });

	t.step('createCollection in the organization', async ({ admin, call, orgId, url }) => {
		const { data: c, headers } = await call('createCollection', () => admin.orgs.createCollection(orgId, { title: 'Interop guides' }), {
			status: 201,
		});
		eq(c.object, 'collection', 'object');
		eq(c.title, 'Interop guides', 'title');
		eq(c.organization, orgId, 'organization');
		absent(c, 'parent', 'a top-level collection');
		eq(c.urls.location, `${url}/v1/collections/${c.id}`, 'urls.location');
		eq(headers.get('location'), c.urls.location, 'Location header');
		eq(c.permissions.admin, true, 'permissions.admin');
		guides = c;
	});

	t.step('createCollection with a parent', async ({ admin, call, orgId, need }) => {
		need(guides, 'the collection');
		const { data: c } = await call('createCollection', () => admin.orgs.createCollection(orgId, { title: 'Nested', parent: guides.id }), {
			status: 201,
		});
		eq(c.parent, guides.id, 'parent');
		eq(c.organization, orgId, 'organization');
		child = c;
	});

	t.step('createCollection without a body', async ({ admin, call, orgId }) => {
		const { data: c } = await call('createCollection', () => admin.orgs.createCollection(orgId), { status: 201 });
		eq(c.organization, orgId, 'organization');
		ok(typeof c.title === 'string', 'title');
		other = c;
	});

	t.step('getCollectionById returns the collection', async (ctx) => {
		ctx.need(guides, 'the collection');
		const { data: c } = await get(ctx, guides.id);
		eq(c.id, guides.id, 'id');
		eq(c.title, guides.title, 'title');
		eq(c.organization, ctx.orgId, 'organization');
		eq(c.defaultLevel, guides.defaultLevel, 'defaultLevel');
	});

	t.step('updateCollectionById sets title, description and defaultLevel', async (ctx) => {
		ctx.need(guides, 'the collection');
		const body = { title: 'Interop handbook', description: 'Everything about interop', defaultLevel: 'read' };
		const { data: c } = await ctx.call('updateCollectionById', () => ctx.admin.collections.updateCollectionById(guides.id, body), {
			status: 200,
		});
		eq(c.title, body.title, 'title');
		eq(c.description, body.description, 'description');
		eq(c.defaultLevel, 'read', 'defaultLevel');
		const { data: again } = await get(ctx, guides.id);
		eq(again.title, body.title, 'title after a new GET');
		eq(again.description, body.description, 'description after a new GET');
		eq(again.defaultLevel, 'read', 'defaultLevel after a new GET');
	});

	t.step('updateCollectionById with one field leaves the others', async (ctx) => {
		ctx.need(guides, 'the collection');
		const { data: c } = await ctx.call('updateCollectionById', () =>
			ctx.admin.collections.updateCollectionById(guides.id, { defaultLevel: 'inherit' }),
		);
		eq(c.defaultLevel, 'inherit', 'defaultLevel');
		eq(c.title, 'Interop handbook', 'title');
		eq(c.description, 'Everything about interop', 'description');
	});

	t.step('listSpacesInCollectionById of an empty collection', async ({ admin, call, need }) => {
		need(guides, 'the collection');
		const { data } = await call('listSpacesInCollectionById', () => admin.collections.listSpacesInCollectionById(guides.id), {
			status: 200,
		});
		eq(data.items.length, 0, 'items');
		absent(data, 'next', 'a single page');
	});

	t.step('listSpacesInCollectionById lists the spaces created inside', async ({ admin, call, need, orgId }) => {
		need(guides, 'the collection');
		const { data: s } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'In the handbook', parent: guides.id }), {
			status: 201,
		});
		eq(s.parent, guides.id, 'space parent');
		inner = s;
		const { data } = await call('listSpacesInCollectionById', () => admin.collections.listSpacesInCollectionById(guides.id));
		eq(JSON.stringify(ids(data.items)), JSON.stringify([s.id]), 'items');
		if (data.count !== undefined) eq(data.count, 1, 'count');
		const { data: paged } = await call('listSpacesInCollectionById', () =>
			admin.collections.listSpacesInCollectionById(guides.id, { limit: 1 }),
		);
		eq(paged.items.length, 1, 'items with limit 1');
		absent(paged, 'next', 'the only page');
	});

	t.step('listCollectionsInOrganizationById nested=true lists nested collections', async (ctx) => {
		ctx.need(child, 'the nested collection');
		const { data } = await list(ctx, ctx.orgId, { nested: true });
		has(data.items, guides.id, 'items');
		has(data.items, child.id, 'items');
		eq(data.items.find((c) => c.id === child.id).parent, guides.id, 'parent of the nested collection');
		if (data.count !== undefined) eq(data.count, data.items.length, 'count');
	});

	t.step('listCollectionsInOrganizationById nested=false lists top-level collections only', async (ctx) => {
		ctx.need(child, 'the nested collection');
		const { data } = await list(ctx, ctx.orgId, { nested: false });
		has(data.items, guides.id, 'items');
		lacks(data.items, child.id, 'items');
		for (const c of data.items) absent(c, 'parent', `collection ${c.id}`);
	});

	t.step('listCollectionsInOrganizationById defaults to nested=true', async (ctx) => {
		ctx.need(child, 'the nested collection');
		const { data } = await list(ctx, ctx.orgId);
		has(data.items, child.id, 'items');
	});

	t.step('listCollectionsInOrganizationById pages with limit and next.page', async (ctx) => {
		const seen = [];
		let page;
		let pages = 0;
		for (; pages < 20; pages++) {
			const { data } = await list(ctx, ctx.orgId, { limit: 1, page });
			ok(data.items.length <= 1, `${data.items.length} items with limit 1`);
			seen.push(...ids(data.items));
			if (!data.next) break;
			page = data.next.page;
		}
		const { data: all } = await list(ctx, ctx.orgId);
		eq(JSON.stringify(seen), JSON.stringify(ids(all.items)), 'pages of 1, concatenated, against one page');
		ok(pages >= 1, 'more than one page');
	});

	t.step('moveCollection to the top level with parent null', async (ctx) => {
		ctx.need(child, 'the nested collection');
		const { data: c } = await ctx.call('moveCollection', () => ctx.admin.collections.moveCollection(child.id, { parent: null }), {
			status: 200,
		});
		absent(c, 'parent', 'moved collection');
		const { data } = await list(ctx, ctx.orgId, { nested: false });
		has(data.items, child.id, 'top-level collections');
	});

	t.step('moveCollection into a parent', async (ctx) => {
		ctx.need(child, 'the nested collection');
		const { data: c } = await ctx.call('moveCollection', () => ctx.admin.collections.moveCollection(child.id, { parent: guides.id }), {
			status: 200,
		});
		eq(c.parent, guides.id, 'parent');
		const { data: again } = await get(ctx, child.id);
		eq(again.parent, guides.id, 'parent after a new GET');
	});

	t.step('moveCollection with a position before another collection', async (ctx) => {
		ctx.need(other, 'the second top-level collection');
		ctx.need(guides, 'the collection');
		const position = { before: { type: 'collection', collection: guides.id } };
		const { data: c } = await ctx.call('moveCollection', () => ctx.admin.collections.moveCollection(other.id, { position }), {
			status: 200,
		});
		absent(c, 'parent', 'still top-level');
		const { data } = await list(ctx, ctx.orgId, { nested: false });
		const order = ids(data.items);
		ok(order.indexOf(other.id) >= 0 && order.indexOf(other.id) === order.indexOf(guides.id) - 1, `order ${JSON.stringify(order)}: ${other.id} right before ${guides.id}`);
	});

	t.step('moveCollection with a position after another collection', async (ctx) => {
		ctx.need(other, 'the second top-level collection');
		const position = { after: { type: 'collection', collection: guides.id } };
		await ctx.call('moveCollection', () => ctx.admin.collections.moveCollection(other.id, { position }), { status: 200 });
		const { data } = await list(ctx, ctx.orgId, { nested: false });
		const order = ids(data.items);
		ok(order.indexOf(other.id) === order.indexOf(guides.id) + 1, `order ${JSON.stringify(order)}: ${other.id} right after ${guides.id}`);
	});

	t.step('transferCollection to the second organization moves its content', async (ctx) => {
		ctx.need(guides, 'the collection');
		ctx.need(inner, 'the space in the collection');
		ctx.need(child, 'the nested collection');
		const { data: c } = await ctx.call('transferCollection', () =>
			ctx.admin.collections.transferCollection(guides.id, { organization: ctx.org2Id }),
		{ status: 200 });
		eq(c.organization, ctx.org2Id, 'organization');
		absent(c, 'parent', 'a transferred collection is top-level');
		const { data: there } = await list(ctx, ctx.org2Id, { nested: false });
		has(there.items, guides.id, 'collections of the second organization');
		const { data: here } = await list(ctx, ctx.orgId);
		lacks(here.items, guides.id, 'collections of the first organization');
		lacks(here.items, child.id, 'collections of the first organization');
		eq((await get(ctx, child.id)).data.organization, ctx.org2Id, 'organization of the nested collection');
		const { data: s } = await ctx.call('getSpaceById', () => ctx.admin.spaces.getSpaceById(inner.id));
		eq(s.organization, ctx.org2Id, 'organization of the space inside');
		eq(s.parent, guides.id, 'parent of the space inside');
	});

	t.step('deleteCollectionById answers 205 and the collection is gone', async (ctx) => {
		ctx.need(other, 'the second top-level collection');
		const { status } = await ctx.call('deleteCollectionById', () => ctx.admin.collections.deleteCollectionById(other.id), {
			status: 205,
		});
		eq(status, 205, 'status');
		await ctx.fails('getCollectionById', () => ctx.admin.collections.getCollectionById(other.id), 404);
		const { data } = await list(ctx, ctx.orgId);
		lacks(data.items, other.id, 'collections');
	});

	t.step('deleteCollectionById of a collection that does not exist answers 204', async (ctx) => {
		ctx.need(other, 'the deleted collection');
		await ctx.call('deleteCollectionById', () => ctx.admin.collections.deleteCollectionById(other.id), { status: 204 });
	});

	t.step('deleteCollectionById of a collection with content', async (ctx) => {
		ctx.need(guides, 'the collection');
		await ctx.call('deleteCollectionById', () => ctx.admin.collections.deleteCollectionById(guides.id), { status: 205 });
		await ctx.fails('getCollectionById', () => ctx.admin.collections.getCollectionById(guides.id), 404);
	});
}
