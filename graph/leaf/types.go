package leaf

import (
	"context"
	"io"

	"github.com/99designs/gqlgen/graphql"

	"quire/internal/authz"
	"quire/internal/types"
)

// SpacePermissions is the GraphQL SpacePermissions object.
type SpacePermissions authz.SpacePermissions

func (p SpacePermissions) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return writeObject(ctx, w, "SpacePermissions", func(w io.Writer, f graphql.CollectedField) bool {
		switch f.Name {
		case "view":
			writeBool(w, p.View)
		case "access":
			writeBool(w, p.Access)
		case "admin":
			writeBool(w, p.Admin)
		case "viewInviteLinks":
			writeBool(w, p.ViewInviteLinks)
		case "edit":
			writeBool(w, p.Edit)
		case "triggerGitSync":
			writeBool(w, p.TriggerGitSync)
		case "comment":
			writeBool(w, p.Comment)
		case "merge":
			writeBool(w, p.Merge)
		case "review":
			writeBool(w, p.Review)
		case "installIntegration":
			writeBool(w, p.InstallIntegration)
		default:
			return false
		}
		return true
	})
}

func (p *SpacePermissions) UnmarshalGQLContext(context.Context, any) error {
	return outputOnly("SpacePermissions")
}

// SpaceUrls is the GraphQL SpaceUrls object.
type SpaceUrls struct {
	Location  string  `json:"location"`
	App       string  `json:"app"`
	Published *string `json:"published,omitempty"`
	Public    *string `json:"public,omitempty"`
	Icon      *string `json:"icon,omitempty"`
}

func (u SpaceUrls) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return writeObject(ctx, w, "SpaceUrls", func(w io.Writer, f graphql.CollectedField) bool {
		switch f.Name {
		case "location":
			writeString(w, u.Location)
		case "app":
			writeString(w, u.App)
		case "published":
			writeOptString(w, u.Published)
		case "public":
			writeOptString(w, u.Public)
		case "icon":
			writeOptString(w, u.Icon)
		default:
			return false
		}
		return true
	})
}

func (u *SpaceUrls) UnmarshalGQLContext(context.Context, any) error { return outputOnly("SpaceUrls") }

// PublishedUrls is the GraphQL PublishedUrls object: where a site space or
// a section is published.
type PublishedUrls struct {
	Published *string `json:"published,omitempty"`
}

func (u PublishedUrls) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return writeObject(ctx, w, "PublishedUrls", func(w io.Writer, f graphql.CollectedField) bool {
		switch f.Name {
		case "published":
			writeOptString(w, u.Published)
		default:
			return false
		}
		return true
	})
}

func (u *PublishedUrls) UnmarshalGQLContext(context.Context, any) error {
	return outputOnly("PublishedUrls")
}

// MergeRules is the GraphQL MergeRules object, with its list of MergeRule
// objects.
type MergeRules types.MergeRules

func (m MergeRules) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return writeObject(ctx, w, "MergeRules", func(w io.Writer, f graphql.CollectedField) bool {
		switch f.Name {
		case "type":
			writeString(w, m.Type)
		case "rules":
			if m.Rules == nil {
				writeNull(w)
				return true
			}
			io.WriteString(w, "[")
			for i, r := range m.Rules {
				if i > 0 {
					io.WriteString(w, ",")
				}
				writeSelected(ctx, w, f.Selections, "MergeRule", func(w io.Writer, f graphql.CollectedField) bool {
					switch f.Name {
					case "rule":
						writeString(w, r.Rule)
					case "users":
						if r.Users == nil {
							writeNull(w)
							return true
						}
						io.WriteString(w, "[")
						for j, u := range r.Users {
							if j > 0 {
								io.WriteString(w, ",")
							}
							writeString(w, u)
						}
						io.WriteString(w, "]")
					case "expression":
						writeOptString(w, r.Expression)
					default:
						return false
					}
					return true
				})
			}
			io.WriteString(w, "]")
		default:
			return false
		}
		return true
	})
}

func (m *MergeRules) UnmarshalGQLContext(context.Context, any) error { return outputOnly("MergeRules") }
