package sites

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/ent/predicate"
	"quire/ent/sitesection"
	"quire/ent/sitespace"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/loaders"
	"quire/internal/position"
)

// addSiteSpace adds a space to a site, in a section or at the root, at the
// end, and makes it the default of its place when that has none. A space is
// published at most once per site: adding it again is a BadRequest on
// field (the site is locked, so two concurrent adds cannot both pass).
func addSiteSpace(ctx context.Context, tx *ent.Tx, st *ent.Site, sectionID *string, sp *ent.Space, field string) (*ent.SiteSpace, error) {
	if err := lockSite(ctx, tx, st.ID); err != nil {
		return nil, err
	}
	c := tx.Client()
	if err := checkNotOnSite(ctx, c, st.ID, sp.ID, "", field); err != nil {
		return nil, err
	}
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

// checkNotOnSite refuses a space that a site space of the site other than
// except already publishes.
func checkNotOnSite(ctx context.Context, c *ent.Client, siteID, spaceID, except, field string) error {
	q := c.SiteSpace.Query().Where(sitespace.SiteID(siteID), sitespace.SpaceID(spaceID))
	if except != "" {
		q = q.Where(sitespace.IDNEQ(except))
	}
	on, err := q.Exist(ctx)
	if err != nil {
		return fmt.Errorf("find site spaces of space %s: %w", spaceID, err)
	}
	if on {
		return apierr.Invalid(field, "%s: the space %q is already on this site", field, spaceID)
	}
	return nil
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
		out, err = addSiteSpace(ctx, tx, st, target, spaces[0], "spaceId")
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
		if space != nil && space.ID != ss.SpaceID {
			if err := lockSite(ctx, tx, ss.SiteID); err != nil {
				return err
			}
			if err := checkNotOnSite(ctx, tx.Client(), ss.SiteID, space.ID, ss.ID, "spaceId"); err != nil {
				return err
			}
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
	if err := checkLen(field, p, 1, PathMax); err != nil {
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
