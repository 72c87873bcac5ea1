// GET /orgs (listOrganizationsForAuthenticatedUser) and GET /orgs/{id}
// (getOrganizationById).
import { eq, has, ids, lacks, ok } from '../lib/assert.mjs';

export default function organizations(t) {
	t.step('listOrganizationsForAuthenticatedUser lists both organizations', async ({ admin, call, orgId, org2Id }) => {
		const { data } = await call('listOrganizationsForAuthenticatedUser', () => admin.orgs.listOrganizationsForAuthenticatedUser(), {
			status: 200,
		});
		has(data.items, orgId, 'items');
		has(data.items, org2Id, 'items');
		eq(data.count, data.items.length, 'count (one page holds them all)');
		eq(data.next, undefined, 'next on the last page');
		const first = data.items.find((o) => o.id === orgId);
		eq(first.object, 'organization', 'object');
		eq(first.title, 'Interop', 'title');
		eq(first.permissions.admin, true, 'permissions.admin of an admin');
	});

	t.step('listOrganizationsForAuthenticatedUser pages with limit 1 and next.page', async ({ admin, call, orgId, org2Id }) => {
		const seen = [];
		let page;
		for (let i = 0; i < 10; i++) {
			const { data } = await call('listOrganizationsForAuthenticatedUser', () =>
				admin.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page }),
			);
			ok(data.items.length <= 1, `page ${i + 1} has ${data.items.length} items with limit 1`);
			seen.push(...ids(data.items));
			if (!data.next) break;
			ok(typeof data.next.page === 'string' && data.next.page !== '', 'next.page is a non-empty string');
			page = data.next.page;
		}
		ok(seen.includes(orgId) && seen.includes(org2Id), `paging visited ${JSON.stringify(seen)}`);
		eq(new Set(seen).size, seen.length, 'no organization twice across pages');
	});

	t.step('listOrganizationsForAuthenticatedUser for the reader lists only its organization', async ({ reader, call, orgId, org2Id }) => {
		const { data } = await call('listOrganizationsForAuthenticatedUser', () => reader.orgs.listOrganizationsForAuthenticatedUser());
		has(data.items, orgId, 'items');
		lacks(data.items, org2Id, 'items');
		eq(data.items.find((o) => o.id === orgId).permissions.admin, false, 'permissions.admin of a reader');
	});

	t.step('getOrganizationById returns the organization', async ({ admin, call, orgId, url }) => {
		const { data: o } = await call('getOrganizationById', () => admin.orgs.getOrganizationById(orgId), { status: 200 });
		eq(o.id, orgId, 'id');
		eq(o.object, 'organization', 'object');
		eq(o.title, 'Interop', 'title');
		eq(o.urls.location, `${url}/v1/orgs/${orgId}`, 'urls.location');
	});

	t.step('getOrganizationById of the second organization', async ({ admin, call, org2Id }) => {
		const { data: o } = await call('getOrganizationById', () => admin.orgs.getOrganizationById(org2Id), { status: 200 });
		eq(o.id, org2Id, 'id');
		eq(o.title, 'Interop Transfer', 'title');
	});
}
