package openapispec

import (
	"context"

	"quire/ent"
	"quire/internal/apierr"
)

// LatestOf returns an organization's specification by slug and its
// latest version (nil when it has none), for the computed pages of that
// organization. It checks no role of the caller: reading a page of the
// organization is what lets the caller read what the page generates from
// the organization's specification, and the caller of LatestOf has
// checked that. The specifications and versions that a request asks for
// together load in one statement each.
// Errors: NotFound (no such specification in the organization).
func (s *Service) LatestOf(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, *ent.OpenAPISpecVersion, error) {
	l := s.loaders(ctx)
	sp, err := l.bySlug.Load(ctx, slugKey(orgID, slug))()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil, notFound(slug)
	}
	if err != nil {
		return nil, nil, err
	}
	if sp.LastVersionID == nil {
		return sp, nil, nil
	}
	v, err := l.version.Load(ctx, *sp.LastVersionID)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return sp, nil, nil
	}
	return sp, v, err
}
