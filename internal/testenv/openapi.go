package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/paths"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"quire/internal/server"
)

var (
	specOnce sync.Once
	specVal  validator.Validator
	specErr  error
	specDoc  []byte
	specV3   *v3.Document
)

// Spec returns Quire's OpenAPI document (with a relative server URL) and a
// validator for it, built once per test binary.
func Spec(s *server.Server) ([]byte, validator.Validator, error) {
	specOnce.Do(func() {
		doc := s.API().OpenAPI("")
		specDoc, specErr = json.MarshalIndent(doc, "", "  ")
		if specErr != nil {
			return
		}
		d, err := libopenapi.NewDocument(specDoc)
		if err != nil {
			specErr = fmt.Errorf("parse OpenAPI document: %w", err)
			return
		}
		m, errs := d.BuildV3Model()
		if len(errs) > 0 {
			specErr = fmt.Errorf("build model: %v", errs)
			return
		}
		specV3 = &m.Model
		v, errs := validator.NewValidator(d)
		if len(errs) > 0 {
			specErr = fmt.Errorf("build validator: %v", errs)
			return
		}
		specVal = v
	})
	return specDoc, specVal, specErr
}

// checkResponse validates a /v1 response against the OpenAPI document, and
// fails the test when it does not match.
func (e *Env) checkResponse(req *http.Request, status int, header http.Header, body []byte) {
	e.T.Helper()
	if !strings.HasPrefix(req.URL.Path, "/v1/") || e.NoSpecCheck {
		return
	}
	_, v, err := Spec(e.Server)
	if err != nil {
		e.T.Fatalf("OpenAPI document: %v", err)
	}
	// Requests are validated with their body re-readable.
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		r.Body, _ = req.GetBody()
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	resp := &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Request: r}
	if _, errs, _ := paths.FindPath(r, specV3); len(errs) > 0 {
		// Unknown routes are answered 404/405 by design; nothing to check.
		return
	}
	ok, verrs := v.ValidateHttpResponse(r, resp)
	if !ok {
		var msgs []string
		for _, ve := range verrs {
			msg := ve.Message
			if ve.Reason != "" {
				msg += ": " + ve.Reason
			}
			for _, se := range ve.SchemaValidationErrors {
				msg += fmt.Sprintf(" [%s: %s]", se.Location, se.Reason)
			}
			msgs = append(msgs, msg)
		}
		e.T.Errorf("%s %s → %d does not match the OpenAPI document: %s\nbody: %.2000s", req.Method, req.URL.Path, status, strings.Join(msgs, "; "), body)
	}
}
