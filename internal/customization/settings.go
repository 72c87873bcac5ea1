package customization

import (
	"encoding/json"
)

// Settings is the full customization of a docs site.
type Settings struct {
	// Title replaces the content title on the published site; empty means
	// "use the content title".
	Title                 string               `json:"title,omitempty"`
	Styling               Styling              `json:"styling"`
	Internationalization  Internationalization `json:"internationalization"`
	Favicon               Favicon              `json:"favicon"`
	Header                Header               `json:"header"`
	Footer                Footer               `json:"footer"`
	Announcement          *Announcement        `json:"announcement,omitempty"`
	Themes                Themes               `json:"themes"`
	PDF                   Toggle               `json:"pdf"`
	Feedback              Toggle               `json:"feedback"`
	AI                    AI                   `json:"ai"`
	AdvancedCustomization Toggle               `json:"advancedCustomization"`
	Git                   Git                  `json:"git"`
	PageActions           PageActions          `json:"pageActions"`
	ExternalLinks         ExternalLinks        `json:"externalLinks"`
	Pagination            Toggle               `json:"pagination"`
	Trademark             Toggle               `json:"trademark"`
	PrivacyPolicy         OptionalURL          `json:"privacyPolicy"`
	SocialPreview         OptionalURL          `json:"socialPreview"`
	Insights              Insights             `json:"insights"`
}

// Styling is the visual style of the site.
type Styling struct {
	Theme        Theme       `json:"theme"`
	PrimaryColor ThemedColor `json:"primaryColor"`
	// Tint colors the chrome (header, sidebar, background); nil means the
	// primary color is used.
	Tint          *Tint       `json:"tint,omitempty"`
	InfoColor     ThemedColor `json:"infoColor"`
	SuccessColor  ThemedColor `json:"successColor"`
	WarningColor  ThemedColor `json:"warningColor"`
	DangerColor   ThemedColor `json:"dangerColor"`
	Corners       Corners     `json:"corners"`
	Depth         Depth       `json:"depth"`
	Links         LinksStyle  `json:"links"`
	Font          Font        `json:"font"`
	MonospaceFont Font        `json:"monospaceFont"`
	Background    Background  `json:"background"`
	Icons         IconsStyle  `json:"icons"`
	Sidebar       Sidebar     `json:"sidebar"`
	Search        SearchStyle `json:"search"`
}

// ThemedColor is a color per color mode, each "#rgb" or "#rrggbb".
type ThemedColor struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

// Tint is the color of the site chrome.
type Tint struct {
	Color ThemedColor `json:"color"`
}

// Sidebar is the style of the navigation sidebar.
type Sidebar struct {
	Background SidebarBackground `json:"background"`
	List       SidebarList       `json:"list"`
}

// Font is either a built-in font, by name, or a custom font definition.
// In JSON it is a string or an object.
type Font struct {
	// Name is the built-in font; used when Custom is nil.
	Name   string
	Custom *FontDefinition
}

// MarshalJSON writes the font as its name or its definition object.
func (f Font) MarshalJSON() ([]byte, error) {
	if f.Custom != nil {
		return json.Marshal(f.Custom)
	}
	return json.Marshal(f.Name)
}

// UnmarshalJSON reads a font name or a font definition object.
func (f *Font) UnmarshalJSON(b []byte) error {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	if len(b) > 0 && b[0] == '{' {
		var d FontDefinition
		if err := json.Unmarshal(b, &d); err != nil {
			return err
		}
		*f = Font{Custom: &d}
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	*f = Font{Name: name}
	return nil
}

// FontDefinition is a custom font family and its @font-face declarations.
type FontDefinition struct {
	ID         string     `json:"id"`
	Custom     bool       `json:"custom"`
	FontFamily string     `json:"fontFamily"`
	FontFaces  []FontFace `json:"fontFaces"`
}

// FontFace is one weight of a custom font.
type FontFace struct {
	Weight  int          `json:"weight"`
	Sources []FontSource `json:"sources"`
}

// FontSource is one file of a font face.
type FontSource struct {
	URL    string `json:"url"`
	Format string `json:"format,omitempty"`
}

// Internationalization is the legacy UI language setting.
type Internationalization struct {
	Locale Locale `json:"locale"`
}

// Favicon is the site icon: an image per color mode, an emoji, or neither
// (the zero value, "{}" in JSON). At most one of Icon and Emoji is set.
type Favicon struct {
	Icon  *ThemedURL `json:"icon,omitempty"`
	Emoji string     `json:"emoji,omitempty"`
}

// ThemedURL is an image URL per color mode.
type ThemedURL struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

// Header is the top bar of the site.
type Header struct {
	Preset HeaderPreset `json:"preset"`
	Logo   *ThemedURL   `json:"logo,omitempty"`
	// BackgroundColor and LinkColor are legacy; Styling replaced them.
	BackgroundColor *ThemedColor `json:"backgroundColor,omitempty"`
	LinkColor       *ThemedColor `json:"linkColor,omitempty"`
	// PrimaryLink is the call-to-action target of the header.
	PrimaryLink *ContentRef  `json:"primaryLink,omitempty"`
	Links       []HeaderItem `json:"links"`
}

// MarshalJSON writes a nil Links as [], since the key is required.
func (h Header) MarshalJSON() ([]byte, error) {
	type plain Header
	p := plain(h)
	if p.Links == nil {
		p.Links = []HeaderItem{}
	}
	return json.Marshal(p)
}

// HeaderItem is a link of the header, possibly with a drop-down of links.
type HeaderItem struct {
	Title string          `json:"title"`
	Style HeaderItemStyle `json:"style,omitempty"`
	// To is where the item leads; nil (JSON null) for a drop-down only.
	To    *ContentRef   `json:"to"`
	Links []ContentLink `json:"links"`
	// Condition is an expression over visitor claims that decides whether
	// the item is shown; empty means always.
	Condition string `json:"condition,omitempty"`
}

// MarshalJSON writes a nil Links as [], since the key is required.
func (h HeaderItem) MarshalJSON() ([]byte, error) {
	type plain HeaderItem
	p := plain(h)
	if p.Links == nil {
		p.Links = []ContentLink{}
	}
	return json.Marshal(p)
}

// ContentLink is a titled link to content or to a URL.
type ContentLink struct {
	Title string     `json:"title"`
	To    ContentRef `json:"to"`
}

// ContentRef points at content: Kind says which of the id fields is used.
// File, Page, Anchor and ReusableContent refs may also name the Space the
// target lives in; an Anchor ref may name its Page.
type ContentRef struct {
	Kind            ContentRefKind `json:"kind"`
	File            string         `json:"file,omitempty"`
	URL             string         `json:"url,omitempty"`
	Page            string         `json:"page,omitempty"`
	Anchor          string         `json:"anchor,omitempty"`
	Space           string         `json:"space,omitempty"`
	User            string         `json:"user,omitempty"`
	Collection      string         `json:"collection,omitempty"`
	ReusableContent string         `json:"reusableContent,omitempty"`
	Spec            string         `json:"spec,omitempty"`
}

// Footer is the bottom of the site.
type Footer struct {
	Logo      *ThemedURL    `json:"logo,omitempty"`
	Groups    []FooterGroup `json:"groups"`
	Copyright string        `json:"copyright,omitempty"`
}

// MarshalJSON writes a nil Groups as [], since the key is required.
func (f Footer) MarshalJSON() ([]byte, error) {
	type plain Footer
	p := plain(f)
	if p.Groups == nil {
		p.Groups = []FooterGroup{}
	}
	return json.Marshal(p)
}

// FooterGroup is a titled column of footer links.
type FooterGroup struct {
	Title string        `json:"title"`
	Links []ContentLink `json:"links"`
}

// MarshalJSON writes a nil Links as [], since the key is required.
func (g FooterGroup) MarshalJSON() ([]byte, error) {
	type plain FooterGroup
	p := plain(g)
	if p.Links == nil {
		p.Links = []ContentLink{}
	}
	return json.Marshal(p)
}

// Announcement is the banner shown above every page.
type Announcement struct {
	Enabled bool              `json:"enabled"`
	Message string            `json:"message"`
	Link    *ContentLink      `json:"link,omitempty"`
	Style   AnnouncementStyle `json:"style"`
}

// Themes is the light/dark mode behavior.
type Themes struct {
	Default ThemeMode `json:"default"`
	// Toggeable (sic, the API's spelling) lets readers switch modes.
	Toggeable bool `json:"toggeable"`
}

// Toggle is a feature that is on or off.
type Toggle struct {
	Enabled bool `json:"enabled"`
}

// AI is the AI feature of the site.
type AI struct {
	Mode AIMode `json:"mode"`
	// Suggestions are example questions offered to readers.
	Suggestions []string `json:"suggestions,omitempty"`
}

// Git is the Git Sync related behavior of the site.
type Git struct {
	ShowEditLink bool `json:"showEditLink"`
}

// PageActions are the entries of the page menu.
type PageActions struct {
	ExternalAI bool `json:"externalAI"`
	Markdown   bool `json:"markdown"`
	MCP        bool `json:"mcp"`
}

// ExternalLinks is how links leaving the site open.
type ExternalLinks struct {
	Target LinkTarget `json:"target"`
}

// OptionalURL is a settings group holding one optional URL.
type OptionalURL struct {
	URL string `json:"url,omitempty"`
}

// Insights is visitor analytics behavior.
type Insights struct {
	TrackingCookie bool `json:"trackingCookie"`
}

// Defaults returns the settings of a site nobody has customized. Each call
// returns a fresh value that the caller may modify.
func Defaults() Settings {
	color := func(c string) ThemedColor { return ThemedColor{Light: c, Dark: c} }
	return Settings{
		Styling: Styling{
			Theme:         ThemeClean,
			PrimaryColor:  color("#346DDB"),
			InfoColor:     color("#787878"),
			SuccessColor:  color("#00C950"),
			WarningColor:  color("#FE9A00"),
			DangerColor:   color("#FB2C36"),
			Corners:       CornersRounded,
			Depth:         DepthSubtle,
			Links:         LinksDefault,
			Font:          Font{Name: "Inter"},
			MonospaceFont: Font{Name: "IBMPlexMono"},
			Background:    BackgroundPlain,
			Icons:         IconsRegular,
			Sidebar:       Sidebar{Background: SidebarBackgroundDefault, List: SidebarListDefault},
			Search:        SearchProminent,
		},
		Internationalization:  Internationalization{Locale: LocaleEN},
		Favicon:               Favicon{},
		Header:                Header{Preset: HeaderPresetDefault, Links: []HeaderItem{}},
		Footer:                Footer{Groups: []FooterGroup{}},
		Themes:                Themes{Default: ThemeModeLight, Toggeable: true},
		PDF:                   Toggle{Enabled: true},
		Feedback:              Toggle{Enabled: false},
		AI:                    AI{Mode: AIModeSearch},
		AdvancedCustomization: Toggle{Enabled: true},
		Git:                   Git{ShowEditLink: false},
		PageActions:           PageActions{ExternalAI: true, Markdown: true, MCP: true},
		ExternalLinks:         ExternalLinks{Target: LinkTargetSelf},
		Pagination:            Toggle{Enabled: true},
		Trademark:             Toggle{Enabled: true},
		PrivacyPolicy:         OptionalURL{},
		SocialPreview:         OptionalURL{},
		Insights:              Insights{TrackingCookie: true},
	}
}
