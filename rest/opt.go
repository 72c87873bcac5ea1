package rest

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/99designs/gqlgen/graphql"
)

// Opt is a body field that may be left out and, when tagged
// nullable:"true", may be null; a patch tells the three apart (omitted:
// unchanged, null: removed).
type Opt[T any] struct {
	set, null bool
	v         T
}

// IsSet reports whether the field was given, null included.
func (o Opt[T]) IsSet() bool { return o.set }

// Get returns the value and whether one was given (not omitted, not null).
func (o Opt[T]) Get() (T, bool) { return o.v, o.set && !o.null }

// Omittable is the field as a GraphQL input field: unset when omitted, nil
// when null.
func (o Opt[T]) Omittable() graphql.Omittable[*T] {
	switch {
	case !o.set:
		return graphql.Omittable[*T]{}
	case o.null:
		return graphql.OmittableOf[*T](nil)
	}
	v := o.v
	return graphql.OmittableOf(&v)
}

// Ptr is the value, nil when omitted or null.
func (o Opt[T]) Ptr() *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

// optional is how the decoder fills an Opt without knowing T.
type optional interface {
	slot() reflect.Value
	mark(null bool)
}

func (o *Opt[T]) slot() reflect.Value   { return reflect.ValueOf(&o.v).Elem() }
func (o *Opt[T]) mark(null bool)        { o.set, o.null = true, null }
func (o Opt[T]) elemType() reflect.Type { return reflect.TypeFor[T]() }

var optionalType = reflect.TypeFor[optional]()

// optElem returns T when t is an Opt[T].
func optElem(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct || !reflect.PointerTo(t).Implements(optionalType) {
		return nil, false
	}
	return reflect.Zero(t).Interface().(interface{ elemType() reflect.Type }).elemType(), true
}

// RawObject is a JSON object passed on as written, for bodies an engine
// decodes itself (customization settings, documents). It is documented as
// T; the decoder checks only that it is an object within the nesting limit.
type RawObject[T any] struct {
	JSON json.RawMessage
}

type rawObject interface{ setRaw(b []byte) }

func (r *RawObject[T]) setRaw(b []byte)           { r.JSON = b }
func (r RawObject[T]) documentedAs() reflect.Type { return reflect.TypeFor[T]() }

var rawObjectType = reflect.TypeFor[rawObject]()

func isRawObject(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && reflect.PointerTo(t).Implements(rawObjectType)
}

// rawObjectDoc returns the documented type of a RawObject.
func rawObjectDoc(t reflect.Type) reflect.Type {
	return reflect.Zero(t).Interface().(interface{ documentedAs() reflect.Type }).documentedAs()
}

// gqlEnum turns an enum field given in its documented spelling
// (legacy-basic) into a GraphQL enum input (legacy_basic).
func gqlEnum[E ~string](o Opt[string]) graphql.Omittable[*E] {
	s := o.Omittable()
	v, set := s.ValueOK()
	switch {
	case !set:
		return graphql.Omittable[*E]{}
	case v == nil:
		return graphql.OmittableOf[*E](nil)
	}
	e := E(gqlSpelling(*v))
	return graphql.OmittableOf(&e)
}

// gqlSpelling turns a documented enum value into its GraphQL spelling.
func gqlSpelling(v string) string { return strings.ReplaceAll(v, "-", "_") }

// restSpelling turns a GraphQL enum value into its documented spelling.
func restSpelling(v string) string { return strings.ReplaceAll(v, "_", "-") }
