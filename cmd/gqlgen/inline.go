package main

import (
	"github.com/99designs/gqlgen/codegen"
)

// inlineDirective marks the object types whose fields are resolved one
// after the other in the goroutine that resolves the object.
const inlineDirective = "inline"

// inlinePlugin turns off gqlgen's concurrent field execution for the object
// types the schema marks @inline. gqlgen starts a goroutine (with its field
// context and a stack that grows as the nested fields run) for every
// resolver field of every object of a list; for types whose resolvers read
// what the request has loaded already, that is most of the CPU of a nested
// read. Lists of such objects are still resolved concurrently, an item per
// goroutine, so sibling items still share the loaders' batches. gqlgen
// does the same for Mutation, whose fields must run in order.
type inlinePlugin struct{}

func (inlinePlugin) Name() string { return "inline" }

// GenerateCode runs before gqlgen writes the execution code, so the flag it
// sets is what the templates see.
func (inlinePlugin) GenerateCode(data *codegen.Data) error {
	for _, o := range data.Objects {
		if o.Definition != nil && o.Definition.Directives.ForName(inlineDirective) != nil {
			o.DisableConcurrency = true
		}
	}
	return nil
}
