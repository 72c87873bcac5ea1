package rest

import (
	"context"
	"time"

	"quire/ent"
	"quire/graph"
	"quire/graph/leaf"
	"quire/internal/types"
)

// The presenters of users, organizations, collections and spaces.

func (a *API) users() *Kind[*ent.User, *User] { return presents(a.presentUser) }

func (a *API) orgs() *Kind[*ent.Organization, *Organization] { return presents(a.presentOrganization) }

func (a *API) collections() *Kind[*ent.Collection, *Collection] {
	return presents(a.presentCollection)
}

// spaces presents spaces; a page of them reads which published sites
// serve them (their published URLs) in a fixed number of statements first.
func (a *API) spaces() *Kind[*ent.Space, *Space] {
	return presents(a.presentSpace).warming(a.r.ReadSpacePublications)
}

// User is the documented user object.
type User struct {
	Object      string    `json:"object"`
	ID          string    `json:"id"`
	DisplayName string    `json:"displayName"`
	Email       string    `json:"email,omitempty"`
	PhotoURL    *string   `json:"photoURL,omitempty"`
	URLs        *UserUrls `json:"urls"`
}

func (a *API) presentUser(ctx context.Context, u *ent.User) (*User, error) {
	urls, err := a.r.User().Urls(ctx, u)
	if err != nil {
		return nil, err
	}
	return &User{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL, URLs: userUrls(urls)}, nil
}

// Organization is the documented organization object.
type Organization struct {
	Object       string                         `json:"object"`
	ID           string                         `json:"id"`
	Title        string                         `json:"title"`
	CreatedAt    time.Time                      `json:"createdAt"`
	EmailDomains []string                       `json:"emailDomains"`
	Hostname     *string                        `json:"hostname,omitempty"`
	Type         string                         `json:"type"`
	DefaultRole  *types.Role                    `json:"defaultRole"`
	SSO          bool                           `json:"sso"`
	AI           bool                           `json:"ai"`
	InviteLinks  bool                           `json:"inviteLinks"`
	Plan         string                         `json:"plan"`
	MergeRules   types.MergeRules               `json:"mergeRules"`
	Trial        *OrganizationTrial             `json:"trial"`
	URLs         *OrganizationUrls              `json:"urls"`
	Permissions  *graph.OrganizationPermissions `json:"permissions"`
	// The settings of organization administration.
	DefaultContent *OrganizationDefaultContent `json:"defaultContent,omitempty"`
	CustomHostname *string                     `json:"customHostname,omitempty" doc:"The host that serves the organization's content: Quire's own."`
	Billing        *Billing                    `json:"billing" doc:"A self-hosted Quire bills nothing: prices are zero, nothing is due, and the current monthly period ends with the calendar month (UTC)."`
	// What an operator sets (quire admin org).
	UseCase       *string              `json:"useCase,omitempty" enum:"internalDocs,docsSite,audienceControlledSite,productDocs,teamKnowledgeBase,designSystem,openSourceDocs,notes,other" doc:"Set by an operator (quire admin org set); absent until then."`
	CommunityType *string              `json:"communityType,omitempty" enum:"nonProfit,openSource,education" doc:"Set by an operator (quire admin org set); absent until then."`
	Blocked       *OrganizationBlocked `json:"blocked,omitempty" doc:"Present while an operator blocks the organization (quire admin org block): every call on what is in it is refused with 403."`
}

func (a *API) presentOrganization(ctx context.Context, o *ent.Organization) (*Organization, error) {
	or := a.r.Organization()
	urls, err := or.Urls(ctx, o)
	if err != nil {
		return nil, err
	}
	trial, err := or.Trial(ctx, o)
	if err != nil {
		return nil, err
	}
	perms, err := or.Permissions(ctx, o)
	if err != nil {
		return nil, err
	}
	domains := o.EmailDomains
	if domains == nil {
		domains = []string{}
	}
	dc, err := or.DefaultContent(ctx, o)
	if err != nil {
		return nil, err
	}
	host, err := or.CustomHostname(ctx, o)
	if err != nil {
		return nil, err
	}
	bill, err := or.Billing(ctx, o)
	if err != nil {
		return nil, err
	}
	return &Organization{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: o.CreatedAt.UTC(), EmailDomains: domains,
		Hostname: o.Hostname, Type: o.Type, DefaultRole: o.DefaultRole, SSO: o.SSO, AI: o.Ai,
		InviteLinks: o.InviteLinks, Plan: o.Plan, MergeRules: o.MergeRules, Trial: organizationTrial(trial), URLs: organizationUrls(urls), Permissions: perms,
		DefaultContent: organizationDefaultContent(dc), CustomHostname: host, Billing: &Billing{Interval: bill.Interval, EndDate: bill.EndDate,
			HasPaymentFailed: bill.HasPaymentFailed, IsScheduledToCancel: bill.IsScheduledToCancel, Pricing: organizationPricing(bill.Pricing),
			UsageAddons: map[string]any{}, MinUsers: bill.MinUsers, MaxUsers: bill.MaxUsers, PaidMembers: bill.PaidMembers},
		UseCase: o.UseCase, CommunityType: o.CommunityType, Blocked: organizationBlocked(o),
	}, nil
}

// Collection is the documented collection object.
type Collection struct {
	Object       string                       `json:"object"`
	ID           string                       `json:"id"`
	Title        string                       `json:"title"`
	Description  *string                      `json:"description,omitempty"`
	Organization string                       `json:"organization"`
	Parent       *string                      `json:"parent,omitempty"`
	DefaultLevel *types.DefaultLevel          `json:"defaultLevel"`
	URLs         *CollectionUrls              `json:"urls"`
	Permissions  *graph.CollectionPermissions `json:"permissions"`
}

func (c *Collection) apiLocation() string { return c.URLs.Location }

func (a *API) presentCollection(ctx context.Context, c *ent.Collection) (*Collection, error) {
	cr := a.r.Collection()
	urls, err := cr.Urls(ctx, c)
	if err != nil {
		return nil, err
	}
	perms, err := cr.Permissions(ctx, c)
	if err != nil {
		return nil, err
	}
	return &Collection{
		Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description, Organization: c.OrganizationID,
		Parent: c.ParentID, DefaultLevel: c.DefaultLevel, URLs: collectionUrls(urls), Permissions: perms,
	}, nil
}

// Space is the documented space object.
type Space struct {
	Object              string                 `json:"object"`
	ID                  string                 `json:"id"`
	Title               string                 `json:"title"`
	Emoji               string                 `json:"emoji"`
	Visibility          types.Visibility       `json:"visibility"`
	CreatedAt           time.Time              `json:"createdAt"`
	UpdatedAt           time.Time              `json:"updatedAt"`
	DeletedAt           *time.Time             `json:"deletedAt,omitempty"`
	EditMode            types.EditMode         `json:"editMode"`
	MergeRules          types.MergeRules       `json:"mergeRules"`
	URLs                *leaf.SpaceUrls        `json:"urls"`
	Organization        string                 `json:"organization"`
	Parent              *string                `json:"parent,omitempty"`
	Language            *types.Language        `json:"language,omitempty"`
	Revision            string                 `json:"revision"`
	DefaultLevel        *types.DefaultLevel    `json:"defaultLevel"`
	Comments            int                    `json:"comments"`
	ChangeRequests      int                    `json:"changeRequests"`
	ChangeRequestsOpen  int                    `json:"changeRequestsOpen"`
	ChangeRequestsDraft int                    `json:"changeRequestsDraft"`
	Permissions         *leaf.SpacePermissions `json:"permissions"`
	GitSync             *GitSyncState          `json:"gitSync,omitempty" doc:"The Git provider set up on the space, once an import or export completed."`
	VisitorAuth         *VisitorAuth           `json:"visitorAuth,omitempty" doc:"Present when a published visitor-auth site serves the space."`
}

func (s *Space) apiLocation() string { return s.URLs.Location }

func (a *API) presentSpace(ctx context.Context, s *ent.Space) (*Space, error) {
	sr := a.r.Space()
	urls, err := sr.Urls(ctx, s)
	if err != nil {
		return nil, err
	}
	perms, err := sr.Permissions(ctx, s)
	if err != nil {
		return nil, err
	}
	var deleted *time.Time
	if s.DeletedAt != nil {
		d := s.DeletedAt.UTC()
		deleted = &d
	}
	gs, err := sr.GitSync(ctx, s)
	if err != nil {
		return nil, err
	}
	va, err := sr.VisitorAuth(ctx, s)
	if err != nil {
		return nil, err
	}
	return &Space{
		Object: "space", ID: s.ID, Title: s.Title, Emoji: s.Emoji, Visibility: s.Visibility,
		CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC(), DeletedAt: deleted, EditMode: s.EditMode,
		MergeRules: s.MergeRules, URLs: urls, Organization: s.OrganizationID, Parent: s.ParentID,
		Language: s.Language, Revision: s.RevisionID, DefaultLevel: s.DefaultLevel, Comments: s.Comments,
		ChangeRequests: s.ChangeRequests, ChangeRequestsOpen: s.ChangeRequestsOpen,
		ChangeRequestsDraft: s.ChangeRequestsDraft, Permissions: perms, GitSync: gitSyncState(gs),
		VisitorAuth: visitorAuth(va),
	}, nil
}

// presentAll presents every item of a list.
func presentAll[T, J any](ctx context.Context, items []T, present func(context.Context, T) (J, error)) ([]J, error) {
	out := make([]J, 0, len(items))
	for _, it := range items {
		j, err := present(ctx, it)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}
