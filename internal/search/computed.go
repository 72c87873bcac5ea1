package search

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"quire/internal/computed"
	"quire/internal/document"
	"quire/internal/types"
)

// Computed pages (API references generated from an organization's OpenAPI
// specification) are indexed with the text they generate when the index
// is written (the content engine computes them). A new version of a
// specification changes that text without changing any revision:
// OutdateComputed marks the index of the spaces whose current content
// has a computed page reading the specification as not reflecting their
// revision, so that the catch-up job (content.KindSearchCatchUp) rebuilds
// them.

// OutdateComputed marks for rebuilding the index of the spaces of an
// organization whose current revision holds a computed page depending on
// the specification slug. It returns the spaces marked.
func (s *Service) OutdateComputed(ctx context.Context, orgID, slug string) ([]string, error) {
	rows, err := s.Client.QueryContext(ctx, s.bind(`SELECT DISTINCT s.id, v.computed FROM spaces s
JOIN revision_entries e ON e.revision_id = s.revision_id AND e.kind = 'page'
JOIN page_versions v ON v.id = e.version_id
WHERE s.organization_id = ? AND s.revision_id <> '' AND v.computed IS NOT NULL`), orgID)
	if err != nil {
		return nil, fmt.Errorf("find spaces with computed pages: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	var spaces []string
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		var c types.PageComputed
		if seen[id] || json.Unmarshal(raw, &c) != nil {
			continue
		}
		for _, d := range c.Dependencies {
			if d.Ref.Spec == slug {
				seen[id] = true
				spaces = append(spaces, id)
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	err = inChunks(spaces, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		return s.exec(ctx, s.Client, "UPDATE search_spaces SET revision_id = '' WHERE space_id IN ("+placeholders(len(part))+")", args...)
	})
	return spaces, err
}

// ComputedPages computes the documents of computed pages for the index.
type ComputedPages interface {
	// SpaceOrg is the organization of a space.
	SpaceOrg(ctx context.Context, spaceID string) (string, error)
	// Compute makes the document of a computed page of an organization.
	Compute(ctx context.Context, orgID string, def *types.PageComputed, seed string) (*computed.Result, error)
	// Seed is the seed of what Compute makes, without making it.
	Seed(ctx context.Context, orgID string, def *types.PageComputed, seed string) (string, error)
}

// computedPrefix starts the Document name of a computed page: its mixed
// seed follows, which changes with its definition and the specification
// versions it reads.
const computedPrefix = "computed:"

// withComputed gives the computed pages of ch their generated documents:
// each is named by its seed (so that a page whose definition and inputs
// are unchanged keeps its rows), and Documents serves them.
func (s *Service) withComputed(ctx context.Context, ch *Change) error {
	if s.Computed == nil {
		return nil
	}
	var org string
	docs := map[string]*document.Document{}
	name := func(pages map[string]Page, keepDocs bool) error {
		for id, p := range pages {
			if p.Computed == nil || !p.indexed() {
				continue
			}
			if org == "" {
				var err error
				if org, err = s.Computed.SpaceOrg(ctx, ch.Space); err != nil {
					return err
				}
			}
			if !keepDocs {
				seed, err := s.Computed.Seed(ctx, org, p.Computed, p.ComputedSeed)
				if err != nil {
					return err
				}
				p.Document = computedPrefix + seed
				pages[id] = p
				continue
			}
			res, err := s.Computed.Compute(ctx, org, p.Computed, p.ComputedSeed)
			if err != nil {
				return err
			}
			p.Document = computedPrefix + res.Seed
			pages[id] = p
			docs[p.Document] = computed.Searchable(res.Document)
		}
		return nil
	}
	if err := name(ch.New, true); err != nil {
		return err
	}
	if err := name(ch.Old, false); err != nil {
		return err
	}
	if len(docs) == 0 {
		return nil
	}
	stored := ch.Documents
	ch.Documents = func(ctx context.Context, names []string) (map[string]*document.Document, error) {
		var rest []string
		for _, n := range names {
			if _, ok := docs[n]; !ok {
				rest = append(rest, n)
			}
		}
		out := map[string]*document.Document{}
		if len(rest) > 0 && stored != nil {
			got, err := stored(ctx, rest)
			if err != nil {
				return nil, err
			}
			maps.Copy(out, got)
		}
		for _, n := range names {
			if d, ok := docs[n]; ok {
				out[n] = d
			}
		}
		return out, nil
	}
	return nil
}
