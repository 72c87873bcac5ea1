package gitsync

import (
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

// checkPack reads a pack's object headers and inflates every object into
// nothing, before anything keeps them: it refuses a pack holding an object
// larger than lim.ObjectBytes, or objects larger than lim.TotalBytes
// together, by what they declare (the targets of deltas included) and by
// what they inflate to. Compression lets a small pack stand for a great
// deal of memory; this bounds it before the objects are read into memory.
// It takes time linear in the inflated size, itself bounded.
func checkPack(pack []byte, lim Limits) error {
	if len(pack) < 32 || string(pack[:4]) != "PACK" {
		return errBadPack
	}
	if v := binary.BigEndian.Uint32(pack[4:8]); v != 2 && v != 3 {
		return fmt.Errorf("%w: version %d", errBadPack, v)
	}
	count := binary.BigEndian.Uint32(pack[8:12])
	br := bytes.NewReader(pack[12 : len(pack)-20])
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
			if _, err := br.Seek(20, io.SeekCurrent); err != nil {
				return errBadPack
			}
		case packCommit, packTree, packBlob, packTag:
		default:
			return fmt.Errorf("%w: object type %d", errBadPack, typ)
		}
		if size > lim.ObjectBytes {
			return fmt.Errorf("%w: an object of %d bytes (the limit is %d)", errTooLarge, size, lim.ObjectBytes)
		}
		if zr == nil {
			if zr, err = zlib.NewReader(br); err != nil {
				return errBadPack
			}
		} else if err := zr.(zlib.Resetter).Reset(br, nil); err != nil {
			return errBadPack
		}
		w.reset(size)
		if _, err := io.Copy(w, zr); err != nil {
			if errors.Is(err, errTooLarge) {
				return fmt.Errorf("%w: an object inflates beyond the %d bytes it declares", errBadPack, size)
			}
			return errBadPack
		}
		if w.n != size {
			return fmt.Errorf("%w: an object inflates to %d bytes, not the %d it declares", errBadPack, w.n, size)
		}
		if typ == packOfsDelta || typ == packRefDelta {
			// A delta starts with the sizes of its base and of its result.
			hr := bytes.NewReader(w.head[:w.headLen])
			if _, err := binary.ReadUvarint(hr); err != nil {
				return errBadPack
			}
			target, err := binary.ReadUvarint(hr)
			if err != nil {
				return errBadPack
			}
			if target > uint64(lim.ObjectBytes) {
				return fmt.Errorf("%w: an object of %d bytes (the limit is %d)", errTooLarge, target, lim.ObjectBytes)
			}
			size = int64(target)
		}
		if total += size; total > lim.TotalBytes {
			return fmt.Errorf("%w: its files take more than %d bytes", errTooLarge, lim.TotalBytes)
		}
	}
	return nil
}

// objectHeader reads an object's type and inflated size.
func objectHeader(br *bytes.Reader) (int, int64, error) {
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
func skipOffset(br *bytes.Reader) error {
	for i := 0; ; i++ {
		c, err := br.ReadByte()
		if err != nil || i > 9 {
			return errBadPack
		}
		if c&0x80 == 0 {
			return nil
		}
	}
}

// capWriter counts what is written, keeps its first bytes, and refuses
// more than max.
type capWriter struct {
	n, max  int64
	head    [32]byte
	headLen int
}

func (w *capWriter) reset(max int64) { w.n, w.max, w.headLen = 0, max, 0 }

func (w *capWriter) Write(p []byte) (int, error) {
	if w.headLen < len(w.head) {
		w.headLen += copy(w.head[w.headLen:], p)
	}
	w.n += int64(len(p))
	if w.n > w.max {
		return 0, errTooLarge
	}
	return len(p), nil
}
