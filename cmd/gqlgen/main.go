// Command gqlgen generates Quire's GraphQL execution code: gqlgen's own
// generation (configured by gqlgen.yml) with one plugin, inline, that reads
// the schema's @inline directive. `make generate` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

func main() {
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gqlgen: load config:", err)
		os.Exit(2)
	}
	if err := api.Generate(cfg, api.AddPlugin(inlinePlugin{})); err != nil {
		fmt.Fprintln(os.Stderr, "gqlgen:", err)
		os.Exit(3)
	}
}
