package gitsync

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"quire/internal/gitsync/gittest"
)

func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// packEntry is an object of a pack written by writePack: a whole object,
// or an offset delta on the entry at index base.
type packEntry struct {
	typ  int
	base int
	data []byte
}

// writePack writes entries as a pack (checksummed) into the bare
// repository dir, indexes it with the git program, and returns the
// entries' hashes.
func writePack(t *testing.T, dir string, entries []packEntry) []plumbing.Hash {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git program installed")
	}
	var b bytes.Buffer
	b.WriteString("PACK")
	binary.Write(&b, binary.BigEndian, uint32(2))
	binary.Write(&b, binary.BigEndian, uint32(len(entries)))
	offsets := make([]int64, len(entries))
	for i, e := range entries {
		offsets[i] = int64(b.Len())
		size := len(e.data)
		c := byte(e.typ<<4) | byte(size&15)
		for size >>= 4; size > 0; size >>= 7 {
			b.WriteByte(c | 0x80)
			c = byte(size & 0x7f)
		}
		b.WriteByte(c)
		if e.typ == packOfsDelta {
			// Git's encoding of the distance back to the base.
			ofs := offsets[i] - offsets[e.base]
			enc := []byte{byte(ofs & 0x7f)}
			for ofs >>= 7; ofs > 0; ofs >>= 7 {
				ofs--
				enc = append([]byte{byte(0x80 | ofs&0x7f)}, enc...)
			}
			b.Write(enc)
		}
		z := zlib.NewWriter(&b)
		z.Write(e.data)
		z.Close()
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	name := filepath.Join(dir, "objects", "pack", "pack-"+hex.EncodeToString(sum[:])+".pack")
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ip := exec.Command("git", "index-pack", name)
	ip.Dir = dir
	if out, err := ip.CombinedOutput(); err != nil {
		t.Fatalf("git index-pack: %v\n%s", err, out)
	}
	idx, err := os.Open(strings.TrimSuffix(name, ".pack") + ".idx")
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	cmd := exec.Command("git", "show-index")
	cmd.Stdin = idx
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git show-index: %v", err)
	}
	byOffset := map[int64]plumbing.Hash{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		off, _ := strconv.ParseInt(f[0], 10, 64)
		byOffset[off] = plumbing.NewHash(f[1])
	}
	hashes := make([]plumbing.Hash, len(entries))
	for i, off := range offsets {
		hashes[i] = byOffset[off]
	}
	return hashes
}

// delta is the data of a delta from a base of baseSize bytes to an object
// of target bytes, copying from the base's start n bytes at a time.
func delta(baseSize, target, n int) []byte {
	d := binary.AppendUvarint(binary.AppendUvarint(nil, uint64(baseSize)), uint64(target))
	for left := target; left > 0; left -= n {
		k := min(n, left)
		// Copy k (< 65536) bytes from offset 0: two size bytes.
		d = append(d, 0x80|0x10|0x20, byte(k), byte(k>>8))
	}
	return d
}

// localStore loads the repository dir as go-git's in-process server does
// for a file:// download held to lim.
func localStore(t *testing.T, dir string, lim Limits) *boundedStorer {
	t.Helper()
	st, err := boundedLoader{Loader: dirLoader(dir), lim: lim}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*boundedStorer)
}

// A delta is held to the limits by the size of what it makes, and so is
// every base on the way to a whole object, read from the headers of a
// local repository's pack: a 100-byte object made from a 10 MiB one,
// itself made from 4 KiB, is refused without anything being inflated.
func TestLocalDeltaChainRefusedByHeaders(t *testing.T) {
	dir := t.TempDir()
	gittest.Init(t, dir)
	base := bytes.Repeat([]byte("quire "), 700)[:4096]
	h := writePack(t, dir, []packEntry{
		{typ: packBlob, data: base},
		{typ: packOfsDelta, base: 0, data: delta(len(base), 10<<20, len(base))},
		{typ: packOfsDelta, base: 1, data: delta(10<<20, 100, 100)},
	})
	lim := Limits{ObjectBytes: 64 << 10, TotalBytes: 1 << 20}

	st := localStore(t, dir, lim)
	if obj, err := st.EncodedObject(plumbing.AnyObject, h[0]); err != nil || obj.Size() != 4096 {
		t.Fatalf("the base: %v", err)
	}
	before := heapAllocs()
	_, err := st.EncodedObject(plumbing.AnyObject, h[2])
	grew := heapAllocs() - before
	if !errors.Is(err, errTooLarge) || !strings.HasSuffix(err.Error(), "an object of 10485760 bytes (the limit is 65536)") {
		t.Errorf("a small object made from a large one: %v", err)
	}
	if grew > 1<<20 {
		t.Errorf("refusing it allocated %d KiB", grew>>10)
	}
	if _, err := localStore(t, dir, lim).DeltaObject(plumbing.AnyObject, h[1]); !errors.Is(err, errTooLarge) {
		t.Errorf("the large delta, as a delta: %v", err)
	}

	// Within the limit on one object, the total still counts what each
	// object makes.
	lim = Limits{ObjectBytes: 16 << 20, TotalBytes: 5 << 20}
	st = localStore(t, dir, lim)
	for _, i := range []int{0, 2} {
		if _, err := st.EncodedObject(plumbing.AnyObject, h[i]); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
	}
	if _, err := st.EncodedObject(plumbing.AnyObject, h[1]); !errors.Is(err, errTooLarge) ||
		!strings.HasSuffix(err.Error(), "its files take more than 5242880 bytes unpacked (the limit of one download)") {
		t.Errorf("total: %v", err)
	}
	if _, err := st.EncodedObject(plumbing.AnyObject, h[0]); !errors.Is(err, errTooLarge) {
		t.Errorf("after a refusal: %v", err)
	}
}

// A loose object is held to the limit by the size in its first bytes.
func TestLocalLooseObjectRefusedByHeader(t *testing.T) {
	dir := t.TempDir()
	gittest.Init(t, dir)
	big := bytes.Repeat([]byte{0}, 4096)
	gittest.Commit(t, dir, "main", map[string][]byte{"README.md": []byte("# Home\n"), "big.bin": big}, "loose")
	st := localStore(t, dir, Limits{ObjectBytes: 2048, TotalBytes: 1 << 20})
	if _, err := st.EncodedObject(plumbing.AnyObject, plumbing.ComputeHash(plumbing.BlobObject, []byte("# Home\n"))); err != nil {
		t.Fatalf("a small loose object: %v", err)
	}
	_, err := st.EncodedObject(plumbing.AnyObject, plumbing.ComputeHash(plumbing.BlobObject, big))
	if !errors.Is(err, errTooLarge) || !strings.HasSuffix(err.Error(), "an object of 4096 bytes (the limit is 2048)") {
		t.Errorf("a large loose object: %v", err)
	}
}

// endless repeats one small object of a pack that declares a great many.
type endless struct {
	obj  []byte
	head []byte
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	if len(e.head) == 0 {
		e.head = e.obj
	}
	n := copy(p, e.head)
	e.head = e.head[n:]
	e.read += int64(n)
	return n, nil
}

// readPack checks a pack as it arrives: it stops reading past the packed
// limit, answers with the error of what it reads from, and counts deltas
// by the size of what they make.
func TestReadPackStreams(t *testing.T) {
	lim := Limits{PackBytes: 1 << 20, ObjectBytes: 1000, TotalBytes: 1 << 40}
	one := pack(t, [3]any{packBlob, 5, []byte("hello")})
	obj := one[12 : len(one)-20]
	src := &endless{head: append([]byte("PACK\x00\x00\x00\x02\x7f\xff\xff\xff"), obj...), obj: obj}
	if _, err := readPack(src, lim); !errors.Is(err, errTooLarge) || !strings.Contains(err.Error(), "more than 1048576 bytes packed") {
		t.Errorf("endless: %v", err)
	}
	if src.read > lim.PackBytes+64<<10 {
		t.Errorf("read %d bytes of an endless pack", src.read)
	}

	if _, err := readPack(bytes.NewReader(one), Limits{PackBytes: int64(len(one)) - 1, ObjectBytes: 1000, TotalBytes: 1000}); !errors.Is(err, errTooLarge) {
		t.Errorf("a whole pack a byte over the limit: %v", err)
	}

	refused := fmt.Errorf("%w: an object of 1 bytes", errTooLarge)
	if _, err := readPack(io.MultiReader(bytes.NewReader(one[:14]), iotest{refused}), lim); err != refused {
		t.Errorf("failing source: %v", err)
	}

	got, err := readPack(bytes.NewReader(append(one[:len(one):len(one)], "trailing"...)), lim)
	if err != nil || !bytes.Equal(got, one) {
		t.Errorf("a pack followed by more: %v, %d bytes of %d", err, len(got), len(one))
	}

	lim = Limits{PackBytes: 1 << 20, ObjectBytes: 1000, TotalBytes: 2500}
	d := delta(900, 900, 900)
	deltas := pack(t, [3]any{packBlob, 900, bytes.Repeat([]byte("a"), 900)}, [3]any{packRefDelta, len(d), d},
		[3]any{packRefDelta, len(d), d})
	if _, err := readPack(bytes.NewReader(deltas), lim); !errors.Is(err, errTooLarge) || !strings.Contains(err.Error(), "more than 2500 bytes unpacked") {
		t.Errorf("deltas beyond the total: %v", err)
	}
}

// iotest fails every read with err.
type iotest struct{ err error }

func (r iotest) Read([]byte) (int, error) { return 0, r.err }
