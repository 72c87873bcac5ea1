package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// ConversationIssue is an issue the analysis found in a conversation,
// grouped with similar issues of the organization into a cluster.
type ConversationIssue struct{ ent.Schema }

// Fields of the ConversationIssue.
func (ConversationIssue) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.ConversationIssue)).Immutable(),
		field.String("organization_id").Immutable(),
		field.String("conversation_id").Immutable(),
		field.String("cluster_id").Optional().Nillable(),
		// Its place among the issues of its conversation, from 0.
		field.Int("ordinal"),
		field.String("title"),
		// The details, a document (JSON).
		field.Text("details"),
		// The user's own words the issue was found in.
		field.Text("excerpt"),
		// low, medium or high.
		field.String("impact"),
		// The severity signals found, each {kind, phrase}.
		field.JSON("signals", []IssueSignal{}),
		// Its term counts (stems), kept to take it out of its cluster's
		// centroid again.
		field.JSON("terms", map[string]float64{}),
		// The spelling of each of its stems, for the cluster's labels.
		field.JSON("forms", map[string]string{}),
		// The conversation's source, counted in the cluster's sources.
		field.String("source"),
		// When the conversation happened, and when the issue was found.
		field.Time("created_at"),
		field.Time("ingested_at"),
	}
}

// IssueSignal is a severity signal found in an issue: its kind (blocking,
// data-loss, regression, repeated-failure, workaround, failure, friction)
// and the words that showed it.
type IssueSignal struct {
	Kind   string `json:"kind"`
	Phrase string `json:"phrase"`
}

// Edges of the ConversationIssue.
func (ConversationIssue) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("conversation", Conversation.Type).Ref("issues").Field("conversation_id").Unique().Required().Immutable(),
		edge.From("cluster", IssuesCluster.Type).Ref("issues").Field("cluster_id").Unique(),
	}
}

// Indexes of the ConversationIssue.
func (ConversationIssue) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "created_at"),
		index.Fields("cluster_id", "created_at"),
		index.Fields("conversation_id", "ordinal"),
	}
}
