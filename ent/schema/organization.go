package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"quire/internal/ids"
	"quire/internal/types"
)

// Organization owns members, collections and spaces.
type Organization struct{ ent.Schema }

// Fields of the Organization.
func (Organization) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Organization)).Immutable(),
		field.String("title").NotEmpty(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.JSON("email_domains", []string{}).Default([]string{}),
		field.String("hostname").Optional().Nillable(),
		field.String("type").Default("business"),
		field.String("default_role").GoType(types.Role("")).Optional().Nillable(),
		field.Bool("invite_links").Default(false),
		field.Bool("sso").Default(false),
		field.Bool("ai").Default(false),
		field.String("plan").Default("free"),
		// Set by an operator (quire admin org set): no API call changes
		// them.
		field.String("use_case").Optional().Nillable(),
		field.String("community_type").Optional().Nillable(),
		// An operator's block (quire admin org block): while reason is
		// set, every call on what is in the organization is refused.
		field.String("blocked_source").Optional().Nillable(),
		field.String("blocked_reason").Optional().Nillable(),
		field.JSON("merge_rules", types.MergeRules{}).Default(types.MergeRules{Type: "none"}),
		// URL of the organization's logo.
		field.String("logo_url").Optional().Nillable(),
		// Id of the site shown as the organization's default content.
		field.String("default_content_site_id").Optional().Nillable(),
	}
}

// Edges of the Organization.
func (Organization) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("members", Member.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("collections", Collection.Type),
		edge.To("spaces", Space.Type),
		edge.To("sites", Site.Type),
		edge.To("teams", Team.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("invite_link_list", InviteLink.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("saml_providers", SAMLProvider.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func nowUTC() time.Time { return time.Now().UTC() }
