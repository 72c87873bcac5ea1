package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"quire/graph/connections"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/conversations"
	"quire/internal/document"
	"quire/internal/loaders"
	"quire/internal/pagination"
	"quire/internal/types"
)

// ConversationsInput turns the GraphQL (and REST) input of ingestion into
// the engine's, naming fields as conversations[i].….
func ConversationsInput(list []*model.ConversationInput) ([]conversations.Input, error) {
	out := make([]conversations.Input, len(list))
	for i, c := range list {
		if c == nil {
			return nil, apierr.Invalid(fmt.Sprintf("conversations[%d]", i), "conversations[%d] cannot be null", i)
		}
		in := conversations.Input{ID: c.ID, Subject: c.Subject.Value(), Source: deref(c.Source.Value())}
		for _, p := range c.Parts {
			if p == nil {
				continue
			}
			in.Parts = append(in.Parts, conversations.PartInput{Type: p.Type, Role: restEnum(string(p.Role)), Body: p.Body})
		}
		if md := c.Metadata.Value(); md != nil {
			in.Metadata = &conversations.Metadata{URL: md.URL.Value(), CreatedAt: md.CreatedAt.Value()}
			if raw := md.Attributes.Value(); len(raw) > 0 && string(raw) != "null" {
				if err := json.Unmarshal(raw, &in.Metadata.Attributes); err != nil {
					f := fmt.Sprintf("conversations[%d].metadata.attributes", i)
					return nil, apierr.Invalid(f, "%s must be an object of strings", f)
				}
			}
		}
		out[i] = in
	}
	return out, nil
}

func conversationConnection(p pagination.Page[*ent.Conversation]) *model.ConversationConnection {
	return connections.Of[model.ConversationConnection](p)
}

func issueConnection(p pagination.Page[*ent.ConversationIssue]) *model.ConversationIssueConnection {
	return connections.Of[model.ConversationIssueConnection](p)
}

func clusterConnection(p pagination.Page[*ent.IssuesCluster]) *model.ConversationsIssuesClusterConnection {
	return connections.Of[model.ConversationsIssuesClusterConnection](p)
}

// ConversationsPage lists an organization's conversations, with their
// issues and the issues' clusters loaded at once.
func (r *Resolver) ConversationsPage(ctx context.Context, orgID, source string, args catalog.PageArgs) (pagination.Page[*ent.Conversation], error) {
	p, err := r.Conversations.Conversations(ctx, orgID, source, args)
	if err == nil {
		err = r.warmConversations(ctx, p.Items)
	}
	return p, err
}

// IssuesPage lists an organization's issues (both doors), with their
// conversations and clusters.
func (r *Resolver) IssuesPage(ctx context.Context, orgID string, f conversations.IssueFilter, args catalog.PageArgs) (pagination.Page[*ent.ConversationIssue], error) {
	p, err := r.Conversations.Issues(ctx, orgID, f, args)
	if err == nil {
		err = r.warmIssues(ctx, p.Items)
	}
	return p, err
}

// ClustersPage lists an organization's clusters (both doors).
func (r *Resolver) ClustersPage(ctx context.Context, orgID, order, orderBy string, args catalog.PageArgs) (pagination.Page[*ent.IssuesCluster], error) {
	return r.Conversations.Clusters(ctx, orgID, order, orderBy, args)
}

// parseStoredDocument reads a document the engines wrote.
func parseStoredDocument(raw string) (*types.Doc, error) {
	d, err := document.Parse([]byte(raw))
	if err != nil {
		return nil, fmt.Errorf("stored document: %w", err)
	}
	return &types.Doc{D: d}, nil
}

// warmConversations loads the issues of a page of conversations, and
// their clusters, at once (two statements), so that the nested fields read
// the request's caches whatever the number of items.
func (r *Resolver) warmConversations(ctx context.Context, list []*ent.Conversation) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]string, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	by, err := r.Conversations.IssuesOf(ctx, ids)
	if err != nil {
		return err
	}
	l := r.issuesLoader(ctx)
	var all []*ent.ConversationIssue
	for _, id := range ids {
		issues := by[id]
		if issues == nil {
			issues = []*ent.ConversationIssue{}
		}
		l.Prime(ctx, id, issues)
		all = append(all, issues...)
	}
	return r.warmIssues(ctx, all)
}

// warmIssues loads the clusters and conversations of a page of issues at
// once.
func (r *Resolver) warmIssues(ctx context.Context, list []*ent.ConversationIssue) error {
	var cids, convs []string
	for _, is := range list {
		if is.ClusterID != nil {
			cids = append(cids, *is.ClusterID)
		}
		if is.Edges.Conversation == nil {
			convs = append(convs, is.ConversationID)
		}
	}
	if len(cids) > 0 {
		by, err := r.Conversations.ClustersByID(ctx, cids)
		if err != nil {
			return err
		}
		l := r.clustersLoader(ctx)
		for _, id := range cids {
			l.Prime(ctx, id, by[id])
		}
	}
	if len(convs) > 0 {
		by, err := r.Conversations.ConversationsByID(ctx, convs)
		if err != nil {
			return err
		}
		l := r.conversationsLoader(ctx)
		for id, c := range by {
			l.Prime(ctx, id, c)
		}
	}
	return nil
}

// issuesOfConversation loads the issues of the conversations of a request
// together (one statement per batch).
func (r *Resolver) issuesOfConversation(ctx context.Context, id string) ([]*ent.ConversationIssue, error) {
	return r.issuesLoader(ctx).Load(ctx, id)()
}

func (r *Resolver) issuesLoader(ctx context.Context) *dataloader.Loader[string, []*ent.ConversationIssue] {
	return loaders.Keep(loaders.For(ctx), "conversations.issues", func() *dataloader.Loader[string, []*ent.ConversationIssue] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[[]*ent.ConversationIssue] {
			by, err := r.Conversations.IssuesOf(ctx, keys)
			out := make([]*dataloader.Result[[]*ent.ConversationIssue], len(keys))
			for i, k := range keys {
				list := by[k]
				if list == nil {
					list = []*ent.ConversationIssue{}
				}
				out[i] = &dataloader.Result[[]*ent.ConversationIssue]{Data: list, Error: err}
			}
			return out
		}, dataloader.WithWait[string, []*ent.ConversationIssue](loaders.Wait))
	})
}

// clusterByID loads the clusters of a request together; nil for one that
// is gone.
func (r *Resolver) clusterByID(ctx context.Context, id string) (*ent.IssuesCluster, error) {
	return r.clustersLoader(ctx).Load(ctx, id)()
}

func (r *Resolver) clustersLoader(ctx context.Context) *dataloader.Loader[string, *ent.IssuesCluster] {
	return loaders.Keep(loaders.For(ctx), "conversations.clusters", func() *dataloader.Loader[string, *ent.IssuesCluster] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.IssuesCluster] {
			by, err := r.Conversations.ClustersByID(ctx, keys)
			out := make([]*dataloader.Result[*ent.IssuesCluster], len(keys))
			for i, k := range keys {
				out[i] = &dataloader.Result[*ent.IssuesCluster]{Data: by[k], Error: err}
			}
			return out
		}, dataloader.WithWait[string, *ent.IssuesCluster](loaders.Wait))
	})
}

// conversationByID loads the conversations of a request's issues together.
func (r *Resolver) conversationByID(ctx context.Context, id string) (*ent.Conversation, error) {
	return r.conversationsLoader(ctx).Load(ctx, id)()
}

func (r *Resolver) conversationsLoader(ctx context.Context) *dataloader.Loader[string, *ent.Conversation] {
	return loaders.Keep(loaders.For(ctx), "conversations.byID", func() *dataloader.Loader[string, *ent.Conversation] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.Conversation] {
			by, err := r.Conversations.ConversationsByID(ctx, keys)
			out := make([]*dataloader.Result[*ent.Conversation], len(keys))
			for i, k := range keys {
				res := &dataloader.Result[*ent.Conversation]{Data: by[k], Error: err}
				if err == nil && by[k] == nil {
					res.Error = apierr.NotFoundf("No matching conversation found for id %q", k)
				}
				out[i] = res
			}
			return out
		}, dataloader.WithWait[string, *ent.Conversation](loaders.Wait))
	})
}

// ChangeRequestCluster is the cluster a change request addresses, when
// the caller may read its organization's conversations; nil otherwise.
func (r *Resolver) ChangeRequestCluster(ctx context.Context, cr *ent.ChangeRequest) (*ent.IssuesCluster, error) {
	if cr.ConversationsIssuesCluster == nil || r.Conversations == nil {
		return nil, nil
	}
	c, err := r.clusterByID(ctx, *cr.ConversationsIssuesCluster)
	if err != nil || c == nil {
		return nil, err
	}
	role, _, err := authz.OrgRole(ctx, c.OrganizationID)
	if err != nil || role == authz.None {
		return nil, err
	}
	return c, nil
}

// impactOf is an impact as the GraphQL enum.
func impactOf(s string) model.Impact { return model.Impact(s) }
