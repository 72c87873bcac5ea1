package downloads_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/downloads"
	"quire/internal/signedurl"
)

func TestFileDownload(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		data := make([]byte, 70_000)
		for i := range data {
			data[i] = byte(i * 7)
		}
		cr := e.cr("Files")
		res := e.edit(cr,
			&content.UploadFile{Name: "Rapport été.bin", ContentType: "application/x-custom", Data: data},
			&content.UploadFile{Name: "notes.txt", Data: []byte("plain text\n")},
		)
		rev, fileID, notesID := res.Revision, res.IDs[0], res.IDs[1]
		link := e.svc.FileURL(rev, fileID)

		w := e.get(t, http.MethodGet, link)
		if w.Code != http.StatusOK {
			t.Fatalf("status = %d: %s", w.Code, w.Body)
		}
		if !bytes.Equal(w.Body.Bytes(), data) {
			t.Fatalf("body differs from the upload (%d bytes, want %d)", w.Body.Len(), len(data))
		}
		sum := sha256.Sum256(data)
		h := w.Header()
		for k, want := range map[string]string{
			"Content-Type":   "application/x-custom",
			"Content-Length": strconv.Itoa(len(data)),
			"ETag":           `"` + hex.EncodeToString(sum[:]) + `"`,
			"Cache-Control":  "private, max-age=3600",
		} {
			if got := h.Get(k); got != want {
				t.Errorf("%s = %q, want %q", k, got, want)
			}
		}
		if cd := h.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, "Rapport%20%C3%A9t%C3%A9.bin") {
			t.Errorf("Content-Disposition = %q", cd)
		}

		// A detected content type, and a plain file name.
		w = e.get(t, http.MethodGet, e.svc.FileURL(rev, notesID))
		if w.Code != http.StatusOK || w.Body.String() != "plain text\n" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") ||
			w.Header().Get("Content-Disposition") != `attachment; filename=notes.txt` {
			t.Errorf("notes: %d %q %v", w.Code, w.Body, w.Header())
		}

		// HEAD has the headers without the body; a matching ETag is 304.
		w = e.get(t, http.MethodHead, link)
		if w.Code != http.StatusOK || w.Body.Len() != 0 || w.Header().Get("Content-Length") != strconv.Itoa(len(data)) {
			t.Errorf("HEAD: %d, %d bytes, length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
		}
		w = e.get(t, http.MethodGet, link, "If-None-Match", `"`+hex.EncodeToString(sum[:])+`"`)
		if w.Code != http.StatusNotModified {
			t.Errorf("If-None-Match: %d", w.Code)
		}

		// Revisions are immutable: replacing the file makes a new revision,
		// and the old link keeps serving the old bytes.
		res = e.edit(res.ChangeRequest, &content.UploadFile{File: fileID, Name: "Rapport été.bin", Data: []byte("new")})
		if w := e.get(t, http.MethodGet, link); !bytes.Equal(w.Body.Bytes(), data) {
			t.Errorf("old link serves %d bytes", w.Body.Len())
		}
		if w := e.get(t, http.MethodGet, e.svc.FileURL(res.Revision, fileID)); w.Body.String() != "new" {
			t.Errorf("new link serves %q", w.Body)
		}

		// Missing things are 404 once the signature holds.
		wantError(t, e.get(t, http.MethodGet, e.svc.FileURL(rev, "file_missing")), http.StatusNotFound)
		wantError(t, e.get(t, http.MethodGet, e.svc.FileURL("rev_missing", fileID)), http.StatusNotFound)
	})
}

func TestBadLinks(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		cr := e.cr("Files")
		res := e.edit(cr,
			&content.UploadFile{Name: "a.txt", Data: []byte("a")},
			&content.UploadFile{Name: "b.txt", Data: []byte("b")},
			&content.CreatePage{Title: "Intro", Markdown: ptr("Hello")},
		)
		rev, a, b, page := res.Revision, res.IDs[0], res.IDs[1], res.IDs[2]
		link := e.svc.FileURL(rev, a)
		pdfLink := e.svc.PDFURL(rev, downloads.PDFOptions{Title: "Docs", Page: page})
		if w := e.get(t, http.MethodGet, link); w.Code != http.StatusOK {
			t.Fatalf("valid link: %d %s", w.Code, w.Body)
		}
		u, _ := url.Parse(link)
		q := u.Query()
		sig := q.Get(signedurl.ParamSignature)
		flipped := []byte(sig)
		if flipped[0] == 'A' {
			flipped[0] = 'B'
		} else {
			flipped[0] = 'A'
		}
		with := func(link, key, value string) string {
			u, _ := url.Parse(link)
			q := u.Query()
			q.Set(key, value)
			u.RawQuery = q.Encode()
			return u.String()
		}
		without := func(link, key string) string {
			u, _ := url.Parse(link)
			q := u.Query()
			q.Del(key)
			u.RawQuery = q.Encode()
			return u.String()
		}
		other := signedurl.NewSigner([]byte("some other key, long enough to be a key"))
		other.Now = e.clock.now
		tests := map[string]string{
			"tampered signature": with(link, signedurl.ParamSignature, string(flipped)),
			"other file":         strings.Replace(link, "/files/"+a, "/files/"+b, 1),
			"longer expiry":      with(link, signedurl.ParamExpires, strconv.FormatInt(e.clock.now().Add(48*time.Hour).Unix(), 10)),
			"added parameter":    with(link, "download", "1"),
			"no signature":       without(link, signedurl.ParamSignature),
			"no expiry":          without(link, signedurl.ParamExpires),
			"other key":          publicURL + other.Sign("/downloads/revisions/"+rev+"/files/"+a, time.Hour),
			"other page":         with(pdfLink, "page", "page_other"),
			"all pages":          without(pdfLink, "page"),
			"other title":        with(pdfLink, "title", "Other"),
		}
		for name, l := range tests {
			t.Run(name, func(t *testing.T) {
				wantError(t, e.get(t, http.MethodGet, l), http.StatusForbidden)
			})
		}

		// Links expire after the TTL (one hour by default), not before.
		e.clock.advance(time.Hour)
		if w := e.get(t, http.MethodGet, link); w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "private, max-age=0" {
			t.Fatalf("link at its expiry: %d %q", w.Code, w.Header().Get("Cache-Control"))
		}
		e.clock.advance(time.Second)
		wantError(t, e.get(t, http.MethodGet, link), http.StatusForbidden)
		wantError(t, e.get(t, http.MethodGet, pdfLink), http.StatusForbidden)
		if w := e.get(t, http.MethodGet, link); !strings.Contains(w.Body.String(), "expired") {
			t.Errorf("expired link message: %s", w.Body)
		}
		// A new link works again; a shorter TTL is honoured.
		e.svc.TTL = time.Minute
		link = e.svc.FileURL(rev, a)
		if w := e.get(t, http.MethodGet, link); w.Code != http.StatusOK {
			t.Fatalf("fresh link: %d", w.Code)
		}
		e.clock.advance(time.Minute + time.Second)
		wantError(t, e.get(t, http.MethodGet, link), http.StatusForbidden)

		// Other methods and paths.
		link = e.svc.FileURL(rev, a)
		if w := e.get(t, http.MethodPost, link); w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("POST: %d %v", w.Code, w.Header())
		}
		wantError(t, e.get(t, http.MethodGet, publicURL+"/downloads/revisions/"+rev), http.StatusNotFound)
		wantError(t, e.get(t, http.MethodGet, publicURL+"/downloads/elsewhere"), http.StatusNotFound)
	})
}

func TestSigningKey(t *testing.T) {
	ctx := context.Background()
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			url := databaseURL(t, backend)
			// Two processes sharing the database.
			first, second := open(t, url), open(t, url)

			got, err := downloads.SigningKey(ctx, first.Client, "configured secret")
			if err != nil || string(got) != "configured secret" {
				t.Fatalf("configured key: %q, %v", got, err)
			}

			// Concurrent first calls agree on one generated key.
			const n = 8
			keys := make([][]byte, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := first.Client
					if i%2 == 1 {
						c = second.Client
					}
					keys[i], errs[i] = downloads.SigningKey(ctx, c, "")
				}()
			}
			wg.Wait()
			for i := range n {
				if errs[i] != nil {
					t.Fatalf("call %d: %v", i, errs[i])
				}
				if len(keys[i]) != 32 || !bytes.Equal(keys[i], keys[0]) {
					t.Fatalf("call %d got key %x, call 0 got %x", i, keys[i], keys[0])
				}
			}
			// Later calls, from either process, return the same key.
			again, err := downloads.SigningKey(ctx, second.Client, "")
			if err != nil || !bytes.Equal(again, keys[0]) {
				t.Fatalf("second call: %x, %v", again, err)
			}
			again, err = downloads.SigningKey(ctx, first.Client, "")
			if err != nil || !bytes.Equal(again, keys[0]) {
				t.Fatalf("third call: %x, %v", again, err)
			}
			// A link signed by one process verifies in the other.
			s1 := downloads.New(content.New(first.Client, publicURL, catalog.New(first.Client)), signedurl.NewSigner(keys[0]), publicURL)
			s2 := downloads.New(content.New(second.Client, publicURL, catalog.New(second.Client)), signedurl.NewSigner(again), publicURL)
			link := s1.FileURL("rev", "file")
			if err := s2.Signer.Verify(link); err != nil {
				t.Fatalf("link from one process does not verify in the other: %v", err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestChangeRequestPDF(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		cr := e.cr("Release notes")
		res := e.edit(cr,
			&content.CreatePage{Title: "Alpha page", Markdown: ptr("# Alpha\n\nFirst **page**.\n\n- one\n- two\n")},
			&content.CreatePage{Title: "Gamma page", Markdown: ptr("Last page.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n")},
			&content.CreatePage{Title: "Elsewhere", Type: content.TypeLink, Link: &document.ContentRef{Kind: document.RefURL, URL: "https://example.com"}},
			&content.SetVariables{Variables: map[string]any{"product": "Quire"}},
		)
		alpha, gamma := res.IDs[0], res.IDs[1]
		res = e.edit(res.ChangeRequest,
			&content.CreatePage{Title: "Beta page", Parent: alpha, Position: &content.Position{}, Document: &document.Document{Nodes: []document.Node{
				document.NewBlock(document.BlockParagraph, nil, document.NewText("About "),
					document.NewInline(document.InlineExpression, map[string]any{"expression": "space.vars.product"})),
			}}},
			&content.MovePage{Page: gamma, Position: &content.Position{After: alpha}},
		)
		beta, rev := res.IDs[0], res.Revision
		titles := []string{"Alpha page", "Beta page", "Gamma page"}
		check := func(t *testing.T, opt downloads.PDFOptions, want ...string) []byte {
			t.Helper()
			w := e.get(t, http.MethodGet, e.svc.PDFURL(rev, opt))
			if w.Code != http.StatusOK {
				t.Fatalf("status = %d: %s", w.Code, w.Body)
			}
			body := w.Body.Bytes()
			if !bytes.HasPrefix(body, []byte("%PDF-")) {
				t.Fatalf("not a PDF: %q", body[:min(len(body), 20)])
			}
			h := w.Header()
			if h.Get("Content-Type") != "application/pdf" || h.Get("Content-Length") != strconv.Itoa(len(body)) ||
				!strings.HasPrefix(h.Get("Cache-Control"), "private") {
				t.Errorf("headers: %v", h)
			}
			for _, title := range append(titles, "Elsewhere") {
				in := bytes.Contains(body, []byte(outlineTitle(title)))
				if wanted := slices.Contains(want, title); in != wanted {
					t.Errorf("outline has %q: %v, want %v", title, in, wanted)
				}
			}
			return body
		}

		all := check(t, downloads.PDFOptions{Title: "Release notes"}, titles...)
		w := e.get(t, http.MethodGet, e.svc.PDFURL(rev, downloads.PDFOptions{Title: "Release notes"}))
		if cd := w.Header().Get("Content-Disposition"); cd != "attachment; filename=release-notes.pdf" {
			t.Errorf("Content-Disposition = %q", cd)
		}
		// The outline follows the tree: Alpha, its child Beta, then Gamma.
		a, b, g := bytes.Index(all, []byte(outlineTitle("Alpha page"))), bytes.Index(all, []byte(outlineTitle("Beta page"))), bytes.Index(all, []byte(outlineTitle("Gamma page")))
		if !(a < b && b < g) {
			t.Errorf("outline order: alpha %d, beta %d, gamma %d", a, b, g)
		}
		// Beta is nested under Alpha; Alpha and Gamma share the root.
		if pa, pb, pg := outlineParent(all, "Alpha page"), outlineParent(all, "Beta page"), outlineParent(all, "Gamma page"); pa == "" || pa != pg || pb == pa {
			t.Errorf("outline parents: alpha %q, beta %q, gamma %q", pa, pb, pg)
		}

		check(t, downloads.PDFOptions{Title: "Release notes", Page: beta}, "Beta page")
		check(t, downloads.PDFOptions{Page: gamma}, "Gamma page")
		check(t, downloads.PDFOptions{Page: alpha, Children: true}, "Alpha page", "Beta page")
		w = e.get(t, http.MethodGet, e.svc.PDFURL(rev, downloads.PDFOptions{Page: gamma}))
		if cd := w.Header().Get("Content-Disposition"); cd != "attachment; filename=document.pdf" {
			t.Errorf("untitled Content-Disposition = %q", cd)
		}

		// The first revision of the change request has no Beta page.
		wantError(t, e.get(t, http.MethodGet, e.svc.PDFURL(cr.RevisionID, downloads.PDFOptions{Page: beta})), http.StatusNotFound)
		wantError(t, e.get(t, http.MethodGet, e.svc.PDFURL(rev, downloads.PDFOptions{Page: "page_missing"})), http.StatusNotFound)
		wantError(t, e.get(t, http.MethodGet, e.svc.PDFURL("rev_missing", downloads.PDFOptions{})), http.StatusNotFound)
		// An empty revision renders (a title page only).
		if w := e.get(t, http.MethodGet, e.svc.PDFURL(e.space.RevisionID, downloads.PDFOptions{})); w.Code != http.StatusOK {
			t.Errorf("empty revision: %d %s", w.Code, w.Body)
		}
	})
}

// outlineParent returns the /Parent reference of the outline entry titled
// title.
func outlineParent(body []byte, title string) string {
	i := bytes.Index(body, []byte(outlineTitle(title)))
	if i < 0 {
		return ""
	}
	rest := body[i:]
	j := bytes.Index(rest, []byte("/Parent "))
	if j < 0 {
		return ""
	}
	ref, _, _ := bytes.Cut(rest[j+len("/Parent "):], []byte(" R"))
	return string(ref)
}
