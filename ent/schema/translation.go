package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// Translation keeps a space translated into another language
// (internal/translate): each run translates the source space's current
// revision into a revision of the result space.
type Translation struct{ ent.Schema }

// Fields of the Translation.
func (Translation) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Translation)).Immutable(),
		field.String("organization_id").Immutable(),
		field.String("source_space_id").Immutable(),
		field.String("source_language").Immutable(),
		field.String("language").Immutable(),
		// Instructions, a document (JSON), when set.
		field.Text("instructions").Optional().Nillable(),
		// pending, running or completed.
		field.String("status").Default("pending"),
		field.String("result_space_id").Optional().Nillable(),
		field.String("result_revision_id").Optional().Nillable(),
		// Fingerprint of the instructions the result was made with: a
		// change of instructions translates every page again.
		field.String("applied_instructions").Default(""),
		field.Int("runs").Default(0),
		field.Int("total_words").Default(0),
		field.Int("total_pages").Default(0),
		field.Int64("total_duration_ms").Default(0),
		field.Int64("latest_duration_ms").Default(0),
		field.Int("latest_pages").Default(0),
		field.Int("latest_words").Default(0),
		field.String("created_by").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC),
	}
}

// Edges of the Translation.
func (Translation) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("pages", TranslationPage.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("files", TranslationFile.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Translation.
func (Translation) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "created_at"),
		index.Fields("source_space_id"),
		index.Fields("result_space_id"),
	}
}
