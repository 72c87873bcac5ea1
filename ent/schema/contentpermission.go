package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/types"
)

// ContentPermission gives a user or a team a level on a space or a
// collection (and so on everything inside the collection), beyond what the
// content's default level gives. Exactly one of space and collection, and
// exactly one of user and team, is set.
type ContentPermission struct{ ent.Schema }

// Fields of the ContentPermission.
func (ContentPermission) Fields() []ent.Field {
	return []ent.Field{
		// The organization of the content when the permission was given: a
		// permission counts only while the content is still there (a
		// transferred space leaves its permissions behind).
		field.String("organization_id").Immutable(),
		field.String("space_id").Optional().Nillable().Immutable(),
		field.String("collection_id").Optional().Nillable().Immutable(),
		field.String("user_id").Optional().Nillable().Immutable(),
		field.String("team_id").Optional().Nillable().Immutable(),
		field.String("level").GoType(types.Role("")),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the ContentPermission.
func (ContentPermission) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("permissions").Field("space_id").Unique().Immutable(),
		edge.From("collection", Collection.Type).Ref("permissions").Field("collection_id").Unique().Immutable(),
		edge.From("user", User.Type).Ref("content_permissions").Field("user_id").Unique().Immutable(),
		edge.From("team", Team.Type).Ref("permissions").Field("team_id").Unique().Immutable(),
	}
}

// Indexes of the ContentPermission.
func (ContentPermission) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "user_id").Unique(),
		index.Fields("space_id", "team_id").Unique(),
		index.Fields("collection_id", "user_id").Unique(),
		index.Fields("collection_id", "team_id").Unique(),
		// The caller's own permissions are read with the token.
		index.Fields("user_id"),
		index.Fields("team_id"),
		index.Fields("organization_id"),
	}
}
