package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"quire/internal/ids"
)

// SiteShareLink lets anyone holding its key read a share-link site.
type SiteShareLink struct{ ent.Schema }

// Fields of the SiteShareLink.
func (SiteShareLink) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.ShareLink)).Immutable(),
		field.String("site_id").Immutable(),
		field.String("name").Default(""),
		field.Bool("active").Default(true),
		field.String("key").Unique().Immutable().Sensitive(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the SiteShareLink.
func (SiteShareLink) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("site", Site.Type).Ref("share_links").Field("site_id").Unique().Required().Immutable(),
	}
}
