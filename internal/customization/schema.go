package customization

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"quire/internal/apierr"
)

// This file is a small validator for the generic JSON trees that
// encoding/json produces (map[string]any, []any, string, bool,
// json.Number, nil). A hand-written rule tree is far smaller than a JSON
// Schema engine and lets every error carry the exact JSON path.

// jsonType is the JSON type a rule accepts.
type jsonType int

const (
	tObject jsonType = iota
	tString
	tBool
	tInt
	tArray
	tUnion // decided by rule.union
)

// format is a semantic check on a string.
type format int

const (
	fNone format = iota
	fColor
	fWebURL  // absolute http(s) URL
	fURIRef  // absolute or relative URL
	fLinkURL // absolute URL a reader may follow: http(s), mailto, tel
)

// rule describes the JSON value allowed at one place of a document.
type rule struct {
	typ      jsonType
	nullable bool

	// objects: props in document order; keys not listed are refused.
	props []prop
	// what names the object in "is not a field of ..." messages.
	what string

	// strings
	enum           []string
	minLen, maxLen int // in characters; maxLen 0 means no limit
	format         format

	// arrays
	items              *rule
	minItems, maxItems int // maxItems 0 means no limit

	// integers
	min, max int64

	// union picks the rule that applies to v (nil when v has the wrong
	// shape for every variant, which is then reported by union itself).
	union func(path string, v any) error
}

// prop is one key of an object rule.
type prop struct {
	name     string
	rule     *rule
	required bool
}

// merges reports whether two objects at this place are merged key by key.
// Unions are replaced whole: the result of merging two variants would
// match neither.
func (r *rule) merges() bool { return r != nil && r.typ == tObject }

// child returns the rule of key k in an object rule, nil if unknown.
func (r *rule) child(k string) *rule {
	if r == nil {
		return nil
	}
	for _, p := range r.props {
		if p.name == k {
			return p.rule
		}
	}
	return nil
}

var colorPattern = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

// maxURLLength is the documented limit of URL fields.
const maxURLLength = 2048

// invalid reports a bad field; the path is both the error's Field and the
// start of its message, so that REST clients who only show the message
// still learn which field failed.
func invalid(path, format string, args ...any) error {
	if path == "" {
		path = "body"
	}
	return apierr.Invalid(path, "%s %s", path, fmt.Sprintf(format, args...))
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// check returns the first violation of r by v, walking objects in the
// order of r.props so that errors are deterministic.
func (r *rule) check(path string, v any) error {
	if v == nil {
		if r.nullable {
			return nil
		}
		// Fall through: the type checks below name the expected type.
	}
	switch r.typ {
	case tUnion:
		return r.union(path, v)
	case tObject:
		m, ok := v.(map[string]any)
		if !ok {
			return invalid(path, "must be an object")
		}
		return r.checkObject(path, m)
	case tString:
		s, ok := v.(string)
		if !ok {
			return invalid(path, "must be a string")
		}
		return r.checkString(path, s)
	case tBool:
		if _, ok := v.(bool); !ok {
			return invalid(path, "must be true or false")
		}
	case tInt:
		n, ok := v.(json.Number)
		if !ok {
			return invalid(path, "must be a number")
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return invalid(path, "must be a whole number")
		}
		if i < r.min || i > r.max {
			return invalid(path, "must be between %d and %d", r.min, r.max)
		}
	case tArray:
		a, ok := v.([]any)
		if !ok {
			return invalid(path, "must be an array")
		}
		if len(a) < r.minItems {
			return invalid(path, "must hold at least %d item(s)", r.minItems)
		}
		if r.maxItems > 0 && len(a) > r.maxItems {
			return invalid(path, "may hold at most %d items", r.maxItems)
		}
		for i, e := range a {
			if err := r.items.check(index(path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *rule) checkObject(path string, m map[string]any) error {
	var unknown []string
	for k := range m {
		if r.child(k) == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		what := r.what
		if what == "" {
			what = path
		}
		if what == "" {
			return invalid(unknown[0], "is not a customization setting")
		}
		return invalid(join(path, unknown[0]), "is not a field of %s", what)
	}
	for _, p := range r.props {
		v, ok := m[p.name]
		if !ok {
			if p.required {
				return invalid(join(path, p.name), "is required")
			}
			continue
		}
		if err := p.rule.check(join(path, p.name), v); err != nil {
			return err
		}
	}
	return nil
}

func (r *rule) checkString(path, s string) error {
	if r.enum != nil {
		if !slices.Contains(r.enum, s) {
			return invalid(path, "must be one of %s", strings.Join(r.enum, ", "))
		}
		return nil
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n < r.minLen && r.minLen == 1:
		return invalid(path, "must not be empty")
	case n < r.minLen && r.maxLen > 0:
		return invalid(path, "must be %d to %d characters long", r.minLen, r.maxLen)
	case n < r.minLen:
		return invalid(path, "must be at least %d characters long", r.minLen)
	case r.maxLen > 0 && n > r.maxLen:
		return invalid(path, "must be at most %d characters long", r.maxLen)
	}
	switch r.format {
	case fColor:
		if !colorPattern.MatchString(s) {
			return invalid(path, "must be a color in the form #rgb or #rrggbb")
		}
	case fWebURL:
		if !isURL(s, true, "http", "https") {
			return invalid(path, "must be an absolute http or https URL")
		}
	case fLinkURL:
		if !isURL(s, true, "http", "https", "mailto", "tel") {
			return invalid(path, "must be an absolute http, https, mailto or tel URL")
		}
	case fURIRef:
		if !isURL(s, false, "http", "https") {
			return invalid(path, "must be an http or https URL, or a relative URL")
		}
	}
	return nil
}

// isURL reports whether s is a well-formed URL with one of the schemes.
// A relative URL (no scheme) passes only when absolute is false. Hosts are
// required for http(s); that also rejects "https:foo".
func isURL(s string, absolute bool, schemes ...string) bool {
	if s == "" || len(s) > maxURLLength {
		return false
	}
	for _, c := range s {
		if c <= ' ' || c == 0x7f {
			return false
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if u.Scheme == "" {
		return !absolute
	}
	scheme := strings.ToLower(u.Scheme)
	if !slices.Contains(schemes, scheme) {
		return false
	}
	if scheme == "http" || scheme == "https" {
		return u.Host != "" && u.Hostname() != ""
	}
	return u.Opaque != ""
}

// merge lays over on top of base and returns the result; neither input is
// modified. Objects whose rule merges are combined key by key, anything
// else in over replaces base. A null in over removes the key, or, when def
// (the default document at the same place) has the key, resets it to the
// default.
func merge(base, over, def any, r *rule) any {
	om, ok := over.(map[string]any)
	if !ok || !r.merges() {
		return over
	}
	bm, ok := base.(map[string]any)
	if !ok {
		bm = nil
	}
	dm, _ := def.(map[string]any)
	out := make(map[string]any, len(bm)+len(om))
	for k, v := range bm {
		out[k] = v
	}
	for k, v := range om {
		if v == nil {
			if d, ok := dm[k]; ok {
				out[k] = d
			} else {
				delete(out, k)
			}
			continue
		}
		out[k] = merge(out[k], v, dm[k], r.child(k))
	}
	return out
}

// prune removes objects left empty by a merge (e.g. "styling" once every
// override in it was reset), so that an override with nothing in it is
// the zero SpaceSettings.
func prune(v any, r *rule) any {
	m, ok := v.(map[string]any)
	if !ok || !r.merges() {
		return v
	}
	out := make(map[string]any, len(m))
	for k, c := range m {
		c = prune(c, r.child(k))
		if cm, ok := c.(map[string]any); ok && len(cm) == 0 && r.child(k).merges() {
			continue
		}
		out[k] = c
	}
	return out
}

// parse reads one JSON value, keeping numbers exact.
func parse(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, invalid("body", "is not valid JSON")
	}
	if len(bytes.TrimSpace(raw[dec.InputOffset():])) > 0 {
		return nil, invalid("body", "must hold a single JSON value")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, invalid("body", "must be a JSON object")
	}
	return v, nil
}

// tree turns a typed value into the generic JSON tree.
func tree(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("customization: encode %T: %w", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("customization: re-read %T: %w", v, err)
	}
	return m, nil
}

// fromTree fills dst from a tree that has passed its rules.
func fromTree(m map[string]any, dst any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("customization: encode tree: %w", err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("customization: decode %T: %w", dst, err)
	}
	return nil
}
