package reader

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"quire/graph"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/sites"
	"quire/reader/view"
)

// AppPrefix is where organization members open what the API's urls.app
// point to: their organizations, collections, spaces and pages (current
// content, a change request's or an older revision's), sites (published
// or not), OpenAPI specifications and clusters of conversations. Spaces
// and sites are shown as readers would see them, never cached by others
// nor indexed. Members sign in at SignInPath; the server authenticates
// every other request under AppPrefix before ServeApp.
const AppPrefix = "/app/"

// SignInPath and SignOutPath are the members' sign-in form and sign-out.
const (
	SignInPath  = "/app/sign-in"
	SignOutPath = "/app/sign-out"
)

// SessionCookie holds a signed-in member's API token, for AppPrefix only.
const SessionCookie = auth.SessionCookie

// ServeApp serves a signed-in member's request under AppPrefix.
func (d *Door) ServeApp(w http.ResponseWriter, r *http.Request) {
	d.setSecurityHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	segs, ok := segments(strings.TrimPrefix(r.URL.Path, AppPrefix))
	if !ok {
		d.appError(w, r, apierr.NotFoundf("not found"))
		return
	}
	if len(segs) == 0 {
		d.appIndex(w, r, "", "", func() (*graph.PreviewIndex, error) { return d.r.PreviewHome(r.Context()) })
		return
	}
	if len(segs) < 2 || segs[0] != "o" {
		d.appError(w, r, apierr.NotFoundf("not found"))
		return
	}
	org, rest := segs[1], segs[2:]
	ctx := r.Context()
	base := d.publicURL + AppPrefix + "o/" + url.PathEscape(org)
	switch {
	case len(rest) == 0:
		d.appIndex(w, r, "", "", func() (*graph.PreviewIndex, error) { return d.r.PreviewOrganization(ctx, org) })
	case len(rest) == 2 && rest[0] == "c":
		d.appIndex(w, r, "", "", func() (*graph.PreviewIndex, error) { return d.r.PreviewCollection(ctx, org, rest[1]) })
	case len(rest) == 2 && rest[0] == "openapi":
		d.appIndex(w, r, "", "", func() (*graph.PreviewIndex, error) { return d.r.PreviewOpenAPISpec(ctx, org, rest[1]) })
	case len(rest) == 3 && rest[0] == "conversations" && rest[1] == "clusters":
		d.appIndex(w, r, "", "", func() (*graph.PreviewIndex, error) { return d.r.PreviewCluster(ctx, org, rest[2]) })
	case len(rest) >= 2 && rest[0] == "sites":
		base += "/sites/" + url.PathEscape(rest[1])
		v, err := d.r.PreviewSite(ctx, org, rest[1], base)
		if err != nil {
			d.appError(w, r, err)
			return
		}
		banner := "Preview of the site as its readers see it"
		if !v.Site.Published {
			banner += " once published"
		}
		banner += ". Only members of the organization see this page."
		d.servePreview(w, r, base, rest[2:], v, banner)
	case len(rest) >= 2 && rest[0] == "s":
		d.spacePreview(w, r, org, base+"/s/"+url.PathEscape(rest[1]), rest[1], rest[2:])
	default:
		d.appError(w, r, apierr.NotFoundf("not found"))
	}
}

// spacePreview serves a space's preview: below base, its current content,
// or ~/changes/{number} (a change request's) or ~/revisions/{id}.
func (d *Door) spacePreview(w http.ResponseWriter, r *http.Request, org, base, spaceID string, rest []string) {
	number, revisionID := 0, ""
	if len(rest) >= 3 && rest[0] == "~" {
		switch rest[1] {
		case "changes":
			n, err := strconv.Atoi(rest[2])
			if err != nil || n <= 0 {
				d.appError(w, r, apierr.NotFoundf("not found"))
				return
			}
			number = n
		case "revisions":
			revisionID = rest[2]
		default:
			d.appError(w, r, apierr.NotFoundf("not found"))
			return
		}
		base += "/~/" + rest[1] + "/" + url.PathEscape(rest[2])
		rest = rest[3:]
	}
	v, cr, err := d.r.PreviewSpace(r.Context(), org, spaceID, number, revisionID, base)
	if err != nil {
		d.appError(w, r, err)
		return
	}
	banner := "Preview of the space's current content."
	switch {
	case cr != nil:
		banner = "Preview of " + graph.PreviewChangeRequestTitle(cr) + " (status: " + cr.Status + ")."
	case revisionID != "":
		banner = "Preview of revision " + revisionID + " of the space."
	}
	d.servePreview(w, r, base, rest, v, banner+" Only members of the organization see this page.")
}

// servePreview serves a member's preview as the reader serves a site.
func (d *Door) servePreview(w http.ResponseWriter, r *http.Request, base string, rest []string, v *sites.Visit, banner string) {
	req, _ := request{base: base}.withRest(rest)
	d.serveVisit(w, r, req, v, banner)
}

// appIndex answers an index page.
func (d *Door) appIndex(w http.ResponseWriter, r *http.Request, title, lead string, read func() (*graph.PreviewIndex, error)) {
	ix, err := read()
	if err != nil {
		d.appError(w, r, err)
		return
	}
	if title == "" {
		title = ix.Title
	}
	if lead == "" {
		lead = ix.Description
	}
	p := d.memberPage(view.KindIndex, http.StatusOK, title)
	p.Heading, p.Lead = title, lead
	p.Index = &view.Index{}
	for _, g := range ix.Groups {
		ig := view.IndexGroup{Title: g.Title, More: g.More}
		for _, it := range g.Items {
			ig.Items = append(ig.Items, view.IndexItem{Title: it.Title, Href: it.Href, Note: it.Note})
		}
		p.Index.Groups = append(p.Index.Groups, ig)
	}
	respondHTML(w, r, p, false)
}

// memberPage is a page of the members' area, outside any site.
func (d *Door) memberPage(kind view.Kind, status int, title string) *view.Page {
	return &view.Page{Kind: kind, Status: status, Title: title + " | Quire", Lang: "en", AssetBase: AssetsPrefix,
		Robots: "noindex", Settings: defaultSettings(), SignOutURL: SignOutPath,
		Site: view.Site{Title: "Quire", HomeURL: AppPrefix}}
}

// appError answers a refused or failed request of the members' area.
func (d *Door) appError(w http.ResponseWriter, r *http.Request, err error) {
	switch apierr.CodeOf(err) {
	case apierr.NotFound:
		d.plainError(w, r, http.StatusNotFound, "Nothing you may open matches this address.")
	case apierr.Forbidden:
		d.plainError(w, r, http.StatusForbidden, "You may not open this.")
	default:
		d.fail(w, r, err)
	}
}

// SignIn answers the members' sign-in form with status (200, or 401
// after a refused token), the reason of a refusal, and the page to return
// to.
func (d *Door) SignIn(w http.ResponseWriter, r *http.Request, status int, reason, next string) {
	d.setSecurityHeaders(w.Header())
	p := d.memberPage(view.KindSignIn, status, "Sign in")
	p.SignOutURL = ""
	p.SignIn = &view.SignIn{Action: SignInPath, Next: SafeNext(next), Error: reason}
	w.Header().Set("Cache-Control", "no-store")
	respondHTML(w, r, p, false)
}

// SafeNext is where a member returns after signing in: a path under
// AppPrefix of Quire itself (never another host), else AppPrefix.
func SafeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, AppPrefix) ||
		strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return AppPrefix
	}
	return u.RequestURI()
}
