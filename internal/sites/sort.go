package sites

import (
	"context"

	"quire/ent"
	"quire/ent/sitespace"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/loaders"
	"quire/internal/position"
)

// Pointer names an item of a site's structure: Type is "site-space",
// "site-section" or "site-section-group".
type Pointer struct {
	Type string
	ID   string
}

// Move places an item before and/or after a sibling; with neither, at the
// end of its current parent.
type Move struct {
	Before *Pointer
	After  *Pointer
}

// Sorted is the item a sort moved.
type Sorted struct {
	Section   *ent.SiteSection
	Group     *ent.SiteSectionGroup
	SiteSpace *ent.SiteSpace
}

var itemTypes = map[string]bool{"site-space": true, "site-section": true, "site-section-group": true}

// Sort moves one item of a site's structure. A site space moves among the
// site spaces of the pointer's section (or the root); a section or group
// moves among the sections and groups of the pointer's group (or the root).
// Only the moved item is rewritten.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) Sort(ctx context.Context, orgID, siteID string, item Pointer, mv Move) (*Sorted, error) {
	if !itemTypes[item.Type] {
		return nil, apierr.Invalid("item.type", "item.type must be site-space, site-section or site-section-group")
	}
	for field, p := range map[string]*Pointer{"position.before": mv.Before, "position.after": mv.After} {
		if p == nil {
			continue
		}
		if !itemTypes[p.Type] {
			return nil, apierr.Invalid(field+".type", "%s.type must be site-space, site-section or site-section-group", field)
		}
		if (item.Type == "site-space") != (p.Type == "site-space") {
			return nil, apierr.Invalid(field, "%s: a site space can only be placed next to site spaces, and sections and groups next to sections and groups", field)
		}
		if p.ID == item.ID {
			return nil, apierr.Invalid(field, "%s: an item cannot be placed next to itself", field)
		}
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	out := &Sorted{}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockSite(ctx, tx, st.ID); err != nil {
			return err
		}
		c := tx.Client()
		if item.Type == "site-space" {
			return sortSiteSpace(ctx, tx, c, st, item.ID, mv, out)
		}
		return sortSectionOrGroup(ctx, tx, c, st, item, mv, out)
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return out, nil
}

func sortSiteSpace(ctx context.Context, tx *ent.Tx, c *ent.Client, st *ent.Site, id string, mv Move, out *Sorted) error {
	all, err := c.SiteSpace.Query().Where(sitespace.SiteID(st.ID)).All(ctx)
	if err != nil {
		return err
	}
	byID := map[string]*ent.SiteSpace{}
	for _, ss := range all {
		byID[ss.ID] = ss
	}
	me, ok := byID[id]
	if !ok {
		return apierr.NotFoundf("No matching site space found for id %q", id)
	}
	target := me.SectionID
	for field, p := range map[string]*Pointer{"position.before": mv.Before, "position.after": mv.After} {
		if p == nil {
			continue
		}
		ref, ok := byID[p.ID]
		if !ok {
			return apierr.Invalid(field, "%s: no matching site space %q in this site", field, p.ID)
		}
		target = ref.SectionID
	}
	if mv.Before != nil && mv.After != nil && !sameID(byID[mv.Before.ID].SectionID, byID[mv.After.ID].SectionID) {
		return apierr.Invalid("position", "position.before and position.after must be in the same section")
	}
	var keys []keyed
	for _, ss := range SpacesOf(all, target) {
		if ss.ID != me.ID {
			keys = append(keys, keyed{ss.ID, ss.Position})
		}
	}
	pos, err := place(keys, mv)
	if err != nil {
		return err
	}
	u := tx.SiteSpace.UpdateOneID(me.ID).SetPosition(pos)
	if target == nil {
		u.ClearSectionID()
	} else {
		u.SetSectionID(*target)
	}
	if out.SiteSpace, err = u.Save(ctx); err != nil {
		return err
	}
	if !sameID(me.SectionID, target) {
		return repairDefaults(ctx, tx, st.ID)
	}
	return nil
}

func sortSectionOrGroup(ctx context.Context, tx *ent.Tx, c *ent.Client, st *ent.Site, item Pointer, mv Move, out *Sorted) error {
	secs, groups, err := levelRows(ctx, c, st.ID)
	if err != nil {
		return err
	}
	parentOf := map[string]*string{}
	kind := map[string]string{}
	for _, s := range secs {
		parentOf[s.ID], kind[s.ID] = s.GroupID, "site-section"
	}
	groupParent := map[string]*string{}
	for _, g := range groups {
		parentOf[g.ID], kind[g.ID] = g.ParentID, "site-section-group"
		groupParent[g.ID] = g.ParentID
	}
	if kind[item.ID] != item.Type {
		return apierr.NotFoundf("No matching %s found for id %q", item.Type, item.ID)
	}
	target := parentOf[item.ID]
	for field, p := range map[string]*Pointer{"position.before": mv.Before, "position.after": mv.After} {
		if p == nil {
			continue
		}
		if kind[p.ID] != p.Type {
			return apierr.Invalid(field, "%s: no matching %s %q in this site", field, p.Type, p.ID)
		}
		target = parentOf[p.ID]
	}
	if mv.Before != nil && mv.After != nil && !sameID(parentOf[mv.Before.ID], parentOf[mv.After.ID]) {
		return apierr.Invalid("position", "position.before and position.after must be in the same group")
	}
	if item.Type == "site-section-group" {
		// A group cannot move inside itself or one of its descendants.
		for cur, depth := target, 0; cur != nil && depth < 64; cur, depth = groupParent[*cur], depth+1 {
			if *cur == item.ID {
				return apierr.Invalid("position", "position: a section group cannot be moved inside itself")
			}
		}
	}
	var keys []keyed
	for _, it := range ChildrenOf(secs, groups, target) {
		p, id := it.key()
		if id != item.ID {
			keys = append(keys, keyed{id, p})
		}
	}
	pos, err := place(keys, mv)
	if err != nil {
		return err
	}
	if item.Type == "site-section" {
		u := tx.SiteSection.UpdateOneID(item.ID).SetPosition(pos)
		if target == nil {
			u.ClearGroupID()
		} else {
			u.SetGroupID(*target)
		}
		out.Section, err = u.Save(ctx)
		return err
	}
	u := tx.SiteSectionGroup.UpdateOneID(item.ID).SetPosition(pos)
	if target == nil {
		u.ClearParentID()
	} else {
		u.SetParentID(*target)
	}
	out.Group, err = u.Save(ctx)
	return err
}

type keyed struct{ id, pos string }

// place computes a key among ordered siblings for a move.
func place(sibs []keyed, mv Move) (string, error) {
	idx := func(id string) int {
		for i, k := range sibs {
			if k.id == id {
				return i
			}
		}
		return -1
	}
	lo, hi := "", ""
	switch {
	case mv.After != nil && mv.Before != nil:
		a, b := idx(mv.After.ID), idx(mv.Before.ID)
		if a < 0 || b < 0 || a+1 != b {
			return "", apierr.Invalid("position", "position.after and position.before must be adjacent siblings")
		}
		lo, hi = sibs[a].pos, sibs[b].pos
	case mv.After != nil:
		a := idx(mv.After.ID)
		lo = sibs[a].pos
		if a+1 < len(sibs) {
			hi = sibs[a+1].pos
		}
	case mv.Before != nil:
		b := idx(mv.Before.ID)
		hi = sibs[b].pos
		if b > 0 {
			lo = sibs[b-1].pos
		}
	default:
		if len(sibs) > 0 {
			lo = sibs[len(sibs)-1].pos
		}
	}
	if lo != "" && hi != "" && lo >= hi {
		return "", apierr.Invalid("position", "Invalid position")
	}
	key, err := position.Between(lo, hi)
	if err != nil {
		return "", apierr.Invalid("position", "Invalid position: %v", err)
	}
	return key, nil
}
