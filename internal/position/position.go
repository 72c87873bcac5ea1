// Package position implements fractional-index ordering keys.
//
// A key is a short string that sorts items: an item is moved or inserted
// between two siblings by computing a key strictly between theirs with
// [Between], so only the moved item's key is written and no sibling has to
// be renumbered.
//
// # Alphabet and ordering
//
// Keys use only the 36 characters 0-9a-z (lowercase). Digits sort before
// letters and there are no upper-case letters or punctuation, so plain Go
// string comparison, byte comparison and SQL ORDER BY agree under every
// sensible collation (binary, "C", and the usual locale-aware ones).
//
// # Key layout
//
// A key is an integer part followed by an optional fractional part, the
// layout of the well-known "fractional indexing" algorithm:
//
//   - The first character of the integer part (the head) encodes how many
//     digits follow it: 'i' is followed by 1 digit, 'j' by 2, ... 'z' by 18;
//     'h' is followed by 1 digit, 'g' by 2, ... '0' by 18. Heads 'i'..'z'
//     hold ever larger integers, heads 'h'..'0' ever smaller ones, so string
//     order is integer order.
//   - The fractional part is a base-36 fraction used when there is no
//     integer left between two neighbours.
//
// Appending ([After]) and prepending ([Before]) step the integer part by
// one, so keys grow logarithmically: 10,000 appends or prepends starting
// from [First] stay at 4 characters. Repeatedly inserting between the same
// two neighbours grows the key by about one character per insertion.
//
// Keys never end in '0', the smallest digit, so there is always room before
// any key.
package position

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// digits is the key alphabet in ascending byte order.
const digits = "0123456789abcdefghijklmnopqrstuvwxyz"

const (
	base = 36 // len(digits)
	// zero is the smallest digit. Keys never end with it.
	zero = '0'
	// maxDigits is the number of digits after the heads 'z' and '0'.
	maxDigits = 18
	// firstPositiveHead is the head of the smallest non-negative integers.
	firstPositiveHead = 'i'
)

// smallestInteger is the smallest integer part. It ends in '0', so it is
// only valid followed by a fractional part.
var smallestInteger = strings.Repeat("0", maxDigits+1)

var (
	// ErrInvalidKey reports a string that is not a well-formed key.
	ErrInvalidKey = errors.New("position: invalid key")
	// ErrOutOfOrder reports bounds passed to Between that are not strictly
	// increasing.
	ErrOutOfOrder = errors.New("position: lower bound is not less than upper bound")
)

// First returns the key to use for the only item of an empty list.
func First() string { return "i1" }

// Between returns a key strictly greater than a and strictly less than b.
// An empty a means "no lower bound" (insert at the start) and an empty b
// means "no upper bound" (insert at the end); Between("", "") is [First].
//
// It returns an error wrapping [ErrInvalidKey] if a non-empty bound is not
// a valid key, and one wrapping [ErrOutOfOrder] if a >= b with both
// non-empty.
func Between(a, b string) (string, error) {
	if a != "" {
		if err := Validate(a); err != nil {
			return "", err
		}
	}
	if b != "" {
		if err := Validate(b); err != nil {
			return "", err
		}
	}
	if a != "" && b != "" && a >= b {
		return "", fmt.Errorf("%w: %q >= %q", ErrOutOfOrder, a, b)
	}
	return between(a, b), nil
}

// After returns a key strictly greater than a, or [First] if a is empty.
// It panics if a is not a valid key; use [Between](a, "") to get an error
// instead.
func After(a string) string { return must(Between(a, "")) }

// Before returns a key strictly less than b, or [First] if b is empty.
// It panics if b is not a valid key; use [Between]("", b) to get an error
// instead.
func Before(b string) string { return must(Between("", b)) }

func must(k string, err error) string {
	if err != nil {
		panic(err)
	}
	return k
}

// Validate reports whether key is a well-formed key, as produced by this
// package. It returns nil or an error wrapping [ErrInvalidKey].
func Validate(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	for i := 0; i < len(key); i++ {
		if digitValue(key[i]) < 0 {
			return fmt.Errorf("%w: %q: character %q not in 0-9a-z", ErrInvalidKey, key, key[i])
		}
	}
	if len(key) < integerLength(key[0]) {
		return fmt.Errorf("%w: %q: integer part too short", ErrInvalidKey, key)
	}
	if key[len(key)-1] == zero {
		return fmt.Errorf("%w: %q: ends in %q", ErrInvalidKey, key, zero)
	}
	return nil
}

// Sequence returns n strictly increasing keys, evenly spread so that there
// is room to insert between any two of them. All keys have the same length,
// which grows logarithmically with n. It is meant for an initial ordering
// or for rebalancing a list whose keys have grown long. It returns nil if
// n <= 0.
func Sequence(n int) []string {
	if n <= 0 {
		return nil
	}
	// The keys are the integer part "i0" followed by w-digit fractions
	// spread evenly over [0, 36^w). Pick the smallest w leaving a gap of at
	// least 2 between neighbours, so that nudging a fraction ending in '0'
	// up by one keeps the sequence strictly increasing.
	slots := uint64(n) + 1
	w, space := 1, uint64(base)
	for space/slots < 2 {
		w++
		hi, lo := bits.Mul64(space, base)
		if hi != 0 {
			// Unreachable for any n that fits in memory.
			panic("position: Sequence: n too large")
		}
		space = lo
	}
	keys := make([]string, n)
	buf := make([]byte, 2+w)
	buf[0], buf[1] = firstPositiveHead, zero
	for k := range keys {
		// v = floor((k+1) * space / slots), computed without overflow.
		hi, lo := bits.Mul64(uint64(k)+1, space)
		v, _ := bits.Div64(hi, lo, slots)
		if v%base == 0 {
			v++
		}
		for i := len(buf) - 1; i >= 2; i-- {
			buf[i] = digits[v%base]
			v /= base
		}
		keys[k] = string(buf)
	}
	return keys
}

// between implements Between for valid, ordered bounds.
func between(a, b string) string {
	switch {
	case a == "" && b == "":
		return First()
	case a == "":
		ib := b[:integerLength(b[0])]
		fb := b[len(ib):]
		if ib < b && ib[len(ib)-1] != zero {
			// b has a fractional part; its bare integer part sorts before it.
			return ib
		}
		if d, ok := decrementInteger(ib); ok {
			return d
		}
		// No smaller integer: use a fraction of the smallest one.
		if ib == smallestInteger {
			return ib + midpoint("", fb, true)
		}
		return smallestInteger + midpoint("", "", false)
	case b == "":
		ia := a[:integerLength(a[0])]
		fa := a[len(ia):]
		if i, ok := incrementInteger(ia); ok {
			return i
		}
		return ia + midpoint(fa, "", false)
	default:
		ia := a[:integerLength(a[0])]
		fa := a[len(ia):]
		ib := b[:integerLength(b[0])]
		fb := b[len(ib):]
		if ia == ib {
			return ia + midpoint(fa, fb, true)
		}
		// Integer parts are prefix-free, so every key with integer part ia
		// sorts before b.
		if i, ok := incrementInteger(ia); ok && i < b {
			return i
		}
		return ia + midpoint(fa, "", false)
	}
}

// midpoint returns a fraction strictly between the fractions a and b
// (a < b, neither ending in '0'). If hasB is false there is no upper bound.
// The result never ends in '0'.
func midpoint(a, b string, hasB bool) string {
	if hasB {
		// Strip the longest common prefix, padding a with zeros; b cannot
		// run out first because a < b and a does not end in '0'.
		n := 0
		for n < len(b) && digitAt(a, n) == b[n] {
			n++
		}
		if n > 0 {
			return b[:n] + midpoint(a[min(n, len(a)):], b[n:], true)
		}
	}
	// The first digits (or absence of digits) differ.
	da := 0
	if a != "" {
		da = digitValue(a[0])
	}
	db := base
	if hasB {
		db = digitValue(b[0])
	}
	if db-da > 1 {
		return string(digits[(da+db+1)/2])
	}
	// The first digits are consecutive.
	if hasB && len(b) > 1 {
		// b[:1] is greater than a and, being shorter, less than b.
		return b[:1]
	}
	// b is absent or a single digit: keep a's first digit and find
	// something above the rest of a.
	return string(digits[da]) + midpoint(a[min(1, len(a)):], "", false)
}

// incrementInteger returns the smallest integer part greater than x that
// does not end in '0' (so it is a valid key on its own), or false if x is
// the largest integer.
func incrementInteger(x string) (string, bool) {
	for {
		var ok bool
		x, ok = stepInteger(x, +1)
		if !ok {
			return "", false
		}
		if x[len(x)-1] != zero {
			return x, true
		}
	}
}

// decrementInteger returns the largest integer part less than x that does
// not end in '0', or false if there is none.
func decrementInteger(x string) (string, bool) {
	for {
		var ok bool
		x, ok = stepInteger(x, -1)
		if !ok {
			return "", false
		}
		if x[len(x)-1] != zero {
			return x, true
		}
	}
}

// stepInteger returns the integer part adjacent to x in direction dir (+1
// or -1), moving to the next head when the digits overflow, or false past
// either end.
func stepInteger(x string, dir int) (string, bool) {
	buf := []byte(x)
	for i := len(buf) - 1; i >= 1; i-- {
		v := digitValue(buf[i]) + dir
		switch {
		case v >= base:
			buf[i] = digits[0]
		case v < 0:
			buf[i] = digits[base-1]
		default:
			buf[i] = digits[v]
			return string(buf), true
		}
	}
	// All digits wrapped: change the head.
	h := digitValue(buf[0]) + dir
	if h < 0 || h >= base {
		return "", false
	}
	head := digits[h]
	fill := digits[0]
	if dir < 0 {
		fill = digits[base-1]
	}
	return string(head) + strings.Repeat(string(fill), integerLength(head)-1), true
}

// integerLength returns the length of the integer part whose head is h
// (head included). h must be in the alphabet.
func integerLength(h byte) int {
	v := digitValue(h)
	if v >= digitValue(firstPositiveHead) {
		return v - digitValue(firstPositiveHead) + 2
	}
	return digitValue(firstPositiveHead) - v + 1
}

// digitValue returns the value of c in the alphabet, or -1.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	}
	return -1
}

// digitAt returns s[i], or '0' past the end of s.
func digitAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return zero
}
