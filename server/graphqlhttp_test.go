package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"

	"quire/graph"
	"quire/internal/metrics"
)

// newRefusalServer serves /graphql without a database: what is measured
// is refused before any resolver runs.
func newRefusalServer() *Server {
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	return &Server{gql: newGraphQL(&graph.Resolver{}, Config{Log: log, Metrics: metrics.New()}, nil)}
}

// refusals are documents the parser token limit refuses.
var refusals = []struct{ name, query string }{
	{"directive flood 300 KB", "{ viewer { id " + strings.Repeat("@include(if: true) ", 300<<10/len("@include(if: true) ")) + "} }"},
	{"5000 __typename", "{ " + strings.Repeat("__typename ", 5000) + "}"},
}

func refusalRequest(body []byte) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

func TestGraphQLTokenFloodsRefused(t *testing.T) {
	s := newRefusalServer()
	for _, tc := range refusals {
		body, _ := json.Marshal(map[string]any{"query": tc.query})
		rec := httptest.NewRecorder()
		s.serveGraphQL(rec, refusalRequest(body))
		var out struct {
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || rec.Code != http.StatusUnprocessableEntity || len(out.Errors) != 1 ||
			out.Errors[0].Extensions["code"] != "GRAPHQL_PARSE_FAILED" || out.Errors[0].Message != "exceeded token limit of 2000" {
			t.Errorf("%s (%d bytes): HTTP %d %.300s", tc.name, len(body), rec.Code, rec.Body)
		}
	}
}

// What refusing a token flood costs, from the body to the answer (the
// target: under 5 ms and 2 MB each):
//
//	go test -run '^$' -bench GraphQLRefusals -benchmem ./internal/server/
func BenchmarkGraphQLRefusals(b *testing.B) {
	s := newRefusalServer()
	for _, tc := range refusals {
		body, _ := json.Marshal(map[string]any{"query": tc.query})
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				rec := httptest.NewRecorder()
				s.serveGraphQL(rec, refusalRequest(body))
				if rec.Code != http.StatusUnprocessableEntity {
					b.Fatalf("HTTP %d %.300s", rec.Code, rec.Body)
				}
			}
		})
	}
}

func TestDecodeParams(t *testing.T) {
	const secret = "SECRET"
	for _, tc := range []struct {
		body, field string
		ok          bool
	}{
		{`{"query":"{ a }","variables":{"x":1},"operationName":"Q","extensions":{}}`, "", true},
		{` {"query":"{ a }"} ` + "\n", "", true},
		{`[{"query":"{ ` + secret + ` }"}]`, "", false},
		{`"` + secret + `"`, "", false},
		{``, "", false},
		{`{"query":"{ a }"`, "", false},
		{`{"query":"{ a }"} {"` + secret + `":1}`, "", false},
		{`{"query":"{ a }", "` + secret, "", false},
		{`{"query":1}`, "query", false},
		{`{"query":"{ a }","operationName":["` + secret + `"]}`, "operationName", false},
		{`{"query":"{ a }","variables":["` + secret + `"]}`, "variables", false},
		{`{"query":"{ a }","extensions":"` + secret + `"}`, "extensions", false},
		{`{"variables":{"x":"` + secret + `"}}`, "query", false},
		{`{"query":null}`, "query", false},
	} {
		p, err := decodeParams([]byte(tc.body), "The request body")
		if tc.ok {
			if err != nil || p.Query != "{ a }" {
				t.Errorf("%s: %+v, %+v", tc.body, p, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.body)
			continue
		}
		if err.status != http.StatusBadRequest || err.field != tc.field || err.msg == "" || strings.Contains(err.msg, secret) {
			t.Errorf("%s: %+v, want 400 naming %q and not the body", tc.body, err, tc.field)
		}
	}
}

func TestSetUpload(t *testing.T) {
	up := graphql.Upload{Filename: "f"}
	vars := func() map[string]any {
		return map[string]any{"in": map[string]any{"file": nil, "name": "x", "files": []any{nil, nil}}, "list": []any{map[string]any{"f": nil}}}
	}
	for path, ok := range map[string]bool{
		"variables.in.file":     true,
		"variables.in.new":      true,
		"variables.in.files.1":  true,
		"variables.list.0.f":    true,
		"variables.in.files.2":  false,
		"variables.in.files.x":  false,
		"variables.in.files.-1": false,
		"variables.in.name.x":   false,
		"variables.in.file.x":   false,
		"variables.nope.x":      false,
		"variables.":            false,
		"in.file":               false,
		"":                      false,
	} {
		v := vars()
		if got := setUpload(v, path, up); got != ok {
			t.Errorf("setUpload(%q) = %v, want %v", path, got, ok)
		}
	}
	v := vars()
	setUpload(v, "variables.in.files.1", up)
	if v["in"].(map[string]any)["files"].([]any)[1] != up {
		t.Errorf("not set: %v", v)
	}
}

func TestResponseContentType(t *testing.T) {
	for accept, want := range map[string]string{
		"":                                  "application/json",
		"*/*":                               "application/json",
		"application/json":                  "application/json",
		"application/graphql-response+json": "application/graphql-response+json",
		"application/graphql-response+json, application/json;q=0.9": "application/graphql-response+json",
		"text/html": "application/graphql-response+json",
	} {
		r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
		r.Header.Set("Accept", accept)
		if got := responseContentType(r); got != want {
			t.Errorf("Accept %q: %q, want %q", accept, got, want)
		}
	}
}

// Documents refused before execution, as GraphQL over HTTP asks: with
// application/json a document that does not parse, validate or coerce its
// variables is 200 with errors and "data": null, one over Quire's query
// limits 422; with application/graphql-response+json both are 400, with no
// data entry.
func TestGraphQLRequestErrorStatus(t *testing.T) {
	s := newRefusalServer()
	for _, tc := range []struct {
		name, body, code string
		json             int // status with Accept: application/json
	}{
		{"parse", `{"query":"{ viewer { id "}`, "GRAPHQL_PARSE_FAILED", http.StatusOK},
		{"validation", `{"query":"{ nope }"}`, "GRAPHQL_VALIDATION_FAILED", http.StatusOK},
		{"unknown operation", `{"query":"query A { __typename }","operationName":"B"}`, "GRAPHQL_VALIDATION_FAILED", http.StatusOK},
		{"variable coercion", `{"query":"query($id: ID!) { node(id: $id) { id } }","variables":{"id":null}}`, "GRAPHQL_VALIDATION_FAILED", http.StatusOK},
		{"page size limit", `{"query":"{ viewer { organizations(first: 500) { totalCount } } }"}`, "BAD_REQUEST", http.StatusUnprocessableEntity},
		{"token limit", `{"query":"{ ` + strings.Repeat("__typename ", 3000) + `}"}`, "GRAPHQL_PARSE_FAILED", http.StatusUnprocessableEntity},
	} {
		for _, accept := range []string{"", "application/json", graphQLResponseJSON} {
			req := refusalRequest([]byte(tc.body))
			req.Header.Set("Accept", accept)
			rec := httptest.NewRecorder()
			s.serveGraphQL(rec, req)
			var out map[string]json.RawMessage
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatalf("%s, Accept %q: %v: %s", tc.name, accept, err, rec.Body)
			}
			data, hasData := out["data"]
			wantStatus, wantType := tc.json, "application/json"
			if accept == graphQLResponseJSON {
				wantStatus, wantType = http.StatusBadRequest, graphQLResponseJSON
			}
			switch {
			case rec.Code != wantStatus || rec.Header().Get("Content-Type") != wantType:
				t.Errorf("%s, Accept %q: HTTP %d %s, want %d %s", tc.name, accept, rec.Code, rec.Header().Get("Content-Type"), wantStatus, wantType)
			case !strings.Contains(string(out["errors"]), `"code":"`+tc.code+`"`):
				t.Errorf("%s, Accept %q: errors %s, want code %s", tc.name, accept, out["errors"], tc.code)
			case accept == graphQLResponseJSON && hasData:
				t.Errorf("%s: a data entry with %s: %s", tc.name, accept, rec.Body)
			case accept != graphQLResponseJSON && string(data) != "null":
				t.Errorf("%s, Accept %q: data %s, want null", tc.name, accept, data)
			}
		}
	}
}
