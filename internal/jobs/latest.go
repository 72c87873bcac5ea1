package jobs

import (
	"context"
	"fmt"

	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/job"
)

// LatestOf returns the newest job each of the subjects started, by
// subject; subjects that started none are left out. It reads Quire's
// records in one statement (per 500 subjects) and the queue's rows in one
// more, so that a list of objects shows their jobs at a fixed cost.
func (r *Runner) LatestOf(ctx context.Context, subjects []string) (map[string]*Info, error) {
	out := make(map[string]*Info, len(subjects))
	for len(subjects) > 0 {
		part := subjects[:min(len(subjects), 500)]
		subjects = subjects[len(part):]
		recs, err := r.d.Client.Job.Query().Where(job.SubjectIn(part...), newestOfSubject()).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("list latest jobs: %w", err)
		}
		// Two jobs of a subject made in the same instant: the greater id.
		newest := map[string]*ent.Job{}
		for _, rec := range recs {
			if cur := newest[rec.Subject]; cur == nil || rec.ID > cur.ID {
				newest[rec.Subject] = rec
			}
		}
		keep := make([]*ent.Job, 0, len(newest))
		for _, rec := range newest {
			keep = append(keep, rec)
		}
		infos, err := r.infos(ctx, keep)
		if err != nil {
			return nil, err
		}
		for _, in := range infos {
			out[in.Subject] = in
		}
	}
	return out, nil
}

// newestOfSubject keeps the jobs made last among those of their subject.
func newestOfSubject() func(*entsql.Selector) {
	return func(s *entsql.Selector) {
		d := entsql.Dialect(s.Dialect())
		t := d.Table(job.Table).As("newer")
		s.Where(entsql.Not(entsql.Exists(d.Select(t.C(job.FieldID)).From(t).Where(entsql.And(
			entsql.ColumnsEQ(t.C(job.FieldSubject), s.C(job.FieldSubject)),
			entsql.ColumnsGT(t.C(job.FieldCreatedAt), s.C(job.FieldCreatedAt)),
		)))))
	}
}
