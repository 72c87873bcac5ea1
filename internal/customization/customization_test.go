package customization

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"quire/internal/apierr"
)

// requiredPaths are the keys the API reference (SiteCustomizationSettings
// of @gitbook/api 0.146.0) marks as required, as dotted JSON paths.
var requiredPaths = []string{
	"styling", "internationalization", "favicon", "header", "footer", "themes",
	"pdf", "feedback", "ai", "advancedCustomization", "trademark",
	"externalLinks", "pagination", "pageActions", "git", "privacyPolicy",
	"socialPreview", "insights",

	"styling.theme", "styling.primaryColor", "styling.infoColor",
	"styling.successColor", "styling.warningColor", "styling.dangerColor",
	"styling.corners", "styling.depth", "styling.links", "styling.font",
	"styling.monospaceFont", "styling.background", "styling.icons",
	"styling.sidebar", "styling.search",
	"styling.primaryColor.light", "styling.primaryColor.dark",
	"styling.infoColor.light", "styling.infoColor.dark",
	"styling.successColor.light", "styling.successColor.dark",
	"styling.warningColor.light", "styling.warningColor.dark",
	"styling.dangerColor.light", "styling.dangerColor.dark",
	"styling.sidebar.background", "styling.sidebar.list",

	"internationalization.locale",
	"header.preset", "header.links",
	"footer.groups",
	"themes.default", "themes.toggeable",
	"pdf.enabled", "feedback.enabled", "ai.mode", "advancedCustomization.enabled",
	"git.showEditLink",
	"pageActions.externalAI", "pageActions.markdown", "pageActions.mcp",
	"externalLinks.target", "pagination.enabled", "trademark.enabled",
	"insights.trackingCookie",
}

// lookup returns the value at a dotted path of a JSON object.
func lookup(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func toMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// wantInvalid fails unless err is a 400 naming field, in Field and message.
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one on %q", field)
	}
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("error %v is not an apierr.Error", err)
	}
	if e.Code != apierr.BadRequest {
		t.Errorf("code = %s, want %s", e.Code, apierr.BadRequest)
	}
	if e.Field != field {
		t.Errorf("field = %q, want %q (message %q)", e.Field, field, e.Message)
	}
	if !strings.Contains(e.Message, field) {
		t.Errorf("message %q does not name %q", e.Message, field)
	}
}

// at builds a JSON body with v at a dotted path.
func at(path string, v any) []byte {
	keys := strings.Split(path, ".")
	for i := len(keys) - 1; i >= 0; i-- {
		v = map[string]any{keys[i]: v}
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// rich is a Settings value with every optional field set.
func rich() Settings {
	s := Defaults()
	s.Title = "Quire docs"
	s.Styling.Theme = ThemeGradient
	s.Styling.Tint = &Tint{Color: ThemedColor{Light: "#abc", Dark: "#123456"}}
	s.Styling.Font = Font{Custom: &FontDefinition{
		ID: "font_1", Custom: true, FontFamily: "Open Sans",
		FontFaces: []FontFace{{Weight: 400, Sources: []FontSource{
			{URL: "https://cdn.example.com/os.woff2", Format: "woff2"},
			{URL: "/fonts/os.woff"},
		}}},
	}}
	s.Styling.MonospaceFont = Font{Name: "FiraCode"}
	s.Favicon = Favicon{Icon: &ThemedURL{Light: "https://example.com/l.png", Dark: "https://example.com/d.png"}}
	page := ContentRef{Kind: RefPage, Page: "p1", Space: "s1"}
	s.Header = Header{
		Preset:          HeaderPresetCustom,
		Logo:            &ThemedURL{Light: "https://example.com/l.svg", Dark: "https://example.com/d.svg"},
		BackgroundColor: &ThemedColor{Light: "#fff", Dark: "#000"},
		LinkColor:       &ThemedColor{Light: "#fff", Dark: "#000"},
		PrimaryLink:     &ContentRef{Kind: RefURL, URL: "https://example.com/signup"},
		Links: []HeaderItem{
			{Title: "Guides", Style: HeaderItemButtonPrimary, To: &page, Links: []ContentLink{}, Condition: "visitor.claims.beta"},
			{Title: "More", To: nil, Links: []ContentLink{{Title: "API", To: ContentRef{Kind: RefOpenAPI, Spec: "petstore"}}}},
		},
	}
	s.Footer = Footer{
		Logo:      &ThemedURL{Light: "https://example.com/f.png", Dark: "https://example.com/f.png"},
		Groups:    []FooterGroup{{Title: "Company", Links: []ContentLink{{Title: "Mail", To: ContentRef{Kind: RefURL, URL: "mailto:hi@example.com"}}}}},
		Copyright: "© Quire",
	}
	s.Announcement = &Announcement{Enabled: true, Message: "New release", Style: AnnouncementSuccess,
		Link: &ContentLink{Title: "Read", To: ContentRef{Kind: RefAnchor, Anchor: "a", Page: "p", Space: "s"}}}
	s.AI = AI{Mode: AIModeAssistant, Suggestions: []string{"How do I start?", "What is Quire?"}}
	s.PrivacyPolicy.URL = "https://example.com/privacy"
	s.SocialPreview.URL = "https://example.com/og.png"
	return s
}

func TestDefaultsHaveEveryRequiredKey(t *testing.T) {
	doc := toMap(t, Defaults())
	for _, p := range requiredPaths {
		if _, ok := lookup(doc, p); !ok {
			t.Errorf("Defaults() JSON lacks required key %s", p)
		}
	}
	if err := Validate(Defaults()); err != nil {
		t.Fatalf("Validate(Defaults()) = %v", err)
	}
	checks := map[string]any{
		"styling.theme": "clean", "styling.primaryColor.light": "#346DDB",
		"styling.font": "Inter", "styling.monospaceFont": "IBMPlexMono",
		"insights.trackingCookie": true, "themes.toggeable": true,
		"ai.mode": "search", "externalLinks.target": "self", "feedback.enabled": false,
	}
	for p, want := range checks {
		if got, _ := lookup(doc, p); got != want {
			t.Errorf("default %s = %v, want %v", p, got, want)
		}
	}
	if links, _ := lookup(doc, "header.links"); !reflect.DeepEqual(links, []any{}) {
		t.Errorf("default header.links = %#v, want []", links)
	}
}

func TestRoundTrip(t *testing.T) {
	for name, s := range map[string]Settings{"defaults": Defaults(), "rich": rich()} {
		t.Run(name, func(t *testing.T) {
			if err := Validate(s); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			b, err := Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(b)
			if err != nil {
				t.Fatalf("Decode(%s): %v", b, err)
			}
			if !reflect.DeepEqual(got, s) {
				t.Fatalf("round trip changed the settings:\n got %+v\nwant %+v", got, s)
			}
		})
	}
}

func TestEnumsRejectUnknownValues(t *testing.T) {
	fields := []string{
		"styling.theme", "styling.corners", "styling.depth", "styling.links",
		"styling.icons", "styling.sidebar.background", "styling.sidebar.list",
		"styling.search", "styling.background", "styling.font", "styling.monospaceFont",
		"header.preset", "themes.default", "ai.mode", "externalLinks.target",
		"internationalization.locale",
	}
	for _, f := range fields {
		t.Run(f, func(t *testing.T) {
			_, err := Decode(at(f, "nope"))
			wantInvalid(t, err, f)
		})
	}
	t.Run("monospace font is not a body font", func(t *testing.T) {
		_, err := Decode(at("styling.monospaceFont", "Inter"))
		wantInvalid(t, err, "styling.monospaceFont")
	})
	t.Run("header link style", func(t *testing.T) {
		_, err := Decode([]byte(`{"header":{"links":[{"title":"a","to":null,"links":[],"style":"fancy"}]}}`))
		wantInvalid(t, err, "header.links[0].style")
	})
	t.Run("announcement style", func(t *testing.T) {
		_, err := Decode([]byte(`{"announcement":{"enabled":true,"message":"hello","style":"loud"}}`))
		wantInvalid(t, err, "announcement.style")
	})
	t.Run("font source format", func(t *testing.T) {
		_, err := Decode([]byte(`{"styling":{"font":{"id":"f","custom":true,"fontFamily":"F","fontFaces":[{"weight":400,"sources":[{"url":"https://x.io/f.ttf","format":"ttf"}]}]}}}`))
		wantInvalid(t, err, "styling.font.fontFaces[0].sources[0].format")
	})
	valid := map[string]string{
		"styling.theme": "muted", "styling.corners": "circular", "styling.depth": "flat",
		"styling.links": "accent", "styling.icons": "duotone", "styling.sidebar.list": "pill",
		"styling.search": "subtle", "styling.background": "match", "header.preset": "none",
		"themes.default": "dark", "ai.mode": "none", "externalLinks.target": "blank",
		"internationalization.locale": "pt-br", "styling.font": "FiraSans",
		"styling.monospaceFont": "JetBrainsMono",
	}
	for f, v := range valid {
		s, err := Decode(at(f, v))
		if err != nil {
			t.Errorf("%s = %q: %v", f, v, err)
			continue
		}
		if got, _ := lookup(toMap(t, s), f); got != v {
			t.Errorf("%s = %v after decode, want %q", f, got, v)
		}
	}
}

func TestColors(t *testing.T) {
	paths := []string{
		"styling.primaryColor.light", "styling.dangerColor.dark",
		"styling.tint.color.light", "header.backgroundColor.dark",
	}
	tests := []struct {
		value any
		ok    bool
	}{
		{"#abc", true}, {"#A1B2C3", true}, {"#346DDB", true},
		{"abc", false}, {"#abcd", false}, {"#ggg", false}, {"#abcdef0", false},
		{"", false}, {"#", false}, {" #abc", false}, {"red", false}, {123, false},
	}
	for _, p := range paths {
		for _, tc := range tests {
			// The sibling key is given so that only the tested one can fail.
			parent, leaf := p[:strings.LastIndex(p, ".")], p[strings.LastIndex(p, ".")+1:]
			other := map[string]string{"light": "dark", "dark": "light"}[leaf]
			body := at(parent, map[string]any{leaf: tc.value, other: "#000"})
			_, err := Decode(body)
			if tc.ok && err != nil {
				t.Errorf("%s = %v: %v", p, tc.value, err)
			}
			if !tc.ok {
				wantInvalid(t, err, p)
			}
		}
	}
	t.Run("partial color keeps the default of the other mode", func(t *testing.T) {
		s, err := Decode(at("styling.primaryColor.light", "#000"))
		if err != nil {
			t.Fatal(err)
		}
		if want := (ThemedColor{Light: "#000", Dark: "#346DDB"}); s.Styling.PrimaryColor != want {
			t.Errorf("primaryColor = %+v, want %+v", s.Styling.PrimaryColor, want)
		}
	})
	t.Run("optional color needs both modes", func(t *testing.T) {
		_, err := Decode(at("header.linkColor.light", "#000"))
		wantInvalid(t, err, "header.linkColor.dark")
	})
}

func TestLengths(t *testing.T) {
	announcement := func(msg string) []byte {
		return at("announcement", map[string]any{"enabled": true, "message": msg, "style": "info"})
	}
	headerItem := func(title string) []byte {
		return at("header.links", []any{map[string]any{"title": title, "to": nil, "links": []any{}}})
	}
	nestedLink := func(title string) []byte {
		return at("header.links", []any{map[string]any{"title": "Docs", "to": nil, "links": []any{
			map[string]any{"title": title, "to": map[string]any{"kind": "space", "space": "s1"}},
		}}})
	}
	footerLink := func(title string) []byte {
		return at("footer.groups", []any{map[string]any{"title": "G", "links": []any{
			map[string]any{"title": title, "to": map[string]any{"kind": "url", "url": "https://x.io"}},
		}}})
	}
	suggestions := func(items ...string) []byte { return at("ai.suggestions", items) }
	r := strings.Repeat
	tests := []struct {
		name  string
		body  []byte
		field string // empty: valid
	}{
		{"message 1", announcement("a"), "announcement.message"},
		{"message 2", announcement("ab"), ""},
		{"message 128", announcement(r("a", 128)), ""},
		{"message 129", announcement(r("a", 129)), "announcement.message"},
		{"message counts characters", announcement(r("é", 128)), ""},
		{"copyright 300", at("footer.copyright", r("c", 300)), ""},
		{"copyright 301", at("footer.copyright", r("c", 301)), "footer.copyright"},
		{"header item title 64", headerItem(r("t", 64)), ""},
		{"header item title 65", headerItem(r("t", 65)), "header.links[0].title"},
		{"header link title 64", nestedLink(r("t", 64)), ""},
		{"header link title 65", nestedLink(r("t", 65)), "header.links[0].links[0].title"},
		{"footer link title 65", footerLink(r("t", 65)), "footer.groups[0].links[0].title"},
		{"title 1", at("title", "Q"), "title"},
		{"title 2", at("title", "Qu"), ""},
		{"title 128", at("title", r("q", 128)), ""},
		{"title 129", at("title", r("q", 129)), "title"},
		{"5 suggestions", suggestions("abc", "abd", "abe", "abf", "abg"), ""},
		{"6 suggestions", suggestions("abc", "abd", "abe", "abf", "abg", "abh"), "ai.suggestions"},
		{"suggestion 2", suggestions("abc", "ab"), "ai.suggestions[1]"},
		{"suggestion 64", suggestions(r("s", 64)), ""},
		{"suggestion 65", suggestions(r("s", 65)), "ai.suggestions[0]"},
		{"condition 1025", at("header.links", []any{map[string]any{"title": "a", "to": nil, "links": []any{}, "condition": r("x", 1025)}}), "header.links[0].condition"},
		{"empty emoji", at("favicon.emoji", ""), "favicon.emoji"},
		{"font family 51", at("styling.font", map[string]any{"id": "f", "custom": true, "fontFamily": r("f", 51),
			"fontFaces": []any{map[string]any{"weight": 400, "sources": []any{map[string]any{"url": "/f.woff2"}}}}}), "styling.font.fontFamily"},
		{"no font faces", at("styling.font", map[string]any{"id": "f", "custom": true, "fontFamily": "F", "fontFaces": []any{}}), "styling.font.fontFaces"},
		{"font weight 1001", at("styling.font", map[string]any{"id": "f", "custom": true, "fontFamily": "F",
			"fontFaces": []any{map[string]any{"weight": 1001, "sources": []any{map[string]any{"url": "/f.woff2"}}}}}), "styling.font.fontFaces[0].weight"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.body)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("Decode(%s): %v", tc.body, err)
				}
				return
			}
			wantInvalid(t, err, tc.field)
		})
	}
}

func TestURLs(t *testing.T) {
	fields := []string{
		"privacyPolicy.url", "socialPreview.url", "header.logo.light",
		"footer.logo.dark", "favicon.icon.light",
	}
	tests := []struct {
		value string
		ok    bool
	}{
		{"https://example.com/a?b=c#d", true},
		{"http://localhost:8080/x", true},
		{"ftp://example.com/f", false},
		{"/relative/path", false},
		{"example.com", false},
		{"https://", false},
		{"https:example.com", false},
		{"javascript:alert(1)", false},
		{"https://exa mple.com", false},
		{"https://example.com/" + strings.Repeat("a", maxURLLength), false},
		{"", false},
	}
	for _, f := range fields {
		for _, tc := range tests {
			parent, leaf := f[:strings.LastIndex(f, ".")], f[strings.LastIndex(f, ".")+1:]
			v := map[string]any{leaf: tc.value}
			if leaf == "light" || leaf == "dark" {
				v = map[string]any{"light": "https://example.com/ok.png", "dark": "https://example.com/ok.png", leaf: tc.value}
			}
			_, err := Decode(at(parent, v))
			if tc.ok && err != nil {
				t.Errorf("%s = %q: %v", f, tc.value, err)
			}
			if !tc.ok {
				wantInvalid(t, err, f)
			}
		}
	}
	t.Run("font sources may be relative", func(t *testing.T) {
		s := rich()
		s.Styling.Font.Custom.FontFaces[0].Sources[0].URL = "fonts/os.woff2"
		if err := Validate(s); err != nil {
			t.Fatal(err)
		}
		s.Styling.Font.Custom.FontFaces[0].Sources[0].URL = "javascript:alert(1)"
		wantInvalid(t, Validate(s), "styling.font.fontFaces[0].sources[0].url")
	})
}

func TestContentRefs(t *testing.T) {
	// Each reference is tried as header.primaryLink and as the target of an
	// announcement link, the two shapes (bare ref, ref in a link) the API uses.
	tests := []struct {
		name  string
		ref   any
		field string // relative to the reference; "-" means the reference itself; empty: valid
	}{
		{"file", map[string]any{"kind": "file", "file": "f1"}, ""},
		{"file in a space", map[string]any{"kind": "file", "file": "f1", "space": "s1"}, ""},
		{"url", map[string]any{"kind": "url", "url": "https://example.com"}, ""},
		{"mailto url", map[string]any{"kind": "url", "url": "mailto:a@example.com"}, ""},
		{"page", map[string]any{"kind": "page", "page": "p1"}, ""},
		{"page in a space", map[string]any{"kind": "page", "page": "p1", "space": "s1"}, ""},
		{"anchor", map[string]any{"kind": "anchor", "anchor": "a", "page": "p", "space": "s"}, ""},
		{"user", map[string]any{"kind": "user", "user": "u1"}, ""},
		{"collection", map[string]any{"kind": "collection", "collection": "c1"}, ""},
		{"space", map[string]any{"kind": "space", "space": "s1"}, ""},
		{"reusable content", map[string]any{"kind": "reusable-content", "reusableContent": "r1", "space": "s1"}, ""},
		{"openapi", map[string]any{"kind": "openapi", "spec": "petstore"}, ""},

		{"no kind", map[string]any{"url": "https://example.com"}, "kind"},
		{"unknown kind", map[string]any{"kind": "video", "video": "v"}, "kind"},
		{"kind not a string", map[string]any{"kind": 1}, "kind"},
		{"url without url", map[string]any{"kind": "url"}, "url"},
		{"page without page", map[string]any{"kind": "page", "space": "s1"}, "page"},
		{"space without space", map[string]any{"kind": "space", "page": "p1"}, "page"},
		{"space with empty id", map[string]any{"kind": "space", "space": ""}, "space"},
		{"openapi without spec", map[string]any{"kind": "openapi"}, "spec"},
		{"reusable content without id", map[string]any{"kind": "reusable-content", "space": "s"}, "reusableContent"},
		{"id of another kind", map[string]any{"kind": "page", "page": "p1", "url": "https://x.io"}, "url"},
		{"javascript url", map[string]any{"kind": "url", "url": "javascript:alert(1)"}, "url"},
		{"relative url", map[string]any{"kind": "url", "url": "/docs"}, "url"},
		{"id not a string", map[string]any{"kind": "user", "user": 7}, "user"},
		{"not an object", "https://example.com", "-"},
		{"null", nil, "-"},
	}
	for _, tc := range tests {
		for _, where := range []string{"header.primaryLink", "announcement.link.to"} {
			t.Run(tc.name+" as "+where, func(t *testing.T) {
				var body []byte
				if where == "header.primaryLink" {
					body = at(where, tc.ref)
				} else {
					body = at("announcement", map[string]any{"enabled": true, "message": "hi",
						"style": "info", "link": map[string]any{"title": "Go", "to": tc.ref}})
				}
				s, err := Decode(body)
				switch tc.field {
				case "":
					if err != nil {
						t.Fatalf("Decode(%s): %v", body, err)
					}
					if got := toMap(t, s); !reflect.DeepEqual(mustLookup(t, got, where), tc.ref) {
						t.Errorf("%s = %v, want %v", where, mustLookup(t, got, where), tc.ref)
					}
				case "-":
					if where == "header.primaryLink" && tc.ref == nil {
						// null on an optional key removes it.
						if err != nil || s.Header.PrimaryLink != nil {
							t.Fatalf("primaryLink null: %v, %+v", err, s.Header.PrimaryLink)
						}
						return
					}
					if where == "announcement.link.to" && tc.ref == nil {
						// null drops the key, which is required.
						wantInvalid(t, err, where)
						return
					}
					wantInvalid(t, err, where)
				default:
					wantInvalid(t, err, where+"."+tc.field)
				}
			})
		}
	}
	t.Run("header item to may be null", func(t *testing.T) {
		s, err := Decode([]byte(`{"header":{"links":[{"title":"Menu","to":null,"links":[]}]}}`))
		if err != nil || len(s.Header.Links) != 1 || s.Header.Links[0].To != nil {
			t.Fatalf("got %+v, %v", s.Header.Links, err)
		}
	})
	t.Run("header item to is required", func(t *testing.T) {
		_, err := Decode([]byte(`{"header":{"links":[{"title":"Menu","links":[]}]}}`))
		wantInvalid(t, err, "header.links[0].to")
	})
	t.Run("header item links are required", func(t *testing.T) {
		_, err := Decode([]byte(`{"header":{"links":[{"title":"Menu","to":null}]}}`))
		wantInvalid(t, err, "header.links[0].links")
	})
	t.Run("nested header link", func(t *testing.T) {
		_, err := Decode([]byte(`{"header":{"links":[{"title":"Menu","to":null,"links":[{"title":"x","to":{"kind":"page"}}]}]}}`))
		wantInvalid(t, err, "header.links[0].links[0].to.page")
	})
}
