package computed

import (
	"context"
	"fmt"

	"quire/ent/space"
	"quire/internal/document"
	"quire/internal/types"
)

// SpaceDocument computes the document of a computed page of a space,
// from the specifications of the space's organization; for readers that
// hold a space rather than its organization (PDF exports, search). It
// reads the space with Client.
func (s *Service) SpaceDocument(ctx context.Context, spaceID string, def *types.PageComputed, seed string) (*document.Document, error) {
	res, err := s.SpaceCompute(ctx, spaceID, def, seed)
	if err != nil {
		return nil, err
	}
	return res.Document, nil
}

// SpaceCompute is Compute for a page of a space.
func (s *Service) SpaceCompute(ctx context.Context, spaceID string, def *types.PageComputed, seed string) (*Result, error) {
	org, err := s.SpaceOrg(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return s.Compute(ctx, org, def, seed)
}

// SpaceOrg is the organization of a space.
func (s *Service) SpaceOrg(ctx context.Context, spaceID string) (string, error) {
	if s.Client == nil {
		return "", fmt.Errorf("computed: no database client to read space %s", spaceID)
	}
	org, err := s.Client.Space.Query().Where(space.ID(spaceID)).Select(space.FieldOrganizationID).String(ctx)
	if err != nil {
		return "", fmt.Errorf("read the organization of space %s: %w", spaceID, err)
	}
	return org, nil
}
