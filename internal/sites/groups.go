package sites

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/ent/predicate"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/conditions"
	"quire/internal/loaders"
)

// CheckCondition validates a visitor condition (empty means always shown).
func CheckCondition(field, cond string) error { return conditions.Check(field, cond) }

func sharelinkOf(siteID string) predicate.SiteShareLink { return sitesharelink.SiteID(siteID) }

// GroupInput creates a section group.
type GroupInput struct {
	Title    string
	Icon     *string
	Sections []string
	Parent   *string
}

// Group returns one section group of a site.
// Errors: NotFound.
func (s *Service) Group(ctx context.Context, orgID, siteID, id string) (*ent.SiteSectionGroup, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	all, err := loaders.For(ctx).Sites.GroupsBySite.Load(ctx, st.ID)()
	if err != nil {
		return nil, err
	}
	for _, g := range all {
		if g.ID == id {
			return g, nil
		}
	}
	return nil, apierr.NotFoundf("No matching site section group found for id %q", id)
}

// Groups lists a site's section groups in structure order.
// Errors: NotFound.
func (s *Service) Groups(ctx context.Context, orgID, siteID string) ([]*ent.SiteSectionGroup, error) {
	t, err := s.Structure(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	var out []*ent.SiteSectionGroup
	var walk func([]Item)
	walk = func(items []Item) {
		for _, it := range items {
			if it.Group != nil {
				out = append(out, it.Group)
				walk(it.Children)
			}
		}
	}
	walk(t.Root)
	return out, nil
}

// Sections lists a site's sections in structure order.
// Errors: NotFound.
func (s *Service) Sections(ctx context.Context, orgID, siteID string) ([]*ent.SiteSection, error) {
	t, err := s.Structure(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return t.OrderedSections(), nil
}

// OrderedSections returns every section, depth first in structure order.
func (t *Tree) OrderedSections() []*ent.SiteSection {
	var out []*ent.SiteSection
	var walk func([]Item)
	walk = func(items []Item) {
		for _, it := range items {
			if it.Section != nil {
				out = append(out, it.Section)
			}
			walk(it.Children)
		}
	}
	walk(t.Root)
	return out
}

// OrderedSiteSpaces returns every site space in structure order.
func (t *Tree) OrderedSiteSpaces() []*ent.SiteSpace {
	if !t.HasSections() {
		return SpacesOf(t.SiteSpaces, nil)
	}
	var out []*ent.SiteSpace
	for _, sec := range t.OrderedSections() {
		id := sec.ID
		out = append(out, SpacesOf(t.SiteSpaces, &id)...)
	}
	return out
}

// CreateGroup creates a section group, optionally inside another group,
// and moves the given sections into it.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) CreateGroup(ctx context.Context, orgID, siteID string, in GroupInput) (*ent.SiteSectionGroup, error) {
	if err := checkLen("title", in.Title, 1, GroupTitleMax); err != nil {
		return nil, err
	}
	if in.Icon != nil {
		if err := checkLen("icon", *in.Icon, 0, IconMax); err != nil {
			return nil, err
		}
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	var out *ent.SiteSectionGroup
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockSite(ctx, tx, st.ID); err != nil {
			return err
		}
		c := tx.Client()
		if in.Parent != nil {
			p, err := c.SiteSectionGroup.Get(ctx, *in.Parent)
			if err != nil || p.SiteID != st.ID {
				return apierr.Invalid("parent", "parent: no matching section group in this site")
			}
		}
		secs, groups, err := levelRows(ctx, c, st.ID)
		if err != nil {
			return err
		}
		if len(secs) == 0 {
			return apierr.Invalid("sections", "The site has no sections to group; add a section first")
		}
		out, err = tx.SiteSectionGroup.Create().SetSiteID(st.ID).SetTitle(in.Title).SetNillableIcon(in.Icon).
			SetNillableParentID(in.Parent).SetPosition(after(lastPosition(ChildrenOf(secs, groups, in.Parent)))).Save(ctx)
		if err != nil {
			return fmt.Errorf("create section group: %w", err)
		}
		last := ""
		for _, id := range in.Sections {
			sec, err := c.SiteSection.Get(ctx, id)
			if err != nil || sec.SiteID != st.ID {
				return apierr.Invalid("sections", "sections: no matching section %q in this site", id)
			}
			last = after(last)
			if err := tx.SiteSection.UpdateOneID(id).SetGroupID(out.ID).SetPosition(last).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return s.Client.SiteSectionGroup.Get(ctx, out.ID)
}

func levelRows(ctx context.Context, c *ent.Client, siteID string) ([]*ent.SiteSection, []*ent.SiteSectionGroup, error) {
	secs, err := c.SiteSection.Query().Where(sitesection.SiteID(siteID)).All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("list sections: %w", err)
	}
	groups, err := c.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(siteID)).All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("list section groups: %w", err)
	}
	return secs, groups, nil
}

// GroupUpdate patches a group.
type GroupUpdate struct {
	Title catalog.Opt[string]
	Icon  catalog.Opt[*string]
}

// UpdateGroup patches a section group.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateGroup(ctx context.Context, orgID, siteID, id string, in GroupUpdate) (*ent.SiteSectionGroup, error) {
	if in.Title.Set {
		if err := checkLen("title", in.Title.Value, 1, GroupTitleMax); err != nil {
			return nil, err
		}
	}
	if in.Icon.Set && in.Icon.Value != nil {
		if err := checkLen("icon", *in.Icon.Value, 0, IconMax); err != nil {
			return nil, err
		}
	}
	if _, err := s.writable(ctx, orgID, siteID); err != nil {
		return nil, err
	}
	g, err := s.Group(ctx, orgID, siteID, id)
	if err != nil {
		return nil, err
	}
	var out *ent.SiteSectionGroup
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.SiteSectionGroup.UpdateOneID(g.ID)
		if in.Title.Set {
			u.SetTitle(in.Title.Value)
		}
		if in.Icon.Set {
			if in.Icon.Value == nil {
				u.ClearIcon()
			} else {
				u.SetIcon(*in.Icon.Value)
			}
		}
		var err error
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("update section group: %w", err)
	}
	loaders.For(ctx).ForgetSite(ctx, siteID)
	return out, nil
}

// DeleteGroup deletes a group; its sections and groups move up to the
// group's parent. It reports false when the group did not exist.
// Errors: Forbidden.
func (s *Service) DeleteGroup(ctx context.Context, orgID, siteID, id string) (bool, error) {
	if _, err := s.writable(ctx, orgID, siteID); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return false, nil
		}
		return false, err
	}
	g, err := s.Group(ctx, orgID, siteID, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockSite(ctx, tx, g.SiteID); err != nil {
			return err
		}
		secs, groups, err := levelRows(ctx, tx.Client(), g.SiteID)
		if err != nil {
			return err
		}
		last := lastPosition(ChildrenOf(secs, groups, g.ParentID))
		for _, it := range ChildrenOf(secs, groups, &g.ID) {
			last = after(last)
			if it.Section != nil {
				u := tx.SiteSection.UpdateOneID(it.Section.ID).SetPosition(last)
				if g.ParentID == nil {
					u.ClearGroupID()
				} else {
					u.SetGroupID(*g.ParentID)
				}
				if err := u.Exec(ctx); err != nil {
					return err
				}
				continue
			}
			u := tx.SiteSectionGroup.UpdateOneID(it.Group.ID).SetPosition(last)
			if g.ParentID == nil {
				u.ClearParentID()
			} else {
				u.SetParentID(*g.ParentID)
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
		}
		return tx.SiteSectionGroup.DeleteOneID(g.ID).Exec(ctx)
	})
	if err != nil {
		return false, err
	}
	loaders.For(ctx).ForgetSite(ctx, siteID)
	return true, nil
}

// AddSectionToGroup moves a section into a group, at its end.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) AddSectionToGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (*ent.SiteSectionGroup, error) {
	if _, err := s.writable(ctx, orgID, siteID); err != nil {
		return nil, err
	}
	g, err := s.Group(ctx, orgID, siteID, groupID)
	if err != nil {
		return nil, err
	}
	sec, err := s.Section(ctx, orgID, siteID, sectionID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, apierr.Invalid("sectionId", "sectionId: no matching section in this site")
	}
	if err != nil {
		return nil, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockSite(ctx, tx, g.SiteID); err != nil {
			return err
		}
		secs, groups, err := levelRows(ctx, tx.Client(), g.SiteID)
		if err != nil {
			return err
		}
		last := lastPosition(ChildrenOf(secs, groups, &g.ID))
		return tx.SiteSection.UpdateOneID(sec.ID).SetGroupID(g.ID).SetPosition(after(last)).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, siteID)
	return g, nil
}

// RemoveSectionFromGroup moves a section out of a group, to the group's
// parent. It reports false when the section was not in the group.
// Errors: NotFound, Forbidden.
func (s *Service) RemoveSectionFromGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (bool, error) {
	if _, err := s.writable(ctx, orgID, siteID); err != nil {
		return false, err
	}
	g, err := s.Group(ctx, orgID, siteID, groupID)
	if err != nil {
		return false, err
	}
	sec, err := s.Section(ctx, orgID, siteID, sectionID)
	if apierr.CodeOf(err) == apierr.NotFound || (err == nil && (sec.GroupID == nil || *sec.GroupID != g.ID)) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockSite(ctx, tx, g.SiteID); err != nil {
			return err
		}
		secs, groups, err := levelRows(ctx, tx.Client(), g.SiteID)
		if err != nil {
			return err
		}
		u := tx.SiteSection.UpdateOneID(sec.ID).SetPosition(after(lastPosition(ChildrenOf(secs, groups, g.ParentID))))
		if g.ParentID == nil {
			u.ClearGroupID()
		} else {
			u.SetGroupID(*g.ParentID)
		}
		return u.Exec(ctx)
	})
	if err != nil {
		return false, err
	}
	loaders.For(ctx).ForgetSite(ctx, siteID)
	return true, nil
}
