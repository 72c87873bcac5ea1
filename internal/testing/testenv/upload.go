package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"strings"
)

// GraphQLUpload posts a document as a GraphQL multipart request, with one
// file (name, data) at the variable path file ("variables.in.file"), whose
// value in vars is null.
func (e *Env) GraphQLUpload(token, query string, vars map[string]any, file, name string, data []byte) *GQLResponse {
	e.T.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	ops, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		e.T.Fatalf("encode operations: %v", err)
	}
	w.WriteField("operations", string(ops))
	m, _ := json.Marshal(map[string][]string{"0": {file}})
	w.WriteField("map", string(m))
	// A name with control characters is sent as RFC 2231 extended
	// notation (filename*=UTF-8''…), which multipart readers decode.
	disp := `form-data; name="0"; filename="` + name + `"`
	if strings.IndexFunc(name, func(r rune) bool { return r < 0x20 }) >= 0 {
		disp = `form-data; name="0"; filename*=UTF-8''` + url.PathEscape(name)
	}
	hdr := textproto.MIMEHeader{}
	hdr.Set("Content-Disposition", disp)
	hdr.Set("Content-Type", "application/octet-stream")
	fw, err := w.CreatePart(hdr)
	if err != nil {
		e.T.Fatalf("multipart: %v", err)
	}
	fw.Write(data)
	w.Close()
	c := e.client(token)
	req, err := c.Request(context.Background(), "POST", "/graphql", body.Bytes())
	if err != nil {
		e.T.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := c.Do(req)
	if err != nil {
		e.T.Fatalf("upload: %v", err)
	}
	return e.gqlResponse(resp)
}
