package content

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/ent/revision"
	"quire/internal/apierr"
	"quire/internal/document"
)

// Documents reads the documents of many page versions (Page.Version) at
// once, in two statements whatever their number. Versions of pages that
// are not documents, or that have no content, are absent from the result.
func (s *Service) Documents(ctx context.Context, versionIDs []string) (map[string]*document.Document, error) {
	out := map[string]*document.Document{}
	if len(versionIDs) == 0 {
		return out, nil
	}
	versions, err := loadPageVersions(ctx, s.Client, uniq(versionIDs), loadTree)
	if err != nil {
		return nil, err
	}
	var hashes []string
	for _, v := range versions {
		if v.DocumentID != nil {
			hashes = append(hashes, *v.DocumentID)
		}
	}
	blobs, err := loadBlobs(ctx, s.Client, uniq(hashes))
	if err != nil {
		return nil, err
	}
	decoded := map[string]*document.Document{}
	for id, v := range versions {
		if v.DocumentID == nil {
			continue
		}
		h := *v.DocumentID
		if d, ok := decoded[h]; ok {
			out[id] = d
			continue
		}
		raw, ok := blobs[h]
		if !ok {
			return nil, fmt.Errorf("document blob %s is missing", h)
		}
		d, err := document.ParseStored(raw)
		if err != nil {
			return nil, fmt.Errorf("decode document %s: %w", h, err)
		}
		decoded[h], out[id] = d, d
	}
	return out, nil
}

// RevisionRow reads a revision's row (space, type, variables) without its
// content.
// Errors: NotFound.
func (s *Service) RevisionRow(ctx context.Context, id string) (*ent.Revision, error) {
	r, err := s.Client.Revision.Query().Where(revision.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching revision found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load revision: %w", err)
	}
	return r, nil
}
