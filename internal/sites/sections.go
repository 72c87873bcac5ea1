package sites

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/ent/site"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitespace"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/loaders"
)

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
		if err := checkLen("title", *in.Title, TitleMin, TitleMax); err != nil {
			return nil, err
		}
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
		if _, err := addSiteSpace(ctx, tx, fresh, &out.ID, spaces[0], "spaceId"); err != nil {
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
		if err := checkLen("title", in.Title.Value, TitleMin, TitleMax); err != nil {
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
		if err := checkLen("icon", *in.Icon.Value, 0, IconMax); err != nil {
			return nil, err
		}
	}
	if in.Description.Set && in.Description.Value != nil {
		if err := checkLen("description", *in.Description.Value, 0, DescriptionMax); err != nil {
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
