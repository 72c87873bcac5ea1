package gitsync

import (
	"encoding/json"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/textcut"
	"quire/internal/types"
)

// The front matter keys of a page's properties beyond description, emoji
// and hidden, named as the page's fields are in the API.
const (
	fmLinkTitle     = "linkTitle"
	fmIcon          = "icon"
	fmNoIndex       = "noIndex"
	fmNoRobotsIndex = "noRobotsIndex"
	fmMetaLinks     = "metaLinks"
	fmComputed      = "computed"
)

// metaLinksMatter is how meta links are written in front matter: each a
// URL, or the relative path of a page's file, as links are in Markdown.
type metaLinksMatter struct {
	Canonical  string   `yaml:"canonical,omitempty"`
	Alternates []string `yaml:"alternates,omitempty"`
}

// pageMatter adds the page's link title, icon, indexing, meta links and
// computed definition to its front matter fm; from is the directory of
// the page's file.
func (x *exporter) pageMatter(fm map[string]any, p *content.Page, from string) {
	if p.LinkTitle != "" {
		fm[fmLinkTitle] = p.LinkTitle
	}
	if p.Icon != "" {
		fm[fmIcon] = p.Icon
	}
	if p.NoIndex {
		fm[fmNoIndex] = true
	}
	if p.NoRobotsIndex {
		fm[fmNoRobotsIndex] = true
	}
	if ml := p.MetaLinks; !ml.Empty() {
		var m metaLinksMatter
		if ml.Canonical != nil {
			m.Canonical = x.metaLink(*ml.Canonical, from)
		}
		for _, a := range ml.Alternates {
			if u := x.metaLink(a, from); u != "" {
				m.Alternates = append(m.Alternates, u)
			}
		}
		if m.Canonical != "" || len(m.Alternates) > 0 {
			fm[fmMetaLinks] = m
		}
	}
	if p.Computed != nil {
		// Through JSON, so the keys are the API's (yaml would lower-case
		// the struct's field names).
		var m map[string]any
		if b, err := json.Marshal(p.Computed); err == nil && json.Unmarshal(b, &m) == nil {
			fm[fmComputed] = m
		}
	}
}

// metaLink writes one meta link: its URL, or the path of the page it
// names; "" for a page of another space, which a repository cannot name.
func (x *exporter) metaLink(r document.ContentRef, from string) string {
	if r.Kind == document.RefURL {
		return r.URL
	}
	u, _ := x.link(r, from)
	return u
}

// pageMatter is what the importer reads of the front matter keys above.
type pageMatter struct {
	LinkTitle     string           `yaml:"linkTitle"`
	Icon          string           `yaml:"icon"`
	NoIndex       bool             `yaml:"noIndex"`
	NoRobotsIndex bool             `yaml:"noRobotsIndex"`
	MetaLinks     *metaLinksMatter `yaml:"metaLinks"`
	Computed      map[string]any   `yaml:"computed"`
}

// applyMatter sets a page's properties from its front matter; dir is the
// directory of the page's file. Text is cut to the content limits, links
// that name neither a URL nor a page of the project are dropped, so that
// front matter written by hand does not fail the import.
func (im *importer) applyMatter(tp *content.TreePage, m pageMatter, dir string) {
	tp.LinkTitle = textcut.Runes(strings.TrimSpace(m.LinkTitle), content.MaxLinkTitle)
	tp.Icon = textcut.Runes(strings.TrimSpace(m.Icon), content.MaxIcon)
	tp.NoIndex, tp.NoRobotsIndex = m.NoIndex, m.NoRobotsIndex
	if ml := m.MetaLinks; ml != nil {
		out := &types.PageMetaLinks{}
		if r, ok := im.metaLink(ml.Canonical, dir); ok {
			out.Canonical = &r
		}
		for _, a := range ml.Alternates {
			if r, ok := im.metaLink(a, dir); ok && len(out.Alternates) < content.MaxMetaLinkAlternates {
				out.Alternates = append(out.Alternates, r)
			}
		}
		if !out.Empty() {
			tp.MetaLinks = out
		}
	}
	if m.Computed != nil {
		var c types.PageComputed
		if b, err := json.Marshal(m.Computed); err == nil && json.Unmarshal(b, &c) == nil {
			tp.Computed = &c
		}
	}
}

// metaLink reads one meta link of front matter.
func (im *importer) metaLink(dest, dir string) (document.ContentRef, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" {
		return document.ContentRef{}, false
	}
	if strings.HasPrefix(dest, "http://") || strings.HasPrefix(dest, "https://") {
		return document.ContentRef{Kind: document.RefURL, URL: dest}, true
	}
	r, ok := im.resolver(dir)(dest)
	if !ok || r.Kind != document.RefPage {
		return document.ContentRef{}, false
	}
	return r, true
}
