package view

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"quire/internal/customization"
)

// The page and text colors of each mode. They are fixed, not customizable,
// so that body text always passes WCAG AA; customization colors the accents
// and the chrome, and every derived text color is checked against these.
var (
	lightBG, lightFG = rgb{255, 255, 255}, rgb{27, 31, 36}
	darkBG, darkFG   = rgb{16, 19, 24}, rgb{230, 232, 235}
)

// Fallbacks when a stored color is not a hex color: customization's own
// defaults.
var (
	defPrimary = rgb{0x34, 0x6d, 0xdb}
	defInfo    = rgb{0x78, 0x78, 0x78}
	defSuccess = rgb{0x00, 0xc9, 0x50}
	defWarning = rgb{0xfe, 0x9a, 0x00}
	defDanger  = rgb{0xfb, 0x2c, 0x36}
)

const (
	sansStack  = `system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif`
	serifStack = `Georgia,Cambria,"Times New Roman",Times,serif`
	monoStack  = `ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace`
)

// fontFamilies maps the built-in font ids customization accepts
// (customization.DefaultFonts, DefaultMonospaceFonts) to the family the
// font installs as and the system stack that stands in for it. The site
// never downloads fonts (the CSP allows none from elsewhere, and a remote
// font costs readers a round trip): a reader who has the font installed
// sees it, everyone else the system font of the same kind.
var fontFamilies = map[string][2]string{
	"ABCFavorit":    {"ABC Favorit", sansStack},
	"Inter":         {"Inter", sansStack},
	"Roboto":        {"Roboto", sansStack},
	"RobotoSlab":    {"Roboto Slab", serifStack},
	"OpenSans":      {"Open Sans", sansStack},
	"SourceSansPro": {"Source Sans Pro", sansStack},
	"Lato":          {"Lato", sansStack},
	"Ubuntu":        {"Ubuntu", sansStack},
	"Raleway":       {"Raleway", sansStack},
	"Merriweather":  {"Merriweather", serifStack},
	"Overpass":      {"Overpass", sansStack},
	"NotoSans":      {"Noto Sans", sansStack},
	"IBMPlexSerif":  {"IBM Plex Serif", serifStack},
	"Poppins":       {"Poppins", sansStack},
	"FiraSans":      {"Fira Sans", sansStack},
	"FiraCode":      {"Fira Code", monoStack},
	"IBMPlexMono":   {"IBM Plex Mono", monoStack},
	"JetBrainsMono": {"JetBrains Mono", monoStack},
	"SourceCodePro": {"Source Code Pro", monoStack},
	"RobotoMono":    {"Roboto Mono", monoStack},
	"SpaceMono":     {"Space Mono", monoStack},
	"DMMono":        {"DM Mono", monoStack},
	"Inconsolata":   {"Inconsolata", monoStack},
}

// fontStack is the CSS font-family value for a font setting. A custom font
// contributes only its family name, reduced to letters, digits, spaces and
// dashes, since its font files are remote; stack is used when nothing
// matches.
func fontStack(f customization.Font, stack string) string {
	family := ""
	if f.Custom != nil {
		family = safeFamily(f.Custom.FontFamily)
	} else if ff, ok := fontFamilies[f.Name]; ok {
		family, stack = ff[0], ff[1]
	}
	if family == "" {
		return stack
	}
	return `"` + family + `",` + stack
}

// safeFamily keeps what a font family name needs and drops anything that
// could close the CSS string or declaration.
func safeFamily(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ' ' || r == '-' || r == '_' {
			b.WriteRune(r)
		}
		if b.Len() >= 50 {
			break
		}
	}
	return strings.TrimSpace(b.String())
}

// mode is one color mode's inputs.
type mode struct {
	bg, fg                                  rgb
	primary, tint, info, success, warn, bad rgb
	headerBG, headerFG                      *rgb // legacy header colors, when set
}

// ThemeCSS is the stylesheet that applies a site's customization: CSS
// custom properties for the light and the dark mode, which reader.css
// reads, plus the few rules a variable cannot express. It contains nothing
// but hex colors this function formats, fixed keywords and sanitized font
// family names, so settings cannot inject CSS. The dark values apply under
// data-theme="dark" on <html>, and under prefers-color-scheme: dark when
// <html> carries no data-theme (the site follows the system). A nil s
// yields the default look.
func ThemeCSS(s *customization.Settings) []byte {
	if s == nil {
		d := customization.Defaults()
		s = &d
	}
	st := s.Styling
	pick := func(c customization.ThemedColor, def rgb) (rgb, rgb) {
		return colorOr(c.Light, def), colorOr(c.Dark, colorOr(c.Light, def))
	}
	var l, d mode
	l.bg, l.fg, d.bg, d.fg = lightBG, lightFG, darkBG, darkFG
	l.primary, d.primary = pick(st.PrimaryColor, defPrimary)
	l.tint, d.tint = l.primary, d.primary
	if st.Tint != nil {
		l.tint, d.tint = pick(st.Tint.Color, l.primary)
	}
	l.info, d.info = pick(st.InfoColor, defInfo)
	l.success, d.success = pick(st.SuccessColor, defSuccess)
	l.warn, d.warn = pick(st.WarningColor, defWarning)
	l.bad, d.bad = pick(st.DangerColor, defDanger)
	if c := s.Header.BackgroundColor; c != nil {
		lb, db := pick(*c, l.primary)
		l.headerBG, d.headerBG = &lb, &db
		if c := s.Header.LinkColor; c != nil {
			lf, df := pick(*c, onColor(lb))
			l.headerFG, d.headerFG = &lf, &df
		}
	}

	var b strings.Builder
	b.Grow(2048)
	b.WriteString(":root{color-scheme:light;")
	writeCommon(&b, s)
	writeMode(&b, &l, st)
	b.WriteString("}\n:root[data-theme=dark]{color-scheme:dark;")
	writeMode(&b, &d, st)
	b.WriteString("}\n@media (prefers-color-scheme:dark){:root:not([data-theme]){color-scheme:dark;")
	writeMode(&b, &d, st)
	b.WriteString("}}\n")
	writeRules(&b, st)
	return []byte(b.String())
}

// writeCommon writes the properties both modes share.
func writeCommon(b *strings.Builder, s *customization.Settings) {
	st := s.Styling
	radius, pill := ".5rem", ".5rem"
	switch st.Corners {
	case customization.CornersStraight:
		radius, pill = "0", "0"
	case customization.CornersCircular:
		radius, pill = "1rem", "999px"
	}
	shadow := "0 1px 3px rgba(0,0,0,.12),0 1px 2px rgba(0,0,0,.08)"
	if st.Depth == customization.DepthFlat {
		shadow = "none"
	}
	prop(b, "--radius", radius)
	prop(b, "--radius-pill", pill)
	prop(b, "--shadow", shadow)
	prop(b, "--font", fontStack(st.Font, sansStack))
	prop(b, "--font-mono", fontStack(st.MonospaceFont, monoStack))
}

// writeMode writes one mode's colors. Every color that carries text is
// made readable against what it sits on.
func writeMode(b *strings.Builder, m *mode, st customization.Styling) {
	link := readable(m.primary, m.bg, 4.5)
	// Surfaces that carry text on the primary color (buttons, step
	// numbers, a bold header) use a shade of it that reaches AA with its
	// text color: a mid-tone primary reaches 4.5:1 with neither white nor
	// black.
	on := onColor(m.primary)
	fill := readable(m.primary, on, 4.5)
	prop(b, "--primary", m.primary.String())
	prop(b, "--primary-fill", fill.String())
	prop(b, "--on-primary", on.String())
	prop(b, "--link", link.String())
	// Accent links draw in the text color with a primary underline; default
	// links in the (readable) primary color. Both stay underlined, so links
	// never differ by color alone.
	if st.Links == customization.LinksAccent {
		prop(b, "--link-text", m.fg.String())
	} else {
		prop(b, "--link-text", link.String())
	}
	tintBG := mix(m.bg, m.tint, 0.07)
	prop(b, "--tint", m.tint.String())
	prop(b, "--tint-bg", tintBG.String())
	prop(b, "--current-bg", mix(m.bg, m.primary, 0.12).String())
	prop(b, "--current-fg", readable(m.primary, mix(m.bg, m.primary, 0.12), 4.5).String())
	if st.Sidebar.Background == customization.SidebarBackgroundFilled {
		prop(b, "--sidebar-bg", tintBG.String())
	} else {
		prop(b, "--sidebar-bg", m.bg.String())
	}
	if st.Background == customization.BackgroundMatch {
		prop(b, "--bg", tintBG.String())
	}

	hbg, hfg := m.bg, m.fg
	switch st.Theme {
	case customization.ThemeMuted:
		hbg = tintBG
	case customization.ThemeBold, customization.ThemeGradient:
		hbg, hfg = fill, on
	}
	if m.headerBG != nil {
		hbg, hfg = *m.headerBG, onColor(*m.headerBG)
		if m.headerFG != nil {
			hfg = readable(*m.headerFG, hbg, 4.5)
		}
	}
	prop(b, "--header-bg", hbg.String())
	prop(b, "--header-fg", hfg.String())
	if st.Theme == customization.ThemeGradient && m.headerBG == nil {
		// The far end stays close enough to the primary that the same
		// header text color reads on both.
		end := mix(fill, m.tint, 0.5)
		if contrast(hfg, end) < 4.5 {
			end = fill
		}
		prop(b, "--header-img", "linear-gradient(90deg,"+fill.String()+","+end.String()+")")
	} else {
		prop(b, "--header-img", "none")
	}

	for _, h := range [...]struct {
		name string
		c    rgb
	}{{"info", m.info}, {"success", m.success}, {"warning", m.warn}, {"danger", m.bad}} {
		bg := mix(m.bg, h.c, 0.1)
		prop(b, "--"+h.name, h.c.String())
		prop(b, "--"+h.name+"-bg", bg.String())
		prop(b, "--"+h.name+"-fg", readable(h.c, bg, 4.5).String())
	}
}

// writeRules writes what variables cannot switch: the sidebar's marker of
// the current page.
func writeRules(b *strings.Builder, st customization.Styling) {
	switch st.Sidebar.List {
	case customization.SidebarListPill:
		b.WriteString(".sidebar a[aria-current=page]{border-radius:var(--radius-pill)}\n")
	case customization.SidebarListLine:
		b.WriteString(".sidebar a[aria-current=page]{background:none;border-radius:0;border-left:3px solid var(--link)}\n")
	}
}

func prop(b *strings.Builder, name, value string) {
	b.WriteString(name)
	b.WriteByte(':')
	b.WriteString(value)
	b.WriteByte(';')
}

// ThemeName is the file name the door serves css under: a content hash, so
// that it can be cached as immutable and a changed theme gets a new URL.
func ThemeName(css []byte) string {
	sum := sha256.Sum256(css)
	return "theme-" + hex.EncodeToString(sum[:8]) + ".css"
}

// ThemeHandler serves css (a ThemeCSS output) as an immutable stylesheet;
// the door mounts it at AssetBase + ThemeName(css).
func ThemeHandler(css []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveAsset(w, r, asset{body: css, ctype: "text/css; charset=utf-8"})
	})
}
