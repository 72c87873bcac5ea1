package benchkit

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/net/html"

	"quire/internal/testing/testclient"
)

// Crawl saves what a Quire server (base) answers for the page paths into
// dir, as a static copy of the site: each page as <path>/index.html, and
// each asset a page links on the same server (stylesheets, the theme's
// CSS, scripts, icons) at its path. It asks for the answers uncompressed
// and returns the bytes written.
func Crawl(ctx context.Context, base, dir string, paths []string) (int64, error) {
	c := &testclient.Client{Base: base, HTTP: &http.Client{Timeout: 30 * time.Second}}
	get := func(p string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		resp, err := c.Send(ctx, "GET", p, nil)
		if err != nil {
			return nil, err
		}
		if resp.Status != http.StatusOK {
			return nil, fmt.Errorf("GET %s: status %d", p, resp.Status)
		}
		return resp.Body, nil
	}
	var total int64
	save := func(rel string, b []byte) error {
		f := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+rel)))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		total += int64(len(b))
		return os.WriteFile(f, b, 0o644)
	}
	assets := map[string]bool{}
	for _, p := range paths {
		b, err := get(p)
		if err != nil {
			return total, err
		}
		if err := save(p+"/index.html", b); err != nil {
			return total, err
		}
		for _, a := range linkedAssets(b, base) {
			assets[a] = true
		}
	}
	for a := range assets {
		b, err := get(a)
		if err != nil {
			return total, fmt.Errorf("asset: %w", err)
		}
		if err := save(a, b); err != nil {
			return total, err
		}
	}
	return total, nil
}

// linkedAssets are the paths of the stylesheets, icons and scripts a page
// links on the server at base (the query, a cache buster, dropped).
func linkedAssets(page []byte, base string) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			attr := map[string]string{}
			for _, a := range t.Attr {
				attr[a.Key] = a.Val
			}
			ref := ""
			switch {
			case t.Data == "link" && (strings.Contains(attr["rel"], "stylesheet") || strings.Contains(attr["rel"], "icon")):
				ref = attr["href"]
			case t.Data == "script":
				ref = attr["src"]
			}
			if ref == "" {
				continue
			}
			u, err := b.Parse(ref)
			if err != nil || u.Host != b.Host {
				continue
			}
			out = append(out, u.Path)
		}
	}
}

// StaticServer serves dir with Go's http.FileServer on a loopback port:
// a path without an extension is served the index.html of its directory
// at the same URL (without the FileServer's redirect to the path with a
// trailing slash), so that the copy Crawl made answers at Quire's paths.
// It does not compress. Close stops it.
type StaticServer struct {
	Base string
	srv  *http.Server
}

func NewStaticServer(dir string) (*StaticServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	fs := http.FileServer(http.Dir(dir))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; !strings.HasSuffix(p, "/") && !strings.Contains(path.Base(p), ".") {
			r.URL.Path = p + "/"
		}
		fs.ServeHTTP(w, r)
	})
	s := &StaticServer{Base: "http://" + ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *StaticServer) Close() error { return s.srv.Close() }
