package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
)

// Lists of objects: gqlgen's generated code marshals their items with
// graphql.MarshalSliceConcurrently, a new goroutine per item; Quire's
// generated code calls lists.MarshalSliceConcurrently, the same on kept
// goroutines (see graph/lists). The call is rewritten in the files gqlgen
// wrote, once it has written them, and the files are formatted again.
const (
	gqlgenListCall = "graphql.MarshalSliceConcurrently("
	quireListCall  = "lists.MarshalSliceConcurrently("
	listsImport    = `"quire/graph/lists"`
)

// rewriteLists rewrites the list calls of the Go files of dir. A run that
// finds no call at all fails: gqlgen changed, and the rewrite with it.
func rewriteLists(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	total := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		n := bytes.Count(src, []byte(gqlgenListCall))
		if n == 0 {
			continue
		}
		total += n
		out := bytes.ReplaceAll(src, []byte(gqlgenListCall), []byte(quireListCall))
		i := bytes.Index(out, []byte("import (\n"))
		if i < 0 {
			return fmt.Errorf("%s: no import block", f)
		}
		i += len("import (\n")
		out = append(out[:i:i], append([]byte("\t"+listsImport+"\n"), out[i:]...)...)
		if out, err = format.Source(out); err != nil {
			return fmt.Errorf("%s: format after rewriting list calls: %w", f, err)
		}
		if err := os.WriteFile(f, out, 0o644); err != nil {
			return err
		}
	}
	if total == 0 {
		return fmt.Errorf("no %s in %s: gqlgen's generated code changed; see cmd/gqlgen/lists.go", gqlgenListCall, dir)
	}
	return nil
}
