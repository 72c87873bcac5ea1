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

// Space is a container of pages and files, alone or inside a collection.
type Space struct{ ent.Schema }

// Fields of the Space.
func (Space) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Space)).Immutable(),
		field.String("organization_id"),
		field.String("parent_id").Optional().Nillable(),
		field.String("title"),
		field.String("emoji").Default(""),
		field.String("icon").Optional().Nillable(),
		field.String("visibility").GoType(types.Visibility("")).Default("private"),
		field.String("default_level").GoType(types.DefaultLevel("")).Optional().Nillable(),
		field.String("edit_mode").GoType(types.EditMode("")).Default("live"),
		field.String("language").GoType(types.Language("")).Optional().Nillable(),
		field.JSON("merge_rules", types.MergeRules{}).Default(types.MergeRules{Type: "inherit"}),
		field.String("position"),
		// Id of the current revision.
		field.String("revision_id").Default(""),
		field.Int("change_requests").Default(0),
		field.Int("change_requests_open").Default(0),
		field.Int("change_requests_draft").Default(0),
		field.Int("comments").Default(0),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC).UpdateDefault(nowUTC),
		field.Time("deleted_at").Optional().Nillable(),
		// Git sync state: the provider set up on the space and the order of
		// imports and exports (internal/gitsync); nil when it never synced.
		field.JSON("git_sync", &types.GitSync{}).Optional(),
	}
}

// Edges of the Space.
func (Space) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("spaces").Field("organization_id").Unique().Required(),
		edge.From("parent", Collection.Type).Ref("spaces").Field("parent_id").Unique(),
		edge.To("revisions", Revision.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("site_spaces", SiteSpace.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("change_request_list", ChangeRequest.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("comment_list", Comment.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("permissions", ContentPermission.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("invite_links", InviteLink.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Space.
func (Space) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "position"),
		index.Fields("parent_id"),
		index.Fields("deleted_at"),
	}
}
