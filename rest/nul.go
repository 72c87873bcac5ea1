package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"quire/internal/apierr"
)

// Text in Quire never holds U+0000 (NUL): PostgreSQL cannot store it in a
// text column, and SQLite would store it where PostgreSQL refuses, so both
// databases would not answer alike. A request carrying one in a path
// parameter, a query parameter or anywhere in its JSON body (a string or
// a key) is refused with 400 naming where, before it is decoded further.

// nulError says that field holds a NUL.
func nulError(field, where string) error {
	return apierr.Invalid(field, "%s contains a NUL character (U+0000), which Quire does not accept in %s", field, where)
}

// checkParamsNUL checks the path parameters of rt and every query
// parameter of r.
func checkParamsNUL(r *http.Request, rt *Route) error {
	for _, name := range pathParams(rt.Pattern) {
		if strings.IndexByte(r.PathValue(name), 0) >= 0 {
			return nulError(name, "text")
		}
	}
	if strings.IndexByte(r.URL.RawQuery, '%') < 0 {
		return nil // no escape, so no NUL
	}
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if strings.IndexByte(name, 0) >= 0 {
			return nulError("query parameter "+strconv.Quote(name), "text")
		}
		for _, v := range q[name] {
			if strings.IndexByte(v, 0) >= 0 {
				return nulError(name, "text")
			}
		}
	}
	return nil
}

// pathParams lists the {name} segments of a pattern.
func pathParams(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, strings.TrimSuffix(strings.Trim(seg, "{}"), "..."))
		}
	}
	return out
}

// checkBodyNUL refuses a JSON body with U+0000 in a string or a key. A NUL
// can only be written \u0000 in valid JSON, so bodies without that text
// are not decoded here.
func checkBodyNUL(raw []byte) error {
	if !bytes.Contains(raw, []byte(`\u0000`)) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil // malformed: the decoder reports it
	}
	return findNUL("", v)
}

func findNUL(path string, v any) error {
	field := path
	if field == "" {
		field = "body"
	}
	switch v := v.(type) {
	case string:
		if strings.IndexByte(v, 0) >= 0 {
			return nulError(field, "text")
		}
	case []any:
		for i, item := range v {
			if err := findNUL(path+"["+strconv.Itoa(i)+"]", item); err != nil {
				return err
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if strings.IndexByte(k, 0) >= 0 {
				return nulError(field, "its keys")
			}
			if err := findNUL(join(path, k), v[k]); err != nil {
				return err
			}
		}
	}
	return nil
}
