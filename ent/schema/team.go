package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// Team is a group of an organization's members who are given access to
// content together.
type Team struct{ ent.Schema }

// Fields of the Team.
func (Team) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Team)).Immutable(),
		field.String("organization_id").Immutable(),
		field.String("title"),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the Team.
func (Team) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("teams").Field("organization_id").Unique().Required().Immutable(),
		edge.To("memberships", TeamMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("permissions", ContentPermission.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("saml_providers", SAMLProvider.Type).Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the Team.
func (Team) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}
