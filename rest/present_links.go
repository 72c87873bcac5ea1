package rest

import (
	"context"
	"encoding/json"
	"fmt"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

// The presenters of link reports and of the pages that link somewhere.

// linkReport is a page of a link report to present, in its scope.
type linkReport struct {
	scope  *scope
	report *model.ContentLinkReport
	args   graph.PageArgs
}

func (a *API) linkReports() *Kind[*linkReport, *LinkReport] { return presents(a.presentLinkReport) }

// pagesAt is a page of the pages that hold links to something.
type pagesAt struct {
	scope *scope
	ids   []string
	total int
	next  *string
}

// linkingPages pages the pages holding links, once per page, in order.
func linkingPages(s *scope, links []*graph.ContentLink, args graph.PageArgs) (*pagesAt, error) {
	var pageIDs []string
	seen := map[string]bool{}
	for _, l := range links {
		if !seen[l.Page] {
			seen[l.Page] = true
			pageIDs = append(pageIDs, l.Page)
		}
	}
	ids, total, next, err := graph.PageOfList(pageIDs, args)
	if err != nil {
		return nil, err
	}
	return &pagesAt{scope: s, ids: ids, total: total, next: next}, nil
}

// locations presents the pages holding links as content locations; one
// locator presents their organization, space and change request once.
func (a *API) locations() Presenter[*pagesAt] {
	return presentsList(func(ctx context.Context, _ *Request, p *pagesAt) (list[ContentLocation], error) {
		loc := a.newLocator(p.scope)
		items := make([]ContentLocation, 0, len(p.ids))
		for _, id := range p.ids {
			l, err := loc.page(ctx, id, "")
			if err != nil {
				return list[ContentLocation]{}, err
			}
			if l != nil {
				items = append(items, *l)
			}
		}
		return envelope(items, p.total, p.next), nil
	})
}

// usage is one target of a link report while it is being built.
type usage struct {
	first *graph.ContentLink
	pages []string
}

func (a *API) presentLinkReport(ctx context.Context, lr *linkReport) (*LinkReport, error) {
	s, report := lr.scope, lr.report
	var groups []*usage
	byTarget := map[string]*usage{}
	for _, l := range report.Items {
		key, err := json.Marshal(l.Ref)
		if err != nil {
			return nil, fmt.Errorf("encode reference: %w", err)
		}
		g := byTarget[string(key)]
		if g == nil {
			g = &usage{first: l}
			byTarget[string(key)] = g
			groups = append(groups, g)
		}
		if len(g.pages) == 0 || g.pages[len(g.pages)-1] != l.Page {
			dup := false
			for _, p := range g.pages {
				dup = dup || p == l.Page
			}
			if !dup {
				g.pages = append(g.pages, l.Page)
			}
		}
	}
	page, total, next, err := graph.PageOfList(groups, lr.args)
	if err != nil {
		return nil, err
	}
	firsts := make([]*graph.ContentLink, len(page))
	for i, g := range page {
		firsts[i] = g.first
	}
	if err := a.r.ReadLinkTargets(ctx, firsts); err != nil {
		return nil, err
	}
	loc := a.newLocator(s)
	items := make([]ContentReferenceUsage, 0, len(page))
	for _, g := range page {
		target, err := a.r.ContentLink().Target(ctx, g.first)
		if err != nil {
			return nil, err
		}
		u := ContentReferenceUsage{
			Status: g.first.Status, Relation: relationOf(g.first), Target: target,
			LocationReferences: []ContentLocation{},
		}
		if u.TargetReference, err = loc.target(ctx, g.first); err != nil {
			return nil, err
		}
		for _, id := range g.pages {
			l, err := loc.page(ctx, id, "")
			if err != nil {
				return nil, err
			}
			if l != nil {
				u.LocationReferences = append(u.LocationReferences, *l)
			}
		}
		items = append(items, u)
	}
	out := &LinkReport{Count: total, Items: items}
	if next != nil {
		out.Next = &nextPage{Page: *next}
	}
	if st := report.Stats; st != nil {
		out.Stats = LinkStats{Total: st.Total, Broken: BrokenStats{Total: st.Broken}, OK: st.Ok, InApp: st.InApp}
		if s.cr != nil {
			// A change request with no work of its own broke nothing.
			n := 0
			if st.BrokenChangeRequest != nil {
				n = *st.BrokenChangeRequest
			}
			out.Stats.Broken.ChangeRequest = &n
		}
	}
	return out, nil
}

// relationOf: content embedded from elsewhere (reusable content, an OpenAPI
// description) is a dependency; anything else a reference.
func relationOf(l *graph.ContentLink) string {
	switch l.Ref.Kind {
	case "reusable-content", "openapi":
		return "dependsOn"
	}
	return "reference"
}

// locator presents content locations in one scope, presenting the scope's
// organization, space and pages once per request.
type locator struct {
	a      *API
	s      *scope
	org    *Organization
	space  *Space
	vc     *VersionContext
	pages  map[string]*Page
	loaded bool
}

func (a *API) newLocator(s *scope) *locator {
	return &locator{a: a, s: s, pages: map[string]*Page{}}
}

func (l *locator) load(ctx context.Context) error {
	if l.loaded {
		return nil
	}
	o, err := l.a.r.Space().Organization(ctx, l.s.space)
	if err != nil {
		return err
	}
	if l.org, err = l.a.presentOrganization(ctx, o); err != nil {
		return err
	}
	if l.space, err = l.a.presentSpace(ctx, l.s.space); err != nil {
		return err
	}
	if l.s.cr != nil {
		cr, err := l.a.presentChangeRequest(ctx, l.s.cr)
		if err != nil {
			return err
		}
		l.vc = &VersionContext{Type: "changeRequest", ChangeRequest: cr}
	}
	l.loaded = true
	return nil
}

// page locates a page of the scope's revision; nil when it is not there.
func (l *locator) page(ctx context.Context, id, anchor string) (*ContentLocation, error) {
	p := l.pages[id]
	if p == nil {
		node := findPage(l.s.rev.Pages, id)
		if node == nil {
			return nil, nil
		}
		var err error
		if p, err = l.a.presentPage(ctx, node); err != nil {
			return nil, err
		}
		l.pages[id] = p
	}
	if err := l.load(ctx); err != nil {
		return nil, err
	}
	out := &ContentLocation{Kind: "page", Organization: l.org, Space: l.space, Page: p, VersionContext: l.vc}
	if anchor != "" {
		out.InternalLocation = &InternalLocation{Type: "anchor", Anchor: anchor}
	}
	return out, nil
}

// target locates what a reference points at, when it exists and the caller
// may see it; nil otherwise.
func (l *locator) target(ctx context.Context, link *graph.ContentLink) (*ContentLocation, error) {
	ref := link.Ref
	inScope := ref.Space == "" || ref.Space == l.s.space.ID
	switch ref.Kind {
	case "url":
		return &ContentLocation{Kind: "url", URL: ref.URL}, nil
	case "page":
		if inScope {
			return l.page(ctx, ref.Page, "")
		}
	case "anchor":
		if inScope && ref.Page != "" {
			return l.page(ctx, ref.Page, ref.Anchor)
		}
	case "file":
		for _, f := range l.s.rev.Files {
			if f.ID != ref.File {
				continue
			}
			file, err := l.a.presentFile(ctx, f)
			if err != nil {
				return nil, err
			}
			if err := l.load(ctx); err != nil {
				return nil, err
			}
			return &ContentLocation{Kind: "file", Organization: l.org, Space: l.space, File: file, VersionContext: l.vc}, nil
		}
	case "space":
		sp, err := l.a.r.Query().Space(ctx, ref.Space, nil)
		if err != nil {
			return nil, hidden(err)
		}
		return l.a.spaceLocation(ctx, sp)
	case "collection":
		c, err := l.a.r.Query().Collection(ctx, ref.Collection)
		if err != nil {
			return nil, hidden(err)
		}
		o, err := l.a.r.Collection().Organization(ctx, c)
		if err != nil {
			return nil, err
		}
		org, err := l.a.presentOrganization(ctx, o)
		if err != nil {
			return nil, err
		}
		coll, err := l.a.presentCollection(ctx, c)
		if err != nil {
			return nil, err
		}
		return &ContentLocation{Kind: "collection", Organization: org, Collection: coll}, nil
	case "openapi":
		sp, err := l.a.r.ContentLink().OpenAPISpec(ctx, link)
		if err != nil || sp == nil {
			return nil, hidden(err)
		}
		if err := l.load(ctx); err != nil {
			return nil, err
		}
		spec, err := l.a.presentOpenAPISpec(ctx, sp)
		if err != nil {
			return nil, err
		}
		return &ContentLocation{Kind: "openapi", Organization: l.org, OpenAPISpec: spec}, nil
	case "user":
		n, err := l.a.r.Query().Node(ctx, ref.User)
		if err != nil {
			return nil, hidden(err)
		}
		if u, ok := n.(*ent.User); ok {
			user, err := l.a.presentUser(ctx, u)
			if err != nil {
				return nil, err
			}
			return &ContentLocation{Kind: "user", User: user}, nil
		}
	}
	return nil, nil
}

func (a *API) spaceLocation(ctx context.Context, sp *ent.Space) (*ContentLocation, error) {
	o, err := a.r.Space().Organization(ctx, sp)
	if err != nil {
		return nil, err
	}
	org, err := a.presentOrganization(ctx, o)
	if err != nil {
		return nil, err
	}
	space, err := a.presentSpace(ctx, sp)
	if err != nil {
		return nil, err
	}
	return &ContentLocation{Kind: "space", Organization: org, Space: space}, nil
}

// hidden turns "not found" and "forbidden" into no location: a report does
// not fail because one target is out of the caller's sight.
func hidden(err error) error {
	switch apierr.CodeOf(err) {
	case apierr.NotFound, apierr.Forbidden:
		return nil
	}
	return err
}

// ContentLocation is an absolute place in content: what a reference points
// at, or where it is found. Which fields appear depends on the kind.
type ContentLocation struct {
	Kind             string            `json:"kind" enum:"file,url,page,user,collection,space,reusable-content,openapi"`
	URL              string            `json:"url,omitempty"`
	Organization     *Organization     `json:"organization,omitempty"`
	Space            *Space            `json:"space,omitempty"`
	Page             *Page             `json:"page,omitempty"`
	File             *File             `json:"file,omitempty"`
	User             *User             `json:"user,omitempty"`
	Collection       *Collection       `json:"collection,omitempty"`
	OpenAPISpec      *OpenAPISpec      `json:"openAPISpec,omitempty"`
	VersionContext   *VersionContext   `json:"versionContext,omitempty" doc:"Set when the location is in a change request."`
	InternalLocation *InternalLocation `json:"internalLocation,omitempty"`
}

// VersionContext names the change request content a location is in.
type VersionContext struct {
	Type          string         `json:"type" enum:"changeRequest"`
	ChangeRequest *ChangeRequest `json:"changeRequest"`
}

// InternalLocation is a place inside a page.
type InternalLocation struct {
	Type   string `json:"type" enum:"anchor"`
	Anchor string `json:"anchor"`
}

// ContentReferenceUsage is one target of a link report with the pages
// referring to it.
type ContentReferenceUsage struct {
	Status             string            `json:"status" enum:"ok,broken,in-app"`
	Relation           string            `json:"relation" enum:"reference,dependsOn"`
	TargetReference    *ContentLocation  `json:"targetReference,omitempty" doc:"The target, when it exists and the caller may see it."`
	LocationReferences []ContentLocation `json:"locationReferences" doc:"Pages where a reference to the target is found."`
	Target             types.JSON        `json:"target" doc:"Quire extension: the content reference as written."`
}

// LinkStats counts the references of a link report (over all statuses).
type LinkStats struct {
	Total  int         `json:"total"`
	Broken BrokenStats `json:"broken"`
	OK     int         `json:"ok" doc:"Quire extension."`
	InApp  int         `json:"inApp" doc:"Quire extension."`
}

// BrokenStats counts broken references.
type BrokenStats struct {
	Total         int  `json:"total"`
	ChangeRequest *int `json:"changeRequest,omitempty" doc:"In a change request's reports: the broken links that the change request broke (not broken in the space's current content)."`
}

// LinkReport is a page of a link report.
type LinkReport struct {
	Next  *nextPage               `json:"next,omitempty"`
	Count int                     `json:"count"`
	Stats LinkStats               `json:"stats"`
	Items []ContentReferenceUsage `json:"items"`
}
