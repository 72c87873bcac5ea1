package rest

import (
	"context"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

// Git sync of a space: import and export (answered at once, done by a
// background job), the Git provider's details, and its removal.

// GitInfoBody says what to record about the Git provider.
type GitInfoBody struct {
	Provider string `json:"provider,omitempty" enum:"github,gitlab" doc:"The Git provider."`
	URL      string `json:"url,omitempty" maxLength:"2048" doc:"The repository's tree URL."`
}

// DateTime is an RFC 3339 date-time, checked as it is decoded.
type DateTime string

func (d DateTime) validate(field string) error {
	if d == "" {
		return nil
	}
	if _, err := time.Parse(time.RFC3339Nano, string(d)); err != nil {
		return apierr.Invalid(field, "%s must be a date-time (RFC 3339), such as 2030-01-02T03:04:05Z", field)
	}
	return nil
}

func (d DateTime) time() *time.Time {
	if d == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, string(d))
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// GitSyncBody is what imports and exports share.
type GitSyncBody struct {
	URL                  string       `json:"url" minLength:"1" maxLength:"2048" trim:"true" phrasing:"required" doc:"URL of the repository, http or https (or file:// where the server allows it); it may carry basic-auth credentials, which Quire uses and never shows."`
	Ref                  string       `json:"ref" minLength:"1" maxLength:"255" phrasing:"required" doc:"The branch, as refs/heads/<branch>."`
	RepoCacheID          string       `json:"repoCacheID,omitempty" maxLength:"2048" doc:"Accepted for compatibility; Quire keeps no clone between operations."`
	RepoTreeURL          string       `json:"repoTreeURL,omitempty" maxLength:"2048" doc:"Prefix of URLs to the repository's files (http or https)."`
	RepoCommitURL        string       `json:"repoCommitURL,omitempty" maxLength:"2048" doc:"Prefix of URLs to the repository's commits (http or https): a revision's git.url is it followed by the commit's id."`
	RepoProjectDirectory string       `json:"repoProjectDirectory,omitempty" maxLength:"1024" doc:"The directory of the repository the content lives in (default its root); it may not leave the repository."`
	Timestamp            DateTime     `json:"timestamp,omitempty" format:"date-time" doc:"When the event that asked for the operation happened: an operation older than the latest one applied to the space is skipped, unless forced."`
	Force                bool         `json:"force,omitempty" doc:"Apply the operation even when a later one was applied."`
	GitInfo              *GitInfoBody `json:"gitInfo,omitempty" doc:"What to record about the Git provider."`
}

// ImportGitBody imports a branch of a repository into a space.
type ImportGitBody struct {
	GitSyncBody
	Standalone bool `json:"standalone,omitempty" doc:"Write the import as a revision of its own, leaving the space's content as it is."`
}

// ExportGitBody exports a space's content to a branch of a repository.
type ExportGitBody struct {
	GitSyncBody
	CommitMessage string `json:"commitMessage" minLength:"1" maxLength:"10000" trim:"true" phrasing:"required" doc:"Message of the commit."`
}

func (b *GitSyncBody) request(spaceID string) graph.GitRequest {
	g := graph.GitRequest{Space: spaceID, URL: strings.TrimSpace(b.URL), Ref: b.Ref, Timestamp: b.Timestamp.time(), Force: &b.Force,
		RepoCacheID: &b.RepoCacheID, RepoTreeURL: &b.RepoTreeURL, RepoCommitURL: &b.RepoCommitURL, RepoProjectDirectory: &b.RepoProjectDirectory}
	if gi := b.GitInfo; gi != nil {
		in := &model.GitInfoInput{}
		if gi.Provider != "" {
			p := model.GitInfoProvider(gi.Provider)
			in.Provider = graphql.OmittableOf(&p)
		}
		if gi.URL != "" {
			u := gi.URL
			in.URL = graphql.OmittableOf(&u)
		}
		g.GitInfo = in
	}
	return g
}

// GitSyncState is the documented Git provider of a space.
type GitSyncState struct {
	RepoName             string     `json:"repoName,omitempty" doc:"The repository's name (owner/name)."`
	InstallationProvider string     `json:"installationProvider,omitempty" enum:"github,gitlab,github-legacy"`
	Integration          string     `json:"integration,omitempty" doc:"What provides the synchronisation: the provider's name, or git."`
	URL                  string     `json:"url,omitempty" doc:"The repository's tree URL, used when rendering public content."`
	UpdatedAt            *time.Time `json:"updatedAt,omitempty" doc:"When the provider details were last updated."`
}

func gitSyncState(gs *types.GitSync) *GitSyncState {
	if gs == nil {
		return nil
	}
	out := &GitSyncState{RepoName: gs.RepoName, InstallationProvider: gs.InstallationProvider, Integration: gs.Integration, URL: gs.URL}
	if gs.UpdatedAt != nil {
		t := gs.UpdatedAt.UTC()
		out.UpdatedAt = &t
	}
	return out
}

func (a *API) gitRoutes() []Route {
	const g = "/spaces/{spaceId}/git"
	started := nothing[*graph.Job]()
	return []Route{
		route("POST", g+"/import", "Import a branch of a Git repository into a space (done by a background job)", func(ctx context.Context, req *Request, in *ImportGitBody) (*graph.Job, error) {
			r := in.request(req.Param("spaceId"))
			r.Standalone = &in.Standalone
			return a.r.ImportGit(ctx, r)
		}).Present(started).NoContent().Errors(412),

		route("POST", g+"/export", "Export a space's content to a branch of a Git repository (done by a background job)", func(ctx context.Context, req *Request, in *ExportGitBody) (*graph.Job, error) {
			r := in.request(req.Param("spaceId"))
			r.CommitMessage = in.CommitMessage
			return a.r.ExportGit(ctx, r)
		}).Present(started).NoContent().Errors(412),

		route("GET", g+"/info", "Get the Git provider set up on a space (404 when none is)", func(ctx context.Context, req *Request, _ *NoInput) (*types.GitSync, error) {
			return a.r.Query().SpaceGitInfo(ctx, req.Param("spaceId"))
		}).Present(presents(func(_ context.Context, gs *types.GitSync) (*GitSyncState, error) { return gitSyncState(gs), nil })),

		route("DELETE", g+"/legacy-installation", "Remove the Git provider set up on a space, so that another can be set up", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().DeleteLegacyGitInstallation(ctx, req.Param("spaceId"))
		}).Present(deleted),
	}
}
