package openapispec

import (
	"context"
	"net/url"
	"sort"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
)

// Versions returns the versions of a specification the caller may see,
// newest first.
func (s *Service) Versions(ctx context.Context, sp *ent.OpenAPISpec) ([]*ent.OpenAPISpecVersion, error) {
	return s.loaders(ctx).versionsOf.Load(ctx, sp.ID)()
}

func versionNotFound(id string) error {
	return apierr.NotFoundf("No matching OpenAPI specification version found for id %q", id)
}

// Version returns a version of a specification the caller may see.
// Errors: NotFound (also for a version of another specification).
func (s *Service) Version(ctx context.Context, sp *ent.OpenAPISpec, id string) (*ent.OpenAPISpecVersion, error) {
	v, err := s.loaders(ctx).version.Load(ctx, id)()
	if apierr.CodeOf(err) == apierr.NotFound || (err == nil && v.SpecID != sp.ID) {
		return nil, versionNotFound(id)
	}
	return v, err
}

// Latest returns the newest version of a specification the caller may
// see.
// Errors: NotFound (none yet).
func (s *Service) Latest(ctx context.Context, sp *ent.OpenAPISpec) (*ent.OpenAPISpecVersion, error) {
	if sp.LastVersionID == nil {
		return nil, apierr.NotFoundf("No matching OpenAPI specification version found: %q has none yet (its processing is %s)", sp.Slug, sp.ProcessingState)
	}
	return s.Version(ctx, sp, *sp.LastVersionID)
}

// VersionByID returns a version by id alone, for node(id:), when the
// caller may see its specification.
// Errors: NotFound.
func (s *Service) VersionByID(ctx context.Context, id string) (*ent.OpenAPISpecVersion, *ent.OpenAPISpec, error) {
	v, err := s.loaders(ctx).version.Load(ctx, id)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil, versionNotFound(id)
	}
	if err != nil {
		return nil, nil, err
	}
	sp, err := s.SpecByID(ctx, v.SpecID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil, versionNotFound(id)
	}
	return v, sp, err
}

// Files returns the files of a version, by path: the root file and every
// file its references reach. The versions asked for together in a request
// load together. A request reads the files of versions totalling at most
// Config.RequestFileBytes; past that, the versions asked for next are
// refused (BadRequest) before anything of them is read.
func (s *Service) Files(ctx context.Context, v *ent.OpenAPISpecVersion) (map[string]string, error) {
	l := s.loaders(ctx)
	if !l.charge(v, s.cfg.RequestFileBytes) {
		return nil, apierr.New(apierr.BadRequest, "the files of the versions asked for in this request are more than %d MiB; ask for the files of fewer versions at a time", s.cfg.RequestFileBytes>>20)
	}
	return l.filesOf.Load(ctx, v.ID)()
}

// PublishedURL is where Quire serves a public specification's latest
// version to anyone; nil for a private one.
func (s *Service) PublishedURL(sp *ent.OpenAPISpec) *string {
	if sp.Visibility != "public" {
		return nil
	}
	u := s.PublicURL + specPath(sp)
	return &u
}

// VersionURL is where Quire serves a version's root file (its other files
// beside it, so that relative references resolve): for a public
// specification a permanent URL, for a private one a link signed for
// LinkTTL, which needs no token.
func (s *Service) VersionURL(sp *ent.OpenAPISpec, v *ent.OpenAPISpecVersion) string {
	file := escapePath(v.Root)
	if sp.Visibility == "public" {
		return s.PublicURL + specPath(sp) + "/versions/" + v.ID + "/" + file
	}
	signed := s.Signer.Sign(signedPath(v.ID), LinkTTL)
	q, _ := url.ParseQuery(strings.TrimPrefix(signed[strings.IndexByte(signed, '?'):], "?"))
	return s.PublicURL + specPath(sp) + "/signed/" + q.Get("expires") + "." + q.Get("sig") + "/" + v.ID + "/" + file
}

// specPath is the path of a specification below the public URL.
func specPath(sp *ent.OpenAPISpec) string {
	return "/openapi/" + url.PathEscape(sp.OrganizationID) + "/" + url.PathEscape(sp.Slug)
}

// signedPath is what a signed link to a version's files signs.
func signedPath(versionID string) string { return "/openapi/versions/" + versionID }

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// File is a file of a version.
type File struct {
	Path string
	Text string
}

// FileList returns the files of a version, the root first, then by path.
func (s *Service) FileList(ctx context.Context, v *ent.OpenAPISpecVersion) ([]*File, error) {
	files, err := s.Files(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make([]*File, 0, len(files))
	for p, t := range files {
		out = append(out, &File{Path: p, Text: t})
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Path == v.Root) != (out[j].Path == v.Root) {
			return out[i].Path == v.Root
		}
		return out[i].Path < out[j].Path
	})
	return out, nil
}
