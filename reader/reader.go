// Package reader is the door of published sites: it serves every
// published docs site to its readers as HTML (and its agents and robots
// files), at the URLs that the API hands out in urls.published: a path
// under Quire's public URL (/s/{organization}/{basename}), a share link
// below it (/~share/{key}), or a site's custom hostname.
//
// Like REST, it reads through the resolver layer (graph.Resolver's Visit
// methods): who may read a site, and which content that opens, is decided
// below the doors (sites.Visit).
package reader

import (
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"

	"quire/graph"
	"quire/internal/apierr"
	"quire/internal/requestid"
	"quire/internal/sites"
	"quire/reader/view"
)

// Prefix is the path under Quire's public URL below which sites are
// served by organization and basename.
const Prefix = "/s/"

// AssetsPrefix is the path of the reader's embedded assets (stylesheet,
// script, icons), on Quire's public URL and on every custom hostname.
const AssetsPrefix = "/_reader/"

// Config configures the door.
type Config struct {
	// PublicURL is Quire's public URL; a request for another host is a
	// request for a site's custom hostname.
	PublicURL string
	Log       *slog.Logger
	// Cache keeps rendered pages (nil: none).
	Cache *PageCache
	// Prepare, when set, readies a request that is to be rendered (not
	// served from Cache), or answers it itself and returns false: the
	// server charges it to the anonymous rate limit and gives it its
	// loaders there, so that an answer served from the cache, which reads
	// nothing, costs neither.
	Prepare func(http.ResponseWriter, *http.Request) (*http.Request, bool)
}

// Door serves published sites.
type Door struct {
	r          *graph.Resolver
	publicURL  string
	publicHost string
	log        *slog.Logger
	assets     http.Handler
	sidebars   sidebars
	cache      *PageCache
	prepare    func(http.ResponseWriter, *http.Request) (*http.Request, bool)
	// security are the headers every answer carries (securityHeaders).
	security http.Header
}

// New returns the door, reading through r.
func New(r *graph.Resolver, cfg Config) *Door {
	d := &Door{r: r, publicURL: strings.TrimRight(cfg.PublicURL, "/"), log: cfg.Log, assets: view.Assets(), cache: cfg.Cache, prepare: cfg.Prepare}
	if u, err := url.Parse(d.publicURL); err == nil {
		d.publicHost = hostOf(u.Host)
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	d.security = securityHeaders(d.publicURL)
	return d
}

// CustomHost reports whether a request is for a host other than Quire's
// public one that a site may hold as its custom hostname (a domain name:
// not an IP address, nor a name without a dot such as localhost).
func (d *Door) CustomHost(r *http.Request) bool {
	h := hostOf(r.Host)
	return h != "" && h != d.publicHost && strings.Contains(h, ".") && net.ParseIP(h) == nil
}

// Assets serves the embedded assets below AssetsPrefix.
func (d *Door) Assets() http.Handler {
	return http.StripPrefix(strings.TrimSuffix(AssetsPrefix, "/"), d.assets)
}

// ServeHTTP serves a reader's request: by path under Prefix on Quire's
// public host, by custom hostname on any other host.
func (d *Door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.setSecurityHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var req request
	var ok bool
	custom := d.CustomHost(r)
	if custom && strings.HasPrefix(r.URL.Path, AssetsPrefix) {
		d.Assets().ServeHTTP(w, r)
		return
	}
	w, done := d.cache.lookup(w, r, hostKey(custom, hostOf(r.Host)))
	if done {
		return
	}
	if d.prepare != nil {
		if r, ok = d.prepare(w, r); !ok {
			return
		}
	}
	if custom {
		scheme := "https"
		if r.TLS == nil && r.Header.Get("X-Forwarded-Proto") == "http" {
			scheme = "http"
		}
		req, ok = parseHost(hostOf(r.Host), scheme, r.URL.Path)
	} else {
		req, ok = parsePath(d.publicURL, r.URL.Path)
	}
	if !ok {
		d.plainError(w, r, http.StatusNotFound, "No published site matches this address.")
		return
	}
	d.serveSite(w, r, req)
}

// VisitorCookie is the cookie holding a reader's visitor token on a
// visitor-auth site, once verified (scoped to the site's path).
const VisitorCookie = "quire-visitor"

// serveSite opens the site and serves what the request asks of it.
func (d *Door) serveSite(w http.ResponseWriter, r *http.Request, req request) {
	ctx := r.Context()
	token, fromQuery := r.URL.Query().Get("jwt_token"), true
	if token == "" {
		fromQuery = false
		if c, err := r.Cookie(VisitorCookie); err == nil {
			token = c.Value
		}
	}
	v, err := d.r.VisitSite(ctx, req.addr, req.shareKey, token)
	if err != nil {
		switch apierr.CodeOf(err) {
		case apierr.NotFound:
			d.plainError(w, r, http.StatusNotFound, "No published site matches this address.")
		case apierr.Unauthorized:
			d.plainError(w, r, http.StatusUnauthorized, "This site is only for signed-in readers. Sign in through the link you were given to read it.")
		default:
			d.fail(w, r, err)
		}
		return
	}
	if fromQuery && v.Claims != nil {
		// The token is good: keep it in a cookie and leave the URL, so
		// that it stays out of the history and of referrers.
		d.keepVisitor(w, r, req, token)
		return
	}
	d.serveVisit(w, r, req, v, "")
}

// serveVisit serves what a request asks of a site it may read: a page,
// the search page, the agents' and robots' files, or the theme. banner,
// when set, is announced above every page (a member's preview says what
// it shows).
func (d *Door) serveVisit(w http.ResponseWriter, r *http.Request, req request, v *sites.Visit, banner string) {
	ctx := r.Context()
	s := &visit{c: ctx, d: d, v: v, req: req, claims: visitorClaims(v.Claims, r.URL.Query()), banner: banner}
	if c, err := r.Cookie(view.ThemeCookie); err == nil && (c.Value == "light" || c.Value == "dark") {
		s.chosenTheme = c.Value
	}
	if len(req.rest) == 1 && !req.markdown {
		switch req.rest[0] {
		case "robots.txt":
			s.robots(w, r)
			return
		case "sitemap.xml":
			s.sitemap(w, r)
			return
		case "llms.txt", "llms-full.txt":
			s.llms(w, r, req.rest[0] == "llms-full.txt")
			return
		case "~search":
			s.search(w, r)
			return
		}
	}
	if len(req.rest) == 2 && req.rest[0] == "~theme" {
		s.theme(w, r, strings.TrimSuffix(req.rest[1], ".css"))
		return
	}
	s.page(w, r)
}

// fail answers an unexpected error: logged with the request id, never
// shown.
func (d *Door) fail(w http.ResponseWriter, r *http.Request, err error) {
	d.log.ErrorContext(r.Context(), "internal error", "request_id", requestid.From(r.Context()), "error", err.Error())
	d.plainError(w, r, http.StatusInternalServerError, "Something went wrong on our side. Try again in a moment.")
}

// plainError answers with an error page outside any site's frame (the
// site itself may not be read).
func (d *Door) plainError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	kind := view.KindNotFound
	if status == http.StatusUnauthorized {
		kind = view.KindUnauthorized
	}
	p := &view.Page{Kind: kind, Status: status, Title: http.StatusText(status), Message: msg, Lang: "en",
		AssetBase: AssetsPrefix, Robots: "noindex", Settings: defaultSettings()}
	p.Layout = view.Layout{}
	respondHTML(w, r, p, false)
}

// keepVisitor sets the visitor cookie for the site and redirects to the
// URL asked for, without its jwt_token.
func (d *Door) keepVisitor(w http.ResponseWriter, r *http.Request, req request, token string) {
	path := "/"
	secure := r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
	if u, err := url.Parse(req.base); err == nil {
		if u.Path != "" {
			path = u.Path
		}
		secure = secure || u.Scheme == "https"
	}
	http.SetCookie(w, &http.Cookie{Name: VisitorCookie, Value: token, Path: path, HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode})
	q := r.URL.Query()
	q.Del("jwt_token")
	to := r.URL.Path
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusSeeOther)
}
