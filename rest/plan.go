package rest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"quire/internal/apierr"
	"quire/internal/types"
)

// The struct tags of bodies and query parameters, read once per type. They
// are what the OpenAPI document says of each field, and what the decoders
// enforce:
//
//	json:"name[,omitempty]"  a body field; required unless omitempty (or Opt)
//	query:"name"             a query parameter; optional unless required:"true"
//	nullable:"true"          null is accepted (for Opt: kept apart from omitted)
//	minLength, maxLength     string length in characters (Unicode code points)
//	pattern                  a regular expression the whole string must match
//	enum:"a,b"               the accepted values (or enumOf, or the field's type)
//	maxItems                 the most items of an array
//	minimum, maximum         bounds of a number
//	fold:"true"              an enum value matches whatever its letter case
//	trim:"true"              white space around the value is not counted in
//	                         its length (the engine trims it off)
//	commas:"true"            an array query parameter may also list values a,b
//	doc                      the description
//
// Two tags phrase the errors as the engine behind the field does, so that
// the REST and GraphQL doors refuse a value with the same message:
//
//	phrasing                 how a length error reads (see lengthError)
//	mustBe                   what a value failing the pattern must be

// constraints are the checks of one field.
type constraints struct {
	minLength, maxLength int // -1: none
	maxItems             int // -1: none
	pattern              *regexp.Regexp
	enum                 []string
	fold, commas, trim   bool
	phrasing             string
	mustBe               string
	nullable             bool // for messages: null is accepted too
	minimum, maximum     *int
}

// field is one field of a body or of query parameters.
type field struct {
	index    []int
	name     string
	required bool
	nullable bool
	opt      bool         // an Opt[T]
	typ      reflect.Type // the value's type (T for an Opt[T])
	c        constraints
}

var (
	plans    sync.Map // reflect.Type → []field
	planMu   sync.Mutex
	planning = map[reflect.Type]bool{}
)

// enumsByType are the accepted values of the enum types bodies use.
var enumsByType = map[reflect.Type][]string{
	reflect.TypeFor[types.Role]():         types.Roles,
	reflect.TypeFor[types.DefaultLevel](): types.DefaultLevels,
	reflect.TypeFor[types.Visibility]():   types.Visibilities,
	reflect.TypeFor[types.EditMode]():     types.EditModes,
	reflect.TypeFor[types.Language]():     types.Languages,
}

var enumsByName = map[string][]string{"language": types.Languages}

// mustPlan returns the fields of a body or query struct, and panics on a
// tag it cannot enforce: the route table is built at start, so a mistake
// there stops the server before it serves anything.
func mustPlan(t reflect.Type) []field {
	if p, ok := plans.Load(t); ok {
		return p.([]field)
	}
	planMu.Lock()
	defer planMu.Unlock()
	return planLocked(t)
}

func planLocked(t reflect.Type) []field {
	if p, ok := plans.Load(t); ok {
		return p.([]field)
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("rest: %v is not a struct", t))
	}
	if planning[t] {
		// A type that contains itself: its plan is being made.
		return nil
	}
	planning[t] = true
	defer delete(planning, t)
	var fields []field
	if !isRawObject(t) {
		fields = planStruct(t, nil)
	}
	plans.Store(t, fields)
	return fields
}

func planStruct(t reflect.Type, index []int) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		idx := append(append([]int{}, index...), i)
		jsonTag, hasJSON := f.Tag.Lookup("json")
		queryTag, hasQuery := f.Tag.Lookup("query")
		if f.Anonymous && !hasJSON && !hasQuery && f.Type.Kind() == reflect.Struct {
			out = append(out, planStruct(f.Type, idx)...)
			continue
		}
		if !f.IsExported() || jsonTag == "-" || (!hasJSON && !hasQuery) {
			continue
		}
		fd := field{index: idx, typ: f.Type, nullable: f.Tag.Get("nullable") == "true"}
		if hasQuery {
			fd.name = queryTag
			fd.required = f.Tag.Get("required") == "true"
		} else {
			name, opts, _ := strings.Cut(jsonTag, ",")
			fd.name = name
			fd.required = !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero")
		}
		if et, ok := optElem(f.Type); ok {
			fd.opt, fd.typ, fd.required = true, et, false
		}
		fd.c = tagConstraints(t, f)
		fd.c.nullable = fd.nullable
		checkSupported(t, f, fd.typ)
		if hasQuery {
			checkQueryType(t, f, fd.typ)
		}
		out = append(out, fd)
	}
	return out
}

func tagConstraints(t reflect.Type, f reflect.StructField) constraints {
	c := constraints{minLength: -1, maxLength: -1, maxItems: -1}
	num := func(k string) int {
		v := f.Tag.Get(k)
		if v == "" {
			return -1
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			panic(fmt.Sprintf("rest: %v.%s: %s:%q is not a count", t, f.Name, k, v))
		}
		return n
	}
	c.minLength, c.maxLength, c.maxItems = num("minLength"), num("maxLength"), num("maxItems")
	for _, b := range []struct {
		k   string
		dst **int
	}{{"minimum", &c.minimum}, {"maximum", &c.maximum}} {
		if v := f.Tag.Get(b.k); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				panic(fmt.Sprintf("rest: %v.%s: %s:%q is not a whole number", t, f.Name, b.k, v))
			}
			*b.dst = &n
		}
	}
	if p := f.Tag.Get("pattern"); p != "" {
		re, err := regexp.Compile(p)
		if err != nil {
			panic(fmt.Sprintf("rest: %v.%s: pattern: %v", t, f.Name, err))
		}
		c.pattern = re
	}
	c.enum = enumOf(f)
	c.fold, c.commas, c.trim = f.Tag.Get("fold") == "true", f.Tag.Get("commas") == "true", f.Tag.Get("trim") == "true"
	c.phrasing, c.mustBe = f.Tag.Get("phrasing"), f.Tag.Get("mustBe")
	if _, ok := lengthPhrasings[c.phrasing]; !ok {
		panic(fmt.Sprintf("rest: %v.%s: unknown phrasing %q", t, f.Name, c.phrasing))
	}
	return c
}

// enumOf returns the accepted values of a field: its enum or enumOf tag, or
// those of its (element) type.
func enumOf(f reflect.StructField) []string {
	if v := f.Tag.Get("enum"); v != "" {
		return strings.Split(v, ",")
	}
	if v := f.Tag.Get("enumOf"); v != "" {
		vals, ok := enumsByName[v]
		if !ok {
			panic(fmt.Sprintf("rest: %s: unknown enumOf %q", f.Name, v))
		}
		return vals
	}
	t := f.Type
	if et, ok := optElem(t); ok {
		t = et
	}
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return enumsByType[t]
}

// checkSupported panics on a field type the body decoder does not handle.
func checkSupported(owner reflect.Type, f reflect.StructField, t reflect.Type) {
	switch {
	case isRaw(t), isRawObject(t):
		return
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
	case reflect.Pointer, reflect.Slice:
		checkSupported(owner, f, t.Elem())
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			panic(fmt.Sprintf("rest: %v.%s: map keys must be strings", owner, f.Name))
		}
		checkSupported(owner, f, t.Elem())
	case reflect.Struct:
		planLocked(t)
	default:
		panic(fmt.Sprintf("rest: %v.%s: cannot decode %v", owner, f.Name, t))
	}
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	rawJSONType    = reflect.TypeFor[types.JSON]()
)

// isRaw reports a type that holds any JSON value as written.
func isRaw(t reflect.Type) bool { return t == rawMessageType || t == rawJSONType }

// checkString enforces the string constraints of a field.
func (c *constraints) checkString(path, s string) error {
	if len(c.enum) > 0 {
		for _, v := range c.enum {
			if v == s || (c.fold && strings.EqualFold(v, s)) {
				return nil
			}
		}
		return apierr.Invalid(path, "%s", enumMessage(path, s, c.enum, c.nullable))
	}
	if c.minLength >= 0 || c.maxLength >= 0 {
		counted := s
		if c.trim {
			counted = strings.TrimSpace(s)
		}
		n := utf8.RuneCountInString(counted)
		if (c.maxLength >= 0 && n > c.maxLength) || (c.minLength >= 0 && n < c.minLength) {
			return apierr.Invalid(path, "%s", lengthPhrasings[c.phrasing](path, c.minLength, c.maxLength, n))
		}
	}
	// As in JSON Schema, a pattern matches anywhere unless it is anchored
	// (the documented ones are).
	if c.pattern != nil && !c.pattern.MatchString(s) {
		if c.mustBe != "" {
			return apierr.Invalid(path, "%s must be %s", path, c.mustBe)
		}
		return apierr.Invalid(path, "%s: %q does not match the pattern %s", path, s, c.pattern)
	}
	return nil
}

// lengthPhrasings phrase a string of n characters outside [min, max] (-1:
// no bound), as the engines do:
//
//	""           catalog: "at most max characters long", or "between min and max"
//	"range"      sites: "between min (0 when none) and max characters long"
//	"count"      content: "at most max characters (got n)"
//	"condition"  conditions: "field: must be at most max characters (got n)"
//	"required"   an empty value counts as a missing one: "field is required"
var lengthPhrasings = map[string]func(field string, min, max, n int) string{
	"": func(field string, min, max, n int) string {
		switch {
		case min > 0 && max >= 0:
			return fmt.Sprintf("%s must be between %d and %d characters long", field, min, max)
		case max >= 0 && n > max:
			return fmt.Sprintf("%s must be at most %d characters long", field, max)
		}
		return fmt.Sprintf("%s must be at least %s long", field, characters(min))
	},
	"range": func(field string, min, max, _ int) string {
		return fmt.Sprintf("%s must be between %d and %d characters long", field, max0(min), max)
	},
	"count": func(field string, min, max, n int) string {
		if max >= 0 && n > max {
			return fmt.Sprintf("%s must be at most %d characters (got %d)", field, max, n)
		}
		return fmt.Sprintf("%s must be at least %s (got %d)", field, characters(min), n)
	},
	"condition": func(field string, min, max, n int) string {
		if max >= 0 && n > max {
			return fmt.Sprintf("%s: must be at most %d characters (got %d)", field, max, n)
		}
		return fmt.Sprintf("%s: must be at least %s (got %d)", field, characters(min), n)
	},
	"required": func(field string, min, max, n int) string {
		if n < min {
			return fmt.Sprintf("%s is required", field)
		}
		return fmt.Sprintf("%s must be at most %d characters long", field, max)
	},
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

func characters(n int) string {
	if n == 1 {
		return "1 character"
	}
	return strconv.Itoa(n) + " characters"
}

// enumMessage says which values are accepted; long lists are left to the
// API description.
func enumMessage(path, got string, values []string, nullable bool) string {
	if nullable {
		values = append(append([]string{}, values...), "null")
	}
	switch n := len(values); {
	case n > 8:
		return fmt.Sprintf("%s: %q is not an accepted value", path, got)
	case n == 1:
		return fmt.Sprintf("%s must be %s", path, values[0])
	case n <= 4:
		return fmt.Sprintf("%s must be %s or %s", path, strings.Join(values[:n-1], ", "), values[n-1])
	default:
		return fmt.Sprintf("%s must be one of %s or %s", path, strings.Join(values[:n-1], ", "), values[n-1])
	}
}
