package graph

import (
	"context"
	"fmt"
	"strconv"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/sites"
)

// Members preview what readers would see, and reach every urls.app Quire
// hands out, through the reader door under /app/ (see reader.App). These
// methods read as the signed-in member: each object is read through the
// same resolver that GraphQL and REST use, so a member sees exactly what
// the API would show them, and an object of another organization, or one
// they may not read, is not found.

// previewLimit bounds the items an index page lists per kind.
const previewLimit = 100

// PreviewIndex is what the preview shows of an object that has no content
// of its own (an organization, a collection, an OpenAPI specification, a
// cluster of conversations): its title and lists of links.
type PreviewIndex struct {
	Title       string
	Description string
	Groups      []PreviewGroup
}

// PreviewGroup is a titled list of an index page.
type PreviewGroup struct {
	Title string
	Items []PreviewItem
	// More: there are more items than listed.
	More bool
}

// PreviewItem is an entry of an index page; Href is "" for plain text.
type PreviewItem struct {
	Title, Href, Note string
}

// inOrganization refuses an object of another organization than the
// address names, as not found.
func inOrganization(orgID, got string) error {
	if orgID != got {
		return apierr.NotFoundf("Nothing in this organization matches this address")
	}
	return nil
}

// PreviewSpace opens a space for a member: its current content, a change
// request's (number > 0) or an older revision's (revisionID != ""), at
// base.
// Errors: NotFound, Forbidden.
func (r *Resolver) PreviewSpace(ctx context.Context, orgID, spaceID string, number int, revisionID, base string) (*sites.Visit, *ent.ChangeRequest, error) {
	sp, err := r.Query().Space(ctx, spaceID, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := inOrganization(orgID, sp.OrganizationID); err != nil {
		return nil, nil, err
	}
	var cr *ent.ChangeRequest
	switch {
	case number > 0:
		if cr, err = r.spaceChangeRequest(ctx, sp, nil, &number); err != nil {
			return nil, nil, err
		}
		revisionID = cr.RevisionID
	case revisionID != "":
		rev, err := r.revisionFor(ctx, revisionID)
		if err != nil {
			return nil, nil, err
		}
		if rev.Space != sp.ID {
			return nil, nil, apierr.NotFoundf("Revision %q not found in this space", revisionID)
		}
	}
	return sites.PreviewSpace(sp, revisionID, base), cr, nil
}

// PreviewSite opens a site for a member, published or not, at base.
// Errors: NotFound, Forbidden.
func (r *Resolver) PreviewSite(ctx context.Context, orgID, siteID, base string) (*sites.Visit, error) {
	st, err := r.Query().Site(ctx, siteID)
	if err != nil {
		return nil, err
	}
	if err := inOrganization(orgID, st.OrganizationID); err != nil {
		return nil, err
	}
	return r.Sites.PreviewSite(ctx, st, base)
}

// PreviewOrganization lists what a member may open in an organization:
// its spaces, collections and sites.
// Errors: NotFound.
func (r *Resolver) PreviewOrganization(ctx context.Context, orgID string) (*PreviewIndex, error) {
	o, err := r.Query().Organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	first := previewLimit
	out := &PreviewIndex{Title: o.Title}
	spaces, err := r.Organization().Spaces(ctx, o, &first, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	out.Groups = append(out.Groups, r.spaceGroup(spaces.Nodes, spaces.PageInfo.HasNextPage))
	cols, err := r.Organization().Collections(ctx, o, &first, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	g := PreviewGroup{Title: "Collections", More: cols.PageInfo.HasNextPage}
	for _, c := range cols.Nodes {
		g.Items = append(g.Items, PreviewItem{Title: c.Title, Href: r.appURL("o", c.OrganizationID, "c", c.ID)})
	}
	out.Groups = append(out.Groups, g)
	sts, err := r.Organization().Sites(ctx, o, &first, nil, nil, nil, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	g = PreviewGroup{Title: "Sites", More: sts.PageInfo.HasNextPage}
	for _, st := range sts.Nodes {
		note := "not published"
		if st.Published {
			note = "published, " + st.Visibility
		}
		g.Items = append(g.Items, PreviewItem{Title: st.Title, Href: r.appURL("o", st.OrganizationID, "sites", st.ID), Note: note})
	}
	out.Groups = append(out.Groups, g)
	return out, nil
}

func (r *Resolver) spaceGroup(spaces []*ent.Space, more bool) PreviewGroup {
	g := PreviewGroup{Title: "Spaces", More: more}
	for _, sp := range spaces {
		g.Items = append(g.Items, PreviewItem{Title: sp.Title, Href: r.appURL("o", sp.OrganizationID, "s", sp.ID)})
	}
	return g
}

// PreviewCollection lists a collection's spaces and collections.
// Errors: NotFound.
func (r *Resolver) PreviewCollection(ctx context.Context, orgID, id string) (*PreviewIndex, error) {
	c, err := r.Query().Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := inOrganization(orgID, c.OrganizationID); err != nil {
		return nil, err
	}
	first := previewLimit
	out := &PreviewIndex{Title: c.Title}
	if c.Description != nil {
		out.Description = *c.Description
	}
	spaces, err := r.Collection().Spaces(ctx, c, &first, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	out.Groups = append(out.Groups, r.spaceGroup(spaces.Nodes, spaces.PageInfo.HasNextPage))
	cols, err := r.Collection().Collections(ctx, c, &first, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	g := PreviewGroup{Title: "Collections", More: cols.PageInfo.HasNextPage}
	for _, sub := range cols.Nodes {
		g.Items = append(g.Items, PreviewItem{Title: sub.Title, Href: r.appURL("o", sub.OrganizationID, "c", sub.ID)})
	}
	out.Groups = append(out.Groups, g)
	return out, nil
}

// PreviewOpenAPISpec lists an OpenAPI specification's versions.
// Errors: NotFound.
func (r *Resolver) PreviewOpenAPISpec(ctx context.Context, orgID, slug string) (*PreviewIndex, error) {
	sp, err := r.Query().OpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return nil, err
	}
	first := previewLimit
	vs, err := r.OpenAPISpec().Versions(ctx, sp, &first, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	out := &PreviewIndex{Title: "OpenAPI specification " + sp.Slug, Description: "Visibility: " + sp.Visibility}
	g := PreviewGroup{Title: "Versions", More: vs.PageInfo.HasNextPage}
	for _, v := range vs.Nodes {
		note := fmt.Sprintf("%d bytes in %d files", v.Size, v.FileCount)
		if v.SourceURL != nil {
			note += ", from " + *v.SourceURL
		}
		g.Items = append(g.Items, PreviewItem{Title: v.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), Note: note})
	}
	out.Groups = append(out.Groups, g)
	return out, nil
}

// PreviewCluster shows a cluster of support conversations: its label and
// summary.
// Errors: NotFound.
func (r *Resolver) PreviewCluster(ctx context.Context, orgID, id string) (*PreviewIndex, error) {
	c, err := r.Query().ConversationsIssuesCluster(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := inOrganization(orgID, c.OrganizationID); err != nil {
		return nil, err
	}
	out := &PreviewIndex{Title: c.Label, Description: c.Summary}
	g := PreviewGroup{Title: "Impact"}
	g.Items = append(g.Items, PreviewItem{Title: c.Impact}, PreviewItem{Title: "Key terms", Note: fmt.Sprint(c.KeyTerms)})
	out.Groups = append(out.Groups, g)
	return out, nil
}

// PreviewChangeRequestTitle is how the preview names a change request.
func PreviewChangeRequestTitle(cr *ent.ChangeRequest) string {
	t := "Change request #" + strconv.Itoa(cr.Number)
	if cr.Subject != "" {
		t += ": " + cr.Subject
	}
	return t
}

// PreviewHome lists the organizations of the signed-in member.
func (r *Resolver) PreviewHome(ctx context.Context) (*PreviewIndex, error) {
	first := previewLimit
	orgs, err := r.Query().Organizations(ctx, &first, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	g := PreviewGroup{Title: "Organizations", More: orgs.PageInfo.HasNextPage}
	for _, o := range orgs.Nodes {
		g.Items = append(g.Items, PreviewItem{Title: o.Title, Href: r.appURL("o", o.ID)})
	}
	return &PreviewIndex{Title: "Your organizations", Groups: []PreviewGroup{g}}, nil
}
