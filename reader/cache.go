package reader

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"quire/internal/db"
	"quire/reader/view"
)

// The page cache. A page of a public or unlisted site is the same for
// every reader who asks for it by the same address without a query or a
// visitor's token, so the door keeps what it answered and serves it again
// without reading the database or rendering, until anything it shows may
// have changed:
//
//   - Every write the engines make through ent is announced as a content
//     change (db.Content), except those of entities no page shows (jobs,
//     rate-limit windows, comments, change requests before their merge:
//     see internal/db/content.go). Each one, committed by this process or
//     by any other sharing the PostgreSQL database, makes every kept page
//     stale (db.Hearing).
//   - While the notification connection to PostgreSQL is down, and until
//     it is first up, nothing is kept or served from the cache.
//   - A page is kept at most PageTTL, which bounds what changes with time
//     alone (the download links in a page expire after an hour) and a
//     write by another process on SQLite (an administration command).
//
// Kept: answers of 200 to GET and HEAD requests of a public or unlisted
// site's pages and files (sitemap, robots, agents' files, theme), keyed by
// the scheme and proxy's X-Forwarded-Proto, custom hostname (none for
// Quire's own host), path and the theme the reader chose. Not kept: anything with a query (search, unsigned
// claims), a visitor's token, share links, previews, errors.
const (
	// PageTTL is how long a page is kept at most.
	PageTTL = time.Minute
	// DefaultPageCacheBytes bounds the kept pages (bodies, plain and
	// gzipped), least recently used dropped first.
	DefaultPageCacheBytes = 64 << 20
	// maxKeptPage is the largest answer kept: a larger one would push out
	// many pages for itself.
	maxKeptPage = 4 << 20
)

// PageCache keeps rendered pages (see above). A nil *PageCache keeps
// nothing. It is safe for concurrent use.
type PageCache struct {
	changes  *db.Hearing
	maxBytes int64
	now      func() time.Time

	mu    sync.Mutex
	m     map[string]*list.Element // of *keptPage
	lru   list.List                // most recently used first
	bytes int64

	hits, misses atomic.Uint64
	// counted, when set, is told each hit (true) and miss.
	counted func(hit bool)
}

// keptPage is an answer as kept.
type keptPage struct {
	key     string
	gen     uint64
	expires time.Time
	// header holds what respond set: Content-Type, Cache-Control, Vary,
	// ETag, X-Robots-Tag.
	header http.Header
	etag   string
	body   []byte
	// gz is body gzipped, nil when too small to be worth it.
	gz []byte
}

func (p *keptPage) size() int64 { return int64(len(p.body) + len(p.gz) + len(p.key) + 256) }

// NewPageCache returns a cache of at most maxBytes (DefaultPageCacheBytes
// when zero; nil, keeping nothing, when negative) that forgets its pages
// on every content change changes hears.
func NewPageCache(changes *db.Hearing, maxBytes int64, counted func(hit bool)) *PageCache {
	if maxBytes < 0 || changes == nil {
		return nil
	}
	if maxBytes == 0 {
		maxBytes = DefaultPageCacheBytes
	}
	return &PageCache{changes: changes, maxBytes: maxBytes, now: time.Now, m: map[string]*list.Element{}, counted: counted}
}

// Stats are how many kept answers were served and how many requests that
// could have been served so were not.
func (c *PageCache) Stats() (hits, misses uint64) {
	if c == nil {
		return 0, 0
	}
	return c.hits.Load(), c.misses.Load()
}

// cacheKey is the key of a request whose answer may be kept, or "" when
// it may not: not a GET or HEAD, a query, a visitor's token. host is the
// custom hostname the request is for ("" on Quire's own host).
func cacheKey(r *http.Request, host string) string {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return ""
	}
	if r.URL.RawQuery != "" || r.URL.ForceQuery {
		return ""
	}
	if _, err := r.Cookie(VisitorCookie); err == nil {
		return ""
	}
	theme := ""
	if c, err := r.Cookie(view.ThemeCookie); err == nil && (c.Value == "light" || c.Value == "dark") {
		theme = c.Value
	}
	// The scheme links are made with: the connection's, and the proxy's
	// word for it (kept verbatim: the door reads it).
	proto := r.Header.Get("X-Forwarded-Proto")
	if len(proto) > 8 {
		return ""
	}
	if r.TLS != nil {
		proto += "+tls"
	}
	return proto + " " + host + " " + theme + " " + r.URL.Path
}

// serve answers r from the cache when it keeps key in the current
// generation, and reports whether it did.
func (c *PageCache) serve(w http.ResponseWriter, r *http.Request, key string) bool {
	gen, ok := c.changes.Generation()
	if !ok {
		return false
	}
	now := c.now()
	c.mu.Lock()
	el := c.m[key]
	var p *keptPage
	if el != nil {
		p = el.Value.(*keptPage)
		if p.gen != gen || !now.Before(p.expires) {
			c.drop(el)
			p = nil
		} else {
			c.lru.MoveToFront(el)
		}
	}
	c.mu.Unlock()
	if c.counted != nil {
		c.counted(p != nil)
	}
	if p == nil {
		c.misses.Add(1)
		return false
	}
	c.hits.Add(1)
	h := w.Header()
	for k, v := range p.header {
		h[k] = v
	}
	if matches(r.Header.Get("If-None-Match"), p.etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	body := p.body
	if p.gz != nil && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = p.gz
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body) //nolint:errcheck // the reader went away: nothing to do
	}
	return true
}

// drop removes a kept page; c.mu is held.
func (c *PageCache) drop(el *list.Element) {
	p := el.Value.(*keptPage)
	c.lru.Remove(el)
	delete(c.m, p.key)
	c.bytes -= p.size()
}

// keep stores an answer read in generation gen.
func (c *PageCache) keep(key string, gen uint64, header http.Header, body []byte) {
	if len(body) > maxKeptPage {
		return
	}
	p := &keptPage{key: key, gen: gen, expires: c.now().Add(PageTTL), header: http.Header{}, body: bytes.Clone(body)}
	for _, k := range []string{"Content-Type", "Cache-Control", "Vary", "ETag", "X-Robots-Tag"} {
		if v := header.Values(k); len(v) > 0 {
			p.header[k] = slices.Clip(slices.Clone(v)) // shared by every answer: appends copy
		}
	}
	p.etag = header.Get("ETag")
	if len(body) > gzipFrom {
		// Compressed once for every reader who accepts it, so at a
		// better level than an answer compressed for one reader.
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
		zw.Write(body) //nolint:errcheck // writes to memory
		zw.Close()     //nolint:errcheck // idem
		p.gz = b.Bytes()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if now, ok := c.changes.Generation(); !ok || now != gen {
		return // changed while rendering: stale already
	}
	if el := c.m[key]; el != nil {
		c.drop(el)
	}
	c.m[key] = c.lru.PushFront(p)
	c.bytes += p.size()
	for c.bytes > c.maxBytes && c.lru.Len() > 0 {
		c.drop(c.lru.Back())
	}
}

// keeper is the response writer of a request whose answer may be kept:
// respond hands it the answer when the answer may be kept.
type keeper struct {
	http.ResponseWriter
	cache *PageCache
	key   string
	gen   uint64
}

// Unwrap lets http.ResponseController reach the writer below.
func (k *keeper) Unwrap() http.ResponseWriter { return k.ResponseWriter }

// keepAnswer keeps an answer about to be written to w, when w is a
// keeper and the answer may be kept: a 200 of a site readers may cache
// in shared caches (public and unlisted).
func keepAnswer(w http.ResponseWriter, status int, body []byte, public bool) {
	k, ok := w.(*keeper)
	if !ok || status != http.StatusOK || !public {
		return
	}
	k.cache.keep(k.key, k.gen, w.Header(), body)
}

// lookup serves r from the cache, or returns the writer to render into:
// a keeper when the answer may be kept. done reports that r was served.
func (c *PageCache) lookup(w http.ResponseWriter, r *http.Request, host string) (out http.ResponseWriter, done bool) {
	if c == nil {
		return w, false
	}
	key := cacheKey(r, host)
	if key == "" {
		return w, false
	}
	// The generation is read before anything is: a change committed
	// while rendering makes what is rendered stale.
	gen, ok := c.changes.Generation()
	if !ok {
		return w, false
	}
	if c.serve(w, r, key) {
		return w, true
	}
	return &keeper{ResponseWriter: w, cache: c, key: key, gen: gen}, false
}

// hostKey is the custom hostname part of a cache key: "" on Quire's own
// host, whatever name it was reached by (pages there do not depend on it).
func hostKey(custom bool, host string) string {
	if !custom {
		return ""
	}
	return host
}
