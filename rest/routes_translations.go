package rest

import (
	"context"
	"encoding/json"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

func (a *API) translationRoutes() []Route {
	const o, t = "/orgs/{organizationId}/translations", "/orgs/{organizationId}/translations/{translationId}"
	ts := a.translationsKind()
	get := func(ctx context.Context, req *Request) (*ent.Translation, error) {
		return inOrg(req, func() (*ent.Translation, error) { return a.r.Query().Translation(ctx, req.Param("translationId")) },
			func(x *ent.Translation) string { return x.OrganizationID }, "translation", req.Param("translationId"))
	}
	return []Route{
		route("GET", o, "List an organization's translations whose source the caller may read", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.Translation], error) {
			org, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Translations(ctx, org, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(ts.List()),

		route("POST", o, "Create a translation of a space (create role); it runs when asked", func(ctx context.Context, req *Request, in *CreateTranslationBody) (*ent.Translation, error) {
			ci := model.CreateTranslationInput{Organization: req.Param("organizationId"),
				Source:   &model.TranslationSourceInput{Space: in.Source.Space, Language: types.Language(in.Source.Language)},
				Language: types.Language(in.Language)}
			if d, ok := in.Instructions.Get(); ok {
				ci.Instructions = graphql.OmittableOf(types.JSON(d.JSON))
			}
			return a.r.Mutation().CreateTranslation(ctx, ci)
		}).Present(ts).Created(),

		route("GET", t, "Get a translation", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Translation, error) {
			return get(ctx, req)
		}).Present(ts),

		route("PUT", t, "Replace a translation's instructions", func(ctx context.Context, req *Request, in *UpdateTranslationBody) (*ent.Translation, error) {
			x, err := get(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateTranslation(ctx, x.ID, types.JSON(in.Instructions.JSON))
		}).Present(ts),

		route("DELETE", t, "Delete a translation (its result space stays)", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			x, err := get(ctx, req)
			if err != nil {
				if apierr.CodeOf(err) == apierr.NotFound {
					return &model.DeletePayload{ID: req.Param("translationId")}, nil
				}
				return nil, err
			}
			return a.r.Mutation().DeleteTranslation(ctx, x.ID)
		}).Present(deleted),

		route("POST", t+"/run", "Run a translation in the background (204: the run is asked for)", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Translation, error) {
			x, err := get(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().RunTranslation(ctx, x.ID)
		}).Present(nothing[*ent.Translation]()).noContent(),
	}
}

// Translation is the documented translation object.
type Translation struct {
	Object       string                 `json:"object" enum:"translation"`
	ID           string                 `json:"id"`
	Status       string                 `json:"status" enum:"pending,running,completed"`
	Source       TranslationSource      `json:"source"`
	Language     types.Language         `json:"language"`
	Instructions json.RawMessage        `json:"instructions" doc:"A JSON document (empty when none was given)."`
	Result       *TranslationResult     `json:"result,omitempty"`
	CreatedAt    time.Time              `json:"createdAt"`
	UpdatedAt    time.Time              `json:"updatedAt"`
	Stats        *TranslationStats      `json:"stats"`
	Permissions  TranslationPermissions `json:"permissions"`
	URLs         *LocationURLs          `json:"urls"`
}

func (t *Translation) apiLocation() string { return t.URLs.Location }

// TranslationSource names what a translation translates.
type TranslationSource struct {
	Space    string         `json:"space"`
	Language types.Language `json:"language"`
}

// TranslationResult is where a translation's latest run wrote.
type TranslationResult struct {
	Space    string `json:"space"`
	Revision string `json:"revision"`
}

// TranslationPermissions are what the caller may do with a translation.
type TranslationPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// noInstructions stands for instructions never given.
var noInstructions = json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)

func (a *API) translationsKind() *Kind[*ent.Translation, *Translation] {
	return presents(func(ctx context.Context, t *ent.Translation) (*Translation, error) {
		tr := a.r.Translation()
		perms, err := tr.Permissions(ctx, t)
		if err != nil {
			return nil, err
		}
		urls, err := tr.Urls(ctx, t)
		if err != nil {
			return nil, err
		}
		out := &Translation{
			Object: "translation", ID: t.ID, Status: t.Status,
			Source:   TranslationSource{Space: t.SourceSpaceID, Language: types.Language(t.SourceLanguage)},
			Language: types.Language(t.Language), Instructions: noInstructions,
			CreatedAt: t.CreatedAt.UTC(), UpdatedAt: t.UpdatedAt.UTC(), Stats: translationStats(graph.TranslationStats(t)),
			Permissions: TranslationPermissions{View: perms.View, Edit: perms.Edit}, URLs: &LocationURLs{Location: urls.Location},
		}
		if t.Instructions != nil {
			out.Instructions = json.RawMessage(*t.Instructions)
		}
		if t.ResultSpaceID != nil && t.ResultRevisionID != nil {
			out.Result = &TranslationResult{Space: *t.ResultSpaceID, Revision: *t.ResultRevisionID}
		}
		return out, nil
	})
}
