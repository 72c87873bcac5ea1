package sites

import (
	"context"
	"sort"

	"quire/ent"
	"quire/internal/loaders"
)

// Item is one node of a site's structure: a section, a group (with
// children) or a site space.
type Item struct {
	Section   *ent.SiteSection
	Group     *ent.SiteSectionGroup
	SiteSpace *ent.SiteSpace
	Children  []Item
}

// Tree is a site's whole structure, read a level per statement.
type Tree struct {
	Site       *ent.Site
	Sections   []*ent.SiteSection
	Groups     []*ent.SiteSectionGroup
	SiteSpaces []*ent.SiteSpace
	// Root is ordered: site spaces when the site has no sections, else
	// sections and groups.
	Root []Item
}

// HasSections reports whether the site is organized in sections.
func (t *Tree) HasSections() bool { return len(t.Sections) > 0 }

// SpacesOf returns the ordered site spaces of a section (nil for the root).
func SpacesOf(all []*ent.SiteSpace, sectionID *string) []*ent.SiteSpace {
	var out []*ent.SiteSpace
	for _, ss := range all {
		if sameID(ss.SectionID, sectionID) {
			out = append(out, ss)
		}
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i].Position, out[i].ID, out[j].Position, out[j].ID) })
	return out
}

// ChildrenOf returns the ordered sections and groups directly in a group
// (nil for the site root).
func ChildrenOf(sections []*ent.SiteSection, groups []*ent.SiteSectionGroup, groupID *string) []Item {
	var out []Item
	for _, s := range sections {
		if sameID(s.GroupID, groupID) {
			out = append(out, Item{Section: s})
		}
	}
	for _, g := range groups {
		if sameID(g.ParentID, groupID) {
			out = append(out, Item{Group: g})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		pi, ii := out[i].key()
		pj, ij := out[j].key()
		return less(pi, ii, pj, ij)
	})
	return out
}

func (it Item) key() (string, string) {
	switch {
	case it.Section != nil:
		return it.Section.Position, it.Section.ID
	case it.Group != nil:
		return it.Group.Position, it.Group.ID
	}
	return it.SiteSpace.Position, it.SiteSpace.ID
}

func less(p1, id1, p2, id2 string) bool {
	if p1 != p2 {
		return p1 < p2
	}
	return id1 < id2
}

func sameID(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// LoadTree reads a site's structure through the request's loaders: one
// statement per level, whatever the number of items. The tree is built once
// per site and request (every resolver of a site's items asks for it); it
// is shared, so callers must not change it.
func LoadTree(ctx context.Context, st *ent.Site) (*Tree, error) {
	return loaders.Memo(ctx, st.ID, "tree", func() (*Tree, error) { return loadTree(ctx, st) })
}

func loadTree(ctx context.Context, st *ent.Site) (*Tree, error) {
	l := loaders.For(ctx).Sites
	secT := l.SectionsBySite.Load(ctx, st.ID)
	grpT := l.GroupsBySite.Load(ctx, st.ID)
	ssT := l.SiteSpacesBySite.Load(ctx, st.ID)
	t := &Tree{Site: st}
	var err error
	if t.Sections, err = secT(); err != nil {
		return nil, err
	}
	if t.Groups, err = grpT(); err != nil {
		return nil, err
	}
	if t.SiteSpaces, err = ssT(); err != nil {
		return nil, err
	}
	if !t.HasSections() {
		for _, ss := range SpacesOf(t.SiteSpaces, nil) {
			t.Root = append(t.Root, Item{SiteSpace: ss})
		}
		return t, nil
	}
	t.Root = t.build(nil, 0)
	return t, nil
}

func (t *Tree) build(groupID *string, depth int) []Item {
	items := ChildrenOf(t.Sections, t.Groups, groupID)
	for i := range items {
		if items[i].Group != nil && depth < 32 {
			id := items[i].Group.ID
			items[i].Children = t.build(&id, depth+1)
		}
	}
	return items
}

// Structure returns a site's structure.
// Errors: NotFound.
func (s *Service) Structure(ctx context.Context, orgID, siteID string) (*Tree, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return LoadTree(ctx, st)
}

// DefaultSiteSpace returns the default site space of a section, or of the
// site's root when sec is nil (none when the site is organized in
// sections: each section has its own).
func (t *Tree) DefaultSiteSpace(sec *ent.SiteSection) *ent.SiteSpace {
	var want *string
	var list []*ent.SiteSpace
	if sec == nil {
		if t.HasSections() {
			return nil
		}
		want, list = t.Site.DefaultSiteSpaceID, SpacesOf(t.SiteSpaces, nil)
	} else {
		id := sec.ID
		want, list = sec.DefaultSiteSpaceID, SpacesOf(t.SiteSpaces, &id)
	}
	for _, ss := range list {
		if want != nil && ss.ID == *want {
			return ss
		}
	}
	return nil
}

// IsDefault reports whether a site space is the default of its place: its
// section, or the site's root.
func (t *Tree) IsDefault(ss *ent.SiteSpace) bool {
	if ss.SectionID == nil {
		return t.Site.DefaultSiteSpaceID != nil && *t.Site.DefaultSiteSpaceID == ss.ID
	}
	for _, sec := range t.Sections {
		if sec.ID == *ss.SectionID {
			return sec.DefaultSiteSpaceID != nil && *sec.DefaultSiteSpaceID == ss.ID
		}
	}
	return false
}
