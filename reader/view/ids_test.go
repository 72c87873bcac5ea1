package view

import (
	"io/fs"
	"regexp"
	"slices"
	"testing"
)

// Every id a template writes is listed in ReservedIDs.
func TestReservedIDsCoverTheTemplates(t *testing.T) {
	idAttr := regexp.MustCompile(`\bid="([A-Za-z0-9_-]+)"`)
	files, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("templates: %v %v", files, err)
	}
	for _, f := range files {
		b, err := fs.ReadFile(templateFS, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range idAttr.FindAllStringSubmatch(string(b), -1) {
			if !slices.Contains(ReservedIDs, m[1]) {
				t.Errorf("%s writes id %q, which ReservedIDs does not list", f, m[1])
			}
		}
	}
}
