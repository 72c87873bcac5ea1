package reader

import (
	"sort"
	"strings"
	"sync"

	"quire/ent"
	"quire/internal/content"
	"quire/internal/customization"
	"quire/internal/document"
	"quire/internal/sites"
	"quire/reader/view"
)

// frame is a page of the site with everything around the content: the
// site's header, tabs, variants, sidebar and footer, with the settings of
// the site space shown (the site's own when pl is nil).
func (s *visit) frame(pl *place, t *tree) *view.Page {
	st := s.v.Site
	p := &view.Page{AssetBase: AssetsPrefix, Lang: "en", Title: st.Title}
	if pl == nil {
		pl, _ = s.locate(nil)
	}
	var set customization.Settings
	if pl != nil {
		set, _ = s.v.Settings(s.ctx(), pl.ss)
	} else {
		set = *defaultSettings()
	}
	p.Settings = &set
	if set.Internationalization.Locale != "" {
		p.Lang = string(set.Internationalization.Locale)
	}
	if set.Title != "" {
		p.Title = set.Title
	}
	p.Site = view.Site{
		Title: p.Title, HomeURL: s.req.base, SearchURL: s.req.base + "/~search",
		Copyright: set.Footer.Copyright, PrivacyPolicy: urlOnly(set.PrivacyPolicy.URL),
		ThemeToggle: set.Themes.Toggeable, DefaultTheme: string(set.Themes.Default),
	}
	// A reader who switched the theme has it from the first paint: the
	// script keeps the choice in a cookie as well.
	if set.Themes.Toggeable && s.chosenTheme != "" {
		p.Site.DefaultTheme = s.chosenTheme
	}
	if l := set.Header.Logo; l != nil {
		p.Site.LogoLight, p.Site.LogoDark = urlOnly(l.Light), urlOnly(l.Dark)
	}
	if ic := set.Favicon.Icon; ic != nil {
		p.Favicon = urlOnly(ic.Light)
	}
	p.FaviconEmoji = set.Favicon.Emoji
	p.SocialImage = urlOnly(set.SocialPreview.URL)
	var lk *links
	if pl != nil && t == nil {
		if rev, err := s.d.r.VisitContent(s.ctx(), s.v, pl.space.ID); err == nil {
			t = newTree(rev)
		}
	}
	if pl != nil && t != nil {
		lk = s.links(pl, t)
	}
	ref := func(r customization.ContentRef) string {
		if lk == nil {
			if r.Kind == "url" {
				u, _ := safeURL(r.URL)
				return u
			}
			return ""
		}
		u, _ := lk.Ref(docRef(r))
		return u
	}
	for _, it := range set.Header.Links {
		if it.Condition != "" && !s.shows(&it.Condition) {
			continue
		}
		l := view.Link{Title: it.Title, Style: string(it.Style)}
		if it.To != nil {
			l.Href = ref(*it.To)
		}
		for _, c := range it.Links {
			if href := ref(c.To); href != "" {
				l.Children = append(l.Children, view.Link{Title: c.Title, Href: href})
			}
		}
		if l.Href != "" || len(l.Children) > 0 {
			p.Site.HeaderLinks = append(p.Site.HeaderLinks, l)
		}
	}
	if a := set.Announcement; a != nil && a.Enabled && a.Message != "" {
		ann := &view.Announcement{Message: a.Message, Style: string(a.Style)}
		if a.Link != nil {
			if href := ref(a.Link.To); href != "" {
				ann.Link = &view.Link{Title: a.Link.Title, Href: href}
			}
		}
		p.Site.Announcement = ann
	}
	if s.banner != "" {
		p.Site.Announcement = &view.Announcement{Message: s.banner, Style: "info"}
	}
	for _, g := range set.Footer.Groups {
		fg := view.LinkGroup{Title: g.Title}
		for _, c := range g.Links {
			if href := ref(c.To); href != "" {
				fg.Links = append(fg.Links, view.Link{Title: c.Title, Href: href})
			}
		}
		p.Site.FooterGroups = append(p.Site.FooterGroups, fg)
	}
	if !s.indexed() {
		p.Robots = "noindex"
	}
	if pl == nil {
		return p
	}
	css := view.ThemeCSS(p.Settings)
	p.ThemeHref = s.req.base + "/~theme/" + pl.ss.ID + ".css?v=" + view.ThemeName(css)
	p.Sections = s.tabs(s.v.Tree.Root, pl)
	if sss := s.variantsOf(pl); len(sss) > 1 {
		for _, ss := range sss {
			title := ss.Path
			if sp := s.v.Spaces[ss.SpaceID]; sp != nil && sp.Title != "" {
				title = sp.Title
			}
			p.Variants = append(p.Variants, view.Tab{Title: title, Href: s.urlOf(ss.ID), Current: ss.ID == pl.ss.ID})
		}
	}
	if t != nil {
		p.Sidebar = s.d.sidebars.get(s.sidebarKey(pl, t), func() []view.Nav { return s.sidebar(t.rev.Pages, pl, lk) })
	}
	return p
}

// variantsOf are the site spaces beside the current one: those of its
// section (or of the site's root) that are not hidden.
func (s *visit) variantsOf(pl *place) []*ent.SiteSpace {
	var sectionID *string
	if pl.section != nil {
		sectionID = &pl.section.ID
	}
	var out []*ent.SiteSpace
	for _, ss := range s.siteSpacesOf(sectionID) {
		if !ss.Hidden || ss.ID == pl.ss.ID {
			out = append(out, ss)
		}
	}
	return out
}

// tabs are the site's sections and groups the visitor is shown.
func (s *visit) tabs(items []sites.Item, pl *place) []view.Tab {
	var out []view.Tab
	for _, it := range items {
		switch {
		case it.Section != nil:
			if !s.shows(it.Section.Condition) {
				continue
			}
			u := s.urlOf(it.Section.ID)
			if u == "" {
				continue
			}
			tab := view.Tab{Title: it.Section.Title, Href: u,
				Current: pl.section != nil && pl.section.ID == it.Section.ID}
			if it.Section.Icon != nil {
				tab.Icon = *it.Section.Icon
			}
			out = append(out, tab)
		case it.Group != nil:
			tab := view.Tab{Title: it.Group.Title, Children: s.tabs(it.Children, pl)}
			if it.Group.Icon != nil {
				tab.Icon = *it.Group.Icon
			}
			for _, c := range tab.Children {
				tab.Current = tab.Current || c.Current
			}
			if len(tab.Children) > 0 {
				out = append(out, tab)
			}
		}
	}
	return out
}

// sidebarKey names what a sidebar depends on: the site space's address and
// the revisions of the site's spaces (link pages may point into any of
// them).
func (s *visit) sidebarKey(pl *place, t *tree) string {
	ids := make([]string, 0, len(s.v.Spaces))
	for _, sp := range s.v.Spaces {
		ids = append(ids, sp.RevisionID)
	}
	sort.Strings(ids)
	return pl.url + "\x00" + t.rev.ID + "\x00" + strings.Join(ids, ",")
}

// sidebar is the space's page tree, hidden pages left out.
func (s *visit) sidebar(pages []*content.Page, pl *place, lk *links) []view.Nav {
	var out []view.Nav
	for _, p := range pages {
		if p.Hidden {
			continue
		}
		n := view.Nav{Title: navTitle(p), Icon: p.Icon}
		if n.Icon == "" {
			n.Icon = p.Emoji
		}
		switch p.Type {
		case content.TypeDocument:
			n.Href = pageURL(pl.url, p)
		case content.TypeLink:
			if p.Link == nil {
				continue
			}
			href, ok := lk.Ref(*p.Link)
			if !ok {
				continue
			}
			n.Href, n.External = href, p.Link.Kind == document.RefURL
		}
		n.Children = s.sidebar(p.Pages, pl, lk)
		out = append(out, n)
	}
	return out
}

// docRef converts a customization's content reference.
func docRef(r customization.ContentRef) document.ContentRef {
	return document.ContentRef{Kind: string(r.Kind), File: r.File, URL: r.URL, Page: r.Page, Anchor: r.Anchor,
		Space: r.Space, User: r.User, Collection: r.Collection, ReusableContent: r.ReusableContent, Spec: r.Spec}
}

// urlOnly keeps an http(s) URL from settings, "" for anything else.
func urlOnly(raw string) string {
	if raw == "" {
		return ""
	}
	u, ok := safeURL(raw)
	if !ok || u[:4] != "http" {
		return ""
	}
	return u
}

// urlOf is the URL of an item of the site as the reader reached it: the
// site's published URL for it, with the site's base replaced by the way
// the reader came (a share key, plain HTTP to a custom hostname); "" when
// the site hands out none.
func (s *visit) urlOf(id string) string {
	u := s.v.URLs[id]
	if u == "" {
		return ""
	}
	base := s.v.URLs[s.v.Site.ID]
	if len(u) >= len(base) && u[:len(base)] == base {
		return s.req.base + u[len(base):]
	}
	return u
}

// maxSidebars bounds the sidebars kept.
const maxSidebars = 512

// sidebars keeps the page trees built for the sidebar, by sidebarKey: a
// tree is built from revisions, which never change, so one built once is
// right for every later view. They are shared: marked copies what it
// marks.
type sidebars struct {
	mu sync.Mutex
	m  map[string][]view.Nav
}

func (c *sidebars) get(key string, build func() []view.Nav) []view.Nav {
	c.mu.Lock()
	navs, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return navs
	}
	navs = build()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxSidebars {
		c.m = map[string][]view.Nav{}
	}
	c.m[key] = navs
	c.mu.Unlock()
	return navs
}
