package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
	"quire/server"
)

// marker is written into request bodies that must be refused: no answer
// may repeat it.
const marker = "ZZ-request-body-ZZ"

type rawResponse struct {
	status int
	header http.Header
	body   []byte
}

// rawRequest sends a request as it is: method, content type (none when
// empty), token (none when empty), body and its announced length (-1:
// chunked).
func rawRequest(t *testing.T, e *testenv.Env, method, target, contentType, token string, body io.Reader, length int64) rawResponse {
	t.Helper()
	req, err := http.NewRequest(method, e.URL+target, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.ContentLength = length
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.HTTP.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rawResponse{res.StatusCode, res.Header, b}
}

// checkRefused checks the shape of a request refused before execution:
// the status, {"errors":[{"message","extensions":{"code"[,"field"]}}]} as
// JSON, and nothing of the request body in it.
func checkRefused(t *testing.T, r rawResponse, status int, code, field string) {
	t.Helper()
	var out struct {
		Data   any `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil || len(out.Errors) != 1 {
		t.Errorf("HTTP %d %q: want one GraphQL error (%v)", r.status, r.body, err)
		return
	}
	if r.status != status || out.Errors[0].Extensions["code"] != code || out.Data != nil {
		t.Errorf("HTTP %d %s, want %d with code %s", r.status, r.body, status, code)
	}
	if got, _ := out.Errors[0].Extensions["field"].(string); got != field {
		t.Errorf("extensions.field = %q, want %q: %s", got, field, r.body)
	}
	if out.Errors[0].Message == "" || bytes.Contains(r.body, []byte(marker)) || bytes.Contains(r.body, []byte("Did you mean")) {
		t.Errorf("message repeats the request or is empty: %s", r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
}

func TestGraphQLTransportErrors(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Admin.Token
		post := func(contentType, body string) rawResponse {
			return rawRequest(t, e, "POST", "/graphql", contentType, tok, strings.NewReader(body), int64(len(body)))
		}
		query := `{"query":"{ viewer { id } }","variables":{"x":"` + marker + `"}}`

		t.Run("unauthenticated introspection", func(t *testing.T) {
			for _, r := range []rawResponse{
				rawRequest(t, e, "POST", "/graphql", "application/json", "", strings.NewReader(`{"query":"{ __schema { types { name } } }"}`), -1),
				rawRequest(t, e, "GET", "/graphql?query="+url.QueryEscape("{ __schema { types { name } } }"), "", "", nil, 0),
			} {
				checkRefused(t, r, http.StatusUnauthorized, "UNAUTHENTICATED", "")
				if r.header.Get("WWW-Authenticate") == "" {
					t.Error("no WWW-Authenticate")
				}
			}
		})
		t.Run("batched operations", func(t *testing.T) {
			checkRefused(t, post("application/json", "["+query+","+query+"]"), http.StatusBadRequest, "BAD_REQUEST", "")
		})
		t.Run("malformed JSON", func(t *testing.T) {
			checkRefused(t, post("application/json", `{"query": "{ viewer { id } }", "`+marker), http.StatusBadRequest, "BAD_REQUEST", "")
			checkRefused(t, post("application/json", query+` "`+marker+`"`), http.StatusBadRequest, "BAD_REQUEST", "")
			checkRefused(t, post("application/json", `"`+marker+`"`), http.StatusBadRequest, "BAD_REQUEST", "")
			checkRefused(t, post("application/json", `{"query": ["`+marker+`"]}`), http.StatusBadRequest, "BAD_REQUEST", "query")
			checkRefused(t, post("application/json", `{"query": "{ viewer { id } }", "variables": "`+marker+`"}`), http.StatusBadRequest, "BAD_REQUEST", "variables")
		})
		t.Run("missing query", func(t *testing.T) {
			checkRefused(t, post("application/json", `{"variables":{"x":"`+marker+`"}}`), http.StatusBadRequest, "BAD_REQUEST", "query")
			checkRefused(t, post("application/json", `{"query":"  "}`), http.StatusBadRequest, "BAD_REQUEST", "query")
			checkRefused(t, rawRequest(t, e, "GET", "/graphql?operationName=x", "", tok, nil, 0), http.StatusBadRequest, "BAD_REQUEST", "query")
		})
		t.Run("unsupported content type", func(t *testing.T) {
			for _, ct := range []string{"text/plain", "application/graphql", "application/x-www-form-urlencoded", ""} {
				checkRefused(t, post(ct, query), http.StatusUnsupportedMediaType, "BAD_REQUEST", "")
			}
		})
		t.Run("methods", func(t *testing.T) {
			for _, m := range []string{"PUT", "DELETE", "PATCH"} {
				r := rawRequest(t, e, m, "/graphql", "application/json", tok, strings.NewReader(query), int64(len(query)))
				checkRefused(t, r, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "")
				if r.header.Get("Allow") != "GET, POST" {
					t.Errorf("%s: Allow = %q", m, r.header.Get("Allow"))
				}
			}
		})
		t.Run("GET", func(t *testing.T) {
			mutation := url.QueryEscape(`mutation { createCollection(input: {organization: "` + team.Org.ID + `", title: "` + marker + `"}) { id } }`)
			r := rawRequest(t, e, "GET", "/graphql?query="+mutation, "", tok, nil, 0)
			checkRefused(t, r, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "")
			if r.header.Get("Allow") != "POST" {
				t.Errorf("Allow = %q", r.header.Get("Allow"))
			}
			if n := restGet(t, e, tok, "/v1/orgs/"+team.Org.ID+"/collections")["count"]; n != float64(0) {
				t.Errorf("a GET created a collection: count %v", n)
			}
			checkRefused(t, rawRequest(t, e, "GET", "/graphql?query="+url.QueryEscape("{ viewer { id } }")+"&variables="+marker, "", tok, nil, 0), http.StatusBadRequest, "BAD_REQUEST", "variables")
			r = rawRequest(t, e, "GET", "/graphql?query="+url.QueryEscape(`query($n: Int) { viewer { organizations(first: $n) { totalCount } } }`)+"&variables="+url.QueryEscape(`{"n": 1}`), "", tok, nil, 0)
			if r.status != http.StatusOK || !bytes.Contains(r.body, []byte(`"totalCount":1`)) {
				t.Errorf("GET query: HTTP %d %s", r.status, r.body)
			}
		})
		t.Run("a document refused keeps its code", func(t *testing.T) {
			// GraphQL over HTTP: 200 for a request error with application/json.
			r := post("application/json", `{"query":"{ viewer { id nope } }"}`)
			if r.status != http.StatusOK || !bytes.Contains(r.body, []byte(`"GRAPHQL_VALIDATION_FAILED"`)) {
				t.Errorf("HTTP %d %s", r.status, r.body)
			}
			req, _ := http.NewRequest("POST", e.URL+"/graphql", strings.NewReader(`{"query":"{ viewer { nope } }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/graphql-response+json")
			req.Header.Set("Authorization", "Bearer "+tok)
			res, err := e.HTTP.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || res.Header.Get("Content-Type") != "application/graphql-response+json" {
				t.Errorf("graphql-response+json: HTTP %d %s", res.StatusCode, res.Header.Get("Content-Type"))
			}
		})
	})
}

// upload builds a multipart request: operations, map, then files.
func upload(t *testing.T, operations, fileMap string, files map[string]string) (string, *bytes.Buffer) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if operations != "" {
		w.WriteField("operations", operations)
	}
	if fileMap != "" {
		w.WriteField("map", fileMap)
	}
	for name, content := range files {
		fw, _ := w.CreateFormFile(name, "notes.txt")
		fw.Write([]byte(content))
	}
	w.Close()
	return w.FormDataContentType(), &body
}

// oversizeBody is a multipart request whose file part is n bytes long,
// written as it is read, and its length.
func oversizeBody(boundary, operations string, n int64) (io.Reader, int64) {
	head := fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n%s\r\n--%s\r\nContent-Disposition: form-data; name=\"map\"\r\n\r\n{\"0\": [\"variables.in.file\"]}\r\n--%s\r\nContent-Disposition: form-data; name=\"0\"; filename=\"big.bin\"\r\n\r\n", boundary, operations, boundary, boundary)
	tail := "\r\n--" + boundary + "--\r\n"
	return io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, n), strings.NewReader(tail)), int64(len(head)) + n + int64(len(tail))
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestGraphQLUploadErrors(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Editor.Token
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Files", nil)
		cr := str(testenv.Path(gqlOK(t, e.GraphQL(tok, `mutation($s: ID!) { createChangeRequest(input: {space: $s, subject: "Files"}) { id } }`, map[string]any{"s": space})), "createChangeRequest", "id"))
		ops := func(file any) string {
			b, _ := json.Marshal(map[string]any{
				"query":     `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id name size } } }`,
				"variables": map[string]any{"in": map[string]any{"changeRequest": cr, "file": file, "name": marker}},
			})
			return string(b)
		}
		send := func(ct string, body io.Reader, n int64) rawResponse {
			return rawRequest(t, e, "POST", "/graphql", ct, tok, body, n)
		}

		t.Run("over the size limit", func(t *testing.T) {
			const boundary = "quire-test-boundary"
			ct := "multipart/form-data; boundary=" + boundary
			over := int64(server.MaxUploadBytes) + 1
			// Announced: refused before reading.
			body, n := oversizeBody(boundary, ops(nil), over)
			checkRefused(t, send(ct, body, n), http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE", "")
			// Chunked: refused when the reading goes over.
			body, _ = oversizeBody(boundary, ops(nil), over)
			checkRefused(t, send(ct, body, -1), http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE", "")
		})
		for _, tc := range []struct {
			name, operations, fileMap string
			files                     map[string]string
		}{
			{"no operations", "", `{"0": ["variables.in.file"]}`, map[string]string{"0": "x"}},
			{"no map", ops(nil), "", map[string]string{"0": "x"}},
			{"operations not JSON", `{"query": "` + marker, `{"0": ["variables.in.file"]}`, map[string]string{"0": "x"}},
			{"batched operations", "[" + ops(nil) + "]", `{"0": ["variables.in.file"]}`, map[string]string{"0": "x"}},
			{"map not JSON", ops(nil), `{"0": "` + marker, map[string]string{"0": "x"}},
			{"file not in map", ops(nil), `{"0": ["variables.in.file"]}`, map[string]string{"1": "x"}},
			{"map names a missing file", ops(nil), `{"0": ["variables.in.file"], "1": ["variables.in.other"]}`, map[string]string{"0": "x"}},
			{"path outside variables", ops(nil), `{"0": ["in.file"]}`, map[string]string{"0": "x"}},
			{"path through a string", ops(nil), `{"0": ["variables.in.changeRequest.x"]}`, map[string]string{"0": "x"}},
			{"path through null", ops(nil), `{"0": ["variables.in.file.0"]}`, map[string]string{"0": "x"}},
			{"index out of range", ops([]any{}), `{"0": ["variables.in.file.3"]}`, map[string]string{"0": "x"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ct, body := upload(t, tc.operations, tc.fileMap, tc.files)
				checkRefused(t, send(ct, body, int64(body.Len())), http.StatusBadRequest, "BAD_REQUEST", "")
			})
		}
		t.Run("an upload still works", func(t *testing.T) {
			ct, body := upload(t, ops(nil), `{"0": ["variables.in.file"]}`, map[string]string{"0": "hello"})
			r := send(ct, body, int64(body.Len()))
			if r.status != http.StatusOK || !bytes.Contains(r.body, []byte(`"size":5`)) {
				t.Errorf("HTTP %d %s", r.status, r.body)
			}
		})
	})
}
