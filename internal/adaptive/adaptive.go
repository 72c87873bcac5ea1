// Package adaptive validates a site's adaptive-content schema — the JSON
// Schema (draft-07) describing the claims a site expects from its visitors —
// and derives template conditions from it.
//
// A schema is a draft-07 object schema with additionalProperties false whose
// properties are claims. A claim is a boolean, a string (optionally with an
// enum), a number, an array of those, or a nested object of claims. The
// property unsigned, if present, is an object of boolean unsigned claims.
// Conditions refer to claims as visitor.claims.<name>, and to unsigned claims
// as visitor.claims.unsigned.<name>.
package adaptive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"quire/internal/apierr"
)

// DraftURI is the only accepted value of the schema's $schema keyword.
const DraftURI = "http://json-schema.org/draft-07/schema#"

// Limits on a schema.
const (
	// MaxDepth is how deeply claims may nest: a top-level claim is at depth
	// 1, a claim inside a top-level object claim at depth 2, and so on.
	MaxDepth = 5
	// MaxClaims bounds the number of claims, counting nested and unsigned
	// claims and object claims themselves.
	MaxClaims = 100
)

// Claim types.
const (
	TypeBoolean = "boolean"
	TypeString  = "string"
	TypeNumber  = "number"
	TypeArray   = "array"
	TypeObject  = "object"
)

// UnsignedProperty is the top-level property holding unsigned claims.
const UnsignedProperty = "unsigned"

// field is the request-body field holding the schema.
const field = "jsonSchema"

// Validate checks the body of updateSiteAdaptiveSchema, {"jsonSchema": {...}}:
// the jsonSchema member must be present and pass ValidateSchema. Other members
// are ignored.
func Validate(raw json.RawMessage) error {
	body, err := parse(raw, false)
	if err != nil {
		return apierr.Invalid("", "The request body is not valid JSON: %v", err)
	}
	if body.kind != kindObject {
		return apierr.Invalid("", "The request body must be a JSON object")
	}
	if _, ok := body.fields[field]; !ok {
		return apierr.Invalid(field, "jsonSchema is required")
	}
	// Re-encode just the member so that ValidateSchema sees its own bytes.
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return apierr.Invalid("", "The request body is not valid JSON: %v", err)
	}
	return ValidateSchema(members[field])
}

// ValidateSchema checks an adaptive schema (the value of jsonSchema). It must
// be a valid JSON Schema draft-07 document and follow the documented shape.
// The error is a 400 whose field is jsonSchema or the path of the offending
// value inside it, such as jsonSchema.properties.plan.type.
func ValidateSchema(schema json.RawMessage) error {
	root := path{}.with(field)
	if len(bytes.TrimSpace(schema)) == 0 {
		return invalid(root, "is required")
	}
	doc, err := parse(schema, true)
	if err != nil {
		if errors.Is(err, errDuplicateKey) {
			return invalid(root, "has a %v", err)
		}
		return invalid(root, "is not valid JSON: %v", err)
	}
	if doc.kind != kindObject {
		return invalid(root, "must be an object, got %s", doc.kind)
	}
	// Checked before compiling so that no other meta-schema is ever looked up.
	if s := doc.get("$schema"); s != nil {
		if v, _ := s.stringValue(); v != DraftURI {
			return invalid(root.with("$schema"), "must be %q", DraftURI)
		}
	}
	if err := compileDraft7(schema, doc); err != nil {
		return err
	}
	v := &validator{}
	return v.root(root, doc)
}

// invalid is a 400 naming p, with a message that starts with p.
func invalid(p path, format string, args ...any) error {
	where := p.String()
	return apierr.Invalid(where, "%s %s", where, fmt.Sprintf(format, args...))
}

const resourceURL = "urn:quire:adaptive-schema"

// compileDraft7 compiles the schema as draft-07, which validates it against
// the embedded draft-07 meta-schema. No loader is installed: references to
// anything but the document itself fail instead of touching the network or
// the file system.
func compileDraft7(raw json.RawMessage, doc *node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = invalid(path{}.with(field), "is not a valid JSON Schema draft-07 document")
		}
	}()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return invalid(path{}.with(field), "is not valid JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource(resourceURL, v); err != nil {
		return invalid(path{}.with(field), "is not a valid JSON Schema draft-07 document: %v", err)
	}
	if _, err := c.Compile(resourceURL); err != nil {
		var sve *jsonschema.SchemaValidationError
		var ve *jsonschema.ValidationError
		if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
			leaf := deepest(ve)
			p := locate(doc, leaf.InstanceLocation)
			return invalid(p, "is not valid JSON Schema draft-07: %s", leaf.ErrorKind.LocalizedString(printer))
		}
		msg := strings.ReplaceAll(err.Error(), resourceURL, "")
		return invalid(path{}.with(field), "is not a valid JSON Schema draft-07 document: %s", msg)
	}
	return nil
}

var printer = message.NewPrinter(language.English)

// deepest returns the first of the leaf errors with the longest instance
// location: the most specific reason.
func deepest(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := e
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if best == nil || len(best.Causes) > 0 || len(e.InstanceLocation) > len(best.InstanceLocation) {
				best = e
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(e)
	return best
}

// locate turns a JSON pointer's tokens into a path under jsonSchema.
func locate(doc *node, tokens []string) path {
	p := path{}.with(field)
	cur := doc
	for _, t := range tokens {
		if cur != nil && cur.kind == kindArray {
			if i, err := strconv.Atoi(t); err == nil && i >= 0 {
				p = p.index(i)
				if i < len(cur.items) {
					cur = cur.items[i]
				} else {
					cur = nil
				}
				continue
			}
		}
		p = p.with(t)
		cur = cur.get(t)
	}
	return p
}

// validator checks the documented shape of an adaptive schema.
type validator struct {
	claims int
}

func (v *validator) root(p path, doc *node) error {
	if err := onlyKeys(p, doc, "$schema", "type", "properties", "additionalProperties"); err != nil {
		return err
	}
	if t := doc.get("type"); t == nil {
		return invalid(p.with("type"), "is required and must be %q", TypeObject)
	} else if s, _ := t.stringValue(); s != TypeObject {
		return invalid(p.with("type"), "must be %q", TypeObject)
	}
	if err := requireFalse(p, doc); err != nil {
		return err
	}
	props, err := properties(p, doc)
	if err != nil {
		return err
	}
	pp := p.with("properties")
	for _, name := range props.keys {
		if name == UnsignedProperty {
			if err := v.unsigned(pp.with(name), props.fields[name]); err != nil {
				return err
			}
			continue
		}
		if err := v.claim(pp, name, props.fields[name], 1, false); err != nil {
			return err
		}
	}
	return nil
}

func (v *validator) unsigned(p path, n *node) error {
	if n.kind != kindObject {
		return invalid(p, "must be an object schema of boolean claims, got %s", n.kind)
	}
	if err := onlyKeys(p, n, "type", "description", "properties", "additionalProperties"); err != nil {
		return err
	}
	if s, _ := n.get("type").stringValue(); s != TypeObject {
		return invalid(p.with("type"), "must be %q", TypeObject)
	}
	if err := description(p, n); err != nil {
		return err
	}
	if err := requireFalse(p, n); err != nil {
		return err
	}
	props, err := properties(p, n)
	if err != nil {
		return err
	}
	for _, name := range props.keys {
		if err := v.claim(p.with("properties"), name, props.fields[name], 1, true); err != nil {
			return err
		}
	}
	return nil
}

// claim checks the claim name declared in the properties object at parent.
func (v *validator) claim(parent path, name string, n *node, depth int, unsigned bool) error {
	p := parent.with(name)
	if strings.TrimSpace(name) == "" {
		return invalid(p, "is not a valid claim name: names must not be blank")
	}
	v.claims++
	if v.claims > MaxClaims {
		return invalid(p, "exceeds the limit of %d claims", MaxClaims)
	}
	if n.kind != kindObject {
		return invalid(p, "must be an object describing the claim, got %s", n.kind)
	}
	tn := n.get("type")
	if tn == nil {
		return invalid(p.with("type"), "is required")
	}
	typ, _ := tn.stringValue()
	if unsigned && typ != TypeBoolean {
		return invalid(p.with("type"), "must be %q: unsigned claims are booleans", TypeBoolean)
	}
	switch typ {
	case TypeBoolean, TypeString, TypeNumber:
		return primitive(p, n)
	case TypeArray:
		if err := onlyKeys(p, n, "type", "description", "items"); err != nil {
			return err
		}
		if err := description(p, n); err != nil {
			return err
		}
		items := n.get("items")
		if items == nil {
			return invalid(p.with("items"), "is required")
		}
		ip := p.with("items")
		if items.kind != kindObject {
			return invalid(ip, "must be a single object schema, got %s", items.kind)
		}
		switch t, _ := items.get("type").stringValue(); t {
		case TypeBoolean, TypeString, TypeNumber:
			return primitive(ip, items)
		default:
			return invalid(ip.with("type"), "must be one of boolean, string or number")
		}
	case TypeObject:
		if depth >= MaxDepth {
			return invalid(p, "nests claims more than %d levels deep", MaxDepth)
		}
		if err := onlyKeys(p, n, "type", "description", "properties", "additionalProperties"); err != nil {
			return err
		}
		if err := description(p, n); err != nil {
			return err
		}
		if err := requireFalse(p, n); err != nil {
			return err
		}
		props, err := properties(p, n)
		if err != nil {
			return err
		}
		for _, child := range props.keys {
			if err := v.claim(p.with("properties"), child, props.fields[child], depth+1, false); err != nil {
				return err
			}
		}
		return nil
	}
	return invalid(p.with("type"), "must be one of boolean, string, number, array or object")
}

// primitive checks a boolean, string or number schema (a claim or array
// items).
func primitive(p path, n *node) error {
	typ, _ := n.get("type").stringValue()
	if typ == TypeString {
		if err := onlyKeys(p, n, "type", "description", "enum"); err != nil {
			return err
		}
		if e := n.get("enum"); e != nil {
			ep := p.with("enum")
			if e.kind != kindArray || len(e.items) == 0 {
				return invalid(ep, "must be a non-empty array of strings")
			}
			seen := map[string]bool{}
			for i, it := range e.items {
				s, ok := it.stringValue()
				if !ok {
					return invalid(ep.index(i), "must be a string, got %s", it.kind)
				}
				if seen[s] {
					return invalid(ep.index(i), "repeats %q", s)
				}
				seen[s] = true
			}
		}
	} else if err := onlyKeys(p, n, "type", "description"); err != nil {
		return err
	}
	return description(p, n)
}

func description(p path, n *node) error {
	if d := n.get("description"); d != nil && d.kind != kindString {
		return invalid(p.with("description"), "must be a string, got %s", d.kind)
	}
	return nil
}

func requireFalse(p path, n *node) error {
	if !n.get("additionalProperties").isFalse() {
		return invalid(p.with("additionalProperties"), "must be false")
	}
	return nil
}

func properties(p path, n *node) (*node, error) {
	props := n.get("properties")
	if props == nil {
		return nil, invalid(p.with("properties"), "is required")
	}
	if props.kind != kindObject {
		return nil, invalid(p.with("properties"), "must be an object, got %s", props.kind)
	}
	return props, nil
}

// onlyKeys rejects keywords outside allowed.
func onlyKeys(p path, n *node, allowed ...string) error {
	for _, k := range n.keys {
		ok := false
		for _, a := range allowed {
			if k == a {
				ok = true
				break
			}
		}
		if !ok {
			return invalid(p.with(k), "is not supported here; allowed keywords are %s", strings.Join(allowed, ", "))
		}
	}
	return nil
}
