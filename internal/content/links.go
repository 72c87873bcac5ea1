package content

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
)

// Link statuses.
const (
	LinkOK     = "ok"     // the target exists (external URLs are not fetched)
	LinkBroken = "broken" // the target page, anchor, file, reusable content, space, user or collection does not exist, or the caller may not see it
	LinkInApp  = "in-app" // a URL pointing inside the application (PublicURL/app/...), which readers of a published site cannot open
)

// Link is one reference from a page: a link, a content-ref block, a
// mention, a button, a file, image or drawing block, or the target of a
// link page.
type Link struct {
	// Page is the id of the page holding the reference.
	Page string
	// Node is the type of node holding it (link, content-ref, mention,
	// button, file, image, inline-image, drawing, swagger), or "link-page"
	// for the target of a link page.
	Node string
	Ref  document.ContentRef
	// Text is the text of a link.
	Text   string
	Status string
	// OpenAPISpec is the id of the specification a reference of kind
	// openapi resolved to, when its status is ok.
	OpenAPISpec string
	// ReusableContent is the reusable content holding the reference when
	// it was found in one that the page embeds ("": in the page itself).
	ReusableContent string
}

// Links resolves the references of every page of a revision, or of one page
// when pageID is set, in tree and document order. Page, anchor and file
// references are checked against the revision; references to other spaces,
// users and collections against what the caller of ctx may see (see
// resolve).
// Errors: NotFound (revision, page).
func (s *Service) Links(ctx context.Context, revisionID string, pageID *string) ([]Link, error) {
	revs, states, err := loadStates(ctx, s.Client, loadLinks, revisionID)
	if err != nil {
		return nil, err
	}
	st := states[revisionID]
	if pageID != nil && st.pages[*pageID] == nil {
		return nil, apierr.NotFoundf("No matching page found for id %q in revision %q", *pageID, revisionID)
	}
	links := collectLinks(st, func(v *ent.PageVersion) bool { return pageID == nil || v.PageID == *pageID })
	if err := s.resolve(ctx, revs[revisionID].SpaceID, st, links); err != nil {
		return nil, err
	}
	return links, nil
}

// Backlinks lists the references to a page (targetKind "page": links to it
// or to one of its anchors) or to a file (targetKind "file") from the pages
// of a revision.
// Errors: NotFound (revision), BadRequest (targetKind).
func (s *Service) Backlinks(ctx context.Context, revisionID, targetKind, targetID string) ([]Link, error) {
	if targetKind != kindPage && targetKind != kindFile {
		return nil, apierr.Invalid("kind", "The target kind must be page or file")
	}
	revs, states, err := loadStates(ctx, s.Client, loadLinks, revisionID)
	if err != nil {
		return nil, err
	}
	spaceID := revs[revisionID].SpaceID
	st := states[revisionID]
	all := collectLinks(st, func(*ent.PageVersion) bool { return true })
	var links []Link
	for _, l := range all {
		r := l.Ref
		sameSpace := r.Space == "" || r.Space == spaceID
		switch {
		case targetKind == kindPage && sameSpace && (r.Kind == document.RefPage || r.Kind == document.RefAnchor) &&
			r.Page == targetID:
			links = append(links, l)
		case targetKind == kindFile && r.Kind == document.RefFile && r.File == targetID:
			links = append(links, l)
		}
	}
	if err := s.resolve(ctx, spaceID, st, links); err != nil {
		return nil, err
	}
	return links, nil
}

// collectLinks lists the references of the pages keep accepts, pages in
// tree order.
func collectLinks(st *state, keep func(*ent.PageVersion) bool) []Link {
	kids := childrenOf(st)
	var out []Link
	var walk func(parent string)
	walk = func(parent string) {
		for _, v := range kids[parent] {
			if keep(v) {
				for _, m := range v.Refs {
					out = append(out, Link{Page: v.PageID, Node: m["node"], Ref: refFromMap(m), Text: m["text"]})
					out = append(out, embeddedLinks(st, v.PageID, m, nil)...)
				}
			}
			walk(v.PageID)
		}
	}
	walk("")
	return out
}

// resolve sets the status of links found in a revision of spaceID.
// References to other spaces, users and collections are checked against
// what the caller may see: a target it may not see is reported broken,
// exactly like one that does not exist, so that a link report tells
// nothing about objects of other organizations (or hidden in its own).
// References to OpenAPI specifications name a specification of the
// space's organization by its slug.
func (s *Service) resolve(ctx context.Context, spaceID string, st *state, links []Link) error {
	var spaces, users, collections, specs []string
	for _, l := range links {
		r := l.Ref
		switch {
		case r.Kind == document.RefUser:
			users = append(users, r.User)
		case r.Kind == document.RefCollection:
			collections = append(collections, r.Collection)
		case r.Kind == document.RefOpenAPI:
			specs = append(specs, r.Spec)
		case r.Space != "" && r.Space != spaceID:
			spaces = append(spaces, r.Space)
		}
	}
	exists, err := s.seenTargets(ctx, uniq(spaces), uniq(users), uniq(collections))
	if err != nil {
		return err
	}
	seenSpecs, err := s.specsOf(ctx, spaceID, uniq(specs))
	if err != nil {
		return err
	}
	exists[spaceID] = true
	ok := func(b bool) string {
		if b {
			return LinkOK
		}
		return LinkBroken
	}
	for i := range links {
		l := &links[i]
		r := l.Ref
		other := r.Space != "" && r.Space != spaceID
		switch r.Kind {
		case document.RefURL:
			l.Status = LinkOK
			if s.inApp(r.URL) {
				l.Status = LinkInApp
			}
		case document.RefPage:
			if other {
				l.Status = ok(exists[r.Space])
			} else {
				l.Status = ok(st.pages[r.Page] != nil)
			}
		case document.RefAnchor:
			switch {
			case other:
				l.Status = ok(exists[r.Space])
			default:
				target := r.Page
				if target == "" {
					target = l.Page
				}
				p := st.pages[target]
				l.Status = ok(p != nil && slices.Contains(p.Anchors, r.Anchor))
			}
		case document.RefFile:
			l.Status = ok(st.files[r.File] != nil)
		case document.RefReusableContent:
			// One of another space is checked as far as the caller may see
			// that space.
			if other {
				l.Status = ok(exists[r.Space])
			} else {
				l.Status = ok(st.reusables[r.ReusableContent] != nil)
			}
		case document.RefSpace:
			l.Status = ok(exists[r.Space])
		case document.RefUser:
			l.Status = ok(exists[r.User])
		case document.RefCollection:
			l.Status = ok(exists[r.Collection])
		case document.RefOpenAPI:
			switch sp := seenSpecs[r.Spec]; {
			case s.OpenAPI == nil:
				l.Status = LinkOK
			case sp != nil:
				l.Status, l.OpenAPISpec = LinkOK, sp.ID
			default:
				l.Status = LinkBroken
			}
		default:
			l.Status = LinkOK
		}
	}
	return nil
}

// specsOf returns, by slug, the OpenAPI specifications among slugs of the
// organization of spaceID that the caller may see.
func (s *Service) specsOf(ctx context.Context, spaceID string, slugs []string) (map[string]*ent.OpenAPISpec, error) {
	if len(slugs) == 0 || s.OpenAPI == nil {
		return nil, nil
	}
	sp, _, err := s.Spaces.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	seen, err := s.OpenAPI.SpecsSeen(ctx, sp.OrganizationID, slugs)
	if err != nil {
		return nil, fmt.Errorf("check linked OpenAPI specifications: %w", err)
	}
	return seen, nil
}

// seenTargets returns which of the spaces (live ones), users and
// collections exist and may be seen by the caller.
func (s *Service) seenTargets(ctx context.Context, spaces, users, collections []string) (map[string]bool, error) {
	exists := map[string]bool{}
	seenSpaces, err := s.Spaces.SpacesSeen(ctx, spaces)
	if err != nil {
		return nil, fmt.Errorf("check linked spaces: %w", err)
	}
	for id, sp := range seenSpaces {
		exists[id] = sp.DeletedAt == nil
	}
	seenCollections, err := s.Spaces.CollectionsSeen(ctx, collections)
	if err != nil {
		return nil, fmt.Errorf("check linked collections: %w", err)
	}
	for id := range seenCollections {
		exists[id] = true
	}
	seenUsers, err := s.usersSeen(ctx, users)
	if err != nil {
		return nil, fmt.Errorf("check linked users: %w", err)
	}
	for id, ok := range seenUsers {
		exists[id] = ok
	}
	return exists, nil
}

// inApp reports a URL pointing inside the application rather than at
// published content.
func (s *Service) inApp(u string) bool {
	if strings.HasPrefix(u, "/app/") || u == "/app" {
		return true
	}
	base := strings.TrimRight(s.PublicURL, "/")
	if base == "" {
		return false
	}
	return u == base+"/app" || strings.HasPrefix(u, base+"/app/") || strings.HasPrefix(u, base+"/app?") || strings.HasPrefix(u, base+"/app#")
}

// embeddedLinks follows a reference of page that embeds a reusable content
// of its own space: the references of that reusable content count as the
// page's, and so on through the reusable contents it embeds, as deep as
// Dereference inlines them and never into one already on the path.
func embeddedLinks(st *state, page string, m map[string]string, path []string) []Link {
	if m["node"] != document.BlockReusableContent || m["kind"] != document.RefReusableContent || m["space"] != "" {
		return nil
	}
	id := m["reusableContent"]
	v := st.reusables[id]
	if v == nil || len(path) >= MaxDereferenceDepth || slices.Contains(path, id) {
		return nil
	}
	path = append(slices.Clone(path), id)
	var out []Link
	for _, inner := range v.Refs {
		out = append(out, Link{Page: page, Node: inner["node"], Ref: refFromMap(inner), Text: inner["text"], ReusableContent: id})
		out = append(out, embeddedLinks(st, page, inner, path)...)
	}
	return out
}
