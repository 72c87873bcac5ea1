package customization

import (
	"encoding/json"
	"reflect"
	"testing"

	"quire/internal/apierr"
)

func mustLookup(t *testing.T, doc map[string]any, path string) any {
	t.Helper()
	v, ok := lookup(doc, path)
	if !ok {
		t.Fatalf("no %s in %v", path, doc)
	}
	return v
}

func TestUnknownKeysAndTypes(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		field string
	}{
		{"top level", `{"colour":"red"}`, "colour"},
		{"hasOverrides is not a settings key", `{"hasOverrides":true}`, "hasOverrides"},
		{"styling", `{"styling":{"codeTheme":"dark"}}`, "styling.codeTheme"},
		{"sidebar", `{"styling":{"sidebar":{"width":3}}}`, "styling.sidebar.width"},
		{"themed color", `{"styling":{"primaryColor":{"light":"#000","dark":"#fff","dim":"#888"}}}`, "styling.primaryColor.dim"},
		{"favicon", `{"favicon":{"png":"x"}}`, "favicon.png"},
		{"favicon icon and emoji", `{"favicon":{"emoji":"🎉","icon":{"light":"https://x.io/a","dark":"https://x.io/b"}}}`, "favicon.emoji"},
		{"favicon emoji extra", `{"favicon":{"emoji":"🎉","size":2}}`, "favicon.size"},
		{"header item", `{"header":{"links":[{"title":"a","to":null,"links":[],"icon":"x"}]}}`, "header.links[0].icon"},
		{"pdf", `{"pdf":{"enabled":true,"pages":3}}`, "pdf.pages"},
		{"styling not an object", `{"styling":"clean"}`, "styling"},
		{"boolean as string", `{"pdf":{"enabled":"yes"}}`, "pdf.enabled"},
		{"boolean as number", `{"insights":{"trackingCookie":1}}`, "insights.trackingCookie"},
		{"array as object", `{"header":{"links":{}}}`, "header.links"},
		{"string as number", `{"title":12}`, "title"},
		{"suggestion not a string", `{"ai":{"suggestions":["abc",3]}}`, "ai.suggestions[1]"},
		{"fractional weight", `{"styling":{"font":{"id":"f","custom":true,"fontFamily":"F","fontFaces":[{"weight":400.5,"sources":[{"url":"/a"}]}]}}}`, "styling.font.fontFaces[0].weight"},
		{"font neither name nor object", `{"styling":{"font":["Inter"]}}`, "styling.font"},
		{"array body", `[]`, "body"},
		{"invalid JSON", `{"title":`, "body"},
		{"trailing data", `{} {}`, "body"},
		{"empty body", ``, "body"},
		{"null body", `null`, "body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.body))
			wantInvalid(t, err, tc.field)
		})
	}
}

func TestDeepMerge(t *testing.T) {
	t.Run("unspecified keys keep their defaults", func(t *testing.T) {
		s, err := Decode([]byte(`{"styling":{"theme":"bold","sidebar":{"list":"line"}},"pdf":{"enabled":false}}`))
		if err != nil {
			t.Fatal(err)
		}
		want := Defaults()
		want.Styling.Theme = ThemeBold
		want.Styling.Sidebar.List = SidebarListLine
		want.PDF.Enabled = false
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("got %+v\nwant %+v", s, want)
		}
	})
	t.Run("null restores the default", func(t *testing.T) {
		s, err := Decode([]byte(`{"styling":null,"themes":{"default":null,"toggeable":false},"title":null}`))
		if err != nil {
			t.Fatal(err)
		}
		want := Defaults()
		want.Themes.Toggeable = false
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("got %+v\nwant %+v", s, want)
		}
	})
	t.Run("merge patch keeps base values", func(t *testing.T) {
		base := rich()
		s, err := MergePatch(base, []byte(`{"styling":{"corners":"straight"},"announcement":{"enabled":false}}`))
		if err != nil {
			t.Fatal(err)
		}
		want := rich()
		want.Styling.Corners = CornersStraight
		want.Announcement.Enabled = false
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("got %+v\nwant %+v", s, want)
		}
	})
	t.Run("arrays are replaced", func(t *testing.T) {
		s, err := MergePatch(rich(), []byte(`{"header":{"links":[{"title":"Only","to":{"kind":"space","space":"s9"},"links":[]}]},"ai":{"suggestions":["Why?"]}}`))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Header.Links) != 1 || s.Header.Links[0].Title != "Only" {
			t.Errorf("header.links = %+v", s.Header.Links)
		}
		if !reflect.DeepEqual(s.AI.Suggestions, []string{"Why?"}) {
			t.Errorf("ai.suggestions = %v", s.AI.Suggestions)
		}
		if s.Header.Preset != HeaderPresetCustom || s.Header.Logo == nil {
			t.Errorf("header siblings lost: %+v", s.Header)
		}
	})
	t.Run("null in a merge patch resets or removes", func(t *testing.T) {
		s, err := MergePatch(rich(), []byte(`{"announcement":null,"header":{"logo":null,"links":null},"styling":{"font":null},"title":null}`))
		if err != nil {
			t.Fatal(err)
		}
		if s.Announcement != nil || s.Header.Logo != nil || s.Title != "" {
			t.Errorf("optional keys not removed: %+v %+v %q", s.Announcement, s.Header.Logo, s.Title)
		}
		if !reflect.DeepEqual(s.Header.Links, []HeaderItem{}) || s.Styling.Font != (Font{Name: "Inter"}) {
			t.Errorf("defaults not restored: %+v %+v", s.Header.Links, s.Styling.Font)
		}
	})
	t.Run("unions are replaced whole", func(t *testing.T) {
		base := Defaults()
		base.Favicon = Favicon{Emoji: "🎉"}
		s, err := MergePatch(base, []byte(`{"favicon":{"icon":{"light":"https://x.io/l.png","dark":"https://x.io/d.png"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if s.Favicon.Emoji != "" || s.Favicon.Icon == nil {
			t.Errorf("favicon = %+v", s.Favicon)
		}
		s, err = MergePatch(rich(), []byte(`{"header":{"primaryLink":{"kind":"page","page":"p2"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if want := (ContentRef{Kind: RefPage, Page: "p2"}); *s.Header.PrimaryLink != want {
			t.Errorf("primaryLink = %+v, want %+v", *s.Header.PrimaryLink, want)
		}
	})
	t.Run("base is not modified", func(t *testing.T) {
		base := rich()
		if _, err := MergePatch(base, []byte(`{"header":{"links":[]},"styling":{"tint":{"color":{"light":"#000"}}}}`)); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(base, rich()) {
			t.Fatal("MergePatch modified its base")
		}
	})
	t.Run("errors name the patched field", func(t *testing.T) {
		_, err := MergePatch(rich(), []byte(`{"footer":{"groups":[{"title":"x"}]}}`))
		wantInvalid(t, err, "footer.groups[0].links")
	})
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Settings)
		field string
	}{
		{"zero settings", func(s *Settings) { *s = Settings{} }, "styling.theme"},
		{"empty theme", func(s *Settings) { s.Styling.Theme = "" }, "styling.theme"},
		{"bad tint", func(s *Settings) { s.Styling.Tint = &Tint{} }, "styling.tint.color.light"},
		{"both favicons", func(s *Settings) {
			s.Favicon = Favicon{Emoji: "x", Icon: &ThemedURL{Light: "https://x.io", Dark: "https://x.io"}}
		}, "favicon.emoji"},
		{"ref without kind", func(s *Settings) { s.Header.PrimaryLink = &ContentRef{URL: "https://x.io"} }, "header.primaryLink.kind"},
		{"footer group", func(s *Settings) { s.Footer.Groups = []FooterGroup{{Title: "G", Links: []ContentLink{{Title: "t"}}}} }, "footer.groups[0].links[0].to.kind"},
		{"locale", func(s *Settings) { s.Internationalization.Locale = "EN" }, "internationalization.locale"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := rich()
			tc.edit(&s)
			wantInvalid(t, Validate(s), tc.field)
		})
	}
	t.Run("nil arrays marshal as empty", func(t *testing.T) {
		s := Defaults()
		s.Header.Links, s.Footer.Groups = nil, nil
		if err := Validate(s); err != nil {
			t.Fatal(err)
		}
		s.Header.Links = []HeaderItem{{Title: "x"}}
		s.Footer.Groups = []FooterGroup{{Title: "y"}}
		if err := Validate(s); err != nil {
			t.Fatal(err)
		}
	})
}

func TestEffective(t *testing.T) {
	site := rich()
	theme, corners := ThemeBold, CornersCircular
	list := SidebarListPill
	title := "Space title"
	off := false
	locale := LocaleFR
	blank := LinkTargetBlank
	copyright := "© Space"
	groups := []FooterGroup{}
	links := []HeaderItem{{Title: "Back", To: &ContentRef{Kind: RefURL, URL: "https://example.com"}, Links: []ContentLink{}}}
	override := &SpaceSettings{
		Title: &title,
		Styling: &SpaceStyling{
			Theme:        &theme,
			Corners:      &corners,
			PrimaryColor: &ThemedColor{Light: "#111", Dark: "#222"},
			Sidebar:      &SpaceSidebar{List: &list},
		},
		Internationalization: &SpaceInternationalization{Locale: &locale},
		Favicon:              &Favicon{Emoji: "📘"},
		Header:               &SpaceHeader{Links: &links},
		Footer:               &SpaceFooter{Groups: &groups, Copyright: &copyright},
		PDF:                  &SpaceToggle{Enabled: &off},
		ExternalLinks:        &SpaceExternalLinks{Target: &blank},
	}
	if err := ValidateSpace(*override); err != nil {
		t.Fatalf("ValidateSpace: %v", err)
	}
	got := Effective(site, override)

	want := rich()
	want.Title = title
	want.Styling.Theme = theme
	want.Styling.Corners = corners
	want.Styling.PrimaryColor = ThemedColor{Light: "#111", Dark: "#222"}
	want.Styling.Sidebar.List = list
	want.Internationalization.Locale = locale
	want.Favicon = Favicon{Emoji: "📘"}
	want.Header.Links = links
	want.Footer.Groups = []FooterGroup{}
	want.Footer.Copyright = copyright
	want.PDF.Enabled = false
	want.ExternalLinks.Target = blank
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Effective:\n got %+v\nwant %+v", got, want)
	}
	if err := Validate(got); err != nil {
		t.Fatalf("Validate(Effective) = %v", err)
	}
	if !reflect.DeepEqual(site, rich()) {
		t.Fatal("Effective modified the site settings")
	}
	links[0].To.URL = "https://changed.example.com"
	if got.Header.Links[0].To.URL != "https://example.com" {
		t.Fatal("Effective result shares memory with the override")
	}

	if got := Effective(site, nil); !reflect.DeepEqual(got, site) {
		t.Fatal("Effective(site, nil) != site")
	}
	if got := Effective(site, &SpaceSettings{}); !reflect.DeepEqual(got, site) {
		t.Fatal("Effective(site, empty) != site")
	}
}

func TestPatchSpace(t *testing.T) {
	s, err := DecodeSpace([]byte(`{"title":"Beta","styling":{"theme":"bold","sidebar":{"list":"line"}},"pdf":{"enabled":false},"header":{"links":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !s.HasOverrides() || *s.Title != "Beta" || *s.Styling.Theme != ThemeBold || *s.PDF.Enabled || len(*s.Header.Links) != 0 {
		t.Fatalf("decoded %+v", s)
	}
	eff := Effective(rich(), &s)
	if eff.Title != "Beta" || eff.Styling.Theme != ThemeBold || eff.Styling.Sidebar.List != SidebarListLine ||
		eff.PDF.Enabled || len(eff.Header.Links) != 0 || eff.Styling.Corners != rich().Styling.Corners {
		t.Fatalf("effective %+v", eff)
	}

	// An absent key keeps its override, null resets it.
	s, err = PatchSpace(s, []byte(`{"styling":{"theme":null,"corners":"straight"},"title":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != nil || s.Styling.Theme != nil || *s.Styling.Corners != CornersStraight || *s.Styling.Sidebar.List != SidebarListLine || s.PDF == nil {
		t.Fatalf("after patch %+v", s)
	}

	// Resetting everything leaves no override at all.
	s, err = PatchSpace(s, []byte(`{"styling":{"corners":null,"sidebar":{"list":null}},"pdf":{"enabled":null},"header":{"links":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.HasOverrides() || !reflect.DeepEqual(s, SpaceSettings{}) {
		t.Fatalf("after reset %+v", s)
	}

	errs := []struct {
		body  string
		field string
	}{
		{`{"styling":{"font":"Inter"}}`, "styling.font"},
		{`{"ai":{"mode":"none"}}`, "ai"},
		{`{"styling":{"theme":"neon"}}`, "styling.theme"},
		{`{"styling":{"primaryColor":{"light":"#12"}}}`, "styling.primaryColor.light"},
		{`{"styling":{"primaryColor":{"light":"#123"}}}`, "styling.primaryColor.dark"},
		{`{"favicon":{"emoji":"x","icon":{"light":"https://a.io","dark":"https://a.io"}}}`, "favicon.emoji"},
		{`{"announcement":{"enabled":true}}`, "announcement.message"},
		{`{"header":{"primaryLink":{"kind":"url"}}}`, "header.primaryLink.url"},
		{`{"footer":{"copyright":7}}`, "footer.copyright"},
		{`{"privacyPolicy":{"url":"nope"}}`, "privacyPolicy.url"},
		{`{"themes":{"toggeable":"yes"}}`, "themes.toggeable"},
		{`{"title":"x"}`, "title"},
		{`"x"`, "body"},
	}
	for _, tc := range errs {
		_, err := DecodeSpace([]byte(tc.body))
		wantInvalid(t, err, tc.field)
	}

	t.Run("every override key round-trips", func(t *testing.T) {
		all := []byte(`{"title":"All","styling":{"theme":"muted","primaryColor":{"light":"#000","dark":"#fff"},
			"tint":{"color":{"light":"#000","dark":"#fff"}},"infoColor":{"light":"#000","dark":"#fff"},
			"successColor":{"light":"#000","dark":"#fff"},"warningColor":{"light":"#000","dark":"#fff"},
			"dangerColor":{"light":"#000","dark":"#fff"},"corners":"straight","depth":"flat","links":"accent",
			"icons":"thin","sidebar":{"background":"filled","list":"pill"},"search":"subtle","background":"match"},
			"internationalization":{"locale":"ja"},"favicon":{},
			"announcement":{"enabled":true,"message":"hey","style":"warning"},
			"header":{"preset":"bold","logo":{"light":"https://a.io/l","dark":"https://a.io/d"},
			"backgroundColor":{"light":"#000","dark":"#fff"},"linkColor":{"light":"#000","dark":"#fff"},
			"primaryLink":{"kind":"space","space":"s"},"links":[]},
			"footer":{"logo":{"light":"https://a.io/l","dark":"https://a.io/d"},"groups":[],"copyright":"c"},
			"themes":{"default":"dark","toggeable":false},"pdf":{"enabled":true},"feedback":{"enabled":true},
			"git":{"showEditLink":true},"externalLinks":{"target":"blank"},"pagination":{"enabled":false},
			"trademark":{"enabled":false},"privacyPolicy":{"url":"https://a.io/p"},"socialPreview":{"url":"https://a.io/s"}}`)
		s, err := DecodeSpace(all)
		if err != nil {
			t.Fatal(err)
		}
		var in, out any
		if err := json.Unmarshal(all, &in); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(s)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("override lost keys:\n in %v\nout %v", in, out)
		}
		if err := ValidateSpace(s); err != nil {
			t.Fatal(err)
		}
		if err := Validate(Effective(Defaults(), &s)); err != nil {
			t.Fatalf("Validate(Effective) = %v", err)
		}
	})
}

func FuzzDecode(f *testing.F) {
	seed, _ := Marshal(rich())
	f.Add(seed)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"styling":{"font":{"id":"f","custom":true,"fontFamily":"F","fontFaces":[{"weight":400,"sources":[{"url":"/a"}]}]}}}`))
	f.Add([]byte(`{"header":{"links":[{"title":"a","to":null,"links":[{"title":"b","to":{"kind":"url","url":"https://x.io"}}]}]}}`))
	f.Add([]byte(`{"favicon":{"emoji":"x"},"ai":{"suggestions":[]},"title":null}`))
	f.Add([]byte(`{"styling":{"sidebar":{}},"pdf":{"enabled":null}}`))
	f.Add([]byte(`[1,{"a":null}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := Decode(raw)
		if err == nil {
			if err := Validate(s); err != nil {
				t.Fatalf("Decode accepted %q but Validate says %v", raw, err)
			}
			b, err := Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Decode(b)
			if err != nil || !reflect.DeepEqual(again, s) {
				t.Fatalf("round trip of %q failed: %v", raw, err)
			}
		} else if _, ok := apierr.As(err); !ok {
			t.Fatalf("Decode(%q) returned a non-domain error %v", raw, err)
		}
		if _, err := MergePatch(rich(), raw); err != nil {
			if _, ok := apierr.As(err); !ok {
				t.Fatalf("MergePatch(%q) returned a non-domain error %v", raw, err)
			}
		}
		o, err := DecodeSpace(raw)
		if err == nil {
			if err := ValidateSpace(o); err != nil {
				t.Fatalf("DecodeSpace accepted %q but ValidateSpace says %v", raw, err)
			}
			if err := Validate(Effective(Defaults(), &o)); err != nil {
				t.Fatalf("Effective of accepted override %q is invalid: %v", raw, err)
			}
		}
	})
}
