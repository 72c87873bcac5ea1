package gitsync

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Object types of a pack.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

var errBadPack = errors.New("the repository sent a malformed pack")

// objectTooLarge and totalTooLarge are the refusals of the limits on
// unpacked sizes, in the same words wherever they are enforced.
func objectTooLarge(size int64, lim Limits) error {
	return fmt.Errorf("%w: an object of %d bytes (the limit is %d)", errTooLarge, size, lim.ObjectBytes)
}

func totalTooLarge(lim Limits) error {
	return fmt.Errorf("%w: its files take more than %d bytes unpacked (the limit of one download)", errTooLarge, lim.TotalBytes)
}

func packTooLarge(lim Limits) error {
	return fmt.Errorf("%w: its objects take more than %d bytes packed", errTooLarge, lim.PackBytes)
}

// readPack reads a pack from r and checks it as it arrives, before
// anything keeps its objects: it refuses a pack larger than lim.PackBytes,
// an object larger than lim.ObjectBytes unpacked, or objects larger than
// lim.TotalBytes unpacked together. Sizes are read from each object's
// header (for a delta, from the start of its data: the size of the object
// it makes), so an object over the limit is refused before any of it is
// inflated; an object's data is then inflated into nothing, at most the
// size it declares, to check that it does not lie. Compression lets a
// small pack stand for a great deal of memory (300 MB of zeros pack into
// 300 KB); this bounds it. It returns the pack's bytes, and the error of r
// itself when r fails (a server refusing an object, a dropped connection).
func readPack(r io.Reader, lim Limits) ([]byte, error) {
	src := &packSource{r: r, max: lim.PackBytes, lim: lim}
	br := bufio.NewReaderSize(src, 32<<10)
	if err := scanPack(br, lim); err != nil {
		if src.err != nil && src.err != io.EOF {
			return nil, src.err
		}
		return nil, err
	}
	// What bufio read ahead is not part of the pack; the read that went
	// past the limit may have brought the whole of it.
	pack := src.buf.Bytes()[:src.buf.Len()-br.Buffered()]
	if int64(len(pack)) > lim.PackBytes {
		return nil, packTooLarge(lim)
	}
	return pack, nil
}

// packSource keeps what it reads, at most max bytes, and the error of the
// reader below it.
type packSource struct {
	r   io.Reader
	buf bytes.Buffer
	max int64
	lim Limits
	err error
}

func (s *packSource) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.buf.Write(p[:n])
	if int64(s.buf.Len()) > s.max {
		s.err = packTooLarge(s.lim)
		return n, s.err
	}
	if err != nil {
		s.err = err
	}
	return n, err
}

// scanPack reads a pack's header, every object and its trailer from br.
func scanPack(br *bufio.Reader, lim Limits) error {
	var head [12]byte
	if _, err := io.ReadFull(br, head[:]); err != nil || string(head[:4]) != "PACK" {
		return errBadPack
	}
	if v := binary.BigEndian.Uint32(head[4:8]); v != 2 && v != 3 {
		return fmt.Errorf("%w: version %d", errBadPack, v)
	}
	count := binary.BigEndian.Uint32(head[8:12])
	var (
		total int64
		zr    io.ReadCloser
		w     = &capWriter{}
	)
	for i := uint32(0); i < count; i++ {
		typ, size, err := objectHeader(br)
		if err != nil {
			return err
		}
		switch typ {
		case packOfsDelta:
			if err := skipOffset(br); err != nil {
				return err
			}
		case packRefDelta:
			if _, err := br.Discard(20); err != nil {
				return errBadPack
			}
		case packCommit, packTree, packBlob, packTag:
		default:
			return fmt.Errorf("%w: object type %d", errBadPack, typ)
		}
		// A delta's own data is never larger than the limit either: it
		// is inflated here.
		if size > lim.ObjectBytes {
			return objectTooLarge(size, lim)
		}
		if zr == nil {
			if zr, err = zlib.NewReader(br); err != nil {
				return errBadPack
			}
		} else if err := zr.(zlib.Resetter).Reset(br, nil); err != nil {
			return errBadPack
		}
		result := size
		if typ == packOfsDelta || typ == packRefDelta {
			// A delta starts with the sizes of its base and of the
			// object it makes: that one counts, before the rest of the
			// delta is inflated.
			if result, err = deltaTarget(zr, w, size); err != nil {
				return err
			}
			if result > lim.ObjectBytes {
				return objectTooLarge(result, lim)
			}
		} else {
			w.reset(size)
		}
		if total += result; total > lim.TotalBytes {
			return totalTooLarge(lim)
		}
		if _, err := io.Copy(w, zr); err != nil {
			if errors.Is(err, errTooLarge) {
				return fmt.Errorf("%w: an object inflates beyond the %d bytes it declares", errBadPack, size)
			}
			return errBadPack
		}
		if w.n != size {
			return fmt.Errorf("%w: an object inflates to %d bytes, not the %d it declares", errBadPack, w.n, size)
		}
	}
	if _, err := br.Discard(20); err != nil {
		return errBadPack
	}
	return nil
}

// deltaTarget reads the two sizes that open a delta of size bytes from zr
// and returns the second, the size of the object the delta makes; w is
// reset to count the delta's data from its start.
func deltaTarget(zr io.Reader, w *capWriter, size int64) (int64, error) {
	w.reset(size)
	var head [20]byte
	n, err := io.ReadFull(zr, head[:min(size, int64(len(head)))])
	if err != nil && n == 0 {
		return 0, errBadPack
	}
	if _, err := w.Write(head[:n]); err != nil {
		return 0, fmt.Errorf("%w: an object inflates beyond the %d bytes it declares", errBadPack, size)
	}
	hr := bytes.NewReader(head[:n])
	if _, err := binary.ReadUvarint(hr); err != nil {
		return 0, errBadPack
	}
	target, err := binary.ReadUvarint(hr)
	if err != nil || target > 1<<62 {
		return 0, errBadPack
	}
	return int64(target), nil
}

// objectHeader reads an object's type and its size (inflated; for a
// delta, the size of the delta's data).
func objectHeader(br io.ByteReader) (int, int64, error) {
	c, err := br.ReadByte()
	if err != nil {
		return 0, 0, errBadPack
	}
	typ := int(c>>4) & 7
	size := int64(c & 15)
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return 0, 0, errBadPack
		}
		if c, err = br.ReadByte(); err != nil {
			return 0, 0, errBadPack
		}
		size |= int64(c&0x7f) << shift
	}
	return typ, size, nil
}

// skipOffset skips the base offset of an offset delta.
func skipOffset(br io.ByteReader) error {
	_, err := readOffset(br)
	return err
}

// readOffset reads the base offset of an offset delta (how far before
// the delta its base starts).
func readOffset(br io.ByteReader) (int64, error) {
	c, err := br.ReadByte()
	if err != nil {
		return 0, errBadPack
	}
	off := int64(c & 0x7f)
	for i := 0; c&0x80 != 0; i++ {
		if i > 8 {
			return 0, errBadPack
		}
		if c, err = br.ReadByte(); err != nil {
			return 0, errBadPack
		}
		off = ((off + 1) << 7) | int64(c&0x7f)
	}
	return off, nil
}

// capWriter counts what is written and refuses more than max.
type capWriter struct{ n, max int64 }

func (w *capWriter) reset(max int64) { w.n, w.max = 0, max }

func (w *capWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if w.n > w.max {
		return 0, errTooLarge
	}
	return len(p), nil
}
