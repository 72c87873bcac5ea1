package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// IssuesCluster groups similar issues of an organization's conversations.
// Its aggregates are kept up to date as issues join and leave it, so that
// reading a cluster reads one row.
type IssuesCluster struct{ ent.Schema }

// ClusterExample is one of the issues closest to a cluster's centroid,
// with its terms, so that the examples can be ranked again as the
// centroid moves.
type ClusterExample struct {
	Issue string             `json:"issue"`
	Title string             `json:"title"`
	Terms map[string]float64 `json:"terms"`
}

// Fields of the IssuesCluster.
func (IssuesCluster) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.IssuesCluster)).Immutable(),
		field.String("organization_id").Immutable(),
		// Creation order in the organization: ties between equally close
		// clusters go to the older one.
		field.Int("seq").Immutable(),
		field.String("label"),
		field.String("icon"),
		// The summary, a document (JSON).
		field.Text("summary"),
		field.Bool("muted").Default(false),
		field.String("impact").Default("low"),
		// The terms behind the label, most characteristic first.
		field.JSON("key_terms", []string{}),
		// Sum of its issues' term vectors.
		field.JSON("centroid", map[string]float64{}),
		// Spellings seen for each stem, with their counts (for labels).
		field.JSON("forms", map[string]map[string]int{}),
		field.JSON("examples", []ClusterExample{}),
		field.Int("issue_count").Default(0),
		field.Int("conversation_count").Default(0),
		// Issues by source, by impact, and by week (Monday, YYYY-MM-DD).
		field.JSON("sources", map[string]int{}),
		field.JSON("impacts", map[string]int{}),
		field.JSON("weeks", map[string]int{}),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC),
	}
}

// Edges of the IssuesCluster.
func (IssuesCluster) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("issues", ConversationIssue.Type).Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the IssuesCluster.
func (IssuesCluster) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "seq").Unique(),
		index.Fields("organization_id", "updated_at"),
	}
}
