package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
	"quire/graph"
	"quire/internal/types"
)

// The presenters of organization administration: members, teams, invite
// links, permissions of content, SAML providers, agent instructions.

// Member is the documented organization member. Its id is the user's.
type Member struct {
	Object     string      `json:"object" enum:"member"`
	ID         string      `json:"id"`
	Role       *types.Role `json:"role" doc:"null for a guest."`
	User       *User       `json:"user"`
	Disabled   bool        `json:"disabled"`
	JoinedAt   time.Time   `json:"joinedAt"`
	LastSeenAt *time.Time  `json:"lastSeenAt,omitempty"`
	SSO        bool        `json:"sso" doc:"Signs in through the organization's single sign-on."`
	Spaces     int         `json:"spaces" doc:"How many live spaces the member reaches."`
	Teams      int         `json:"teams" doc:"How many teams of the organization the member belongs to."`
}

// members presents members. A list's route reads its page with
// graph.EveryMemberPart, so that presenting each member reads the
// request's caches.
func (a *API) members() *Kind[*ent.Member, *Member] {
	return presents(a.presentMember)
}

func (a *API) presentMember(ctx context.Context, m *ent.Member) (*Member, error) {
	r := a.r.Member()
	u, err := r.User(ctx, m)
	if err != nil {
		return nil, err
	}
	user, err := a.presentUser(ctx, u)
	if err != nil {
		return nil, err
	}
	spaces, err := r.Spaces(ctx, m)
	if err != nil {
		return nil, err
	}
	teams, err := r.Teams(ctx, m)
	if err != nil {
		return nil, err
	}
	var seen *time.Time
	if m.LastSeenAt != nil {
		t := m.LastSeenAt.UTC()
		seen = &t
	}
	return &Member{Object: "member", ID: m.UserID, Role: m.Role, User: user, Disabled: m.Disabled, JoinedAt: m.JoinedAt.UTC(),
		LastSeenAt: seen, SSO: m.SSO, Spaces: spaces, Teams: teams}, nil
}

// Team is the documented team.
type Team struct {
	Object      string                 `json:"object" enum:"team"`
	ID          string                 `json:"id"`
	Title       string                 `json:"title"`
	Members     int                    `json:"members" doc:"How many members it has."`
	Spaces      int                    `json:"spaces" doc:"How many live spaces its permissions reach."`
	CreatedAt   time.Time              `json:"createdAt"`
	Permissions *graph.TeamPermissions `json:"permissions"`
}

func (a *API) teams() *Kind[*ent.Team, *Team] {
	return presents(a.presentTeam)
}

func (a *API) presentTeam(ctx context.Context, t *ent.Team) (*Team, error) {
	r := a.r.Team()
	members, err := r.Members(ctx, t)
	if err != nil {
		return nil, err
	}
	spaces, err := r.Spaces(ctx, t)
	if err != nil {
		return nil, err
	}
	perms, err := r.Permissions(ctx, t)
	if err != nil {
		return nil, err
	}
	return &Team{Object: "team", ID: t.ID, Title: t.Title, Members: members, Spaces: spaces, CreatedAt: t.CreatedAt.UTC(), Permissions: perms}, nil
}

// MemberSpace is a space a member reaches, with their level on it.
type MemberSpace struct {
	Permission types.Role `json:"permission"`
	Space      *Space     `json:"space"`
}

func (a *API) memberSpaces() *Kind[*graph.MemberReach, *MemberSpace] {
	return presents(func(ctx context.Context, r *graph.MemberReach) (*MemberSpace, error) {
		sp, err := a.presentSpace(ctx, r.Space)
		if err != nil {
			return nil, err
		}
		return &MemberSpace{Permission: r.Level, Space: sp}, nil
	}).warming(func(ctx context.Context, list []*graph.MemberReach) error {
		spaces := make([]*ent.Space, len(list))
		for i, r := range list {
			spaces[i] = r.Space
		}
		return a.r.ReadSpacePublications(ctx, spaces)
	})
}

// TeamRole is a member's role in a team.
type TeamRole struct {
	Role string `json:"role" enum:"owner,member"`
}

// MemberTeam is a team a member belongs to, with their role in it.
type MemberTeam struct {
	Team   *Team     `json:"team"`
	Member *TeamRole `json:"member"`
}

func (a *API) memberTeams() *Kind[*graph.TeamMembership, *MemberTeam] {
	return presents(func(ctx context.Context, tm *graph.TeamMembership) (*MemberTeam, error) {
		t, err := a.presentTeam(ctx, tm.Team)
		if err != nil {
			return nil, err
		}
		return &MemberTeam{Team: t, Member: &TeamRole{Role: tm.Role}}, nil
	})
}

// TeamMember is a member of a team.
type TeamMember struct {
	Organization *Member  `json:"organization" doc:"The organization member."`
	Team         TeamRole `json:"team" doc:"Their role in the team."`
	Permissions  struct {
		View bool `json:"view"`
	} `json:"permissions"`
}

func (a *API) teamMembers() *Kind[*graph.TeamMembership, *TeamMember] {
	return presents(func(ctx context.Context, tm *graph.TeamMembership) (*TeamMember, error) {
		m, err := a.presentMember(ctx, tm.Member)
		if err != nil {
			return nil, err
		}
		out := &TeamMember{Organization: m, Team: TeamRole{Role: tm.Role}}
		out.Permissions.View = true
		return out, nil
	})
}

// UserPermission is a user and their level on content.
type UserPermission struct {
	Permission types.Role `json:"permission"`
	User       *User      `json:"user"`
}

func (a *API) userPermissions() *Kind[*graph.UserReach, *UserPermission] {
	return presents(func(ctx context.Context, r *graph.UserReach) (*UserPermission, error) {
		u, err := a.r.UserPermission().User(ctx, r)
		if err != nil {
			return nil, err
		}
		user, err := a.presentUser(ctx, u)
		if err != nil {
			return nil, err
		}
		return &UserPermission{Permission: r.Level, User: user}, nil
	})
}

// TeamPermission is a team and its level on content.
type TeamPermission struct {
	Permission types.Role `json:"permission"`
	Team       *Team      `json:"team"`
}

func (a *API) teamPermissions() *Kind[*ent.ContentPermission, *TeamPermission] {
	return presents(func(ctx context.Context, p *ent.ContentPermission) (*TeamPermission, error) {
		t, err := a.r.TeamPermission().Team(ctx, p)
		if err != nil {
			return nil, err
		}
		team, err := a.presentTeam(ctx, t)
		if err != nil {
			return nil, err
		}
		return &TeamPermission{Permission: p.Level, Team: team}, nil
	})
}

// InviteLink is the documented invite link: to the organization with a
// role, or to a space or a collection with a level.
type InviteLink struct {
	Object     string      `json:"object" enum:"invite"`
	ID         string      `json:"id" doc:"The invite's secret: who holds it may join (POST /orgs/{organizationId}/invites/{inviteId})."`
	Role       *types.Role `json:"role,omitempty" doc:"An invite to the organization: the role it gives (absent for guests)."`
	Level      *types.Role `json:"level,omitempty" doc:"An invite to a space or a collection: the level it gives."`
	Redundant  bool        `json:"redundant" doc:"An older link gives the same."`
	Space      *Space      `json:"space,omitempty"`
	Collection *Collection `json:"collection,omitempty"`
}

// inviteLinks presents invite links; a page of them reads which published
// sites serve their spaces first.
func (a *API) inviteLinks() *Kind[*ent.InviteLink, *InviteLink] {
	return a.inviteLinkKind().warming(func(ctx context.Context, list []*ent.InviteLink) error {
		var ids []string
		for _, l := range list {
			if l.SpaceID != nil {
				ids = append(ids, *l.SpaceID)
			}
		}
		return a.r.ReadPublicationsOf(ctx, ids)
	})
}

func (a *API) inviteLinkKind() *Kind[*ent.InviteLink, *InviteLink] {
	return presents(func(ctx context.Context, l *ent.InviteLink) (*InviteLink, error) {
		r := a.r.InviteLink()
		out := &InviteLink{Object: "invite", ID: l.ID}
		var err error
		if out.Role, err = r.Role(ctx, l); err != nil {
			return nil, err
		}
		if out.Level, err = r.Level(ctx, l); err != nil {
			return nil, err
		}
		if out.Redundant, err = r.Redundant(ctx, l); err != nil {
			return nil, err
		}
		if sp, err := r.Space(ctx, l); err != nil {
			return nil, err
		} else if sp != nil {
			if out.Space, err = a.presentSpace(ctx, sp); err != nil {
				return nil, err
			}
		}
		if c, err := r.Collection(ctx, l); err != nil {
			return nil, err
		} else if c != nil {
			if out.Collection, err = a.presentCollection(ctx, c); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// noURL stands for a URL not set yet where the documented shape needs a
// URI.
const noURL = "about:blank"

// SAMLProvider is the documented SAML provider.
type SAMLProvider struct {
	Object      string               `json:"object" enum:"saml-provider"`
	ID          string               `json:"id"`
	Label       string               `json:"label"`
	SSOURL      string               `json:"ssoURL" format:"uri" doc:"about:blank until set (sending it back clears it)."`
	EntityID    string               `json:"entityID" doc:"Empty until set."`
	Certificate string               `json:"certificate" doc:"PEM; empty until set."`
	DefaultTeam *Team                `json:"defaultTeam,omitempty"`
	DefaultRole *types.Role          `json:"defaultRole" doc:"null for guests."`
	CreatedAt   time.Time            `json:"createdAt"`
	Status      string               `json:"status" enum:"active,pending" doc:"active once entityID, ssoURL and certificate are set."`
	Service     *graph.SAMLEndpoints `json:"service" doc:"Quire's endpoints as the service provider: acsURL, startURL and entityID (its metadata URL)."`
	URLs        *SAMLProviderUrls    `json:"urls"`
}

func (p *SAMLProvider) apiLocation() string { return p.URLs.Location }

func (a *API) samlProviders() *Kind[*ent.SAMLProvider, *SAMLProvider] {
	return presents(func(ctx context.Context, p *ent.SAMLProvider) (*SAMLProvider, error) {
		r := a.r.SAMLProvider()
		sso := p.SSOURL
		if sso == "" {
			sso = noURL
		}
		out := &SAMLProvider{Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: sso, EntityID: p.EntityID,
			Certificate: p.Certificate, DefaultRole: p.DefaultRole, CreatedAt: p.CreatedAt.UTC()}
		var err error
		if out.Status, err = r.Status(ctx, p); err != nil {
			return nil, err
		}
		if out.Service, err = r.Service(ctx, p); err != nil {
			return nil, err
		}
		if out.URLs, err = present(samlProviderUrls)(r.Urls(ctx, p)); err != nil {
			return nil, err
		}
		t, err := r.DefaultTeam(ctx, p)
		if err != nil {
			return nil, err
		}
		if t != nil {
			if out.DefaultTeam, err = a.presentTeam(ctx, t); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// AgentInstructions is the documented agent instructions object.
type AgentInstructions struct {
	Object       string                 `json:"object" enum:"agent-instructions"`
	Instructions json.RawMessage        `json:"instructions" doc:"A JSON document."`
	UpdatedAt    time.Time              `json:"updatedAt"`
	UpdatedBy    string                 `json:"updatedBy" doc:"Id of the user who saved them; empty until saved."`
	URLs         *AgentInstructionsUrls `json:"urls"`
}

func (a *API) agentInstructions() *Kind[*graph.AgentInstructions, *AgentInstructions] {
	return presents(func(ctx context.Context, in *graph.AgentInstructions) (*AgentInstructions, error) {
		raw, err := in.Document.AppendJSON(nil)
		if err != nil {
			return nil, fmt.Errorf("encode agent instructions: %w", err)
		}
		urls, err := a.r.AgentInstructions().Urls(ctx, in)
		if err != nil {
			return nil, err
		}
		return &AgentInstructions{Object: "agent-instructions", Instructions: raw, UpdatedAt: in.UpdatedAt.UTC(), UpdatedBy: in.UpdatedBy, URLs: agentInstructionsUrls(urls)}, nil
	})
}

// Billing is an organization's billing.
type Billing struct {
	Interval            string               `json:"interval" enum:"monthly,yearly"`
	EndDate             *time.Time           `json:"endDate" doc:"The end of the current period: the end of the calendar month (UTC)."`
	HasPaymentFailed    bool                 `json:"hasPaymentFailed"`
	IsScheduledToCancel bool                 `json:"isScheduledToCancel"`
	Pricing             *OrganizationPricing `json:"pricing"`
	UsageAddons         map[string]any       `json:"usageAddons"`
	MinUsers            int                  `json:"minUsers"`
	MaxUsers            *int                 `json:"maxUsers,omitempty" doc:"Absent: a self-hosted Quire caps no number of members."`
	PaidMembers         int                  `json:"paidMembers"`
}

// Ping is the answer of a ping.
type Ping struct {
	ServiceVisitorClaims string `json:"serviceVisitorClaims" doc:"A JSON Web Token (ES256) of the caller's claims as a member, valid an hour, verifiable with the keys at /.well-known/jwks/{organizationId}."`
}

// EmailDomainOrganizations lists the organizations of an email domain.
type EmailDomainOrganizations struct {
	Organizations []*Organization `json:"organizations"`
}

// SSOLogins lists the ways to sign in to an organization.
type SSOLogins struct {
	Items []*graph.SSOLogin `json:"items"`
}
