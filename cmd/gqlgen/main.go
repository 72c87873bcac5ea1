// Command gqlgen generates Quire's GraphQL execution code: gqlgen's own
// generation (configured by gqlgen.yml) with one plugin, inline, that reads
// the @inline marks of the SDL files. The marks are taken out of the
// sources first, so the schema the generated code publishes has none; the
// published schema is also written to graph/testdata/published.graphql.
// Lists of objects are then marshaled on kept goroutines (lists.go).
// `make generate` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gqlgen:", err)
		os.Exit(1)
	}
}

func run() error {
	// Moves to the directory of gqlgen.yml: every path below is relative
	// to it.
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		return fmt.Errorf("load config: %w", err)
	}
	inline, err := stripInline(cfg.Sources)
	if err != nil {
		return err
	}
	if err := api.Generate(cfg, api.AddPlugin(inlinePlugin{types: inline})); err != nil {
		return err
	}
	if err := rewriteLists(cfg.Exec.Dir()); err != nil {
		return err
	}
	return os.WriteFile(publishedFile, []byte(printPublished(cfg.Schema)), 0o644)
}
