package doclinks

import (
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Problem is a broken link, or a missing table of contents, of a page.
type Problem struct {
	Page    string // the page's path, slash-separated, from the root
	Line    int    // from 1; 0 for the page as a whole
	Message string
}

func (p Problem) String() string {
	if p.Line == 0 {
		return fmt.Sprintf("%s: %s", p.Page, p.Message)
	}
	return fmt.Sprintf("%s:%d: %s", p.Page, p.Line, p.Message)
}

// external tells a target that leaves the repository (a scheme such as
// https: or mailto:, or a scheme-relative //host/...).
var external = regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)`)

// Checker checks pages of one tree (the repository, or a test's map).
type Checker struct {
	FS      fs.FS
	anchors map[string]map[string]bool // page → its anchors, read once
}

// Links checks the links and images of one page (a slash-separated path
// in c.FS): each relative target exists, and each fragment names a
// heading of the page it points to when that page is Markdown.
func (c *Checker) Links(page string) ([]Problem, error) {
	text, err := fs.ReadFile(c.FS, page)
	if err != nil {
		return nil, err
	}
	var ps []Problem
	for _, l := range Links(string(text)) {
		if msg := c.target(page, l.Target); msg != "" {
			what := "link"
			if l.Image {
				what = "image"
			}
			ps = append(ps, Problem{Page: page, Line: l.Line, Message: fmt.Sprintf("%s %q: %s", what, l.Target, msg)})
		}
	}
	return ps, nil
}

// target checks one target of page; it returns what is wrong, or "".
func (c *Checker) target(page, target string) string {
	if target == "" {
		return "empty target"
	}
	if external.MatchString(target) {
		return ""
	}
	p, frag, _ := strings.Cut(target, "#")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	file := page
	if p != "" {
		unescaped, err := url.PathUnescape(p)
		if err != nil {
			return "not a valid path"
		}
		if strings.HasPrefix(unescaped, "/") {
			file = path.Clean(strings.TrimPrefix(unescaped, "/"))
		} else {
			file = path.Join(path.Dir(page), unescaped)
		}
		if file == ".." || strings.HasPrefix(file, "../") {
			return "leaves the repository"
		}
		if _, err := fs.Stat(c.FS, file); err != nil {
			return "no such file or directory: " + file
		}
	}
	if frag == "" || !strings.HasSuffix(strings.ToLower(file), ".md") {
		return ""
	}
	anchor, err := url.PathUnescape(frag)
	if err != nil {
		return "not a valid fragment"
	}
	as, err := c.pageAnchors(file)
	if err != nil {
		return err.Error()
	}
	if !as[anchor] {
		return fmt.Sprintf("%s has no heading with the anchor #%s", file, anchor)
	}
	return ""
}

func (c *Checker) pageAnchors(page string) (map[string]bool, error) {
	if as, ok := c.anchors[page]; ok {
		return as, nil
	}
	text, err := fs.ReadFile(c.FS, page)
	if err != nil {
		return nil, err
	}
	as := map[string]bool{}
	for _, a := range Anchors(string(text)) {
		as[a] = true
	}
	if c.anchors == nil {
		c.anchors = map[string]map[string]bool{}
	}
	c.anchors[page] = as
	return as, nil
}

// Contents checks that a page starts with its title (a first-level
// heading on its first line) and has a table of contents: before its first
// second-level heading, a link to each of its second-level headings.
func (c *Checker) Contents(page string) ([]Problem, error) {
	b, err := fs.ReadFile(c.FS, page)
	if err != nil {
		return nil, err
	}
	text := string(b)
	hs := Headings(text)
	anchors := Anchors(text)
	var ps []Problem
	if len(hs) == 0 || hs[0].Line != 1 || hs[0].Level != 1 {
		ps = append(ps, Problem{Page: page, Line: 1, Message: "the page does not start with its title (# Title)"})
	}
	first := 0
	for _, h := range hs {
		if h.Level == 2 {
			first = h.Line
			break
		}
	}
	if first == 0 {
		return append(ps, Problem{Page: page, Message: "no second-level headings, so no table of contents"}), nil
	}
	listed := map[string]bool{}
	for _, l := range Links(text) {
		if l.Line < first && strings.HasPrefix(l.Target, "#") {
			listed[strings.TrimPrefix(l.Target, "#")] = true
		}
	}
	for i, h := range hs {
		if h.Level == 2 && !listed[anchors[i]] {
			ps = append(ps, Problem{Page: page, Line: h.Line,
				Message: fmt.Sprintf("heading %q (#%s) is missing from the table of contents", h.Text, anchors[i])})
		}
	}
	return ps, nil
}
