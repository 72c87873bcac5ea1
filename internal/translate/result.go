package translate

// What a run writes into the result space: the page operations that mirror
// the source's tree, and the references of translated documents pointed at
// the result's pages and files.

import (
	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

// deletedBySource reports a result page whose source page is gone.
func deletedBySource(resultID string, pageMaps map[string]*ent.TranslationPage, pageID map[string]string) bool {
	for sid, m := range pageMaps {
		if m.ResultPageID == resultID {
			_, kept := pageID[sid]
			return !kept
		}
	}
	return false
}

// pageOps are the creations, updates and moves of the result's pages, in
// the source's order (parents first, siblings in order), so that each op
// can place its page after the one before it.
func pageOps(works []*work, pageMaps map[string]*ent.TranslationPage, pageID, fileID map[string]string,
	resPages map[string]*content.Page, resPrev map[string]string, srcSpace string) []content.Op {
	var ops []content.Op
	prevOf := map[string]string{} // source page → previous sibling (source)
	lastChild := map[string]string{}
	for _, w := range works {
		prevOf[w.src.ID] = lastChild[w.src.Parent]
		lastChild[w.src.Parent] = w.src.ID
	}
	for _, w := range works {
		p := w.src
		parent := ""
		if p.Parent != "" {
			parent = pageID[p.Parent]
		}
		var pos *content.Position
		if prev := prevOf[p.ID]; prev != "" {
			pos = &content.Position{After: pageID[prev]}
		}
		var link *document.ContentRef
		if p.Link != nil {
			l := remapRef(*p.Link, srcSpace, pageID, fileID)
			link = &l
		}
		cover := remapMap(p.Cover, srcSpace, pageID, fileID)
		if w.create {
			op := &content.CreatePage{ID: w.resultID, Type: p.Type, Parent: parent, Position: pos, Title: w.title,
				Slug: p.Slug, Emoji: p.Emoji, Description: w.desc, Hidden: p.Hidden, Link: link,
				Layout: p.Layout, Cover: cover, Variables: p.Variables, LinkTitle: w.linkTitle, Icon: p.Icon}
			if p.Type != content.TypeLink {
				op.NoIndex, op.NoRobotsIndex = p.NoIndex, p.NoRobotsIndex
			}
			if p.Type == content.TypeDocument {
				op.MetaLinks = remapMetaLinks(p.MetaLinks, srcSpace, pageID, fileID)
			}
			if p.Computed != nil {
				// A computed page's document is generated, in every language.
				op.Computed = p.Computed
			} else if p.Type == content.TypeDocument {
				doc := w.doc
				if doc == nil {
					doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
				}
				op.Document = doc
			}
			ops = append(ops, op)
			continue
		}
		m := pageMaps[p.ID]
		if m != nil && m.SourceVersion == p.Version && !w.translate {
			continue
		}
		up := &content.UpdatePage{Page: w.resultID, Emoji: &p.Emoji, Hidden: &p.Hidden, Link: link,
			Layout: catalog.Some(p.Layout), Cover: catalog.Some(cover), Variables: catalog.Some(p.Variables), Icon: &p.Icon}
		if p.Type != content.TypeLink {
			up.NoIndex, up.NoRobotsIndex = &p.NoIndex, &p.NoRobotsIndex
		}
		if p.Type == content.TypeDocument {
			up.MetaLinks = catalog.Some(remapMetaLinks(p.MetaLinks, srcSpace, pageID, fileID))
			if r := resPages[w.resultID]; p.Computed != nil || (r != nil && r.Computed != nil) {
				up.Computed = catalog.Some(p.Computed)
			}
		}
		if w.translate {
			title, desc, linkTitle := w.title, w.desc, w.linkTitle
			up.Title, up.Description, up.LinkTitle = &title, &desc, &linkTitle
			if p.Type == content.TypeDocument && p.Computed == nil && w.doc != nil {
				up.Document = w.doc
			}
		}
		ops = append(ops, up)
		r := resPages[w.resultID]
		want := ""
		if pos != nil {
			want = pos.After
		}
		if r != nil && (r.Parent != parent || resPrev[w.resultID] != want) {
			mv := &content.MovePage{Page: w.resultID, Parent: catalog.Some(parent), Position: pos}
			if pos == nil {
				mv.Position = &content.Position{Before: firstSibling(resPages, parent, w.resultID)}
				if mv.Position.Before == "" {
					mv.Position = nil
				}
			}
			ops = append(ops, mv)
		}
	}
	return ops
}

// firstSibling is the first page under parent in the result other than
// self ("" when none).
func firstSibling(resPages map[string]*content.Page, parent, self string) string {
	best := ""
	bestPos := ""
	for id, p := range resPages {
		if p.Parent == parent && id != self && (best == "" || p.Position < bestPos) {
			best, bestPos = id, p.Position
		}
	}
	return best
}

// remapDocument points the references of a document at the result: pages
// and anchors of the source space at their translations, files at their
// copies. Other references stay as they are.
func remapDocument(d *document.Document, srcSpace string, pageID, fileID map[string]string) {
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for i := range nodes {
			n := &nodes[i]
			for _, k := range []string{"ref", "refDark"} {
				if m, ok := n.Data[k].(map[string]any); ok {
					n.Data[k] = remapAny(m, srcSpace, pageID, fileID)
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(d.Nodes)
}

func remapAny(m map[string]any, srcSpace string, pageID, fileID map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	kind, _ := m["kind"].(string)
	space, _ := m["space"].(string)
	switch kind {
	case document.RefPage, document.RefAnchor:
		if p, ok := m["page"].(string); ok && (space == "" || space == srcSpace) {
			if r, ok := pageID[p]; ok {
				out["page"] = r
				delete(out, "space")
			}
		}
	case document.RefFile:
		if f, ok := m["file"].(string); ok {
			if r, ok := fileID[f]; ok {
				out["file"] = r
			}
		}
	}
	return out
}

func remapRef(r document.ContentRef, srcSpace string, pageID, fileID map[string]string) document.ContentRef {
	switch r.Kind {
	case document.RefPage, document.RefAnchor:
		if p, ok := pageID[r.Page]; ok && (r.Space == "" || r.Space == srcSpace) {
			r.Page, r.Space = p, ""
		}
	case document.RefFile:
		if f, ok := fileID[r.File]; ok {
			r.File = f
		}
	}
	return r
}

// remapMap remaps the references of a page's cover ({ref, refDark}).
// remapMetaLinks points a page's meta links at the result's pages.
func remapMetaLinks(m *types.PageMetaLinks, srcSpace string, pageID, fileID map[string]string) *types.PageMetaLinks {
	if m == nil {
		return nil
	}
	out := &types.PageMetaLinks{}
	if m.Canonical != nil {
		c := remapRef(*m.Canonical, srcSpace, pageID, fileID)
		out.Canonical = &c
	}
	for _, a := range m.Alternates {
		out.Alternates = append(out.Alternates, remapRef(a, srcSpace, pageID, fileID))
	}
	return out
}

func remapMap(m map[string]any, srcSpace string, pageID, fileID map[string]string) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if r, ok := v.(map[string]any); ok && (k == "ref" || k == "refDark") {
			v = remapAny(r, srcSpace, pageID, fileID)
		}
		out[k] = v
	}
	return out
}
