package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
	"quire/internal/types"
)

// Member is a user's membership of an organization, with their role.
type Member struct{ ent.Schema }

// Fields of the Member.
func (Member) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Member)).Immutable(),
		field.String("organization_id").Immutable(),
		field.String("user_id").Immutable(),
		// A nil role is a guest.
		field.String("role").GoType(types.Role("")).Optional().Nillable(),
		field.Bool("disabled").Default(false),
		field.Bool("sso").Default(false),
		field.Time("joined_at").Default(nowUTC).Immutable(),
		field.Time("last_seen_at").Optional().Nillable(),
	}
}

// Edges of the Member.
func (Member) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("members").Field("organization_id").Unique().Required().Immutable(),
		edge.From("user", User.Type).Ref("memberships").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Member.
func (Member) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "user_id").Unique(),
		index.Fields("user_id"),
	}
}
