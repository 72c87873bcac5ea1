package graph

import (
	"context"
	"math"
	"quire/graph/connections"
	"strconv"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/catalog"
	"quire/internal/jobs"
	"quire/internal/loaders"
	"quire/internal/openapispec"
	"quire/internal/pagination"
)

// specCursor orders specifications by creation time, then id.
func specCursor(s *ent.OpenAPISpec) pagination.Cursor {
	return pagination.Cursor{Key: s.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: s.ID}
}

// versionCursor orders versions newest first: the key counts down with
// time, so that a cursor stays where it was when newer versions come.
func versionCursor(v *ent.OpenAPISpecVersion) pagination.Cursor {
	return pagination.Cursor{Key: strconv.FormatInt(math.MaxInt64-v.CreatedAt.UnixNano(), 10), ID: invertID(v.ID)}
}

// invertID makes ids of versions made in the same instant sort as
// SortVersions orders them (greater id first).
func invertID(id string) string {
	b := []byte(id)
	for i, c := range b {
		b[i] = 255 - c
	}
	return string(b)
}

func openAPISpecConnection(items []*ent.OpenAPISpec, args catalog.PageArgs) (*model.OpenAPISpecConnection, error) {
	return connections.Paginate[model.OpenAPISpecConnection](items, specCursor, args)
}

func openAPIVersionConnection(items []*ent.OpenAPISpecVersion, args catalog.PageArgs) (*model.OpenAPISpecVersionConnection, error) {
	return connections.Paginate[model.OpenAPISpecVersionConnection](items, versionCursor, args)
}

// latestJobOf returns the newest job of a subject, the subjects of a
// request read together (two statements per batch).
func (r *Resolver) latestJobOf(ctx context.Context, subject string) (*jobs.Info, error) {
	if r.Jobs == nil {
		return nil, nil
	}
	l := loaders.Keep(loaders.For(ctx), "jobs.latest", func() *dataloader.Loader[string, *jobs.Info] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*jobs.Info] {
			out := make([]*dataloader.Result[*jobs.Info], len(keys))
			got, err := r.Jobs.LatestOf(ctx, keys)
			for i, k := range keys {
				out[i] = &dataloader.Result[*jobs.Info]{Data: got[k], Error: err}
			}
			return out
		}, dataloader.WithWait[string, *jobs.Info](loaders.Wait), dataloader.WithBatchCapacity[string, *jobs.Info](500))
	})
	return l.Load(ctx, subject)()
}

// OpenAPISpecPermissions are the caller's permissions on a specification.
func (r *Resolver) OpenAPISpecPermissions(ctx context.Context, sp *ent.OpenAPISpec) *model.OpenAPISpecPermissions {
	a := openapispec.Permissions(ctx, sp)
	return &model.OpenAPISpecPermissions{View: a.View, Edit: a.Edit}
}

// OpenAPISpecURLs are a specification's URLs.
func (r *Resolver) OpenAPISpecURLs(sp *ent.OpenAPISpec) *model.OpenAPISpecUrls {
	return &model.OpenAPISpecUrls{
		Location:  r.apiURL("orgs", sp.OrganizationID, "openapi", sp.Slug),
		App:       r.appURL("o", sp.OrganizationID, "openapi", sp.Slug),
		Published: r.OpenAPI.PublishedURL(sp),
	}
}

// OpenAPIVersionLocation is the REST location of a version.
func (r *Resolver) OpenAPIVersionLocation(sp *ent.OpenAPISpec, v *ent.OpenAPISpecVersion) string {
	return r.apiURL("orgs", sp.OrganizationID, "openapi", sp.Slug, "versions", v.ID)
}

// OpenAPIVersionURL is where Quire serves a version's root file.
func (r *Resolver) OpenAPIVersionURL(sp *ent.OpenAPISpec, v *ent.OpenAPISpecVersion) string {
	return r.OpenAPI.VersionURL(sp, v)
}

// OpenAPIFiles are a version's files by path.
func (r *Resolver) OpenAPIFiles(ctx context.Context, v *ent.OpenAPISpecVersion) (map[string]string, error) {
	return r.OpenAPI.Files(ctx, v)
}

// openAPISource turns the GraphQL source input into the engine's.
func openAPISource(in *model.OpenAPISpecSourceInput) openapispec.Source {
	if in == nil {
		return openapispec.Source{}
	}
	return openapispec.Source{URL: value(in.URL), Text: value(in.Text)}
}
