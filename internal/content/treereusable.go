package content

import (
	"fmt"
	"maps"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/types"
)

// TreeReusable is a reusable content of a tree written by WriteTree.
type TreeReusable struct {
	// Key names the reusable content within the tree: a reusable-content
	// reference of the tree's pages (without a space) whose id is the key
	// is written with the reusable content's id. Optional, unique within
	// a tree, never stored.
	Key   string
	Title string
	// Document is its content; nil: an empty document.
	Document *document.Document
	// Git is where it comes from in a Git repository. A reusable content
	// of the tree takes the id of the current one from the same Git path;
	// the others are new.
	Git *types.GitBlob
}

type preparedReusable struct {
	in    *TreeReusable
	title string
	doc   *document.Document
}

type preparedReusables struct {
	replace bool
	list    []*preparedReusable
	keys    map[string]bool
}

// prepareReusables checks a tree's reusable contents, like
// CreateReusableContent does; at most MaxTreeFiles of them.
func prepareReusables(tree *Tree) (*preparedReusables, error) {
	p := &preparedReusables{replace: tree.ReplaceReusables, keys: map[string]bool{}}
	if !tree.ReplaceReusables {
		return p, nil
	}
	if len(tree.Reusables) > MaxTreeFiles {
		return nil, apierr.Invalid("reusables", "A tree holds at most %d reusable contents (%d given)", MaxTreeFiles, len(tree.Reusables))
	}
	for i, r := range tree.Reusables {
		field := fmt.Sprintf("reusables[%d]", i)
		if r == nil {
			return nil, apierr.Invalid(field, "%s is empty", field)
		}
		title, err := reusableTitle(r.Title)
		if err != nil {
			return nil, fieldError(field, err, "title")
		}
		doc := r.Document
		if doc == nil {
			doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
		}
		if err := doc.Validate(); err != nil {
			return nil, fieldError(field, err, "document")
		}
		if r.Git != nil && (r.Git.OID == "" || r.Git.Path == "") {
			return nil, apierr.Invalid(field+".git", "%s.git needs both oid and path", field)
		}
		if r.Key != "" {
			if p.keys[r.Key] {
				return nil, apierr.Invalid(field+".key", "%s.key %q is used twice", field, r.Key)
			}
			p.keys[r.Key] = true
		}
		p.list = append(p.list, &preparedReusable{in: r, title: title, doc: doc})
	}
	return p, nil
}

// reusables returns the reusable contents of the next state: the current
// ones, unless the tree replaces them. A replaced one keeps the id of the
// current one from the same Git path, and its version when nothing about
// it changed.
func (w *treeWriter) reusables(prep *preparedTree) (map[string]*ent.ReusableContentVersion, error) {
	if !prep.reusables.replace {
		return maps.Clone(w.base.reusables), nil
	}
	byGit := map[string]*ent.ReusableContentVersion{}
	for _, id := range sortedKeys(w.base.reusables) {
		v := w.base.reusables[id]
		if v.Git != nil && byGit[strings.ToLower(v.Git.Path)] == nil {
			byGit[strings.ToLower(v.Git.Path)] = v
		}
	}
	out := map[string]*ent.ReusableContentVersion{}
	for _, pr := range prep.reusables.list {
		var old *ent.ReusableContentVersion
		if pr.in.Git != nil {
			if v := byGit[strings.ToLower(pr.in.Git.Path)]; v != nil && out[v.ReusableContentID] == nil {
				old = v
			}
		}
		id := ids.New(ids.ReusableContent)
		if old != nil {
			id = old.ReusableContentID
			w.matched++
		}
		if pr.in.Key != "" {
			w.reusableIDs[pr.in.Key] = id
		}
		raw, err := contentOf(pr.doc)
		if err != nil {
			return nil, err
		}
		refs, _ := scanDocument(pr.doc)
		v := &ent.ReusableContentVersion{
			ID: ids.New(ids.ReusableContentVersion), SpaceID: w.spaceID, ReusableContentID: id,
			Title: pr.title, DocumentID: hashBytes(raw), Refs: refs, Git: cloneGit(pr.in.Git), CreatedAt: w.now,
		}
		if old != nil && old.Title == v.Title && old.DocumentID == v.DocumentID && sameGit(old.Git, v.Git) {
			out[id] = old
			continue
		}
		w.blobs.blob(raw)
		out[id] = v
		w.newReusables = append(w.newReusables, v)
	}
	return out, nil
}
