package sites

import (
	"context"
	"fmt"
	"sort"

	"quire/ent"
	"quire/ent/predicate"
	"quire/ent/site"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitespace"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/loaders"
	"quire/internal/position"
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

// --- site spaces ---

// addSiteSpace adds a space to a site, in a section or at the root, at the
// end, and makes it the default of its place when that has none.
func addSiteSpace(ctx context.Context, tx *ent.Tx, st *ent.Site, sectionID *string, sp *ent.Space) (*ent.SiteSpace, error) {
	if err := lockSite(ctx, tx, st.ID); err != nil {
		return nil, err
	}
	c := tx.Client()
	sibs, err := c.SiteSpace.Query().Where(sitespace.SiteID(st.ID), sectionIs(sectionID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list site spaces: %w", err)
	}
	used := map[string]bool{}
	last := ""
	for _, x := range sibs {
		used[x.Path] = true
		if x.Position > last {
			last = x.Position
		}
	}
	ss, err := tx.SiteSpace.Create().SetSiteID(st.ID).SetNillableSectionID(sectionID).SetSpaceID(sp.ID).
		SetPath(uniqueIn(slugify(sp.Title, "space"), used)).SetPosition(after(last)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("add site space: %w", err)
	}
	if sectionID == nil {
		fresh, err := c.Site.Get(ctx, st.ID)
		if err != nil {
			return nil, err
		}
		if fresh.DefaultSiteSpaceID == nil {
			if err := tx.Site.UpdateOneID(st.ID).SetDefaultSiteSpaceID(ss.ID).Exec(ctx); err != nil {
				return nil, err
			}
		}
	} else {
		sec, err := c.SiteSection.Get(ctx, *sectionID)
		if err != nil {
			return nil, err
		}
		if sec.DefaultSiteSpaceID == nil {
			if err := tx.SiteSection.UpdateOneID(sec.ID).SetDefaultSiteSpaceID(ss.ID).Exec(ctx); err != nil {
				return nil, err
			}
		}
	}
	return ss, nil
}

func after(last string) string {
	if last == "" {
		return position.First()
	}
	return position.After(last)
}

func sectionIs(id *string) predicate.SiteSpace {
	if id == nil {
		return sitespace.SectionIDIsNil()
	}
	return sitespace.SectionID(*id)
}

// AddSiteSpace adds a space to a site: to the given section, else to the
// default section when the site has sections, else at the root.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) AddSiteSpace(ctx context.Context, orgID, siteID, spaceID string, sectionID *string) (*ent.SiteSpace, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	spaces, err := s.spacesFor(ctx, orgID, "spaceId", []string{spaceID})
	if err != nil {
		return nil, err
	}
	var out *ent.SiteSpace
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		target := sectionID
		if target != nil {
			sec, err := tx.SiteSection.Get(ctx, *target)
			if err != nil || sec.SiteID != st.ID {
				return apierr.Invalid("sectionId", "sectionId: no matching section in this site")
			}
		} else {
			def, err := defaultSection(ctx, tx.Client(), st.ID)
			if err != nil {
				return err
			}
			if def != nil {
				target = &def.ID
			}
		}
		out, err = addSiteSpace(ctx, tx, st, target, spaces[0])
		return err
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return out, nil
}

// defaultSection returns the site's default section, the first one when
// none is marked, or nil when the site has no sections.
func defaultSection(ctx context.Context, c *ent.Client, siteID string) (*ent.SiteSection, error) {
	st, err := c.Site.Get(ctx, siteID)
	if err != nil {
		return nil, fmt.Errorf("load site: %w", err)
	}
	if st.DefaultSectionID != nil {
		sec, err := c.SiteSection.Get(ctx, *st.DefaultSectionID)
		if err == nil {
			return sec, nil
		}
	}
	secs, err := c.SiteSection.Query().Where(sitesection.SiteID(siteID)).Order(ent.Asc(sitesection.FieldPosition), ent.Asc(sitesection.FieldID)).Limit(1).All(ctx)
	if err != nil || len(secs) == 0 {
		return nil, err
	}
	return secs[0], nil
}

// SiteSpace returns one site space of a site.
// Errors: NotFound.
func (s *Service) SiteSpace(ctx context.Context, orgID, siteID, id string) (*ent.SiteSpace, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	all, err := loaders.For(ctx).Sites.SiteSpacesBySite.Load(ctx, st.ID)()
	if err != nil {
		return nil, err
	}
	for _, ss := range all {
		if ss.ID == id {
			return ss, nil
		}
	}
	return nil, apierr.NotFoundf("No matching site space found for id %q", id)
}

// SiteSpaceUpdate patches a site space; unset fields stay unchanged.
type SiteSpaceUpdate struct {
	Path      catalog.Opt[string]
	Condition catalog.Opt[*string]
	SpaceID   catalog.Opt[string]
	Hidden    catalog.Opt[bool]
}

// UpdateSiteSpace patches a site space.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateSiteSpace(ctx context.Context, orgID, siteID, id string, in SiteSpaceUpdate) (*ent.SiteSpace, error) {
	if in.Path.Set {
		if err := checkPath("path", in.Path.Value); err != nil {
			return nil, err
		}
	}
	if in.Condition.Set && in.Condition.Value != nil {
		if err := CheckCondition("condition", *in.Condition.Value); err != nil {
			return nil, err
		}
	}
	if _, err := s.writable(ctx, orgID, siteID); err != nil {
		return nil, err
	}
	ss, err := s.SiteSpace(ctx, orgID, siteID, id)
	if err != nil {
		return nil, err
	}
	var space *ent.Space
	if in.SpaceID.Set {
		spaces, err := s.spacesFor(ctx, orgID, "spaceId", []string{in.SpaceID.Value})
		if err != nil {
			return nil, err
		}
		space = spaces[0]
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.SiteSpace.UpdateOneID(ss.ID)
		if in.Path.Set && in.Path.Value != ss.Path {
			taken, err := tx.SiteSpace.Query().Where(sitespace.SiteID(ss.SiteID), sectionIs(ss.SectionID), sitespace.Path(in.Path.Value), sitespace.IDNEQ(ss.ID)).Exist(ctx)
			if err != nil {
				return err
			}
			if taken {
				return apierr.Invalid("path", "path %q is already used in this section", in.Path.Value)
			}
			u.SetPath(in.Path.Value)
		}
		if in.Condition.Set {
			if in.Condition.Value == nil || *in.Condition.Value == "" {
				u.ClearCondition()
			} else {
				u.SetCondition(*in.Condition.Value)
			}
		}
		if space != nil {
			u.SetSpaceID(space.ID)
		}
		if in.Hidden.Set {
			u.SetHidden(in.Hidden.Value)
		}
		_, err := u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, siteID)
	return s.Client.SiteSpace.Get(ctx, ss.ID)
}

// DeleteSiteSpace removes a space from a site (the space itself stays). It
// reports false when the site space did not exist.
// Errors: Forbidden.
func (s *Service) DeleteSiteSpace(ctx context.Context, orgID, siteID, id string) (bool, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ss, err := s.SiteSpace(ctx, orgID, siteID, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := tx.SiteSpace.DeleteOneID(ss.ID).Exec(ctx); err != nil {
			return fmt.Errorf("delete site space: %w", err)
		}
		return repairDefaults(ctx, tx, st.ID)
	})
	if err != nil {
		return false, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return true, nil
}

// repairDefaults makes sure every default points at something that exists:
// the site's default site space and section, and each section's default.
func repairDefaults(ctx context.Context, tx *ent.Tx, siteID string) error {
	c := tx.Client()
	st, err := c.Site.Get(ctx, siteID)
	if err != nil {
		return err
	}
	spaces, err := c.SiteSpace.Query().Where(sitespace.SiteID(siteID)).All(ctx)
	if err != nil {
		return err
	}
	secs, err := c.SiteSection.Query().Where(sitesection.SiteID(siteID)).All(ctx)
	if err != nil {
		return err
	}
	exists := map[string]bool{}
	for _, ss := range spaces {
		exists[ss.ID] = true
	}
	secExists := map[string]bool{}
	for _, sec := range secs {
		secExists[sec.ID] = true
		list := SpacesOf(spaces, &sec.ID)
		if sec.DefaultSiteSpaceID == nil || !exists[*sec.DefaultSiteSpaceID] || !contains(list, *sec.DefaultSiteSpaceID) {
			u := tx.SiteSection.UpdateOneID(sec.ID)
			if len(list) > 0 {
				u.SetDefaultSiteSpaceID(list[0].ID)
			} else {
				u.ClearDefaultSiteSpaceID()
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
		}
	}
	u := tx.Site.UpdateOneID(siteID)
	root := SpacesOf(spaces, nil)
	if st.DefaultSiteSpaceID == nil || !contains(root, *st.DefaultSiteSpaceID) {
		if len(root) > 0 {
			u.SetDefaultSiteSpaceID(root[0].ID)
		} else {
			u.ClearDefaultSiteSpaceID()
		}
	}
	if st.DefaultSectionID == nil || !secExists[*st.DefaultSectionID] {
		items := ChildrenOf(secs, nil, nil)
		first := firstSection(secs)
		switch {
		case first != nil:
			u.SetDefaultSectionID(first.ID)
		case len(items) == 0:
			u.ClearDefaultSectionID()
		}
	}
	return u.Exec(ctx)
}

func firstSection(secs []*ent.SiteSection) *ent.SiteSection {
	var best *ent.SiteSection
	for _, s := range secs {
		if best == nil || less(s.Position, s.ID, best.Position, best.ID) {
			best = s
		}
	}
	return best
}

func contains(list []*ent.SiteSpace, id string) bool {
	for _, ss := range list {
		if ss.ID == id {
			return true
		}
	}
	return false
}

func checkPath(field, p string) error {
	if err := checkLen(field, p, 1, 100); err != nil {
		return err
	}
	for _, r := range p {
		if r == '/' || r == '?' || r == '#' || r == ' ' {
			return apierr.Invalid(field, "%s may not contain '/', '?', '#' or spaces", field)
		}
	}
	return nil
}

// --- sections ---

// AddSectionInput adds a section starting with one space.
type AddSectionInput struct {
	SpaceID string
	Title   *string
	Icon    *string
}

// AddSection adds a section with a first site space. When the site still
// has site spaces at its root, they are first gathered into a default
// section, so that the structure is never a mix of both.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) AddSection(ctx context.Context, orgID, siteID string, in AddSectionInput) (*ent.SiteSection, error) {
	if in.Title != nil {
		if err := checkLen("title", *in.Title, 2, 128); err != nil {
			return nil, err
		}
	}
	if in.Icon != nil {
		if err := checkLen("icon", *in.Icon, 0, 50); err != nil {
			return nil, err
		}
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	spaces, err := s.spacesFor(ctx, orgID, "spaceId", []string{in.SpaceID})
	if err != nil {
		return nil, err
	}
	var out *ent.SiteSection
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockSite(ctx, tx, st.ID); err != nil {
			return err
		}
		c := tx.Client()
		secs, err := c.SiteSection.Query().Where(sitesection.SiteID(st.ID)).All(ctx)
		if err != nil {
			return err
		}
		groups, err := c.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(st.ID)).All(ctx)
		if err != nil {
			return err
		}
		used := map[string]bool{}
		for _, sec := range secs {
			used[sec.Path] = true
		}
		last := lastPosition(ChildrenOf(secs, groups, nil))
		if len(secs) == 0 {
			root, err := c.SiteSpace.Query().Where(sitespace.SiteID(st.ID), sitespace.SectionIDIsNil()).All(ctx)
			if err != nil {
				return err
			}
			if len(root) > 0 {
				title := st.Title
				if len([]rune(title)) < 2 {
					title = "Docs"
				}
				path := uniqueIn(slugify(title, "docs"), used)
				used[path] = true
				last = after(last)
				def, err := tx.SiteSection.Create().SetSiteID(st.ID).SetTitle(title).SetPath(path).SetPosition(last).
					SetNillableDefaultSiteSpaceID(st.DefaultSiteSpaceID).Save(ctx)
				if err != nil {
					return fmt.Errorf("create default section: %w", err)
				}
				if _, err := tx.SiteSpace.Update().Where(sitespace.SiteID(st.ID), sitespace.SectionIDIsNil()).SetSectionID(def.ID).Save(ctx); err != nil {
					return fmt.Errorf("gather site spaces: %w", err)
				}
				if err := tx.Site.UpdateOneID(st.ID).SetDefaultSectionID(def.ID).ClearDefaultSiteSpaceID().Exec(ctx); err != nil {
					return err
				}
			}
		}
		title := spaces[0].Title
		if in.Title != nil {
			title = *in.Title
		}
		if len([]rune(title)) < 2 {
			title = "Section"
		}
		if len([]rune(title)) > 128 {
			title = string([]rune(title)[:128])
		}
		out, err = tx.SiteSection.Create().SetSiteID(st.ID).SetTitle(title).SetPath(uniqueIn(slugify(title, "section"), used)).
			SetPosition(after(last)).SetNillableIcon(in.Icon).Save(ctx)
		if err != nil {
			return fmt.Errorf("create section: %w", err)
		}
		fresh, err := c.Site.Get(ctx, st.ID)
		if err != nil {
			return err
		}
		if _, err := addSiteSpace(ctx, tx, fresh, &out.ID, spaces[0]); err != nil {
			return err
		}
		if fresh.DefaultSectionID == nil {
			if err := tx.Site.UpdateOneID(st.ID).SetDefaultSectionID(out.ID).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return s.Client.SiteSection.Get(ctx, out.ID)
}

func lastPosition(items []Item) string {
	last := ""
	for _, it := range items {
		if p, _ := it.key(); p > last {
			last = p
		}
	}
	return last
}

// Section returns one section of a site.
// Errors: NotFound.
func (s *Service) Section(ctx context.Context, orgID, siteID, id string) (*ent.SiteSection, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	all, err := loaders.For(ctx).Sites.SectionsBySite.Load(ctx, st.ID)()
	if err != nil {
		return nil, err
	}
	for _, sec := range all {
		if sec.ID == id {
			return sec, nil
		}
	}
	return nil, apierr.NotFoundf("No matching site section found for id %q", id)
}

// SectionUpdate patches a section; unset fields stay unchanged.
type SectionUpdate struct {
	Title            catalog.Opt[string]
	Path             catalog.Opt[string]
	DefaultSiteSpace catalog.Opt[string]
	Condition        catalog.Opt[*string]
	Icon             catalog.Opt[*string]
	Description      catalog.Opt[*string]
}

// UpdateSection patches a section.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateSection(ctx context.Context, orgID, siteID, id string, in SectionUpdate) (*ent.SiteSection, error) {
	if in.Title.Set {
		if err := checkLen("title", in.Title.Value, 2, 128); err != nil {
			return nil, err
		}
	}
	if in.Path.Set {
		if err := checkPath("path", in.Path.Value); err != nil {
			return nil, err
		}
	}
	if in.Condition.Set && in.Condition.Value != nil {
		if err := CheckCondition("condition", *in.Condition.Value); err != nil {
			return nil, err
		}
	}
	if in.Icon.Set && in.Icon.Value != nil {
		if err := checkLen("icon", *in.Icon.Value, 0, 50); err != nil {
			return nil, err
		}
	}
	if in.Description.Set && in.Description.Value != nil {
		if err := checkLen("description", *in.Description.Value, 0, 256); err != nil {
			return nil, err
		}
	}
	if _, err := s.writable(ctx, orgID, siteID); err != nil {
		return nil, err
	}
	sec, err := s.Section(ctx, orgID, siteID, id)
	if err != nil {
		return nil, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.SiteSection.UpdateOneID(sec.ID)
		if in.Title.Set {
			u.SetTitle(in.Title.Value)
		}
		if in.Path.Set && in.Path.Value != sec.Path {
			taken, err := tx.SiteSection.Query().Where(sitesection.SiteID(sec.SiteID), sitesection.Path(in.Path.Value), sitesection.IDNEQ(sec.ID)).Exist(ctx)
			if err != nil {
				return err
			}
			if taken {
				return apierr.Invalid("path", "path %q is already used by another section", in.Path.Value)
			}
			u.SetPath(in.Path.Value)
		}
		if in.DefaultSiteSpace.Set {
			ss, err := tx.SiteSpace.Get(ctx, in.DefaultSiteSpace.Value)
			if err != nil || ss.SectionID == nil || *ss.SectionID != sec.ID {
				return apierr.Invalid("defaultSiteSpace", "defaultSiteSpace: no matching site space in this section")
			}
			u.SetDefaultSiteSpaceID(ss.ID)
		}
		if in.Condition.Set {
			if in.Condition.Value == nil || *in.Condition.Value == "" {
				u.ClearCondition()
			} else {
				u.SetCondition(*in.Condition.Value)
			}
		}
		if in.Icon.Set {
			if in.Icon.Value == nil {
				u.ClearIcon()
			} else {
				u.SetIcon(*in.Icon.Value)
			}
		}
		if in.Description.Set {
			if in.Description.Value == nil {
				u.ClearDescription()
			} else {
				u.SetDescription(*in.Description.Value)
			}
		}
		_, err := u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, siteID)
	return s.Client.SiteSection.Get(ctx, sec.ID)
}

// DeleteSection deletes a section with its site spaces. It reports false
// when the section did not exist.
// Errors: Forbidden.
func (s *Service) DeleteSection(ctx context.Context, orgID, siteID, id string) (bool, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	sec, err := s.Section(ctx, orgID, siteID, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if _, err := tx.SiteSpace.Delete().Where(sitespace.SectionID(sec.ID)).Exec(ctx); err != nil {
			return fmt.Errorf("delete section site spaces: %w", err)
		}
		if err := tx.SiteSection.DeleteOneID(sec.ID).Exec(ctx); err != nil {
			return fmt.Errorf("delete section: %w", err)
		}
		if st.DefaultSectionID != nil && *st.DefaultSectionID == sec.ID {
			if err := tx.Site.UpdateOneID(st.ID).ClearDefaultSectionID().Exec(ctx); err != nil {
				return err
			}
		}
		return repairDefaults(ctx, tx, st.ID)
	})
	if err != nil {
		return false, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return true, nil
}

// deleteSiteRows removes a site and everything that belongs to it.
func deleteSiteRows(ctx context.Context, tx *ent.Tx, siteID string) error {
	if _, err := tx.SiteSpace.Delete().Where(sitespace.SiteID(siteID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete site spaces: %w", err)
	}
	if _, err := tx.SiteSection.Delete().Where(sitesection.SiteID(siteID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete sections: %w", err)
	}
	if _, err := tx.SiteSectionGroup.Delete().Where(sitesectiongroup.SiteID(siteID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete section groups: %w", err)
	}
	if _, err := tx.SiteShareLink.Delete().Where(sharelinkOf(siteID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete share links: %w", err)
	}
	if _, err := tx.Site.Delete().Where(site.ID(siteID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete site: %w", err)
	}
	return nil
}
