package view

import (
	"regexp"
	"strings"
	"testing"

	"quire/internal/customization"
)

// varsIn returns the custom properties of the first rule whose selector
// starts with sel.
func varsIn(t *testing.T, css, sel string) map[string]string {
	t.Helper()
	i := strings.Index(css, sel+"{")
	if i < 0 {
		t.Fatalf("no rule %s in %s", sel, css)
	}
	body := css[i+len(sel)+1:]
	body = body[:strings.IndexByte(body, '}')]
	out := map[string]string{}
	for _, d := range strings.Split(body, ";") {
		if k, v, ok := strings.Cut(d, ":"); ok {
			out[k] = v
		}
	}
	return out
}

func TestThemeCSSMapsColors(t *testing.T) {
	s := customization.Defaults()
	s.Styling.PrimaryColor = customization.ThemedColor{Light: "#0A0", Dark: "#33cc66"}
	s.Styling.Tint = &customization.Tint{Color: customization.ThemedColor{Light: "#abcdef", Dark: "#123456"}}
	s.Styling.Corners = customization.CornersStraight
	s.Styling.Font = customization.Font{Name: "Merriweather"}
	s.Styling.MonospaceFont = customization.Font{Name: "JetBrainsMono"}
	css := string(ThemeCSS(&s))

	light := varsIn(t, css, ":root")
	dark := varsIn(t, css, ":root[data-theme=dark]")
	if light["--primary"] != "#00aa00" || dark["--primary"] != "#33cc66" {
		t.Errorf("primary light %q dark %q", light["--primary"], dark["--primary"])
	}
	if light["--tint"] != "#abcdef" || dark["--tint"] != "#123456" {
		t.Errorf("tint light %q dark %q", light["--tint"], dark["--tint"])
	}
	if light["--radius"] != "0" {
		t.Errorf("straight corners: radius %q", light["--radius"])
	}
	if !strings.HasPrefix(light["--font"], `"Merriweather",Georgia`) || !strings.HasPrefix(light["--font-mono"], `"JetBrains Mono",ui-monospace`) {
		t.Errorf("fonts %q / %q", light["--font"], light["--font-mono"])
	}
	if !strings.Contains(css, "@media (prefers-color-scheme:dark){:root:not([data-theme]){") {
		t.Error("no dark rule for sites that follow the system")
	}
	if strings.Contains(css, "url(") || strings.Contains(css, "@import") || strings.Contains(css, "@font-face") {
		t.Error("the theme loads something")
	}
}

func TestThemeCSSKeepsTextReadable(t *testing.T) {
	s := customization.Defaults()
	// A pale yellow is a fine accent but unreadable as link text on white.
	s.Styling.PrimaryColor = customization.ThemedColor{Light: "#ffee88", Dark: "#222200"}
	css := string(ThemeCSS(&s))
	for sel, bg := range map[string]rgb{":root": lightBG, ":root[data-theme=dark]": darkBG} {
		v := varsIn(t, css, sel)
		link, ok := parseColor(v["--link"])
		if !ok || contrast(link, bg) < 4.5 {
			t.Errorf("%s: link %q contrast %.2f", sel, v["--link"], contrast(link, bg))
		}
		p, _ := parseColor(v["--primary-fill"])
		on, _ := parseColor(v["--on-primary"])
		if contrast(p, on) < 4.5 {
			t.Errorf("%s: text on primary contrast %.2f", sel, contrast(p, on))
		}
	}
}

// A mid-tone primary reads with neither white nor black at 4.5:1: the
// surfaces that carry text on it get a deeper shade.
func TestThemeCSSMidTonePrimary(t *testing.T) {
	s := customization.Defaults()
	s.Styling.PrimaryColor = customization.ThemedColor{Light: "#808080", Dark: "#808080"}
	s.Styling.Theme = customization.ThemeGradient
	light := varsIn(t, string(ThemeCSS(&s)), ":root")
	fill, _ := parseColor(light["--primary-fill"])
	on, _ := parseColor(light["--on-primary"])
	hbg, _ := parseColor(light["--header-bg"])
	hfg, _ := parseColor(light["--header-fg"])
	if contrast(fill, on) < 4.5 || contrast(hbg, hfg) < 4.5 {
		t.Errorf("fill %s on %s: %.2f; header %s on %s: %.2f", fill, on, contrast(fill, on), hfg, hbg, contrast(hbg, hfg))
	}
}

func TestThemeCSSRefusesBadValues(t *testing.T) {
	s := customization.Defaults()
	s.Styling.PrimaryColor = customization.ThemedColor{Light: "red;}body{display:none", Dark: "url(https://evil.example/x)"}
	s.Styling.DangerColor = customization.ThemedColor{Light: "#12345", Dark: "#ggg"}
	bg := customization.ThemedColor{Light: "expression(alert(1))", Dark: "#000"}
	s.Header.BackgroundColor = &bg
	s.Styling.Font = customization.Font{Custom: &customization.FontDefinition{
		FontFamily: `Evil"}body{x:y} /*`,
		FontFaces:  []customization.FontFace{{Weight: 400, Sources: []customization.FontSource{{URL: "https://evil.example/f.woff2"}}}},
	}}
	css := string(ThemeCSS(&s))
	for _, bad := range []string{"red", "body{", "url(", "expression", "#12345;", "#ggg", "evil", `"}`} {
		if strings.Contains(css, bad) {
			t.Errorf("theme CSS contains %q:\n%s", bad, css)
		}
	}
	light := varsIn(t, css, ":root")
	if light["--primary"] != defPrimary.String() || light["--danger"] != defDanger.String() {
		t.Errorf("fallbacks: primary %q danger %q", light["--primary"], light["--danger"])
	}
	if !strings.HasPrefix(light["--font"], `"Evilbodyxy",system-ui`) {
		t.Errorf("custom font family not reduced: %q", light["--font"])
	}
	// Every value is a hex color, a number, a keyword or a font stack.
	value := regexp.MustCompile(`^(#[0-9a-f]{6}|[a-z-]+|[0-9.]+(rem|px)?|0 1px.*|linear-gradient\(90deg,#[0-9a-f]{6},#[0-9a-f]{6}\)|"[A-Za-z0-9 _-]+",.*|system-ui.*|ui-monospace.*)$`)
	for k, v := range light {
		if !value.MatchString(v) {
			t.Errorf("%s: unexpected value %q", k, v)
		}
	}
}

func TestThemeCSSOptions(t *testing.T) {
	s := customization.Defaults()
	s.Styling.Theme = customization.ThemeBold
	s.Styling.Sidebar.List = customization.SidebarListLine
	s.Styling.Depth = customization.DepthFlat
	css := string(ThemeCSS(&s))
	light := varsIn(t, css, ":root")
	if light["--header-bg"] != light["--primary-fill"] || light["--shadow"] != "none" {
		t.Errorf("bold header %q, flat shadow %q", light["--header-bg"], light["--shadow"])
	}
	if !strings.Contains(css, ".sidebar a[aria-current=page]{") {
		t.Error("line sidebar rule missing")
	}
	if got := string(ThemeCSS(nil)); got != string(ThemeCSS(ptr(customization.Defaults()))) {
		t.Error("nil settings differ from the defaults")
	}
}

func ptr[T any](v T) *T { return &v }

func TestThemeName(t *testing.T) {
	a := ThemeCSS(nil)
	s := customization.Defaults()
	s.Styling.PrimaryColor.Light = "#000000"
	b := ThemeCSS(&s)
	if ThemeName(a) == ThemeName(b) {
		t.Error("theme name does not change with the CSS")
	}
	if ThemeName(a) != ThemeName(ThemeCSS(nil)) {
		t.Error("theme name is not stable")
	}
	if !regexp.MustCompile(`^theme-[0-9a-f]{16}\.css$`).MatchString(ThemeName(a)) {
		t.Errorf("theme name %q", ThemeName(a))
	}
}
