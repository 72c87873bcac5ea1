package downloads_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/downloads"
	"quire/internal/jobs"
	"quire/internal/position"
	"quire/internal/signedurl"
	"quire/internal/testing/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

var backends = []string{"sqlite", "postgres"}

const publicURL = "https://quire.test"

// clock is a fake clock that only moves when told to.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is one fresh database with a space, its content engine and a
// download service.
type env struct {
	t       testing.TB
	url     string
	db      *db.DB
	content *content.Service
	svc     *downloads.Service
	clock   *clock
	user    *ent.User
	space   *ent.Space
}

// databaseURL returns the URL of a new empty database.
func databaseURL(t testing.TB, backend string) string {
	t.Helper()
	switch backend {
	case "sqlite":
		return "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
	case "postgres":
		return testdb.NewDatabase(t)
	}
	t.Fatalf("unknown backend %q", backend)
	return ""
}

// open opens and migrates a database.
func open(t testing.TB, url string) *db.DB {
	t.Helper()
	d, err := db.Open(url, db.Options{})
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return d
}

func newEnv(t testing.TB, backend string) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{t: t, url: databaseURL(t, backend)}
	e.db = open(t, e.url)
	c := e.db.Client
	e.content = content.New(c, publicURL, catalog.New(c))
	e.clock = &clock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	key, err := downloads.SigningKey(ctx, c, "")
	if err != nil {
		t.Fatalf("signing key: %v", err)
	}
	signer := signedurl.NewSigner(key)
	signer.Now = e.clock.now
	e.svc = downloads.New(e.content, signer, publicURL+"/")
	e.svc.Now = e.clock.now
	org, err := c.Organization.Create().SetTitle("Acme").Save(ctx)
	if err != nil {
		t.Fatalf("create org: %v", err)
	}
	if e.user, err = c.User.Create().SetEmail("alice@acme.test").SetDisplayName("Alice").Save(ctx); err != nil {
		t.Fatalf("create user: %v", err)
	}
	var id string
	err = catalog.WithTx(ctx, c, func(tx *ent.Tx) error {
		sp, err := tx.Space.Create().SetOrganizationID(org.ID).SetTitle("Docs").SetPosition(position.First()).Save(ctx)
		if err != nil {
			return err
		}
		rev, err := tx.Revision.Create().SetSpaceID(sp.ID).SetType(content.RevisionEdits).Save(ctx)
		if err != nil {
			return err
		}
		id = sp.ID
		return tx.Space.UpdateOneID(sp.ID).SetRevisionID(rev.ID).Exec(ctx)
	})
	if err != nil {
		t.Fatalf("create space: %v", err)
	}
	if e.space, err = c.Space.Get(ctx, id); err != nil {
		t.Fatal(err)
	}
	return e
}

func forEachDB(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b, func(t *testing.T) { fn(t, newEnv(t, b)) })
	}
}

func (e *env) cr(subject string) *ent.ChangeRequest {
	e.t.Helper()
	cr, err := e.content.CreateChangeRequest(jobs.NewContext(context.Background(), e.db.Client, nil), e.space.ID, content.CreateChangeRequest{Subject: subject})
	if err != nil {
		e.t.Fatalf("create change request: %v", err)
	}
	return cr
}

func (e *env) edit(cr *ent.ChangeRequest, ops ...content.Op) *content.EditResult {
	e.t.Helper()
	res, err := e.content.Edit(jobs.NewContext(context.Background(), e.db.Client, nil), cr.ID, ops...)
	if err != nil {
		e.t.Fatalf("edit: %v", err)
	}
	return res
}

// get requests a link (absolute, as the service makes them) from the
// handler.
func (e *env) get(t testing.TB, method, link string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	if !strings.HasPrefix(link, publicURL+"/downloads/") {
		t.Fatalf("link %q is not under %s/downloads/", link, publicURL)
	}
	r := httptest.NewRequest(method, strings.TrimPrefix(link, publicURL), nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.svc.Handler().ServeHTTP(w, r)
	return w
}

// wantError checks a REST error response.
func wantError(t testing.TB, w *httptest.ResponseRecorder, status int) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("error Content-Type = %q", ct)
	}
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %q: %v", w.Body, err)
	}
	if body.Error.Code != status || body.Error.Message == "" {
		t.Errorf("error body = %s", w.Body)
	}
	if cd := w.Header().Get("Content-Disposition"); cd != "" {
		t.Errorf("error has Content-Disposition %q", cd)
	}
}

// outlineTitle is how a PDF outline entry spells a title: UTF-16BE with a
// byte order mark.
func outlineTitle(s string) string {
	units := utf16.Encode([]rune(s))
	b := []byte{0xfe, 0xff}
	for _, u := range units {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}
