package gitsync

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"gopkg.in/yaml.v3"

	"quire/internal/apierr"
)

// configFile is the project's configuration, in its directory.
const configFile = ".gitbook.yaml"

// maxConfigBytes bounds .gitbook.yaml.
const maxConfigBytes = 64 << 10

// errContent marks an error of what the repository holds (a bad
// configuration, a page beyond the limits): retrying cannot fix it.
type errContent struct{ msg string }

func (e *errContent) Error() string { return e.msg }

func contentErr(format string, a ...any) error { return &errContent{msg: fmt.Sprintf(format, a...)} }

// repoFile is a file of the content root.
type repoFile struct {
	// path is relative to the content root; repoPath to the repository's.
	path, repoPath string
	hash           plumbing.Hash
}

// project is what a commit holds under the project directory: its
// configuration and the files of its content root.
type project struct {
	snap *snapshot
	// root is the content root, relative to the repository's root.
	root string
	// readme and summary are relative to the content root.
	readme, summary string
	files           map[string]*repoFile
	// paths are the files' paths, sorted; folded maps lower-case paths to
	// paths.
	paths  []string
	folded map[string]string
}

// layout is the configuration of .gitbook.yaml.
type layout struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
}

// readLayout reads the project's configuration in tree (the project
// directory; nil when it does not exist): the content root relative to
// the project directory, the readme and the summary relative to the root.
func readLayout(snap *snapshot, tree *object.Tree) (root, readme, summary string, err error) {
	readme, summary = "README.md", "SUMMARY.md"
	if tree == nil {
		return "", readme, summary, nil
	}
	e, ferr := tree.FindEntry(configFile)
	if ferr != nil || !e.Mode.IsFile() {
		return "", readme, summary, nil
	}
	raw, err := readBlob(snap, e.Hash, maxConfigBytes)
	if err != nil {
		return "", "", "", contentErr("%s: %v", configFile, err)
	}
	var l layout
	if err := yaml.Unmarshal(raw, &l); err != nil {
		return "", "", "", contentErr("%s is not valid YAML: %v", configFile, err)
	}
	clean := func(field, v string) (string, error) {
		c, err := cleanDir(field, v)
		if err != nil {
			msg := err.Error()
			if ae, ok := apierr.As(err); ok {
				msg = ae.Message
			}
			return "", contentErr("%s: %s", configFile, msg)
		}
		return c, nil
	}
	if root, err = clean("root", l.Root); err != nil {
		return "", "", "", err
	}
	if l.Structure.Readme != "" {
		if readme, err = clean("structure.readme", l.Structure.Readme); err != nil {
			return "", "", "", err
		}
	}
	if l.Structure.Summary != "" {
		if summary, err = clean("structure.summary", l.Structure.Summary); err != nil {
			return "", "", "", err
		}
	}
	return root, readme, summary, nil
}

// readProject lists the files of the content root of a commit's project
// directory, at most limit of them. Symbolic links and submodules are
// left out: they could point outside the repository.
func readProject(snap *snapshot, projectDir string, limit int) (*project, error) {
	top, err := snap.commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("read the commit's tree: %w", err)
	}
	dirTree, err := subtree(top, projectDir)
	if err != nil {
		return nil, err
	}
	if dirTree == nil {
		return nil, contentErr("repoProjectDirectory %q does not exist in commit %s", projectDir, snap.commit.Hash)
	}
	root, readme, summary, err := readLayout(snap, dirTree)
	if err != nil {
		return nil, err
	}
	p := &project{snap: snap, root: path.Join(projectDir, root), readme: readme, summary: summary, files: map[string]*repoFile{}}
	rootTree, err := subtree(dirTree, root)
	if err != nil {
		return nil, err
	}
	if rootTree == nil {
		return nil, contentErr("%s: root %q does not exist in commit %s", configFile, root, snap.commit.Hash)
	}
	var walk func(t *object.Tree, prefix string, depth int) error
	walk = func(t *object.Tree, prefix string, depth int) error {
		if depth > 64 {
			return contentErr("directories nest more than 64 levels deep")
		}
		for _, e := range t.Entries {
			if e.Name == "" || e.Name == "." || e.Name == ".." || strings.ContainsAny(e.Name, "/\\\x00") {
				continue
			}
			rel := path.Join(prefix, e.Name)
			switch {
			case e.Mode == filemode.Dir:
				sub, err := object.GetTree(snap.store, e.Hash)
				if err != nil {
					return fmt.Errorf("read directory %s: %w", rel, err)
				}
				if err := walk(sub, rel, depth+1); err != nil {
					return err
				}
			case e.Mode == filemode.Regular || e.Mode == filemode.Executable || e.Mode == filemode.Deprecated:
				if len(p.files) >= limit {
					return contentErr("the content root holds more than %d files (the limit)", limit)
				}
				p.files[rel] = &repoFile{path: rel, repoPath: path.Join(p.root, rel), hash: e.Hash}
			}
		}
		return nil
	}
	if err := walk(rootTree, "", 0); err != nil {
		return nil, err
	}
	p.folded = make(map[string]string, len(p.files))
	for k := range p.files {
		p.paths = append(p.paths, k)
	}
	sort.Strings(p.paths)
	for _, k := range p.paths {
		if l := strings.ToLower(k); p.folded[l] == "" {
			p.folded[l] = k
		}
	}
	return p, nil
}

// subtree returns the tree at dir below t ("" is t itself), or nil when
// there is none.
func subtree(t *object.Tree, dir string) (*object.Tree, error) {
	if dir == "" {
		return t, nil
	}
	sub, err := t.Tree(dir)
	if errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, nil
	}
	return sub, nil
}

// read returns the bytes of a file of the project.
func (p *project) read(f *repoFile, max int64) ([]byte, error) {
	return readBlob(p.snap, f.hash, max)
}

// readBlob reads a blob of at most max bytes.
func readBlob(snap *snapshot, h plumbing.Hash, max int64) ([]byte, error) {
	obj, err := snap.store.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	if obj.Size() > max {
		return nil, contentErr("larger than %d bytes (the limit)", max)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, max))
}

// find returns the file at rel (relative to the content root), matched
// exactly or, failing that, ignoring case.
func (p *project) find(rel string) *repoFile {
	if f := p.files[rel]; f != nil {
		return f
	}
	if k, ok := p.folded[strings.ToLower(rel)]; ok {
		return p.files[k]
	}
	return nil
}

// ownedFiles lists the files (relative to the content root) an export
// replaces in a commit: the readme, the summary and the Markdown files the
// summary lists, the pages of the content the branch holds. Other files
// (a CONTRIBUTING.md, templates) are left as they are.
func ownedFiles(snap *snapshot, top *object.Tree, root, readme, summary string) (map[string]bool, error) {
	owned := map[string]bool{readme: true, summary: true}
	rootTree, err := subtree(top, root)
	if err != nil || rootTree == nil {
		return owned, err
	}
	e, err := rootTree.FindEntry(summary)
	if err != nil || !e.Mode.IsFile() {
		return owned, nil
	}
	raw, err := readBlob(snap, e.Hash, 1<<20)
	if err != nil {
		return owned, nil
	}
	entries, err := parseSummary(string(raw), 100_000)
	if err != nil {
		return owned, nil
	}
	dir := path.Dir(summary)
	var walk func(list []*entry)
	walk = func(list []*entry) {
		for _, en := range list {
			if en.dest != "" && !isAbsolute(en.dest) {
				if p, _, ok := resolvePath(en.dest, dir); ok {
					if isMarkdown(p) {
						owned[p] = true
					} else {
						owned[path.Join(p, "README.md")] = true
					}
				}
			}
			walk(en.kids)
		}
	}
	walk(entries)
	return owned, nil
}
