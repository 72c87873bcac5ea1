package customization

import (
	"fmt"
	"slices"
	"strings"
)

// The rules of the site settings document and of the site-space override
// document. Limits come from the API reference; header.primaryLink and
// ai.suggestions come from the published site profile, which is newer than
// the reference.

// Limits of the string fields.
const (
	maxTitleLength      = 128
	minTitleLength      = 2
	minAnnouncementLen  = 2
	maxAnnouncementLen  = 128
	maxCopyrightLength  = 300
	maxLinkTitleLength  = 64
	maxConditionLength  = 1024
	maxSuggestions      = 5
	minSuggestionLength = 3
	maxSuggestionLength = 64
	maxFontFamilyLength = 50
	maxEmojiLength      = 50
	minFontWeight       = 1
	maxFontWeight       = 1000
	// maxContentIDLength is not in the reference; it bounds ids so that
	// stored settings stay small.
	maxContentIDLength = 256
)

var (
	siteRules  = buildSiteRules()
	spaceRules = buildSpaceRules(siteRules)
)

func req(name string, r *rule) prop { return prop{name: name, rule: r, required: true} }
func opt(name string, r *rule) prop { return prop{name: name, rule: r} }

func object(what string, props ...prop) *rule {
	return &rule{typ: tObject, what: what, props: props}
}

func boolean() *rule { return &rule{typ: tBool} }

func text(minLen, maxLen int) *rule { return &rule{typ: tString, minLen: minLen, maxLen: maxLen} }

func enumOf[T ~string](values ...T) *rule {
	r := &rule{typ: tString}
	for _, v := range values {
		r.enum = append(r.enum, string(v))
	}
	return r
}

func arrayOf(items *rule, minItems, maxItems int) *rule {
	return &rule{typ: tArray, items: items, minItems: minItems, maxItems: maxItems}
}

func nullable(r *rule) *rule {
	c := *r
	c.nullable = true
	return &c
}

// allOptional copies an object rule with none of its keys required: the
// shape of a group of overrides.
func allOptional(r *rule, drop ...string) *rule {
	c := *r
	c.props = nil
	for _, p := range r.props {
		if slices.Contains(drop, p.name) {
			continue
		}
		p.required = false
		c.props = append(c.props, p)
	}
	return &c
}

func buildSiteRules() *rule {
	color := &rule{typ: tString, format: fColor}
	themedColor := object("a themed color", req("light", color), req("dark", color))
	webURL := &rule{typ: tString, format: fWebURL, maxLen: maxURLLength}
	themedURL := object("a themed URL", req("light", webURL), req("dark", webURL))
	ref := contentRefRule()
	link := object("a link", req("title", text(0, maxLinkTitleLength)), req("to", ref))

	fontDefinition := object("a font definition",
		req("id", text(1, maxContentIDLength)),
		req("custom", boolean()),
		req("fontFamily", text(1, maxFontFamilyLength)),
		req("fontFaces", arrayOf(object("a font face",
			req("weight", &rule{typ: tInt, min: minFontWeight, max: maxFontWeight}),
			req("sources", arrayOf(object("a font source",
				req("url", &rule{typ: tString, format: fURIRef, maxLen: maxURLLength}),
				opt("format", enumOf("woff2", "woff")),
			), 1, 0)),
		), 1, 0)),
	)

	styling := object("styling",
		req("theme", enumOf(ThemeClean, ThemeMuted, ThemeBold, ThemeGradient)),
		req("primaryColor", themedColor),
		opt("tint", object("tint", req("color", themedColor))),
		req("infoColor", themedColor),
		req("successColor", themedColor),
		req("warningColor", themedColor),
		req("dangerColor", themedColor),
		req("corners", enumOf(CornersStraight, CornersRounded, CornersCircular)),
		req("depth", enumOf(DepthSubtle, DepthFlat)),
		req("links", enumOf(LinksDefault, LinksAccent)),
		req("font", fontRule(DefaultFonts, fontDefinition)),
		req("monospaceFont", fontRule(DefaultMonospaceFonts, fontDefinition)),
		req("background", enumOf(BackgroundPlain, BackgroundMatch)),
		req("icons", enumOf(IconsRegular, IconsSolid, IconsDuotone, IconsLight, IconsThin)),
		req("sidebar", object("sidebar",
			req("background", enumOf(SidebarBackgroundDefault, SidebarBackgroundFilled)),
			req("list", enumOf(SidebarListDefault, SidebarListPill, SidebarListLine)),
		)),
		req("search", enumOf(SearchProminent, SearchSubtle)),
	)

	// The reference caps only the titles of nested links at 64; header
	// items get the same cap, as the header has no room for longer ones.
	headerItem := object("a header link",
		req("title", text(0, maxLinkTitleLength)),
		opt("style", enumOf(HeaderItemLink, HeaderItemButtonPrimary, HeaderItemButtonSecondary)),
		req("to", nullable(ref)),
		req("links", arrayOf(link, 0, 0)),
		opt("condition", text(0, maxConditionLength)),
	)
	header := object("header",
		req("preset", enumOf(HeaderPresetDefault, HeaderPresetBold, HeaderPresetContrast, HeaderPresetCustom, HeaderPresetNone)),
		opt("logo", themedURL),
		opt("backgroundColor", themedColor),
		opt("linkColor", themedColor),
		opt("primaryLink", ref),
		req("links", arrayOf(headerItem, 0, 0)),
	)
	footer := object("footer",
		opt("logo", themedURL),
		req("groups", arrayOf(object("a footer group",
			req("title", text(0, 0)),
			req("links", arrayOf(link, 0, 0)),
		), 0, 0)),
		opt("copyright", text(0, maxCopyrightLength)),
	)
	announcement := object("announcement",
		req("enabled", boolean()),
		req("message", text(minAnnouncementLen, maxAnnouncementLen)),
		opt("link", link),
		req("style", enumOf(AnnouncementInfo, AnnouncementWarning, AnnouncementDanger, AnnouncementSuccess)),
	)
	toggle := func(what string) *rule { return object(what, req("enabled", boolean())) }
	optionalURL := func(what string) *rule { return object(what, opt("url", webURL)) }

	return object("",
		opt("title", text(minTitleLength, maxTitleLength)),
		req("styling", styling),
		req("internationalization", object("internationalization",
			req("locale", enumOf(LocaleEN, LocaleFR, LocaleES, LocaleZH, LocaleJA, LocaleDE, LocaleNL, LocaleNO, LocalePTBR, LocaleRU)),
		)),
		req("favicon", faviconRule(themedURL)),
		req("header", header),
		req("footer", footer),
		opt("announcement", announcement),
		req("themes", object("themes",
			req("default", enumOf(ThemeModeLight, ThemeModeDark)),
			req("toggeable", boolean()),
		)),
		req("pdf", toggle("pdf")),
		req("feedback", toggle("feedback")),
		req("ai", object("ai",
			req("mode", enumOf(AIModeNone, AIModeSearch, AIModeAssistant)),
			opt("suggestions", arrayOf(text(minSuggestionLength, maxSuggestionLength), 0, maxSuggestions)),
		)),
		req("advancedCustomization", toggle("advancedCustomization")),
		req("git", object("git", req("showEditLink", boolean()))),
		req("pageActions", object("pageActions",
			req("externalAI", boolean()),
			req("markdown", boolean()),
			req("mcp", boolean()),
		)),
		req("externalLinks", object("externalLinks",
			req("target", enumOf(LinkTargetSelf, LinkTargetBlank)),
		)),
		req("pagination", toggle("pagination")),
		req("trademark", toggle("trademark")),
		req("privacyPolicy", optionalURL("privacyPolicy")),
		req("socialPreview", optionalURL("socialPreview")),
		req("insights", object("insights", req("trackingCookie", boolean()))),
	)
}

// buildSpaceRules derives the override document from the site document:
// the keys a site space may override, none of them required. Values keep
// their own rules (an overridden color still needs light and dark).
func buildSpaceRules(site *rule) *rule {
	group := func(name string, drop ...string) prop {
		return opt(name, allOptional(site.child(name), drop...))
	}
	value := func(name string) prop { return opt(name, site.child(name)) }
	styling := allOptional(site.child("styling"), "font", "monospaceFont")
	for i, p := range styling.props {
		if p.name == "sidebar" {
			styling.props[i].rule = allOptional(p.rule)
		}
	}
	return object("",
		value("title"),
		opt("styling", styling),
		group("internationalization"),
		value("favicon"),
		value("announcement"),
		group("header"),
		group("footer"),
		group("themes"),
		group("pdf"),
		group("feedback"),
		group("git"),
		group("externalLinks"),
		group("pagination"),
		group("trademark"),
		group("privacyPolicy"),
		group("socialPreview"),
	)
}

// contentRefRule accepts a content reference: an object whose kind says
// which id field is required and which optional fields may accompany it.
func contentRefRule() *rule {
	id := text(1, maxContentIDLength)
	variants := map[ContentRefKind][]prop{
		RefFile:            {req("file", id), opt("space", id)},
		RefURL:             {req("url", &rule{typ: tString, format: fLinkURL, maxLen: maxURLLength})},
		RefPage:            {req("page", id), opt("space", id)},
		RefAnchor:          {req("anchor", id), opt("space", id), opt("page", id)},
		RefUser:            {req("user", id)},
		RefCollection:      {req("collection", id)},
		RefSpace:           {req("space", id)},
		RefReusableContent: {req("reusableContent", id), opt("space", id)},
		RefOpenAPI:         {req("spec", id)},
	}
	kinds := enumOf(RefFile, RefURL, RefPage, RefAnchor, RefUser, RefCollection, RefSpace, RefReusableContent, RefOpenAPI)
	rules := make(map[ContentRefKind]*rule, len(variants))
	for k, props := range variants {
		rules[k] = object(fmt.Sprintf("a %s reference", k), append([]prop{req("kind", kinds)}, props...)...)
	}
	return &rule{typ: tUnion, union: func(path string, v any) error {
		m, ok := v.(map[string]any)
		if !ok {
			return invalid(path, "must be a content reference object")
		}
		k, ok := m["kind"]
		if !ok {
			return invalid(join(path, "kind"), "is required")
		}
		if err := kinds.check(join(path, "kind"), k); err != nil {
			return err
		}
		return rules[ContentRefKind(k.(string))].check(path, m)
	}}
}

// fontRule accepts the name of a built-in font or a custom definition.
func fontRule(names []string, definition *rule) *rule {
	names = slices.Clone(names)
	byName := &rule{typ: tString, enum: names}
	return &rule{typ: tUnion, union: func(path string, v any) error {
		switch v.(type) {
		case string:
			return byName.check(path, v)
		case map[string]any:
			return definition.check(path, v)
		}
		return invalid(path, "must be a font name (one of %s) or a font definition object", strings.Join(names, ", "))
	}}
}

// faviconRule accepts {icon: {light, dark}}, {emoji} or {}.
func faviconRule(themedURL *rule) *rule {
	icon := object("a favicon", req("icon", themedURL))
	emoji := object("a favicon", req("emoji", text(1, maxEmojiLength)))
	none := object("a favicon")
	return &rule{typ: tUnion, union: func(path string, v any) error {
		m, ok := v.(map[string]any)
		if !ok {
			return invalid(path, "must be an object")
		}
		_, hasIcon := m["icon"]
		_, hasEmoji := m["emoji"]
		switch {
		case hasIcon && hasEmoji:
			return invalid(join(path, "emoji"), "cannot be set together with %s", join(path, "icon"))
		case hasIcon:
			return icon.check(path, m)
		case hasEmoji:
			return emoji.check(path, m)
		}
		return none.check(path, m)
	}}
}
