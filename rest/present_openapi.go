package rest

import (
	"context"
	"net/http"
	"reflect"
	"time"

	"quire/ent"
	"quire/internal/types"
)

// The presenters of OpenAPI specifications, their versions and the
// versions' files.

func (a *API) openAPISpecs() *Kind[*ent.OpenAPISpec, *OpenAPISpec] {
	return presents(a.presentOpenAPISpec)
}

func (a *API) openAPIVersions() *Kind[*specVersion, *OpenAPISpecVersion] {
	return presents(func(_ context.Context, sv *specVersion) (*OpenAPISpecVersion, error) {
		return &OpenAPISpecVersion{
			Object: "openapi-spec-version", ID: sv.v.ID, CreatedAt: sv.v.CreatedAt.UTC(),
			URL:  a.r.OpenAPIVersionURL(sv.spec, sv.v),
			URLs: OpenAPISpecVersionURLs{Location: a.r.OpenAPIVersionLocation(sv.spec, sv.v)},
		}, nil
	})
}

func (a *API) openAPIContents() *Kind[*specVersion, *OpenAPISpecContent] {
	return presents(func(ctx context.Context, sv *specVersion) (*OpenAPISpecContent, error) {
		files, err := a.r.OpenAPIFiles(ctx, sv.v)
		if err != nil {
			return nil, err
		}
		return &OpenAPISpecContent{Filesystem: files, URL: a.r.OpenAPIVersionURL(sv.spec, sv.v)}, nil
	})
}

// OpenAPISpec is the documented OpenAPI specification object.
type OpenAPISpec struct {
	Object               string                 `json:"object" enum:"openapi-spec"`
	ID                   string                 `json:"id"`
	CreatedAt            time.Time              `json:"createdAt"`
	UpdatedAt            time.Time              `json:"updatedAt"`
	Slug                 string                 `json:"slug"`
	SourceURL            *string                `json:"sourceURL,omitempty" doc:"Where it is fetched from; absent when it was given as text."`
	ProcessingState      string                 `json:"processingState" enum:"pending,progress,complete"`
	Visibility           string                 `json:"visibility" enum:"private,public"`
	LastVersion          *string                `json:"lastVersion,omitempty" doc:"Id of its latest version; absent until a processing succeeded."`
	LastProcessedAt      *time.Time             `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode *string                `json:"lastProcessErrorCode,omitempty" enum:"FETCH_TIMEOUT,FETCH_ERROR,PARSE_ERROR" doc:"Why the last processing failed; absent when it succeeded."`
	LastProcessedErrors  []OpenAPISpecError     `json:"lastProcessedErrors" doc:"What went wrong in the last processing, with where (file:line:column) when known."`
	Permissions          OpenAPISpecPermissions `json:"permissions"`
	URLs                 OpenAPISpecURLs        `json:"urls"`
}

func (s *OpenAPISpec) apiLocation() string { return s.URLs.Location }

// OpenAPISpecError is a problem of a processing.
type OpenAPISpecError struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// OpenAPISpecPermissions are the caller's permissions on a specification.
type OpenAPISpecPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// OpenAPISpecURLs are a specification's URLs.
type OpenAPISpecURLs struct {
	Location  string  `json:"location"`
	App       string  `json:"app"`
	Published *string `json:"published,omitempty" doc:"Where anyone reads its latest version, without a token; only when it is public."`
}

// OpenAPISpecVersion is the documented version object.
type OpenAPISpecVersion struct {
	Object    string                 `json:"object" enum:"openapi-spec-version"`
	ID        string                 `json:"id"`
	CreatedAt time.Time              `json:"createdAt"`
	URL       string                 `json:"url" doc:"Where Quire serves its root file, its other files beside it; for a private specification a link signed for an hour."`
	URLs      OpenAPISpecVersionURLs `json:"urls"`
}

// OpenAPISpecVersionURLs are a version's URLs.
type OpenAPISpecVersionURLs struct {
	Location string `json:"location"`
}

// OpenAPISpecContent is the documented content of a version.
type OpenAPISpecContent struct {
	Filesystem map[string]string `json:"filesystem" doc:"Every file of the version by path: the root file and the files its references reach."`
	URL        string            `json:"url" doc:"Where Quire serves the root file."`
}

func (a *API) presentOpenAPISpec(ctx context.Context, sp *ent.OpenAPISpec) (*OpenAPISpec, error) {
	perms := a.r.OpenAPISpecPermissions(ctx, sp)
	urls := a.r.OpenAPISpecURLs(sp)
	out := &OpenAPISpec{
		Object: "openapi-spec", ID: sp.ID, CreatedAt: sp.CreatedAt.UTC(), UpdatedAt: sp.UpdatedAt.UTC(), Slug: sp.Slug,
		SourceURL: sp.SourceURL, ProcessingState: sp.ProcessingState, Visibility: sp.Visibility,
		LastVersion: sp.LastVersionID, LastProcessErrorCode: sp.LastProcessErrorCode,
		LastProcessedErrors: specErrors(sp.LastProcessedErrors),
		Permissions:         OpenAPISpecPermissions{View: perms.View, Edit: perms.Edit},
		URLs:                OpenAPISpecURLs{Location: urls.Location, App: urls.App, Published: urls.Published},
	}
	if sp.LastProcessedAt != nil {
		t := sp.LastProcessedAt.UTC()
		out.LastProcessedAt = &t
	}
	return out, nil
}

func specErrors(errs []types.SpecError) []OpenAPISpecError {
	out := make([]OpenAPISpecError, len(errs))
	for i, e := range errs {
		out[i] = OpenAPISpecError{Message: e.Message, Code: e.Code}
	}
	return out
}

// putSpec is a specification a PUT set, and whether it created it.
type putSpec struct {
	spec    *ent.OpenAPISpec
	created bool
}

// putSpecs presents a PUT's specification: 201 when it created it, 200
// when it existed.
type putSpecs struct {
	k *Kind[*ent.OpenAPISpec, *OpenAPISpec]
}

func (p putSpecs) present(ctx context.Context, req *Request, v *putSpec) (int, any, error) {
	_, body, err := p.k.present(ctx, req, v.spec)
	if err != nil {
		return 0, nil, err
	}
	if v.created {
		req.setLocation(body)
		return http.StatusCreated, body, nil
	}
	return http.StatusOK, body, nil
}

func (p putSpecs) describe() result { return result{typ: reflect.TypeFor[*OpenAPISpec]()} }
