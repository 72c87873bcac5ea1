package gitsync

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// treeEntry is a file of a commit's tree.
type treeEntry struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// writer adds objects to a snapshot's store and remembers the new ones,
// which a push sends.
type writer struct {
	snap  *snapshot
	fresh []plumbing.Hash
}

func (w *writer) put(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	h := obj.Hash()
	if w.snap.store.HasEncodedObject(h) == nil {
		return h, nil
	}
	if _, err := w.snap.store.SetEncodedObject(obj); err != nil {
		return h, err
	}
	w.fresh = append(w.fresh, h)
	return h, nil
}

func (w *writer) blob(data []byte) (plumbing.Hash, error) {
	obj := w.snap.store.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	wr, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := wr.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := wr.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return w.put(obj)
}

// flatten lists the files of a tree by path (symbolic links and
// submodules included, as they are).
func flatten(snap *snapshot, t *object.Tree, prefix string, out map[string]treeEntry) error {
	for _, e := range t.Entries {
		p := path.Join(prefix, e.Name)
		if e.Mode == filemode.Dir {
			sub, err := object.GetTree(snap.store, e.Hash)
			if err != nil {
				return fmt.Errorf("read directory %s: %w", p, err)
			}
			if err := flatten(snap, sub, p, out); err != nil {
				return err
			}
			continue
		}
		out[p] = treeEntry{mode: e.Mode, hash: e.Hash}
	}
	return nil
}

// commitFiles writes files (by path relative to root) into the head's tree
// of snap, in place of those below root that owned lists (the pages of the
// content the branch holds), of the assets and of the includes, and a commit of that tree
// on top of the head. It returns the commit's hash, or the zero hash when
// the tree would not change.
func commitFiles(snap *snapshot, root string, owned map[string]bool, files map[string][]byte, author, committer object.Signature, message string) (plumbing.Hash, *writer, error) {
	w := &writer{snap: snap}
	all := map[string]treeEntry{}
	var headTree plumbing.Hash
	if snap.commit != nil {
		t, err := snap.commit.Tree()
		if err != nil {
			return plumbing.ZeroHash, nil, err
		}
		headTree = t.Hash
		if err := flatten(snap, t, "", all); err != nil {
			return plumbing.ZeroHash, nil, err
		}
	}
	prefix := ""
	if root != "" {
		prefix = root + "/"
	}
	for p, e := range all {
		if rel, ok := strings.CutPrefix(p, prefix); ok && e.mode != filemode.Submodule && (owned[rel] || strings.HasPrefix(rel, assetsDir+"/") || strings.HasPrefix(rel, includesDir+"/")) {
			delete(all, p)
		}
	}
	for rel, data := range files {
		h, err := w.blob(data)
		if err != nil {
			return plumbing.ZeroHash, nil, err
		}
		all[path.Join(root, rel)] = treeEntry{mode: filemode.Regular, hash: h}
	}
	top, err := w.trees(all)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	if top == headTree {
		return plumbing.ZeroHash, w, nil
	}
	c := &object.Commit{Author: author, Committer: committer, Message: message, TreeHash: top}
	if snap.commit != nil {
		c.ParentHashes = []plumbing.Hash{snap.commit.Hash}
	}
	obj := snap.store.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, nil, err
	}
	h, err := w.put(obj)
	return h, w, err
}

// trees writes the trees of a flat list of files, each directory after
// its subdirectories, and returns the root tree's hash.
func (w *writer) trees(all map[string]treeEntry) (plumbing.Hash, error) {
	files := map[string][]object.TreeEntry{}
	subdirs := map[string][]string{}
	known := map[string]bool{"": true}
	for p, e := range all {
		dir := parent(p)
		files[dir] = append(files[dir], object.TreeEntry{Name: path.Base(p), Mode: e.mode, Hash: e.hash})
		for d := dir; !known[d]; d = parent(d) {
			known[d] = true
			subdirs[parent(d)] = append(subdirs[parent(d)], d)
		}
	}
	var write func(dir string, depth int) (plumbing.Hash, error)
	write = func(dir string, depth int) (plumbing.Hash, error) {
		if depth > 256 {
			return plumbing.ZeroHash, contentErr("directories nest more than 256 levels deep")
		}
		entries := files[dir]
		for _, sub := range subdirs[dir] {
			h, err := write(sub, depth+1)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			entries = append(entries, object.TreeEntry{Name: path.Base(sub), Mode: filemode.Dir, Hash: h})
		}
		sort.Slice(entries, func(i, j int) bool { return gitName(entries[i]) < gitName(entries[j]) })
		obj := w.snap.store.NewEncodedObject()
		if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
			return plumbing.ZeroHash, err
		}
		return w.put(obj)
	}
	return write("", 0)
}

// parent is the directory of a path, "" for the root.
func parent(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// gitName is the key Git sorts tree entries by: directories as if their
// name ended with a slash.
func gitName(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// signature is a commit's author or committer.
func signature(name, email string, when time.Time) object.Signature {
	return object.Signature{Name: name, Email: email, When: when}
}
