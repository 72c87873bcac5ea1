package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// TeamMember is a user's membership of a team: an owner manages the team,
// a member belongs to it.
type TeamMember struct{ ent.Schema }

// Fields of the TeamMember.
func (TeamMember) Fields() []ent.Field {
	return []ent.Field{
		field.String("team_id").Immutable(),
		field.String("user_id").Immutable(),
		// "owner" or "member".
		field.String("role").Default("member"),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the TeamMember.
func (TeamMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("team", Team.Type).Ref("memberships").Field("team_id").Unique().Required().Immutable(),
		edge.From("user", User.Type).Ref("team_memberships").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the TeamMember.
func (TeamMember) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("team_id", "user_id").Unique(),
		// The caller's grants through teams are read with the token.
		index.Fields("user_id"),
	}
}
