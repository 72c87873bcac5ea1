package graph

import (
	"context"
	"fmt"
	"quire/graph/connections"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/ent/invitelink"
	"quire/ent/samlprovider"
	"quire/ent/team"
	"quire/graph/model"
	"quire/internal/access"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/document"
	"quire/internal/grants"
	"quire/internal/ids"
	"quire/internal/loaders"
	"quire/internal/members"
	"quire/internal/orgs"
	"quire/internal/pagination"
	"quire/internal/sso"
	"quire/internal/types"
)

// The connections of organization administration, and the conversions of
// their inputs (the resolvers stay one to ten lines).

func createdCursor(t time.Time, id string) pagination.Cursor {
	return pagination.Cursor{Key: t.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: id}
}

func teamConnection(items []*ent.Team, args catalog.PageArgs) (*model.TeamConnection, error) {
	return connections.Paginate[model.TeamConnection](items, members.TeamCursor, args)
}

// Team memberships, the spaces of a member and the users of a permission
// come from their engines by value, ordered: their cursors are their places
// in that list.

func teamMembershipConnection(items []members.TeamMembership, args catalog.PageArgs) (*model.TeamMembershipConnection, error) {
	ptrs := connections.Pointers(items)
	return connections.Paginate[model.TeamMembershipConnection](ptrs, connections.IndexCursor(ptrs), args)
}

func memberSpaceConnection(items []access.Reach, args catalog.PageArgs) (*model.MemberSpaceConnection, error) {
	ptrs := connections.Pointers(items)
	return connections.Paginate[model.MemberSpaceConnection](ptrs, connections.IndexCursor(ptrs), args)
}

func userPermissionConnection(items []grants.Reach, args catalog.PageArgs) (*model.UserPermissionConnection, error) {
	ptrs := connections.Pointers(items)
	return connections.Paginate[model.UserPermissionConnection](ptrs, connections.IndexCursor(ptrs), args)
}

// usersOf are the users of permissions given to users.
func usersOf(rows []*ent.ContentPermission) []grants.Reach {
	out := make([]grants.Reach, 0, len(rows))
	for _, r := range rows {
		if r.UserID != nil {
			out = append(out, grants.Reach{UserID: *r.UserID, Level: r.Level})
		}
	}
	return out
}

func teamPermissionConnection(items []*ent.ContentPermission, args catalog.PageArgs) (*model.TeamPermissionConnection, error) {
	key := func(p *ent.ContentPermission) pagination.Cursor {
		return pagination.Cursor{Key: fmt.Sprintf("%020d", p.ID)}
	}
	return connections.Paginate[model.TeamPermissionConnection](items, key, args)
}

func inviteLinkConnection(items []*ent.InviteLink, args catalog.PageArgs) (*model.InviteLinkConnection, error) {
	key := func(l *ent.InviteLink) pagination.Cursor { return createdCursor(l.CreatedAt, l.ID) }
	return connections.Paginate[model.InviteLinkConnection](items, key, args)
}

func samlProviderConnection(items []*ent.SAMLProvider, args catalog.PageArgs) (*model.SAMLProviderConnection, error) {
	key := func(s *ent.SAMLProvider) pagination.Cursor { return createdCursor(s.CreatedAt, s.ID) }
	return connections.Paginate[model.SAMLProviderConnection](items, key, args)
}

// MemberWant is what a reader shows of each member it reads; the REST
// door passes it literally.
type MemberWant = members.Want

// EveryMemberPart is every part of members: what the REST door presents.
var EveryMemberPart = members.Everything

// memberList reads a page of an organization's members as a connection,
// with what w asks of each.
func (r *Resolver) memberList(ctx context.Context, orgID string, f members.Filter, args catalog.PageArgs, w members.Want) (*model.MemberConnection, error) {
	p, err := r.Members.ViewMembers(ctx, orgID, f, args, w)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.MemberConnection](p), nil
}

// MemberListOf is an organization's members, with what w asks of each
// member read for the whole page.
func (r *Resolver) MemberListOf(ctx context.Context, o *ent.Organization, first *int, after *string, role, search, sort, order *string, w MemberWant) (*model.MemberConnection, error) {
	return r.memberList(ctx, o.ID, members.Filter{Role: str0(role), Search: str0(search), Sort: str0(sort), Order: str0(order)}, pageArgs(first, after, nil, nil), w)
}

// teamMemberList reads a page of a team's members as a connection, with
// what w asks of each.
func (r *Resolver) teamMemberList(ctx context.Context, t *ent.Team, args catalog.PageArgs, w members.Want) (*model.TeamMembershipConnection, error) {
	p, err := r.Members.ViewTeamMembers(ctx, t.OrganizationID, t.ID, args, w)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.TeamMembershipConnection](p), nil
}

// TeamMemberListOf is a team's members, with what w asks of each member
// read for the whole page.
func (r *Resolver) TeamMemberListOf(ctx context.Context, t *ent.Team, first *int, after *string, w MemberWant) (*model.TeamMembershipConnection, error) {
	return r.teamMemberList(ctx, t, pageArgs(first, after, nil, nil), w)
}

// deref returns the string of an optional argument, "" when absent.
func str0(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// organizationUpdate turns the mutation's input into the engine's.
func organizationUpdate(in model.UpdateOrganizationInput) (orgs.Update, error) {
	var u orgs.Update
	var err error
	if u.Title, err = required(in.Title, "title"); err != nil {
		return u, err
	}
	if v, set := in.EmailDomains.ValueOK(); set {
		if v == nil {
			return u, invalidNull("emailDomains")
		}
		u.EmailDomains = catalog.Some(v)
	}
	u.Hostname, u.DefaultRole, u.Logo = opt(in.Hostname), opt(in.DefaultRole), opt(in.Logo)
	if v, set := in.DefaultContent.ValueOK(); set {
		if v == nil {
			u.DefaultSite = catalog.Some[*string](nil)
		} else {
			if v.Type != "site" {
				return u, apierr.Invalid("defaultContent.type", "defaultContent.type must be site")
			}
			site := v.Site
			u.DefaultSite = catalog.Some(&site)
		}
	}
	if u.SSO, err = required(in.Sso, "sso"); err != nil {
		return u, err
	}
	if u.AI, err = required(in.Ai, "ai"); err != nil {
		return u, err
	}
	if u.InviteLinks, err = required(in.InviteLinks, "inviteLinks"); err != nil {
		return u, err
	}
	if v, set := in.MergeRules.ValueOK(); set {
		if v == nil {
			return u, invalidNull("mergeRules")
		}
		u.MergeRules = catalog.Some(mergeRules(v))
	}
	return u, nil
}

// newInvite turns the mutation's input into an invite link to create.
func newInvite(in model.CreateInviteLinkInput) (orgs.NewInvite, error) {
	space, collection := value(in.Space), value(in.Collection)
	switch {
	case space != nil && collection != nil:
		return orgs.NewInvite{}, apierr.Invalid("space", "An invite link is to a space or to a collection, not both")
	case space != nil:
		if in.Role.IsSet() {
			return orgs.NewInvite{}, apierr.Invalid("role", "An invite link to a space gives a level, not a role")
		}
		return orgs.NewInvite{Kind: orgs.InviteSpace, Role: value(in.Level), Target: *space}, nil
	case collection != nil:
		if in.Role.IsSet() {
			return orgs.NewInvite{}, apierr.Invalid("role", "An invite link to a collection gives a level, not a role")
		}
		return orgs.NewInvite{Kind: orgs.InviteCollection, Role: value(in.Level), Target: *collection}, nil
	}
	if in.Level.IsSet() {
		return orgs.NewInvite{}, apierr.Invalid("level", "An invite link to the organization gives a role, not a level")
	}
	if !in.Role.IsSet() {
		return orgs.NewInvite{}, apierr.Invalid("role", "role is required (null for guests)")
	}
	return orgs.NewInvite{Kind: orgs.InviteOrganization, Role: value(in.Role)}, nil
}

// samlSettings turns the mutations' input into a provider's settings.
func samlSettings(in model.SAMLProviderInput) (sso.Settings, error) {
	var s sso.Settings
	var err error
	for _, f := range []struct {
		o     graphql.Omittable[*string]
		dst   *catalog.Opt[string]
		field string
	}{{in.Label, &s.Label, "label"}, {in.EntityID, &s.EntityID, "entityID"}, {in.Certificate, &s.Certificate, "certificate"}, {in.SsoURL, &s.SSOURL, "ssoURL"}} {
		if *f.dst, err = required(f.o, f.field); err != nil {
			return s, err
		}
	}
	s.DefaultTeam, s.DefaultRole = opt(in.DefaultTeam), opt(in.DefaultRole)
	return s, nil
}

// teamChanges turns the mutation's input into changes of a team's members.
func teamChanges(in model.UpdateTeamMembersInput) members.TeamChanges {
	c := members.TeamChanges{Roles: map[string]string{}}
	c.Add, _ = in.Add.ValueOK()
	c.Remove, _ = in.Remove.ValueOK()
	ms, _ := in.Memberships.ValueOK()
	for _, m := range ms {
		if m != nil {
			c.Roles[m.User] = m.Role
		}
	}
	return c
}

// instructionsDocument parses the document of agent instructions.
func instructionsDocument(raw types.JSON) (*document.Document, error) {
	return parseDocument("instructions", raw)
}

// billing is what a self-hosted Quire bills: nothing, in monthly periods
// that end with each calendar month (UTC).
func billing() *model.OrganizationBilling {
	zero := func() *model.PricePair { return &model.PricePair{} }
	now := time.Now().UTC()
	end := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	return &model.OrganizationBilling{
		Interval: "monthly",
		EndDate:  &end,
		Pricing: &model.OrganizationPricing{
			Members: &model.MemberPricing{Plus2024: zero(), Pro2024: zero()},
			Sites:   &model.SitePricing{Premium: zero(), Ultimate: zero()},
		},
		UsageAddons: types.JSON("{}"),
	}
}

// teamOf returns a team of an organization, reading all its teams once
// per request, so that a list of teams' permissions reads them in one
// statement.
func (r *Resolver) teamOf(ctx context.Context, orgID, id string) (*ent.Team, error) {
	all, err := loaders.Memo(ctx, orgID, "graph.teams", func() (map[string]*ent.Team, error) {
		ts, err := r.Members.Client.Team.Query().Where(team.OrganizationID(orgID)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("list teams: %w", err)
		}
		out := make(map[string]*ent.Team, len(ts))
		for _, t := range ts {
			out[t.ID] = t
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	if t, ok := all[id]; ok {
		return t, nil
	}
	return nil, apierr.NotFoundf("No matching team found for id %q", id)
}

// The permissions of content, for both kinds of content.

func (r *Resolver) userPermissions(ctx context.Context, kind, id string, args catalog.PageArgs) (*model.UserPermissionConnection, error) {
	rows, err := r.Grants.Users(ctx, kind, id)
	if err != nil {
		return nil, err
	}
	return userPermissionConnection(usersOf(rows), args)
}

func (r *Resolver) teamPermissions(ctx context.Context, kind, id string, args catalog.PageArgs) (*model.TeamPermissionConnection, error) {
	rows, err := r.Grants.Teams(ctx, kind, id)
	if err != nil {
		return nil, err
	}
	return teamPermissionConnection(rows, args)
}

func (r *Resolver) invite(ctx context.Context, kind, id string, in model.InvitePermissionsInput) error {
	users, _ := in.Users.ValueOK()
	teams, _ := in.Teams.ValueOK()
	role := in.Role
	return r.Grants.Invite(ctx, kind, id, &role, users, teams)
}

// updatePermission changes a level; an input without role changes nothing
// (but what it names must still exist).
func (r *Resolver) updatePermission(ctx context.Context, kind, id, principal, principalID string, in model.UpdatePermissionInput) error {
	role, set := in.Role.ValueOK()
	if !set {
		return r.Grants.Check(ctx, kind, id, principal, principalID)
	}
	return r.Grants.Update(ctx, kind, id, principal, principalID, role)
}

func (r *Resolver) removePermission(ctx context.Context, kind, id, principal, principalID string) (*model.DeletePayload, error) {
	ok, err := r.Grants.Remove(ctx, kind, id, principal, principalID)
	if err != nil {
		return nil, err
	}
	return &model.DeletePayload{ID: principalID, Deleted: ok}, nil
}

// reloadSpace and reloadCollection present content after a change of its
// permissions, with the caller's level read anew.
func (r *Resolver) reloadSpace(ctx context.Context, id string) (*ent.Space, error) {
	sp, _, err := r.Catalog.Space(ctx, id)
	return sp, err
}

func (r *Resolver) reloadCollection(ctx context.Context, id string) (*ent.Collection, error) {
	c, _, err := r.Catalog.Collection(ctx, id)
	return c, err
}

// adminNode resolves a team, an invite link or a SAML provider for
// node(id:), as its organization's field would: teams for members with a
// role, invite links and SAML providers for admins; NotFound for others.
func (r *Resolver) adminNode(ctx context.Context, kind ids.Kind, id string) (types.Node, error) {
	c := r.Members.Client
	var orgID string
	var err error
	switch kind {
	case ids.Team:
		orgID, err = c.Team.Query().Where(team.ID(id)).Select(team.FieldOrganizationID).String(ctx)
	case ids.InviteLink:
		orgID, err = c.InviteLink.Query().Where(invitelink.ID(id)).Select(invitelink.FieldOrganizationID).String(ctx)
	default:
		orgID, err = c.SAMLProvider.Query().Where(samlprovider.ID(id)).Select(samlprovider.FieldOrganizationID).String(ctx)
	}
	if ent.IsNotFound(err) {
		return nil, notFoundNode(id)
	}
	if err != nil {
		return nil, fmt.Errorf("find the organization of a node: %w", err)
	}
	var n types.Node
	switch kind {
	case ids.Team:
		n, err = r.Members.Team(ctx, orgID, id)
	case ids.InviteLink:
		n, err = r.Orgs.InviteLink(ctx, orgID, id)
	default:
		n, err = r.SSO.Provider(ctx, orgID, id)
	}
	switch apierr.CodeOf(err) {
	case apierr.NotFound, apierr.Forbidden:
		return nil, notFoundNode(id)
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// joined is the caller's membership after joining an organization.
func (r *Resolver) joined(ctx context.Context, orgID string) (*model.JoinPayload, error) {
	m, err := r.Members.Member(ctx, orgID, viewerFrom(ctx).ID)
	if err != nil {
		return nil, err
	}
	return &model.JoinPayload{Organization: orgID, Member: m}, nil
}

// What the REST presenters of organization administration need of the
// types the resolver methods return (rest/ imports no engine).

type (
	// TeamPermissions are the caller's permissions on a team.
	TeamPermissions = members.TeamPermissions
	// TeamMembership is a member of a team with their role in it.
	TeamMembership = members.TeamMembership
	// MemberReach is a space a member reaches, with their level.
	MemberReach = access.Reach
	// UserReach is a user and their level on content.
	UserReach = grants.Reach
	// AgentInstructions are an organization's instructions to AI agents.
	AgentInstructions = orgs.Instructions
	// SAMLEndpoints are Quire's endpoints for a SAML provider.
	SAMLEndpoints = sso.Endpoints
	// SSOLogin is a way to sign in to an organization.
	SSOLogin = sso.Login
)

// Kinds of invite links.
const (
	InviteToOrganization = orgs.InviteOrganization
	InviteToSpace        = orgs.InviteSpace
	InviteToCollection   = orgs.InviteCollection
)
