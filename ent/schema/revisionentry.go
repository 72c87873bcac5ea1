package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RevisionEntry records, in one revision, the version of one page, file or
// reusable content:
// for a snapshot revision every item has an entry; for a delta revision only
// the items that differ from its base do, with a nil version for items
// removed.
type RevisionEntry struct{ ent.Schema }

// Fields of the RevisionEntry.
func (RevisionEntry) Fields() []ent.Field {
	return []ent.Field{
		field.String("revision_id").Immutable(),
		field.String("space_id").Immutable(),
		// "page", "file" or "reusable-content".
		field.String("kind").Immutable(),
		// Page, file or reusable content id.
		field.String("item_id").Immutable(),
		// Its version id; nil when the item was removed.
		field.String("version_id").Optional().Nillable().Immutable(),
	}
}

// Edges of the RevisionEntry.
func (RevisionEntry) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("revision", Revision.Type).Ref("entries").Field("revision_id").Unique().Required().Immutable(),
	}
}

// Indexes of the RevisionEntry.
func (RevisionEntry) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("revision_id", "kind", "item_id").Unique(),
		index.Fields("version_id"),
		index.Fields("space_id"),
	}
}
