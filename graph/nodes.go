package graph

import (
	"context"
	"fmt"
	"strings"

	"quire/ent"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/ids"
	"quire/internal/loaders"
	"quire/internal/types"
)

// node resolves any id the caller may see; others are NotFound. Each type
// is visible as through the field a client would reach it by: its own root
// field (organization, collection, space, site, revision, changeRequest),
// or, for the objects of a site's structure, the site; a share link, which
// is a secret, only to those who may list the site's share links.
func (r *Resolver) node(ctx context.Context, id string) (types.Node, error) {
	return r.nodeOf(ctx, id, nil)
}

// nodeOf is node with the sites of the site objects among the ids looked up
// already (siteIDsOf); with nil, it looks the id's site up itself.
func (r *Resolver) nodeOf(ctx context.Context, id string, sitesOf map[string]string) (types.Node, error) {
	kind, ok := ids.KindOf(id)
	if !ok {
		return nil, notFoundNode(id)
	}
	switch kind {
	case ids.Organization:
		return r.Catalog.Organization(ctx, id)
	case ids.Collection:
		c, _, err := r.Catalog.Collection(ctx, id)
		return c, err
	case ids.Space:
		s, _, err := r.Catalog.Space(ctx, id)
		return s, err
	case ids.Revision:
		return r.revisionFor(ctx, id)
	case ids.ChangeRequest:
		cr, _, err := r.changeRequestFor(ctx, id, types.RoleRead)
		return cr, err
	case ids.User:
		// Users are visible to themselves and to members of an
		// organization they share.
		u, err := loaders.For(ctx).UserByID.Load(ctx, id)()
		if err != nil {
			return nil, notFoundNode(id)
		}
		if ok, err := authz.CanSeeUser(ctx, u.ID); err != nil {
			return nil, err
		} else if ok {
			return u, nil
		}
	case ids.Job:
		return r.JobByID(ctx, id)
	case ids.Conversation:
		return r.Conversations.Conversation(ctx, id)
	case ids.ConversationIssue:
		return r.Conversations.Issue(ctx, id)
	case ids.IssuesCluster:
		return r.Conversations.Cluster(ctx, id)
	case ids.Translation:
		return r.Translations.Translation(ctx, id)
	case ids.Comment:
		return r.Comments.Get(ctx, id)
	case ids.CommentReply:
		return r.Comments.Reply(ctx, id)
	case ids.Review:
		return r.Reviews.ReviewByID(ctx, id)
	case ids.Team, ids.InviteLink, ids.SAMLProvider:
		return r.adminNode(ctx, kind, id)
	case ids.OpenAPISpec:
		return r.OpenAPI.SpecByID(ctx, id)
	case ids.OpenAPISpecVersion:
		v, _, err := r.OpenAPI.VersionByID(ctx, id)
		return v, err
	case ids.Site:
		st, err := r.Sites.SiteByID(ctx, id)
		if err != nil {
			return nil, err
		}
		return st, nil
	case ids.SiteSection, ids.SectionGroup, ids.SiteSpace, ids.ShareLink:
		if sitesOf == nil {
			var err error
			if sitesOf, err = r.siteIDsOf(ctx, []string{id}); err != nil {
				return nil, err
			}
		}
		if siteID, ok := sitesOf[id]; ok {
			return r.siteNode(ctx, kind, id, siteID)
		}
	}
	return nil, notFoundNode(id)
}

func notFoundNode(id string) error { return apierr.NotFoundf("No object found for id %q", id) }

// siteNode resolves an object of a site's structure, or a share link,
// through the Sites engine: NotFound unless the caller may see the site, and,
// for a share link, list its share links.
func (r *Resolver) siteNode(ctx context.Context, kind ids.Kind, id, siteID string) (types.Node, error) {
	st, err := r.Sites.SiteByID(ctx, siteID)
	if apierr.CodeOf(err) == apierr.NotFound {
		// Not the site's NotFound: it would name the site of the object to
		// a caller who may not see it.
		return nil, notFoundNode(id)
	}
	if err != nil {
		return nil, err
	}
	var n types.Node
	switch kind {
	case ids.SiteSection:
		n, err = r.Sites.Section(ctx, st.OrganizationID, st.ID, id)
	case ids.SectionGroup:
		n, err = r.Sites.Group(ctx, st.OrganizationID, st.ID, id)
	case ids.SiteSpace:
		n, err = r.Sites.SiteSpace(ctx, st.OrganizationID, st.ID, id)
	case ids.ShareLink:
		// Listed once per site in the request, however many of its
		// links are asked for.
		links, lerr := loaders.Memo(ctx, st.ID, "node.shareLinks", func() ([]*ent.SiteShareLink, error) {
			return r.Sites.ShareLinks(ctx, st.OrganizationID, st.ID)
		})
		if lerr != nil {
			if apierr.CodeOf(lerr) == apierr.Forbidden {
				return nil, notFoundNode(id)
			}
			return nil, lerr
		}
		for _, l := range links {
			if l.ID == id {
				return l, nil
			}
		}
		return nil, notFoundNode(id)
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// siteIDsOf returns the site of each section, section group, site space and
// share link among the ids, a statement per kind; ids of other kinds, and
// unknown ones, are left out.
func (r *Resolver) siteIDsOf(ctx context.Context, list []string) (map[string]string, error) {
	byKind := map[ids.Kind][]string{}
	for _, id := range list {
		switch kind, _ := ids.KindOf(id); kind {
		case ids.SiteSection, ids.SectionGroup, ids.SiteSpace, ids.ShareLink:
			byKind[kind] = append(byKind[kind], id)
		}
	}
	out := make(map[string]string, len(list))
	c := r.Sites.Client
	for kind, keys := range byKind {
		var rows []struct {
			ID     string `json:"id"`
			SiteID string `json:"site_id"`
		}
		var err error
		switch kind {
		case ids.SiteSection:
			err = c.SiteSection.Query().Where(sitesection.IDIn(keys...)).Select(sitesection.FieldID, sitesection.FieldSiteID).Scan(ctx, &rows)
		case ids.SectionGroup:
			err = c.SiteSectionGroup.Query().Where(sitesectiongroup.IDIn(keys...)).Select(sitesectiongroup.FieldID, sitesectiongroup.FieldSiteID).Scan(ctx, &rows)
		case ids.SiteSpace:
			err = c.SiteSpace.Query().Where(sitespace.IDIn(keys...)).Select(sitespace.FieldID, sitespace.FieldSiteID).Scan(ctx, &rows)
		case ids.ShareLink:
			err = c.SiteShareLink.Query().Where(sitesharelink.IDIn(keys...)).Select(sitesharelink.FieldID, sitesharelink.FieldSiteID).Scan(ctx, &rows)
		}
		if err != nil {
			return nil, fmt.Errorf("find the sites of nodes: %w", err)
		}
		for _, row := range rows {
			out[row.ID] = row.SiteID
		}
	}
	return out, nil
}

// nodes resolves many ids at once; hidden or unknown ids give null.
func (r *Resolver) nodes(ctx context.Context, list []string) ([]types.Node, error) {
	if len(list) > 100 {
		return nil, apierr.Invalid("ids", "ids may hold at most 100 ids")
	}
	sitesOf, err := r.siteIDsOf(ctx, list)
	if err != nil {
		return nil, err
	}
	l := loaders.For(ctx)
	// Queue every load before waiting, so that they batch; the structures
	// of the sites of sections, groups and site spaces are read at once.
	var structures []string
	for _, id := range list {
		switch kind, _ := ids.KindOf(id); kind {
		case ids.Space:
			l.SpaceByID.Load(ctx, id)
		case ids.Collection:
			l.CollectionByID.Load(ctx, id)
		case ids.Organization:
			l.OrganizationByID.Load(ctx, id)
		case ids.User:
			l.UserByID.Load(ctx, id)
		case ids.Comment:
			l.Comments.CommentByID.Load(ctx, id)
		case ids.CommentReply:
			l.Comments.ReplyByID.Load(ctx, id)
		case ids.Site:
			l.Sites.SiteByID.Load(ctx, id)
		case ids.OpenAPISpec:
			r.OpenAPI.Queue(ctx, id)
		case ids.OpenAPISpecVersion:
			r.OpenAPI.QueueVersion(ctx, id)
		case ids.SiteSection, ids.SectionGroup, ids.SiteSpace, ids.ShareLink:
			if siteID, ok := sitesOf[id]; ok {
				l.Sites.SiteByID.Load(ctx, siteID)
				if kind != ids.ShareLink {
					structures = append(structures, siteID)
				}
			}
		}
	}
	if len(structures) > 0 {
		// On failure the loaders are left as they were: each node's own
		// load below reads its level again and reports the error.
		_ = l.Sites.FetchStructures(ctx, structures, false)
	}
	out := make([]types.Node, len(list))
	for i, id := range list {
		n, err := r.nodeOf(ctx, id, sitesOf)
		if err != nil {
			if apierr.CodeOf(err) == apierr.NotFound {
				continue
			}
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// apiURL is the REST location of an object.
func (r *Resolver) apiURL(parts ...string) string {
	return r.PublicURL + "/v1/" + strings.Join(parts, "/")
}

// appURL is where an object lives in the web application.
func (r *Resolver) appURL(parts ...string) string {
	return r.PublicURL + "/app/" + strings.Join(parts, "/")
}

func mergeRules(in *model.MergeRulesInput) types.MergeRules {
	out := types.MergeRules{Type: in.Type}
	rules, _ := in.Rules.ValueOK()
	for _, r := range rules {
		if r == nil {
			continue
		}
		users, _ := r.Users.ValueOK()
		out.Rules = append(out.Rules, types.MergeRule{Rule: r.Rule, Users: users, Expression: value(r.Expression)})
	}
	return out
}
