package openapispec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/index"
	"gopkg.in/yaml.v3"
)

// looksJSON reports a text whose first character is an opening brace or
// bracket: JSON, whose errors are best told by a JSON reader.
func looksJSON(text []byte) bool {
	t := bytes.TrimLeft(text, " \t\r\n\ufeff")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseFile reads one file as YAML (JSON being YAML). When it cannot, it
// returns a nil node with where (line and column, 0 when unknown) and
// what.
func parseFile(text []byte) (node *yaml.Node, line, col int, msg string) {
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, 0, 0, "the file is empty"
	}
	if !utf8.Valid(text) {
		line, col := position(text, firstInvalid(text))
		return nil, line, col, "the file is not UTF-8 text"
	}
	if i := bytes.IndexByte(text, 0); i >= 0 {
		line, col := position(text, i)
		return nil, line, col, "the file holds a NUL character, which no specification has"
	}
	if looksJSON(text) {
		dec := json.NewDecoder(bytes.NewReader(text))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				var se *json.SyntaxError
				if errors.As(err, &se) {
					line, col := position(text, int(se.Offset)-1)
					return nil, line, col, "invalid JSON: " + se.Error()
				}
				line, col := position(text, int(dec.InputOffset()))
				return nil, line, col, "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")
			}
		}
	}
	var n yaml.Node
	if err := yaml.Unmarshal(text, &n); err != nil {
		// A JSON text the JSON reader took is still refused by the YAML
		// reader when it nests deeper than it allows.
		what := "invalid YAML: "
		if looksJSON(text) {
			what = "invalid JSON: "
		}
		m := strings.TrimPrefix(err.Error(), "yaml: ")
		if g := yamlLine.FindStringSubmatch(err.Error()); g != nil {
			line, _ := strconv.Atoi(g[1])
			return nil, line, 1, what + g[2]
		}
		return nil, 0, 0, what + m
	}
	if n.Kind == 0 || len(n.Content) == 0 {
		return nil, 0, 0, "the file holds no document"
	}
	return &n, 0, 0, ""
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// position turns a byte offset into a line and a column (in characters),
// both from 1.
func position(text []byte, offset int) (int, int) {
	offset = max(0, min(offset, len(text)))
	before := text[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

var versionPattern = regexp.MustCompile(`^3\.[01]\.\d+(-[0-9A-Za-z.-]+)?$`)

// checkVersion records an issue unless the root file is an OpenAPI 3.0 or
// 3.1 document; it reports whether it is.
func (c *collection) checkVersion() bool {
	root := c.files[0]
	if root.root == nil {
		return false
	}
	doc := root.root.Content[0]
	if doc.Kind != yaml.MappingNode {
		c.problem(root, doc.Line, doc.Column, ErrVersion, "the root file is not an object: an OpenAPI document is an object with openapi, info and paths fields")
		return false
	}
	var openapi, swagger *yaml.Node
	for i := 0; i+1 < len(doc.Content); i += 2 {
		switch doc.Content[i].Value {
		case "openapi":
			openapi = doc.Content[i+1]
		case "swagger":
			swagger = doc.Content[i]
		}
	}
	switch {
	case openapi == nil && swagger != nil:
		c.problem(root, swagger.Line, swagger.Column, ErrVersion, "this is a Swagger 2.0 document: Quire reads OpenAPI 3.0 and 3.1; convert it (for example with swagger2openapi) and give the result")
		return false
	case openapi == nil:
		c.problem(root, doc.Line, doc.Column, ErrVersion, "the root file has no openapi field: it is not an OpenAPI 3.0 or 3.1 document")
		return false
	case openapi.Kind != yaml.ScalarNode || !versionPattern.MatchString(openapi.Value):
		c.problem(root, openapi.Line, openapi.Column, ErrVersion, "openapi is %q: Quire reads OpenAPI 3.0 (3.0.x) and 3.1 (3.1.x) documents", openapi.Value)
		return false
	}
	return true
}

// validate reads the specification with libopenapi, its references
// served from the collected files (nothing is fetched again), and checks
// the root document against the OpenAPI schema of its version; it records
// what fails. It gives up after ReadTimeout, and turns a failure of the
// library itself into an issue rather than a crash.
func (c *collection) validate(ctx context.Context) {
	type outcome struct {
		issues []issue
		panic  any
	}
	done := make(chan outcome, 1)
	go func() {
		var out outcome
		defer func() {
			if p := recover(); p != nil {
				out.panic = p
			}
			done <- out
		}()
		out.issues = c.read()
	}()
	ctx, cancel := context.WithTimeout(ctx, ReadTimeout)
	defer cancel()
	root := c.files[0]
	select {
	case out := <-done:
		if out.panic != nil {
			c.problem(root, 0, 0, ErrDocument, "the OpenAPI reader failed on this document (%v); check that it is well formed", out.panic)
		}
		for _, is := range out.issues {
			c.problem(is.file, is.line, is.col, is.code, "%s", is.msg)
		}
	case <-ctx.Done():
		// The reader goroutine runs on until it ends by itself; its
		// result is dropped.
		c.problem(root, 0, 0, ErrDocument, "reading the document took longer than %s; it is too large or too intricate", ReadTimeout)
	}
}

// read runs libopenapi and the validator over the collected files.
func (c *collection) read() []issue {
	root := c.files[0]
	var out []issue
	// Every file as plain data first, as the library and the schema
	// check will read it: yaml refuses aliases that expand a small file
	// into an exponentially large value ("billion laughs") here, where
	// the library would drop the error and check nothing.
	for _, f := range c.files {
		if f.root == nil {
			continue
		}
		var v any
		if err := f.root.Decode(&v); err != nil {
			out = append(out, issue{file: f, code: ErrSyntax, msg: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")})
		}
	}
	if len(out) > 0 {
		return out
	}
	cfg := &datamodel.DocumentConfiguration{
		Logger:                                slog.New(slog.DiscardHandler),
		AllowRemoteReferences:                 true,
		AllowUnknownExtensionContentDetection: true,
		SkipCircularReferenceCheck:            true,
		RemoteURLHandler:                      c.serveCollected,
	}
	if root.final != nil {
		base := *root.final
		base.RawQuery, base.Fragment = "", ""
		base.Path = base.Path[:strings.LastIndex(base.Path, "/")+1]
		cfg.BaseURL = &base
	}
	doc, err := libopenapi.NewDocumentWithConfiguration(root.text, cfg)
	if err != nil {
		return append(out, issue{file: root, code: ErrDocument, msg: err.Error()})
	}
	_, errs := doc.BuildV3Model()
	for _, e := range errs {
		var re *index.ResolvingError
		if errors.As(e, &re) && re.CircularReference != nil {
			continue // legal: a schema may refer to itself
		}
		is := issue{file: root, code: ErrDocument, msg: e.Error()}
		if re != nil && re.Node != nil {
			is.line, is.col, is.code = re.Node.Line, re.Node.Column, ErrReference
			is.msg = re.ErrorRef.Error()
		}
		out = append(out, is)
	}
	if len(out) > 0 {
		return out
	}
	return c.checkSchema(doc)
}

// serveCollected answers libopenapi's requests for referenced files from
// the files collected already: it reaches no network.
func (c *collection) serveCollected(raw string) (*http.Response, error) {
	u, err := url.Parse(raw)
	if err == nil {
		u.Fragment, u.RawFragment = "", ""
		if f := c.byURL[u.String()]; f != nil && f.text != nil {
			return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{},
				Body: io.NopCloser(bytes.NewReader(f.text)), ContentLength: int64(len(f.text))}, nil
		}
	}
	return nil, fmt.Errorf("%s is not among the files the specification references", raw)
}
