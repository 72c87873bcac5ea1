package content

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// Limits of the page properties beyond title, emoji, description and
// hidden.
const (
	// MaxLinkTitle is the longest link title (the navigation's shorter
	// title of a page), in characters.
	MaxLinkTitle = 100
	// MaxIcon is the longest icon name.
	MaxIcon = 50
	// MaxMetaLinkAlternates is the most alternate links a page declares.
	MaxMetaLinkAlternates = 50
	// MaxMetaLinkURL is the longest URL of a meta link.
	MaxMetaLinkURL = 2048
	// MaxComputedType is the longest computed content source type.
	MaxComputedType = 128
	// MaxComputedDependencies is the most dependencies of a computed page.
	MaxComputedDependencies = 20
	// MaxComputedName is the longest dependency name of a computed page.
	MaxComputedName = 64
	// MaxComputedSize is the largest computed definition, in bytes of JSON.
	MaxComputedSize = 16 << 10
)

// specSlug is the form of an OpenAPI specification's slug.
var specSlug = regexp.MustCompile(`^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$`)

// pageProps are the page properties that the navigation, search engines
// and computed content read: they are checked and written together by
// every path that creates or edits pages.
type pageProps struct {
	linkTitle, icon        string
	noIndex, noRobotsIndex bool
	metaLinks              *types.PageMetaLinks
	computed               *types.PageComputed
}

func propsOf(v *ent.PageVersion) pageProps {
	return pageProps{linkTitle: v.LinkTitle, icon: v.Icon, noIndex: v.NoIndex, noRobotsIndex: v.NoRobotsIndex,
		metaLinks: v.MetaLinks, computed: v.Computed}
}

// check validates the properties of a page of type typ and returns them
// normalized (trimmed, empty meta links dropped, computed props filled).
// prefix is put before the field names of errors ("pages[0]." in trees).
func (p pageProps) check(prefix, typ string) (pageProps, error) {
	p.linkTitle = strings.TrimSpace(p.linkTitle)
	p.icon = strings.TrimSpace(p.icon)
	if err := checkLen(prefix+"linkTitle", p.linkTitle, MaxLinkTitle); err != nil {
		return p, err
	}
	if err := checkLen(prefix+"icon", p.icon, MaxIcon); err != nil {
		return p, err
	}
	if typ == TypeLink {
		// The reference's link pages carry neither: they are not pages of
		// their own for search engines.
		if p.noIndex {
			return p, apierr.Invalid(prefix+"noIndex", "%snoIndex: link pages are not indexed, so they cannot be excluded", prefix)
		}
		if p.noRobotsIndex {
			return p, apierr.Invalid(prefix+"noRobotsIndex", "%snoRobotsIndex: link pages are not indexed, so they cannot be excluded", prefix)
		}
	}
	if p.metaLinks.Empty() {
		p.metaLinks = nil
	} else {
		if typ != TypeDocument {
			return p, apierr.Invalid(prefix+"metaLinks", "%smetaLinks: only document pages have meta links", prefix)
		}
		ml, err := checkMetaLinks(prefix+"metaLinks", p.metaLinks)
		if err != nil {
			return p, err
		}
		p.metaLinks = ml
	}
	if p.computed != nil {
		if typ != TypeDocument {
			return p, apierr.Invalid(prefix+"computed", "%scomputed: only document pages can be computed", prefix)
		}
		c, err := checkComputed(prefix+"computed", p.computed)
		if err != nil {
			return p, err
		}
		p.computed = c
	}
	return p, nil
}

// set writes checked properties into a new version.
func (p pageProps) set(v *ent.PageVersion) {
	v.LinkTitle, v.Icon, v.NoIndex, v.NoRobotsIndex = p.linkTitle, p.icon, p.noIndex, p.noRobotsIndex
	v.MetaLinks, v.Computed, v.ComputedSeed = p.metaLinks, p.computed, computedSeed(p.computed)
}

func checkMetaLinks(field string, in *types.PageMetaLinks) (*types.PageMetaLinks, error) {
	out := &types.PageMetaLinks{}
	if in.Canonical != nil {
		r, err := checkMetaLink(field+".canonical", *in.Canonical)
		if err != nil {
			return nil, err
		}
		out.Canonical = &r
	}
	if len(in.Alternates) > MaxMetaLinkAlternates {
		return nil, apierr.Invalid(field+".alternates", "%s.alternates holds at most %d links (%d given)", field, MaxMetaLinkAlternates, len(in.Alternates))
	}
	for i, a := range in.Alternates {
		r, err := checkMetaLink(fmt.Sprintf("%s.alternates[%d]", field, i), a)
		if err != nil {
			return nil, err
		}
		out.Alternates = append(out.Alternates, r)
	}
	return out, nil
}

// checkMetaLink checks a meta link: a reference to a page (of this space
// or, with space, of another) or an absolute http(s) URL.
func checkMetaLink(field string, r document.ContentRef) (document.ContentRef, error) {
	switch r.Kind {
	case document.RefPage:
		if strings.TrimSpace(r.Page) == "" {
			return r, apierr.Invalid(field+".page", "%s.page is required", field)
		}
		return document.ContentRef{Kind: r.Kind, Page: r.Page, Space: r.Space}, nil
	case document.RefURL:
		if err := checkLen(field+".url", r.URL, MaxMetaLinkURL); err != nil {
			return r, err
		}
		u, err := url.Parse(r.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return r, apierr.Invalid(field+".url", "%s.url must be an absolute http or https URL", field)
		}
		return document.ContentRef{Kind: r.Kind, URL: r.URL}, nil
	}
	return r, apierr.Invalid(field+".kind", "%s.kind must be page or url (got %q)", field, r.Kind)
}

func checkComputed(field string, in *types.PageComputed) (*types.PageComputed, error) {
	out := &types.PageComputed{Type: strings.TrimSpace(in.Type), Props: in.Props}
	if out.Type == "" {
		return nil, apierr.Invalid(field+".type", "%s.type is required", field)
	}
	if err := checkLen(field+".type", out.Type, MaxComputedType); err != nil {
		return nil, err
	}
	if len(in.Dependencies) > MaxComputedDependencies {
		return nil, apierr.Invalid(field+".dependencies", "%s.dependencies holds at most %d entries (%d given)", field, MaxComputedDependencies, len(in.Dependencies))
	}
	for _, name := range slices.Sorted(maps.Keys(in.Dependencies)) {
		f := field + ".dependencies." + name
		if strings.TrimSpace(name) == "" || len(name) > MaxComputedName {
			return nil, apierr.Invalid(field+".dependencies", "%s.dependencies: names are 1 to %d characters", field, MaxComputedName)
		}
		ref := in.Dependencies[name].Ref
		if ref.Kind != document.RefOpenAPI {
			return nil, apierr.Invalid(f+".ref.kind", "%s.ref.kind must be openapi (got %q)", f, ref.Kind)
		}
		if len(ref.Spec) > 100 || !specSlug.MatchString(ref.Spec) {
			return nil, apierr.Invalid(f+".ref.spec", "%s.ref.spec must be the slug of an OpenAPI specification (got %q)", f, ref.Spec)
		}
		if out.Dependencies == nil {
			out.Dependencies = map[string]types.ComputedDependency{}
		}
		out.Dependencies[name] = types.ComputedDependency{Ref: document.ContentRef{Kind: ref.Kind, Spec: ref.Spec}}
	}
	if out.Props == nil {
		out.Props = map[string]any{}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, apierr.Invalid(field+".props", "%s.props cannot be stored: %v", field, err)
	}
	if len(raw) > MaxComputedSize {
		return nil, apierr.Invalid(field, "%s is larger than %d bytes of JSON (%d)", field, MaxComputedSize, len(raw))
	}
	return out, nil
}

// computedSeed is the seed of a computed page's generated ids: a hash of
// its definition, so the same definition always generates the same ids.
func computedSeed(c *types.PageComputed) string {
	if c == nil {
		return ""
	}
	b, _ := json.Marshal(c)
	return hashBytes(b)[:32]
}

// extraMeta is what the merge fingerprint adds for the properties beyond
// the original eight; nil when none is set, so that the fingerprints of
// versions written before they existed stay what they were.
func extraMeta(v *ent.PageVersion) map[string]any {
	if v.LinkTitle == "" && v.Icon == "" && !v.NoIndex && !v.NoRobotsIndex && v.MetaLinks.Empty() {
		return nil
	}
	return map[string]any{"linkTitle": v.LinkTitle, "icon": v.Icon, "noIndex": v.NoIndex,
		"noRobotsIndex": v.NoRobotsIndex, "metaLinks": v.MetaLinks}
}

// applyProps changes the properties an update gives into v, the new
// version of old. Making a page computed drops its document: the
// generated content takes its place.
func (u *UpdatePage) applyProps(e *editor, old, v *ent.PageVersion) error {
	if u.LinkTitle == nil && u.Icon == nil && u.NoIndex == nil && u.NoRobotsIndex == nil && !u.MetaLinks.Set && !u.Computed.Set {
		return nil
	}
	p := propsOf(old)
	if u.LinkTitle != nil {
		p.linkTitle = *u.LinkTitle
	}
	if u.Icon != nil {
		p.icon = *u.Icon
	}
	if u.NoIndex != nil {
		p.noIndex = *u.NoIndex
	}
	if u.NoRobotsIndex != nil {
		p.noRobotsIndex = *u.NoRobotsIndex
	}
	if u.MetaLinks.Set {
		p.metaLinks = u.MetaLinks.Value
	}
	if u.Computed.Set {
		p.computed = u.Computed.Value
	}
	p, err := p.check("", old.Type)
	if err != nil {
		return err
	}
	p.set(v)
	if p.computed != nil && v.DocumentID != nil {
		v.DocumentID, v.Refs, v.Anchors = nil, nil, nil
		delete(e.inherit, v.ID)
	}
	return nil
}
