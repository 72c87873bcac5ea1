package openapispec

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

// schemas holds the compiled OpenAPI schema of each version libopenapi
// knows, compiled once per process.
var schemas sync.Map // sha256 of the schema text → *jsonschema.Schema

// apiSchema compiles the JSON Schema of the document's OpenAPI version
// (shipped with libopenapi). The compiler loads nothing from anywhere:
// the schema refers only to itself and to drafts the library has built
// in.
func apiSchema(text string) (*jsonschema.Schema, error) {
	key := sha256.Sum256([]byte(text))
	if s, ok := schemas.Load(key); ok {
		return s.(*jsonschema.Schema), nil
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("read the OpenAPI schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource("urn:quire:openapi-schema", doc); err != nil {
		return nil, fmt.Errorf("add the OpenAPI schema: %w", err)
	}
	s, err := c.Compile("urn:quire:openapi-schema")
	if err != nil {
		return nil, fmt.Errorf("compile the OpenAPI schema: %w", err)
	}
	schemas.Store(key, s)
	return s, nil
}

// checkSchema validates the root document against the schema of its
// OpenAPI version; each violation is an issue at the place in the file
// where it is.
func (c *collection) checkSchema(doc libopenapi.Document) []issue {
	root := c.files[0]
	info := doc.GetSpecInfo()
	if info == nil || info.APISchema == "" || info.SpecJSONBytes == nil {
		return nil
	}
	s, err := apiSchema(info.APISchema)
	if err != nil {
		return []issue{{file: root, code: ErrDocument, msg: err.Error()}}
	}
	// The document as the JSON values the schema is written for.
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(*info.SpecJSONBytes)))
	if err != nil {
		var v any
		if jerr := json.Unmarshal(*info.SpecJSONBytes, &v); jerr != nil {
			return []issue{{file: root, code: ErrDocument, msg: "the document has values JSON cannot hold: " + jerr.Error()}}
		}
		inst = v
	}
	verr := s.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil
	}
	p := message.NewPrinter(language.English)
	var out []issue
	seen := map[string]bool{}
	for _, leaf := range leaves(ve) {
		at := pointer(leaf.InstanceLocation)
		msg := at + ": " + leaf.ErrorKind.LocalizedString(p)
		if _, ok := leaf.ErrorKind.(*kind.FalseSchema); ok && len(leaf.InstanceLocation) > 0 {
			msg = fmt.Sprintf("%s: %q is not a field OpenAPI allows here", at, leaf.InstanceLocation[len(leaf.InstanceLocation)-1])
		}
		if seen[msg] {
			continue
		}
		seen[msg] = true
		is := issue{file: root, code: ErrDocument, msg: msg}
		if n := locate(root.root, leaf.InstanceLocation); n != nil {
			is.line, is.col = n.Line, n.Column
		}
		out = append(out, is)
	}
	return out
}

// leaves returns the innermost errors of a validation error. Where the
// schema offers alternatives (oneOf, anyOf: a Reference or a Response,
// say), the alternatives that fail only for lack of a $ref are left out:
// the value was not meant as a reference, and the other alternative
// tells what is wrong with it.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	causes := e.Causes
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		var kept []*jsonschema.ValidationError
		for _, c := range causes {
			if !onlyMissingRef(c) {
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 {
			causes = kept
		}
	}
	var out []*jsonschema.ValidationError
	for _, c := range causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// onlyMissingRef reports an error whose every leaf is a missing $ref.
func onlyMissingRef(e *jsonschema.ValidationError) bool {
	if len(e.Causes) == 0 {
		r, ok := e.ErrorKind.(*kind.Required)
		return ok && len(r.Missing) == 1 && r.Missing[0] == "$ref"
	}
	for _, c := range e.Causes {
		if !onlyMissingRef(c) {
			return false
		}
	}
	return true
}

// pointer writes an instance location as a JSON pointer.
func pointer(loc []string) string {
	if len(loc) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// locate finds the node at an instance location: the key of a mapping
// entry (where a reader looks for it), or the item of a sequence.
func locate(doc *yaml.Node, loc []string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	at := n
	for _, tok := range loc {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					at, n, found = n.Content[i], n.Content[i+1], true
					break
				}
			}
			if !found {
				return at
			}
		case yaml.SequenceNode:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(n.Content) {
				return at
			}
			at, n = n.Content[i], n.Content[i]
		default:
			return at
		}
	}
	return at
}
