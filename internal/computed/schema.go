package computed

import (
	"encoding/json"
	"slices"

	"quire/internal/document"
	"quire/internal/textcut"
)

// schemas renders the schemas of one block, within the block's budget of
// schema nodes (MaxSchemaNodes).
type schemas struct {
	spec   *spec
	budget int
}

func (s *spec) schemaRenderer() *schemas { return &schemas{spec: s, budget: MaxSchemaNodes} }

// render renders the schema v written in file. seen holds the references
// being expanded on the way down: a reference back to one of them is cut
// (Circular). Past MaxSchemaDepth, or once the block's budget is spent, a
// schema is cut (Truncated) with its name and type only.
func (r *schemas) render(file string, v any, depth int, seen []string) *document.OpenAPISchema {
	if v == nil {
		return nil
	}
	t := r.spec.deref(file, v)
	out := &document.OpenAPISchema{Name: t.name}
	if t.key != "" && slices.Contains(seen, t.key) {
		out.Circular = true
		return out
	}
	m, ok := t.v.(*omap)
	if !ok {
		if b, isBool := t.v.(bool); isBool && b {
			return &document.OpenAPISchema{Type: "any"}
		}
		return out
	}
	r.budget--
	typeOf(m, out)
	if depth >= MaxSchemaDepth || r.budget <= 0 {
		out.Truncated = true
		return out
	}
	if t.key != "" {
		seen = append(seen, t.key)
	}
	out.Description = textcut.Runes(m.str("description"), MaxText)
	out.Deprecated = m.boolean("deprecated")
	out.ReadOnly, out.WriteOnly = m.boolean("readOnly"), m.boolean("writeOnly")
	for i, e := range m.list("enum") {
		if i == MaxEnum {
			out.Truncated = true
			break
		}
		out.Enum = append(out.Enum, textcut.Runes(scalarText(e), MaxName))
	}
	if v, ok := m.vals["default"]; ok {
		out.Default = jsonText(v)
	}
	if v, ok := m.vals["example"]; ok {
		out.Example = jsonText(v)
	}
	file = t.file
	if props := m.obj("properties"); props != nil {
		required := map[string]bool{}
		for _, n := range m.list("required") {
			if s, ok := n.(string); ok {
				required[s] = true
			}
		}
		for i, name := range props.keys {
			if i == MaxProperties || r.budget <= 0 {
				out.Truncated = true
				break
			}
			out.Properties = append(out.Properties, document.OpenAPIProperty{
				Name: textcut.Runes(name, MaxName), Required: required[name],
				Schema: r.render(file, props.vals[name], depth+1, seen),
			})
		}
	}
	if items, ok := m.vals["items"]; ok {
		out.Items = r.render(file, items, depth+1, seen)
	}
	if ap, ok := m.vals["additionalProperties"].(*omap); ok {
		out.AdditionalProperties = r.render(file, ap, depth+1, seen)
	}
	out.OneOf = r.list(file, m.list("oneOf"), depth, seen, out)
	out.AnyOf = r.list(file, m.list("anyOf"), depth, seen, out)
	out.AllOf = r.list(file, m.list("allOf"), depth, seen, out)
	return out
}

func (r *schemas) list(file string, l []any, depth int, seen []string, parent *document.OpenAPISchema) []*document.OpenAPISchema {
	var out []*document.OpenAPISchema
	for i, v := range l {
		if i == MaxVariants || r.budget <= 0 {
			parent.Truncated = true
			break
		}
		if s := r.render(file, v, depth+1, seen); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// typeOf sets the type, format and nullability: OpenAPI 3.0 spells null
// with nullable, 3.1 with a type list holding "null".
func typeOf(m *omap, out *document.OpenAPISchema) {
	switch t := m.get("type").(type) {
	case string:
		out.Type = t
	case []any:
		for _, x := range t {
			s, _ := x.(string)
			switch {
			case s == "null":
				out.Nullable = true
			case out.Type == "":
				out.Type = s
			}
		}
	}
	if out.Type == "" {
		if m.get("properties") != nil {
			out.Type = "object"
		} else if m.get("items") != nil {
			out.Type = "array"
		}
	}
	out.Format = textcut.Runes(m.str("format"), MaxName)
	out.Nullable = out.Nullable || m.boolean("nullable")
}

// jsonText is a value as JSON text, cut at MaxName characters.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return textcut.Runes(string(b), MaxName)
}
