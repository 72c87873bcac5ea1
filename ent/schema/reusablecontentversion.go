package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
	"quire/internal/types"
)

// ReusableContentVersion is one immutable state of a reusable content of a
// space: a titled document that pages embed with reusable-content blocks.
// Revisions point at reusable content versions through revision entries of
// kind "reusable-content", so they are shared between revisions (and
// duplicated spaces) exactly like page and file versions.
type ReusableContentVersion struct{ ent.Schema }

// Fields of the ReusableContentVersion.
func (ReusableContentVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.ReusableContentVersion)).Immutable(),
		// The space the version was written in (a duplicated space shares it).
		field.String("space_id").Immutable(),
		// Stable id of the reusable content across revisions.
		field.String("reusable_content_id").Immutable(),
		field.String("title").Immutable(),
		// Content blob holding the document JSON (its SHA-256).
		field.String("document_id").Immutable(),
		// References found in the document, as in PageVersion.refs.
		field.JSON("refs", []map[string]string{}).Optional().Immutable(),
		// The Git blob the reusable content was imported from (or exported
		// to), if any.
		field.JSON("git", &types.GitBlob{}).Optional().Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Indexes of the ReusableContentVersion.
func (ReusableContentVersion) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id"), index.Fields("document_id")}
}
