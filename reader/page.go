package reader

import (
	"net/http"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/evaluate"
	"quire/reader/render"
	"quire/reader/view"
)

// page serves a page of a site space (the first one at the site space's
// root), or, for a path ending in .md, the page as Markdown.
func (s *visit) page(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	pl, ok := s.locate(s.req.rest)
	if !ok {
		s.notFound(w, r)
		return
	}
	rev, err := s.d.r.VisitContent(ctx, s.v, pl.space.ID)
	if err != nil {
		s.d.fail(w, r, err)
		return
	}
	t := newTree(rev)
	var pg *content.Page
	if len(pl.rest) == 0 {
		pg = t.first()
	} else {
		pg = t.byPath[strings.Join(pl.rest, "/")]
	}
	if pg == nil {
		s.notFound(w, r)
		return
	}
	switch pg.Type {
	case content.TypeGroup:
		// A group has no content of its own: its first page stands for it.
		for _, c := range pg.Pages {
			if c.Type == content.TypeDocument {
				http.Redirect(w, r, pageURL(pl.url, c), http.StatusFound)
				return
			}
		}
		s.notFound(w, r)
		return
	case content.TypeLink:
		if pg.Link != nil {
			if href, ok := s.links(pl, t).Ref(*pg.Link); ok {
				http.Redirect(w, r, href, http.StatusFound)
				return
			}
		}
		s.notFound(w, r)
		return
	}
	doc, err := s.d.r.VisitDocument(ctx, s.v, pg)
	if err != nil {
		s.d.fail(w, r, err)
		return
	}
	env := evaluate.Env{Space: rev.Variables, Page: pg.Variables, Claims: s.claims}
	if s.req.markdown {
		s.markdown(w, r, pg, doc, env)
		return
	}
	res, err := render.Document(doc, render.Options{Links: s.links(pl, t), Env: env, ReservedIDs: view.ReservedIDs})
	if err != nil {
		s.d.fail(w, r, err)
		return
	}
	p := s.frame(pl, t)
	p.Kind, p.Status = view.KindPage, http.StatusOK
	s.fillPage(p, pl, t, pg, res)
	respondHTML(w, r, p, s.public())
}

// fillPage sets what a page shows of itself: title, lead, cover, content,
// outline, pagination, actions and its meta tags.
func (s *visit) fillPage(p *view.Page, pl *place, t *tree, pg *content.Page, res render.Result) {
	lay := layoutOf(pg.Layout)
	p.Layout = lay
	p.Heading, p.Lead = pg.Title, pg.Description
	p.Title = pg.Title + " | " + p.Site.Title
	p.Description = pg.Description
	if p.Description == "" {
		p.Description = res.Text
	}
	p.Content = res.HTML
	for _, h := range res.Outline {
		p.Outline = append(p.Outline, view.Heading{ID: h.ID, Title: h.Title, Level: h.Level})
	}
	if lay.Cover {
		p.Cover = s.cover(pl, t, pg)
	}
	p.Sidebar, _ = marked(p.Sidebar, pageURL(pl.url, pg))
	for _, a := range t.ancestors(pg) {
		l := view.Link{Title: navTitle(a)}
		if a.Type == content.TypeDocument {
			l.Href = pageURL(pl.url, a)
		}
		p.Breadcrumbs = append(p.Breadcrumbs, l)
	}
	if p.Settings.Pagination.Enabled && lay.Pagination {
		for i, o := range t.order {
			if o != pg {
				continue
			}
			if i > 0 {
				p.Prev = &view.Link{Title: navTitle(t.order[i-1]), Href: pageURL(pl.url, t.order[i-1])}
			}
			if i+1 < len(t.order) {
				p.Next = &view.Link{Title: navTitle(t.order[i+1]), Href: pageURL(pl.url, t.order[i+1])}
			}
		}
	}
	if !s.indexed() || pg.NoIndex || pg.NoRobotsIndex {
		p.Robots = "noindex"
	}
	self := pageURL(pl.url, pg)
	if s.indexed() {
		p.Canonical = self
	}
	if pg.MetaLinks != nil {
		lk := s.links(pl, t)
		if c := pg.MetaLinks.Canonical; c != nil {
			if href, ok := lk.Ref(*c); ok {
				p.Canonical = href
			}
		}
		for _, a := range pg.MetaLinks.Alternates {
			if href, ok := lk.Ref(a); ok {
				p.Alternates = append(p.Alternates, view.Alternate{Href: href})
			}
		}
	}
	if s.v.Site.AgentsContext != "excluded" && p.Settings.PageActions.Markdown {
		p.Actions.MarkdownURL = self + ".md"
	}
	if p.Settings.PDF.Enabled {
		p.Actions.PDFURL = s.d.r.VisitPDFURL(t.rev, pg.Title, pg.ID)
	}
	if p.Settings.Git.ShowEditLink && pg.Git != nil {
		p.Actions.EditURL = editURL(pl, pg)
	}
}

// layoutOf reads a page's layout settings (all shown unless turned off).
func layoutOf(m map[string]any) view.Layout {
	l := view.Layout{Cover: true, Title: true, Description: true, TableOfContents: true, Outline: true, Pagination: true}
	for k, dst := range map[string]*bool{"cover": &l.Cover, "title": &l.Title, "description": &l.Description,
		"tableOfContents": &l.TableOfContents, "outline": &l.Outline, "pagination": &l.Pagination} {
		if v, ok := m[k].(bool); ok {
			*dst = v
		}
	}
	return l
}

// cover is a page's cover image: a file of the revision or an image URL.
func (s *visit) cover(pl *place, t *tree, pg *content.Page) *view.Image {
	ref, _ := pg.Cover["ref"].(map[string]any)
	if ref == nil {
		return nil
	}
	var cr document.ContentRef
	cr.Kind, _ = ref["kind"].(string)
	cr.File, _ = ref["file"].(string)
	cr.URL, _ = ref["url"].(string)
	lk := s.links(pl, t)
	switch cr.Kind {
	case document.RefFile:
		if f, ok := lk.File(cr.File); ok {
			return &view.Image{Src: f.URL, Alt: ""}
		}
	case document.RefURL:
		if href, ok := lk.Ref(cr); ok && strings.HasPrefix(href, "https://") {
			return &view.Image{Src: href}
		}
	}
	return nil
}

// editURL is where a page synced from Git is edited: its file on the
// repository's web host, when the space's Git sync names one.
func editURL(pl *place, pg *content.Page) string {
	if pl.space.GitSync == nil || pg.Git == nil {
		return ""
	}
	return gitEditURL(*pl.space.GitSync, pg.Git.Path)
}

// navTitle is the title the navigation shows for a page.
func navTitle(p *content.Page) string {
	if p.LinkTitle != "" {
		return p.LinkTitle
	}
	return p.Title
}

// marked returns the sidebar with the page at href marked current and
// the entries above it open. The sidebar is shared (see sidebars): only
// the entries on the way to the page are copied.
func marked(navs []view.Nav, href string) ([]view.Nav, bool) {
	if href == "" {
		return navs, false
	}
	for i := range navs {
		n := navs[i]
		kids, below := marked(n.Children, href)
		if hit := n.Href == href; hit || below {
			out := append([]view.Nav(nil), navs...)
			n.Current, n.Open, n.Children = hit, below, kids
			out[i] = n
			return out, true
		}
	}
	return navs, false
}
