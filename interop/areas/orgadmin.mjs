// Organization administration: updateOrganizationById, joining
// (joinOrganization, joinOrganizationWithInvite), getOrganizationsForEmailDomain,
// invite links, agent instructions, pings, members, teams and their members,
// the permissions of spaces and collections, SAML providers and the login
// options.
import { eq, has, ids, lacks, ok } from '../lib/assert.mjs';

const doc = {
	object: 'document',
	data: {},
	nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Answer briefly.', marks: [] }] }] }],
};

export default function orgadmin(t) {
	t.step('updateOrganizationById changes settings and refuses bad ones', async ({ admin, call, fails, orgId }) => {
		const { data: o } = await call(
			'updateOrganizationById',
			() => admin.orgs.updateOrganizationById(orgId, { emailDomains: ['Example.com'], defaultRole: 'read', inviteLinks: true, ai: true }),
			{ status: 200 },
		);
		eq(JSON.stringify(o.emailDomains), '["example.com"]', 'emailDomains');
		eq(o.defaultRole, 'read', 'defaultRole');
		eq(o.inviteLinks, true, 'inviteLinks');
		eq(o.title, 'Interop', 'title unchanged');
		await fails('updateOrganizationById', () => admin.orgs.updateOrganizationById(orgId, { hostname: 'No Spaces' }), 400);
		await fails('updateOrganizationById', () => admin.orgs.updateOrganizationById(orgId, { sso: true }), 400);
	});

	t.step('getOrganizationsForEmailDomain and joinOrganization', async ({ admin, reader, call, fails, orgId }) => {
		const { data } = await call('getOrganizationsForEmailDomain', () => admin.emailDomains.getOrganizationsForEmailDomain('example.com'), {
			status: 200,
		});
		has(data.organizations, orgId, 'organizations');
		await call('joinOrganization', () => reader.orgs.joinOrganization(orgId), { status: 204 });
		await fails('joinOrganization', () => reader.orgs.joinOrganization('O0000000000000000000'), 404);
	});

	t.step('invite links: create, list, get, update, join, delete', async ({ admin, reader, call, orgId }) => {
		const { data: link } = await call('createOrganizationInvite', () => admin.orgs.createOrganizationInvite(orgId, { role: 'read' }), {
			status: 201,
		});
		eq(link.object, 'invite', 'object');
		eq(link.role, 'read', 'role');
		const { data: list } = await call('listOrganizationInviteLinks', () => admin.orgs.listOrganizationInviteLinks(orgId), { status: 200 });
		has(list.items, link.id, 'items');
		const { data: got } = await call('getOrganizationInviteLink', () => admin.orgs.getOrganizationInviteLink(orgId, link.id), { status: 200 });
		eq(got.id, link.id, 'id');
		const { data: changed } = await call('updateOrganizationInviteById', () => admin.orgs.updateOrganizationInviteById(orgId, link.id, { role: 'comment' }), {
			status: 200,
		});
		eq(changed.role, 'comment', 'role after update');
		await call('joinOrganizationWithInvite', () => reader.orgs.joinOrganizationWithInvite(orgId, link.id), { status: 200 });
		await call('deleteOrganizationInviteById', () => admin.orgs.deleteOrganizationInviteById(orgId, link.id), { status: 205 });
		await call('deleteOrganizationInviteById', () => admin.orgs.deleteOrganizationInviteById(orgId, link.id), { status: 204 });
	});

	t.step('agent instructions: read, replace, read again', async ({ admin, reader, call, fails, orgId, userId }) => {
		await call('getOrganizationAgentInstructions', () => reader.orgs.getOrganizationAgentInstructions(orgId), { status: 200 });
		const { data } = await call('updateOrganizationAgentInstructions', () => admin.orgs.updateOrganizationAgentInstructions(orgId, { instructions: doc }), {
			status: 200,
		});
		eq(data.updatedBy, userId, 'updatedBy');
		const { data: again } = await call('getOrganizationAgentInstructions', () => reader.orgs.getOrganizationAgentInstructions(orgId));
		eq(again.instructions.nodes[0].nodes[0].leaves[0].text, 'Answer briefly.', 'instructions');
		await fails('updateOrganizationAgentInstructions', () => reader.orgs.updateOrganizationAgentInstructions(orgId, { instructions: doc }), 403);
	});

	t.step('updateOrganizationMemberLastSeenAt answers signed claims', async ({ reader, call, orgId, readerId }) => {
		const { data } = await call('updateOrganizationMemberLastSeenAt', () => reader.orgs.updateOrganizationMemberLastSeenAt(orgId), { status: 200 });
		const claims = JSON.parse(Buffer.from(data.serviceVisitorClaims.split('.')[1], 'base64url').toString());
		eq(claims.sub, readerId, 'sub');
		eq(claims.org, orgId, 'org');
	});

	t.step('members: list with filters, get, change the role, mark SSO', async ({ admin, call, fails, orgId, userId, readerId }) => {
		const { data: all } = await call('listMembersInOrganizationById', () => admin.orgs.listMembersInOrganizationById(orgId), { status: 200 });
		has(all.items, readerId, 'items');
		has(all.items, userId, 'items');
		const { data: readers } = await call('listMembersInOrganizationById', () => admin.orgs.listMembersInOrganizationById(orgId, { role: 'read' }));
		has(readers.items, readerId, 'readers');
		lacks(readers.items, userId, 'readers');
		const { data: found } = await call('listMembersInOrganizationById', () =>
			admin.orgs.listMembersInOrganizationById(orgId, { search: 'r@example', sort: 'joinedAt', order: 'asc' }),
		);
		eq(JSON.stringify(ids(found.items)), JSON.stringify([readerId]), 'search');
		const { data: m } = await call('getMemberInOrganizationById', () => admin.orgs.getMemberInOrganizationById(orgId, readerId), { status: 200 });
		eq(m.role, 'read', 'role');
		const { data: up } = await call('updateMemberInOrganizationById', () => admin.orgs.updateMemberInOrganizationById(orgId, readerId, { role: 'comment' }));
		eq(up.role, 'comment', 'role after update');
		await call('updateMemberInOrganizationById', () => admin.orgs.updateMemberInOrganizationById(orgId, readerId, { role: 'read' }));
		await fails('updateMemberInOrganizationById', () => admin.orgs.updateMemberInOrganizationById(orgId, userId, { role: 'read' }), 400);
		const { data: sso } = await call('setUserAsSSOMemberForOrganization', () => admin.orgs.setUserAsSsoMemberForOrganization(orgId, readerId), {
			status: 200,
		});
		eq(sso.sso, true, 'sso');
		await call('listSpacesForOrganizationMember', () => admin.orgs.listSpacesForOrganizationMember(orgId, readerId), { status: 200 });
		await call('removeMemberFromOrganizationById', () => admin.orgs.removeMemberFromOrganizationById(orgId, 'U0000000000000000000'), { status: 204 });
	});

	t.step('teams and their members', async ({ admin, call, orgId, readerId }) => {
		const { data: team } = await call('createOrganizationTeam', () => admin.orgs.createOrganizationTeam(orgId, { title: 'Interop team' }), { status: 201 });
		eq(team.object, 'team', 'object');
		const { data: list } = await call('listTeamsInOrganizationById', () => admin.orgs.listTeamsInOrganizationById(orgId, { title: 'interop' }), {
			status: 200,
		});
		has(list.items, team.id, 'items');
		await call('getTeamInOrganizationById', () => admin.orgs.getTeamInOrganizationById(orgId, team.id), { status: 200 });
		const { data: renamed } = await call('updateTeamInOrganizationById', () => admin.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Renamed' }));
		eq(renamed.title, 'Renamed', 'title');
		await call('updateMembersInOrganizationTeam', () => admin.orgs.updateMembersInOrganizationTeam(orgId, team.id, { add: [readerId] }), { status: 204 });
		const { data: members } = await call('listTeamMembersInOrganizationById', () => admin.orgs.listTeamMembersInOrganizationById(orgId, team.id), {
			status: 200,
		});
		ok(members.items.some((m) => m.organization.id === readerId), 'the reader is in the team');
		const { data: mine } = await call('listTeamsForOrganizationMember', () => admin.orgs.listTeamsForOrganizationMember(orgId, readerId), { status: 200 });
		ok(mine.items.some((i) => i.team.id === team.id && i.member.role === 'member'), 'the reader\'s teams');
		await call('addMemberToOrganizationTeamById', () => admin.orgs.addMemberToOrganizationTeamById(orgId, team.id, readerId, { role: 'owner' }), {
			status: 204,
		});
		await call('deleteMemberFromOrganizationTeamById', () => admin.orgs.deleteMemberFromOrganizationTeamById(orgId, team.id, readerId), { status: 205 });
		await call('deleteMemberFromOrganizationTeamById', () => admin.orgs.deleteMemberFromOrganizationTeamById(orgId, team.id, readerId), { status: 204 });
		await call('removeTeamFromOrganizationById', () => admin.orgs.removeTeamFromOrganizationById(orgId, team.id), { status: 205 });
		await call('removeTeamFromOrganizationById', () => admin.orgs.removeTeamFromOrganizationById(orgId, team.id), { status: 204 });
	});

	t.step('permissions of a space and a collection, for users and teams', async ({ admin, reader, call, fails, orgId, readerId }) => {
		const { data: col } = await call('createCollection', () => admin.orgs.createCollection(orgId, { title: 'Permissions' }));
		await admin.collections.updateCollectionById(col.id, { defaultLevel: null });
		const { data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Private', parent: col.id }));
		await fails('getSpaceById', () => reader.spaces.getSpaceById(space.id), 404);
		const { data: team } = await call('createOrganizationTeam', () => admin.orgs.createOrganizationTeam(orgId, { title: 'Editors' }));

		await call('inviteToSpace', () => admin.spaces.inviteToSpace(space.id, { role: 'edit', users: [readerId] }), { status: 204 });
		const { data: sp } = await call('getSpaceById', () => reader.spaces.getSpaceById(space.id));
		eq(sp.permissions.edit, true, 'the reader may edit');
		await call('inviteToSpace', () => admin.spaces.inviteToSpace(space.id, { role: 'read', teams: [team.id] }), { status: 204 });
		const { data: users } = await call('listUserPermissionsInSpace', () => admin.spaces.listUserPermissionsInSpace(space.id), { status: 200 });
		ok(users.items.some((i) => i.user.id === readerId && i.permission === 'edit'), 'user permissions');
		const { data: teams } = await call('listTeamPermissionsInSpace', () => admin.spaces.listTeamPermissionsInSpace(space.id), { status: 200 });
		ok(teams.items.some((i) => i.team.id === team.id && i.permission === 'read'), 'team permissions');
		const { data: all } = await call('listPermissionsAggregateInSpace', () => admin.spaces.listPermissionsAggregateInSpace(space.id), { status: 200 });
		ok(all.items.some((i) => i.user.id === readerId), 'aggregate');
		await call('updateUserPermissionInSpace', () => admin.spaces.updateUserPermissionInSpace(space.id, readerId, { role: 'comment' }), { status: 204 });
		await call('updateTeamPermissionInSpace', () => admin.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: 'edit' }), { status: 204 });
		await call('removeUserFromSpace', () => admin.spaces.removeUserFromSpace(space.id, readerId), { status: 205 });
		await call('removeTeamFromSpace', () => admin.spaces.removeTeamFromSpace(space.id, team.id), { status: 205 });
		await call('removeUserFromSpace', () => admin.spaces.removeUserFromSpace(space.id, readerId), { status: 204 });
		await fails('getSpaceById', () => reader.spaces.getSpaceById(space.id), 404);

		await call('inviteToCollection', () => admin.collections.inviteToCollection(col.id, { role: 'read', users: [readerId], teams: [team.id] }), {
			status: 204,
		});
		await call('getSpaceById', () => reader.spaces.getSpaceById(space.id));
		await call('listUserPermissionsInCollection', () => admin.collections.listUserPermissionsInCollection(col.id), { status: 200 });
		await call('listTeamPermissionsInCollection', () => admin.collections.listTeamPermissionsInCollection(col.id), { status: 200 });
		await call('listPermissionsAggregateInCollection', () => admin.collections.listPermissionsAggregateInCollection(col.id), { status: 200 });
		await call('updateUserPermissionInCollection', () => admin.collections.updateUserPermissionInCollection(col.id, readerId, { role: 'comment' }), {
			status: 204,
		});
		await call('updateTeamPermissionInCollection', () => admin.collections.updateTeamPermissionInCollection(col.id, team.id, { role: 'comment' }), {
			status: 204,
		});
		await call('removeUserFromCollection', () => admin.collections.removeUserFromCollection(col.id, readerId), { status: 205 });
		await call('removeTeamFromCollection', () => admin.collections.removeTeamFromCollection(col.id, team.id), { status: 205 });
		await fails('inviteToSpace', () => reader.spaces.inviteToSpace(space.id, { role: 'admin', users: [readerId] }), 404);
	});

	t.step('SAML providers and the login options', async ({ admin, anonymous, call, fails, orgId }) => {
		const { data: p } = await call('createOrganizationSAMLProvider', () => admin.orgs.createOrganizationSamlProvider(orgId, { label: 'Interop IdP' }), {
			status: 201,
		});
		eq(p.object, 'saml-provider', 'object');
		eq(p.status, 'pending', 'status');
		ok(p.service.startURL.endsWith(`/sso/saml/${p.id}/start`), 'service.startURL');
		await call('getOrganizationSAMLProviderById', () => admin.orgs.getOrganizationSamlProviderById(orgId, p.id), { status: 200 });
		const { data: list } = await call('listSAMLProvidersInOrganizationById', () => admin.orgs.listSamlProvidersInOrganizationById(orgId), { status: 200 });
		has(list.items, p.id, 'items');
		const { data: up } = await call('updateOrganizationSAMLProvider', () =>
			admin.orgs.updateOrganizationSamlProvider(orgId, p.id, { label: 'Renamed IdP', ssoURL: 'https://idp.example.com/sso', entityID: 'https://idp.example.com' }),
		);
		eq(up.label, 'Renamed IdP', 'label');
		eq(up.status, 'pending', 'status without a certificate');
		await fails('updateOrganizationSAMLProvider', () => admin.orgs.updateOrganizationSamlProvider(orgId, p.id, { certificate: 'not a certificate' }), 400);
		const { data: logins } = await call('listSSOProviderLoginsInOrganization', () => anonymous.orgs.listSsoProviderLoginsInOrganization(orgId), {
			status: 200,
		});
		lacks(logins.items, p.id, 'a pending provider is no login option');
		await call('deleteOrganizationSAMLProvider', () => admin.orgs.deleteOrganizationSamlProvider(orgId, p.id), { status: 205 });
	});
}
