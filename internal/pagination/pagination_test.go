package pagination

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

type item struct {
	pos string
	id  string
}

func itemKey(it item) Cursor { return Cursor{Key: it.pos, ID: it.id} }

// makeItems returns n items sorted by (pos, id); pairs of items share a pos
// to exercise the ID tiebreaker.
func makeItems(n int) []item {
	items := make([]item, n)
	for i := range items {
		items[i] = item{pos: fmt.Sprintf("k%03d", i/2), id: fmt.Sprintf("id%03d", i)}
	}
	return items
}

func ids(items []item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.id
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func checkPage(t *testing.T, p Page[item]) {
	t.Helper()
	if p.Items == nil || p.Cursors == nil {
		t.Fatalf("nil Items or Cursors")
	}
	if len(p.Items) != len(p.Cursors) {
		t.Fatalf("%d items but %d cursors", len(p.Items), len(p.Cursors))
	}
	for i, it := range p.Items {
		c, err := Decode(p.Cursors[i])
		if err != nil || c != itemKey(it) {
			t.Fatalf("cursor %d decodes to %+v, %v; want %+v", i, c, err, itemKey(it))
		}
	}
	if len(p.Items) == 0 {
		if p.StartCursor != nil || p.EndCursor != nil {
			t.Fatalf("empty page with start/end cursor")
		}
		return
	}
	if p.StartCursor == nil || *p.StartCursor != p.Cursors[0] {
		t.Fatalf("StartCursor = %v", p.StartCursor)
	}
	if p.EndCursor == nil || *p.EndCursor != p.Cursors[len(p.Cursors)-1] {
		t.Fatalf("EndCursor = %v", p.EndCursor)
	}
}

func TestForwardPaging(t *testing.T) {
	items := makeItems(25)
	var seen []string
	var sizes []int
	after := ""
	for range 10 {
		p, err := Slice(items, itemKey, Args{First: ptr(10), After: ptr(after)}, 20, 100)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, p)
		if p.TotalCount != 25 {
			t.Errorf("TotalCount = %d", p.TotalCount)
		}
		if p.HasPreviousPage != (len(seen) > 0) {
			t.Errorf("page %d: HasPreviousPage = %v", len(sizes), p.HasPreviousPage)
		}
		sizes = append(sizes, len(p.Items))
		seen = append(seen, ids(p.Items)...)
		wantNext := len(seen) < 25
		if p.HasNextPage != wantNext {
			t.Errorf("page %d: HasNextPage = %v, want %v", len(sizes), p.HasNextPage, wantNext)
		}
		if !p.HasNextPage {
			break
		}
		after = *p.EndCursor
	}
	if !slices.Equal(sizes, []int{10, 10, 5}) {
		t.Errorf("page sizes %v, want [10 10 5]", sizes)
	}
	if !slices.Equal(seen, ids(items)) {
		t.Errorf("paged items %v, want %v (no duplicates, no gaps)", seen, ids(items))
	}
}

func TestRESTPaging(t *testing.T) {
	items := makeItems(25)
	var seen []string
	var sizes []int
	page := ""
	for range 10 {
		p, err := REST(items, itemKey, page, ptr(10), 20, 100)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, p)
		sizes = append(sizes, len(p.Items))
		seen = append(seen, ids(p.Items)...)
		next := p.NextPage()
		if (next != nil) != (len(seen) < 25) {
			t.Errorf("after %d items NextPage = %v", len(seen), next)
		}
		if next == nil {
			break
		}
		if *next != *p.EndCursor {
			t.Errorf("NextPage %q != EndCursor %q", *next, *p.EndCursor)
		}
		page = *next
	}
	if !slices.Equal(sizes, []int{10, 10, 5}) {
		t.Errorf("page sizes %v, want [10 10 5]", sizes)
	}
	if !slices.Equal(seen, ids(items)) {
		t.Errorf("paged items %v, want %v", seen, ids(items))
	}

	// Default limit.
	p, err := REST(items, itemKey, "", nil, 7, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 7 || !p.HasNextPage || p.HasPreviousPage {
		t.Errorf("default limit page: %d items, next %v, prev %v", len(p.Items), p.HasNextPage, p.HasPreviousPage)
	}
}

func TestBackwardPaging(t *testing.T) {
	items := makeItems(25)
	var seen []string
	var sizes []int
	before := ""
	for range 10 {
		p, err := Slice(items, itemKey, Args{Last: ptr(10), Before: ptr(before)}, 20, 100)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, p)
		sizes = append(sizes, len(p.Items))
		seen = append(ids(p.Items), seen...)
		if p.HasNextPage != (len(sizes) > 1) {
			t.Errorf("page %d: HasNextPage = %v", len(sizes), p.HasNextPage)
		}
		if p.HasPreviousPage != (len(seen) < 25) {
			t.Errorf("page %d: HasPreviousPage = %v", len(sizes), p.HasPreviousPage)
		}
		if !p.HasPreviousPage {
			break
		}
		before = *p.StartCursor
	}
	if !slices.Equal(sizes, []int{10, 10, 5}) {
		t.Errorf("page sizes %v, want [10 10 5]", sizes)
	}
	if !slices.Equal(seen, ids(items)) {
		t.Errorf("paged items %v, want %v", seen, ids(items))
	}
}

func TestAfterAndBefore(t *testing.T) {
	items := makeItems(25)
	after := Encode(itemKey(items[4]))
	before := Encode(itemKey(items[15]))
	tests := []struct {
		name       string
		args       Args
		from, to   int
		next, prev bool
	}{
		{"window", Args{After: &after, Before: &before}, 5, 15, true, true},
		{"window first", Args{After: &after, Before: &before, First: ptr(3)}, 5, 8, true, true},
		{"window last", Args{After: &after, Before: &before, Last: ptr(3)}, 12, 15, true, true},
		{"first then last", Args{First: ptr(10), Last: ptr(4)}, 6, 10, true, true},
		{"last all", Args{Last: ptr(100)}, 0, 25, false, false},
		{"first all", Args{First: ptr(100)}, 0, 25, false, false},
		{"before only", Args{Before: &before}, 0, 15, true, false},
		{"after only default", Args{After: &after}, 5, 25, false, true},
		{"crossed", Args{After: &before, Before: &after}, 16, 16, true, true},
		{"empty strings are absent", Args{After: ptr(""), Before: ptr("")}, 0, 20, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Slice(items, itemKey, tt.args, 20, 100)
			if err != nil {
				t.Fatal(err)
			}
			checkPage(t, p)
			if want := ids(items[tt.from:tt.to]); !slices.Equal(ids(p.Items), want) {
				t.Errorf("items %v, want %v", ids(p.Items), want)
			}
			if p.HasNextPage != tt.next || p.HasPreviousPage != tt.prev {
				t.Errorf("next/prev = %v/%v, want %v/%v", p.HasNextPage, p.HasPreviousPage, tt.next, tt.prev)
			}
			if p.TotalCount != 25 {
				t.Errorf("TotalCount = %d", p.TotalCount)
			}
		})
	}
}

func TestLimitZero(t *testing.T) {
	items := makeItems(25)
	p, err := Slice(items, itemKey, Args{First: ptr(0)}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, p)
	if len(p.Items) != 0 || p.TotalCount != 25 || !p.HasNextPage || p.HasPreviousPage {
		t.Errorf("first 0: %d items, total %d, next %v, prev %v", len(p.Items), p.TotalCount, p.HasNextPage, p.HasPreviousPage)
	}
	if p.NextPage() != nil {
		t.Errorf("NextPage on empty page = %q", *p.NextPage())
	}

	p, err = REST(items, itemKey, "", ptr(0), 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 0 || p.TotalCount != 25 || !p.HasNextPage {
		t.Errorf("REST limit 0: %d items, total %d, next %v", len(p.Items), p.TotalCount, p.HasNextPage)
	}

	p, err = Slice(items, itemKey, Args{Last: ptr(0)}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 0 || p.TotalCount != 25 || !p.HasPreviousPage || p.HasNextPage {
		t.Errorf("last 0: %d items, total %d, next %v, prev %v", len(p.Items), p.TotalCount, p.HasNextPage, p.HasPreviousPage)
	}

	p, err = Slice([]item(nil), itemKey, Args{}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, p)
	if p.TotalCount != 0 || p.HasNextPage || p.HasPreviousPage {
		t.Errorf("empty list: %+v", p)
	}
}

func TestLimitErrors(t *testing.T) {
	items := makeItems(5)
	tests := []struct {
		args  Args
		field string
	}{
		{Args{First: ptr(-1)}, "first"},
		{Args{First: ptr(1001)}, "first"},
		{Args{Last: ptr(-5)}, "last"},
		{Args{Last: ptr(1001)}, "last"},
	}
	for _, tt := range tests {
		_, err := Slice(items, itemKey, tt.args, 20, 1000)
		var le *LimitError
		if !errors.As(err, &le) || le.Field != tt.field || le.Max != 1000 {
			t.Errorf("%+v: error %v, want LimitError for %s", tt.args, err, tt.field)
			continue
		}
		if want := tt.field + " must be between 0 and 1000"; err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
	}
	_, err := REST(items, itemKey, "", ptr(1001), 20, 1000)
	if err == nil || err.Error() != "limit must be between 0 and 1000" {
		t.Errorf("REST limit error = %v", err)
	}
	if _, err := Slice(items, itemKey, Args{First: ptr(1000)}, 20, 1000); err != nil {
		t.Errorf("first == max: %v", err)
	}
	// maxLimit <= 0 disables the bound; a huge first must not overflow.
	p, err := Slice(items, itemKey, Args{First: ptr(int(^uint(0) >> 1)), Last: ptr(int(^uint(0) >> 1))}, 20, 0)
	if err != nil || len(p.Items) != 5 {
		t.Errorf("unbounded: %d items, %v", len(p.Items), err)
	}
	// The default limit is clamped to the maximum.
	p, err = Slice(items, itemKey, Args{}, 50, 3)
	if err != nil || len(p.Items) != 3 {
		t.Errorf("clamped default: %d items, %v", len(p.Items), err)
	}
}

func TestPageDoesNotAliasInput(t *testing.T) {
	items := makeItems(5)
	p, err := Slice(items, itemKey, Args{First: ptr(2)}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(p.Items, item{id: "clobber"})
	p.Items[0].id = "changed"
	if items[0].id != "id000" || items[2].id != "id002" {
		t.Errorf("input modified: %v", ids(items))
	}
}

// TestRandomAgainstReference compares Slice with a direct filter over the
// list for random arguments.
func TestRandomAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 3000 {
		n := rng.Intn(30)
		items := makeItems(n)
		randCursor := func() *string {
			switch rng.Intn(4) {
			case 0:
				return nil
			case 1:
				if n > 0 {
					return ptr(Encode(itemKey(items[rng.Intn(n)])))
				}
			}
			return ptr(Encode(Cursor{Key: fmt.Sprintf("k%03d", rng.Intn(17)), ID: fmt.Sprintf("id%03d5", rng.Intn(32))}))
		}
		randLimit := func() *int {
			if rng.Intn(2) == 0 {
				return nil
			}
			return ptr(rng.Intn(12))
		}
		args := Args{First: randLimit(), After: randCursor(), Last: randLimit(), Before: randCursor()}
		p, err := Slice(items, itemKey, args, 5, 100)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, p)

		// Reference: indexes of items strictly inside the cursors.
		var idx []int
		for i, it := range items {
			c := itemKey(it)
			if args.After != nil {
				a, _ := Decode(*args.After)
				if c.Compare(a) <= 0 {
					continue
				}
			}
			if args.Before != nil {
				b, _ := Decode(*args.Before)
				if c.Compare(b) >= 0 {
					continue
				}
			}
			idx = append(idx, i)
		}
		first := args.First
		if first == nil && args.Last == nil {
			first = ptr(5)
		}
		if first != nil && len(idx) > *first {
			idx = idx[:*first]
		}
		if args.Last != nil && len(idx) > *args.Last {
			idx = idx[len(idx)-*args.Last:]
		}
		var want []string
		for _, i := range idx {
			want = append(want, items[i].id)
		}
		if !slices.Equal(ids(p.Items), want) {
			t.Fatalf("%d items, args %+v: got %v, want %v", n, args, ids(p.Items), want)
		}
		if len(idx) > 0 {
			if p.HasPreviousPage != (idx[0] > 0) || p.HasNextPage != (idx[len(idx)-1] < n-1) {
				t.Fatalf("flags next/prev %v/%v for %v of %d", p.HasNextPage, p.HasPreviousPage, idx, n)
			}
		}
		if p.TotalCount != n {
			t.Fatalf("TotalCount %d, want %d", p.TotalCount, n)
		}
	}
}
