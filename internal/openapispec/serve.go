package openapispec

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"quire/ent"
	"quire/ent/openapispec"
	"quire/ent/openapispecfile"
	"quire/internal/apierr"
	"quire/internal/signedurl"
)

// Handler serves the files of specifications without a token, below
// /openapi/{organizationId}/{specSlug}:
//
//	GET …                                 a public specification's latest version: a redirect to its root file
//	GET …/versions/{versionId}/{path}     a file of a version of a public specification
//	GET …/signed/{link}/{versionId}/{path} a file of a version of any specification, with a signed link (VersionURL)
//
// Relative references between the files of a version resolve to their
// neighbours, since they are served side by side. A private
// specification's files are served only through signed links; anything
// else is 404. Mount it outside /v1 and its token authentication:
//
//	mux.Handle("/openapi/", specs.Handler())
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /openapi/{org}/{slug}", s.serveLatest)
	mux.HandleFunc("GET /openapi/{org}/{slug}/versions/{version}/{path...}", s.servePublic)
	mux.HandleFunc("GET /openapi/{org}/{slug}/signed/{link}/{version}/{path...}", s.serveSigned)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, apierr.New(apierr.MethodNotAllowed, "Method %s is not allowed on specification files", r.Method))
			return
		}
		writeError(w, apierr.NotFoundf("No such specification file"))
	})
	return mux
}

// publicSpec returns the public specification the path names.
func (s *Service) publicSpec(ctx context.Context, r *http.Request) (*ent.OpenAPISpec, error) {
	sp, err := s.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(r.PathValue("org")), openapispec.Slug(r.PathValue("slug"))).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && sp.Visibility != "public") {
		return nil, apierr.NotFoundf("No published OpenAPI specification %q", r.PathValue("slug"))
	}
	return sp, err
}

func (s *Service) serveLatest(w http.ResponseWriter, r *http.Request) {
	sp, err := s.publicSpec(r.Context(), r)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	if sp.LastVersionID == nil {
		s.refuse(w, r, apierr.NotFoundf("The OpenAPI specification %q has no version yet (its processing is %s)", sp.Slug, sp.ProcessingState))
		return
	}
	v, err := s.Client.OpenAPISpecVersion.Get(r.Context(), *sp.LastVersionID)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	http.Redirect(w, r, s.VersionURL(sp, v), http.StatusFound)
}

func (s *Service) servePublic(w http.ResponseWriter, r *http.Request) {
	sp, err := s.publicSpec(r.Context(), r)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	s.serveFile(w, r, sp, "public, max-age=300")
}

func (s *Service) serveSigned(w http.ResponseWriter, r *http.Request) {
	expires, sig, ok := strings.Cut(r.PathValue("link"), ".")
	if !ok {
		s.refuse(w, r, apierr.Forbiddenf("The link is invalid"))
		return
	}
	if err := s.Signer.Verify(signedPath(r.PathValue("version")) + "?" + signedurl.ParamExpires + "=" + expires + "&" + signedurl.ParamSignature + "=" + sig); err != nil {
		msg := "The link is invalid"
		if errors.Is(err, signedurl.ErrExpired) {
			msg = "The link has expired"
		}
		s.refuse(w, r, apierr.Forbiddenf("%s", msg))
		return
	}
	sp, err := s.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(r.PathValue("org")), openapispec.Slug(r.PathValue("slug"))).Only(r.Context())
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	left := int64(0)
	if exp, err := strconv.ParseInt(expires, 10, 64); err == nil {
		left = max(0, exp-time.Now().Unix())
	}
	s.serveFile(w, r, sp, "private, max-age="+strconv.FormatInt(left, 10))
}

// serveFile serves the file of the path's version of sp.
func (s *Service) serveFile(w http.ResponseWriter, r *http.Request, sp *ent.OpenAPISpec, cache string) {
	ctx := r.Context()
	v, err := s.Client.OpenAPISpecVersion.Get(ctx, r.PathValue("version"))
	if ent.IsNotFound(err) || (err == nil && v.SpecID != sp.ID) {
		s.refuse(w, r, versionNotFound(r.PathValue("version")))
		return
	}
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	p := r.PathValue("path")
	f, err := s.Client.OpenAPISpecFile.Query().Where(openapispecfile.VersionID(v.ID), openapispecfile.Path(p)).WithBlob().Only(ctx)
	if ent.IsNotFound(err) {
		s.refuse(w, r, apierr.NotFoundf("The version has no file %q", p))
		return
	}
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	text := f.Edges.Blob.Text
	h := w.Header()
	h.Set("Content-Type", contentType(p, text))
	h.Set("Cache-Control", cache)
	h.Set("ETag", `"`+f.BlobID+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	// A specification is data, never a page of this origin.
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	http.ServeContent(w, r, "", time.Time{}, strings.NewReader(text))
}

// contentType names a file's type by its extension, or by its first
// character when it has none Quire knows.
func contentType(p, text string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".json":
		return "application/json; charset=utf-8"
	case ".yaml", ".yml":
		return "application/yaml; charset=utf-8"
	}
	if looksJSON([]byte(text)) {
		return "application/json; charset=utf-8"
	}
	return "application/yaml; charset=utf-8"
}

func (s *Service) refuse(w http.ResponseWriter, r *http.Request, err error) {
	if _, ok := apierr.As(err); !ok {
		if ent.IsNotFound(err) {
			err = apierr.NotFoundf("No such specification file")
		} else {
			s.Log.ErrorContext(r.Context(), "serve OpenAPI specification file", "path", r.URL.Path, "error", err.Error())
			err = apierr.New(apierr.Internal, "Internal error")
		}
	}
	writeError(w, err)
}

func writeError(w http.ResponseWriter, err error) {
	e, _ := apierr.As(err)
	status := e.Code.Status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": e.Message}})
}

// ReaderURL is where readers of a published site follow a reference to
// an organization's specification: its latest version's address (see
// PublishedURL), when the specification is public and has a version; ok
// is false otherwise, so that a private specification is never linked to
// its readers.
func (s *Service) ReaderURL(ctx context.Context, orgID, slug string) (string, bool, error) {
	sp, err := s.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if sp.Visibility != "public" || sp.LastVersionID == nil {
		return "", false, nil
	}
	return *s.PublishedURL(sp), true, nil
}
