package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"quire/internal/ids"
)

// User is a person who signs in; they join organizations as members.
type User struct{ ent.Schema }

// Fields of the User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.User)).Immutable(),
		field.String("email").Unique().NotEmpty(),
		field.String("display_name"),
		field.String("photo_url").Optional().Nillable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		// When the user's email address was verified (by an administrator,
		// or by signing in through an identity provider); nil: never.
		field.Time("email_verified_at").Optional().Nillable(),
	}
}

// Edges of the User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("memberships", Member.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("tokens", APIToken.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("team_memberships", TeamMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("content_permissions", ContentPermission.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}
