package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
	"quire/internal/types"
)

// SAMLProvider is an identity provider an organization's members sign in
// through (SAML 2.0, Quire being the service provider).
type SAMLProvider struct{ ent.Schema }

// Fields of the SAMLProvider.
func (SAMLProvider) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.SAMLProvider)).Immutable(),
		field.String("organization_id").Immutable(),
		field.String("label"),
		// The identity provider's entity ID, its single sign-on URL and
		// the PEM certificate it signs responses with; empty until set.
		field.String("entity_id").Default(""),
		field.String("sso_url").Default(""),
		field.Text("certificate").Default(""),
		// What a user provisioned through it gets.
		field.String("default_team_id").Optional().Nillable(),
		field.String("default_role").GoType(types.Role("")).Optional().Nillable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the SAMLProvider.
func (SAMLProvider) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("saml_providers").Field("organization_id").Unique().Required().Immutable(),
		edge.From("default_team", Team.Type).Ref("saml_providers").Field("default_team_id").Unique(),
		edge.To("requests", SAMLRequest.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the SAMLProvider.
func (SAMLProvider) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}
