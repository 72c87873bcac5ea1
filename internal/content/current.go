package content

import (
	"context"
	"fmt"
	"time"

	"quire/ent"
	"quire/ent/space"
	"quire/internal/document"
	"quire/internal/events"
	"quire/internal/jobs"
	"quire/internal/search"
)

// Indexer keeps the search index of every space's current content
// (package search; server/app wires it).
type Indexer interface {
	// Apply brings a space's index from ch.From to ch.To in tx.
	Apply(ctx context.Context, tx *ent.Tx, ch search.Change) error
	// Copy gives dst a copy of src's index in tx; false when src's index
	// does not reflect srcRevision (nothing is copied).
	Copy(ctx context.Context, tx *ent.Tx, src, srcRevision, dst, revision string) (bool, error)
	// Purge removes a space's index in tx.
	Purge(ctx context.Context, tx *ent.Tx, spaceID string) error
	// Stale lists spaces whose index does not reflect their content.
	Stale(ctx context.Context, limit int) ([]string, error)
}

// Publisher sends events once the transaction they are published in
// commits (package events; server/app wires it).
type Publisher interface {
	Publish(ctx context.Context, tx *ent.Tx, ev events.Event) error
}

// revisionChange is a change of a space's current revision.
type revisionChange struct {
	// space is the space's row as the transaction locked it, before the
	// change; rev the new current revision.
	space *ent.Space
	rev   *ent.Revision
	// old and next are the content of the current revision before and
	// after (old nil: the space had none).
	old, next *state
	// copyFrom, for a duplicate, is the space whose content rev copies:
	// its search index is copied rather than built.
	copyFrom *ent.Space
	// changeRequest is the change request merged, if any.
	changeRequest string
	actor         string
	now           time.Time
	// update adds the other changes of the space's row (counters, times).
	update func(*ent.SpaceUpdate) *ent.SpaceUpdate
}

// setCurrentRevision is the one way a space's current revision changes,
// in tx, the transaction that writes the revision, with the space's row
// locked: it points the space at ch.rev, brings the search index from the
// old content to the new one (only the pages that changed), and publishes
// the space's new revision (and the merge of ch.changeRequest) when tx
// commits. Merges, direct edits, a new space's and a duplicate's first
// revision all go through it, as must any later writer of a space's
// content (imports, translations).
func (s *Service) setCurrentRevision(ctx context.Context, tx *ent.Tx, ch revisionChange) error {
	c := tx.Client()
	u := c.Space.Update().Where(space.ID(ch.space.ID)).SetRevisionID(ch.rev.ID)
	if ch.update != nil {
		u = ch.update(u)
	}
	if err := u.Exec(ctx); err != nil {
		return fmt.Errorf("set the current revision of %s: %w", ch.space.ID, err)
	}
	if s.Search != nil {
		if err := s.index(ctx, tx, ch); err != nil {
			return err
		}
	}
	if s.Events == nil {
		return nil
	}
	ev := events.Event{Kind: events.SpaceRevision, Organization: ch.space.OrganizationID, Space: ch.space.ID,
		ChangeRequest: ch.changeRequest, Object: ch.rev.ID, Actor: ch.actor, At: ch.now}
	if err := s.Events.Publish(ctx, tx, ev); err != nil {
		return err
	}
	if ch.changeRequest != "" {
		ev.Kind = events.ChangeRequestMerged
		return s.Events.Publish(ctx, tx, ev)
	}
	return nil
}

// index brings the search index along with a change of revision.
func (s *Service) index(ctx context.Context, tx *ent.Tx, ch revisionChange) error {
	if ch.copyFrom != nil {
		copied, err := s.Search.Copy(ctx, tx, ch.copyFrom.ID, ch.copyFrom.RevisionID, ch.space.ID, ch.rev.ID)
		if err != nil || copied {
			return err
		}
		// The source is not indexed yet: the catch-up job builds both.
		return nil
	}
	change := search.Change{Space: ch.space.ID, Language: ch.space.Language, From: ch.space.RevisionID, To: ch.rev.ID,
		New: searchPages(ch.next), Documents: documentsOf(tx.Client(), ch.next)}
	if ch.old != nil {
		change.Old = searchPages(ch.old)
	}
	return s.Search.Apply(ctx, tx, change)
}

// searchPages is what the search index needs of a state's pages: their
// paths and ancestors' titles come from the tree.
func searchPages(st *state) map[string]search.Page {
	out := make(map[string]search.Page, len(st.pages))
	kids := childrenOf(st)
	fp := reusablesFingerprint(st)
	var walk func(parent, prefix string, ancestors []string, depth int)
	walk = func(parent, prefix string, ancestors []string, depth int) {
		if depth > 64 {
			return
		}
		for _, v := range kids[parent] {
			path := prefix + v.Slug
			doc := searchDocument(v, fp)
			out[v.PageID] = search.Page{ID: v.PageID, Type: v.Type, Title: v.Title, Description: v.Description,
				Path: path, Ancestors: ancestors, Document: doc, LinkTitle: v.LinkTitle, NoIndex: v.NoIndex,
				Computed: v.Computed, ComputedSeed: v.ComputedSeed}
			next := make([]string, len(ancestors), len(ancestors)+1)
			copy(next, ancestors)
			walk(v.PageID, path+"/", append(next, v.Title), depth+1)
		}
	}
	walk("", "", []string{}, 0)
	return out
}

// documentsOf loads documents by the names searchDocument gives them in
// st: the hashes they are stored under, with the reusable contents they
// embed inlined.
func documentsOf(c *ent.Client, st *state) func(ctx context.Context, names []string) (map[string]*document.Document, error) {
	return func(ctx context.Context, names []string) (map[string]*document.Document, error) {
		out, err := storedDocuments(c)(ctx, storedNames(names))
		if err != nil {
			return nil, err
		}
		return inlineForSearch(ctx, c, st, names, out)
	}
}

// storedDocuments loads documents by the hashes they are stored under.
func storedDocuments(c *ent.Client) func(ctx context.Context, names []string) (map[string]*document.Document, error) {
	return func(ctx context.Context, names []string) (map[string]*document.Document, error) {
		blobs, err := loadBlobs(ctx, c, names)
		if err != nil {
			return nil, err
		}
		out := make(map[string]*document.Document, len(blobs))
		for h, raw := range blobs {
			doc, err := document.ParseStored(raw)
			if err != nil {
				return nil, fmt.Errorf("decode document %s: %w", h, err)
			}
			out[h] = doc
		}
		return out, nil
	}
}

// InitialContent gives a new space (created in tx) its first, empty
// revision (catalog.ContentDuplicator).
func (s *Service) InitialContent(ctx context.Context, tx *ent.Tx, sp *ent.Space) error {
	now := s.Now()
	rev, err := writeRevision(ctx, tx.Client(), revisionWrite{spaceID: sp.ID, typ: RevisionEdits, next: newState(), now: now})
	if err != nil {
		return err
	}
	return s.setCurrentRevision(ctx, tx, revisionChange{space: sp, rev: rev, next: newState(), actor: actor(ctx), now: now})
}

// KindSearchCatchUp is the periodic job that builds the search index of
// the spaces whose index does not reflect their content: spaces from
// before search existed, duplicates of such spaces, and spaces whose
// language changed (on PostgreSQL, where the language decides stemming).
const KindSearchCatchUp = "search.catch-up"

// catchUpBatch is how many spaces one run of the catch-up job indexes.
const catchUpBatch = 50

// SearchCatchUp is the handler of KindSearchCatchUp: it rebuilds the
// index of up to catchUpBatch stale spaces, a space per transaction with
// its row locked (so that no merge into it runs meanwhile).
func (s *Service) SearchCatchUp(ctx context.Context, run jobs.Run) error {
	if s.Search == nil {
		return nil
	}
	ids, err := s.Search.Stale(ctx, catchUpBatch)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if err := s.Reindex(ctx, id); err != nil {
			return fmt.Errorf("index space %s: %w", id, err)
		}
		if err := run.Progress(ctx, float64(i+1)/float64(len(ids)), "indexed space "+id); err != nil {
			return err
		}
	}
	return nil
}

// Reindex rebuilds the whole search index of a space from its current
// content.
func (s *Service) Reindex(ctx context.Context, spaceID string) error {
	return withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		sp, err := lockSpace(ctx, c, spaceID)
		if err != nil || sp.RevisionID == "" {
			return err
		}
		_, states, err := loadStates(ctx, c, loadTree, sp.RevisionID)
		if err != nil {
			return err
		}
		return s.Search.Apply(ctx, tx, search.Change{Space: sp.ID, Language: sp.Language, From: sp.RevisionID, To: sp.RevisionID,
			New: searchPages(states[sp.RevisionID]), Rebuild: true, Documents: documentsOf(c, states[sp.RevisionID])})
	})
}

// publish sends an event about a change request when tx commits.
func (s *Service) publish(ctx context.Context, tx *ent.Tx, kind events.Kind, sp *ent.Space, cr *ent.ChangeRequest, at time.Time) error {
	if s.Events == nil {
		return nil
	}
	return s.Events.Publish(ctx, tx, events.Event{Kind: kind, Organization: sp.OrganizationID, Space: sp.ID,
		ChangeRequest: cr.ID, Object: cr.ID, Actor: actor(ctx), At: at})
}
