package rest

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"quire/graph"
	"quire/internal/apierr"
)

// ListParams are the paging parameters every list takes; embed them first
// in a list route's parameters.
type ListParams struct {
	Page  PageToken `query:"page" doc:"Opaque token of the page to fetch, from next.page of the previous one."`
	Limit *int      `query:"limit" minimum:"0" maximum:"1000" doc:"Items per page, 0 to 1000 (default 50)."`
}

// First is the page size as resolver methods take it.
func (p ListParams) First() *int { return p.Limit }

// After is the page token as resolver methods take it.
func (p ListParams) After() *string {
	if p.Page == "" {
		return nil
	}
	s := string(p.Page)
	return &s
}

// Args are the paging arguments of a list paged in memory.
func (p ListParams) Args() graph.PageArgs { return graph.PageArgs{First: p.First(), After: p.After()} }

// PageToken is a token of a page of a list.
type PageToken string

func (t PageToken) validate(field string) error {
	if t != "" && !graph.ValidPageToken(string(t)) {
		return apierr.Invalid(field, "%s is not a valid page token", field)
	}
	return nil
}

// ShareKeyParams carry the secret of a share link. Embedded in a route's
// parameters, they resolve the published URLs the route presents.
type ShareKeyParams struct {
	ShareKey string `query:"shareKey" doc:"Secret of a share link, to resolve the published URLs of a share-link site."`
}

func (p ShareKeyParams) sharedKey() *string {
	if p.ShareKey == "" {
		return nil
	}
	k := p.ShareKey
	return &k
}

// validator is a value with a check of its own, beyond its tags.
type validator interface{ validate(field string) error }

// isQuery reports a struct of query parameters.
func isQuery(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	fields := mustPlan(t)
	query := 0
	for i := range fields {
		if _, ok := t.FieldByIndex(fields[i].index).Tag.Lookup("query"); ok {
			query++
		}
	}
	if query > 0 && query != len(fields) {
		panic(fmt.Sprintf("rest: %v mixes query parameters and body fields", t))
	}
	return query > 0
}

// checkQueryType panics on a query parameter type decodeQuery does not
// handle: strings, optional booleans and numbers, arrays of strings.
func checkQueryType(owner reflect.Type, f reflect.StructField, t reflect.Type) {
	switch {
	case t.Kind() == reflect.String:
	case t.Kind() == reflect.Pointer && (t.Elem().Kind() == reflect.Bool || t.Elem().Kind() == reflect.Int):
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
	default:
		panic(fmt.Sprintf("rest: %v.%s: a query parameter cannot be %v", owner, f.Name, t))
	}
}

// queryParams documents the query parameters of a struct.
func queryParams(t reflect.Type) []Param {
	fields := mustPlan(t)
	out := make([]Param, 0, len(fields))
	for _, f := range fields {
		sf := t.FieldByIndex(f.index)
		p := Param{Name: f.name, Description: sf.Tag.Get("doc"), Enum: f.c.enum, Minimum: f.c.minimum, Maximum: f.c.maximum,
			Required: f.required}
		if f.c.maxLength >= 0 {
			n := f.c.maxLength
			p.MaxLength = &n
		}
		switch ft := f.typ; {
		case ft.Kind() == reflect.Slice:
			p.Type = "array"
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Bool:
			p.Type = "boolean"
		case ft.Kind() == reflect.Pointer:
			p.Type = "number"
		default:
			p.Type = "string"
		}
		out = append(out, p)
	}
	return out
}

// decodeQuery reads query parameters into v, a pointer to a struct of
// them. An empty value counts as absent (a required one is refused);
// unknown parameters are ignored.
func decodeQuery(q url.Values, v any) error {
	rv := reflect.ValueOf(v).Elem()
	for _, f := range mustPlan(rv.Type()) {
		fv := rv.FieldByIndex(f.index)
		if f.typ.Kind() == reflect.Slice {
			if err := queryList(q[f.name], fv, &f); err != nil {
				return err
			}
			continue
		}
		s := q.Get(f.name)
		if s == "" {
			if f.required {
				return apierr.Invalid(f.name, "%s is required", f.name)
			}
			continue
		}
		if err := queryValue(s, fv, &f); err != nil {
			return err
		}
	}
	return nil
}

func queryList(values []string, fv reflect.Value, f *field) error {
	out := reflect.MakeSlice(fv.Type(), 0, len(values))
	for _, v := range values {
		parts := []string{v}
		if f.c.commas {
			parts = strings.Split(v, ",")
		}
		for _, p := range parts {
			if f.c.commas {
				p = strings.TrimSpace(p)
			}
			if err := f.c.checkString(f.name, p); err != nil {
				return err
			}
			out = reflect.Append(out, reflect.ValueOf(canonical(p, f.c.enum)).Convert(fv.Type().Elem()))
		}
	}
	if out.Len() > 0 {
		fv.Set(out)
	}
	return nil
}

func queryValue(s string, fv reflect.Value, f *field) error {
	switch t := fv.Type(); {
	case t.Kind() == reflect.String:
		if err := f.c.checkString(f.name, s); err != nil {
			return err
		}
		fv.SetString(canonical(s, f.c.enum))
		if val, ok := fv.Interface().(validator); ok {
			return val.validate(f.name)
		}
	case t.Elem().Kind() == reflect.Bool:
		var b bool
		switch strings.ToLower(s) {
		case "true", "1":
			b = true
		case "false", "0":
		default:
			return apierr.Invalid(f.name, "%s must be true or false", f.name)
		}
		fv.Set(reflect.ValueOf(&b))
	default:
		n, err := strconv.ParseFloat(s, 64)
		bad := err != nil || n != float64(int(n)) ||
			(f.c.minimum != nil && n < float64(*f.c.minimum)) || (f.c.maximum != nil && n > float64(*f.c.maximum))
		if bad {
			msg := f.name + " must be a whole number"
			if f.c.minimum != nil || f.c.maximum != nil {
				msg += " " + bounds(&f.c)
			}
			return apierr.Invalid(f.name, "%s", msg)
		}
		i := int(n)
		fv.Set(reflect.ValueOf(&i))
	}
	return nil
}

// canonical returns the enum's own spelling of a value matched regardless
// of case.
func canonical(s string, enum []string) string {
	for _, v := range enum {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return s
}
