package db

import (
	"context"
	"fmt"
	"sync"

	entgo "entgo.io/ent"

	"quire/ent"
	"quire/ent/apitoken"
	"quire/ent/collection"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/space"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/ent/user"
)

// Access changes. What a caller may do is read from a few entities (their
// user, tokens, memberships and organizations, teams and the permissions
// given to them or their teams); a process may keep what it read of them
// (auth.CallerCache) and must forget it when they change. Every client of
// a database opened by Open carries an ent hook that sees each mutation of
// those entities, and each deletion of an entity whose rows' deletion
// cascades to them (a space or a collection with its permissions, an
// organization with its members and teams). Such a write:
//
//   - outside a transaction, is announced once it is done;
//   - inside a transaction, is announced in it (PostgreSQL delivers the
//     notification when it commits, and not if it rolls back), and this
//     process's subscribers are told after the commit.
//
// On PostgreSQL the announcement is a notification on AccessChannel whose
// payload is the writing handle's Instance, for the other processes sharing
// the database; each handle's own subscribers (AccessChanges) are told
// directly. A write made with hand-written SQL is announced with
// AccessChanged.

// AccessChannel is the PostgreSQL notification channel of access changes.
const AccessChannel = "quire_callers"

// accessEntities are the entities the caller of a token is read from: any
// change of theirs changes what a caller may do.
var accessEntities = map[string]string{
	ent.TypeUser:              user.Table,
	ent.TypeAPIToken:          apitoken.Table,
	ent.TypeMember:            member.Table,
	ent.TypeOrganization:      organization.Table,
	ent.TypeContentPermission: contentpermission.Table,
	ent.TypeTeam:              team.Table,
	ent.TypeTeamMember:        teammember.Table,
}

// cascadingEntities are the other entities whose deletion deletes rows of
// accessEntities (ON DELETE CASCADE), with the edge through which a
// mutation of theirs writes such rows.
var cascadingEntities = map[string]struct{ table, edge string }{
	ent.TypeSpace:      {space.Table, space.EdgePermissions},
	ent.TypeCollection: {collection.Table, collection.EdgePermissions},
}

// AccessTables names the tables whose writes change what a caller may do:
// those of the entities callers are read from, and those whose deletion
// cascades to them (for a test that checks them against the schema).
func AccessTables() (read, cascading []string) {
	for _, t := range accessEntities {
		read = append(read, t)
	}
	for _, c := range cascadingEntities {
		cascading = append(cascading, c.table)
	}
	return read, cascading
}

// changesAccess reports whether a mutation (which succeeded) may change
// what a caller may do.
func changesAccess(m entgo.Mutation) bool {
	if _, ok := accessEntities[m.Type()]; ok {
		return true
	}
	c, ok := cascadingEntities[m.Type()]
	if !ok {
		return false
	}
	if m.Op().Is(entgo.OpDelete | entgo.OpDeleteOne) {
		return true
	}
	for _, edges := range [][]string{m.AddedEdges(), m.RemovedEdges(), m.ClearedEdges()} {
		for _, e := range edges {
			if e == c.edge {
				return true
			}
		}
	}
	return false
}

// announceHook announces every mutation that changes what a caller may do,
// or what readers of published sites are shown, once it succeeded, through
// the client that ran it (in its transaction, if any).
func announceHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		v, err := next.Mutate(ctx, m)
		if err != nil {
			return v, err
		}
		access, content := changesAccess(m), changesContent(m)
		if !access && !content {
			return v, nil
		}
		// Every generated mutation has its client.
		c, ok := m.(interface{ Client() *ent.Client })
		if !ok {
			return v, nil
		}
		if access {
			if err := Announce(ctx, c.Client(), Access); err != nil {
				return v, err
			}
		}
		if content {
			if err := Announce(ctx, c.Client(), Content); err != nil {
				return v, err
			}
		}
		return v, nil
	})
}

// Topic is what an announced change is about.
type Topic uint8

// The topics of announcements.
const (
	// Access: what a caller may do (see AccessChanged).
	Access Topic = iota
	// Content: what readers of published sites are shown (see
	// ContentChanged).
	Content
	topics
)

// Channel is the PostgreSQL notification channel of a topic.
func (t Topic) Channel() string {
	if t == Content {
		return ContentChannel
	}
	return AccessChannel
}

func (t Topic) String() string {
	if t == Content {
		return "content"
	}
	return "access"
}

// announceKey marks, in the context of ExecContext, the announcement of a
// change of a topic (its value: the topic plus one), which the driver of a
// database opened by Open handles itself (see Announce).
type announceKey struct{}

// AccessChanged announces a change of what a caller may do made through
// client (a client of a database opened by Open, or a transaction's
// client: tx.Client()) without ent's builders, by hand-written SQL.
// Mutations made with ent's builders are announced by the client itself.
// In a transaction the announcement goes with its commit and its error
// fails the transaction; outside one it is sent at once, at best.
func AccessChanged(ctx context.Context, client *ent.Client) error {
	return Announce(ctx, client, Access)
}

// Announce announces a change of topic made through client (see
// AccessChanged).
func Announce(ctx context.Context, client *ent.Client, topic Topic) error {
	// The driver recognizes the mark; a driver that does not (a client
	// not opened by Open, on PostgreSQL) sends a notification whose
	// payload names no process, which every process hears.
	if _, err := client.ExecContext(context.WithValue(ctx, announceKey{}, topic+1), notifyQuery, topic.Channel(), ""); err != nil {
		return fmt.Errorf("announce a change of %s: %w", topic, err)
	}
	return nil
}

// announcing tells the topic a statement announces, if it is an
// announcement.
func announcing(ctx context.Context) (Topic, bool) {
	t, _ := ctx.Value(announceKey{}).(Topic)
	if t == 0 {
		return 0, false
	}
	return t - 1, true
}

// notifyQuery announces a change on a channel (PostgreSQL); the payload is
// the announcing handle's Instance, so that its own listener, whose
// process was told at once, can pass over it.
const notifyQuery = "SELECT pg_notify($1, $2)"

// Changes tells a process's subscribers of the changes of one topic
// committed through one database handle.
type Changes struct {
	mu   sync.Mutex
	subs map[int]func()
	next int
}

// Subscribe calls fn after each committed change made through the
// handle, in the goroutine that committed it. It returns a function that
// stops the calls.
func (c *Changes) Subscribe(fn func()) (stop func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs == nil {
		c.subs = map[int]func(){}
	}
	id := c.next
	c.next++
	c.subs[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs, id)
	}
}

// changed tells every subscriber.
func (c *Changes) changed() {
	c.mu.Lock()
	fns := make([]func(), 0, len(c.subs))
	for _, fn := range c.subs {
		fns = append(fns, fn)
	}
	c.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// AccessChanges are the access changes committed through this handle.
func (d *DB) AccessChanges() *Changes { return d.Changes(Access) }

// Changes are the changes of topic committed through this handle.
func (d *DB) Changes(topic Topic) *Changes { return &d.counter.changes[topic] }

// announce handles an announcement outside a transaction: the write is
// done, so it is announced to the other processes (at best: if this is
// lost, they forget what they keep when it expires) and to this one.
func (d *countingDriver) announce(ctx context.Context, topic Topic) {
	if d.stmts != nil { // PostgreSQL
		_ = d.Driver.Exec(context.WithoutCancel(ctx), notifyQuery, []any{topic.Channel(), d.instance}, nil)
	}
	d.changes[topic].changed()
}

// announce handles an announcement in a transaction: the first one of
// each topic sends the notification in it (PostgreSQL), and Commit tells
// this process.
func (t *countingTx) announce(ctx context.Context, topic Topic) error {
	if t.announced[topic].Swap(true) {
		return nil
	}
	if t.d.stmts == nil { // SQLite: no other process hears
		return nil
	}
	defer t.d.count()()
	if err := t.Tx.Exec(ctx, notifyQuery, []any{topic.Channel(), t.d.instance}, nil); err != nil {
		t.announced[topic].Store(false)
		return classify(ctx, t.d.pool, false, err)
	}
	return nil
}
