package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
)

// Job is Quire's record of a background job: whose it is, what started it
// and how far it has come. The queue's own row (River's, found by
// river_id) holds its state, attempts and errors.
type Job struct{ ent.Schema }

// Fields of the Job.
func (Job) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.Job)).Immutable(),
		// The queue's id of the job.
		field.Int64("river_id").Unique().Immutable(),
		// What the job does, e.g. "openapi.process".
		field.String("kind").Immutable(),
		// Empty for the system's jobs.
		field.String("organization_id").Default("").Immutable(),
		// The space it works on, when it works on one.
		field.String("space_id").Default("").Immutable(),
		// What started it, as "type:id".
		field.String("subject").Default("").Immutable(),
		// The user who asked for it; empty for the system.
		field.String("created_by").Default("").Immutable(),
		// Fraction done, 0..1, and what it is doing now.
		field.Float("progress").Default(0),
		field.String("step").Default(""),
		// Set when someone asked to cancel it: a job that then stops is
		// cancelled, not failed.
		field.Bool("cancel_requested").Default(false),
		// How it ended (completed, cancelled or failed), empty until then,
		// with the last attempt's error and when: kept after the queue
		// forgets finished jobs.
		field.String("outcome").Default(""),
		field.String("last_error").Default(""),
		field.Time("finished_at").Optional().Nillable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC),
	}
}

// Indexes of the Job.
func (Job) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("subject", "created_at"),
		index.Fields("organization_id", "created_at"),
	}
}
