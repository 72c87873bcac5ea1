package rest

import (
	"encoding/json"
	"log/slog"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"quire/graph"
	"quire/internal/apierr"
	"quire/internal/types"
)

// sample is a body with every kind of field the decoder handles.
type sample struct {
	Name    string                      `json:"name" maxLength:"3"`
	Short   Opt[string]                 `json:"short" minLength:"2" nullable:"true"`
	Mode    Opt[types.EditMode]         `json:"mode"`
	Kind    Opt[string]                 `json:"kind" enum:"a,b" nullable:"true"`
	Host    *string                     `json:"host,omitempty" pattern:"^[a-z]+\\.test$"`
	Flag    Opt[bool]                   `json:"flag"`
	Tags    []string                    `json:"tags,omitempty" maxItems:"2" maxLength:"4"`
	Inner   *sampleInner                `json:"inner,omitempty" nullable:"true"`
	Items   []sampleInner               `json:"items,omitempty"`
	Any     json.RawMessage             `json:"any,omitempty"`
	Refs    map[string]json.RawMessage  `json:"refs,omitempty"`
	Doc     Opt[RawObject[sampleInner]] `json:"doc" nullable:"true"`
	Count   *int                        `json:"count,omitempty" minimum:"1" maximum:"9"`
	Range   string                      `json:"range,omitempty" maxLength:"3" phrasing:"range"`
	Counted string                      `json:"counted,omitempty" maxLength:"3" phrasing:"count"`
	Cond    string                      `json:"cond,omitempty" maxLength:"3" phrasing:"condition"`
	Ref     string                      `json:"ref,omitempty" minLength:"1" phrasing:"required"`
	Proxy   string                      `json:"proxy,omitempty" pattern:"^[a-z]+/[a-z]+$" mustBe:"a host and a path"`
	Ignored string                      `json:"-"`
}

type sampleInner struct {
	Type string `json:"type" enum:"x,y"`
	ID   string `json:"id,omitempty"`
}

func TestDecodeBody(t *testing.T) {
	for _, c := range []struct {
		name, body string
		// field named by the 400; "" when the body is accepted
		field string
		// text the message holds, when given
		says  string
		check func(t *testing.T, v *sample)
	}{
		{name: "smallest", body: `{"name":"abc"}`, check: func(t *testing.T, v *sample) {
			if v.Name != "abc" || v.Short.IsSet() || v.Mode.IsSet() || v.Host != nil || v.Tags != nil || v.Inner != nil {
				t.Errorf("decoded %+v", v)
			}
		}},
		{name: "length in characters", body: `{"name":"éàü"}`},
		{name: "too long", body: `{"name":"abcd"}`, field: "name", says: "name must be at most 3 characters long"},
		{name: "too long in characters", body: `{"name":"éàüö"}`, field: "name", says: "at most 3"},
		{name: "too short", body: `{"name":"a","short":"x"}`, field: "short", says: "short must be at least 2 characters long"},
		{name: "missing required", body: `{}`, field: "name", says: "name is required"},
		{name: "null required", body: `{"name":null}`, field: "name", says: "name is required"},
		{name: "wrong type", body: `{"name":5}`, field: "name", says: "name must be a string"},
		{name: "omitted and null apart", body: `{"name":"a","short":null,"kind":"b"}`, check: func(t *testing.T, v *sample) {
			if !v.Short.IsSet() || v.Short.Ptr() != nil || v.Short.Omittable().Value() != nil || !v.Short.Omittable().IsSet() {
				t.Errorf("short null: %+v", v.Short)
			}
			if k, ok := v.Kind.Get(); !ok || k != "b" {
				t.Errorf("kind: %+v", v.Kind)
			}
			if v.Mode.IsSet() || v.Mode.Omittable().IsSet() {
				t.Errorf("mode omitted: %+v", v.Mode)
			}
		}},
		{name: "null where not nullable", body: `{"name":"a","mode":null}`, field: "mode", says: "mode cannot be null"},
		{name: "enum of the type", body: `{"name":"a","mode":"frozen"}`, field: "mode", says: "mode must be live or locked"},
		{name: "enum of the tag, nullable", body: `{"name":"a","kind":"c"}`, field: "kind", says: "kind must be a, b or null"},
		{name: "pattern", body: `{"name":"a","host":"A.test"}`, field: "host", says: "pattern"},
		{name: "pattern matches", body: `{"name":"a","host":"docs.test"}`},
		{name: "pattern, phrased", body: `{"name":"a","proxy":"x"}`, field: "proxy", says: "proxy must be a host and a path"},
		{name: "length, phrased as a range", body: `{"name":"a","range":"abcd"}`, field: "range", says: "range must be between 0 and 3 characters long"},
		{name: "length, phrased with a count", body: `{"name":"a","counted":"abcd"}`, field: "counted", says: "counted must be at most 3 characters (got 4)"},
		{name: "length, phrased as a condition", body: `{"name":"a","cond":"abcd"}`, field: "cond", says: "cond: must be at most 3 characters (got 4)"},
		{name: "empty, phrased as missing", body: `{"name":"a","ref":""}`, field: "ref", says: "ref is required"},
		{name: "boolean", body: `{"name":"a","flag":"yes"}`, field: "flag", says: "flag must be a boolean"},
		{name: "array items", body: `{"name":"a","tags":["abcde"]}`, field: "tags[0]", says: "tags[0] must be at most 4 characters long"},
		{name: "array of the wrong type", body: `{"name":"a","tags":"x"}`, field: "tags", says: "tags must be an array"},
		{name: "array item of the wrong type", body: `{"name":"a","tags":[null]}`, field: "tags[0]", says: "tags[0] must be a string"},
		{name: "too many items", body: `{"name":"a","tags":["a","b","c"]}`, field: "tags", says: "at most 2 items"},
		{name: "nested object", body: `{"name":"a","inner":{"type":"z"}}`, field: "inner.type", says: "inner.type must be x or y"},
		{name: "nested required", body: `{"name":"a","items":[{"type":"x"},{"id":"1"}]}`, field: "items[1].type", says: "items[1].type is required"},
		{name: "nested object of the wrong type", body: `{"name":"a","inner":[]}`, field: "inner", says: "inner must be an object"},
		{name: "nested null", body: `{"name":"a","inner":null}`, check: func(t *testing.T, v *sample) {
			if v.Inner != nil {
				t.Errorf("inner: %+v", v.Inner)
			}
		}},
		{name: "raw values kept as written", body: `{"name":"a","any":[1, {"b" : 2}],"refs":{"k":{"kind":"url"},"n":null},"doc":{"type":"q"}}`, check: func(t *testing.T, v *sample) {
			if string(v.Any) != `[1, {"b" : 2}]` || string(v.Refs["k"]) != `{"kind":"url"}` || string(v.Refs["n"]) != "null" {
				t.Errorf("raw: %s %s", v.Any, v.Refs)
			}
			// A RawObject is checked to be an object, not decoded.
			if d, ok := v.Doc.Get(); !ok || string(d.JSON) != `{"type":"q"}` {
				t.Errorf("doc: %+v", v.Doc)
			}
		}},
		{name: "raw object of the wrong type", body: `{"name":"a","doc":"text"}`, field: "doc", says: "doc must be an object"},
		{name: "number bounds", body: `{"name":"a","count":10}`, field: "count", says: "count must be between 1 and 9"},
		{name: "whole number", body: `{"name":"a","count":1.5}`, field: "count", says: "count must be a whole number"},
		{name: "unknown keys ignored", body: `{"name":"a","other":{"deep":[1]}}`},
		{name: "malformed", body: `{"name":`, field: "body", says: "JSON object"},
		{name: "not an object", body: `["a"]`, field: "body", says: "JSON object"},
		{name: "null body", body: `null`, field: "body"},
		{name: "too deep", body: `{"name":"a","any":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`, field: "body", says: "deeper than 100"},
		{name: "deep in strings only", body: `{"name":"a","any":"` + strings.Repeat("[{", 100) + `\"]"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v sample
			err := decodeBody([]byte(c.body), &v)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if c.check != nil {
					c.check(t, &v)
				}
				return
			}
			e, ok := apierr.As(err)
			if !ok || e.Code != apierr.BadRequest || e.Field != c.field || !strings.Contains(e.Message, c.says) {
				t.Fatalf("error %#v, want a 400 on %q saying %q", err, c.field, c.says)
			}
		})
	}
}

type sampleParams struct {
	ListParams
	ShareKeyParams
	Flag   *bool    `query:"flag"`
	Format string   `query:"format" enum:"document,markdown"`
	Eval   string   `query:"eval" fold:"true" enum:"true,deterministic-only"`
	Status []string `query:"status" commas:"true" enum:"open,draft"`
}

func TestDecodeQuery(t *testing.T) {
	for _, c := range []struct {
		query, field, says string
		check              func(t *testing.T, p *sampleParams)
	}{
		{query: "", check: func(t *testing.T, p *sampleParams) {
			if p.First() != nil || p.After() != nil || p.sharedKey() != nil || p.Flag != nil || p.Status != nil {
				t.Errorf("empty query: %+v", p)
			}
		}},
		{query: "limit=5.0&flag=1&format=markdown&eval=Deterministic-Only&status=open,%20draft&status=open&shareKey=k", check: func(t *testing.T, p *sampleParams) {
			if *p.First() != 5 || !*p.Flag || p.Format != "markdown" || p.Eval != "deterministic-only" ||
				!reflect.DeepEqual(p.Status, []string{"open", "draft", "open"}) || *p.sharedKey() != "k" {
				t.Errorf("decoded %+v", p)
			}
		}},
		{query: "limit=1001", field: "limit", says: "limit must be a whole number between 0 and 1000"},
		{query: "limit=-1", field: "limit"},
		{query: "limit=2.5", field: "limit"},
		{query: "page=garbage!", field: "page", says: "page is not a valid page token"},
		{query: "flag=maybe", field: "flag", says: "flag must be true or false"},
		{query: "format=html", field: "format", says: "format must be document or markdown"},
		{query: "format=Markdown", field: "format"},
		{query: "status=open,closed", field: "status", says: "status must be open or draft"},
		{query: "status=", field: "status"},
	} {
		t.Run(c.query, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			var p sampleParams
			err = decodeQuery(q, &p)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				c.check(t, &p)
				return
			}
			e, ok := apierr.As(err)
			if !ok || e.Code != apierr.BadRequest || e.Field != c.field || !strings.Contains(e.Message, c.says) {
				t.Fatalf("error %#v, want a 400 on %q saying %q", err, c.field, c.says)
			}
		})
	}
}

// A mistake in a body's tags stops the route table from being built.
func TestBadTagsPanic(t *testing.T) {
	for name, typ := range map[string]reflect.Type{
		"count": reflect.TypeFor[struct {
			A string `json:"a" maxLength:"many"`
		}](),
		"pattern": reflect.TypeFor[struct {
			A string `json:"a" pattern:"("`
		}](),
		"type": reflect.TypeFor[struct {
			A chan int `json:"a"`
		}](),
		"query type": reflect.TypeFor[struct {
			A bool `query:"a"`
		}](),
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			mustPlan(typ)
		})
	}
}

func testAPI() *API { return New(&graph.Resolver{}, slog.New(slog.DiscardHandler)) }

// FuzzDecodeBody feeds bytes to the decoder of every body of the route
// table: it must never panic, and must accept the body or refuse it with a
// 400.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"title":"x","parent":null}`, `{"position":{"before":{"type":"space","space":"s"}}}`,
		`{"mergeRules":{"type":"rules","rules":[{"rule":"custom","users":["u"],"expression":"x"}]}}`,
		`{"item":{"type":"site-section","id":"x"},"position":{"after":null}}`,
		`{"template":{"id":"changelog","params":{"contentRefs":{"a":{"kind":"url","url":"https://x"}}}}}`,
		`{"description":{"object":"document","nodes":[]}}`, `{"spaces":["a","b"],"type":"legacy-basic"}`,
		`{"adaptiveContent":{"enabled":true},"hostname":"docs.example.com"}`, `[`, `"x"`, `{"a":1e999}`,
		`{"styling":{"theme":"bold"}}`, `{"jsonSchema":{"type":"object"}}`, strings.Repeat(`{"a":`, 40),
	} {
		f.Add([]byte(seed))
	}
	var bodies []reflect.Type
	for _, rt := range testAPI().Routes() {
		if rt.Request != nil {
			bodies = append(bodies, rt.Request)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range bodies {
			v := reflect.New(typ)
			err := decodeBody(data, v.Interface())
			if err == nil {
				continue
			}
			if e, ok := apierr.As(err); !ok || e.Code != apierr.BadRequest {
				t.Fatalf("%v: %q: %v, want nil or a 400", typ, data, err)
			}
		}
	})
}

// FuzzDecodeQuery feeds query strings to the decoder of the parameters of
// every route of the table that reads them: it must never panic, and must
// accept them or refuse them with a 400.
func FuzzDecodeQuery(f *testing.F) {
	for _, seed := range []string{
		``, `limit=10&page=`, `limit=-1`, `limit=1001`, `limit=1e3`, `limit=x&limit=2`, `page=%ZZ`, `page=abc`,
		`status=open&status=merged&orderBy=createdAt`, `status=nope`, `type=basic&type=legacy-premium&published=true`,
		`published=maybe`, `format=markdown&evaluated=deterministic-only&dereferenced=reusable-contents`,
		`evaluated=yes`, `metadata=false&computed=true`, `shareKey=k&default=true`, `nested=false`, `only=true&page=P1`,
		`space=S1&title=a%00b`, `creator=&contributor=U1&requestedReviewer=U2`, strings.Repeat(`limit=1&`, 200),
	} {
		f.Add(seed)
	}
	var params []reflect.Type
	for _, rt := range testAPI().Routes() {
		if rt.query != nil {
			params = append(params, rt.query)
		}
	}
	if len(params) == 0 {
		f.Fatal("no route reads query parameters")
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// As (*url.URL).Query gives it to a handler: the pairs that parse.
		q, _ := url.ParseQuery(raw)
		for _, typ := range params {
			v := reflect.New(typ)
			err := decodeQuery(q, v.Interface())
			if err == nil {
				continue
			}
			if e, ok := apierr.As(err); !ok || e.Code != apierr.BadRequest {
				t.Fatalf("%v: %q: %v, want nil or a 400", typ, raw, err)
			}
		}
	})
}
