package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// ChangeRequest is a line of revisions starting at a revision of its space,
// merged back into the space with a three-way merge.
type ChangeRequest struct{ ent.Schema }

// Fields of the ChangeRequest.
func (ChangeRequest) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.ChangeRequest)).Immutable(),
		field.String("space_id").Immutable(),
		// Incremental per space, from 1.
		field.Int("number").Immutable(),
		field.String("subject").Default(""),
		// Document JSON, when set.
		field.Text("description").Optional().Nillable(),
		// draft, open, archived or merged.
		field.String("status").Default("draft"),
		// Id of the user who created it.
		field.String("created_by").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC),
		// The space revision it started from.
		field.String("revision_initial").Immutable(),
		// Its head revision.
		field.String("revision_id"),
		// The space revision last merged into it by an update.
		field.String("revision_merged_ancestor").Optional().Nillable(),
		// The space revision created by merging it.
		field.String("revision_merged").Optional().Nillable(),
		field.Time("merged_at").Optional().Nillable(),
		// Ids of the users who made edits, in order of first edit.
		field.JSON("contributors", []string{}).Optional(),
		// The issues cluster (internal/conversations) it addresses.
		field.String("conversations_issues_cluster").Optional().Nillable(),
		// Open comments, kept in the transaction of each comment's write.
		field.Int("comments").Default(0),
	}
}

// Edges of the ChangeRequest.
func (ChangeRequest) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("change_request_list").Field("space_id").Unique().Required().Immutable(),
		edge.To("comment_list", Comment.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("reviews", ChangeRequestReview.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("requested_reviewers", ChangeRequestReviewer.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the ChangeRequest.
func (ChangeRequest) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "number").Unique(),
		index.Fields("space_id", "status"),
		index.Fields("conversations_issues_cluster"),
	}
}
