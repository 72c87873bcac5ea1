package content

import (
	"container/list"
	"context"
	"sync"

	"quire/internal/document"
)

// Bounds of the content kept in memory for published sites: the pages and
// files of the revisions kept, and the documents kept.
const (
	KeptPages     = 100_000
	KeptDocuments = 5_000
)

// keptContent keeps revisions and page documents between requests. Both
// are immutable once written (a revision is a snapshot; a page version's
// document never changes), so a copy read once is right for every later
// request on every process sharing the database: nothing kept can make
// replicas disagree. Least recently used entries go first.
type keptContent struct {
	mu   sync.Mutex
	revs lru[*Revision]
	docs lru[*document.Document]
}

// KeptRevision returns a revision for readers that do not change it (the
// published sites' reader): read once, then kept in memory, shared by
// every request. Callers check who may read it; they must not modify it.
// Errors: as Revision.
func (s *Service) KeptRevision(ctx context.Context, id string) (*Revision, error) {
	k := &s.kept
	k.mu.Lock()
	rev, ok := k.revs.get(id)
	k.mu.Unlock()
	if ok {
		return rev, nil
	}
	rev, err := s.Revision(ctx, id)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.revs.put(id, rev, revisionCost(rev), KeptPages)
	k.mu.Unlock()
	return rev, nil
}

// KeptDocument returns the document of a page version, kept as
// KeptRevision keeps revisions; load reads it when it is not kept.
// Callers must not modify it.
func (s *Service) KeptDocument(ctx context.Context, version string, load func() (*document.Document, error)) (*document.Document, error) {
	k := &s.kept
	k.mu.Lock()
	doc, ok := k.docs.get(version)
	k.mu.Unlock()
	if ok {
		return doc, nil
	}
	doc, err := load()
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.docs.put(version, doc, 1, KeptDocuments)
	k.mu.Unlock()
	return doc, nil
}

// revisionCost is what a revision weighs against KeptPages.
func revisionCost(rev *Revision) int {
	n := 1 + len(rev.Files) + len(rev.ReusableContents)
	var walk func([]*Page)
	walk = func(ps []*Page) {
		for _, p := range ps {
			n++
			walk(p.Pages)
		}
	}
	walk(rev.Pages)
	return n
}

// lru is a least-recently-used map with a budget of cost (the caller
// locks).
type lru[V any] struct {
	items map[string]*list.Element
	order list.List // front: most recently used
	cost  int
}

type lruEntry[V any] struct {
	key  string
	val  V
	cost int
}

func (c *lru[V]) get(key string) (V, bool) {
	var zero V
	e, ok := c.items[key]
	if !ok {
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[V]).val, true
}

func (c *lru[V]) put(key string, val V, cost, budget int) {
	if cost > budget {
		return
	}
	if c.items == nil {
		c.items = map[string]*list.Element{}
	}
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val, cost: cost})
	c.cost += cost
	for c.cost > budget {
		last := c.order.Back()
		en := last.Value.(*lruEntry[V])
		c.order.Remove(last)
		delete(c.items, en.key)
		c.cost -= en.cost
	}
}
