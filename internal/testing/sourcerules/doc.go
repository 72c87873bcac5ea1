// Package sourcerules holds the tests that keep the source tree in shape:
// hand-written Go files short enough to read in one sitting (MaxLines
// lines, and the rule that tells hand-written files from generated ones),
// the layers' imports running one way only (engines below the doors, the
// doors below the server), and the versions of the libraries whose
// internals Quire's shortcuts depend on (gqlgen, gqlparser, ent) pinned,
// so that a new version is checked against UPGRADING.md first.
package sourcerules

import (
	"bufio"
	"io"
	"path/filepath"
	"regexp"
	"strings"
)

// MaxLines is the most lines a hand-written Go file may have.
const MaxLines = 500

// generatedHeader is Go's convention for generated files
// (https://go.dev/s/generatedcode).
var generatedHeader = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// Skipped tells whether a path (slash-separated, relative to the module
// root) is outside the rule by where it lives: ent's generated code (all of
// ent/ but ent/schema), gqlgen's output, *_gen.go files, test fixtures and
// vendored JavaScript packages.
func Skipped(rel string) bool {
	rel = filepath.ToSlash(rel)
	switch {
	case strings.HasPrefix(rel, "ent/") && !strings.HasPrefix(rel, "ent/schema/"):
		return true
	case strings.HasPrefix(rel, "graph/generated/"):
		return true
	case strings.HasSuffix(rel, "_gen.go"):
		return true
	}
	for _, part := range strings.Split(rel, "/") {
		if part == "testdata" || part == "node_modules" || part == "vendor" || strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
}

// Generated tells whether a Go source carries the generated-code header
// before its package clause.
func Generated(r io.Reader) (bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if generatedHeader.MatchString(line) {
			return true, nil
		}
		if strings.HasPrefix(line, "package ") {
			return false, nil
		}
	}
	return false, sc.Err()
}
