package jsonguard

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestTooDeep(t *testing.T) {
	for _, tc := range []struct {
		name  string
		raw   string
		limit int
		want  bool
	}{
		{"scalar", `"x"`, 0, false},
		{"empty", ``, 0, false},
		{"one level at limit 1", `{"a":1}`, 1, false},
		{"one level at limit 0", `[]`, 0, true},
		{"two levels at limit 1", `{"a":[1]}`, 1, true},
		{"siblings do not add up", `[[],[],{}]`, 2, false},
		{"brackets in strings do not count", `{"a":"[[[[{{{{"}`, 1, false},
		{"escaped quote keeps the string open", `{"a":"\"[[["}`, 1, false},
		{"escaped backslash closes the string", `{"a":"\\","b":[[1]]}`, 2, true},
		{"exactly at the limit", strings.Repeat(`[`, 96) + strings.Repeat(`]`, 96), 96, false},
		{"one over the limit", strings.Repeat(`[`, 97) + strings.Repeat(`]`, 97), 96, true},
		// Unclosed input is judged on what it opens: the decoder after it
		// reports it malformed.
		{"unclosed", strings.Repeat(`{"a":`, 5), 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TooDeep([]byte(tc.raw), tc.limit); got != tc.want {
				t.Errorf("TooDeep(%q, %d) = %v, want %v", tc.raw, tc.limit, got, tc.want)
			}
		})
	}
}

func TestFindNULInJSON(t *testing.T) {
	for _, tc := range []struct {
		name  string
		raw   string
		found bool
		want  NUL
	}{
		{"none", `{"title":"a","n":1,"ok":true,"x":null}`, false, NUL{}},
		{"a string", `{"title":"a\u0000b"}`, true, NUL{Path: "title"}},
		{"the root string", `"\u0000"`, true, NUL{}},
		{"an item", `{"tags":["a","\u0000"]}`, true, NUL{Path: "tags[1]"}},
		{"deep", `{"a":{"b":[{"c":"\u0000"}]}}`, true, NUL{Path: "a.b[0].c"}},
		{"a key", `{"a":{"k\u0000":1}}`, true, NUL{Path: "a", InKey: true}},
		{"a key of the root", `{"\u0000":1}`, true, NUL{InKey: true}},
		{"first key in order", `{"b":"\u0000","a":"\u0000"}`, true, NUL{Path: "a"}},
		{"an escaped backslash before u0000 is text", `{"a":"\\u0000"}`, false, NUL{}},
		{"malformed", `{"a":"\u0000"`, false, NUL{}},
		{"other escapes", `{"a":"\u0001\n"}`, false, NUL{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, found := FindNULInJSON([]byte(tc.raw))
			if found != tc.found || got != tc.want {
				t.Errorf("FindNULInJSON(%s) = %+v, %v; want %+v, %v", tc.raw, got, found, tc.want, tc.found)
			}
		})
	}
}

func TestFindNULOther(t *testing.T) {
	type upload struct{ name string }
	other := func(v any) bool {
		u, ok := v.(upload)
		return ok && HasNUL(u.name)
	}
	v := map[string]any{"files": []any{upload{"a.txt"}, upload{"b\x00.txt"}}}
	if got, found := FindNUL("in", v, other); !found || got != (NUL{Path: "in.files[1]"}) {
		t.Errorf("FindNUL = %+v, %v; want in.files[1]", got, found)
	}
	if _, found := FindNUL("in", v, nil); found {
		t.Error("FindNUL without other looked into a value of another type")
	}
	if _, found := FindNUL("n", int64(0), other); found {
		t.Error("FindNUL found a NUL in a number")
	}
}

func TestNULMessage(t *testing.T) {
	want := "title contains a NUL character (U+0000), which Quire does not accept in text"
	if got := NULMessage("title", "text"); got != want {
		t.Errorf("NULMessage = %q, want %q", got, want)
	}
}

// depth is the nesting of a valid JSON value, read through encoding/json.
func depth(raw []byte) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	d, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			d++
			deepest = max(deepest, d)
		case json.Delim('}'), json.Delim(']'):
			d--
		}
	}
}

// FuzzTooDeep checks TooDeep against encoding/json's reading of valid JSON,
// and that it never panics on anything else.
func FuzzTooDeep(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[[[]]]`, `{"a":"[[[","b":[{"c":"\"]"}]}`, `"\\"`, `[1,[2,[3]]]`,
		strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100), `{"a":`, `]]]`,
	} {
		f.Add([]byte(seed), 2)
	}
	f.Fuzz(func(t *testing.T, raw []byte, limit int) {
		got := TooDeep(raw, limit)
		// A limit below 0 means nothing: a scalar nests 0 levels.
		if limit < 0 || !json.Valid(raw) {
			return
		}
		if want := depth(raw) > limit; got != want {
			t.Errorf("TooDeep(%q, %d) = %v, want %v", raw, limit, got, want)
		}
	})
}

// FuzzFindNULInJSON checks FindNULInJSON against encoding/json, which
// writes U+0000 as \u0000 when it encodes a value again, and a backslash as
// \\ (removed first, so that text reading \u0000 is not taken for one).
func FuzzFindNULInJSON(f *testing.F) {
	for _, seed := range []string{
		`{"a":"\u0000"}`, `{"\u0000":1}`, `["x",{"y":["\u0000"]}]`, `"\\u0000"`,
		`{"a":1}`, `{"a":"\u0000"`, "\"\x00\"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, found := FindNULInJSON(raw)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			if found {
				t.Errorf("FindNULInJSON(%q) found %+v in malformed JSON", raw, got)
			}
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		again = bytes.ReplaceAll(again, []byte(`\\`), nil)
		if want := bytes.Contains(again, escapedNUL); found != want {
			t.Errorf("FindNULInJSON(%q) = %+v, %v; want found %v", raw, got, found, want)
		}
	})
}
