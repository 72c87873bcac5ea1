package reader

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"quire/internal/customization"
	"quire/reader/view"
)

// securityHeaders are what every answer of the door carries: a
// Content-Security-Policy without inline scripts or styles (images may
// come from anywhere over HTTPS, and from Quire's public URL, which signs
// the download links of files), no MIME sniffing, no framing, and a
// referrer that leaves the site's paths (and share keys) behind. They are
// made once, for the door's public URL.
func securityHeaders(publicURL string) http.Header {
	self := "'self'"
	if u, err := url.Parse(publicURL); err == nil && u.Scheme != "" && u.Host != "" {
		self += " " + u.Scheme + "://" + u.Host
	}
	return http.Header{
		"Content-Security-Policy": {"default-src 'self'; script-src 'self'; style-src 'self'; img-src " + self + " https: data:; " +
			"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
		"X-Content-Type-Options": {"nosniff"},
		"X-Frame-Options":        {"DENY"},
		"Referrer-Policy":        {"strict-origin-when-cross-origin"},
	}
}

// setSecurityHeaders sets the door's security headers on an answer.
func (d *Door) setSecurityHeaders(h http.Header) {
	for k, v := range d.security {
		h[k] = v
	}
}

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// respondHTML renders a page and answers with it (see respond).
func respondHTML(w http.ResponseWriter, r *http.Request, p *view.Page, public bool) {
	buf := bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufs.Put(buf)
	if err := view.Render(buf, p); err != nil {
		// A template that fails is a bug of Quire's, not of the site.
		buf.Reset()
		buf.WriteString("<!doctype html><title>Error</title><p>This page could not be shown.")
		p.Status = http.StatusInternalServerError
	}
	if p.Robots != "" {
		w.Header().Set("X-Robots-Tag", p.Robots)
	}
	respond(w, r, p.Status, "text/html; charset=utf-8", buf.Bytes(), public)
}

// respond answers with a body: an ETag from its bytes (a 304 when the
// reader has them already), the caching a site's visibility allows
// (public and unlisted sites may be cached by shared caches; the others
// only by the reader's browser, and revalidated), and gzip when the
// reader accepts it.
func respond(w http.ResponseWriter, r *http.Request, status int, contentType string, body []byte, public bool) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	// The theme a reader chose (a cookie) is in the page.
	h.Set("Vary", "Accept-Encoding, Cookie")
	if public {
		h.Set("Cache-Control", "public, max-age=60")
	} else {
		h.Set("Cache-Control", "private, no-cache")
	}
	if status == http.StatusOK {
		sum := sha256.Sum256(body)
		etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
		h.Set("ETag", etag)
		keepAnswer(w, status, body, public)
		if matches(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if len(body) > gzipFrom && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		w.WriteHeader(status)
		if r.Method == http.MethodHead {
			return
		}
		zw := gzips.Get().(*gzip.Writer)
		zw.Reset(w)
		zw.Write(body) //nolint:errcheck // the reader went away: nothing to do
		zw.Close()     //nolint:errcheck // idem
		gzips.Put(zw)
		return
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body) //nolint:errcheck // the reader went away: nothing to do
	}
}

// gzipFrom is the size from which an answer is worth compressing.
const gzipFrom = 512

var gzips = sync.Pool{New: func() any {
	// The fastest level: a page compresses to about a fifth either way,
	// and the default level costs as much time as rendering the page.
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

// matches reports whether an If-None-Match header names etag (or is *).
func matches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "W/"))
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether the reader accepts gzip (and has not
// refused it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// defaultSettings are the customization of a page outside any site.
func defaultSettings() *customization.Settings {
	s, _ := customization.Decode([]byte(`{}`))
	return &s
}
