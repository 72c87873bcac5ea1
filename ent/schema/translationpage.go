package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// TranslationPage maps a page of a translation's source space to its page
// in the result space, with the source version last translated, so that a
// run rewrites only the pages that changed.
type TranslationPage struct{ ent.Schema }

// Fields of the TranslationPage.
func (TranslationPage) Fields() []ent.Field {
	return []ent.Field{
		field.String("translation_id").Immutable(),
		field.String("source_page_id").Immutable(),
		field.String("result_page_id"),
		// The source page version the result was made from.
		field.String("source_version").Default(""),
		// Fingerprint of the source's translated text (title, description,
		// document): a page that only moved is not translated again.
		field.String("text_hash").Default(""),
	}
}

// Edges of the TranslationPage.
func (TranslationPage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("translation", Translation.Type).Ref("pages").Field("translation_id").Unique().Required().Immutable(),
	}
}

// Indexes of the TranslationPage.
func (TranslationPage) Indexes() []ent.Index {
	return []ent.Index{index.Fields("translation_id", "source_page_id").Unique()}
}
