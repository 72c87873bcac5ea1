package gitsync

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/textcut"
	"quire/internal/types"
)

// includesDir is where reusable contents live in a project, one Markdown
// file each, relative to its root.
const includesDir = ".gitbook/includes"

// includeLine is a paragraph that embeds a reusable content:
// {% include "../.gitbook/includes/name.md" %}.
var includeLine = regexp.MustCompile(`^\{%\s*include\s+"([^"]+)"\s*%\}$`)

// includeMark stands for an include while a page is written as Markdown
// (letters and digits only, so that nothing escapes it); it is replaced by
// the include line once the Markdown is written.
const includeMark = "QuireInclude9b1e4c"

// includeNames gives each reusable content its file:
// .gitbook/includes/<slug of its title>.md, unique among the files
// claimed.
func (x *exporter) includeNames(list []*content.ReusableContent, claim func(string) string) {
	for _, r := range list {
		name := content.Slugify(r.Title)
		if name == "" {
			name = "untitled"
		}
		x.includes[r.ID] = claim(includesDir + "/" + name + ".md")
	}
}

// includeFile writes a reusable content: its title as front matter, its
// document as Markdown.
func includeFile(title string, doc *document.Document) ([]byte, error) {
	y, err := yaml.Marshal(map[string]string{"title": title})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("---\n")
	b.Write(y)
	b.WriteString("---\n")
	if doc != nil && len(doc.Nodes) > 0 {
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(document.ToMarkdown(doc), "\n"))
		b.WriteString("\n")
	}
	return []byte(b.String()), nil
}

// markIncludes replaces the top-level reusable-content blocks of doc that
// embed a reusable content of the revision by marks, and returns the
// include line of each mark. doc is not modified.
func (x *exporter) markIncludes(doc *document.Document, from string) (*document.Document, map[string]string) {
	lines := map[string]string{}
	out := *doc
	out.Nodes = make([]document.Node, len(doc.Nodes))
	for i, n := range doc.Nodes {
		out.Nodes[i] = n
		if n.Type != document.BlockReusableContent {
			continue
		}
		r, ok := n.Ref()
		if !ok || (r.Space != "" && r.Space != x.spaceID) || x.includes[r.ReusableContent] == "" {
			continue
		}
		mark := includeMark + strconv.Itoa(len(lines)) + "Q"
		lines[mark] = `{% include "` + relPath(from, x.includes[r.ReusableContent]) + `" %}`
		out.Nodes[i] = document.NewBlock(document.BlockParagraph, nil, document.NewText(mark))
	}
	return &out, lines
}

// unmarkIncludes puts the include lines in place of their marks.
func unmarkIncludes(md string, lines map[string]string) string {
	// Marks end with Q, so that mark 1 is no part of mark 10.
	for n := range len(lines) {
		mark := includeMark + strconv.Itoa(n) + "Q"
		md = strings.ReplaceAll(md, mark, lines[mark])
	}
	return md
}

// includes reads the reusable contents of the project: the Markdown files
// directly in .gitbook/includes, keyed by their path, at most
// content.MaxTreeFiles of them. The title is the front matter's, else the
// file name's.
func (im *importer) includes() ([]*content.TreeReusable, error) {
	var keys []string
	for _, k := range im.p.paths {
		if path.Dir(k) == includesDir && isMarkdown(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) > content.MaxTreeFiles {
		return nil, contentErr("%s holds %d files: at most %d reusable contents are imported", includesDir, len(keys), content.MaxTreeFiles)
	}
	im.reusables = map[string]bool{}
	for _, k := range keys {
		im.reusables[k] = true
	}
	out := make([]*content.TreeReusable, 0, len(keys))
	for _, k := range keys {
		f := im.p.files[k]
		raw, err := im.p.read(f, document.MaxMarkdownSize)
		if err != nil {
			return nil, contentErr("%s: %v", f.repoPath, err)
		}
		md := string(raw)
		var fm struct {
			Title string `yaml:"title"`
		}
		if body, ok := frontMatterText(md); ok {
			_ = yaml.Unmarshal([]byte(body), &fm)
		}
		title := strings.TrimSpace(fm.Title)
		if title == "" {
			title = humanize(strings.TrimSuffix(path.Base(k), path.Ext(k)))
		}
		doc, err := document.FromMarkdown(md)
		if err != nil {
			return nil, contentErr("%s: %s", f.repoPath, errMessage(err))
		}
		im.embed(doc, includesDir)
		out = append(out, &content.TreeReusable{Key: k, Title: textcut.Runes(title, content.MaxReusableTitle), Document: doc,
			Git: &types.GitBlob{OID: f.hash.String(), Path: f.repoPath}})
	}
	return out, nil
}

// embed makes each top-level paragraph of doc that holds only an include
// of a reusable content of the project a reusable-content block naming
// it (by key); dir is the directory of the file doc comes from. An
// include of a file the project does not hold stays a paragraph of text.
func (im *importer) embed(doc *document.Document, dir string) {
	for i, n := range doc.Nodes {
		if n.Type != document.BlockParagraph {
			continue
		}
		m := includeLine.FindStringSubmatch(strings.TrimSpace((&document.Document{Nodes: []document.Node{n}}).Text()))
		if m == nil {
			continue
		}
		target, _, ok := resolvePath(m[1], dir)
		if !ok || !im.reusables[target] {
			continue
		}
		ref := document.ContentRef{Kind: document.RefReusableContent, ReusableContent: target}
		doc.Nodes[i] = document.NewBlock(document.BlockReusableContent, map[string]any{"ref": ref.Map()})
	}
}

// frontMatterText is the YAML of the front matter that opens md, if any.
func frontMatterText(md string) (string, bool) {
	rest, ok := strings.CutPrefix(md, "---\n")
	if !ok {
		rest, ok = strings.CutPrefix(md, "---\r\n")
	}
	if !ok {
		return "", false
	}
	end := strings.Index(rest, "\n---")
	if end < 0 || end > 64<<10 {
		return "", false
	}
	return rest[:end], true
}

// errMessage is the message of an API error, else the error's text.
func errMessage(err error) string {
	if ae, ok := apierr.As(err); ok {
		return ae.Message
	}
	return err.Error()
}
