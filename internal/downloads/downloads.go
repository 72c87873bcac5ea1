// Package downloads serves signed, expiring download links: the bytes of a
// revision's files, and a revision's pages rendered as a PDF (the URL that
// the change request and space PDF endpoints return).
//
// A link is an absolute URL under PublicURL + "/downloads/", signed with
// internal/signedurl:
//
//	/downloads/revisions/{revisionId}/files/{fileId}?expires=…&sig=…
//	/downloads/revisions/{revisionId}/pdf?title=…&page=…&expires=…&sig=…
//
// The signature is the authorization: the download paths need no token, so
// a link works in a browser, an <img> tag or a PDF viewer. Links name a
// revision, and revisions are immutable, so a link keeps serving the
// content it was made for until it expires.
//
// Handler serves those paths. Mount it outside /v1 (and outside the token
// authentication), on the full prefix and without stripping it, because the
// signature covers the whole path:
//
//	mux.Handle("/downloads/", downloads.Handler())
//
// Every process that serves links must use the same key; SigningKey
// provides one shared through the database.
package downloads

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/pdf"
	"quire/internal/requestid"
	"quire/internal/signedurl"
)

// DefaultTTL is how long a link works.
const DefaultTTL = time.Hour

// prefix is the path all download links live under.
const prefix = "/downloads/"

// Service makes and serves download links.
type Service struct {
	Content Content
	Signer  *signedurl.Signer
	// PublicURL is the server's public URL, without a trailing slash.
	PublicURL string
	// TTL is how long a new link works (DefaultTTL).
	TTL time.Duration
	// Now returns the current time, used as the creation date of PDFs.
	Now func() time.Time
	// Log receives internal errors (slog.Default when nil).
	Log *slog.Logger
	// Computed computes the documents of computed pages (nil: they show
	// empty).
	Computed ComputedPages
}

// Content is what downloads read from the content engine: the link is the
// authorization, so these reads check no caller.
type Content interface {
	FileContent(ctx context.Context, revisionID, fileID string) (*content.File, []byte, error)
	Revision(ctx context.Context, id string) (*content.Revision, error)
	Documents(ctx context.Context, versionIDs []string) (map[string]*document.Document, error)
	// Dereference inlines the reusable contents a document embeds.
	Dereference(ctx context.Context, revisionID string, doc *document.Document) (*document.Document, error)
}

// New returns a Service whose links start with publicURL and are signed by
// signer.
func New(c Content, signer *signedurl.Signer, publicURL string) *Service {
	return &Service{
		Content: c, Signer: signer, PublicURL: strings.TrimRight(publicURL, "/"), TTL: DefaultTTL,
		Now: func() time.Time { return time.Now().UTC() },
	}
}

// PDFOptions selects what a PDF link renders.
type PDFOptions struct {
	// Title is the document title (for example the change request subject
	// or the space title); it also names the downloaded file.
	Title string
	// Page is the id of the one page to render; "" renders every page of
	// the revision, in tree order.
	Page string
	// Children also renders the descendants of Page.
	Children bool
}

// FileURL returns a signed link to the bytes of a file of a revision.
func (s *Service) FileURL(revisionID, fileID string) string {
	return s.sign(revisionPath(revisionID) + "/files/" + url.PathEscape(fileID))
}

// PDFURL returns a signed link to a PDF of a revision's pages.
func (s *Service) PDFURL(revisionID string, opt PDFOptions) string {
	q := url.Values{}
	if opt.Title != "" {
		q.Set("title", opt.Title)
	}
	if opt.Page != "" {
		q.Set("page", opt.Page)
		if opt.Children {
			q.Set("children", "true")
		}
	}
	p := revisionPath(revisionID) + "/pdf"
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return s.sign(p)
}

func revisionPath(revisionID string) string {
	return prefix + "revisions/" + url.PathEscape(revisionID)
}

func (s *Service) sign(path string) string {
	ttl := s.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return s.PublicURL + s.Signer.Sign(path, ttl)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now().UTC()
}

func (s *Service) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// Handler serves the download paths. A link with a bad or expired
// signature is refused with 403 before anything is read; a revision, page
// or file that does not exist is 404. Errors have the REST shape
// {"error":{"code":N,"message":"..."}}.
func (s *Service) Handler() http.Handler {
	return http.HandlerFunc(s.serve)
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, apierr.New(apierr.MethodNotAllowed, "Method %s is not allowed on download links", r.Method))
		return
	}
	segs, ok := segments(r.URL.EscapedPath())
	if !ok {
		s.fail(w, r, apierr.NotFoundf("No such download"))
		return
	}
	if err := s.Signer.Verify(r.URL.RequestURI()); err != nil {
		msg := "The download link is invalid"
		if errors.Is(err, signedurl.ErrExpired) {
			msg = "The download link has expired"
		}
		s.fail(w, r, apierr.Forbiddenf("%s", msg))
		return
	}
	w.Header().Set("Cache-Control", s.cacheControl(r))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	rev := segs[2]
	switch {
	case len(segs) == 5 && segs[3] == "files":
		s.serveFile(w, r, rev, segs[4])
	case len(segs) == 4 && segs[3] == "pdf":
		s.servePDF(w, r, rev)
	}
}

// segments splits an escaped download path into its decoded segments:
// ["downloads", "revisions", rev, "files", file] or
// ["downloads", "revisions", rev, "pdf"].
func segments(escaped string) ([]string, bool) {
	parts := strings.Split(strings.TrimPrefix(escaped, "/"), "/")
	for i, p := range parts {
		d, err := url.PathUnescape(p)
		if err != nil || d == "" {
			return nil, false
		}
		parts[i] = d
	}
	if len(parts) < 4 || parts[0] != "downloads" || parts[1] != "revisions" {
		return nil, false
	}
	ok := (len(parts) == 5 && parts[3] == "files") || (len(parts) == 4 && parts[3] == "pdf")
	return parts, ok
}

// cacheControl lets the browser keep the response while the link works:
// the content behind a link never changes.
func (s *Service) cacheControl(r *http.Request) string {
	exp, err := strconv.ParseInt(r.URL.Query().Get(signedurl.ParamExpires), 10, 64)
	now := time.Now
	if s.Signer.Now != nil {
		now = s.Signer.Now
	}
	left := exp - now().Unix()
	if err != nil || left < 0 {
		left = 0
	}
	return "private, max-age=" + strconv.FormatInt(left, 10)
}

func (s *Service) serveFile(w http.ResponseWriter, r *http.Request, revisionID, fileID string) {
	f, data, err := s.Content.FileContent(r.Context(), revisionID, fileID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	ct := f.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", disposition(f.Name))
	h.Set("ETag", `"`+f.Hash+`"`)
	// Uploaded files are served as downloads, never run as a page of this
	// origin.
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	// ServeContent answers HEAD, ranges and If-None-Match, and sets
	// Content-Length.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

func (s *Service) servePDF(w http.ResponseWriter, r *http.Request, revisionID string) {
	q := r.URL.Query()
	opt := PDFOptions{Title: q.Get("title"), Page: q.Get("page"), Children: q.Get("children") == "true"}
	pages, err := s.pages(r.Context(), revisionID, opt)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := pdf.Render(&buf, pages, pdf.Options{Title: opt.Title, Generated: s.now()}); err != nil {
		s.fail(w, r, fmt.Errorf("render pdf of revision %s: %w", revisionID, err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Content-Disposition", disposition(pdfFileName(opt.Title)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// disposition is an attachment header for a file name, with an ASCII
// fallback and the full name in RFC 5987 form when it needs one.
func disposition(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" {
		return v
	}
	return "attachment"
}

// pdfFileName makes a safe file name from a title: letters and digits,
// other runs of characters as one dash.
func pdfFileName(title string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(title) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
			if b.Len() >= 80 {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "document.pdf"
	}
	return b.String() + ".pdf"
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// fail writes err in the REST error shape; errors outside the domain
// vocabulary are logged and shown as an internal error.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := apierr.As(err)
	if !ok {
		s.log().ErrorContext(r.Context(), "internal error", "request_id", requestid.From(r.Context()),
			"method", r.Method, "path", r.URL.Path, "error", err.Error())
		e = apierr.New(apierr.Internal, "Internal error")
	}
	status := e.Code.Status()
	body, _ := json.Marshal(errorBody{Error: errorDetail{Code: status, Message: e.Message}})
	h := w.Header()
	for _, k := range []string{"Content-Disposition", "ETag", "Cache-Control", "Content-Security-Policy"} {
		h.Del(k)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// pages reads the pages a PDF renders.
// Errors: NotFound (revision or page).
func (s *Service) pages(ctx context.Context, revisionID string, opt PDFOptions) ([]pdf.Page, error) {
	rev, err := s.Content.Revision(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	type item struct {
		page  *content.Page
		depth int
	}
	var items []item
	var walk func(ps []*content.Page, depth int)
	walk = func(ps []*content.Page, depth int) {
		for _, p := range ps {
			if p.Type != content.TypeLink {
				items = append(items, item{p, depth})
			}
			walk(p.Pages, depth+1)
		}
	}
	if opt.Page == "" {
		walk(rev.Pages, 0)
	} else {
		var found *content.Page
		content.Walk(rev.Pages, func(p *content.Page) {
			if p.ID == opt.Page {
				found = p
			}
		})
		if found == nil || found.Type == content.TypeLink {
			return nil, apierr.NotFoundf("No matching page found for id %q in revision %q", opt.Page, revisionID)
		}
		items = append(items, item{found, 0})
		if opt.Children {
			walk(found.Pages, 1)
		}
	}
	// The documents of every page, in two statements whatever their number.
	var versions []string
	for _, it := range items {
		if it.page.Type == content.TypeDocument {
			versions = append(versions, it.page.Version)
		}
	}
	docs, err := s.Content.Documents(ctx, versions)
	if err != nil {
		return nil, err
	}
	pages := make([]*content.Page, len(items))
	for i, it := range items {
		pages[i] = it.page
	}
	generated, err := s.computedDocuments(ctx, rev.Space, pages)
	if err != nil {
		return nil, err
	}
	if docs == nil {
		docs = map[string]*document.Document{}
	}
	for v, d := range generated {
		docs[v] = d
	}
	cv := newConverter(s, rev)
	out := make([]pdf.Page, 0, len(items))
	for _, it := range items {
		pg := pdf.Page{Title: it.page.Title, Emoji: emojiChars(it.page.Emoji), Depth: it.depth}
		if doc := docs[it.page.Version]; it.page.Type == content.TypeDocument && doc != nil {
			// The PDF shows what readers read: the reusable contents a page
			// embeds, inlined (a page without any costs no statement).
			if doc, err = s.Content.Dereference(ctx, revisionID, doc); err != nil {
				return nil, err
			}
			pg.Blocks = cv.document(doc, it.page.Variables)
		}
		out = append(out, pg)
	}
	return out, nil
}
