package rest

import (
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"quire/graph"
)

// OpenAPI returns Quire's OpenAPI 3.1 document for the /v1 routes, generated
// from the route table and the types of the bodies it names.
func (a *API) OpenAPI(serverURL string) map[string]any {
	g := &schemaGen{components: map[string]any{}, names: map[reflect.Type]string{}}
	paths := map[string]map[string]any{}
	for _, rt := range a.routes {
		item := paths[rt.Pattern]
		if item == nil {
			item = map[string]any{}
			paths[rt.Pattern] = item
		}
		item[strings.ToLower(rt.Method)] = g.operation(rt)
	}
	g.components["Error"] = map[string]any{
		"type":     "object",
		"required": []string{"error"},
		"properties": map[string]any{
			"error": map[string]any{
				"type":     "object",
				"required": []string{"code", "message"},
				"properties": map[string]any{
					"code":    map[string]any{"type": "integer", "description": "The HTTP status."},
					"message": map[string]any{"type": "string"},
				},
			},
		},
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "Quire REST API",
			"version":     "1.0.0",
			"description": "The /v1 JSON API of Quire. The same data is served by GraphQL at /graphql.",
		},
		"servers":    []any{map[string]any{"url": strings.TrimRight(serverURL, "/") + "/v1"}},
		"security":   []any{map[string]any{"bearer": []string{}}},
		"paths":      paths,
		"components": map[string]any{"schemas": g.components, "securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}}},
	}
}

type schemaGen struct {
	components map[string]any
	names      map[reflect.Type]string
}

func operationID(rt Route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(rt.Method))
	for _, seg := range strings.Split(strings.Trim(rt.Pattern, "/"), "/") {
		if strings.HasPrefix(seg, "{") {
			seg = "By" + strings.TrimSuffix(strings.TrimPrefix(seg, "{"), "}")
		}
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return r == '-' }) {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func (g *schemaGen) operation(rt Route) map[string]any {
	op := map[string]any{
		"operationId": operationID(rt),
		"summary":     rt.Summary,
		"tags":        []string{tagOf(rt.Pattern)},
	}
	if rt.Obsolete {
		op["deprecated"] = true
	}
	var params []any
	for _, seg := range strings.Split(rt.Pattern, "/") {
		if strings.HasPrefix(seg, "{") {
			params = append(params, map[string]any{"name": strings.Trim(seg, "{}"), "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
	}
	for _, p := range rt.Params {
		schema := map[string]any{"type": p.Type}
		if p.Type == "array" {
			items := map[string]any{"type": "string"}
			if len(p.Enum) > 0 {
				items["enum"] = p.Enum
			}
			schema["items"] = items
		} else if len(p.Enum) > 0 {
			schema["enum"] = p.Enum
		}
		if p.Minimum != nil {
			schema["minimum"] = *p.Minimum
		}
		if p.Maximum != nil {
			schema["maximum"] = *p.Maximum
		}
		if p.MaxLength != nil {
			schema["maxLength"] = *p.MaxLength
		}
		params = append(params, map[string]any{"name": p.Name, "in": "query", "required": p.Required, "description": p.Description, "schema": schema})
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if rt.Request != nil {
		op["requestBody"] = map[string]any{
			"required": !rt.BodyOptional,
			"content":  map[string]any{"application/json": map[string]any{"schema": g.schema(rt.Request, nil)}},
		}
	}
	responses := map[string]any{}
	switch {
	case rt.Deleting:
		responses["205"] = map[string]any{"description": "Deleted."}
		responses["204"] = map[string]any{"description": "Did not exist."}
	case rt.Result == nil:
		responses[strconv.Itoa(rt.Status)] = map[string]any{"description": "Done."}
	default:
		schema := g.schema(rt.Result, nil)
		if rt.IsList {
			schema = map[string]any{
				"type":     "object",
				"required": []string{"items", "count"},
				"properties": map[string]any{
					"items": map[string]any{"type": "array", "items": schema},
					"count": map[string]any{"type": "number", "description": "Total number of items."},
					"next": map[string]any{
						"type": "object", "required": []string{"page"},
						"properties":  map[string]any{"page": map[string]any{"type": "string"}},
						"description": "Present when there is a further page.",
					},
				},
			}
		}
		for _, status := range append([]int{rt.Status}, rt.Also...) {
			resp := map[string]any{"description": "Success.", "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
			if status == http.StatusCreated {
				resp["headers"] = map[string]any{"Location": map[string]any{"description": "API URL of the new object.", "schema": map[string]any{"type": "string"}}}
			}
			responses[strconv.Itoa(status)] = resp
		}
	}
	for _, r := range responses {
		withRateLimitHeaders(r.(map[string]any), false)
	}
	codes := []int{400, 401, 403, 404, 405, 413, 429, 500, 503, 504}
	codes = append(codes, rt.Extra...)
	sort.Ints(codes)
	for _, c := range codes {
		resp := map[string]any{
			"description": http.StatusText(c),
			"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}},
		}
		if c == http.StatusTooManyRequests {
			resp["description"] = "A rate limit is spent: the request was not served. Retry-After says when to try again."
			withRateLimitHeaders(resp, true)
		}
		responses[strconv.Itoa(c)] = resp
	}
	op["responses"] = responses
	return op
}

// withRateLimitHeaders documents the rate-limit headers of a response
// (sent when rate limits are on), and Retry-After for a refusal.
func withRateLimitHeaders(resp map[string]any, refused bool) {
	h, _ := resp["headers"].(map[string]any)
	if h == nil {
		h = map[string]any{}
		resp["headers"] = h
	}
	integer := map[string]any{"type": "integer"}
	h["X-RateLimit-Limit"] = map[string]any{"description": "Points the caller may spend per window.", "schema": integer}
	h["X-RateLimit-Remaining"] = map[string]any{"description": "Points left in the current window.", "schema": integer}
	h["X-RateLimit-Used"] = map[string]any{"description": "Points spent in the current window.", "schema": integer}
	h["X-RateLimit-Reset"] = map[string]any{"description": "When the current window ends, in seconds since the Unix epoch.", "schema": integer}
	h["X-RateLimit-Resource"] = map[string]any{"description": "The budget the figures describe: core (every request) or content (content creation).", "schema": map[string]any{"type": "string", "enum": []string{"core", "content"}}}
	if refused {
		h["Retry-After"] = map[string]any{"description": "Seconds until the budget that refused the request is full again.", "schema": integer}
	}
}

func tagOf(pattern string) string {
	segs := strings.Split(strings.Trim(pattern, "/"), "/")
	switch {
	case len(segs) >= 3 && segs[0] == "orgs" && segs[2] == "sites":
		return "sites"
	case len(segs) >= 3 && segs[0] == "orgs":
		return segs[2]
	}
	return segs[0]
}

var (
	timeType = reflect.TypeFor[time.Time]()
	itemType = reflect.TypeFor[StructureItem]()
	fontType = reflect.TypeFor[graph.CustomizationFont]()
)

// schema returns the JSON Schema of t; named structs become components.
func (g *schemaGen) schema(t reflect.Type, tag *reflect.StructTag) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if et, ok := optElem(t); ok {
		return g.schema(et, tag)
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case isRaw(t):
		return map[string]any{}
	case isRawObject(t):
		return g.schema(rawObjectDoc(t), nil)
	case t == itemType:
		return map[string]any{"oneOf": []any{ref("SiteSpace"), ref("SiteSection"), ref("SiteSectionGroup")}}
	case t == fontType:
		// A font is a built-in font's name or a custom font definition
		// (CustomizationFont marshals itself so).
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, g.structRef(reflect.TypeFor[graph.CustomizationFontDefinition]())}}
	}
	if m, ok := reflect.New(t).Interface().(oneOrMany); ok {
		item := g.structRef(m.itemType())
		return map[string]any{"oneOf": []any{item, map[string]any{"type": "array", "items": item, "maxItems": maxIngest}}}
	}
	if vals, ok := enumsByType[t]; ok {
		return map[string]any{"type": "string", "enum": vals}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		if tag != nil {
			if alts := tag.Get("oneOf"); alts != "" {
				var refs []any
				for _, n := range strings.Split(alts, ",") {
					refs = append(refs, ref(n))
				}
				return map[string]any{"type": "array", "items": map[string]any{"oneOf": refs}}
			}
		}
		return map[string]any{"type": "array", "items": g.schema(t.Elem(), nil)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem(), nil)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		return g.structRef(t)
	}
	return map[string]any{}
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

func (g *schemaGen) structRef(t reflect.Type) map[string]any {
	if name, ok := g.names[t]; ok {
		return ref(name)
	}
	name := t.Name()
	if name == "" {
		return g.structSchema(t)
	}
	if _, taken := g.components[name]; taken {
		name = strings.ReplaceAll(t.PkgPath(), "/", "_") + "_" + name
	}
	g.names[t] = name
	g.components[name] = map[string]any{} // placeholder for recursive types
	g.components[name] = g.structSchema(t)
	return ref(name)
}

func (g *schemaGen) structSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	var embedded []any
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			embedded = append(embedded, g.schema(f.Type, nil))
			continue
		}
		if name == "" {
			name = f.Name
		}
		ft := f.Tag
		s := g.schema(f.Type, &ft)
		s = withConstraints(s, f.Tag)
		_, isOpt := optElem(f.Type)
		omitted := isOpt || strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		if f.Type.Kind() == reflect.Pointer && !omitted || f.Tag.Get("nullable") == "true" {
			s = nullable(s)
		}
		if d := f.Tag.Get("doc"); d != "" {
			s["description"] = d
		}
		props[name] = s
		if !omitted {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	if len(embedded) > 0 {
		return map[string]any{"allOf": append(embedded, out)}
	}
	return out
}

func withConstraints(s map[string]any, tag reflect.StructTag) map[string]any {
	if _, isRef := s["$ref"]; isRef {
		return s
	}
	if s["type"] == "array" {
		// Counts are the array's; the other checks are its items'.
		if v := tag.Get("maxItems"); v != "" {
			n, _ := strconv.Atoi(v)
			s["maxItems"] = n
		}
		if items, ok := s["items"].(map[string]any); ok {
			s["items"] = withConstraints(copyMap(items), tag)
		}
		return s
	}
	for _, k := range []string{"maxLength", "minLength", "minimum", "maximum"} {
		if v := tag.Get(k); v != "" {
			n, _ := strconv.Atoi(v)
			s[k] = n
		}
	}
	if v := tag.Get("pattern"); v != "" {
		s["pattern"] = v
	}
	if v := tag.Get("format"); v != "" {
		s["format"] = v
	}
	if v := tag.Get("enum"); v != "" {
		s["enum"] = strings.Split(v, ",")
	}
	if v := tag.Get("enumOf"); v != "" {
		s["enum"] = enumsByName[v]
	}
	return s
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// nullable allows null besides the schema.
func nullable(s map[string]any) map[string]any {
	if t, ok := s["type"].(string); ok {
		out := map[string]any{}
		for k, v := range s {
			out[k] = v
		}
		out["type"] = []string{t, "null"}
		if e, ok := out["enum"].([]string); ok {
			vals := make([]any, 0, len(e)+1)
			for _, x := range e {
				vals = append(vals, x)
			}
			out["enum"] = append(vals, nil)
		}
		return out
	}
	return map[string]any{"oneOf": []any{s, map[string]any{"type": "null"}}}
}

// String makes schemaGen print usefully in test failures.
func (g *schemaGen) String() string { return fmt.Sprintf("%d components", len(g.components)) }
