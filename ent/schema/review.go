package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// ChangeRequestReview is a reviewer's verdict on a change request.
type ChangeRequestReview struct{ ent.Schema }

// Fields of the ChangeRequestReview.
func (ChangeRequestReview) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Review)).Immutable(),
		field.String("change_request_id").Immutable(),
		field.String("space_id").Immutable(),
		field.String("reviewer").Immutable(),
		// Who had asked the reviewer for it, if anyone.
		field.String("requested_by").Optional().Nillable().Immutable(),
		// approved or changes-requested.
		field.String("status").Immutable(),
		// Set once a later review by the same reviewer, or a new request
		// for one, supersedes it.
		field.Bool("outdated").Default(false),
		// The change request's revision it was made against.
		field.String("revision_id").Immutable(),
		// The comment posted with it, if any.
		field.String("comment_id").Optional().Nillable().Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC),
	}
}

// Edges of the ChangeRequestReview.
func (ChangeRequestReview) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("change_request", ChangeRequest.Type).Ref("reviews").Field("change_request_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ChangeRequestReview.
func (ChangeRequestReview) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("change_request_id", "reviewer"),
	}
}

// ChangeRequestReviewer is a pending request that a user review a change
// request; the user's review answers it.
type ChangeRequestReviewer struct{ ent.Schema }

// Fields of the ChangeRequestReviewer.
func (ChangeRequestReviewer) Fields() []ent.Field {
	return []ent.Field{
		field.String("change_request_id").Immutable(),
		field.String("user_id").Immutable(),
		field.String("requested_by").Immutable(),
		// The change request's revision when it was asked for.
		field.String("revision_id").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the ChangeRequestReviewer.
func (ChangeRequestReviewer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("change_request", ChangeRequest.Type).Ref("requested_reviewers").Field("change_request_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ChangeRequestReviewer.
func (ChangeRequestReviewer) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("change_request_id", "user_id").Unique(),
		index.Fields("user_id"),
	}
}
