// Package loaders holds the per-request dataloaders that both doors use, so
// that nested reads cost a fixed number of SQL statements whatever the number
// of items in them.
package loaders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/space"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/ent/user"
	"quire/internal/apierr"
	"quire/internal/auth"
)

// Wait is the batch window. The library's default of 16 ms would be paid at
// every nesting level; 1 ms is enough for sibling resolvers to join a batch.
const Wait = time.Millisecond

// maxBatch bounds one IN list, well under both databases' parameter limits.
const maxBatch = 500

// Loaders are the dataloaders of one request.
type Loaders struct {
	client *ent.Client

	OrganizationByID *Loader[*ent.Organization]
	UserByID         *Loader[*ent.User]
	CollectionByID   *Loader[*ent.Collection]
	SpaceByID        *Loader[*ent.Space]
	// MemberByOrgUser is keyed by "orgID/userID".
	MemberByOrgUser *Loader[*ent.Member]
	// SpacesByParent and CollectionsByParent load the live spaces and the
	// collections directly inside collections, a batch of parents per
	// statement.
	SpacesByParent      *Loader[[]*ent.Space]
	CollectionsByParent *Loader[[]*ent.Collection]
	// Sites holds the docs-site loaders.
	Sites SiteLoaders
	// Comments holds the loaders of discussions.
	Comments CommentLoaders

	remembered sync.Map

	viewerOnce    sync.Once
	viewerMembers map[string]*ent.Member
	viewerErr     error

	grantsOnce   sync.Once
	viewerGrants *auth.Grants
	grantsErr    error
}

// New returns fresh loaders over client, for a request whose resolvers run
// concurrently (GraphQL): loads wait for the batch window.
func New(client *ent.Client) *Loaders { return newLoaders(client, false) }

// NewSequential returns fresh loaders for a request that one goroutine runs
// from start to end (REST): a batch starts when its first value is waited
// for, not after the batch window (see [Loader]).
func NewSequential(client *ent.Client) *Loaders { return newLoaders(client, true) }

func newLoaders(client *ent.Client, seq bool) *Loaders {
	l := &Loaders{client: client}
	l.OrganizationByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.Organization, error) {
		return byIDs(ctx, client, organizationByID, keys, client.Organization.ScanRows, func() ([]*ent.Organization, error) {
			return client.Organization.Query().Where(organization.IDIn(keys...)).All(ctx)
		})
	}, func(o *ent.Organization) string { return o.ID }, "organization", seq)
	l.UserByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.User, error) {
		return byIDs(ctx, client, userByID, keys, client.User.ScanRows, func() ([]*ent.User, error) {
			return client.User.Query().Where(user.IDIn(keys...)).All(ctx)
		})
	}, func(u *ent.User) string { return u.ID }, "user", seq)
	l.CollectionByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.Collection, error) {
		return byIDs(ctx, client, collectionByID, keys, client.Collection.ScanRows, func() ([]*ent.Collection, error) {
			return client.Collection.Query().Where(collection.IDIn(keys...)).All(ctx)
		})
	}, func(c *ent.Collection) string { return c.ID }, "collection", seq)
	l.SpaceByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.Space, error) {
		return byIDs(ctx, client, spaceByID, keys, client.Space.ScanRows, func() ([]*ent.Space, error) {
			return client.Space.Query().Where(space.IDIn(keys...)).All(ctx)
		})
	}, func(s *ent.Space) string { return s.ID }, "space", seq)
	l.MemberByOrgUser = newBatchLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.Member] {
		return batchMembers(ctx, client, keys)
	}, seq)
	l.SpacesByParent = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.Space, error) {
		return client.Space.Query().Where(space.ParentIDIn(keys...), space.DeletedAtIsNil()).All(ctx)
	}, func(s *ent.Space) string { return *s.ParentID }, "collection spaces", seq)
	l.CollectionsByParent = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.Collection, error) {
		return client.Collection.Query().Where(collection.ParentIDIn(keys...)).All(ctx)
	}, func(c *ent.Collection) string { return *c.ParentID }, "sub-collections", seq)
	l.Sites = newSiteLoaders(client, seq)
	l.Comments = newCommentLoaders(client, l.UserByID, seq)
	return l
}

// newLoader builds a by-id loader: one query per batch, results in key order,
// a NotFound error for each missing key.
func newLoader[T any](fetch func(context.Context, []string) ([]T, error), id func(T) string, what string, seq bool) *Loader[T] {
	batch := func(ctx context.Context, keys []string) []*dataloader.Result[T] {
		out := make([]*dataloader.Result[T], len(keys))
		rows, err := fetch(ctx, keys)
		if err != nil {
			for i := range out {
				out[i] = &dataloader.Result[T]{Error: fmt.Errorf("load %s: %w", what, err)}
			}
			return out
		}
		byID := make(map[string]T, len(rows))
		for _, r := range rows {
			byID[id(r)] = r
		}
		for i, k := range keys {
			if r, ok := byID[k]; ok {
				out[i] = &dataloader.Result[T]{Data: r}
			} else {
				out[i] = &dataloader.Result[T]{Error: apierr.NotFoundf("No matching %s found for id %q", what, k)}
			}
		}
		return out
	}
	return newBatchLoader(batch, seq)
}

func batchMembers(ctx context.Context, client *ent.Client, keys []string) []*dataloader.Result[*ent.Member] {
	out := make([]*dataloader.Result[*ent.Member], len(keys))
	type pair struct{ org, user string }
	pairs := make([]pair, len(keys))
	users := map[string]bool{}
	var userIDs []string
	for i, k := range keys {
		for j := 0; j < len(k); j++ {
			if k[j] == '/' {
				pairs[i] = pair{k[:j], k[j+1:]}
				break
			}
		}
		if !users[pairs[i].user] {
			users[pairs[i].user] = true
			userIDs = append(userIDs, pairs[i].user)
		}
	}
	rows, err := client.Member.Query().Where(member.UserIDIn(userIDs...)).All(ctx)
	if err != nil {
		for i := range out {
			out[i] = &dataloader.Result[*ent.Member]{Error: fmt.Errorf("load members: %w", err)}
		}
		return out
	}
	byKey := map[string]*ent.Member{}
	for _, m := range rows {
		byKey[m.OrganizationID+"/"+m.UserID] = m
	}
	for i, k := range keys {
		if m, ok := byKey[k]; ok {
			out[i] = &dataloader.Result[*ent.Member]{Data: m}
		} else {
			out[i] = &dataloader.Result[*ent.Member]{Error: apierr.NotFoundf("No matching member found")}
		}
	}
	return out
}

// ViewerMemberships returns the caller's memberships keyed by organization
// id, read once per request.
func (l *Loaders) ViewerMemberships(ctx context.Context) (map[string]*ent.Member, error) {
	l.viewerOnce.Do(func() {
		l.viewerMembers = map[string]*ent.Member{}
		v := auth.Viewer(ctx)
		if v == nil {
			return
		}
		rows, err := l.client.Member.Query().Where(member.UserID(v.ID)).All(ctx)
		if err != nil {
			l.viewerErr = fmt.Errorf("load viewer memberships: %w", err)
			return
		}
		for _, m := range rows {
			l.viewerMembers[m.OrganizationID] = m
		}
	})
	return l.viewerMembers, l.viewerErr
}

// ViewerGrants returns the levels the caller was given on spaces and
// collections, directly and through teams, read once per request (a
// request gets them with its token: see PrimeGrants).
func (l *Loaders) ViewerGrants(ctx context.Context) (*auth.Grants, error) {
	l.grantsOnce.Do(func() {
		v := auth.Viewer(ctx)
		if v == nil {
			l.viewerGrants = auth.NewGrants(nil)
			return
		}
		rows, err := l.client.ContentPermission.Query().Where(contentpermission.Or(
			contentpermission.UserID(v.ID),
			contentpermission.HasTeamWith(team.HasMembershipsWith(teammember.UserID(v.ID))),
		)).All(ctx)
		if err != nil {
			l.grantsErr = fmt.Errorf("load viewer grants: %w", err)
			return
		}
		l.viewerGrants = auth.NewGrants(GrantsOf(rows))
	})
	return l.viewerGrants, l.grantsErr
}

// GrantsOf turns stored permissions into grants.
func GrantsOf(rows []*ent.ContentPermission) []auth.Grant {
	out := make([]auth.Grant, 0, len(rows))
	for _, p := range rows {
		g := auth.Grant{Organization: p.OrganizationID, Level: p.Level}
		switch {
		case p.SpaceID != nil:
			g.Target = *p.SpaceID
		case p.CollectionID != nil:
			g.Target = *p.CollectionID
		}
		out = append(out, g)
	}
	return out
}

// PrimeGrants gives the request the caller's grants, read with the caller
// (see auth.LookupCaller), so that ViewerGrants reads nothing.
func (l *Loaders) PrimeGrants(g *auth.Grants) {
	l.grantsOnce.Do(func() { l.viewerGrants = g })
}

// ForgetViewerGrants drops the cached grants after a change.
func (l *Loaders) ForgetViewerGrants() {
	l.grantsOnce = sync.Once{}
	l.viewerGrants = nil
	l.grantsErr = nil
}

// Remember returns the value compute returned the first time it was called
// with key in the request (concurrent first callers may each compute it,
// so compute must be a pure function of what the key names). It is for
// answers derived from the request itself, such as what a query selects,
// that sibling resolvers would otherwise each work out.
func (l *Loaders) Remember(key any, compute func() any) any {
	if v, ok := l.remembered.Load(key); ok {
		return v
	}
	v, _ := l.remembered.LoadOrStore(key, compute())
	return v
}

// PrimeCaller gives the request the caller's memberships and their
// organizations, read with the caller (see auth.LookupCaller), so that
// ViewerMemberships, and loads of those organizations, read nothing. The
// memberships are kept only if none are loaded yet.
func (l *Loaders) PrimeCaller(ms []*ent.Member, orgs []*ent.Organization) {
	l.viewerOnce.Do(func() {
		l.viewerMembers = make(map[string]*ent.Member, len(ms))
		for _, m := range ms {
			l.viewerMembers[m.OrganizationID] = m
		}
	})
	for _, o := range orgs {
		l.OrganizationByID.Prime(context.Background(), o.ID, o)
	}
}

// ForgetViewerMemberships drops the cached memberships after a change.
func (l *Loaders) ForgetViewerMemberships() {
	l.viewerOnce = sync.Once{}
	l.viewerMembers = nil
	l.viewerErr = nil
}

// PrimeSpace stores a fresh copy of a space, replacing any cached one.
func (l *Loaders) PrimeSpace(ctx context.Context, s *ent.Space) {
	l.SpaceByID.Clear(ctx, s.ID).Prime(ctx, s.ID, s)
}

// PrimeCollection stores a fresh copy of a collection.
func (l *Loaders) PrimeCollection(ctx context.Context, c *ent.Collection) {
	l.CollectionByID.Clear(ctx, c.ID).Prime(ctx, c.ID, c)
}

// PrimeOrganization stores a fresh copy of an organization.
func (l *Loaders) PrimeOrganization(ctx context.Context, o *ent.Organization) {
	l.OrganizationByID.Clear(ctx, o.ID).Prime(ctx, o.ID, o)
}

type ctxKey struct{}

// With returns a context carrying the loaders.
func With(ctx context.Context, l *Loaders) context.Context {
	if hook, ok := ctx.Value(coldLoadKey{}).(func(context.Context)); ok {
		l.onColdLoad(hook)
	}
	return context.WithValue(ctx, ctxKey{}, l)
}

// For returns the loaders of the request or job that ctx belongs to (the
// HTTP middleware puts them in every request's context; jobs.NewContext in
// every background job's). It never returns nil: a context that carries
// none gets loaders whose every load fails with ErrNoContext, so that a
// caller that forgot to make one gets an error that says so rather than a
// nil dereference.
func For(ctx context.Context) *Loaders {
	if l, ok := ctx.Value(ctxKey{}).(*Loaders); ok && l != nil {
		return l
	}
	return newLoaders(refusing, true)
}

// ErrNoContext is the error of every load through the loaders For returns
// for a context that carries none.
var ErrNoContext = errors.New("loaders: this context belongs to no request or job (make one with jobs.NewContext)")

// refusing is the client of the loaders For makes for a context that
// carries none: it refuses every statement with ErrNoContext. Each such
// call gets loaders of its own, so nothing primed into them is seen by
// another context.
var refusing = ent.NewClient(ent.Driver(noContextDriver{}))

// noContextDriver is a database driver that refuses everything.
type noContextDriver struct{}

func (noContextDriver) Exec(context.Context, string, any, any) error  { return ErrNoContext }
func (noContextDriver) Query(context.Context, string, any, any) error { return ErrNoContext }
func (noContextDriver) Tx(context.Context) (dialect.Tx, error)        { return nil, ErrNoContext }
func (noContextDriver) Close() error                                  { return nil }

// QueryContext and ExecContext refuse the statements written by hand
// (ent's Client.QueryContext and ExecContext).
func (noContextDriver) QueryContext(context.Context, string, ...any) (*sql.Rows, error) {
	return nil, ErrNoContext
}
func (noContextDriver) ExecContext(context.Context, string, ...any) (sql.Result, error) {
	return nil, ErrNoContext
}
func (noContextDriver) Dialect() string { return dialect.SQLite }
