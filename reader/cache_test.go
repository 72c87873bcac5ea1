package reader

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"quire/internal/db"
)

// newTestCache returns a page cache of maxBytes over a SQLite database's
// content changes, with a clock the test moves.
func newTestCache(t *testing.T, maxBytes int64) (*PageCache, *db.Hearing, *time.Time) {
	t.Helper()
	d, err := db.Open("sqlite:"+filepath.Join(t.TempDir(), "q.db"), db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	h := d.Hear(db.Content, nil)
	t.Cleanup(h.Close)
	c := NewPageCache(h, maxBytes, nil)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	return c, h, &now
}

// ask asks c for path and, on a miss, answers body through it as the
// door does; it returns what the reader got and whether it was kept.
func ask(c *PageCache, path string, body []byte) (got []byte, cached bool) {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	rec := httptest.NewRecorder()
	w, done := c.lookup(rec, r, "")
	if !done {
		respond(w, r, http.StatusOK, "text/html; charset=utf-8", body, true)
	}
	return rec.Body.Bytes(), done
}

func TestPageCacheKeepsUntilAChange(t *testing.T) {
	c, h, now := newTestCache(t, 0)
	v1 := bytes.Repeat([]byte("a"), 1000)
	if _, cached := ask(c, "/s/o/p", v1); cached {
		t.Fatal("served from an empty cache")
	}
	if got, cached := ask(c, "/s/o/p", []byte("other")); !cached || !bytes.Equal(got, v1) {
		t.Fatalf("second view: cached %v, same %v", cached, bytes.Equal(got, v1))
	}
	h.Forget() // a content change
	if _, cached := ask(c, "/s/o/p", v1); cached {
		t.Fatal("served after a change")
	}
	*now = now.Add(PageTTL)
	if _, cached := ask(c, "/s/o/p", v1); cached {
		t.Fatal("served after PageTTL")
	}
}

// An answer rendered while a change committed is not kept: it may show
// what was there before.
func TestPageCacheDropsWhatAChangeOvertook(t *testing.T) {
	c, h, _ := newTestCache(t, 0)
	r := httptest.NewRequest(http.MethodGet, "/s/o/p", nil)
	w, _ := c.lookup(httptest.NewRecorder(), r, "")
	h.Forget()
	respond(w, r, http.StatusOK, "text/plain", []byte("old"), true)
	if _, cached := ask(c, "/s/o/p", []byte("new")); cached {
		t.Fatal("kept an answer rendered before a change")
	}
}

// The cache holds at most its bytes, dropping the least recently used
// page, and never an answer it may not keep.
func TestPageCacheBounds(t *testing.T) {
	page := bytes.Repeat([]byte{'x'}, 10_000) // gzips small
	size := (&keptPage{key: " " + "  " + "/s/o/1", body: page}).size()
	c, _, _ := newTestCache(t, 3*size+size/2)
	for _, p := range []string{"/s/o/1", "/s/o/2", "/s/o/3"} {
		ask(c, p, page)
	}
	ask(c, "/s/o/1", page) // used again: now the most recent
	ask(c, "/s/o/4", page) // pushes out the least recently used, 2
	for _, p := range []string{"/s/o/1", "/s/o/3", "/s/o/4"} {
		if _, cached := ask(c, p, page); !cached {
			t.Errorf("%s was not kept", p)
		}
	}
	if _, cached := ask(c, "/s/o/2", page); cached {
		t.Errorf("the least recently used page was kept past the bound")
	}
	if c.bytes > c.maxBytes {
		t.Errorf("%d bytes kept, at most %d", c.bytes, c.maxBytes)
	}
	if _, cached := ask(c, "/s/o/huge", make([]byte, maxKeptPage+1)); cached {
		t.Fatal("served from an empty cache")
	}
	if _, cached := ask(c, "/s/o/huge", nil); cached {
		t.Errorf("an answer over %d bytes was kept", maxKeptPage)
	}
	// Answers not for shared caches, and errors, are not kept.
	r := httptest.NewRequest(http.MethodGet, "/s/o/private", nil)
	w, _ := c.lookup(httptest.NewRecorder(), r, "")
	respond(w, r, http.StatusOK, "text/html", page, false)
	if _, cached := ask(c, "/s/o/private", page); cached {
		t.Errorf("a private answer was kept")
	}
}
