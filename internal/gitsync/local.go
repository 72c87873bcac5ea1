package gitsync

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// localCacheBytes bounds go-git's cache of the objects of a local
// repository read for one download (its default is 96 MiB); larger
// objects are not cached at all.
const localCacheBytes = 8 << 20

// maxDeltaChain bounds the deltas followed to an object's first base
// (Git makes chains of at most 50).
const maxDeltaChain = 100

// boundedLocal is the transport of file:// repositories: go-git's
// in-process server, whose uploads are held to lim. That server packs
// what it sends anew, reading every object whole into memory (a 300 MB
// blob of zeros, 300 KB on disk, took 1.5 GB), so the limits on unpacked
// sizes are enforced there, from the objects' headers, before it reads
// any of them; the client then checks the pack it receives as it checks
// any other. Pushes go to the repository unchanged.
func boundedLocal(l server.Loader, lim Limits) transport.Transport {
	return localTransport{up: server.NewClient(boundedLoader{Loader: l, lim: lim}), Transport: server.NewClient(l)}
}

type localTransport struct {
	transport.Transport
	up transport.Transport
}

func (t localTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	return t.up.NewUploadPackSession(ep, auth)
}

// boundedLoader loads a repository as a boundedStorer.
type boundedLoader struct {
	server.Loader
	lim Limits
}

func (l boundedLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	st, err := l.Loader.Load(ep)
	if err != nil {
		return nil, err
	}
	b := &boundedStorer{Storer: st, lim: l.lim, seen: map[plumbing.Hash]bool{}}
	if fst, ok := st.(*filesystem.Storage); ok {
		fs := fst.Filesystem()
		b.Storer = filesystem.NewStorage(fs, cache.NewObjectLRU(localCacheBytes))
		b.files = &objectFiles{fs: fs}
	}
	return b, nil
}

// boundedStorer checks each object's size, from its header, before the
// storer below reads it: an object larger than lim.ObjectBytes (a delta
// by the size of the object it makes, its bases included), or objects
// larger than lim.TotalBytes together, are refused. go-git's server asks
// for every object it will send before it reads any blob, so a refusal
// comes before anything large is inflated.
type boundedStorer struct {
	storer.Storer
	lim   Limits
	files *objectFiles // nil: sizes as the storer below reports them

	mu    sync.Mutex
	seen  map[plumbing.Hash]bool
	total int64
	err   error // once refused, every object is
}

func (s *boundedStorer) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	checked, err := s.check(h)
	if err != nil {
		return nil, err
	}
	obj, err := s.Storer.EncodedObject(t, h)
	if err == nil && !checked {
		err = s.count(h, obj.Size())
	}
	return obj, err
}

// DeltaObject lets go-git's packer send deltas as they are stored.
func (s *boundedStorer) DeltaObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	ds, ok := s.Storer.(storer.DeltaObjectStorer)
	if !ok {
		return s.EncodedObject(t, h)
	}
	checked, err := s.check(h)
	if err != nil {
		return nil, err
	}
	obj, err := ds.DeltaObject(t, h)
	if err == nil && !checked {
		err = s.count(h, obj.Size())
	}
	return obj, err
}

// check counts h by the sizes its files declare; checked is false when
// they do not hold it (a repository's alternates), and the object's size
// is then counted once the storer below has read it.
func (s *boundedStorer) check(h plumbing.Hash) (checked bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || s.seen[h] {
		return true, s.err
	}
	if s.files == nil {
		return false, nil
	}
	size, found, err := s.files.size(h, s.lim)
	if err != nil {
		s.err = err
		return true, err
	}
	if !found {
		return false, nil
	}
	return true, s.add(h, size)
}

func (s *boundedStorer) count(h plumbing.Hash, size int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[h] {
		return s.err
	}
	if size > s.lim.ObjectBytes {
		s.err = objectTooLarge(size, s.lim)
		return s.err
	}
	return s.add(h, size)
}

// add counts an object towards the total; s.mu is held.
func (s *boundedStorer) add(h plumbing.Hash, size int64) error {
	s.seen[h] = true
	if s.total += size; s.total > s.lim.TotalBytes {
		s.err = totalTooLarge(s.lim)
	}
	return s.err
}

// objectFiles reads the headers of the objects of a repository's
// directory: loose objects and packs, through the packs' indexes.
type objectFiles struct {
	fs     billy.Filesystem
	loaded bool
	packs  []*packFile
	zr     io.ReadCloser // reused: each zlib reader takes 40 KB
}

type packFile struct {
	name string
	idx  *idxfile.MemoryIndex
	// sizes of the objects checked, by offset.
	sizes map[int64]int64
}

// size returns the size of object h and whether these files hold it. It
// refuses an object, or any base of a delta on the way to it, larger than
// lim.ObjectBytes.
func (o *objectFiles) size(h plumbing.Hash, lim Limits) (int64, bool, error) {
	if !o.loaded {
		if err := o.load(); err != nil {
			return 0, false, err
		}
	}
	for _, p := range o.packs {
		if off, err := p.idx.FindOffset(h); err == nil {
			size, err := o.packed(p, off, lim)
			return size, true, err
		}
	}
	return o.loose(h, lim)
}

// load reads the indexes of the repository's packs.
func (o *objectFiles) load() error {
	o.loaded = true
	entries, err := o.fs.ReadDir(path.Join("objects", "pack"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the repository's packs: %w", err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || e.IsDir() {
			continue
		}
		f, err := o.fs.Open(path.Join("objects", "pack", e.Name()))
		if err != nil {
			return fmt.Errorf("read the repository's packs: %w", err)
		}
		idx := idxfile.NewMemoryIndex()
		err = idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx)
		_ = f.Close()
		if err != nil {
			return fmt.Errorf("read the repository's pack index %s: %w", e.Name(), err)
		}
		o.packs = append(o.packs, &packFile{name: path.Join("objects", "pack", name+".pack"), idx: idx, sizes: map[int64]int64{}})
	}
	return nil
}

// packed returns the size of the object at off in p, checking the bases
// of a delta down to the first whole object.
func (o *objectFiles) packed(p *packFile, off int64, lim Limits) (int64, error) {
	f, err := o.fs.Open(p.name)
	if err != nil {
		return 0, fmt.Errorf("read the repository's pack: %w", err)
	}
	defer f.Close()
	var first int64 = -1
	for depth := 0; ; depth++ {
		if size, ok := p.sizes[off]; ok {
			if first < 0 {
				first = size
			}
			return first, nil
		}
		if depth > maxDeltaChain {
			return 0, fmt.Errorf("%w: a delta chain longer than %d", errBadPack, maxDeltaChain)
		}
		br := bufio.NewReaderSize(io.NewSectionReader(f, off, 1<<62), 4096)
		typ, size, err := objectHeader(br)
		if err != nil {
			return 0, err
		}
		if size > lim.ObjectBytes {
			return 0, objectTooLarge(size, lim)
		}
		base := int64(-1)
		switch typ {
		case packCommit, packTree, packBlob, packTag:
			p.sizes[off] = size
			if first < 0 {
				first = size
			}
			return first, nil
		case packOfsDelta:
			rel, err := readOffset(br)
			if err != nil || rel <= 0 || rel > off {
				return 0, errBadPack
			}
			base = off - rel
		case packRefDelta:
			var hb plumbing.Hash
			if _, err := io.ReadFull(br, hb[:]); err != nil {
				return 0, errBadPack
			}
			if base, err = p.idx.FindOffset(hb); err != nil {
				// Git keeps a delta's base in its pack.
				return 0, fmt.Errorf("%w: the base of a delta is missing", errBadPack)
			}
		default:
			return 0, fmt.Errorf("%w: object type %d", errBadPack, typ)
		}
		target, err := o.deltaTarget(br, size)
		if err != nil {
			return 0, err
		}
		if target > lim.ObjectBytes {
			return 0, objectTooLarge(target, lim)
		}
		p.sizes[off] = target
		if first < 0 {
			first = target
		}
		off = base
	}
}

// deltaTarget inflates the first bytes of a delta's data from br.
func (o *objectFiles) deltaTarget(br io.Reader, size int64) (int64, error) {
	if err := o.reset(br); err != nil {
		return 0, err
	}
	return deltaTarget(o.zr, &capWriter{}, size)
}

func (o *objectFiles) reset(r io.Reader) error {
	if o.zr == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return errBadPack
		}
		o.zr = zr
		return nil
	}
	if err := o.zr.(zlib.Resetter).Reset(r, nil); err != nil {
		return errBadPack
	}
	return nil
}

// loose returns the size a loose object declares in its first inflated
// bytes ("blob 1234\x00").
func (o *objectFiles) loose(h plumbing.Hash, lim Limits) (int64, bool, error) {
	hex := h.String()
	f, err := o.fs.Open(path.Join("objects", hex[:2], hex[2:]))
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read object %s: %w", hex, err)
	}
	defer f.Close()
	if err := o.reset(bufio.NewReaderSize(f, 512)); err != nil {
		return 0, false, err
	}
	var head [32]byte
	n, _ := io.ReadFull(o.zr, head[:])
	i := bytes.IndexByte(head[:n], 0)
	sp := bytes.IndexByte(head[:max(i, 0)], ' ')
	if i < 0 || sp < 0 {
		return 0, false, fmt.Errorf("%w: object %s", errBadPack, hex)
	}
	size, err := strconv.ParseInt(string(head[sp+1:i]), 10, 64)
	if err != nil || size < 0 {
		return 0, false, fmt.Errorf("%w: object %s", errBadPack, hex)
	}
	if size > lim.ObjectBytes {
		return 0, false, objectTooLarge(size, lim)
	}
	return size, true, nil
}

// go-git's packer sends stored deltas as they are through this.
var _ storer.DeltaObjectStorer = (*boundedStorer)(nil)
