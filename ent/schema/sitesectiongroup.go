package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// SiteSectionGroup groups sections, and other groups, of a site.
type SiteSectionGroup struct{ ent.Schema }

// Fields of the SiteSectionGroup.
func (SiteSectionGroup) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.SectionGroup)).Immutable(),
		field.String("site_id").Immutable(),
		field.String("parent_id").Optional().Nillable(),
		field.String("title"),
		field.String("icon").Optional().Nillable(),
		field.String("position"),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the SiteSectionGroup.
func (SiteSectionGroup) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("section_groups").Field("site_id").Unique().Required().Immutable(),
	}
}

// Indexes of the SiteSectionGroup.
func (SiteSectionGroup) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "position")}
}
