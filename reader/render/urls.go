package render

import (
	"strings"

	"quire/internal/document"
)

// safeURL reports whether u may be an href: a URL with scheme http, https
// or mailto, or a relative URL (path, query or fragment). Browsers skip
// tabs and newlines inside a scheme ("java\tscript:") and leading control
// characters, so any control character or space makes a URL unsafe rather
// than being cleaned up.
func safeURL(u string) bool {
	return checkURL(u, "http", "https", "mailto")
}

// safeSrc is safeURL for the src of an image: no mailto.
func safeSrc(u string) bool {
	return checkURL(u, "http", "https")
}

func checkURL(u string, schemes ...string) bool {
	if u == "" {
		return false
	}
	for i := 0; i < len(u); i++ {
		if c := u[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	// The scheme is what comes before the first ':' when no '/', '?' or
	// '#' comes first (a relative path may hold a ':' after a '/').
	end := strings.IndexAny(u, ":/?#")
	if end < 0 || u[end] != ':' {
		return true // relative
	}
	scheme := strings.ToLower(u[:end])
	for _, s := range schemes {
		if scheme == s {
			return true
		}
	}
	return false
}

// resolve returns the href of a reference the reader may follow. Links
// decides what a reference points to for this reader; whatever it answers
// is checked again, so that a URL stored in a document can never become a
// javascript: link. Without Links only plain URLs and anchors on the same
// page resolve.
func (r *renderer) resolve(ref document.ContentRef) (string, bool) {
	var href string
	if r.links != nil {
		h, ok := r.links.Ref(ref)
		if !ok {
			return "", false
		}
		href = h
	} else {
		switch {
		case ref.Kind == document.RefURL:
			href = ref.URL
		case ref.Kind == document.RefAnchor && ref.Page == "" && ref.Space == "":
			href = "#" + ref.Anchor // a section of this page
		}
	}
	if !safeURL(href) {
		return "", false
	}
	return href, true
}

// file returns a file of the revision the reader may fetch, its URL
// checked as an image source.
func (r *renderer) file(id string) (File, bool) {
	if r.links == nil || id == "" {
		return File{}, false
	}
	f, ok := r.links.File(id)
	if !ok || !safeURL(f.URL) {
		return File{}, false
	}
	return f, true
}

// image returns the source of an image reference (a file or a URL), with
// the file's dimensions when known.
func (r *renderer) image(ref document.ContentRef) (File, bool) {
	switch ref.Kind {
	case document.RefFile:
		f, ok := r.file(ref.File)
		if !ok || !safeSrc(f.URL) {
			return File{}, false
		}
		return f, true
	case document.RefURL:
		href, ok := r.resolve(ref)
		if !ok || !safeSrc(href) {
			return File{}, false
		}
		return File{URL: href}, true
	}
	return File{}, false
}
