package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
	"quire/internal/types"
)

// InviteLink lets whoever holds its id join an organization: with a role
// (kind organization), or as a guest with a level on a space or a
// collection. Its id is the secret of the link.
type InviteLink struct{ ent.Schema }

// Fields of the InviteLink.
func (InviteLink) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.InviteLink)).Immutable(),
		field.String("organization_id").Immutable(),
		// "organization", "space" or "collection".
		field.String("kind").Immutable(),
		// The role (organization) or level (space, collection) it gives;
		// nil: a guest.
		field.String("role").GoType(types.Role("")).Optional().Nillable(),
		field.String("space_id").Optional().Nillable().Immutable(),
		field.String("collection_id").Optional().Nillable().Immutable(),
		field.String("created_by").Default(""),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the InviteLink.
func (InviteLink) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("invite_link_list").Field("organization_id").Unique().Required().Immutable(),
		edge.From("space", Space.Type).Ref("invite_links").Field("space_id").Unique().Immutable(),
		edge.From("collection", Collection.Type).Ref("invite_links").Field("collection_id").Unique().Immutable(),
	}
}

// Indexes of the InviteLink.
func (InviteLink) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}
