package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// ConversationCorpus is the analysis state of an organization's
// conversations: the document frequency of each term over its issues (for
// TF-IDF). Its row is locked while a batch is analysed, so that batches of
// one organization run one after the other.
type ConversationCorpus struct{ ent.Schema }

// Fields of the ConversationCorpus.
func (ConversationCorpus) Fields() []ent.Field {
	return []ent.Field{
		// The organization's id.
		field.String("id").Immutable(),
		// Issues counted in df.
		field.Int("documents").Default(0),
		field.JSON("df", map[string]int{}),
		// The seq of the organization's next cluster.
		field.Int("next_cluster").Default(1),
		field.Time("updated_at").Default(nowUTC),
	}
}
