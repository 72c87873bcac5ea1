package conversations

import (
	"context"
	"fmt"
	"math"
	"time"

	"quire/ent"
	"quire/ent/conversation"
	"quire/ent/conversationissue"
	"quire/ent/issuescluster"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/ids"
	"quire/internal/pagination"
	"quire/internal/types"
)

// Lists are read in two statements whatever their length: the ids and
// ordering keys of the whole list (a few columns), then the rows of the
// page asked for.

// newestFirst is an ordering key that sorts later times first.
func newestFirst(t time.Time) string {
	return fmt.Sprintf("%019d", math.MaxInt64-t.UnixNano())
}

type keyed struct {
	ID  string
	Key string
}

func cursorOf(k keyed) pagination.Cursor { return pagination.Cursor{Key: k.Key, ID: k.ID} }

// pageOf paginates keyed rows (sorted by the caller) and loads the page's
// rows with load, in page order.
func pageOf[T any](ctx context.Context, keys []keyed, args catalog.PageArgs, load func([]string) ([]T, error), id func(T) string) (pagination.Page[T], error) {
	sortKeyed(keys)
	p, err := catalog.Paginate(keys, cursorOf, args)
	if err != nil {
		return pagination.Page[T]{}, err
	}
	out := pagination.Page[T]{Cursors: p.Cursors, HasNextPage: p.HasNextPage, HasPreviousPage: p.HasPreviousPage,
		StartCursor: p.StartCursor, EndCursor: p.EndCursor, TotalCount: p.TotalCount, Items: make([]T, 0, len(p.Items))}
	if len(p.Items) == 0 {
		return out, nil
	}
	want := make([]string, len(p.Items))
	for i, k := range p.Items {
		want[i] = k.ID
	}
	rows, err := load(want)
	if err != nil {
		return out, err
	}
	byID := make(map[string]T, len(rows))
	for _, r := range rows {
		byID[id(r)] = r
	}
	cursors := make([]string, 0, len(want))
	for i, w := range want {
		// A row gone between the two statements is left out.
		if r, ok := byID[w]; ok {
			out.Items = append(out.Items, r)
			cursors = append(cursors, p.Cursors[i])
		}
	}
	out.Cursors = cursors
	return out, nil
}

// emptyFor is the empty list a guest gets (guests see the lists of their
// organization without content), or err.
func emptyFor[T any](err error, args catalog.PageArgs) (pagination.Page[T], error) {
	if err != errHidden {
		return pagination.Page[T]{}, err
	}
	p, err := catalog.Paginate([]keyed{}, cursorOf, args)
	return pagination.Page[T]{Items: []T{}, Cursors: []string{}, TotalCount: 0, HasNextPage: p.HasNextPage}, err
}

func sortKeyed(keys []keyed) {
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && cursorOf(keys[j]).Compare(cursorOf(keys[j-1])) < 0; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// Conversations lists an organization's conversations, newest first,
// optionally only those of a source.
// A guest gets an empty list. Errors: NotFound (organization), BadRequest
// (paging).
func (s *Service) Conversations(ctx context.Context, orgID, source string, args catalog.PageArgs) (pagination.Page[*ent.Conversation], error) {
	if err := reader(ctx, orgID, true); err != nil {
		return emptyFor[*ent.Conversation](err, args)
	}
	q := s.Client.Conversation.Query().Where(conversation.OrganizationID(orgID))
	if source != "" {
		q.Where(conversation.Source(source))
	}
	var rows []struct {
		ID        string    `json:"id"`
		CreatedAt time.Time `json:"created_at"`
	}
	if err := q.Select(conversation.FieldID, conversation.FieldCreatedAt).Scan(ctx, &rows); err != nil {
		return pagination.Page[*ent.Conversation]{}, fmt.Errorf("list conversations: %w", err)
	}
	keys := make([]keyed, len(rows))
	for i, r := range rows {
		keys[i] = keyed{ID: r.ID, Key: newestFirst(r.CreatedAt)}
	}
	return pageOf(ctx, keys, args, func(want []string) ([]*ent.Conversation, error) {
		return s.Client.Conversation.Query().Where(conversation.IDIn(want...)).All(ctx)
	}, func(c *ent.Conversation) string { return c.ID })
}

// IssueFilter selects issues.
type IssueFilter struct {
	Cluster      string
	Conversation string
}

// Issues lists an organization's issues, newest first, with their
// conversations (loaded with them).
// A guest gets an empty list. Errors: NotFound (organization), BadRequest
// (paging).
func (s *Service) Issues(ctx context.Context, orgID string, f IssueFilter, args catalog.PageArgs) (pagination.Page[*ent.ConversationIssue], error) {
	if err := reader(ctx, orgID, true); err != nil {
		return emptyFor[*ent.ConversationIssue](err, args)
	}
	q := s.Client.ConversationIssue.Query().Where(conversationissue.OrganizationID(orgID))
	if f.Cluster != "" {
		q.Where(conversationissue.ClusterID(f.Cluster))
	}
	if f.Conversation != "" {
		q.Where(conversationissue.ConversationID(f.Conversation))
	}
	var rows []struct {
		ID             string    `json:"id"`
		ConversationID string    `json:"conversation_id"`
		Ordinal        int       `json:"ordinal"`
		CreatedAt      time.Time `json:"created_at"`
	}
	err := q.Select(conversationissue.FieldID, conversationissue.FieldConversationID, conversationissue.FieldOrdinal,
		conversationissue.FieldCreatedAt).Scan(ctx, &rows)
	if err != nil {
		return pagination.Page[*ent.ConversationIssue]{}, fmt.Errorf("list issues: %w", err)
	}
	keys := make([]keyed, len(rows))
	for i, r := range rows {
		keys[i] = keyed{ID: r.ID, Key: newestFirst(r.CreatedAt) + r.ConversationID + fmt.Sprintf("%04d", r.Ordinal)}
	}
	return pageOf(ctx, keys, args, func(want []string) ([]*ent.ConversationIssue, error) {
		return s.Client.ConversationIssue.Query().Where(conversationissue.IDIn(want...)).WithConversation().All(ctx)
	}, func(c *ent.ConversationIssue) string { return c.ID })
}

// Issue returns an issue the caller may read, with its conversation.
// Errors: NotFound.
func (s *Service) Issue(ctx context.Context, id string) (*ent.ConversationIssue, error) {
	nf := apierr.NotFoundf("No matching conversation issue found for id %q", id)
	if k, ok := ids.KindOf(id); !ok || k != ids.ConversationIssue {
		return nil, nf
	}
	is, err := s.Client.ConversationIssue.Query().Where(conversationissue.ID(id)).WithConversation().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nf
	}
	if err != nil {
		return nil, fmt.Errorf("read issue: %w", err)
	}
	if err := reader(ctx, is.OrganizationID, false); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil, nf
		}
		return nil, err
	}
	return is, nil
}

// IssuesOf returns the issues of conversations (already authorized), by
// conversation, in order, in one statement.
func (s *Service) IssuesOf(ctx context.Context, conversationIDs []string) (map[string][]*ent.ConversationIssue, error) {
	out := map[string][]*ent.ConversationIssue{}
	if len(conversationIDs) == 0 {
		return out, nil
	}
	list, err := s.Client.ConversationIssue.Query().Where(conversationissue.ConversationIDIn(conversationIDs...)).
		Order(ent.Asc(conversationissue.FieldConversationID), ent.Asc(conversationissue.FieldOrdinal)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read issues: %w", err)
	}
	for _, is := range list {
		out[is.ConversationID] = append(out[is.ConversationID], is)
	}
	return out, nil
}

// Cluster orders.
const (
	OrderByUpdatedAt     = "updatedAt"
	OrderByIssues        = "issues"
	OrderByConversations = "conversations"
)

// Clusters lists an organization's issue clusters, by orderBy (updatedAt,
// issues or conversations; default updatedAt) in order (asc or desc,
// default desc).
// A guest gets an empty list. Errors: NotFound (organization), BadRequest.
func (s *Service) Clusters(ctx context.Context, orgID, order, orderBy string, args catalog.PageArgs) (pagination.Page[*ent.IssuesCluster], error) {
	var none pagination.Page[*ent.IssuesCluster]
	if err := reader(ctx, orgID, true); err != nil {
		return emptyFor[*ent.IssuesCluster](err, args)
	}
	desc := true
	switch order {
	case "", "desc":
	case "asc":
		desc = false
	default:
		return none, apierr.Invalid("order", "order must be asc or desc")
	}
	switch orderBy {
	case "", OrderByUpdatedAt, OrderByIssues, OrderByConversations:
	default:
		return none, apierr.Invalid("orderBy", "orderBy must be updatedAt, issues or conversations")
	}
	var rows []struct {
		ID                string    `json:"id"`
		UpdatedAt         time.Time `json:"updated_at"`
		IssueCount        int       `json:"issue_count"`
		ConversationCount int       `json:"conversation_count"`
	}
	err := s.Client.IssuesCluster.Query().Where(issuescluster.OrganizationID(orgID)).
		Select(issuescluster.FieldID, issuescluster.FieldUpdatedAt, issuescluster.FieldIssueCount, issuescluster.FieldConversationCount).
		Scan(ctx, &rows)
	if err != nil {
		return none, fmt.Errorf("list clusters: %w", err)
	}
	keys := make([]keyed, len(rows))
	for i, r := range rows {
		var n int64
		switch orderBy {
		case OrderByIssues:
			n = int64(r.IssueCount)
		case OrderByConversations:
			n = int64(r.ConversationCount)
		default:
			n = r.UpdatedAt.UnixNano()
		}
		if desc {
			n = math.MaxInt64 - n
		}
		keys[i] = keyed{ID: r.ID, Key: fmt.Sprintf("%019d", n)}
	}
	return pageOf(ctx, keys, args, func(want []string) ([]*ent.IssuesCluster, error) {
		return s.Client.IssuesCluster.Query().Where(issuescluster.IDIn(want...)).All(ctx)
	}, func(c *ent.IssuesCluster) string { return c.ID })
}

// Cluster returns a cluster the caller may read.
// Errors: NotFound.
func (s *Service) Cluster(ctx context.Context, id string) (*ent.IssuesCluster, error) {
	nf := apierr.NotFoundf("No matching issues cluster found for id %q", id)
	if k, ok := ids.KindOf(id); !ok || k != ids.IssuesCluster {
		return nil, nf
	}
	c, err := s.Client.IssuesCluster.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nf
	}
	if err != nil {
		return nil, fmt.Errorf("read cluster: %w", err)
	}
	if err := reader(ctx, c.OrganizationID, false); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil, nf
		}
		return nil, err
	}
	return c, nil
}

// ClustersByID reads clusters by id (already authorized by what links to
// them), in one statement; missing ids are left out.
func (s *Service) ClustersByID(ctx context.Context, list []string) (map[string]*ent.IssuesCluster, error) {
	out := map[string]*ent.IssuesCluster{}
	if len(list) == 0 {
		return out, nil
	}
	rows, err := s.Client.IssuesCluster.Query().Where(issuescluster.IDIn(list...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read clusters: %w", err)
	}
	for _, c := range rows {
		out[c.ID] = c
	}
	return out, nil
}

// SetMuted mutes a cluster (no change request may be linked to it) or
// unmutes it. The caller needs the edit role in its organization.
// Errors: NotFound, Forbidden.
func (s *Service) SetMuted(ctx context.Context, id string, muted bool) (*ent.IssuesCluster, error) {
	c, err := s.Cluster(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := needRole(ctx, c.OrganizationID, types.RoleEdit, "change its issue clusters"); err != nil {
		return nil, err
	}
	if c.Muted == muted {
		return c, nil
	}
	return s.Client.IssuesCluster.UpdateOneID(id).SetMuted(muted).SetUpdatedAt(s.Now()).Save(ctx)
}

// CheckClusterLink tells whether a change request of an organization may
// address a cluster: BadRequest on field when the cluster is unknown, of
// another organization, not visible to the caller, or muted.
func (s *Service) CheckClusterLink(ctx context.Context, orgID, clusterID, field string) error {
	c, err := s.Cluster(ctx, clusterID)
	if apierr.CodeOf(err) == apierr.NotFound || (err == nil && c.OrganizationID != orgID) {
		return apierr.Invalid(field, "%s: no issues cluster %q in the space's organization", field, clusterID)
	}
	if err != nil {
		return err
	}
	if c.Muted {
		return apierr.Invalid(field, "%s: the issues cluster %q is muted: change requests cannot address it until it is unmuted", field, clusterID)
	}
	return nil
}

// MaxPulseWeeks is the length of weeklyPulse: the past 13 weeks.
const MaxPulseWeeks = 13

// WeeklyPulse is a cluster's issues in each of the 13 weeks (Monday to
// Sunday, UTC) up to now, oldest first; the last is the current week.
func WeeklyPulse(c *ent.IssuesCluster, now time.Time) []int {
	out := make([]int, MaxPulseWeeks)
	start := weekStart(now)
	for i := 0; i < MaxPulseWeeks; i++ {
		w := start.AddDate(0, 0, -7*(MaxPulseWeeks-1-i))
		out[i] = c.Weeks[w.Format(time.DateOnly)]
	}
	return out
}

// weekStart is the Monday (UTC) of t's week.
func weekStart(t time.Time) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	wd := (int(d.Weekday()) + 6) % 7
	return d.AddDate(0, 0, -wd)
}

// needRole checks the caller's role in an organization.
func needRole(ctx context.Context, orgID string, role types.Role, what string) error {
	r, _, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !r.AtLeast(role) {
		return apierr.Forbiddenf("You need the %s role in the organization to %s", role, what)
	}
	return nil
}

// ConversationsByID reads conversations by id (already authorized by what
// links to them), in one statement; missing ids are left out.
func (s *Service) ConversationsByID(ctx context.Context, list []string) (map[string]*ent.Conversation, error) {
	out := map[string]*ent.Conversation{}
	if len(list) == 0 {
		return out, nil
	}
	rows, err := s.Client.Conversation.Query().Where(conversation.IDIn(list...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read conversations: %w", err)
	}
	for _, c := range rows {
		out[c.ID] = c
	}
	return out, nil
}
