package server

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/loaders"
	"quire/reader"
)

// maxSignInForm bounds the sign-in form's body: a token and a path.
const maxSignInForm = 16 << 10

// members serves the members' area under reader.AppPrefix: the sign-in
// form, which exchanges an API token for a session cookie, sign-out, and
// every other page for a signed-in member, authenticated by the cookie
// as the API authenticates a bearer token. On a site's custom hostname
// the path is the site's (readers).
func (s *Server) members(door *reader.Door, readers http.Handler) http.Handler {
	toSignIn := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, reader.SignInPath+"?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
	}
	signedIn := s.authenticated(http.HandlerFunc(door.ServeApp), func(w http.ResponseWriter, r *http.Request, _ string) {
		// The session's token is no longer valid (revoked, expired).
		s.setSession(w, r, "")
		toSignIn(w, r)
	}, loaders.NewSequential)
	signIn := s.limitAnonymous(http.HandlerFunc(s.signIn(door)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if door.CustomHost(r) {
			// A site's own /app/ path on its custom hostname.
			readers.ServeHTTP(w, r)
			return
		}
		switch r.URL.Path {
		case reader.SignInPath:
			if r.Method == http.MethodPost {
				signIn.ServeHTTP(w, r)
				return
			}
			door.SignIn(w, r, http.StatusOK, "", r.URL.Query().Get("next"))
			return
		case reader.SignOutPath:
			if r.Method != http.MethodPost || !sameOrigin(r) {
				w.Header().Set("Allow", "POST")
				http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
				return
			}
			s.setSession(w, r, "")
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, reader.SignInPath, http.StatusSeeOther)
			return
		}
		c, err := r.Cookie(reader.SessionCookie)
		if err != nil || c.Value == "" {
			toSignIn(w, r)
			return
		}
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+c.Value)
		signedIn.ServeHTTP(w, r)
	})
}

// signIn checks the posted API token and, when it is valid, keeps it in
// the session cookie and returns the member to the page they asked for.
func (s *Server) signIn(door *reader.Door) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		if !sameOrigin(r) {
			http.Error(w, "Cross-site sign-in refused", http.StatusForbidden)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxSignInForm)
		if err := r.ParseForm(); err != nil {
			door.SignIn(w, r, http.StatusBadRequest, "The form could not be read.", "")
			return
		}
		next := r.PostForm.Get("next")
		token := strings.TrimSpace(r.PostForm.Get("token"))
		if token == "" {
			door.SignIn(w, r, http.StatusBadRequest, "Enter an API token.", next)
			return
		}
		caller, err := s.callers.Lookup(r.Context(), s.cfg.DB.Client, token)
		if err != nil {
			s.cfg.Log.ErrorContext(r.Context(), "sign-in failed", "error", err.Error())
			door.SignIn(w, r, http.StatusInternalServerError, "Something went wrong on our side. Try again in a moment.", next)
			return
		}
		if caller == nil {
			door.SignIn(w, r, http.StatusUnauthorized, "That API token is not valid.", next)
			return
		}
		s.setSession(w, r, token)
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, reader.SafeNext(next), http.StatusSeeOther)
	}
}

// setSession sets the session cookie to token ("" ends the session).
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, token string) {
	c := &http.Cookie{Name: reader.SessionCookie, Value: token, Path: strings.TrimSuffix(reader.AppPrefix, "/"),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secureRequest(r, s.cfg.PublicURL)}
	if token == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// secureRequest reports whether cookies of this request are to be sent
// over HTTPS only.
func secureRequest(r *http.Request, publicURL string) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" || strings.HasPrefix(publicURL, "https://")
}

// sameOrigin refuses forms posted from other sites: a browser says where
// a form comes from (Sec-Fetch-Site, Origin); a request that says
// nothing is not a browser's cross-site post.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}
