package customization

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
