// Package gittest serves Git repositories over the smart HTTP protocol,
// with HTTP basic authentication, for tests: go-git's server side of the
// protocol (upload-pack and receive-pack) behind a handler bound to
// 127.0.0.1. It also writes and reads commits of bare repositories
// directly, so that tests need no git program.
package gittest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Server serves the bare repositories of a directory: <URL>/<name>.
type Server struct {
	URL            string
	User, Password string
	Dir            string

	srv  transport.Transport
	mu   sync.Mutex
	hits map[string]int // requests by path
	// unavailable is how many requests to answer 503 before serving.
	unavailable int
}

// Unavailable makes the server answer the next n requests with 503
// Service Unavailable, as a server that is down for a while.
func (s *Server) Unavailable(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unavailable = n
}

// New starts a server for the test (stopped when it ends) whose every
// request needs user and password.
func New(t testing.TB, user, password string) *Server {
	t.Helper()
	s := &Server{User: user, Password: password, Dir: t.TempDir(), hits: map[string]int{}}
	s.srv = server.NewServer(server.NewFilesystemLoader(osfs.New(s.Dir)))
	hs := httptest.NewServer(s) // binds 127.0.0.1
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// Repo creates an empty bare repository and returns its URL (without
// credentials).
func (s *Server) Repo(t testing.TB, name string) string {
	t.Helper()
	Init(t, filepath.Join(s.Dir, name))
	return s.URL + "/" + name
}

// RepoDir is the directory of a repository of the server.
func (s *Server) RepoDir(name string) string { return filepath.Join(s.Dir, name) }

// WithCredentials returns the URL of a repository with the server's
// credentials in it.
func (s *Server) WithCredentials(name string) string {
	return strings.Replace(s.URL, "http://", "http://"+s.User+":"+s.Password+"@", 1) + "/" + name
}

// Hits counts the requests made to paths ending in suffix.
func (s *Server) Hits(suffix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p, c := range s.hits {
		if strings.HasSuffix(p, suffix) {
			n += c
		}
	}
	return n
}

// ServeHTTP serves GET <repo>/info/refs?service=..., POST
// <repo>/git-upload-pack and POST <repo>/git-receive-pack.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	down := s.unavailable > 0
	if down {
		s.unavailable--
	}
	s.mu.Unlock()
	if down {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	if u, p, ok := r.BasicAuth(); s.User != "" && (!ok || u != s.User || p != s.Password) {
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		http.Error(w, "authentication required", http.StatusUnauthorized)
		return
	}
	var repo, service string
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/info/refs"):
		repo, service = strings.TrimSuffix(r.URL.Path, "/info/refs"), r.URL.Query().Get("service")
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack"):
		repo, service = strings.TrimSuffix(r.URL.Path, "/git-upload-pack"), transport.UploadPackServiceName
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-receive-pack"):
		repo, service = strings.TrimSuffix(r.URL.Path, "/git-receive-pack"), transport.ReceivePackServiceName
	default:
		http.NotFound(w, r)
		return
	}
	if strings.Contains(repo, "..") {
		http.NotFound(w, r)
		return
	}
	if _, err := os.Stat(filepath.Join(s.Dir, filepath.FromSlash(repo), "config")); err != nil {
		http.NotFound(w, r)
		return
	}
	ep := &transport.Endpoint{Protocol: "file", Path: repo}
	if r.Method == http.MethodGet {
		s.advertise(w, r, ep, service)
		return
	}
	switch service {
	case transport.UploadPackServiceName:
		s.uploadPack(w, r, ep)
	default:
		s.receivePack(w, r, ep)
	}
}

func (s *Server) advertise(w http.ResponseWriter, r *http.Request, ep *transport.Endpoint, service string) {
	var ar *packp.AdvRefs
	var err error
	switch service {
	case transport.UploadPackServiceName:
		sess, serr := s.srv.NewUploadPackSession(ep, nil)
		if serr != nil {
			http.Error(w, serr.Error(), http.StatusInternalServerError)
			return
		}
		ar, err = sess.AdvertisedReferencesContext(r.Context())
	case transport.ReceivePackServiceName:
		sess, serr := s.srv.NewReceivePackSession(ep, nil)
		if serr != nil {
			http.Error(w, serr.Error(), http.StatusInternalServerError)
			return
		}
		ar, err = sess.AdvertisedReferencesContext(r.Context())
	default:
		http.Error(w, "unknown service", http.StatusForbidden)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/x-"+service+"-advertisement")
	w.Header().Set("Cache-Control", "no-cache")
	e := pktline.NewEncoder(w)
	_ = e.EncodeString("# service=" + service + "\n")
	_ = e.Flush()
	_ = ar.Encode(w)
}

func (s *Server) uploadPack(w http.ResponseWriter, r *http.Request, ep *transport.Endpoint) {
	req := packp.NewUploadPackRequest()
	if err := req.UploadRequest.Decode(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// Then "have" lines, up to "done".
	sc := pktline.NewScanner(r.Body)
	for sc.Scan() {
		line := strings.TrimSpace(string(sc.Bytes()))
		if h, ok := strings.CutPrefix(line, "have "); ok {
			req.Haves = append(req.Haves, plumbing.NewHash(h))
		}
		if line == "done" {
			break
		}
	}
	sess, err := s.srv.NewUploadPackSession(ep, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := sess.UploadPack(r.Context(), req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
	_ = resp.Encode(w)
}

func (s *Server) receivePack(w http.ResponseWriter, r *http.Request, ep *transport.Endpoint) {
	req := packp.NewReferenceUpdateRequest()
	if err := req.Decode(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sess, err := s.srv.NewReceivePackSession(ep, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	rs, err := sess.ReceivePack(r.Context(), req)
	w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
	if rs != nil {
		_ = rs.Encode(w)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// Init creates an empty bare repository in dir.
func Init(t testing.TB, dir string) {
	t.Helper()
	if _, err := git.PlainInit(dir, true); err != nil {
		t.Fatalf("init %s: %v", dir, err)
	}
}

func storage(dir string) *filesystem.Storage {
	return filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRUDefault())
}

// Author signs the commits Commit writes.
var Author = object.Signature{Name: "Ada Writer", Email: "ada@example.test", When: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}

// Commit writes a commit on branch of the bare repository dir, on top of
// its head: files (path → content) are written, and paths whose content
// is nil are removed. It returns the commit's hash.
func Commit(t testing.TB, dir, branch string, files map[string][]byte, message string) string {
	t.Helper()
	st := storage(dir)
	all := map[string]object.TreeEntry{}
	var parents []plumbing.Hash
	ref := plumbing.NewBranchReferenceName(branch)
	if head, err := st.Reference(ref); err == nil {
		c, err := object.GetCommit(st, head.Hash())
		if err != nil {
			t.Fatal(err)
		}
		parents = []plumbing.Hash{c.Hash}
		tree, err := c.Tree()
		if err != nil {
			t.Fatal(err)
		}
		err = tree.Files().ForEach(func(f *object.File) error {
			all[f.Name] = object.TreeEntry{Name: path.Base(f.Name), Mode: f.Mode, Hash: f.Hash}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for p, data := range files {
		if data == nil {
			delete(all, p)
			continue
		}
		obj := st.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		wr, _ := obj.Writer()
		_, _ = wr.Write(data)
		_ = wr.Close()
		h, err := st.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		all[p] = object.TreeEntry{Name: path.Base(p), Mode: filemode.Regular, Hash: h}
	}
	top := writeTree(t, st, all, "")
	c := &object.Commit{Author: Author, Committer: Author, Message: message, TreeHash: top, ParentHashes: parents}
	obj := st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetReference(plumbing.NewHashReference(ref, h)); err != nil {
		t.Fatal(err)
	}
	if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref)); err != nil {
		t.Fatal(err)
	}
	return h.String()
}

// writeTree writes the tree of the files under dir.
func writeTree(t testing.TB, st *filesystem.Storage, all map[string]object.TreeEntry, dir string) plumbing.Hash {
	var entries []object.TreeEntry
	subdirs := map[string]bool{}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for p, e := range all {
		rel, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		if first, _, nested := strings.Cut(rel, "/"); nested {
			subdirs[first] = true
		} else {
			entries = append(entries, e)
		}
	}
	for sub := range subdirs {
		entries = append(entries, object.TreeEntry{Name: sub, Mode: filemode.Dir, Hash: writeTree(t, st, all, path.Join(dir, sub))})
	}
	sort.Slice(entries, func(i, j int) bool { return sortName(entries[i]) < sortName(entries[j]) })
	obj := st.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func sortName(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// Dir reads the files of a directory (for CommitDir), by slash path.
func Dir(t testing.TB, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Head returns the commit at the head of branch.
func Head(t testing.TB, dir, branch string) *object.Commit {
	t.Helper()
	st := storage(dir)
	ref, err := st.Reference(plumbing.NewBranchReferenceName(branch))
	if err != nil {
		t.Fatalf("branch %s of %s: %v", branch, dir, err)
	}
	c, err := object.GetCommit(st, ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Files reads every file of the head of branch, by path.
func Files(t testing.TB, dir, branch string) map[string][]byte {
	t.Helper()
	tree, err := Head(t, dir, branch).Tree()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	err = tree.Files().ForEach(func(f *object.File) error {
		r, err := f.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		var b bytes.Buffer
		if _, err := io.Copy(&b, r); err != nil {
			return err
		}
		out[f.Name] = b.Bytes()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
