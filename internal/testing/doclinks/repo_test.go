package doclinks_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"quire/internal/testing/doclinks"
)

// root is the repository's root: the nearest directory above the test's
// that holds go.mod.
func root(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestDocumentation checks the links of the README, UPGRADING.md and the
// pages under docs/, and the tables of contents of those pages.
func TestDocumentation(t *testing.T) {
	c := &doclinks.Checker{FS: os.DirFS(root(t))}
	pages, err := fs.Glob(c.FS, "docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no pages under docs/")
	}
	for _, page := range append([]string{"README.md", "UPGRADING.md"}, pages...) {
		ps, err := c.Links(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			t.Error(p)
		}
	}
	for _, page := range pages {
		ps, err := c.Contents(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			t.Error(p)
		}
	}
}
