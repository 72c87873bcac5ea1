package rest

import (
	"context"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
)

// The routes of single sign-on: an organization's SAML providers (admins)
// and its login options (public).
func (a *API) ssoRoutes() []Route {
	providers := a.samlProviders()
	const provider = "/orgs/{organizationId}/saml/{samlProviderId}"
	return []Route{
		route("GET", "/orgs/{organizationId}/saml", "List an organization's SAML providers", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.SAMLProvider], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().SamlProviders(ctx, o, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(providers.List()),

		route("POST", "/orgs/{organizationId}/saml", "Add a SAML provider", func(ctx context.Context, req *Request, in *CreateSAMLProviderBody) (*ent.SAMLProvider, error) {
			label := in.Label
			return a.r.Mutation().CreateSAMLProvider(ctx, req.Param("organizationId"), model.SAMLProviderInput{
				Label: Opt[string]{set: true, v: label}.Omittable(), EntityID: in.EntityID.Omittable(), Certificate: in.Certificate.Omittable(),
				SsoURL: unsetURL(in.SSOURL).Omittable(), DefaultTeam: in.DefaultTeam.Omittable(), DefaultRole: in.DefaultRole.Omittable(),
			})
		}).Present(providers).Created(),

		route("GET", provider, "Get a SAML provider", func(ctx context.Context, req *Request, _ *NoInput) (*ent.SAMLProvider, error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			return a.r.Organization().SamlProvider(ctx, o, req.Param("samlProviderId"))
		}).Present(providers),

		route("PATCH", provider, "Update a SAML provider", func(ctx context.Context, req *Request, in *UpdateSAMLProviderBody) (*ent.SAMLProvider, error) {
			return a.r.Mutation().UpdateSAMLProvider(ctx, req.Param("organizationId"), req.Param("samlProviderId"), model.SAMLProviderInput{
				Label: in.Label.Omittable(), EntityID: in.EntityID.Omittable(), Certificate: in.Certificate.Omittable(),
				SsoURL: unsetURL(in.SSOURL).Omittable(), DefaultTeam: in.DefaultTeam.Omittable(), DefaultRole: in.DefaultRole.Omittable(),
			})
		}).Present(providers),

		route("DELETE", provider, "Delete a SAML provider", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().DeleteSAMLProvider(ctx, req.Param("organizationId"), req.Param("samlProviderId"))
		}).Present(deleted),

		route("GET", "/orgs/{organizationId}/sso", "List the ways to sign in to an organization (no token needed)", func(ctx context.Context, req *Request, _ *NoInput) (*SSOLogins, error) {
			ls, err := a.r.Query().SsoLogins(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			out := &SSOLogins{Items: []*graph.SSOLogin{}}
			out.Items = append(out.Items, ls...)
			return out, nil
		}).Present(asIs[*SSOLogins]()),
	}
}

// unsetURL reads back the URL presented for one not set (noURL) as empty.
func unsetURL(o Opt[string]) Opt[string] {
	if v, ok := o.Get(); ok && v == noURL {
		o.v = ""
	}
	return o
}
