package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// Conversation is a support conversation ingested into an organization
// (internal/conversations), kept as it was sent; its analysis finds the
// issues it raises.
type Conversation struct{ ent.Schema }

// ConversationPart is one message of a conversation, as ingested.
type ConversationPart struct {
	Type string `json:"type"`
	Role string `json:"role"`
	Body string `json:"body"`
}

// Fields of the Conversation.
func (Conversation) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Conversation)).Immutable(),
		field.String("organization_id").Immutable(),
		// The id the sender gave it, unique in the organization: ingesting
		// it again replaces it.
		field.String("external_id").Immutable(),
		// email, or integration:NAME:INSTANCE.
		field.String("source"),
		field.String("subject").Optional().Nillable(),
		field.JSON("parts", []ConversationPart{}),
		field.String("metadata_url").Optional().Nillable(),
		field.JSON("metadata_attributes", map[string]string{}).Optional(),
		field.Time("metadata_created_at").Optional().Nillable(),
		// When the conversation happened: metadata.createdAt, or when it
		// was first ingested.
		field.Time("created_at"),
		field.Time("ingested_at"),
		// Fingerprint of what the analysis reads (subject and parts):
		// ingesting the same conversation again leaves it alone.
		field.String("content_hash"),
		// True until the analysis has read its current content.
		field.Bool("pending").Default(true),
		field.Time("processed_at").Optional().Nillable(),
		// The highest impact of its issues; empty when it has none.
		field.String("impact").Default(""),
	}
}

// Edges of the Conversation.
func (Conversation) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("issues", ConversationIssue.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Conversation.
func (Conversation) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "external_id").Unique(),
		index.Fields("organization_id", "source"),
		index.Fields("organization_id", "pending"),
	}
}
