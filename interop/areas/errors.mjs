// Errors as the client sees them: GitBookAPIError with the HTTP status as
// `code` and the body's error.message as `errorMessage`; bodies in the
// documented {error: {code, message}} shape (checked by ctx.fails).
import { GitBookAPIError } from '@gitbook/api';
import { eq, ok } from '../lib/assert.mjs';

export default function errors(t) {
	let space; // a space of the first organization, for permission checks

	t.step('getSpaceById of an unknown space: GitBookAPIError 404 with the body message', async ({ admin, fails }) => {
		const { error, body } = await fails('getSpaceById', () => admin.spaces.getSpaceById('no-such-space'), 404);
		ok(error instanceof GitBookAPIError, 'instanceof GitBookAPIError');
		eq(error.name, 'GitBookAPIError', 'name');
		eq(error.code, 404, 'code');
		eq(error.response.status, 404, 'response.status');
		eq(error.errorMessage, body.error.message, 'errorMessage');
		ok(error.errorMessage !== error.response.statusText, 'errorMessage is the body message, not the status text');
		ok(error.message.includes(body.error.message), `message ${JSON.stringify(error.message)} carries the body message`);
	});

	t.step('getCollectionById of an unknown collection: 404', async ({ admin, fails }) => {
		await fails('getCollectionById', () => admin.collections.getCollectionById('no-such-collection'), 404);
	});

	t.step('getOrganizationById of an unknown organization: 404', async ({ admin, fails }) => {
		await fails('getOrganizationById', () => admin.orgs.getOrganizationById('no-such-organization'), 404);
	});

	t.step('getOrganizationById of an organization the reader is not in: 404', async ({ reader, fails, org2Id }) => {
		await fails('getOrganizationById', () => reader.orgs.getOrganizationById(org2Id), 404);
	});

	t.step('moveSpace of an unknown space: 404', async ({ admin, fails }) => {
		await fails('moveSpace', () => admin.spaces.moveSpace('no-such-space', { parent: null }), 404);
	});

	t.step('transferSpace of an unknown space: 404', async ({ admin, fails, org2Id }) => {
		await fails('transferSpace', () => admin.spaces.transferSpace('no-such-space', { organization: org2Id }), 404);
	});

	t.step('moveCollection of an unknown collection: 404', async ({ admin, fails }) => {
		await fails('moveCollection', () => admin.collections.moveCollection('no-such-collection', { parent: null }), 404);
	});

	t.step('transferCollection of an unknown collection: 404', async ({ admin, fails, org2Id }) => {
		await fails('transferCollection', () => admin.collections.transferCollection('no-such-collection', { organization: org2Id }), 404);
	});

	t.step('getAuthenticatedUser without a token: 401', async ({ anonymous, fails }) => {
		await fails('getAuthenticatedUser', () => anonymous.user.getAuthenticatedUser(), 401);
	});

	t.step('the reader can read a space but not administer or edit it', async ({ admin, reader, call, orgId }) => {
		({ data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop errors' }), { status: 201 }));
		const { data: s } = await call('getSpaceById', () => reader.spaces.getSpaceById(space.id), { status: 200 });
		eq(s.id, space.id, 'id');
		eq(s.permissions.view, true, 'permissions.view');
		eq(s.permissions.admin, false, 'permissions.admin');
		eq(s.permissions.edit, false, 'permissions.edit');
	});

	t.step("updateSpaceById by a reader: 403 and the space is unchanged", async ({ admin, reader, call, fails, need }) => {
		need(space, 'the space');
		await fails('updateSpaceById', () => reader.spaces.updateSpaceById(space.id, { title: 'Hijacked' }), 403);
		const { data: s } = await call('getSpaceById', () => admin.spaces.getSpaceById(space.id));
		eq(s.title, 'Interop errors', 'title');
	});

	t.step('createSpace by a reader: 403', async ({ reader, fails, orgId }) => {
		await fails('createSpace', () => reader.orgs.createSpace(orgId, { title: 'Not allowed' }), 403);
	});

	t.step('deleteSpaceById by a reader: 403', async ({ reader, fails, need }) => {
		need(space, 'the space');
		await fails('deleteSpaceById', () => reader.spaces.deleteSpaceById(space.id), 403);
	});

	t.step('updateSpaceById with a 51-character title: 400 and the space is unchanged', async ({ admin, call, fails, need }) => {
		need(space, 'the space');
		const { body } = await fails('updateSpaceById', () => admin.spaces.updateSpaceById(space.id, { title: 'x'.repeat(51) }), 400);
		ok(/title/i.test(body.error.message), `the message names the field: ${JSON.stringify(body.error.message)}`);
		const { data: s } = await call('getSpaceById', () => admin.spaces.getSpaceById(space.id));
		eq(s.title, 'Interop errors', 'title');
	});

	t.step('createSpace with a 51-character title: 400', async ({ admin, fails, orgId }) => {
		await fails('createSpace', () => admin.orgs.createSpace(orgId, { title: 'x'.repeat(51) }), 400);
	});

	t.step('updateCollectionById with a 101-character description: 400', async ({ admin, call, fails, orgId }) => {
		const { data: c } = await call('createCollection', () => admin.orgs.createCollection(orgId, { title: 'Interop errors' }), { status: 201 });
		await fails('updateCollectionById', () => admin.collections.updateCollectionById(c.id, { description: 'd'.repeat(101) }), 400);
	});

	t.step('moveSpace before an unknown space: 400', async ({ admin, fails, need }) => {
		need(space, 'the space');
		const position = { before: { type: 'space', space: 'no-such-space' } };
		await fails('moveSpace', () => admin.spaces.moveSpace(space.id, { position }), 400);
	});

	t.step('moveSpace that changes nothing: 409', async ({ admin, fails, need }) => {
		need(space, 'the space');
		await fails('moveSpace', () => admin.spaces.moveSpace(space.id, { parent: null }), 409);
	});

	t.step('transferSpace to its own organization: 409', async ({ admin, fails, need, orgId }) => {
		need(space, 'the space');
		await fails('transferSpace', () => admin.spaces.transferSpace(space.id, { organization: orgId }), 409);
	});

}
