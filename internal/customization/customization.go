// Package customization holds the look-and-feel settings of a docs site and
// the per-site-space overrides of those settings, in the JSON shape of the
// public API (GET/PUT /orgs/{org}/sites/{site}/customization and
// GET/PATCH/DELETE .../site-spaces/{siteSpace}/customization).
//
// # Shapes
//
// [Settings] is the complete settings object of a site: every key the API
// marks as required is a non-pointer field and is always present in its
// JSON. [SpaceSettings] is what a site space overrides: every key is
// optional, and an absent key means "show the site's value". [Effective]
// lays an override over the site settings, which is what a published site
// space shows and what the site-space GET returns.
//
// # Decoding
//
// Request bodies are never unmarshaled straight into the structs. They are
// parsed into a generic JSON tree, merged, checked against the rules of
// this package (schema.go, rules.go) and only then turned into structs, so
// that every failure is an [apierr.Invalid] naming the JSON path of the
// offending field ("styling.primaryColor.light", "header.links[0].to.url")
// and so that unknown keys are refused rather than silently dropped.
//
// A PUT of the whole site settings ([Decode]) is merged over [Defaults]:
// a client may send only the keys it cares about, and a required key it
// leaves out (or sends as null) gets its default value. Objects merge key by
// key; arrays and the union-typed values (favicon, fonts, content
// references) are replaced whole, since merging two variants of a union
// produces neither.
//
// [MergePatch] applies a JSON merge patch (RFC 7396) to existing settings,
// with null restoring a key's default. [PatchSpace] applies the
// site-space PATCH body to a stored override, with null removing the
// override of that key so that the site's value shows again.
package customization

import (
	"encoding/json"
)

// Theme is the overall visual theme of a site.
type Theme string

// Themes.
const (
	ThemeClean    Theme = "clean"
	ThemeMuted    Theme = "muted"
	ThemeBold     Theme = "bold"
	ThemeGradient Theme = "gradient"
)

// Corners is the shape of the corners of boxes and buttons.
type Corners string

// Corner styles.
const (
	CornersStraight Corners = "straight"
	CornersRounded  Corners = "rounded"
	CornersCircular Corners = "circular"
)

// Depth is how much shadow and elevation elements get.
type Depth string

// Depths.
const (
	DepthSubtle Depth = "subtle"
	DepthFlat   Depth = "flat"
)

// LinksStyle is how links in content, header and footer are drawn.
type LinksStyle string

// Link styles.
const (
	LinksDefault LinksStyle = "default"
	LinksAccent  LinksStyle = "accent"
)

// IconsStyle is the icon set variant used in content.
type IconsStyle string

// Icon styles.
const (
	IconsRegular IconsStyle = "regular"
	IconsSolid   IconsStyle = "solid"
	IconsDuotone IconsStyle = "duotone"
	IconsLight   IconsStyle = "light"
	IconsThin    IconsStyle = "thin"
)

// SidebarBackground is the background of the navigation sidebar.
type SidebarBackground string

// Sidebar backgrounds.
const (
	SidebarBackgroundDefault SidebarBackground = "default"
	SidebarBackgroundFilled  SidebarBackground = "filled"
)

// SidebarList is how the selected item of the sidebar is marked.
type SidebarList string

// Sidebar list styles.
const (
	SidebarListDefault SidebarList = "default"
	SidebarListPill    SidebarList = "pill"
	SidebarListLine    SidebarList = "line"
)

// SearchStyle is the size and place of the search box in the header.
type SearchStyle string

// Search styles.
const (
	SearchProminent SearchStyle = "prominent"
	SearchSubtle    SearchStyle = "subtle"
)

// Background is the legacy page background style. The API still requires
// it although tint replaced it.
type Background string

// Backgrounds.
const (
	BackgroundPlain Background = "plain"
	BackgroundMatch Background = "match"
)

// Locale is the language of the built-in texts of the published site.
type Locale string

// Locales.
const (
	LocaleEN   Locale = "en"
	LocaleFR   Locale = "fr"
	LocaleES   Locale = "es"
	LocaleZH   Locale = "zh"
	LocaleJA   Locale = "ja"
	LocaleDE   Locale = "de"
	LocaleNL   Locale = "nl"
	LocaleNO   Locale = "no"
	LocalePTBR Locale = "pt-br"
	LocaleRU   Locale = "ru"
)

// HeaderPreset is the legacy header look; Theme supersedes it.
type HeaderPreset string

// Header presets.
const (
	HeaderPresetDefault  HeaderPreset = "default"
	HeaderPresetBold     HeaderPreset = "bold"
	HeaderPresetContrast HeaderPreset = "contrast"
	HeaderPresetCustom   HeaderPreset = "custom"
	HeaderPresetNone     HeaderPreset = "none"
)

// HeaderItemStyle is how a header link is drawn.
type HeaderItemStyle string

// Header item styles.
const (
	HeaderItemLink            HeaderItemStyle = "link"
	HeaderItemButtonPrimary   HeaderItemStyle = "button-primary"
	HeaderItemButtonSecondary HeaderItemStyle = "button-secondary"
)

// AnnouncementStyle is the semantic color of the announcement banner.
type AnnouncementStyle string

// Announcement styles.
const (
	AnnouncementInfo    AnnouncementStyle = "info"
	AnnouncementWarning AnnouncementStyle = "warning"
	AnnouncementDanger  AnnouncementStyle = "danger"
	AnnouncementSuccess AnnouncementStyle = "success"
)

// ThemeMode is the light or dark color mode.
type ThemeMode string

// Theme modes.
const (
	ThemeModeLight ThemeMode = "light"
	ThemeModeDark  ThemeMode = "dark"
)

// AIMode is which AI feature the published site offers.
type AIMode string

// AI modes.
const (
	AIModeNone      AIMode = "none"
	AIModeSearch    AIMode = "search"
	AIModeAssistant AIMode = "assistant"
)

// LinkTarget is where external links open.
type LinkTarget string

// Link targets.
const (
	LinkTargetSelf  LinkTarget = "self"
	LinkTargetBlank LinkTarget = "blank"
)

// ContentRefKind says what a content reference points at.
type ContentRefKind string

// Content reference kinds.
const (
	RefFile            ContentRefKind = "file"
	RefURL             ContentRefKind = "url"
	RefPage            ContentRefKind = "page"
	RefAnchor          ContentRefKind = "anchor"
	RefUser            ContentRefKind = "user"
	RefCollection      ContentRefKind = "collection"
	RefSpace           ContentRefKind = "space"
	RefReusableContent ContentRefKind = "reusable-content"
	RefOpenAPI         ContentRefKind = "openapi"
)

// DefaultFonts are the built-in fonts Styling.Font accepts by name.
// Changing this slice does not change what is accepted.
var DefaultFonts = []string{
	"ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro",
	"Lato", "Ubuntu", "Raleway", "Merriweather", "Overpass", "NotoSans",
	"IBMPlexSerif", "Poppins", "FiraSans",
}

// DefaultMonospaceFonts are the built-in fonts Styling.MonospaceFont
// accepts by name. Changing this slice does not change what is accepted.
var DefaultMonospaceFonts = []string{
	"FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono",
	"SpaceMono", "DMMono", "Inconsolata",
}

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
