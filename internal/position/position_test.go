package position

import (
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// checkKey fails the test if k is not a valid key.
func checkKey(t testing.TB, k string) {
	t.Helper()
	if err := Validate(k); err != nil {
		t.Fatalf("generated invalid key %q: %v", k, err)
	}
	if strings.HasSuffix(k, "0") {
		t.Fatalf("key %q ends in '0'", k)
	}
	for i := 0; i < len(k); i++ {
		if !strings.ContainsRune(digits, rune(k[i])) {
			t.Fatalf("key %q has character %q outside 0-9a-z", k, k[i])
		}
	}
}

func mustBetween(t testing.TB, a, b string) string {
	t.Helper()
	k, err := Between(a, b)
	if err != nil {
		t.Fatalf("Between(%q, %q): %v", a, b, err)
	}
	checkKey(t, k)
	if a != "" && !(a < k) {
		t.Fatalf("Between(%q, %q) = %q, not greater than lower bound", a, b, k)
	}
	if b != "" && !(k < b) {
		t.Fatalf("Between(%q, %q) = %q, not less than upper bound", a, b, k)
	}
	return k
}

func TestFirst(t *testing.T) {
	checkKey(t, First())
	if got := mustBetween(t, "", ""); got != First() {
		t.Errorf(`Between("", "") = %q, want First() = %q`, got, First())
	}
	if got := After(""); got != First() {
		t.Errorf(`After("") = %q, want %q`, got, First())
	}
	if got := Before(""); got != First() {
		t.Errorf(`Before("") = %q, want %q`, got, First())
	}
}

func TestBetweenExamples(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"", "", "i1"},
		{"i1", "", "i2"},
		{"iy", "", "iz"},
		{"iz", "", "j01"}, // j00 would end in '0'
		{"jzz", "", "k001"},
		{"", "i1", "hz"},
		{"", "h1", "gzz"},
		{"", "j01", "iz"},
		{"i1", "i2", "i1i"},
		{"i1", "i3", "i2"},
		{"i1", "i1i", "i19"},
		{"i1i", "i2", "i1r"},
		{"i1", "i11", "i10i"},
		{"i1z", "i2", "i1zi"},
		{"", "i1i", "i1"},
		{"", "i01", "hz"}, // "i0" ends in '0'
		{"iz", "j005", "izi"},
		{"i1", "j01", "i2"},
	}
	for _, tt := range tests {
		got := mustBetween(t, tt.a, tt.b)
		if got != tt.want {
			t.Errorf("Between(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestBetweenExtremes(t *testing.T) {
	largest := "z" + strings.Repeat("z", maxDigits)
	smallestValid := "0" + strings.Repeat("0", maxDigits-1) + "1"

	k := mustBetween(t, largest, "")
	if !strings.HasPrefix(k, largest) {
		t.Errorf("after largest integer: %q", k)
	}
	if next := mustBetween(t, k, ""); next <= k {
		t.Errorf("after %q: %q does not sort after it", k, next)
	}
	k = mustBetween(t, "", smallestValid)
	if !strings.HasPrefix(k, smallestInteger) {
		t.Errorf("before smallest valid integer: %q", k)
	}
	for range 50 {
		k = mustBetween(t, "", k)
	}
	// Walking across a head boundary in both directions.
	mustBetween(t, "h"+"z", "")
	mustBetween(t, "", "i1")
	mustBetween(t, "", "y"+strings.Repeat("0", 16)+"1")
}

func TestBetweenErrors(t *testing.T) {
	invalid := []string{
		"i0",      // ends in '0'
		"i",       // integer part too short
		"j1",      // integer part too short
		"z" + "1", // integer part too short
		"0" + "1", // integer part too short
		"I1",      // upper case
		"i1-",     // punctuation
		"i1 ",     // space
		"i1\xff",  // not ASCII
		smallestInteger,
		"i10",
	}
	for _, k := range invalid {
		if err := Validate(k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("Validate(%q) = %v, want ErrInvalidKey", k, err)
		}
		if _, err := Between(k, ""); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("Between(%q, \"\") error = %v, want ErrInvalidKey", k, err)
		}
		if _, err := Between("", k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("Between(\"\", %q) error = %v, want ErrInvalidKey", k, err)
		}
	}
	if err := Validate(""); !errors.Is(err, ErrInvalidKey) {
		t.Errorf(`Validate("") = %v`, err)
	}
	for _, p := range [][2]string{{"i1", "i1"}, {"i2", "i1"}, {"j01", "iz"}, {"i1i", "i1"}} {
		if _, err := Between(p[0], p[1]); !errors.Is(err, ErrOutOfOrder) {
			t.Errorf("Between(%q, %q) error = %v, want ErrOutOfOrder", p[0], p[1], err)
		}
	}
}

func TestAfterBeforePanicOnInvalid(t *testing.T) {
	for _, f := range []func(){func() { After("bad!") }, func() { Before("i0") }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("expected panic")
				}
			}()
			f()
		}()
	}
}

func TestAppendStaysShort(t *testing.T) {
	k := First()
	maxLen := len(k)
	for range 10000 {
		next := After(k)
		checkKey(t, next)
		if next <= k {
			t.Fatalf("After(%q) = %q, not greater", k, next)
		}
		k = next
		maxLen = max(maxLen, len(k))
	}
	if maxLen > 4 {
		t.Errorf("appending 10000 times reached key length %d (last %q)", maxLen, k)
	}
}

func TestPrependStaysShort(t *testing.T) {
	k := First()
	maxLen := len(k)
	for range 10000 {
		prev := Before(k)
		checkKey(t, prev)
		if prev >= k {
			t.Fatalf("Before(%q) = %q, not less", k, prev)
		}
		k = prev
		maxLen = max(maxLen, len(k))
	}
	if maxLen > 4 {
		t.Errorf("prepending 10000 times reached key length %d (last %q)", maxLen, k)
	}
}

func TestAppendAfterSequenceStaysShort(t *testing.T) {
	keys := Sequence(100)
	k := keys[len(keys)-1]
	for range 10000 {
		k = mustBetween(t, k, "")
	}
	if len(k) > 6 {
		t.Errorf("appending after Sequence reached %q", k)
	}
	k = keys[0]
	for range 10000 {
		k = mustBetween(t, "", k)
	}
	if len(k) > 6 {
		t.Errorf("prepending before Sequence reached %q", k)
	}
}

func TestRepeatedInsertBetweenSameNeighbours(t *testing.T) {
	// Always inserting right after the same key: grows by about one
	// character per insertion at worst.
	lo, hi := "i1", "i2"
	for i := range 200 {
		hi = mustBetween(t, lo, hi)
		if len(hi) > len("i1")+i+2 {
			t.Fatalf("after %d insertions key is %d long: %q", i+1, len(hi), hi)
		}
	}
	// Always inserting right before the same key.
	lo, hi = "i1", "i2"
	for i := range 200 {
		lo = mustBetween(t, lo, hi)
		if len(lo) > len("i1")+i+2 {
			t.Fatalf("after %d insertions key is %d long: %q", i+1, len(lo), lo)
		}
	}
	// Alternately narrowing from both sides.
	lo, hi = "i1", "i2"
	for i := range 200 {
		k := mustBetween(t, lo, hi)
		if i%2 == 0 {
			lo = k
		} else {
			hi = k
		}
	}
}

// insertAt inserts a new key at index i of keys, using the neighbours as
// bounds, and verifies ordering.
func insertAt(t *testing.T, keys []string, i int) []string {
	t.Helper()
	var a, b string
	if i > 0 {
		a = keys[i-1]
	}
	if i < len(keys) {
		b = keys[i]
	}
	k := mustBetween(t, a, b)
	return slices.Insert(keys, i, k)
}

func checkSorted(t *testing.T, keys []string) {
	t.Helper()
	for i := 1; i < len(keys); i++ {
		if keys[i-1] >= keys[i] {
			t.Fatalf("keys not strictly increasing at %d: %q >= %q", i, keys[i-1], keys[i])
		}
	}
}

func TestRandomInsertions(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var keys []string
	for n := range 5000 {
		keys = insertAt(t, keys, rng.Intn(len(keys)+1))
		if n%50 == 0 || n < 200 {
			checkSorted(t, keys)
		}
	}
	checkSorted(t, keys)
	longest := 0
	for _, k := range keys {
		longest = max(longest, len(k))
	}
	if longest > 12 {
		t.Errorf("random insertions produced a %d-character key", longest)
	}
}

func TestRandomMoves(t *testing.T) {
	// Move random items to random places, writing only the moved key.
	rng := rand.New(rand.NewSource(2))
	keys := Sequence(50)
	for range 3000 {
		from := rng.Intn(len(keys))
		keys = slices.Delete(keys, from, from+1)
		keys = insertAt(t, keys, rng.Intn(len(keys)+1))
		checkSorted(t, keys)
	}
}

func TestRandomInsertionsSkewed(t *testing.T) {
	// Insertions clustered at the ends and near a hot spot.
	rng := rand.New(rand.NewSource(3))
	keys := []string{First()}
	for range 4000 {
		var i int
		switch rng.Intn(4) {
		case 0:
			i = 0
		case 1:
			i = len(keys)
		case 2:
			i = min(len(keys), 1+rng.Intn(3))
		default:
			i = rng.Intn(len(keys) + 1)
		}
		keys = insertAt(t, keys, i)
	}
	checkSorted(t, keys)
}

func TestSequence(t *testing.T) {
	if got := Sequence(0); got != nil {
		t.Errorf("Sequence(0) = %q", got)
	}
	if got := Sequence(-3); got != nil {
		t.Errorf("Sequence(-3) = %q", got)
	}
	for _, n := range []int{1, 2, 3, 10, 17, 18, 35, 36, 100, 647, 648, 1000, 5000, 50000} {
		keys := Sequence(n)
		if len(keys) != n {
			t.Fatalf("Sequence(%d) returned %d keys", n, len(keys))
		}
		for _, k := range keys {
			checkKey(t, k)
			if len(k) != len(keys[0]) {
				t.Fatalf("Sequence(%d): keys of different lengths %q and %q", n, keys[0], k)
			}
		}
		checkSorted(t, keys)
		// Logarithmic length: 2 for the integer part plus enough digits.
		limit := 3
		for c := 36; c < 2*(n+1); c *= 36 {
			limit++
		}
		if len(keys[0]) > limit {
			t.Errorf("Sequence(%d) keys have length %d, want <= %d", n, len(keys[0]), limit)
		}
		// There is room everywhere, including the ends.
		mustBetween(t, "", keys[0])
		mustBetween(t, keys[n-1], "")
		for i := 1; i < n; i++ {
			k := mustBetween(t, keys[i-1], keys[i])
			if len(k) > len(keys[0])+1 {
				// Evenly spread keys leave a gap: the midpoint needs at
				// most one more character than the keys themselves.
				t.Fatalf("Sequence(%d): no room between %q and %q (got %q)", n, keys[i-1], keys[i], k)
			}
		}
	}
	if got := Sequence(3); !slices.Equal(got, []string{"i09", "i0i", "i0r"}) {
		t.Errorf("Sequence(3) = %q", got)
	}
}

func TestSequenceEvenSpread(t *testing.T) {
	keys := Sequence(10)
	// Single digit fractions spread over 1..35.
	var vals []int
	for _, k := range keys {
		vals = append(vals, digitValue(k[len(k)-1]))
	}
	for i := 1; i < len(vals); i++ {
		if gap := vals[i] - vals[i-1]; gap < 3 || gap > 4 {
			t.Errorf("uneven gap %d between %q and %q", gap, keys[i-1], keys[i])
		}
	}
}

func FuzzBetween(f *testing.F) {
	seeds := [][2]string{
		{"", ""}, {"i1", ""}, {"", "i1"}, {"i1", "i2"}, {"i1", "i11"},
		{"iz", "j005"}, {"hz", "i1"}, {"i0", ""}, {"", "I1"}, {"zz", "a"},
		{smallestInteger + "1", ""}, {"", smallestInteger + "1"},
		{"z" + strings.Repeat("z", maxDigits), ""},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		k, err := Between(a, b)
		validA := a == "" || Validate(a) == nil
		validB := b == "" || Validate(b) == nil
		ordered := a == "" || b == "" || a < b
		if !validA || !validB || !ordered {
			if err == nil {
				t.Fatalf("Between(%q, %q) = %q, want error", a, b, k)
			}
			return
		}
		if err != nil {
			t.Fatalf("Between(%q, %q): %v", a, b, err)
		}
		if err := Validate(k); err != nil {
			t.Fatalf("Between(%q, %q) = %q: %v", a, b, k, err)
		}
		if (a != "" && k <= a) || (b != "" && k >= b) {
			t.Fatalf("Between(%q, %q) = %q out of order", a, b, k)
		}
		// There is always room on both sides of the result.
		if _, err := Between(a, k); err != nil {
			t.Fatalf("Between(%q, %q): %v", a, k, err)
		}
		if _, err := Between(k, b); err != nil {
			t.Fatalf("Between(%q, %q): %v", k, b, err)
		}
	})
}
