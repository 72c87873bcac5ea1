package rest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// ---- customization ----

// sitCustomizationKeys are the keys the documented settings object always
// holds.
var sitCustomizationKeys = []string{
	"styling.theme", "styling.primaryColor.light", "styling.primaryColor.dark",
	"styling.infoColor.light", "styling.infoColor.dark", "styling.successColor.light", "styling.successColor.dark",
	"styling.warningColor.light", "styling.warningColor.dark", "styling.dangerColor.light", "styling.dangerColor.dark",
	"styling.corners", "styling.depth", "styling.links", "styling.font", "styling.monospaceFont",
	"styling.background", "styling.icons", "styling.sidebar.background", "styling.sidebar.list", "styling.search",
	"internationalization.locale", "favicon", "header.preset", "header.links", "footer.groups",
	"themes.default", "themes.toggeable", "pdf.enabled", "feedback.enabled", "ai.mode",
	"advancedCustomization.enabled", "git.showEditLink", "pageActions.externalAI", "pageActions.markdown",
	"pageActions.mcp", "externalLinks.target", "pagination.enabled", "trademark.enabled",
	"privacyPolicy", "socialPreview", "insights.trackingCookie",
}

func sitAt(v any, dotted string) any {
	var keys []any
	for _, k := range strings.Split(dotted, ".") {
		keys = append(keys, k)
	}
	return testenv.Path(v, keys...)
}

// sitCheckSettings checks that settings hold every documented key.
func sitCheckSettings(t *testing.T, v any, what string) {
	t.Helper()
	for _, k := range sitCustomizationKeys {
		if sitAt(v, k) == nil {
			t.Errorf("%s: documented key %s missing", what, k)
		}
	}
}

func TestSiteCustomization(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b := f.space(t, "Alpha"), f.space(t, "Beta")
		id := f.site(t, map[string]any{"title": "Styled", "spaces": []string{a, b}})["id"].(string)
		items := f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any)
		ssA, ssB := sitStr(items[0], "id"), sitStr(items[1], "id")

		def := f.do(t, "GET", f.path(id, "customization"), nil, 200)
		sitCheckSettings(t, def, "default settings")
		for k, want := range map[string]any{
			"styling.theme": "clean", "styling.primaryColor.light": "#346DDB", "styling.corners": "rounded",
			"styling.font": "Inter", "styling.monospaceFont": "IBMPlexMono", "internationalization.locale": "en",
			"header.preset": "default", "themes.default": "light", "themes.toggeable": true, "pdf.enabled": true,
			"feedback.enabled": false, "ai.mode": "search", "externalLinks.target": "self", "insights.trackingCookie": true,
		} {
			if got := sitAt(def, k); got != want {
				t.Errorf("default %s = %v, want %v", k, got, want)
			}
		}
		if l, ok := sitAt(def, "header.links").([]any); !ok || len(l) != 0 {
			t.Errorf("default header.links = %v, want []", sitAt(def, "header.links"))
		}

		// PUT merges the body over the defaults.
		put := f.do(t, "PUT", f.path(id, "customization"), map[string]any{
			"styling":  map[string]any{"theme": "bold", "primaryColor": map[string]any{"light": "#ff0000", "dark": "#00f"}},
			"feedback": map[string]any{"enabled": true},
			"title":    "Styled Docs",
		}, 200)
		sitCheckSettings(t, put, "put settings")
		if sitAt(put, "styling.theme") != "bold" || sitAt(put, "styling.primaryColor.dark") != "#00f" || sitAt(put, "feedback.enabled") != true ||
			sitAt(put, "styling.corners") != "rounded" || sitAt(put, "pdf.enabled") != true || put["title"] != "Styled Docs" {
			t.Errorf("put result %v", put)
		}
		got := f.do(t, "GET", f.path(id, "customization"), nil, 200)
		if fmt.Sprint(got) != fmt.Sprint(put) {
			t.Errorf("get after put differs:\n%v\n%v", got, put)
		}
		// A second PUT replaces: what it leaves out is back to its default.
		put = f.do(t, "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "muted"}}, 200)
		if sitAt(put, "styling.theme") != "muted" || sitAt(put, "feedback.enabled") != false || put["title"] != nil || sitAt(put, "styling.primaryColor.light") != "#346DDB" {
			t.Errorf("second put %v", put)
		}

		// Site spaces show the site's settings until overridden.
		ssPath := f.path(id, "site-spaces", ssA, "customization")
		if v := f.do(t, "GET", ssPath, nil, 200); fmt.Sprint(v) != fmt.Sprint(put) {
			t.Errorf("site space without overrides shows %v", v)
		}
		o := f.do(t, "PATCH", ssPath, map[string]any{"styling": map[string]any{"theme": "gradient"}, "pdf": map[string]any{"enabled": false}}, 200)
		sitCheckSettings(t, o, "overridden settings")
		if sitAt(o, "styling.theme") != "gradient" || sitAt(o, "pdf.enabled") != false || sitAt(o, "styling.corners") != "rounded" {
			t.Errorf("override result %v", o)
		}
		if v := f.do(t, "GET", ssPath, nil, 200); fmt.Sprint(v) != fmt.Sprint(o) {
			t.Errorf("get after override differs")
		}
		// The site and the other site space are unchanged.
		if v := f.do(t, "GET", f.path(id, "customization"), nil, 200); sitAt(v, "styling.theme") != "muted" || sitAt(v, "pdf.enabled") != true {
			t.Errorf("site settings changed by an override: %v", v["styling"])
		}
		if v := f.do(t, "GET", f.path(id, "site-spaces", ssB, "customization"), nil, 200); sitAt(v, "styling.theme") != "muted" {
			t.Errorf("other site space shows %v", sitAt(v, "styling.theme"))
		}
		// PATCH merges: a later patch keeps earlier overrides.
		o = f.do(t, "PATCH", ssPath, map[string]any{"styling": map[string]any{"corners": "straight"}}, 200)
		if sitAt(o, "styling.theme") != "gradient" || sitAt(o, "styling.corners") != "straight" || sitAt(o, "pdf.enabled") != false {
			t.Errorf("merged override %v", o)
		}
		// null resets one override: the site's value shows again.
		o = f.do(t, "PATCH", ssPath, map[string]any{"styling": map[string]any{"theme": nil}}, 200)
		if sitAt(o, "styling.theme") != "muted" || sitAt(o, "styling.corners") != "straight" || sitAt(o, "pdf.enabled") != false {
			t.Errorf("reset one override %v", o)
		}
		// The site's later changes show through keys not overridden.
		f.do(t, "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)
		if v := f.do(t, "GET", ssPath, nil, 200); sitAt(v, "styling.theme") != "bold" || sitAt(v, "styling.corners") != "straight" {
			t.Errorf("site change through override: %v", v["styling"])
		}
		// DELETE removes every override: 205, then 204.
		sitEmpty(t, e.Do(f.tok, "DELETE", ssPath, nil), 205, "delete overrides")
		site := f.do(t, "GET", f.path(id, "customization"), nil, 200)
		if v := f.do(t, "GET", ssPath, nil, 200); fmt.Sprint(v) != fmt.Sprint(site) {
			t.Errorf("after delete the site space shows %v, want the site's", v)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", ssPath, nil), 204, "delete overrides again")
		sitErr(t, e.Do(f.tok, "GET", f.path(id, "site-spaces", "nope", "customization"), nil), 404, "", "unknown site space customization")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "site-spaces", "nope", "customization"), map[string]any{}), 404, "", "override unknown site space")
	})
}

// ---- adaptive schema ----

func TestSiteAdaptiveSchema(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a := f.space(t, "Alpha")
		id := f.site(t, map[string]any{"title": "Adaptive", "spaces": []string{a}})["id"].(string)

		sitErr(t, e.Do(f.tok, "GET", f.path(id, "adaptive-schema"), nil), 404, "", "no schema yet")
		tc := f.do(t, "GET", f.path(id, "adaptive-schema", "template-conditions"), nil, 200)
		if items, ok := tc["items"].([]any); !ok || len(items) != 0 {
			t.Errorf("template conditions without schema: %v", tc)
		}

		schema := map[string]any{
			"$schema":              "http://json-schema.org/draft-07/schema#",
			"type":                 "object",
			"additionalProperties": false,
			"properties": map[string]any{
				"beta":  map[string]any{"type": "boolean", "description": "Beta tester"},
				"plan":  map[string]any{"type": "string", "enum": []string{"free", "pro"}},
				"seats": map[string]any{"type": "number"},
				"unsigned": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
					"preview": map[string]any{"type": "boolean"},
				}},
			},
		}
		put := f.do(t, "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": schema}, 200)
		if put["object"] != "site-adaptive-schema" || sitStr(put, "updatedAt") == "" {
			t.Errorf("put schema %v", put)
		}
		if fmt.Sprint(put["jsonSchema"]) != fmt.Sprint(sitRoundTrip(schema)) {
			t.Errorf("jsonSchema %v", put["jsonSchema"])
		}
		got := f.do(t, "GET", f.path(id, "adaptive-schema"), nil, 200)
		if got["object"] != "site-adaptive-schema" || fmt.Sprint(got["jsonSchema"]) != fmt.Sprint(put["jsonSchema"]) || got["updatedAt"] != put["updatedAt"] {
			t.Errorf("get schema %v, want %v", got, put)
		}
		sitWant(t, e.Do(f.team.Reader.Token, "GET", f.path(id, "adaptive-schema"), nil), 200, "reader reads the schema")

		tc = f.do(t, "GET", f.path(id, "adaptive-schema", "template-conditions"), nil, 200)
		items, _ := tc["items"].([]any)
		conds := map[string]string{}
		for _, it := range items {
			c, d := sitStr(it, "condition"), sitStr(it, "description")
			if c == "" || d == "" {
				t.Errorf("template condition without condition or description: %v", it)
			}
			conds[c] = d
		}
		want := []string{`visitor.claims.beta`, `visitor.claims.plan == "free"`, `visitor.claims.seats > 0`, `visitor.claims.unsigned.preview`}
		if len(items) != len(want) {
			t.Errorf("template conditions %v, want one per claim %v", items, want)
		}
		for _, c := range want {
			if _, ok := conds[c]; !ok {
				t.Errorf("template condition %q missing from %v", c, conds)
			}
		}
		if conds["visitor.claims.beta"] != "Beta tester" {
			t.Errorf("description of beta %q", conds["visitor.claims.beta"])
		}
		// Every template condition is accepted as a section condition.
		sec := f.section(t, id, f.space(t, "Beta"), "Gated")["id"].(string)
		for c := range conds {
			v := f.do(t, "PATCH", f.path(id, "sections", sec), map[string]any{"condition": c}, 200)
			if v["condition"] != c {
				t.Errorf("condition %v, want %q", v["condition"], c)
			}
		}

		// A new PUT replaces the schema.
		small := map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
			"roles": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"admin", "dev"}}},
		}}
		f.do(t, "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": small}, 200)
		tc = f.do(t, "GET", f.path(id, "adaptive-schema", "template-conditions"), nil, 200)
		if items, _ := tc["items"].([]any); len(items) != 1 || sitStr(items[0], "condition") != `"admin" in visitor.claims.roles` {
			t.Errorf("template conditions after replace %v", tc)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path("nope", "adaptive-schema"), nil), 404, "", "unknown site")
	})
}

// sitRoundTrip passes a value through JSON, as the server sees it.
func sitRoundTrip(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
