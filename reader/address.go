package reader

import (
	"net"
	"net/url"
	"strings"

	"quire/internal/sites"
)

// request is where in a published site a reader asked to go.
type request struct {
	addr     sites.Address
	shareKey *string
	// base is the site's URL as the reader reached it (the share key
	// included): every URL the door hands out starts with it.
	base string
	// rest are the path's segments below the site, unescaped.
	rest []string
	// markdown: the path ended with ".md" (the page as Markdown).
	markdown bool
}

// maxSegments bounds the path segments a request may carry below a site:
// deeper than any page tree Quire stores (sections, site spaces and 32
// levels of pages).
const maxSegments = 40

// parsePath reads a path under Quire's public URL:
// /s/{organization}/{basename}[/~share/{key}][/rest...]. ok is false for
// anything else.
func parsePath(publicURL, path string) (request, bool) {
	segs, ok := segments(strings.TrimPrefix(path, Prefix))
	if !ok || len(segs) < 2 {
		return request{}, false
	}
	r := request{addr: sites.Address{Organization: segs[0], Basename: segs[1]}}
	r.base = strings.TrimRight(publicURL, "/") + Prefix + url.PathEscape(segs[0]) + "/" + url.PathEscape(segs[1])
	return r.withRest(segs[2:])
}

// parseHost reads a path on a site's custom hostname: [/~share/{key}][/rest...].
func parseHost(host, scheme, path string) (request, bool) {
	segs, ok := segments(path)
	if !ok {
		return request{}, false
	}
	r := request{addr: sites.Address{Hostname: host}}
	// Published URLs of custom hostnames are https (see sites.SiteBaseURL);
	// a reader who came over plain HTTP (behind no proxy) keeps it.
	r.base = scheme + "://" + host
	return r.withRest(segs)
}

func (r request) withRest(segs []string) (request, bool) {
	if len(segs) >= 2 && segs[0] == "~share" {
		key := segs[1]
		r.shareKey = &key
		r.base += "/~share/" + url.PathEscape(key)
		segs = segs[2:]
	}
	if len(segs) > 0 {
		last := segs[len(segs)-1]
		if name, ok := strings.CutSuffix(last, ".md"); ok && name != "" {
			r.markdown = true
			segs[len(segs)-1] = name
		}
	}
	r.rest = segs
	return r, true
}

// segments splits a path into its non-empty segments, unescaped; false
// when there are too many or one does not unescape.
func segments(path string) ([]string, bool) {
	var out []string
	for _, s := range strings.Split(path, "/") {
		if s == "" {
			continue
		}
		u, err := url.PathUnescape(s)
		if err != nil || u == "." || u == ".." {
			return nil, false
		}
		out = append(out, u)
		if len(out) > maxSegments {
			return nil, false
		}
	}
	return out, true
}

// hostOf is a request's host without its port, lowercased; "" when it is
// not a name a site could hold.
func hostOf(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || len(h) > 253 || strings.ContainsAny(h, "/\\@ ") {
		return ""
	}
	return h
}
