package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"quire/internal/ids"
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
	}
}

// Edges of the Revision.
func (Revision) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("revisions").Field("space_id").Unique().Required().Immutable(),
	}
}
