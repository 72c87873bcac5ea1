package reader

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"

	"quire/ent"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/evaluate"
	"quire/reader/view"
)

// aiCrawlers are the user agents of the crawlers that gather text for AI
// models; a site whose agentsContext is excluded disallows them.
var aiCrawlers = []string{"GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "Claude-Web", "anthropic-ai",
	"Google-Extended", "Applebot-Extended", "CCBot", "PerplexityBot", "Bytespider", "cohere-ai", "Meta-ExternalAgent"}

// Limits of the files that list a whole site.
const (
	// maxSitemapURLs is the sitemap protocol's own limit.
	maxSitemapURLs = 50_000
	// maxLLMSPages bounds the pages llms.txt lists and llms-full.txt
	// holds; maxLLMSFullBytes the size of llms-full.txt.
	maxLLMSPages     = 5_000
	maxLLMSFullBytes = 8 << 20
)

// agentsAllowed reports whether the site serves its agents files (llms.txt,
// llms-full.txt and pages as Markdown).
func (s *visit) agentsAllowed() bool { return s.v.Site.AgentsContext != "excluded" }

// robots serves robots.txt: a public site may be crawled (and names its
// sitemap); the others may not.
func (s *visit) robots(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	if !s.agentsAllowed() {
		for _, ua := range aiCrawlers {
			fmt.Fprintf(&b, "User-agent: %s\nDisallow: /\n\n", ua)
		}
	}
	if s.indexed() {
		fmt.Fprintf(&b, "User-agent: *\nAllow: /\n\nSitemap: %s/sitemap.xml\n", s.req.base)
	} else {
		b.WriteString("User-agent: *\nDisallow: /\n")
	}
	respond(w, r, http.StatusOK, "text/plain; charset=utf-8", []byte(b.String()), s.public())
}

// listed is a page of the site as the files listing the whole site show
// it.
type listed struct {
	space string // the site space's title
	url   string
	page  *content.Page
}

// everyPage lists the pages of every site space the visitor is shown (not
// hidden ones, nor pages hidden or kept out of indexes when forRobots),
// at most max of them.
func (s *visit) everyPage(r *http.Request, max int, forRobots bool) ([]listed, error) {
	var out []listed
	seen := map[string]bool{}
	for _, ss := range s.v.Tree.SiteSpaces {
		if ss.Hidden || seen[ss.ID] || !s.shows(ss.Condition) {
			continue
		}
		seen[ss.ID] = true
		if s.hiddenSection(ss) {
			continue
		}
		sp, ok := s.v.Spaces[ss.SpaceID]
		base := s.urlOf(ss.ID)
		if !ok || base == "" {
			continue
		}
		rev, err := s.d.r.VisitContent(r.Context(), s.v, sp.ID)
		if err != nil {
			return nil, err
		}
		for _, p := range newTree(rev).order {
			if forRobots && (p.NoIndex || p.NoRobotsIndex) {
				continue
			}
			if len(out) >= max {
				return out, nil
			}
			out = append(out, listed{space: sp.Title, url: pageURL(base, p), page: p})
		}
	}
	return out, nil
}

// hiddenSection reports whether a site space's section is not shown to
// the visitor.
func (s *visit) hiddenSection(ss *ent.SiteSpace) bool {
	if ss.SectionID == nil {
		return false
	}
	for _, sec := range s.v.Tree.Sections {
		if sec.ID == *ss.SectionID {
			return !s.shows(sec.Condition)
		}
	}
	return true
}

// sitemap serves sitemap.xml, for public sites only.
func (s *visit) sitemap(w http.ResponseWriter, r *http.Request) {
	if s.v.Site.Visibility != "public" || s.req.shareKey != nil {
		s.notFound(w, r)
		return
	}
	pages, err := s.everyPage(r, maxSitemapURLs, true)
	if err != nil {
		s.d.fail(w, r, err)
		return
	}
	var b bytes.Buffer
	b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range pages {
		b.WriteString("<url><loc>")
		xml.EscapeText(&b, []byte(p.url)) //nolint:errcheck // a bytes.Buffer does not fail
		b.WriteString("</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	respond(w, r, http.StatusOK, "application/xml; charset=utf-8", b.Bytes(), s.public())
}

// llms serves llms.txt (the site's pages as a Markdown index) or
// llms-full.txt (every page's Markdown), unless the site excludes agents.
func (s *visit) llms(w http.ResponseWriter, r *http.Request, full bool) {
	if !s.agentsAllowed() {
		s.notFound(w, r)
		return
	}
	pages, err := s.everyPage(r, maxLLMSPages, false)
	if err != nil {
		s.d.fail(w, r, err)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(s.v.Site.Title))
	space := ""
	for _, p := range pages {
		if full {
			doc, err := s.d.r.VisitDocument(r.Context(), s.v, p.page)
			if err != nil {
				s.d.fail(w, r, err)
				return
			}
			md := s.pageMarkdown(p.page, doc, evaluate.Env{Page: p.page.Variables, Claims: s.claims})
			if b.Len()+len(md) > maxLLMSFullBytes {
				break
			}
			fmt.Fprintf(&b, "---\nurl: %s\n---\n\n%s\n\n", p.url+".md", md)
			continue
		}
		if p.space != space {
			space = p.space
			fmt.Fprintf(&b, "\n## %s\n\n", oneLine(space))
		}
		fmt.Fprintf(&b, "- [%s](%s)", oneLine(p.page.Title), p.url+".md")
		if d := oneLine(p.page.Description); d != "" {
			fmt.Fprintf(&b, ": %s", d)
		}
		b.WriteByte('\n')
	}
	respond(w, r, http.StatusOK, "text/markdown; charset=utf-8", []byte(b.String()), s.public())
}

// markdown serves a page as Markdown (its URL plus .md).
func (s *visit) markdown(w http.ResponseWriter, r *http.Request, pg *content.Page, doc *document.Document, env evaluate.Env) {
	if !s.agentsAllowed() {
		s.notFound(w, r)
		return
	}
	if !s.indexed() || pg.NoIndex || pg.NoRobotsIndex {
		w.Header().Set("X-Robots-Tag", "noindex")
	}
	respond(w, r, http.StatusOK, "text/markdown; charset=utf-8", []byte(s.pageMarkdown(pg, doc, env)), s.public())
}

// pageMarkdown is a page as Markdown: its title, description and content,
// with expressions and conditions decided for the visitor.
func (s *visit) pageMarkdown(pg *content.Page, doc *document.Document, env evaluate.Env) string {
	if ev, err := evaluate.Document(doc, env, evaluate.All); err == nil {
		doc = ev
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(pg.Title))
	if d := oneLine(pg.Description); d != "" {
		fmt.Fprintf(&b, "%s\n\n", d)
	}
	b.WriteString(document.ToMarkdown(doc))
	return b.String()
}

// oneLine is text for a Markdown line: line breaks as spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// theme serves the stylesheet of a site space's customization. Pages link
// it with the hash of its content (?v=): that one is cached for good; any
// other answer, for a short while.
func (s *visit) theme(w http.ResponseWriter, r *http.Request, siteSpaceID string) {
	var ss *ent.SiteSpace
	for _, c := range s.v.Tree.SiteSpaces {
		if c.ID == siteSpaceID {
			ss = c
		}
	}
	if ss == nil {
		s.notFound(w, r)
		return
	}
	set, err := s.v.Settings(r.Context(), ss)
	if err != nil {
		s.d.fail(w, r, err)
		return
	}
	css := view.ThemeCSS(&set)
	if r.URL.Query().Get("v") == view.ThemeName(css) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(css) //nolint:errcheck // the reader went away
		}
		return
	}
	respond(w, r, http.StatusOK, "text/css; charset=utf-8", css, s.public())
}
