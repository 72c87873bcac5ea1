package rest_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// REST owns its response types: a body that embedded a GraphQL model type
// would change whenever the GraphQL schema does, without a REST change to
// show it. Every type a documented response reaches must be REST's own.
func TestResponseTypesAreREST(t *testing.T) {
	e := testenv.New(t, "sqlite")
	seen := map[reflect.Type]bool{}
	var bad []string
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if seen[t] {
			return
		}
		seen[t] = true
		if p := t.PkgPath(); strings.HasSuffix(p, "/graph/model") || strings.HasSuffix(p, "/graph") {
			bad = append(bad, path+": "+t.String())
			return
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			walk(f.Type, path+"."+f.Name)
		}
	}
	for _, rt := range e.Server.API().Routes() {
		if rt.Result != nil {
			walk(rt.Result, rt.Method+" "+rt.Pattern+" "+rt.Result.String())
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("response reaches a GraphQL model type: %s", b)
	}
}
