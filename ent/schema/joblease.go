package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// JobLease lets one process among several claim a periodic job.
type JobLease struct{ ent.Schema }

// Fields of the JobLease.
func (JobLease) Fields() []ent.Field {
	return []ent.Field{
		// The job's name.
		field.String("id").Immutable(),
		field.String("holder").Default(""),
		field.Time("locked_until"),
	}
}
