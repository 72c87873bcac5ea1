package content

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// ReusableContent is a reusable content of a revision.
type ReusableContent struct {
	ID string
	// Revision and Space are the revision it was read from and its space.
	Revision, Space string
	Title           string
	// DocumentHash names its document (the content blob's SHA-256): equal
	// hashes mean equal documents.
	DocumentHash string
	// Document and Markdown are its content (ReusableContent only).
	Document *document.Document
	Markdown string
	// Version is the id of its version: equal versions mean equal
	// reusable contents.
	Version string
	// Git is where it came from in a Git repository, if anywhere.
	Git *types.GitBlob
	// UpdatedAt is when its current version was written.
	UpdatedAt time.Time
}

func reusableOf(r *ent.Revision, v *ent.ReusableContentVersion) *ReusableContent {
	return &ReusableContent{ID: v.ReusableContentID, Revision: r.ID, Space: r.SpaceID, Title: v.Title,
		DocumentHash: v.DocumentID, Version: v.ID, Git: v.Git, UpdatedAt: v.CreatedAt}
}

// reusableList lists the reusable contents of a state by title, then id.
func reusableList(r *ent.Revision, st *state) []*ReusableContent {
	out := make([]*ReusableContent, 0, len(st.reusables))
	for _, v := range st.reusables {
		out = append(out, reusableOf(r, v))
	}
	slices.SortFunc(out, func(a, b *ReusableContent) int {
		if c := cmp.Compare(a.Title, b.Title); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// ReusableContent reads one reusable content of a revision with its
// document and Markdown, without reading the rest of the revision.
// Errors: NotFound.
func (s *Service) ReusableContent(ctx context.Context, revisionID, id string) (*ReusableContent, error) {
	revs, err := loadRevisions(ctx, s.Client, revisionID)
	if err != nil {
		return nil, err
	}
	r := revs[revisionID]
	found, err := reusablesIn(ctx, s.Client, r, []string{id})
	if err != nil {
		return nil, err
	}
	v := found[id]
	if v == nil {
		return nil, apierr.NotFoundf("No matching reusable content found for id %q in revision %q", id, revisionID)
	}
	out := reusableOf(r, v)
	if out.Document, err = loadDocument(ctx, s.Client, v.DocumentID); err != nil {
		return nil, err
	}
	out.Markdown = document.ToMarkdown(out.Document)
	return out, nil
}

// MaxDereferenceDepth is how deep Dereference inlines reusable contents
// that embed other reusable contents: a page's own blocks are inlined
// (depth 1), then the blocks of what those embed, down to this depth;
// deeper blocks stay reusable-content blocks.
const MaxDereferenceDepth = 3

// Dereference returns doc with each reusable-content block replaced by the
// blocks of the reusable content it names in the revision, those being
// dereferenced in turn down to MaxDereferenceDepth. A block that names a
// reusable content the revision does not hold (deleted, or of another
// space), one beyond the depth limit, or one that would embed a reusable
// content into itself (a cycle) stays as it is. doc is not modified. It
// reads the revision's entries and documents of the reusable contents
// needed, one level at a time.
// Errors: NotFound (revision).
func (s *Service) Dereference(ctx context.Context, revisionID string, doc *document.Document) (*document.Document, error) {
	if doc == nil || len(embeddedReusables(doc.Nodes, "")) == 0 {
		return doc, nil
	}
	revs, err := loadRevisions(ctx, s.Client, revisionID)
	if err != nil {
		return nil, err
	}
	r := revs[revisionID]
	docs := map[string]*document.Document{} // reusable content id → its document (nil: absent)
	want := embeddedReusables(doc.Nodes, r.SpaceID)
	for depth := 0; depth < MaxDereferenceDepth && len(want) > 0; depth++ {
		found, err := reusablesIn(ctx, s.Client, r, want)
		if err != nil {
			return nil, err
		}
		var hashes []string
		for _, v := range found {
			hashes = append(hashes, v.DocumentID)
		}
		blobs, err := loadBlobs(ctx, s.Client, hashes)
		if err != nil {
			return nil, err
		}
		var next []string
		for _, id := range want {
			docs[id] = nil
			v := found[id]
			if v == nil {
				continue
			}
			raw, ok := blobs[v.DocumentID]
			if !ok {
				return nil, fmt.Errorf("document blob %s is missing", v.DocumentID)
			}
			d, err := document.ParseStored(raw)
			if err != nil {
				return nil, fmt.Errorf("decode document %s: %w", v.DocumentID, err)
			}
			docs[id] = d
			for _, inner := range embeddedReusables(d.Nodes, r.SpaceID) {
				if _, seen := docs[inner]; !seen && !slices.Contains(want, inner) {
					next = append(next, inner)
				}
			}
		}
		want = uniq(next)
	}
	out := *doc
	out.Nodes = inline(doc.Nodes, r.SpaceID, docs, nil)
	return &out, nil
}

// inline replaces, in nodes and their descendants, the reusable-content
// blocks naming a document of docs by that document's blocks (themselves
// inlined); path lists the reusable contents being inlined, outermost
// first, so that a cycle or the depth limit stops the inlining.
func inline(nodes []document.Node, spaceID string, docs map[string]*document.Document, path []string) []document.Node {
	if nodes == nil {
		return nil
	}
	out := make([]document.Node, 0, len(nodes))
	for _, n := range nodes {
		if id := reusableTarget(&n, spaceID); id != "" {
			if d := docs[id]; d != nil && len(path) < MaxDereferenceDepth && !slices.Contains(path, id) {
				out = append(out, inline(d.Nodes, spaceID, docs, append(slices.Clone(path), id))...)
				continue
			}
		}
		n.Nodes = inline(n.Nodes, spaceID, docs, path)
		n.Fragments = inline(n.Fragments, spaceID, docs, path)
		out = append(out, n)
	}
	return out
}

// reusableTarget returns the reusable content a reusable-content block
// names in spaceID ("" for other nodes, and for references to other
// spaces; spaceID "" accepts any space).
func reusableTarget(n *document.Node, spaceID string) string {
	if n.Object != document.ObjectBlock || n.Type != document.BlockReusableContent {
		return ""
	}
	r, ok := n.Ref()
	if !ok || r.Kind != document.RefReusableContent || r.ReusableContent == "" {
		return ""
	}
	if spaceID != "" && r.Space != "" && r.Space != spaceID {
		return ""
	}
	return r.ReusableContent
}

// embeddedReusables lists the reusable contents that reusable-content
// blocks among nodes name (see reusableTarget).
func embeddedReusables(nodes []document.Node, spaceID string) []string {
	var out []string
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for i := range nodes {
			if id := reusableTarget(&nodes[i], spaceID); id != "" {
				out = append(out, id)
			}
			walk(nodes[i].Nodes)
			walk(nodes[i].Fragments)
		}
	}
	walk(nodes)
	return uniq(out)
}

// ReusableDocuments reads the documents of reusable contents by their
// DocumentHash, in one statement per 500 whatever their number.
func (s *Service) ReusableDocuments(ctx context.Context, hashes []string) (map[string]*document.Document, error) {
	blobs, err := loadBlobs(ctx, s.Client, hashes)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*document.Document, len(blobs))
	for h, raw := range blobs {
		d, err := document.ParseStored(raw)
		if err != nil {
			return nil, fmt.Errorf("decode document %s: %w", h, err)
		}
		out[h] = d
	}
	return out, nil
}
