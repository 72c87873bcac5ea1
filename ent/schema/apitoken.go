package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"quire/internal/ids"
)

// APIToken is a bearer token. Only the SHA-256 of the secret is stored.
type APIToken struct{ ent.Schema }

// Fields of the APIToken.
func (APIToken) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Token)).Immutable(),
		field.String("token_hash").Unique().Immutable().Sensitive(),
		field.String("user_id").Immutable(),
		field.String("label").Default(""),
		// The organization a token is limited to (issued by its single
		// sign-on): it reaches nothing of the user's other organizations.
		field.String("organization_id").Optional().Nillable().Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the APIToken.
func (APIToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("tokens").Field("user_id").Unique().Required().Immutable(),
	}
}
