package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"

	"quire/internal/apierr"
	"quire/internal/jsonguard"
)

// MaxDepth is how deeply a request body may nest objects and arrays. The
// server caps a body at 1 MiB; the depth bound keeps decoding it (here and
// in the engines that read documents and settings) shallow too. It leaves
// room for a body carrying a document (a change request's description) as
// deep as the document engine accepts (internal/document MaxJSONDepth, 96
// levels of JSON), so that such a document is refused, when it is, by that
// engine's own message naming the limit and where it is exceeded.
const MaxDepth = 100

// decodeInput decodes a request's input into in, as its route documents it.
func decodeInput(req *Request, rt *Route, in any) error {
	switch {
	case rt.Request != nil:
		raw, err := readBody(req, rt.BodyOptional)
		if err != nil {
			return err
		}
		if many, err := decodeOneOrMany(raw, in); many || err != nil {
			if err != nil {
				return err
			}
			break
		}
		if err := decodeBody(raw, in); err != nil {
			return err
		}
	case rt.Params != nil:
		if err := decodeQuery(req.HTTP.URL.Query(), in); err != nil {
			return err
		}
	}
	if s, ok := in.(interface{ sharedKey() *string }); ok {
		req.shareKey = s.sharedKey()
	}
	return nil
}

// readBody reads a request body; an empty one is {} when optional.
func readBody(req *Request, optional bool) ([]byte, error) {
	raw, err := io.ReadAll(req.HTTP.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, apierr.Invalid("body", "Could not read the request body")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		if !optional {
			return nil, apierr.Invalid("body", "A JSON request body is required")
		}
		return []byte("{}"), nil
	}
	return raw, nil
}

var errNotObject = apierr.Invalid("body", "The request body must be a JSON object")

// decodeBody decodes a JSON object body into v, a pointer to a body struct,
// and checks it against the struct's tags. Every failure is a 400 naming
// the field: malformed JSON, nesting deeper than MaxDepth, a wrong JSON
// type, a missing required field, a null where none is allowed, or a value
// outside the documented limits.
func decodeBody(raw []byte, v any) error {
	if err := checkDepth(raw); err != nil {
		return err
	}
	if !json.Valid(raw) {
		return errNotObject
	}
	if err := checkBodyNUL(raw); err != nil {
		return err
	}
	raw = bytes.TrimSpace(raw)
	if raw[0] != '{' {
		return errNotObject
	}
	rv := reflect.ValueOf(v).Elem()
	return decodeValue("", raw, rv, &constraints{minLength: -1, maxLength: -1, maxItems: -1})
}

// checkDepth refuses JSON that nests objects and arrays deeper than
// MaxDepth, in one pass that skips strings.
func checkDepth(raw []byte) error {
	if jsonguard.TooDeep(raw, MaxDepth) {
		return apierr.Invalid("body", "The request body nests objects and arrays deeper than %d levels", MaxDepth)
	}
	return nil
}

func jsonNull(raw []byte) bool { return string(raw) == "null" }

// typeError names the JSON type a field must have.
func typeError(path string, t reflect.Type) error {
	if path == "" {
		return errNotObject
	}
	return apierr.Invalid(path, "%s must be %s", path, jsonKind(t))
}

func jsonKind(t reflect.Type) string {
	if isRawObject(t) {
		return "an object"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// decodeValue decodes one non-null JSON value (valid, within MaxDepth)
// into v.
func decodeValue(path string, raw []byte, v reflect.Value, c *constraints) error {
	t := v.Type()
	switch {
	case isRaw(t):
		v.SetBytes(append([]byte(nil), raw...))
		return nil
	case isRawObject(t):
		if raw[0] != '{' {
			return typeError(path, t)
		}
		v.Addr().Interface().(rawObject).setRaw(append([]byte(nil), raw...))
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := decodeValue(path, raw, p.Elem(), c); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.String:
		var s string
		if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return typeError(path, t)
		}
		if err := c.checkString(path, s); err != nil {
			return err
		}
		v.SetString(s)
		if val, ok := v.Interface().(validator); ok {
			return val.validate(path)
		}
	case reflect.Bool:
		switch string(raw) {
		case "true", "false":
			v.SetBool(string(raw) == "true")
		default:
			return typeError(path, t)
		}
	case reflect.Int, reflect.Int64, reflect.Float64:
		return decodeNumber(path, raw, v, c)
	case reflect.Slice:
		return decodeArray(path, raw, v, c)
	case reflect.Map:
		var m map[string]json.RawMessage
		if raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
			return typeError(path, t)
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, r := range m {
			kp, e := join(path, k), reflect.New(t.Elem()).Elem()
			switch {
			case jsonNull(r) && isRaw(t.Elem()):
				e.SetBytes([]byte("null"))
			case jsonNull(r):
				return apierr.Invalid(kp, "%s cannot be null", kp)
			default:
				if err := decodeValue(kp, r, e, c); err != nil {
					return err
				}
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), e)
		}
		v.Set(out)
	case reflect.Struct:
		return decodeObject(path, raw, v)
	default:
		return typeError(path, t)
	}
	return nil
}

func decodeNumber(path string, raw []byte, v reflect.Value, c *constraints) error {
	t := v.Type()
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return typeError(path, t)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) {
		return typeError(path, t)
	}
	if t.Kind() != reflect.Float64 && f != math.Trunc(f) {
		return typeError(path, t)
	}
	if (c.minimum != nil && f < float64(*c.minimum)) || (c.maximum != nil && f > float64(*c.maximum)) {
		return apierr.Invalid(path, "%s must be %s", path, bounds(c))
	}
	if t.Kind() == reflect.Float64 {
		v.SetFloat(f)
	} else {
		if f < math.MinInt64 || f > math.MaxInt64 {
			return typeError(path, t)
		}
		v.SetInt(int64(f))
	}
	return nil
}

// bounds says which numbers a field accepts.
func bounds(c *constraints) string {
	switch {
	case c.minimum != nil && c.maximum != nil:
		return "between " + strconv.Itoa(*c.minimum) + " and " + strconv.Itoa(*c.maximum)
	case c.minimum != nil:
		return "at least " + strconv.Itoa(*c.minimum)
	case c.maximum != nil:
		return "at most " + strconv.Itoa(*c.maximum)
	}
	return "a number"
}

// decodeArray reads an array item by item, so that one longer than its
// documented maximum is refused before its items are decoded.
func decodeArray(path string, raw []byte, v reflect.Value, c *constraints) error {
	t := v.Type()
	if raw[0] != '[' {
		return typeError(path, t)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return typeError(path, t)
	}
	out := reflect.MakeSlice(t, 0, 0)
	for i := 0; dec.More(); i++ {
		if c.maxItems >= 0 && i >= c.maxItems {
			return apierr.Invalid(path, "%s: must have at most %d items", path, c.maxItems)
		}
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return typeError(path, t)
		}
		itemPath := path + "[" + strconv.Itoa(i) + "]"
		e := reflect.New(t.Elem()).Elem()
		switch {
		case jsonNull(item) && t.Elem().Kind() == reflect.Pointer:
		case jsonNull(item) && isRaw(t.Elem()):
			e.SetBytes([]byte("null"))
		case jsonNull(item):
			return typeError(itemPath, t.Elem())
		default:
			if err := decodeValue(itemPath, item, e, c); err != nil {
				return err
			}
		}
		out = reflect.Append(out, e)
	}
	v.Set(out)
	return nil
}

// decodeObject decodes a JSON object into a body struct, field by field in
// the struct's order; keys the struct does not name are ignored.
func decodeObject(path string, raw []byte, v reflect.Value) error {
	var m map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return typeError(path, v.Type())
	}
	for _, f := range mustPlan(v.Type()) {
		fp := join(path, f.name)
		r, present := m[f.name]
		fv := v.FieldByIndex(f.index)
		switch {
		case !present:
			if f.required {
				return apierr.Invalid(fp, "%s is required", fp)
			}
			continue
		case jsonNull(r) && f.nullable:
			if f.opt {
				fv.Addr().Interface().(optional).mark(true)
			} else if isRaw(f.typ) {
				fv.SetBytes([]byte("null"))
			}
			continue
		case jsonNull(r) && f.required:
			return apierr.Invalid(fp, "%s is required", fp)
		case jsonNull(r):
			return apierr.Invalid(fp, "%s cannot be null", fp)
		}
		target := fv
		if f.opt {
			target = fv.Addr().Interface().(optional).slot()
		}
		if err := decodeValue(fp, r, target, &f.c); err != nil {
			return err
		}
		if f.opt {
			fv.Addr().Interface().(optional).mark(false)
		}
	}
	return nil
}
