package sourcerules

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layer is how high a package of the module stands: a package may import
// only packages of its own layer or below.
//
//	0  ent, internal/...: the entities and the engines, below every door
//	1  graph/...: the GraphQL door and the resolver layer
//	2  rest, reader/...: the REST door and the reader door (published
//	   sites), which read through the resolver layer and not each other
//	3  server/...: the HTTP server and the wiring of engines and doors
//	4  cmd/...: the commands
//
// Test and benchmark support (internal/testing/...) and tests may import
// anything: they drive the whole. Only tests and commands (the benchmark
// and soak commands) may import them.
func layer(pkg string) (int, bool) {
	switch {
	case pkg == "quire/ent" || strings.HasPrefix(pkg, "quire/ent/"):
		return 0, true
	case strings.HasPrefix(pkg, "quire/internal/testing/"):
		return 0, false
	case strings.HasPrefix(pkg, "quire/internal/"):
		return 0, true
	case pkg == "quire/graph" || strings.HasPrefix(pkg, "quire/graph/"):
		return 1, true
	case pkg == "quire/rest" || strings.HasPrefix(pkg, "quire/rest/"),
		pkg == "quire/reader" || strings.HasPrefix(pkg, "quire/reader/"):
		return 2, true
	case pkg == "quire/server" || strings.HasPrefix(pkg, "quire/server/"):
		return 3, true
	case strings.HasPrefix(pkg, "quire/cmd/"):
		return 4, true
	}
	return 0, false
}

// doorOf names the door of layer 2 a package belongs to, "" for none.
func doorOf(pkg string) string {
	for _, d := range []string{"rest", "reader"} {
		if pkg == "quire/"+d || strings.HasPrefix(pkg, "quire/"+d+"/") {
			return d
		}
	}
	return ""
}

var layerNames = []string{"ent and internal (engines)", "graph", "rest and reader", "server", "cmd"}

// TestImportsRunDownTheLayers fails for every import, in a non-test file,
// of a package of a higher layer: an engine importing a door, a door the
// server, and so on.
func TestImportsRunDownTheLayers(t *testing.T) {
	root := moduleRoot(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		pkg := "quire/" + filepath.ToSlash(filepath.Dir(rel))
		from, ok := layer(pkg)
		if !ok {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			dep, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if strings.HasPrefix(dep, "quire/internal/testing/") && from != 4 {
				t.Errorf("%s imports %s: test and benchmark support is for tests and the benchmark commands only", rel, dep)
				continue
			}
			if door, other := doorOf(pkg), doorOf(dep); door != "" && other != "" && door != other {
				t.Errorf("%s imports %s: the %s door and the %s door read through the resolver layer, not through each other", rel, dep, door, other)
			}
			to, ok := layer(dep)
			if ok && to > from {
				t.Errorf("%s (%s) imports %s (%s): imports run down the layers only", rel, layerNames[from], dep, layerNames[to])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the module root right?", checked)
	}
}

func TestLayerOf(t *testing.T) {
	for _, c := range []struct {
		pkg   string
		layer int
		ok    bool
	}{
		{"quire/ent/space", 0, true},
		{"quire/internal/sites", 0, true},
		{"quire/internal/testing/testenv", 0, false},
		{"quire/graph/gqlguard", 1, true},
		{"quire/rest", 2, true},
		{"quire/reader", 2, true},
		{"quire/reader/view", 2, true},
		{"quire/server/app", 3, true},
		{"quire/cmd/quire", 4, true},
		{"quire/interop", 0, false},
	} {
		l, ok := layer(c.pkg)
		if l != c.layer || ok != c.ok {
			t.Errorf("layer(%s) = %d, %v; want %d, %v", c.pkg, l, ok, c.layer, c.ok)
		}
	}
}
