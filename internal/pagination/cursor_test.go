package pagination

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	cases := []Cursor{
		{},
		{Key: "i1", ID: "0195f3a2-7b7c-7c1e-9c5e-1a2b3c4d5e6f"},
		{Key: "", ID: "x"},
		{Key: "x", ID: ""},
		{Key: "ключ", ID: "\x00\xff"},
		{Key: string(make([]byte, 300)), ID: "long"},
	}
	for _, c := range cases {
		s := Encode(c)
		if url.QueryEscape(s) != s || url.PathEscape(s) != s {
			t.Errorf("Encode(%+v) = %q is not URL-safe", c, s)
		}
		got, err := Decode(s)
		if err != nil || got != c {
			t.Errorf("Decode(Encode(%+v)) = %+v, %v", c, got, err)
		}
	}
	if Encode(Cursor{Key: "a", ID: "bc"}) == Encode(Cursor{Key: "ab", ID: "c"}) {
		t.Error("ambiguous encoding")
	}
}

func TestDecodeGarbage(t *testing.T) {
	valid := Encode(Cursor{Key: "k", ID: "id"})
	garbage := []string{
		"",
		"not a cursor!",
		"====",
		"AQ",                       // version byte only
		"Ag",                       // wrong version
		"AX8",                      // length beyond end
		"Af__________________8B",   // overflowing varint
		valid + "=",                // padding
		valid[:len(valid)-1] + "*", // bad character
		string(make([]byte, maxEncodedLen+1)),
	}
	for _, s := range garbage {
		if c, err := Decode(s); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("Decode(%q) = %+v, %v; want ErrInvalidCursor", s, c, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("")
	f.Add(Encode(Cursor{Key: "k", ID: "id"}))
	f.Add("AX8")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Decode(s)
		if err != nil {
			return
		}
		// Anything accepted re-encodes to a cursor decoding to the same value.
		c2, err := Decode(Encode(c))
		if err != nil || c2 != c {
			t.Fatalf("re-encoding %+v: %+v, %v", c, c2, err)
		}
	})
}

func TestCursorOfRemovedItem(t *testing.T) {
	items := makeItems(25)
	p, err := Slice(items, itemKey, Args{First: ptr(10)}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	// The last item of the page (index 9) and its neighbour are deleted.
	items = slices.Delete(items, 9, 11)
	p, err = Slice(items, itemKey, Args{First: ptr(10), After: p.EndCursor}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, p)
	if want := ids(items[9:19]); !slices.Equal(ids(p.Items), want) {
		t.Errorf("items %v, want %v", ids(p.Items), want)
	}
	if !p.HasPreviousPage || !p.HasNextPage {
		t.Errorf("next/prev = %v/%v", p.HasNextPage, p.HasPreviousPage)
	}

	// Same for before, and for a cursor with no item at all.
	gone := Encode(Cursor{Key: "k004", ID: "id0085"}) // between id008 and id009
	p, err = Slice(makeItems(25), itemKey, Args{Last: ptr(3), Before: &gone}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"id006", "id007", "id008"}; !slices.Equal(ids(p.Items), want) {
		t.Errorf("items %v, want %v", ids(p.Items), want)
	}
	p, err = Slice(makeItems(25), itemKey, Args{First: ptr(2), After: &gone}, 20, 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"id009", "id010"}; !slices.Equal(ids(p.Items), want) {
		t.Errorf("items %v, want %v", ids(p.Items), want)
	}
}

func TestCursorErrors(t *testing.T) {
	items := makeItems(5)
	bad := "%%%garbage"
	tests := []struct {
		args  Args
		field string
	}{
		{Args{After: &bad}, "after"},
		{Args{Before: &bad}, "before"},
		{Args{After: ptr("AX8")}, "after"},
	}
	for _, tt := range tests {
		_, err := Slice(items, itemKey, tt.args, 20, 100)
		var ce *CursorError
		if !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("error %v, want CursorError for %s", err, tt.field)
			continue
		}
		if want := fmt.Sprintf("invalid cursor in %q", tt.field); err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
		if !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("%v does not wrap ErrInvalidCursor", err)
		}
	}
	_, err := REST(items, itemKey, bad, nil, 20, 100)
	if err == nil || err.Error() != `invalid cursor in "page"` {
		t.Errorf("REST cursor error = %v", err)
	}
}
