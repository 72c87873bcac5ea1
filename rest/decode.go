package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/pagination"
)

// body is a decoded JSON object body; fields stay raw until read, so that
// an omitted field and an explicit null can be told apart.
type body map[string]json.RawMessage

// decodeBody reads a JSON object body. An empty body is an empty object
// unless required.
func decodeBody(req *Request, required bool) (body, error) {
	raw, err := io.ReadAll(req.HTTP.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, apierr.Invalid("body", "Could not read the request body")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		if required {
			return nil, apierr.Invalid("body", "A JSON request body is required")
		}
		return body{}, nil
	}
	var b body
	if err := json.Unmarshal(raw, &b); err != nil || b == nil {
		return nil, apierr.Invalid("body", "The request body must be a JSON object")
	}
	return b, nil
}

func (b body) has(k string) bool { _, ok := b[k]; return ok }

func (b body) null(k string) bool { return b.has(k) && string(bytes.TrimSpace(b[k])) == "null" }

// str reads an optional string field; absent and null give nil.
func (b body) str(k string) (*string, error) {
	if !b.has(k) || b.null(k) {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(b[k], &s); err != nil {
		return nil, apierr.Invalid(k, "%s must be a string", k)
	}
	return &s, nil
}

// reqStr reads a required string field.
func (b body) reqStr(k string) (string, error) {
	s, err := b.str(k)
	if err != nil {
		return "", err
	}
	if s == nil {
		return "", apierr.Invalid(k, "%s is required", k)
	}
	return *s, nil
}

// omitStr reads a string field keeping omitted and null apart.
func (b body) omitStr(k string) (graphql.Omittable[*string], error) {
	if !b.has(k) {
		return graphql.Omittable[*string]{}, nil
	}
	s, err := b.str(k)
	if err != nil {
		return graphql.Omittable[*string]{}, err
	}
	return graphql.OmittableOf(s), nil
}

// omitEnum reads an enum field (given as its documented string value).
func omitEnum[T ~string](b body, k string) (graphql.Omittable[*T], error) {
	s, err := b.omitStr(k)
	if err != nil {
		return graphql.Omittable[*T]{}, err
	}
	v, set := s.ValueOK()
	if !set {
		return graphql.Omittable[*T]{}, nil
	}
	if v == nil {
		return graphql.OmittableOf[*T](nil), nil
	}
	t := T(*v)
	return graphql.OmittableOf(&t), nil
}

// decodeInto reads field k into v.
func (b body) decodeInto(k string, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(b[k]))
	if err := dec.Decode(v); err != nil {
		return apierr.Invalid(k, "%s must be %s", k, what)
	}
	return nil
}

// listArgs reads page and limit into paging arguments.
func listArgs(req *Request) (catalog.PageArgs, error) {
	q := req.HTTP.URL.Query()
	var args catalog.PageArgs
	if v := q.Get("limit"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f != float64(int(f)) || f < 0 || f > catalog.MaxLimit {
			return args, apierr.Invalid("limit", "limit must be a whole number between 0 and %d", catalog.MaxLimit)
		}
		n := int(f)
		args.First = &n
	}
	if v := q.Get("page"); v != "" {
		if _, err := pagination.Decode(v); err != nil {
			return args, apierr.Invalid("page", "page is not a valid page token")
		}
		args.After = &v
	}
	return args, nil
}

// boolQuery reads an optional boolean query parameter.
func boolQuery(req *Request, k string) (*bool, error) {
	v := req.HTTP.URL.Query().Get(k)
	if v == "" {
		return nil, nil
	}
	switch strings.ToLower(v) {
	case "true", "1":
		t := true
		return &t, nil
	case "false", "0":
		f := false
		return &f, nil
	}
	return nil, apierr.Invalid(k, "%s must be true or false", k)
}

// list is the documented list envelope.
type list[T any] struct {
	Next  *nextPage `json:"next,omitempty"`
	Count int       `json:"count"`
	Items []T       `json:"items"`
}

type nextPage struct {
	Page string `json:"page"`
}

func envelope[T any](items []T, total int, hasNext bool, end *string) list[T] {
	l := list[T]{Count: total, Items: items}
	if l.Items == nil {
		l.Items = []T{}
	}
	if hasNext && end != nil {
		l.Next = &nextPage{Page: *end}
	}
	return l
}

// gqlSpelling turns a documented enum value into its GraphQL spelling.
func gqlSpelling(v string) string { return strings.ReplaceAll(v, "-", "_") }

// omitGQLEnum reads an enum field given in its documented spelling into a
// GraphQL enum input; unknown values are a 400 naming the field.
func omitGQLEnum[T interface {
	~string
	IsValid() bool
}](b body, k string) (graphql.Omittable[*T], error) {
	s, err := b.omitStr(k)
	if err != nil {
		return graphql.Omittable[*T]{}, err
	}
	v, set := s.ValueOK()
	if !set {
		return graphql.Omittable[*T]{}, nil
	}
	if v == nil {
		return graphql.OmittableOf[*T](nil), nil
	}
	t := T(gqlSpelling(*v))
	if !t.IsValid() {
		return graphql.Omittable[*T]{}, apierr.Invalid(k, "%s: %q is not an accepted value", k, *v)
	}
	return graphql.OmittableOf(&t), nil
}

// omitBool reads a boolean field keeping omitted and null apart.
func (b body) omitBool(k string) (graphql.Omittable[*bool], error) {
	if !b.has(k) {
		return graphql.Omittable[*bool]{}, nil
	}
	if b.null(k) {
		return graphql.OmittableOf[*bool](nil), nil
	}
	var v bool
	if err := json.Unmarshal(b[k], &v); err != nil {
		return graphql.Omittable[*bool]{}, apierr.Invalid(k, "%s must be a boolean", k)
	}
	return graphql.OmittableOf(&v), nil
}

// rawBody reads a JSON object body as is.
func rawBody(req *Request) ([]byte, error) {
	b, err := decodeBody(req, true)
	if err != nil {
		return nil, err
	}
	return json.Marshal(b)
}

// restSpelling turns a GraphQL enum value into its documented spelling.
func restSpelling(v string) string { return strings.ReplaceAll(v, "_", "-") }
