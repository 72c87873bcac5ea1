package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// Comment is a discussion thread on a space, or on a change request of it,
// optionally pointing at a page, a node of it or a table cell.
type Comment struct{ ent.Schema }

// Fields of the Comment.
func (Comment) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Comment)).Immutable(),
		field.String("space_id").Immutable(),
		// Set for a comment of a change request.
		field.String("change_request_id").Optional().Nillable().Immutable(),
		// The review it was posted with, if any.
		field.String("review_id").Optional().Nillable().Immutable(),
		// Id of the user who posted it.
		field.String("posted_by").Immutable(),
		field.Time("posted_at").Default(nowUTC).Immutable(),
		field.Time("edited_at").Optional().Nillable(),
		// The body, a document as JSON.
		field.Text("body"),
		// What it points at, in the revision it was posted on.
		field.String("revision_id").Immutable(),
		field.String("page_id").Optional().Nillable().Immutable(),
		field.String("node_id").Optional().Nillable().Immutable(),
		field.String("table_record").Optional().Nillable().Immutable(),
		field.String("table_definition").Optional().Nillable().Immutable(),
		// open or resolved.
		field.String("status").Default("open"),
		field.Time("resolved_at").Optional().Nillable(),
		field.String("resolved_by").Optional().Nillable(),
		// Number of replies, kept in the transaction of each reply's post
		// and delete.
		field.Int("replies").Default(0),
	}
}

// Edges of the Comment.
func (Comment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("comment_list").Field("space_id").Unique().Required().Immutable(),
		edge.From("change_request", ChangeRequest.Type).Ref("comment_list").Field("change_request_id").Unique().Immutable(),
		edge.To("reply_list", CommentReply.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("reactions", CommentReaction.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Comment.
func (Comment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "change_request_id", "posted_at"),
		index.Fields("change_request_id", "posted_at"),
		index.Fields("review_id"),
	}
}

// CommentReply is a reply in a comment's thread.
type CommentReply struct{ ent.Schema }

// Fields of the CommentReply.
func (CommentReply) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.CommentReply)).Immutable(),
		field.String("comment_id").Immutable(),
		// The comment's space and change request, so that commenters are
		// listed without reading the comments.
		field.String("space_id").Immutable(),
		field.String("change_request_id").Optional().Nillable().Immutable(),
		field.String("posted_by").Immutable(),
		field.Time("posted_at").Default(nowUTC).Immutable(),
		field.Time("edited_at").Optional().Nillable(),
		field.Text("body"),
	}
}

// Edges of the CommentReply.
func (CommentReply) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("comment", Comment.Type).Ref("reply_list").Field("comment_id").Unique().Required().Immutable(),
		edge.To("reactions", CommentReaction.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the CommentReply.
func (CommentReply) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("comment_id", "posted_at"),
		index.Fields("space_id", "change_request_id", "posted_by"),
	}
}

// CommentReaction is one user's emoji on a comment or on a reply: at most
// one per user, emoji and comment (or reply).
type CommentReaction struct{ ent.Schema }

// Fields of the CommentReaction.
func (CommentReaction) Fields() []ent.Field {
	return []ent.Field{
		// One of comment_id and reply_id is set.
		field.String("comment_id").Optional().Nillable().Immutable(),
		field.String("reply_id").Optional().Nillable().Immutable(),
		field.String("user_id").Immutable(),
		field.String("emoji").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the CommentReaction.
func (CommentReaction) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("comment", Comment.Type).Ref("reactions").Field("comment_id").Unique().Immutable(),
		edge.From("reply", CommentReply.Type).Ref("reactions").Field("reply_id").Unique().Immutable(),
	}
}

// Indexes of the CommentReaction.
func (CommentReaction) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("comment_id", "user_id", "emoji").Unique(),
		index.Fields("reply_id", "user_id", "emoji").Unique(),
	}
}
