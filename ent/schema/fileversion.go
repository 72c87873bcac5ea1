package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
	"quire/internal/types"
)

// FileVersion is one immutable state of a file of a space; its bytes are a
// content blob. Shared between revisions like page versions.
type FileVersion struct{ ent.Schema }

// Fields of the FileVersion.
func (FileVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.FileVersion)).Immutable(),
		field.String("space_id").Immutable(),
		// Stable id of the file across revisions.
		field.String("file_id").Immutable(),
		field.String("name").Immutable(),
		field.String("content_type").Immutable(),
		field.Int64("size").Immutable(),
		// Content blob holding the bytes (its SHA-256).
		field.String("blob_id").Immutable(),
		// Image dimensions, when the file is an image the server can read.
		field.Int("width").Optional().Nillable().Immutable(),
		field.Int("height").Optional().Nillable().Immutable(),
		// The Git blob the file was imported from, if any.
		field.JSON("git", &types.GitBlob{}).Optional().Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Indexes of the FileVersion.
func (FileVersion) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id"), index.Fields("blob_id")}
}
