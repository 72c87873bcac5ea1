package graph

import (
	"context"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/gitsync"
	"quire/internal/jobs"
	"quire/internal/loaders"
)

// Job is a background job, as the REST door names what the Git routes
// return (it answers without it).
type Job = jobs.Info

// GitRequest is an import or export as both doors give it.
type GitRequest struct {
	Space                      string
	URL, Ref                   string
	RepoCacheID                *string
	RepoTreeURL, RepoCommitURL *string
	RepoProjectDirectory       *string
	Timestamp                  *time.Time
	Force, Standalone          *bool
	CommitMessage              string
	GitInfo                    *model.GitInfoInput
}

func (g GitRequest) engine() gitsync.Request {
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	b := func(p *bool) bool { return p != nil && *p }
	req := gitsync.Request{
		URL: g.URL, Ref: g.Ref, ProjectDirectory: s(g.RepoProjectDirectory), RepoTreeURL: s(g.RepoTreeURL),
		RepoCommitURL: s(g.RepoCommitURL), RepoCacheID: s(g.RepoCacheID), Timestamp: g.Timestamp,
		Force: b(g.Force), Standalone: b(g.Standalone), CommitMessage: g.CommitMessage,
	}
	if gi := g.GitInfo; gi != nil {
		req.GitInfo = &gitsync.GitInfo{}
		if p, _ := gi.Provider.ValueOK(); p != nil {
			req.GitInfo.Provider = string(*p)
		}
		if u, _ := gi.URL.ValueOK(); u != nil {
			req.GitInfo.URL = *u
		}
	}
	return req
}

// ImportGit starts an import of a repository into a space and returns
// its job.
func (r *Resolver) ImportGit(ctx context.Context, g GitRequest) (*jobs.Info, error) {
	id, err := r.Git.Import(ctx, g.Space, g.engine())
	if err != nil {
		return nil, err
	}
	return r.Jobs.Get(ctx, id)
}

// ExportGit starts an export of a space to a repository and returns its
// job.
func (r *Resolver) ExportGit(ctx context.Context, g GitRequest) (*jobs.Info, error) {
	req := g.engine()
	req.Standalone = false
	id, err := r.Git.Export(ctx, g.Space, req)
	if err != nil {
		return nil, err
	}
	return r.Jobs.Get(ctx, id)
}

// gitSyncJob returns the latest Git job of a space the caller sees, a
// batch of spaces per two statements.
func (r *Resolver) gitSyncJob(ctx context.Context, sp *ent.Space) (*jobs.Info, error) {
	if r.Jobs == nil {
		return nil, nil
	}
	l := loaders.Keep(loaders.For(ctx), "gitsync.latestJob", func() *dataloader.Loader[string, *jobs.Info] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, subjects []string) []*dataloader.Result[*jobs.Info] {
			latest, err := r.Jobs.LatestOf(ctx, subjects)
			out := make([]*dataloader.Result[*jobs.Info], len(subjects))
			for i, s := range subjects {
				out[i] = &dataloader.Result[*jobs.Info]{Data: latest[s], Error: err}
			}
			return out
		}, dataloader.WithWait[string, *jobs.Info](loaders.Wait))
	})
	return l.Load(ctx, gitsync.Subject(sp.ID))()
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
