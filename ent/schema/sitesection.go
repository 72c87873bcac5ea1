package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// SiteSection groups site spaces (variants) under a title and path.
type SiteSection struct{ ent.Schema }

// Fields of the SiteSection.
func (SiteSection) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.SiteSection)).Immutable(),
		field.String("site_id").Immutable(),
		field.String("group_id").Optional().Nillable(),
		field.String("title"),
		field.String("description").Optional().Nillable(),
		field.String("path"),
		field.String("condition").Optional().Nillable(),
		field.String("icon").Optional().Nillable(),
		field.String("default_site_space_id").Optional().Nillable(),
		// Ordering key among the items of its parent (site root or group).
		field.String("position"),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the SiteSection.
func (SiteSection) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("sections").Field("site_id").Unique().Required().Immutable(),
	}
}

// Indexes of the SiteSection.
func (SiteSection) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "position")}
}
