package view

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed assets
var assetFS embed.FS

// asset is one embedded file as served.
type asset struct {
	body  []byte
	ctype string
}

var (
	// hashedNames maps a logical name ("reader.css") to its served name
	// ("reader-3f2a9c81d0e4b5a6.css").
	hashedNames = map[string]string{}
	// served maps a served name to its file.
	served = map[string]asset{}
)

// contentTypes are the types of the files the assets directory may hold;
// another extension fails at init, so an asset is never served untyped.
var contentTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".svg": "image/svg+xml",
	".png": "image/png",
	".ico": "image/x-icon",
}

func init() {
	err := fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		ext := path.Ext(p)
		ctype, ok := contentTypes[ext]
		if !ok {
			return fmt.Errorf("view: asset %s has no known content type", p)
		}
		// The hash is in the name so that the files can be cached for a
		// year: a new binary with changed assets links new names.
		sum := sha256.Sum256(body)
		logical := strings.TrimPrefix(p, "assets/")
		name := strings.TrimSuffix(logical, ext) + "-" + hex.EncodeToString(sum[:8]) + ext
		hashedNames[logical] = name
		served[name] = asset{body: body, ctype: ctype}
		return nil
	})
	if err != nil {
		panic(err)
	}
}

// AssetName is the served (hashed) name of an embedded asset, such as
// "reader.css" or "favicon.svg"; pages link AssetBase + AssetName. It is ""
// for a name that is not embedded.
func AssetName(logical string) string {
	return hashedNames[logical]
}

// Assets serves the embedded assets by their hashed names, relative to
// where the door mounts it (use http.StripPrefix with the AssetBase path).
// Any other name is a 404.
func Assets() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := served[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveAsset(w, r, a)
	})
}

// serveAsset answers GET and HEAD with a, cacheable for a year: its name
// changes with its content.
func serveAsset(w http.ResponseWriter, r *http.Request, a asset) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	// ServeContent adds Content-Length, ranges and HEAD; with no
	// modification time it sends no Last-Modified.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}
