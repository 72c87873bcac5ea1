package graphiql

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// AssetsPrefix is the URL path under which AssetsHandler serves the bundle.
const AssetsPrefix = "/graphiql/assets/"

// ContentSecurityPolicy is sent with the page: it may load scripts, styles
// and data only from its own origin (fonts are inlined as data: URLs).
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"font-src 'self' data:; img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed index.html
var indexHTML string

//go:embed assets
var assetsFS embed.FS

var page = template.Must(template.New("index.html").Parse(indexHTML))

type asset struct {
	name        string
	data        []byte
	hash        string // first 16 hex digits of the SHA-256 of data
	contentType string
	compress    bool

	gzOnce sync.Once
	gz     []byte
}

var assets = loadAssets()

func loadAssets() map[string]*asset {
	m := map[string]*asset{}
	entries, err := fs.ReadDir(assetsFS, "assets")
	if err != nil {
		panic("graphiql: embedded assets: " + err.Error())
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := assetsFS.ReadFile("assets/" + e.Name())
		if err != nil {
			panic("graphiql: embedded assets: " + err.Error())
		}
		sum := sha256.Sum256(data)
		ct, compress := contentType(e.Name())
		m[e.Name()] = &asset{name: e.Name(), data: data, hash: hex.EncodeToString(sum[:8]), contentType: ct, compress: compress}
	}
	return m
}

func contentType(name string) (ct string, compressible bool) {
	switch ext := path.Ext(name); ext {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8", true
	case ".css":
		return "text/css; charset=utf-8", true
	case ".txt":
		return "text/plain; charset=utf-8", true
	case ".json", ".map":
		return "application/json", true
	case ".svg":
		return "image/svg+xml", true
	case ".woff2":
		return "font/woff2", false
	default:
		if ct := mime.TypeByExtension(ext); ct != "" {
			return ct, strings.HasPrefix(ct, "text/")
		}
		return "application/octet-stream", false
	}
}

// AssetNames lists the embedded asset files, sorted.
func AssetNames() []string {
	names := make([]string, 0, len(assets))
	for n := range assets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// AssetURL is the versioned URL of an embedded asset: the version query
// changes with its content, so the URL may be cached for good.
func AssetURL(name string) string {
	a, ok := assets[name]
	if !ok {
		return AssetsPrefix + name
	}
	return AssetsPrefix + name + "?v=" + a.hash
}

// WantsHTML reports whether r is a browser asking for a page: a GET whose
// Accept header names text/html (with a non-zero quality). API clients,
// which send application/json or */*, are not.
func WantsHTML(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, params, _ := strings.Cut(part, ";")
			if !strings.EqualFold(strings.TrimSpace(mt), "text/html") {
				continue
			}
			if q, ok := quality(params); ok && q > 0 {
				return true
			}
		}
	}
	return false
}

// quality returns the q parameter of a media range's parameters (1 when
// absent); ok is false when q is malformed.
func quality(params string) (float64, bool) {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return q, err == nil
		}
	}
	return 1, true
}

type pageData struct {
	Title    string
	Endpoint string
	CSS      string
	JS       string
}

// Handler serves the GraphiQL page at the request's path; the page sends
// its GraphQL requests to that same path. It needs no token: the user types
// one into the page, which sends it with each request.
func Handler(title string) http.Handler {
	if title == "" {
		title = "GraphiQL"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		var buf bytes.Buffer
		if err := page.Execute(&buf, pageData{Title: title, Endpoint: r.URL.Path, CSS: AssetURL("graphiql.css"), JS: AssetURL("graphiql.js")}); err != nil {
			http.Error(w, "could not render the page", http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Add("Vary", "Accept")
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Length", strconv.Itoa(buf.Len()))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(buf.Bytes())
		}
	})
}

// Middleware serves the page (Handler(title)) to browsers, as WantsHTML
// tells them apart, and passes every other request to api. Put it in front
// of the endpoint's authentication: the page needs no token.
func Middleware(title string, api http.Handler) http.Handler {
	page := Handler(title)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if WantsHTML(r) {
			page.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// AssetsHandler serves the embedded bundle under AssetsPrefix; mount it
// there (it strips the prefix itself). A request carrying the asset's
// current version (?v=, as AssetURL writes it) may be cached for a year;
// others must revalidate against the ETag. Text assets are gzipped for
// clients that accept it.
func AssetsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := strings.CutPrefix(r.URL.Path, AssetsPrefix)
		a := assets[name]
		if !ok || a == nil {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("X-Content-Type-Options", "nosniff")
		if v := r.URL.Query().Get("v"); v != "" && v == a.hash {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "public, no-cache")
		}
		data, etag := a.data, `"`+a.hash+`"`
		if a.compress {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) {
				data, etag = a.gzipped(), `"`+a.hash+`-gz"`
				h.Set("Content-Encoding", "gzip")
			}
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, a.name, time.Time{}, bytes.NewReader(data))
	})
}

func (a *asset) gzipped() []byte {
	a.gzOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(a.data)
		_ = zw.Close()
		a.gz = buf.Bytes()
	})
	return a.gz
}

func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			enc, params, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(enc), "gzip") {
				if q, ok := quality(params); ok && q > 0 {
					return true
				}
			}
		}
	}
	return false
}
