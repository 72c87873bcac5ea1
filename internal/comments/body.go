package comments

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// Body is the body of a comment or reply as a caller sends it: Markdown,
// or a JSON document. Neither is an empty body.
type Body struct {
	Markdown *string
	// Document is a JSON document, as sent.
	Document []byte
}

// IsEmpty reports a body that gives neither Markdown nor a document.
func (b Body) IsEmpty() bool { return b.Markdown == nil && len(b.Document) == 0 }

// encodeBody converts a body into the document Quire stores, checked
// against the document limits (internal/document) and the comment limits
// (MaxMarkdown, MaxBodyBytes); errors name field (body, comment) and, for
// a document, the JSON path below it. A body must hold something.
func encodeBody(field string, b Body) (string, error) {
	var doc *document.Document
	switch {
	case b.Markdown != nil && len(b.Document) > 0:
		return "", apierr.Invalid(field, "%s: give markdown or document, not both", field)
	case b.Markdown != nil:
		md := *b.Markdown
		if len(md) > MaxMarkdown {
			return "", apierr.Invalid(field+".markdown", "%s.markdown: larger than %s bytes (the limit of a comment), %s bytes given",
				field, grouped(MaxMarkdown), grouped(len(md)))
		}
		d, err := document.FromMarkdown(md)
		if err != nil {
			return "", renamed(err, "markdown", field+".markdown")
		}
		doc = d
	case len(b.Document) > 0:
		d, err := document.Parse(b.Document)
		if err != nil {
			return "", renamed(err, "document", field+".document")
		}
		doc = d
	default:
		return "", apierr.Invalid(field, "%s must give markdown or document", field)
	}
	if len(doc.Nodes) == 0 {
		return "", apierr.Invalid(field, "%s is empty: it needs some content", field)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", field, err)
	}
	if len(raw) > MaxBodyBytes {
		return "", apierr.Invalid(field, "%s: larger than %s bytes as a document (the limit of a comment), %s bytes given",
			field, grouped(MaxBodyBytes), grouped(len(raw)))
	}
	return string(raw), nil
}

// renamed gives a document error the name of the field that carried the
// document: "document.nodes[0]…" becomes "body.document.nodes[0]…".
func renamed(err error, from, to string) error {
	e, ok := apierr.As(err)
	if !ok || e.Code != apierr.BadRequest {
		return err
	}
	field := to
	if rest, ok := strings.CutPrefix(e.Field, from); ok {
		field = to + rest
	}
	msg := e.Message
	if rest, ok := strings.CutPrefix(msg, from); ok {
		msg = to + rest
	}
	return apierr.Invalid(field, "%s", msg)
}

// Document decodes a stored body.
func Document(stored string) (*document.Document, error) {
	d, err := document.ParseStored([]byte(stored))
	if err != nil {
		return nil, fmt.Errorf("decode comment body: %w", err)
	}
	return d, nil
}

// Markdown renders a stored body as Markdown.
func Markdown(stored string) (string, error) {
	d, err := Document(stored)
	if err != nil {
		return "", err
	}
	return document.ToMarkdown(d), nil
}

// grouped writes n with thousands separators.
func grouped(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Rendered is a stored body, shown as Markdown or as a document.
type Rendered struct {
	// Stored is the body as stored: a document as JSON.
	Stored string
}

// Markdown renders the body as Markdown.
func (r Rendered) Markdown() (string, error) { return Markdown(r.Stored) }

// Document decodes the body.
func (r Rendered) Document() (*types.Doc, error) {
	d, err := Document(r.Stored)
	if err != nil {
		return nil, err
	}
	return &types.Doc{D: d}, nil
}
