package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"

	"quire/internal/jobs"
	"quire/internal/netpolicy"
)

// Errors that retrying cannot fix.
var (
	errTooLarge   = errors.New("the repository is larger than this server accepts")
	errRefMissing = errors.New("the ref does not exist in the repository")
	errMoved      = errors.New("the branch moved while the export was prepared")
)

// budget counts the bytes a session reads from the network.
type budget struct {
	limit    int64
	used     atomic.Int64
	exceeded atomic.Bool
}

func (b *budget) add(n int) error {
	if b.used.Add(int64(n)) > b.limit {
		b.exceeded.Store(true)
		return errTooLarge
	}
	return nil
}

// countingTransport bounds what HTTP responses may carry.
type countingTransport struct {
	base http.RoundTripper
	b    *budget
}

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.Body != nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, b: t.b}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	b *budget
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if berr := c.b.add(n); berr != nil {
		return n, berr
	}
	return n, err
}

// session is a connection to a remote repository for one operation.
type session struct {
	r    *remote
	tr   transport.Transport
	ep   *transport.Endpoint
	auth transport.AuthMethod
	b    *budget
	log  *slog.Logger
}

// open prepares a session with r; what it reads is bounded by lim. HTTP
// connections follow the address policy (Config.AllowPrivate) on every
// address dialled, redirects included, and the timeouts of Config.
func (s *Service) open(r *remote, lim Limits) (*session, error) {
	ss := &session{r: r, b: &budget{limit: lim.PackBytes + 16<<20}, log: s.cfg.Log}
	switch r.scheme {
	case "file":
		ss.tr = boundedLocal(dirLoader(r.dir), lim)
		ss.ep = &transport.Endpoint{Protocol: "file", Path: r.dir}
		return ss, nil
	case "http", "https":
		to := s.cfg.Timeouts
		dialer := netpolicy.Dialer(s.cfg.AllowPrivate, to.Connect)
		if dialer.Control != nil && s.dialControl != nil {
			dialer.Control = s.dialControl
		}
		base := &http.Transport{
			// Never a proxy from the environment: the address policy
			// would then see the proxy's address, not the repository's.
			Proxy: nil,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := dialer.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return &idleConn{Conn: c, idle: to.Idle}, nil
			},
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    to.Connect,
			ResponseHeaderTimeout:  to.Answer,
			MaxResponseHeaderBytes: 64 << 10,
			IdleConnTimeout:        30 * time.Second,
		}
		ss.tr = githttp.NewClient(&http.Client{Transport: countingTransport{base: base, b: ss.b}})
		ep, err := transport.NewEndpoint(r.display)
		if err != nil {
			return nil, fmt.Errorf("repository URL: %w", err)
		}
		ss.ep = ep
		if r.user != "" || r.password != "" {
			ss.auth = &githttp.BasicAuth{Username: r.user, Password: r.password}
		}
		return ss, nil
	}
	// parseRemote takes no other scheme; one that got here anyway is
	// refused rather than reached without the address policy.
	return nil, jobs.Permanent(fmt.Errorf("url: the scheme %q is not supported", r.scheme))
}

// idleConn bounds every read and write of a connection by the idle
// timeout: a server that accepts a connection and then stays silent (or
// stops reading) fails the attempt instead of holding it until the
// attempt's own deadline.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.idle)); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

func (c *idleConn) Write(p []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(time.Now().Add(c.idle)); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

// dirLoader serves the repository in one directory (bare, or a working
// tree's .git) to the in-process Git server that reads file:// URLs, so
// that no git program runs.
type dirLoader string

func (d dirLoader) Load(*transport.Endpoint) (storer.Storer, error) {
	dir := string(d)
	if _, err := os.Stat(filepath.Join(dir, "config")); err != nil {
		dir = filepath.Join(dir, ".git")
		if _, err := os.Stat(filepath.Join(dir, "config")); err != nil {
			return nil, transport.ErrRepositoryNotFound
		}
	}
	return filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRUDefault()), nil
}

// snapshot is the head commit of a branch with its tree's objects, in
// memory. commit is nil when the branch does not exist (yet).
type snapshot struct {
	store  *memory.Storage
	commit *object.Commit
}

// fetch reads the head commit of ref and its tree, shallow when the
// server allows. A missing ref (or an empty repository) is errRefMissing
// unless missingOK, when it gives an empty snapshot.
func (s *session) fetch(ctx context.Context, ref string, lim Limits, missingOK bool) (*snapshot, error) {
	snap := &snapshot{store: memory.NewStorage()}
	sess, err := s.tr.NewUploadPackSession(s.ep, s.auth)
	if err != nil {
		return nil, s.fail(err, false)
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		if missingOK {
			return snap, nil
		}
		return nil, fmt.Errorf("%w: the repository is empty", errRefMissing)
	}
	if err != nil {
		return nil, s.fail(err, false)
	}
	refs, err := ar.AllReferences()
	if err != nil {
		return nil, err
	}
	head, err := refs.Reference(plumbing.ReferenceName(ref))
	if errors.Is(err, plumbing.ErrReferenceNotFound) || (err == nil && head.Type() != plumbing.HashReference) {
		if missingOK {
			return snap, nil
		}
		return nil, fmt.Errorf("%w: %s", errRefMissing, ref)
	}
	if err != nil {
		return nil, err
	}
	req := packp.NewUploadPackRequestFromCapabilities(ar.Capabilities)
	// Nothing is stored here beforehand: a thin pack could not be read.
	req.Capabilities.Delete(capability.ThinPack)
	req.Wants = []plumbing.Hash{head.Hash()}
	if ar.Capabilities.Supports(capability.Shallow) {
		if err := req.Capabilities.Set(capability.Shallow); err != nil {
			return nil, err
		}
		req.Depth = packp.DepthCommits(1)
	}
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		return nil, s.fail(err, false)
	}
	defer resp.Close()
	var rd io.Reader = resp
	switch {
	case req.Capabilities.Supports(capability.Sideband64k):
		rd = sideband.NewDemuxer(sideband.Sideband64k, resp)
	case req.Capabilities.Supports(capability.Sideband):
		rd = sideband.NewDemuxer(sideband.Sideband, resp)
	}
	pack, err := readPack(rd, lim)
	if err != nil {
		return nil, s.fail(err, true)
	}
	if err := packfile.UpdateObjectStorage(snap.store, bytes.NewReader(pack)); err != nil {
		return nil, fmt.Errorf("read the repository's objects: %w", err)
	}
	if snap.commit, err = object.GetCommit(snap.store, head.Hash()); err != nil {
		return nil, fmt.Errorf("read commit %s: %w", head.Hash(), err)
	}
	return snap, nil
}

// push sends the objects hashes (in store) and moves ref from old (zero:
// the branch is created) to next. errMoved when the branch is no longer
// at old.
func (s *session) push(ctx context.Context, ref string, old, next plumbing.Hash, store *memory.Storage, hashes []plumbing.Hash) error {
	sess, err := s.tr.NewReceivePackSession(s.ep, s.auth)
	if err != nil {
		return s.fail(err, false)
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return s.fail(err, false)
	}
	cur := plumbing.ZeroHash
	if ar != nil {
		refs, err := ar.AllReferences()
		if err != nil {
			return err
		}
		if h, err := refs.Reference(plumbing.ReferenceName(ref)); err == nil {
			cur = h.Hash()
		}
	} else {
		ar = packp.NewAdvRefs()
	}
	if cur != old {
		return errMoved
	}
	req := packp.NewReferenceUpdateRequestFromCapabilities(ar.Capabilities)
	req.Commands = []*packp.Command{{Name: plumbing.ReferenceName(ref), Old: old, New: next}}
	rd, wr := io.Pipe()
	req.Packfile = rd
	done := make(chan error, 1)
	go func() {
		_, err := packfile.NewEncoder(wr, store, false).Encode(hashes, 10)
		done <- wr.CloseWithError(err)
	}()
	rs, err := sess.ReceivePack(ctx, req)
	_ = rd.Close()
	eerr := <-done
	if rs != nil {
		if rerr := rs.Error(); rerr != nil {
			// A Git server's report of its refusal (a hook, a protected
			// branch), in a bounded line.
			return fmt.Errorf("the repository refused the push: %s", remoteText(rerr.Error()))
		}
	}
	if err != nil {
		// The server has answered as a Git server already: a failure now
		// is one of the transfer.
		return s.fail(err, true)
	}
	if eerr != nil {
		return eerr
	}
	return nil
}
