package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"quire/server"
)

// The document is generated once per test binary; it does not depend on
// the server's address once the server URL is left relative.
var (
	specOnce sync.Once
	specVal  validator.Validator
	specErr  error
	specDoc  []byte
	specOps  []specOp
	schemas  *jsonschema.Compiler
	compiled sync.Map // JSON pointer → *jsonschema.Schema
	compMu   sync.Mutex
	// statuses holds, per documented operation and status, whether the
	// response has a JSON body: read once, not per checked response.
	statuses map[statusKey]bool
)

// statusKey names one documented response.
type statusKey struct{ pattern, method, status string }

// specOp is one documented operation.
type specOp struct {
	method  string
	pattern string
	re      *regexp.Regexp
}

const specURL = "quire:///openapi.json"

// Spec returns Quire's OpenAPI document (with a relative server URL) and a
// validator of the document, built once per test binary.
func Spec(s *server.Server) ([]byte, validator.Validator, error) {
	specOnce.Do(func() {
		specDoc, specErr = json.MarshalIndent(s.API().OpenAPI(""), "", "  ")
		if specErr != nil {
			return
		}
		d, err := libopenapi.NewDocument(specDoc)
		if err != nil {
			specErr = fmt.Errorf("parse OpenAPI document: %w", err)
			return
		}
		v, errs := validator.NewValidator(d)
		if len(errs) > 0 {
			specErr = fmt.Errorf("build validator: %v", errs)
			return
		}
		specVal = v
		var doc struct {
			Paths map[string]map[string]struct {
				Responses map[string]struct {
					Content map[string]json.RawMessage `json:"content"`
				} `json:"responses"`
			} `json:"paths"`
		}
		if err := json.Unmarshal(specDoc, &doc); err != nil {
			specErr = err
			return
		}
		statuses = map[statusKey]bool{}
		for p, ops := range doc.Paths {
			re := regexp.MustCompile("^/v1" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(p), `[^/]+`) + "$")
			for m, o := range ops {
				specOps = append(specOps, specOp{method: strings.ToUpper(m), pattern: p, re: re})
				for code, r := range o.Responses {
					statuses[statusKey{p, m, code}] = len(r.Content) > 0
				}
			}
		}
		// Literal paths before templated ones, so /v1/openapi.json is not
		// taken for a templated route.
		sort.Slice(specOps, func(i, j int) bool {
			return strings.Count(specOps[i].pattern, "{") < strings.Count(specOps[j].pattern, "{")
		})
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(specDoc))
		if err != nil {
			specErr = err
			return
		}
		schemas = jsonschema.NewCompiler()
		schemas.DefaultDraft(jsonschema.Draft2020)
		if err := schemas.AddResource(specURL, inst); err != nil {
			specErr = err
		}
	})
	return specDoc, specVal, specErr
}

// pointer escapes one JSON pointer token.
func pointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// responseSchema compiles the schema of a documented response.
func responseSchema(op specOp, status int) (*jsonschema.Schema, error) {
	ptr := "#/paths/" + pointer(op.pattern) + "/" + strings.ToLower(op.method) + "/responses/" + strconv.Itoa(status) + "/content/" + pointer("application/json") + "/schema"
	if s, ok := compiled.Load(ptr); ok {
		return s.(*jsonschema.Schema), nil
	}
	compMu.Lock()
	defer compMu.Unlock()
	s, err := schemas.Compile(specURL + ptr)
	if err != nil {
		return nil, err
	}
	compiled.Store(ptr, s)
	return s, nil
}

// documented reports whether a status is documented for an operation, and
// whether it has a JSON body.
func documented(op specOp, status int) (found, hasBody bool) {
	hasBody, found = statuses[statusKey{op.pattern, strings.ToLower(op.method), strconv.Itoa(status)}]
	return found, hasBody
}

// checkResponse validates a /v1 response against the OpenAPI document: the
// status must be documented for the operation, and the body must match its
// schema. It fails the test otherwise.
func (e *Env) checkResponse(req *http.Request, status int, header http.Header, body []byte) {
	e.T.Helper()
	if !strings.HasPrefix(req.URL.Path, "/v1/") || e.NoSpecCheck {
		return
	}
	if _, _, err := Spec(e.Server); err != nil {
		e.T.Fatalf("OpenAPI document: %v", err)
	}
	var op *specOp
	for i := range specOps {
		if specOps[i].method == req.Method && specOps[i].re.MatchString(req.URL.Path) {
			op = &specOps[i]
			break
		}
	}
	if op == nil {
		// Unknown routes and methods answer 404/405 by design.
		return
	}
	found, hasBody := documented(*op, status)
	if !found {
		e.T.Errorf("%s %s → %d: status not documented for %s %s\nbody: %.1000s", req.Method, req.URL.Path, status, op.method, op.pattern, body)
		return
	}
	if !hasBody {
		if len(bytes.TrimSpace(body)) > 0 {
			e.T.Errorf("%s %s → %d: documented without a body, got %.500s", req.Method, req.URL.Path, status, body)
		}
		return
	}
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		e.T.Errorf("%s %s → %d: Content-Type %q, want application/json", req.Method, req.URL.Path, status, ct)
	}
	sch, err := responseSchema(*op, status)
	if err != nil {
		e.T.Fatalf("compile response schema of %s %s %d: %v", op.method, op.pattern, status, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		e.T.Errorf("%s %s → %d: body is not JSON: %v", req.Method, req.URL.Path, status, err)
		return
	}
	if err := sch.Validate(inst); err != nil {
		e.T.Errorf("%s %s → %d does not match the OpenAPI document: %v\nbody: %.2000s", req.Method, req.URL.Path, status, err, body)
	}
}
