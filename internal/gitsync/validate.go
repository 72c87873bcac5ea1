package gitsync

import (
	"context"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/netpolicy"
)

// Limits of requests.
const (
	maxURL     = 2048
	maxRef     = 255
	maxDir     = 1024
	maxMessage = 10_000
)

// remote is a checked repository location.
type remote struct {
	// raw is the URL as given (with its credentials); display the same
	// without them.
	raw, display string
	scheme       string
	// host is the host name of an http(s) URL, without port or brackets.
	host string
	// user and password are the basic-auth credentials of the URL.
	user, password string
	// dir is the repository's directory of a file:// URL, symbolic links
	// resolved.
	dir string
}

// parseRemote checks a repository URL: http(s) with a host spelled as a
// name or a plain address, or file:// inside one of roots.
func parseRemote(raw string, roots []string) (*remote, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, apierr.Invalid("url", "url is required")
	}
	if err := checkLength("url", raw, maxURL); err != nil {
		return nil, err
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, apierr.Invalid("url", "url must not contain control characters")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return nil, apierr.Invalid("url", "url must be an absolute http, https or file URL")
	}
	r := &remote{raw: raw, scheme: strings.ToLower(u.Scheme)}
	if u.User != nil {
		r.user = u.User.Username()
		r.password, _ = u.User.Password()
	}
	u.User = nil
	u.Fragment, u.RawFragment = "", ""
	r.display = u.String()
	switch r.scheme {
	case "http", "https":
		if u.Hostname() == "" {
			return nil, apierr.Invalid("url", "url must name a host")
		}
		// Refused whatever the address policy: no repository needs a
		// numeric spelling such as 2130706433 or 127.1, and resolvers that
		// read them as addresses would take the URL inside unannounced.
		if netpolicy.OddHost(u.Hostname()) {
			return nil, apierr.Invalid("url", "url names the host %q, an address spelled in a form Quire does not take: %s", u.Hostname(), netpolicy.OddHostAdvice)
		}
		r.host = u.Hostname()
		return r, nil
	case "file":
		if r.user != "" || (u.Host != "" && u.Host != "localhost") {
			return nil, apierr.Invalid("url", "A file URL names a local directory: file:///path")
		}
		dir, err := allowedDir(u.Path, roots)
		if err != nil {
			return nil, err
		}
		r.dir = dir
		return r, nil
	}
	return nil, apierr.Invalid("url", "url must be an http or https URL (scheme %q is not supported)", u.Scheme)
}

// checkDestination refuses a remote whose host names localhost or an
// inside address literally, unless allowPrivate. It is the check of a
// request, answered at once; names that resolve to an inside address, and
// redirects to one, are refused when connecting (see Service.open).
func checkDestination(r *remote, allowPrivate bool) error {
	if allowPrivate || r.host == "" || !netpolicy.InsideHost(r.host) {
		return nil
	}
	return apierr.Invalid("url", "url names %s, a loopback, private or link-local address, where Quire does not connect (an operator may allow it with --git-fetch-private)", r.host)
}

// allowedDir resolves a local path and checks it lies within one of roots.
func allowedDir(p string, roots []string) (string, error) {
	if len(roots) == 0 {
		return "", apierr.Invalid("url", "file URLs are not allowed on this server")
	}
	if !filepath.IsAbs(p) {
		return "", apierr.Invalid("url", "A file URL names an absolute path")
	}
	refuse := apierr.Invalid("url", "url does not name a directory this server allows repositories in")
	dir, err := filepath.EvalSymlinks(filepath.Clean(p))
	if err != nil {
		return "", refuse
	}
	for _, root := range roots {
		rr, err := filepath.EvalSymlinks(root)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(rr, dir)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return dir, nil
		}
	}
	return "", refuse
}

// checkRef checks a ref of the form refs/heads/<branch>, with Git's rules
// for ref names.
func checkRef(ref string) error {
	if ref == "" {
		return apierr.Invalid("ref", "ref is required")
	}
	bad := apierr.Invalid("ref", "ref must be a branch, as refs/heads/<branch>")
	if err := checkLength("ref", ref, maxRef); err != nil {
		return err
	}
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok || branch == "" || branch == "@" {
		return bad
	}
	if strings.ContainsAny(branch, " ~^:?*[\\") || strings.Contains(branch, "..") || strings.Contains(branch, "@{") ||
		strings.Contains(branch, "//") || strings.HasSuffix(branch, "/") || strings.HasSuffix(branch, ".") {
		return bad
	}
	if strings.ContainsFunc(branch, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return bad
	}
	for _, part := range strings.Split(branch, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return bad
		}
	}
	return nil
}

// cleanDir checks a directory of the repository and returns it relative
// to the root, without leading or trailing slashes ("" for the root). It
// may not leave the repository.
func cleanDir(field, dir string) (string, error) {
	if err := checkLength(field, dir, maxDir); err != nil {
		return "", err
	}
	if strings.ContainsRune(dir, '\\') || strings.ContainsFunc(dir, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", apierr.Invalid(field, "%s must be a path of the repository, with / between directories", field)
	}
	var parts []string
	for _, p := range strings.Split(strings.TrimSpace(dir), "/") {
		switch p {
		case "", ".":
		case "..":
			return "", apierr.Invalid(field, "%s may not leave the repository (it holds ..)", field)
		default:
			parts = append(parts, p)
		}
	}
	return path.Join(parts...), nil
}

// checkWebURL checks an optional http(s) URL.
func checkWebURL(field, v string) error {
	if v == "" {
		return nil
	}
	if err := checkLength(field, v, maxURL); err != nil {
		return err
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apierr.Invalid(field, "%s must be an http or https URL", field)
	}
	return nil
}

// checkLength refuses a value longer than max characters, in the words of
// the REST door's check of the same documented limit.
func checkLength(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max {
		return apierr.Invalid(field, "%s must be at most %d characters long", field, max)
	}
	return nil
}

// scrub removes the credentials of r from a message.
func (r *remote) scrub(msg string) string {
	if r == nil {
		return msg
	}
	msg = strings.ReplaceAll(msg, r.raw, r.display)
	secrets := []string{r.password, url.QueryEscape(r.password), url.PathEscape(r.password)}
	if len(r.user) >= 8 {
		// A long user name is likely a token (https://TOKEN@host/...);
		// short ones (git, oauth2) are left, or every "git" would go.
		secrets = append(secrets, r.user, url.PathEscape(r.user))
	}
	for _, secret := range secrets {
		if len(secret) >= 3 {
			msg = strings.ReplaceAll(msg, secret, "***")
		}
	}
	return msg
}

// lockSpace reads a space row, locking it until the transaction ends.
func lockSpace(ctx context.Context, c *ent.Client, id string) (*ent.Space, error) {
	sp, err := c.Space.Query().Where(space.ID(id), func(s *entsql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.For(entsql.LockNoKeyUpdate)
		}
	}).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching space found for id %q", id)
	}
	return sp, err
}

func viewer(ctx context.Context) *ent.User { return auth.Viewer(ctx) }
