package render

import (
	"strings"

	"quire/internal/document"
)

// The OpenAPI blocks render what their data carries. A generated block
// (computed pages) carries the operation or the schemas themselves
// (document.OpenAPIOperationOf, OpenAPISchemasOf) and renders in full: the
// method and path, summary, description, and tables of parameters, request
// body, responses and schema properties. A stored block only points into a
// specification and renders as that pointer: the operation's method and
// path, the schemas' names, and a link to the specification when the
// reader may follow it (its name as plain text otherwise).

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

func (r *renderer) openAPI(n *document.Node) {
	if op, ok := document.OpenAPIOperationOf(n); ok {
		r.operation(op)
		return
	}
	if s, ok := document.OpenAPISchemasOf(n); ok {
		r.schemas(s)
		return
	}
	ref, _ := n.Ref()
	switch n.Type {
	case document.BlockOpenAPIOperation:
		r.w(`<div class="openapi-operation">`)
		r.endpoint(dataString(n, "method"), dataString(n, "path"))
		r.specLink(ref)
		r.w("</div>\n")
	case document.BlockOpenAPISchemas:
		r.w(`<div class="openapi-schemas"><p>`)
		names, _ := n.Data["schemas"].([]any)
		first := true
		for _, v := range names {
			if s, ok := v.(string); ok && s != "" {
				if !first {
					r.w(", ")
				}
				first = false
				r.w("<code>")
				r.esc(s)
				r.w("</code>")
			}
		}
		r.w("</p>")
		r.specLink(ref)
		r.w("</div>\n")
	case document.BlockOpenAPIWebhook:
		r.w(`<div class="openapi-webhook">`)
		if name := dataString(n, "name"); name != "" {
			r.w(`<p class="openapi-endpoint">Webhook <code>`)
			r.esc(name)
			r.w("</code></p>")
		}
		r.specLink(ref)
		r.w("</div>\n")
	default: // swagger: a specification file or URL
		r.w(`<div class="openapi-swagger">`)
		r.specLink(ref)
		r.w("</div>\n")
	}
}

// endpoint writes the method and path of an operation.
func (r *renderer) endpoint(method, path string) {
	r.w(`<p class="openapi-endpoint">`)
	if m := strings.ToLower(method); m != "" {
		class := "http-method"
		if oneOf(m, httpMethods...) != "" {
			class += " http-" + m
		}
		r.open("span", class)
		r.esc(strings.ToUpper(method))
		r.w("</span> ")
	}
	r.w("<code>")
	r.esc(path)
	r.w("</code></p>")
	r.addText(strings.ToUpper(method) + " " + path + " ")
}

// specLink links to the specification a block points into.
func (r *renderer) specLink(ref document.ContentRef) {
	name := ref.Spec
	var href string
	ok := false
	switch ref.Kind {
	case document.RefFile:
		var f File
		if f, ok = r.file(ref.File); ok {
			href, name = f.URL, f.Name
		}
	case document.RefURL, document.RefOpenAPI:
		href, ok = r.resolve(ref)
		if ref.Kind == document.RefURL {
			name = ref.URL
		}
	default:
		return
	}
	if name == "" {
		name = href
	}
	if name == "" {
		return
	}
	r.w(`<p class="openapi-spec">OpenAPI specification: `)
	if ok && r.inLink == 0 {
		r.w("<a")
		r.attr("href", href)
		r.w(">")
		r.esc(name)
		r.w("</a>")
	} else {
		r.esc(name)
	}
	r.w("</p>")
}

func (r *renderer) operation(op *document.OpenAPIOperation) {
	r.w(`<section class="openapi-operation">`)
	r.endpoint(op.Method, op.Path)
	if op.Deprecated {
		r.w(`<p class="deprecated"><strong>Deprecated.</strong></p>`)
	}
	if op.Summary != "" {
		r.paragraphs(op.Summary, "openapi-summary")
	}
	if op.Description != "" && op.Description != op.Summary {
		r.paragraphs(op.Description, "")
	}
	if len(op.Parameters) > 0 {
		r.w("<h5>Parameters</h5>")
		r.simpleTable([]string{"Name", "In", "Required", "Type", "Description"}, len(op.Parameters), func(i int) []cellValue {
			p := op.Parameters[i]
			return []cellValue{{p.Name, true}, {p.In, false}, {yesNo(p.Required), false},
				{document.SchemaSummary(p.Schema), false}, {p.Description, false}}
		})
	}
	if rb := op.RequestBody; rb != nil {
		r.w("<h5>Request body</h5>")
		if rb.Description != "" {
			r.paragraphs(rb.Description, "")
		}
		if len(rb.Content) > 0 {
			r.simpleTable([]string{"Content type", "Schema", "Properties"}, len(rb.Content), func(i int) []cellValue {
				c := rb.Content[i]
				return []cellValue{{c.MediaType, true}, {document.SchemaSummary(c.Schema), false}, {propertyList(c.Schema), false}}
			})
		}
	}
	if len(op.Responses) > 0 {
		r.w("<h5>Responses</h5>")
		r.simpleTable([]string{"Status", "Description", "Content"}, len(op.Responses), func(i int) []cellValue {
			resp := op.Responses[i]
			var content []string
			for _, c := range resp.Content {
				content = append(content, c.MediaType+": "+document.SchemaSummary(c.Schema))
			}
			return []cellValue{{resp.Status, true}, {resp.Description, false}, {strings.Join(content, "; "), false}}
		})
	}
	r.w("</section>\n")
}

func (r *renderer) schemas(s *document.OpenAPISchemas) {
	r.w(`<div class="openapi-schemas">`)
	for _, d := range s.Definitions {
		r.w(`<section class="openapi-schema"><h5><code>`)
		r.esc(d.Name)
		r.w("</code></h5>")
		r.addText(d.Name + " ")
		if d.Schema == nil {
			r.w("</section>")
			continue
		}
		if d.Schema.Description != "" {
			r.paragraphs(d.Schema.Description, "")
		}
		props := d.Schema.Properties
		if len(props) == 0 {
			r.w("<p>Type: <code>")
			r.esc(document.SchemaSummary(d.Schema))
			r.w("</code></p>")
		} else {
			r.simpleTable([]string{"Property", "Type", "Required", "Description"}, len(props), func(i int) []cellValue {
				p := props[i]
				desc := ""
				if p.Schema != nil {
					desc = p.Schema.Description
				}
				return []cellValue{{p.Name, true}, {document.SchemaSummary(p.Schema), false}, {yesNo(p.Required), false}, {desc, false}}
			})
		}
		r.w("</section>")
	}
	r.w("</div>\n")
}

type cellValue struct {
	text string
	code bool // shown as <code>
}

// simpleTable writes a table of text cells, rows made on demand.
func (r *renderer) simpleTable(head []string, rows int, row func(i int) []cellValue) {
	r.w("<div class=\"table-wrapper\"><table><thead><tr>")
	for _, h := range head {
		r.w(`<th scope="col">`)
		r.esc(h)
		r.w("</th>")
	}
	r.w("</tr></thead><tbody>\n")
	for i := 0; i < rows; i++ {
		r.w("<tr>")
		for _, c := range row(i) {
			r.w("<td>")
			if c.code && c.text != "" {
				r.w("<code>")
				r.esc(c.text)
				r.w("</code>")
			} else {
				r.esc(c.text)
			}
			r.w("</td>")
		}
		r.w("</tr>\n")
	}
	r.w("</tbody></table></div>")
}

// paragraphs writes text whose blank lines separate paragraphs.
func (r *renderer) paragraphs(s, class string) {
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		r.open("p", class)
		r.esc(p)
		r.w("</p>")
		r.addText(p + " ")
	}
}

// propertyList names the properties of a body's schema, required ones
// marked with an asterisk.
func propertyList(s *document.OpenAPISchema) string {
	if s == nil {
		return ""
	}
	names := make([]string, 0, len(s.Properties))
	for _, p := range s.Properties {
		n := p.Name
		if p.Required {
			n += "*"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
