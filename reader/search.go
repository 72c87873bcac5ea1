package reader

import (
	"encoding/json"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"quire/internal/apierr"
	"quire/internal/search"
	"quire/reader/view"
)

// maxSearchResults is how many pages a search shows.
const maxSearchResults = 20

// search serves the site's search page (?q=), or its results as JSON
// for search as you type (&format=json).
func (s *visit) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	res := &view.Search{Query: q}
	if q != "" {
		hits, err := s.d.r.VisitSearch(r.Context(), s.v, q, maxSearchResults)
		switch {
		case apierr.CodeOf(err) == apierr.BadRequest:
			res.Error = "This search could not be run: " + err.Error()
		case err != nil:
			s.d.fail(w, r, err)
			return
		default:
			res.Results = s.results(hits, q)
		}
	}
	if r.URL.Query().Get("format") == "json" {
		s.searchJSON(w, r, res)
		return
	}
	p := s.frame(nil, nil)
	p.Kind, p.Status, p.Search = view.KindSearch, http.StatusOK, res
	p.Title = "Search | " + p.Site.Title
	if q != "" {
		p.Title = q + " | " + p.Title
	}
	p.Robots = "noindex"
	p.Layout = view.Layout{}
	respondHTML(w, r, p, s.public())
}

// results turns search hits into links to the pages in the site space
// that first serves their space.
func (s *visit) results(hits []*search.PageHit, q string) []view.SearchResult {
	several := len(s.v.Spaces) > 1
	out := make([]view.SearchResult, 0, len(hits))
	for _, h := range hits {
		base := ""
		for _, ss := range s.v.Tree.SiteSpaces {
			if ss.SpaceID == h.Space.ID && s.shows(ss.Condition) && !s.hiddenSection(ss) {
				if base = s.urlOf(ss.ID); base != "" {
					break
				}
			}
		}
		if base == "" {
			continue
		}
		href := base
		for _, seg := range strings.Split(h.Path, "/") {
			if seg != "" {
				href += "/" + url.PathEscape(seg)
			}
		}
		res := view.SearchResult{Title: h.Title, Href: href}
		if len(h.Sections) > 0 {
			sec := h.Sections[0]
			if sec.Anchor != "" {
				res.Href += "#" + url.PathEscape(sec.Anchor)
			}
			res.Excerpt = highlight(sec.Body, q)
		}
		if several {
			res.Space = h.Space.Title
		}
		out = append(out, res)
	}
	return out
}

// highlight escapes an excerpt and marks the words of the query in it.
func highlight(text, q string) template.HTML {
	words := strings.Fields(strings.ToLower(q))
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		// Case folding changed the byte length: mark nothing rather than
		// mark the wrong bytes.
		return template.HTML(html.EscapeString(text))
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		n := 0
		for _, w := range words {
			if len(w) > n && strings.HasPrefix(lower[i:], w) {
				n = len(w)
			}
		}
		if n > 0 {
			b.WriteString("<mark>" + html.EscapeString(text[i:i+n]) + "</mark>")
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		b.WriteString(html.EscapeString(text[i : i+size]))
		i += size
	}
	return template.HTML(b.String())
}

// searchJSON answers search as you type: results with their text only.
func (s *visit) searchJSON(w http.ResponseWriter, r *http.Request, res *view.Search) {
	type result struct {
		Title   string `json:"title"`
		Href    string `json:"href"`
		Space   string `json:"space,omitempty"`
		Excerpt string `json:"excerpt,omitempty"`
	}
	out := struct {
		Results []result `json:"results"`
		Error   string   `json:"error,omitempty"`
	}{Results: []result{}, Error: res.Error}
	for _, h := range res.Results {
		out.Results = append(out.Results, result{Title: h.Title, Href: h.Href, Space: h.Space, Excerpt: plain(h.Excerpt)})
	}
	body, _ := json.Marshal(out)
	status := http.StatusOK
	if res.Error != "" {
		status = http.StatusBadRequest
	}
	respond(w, r, status, "application/json", body, s.public())
}

// plain is the text of a highlighted excerpt.
func plain(h template.HTML) string {
	s := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(string(h))
	return html.UnescapeString(s)
}
