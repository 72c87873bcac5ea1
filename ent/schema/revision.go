package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"quire/internal/ids"
	"quire/internal/types"
)

// Revision is an immutable snapshot of a space's content.
type Revision struct{ ent.Schema }

// Fields of the Revision.
func (Revision) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Revision)).Immutable(),
		field.String("space_id").Immutable(),
		// "initial" for a new space's empty revision; edits, merge, rollback, update, computed.
		field.String("type").Default("edits").Immutable(),
		field.JSON("parents", []string{}).Default([]string{}).Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		// The revision this one is a delta on; nil for a snapshot (whose
		// entries list every page and file).
		field.String("base_id").Optional().Nillable().Immutable(),
		// The revisions whose entries, applied in order, give this one's
		// content: the last snapshot first, this revision last. Empty is
		// read as a snapshot of itself (revisions written before chains).
		field.JSON("chain", []string{}).Optional().Immutable(),
		// The change request this revision was made in (edits, update) or
		// merged (merge), if any.
		field.String("change_request_id").Optional().Nillable().Immutable(),
		// The user whose edit, merge or update made it.
		field.String("author_id").Optional().Nillable().Immutable(),
		// Space-level variables of the revision.
		field.JSON("variables", map[string]any{}).Optional().Immutable(),
		// The Git commit the revision was imported from, if any.
		field.JSON("git", &types.GitCommit{}).Optional().Immutable(),
	}
}

// Edges of the Revision.
func (Revision) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("revisions").Field("space_id").Unique().Required().Immutable(),
		edge.To("entries", RevisionEntry.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}
