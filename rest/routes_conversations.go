package rest

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/nonempty"
	"quire/internal/types"
)

func (a *API) conversationRoutes() []Route {
	const o = "/orgs/{organizationId}"
	convs, issues, clusters := a.conversationsKind(), a.issuesKind(), a.clustersKind()
	return []Route{
		route("POST", o+"/conversations", "Ingest one conversation or an array of them (organization admins); they are analysed in the background", func(ctx context.Context, req *Request, in *ConversationsBody) (*model.IngestConversationsPayload, error) {
			list := make([]*model.ConversationInput, len(in.Items))
			for i, c := range in.Items {
				ci := &model.ConversationInput{ID: c.ID, Subject: c.Subject.Omittable(), Source: c.Source.Omittable()}
				for _, p := range c.Parts {
					ci.Parts = append(ci.Parts, &model.ConversationPartInput{Type: p.Type, Role: model.ConversationPartRole(gqlSpelling(p.Role)), Body: p.Body})
				}
				if md := c.Metadata; md != nil {
					mi := &model.ConversationMetadataInput{URL: md.URL.Omittable()}
					if md.Attributes != nil {
						raw, err := jsonOf(md.Attributes)
						if err != nil {
							return nil, err
						}
						mi.Attributes = graphql.OmittableOf(raw)
					}
					if ts := md.CreatedAt.Ptr(); ts != nil {
						t, err := time.Parse(time.RFC3339Nano, *ts)
						if err != nil {
							return nil, apierr.Invalid("metadata.createdAt", "metadata.createdAt must be a date-time (RFC 3339)")
						}
						mi.CreatedAt = graphql.OmittableOf(&t)
					}
					ci.Metadata = graphql.OmittableOf(mi)
				}
				list[i] = ci
			}
			return a.r.Mutation().IngestConversation(ctx, req.Param("organizationId"), list)
		}).Present(nothing[*model.IngestConversationsPayload]()).noContent(),

		route("GET", o+"/conversations", "List an organization's conversations, newest first", func(ctx context.Context, req *Request, in *ConversationListParams) (*ListPage[*ent.Conversation], error) {
			org, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Conversations(ctx, org, in.First(), in.After(), nil, nil, nonempty.String(in.Source))
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(convs.List()),

		route("GET", o+"/conversations/{conversationId}", "Get a conversation with its parts and metadata", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Conversation, error) {
			return inOrg(req, func() (*ent.Conversation, error) { return a.r.Query().Conversation(ctx, req.Param("conversationId")) },
				func(c *ent.Conversation) string { return c.OrganizationID }, "conversation", req.Param("conversationId"))
		}).Present(presents(a.presentConversationFull)),

		route("GET", o+"/conversations-issues", "List the issues found in an organization's conversations, newest first", func(ctx context.Context, req *Request, in *IssueListParams) (*ListPage[*ent.ConversationIssue], error) {
			org, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().ConversationsIssues(ctx, org, in.First(), in.After(), nil, nil, nonempty.String(in.Cluster), nonempty.String(in.Conversation))
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(issues.List()),

		route("GET", o+"/conversations-issues/{issueId}", "Get an issue found in a conversation, with its conversation", func(ctx context.Context, req *Request, _ *NoInput) (*ent.ConversationIssue, error) {
			return inOrg(req, func() (*ent.ConversationIssue, error) {
				return a.r.Query().ConversationIssue(ctx, req.Param("issueId"))
			},
				func(c *ent.ConversationIssue) string { return c.OrganizationID }, "conversation issue", req.Param("issueId"))
		}).Present(issues),

		route("GET", o+"/conversations-clusters", "List the clusters of similar issues of an organization", func(ctx context.Context, req *Request, in *ClusterListParams) (*ListPage[*ent.IssuesCluster], error) {
			org, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			var order *model.SortOrder
			var by *model.IssuesClusterOrderBy
			if in.Order != "" {
				v := model.SortOrder(in.Order)
				order = &v
			}
			if in.OrderBy != "" {
				v := model.IssuesClusterOrderBy(in.OrderBy)
				by = &v
			}
			conn, err := a.r.Organization().ConversationsIssuesClusters(ctx, org, in.First(), in.After(), nil, nil, order, by)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(clusters.List()),

		route("GET", o+"/conversations-clusters/{clusterId}", "Get a cluster of similar issues", func(ctx context.Context, req *Request, _ *NoInput) (*ent.IssuesCluster, error) {
			return inOrg(req, func() (*ent.IssuesCluster, error) {
				return a.r.Query().ConversationsIssuesCluster(ctx, req.Param("clusterId"))
			},
				func(c *ent.IssuesCluster) string { return c.OrganizationID }, "issues cluster", req.Param("clusterId"))
		}).Present(clusters),

		route("PATCH", o+"/conversations-clusters/{clusterId}", "Mute or unmute a cluster (edit role)", func(ctx context.Context, req *Request, in *UpdateClusterBody) (*ent.IssuesCluster, error) {
			if _, err := inOrg(req, func() (*ent.IssuesCluster, error) {
				return a.r.Query().ConversationsIssuesCluster(ctx, req.Param("clusterId"))
			},
				func(c *ent.IssuesCluster) string { return c.OrganizationID }, "issues cluster", req.Param("clusterId")); err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateConversationsIssuesCluster(ctx, req.Param("clusterId"), in.Muted)
		}).Present(clusters),
	}
}

// noContent documents and answers 204 with no body.
func (r Route) noContent() Route { r.Status = 204; return r }

// inOrg reads an object by id and checks that it belongs to the path's
// organization: one of another organization is NotFound, like an unknown
// id.
func inOrg[T any](req *Request, get func() (T, error), org func(T) string, what, id string) (T, error) {
	v, err := get()
	if err != nil {
		return v, err
	}
	if org(v) != req.Param("organizationId") {
		var zero T
		return zero, apierr.NotFoundf("No matching %s found for id %q", what, id)
	}
	return v, nil
}

func jsonOf(v any) (types.JSON, error) {
	raw, err := jsonMarshal(v)
	return types.JSON(raw), err
}
