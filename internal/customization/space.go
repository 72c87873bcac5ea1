package customization

import "encoding/json"

// SpaceSettings is what one site space overrides of its site's settings.
// A nil field is not overridden: the site's value applies. Fonts, AI,
// page actions, insights and advanced customization cannot be overridden
// per site space.
type SpaceSettings struct {
	Title                *string                    `json:"title,omitempty"`
	Styling              *SpaceStyling              `json:"styling,omitempty"`
	Internationalization *SpaceInternationalization `json:"internationalization,omitempty"`
	Favicon              *Favicon                   `json:"favicon,omitempty"`
	Announcement         *Announcement              `json:"announcement,omitempty"`
	Header               *SpaceHeader               `json:"header,omitempty"`
	Footer               *SpaceFooter               `json:"footer,omitempty"`
	Themes               *SpaceThemes               `json:"themes,omitempty"`
	PDF                  *SpaceToggle               `json:"pdf,omitempty"`
	Feedback             *SpaceToggle               `json:"feedback,omitempty"`
	Git                  *SpaceGit                  `json:"git,omitempty"`
	ExternalLinks        *SpaceExternalLinks        `json:"externalLinks,omitempty"`
	Pagination           *SpaceToggle               `json:"pagination,omitempty"`
	Trademark            *SpaceToggle               `json:"trademark,omitempty"`
	PrivacyPolicy        *SpaceURL                  `json:"privacyPolicy,omitempty"`
	SocialPreview        *SpaceURL                  `json:"socialPreview,omitempty"`
}

// SpaceStyling overrides parts of [Styling].
type SpaceStyling struct {
	Theme        *Theme        `json:"theme,omitempty"`
	PrimaryColor *ThemedColor  `json:"primaryColor,omitempty"`
	Tint         *Tint         `json:"tint,omitempty"`
	InfoColor    *ThemedColor  `json:"infoColor,omitempty"`
	SuccessColor *ThemedColor  `json:"successColor,omitempty"`
	WarningColor *ThemedColor  `json:"warningColor,omitempty"`
	DangerColor  *ThemedColor  `json:"dangerColor,omitempty"`
	Corners      *Corners      `json:"corners,omitempty"`
	Depth        *Depth        `json:"depth,omitempty"`
	Links        *LinksStyle   `json:"links,omitempty"`
	Background   *Background   `json:"background,omitempty"`
	Icons        *IconsStyle   `json:"icons,omitempty"`
	Sidebar      *SpaceSidebar `json:"sidebar,omitempty"`
	Search       *SearchStyle  `json:"search,omitempty"`
}

// SpaceSidebar overrides parts of [Sidebar].
type SpaceSidebar struct {
	Background *SidebarBackground `json:"background,omitempty"`
	List       *SidebarList       `json:"list,omitempty"`
}

// SpaceInternationalization overrides [Internationalization].
type SpaceInternationalization struct {
	Locale *Locale `json:"locale,omitempty"`
}

// SpaceHeader overrides parts of [Header]. A non-nil Links, even empty,
// replaces the site's header links.
type SpaceHeader struct {
	Preset          *HeaderPreset `json:"preset,omitempty"`
	Logo            *ThemedURL    `json:"logo,omitempty"`
	BackgroundColor *ThemedColor  `json:"backgroundColor,omitempty"`
	LinkColor       *ThemedColor  `json:"linkColor,omitempty"`
	PrimaryLink     *ContentRef   `json:"primaryLink,omitempty"`
	Links           *[]HeaderItem `json:"links,omitempty"`
}

// SpaceFooter overrides parts of [Footer]. A non-nil Groups, even empty,
// replaces the site's footer groups.
type SpaceFooter struct {
	Logo      *ThemedURL     `json:"logo,omitempty"`
	Groups    *[]FooterGroup `json:"groups,omitempty"`
	Copyright *string        `json:"copyright,omitempty"`
}

// SpaceThemes overrides parts of [Themes].
type SpaceThemes struct {
	Default   *ThemeMode `json:"default,omitempty"`
	Toggeable *bool      `json:"toggeable,omitempty"`
}

// SpaceToggle overrides a [Toggle].
type SpaceToggle struct {
	Enabled *bool `json:"enabled,omitempty"`
}

// SpaceGit overrides [Git].
type SpaceGit struct {
	ShowEditLink *bool `json:"showEditLink,omitempty"`
}

// SpaceExternalLinks overrides [ExternalLinks].
type SpaceExternalLinks struct {
	Target *LinkTarget `json:"target,omitempty"`
}

// SpaceURL overrides an [OptionalURL].
type SpaceURL struct {
	URL *string `json:"url,omitempty"`
}

// HasOverrides reports whether s overrides anything.
func (s SpaceSettings) HasOverrides() bool {
	b, err := json.Marshal(s)
	return err != nil || string(b) != "{}"
}

// Effective returns the settings a published site space shows: site with
// every key space overrides replaced. A nil space, or one that overrides
// nothing, yields site. Overridden values are copied, so the result
// shares no memory with space (it may share slices with site).
func Effective(site Settings, space *SpaceSettings) Settings {
	out := site
	if space == nil {
		return out
	}
	set(&out.Title, space.Title)
	if o := space.Styling; o != nil {
		st := &out.Styling
		set(&st.Theme, o.Theme)
		set(&st.PrimaryColor, o.PrimaryColor)
		if o.Tint != nil {
			t := *o.Tint
			st.Tint = &t
		}
		set(&st.InfoColor, o.InfoColor)
		set(&st.SuccessColor, o.SuccessColor)
		set(&st.WarningColor, o.WarningColor)
		set(&st.DangerColor, o.DangerColor)
		set(&st.Corners, o.Corners)
		set(&st.Depth, o.Depth)
		set(&st.Links, o.Links)
		set(&st.Background, o.Background)
		set(&st.Icons, o.Icons)
		if o.Sidebar != nil {
			set(&st.Sidebar.Background, o.Sidebar.Background)
			set(&st.Sidebar.List, o.Sidebar.List)
		}
		set(&st.Search, o.Search)
	}
	if o := space.Internationalization; o != nil {
		set(&out.Internationalization.Locale, o.Locale)
	}
	if space.Favicon != nil {
		out.Favicon = copyFavicon(*space.Favicon)
	}
	if space.Announcement != nil {
		a := *space.Announcement
		if a.Link != nil {
			l := *a.Link
			a.Link = &l
		}
		out.Announcement = &a
	}
	if o := space.Header; o != nil {
		h := &out.Header
		set(&h.Preset, o.Preset)
		setPtr(&h.Logo, o.Logo)
		setPtr(&h.BackgroundColor, o.BackgroundColor)
		setPtr(&h.LinkColor, o.LinkColor)
		setPtr(&h.PrimaryLink, o.PrimaryLink)
		if o.Links != nil {
			h.Links = copyHeaderItems(*o.Links)
		}
	}
	if o := space.Footer; o != nil {
		f := &out.Footer
		setPtr(&f.Logo, o.Logo)
		if o.Groups != nil {
			f.Groups = copyFooterGroups(*o.Groups)
		}
		set(&f.Copyright, o.Copyright)
	}
	if o := space.Themes; o != nil {
		set(&out.Themes.Default, o.Default)
		set(&out.Themes.Toggeable, o.Toggeable)
	}
	setToggle(&out.PDF, space.PDF)
	setToggle(&out.Feedback, space.Feedback)
	if o := space.Git; o != nil {
		set(&out.Git.ShowEditLink, o.ShowEditLink)
	}
	if o := space.ExternalLinks; o != nil {
		set(&out.ExternalLinks.Target, o.Target)
	}
	setToggle(&out.Pagination, space.Pagination)
	setToggle(&out.Trademark, space.Trademark)
	if o := space.PrivacyPolicy; o != nil {
		set(&out.PrivacyPolicy.URL, o.URL)
	}
	if o := space.SocialPreview; o != nil {
		set(&out.SocialPreview.URL, o.URL)
	}
	return out
}

// set overwrites *dst with *v when v is non-nil.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// setPtr overwrites *dst with a copy of *v when v is non-nil.
func setPtr[T any](dst **T, v *T) {
	if v != nil {
		c := *v
		*dst = &c
	}
}

func setToggle(dst *Toggle, o *SpaceToggle) {
	if o != nil {
		set(&dst.Enabled, o.Enabled)
	}
}

func copyFavicon(f Favicon) Favicon {
	if f.Icon != nil {
		i := *f.Icon
		f.Icon = &i
	}
	return f
}

func copyHeaderItems(items []HeaderItem) []HeaderItem {
	out := make([]HeaderItem, len(items))
	for i, it := range items {
		if it.To != nil {
			t := *it.To
			it.To = &t
		}
		it.Links = append([]ContentLink{}, it.Links...)
		out[i] = it
	}
	return out
}

func copyFooterGroups(groups []FooterGroup) []FooterGroup {
	out := make([]FooterGroup, len(groups))
	for i, g := range groups {
		g.Links = append([]ContentLink{}, g.Links...)
		out[i] = g
	}
	return out
}
