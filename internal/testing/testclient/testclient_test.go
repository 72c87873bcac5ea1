package testclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// echo answers with the request's method, headers and body as JSON, and
// with the status named by the query parameter status.
func echo(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	status := http.StatusOK
	if r.URL.Query().Get("status") == "404" {
		status = http.StatusNotFound
	}
	w.Header().Set("X-Echo", "yes")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{
		"method": r.Method, "auth": r.Header.Get("Authorization"),
		"type": r.Header.Get("Content-Type"), "body": string(b),
	})
}

func TestSendEncodesAndReads(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(echo))
	defer srv.Close()
	c := &Client{Base: srv.URL, Token: "tok"}
	for _, tc := range []struct {
		name       string
		token      string
		body       any
		auth, typ  string
		wantedBody string
	}{
		{"value as JSON", "tok", map[string]any{"a": 1}, "Bearer tok", "application/json", `{"a":1}`},
		{"string as it is", "tok", `{"raw"`, "Bearer tok", "application/json", `{"raw"`},
		{"no body, no token", "", nil, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := *c
			c.Token = tc.token
			r, err := c.Send(context.Background(), "POST", "/x", tc.body)
			if err != nil {
				t.Fatal(err)
			}
			got := r.JSON()
			if r.Status != 200 || r.Header.Get("X-Echo") != "yes" || got["auth"] != tc.auth || got["type"] != tc.typ || got["body"] != tc.wantedBody {
				t.Errorf("got %d %v, want auth %q, type %q, body %q", r.Status, got, tc.auth, tc.typ, tc.wantedBody)
			}
		})
	}
}

func TestExpect(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(echo))
	defer srv.Close()
	c := &Client{Base: srv.URL, Token: "tok"}
	var out struct{ Method string }
	if err := c.Expect(context.Background(), "PUT", "/x", nil, 200, &out); err != nil || out.Method != "PUT" {
		t.Errorf("got %+v, %v", out, err)
	}
	err := c.Expect(context.Background(), "GET", "/x?status=404", nil, 200, nil)
	if err == nil || !strings.Contains(err.Error(), "status 404, want 200") {
		t.Errorf("a 404 gave %v", err)
	}
}

func TestParseGraphQL(t *testing.T) {
	g, err := ParseGraphQL(&Response{Status: 200, Body: []byte(`{"data":{"a":1},"errors":[{"message":"m","path":["a"],"extensions":{"code":"FORBIDDEN"}}]}`)})
	if err != nil || g.Data["a"] != 1.0 || g.Code() != "FORBIDDEN" || g.Errors[0].Message != "m" {
		t.Errorf("got %+v, %v", g, err)
	}
	if _, err := ParseGraphQL(&Response{Status: 502, Body: []byte("Bad Gateway")}); err == nil {
		t.Error("a body that is not JSON gave no error")
	}
}

func TestNoAnswerIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(echo))
	srv.Close()
	if _, err := (&Client{Base: srv.URL}).Send(context.Background(), "GET", "/", nil); err == nil {
		t.Error("a closed server gave no error")
	}
}
