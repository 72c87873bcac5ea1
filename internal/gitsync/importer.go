package gitsync

import (
	"net/url"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/textcut"
	"quire/internal/types"
)

// assetsDir is where files live in a project, relative to its root.
const assetsDir = ".gitbook/assets"

// importer turns a project into a tree of pages and files. Pages are keyed
// by the path of their Markdown file (relative to the content root), files
// by their path, so that links between them resolve once they have ids.
type importer struct {
	p   *project
	lim Limits
	// firstSlug is the slug of the space's current first page, which the
	// readme (the first page by definition) keeps.
	firstSlug string
	// pages by key, and the files they come from.
	pages   map[string]*content.TreePage
	sources map[*content.TreePage]*repoFile
	files   map[string]*content.TreeFile
	order   []string // file keys in the order they were met
	// reusables holds the keys of the project's reusable contents.
	reusables map[string]bool
}

func newImporter(p *project, lim Limits, firstSlug string) *importer {
	return &importer{p: p, lim: lim, firstSlug: firstSlug, pages: map[string]*content.TreePage{},
		sources: map[*content.TreePage]*repoFile{}, files: map[string]*content.TreeFile{}}
}

// tree builds the whole tree: the structure from SUMMARY.md (or the
// directories), then every page's content, then the files.
func (im *importer) tree() (*content.Tree, error) {
	var roots []*content.TreePage
	reusables, err := im.includes()
	if err != nil {
		return nil, err
	}
	if f := im.p.find(im.p.summary); f != nil {
		raw, rerr := im.p.read(f, document.MaxMarkdownSize)
		if rerr != nil {
			return nil, contentErr("%s: %v", f.repoPath, rerr)
		}
		entries, perr := parseSummary(string(raw), content.MaxTreePages)
		if perr != nil {
			return nil, perr
		}
		if roots, err = im.fromSummary(entries, path.Dir(f.path), true); err != nil {
			return nil, err
		}
		if r := im.p.find(im.p.readme); r != nil && im.pages[r.path] == nil {
			roots = append([]*content.TreePage{im.page(r, "", true)}, roots...)
		}
	} else {
		roots = im.fromDirs()
	}
	for _, tp := range im.ordered(roots) {
		if f := im.sources[tp]; f != nil {
			if err := im.convert(tp, f); err != nil {
				return nil, err
			}
		} else if tp.Type == content.TypeDocument && tp.Title == "" {
			tp.Title = "Untitled"
		}
	}
	for _, k := range im.p.paths {
		if strings.HasPrefix(k, assetsDir+"/") {
			im.file(k)
		}
	}
	tree := &content.Tree{Pages: roots, Reusables: reusables, ReplaceReusables: true}
	for _, k := range im.order {
		f := im.files[k]
		rf := im.p.files[k]
		data, err := im.p.read(rf, min(im.lim.ObjectBytes, content.MaxFileSize))
		if err != nil {
			return nil, contentErr("%s: %v", rf.repoPath, err)
		}
		f.Data = data
		tree.Files = append(tree.Files, f)
	}
	return tree, nil
}

// ordered lists a tree's pages depth first.
func (im *importer) ordered(pages []*content.TreePage) []*content.TreePage {
	var out []*content.TreePage
	var walk func(list []*content.TreePage)
	walk = func(list []*content.TreePage) {
		for _, tp := range list {
			out = append(out, tp)
			walk(tp.Pages)
		}
	}
	walk(pages)
	return out
}

// page makes the page of a Markdown file; its title and content come when
// it is converted.
func (im *importer) page(f *repoFile, title string, first bool) *content.TreePage {
	tp := &content.TreePage{Key: f.path, Title: title, Git: &types.GitBlob{OID: f.hash.String(), Path: f.repoPath}}
	switch {
	case f.path == im.p.readme || strings.EqualFold(f.path, im.p.readme):
		if first {
			tp.Slug = im.firstSlug
		}
	case strings.EqualFold(path.Base(f.path), "README.md"):
		tp.Slug = content.Slugify(path.Base(path.Dir(f.path)))
	default:
		tp.Slug = content.Slugify(strings.TrimSuffix(path.Base(f.path), path.Ext(f.path)))
	}
	im.pages[f.path] = tp
	im.sources[tp] = f
	return tp
}

// fromSummary makes pages of SUMMARY.md's entries; dir is the summary's
// directory (links are relative to it).
func (im *importer) fromSummary(entries []*entry, dir string, root bool) ([]*content.TreePage, error) {
	out := make([]*content.TreePage, 0, len(entries))
	for i, e := range entries {
		var tp *content.TreePage
		switch {
		case e.group:
			tp = &content.TreePage{Type: content.TypeGroup, Title: e.title}
			if tp.Title == "" {
				tp.Title = "Untitled"
			}
		case e.dest == "":
			tp = &content.TreePage{Title: e.title}
		default:
			var err error
			if tp, err = im.entryPage(e, dir, root && i == 0); err != nil {
				return nil, err
			}
		}
		kids, err := im.fromSummary(e.kids, dir, false)
		if err != nil {
			return nil, err
		}
		if tp.Type == content.TypeLink && len(kids) > 0 {
			// A link cannot hold pages: they follow it instead.
			out = append(out, tp)
			out = append(out, kids...)
			continue
		}
		tp.Pages = kids
		if e.group {
			tp.Slug = commonDir(im, kids)
		}
		out = append(out, tp)
	}
	return out, nil
}

// entryPage makes the page of a SUMMARY.md link.
func (im *importer) entryPage(e *entry, dir string, first bool) (*content.TreePage, error) {
	if isAbsolute(e.dest) {
		ref := document.RefFromURL(e.dest)
		return &content.TreePage{Type: content.TypeLink, Title: orURL(e.title, e.dest), Link: &ref}, nil
	}
	target, _, ok := resolvePath(e.dest, dir)
	if !ok {
		return nil, contentErr("SUMMARY.md line %d: %q points outside the content root", e.line, e.dest)
	}
	f := im.p.find(target)
	if f == nil && !isMarkdown(target) {
		f = im.p.find(path.Join(target, "README.md"))
	}
	switch {
	case f == nil && isMarkdown(target):
		// Listed but missing: the page is there, empty.
		return &content.TreePage{Title: orURL(e.title, target)}, nil
	case f == nil:
		return &content.TreePage{Type: content.TypeLink, Title: orURL(e.title, e.dest),
			Link: &document.ContentRef{Kind: document.RefURL, URL: e.dest}}, nil
	case !isMarkdown(f.path):
		im.file(f.path)
		return &content.TreePage{Type: content.TypeLink, Title: orURL(e.title, f.path),
			Link: &document.ContentRef{Kind: document.RefFile, File: f.path}}, nil
	case im.pages[f.path] != nil:
		// Listed twice: the second is a link to the first.
		return &content.TreePage{Type: content.TypeLink, Title: orURL(e.title, f.path),
			Link: &document.ContentRef{Kind: document.RefPage, Page: f.path}}, nil
	}
	return im.page(f, e.title, first), nil
}

// fromDirs makes pages of the directory layout: the readme first, then
// each directory's Markdown files and subdirectories in name order, a
// subdirectory's README.md being its page.
func (im *importer) fromDirs() []*content.TreePage {
	var roots []*content.TreePage
	if r := im.p.find(im.p.readme); r != nil {
		roots = append(roots, im.page(r, "", true))
	}
	// Directories holding Markdown, with what each holds directly.
	kids := map[string][]string{}
	seen := map[string]bool{}
	for _, k := range im.p.paths {
		if !isMarkdown(k) || hidden(k) || im.pages[k] != nil || k == im.p.summary {
			continue
		}
		child := k
		for d := path.Dir(k); ; d = path.Dir(d) {
			if d == "." {
				d = ""
			}
			if !seen[child] {
				seen[child] = true
				kids[d] = append(kids[d], child)
			}
			if d == "" {
				break
			}
			child = d
		}
	}
	var walk func(dir string) []*content.TreePage
	walk = func(dir string) []*content.TreePage {
		names := kids[dir]
		sort.Strings(names)
		var out []*content.TreePage
		for _, k := range names {
			if dir != "" && strings.EqualFold(k, path.Join(dir, "README.md")) {
				continue // the directory's own page
			}
			var tp *content.TreePage
			if f := im.p.files[k]; f != nil {
				tp = im.page(f, "", false)
			} else if f := im.p.find(path.Join(k, "README.md")); f != nil {
				tp = im.page(f, "", false)
				tp.Pages = walk(k)
			} else {
				base := path.Base(k)
				tp = &content.TreePage{Title: humanize(base), Slug: content.Slugify(base), Pages: walk(k)}
			}
			out = append(out, tp)
		}
		return out
	}
	return append(roots, walk("")...)
}

// convert reads a page's Markdown: front matter (description, emoji,
// hidden and the keys of pageMatter), the title (the summary's, else the first heading's, else the
// file name's) and the document, its relative links made references.
func (im *importer) convert(tp *content.TreePage, f *repoFile) error {
	raw, err := im.p.read(f, document.MaxMarkdownSize)
	if err != nil {
		return contentErr("%s: %v", f.repoPath, err)
	}
	md := string(raw)
	fm := frontMatter(md)
	tp.Description = textcut.Runes(strings.TrimSpace(fm.Description), content.MaxDescription)
	tp.Emoji = textcut.Runes(strings.TrimSpace(fm.Emoji), content.MaxEmoji)
	tp.Hidden = fm.Hidden
	im.applyMatter(tp, fm.pageMatter, path.Dir(f.path))
	doc, err := document.FromMarkdownWith(md, document.MarkdownOptions{Resolve: im.resolver(path.Dir(f.path))})
	if err != nil {
		msg := err.Error()
		if ae, ok := apierr.As(err); ok {
			msg = ae.Message
		}
		return contentErr("%s: %s", f.repoPath, msg)
	}
	if len(doc.Nodes) > 0 && doc.Nodes[0].Type == document.BlockHeading1 {
		h1 := plainTitle((&document.Document{Nodes: doc.Nodes[:1]}).Text())
		if tp.Title == "" {
			tp.Title = h1
		}
		if strings.EqualFold(h1, tp.Title) {
			doc.Nodes = doc.Nodes[1:]
		}
	}
	im.embed(doc, path.Dir(f.path))
	if tp.Title == "" {
		base := strings.TrimSuffix(path.Base(f.path), path.Ext(f.path))
		if strings.EqualFold(base, "README") && path.Dir(f.path) != "." {
			base = path.Base(path.Dir(f.path))
		}
		tp.Title = humanize(base)
	}
	if tp.Computed == nil { // a computed page's content is generated, not read
		tp.Document = doc
	}
	return nil
}

// resolver reads the destinations of a page in dir: relative paths to the
// project's pages and files become references to them (by key).
func (im *importer) resolver(dir string) func(string) (document.ContentRef, bool) {
	return func(dest string) (document.ContentRef, bool) {
		if dest == "" || strings.HasPrefix(dest, "#") || isAbsolute(dest) {
			return document.ContentRef{}, false
		}
		target, anchor, ok := resolvePath(dest, dir)
		if !ok {
			return document.ContentRef{}, false
		}
		key := ""
		if tp := im.pages[target]; tp != nil {
			key = target
		} else if f := im.p.find(target); f != nil && im.pages[f.path] != nil {
			key = f.path
		} else if f := im.p.find(path.Join(target, "README.md")); f != nil && im.pages[f.path] != nil {
			key = f.path
		}
		if key != "" {
			if anchor != "" {
				return document.ContentRef{Kind: document.RefAnchor, Page: key, Anchor: anchor}, true
			}
			return document.ContentRef{Kind: document.RefPage, Page: key}, true
		}
		if f := im.p.find(target); f != nil && !isMarkdown(f.path) {
			im.file(f.path)
			return document.ContentRef{Kind: document.RefFile, File: f.path}, true
		}
		return document.ContentRef{}, false
	}
}

// file registers a file of the project to import.
func (im *importer) file(key string) {
	if im.files[key] != nil {
		return
	}
	rf := im.p.files[key]
	im.files[key] = &content.TreeFile{Key: key, Name: textcut.Runes(path.Base(key), content.MaxFileName),
		Git: &types.GitBlob{OID: rf.hash.String(), Path: rf.repoPath}}
	im.order = append(im.order, key)
}

// resolvePath resolves a relative destination against dir (or, with a
// leading slash, the content root): the path (unescaped, cleaned), the
// anchor, and false when it leaves the content root.
func resolvePath(dest, dir string) (string, string, bool) {
	p, anchor, _ := strings.Cut(dest, "#")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	var target string
	if strings.HasPrefix(p, "/") {
		target = path.Clean(strings.TrimLeft(p, "/"))
	} else {
		if dir == "." {
			dir = ""
		}
		target = path.Join(dir, p)
	}
	if target == "" || target == "." {
		target = ""
	}
	if target == ".." || strings.HasPrefix(target, "../") {
		return "", "", false
	}
	return target, anchor, true
}

// isAbsolute tells a destination with a scheme (or network path) from a
// path of the repository.
func isAbsolute(dest string) bool {
	if strings.HasPrefix(dest, "//") {
		return true
	}
	i := strings.IndexByte(dest, ':')
	if i <= 0 {
		return false
	}
	for _, r := range dest[:i] {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

func isMarkdown(p string) bool { return strings.EqualFold(path.Ext(p), ".md") }

// hidden tells paths under a directory or file whose name starts with a
// dot (.gitbook, .github) from content.
func hidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// commonDir is the slug of the directory every page of a group comes
// from, when they all come from one ("" otherwise: the title's slug).
func commonDir(im *importer, pages []*content.TreePage) string {
	dir := ""
	for _, tp := range pages {
		f := im.sources[tp]
		if f == nil {
			return ""
		}
		top, _, ok := strings.Cut(f.path, "/")
		if !ok || (dir != "" && top != dir) {
			return ""
		}
		dir = top
	}
	return content.Slugify(dir)
}

// matter is what Quire reads of a page's front matter.
type matter struct {
	Description string `yaml:"description"`
	Emoji       string `yaml:"emoji"`
	Hidden      bool   `yaml:"hidden"`
	pageMatter  `yaml:",inline"`
}

// frontMatter reads the YAML front matter that opens a Markdown file, if
// any; what it cannot read is ignored.
func frontMatter(md string) matter {
	var m matter
	rest, ok := strings.CutPrefix(md, "---\n")
	if !ok {
		rest, ok = strings.CutPrefix(md, "---\r\n")
	}
	if !ok {
		return m
	}
	end := strings.Index(rest, "\n---")
	if end < 0 || end > 64<<10 {
		return m
	}
	_ = yaml.Unmarshal([]byte(rest[:end]), &m)
	return m
}

// humanize makes a title of a file name: getting-started → Getting started.
func humanize(name string) string {
	s := strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }), " ")
	if s == "" {
		return "Untitled"
	}
	r, n := utf8.DecodeRuneInString(s)
	return textcut.Runes(string(unicode.ToUpper(r))+s[n:], content.MaxTitle)
}

func orURL(title, dest string) string {
	if title != "" {
		return title
	}
	return textcut.Runes(dest, content.MaxTitle)
}
