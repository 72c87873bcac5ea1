package content_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/position"
	"quire/internal/testing/testdb"
	"quire/internal/types"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

var backends = []string{"sqlite", "postgres"}

// env is one fresh database with an organization, two users and a space.
type env struct {
	t       testing.TB
	backend string
	db      *db.DB
	svc     *content.Service
	org     *ent.Organization
	alice   *ent.User
	bob     *ent.User
	space   *ent.Space
}

// clock is a fake clock that moves one second per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func openDB(t testing.TB, backend string) *db.DB {
	t.Helper()
	var url string
	switch backend {
	case "sqlite":
		url = "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
	case "postgres":
		url = testdb.NewDatabase(t)
	default:
		t.Fatalf("unknown backend %q", backend)
	}
	d, err := db.Open(url, db.Options{})
	if err != nil {
		t.Fatalf("open %s: %v", backend, err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate %s: %v", backend, err)
	}
	return d
}

func newEnv(t testing.TB, backend string) *env {
	t.Helper()
	d := openDB(t, backend)
	ctx := context.Background()
	c := d.Client
	e := &env{t: t, backend: backend, db: d}
	e.svc = content.New(c, "https://quire.test", catalog.New(c))
	clk := &clock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	e.svc.Now = clk.now
	var err error
	if e.org, err = c.Organization.Create().SetTitle("Acme").Save(ctx); err != nil {
		t.Fatalf("create org: %v", err)
	}
	if e.alice, err = c.User.Create().SetEmail("alice@acme.test").SetDisplayName("Alice").Save(ctx); err != nil {
		t.Fatalf("create user: %v", err)
	}
	if e.bob, err = c.User.Create().SetEmail("bob@acme.test").SetDisplayName("Bob").Save(ctx); err != nil {
		t.Fatalf("create user: %v", err)
	}
	// Both write as admins of the organization: the engine authorizes
	// the caller of the context (see as).
	for _, u := range []*ent.User{e.alice, e.bob} {
		if err := c.Member.Create().SetOrganizationID(e.org.ID).SetUserID(u.ID).SetRole(types.RoleAdmin).Exec(ctx); err != nil {
			t.Fatalf("create member: %v", err)
		}
	}
	e.space = e.newSpace("Docs")
	return e
}

// as returns the context of a job acting for the user with id userID: the
// engine reads the caller's rights from it.
func (e *env) as(userID string) context.Context {
	e.t.Helper()
	u, err := e.db.Client.User.Get(context.Background(), userID)
	if err != nil {
		e.t.Fatalf("as %s: %v", userID, err)
	}
	return jobs.NewContext(context.Background(), e.db.Client, u)
}

// newSpace creates a space with its empty initial revision, as the catalog
// does.
func (e *env) newSpace(title string) *ent.Space {
	e.t.Helper()
	ctx := context.Background()
	var id string
	err := catalog.WithTx(ctx, e.db.Client, func(tx *ent.Tx) error {
		sp, err := tx.Space.Create().SetOrganizationID(e.org.ID).SetTitle(title).SetPosition(position.First()).Save(ctx)
		if err != nil {
			return err
		}
		rev, err := tx.Revision.Create().SetSpaceID(sp.ID).SetType("edits").Save(ctx)
		if err != nil {
			return err
		}
		id = sp.ID
		return tx.Space.UpdateOneID(sp.ID).SetRevisionID(rev.ID).Exec(ctx)
	})
	if err != nil {
		e.t.Fatalf("create space: %v", err)
	}
	return e.reload(id)
}

func (e *env) reload(spaceID string) *ent.Space {
	e.t.Helper()
	sp, err := e.db.Client.Space.Get(context.Background(), spaceID)
	if err != nil {
		e.t.Fatalf("reload space: %v", err)
	}
	return sp
}

func forEachDB(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b, func(t *testing.T) { fn(t, newEnv(t, b)) })
	}
}

func (e *env) cr(subject string) *ent.ChangeRequest {
	e.t.Helper()
	cr, err := e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{Subject: subject})
	if err != nil {
		e.t.Fatalf("create change request: %v", err)
	}
	return cr
}

func (e *env) edit(cr *ent.ChangeRequest, user string, ops ...content.Op) *content.EditResult {
	e.t.Helper()
	res, err := e.svc.Edit(e.as(user), cr.ID, ops...)
	if err != nil {
		e.t.Fatalf("edit: %v", err)
	}
	return res
}

func (e *env) merge(cr *ent.ChangeRequest) *content.MergeResult {
	e.t.Helper()
	res, err := e.svc.Merge(e.as(e.alice.ID), cr.ID)
	if err != nil {
		e.t.Fatalf("merge: %v", err)
	}
	return res
}

// current reads the space's current revision.
func (e *env) current() *content.Revision {
	e.t.Helper()
	rev, err := e.svc.Revision(context.Background(), e.reload(e.space.ID).RevisionID)
	if err != nil {
		e.t.Fatalf("read revision: %v", err)
	}
	return rev
}

func md(s string) *string { return &s }

func str(s string) *string { return &s }

// titles lists the titles of a tree, depth first, children indented.
func titles(pages []*content.Page) []string {
	var out []string
	var walk func(ps []*content.Page, indent string)
	walk = func(ps []*content.Page, indent string) {
		for _, p := range ps {
			out = append(out, indent+p.Title)
			walk(p.Pages, indent+"  ")
		}
	}
	walk(pages, "")
	return out
}

func findPage(rev *content.Revision, title string) *content.Page {
	var found *content.Page
	content.Walk(rev.Pages, func(p *content.Page) {
		if p.Title == title && found == nil {
			found = p
		}
	})
	return found
}

func wantCode(t testing.TB, err error, code apierr.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s error, got nil", code)
	}
	if got := apierr.CodeOf(err); got != code {
		t.Fatalf("want %s error, got %s: %v", code, got, err)
	}
}

func (e *env) count(n int, err error) int {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("count: %v", err)
	}
	return n
}

// pngBytes encodes a w×h PNG image.
func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
