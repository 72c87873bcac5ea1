package reader

import (
	"net/url"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
	"quire/reader/render"
)

// maxOtherSpaces bounds the other spaces of the site whose pages one page
// view resolves links to (each costs a read of its content); links to
// pages of further spaces lead to those spaces' first page.
const maxOtherSpaces = 4

// links resolves what a page points to, for its reader: pages, anchors
// and files of the space; pages and spaces of the other spaces the site
// serves; URLs. Anything else (users, collections, spaces the site does
// not serve) is not theirs to follow.
type links struct {
	s     *visit
	pl    *place
	t     *tree
	files map[string]*content.File
	// others are the trees of other spaces read for their pages, by space
	// id.
	others map[string]*tree
}

func (s *visit) links(pl *place, t *tree) *links {
	if s.lk != nil && s.lk.pl == pl && s.lk.t == t {
		return s.lk
	}
	files := make(map[string]*content.File, len(t.rev.Files))
	for _, f := range t.rev.Files {
		files[f.ID] = f
	}
	s.lk = &links{s: s, pl: pl, t: t, files: files, others: map[string]*tree{}}
	return s.lk
}

var _ render.Links = (*links)(nil)

// Ref is the reader URL of a reference; ok is false when the reader may
// not follow it.
func (l *links) Ref(ref document.ContentRef) (string, bool) {
	switch ref.Kind {
	case document.RefURL:
		return safeURL(ref.URL)
	case document.RefFile:
		if f, ok := l.File(ref.File); ok {
			return f.URL, true
		}
	case document.RefPage, document.RefAnchor:
		href, ok := l.page(ref.Space, ref.Page)
		if !ok {
			return "", false
		}
		if ref.Kind == document.RefAnchor && ref.Anchor != "" {
			href += "#" + url.PathEscape(ref.Anchor)
		}
		return href, true
	case document.RefSpace:
		return l.spaceURL(ref.Space)
	case document.RefOpenAPI:
		href, ok, err := l.s.d.r.VisitOpenAPIURL(l.s.ctx(), l.s.v, ref.Spec)
		if err != nil {
			// The reference renders as text; the page itself is fine.
			l.s.d.log.WarnContext(l.s.ctx(), "OpenAPI reference not resolved", "error", err.Error())
		}
		return href, ok
	}
	return "", false
}

// page is the URL of a page, of this space (space "" or this one) or of
// another space the site serves.
func (l *links) page(spaceID, pageID string) (string, bool) {
	if spaceID == "" || spaceID == l.pl.space.ID {
		if pageID == "" {
			return "", true // an anchor of the page itself
		}
		if p, ok := l.t.byID[pageID]; ok {
			return pageURL(l.pl.url, p), true
		}
		return "", false
	}
	base, ok := l.spaceURL(spaceID)
	if !ok {
		return "", false
	}
	t := l.others[spaceID]
	if t == nil && len(l.others) < maxOtherSpaces {
		rev, err := l.s.d.r.VisitContent(l.s.ctx(), l.s.v, spaceID)
		if err != nil {
			return "", false
		}
		t = newTree(rev)
		l.others[spaceID] = t
	}
	if t == nil {
		return base, true
	}
	if p, ok := t.byID[pageID]; ok {
		return pageURL(base, p), true
	}
	return "", false
}

// spaceURL is the URL of the first site space (in the site's order) that
// serves a space, among those the visitor is shown.
func (l *links) spaceURL(spaceID string) (string, bool) {
	if spaceID == l.pl.space.ID {
		return l.pl.url, true
	}
	if _, ok := l.s.v.Spaces[spaceID]; !ok {
		return "", false
	}
	for _, ss := range l.s.v.Tree.SiteSpaces {
		if ss.SpaceID != spaceID || !l.s.shows(ss.Condition) {
			continue
		}
		if u := l.s.urlOf(ss.ID); u != "" {
			return u, true
		}
	}
	return "", false
}

// File is a file of the page's revision, through its signed download
// link.
func (l *links) File(id string) (render.File, bool) {
	f, ok := l.files[id]
	if !ok {
		return render.File{}, false
	}
	out := render.File{URL: l.s.d.r.VisitFileURL(f), Name: f.Name, ContentType: f.ContentType}
	if f.Width != nil && f.Height != nil {
		out.Width, out.Height = *f.Width, *f.Height
	}
	return out, true
}

// safeURL accepts the URLs a reader may be sent to: http, https and
// mailto.
func safeURL(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.String(), u.Host != ""
	case "mailto":
		return u.String(), true
	}
	return "", false
}

// gitEditURL is the web page editing a file of a synced repository: its
// tree URL with the file's path, as GitHub's and GitLab's edit pages
// spell it; "" when the tree URL is not a web URL.
func gitEditURL(gs types.GitSync, path string) string {
	base, ok := safeURL(gs.URL)
	if !ok || !strings.HasPrefix(base, "http") || path == "" {
		return ""
	}
	base = strings.TrimRight(base, "/")
	switch {
	case strings.Contains(base, "/-/tree/"):
		base = strings.Replace(base, "/-/tree/", "/-/edit/", 1)
	case strings.Contains(base, "/tree/"):
		base = strings.Replace(base, "/tree/", "/edit/", 1)
	}
	segs := strings.Split(strings.TrimLeft(path, "/"), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return base + "/" + strings.Join(segs, "/")
}

var _ render.Titles = (*links)(nil)

// Title is the title of what a reference points to, for the cards of
// content references: a page's or a space's title, a file's name.
func (l *links) Title(ref document.ContentRef) (string, bool) {
	switch ref.Kind {
	case document.RefPage:
		t := l.t
		if ref.Space != "" && ref.Space != l.pl.space.ID {
			t = l.others[ref.Space]
		}
		if t != nil {
			if p, ok := t.byID[ref.Page]; ok {
				return p.Title, true
			}
		}
	case document.RefSpace:
		if sp, ok := l.s.v.Spaces[ref.Space]; ok {
			return sp.Title, true
		}
	case document.RefFile:
		if f, ok := l.files[ref.File]; ok {
			return f.Name, true
		}
	}
	return "", false
}
