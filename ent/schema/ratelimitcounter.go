package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RateLimitCounter is what a principal has used of one rate-limit bucket in
// one window. Every process serving the database counts in the same rows,
// so replicas share each principal's budget; rows of past windows are
// deleted by a periodic sweep.
type RateLimitCounter struct{ ent.Schema }

// Fields of the RateLimitCounter.
func (RateLimitCounter) Fields() []ent.Field {
	return []ent.Field{
		// Who is counted: a user id.
		field.String("principal").Immutable(),
		// Which budget: "core" (every request) or "content" (content creation).
		field.String("bucket").Immutable(),
		// The window's start, in seconds since the Unix epoch: an integer
		// compares alike on both databases.
		field.Int64("window_start").Immutable(),
		field.Int("used").Default(0),
		// The bucket's limit when it was last charged: the counting
		// statement refuses a charge that would take used beyond it.
		field.Int("budget").Default(0),
	}
}

// Indexes of the RateLimitCounter.
func (RateLimitCounter) Indexes() []ent.Index {
	return []ent.Index{
		// The key the counting upsert conflicts on; the window comes first
		// so that the sweep of past windows reads a range of it.
		index.Fields("window_start", "principal", "bucket").Unique(),
	}
}
