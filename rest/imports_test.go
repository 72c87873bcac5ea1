package rest_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The REST door reaches Quire only through the resolver layer, the entity
// types and a few plain packages; the engines stay behind the resolvers,
// so that both doors share one behaviour.
func TestRestImportsOnlyTheResolverLayer(t *testing.T) {
	allowed := map[string]bool{
		"quire/graph": true, "quire/graph/model": true, "quire/graph/leaf": true, "quire/ent": true,
		"quire/internal/apierr": true, "quire/internal/types": true, "quire/internal/requestid": true,
		"quire/internal/jsonguard": true,
		"quire/internal/nonempty":  true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", name, imp.Path.Value, err)
			}
			if path != "quire" && !strings.HasPrefix(path, "quire/") {
				continue
			}
			if !allowed[path] && !entFieldPackage(path) {
				t.Errorf("%s imports %s: rest/ may import only the resolver layer (%v), ent field packages and plain value packages", name, path, keys(allowed))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no Go files checked")
	}
}

// entFieldPackage reports a generated package of one entity's fields
// (quire/ent/space, ...), which names entity values too.
func entFieldPackage(path string) bool {
	name, ok := strings.CutPrefix(path, "quire/ent/")
	if !ok || strings.Contains(name, "/") {
		return false
	}
	switch name {
	case "schema", "migrate", "runtime", "enttest", "hook", "intercept", "predicate", "privacy":
		return false
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
