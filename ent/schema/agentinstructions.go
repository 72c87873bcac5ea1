package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// AgentInstructions are the instructions an organization gives AI agents
// working on its content: a document, kept apart from the organization's
// row, which every request reads.
type AgentInstructions struct{ ent.Schema }

// Fields of the AgentInstructions.
func (AgentInstructions) Fields() []ent.Field {
	return []ent.Field{
		// The organization's id.
		field.String("id").NotEmpty().Immutable(),
		// The document, as JSON.
		field.Text("document"),
		field.Time("updated_at").Default(nowUTC),
		// Id of the user who last saved them.
		field.String("updated_by"),
	}
}
