// Package jsonguard holds the checks that every door runs on the JSON and
// the text it accepts, before decoding them further: the nesting depth of
// JSON, and U+0000 (NUL) in strings and keys. Text in Quire never holds
// NUL: PostgreSQL cannot store it in a text column, and SQLite would store
// it where PostgreSQL refuses, so the two databases would not answer
// alike. Each caller words its own refusal (a REST 400, a GraphQL
// BAD_REQUEST, a document's limit); the package only finds.
package jsonguard

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// TooDeep reports whether raw nests arrays and objects deeper than limit
// levels (the outermost array or object is level 1). It reads raw once,
// skipping strings, without decoding or validating it, and stops at the
// first level over the limit; so it is safe to run before a decoder whose
// cost or stack grows with the nesting.
func TooDeep(raw []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// HasNUL reports whether s holds U+0000.
func HasNUL(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// NULMessage is the message of a refusal: what (a field, a parameter, a
// variable) holds a NUL, which Quire does not accept in where ("text", or
// "its keys" for an object's keys).
func NULMessage(what, where string) string {
	return what + " contains a NUL character (U+0000), which Quire does not accept in " + where
}

// NUL is where a value holds U+0000.
type NUL struct {
	// Path names the string or the object: the root's name, then .key for
	// a member and [i] for an item ("in.tags[2]"); a member of an unnamed
	// root is named by its key alone ("title").
	Path string
	// InKey is set when the NUL is in one of the keys of the object at
	// Path rather than in a string there.
	InKey bool
}

// FindNUL looks for U+0000 in v, a value as encoding/json decodes into an
// any (strings, []any, map[string]any, numbers, booleans, nil), named root
// in the path reported. Items are looked at in order and an object's
// members in the order of their keys, so the NUL reported is the same
// every time. A value of another type is passed to other when it is not
// nil (a transport's file upload, say), which reports whether it holds
// one; other values hold none.
func FindNUL(root string, v any, other func(any) bool) (NUL, bool) {
	switch v := v.(type) {
	case nil, bool, float64, json.Number:
	case string:
		if HasNUL(v) {
			return NUL{Path: root}, true
		}
	case []any:
		for i, item := range v {
			if n, found := FindNUL(root+"["+strconv.Itoa(i)+"]", item, other); found {
				return n, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if HasNUL(k) {
				return NUL{Path: root, InKey: true}, true
			}
			if n, found := FindNUL(member(root, k), v[k], other); found {
				return n, true
			}
		}
	default:
		if other != nil && other(v) {
			return NUL{Path: root}, true
		}
	}
	return NUL{}, false
}

func member(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// escapedNUL is the only way valid JSON writes U+0000: a raw NUL byte is a
// control character, which JSON strings may not hold.
var escapedNUL = []byte(`\u0000`)

// FindNULInJSON looks for U+0000 in the strings and keys of the JSON
// value raw, as FindNUL does with an unnamed root. JSON that does not
// write \u0000 is not decoded; malformed JSON holds no NUL here (the
// caller's decoder reports it).
func FindNULInJSON(raw []byte) (NUL, bool) {
	if !bytes.Contains(raw, escapedNUL) {
		return NUL{}, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return NUL{}, false
	}
	return FindNUL("", v, nil)
}
