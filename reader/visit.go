package reader

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"quire/ent"
	"quire/internal/conditions"
	"quire/internal/content"
	"quire/internal/sites"
)

// visit is one request of a reader to a site it may read.
type visit struct {
	c   context.Context
	d   *Door
	v   *sites.Visit
	req request
	// claims are the visitor's claims: the unsigned ones from the query
	// (visitor.* parameters), under "unsigned".
	claims map[string]any
	// chosenTheme is the theme the reader chose ("light", "dark"), "" for none.
	chosenTheme string
	// lk resolves the references of the page shown.
	lk *links
	// banner is announced above every page of a member's preview.
	banner string
}

// place is the site space a request is in, and the page path below it.
type place struct {
	section *ent.SiteSection // nil when the site has no sections
	ss      *ent.SiteSpace
	space   *ent.Space
	url     string   // the site space's URL
	rest    []string // the page's path segments
}

func (s *visit) ctx() context.Context { return s.c }

// public reports whether shared caches may keep the site's answers.
func (s *visit) public() bool {
	if s.v.Preview {
		return false
	}
	vis := s.v.Site.Visibility
	return vis == "public" || vis == "unlisted"
}

// indexed reports whether search engines may index the site's pages:
// those of a public site, not reached through a share link.
func (s *visit) indexed() bool {
	return !s.v.Preview && s.v.Site.Visibility == "public" && s.req.shareKey == nil
}

// shows reports whether an item with this condition is shown to the
// visitor.
func (s *visit) shows(cond *string) bool {
	return cond == nil || *cond == "" || conditions.Eval(*cond, s.claims)
}

// sections are the site's sections the visitor is shown, in order.
func (s *visit) sections() []*ent.SiteSection {
	var out []*ent.SiteSection
	for _, it := range flattenSections(s.v.Tree.Root) {
		if s.shows(it.Condition) {
			out = append(out, it)
		}
	}
	return out
}

func flattenSections(items []sites.Item) []*ent.SiteSection {
	var out []*ent.SiteSection
	for _, it := range items {
		if it.Section != nil {
			out = append(out, it.Section)
		}
		out = append(out, flattenSections(it.Children)...)
	}
	return out
}

// siteSpacesOf are the site spaces of a section (nil: the site's root)
// that serve a live space the visitor is shown.
func (s *visit) siteSpacesOf(sectionID *string) []*ent.SiteSpace {
	var out []*ent.SiteSpace
	for _, ss := range sites.SpacesOf(s.v.Tree.SiteSpaces, sectionID) {
		if _, live := s.v.Spaces[ss.SpaceID]; live && s.shows(ss.Condition) {
			out = append(out, ss)
		}
	}
	return out
}

// locate finds the site space a path is in: a section's path first (the
// default section when none matches), then a site space's path in it
// (the default site space when none matches); the rest is the page's
// path. ok is false when the site serves nothing there.
func (s *visit) locate(rest []string) (*place, bool) {
	p := &place{rest: rest}
	var sectionID *string
	if s.v.Tree.HasSections() {
		secs := s.sections()
		if len(secs) == 0 {
			return nil, false
		}
		for _, sec := range secs {
			if len(p.rest) > 0 && sec.Path == p.rest[0] {
				p.section, p.rest = sec, p.rest[1:]
				break
			}
		}
		if p.section == nil {
			p.section = pick(secs, s.v.Site.DefaultSectionID, func(sec *ent.SiteSection) string { return sec.ID })
		}
		sectionID = &p.section.ID
	}
	sss := s.siteSpacesOf(sectionID)
	if len(sss) == 0 {
		return nil, false
	}
	for _, ss := range sss {
		if len(p.rest) > 0 && ss.Path == p.rest[0] {
			p.ss, p.rest = ss, p.rest[1:]
			break
		}
	}
	if p.ss == nil {
		def := s.v.Site.DefaultSiteSpaceID
		if p.section != nil {
			def = p.section.DefaultSiteSpaceID
		}
		p.ss = pick(sss, def, func(ss *ent.SiteSpace) string { return ss.ID })
	}
	p.space = s.v.Spaces[p.ss.SpaceID]
	if p.url = s.urlOf(p.ss.ID); p.url == "" {
		return nil, false
	}
	return p, true
}

// pick is the item with id def, else the first.
func pick[T any](items []T, def *string, id func(T) string) T {
	if def != nil {
		for _, it := range items {
			if id(it) == *def {
				return it
			}
		}
	}
	return items[0]
}

// tree is a revision's pages as the reader navigates them.
type tree struct {
	rev    *content.Revision
	byPath map[string]*content.Page
	byID   map[string]*content.Page
	parent map[string]*content.Page
	// order are the document pages in reading order, hidden ones left
	// out (pagination follows it).
	order []*content.Page
}

func newTree(rev *content.Revision) *tree {
	t := &tree{rev: rev, byPath: map[string]*content.Page{}, byID: map[string]*content.Page{}, parent: map[string]*content.Page{}}
	var walk func(pages []*content.Page, parent *content.Page, hidden bool)
	walk = func(pages []*content.Page, parent *content.Page, hidden bool) {
		for _, p := range pages {
			t.byID[p.ID] = p
			if p.Path != "" {
				t.byPath[p.Path] = p
			}
			if parent != nil {
				t.parent[p.ID] = parent
			}
			h := hidden || p.Hidden
			if !h && p.Type == content.TypeDocument {
				t.order = append(t.order, p)
			}
			walk(p.Pages, p, h)
		}
	}
	walk(rev.Pages, nil, false)
	return t
}

// first is the page a site space's root shows: the first document page in
// reading order, else the first document page at all.
func (t *tree) first() *content.Page {
	if len(t.order) > 0 {
		return t.order[0]
	}
	for _, p := range t.byID {
		if p.Type == content.TypeDocument {
			return p
		}
	}
	return nil
}

// ancestors are a page's ancestors, from the root.
func (t *tree) ancestors(p *content.Page) []*content.Page {
	var out []*content.Page
	for a := t.parent[p.ID]; a != nil && len(out) < 64; a = t.parent[a.ID] {
		out = append([]*content.Page{a}, out...)
	}
	return out
}

// pageURL is a page's URL below its site space.
func pageURL(spaceURL string, p *content.Page) string {
	if p.Path == "" {
		return spaceURL
	}
	var b strings.Builder
	b.WriteString(spaceURL)
	for _, seg := range strings.Split(p.Path, "/") {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(seg))
	}
	return b.String()
}

// maxUnsignedClaims bounds the visitor.* query parameters read, and
// maxClaimLen the length of each value.
const (
	maxUnsignedClaims = 32
	maxClaimLen       = 256
)

// visitorClaims are the claims of the visitor: those of their token
// (signed), and the unsigned ones from the query under "unsigned".
func visitorClaims(signed map[string]any, q url.Values) map[string]any {
	out := make(map[string]any, len(signed)+1)
	for k, v := range signed {
		out[k] = v
	}
	out["unsigned"] = unsignedClaims(q)
	return out
}

// unsignedClaims reads the visitor's unsigned claims from the query:
// visitor.{name}={value}, a value read as a boolean or a number when it
// is one.
func unsignedClaims(q url.Values) map[string]any {
	unsigned := map[string]any{}
	for k, vs := range q {
		name, ok := strings.CutPrefix(k, "visitor.")
		if !ok || name == "" || len(name) > 64 || len(vs) == 0 || len(vs[0]) > maxClaimLen {
			continue
		}
		if len(unsigned) >= maxUnsignedClaims {
			break
		}
		v := vs[0]
		switch {
		case v == "true" || v == "false":
			unsigned[name] = v == "true"
		default:
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				unsigned[name] = f
			} else {
				unsigned[name] = v
			}
		}
	}
	return unsigned
}

// notFound answers a path the site serves nothing at with its 404 page.
func (s *visit) notFound(w http.ResponseWriter, r *http.Request) {
	p := s.frame(nil, nil)
	p.Kind, p.Status, p.Title = "notfound", http.StatusNotFound, "Page not found"
	p.Message = "There is no page at this address. Try the search, or start from the home page."
	p.Robots = "noindex"
	respondHTML(w, r, p, s.public())
}
