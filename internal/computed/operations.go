package computed

import (
	"strings"

	"quire/internal/document"
	"quire/internal/textcut"
)

// methods are the operations a path item may hold, in the order a
// reference shows them when the path item does not order them itself.
var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true,
	"options": true, "head": true, "patch": true, "trace": true}

// tagGroup is the operations shown under one tag.
type tagGroup struct {
	name, description string
	ops               []document.OpenAPIOperation
}

// untagged names the group of operations without a tag.
const untagged = "Other operations"

// operations reads the operations of the specification, grouped by their
// first tag: the tags the document declares first, in its order, then
// the others as they appear, then the untagged operations. only, when not
// empty, keeps the group of that tag (by name or slug). At most
// MaxOperations operations are read; more reports truncated.
func (s *spec) operations(ref document.ContentRef, only string) (groups []*tagGroup, truncated bool) {
	root := s.rootDoc()
	byName := map[string]*tagGroup{}
	group := func(name string) *tagGroup {
		if g := byName[name]; g != nil {
			return g
		}
		g := &tagGroup{name: name}
		byName[name] = g
		groups = append(groups, g)
		return g
	}
	for _, t := range root.list("tags") {
		if m, ok := t.(*omap); ok && m.str("name") != "" {
			group(m.str("name")).description = textcut.Runes(m.str("description"), MaxText)
		}
	}
	count := 0
	paths := root.obj("paths")
	for _, p := range pathKeys(paths) {
		item := s.deref(s.root, paths.vals[p])
		im, ok := item.v.(*omap)
		if !ok {
			continue
		}
		file := s.root
		if item.key != "" {
			file = item.file
		}
		for _, method := range im.keys {
			op, ok := im.vals[method].(*omap)
			if !methods[method] || !ok {
				continue
			}
			tag := untagged
			if tags := op.list("tags"); len(tags) > 0 {
				if t, ok := tags[0].(string); ok && t != "" {
					tag = t
				}
			}
			if only != "" && !sameTag(tag, only) {
				continue
			}
			if count == MaxOperations {
				return nonEmpty(groups), true
			}
			count++
			g := group(tag)
			g.ops = append(g.ops, s.operation(ref, file, p, method, im, op))
		}
	}
	return nonEmpty(groups), false
}

func pathKeys(paths *omap) []string {
	if paths == nil {
		return nil
	}
	return paths.keys
}

// sameTag reports whether a props page names a tag: by its name or its
// slug, in any case.
func sameTag(tag, page string) bool {
	return strings.EqualFold(tag, page) || document.Slug(tag, 100) == document.Slug(page, 100)
}

// nonEmpty drops the declared tags no operation has, and puts the
// untagged operations last.
func nonEmpty(groups []*tagGroup) []*tagGroup {
	var out []*tagGroup
	var rest *tagGroup
	for _, g := range groups {
		switch {
		case len(g.ops) == 0:
		case g.name == untagged:
			rest = g
		default:
			out = append(out, g)
		}
	}
	if rest != nil {
		out = append(out, rest)
	}
	return out
}

// operation reads one operation of a path item.
func (s *spec) operation(ref document.ContentRef, file, p, method string, item, op *omap) document.OpenAPIOperation {
	r := s.schemaRenderer()
	out := document.OpenAPIOperation{
		Ref: ref, Method: method, Path: p,
		OperationID: textcut.Runes(op.str("operationId"), MaxName),
		Summary:     textcut.Runes(op.str("summary"), MaxText),
		Description: textcut.Runes(op.str("description"), MaxText),
		Deprecated:  op.boolean("deprecated"),
		Tags:        []string{}, Parameters: []document.OpenAPIParameter{}, Responses: []document.OpenAPIResponse{},
	}
	for _, t := range op.list("tags") {
		if s, ok := t.(string); ok {
			out.Tags = append(out.Tags, textcut.Runes(s, MaxName))
		}
	}
	// Parameters of the path item apply unless the operation gives one of
	// the same name and place.
	type key struct{ name, in string }
	var params []document.OpenAPIParameter
	at := map[key]int{}
	for _, list := range [][]any{item.list("parameters"), op.list("parameters")} {
		for _, v := range list {
			if len(params) == MaxParameters {
				break
			}
			p, ok := s.parameter(r, file, v)
			if !ok {
				continue
			}
			k := key{p.Name, p.In}
			if i, dup := at[k]; dup {
				params[i] = p
				continue
			}
			at[k] = len(params)
			params = append(params, p)
		}
	}
	out.Parameters = append(out.Parameters, params...)
	if rb := s.deref(file, op.get("requestBody")); rb.v != nil {
		if m, ok := rb.v.(*omap); ok {
			f := file
			if rb.key != "" {
				f = rb.file
			}
			out.RequestBody = &document.OpenAPIRequestBody{
				Description: textcut.Runes(m.str("description"), MaxText), Required: m.boolean("required"),
				Content: s.content(r, f, m.obj("content")),
			}
		}
	}
	if responses := op.obj("responses"); responses != nil {
		for i, status := range responses.keys {
			if i == MaxResponses {
				break
			}
			t := s.deref(file, responses.vals[status])
			m, ok := t.v.(*omap)
			if !ok {
				continue
			}
			f := file
			if t.key != "" {
				f = t.file
			}
			out.Responses = append(out.Responses, document.OpenAPIResponse{
				Status: textcut.Runes(status, MaxName), Description: textcut.Runes(m.str("description"), MaxText),
				Content: s.content(r, f, m.obj("content")),
			})
		}
	}
	return out
}

func (s *spec) parameter(r *schemas, file string, v any) (document.OpenAPIParameter, bool) {
	t := s.deref(file, v)
	m, ok := t.v.(*omap)
	if !ok || m.str("name") == "" {
		return document.OpenAPIParameter{}, false
	}
	if t.key != "" {
		file = t.file
	}
	p := document.OpenAPIParameter{
		Name: textcut.Runes(m.str("name"), MaxName), In: textcut.Runes(m.str("in"), MaxName),
		Required: m.boolean("required") || m.str("in") == "path", Deprecated: m.boolean("deprecated"),
		Description: textcut.Runes(m.str("description"), MaxText),
	}
	if sch, ok := m.vals["schema"]; ok {
		p.Schema = r.render(file, sch, 0, nil)
	} else if c := s.content(r, file, m.obj("content")); len(c) > 0 {
		p.Schema = c[0].Schema
	}
	return p, true
}

// content reads the media types of a body, in the order written.
func (s *spec) content(r *schemas, file string, c *omap) []document.OpenAPIMediaType {
	out := []document.OpenAPIMediaType{}
	if c == nil {
		return out
	}
	for i, mt := range c.keys {
		if i == MaxMediaTypes {
			break
		}
		m, _ := c.vals[mt].(*omap)
		out = append(out, document.OpenAPIMediaType{MediaType: textcut.Runes(mt, MaxName), Schema: r.render(file, m.get("schema"), 0, nil)})
	}
	return out
}

// models reads the component schemas, at most MaxModels; more reports
// truncated.
func (s *spec) models() (out []document.OpenAPINamedSchema, truncated bool) {
	comps := s.rootDoc().obj("components").obj("schemas")
	if comps == nil {
		return nil, false
	}
	for i, name := range comps.keys {
		if i == MaxModels {
			return out, true
		}
		r := s.schemaRenderer()
		// The schema itself is on the way down: a property referring back
		// to it is cut.
		self := s.root + "#/components/schemas/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
		sch := r.render(s.root, comps.vals[name], 0, []string{self})
		if sch == nil {
			sch = &document.OpenAPISchema{}
		}
		out = append(out, document.OpenAPINamedSchema{Name: textcut.Runes(name, MaxName), Schema: sch})
	}
	return out, false
}
