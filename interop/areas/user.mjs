// GET /user (getAuthenticatedUser).
import { eq, ok } from '../lib/assert.mjs';

export default function user(t) {
	t.step('getAuthenticatedUser returns the admin', async ({ admin, call, userId, url }) => {
		const { data: u } = await call('getAuthenticatedUser', () => admin.user.getAuthenticatedUser(), { status: 200 });
		eq(u.object, 'user', 'object');
		eq(u.id, userId, 'id');
		eq(u.email, 'interop@example.com', 'email');
		ok(u.displayName.length > 0, 'displayName is empty');
		eq(u.urls.location, `${url}/v1/users/${userId}`, 'urls.location');
	});

	t.step('getAuthenticatedUser with the reader token returns the reader', async ({ reader, call, readerId }) => {
		const { data: u } = await call('getAuthenticatedUser', () => reader.user.getAuthenticatedUser(), { status: 200 });
		eq(u.id, readerId, 'id');
		eq(u.email, 'r@example.com', 'email');
	});
}
