package gitsync

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"quire/internal/content"
	"quire/internal/document"
)

// exporter writes a revision as the files an import reads back: the first
// page as the readme, a Markdown file per document page at its path (a
// page with children as <path>/README.md), the files under
// .gitbook/assets, and a SUMMARY.md listing the tree. Links to pages and
// files of the revision become relative Markdown links.
type exporter struct {
	spaceID         string
	readme, summary string
	pages           map[string]string // page id → file path, relative to the content root
	assets          map[string]string // file id → file path
	includes        map[string]string // reusable content id → file path
	out             map[string][]byte
}

// export returns the files of rev, by path relative to the content root.
// docs holds the documents by page version, data the files' bytes by id,
// reusables the reusable contents' documents by hash.
func export(spaceID string, rev *content.Revision, docs map[string]*document.Document, data map[string][]byte,
	reusables map[string]*document.Document, readme, summary string) (map[string][]byte, error) {
	x := &exporter{spaceID: spaceID, readme: readme, summary: summary, pages: map[string]string{},
		assets: map[string]string{}, includes: map[string]string{}, out: map[string][]byte{}}
	taken := map[string]bool{strings.ToLower(summary): true}
	claim := func(p string) string {
		base, ext := strings.TrimSuffix(p, path.Ext(p)), path.Ext(p)
		for n := 2; taken[strings.ToLower(p)]; n++ {
			p = base + "-" + strconv.Itoa(n) + ext
		}
		taken[strings.ToLower(p)] = true
		return p
	}
	first := true
	content.Walk(rev.Pages, func(p *content.Page) {
		if p.Type != content.TypeDocument {
			return
		}
		switch {
		case first && p.Parent == "":
			x.pages[p.ID] = claim(readme)
			first = false
		case len(p.Pages) > 0:
			x.pages[p.ID] = claim(p.Path + "/README.md")
		default:
			x.pages[p.ID] = claim(p.Path + ".md")
		}
	})
	for _, f := range rev.Files {
		x.assets[f.ID] = claim(assetsDir + "/" + assetName(f.Name))
	}
	x.includeNames(rev.ReusableContents, claim)
	for _, r := range rev.ReusableContents {
		b, err := includeFile(r.Title, reusables[r.DocumentHash])
		if err != nil {
			return nil, fmt.Errorf("reusable content %s: %w", r.ID, err)
		}
		x.out[x.includes[r.ID]] = b
	}
	var err error
	content.Walk(rev.Pages, func(p *content.Page) {
		if err != nil || p.Type != content.TypeDocument {
			return
		}
		var md string
		if md, err = x.page(p, docs[p.Version]); err == nil {
			x.out[x.pages[p.ID]] = []byte(md)
		}
	})
	if err != nil {
		return nil, err
	}
	for _, f := range rev.Files {
		x.out[x.assets[f.ID]] = data[f.ID]
	}
	x.out[summary] = []byte(x.summaryFile(rev.Pages))
	return x.out, nil
}

// assetName makes a file name safe as one path segment.
func assetName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, name)
	if name == "" || strings.Trim(name, ".") == "" {
		name = "_" + name
	}
	return name
}

// page writes one page: front matter, its title as a heading, its content.
func (x *exporter) page(p *content.Page, doc *document.Document) (string, error) {
	var b strings.Builder
	fm := map[string]any{}
	if p.Description != "" {
		fm["description"] = p.Description
	}
	if p.Emoji != "" {
		fm["emoji"] = p.Emoji
	}
	if p.Hidden {
		fm["hidden"] = true
	}
	x.pageMatter(fm, p, path.Dir(x.pages[p.ID]))
	if len(fm) > 0 {
		y, err := yaml.Marshal(fm)
		if err != nil {
			return "", fmt.Errorf("front matter of page %s: %w", p.ID, err)
		}
		b.WriteString("---\n")
		b.Write(y)
		b.WriteString("---\n\n")
	}
	b.WriteString(document.ToMarkdown(&document.Document{Nodes: []document.Node{
		document.NewBlock(document.BlockHeading1, nil, document.NewText(p.Title)),
	}}))
	b.WriteString("\n")
	if doc != nil && len(doc.Nodes) > 0 {
		from := path.Dir(x.pages[p.ID])
		doc, lines := x.markIncludes(doc, from)
		body := document.ToMarkdown(document.MapRefs(doc, func(r document.ContentRef) (document.ContentRef, bool) {
			u, ok := x.link(r, from)
			if !ok {
				return r, false
			}
			return document.ContentRef{Kind: document.RefURL, URL: u}, true
		}))
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(unmarkIncludes(body, lines), "\n"))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// link returns the relative path, from the directory from, that stands
// for a reference to a page or file of the revision.
func (x *exporter) link(r document.ContentRef, from string) (string, bool) {
	if r.Space != "" && r.Space != x.spaceID {
		return "", false
	}
	switch r.Kind {
	case document.RefPage, document.RefAnchor:
		if r.Page == "" {
			return "", false
		}
		target, ok := x.pages[r.Page]
		if !ok {
			return "", false
		}
		u := relPath(from, target)
		if r.Kind == document.RefAnchor {
			u += "#" + r.Anchor
		}
		return u, true
	case document.RefFile:
		target, ok := x.assets[r.File]
		if !ok {
			return "", false
		}
		return relPath(from, target), true
	}
	return "", false
}

// summaryFile lists the tree: groups as headings, pages as nested links.
func (x *exporter) summaryFile(pages []*content.Page) string {
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	from := path.Dir(x.summary)
	var items func(list []*content.Page, depth int)
	items = func(list []*content.Page, depth int) {
		for _, p := range list {
			if p.Type == content.TypeGroup {
				b.WriteString("\n## " + escapeTitle(p.Title) + "\n\n")
				items(p.Pages, 0)
				continue
			}
			dest := ""
			switch p.Type {
			case content.TypeDocument:
				dest = relPath(from, x.pages[p.ID])
			case content.TypeLink:
				if p.Link == nil {
					continue
				}
				if u, ok := x.link(*p.Link, from); ok {
					dest = u
				} else {
					dest = p.Link.MarkdownURL()
				}
			}
			b.WriteString(strings.Repeat("  ", depth) + "* [" + escapeTitle(p.Title) + "](" + summaryDest(dest) + ")\n")
			items(p.Pages, depth+1)
		}
	}
	items(pages, 0)
	return b.String()
}

// escapeTitle escapes what would end a link's text or read as emphasis.
func escapeTitle(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `*`, `\*`, "`", "\\`", "\n", " ")
	return r.Replace(s)
}

// summaryDest writes a link destination, in angle brackets when it holds
// spaces or parentheses.
func summaryDest(d string) string {
	if strings.ContainsAny(d, " ()<>\t") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(d) + ">"
	}
	return d
}

// relPath is the path of target relative to the directory from (both
// relative to the same root, "." for the root).
func relPath(from, target string) string {
	if from == "." {
		from = ""
	}
	var fp []string
	if from != "" {
		fp = strings.Split(from, "/")
	}
	tp := strings.Split(target, "/")
	i := 0
	for i < len(fp) && i < len(tp)-1 && fp[i] == tp[i] {
		i++
	}
	var parts []string
	for range fp[i:] {
		parts = append(parts, "..")
	}
	return strings.Join(append(parts, tp[i:]...), "/")
}
