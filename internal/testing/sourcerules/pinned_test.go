package sourcerules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// versions are the library versions the shortcuts listed in UPGRADING.md
// were last verified against. Change one only after going through that
// library's checklist there.
var versions = map[string]string{
	"github.com/99designs/gqlgen":    "v0.17.90",
	"github.com/vektah/gqlparser/v2": "v2.5.33",
	"entgo.io/ent":                   "v0.14.5",
}

// TestPinnedVersions compares the versions go.mod requires (the ones the
// build uses: go.mod lists every module of the build) with the pinned
// ones, and refuses a replace directive for any of them.
func TestPinnedVersions(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	required, replaced := parseGoMod(string(src))
	for path, want := range versions {
		switch v, ok := required[path]; {
		case !ok:
			t.Errorf("go.mod does not require %s: see UPGRADING.md for what depends on it", path)
		case v != want:
			t.Errorf("go.mod requires %s %s, but the shortcuts in UPGRADING.md were verified against %s: "+
				"go through its checklist there, then set the version in internal/testing/sourcerules/pinned_test.go", path, v, want)
		}
		if replaced[path] {
			t.Errorf("go.mod replaces %s: the shortcuts in UPGRADING.md were verified against %s %s, check them against the replacement", path, path, want)
		}
	}
}

// parseGoMod reads the require and replace directives of a go.mod, in
// their one-line and block forms.
func parseGoMod(src string) (required map[string]string, replaced map[string]bool) {
	required, replaced = map[string]string{}, map[string]bool{}
	block := ""
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if block != "" {
			if f[0] == ")" {
				block = ""
				continue
			}
			f = append([]string{block}, f...)
		} else if len(f) == 2 && f[1] == "(" {
			block = f[0]
			continue
		}
		switch {
		case f[0] == "require" && len(f) >= 3:
			required[f[1]] = f[2]
		case f[0] == "replace" && len(f) >= 2:
			replaced[f[1]] = true
		}
	}
	return required, replaced
}

func TestParseGoMod(t *testing.T) {
	req, rep := parseGoMod(`module x

require entgo.io/ent v0.1.0

require (
	github.com/99designs/gqlgen v0.2.0
	github.com/vektah/gqlparser/v2 v2.3.0 // indirect
)

replace github.com/99designs/gqlgen => ../gqlgen
`)
	for path, want := range map[string]string{
		"entgo.io/ent": "v0.1.0", "github.com/99designs/gqlgen": "v0.2.0", "github.com/vektah/gqlparser/v2": "v2.3.0",
	} {
		if req[path] != want {
			t.Errorf("required[%s] = %q, want %q", path, req[path], want)
		}
	}
	if !rep["github.com/99designs/gqlgen"] || rep["entgo.io/ent"] {
		t.Errorf("replaced = %v", rep)
	}
}
