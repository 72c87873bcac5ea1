package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// TranslationFile maps a file of a translation's source space to its copy
// in the result space, so that documents keep showing their images.
type TranslationFile struct{ ent.Schema }

// Fields of the TranslationFile.
func (TranslationFile) Fields() []ent.Field {
	return []ent.Field{
		field.String("translation_id").Immutable(),
		field.String("source_file_id").Immutable(),
		field.String("result_file_id"),
		// The source file version copied last.
		field.String("source_version").Default(""),
	}
}

// Edges of the TranslationFile.
func (TranslationFile) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("translation", Translation.Type).Ref("files").Field("translation_id").Unique().Required().Immutable(),
	}
}

// Indexes of the TranslationFile.
func (TranslationFile) Indexes() []ent.Index {
	return []ent.Index{index.Fields("translation_id", "source_file_id").Unique()}
}
