package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// SiteSpace publishes a space on a site, at the root or in a section.
type SiteSpace struct{ ent.Schema }

// Fields of the SiteSpace.
func (SiteSpace) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.SiteSpace)).Immutable(),
		field.String("site_id").Immutable(),
		field.String("section_id").Optional().Nillable(),
		field.String("space_id"),
		field.String("path"),
		field.String("condition").Optional().Nillable(),
		field.Bool("hidden").Default(false),
		field.String("position"),
		// Customization overrides for this site space.
		field.Bytes("customization").Optional().Nillable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the SiteSpace.
func (SiteSpace) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("site_spaces").Field("site_id").Unique().Required().Immutable(),
		edge.From("space", Space.Type).Ref("site_spaces").Field("space_id").Unique().Required(),
	}
}

// Indexes of the SiteSpace.
func (SiteSpace) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "position"), index.Fields("section_id"), index.Fields("space_id")}
}
