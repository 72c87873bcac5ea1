package matrix_test

import "maps"

// The rows of organization administration, REST and GraphQL: settings and
// invite links (admins), joining (members, or anyone with an invite),
// members and teams (listed by every role, changed by admins; teams by
// their owners too), the permissions of content (listed by readers,
// changed by admins of the content), SAML providers (admins) and the login
// options (public). A guest sees the organization but none of this: 403.
func init() {
	maps.Copy(restRules, map[string]rule{
		"PATCH /orgs/{organizationId}":                                  inOrg(admin).with(fixed(map[string]any{"inviteLinks": true})),
		"POST /orgs/{organizationId}/join":                              members.status(204).refusesOutsiders(400),
		"GET /email-domains/{emailDomain}/orgs":                         anyone,
		"GET /orgs/{organizationId}/link-invites":                       inOrg(admin),
		"POST /orgs/{organizationId}/link-invites":                      inOrg(admin).status(201).with(fixed(map[string]any{"role": "read"})),
		"GET /orgs/{organizationId}/link-invites/{inviteId}":            inOrg(admin),
		"PATCH /orgs/{organizationId}/link-invites/{inviteId}":          inOrg(admin).with(fixed(map[string]any{"role": "read"})),
		"DELETE /orgs/{organizationId}/link-invites/{inviteId}":         inOrg(admin).status(205).spoils(),
		"POST /orgs/{organizationId}/invites/{inviteId}":                anyone.on("organizationId", "club").on("inviteId", "clubInvite"),
		"GET /orgs/{organizationId}/agent-instructions":                 inOrg(reader),
		"PUT /orgs/{organizationId}/agent-instructions":                 inOrg(admin).with(fixed(map[string]any{"instructions": instructions})),
		"POST /orgs/{organizationId}/ping":                              members,
		"GET /orgs/{organizationId}/members":                            inOrg(reader),
		"GET /orgs/{organizationId}/members/{userId}":                   inOrg(reader),
		"PATCH /orgs/{organizationId}/members/{userId}":                 inOrg(admin).with(fixed(map[string]any{"role": "edit"})),
		"DELETE /orgs/{organizationId}/members/{userId}":                inOrg(admin).status(205).spoils(),
		"POST /orgs/{organizationId}/members/{userId}/sso":              inOrg(admin),
		"GET /orgs/{organizationId}/members/{userId}/spaces":            inOrg(reader),
		"GET /orgs/{organizationId}/members/{userId}/teams":             inOrg(reader),
		"GET /orgs/{organizationId}/teams":                              inOrg(reader),
		"PUT /orgs/{organizationId}/teams":                              inOrg(creator).status(201).with(fixed(map[string]any{"title": "New team"})),
		"GET /orgs/{organizationId}/teams/{teamId}":                     inOrg(reader),
		"PATCH /orgs/{organizationId}/teams/{teamId}":                   inOrg(admin).with(fixed(map[string]any{"title": "Writers"})),
		"DELETE /orgs/{organizationId}/teams/{teamId}":                  inOrg(admin).status(205).spoils(),
		"GET /orgs/{organizationId}/teams/{teamId}/members":             inOrg(reader),
		"PUT /orgs/{organizationId}/teams/{teamId}/members":             inOrg(admin).status(204).with(func(ids map[string]string) any { return map[string]any{"add": []string{ids["userId"]}} }),
		"PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}":    inOrg(admin).status(204),
		"DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}": inOrg(admin).status(205).spoils().ofPart(),
		"GET /orgs/{organizationId}/saml":                               inOrg(admin),
		"POST /orgs/{organizationId}/saml":                              inOrg(admin).status(201).with(fixed(map[string]any{"label": "New IdP"})),
		"GET /orgs/{organizationId}/saml/{samlProviderId}":              inOrg(admin),
		"PATCH /orgs/{organizationId}/saml/{samlProviderId}":            inOrg(admin).with(fixed(map[string]any{"label": "Test IdP"})),
		"DELETE /orgs/{organizationId}/saml/{samlProviderId}":           inOrg(admin).status(205).spoils(),
		"GET /orgs/{organizationId}/sso":                                public,
	})
	for _, k := range []struct{ base, param string }{{"/spaces/{spaceId}", "spaceId"}, {"/collections/{collectionId}", "collectionId"}} {
		p := k.base + "/permissions"
		maps.Copy(restRules, map[string]rule{
			"POST " + p: needs(admin).status(204).with(func(ids map[string]string) any {
				return map[string]any{"role": "read", "users": []string{ids["userId"]}, "teams": []string{ids["teamId"]}}
			}),
			"GET " + p + "/users":             readers,
			"GET " + p + "/teams":             readers,
			"GET " + p + "/aggregate":         readers,
			"PATCH " + p + "/users/{userId}":  needs(admin).status(204).with(fixed(map[string]any{"role": "read"})),
			"DELETE " + p + "/users/{userId}": needs(admin).status(205).spoils().ofPart(),
			"PATCH " + p + "/teams/{teamId}":  needs(admin).status(204).with(fixed(map[string]any{"role": "read"})),
			"DELETE " + p + "/teams/{teamId}": needs(admin).status(205).spoils().ofPart(),
		})
	}

	org := func(pairs ...any) func(map[string]string) any {
		return args(append([]any{"organization", "organizationId"}, pairs...)...)
	}
	maps.Copy(gqlRules, map[string]rule{
		"Query.organizationsForEmailDomain":   anyone.with(args("emailDomain", "emailDomain")),
		"Query.ssoLogins":                     anyone.with(args("organization", "organizationId")),
		"Mutation.updateOrganization":         inOrg(admin).with(args("id", "organizationId", "input", map[string]any{"inviteLinks": true})),
		"Mutation.joinOrganization":           members.with(args("id", "organizationId")).refusesOutsiders(400),
		"Mutation.joinOrganizationWithInvite": anyone.with(args("organization", "club", "invite", "clubInvite")),
		"Mutation.createInviteLink":           inOrg(admin).with(org("input", map[string]any{"role": "read"})),
		"Mutation.updateInviteLink":           inOrg(admin).with(org("id", "inviteId", "input", map[string]any{"role": "read"})),
		"Mutation.deleteInviteLink":           inOrg(admin).spoils("inviteId").with(org("id", "inviteId")),
		"Mutation.updateAgentInstructions":    inOrg(admin).with(org("instructions", instructions)),
		"Mutation.pingOrganization":           members.with(args("id", "organizationId")),
		"Mutation.updateMember":               inOrg(admin).with(org("user", "userId", "input", map[string]any{"role": "edit"})),
		"Mutation.removeMember":               inOrg(admin).spoils("userId").with(org("user", "userId")),
		"Mutation.setMemberSSO":               inOrg(admin).with(org("user", "userId")),
		"Mutation.createTeam":                 inOrg(creator).with(org("input", map[string]any{"title": "New team"})),
		"Mutation.updateTeam":                 inOrg(admin).with(org("id", "teamId", "input", map[string]any{"title": "Writers"})),
		"Mutation.deleteTeam":                 inOrg(admin).spoils("teamId").with(org("id", "teamId")),
		"Mutation.updateTeamMembers": inOrg(admin).with(func(ids map[string]string) any {
			return map[string]any{"organization": ids["organizationId"], "team": ids["teamId"], "input": map[string]any{"add": []string{ids["userId"]}}}
		}),
		"Mutation.addTeamMember":      inOrg(admin).with(org("team", "teamId", "user", "userId")),
		"Mutation.removeTeamMember":   inOrg(admin).spoils("teamId").ofPart().with(org("team", "teamId", "user", "userId")),
		"Mutation.createSAMLProvider": inOrg(admin).with(org("input", map[string]any{"label": "New IdP"})),
		"Mutation.updateSAMLProvider": inOrg(admin).with(org("id", "samlProviderId", "input", map[string]any{"label": "Test IdP"})),
		"Mutation.deleteSAMLProvider": inOrg(admin).spoils("samlProviderId").with(org("id", "samlProviderId")),
	})
	for _, k := range []struct{ kind, Kind, param string }{{"space", "Space", "spaceId"}, {"collection", "Collection", "collectionId"}} {
		maps.Copy(gqlRules, map[string]rule{
			"Mutation.inviteTo" + k.Kind: needs(admin).with(func(ids map[string]string) any {
				return map[string]any{k.kind: ids[k.param], "input": map[string]any{"role": "read", "users": []string{ids["userId"]}, "teams": []string{ids["teamId"]}}}
			}),
			"Mutation.updateUserPermissionIn" + k.Kind: needs(admin).with(args(k.kind, k.param, "user", "userId", "input", map[string]any{"role": "read"})),
			"Mutation.updateTeamPermissionIn" + k.Kind: needs(admin).with(args(k.kind, k.param, "team", "teamId", "input", map[string]any{"role": "read"})),
			"Mutation.removeUserFrom" + k.Kind:         needs(admin).spoils(k.param).ofPart().with(args(k.kind, k.param, "user", "userId")),
			"Mutation.removeTeamFrom" + k.Kind:         needs(admin).spoils(k.param).ofPart().with(args(k.kind, k.param, "team", "teamId")),
		})
	}
	maps.Copy(nestedRules, map[string]nestedRule{
		"Organization.teams": {min: reader, code: "FORBIDDEN", sees: member, arg: "organizationId",
			probe: `query($id: ID!) { organization(id: $id) { teams { totalCount nodes { id } } } }`},
		"Organization.agentInstructions": {min: reader, code: "FORBIDDEN", sees: member, arg: "organizationId",
			probe: `query($id: ID!) { organization(id: $id) { agentInstructions { updatedBy } } }`},
		"Organization.invites": {min: admin, code: "FORBIDDEN", sees: member, arg: "organizationId",
			probe: `query($id: ID!) { organization(id: $id) { invites { totalCount nodes { id } } } }`},
		"Organization.samlProviders": {min: admin, code: "FORBIDDEN", sees: member, arg: "organizationId",
			probe: `query($id: ID!) { organization(id: $id) { samlProviders { totalCount nodes { id } } } }`},
	})
}
