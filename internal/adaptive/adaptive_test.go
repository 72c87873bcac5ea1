package adaptive

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"quire/internal/apierr"
	"quire/internal/conditions"
)

// every covers every claim kind, in a deliberate (non-alphabetical) order.
const every = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "plan": {"type": "string", "enum": ["pro", "free"], "description": "Visitor's plan"},
    "beta": {"type": "boolean"},
    "country": {"type": "string", "description": ""},
    "seats": {"type": "number", "description": "Seats in use"},
    "roles": {"type": "array", "description": "Roles", "items": {"type": "string", "enum": ["admin", "editor"]}},
    "tags": {"type": "array", "items": {"type": "string"}},
    "scores": {"type": "array", "description": "Scores", "items": {"type": "number", "description": "A score"}},
    "company": {
      "type": "object",
      "description": "The visitor's company",
      "properties": {
        "tier": {"type": "string", "enum": ["gold"]},
        "address": {
          "type": "object",
          "properties": {"zip code": {"type": "string", "description": "Postal code"}},
          "additionalProperties": false
        },
        "verified": {"type": "boolean", "description": "Company is verified"}
      },
      "additionalProperties": false
    },
    "in": {"type": "boolean"},
    "unsigned": {
      "type": "object",
      "description": "Unsigned claims of the site visitor.",
      "properties": {
        "bookmarked": {"type": "boolean", "description": "Bookmarked the docs"},
        "early-access": {"type": "boolean"}
      },
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}`

func body(schema string) json.RawMessage {
	return json.RawMessage(`{"jsonSchema": ` + schema + `}`)
}

func TestValidateAccepts(t *testing.T) {
	for name, schema := range map[string]string{
		"every kind": every,
		"minimal":    `{"type": "object", "properties": {}, "additionalProperties": false}`,
		"booleans, no $schema": `{"type": "object", "additionalProperties": false, "properties": {
			"isBetaUser": {"type": "boolean", "description": "Beta user"},
			"unsigned": {"type": "object", "properties": {}, "additionalProperties": false}}}`,
		"depth 5": `{"type":"object","additionalProperties":false,"properties":{"a":
			{"type":"object","additionalProperties":false,"properties":{"b":
			{"type":"object","additionalProperties":false,"properties":{"c":
			{"type":"object","additionalProperties":false,"properties":{"d":
			{"type":"object","additionalProperties":false,"properties":{"e":{"type":"boolean"}}}}}}}}}}}`,
		"100 claims": manyClaims(MaxClaims),
	} {
		if err := Validate(body(schema)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := ValidateSchema(json.RawMessage(schema)); err != nil {
			t.Errorf("%s (ValidateSchema): %v", name, err)
		}
	}
	// Other body members are ignored.
	if err := Validate(json.RawMessage(`{"other": 1, "jsonSchema": ` + every + `}`)); err != nil {
		t.Errorf("extra member: %v", err)
	}
}

func manyClaims(n int) string {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"c%d": {"type": "boolean"}`, i)
	}
	return `{"type": "object", "additionalProperties": false, "properties": {` + strings.Join(props, ",") + `}}`
}

func TestValidateRejects(t *testing.T) {
	cases := []struct {
		name, body string
		field      string // expected apierr field
		msg        string // substring of the message
	}{
		// The body itself.
		{"not JSON", `{`, "", "not valid JSON"},
		{"body array", `[]`, "", "must be a JSON object"},
		{"missing jsonSchema", `{}`, "jsonSchema", "jsonSchema is required"},
		{"null jsonSchema", `{"jsonSchema": null}`, "jsonSchema", "must be an object, got null"},
		{"string jsonSchema", `{"jsonSchema": "x"}`, "jsonSchema", "must be an object, got a string"},
		{"duplicate key", string(body(`{"type": "object", "type": "object"}`)), "jsonSchema", `duplicate key "type"`},

		// Draft-07 meta-schema violations.
		{"type 5", string(body(`{"type": "object", "additionalProperties": false, "properties": {"plan": {"type": 5}}}`)),
			"jsonSchema.properties.plan.type", "jsonSchema.properties.plan.type is not valid JSON Schema draft-07: value must be one of"},
		{"required string", string(body(`{"type": "object", "required": "x", "additionalProperties": false, "properties": {}}`)),
			"jsonSchema.required", "jsonSchema.required is not valid JSON Schema draft-07: got string, want array"},
		{"enum empty", string(body(`{"type": "object", "additionalProperties": false, "properties": {"plan": {"type": "string", "enum": []}}}`)),
			"jsonSchema.properties.plan.enum", "draft-07: minItems"},
		{"bad pattern", string(body(`{"type": "object", "additionalProperties": false, "properties": {"a b": {"type": "string", "pattern": "("}}}`)),
			`jsonSchema.properties["a b"].pattern`, "not valid regex"},
		{"additionalProperties string", string(body(`{"type": "object", "additionalProperties": "no", "properties": {}}`)),
			"jsonSchema.additionalProperties", "draft-07"},
		{"items array element", string(body(`{"type": "object", "additionalProperties": false, "properties": {"r": {"type": "array", "items": [{"type": "x"}]}}}`)),
			"jsonSchema.properties.r.items[0].type", "draft-07"},
		{"remote ref", string(body(`{"type": "object", "additionalProperties": false, "properties": {"a": {"$ref": "file:///etc/passwd"}}}`)),
			"jsonSchema", "not a valid JSON Schema draft-07 document"},
		{"dangling ref", string(body(`{"type": "object", "additionalProperties": false, "properties": {"a": {"$ref": "#/definitions/x"}}}`)),
			"jsonSchema", "not a valid JSON Schema draft-07 document"},
		{"other draft", string(body(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {}, "additionalProperties": false}`)),
			"jsonSchema.$schema", `must be "http://json-schema.org/draft-07/schema#"`},

		// Documented constraints.
		{"type array at top", string(body(`{"type": "array", "additionalProperties": false, "properties": {}}`)),
			"jsonSchema.type", `jsonSchema.type must be "object"`},
		{"type missing", string(body(`{"additionalProperties": false, "properties": {}}`)),
			"jsonSchema.type", "is required"},
		{"additionalProperties true", string(body(`{"type": "object", "additionalProperties": true, "properties": {}}`)),
			"jsonSchema.additionalProperties", "jsonSchema.additionalProperties must be false"},
		{"additionalProperties missing", string(body(`{"type": "object", "properties": {}}`)),
			"jsonSchema.additionalProperties", "must be false"},
		{"properties missing", string(body(`{"type": "object", "additionalProperties": false}`)),
			"jsonSchema.properties", "is required"},
		{"unknown top keyword", string(body(`{"type": "object", "additionalProperties": false, "properties": {}, "required": ["a"]}`)),
			"jsonSchema.required", "is not supported here"},
		{"unsigned string claim", string(body(`{"type": "object", "additionalProperties": false, "properties": {
			"unsigned": {"type": "object", "additionalProperties": false, "properties": {"plan": {"type": "string"}}}}}`)),
			"jsonSchema.properties.unsigned.properties.plan.type", "unsigned claims are booleans"},
		{"unsigned not object", string(body(`{"type": "object", "additionalProperties": false, "properties": {"unsigned": {"type": "boolean"}}}`)),
			"jsonSchema.properties.unsigned.type", `must be "object"`},
		{"unsigned open", string(body(`{"type": "object", "additionalProperties": false, "properties": {"unsigned": {"type": "object", "properties": {}}}}`)),
			"jsonSchema.properties.unsigned.additionalProperties", "must be false"},
		{"integer claim", string(body(`{"type": "object", "additionalProperties": false, "properties": {"n": {"type": "integer"}}}`)),
			"jsonSchema.properties.n.type", "must be one of boolean, string, number, array or object"},
		{"null claim", string(body(`{"type": "object", "additionalProperties": false, "properties": {"n": {"type": "null"}}}`)),
			"jsonSchema.properties.n.type", "must be one of"},
		{"claim type list", string(body(`{"type": "object", "additionalProperties": false, "properties": {"n": {"type": ["string", "number"]}}}`)),
			"jsonSchema.properties.n.type", "must be one of"},
		{"claim without type", string(body(`{"type": "object", "additionalProperties": false, "properties": {"n": {"description": "x"}}}`)),
			"jsonSchema.properties.n.type", "is required"},
		{"boolean schema claim", string(body(`{"type": "object", "additionalProperties": false, "properties": {"n": true}}`)),
			"jsonSchema.properties.n", "must be an object describing the claim"},
		{"description number", string(body(`{"type": "object", "additionalProperties": false, "properties": {"beta": {"type": "boolean", "description": 3}}}`)),
			"jsonSchema.properties.beta.description", "draft-07: got number, want string"},
		{"extra claim keyword", string(body(`{"type": "object", "additionalProperties": false, "properties": {"beta": {"type": "boolean", "default": true}}}`)),
			"jsonSchema.properties.beta.default", "is not supported here"},
		{"enum on number", string(body(`{"type": "object", "additionalProperties": false, "properties": {"n": {"type": "number", "enum": [1]}}}`)),
			"jsonSchema.properties.n.enum", "is not supported here"},
		{"enum not strings", string(body(`{"type": "object", "additionalProperties": false, "properties": {"plan": {"type": "string", "enum": ["a", 2]}}}`)),
			"jsonSchema.properties.plan.enum[1]", "must be a string"},
		{"enum repeats", string(body(`{"type": "object", "additionalProperties": false, "properties": {"plan": {"type": "string", "enum": ["a", "a"]}}}`)),
			"jsonSchema.properties.plan.enum", ""}, // draft-07 uniqueItems or ours
		{"array without items", string(body(`{"type": "object", "additionalProperties": false, "properties": {"r": {"type": "array"}}}`)),
			"jsonSchema.properties.r.items", "is required"},
		{"array of objects", string(body(`{"type": "object", "additionalProperties": false, "properties": {"r": {"type": "array", "items": {"type": "object", "properties": {}, "additionalProperties": false}}}}`)),
			"jsonSchema.properties.r.items.type", "must be one of boolean, string or number"},
		{"array tuple", string(body(`{"type": "object", "additionalProperties": false, "properties": {"r": {"type": "array", "items": [{"type": "string"}]}}}`)),
			"jsonSchema.properties.r.items", "must be a single object schema"},
		{"nested open object", string(body(`{"type": "object", "additionalProperties": false, "properties": {"c": {"type": "object", "properties": {}}}}`)),
			"jsonSchema.properties.c.additionalProperties", "must be false"},
		{"nested bad claim", string(body(`{"type": "object", "additionalProperties": false, "properties": {"c": {"type": "object", "additionalProperties": false, "properties": {"x y": {"type": "date"}}}}}`)),
			`jsonSchema.properties.c.properties["x y"].type`, "must be one of"},
		{"too deep", string(body(`{"type":"object","additionalProperties":false,"properties":{"a":
			{"type":"object","additionalProperties":false,"properties":{"b":
			{"type":"object","additionalProperties":false,"properties":{"c":
			{"type":"object","additionalProperties":false,"properties":{"d":
			{"type":"object","additionalProperties":false,"properties":{"e":
			{"type":"object","additionalProperties":false,"properties":{}}}}}}}}}}}}`)),
			"jsonSchema.properties.a.properties.b.properties.c.properties.d.properties.e", "more than 5 levels deep"},
		{"too many claims", string(body(manyClaims(MaxClaims + 1))), "jsonSchema.properties.c100", "limit of 100 claims"},
		{"blank claim name", string(body(`{"type": "object", "additionalProperties": false, "properties": {" ": {"type": "boolean"}}}`)),
			`jsonSchema.properties[" "]`, "must not be blank"},
	}
	for _, c := range cases {
		err := Validate(json.RawMessage(c.body))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		e, ok := apierr.As(err)
		if !ok || e.Code != apierr.BadRequest {
			t.Errorf("%s: %#v, want a 400", c.name, err)
			continue
		}
		if e.Field != c.field {
			t.Errorf("%s: field %q, want %q (message %q)", c.name, e.Field, c.field, e.Message)
		}
		if !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: message %q, want it to contain %q", c.name, e.Message, c.msg)
		}
	}
}

func TestTemplateConditions(t *testing.T) {
	got := TemplateConditions(json.RawMessage(every))
	want := []TemplateCondition{
		{`Visitor's plan`, `visitor.claims.plan == "pro"`},
		{`Visitor has beta`, `visitor.claims.beta`},
		{`Visitor country is set`, `visitor.claims.country != nil && visitor.claims.country != ""`},
		{`Seats in use`, `visitor.claims.seats > 0`},
		{`Roles`, `"admin" in visitor.claims.roles`},
		{`Visitor tags is not empty`, `len(visitor.claims.tags) > 0`},
		{`Scores`, `len(visitor.claims.scores) > 0`},
		{`Visitor company.tier is "gold"`, `visitor.claims.company.tier == "gold"`},
		{`Postal code`, `visitor.claims.company.address["zip code"] != nil && visitor.claims.company.address["zip code"] != ""`},
		{`Company is verified`, `visitor.claims.company.verified`},
		{`Visitor has in`, `visitor.claims["in"]`},
		{`Bookmarked the docs`, `visitor.claims.unsigned.bookmarked`},
		{`Visitor has early-access`, `visitor.claims.unsigned["early-access"]`},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Errorf("TemplateConditions:\n%s", g)
	}
	for _, tc := range got {
		if err := conditions.Check("condition", tc.Condition); err != nil {
			t.Errorf("%q does not pass conditions.Check: %v", tc.Condition, err)
		}
	}

	// The conditions mean what they say.
	claims := map[string]any{
		"plan":    "pro",
		"beta":    true,
		"country": "FR",
		"seats":   float64(3),
		"roles":   []any{"admin"},
		"tags":    []any{"x"},
		"scores":  []any{1.5},
		"company": map[string]any{"tier": "gold", "verified": true, "address": map[string]any{"zip code": "75001"}},
		"in":      true,
		"unsigned": map[string]any{
			"bookmarked":   true,
			"early-access": true,
		},
	}
	for _, tc := range got {
		if !conditions.Eval(tc.Condition, claims) {
			t.Errorf("%q is false for matching claims", tc.Condition)
		}
		if conditions.Eval(tc.Condition, nil) {
			t.Errorf("%q is true without claims", tc.Condition)
		}
	}

	// JSON shape.
	b, _ := json.Marshal(got[0])
	if string(b) != `{"description":"Visitor's plan","condition":"visitor.claims.plan == \"pro\""}` {
		t.Errorf("JSON: %s", b)
	}
}

func TestTemplateConditionsOddNames(t *testing.T) {
	names := []string{`a"b`, `back\slash`, "new\nline", "émoji 🎉", "1st", "not", "$x", "a.b", "", "` or true"}
	props := make([]string, len(names))
	for i, n := range names {
		k, _ := json.Marshal(n)
		props[i] = fmt.Sprintf(`%s: {"type": "string", "enum": [%s]}`, k, k)
	}
	schema := `{"type": "object", "additionalProperties": false, "properties": {` + strings.Join(props, ",") + `}}`
	got := TemplateConditions(json.RawMessage(schema))
	if len(got) != len(names) {
		t.Fatalf("got %d conditions, want %d: %v", len(got), len(names), got)
	}
	for i, tc := range got {
		if err := conditions.Check("condition", tc.Condition); err != nil {
			t.Errorf("%q: %v", tc.Condition, err)
		}
		claims := map[string]any{names[i]: names[i]}
		if !conditions.Eval(tc.Condition, claims) {
			t.Errorf("%q is false for %v", tc.Condition, claims)
		}
	}
}

func TestTemplateConditionsUnreadable(t *testing.T) {
	for _, s := range []string{``, `null`, `[]`, `{`, `{"properties": 3}`, `{"properties": {"a": 1, "b": {"type": "x"}}}`} {
		got := TemplateConditions(json.RawMessage(s))
		if got == nil || len(got) != 0 {
			t.Errorf("TemplateConditions(%q) = %#v, want empty", s, got)
		}
	}
	// A claim name too long for a condition is skipped, not returned broken.
	long := strings.Repeat("x", conditions.MaxLength)
	got := TemplateConditions(json.RawMessage(`{"properties": {"` + long + `": {"type": "boolean"}, "ok": {"type": "boolean"}}}`))
	if len(got) != 1 || got[0].Condition != "visitor.claims.ok" {
		t.Errorf("got %v", got)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(every)
	f.Add(`{"type": "object", "properties": {"a": {"type": 5}}}`)
	f.Add(`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "array", "items": {"type": "string"}}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateSchema(json.RawMessage(s))
		if err != nil {
			if e, ok := apierr.As(err); !ok || e.Code != apierr.BadRequest {
				t.Fatalf("ValidateSchema(%q) = %v", s, err)
			}
			return
		}
		for _, tc := range TemplateConditions(json.RawMessage(s)) {
			if err := conditions.Check("condition", tc.Condition); err != nil {
				t.Fatalf("%q: %v", tc.Condition, err)
			}
		}
	})
}
