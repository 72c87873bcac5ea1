package content

import (
	"bytes"
	"image"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/position"
	"quire/internal/types"
)

// treeWriter turns a prepared tree into the next state of a space, against
// its current state base: it matches pages and files to the current ones,
// places pages, and writes new versions only for what changed.
type treeWriter struct {
	spaceID string
	now     time.Time
	base    *state

	pageIDs, fileIDs map[string]string // keys → ids
	reusableIDs      map[string]string
	matched          int

	newPages     []*ent.PageVersion
	newFiles     []*ent.FileVersion
	newReusables []*ent.ReusableContentVersion
	blobs        pending
}

func newTreeWriter(spaceID string, now time.Time, base *state) *treeWriter {
	return &treeWriter{spaceID: spaceID, now: now, base: base, pageIDs: map[string]string{}, fileIDs: map[string]string{},
		reusableIDs: map[string]string{}}
}

// placed is a page of the tree once its place and id are known.
type placed struct {
	p      *preparedPage
	slug   string
	path   string
	id     string
	parent string // parent page id, "" at the root
	old    *ent.PageVersion
	kids   []*placed
}

// build returns the next state; vars nil keeps the current variables.
func (w *treeWriter) build(prep *preparedTree, vars map[string]any) (*state, error) {
	reusables, err := w.reusables(prep)
	if err != nil {
		return nil, err
	}
	next := &state{pages: map[string]*ent.PageVersion{}, files: map[string]*ent.FileVersion{}, reusables: reusables, vars: w.base.vars}
	if vars != nil {
		next.vars = vars
	}
	if next.vars == nil {
		next.vars = map[string]any{}
	}
	roots := w.place(prep.pages)
	w.matchPages(roots)
	if err := w.matchFiles(prep, next); err != nil {
		return nil, err
	}
	if err := w.pages(prep, "", roots, next); err != nil {
		return nil, err
	}
	return next, nil
}

// place gives every page its slug (unique among its siblings) and path.
func (w *treeWriter) place(pages []*preparedPage) []*placed {
	var walk func(pages []*preparedPage, prefix string) []*placed
	walk = func(pages []*preparedPage, prefix string) []*placed {
		out := make([]*placed, len(pages))
		taken := map[string]bool{}
		for i, pp := range pages {
			want := pp.slug
			if want == "" {
				want = slugify(pp.title)
			}
			if want == "" {
				want = "untitled"
			}
			slug := want
			for n := 2; taken[slug]; n++ {
				slug = want + "-" + strconv.Itoa(n)
			}
			taken[slug] = true
			pl := &placed{p: pp, slug: slug, path: prefix + slug}
			pl.kids = walk(pp.kids, pl.path+"/")
			out[i] = pl
		}
		return out
	}
	return walk(pages, "")
}

// matchPages gives each page the id of a current page: the one at the same
// path, else the one from the same Git path (both of the same type), else a
// new id. Path matches are made first, over the whole tree, so that a page
// that stayed in place keeps its id even when another page comes from its
// old Git path.
func (w *treeWriter) matchPages(roots []*placed) {
	byPath := map[string]*ent.PageVersion{}
	byGit := map[string]*ent.PageVersion{}
	kids := childrenOf(w.base)
	var index func(parent, prefix string)
	index = func(parent, prefix string) {
		for _, v := range kids[parent] {
			p := prefix + v.Slug
			if byPath[p] == nil {
				byPath[p] = v
			}
			if v.Git != nil && byGit[v.Git.Path] == nil {
				byGit[v.Git.Path] = v
			}
			index(v.PageID, p+"/")
		}
	}
	index("", "")
	used := map[string]bool{}
	var all []*placed
	var flat func(list []*placed)
	flat = func(list []*placed) {
		for _, pl := range list {
			all = append(all, pl)
			flat(pl.kids)
		}
	}
	flat(roots)
	take := func(pl *placed, v *ent.PageVersion) bool {
		if v == nil || used[v.PageID] || v.Type != pl.p.typ {
			return false
		}
		used[v.PageID] = true
		pl.id, pl.old = v.PageID, v
		w.matched++
		return true
	}
	for _, pl := range all {
		take(pl, byPath[pl.path])
	}
	for _, pl := range all {
		if pl.id == "" && pl.p.in.Git != nil {
			take(pl, byGit[pl.p.in.Git.Path])
		}
	}
	for _, pl := range all {
		if pl.id == "" {
			pl.id = ids.New(ids.Page)
		}
		if pl.p.in.Key != "" {
			w.pageIDs[pl.p.in.Key] = pl.id
		}
	}
	var parents func(list []*placed, parent string)
	parents = func(list []*placed, parent string) {
		for _, pl := range list {
			pl.parent = parent
			parents(pl.kids, pl.id)
		}
	}
	parents(roots, "")
}

// matchFiles gives each file the id of a current file (same Git path,
// else the same name when only one current file has it) or a new one, and
// its version.
func (w *treeWriter) matchFiles(prep *preparedTree, next *state) error {
	byGit := map[string]*ent.FileVersion{}
	byName := map[string][]*ent.FileVersion{}
	for _, id := range sortedKeys(w.base.files) {
		v := w.base.files[id]
		if v.Git != nil && byGit[v.Git.Path] == nil {
			byGit[v.Git.Path] = v
		}
		byName[v.Name] = append(byName[v.Name], v)
	}
	used := map[string]bool{}
	olds := make([]*ent.FileVersion, len(prep.files))
	for i, pf := range prep.files {
		if pf.in.Git != nil {
			if v := byGit[pf.in.Git.Path]; v != nil && !used[v.FileID] {
				used[v.FileID], olds[i] = true, v
			}
		}
	}
	for i, pf := range prep.files {
		if olds[i] != nil {
			continue
		}
		if list := byName[pf.name]; len(list) == 1 && !used[list[0].FileID] {
			used[list[0].FileID], olds[i] = true, list[0]
		}
	}
	for i, pf := range prep.files {
		old := olds[i]
		id := ids.New(ids.File)
		if old != nil {
			id = old.FileID
			w.matched++
		}
		if pf.in.Key != "" {
			w.fileIDs[pf.in.Key] = id
		}
		ct := strings.TrimSpace(pf.in.ContentType)
		if ct == "" {
			ct = http.DetectContentType(pf.in.Data)
		}
		v := &ent.FileVersion{
			ID: ids.New(ids.FileVersion), SpaceID: w.spaceID, FileID: id, Name: pf.name, ContentType: ct,
			Size: int64(len(pf.in.Data)), BlobID: hashBytes(pf.in.Data), Git: cloneGit(pf.in.Git), CreatedAt: w.now,
		}
		if old != nil && old.Name == v.Name && old.ContentType == v.ContentType && old.BlobID == v.BlobID && sameGit(old.Git, v.Git) {
			next.files[id] = old
			continue
		}
		w.blobs.blob(pf.in.Data)
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(pf.in.Data)); err == nil {
			v.Width, v.Height = &cfg.Width, &cfg.Height
		}
		next.files[id] = v
		w.newFiles = append(w.newFiles, v)
	}
	return nil
}

// pages writes the versions of a list of siblings and their subtrees.
func (w *treeWriter) pages(prep *preparedTree, parent string, list []*placed, next *state) error {
	keys, err := w.positions(parent, list)
	if err != nil {
		return err
	}
	for i, pl := range list {
		v, err := w.version(prep, pl, keys[i])
		if err != nil {
			return err
		}
		next.pages[pl.id] = v
		if err := w.pages(prep, pl.id, pl.kids, next); err != nil {
			return err
		}
	}
	return nil
}

// positions returns the position keys of siblings, in order: the pages
// that stay under the same parent keep their keys where they can (the
// longest run of them that is still in order), the others get keys
// between, so that a page added or moved rewrites no other page.
func (w *treeWriter) positions(parent string, list []*placed) ([]string, error) {
	old := make([]string, len(list))
	for i, pl := range list {
		if pl.old != nil && pl.old.ParentID == parent && position.Validate(pl.old.Position) == nil {
			old[i] = pl.old.Position
		}
	}
	keep := increasing(old)
	out := make([]string, len(list))
	any := false
	for i := range list {
		if keep[i] {
			out[i], any = old[i], true
		}
	}
	if !any {
		copy(out, position.Sequence(len(list)))
		return out, nil
	}
	lo := ""
	for i := 0; i < len(list); i++ {
		if keep[i] {
			lo = out[i]
			continue
		}
		hi := ""
		for j := i + 1; j < len(list); j++ {
			if keep[j] {
				hi = out[j]
				break
			}
		}
		k, err := position.Between(lo, hi)
		if err != nil {
			return nil, err
		}
		out[i], lo = k, k
	}
	return out, nil
}

// increasing marks a longest strictly increasing subsequence of the
// non-empty keys (O(n log n)).
func increasing(keys []string) []bool {
	keep := make([]bool, len(keys))
	var tails []int // tails[l]: index of the smallest tail of a run of length l+1
	prev := make([]int, len(keys))
	for i, k := range keys {
		if k == "" {
			continue
		}
		l := sort.Search(len(tails), func(j int) bool { return keys[tails[j]] >= k })
		if l > 0 {
			prev[i] = tails[l-1]
		} else {
			prev[i] = -1
		}
		if l == len(tails) {
			tails = append(tails, i)
		} else {
			tails[l] = i
		}
	}
	if len(tails) == 0 {
		return keep
	}
	for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
		keep[i] = true
	}
	return keep
}

// version returns the page's version: its current one when nothing about
// it changed, else a new one.
func (w *treeWriter) version(prep *preparedTree, pl *placed, pos string) (*ent.PageVersion, error) {
	tp := pl.p.in
	v := &ent.PageVersion{
		ID: ids.New(ids.PageVersion), SpaceID: w.spaceID, PageID: pl.id, ParentID: pl.parent, Position: pos,
		Type: pl.p.typ, Title: pl.p.title, Slug: pl.slug, Emoji: tp.Emoji, Description: tp.Description,
		Hidden: tp.Hidden, Layout: tp.Layout, Cover: tp.Cover, Variables: tp.Variables, Git: cloneGit(tp.Git),
		CreatedAt: w.now,
	}
	pl.p.props.set(v)
	if ml := v.MetaLinks; ml != nil {
		// Meta links may name pages of the tree by key, as documents do.
		out := &types.PageMetaLinks{}
		if ml.Canonical != nil {
			r, _ := w.resolveKey(prep, *ml.Canonical)
			out.Canonical = &r
		}
		for _, a := range ml.Alternates {
			r, _ := w.resolveKey(prep, a)
			out.Alternates = append(out.Alternates, r)
		}
		v.MetaLinks = out
	}
	created := w.now
	v.PageCreatedAt = &created
	if pl.old != nil {
		v.PageCreatedAt = pl.old.PageCreatedAt
	}
	var raw []byte
	switch pl.p.typ {
	case TypeDocument:
		if pl.p.doc == nil {
			break // computed: no document of its own
		}
		doc := pl.p.doc
		if pl.p.keyRefs {
			doc = document.MapRefs(doc, func(r document.ContentRef) (document.ContentRef, bool) { return w.resolveKey(prep, r) })
		}
		var err error
		if raw, err = contentOf(doc); err != nil {
			return nil, err
		}
		h := hashBytes(raw)
		v.DocumentID = &h
		v.Refs, v.Anchors = scanDocument(doc)
	case TypeLink:
		link := *tp.Link
		if r, ok := w.resolveKey(prep, link); ok {
			link = r
		}
		n := document.Node{Data: map[string]any{"ref": link.Map()}}
		r, ok := n.Ref()
		if !ok {
			return nil, apierr.Invalid(pl.p.field+".link.kind", "%s.link.kind %q is not a content reference kind", pl.p.field, link.Kind)
		}
		for _, f := range r.Map() {
			if f == "" {
				return nil, apierr.Invalid(pl.p.field+".link", "%s: the link target is incomplete", pl.p.field)
			}
		}
		v.Link = &r
		m := map[string]string{"node": "link-page"}
		for k, x := range r.Map() {
			m[k], _ = x.(string)
		}
		v.Refs = []map[string]string{m}
	}
	seal(v)
	if old := pl.old; old != nil && samePage(v, old) && sameGit(v.Git, old.Git) {
		return old, nil
	}
	if raw != nil {
		w.blobs.blob(raw)
	}
	w.newPages = append(w.newPages, v)
	return v, nil
}

// resolveKey rewrites a reference to a key of the tree into one to the id
// the key was given.
func (w *treeWriter) resolveKey(prep *preparedTree, r document.ContentRef) (document.ContentRef, bool) {
	if !prep.isKeyRef(r) {
		return r, false
	}
	switch r.Kind {
	case document.RefPage, document.RefAnchor:
		if r.Space != "" && r.Space != w.spaceID {
			return r, false
		}
		r.Page, r.Space = w.pageIDs[r.Page], ""
	case document.RefFile:
		r.File = w.fileIDs[r.File]
	case document.RefReusableContent:
		r.ReusableContent = w.reusableIDs[r.ReusableContent]
	}
	return r, true
}

// pending lists what the write adds.
func (w *treeWriter) pending(next *state) *pending {
	return &pending{pages: w.newPages, files: w.newFiles, reusables: w.newReusables, blobs: w.blobs.blobs, inherit: map[string]string{}}
}

func cloneGit(g *types.GitBlob) *types.GitBlob {
	if g == nil {
		return nil
	}
	c := *g
	return &c
}

func sameGit(a, b *types.GitBlob) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
