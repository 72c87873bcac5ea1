package document

import (
	"strings"
)

// Markdown of the generated OpenAPI blocks (openapidata.go): an operation
// is a heading with its method and path, its summary and description, and
// tables of its parameters, request body and responses; a schemas block
// is a heading per schema and a table of its properties. Markdown has no
// construct that reads back as these blocks: the text is for readers.

// renderOpenAPIOperation renders a generated operation.
func renderOpenAPIOperation(op *OpenAPIOperation) string {
	var parts []string
	parts = append(parts, "## `"+strings.ToUpper(op.Method)+"` "+codeSpan(op.Path, modeHeading))
	if op.Deprecated {
		parts = append(parts, "**Deprecated.**")
	}
	if op.Summary != "" {
		parts = append(parts, mdParagraphs(op.Summary))
	}
	if op.Description != "" && op.Description != op.Summary {
		parts = append(parts, mdParagraphs(op.Description))
	}
	if len(op.Parameters) > 0 {
		rows := [][]string{}
		for _, p := range op.Parameters {
			rows = append(rows, []string{"`" + cellText(p.Name) + "`", cellText(p.In), yesNo(p.Required), cellText(SchemaSummary(p.Schema)), cellText(p.Description)})
		}
		parts = append(parts, "### Parameters", mdTable([]string{"Name", "In", "Required", "Type", "Description"}, rows))
	}
	if rb := op.RequestBody; rb != nil {
		parts = append(parts, "### Request body")
		if rb.Description != "" {
			parts = append(parts, mdParagraphs(rb.Description))
		}
		rows := [][]string{}
		for _, c := range rb.Content {
			rows = append(rows, []string{"`" + cellText(c.MediaType) + "`", cellText(SchemaSummary(c.Schema)), cellText(propertyList(c.Schema))})
		}
		if len(rows) > 0 {
			parts = append(parts, mdTable([]string{"Content type", "Schema", "Properties"}, rows))
		}
	}
	if len(op.Responses) > 0 {
		rows := [][]string{}
		for _, r := range op.Responses {
			var content []string
			for _, c := range r.Content {
				content = append(content, "`"+cellText(c.MediaType)+"`: "+cellText(SchemaSummary(c.Schema)))
			}
			rows = append(rows, []string{cellText(r.Status), cellText(r.Description), strings.Join(content, "; ")})
		}
		parts = append(parts, "### Responses", mdTable([]string{"Status", "Description", "Content"}, rows))
	}
	return strings.Join(parts, "\n\n")
}

// renderOpenAPISchemas renders generated schemas.
func renderOpenAPISchemas(s *OpenAPISchemas) string {
	var parts []string
	for _, d := range s.Definitions {
		parts = append(parts, "## "+escapeText(d.Name, modeHeading, false, false))
		if d.Schema == nil {
			continue
		}
		if d.Schema.Description != "" {
			parts = append(parts, mdParagraphs(d.Schema.Description))
		}
		if len(d.Schema.Properties) == 0 {
			parts = append(parts, "Type: "+escapeText(SchemaSummary(d.Schema), modePara, false, false))
			continue
		}
		rows := [][]string{}
		for _, p := range d.Schema.Properties {
			desc := ""
			if p.Schema != nil {
				desc = p.Schema.Description
			}
			rows = append(rows, []string{"`" + cellText(p.Name) + "`", cellText(SchemaSummary(p.Schema)), yesNo(p.Required), cellText(desc)})
		}
		parts = append(parts, mdTable([]string{"Property", "Type", "Required", "Description"}, rows))
	}
	return strings.Join(parts, "\n\n")
}

// SchemaSummary is a schema in a few words: its name, or its type with
// format, items and variants ("array of Pet", "string (date-time)",
// "one of Cat, Dog").
func SchemaSummary(s *OpenAPISchema) string {
	if s == nil {
		return ""
	}
	if s.Name != "" {
		return s.Name
	}
	variants := func(word string, list []*OpenAPISchema) string {
		names := make([]string, 0, len(list))
		for _, v := range list {
			names = append(names, SchemaSummary(v))
		}
		return word + " " + strings.Join(names, ", ")
	}
	var out string
	switch {
	case s.Type == "array" && s.Items != nil:
		out = "array of " + SchemaSummary(s.Items)
	case len(s.OneOf) > 0:
		out = variants("one of", s.OneOf)
	case len(s.AnyOf) > 0:
		out = variants("any of", s.AnyOf)
	case len(s.AllOf) > 0:
		out = variants("all of", s.AllOf)
	case s.Type != "":
		out = s.Type
	default:
		out = "any"
	}
	if s.Format != "" {
		out += " (" + s.Format + ")"
	}
	if len(s.Enum) > 0 {
		out += ": " + strings.Join(s.Enum, ", ")
	}
	if s.Nullable {
		out += ", nullable"
	}
	return out
}

// propertyList names the properties of a body's schema, required ones
// marked with an asterisk.
func propertyList(s *OpenAPISchema) string {
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

// cellText is text on one line of a table cell.
func cellText(s string) string {
	return escapeText(strings.Join(strings.Fields(s), " "), modePara, false, false)
}

// mdParagraphs renders text whose blank lines separate paragraphs.
func mdParagraphs(s string) string {
	var out []string
	for _, p := range splitParagraphs(s) {
		out = append(out, escapeText(strings.Join(strings.Fields(p), " "), modePara, true, false))
	}
	return strings.Join(out, "\n\n")
}

// splitParagraphs splits text at blank lines, dropping empty paragraphs.
func splitParagraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(p) != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

func mdTable(head []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range head {
		b.WriteString(" --- |")
	}
	for _, r := range rows {
		b.WriteString("\n|")
		for _, c := range r {
			if c == "" {
				c = " "
			}
			b.WriteString(" " + c + " |")
		}
	}
	return b.String()
}
