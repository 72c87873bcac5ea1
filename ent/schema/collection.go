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

// Collection groups spaces and other collections inside an organization.
type Collection struct{ ent.Schema }

// Fields of the Collection.
func (Collection) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Collection)).Immutable(),
		field.String("organization_id"),
		field.String("parent_id").Optional().Nillable(),
		field.String("title"),
		field.String("description").Optional().Nillable(),
		// nil: no default access; "inherit": as the parent.
		field.String("default_level").GoType(types.DefaultLevel("")).Optional().Nillable(),
		// Ordering key among the parent's children (collections and spaces).
		field.String("position"),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC).UpdateDefault(nowUTC),
	}
}

// Edges of the Collection.
func (Collection) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("collections").Field("organization_id").Unique().Required(),
		edge.To("children", Collection.Type).From("parent").Field("parent_id").Unique(),
		edge.To("spaces", Space.Type),
		edge.To("permissions", ContentPermission.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("invite_links", InviteLink.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Collection.
func (Collection) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "position"), index.Fields("parent_id")}
}
