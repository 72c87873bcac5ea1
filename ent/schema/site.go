package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// Site is a docs site published from spaces, possibly grouped in sections.
type Site struct{ ent.Schema }

// Fields of the Site.
func (Site) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Site)).Immutable(),
		field.String("organization_id"),
		field.String("type").Default("basic"),
		field.String("title"),
		field.String("visibility").Default("public"),
		field.Bool("published").Default(false),
		field.String("basename"),
		field.String("hostname").Optional().Nillable(),
		field.String("proxy").Optional().Nillable(),
		field.Bool("adaptive_content").Default(false),
		field.String("agents_context").Default("included"),
		field.String("ads_status").Default("pending"),
		field.String("default_site_space_id").Optional().Nillable(),
		field.String("default_section_id").Optional().Nillable(),
		// Customization settings as given by the user (merged over defaults when read).
		field.Bytes("customization").Optional().Nillable(),
		// The visitor attributes JSON Schema (draft-07), when set.
		field.Bytes("adaptive_schema").Optional().Nillable(),
		field.Time("adaptive_schema_updated_at").Optional().Nillable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC).UpdateDefault(nowUTC),
	}
}

// Edges of the Site.
func (Site) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("sites").Field("organization_id").Unique().Required(),
		edge.To("sections", SiteSection.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("section_groups", SiteSectionGroup.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("site_spaces", SiteSpace.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("share_links", SiteShareLink.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Site.
func (Site) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id")}
}
