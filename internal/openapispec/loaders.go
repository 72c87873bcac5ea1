package openapispec

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/ent/openapispec"
	"quire/ent/openapispecblob"
	"quire/ent/openapispecfile"
	"quire/ent/openapispecversion"
	"quire/internal/apierr"
	"quire/internal/loaders"
)

// The per-request loaders of specifications and versions: a list of
// specifications, and the link report of a revision, read what each of
// their items needs in a statement per kind, whatever the number of
// items.
type specLoaders struct {
	bySlug     *dataloader.Loader[string, *ent.OpenAPISpec] // key: organization id + "/" + slug
	byID       *dataloader.Loader[string, *ent.OpenAPISpec]
	version    *dataloader.Loader[string, *ent.OpenAPISpecVersion]
	versionsOf *dataloader.Loader[string, []*ent.OpenAPISpecVersion] // key: spec id
	filesOf    *dataloader.Loader[string, map[string]string]         // key: version id; path → text

	mu        sync.Mutex
	charged   map[string]bool // versions whose files this request reads
	fileBytes int64           // their size together
}

// charge counts a version's files against the request's budget, once per
// version; it reports whether they fit.
func (l *specLoaders) charge(v *ent.OpenAPISpecVersion, budget int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.charged[v.ID] {
		return true
	}
	if l.fileBytes+v.Size > budget {
		return false
	}
	if l.charged == nil {
		l.charged = map[string]bool{}
	}
	l.charged[v.ID] = true
	l.fileBytes += v.Size
	return true
}

// chunk bounds one IN list, well under both databases' parameter limits.
const chunk = 500

func (s *Service) loaders(ctx context.Context) *specLoaders {
	return loaders.Keep(loaders.For(ctx), "openapispec", func() *specLoaders {
		opts := func() []dataloader.Option[string, *ent.OpenAPISpec] {
			return []dataloader.Option[string, *ent.OpenAPISpec]{dataloader.WithWait[string, *ent.OpenAPISpec](loaders.Wait), dataloader.WithBatchCapacity[string, *ent.OpenAPISpec](chunk)}
		}
		return &specLoaders{
			bySlug: dataloader.NewBatchedLoader(s.batchBySlug, opts()...),
			byID: dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.OpenAPISpec] {
				rows, err := s.Client.OpenAPISpec.Query().Where(openapispec.IDIn(keys...)).All(ctx)
				return results(keys, rows, err, func(sp *ent.OpenAPISpec) string { return sp.ID }, "OpenAPI specification")
			}, opts()...),
			version: dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.OpenAPISpecVersion] {
				rows, err := s.Client.OpenAPISpecVersion.Query().Where(openapispecversion.IDIn(keys...)).All(ctx)
				return results(keys, rows, err, func(v *ent.OpenAPISpecVersion) string { return v.ID }, "OpenAPI specification version")
			}, dataloader.WithWait[string, *ent.OpenAPISpecVersion](loaders.Wait), dataloader.WithBatchCapacity[string, *ent.OpenAPISpecVersion](chunk)),
			versionsOf: dataloader.NewBatchedLoader(s.batchVersions,
				dataloader.WithWait[string, []*ent.OpenAPISpecVersion](loaders.Wait), dataloader.WithBatchCapacity[string, []*ent.OpenAPISpecVersion](chunk)),
			filesOf: dataloader.NewBatchedLoader(s.batchFiles,
				dataloader.WithWait[string, map[string]string](loaders.Wait), dataloader.WithBatchCapacity[string, map[string]string](chunk)),
		}
	})
}

// results returns rows in key order, NotFound for missing keys.
func results[T any](keys []string, rows []T, err error, id func(T) string, what string) []*dataloader.Result[T] {
	out := make([]*dataloader.Result[T], len(keys))
	if err != nil {
		for i := range out {
			out[i] = &dataloader.Result[T]{Error: fmt.Errorf("load %s: %w", what, err)}
		}
		return out
	}
	by := make(map[string]T, len(rows))
	for _, r := range rows {
		by[id(r)] = r
	}
	for i, k := range keys {
		if r, ok := by[k]; ok {
			out[i] = &dataloader.Result[T]{Data: r}
		} else {
			out[i] = &dataloader.Result[T]{Error: apierr.NotFoundf("No matching %s found for %q", what, k)}
		}
	}
	return out
}

func slugKey(orgID, slug string) string { return orgID + "/" + slug }

// batchBySlug reads specifications by organization and slug, a statement
// per organization (a batch nearly always holds one).
func (s *Service) batchBySlug(ctx context.Context, keys []string) []*dataloader.Result[*ent.OpenAPISpec] {
	byOrg := map[string][]string{}
	for _, k := range keys {
		org, slug, _ := strings.Cut(k, "/")
		byOrg[org] = append(byOrg[org], slug)
	}
	var rows []*ent.OpenAPISpec
	for org, slugs := range byOrg {
		got, err := s.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(org), openapispec.SlugIn(slugs...)).All(ctx)
		if err != nil {
			return results[*ent.OpenAPISpec](keys, nil, err, nil, "OpenAPI specifications")
		}
		rows = append(rows, got...)
	}
	return results(keys, rows, nil, func(sp *ent.OpenAPISpec) string { return slugKey(sp.OrganizationID, sp.Slug) }, "OpenAPI specification")
}

// batchVersions reads the versions of specifications, newest first.
func (s *Service) batchVersions(ctx context.Context, keys []string) []*dataloader.Result[[]*ent.OpenAPISpecVersion] {
	out := make([]*dataloader.Result[[]*ent.OpenAPISpecVersion], len(keys))
	rows, err := s.Client.OpenAPISpecVersion.Query().Where(openapispecversion.SpecIDIn(keys...)).All(ctx)
	if err != nil {
		for i := range out {
			out[i] = &dataloader.Result[[]*ent.OpenAPISpecVersion]{Error: fmt.Errorf("load versions: %w", err)}
		}
		return out
	}
	SortVersions(rows)
	by := map[string][]*ent.OpenAPISpecVersion{}
	for _, v := range rows {
		by[v.SpecID] = append(by[v.SpecID], v)
	}
	for i, k := range keys {
		out[i] = &dataloader.Result[[]*ent.OpenAPISpecVersion]{Data: by[k]}
	}
	return out
}

// SortVersions orders versions newest first.
func SortVersions(vs []*ent.OpenAPISpecVersion) {
	sort.Slice(vs, func(i, j int) bool {
		if !vs[i].CreatedAt.Equal(vs[j].CreatedAt) {
			return vs[i].CreatedAt.After(vs[j].CreatedAt)
		}
		return vs[i].ID > vs[j].ID
	})
}

// prime caches a fresh row of a specification for the rest of the
// request.
func (s *Service) prime(ctx context.Context, sp *ent.OpenAPISpec) {
	l := s.loaders(ctx)
	l.byID.Clear(ctx, sp.ID).Prime(ctx, sp.ID, sp)
	k := slugKey(sp.OrganizationID, sp.Slug)
	l.bySlug.Clear(ctx, k).Prime(ctx, k, sp)
}

// forget drops a specification from the request's caches.
func (s *Service) forget(ctx context.Context, sp *ent.OpenAPISpec) {
	l := s.loaders(ctx)
	l.byID.Clear(ctx, sp.ID)
	l.bySlug.Clear(ctx, slugKey(sp.OrganizationID, sp.Slug))
	l.versionsOf.Clear(ctx, sp.ID)
}

// Queue asks for a specification by id without waiting for it, so that
// what a request asks for together loads in one batch.
func (s *Service) Queue(ctx context.Context, id string) { s.loaders(ctx).byID.Load(ctx, id) }

// QueueVersion asks for a version by id without waiting for it.
func (s *Service) QueueVersion(ctx context.Context, id string) { s.loaders(ctx).version.Load(ctx, id) }

// batchFiles reads the files of versions, with their texts: two
// statements for the batch (and one more per 500 distinct texts).
func (s *Service) batchFiles(ctx context.Context, keys []string) []*dataloader.Result[map[string]string] {
	out := make([]*dataloader.Result[map[string]string], len(keys))
	fail := func(err error) []*dataloader.Result[map[string]string] {
		for i := range out {
			out[i] = &dataloader.Result[map[string]string]{Error: fmt.Errorf("load version files: %w", err)}
		}
		return out
	}
	rows, err := s.Client.OpenAPISpecFile.Query().Where(openapispecfile.VersionIDIn(keys...)).All(ctx)
	if err != nil {
		return fail(err)
	}
	var hashes []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.BlobID] {
			seen[r.BlobID] = true
			hashes = append(hashes, r.BlobID)
		}
	}
	texts := make(map[string]string, len(hashes))
	for len(hashes) > 0 {
		part := hashes[:min(len(hashes), chunk)]
		hashes = hashes[len(part):]
		blobs, err := s.Client.OpenAPISpecBlob.Query().Where(openapispecblob.IDIn(part...)).All(ctx)
		if err != nil {
			return fail(err)
		}
		for _, b := range blobs {
			texts[b.ID] = b.Text
		}
	}
	by := make(map[string]map[string]string, len(keys))
	for _, r := range rows {
		if by[r.VersionID] == nil {
			by[r.VersionID] = map[string]string{}
		}
		by[r.VersionID][r.Path] = texts[r.BlobID]
	}
	for i, k := range keys {
		files := by[k]
		if files == nil {
			files = map[string]string{}
		}
		out[i] = &dataloader.Result[map[string]string]{Data: files}
	}
	return out
}
